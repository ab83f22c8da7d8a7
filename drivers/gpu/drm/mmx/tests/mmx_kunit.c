// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * KUnit suites of mmx's pure code: fixed-point math, transform validation
 * and bounding boxes, signal tables and link limits, EDID
 * build and validation, blending. The host unit tests (tests/unit/) check
 * the same files with the same expectations: both include the case tables
 * from mmx_cases_*.h here. These prove that the kernel build of the code,
 * with the kernel's integer helpers and compiler flags (and KASAN/UBSAN on
 * the debug kernel), behaves the same. Built as mmx_kunit.ko only against
 * a kernel with CONFIG_KUNIT: `modprobe mmx_kunit` runs every suite and
 * logs KTAP.
 */

#include <kunit/test.h>
#include <linux/errno.h>
#include <linux/kernel.h>
#include <linux/limits.h>
#include <linux/string.h>

#include "../pixel_geometry/mmx_blend.h"
#include "../mmx_edid.h"
#include "../pixel_geometry/mmx_fixed.h"
#include "../mmx_randr_props.h"
#include "../pixel_geometry/mmx_transform.h"
#include "mmx_test_edid_sum.h"

#define ONE	((s64)1 << 32)
#define P(x)	MMX_SIGPROP(MMX_SIGPROP_##x)

/* Deterministic xorshift: a failure reproduces. */
struct mmx_kunit_rng {
	u64 state;
};

static u64 mmx_kunit_rand(struct mmx_kunit_rng *rng)
{
	rng->state ^= rng->state << 13;
	rng->state ^= rng->state >> 7;
	rng->state ^= rng->state << 17;
	return rng->state;
}

/* A random s64 of random magnitude (0 to 63 significant bits). */
static s64 mmx_kunit_rand_s64(struct mmx_kunit_rng *rng)
{
	unsigned int bits = mmx_kunit_rand(rng) % 64;
	s64 v = (s64)(mmx_kunit_rand(rng) >> (63 - bits) >> 1);

	return mmx_kunit_rand(rng) & 1 ? -v : v;
}

/* ---- fixed point ---------------------------------------------------- */

struct mmx_fixp_case {
	const char *name;
	s64 raw;
	s64 floor, ceil, round;
};

static const struct mmx_fixp_case mmx_fixp_cases[] = {
#include "mmx_cases_fixp.h"
};

static void mmx_fixp_case_desc(const struct mmx_fixp_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_fixp, mmx_fixp_cases, mmx_fixp_case_desc);

static void mmx_fixp_test_rounding(struct kunit *test)
{
	const struct mmx_fixp_case *c = test->param_value;
	struct mmx_fixp f = mmx_fixp_from_raw(c->raw);

	KUNIT_EXPECT_EQ(test, mmx_fixp_floor(f), c->floor);
	KUNIT_EXPECT_EQ(test, mmx_fixp_ceil(f), c->ceil);
	KUNIT_EXPECT_EQ(test, mmx_fixp_round(f), c->round);
}

static void mmx_fixp_test_saturation(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmx_fixp_add_sat(mmx_fixp_from_raw(S64_MAX),
					       mmx_fixp_from_raw(1)).v, S64_MAX);
	KUNIT_EXPECT_EQ(test, mmx_fixp_sub_sat(mmx_fixp_from_raw(S64_MIN),
					       mmx_fixp_from_raw(1)).v, S64_MIN);
	KUNIT_EXPECT_EQ(test, mmx_fixp_add_sat(mmx_fixp_from_int(2),
					       mmx_fixp_from_int(3)).v, 5 * ONE);
}

/*
 * floor(n / d) of 128-bit n (|n| < 2^127) and positive d, saturated to s64,
 * by restoring long division: the kernel has no 128-bit divide, and the
 * reference must not share the code under test.
 */
static s64 mmx_kunit_floor_div(__int128 n, s64 d)
{
	__uint128_t mag = n < 0 ? -(__uint128_t)n : (__uint128_t)n;
	__uint128_t quot = 0, rem = 0;
	__int128 q;
	int bit;

	for (bit = 127; bit >= 0; bit--) {
		rem = (rem << 1) | ((mag >> bit) & 1);
		if (rem >= (u64)d) {
			rem -= (u64)d;
			quot |= (__uint128_t)1 << bit;
		}
	}
	q = n < 0 ? -(__int128)quot : (__int128)quot;
	if (n < 0 && rem)
		q--;
	if (q > S64_MAX)
		return S64_MAX;
	if (q < S64_MIN)
		return S64_MIN;
	return (s64)q;
}

static __int128 mmx_kunit_wide_value(struct mmx_wide w)
{
	return (__int128)(((__uint128_t)(u64)w.hi << 64) | w.lo);
}

/*
 * 128-bit products, sums, shifts, comparisons and floor divisions of random
 * operands against the compiler's __int128, as the host test does.
 */
static void mmx_fixp_test_wide(struct kunit *test)
{
	struct mmx_kunit_rng rng = { 0x9e3779b97f4a7c15ull };
	int i;

	for (i = 0; i < 20000; i++) {
		s64 a = mmx_kunit_rand_s64(&rng), b = mmx_kunit_rand_s64(&rng);
		s64 c = mmx_kunit_rand_s64(&rng);
		unsigned int sh = mmx_kunit_rand(&rng) % 101;
		struct mmx_wide p = mmx_wide_mul(a, b);
		__int128 ip = (__int128)a * b;

		KUNIT_ASSERT_TRUE_MSG(test, mmx_kunit_wide_value(p) == ip,
				      "mul %lld %lld", a, b);
		KUNIT_ASSERT_TRUE_MSG(test,
				      mmx_kunit_wide_value(mmx_wide_add(p, mmx_wide_from_s64(c))) ==
				      ip + c, "add %lld*%lld+%lld", a, b, c);
		KUNIT_ASSERT_TRUE_MSG(test,
				      mmx_kunit_wide_value(mmx_wide_shr(p, sh)) ==
				      ip >> (sh > 127 ? 127 : sh), "shr %u", sh);
		KUNIT_ASSERT_EQ(test, mmx_wide_cmp(p, mmx_wide_from_s64(c)),
				ip < c ? -1 : ip > c ? 1 : 0);
		if (c > 0)
			KUNIT_ASSERT_EQ_MSG(test, mmx_wide_div_floor(p, c),
					    mmx_kunit_floor_div(ip, c),
					    "%lld*%lld/%lld", a, b, c);
		if (b > 0)
			KUNIT_ASSERT_EQ_MSG(test, mmx_div_floor(a, b),
					    mmx_kunit_floor_div(a, b),
					    "%lld/%lld", a, b);
	}
}

static struct kunit_case mmx_fixp_test_cases[] = {
	KUNIT_CASE_PARAM(mmx_fixp_test_rounding, mmx_fixp_gen_params),
	KUNIT_CASE(mmx_fixp_test_saturation),
	KUNIT_CASE(mmx_fixp_test_wide),
	{}
};

static struct kunit_suite mmx_fixp_suite = {
	.name = "mmx_fixed",
	.test_cases = mmx_fixp_test_cases,
};

/* ---- transforms --------------------------------------------------- */

struct mmx_refusal_case {
	const char *name;
	s64 m[9];
	u32 w, h, ext;
};

static const struct mmx_refusal_case mmx_refusal_cases[] = {
#include "mmx_cases_transform_refusal.h"
};

static void mmx_refusal_case_desc(const struct mmx_refusal_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_refusal, mmx_refusal_cases, mmx_refusal_case_desc);

/* A refused matrix leaves the transform as it was. */
static void mmx_transform_test_refuses(struct kunit *test)
{
	const struct mmx_refusal_case *c = test->param_value;
	struct mmx_transform *t, *before;

	t = kunit_kmalloc(test, sizeof(*t), GFP_KERNEL);
	before = kunit_kmalloc(test, sizeof(*before), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_NOT_NULL(test, before);
	memset(t, 0x5a, sizeof(*t));
	memcpy(before, t, sizeof(*t));
	KUNIT_EXPECT_EQ(test, mmx_transform_prepare(t, c->m, c->w, c->h, c->ext),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, memcmp(t, before, sizeof(*t)), 0);
}

struct mmx_bbox_case {
	const char *name;
	s64 m[9];
	u32 w, h;
	enum mmx_transform_kind kind;
	s32 bx, by;
	u32 bw, bh;
};

static const struct mmx_bbox_case mmx_bbox_cases[] = {
#include "mmx_cases_transform_bbox.h"
};

static void mmx_bbox_case_desc(const struct mmx_bbox_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_bbox, mmx_bbox_cases, mmx_bbox_case_desc);

static void mmx_transform_test_bbox(struct kunit *test)
{
	const struct mmx_bbox_case *c = test->param_value;
	struct mmx_transform *t;
	s32 x, y;
	u32 w, h;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	KUNIT_ASSERT_EQ(test, mmx_transform_prepare(t, c->m, c->w, c->h, 8192), 0);
	mmx_transform_bbox(t, &x, &y, &w, &h);
	KUNIT_EXPECT_EQ(test, t->kind, c->kind);
	KUNIT_EXPECT_EQ(test, x, c->bx);
	KUNIT_EXPECT_EQ(test, y, c->by);
	KUNIT_EXPECT_EQ(test, w, c->bw);
	KUNIT_EXPECT_EQ(test, h, c->bh);
}

static void mmx_transform_test_identity(struct kunit *test)
{
	struct mmx_transform *t;
	s32 x, y;
	u32 w, h;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	mmx_transform_identity(t, 800, 600);
	mmx_transform_bbox(t, &x, &y, &w, &h);
	KUNIT_EXPECT_EQ(test, t->kind, MMX_TRANSFORM_IDENTITY);
	KUNIT_EXPECT_EQ(test, x, 0);
	KUNIT_EXPECT_EQ(test, y, 0);
	KUNIT_EXPECT_EQ(test, w, 800u);
	KUNIT_EXPECT_EQ(test, h, 600u);
}

static struct kunit_case mmx_transform_test_cases[] = {
	KUNIT_CASE_PARAM(mmx_transform_test_refuses, mmx_refusal_gen_params),
	KUNIT_CASE_PARAM(mmx_transform_test_bbox, mmx_bbox_gen_params),
	KUNIT_CASE(mmx_transform_test_identity),
	{}
};

static struct kunit_suite mmx_transform_suite = {
	.name = "mmx_transform",
	.test_cases = mmx_transform_test_cases,
};

/* ---- signal formats and links ------------------------------------- */

struct mmx_sig_check_case {
	const char *name;
	enum mmx_output_kind kind;
	enum mmx_signal_format format;
	u64 props;
	int ret;
};

static const struct mmx_sig_check_case mmx_sig_check_cases[] = {
#include "mmx_cases_signal_check.h"
};

static void mmx_sig_check_case_desc(const struct mmx_sig_check_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_sig_check, mmx_sig_check_cases, mmx_sig_check_case_desc);

static void mmx_signal_test_check(struct kunit *test)
{
	const struct mmx_sig_check_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, mmx_signal_check(c->kind, c->format, c->props), c->ret);
}

struct mmx_sig_fits_case {
	const char *name;
	enum mmx_signal_format format;
	u64 props;
	u32 clock;
	unsigned int bpp;
	int ret;
};

/*
 * Link capacity at the boundaries. DisplayPort payload per lane after
 * 8b/10b: LowSpeed 1296000 kbit/s, HiSpeed 2160000 kbit/s; a mode needs
 * clock_khz * bpp kbit/s.
 */
static const struct mmx_sig_fits_case mmx_sig_fits_cases[] = {
#include "mmx_cases_signal_fits.h"
};

static void mmx_sig_fits_case_desc(const struct mmx_sig_fits_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_sig_fits, mmx_sig_fits_cases, mmx_sig_fits_case_desc);

static void mmx_signal_test_mode_fits(struct kunit *test)
{
	const struct mmx_sig_fits_case *c = test->param_value;

	KUNIT_EXPECT_EQ(test, mmx_signal_mode_fits(c->format, c->props, c->clock, c->bpp),
			c->ret);
}

/* Every kind's default format passes its own check with default props. */
static void mmx_signal_test_kind_defaults(struct kunit *test)
{
	enum mmx_output_kind kind;

	for (kind = 0; kind < MMX_KIND_COUNT; kind++) {
		enum mmx_signal_format f = mmx_signal_kind_default(kind);

		KUNIT_EXPECT_TRUE_MSG(test, mmx_signal_kind_formats(kind) & MMX_SIGNAL_FMT(f),
				      "kind %d", kind);
		KUNIT_EXPECT_EQ_MSG(test, mmx_signal_check(kind, f, 0), 0, "kind %d", kind);
	}
}

static struct kunit_case mmx_signal_test_cases[] = {
	KUNIT_CASE_PARAM(mmx_signal_test_check, mmx_sig_check_gen_params),
	KUNIT_CASE_PARAM(mmx_signal_test_mode_fits, mmx_sig_fits_gen_params),
	KUNIT_CASE(mmx_signal_test_kind_defaults),
	{}
};

static struct kunit_suite mmx_signal_suite = {
	.name = "mmx_signal",
	.test_cases = mmx_signal_test_cases,
};

/* ---- EDID ------------------------------------------------------ */

static const u8 mmx_edid_header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };

struct mmx_preset_case {
	enum mmx_sink_id id;
	const char *name;
	int size;
	u8 revision;
};

static const struct mmx_preset_case mmx_preset_cases[] = {
#include "mmx_cases_edid_preset.h"
};

static void mmx_preset_case_desc(const struct mmx_preset_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_preset, mmx_preset_cases, mmx_preset_case_desc);

/* Every preset builds the EDID of its size, version and checksums. */
static void mmx_edid_test_preset(struct kunit *test)
{
	const struct mmx_preset_case *c = test->param_value;
	const struct mmx_sink *s = &mmx_sinks[c->id];
	u8 *e;
	int n, b;

	e = kunit_kmalloc(test, MMX_EDID_MAX_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_EXPECT_STREQ(test, s->name, c->name);
	memset(e, 0xa5, MMX_EDID_MAX_SIZE);
	n = mmx_edid_build(s, e, MMX_EDID_MAX_SIZE);
	KUNIT_ASSERT_EQ(test, n, c->size);
	KUNIT_EXPECT_EQ(test, !n, !s->has_edid);
	if (!n)
		return;
	KUNIT_EXPECT_EQ(test, memcmp(e, mmx_edid_header, 8), 0);
	KUNIT_EXPECT_EQ(test, e[18], 1);
	KUNIT_EXPECT_EQ(test, e[19], c->revision);
	KUNIT_EXPECT_EQ(test, e[126], n / 128 - 1);
	for (b = 0; b < n / 128; b++)
		KUNIT_EXPECT_TRUE_MSG(test, mmx_test_edid_sum_ok(e + 128 * b), "block %d", b);
	KUNIT_EXPECT_EQ(test, !!(e[20] & 0x80), s->digital);
	KUNIT_EXPECT_EQ(test, e[21], s->width_cm);
	KUNIT_EXPECT_EQ(test, e[22], s->height_cm);
	KUNIT_EXPECT_TRUE(test, e[24] & 0x02);
	KUNIT_EXPECT_TRUE(test, e[54] || e[55]);
}

/* A built EDID read back gives the sink's signal formats. */
static void mmx_edid_test_sink_roundtrip(struct kunit *test)
{
	struct mmx_sink *back;
	u8 *e;
	int id, n;

	e = kunit_kzalloc(test, MMX_EDID_MAX_SIZE, GFP_KERNEL);
	back = kunit_kzalloc(test, sizeof(*back), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, e);
	KUNIT_ASSERT_NOT_NULL(test, back);
	for (id = 0; id < MMX_SINK_COUNT; id++) {
		n = mmx_edid_build(&mmx_sinks[id], e, MMX_EDID_MAX_SIZE);
		if (n <= 0)
			continue;
		KUNIT_EXPECT_EQ_MSG(test, mmx_sink_from_edid(back, e, n), 0, "%s",
				    mmx_sinks[id].name);
		KUNIT_EXPECT_EQ_MSG(test, back->digital, mmx_sinks[id].digital, "%s",
				    mmx_sinks[id].name);
	}
	KUNIT_EXPECT_EQ(test, mmx_sink_from_edid(back, e, 127), -EINVAL);
}

static struct kunit_case mmx_edid_test_cases[] = {
	KUNIT_CASE_PARAM(mmx_edid_test_preset, mmx_preset_gen_params),
	KUNIT_CASE(mmx_edid_test_sink_roundtrip),
	{}
};

static struct kunit_suite mmx_edid_suite = {
	.name = "mmx_edid",
	.test_cases = mmx_edid_test_cases,
};

/* ---- blending ---------------------------------------------------- */

struct mmx_pixel_case {
	const char *name;
	enum mmx_format format;
	u8 bytes[4];
	u32 argb;
};

/*
 * Named single-pixel cases; expected values worked out by hand from the
 * format definitions (little-endian words, bit replication for 5/6 bits,
 * top 8 bits for 10-bit channels).
 */
static const struct mmx_pixel_case mmx_pixel_cases[] = {
#include "mmx_cases_blend_pixel.h"
};

static void mmx_pixel_case_desc(const struct mmx_pixel_case *c, char *desc)
{
	strscpy(desc, c->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(mmx_pixel, mmx_pixel_cases, mmx_pixel_case_desc);

static void mmx_blend_test_pixel(struct kunit *test)
{
	const struct mmx_pixel_case *c = test->param_value;
	u32 out = 0;

	mmx_format_read_row(c->format, c->bytes, &out, 1);
	KUNIT_EXPECT_EQ(test, out, c->argb);
}

static void mmx_blend_test_cpp(struct kunit *test)
{
	KUNIT_EXPECT_EQ(test, mmx_format_cpp(MMX_FORMAT_XRGB8888), 4u);
	KUNIT_EXPECT_EQ(test, mmx_format_cpp(MMX_FORMAT_RGB565), 2u);
	KUNIT_EXPECT_EQ(test, mmx_format_cpp(MMX_FORMAT_RGB888), 3u);
	KUNIT_EXPECT_EQ(test, mmx_format_cpp(MMX_FORMAT_COUNT), 0u);
	KUNIT_EXPECT_EQ(test, mmx_format_cpp((enum mmx_format)-1), 0u);
}

/*
 * The DRM formulas of enum mmx_blend_mode in exact integers: 255 * 65535
 * times the channel value (pa = alpha / 65535, fa = A / 255).
 */
static u64 mmx_kunit_blend_exact(u32 fg, u32 bg, u16 alpha, enum mmx_blend_mode mode,
				 int shift)
{
	const u64 d = 255ull * 65535;
	u64 f = fg >> shift & 0xff, b = bg >> shift & 0xff, a = fg >> 24, v;

	switch (mode) {
	case MMX_BLEND_NONE:
		v = 255 * (alpha * f + (65535 - alpha) * b);
		break;
	case MMX_BLEND_PREMULTI:
		v = 255 * alpha * f + (d - alpha * a) * b;
		break;
	default:
		v = alpha * a * f + (d - alpha * a) * b;
		break;
	}
	return min(v, 255 * d);
}

/* Every mode within rounding (half a step) of its DRM formula. */
static void mmx_blend_check_mode(struct kunit *test, enum mmx_blend_mode mode)
{
	enum { W = 256 };
	const u64 d = 255ull * 65535;
	struct mmx_kunit_rng rng = { 0x12345678 };
	u32 *src, *dst, *bg, *scratch;
	struct mmx_frame frame;
	int iter, i, s;

	src = kunit_kmalloc_array(test, 4 * W, sizeof(u32), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	dst = src + W;
	bg = src + 2 * W;
	scratch = src + 3 * W;
	frame = (struct mmx_frame){ dst, W, 1, W };
	for (iter = 0; iter < 32; iter++) {
		u16 alpha = iter == 0 ? 0 : iter == 1 ? 0xffff : (u16)mmx_kunit_rand(&rng);
		struct mmx_layer l = { (const u8 *)src, W * 4, MMX_FORMAT_ARGB8888,
				       0, 0, W, 1, alpha, mode };

		for (i = 0; i < W; i++) {
			src[i] = (u32)mmx_kunit_rand(&rng);
			bg[i] = (u32)mmx_kunit_rand(&rng) | 0xff000000u;
			dst[i] = bg[i];
		}
		mmx_frame_blend(&frame, &l, scratch);
		for (i = 0; i < W; i++) {
			for (s = 0; s < 24; s += 8) {
				u64 exact = mmx_kunit_blend_exact(src[i], bg[i], alpha, mode, s);
				u64 got = (u64)(dst[i] >> s & 0xff) * d;
				u64 diff = got > exact ? got - exact : exact - got;

				KUNIT_ASSERT_TRUE_MSG(test, 2 * diff <= d,
						      "mode %d alpha %04x fg %08x bg %08x: got %08x",
						      mode, alpha, src[i], bg[i], dst[i]);
			}
			KUNIT_ASSERT_EQ(test, dst[i] >> 24, 0xffu);
		}
	}
}

static void mmx_blend_test_none(struct kunit *test)
{
	mmx_blend_check_mode(test, MMX_BLEND_NONE);
}

static void mmx_blend_test_premulti(struct kunit *test)
{
	mmx_blend_check_mode(test, MMX_BLEND_PREMULTI);
}

static void mmx_blend_test_coverage(struct kunit *test)
{
	mmx_blend_check_mode(test, MMX_BLEND_COVERAGE);
}

/* Plane alpha 0 leaves the frame unchanged in every mode. */
static void mmx_blend_test_alpha_zero(struct kunit *test)
{
	static const enum mmx_blend_mode modes[] = {
		MMX_BLEND_NONE, MMX_BLEND_PREMULTI, MMX_BLEND_COVERAGE,
	};
	u32 src[3] = { 0xffffffff, 0x80ff0000, 0x00000000 }, dst[3], scratch[3];
	struct mmx_frame frame = { dst, 3, 1, 3 };
	int m, i;

	for (m = 0; m < ARRAY_SIZE(modes); m++) {
		struct mmx_layer l = { (const u8 *)src, 12, MMX_FORMAT_ARGB8888,
				       0, 0, 3, 1, 0, modes[m] };

		mmx_frame_fill(&frame, 0x445566);
		mmx_frame_blend(&frame, &l, scratch);
		for (i = 0; i < 3; i++)
			KUNIT_EXPECT_EQ_MSG(test, dst[i], 0xff445566u, "mode %d pixel %d",
					    m, i);
	}
}

/* The fill honours width and stride. */
static void mmx_blend_test_fill(struct kunit *test)
{
	u32 px[6 * 3];
	struct mmx_frame frame = { px, 5, 3, 6 };
	int x, y;

	memset(px, 0x11, sizeof(px));
	mmx_frame_fill(&frame, 0x00abcdef);
	for (y = 0; y < 3; y++)
		for (x = 0; x < 6; x++)
			KUNIT_EXPECT_EQ_MSG(test, px[y * 6 + x],
					    x < 5 ? 0xffabcdefu : 0x11111111u,
					    "(%d,%d)", x, y);
}

static struct kunit_case mmx_blend_test_cases[] = {
	KUNIT_CASE_PARAM(mmx_blend_test_pixel, mmx_pixel_gen_params),
	KUNIT_CASE(mmx_blend_test_cpp),
	KUNIT_CASE(mmx_blend_test_none),
	KUNIT_CASE(mmx_blend_test_premulti),
	KUNIT_CASE(mmx_blend_test_coverage),
	KUNIT_CASE(mmx_blend_test_alpha_zero),
	KUNIT_CASE(mmx_blend_test_fill),
	{}
};

static struct kunit_suite mmx_blend_suite = {
	.name = "mmx_blend",
	.test_cases = mmx_blend_test_cases,
};

kunit_test_suites(&mmx_fixp_suite, &mmx_transform_suite,
		  &mmx_signal_suite, &mmx_edid_suite, &mmx_blend_suite);

MODULE_DESCRIPTION("KUnit tests of mmx's pure code");
MODULE_LICENSE("GPL");
