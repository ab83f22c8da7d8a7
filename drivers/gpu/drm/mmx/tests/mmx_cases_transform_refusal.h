/* SPDX-License-Identifier: GPL-2.0-only */
/* Refused matrices (uses ONE); mmx_kunit.c and test_transform.c include it. */
	/* Each one breaks exactly one rule of mmx_transform_prepare(). */
	{ "zero-matrix", { 0 }, 64, 48, 4096 },
	{ "singular-affine-rank1", { ONE, 2 * ONE, 0, 2 * ONE, 4 * ONE, 0, 0, 0, ONE },
	  64, 48, 4096 },
	{ "singular-projective", { ONE, 0, 0, 0, ONE, 0, ONE, 0, 0 }, 64, 48, 4096 },
	{ "singular-rows-dependent", { ONE, ONE / 2, 3, 2 * ONE, ONE, 6, 5, 7, ONE },
	  64, 48, 4096 },
	{ "singular-tiny-entries", { 1, 2, 0, 2, 4, 0, 0, 0, ONE }, 64, 48, 4096 },
	/* w = 1 - u / 32 is -1 at u = 64 */
	{ "w-negative-right", { ONE, 0, 0, 0, ONE, 0, -ONE / 32, 0, ONE }, 64, 48, 4096 },
	/* w = 1 - v / 48 is 0 on the bottom edge */
	{ "w-zero-bottom", { ONE, 0, 0, 0, ONE, 0, 0, -ONE / 48, ONE }, 64, 48, 4096 },
	{ "w-negative-everywhere", { ONE, 0, 0, 0, ONE, 0, 0, 0, -ONE }, 64, 48, 4096 },
	/* w = 1 - v (1 - 2^-20) / 48 is 2^-20 at the bottom: margin 2^-16 */
	{ "w-margin", { ONE, 0, 0, 0, ONE, 0, 0, -(ONE - 4096) / 48, ONE }, 64, 48,
	  1 << 15 },
	/* 1920 x 1080 scaled by 4 is 7680 wide */
	{ "bbox-too-wide", { 4 * ONE, 0, 0, 0, ONE, 0, 0, 0, ONE }, 1920, 1080, 4096 },
	{ "bbox-too-tall", { ONE, 0, 0, 0, 4 * ONE, 0, 0, 0, ONE }, 1920, 1080, 4096 },
	{ "beyond-extent-right", { ONE, 0, 3000 * ONE, 0, ONE, 0, 0, 0, ONE }, 1920,
	  1080, 4096 },
	{ "beyond-extent-left", { ONE, 0, -5000 * ONE, 0, ONE, 0, 0, 0, ONE }, 1920,
	  1080, 4096 },
	{ "beyond-extent-top", { ONE, 0, 0, 0, ONE, -5000 * ONE, 0, 0, ONE }, 1920,
	  1080, 4096 },
	{ "entry-2^15", { 32768 * ONE, 0, 0, 0, ONE, 0, 0, 0, ONE }, 1, 1, 32768 },
	{ "entry-minus-2^15", { ONE, 0, 0, 0, ONE, -32768 * ONE, 0, 0, ONE }, 1, 1,
	  32768 },
	{ "out-width-0", { ONE, 0, 0, 0, ONE, 0, 0, 0, ONE }, 0, 48, 4096 },
	{ "out-height-too-large", { ONE, 0, 0, 0, ONE, 0, 0, 0, ONE }, 64, 16385, 32768 },
