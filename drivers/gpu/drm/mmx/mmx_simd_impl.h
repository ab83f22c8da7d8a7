/* SPDX-License-Identifier: GPL-2.0-only */
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
typedef u32 mmx_vhu32 __attribute__((vector_size(VB / 2)));
typedef u64 mmx_vu64 __attribute__((vector_size(VB)));
typedef u32 mmx_v4u32 __attribute__((vector_size(16)));

#if VB == 16
#define MMX_EVEN_ODD	0, 2, 1, 3
#define MMX_EVENS	0, 2, 4, 6
#define MMX_ODDS	1, 3, 5, 7
#define MMX_REVERSE	3, 2, 1, 0
#define MMX_LO_BYTES	0, 1, 2, 3, 4, 5, 6, 7
#define MMX_HI_BYTES	8, 9, 10, 11, 12, 13, 14, 15
#define MMX_CONCAT	0, 1, 2, 3
#elif VB == 32
#define MMX_EVEN_ODD	0, 2, 4, 6, 1, 3, 5, 7
#define MMX_EVENS	0, 2, 4, 6, 8, 10, 12, 14
#define MMX_ODDS	1, 3, 5, 7, 9, 11, 13, 15
#define MMX_REVERSE	7, 6, 5, 4, 3, 2, 1, 0
#define MMX_LO_BYTES	0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15
#define MMX_HI_BYTES	16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, \
			28, 29, 30, 31
#define MMX_CONCAT	0, 1, 2, 3, 4, 5, 6, 7
#else
#error "MMX_SIMD_BYTES must be 16 or 32"
#endif

static __always_inline mmx_vu32 mmx_ld(const void *p)
{
	mmx_vu32 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

static __always_inline void mmx_st(void *p, mmx_vu32 v)
{
	__builtin_memcpy(p, &v, sizeof(v));
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

static __always_inline u64 mmx_ld64(const u32 *p)
{
	u64 v;

	__builtin_memcpy(&v, p, sizeof(v));
	return v;
}

/*
 * NBI 64-bit loads into one vector, built from the values (element by
 * element assignment would go through the stack and stall).
 */
#if VB == 16
#define MMX_LD64S(p, i)	((mmx_vu64){ mmx_ld64(p(i)), mmx_ld64(p((i) + 1)) })
#else
#define MMX_LD64S(p, i)	((mmx_vu64){ mmx_ld64(p(i)), mmx_ld64(p((i) + 1)), \
				     mmx_ld64(p((i) + 2)), mmx_ld64(p((i) + 3)) })
#endif

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
	mmx_vu32 v = (mmx_vu32)pairs;
	mmx_vu8 s = (mmx_vu8)__builtin_shufflevector(v, v, MMX_EVEN_ODD);
	mmx_vh8 lo = __builtin_shufflevector(s, s, MMX_LO_BYTES);
	mmx_vh8 hi = __builtin_shufflevector(s, s, MMX_HI_BYTES);

	*l = __builtin_convertvector(lo, mmx_vs16);
	*r = __builtin_convertvector(hi, mmx_vs16);
}

/* Channels in 16-bit lanes (each 0..255) back to NBI pixels. */
static __always_inline mmx_vhu32 mmx_pack(mmx_vs16 v)
{
	return (mmx_vhu32)__builtin_convertvector(v, mmx_vh8);
}

static void mmx_simd_bilinear_gather(u32 *dst, u32 n, const u32 *px,
				     size_t stride, const size_t *off,
				     const u64 *wx, const u64 *wy)
{
	u32 i = 0;

#define MMX_TOP(k)	(px + off[k])
#define MMX_BOT(k)	(px + off[k] + stride)
	for (; i + NBI <= n; i += NBI) {
		mmx_vu64 t = MMX_LD64S(MMX_TOP, i), b = MMX_LD64S(MMX_BOT, i);
		mmx_vs16 tl, tr, bl, br, top, bot;
		mmx_vhu32 r;

		mmx_split_pairs(t, &tl, &tr);
		mmx_split_pairs(b, &bl, &br);
		top = mmx_vlerp(tl, tr, (mmx_vs16)mmx_ld(wx + i));
		bot = mmx_vlerp(bl, br, (mmx_vs16)mmx_ld(wx + i));
		r = mmx_pack(mmx_vlerp(top, bot, (mmx_vs16)mmx_ld(wy + i)));
		r |= MMX_SIMD_BLACK;
		__builtin_memcpy(dst + i, &r, sizeof(r));
	}
	for (; i < n; i++) {
		const u32 *p = px + off[i];

		dst[i] = mmx_bilerp(p[0], p[1], p[stride], p[stride + 1],
				    (u32)(wx[i] & 127), (u32)(wy[i] & 127));
	}
}

static void mmx_simd_hlerp_row(u32 *dst, u32 n, const u32 *row,
			       const u32 *off, const u64 *wx)
{
	u32 i = 0;

#define MMX_ROW(k)	(row + off[k])
	for (; i + NBI <= n; i += NBI) {
		mmx_vu64 t = MMX_LD64S(MMX_ROW, i);
		mmx_vs16 l, r;
		mmx_vhu32 v;

		mmx_split_pairs(t, &l, &r);
		v = mmx_pack(mmx_vlerp(l, r, (mmx_vs16)mmx_ld(wx + i)));
		__builtin_memcpy(dst + i, &v, sizeof(v));
	}
	for (; i < n; i++) {
		const u32 *p = row + off[i];

		dst[i] = mmx_unspread(mmx_lerp(mmx_spread(p[0]),
					       mmx_spread(p[1]),
					       (u32)(wx[i] & 127)));
	}
}

static void mmx_simd_vlerp_row(u32 *dst, u32 n, const u32 *a, const u32 *b,
			       u32 w)
{
	mmx_vs16 wv = (mmx_vs16){} + (s16)w;
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		mmx_vu8 va = (mmx_vu8)mmx_ld(a + i), vb = (mmx_vu8)mmx_ld(b + i);
		mmx_vs16 al = __builtin_convertvector(
			__builtin_shufflevector(va, va, MMX_LO_BYTES), mmx_vs16);
		mmx_vs16 ah = __builtin_convertvector(
			__builtin_shufflevector(va, va, MMX_HI_BYTES), mmx_vs16);
		mmx_vs16 bl = __builtin_convertvector(
			__builtin_shufflevector(vb, vb, MMX_LO_BYTES), mmx_vs16);
		mmx_vs16 bh = __builtin_convertvector(
			__builtin_shufflevector(vb, vb, MMX_HI_BYTES), mmx_vs16);
		mmx_vhu32 lo = mmx_pack(mmx_vlerp(al, bl, wv));
		mmx_vhu32 hi = mmx_pack(mmx_vlerp(ah, bh, wv));
		mmx_vu32 r = __builtin_shufflevector(lo, hi, MMX_CONCAT);

		mmx_st(dst + i, r | MMX_SIMD_BLACK);
	}
	for (; i < n; i++)
		dst[i] = mmx_unspread(mmx_lerp(mmx_spread(a[i]),
					       mmx_spread(b[i]), w)) |
			 MMX_SIMD_BLACK;
}

/* floor((a + b) / 2) in each byte, as mmx_avg() */
static __always_inline mmx_vu32 mmx_vavg(mmx_vu32 a, mmx_vu32 b)
{
	return (a & b) + (((a ^ b) & 0xfefefefeu) >> 1);
}

static void mmx_simd_box2_row(u32 *dst, u32 n, const u32 *src,
			      size_t stride)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		const u32 *p = src + 2 * (size_t)i;
		mmx_vu32 t0 = mmx_ld(p), t1 = mmx_ld(p + NPX);
		mmx_vu32 b0 = mmx_ld(p + stride), b1 = mmx_ld(p + stride + NPX);
		mmx_vu32 top = mmx_vavg(__builtin_shufflevector(t0, t1, MMX_EVENS),
					__builtin_shufflevector(t0, t1, MMX_ODDS));
		mmx_vu32 bot = mmx_vavg(__builtin_shufflevector(b0, b1, MMX_EVENS),
					__builtin_shufflevector(b0, b1, MMX_ODDS));

		mmx_st(dst + i, mmx_vavg(top, bot) | MMX_SIMD_BLACK);
	}
	for (; i < n; i++) {
		const u32 *p = src + 2 * (size_t)i;

		dst[i] = mmx_avg(mmx_avg(p[0], p[1]),
				 mmx_avg(p[stride], p[stride + 1])) |
			 MMX_SIMD_BLACK;
	}
}

static void mmx_simd_pick2_row(u32 *dst, u32 n, const u32 *src)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		mmx_vu32 a = mmx_ld(src + 2 * (size_t)i);
		mmx_vu32 b = mmx_ld(src + 2 * (size_t)i + NPX);

		mmx_st(dst + i, __builtin_shufflevector(a, b, MMX_EVENS));
	}
	for (; i < n; i++)
		dst[i] = src[2 * (size_t)i];
}

static void mmx_simd_copy_reversed(u32 *dst, const u32 *src, u32 n)
{
	u32 i = 0;

	for (; i + NPX <= n; i += NPX) {
		mmx_vu32 v = mmx_ld(src - (ptrdiff_t)i - (NPX - 1));

		mmx_st(dst + i, __builtin_shufflevector(v, v, MMX_REVERSE));
	}
	for (; i < n; i++)
		dst[i] = src[-(ptrdiff_t)i];
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

#define MMX_PREFETCH_ROWS	12

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

const struct mmx_simd_ops MMX_SIMD_OPS = {
	.name = MMX_SIMD_NAME,
	.fpu = true,
	.bilinear_gather = mmx_simd_bilinear_gather,
	.hlerp_row = mmx_simd_hlerp_row,
	.vlerp_row = mmx_simd_vlerp_row,
	.box2_row = mmx_simd_box2_row,
	.pick2_row = mmx_simd_pick2_row,
	.copy_reversed = mmx_simd_copy_reversed,
	.transpose_band = mmx_simd_transpose_band,
};
