/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * YCbCr to RGB conversion for the compositor's YUV plane formats. Pure
 * logic, no DRM include: built into the module and into the host tests.
 */

#ifndef _MMX_YUV_H_
#define _MMX_YUV_H_

#include "mmx_blend.h"

/* Planes of a YUV framebuffer at most (Y, Cb, Cr). */
#define MMX_YUV_PLANES	3

/**
 * enum mmx_yuv_encoding - the YCbCr to RGB matrix (COLOR_ENCODING)
 * @MMX_YUV_BT601: ITU-R BT.601, Kr = 0.299, Kb = 0.114
 * @MMX_YUV_BT709: ITU-R BT.709, Kr = 0.2126, Kb = 0.0722
 * @MMX_YUV_BT2020: ITU-R BT.2020 non-constant luminance, Kr = 0.2627,
 *	Kb = 0.0593
 * @MMX_YUV_ENCODING_COUNT: number of encodings
 */
enum mmx_yuv_encoding {
	MMX_YUV_BT601,
	MMX_YUV_BT709,
	MMX_YUV_BT2020,
	MMX_YUV_ENCODING_COUNT,
};

/**
 * enum mmx_yuv_range - the quantisation of the samples (COLOR_RANGE)
 * @MMX_YUV_LIMITED: Y in [16, 235] and Cb, Cr in [16, 240] (8 bits; the
 *	same values times 2^(N-8) for N bits), values outside clamped after
 *	conversion
 * @MMX_YUV_FULL: Y in [0, 2^N - 1], Cb and Cr centred on 2^(N-1), both
 *	divided by 2^N - 1 (ITU-T H.273)
 * @MMX_YUV_RANGE_COUNT: number of ranges
 */
enum mmx_yuv_range {
	MMX_YUV_LIMITED,
	MMX_YUV_FULL,
	MMX_YUV_RANGE_COUNT,
};

/**
 * struct mmx_yuv_matrix - a YCbCr to RGB matrix in integer fixed point
 * @y: weight of Y - @y_off in every channel
 * @r_cr: weight of Cr - @c_off in red
 * @g_cb: weight of Cb - @c_off in green (subtracted)
 * @g_cr: weight of Cr - @c_off in green (subtracted)
 * @b_cb: weight of Cb - @c_off in blue
 * @y_off: the sample value of black
 * @c_off: the sample value of zero chroma
 * @shift: the weights' fraction bits; a channel is the weighted sum
 *	rounded to an integer (half up) and clamped to [0, 255]
 *
 * Built by mmx_yuv_matrix_init() for one encoding, range and sample depth:
 * each weight is the standard equations' coefficient times 255 over the
 * range's span, rounded to 2^-@shift.
 */
struct mmx_yuv_matrix {
	s32 y;
	s32 r_cr;
	s32 g_cb;
	s32 g_cr;
	s32 b_cb;
	s32 y_off;
	s32 c_off;
	u32 shift;
};

/**
 * struct mmx_yuv_image - the planes of a YUV framebuffer
 * @format: a YUV format (mmx_format_is_yuv())
 * @matrix: the conversion (mmx_yuv_matrix_init() for @format's depth)
 * @planes: pixel (0, 0) of each plane of @format (its first sample)
 * @pitches: bytes between rows of each plane
 *
 * Chroma sample (x / hsub, y / vsub) serves pixel (x, y): subsampled
 * chroma is replicated, never interpolated, and the coordinates are the
 * framebuffer's, so any source offset (odd ones included) reads the samples
 * DRM's format rules place there.
 */
struct mmx_yuv_image {
	enum mmx_format format;
	struct mmx_yuv_matrix matrix;
	const u8 *planes[MMX_YUV_PLANES];
	u32 pitches[MMX_YUV_PLANES];
};

bool mmx_format_is_yuv(enum mmx_format format);
unsigned int mmx_yuv_depth(enum mmx_format format);
int mmx_yuv_matrix_init(struct mmx_yuv_matrix *m,
			enum mmx_yuv_encoding encoding,
			enum mmx_yuv_range range, unsigned int depth);
void mmx_yuv_read_row(const struct mmx_yuv_image *img, u32 x, u32 y,
		      u32 *argb, u32 count);

#endif /* _MMX_YUV_H_ */
