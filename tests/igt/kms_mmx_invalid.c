// SPDX-License-Identifier: MIT
/*
 * kms_mmx_invalid - every rejected input gets the documented errno and
 * leaves the device as it was: ADDFB2 arguments, plane coordinates and
 * properties, writeback FBs, modes, client permissions, atomic flags.
 * "As it was" is checked by comparing every property of every CRTC,
 * connector and plane before and after, and where it matters by capturing
 * the picture again.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmx_igt.h"

#define W 320
#define H 240

struct scene {
	struct mmx_output *o;
	struct mmx_fb *bg, *ov;
	struct mmx_ref_plane ref[2];
};

/* Output 0 at 320x240 with a random primary and an overlay: the state that
 * failed commits must leave alone. */
static void scene_setup(struct mmx_dev *d, struct scene *s)
{
	struct mmx_req *r;

	s->o = &d->out[0];
	mmx_assert_f(d->n_outputs > 0 && s->o->primary && s->o->n_overlays == 2 &&
		     s->o->cursor && s->o->wb_conn_id, "output 0 is incomplete");
	s->bg = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	s->ov = mmx_fb_new(d, 64, 64, DRM_FORMAT_XRGB8888);
	mmx_fb_random(s->bg, 1, MMX_ALPHA_ANY);
	mmx_fb_random(s->ov, 2, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, s->o, mmx_small_mode(), s->bg, 0, 0));
	r = mmx_req_new(d);
	mmx_req_plane(r, s->o->overlay[0], s->o->crtc_id, s->ov->id, 0, 0, 64, 64,
		      100, 100, 64, 64);
	mmx_do(mmx_req_commit(r, 0));
	s->ref[0] = mmx_ref_fb(s->bg, 0, 0);
	s->ref[1] = mmx_ref_fb(s->ov, 100, 100);
}

static void scene_check(struct mmx_dev *d, struct scene *s, const char *what)
{
	mmx_check_output(d, s->o, mmx_small_mode(), s->ref, 2, what);
}

/*
 * Commit R with FLAGS; it must fail with -ERR and change no property of
 * any CRTC, connector or plane.
 */
static void expect_reject(struct mmx_dev *d, struct mmx_req *r, uint32_t flags,
			  int err, const char *what)
{
	struct mmx_snapshot snap;
	int ret;

	mmx_snapshot_take(d, &snap);
	ret = mmx_req_commit(r, flags);
	mmx_assert_f(ret == -err, "%s: expected %d (%s), got %d (%s)", what, -err,
		     strerror(err), ret, ret ? strerror(-ret) : "success");
	mmx_assert_f(mmx_snapshot_same(d, &snap), "%s changed the KMS state",
		     what);
	mmx_snapshot_free(&snap);
	mmx_debug("%s: %s as expected", what, strerror(err));
}

/*
 * A commit of the one property PROP_ID = VALUE of OBJ: fails with ERR and
 * changes nothing.
 */
static void reject_prop(struct mmx_dev *d, uint32_t obj, uint32_t prop_id,
			uint64_t value, uint32_t flags, int err,
			const char *what)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_add_id(r, obj, prop_id, value);
	expect_reject(d, r, flags, err, what);
}

/* Same with a TEST_ONLY commit first (it must agree) then a real one. */
static void expect_reject_both(struct mmx_dev *d, void (*build)(struct mmx_req *,
								 void *),
			       void *arg, uint32_t flags, int err,
			       const char *what)
{
	struct mmx_req *r = mmx_req_new(d);

	build(r, arg);
	expect_reject(d, r, flags | DRM_MODE_ATOMIC_TEST_ONLY, err, what);
	r = mmx_req_new(d);
	build(r, arg);
	expect_reject(d, r, flags, err, what);
}

/* ADDFB2 on a fresh BO big enough for SIZE bytes; returns 0/-errno. */
static int try_addfb(struct mmx_dev *d, uint64_t size, uint32_t w, uint32_t h,
		     uint32_t format, uint32_t pitch, uint32_t offset,
		     uint32_t handle_override)
{
	uint32_t handle, fb_id = 0;
	uint8_t *map;
	uint64_t real;
	int before = mmx_count_fbs(d), ret;

	mmx_do(mmx_bo_create(d, size, &handle, &map, &real));
	ret = mmx_addfb(d->fd, w, h, format,
			handle_override ? handle_override : handle, pitch, offset,
			&fb_id);
	if (!ret) {
		mmx_assert_eq(mmx_count_fbs(d), before + 1);
		drmModeRmFB(d->fd, fb_id);
	} else {
		mmx_assert_eq(mmx_count_fbs(d), before);
	}
	mmx_bo_destroy(d, handle, map, real);
	return ret;
}

/* ------------------------------------------------------------------------ */
/* ADDFB2                                                                   */

static void test_addfb_pitch_too_small(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_RGB888,
					    DRM_FORMAT_RGB565,
					    DRM_FORMAT_XRGB2101010 };
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		uint32_t cpp = (uint32_t)mmx_format_cpp(formats[i]);

		mmx_info("%s: pitch %u rejected, %u and %u accepted",
			 mmx_format_name(formats[i]), 100 * cpp - 1, 100 * cpp,
			 100 * cpp + 1);
		mmx_assert_eq(try_addfb(d, 1 << 20, 100, 100, formats[i],
					100 * cpp - 1, 0, 0), -EINVAL);
		mmx_assert_eq(try_addfb(d, 1 << 20, 100, 100, formats[i], 0, 0, 0),
			      -EINVAL);
		/* any pitch from width * cpp on is fine, aligned or not */
		mmx_do(try_addfb(d, 1 << 20, 100, 100, formats[i], 100 * cpp, 0, 0));
		mmx_do(try_addfb(d, 1 << 20, 100, 100, formats[i], 100 * cpp + 1,
				 0, 0));
	}
}

static void test_addfb_unknown_format(struct mmx_dev *d)
{
	uint32_t handle, fb_id;
	uint8_t *map;
	uint64_t size;
	int ret;

	mmx_assert_eq(try_addfb(d, 1 << 20, 64, 64, fourcc_code('X', 'X', 'X', 'X'),
				256, 0, 0), -EINVAL);
	mmx_assert_eq(try_addfb(d, 1 << 20, 64, 64, 0, 256, 0, 0), -EINVAL);

	/* a real format that no mmx plane takes: refused by ADDFB2 or by
	 * every plane */
	mmx_do(mmx_bo_create(d, 1 << 20, &handle, &map, &size));
	ret = mmx_addfb(d->fd, 64, 64, DRM_FORMAT_C8, handle, 128, 0, &fb_id);
	mmx_info("ADDFB2 C8: %s", ret ? strerror(-ret) : "accepted");
	if (ret) {
		mmx_assert_eq(ret, -EINVAL);
	} else {
		struct mmx_output *o = &d->out[0];
		struct mmx_req *r;
		uint32_t planes[4] = { o->primary, o->overlay[0], o->overlay[1],
				       o->cursor };
		int k;

		mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
		for (k = 0; k < 4; k++) {
			r = mmx_req_new(d);
			mmx_req_plane(r, planes[k], o->crtc_id, fb_id, 0, 0, 64, 64,
				      0, 0, 64, 64);
			expect_reject(d, r, 0, EINVAL, "C8 FB on a plane");
		}
		drmModeRmFB(d->fd, fb_id);
	}
	mmx_bo_destroy(d, handle, map, size);
}

static void test_addfb_bad_handle(struct mmx_dev *d)
{
	mmx_assert_eq(try_addfb(d, 1 << 20, 64, 64, DRM_FORMAT_XRGB8888, 256, 0,
				0xdead), -ENOENT);
	mmx_assert_eq(try_addfb(d, 1 << 20, 64, 64, DRM_FORMAT_XRGB8888, 256, 0,
				0x7fffffff), -ENOENT);
}

static void test_addfb_offset(struct mmx_dev *d)
{
	/* a 64 KiB BO: 100 rows of 400 bytes fit up to offset 65536-40000 */
	uint32_t pitch = 400, h = 100;
	uint64_t size = 65536;
	uint32_t last = (uint32_t)size - ((h - 1) * pitch + 100 * 4);

	mmx_do(try_addfb(d, size, 100, h, DRM_FORMAT_XRGB8888, pitch, 4096, 0));
	mmx_do(try_addfb(d, size, 100, h, DRM_FORMAT_XRGB8888, pitch, last, 0));
	mmx_assert_eq(try_addfb(d, size, 100, h, DRM_FORMAT_XRGB8888, pitch,
				last + 1, 0), -EINVAL);
	mmx_assert_eq(try_addfb(d, size, 100, h, DRM_FORMAT_XRGB8888, pitch,
				(uint32_t)size, 0), -EINVAL);
	/* too many rows for the BO */
	mmx_assert_eq(try_addfb(d, size, 100, 200, DRM_FORMAT_XRGB8888, pitch, 0,
				0), -EINVAL);
}

static void test_addfb_size_limits(struct mmx_dev *d)
{
	mmx_do(try_addfb(d, 16384 * 4, 16384, 1, DRM_FORMAT_XRGB8888, 16384 * 4,
			 0, 0));
	mmx_do(try_addfb(d, 16384 * 4, 1, 16384, DRM_FORMAT_XRGB8888, 4, 0, 0));
	mmx_assert_eq(try_addfb(d, 16385 * 4, 16385, 1, DRM_FORMAT_XRGB8888,
				16385 * 4, 0, 0), -EINVAL);
	mmx_assert_eq(try_addfb(d, 16385 * 4, 1, 16385, DRM_FORMAT_XRGB8888, 4,
				0, 0), -EINVAL);
	mmx_assert_eq(try_addfb(d, 4096, 0, 1, DRM_FORMAT_XRGB8888, 4, 0, 0),
		      -EINVAL);
	mmx_assert_eq(try_addfb(d, 4096, 1, 0, DRM_FORMAT_XRGB8888, 4, 0, 0),
		      -EINVAL);
}

static void test_rmfb_disables_plane(struct mmx_dev *d)
{
	struct scene s;
	struct mmx_ref_plane ref;

	scene_setup(d, &s);
	/* removing the overlay's FB takes the overlay off the screen */
	mmx_fb_free(s.ov);
	mmx_assert_eq(mmx_prop_get(d, s.o->overlay[0], "FB_ID"), 0);
	mmx_assert_eq(mmx_prop_get(d, s.o->overlay[0], "CRTC_ID"), 0);
	mmx_assert_eq(mmx_prop_get(d, s.o->primary, "FB_ID"), s.bg->id);
	ref = mmx_ref_fb(s.bg, 0, 0);
	mmx_check_output(d, s.o, mmx_small_mode(), &ref, 1, "overlay-fb-removed");
}

/* ------------------------------------------------------------------------ */
/* Planes                                                                   */

struct plane_args {
	struct mmx_dev *d;
	struct scene *s;
	uint32_t plane, fb;
	int64_t x, y;
	uint64_t w, h, sw, sh, sx, sy;
	const char *prop;
	uint64_t value;
};

static void build_plane(struct mmx_req *r, void *arg)
{
	struct plane_args *a = arg;

	mmx_req_plane_fixed(r, a->plane, a->s->o->crtc_id, a->fb, a->sx, a->sy,
			    a->sw, a->sh, a->x, a->y, a->w, a->h);
}

static struct plane_args plane_args(struct mmx_dev *d, struct scene *s,
				    uint32_t plane, const struct mmx_fb *fb,
				    int64_t x, int64_t y)
{
	struct plane_args a = {
		.d = d, .s = s, .plane = plane, .fb = fb->id, .x = x, .y = y,
		.w = fb->width, .h = fb->height,
		.sw = (uint64_t)fb->width << 16, .sh = (uint64_t)fb->height << 16,
	};

	return a;
}

/* A TEST_ONLY commit of what BUILD makes must succeed and change nothing. */
static void expect_test_only_ok(struct mmx_dev *d,
				void (*build)(struct mmx_req *, void *),
				void *arg, const char *what)
{
	struct mmx_snapshot snap;
	struct mmx_req *r = mmx_req_new(d);
	int ret;

	build(r, arg);
	mmx_snapshot_take(d, &snap);
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_TEST_ONLY);
	mmx_assert_f(ret == 0, "%s: refused: %d (%s)", what, ret, strerror(-ret));
	mmx_assert_f(mmx_snapshot_same(d, &snap), "%s: TEST_ONLY changed the KMS state",
		     what);
	mmx_snapshot_free(&snap);
}

static void test_plane_position_any(struct mmx_dev *d)
{
	/* once refused (beyond +-16384), now any position is accepted */
	static const int64_t pos[][2] = { { 16385, 0 }, { -16385, 0 },
					  { 0, 16385 }, { 0, -16385 },
					  { 100000, 100000 }, { INT_MIN, 0 },
					  { 0, INT_MIN }, { INT_MIN, INT_MIN },
					  { INT_MAX - 64, INT_MAX - 64 },
					  { 16384, 0 }, { -16384, 16384 } };
	struct scene s;
	size_t i;
	int k;

	scene_setup(d, &s);
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? s.o->overlay[1] :
				 k == 1 ? s.o->cursor : s.o->primary;
		struct mmx_fb *fb = k == 1 ? mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888)
					   : s.ov;

		for (i = 0; i < MMX_ARRAY_SIZE(pos); i++) {
			struct plane_args a = plane_args(d, &s, plane, fb, pos[i][0],
							 pos[i][1]);
			struct mmx_req *r;
			char what[64];

			snprintf(what, sizeof(what), "plane %u at %lld,%lld", plane,
				 (long long)pos[i][0], (long long)pos[i][1]);
			expect_test_only_ok(d, build_plane, &a, what);
			if (plane == s.o->primary)
				continue;	/* would change the scene */
			/* off the CRTC: accepted for real, and not shown */
			r = mmx_req_new(d);
			build_plane(r, &a);
			mmx_do(mmx_req_commit(r, 0));
			mmx_assert_eq((int32_t)mmx_prop_get(d, plane, "CRTC_X"), pos[i][0]);
			mmx_assert_eq((int32_t)mmx_prop_get(d, plane, "CRTC_Y"), pos[i][1]);
		}
	}
	scene_check(d, &s, "scene-unchanged");
}

/*
 * The second overlay with the scene's 64x64 FB, at X, Y, size W x H, from
 * the source rectangle (SX, SY) SW x SH (16.16): refused with ERR.
 */
struct bad_rect {
	int64_t x, y;
	uint64_t w, h, sx, sy, sw, sh;
	int err;
	const char *what;
};

static void bad_rects_refused(struct mmx_dev *d, const struct bad_rect *c,
			      size_t n)
{
	struct scene s;
	size_t i;

	scene_setup(d, &s);
	for (i = 0; i < n; i++) {
		struct plane_args a = plane_args(d, &s, s.o->overlay[1], s.ov,
						 c[i].x, c[i].y);

		a.w = c[i].w;
		a.h = c[i].h;
		a.sx = c[i].sx;
		a.sy = c[i].sy;
		a.sw = c[i].sw;
		a.sh = c[i].sh;
		expect_reject_both(d, build_plane, &a, 0, c[i].err, c[i].what);
	}
	scene_check(d, &s, "scene-unchanged");
}

#define FB64 (64ull << 16)

static void test_plane_coords_overflow(struct mmx_dev *d)
{
	/* CRTC_X + CRTC_W beyond INT_MAX: -ERANGE from the core */
	static const struct bad_rect c[] = {
		{ 16, 0, INT_MAX, 64, 0, 0, FB64, FB64, ERANGE,
		  "CRTC_X + CRTC_W overflow" },
		{ 0, 16, 64, INT_MAX, 0, 0, FB64, FB64, ERANGE,
		  "CRTC_Y + CRTC_H overflow" },
	};

	bad_rects_refused(d, c, MMX_ARRAY_SIZE(c));
}

static void test_plane_src_outside_fb(struct mmx_dev *d)
{
	/* a source rectangle not inside the FB: -ENOSPC from the core */
	static const struct bad_rect c[] = {
		{ 0, 0, 65, 64, 0, 0, 65ull << 16, FB64, ENOSPC,
		  "SRC_W beyond the FB" },
		{ 0, 0, 64, 64, 0, 1ull << 16, FB64, FB64, ENOSPC,
		  "SRC_Y + SRC_H beyond the FB" },
		{ 0, 0, 1, 64, FB64, 0, 1ull << 16, FB64, ENOSPC,
		  "SRC_X at the FB's edge" },
	};

	bad_rects_refused(d, c, MMX_ARRAY_SIZE(c));
}

static void test_plane_scaling_limits(struct mmx_dev *d)
{
	struct scene s;
	struct plane_args a;
	struct mmx_fb *big;
	int k;

	scene_setup(d, &s);
	big = mmx_fb_new(d, 200, 200, DRM_FORMAT_ARGB8888);
	for (k = 0; k < 3; k++) {
		uint32_t plane = k == 0 ? s.o->primary :
				 k == 1 ? s.o->overlay[1] : s.o->cursor;

		/* within 1/8x..8x: accepted */
		a = plane_args(d, &s, plane, big, 0, 0);
		a.sw = 100ull << 16;	/* 2x upscale horizontally */
		expect_test_only_ok(d, build_plane, &a, "2x horizontal upscale");
		a = plane_args(d, &s, plane, big, 0, 0);
		a.h = 100;		/* 2x downscale vertically */
		expect_test_only_ok(d, build_plane, &a, "2x vertical downscale");
		a = plane_args(d, &s, plane, big, 0, 0);
		a.w = 199;		/* off by one */
		expect_test_only_ok(d, build_plane, &a, "199 from 200");
		/* beyond: ERANGE */
		a = plane_args(d, &s, plane, big, 0, 0);
		a.sw = 20ull << 16;	/* 10x upscale horizontally */
		expect_reject_both(d, build_plane, &a, 0, ERANGE, "10x horizontal upscale");
		a = plane_args(d, &s, plane, big, 0, 0);
		a.h = 22;		/* 9.1x downscale vertically */
		expect_reject_both(d, build_plane, &a, 0, ERANGE, "9.1x vertical downscale");
	}
	scene_check(d, &s, "scene-unchanged");
}

static void test_plane_wrong_crtc(struct mmx_dev *d)
{
	struct scene s;
	struct mmx_output *o1;
	struct plane_args a;
	struct mmx_fb *cur;

	mmx_require_f(d->n_outputs >= 2, "needs two outputs");
	scene_setup(d, &s);
	o1 = &d->out[1];
	cur = mmx_fb_new(d, 64, 64, DRM_FORMAT_ARGB8888);
	/* planes of CRTC 1 cannot go on CRTC 0 */
	a = plane_args(d, &s, o1->overlay[0], s.ov, 0, 0);
	expect_reject_both(d, build_plane, &a, 0, EINVAL, "overlay of CRTC 1 on CRTC 0");
	a = plane_args(d, &s, o1->primary, s.ov, 0, 0);
	expect_reject_both(d, build_plane, &a, 0, EINVAL, "primary of CRTC 1 on CRTC 0");
	a = plane_args(d, &s, o1->cursor, cur, 0, 0);
	expect_reject_both(d, build_plane, &a, 0, EINVAL, "cursor of CRTC 1 on CRTC 0");
	scene_check(d, &s, "scene-unchanged");
}

static void test_plane_fb_without_crtc(struct mmx_dev *d)
{
	struct scene s;
	uint32_t ov;

	scene_setup(d, &s);
	ov = s.o->overlay[0];
	reject_prop(d, ov, mmx_prop_id(d, ov, "CRTC_ID"), 0, 0, EINVAL,
		    "FB without CRTC");
	reject_prop(d, ov, mmx_prop_id(d, ov, "FB_ID"), 0, 0, EINVAL,
		    "CRTC without FB");
	scene_check(d, &s, "scene-unchanged");
}

static void test_cursor_formats(struct mmx_dev *d)
{
	/* once refused: the cursor takes every format the other planes take */
	static const uint32_t formats[] = { DRM_FORMAT_XRGB8888,
					    DRM_FORMAT_ABGR8888,
					    DRM_FORMAT_RGB565,
					    DRM_FORMAT_XRGB2101010 };
	struct scene s;
	size_t i;

	scene_setup(d, &s);
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		struct mmx_fb *fb = mmx_fb_new(d, 64, 64, formats[i]);
		struct plane_args a = plane_args(d, &s, s.o->cursor, fb, 10, 10);
		char what[48];

		snprintf(what, sizeof(what), "%s cursor", mmx_format_name(formats[i]));
		expect_test_only_ok(d, build_plane, &a, what);
	}
	scene_check(d, &s, "scene-unchanged");
}

static void test_cursor_large(struct mmx_dev *d)
{
	/* once refused: cursors beyond 256 (the size caps are hints) */
	static const uint32_t sizes[][2] = { { 257, 257 }, { 257, 64 },
					     { 64, 257 }, { 512, 512 },
					     { 1024, 16 } };
	struct scene s;
	struct plane_args a;
	size_t i;

	scene_setup(d, &s);
	for (i = 0; i < MMX_ARRAY_SIZE(sizes); i++) {
		struct mmx_fb *fb = mmx_fb_new(d, sizes[i][0], sizes[i][1],
					       DRM_FORMAT_ARGB8888);
		char what[48];

		a = plane_args(d, &s, s.o->cursor, fb, 0, 0);
		snprintf(what, sizeof(what), "%ux%u cursor", sizes[i][0], sizes[i][1]);
		expect_test_only_ok(d, build_plane, &a, what);
	}
	scene_check(d, &s, "scene-unchanged");
}

/* ------------------------------------------------------------------------ */
/* Plane properties                                                         */

static void build_prop(struct mmx_req *r, void *arg)
{
	struct plane_args *a = arg;

	mmx_req_add(r, a->plane, a->prop, a->value);
}

static void prop_reject(struct mmx_dev *d, struct scene *s, uint32_t plane,
			const char *prop, uint64_t value, int err)
{
	struct plane_args a = { .d = d, .s = s, .plane = plane, .prop = prop,
				.value = value };
	char what[96];

	snprintf(what, sizeof(what), "plane %u %s = %llu", plane, prop,
		 (unsigned long long)value);
	expect_reject_both(d, build_prop, &a, 0, err, what);
}

static void test_blend_mode_invalid(struct mmx_dev *d)
{
	struct scene s;
	int k;

	scene_setup(d, &s);
	for (k = 0; k < 4; k++) {
		uint32_t plane = k == 0 ? s.o->primary : k == 3 ? s.o->cursor :
				 s.o->overlay[k - 1];
		uint64_t max = 0;
		drmModePropertyRes *info = NULL;
		int e;

		mmx_assert(mmx_prop_lookup(d->fd, plane, "pixel blend mode", NULL,
					   NULL, &info));
		for (e = 0; e < info->count_enums; e++)
			if (info->enums[e].value > max)
				max = info->enums[e].value;
		drmModeFreeProperty(info);
		prop_reject(d, &s, plane, "pixel blend mode", 7, EINVAL);
		prop_reject(d, &s, plane, "pixel blend mode", max + 1, EINVAL);
		prop_reject(d, &s, plane, "pixel blend mode", ~0ull, EINVAL);
	}
	scene_check(d, &s, "scene-unchanged");
}

static void test_zpos_invalid(struct mmx_dev *d)
{
	struct scene s;
	int k;

	scene_setup(d, &s);
	for (k = 0; k < 2; k++) {
		prop_reject(d, &s, s.o->overlay[k], "zpos", 9, EINVAL);
		prop_reject(d, &s, s.o->overlay[k], "zpos", 0, EINVAL);
		prop_reject(d, &s, s.o->overlay[k], "zpos", 3, EINVAL);
		prop_reject(d, &s, s.o->overlay[k], "zpos", ~0ull, EINVAL);
	}
	/* immutable: even the current value cannot be set */
	prop_reject(d, &s, s.o->primary, "zpos", 0, EINVAL);
	prop_reject(d, &s, s.o->primary, "zpos", 1, EINVAL);
	prop_reject(d, &s, s.o->cursor, "zpos", 3, EINVAL);
	prop_reject(d, &s, s.o->cursor, "zpos", 2, EINVAL);
	scene_check(d, &s, "scene-unchanged");
}

static void test_alpha_invalid(struct mmx_dev *d)
{
	struct scene s;

	scene_setup(d, &s);
	prop_reject(d, &s, s.o->overlay[0], "alpha", 0x10000, EINVAL);
	prop_reject(d, &s, s.o->primary, "alpha", 0x1ffff, EINVAL);
	prop_reject(d, &s, s.o->cursor, "alpha", ~0ull, EINVAL);
	scene_check(d, &s, "scene-unchanged");
}

/* ------------------------------------------------------------------------ */
/* Writeback                                                                */

struct wb_args {
	struct scene *s;
	uint32_t crtc;
	uint32_t fb;
	int32_t *fence;
};

static void build_wb(struct mmx_req *r, void *arg)
{
	struct wb_args *a = arg;

	mmx_req_add(r, a->s->o->wb_conn_id, "CRTC_ID", a->crtc);
	if (a->fb)
		mmx_req_add(r, a->s->o->wb_conn_id, "WRITEBACK_FB_ID", a->fb);
	if (a->fence)
		mmx_req_add(r, a->s->o->wb_conn_id, "WRITEBACK_OUT_FENCE_PTR",
			    (uintptr_t)a->fence);
}

static void test_writeback_wrong_size(struct mmx_dev *d)
{
	static const uint32_t sizes[][2] = { { W, H - 1 }, { W - 1, H },
					     { W + 1, H }, { 640, 480 },
					     { 1, 1 } };
	struct scene s;
	int32_t fence = -1;
	size_t i;

	scene_setup(d, &s);
	for (i = 0; i < MMX_ARRAY_SIZE(sizes); i++) {
		struct mmx_fb *fb = mmx_fb_new(d, sizes[i][0], sizes[i][1],
					       DRM_FORMAT_XRGB8888);
		struct wb_args a = { &s, s.o->crtc_id, fb->id, &fence };
		char what[64];

		snprintf(what, sizeof(what), "%ux%u writeback of a %dx%d mode",
			 sizes[i][0], sizes[i][1], W, H);
		expect_reject_both(d, build_wb, &a, DRM_MODE_ATOMIC_ALLOW_MODESET,
				   EINVAL, what);
		mmx_assert_eq(fence, -1);
		mmx_fb_free(fb);
	}
	scene_check(d, &s, "scene-unchanged");
}

static void test_writeback_formats(struct mmx_dev *d)
{
	static const uint32_t bad[] = { DRM_FORMAT_RGB565, DRM_FORMAT_XBGR8888,
					DRM_FORMAT_ABGR8888, DRM_FORMAT_RGB888,
					DRM_FORMAT_XRGB2101010 };
	struct scene s;
	struct mmx_fb *argb;
	struct mmx_frame *f;
	size_t i;

	scene_setup(d, &s);
	for (i = 0; i < MMX_ARRAY_SIZE(bad); i++) {
		struct mmx_fb *fb = mmx_fb_new(d, W, H, bad[i]);
		struct wb_args a = { &s, s.o->crtc_id, fb->id, NULL };
		char what[64];

		snprintf(what, sizeof(what), "%s writeback",
			 mmx_format_name(bad[i]));
		expect_reject_both(d, build_wb, &a, DRM_MODE_ATOMIC_ALLOW_MODESET,
				   EINVAL, what);
	}
	/* ARGB8888 works, opaque */
	argb = mmx_fb_new(d, W, H, DRM_FORMAT_ARGB8888);
	mmx_do(mmx_wb_capture(d, s.o, argb));
	f = mmx_frame_new(W, H);
	mmx_ref_compose(f, s.ref, 2);
	mmx_assert(mmx_frame_check(argb, f, "argb8888-writeback"));
	mmx_frame_free(f);
	scene_check(d, &s, "xrgb8888-writeback");
}

static void test_writeback_no_crtc(struct mmx_dev *d)
{
	struct scene s;
	struct mmx_fb *fb;
	int32_t fence = -1;
	struct wb_args a;

	scene_setup(d, &s);
	fb = mmx_wb_fb(d, mmx_small_mode(), 0);
	a = (struct wb_args){ &s, 0, fb->id, &fence };
	expect_reject_both(d, build_wb, &a, DRM_MODE_ATOMIC_ALLOW_MODESET, EINVAL,
			   "writeback FB without a CRTC");
	/*
	 * An out-fence without an FB: 6.1's core ignores it (no writeback
	 * job) or refuses it; either way no fence and no change.
	 */
	{
		struct mmx_snapshot snap;
		struct mmx_req *r = mmx_req_new(d);
		int ret;

		mmx_snapshot_take(d, &snap);
		mmx_req_add(r, s.o->wb_conn_id, "WRITEBACK_OUT_FENCE_PTR",
			    (uintptr_t)&fence);
		ret = mmx_req_commit(r, 0);
		mmx_info("out-fence without an FB: %s",
			 ret ? strerror(-ret) : "ignored");
		mmx_assert(ret == 0 || ret == -EINVAL);
		mmx_assert_eq(fence, -1);
		mmx_assert_unchanged(d, &snap);
		mmx_snapshot_free(&snap);
	}
	/* the writeback connector of another CRTC */
	if (d->n_outputs >= 2) {
		struct mmx_req *r = mmx_req_new(d);

		mmx_req_add(r, d->out[1].wb_conn_id, "CRTC_ID", s.o->crtc_id);
		mmx_req_add(r, d->out[1].wb_conn_id, "WRITEBACK_FB_ID", fb->id);
		expect_reject(d, r, DRM_MODE_ATOMIC_ALLOW_MODESET, EINVAL,
			      "writeback connector of CRTC 1 on CRTC 0");
	}
	scene_check(d, &s, "scene-unchanged");
}

/* ------------------------------------------------------------------------ */
/* Modes                                                                    */

struct mode_args {
	struct scene *s;
	uint32_t blob;
};

static void build_mode(struct mmx_req *r, void *arg)
{
	struct mode_args *a = arg;

	mmx_req_add(r, a->s->o->crtc_id, "MODE_ID", a->blob);
}

/* MODE_ID BLOB on S's CRTC fails with EINVAL, TEST_ONLY and real. */
static void mode_rejected(struct mmx_dev *d, struct scene *s, uint32_t blob,
			  const char *what)
{
	struct mode_args a = { s, blob };

	expect_reject_both(d, build_mode, &a, DRM_MODE_ATOMIC_ALLOW_MODESET,
			   EINVAL, what);
}

/* MODE_ID BLOB on S's CRTC passes a TEST_ONLY modeset. */
static void mode_accepted(struct mmx_dev *d, struct scene *s, uint32_t blob)
{
	struct mode_args a = { s, blob };
	struct mmx_req *r = mmx_req_new(d);

	build_mode(r, &a);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET |
				 DRM_MODE_ATOMIC_TEST_ONLY));
}

static void test_mode_invalid(struct mmx_dev *d)
{
	struct scene s;
	drmModeModeInfo good, m;
	uint32_t blob;
	int i;

	scene_setup(d, &s);
	mmx_mode_make(&good, W, H, 30);
	for (i = 0; i < 8; i++) {
		const char *what = "";

		m = good;
		switch (i) {
		case 0: m.clock = 0; what = "clock 0"; break;
		case 1: m.hsync_start = (uint16_t)(m.hdisplay - 1); what = "hsync_start < hdisplay"; break;
		case 2: m.htotal = (uint16_t)(m.hsync_end - 1); what = "htotal < hsync_end"; break;
		case 3: m.vtotal = 0; what = "vtotal 0"; break;
		case 4: m.hdisplay = 0; what = "hdisplay 0"; break;
		case 5: m.clock = 1200001; what = "clock above 1.2 GHz"; break;
		case 6: m.vsync_start = (uint16_t)(m.vdisplay - 1); what = "vsync_start < vdisplay"; break;
		case 7: m.clock = 3000000; m.htotal = 4000; m.hsync_end = 3000;
			m.hsync_start = 2000; what = "clock 3 GHz"; break;
		}
		mmx_info("bad mode: %s", what);
		mode_rejected(d, &s, mmx_mode_blob(d, &m), what);
	}
	/*
	 * The driver's documented user-mode limits (Documentation/mmx.rst):
	 * clock 1 MHz to 1.2 GHz, at most 8192x8192, 1 to 240 Hz, no
	 * doublescan. Just outside them: EINVAL; at them: accepted.
	 */
	for (i = 0; i < 8; i++) {
		bool ok = i >= 4;
		const char *what = "";

		switch (i) {
		case 0: mmx_mode_make(&m, 64, 48, 120); m.clock = 999;
			what = "clock 999 kHz"; break;
		case 1: mmx_mode_make(&m, 8193, 480, 30); what = "8193 wide"; break;
		case 2: mmx_mode_make(&m, 640, 8193, 10); what = "8193 high"; break;
		case 3: mmx_mode_make(&m, W, H, 241); what = "241 Hz"; break;
		case 4: mmx_mode_make(&m, 64, 48, 120); m.clock = 1000;
			what = "clock 1 MHz"; break;
		/* 3 Hz keeps the clock within the output's link (DP, 360 MHz) */
		case 5: mmx_mode_make(&m, 8192, 8192, 3); what = "8192x8192"; break;
		case 6: mmx_mode_make(&m, W, H, 240); what = "240 Hz"; break;
		case 7: mmx_mode_make(&m, 920, 990, 1); /* 1000x1000 at 1 MHz */
			what = "1 Hz"; break;
		}
		blob = mmx_mode_blob(d, &m);
		mmx_info("%s mode: %s", ok ? "good" : "bad", what);
		if (ok)
			mode_accepted(d, &s, blob);
		else
			mode_rejected(d, &s, blob, what);
	}
	m = good;
	m.flags |= DRM_MODE_FLAG_DBLSCAN;
	mode_rejected(d, &s, mmx_mode_blob(d, &m), "doublescan");

	/* a blob of the wrong size, and one that does not exist */
	mmx_do(mmx_blob_create(d, &good, sizeof(good) - 4, &blob));
	mode_rejected(d, &s, blob, "short mode blob");
	mode_rejected(d, &s, 0x7ffffff0, "no such blob");
	/* the good one works: the tests above failed for their reason */
	mode_accepted(d, &s, mmx_mode_blob(d, &good));
	scene_check(d, &s, "scene-unchanged");
}

/* ------------------------------------------------------------------------ */
/* Clients and atomic flags                                                 */

/* R, committed with FLAGS by the client FD, fails with EACCES. */
static void not_allowed(struct mmx_req *r, int fd, uint32_t flags)
{
	mmx_assert_eq(mmx_req_commit_fd(r, fd, flags), -EACCES);
}

static void test_non_master_modeset(struct mmx_dev *d)
{
	struct scene s;
	struct mmx_snapshot snap;
	struct mmx_req *r;
	drmModeResPtr res;
	int fd;

	scene_setup(d, &s);
	fd = mmx_open_client(d, true, true);
	/* it can look ... */
	res = drmModeGetResources(fd);
	mmx_assert(res);
	mmx_assert_eq(res->count_crtcs, d->n_crtcs);
	drmModeFreeResources(res);
	/* ... but not touch: a modeset, a flip, even a TEST_ONLY */
	mmx_snapshot_take(d, &snap);
	r = mmx_req_new(d);
	mmx_req_output_off(r, s.o);
	not_allowed(r, fd, DRM_MODE_ATOMIC_ALLOW_MODESET);
	r = mmx_req_new(d);
	mmx_req_add(r, s.o->overlay[0], "CRTC_X", 5);
	not_allowed(r, fd, 0);
	r = mmx_req_new(d);
	mmx_req_add(r, s.o->overlay[0], "CRTC_X", 5);
	not_allowed(r, fd, DRM_MODE_ATOMIC_TEST_ONLY);
	mmx_assert_unchanged(d, &snap);
	mmx_snapshot_free(&snap);
	/* the master can still do it */
	r = mmx_req_new(d);
	mmx_req_add(r, s.o->overlay[0], "CRTC_X", 100);
	mmx_do(mmx_req_commit(r, 0));
	scene_check(d, &s, "scene-unchanged");
}

/* R passes as a TEST_ONLY modeset and leaves the state of SNAP. */
static void test_only_changes_nothing(struct mmx_dev *d, struct mmx_req *r,
				      const struct mmx_snapshot *snap)
{
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_TEST_ONLY |
				 DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_assert_unchanged(d, snap);
}

static void test_test_only_no_change(struct mmx_dev *d)
{
	struct scene s;
	struct mmx_snapshot snap;
	struct mmx_req *r;
	drmModeModeInfo m;
	struct mmx_fb *fb;

	scene_setup(d, &s);
	fb = mmx_fb_new(d, 640, 480, DRM_FORMAT_RGB565);
	mmx_snapshot_take(d, &snap);
	/* a valid modeset and plane change, only tested */
	mmx_mode_make(&m, 640, 480, 60);
	r = mmx_req_new(d);
	mmx_req_add(r, s.o->crtc_id, "MODE_ID", mmx_mode_blob(d, &m));
	mmx_req_plane(r, s.o->primary, s.o->crtc_id, fb->id, 0, 0, 640, 480, 0, 0,
		      640, 480);
	mmx_req_plane_off(r, s.o->overlay[0]);
	test_only_changes_nothing(d, r, &snap);
	/* switching off, only tested */
	r = mmx_req_new(d);
	mmx_req_output_off(r, s.o);
	mmx_req_plane_off(r, s.o->primary);
	mmx_req_plane_off(r, s.o->overlay[0]);
	test_only_changes_nothing(d, r, &snap);
	mmx_snapshot_free(&snap);
	scene_check(d, &s, "scene-unchanged");
}

static void test_atomic_bad_ids(struct mmx_dev *d)
{
	struct scene s;
	uint32_t ov, zpos_id;
	size_t i;

	scene_setup(d, &s);
	ov = s.o->overlay[0];
	zpos_id = mmx_prop_id(d, ov, "zpos");
	{
		const struct {
			uint32_t obj, prop_id;
			uint64_t value;
			int err;
			const char *what;
		} bad[] = {
			/* a property of another object */
			{ s.o->crtc_id, zpos_id, 1, ENOENT,
			  "plane property on a CRTC" },
			{ ov, 0x7ffffff0, 1, ENOENT, "no such property" },
			/* an object that does not exist */
			{ 0x7ffffff0, zpos_id, 1, ENOENT, "no such object" },
			/* an FB or CRTC id that does not exist */
			{ ov, mmx_prop_id(d, ov, "FB_ID"), 0x7ffffff0, EINVAL,
			  "no such FB" },
			{ ov, mmx_prop_id(d, ov, "CRTC_ID"), 0x7ffffff0, EINVAL,
			  "no such CRTC" },
		};

		for (i = 0; i < MMX_ARRAY_SIZE(bad); i++)
			reject_prop(d, bad[i].obj, bad[i].prop_id,
				    bad[i].value, 0, bad[i].err, bad[i].what);
	}
	scene_check(d, &s, "scene-unchanged");
}

static void test_atomic_bad_flags(struct mmx_dev *d)
{
	struct scene s;
	uint32_t ov, crtc_x;

	scene_setup(d, &s);
	ov = s.o->overlay[0];
	crtc_x = mmx_prop_id(d, ov, "CRTC_X");
	reject_prop(d, ov, crtc_x, 7, 0x8000, EINVAL, "unknown flag");
	reject_prop(d, ov, crtc_x, 7,
		    DRM_MODE_ATOMIC_TEST_ONLY | DRM_MODE_PAGE_FLIP_EVENT,
		    EINVAL, "TEST_ONLY with an event");
	/* an event on a CRTC that is and stays off */
	if (d->n_outputs >= 2) {
		uint32_t crtc = d->out[1].crtc_id;

		reject_prop(d, crtc, mmx_prop_id(d, crtc, "ACTIVE"), 0,
			    DRM_MODE_PAGE_FLIP_EVENT | DRM_MODE_ATOMIC_NONBLOCK,
			    EINVAL, "event on an inactive CRTC");
	}
	scene_check(d, &s, "scene-unchanged");
}

static const struct mmx_subtest tests[] = {
	{ "addfb-pitch-too-small", "ADDFB2 with pitch below width*cpp (or 0) fails with EINVAL and adds no FB; any pitch from width*cpp on works",
	  test_addfb_pitch_too_small, NULL, NULL },
	{ "addfb-unknown-format", "ADDFB2 with an unknown fourcc fails with EINVAL; a real format no plane takes is refused by ADDFB2 or by every plane",
	  test_addfb_unknown_format, NULL, NULL },
	{ "addfb-bad-handle", "ADDFB2 with a GEM handle that does not exist fails with ENOENT",
	  test_addfb_bad_handle, NULL, NULL },
	{ "addfb-offset", "ADDFB2 accepts any offset that keeps the FB inside the BO and refuses one byte more with EINVAL",
	  test_addfb_offset, NULL, NULL },
	{ "addfb-size-limits", "FBs up to 16384 wide or high are accepted, 16385 and 0 are not (EINVAL)",
	  test_addfb_size_limits, NULL, NULL },
	{ "rmfb-disables-plane", "removing the FB of a visible overlay takes it off the screen and leaves the rest",
	  test_rmfb_disables_plane, NULL, NULL },
	{ "plane-position-any", "any CRTC_X/CRTC_Y (beyond +-16384, INT_MIN, INT_MAX - w) is accepted; TEST_ONLY changes nothing, off-CRTC planes are not shown",
	  test_plane_position_any, NULL, NULL },
	{ "plane-coords-overflow", "CRTC_X+CRTC_W or CRTC_Y+CRTC_H beyond INT_MAX fail with ERANGE and change nothing",
	  test_plane_coords_overflow, NULL, NULL },
	{ "plane-src-outside-fb", "a source rectangle not inside the FB fails with ENOSPC and changes nothing",
	  test_plane_src_outside_fb, NULL, NULL },
	{ "plane-scaling-limits", "scaling within 1/8x..8x is accepted on every plane kind; beyond fails with ERANGE and changes nothing",
	  test_plane_scaling_limits, NULL, NULL },
	{ "plane-wrong-crtc", "a plane on a CRTC outside its possible_crtcs fails with EINVAL and changes nothing",
	  test_plane_wrong_crtc, NULL, NULL },
	{ "plane-fb-without-crtc", "a plane with an FB but no CRTC, or a CRTC but no FB, fails with EINVAL",
	  test_plane_fb_without_crtc, NULL, NULL },
	{ "cursor-formats", "the cursor takes XRGB8888, ABGR8888, RGB565, XRGB2101010 like the other planes",
	  test_cursor_formats, NULL, NULL },
	{ "cursor-large", "cursor FBs over 256 (to 512x512 and 1024x16) are accepted",
	  test_cursor_large, NULL, NULL },
	{ "blend-mode-invalid", "pixel blend mode values outside the enum (7, max+1, ~0) fail with EINVAL on every plane",
	  test_blend_mode_invalid, NULL, NULL },
	{ "zpos-invalid", "overlay zpos outside 1..2 fails with EINVAL, and the immutable primary/cursor zpos cannot be set at all",
	  test_zpos_invalid, NULL, NULL },
	{ "alpha-invalid", "plane alpha above 0xffff fails with EINVAL",
	  test_alpha_invalid, NULL, NULL },
	{ "writeback-wrong-size", "a writeback FB of any size but the mode's fails with EINVAL, returns no fence and changes nothing",
	  test_writeback_wrong_size, NULL, NULL },
	{ "writeback-formats", "writeback takes XRGB8888 and ARGB8888 (opaque alpha), every other format fails with EINVAL",
	  test_writeback_formats, NULL, NULL },
	{ "writeback-no-crtc", "a writeback FB without a CRTC or a writeback connector on a foreign CRTC fail with EINVAL; a fence without an FB yields no fence",
	  test_writeback_no_crtc, NULL, NULL },
	{ "mode-invalid", "MODE_ID blobs with clock 0, bad sync/total order, zero sizes, clock outside 1 MHz..1.2 GHz, size over 8192, refresh over 240 Hz, doublescan, a short or missing blob fail with EINVAL and change nothing; the limits themselves are accepted",
	  test_mode_invalid, NULL, NULL },
	{ "non-master-modeset", "a client that is not master can query but any atomic commit (even TEST_ONLY) fails with EACCES",
	  test_non_master_modeset, NULL, NULL },
	{ "test-only-no-change", "a valid TEST_ONLY modeset or switch-off succeeds and changes nothing",
	  test_test_only_no_change, NULL, NULL },
	{ "atomic-bad-ids", "unknown objects or properties fail with ENOENT, unknown FB or CRTC ids with EINVAL",
	  test_atomic_bad_ids, NULL, NULL },
	{ "atomic-bad-flags", "unknown flags, TEST_ONLY with an event, or an event on an inactive CRTC fail with EINVAL",
	  test_atomic_bad_flags, NULL, NULL },
};

MMX_MAIN("mmx error paths", tests)
