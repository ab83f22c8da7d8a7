// SPDX-License-Identifier: MIT
/*
 * kms_mmx_transform - the CRTC properties TRANSFORM and TRANSFORM_FILTER of
 * mmx_drm.h ("DOC: CRTC transform and panning"): transformed pictures,
 * scanout offsets (panning, which is userspace's) and framebuffer growth
 * without a modeset, and the refused inputs.
 *
 * The oracle is pixman, independent of the driver: the expected picture is
 * the CRTC space (the bounding box of the transformed mode rectangle)
 * composed by mmx_igt's software reference, then transformed by
 * pixman_image_composite32(PIXMAN_OP_SRC) with the same matrix, translated
 * so that the space's top-left corner is pixman's origin, filter
 * NEAREST/BILINEAR and REPEAT_NONE into an a8r8g8b8 image of the mode's
 * size; its RGB (premultiplied, i.e. "over black") is what the writeback
 * connector must capture: pixel-exact for nearest; for bilinear, as the
 * contract says, each channel pixman's value or one below it.
 *
 * Every matrix entry here is a multiple of 2^-15 (and small), so that it is
 * exact in pixman's 16.16 and so is every pixel centre times it: pixman
 * then computes the sample points exactly and nearest has no rounding to
 * disagree about.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pixman.h>

#include "mmx_igt.h"
#include "drm/mmx_drm.h"

/* The mode of the pixel tests: small, the guest CPU is emulated. */
#define MW 160
#define MH 120

/* Matrix entries are written in units of 2^-15: Q is 1.0. */
#define Q 32768LL

#define FILTER_NEAREST	0
#define FILTER_BILINEAR	1
static const char *const filter_names[2] = { "nearest", "bilinear" };

/* A transform and the CRTC space it makes for the mode (computed here). */
struct xf {
	const char *name;
	int64_t q[9];		/* row-major, units of 2^-15 */
	int bx, by, bw, bh;	/* bounding box of the transformed mode */
};

/* ------------------------------------------------------------------------ */
/* Matrices                                                                 */

static int64_t floor_div(int64_t a, int64_t b)
{
	int64_t q = a / b;

	if ((a % b) && ((a < 0) != (b < 0)))
		q--;
	return q;
}

static int64_t ceil_div(int64_t a, int64_t b)
{
	return -floor_div(-a, b);
}

/*
 * The contract's CRTC space: the smallest integer rectangle holding M
 * applied to the corners (0, 0), (w, 0), (0, h), (w, h), computed exactly
 * (entries and corners are integers in units of 2^-15).
 */
static void xf_bbox(struct xf *x, int w, int h)
{
	int64_t x1 = INT64_MAX, y1 = INT64_MAX, x2 = INT64_MIN, y2 = INT64_MIN;
	int i;

	for (i = 0; i < 4; i++) {
		int64_t cu = (i & 1) ? w : 0, cv = (i & 2) ? h : 0;
		int64_t X = x->q[0] * cu + x->q[1] * cv + x->q[2];
		int64_t Y = x->q[3] * cu + x->q[4] * cv + x->q[5];
		int64_t W = x->q[6] * cu + x->q[7] * cv + x->q[8];

		mmx_assert_f(W > 0, "%s: w <= 0 at corner %d", x->name, i);
		if (floor_div(X, W) < x1)
			x1 = floor_div(X, W);
		if (floor_div(Y, W) < y1)
			y1 = floor_div(Y, W);
		if (ceil_div(X, W) > x2)
			x2 = ceil_div(X, W);
		if (ceil_div(Y, W) > y2)
			y2 = ceil_div(Y, W);
	}
	x->bx = (int)x1;
	x->by = (int)y1;
	x->bw = (int)(x2 - x1);
	x->bh = (int)(y2 - y1);
}

static void xf_set(struct xf *x, const char *name, int w, int h,
		   int64_t a, int64_t b, int64_t c, int64_t d, int64_t e,
		   int64_t f, int64_t g, int64_t hh, int64_t i)
{
	const int64_t q[9] = { a, b, c, d, e, f, g, hh, i };

	x->name = name;
	memcpy(x->q, q, sizeof(q));
	xf_bbox(x, w, h);
}

/*
 * The transforms of the pixel tests, for a W x H mode. rot90 is what
 * "xrandr --rotate left" sets: output pixel (u, v) shows screen point
 * (H - v, u), the screen's top edge on the left of the monitor, and the
 * bounding box stays at the origin. rot-10deg uses cos and sin of 10
 * degrees rounded to 2^-15 and a quarter-pixel shift; its box starts at a
 * negative x. keystone has w from 0.84 to 1.23 on the mode. translate is
 * an integer shift (row copies), translate-frac a shift by (-7.5, -12.25)
 * whose space starts at negative x and y; homogeneous is scale-0.75 with
 * every entry doubled (w = 2), the same picture through division; pinch
 * has w = 2^-14 at the corner (0, 0) and about 2.2 at the opposite one.
 */
enum xf_case {
	XF_SCALE_2,
	XF_SCALE_075,
	XF_ROT90,
	XF_ROT180,
	XF_REFLECT_X,
	XF_ROT_10DEG,
	XF_KEYSTONE,
	XF_TRANSLATE,
	XF_TRANSLATE_FRAC,
	XF_HOMOGENEOUS,
	XF_PINCH,
	XF_IDENTITY,
};

static void xf_make(struct xf *x, enum xf_case c, int w, int h)
{
	switch (c) {
	case XF_SCALE_2:
		xf_set(x, "scale-2", w, h, 2 * Q, 0, 0, 0, 2 * Q, 0, 0, 0, Q);
		break;
	case XF_SCALE_075:
		xf_set(x, "scale-0.75", w, h, 3 * Q / 4, 0, 0, 0, 3 * Q / 4, 0,
		       0, 0, Q);
		break;
	case XF_ROT90:
		xf_set(x, "rot90", w, h, 0, -Q, h * Q, Q, 0, 0, 0, 0, Q);
		break;
	case XF_ROT180:
		xf_set(x, "rot180", w, h, -Q, 0, w * Q, 0, -Q, h * Q, 0, 0, Q);
		break;
	case XF_REFLECT_X:
		xf_set(x, "reflect-x", w, h, -Q, 0, w * Q, 0, Q, 0, 0, 0, Q);
		break;
	case XF_ROT_10DEG:
		/* cos 10 = 0.98481 ~ 32270 / 2^15, sin 10 = 0.17365 ~ 5690 / 2^15 */
		xf_set(x, "rot-10deg", w, h, 32270, -5690, Q / 4, 5690, 32270, 0,
		       0, 0, Q);
		break;
	case XF_KEYSTONE:
		xf_set(x, "keystone", w, h, Q, Q / 16, -4 * Q, Q / 32, Q, 2 * Q,
		       -Q / 1024, Q / 512, Q);
		break;
	case XF_TRANSLATE:
		xf_set(x, "translate", w, h, Q, 0, -30 * Q, 0, Q, 17 * Q, 0, 0, Q);
		break;
	case XF_TRANSLATE_FRAC:
		/* space from (-8, -13): negative in both directions */
		xf_set(x, "translate-frac", w, h, Q, 0, -15 * Q / 2, 0, Q,
		       -49 * Q / 4, 0, 0, Q);
		break;
	case XF_HOMOGENEOUS:
		/* scale 0.75 written with w = 2: the projective path */
		xf_set(x, "homogeneous", w, h, 3 * Q / 2, 0, 0, 0, 3 * Q / 2, 0,
		       0, 0, 2 * Q);
		break;
	case XF_PINCH:
		/* w = (u + v) / 128 + 2^-14: the line at infinity just off (0, 0) */
		xf_set(x, "pinch", w, h, Q, 0, 0, 0, Q, 0, Q / 128, Q / 128, 2);
		break;
	case XF_IDENTITY:
	default:
		xf_set(x, "identity", w, h, Q, 0, 0, 0, Q, 0, 0, 0, Q);
		break;
	}
}

/* A TRANSFORM blob: S31.32 two's complement, 1.0 = 1 << 32. */
static uint32_t xf_blob(struct mmx_dev *d, const int64_t q[9])
{
	struct drm_mmx_transform t;
	uint32_t id = 0;
	int i;

	for (i = 0; i < 9; i++)
		t.matrix[i] = q[i] * (1LL << 17);
	mmx_do(mmx_blob_create(d, &t, sizeof(t), &id));
	return id;
}

/* ------------------------------------------------------------------------ */
/* Reference                                                                */

/*
 * Expected MW x MH output of a CRTC with transform X and FILTER whose CRTC
 * space shows PLANES (CRTC-space positions, bottom to top, opaque): the
 * space composed by mmx_ref_compose(), then transformed by pixman with
 * translate(-bx, -by) * M, so that pixman's source is the space itself.
 */
static struct mmx_frame *xf_expect(const struct xf *x, int filter, int mw,
				   int mh, const struct mmx_ref_plane *planes,
				   int n)
{
	struct mmx_frame *space = mmx_frame_new(x->bw, x->bh);
	struct mmx_frame *f = mmx_frame_new(mw, mh);
	struct mmx_ref_plane p[8];
	pixman_image_t *src, *dst;
	pixman_transform_t t;
	const uint32_t *out;
	int i, r, c, stride;

	mmx_assert(n <= 8);
	for (i = 0; i < n; i++) {
		p[i] = planes[i];
		p[i].crtc_x -= x->bx;
		p[i].crtc_y -= x->by;
	}
	mmx_ref_compose(space, p, n);
	for (i = 0; i < x->bw * x->bh; i++)
		mmx_assert_f(!space->tol[i], "reference space is not exact");

	for (r = 0; r < 3; r++) {
		for (c = 0; c < 3; c++) {
			int64_t v = x->q[3 * r + c];

			if (r == 0)
				v -= (int64_t)x->bx * x->q[6 + c];
			else if (r == 1)
				v -= (int64_t)x->by * x->q[6 + c];
			v *= 2;		/* 2^-15 units -> 16.16 */
			mmx_assert_f(v >= INT32_MIN && v <= INT32_MAX,
				     "%s: entry %d,%d beyond 16.16", x->name, r,
				     c);
			t.matrix[r][c] = (pixman_fixed_t)v;
		}
	}

	src = pixman_image_create_bits(PIXMAN_x8r8g8b8, x->bw, x->bh,
				       space->px, x->bw * 4);
	dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, mw, mh, NULL, 0);
	mmx_assert(src && dst);
	mmx_assert(pixman_image_set_transform(src, &t));
	mmx_assert(pixman_image_set_filter(src, filter == FILTER_BILINEAR ?
					   PIXMAN_FILTER_BILINEAR :
					   PIXMAN_FILTER_NEAREST, NULL, 0));
	pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE);
	pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst, 0, 0, 0, 0, 0,
				 0, mw, mh);

	out = pixman_image_get_data(dst);
	stride = pixman_image_get_stride(dst) / 4;
	for (r = 0; r < mh; r++) {
		for (c = 0; c < mw; c++) {
			f->px[(size_t)r * mw + c] =
				out[(size_t)r * stride + c] & 0xffffff;
			f->tol[(size_t)r * mw + c] =
				filter == FILTER_BILINEAR ? 1 : 0;
		}
	}
	pixman_image_unref(src);
	pixman_image_unref(dst);
	mmx_frame_free(space);
	return f;
}

/*
 * Compare a capture with pixman's picture F: nearest exactly; bilinear, as
 * documented, each channel pixman's value or one below it. On a mismatch
 * mmx_frame_check() (exact) prints and dumps ($MMX_IGT_DUMP) the pictures.
 */
static bool frame_check_xf(const struct mmx_fb *got, struct mmx_frame *f,
			   int filter, const char *what)
{
	long bad = 0;
	int x, y, s;

	if (filter == FILTER_NEAREST)
		return mmx_frame_check(got, f, what);
	if ((int)got->width != f->w || (int)got->height != f->h)
		return mmx_frame_check(got, f, what);
	for (y = 0; y < f->h; y++) {
		for (x = 0; x < f->w; x++) {
			uint32_t g = mmx_fb_get_raw(got, x, y);
			uint32_t e = f->px[(size_t)y * f->w + x];

			for (s = 0; s < 24; s += 8) {
				int dg = (int)((g >> s) & 0xff);
				int de = (int)((e >> s) & 0xff);

				if (dg > de || dg < de - 1) {
					if (bad < 8)
						fprintf(stderr, "  %s: pixel (%d,%d) got %06x, pixman %06x: not pixman's or one below\n",
							what, x, y, g & 0xffffff, e);
					bad++;
					break;
				}
			}
		}
	}
	if (!bad)
		return true;
	fprintf(stderr, "  %s: %ld pixels beyond the bilinear bound\n", what,
		bad);
	memset(f->tol, 0, (size_t)f->w * f->h);
	mmx_frame_check(got, f, what);
	return false;
}

/* Capture output O (in MODE) and compare with the reference. */
static void xf_check(struct mmx_dev *d, struct mmx_output *o,
		     const drmModeModeInfo *mode, const struct xf *x,
		     int filter, const struct mmx_ref_plane *planes, int n,
		     const char *what)
{
	struct mmx_fb *wb = mmx_wb_fb(d, mode, DRM_FORMAT_XRGB8888);
	struct mmx_frame *f;
	int ret;

	ret = mmx_wb_capture(d, o, wb);
	mmx_assert_f(ret == 0, "%s: writeback capture: %s", what,
		     strerror(-ret));
	f = xf_expect(x, filter, mode->hdisplay, mode->vdisplay, planes, n);
	if (!frame_check_xf(wb, f, filter, what)) {
		mmx_frame_free(f);
		mmx_fail("%s: captured frame differs from pixman's %s %s",
			 what, x->name, filter_names[filter]);
	}
	mmx_frame_free(f);
	mmx_fb_free(wb);
}

/* ------------------------------------------------------------------------ */
/* Set-up helpers                                                           */

static char saved_path[64];

/* TRANSFORM = 0, TRANSFORM_FILTER = nearest on every CRTC: mmx_reset()
 * does not know these properties. */
static void xf_clear(struct mmx_dev *d)
{
	struct mmx_req *r = mmx_req_new(d);
	int i, ret;

	snprintf(saved_path, sizeof(saved_path), "%s", d->path);
	for (i = 0; i < d->n_crtcs; i++) {
		mmx_req_add(r, d->crtcs[i], "TRANSFORM", 0);
		mmx_req_add(r, d->crtcs[i], "TRANSFORM_FILTER",
			    MMX_TRANSFORM_FILTER_NEAREST);
	}
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
	mmx_assert_f(ret == 0, "clearing TRANSFORM: %s",
		     strerror(-ret));
}

static const drmModeModeInfo *small_mode(void)
{
	static drmModeModeInfo m;

	if (!m.clock)
		mmx_mode_make(&m, MW, MH, 60);
	return &m;
}

/* Light O in the small mode without planes (ALLOW_MODESET). */
static void light(struct mmx_dev *d, struct mmx_output *o)
{
	mmx_do(mmx_output_set(d, o, small_mode(), NULL, 0, 0));
}

/* Add a plane showing REF (whole pixels) on O's CRTC. */
static void req_ref_plane(struct mmx_req *r, uint32_t plane,
			  struct mmx_output *o, const struct mmx_ref_plane *p)
{
	mmx_req_plane(r, plane, o->crtc_id, p->fb->id, p->src_x, p->src_y,
		      p->w, p->h, p->crtc_x, p->crtc_y, p->w, p->h);
}

/* Add TRANSFORM (X, or none when NULL) and TRANSFORM_FILTER for O. */
static void req_transform(struct mmx_dev *d, struct mmx_req *r,
			  struct mmx_output *o, const struct xf *x,
			  int filter)
{
	mmx_req_add(r, o->crtc_id, "TRANSFORM", x ? xf_blob(d, x->q) : 0);
	mmx_req_add(r, o->crtc_id, "TRANSFORM_FILTER",
		    mmx_prop_enum(d, o->crtc_id, "TRANSFORM_FILTER",
				  filter_names[filter]));
}

static struct mmx_fb *random_fb(struct mmx_dev *d, int w, int h,
				uint32_t seed)
{
	return mmx_fb_new_random(d, (uint32_t)w, (uint32_t)h,
				 DRM_FORMAT_XRGB8888, seed, MMX_ALPHA_ANY);
}

/* ------------------------------------------------------------------------ */
/* props                                                                    */

static void check_blob_prop(struct mmx_dev *d, uint32_t crtc,
			    const char *name)
{
	drmModePropertyRes *info = NULL;
	uint64_t v = 1;

	mmx_assert_f(mmx_prop_lookup(d->fd, crtc, name, NULL, &v, &info),
		     "CRTC %u has no %s property", crtc, name);
	mmx_assert_f(drm_property_type_is(info, DRM_MODE_PROP_BLOB),
		     "%s is not a blob property (flags 0x%x)", name,
		     info->flags);
	mmx_assert_f(!(info->flags & DRM_MODE_PROP_IMMUTABLE),
		     "%s is immutable", name);
	mmx_assert_f(v == 0, "CRTC %u %s defaults to %llu, expected 0", crtc,
		     name, (unsigned long long)v);
	drmModeFreeProperty(info);
}

static void test_props(struct mmx_dev *d)
{
	int i, k;

	mmx_require(d->n_crtcs > 0);
	/* before xf_clear(): the values a fresh device shows */
	for (i = 0; i < d->n_crtcs; i++) {
		uint32_t crtc = d->crtcs[i];
		drmModePropertyRes *info = NULL;
		uint64_t v = 1;
		bool seen[2] = { false, false };

		check_blob_prop(d, crtc, "TRANSFORM");
		/* panning is userspace's: no property for it */
		mmx_assert_f(!mmx_prop_lookup(d->fd, crtc, "PANNING", NULL,
					      NULL, NULL),
			     "CRTC %u has a PANNING property", crtc);

		mmx_assert_f(mmx_prop_lookup(d->fd, crtc, "TRANSFORM_FILTER",
					     NULL, &v, &info),
			     "CRTC %u has no TRANSFORM_FILTER", crtc);
		mmx_assert_f(drm_property_type_is(info, DRM_MODE_PROP_ENUM),
			     "TRANSFORM_FILTER is not an enum (flags 0x%x)",
			     info->flags);
		mmx_assert_eq(info->count_enums, 2);
		for (k = 0; k < info->count_enums; k++) {
			const struct drm_mode_property_enum *e = &info->enums[k];

			if (!strcmp(e->name, "nearest")) {
				mmx_assert_eq(e->value, MMX_TRANSFORM_FILTER_NEAREST);
				seen[0] = true;
			} else if (!strcmp(e->name, "bilinear")) {
				mmx_assert_eq(e->value, MMX_TRANSFORM_FILTER_BILINEAR);
				seen[1] = true;
			} else {
				mmx_fail("unexpected TRANSFORM_FILTER value \"%s\"",
					 e->name);
			}
		}
		mmx_assert(seen[0] && seen[1]);
		mmx_assert_f(v == MMX_TRANSFORM_FILTER_NEAREST,
			     "CRTC %u TRANSFORM_FILTER defaults to %llu", crtc,
			     (unsigned long long)v);
		drmModeFreeProperty(info);
	}
	/* none of them on planes or connectors */
	for (i = 0; i < d->n_planes; i++)
		mmx_assert(!mmx_prop_lookup(d->fd, d->planes[i], "TRANSFORM",
					    NULL, NULL, NULL));
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* identity-blob                                                            */

static uint32_t crc_stable(struct mmx_dev *d, int index, int n)
{
	uint32_t crcs[8];
	int i;

	mmx_assert(n <= 8);
	mmx_crc_collect(d, index, n, crcs, NULL);
	for (i = 1; i < n; i++)
		mmx_assert_f(crcs[i] == crcs[0],
			     "CRC of a static frame changed: 0x%08x -> 0x%08x",
			     crcs[0], crcs[i]);
	return crcs[0];
}

static bool frames_equal(const struct mmx_fb *a, const struct mmx_fb *b)
{
	uint32_t y;

	if (a->width != b->width || a->height != b->height)
		return false;
	for (y = 0; y < a->height; y++)
		if (memcmp(mmx_fb_ptr(a, 0, y), mmx_fb_ptr(b, 0, y),
			   (size_t)a->width * 4))
			return false;
	return true;
}

static void test_identity_blob(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *wb0 = mmx_wb_fb(d, small_mode(), 0);
	struct mmx_fb *wb1 = mmx_wb_fb(d, small_mode(), 0);
	struct mmx_ref_plane p[2];
	struct xf id;
	struct mmx_req *r;
	uint32_t crc0, crc1, blob;
	int filter;

	xf_clear(d);
	xf_make(&id, XF_IDENTITY, MW, MH);
	light(d, o);
	p[0] = mmx_ref_fb(random_fb(d, MW, MH, 11), 0, 0);
	p[1] = mmx_ref_fb(random_fb(d, 50, 40, 12), 30, 20);
	r = mmx_req_new(d);
	req_ref_plane(r, o->primary, o, &p[0]);
	req_ref_plane(r, o->overlay[0], o, &p[1]);
	mmx_do(mmx_req_commit(r, 0));

	mmx_do(mmx_wb_capture(d, o, wb0));
	crc0 = crc_stable(d, o->index, 3);
	xf_check(d, o, small_mode(), &id, FILTER_NEAREST, p, 2, "no-blob");

	/* the filter alone changes nothing without a transform */
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM_FILTER",
		    MMX_TRANSFORM_FILTER_BILINEAR);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq_u64(crc_stable(d, o->index, 3), crc0);

	for (filter = 0; filter < 2; filter++) {
		r = mmx_req_new(d);
		blob = xf_blob(d, id.q);
		mmx_req_add(r, o->crtc_id, "TRANSFORM", blob);
		mmx_req_add(r, o->crtc_id, "TRANSFORM_FILTER", (uint64_t)filter);
		mmx_do(mmx_req_commit(r, 0));
		mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "TRANSFORM"), blob);

		mmx_do(mmx_wb_capture(d, o, wb1));
		mmx_assert_f(frames_equal(wb0, wb1),
			     "identity blob (%s) changes the picture",
			     filter_names[filter]);
		crc1 = crc_stable(d, o->index, 3);
		mmx_assert_f(crc1 == crc0,
			     "identity blob (%s): CRC 0x%08x, without 0x%08x",
			     filter_names[filter], crc1, crc0);
	}
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* transform-FILTER-CASE                                                    */

struct xf_test {
	enum xf_case c;
	int filter;
};

static void test_transform(struct mmx_dev *d, const void *arg)
{
	const struct xf_test *xt = arg;
	struct mmx_output *o = mmx_output0(d);
	struct mmx_ref_plane p;
	struct mmx_req *r;
	struct xf x;
	char what[64];

	xf_clear(d);
	xf_make(&x, xt->c, MW, MH);
	mmx_info("%s on %dx%d: CRTC space %d,%d %dx%d\n", x.name, MW, MH,
		 x.bx, x.by, x.bw, x.bh);
	light(d, o);

	/* the primary plane exactly on the box the contract defines */
	p = mmx_ref_fb(random_fb(d, x.bw, x.bh, 100 + xt->c), x.bx, x.by);
	r = mmx_req_new(d);
	req_transform(d, r, o, &x, xt->filter);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "TRANSFORM_FILTER"),
		      xt->filter);
	snprintf(what, sizeof(what), "%s-%s", x.name, filter_names[xt->filter]);
	xf_check(d, o, small_mode(), &x, xt->filter, &p, 1, what);

	/*
	 * A bigger plane, 8 pixels beyond the box on every side: clipped to
	 * the CRTC space, so bilinear samples next to the box's edges read
	 * black, not the plane (this also pins the box down).
	 */
	p = mmx_ref_fb(random_fb(d, x.bw + 16, x.bh + 16, 200 + xt->c),
		       x.bx - 8, x.by - 8);
	r = mmx_req_new(d);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));
	snprintf(what, sizeof(what), "%s-%s-clipped", x.name,
		 filter_names[xt->filter]);
	xf_check(d, o, small_mode(), &x, xt->filter, &p, 1, what);
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* crc-follows-transform                                                    */

static void test_crc_follows_transform(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *fb = random_fb(d, MW, MH, 21);
	struct mmx_fb *rot = mmx_fb_new(d, MW, MH, DRM_FORMAT_XRGB8888);
	struct mmx_ref_plane p = mmx_ref_fb(fb, 0, 0);
	struct mmx_ref_plane prot = mmx_ref_fb(rot, 0, 0);
	uint32_t crc_id, crc_rot, crc_rot_bl, crc_sw, crc_back;
	struct mmx_req *r;
	struct xf x;
	int u, v;

	xf_clear(d);
	xf_make(&x, XF_ROT180, MW, MH);
	/* the same picture rotated by software */
	for (v = 0; v < MH; v++)
		for (u = 0; u < MW; u++)
			mmx_fb_put_raw(rot, u, v,
				       mmx_fb_get_raw(fb, MW - 1 - u, MH - 1 - v));

	mmx_do(mmx_output_set(d, o, small_mode(), fb, 0, 0));
	crc_id = crc_stable(d, o->index, 4);

	r = mmx_req_new(d);
	req_transform(d, r, o, &x, FILTER_NEAREST);
	mmx_do(mmx_req_commit(r, 0));
	crc_rot = crc_stable(d, o->index, 6);
	mmx_assert_f(crc_rot != crc_id,
		     "CRC 0x%08x does not change with rot180", crc_rot);

	/* pixel centres map to pixel centres: bilinear is the same shuffle */
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM_FILTER",
		    MMX_TRANSFORM_FILTER_BILINEAR);
	mmx_do(mmx_req_commit(r, 0));
	crc_rot_bl = crc_stable(d, o->index, 3);
	mmx_assert_eq_u64(crc_rot_bl, crc_rot);

	/* the CRC is the one of the rotated picture, not just "different" */
	r = mmx_req_new(d);
	req_transform(d, r, o, NULL, FILTER_NEAREST);
	req_ref_plane(r, o->primary, o, &prot);
	mmx_do(mmx_req_commit(r, 0));
	crc_sw = crc_stable(d, o->index, 3);
	mmx_assert_f(crc_sw == crc_rot,
		     "rot180 CRC 0x%08x, software-rotated picture 0x%08x",
		     crc_rot, crc_sw);

	/* back to the identity */
	r = mmx_req_new(d);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));
	crc_back = crc_stable(d, o->index, 3);
	mmx_assert_eq_u64(crc_back, crc_id);

	/* and rot180 once more, the other way round: blob first, then off */
	r = mmx_req_new(d);
	req_transform(d, r, o, &x, FILTER_NEAREST);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq_u64(crc_stable(d, o->index, 3), crc_rot);
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM", 0);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq_u64(crc_stable(d, o->index, 3), crc_id);
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* overlay-and-cursor-transformed                                           */

static struct mmx_fb *cursor_fb(struct mmx_dev *d, int size, uint32_t seed)
{
	struct mmx_fb *c = mmx_fb_new(d, (uint32_t)size, (uint32_t)size,
				      DRM_FORMAT_ARGB8888);

	mmx_fb_random(c, seed, MMX_ALPHA_BINARY_PREMULT);
	return c;
}

static void test_overlay_and_cursor(struct mmx_dev *d)
{
	static const struct { enum xf_case c; int filter; } cases[] = {
		{ XF_ROT_10DEG, FILTER_NEAREST },
		{ XF_KEYSTONE, FILTER_BILINEAR },
		{ XF_ROT90, FILTER_NEAREST },
		{ XF_SCALE_2, FILTER_BILINEAR },
	};
	struct mmx_output *o = mmx_output0(d);
	size_t i;

	xf_clear(d);
	light(d, o);
	for (i = 0; i < MMX_ARRAY_SIZE(cases); i++) {
		struct mmx_ref_plane p[4];
		struct mmx_fb *ov565;
		struct mmx_req *r;
		struct xf x;
		char what[80];

		xf_make(&x, cases[i].c, MW, MH);
		p[0] = mmx_ref_fb(random_fb(d, x.bw, x.bh, 30 + (uint32_t)i),
				  x.bx, x.by);
		p[1] = mmx_ref_fb(random_fb(d, 48, 40, 40 + (uint32_t)i),
				  x.bx + 20, x.by + 30);
		/* the second overlay in RGB565: converted before the transform */
		ov565 = mmx_fb_new(d, 30, 50, DRM_FORMAT_RGB565);
		mmx_fb_random(ov565, 50 + (uint32_t)i, MMX_ALPHA_ANY);
		p[2] = mmx_ref_fb(ov565, x.bx + x.bw / 2, x.by + x.bh / 3);
		/* the cursor partly beyond the right edge of the space */
		p[3] = mmx_ref_fb(cursor_fb(d, 32, 60 + (uint32_t)i),
				  x.bx + x.bw - 20, x.by + 10);

		r = mmx_req_new(d);
		req_transform(d, r, o, &x, cases[i].filter);
		req_ref_plane(r, o->primary, o, &p[0]);
		req_ref_plane(r, o->overlay[0], o, &p[1]);
		req_ref_plane(r, o->overlay[1], o, &p[2]);
		req_ref_plane(r, o->cursor, o, &p[3]);
		mmx_do(mmx_req_commit(r, 0));
		snprintf(what, sizeof(what), "%s-%s-planes", x.name,
			 filter_names[cases[i].filter]);
		xf_check(d, o, small_mode(), &x, cases[i].filter, p, 4, what);

		/* a cursor move alone: the pointer is transformed too */
		p[3].crtc_x = x.bx + 5;
		p[3].crtc_y = x.by + x.bh - 16;
		r = mmx_req_new(d);
		mmx_req_add(r, o->cursor, "CRTC_X", (uint64_t)(int64_t)p[3].crtc_x);
		mmx_req_add(r, o->cursor, "CRTC_Y", (uint64_t)(int64_t)p[3].crtc_y);
		mmx_do(mmx_req_commit(r, 0));
		snprintf(what, sizeof(what), "%s-%s-cursor-moved", x.name,
			 filter_names[cases[i].filter]);
		xf_check(d, o, small_mode(), &x, cases[i].filter, p, 4, what);

		/* without the primary, what the planes leave uncovered is black */
		r = mmx_req_new(d);
		mmx_req_plane_off(r, o->primary);
		mmx_do(mmx_req_commit(r, 0));
		snprintf(what, sizeof(what), "%s-%s-no-primary", x.name,
			 filter_names[cases[i].filter]);
		xf_check(d, o, small_mode(), &x, cases[i].filter, p + 1, 3, what);
	}
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* pan-no-modeset                                                           */

static void pan_to(struct mmx_dev *d, struct mmx_output *o,
		   struct mmx_ref_plane *p, int sx, int sy, bool nonblock)
{
	struct mmx_req *r = mmx_req_new(d);
	struct mmx_event ev;
	int ret;

	p->src_x = sx;
	p->src_y = sy;
	mmx_req_add(r, o->primary, "SRC_X", (uint64_t)sx << 16);
	mmx_req_add(r, o->primary, "SRC_Y", (uint64_t)sy << 16);
	if (!nonblock) {
		ret = mmx_req_commit(r, 0);
		mmx_assert_f(ret == 0, "pan to %d,%d without ALLOW_MODESET: %s",
			     sx, sy, strerror(-ret));
		return;
	}
	mmx_req_set_user_data(r, 0x5a5a);
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT);
	mmx_assert_f(ret == 0, "non-blocking pan to %d,%d: %s", sx, sy,
		     strerror(-ret));
	ret = mmx_event_wait(d->fd, 2000, &ev);
	mmx_assert_f(ret == 0, "flip event of the pan: %s", strerror(-ret));
	mmx_assert_eq(ev.type, DRM_EVENT_FLIP_COMPLETE);
	mmx_assert_eq(ev.crtc_id, o->crtc_id);
	mmx_assert_eq_u64(ev.user_data, 0x5a5a);
}

static void test_pan_no_modeset(struct mmx_dev *d)
{
	static const int offsets[][2] = {
		{ 10, 20 }, { 37, 51 }, { 0, 0 }, { -1, -1 }, { 123, 7 },
	};
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *fb;
	struct mmx_ref_plane p;
	struct mmx_req *r;
	struct xf x;
	char what[80];
	int filter;
	size_t i;

	xf_clear(d);
	xf_make(&x, XF_ROT_10DEG, MW, MH);
	fb = random_fb(d, 400, 300, 70);
	light(d, o);

	p = mmx_ref_fb(fb, x.bx, x.by);
	p.w = x.bw;
	p.h = x.bh;
	p.src_x = 10;
	p.src_y = 20;
	r = mmx_req_new(d);
	req_transform(d, r, o, &x, FILTER_NEAREST);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));

	for (filter = 0; filter < 2; filter++) {
		if (filter) {
			r = mmx_req_new(d);
			mmx_req_add(r, o->crtc_id, "TRANSFORM_FILTER",
				    MMX_TRANSFORM_FILTER_BILINEAR);
			mmx_do(mmx_req_commit(r, 0));
		}
		for (i = 0; i < MMX_ARRAY_SIZE(offsets); i++) {
			int sx = offsets[i][0], sy = offsets[i][1];

			if (sx < 0) {	/* the far corner of the FB */
				sx = (int)fb->width - x.bw;
				sy = (int)fb->height - x.bh;
			}
			pan_to(d, o, &p, sx, sy, i % 2 == 1);
			snprintf(what, sizeof(what), "%s-pan-%d-%d",
				 filter_names[filter], sx, sy);
			xf_check(d, o, small_mode(), &x, filter, &p, 1, what);
		}
	}

	/*
	 * The scanout offset is SRC_X/Y minus CRTC_X/Y: the whole FB as the
	 * plane, moved in CRTC space by CRTC_X/Y alone, pans as well.
	 */
	p = mmx_ref_fb(fb, x.bx - 10, x.by - 20);
	r = mmx_req_new(d);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));
	xf_check(d, o, small_mode(), &x, FILTER_BILINEAR, &p, 1,
		 "whole-fb-at-10-20");
	for (i = 0; i < 2; i++) {
		p.crtc_x = x.bx - (i ? 200 : 33);
		p.crtc_y = x.by - (i ? 140 : 71);
		r = mmx_req_new(d);
		mmx_req_add(r, o->primary, "CRTC_X", (uint64_t)(int64_t)p.crtc_x);
		mmx_req_add(r, o->primary, "CRTC_Y", (uint64_t)(int64_t)p.crtc_y);
		mmx_do(mmx_req_commit(r, 0));
		snprintf(what, sizeof(what), "whole-fb-at-%d-%d", x.bx - p.crtc_x,
			 x.by - p.crtc_y);
		xf_check(d, o, small_mode(), &x, FILTER_BILINEAR, &p, 1, what);
	}
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* transform-mode-change, large-space                                       */

/*
 * The CRTC space is the box of the transformed *current* mode: a modeset
 * with the same TRANSFORM blob moves and resizes it.
 */
static void test_mode_change(struct mmx_dev *d)
{
	static const enum xf_case cases[] = { XF_ROT90, XF_ROT_10DEG,
					      XF_KEYSTONE };
	struct mmx_output *o = mmx_output0(d);
	drmModeModeInfo big;
	size_t i;

	xf_clear(d);
	mmx_mode_make(&big, 2 * MW, 2 * MH, 60);
	for (i = 0; i < MMX_ARRAY_SIZE(cases); i++) {
		struct mmx_ref_plane p;
		struct mmx_req *r;
		struct xf x, xb;
		char what[80];

		/* the matrix made for the small mode, used for both */
		xf_make(&x, cases[i], MW, MH);
		xb = x;
		xf_bbox(&xb, 2 * MW, 2 * MH);
		mmx_info("%s: space %d,%d %dx%d on %dx%d, %d,%d %dx%d on %dx%d\n",
			 x.name, x.bx, x.by, x.bw, x.bh, MW, MH, xb.bx, xb.by,
			 xb.bw, xb.bh, 2 * MW, 2 * MH);

		light(d, o);
		p = mmx_ref_fb(random_fb(d, x.bw, x.bh, 110 + (uint32_t)i),
			       x.bx, x.by);
		r = mmx_req_new(d);
		req_transform(d, r, o, &x, FILTER_NEAREST);
		req_ref_plane(r, o->primary, o, &p);
		mmx_do(mmx_req_commit(r, 0));
		snprintf(what, sizeof(what), "%s-%dx%d", x.name, MW, MH);
		xf_check(d, o, small_mode(), &x, FILTER_NEAREST, &p, 1, what);

		/* modeset to twice the size, TRANSFORM untouched */
		p = mmx_ref_fb(random_fb(d, xb.bw, xb.bh, 120 + (uint32_t)i),
			       xb.bx, xb.by);
		r = mmx_req_new(d);
		mmx_req_output_on(r, o, &big);
		req_ref_plane(r, o->primary, o, &p);
		mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
		snprintf(what, sizeof(what), "%s-%dx%d", x.name, 2 * MW, 2 * MH);
		xf_check(d, o, &big, &xb, FILTER_NEAREST, &p, 1, what);
	}
	xf_clear(d);
}

/* A CRTC space of 1280x960 (scale 8): the composer's space grows. */
static void test_large_space(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_ref_plane p[2];
	struct mmx_req *r;
	struct xf x;
	int filter;

	xf_clear(d);
	xf_set(&x, "scale-8", MW, MH, 8 * Q, 0, 0, 0, 8 * Q, 0, 0, 0, Q);
	light(d, o);
	p[0] = mmx_ref_fb(random_fb(d, x.bw, x.bh, 130), 0, 0);
	/* a cursor in the bottom-right corner of the big space */
	p[1] = mmx_ref_fb(cursor_fb(d, 64, 131), x.bw - 64, x.bh - 64);
	for (filter = 0; filter < 2; filter++) {
		r = mmx_req_new(d);
		req_transform(d, r, o, &x, filter);
		req_ref_plane(r, o->primary, o, &p[0]);
		req_ref_plane(r, o->cursor, o, &p[1]);
		mmx_do(mmx_req_commit(r, 0));
		xf_check(d, o, small_mode(), &x, filter, p, 2,
			 filter ? "scale-8-bilinear" : "scale-8-nearest");
	}
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* close-abandons-frame                                                     */

/* The number after "KEY: " in crtc-INDEX/mmx_compose, or -1. */
static long long compose_stat(struct mmx_dev *d, int index, const char *key)
{
	return mmx_crtc_stat(d, index, "mmx_compose", key);
}

/*
 * Closing the CRC source of a CRTC whose frames take longer to compose
 * than a frame lasts (1920x1080, bilinear upscale: in a TCG guest the
 * composer never rests) stops the composition in progress at its next band
 * instead of waiting for the whole frame: crtc-N/mmx_compose counts it as
 * abandoned. A composer that held a lock (or ignored the close) for the
 * frame would never abandon one. The close comes a third of the last
 * composition's time after a CRC entry, inside the next composition; up
 * to five are tried.
 * Where frames compose faster than two frame periods (no TCG), the
 * composer rests between frames and a miss is skipped, not failed. The
 * time close() took is printed, not judged.
 */
static void test_close_abandons_frame(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	long long before, after = -1, frames, last_us = 0;
	struct mmx_ref_plane p;
	drmModeModeInfo mode;
	struct mmx_req *r;
	struct mmx_crc c;
	uint32_t frame, crc;
	int64_t t0;
	struct xf x;
	int i;

	xf_clear(d);
	mmx_mode_make(&mode, 1920, 1080, 60);
	xf_set(&x, "scale-0.75", 1920, 1080, 3 * Q / 4, 0, 0, 0, 3 * Q / 4, 0,
	       0, 0, Q);
	mmx_do(mmx_output_set(d, o, &mode, NULL, 0, 0));
	p = mmx_ref_fb(random_fb(d, x.bw, x.bh, 150), 0, 0);
	r = mmx_req_new(d);
	req_transform(d, r, o, &x, FILTER_BILINEAR);
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));

	before = compose_stat(d, o->index, "abandoned");
	mmx_assert_f(before >= 0, "crtc-%d/mmx_compose has no abandoned count",
		     o->index);
	for (i = 0; i < 5; i++) {
		mmx_do(mmx_crc_start(d, o->index, &c));
		/* a frame was composed: the next one is under way */
		mmx_do(mmx_crc_next(&c, &frame, &crc));
		last_us = compose_stat(d, o->index, "last_us");
		mmx_sleep_ms((int)(last_us / 3000));
		t0 = mmx_now_ns();
		mmx_crc_stop(&c);
		mmx_info("close() of the CRC source took %.1f ms",
			 (double)(mmx_now_ns() - t0) / 1e6);
		after = compose_stat(d, o->index, "abandoned");
		if (after > before)
			break;
	}
	frames = compose_stat(d, o->index, "frames");
	mmx_info("%lld frames composed, the last in %lld us, %lld abandoned",
		 frames, last_us, after);
	if (after <= before && last_us < 2 * 16667) {
		xf_clear(d);
		light(d, o);
		mmx_skip("frames compose in %lld us: the composer rests between them",
			 last_us);
	}
	mmx_assert_f(after > before,
		     "closing the CRC source never stopped a composition (%d tries)",
		     i);
	xf_clear(d);
	light(d, o);
}

/* ------------------------------------------------------------------------ */
/* screen-growth                                                            */

static void check_plain(struct mmx_dev *d, struct mmx_output *o,
			const struct mmx_ref_plane *p, const char *what)
{
	struct xf id;

	xf_make(&id, XF_IDENTITY, MW, MH);
	xf_check(d, o, small_mode(), &id, FILTER_NEAREST, p, 1, what);
}

/* The left and right MW x MH halves of the 2MW x MH SCREEN. */
static void side_by_side(const struct mmx_fb *screen,
			 struct mmx_ref_plane *left,
			 struct mmx_ref_plane *right)
{
	*left = mmx_ref_fb(screen, 0, 0);
	left->w = MW;
	left->h = MH;
	*right = *left;
	right->src_x = MW;
}

static void test_screen_growth(struct mmx_dev *d)
{
	struct mmx_output *o0, *o1;
	struct mmx_fb *small, *big;
	struct mmx_ref_plane p0, p1;
	struct mmx_req *r;
	struct mmx_event ev;
	struct xf x180;
	bool seen0 = false, seen1 = false;
	int i, ret;

	xf_clear(d);
	mmx_require_f(d->n_outputs >= 2, "needs two outputs, have %d",
		      d->n_outputs);
	o0 = &d->out[0];
	o1 = &d->out[1];
	mmx_assert(o0->wb_conn_id && o1->wb_conn_id);

	/* two 160x120 outputs side by side on a 320x120 screen */
	small = random_fb(d, 2 * MW, MH, 80);
	side_by_side(small, &p0, &p1);
	r = mmx_req_new(d);
	mmx_req_output_on(r, o0, small_mode());
	mmx_req_output_on(r, o1, small_mode());
	req_ref_plane(r, o0->primary, o0, &p0);
	req_ref_plane(r, o1->primary, o1, &p1);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	check_plain(d, o0, &p0, "left-on-320x120");
	check_plain(d, o1, &p1, "right-on-320x120");

	/*
	 * Grow the screen to 480x240: another size, a pitch with 256 bytes of
	 * padding and the pixels at an offset in the buffer; both CRTCs in
	 * one commit without ALLOW_MODESET, each showing another area.
	 */
	big = mmx_fb_new_ex(d, 3 * MW, 2 * MH, DRM_FORMAT_XRGB8888,
			    3 * MW * 4 + 256, 8192);
	mmx_fb_random(big, 81, MMX_ALPHA_ANY);
	p0.fb = big;
	p0.src_x = 100;
	p0.src_y = 60;
	p1.fb = big;
	p1.src_x = 2 * MW;
	p1.src_y = MH;
	r = mmx_req_new(d);
	req_ref_plane(r, o0->primary, o0, &p0);
	req_ref_plane(r, o1->primary, o1, &p1);
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_NONBLOCK |
				DRM_MODE_PAGE_FLIP_EVENT);
	mmx_assert_f(ret == 0, "switching both CRTCs to the 480x240 FB: %s",
		     strerror(-ret));
	for (i = 0; i < 2; i++) {
		ret = mmx_event_wait(d->fd, 2000, &ev);
		mmx_assert_f(ret == 0, "flip event %d: %s", i, strerror(-ret));
		mmx_assert_eq(ev.type, DRM_EVENT_FLIP_COMPLETE);
		if (ev.crtc_id == o0->crtc_id)
			seen0 = true;
		else if (ev.crtc_id == o1->crtc_id)
			seen1 = true;
	}
	mmx_assert(seen0 && seen1);
	check_plain(d, o0, &p0, "left-on-480x240");
	check_plain(d, o1, &p1, "right-on-480x240");

	/* and back to the small screen, blocking */
	side_by_side(small, &p0, &p1);
	r = mmx_req_new(d);
	req_ref_plane(r, o0->primary, o0, &p0);
	req_ref_plane(r, o1->primary, o1, &p1);
	mmx_do(mmx_req_commit(r, 0));
	check_plain(d, o0, &p0, "left-back-on-320x120");
	check_plain(d, o1, &p1, "right-back-on-320x120");

	/*
	 * Grow again while the right output turns upside down (rot180), in
	 * one commit without ALLOW_MODESET: the transform applies to the new
	 * FB of that CRTC only.
	 */
	xf_make(&x180, XF_ROT180, MW, MH);
	p0.fb = big;
	p0.src_x = 7;
	p0.src_y = 3;
	p1.fb = big;
	p1.src_x = 2 * MW - 1;
	p1.src_y = MH - 1;
	r = mmx_req_new(d);
	req_ref_plane(r, o0->primary, o0, &p0);
	req_ref_plane(r, o1->primary, o1, &p1);
	req_transform(d, r, o1, &x180, FILTER_BILINEAR);
	mmx_do(mmx_req_commit(r, 0));
	check_plain(d, o0, &p0, "left-on-480x240-again");
	xf_check(d, o1, small_mode(), &x180, FILTER_BILINEAR, &p1, 1,
		 "right-rot180-on-480x240");
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* invalid                                                                  */


/* One property assignment of a request. */
struct kv {
	uint32_t obj;
	const char *prop;
	uint64_t value;
};

static int commit_kv(struct mmx_dev *d, const struct kv *kv, int n,
		     uint32_t flags)
{
	struct mmx_req *r = mmx_req_new(d);
	int i;

	for (i = 0; i < n; i++)
		mmx_req_add(r, kv[i].obj, kv[i].prop, kv[i].value);
	return mmx_req_commit(r, flags);
}

/*
 * KV must fail with -ERR, as TEST_ONLY and as a real commit, and leave every
 * property of every CRTC, connector and plane as it was.
 */
static void expect_reject(struct mmx_dev *d, const struct kv *kv, int n,
			  int err, const char *what)
{
	static const uint32_t flags[2] = { DRM_MODE_ATOMIC_TEST_ONLY, 0 };
	struct mmx_snapshot before;
	int i, ret;

	mmx_snapshot_take(d, &before);
	for (i = 0; i < 2; i++) {
		ret = commit_kv(d, kv, n, flags[i]);
		if (ret != -err)
			mmx_fail("%s%s: expected %d (%s), got %d (%s)", what,
				 i ? "" : " (TEST_ONLY)", -err, strerror(err),
				 ret, ret ? strerror(-ret) : "success");
		mmx_assert_unchanged(d, &before);
	}
	mmx_snapshot_free(&before);
	mmx_debug("refused as expected: %s\n", what);
}

/* KV must pass TEST_ONLY (a boundary that the contract allows). */
static void expect_accept(struct mmx_dev *d, const struct kv *kv, int n,
			  const char *what)
{
	int ret = commit_kv(d, kv, n, DRM_MODE_ATOMIC_TEST_ONLY);

	mmx_assert_f(ret == 0, "%s (TEST_ONLY): %s", what, strerror(-ret));
}

static uint32_t raw_blob(struct mmx_dev *d, const void *data, size_t size)
{
	uint32_t id = 0;

	mmx_do(mmx_blob_create(d, data, size, &id));
	return id;
}

/* TRANSFORM = M (units of 2^-15) on CRTC of O must be refused / accepted. */
static void reject_matrix(struct mmx_dev *d, struct mmx_output *o,
			  const int64_t q[9], const char *what)
{
	struct kv kv = { o->crtc_id, "TRANSFORM", xf_blob(d, q) };

	expect_reject(d, &kv, 1, EINVAL, what);
}

static void accept_matrix(struct mmx_dev *d, struct mmx_output *o,
			  const int64_t q[9], const char *what)
{
	struct kv kv = { o->crtc_id, "TRANSFORM", xf_blob(d, q) };

	expect_accept(d, &kv, 1, what);
}

/*
 * No transform, output @o lit with the top-left MW x MH of plane @p on its
 * primary plane: the stable CRC of that frame.
 */
static uint32_t show_corner(struct mmx_dev *d, struct mmx_output *o,
			    struct mmx_ref_plane *p)
{
	struct mmx_req *r;

	xf_clear(d);
	p->w = MW;
	p->h = MH;
	light(d, o);
	r = mmx_req_new(d);
	req_ref_plane(r, o->primary, o, p);
	mmx_do(mmx_req_commit(r, 0));
	return crc_stable(d, o->index, 3);
}

/*
 * Blobs of @n wrong @sizes (the first bytes of @bytes) for CRTC property
 * @prop: each refused with EINVAL, the state unchanged.
 */
static void reject_blob_sizes(struct mmx_dev *d, uint32_t crtc,
			      const char *prop, const uint8_t *bytes,
			      const size_t *sizes, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct kv kv = { crtc, prop, raw_blob(d, bytes, sizes[i]) };
		char what[64];

		snprintf(what, sizeof(what), "%s blob of %zu bytes", prop,
			 sizes[i]);
		expect_reject(d, &kv, 1, EINVAL, what);
	}
}

static void test_invalid(struct mmx_dev *d)
{
	const int64_t L = MMX_TRANSFORM_SPACE_MAX;
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *fb = random_fb(d, 2 * MW, 2 * MH, 90);
	struct mmx_ref_plane p = mmx_ref_fb(fb, 0, 0);
	uint8_t bytes[2 * sizeof(struct drm_mmx_transform)];
	uint32_t crtc = o->crtc_id, crc0;
	size_t i;

	crc0 = show_corner(d, o, &p);

	/* TRANSFORM blobs of the wrong size */
	{
		static const size_t sizes[] = { 8, 64, 80, 144 };
		struct xf id;

		xf_make(&id, XF_IDENTITY, MW, MH);
		memset(bytes, 0, sizeof(bytes));
		for (i = 0; i < 9; i++) {
			int64_t v = id.q[i] * (1LL << 17);

			memcpy(bytes + 8 * i, &v, 8);
			memcpy(bytes + 72 + 8 * i, &v, 8);
		}
		reject_blob_sizes(d, crtc, "TRANSFORM", bytes, sizes,
				  MMX_ARRAY_SIZE(sizes));
	}

	/*
	 * Blob ids that name no blob: the contract has no special errno for
	 * them; the DRM core (drm_atomic_replace_property_blob_from_id) and
	 * mmx both answer -EINVAL, never -ENOENT.
	 */
	{
		struct kv kv[] = {
			{ crtc, "TRANSFORM", 0x7ffffff0 },
			{ crtc, "TRANSFORM", crtc },	/* a CRTC, not a blob */
		};

		for (i = 0; i < MMX_ARRAY_SIZE(kv); i++)
			expect_reject(d, &kv[i], 1, EINVAL,
				      "blob id of no blob");
	}

	/* singular matrices */
	{
		const int64_t zero[9] = { 0 };
		const int64_t rank2[9] = { Q, 2 * Q, 0, 2 * Q, 4 * Q, 0, 0, 0, Q };
		/* third row = first + second, w = u + v + 2 > 0 */
		const int64_t rank2p[9] = { Q, 0, Q, 0, Q, Q, Q, Q, 2 * Q };

		reject_matrix(d, o, zero, "zero matrix");
		reject_matrix(d, o, rank2, "singular affine matrix");
		reject_matrix(d, o, rank2p, "singular projective matrix");
	}

	/* w <= 0 somewhere on the mode rectangle */
	{
		const int64_t neg[9] = { Q, 0, 0, 0, Q, 0, 0, 0, -Q };
		const int64_t zero_edge[9] = { Q, 0, 0, 0, Q, 0, -Q, 0, MW * Q };
		const int64_t right[9] = { Q, 0, 0, 0, Q, 0, -Q / 64, 0, Q };
		const int64_t bottom[9] = { Q, 0, 0, 0, Q, 0, 0, -Q / 64, Q };
		const int64_t minus_id[9] = { -Q, 0, 0, 0, -Q, 0, 0, 0, -Q };

		reject_matrix(d, o, neg, "w = -1 everywhere");
		reject_matrix(d, o, zero_edge, "w = 0 on the right edge");
		reject_matrix(d, o, right, "w < 0 at the right corners");
		reject_matrix(d, o, bottom, "w < 0 at the bottom corners");
		reject_matrix(d, o, minus_id, "-identity (w = -1)");
	}

	/* CRTC space beyond MMX_TRANSFORM_SPACE_MAX, and its boundaries */
	{
		const int64_t right_in[9] = { Q, 0, (L - MW) * Q, 0, Q, 0, 0, 0, Q };
		const int64_t right_out[9] = { Q, 0, (L - MW + 1) * Q, 0, Q, 0,
					       0, 0, Q };
		const int64_t up_in[9] = { Q, 0, 0, 0, Q, -L * Q, 0, 0, Q };
		const int64_t up_out[9] = { Q, 0, 0, 0, Q, (-L - 1) * Q, 0, 0, Q };
		/* x in [-4080, 4080]: 8160 wide; 52: 8320 wide */
		const int64_t wide_in[9] = { 51 * Q, 0, -51 * MW / 2 * Q, 0, Q, 0,
					     0, 0, Q };
		const int64_t wide_out[9] = { 52 * Q, 0, -52 * MW / 2 * Q, 0, Q,
					      0, 0, 0, Q };
		const int64_t tall_out[9] = { Q, 0, 0, 0, 70 * Q, -35 * MH * Q,
					      0, 0, Q };
		/* projective: w -> 1/64 at the right edge, x -> 64 * 160 */
		const int64_t proj_out[9] = { Q, 0, 0, 0, Q, 0,
					      -(Q - Q / 64) / MW, 0, Q };

		accept_matrix(d, o, right_in, "space up to x = +SPACE_MAX");
		reject_matrix(d, o, right_out, "space beyond x = +SPACE_MAX");
		accept_matrix(d, o, up_in, "space from y = -SPACE_MAX");
		reject_matrix(d, o, up_out, "space beyond y = -SPACE_MAX");
		accept_matrix(d, o, wide_in, "space 8160 wide");
		reject_matrix(d, o, wide_out, "space 8320 wide");
		reject_matrix(d, o, tall_out, "space 8400 tall");
		reject_matrix(d, o, proj_out, "projective space 10240 wide");
	}

	/* unknown filters: the enum property refuses them */
	{
		struct kv kv[] = {
			{ crtc, "TRANSFORM_FILTER", 2 },
			{ crtc, "TRANSFORM_FILTER", 0xffffffffull },
		};

		for (i = 0; i < MMX_ARRAY_SIZE(kv); i++)
			expect_reject(d, &kv[i], 1, EINVAL,
				      "TRANSFORM_FILTER out of the enum");
	}

	/* nothing of all that reached the picture */
	mmx_assert_eq_u64(crc_stable(d, o->index, 3), crc0);

	xf_clear(d);
}

/* Refusals that need no mode: also on a CRTC that is off. */
static void test_invalid_crtc_off(struct mmx_dev *d)
{
	const int64_t rank2[9] = { Q, 2 * Q, 0, 2 * Q, 4 * Q, 0, 0, 0, Q };
	const int64_t minus_id[9] = { -Q, 0, 0, 0, -Q, 0, 0, 0, -Q };
	const int64_t entry[9] = { Q << 15, 0, 0, 0, Q, 0, 0, 0, Q };
	const int64_t far[9] = { Q, 0, 8190 * Q, 0, Q, 0, 0, 0, Q };
	struct mmx_output *o = mmx_output0(d);
	struct kv okv = { o->crtc_id, "TRANSFORM", 0 };
	struct mmx_snapshot before;
	int ret;
	uint8_t bytes[8] = { 0 };
	struct kv kv[] = {
		{ o->crtc_id, "TRANSFORM", raw_blob(d, bytes, sizeof(bytes)) },
		{ o->crtc_id, "TRANSFORM_FILTER", 2 },
	};

	xf_clear(d);
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "ACTIVE"), 0);
	expect_reject(d, &kv[0], 1, EINVAL, "8-byte TRANSFORM, CRTC off");
	expect_reject(d, &kv[1], 1, EINVAL, "filter 2, CRTC off");
	reject_matrix(d, o, rank2, "singular matrix, CRTC off");
	reject_matrix(d, o, minus_id, "w = -1, CRTC off");
	reject_matrix(d, o, entry, "entry 2^15, CRTC off");

	/*
	 * What depends on the mode waits for the modeset: a space reaching
	 * x = 8191 for a 1x1 mode is accepted while off, and the modeset to
	 * 160x120 (space to x = 8350) is then refused, changing nothing.
	 */
	okv.value = xf_blob(d, far);
	mmx_do(commit_kv(d, &okv, 1, 0));
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "TRANSFORM"), okv.value);
	mmx_snapshot_take(d, &before);
	ret = mmx_output_set(d, o, small_mode(), NULL, 0, 0);
	mmx_assert_f(ret == -EINVAL, "modeset with a space beyond x = 8192: %d",
		     ret);
	mmx_assert_unchanged(d, &before);
	mmx_snapshot_free(&before);
	xf_clear(d);
	mmx_do(mmx_output_set(d, o, small_mode(), NULL, 0, 0));
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */
/* precision-limits                                                         */

/*
 * The documented limits of the matrix, from both sides: entries below 2^15
 * in magnitude (RandR's XFixed range) and, for projective matrices, w at
 * every corner at least 1/65536 of its largest corner value. Just inside,
 * the matrix works and shows what pixman shows; just outside, -EINVAL.
 */
static void test_precision_limits(struct mmx_dev *d)
{
	/* (2^15 - 2^-15) * identity: projectively the identity */
	const int64_t big = (Q << 15) - 1;
	const int64_t entry_in[9] = { big, 0, 0, 0, big, 0, 0, 0, big };
	const int64_t entry_out[9] = { Q << 15, 0, 0, 0, Q << 15, 0, 0, 0,
				       Q << 15 };
	const int64_t entry_neg[9] = { Q, 0, -(Q << 15), 0, Q, 0, 0, 0, Q };
	/*
	 * w = (u + v) / 128 + c: 2.1875 + c at (160, 120), c at (0, 0);
	 * c = 2^-14 is 1/35841 of it (accepted), 2^-15 1/71681 (refused).
	 */
	const int64_t w_out[9] = { Q, 0, 0, 0, Q, 0, Q / 128, Q / 128, 1 };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_ref_plane p;
	struct mmx_req *r;
	struct xf id, pinch;

	xf_clear(d);
	xf_make(&id, XF_IDENTITY, MW, MH);
	xf_make(&pinch, XF_PINCH, MW, MH);
	light(d, o);

	reject_matrix(d, o, entry_out, "entries of 2^15");
	reject_matrix(d, o, entry_neg, "an entry of -2^15");
	reject_matrix(d, o, w_out, "w at (0, 0) below 1/65536 of w at (160, 120)");

	/* the largest entries: the picture of the identity */
	p = mmx_ref_fb(random_fb(d, MW, MH, 140), 0, 0);
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM", xf_blob(d, entry_in));
	req_ref_plane(r, o->primary, o, &p);
	mmx_do(mmx_req_commit(r, 0));
	xf_check(d, o, small_mode(), &id, FILTER_NEAREST, &p, 1,
		 "identity-times-32767.99997");

	/* the smallest w margin (transform-*-pinch check its pictures) */
	r = mmx_req_new(d);
	req_transform(d, r, o, &pinch, FILTER_NEAREST);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_TEST_ONLY));
	xf_clear(d);
}

/* ------------------------------------------------------------------------ */

#define XF_TEST(fname, filt, cname, cas)				\
	static const struct xf_test xt_##fname##_##cname = { cas, filt }
#define XF_CASES(f, F)							\
	XF_TEST(f, F, scale_2, XF_SCALE_2);				\
	XF_TEST(f, F, scale_075, XF_SCALE_075);			\
	XF_TEST(f, F, rot90, XF_ROT90);				\
	XF_TEST(f, F, rot180, XF_ROT180);				\
	XF_TEST(f, F, reflect_x, XF_REFLECT_X);			\
	XF_TEST(f, F, rot_10deg, XF_ROT_10DEG);			\
	XF_TEST(f, F, keystone, XF_KEYSTONE);			\
	XF_TEST(f, F, translate, XF_TRANSLATE);			\
	XF_TEST(f, F, translate_frac, XF_TRANSLATE_FRAC);		\
	XF_TEST(f, F, homogeneous, XF_HOMOGENEOUS);		\
	XF_TEST(f, F, pinch, XF_PINCH)
XF_CASES(nearest, FILTER_NEAREST);
XF_CASES(bilinear, FILTER_BILINEAR);

#define XF_ENTRY(fname, cname, name, desc)				\
	{ "transform-" #fname "-" name,					\
	  desc " with " #fname " sampling: the primary plane on the CRTC space the contract defines (and a bigger one clipped to it) is captured as pixman transforms it (" #fname ")", \
	  NULL, test_transform, &xt_##fname##_##cname }
#define XF_ENTRIES(f)							\
	XF_ENTRY(f, scale_2, "scale-2", "matrix 2,0,0,0,2,0,0,0,1 (downscale)"), \
	XF_ENTRY(f, scale_075, "scale-0.75", "matrix 0.75 scale (upscale)"), \
	XF_ENTRY(f, rot90, "rot90", "xrandr --rotate left"),		\
	XF_ENTRY(f, rot180, "rot180", "rotation by 180 degrees"),	\
	XF_ENTRY(f, reflect_x, "reflect-x", "reflection in x"),		\
	XF_ENTRY(f, rot_10deg, "rot-10deg", "affine rotation by 10 degrees (space at negative x)"), \
	XF_ENTRY(f, keystone, "keystone", "projective keystone"),	\
	XF_ENTRY(f, translate, "translate", "integer translation (-30, 17)"), \
	XF_ENTRY(f, translate_frac, "translate-frac", "translation by (-7.5, -12.25) (space at negative x and y)"), \
	XF_ENTRY(f, homogeneous, "homogeneous", "matrix 1.5,0,0,0,1.5,0,0,0,2 (scale 0.75 with w = 2)"), \
	XF_ENTRY(f, pinch, "pinch", "projective matrix with w = 2^-14 at a corner (line at infinity close by)")

static const struct mmx_subtest tests[] = {
	{ "props", "every CRTC has TRANSFORM (blob, 0), TRANSFORM_FILTER (enum nearest=0, bilinear=1, default nearest) and no PANNING (panning is userspace's)",
	  test_props, NULL, NULL },
	{ "identity-blob", "an identity TRANSFORM blob, with either filter, gives the same writeback capture and CRC as no blob",
	  test_identity_blob, NULL, NULL },
	XF_ENTRIES(nearest),
	XF_ENTRIES(bilinear),
	{ "crc-follows-transform", "the CRC changes with rot180, is stable, equals the CRC of the software-rotated picture and returns with the identity",
	  test_crc_follows_transform, NULL, NULL },
	{ "overlay-and-cursor-transformed", "overlays and the cursor are placed in CRTC space and transformed with the primary (affine, projective, rot90, scale), also after a cursor-only move",
	  test_overlay_and_cursor, NULL, NULL },
	{ "pan-no-modeset", "with a transform, changing the primary's SRC_X/SRC_Y needs no ALLOW_MODESET (blocking and non-blocking) and shows the new screen area transformed, both filters",
	  test_pan_no_modeset, NULL, NULL },
	{ "transform-mode-change", "a modeset to another size keeps the TRANSFORM blob and moves/resizes the CRTC space to the box of the new mode (rot90, rot-10deg, keystone)",
	  test_mode_change, NULL, NULL },
	{ "large-space", "a 1280x960 CRTC space (scale 8) with a cursor in its far corner, both filters",
	  test_large_space, NULL, NULL },
	{ "close-abandons-frame", "closing the CRC source of a 1920x1080 transformed CRTC whose frames take longer than a frame stops the composition in progress (debugfs counts it abandoned) instead of waiting for the frame",
	  test_close_abandons_frame, NULL, NULL },
	{ "screen-growth", "two outputs on one 320x120 FB switch in one commit without ALLOW_MODESET to a 480x240 FB with another pitch and an offset, back, and again while one of them turns rot180",
	  test_screen_growth, NULL, NULL },
	{ "invalid", "bad TRANSFORM/TRANSFORM_FILTER values (size, blob id, singular, w <= 0, space too large, filter 2) fail with -EINVAL and change nothing; their boundaries pass",
	  test_invalid, NULL, NULL },
	{ "invalid-crtc-off", "a CRTC that is off refuses what no mode could accept (blob size, filter, singular, w < 0, entry 2^15); a mode-dependent refusal waits for the modeset, which then fails and changes nothing",
	  test_invalid_crtc_off, NULL, NULL },
	{ "precision-limits", "entries of 2^15 and a corner w below 1/65536 of the largest are refused; 32767.99997 * identity works (as the identity) and a 1/35841 margin is accepted",
	  test_precision_limits, NULL, NULL },
};

/*
 * Leave no TRANSFORM behind for the next program, even when the
 * last subtest failed half-way (mmx_reset() does not know them).
 */
static void final_clear(void)
{
	drmModeAtomicReqPtr req;
	drmModeResPtr res;
	int fd, i;

	if (!saved_path[0])
		return;
	fd = open(saved_path, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return;
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	res = drmModeGetResources(fd);
	req = drmModeAtomicAlloc();
	for (i = 0; res && req && i < res->count_crtcs; i++) {
		static const char *const names[] = {
			"TRANSFORM", "TRANSFORM_FILTER",
		};
		size_t k;

		for (k = 0; k < MMX_ARRAY_SIZE(names); k++) {
			uint32_t prop;

			if (mmx_prop_lookup(fd, res->crtcs[i], names[k], &prop,
					    NULL, NULL))
				drmModeAtomicAddProperty(req, res->crtcs[i],
							 prop, 0);
		}
	}
	if (req && drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET,
				       NULL))
		fprintf(stderr, "kms_mmx_transform: clearing TRANSFORM: %s\n",
			strerror(errno));
	drmModeAtomicFree(req);
	drmModeFreeResources(res);
	close(fd);
}

int main(int argc, char **argv)
{
	int ret = mmx_main(argc, argv, "mmx CRTC transform and panning", tests,
			   MMX_ARRAY_SIZE(tests));

	final_clear();
	return ret;
}
