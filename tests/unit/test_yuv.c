// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of pixel_geometry/mmx_yuv.c: every YUV format, encoding and
 * range against a floating-point implementation of the standard equations
 * (BT.601, BT.709 and BT.2020 matrices; limited range per BT.601/BT.709,
 * full range per ITU-T H.273), on random frames and at the extreme sample
 * values. The frames are laid out by this file from the DRM fourcc
 * definitions (drm_fourcc.h's comments), independently of mmx_yuv.c's
 * tables. A channel may differ from the rounded reference by at most 1.
 */

#include <math.h>

#include "unit.h"
#include "mmx_resample.h"
#include "mmx_yuv.h"

#define W	37	/* odd: the last chroma column covers one pixel */
#define H	23

/*
 * A format as drm_fourcc.h describes it: @packed is the byte order of a
 * 4:2:2 macropixel (Y = first/second luma), else @order the chroma order
 * ("UV": Cb first) of @planes planes, @depth bits per sample.
 */
static const struct fmt {
	const char *name;
	enum mmx_format format;
	int planes, hsub, vsub, depth;
	const char *packed;
	const char *order;
} fmts[] = {
	{ "NV12", MMX_FORMAT_NV12, 2, 2, 2, 8, NULL, "UV" },
	{ "NV21", MMX_FORMAT_NV21, 2, 2, 2, 8, NULL, "VU" },
	{ "NV16", MMX_FORMAT_NV16, 2, 2, 1, 8, NULL, "UV" },
	{ "NV61", MMX_FORMAT_NV61, 2, 2, 1, 8, NULL, "VU" },
	{ "NV24", MMX_FORMAT_NV24, 2, 1, 1, 8, NULL, "UV" },
	{ "NV42", MMX_FORMAT_NV42, 2, 1, 1, 8, NULL, "VU" },
	{ "YUV420", MMX_FORMAT_YUV420, 3, 2, 2, 8, NULL, "UV" },
	{ "YVU420", MMX_FORMAT_YVU420, 3, 2, 2, 8, NULL, "VU" },
	{ "YUV422", MMX_FORMAT_YUV422, 3, 2, 1, 8, NULL, "UV" },
	{ "YVU422", MMX_FORMAT_YVU422, 3, 2, 1, 8, NULL, "VU" },
	{ "YUV444", MMX_FORMAT_YUV444, 3, 1, 1, 8, NULL, "UV" },
	{ "YVU444", MMX_FORMAT_YVU444, 3, 1, 1, 8, NULL, "VU" },
	{ "YUYV", MMX_FORMAT_YUYV, 1, 2, 1, 8, "YUyV", NULL },
	{ "YVYU", MMX_FORMAT_YVYU, 1, 2, 1, 8, "YVyU", NULL },
	{ "UYVY", MMX_FORMAT_UYVY, 1, 2, 1, 8, "UYVy", NULL },
	{ "VYUY", MMX_FORMAT_VYUY, 1, 2, 1, 8, "VYUy", NULL },
	{ "P010", MMX_FORMAT_P010, 2, 2, 2, 10, NULL, "UV" },
	{ "P012", MMX_FORMAT_P012, 2, 2, 2, 12, NULL, "UV" },
	{ "P016", MMX_FORMAT_P016, 2, 2, 2, 16, NULL, "UV" },
};

static const struct {
	const char *name;
	double kr, kb;
} encs[MMX_YUV_ENCODING_COUNT] = {
	[MMX_YUV_BT601] = { "bt601", 0.299, 0.114 },
	[MMX_YUV_BT709] = { "bt709", 0.2126, 0.0722 },
	[MMX_YUV_BT2020] = { "bt2020", 0.2627, 0.0593 },
};

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

static void put(uint8_t *p, int bytes, int depth, unsigned int v)
{
	if (bytes == 1) {
		p[0] = v;
		return;
	}
	v <<= 16 - depth;
	p[0] = v & 0xff;
	p[1] = v >> 8;
}

/* Lay out @s in @f (pitches with a few bytes of padding). */
static void lay_out(const struct fmt *f, const struct samples *s,
		    struct layout *l)
{
	int bps = f->depth > 8 ? 2 : 1, cw = (W + f->hsub - 1) / f->hsub;
	int ch = (H + f->vsub - 1) / f->vsub, x, y, i;

	memset(l, 0xa5, sizeof(*l));
	if (f->packed) {
		l->pitch[0] = (W + 1) / 2 * 4 + 8;
		for (y = 0; y < H; y++)
			for (x = 0; x < cw; x++)
				for (i = 0; i < 4; i++) {
					uint8_t *p = l->bytes[0] + y * l->pitch[0] + x * 4 + i;
					int lx = 2 * x < W - 1 ? 2 * x + 1 : 2 * x;

					switch (f->packed[i]) {
					case 'Y': *p = s->y[y][2 * x]; break;
					case 'y': *p = s->y[y][lx]; break;
					case 'U': *p = s->cb[y][x]; break;
					default: *p = s->cr[y][x]; break;
					}
				}
		return;
	}
	l->pitch[0] = W * bps + 5;
	for (y = 0; y < H; y++)
		for (x = 0; x < W; x++)
			put(l->bytes[0] + y * l->pitch[0] + x * bps, bps, f->depth,
			    s->y[y][x]);
	for (y = 0; y < ch; y++)
		for (x = 0; x < cw; x++) {
			bool uv = f->order[0] == 'U';

			if (f->planes == 2) {
				uint8_t *p;

				l->pitch[1] = cw * 2 * bps + 3;
				p = l->bytes[1] + y * l->pitch[1] + x * 2 * bps;
				put(p + (uv ? 0 : bps), bps, f->depth, s->cb[y][x]);
				put(p + (uv ? bps : 0), bps, f->depth, s->cr[y][x]);
				continue;
			}
			l->pitch[1] = cw + 7;
			l->pitch[2] = cw + 2;
			l->bytes[uv ? 1 : 2][y * l->pitch[uv ? 1 : 2] + x] = s->cb[y][x];
			l->bytes[uv ? 2 : 1][y * l->pitch[uv ? 2 : 1] + x] = s->cr[y][x];
		}
}

/* The equations in double precision: channel values 0..255, unrounded. */
static void reference(int enc, enum mmx_yuv_range range, int depth,
		      unsigned int yv, unsigned int cbv, unsigned int crv,
		      double rgb[3])
{
	double kr = encs[enc].kr, kb = encs[enc].kb, kg = 1 - kr - kb;
	double scale = 1 << (depth - 8), max = (1 << depth) - 1, y, cb, cr;
	int i;

	if (range == MMX_YUV_LIMITED) {
		y = ((double)yv - 16 * scale) / (219 * scale);
		cb = (cbv - 128 * scale) / (224 * scale);
		cr = (crv - 128 * scale) / (224 * scale);
	} else {
		y = yv / max;
		cb = ((double)cbv - (1 << (depth - 1))) / max;
		cr = ((double)crv - (1 << (depth - 1))) / max;
	}
	rgb[0] = y + 2 * (1 - kr) * cr;
	rgb[1] = y - 2 * kb * (1 - kb) / kg * cb - 2 * kr * (1 - kr) / kg * cr;
	rgb[2] = y + 2 * (1 - kb) * cb;
	for (i = 0; i < 3; i++)
		rgb[i] = 255 * fmin(fmax(rgb[i], 0), 1);
}

static void image_of(const struct fmt *f, const struct layout *l, int enc,
		     enum mmx_yuv_range range, struct mmx_yuv_image *img)
{
	memset(img, 0, sizeof(*img));
	img->format = f->format;
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
static int compare(const struct fmt *f, const struct samples *s, int enc,
		   enum mmx_yuv_range range, int *worst)
{
	static struct layout l;
	struct mmx_yuv_image img;
	uint32_t row[W];
	double rgb[3];
	int x, y, c;

	lay_out(f, s, &l);
	image_of(f, &l, enc, range, &img);
	for (y = 0; y < H; y++) {
		mmx_yuv_read_row(&img, 0, y, row, 7);
		mmx_yuv_read_row(&img, 7, y, row + 7, W - 7);
		for (x = 0; x < W; x++) {
			int cx = x / f->hsub, cy = y / f->vsub;

			reference(enc, range, f->depth, s->y[y][x], s->cb[cy][cx],
				  s->cr[cy][cx], rgb);
			for (c = 0; c < 3; c++) {
				int got = row[x] >> (16 - 8 * c) & 0xff;
				int d = abs(got - (int)lround(rgb[c]));

				*worst = d > *worst ? d : *worst;
				UNIT_CHECK(d <= 1 && row[x] >> 24 == 0xff,
					   "%s %s %s (%d,%d) Y %u Cb %u Cr %u: %08x, channel %d expected %.3f",
					   f->name, encs[enc].name,
					   range ? "full" : "limited", x, y,
					   s->y[y][x], s->cb[cy][cx],
					   s->cr[cy][cx], row[x], c, rgb[c]);
			}
		}
	}
	return 0;
}

static int compare_all(const struct fmt *f, const struct samples *s,
		       int *worst)
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

	for (size_t i = 0; i < UNIT_N(fmts); i++) {
		unsigned int mask = (1u << fmts[i].depth) - 1;

		for (int frame = 0; frame < 4; frame++) {
			for (int y = 0; y < H; y++)
				for (int x = 0; x < W; x++) {
					s.y[y][x] = unit_xorshift32(&seed) & mask;
					s.cb[y][x] = unit_xorshift32(&seed) & mask;
					s.cr[y][x] = unit_xorshift32(&seed) & mask;
				}
			if (compare_all(&fmts[i], &s, &worst))
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

	for (size_t i = 0; i < UNIT_N(fmts); i++) {
		int d = fmts[i].depth, n = 0;

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
		if (compare_all(&fmts[i], &s, &worst))
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
	lay_out(&fmts[0], &s, &l);
	memset(&ysrc, 0, sizeof(ysrc));
	ysrc.format = MMX_FORMAT_NV12;
	image_of(&fmts[0], &l, MMX_YUV_BT709, MMX_YUV_LIMITED, &ysrc.yuv);
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
