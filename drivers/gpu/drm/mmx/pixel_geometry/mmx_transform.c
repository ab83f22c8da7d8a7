// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The CRTC transform's maths: validation and classification of a matrix
 * (the fast path the rasteriser takes, mmx_raster.c), its bounding box and
 * the mapping of points both ways. Integer arithmetic only; built into
 * mmx_core.ko, libmmx, the host unit tests and the benchmark (README).
 */

#include "mmx_transform.h"

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

/* A box in transform space: [x1, x2) x [y1, y2) */
struct mmx_bbox {
	s64 x1, y1, x2, y2;
};

/*
 * The bounding box @b of the output's corners mapped by @m, and the
 * largest w of the corners (*@wmax). -EINVAL when a corner has w <= 0 or
 * w varies more than 2^16 times over the output.
 *
 * |m| < 2^47 and coordinates <= 2^14, so each product is below 2^61 and
 * the sums fit 64 bits.
 */
static int mmx_corners_bbox(const s64 *m, u32 out_w, u32 out_h, bool affine,
			    struct mmx_bbox *b, s64 *wmax)
{
	s64 wmin = S64_MAX;
	int i;

	*b = (struct mmx_bbox){ S64_MAX, S64_MAX, S64_MIN, S64_MIN };
	*wmax = 0;
	for (i = 0; i < 4; i++) {
		s64 cu = (i & 1) ? out_w : 0, cv = (i & 2) ? out_h : 0;
		s64 xh = m[0] * cu + m[1] * cv + m[2];
		s64 yh = m[3] * cu + m[4] * cv + m[5];
		s64 w = m[6] * cu + m[7] * cv + m[8];
		s64 fx, fy, cx, cy;

		if (w <= 0)
			return -EINVAL;
		wmin = w < wmin ? w : wmin;
		*wmax = w > *wmax ? w : *wmax;
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
		b->x1 = fx < b->x1 ? fx : b->x1;
		b->y1 = fy < b->y1 ? fy : b->y1;
		b->x2 = cx > b->x2 ? cx : b->x2;
		b->y2 = cy > b->y2 ? cy : b->y2;
	}
	return wmin < (*wmax >> 16) ? -EINVAL : 0;
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
	struct mmx_bbox box;
	struct mmx_transform tmp;
	s64 wmax, ext;
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
	if (mmx_corners_bbox(m, out_w, out_h, affine, &box, &wmax))
		return -EINVAL;
	if (box.x1 < -ext || box.y1 < -ext || box.x2 > ext || box.y2 > ext ||
	    box.x2 - box.x1 > ext || box.y2 - box.y1 > ext)
		return -EINVAL;

	mmx_transform_init(&tmp, out_w, out_h);
	for (i = 0; i < 9; i++)
		tmp.m[i] = mmx_fixp_from_raw(m[i]);
	tmp.bbox_x = (s32)box.x1;
	tmp.bbox_y = (s32)box.y1;
	tmp.bbox_w = (u32)(box.x2 - box.x1);
	tmp.bbox_h = (u32)(box.y2 - box.y1);
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
