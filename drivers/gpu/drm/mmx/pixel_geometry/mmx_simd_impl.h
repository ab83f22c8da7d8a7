/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The compositor's inner loops in vector registers, written once with the
 * compiler's generic vector types (GCC and clang vector extensions, no
 * intrinsics header, so that the same text builds in the kernel and on the
 * host) and included by mmx_simd_sse2.c (MMX_SIMD_BYTES 16) and
 * mmx_simd_avx2.c (32), each compiled with the flags that enable its
 * instruction set. The includer defines MMX_SIMD_BYTES and MMX_SIMD_OPS
 * (the name of the table to define).
 *
 * The arithmetic is the scalar reference's (mmx_simd.h), lane by lane:
 * a bilinear sample is three linear interpolations a + ((b - a) w >> 7) in
 * signed 16-bit lanes, each an exact floor as in the reference, so the
 * results are the same bits.
 */

#include "mmx_simd.h"

#define VB	MMX_SIMD_BYTES
#define NPX	(VB / 4)	/* pixels per vector */
#define NBI	(VB / 8)	/* pixels per vector of 16-bit channels */

typedef u8 mmx_vu8 __attribute__((vector_size(VB)));
typedef u8 mmx_vh8 __attribute__((vector_size(VB / 2)));
typedef s16 mmx_vs16 __attribute__((vector_size(VB)));
typedef u32 mmx_vu32 __attribute__((vector_size(VB)));
typedef s32 mmx_vs32 __attribute__((vector_size(VB)));
typedef u32 mmx_vhu32 __attribute__((vector_size(VB / 2)));
typedef u64 mmx_vu64 __attribute__((vector_size(VB)));
typedef s64 mmx_vs64 __attribute__((vector_size(VB)));
typedef s32 mmx_vhs32 __attribute__((vector_size(VB / 2)));
typedef u32 mmx_v4u32 __attribute__((vector_size(16)));

#if VB != 16 && VB != 32
#error "MMX_SIMD_BYTES must be 16 or 32"
#endif

/*
 * sparse reads vector types as their element type and knows neither the
 * vector builtins nor vector initialisers: for it (and only for it) they
 * become the scalar expressions that type-check the same way.
 */
#ifdef __CHECKER__
#define __builtin_shufflevector(a, b, ...)	(a)
#define __builtin_convertvector(v, type)	((type)(v))
#define MMX_VEC2(type, a, b)			((type)(a))
#define MMX_VEC4(type, a, b, c, d)		((type)(a))
#define MMX_VEC8(type, a, b, c, d, e, f, g, h)	((type)(a))
#else
#define MMX_VEC2(type, a, b)			((type) { a, b })
#define MMX_VEC4(type, a, b, c, d)		((type) { a, b, c, d })
#define MMX_VEC8(type, a, b, c, d, e, f, g, h)	\
	((type) { a, b, c, d, e, f, g, h })
#endif

/*
 * Shuffles, per vector width: the source lanes of each result lane
 * (lanes of the second operand count on from those of the first).
 */
#if VB == 16
#define MMX_SHUF_EVENS(a, b)	__builtin_shufflevector(a, b, 0, 2, 4, 6)
#define MMX_SHUF_REVERSE(a, b)	__builtin_shufflevector(a, b, 3, 2, 1, 0)
#define MMX_SHUF_UNPACKLO8(a, b) \
	__builtin_shufflevector(a, b, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, \
				21, 6, 22, 7, 23)
#define MMX_SHUF_UNPACKHI8(a, b) \
	__builtin_shufflevector(a, b, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, \
				13, 29, 14, 30, 15, 31)
#define MMX_SHUF_WEIGHTS_LO(a, b) \
	__builtin_shufflevector(a, b, 0, 0, 0, 0, 2, 2, 2, 2)
#define MMX_SHUF_WEIGHTS_HI(a, b) \
	__builtin_shufflevector(a, b, 4, 4, 4, 4, 6, 6, 6, 6)
#define MMX_SHUF_LANE_EVENS(a, b) \
	__builtin_shufflevector(a, b, 0, 2, 4, 6)
#define MMX_SHUF_LANE_ODDS(a, b) \
	__builtin_shufflevector(a, b, 1, 3, 5, 7)
#define MMX_SHUF_UNLANE(a, b)	__builtin_shufflevector(a, b, 0, 1, 2, 3)
#else
#define MMX_SHUF_EVENS(a, b) \
	__builtin_shufflevector(a, b, 0, 2, 4, 6, 8, 10, 12, 14)
#define MMX_SHUF_REVERSE(a, b) \
	__builtin_shufflevector(a, b, 7, 6, 5, 4, 3, 2, 1, 0)
#define MMX_SHUF_UNPACKLO8(a, b) \
	__builtin_shufflevector(a, b, 0, 32, 1, 33, 2, 34, 3, 35, 4, 36, 5, \
				37, 6, 38, 7, 39, 16, 48, 17, 49, 18, \
				50, 19, 51, 20, 52, 21, 53, 22, 54, \
				23, 55)
#define MMX_SHUF_UNPACKHI8(a, b) \
	__builtin_shufflevector(a, b, 8, 40, 9, 41, 10, 42, 11, 43, 12, 44, \
				13, 45, 14, 46, 15, 47, 24, 56, 25, \
				57, 26, 58, 27, 59, 28, 60, 29, 61, \
				30, 62, 31, 63)
#define MMX_SHUF_WEIGHTS_LO(a, b) \
	__builtin_shufflevector(a, b, 0, 0, 0, 0, 2, 2, 2, 2, 4, 4, 4, 4, 6, \
				6, 6, 6)
#define MMX_SHUF_WEIGHTS_HI(a, b) \
	__builtin_shufflevector(a, b, 8, 8, 8, 8, 10, 10, 10, 10, 12, 12, 12, \
				12, 14, 14, 14, 14)
#define MMX_SHUF_LANE_EVENS(a, b) \
	__builtin_shufflevector(a, b, 0, 2, 8, 10, 4, 6, 12, 14)
#define MMX_SHUF_LANE_ODDS(a, b) \
	__builtin_shufflevector(a, b, 1, 3, 9, 11, 5, 7, 13, 15)
#define MMX_SHUF_UNLANE(a, b) \
	__builtin_shufflevector(a, b, 0, 1, 4, 5, 2, 3, 6, 7)
#endif

/* the even pixels of a then b */
static __always_inline mmx_vu32 mmx_evens(mmx_vu32 a, mmx_vu32 b)
{
	return MMX_SHUF_EVENS(a, b);
}

static __always_inline mmx_vu32 mmx_reverse(mmx_vu32 v)
{
	return MMX_SHUF_REVERSE(v, v);
}

/*
 * The bytes of @a and @b interleaved (a0 b0 a1 b1 ...) within each 128-bit
 * lane: unpacklo8 those of bytes 0..7 of the lane, unpackhi8 those of
 * bytes 8..15 (punpcklbw, punpckhbw).
 */
static __always_inline mmx_vu8 mmx_unpacklo8(mmx_vu8 a, mmx_vu8 b)
{
	return MMX_SHUF_UNPACKLO8(a, b);
}

static __always_inline mmx_vu8 mmx_unpackhi8(mmx_vu8 a, mmx_vu8 b)
{
	return MMX_SHUF_UNPACKHI8(a, b);
}

/*
 * Bytes to 16-bit lanes and back, within each 128-bit lane (punpcklbw,
 * punpckhbw with zeros, packuswb): widen_lo takes bytes 0..7 of each
 * 128-bit lane, widen_hi bytes 8..15, and pack2 (of values 0..255) undoes
 * them.
 */
static __always_inline mmx_vs16 mmx_widen_lo(mmx_vu8 v)
{
	mmx_vu8 z = { 0 };

	return (mmx_vs16)mmx_unpacklo8(v, z);
}

static __always_inline mmx_vs16 mmx_widen_hi(mmx_vu8 v)
{
	mmx_vu8 z = { 0 };

	return (mmx_vs16)mmx_unpackhi8(v, z);
}

static __always_inline mmx_vu32 mmx_pack2(mmx_vs16 lo, mmx_vs16 hi)
{
#ifdef __CHECKER__
	return (mmx_vu32)(lo | hi);
#elif VB == 16
	/* packuswb: the compiler does not know the lanes are 0..255 */
	return (mmx_vu32)__builtin_ia32_packuswb128(lo, hi);
#else
	return (mmx_vu32)__builtin_ia32_packuswb256(lo, hi);
#endif
}

/*
 * The left and right pixels of the pairs of each 128-bit lane: pixels
 * (l0, r0, l1, r1) become (l0, l1) and (r0, r1) in 16-bit lanes.
 */
static __always_inline void mmx_split_lane_pairs(mmx_vu8 v, mmx_vs16 *l,
						 mmx_vs16 *r)
{
	mmx_vu64 lo = (mmx_vu64)mmx_widen_lo(v), hi = (mmx_vu64)mmx_widen_hi(v);

#if VB == 16
	*l = (mmx_vs16)__builtin_shufflevector(lo, hi, 0, 2);
	*r = (mmx_vs16)__builtin_shufflevector(lo, hi, 1, 3);
#else
	*l = (mmx_vs16)__builtin_shufflevector(lo, hi, 0, 4, 2, 6);
	*r = (mmx_vs16)__builtin_shufflevector(lo, hi, 1, 5, 3, 7);
#endif
}

static __always_inline mmx_vu32 mmx_ld(const void *p)
{
	return MMX_LOAD(mmx_vu32, p);
}

static __always_inline void mmx_st(void *p, mmx_vu32 v)
{
	MMX_STORE(p, v);
}

static __always_inline mmx_v4u32 mmx_ld4(const u32 *p)
{
	mmx_v4u32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static __always_inline void mmx_st4(u32 *p, mmx_v4u32 v)
{
	__builtin_memcpy(p, &v, sizeof(v));
}

/*
 * The pixel pairs at @p + @off[0..NBI - 1] in one vector, built from the
 * values (element by element assignment would go through the stack and
 * stall).
 */
static __always_inline mmx_vu64 mmx_ld_pairs(const u32 *p, const size_t *off)
{
#if VB == 16
	return MMX_VEC2(mmx_vu64, mmx_ld64(p + off[0]), mmx_ld64(p + off[1]));
#else
	return MMX_VEC4(mmx_vu64, mmx_ld64(p + off[0]), mmx_ld64(p + off[1]),
			mmx_ld64(p + off[2]), mmx_ld64(p + off[3]));
#endif
}

static __always_inline mmx_vu64 mmx_ld_pairs32(const u32 *p, const u32 *off)
{
#if VB == 16
	return MMX_VEC2(mmx_vu64, mmx_ld64(p + off[0]), mmx_ld64(p + off[1]));
#else
	return MMX_VEC4(mmx_vu64, mmx_ld64(p + off[0]), mmx_ld64(p + off[1]),
			mmx_ld64(p + off[2]), mmx_ld64(p + off[3]));
#endif
}

/* a + ((b - a) w >> 7) in each 16-bit lane: the floor of the reference */
static __always_inline mmx_vs16 mmx_vlerp(mmx_vs16 a, mmx_vs16 b, mmx_vs16 w)
{
	return a + (((b - a) * w) >> 7);
}

/*
 * NBI pairs of adjacent pixels (left, right), one per u64 lane, as the
 * left pixels' and the right pixels' channels in 16-bit lanes.
 */
static __always_inline void mmx_split_pairs(mmx_vu64 pairs, mmx_vs16 *l,
					    mmx_vs16 *r)
{
	mmx_split_lane_pairs((mmx_vu8)pairs, l, r);
}

/* Channels in 16-bit lanes (each 0..255) back to NBI pixels. */
static __always_inline mmx_vhu32 mmx_pack(mmx_vs16 v)
{
	return (mmx_vhu32)__builtin_convertvector(v, mmx_vh8);
}

/*
 * NBI bilinear samples: the pixel pairs @t (one per u64 lane) and the
 * pairs below them @b, with the weights @wx, @wy in the 16-bit lanes of
 * mmx_split_pairs()'s layout.
 */
static __always_inline void mmx_bilinear_pairs(u32 *dst, mmx_vu64 t,
					       mmx_vu64 b, mmx_vs16 wx,
					       mmx_vs16 wy)
{
	mmx_vs16 tl, tr, bl, br;
	mmx_vhu32 r;

	mmx_split_pairs(t, &tl, &tr);
	mmx_split_pairs(b, &bl, &br);
	r = mmx_pack(mmx_vlerp(mmx_vlerp(tl, tr, wx), mmx_vlerp(bl, br, wx),
			       wy));
	r |= MMX_SIMD_BLACK;
	__builtin_memcpy(dst, &r, sizeof(r));
}

static void mmx_simd_bilinear_gather(u32 *dst, u32 n, const u32 *px,
				     size_t stride, const size_t *off,
				     const u64 *wx, const u64 *wy)
{
	u32 i = 0;

	for (; i + NBI <= n; i += NBI)
		mmx_bilinear_pairs(dst + i, mmx_ld_pairs(px, off + i),
				   mmx_ld_pairs(px + stride, off + i),
				   (mmx_vs16)mmx_ld(wx + i),
				   (mmx_vs16)mmx_ld(wy + i));
	mmx_bilinear_gather_ref(dst, i, n, px, stride, off, wx, wy);
}

/*
 * The 7-bit weights in the low halves of the 32-bit lanes of @w, each
 * repeated in four 16-bit lanes: those of the first NBI pixels (lo) or of
 * the last NBI (hi), the lane layout of mmx_split_pairs().
 */
static __always_inline mmx_vs16 mmx_weights_lo(mmx_vs16 w)
{
	return MMX_SHUF_WEIGHTS_LO(w, w);
}

static __always_inline mmx_vs16 mmx_weights_hi(mmx_vs16 w)
{
	return MMX_SHUF_WEIGHTS_HI(w, w);
}

/* NBI bilinear samples at the offsets @off with the weights @wx, @wy. */
static __always_inline void mmx_bilinear_nbi(u32 *dst, const u32 *px,
					     size_t stride, const u32 *off,
					     mmx_vs16 wx, mmx_vs16 wy)
{
	mmx_bilinear_pairs(dst, mmx_ld_pairs32(px, off),
			   mmx_ld_pairs32(px + stride, off), wx, wy);
}

#if VB == 32
/* @v's pixels in the order @idx (0..7 each): vpermd */
static __always_inline mmx_vu32 mmx_permute(mmx_vu32 v, mmx_vu32 idx)
{
#ifdef __CHECKER__
	return v;
#else
	return (mmx_vu32)__builtin_ia32_permvarsi256((mmx_vs32)v,
						     (mmx_vs32)idx);
#endif
}

/*
 * pmaddubsw: the unsigned bytes of @p times the signed bytes of @w, the
 * products of each pair of bytes summed into a 16-bit lane.
 */
static __always_inline mmx_vs16 mmx_maddubs(mmx_vu8 p, mmx_vu8 w)
{
#ifdef __CHECKER__
	return (mmx_vs16)p;
#else
	/* the builtin takes vectors of plain char */
	return (mmx_vs16)__builtin_ia32_pmaddubsw256((char __attribute__((vector_size(32))))p,
						     (char __attribute__((vector_size(32))))w);
#endif
}
#endif

#if VB == 32
/*
 * AVX2 plans. Weights as the byte pairs (128 - w, w) of pmaddubsw (the
 * left pixel's and the right one's factors), in the four 16-bit lanes of
 * the u64; those of a whole group of eight in the order 0, 1, 4, 5, 2, 3,
 * 6, 7 (the pixels of the low and the high halves of the 128-bit lanes
 * once interleaved), those of a last, shorter group in pixel order. A
 * windowed group counts from its first pixel; any other from 0.
 */
#define MMX_SIMD_HPLAN_FN	mmx_simd_hplan

static void mmx_simd_hplan(struct mmx_simd_hplan *p, u32 n, s64 x, s64 dx,
			   u32 w)
{
	mmx_vs64 xa = x + MMX_VEC4(mmx_vs64, 0, 1, 2, 3) * dx, xb = xa + 4 * dx;
	mmx_vu32 lo = MMX_VEC8(mmx_vu32, 0, 0, 1, 1, 4, 4, 5, 5), hi = lo + 2;
	u32 g, i = 0, b, o[8];

	p->n = n;
	p->win = 0;
	/* whole groups: eight sample points in two vectors of s64 */
	for (g = 0; i + 8 <= n; g++, i += 8, xa += 8 * dx, xb += 8 * dx) {
		mmx_vu32 ua = (mmx_vu32)xa, ub = (mmx_vu32)xb;
		mmx_vu32 off = __builtin_shufflevector(ua, ub, 1, 3, 5, 7, 9, 11,
						       13, 15);
		mmx_vu32 wt = __builtin_shufflevector(ua, ub, 0, 2, 4, 6, 8, 10,
						      12, 14) >> 25;

		mmx_st(o, off);
		b = o[0];
		/* the nine pixels from b, and no wrap below b (dx > 0) */
		if (w >= 9 && b <= w - 9 && o[7] - b <= 7)
			p->win |= 1u << g;
		else
			b = 0;
		p->base[g] = b;
		mmx_st(p->idx + i, off - b);
		/* two pairs per u32, each pixel's twice in its u64 */
		wt = (wt << 8 | (128 - wt)) * 0x10001u;
		mmx_st(p->wx + i, mmx_permute(wt, lo));
		mmx_st(p->wx + i + 4, mmx_permute(wt, hi));
	}
	if (i < n)
		p->base[g] = 0;
	for (x += (s64)i * dx; i < n; i++, x += dx) {
		u32 k = (u32)x >> 25;

		p->idx[i] = (u32)(x >> 32);
		p->wx[i] = MMX_SIMD_LANES4(k << 8 | (128 - k));
	}
}

/* pabsw */
static __always_inline mmx_vs16 mmx_abs16(mmx_vs16 v)
{
#ifdef __CHECKER__
	return v;
#else
	return (mmx_vs16)__builtin_ia32_pabsw256(v);
#endif
}

/*
 * Interleaved bytes of left and right pixels (lB rB lG rG ...) times
 * their pairs of weights: floor((l (128 - w) + r w) / 128) in 16-bit
 * lanes, the reference's l + floor((r - l) w / 128). With w = 0 the
 * weight 128 is -128 to pmaddubsw's signed bytes: the sum is -128 l, and
 * its absolute value the right one.
 */
static __always_inline mmx_vs16 mmx_lerp_pairs(mmx_vu8 lr, mmx_vu64 w)
{
	return mmx_abs16(mmx_maddubs(lr, (mmx_vu8)w)) >> 7;
}

/* the left and right pixels of a gathered pair (u64 lanes) interleaved */
static __always_inline mmx_vu8 mmx_interleave_pairs(mmx_vu64 v)
{
	mmx_vu8 b = (mmx_vu8)v;

	return __builtin_shufflevector(b, b, 0, 4, 1, 5, 2, 6, 3, 7, 8, 12, 9,
				       13, 10, 14, 11, 15, 16, 20, 17, 21, 18,
				       22, 19, 23, 24, 28, 25, 29, 26, 30, 27,
				       31);
}

/*
 * A windowed group: the pixels and their right neighbours are two loads
 * and two vpermd.
 */
static __always_inline void mmx_hlerp_window8(u32 *dst, const u32 *q,
					      const u32 *idx, const u64 *wx)
{
	mmx_vu32 k = mmx_ld(idx);
	mmx_vu8 l = (mmx_vu8)mmx_permute(mmx_ld(q), k);
	mmx_vu8 r = (mmx_vu8)mmx_permute(mmx_ld(q + 1), k);
	mmx_vu8 lo = mmx_unpacklo8(l, r), hi = mmx_unpackhi8(l, r);

	mmx_st(dst, mmx_pack2(mmx_lerp_pairs(lo, (mmx_vu64)mmx_ld(wx)),
			      mmx_lerp_pairs(hi, (mmx_vu64)mmx_ld(wx + 4))));
}

/*
 * Any other group: two gathers of four pairs, in the weights' order, so
 * that packuswb puts the eight back in pixel order.
 */
static __always_inline void mmx_hlerp_gather8(u32 *dst, const u32 *row,
					      const u32 *idx, const u64 *wx)
{
	mmx_vu8 lo = mmx_interleave_pairs(MMX_VEC4(mmx_vu64,
						   mmx_ld64(row + idx[0]),
						   mmx_ld64(row + idx[1]),
						   mmx_ld64(row + idx[4]),
						   mmx_ld64(row + idx[5])));
	mmx_vu8 hi = mmx_interleave_pairs(MMX_VEC4(mmx_vu64,
						   mmx_ld64(row + idx[2]),
						   mmx_ld64(row + idx[3]),
						   mmx_ld64(row + idx[6]),
						   mmx_ld64(row + idx[7])));

	mmx_st(dst, mmx_pack2(mmx_lerp_pairs(lo, (mmx_vu64)mmx_ld(wx)),
			      mmx_lerp_pairs(hi, (mmx_vu64)mmx_ld(wx + 4))));
}

/* A plan whose whole groups are all windowed (upscales) tests nothing. */
static void mmx_simd_hlerp_plan(u32 *dst, const struct mmx_simd_hplan *p,
				const u32 *row)
{
	u32 i = 0, g = 0, n = p->n, full = n / 8;

	if (p->win == (full < 32 ? (1u << full) - 1 : ~0u)) {
		for (; i + 8 <= n; i += 8, g++)
			mmx_hlerp_window8(dst + i, row + p->base[g], p->idx + i,
					  p->wx + i);
	} else {
		for (; i + 8 <= n; i += 8, g++) {
			if (p->win & (1u << g))
				mmx_hlerp_window8(dst + i, row + p->base[g],
						  p->idx + i, p->wx + i);
			else
				mmx_hlerp_gather8(dst + i, row, p->idx + i,
						  p->wx + i);
		}
	}
	for (; i < n; i++) {
		const u32 *q = row + p->idx[i];

		dst[i] = mmx_lerp_px(q[0], q[1], (u32)(p->wx[i] >> 8) & 127);
	}
}
#else
/* SSE2 plans as the scalar implementation does. */
#define MMX_SIMD_HPLAN_FN	mmx_simd_hplan_plain

/* SSE2: four pixels, two gathered pairs of pairs, one packuswb */
static void mmx_simd_hlerp_plan(u32 *dst, const struct mmx_simd_hplan *p,
				const u32 *row)
{
	const u32 *off = p->idx;
	const u64 *wx = p->wx;
	u32 i = 0, n = p->n;

	for (; i + 2 * NBI <= n; i += 2 * NBI) {
		mmx_vs16 l0, r0, l1, r1;

		mmx_split_pairs(mmx_ld_pairs32(row, off + i), &l0, &r0);
		mmx_split_pairs(mmx_ld_pairs32(row, off + i + NBI), &l1, &r1);
		mmx_st(dst + i,
		       mmx_pack2(mmx_vlerp(l0, r0, (mmx_vs16)mmx_ld(wx + i)),
				 mmx_vlerp(l1, r1,
					   (mmx_vs16)mmx_ld(wx + i + NBI))));
	}
	for (; i < n; i++) {
		const u32 *q = row + off[i];

		dst[i] = mmx_lerp_px(q[0], q[1], (u32)(wx[i] & 127));
	}
}
#endif

#if VB == 32
/*
 * Bilinear samples of four points, the pixel pairs at @o0..@o3 and the
 * pairs below them, with the weights' byte pairs @wx, @wy (as
 * mmx_simd_hplan() makes them): each pair interpolated in one pmaddubsw,
 * then the top and bottom results, interleaved as bytes, in a third.
 */
static __always_inline mmx_vs16 mmx_bilinear4(const u32 *px, size_t stride,
					      u32 o0, u32 o1, u32 o2, u32 o3,
					      mmx_vu64 wx, mmx_vu64 wy)
{
	const u32 *q = px + stride;
	mmx_vu8 t = mmx_interleave_pairs(MMX_VEC4(mmx_vu64, mmx_ld64(px + o0),
						  mmx_ld64(px + o1),
						  mmx_ld64(px + o2),
						  mmx_ld64(px + o3)));
	mmx_vu8 b = mmx_interleave_pairs(MMX_VEC4(mmx_vu64, mmx_ld64(q + o0),
						  mmx_ld64(q + o1),
						  mmx_ld64(q + o2),
						  mmx_ld64(q + o3)));
	mmx_vs16 top = mmx_lerp_pairs(t, wx), bot = mmx_lerp_pairs(b, wx);

	return mmx_lerp_pairs((mmx_vu8)(top | bot << 8), wy);
}

/*
 * Eight bilinear samples at the offsets @off with the 7-bit weights @wx,
 * @wy (32-bit lanes): pixels 0, 1, 4, 5 and 2, 3, 6, 7 in two halves, so
 * that packuswb puts them back in order.
 */
static __always_inline mmx_vu32 mmx_bilinear8(const u32 *px, size_t stride,
					      const u32 *off, mmx_vu32 wx,
					      mmx_vu32 wy)
{
	mmx_vu32 lo = MMX_VEC8(mmx_vu32, 0, 0, 1, 1, 4, 4, 5, 5), hi = lo + 2;
	mmx_vu32 px2 = (wx << 8 | (128 - wx)) * 0x10001u;
	mmx_vu32 py2 = (wy << 8 | (128 - wy)) * 0x10001u;
	mmx_vs16 a = mmx_bilinear4(px, stride, off[0], off[1], off[4], off[5],
				   (mmx_vu64)mmx_permute(px2, lo),
				   (mmx_vu64)mmx_permute(py2, lo));
	mmx_vs16 b = mmx_bilinear4(px, stride, off[2], off[3], off[6], off[7],
				   (mmx_vu64)mmx_permute(px2, hi),
				   (mmx_vu64)mmx_permute(py2, hi));

	return mmx_pack2(a, b) | MMX_SIMD_BLACK;
}
#endif

/*
 * Two passes: the offsets of all points and their check, then the samples,
 * their weights taken from the coordinates in registers.
 */
static bool mmx_simd_bilinear_points(u32 *dst, u32 n, const s32 *cx,
				     const s32 *cy, const u32 *px,
				     size_t stride, u32 wlim, u32 hlim)
{
	u32 off[MMX_SIMD_POINTS];
	mmx_vs32 bad = { 0 };
	u32 i = 0, k, tail[NPX];

	for (; i + NPX <= n; i += NPX) {
		mmx_vs32 x = (mmx_vs32)mmx_ld(cx + i), y = (mmx_vs32)mmx_ld(cy + i);
		mmx_vu32 xi = (mmx_vu32)(x >> 7), yi = (mmx_vu32)(y >> 7);

		bad |= (xi >= wlim) | (yi >= hlim);
		mmx_st(off + i, yi * (u32)stride + xi);
	}
	mmx_st(tail, (mmx_vu32)bad);
	for (k = 0; k < NPX; k++)
		if (tail[k])
			return false;
	for (k = i; k < n; k++) {
		s32 xi = cx[k] >> 7, yi = cy[k] >> 7;

		if ((u32)xi >= wlim || (u32)yi >= hlim)
			return false;
		off[k] = (u32)yi * (u32)stride + (u32)xi;
	}
	for (k = 0; k < i; k += NPX) {
#if VB == 32
		mmx_st(dst + k, mmx_bilinear8(px, stride, off + k,
					      mmx_ld(cx + k) & 127,
					      mmx_ld(cy + k) & 127));
#else
		mmx_vs16 wx = (mmx_vs16)(mmx_ld(cx + k) & 127);
		mmx_vs16 wy = (mmx_vs16)(mmx_ld(cy + k) & 127);

		mmx_bilinear_nbi(dst + k, px, stride, off + k, mmx_weights_lo(wx),
				 mmx_weights_lo(wy));
		mmx_bilinear_nbi(dst + k + NBI, px, stride, off + k + NBI,
				 mmx_weights_hi(wx), mmx_weights_hi(wy));
#endif
	}
	for (; i < n; i++) {
		const u32 *p = px + off[i];

		dst[i] = mmx_bilerp(p[0], p[1], p[stride], p[stride + 1],
				    (u32)cx[i] & 127, (u32)cy[i] & 127);
	}
	return true;
}

/* AVX2: one load and one vpermd per windowed group of eight */
static void mmx_simd_pick_plan(u32 *dst, const struct mmx_simd_hplan *p,
			       const u32 *row)
{
	u32 i = 0, n = p->n;

#if VB == 32
	u32 g = 0, full = n / 8;
	const u32 *q;

	if (p->win == (full < 32 ? (1u << full) - 1 : ~0u)) {
		for (; i + 8 <= n; i += 8, g++)
			mmx_st(dst + i, mmx_permute(mmx_ld(row + p->base[g]),
						    mmx_ld(p->idx + i)));
	} else {
		for (; i + 8 <= n; i += 8, g++) {
			if (p->win & (1u << g)) {
				mmx_st(dst + i,
				       mmx_permute(mmx_ld(row + p->base[g]),
						   mmx_ld(p->idx + i)));
				continue;
			}
			q = p->idx + i;
			mmx_st(dst + i, MMX_VEC8(mmx_vu32, row[q[0]], row[q[1]],
						 row[q[2]], row[q[3]],
						 row[q[4]], row[q[5]],
						 row[q[6]], row[q[7]]));
		}
	}
#endif
	for (; i < n; i++)
		dst[i] = row[p->idx[i]];
}

/*
 * AVX2 with a weight w of 1..127: the bytes of a and b interleaved, each
 * pair times (128 - w, w) in one pmaddubsw (a (128 - w) + b w <= 32640),
 * then >> 7: floor((a (128 - w) + b w) / 128), which is the reference's
 * a + floor((b - a) w / 128). With w = 0 the result is a.
 */
static void mmx_simd_vlerp_row(u32 *dst, u32 n, const u32 *a, const u32 *b,
			       u32 w)
{
	mmx_vs16 wv = (mmx_vs16){ 0 } + (s16)w;
	u32 i = 0;

#if VB == 32
	if (w) {
		mmx_vu8 wb = (mmx_vu8)((mmx_vs16){ 0 } +
				       (s16)(w << 8 | (128 - w)));

		for (; i + NPX <= n; i += NPX) {
			mmx_vu8 va = (mmx_vu8)mmx_ld(a + i);
			mmx_vu8 vb = (mmx_vu8)mmx_ld(b + i);
			mmx_vu8 lo = mmx_unpacklo8(va, vb);
			mmx_vu8 hi = mmx_unpackhi8(va, vb);

			mmx_st(dst + i, mmx_pack2(mmx_maddubs(lo, wb) >> 7,
						  mmx_maddubs(hi, wb) >> 7) |
					MMX_SIMD_BLACK);
		}
	}
#endif

	for (; i + NPX <= n; i += NPX) {
		mmx_vu8 va = (mmx_vu8)mmx_ld(a + i), vb = (mmx_vu8)mmx_ld(b + i);
		mmx_vu32 r = mmx_pack2(mmx_vlerp(mmx_widen_lo(va),
						 mmx_widen_lo(vb), wv),
				       mmx_vlerp(mmx_widen_hi(va),
						 mmx_widen_hi(vb), wv));

		mmx_st(dst + i, r | MMX_SIMD_BLACK);
	}
	mmx_vlerp_row_ref(dst, i, n, a, b, w);
}

/*
 * pavgb: (a + b + 1) / 2 in each byte. The floor of the reference,
 * mmx_avg(), is its complement on complemented inputs:
 * floor((a + b) / 2) = 255 - (((255 - a) + (255 - b) + 1) / 2).
 */
static __always_inline mmx_vu32 mmx_pavg(mmx_vu32 a, mmx_vu32 b)
{
#ifdef __CHECKER__
	return a | b;
#elif VB == 16
	return (mmx_vu32)__builtin_ia32_pavgb128((char __attribute__((vector_size(16))))a,
						 (char __attribute__((vector_size(16))))b);
#else
	return (mmx_vu32)__builtin_ia32_pavgb256((char __attribute__((vector_size(32))))a,
						 (char __attribute__((vector_size(32))))b);
#endif
}

/*
 * The even and odd pixels of a then b within each 128-bit lane (shufps):
 * for 32-byte vectors the pixels of a and b alternate by lanes of two, put
 * back in order by mmx_unlane().
 */
static __always_inline mmx_vu32 mmx_lane_evens(mmx_vu32 a, mmx_vu32 b)
{
	return MMX_SHUF_LANE_EVENS(a, b);
}

static __always_inline mmx_vu32 mmx_lane_odds(mmx_vu32 a, mmx_vu32 b)
{
	return MMX_SHUF_LANE_ODDS(a, b);
}

static __always_inline mmx_vu32 mmx_unlane(mmx_vu32 v)
{
	return MMX_SHUF_UNLANE(v, v);
}

/*
 * Pixels the box filter prefetches ahead of its two source rows: the
 * hardware's prefetchers alone leave a 2x downscale waiting for memory (it
 * streams twice the output's size in).
 */
#define MMX_BOX2_PREFETCH	768

/*
 * The three averages of the reference in complemented bytes (one pavgb
 * each): ~top = pavgb(~tl, ~tr), ~bot likewise, and the result is
 * ~pavgb(~top, ~bot).
 */
static void mmx_simd_box2_row(u32 *dst, u32 n, const u32 *src,
			      size_t stride)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		const u32 *p = src + 2 * (size_t)i;
		mmx_vu32 t0 = ~mmx_ld(p), t1 = ~mmx_ld(p + NPX);
		mmx_vu32 b0 = ~mmx_ld(p + stride), b1 = ~mmx_ld(p + stride + NPX);
		mmx_vu32 top, bot;

		__builtin_prefetch(p + MMX_BOX2_PREFETCH);
		__builtin_prefetch(p + stride + MMX_BOX2_PREFETCH);
		top = mmx_pavg(mmx_lane_evens(t0, t1), mmx_lane_odds(t0, t1));
		bot = mmx_pavg(mmx_lane_evens(b0, b1), mmx_lane_odds(b0, b1));
		mmx_st(dst + i, mmx_unlane(~mmx_pavg(top, bot)) | MMX_SIMD_BLACK);
	}
	mmx_box2_row_ref(dst, i, n, src, stride);
}

static void mmx_simd_pick2_row(u32 *dst, u32 n, const u32 *src)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		mmx_vu32 a = mmx_ld(src + 2 * (size_t)i);
		mmx_vu32 b = mmx_ld(src + 2 * (size_t)i + NPX);

		mmx_st(dst + i, mmx_evens(a, b));
	}
	mmx_pick2_row_ref(dst, i, n, src);
}

static void mmx_simd_opaque_row(u32 *dst, u32 n, const u8 *src)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX)
		mmx_st(dst + i, mmx_ld(src + 4 * (size_t)i) | MMX_SIMD_BLACK);
	mmx_opaque_row_ref(dst, i, n, src);
}

static void mmx_simd_copy_reversed(u32 *dst, const u32 *src, u32 n)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		mmx_vu32 v = mmx_ld(src - (ptrdiff_t)i - (NPX - 1));

		mmx_st(dst + i, mmx_reverse(v));
	}
	mmx_copy_reversed_ref(dst, src, i, n);
}

/* Four rows of four pixels, transposed. */
static __always_inline void mmx_transpose4(mmx_v4u32 *r)
{
	mmx_v4u32 t0 = __builtin_shufflevector(r[0], r[1], 0, 4, 1, 5);
	mmx_v4u32 t1 = __builtin_shufflevector(r[0], r[1], 2, 6, 3, 7);
	mmx_v4u32 t2 = __builtin_shufflevector(r[2], r[3], 0, 4, 1, 5);
	mmx_v4u32 t3 = __builtin_shufflevector(r[2], r[3], 2, 6, 3, 7);

	r[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
	r[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
	r[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
	r[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

#define MMX_PREFETCH_ROWS	32

#if VB == 32
/*
 * The three steps of an 8x8 transpose, each pairing two rows into two:
 * 32-bit interleaves within 128-bit lanes (vpunpckldq, vpunpckhdq), 64-bit
 * ones (vpunpcklqdq, vpunpckhqdq), then the 128-bit lanes (vperm2i128).
 */
static __always_inline void mmx_unpack32(mmx_vu32 a, mmx_vu32 b,
					 mmx_vu32 *lo, mmx_vu32 *hi)
{
	*lo = __builtin_shufflevector(a, b, 0, 8, 1, 9, 4, 12, 5, 13);
	*hi = __builtin_shufflevector(a, b, 2, 10, 3, 11, 6, 14, 7, 15);
}

static __always_inline void mmx_unpack64(mmx_vu32 a, mmx_vu32 b,
					 mmx_vu32 *lo, mmx_vu32 *hi)
{
	*lo = __builtin_shufflevector(a, b, 0, 1, 8, 9, 4, 5, 12, 13);
	*hi = __builtin_shufflevector(a, b, 2, 3, 10, 11, 6, 7, 14, 15);
}

static __always_inline void mmx_unpack128(mmx_vu32 a, mmx_vu32 b,
					  mmx_vu32 *lo, mmx_vu32 *hi)
{
	*lo = __builtin_shufflevector(a, b, 0, 1, 2, 3, 8, 9, 10, 11);
	*hi = __builtin_shufflevector(a, b, 4, 5, 6, 7, 12, 13, 14, 15);
}

/*
 * The 8x8 pixels at @p (rows @ustep apart) transposed into the rows
 * @rows[0..7] at column @u.
 */
static __always_inline void mmx_transpose8(const u32 *p, ptrdiff_t ustep,
					   u32 *const *rows, u32 u)
{
	mmx_vu32 r0 = mmx_ld(p), r1 = mmx_ld(p + ustep);
	mmx_vu32 r2 = mmx_ld(p + 2 * ustep), r3 = mmx_ld(p + 3 * ustep);
	mmx_vu32 r4 = mmx_ld(p + 4 * ustep), r5 = mmx_ld(p + 5 * ustep);
	mmx_vu32 r6 = mmx_ld(p + 6 * ustep), r7 = mmx_ld(p + 7 * ustep);
	mmx_vu32 a0, a1, a2, a3, a4, a5, a6, a7;
	mmx_vu32 b0, b1, b2, b3, b4, b5, b6, b7;

	mmx_unpack32(r0, r1, &a0, &a1);
	mmx_unpack32(r2, r3, &a2, &a3);
	mmx_unpack32(r4, r5, &a4, &a5);
	mmx_unpack32(r6, r7, &a6, &a7);
	mmx_unpack64(a0, a2, &b0, &b1);
	mmx_unpack64(a1, a3, &b2, &b3);
	mmx_unpack64(a4, a6, &b4, &b5);
	mmx_unpack64(a5, a7, &b6, &b7);
	mmx_unpack128(b0, b4, &r0, &r4);
	mmx_unpack128(b1, b5, &r1, &r5);
	mmx_unpack128(b2, b6, &r2, &r6);
	mmx_unpack128(b3, b7, &r3, &r7);
	mmx_st(rows[0] + u, r0);
	mmx_st(rows[1] + u, r1);
	mmx_st(rows[2] + u, r2);
	mmx_st(rows[3] + u, r3);
	mmx_st(rows[4] + u, r4);
	mmx_st(rows[5] + u, r5);
	mmx_st(rows[6] + u, r6);
	mmx_st(rows[7] + u, r7);
}

/*
 * Eight output columns at a time: eight source rows of the band's 16
 * pixels, two 8x8 transposes, 32-byte stores into the 16 output rows.
 */
static void mmx_simd_transpose_band(const u32 *p, s32 xv, ptrdiff_t ustep,
				    u32 *d, size_t dstride, u32 u0, u32 u1)
{
	u32 *rows[MMX_SIMD_TBAND];
	u32 u = u0;
	int k;

	for (k = 0; k < MMX_SIMD_TBAND; k++)
		rows[k] = d + (size_t)(xv > 0 ? k : MMX_SIMD_TBAND - 1 - k) *
			  dstride;
	for (; u + 7 < u1; u += 8, p += 8 * ustep) {
		for (k = 0; k < MMX_SIMD_TBAND; k += 8)
			mmx_transpose8(p + k, ustep, rows + k, u);
	}
	for (; u < u1; u++, p += ustep)
		for (k = 0; k < MMX_SIMD_TBAND; k++)
			rows[k][u] = p[k];
}
#else
static void mmx_simd_transpose_band(const u32 *p, s32 xv, ptrdiff_t ustep,
				    u32 *d, size_t dstride, u32 u0, u32 u1)
{
	u32 *rows[MMX_SIMD_TBAND];
	mmx_v4u32 r[4];
	u32 u = u0;
	int k, h, j;

	for (k = 0; k < MMX_SIMD_TBAND; k++)
		rows[k] = d + (size_t)(xv > 0 ? k : MMX_SIMD_TBAND - 1 - k) *
			  dstride;
	for (; u + 3 < u1; u += 4, p += 4 * ustep) {
		for (j = 0; j < 4; j++)
			__builtin_prefetch(p + (MMX_PREFETCH_ROWS + j) * ustep);
		for (h = 0; h < MMX_SIMD_TBAND; h += 4) {
			for (j = 0; j < 4; j++)
				r[j] = mmx_ld4(p + j * ustep + h);
			mmx_transpose4(r);
			for (j = 0; j < 4; j++)
				mmx_st4(rows[h + j] + u, r[j]);
		}
	}
	for (; u < u1; u++, p += ustep)
		for (k = 0; k < MMX_SIMD_TBAND; k++)
			rows[k][u] = p[k];
}
#endif

/*
 * 1 if the fraction of the 2^-16 quotient is near an integer, else 0, per
 * lane: (f + delta) mod 2^16 - 2 delta wraps below zero exactly then, and
 * its sign bit comes down with a logical shift (SSE2 and AVX2 have no
 * 64-bit compare or arithmetic shift in common).
 */
static __always_inline mmx_vu64 mmx_quad_near(mmx_vu64 e)
{
	mmx_vu64 f = ((e >> (MMX_SIMD_QSHIFT - 16)) + MMX_SIMD_QDELTA) & 0xffff;

	return (f - 2 * MMX_SIMD_QDELTA) >> 63;
}

/*
 * floor(e / 2^QSHIFT) of the lanes of @ex then those of @ey (|e| < 2^63):
 * their high 32-bit halves, shifted arithmetically by QSHIFT - 32.
 */
static __always_inline mmx_vs32 mmx_quad_ints(mmx_vu64 ex, mmx_vu64 ey)
{
	mmx_vs32 x = (mmx_vs32)ex, y = (mmx_vs32)ey;

#if VB == 16
	x = __builtin_shufflevector(x, y, 1, 3, 5, 7);
#else
	x = __builtin_shufflevector(x, y, 1, 3, 5, 7, 9, 11, 13, 15);
#endif
	return x >> (MMX_SIMD_QSHIFT - 32);
}

/*
 * NBI steps at a time: lane k holds step j + k; each lane advances NBI
 * steps by its own difference, which grows by NBI^2 d2 per advance
 * (arithmetic modulo 2^64: the same values as step by step).
 */
static u64 mmx_simd_quad_steps(s32 *ox, s32 *oy, u32 n,
			       struct mmx_simd_quad *qx,
			       struct mmx_simd_quad *qy)
{
	u64 x1 = (u64)qx->d1, x2 = (u64)qx->d2, y1 = (u64)qy->d1;
	u64 y2 = (u64)qy->d2, mask = 0;
	mmx_vu64 ex, ey, dx, dy, sx, sy, k, tri, bits = { 0 };
	u64 lane[NBI];
	u32 j = 0, i;

#if VB == 16
	k = MMX_VEC2(mmx_vu64, 0, 1);
#else
	k = MMX_VEC4(mmx_vu64, 0, 1, 2, 3);
#endif
	tri = (k * (k - 1)) >> 1;
	ex = (u64)qx->e + k * x1 + tri * x2;
	ey = (u64)qy->e + k * y1 + tri * y2;
	dx = NBI * x1 + (NBI * k + NBI * (NBI - 1) / 2) * x2;
	dy = NBI * y1 + (NBI * k + NBI * (NBI - 1) / 2) * y2;
	sx = (mmx_vu64){ 0 } + NBI * NBI * x2;
	sy = (mmx_vu64){ 0 } + NBI * NBI * y2;
	for (; j + NBI <= n; j += NBI) {
		mmx_vs32 txy = mmx_quad_ints(ex, ey);

		__builtin_memcpy(ox + j, &txy, NBI * sizeof(s32));
		__builtin_memcpy(oy + j, (const u8 *)&txy + VB / 2,
				 NBI * sizeof(s32));
		/* lane k's bit at step j + k */
		bits |= (mmx_quad_near(ex) | mmx_quad_near(ey)) << k;
		k += NBI;
		ex += dx;
		dx += sx;
		ey += dy;
		dy += sy;
	}
	__builtin_memcpy(lane, &bits, sizeof(bits));
	for (i = 0; i < NBI; i++)
		mask |= lane[i];
	/* the state at step j: lane 0 */
	__builtin_memcpy(&qx->e, &ex, sizeof(qx->e));
	qx->d1 = (s64)(x1 + j * x2);
	__builtin_memcpy(&qy->e, &ey, sizeof(qy->e));
	qy->d1 = (s64)(y1 + j * y2);
	return mask | mmx_quad_steps_ref(ox, oy, j, n, qx, qy);
}

const struct mmx_simd_ops MMX_SIMD_OPS = {
	.name = MMX_SIMD_NAME,
	.fpu = true,
	.bilinear_gather = mmx_simd_bilinear_gather,
	.bilinear_points = mmx_simd_bilinear_points,
	.hplan = MMX_SIMD_HPLAN_FN,
	.hlerp_plan = mmx_simd_hlerp_plan,
	.vlerp_row = mmx_simd_vlerp_row,
	.box2_row = mmx_simd_box2_row,
	.pick_plan = mmx_simd_pick_plan,
	.pick2_row = mmx_simd_pick2_row,
	.opaque_row = mmx_simd_opaque_row,
	.copy_reversed = mmx_simd_copy_reversed,
	.quad_steps = mmx_simd_quad_steps,
	.transpose_band = mmx_simd_transpose_band,
};
