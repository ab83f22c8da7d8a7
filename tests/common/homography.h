/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The projective matrix taking an output's corners to four points, solved
 * in double precision: a keystone matrix for the host tests and benchmark.
 */
#ifndef MMX_TEST_HOMOGRAPHY_H
#define MMX_TEST_HOMOGRAPHY_H

#include <math.h>
#include <string.h>

/* Homography taking (0,0), (w,0), (0,h), (w,h) to q[0..3]. */
static inline void homography(double *m, double w, double h, const double q[4][2])
{
	double a[8][9];
	int i, j, r, p;

	for (i = 0; i < 4; i++) {
		double u = (i & 1) ? w : 0, v = (i & 2) ? h : 0;
		double x = q[i][0], y = q[i][1];
		double r0[9] = { u, v, 1, 0, 0, 0, -x * u, -x * v, x };
		double r1[9] = { 0, 0, 0, u, v, 1, -y * u, -y * v, y };

		memcpy(a[2 * i], r0, sizeof(r0));
		memcpy(a[2 * i + 1], r1, sizeof(r1));
	}
	for (i = 0; i < 8; i++) {
		p = i;
		for (r = i + 1; r < 8; r++)
			if (fabs(a[r][i]) > fabs(a[p][i]))
				p = r;
		for (j = 0; j < 9; j++) {
			double t = a[i][j];

			a[i][j] = a[p][j];
			a[p][j] = t;
		}
		for (r = 0; r < 8; r++) {
			double f;

			if (r == i)
				continue;
			f = a[r][i] / a[i][i];
			for (j = i; j < 9; j++)
				a[r][j] -= f * a[i][j];
		}
	}
	for (i = 0; i < 8; i++)
		m[i] = a[i][8] / a[i][i];
	m[8] = 1;
}

#endif
