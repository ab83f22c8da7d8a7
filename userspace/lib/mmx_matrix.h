/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx matrix helpers beyond the public ones (mmx_matrix.c).
 */

#ifndef MMX_MATRIX_H
#define MMX_MATRIX_H

#include <stdint.h>

struct mmx_transform;

/* To/from the TRANSFORM blob's S31.32 two's complement; -EINVAL when an
 * entry is not finite or its magnitude is 2^15 or more (RandR's range). */
int mmx_matrix_to_fixed(int64_t out[9], const double m[9]);
void mmx_matrix_from_fixed(double m[9], const int64_t in[9]);

/* The matrix the kernel gets: @transform (NULL: identity) times the
 * rotation/reflection matrix of the @width x @height mode (RandR: the
 * rotation applies first). */
int mmx_matrix_effective(double out[9], const double transform[9],
			 uint32_t rotation, uint32_t width, uint32_t height);

/* mmx_matrix_effective() of @transform for a @width x @height mode, in the
 * blob's S31.32 (@fixed, may be NULL) and prepared for composition within
 * @space_max pixels (@t): -ERANGE when an entry is out of the blob's range,
 * -EINVAL when the driver's rules refuse the transform. */
int mmx_matrix_prepare(struct mmx_transform *t, int64_t fixed[9],
		       const double transform[9], uint32_t rotation,
		       uint32_t width, uint32_t height, int32_t space_max);

/* The projective matrix taking (0,0), (w,0), (0,h), (w,h) to @points, no
 * questions asked (mmx_matrix_keystone() checks the quadrilateral first);
 * -EINVAL for a singular system. Host tests and benchmarks use it too. */
int mmx_matrix_homography(double m[9], double width, double height,
			  const double points[8]);

#endif /* MMX_MATRIX_H */
