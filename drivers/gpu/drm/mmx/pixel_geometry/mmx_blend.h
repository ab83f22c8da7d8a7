/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The pure part of the mmx compositor: pixel format conversion and plane
 * blending into an XRGB8888 frame. No DRM include: the same source is built
 * into the module and into the host unit tests.
 */

#ifndef _MMX_BLEND_H_
#define _MMX_BLEND_H_

#include "mmx_pure.h"

/**
 * enum mmx_format - pixel formats the compositor reads
 * @MMX_FORMAT_XRGB8888: DRM_FORMAT_XRGB8888, [31:0] x:R:G:B little endian
 * @MMX_FORMAT_ARGB8888: DRM_FORMAT_ARGB8888, [31:0] A:R:G:B little endian
 * @MMX_FORMAT_XBGR8888: DRM_FORMAT_XBGR8888, [31:0] x:B:G:R little endian
 * @MMX_FORMAT_ABGR8888: DRM_FORMAT_ABGR8888, [31:0] A:B:G:R little endian
 * @MMX_FORMAT_RGB565: DRM_FORMAT_RGB565, [15:0] R:G:B 5:6:5 little endian
 * @MMX_FORMAT_RGB888: DRM_FORMAT_RGB888, [23:0] R:G:B little endian
 * @MMX_FORMAT_XRGB2101010: DRM_FORMAT_XRGB2101010, [31:0] x:R:G:B 2:10:10:10
 * @MMX_FORMAT_NV12: DRM_FORMAT_NV12, Y plane, CbCr plane, 2x2 subsampled
 * @MMX_FORMAT_NV21: DRM_FORMAT_NV21, Y plane, CrCb plane, 2x2 subsampled
 * @MMX_FORMAT_NV16: DRM_FORMAT_NV16, Y plane, CbCr plane, 2x1 subsampled
 * @MMX_FORMAT_NV61: DRM_FORMAT_NV61, Y plane, CrCb plane, 2x1 subsampled
 * @MMX_FORMAT_NV24: DRM_FORMAT_NV24, Y plane, CbCr plane, not subsampled
 * @MMX_FORMAT_NV42: DRM_FORMAT_NV42, Y plane, CrCb plane, not subsampled
 * @MMX_FORMAT_YUV420: DRM_FORMAT_YUV420, Y, Cb, Cr planes, 2x2 subsampled
 * @MMX_FORMAT_YVU420: DRM_FORMAT_YVU420, Y, Cr, Cb planes, 2x2 subsampled
 * @MMX_FORMAT_YUV422: DRM_FORMAT_YUV422, Y, Cb, Cr planes, 2x1 subsampled
 * @MMX_FORMAT_YVU422: DRM_FORMAT_YVU422, Y, Cr, Cb planes, 2x1 subsampled
 * @MMX_FORMAT_YUV444: DRM_FORMAT_YUV444, Y, Cb, Cr planes
 * @MMX_FORMAT_YVU444: DRM_FORMAT_YVU444, Y, Cr, Cb planes
 * @MMX_FORMAT_YUYV: DRM_FORMAT_YUYV, [31:0] Cr0:Y1:Cb0:Y0 little endian
 * @MMX_FORMAT_YVYU: DRM_FORMAT_YVYU, [31:0] Cb0:Y1:Cr0:Y0 little endian
 * @MMX_FORMAT_UYVY: DRM_FORMAT_UYVY, [31:0] Y1:Cr0:Y0:Cb0 little endian
 * @MMX_FORMAT_VYUY: DRM_FORMAT_VYUY, [31:0] Y1:Cb0:Y0:Cr0 little endian
 * @MMX_FORMAT_P010: DRM_FORMAT_P010, as NV12 with 16-bit little-endian
 *	samples holding 10 bits in their most significant bits
 * @MMX_FORMAT_P012: DRM_FORMAT_P012, the same with 12 bits
 * @MMX_FORMAT_P016: DRM_FORMAT_P016, the same with 16 bits
 * @MMX_FORMAT_COUNT: number of formats
 *
 * Conversion to 8 bits per channel: 8-bit channels are taken as they are,
 * 5- and 6-bit channels are widened by bit replication, 10-bit channels keep
 * their 8 most significant bits. Formats without alpha read as opaque.
 * The YUV formats, from %MMX_FORMAT_NV12 on, are read by mmx_yuv.c only
 * (mmx_format_read_row() and mmx_frame_blend() do not take them).
 */
enum mmx_format {
	MMX_FORMAT_XRGB8888,
	MMX_FORMAT_ARGB8888,
	MMX_FORMAT_XBGR8888,
	MMX_FORMAT_ABGR8888,
	MMX_FORMAT_RGB565,
	MMX_FORMAT_RGB888,
	MMX_FORMAT_XRGB2101010,
	MMX_FORMAT_NV12,
	MMX_FORMAT_NV21,
	MMX_FORMAT_NV16,
	MMX_FORMAT_NV61,
	MMX_FORMAT_NV24,
	MMX_FORMAT_NV42,
	MMX_FORMAT_YUV420,
	MMX_FORMAT_YVU420,
	MMX_FORMAT_YUV422,
	MMX_FORMAT_YVU422,
	MMX_FORMAT_YUV444,
	MMX_FORMAT_YVU444,
	MMX_FORMAT_YUYV,
	MMX_FORMAT_YVYU,
	MMX_FORMAT_UYVY,
	MMX_FORMAT_VYUY,
	MMX_FORMAT_P010,
	MMX_FORMAT_P012,
	MMX_FORMAT_P016,
	MMX_FORMAT_COUNT,
};

/**
 * enum mmx_blend_mode - how a layer is blended over what is below it
 * @MMX_BLEND_NONE: "None": the pixel alpha is ignored,
 *	out = pa * fg + (1 - pa) * bg
 * @MMX_BLEND_PREMULTI: "Pre-multiplied": colour already multiplied by alpha,
 *	out = pa * fg + (1 - pa * fg.alpha) * bg
 * @MMX_BLEND_COVERAGE: "Coverage": straight alpha,
 *	out = pa * fg.alpha * fg + (1 - pa * fg.alpha) * bg
 *
 * pa is the plane alpha (0..0xffff mapped to 0..1). These are the formulas
 * of the DRM "pixel blend mode" property.
 */
enum mmx_blend_mode {
	MMX_BLEND_NONE,
	MMX_BLEND_PREMULTI,
	MMX_BLEND_COVERAGE,
};

/**
 * struct mmx_frame - an XRGB8888 destination image
 * @pixels: first pixel; every pixel is written as 0xffRRGGBB
 * @width: width in pixels
 * @height: height in pixels
 * @stride: distance between rows, in pixels
 */
struct mmx_frame {
	u32 *pixels;
	u32 width;
	u32 height;
	u32 stride;
};

/**
 * struct mmx_layer - one plane, already clipped to the frame
 * @pixels: address of the first source pixel to show (top-left of the
 *	clipped source rectangle)
 * @pitch: distance between source rows in bytes
 * @format: source pixel format
 * @dst_x: left column of the layer in the frame
 * @dst_y: top row of the layer in the frame
 * @width: columns to show (source and destination: no scaling)
 * @height: rows to show
 * @alpha: plane alpha, 0 (transparent) to 0xffff (opaque)
 * @blend: blend mode
 */
struct mmx_layer {
	const u8 *pixels;
	u32 pitch;
	enum mmx_format format;
	u32 dst_x;
	u32 dst_y;
	u32 width;
	u32 height;
	u16 alpha;
	enum mmx_blend_mode blend;
};

unsigned int mmx_format_cpp(enum mmx_format format);
bool mmx_format_has_alpha(enum mmx_format format);
void mmx_format_read_row(enum mmx_format format, const u8 *src, u32 *argb,
			 u32 count);
void mmx_frame_fill(struct mmx_frame *frame, u32 xrgb);
void mmx_frame_blend(struct mmx_frame *frame, const struct mmx_layer *layer,
		     u32 *scratch);

#endif /* _MMX_BLEND_H_ */
