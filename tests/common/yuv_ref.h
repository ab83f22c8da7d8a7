/* SPDX-License-Identifier: MIT */
/*
 * The reference for mmx's YUV plane formats, shared by the host unit test
 * (tests/unit/test_yuv.c) and the guest test (tests/igt/kms_mmx_yuv.c):
 *  - each format's layout written from the DRM fourcc definitions
 *    (drm_fourcc.h's comments), independently of the driver's tables;
 *  - the YCbCr to RGB equations in double precision: BT.601, BT.709 and
 *    BT.2020 (non-constant luminance) matrices, limited range as in
 *    BT.601/BT.709 (Y 16..235, C 16..240, times 2^(N-8) for N bits), full
 *    range as in ITU-T H.273 (Y / (2^N - 1), (C - 2^(N-1)) / (2^N - 1)).
 */
#ifndef MMX_YUV_REF_H
#define MMX_YUV_REF_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#include <drm_fourcc.h>

/*
 * A format: @packed is the byte order of a 4:2:2 macropixel (Y and y the
 * first and second luma, U = Cb, V = Cr), else @order the chroma order
 * ("UV": Cb first) of @planes planes; @depth bits per sample (above 8:
 * 16-bit little-endian words, value in the most significant bits).
 */
struct yuv_ref_format {
	uint32_t fourcc;
	const char *name;
	int planes, hsub, vsub, depth;
	const char *packed;
	const char *order;
};

/* The three kinds of layout: two planes, three planes, packed 4:2:2. */
#define YUV_REF_SEMI(f, name, hsub, vsub, depth, order) \
	{ DRM_FORMAT_##f, name, 2, hsub, vsub, depth, NULL, order }
#define YUV_REF_PLANAR(f, name, hsub, vsub, order) \
	{ DRM_FORMAT_##f, name, 3, hsub, vsub, 8, NULL, order }
#define YUV_REF_PACKED(f, name, bytes) \
	{ DRM_FORMAT_##f, name, 1, 2, 1, 8, bytes, NULL }

static const struct yuv_ref_format yuv_ref_formats[] = {
	YUV_REF_SEMI(NV12, "nv12", 2, 2, 8, "UV"),
	YUV_REF_SEMI(NV21, "nv21", 2, 2, 8, "VU"),
	YUV_REF_SEMI(NV16, "nv16", 2, 1, 8, "UV"),
	YUV_REF_SEMI(NV61, "nv61", 2, 1, 8, "VU"),
	YUV_REF_SEMI(NV24, "nv24", 1, 1, 8, "UV"),
	YUV_REF_SEMI(NV42, "nv42", 1, 1, 8, "VU"),
	YUV_REF_PLANAR(YUV420, "yuv420", 2, 2, "UV"),
	YUV_REF_PLANAR(YVU420, "yvu420", 2, 2, "VU"),
	YUV_REF_PLANAR(YUV422, "yuv422", 2, 1, "UV"),
	YUV_REF_PLANAR(YVU422, "yvu422", 2, 1, "VU"),
	YUV_REF_PLANAR(YUV444, "yuv444", 1, 1, "UV"),
	YUV_REF_PLANAR(YVU444, "yvu444", 1, 1, "VU"),
	YUV_REF_PACKED(YUYV, "yuyv", "YUyV"),
	YUV_REF_PACKED(YVYU, "yvyu", "YVyU"),
	YUV_REF_PACKED(UYVY, "uyvy", "UYVy"),
	YUV_REF_PACKED(VYUY, "vyuy", "VYUy"),
	YUV_REF_SEMI(P010, "p010", 2, 2, 10, "UV"),
	YUV_REF_SEMI(P012, "p012", 2, 2, 12, "UV"),
	YUV_REF_SEMI(P016, "p016", 2, 2, 16, "UV"),
};

#define YUV_REF_N_FORMATS \
	(sizeof(yuv_ref_formats) / sizeof(yuv_ref_formats[0]))

/* Kr and Kb of BT.601, BT.709 and BT.2020 (DRM_COLOR_YCBCR_* order). */
static const struct {
	const char *name;
	double kr, kb;
} yuv_ref_encodings[3] = {
	{ "bt601", 0.299, 0.114 },
	{ "bt709", 0.2126, 0.0722 },
	{ "bt2020", 0.2627, 0.0593 },
};

/* Bytes of a row of plane @p of @f for @w pixels (no padding). */
static inline uint32_t yuv_ref_min_pitch(const struct yuv_ref_format *f,
					 int p, uint32_t w)
{
	uint32_t bps = f->depth > 8 ? 2 : 1, cw = (w + f->hsub - 1) / f->hsub;

	if (f->packed)
		return cw * 4;
	if (!p)
		return w * bps;
	return cw * bps * (f->planes == 2 ? 2 : 1);
}

/* Rows of plane @p of @f for @h pixel rows. */
static inline uint32_t yuv_ref_rows(const struct yuv_ref_format *f, int p,
				    uint32_t h)
{
	return p ? (h + f->vsub - 1) / f->vsub : h;
}

static inline void yuv_ref_put(uint8_t *p, int depth, unsigned int v)
{
	if (depth == 8) {
		p[0] = (uint8_t)v;
		return;
	}
	v <<= 16 - depth;
	p[0] = v & 0xff;
	p[1] = (uint8_t)(v >> 8);
}

/*
 * Lay out a @w x @h frame in @f: @y holds the luma samples, @cb and @cr
 * the chroma samples at chroma resolution, all with row stride @stride.
 */
static inline void yuv_ref_lay_out(const struct yuv_ref_format *f,
				   uint8_t *const planes[3],
				   const uint32_t pitches[3], int w, int h,
				   const uint16_t *y, const uint16_t *cb,
				   const uint16_t *cr, int stride)
{
	int bps = f->depth > 8 ? 2 : 1, cw = (w + f->hsub - 1) / f->hsub;
	int ch = (int)yuv_ref_rows(f, 1, (uint32_t)h), i, r, c;

	for (r = 0; r < h; r++)
		for (c = 0; c < (f->packed ? cw : w); c++) {
			uint8_t *p;

			if (!f->packed) {
				yuv_ref_put(planes[0] + (size_t)r * pitches[0] +
					    (size_t)c * bps, f->depth,
					    y[r * stride + c]);
				continue;
			}
			p = planes[0] + (size_t)r * pitches[0] + (size_t)c * 4;
			for (i = 0; i < 4; i++) {
				/* an odd width's last word repeats its Y */
				int second = 2 * c + 1 < w ? 2 * c + 1 : 2 * c;

				switch (f->packed[i]) {
				case 'Y': p[i] = (uint8_t)y[r * stride + 2 * c]; break;
				case 'y': p[i] = (uint8_t)y[r * stride + second]; break;
				case 'U': p[i] = (uint8_t)cb[r * stride + c]; break;
				default: p[i] = (uint8_t)cr[r * stride + c]; break;
				}
			}
		}
	if (f->packed)
		return;
	for (r = 0; r < ch; r++)
		for (c = 0; c < cw; c++) {
			int uv = f->order[0] == 'U';
			int ip = uv ? 1 : 2, vp = uv ? 2 : 1;

			if (f->planes == 2) {
				uint8_t *p = planes[1] + (size_t)r * pitches[1] +
					     (size_t)c * 2 * bps;

				yuv_ref_put(p + (uv ? 0 : bps), f->depth,
					    cb[r * stride + c]);
				yuv_ref_put(p + (uv ? bps : 0), f->depth,
					    cr[r * stride + c]);
				continue;
			}
			planes[ip][(size_t)r * pitches[ip] + c] =
				(uint8_t)cb[r * stride + c];
			planes[vp][(size_t)r * pitches[vp] + c] =
				(uint8_t)cr[r * stride + c];
		}
}

/*
 * The equations: RGB channels in 0..255, unrounded, of samples (@y, @cb,
 * @cr) of @depth bits, encoding @enc (0 BT.601, 1 BT.709, 2 BT.2020),
 * full range if @full.
 */
static inline void yuv_ref_rgb(int enc, int full, int depth, unsigned int y,
			       unsigned int cb, unsigned int cr, double rgb[3])
{
	double kr = yuv_ref_encodings[enc].kr, kb = yuv_ref_encodings[enc].kb;
	double kg = 1 - kr - kb, s = 1 << (depth - 8);
	double max = (1 << depth) - 1, l, b, r;
	int i;

	if (full) {
		l = y / max;
		b = ((double)cb - (1 << (depth - 1))) / max;
		r = ((double)cr - (1 << (depth - 1))) / max;
	} else {
		l = ((double)y - 16 * s) / (219 * s);
		b = ((double)cb - 128 * s) / (224 * s);
		r = ((double)cr - 128 * s) / (224 * s);
	}
	rgb[0] = l + 2 * (1 - kr) * r;
	rgb[1] = l - 2 * kb * (1 - kb) / kg * b - 2 * kr * (1 - kr) / kg * r;
	rgb[2] = l + 2 * (1 - kb) * b;
	for (i = 0; i < 3; i++)
		rgb[i] = 255 * fmin(fmax(rgb[i], 0), 1);
}

/* The same as 0xffRRGGBB, each channel rounded. */
static inline uint32_t yuv_ref_argb(int enc, int full, int depth,
				    unsigned int y, unsigned int cb,
				    unsigned int cr)
{
	double rgb[3];

	yuv_ref_rgb(enc, full, depth, y, cb, cr, rgb);
	return 0xff000000u | (uint32_t)lround(rgb[0]) << 16 |
	       (uint32_t)lround(rgb[1]) << 8 | (uint32_t)lround(rgb[2]);
}

#endif /* MMX_YUV_REF_H */
