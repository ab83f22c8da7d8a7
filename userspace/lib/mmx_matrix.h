/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx matrix helpers beyond the public ones (mmx_matrix.c).
 */

#ifndef MMX_MATRIX_H
#define MMX_MATRIX_H

#include <stdint.h>

/* To/from the TRANSFORM blob's S31.32 two's complement; -EINVAL when an
 * entry is not finite or its magnitude is 2^15 or more (RandR's range). */
int mmx_matrix_to_fixed(int64_t out[9], const double m[9]);
void mmx_matrix_from_fixed(double m[9], const int64_t in[9]);

/* The matrix the kernel gets: @transform (NULL: identity) times the
 * rotation/reflection matrix of the @width x @height mode (RandR: the
 * rotation applies first). */
int mmx_matrix_effective(double out[9], const double transform[9],
			 uint32_t rotation, uint32_t width, uint32_t height);

#endif /* MMX_MATRIX_H */
