// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of pixel_geometry/mmx_yuv.c: every YUV format, encoding and
 * range against a floating-point implementation of the standard equations
 * (../common/yuv_ref.h, which also lays the frames out from the DRM fourcc
 * definitions, independently of mmx_yuv.c's tables), on random frames and
 * at the extreme sample values. A channel may differ from the rounded
 * reference by at most 1.
 */

#include "unit.h"
#include "mmx_resample.h"
#include "mmx_yuv.h"
#include "yuv_ref.h"

#define W	37	/* odd: the last chroma column covers one pixel */
#define H	23

/* The compositor's format of each of yuv_ref_formats[]. */
static const enum mmx_format mmx_of[] = {
	MMX_FORMAT_NV12, MMX_FORMAT_NV21, MMX_FORMAT_NV16, MMX_FORMAT_NV61,
	MMX_FORMAT_NV24, MMX_FORMAT_NV42, MMX_FORMAT_YUV420, MMX_FORMAT_YVU420,
	MMX_FORMAT_YUV422, MMX_FORMAT_YVU422, MMX_FORMAT_YUV444,
	MMX_FORMAT_YVU444, MMX_FORMAT_YUYV, MMX_FORMAT_YVYU, MMX_FORMAT_UYVY,
	MMX_FORMAT_VYUY, MMX_FORMAT_P010, MMX_FORMAT_P012, MMX_FORMAT_P016,
};

_Static_assert(UNIT_N(mmx_of) == YUV_REF_N_FORMATS, "one per format");

/* Samples of a frame: Y at full size, Cb and Cr per chroma sample. */
struct samples {
	uint16_t y[H][W];
	uint16_t cb[H][W];
	uint16_t cr[H][W];
};

/* Bytes and pitches of a frame in a format. */
struct layout {
	uint8_t bytes[3][H * W * 4 + 64];
	uint32_t pitch[3];
};

/* Lay out @s in format @i (pitches with a few bytes of padding). */
static void lay_out(size_t i, const struct samples *s, struct layout *l)
{
	const struct yuv_ref_format *f = &yuv_ref_formats[i];
	uint8_t *planes[3] = { l->bytes[0], l->bytes[1], l->bytes[2] };

	memset(l, 0xa5, sizeof(*l));
	for (int p = 0; p < 3; p++)
		l->pitch[p] = yuv_ref_min_pitch(f, p, W) + 5 - p;
	yuv_ref_lay_out(f, planes, l->pitch, W, H, &s->y[0][0], &s->cb[0][0],
			&s->cr[0][0], W);
}

static void image_of(size_t fi, const struct layout *l, int enc,
		     enum mmx_yuv_range range, struct mmx_yuv_image *img)
{
	const struct yuv_ref_format *f = &yuv_ref_formats[fi];

	memset(img, 0, sizeof(*img));
	img->format = mmx_of[fi];
	mmx_yuv_matrix_init(&img->matrix, enc, range, f->depth);
	for (int i = 0; i < (f->packed ? 1 : f->planes); i++) {
		img->planes[i] = l->bytes[i];
		img->pitches[i] = l->pitch[i];
	}
}

/*
 * Convert @s laid out in @f, rows read in two pieces split at an odd
 * column, and compare with the reference; *@worst gets the largest
 * difference from the rounded reference.
 */
static int compare(size_t fi, const struct samples *s, int enc,
		   enum mmx_yuv_range range, int *worst)
{
	const struct yuv_ref_format *f = &yuv_ref_formats[fi];
	static struct layout l;
	struct mmx_yuv_image img;
	uint32_t row[W];
	double rgb[3];
	int x, y, c;

	lay_out(fi, s, &l);
	image_of(fi, &l, enc, range, &img);
	for (y = 0; y < H; y++) {
		mmx_yuv_read_row(&img, 0, y, row, 7);
		mmx_yuv_read_row(&img, 7, y, row + 7, W - 7);
		for (x = 0; x < W; x++) {
			int cx = x / f->hsub, cy = y / f->vsub;

			yuv_ref_rgb(enc, range, f->depth, s->y[y][x], s->cb[cy][cx],
				  s->cr[cy][cx], rgb);
			for (c = 0; c < 3; c++) {
				int got = row[x] >> (16 - 8 * c) & 0xff;
				int d = abs(got - (int)lround(rgb[c]));

				*worst = d > *worst ? d : *worst;
				UNIT_CHECK(d <= 1 && row[x] >> 24 == 0xff,
					   "%s %s %s (%d,%d) Y %u Cb %u Cr %u: %08x, channel %d expected %.3f",
					   f->name, yuv_ref_encodings[enc].name,
					   range ? "full" : "limited", x, y,
					   s->y[y][x], s->cb[cy][cx],
					   s->cr[cy][cx], row[x], c, rgb[c]);
			}
		}
	}
	return 0;
}

static int compare_all(size_t f, const struct samples *s, int *worst)
{
	for (int enc = 0; enc < MMX_YUV_ENCODING_COUNT; enc++)
		for (int range = 0; range < MMX_YUV_RANGE_COUNT; range++)
			if (compare(f, s, enc, range, worst))
				return -1;
	return 0;
}

static int test_random_frames(void)
{
	static struct samples s;
	uint32_t seed = 0x2c0ffee1;
	int worst = 0;

	for (size_t i = 0; i < YUV_REF_N_FORMATS; i++) {
		unsigned int mask = (1u << yuv_ref_formats[i].depth) - 1;

		for (int frame = 0; frame < 4; frame++) {
			for (int y = 0; y < H; y++)
				for (int x = 0; x < W; x++) {
					s.y[y][x] = unit_xorshift32(&seed) & mask;
					s.cb[y][x] = unit_xorshift32(&seed) & mask;
					s.cr[y][x] = unit_xorshift32(&seed) & mask;
				}
			if (compare_all(i, &s, &worst))
				return -1;
		}
	}
	printf("random frames: largest difference %d\n", worst);
	return 0;
}

/* Every combination of the extreme values, scaled to the depth. */
static int test_extremes(void)
{
	static const unsigned int v8[] = { 0, 16, 128, 235, 240, 255 };
	static struct samples s;
	int worst = 0;

	for (size_t i = 0; i < YUV_REF_N_FORMATS; i++) {
		int d = yuv_ref_formats[i].depth, n = 0;

		for (int y = 0; y < H; y++)
			for (int x = 0; x < W; x++, n++) {
				unsigned int a = v8[n % 6], b = v8[n / 6 % 6];
				unsigned int c = v8[n / 36 % 6];
				unsigned int top = (1u << d) - 1;

				/* 255 is the top code: all ones at any depth. */
				s.y[y][x] = a == 255 ? top : a << (d - 8);
				s.cb[y][x] = b == 255 ? top : b << (d - 8);
				s.cr[y][x] = c == 255 ? top : c << (d - 8);
			}
		if (compare_all(i, &s, &worst))
			return -1;
	}
	printf("extremes: largest difference %d\n", worst);
	return 0;
}

/* Named values of the BT.601 limited-range matrix (8-bit studio swing). */
static int test_named_values(void)
{
	static const struct {
		uint8_t y, cb, cr;
		uint32_t argb;
	} cases[] = {
		{ 16, 128, 128, 0xff000000 },	/* black */
		{ 235, 128, 128, 0xffffffff },	/* white */
		{ 0, 128, 128, 0xff000000 },	/* below black: clamped */
		{ 255, 128, 128, 0xffffffff },	/* above white: clamped */
		{ 81, 90, 240, 0xffff0000 },	/* red */
		{ 145, 54, 34, 0xff00ff00 },	/* green */
		{ 41, 240, 110, 0xff0000ff },	/* blue */
	};
	struct mmx_yuv_image img = { .format = MMX_FORMAT_YUV444 };
	uint8_t y, cb, cr;
	uint32_t argb;

	CHECK_ERR(mmx_yuv_matrix_init(&img.matrix, MMX_YUV_BT601,
				      MMX_YUV_LIMITED, 8), 0);
	img.planes[0] = &y;
	img.planes[1] = &cb;
	img.planes[2] = &cr;
	for (size_t i = 0; i < UNIT_N(cases); i++) {
		y = cases[i].y;
		cb = cases[i].cb;
		cr = cases[i].cr;
		mmx_yuv_read_row(&img, 0, 0, &argb, 1);
		/* The standard's primaries are themselves rounded: 2 steps. */
		for (int c = 0; c < 24; c += 8)
			UNIT_CHECK(abs((int)(argb >> c & 0xff) -
				       (int)(cases[i].argb >> c & 0xff)) <= 2,
				   "case %zu: %08x, expected %08x", i, argb,
				   cases[i].argb);
	}
	return 0;
}

static int test_bad_arguments(void)
{
	struct mmx_yuv_matrix m;
	uint32_t px = 0x12345678;
	struct mmx_yuv_image img = { .format = MMX_FORMAT_XRGB8888 };

	CHECK_ERR(mmx_yuv_matrix_init(&m, MMX_YUV_ENCODING_COUNT,
				      MMX_YUV_LIMITED, 8), -EINVAL);
	CHECK_ERR(mmx_yuv_matrix_init(&m, MMX_YUV_BT709, MMX_YUV_RANGE_COUNT,
				      8), -EINVAL);
	CHECK_ERR(mmx_yuv_matrix_init(&m, MMX_YUV_BT709, MMX_YUV_FULL, 7),
		  -EINVAL);
	CHECK_ERR(mmx_yuv_matrix_init(&m, MMX_YUV_BT709, MMX_YUV_FULL, 17),
		  -EINVAL);
	UNIT_CHECK(!mmx_format_is_yuv(MMX_FORMAT_XRGB2101010), "RGB is YUV");
	UNIT_CHECK(mmx_format_is_yuv(MMX_FORMAT_P016), "P016 is not YUV");
	UNIT_CHECK(mmx_yuv_depth(MMX_FORMAT_P012) == 12, "P012's depth");
	UNIT_CHECK(mmx_yuv_depth(MMX_FORMAT_RGB565) == 0, "RGB565's depth");
	UNIT_CHECK(mmx_format_cpp(MMX_FORMAT_NV12) == 0, "NV12's cpp");
	mmx_yuv_read_row(&img, 0, 0, &px, 1);
	UNIT_CHECK(px == 0, "an RGB format read as YUV: %08x", px);
	return 0;
}

/*
 * A YUV plane resampled (scaled, rotated, bilinear or nearest) is exactly
 * the same plane converted to XRGB8888 first and resampled then: chroma
 * is interpolated after the conversion.
 */
static int test_resample_after_conversion(void)
{
	static const struct mmx_resample_geom geoms[] = {
		{ 3 << 16, 1 << 16, 30 << 16, 20 << 16, 71, 45, MMX_ROTATE_0 },
		{ 1 << 16, 2 << 16, 33 << 16, 19 << 16, 16, 29,
		  MMX_ROTATE_90 | MMX_REFLECT_X },
		{ 0x18000, 0x8000, 20 << 16, 11 << 16, 20, 11, MMX_ROTATE_180 },
	};
	static struct samples s;
	static struct layout l;
	static uint32_t rgb[H * W], got[80 * 80], want[80 * 80];
	static uint32_t scratch[64 * 1024];
	uint32_t seed = 7;
	struct mmx_resample_src ysrc, rsrc;
	struct mmx_transform t;
	struct mmx_frame out;

	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++) {
			s.y[y][x] = unit_xorshift32(&seed) & 0xff;
			s.cb[y][x] = unit_xorshift32(&seed) & 0xff;
			s.cr[y][x] = unit_xorshift32(&seed) & 0xff;
		}
	lay_out(0, &s, &l);
	memset(&ysrc, 0, sizeof(ysrc));
	ysrc.format = MMX_FORMAT_NV12;
	image_of(0, &l, MMX_YUV_BT709, MMX_YUV_LIMITED, &ysrc.yuv);
	for (int y = 0; y < H; y++)
		mmx_yuv_read_row(&ysrc.yuv, 0, y, rgb + y * W, W);
	rsrc = (struct mmx_resample_src){
		.pixels = (const uint8_t *)rgb, .pitch = W * 4,
		.format = MMX_FORMAT_XRGB8888,
	};
	for (size_t i = 0; i < UNIT_N(geoms); i++) {
		const struct mmx_resample_geom *g = &geoms[i];

		for (int f = MMX_FILTER_NEAREST; f <= MMX_FILTER_BILINEAR; f++) {
			CHECK_ERR(mmx_resample_prepare(&t, g, 0, 0, g->dst_w,
						       g->dst_h), 0);
			ysrc.x1 = rsrc.x1 = g->src_x >> 16;
			ysrc.y1 = rsrc.y1 = g->src_y >> 16;
			ysrc.x2 = rsrc.x2 = (g->src_x + g->src_w + 0xffff) >> 16;
			ysrc.y2 = rsrc.y2 = (g->src_y + g->src_h + 0xffff) >> 16;
			out = (struct mmx_frame){ got, g->dst_w, g->dst_h, g->dst_w };
			mmx_resample(&t, f, &ysrc, &out, NULL, scratch,
				     UNIT_N(scratch));
			out.pixels = want;
			mmx_resample(&t, f, &rsrc, &out, NULL, scratch,
				     UNIT_N(scratch));
			UNIT_CHECK(!memcmp(got, want,
					   g->dst_w * g->dst_h * sizeof(*got)),
				   "geometry %zu filter %d differs", i, f);
		}
	}
	return 0;
}

static const struct unit_case cases[] = {
	{ "random-frames", "every format, encoding and range within 1 of the equations on random frames", test_random_frames },
	{ "extremes", "0, 16, 128, 235, 240, 255 and their N-bit codes within 1 of the equations", test_extremes },
	{ "named-values", "BT.601 limited black, white and primaries", test_named_values },
	{ "bad-arguments", "unknown encoding, range or depth refused, RGB formats not read", test_bad_arguments },
	{ "resample-after-conversion", "a resampled YUV plane equals its RGB conversion resampled", test_resample_after_conversion },
};

UNIT_MAIN(cases)
