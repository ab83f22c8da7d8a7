/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmxdemo's parts: the test pattern (mmxdemo.c), the RandR 1.3 tour
 * (tour.c) and the pictures it saves (picture.c).
 */
#ifndef MMXDEMO_H
#define MMXDEMO_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Colour bars over two thirds, a grey ramp below, a 64-pixel grid and
 * @number in big digits at the top left, into @w x @h XRGB8888 pixels,
 * @stride pixels a row.
 */
void demo_draw_pattern(uint32_t *px, uint32_t w, uint32_t h, uint32_t stride,
		       int number);

/* A picture: XRGB8888, @w * @h pixels, rows @w pixels apart. */
struct pic {
	uint32_t w, h;
	uint32_t *px;
};

/* picture.c: the allocating ones return false without memory. */
bool pic_alloc(struct pic *p, uint32_t w, uint32_t h, uint32_t fill);
bool pic_row(struct pic *row, const struct pic *pics, int n);
bool pic_stack(struct pic *out, const struct pic *a, const struct pic *b);
void pic_pointer(struct pic *p, int32_t x, int32_t y);
void pic_dot(struct pic *p, int64_t x, int64_t y, uint32_t colour);
void pic_line(struct pic *p, double x0, double y0, double x1, double y1,
	      int thick, uint32_t colour);
void pic_box(struct pic *p, int64_t x, int64_t y, int64_t w, int64_t h,
	     int thick, uint32_t colour);
/* DIR/NAME.ppm; prints "saved PATH". 0 or -errno. */
int pic_save(const char *dir, const char *name, const struct pic *p);

/*
 * The tour of what mmx is for, on the mmx device open as @fd (DRM master):
 * rotation, keystone, panning that follows the pointer over two outputs, a
 * timed commit; pictures into @outdir. Modes no bigger than @maxw x @maxh
 * when the outputs have them (0: preferred modes). Returns the exit status.
 */
int demo_tour(int fd, const char *outdir, int maxw, int maxh);

#endif /* MMXDEMO_H */
