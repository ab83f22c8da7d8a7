/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The CRTC transform of RandR 1.3: a 3x3 projective matrix that maps an
 * output pixel to the screen point it shows: its validation, bounding box
 * and point mapping (mmx_transform.c). The rasteriser that draws through
 * it is mmx_raster.h's. Built into mmx_core.ko, libmmx, the host tests and
 * the benchmark (README).
 */

#ifndef _MMX_TRANSFORM_H_
#define _MMX_TRANSFORM_H_

#include "mmx_fixed.h"

/*
 * Limits. RandR's matrices are XFixed (16.16), so entries stay below 2^15
 * in magnitude; screens and modes stay below 2^15 pixels (X's coordinates
 * are 16-bit). Within these bounds every set-up product fits 64 bits and
 * the per-pixel arithmetic is overflow free (see mmx_raster.c).
 */
#define MMX_TRANSFORM_ENTRY_MAX		((s64)1 << (15 + MMX_FIXP_SHIFT))
#define MMX_TRANSFORM_OUT_MAX		16384u
#define MMX_TRANSFORM_EXTENT_MAX	32768u

/**
 * enum mmx_transform_kind - the fast path a transform takes
 * @MMX_TRANSFORM_IDENTITY: the identity matrix: row copies
 * @MMX_TRANSFORM_TRANSLATE: identity plus an integer translation: row copies
 * @MMX_TRANSFORM_AXIS: a rotation by a multiple of 90 degrees and/or a
 *	reflection (2x2 part a signed permutation matrix), plus an integer
 *	translation: pixel centres map to pixel centres, so both filters are a
 *	pixel shuffle (tiled transpose or reversed row copies)
 * @MMX_TRANSFORM_AFFINE: any other affine matrix (last row 0, 0, 1):
 *	incremental stepping in 32.32 fixed point, no division per pixel (and
 *	a byte-wise average for an exact 2x downscale with BILINEAR)
 * @MMX_TRANSFORM_PROJECTIVE: a projective matrix: exact per-pixel quotients
 *	from quadratic forward differencing between exact samples a span of up
 *	to 64 pixels apart (see mmx_raster.c), no division per pixel
 */
enum mmx_transform_kind {
	MMX_TRANSFORM_IDENTITY,
	MMX_TRANSFORM_TRANSLATE,
	MMX_TRANSFORM_AXIS,
	MMX_TRANSFORM_AFFINE,
	MMX_TRANSFORM_PROJECTIVE,
};

/**
 * struct mmx_transform - a validated, decoded CRTC transform
 * @m: the matrix as given, row-major S31.32
 * @kind: fast path
 * @out_w: output (CRTC mode) width in pixels
 * @out_h: output height in pixels
 * @bbox_x: left of the bounding box of the transformed output rectangle,
 *	in transform (screen) coordinates
 * @bbox_y: top of the bounding box
 * @bbox_w: width of the bounding box
 * @bbox_h: height of the bounding box
 * @ax: %MMX_TRANSFORM_IDENTITY, _TRANSLATE and _AXIS: the screen pixel shown
 *	by output pixel (u, v) is (ax[0] + ax[1] u + ax[2] v,
 *	ax[3] + ax[4] u + ax[5] v); ax[1], ax[2], ax[4], ax[5] are -1, 0 or 1
 * @x0: %MMX_TRANSFORM_AFFINE: screen x of the centre of output pixel (0, 0),
 *	in 2^-32 pixels (rounded half up to that precision)
 * @y0: likewise y
 * @dxu: change of x per output column, 2^-32 pixels (exact)
 * @dxv: change of x per output row
 * @dyu: change of y per output column
 * @dyv: change of y per output row
 * @h0: %MMX_TRANSFORM_PROJECTIVE: homogeneous (X, Y, W) of the centre of
 *	output pixel (0, 0), scaled by a power of two so that W < 2^28 on the
 *	whole output (see mmx_raster.c)
 * @hu: change of (X, Y, W) per output column, same scale
 * @hv: change of (X, Y, W) per output row, same scale
 *
 * Filled by mmx_transform_prepare() (or mmx_transform_identity()); used
 * read-only by the compositor, so one instance can live in an atomic state
 * and serve several compositions concurrently.
 */
struct mmx_transform {
	struct mmx_fixp m[9];
	enum mmx_transform_kind kind;
	u32 out_w;
	u32 out_h;
	s32 bbox_x;
	s32 bbox_y;
	u32 bbox_w;
	u32 bbox_h;
	s32 ax[6];
	s64 x0;
	s64 y0;
	s64 dxu;
	s64 dxv;
	s64 dyu;
	s64 dyv;
	s64 h0[3];
	s64 hu[3];
	s64 hv[3];
};

void mmx_transform_identity(struct mmx_transform *t, u32 out_w, u32 out_h);
int mmx_transform_prepare(struct mmx_transform *t, const s64 m[9],
			  u32 out_w, u32 out_h, u32 max_extent);
void mmx_transform_bbox(const struct mmx_transform *t, s32 *x, s32 *y,
			u32 *w, u32 *h);
bool mmx_transform_point(const struct mmx_transform *t, struct mmx_fixp u,
			 struct mmx_fixp v, struct mmx_fixp *x,
			 struct mmx_fixp *y);
bool mmx_transform_point_inverse(const struct mmx_transform *t,
				 struct mmx_fixp x, struct mmx_fixp y,
				 struct mmx_fixp *u, struct mmx_fixp *v);

#endif /* _MMX_TRANSFORM_H_ */
