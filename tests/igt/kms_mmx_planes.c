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

static struct mmx_output *output0(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];

	mmx_assert_f(d->n_outputs > 0 && o->primary && o->n_overlays == 2 &&
		     o->cursor && o->wb_conn_id,
		     "output 0 lacks planes or writeback");
	return o;
}

/* Light output O at 320x240 with no plane. */
static void light(struct mmx_dev *d, struct mmx_output *o)
{
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
}

static void add_layer(struct mmx_dev *d, struct mmx_req *r,
		      struct mmx_output *o, const struct layer *l)
{
	int w = l->w ? l->w : (int)l->fb->width;
	int h = l->h ? l->h : (int)l->fb->height;

	mmx_req_plane(r, l->plane, o->crtc_id, l->fb->id, l->sx, l->sy, w, h,
		      l->x, l->y, w, h);
	mmx_req_add(r, l->plane, "alpha", l->alpha);
	mmx_req_add(r, l->plane, "pixel blend mode",
		    mmx_prop_enum(d, l->plane, "pixel blend mode",
				  mmx_blend_names[l->blend]));
	if (l->zpos >= 0)
		mmx_req_add(r, l->plane, "zpos", (uint64_t)l->zpos);
}

/*
 * Show LAYERS on output O (other planes of O off), then capture and compare
 * with the reference composed in (zpos, plane id) order as the properties
 * report it.
 */
static void show_and_check(struct mmx_dev *d, struct mmx_output *o,
			   const struct layer *layers, int n, const char *what)
{
	struct mmx_ref_plane ref[8];
	uint64_t z[8];
	int order[8];
	uint32_t all[4] = { o->primary, o->overlay[0], o->overlay[1],
			    o->cursor };
	struct mmx_req *r = mmx_req_new(d);
	int i, j, k;

	mmx_assert(n <= 8);
	for (k = 0; k < 4; k++) {
		bool used = false;

		for (i = 0; i < n; i++)
			used |= layers[i].plane == all[k];
		if (!used)
			mmx_req_plane_off(r, all[k]);
	}
	for (i = 0; i < n; i++)
		add_layer(d, r, o, &layers[i]);
	mmx_do(mmx_req_commit(r, 0));

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
	struct mmx_output *o = output0(d);
	bool alpha = mmx_format_has_alpha(fc->format);
	struct mmx_fb *bg, *fb, *fb2;
	struct layer l[3];
	char what[64];

	light(d, o);
	switch (fc->kind) {
	case MMX_PLANE_PRIMARY:
		/* the whole screen; alpha formats over the black bottom */
		fb = mmx_fb_new(d, W, H, fc->format);
		mmx_fb_random(fb, fc->format, alpha ? MMX_ALPHA_BINARY : MMX_ALPHA_ANY);
		l[0] = layer(o->primary, fb, 0, 0);
		snprintf(what, sizeof(what), "primary-%s", mmx_format_name(fc->format));
		show_and_check(d, o, l, 1, what);
		if (alpha) {
			l[0].blend = MMX_BLEND_COVERAGE;
			show_and_check(d, o, l, 1, "primary-coverage");
			l[0].blend = MMX_BLEND_NONE;
			show_and_check(d, o, l, 1, "primary-none");
		}
		/* odd size and position */
		fb2 = mmx_fb_new(d, 97, 61, fc->format);
		mmx_fb_random(fb2, fc->format + 1, MMX_ALPHA_BINARY);
		l[0] = layer(o->primary, fb2, 13, 7);
		show_and_check(d, o, l, 1, "primary-97x61");
		break;
	case MMX_PLANE_OVERLAY:
		/* both overlays over a random opaque primary */
		bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
		mmx_fb_random(bg, 1, MMX_ALPHA_ANY);
		fb = mmx_fb_new(d, 128, 96, fc->format);
		fb2 = mmx_fb_new(d, 101, 77, fc->format);
		mmx_fb_random(fb, fc->format,
			      alpha ? MMX_ALPHA_BINARY_PREMULT : MMX_ALPHA_ANY);
		mmx_fb_random(fb2, fc->format + 7,
			      alpha ? MMX_ALPHA_BINARY_PREMULT : MMX_ALPHA_ANY);
		l[0] = layer(o->primary, bg, 0, 0);
		l[1] = layer(o->overlay[0], fb, 20, 30);
		l[2] = layer(o->overlay[1], fb2, 150, 100);
		snprintf(what, sizeof(what), "overlays-%s", mmx_format_name(fc->format));
		show_and_check(d, o, l, 3, what);
		if (alpha) {
			/* non-premultiplied content through Coverage */
			mmx_fb_random(fb, fc->format + 3, MMX_ALPHA_BINARY);
			mmx_fb_random(fb2, fc->format + 4, MMX_ALPHA_BINARY);
			l[1].blend = l[2].blend = MMX_BLEND_COVERAGE;
			show_and_check(d, o, l, 3, "overlays-coverage");
		}
		break;
	case MMX_PLANE_CURSOR:
		bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
		mmx_fb_random(bg, 2, MMX_ALPHA_ANY);
		fb = mmx_fb_new(d, 64, 64, fc->format);
		mmx_fb_random(fb, 3, MMX_ALPHA_BINARY_PREMULT);
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
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	size_t i;

	light(d, o);
	mmx_fb_random(bg, 10, MMX_ALPHA_ANY);
	for (i = 0; i < MMX_ARRAY_SIZE(sizes); i++) {
		struct mmx_fb *c = mmx_fb_new(d, (uint32_t)sizes[i][0],
					      (uint32_t)sizes[i][1],
					      DRM_FORMAT_ARGB8888);
		struct layer l[2] = { layer(o->primary, bg, 0, 0),
				      layer(o->cursor, c, 50, 20) };
		char what[32];

		mmx_fb_random(c, 11 + (uint32_t)i, MMX_ALPHA_BINARY_PREMULT);
		snprintf(what, sizeof(what), "cursor-%dx%d", sizes[i][0],
			 sizes[i][1]);
		show_and_check(d, o, l, 2, what);
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

static void test_cursor_offscreen(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *c = mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888);
	size_t i;

	light(d, o);
	mmx_fb_random(bg, 20, MMX_ALPHA_ANY);
	mmx_fb_random(c, 21, MMX_ALPHA_BINARY_PREMULT);
	for (i = 0; i < MMX_ARRAY_SIZE(edge_positions); i++) {
		struct layer l[2] = {
			layer(o->primary, bg, 0, 0),
			layer(o->cursor, c, edge_positions[i][0],
			      edge_positions[i][1]),
		};
		char what[48];

		snprintf(what, sizeof(what), "cursor-at-%d,%d",
			 edge_positions[i][0], edge_positions[i][1]);
		show_and_check(d, o, l, 2, what);
	}
}

static void test_overlay_offscreen(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *a = mmx_fb_new(d, 64, 64, DRM_FORMAT_XRGB8888);
	struct mmx_fb *b = mmx_fb_new(d, 90, 50, DRM_FORMAT_RGB565);
	size_t i;

	light(d, o);
	mmx_fb_random(bg, 30, MMX_ALPHA_ANY);
	mmx_fb_random(a, 31, MMX_ALPHA_ANY);
	mmx_fb_random(b, 32, MMX_ALPHA_ANY);
	for (i = 0; i < MMX_ARRAY_SIZE(edge_positions); i++) {
		int j = (int)(MMX_ARRAY_SIZE(edge_positions) - 1 - i);
		struct layer l[3] = {
			layer(o->primary, bg, 0, 0),
			layer(o->overlay[0], a, edge_positions[i][0],
			      edge_positions[i][1]),
			layer(o->overlay[1], b, edge_positions[j][1],
			      edge_positions[j][0]),
		};
		char what[48];

		snprintf(what, sizeof(what), "overlays-at-%d,%d", edge_positions[i][0],
			 edge_positions[i][1]);
		show_and_check(d, o, l, 3, what);
	}
}

static void test_primary_position(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *small = mmx_fb_new(d, 160, 120, DRM_FORMAT_XRGB8888);
	struct mmx_fb *big = mmx_fb_new(d, 400, 300, DRM_FORMAT_XBGR8888);
	struct layer l;

	light(d, o);
	mmx_fb_random(small, 40, MMX_ALPHA_ANY);
	mmx_fb_random(big, 41, MMX_ALPHA_ANY);
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

static void test_src_offset(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *fb = mmx_fb_new(d, 256, 192, DRM_FORMAT_RGB888);
	struct mmx_fb *ov = mmx_fb_new(d, 200, 100, DRM_FORMAT_ARGB8888);
	struct mmx_ref_plane ref[2];
	struct mmx_req *r;
	struct layer l[2];

	light(d, o);
	mmx_fb_random(fb, 50, MMX_ALPHA_ANY);
	mmx_fb_random(ov, 51, MMX_ALPHA_BINARY_PREMULT);
	/* a 100x80 window of the FB from (30, 20) at (10, 10) */
	l[0] = layer(o->primary, fb, 10, 10);
	l[0].sx = 30;
	l[0].sy = 20;
	l[0].w = 100;
	l[0].h = 80;
	l[1] = layer(o->overlay[0], ov, 150, 120);
	l[1].sx = 120;
	l[1].sy = 33;
	l[1].w = 80;
	l[1].h = 67;
	show_and_check(d, o, l, 2, "src-window");

	/* fractional source coordinates: the integer part is used */
	r = mmx_req_new(d);
	mmx_req_plane(r, o->primary, o->crtc_id, fb->id, 0, 0, 100, 80, 10, 10,
		      100, 80);
	mmx_req_add(r, o->primary, "SRC_X", (30u << 16) | 0x8000);
	mmx_req_add(r, o->primary, "SRC_Y", (20u << 16) | 0xc000);
	mmx_do(mmx_req_commit(r, 0));
	ref[0] = mmx_ref_fb(fb, 10, 10);
	ref[0].src_x = 30;
	ref[0].src_y = 20;
	ref[0].w = 100;
	ref[0].h = 80;
	ref[1] = mmx_ref_fb(ov, 150, 120);
	ref[1].src_x = 120;
	ref[1].src_y = 33;
	ref[1].w = 80;
	ref[1].h = 67;
	mmx_check_output(d, o, mmx_small_mode(), ref, 2, "src-fractional");
}

static void test_fb_pitch_offset(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_RGB565,
					    DRM_FORMAT_RGB888 };
	struct mmx_output *o = output0(d);
	size_t i;

	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		int cpp = mmx_format_cpp(formats[i]);
		struct mmx_fb *fb = mmx_fb_new_ex(d, 150, 100, formats[i],
						  150 * (uint32_t)cpp + 256 + 3,
						  4096 + 64);
		struct layer l = layer(o->primary, fb, 77, 55);
		char what[48];

		mmx_fb_random(fb, 60 + (uint32_t)i, MMX_ALPHA_ANY);
		snprintf(what, sizeof(what), "pitch-offset-%s",
			 mmx_format_name(formats[i]));
		show_and_check(d, o, &l, 1, what);
	}
}

static void test_writeback_pitch_offset(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
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

static void zpos_scene(struct mmx_dev *d, struct mmx_output *o,
		       struct mmx_fb **fbs)
{
	fbs[0] = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	fbs[1] = mmx_fb_new(d, 150, 120, DRM_FORMAT_XRGB8888);
	fbs[2] = mmx_fb_new(d, 150, 120, DRM_FORMAT_XBGR8888);
	fbs[3] = mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888);
	mmx_fb_fill(fbs[0], 0xff204060);
	mmx_fb_fill(fbs[1], 0xffff0000);
	mmx_fb_fill(fbs[2], 0xff00ff00);
	mmx_fb_random(fbs[3], 70, MMX_ALPHA_BINARY_PREMULT);
	light(d, o);
}

static void test_zpos_order(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *fbs[4];
	struct mmx_ref_plane ref[4];
	struct layer l[4];
	int swap;

	zpos_scene(d, o, fbs);
	for (swap = 0; swap < 2; swap++) {
		uint32_t top = swap ? o->overlay[0] : o->overlay[1];

		l[0] = layer(o->primary, fbs[0], 0, 0);
		l[1] = layer(o->overlay[0], fbs[1], 40, 40);
		l[2] = layer(o->overlay[1], fbs[2], 100, 80);
		l[3] = layer(o->cursor, fbs[3], 120, 100);
		l[1].zpos = swap ? 2 : 1;
		l[2].zpos = swap ? 1 : 2;
		show_and_check(d, o, l, 4, swap ? "overlay0-on-top" :
						  "overlay1-on-top");
		mmx_assert_eq(mmx_prop_get(d, top, "zpos"), 2);

		/* explicit expectation too: primary, lower, upper, cursor */
		ref[0] = mmx_ref_fb(fbs[0], 0, 0);
		ref[1] = swap ? mmx_ref_fb(fbs[2], 100, 80) :
				mmx_ref_fb(fbs[1], 40, 40);
		ref[2] = swap ? mmx_ref_fb(fbs[1], 40, 40) :
				mmx_ref_fb(fbs[2], 100, 80);
		ref[3] = mmx_ref_fb(fbs[3], 120, 100);
		mmx_check_output(d, o, mmx_small_mode(), ref, 4, "explicit-order");
	}
}

static void test_zpos_tie(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *fbs[4];
	struct mmx_ref_plane ref[3];
	struct layer l[3];
	int z;

	zpos_scene(d, o, fbs);
	for (z = 1; z <= 2; z++) {
		char what[32];

		l[0] = layer(o->primary, fbs[0], 0, 0);
		l[1] = layer(o->overlay[1], fbs[2], 100, 80);
		l[2] = layer(o->overlay[0], fbs[1], 40, 40);
		l[1].zpos = l[2].zpos = z;
		snprintf(what, sizeof(what), "both-zpos-%d", z);
		show_and_check(d, o, l, 3, what);
		/* the higher plane id wins the tie */
		ref[0] = mmx_ref_fb(fbs[0], 0, 0);
		ref[1] = mmx_ref_fb(fbs[1], 40, 40);	/* overlay[0]: lower id */
		ref[2] = mmx_ref_fb(fbs[2], 100, 80);
		mmx_check_output(d, o, mmx_small_mode(), ref, 3, "tie-by-id");
	}
}

/* ------------------------------------------------------------------------ */
/* Alpha and blending                                                       */

static const uint16_t alphas[] = { 0xffff, 0x8000, 0x3fff, 0x0101, 0 };

static void blend_test(struct mmx_dev *d, enum mmx_blend blend,
		       uint32_t format)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *fb = mmx_fb_new(d, 200, 150, format);
	struct mmx_fb *cur = mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888);
	size_t i;

	light(d, o);
	mmx_fb_random(bg, 80, MMX_ALPHA_ANY);
	/* pre-multiplied blending is only defined for valid content */
	mmx_fb_random(fb, 81, blend == MMX_BLEND_PREMULTI ? MMX_ALPHA_PREMULT :
							    MMX_ALPHA_ANY);
	mmx_fb_random(cur, 82, blend == MMX_BLEND_PREMULTI ? MMX_ALPHA_PREMULT :
							     MMX_ALPHA_ANY);
	for (i = 0; i < MMX_ARRAY_SIZE(alphas); i++) {
		struct layer l[3] = { layer(o->primary, bg, 0, 0),
				      layer(o->overlay[0], fb, 60, 40),
				      layer(o->cursor, cur, 10, 150) };
		char what[64];

		l[1].blend = l[2].blend = blend;
		l[1].alpha = alphas[i];
		l[2].alpha = alphas[(i + 2) % MMX_ARRAY_SIZE(alphas)];
		snprintf(what, sizeof(what), "%s-%s-alpha-%04x",
			 mmx_blend_names[blend], mmx_format_name(format),
			 alphas[i]);
		show_and_check(d, o, l, 3, what);
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
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	size_t f;
	int b;

	light(d, o);
	mmx_fb_random(bg, 90, MMX_ALPHA_ANY);
	for (f = 0; f < MMX_ARRAY_SIZE(formats); f++) {
		struct mmx_fb *fb = mmx_fb_new(d, 180, 120, formats[f]);

		mmx_fb_random(fb, 91 + (uint32_t)f, MMX_ALPHA_ANY);
		for (b = 0; b < 3; b++) {
			struct layer l[2] = { layer(o->primary, bg, 0, 0),
					      layer(o->overlay[1], fb, 70, 60) };
			char what[64];

			l[1].blend = (enum mmx_blend)b;
			l[1].alpha = 0x8000;
			snprintf(what, sizeof(what), "%s-%s-half",
				 mmx_format_name(formats[f]), mmx_blend_names[b]);
			show_and_check(d, o, l, 2, what);
		}
	}
}

static void test_primary_alpha(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *fb = mmx_fb_new(d, W, H, DRM_FORMAT_ARGB8888);
	int b;

	/* the primary blends over black too */
	light(d, o);
	mmx_fb_random(fb, 95, MMX_ALPHA_PREMULT);
	for (b = 0; b < 3; b++) {
		struct layer l = layer(o->primary, fb, 0, 0);
		char what[48];

		l.blend = (enum mmx_blend)b;
		l.alpha = 0x9999;
		snprintf(what, sizeof(what), "primary-%s", mmx_blend_names[b]);
		show_and_check(d, o, &l, 1, what);
	}
}

static void test_blend_stack(struct mmx_dev *d)
{
	struct mmx_output *o = output0(d);
	struct mmx_fb *p = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB2101010);
	struct mmx_fb *a = mmx_fb_new(d, 200, 160, DRM_FORMAT_ABGR8888);
	struct mmx_fb *b = mmx_fb_new(d, 160, 200, DRM_FORMAT_ARGB8888);
	struct mmx_fb *c = mmx_fb_new(d, 96, 96, DRM_FORMAT_ARGB8888);
	struct layer l[4];

	light(d, o);
	mmx_fb_random(p, 100, MMX_ALPHA_ANY);
	mmx_fb_random(a, 101, MMX_ALPHA_BINARY);
	mmx_fb_random(b, 102, MMX_ALPHA_BINARY_PREMULT);
	mmx_fb_random(c, 103, MMX_ALPHA_BINARY);
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
	struct mmx_output *o = output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *ov = mmx_fb_new(d, 100, 100, DRM_FORMAT_XRGB8888);
	struct layer l[3];

	light(d, o);
	mmx_fb_random(bg, 110, MMX_ALPHA_ANY);
	mmx_fb_random(ov, 111, MMX_ALPHA_ANY);
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
FMT(MMX_PLANE_CURSOR, cursor, DRM_FORMAT_ARGB8888, argb8888);

#define FMT_TEST(kname, fname)						\
	{ "format-" #kname "-" #fname,					\
	  "a random " #fname " image on the " #kname " plane(s) (odd sizes, alpha 0/max through Pre-multiplied and Coverage) is captured exactly as the reference converts it", \
	  NULL, test_format, &fc_##kname##_##fname }

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
	FMT_TEST(cursor, argb8888),
	{ "cursor-sizes", "cursors from 1x1 to 256x256, odd and thin ones, are composed at their size",
	  test_cursor_sizes, NULL, NULL },
	{ "cursor-offscreen", "a cursor partly or wholly off any edge (to +-16384) is clipped to the CRTC",
	  test_cursor_offscreen, NULL, NULL },
	{ "overlay-offscreen", "overlays partly or wholly off any edge (to +-16384) are clipped to the CRTC",
	  test_overlay_offscreen, NULL, NULL },
	{ "primary-position", "a primary plane smaller, bigger, offset or off-screen is clipped and leaves black where it does not cover",
	  test_primary_position, NULL, NULL },
	{ "src-offset", "SRC_X/SRC_Y select a window of the FB; fractional source coordinates use their integer part",
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
};

int main(int argc, char **argv)
{
	return mmx_main(argc, argv, "mmx plane composition", tests,
			MMX_ARRAY_SIZE(tests));
}
