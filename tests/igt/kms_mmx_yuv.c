// SPDX-License-Identifier: MIT
/*
 * kms_mmx_yuv - the YUV plane formats: every format, COLOR_ENCODING and
 * COLOR_RANGE shown on the overlays (unscaled at an odd source offset, and
 * scaled 2x with the nearest filter) and on the primary plane (scaled 2x,
 * bilinear), captured through writeback and compared with the equations
 * of ../common/yuv_ref.h; and the multi-planar framebuffer layouts and
 * property values the kernel must refuse, with their errno and no change.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_igt.h"
#include "yuv_ref.h"

/*
 * The frame: odd sizes, so that the last chroma sample covers one pixel;
 * one column less (an even width, as mmx requires) for packed 4:2:2.
 */
#define FW 61
#define FH 47

static const char *const encoding_names[3] = {
	"ITU-R BT.601 YCbCr", "ITU-R BT.709 YCbCr", "ITU-R BT.2020 YCbCr",
};
static const char *const range_names[2] = {
	"YCbCr limited range", "YCbCr full range",
};

/* A YUV framebuffer, its buffers and the samples it holds. */
struct yuv_fb {
	const struct yuv_ref_format *f;
	int w;
	uint32_t id;
	int n_bos;
	uint32_t handle[3];
	uint8_t *map[3];
	uint64_t size[3];
	uint16_t y[FH][FW], cb[FH][FW], cr[FH][FW];
};

/*
 * A random frame in format @f: its planes in one buffer at offsets (the
 * first not 0) when @shared, else one buffer each; pitches a little wider
 * than needed.
 */
static struct yuv_fb *yuv_fb_new(struct mmx_dev *d,
				 const struct yuv_ref_format *f, bool shared,
				 uint32_t seed)
{
	int n = f->packed ? 1 : f->planes, p, x, y;
	uint32_t pitches[4] = { 0 }, offsets[4] = { 0 }, handles[4] = { 0 };
	uint32_t mask = (1u << f->depth) - 1, at = 64;
	struct yuv_fb *fb = calloc(1, sizeof(*fb));
	uint8_t *planes[3] = { NULL };

	mmx_assert(fb);
	fb->f = f;
	fb->w = f->packed ? FW - 1 : FW;
	for (y = 0; y < FH; y++)
		for (x = 0; x < FW; x++) {
			fb->y[y][x] = (uint16_t)(rand_r(&seed) & mask);
			fb->cb[y][x] = (uint16_t)(rand_r(&seed) & mask);
			fb->cr[y][x] = (uint16_t)(rand_r(&seed) & mask);
		}
	for (p = 0; p < n; p++) {
		pitches[p] = yuv_ref_min_pitch(f, p, (uint32_t)fb->w) + 3 + 4 * p;
		offsets[p] = shared ? at : 0;
		at += pitches[p] * yuv_ref_rows(f, p, FH) + 32;
	}
	fb->n_bos = shared ? 1 : n;
	for (p = 0; p < fb->n_bos; p++)
		mmx_do(mmx_bo_create(d, shared ? at :
				     (uint64_t)pitches[p] * yuv_ref_rows(f, p, FH),
				     &fb->handle[p], &fb->map[p], &fb->size[p]));
	for (p = 0; p < n; p++) {
		handles[p] = fb->handle[shared ? 0 : p];
		planes[p] = fb->map[shared ? 0 : p] + offsets[p];
	}
	yuv_ref_lay_out(f, planes, pitches, fb->w, FH, &fb->y[0][0],
			&fb->cb[0][0], &fb->cr[0][0], FW);
	mmx_do(drmModeAddFB2(d->fd, (uint32_t)fb->w, FH, f->fourcc, handles, pitches,
			     offsets, &fb->id, 0) ? -errno : 0);
	return fb;
}

static void yuv_fb_free(struct mmx_dev *d, struct yuv_fb *fb)
{
	drmModeRmFB(d->fd, fb->id);
	for (int p = 0; p < fb->n_bos; p++)
		mmx_bo_destroy(d, fb->handle[p], fb->map[p], fb->size[p]);
	free(fb);
}

/* The reference colour of frame pixel (x, y), 0xffRRGGBB. */
static uint32_t yuv_fb_argb(const struct yuv_fb *fb, int enc, int full,
			    int x, int y)
{
	const struct yuv_ref_format *f = fb->f;
	int cx = x / f->hsub, cy = y / f->vsub;

	return yuv_ref_argb(enc, full, f->depth, fb->y[y][x], fb->cb[cy][cx],
			    fb->cr[cy][cx]);
}

/* One channel of the reference, bilinear at frame point (sx, sy). */
static double bilinear(const struct yuv_fb *fb, int enc, int full,
		       double sx, double sy, int shift)
{
	int x0 = (int)floor(sx - 0.5), y0 = (int)floor(sy - 0.5), i, j;
	double fx = sx - 0.5 - x0, fy = sy - 0.5 - y0, v = 0;

	for (j = 0; j < 2; j++)
		for (i = 0; i < 2; i++) {
			int x = x0 + i, y = y0 + j;

			x = x < 0 ? 0 : x >= fb->w ? fb->w - 1 : x;
			y = y < 0 ? 0 : y >= FH ? FH - 1 : y;
			v += (i ? fx : 1 - fx) * (j ? fy : 1 - fy) *
			     (yuv_fb_argb(fb, enc, full, x, y) >> shift & 0xff);
		}
	return v;
}

/* Where the three planes show the frame in the 320x240 mode. */
#define OV0_X 2
#define OV0_Y 2
#define SRC_X 3		/* odd source offset of the unscaled overlay */
#define SRC_Y 1
#define OV1_X 70
#define OV1_Y 2
#define PRI_X 2
#define PRI_Y 110

static void set_color(struct mmx_dev *d, struct mmx_req *r, uint32_t plane,
		      int enc, int full, const char *filter)
{
	mmx_req_add(r, plane, "COLOR_ENCODING",
		    mmx_prop_enum(d, plane, "COLOR_ENCODING",
				  encoding_names[enc]));
	mmx_req_add(r, plane, "COLOR_RANGE",
		    mmx_prop_enum(d, plane, "COLOR_RANGE", range_names[full]));
	mmx_req_add(r, plane, "SCALING_FILTER",
		    mmx_prop_enum(d, plane, "SCALING_FILTER", filter));
}

/* COLOR_ENCODING, COLOR_RANGE and SCALING_FILTER back to their defaults. */
static void restore_defaults(struct mmx_dev *d, struct mmx_output *o)
{
	struct mmx_req *r = mmx_req_new(d);
	uint32_t planes[3] = { o->primary, o->overlay[0], o->overlay[1] };

	for (int i = 0; i < 3; i++)
		set_color(d, r, planes[i], 0, 0, "Default");
	mmx_do(mmx_req_commit(r, 0));
}

/* The expected frame of show_frame(). */
static struct mmx_frame *expected(const struct yuv_fb *fb, int enc, int full)
{
	struct mmx_frame *f = mmx_frame_new(320, 240);
	int u, v, c;

	for (v = 0; v < FH - SRC_Y; v++)
		for (u = 0; u < fb->w - SRC_X; u++) {
			size_t i = (size_t)(OV0_Y + v) * 320 + OV0_X + u;

			f->px[i] = yuv_fb_argb(fb, enc, full, SRC_X + u, SRC_Y + v);
			f->tol[i] = 1;
		}
	for (v = 0; v < 2 * FH; v++)
		for (u = 0; u < 2 * fb->w; u++) {
			size_t i = (size_t)(OV1_Y + v) * 320 + OV1_X + u;
			size_t k = (size_t)(PRI_Y + v) * 320 + PRI_X + u;
			uint32_t px = 0xff000000u;

			f->px[i] = yuv_fb_argb(fb, enc, full, u / 2, v / 2);
			f->tol[i] = 1;
			for (c = 0; c < 3; c++)
				px |= (uint32_t)lround(bilinear(fb, enc, full,
								(u + 0.5) / 2,
								(v + 0.5) / 2,
								8 * c)) << 8 * c;
			f->px[k] = px;
			f->tol[k] = 2;
		}
	return f;
}

/*
 * Show @fb on the three planes of @o with encoding @enc and range @full,
 * capture and compare.
 */
static void show_frame(struct mmx_dev *d, struct mmx_output *o,
		       struct mmx_fb *wb, const struct yuv_fb *fb, int enc,
		       int full)
{
	struct mmx_req *r = mmx_req_new(d);
	struct mmx_frame *f;
	char what[64];

	mmx_req_plane(r, o->overlay[0], o->crtc_id, fb->id, SRC_X, SRC_Y,
		      fb->w - SRC_X, FH - SRC_Y, OV0_X, OV0_Y, fb->w - SRC_X,
		      FH - SRC_Y);
	set_color(d, r, o->overlay[0], enc, full, "Default");
	mmx_req_plane(r, o->overlay[1], o->crtc_id, fb->id, 0, 0, fb->w, FH,
		      OV1_X, OV1_Y, 2 * fb->w, 2 * FH);
	set_color(d, r, o->overlay[1], enc, full, "Nearest Neighbor");
	mmx_req_plane(r, o->primary, o->crtc_id, fb->id, 0, 0, fb->w, FH,
		      PRI_X, PRI_Y, 2 * fb->w, 2 * FH);
	set_color(d, r, o->primary, enc, full, "Default");
	mmx_req_plane_off(r, o->cursor);
	mmx_do(mmx_req_commit(r, 0));

	snprintf(what, sizeof(what), "%s %s %s", fb->f->name,
		 yuv_ref_encodings[enc].name, full ? "full" : "limited");
	f = expected(fb, enc, full);
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_assert_f(mmx_frame_check(wb, f, what),
		     "%s: captured frame differs from the reference", what);
	mmx_frame_free(f);
}

static void test_format(struct mmx_dev *d, const void *arg)
{
	const struct yuv_ref_format *f = arg;
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct yuv_fb *fb;
	int enc, full;

	fb = yuv_fb_new(d, f, (f - yuv_ref_formats) % 2,
			(uint32_t)(f - yuv_ref_formats) + 1);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
	for (enc = 0; enc < 3; enc++)
		for (full = 0; full < 2; full++)
			show_frame(d, o, wb, fb, enc, full);
	mmx_info("%s: 6 encodings and ranges, 3 planes each, match", f->name);
	restore_defaults(d, o);
	mmx_reset(d);
	yuv_fb_free(d, fb);
}

/* Capture @o into @wb and return the picture as a frame, tolerance @tol. */
static struct mmx_frame *capture(struct mmx_dev *d, struct mmx_output *o,
				 struct mmx_fb *wb, int tol)
{
	struct mmx_frame *f = mmx_frame_new(320, 240);
	int x, y;

	mmx_do(mmx_wb_capture(d, o, wb));
	for (y = 0; y < 240; y++)
		for (x = 0; x < 320; x++) {
			f->px[y * 320 + x] = mmx_fb_get_raw(wb, x, y) | 0xff000000u;
			f->tol[y * 320 + x] = (uint8_t)tol;
		}
	return f;
}

/* Show @fb_id on @o's first overlay, rotated, scaled and filtered. */
static void show_rotated(struct mmx_dev *d, struct mmx_output *o,
			 uint32_t fb_id, int w, uint64_t rotation,
			 const char *filter)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_plane(r, o->overlay[0], o->crtc_id, fb_id, 0, 0, w, FH, 10, 10,
		      3 * FH, 2 * w);
	set_color(d, r, o->overlay[0], 1, 0, filter);
	mmx_req_add(r, o->overlay[0], "rotation", rotation);
	mmx_req_planes_off_but(r, o, &o->overlay[0], 1);
	mmx_do(mmx_req_commit(r, 0));
}

/*
 * A YUV plane rotated, scaled and turned by the CRTC TRANSFORM looks like
 * the same picture in XRGB8888 (the reference's conversion) shown the same
 * way: within 1 with the nearest filter, 2 with bilinear.
 */
static void test_rotation_transform(struct mmx_dev *d)
{
	static const int64_t one = (int64_t)1 << 32;
	const int64_t half_turn[9] = { -one, 0, 320 * one, 0, -one, 240 * one,
				       0, 0, one };
	static const uint64_t rotations[] = {
		DRM_MODE_ROTATE_90 | DRM_MODE_REFLECT_X, DRM_MODE_ROTATE_270,
	};
	static const char *const filters[] = { "Nearest Neighbor", "Default" };
	static const int formats[] = { 0, 6, 12, 16 };	/* NV12 YUV420 YUYV P010 */
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct mmx_frame *want;
	struct mmx_req *r;
	uint32_t blob;
	size_t i, k, n;
	int x, y;

	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
	mmx_do(mmx_blob_create(d, half_turn, sizeof(half_turn), &blob));
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM", blob);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		const struct yuv_ref_format *f = &yuv_ref_formats[formats[i]];
		struct yuv_fb *yuv = yuv_fb_new(d, f, i % 2, 40 + (uint32_t)i);
		struct mmx_fb *rgb = mmx_fb_new(d, (uint32_t)yuv->w, FH,
						DRM_FORMAT_XRGB8888);
		char what[80];

		for (y = 0; y < FH; y++)
			for (x = 0; x < yuv->w; x++)
				mmx_fb_put(rgb, x, y, yuv_fb_argb(yuv, 1, 0, x, y));
		for (k = 0; k < MMX_ARRAY_SIZE(rotations); k++)
			for (n = 0; n < MMX_ARRAY_SIZE(filters); n++) {
				show_rotated(d, o, rgb->id, yuv->w, rotations[k],
					     filters[n]);
				want = capture(d, o, wb, (int)n + 1);
				show_rotated(d, o, yuv->id, yuv->w, rotations[k],
					     filters[n]);
				snprintf(what, sizeof(what),
					 "%s rotation 0x%llx %s", f->name,
					 (unsigned long long)rotations[k],
					 filters[n]);
				mmx_do(mmx_wb_capture(d, o, wb));
				mmx_assert_f(mmx_frame_check(wb, want, what),
					     "%s: differs from XRGB8888", what);
				mmx_frame_free(want);
			}
		mmx_info("%s: 2 rotations x 2 filters under a half turn match XRGB8888",
			 f->name);
		mmx_fb_free(rgb);
		yuv_fb_free(d, yuv);
	}
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "TRANSFORM", 0);
	mmx_req_add(r, o->overlay[0], "rotation", DRM_MODE_ROTATE_0);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	restore_defaults(d, o);
	mmx_reset(d);
}

/* Whether IN_FORMATS of @plane lists @format with the linear modifier. */
static bool in_formats_linear(struct mmx_dev *d, uint32_t plane,
			      uint32_t format)
{
	const struct drm_format_modifier_blob *h;
	const struct drm_format_modifier *m;
	drmModePropertyBlobPtr b;
	const uint32_t *f;
	bool found = false;
	uint32_t i, k;

	b = drmModeGetPropertyBlob(d->fd,
				   (uint32_t)mmx_prop_get(d, plane, "IN_FORMATS"));
	mmx_assert(b);
	h = b->data;
	f = (const uint32_t *)((const char *)b->data + h->formats_offset);
	m = (const void *)((const char *)b->data + h->modifiers_offset);
	for (i = 0; i < h->count_formats; i++) {
		if (f[i] != format)
			continue;
		for (k = 0; k < h->count_modifiers; k++)
			if (m[k].modifier == DRM_FORMAT_MOD_LINEAR &&
			    i >= m[k].offset && i < m[k].offset + 64 &&
			    (m[k].formats >> (i - m[k].offset) & 1))
				found = true;
	}
	drmModeFreePropertyBlob(b);
	return found;
}

static void test_plane_props(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	uint32_t planes[3] = { o->primary, o->overlay[0], o->overlay[1] };
	int i, k;

	for (i = 0; i < 3; i++) {
		for (k = 0; k < 3; k++)
			mmx_prop_enum(d, planes[i], "COLOR_ENCODING",
				      encoding_names[k]);
		for (k = 0; k < 2; k++)
			mmx_prop_enum(d, planes[i], "COLOR_RANGE",
				      range_names[k]);
		mmx_assert_eq_u64(mmx_prop_get(d, planes[i], "COLOR_ENCODING"),
				  mmx_prop_enum(d, planes[i], "COLOR_ENCODING",
						encoding_names[0]));
		mmx_assert_eq_u64(mmx_prop_get(d, planes[i], "COLOR_RANGE"),
				  mmx_prop_enum(d, planes[i], "COLOR_RANGE",
						range_names[0]));
		for (k = 0; k < (int)YUV_REF_N_FORMATS; k++)
			mmx_assert_f(in_formats_linear(d, planes[i],
						       yuv_ref_formats[k].fourcc),
				     "plane %u: IN_FORMATS lacks %s (linear)",
				     planes[i], yuv_ref_formats[k].name);
	}
	/* the cursor: RGB only, no YCbCr property */
	mmx_assert(!mmx_prop_lookup(d->fd, o->cursor, "COLOR_ENCODING", NULL,
				    NULL, NULL));
	mmx_assert(!mmx_prop_lookup(d->fd, o->cursor, "COLOR_RANGE", NULL,
				    NULL, NULL));
	for (k = 0; k < (int)YUV_REF_N_FORMATS; k++)
		mmx_assert_f(!in_formats_linear(d, o->cursor,
						yuv_ref_formats[k].fourcc),
			     "cursor lists %s", yuv_ref_formats[k].name);
}

/* A layout for ADDFB2 (unset fields 0). */
struct layout {
	const char *what;
	uint32_t format, w, h;
	uint32_t handles[4], pitches[4], offsets[4];
	uint64_t modifiers[4];
	uint32_t flags;
	int err;	/* expected errno, 0: accepted */
};

/* Handle placeholders: the buffer, a second one, an unknown handle. */
#define BO 1
#define BO2 2
#define NO_BO 0xdead

static void try_layout(struct mmx_dev *d, const struct layout *l,
		       const uint32_t bo[3])
{
	uint32_t handles[4], id = 0;
	int before = mmx_count_fbs(d), ret, i;

	for (i = 0; i < 4; i++)
		handles[i] = l->handles[i] == BO ? bo[0] :
			     l->handles[i] == BO2 ? bo[1] : l->handles[i];
	ret = drmModeAddFB2WithModifiers(d->fd, l->w, l->h, l->format, handles,
					 l->pitches, l->offsets, l->modifiers,
					 &id, l->flags) ? -errno : 0;
	mmx_info("%s: %s", l->what, ret ? strerror(-ret) : "accepted");
	mmx_assert_f(ret == -l->err, "%s: got %d, expected %d", l->what, ret,
		     -l->err);
	if (!ret) {
		mmx_assert_eq(mmx_count_fbs(d), before + 1);
		drmModeRmFB(d->fd, id);
	}
	mmx_assert_eq(mmx_count_fbs(d), before);
}

/*
 * Sizes from DRM's rules: planes of a 65x49 frame have ceil(65 / hsub)
 * columns and ceil(49 / vsub) rows; BO is 8192 bytes (NV12 65x49 needs
 * 3185 + 25 rows of 66 = 4835 at offset 3185), BO2 is 4096.
 */
static const struct layout layouts[] = {
	{ "NV12 65x49, chroma pitch 66", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 65, 66 }, { 0, 3185 }, { 0 }, 0, 0 },
	{ "NV12 chroma in a second buffer", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO2 }, { 65, 66 }, { 0, 0 }, { 0 }, 0, 0 },
	{ "NV12 without a chroma handle", DRM_FORMAT_NV12, 65, 49,
	  { BO, 0 }, { 65, 66 }, { 0, 3185 }, { 0 }, 0, EINVAL },
	{ "NV12 with an unknown chroma handle", DRM_FORMAT_NV12, 65, 49,
	  { BO, NO_BO }, { 65, 66 }, { 0, 3185 }, { 0 }, 0, ENOENT },
	{ "NV12 chroma pitch 64 (32 pairs, rounded down)", DRM_FORMAT_NV12,
	  65, 49, { BO, BO }, { 65, 64 }, { 0, 3185 }, { 0 }, 0, EINVAL },
	{ "NV12 luma pitch 64", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 64, 66 }, { 0, 3185 }, { 0 }, 0, EINVAL },
	{ "NV12 chroma's 25th row past the buffer", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 65, 66 }, { 0, 8192 - 24 * 66 }, { 0 }, 0, EINVAL },
	{ "NV12 chroma offset at the buffer's end", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 65, 66 }, { 0, 8192 }, { 0 }, 0, EINVAL },
	{ "NV12 chroma too big for the second buffer", DRM_FORMAT_NV12, 65,
	  49, { BO, BO2 }, { 65, 200 }, { 0, 0 }, { 0 }, 0, EINVAL },
	{ "NV12 with a third handle", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO, BO }, { 65, 66, 66 }, { 0, 3185, 6000 },
	  { DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_LINEAR }, DRM_MODE_FB_MODIFIERS,
	  EINVAL },
	{ "NV12 with a tiled chroma modifier", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 65, 66 }, { 0, 3185 },
	  { DRM_FORMAT_MOD_LINEAR, I915_FORMAT_MOD_X_TILED },
	  DRM_MODE_FB_MODIFIERS, EINVAL },
	{ "NV12 linear modifiers", DRM_FORMAT_NV12, 65, 49,
	  { BO, BO }, { 65, 66 }, { 0, 3185 },
	  { DRM_FORMAT_MOD_LINEAR, DRM_FORMAT_MOD_LINEAR },
	  DRM_MODE_FB_MODIFIERS, 0 },
	{ "YUV420 65x49, chroma pitches 33", DRM_FORMAT_YUV420, 65, 49,
	  { BO, BO, BO }, { 65, 33, 33 }, { 0, 3185, 4010 }, { 0 }, 0, 0 },
	{ "YUV420 Cb pitch 32", DRM_FORMAT_YUV420, 65, 49,
	  { BO, BO, BO }, { 65, 32, 33 }, { 0, 3185, 4010 }, { 0 }, 0, EINVAL },
	{ "YUV420 Cr pitch 32", DRM_FORMAT_YUV420, 65, 49,
	  { BO, BO, BO }, { 65, 33, 32 }, { 0, 3185, 4010 }, { 0 }, 0, EINVAL },
	{ "YUV420 without a Cr handle", DRM_FORMAT_YUV420, 65, 49,
	  { BO, BO, 0 }, { 65, 33, 33 }, { 0, 3185, 4010 }, { 0 }, 0, EINVAL },
	{ "YUV420 Cr past the buffer", DRM_FORMAT_YUV420, 65, 49,
	  { BO, BO, BO }, { 65, 33, 33 }, { 0, 3185, 8192 - 24 * 33 }, { 0 },
	  0, EINVAL },
	{ "YUYV 64x49, pitch 128", DRM_FORMAT_YUYV, 64, 49,
	  { BO }, { 128 }, { 0 }, { 0 }, 0, 0 },
	{ "YUYV pitch 126", DRM_FORMAT_YUYV, 64, 49,
	  { BO }, { 126 }, { 0 }, { 0 }, 0, EINVAL },
	{ "YUYV 65 wide (half a macropixel)", DRM_FORMAT_YUYV, 65, 49,
	  { BO }, { 132 }, { 0 }, { 0 }, 0, EINVAL },
	{ "UYVY 65 wide (half a macropixel)", DRM_FORMAT_UYVY, 65, 49,
	  { BO }, { 132 }, { 0 }, { 0 }, 0, EINVAL },
	{ "P010 65x49, pitches 130 and 132", DRM_FORMAT_P010, 65, 49,
	  { BO, BO2 }, { 130, 132 }, { 0, 0 }, { 0 }, 0, 0 },
	{ "P010 chroma pitch 130", DRM_FORMAT_P010, 65, 49,
	  { BO, BO2 }, { 130, 130 }, { 0, 0 }, { 0 }, 0, EINVAL },
};

static void test_addfb_layouts(struct mmx_dev *d)
{
	uint32_t bo[3];
	uint8_t *map[2];
	uint64_t size[2];
	size_t i;

	mmx_do(mmx_bo_create(d, 8192, &bo[0], &map[0], &size[0]));
	mmx_do(mmx_bo_create(d, 4096, &bo[1], &map[1], &size[1]));
	mmx_require_f(size[0] == 8192 && size[1] == 4096,
		      "dumb buffers of %llu and %llu bytes",
		      (unsigned long long)size[0], (unsigned long long)size[1]);
	for (i = 0; i < MMX_ARRAY_SIZE(layouts); i++)
		try_layout(d, &layouts[i], bo);
	mmx_bo_destroy(d, bo[0], map[0], size[0]);
	mmx_bo_destroy(d, bo[1], map[1], size[1]);
}

/*
 * Unknown COLOR_ENCODING / COLOR_RANGE values fail with EINVAL, the
 * properties on the cursor (which has none) with ENOENT; nothing changes,
 * the picture included.
 */
static void test_bad_color_props(struct mmx_dev *d)
{
	static const struct {
		const char *prop;
		uint64_t value;
		bool cursor;
		int err;
	} cases[] = {
		{ "COLOR_ENCODING", 3, false, EINVAL },
		{ "COLOR_ENCODING", 1ull << 32, false, EINVAL },
		{ "COLOR_RANGE", 2, false, EINVAL },
		{ "COLOR_RANGE", ~0ull, false, EINVAL },
		{ "COLOR_ENCODING", 0, true, ENOENT },
		{ "COLOR_RANGE", 0, true, ENOENT },
	};
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct mmx_snapshot snap;
	struct yuv_fb *fb;
	struct mmx_frame *f;
	struct mmx_req *r;
	size_t i;

	fb = yuv_fb_new(d, &yuv_ref_formats[0], true, 99);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
	show_frame(d, o, wb, fb, 1, 1);
	for (i = 0; i < MMX_ARRAY_SIZE(cases); i++) {
		uint32_t plane = cases[i].cursor ? o->cursor : o->overlay[0];
		uint32_t prop = mmx_prop_id(d, o->overlay[0], cases[i].prop);
		int ret;

		mmx_snapshot_take(d, &snap);
		r = mmx_req_new(d);
		mmx_req_add_id(r, plane, prop, cases[i].value);
		ret = mmx_req_commit(r, 0);
		mmx_info("%s = 0x%llx on the %s: %s", cases[i].prop,
			 (unsigned long long)cases[i].value,
			 cases[i].cursor ? "cursor" : "overlay",
			 ret ? strerror(-ret) : "accepted");
		mmx_assert_eq(ret, -cases[i].err);
		mmx_assert_unchanged(d, &snap);
		mmx_snapshot_free(&snap);
	}
	f = expected(fb, 1, 1);
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_assert_f(mmx_frame_check(wb, f, "after the refused commits"),
		     "the picture changed after refused commits");
	mmx_frame_free(f);
	restore_defaults(d, o);
	mmx_reset(d);
	yuv_fb_free(d, fb);
}

#define FMT_TEST(i, name)						\
	{ "format-" name, "a random odd-sized " name " frame with every COLOR_ENCODING and COLOR_RANGE, on two overlays (unscaled at an odd source offset; 2x nearest) and the primary (2x bilinear), is captured as the standard equations say (within 1, bilinear 2)", \
	  NULL, test_format, &yuv_ref_formats[i] }

static const struct mmx_subtest tests[] = {
	{ "plane-props", "primary and overlays have COLOR_ENCODING (BT.601, BT.709, BT.2020) and COLOR_RANGE (limited, full), default BT.601 limited, and list every YUV format linear in IN_FORMATS; the cursor has neither",
	  test_plane_props, NULL, NULL },
	FMT_TEST(0, "nv12"), FMT_TEST(1, "nv21"), FMT_TEST(2, "nv16"),
	FMT_TEST(3, "nv61"), FMT_TEST(4, "nv24"), FMT_TEST(5, "nv42"),
	FMT_TEST(6, "yuv420"), FMT_TEST(7, "yvu420"), FMT_TEST(8, "yuv422"),
	FMT_TEST(9, "yvu422"), FMT_TEST(10, "yuv444"), FMT_TEST(11, "yvu444"),
	FMT_TEST(12, "yuyv"), FMT_TEST(13, "yvyu"), FMT_TEST(14, "uyvy"),
	FMT_TEST(15, "vyuy"), FMT_TEST(16, "p010"), FMT_TEST(17, "p012"),
	FMT_TEST(18, "p016"),
	{ "rotation-transform", "NV12, YUV420, YUYV and P010 on an overlay rotated (90 reflect-x, 270), scaled, nearest and bilinear, under a CRTC TRANSFORM half turn, match the same picture in XRGB8888 (within 1, bilinear 2)",
	  test_rotation_transform, NULL, NULL },
	{ "addfb-layouts", "multi-planar layouts: odd sizes with chroma rounded up are taken; a missing or unknown handle, a pitch too small for the subsampled width, a plane past its buffer, an unused plane's handle, a non-linear modifier, an odd width of a packed 4:2:2 format fail with EINVAL (ENOENT for the unknown handle) and create nothing",
	  test_addfb_layouts, NULL, NULL },
	{ "bad-color-props", "an unknown COLOR_ENCODING or COLOR_RANGE value fails with EINVAL, the properties on the cursor with ENOENT; properties and picture unchanged",
	  test_bad_color_props, NULL, NULL },
};

MMX_MAIN("mmx YUV plane formats", tests)
