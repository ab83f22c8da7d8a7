// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The CRTC transform: validation, bounding box and the transformed
 * composition of the screen into the CRTC's output. Integer arithmetic
 * only, no DRM include: host tests and the benchmark compile this file as
 * is.
 *
 * Sampling model (RandR and pixman): output pixel (u, v) shows the screen
 * point p = M (u + 1/2, v + 1/2, 1) / w. Screen pixel (i, j) covers
 * [i, i + 1) x [j, j + 1), its centre is at (i + 1/2, j + 1/2).
 *
 * - NEAREST takes screen pixel (ceil(p.x) - 1, ceil(p.y) - 1), which is
 *   pixman's pixman_fixed_to_int(x - pixman_fixed_e).
 * - BILINEAR interpolates the four pixels around p - (1/2, 1/2) with 7-bit
 *   weights (the fraction truncated to 1/128), sums exactly and truncates,
 *   as pixman 0.42's bilinear_interpolation() does: the result is pixman's
 *   bit for bit.
 * - Screen pixels outside the screen image are black (pixman REPEAT_NONE
 *   reads them as transparent; over black that is the same).
 *
 * Precision: affine sample points are exact to 2^-32 pixel (the half-pixel
 * term is rounded half up to that). Projective sample points are quantised
 * as pixman does: the quotient X / W is truncated to 2^-16 pixel; X and W
 * themselves are exact for matrices representable in 16.16 (they are kept
 * scaled so that W < 2^28, i.e. with at least 27 significant bits).
 *
 * Projective division without a division per pixel: along an output row X,
 * Y and W are affine in u, and the quantities the filters need are floors
 * of ratios of two such affine functions, t(u) = floor(N(u) / D(u)). Each
 * is tracked incrementally with its remainder r = N - t D, 0 <= r < D: the
 * next t is predicted with the previous step and corrected by at most one
 * in each direction, branch free (a further correction, needed only when
 * the step changes by more than one unit in one pixel, takes a rarely used
 * loop). The result is the exact floor at every pixel, which is what makes
 * NEAREST match pixman exactly also for projective matrices.
 */

#include "mmx_transform.h"

#define MMX_BLACK	0xff000000u

/* Rows of the screen image, and its size. */
struct mmx_src {
	const u32 *px;
	size_t stride;
	u64 w;
	u64 h;
};

/* 192-bit two's complement accumulator for the determinant. */
struct mmx_acc192 {
	u64 w[3];
};

static void mmx_acc192_add_mul(struct mmx_acc192 *acc, struct mmx_wide a,
			       s64 b)
{
	bool neg = (a.hi < 0) != (b < 0);
	u64 ub = b < 0 ? -(u64)b : (u64)b;
	u64 h0, l0, h1, l1, r0, r1, r2, c;

	if (a.hi < 0)
		a = mmx_wide_neg(a);
	mmx_mul_u64_full(a.lo, ub, &h0, &l0);
	mmx_mul_u64_full((u64)a.hi, ub, &h1, &l1);
	r0 = l0;
	r1 = h0 + l1;
	r2 = h1 + (r1 < h0);
	if (neg) {
		r0 = ~r0 + 1;
		c = !r0;
		r1 = ~r1 + c;
		c = c && !r1;
		r2 = ~r2 + c;
	}
	acc->w[0] += r0;
	c = acc->w[0] < r0;
	acc->w[1] += c;
	r2 += acc->w[1] < c;
	acc->w[1] += r1;
	r2 += acc->w[1] < r1;
	acc->w[2] += r2;
}

/* Sign of the determinant of a 3x3 matrix (raw S31.32 entries), exactly. */
static int mmx_matrix_det_sign(const s64 *m)
{
	struct mmx_wide c0, c1, c2;
	struct mmx_acc192 det = { { 0, 0, 0 } };

	c0 = mmx_wide_sub(mmx_wide_mul(m[4], m[8]), mmx_wide_mul(m[5], m[7]));
	c1 = mmx_wide_sub(mmx_wide_mul(m[5], m[6]), mmx_wide_mul(m[3], m[8]));
	c2 = mmx_wide_sub(mmx_wide_mul(m[3], m[7]), mmx_wide_mul(m[4], m[6]));
	mmx_acc192_add_mul(&det, c0, m[0]);
	mmx_acc192_add_mul(&det, c1, m[1]);
	mmx_acc192_add_mul(&det, c2, m[2]);
	if ((s64)det.w[2] < 0)
		return -1;
	return (det.w[0] || det.w[1] || det.w[2]) ? 1 : 0;
}

static void mmx_transform_init(struct mmx_transform *t, u32 out_w, u32 out_h)
{
	memset(t, 0, sizeof(*t));
	t->m[0] = mmx_fixp_from_int(1);
	t->m[4] = mmx_fixp_from_int(1);
	t->m[8] = mmx_fixp_from_int(1);
	t->out_w = out_w;
	t->out_h = out_h;
}

/**
 * mmx_transform_identity - the identity transform of an output
 * @t: transform to fill
 * @out_w: output width in pixels
 * @out_h: output height in pixels
 *
 * Equivalent to mmx_transform_prepare() with the identity matrix, which
 * cannot fail: the state of a CRTC without a TRANSFORM blob.
 */
void mmx_transform_identity(struct mmx_transform *t, u32 out_w, u32 out_h)
{
	mmx_transform_init(t, out_w, out_h);
	t->kind = MMX_TRANSFORM_IDENTITY;
	t->bbox_w = out_w;
	t->bbox_h = out_h;
	t->ax[1] = 1;
	t->ax[5] = 1;
	t->dxu = MMX_FIXP_ONE;
	t->dyv = MMX_FIXP_ONE;
	t->x0 = MMX_FIXP_HALF;
	t->y0 = MMX_FIXP_HALF;
}

static bool mmx_is_unit(s64 v)
{
	return v == 0 || v == MMX_FIXP_ONE || v == -MMX_FIXP_ONE;
}

/* Sign of a unit entry: -1, 0 or 1. */
static s32 mmx_unit_sign(s64 v)
{
	return v > 0 ? 1 : v < 0 ? -1 : 0;
}

static void mmx_classify_affine(struct mmx_transform *t, const s64 *m)
{
	bool units = mmx_is_unit(m[0]) && mmx_is_unit(m[1]) &&
		     mmx_is_unit(m[3]) && mmx_is_unit(m[4]);
	bool perm = units && (!m[0]) == (!m[4]) && (!m[1]) == (!m[3]) &&
		    (!m[0]) != (!m[1]);

	/*
	 * Centre of output pixel (0, 0): m0 / 2 + m1 / 2 + m2, rounded half
	 * up to 2^-32; one column (row) further adds m0 (m1) exactly.
	 */
	t->x0 = ((m[0] + m[1] + 1) >> 1) + m[2];
	t->y0 = ((m[3] + m[4] + 1) >> 1) + m[5];
	t->dxu = m[0];
	t->dxv = m[1];
	t->dyu = m[3];
	t->dyv = m[4];

	if (!perm || !mmx_fixp_is_int(t->m[2]) || !mmx_fixp_is_int(t->m[5])) {
		t->kind = MMX_TRANSFORM_AFFINE;
		return;
	}
	/* Pixel centres map to pixel centres: x = k + 1/2 shows pixel k. */
	t->ax[0] = (s32)(t->x0 >> MMX_FIXP_SHIFT);
	t->ax[1] = mmx_unit_sign(m[0]);
	t->ax[2] = mmx_unit_sign(m[1]);
	t->ax[3] = (s32)(t->y0 >> MMX_FIXP_SHIFT);
	t->ax[4] = mmx_unit_sign(m[3]);
	t->ax[5] = mmx_unit_sign(m[4]);
	if (t->ax[1] == 1 && t->ax[5] == 1)
		t->kind = (m[2] || m[5]) ? MMX_TRANSFORM_TRANSLATE :
					   MMX_TRANSFORM_IDENTITY;
	else
		t->kind = MMX_TRANSFORM_AXIS;
}

/* Round half up of v * 2^e, for e in [-62, 62], no overflow by contract. */
static s64 mmx_scale_pow2(s64 v, int e)
{
	if (e >= 0)
		return v * ((s64)1 << e);
	return ((v >> (-e - 1)) + 1) >> 1;
}

/*
 * Projective set-up. The homogeneous coordinates of the centre of output
 * pixel (u, v), times 2^33 (so that the half-pixel terms are integers), are
 *	H(u, v) = m_0 (2u + 1) + m_1 (2v + 1) + 2 m_2
 * per row of the matrix. All three are scaled by one power of two 2^e (the
 * sample point X / W, Y / W does not change) so that W < 2^28 on the
 * output: c_j = m_j 2^e, rounded half up when e < 0, which only loses bits
 * for matrices that are not 16.16 or whose w exceeds 2^11.
 *
 * Bounds (why nothing overflows per pixel): after the bounding-box check
 * |X / W| <= 2^15, hence |X| <= 2^43 and every per-pixel increment is
 * below 2^45 (see mmx_proj_row()).
 */
static int mmx_setup_projective(struct mmx_transform *t, const s64 *m,
				s64 wmax)
{
	int bits = 64 - __builtin_clzll((u64)wmax), e = 27 - bits, i;
	s64 c[9], w;

	for (i = 0; i < 9; i++)
		c[i] = mmx_scale_pow2(m[i], e);
	for (i = 0; i < 3; i++) {
		t->h0[i] = c[3 * i] + c[3 * i + 1] + 2 * c[3 * i + 2];
		t->hu[i] = 2 * c[3 * i];
		t->hv[i] = 2 * c[3 * i + 1];
	}
	/* W at the four corners of the output rectangle, after rounding. */
	for (i = 0; i < 4; i++) {
		w = 2 * c[8] + ((i & 1) ? 2 * (s64)t->out_w * c[6] : 0) +
		    ((i & 2) ? 2 * (s64)t->out_h * c[7] : 0);
		if (w <= 0)
			return -EINVAL;
	}
	t->kind = MMX_TRANSFORM_PROJECTIVE;
	return 0;
}

/**
 * mmx_transform_prepare - validate and decode a CRTC transform
 * @t: transform to fill; untouched on error
 * @m: the matrix, row-major, S31.32 two's complement (RandR's XFixed is two's
 *	complement too): output pixel centre (u + 1/2, v + 1/2) shows the screen
 *	point M (u + 1/2, v + 1/2, 1) divided by its w
 * @out_w: output (CRTC mode) width, 1..%MMX_TRANSFORM_OUT_MAX
 * @out_h: output height, 1..%MMX_TRANSFORM_OUT_MAX
 * @max_extent: largest screen size and coordinate the transformed output may
 *	reach (at most %MMX_TRANSFORM_EXTENT_MAX, larger values mean that)
 *
 * Refuses a matrix with an entry of magnitude 2^15 or more (beyond RandR's
 * 16.16), a singular matrix (exact test), a projective matrix whose w is not
 * positive on the whole output rectangle with margin (w at the four corners
 * (0, 0), (out_w, 0), (0, out_h), (out_w, out_h) must be positive and at
 * least 1/65536 of the largest of them, so that the line at infinity stays
 * far away), and a transformed rectangle whose bounding box is wider or
 * taller than @max_extent or reaches a coordinate beyond +-@max_extent.
 *
 * The bounding box is the one RandR's GetCrtcInfo reports: M applied to the
 * four corners, exactly, rounded outwards to integers.
 *
 * Return: 0, or -EINVAL with @t untouched.
 */
int mmx_transform_prepare(struct mmx_transform *t, const s64 m[9],
			  u32 out_w, u32 out_h, u32 max_extent)
{
	s64 x1 = S64_MAX, y1 = S64_MAX, x2 = S64_MIN, y2 = S64_MIN;
	s64 wmin = S64_MAX, wmax = 0, ext;
	struct mmx_transform tmp;
	bool affine;
	int i;

	if (!out_w || !out_h || out_w > MMX_TRANSFORM_OUT_MAX ||
	    out_h > MMX_TRANSFORM_OUT_MAX)
		return -EINVAL;
	for (i = 0; i < 9; i++)
		if (m[i] >= MMX_TRANSFORM_ENTRY_MAX ||
		    m[i] <= -MMX_TRANSFORM_ENTRY_MAX)
			return -EINVAL;
	if (!mmx_matrix_det_sign(m))
		return -EINVAL;
	ext = max_extent < MMX_TRANSFORM_EXTENT_MAX ? max_extent :
						      MMX_TRANSFORM_EXTENT_MAX;
	affine = !m[6] && !m[7] && m[8] == MMX_FIXP_ONE;

	/*
	 * Corners. |m| < 2^47 and coordinates <= 2^14, so each product is below
	 * 2^61 and the sums fit 64 bits.
	 */
	for (i = 0; i < 4; i++) {
		s64 cu = (i & 1) ? out_w : 0, cv = (i & 2) ? out_h : 0;
		s64 xh = m[0] * cu + m[1] * cv + m[2];
		s64 yh = m[3] * cu + m[4] * cv + m[5];
		s64 w = m[6] * cu + m[7] * cv + m[8];
		s64 fx, fy, cx, cy;

		if (w <= 0)
			return -EINVAL;
		wmin = w < wmin ? w : wmin;
		wmax = w > wmax ? w : wmax;
		if (affine) {
			fx = xh >> MMX_FIXP_SHIFT;
			fy = yh >> MMX_FIXP_SHIFT;
			cx = mmx_fixp_ceil(mmx_fixp_from_raw(xh));
			cy = mmx_fixp_ceil(mmx_fixp_from_raw(yh));
		} else {
			fx = mmx_div_floor(xh, w);
			fy = mmx_div_floor(yh, w);
			cx = -mmx_div_floor(-xh, w);
			cy = -mmx_div_floor(-yh, w);
		}
		x1 = fx < x1 ? fx : x1;
		y1 = fy < y1 ? fy : y1;
		x2 = cx > x2 ? cx : x2;
		y2 = cy > y2 ? cy : y2;
	}
	if (wmin < (wmax >> 16))
		return -EINVAL;
	if (x1 < -ext || y1 < -ext || x2 > ext || y2 > ext ||
	    x2 - x1 > ext || y2 - y1 > ext)
		return -EINVAL;

	mmx_transform_init(&tmp, out_w, out_h);
	for (i = 0; i < 9; i++)
		tmp.m[i] = mmx_fixp_from_raw(m[i]);
	tmp.bbox_x = (s32)x1;
	tmp.bbox_y = (s32)y1;
	tmp.bbox_w = (u32)(x2 - x1);
	tmp.bbox_h = (u32)(y2 - y1);
	if (affine)
		mmx_classify_affine(&tmp, m);
	else if (mmx_setup_projective(&tmp, m, wmax))
		return -EINVAL;
	*t = tmp;
	return 0;
}

/**
 * mmx_transform_bbox - bounding box of the transformed output
 * @t: a prepared transform
 * @x: left, in transform (screen) coordinates relative to the CRTC's
 *	scanout offset
 * @y: top
 * @w: width
 * @h: height
 *
 * The screen area the CRTC shows is this box moved by the CRTC's scanout
 * offset; its size is what RandR's GetCrtcInfo reports as the CRTC's size.
 */
void mmx_transform_bbox(const struct mmx_transform *t, s32 *x, s32 *y,
			u32 *w, u32 *h)
{
	*x = t->bbox_x;
	*y = t->bbox_y;
	*w = t->bbox_w;
	*h = t->bbox_h;
}

/**
 * mmx_transform_point - map a point of the output to the screen
 * @t: a prepared transform
 * @u: output x (not a pixel index: pixel centres are at + 1/2)
 * @v: output y
 * @x: screen x of M (u, v, 1) / w, rounded down to 2^-32
 * @y: screen y, likewise
 *
 * Return: false when w <= 0 at that point or the result does not fit (the
 * outputs are then unspecified).
 */
bool mmx_transform_point(const struct mmx_transform *t, struct mmx_fixp u,
			 struct mmx_fixp v, struct mmx_fixp *x,
			 struct mmx_fixp *y)
{
	struct mmx_wide h[3];
	int i;

	for (i = 0; i < 3; i++) {
		h[i] = mmx_wide_add(mmx_wide_mul(t->m[3 * i].v, u.v),
				    mmx_wide_mul(t->m[3 * i + 1].v, v.v));
		h[i] = mmx_wide_add(h[i], mmx_wide_mul(t->m[3 * i + 2].v,
						       MMX_FIXP_ONE));
	}
	if (mmx_wide_sign(h[2]) <= 0)
		return false;
	x->v = mmx_wide_div_wide_floor(h[0], h[2], MMX_FIXP_SHIFT);
	y->v = mmx_wide_div_wide_floor(h[1], h[2], MMX_FIXP_SHIFT);
	return x->v != S64_MIN && x->v != S64_MAX &&
	       y->v != S64_MIN && y->v != S64_MAX;
}

/**
 * mmx_transform_point_inverse - map a screen point back to the output
 * @t: a prepared transform
 * @x: screen x
 * @y: screen y
 * @u: output x of M^-1 (x, y, 1), rounded down to 2^-32
 * @v: output y, likewise
 *
 * Uses the adjugate of M (M^-1 up to the factor 1 / det), reduced to 62 bits
 * per entry when larger: exact for 16.16 matrices of moderate size, else to
 * about 2^-60 relative.
 *
 * Return: false when the screen point is not the image of any point with
 * w > 0 (it lies beyond the line at infinity) or the result does not fit.
 */
bool mmx_transform_point_inverse(const struct mmx_transform *t,
				 struct mmx_fixp x, struct mmx_fixp y,
				 struct mmx_fixp *u, struct mmx_fixp *v)
{
	static const u8 r1[3] = { 1, 2, 0 }, r2[3] = { 2, 0, 1 };
	struct mmx_wide adj[9], p[3];
	unsigned int bits = 0, k;
	s64 a[9], raw[9];
	int i, j, sign;

	/* adj[j][i] = cofactor of m[i][j] */
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++) {
			const struct mmx_fixp *ma = &t->m[3 * r1[i]];
			const struct mmx_fixp *mb = &t->m[3 * r2[i]];

			adj[3 * j + i] =
				mmx_wide_sub(mmx_wide_mul(ma[r1[j]].v,
							  mb[r2[j]].v),
					     mmx_wide_mul(ma[r2[j]].v,
							  mb[r1[j]].v));
			k = mmx_wide_bits(adj[3 * j + i]);
			bits = k > bits ? k : bits;
		}
	}
	k = bits > 62 ? bits - 62 : 0;
	for (i = 0; i < 9; i++) {
		a[i] = (s64)mmx_wide_shr(adj[i], k).lo;
		raw[i] = t->m[i].v;
	}
	/* adj = det M^-1: its w has the sign of det for points in front */
	sign = mmx_matrix_det_sign(raw);
	for (i = 0; i < 3; i++) {
		p[i] = mmx_wide_add(mmx_wide_mul(a[3 * i], x.v),
				    mmx_wide_mul(a[3 * i + 1], y.v));
		p[i] = mmx_wide_add(p[i], mmx_wide_mul(a[3 * i + 2],
						       MMX_FIXP_ONE));
		if (sign < 0)
			p[i] = mmx_wide_neg(p[i]);
	}
	if (mmx_wide_sign(p[2]) <= 0)
		return false;
	u->v = mmx_wide_div_wide_floor(p[0], p[2], MMX_FIXP_SHIFT);
	v->v = mmx_wide_div_wide_floor(p[1], p[2], MMX_FIXP_SHIFT);
	return u->v != S64_MIN && u->v != S64_MAX &&
	       v->v != S64_MIN && v->v != S64_MAX;
}

/* Composition */

static void mmx_fill_black(u32 *dst, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = MMX_BLACK;
}

/*
 * Bilinear interpolation. The three channels of a pixel are spread into the
 * 16-bit lanes of a u64 (blue, red, green at bits 0, 16, 32), and each
 * linear interpolation a + (b - a) w / 128 is one multiply for all three
 * channels: the lanes cannot disturb each other because every lane's true
 * result lies in [0, 255] and a lane's fraction plus what the lanes below
 * contribute stays under one unit. Each interpolation is an exact floor
 * (floor((a (128 - w) + b w) / 128)); horizontal then vertical, the result
 * is pixman's (exact sum of the four weighted pixels, truncated) or one
 * below it.
 */
#define MMX_LANES	0x000000ff00ff00ffull

static __always_inline u64 mmx_spread(u32 p)
{
	return ((u64)p | (u64)p << 24) & MMX_LANES;
}

static __always_inline u64 mmx_lerp(u64 a, u64 b, u32 w)
{
	return (a + (((b - a) * w) >> 7)) & MMX_LANES;
}

static __always_inline u32 mmx_bilerp(u32 tl, u32 tr, u32 bl, u32 br,
				      u32 wx, u32 wy)
{
	u64 a = mmx_spread(tl), b = mmx_spread(tr);
	u64 c = mmx_spread(bl), d = mmx_spread(br);
	u64 v = mmx_lerp(mmx_lerp(a, b, wx), mmx_lerp(c, d, wx), wy);

	return (u32)(v | v >> 24) | MMX_BLACK;
}

static __always_inline u32 mmx_src_get(const struct mmx_src *s, s64 x, s64 y)
{
	if ((u64)x < s->w && (u64)y < s->h)
		return s->px[(size_t)y * s->stride + (size_t)x];
	return 0;
}

/* Bilinear sample whose 2x2 footprint may cross the screen's edge. */
static u32 mmx_bilinear_edge(const struct mmx_src *s, s64 xi, s64 yi,
			     u32 wx, u32 wy)
{
	if (xi < -1 || yi < -1 || xi >= (s64)s->w || yi >= (s64)s->h)
		return MMX_BLACK;
	return mmx_bilerp(mmx_src_get(s, xi, yi), mmx_src_get(s, xi + 1, yi),
			  mmx_src_get(s, xi, yi + 1),
			  mmx_src_get(s, xi + 1, yi + 1), wx, wy);
}

/* Bilinear sample whose footprint is inside the screen. */
static __always_inline u32 mmx_bilinear_in(const u32 *px, size_t stride,
					   s64 xi, s64 yi, u32 wx, u32 wy)
{
	const u32 *p = px + (size_t)yi * stride + (size_t)xi;

	return mmx_bilerp(p[0], p[1], p[stride], p[stride + 1], wx, wy);
}

static __always_inline u32 mmx_bilinear(const struct mmx_src *s, s64 xi,
					s64 yi, u32 wx, u32 wy)
{
	if (unlikely((u64)xi >= s->w - 1 || (u64)yi >= s->h - 1))
		return mmx_bilinear_edge(s, xi, yi, wx, wy);
	return mmx_bilinear_in(s->px, s->stride, xi, yi, wx, wy);
}

static __always_inline u32 mmx_nearest(const struct mmx_src *s, s64 xi, s64 yi)
{
	if ((u64)xi < s->w && (u64)yi < s->h)
		return s->px[(size_t)yi * s->stride + (size_t)xi];
	return MMX_BLACK;
}

/* ceil(a / b), b > 0 */
static s64 mmx_div_ceil(s64 a, s64 b)
{
	return -mmx_div_floor(-a, b);
}

/*
 * Narrow [*lo, *hi) to the k with 0 <= x + k dx < lim (lim > 0), exactly:
 * x + k dx is what the row loop computes by repeated addition. An empty
 * result is [0, 0).
 */
static void mmx_span(s64 x, s64 dx, s64 lim, s64 *lo, s64 *hi)
{
	s64 l, h;

	if (!dx) {
		if (x < 0 || x >= lim) {
			*lo = 0;
			*hi = 0;
		}
		return;
	}
	if (dx > 0) {
		l = mmx_div_ceil(-x, dx);
		h = mmx_div_ceil(lim - x, dx);
	} else {
		l = mmx_div_floor(x - lim, -dx) + 1;
		h = mmx_div_floor(x, -dx) + 1;
	}
	*lo = l > *lo ? l : *lo;
	*hi = h < *hi ? h : *hi;
	if (*hi <= *lo) {
		*lo = 0;
		*hi = 0;
	}
}

/*
 * Affine rows: x and y in 2^-32 pixels, already offset so that the pixel
 * index is x >> 32 (nearest: x - 2^-32; bilinear: x - 1/2, whose bits
 * 25..31 are the weight). The columns whose samples are inside the screen
 * are found per row by division, so the inner loops test nothing.
 */
static void mmx_affine_row_nearest(u32 *dst, u32 n, s64 x, s64 y, s64 dx,
				   s64 dy, const struct mmx_src *s)
{
	const u32 *px = s->px;
	size_t stride = s->stride;
	s64 lo = 0, hi = n, i;

	mmx_span(x, dx, (s64)s->w << 32, &lo, &hi);
	mmx_span(y, dy, (s64)s->h << 32, &lo, &hi);
	mmx_fill_black(dst, (u32)lo);
	x += lo * dx;
	y += lo * dy;
	for (i = lo; i < hi; i++, x += dx, y += dy)
		dst[i] = px[(size_t)(y >> 32) * stride + (size_t)(x >> 32)];
	mmx_fill_black(dst + hi, n - (u32)hi);
}

static void mmx_affine_row_bilinear(u32 *dst, u32 n, s64 x, s64 y, s64 dx,
				    s64 dy, const struct mmx_src *s)
{
	const u32 *px = s->px;
	size_t stride = s->stride;
	s64 lo = 0, hi = n, i;

	if (s->w > 1 && s->h > 1) {
		mmx_span(x, dx, (s64)(s->w - 1) << 32, &lo, &hi);
		mmx_span(y, dy, (s64)(s->h - 1) << 32, &lo, &hi);
	} else {
		hi = 0;
	}
	for (i = 0; i < lo; i++, x += dx, y += dy)
		dst[i] = mmx_bilinear_edge(s, x >> 32, y >> 32,
					   (u32)x >> 25, (u32)y >> 25);
	for (; i < hi; i++, x += dx, y += dy)
		dst[i] = mmx_bilinear_in(px, stride, x >> 32, y >> 32,
					 (u32)x >> 25, (u32)y >> 25);
	for (; i < n; i++, x += dx, y += dy)
		dst[i] = mmx_bilinear_edge(s, x >> 32, y >> 32,
					   (u32)x >> 25, (u32)y >> 25);
}

static void mmx_compose_affine(const struct mmx_transform *t,
			       enum mmx_filter filter, const struct mmx_src *s,
			       s32 sx, s32 sy, struct mmx_frame *out,
			       u32 row_begin, u32 row_end)
{
	s64 bias = filter == MMX_FILTER_BILINEAR ? MMX_FIXP_HALF : 1;
	s64 x = t->x0 - (s64)sx * MMX_FIXP_ONE - bias;
	s64 y = t->y0 - (s64)sy * MMX_FIXP_ONE - bias;
	u32 v;

	x += (s64)row_begin * t->dxv;
	y += (s64)row_begin * t->dyv;
	for (v = row_begin; v < row_end; v++, x += t->dxv, y += t->dyv) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		if (filter == MMX_FILTER_BILINEAR)
			mmx_affine_row_bilinear(dst, t->out_w, x, y, t->dxu,
						t->dyu, s);
		else
			mmx_affine_row_nearest(dst, t->out_w, x, y, t->dxu,
					       t->dyu, s);
	}
}

/*
 * Exact incremental floor division: t = floor(N / D) with r = N - t D in
 * [0, D), N and D advancing by dn and dd per pixel, s the last step of t.
 */
struct mmx_dda {
	s64 t;
	s64 r;
	s64 s;
	s64 dn;
};

static void mmx_dda_init(struct mmx_dda *q, s64 n, s64 d, s64 dn, s64 dd)
{
	s64 t1 = mmx_div_floor(n + dn, d + dd);

	q->t = mmx_div_floor(n, d);
	q->r = n - q->t * d;
	q->s = t1 - q->t;
	q->dn = dn;
}

static void mmx_dda_fix(struct mmx_dda *q, s64 e, s64 d)
{
	s64 k = mmx_div_floor(e, d);

	q->t += k;
	q->r = e - k * d;
}

/* Advance to the next pixel, whose denominator is d (= old d + dd). */
static __always_inline void mmx_dda_step(struct mmx_dda *q, s64 d, s64 dd)
{
	s64 t = q->t + q->s;
	s64 e = q->r + q->dn - q->t * dd - q->s * d;
	s64 m;

	m = e >> 63;			/* -1 when e < 0 */
	e += d & m;
	t += m;
	m = ~((e - d) >> 63);		/* -1 when e >= d */
	e -= d & m;
	t -= m;
	q->s = t - q->t;
	q->t = t;
	q->r = e;
	if (unlikely((u64)e >= (u64)d)) {
		mmx_dda_fix(q, e, d);
		q->s = q->t - (t - q->s);
	}
}

/*
 * One projective row. With X, Y, W the scaled homogeneous coordinates at the
 * row's first pixel (X, Y already relative to the screen image) and
 * x = X / W quantised to x16 = floor(2^16 x) like pixman:
 * - NEAREST needs floor((x16 - 1) / 2^16) = floor((2^16 X - W) / (2^16 W));
 * - BILINEAR needs floor((x16 - 2^15) / 2^9)
 *   = floor((2^16 X - 2^15 W) / (2^9 W)): the pixel index times 128 plus the
 *   7-bit weight.
 * (floor((floor(a) - k) / m) = floor((a - k) / m) for integers k, m > 0.)
 * Magnitudes: |X| <= 2^16 W (2^15 of screen plus 2^15 of screen offset),
 * W < 2^28 + 2^17, so |N| < 2^61, D < 2^45, the quotients stay below 2^25
 * (bilinear) or 2^17 (nearest), and every product in mmx_dda_step() is
 * below 2^62.
 */
static __always_inline void mmx_proj_row(u32 *dst, u32 n, const s64 *h,
					 const s64 *hu, bool bilinear,
					 bool const_w,
					 const struct mmx_src *s)
{
	int sh = bilinear ? 9 : 16;
	s64 bias = bilinear ? (s64)1 << 15 : 1;
	s64 d = h[2] * ((s64)1 << sh), dd = hu[2] * ((s64)1 << sh);
	struct mmx_dda qx, qy;
	u32 i;

	mmx_dda_init(&qx, h[0] * 65536 - bias * h[2], d,
		     hu[0] * 65536 - bias * hu[2], dd);
	mmx_dda_init(&qy, h[1] * 65536 - bias * h[2], d,
		     hu[1] * 65536 - bias * hu[2], dd);
	if (const_w)
		dd = 0;
	for (i = 0; i < n; i++) {
		if (bilinear)
			dst[i] = mmx_bilinear(s, qx.t >> 7, qy.t >> 7,
					      (u32)qx.t & 127,
					      (u32)qy.t & 127);
		else
			dst[i] = mmx_nearest(s, qx.t, qy.t);
		d += dd;
		mmx_dda_step(&qx, d, dd);
		mmx_dda_step(&qy, d, dd);
	}
}

static void mmx_compose_projective(const struct mmx_transform *t,
				   enum mmx_filter filter,
				   const struct mmx_src *s, s32 sx, s32 sy,
				   struct mmx_frame *out, u32 row_begin,
				   u32 row_end)
{
	bool bilinear = filter == MMX_FILTER_BILINEAR;
	bool const_w = t->hu[2] == 0;
	s64 h[3], hu[3];
	u32 v;
	int i;

	/* Screen offset: x - sx = (X - sx W) / W. */
	hu[0] = t->hu[0] - (s64)sx * t->hu[2];
	hu[1] = t->hu[1] - (s64)sy * t->hu[2];
	hu[2] = t->hu[2];
	for (v = row_begin; v < row_end; v++) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		for (i = 0; i < 3; i++)
			h[i] = t->h0[i] + (s64)v * t->hv[i];
		h[0] -= (s64)sx * h[2];
		h[1] -= (s64)sy * h[2];
		if (bilinear && const_w)
			mmx_proj_row(dst, t->out_w, h, hu, true, true, s);
		else if (bilinear)
			mmx_proj_row(dst, t->out_w, h, hu, true, false, s);
		else if (const_w)
			mmx_proj_row(dst, t->out_w, h, hu, false, true, s);
		else
			mmx_proj_row(dst, t->out_w, h, hu, false, false, s);
	}
}

/*
 * Rotations by multiples of 90 degrees and reflections: output pixel (u, v)
 * shows screen pixel (x0 + xu u + xv v, y0 + yu u + yv v).
 */

/* Reversed copy: dst[i] = src[-i]. */
static void mmx_copy_reversed(u32 *dst, const u32 *src, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = src[-(ptrdiff_t)i];
}

/* Output range [lo, hi) of k in [0, n) with 0 <= a + b k < lim (b = +-1). */
static void mmx_axis_range(s64 a, s32 b, u64 lim, u32 n, u32 *lo, u32 *hi)
{
	s64 l, h;

	if (b > 0) {
		l = -a;
		h = (s64)lim - a;
	} else {
		l = a - (s64)lim + 1;
		h = a + 1;
	}
	l = l < 0 ? 0 : l;
	h = h > (s64)n ? (s64)n : h;
	if (l >= h) {
		*lo = 0;
		*hi = 0;
	} else {
		*lo = (u32)l;
		*hi = (u32)h;
	}
}

#define MMX_TILE_V	16
#define MMX_TILE_U	64

/*
 * Transpose-like copy of the output rectangle [u0, u1) x [v0, v1):
 * dst(u, v) = src(x0 + xv v, y0 + yu u), in tiles so that the source rows
 * and destination rows a tile touches stay in the L1 cache. Two output rows
 * and two output columns at a time.
 */
static void mmx_axis_transpose(const struct mmx_src *s, s64 x0, s32 xv,
			       s64 y0, s32 yu, struct mmx_frame *out,
			       u32 u0, u32 u1, u32 v0, u32 v1)
{
	ptrdiff_t ustep = yu * (ptrdiff_t)s->stride;
	u32 vt, ut, v, u, vend, uend;

	for (vt = v0; vt < v1; vt += MMX_TILE_V) {
		vend = vt + MMX_TILE_V < v1 ? vt + MMX_TILE_V : v1;
		for (ut = u0; ut < u1; ut += MMX_TILE_U) {
			uend = ut + MMX_TILE_U < u1 ? ut + MMX_TILE_U : u1;
			for (v = vt; v < vend; v += 2) {
				u32 *d0 = out->pixels + (size_t)v * out->stride;
				u32 *d1 = d0 + out->stride;
				const u32 *p = s->px +
					(y0 + (s64)yu * ut) * (ptrdiff_t)s->stride +
					x0 + (s64)xv * v;

				if (v + 1 == vend) {
					for (u = ut; u < uend; u++, p += ustep)
						d0[u] = p[0];
					continue;
				}
				for (u = ut; u + 1 < uend; u += 2) {
					u32 a0 = p[0], a1 = p[xv];
					u32 b0 = p[ustep], b1 = p[ustep + xv];

					d0[u] = a0;
					d0[u + 1] = b0;
					d1[u] = a1;
					d1[u + 1] = b1;
					p += 2 * ustep;
				}
				if (u < uend) {
					d0[u] = p[0];
					d1[u] = p[xv];
				}
			}
		}
	}
}

static void mmx_compose_axis(const struct mmx_transform *t,
			     const struct mmx_src *s, s32 sx, s32 sy,
			     struct mmx_frame *out, u32 row_begin, u32 row_end)
{
	s64 x0 = (s64)t->ax[0] - sx, y0 = (s64)t->ax[3] - sy;
	s32 xu = t->ax[1], xv = t->ax[2], yu = t->ax[4], yv = t->ax[5];
	u32 v, lo, hi, vlo, vhi;

	if (!xv) {
		/* Output rows are screen rows, possibly reversed. */
		mmx_axis_range(x0, xu, s->w, t->out_w, &lo, &hi);
		for (v = row_begin; v < row_end; v++) {
			u32 *dst = out->pixels + (size_t)v * out->stride;
			s64 ys = y0 + (s64)yv * v;
			const u32 *src;

			if ((u64)ys >= s->h || lo == hi) {
				mmx_fill_black(dst, t->out_w);
				continue;
			}
			src = s->px + (size_t)ys * s->stride;
			mmx_fill_black(dst, lo);
			if (xu > 0)
				memcpy(dst + lo, src + x0 + lo,
				       (size_t)(hi - lo) * sizeof(u32));
			else
				mmx_copy_reversed(dst + lo, src + x0 - lo,
						  hi - lo);
			mmx_fill_black(dst + hi, t->out_w - hi);
		}
		return;
	}

	/* Output rows are screen columns: x from v, y from u. */
	mmx_axis_range(y0, yu, s->h, t->out_w, &lo, &hi);
	mmx_axis_range(x0, xv, s->w, t->out_h, &vlo, &vhi);
	vlo = vlo > row_begin ? vlo : row_begin;
	vhi = vhi < row_end ? vhi : row_end;
	if (lo == hi || vlo >= vhi) {
		vlo = row_end;
		vhi = row_end;
	}
	for (v = row_begin; v < row_end; v++) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		if (v < vlo || v >= vhi) {
			mmx_fill_black(dst, t->out_w);
		} else {
			mmx_fill_black(dst, lo);
			mmx_fill_black(dst + hi, t->out_w - hi);
		}
	}
	if (vlo < vhi)
		mmx_axis_transpose(s, x0, xv, y0, yu, out, lo, hi, vlo, vhi);
}

/**
 * mmx_transform_compose - fill output rows with the transformed screen
 * @t: a prepared transform
 * @filter: sampling filter
 * @screen: the screen image: the blended planes in screen (pre-transform)
 *	space, pixels 0xffRRGGBB
 * @screen_x: transform-space x of @screen's top-left pixel. The sample point
 *	p = M (u + 1/2, v + 1/2, 1) / w lies in transform space, which is
 *	screen space minus the CRTC's scanout offset (x, y): a caller that
 *	blends the screen area starting at screen point (x + a, y + b) into
 *	@screen passes (a, b); usually the bounding box origin
 *	(bbox_x, bbox_y), with @screen the size of the bounding box.
 *	|@screen_x| and |@screen_y| must not exceed
 *	%MMX_TRANSFORM_EXTENT_MAX, else the rows are black.
 * @screen_y: transform-space y of @screen's top-left pixel
 * @out: the output, @t->out_w x @t->out_h
 * @row_begin: first row to fill
 * @row_end: row after the last one to fill (at most @t->out_h)
 *
 * Output pixel (u, v) samples @screen at p - (@screen_x, @screen_y); pixels
 * outside @screen are black. Rows are independent: disjoint row ranges can
 * be composed concurrently. Copy paths (integer translations, 90-degree
 * rotations, reflections) and NEAREST copy screen pixels as they are,
 * BILINEAR writes 0xffRRGGBB.
 */
void mmx_transform_compose(const struct mmx_transform *t,
			   enum mmx_filter filter,
			   const struct mmx_frame *screen,
			   s32 screen_x, s32 screen_y, struct mmx_frame *out,
			   u32 row_begin, u32 row_end)
{
	struct mmx_src s = {
		.px = screen->pixels,
		.stride = screen->stride,
		.w = screen->width,
		.h = screen->height,
	};
	s64 lim = MMX_TRANSFORM_EXTENT_MAX;
	u32 v;

	if (row_end > t->out_h)
		row_end = t->out_h;
	if (row_begin >= row_end)
		return;
	if (!s.w || !s.h || screen_x > lim || screen_x < -lim ||
	    screen_y > lim || screen_y < -lim) {
		for (v = row_begin; v < row_end; v++)
			mmx_fill_black(out->pixels + (size_t)v * out->stride,
				       t->out_w);
		return;
	}

	switch (t->kind) {
	case MMX_TRANSFORM_IDENTITY:
	case MMX_TRANSFORM_TRANSLATE:
	case MMX_TRANSFORM_AXIS:
		mmx_compose_axis(t, &s, screen_x, screen_y, out, row_begin,
				 row_end);
		break;
	case MMX_TRANSFORM_AFFINE:
		mmx_compose_affine(t, filter, &s, screen_x, screen_y, out,
				   row_begin, row_end);
		break;
	case MMX_TRANSFORM_PROJECTIVE:
	default:
		mmx_compose_projective(t, filter, &s, screen_x, screen_y, out,
				       row_begin, row_end);
		break;
	}
}
