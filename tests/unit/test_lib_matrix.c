// SPDX-License-Identifier: GPL-2.0-only
/*
 * libmmx's matrices: RandR rotations and reflections (the X server's
 * mapping of output pixels to screen points), keystone solving (round
 * trip of the corners within 1e-6), bounding boxes as the kernel computes
 * them, fixed-point conversion and filter names.
 */

#include <errno.h>
#include <math.h>

#include "libmmx.h"
#include "mmx_matrix.h"
#include "unit.h"

/* Screen point shown by output point (u, v) under @m. */
static int map(const double m[9], double u, double v, double *x, double *y)
{
	return mmx_matrix_apply(m, u, v, x, y);
}

static int near(double a, double b, double eps)
{
	return fabs(a - b) <= eps;
}

/*
 * For a 40x30 mode, where the output's top-left corner (0, 0) and
 * top-right corner (40, 0) land, per rotation: e.g. "left" (90) shows the
 * picture turned a quarter counter-clockwise, so the output's top edge
 * shows the screen's left edge read bottom to top: (0,0) -> (30,0)... as
 * in the X server, (u, v) -> (h - v, u).
 */
static int test_rotations(void)
{
	static const struct {
		uint32_t rot;
		double x0, y0, x1, y1;	/* images of (0,0) and (40,0) */
		uint32_t bw, bh;
	} cases[] = {
		{ MMX_ROTATE_0, 0, 0, 40, 0, 40, 30 },
		{ MMX_ROTATE_90, 30, 0, 30, 40, 30, 40 },
		{ MMX_ROTATE_180, 40, 30, 0, 30, 40, 30 },
		{ MMX_ROTATE_270, 0, 40, 0, 0, 30, 40 },
		{ MMX_ROTATE_0 | MMX_REFLECT_X, 40, 0, 0, 0, 40, 30 },
		{ MMX_ROTATE_0 | MMX_REFLECT_Y, 0, 30, 40, 30, 40, 30 },
		{ MMX_ROTATE_0 | MMX_REFLECT_X | MMX_REFLECT_Y, 40, 30, 0, 30,
		  40, 30 },
		/* rotate first, then reflect the rotated picture */
		{ MMX_ROTATE_90 | MMX_REFLECT_X, 0, 0, 0, 40, 30, 40 },
		{ MMX_ROTATE_90 | MMX_REFLECT_Y, 30, 40, 30, 0, 30, 40 },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		double m[9], x, y;
		int32_t bx, by;
		uint32_t bw, bh;

		UNIT_CHECK(!mmx_matrix_rotation(m, cases[i].rot, 40, 30),
			   "rotation 0x%x", cases[i].rot);
		UNIT_CHECK(!map(m, 0, 0, &x, &y), "map");
		UNIT_CHECK(near(x, cases[i].x0, 1e-12) &&
			   near(y, cases[i].y0, 1e-12),
			   "rot 0x%x: (0,0) -> (%g,%g), want (%g,%g)",
			   cases[i].rot, x, y, cases[i].x0, cases[i].y0);
		UNIT_CHECK(!map(m, 40, 0, &x, &y), "map");
		UNIT_CHECK(near(x, cases[i].x1, 1e-12) &&
			   near(y, cases[i].y1, 1e-12),
			   "rot 0x%x: (40,0) -> (%g,%g), want (%g,%g)",
			   cases[i].rot, x, y, cases[i].x1, cases[i].y1);
		UNIT_CHECK(!mmx_crtc_bbox(NULL, cases[i].rot, 40, 30, &bx, &by,
					  &bw, &bh), "bbox");
		UNIT_CHECK(bx == 0 && by == 0 && bw == cases[i].bw &&
			   bh == cases[i].bh, "rot 0x%x: bbox %d,%d %ux%u",
			   cases[i].rot, bx, by, bw, bh);
	}
	return 0;
}

static int test_rotation_invalid(void)
{
	double m[9];

	UNIT_CHECK(mmx_matrix_rotation(m, 0, 40, 30) == -EINVAL, "no bit");
	UNIT_CHECK(mmx_matrix_rotation(m, MMX_ROTATE_0 | MMX_ROTATE_90, 40,
				       30) == -EINVAL, "two rotations");
	UNIT_CHECK(mmx_matrix_rotation(m, MMX_ROTATE_0 | (1u << 6), 40, 30) ==
		   -EINVAL, "unknown bit");
	return 0;
}

/* Deterministic pseudo-random doubles in [lo, hi). */
static double rnd(unsigned int *seed, double lo, double hi)
{
	*seed = *seed * 1103515245u + 12345u;
	return lo + (hi - lo) * ((*seed >> 8) & 0xffffff) / 16777216.0;
}

static int test_keystone_round_trip(void)
{
	unsigned int seed = 6, n, ok = 0;

	for (n = 0; n < 2000; n++) {
		uint32_t w = 64 + (uint32_t)rnd(&seed, 0, 3000);
		uint32_t h = 48 + (uint32_t)rnd(&seed, 0, 2000);
		double p[8], m[9], x, y, d = 0.2;
		int i;

		/* Each corner moved by up to 20% of the size, inwards or out. */
		p[0] = rnd(&seed, -d, d) * w;
		p[1] = rnd(&seed, -d, d) * h;
		p[2] = w + rnd(&seed, -d, d) * w;
		p[3] = rnd(&seed, -d, d) * h;
		p[4] = rnd(&seed, -d, d) * w;
		p[5] = h + rnd(&seed, -d, d) * h;
		p[6] = w + rnd(&seed, -d, d) * w;
		p[7] = h + rnd(&seed, -d, d) * h;
		UNIT_CHECK(!mmx_matrix_keystone(m, w, h, p), "case %u", n);
		for (i = 0; i < 4; i++) {
			double u = (i & 1) ? w : 0, v = (i & 2) ? h : 0;

			UNIT_CHECK(!map(m, u, v, &x, &y), "case %u w<=0", n);
			UNIT_CHECK(near(x, p[2 * i], 1e-6) &&
				   near(y, p[2 * i + 1], 1e-6),
				   "case %u corner %d: (%.9g,%.9g) want (%.9g,%.9g)",
				   n, i, x, y, p[2 * i], p[2 * i + 1]);
		}
		ok++;
	}
	UNIT_CHECK(ok == 2000, "%u", ok);
	return 0;
}

/* Documentation/mmx.rst's worked example, to the digits it prints. */
static int test_keystone_documented(void)
{
	static const double p[8] = { -150, -24, 2090, 4, 12, 1080, 1912, 1072 };
	static const double want[9] = {
		1.20484499, 0.152024813, -150, 0.0146564019, 1.20445537, -24,
		1.82671393e-05, 0.000168734395, 1,
	};
	double m[9];
	int32_t bx, by;
	uint32_t bw, bh;
	int i;

	UNIT_CHECK(!mmx_matrix_keystone(m, 1920, 1080, p), "solve");
	for (i = 0; i < 9; i++)
		UNIT_CHECK(near(m[i], want[i], fabs(want[i]) * 1e-8),
			   "m[%d] = %.9g, want %.9g", i, m[i], want[i]);
	UNIT_CHECK(!mmx_crtc_bbox(m, MMX_ROTATE_0, 1920, 1080, &bx, &by, &bw,
				  &bh), "bbox");
	UNIT_CHECK(bx == -150 && by == -24 && bw == 2240 && bh == 1104,
		   "bbox %d,%d %ux%u", bx, by, bw, bh);
	return 0;
}

static int test_keystone_invalid(void)
{
	/* collinear: three corners on y = 0 */
	static const double line[8] = { 0, 0, 100, 0, 50, 0, 100, 100 };
	/* bow tie: bottom corners swapped */
	static const double bow[8] = { 0, 0, 100, 0, 100, 100, 0, 100 };
	/* mirrored: left and right swapped */
	static const double mirror[8] = { 100, 0, 0, 0, 100, 100, 0, 100 };
	static const double nan_pt[8] = { 0, 0, 100, 0, 0, 100, NAN, 100 };
	static const double ok[8] = { 0, 0, 100, 0, 0, 100, 100, 100 };
	double m[9];

	UNIT_CHECK(mmx_matrix_keystone(m, 100, 100, line) == -EINVAL, "line");
	UNIT_CHECK(mmx_matrix_keystone(m, 100, 100, bow) == -EINVAL, "bow");
	UNIT_CHECK(mmx_matrix_keystone(m, 100, 100, mirror) == -EINVAL,
		   "mirror");
	UNIT_CHECK(mmx_matrix_keystone(m, 100, 100, nan_pt) == -EINVAL, "nan");
	UNIT_CHECK(mmx_matrix_keystone(m, 0, 100, ok) == -EINVAL, "0 width");
	UNIT_CHECK(!mmx_matrix_keystone(m, 100, 100, ok), "identity quad");
	UNIT_CHECK(near(m[0], 1, 1e-12) && near(m[4], 1, 1e-12) &&
		   near(m[1], 0, 1e-12) && near(m[6], 0, 1e-12),
		   "identity: %g %g %g %g", m[0], m[4], m[1], m[6]);
	return 0;
}

/* RandR: the client transform applies after the rotation. */
static int test_effective(void)
{
	const double scale2[9] = { 2, 0, 0, 0, 2, 0, 0, 0, 1 };
	double m[9], x, y, inv[9];
	int32_t bx, by;
	uint32_t bw, bh;

	UNIT_CHECK(!mmx_matrix_effective(m, scale2, MMX_ROTATE_90, 40, 30),
		   "effective");
	/* rotation: (40,0) -> (30,40); then scale: (60,80) */
	UNIT_CHECK(!map(m, 40, 0, &x, &y) && near(x, 60, 1e-12) &&
		   near(y, 80, 1e-12), "(40,0) -> (%g,%g)", x, y);
	UNIT_CHECK(!mmx_crtc_bbox(scale2, MMX_ROTATE_90, 40, 30, &bx, &by,
				  &bw, &bh), "bbox");
	UNIT_CHECK(bx == 0 && by == 0 && bw == 60 && bh == 80,
		   "bbox %d,%d %ux%u", bx, by, bw, bh);
	UNIT_CHECK(!mmx_matrix_invert(inv, m), "invert");
	UNIT_CHECK(!map(inv, 60, 80, &x, &y) && near(x, 40, 1e-9) &&
		   near(y, 0, 1e-9), "inverse (60,80) -> (%g,%g)", x, y);
	return 0;
}

static int test_fixed(void)
{
	const double m[9] = { 1, -0.5, 3.25, -1.0 / 3, 32767.5, -32767.5, 0,
			      1e-9, 1 };
	const double big[9] = { 32768, 0, 0, 0, 1, 0, 0, 0, 1 };
	int64_t f[9];
	double back[9];
	int i;

	UNIT_CHECK(!mmx_matrix_to_fixed(f, m), "to fixed");
	UNIT_CHECK(f[0] == (int64_t)1 << 32 && f[1] == -((int64_t)1 << 31),
		   "1.0, -0.5: %lld %lld", (long long)f[0], (long long)f[1]);
	UNIT_CHECK(f[3] == -1431655765, "-1/3: %lld", (long long)f[3]);
	mmx_matrix_from_fixed(back, f);
	for (i = 0; i < 9; i++)
		UNIT_CHECK(near(back[i], m[i], 0x1p-33), "entry %d", i);
	UNIT_CHECK(mmx_matrix_to_fixed(f, big) == -EINVAL, "2^15 refused");
	return 0;
}

static int test_filters(void)
{
	UNIT_CHECK(!strcmp(mmx_filter_canonical("fast"), "nearest"), "fast");
	UNIT_CHECK(!strcmp(mmx_filter_canonical("good"), "bilinear"), "good");
	UNIT_CHECK(!strcmp(mmx_filter_canonical("best"), "bilinear"), "best");
	UNIT_CHECK(!strcmp(mmx_filter_canonical("Nearest"), "nearest"), "case");
	UNIT_CHECK(!mmx_filter_canonical("cubic"), "cubic");
	UNIT_CHECK(!mmx_filter_canonical(NULL), "NULL");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct unit_case cases[] = {
		{ "rotations", "RandR rotation/reflection mappings and boxes",
		  test_rotations },
		{ "rotation-invalid", "bad rotation bits refused",
		  test_rotation_invalid },
		{ "keystone-round-trip", "2000 quads: corners within 1e-6",
		  test_keystone_round_trip },
		{ "keystone-documented", "the documented keystone example",
		  test_keystone_documented },
		{ "keystone-invalid", "collinear, crossed, mirrored refused",
		  test_keystone_invalid },
		{ "effective", "transform after rotation, bbox, inverse",
		  test_effective },
		{ "fixed", "S31.32 conversion and range", test_fixed },
		{ "filters", "filter names and RandR aliases", test_filters },
	};

	return UNIT_RUN(cases, argc, argv);
}
