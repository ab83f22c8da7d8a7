// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * 3x3 matrices with RandR's meaning (an output pixel to the screen point
 * it shows): rotation and reflection as the X server computes them
 * (RRTransformCompute), keystone solving, the CRTC bounding box (by the
 * driver's own fixed-point code, so it agrees with the kernel to the
 * pixel) and filter names.
 */

#include <errno.h>
#include <math.h>
#include <string.h>
#include <strings.h>

#include "mmx_internal.h"
#include "mmx_matrix.h"
#include "mmx_transform.h"
#include "drm/mmx_drm.h"

void mmx_matrix_identity(double m[9])
{
	static const double id[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };

	memcpy(m, id, sizeof(id));
}

void mmx_matrix_multiply(double out[9], const double a[9], const double b[9])
{
	double r[9];
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			r[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] +
				       a[3 * i + 2] * b[6 + j];
	memcpy(out, r, sizeof(r));
}

int mmx_matrix_invert(double out[9], const double m[9])
{
	double r[9], det;
	int i;

	r[0] = m[4] * m[8] - m[5] * m[7];
	r[1] = m[2] * m[7] - m[1] * m[8];
	r[2] = m[1] * m[5] - m[2] * m[4];
	r[3] = m[5] * m[6] - m[3] * m[8];
	r[4] = m[0] * m[8] - m[2] * m[6];
	r[5] = m[2] * m[3] - m[0] * m[5];
	r[6] = m[3] * m[7] - m[4] * m[6];
	r[7] = m[1] * m[6] - m[0] * m[7];
	r[8] = m[0] * m[4] - m[1] * m[3];
	det = m[0] * r[0] + m[1] * r[3] + m[2] * r[6];
	if (det == 0 || !isfinite(det))
		return -EINVAL;
	for (i = 0; i < 9; i++)
		out[i] = r[i] / det;
	return 0;
}

int mmx_matrix_apply(const double m[9], double x, double y, double *ox,
		     double *oy)
{
	double w = m[6] * x + m[7] * y + m[8];

	if (!(w > 0))
		return -ERANGE;
	*ox = (m[0] * x + m[1] * y + m[2]) / w;
	*oy = (m[3] * x + m[4] * y + m[5]) / w;
	return 0;
}

/* @m = [a b tx; c d ty; 0 0 1] * @m */
static void premultiply_affine(double m[9], double a, double b, double c,
			       double d, double tx, double ty)
{
	const double t[9] = { a, b, tx, c, d, ty, 0, 0, 1 };

	mmx_matrix_multiply(m, t, m);
}

/*
 * RandR's rotation then reflection of a @width x @height mode, built in
 * the X server's order: rotate, translate back into the positive quadrant,
 * reflect, translate back.
 */
int mmx_matrix_rotation(double m[9], uint32_t rotation, uint32_t width,
			uint32_t height)
{
	const uint32_t all = MMX_ROTATE_0 | MMX_ROTATE_90 | MMX_ROTATE_180 |
			     MMX_ROTATE_270 | MMX_REFLECT_X | MMX_REFLECT_Y;
	uint32_t rot = rotation & 0xf;
	double w = width, h = height, cw, ch;

	if ((rotation & ~all) || __builtin_popcount(rot) != 1)
		return -EINVAL;
	mmx_matrix_identity(m);
	switch (rot) {
	case MMX_ROTATE_90:
		premultiply_affine(m, 0, -1, 1, 0, h, 0);
		break;
	case MMX_ROTATE_180:
		premultiply_affine(m, -1, 0, 0, -1, w, h);
		break;
	case MMX_ROTATE_270:
		premultiply_affine(m, 0, 1, -1, 0, 0, w);
		break;
	}
	/* Reflections act on the rotated picture. */
	cw = rot & (MMX_ROTATE_0 | MMX_ROTATE_180) ? w : h;
	ch = rot & (MMX_ROTATE_0 | MMX_ROTATE_180) ? h : w;
	if (rotation & MMX_REFLECT_X)
		premultiply_affine(m, -1, 0, 0, 1, cw, 0);
	if (rotation & MMX_REFLECT_Y)
		premultiply_affine(m, 1, 0, 0, -1, 0, ch);
	/* Clean -0.0 so printed matrices read well. */
	for (rot = 0; rot < 9; rot++)
		if (m[rot] == 0)
			m[rot] = 0;
	return 0;
}

static double cross(const double *o, const double *a, const double *b)
{
	return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

/*
 * Solve the 8x8 system of the homography taking (0,0), (w,0), (0,h),
 * (w,h) to the points, by Gaussian elimination with partial pivoting.
 */
int mmx_matrix_homography(double m[9], double width, double height,
			  const double points[8])
{
	double a[8][9], c;
	int i, j, r, p;

	for (i = 0; i < 4; i++) {
		double u = (i & 1) ? width : 0, v = (i & 2) ? height : 0;
		double x = points[2 * i], y = points[2 * i + 1];
		const double r0[9] = { u, v, 1, 0, 0, 0, -x * u, -x * v, x };
		const double r1[9] = { 0, 0, 0, u, v, 1, -y * u, -y * v, y };

		memcpy(a[2 * i], r0, sizeof(r0));
		memcpy(a[2 * i + 1], r1, sizeof(r1));
	}
	for (i = 0; i < 8; i++) {
		p = i;
		for (r = i + 1; r < 8; r++)
			if (fabs(a[r][i]) > fabs(a[p][i]))
				p = r;
		if (fabs(a[p][i]) < 1e-12)
			return -EINVAL;
		for (j = 0; j < 9; j++) {
			c = a[i][j];
			a[i][j] = a[p][j];
			a[p][j] = c;
		}
		for (r = 0; r < 8; r++) {
			if (r == i)
				continue;
			c = a[r][i] / a[i][i];
			for (j = i; j < 9; j++)
				a[r][j] -= c * a[i][j];
		}
	}
	for (i = 0; i < 8; i++)
		m[i] = a[i][8] / a[i][i];
	m[8] = 1;
	return 0;
}

/* A keystone: a convex, not mirrored quadrilateral, then its homography. */
int mmx_matrix_keystone(double m[9], uint32_t width, uint32_t height,
			const double points[8])
{
	/* The quadrilateral in drawing order: TL, TR, BR, BL. */
	const double *quad[4] = { &points[0], &points[2], &points[6],
				  &points[4] };
	double c, sign = 0;
	int i;

	if (!width || !height)
		return -EINVAL;
	for (i = 0; i < 8; i++)
		if (!isfinite(points[i]))
			return -EINVAL;
	for (i = 0; i < 4; i++) {
		c = cross(quad[i], quad[(i + 1) % 4], quad[(i + 2) % 4]);
		if (fabs(c) < 1e-9)
			return -EINVAL;	/* three points on a line */
		if (sign && (c > 0) != (sign > 0))
			return -EINVAL;	/* not convex */
		sign = c;
	}
	if (sign < 0)
		return -EINVAL;	/* mirrored: use a reflection for that */
	return mmx_matrix_homography(m, width, height, points);
}

int mmx_matrix_to_fixed(int64_t out[9], const double m[9])
{
	const double limit = 32768.0;
	int i;

	for (i = 0; i < 9; i++) {
		if (!isfinite(m[i]) || fabs(m[i]) >= limit)
			return -EINVAL;
		out[i] = llround(ldexp(m[i], 32));
	}
	return 0;
}

void mmx_matrix_from_fixed(double m[9], const int64_t in[9])
{
	int i;

	for (i = 0; i < 9; i++)
		m[i] = ldexp((double)in[i], -32);
}

int mmx_matrix_effective(double out[9], const double transform[9],
			 uint32_t rotation, uint32_t width, uint32_t height)
{
	double r[9];
	int ret;

	ret = mmx_matrix_rotation(r, rotation, width, height);
	if (ret)
		return ret;
	if (transform)
		mmx_matrix_multiply(out, transform, r);
	else
		memcpy(out, r, sizeof(r));
	return 0;
}

int mmx_matrix_prepare(struct mmx_transform *t, int64_t fixed[9],
		       const double transform[9], uint32_t rotation,
		       uint32_t width, uint32_t height, int32_t space_max)
{
	int64_t f[9];
	s64 entries[9];
	double m[9];
	int i;

	if (mmx_matrix_effective(m, transform, rotation, width, height) ||
	    mmx_matrix_to_fixed(f, m))
		return -ERANGE;
	for (i = 0; i < 9; i++)
		entries[i] = f[i];
	if (fixed)
		memcpy(fixed, f, sizeof(f));
	return mmx_transform_prepare(t, entries, width, height, space_max) ?
	       -EINVAL : 0;
}

int mmx_crtc_bbox(const double transform[9], uint32_t rotation,
		  uint32_t width, uint32_t height, int32_t *x, int32_t *y,
		  uint32_t *w, uint32_t *h)
{
	struct mmx_transform t;

	if (mmx_matrix_prepare(&t, NULL, transform, rotation, width, height,
			       MMX_TRANSFORM_SPACE_MAX))
		return -EINVAL;
	mmx_transform_bbox(&t, x, y, w, h);
	return 0;
}

const char *mmx_filter_canonical(const char *name)
{
	if (!name)
		return NULL;
	if (!strcasecmp(name, "nearest") || !strcasecmp(name, "fast"))
		return "nearest";
	if (!strcasecmp(name, "bilinear") || !strcasecmp(name, "good") ||
	    !strcasecmp(name, "best"))
		return "bilinear";
	return NULL;
}
