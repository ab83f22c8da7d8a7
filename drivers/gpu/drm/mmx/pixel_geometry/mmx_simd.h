/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The compositor's inner loops, as a table of functions with one
 * implementation per instruction set: the scalar C of mmx_simd_scalar.c
 * (the reference, and the only one outside x86-64), SSE2 and AVX2
 * (mmx_simd_sse2.c and mmx_simd_avx2.c: one source, mmx_simd_impl.h, built
 * twice with their own compiler flags). Every implementation computes the
 * same bits as the scalar one; the unit tests compare them pixel for pixel.
 *
 * The table is chosen once (mmx_simd_init()) from the CPU's features. In
 * the kernel the SIMD functions may only run between mmx_simd_begin() and
 * mmx_simd_end() (kernel_fpu_begin()/kernel_fpu_end()), which
 * mmx_transform_compose() does a bounded band of rows at a time.
 */

#ifndef _MMX_SIMD_H_
#define _MMX_SIMD_H_

#include "mmx_pure.h"

#ifndef __KERNEL__
#include <sys/cdefs.h>		/* __always_inline */
#endif

/* Most pixels composed in one vector-register section. */
#define MMX_SIMD_SECTION	65536u

/* Most points of one bilinear_points call. */
#define MMX_SIMD_POINTS		64

/* Output rows of the transposing copy's band, one per transpose_band. */
#define MMX_SIMD_TBAND		16

/* Most pixels of one horizontal interpolation plan, a multiple of 8. */
#define MMX_SIMD_HPLAN		64

/**
 * struct mmx_simd_hplan - the horizontal interpolations of a tile of
 *	columns, the same on every screen row (a scale)
 * @n: pixels, at most %MMX_SIMD_HPLAN
 * @win: bit g set: the pixels of group g (pixels 8 g .. 8 g + 7) read
 *	within the nine source pixels from @base[g] (AVX2 loads them as two
 *	vectors)
 * @base: per group of eight pixels, the source pixel their @idx count from
 * @idx: pixel i interpolates source pixel @base[i / 8] + @idx[i] and the
 *	one right of it
 * @wx: the pixels' 7-bit weights, in the form and order of the
 *	implementation that built the plan
 *
 * Built by mmx_simd_ops.hplan and read only by the same implementation's
 * hlerp_plan.
 */
struct mmx_simd_hplan {
	u32 n;
	u32 win;
	u32 base[MMX_SIMD_HPLAN / 8];
	u32 idx[MMX_SIMD_HPLAN];
	u64 wx[MMX_SIMD_HPLAN];
};

/**
 * struct mmx_simd_quad - a quotient stepped by forward differences
 * @e: its value at the current pixel, in 2^-%MMX_SIMD_QSHIFT units
 * @d1: the difference to the next pixel's value
 * @d2: the constant second difference
 */
struct mmx_simd_quad {
	s64 e;
	s64 d1;
	s64 d2;
};

#define MMX_SIMD_QSHIFT	38
/* 2^-12 + quantisation, in 2^-16 units: fractions this near an integer */
#define MMX_SIMD_QDELTA	20

/**
 * struct mmx_simd_ops - the compositor's inner loops for one instruction set
 * @name: "scalar", "sse2" or "avx2"
 * @fpu: the functions use vector registers: kernel callers bracket them
 *	with mmx_simd_begin() and mmx_simd_end()
 * @bilinear_gather: @n bilinear samples whose 2x2 footprints lie inside
 *	the image @px (rows @stride pixels apart): sample i interpolates the
 *	pixels at @off[i], @off[i] + 1 and the two below them with the 7-bit
 *	weights @wx[i] and @wy[i], each repeated in the four 16-bit lanes of
 *	the u64 (w * 0x0001000100010001); result 0xffRRGGBB
 * @bilinear_points: @n (at most %MMX_SIMD_POINTS) bilinear samples at
 *	points given as 128 times their coordinates in the image @px (index
 *	and 7-bit weight): false, writing nothing, unless every footprint lies
 *	inside the image (x index below @wlim, y index below @hlim); the
 *	caller ensures that @hlim @stride + @wlim < 2^31
 * @hplan: the plan @p of the horizontal interpolations of @n (at most
 *	%MMX_SIMD_HPLAN) pixels whose sample points are @x + i @dx in a row
 *	of @w pixels, in 2^-32 pixels with the bilinear half-pixel bias
 *	applied (source pixel @x >> 32, 7-bit weight bits 25..31); the caller
 *	ensures 0 <= index < @w for every pixel, and index + 1 < @w for
 *	@hlerp_plan
 * @hlerp_plan: @dst[i] = horizontal interpolation of the two pixels of
 *	@row that plan pixel i reads, with its weight: the first of the three
 *	interpolations of a bilinear sample; its top byte is unspecified
 * @vlerp_row: @dst[i] = vertical interpolation of @a[i] and @b[i] with the
 *	7-bit weight @w, the last of the three, as 0xffRRGGBB
 * @box2_row: @dst[i] = average of the 2x2 pixels at @src + 2 i, a bilinear
 *	sample with both weights one half, as 0xffRRGGBB
 * @pick_plan: @dst[i] = the pixel of @row that plan pixel i reads (NEAREST:
 *	an @hplan built from the sample points minus 2^-32, whose indices are
 *	the pixels'; the weights are not used)
 * @pick2_row: @dst[i] = @src[2 i]
 * @opaque_row: @dst[i] = the little-endian word at @src + 4 i, with its
 *	top byte set (an opaque XRGB8888 or ARGB8888 row)
 * @copy_reversed: @dst[i] = @src[-i]
 * @quad_steps: @n (at most 64) steps of two quotients: @ox[j] and @oy[j]
 *	are the integer parts (floor(e / 2^%MMX_SIMD_QSHIFT)) of @qx and @qy at
 *	step j, and @qx, @qy are advanced by @n steps; returns the mask of
 *	the steps where either fraction is within %MMX_SIMD_QDELTA / 2^16 of
 *	an integer (the caller decides those exactly)
 * @transpose_band: the transposing copy of a band of %MMX_SIMD_TBAND output
 *	rows (@d, @dstride pixels apart) and columns [@u0, @u1): output row k
 *	column u shows @p[(u - @u0) @ustep + k] when @xv > 0, else
 *	@p[(u - @u0) @ustep + %MMX_SIMD_TBAND - 1 - k]
 */
struct mmx_simd_ops {
	const char *name;
	bool fpu;
	void (*bilinear_gather)(u32 *dst, u32 n, const u32 *px, size_t stride,
				const size_t *off, const u64 *wx,
				const u64 *wy);
	bool (*bilinear_points)(u32 *dst, u32 n, const s32 *cx, const s32 *cy,
				const u32 *px, size_t stride, u32 wlim,
				u32 hlim);
	void (*hplan)(struct mmx_simd_hplan *p, u32 n, s64 x, s64 dx, u32 w);
	void (*hlerp_plan)(u32 *dst, const struct mmx_simd_hplan *p,
			   const u32 *row);
	void (*vlerp_row)(u32 *dst, u32 n, const u32 *a, const u32 *b, u32 w);
	void (*box2_row)(u32 *dst, u32 n, const u32 *src, size_t stride);
	void (*pick_plan)(u32 *dst, const struct mmx_simd_hplan *p,
			  const u32 *row);
	void (*pick2_row)(u32 *dst, u32 n, const u32 *src);
	void (*opaque_row)(u32 *dst, u32 n, const u8 *src);
	void (*copy_reversed)(u32 *dst, const u32 *src, u32 n);
	u64 (*quad_steps)(s32 *ox, s32 *oy, u32 n, struct mmx_simd_quad *qx,
			  struct mmx_simd_quad *qy);
	void (*transpose_band)(const u32 *p, s32 xv, ptrdiff_t ustep, u32 *d,
			       size_t dstride, u32 u0, u32 u1);
};

/* A weight w of 0..127 in the four 16-bit lanes of a u64. */
#define MMX_SIMD_LANES4(w)	((u64)(w) * 0x0001000100010001ull)

/*
 * Bilinear interpolation, the reference arithmetic. The three channels of
 * a pixel are spread into the 16-bit lanes of a u64 (blue, red, green at
 * bits 0, 16, 32), and each linear interpolation a + (b - a) w / 128 is one
 * multiply for all three channels: the lanes cannot disturb each other
 * because every lane's true result lies in [0, 255] and a lane's fraction
 * plus what the lanes below contribute stays under one unit. Each
 * interpolation is an exact floor (floor((a (128 - w) + b w) / 128)), which
 * is what the SIMD versions compute in 16-bit lanes; horizontal then
 * vertical, the result is pixman's (exact sum of the four weighted pixels,
 * truncated) or one below it.
 */
#define MMX_SIMD_SPREAD	0x000000ff00ff00ffull
#define MMX_SIMD_BLACK	0xff000000u

static __always_inline u64 mmx_spread(u32 p)
{
	return ((u64)p | (u64)p << 24) & MMX_SIMD_SPREAD;
}

static __always_inline u32 mmx_unspread(u64 v)
{
	return (u32)(v | v >> 24);
}

static __always_inline u64 mmx_lerp(u64 a, u64 b, u32 w)
{
	return (a + (((b - a) * w) >> 7)) & MMX_SIMD_SPREAD;
}

static __always_inline u32 mmx_bilerp(u32 tl, u32 tr, u32 bl, u32 br,
				      u32 wx, u32 wy)
{
	u64 a = mmx_spread(tl), b = mmx_spread(tr);
	u64 c = mmx_spread(bl), d = mmx_spread(br);
	u64 v = mmx_lerp(mmx_lerp(a, b, wx), mmx_lerp(c, d, wx), wy);

	return mmx_unspread(v) | MMX_SIMD_BLACK;
}

/* The linear interpolation of two pixels; the top byte is unspecified. */
static __always_inline u32 mmx_lerp_px(u32 a, u32 b, u32 w)
{
	return mmx_unspread(mmx_lerp(mmx_spread(a), mmx_spread(b), w));
}

/* floor((a + b) / 2) in each byte */
static __always_inline u32 mmx_avg(u32 a, u32 b)
{
	return (a & b) + (((a ^ b) & 0xfefefefeu) >> 1);
}

/* A load or store of any type at any alignment: one move instruction. */
#define MMX_LOAD(type, p) \
	({ type __v; __builtin_memcpy(&__v, (p), sizeof(__v)); __v; })
#define MMX_STORE(p, v) \
	({ typeof(v) __v = (v); __builtin_memcpy((p), &__v, sizeof(__v)); })

/* 64-bit access to two adjacent pixels, whatever their alignment. */
static __always_inline u64 mmx_ld64(const u32 *p)
{
	return MMX_LOAD(u64, p);
}

static __always_inline void mmx_st64(u32 *p, u64 v)
{
	MMX_STORE(p, v);
}

/*
 * The reference loops over pixels @i to @n - 1: the scalar implementation
 * (from 0) and the tails the vector loops of the SIMD ones leave (from the
 * first pixel they did not do). The arguments are those of the ops of the
 * same name.
 */
static __always_inline void mmx_bilinear_gather_ref(u32 *dst, u32 i, u32 n,
						    const u32 *px,
						    size_t stride,
						    const size_t *off,
						    const u64 *wx,
						    const u64 *wy)
{
	for (; i < n; i++) {
		const u32 *p = px + off[i];

		dst[i] = mmx_bilerp(p[0], p[1], p[stride], p[stride + 1],
				    (u32)(wx[i] & 127), (u32)(wy[i] & 127));
	}
}

static __always_inline void mmx_vlerp_row_ref(u32 *dst, u32 i, u32 n,
					      const u32 *a, const u32 *b,
					      u32 w)
{
	for (; i < n; i++)
		dst[i] = mmx_lerp_px(a[i], b[i], w) | MMX_SIMD_BLACK;
}

static __always_inline void mmx_box2_row_ref(u32 *dst, u32 i, u32 n,
					     const u32 *src, size_t stride)
{
	for (; i < n; i++) {
		const u32 *p = src + 2 * (size_t)i;

		dst[i] = mmx_avg(mmx_avg(p[0], p[1]),
				 mmx_avg(p[stride], p[stride + 1])) |
			 MMX_SIMD_BLACK;
	}
}

static __always_inline void mmx_pick2_row_ref(u32 *dst, u32 i, u32 n,
					      const u32 *src)
{
	for (; i < n; i++)
		dst[i] = src[2 * (size_t)i];
}

static __always_inline void mmx_opaque_row_ref(u32 *dst, u32 i, u32 n,
					       const u8 *src)
{
	for (; i < n; i++) {
		const u8 *p = src + 4 * (size_t)i;

		dst[i] = ((u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16) |
			 MMX_SIMD_BLACK;
	}
}

static __always_inline void mmx_copy_reversed_ref(u32 *dst, const u32 *src,
						  u32 i, u32 n)
{
	for (; i < n; i++)
		dst[i] = src[-(ptrdiff_t)i];
}

/*
 * Steps @j to @n - 1 of quad_steps, from the state at step @j; the mask of
 * those steps (arithmetic modulo 2^64).
 */
static __always_inline u64 mmx_quad_steps_ref(s32 *ox, s32 *oy, u32 j, u32 n,
					      struct mmx_simd_quad *qx,
					      struct mmx_simd_quad *qy)
{
	u64 mask = 0;

	for (; j < n; j++) {
		u32 fx = (u32)(qx->e >> (MMX_SIMD_QSHIFT - 16)) & 0xffff;
		u32 fy = (u32)(qy->e >> (MMX_SIMD_QSHIFT - 16)) & 0xffff;

		ox[j] = (s32)(qx->e >> MMX_SIMD_QSHIFT);
		oy[j] = (s32)(qy->e >> MMX_SIMD_QSHIFT);
		if (unlikely(fx - MMX_SIMD_QDELTA >= 65536 - 2 * MMX_SIMD_QDELTA ||
			     fy - MMX_SIMD_QDELTA >= 65536 - 2 * MMX_SIMD_QDELTA))
			mask |= (u64)1 << j;
		qx->e = (s64)((u64)qx->e + (u64)qx->d1);
		qx->d1 = (s64)((u64)qx->d1 + (u64)qx->d2);
		qy->e = (s64)((u64)qy->e + (u64)qy->d1);
		qy->d1 = (s64)((u64)qy->d1 + (u64)qy->d2);
	}
	return mask;
}

extern const struct mmx_simd_ops mmx_simd_scalar;
#if defined(CONFIG_X86_64) || (!defined(__KERNEL__) && defined(__x86_64__))
#define MMX_SIMD_X86 1
extern const struct mmx_simd_ops mmx_simd_sse2;
extern const struct mmx_simd_ops mmx_simd_avx2;
#endif

extern const struct mmx_simd_ops *mmx_simd;

void mmx_simd_init(void);
void mmx_simd_hplan_plain(struct mmx_simd_hplan *p, u32 n, s64 x, s64 dx,
			  u32 w);
const struct mmx_simd_ops *mmx_simd_find(const char *name);
bool mmx_simd_supported(const struct mmx_simd_ops *ops);

#if defined(__KERNEL__) && defined(MMX_SIMD_X86)
#include <asm/fpu/api.h>

static inline void mmx_simd_begin(const struct mmx_simd_ops *ops)
{
	if (ops->fpu)
		kernel_fpu_begin();
}

static inline void mmx_simd_end(const struct mmx_simd_ops *ops)
{
	if (ops->fpu)
		kernel_fpu_end();
}
#else
static inline void mmx_simd_begin(const struct mmx_simd_ops *ops)
{
	(void)ops;
}

static inline void mmx_simd_end(const struct mmx_simd_ops *ops)
{
	(void)ops;
}
#endif

#endif /* _MMX_SIMD_H_ */
