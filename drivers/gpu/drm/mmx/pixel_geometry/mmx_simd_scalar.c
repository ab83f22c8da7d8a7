// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The compositor's inner loops in plain C: the reference the SIMD ones
 * (mmx_simd_impl.h) are tested against, and the only implementation
 * outside x86-64.
 */

#include "mmx_simd.h"

/* Source rows read ahead by the transposing copy. */
#define MMX_PREFETCH_ROWS	12

/* Reversed copy: dst[i] = src[-i], two pixels per 64-bit access. */
static void mmx_scalar_copy_reversed(u32 *dst, const u32 *src, u32 n)
{
	u32 i = 0;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	for (; i + 1 < n; i += 2) {
		u64 v = mmx_ld64(src - (ptrdiff_t)i - 1);

		mmx_st64(dst + i, v << 32 | v >> 32);
	}
#endif
	mmx_copy_reversed_ref(dst, src, i, n);
}

/*
 * Eight output rows of the transposing copy (mmx_raster.c): for each pair
 * of output columns, two source rows give eight pixel pairs (64-bit loads),
 * which become two 64-bit stores in each of the eight output rows.
 */
static void mmx_scalar_transpose_band(const u32 *p, s32 xv, ptrdiff_t ustep,
				      u32 *d, size_t dstride, u32 u0, u32 u1)
{
	const u64 lo = 0xffffffffull, hi = ~lo;
	u32 u;
	int k;

	for (u = u0; u + 1 < u1; u += 2, p += 2 * ustep) {
		__builtin_prefetch(p + MMX_PREFETCH_ROWS * ustep);
		__builtin_prefetch(p + (MMX_PREFETCH_ROWS + 1) * ustep);
		for (k = 0; k < MMX_SIMD_TBAND / 2; k++) {
			/*
			 * a: two adjacent source pixels of output column u, in
			 * memory order; b: the same of column u + 1
			 */
			u64 a = mmx_ld64(p + 2 * k), b = mmx_ld64(p + ustep + 2 * k);
			u32 *d0, *d1;

			if (xv > 0) {
				d0 = d + (size_t)(2 * k) * dstride + u;
				d1 = d0 + dstride;
			} else {
				d1 = d + (size_t)(MMX_SIMD_TBAND - 2 - 2 * k) * dstride + u;
				d0 = d1 + dstride;
			}
			mmx_st64(d0, (a & lo) | b << 32);
			mmx_st64(d1, a >> 32 | (b & hi));
		}
	}
	if (u < u1) {
		for (k = 0; k < MMX_SIMD_TBAND; k++)
			d[(size_t)k * dstride + u] = p[xv > 0 ? k : MMX_SIMD_TBAND - 1 - k];
	}
}

static void mmx_scalar_bilinear_gather(u32 *dst, u32 n, const u32 *px,
				       size_t stride, const size_t *off,
				       const u64 *wx, const u64 *wy)
{
	mmx_bilinear_gather_ref(dst, 0, n, px, stride, off, wx, wy);
}

static bool mmx_scalar_bilinear_points(u32 *dst, u32 n, const s32 *cx,
				       const s32 *cy, const u32 *px,
				       size_t stride, u32 wlim, u32 hlim)
{
	u32 i;

	for (i = 0; i < n; i++)
		if ((u32)(cx[i] >> 7) >= wlim || (u32)(cy[i] >> 7) >= hlim)
			return false;
	for (i = 0; i < n; i++) {
		const u32 *p = px + (size_t)(cy[i] >> 7) * stride +
			       (size_t)(cx[i] >> 7);

		dst[i] = mmx_bilerp(p[0], p[1], p[stride], p[stride + 1],
				    cx[i] & 127, cy[i] & 127);
	}
	return true;
}

/**
 * mmx_simd_hplan_plain - the horizontal plan of the scalar and SSE2 loops
 * @p: the plan
 * @n: pixels, at most %MMX_SIMD_HPLAN
 * @x: the first pixel's source x, 32.32 (the pixel left of the sample)
 * @dx: its step per pixel
 * @w: the source row's width (unused: no window to check)
 *
 * One group, offsets from pixel 0, weights as MMX_SIMD_LANES4() in pixel
 * order.
 */
void mmx_simd_hplan_plain(struct mmx_simd_hplan *p, u32 n, s64 x, s64 dx,
			  u32 w)
{
	u32 i;

	(void)w;
	p->n = n;
	p->win = 0;
	for (i = 0; i < MMX_SIMD_HPLAN / 8; i++)
		p->base[i] = 0;
	for (i = 0; i < n; i++, x += dx) {
		p->idx[i] = (u32)(x >> 32);
		p->wx[i] = MMX_SIMD_LANES4((u32)x >> 25);
	}
}

static void mmx_scalar_hlerp_plan(u32 *dst, const struct mmx_simd_hplan *p,
				  const u32 *row)
{
	u32 i;

	for (i = 0; i < p->n; i++) {
		const u32 *q = row + p->base[i / 8] + p->idx[i];

		dst[i] = mmx_lerp_px(q[0], q[1], (u32)(p->wx[i] & 127));
	}
}

static void mmx_scalar_vlerp_row(u32 *dst, u32 n, const u32 *a,
				 const u32 *b, u32 w)
{
	mmx_vlerp_row_ref(dst, 0, n, a, b, w);
}

static void mmx_scalar_box2_row(u32 *dst, u32 n, const u32 *src,
				size_t stride)
{
	mmx_box2_row_ref(dst, 0, n, src, stride);
}

static void mmx_scalar_opaque_row(u32 *dst, u32 n, const u8 *src)
{
	mmx_opaque_row_ref(dst, 0, n, src);
}

static void mmx_scalar_pick_plan(u32 *dst, const struct mmx_simd_hplan *p,
				 const u32 *row)
{
	u32 i;

	for (i = 0; i < p->n; i++)
		dst[i] = row[p->base[i / 8] + p->idx[i]];
}

static void mmx_scalar_pick2_row(u32 *dst, u32 n, const u32 *src)
{
	mmx_pick2_row_ref(dst, 0, n, src);
}

static u64 mmx_scalar_quad_steps(s32 *ox, s32 *oy, u32 n,
				 struct mmx_simd_quad *qx,
				 struct mmx_simd_quad *qy)
{
	return mmx_quad_steps_ref(ox, oy, 0, n, qx, qy);
}

const struct mmx_simd_ops mmx_simd_scalar = {
	.name = "scalar",
	.fpu = false,
	.bilinear_gather = mmx_scalar_bilinear_gather,
	.bilinear_points = mmx_scalar_bilinear_points,
	.hplan = mmx_simd_hplan_plain,
	.hlerp_plan = mmx_scalar_hlerp_plan,
	.vlerp_row = mmx_scalar_vlerp_row,
	.box2_row = mmx_scalar_box2_row,
	.pick_plan = mmx_scalar_pick_plan,
	.pick2_row = mmx_scalar_pick2_row,
	.opaque_row = mmx_scalar_opaque_row,
	.copy_reversed = mmx_scalar_copy_reversed,
	.quad_steps = mmx_scalar_quad_steps,
	.transpose_band = mmx_scalar_transpose_band,
};
