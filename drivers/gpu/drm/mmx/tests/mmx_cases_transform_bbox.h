/* SPDX-License-Identifier: GPL-2.0-only */
/* Bounding-box cases (uses ONE); mmx_kunit.c and test_transform.c include it. */
	/*
	 * Expected boxes worked by hand: M applied to the corners (0,0), (w,0),
	 * (0,h), (w,h), then floor of the minimum and ceil of the maximum.
	 */
	{ "identity", { ONE, 0, 0, 0, ONE, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_IDENTITY, 0, 0, 1920, 1080 },
	{ "translate", { ONE, 0, 100 * ONE, 0, ONE, -20 * ONE, 0, 0, ONE }, 640, 480,
	  MMX_TRANSFORM_TRANSLATE, 100, -20, 640, 480 },
	/* x = -y' + 1080, y = x': corners to (1080,0) (1080,1920) (0,0) (0,1920) */
	{ "rot90", { 0, -ONE, 1080 * ONE, ONE, 0, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AXIS, 0, 0, 1080, 1920 },
	{ "rot180", { -ONE, 0, 1920 * ONE, 0, -ONE, 1080 * ONE, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AXIS, 0, 0, 1920, 1080 },
	{ "rot270-no-translation", { 0, ONE, 0, -ONE, 0, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AXIS, 0, -1920, 1080, 1920 },
	{ "reflect-x", { -ONE, 0, 1920 * ONE, 0, ONE, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AXIS, 0, 0, 1920, 1080 },
	{ "reflect-y", { ONE, 0, 0, 0, -ONE, 1080 * ONE, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AXIS, 0, 0, 1920, 1080 },
	{ "scale-2", { 2 * ONE, 0, 0, 0, 2 * ONE, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AFFINE, 0, 0, 3840, 2160 },
	{ "scale-0.75", { 3 * ONE / 4, 0, 0, 0, 3 * ONE / 4, 0, 0, 0, ONE }, 1920, 1080,
	  MMX_TRANSFORM_AFFINE, 0, 0, 1440, 810 },
	/* 0.3 is not exact in S31.32: it rounds to 1288490189 / 2^32 = 0.3 + e,
	 * so 1280 x 0.3 = 384 + 1280 e -> ceil 385, 720 x 0.3 -> 217
	 */
	{ "scale-0.3-rounded-out", { 1288490189, 0, 0, 0, 1288490189, 0, 0, 0, ONE }, 1280,
	  720, MMX_TRANSFORM_AFFINE, 0, 0, 385, 217 },
	/* translation by (-10.5, 3.25): x in [-10.5, 53.5], y in [3.25, 51.25] */
	{ "translate-fraction", { ONE, 0, -21 * ONE / 2, 0, ONE, 13 * ONE / 4, 0, 0, ONE },
	  64, 48, MMX_TRANSFORM_AFFINE, -11, 3, 65, 49 },
	/* 45 degrees, cos = sin = 1/2^0.5 (rounded to S31.32, below 0.7071068):
	 * x = c u - s v in [-48 s, 64 c] = [-33.94, 45.25], y = s u + c v in
	 * [0, 112 c] = [0, 79.196]
	 */
	{ "rot45", { 3037000500, -3037000500, 0, 3037000500, 3037000500, 0,
		     0, 0, ONE }, 64, 48, MMX_TRANSFORM_AFFINE, -34, 0, 80, 80 },
	/* keystone: w = 1 + v / 64, x = u, y = v: top row x in [0, 64], bottom
	 * row w = 1.75, y = 48 / 1.75 = 27.43
	 */
	{ "keystone-vertical", { ONE, 0, 0, 0, ONE, 0, 0, ONE / 64, ONE }, 64, 48,
	  MMX_TRANSFORM_PROJECTIVE, 0, 0, 64, 28 },
	/* w = 2 everywhere: the screen area is halved */
	{ "projective-constant-w", { ONE, 0, 0, 0, ONE, 0, 0, 0, 2 * ONE }, 65, 49,
	  MMX_TRANSFORM_PROJECTIVE, 0, 0, 33, 25 },
	/* w = 1 + u / 128: right column x = 64 / 1.5 = 42.67, y in [0, 32] */
	{ "keystone-horizontal", { ONE, 0, 0, 0, ONE, 0, ONE / 128, 0, ONE }, 64, 48,
	  MMX_TRANSFORM_PROJECTIVE, 0, 0, 43, 48 },
