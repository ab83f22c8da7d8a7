// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_transform.c (and the wide arithmetic of mmx_fixed.h).
 *
 * Oracles:
 * - pixman 0.42 (an independent implementation of RandR's sampling) for the
 *   composition: pixman_image_composite32(PIXMAN_OP_SRC) of an x8r8g8b8
 *   source with the same matrix and filter, REPEAT_NONE, into a8r8g8b8.
 *   Outside the source pixman reads transparent, whose premultiplied RGB
 *   equals black, so the RGB bytes are compared. Test matrices are exactly
 *   representable in 16.16 (pixman's format) and the entries of the first
 *   two columns are even multiples of 2^-16, so that the pixel-centre points
 *   M (u + 1/2, v + 1/2, 1) are exact in 16.16 too: pixman (which rounds
 *   them to 16.16) and mmx (which keeps 2^-32) sample the same point.
 *   Projective sources are placed at non-negative coordinates, because
 *   pixman's general fetcher computes ((u64) x << 16) / w, which is
 *   wrong for negative x.
 * - __int128 arithmetic for the wide helpers.
 * - Hand-worked values for the bounding boxes and refusals (the comment of
 *   each table says how).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/mman.h>
#include <pixman.h>

#include "mmx_raster.h"
#include "mmx_simd.h"
#include "mmx_transform.h"
#include "homography.h"
#include "unit.h"

#define ONE	((s64)1 << 32)
#define FX(d)	((s64)llround((d) * 4294967296.0))

/* Deterministic xorshift so failures reproduce. */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static u64 rng64(void)
{
	return unit_xorshift64(&rng_state);
}

static double rnd(double lo, double hi)
{
	return lo + (hi - lo) * (double)(rng64() >> 11) / 9007199254740992.0;
}

static int rnd_int(int lo, int hi)
{
	return lo + (int)(rng64() % (u64)(hi - lo + 1));
}

/* Round to a multiple of 2^-bits, as S31.32. */
static s64 fx_bits(double d, int bits)
{
	return (s64)llround(d * (double)(1 << bits)) * ((s64)1 << (32 - bits));
}

/* Wide arithmetic against __int128 */

static __int128 wide_to_i128(struct mmx_wide w)
{
	return (__int128)(((unsigned __int128)(u64)w.hi << 64) | w.lo);
}

static __int128 floor_div128(__int128 n, __int128 d)
{
	__int128 q = n / d;

	return q - ((q * d) > n);
}

static s64 rnd_s64_bits(void)
{
	int bits = rnd_int(0, 63);
	/* a shift by 64 is undefined: 0 bits is 0 */
	s64 v = bits ? (s64)(rng64() >> (64 - bits)) : 0;

	return (rng64() & 1) ? -v : v;
}

static int test_wide(void)
{
	int i;

	for (i = 0; i < 200000; i++) {
		s64 a = rnd_s64_bits(), b = rnd_s64_bits(), c = rnd_s64_bits();
		struct mmx_wide p = mmx_wide_mul(a, b);
		__int128 ip = (__int128)a * b, q;
		unsigned int sh = (unsigned int)rnd_int(0, 100);

		UNIT_CHECK(wide_to_i128(p) == ip, "mul %lld %lld",
			   (long long)a, (long long)b);
		UNIT_CHECK(wide_to_i128(mmx_wide_add(p, mmx_wide_from_s64(c))) ==
			   ip + c, "add");
		UNIT_CHECK(wide_to_i128(mmx_wide_shr(p, sh)) == ip >> sh, "shr");
		UNIT_CHECK(mmx_wide_cmp(p, mmx_wide_from_s64(c)) ==
			   (ip < c ? -1 : ip > c), "cmp");
		if (c > 0) {
			q = floor_div128(ip, c);
			if (q >= INT64_MIN && q <= INT64_MAX)
				UNIT_CHECK(mmx_wide_div_floor(p, c) == (s64)q,
					   "div %lld*%lld/%lld", (long long)a,
					   (long long)b, (long long)c);
			else
				UNIT_CHECK(mmx_wide_div_floor(p, c) ==
					   (q < 0 ? INT64_MIN : INT64_MAX), "sat");
		}
		if (b) {
			UNIT_CHECK(mmx_div_floor(a, b < 0 ? -b : b) ==
				   (s64)floor_div128(a, b < 0 ? -(__int128)b : b),
				   "div64");
		}
	}
	return 0;
}

static int test_fixp(void)
{
	static const struct {
		const char *name;
		s64 raw;
		s64 floor, ceil, round;
	} cases[] = {
#include "tests/mmx_cases_fixp.h"
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct mmx_fixp f = mmx_fixp_from_raw(cases[i].raw);

		UNIT_CHECK(mmx_fixp_floor(f) == cases[i].floor, "%s floor",
			   cases[i].name);
		UNIT_CHECK(mmx_fixp_ceil(f) == cases[i].ceil, "%s ceil",
			   cases[i].name);
		UNIT_CHECK(mmx_fixp_round(f) == cases[i].round, "%s round %lld",
			   cases[i].name, (long long)mmx_fixp_round(f));
	}
	UNIT_CHECK(mmx_fixp_add_sat(mmx_fixp_from_raw(INT64_MAX),
				    mmx_fixp_from_raw(1)).v == INT64_MAX, "sat+");
	UNIT_CHECK(mmx_fixp_sub_sat(mmx_fixp_from_raw(INT64_MIN),
				    mmx_fixp_from_raw(1)).v == INT64_MIN, "sat-");
	return 0;
}

/* Refusals and bounding boxes */

#define M_ID	ONE, 0, 0, 0, ONE, 0, 0, 0, ONE

static const struct {
	const char *name;
	s64 m[9];
	uint32_t w, h, ext;
} refusal_cases[] = {
#include "tests/mmx_cases_transform_refusal.h"
};

static int test_prepare_refuses(void)
{
	struct mmx_transform t, before;
	size_t i;

	for (i = 0; i < sizeof(refusal_cases) / sizeof(refusal_cases[0]); i++) {
		memset(&t, 0x5a, sizeof(t));
		before = t;
		UNIT_CHECK(mmx_transform_prepare(&t, refusal_cases[i].m,
						 refusal_cases[i].w,
						 refusal_cases[i].h,
						 refusal_cases[i].ext) == -EINVAL,
			   "%s accepted", refusal_cases[i].name);
		UNIT_CHECK(!memcmp(&t, &before, sizeof(t)), "%s touched t",
			   refusal_cases[i].name);
	}
	return 0;
}

static const struct {
	const char *name;
	s64 m[9];
	uint32_t w, h;
	enum mmx_transform_kind kind;
	int32_t bx, by;
	uint32_t bw, bh;
} bbox_cases[] = {
#include "tests/mmx_cases_transform_bbox.h"
};

static int test_prepare_bbox(void)
{
	struct mmx_transform t;
	int32_t x, y;
	uint32_t w, h;
	size_t i;

	for (i = 0; i < sizeof(bbox_cases) / sizeof(bbox_cases[0]); i++) {
		UNIT_CHECK(!mmx_transform_prepare(&t, bbox_cases[i].m, bbox_cases[i].w,
						  bbox_cases[i].h, 8192),
			   "%s refused", bbox_cases[i].name);
		mmx_transform_bbox(&t, &x, &y, &w, &h);
		UNIT_CHECK(t.kind == bbox_cases[i].kind, "%s kind %d",
			   bbox_cases[i].name, t.kind);
		UNIT_CHECK(x == bbox_cases[i].bx && y == bbox_cases[i].by &&
			   w == bbox_cases[i].bw && h == bbox_cases[i].bh,
			   "%s bbox %d,%d %ux%u", bbox_cases[i].name, x, y, w, h);
	}
	mmx_transform_identity(&t, 800, 600);
	mmx_transform_bbox(&t, &x, &y, &w, &h);
	UNIT_CHECK(t.kind == MMX_TRANSFORM_IDENTITY && !x && !y && w == 800 &&
		   h == 600, "identity helper");
	return 0;
}

/* Random matrices */

struct test_case {
	s64 m[9];
	uint32_t w, h;
};

/*
 * Random affine matrix: rotation, anisotropic scale, shear, translation,
 * entries of the first two columns multiples of 2^-15, translations of
 * 2^-16. The output's image lies roughly within [-20, 140]^2.
 */
static void random_affine(struct test_case *c)
{
	double a = rnd(-M_PI, M_PI), sx = rnd(0.25, 3), sy = rnd(0.25, 3);
	double k = rnd(-0.5, 0.5), ca = cos(a), sa = sin(a);

	c->w = (uint32_t)rnd_int(1, 97);
	c->h = (uint32_t)rnd_int(1, 71);
	if (rng64() % 4 == 0) {		/* pure scale, pixman's scaled paths */
		ca = 1;
		sa = 0;
		k = 0;
	}
	c->m[0] = fx_bits(ca * sx, 15);
	c->m[1] = fx_bits((k * ca - sa) * sy, 15);
	c->m[3] = fx_bits(sa * sx, 15);
	c->m[4] = fx_bits((k * sa + ca) * sy, 15);
	c->m[2] = fx_bits(rnd(-30, 120), 16);
	c->m[5] = fx_bits(rnd(-30, 120), 16);
	c->m[6] = 0;
	c->m[7] = 0;
	c->m[8] = ONE;
}

/*
 * Random projective matrix: the homography taking the output's corners to a
 * jittered quadrilateral inside [1, 150]^2 (so every sample point is at
 * non-negative coordinates, see the file comment), rounded like the affine
 * ones (w's row to 2^-15 / 2^-16 as well).
 */
static void random_projective_sized(struct test_case *c, uint32_t ow,
				    uint32_t oh, double jitter)
{
	double w, h, q[4][2], e[9], x0, y0, sc;
	int i;

	c->w = ow;
	c->h = oh;
	w = c->w;
	h = c->h;
	x0 = rnd(1, 40);
	y0 = rnd(1, 40);
	sc = rnd(0.4, 1.6);
	for (i = 0; i < 4; i++) {
		q[i][0] = x0 + sc * ((i & 1) ? w : 0) + rnd(0, jitter) * w;
		q[i][1] = y0 + sc * ((i & 2) ? h : 0) + rnd(0, jitter) * h;
	}
	/* m0..m7 with m8 = 1: x (m6 u + m7 v + 1) = m0 u + m1 v + m2 */
	homography(e, w, h, q);
	for (i = 0; i < 8; i++)
		c->m[i] = (i % 3 == 2) ? fx_bits(e[i], 16) : fx_bits(e[i], 15);
	c->m[8] = ONE;
}

static void random_projective(struct test_case *c)
{
	random_projective_sized(c, (uint32_t)rnd_int(1, 97),
				(uint32_t)rnd_int(1, 71), 0.3);
}

/* The pixman oracle */

struct scene {
	uint32_t *big;		/* pixman's source image, PW x PH */
	int pw, ph;
	int ox, oy;		/* its top-left in transform space */
	int dx, dy;		/* the mmx screen inside it */
	int sw, sh;
};

static void scene_fill(struct scene *s)
{
	int i;

	s->big = calloc((size_t)s->pw * s->ph, 4);
	for (i = 0; i < s->pw * s->ph; i++) {
		int x = i % s->pw, y = i / s->pw;

		if (x >= s->dx && x < s->dx + s->sw && y >= s->dy &&
		    y < s->dy + s->sh)
			s->big[i] = 0xff000000u | (uint32_t)(rng64() & 0xffffff);
	}
}

/* A screen of pw x ph at (ox, oy), the mmx screen a random part of it. */
static void scene_init(struct scene *s, int pw, int ph, int ox, int oy)
{
	s->pw = pw;
	s->ph = ph;
	s->ox = ox;
	s->oy = oy;
	s->dx = rnd_int(0, pw / 4);
	s->dy = rnd_int(0, ph / 4);
	s->sw = rnd_int(1, pw - s->dx);
	s->sh = rnd_int(1, ph - s->dy);
	scene_fill(s);
}

/*
 * A screen around the transformed output: pixman's image is the bounding
 * box plus random margins (at least one pixel on the top and left, so that
 * projective sample points are at non-negative pixman coordinates), the mmx
 * screen that image minus random insets: most output pixels show the
 * screen, and its four edges are crossed.
 */
static void scene_around(struct scene *s, const struct mmx_transform *t)
{
	int ml = rnd_int(1, (int)t->bbox_w / 4 + 2);
	int mt = rnd_int(1, (int)t->bbox_h / 4 + 2);

	s->ox = t->bbox_x - ml;
	s->oy = t->bbox_y - mt;
	s->pw = (int)t->bbox_w + ml + rnd_int(0, (int)t->bbox_w / 4 + 2);
	s->ph = (int)t->bbox_h + mt + rnd_int(0, (int)t->bbox_h / 4 + 2);
	s->dx = rnd_int(0, ml + (int)t->bbox_w / 8);
	s->dy = rnd_int(0, mt + (int)t->bbox_h / 8);
	s->sw = s->pw - s->dx - rnd_int(0, s->pw / 8);
	s->sh = s->ph - s->dy - rnd_int(0, s->ph / 8);
	if (s->sw < 1)
		s->sw = 1;
	if (s->sh < 1)
		s->sh = 1;
	scene_fill(s);
}

static int max_channel_diff(uint32_t a, uint32_t b)
{
	int i, d, m = 0;

	for (i = 0; i < 24; i += 8) {
		d = abs((int)((a >> i) & 0xff) - (int)((b >> i) & 0xff));
		m = d > m ? d : m;
	}
	return m;
}

static long bilinear_off_by_one, bilinear_above;
static long oracle_pixels, oracle_lit;
static long simd_compared[3], simd_differ[3];

static const char *const simd_names[3] = { "scalar", "sse2", "avx2" };

/*
 * The same composition with every implementation of the inner loops this
 * CPU runs, in random bands of rows: each must equal @ref bit for bit.
 * Returns the number of implementations that differ.
 */
static int compare_simd(const char *name, const struct mmx_transform *t,
			enum mmx_filter filter, const struct mmx_frame *screen,
			s32 sx, s32 sy, const u32 *ref)
{
	const struct mmx_simd_ops *saved = mmx_simd;
	size_t n = (size_t)t->out_w * t->out_h;
	u32 *o = malloc(n * 4);
	struct mmx_frame out = { o, t->out_w, t->out_h, t->out_w };
	int i, bad = 0;
	u32 v, rows;
	size_t k;

	for (i = 0; i < 3; i++) {
		const struct mmx_simd_ops *ops = mmx_simd_find(simd_names[i]);

		if (!ops)
			continue;
		mmx_simd = ops;
		memset(o, 0x5a, n * 4);
		for (v = 0; v < t->out_h; v += rows) {
			rows = (u32)rnd_int(1, 40);
			mmx_transform_compose(t, filter, screen, sx, sy, &out, v,
					      v + rows);
		}
		simd_compared[i]++;
		if (!memcmp(o, ref, n * 4))
			continue;
		for (k = 0; k < n && o[k] == ref[k]; k++)
			;
		fprintf(stderr, "%s %s: %s differs at (%zu,%zu): %08x, reference %08x\n",
			name, filter ? "bilinear" : "nearest", ops->name,
			k % t->out_w, k / t->out_w, o[k], ref[k]);
		simd_differ[i]++;
		bad++;
	}
	mmx_simd = saved;
	free(o);
	return bad;
}

/*
 * Compose with mmx and with pixman and compare. Returns 0 when nearest is
 * exact and bilinear within 1 per channel.
 */
static int compare_pixman(const char *name, const struct test_case *c,
			  const struct scene *s, enum mmx_filter filter)
{
	struct mmx_transform t;
	pixman_transform_t pt;
	pixman_image_t *src, *dst;
	uint32_t *mo, *po;
	struct mmx_frame screen, out;
	int i, j, bad = 0, worst = 0;

	if (mmx_transform_prepare(&t, c->m, c->w, c->h, 8192)) {
		fprintf(stderr, "%s: refused\n", name);
		return -1;
	}
	mo = malloc((size_t)c->w * c->h * 4);
	po = malloc((size_t)c->w * c->h * 4);
	screen.pixels = s->big + (size_t)s->dy * s->pw + s->dx;
	screen.width = (uint32_t)s->sw;
	screen.height = (uint32_t)s->sh;
	screen.stride = (uint32_t)s->pw;
	out.pixels = mo;
	out.width = c->w;
	out.height = c->h;
	out.stride = c->w;
	mmx_transform_compose(&t, filter, &screen, s->ox + s->dx, s->oy + s->dy,
			      &out, 0, c->h);
	bad = compare_simd(name, &t, filter, &screen, s->ox + s->dx,
			   s->oy + s->dy, mo);

	/* pixman: T(-ox, -oy) M, exact integer row operations */
	for (i = 0; i < 3; i++) {
		for (j = 0; j < 3; j++) {
			s64 e = c->m[3 * i + j];

			if (i == 0)
				e -= (s64)s->ox * c->m[6 + j];
			if (i == 1)
				e -= (s64)s->oy * c->m[6 + j];
			pt.matrix[i][j] = (pixman_fixed_t)(e >> 16);
		}
	}
	src = pixman_image_create_bits(PIXMAN_x8r8g8b8, s->pw, s->ph, s->big,
				       s->pw * 4);
	dst = pixman_image_create_bits(PIXMAN_a8r8g8b8, (int)c->w, (int)c->h, po,
				       (int)c->w * 4);
	pixman_image_set_transform(src, &pt);
	pixman_image_set_filter(src, filter == MMX_FILTER_BILINEAR ?
				PIXMAN_FILTER_BILINEAR : PIXMAN_FILTER_NEAREST,
				NULL, 0);
	pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE);
	pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst, 0, 0, 0, 0, 0, 0,
				 (int)c->w, (int)c->h);
	pixman_image_unref(src);
	pixman_image_unref(dst);

	for (i = 0; i < (int)(c->w * c->h) && !bad; i++) {
		int d = max_channel_diff(mo[i], po[i]);

		oracle_pixels++;
		oracle_lit += (po[i] & 0xffffff) != 0;

		if ((mo[i] >> 24) != 0xff)
			d = 256;
		if (filter == MMX_FILTER_BILINEAR && d == 1) {
			bilinear_off_by_one++;
			for (j = 0; j < 24; j += 8)
				if (((mo[i] >> j) & 0xff) > ((po[i] >> j) & 0xff))
					bilinear_above++;
		}
		if (d > (filter == MMX_FILTER_BILINEAR ? 1 : 0)) {
			if (!bad)
				fprintf(stderr,
					"%s %s: pixel (%d,%d) mmx %08x pixman %08x\n",
					name, filter ? "bilinear" : "nearest",
					i % (int)c->w, i / (int)c->w, mo[i], po[i]);
			bad++;
		}
		worst = d > worst ? d : worst;
	}
	free(mo);
	free(po);
	if (bad)
		fprintf(stderr, "%s: %d pixels differ, worst %d, matrix %lld %lld %lld / %lld %lld %lld / %lld %lld %lld (>>16), %ux%u\n",
			name, bad, worst, (long long)(c->m[0] >> 16),
			(long long)(c->m[1] >> 16), (long long)(c->m[2] >> 16),
			(long long)(c->m[3] >> 16), (long long)(c->m[4] >> 16),
			(long long)(c->m[5] >> 16), (long long)(c->m[6] >> 16),
			(long long)(c->m[7] >> 16), (long long)(c->m[8] >> 16),
			c->w, c->h);
	return bad ? -1 : 0;
}

static int test_pixman_random_affine(void)
{
	int n, f, failed = 0;

	for (n = 0; n < 300; n++) {
		struct test_case c;
		struct scene s;
		char name[32];

		struct mmx_transform t;

		random_affine(&c);
		UNIT_CHECK(!mmx_transform_prepare(&t, c.m, c.w, c.h, 4096), "prep");
		if (n % 8 == 7)		/* a screen unrelated to the output */
			scene_init(&s, rnd_int(1, 140), rnd_int(1, 140),
				   rnd_int(-20, 20), rnd_int(-20, 20));
		else
			scene_around(&s, &t);
		snprintf(name, sizeof(name), "affine-%d", n);
		for (f = 0; f < 2; f++)
			failed |= compare_pixman(name, &c, &s, (enum mmx_filter)f);
		free(s.big);
	}
	UNIT_CHECK(!failed, "mismatches (see above)");
	return 0;
}

static int test_pixman_random_projective(void)
{
	int n, f, failed = 0, tried = 0;

	for (n = 0; n < 300; tried++) {
		struct test_case c;
		struct mmx_transform t;
		struct scene s;
		char name[32];

		random_projective(&c);
		if (mmx_transform_prepare(&t, c.m, c.w, c.h, 4096))
			continue;	/* rounding broke the margin: draw again */
		UNIT_CHECK(tried < 1000, "too many refused random matrices");
		scene_around(&s, &t);
		snprintf(name, sizeof(name), "projective-%d", n);
		for (f = 0; f < 2; f++)
			failed |= compare_pixman(name, &c, &s, (enum mmx_filter)f);
		free(s.big);
		n++;
	}
	UNIT_CHECK(!failed, "mismatches (see above)");
	return 0;
}

/*
 * Full-size outputs: long rows take the span path of the projective
 * compositor with every span length, from mild (keystone-like) to strong
 * perspective.
 */
static int test_pixman_large_projective(void)
{
	static const struct {
		uint32_t w, h;
		double jitter;
	} sizes[] = {
		{ 1920, 1080, 0.02 }, { 1920, 1080, 0.1 }, { 1366, 767, 0.05 },
		{ 1281, 719, 0.3 }, { 3001, 37, 0.2 }, { 41, 2049, 0.2 },
	};
	size_t i;
	int f, failed = 0;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		struct test_case c;
		struct mmx_transform t;
		struct scene s;
		char name[48];

		do {
			random_projective_sized(&c, sizes[i].w, sizes[i].h,
						sizes[i].jitter);
		} while (mmx_transform_prepare(&t, c.m, c.w, c.h, 8192) ||
			 t.kind != MMX_TRANSFORM_PROJECTIVE);
		scene_around(&s, &t);
		snprintf(name, sizeof(name), "large-%ux%u-%.2f", c.w, c.h,
			 sizes[i].jitter);
		for (f = 0; f < 2; f++)
			failed |= compare_pixman(name, &c, &s, (enum mmx_filter)f);
		free(s.big);
	}
	UNIT_CHECK(!failed, "mismatches (see above)");
	return 0;
}

/* Every fast path, with parts of the output outside the screen. */
static const struct {
	const char *name;
	s64 m[9];
	enum mmx_transform_kind kind;
} fast_cases[] = {
	{ "identity", { M_ID }, MMX_TRANSFORM_IDENTITY },
	{ "translate", { ONE, 0, 7 * ONE, 0, ONE, -5 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_TRANSLATE },
	{ "rot90", { 0, -ONE, 40 * ONE, ONE, 0, 3 * ONE, 0, 0, ONE }, MMX_TRANSFORM_AXIS },
	{ "rot180", { -ONE, 0, 60 * ONE, 0, -ONE, 50 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "rot270", { 0, ONE, -4 * ONE, -ONE, 0, 70 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "reflect-x", { -ONE, 0, 50 * ONE, 0, ONE, 2 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "reflect-y", { ONE, 0, -3 * ONE, 0, -ONE, 45 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "transpose", { 0, ONE, 5 * ONE, ONE, 0, -6 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "anti-transpose", { 0, -ONE, 70 * ONE, -ONE, 0, 66 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AXIS },
	{ "rot90-half-pixel", { 0, -ONE, 40 * ONE + ONE / 2, ONE, 0, 3 * ONE, 0, 0, ONE },
	  MMX_TRANSFORM_AFFINE },
	{ "translate-quarter", { ONE, 0, ONE / 4, 0, ONE, -ONE / 4, 0, 0, ONE },
	  MMX_TRANSFORM_AFFINE },
	{ "scale-2", { 2 * ONE, 0, 0, 0, 2 * ONE, 0, 0, 0, ONE }, MMX_TRANSFORM_AFFINE },
	{ "scale-0.75", { 3 * ONE / 4, 0, 0, 0, 3 * ONE / 4, 0, 0, 0, ONE },
	  MMX_TRANSFORM_AFFINE },
	{ "keystone", { ONE, ONE / 8, 0, 0, ONE, 0, 0, ONE / 128, ONE },
	  MMX_TRANSFORM_PROJECTIVE },
	{ "constant-w", { ONE, 0, 3 * ONE, 0, ONE, 0, 0, 0, 2 * ONE },
	  MMX_TRANSFORM_PROJECTIVE },
};

static int test_pixman_fast_paths(void)
{
	static const uint32_t sizes[][2] = { { 1, 1 }, { 2, 3 }, { 33, 17 },
					     { 64, 48 }, { 97, 61 }, { 130, 5 } };
	int failed = 0;
	size_t i, k;
	int f, rep;

	for (i = 0; i < sizeof(fast_cases) / sizeof(fast_cases[0]); i++) {
		for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
			for (rep = 0; rep < 4; rep++) {
				struct test_case c;
				struct mmx_transform t;
				struct scene s;

				memcpy(c.m, fast_cases[i].m, sizeof(c.m));
				c.w = sizes[k][0];
				c.h = sizes[k][1];
				UNIT_CHECK(!mmx_transform_prepare(&t, c.m, c.w, c.h,
								  4096),
					   "%s refused", fast_cases[i].name);
				UNIT_CHECK(t.kind == fast_cases[i].kind, "%s kind %d",
					   fast_cases[i].name, t.kind);
				if (rep == 3 && t.kind != MMX_TRANSFORM_PROJECTIVE)
					scene_init(&s, rnd_int(1, 120),
						   rnd_int(1, 120),
						   rnd_int(-30, 30),
						   rnd_int(-30, 30));
				else
					scene_around(&s, &t);
				for (f = 0; f < 2; f++)
					failed |= compare_pixman(fast_cases[i].name,
								 &c, &s,
								 (enum mmx_filter)f);
				free(s.big);
			}
		}
	}
	UNIT_CHECK(!failed, "mismatches (see above)");
	return 0;
}

static int test_bilinear_rounding(void)
{
	/*
	 * Each of mmx's three linear interpolations floors, pixman floors once
	 * at the end: mmx is pixman's value or one below it, never above.
	 */
	UNIT_CHECK(!bilinear_above, "%ld channels above pixman", bilinear_above);
	/* and the comparisons were not vacuous: most pixels show the screen */
	UNIT_CHECK(oracle_pixels > 1000000 && oracle_lit * 2 > oracle_pixels,
		   "%ld of %ld pixels lit", oracle_lit, oracle_pixels);
	fprintf(stderr, "oracle: %ld pixels compared, %ld not black, %ld bilinear pixels one below pixman\n",
		oracle_pixels, oracle_lit, bilinear_off_by_one);
	return 0;
}

/* Rows composed in pieces equal rows composed at once (for every kind). */
static int test_row_ranges(void)
{
	static const uint32_t cuts[] = { 0, 1, 7, 8, 30, 61 };
	size_t i, k;
	int f;

	for (i = 0; i < sizeof(fast_cases) / sizeof(fast_cases[0]); i++) {
		struct mmx_transform t;
		struct scene s;
		uint32_t a[97 * 61], b[97 * 61];
		struct mmx_frame screen, out = { a, 97, 61, 97 };

		UNIT_CHECK(!mmx_transform_prepare(&t, fast_cases[i].m, 97, 61, 4096),
			   "%s", fast_cases[i].name);
		scene_init(&s, 100, 100, 0, 0);
		screen.pixels = s.big;
		screen.width = 100;
		screen.height = 100;
		screen.stride = 100;
		for (f = 0; f < 2; f++) {
			out.pixels = a;
			mmx_transform_compose(&t, (enum mmx_filter)f, &screen, 1, 2,
					      &out, 0, 61);
			out.pixels = b;
			memset(b, 0, sizeof(b));
			for (k = 0; k + 1 < sizeof(cuts) / sizeof(cuts[0]); k++)
				mmx_transform_compose(&t, (enum mmx_filter)f, &screen,
						      1, 2, &out, cuts[k],
						      cuts[k + 1]);
			/* empty and clamped ranges are harmless */
			mmx_transform_compose(&t, (enum mmx_filter)f, &screen, 1, 2,
					      &out, 40, 40);
			mmx_transform_compose(&t, (enum mmx_filter)f, &screen, 1, 2,
					      &out, 61, 1000);
			UNIT_CHECK(!memcmp(a, b, sizeof(a)), "%s filter %d",
				   fast_cases[i].name, f);
		}
		free(s.big);
	}
	return 0;
}

/* Screens far away or empty give black, never a crash. */
static int test_black_outside(void)
{
	static const int32_t offsets[][2] = { { 100000, 0 }, { 0, -100000 },
					      { 5000, 5000 }, { -5000, 0 } };
	struct mmx_transform t;
	uint32_t px[4] = { 0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff };
	uint32_t o[16 * 9];
	struct mmx_frame screen = { px, 2, 2, 2 }, empty = { px, 0, 0, 0 };
	struct mmx_frame out = { o, 16, 9, 16 };
	size_t i, k, j;
	int f;

	for (i = 0; i < sizeof(fast_cases) / sizeof(fast_cases[0]); i++) {
		UNIT_CHECK(!mmx_transform_prepare(&t, fast_cases[i].m, 16, 9, 4096),
			   "%s", fast_cases[i].name);
		for (f = 0; f < 2; f++) {
			for (k = 0; k < 5; k++) {
				memset(o, 0x33, sizeof(o));
				if (k < 4)
					mmx_transform_compose(&t, (enum mmx_filter)f,
							      &screen,
							      offsets[k][0],
							      offsets[k][1], &out,
							      0, 9);
				else
					mmx_transform_compose(&t, (enum mmx_filter)f,
							      &empty, 0, 0, &out,
							      0, 9);
				for (j = 0; j < 16 * 9; j++)
					UNIT_CHECK(o[j] == 0xff000000u,
						   "%s offset %zu pixel %zu = %08x",
						   fast_cases[i].name, k, j, o[j]);
			}
		}
	}
	return 0;
}

/*
 * Full S31.32 precision (not representable in 16.16, so no pixman): NEAREST
 * of an affine matrix against the exact rule evaluated with __int128:
 * x = round-half-up-to-2^-32 of m0 (u + 1/2) + m1 (v + 1/2) + m2, pixel
 * ceil(x) - 1.
 */
static int test_s31_32_affine_nearest(void)
{
	int n;

	for (n = 0; n < 200; n++) {
		struct test_case c;
		struct mmx_transform t;
		struct scene s;
		uint32_t o[97 * 71];
		struct mmx_frame screen, out;
		uint32_t u, v;

		random_affine(&c);
		c.m[0] += (s64)(rng64() & 0xffff);
		c.m[1] -= (s64)(rng64() & 0xffff);
		c.m[3] += (s64)(rng64() & 0xffff);
		c.m[4] -= (s64)(rng64() & 0xffff);
		c.m[2] += (s64)(rng64() & 0xffff);
		c.m[5] += (s64)(rng64() & 0xffff);
		UNIT_CHECK(!mmx_transform_prepare(&t, c.m, c.w, c.h, 4096), "prep");
		scene_init(&s, 130, 130, 0, 0);
		screen.pixels = s.big;
		screen.width = 130;
		screen.height = 130;
		screen.stride = 130;
		out.pixels = o;
		out.width = c.w;
		out.height = c.h;
		out.stride = c.w;
		mmx_transform_compose(&t, MMX_FILTER_NEAREST, &screen, 0, 0, &out, 0,
				      c.h);
		for (v = 0; v < c.h; v++) {
			for (u = 0; u < c.w; u++) {
				__int128 x2 = (__int128)c.m[0] * (2 * u + 1) +
					      (__int128)c.m[1] * (2 * v + 1) +
					      2 * (__int128)c.m[2];
				__int128 y2 = (__int128)c.m[3] * (2 * u + 1) +
					      (__int128)c.m[4] * (2 * v + 1) +
					      2 * (__int128)c.m[5];
				s64 x = (s64)((x2 + 1) >> 1);
				s64 y = (s64)((y2 + 1) >> 1);
				s64 xi = (x - 1) >> 32, yi = (y - 1) >> 32;
				uint32_t want = (xi >= 0 && xi < 130 && yi >= 0 &&
						 yi < 130) ?
						s.big[yi * 130 + xi] : 0xff000000u;

				UNIT_CHECK(o[v * c.w + u] == want,
					   "case %d pixel %u,%u", n, u, v);
			}
		}
		free(s.big);
	}
	return 0;
}

/* Round trips: screen = M(p), then M^-1(screen) = p. */
static int test_round_trip(void)
{
	int n, k;

	for (n = 0; n < 400; n++) {
		struct test_case c;
		struct mmx_transform t;

		if (n & 1)
			random_projective(&c);
		else
			random_affine(&c);
		if (mmx_transform_prepare(&t, c.m, c.w, c.h, 4096))
			continue;
		for (k = 0; k < 50; k++) {
			struct mmx_fixp u = mmx_fixp_from_raw(FX(rnd(0, c.w)));
			struct mmx_fixp v = mmx_fixp_from_raw(FX(rnd(0, c.h)));
			struct mmx_fixp x, y, u2, v2;

			UNIT_CHECK(mmx_transform_point(&t, u, v, &x, &y), "fwd");
			UNIT_CHECK(mmx_transform_point_inverse(&t, x, y, &u2, &v2),
				   "inverse");
			/* two roundings to 2^-32, amplified by |M^-1| <= ~10 */
			UNIT_CHECK(llabs(u2.v - u.v) < 64 && llabs(v2.v - v.v) < 64,
				   "case %d: (%f,%f) -> (%f,%f)", n,
				   u.v / 4294967296.0, v.v / 4294967296.0,
				   u2.v / 4294967296.0, v2.v / 4294967296.0);
		}
	}
	return 0;
}

/*
 * @bytes ending right before an inaccessible page, so that reading past
 * the end faults (vector loads near a row's end must stay inside it).
 */
static void *guarded_alloc(size_t bytes, size_t *map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t len = (bytes + page - 1) / page * page + page;
	u8 *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	mprotect(p + len - page, page, PROT_NONE);
	*map_len = len;
	return p + len - page - bytes;
}

static void guarded_free(void *p, size_t bytes, size_t map_len)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);

	munmap((u8 *)p + bytes + page - map_len, map_len);
}

/*
 * Every implementation of the inner loops against the scalar reference,
 * bit for bit, on the cases the pixman tests composed (compare_simd()),
 * plus scales, 2x downscales and axis transforms at awkward sizes, whose
 * screens end at an inaccessible page (a read past them faults).
 */
static int test_simd_exact(void)
{
	static const double shapes[][6] = {
		{ 2, 0, 0, 0, 2, 0 },		/* box2 / pick2 */
		{ 2, 0, 1, 0, 2, 1 },
		{ 0.75, 0, 0.5, 0, 0.75, -3 },	/* separable upscale */
		{ 1.5, 0, -7, 0, 1.25, 2 },	/* separable downscale */
		{ 0.3, 0, 5, 0, 3.7, -20 },
		{ 0, -1, 61, 1, 0, 0 },		/* rotations, reflections */
		{ 0, 1, 0, -1, 0, 77 },
		{ 0, 1, -3, 1, 0, 5 },
		{ -1, 0, 70, 0, 1, 0 },
		{ 0.9, -0.2, 3, 0.2, 0.9, -4 },
	};
	static const s32 sizes[][2] = {
		{ 1, 1 }, { 3, 7 }, { 65, 9 }, { 129, 17 }, { 300, 33 },
		{ 261, 130 },
	};
	struct mmx_transform t;
	size_t i, j, k, scr_bytes, map_len;
	int f, failed = 0, sw, sh;
	u32 *scr, *ref;

	for (i = 0; i < sizeof(shapes) / sizeof(shapes[0]); i++) {
		for (j = 0; j < sizeof(sizes) / sizeof(sizes[0]); j++) {
			s64 m[9] = { 0, 0, 0, 0, 0, 0, 0, 0, ONE };
			struct mmx_frame screen, out;

			for (k = 0; k < 6; k++)
				m[k] = FX(shapes[i][k]);
			if (mmx_transform_prepare(&t, m, (u32)sizes[j][0],
						  (u32)sizes[j][1], 8192))
				continue;
			sw = rnd_int(1, 700);
			sh = rnd_int(1, 400);
			/*
			 * every other screen ends where the output's bounding
			 * box does: its last pixels are read
			 */
			if (j % 2) {
				sw = t.bbox_x + (int)t.bbox_w;
				sh = t.bbox_y + (int)t.bbox_h;
				sw = sw < 1 ? 1 : sw;
				sh = sh < 1 ? 1 : sh;
			}
			scr_bytes = (size_t)sw * sh * 4;
			scr = guarded_alloc(scr_bytes, &map_len);
			UNIT_CHECK(scr, "mmap");
			if (!scr)
				return -1;
			for (k = 0; k < (size_t)sw * sh; k++)
				scr[k] = (u32)rng64();
			ref = malloc((size_t)t.out_w * t.out_h * 4);
			screen = (struct mmx_frame){ scr, (u32)sw, (u32)sh, (u32)sw };
			out = (struct mmx_frame){ ref, t.out_w, t.out_h, t.out_w };
			for (f = 0; f < 2; f++) {
				const struct mmx_simd_ops *saved = mmx_simd;
				s32 sx = rnd_int(-3, 3), sy = rnd_int(-3, 3);

				mmx_simd = &mmx_simd_scalar;
				mmx_transform_compose(&t, (enum mmx_filter)f, &screen,
						      sx, sy, &out, 0, t.out_h);
				mmx_simd = saved;
				failed |= compare_simd("shape", &t, (enum mmx_filter)f,
						       &screen, sx, sy, ref) ? -1 : 0;
			}
			guarded_free(scr, scr_bytes, map_len);
			free(ref);
		}
	}
	for (i = 0; i < 3; i++) {
		fprintf(stderr, "simd: %s %ld compositions compared, %ld differ%s\n",
			simd_names[i], simd_compared[i], simd_differ[i],
			mmx_simd_find(simd_names[i]) ? "" :
			" (not supported by this CPU)");
		UNIT_CHECK(!simd_differ[i], "%s differs from the scalar reference",
			   simd_names[i]);
	}
	return failed;
}

static const struct unit_case cases[] = {
	{ "wide-arithmetic", "128-bit helpers against __int128", test_wide },
	{ "fixp-rounding", "floor, ceil, round and saturation of S31.32", test_fixp },
	{ "prepare-refuses", "singular, w <= 0, too large: -EINVAL, t untouched",
	  test_prepare_refuses },
	{ "prepare-bbox", "classification and RandR bounding boxes",
	  test_prepare_bbox },
	{ "pixman-random-affine", "300 random affine matrices x 2 filters vs pixman",
	  test_pixman_random_affine },
	{ "pixman-random-projective",
	  "300 random projective matrices x 2 filters vs pixman",
	  test_pixman_random_projective },
	{ "pixman-large-projective",
	  "full-size projective outputs (long rows, all span lengths) vs pixman",
	  test_pixman_large_projective },
	{ "pixman-fast-paths", "every fast path at odd sizes vs pixman",
	  test_pixman_fast_paths },
	{ "bilinear-rounding", "bilinear is pixman's value or one below",
	  test_bilinear_rounding },
	{ "row-ranges", "composing rows in pieces equals composing at once",
	  test_row_ranges },
	{ "black-outside", "far or empty screens give black", test_black_outside },
	{ "s31-32-affine-nearest", "full-precision matrices against the exact rule",
	  test_s31_32_affine_nearest },
	{ "round-trip", "inverse of the forward map is the identity",
	  test_round_trip },
	{ "simd-exact", "every SIMD implementation equals the scalar one bit for bit",
	  test_simd_exact },
};

int main(int argc, char **argv)
{
	/* the pixman tests check the implementation the driver would use */
	mmx_simd_init();
	return UNIT_RUN(cases, argc, argv);
}
