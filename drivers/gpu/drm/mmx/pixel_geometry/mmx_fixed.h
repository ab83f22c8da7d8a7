/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Fixed-point and wide-integer arithmetic for the pure-logic files of mmx
 * (transforms). No floating point: the same source is built into
 * the kernel module and into the host tests and benchmarks.
 *
 * One fixed-point type, &struct mmx_fixp: signed 64-bit two's complement
 * with 32 fractional bits (S31.32), the format of the TRANSFORM blob. It is
 * a struct so that it cannot be mixed with plain integers by accident.
 *
 * Intermediate products of S31.32 values need up to 128 bits (and the
 * determinant of a 3x3 matrix 192): &struct mmx_wide is a signed 128-bit
 * integer built from two 64-bit halves, so that no code depends on the
 * compiler's __int128 (unavailable on 32-bit kernels, and 128-bit division
 * is not in the kernel at all).
 *
 * Rounding and saturation rules are stated per helper; in short: floor
 * division everywhere (towards minus infinity, never C's truncation),
 * "round" means round half up (towards plus infinity) as pixman does, and
 * results that do not fit saturate to the type's range.
 *
 * Not drm_fixed.h: 6.1's lacks saturation, 128-bit products and floor
 * division (and host builds have no DRM headers).
 */

#ifndef _MMX_FIXED_H_
#define _MMX_FIXED_H_

#include "mmx_pure.h"

#ifdef __KERNEL__
#include <linux/compiler.h>
#include <linux/errno.h>
#include <linux/limits.h>
#include <linux/math64.h>
#else
#include <errno.h>
#include <stdint.h>
#include <sys/cdefs.h>		/* __always_inline */

/* Host shims of the kernel helpers used by the pure files. */
static inline s64 div64_s64(s64 dividend, s64 divisor)
{
	return dividend / divisor;
}

static inline u64 div64_u64(u64 dividend, u64 divisor)
{
	return dividend / divisor;
}

#ifndef S64_MAX
#define S64_MAX		INT64_MAX
#define S64_MIN		INT64_MIN
#define S32_MAX		INT32_MAX
#define S32_MIN		INT32_MIN
#define U32_MAX		UINT32_MAX
#endif
#endif /* __KERNEL__ */

/* S31.32 */
#define MMX_FIXP_SHIFT	32
#define MMX_FIXP_ONE	((s64)1 << MMX_FIXP_SHIFT)
#define MMX_FIXP_HALF	((s64)1 << (MMX_FIXP_SHIFT - 1))

/**
 * struct mmx_fixp - signed fixed-point number, S31.32 two's complement
 * @v: the value times 2^32
 */
struct mmx_fixp {
	s64 v;
};

/**
 * mmx_fixp_from_raw - wrap a raw S31.32 value
 * @raw: value times 2^32, two's complement (as in the uAPI blob)
 *
 * Return: the fixed-point number.
 */
static inline struct mmx_fixp mmx_fixp_from_raw(s64 raw)
{
	struct mmx_fixp f = { .v = raw };

	return f;
}

/**
 * mmx_fixp_from_int - convert an integer, exactly
 * @i: the integer
 *
 * Return: @i as S31.32.
 */
static inline struct mmx_fixp mmx_fixp_from_int(s32 i)
{
	return mmx_fixp_from_raw((s64)i * MMX_FIXP_ONE);
}

/**
 * mmx_fixp_floor - largest integer not above a value
 * @a: the value
 *
 * Return: floor(@a), exact.
 */
static inline s64 mmx_fixp_floor(struct mmx_fixp a)
{
	return a.v >> MMX_FIXP_SHIFT;
}

/**
 * mmx_fixp_ceil - smallest integer not below a value
 * @a: the value
 *
 * Return: ceil(@a), exact.
 */
static inline s64 mmx_fixp_ceil(struct mmx_fixp a)
{
	return (a.v >> MMX_FIXP_SHIFT) + ((a.v & (MMX_FIXP_ONE - 1)) != 0);
}

/**
 * mmx_fixp_round - nearest integer, halves rounded up
 * @a: the value
 *
 * Return: floor(@a + 1/2), exact (no overflow for any @a).
 */
static inline s64 mmx_fixp_round(struct mmx_fixp a)
{
	return ((a.v >> 1) + (MMX_FIXP_HALF >> 1)) >> (MMX_FIXP_SHIFT - 1);
}

/**
 * mmx_fixp_is_int - whether a value is an integer
 * @a: the value
 *
 * Return: true when @a has no fractional part.
 */
static inline bool mmx_fixp_is_int(struct mmx_fixp a)
{
	return !(a.v & (MMX_FIXP_ONE - 1));
}

/**
 * mmx_fixp_eq - exact equality
 * @a: first value
 * @b: second value
 *
 * Return: true when @a == @b.
 */
static inline bool mmx_fixp_eq(struct mmx_fixp a, struct mmx_fixp b)
{
	return a.v == b.v;
}

/**
 * mmx_fixp_add_sat - sum, saturated
 * @a: first term
 * @b: second term
 *
 * Return: @a + @b, clamped to the S31.32 range.
 */
static inline struct mmx_fixp mmx_fixp_add_sat(struct mmx_fixp a,
					       struct mmx_fixp b)
{
	s64 r;

	if (__builtin_add_overflow(a.v, b.v, &r))
		r = b.v < 0 ? S64_MIN : S64_MAX;
	return mmx_fixp_from_raw(r);
}

/**
 * mmx_fixp_sub_sat - difference, saturated
 * @a: minuend
 * @b: subtrahend
 *
 * Return: @a - @b, clamped to the S31.32 range.
 */
static inline struct mmx_fixp mmx_fixp_sub_sat(struct mmx_fixp a,
					       struct mmx_fixp b)
{
	/* -b overflows: a - b = a + 2^63, which fits when a < 0 */
	if (b.v == S64_MIN)
		return mmx_fixp_from_raw(a.v < 0 ? (s64)((u64)a.v - (u64)b.v) :
					 S64_MAX);
	return mmx_fixp_add_sat(a, mmx_fixp_from_raw(-b.v));
}

/* Wide integers */

/**
 * struct mmx_wide - signed 128-bit integer, two's complement
 * @lo: bits 0..63
 * @hi: bits 64..127 (carries the sign)
 */
struct mmx_wide {
	u64 lo;
	s64 hi;
};

/**
 * mmx_wide_from_s64 - widen a 64-bit integer
 * @v: the integer
 *
 * Return: @v as a wide integer.
 */
static inline struct mmx_wide mmx_wide_from_s64(s64 v)
{
	struct mmx_wide w = { .lo = (u64)v, .hi = v < 0 ? -1 : 0 };

	return w;
}

/* Unsigned 64 x 64 -> 128 bit product, from 32-bit halves. */
static inline void mmx_mul_u64_full(u64 a, u64 b, u64 *hi, u64 *lo)
{
	const u64 lo32 = 0xffffffffull;
	u64 a0 = a & lo32, a1 = a >> 32, b0 = b & lo32, b1 = b >> 32;
	u64 p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
	u64 mid = (p00 >> 32) + (p01 & lo32) + (p10 & lo32);

	*lo = (mid << 32) | (p00 & lo32);
	*hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/**
 * mmx_wide_neg - negation
 * @a: the value
 *
 * Return: -@a (wraps for the most negative value, which no caller makes).
 */
static inline struct mmx_wide mmx_wide_neg(struct mmx_wide a)
{
	struct mmx_wide r;

	r.lo = ~a.lo + 1;
	r.hi = (s64)(~(u64)a.hi + (r.lo == 0));
	return r;
}

/**
 * mmx_wide_add - sum
 * @a: first term
 * @b: second term
 *
 * Return: @a + @b (callers keep magnitudes below 2^126).
 */
static inline struct mmx_wide mmx_wide_add(struct mmx_wide a,
					   struct mmx_wide b)
{
	struct mmx_wide r;

	r.lo = a.lo + b.lo;
	r.hi = (s64)((u64)a.hi + (u64)b.hi + (r.lo < a.lo));
	return r;
}

/**
 * mmx_wide_sub - difference
 * @a: minuend
 * @b: subtrahend
 *
 * Return: @a - @b (callers keep magnitudes below 2^126).
 */
static inline struct mmx_wide mmx_wide_sub(struct mmx_wide a,
					   struct mmx_wide b)
{
	return mmx_wide_add(a, mmx_wide_neg(b));
}

/**
 * mmx_wide_mul - full product of two 64-bit integers
 * @a: first factor
 * @b: second factor
 *
 * Return: @a * @b, exact.
 */
static inline struct mmx_wide mmx_wide_mul(s64 a, s64 b)
{
	u64 ua = a < 0 ? -(u64)a : (u64)a;
	u64 ub = b < 0 ? -(u64)b : (u64)b;
	struct mmx_wide r;
	u64 hi;

	mmx_mul_u64_full(ua, ub, &hi, &r.lo);
	r.hi = (s64)hi;
	return (a < 0) != (b < 0) ? mmx_wide_neg(r) : r;
}

/**
 * mmx_wide_sign - sign
 * @a: the value
 *
 * Return: -1, 0 or 1.
 */
static inline int mmx_wide_sign(struct mmx_wide a)
{
	if (a.hi < 0)
		return -1;
	return (a.hi || a.lo) ? 1 : 0;
}

/**
 * mmx_wide_cmp - three-way comparison
 * @a: first value
 * @b: second value
 *
 * Return: -1, 0 or 1 as @a is below, equal to or above @b.
 */
static inline int mmx_wide_cmp(struct mmx_wide a, struct mmx_wide b)
{
	if (a.hi != b.hi)
		return a.hi < b.hi ? -1 : 1;
	if (a.lo != b.lo)
		return a.lo < b.lo ? -1 : 1;
	return 0;
}

/**
 * mmx_wide_fits_s64 - whether a value fits a signed 64-bit integer
 * @a: the value
 *
 * Return: true when @a is in [S64_MIN, S64_MAX].
 */
static inline bool mmx_wide_fits_s64(struct mmx_wide a)
{
	return a.hi == ((s64)a.lo < 0 ? -1 : 0);
}

/**
 * mmx_wide_to_s64_sat - narrow to 64 bits, saturated
 * @a: the value
 *
 * Return: @a clamped to [S64_MIN, S64_MAX].
 */
static inline s64 mmx_wide_to_s64_sat(struct mmx_wide a)
{
	if (mmx_wide_fits_s64(a))
		return (s64)a.lo;
	return a.hi < 0 ? S64_MIN : S64_MAX;
}

/**
 * mmx_wide_shr - arithmetic shift right (floor division by 2^@n)
 * @a: the value
 * @n: shift, 0..127
 *
 * Return: floor(@a / 2^@n).
 */
static inline struct mmx_wide mmx_wide_shr(struct mmx_wide a, unsigned int n)
{
	struct mmx_wide r;

	if (!n)
		return a;
	if (n >= 64) {
		r.lo = (u64)(a.hi >> (n - 64));
		r.hi = a.hi < 0 ? -1 : 0;
	} else {
		r.lo = (a.lo >> n) | ((u64)a.hi << (64 - n));
		r.hi = a.hi >> n;
	}
	return r;
}

/**
 * mmx_wide_shl - shift left (multiplication by 2^@n)
 * @a: the value
 * @n: shift, 0..63; the caller guarantees the result fits
 *
 * Return: @a * 2^@n.
 */
static inline struct mmx_wide mmx_wide_shl(struct mmx_wide a, unsigned int n)
{
	struct mmx_wide r;

	if (!n)
		return a;
	r.lo = a.lo << n;
	r.hi = (s64)(((u64)a.hi << n) | (a.lo >> (64 - n)));
	return r;
}

/**
 * mmx_wide_bits - number of significant bits of the magnitude
 * @a: the value
 *
 * Return: the bit length of |@a| (0 for 0).
 */
static inline unsigned int mmx_wide_bits(struct mmx_wide a)
{
	if (a.hi < 0)
		a = mmx_wide_neg(a);
	if (a.hi)
		return 128 - __builtin_clzll((u64)a.hi);
	return a.lo ? 64 - __builtin_clzll(a.lo) : 0;
}

/**
 * mmx_wide_div_floor - floor division by a positive 64-bit integer
 * @n: dividend
 * @d: divisor, > 0
 *
 * Bitwise long division: slow (128 steps), for set-up code only, never per
 * pixel.
 *
 * Return: floor(@n / @d), saturated to [S64_MIN, S64_MAX].
 */
static inline s64 mmx_wide_div_floor(struct mmx_wide n, s64 d)
{
	bool neg = n.hi < 0;
	u64 qhi = 0, qlo = 0, rem = 0, ud = (u64)d;
	u64 nhi, nlo;
	int i;

	if (neg)
		n = mmx_wide_neg(n);
	nhi = (u64)n.hi;
	nlo = n.lo;
	for (i = 127; i >= 0; i--) {
		u64 bit = i >= 64 ? (nhi >> (i - 64)) & 1 : (nlo >> i) & 1;
		bool carry = rem >> 63;

		rem = (rem << 1) | bit;
		if (carry || rem >= ud) {
			rem -= ud;
			if (i >= 64)
				qhi |= (u64)1 << (i - 64);
			else
				qlo |= (u64)1 << i;
		}
	}
	/* floor for negative dividends: -ceil(|n| / d) */
	if (neg && rem) {
		qlo++;
		qhi += !qlo;
	}
	if (qhi || qlo > (u64)S64_MAX + neg)
		return neg ? S64_MIN : S64_MAX;
	return neg ? (s64)(0 - qlo) : (s64)qlo;
}

/**
 * mmx_wide_div_wide_floor - floor division of wide integers, quotient small
 * @n: dividend
 * @d: divisor, > 0
 * @shift: the quotient is computed as floor(@n * 2^@shift / @d), 0..32
 *
 * Both operands are first reduced by a common power of two so that @d
 * fits 62 bits; that reduction truncates, so the quotient is exact when @d
 * already fits and otherwise exact to about 2^-60 relative.
 *
 * Return: the quotient, saturated to [S64_MIN, S64_MAX].
 */
static inline s64 mmx_wide_div_wide_floor(struct mmx_wide n, struct mmx_wide d,
					  unsigned int shift)
{
	unsigned int bits = mmx_wide_bits(d), k = bits > 62 ? bits - 62 : 0;

	n = mmx_wide_shr(n, k);
	d = mmx_wide_shr(d, k);
	if (mmx_wide_bits(n) + shift > 125)
		return n.hi < 0 ? S64_MIN : S64_MAX;
	return mmx_wide_div_floor(mmx_wide_shl(n, shift), (s64)d.lo);
}

/**
 * mmx_div_floor - floor division of 64-bit integers
 * @n: dividend
 * @d: divisor, > 0
 *
 * Return: floor(@n / @d) (C division truncates towards zero instead).
 */
static inline s64 mmx_div_floor(s64 n, s64 d)
{
	s64 q = div64_s64(n, d);

	return q - (q * d > n);
}

#endif /* _MMX_FIXED_H_ */
