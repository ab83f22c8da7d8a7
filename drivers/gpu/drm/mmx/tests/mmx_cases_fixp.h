/* SPDX-License-Identifier: GPL-2.0-only */
/* Fixed-point rounding cases (uses ONE); mmx_kunit.c and test_transform.c include it. */
	/* worked by hand: raw / 2^32 */
	{ "zero", 0, 0, 0, 0 },
	{ "one", ONE, 1, 1, 1 },
	{ "half", ONE / 2, 0, 1, 1 },
	{ "minus-half", -ONE / 2, -1, 0, 0 },
	{ "minus-1.5", -3 * ONE / 2, -2, -1, -1 },
	{ "epsilon", 1, 0, 1, 0 },
	{ "minus-epsilon", -1, -1, 0, 0 },
	{ "2.75", 11 * ONE / 4, 2, 3, 3 },
	{ "max", S64_MAX, S32_MAX, (s64)S32_MAX + 1, (s64)S32_MAX + 1 },
	{ "min", S64_MIN, S32_MIN, S32_MIN, S32_MIN },
