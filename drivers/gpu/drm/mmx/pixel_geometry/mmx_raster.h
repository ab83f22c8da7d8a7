/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The rasteriser: a picture resampled through a prepared CRTC or plane
 * transform (mmx_raster.c). Built into mmx_core.ko, the host tests and the
 * benchmark (README).
 */

#ifndef _MMX_RASTER_H_
#define _MMX_RASTER_H_

#include "mmx_blend.h"
#include "mmx_transform.h"

/**
 * enum mmx_filter - how a transformed output pixel samples the screen
 * @MMX_FILTER_NEAREST: the screen pixel containing the sample point; a
 *	point exactly on a pixel edge belongs to the pixel above/left of it
 *	(pixman's NEAREST: floor(x - epsilon))
 * @MMX_FILTER_BILINEAR: bilinear interpolation of the four pixels around
 *	the sample point, with 7-bit weights as pixman 0.42 (BILINEAR)
 *
 * Screen pixels outside the screen image read as black in both filters.
 */
enum mmx_filter {
	MMX_FILTER_NEAREST,
	MMX_FILTER_BILINEAR,
};

void mmx_transform_compose(const struct mmx_transform *t,
			   enum mmx_filter filter,
			   const struct mmx_frame *screen,
			   s32 screen_x, s32 screen_y, struct mmx_frame *out,
			   u32 row_begin, u32 row_end);

#endif /* _MMX_RASTER_H_ */
