// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Pixel format conversion and plane blending for the mmx compositor.
 * Integer only, no DRM include: host unit tests compile this file as is.
 * Pixels are read as little-endian words, as DRM formats are defined.
 */

#include "mmx_blend.h"
#include "mmx_simd.h"

/* Full-opacity denominators: plane alpha is 16 bits, pixel alpha 8 bits. */
#define MMX_PA_ONE	0xffffu
#define MMX_PA_FA_ONE	((u64)MMX_PA_ONE * 0xff)

static const u8 mmx_format_bytes[MMX_FORMAT_COUNT] = {
	[MMX_FORMAT_XRGB8888] = 4,
	[MMX_FORMAT_ARGB8888] = 4,
	[MMX_FORMAT_XBGR8888] = 4,
	[MMX_FORMAT_ABGR8888] = 4,
	[MMX_FORMAT_RGB565] = 2,
	[MMX_FORMAT_RGB888] = 3,
	[MMX_FORMAT_XRGB2101010] = 4,
};

/**
 * mmx_format_cpp - bytes per pixel of a format
 * @format: the format
 *
 * Return: bytes per pixel, 0 for an unknown format or a YUV format (whose
 * samples are spread over planes or shared between pixels).
 */
unsigned int mmx_format_cpp(enum mmx_format format)
{
	if ((unsigned int)format >= MMX_FORMAT_COUNT)
		return 0;
	return mmx_format_bytes[format];
}

/**
 * mmx_format_has_alpha - whether a format carries per-pixel alpha
 * @format: the format
 *
 * Return: true for formats with an alpha channel.
 */
bool mmx_format_has_alpha(enum mmx_format format)
{
	return format == MMX_FORMAT_ARGB8888 || format == MMX_FORMAT_ABGR8888;
}

static inline u32 mmx_load32(const u8 *p)
{
	return (u32)p[0] | (u32)p[1] << 8 | (u32)p[2] << 16 | (u32)p[3] << 24;
}

static inline u32 mmx_swap_rb(u32 v)
{
	return (v & 0xff00ff00u) | (v & 0xff) << 16 | (v >> 16 & 0xff);
}

/* RGB565 (little endian) to ARGB8888, each channel's bits repeated. */
static inline u32 mmx_rgb565_argb(const u8 *p)
{
	u32 v = (u32)p[0] | (u32)p[1] << 8;
	u32 r = v >> 11, g = v >> 5 & 0x3f, b = v & 0x1f;

	r = r << 3 | r >> 2;
	g = g << 2 | g >> 4;
	b = b << 3 | b >> 2;
	return 0xff000000u | r << 16 | g << 8 | b;
}

/* XRGB2101010 to ARGB8888: the top 8 bits of each channel. */
static inline u32 mmx_xrgb2101010_argb(u32 v)
{
	u32 r = v >> 22 & 0xff, g = v >> 12 & 0xff, b = v >> 2 & 0xff;

	return 0xff000000u | r << 16 | g << 8 | b;
}

/**
 * mmx_format_read_row - convert a row of pixels to ARGB8888
 * @format: source format
 * @src: first source pixel
 * @argb: destination, @count words of 0xAARRGGBB
 * @count: number of pixels
 *
 * Formats without alpha produce alpha 0xff; see &enum mmx_format for the
 * widening rules.
 */
void mmx_format_read_row(enum mmx_format format, const u8 *src, u32 *argb,
			 u32 count)
{
	u32 i;

	switch (format) {
	case MMX_FORMAT_XRGB8888:
		for (i = 0; i < count; i++, src += 4)
			argb[i] = mmx_load32(src) | 0xff000000u;
		break;
	case MMX_FORMAT_ARGB8888:
		for (i = 0; i < count; i++, src += 4)
			argb[i] = mmx_load32(src);
		break;
	case MMX_FORMAT_XBGR8888:
		for (i = 0; i < count; i++, src += 4)
			argb[i] = mmx_swap_rb(mmx_load32(src)) | 0xff000000u;
		break;
	case MMX_FORMAT_ABGR8888:
		for (i = 0; i < count; i++, src += 4)
			argb[i] = mmx_swap_rb(mmx_load32(src));
		break;
	case MMX_FORMAT_RGB565:
		for (i = 0; i < count; i++, src += 2)
			argb[i] = mmx_rgb565_argb(src);
		break;
	case MMX_FORMAT_RGB888:
		for (i = 0; i < count; i++, src += 3)
			argb[i] = 0xff000000u | (u32)src[2] << 16 |
				  (u32)src[1] << 8 | src[0];
		break;
	case MMX_FORMAT_XRGB2101010:
		for (i = 0; i < count; i++, src += 4)
			argb[i] = mmx_xrgb2101010_argb(mmx_load32(src));
		break;
	default:
		memset(argb, 0, count * sizeof(*argb));
		break;
	}
}

/**
 * mmx_frame_fill - fill a whole frame with one colour
 * @frame: the frame
 * @xrgb: colour, 0xRRGGBB (the top byte is forced to 0xff)
 */
void mmx_frame_fill(struct mmx_frame *frame, u32 xrgb)
{
	u32 x, y, *row;

	xrgb |= 0xff000000u;
	for (y = 0; y < frame->height; y++) {
		row = frame->pixels + (size_t)y * frame->stride;
		for (x = 0; x < frame->width; x++)
			row[x] = xrgb;
	}
}

static inline u32 mmx_round_div(u64 num, u64 den)
{
	return (u32)((num + den / 2) / den);
}

/* out = (fg * fg_weight + bg * bg_weight) / den per channel, saturated. */
static inline u32 mmx_mix(u32 fg, u32 bg, u64 fg_weight, u64 bg_weight,
			  u64 den)
{
	u32 shift, c, out = 0xff000000u;

	for (shift = 0; shift < 24; shift += 8) {
		c = mmx_round_div((fg >> shift & 0xff) * fg_weight +
				  (bg >> shift & 0xff) * bg_weight, den);
		out |= (c > 0xff ? 0xff : c) << shift;
	}
	return out;
}

static void mmx_blend_row(u32 *dst, const u32 *src, u32 count, u16 alpha,
			  enum mmx_blend_mode blend)
{
	u64 pa = alpha, k;
	u32 i, fa;

	for (i = 0; i < count; i++) {
		fa = src[i] >> 24;
		switch (blend) {
		case MMX_BLEND_NONE:
			dst[i] = mmx_mix(src[i], dst[i], pa, MMX_PA_ONE - pa,
					 MMX_PA_ONE);
			break;
		case MMX_BLEND_PREMULTI:
			k = pa * fa;
			if (k == MMX_PA_FA_ONE)
				dst[i] = src[i] | 0xff000000u;
			else
				dst[i] = mmx_mix(src[i], dst[i], pa * 0xff,
						 MMX_PA_FA_ONE - k,
						 MMX_PA_FA_ONE);
			break;
		case MMX_BLEND_COVERAGE:
		default:
			k = pa * fa;
			if (k == MMX_PA_FA_ONE)
				dst[i] = src[i] | 0xff000000u;
			else
				dst[i] = mmx_mix(src[i], dst[i], k,
						 MMX_PA_FA_ONE - k,
						 MMX_PA_FA_ONE);
			break;
		}
	}
}

/*
 * An opaque 32-bit layer: its rows copied with the top byte set, with the
 * SIMD inner loop (in the kernel, in vector-register sections of at most
 * MMX_SIMD_SECTION pixels).
 */
static void mmx_blend_opaque32(struct mmx_frame *frame,
			       const struct mmx_layer *layer)
{
	const struct mmx_simd_ops *ops = mmx_simd;
	u32 rows = MMX_SIMD_SECTION / (layer->width ? layer->width : 1);
	const u8 *src = layer->pixels;
	u32 y, end;

	rows = rows ? rows : 1;
	for (y = 0; y < layer->height; y = end) {
		end = layer->height - y < rows ? layer->height : y + rows;
		mmx_simd_begin(ops);
		for (; y < end; y++, src += layer->pitch)
			ops->opaque_row(frame->pixels +
					(size_t)(layer->dst_y + y) * frame->stride +
					layer->dst_x, layer->width, src);
		mmx_simd_end(ops);
	}
}

/**
 * mmx_frame_blend - blend one layer over a frame
 * @frame: destination frame
 * @layer: the layer, which must lie inside the frame
 * @scratch: at least @layer->width words of scratch space
 *
 * An opaque layer (plane alpha 0xffff and no pixel alpha, or blend mode
 * "None") is converted straight into the frame.
 */
void mmx_frame_blend(struct mmx_frame *frame, const struct mmx_layer *layer,
		     u32 *scratch)
{
	bool opaque = layer->alpha == MMX_PA_ONE &&
		      (layer->blend == MMX_BLEND_NONE ||
		       !mmx_format_has_alpha(layer->format));
	const u8 *src = layer->pixels;
	u32 y, x, *dst;

	if (layer->dst_x + layer->width > frame->width ||
	    layer->dst_y + layer->height > frame->height)
		return;

	if (opaque && (layer->format == MMX_FORMAT_XRGB8888 ||
		       layer->format == MMX_FORMAT_ARGB8888)) {
		mmx_blend_opaque32(frame, layer);
		return;
	}
	for (y = 0; y < layer->height; y++, src += layer->pitch) {
		dst = frame->pixels + (size_t)(layer->dst_y + y) * frame->stride +
		      layer->dst_x;
		if (opaque) {
			mmx_format_read_row(layer->format, src, dst,
					    layer->width);
			for (x = 0; x < layer->width; x++)
				dst[x] |= 0xff000000u;
			continue;
		}
		mmx_format_read_row(layer->format, src, scratch, layer->width);
		mmx_blend_row(dst, scratch, layer->width, layer->alpha,
			      layer->blend);
	}
}
