// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * YCbCr to RGB conversion of the YUV plane formats, a row at a time, for
 * the plane resampler. Integer only, no DRM include: host unit tests
 * compile this file as is and compare it with the floating-point
 * equations (tests/unit/test_yuv.c).
 *
 * The equations, for Y' in [0, 1] and Cb, Cr in [-0.5, 0.5]:
 *
 *	R = Y' + 2 (1 - Kr) Cr
 *	G = Y' - 2 Kb (1 - Kb) / Kg Cb - 2 Kr (1 - Kr) / Kg Cr
 *	B = Y' + 2 (1 - Kb) Cb,		Kg = 1 - Kr - Kb
 *
 * each channel clamped to [0, 1] and scaled to [0, 255], rounded.
 */

#include "mmx_yuv.h"
#include "mmx_fixed.h"

/*
 * How a format stores its samples.
 * @planes: 1 (packed 4:2:2, two pixels per 32-bit word), 2 (Y plane and
 *	interleaved chroma plane) or 3 (Y, Cb, Cr planes in some order)
 * @hsub, @vsub: chroma subsampling
 * @depth: bits per sample; above 8, 16-bit words holding the value in
 *	their most significant bits
 * @y: packed: byte of the first Y in the word (the second is 2 further)
 * @cb, @cr: packed: byte of Cb / Cr in the word; 2 planes: sample index of
 *	Cb / Cr in the pair; 3 planes: the plane of Cb / Cr
 */
static const struct mmx_yuv_layout {
	u8 planes;
	u8 hsub;
	u8 vsub;
	u8 depth;
	u8 y;
	u8 cb;
	u8 cr;
} mmx_yuv_layouts[MMX_FORMAT_COUNT - MMX_FORMAT_NV12] = {
#define MMX_YUV(f, n, h, v, d, y_, b, r) \
	[MMX_FORMAT_##f - MMX_FORMAT_NV12] = { n, h, v, d, y_, b, r }
	MMX_YUV(NV12, 2, 2, 2, 8, 0, 0, 1),
	MMX_YUV(NV21, 2, 2, 2, 8, 0, 1, 0),
	MMX_YUV(NV16, 2, 2, 1, 8, 0, 0, 1),
	MMX_YUV(NV61, 2, 2, 1, 8, 0, 1, 0),
	MMX_YUV(NV24, 2, 1, 1, 8, 0, 0, 1),
	MMX_YUV(NV42, 2, 1, 1, 8, 0, 1, 0),
	MMX_YUV(YUV420, 3, 2, 2, 8, 0, 1, 2),
	MMX_YUV(YVU420, 3, 2, 2, 8, 0, 2, 1),
	MMX_YUV(YUV422, 3, 2, 1, 8, 0, 1, 2),
	MMX_YUV(YVU422, 3, 2, 1, 8, 0, 2, 1),
	MMX_YUV(YUV444, 3, 1, 1, 8, 0, 1, 2),
	MMX_YUV(YVU444, 3, 1, 1, 8, 0, 2, 1),
	MMX_YUV(YUYV, 1, 2, 1, 8, 0, 1, 3),
	MMX_YUV(YVYU, 1, 2, 1, 8, 0, 3, 1),
	MMX_YUV(UYVY, 1, 2, 1, 8, 1, 0, 2),
	MMX_YUV(VYUY, 1, 2, 1, 8, 1, 2, 0),
	MMX_YUV(P010, 2, 2, 2, 10, 0, 0, 1),
	MMX_YUV(P012, 2, 2, 2, 12, 0, 0, 1),
	MMX_YUV(P016, 2, 2, 2, 16, 0, 0, 1),
#undef MMX_YUV
};

/* Kr and Kb of each encoding, in units of 1/10000 (exact). */
static const struct {
	u32 kr;
	u32 kb;
} mmx_yuv_k[MMX_YUV_ENCODING_COUNT] = {
	[MMX_YUV_BT601] = { 2990, 1140 },
	[MMX_YUV_BT709] = { 2126, 722 },
	[MMX_YUV_BT2020] = { 2627, 593 },
};

#define MMX_YUV_K_ONE	10000u

/**
 * mmx_format_is_yuv - whether a format is one of the YUV formats
 * @format: the format
 *
 * Return: true for %MMX_FORMAT_NV12 and the formats after it.
 */
bool mmx_format_is_yuv(enum mmx_format format)
{
	return format >= MMX_FORMAT_NV12 && format < MMX_FORMAT_COUNT;
}

/**
 * mmx_yuv_depth - bits per sample of a YUV format
 * @format: the format
 *
 * Return: 8, 10, 12 or 16; 0 if @format is not a YUV format.
 */
unsigned int mmx_yuv_depth(enum mmx_format format)
{
	if (!mmx_format_is_yuv(format))
		return 0;
	return mmx_yuv_layouts[format - MMX_FORMAT_NV12].depth;
}

/* round(num / den) for num, den > 0. */
static s32 mmx_yuv_weight(u64 num, u64 den)
{
	return (s32)div64_u64(num + den / 2, den);
}

/**
 * mmx_yuv_matrix_init - the fixed-point matrix of an encoding and range
 * @m: the matrix to fill
 * @encoding: the YCbCr encoding
 * @range: the quantisation range
 * @depth: bits per sample, 8 to 16
 *
 * The weights carry @depth + 14 fraction bits: each is rounded to at most
 * 2^-22 of an output step per input step, so that over the whole input
 * range the fixed-point result stays within 0.01 of the exact one before
 * its final rounding.
 *
 * Return: 0, or -EINVAL for an unknown encoding or range or a depth out of
 * range.
 */
int mmx_yuv_matrix_init(struct mmx_yuv_matrix *m,
			enum mmx_yuv_encoding encoding,
			enum mmx_yuv_range range, unsigned int depth)
{
	u64 kr, kb, kg, y_span, c_span, one;

	if ((unsigned int)encoding >= MMX_YUV_ENCODING_COUNT ||
	    (unsigned int)range >= MMX_YUV_RANGE_COUNT || depth < 8 ||
	    depth > 16)
		return -EINVAL;

	kr = mmx_yuv_k[encoding].kr;
	kb = mmx_yuv_k[encoding].kb;
	kg = MMX_YUV_K_ONE - kr - kb;
	m->shift = depth + 14;
	m->c_off = 1 << (depth - 1);
	if (range == MMX_YUV_LIMITED) {
		m->y_off = 16 << (depth - 8);
		y_span = 219 << (depth - 8);
		c_span = 224 << (depth - 8);
	} else {
		m->y_off = 0;
		y_span = (1u << depth) - 1;
		c_span = y_span;
	}
	/* 255 * 2^shift: the output's span in fixed point. */
	one = (u64)255 << m->shift;
	m->y = mmx_yuv_weight(one, y_span);
	m->r_cr = mmx_yuv_weight(one * 2 * (MMX_YUV_K_ONE - kr),
				 MMX_YUV_K_ONE * c_span);
	m->b_cb = mmx_yuv_weight(one * 2 * (MMX_YUV_K_ONE - kb),
				 MMX_YUV_K_ONE * c_span);
	m->g_cb = mmx_yuv_weight(one * 2 * kb * (MMX_YUV_K_ONE - kb),
				 MMX_YUV_K_ONE * kg * c_span);
	m->g_cr = mmx_yuv_weight(one * 2 * kr * (MMX_YUV_K_ONE - kr),
				 MMX_YUV_K_ONE * kg * c_span);
	return 0;
}

/* A weighted sum to a channel: rounded half up, clamped to [0, 255]. */
static inline u32 mmx_yuv_channel(s64 v, u32 shift)
{
	if (v <= 0)
		return 0;
	v = (v + ((s64)1 << (shift - 1))) >> shift;
	return v > 0xff ? 0xff : (u32)v;
}

static inline u32 mmx_yuv_pixel(const struct mmx_yuv_matrix *m, u32 y,
				u32 cb, u32 cr)
{
	s64 l = (s64)m->y * ((s32)y - m->y_off);
	s64 b = (s32)cb - m->c_off, r = (s32)cr - m->c_off;

	return 0xff000000u |
	       mmx_yuv_channel(l + m->r_cr * r, m->shift) << 16 |
	       mmx_yuv_channel(l - m->g_cb * b - m->g_cr * r, m->shift) << 8 |
	       mmx_yuv_channel(l + m->b_cb * b, m->shift);
}

/* Packed 4:2:2: word x / 2 holds both pixels' Y and their Cb, Cr. */
static void mmx_yuv_row_packed(const struct mmx_yuv_image *img,
			       const struct mmx_yuv_layout *l, u32 x, u32 y,
			       u32 *argb, u32 count)
{
	const u8 *row = img->planes[0] + (size_t)y * img->pitches[0];
	const u8 *w;
	u32 i;

	for (i = 0; i < count; i++, x++) {
		w = row + (size_t)(x / 2) * 4;
		argb[i] = mmx_yuv_pixel(&img->matrix, w[l->y + (x & 1) * 2],
					w[l->cb], w[l->cr]);
	}
}

static inline u32 mmx_yuv_load16(const u8 *p, unsigned int depth)
{
	return ((u32)p[0] | (u32)p[1] << 8) >> (16 - depth);
}

/* Y plane and a plane of Cb, Cr pairs, 8 bits or 16-bit words. */
static void mmx_yuv_row_semi(const struct mmx_yuv_image *img,
			     const struct mmx_yuv_layout *l, u32 x, u32 y,
			     u32 *argb, u32 count)
{
	const u8 *luma = img->planes[0] + (size_t)y * img->pitches[0];
	const u8 *chroma = img->planes[1] +
			   (size_t)(y / l->vsub) * img->pitches[1];
	const u8 *c;
	u32 i;

	if (l->depth == 8) {
		for (i = 0; i < count; i++, x++) {
			c = chroma + (size_t)(x / l->hsub) * 2;
			argb[i] = mmx_yuv_pixel(&img->matrix, luma[x],
						c[l->cb], c[l->cr]);
		}
		return;
	}
	for (i = 0; i < count; i++, x++) {
		c = chroma + (size_t)(x / l->hsub) * 4;
		argb[i] = mmx_yuv_pixel(&img->matrix,
					mmx_yuv_load16(luma + (size_t)x * 2,
						       l->depth),
					mmx_yuv_load16(c + l->cb * 2, l->depth),
					mmx_yuv_load16(c + l->cr * 2, l->depth));
	}
}

/* Three planes of 8-bit samples. */
static void mmx_yuv_row_planar(const struct mmx_yuv_image *img,
			       const struct mmx_yuv_layout *l, u32 x, u32 y,
			       u32 *argb, u32 count)
{
	const u8 *luma = img->planes[0] + (size_t)y * img->pitches[0];
	const u8 *cb = img->planes[l->cb] +
		       (size_t)(y / l->vsub) * img->pitches[l->cb];
	const u8 *cr = img->planes[l->cr] +
		       (size_t)(y / l->vsub) * img->pitches[l->cr];
	u32 i;

	for (i = 0; i < count; i++, x++)
		argb[i] = mmx_yuv_pixel(&img->matrix, luma[x], cb[x / l->hsub],
					cr[x / l->hsub]);
}

/**
 * mmx_yuv_read_row - convert pixels of a row of a YUV image to ARGB8888
 * @img: the image
 * @x: framebuffer column of the first pixel
 * @y: framebuffer row
 * @argb: destination, @count words of 0xffRRGGBB
 * @count: number of pixels
 *
 * Each pixel is converted from its own Y and the chroma sample that covers
 * it (see &struct mmx_yuv_image). A format that is not YUV reads as
 * transparent black.
 */
void mmx_yuv_read_row(const struct mmx_yuv_image *img, u32 x, u32 y,
		      u32 *argb, u32 count)
{
	const struct mmx_yuv_layout *l;

	if (!mmx_format_is_yuv(img->format)) {
		memset(argb, 0, count * sizeof(*argb));
		return;
	}
	l = &mmx_yuv_layouts[img->format - MMX_FORMAT_NV12];
	switch (l->planes) {
	case 1:
		mmx_yuv_row_packed(img, l, x, y, argb, count);
		break;
	case 2:
		mmx_yuv_row_semi(img, l, x, y, argb, count);
		break;
	default:
		mmx_yuv_row_planar(img, l, x, y, argb, count);
		break;
	}
}
