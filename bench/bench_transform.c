// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the CRTC transform compositor against pixman: one thread, a
 * 1920x1080 XRGB8888 output, medians of 15 runs. Prints a header line, then
 * exactly one line per case and filter:
 *
 *   bench: <case> <filter> mmx_ms=<median> pixman_ms=<median>
 *          speedup=<pixman/mmx> memcpy_ratio=<mmx/memcpy>
 *
 * (on one line). memcpy is one 1920x1080x4 frame copy; the three are
 * timed interleaved (mmx, pixman, memcpy, mmx, ...) so that each line's
 * medians see the same machine conditions. pixman gets the same matrix (rounded to its 16.16), filter,
 * REPEAT_NONE, PIXMAN_OP_SRC from x8r8g8b8 to x8r8g8b8. Times are the
 * thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so that other load on the
 * machine preempting the benchmark does not count (its cache pollution
 * still does). Figures, not a test: the exit status is 0 whatever they are.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <pixman.h>

#include "homography.h"
#include "mmx_transform.h"

#define OUT_W	1920
#define OUT_H	1080
#define SCR_W	3840
#define SCR_H	2160
#define RUNS	15

#ifndef MMX_CFLAGS
#define MMX_CFLAGS "?"
#endif

struct bench_case {
	const char *name;
	double m[9];
	int screen_w, screen_h;		/* the desktop the CRTC shows */
};

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_double);
	return v[n / 2];
}

/* 3x3 matrix product r = a b */
static void mat_mul(double *r, const double *a, const double *b)
{
	double t[9];
	int i, j;

	for (i = 0; i < 3; i++)
		for (j = 0; j < 3; j++)
			t[3 * i + j] = a[3 * i] * b[j] + a[3 * i + 1] * b[3 + j] +
				       a[3 * i + 2] * b[6 + j];
	memcpy(r, t, sizeof(t));
}

int main(void)
{
	static struct bench_case cases[] = {
		{ "identity", { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, SCR_W, SCR_H },
		{ "translate", { 1, 0, 37, 0, 1, 23, 0, 0, 1 }, SCR_W, SCR_H },
		/* RandR's rotate left: x = 1080 - y', y = x' */
		{ "rot90", { 0, -1, OUT_H, 1, 0, 0, 0, 0, 1 }, SCR_W, SCR_H },
		{ "reflect-x", { -1, 0, OUT_W, 0, 1, 0, 0, 0, 1 }, SCR_W, SCR_H },
		{ "scale-2", { 2, 0, 0, 0, 2, 0, 0, 0, 1 }, SCR_W, SCR_H },
		{ "scale-0.75", { 0.75, 0, 0, 0, 0.75, 0, 0, 0, 1 }, SCR_W, SCR_H },
		{ "rot-10deg", { 0 }, SCR_W, SCR_H },
		{ "keystone", { 0 }, OUT_W, OUT_H },
	};
	/*
	 * A projector below and slightly left of the screen's axis: the
	 * correction shows the 1920x1080 desktop in a trapezoid narrower at
	 * the top and a little taller on the right (a corner of the output
	 * maps to the screen point listed), black around it.
	 */
	static const double keystone_q[4][2] = {
		{ -150, -24 }, { 2090, 4 }, { 12, 1080 }, { 1912, 1072 },
	};
	const double deg = 10 * M_PI / 180;
	double rot[9] = { cos(deg), -sin(deg), 0, sin(deg), cos(deg), 0, 0, 0, 1 };
	double to_centre[9] = { 1, 0, SCR_W / 2.0, 0, 1, SCR_H / 2.0, 0, 0, 1 };
	double from_centre[9] = { 1, 0, -OUT_W / 2.0, 0, 1, -OUT_H / 2.0, 0, 0, 1 };
	uint32_t *screen, *out, *pout, *copy;
	double t_memcpy[RUNS], mm, t_mmx[RUNS], t_px[RUNS], t_cp[RUNS];
	size_t i, k;
	int f, r;

	mat_mul(cases[6].m, to_centre, rot);
	mat_mul(cases[6].m, cases[6].m, from_centre);
	homography(cases[7].m, OUT_W, OUT_H, keystone_q);

	screen = malloc((size_t)SCR_W * SCR_H * 4);
	out = malloc((size_t)OUT_W * OUT_H * 4);
	pout = malloc((size_t)OUT_W * OUT_H * 4);
	copy = malloc((size_t)OUT_W * OUT_H * 4);
	for (i = 0; i < (size_t)SCR_W * SCR_H; i++) {
		uint32_t x = (uint32_t)(i % SCR_W), y = (uint32_t)(i / SCR_W);

		screen[i] = 0xff000000u | ((x * 7 + y) & 0xff) << 16 |
			    ((x ^ y) & 0xff) << 8 | ((x * y) >> 4 & 0xff);
	}
	memset(out, 0, (size_t)OUT_W * OUT_H * 4);
	memset(pout, 0, (size_t)OUT_W * OUT_H * 4);
	memset(copy, 0, (size_t)OUT_W * OUT_H * 4);

	for (r = 0; r < RUNS; r++) {
		double t0 = now_ms();

		memcpy(copy, screen, (size_t)OUT_W * OUT_H * 4);
		t_memcpy[r] = now_ms() - t0;
	}
	mm = median(t_memcpy, RUNS);
	printf("bench: transform %dx%d XRGB8888 from a %dx%d screen, one thread, thread CPU time, medians of %d interleaved runs; mmx built with '%s'; pixman %s; memcpy_ms=%.3f\n",
	       OUT_W, OUT_H, SCR_W, SCR_H, RUNS, MMX_CFLAGS,
	       pixman_version_string(), mm);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_case *c = &cases[i];
		struct mmx_transform t;
		s64 m[9];
		pixman_transform_t pt;
		pixman_image_t *src, *dst;
		struct mmx_frame scr = { screen, (u32)c->screen_w, (u32)c->screen_h,
					 SCR_W };
		struct mmx_frame o = { out, OUT_W, OUT_H, OUT_W };

		for (k = 0; k < 9; k++) {
			m[k] = (s64)llround(c->m[k] * 4294967296.0);
			pt.matrix[k / 3][k % 3] =
				(pixman_fixed_t)lround(c->m[k] * 65536.0);
		}
		if (mmx_transform_prepare(&t, m, OUT_W, OUT_H, 32768)) {
			printf("bench: %s refused\n", c->name);
			continue;
		}
		src = pixman_image_create_bits(PIXMAN_x8r8g8b8, c->screen_w,
					       c->screen_h, screen, SCR_W * 4);
		dst = pixman_image_create_bits(PIXMAN_x8r8g8b8, OUT_W, OUT_H, pout,
					       OUT_W * 4);
		pixman_image_set_transform(src, &pt);
		pixman_image_set_repeat(src, PIXMAN_REPEAT_NONE);

		for (f = 0; f < 2; f++) {
			double a, b;

			pixman_image_set_filter(src, f ? PIXMAN_FILTER_BILINEAR :
							 PIXMAN_FILTER_NEAREST,
						NULL, 0);
			/*
			 * mmx, pixman and memcpy interleaved, so that all three
			 * medians see the same machine conditions
			 */
			for (r = -2; r < RUNS; r++) {
				double t0 = now_ms(), t1, t2, t3;

				mmx_transform_compose(&t, (enum mmx_filter)f, &scr, 0,
						      0, &o, 0, OUT_H);
				t1 = now_ms();
				pixman_image_composite32(PIXMAN_OP_SRC, src, NULL, dst,
							 0, 0, 0, 0, 0, 0, OUT_W,
							 OUT_H);
				t2 = now_ms();
				memcpy(copy, screen, (size_t)OUT_W * OUT_H * 4);
				t3 = now_ms();
				if (r >= 0) {
					t_mmx[r] = t1 - t0;
					t_px[r] = t2 - t1;
					t_cp[r] = t3 - t2;
				}
			}
			a = median(t_mmx, RUNS);
			b = median(t_px, RUNS);
			mm = median(t_cp, RUNS);
			printf("bench: %s %s mmx_ms=%.3f pixman_ms=%.3f speedup=%.2f memcpy_ratio=%.2f\n",
			       c->name, f ? "bilinear" : "nearest", a, b, b / a,
			       a / mm);
			fflush(stdout);
		}
		pixman_image_unref(src);
		pixman_image_unref(dst);
	}
	free(screen);
	free(out);
	free(pout);
	free(copy);
	return 0;
}
