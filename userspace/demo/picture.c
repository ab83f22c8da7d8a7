// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo's pictures: XRGB8888 pixels in memory, put side by side or one
 * above the other, a few marks drawn on them, saved as binary PPM files.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "demo.h"

#define GAP 16		/* pixels between the pictures of a row or stack */
#define GAP_COLOUR 0x303030

bool pic_alloc(struct pic *p, uint32_t w, uint32_t h, uint32_t fill)
{
	p->w = w;
	p->h = h;
	p->px = malloc((size_t)w * h * sizeof(*p->px));
	if (!p->px)
		return false;
	for (size_t i = 0; i < (size_t)w * h; i++)
		p->px[i] = fill;
	return true;
}

/* @n pictures side by side, GAP apart, on a dark background. */
bool pic_row(struct pic *row, const struct pic *pics, int n)
{
	uint32_t w = 0, h = 0, x = 0;

	for (int i = 0; i < n; i++) {
		w += pics[i].w + (i ? GAP : 0);
		if (pics[i].h > h)
			h = pics[i].h;
	}
	if (!pic_alloc(row, w, h, GAP_COLOUR))
		return false;
	for (int i = 0; i < n; i++) {
		for (uint32_t y = 0; y < pics[i].h; y++)
			memcpy(row->px + (size_t)y * w + x,
			       pics[i].px + (size_t)y * pics[i].w,
			       pics[i].w * sizeof(*row->px));
		x += pics[i].w + GAP;
	}
	return true;
}

/*
 * An arrow pointer with its tip at (@x, @y), black outline, white inside,
 * twice the usual size; it points left when it would leave the picture on
 * the right.
 */
void pic_pointer(struct pic *p, int32_t x, int32_t y)
{
	int32_t dir = (int64_t)x + 32 >= p->w ? -1 : 1;

	for (int32_t dy = 0; dy < 48; dy++)
		for (int32_t dx = 0; dx <= dy / 2; dx++) {
			int64_t px = (int64_t)x + dir * dx, py = (int64_t)y + dy;
			bool edge = dx < 2 || dx >= dy / 2 - 1 || dy >= 46;

			if (px >= 0 && py >= 0 && px < p->w && py < p->h)
				p->px[py * p->w + px] = edge ? 0x000000 : 0xffffff;
		}
}

/* @a above @b, GAP apart, left-aligned. */
bool pic_stack(struct pic *out, const struct pic *a, const struct pic *b)
{
	if (!pic_alloc(out, a->w > b->w ? a->w : b->w, a->h + GAP + b->h,
		       GAP_COLOUR))
		return false;
	for (uint32_t y = 0; y < a->h; y++)
		memcpy(out->px + (size_t)y * out->w, a->px + (size_t)y * a->w,
		       a->w * sizeof(*out->px));
	for (uint32_t y = 0; y < b->h; y++)
		memcpy(out->px + (size_t)(a->h + GAP + y) * out->w,
		       b->px + (size_t)y * b->w, b->w * sizeof(*out->px));
	return true;
}

void pic_dot(struct pic *p, int64_t x, int64_t y, uint32_t colour)
{
	if (x >= 0 && y >= 0 && x < p->w && y < p->h)
		p->px[y * p->w + x] = colour;
}

/* A line from (@x0, @y0) to (@x1, @y1), @thick pixels thick. */
void pic_line(struct pic *p, double x0, double y0, double x1,
		     double y1, int thick, uint32_t colour)
{
	double dx = x1 - x0, dy = y1 - y0;
	int steps = (int)((dx < 0 ? -dx : dx) > (dy < 0 ? -dy : dy) ?
			  (dx < 0 ? -dx : dx) : (dy < 0 ? -dy : dy)) + 1;

	for (int i = 0; i <= steps; i++) {
		int64_t x = (int64_t)(x0 + dx * i / steps);
		int64_t y = (int64_t)(y0 + dy * i / steps);

		for (int a = -thick / 2; a <= thick / 2; a++)
			for (int b = -thick / 2; b <= thick / 2; b++)
				pic_dot(p, x + a, y + b, colour);
	}
}

/* The outline of the rectangle (@x, @y) @w x @h. */
void pic_box(struct pic *p, int64_t x, int64_t y, int64_t w, int64_t h,
		    int thick, uint32_t colour)
{
	pic_line(p, x, y, x + w - 1, y, thick, colour);
	pic_line(p, x, y + h - 1, x + w - 1, y + h - 1, thick, colour);
	pic_line(p, x, y, x, y + h - 1, thick, colour);
	pic_line(p, x + w - 1, y, x + w - 1, y + h - 1, thick, colour);
}

int pic_save(const char *dir, const char *name, const struct pic *p)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s.ppm", dir, name);
	f = fopen(path, "wb");
	if (!f) {
		int err = errno;

		fprintf(stderr, "mmxdemo: %s: %s\n", path, strerror(err));
		return -err;
	}
	fprintf(f, "P6\n%u %u\n255\n", p->w, p->h);
	for (size_t i = 0; i < (size_t)p->w * p->h; i++) {
		unsigned char rgb[3] = { p->px[i] >> 16, p->px[i] >> 8, p->px[i] };

		fwrite(rgb, 1, 3, f);
	}
	if (fclose(f)) {
		fprintf(stderr, "mmxdemo: %s: %s\n", path, strerror(errno));
		return -EIO;
	}
	printf("saved %s\n", path);
	return 0;
}
