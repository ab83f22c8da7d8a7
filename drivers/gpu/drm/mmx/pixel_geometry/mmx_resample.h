/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Plane resampling: scaling, rotation, reflection and fractional source
 * coordinates of a plane, done with the CRTC transform's compositor. Pure
 * logic, no DRM include: built into the module and into the host tests.
 */

#ifndef _MMX_RESAMPLE_H_
#define _MMX_RESAMPLE_H_

#include "mmx_raster.h"
#include "mmx_yuv.h"

/*
 * Plane rotation bits: the values of DRM_MODE_ROTATE_0/90/180/270 and
 * DRM_MODE_REFLECT_X/Y (uAPI, stable), so that this file needs no DRM
 * header. One rotation bit is set, reflections are optional.
 */
#define MMX_ROTATE_0		0x01u
#define MMX_ROTATE_90		0x02u
#define MMX_ROTATE_180		0x04u
#define MMX_ROTATE_270		0x08u
#define MMX_REFLECT_X		0x10u
#define MMX_REFLECT_Y		0x20u

/* Output rows resampled per band (see mmx_resample()). */
#define MMX_RESAMPLE_BAND_ROWS	16

/**
 * struct mmx_resample_geom - where a plane's source goes in CRTC space
 * @src_x: left of the source rectangle, framebuffer pixels in 16.16
 * @src_y: top of the source rectangle, 16.16
 * @src_w: width of the source rectangle, 16.16, not 0
 * @src_h: height of the source rectangle, 16.16, not 0
 * @dst_w: width of the destination (CRTC_W), pixels, not 0
 * @dst_h: height of the destination (CRTC_H), pixels, not 0
 * @rotation: MMX_ROTATE_* and MMX_REFLECT_* bits (DRM's values)
 *
 * The meaning is DRM's (drm_rect_rotate()): the source rectangle is
 * reflected (REFLECT_X mirrors x, REFLECT_Y mirrors y), then rotated
 * counter-clockwise, then scaled to the destination rectangle.
 */
struct mmx_resample_geom {
	u32 src_x;
	u32 src_y;
	u32 src_w;
	u32 src_h;
	u32 dst_w;
	u32 dst_h;
	unsigned int rotation;
};

/**
 * struct mmx_resample_src - the pixels a resampled plane reads
 * @pixels: pixel (0, 0) of the framebuffer's first plane (RGB formats)
 * @pitch: bytes between rows (RGB formats)
 * @format: pixel format
 * @yuv: the planes and conversion of a YUV @format (mmx_format_is_yuv()),
 *	which then replace @pixels and @pitch
 * @x1: left of the pixels that may be read (the source rectangle's pixels)
 * @y1: top of them
 * @x2: right of them (exclusive)
 * @y2: bottom of them (exclusive)
 *
 * Samples outside [@x1, @x2) x [@y1, @y2) read the nearest pixel inside
 * (pixman's REPEAT_PAD), so that the filter never blends in black.
 */
struct mmx_resample_src {
	const u8 *pixels;
	u32 pitch;
	enum mmx_format format;
	struct mmx_yuv_image yuv;
	s32 x1;
	s32 y1;
	s32 x2;
	s32 y2;
};

int mmx_resample_prepare(struct mmx_transform *t,
			 const struct mmx_resample_geom *g, u32 clip_x,
			 u32 clip_y, u32 out_w, u32 out_h);
bool mmx_resample_is_copy(const struct mmx_resample_geom *g);
size_t mmx_resample_scratch_words(const struct mmx_transform *t,
				  const struct mmx_resample_src *src);
void mmx_resample(const struct mmx_transform *t, enum mmx_filter filter,
		  const struct mmx_resample_src *src, struct mmx_frame *out,
		  u32 *alpha, u32 *scratch, size_t scratch_words);

#endif /* _MMX_RESAMPLE_H_ */
