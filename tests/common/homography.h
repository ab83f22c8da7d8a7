/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The projective matrix taking an output's corners to four points: a
 * keystone matrix for the host tests and benchmark, solved by libmmx's
 * mmx_matrix_homography() (userspace/lib/mmx_matrix.c, linked in).
 */
#ifndef MMX_TEST_HOMOGRAPHY_H
#define MMX_TEST_HOMOGRAPHY_H

#include "mmx_matrix.h"

/* Homography taking (0,0), (w,0), (0,h), (w,h) to q[0..3]. */
static inline void homography(double *m, double w, double h, const double q[4][2])
{
	mmx_matrix_homography(m, w, h, &q[0][0]);
}

#endif
