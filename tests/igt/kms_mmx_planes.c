// SPDX-License-Identifier: MIT
/*
 * kms_mmx_planes - what the compositor makes of planes: every format on
 * every plane kind, positions (also off-screen), source offsets, zpos order,
 * plane alpha and blend modes. Every check captures the CRTC through its
 * writeback connector and compares with the software reference of mmx_igt,
 * pixel-exact where the contract promises it and within 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_igt.h"

#define W 320
#define H 240

/* A plane of the scene. */
struct layer {
	uint32_t plane;
	struct mmx_fb *fb;
	int sx, sy;		/* source offset */
	int x, y;		/* CRTC position */
	int w, h;		/* 0: whole FB */
	uint16_t alpha;
	enum mmx_blend blend;
	int zpos;		/* -1: leave as it is */
};

static struct layer layer(uint32_t plane, struct mmx_fb *fb, int x, int y)
{
	struct layer l = {
		.plane = plane, .fb = fb, .x = x, .y = y,
		.alpha = 0xffff, .blend = MMX_BLEND_PREMULTI, .zpos = -1,
	};

	return l;
}

/* Show the W x H window of L's FB from (SX, SY). */
static void layer_window(struct layer *l, int sx, int sy, int w, int h)
{
	l->sx = sx;
	l->sy = sy;
	l->w = w;
	l->h = h;
}

/* A random opaque W x H XRGB8888 FB (from SEED), to put under the rest. */
static struct mmx_fb *background(struct mmx_dev *d, uint32_t seed)
{
	return mmx_fb_new_random(d, W, H, DRM_FORMAT_XRGB8888, seed,
				 MMX_ALPHA_ANY);
}

/* Light output O at 320x240 with no plane. */
static void light(struct mmx_dev *d, struct mmx_output *o)
{
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
}

/* A plane update: 16.16 source, CRTC rectangle, rotation, filter. */
struct splane {
	uint32_t plane;
	const struct mmx_fb *fb;
	uint32_t sx, sy, sw, sh;	/* 16.16 */
	int64_t x, y;
	uint32_t w, h;
	uint32_t rotation;		/* 0: leave the property alone */
	bool nearest;
	bool keep_filter;		/* leave SCALING_FILTER alone */
	uint16_t alpha;
	enum mmx_blend blend;
	int zpos;			/* -1: leave as it is */
};

static struct splane splane(uint32_t plane, const struct mmx_fb *fb, int x,
			    int y, uint32_t w, uint32_t h)
{
	struct splane p = {
		.plane = plane, .fb = fb, .sw = fb->width << 16,
		.sh = fb->height << 16, .x = x, .y = y, .w = w, .h = h,
		.rotation = DRM_MODE_ROTATE_0, .nearest = true, .alpha = 0xffff,
		.blend = MMX_BLEND_PREMULTI, .zpos = -1,
	};

	return p;
}

/* P's source rectangle, 16.16. */
static void splane_src(struct splane *p, uint32_t sx, uint32_t sy, uint32_t sw,
		       uint32_t sh)
{
	p->sx = sx;
	p->sy = sy;
	p->sw = sw;
	p->sh = sh;
}

static void req_splane(struct mmx_dev *d, struct mmx_req *r,
		       struct mmx_output *o, const struct splane *p)
{
	mmx_req_plane_fixed(r, p->plane, o->crtc_id, p->fb->id, p->sx, p->sy,
			    p->sw, p->sh, p->x, p->y, p->w, p->h);
	if (p->rotation)
		mmx_req_add(r, p->plane, "rotation", p->rotation);
	if (!p->keep_filter)
		mmx_req_add(r, p->plane, "SCALING_FILTER",
			    mmx_prop_enum(d, p->plane, "SCALING_FILTER",
					  p->nearest ? "Nearest Neighbor" :
						       "Default"));
	mmx_req_add(r, p->plane, "alpha", p->alpha);
	mmx_req_add(r, p->plane, "pixel blend mode",
		    mmx_prop_enum(d, p->plane, "pixel blend mode",
				  mmx_blend_names[p->blend]));
	if (p->zpos >= 0)
		mmx_req_add(r, p->plane, "zpos", (uint64_t)p->zpos);
}

/* Commit P[0..N) on output O with the other planes of O off. */
static void commit_splanes(struct mmx_dev *d, struct mmx_output *o,
			   const struct splane *p, int n)
{
	struct mmx_req *r = mmx_req_new(d);
	uint32_t shown[8];
	int i;

	mmx_assert(n <= 8);
	for (i = 0; i < n; i++)
		shown[i] = p[i].plane;
	mmx_req_planes_off_but(r, o, shown, n);
	for (i = 0; i < n; i++)
		req_splane(d, r, o, &p[i]);
	mmx_do(mmx_req_commit(r, 0));
}

/* Layer L as an unscaled plane update that leaves the filter alone. */
static struct splane layer_splane(const struct layer *l)
{
	uint32_t w = l->w ? (uint32_t)l->w : l->fb->width;
	uint32_t h = l->h ? (uint32_t)l->h : l->fb->height;
	struct splane p = splane(l->plane, l->fb, l->x, l->y, w, h);

	splane_src(&p, (uint32_t)l->sx << 16, (uint32_t)l->sy << 16, w << 16,
		   h << 16);
	p.rotation = 0;
	p.keep_filter = true;
	p.alpha = l->alpha;
	p.blend = l->blend;
	p.zpos = l->zpos;
	return p;
}



/*
 * Show LAYERS on output O (other planes of O off), then capture and compare
 * with the reference composed in (zpos, plane id) order as the properties
 * report it. FMT names the check.
 */
static void __attribute__((format(printf, 5, 6)))
show_and_check(struct mmx_dev *d, struct mmx_output *o,
	       const struct layer *layers, int n, const char *fmt, ...)
{
	struct mmx_ref_plane ref[8];
	struct splane p[8];
	uint64_t z[8];
	int order[8];
	char what[80];
	va_list ap;
	int i, j;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);

	mmx_assert(n <= 8);
	for (i = 0; i < n; i++)
		p[i] = layer_splane(&layers[i]);
	commit_splanes(d, o, p, n);

	for (i = 0; i < n; i++) {
		z[i] = mmx_prop_get(d, layers[i].plane, "zpos");
		if (layers[i].zpos >= 0)
			mmx_assert_eq(z[i], layers[i].zpos);
		order[i] = i;
	}
	/* insertion sort by (zpos, plane id): normalized zpos order */
	for (i = 1; i < n; i++) {
		for (j = i; j > 0; j--) {
			const struct layer *a = &layers[order[j - 1]];
			const struct layer *b = &layers[order[j]];
			int t;

			if (z[order[j - 1]] < z[order[j]] ||
			    (z[order[j - 1]] == z[order[j]] && a->plane < b->plane))
				break;
			t = order[j];
			order[j] = order[j - 1];
			order[j - 1] = t;
		}
	}
	for (i = 0; i < n; i++) {
		const struct layer *l = &layers[order[i]];

		ref[i] = mmx_ref_fb(l->fb, l->x, l->y);
		ref[i].src_x = l->sx;
		ref[i].src_y = l->sy;
		ref[i].w = l->w ? l->w : (int)l->fb->width;
		ref[i].h = l->h ? l->h : (int)l->fb->height;
		ref[i].alpha = l->alpha;
		ref[i].blend = l->blend;
	}
	mmx_check_output(d, o, mmx_small_mode(), ref, n, what);
}

/* ------------------------------------------------------------------------ */
/* Formats                                                                  */

struct format_case {
	enum mmx_plane_kind kind;
	uint32_t format;
};

static void test_format(struct mmx_dev *d, const void *arg)
{
	const struct format_case *fc = arg;
	struct mmx_output *o = mmx_output0(d);
	bool alpha = mmx_format_has_alpha(fc->format);
	struct mmx_fb *bg, *fb, *fb2;
	struct layer l[3];

	light(d, o);
	switch (fc->kind) {
	case MMX_PLANE_PRIMARY:
		/* the whole screen; alpha formats over the black bottom */
		fb = mmx_fb_new_random(d, W, H, fc->format, fc->format,
				       alpha ? MMX_ALPHA_BINARY : MMX_ALPHA_ANY);
		l[0] = layer(o->primary, fb, 0, 0);
		show_and_check(d, o, l, 1, "primary-%s",
			       mmx_format_name(fc->format));
		if (alpha) {
			l[0].blend = MMX_BLEND_COVERAGE;
			show_and_check(d, o, l, 1, "primary-coverage");
			l[0].blend = MMX_BLEND_NONE;
			show_and_check(d, o, l, 1, "primary-none");
		}
		/* odd size and position */
		fb2 = mmx_fb_new_random(d, 97, 61, fc->format, fc->format + 1,
					MMX_ALPHA_BINARY);
		l[0] = layer(o->primary, fb2, 13, 7);
		show_and_check(d, o, l, 1, "primary-97x61");
		break;
	case MMX_PLANE_OVERLAY:
		/* both overlays over a random opaque primary */
		bg = background(d, 1);
		fb = mmx_fb_new_random(d, 128, 96, fc->format, fc->format,
				       alpha ? MMX_ALPHA_BINARY_PREMULT :
					       MMX_ALPHA_ANY);
		fb2 = mmx_fb_new_random(d, 101, 77, fc->format, fc->format + 7,
					alpha ? MMX_ALPHA_BINARY_PREMULT :
						MMX_ALPHA_ANY);
		l[0] = layer(o->primary, bg, 0, 0);
		l[1] = layer(o->overlay[0], fb, 20, 30);
		l[2] = layer(o->overlay[1], fb2, 150, 100);
		show_and_check(d, o, l, 3, "overlays-%s",
			       mmx_format_name(fc->format));
		if (alpha) {
			/* non-premultiplied content through Coverage */
			mmx_fb_random(fb, fc->format + 3, MMX_ALPHA_BINARY);
			mmx_fb_random(fb2, fc->format + 4, MMX_ALPHA_BINARY);
			l[1].blend = l[2].blend = MMX_BLEND_COVERAGE;
			show_and_check(d, o, l, 3, "overlays-coverage");
		}
		break;
	case MMX_PLANE_CURSOR:
		bg = background(d, 2);
		fb = mmx_fb_new_random(d, 64, 64, fc->format, 3,
				       MMX_ALPHA_BINARY_PREMULT);
		l[0] = layer(o->primary, bg, 0, 0);
		l[1] = layer(o->cursor, fb, 200, 100);
		show_and_check(d, o, l, 2, "cursor-premultiplied");
		mmx_fb_random(fb, 4, MMX_ALPHA_BINARY);
		l[1].blend = MMX_BLEND_COVERAGE;
		show_and_check(d, o, l, 2, "cursor-coverage");
		break;
	}
}

/* ------------------------------------------------------------------------ */
/* Positions                                                                */

static void test_cursor_sizes(struct mmx_dev *d)
{
	static const int sizes[][2] = { { 1, 1 }, { 16, 16 }, { 37, 19 },
					{ 64, 64 }, { 128, 128 }, { 256, 1 },
					{ 1, 256 }, { 256, 256 } };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 10);
	size_t i;

	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(sizes); i++) {
		struct mmx_fb *c = mmx_fb_new(d, (uint32_t)sizes[i][0],
					      (uint32_t)sizes[i][1],
					      DRM_FORMAT_ARGB8888);
		struct layer l[2] = { layer(o->primary, bg, 0, 0),
				      layer(o->cursor, c, 50, 20) };

		mmx_fb_random(c, 11 + (uint32_t)i, MMX_ALPHA_BINARY_PREMULT);
		show_and_check(d, o, l, 2, "cursor-%dx%d", sizes[i][0],
			       sizes[i][1]);
		mmx_fb_free(c);
	}
}

static const int edge_positions[][2] = {
	{ -32, -32 },		/* top left corner */
	{ W - 32, -20 },	/* top right */
	{ -50, H - 10 },	/* bottom left */
	{ W - 1, H - 1 },	/* one pixel visible */
	{ -63, 100 },		/* left edge, one column visible */
	{ 100, -63 },
	{ W - 10, 100 },
	{ 100, H - 5 },
	{ -64, -64 },		/* just off-screen */
	{ W, H },
	{ -5000, 300 },		/* far away */
	{ 16384, -16384 },	/* at the limit */
};

/*
 * Over a random primary, for each of edge_positions: the cursor there, or
 * (OVERLAYS) the first overlay there and the second at the position taken
 * from the other end of the list with x and y swapped.
 */
static void test_offscreen(struct mmx_dev *d, const void *overlays_arg)
{
	bool overlays = *(const bool *)overlays_arg;
	const size_t n = MMX_ARRAY_SIZE(edge_positions);
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, overlays ? 30 : 20);
	struct mmx_fb *a = overlays ?
		mmx_fb_new_random(d, 64, 64, DRM_FORMAT_XRGB8888, 31,
				  MMX_ALPHA_ANY) :
		mmx_fb_new_random(d, 64, 64, DRM_FORMAT_ARGB8888, 21,
				  MMX_ALPHA_BINARY_PREMULT);
	struct mmx_fb *b = overlays ?
		mmx_fb_new_random(d, 90, 50, DRM_FORMAT_RGB565, 32,
				  MMX_ALPHA_ANY) : NULL;
	size_t i;

	light(d, o);
	for (i = 0; i < n; i++) {
		const int *p = edge_positions[i], *q = edge_positions[n - 1 - i];
		struct layer l[3] = {
			layer(o->primary, bg, 0, 0),
			layer(overlays ? o->overlay[0] : o->cursor, a, p[0], p[1]),
			layer(o->overlay[1], b, q[1], q[0]),
		};

		show_and_check(d, o, l, overlays ? 3 : 2, "%s-at-%d,%d",
			       overlays ? "overlays" : "cursor", p[0], p[1]);
	}
}

static const bool offscreen_cursor, offscreen_overlays = true;

static void test_primary_position(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *small = mmx_fb_new_random(d, 160, 120,
						 DRM_FORMAT_XRGB8888, 40,
						 MMX_ALPHA_ANY);
	struct mmx_fb *big = mmx_fb_new_random(d, 400, 300, DRM_FORMAT_XBGR8888,
					       41, MMX_ALPHA_ANY);
	struct layer l;

	light(d, o);
	/* smaller than the CRTC: black around it */
	l = layer(o->primary, small, 40, 30);
	show_and_check(d, o, &l, 1, "primary-small-centered");
	l = layer(o->primary, small, 200, 150);
	show_and_check(d, o, &l, 1, "primary-small-partly-off");
	/* bigger than the CRTC at negative offsets: clipped on all sides */
	l = layer(o->primary, big, -50, -40);
	show_and_check(d, o, &l, 1, "primary-big-negative");
	l = layer(o->primary, small, -160, 0);
	show_and_check(d, o, &l, 1, "primary-just-off-left");
	l = layer(o->primary, small, -1000, -1000);
	show_and_check(d, o, &l, 1, "primary-far-off");
}

/*
 * The FBs of the source window tests, random from SEED on: a 256x192
 * RGB888 one for the primary and a 200x100 ARGB8888 one for an overlay;
 * then output 0 is lit, and returned.
 */
static struct mmx_output *window_scene(struct mmx_dev *d, uint32_t seed,
				       struct mmx_fb **fb, struct mmx_fb **ov)
{
	struct mmx_output *o = mmx_output0(d);

	*fb = mmx_fb_new_random(d, 256, 192, DRM_FORMAT_RGB888, seed,
				MMX_ALPHA_ANY);
	*ov = mmx_fb_new_random(d, 200, 100, DRM_FORMAT_ARGB8888, seed + 1,
				MMX_ALPHA_BINARY_PREMULT);
	light(d, o);
	return o;
}

static void test_src_offset(struct mmx_dev *d)
{
	struct mmx_fb *fb, *ov;
	struct mmx_output *o = window_scene(d, 50, &fb, &ov);
	struct layer l[2];

	/* a 100x80 window of the FB from (30, 20) at (10, 10) */
	l[0] = layer(o->primary, fb, 10, 10);
	layer_window(&l[0], 30, 20, 100, 80);
	l[1] = layer(o->overlay[0], ov, 150, 120);
	layer_window(&l[1], 120, 33, 80, 67);
	show_and_check(d, o, l, 2, "src-window");
}

static void test_fb_pitch_offset(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_RGB565,
					    DRM_FORMAT_RGB888 };
	struct mmx_output *o = mmx_output0(d);
	size_t i;

	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		int cpp = mmx_format_cpp(formats[i]);
		struct mmx_fb *fb = mmx_fb_new_ex(d, 150, 100, formats[i],
						  150 * (uint32_t)cpp + 256 + 3,
						  4096 + 64);
		struct layer l = layer(o->primary, fb, 77, 55);

		mmx_fb_random(fb, 60 + (uint32_t)i, MMX_ALPHA_ANY);
		show_and_check(d, o, &l, 1, "pitch-offset-%s",
			       mmx_format_name(formats[i]));
	}
}

static void test_writeback_pitch_offset(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_ref_plane ref = mmx_ref_fb(bg, 0, 0);
	struct mmx_frame *f = mmx_frame_new(W, H);
	uint32_t fmt;

	light(d, o);
	mmx_fb_random(bg, 65, MMX_ALPHA_ANY);
	{
		struct layer l = layer(o->primary, bg, 0, 0);

		show_and_check(d, o, &l, 1, "tight-writeback");
	}
	mmx_ref_compose(f, &ref, 1);
	for (fmt = 0; fmt < 2; fmt++) {
		/* a writeback FB with a wide pitch at an offset in its BO */
		struct mmx_fb *wb = mmx_fb_new_ex(d, W, H, mmx_wb_formats[fmt],
						  4 * W + 256, 8192 + 128);
		const uint8_t *p;
		size_t i, bad = 0;
		int y;

		mmx_do(mmx_wb_capture(d, o, wb));
		mmx_assert(mmx_frame_check(wb, f, mmx_format_name(mmx_wb_formats[fmt])));
		/* nothing written outside the FB's pixels (poisoned by capture) */
		for (i = 0; i < wb->offset; i++)
			bad += wb->map[i] != (i % 2 ? 0xa5 : 0x5a);
		for (y = 0; y < H; y++) {
			p = mmx_fb_ptr(wb, W, y);
			for (i = 0; i < 256; i++) {
				size_t at = (size_t)(p - wb->map) + i;

				bad += p[i] != (at % 2 ? 0xa5 : 0x5a);
			}
		}
		mmx_assert_f(bad == 0, "%zu bytes outside the writeback FB's pixels were written",
			     bad);
	}
	mmx_frame_free(f);
}

/* ------------------------------------------------------------------------ */
/* zpos                                                                     */

/*
 * The zpos scene on output O, lit: L[0] a dark primary, L[1] a red overlay
 * 0 at (40, 40), L[2] a green overlay 1 at (100, 80) overlapping it, L[3]
 * a cursor at (120, 100) over both.
 */
static void zpos_scene(struct mmx_dev *d, struct mmx_output *o,
		       struct layer *l)
{
	struct mmx_fb *fbs[4];

	fbs[0] = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	fbs[1] = mmx_fb_new(d, 150, 120, DRM_FORMAT_XRGB8888);
	fbs[2] = mmx_fb_new(d, 150, 120, DRM_FORMAT_XBGR8888);
	fbs[3] = mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888);
	mmx_fb_fill(fbs[0], 0xff204060);
	mmx_fb_fill(fbs[1], 0xffff0000);
	mmx_fb_fill(fbs[2], 0xff00ff00);
	mmx_fb_random(fbs[3], 70, MMX_ALPHA_BINARY_PREMULT);
	light(d, o);
	l[0] = layer(o->primary, fbs[0], 0, 0);
	l[1] = layer(o->overlay[0], fbs[1], 40, 40);
	l[2] = layer(o->overlay[1], fbs[2], 100, 80);
	l[3] = layer(o->cursor, fbs[3], 120, 100);
}

/* Layer L's FB at its place, for a reference in an order of its own. */
static struct mmx_ref_plane layer_ref(const struct layer *l)
{
	return mmx_ref_fb(l->fb, l->x, l->y);
}

static void test_zpos_order(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_ref_plane ref[4];
	struct layer scene[4];
	int swap;

	zpos_scene(d, o, scene);
	for (swap = 0; swap < 2; swap++) {
		uint32_t top = swap ? o->overlay[0] : o->overlay[1];
		struct layer l[4] = { scene[0], scene[1], scene[2], scene[3] };

		l[1].zpos = swap ? 2 : 1;
		l[2].zpos = swap ? 1 : 2;
		show_and_check(d, o, l, 4, swap ? "overlay0-on-top" :
						  "overlay1-on-top");
		mmx_assert_eq(mmx_prop_get(d, top, "zpos"), 2);

		/* explicit expectation too: primary, lower, upper, cursor */
		ref[0] = layer_ref(&scene[0]);
		ref[1] = layer_ref(&scene[swap ? 2 : 1]);
		ref[2] = layer_ref(&scene[swap ? 1 : 2]);
		ref[3] = layer_ref(&scene[3]);
		mmx_check_output(d, o, mmx_small_mode(), ref, 4, "explicit-order");
	}
}

static void test_zpos_tie(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_ref_plane ref[3];
	struct layer scene[4];
	int z;

	zpos_scene(d, o, scene);
	for (z = 1; z <= 2; z++) {
		/* overlay 1 listed before overlay 0 */
		struct layer l[3] = { scene[0], scene[2], scene[1] };

		l[1].zpos = l[2].zpos = z;
		show_and_check(d, o, l, 3, "both-zpos-%d", z);
		/* the higher plane id wins the tie */
		ref[0] = layer_ref(&scene[0]);
		ref[1] = layer_ref(&scene[1]);	/* overlay[0]: lower id */
		ref[2] = layer_ref(&scene[2]);
		mmx_check_output(d, o, mmx_small_mode(), ref, 3, "tie-by-id");
	}
}

/* ------------------------------------------------------------------------ */
/* Alpha and blending                                                       */

static const uint16_t alphas[] = { 0xffff, 0x8000, 0x3fff, 0x0101, 0 };

static void blend_test(struct mmx_dev *d, enum mmx_blend blend,
		       uint32_t format)
{
	/* pre-multiplied blending is only defined for valid content */
	enum mmx_alpha_mode am = blend == MMX_BLEND_PREMULTI ?
				 MMX_ALPHA_PREMULT : MMX_ALPHA_ANY;
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 80);
	struct mmx_fb *fb = mmx_fb_new_random(d, 200, 150, format, 81, am);
	struct mmx_fb *cur = mmx_fb_new_random(d, 64, 64, DRM_FORMAT_ARGB8888,
					       82, am);
	size_t i;

	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(alphas); i++) {
		struct layer l[3] = { layer(o->primary, bg, 0, 0),
				      layer(o->overlay[0], fb, 60, 40),
				      layer(o->cursor, cur, 10, 150) };

		l[1].blend = l[2].blend = blend;
		l[1].alpha = alphas[i];
		l[2].alpha = alphas[(i + 2) % MMX_ARRAY_SIZE(alphas)];
		show_and_check(d, o, l, 3, "%s-%s-alpha-%04x",
			       mmx_blend_names[blend], mmx_format_name(format),
			       alphas[i]);
	}
}

static void test_blend_none(struct mmx_dev *d)
{
	blend_test(d, MMX_BLEND_NONE, DRM_FORMAT_ARGB8888);
}

static void test_blend_premultiplied(struct mmx_dev *d)
{
	blend_test(d, MMX_BLEND_PREMULTI, DRM_FORMAT_ARGB8888);
}

static void test_blend_coverage(struct mmx_dev *d)
{
	blend_test(d, MMX_BLEND_COVERAGE, DRM_FORMAT_ABGR8888);
}

static void test_alpha_opaque_formats(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_RGB565,
					    DRM_FORMAT_XRGB2101010 };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 90);
	size_t f;
	int b;

	light(d, o);
	for (f = 0; f < MMX_ARRAY_SIZE(formats); f++) {
		struct mmx_fb *fb = mmx_fb_new_random(d, 180, 120, formats[f],
						      91 + (uint32_t)f,
						      MMX_ALPHA_ANY);

		for (b = 0; b < 3; b++) {
			struct layer l[2] = { layer(o->primary, bg, 0, 0),
					      layer(o->overlay[1], fb, 70, 60) };

			l[1].blend = (enum mmx_blend)b;
			l[1].alpha = 0x8000;
			show_and_check(d, o, l, 2, "%s-%s-half",
				       mmx_format_name(formats[f]),
				       mmx_blend_names[b]);
		}
	}
}

static void test_primary_alpha(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *fb = mmx_fb_new_random(d, W, H, DRM_FORMAT_ARGB8888, 95,
					      MMX_ALPHA_PREMULT);
	int b;

	/* the primary blends over black too */
	light(d, o);
	for (b = 0; b < 3; b++) {
		struct layer l = layer(o->primary, fb, 0, 0);

		l.blend = (enum mmx_blend)b;
		l.alpha = 0x9999;
		show_and_check(d, o, &l, 1, "primary-%s", mmx_blend_names[b]);
	}
}

static void test_blend_stack(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *p = mmx_fb_new_random(d, W, H, DRM_FORMAT_XRGB2101010,
					     100, MMX_ALPHA_ANY);
	struct mmx_fb *a = mmx_fb_new_random(d, 200, 160, DRM_FORMAT_ABGR8888,
					     101, MMX_ALPHA_BINARY);
	struct mmx_fb *b = mmx_fb_new_random(d, 160, 200, DRM_FORMAT_ARGB8888,
					     102, MMX_ALPHA_BINARY_PREMULT);
	struct mmx_fb *c = mmx_fb_new_random(d, 96, 96, DRM_FORMAT_ARGB8888,
					     103, MMX_ALPHA_BINARY);
	struct layer l[4];

	light(d, o);
	l[0] = layer(o->primary, p, 0, 0);
	l[1] = layer(o->overlay[0], a, 20, 10);
	l[2] = layer(o->overlay[1], b, 120, 30);
	l[3] = layer(o->cursor, c, 150, 100);
	l[1].blend = MMX_BLEND_COVERAGE;
	l[3].blend = MMX_BLEND_COVERAGE;
	show_and_check(d, o, l, 4, "stack-exact");
	/* one translucent layer in the middle of the stack */
	l[1].alpha = 0x6000;
	l[1].blend = MMX_BLEND_NONE;
	show_and_check(d, o, l, 4, "stack-translucent");
}

static void test_plane_disable(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 110);
	struct mmx_fb *ov = mmx_fb_new_random(d, 100, 100, DRM_FORMAT_XRGB8888,
					      111, MMX_ALPHA_ANY);
	struct layer l[3];

	light(d, o);
	l[0] = layer(o->primary, bg, 0, 0);
	l[1] = layer(o->overlay[0], ov, 10, 10);
	l[2] = layer(o->cursor, mmx_fb_new(d, 32, 32, DRM_FORMAT_ARGB8888), 0, 0);
	mmx_fb_random(l[2].fb, 112, MMX_ALPHA_BINARY_PREMULT);
	show_and_check(d, o, l, 3, "all-on");
	show_and_check(d, o, l, 1, "overlay-and-cursor-off");
	show_and_check(d, o, &l[1], 1, "primary-off-overlay-on");
}

static void test_crtcs_independent(struct mmx_dev *d)
{
	struct mmx_fb *bg[2], *ov[2];
	int i;

	mmx_require_f(d->n_outputs >= 2, "needs two outputs");
	for (i = 0; i < 2; i++) {
		struct mmx_output *o = &d->out[i];

		mmx_assert(o->primary && o->n_overlays == 2 && o->wb_conn_id);
		bg[i] = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
		ov[i] = mmx_fb_new(d, 80, 60, DRM_FORMAT_XRGB8888);
		mmx_fb_random(bg[i], 120 + (uint32_t)i, MMX_ALPHA_ANY);
		mmx_fb_random(ov[i], 130 + (uint32_t)i, MMX_ALPHA_ANY);
		light(d, o);
	}
	for (i = 0; i < 2; i++) {
		struct mmx_output *o = &d->out[i];
		struct layer l[2] = { layer(o->primary, bg[i], 0, 0),
				      layer(o->overlay[0], ov[i], 30 + 100 * i, 40) };

		show_and_check(d, o, l, 2, i ? "crtc1" : "crtc0");
	}
	/* CRTC 0 still shows its own scene after CRTC 1 changed */
	{
		struct mmx_ref_plane ref[2] = { mmx_ref_fb(bg[0], 0, 0),
						mmx_ref_fb(ov[0], 30, 40) };

		mmx_check_output(d, &d->out[0], mmx_small_mode(), ref, 2,
				 "crtc0-again");
	}
}

/* ------------------------------------------------------------------------ */
/* Off-screen at any coordinate                                             */

/*
 * Positions the uAPI carries (CRTC_X/Y are signed 32-bit) and that leave
 * the plane wholly off the CRTC: accepted, and the plane is simply not
 * shown. INT_MAX - w is the largest the core takes (x + w must not
 * overflow).
 */
static void test_offscreen_extremes(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *fb = mmx_fb_new_random(d, 64, 48, DRM_FORMAT_ARGB8888,
					      141, MMX_ALPHA_ANY);
	struct mmx_ref_plane ref = mmx_ref_fb(bg, 0, 0);
	/* in units of the plane's size: 1 = w (h), 2 = INT_MAX - w (- h) */
	const int64_t pos[][4] = {
		{ INT32_MIN, 0, INT32_MIN, 0 }, { 0, 2, 0, 2 },
		{ INT32_MIN, 0, 0, 0 }, { 0, 0, INT32_MIN, 0 },
		{ 0, 2, 0, 0 }, { 0, 0, 0, 2 }, { 0, -1, 0, -1 },
		{ W, 0, H, 0 }, { 16385, 0, 0, 0 }, { -16385, 0, 100, 0 },
		{ 1 << 30, 0, -(1 << 30), 0 }, { -1000000, 0, 5, 0 },
	};
	int k;
	size_t i;

	light(d, o);
	mmx_fb_random(bg, 140, MMX_ALPHA_ANY);
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? o->overlay[0] : k == 1 ? o->cursor :
								 o->overlay[1];

		for (i = 0; i < MMX_ARRAY_SIZE(pos); i++) {
			/* the third pass scales 8x (CRTC 512x384 from 64x48) */
			int64_t w = k == 2 ? 512 : 64, h = k == 2 ? 384 : 48;
			int64_t x = pos[i][0] + (pos[i][1] == 2 ? INT32_MAX - w :
						 pos[i][1] * w);
			int64_t y = pos[i][2] + (pos[i][3] == 2 ? INT32_MAX - h :
						 pos[i][3] * h);
			struct mmx_req *r = mmx_req_new(d);
			char what[80];

			mmx_req_plane(r, o->primary, o->crtc_id, bg->id, 0, 0, W, H,
				      0, 0, W, H);
			mmx_req_plane(r, plane, o->crtc_id, fb->id, 0, 0, 64, 48,
				      0, 0, 64, 48);
			mmx_req_add(r, plane, "CRTC_X", (uint64_t)x);
			mmx_req_add(r, plane, "CRTC_Y", (uint64_t)y);
			mmx_req_add(r, plane, "CRTC_W", (uint64_t)w);
			mmx_req_add(r, plane, "CRTC_H", (uint64_t)h);
			snprintf(what, sizeof(what), "plane %u %lldx%lld at %lld,%lld",
				 plane, (long long)w, (long long)h, (long long)x,
				 (long long)y);
			mmx_assert_f(mmx_req_commit(r, 0) == 0, "%s refused", what);
			mmx_assert_eq((int32_t)mmx_prop_get(d, plane, "CRTC_X"), x);
			mmx_assert_eq((int32_t)mmx_prop_get(d, plane, "CRTC_Y"), y);
			mmx_check_output(d, o, mmx_small_mode(), &ref, 1, what);
		}
	}
}

/*
 * Commit what BUILD makes of ARG, TEST_ONLY then for real: it must fail
 * with -ERR and change no property. PLANE and CAUSE name it.
 */
static void expect_refused(struct mmx_dev *d, struct mmx_req *(*build)(struct mmx_dev *, const void *),
			   const void *arg, int err, uint32_t plane,
			   const char *cause)
{
	struct mmx_snapshot snap;
	uint32_t flags;
	char what[80];

	snprintf(what, sizeof(what), "plane %u: %s", plane, cause);

	for (flags = DRM_MODE_ATOMIC_TEST_ONLY;; flags = 0) {
		int ret;

		mmx_snapshot_take(d, &snap);
		ret = mmx_req_commit(build(d, arg), flags);
		mmx_assert_f(ret == -err, "%s%s: expected %d (%s), got %d (%s)",
			     what, flags ? " (TEST_ONLY)" : "", -err,
			     strerror(err), ret, ret ? strerror(-ret) : "success");
		mmx_assert_f(mmx_snapshot_same(d, &snap), "%s changed the KMS state",
			     what);
		mmx_snapshot_free(&snap);
		if (!flags)
			break;
	}
}

/*
 * The framebuffer pixel that destination pixel (u, v) of P shows with the
 * nearest filter, from DRM's definition (drm_rect_rotate(): reflect, then
 * rotate counter-clockwise, then scale the rotated source rectangle to the
 * CRTC rectangle), undone step by step in exact rational arithmetic: the
 * destination pixel's centre is followed back to the framebuffer, where
 * the pixel containing it is taken, a point on an edge belonging to the
 * pixel above/left of it; beyond the source rectangle's pixels the edge
 * pixel repeats.
 */
static void ref_source_pixel(const struct splane *p, int64_t u, int64_t v,
			     int *px, int *py)
{
	bool swap = p->rotation & (DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_270);
	int64_t rw = swap ? p->sh : p->sw, rh = swap ? p->sw : p->sh;
	int64_t sw = p->sw, sh = p->sh;
	/* centre in the rotated source, 16.16 units: n / d */
	int64_t xn = (2 * u + 1) * rw, xd = 2 * (int64_t)p->w;
	int64_t yn = (2 * v + 1) * rh, yd = 2 * (int64_t)p->h;
	int64_t an, ad, bn, bd;	/* source rectangle point a (x), b (y) */
	int64_t x1 = p->sx >> 16, y1 = p->sy >> 16;
	int64_t x2 = ((int64_t)p->sx + p->sw + 0xffff) >> 16;
	int64_t y2 = ((int64_t)p->sy + p->sh + 0xffff) >> 16;
	int64_t n, dd, q;

	switch (p->rotation & DRM_MODE_ROTATE_MASK) {
	case DRM_MODE_ROTATE_90:	/* (x, y) went to (y, W - x) */
		an = sw * yd - yn; ad = yd;
		bn = xn; bd = xd;
		break;
	case DRM_MODE_ROTATE_180:	/* (x, y) went to (W - x, H - y) */
		an = sw * xd - xn; ad = xd;
		bn = sh * yd - yn; bd = yd;
		break;
	case DRM_MODE_ROTATE_270:	/* (x, y) went to (H - y, x) */
		an = yn; ad = yd;
		bn = sh * xd - xn; bd = xd;
		break;
	default:
		an = xn; ad = xd;
		bn = yn; bd = yd;
		break;
	}
	if (p->rotation & DRM_MODE_REFLECT_X)
		an = sw * ad - an;
	if (p->rotation & DRM_MODE_REFLECT_Y)
		bn = sh * bd - bn;
	/* framebuffer x = SRC_X + a, in pixels: ceil(..) - 1 */
	n = (int64_t)p->sx * ad + an;
	dd = ad << 16;
	q = n > 0 ? (n - 1) / dd : -1;
	*px = (int)(q < x1 ? x1 : q >= x2 ? x2 - 1 : q);
	n = (int64_t)p->sy * bd + bn;
	dd = bd << 16;
	q = n > 0 ? (n - 1) / dd : -1;
	*py = (int)(q < y1 ? y1 : q >= y2 ? y2 - 1 : q);
}

/*
 * P's image at its CRTC size as a memory-only framebuffer (ARGB8888, or
 * XRGB8888 for formats without alpha) for the reference composer.
 */
static struct mmx_fb *ref_image(const struct splane *p)
{
	struct mmx_fb *img = calloc(1, sizeof(*img));
	uint32_t u, v;

	mmx_assert(img);
	img->format = mmx_format_has_alpha(p->fb->format) ? DRM_FORMAT_ARGB8888 :
							   DRM_FORMAT_XRGB8888;
	img->width = p->w;
	img->height = p->h;
	img->cpp = 4;
	img->pitch = p->w * 4;
	img->size = (uint64_t)img->pitch * p->h;
	img->map = malloc(img->size);
	mmx_assert(img->map);
	for (v = 0; v < p->h; v++) {
		for (u = 0; u < p->w; u++) {
			int px, py;
			uint32_t argb;

			ref_source_pixel(p, u, v, &px, &py);
			argb = mmx_ref_decode(p->fb->format, mmx_fb_ptr(p->fb, px, py));
			memcpy(img->map + (size_t)v * img->pitch + u * 4, &argb, 4);
		}
	}
	return img;
}

static void ref_image_free(struct mmx_fb *img)
{
	free(img->map);
	free(img);
}

/*
 * Show P[0..N) (bottom first, in the planes' default zpos order) on O with
 * the other planes off, commit, and compose the reference into F (the CRTC
 * space, mode size).
 */
static void show_splanes(struct mmx_dev *d, struct mmx_output *o,
			 const struct splane *p, int n, struct mmx_frame *f)
{
	struct mmx_ref_plane ref[4];
	struct mmx_fb *img[4];
	int i;

	mmx_assert(n <= 4);
	commit_splanes(d, o, p, n);
	for (i = 0; i < n; i++) {
		img[i] = ref_image(&p[i]);
		ref[i] = mmx_ref_fb(img[i], (int)p[i].x, (int)p[i].y);
		ref[i].alpha = p[i].alpha;
		ref[i].blend = p[i].blend;
	}
	mmx_ref_compose(f, ref, n);
	for (i = 0; i < n; i++)
		ref_image_free(img[i]);
}

static void check_splanes(struct mmx_dev *d, struct mmx_output *o,
			  const struct splane *p, int n, const char *what)
{
	struct mmx_frame *f = mmx_frame_new(W, H);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);

	show_splanes(d, o, p, n, f);
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_assert_f(mmx_frame_check(wb, f, what), "%s: captured frame differs from the reference",
		     what);
	mmx_frame_free(f);
	mmx_fb_free(wb);
}

/* ------------------------------------------------------------------------ */
/* Cursor: every format and size                                            */

static void test_cursor_large_formats(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_ARGB8888,
					    DRM_FORMAT_RGB565 };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 150);
	drmModePlanePtr pl;
	uint64_t cap = 0;
	size_t i;

	/* the size capabilities stay, as hints; the plane lists all formats */
	mmx_do(drmGetCap(d->fd, DRM_CAP_CURSOR_WIDTH, &cap) ? -errno : 0);
	mmx_assert_eq(cap, 256);
	mmx_do(drmGetCap(d->fd, DRM_CAP_CURSOR_HEIGHT, &cap) ? -errno : 0);
	mmx_assert_eq(cap, 256);
	pl = drmModeGetPlane(d->fd, mmx_output0(d)->cursor);
	mmx_assert(pl);
	mmx_assert_eq(pl->count_formats, MMX_ARRAY_SIZE(mmx_plane_formats));
	drmModeFreePlane(pl);

	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		struct mmx_fb *c = mmx_fb_new(d, 512, 512, formats[i]);
		struct splane p[2] = { splane(o->primary, bg, 0, 0, W, H),
				       splane(o->cursor, c, -100, -60, 512, 512) };
		char what[64];

		mmx_fb_random(c, 151 + (uint32_t)i, MMX_ALPHA_ANY);
		/* plane alpha over pixel alpha, straight (Coverage) */
		p[1].alpha = 0x8000;
		p[1].blend = MMX_BLEND_COVERAGE;
		snprintf(what, sizeof(what), "cursor-512x512-%s-alpha",
			 mmx_format_name(formats[i]));
		check_splanes(d, o, p, 2, what);
		/* opaque, whole 512x512 moved to the bottom right */
		p[1].alpha = 0xffff;
		p[1].blend = MMX_BLEND_NONE;
		p[1].x = W - 300;
		p[1].y = H - 200;
		snprintf(what, sizeof(what), "cursor-512x512-%s-opaque",
			 mmx_format_name(formats[i]));
		check_splanes(d, o, p, 2, what);
		mmx_fb_free(c);
	}
}

/* ------------------------------------------------------------------------ */
/* Scaling                                                                  */

static void test_scale_nearest(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new_random(d, 160, 120, DRM_FORMAT_XRGB8888,
					      160, MMX_ALPHA_ANY);
	struct mmx_fb *ov = mmx_fb_new_random(d, 90, 70, DRM_FORMAT_RGB565, 161,
					      MMX_ALPHA_ANY);
	struct mmx_fb *ov2 = mmx_fb_new_random(d, 400, 300, DRM_FORMAT_ABGR8888,
					       162, MMX_ALPHA_BINARY_PREMULT);
	struct mmx_fb *cur = mmx_fb_new_random(d, 40, 30, DRM_FORMAT_ARGB8888,
					       163, MMX_ALPHA_BINARY_PREMULT);
	struct splane p[4];

	light(d, o);
	/* primary 2x up, overlay 3x down... */
	p[0] = splane(o->primary, bg, 0, 0, W, H);
	p[1] = splane(o->overlay[0], ov, 10, 20, 30, 70);	/* 3x down, 1x */
	p[2] = splane(o->overlay[1], ov2, 150, 90, 50, 100);	/* 8x down, 3x down */
	p[3] = splane(o->cursor, cur, 200, 130, 320, 90);	/* 8x up, 3x up */
	check_splanes(d, o, p, 4, "primary-2x-up-overlays-down-cursor-8x-up");
	/* the limits exactly: 1/8 and 8 on every kind, partly off-screen */
	p[0] = splane(o->primary, bg, -300, -100, 1280, 960);	/* 8x up */
	p[1] = splane(o->overlay[0], ov, 300, -5, 90, 70);
	p[1].sw = 88 << 16;
	p[1].w = 11;						/* 8x down */
	p[2] = splane(o->overlay[1], ov2, -40, 200, 50, 300);	/* 8x, 1x */
	p[3] = splane(o->cursor, cur, 250, 200, 320, 240);	/* 8x up */
	check_splanes(d, o, p, 4, "scale-limits-partly-off");
	/* odd ratios: 7/5 and 5/7 */
	p[0] = splane(o->primary, bg, 0, 0, 224, 84);
	splane_src(&p[0], 0, 0, 160 << 16, 60 << 16);
	p[1] = splane(o->overlay[0], ov, 33, 17, 50, 35);
	splane_src(&p[1], 0, 0, 70 << 16, 49 << 16);
	check_splanes(d, o, p, 2, "ratios-7-5");
}

static void test_scale_fractional(struct mmx_dev *d)
{
	struct mmx_fb *fb, *ov;
	struct mmx_output *o = window_scene(d, 170, &fb, &ov);
	struct splane p[2];

	/* unscaled at a fractional position: 30.5 shows 30, 20.75 shows 21 */
	p[0] = splane(o->primary, fb, 10, 10, 100, 80);
	splane_src(&p[0], (30 << 16) | 0x8000, (20 << 16) | 0xc000, 100 << 16,
		   80 << 16);
	/* fractional size too: 80.25 x 67.5 onto 107 x 45 */
	p[1] = splane(o->overlay[0], ov, 150, 120, 107, 45);
	splane_src(&p[1], (110 << 16) | 0x4000, (30 << 16) | 0x2000,
		   (80 << 16) | 0x4000, (67 << 16) | 0x8000);
	check_splanes(d, o, p, 2, "fractional-src");
	mmx_assert_eq(mmx_prop_get(d, o->primary, "SRC_X"), (30 << 16) | 0x8000);
}

/*
 * Bilinear (SCALING_FILTER "Default"): a uniform translucent plane stays
 * uniform to its edges; a two-colour plane is exact away from the colour
 * edge and in between the two colours across it, where nearest would
 * show one of them only.
 */
static void test_scale_bilinear(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = background(d, 180);
	struct mmx_fb *uni = mmx_fb_new(d, 13, 7, DRM_FORMAT_ARGB8888);
	struct mmx_fb *two = mmx_fb_new(d, 16, 8, DRM_FORMAT_XRGB8888);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct mmx_frame *f = mmx_frame_new(W, H);
	struct splane p[3];
	int x, y, between = 0;

	light(d, o);
	mmx_fb_fill(uni, 0x80402010);	/* premultiplied half alpha */
	mmx_fb_fill(two, 0xffff0000);
	mmx_fb_rect(two, 8, 0, 8, 8, 0xff0000ff);
	p[0] = splane(o->primary, bg, 0, 0, W, H);
	p[1] = splane(o->overlay[0], uni, 5, 5, 130, 70);	/* 10x10 up */
	p[1].sw = 13 << 15;	/* 6.5 x 3.5: 8x... within range */
	p[1].sh = 7 << 15;
	p[1].w = 52;
	p[1].h = 28;
	p[1].nearest = false;
	p[2] = splane(o->overlay[1], two, 100, 100, 128, 64);	/* 8x up */
	p[2].nearest = false;
	show_splanes(d, o, p, 3, f);
	mmx_do(mmx_wb_capture(d, o, wb));
	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++) {
			uint32_t got = mmx_fb_get_raw(wb, x, y) & 0xffffff;
			uint32_t want = f->px[y * W + x] & 0xffffff;
			int c;

			if (x >= 100 + 56 && x < 100 + 72 && y >= 100 && y < 164) {
				/* across the red/blue edge: between them */
				mmx_assert_f((got & 0x00ff00) == 0 &&
					     (got >> 16) + (got & 0xff) >= 0xfe &&
					     (got >> 16) + (got & 0xff) <= 0x100,
					     "(%d,%d) %06x is no mix of red and blue",
					     x, y, got);
				between += (got >> 16) > 8 && (got & 0xff) > 8;
				continue;
			}
			for (c = 0; c < 24; c += 8) {
				int diff = (int)(got >> c & 0xff) - (int)(want >> c & 0xff);

				mmx_assert_f(diff >= -1 && diff <= 1,
					     "(%d,%d) got %06x want %06x", x, y,
					     got, want);
			}
		}
	}
	/* a 16-pixel band across the edge, of which a good part mixes */
	mmx_assert_f(between >= 64 * 4, "only %d mixed pixels at the edge",
		     between);
	mmx_frame_free(f);
	mmx_fb_free(wb);
}

struct scale_bad {
	uint32_t plane;
	const struct mmx_fb *fb;
	uint32_t sw, sh, w, h;
};

static struct mmx_req *build_scale_bad(struct mmx_dev *d, const void *arg)
{
	const struct scale_bad *b = arg;
	struct mmx_req *r = mmx_req_new(d);
	struct splane p = splane(b->plane, b->fb, 10, 10, b->w, b->h);

	p.sw = b->sw;
	p.sh = b->sh;
	req_splane(d, r, mmx_output0(d), &p);
	return r;
}

static void test_scale_limits(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *fb = mmx_fb_new(d, 200, 200, DRM_FORMAT_ARGB8888);
	struct mmx_ref_plane ref = mmx_ref_fb(bg, 0, 0);
	const struct { uint32_t sw, sh, w, h; const char *what; int err; } c[] = {
		{ 10 << 16, 10 << 16, 81, 10, "8.1x up", ERANGE },
		{ 10 << 16, 10 << 16, 10, 90, "9x up", ERANGE },
		{ 200 << 16, 100 << 16, 24, 100, "8.3x down", ERANGE },
		{ 100 << 16, 180 << 16, 100, 20, "9x down", ERANGE },
		{ (10 << 16) - 1, 10 << 16, 80, 10, "just beyond 8x up", ERANGE },
		{ 0, 10 << 16, 10, 10, "empty source", ERANGE },
		{ 10 << 16, 0, 10, 10, "empty source height", ERANGE },
	};
	int k;
	size_t i;

	mmx_do(mmx_output_set(d, o, mmx_small_mode(), bg, 0, 0));
	mmx_fb_random(bg, 190, MMX_ALPHA_ANY);
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? o->primary : k == 1 ? o->overlay[1] :
								o->cursor;

		for (i = 0; i < MMX_ARRAY_SIZE(c); i++) {
			struct scale_bad b = { plane, fb, c[i].sw, c[i].sh,
					       c[i].w, c[i].h };

			expect_refused(d, build_scale_bad, &b, c[i].err, plane,
				       c[i].what);
		}
	}
	/* the picture is the primary alone, as before the refusals */
	mmx_check_output(d, o, mmx_small_mode(), &ref, 1, "unchanged");
	/*
	 * Exactly 8 and 1/8 are accepted (TEST_ONLY); so is an empty CRTC
	 * rectangle, which shows nothing (the helper's rule).
	 */
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? o->overlay[0] : k == 1 ? o->overlay[1] :
								o->cursor;
		struct scale_bad up = { plane, fb, 10 << 16, 10 << 16, 80, 80 };
		struct scale_bad down = { plane, fb, 200 << 16, 160 << 16, 25, 20 };
		struct scale_bad empty = { plane, fb, 10 << 16, 10 << 16, 0, 0 };

		mmx_do(mmx_req_commit(build_scale_bad(d, &up), DRM_MODE_ATOMIC_TEST_ONLY));
		mmx_do(mmx_req_commit(build_scale_bad(d, &down), DRM_MODE_ATOMIC_TEST_ONLY));
		mmx_do(mmx_req_commit(build_scale_bad(d, &empty), 0));
	}
	mmx_check_output(d, o, mmx_small_mode(), &ref, 1, "empty-destinations");
}

/* ------------------------------------------------------------------------ */
/* Rotation                                                                 */

static void test_rotation_props(struct mmx_dev *d)
{
	int i;

	for (i = 0; i < d->n_planes; i++) {
		drmModePropertyRes *info = NULL;
		uint64_t v;
		int k, bits = 0;

		mmx_assert_f(mmx_prop_lookup(d->fd, d->planes[i], "rotation", NULL,
					     &v, &info), "plane %u has no rotation",
			     d->planes[i]);
		mmx_assert_eq(v, DRM_MODE_ROTATE_0);
		mmx_assert(info->flags & DRM_MODE_PROP_BITMASK);
		for (k = 0; k < info->count_enums; k++)
			bits |= 1 << info->enums[k].value;
		mmx_assert_eq(bits, DRM_MODE_ROTATE_MASK | DRM_MODE_REFLECT_MASK);
		drmModeFreeProperty(info);
		info = NULL;
		mmx_assert(mmx_prop_lookup(d->fd, d->planes[i], "SCALING_FILTER",
					   NULL, &v, &info));
		mmx_assert(info->flags & DRM_MODE_PROP_ENUM);
		mmx_assert_eq(info->count_enums, 2);
		mmx_assert_eq(v, mmx_prop_enum(d, d->planes[i], "SCALING_FILTER",
					       "Default"));
		drmModeFreeProperty(info);
	}
}

static const uint32_t rotation_values[16] = {
	DRM_MODE_ROTATE_0, DRM_MODE_ROTATE_90, DRM_MODE_ROTATE_180,
	DRM_MODE_ROTATE_270,
	DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X,
	DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X,
	DRM_MODE_ROTATE_180 | DRM_MODE_REFLECT_X,
	DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_X,
	DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_180 | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_0 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_180 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y,
	DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_X | DRM_MODE_REFLECT_Y,
};

/* A scene of rotated planes: primary unscaled, overlay and cursor scaled. */
static void rotation_scene(struct mmx_dev *d, struct mmx_output *o,
			   uint32_t rot, struct splane *p, struct mmx_fb **fbs)
{
	bool swap = rot & (DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_270);

	fbs[0] = mmx_fb_new(d, 300, 220, DRM_FORMAT_XRGB8888);
	fbs[1] = mmx_fb_new(d, 70, 40, DRM_FORMAT_RGB565);
	fbs[2] = mmx_fb_new(d, 24, 16, DRM_FORMAT_ARGB8888);
	mmx_fb_random(fbs[0], 200, MMX_ALPHA_ANY);
	mmx_fb_random(fbs[1], 201, MMX_ALPHA_ANY);
	mmx_fb_random(fbs[2], 202, MMX_ALPHA_BINARY_PREMULT);
	/* primary: a 200x150 window from (17, 9), unscaled */
	p[0] = splane(o->primary, fbs[0], 10, 5, swap ? 150 : 200,
		      swap ? 200 : 150);
	splane_src(&p[0], 17 << 16, 9 << 16, 200 << 16, 150 << 16);
	/* overlay: 70x40 scaled by 7/5 and 1/2 (after the rotation) */
	p[1] = splane(o->overlay[0], fbs[1], 180, 60, swap ? 56 : 98,
		      swap ? 35 : 20);
	/* cursor: 24x16 scaled 3x, partly off the right edge */
	p[2] = splane(o->cursor, fbs[2], 280, 150, swap ? 48 : 72,
		      swap ? 72 : 48);
	p[0].rotation = p[1].rotation = p[2].rotation = rot;
}

static void rotation_name(uint32_t rot, char *buf, size_t size)
{
	snprintf(buf, size, "rotation-%d%s%s",
		 rot & DRM_MODE_ROTATE_90 ? 90 : rot & DRM_MODE_ROTATE_180 ? 180 :
		 rot & DRM_MODE_ROTATE_270 ? 270 : 0,
		 rot & DRM_MODE_REFLECT_X ? "-reflect-x" : "",
		 rot & DRM_MODE_REFLECT_Y ? "-reflect-y" : "");
}

static void test_rotation(struct mmx_dev *d, const void *arg)
{
	uint32_t rot = *(const uint32_t *)arg;
	struct mmx_output *o = mmx_output0(d);
	struct splane p[3];
	struct mmx_fb *fbs[3];
	char what[48];

	light(d, o);
	rotation_scene(d, o, rot, p, fbs);
	rotation_name(rot, what, sizeof(what));
	check_splanes(d, o, p, 3, what);
	mmx_assert_eq(mmx_prop_get(d, o->overlay[0], "rotation"), rot);
	/* bilinear keeps an unscaled rotation exact (pixel centres map to
	 * pixel centres) */
	p[0].nearest = false;
	check_splanes(d, o, p, 1, "unscaled-bilinear");
}

/*
 * The plane rotation places the plane in CRTC space; the CRTC TRANSFORM
 * (here a half turn of the 320x240 space) then applies to the whole space.
 */
static void test_rotation_with_crtc_transform(struct mmx_dev *d)
{
	static const int64_t one = (int64_t)1 << 32;
	const int64_t half_turn[9] = { -one, 0, W * one, 0, -one, H * one,
				       0, 0, one };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_frame *f = mmx_frame_new(W, H), *g = mmx_frame_new(W, H);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct splane p[3];
	struct mmx_fb *fbs[3];
	struct mmx_req *r;
	uint32_t blob;
	int x, y;

	light(d, o);
	mmx_do(mmx_blob_create(d, half_turn, sizeof(half_turn), &blob));
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM", blob);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	rotation_scene(d, o, DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X, p, fbs);
	show_splanes(d, o, p, 3, f);
	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++) {
			g->px[y * W + x] = f->px[(H - 1 - y) * W + (W - 1 - x)];
			g->tol[y * W + x] = f->tol[(H - 1 - y) * W + (W - 1 - x)];
		}
	}
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_assert_f(mmx_frame_check(wb, g, "half-turn-of-rotated-planes"),
		     "captured frame differs from the reference");
	mmx_frame_free(f);
	mmx_frame_free(g);
	mmx_fb_free(wb);
}

struct rot_bad {
	uint32_t plane;
	uint64_t value;
};

static struct mmx_req *build_rot_bad(struct mmx_dev *d, const void *arg)
{
	const struct rot_bad *b = arg;
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_add(r, b->plane, "rotation", b->value);
	return r;
}

static void test_rotation_invalid(struct mmx_dev *d)
{
	const struct { uint64_t v; const char *what; } bad[] = {
		{ 0, "no rotation" },
		{ DRM_MODE_REFLECT_X, "a reflection only" },
		{ DRM_MODE_ROTATE_0 | DRM_MODE_ROTATE_90, "two rotations" },
		{ DRM_MODE_ROTATE_90 | DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_Y,
		  "two rotations and a reflection" },
		{ DRM_MODE_ROTATE_MASK, "all rotations" },
		{ DRM_MODE_ROTATE_0 | (1ull << 6), "an unknown bit" },
		{ 1ull << 40, "a bit beyond 32" },
	};
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_ref_plane ref = mmx_ref_fb(bg, 0, 0);
	struct mmx_req *r;
	size_t i;
	int k;

	mmx_fb_random(bg, 210, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), bg, 0, 0));
	/* a rotation that is not the default, to see it kept */
	r = mmx_req_new(d);
	mmx_req_add(r, o->overlay[1], "rotation",
		    DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_Y);
	mmx_do(mmx_req_commit(r, 0));
	for (k = 0; k < 4; k++) {
		uint32_t plane = k == 0 ? o->primary : k == 1 ? o->overlay[0] :
				 k == 2 ? o->overlay[1] : o->cursor;

		for (i = 0; i < MMX_ARRAY_SIZE(bad); i++) {
			struct rot_bad b = { plane, bad[i].v };

			expect_refused(d, build_rot_bad, &b, EINVAL, plane,
				       bad[i].what);
		}
	}
	mmx_assert_eq(mmx_prop_get(d, o->overlay[1], "rotation"),
		      DRM_MODE_ROTATE_270 | DRM_MODE_REFLECT_Y);
	mmx_assert_eq(mmx_prop_get(d, o->primary, "rotation"), DRM_MODE_ROTATE_0);
	mmx_check_output(d, o, mmx_small_mode(), &ref, 1, "unchanged");
}

struct pos_bad {
	uint32_t plane;
	const struct mmx_fb *fb;
	int64_t x, y;
	uint64_t w, h;
};

static struct mmx_req *build_pos_bad(struct mmx_dev *d, const void *arg)
{
	const struct pos_bad *b = arg;
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_plane(r, b->plane, mmx_output0(d)->crtc_id, b->fb->id, 0, 0,
		      (int)b->fb->width, (int)b->fb->height, 0, 0,
		      (int)b->fb->width, (int)b->fb->height);
	mmx_req_add(r, b->plane, "CRTC_X", (uint64_t)b->x);
	mmx_req_add(r, b->plane, "CRTC_Y", (uint64_t)b->y);
	mmx_req_add(r, b->plane, "CRTC_W", b->w);
	mmx_req_add(r, b->plane, "CRTC_H", b->h);
	return r;
}

/*
 * What cannot be accepted: CRTC_X + CRTC_W beyond INT_MAX (the core's
 * overflow check) and a huge CRTC_W that would not overflow but scales
 * beyond 8x: -ERANGE; CRTC_W beyond INT_MAX is outside the property's
 * range: -EINVAL. Nothing changed.
 */
static void test_offscreen_overflow(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *fb = mmx_fb_new(d, 64, 48, DRM_FORMAT_ARGB8888);
	struct mmx_ref_plane ref = mmx_ref_fb(bg, 0, 0);
	const struct { int64_t x, y; uint64_t w, h; const char *what; int err; } c[] = {
		{ INT32_MAX - 63, 0, 64, 48, "x + w overflows", ERANGE },
		{ 0, INT32_MAX - 47, 64, 48, "y + h overflows", ERANGE },
		{ INT32_MAX, INT32_MAX, 64, 48, "both overflow", ERANGE },
		{ INT32_MIN, 0, INT32_MAX, 48, "INT_MAX wide at INT_MIN", ERANGE },
		{ -100, 0, INT32_MAX, 48, "INT_MAX wide at -100", ERANGE },
		/* beyond the range of the CRTC_W/H properties themselves */
		{ -100, 0, 0x80000000ull, 48, "wider than INT_MAX", EINVAL },
		{ 0, INT32_MIN, 64, 0xffffffffull, "UINT_MAX high", EINVAL },
	};
	size_t i;
	int k;

	mmx_fb_random(bg, 220, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), bg, 0, 0));
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? o->overlay[0] : k == 1 ? o->cursor :
								o->overlay[1];

		for (i = 0; i < MMX_ARRAY_SIZE(c); i++) {
			struct pos_bad b = { plane, fb, c[i].x, c[i].y, c[i].w,
					     c[i].h };

			expect_refused(d, build_pos_bad, &b, c[i].err, plane,
				       c[i].what);
		}
	}
	mmx_check_output(d, o, mmx_small_mode(), &ref, 1, "unchanged");
}

/* ------------------------------------------------------------------------ */

#define FMT(k, kname, f, fname)						\
	static const struct format_case fc_##kname##_##fname = { k, f }
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_XRGB8888, xrgb8888);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_ARGB8888, argb8888);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_XBGR8888, xbgr8888);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_ABGR8888, abgr8888);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_RGB565, rgb565);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_RGB888, rgb888);
FMT(MMX_PLANE_PRIMARY, primary, DRM_FORMAT_XRGB2101010, xrgb2101010);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_XRGB8888, xrgb8888);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_ARGB8888, argb8888);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_XBGR8888, xbgr8888);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_ABGR8888, abgr8888);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_RGB565, rgb565);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_RGB888, rgb888);
FMT(MMX_PLANE_OVERLAY, overlay, DRM_FORMAT_XRGB2101010, xrgb2101010);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_XRGB8888, xrgb8888);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_ARGB8888, argb8888);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_XBGR8888, xbgr8888);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_ABGR8888, abgr8888);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_RGB565, rgb565);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_RGB888, rgb888);
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_XRGB2101010, xrgb2101010);

#define FMT_TEST(kname, fname)						\
	{ "format-" #kname "-" #fname,					\
	  "a random " #fname " image on the " #kname " plane(s) (odd sizes, alpha 0/max through Pre-multiplied and Coverage) is captured exactly as the reference converts it", \
	  NULL, test_format, &fc_##kname##_##fname }

#define ROT_TEST(i, name)						\
	{ name, "primary (unscaled), overlay and cursor (scaled) with this rotation match DRM's definition, nearest filter", \
	  NULL, test_rotation, &rotation_values[i] }

static const struct mmx_subtest tests[] = {
	FMT_TEST(primary, xrgb8888),
	FMT_TEST(primary, argb8888),
	FMT_TEST(primary, xbgr8888),
	FMT_TEST(primary, abgr8888),
	FMT_TEST(primary, rgb565),
	FMT_TEST(primary, rgb888),
	FMT_TEST(primary, xrgb2101010),
	FMT_TEST(overlay, xrgb8888),
	FMT_TEST(overlay, argb8888),
	FMT_TEST(overlay, xbgr8888),
	FMT_TEST(overlay, abgr8888),
	FMT_TEST(overlay, rgb565),
	FMT_TEST(overlay, rgb888),
	FMT_TEST(overlay, xrgb2101010),
	FMT_TEST(cursor, xrgb8888),
	FMT_TEST(cursor, argb8888),
	FMT_TEST(cursor, xbgr8888),
	FMT_TEST(cursor, abgr8888),
	FMT_TEST(cursor, rgb565),
	FMT_TEST(cursor, rgb888),
	FMT_TEST(cursor, xrgb2101010),
	{ "cursor-sizes", "cursors from 1x1 to 256x256, odd and thin ones, are composed at their size",
	  test_cursor_sizes, NULL, NULL },
	{ "cursor-offscreen", "a cursor partly or wholly off any edge (to +-16384) is clipped to the CRTC",
	  NULL, test_offscreen, &offscreen_cursor },
	{ "overlay-offscreen", "overlays partly or wholly off any edge (to +-16384) are clipped to the CRTC",
	  NULL, test_offscreen, &offscreen_overlays },
	{ "primary-position", "a primary plane smaller, bigger, offset or off-screen is clipped and leaves black where it does not cover",
	  test_primary_position, NULL, NULL },
	{ "src-offset", "SRC_X/SRC_Y select a window of the FB",
	  test_src_offset, NULL, NULL },
	{ "fb-pitch-offset", "FBs with a pitch beyond the width and a non-zero offset are read correctly (xrgb8888, rgb565, rgb888)",
	  test_fb_pitch_offset, NULL, NULL },
	{ "writeback-pitch-offset", "writeback into XRGB8888/ARGB8888 FBs with a wide pitch at a non-zero offset writes the frame there and nothing outside it",
	  test_writeback_pitch_offset, NULL, NULL },
	{ "zpos-order", "higher zpos is on top: swapping the overlays' zpos swaps them, the cursor stays above, the primary below",
	  test_zpos_order, NULL, NULL },
	{ "zpos-tie", "overlays with equal zpos are stacked by plane id, the higher id on top",
	  test_zpos_tie, NULL, NULL },
	{ "blend-none", "pixel blend mode None: out = pa*fg + (1-pa)*bg for several plane alphas, within 1",
	  test_blend_none, NULL, NULL },
	{ "blend-premultiplied", "pixel blend mode Pre-multiplied: out = pa*fg + (1-pa*fg.a)*bg for several plane alphas, within 1",
	  test_blend_premultiplied, NULL, NULL },
	{ "blend-coverage", "pixel blend mode Coverage: out = pa*fg.a*fg + (1-pa*fg.a)*bg for several plane alphas, within 1",
	  test_blend_coverage, NULL, NULL },
	{ "alpha-opaque-formats", "plane alpha makes formats without alpha translucent in every blend mode",
	  test_alpha_opaque_formats, NULL, NULL },
	{ "primary-alpha", "the primary plane's alpha and blend mode blend it over the black bottom",
	  test_primary_alpha, NULL, NULL },
	{ "blend-stack", "all four planes of a CRTC with mixed formats and blend modes compose like the reference",
	  test_blend_stack, NULL, NULL },
	{ "plane-disable", "disabling overlay, cursor or primary removes exactly that plane from the picture",
	  test_plane_disable, NULL, NULL },
	{ "crtcs-independent", "planes of one CRTC never show on another, and changing one CRTC leaves the other's picture alone",
	  test_crtcs_independent, NULL, NULL },
	{ "plane-offscreen-extremes", "overlays and cursor wholly off the CRTC at INT_MIN, INT_MAX - w and beyond 16384, also scaled 8x, are accepted and not shown",
	  test_offscreen_extremes, NULL, NULL },
	{ "plane-offscreen-overflow", "CRTC_X + CRTC_W beyond INT_MAX, CRTC_W beyond INT_MAX, or an INT_MAX-wide plane at INT_MIN fail with ERANGE and change nothing",
	  test_offscreen_overflow, NULL, NULL },
	{ "cursor-large-formats", "512x512 XRGB8888, ARGB8888 and RGB565 cursors, with plane alpha, are composed whole; the cursor size caps stay 256 (hints)",
	  test_cursor_large_formats, NULL, NULL },
	{ "scale-nearest", "every plane kind scaled up and down (to exactly 8x and 1/8x, odd ratios, partly off-screen) matches the nearest reference",
	  test_scale_nearest, NULL, NULL },
	{ "scale-fractional", "fractional SRC_X/Y/W/H are honoured (nearest: 30.5 shows 30, 20.75 shows 21)",
	  test_scale_fractional, NULL, NULL },
	{ "scale-bilinear", "SCALING_FILTER Default interpolates: uniform planes stay uniform to the edge, colour edges mix",
	  test_scale_bilinear, NULL, NULL },
	{ "scale-limits", "scale factors beyond 8x either way, or an empty source, fail with ERANGE on every plane kind and change nothing; exactly 8x passes, an empty destination shows nothing",
	  test_scale_limits, NULL, NULL },
	{ "rotation-props", "every plane has rotation (rotate-0/90/180/270, reflect-x/y, default rotate-0) and SCALING_FILTER (Default, Nearest Neighbor)",
	  test_rotation_props, NULL, NULL },
	ROT_TEST(0, "rotation-0"),
	ROT_TEST(1, "rotation-90"),
	ROT_TEST(2, "rotation-180"),
	ROT_TEST(3, "rotation-270"),
	ROT_TEST(4, "rotation-0-reflect-x"),
	ROT_TEST(5, "rotation-90-reflect-x"),
	ROT_TEST(6, "rotation-180-reflect-x"),
	ROT_TEST(7, "rotation-270-reflect-x"),
	ROT_TEST(8, "rotation-0-reflect-y"),
	ROT_TEST(9, "rotation-90-reflect-y"),
	ROT_TEST(10, "rotation-180-reflect-y"),
	ROT_TEST(11, "rotation-270-reflect-y"),
	ROT_TEST(12, "rotation-0-reflect-x-reflect-y"),
	ROT_TEST(13, "rotation-90-reflect-x-reflect-y"),
	ROT_TEST(14, "rotation-180-reflect-x-reflect-y"),
	ROT_TEST(15, "rotation-270-reflect-x-reflect-y"),
	{ "rotation-with-crtc-transform", "plane rotation places the plane in CRTC space, the CRTC TRANSFORM (a half turn) then turns the whole space",
	  test_rotation_with_crtc_transform, NULL, NULL },
	{ "rotation-invalid", "no rotation, two rotations, unknown bits fail with EINVAL on every plane and change nothing",
	  test_rotation_invalid, NULL, NULL },
};

MMX_MAIN("mmx plane composition", tests)
