// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of the CRTC transform compositor against pixman: a 1920x1080
 * XRGB8888 output, medians of 15 runs. Prints a header line, then exactly
 * one line per case and filter:
 *
 *   bench: <case> <filter> mmx_ms=<median> mmx_mt_ms=<median>
 *          pixman_ms=<median> speedup=<pixman/mmx>
 *          speedup_mt=<pixman/mmx_mt> memcpy_ratio=<mmx/memcpy>
 *          maxdiff=<largest channel difference> simd=<scalar|sse2|avx2>
 *
 * (on one line). Like with like:
 * - every matrix is exactly representable in 16.16 (pixman's format), so
 *   both compositors get the same matrix; the driver's limits
 *   (%MMX_TRANSFORM_SPACE_MAX) apply; the same source image, size, filter;
 *   pixman composites with PIXMAN_OP_SRC and REPEAT_NONE (outside the
 *   source is black for both);
 * - the two outputs are compared and the largest per-channel difference
 *   printed (nearest: 0; bilinear: pixman's single rounding against mmx's
 *   three, at most 1);
 * - mmx, pixman and memcpy are timed interleaved, and mmx and pixman
 *   alternate which runs first, so that neither inherits the other's
 *   warm caches more often.
 * mmx_ms and pixman_ms are one thread's CPU time (CLOCK_THREAD_CPUTIME_ID),
 * so that other load on the machine preempting the benchmark does not
 * count; mmx_mt_ms is the wall time of one frame split into bands over
 * every online CPU, as the driver's composer splits it. Figures, not a
 * test: the exit status is 0 whatever they are.
 *
 * MMX_SIMD=scalar|sse2|avx2 in the environment picks the implementation
 * (default: the fastest this CPU runs, as the driver does);
 * MMX_BENCH_CASE=<case> runs only the case of that name (for profiling).
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <pixman.h>

#include <drm/mmx_drm.h>

#include "homography.h"
#include "libmmx.h"
#include "mmx_raster.h"
#include "mmx_simd.h"
#include "mmx_transform.h"

#define OUT_W	1920
#define OUT_H	1080
#define SCR_W	3840
#define SCR_H	2160
#define RUNS	15
#define BAND	32	/* rows per band of the multi-threaded runs */

#ifndef MMX_CFLAGS
#define MMX_CFLAGS "?"
#endif

struct bench_case {
	const char *name;
	double m[9];
	int screen_w, screen_h;		/* the desktop the CRTC shows */
};

static double cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static double wall_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
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

static double round16(double v)
{
	return round(v * 65536.0) / 65536.0;
}

/* The frame split into bands over a pool of threads, as the composer does. */
struct pool {
	pthread_t *threads;
	int n;				/* threads, the caller included */
	pthread_barrier_t start, done;
	const struct mmx_transform *t;
	enum mmx_filter filter;
	const struct mmx_frame *scr;
	struct mmx_frame *out;
	atomic_uint next;
	bool quit;
};

static void pool_bands(struct pool *p)
{
	unsigned int b, nb = (p->t->out_h + BAND - 1) / BAND;

	while ((b = atomic_fetch_add(&p->next, 1)) < nb)
		mmx_transform_compose(p->t, p->filter, p->scr, 0, 0, p->out,
				      b * BAND, (b + 1) * BAND);
}

static void *pool_worker(void *arg)
{
	struct pool *p = arg;

	for (;;) {
		pthread_barrier_wait(&p->start);
		if (p->quit)
			return NULL;
		pool_bands(p);
		pthread_barrier_wait(&p->done);
	}
}

static void pool_init(struct pool *p, int n)
{
	int i;

	memset(p, 0, sizeof(*p));
	p->n = n;
	p->threads = calloc((size_t)n, sizeof(*p->threads));
	pthread_barrier_init(&p->start, NULL, (unsigned int)n);
	pthread_barrier_init(&p->done, NULL, (unsigned int)n);
	for (i = 1; i < n; i++)
		pthread_create(&p->threads[i], NULL, pool_worker, p);
}

static void pool_compose(struct pool *p, const struct mmx_transform *t,
			 enum mmx_filter filter, const struct mmx_frame *scr,
			 struct mmx_frame *out)
{
	p->t = t;
	p->filter = filter;
	p->scr = scr;
	p->out = out;
	atomic_store(&p->next, 0);
	pthread_barrier_wait(&p->start);
	pool_bands(p);
	pthread_barrier_wait(&p->done);
}

static void pool_fini(struct pool *p)
{
	int i;

	p->quit = true;
	pthread_barrier_wait(&p->start);
	for (i = 1; i < p->n; i++)
		pthread_join(p->threads[i], NULL);
	free(p->threads);
}

static int max_channel_diff(const uint32_t *a, const uint32_t *b, size_t n)
{
	int m = 0, s, d;
	size_t i;

	for (i = 0; i < n; i++) {
		for (s = 0; s < 24; s += 8) {
			d = (int)(a[i] >> s & 0xff) - (int)(b[i] >> s & 0xff);
			d = d < 0 ? -d : d;
			m = d > m ? d : m;
		}
	}
	return m;
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
		{ "keystone", { 0 }, SCR_W, SCR_H },
	};
	/*
	 * A projector below and slightly left of the screen's axis: the
	 * correction shows the screen in a trapezoid narrower at the top and
	 * a little taller on the right (a corner of the output maps to the
	 * screen point listed). The sample points stay at non-negative
	 * screen coordinates, where pixman's projective fetcher rounds as
	 * RandR says (it truncates negative quotients towards zero).
	 */
	static const double keystone_q[4][2] = {
		{ 0, 0 }, { 2240, 28 }, { 162, 1104 }, { 2062, 1096 },
	};
	const double deg = 10 * M_PI / 180;
	double rot[9] = { round16(cos(deg)), round16(-sin(deg)), 0,
			  round16(sin(deg)), round16(cos(deg)), 0, 0, 0, 1 };
	double to_centre[9] = { 1, 0, SCR_W / 2.0, 0, 1, SCR_H / 2.0, 0, 0, 1 };
	double from_centre[9] = { 1, 0, -OUT_W / 2.0, 0, 1, -OUT_H / 2.0, 0, 0, 1 };
	uint32_t *screen, *out, *pout, *copy, *mtout;
	double t_memcpy[RUNS], mm, t_mmx[RUNS], t_px[RUNS], t_cp[RUNS];
	double t_mt[RUNS];
	const char *env = getenv("MMX_SIMD");
	const char *only = getenv("MMX_BENCH_CASE");
	struct pool pool;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	size_t i, k;
	int f, r;

	mmx_simd_init();
	if (env && *env) {
		const struct mmx_simd_ops *ops = mmx_simd_find(env);

		if (!ops) {
			fprintf(stderr, "MMX_SIMD=%s: not available here\n", env);
			return 1;
		}
		mmx_simd = ops;
	}
	ncpu = ncpu < 1 ? 1 : ncpu;
	pool_init(&pool, (int)ncpu);

	mmx_matrix_multiply(cases[6].m, to_centre, rot);
	mmx_matrix_multiply(cases[6].m, cases[6].m, from_centre);
	homography(cases[7].m, OUT_W, OUT_H, keystone_q);
	/* both compositors get the same matrix: exact in 16.16 */
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		for (k = 0; k < 9; k++)
			cases[i].m[k] = round16(cases[i].m[k]);

	screen = malloc((size_t)SCR_W * SCR_H * 4);
	out = malloc((size_t)OUT_W * OUT_H * 4);
	mtout = malloc((size_t)OUT_W * OUT_H * 4);
	pout = malloc((size_t)OUT_W * OUT_H * 4);
	copy = malloc((size_t)OUT_W * OUT_H * 4);
	for (i = 0; i < (size_t)SCR_W * SCR_H; i++) {
		uint32_t x = (uint32_t)(i % SCR_W), y = (uint32_t)(i / SCR_W);

		screen[i] = 0xff000000u | ((x * 7 + y) & 0xff) << 16 |
			    ((x ^ y) & 0xff) << 8 | ((x * y) >> 4 & 0xff);
	}
	memset(out, 0, (size_t)OUT_W * OUT_H * 4);
	memset(mtout, 0, (size_t)OUT_W * OUT_H * 4);
	memset(pout, 0, (size_t)OUT_W * OUT_H * 4);
	memset(copy, 0, (size_t)OUT_W * OUT_H * 4);

	for (r = 0; r < RUNS; r++) {
		double t0 = cpu_ms();

		memcpy(copy, screen, (size_t)OUT_W * OUT_H * 4);
		t_memcpy[r] = cpu_ms() - t0;
	}
	mm = median(t_memcpy, RUNS);
	printf("bench: transform %dx%d XRGB8888 from a %dx%d screen, matrices exact in 16.16, medians of %d interleaved runs (mmx and pixman alternating first); mmx_ms, pixman_ms: one thread's CPU time; mmx_mt_ms: wall time over %ld CPUs in %d-row bands; mmx built with '%s'; simd=%s; pixman %s; memcpy_ms=%.3f\n",
	       OUT_W, OUT_H, SCR_W, SCR_H, RUNS, ncpu, BAND, MMX_CFLAGS,
	       mmx_simd->name, pixman_version_string(), mm);

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct bench_case *c = &cases[i];
		struct mmx_transform t;
		s64 m[9];
		pixman_transform_t pt;
		pixman_image_t *src, *dst;
		struct mmx_frame scr = { screen, (u32)c->screen_w, (u32)c->screen_h,
					 SCR_W };
		struct mmx_frame o = { out, OUT_W, OUT_H, OUT_W };
		struct mmx_frame mo = { mtout, OUT_W, OUT_H, OUT_W };

		if (only && *only && strcmp(only, c->name))
			continue;
		for (k = 0; k < 9; k++) {
			/* exact: c->m[k] is a multiple of 2^-16 */
			m[k] = (s64)llround(c->m[k] * 65536.0) * 65536;
			pt.matrix[k / 3][k % 3] =
				(pixman_fixed_t)llround(c->m[k] * 65536.0);
		}
		if (mmx_transform_prepare(&t, m, OUT_W, OUT_H,
					  MMX_TRANSFORM_SPACE_MAX)) {
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
			double a, b, mt;
			int md;

			pixman_image_set_filter(src, f ? PIXMAN_FILTER_BILINEAR :
							 PIXMAN_FILTER_NEAREST,
						NULL, 0);
			/*
			 * mmx, pixman and memcpy interleaved, mmx and pixman
			 * alternating first, so that all medians see the same
			 * machine conditions
			 */
			for (r = -2; r < RUNS; r++) {
				double tm = 0, tp = 0, tc, tw, t0;
				int pass;

				for (pass = 0; pass < 2; pass++) {
					if ((pass == 0) == ((r & 1) == 0)) {
						t0 = cpu_ms();
						mmx_transform_compose(&t, (enum mmx_filter)f,
								      &scr, 0, 0, &o, 0,
								      OUT_H);
						tm = cpu_ms() - t0;
					} else {
						t0 = cpu_ms();
						pixman_image_composite32(PIXMAN_OP_SRC, src,
									 NULL, dst, 0, 0,
									 0, 0, 0, 0, OUT_W,
									 OUT_H);
						tp = cpu_ms() - t0;
					}
				}
				t0 = cpu_ms();
				memcpy(copy, screen, (size_t)OUT_W * OUT_H * 4);
				tc = cpu_ms() - t0;
				t0 = wall_ms();
				pool_compose(&pool, &t, (enum mmx_filter)f, &scr, &mo);
				tw = wall_ms() - t0;
				if (r >= 0) {
					t_mmx[r] = tm;
					t_px[r] = tp;
					t_cp[r] = tc;
					t_mt[r] = tw;
				}
			}
			a = median(t_mmx, RUNS);
			b = median(t_px, RUNS);
			mm = median(t_cp, RUNS);
			mt = median(t_mt, RUNS);
			md = max_channel_diff(out, pout, (size_t)OUT_W * OUT_H);
			if (memcmp(out, mtout, (size_t)OUT_W * OUT_H * 4))
				md = 256;	/* the bands differ: a bug */
			printf("bench: %s %s mmx_ms=%.3f mmx_mt_ms=%.3f pixman_ms=%.3f speedup=%.2f speedup_mt=%.2f memcpy_ratio=%.2f maxdiff=%d simd=%s\n",
			       c->name, f ? "bilinear" : "nearest", a, mt, b,
			       b / a, b / mt, a / mm, md, mmx_simd->name);
			fflush(stdout);
		}
		pixman_image_unref(src);
		pixman_image_unref(dst);
	}
	pool_fini(&pool);
	free(screen);
	free(out);
	free(mtout);
	free(pout);
	free(copy);
	return 0;
}
