/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * mmxdemo's parts: the test pattern (mmxdemo.c), the RandR 1.3 tour
 * (tour.c), the pictures it saves (picture.c) and the KMS helpers for what
 * libmmx leaves to it (kms.c).
 */
#ifndef MMXDEMO_H
#define MMXDEMO_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drmMode.h>

#include "libmmx.h"

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

/* kms.c: a framebuffer of the demo's own, mapped. */
struct demo_fb {
	uint32_t fb_id, pitch, width, height;
	uint64_t size;
	uint32_t *map;
};

/* A dumb @w x @h 32-bit framebuffer of @format, mapped. 0 or -errno. */
int demo_fb_create(int fd, uint32_t w, uint32_t h, uint32_t format,
		   struct demo_fb *fb);
/* Property @name of KMS object @obj: its id and value (either may be NULL). */
bool demo_prop(int fd, uint32_t obj, uint32_t type, const char *name,
	       uint32_t *id, uint64_t *value);

/*
 * The tour of what mmx is for, on the mmx device open as @fd (DRM master):
 * rotation, keystone, panning that follows the pointer over two outputs, a
 * timed commit; pictures into @outdir. Modes no bigger than @maxw x @maxh
 * when the outputs have them (0: preferred modes). Returns the exit status.
 */
int demo_tour(int fd, const char *outdir, int maxw, int maxh);

#endif /* MMXDEMO_H */
