/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmxdemo's parts: the test pattern (mmxdemo.c) and the RandR 1.3 tour
 * (tour.c).
 */
#ifndef MMXDEMO_H
#define MMXDEMO_H

#include <stdint.h>

/*
 * Colour bars over two thirds, a grey ramp below, a 64-pixel grid and
 * @number in big digits at the top left, into @w x @h XRGB8888 pixels,
 * @stride pixels a row.
 */
void demo_draw_pattern(uint32_t *px, uint32_t w, uint32_t h, uint32_t stride,
		       int number);

/*
 * The tour of what mmx is for, on the mmx device open as @fd (DRM master):
 * rotation, keystone, panning that follows the pointer over two outputs, a
 * timed commit; pictures into @outdir. Modes no bigger than @maxw x @maxh
 * when the outputs have them (0: preferred modes). Returns the exit status.
 */
int demo_tour(int fd, const char *outdir, int maxw, int maxh);

#endif /* MMXDEMO_H */
