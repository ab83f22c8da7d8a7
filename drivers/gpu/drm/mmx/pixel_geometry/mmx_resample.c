// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Plane resampling. A plane that is scaled, rotated, reflected or has a
 * fractional source position gets an affine transform from its clipped
 * destination to its framebuffer, built once in atomic_check
 * (mmx_resample_prepare()); the composer then resamples the plane into an
 * image of its clipped destination with the CRTC transform's compositor
 * (mmx_transform_compose(), same filters and sampling rule) and blends that
 * image like any other layer.
 *
 * The framebuffer is read in bands of output rows: each band converts only
 * the source pixels it samples to ARGB8888 (scratch memory bounded by the
 * band, whatever the plane's size and rotation), with the source rectangle's
 * edge pixels repeated around it so that bilinear filtering never mixes in
 * black at the plane's edges.
 *
 * A YUV plane is converted to RGB as it is read (mmx_yuv.c, chroma
 * replicated over the pixels it covers), so the filter interpolates RGB:
 * chroma is interpolated after conversion, with the same weights as luma.
 *
 * Bilinear filtering of mmx_transform_compose() interpolates colour only;
 * for a format with alpha the alpha channel is interpolated in a second pass,
 * moved into a colour channel. Colour and alpha are interpolated
 * independently (as pixman does for non-premultiplied images).
 */

#include "mmx_resample.h"

/* Source pixels beyond the sampled area read for the filter's footprint. */
#define MMX_RESAMPLE_MARGIN	2
/* Largest scale factor an entry may carry (the plane check allows 8). */
#define MMX_RESAMPLE_K_MAX	((s64)16 << MMX_FIXP_SHIFT)
/* Largest clip offset (a destination is at most 8 x 16384 pixels). */
#define MMX_RESAMPLE_CLIP_MAX	0x1000000u

static inline s64 mmx_min(s64 a, s64 b)
{
	return a < b ? a : b;
}

static inline s64 mmx_max(s64 a, s64 b)
{
	return a > b ? a : b;
}

/*
 * The inverse of drm_rect_rotate()'s rotations: the source point (relative
 * to the source rectangle, w x h) of a point r of the rotated source is
 * o + P r, with P = p (row-major) and o = (at_w ? w : 0, at_h ? h : 0).
 */
static const struct mmx_rotation {
	int p[4];
	bool at_w;
	bool at_h;
} mmx_rotations[4] = {
	{ { 1, 0, 0, 1 }, false, false },	/* rotate-0 */
	{ { 0, -1, 1, 0 }, true, false },	/* rotate-90: s = (w - r.y, r.x) */
	{ { -1, 0, 0, -1 }, true, true },	/* rotate-180 */
	{ { 0, 1, -1, 0 }, false, true },	/* rotate-270: s = (r.y, h - r.x) */
};

/* (n << 16) / d rounded to nearest: a 16.16 size over pixels, in S31.32. */
static s64 mmx_resample_ratio(u32 n, u32 d)
{
	return (s64)div64_u64(((u64)n << 16) + d / 2, d);
}

/*
 * The signed permutation @p and origin @o (in the source, 16.16) that
 * undo @rotation: the rotation first, then the reflections (applied
 * before it). -EINVAL unless exactly one rotation bit is set.
 */
static int mmx_resample_axes(unsigned int rotation, s64 w, s64 h, int p[4],
			     s64 o[2])
{
	const struct mmx_rotation *rot;

	switch (rotation & (MMX_ROTATE_0 | MMX_ROTATE_90 | MMX_ROTATE_180 |
			    MMX_ROTATE_270)) {
	case MMX_ROTATE_0:
		rot = &mmx_rotations[0];
		break;
	case MMX_ROTATE_90:
		rot = &mmx_rotations[1];
		break;
	case MMX_ROTATE_180:
		rot = &mmx_rotations[2];
		break;
	case MMX_ROTATE_270:
		rot = &mmx_rotations[3];
		break;
	default:
		return -EINVAL;
	}
	memcpy(p, rot->p, sizeof(rot->p));
	o[0] = rot->at_w ? w : 0;
	o[1] = rot->at_h ? h : 0;
	if (rotation & MMX_REFLECT_X) {
		o[0] = w - o[0];
		p[0] = -p[0];
		p[1] = -p[1];
	}
	if (rotation & MMX_REFLECT_Y) {
		o[1] = h - o[1];
		p[2] = -p[2];
		p[3] = -p[3];
	}
	return 0;
}

/**
 * mmx_resample_prepare - the transform of a resampled plane
 * @t: transform to fill
 * @g: the plane's geometry
 * @clip_x: left of the shown part of the destination, relative to CRTC_X
 * @clip_y: top of the shown part, relative to CRTC_Y
 * @out_w: width of the shown part, 1..%MMX_TRANSFORM_OUT_MAX
 * @out_h: height of the shown part
 *
 * Builds the matrix that maps a pixel (u, v) of the shown part to the
 * framebuffer point it shows: DRM's rotation (drm_rect_rotate()) undone and
 * the destination scaled to the source, exact but for the scale factors,
 * which are rounded to 2^-32.
 *
 * Return: 0, or -EINVAL for a geometry no plane check lets through (an
 * empty rectangle, a scale factor beyond 16, a bad rotation value).
 */
int mmx_resample_prepare(struct mmx_transform *t,
			 const struct mmx_resample_geom *g, u32 clip_x,
			 u32 clip_y, u32 out_w, u32 out_h)
{
	bool swap = g->rotation & (MMX_ROTATE_90 | MMX_ROTATE_270);
	s64 w = (s64)g->src_w << 16, h = (s64)g->src_h << 16;
	s64 kx, ky, o[2], m[9];
	int p[4];

	if (!g->src_w || !g->src_h || !g->dst_w || !g->dst_h ||
	    clip_x > MMX_RESAMPLE_CLIP_MAX || clip_y > MMX_RESAMPLE_CLIP_MAX)
		return -EINVAL;
	kx = mmx_resample_ratio(swap ? g->src_h : g->src_w, g->dst_w);
	ky = mmx_resample_ratio(swap ? g->src_w : g->src_h, g->dst_h);
	if (kx > MMX_RESAMPLE_K_MAX || ky > MMX_RESAMPLE_K_MAX)
		return -EINVAL;

	if (mmx_resample_axes(g->rotation, w, h, p, o))
		return -EINVAL;

	/* r = (kx d.x, ky d.y) for a destination point d = clip + (u, v). */
	m[0] = p[0] * kx;
	m[1] = p[1] * ky;
	m[3] = p[2] * kx;
	m[4] = p[3] * ky;
	m[2] = ((s64)g->src_x << 16) + o[0] + m[0] * clip_x + m[1] * clip_y;
	m[5] = ((s64)g->src_y << 16) + o[1] + m[3] * clip_x + m[4] * clip_y;
	m[6] = 0;
	m[7] = 0;
	m[8] = MMX_FIXP_ONE;
	return mmx_transform_prepare(t, m, out_w, out_h,
				     MMX_TRANSFORM_EXTENT_MAX);
}

/**
 * mmx_resample_is_copy - whether a plane shows its pixels one to one
 * @g: the plane's geometry
 *
 * Return: true for an unrotated, unreflected, unscaled plane at an integer
 * source position, which the composer blends straight from the
 * framebuffer.
 */
bool mmx_resample_is_copy(const struct mmx_resample_geom *g)
{
	return g->rotation == MMX_ROTATE_0 &&
	       g->src_w == (u64)g->dst_w << 16 &&
	       g->src_h == (u64)g->dst_h << 16 &&
	       !(g->src_x & 0xffff) && !(g->src_y & 0xffff);
}

/*
 * Framebuffer pixels that output rows [v0, v1) may read: the bounding box
 * of their mapped corners with a margin, within the margin around the
 * readable pixels. Return: false if it is empty.
 */
static bool mmx_resample_region(const struct mmx_transform *t,
				const struct mmx_resample_src *src, u32 v0,
				u32 v1, s32 *x1, s32 *y1, s32 *x2, s32 *y2)
{
	s64 lx = S64_MAX, ly = S64_MAX, hx = S64_MIN, hy = S64_MIN;
	struct mmx_fixp x, y;
	int i;

	for (i = 0; i < 4; i++) {
		struct mmx_fixp u = mmx_fixp_from_int(i & 1 ? (s32)t->out_w : 0);
		struct mmx_fixp v = mmx_fixp_from_int((s32)(i & 2 ? v1 : v0));

		if (!mmx_transform_point(t, u, v, &x, &y))
			return false;
		lx = mmx_min(lx, mmx_fixp_floor(x));
		ly = mmx_min(ly, mmx_fixp_floor(y));
		hx = mmx_max(hx, mmx_fixp_ceil(x));
		hy = mmx_max(hy, mmx_fixp_ceil(y));
	}
	lx = mmx_max(lx - MMX_RESAMPLE_MARGIN, src->x1 - MMX_RESAMPLE_MARGIN);
	ly = mmx_max(ly - MMX_RESAMPLE_MARGIN, src->y1 - MMX_RESAMPLE_MARGIN);
	hx = mmx_min(hx + MMX_RESAMPLE_MARGIN, src->x2 + MMX_RESAMPLE_MARGIN);
	hy = mmx_min(hy + MMX_RESAMPLE_MARGIN, src->y2 + MMX_RESAMPLE_MARGIN);
	if (lx >= hx || ly >= hy)
		return false;
	*x1 = (s32)lx;
	*y1 = (s32)ly;
	*x2 = (s32)hx;
	*y2 = (s32)hy;
	return true;
}

/**
 * mmx_resample_scratch_words - scratch memory mmx_resample() needs
 * @t: the plane's transform
 * @src: the plane's pixels
 *
 * Return: the number of words of scratch memory that hold the source
 * pixels of any band of %MMX_RESAMPLE_BAND_ROWS output rows (0 if the
 * plane reads nothing).
 */
size_t mmx_resample_scratch_words(const struct mmx_transform *t,
				  const struct mmx_resample_src *src)
{
	u32 rows = mmx_min(t->out_h, MMX_RESAMPLE_BAND_ROWS);
	s32 x1, y1, x2, y2;
	u64 w, h;

	if (!mmx_resample_region(t, src, 0, rows, &x1, &y1, &x2, &y2))
		return 0;
	/*
	 * Other bands are translates of this one: one pixel larger at most
	 * from the rounding, and one more on each side where the readable
	 * area cut this one (a corner a rounding error beyond its edge).
	 */
	w = mmx_min((s64)(x2 - x1) + 3,
		    (s64)(src->x2 - src->x1) + 2 * MMX_RESAMPLE_MARGIN);
	h = mmx_min((s64)(y2 - y1) + 3,
		    (s64)(src->y2 - src->y1) + 2 * MMX_RESAMPLE_MARGIN);
	return (size_t)(w * h);
}

/* @count pixels of row @y from column @x to ARGB8888, in any format. */
static void mmx_resample_read_pixels(const struct mmx_resample_src *src,
				     s32 x, s32 y, u32 *dst, u32 count)
{
	if (mmx_format_is_yuv(src->format)) {
		mmx_yuv_read_row(&src->yuv, (u32)x, (u32)y, dst, count);
		return;
	}
	mmx_format_read_row(src->format, src->pixels + (size_t)y * src->pitch +
			    (size_t)x * mmx_format_cpp(src->format), dst,
			    count);
}

/* Row @y of the readable pixels, columns [x1, x1 + w), edges repeated. */
static void mmx_resample_read_row(const struct mmx_resample_src *src, s32 y,
				  s32 x1, u32 w, u32 *dst)
{
	s32 lo = mmx_max(x1, src->x1);
	s32 hi = mmx_min(x1 + (s32)w, src->x2);
	u32 i, edge;

	if (lo >= hi) {
		s32 x = x1 + (s32)w <= src->x1 ? src->x1 : src->x2 - 1;

		mmx_resample_read_pixels(src, x, y, &edge, 1);
		for (i = 0; i < w; i++)
			dst[i] = edge;
		return;
	}
	mmx_resample_read_pixels(src, lo, y, dst + (lo - x1), (u32)(hi - lo));
	for (i = 0; i < (u32)(lo - x1); i++)
		dst[i] = dst[lo - x1];
	for (i = (u32)(hi - x1); i < w; i++)
		dst[i] = dst[hi - x1 - 1];
}

/* The region [x1, x2) x [y1, y2) of the source into @screen. */
static void mmx_resample_read(const struct mmx_resample_src *src,
			      s32 x1, s32 y1, s32 x2, s32 y2,
			      struct mmx_frame *screen)
{
	s32 y, sy, prev = S32_MIN;
	u32 w = (u32)(x2 - x1), *dst;

	screen->width = w;
	screen->height = (u32)(y2 - y1);
	screen->stride = w;
	for (y = y1; y < y2; y++) {
		dst = screen->pixels + (size_t)(y - y1) * w;
		sy = (s32)mmx_min(mmx_max(y, src->y1), src->y2 - 1);
		if (sy == prev)
			memcpy(dst, dst - w, w * sizeof(*dst));
		else
			mmx_resample_read_row(src, sy, x1, w, dst);
		prev = sy;
	}
}

/**
 * mmx_resample - resample a plane into an image of its shown part
 * @t: the plane's transform (mmx_resample_prepare())
 * @filter: %MMX_FILTER_NEAREST or %MMX_FILTER_BILINEAR
 * @src: the plane's pixels
 * @out: the image, @t->out_w x @t->out_h ARGB8888 pixels (alpha 0xff for
 *	formats without alpha)
 * @alpha: @t->out_w x @t->out_h words of scratch memory for the alpha pass
 *	(bilinear filter and a format with alpha only; else may be NULL)
 * @scratch: source pixels of a band
 * @scratch_words: size of @scratch, at least mmx_resample_scratch_words()
 *
 * A band whose pixels do not fit @scratch (never with the size above) is
 * left transparent.
 */
void mmx_resample(const struct mmx_transform *t, enum mmx_filter filter,
		  const struct mmx_resample_src *src, struct mmx_frame *out,
		  u32 *alpha, u32 *scratch, size_t scratch_words)
{
	bool alpha_pass = filter == MMX_FILTER_BILINEAR && alpha &&
			  mmx_format_has_alpha(src->format);
	struct mmx_frame alpha_frame = {
		.pixels = alpha, .width = out->width, .height = out->height,
		.stride = out->stride,
	};
	struct mmx_frame screen;
	s32 x1, y1, x2, y2;
	u32 v0, v1, v, i;
	size_t n;

	for (v0 = 0; v0 < t->out_h; v0 = v1) {
		v1 = mmx_min(v0 + MMX_RESAMPLE_BAND_ROWS, t->out_h);
		if (!mmx_resample_region(t, src, v0, v1, &x1, &y1, &x2, &y2) ||
		    (size_t)(x2 - x1) * (size_t)(y2 - y1) > scratch_words) {
			for (v = v0; v < v1; v++)
				memset(out->pixels + (size_t)v * out->stride, 0,
				       t->out_w * sizeof(u32));
			continue;
		}
		screen.pixels = scratch;
		mmx_resample_read(src, x1, y1, x2, y2, &screen);
		mmx_transform_compose(t, filter, &screen, x1, y1, out, v0, v1);
		if (!alpha_pass)
			continue;

		/* Alpha moved into blue: interpolated like a colour. */
		n = (size_t)screen.width * screen.height;
		for (i = 0; i < n; i++)
			scratch[i] = scratch[i] >> 24 | 0xff000000u;
		mmx_transform_compose(t, filter, &screen, x1, y1, &alpha_frame,
				      v0, v1);
		for (v = v0; v < v1; v++) {
			u32 *o = out->pixels + (size_t)v * out->stride;
			const u32 *a = alpha + (size_t)v * out->stride;

			for (i = 0; i < t->out_w; i++)
				o[i] = (o[i] & 0xffffffu) | (a[i] & 0xff) << 24;
		}
	}
}
