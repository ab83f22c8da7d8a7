// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_blend.c: format conversion and blending.
 *
 * Oracles: pixman (an independent implementation) for format conversion and
 * for opaque and pre-multiplied OVER blending; for plane alpha and the
 * "None" and "Coverage" modes, the DRM formulas evaluated in double
 * precision, since pixman has no 16-bit plane alpha.
 */
#include <math.h>
#include <stdint.h>
#include <pixman.h>

#include "mmx_blend.h"
#include "mmx_simd.h"
#include "unit.h"

/* Deterministic xorshift so failures reproduce. */
static uint32_t rng_state = 0x12345678;

static uint32_t rng(void)
{
	return unit_xorshift32(&rng_state);
}

static const struct {
	enum mmx_format format;
	pixman_format_code_t pixman;
	const char *name;
} formats[] = {
	{ MMX_FORMAT_XRGB8888, PIXMAN_x8r8g8b8, "XRGB8888" },
	{ MMX_FORMAT_ARGB8888, PIXMAN_a8r8g8b8, "ARGB8888" },
	{ MMX_FORMAT_XBGR8888, PIXMAN_x8b8g8r8, "XBGR8888" },
	{ MMX_FORMAT_ABGR8888, PIXMAN_a8b8g8r8, "ABGR8888" },
	{ MMX_FORMAT_RGB565, PIXMAN_r5g6b5, "RGB565" },
	{ MMX_FORMAT_RGB888, PIXMAN_r8g8b8, "RGB888" },
	{ MMX_FORMAT_XRGB2101010, PIXMAN_x2r10g10b10, "XRGB2101010" },
};

/*
 * Named single-pixel cases; expected values worked out by hand from the
 * format definitions (little-endian words, bit replication for 5/6 bits,
 * top 8 bits for 10-bit channels).
 */
static const struct {
	const char *name;
	enum mmx_format format;
	uint8_t bytes[4];
	uint32_t argb;
} pixel_cases[] = {
#include "tests/mmx_cases_blend_pixel.h"
};

static int test_pixel_table(void)
{
	size_t i;
	uint32_t out;

	for (i = 0; i < sizeof(pixel_cases) / sizeof(pixel_cases[0]); i++) {
		mmx_format_read_row(pixel_cases[i].format, pixel_cases[i].bytes,
				    &out, 1);
		UNIT_CHECK(out == pixel_cases[i].argb, "%s: got %08x want %08x",
			   pixel_cases[i].name, out, pixel_cases[i].argb);
	}
	return 0;
}

static int test_cpp(void)
{
	UNIT_CHECK(mmx_format_cpp(MMX_FORMAT_XRGB8888) == 4, "xrgb");
	UNIT_CHECK(mmx_format_cpp(MMX_FORMAT_RGB565) == 2, "565");
	UNIT_CHECK(mmx_format_cpp(MMX_FORMAT_RGB888) == 3, "888");
	UNIT_CHECK(mmx_format_cpp(MMX_FORMAT_COUNT) == 0, "count");
	UNIT_CHECK(mmx_format_cpp((enum mmx_format)-1) == 0, "negative");
	return 0;
}

static void fill_random(uint8_t *buf, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		buf[i] = rng();
}

/* Convert a random image with pixman SRC to a8r8g8b8. */
static void pixman_convert(pixman_format_code_t fmt, uint8_t *src, int w, int h,
			   int pitch, uint32_t *dst)
{
	pixman_image_t *s = pixman_image_create_bits(fmt, w, h, (uint32_t *)src, pitch);
	pixman_image_t *d = pixman_image_create_bits(PIXMAN_a8r8g8b8, w, h, dst, w * 4);

	pixman_image_composite32(PIXMAN_OP_SRC, s, NULL, d, 0, 0, 0, 0, 0, 0, w, h);
	pixman_image_unref(s);
	pixman_image_unref(d);
}

static int test_formats_vs_pixman(void)
{
	enum { W = 67, H = 13 };
	static uint8_t src[H][W * 4 + 12] __attribute__((aligned(4)));
	static uint32_t want[W * H], got[W * H];
	size_t f;
	int x, y;

	for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
		int pitch = W * 4 + 12;

		fill_random(&src[0][0], sizeof(src));
		pixman_convert(formats[f].pixman, &src[0][0], W, H, pitch, want);
		for (y = 0; y < H; y++)
			mmx_format_read_row(formats[f].format, src[y], got + y * W, W);
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				UNIT_CHECK(got[y * W + x] == want[y * W + x],
					   "%s (%d,%d): got %08x pixman %08x",
					   formats[f].name, x, y, got[y * W + x],
					   want[y * W + x]);
	}
	return 0;
}

/*
 * Opaque layers are copied: every format, random offsets, frame untouched
 * outside; with every implementation of the SIMD inner loops.
 */
static int test_opaque_copy_geometry_with(void);

static int test_opaque_copy_geometry(void)
{
	static const char *const names[] = { "scalar", "sse2", "avx2" };
	const struct mmx_simd_ops *saved = mmx_simd;
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(names) / sizeof(names[0]) && !ret; i++) {
		mmx_simd = mmx_simd_find(names[i]);
		if (!mmx_simd) {
			fprintf(stderr, "opaque copy: %s not supported here\n",
				names[i]);
			continue;
		}
		ret = test_opaque_copy_geometry_with();
		if (ret)
			fprintf(stderr, "opaque copy: %s fails\n", names[i]);
	}
	mmx_simd = saved;
	return ret;
}

static int test_opaque_copy_geometry_with(void)
{
	enum { FW = 40, FH = 30 };
	static uint32_t frame_px[FH][FW], ref[FW];
	static uint8_t src[20][64 * 4];
	struct mmx_frame frame = { &frame_px[0][0], FW, FH, FW };
	uint32_t scratch[64];
	size_t f;
	int x, y, iter;

	for (iter = 0; iter < 50; iter++) {
		for (f = 0; f < sizeof(formats) / sizeof(formats[0]); f++) {
			struct mmx_layer l = {
				.pixels = &src[0][0], .pitch = sizeof(src[0]),
				.format = formats[f].format, .alpha = 0xffff,
				.blend = MMX_BLEND_NONE,
			};

			l.width = 1 + rng() % 20;
			l.height = 1 + rng() % 20;
			l.dst_x = rng() % (FW - l.width + 1);
			l.dst_y = rng() % (FH - l.height + 1);
			fill_random(&src[0][0], sizeof(src));
			mmx_frame_fill(&frame, 0x123456);
			mmx_frame_blend(&frame, &l, scratch);
			for (y = 0; y < FH; y++) {
				int in_y = y >= (int)l.dst_y && y < (int)(l.dst_y + l.height);

				if (in_y)
					mmx_format_read_row(l.format, src[y - l.dst_y], ref, l.width);
				for (x = 0; x < FW; x++) {
					int in = in_y && x >= (int)l.dst_x &&
						 x < (int)(l.dst_x + l.width);
					uint32_t want = in ? (ref[x - l.dst_x] | 0xff000000u) : 0xff123456u;

					UNIT_CHECK(frame_px[y][x] == want, "%s (%d,%d) got %08x want %08x",
						   formats[f].name, x, y, frame_px[y][x], want);
				}
			}
		}
	}
	return 0;
}

static int test_layer_outside_frame_ignored(void)
{
	static uint32_t px[4 * 4];
	struct mmx_frame frame = { px, 4, 4, 4 };
	uint32_t src[8] = { 0 }, scratch[8];
	struct mmx_layer l = { (const uint8_t *)src, 32, MMX_FORMAT_XRGB8888,
			       2, 0, 3, 1, 0xffff, MMX_BLEND_PREMULTI };

	mmx_frame_fill(&frame, 0xabcdef);
	mmx_frame_blend(&frame, &l, scratch);
	for (int i = 0; i < 16; i++)
		UNIT_CHECK(px[i] == 0xffabcdef, "pixel %d changed to %08x", i, px[i]);
	return 0;
}

/* Pre-multiplied, plane alpha 1: exactly pixman's OVER. */
static int test_premulti_over_vs_pixman(void)
{
	enum { W = 256, H = 16 };
	static uint32_t src[W * H], dst[W * H], want[W * H];
	uint32_t scratch[W];
	struct mmx_frame frame = { dst, W, H, W };
	struct mmx_layer l = { (const uint8_t *)src, W * 4, MMX_FORMAT_ARGB8888,
			       0, 0, W, H, 0xffff, MMX_BLEND_PREMULTI };
	pixman_image_t *s, *d;
	int i;

	for (i = 0; i < W * H; i++) {
		uint32_t a = rng() & 0xff, c = rng();
		uint32_t r = (c & 0xff) * a / 255, g = (c >> 8 & 0xff) * a / 255,
			 b = (c >> 16 & 0xff) * a / 255;

		src[i] = a << 24 | r << 16 | g << 8 | b;
		want[i] = dst[i] = rng() | 0xff000000u;
	}
	s = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, src, W * 4);
	d = pixman_image_create_bits(PIXMAN_a8r8g8b8, W, H, want, W * 4);
	pixman_image_composite32(PIXMAN_OP_OVER, s, NULL, d, 0, 0, 0, 0, 0, 0, W, H);
	pixman_image_unref(s);
	pixman_image_unref(d);

	mmx_frame_blend(&frame, &l, scratch);
	for (i = 0; i < W * H; i++)
		UNIT_CHECK(dst[i] == want[i], "pixel %d src %08x got %08x pixman %08x",
			   i, src[i], dst[i], want[i]);
	return 0;
}

/* The DRM formulas in double precision. */
static uint32_t reference_blend(uint32_t fg, uint32_t bg, uint16_t alpha,
				enum mmx_blend_mode mode, double *exact)
{
	double pa = alpha / 65535.0, fa = (fg >> 24) / 255.0;
	uint32_t out = 0xff000000u;
	int s;

	for (s = 0; s < 24; s += 8) {
		double f = fg >> s & 0xff, b = bg >> s & 0xff, v;

		switch (mode) {
		case MMX_BLEND_NONE:
			v = pa * f + (1 - pa) * b;
			break;
		case MMX_BLEND_PREMULTI:
			v = pa * f + (1 - pa * fa) * b;
			break;
		default:
			v = pa * fa * f + (1 - pa * fa) * b;
			break;
		}
		if (v > 255)
			v = 255;
		exact[s / 8] = v;
		out |= (uint32_t)lround(v) << s;
	}
	return out;
}

static int check_blend_mode(enum mmx_blend_mode mode, const char *name)
{
	enum { W = 512 };
	static uint32_t src[W], dst[W], bg[W];
	uint32_t scratch[W];
	struct mmx_frame frame = { dst, W, 1, W };
	int iter, i, s;

	for (iter = 0; iter < 64; iter++) {
		uint16_t alpha = iter == 0 ? 0 : iter == 1 ? 0xffff : rng();
		struct mmx_layer l = { (const uint8_t *)src, W * 4, MMX_FORMAT_ARGB8888,
				       0, 0, W, 1, alpha, mode };

		for (i = 0; i < W; i++) {
			src[i] = rng();
			bg[i] = dst[i] = rng() | 0xff000000u;
		}
		mmx_frame_blend(&frame, &l, scratch);
		for (i = 0; i < W; i++) {
			double exact[3];
			uint32_t want = reference_blend(src[i], bg[i], alpha, mode, exact);

			for (s = 0; s < 3; s++) {
				double got = dst[i] >> (8 * s) & 0xff;

				UNIT_CHECK(fabs(got - exact[s]) <= 0.5 + 1e-9,
					   "%s alpha %04x fg %08x bg %08x: got %08x want %08x",
					   name, alpha, src[i], bg[i], dst[i], want);
			}
			UNIT_CHECK(dst[i] >> 24 == 0xff, "%s output alpha %08x", name, dst[i]);
		}
	}
	return 0;
}

static int test_blend_none(void)
{
	return check_blend_mode(MMX_BLEND_NONE, "none");
}

static int test_blend_premulti(void)
{
	return check_blend_mode(MMX_BLEND_PREMULTI, "premulti");
}

static int test_blend_coverage(void)
{
	return check_blend_mode(MMX_BLEND_COVERAGE, "coverage");
}

static int test_alpha_zero_is_invisible(void)
{
	uint32_t src[3] = { 0xffffffff, 0x80ff0000, 0x00000000 }, dst[3], scratch[3];
	struct mmx_frame frame = { dst, 3, 1, 3 };
	enum mmx_blend_mode modes[] = { MMX_BLEND_NONE, MMX_BLEND_PREMULTI, MMX_BLEND_COVERAGE };

	for (int m = 0; m < 3; m++) {
		struct mmx_layer l = { (const uint8_t *)src, 12, MMX_FORMAT_ARGB8888,
				       0, 0, 3, 1, 0, modes[m] };

		mmx_frame_fill(&frame, 0x445566);
		mmx_frame_blend(&frame, &l, scratch);
		for (int i = 0; i < 3; i++)
			UNIT_CHECK(dst[i] == 0xff445566, "mode %d pixel %d: %08x", m, i, dst[i]);
	}
	return 0;
}

static int test_fill(void)
{
	uint32_t px[6 * 3];
	struct mmx_frame frame = { px, 5, 3, 6 };

	memset(px, 0x11, sizeof(px));
	mmx_frame_fill(&frame, 0x00abcdef);
	for (int y = 0; y < 3; y++)
		for (int x = 0; x < 6; x++)
			UNIT_CHECK(px[y * 6 + x] == (x < 5 ? 0xffabcdefu : 0x11111111u),
				   "(%d,%d) %08x", x, y, px[y * 6 + x]);
	return 0;
}

static const struct unit_case cases[] = {
	{ "pixel-table", "named per-format pixel conversions", test_pixel_table },
	{ "format-cpp", "bytes per pixel and unknown formats", test_cpp },
	{ "formats-vs-pixman", "random images of every format convert as pixman does", test_formats_vs_pixman },
	{ "opaque-copy-geometry", "opaque layers land at their offset, nothing else changes", test_opaque_copy_geometry },
	{ "layer-outside-frame", "a layer not inside the frame is ignored", test_layer_outside_frame_ignored },
	{ "premulti-over-vs-pixman", "pre-multiplied blending equals pixman OVER", test_premulti_over_vs_pixman },
	{ "blend-none", "None mode within rounding of the DRM formula", test_blend_none },
	{ "blend-premulti", "Pre-multiplied mode within rounding of the DRM formula", test_blend_premulti },
	{ "blend-coverage", "Coverage mode within rounding of the DRM formula", test_blend_coverage },
	{ "alpha-zero-invisible", "plane alpha 0 leaves the frame unchanged", test_alpha_zero_is_invisible },
	{ "frame-fill", "fill honours width and stride", test_fill },
};

UNIT_MAIN(cases)
