// SPDX-License-Identifier: GPL-2.0-only
/*
 * Benchmark of libmmx's sandboxed JPEG decoder pool (mmx_decode.c driving
 * mmx-jpegd processes) against tjDecompress2 in this process, on a 1920x1080
 * 4:2:0 JPEG of quality 85 made here from a textured pattern. Prints:
 *
 *   bench: jpeg-1080p bytes=<jpeg size>
 *   bench: jpeg-direct workers=1 fps=<frames/s> fps_per_cpu_s=<>
 *   bench: jpeg-pool workers=<n> fps=<frames/s> fps_per_worker=<fps/n>
 *          fps_per_cpu_s=<> caller_cpu_ms_per_frame=<>
 *   bench: jpeg-latency load=<idle|full> workers=<n> median_ms=<> p99_ms=<>
 *
 * Rates are wall clock over about RUN_MS with the pool kept busy (2 frames
 * per worker queued); fps_per_cpu_s divides the frames by the CPU time
 * the decoding took (this thread's for direct, the workers' utime + stime
 * from /proc for the pool), the per-core rate whatever else loads the
 * machine; caller_cpu_ms_per_frame is what the pool costs the caller
 * (mmxd's main loop): submit's copy, collect's pixel copy and the system
 * calls, this thread's CPU time over the frames; latency is submit to collected (pixels in the
 * destination), one frame at a time (idle) or with the queue full. mmx-jpegd
 * is $MMX_JPEGD, else ../bin/mmx-jpegd relative to this program. Figures,
 * not a test: the exit status is 0 whatever they are (1 on setup errors).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <turbojpeg.h>

#include "jpegd_path.h"
#include "mmx_decode.h"

#define W	1920
#define H	1080
#define RUN_MS	2000
#define LAT_N	200

static char jpegd[PATH_MAX];

static double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* Gradients, discs and noise: closer to a photo than a smooth ramp. */
static unsigned char *make_jpeg(unsigned long *len)
{
	unsigned char *px = malloc((size_t)W * H * 4), *jpeg = NULL;
	uint32_t seed = 12345;
	tjhandle tj = tjInitCompress();
	int x, y;

	if (!px || !tj)
		return NULL;
	for (y = 0; y < H; y++) {
		for (x = 0; x < W; x++) {
			unsigned char *p = px + ((size_t)y * W + x) * 4;
			int dx = x % 240 - 120, dy = y % 240 - 120;
			int disc = dx * dx + dy * dy < 90 * 90 ? 60 : 0;

			seed = seed * 1103515245 + 12345;
			p[0] = (x * 255 / W + disc + (seed >> 29)) & 0xff;
			p[1] = (y * 255 / H + (seed >> 29)) & 0xff;
			p[2] = ((x ^ y) & 0x3f) + disc * 2;
			p[3] = 0xff;
		}
	}
	*len = 0;
	if (tjCompress2(tj, px, W, 0, H, TJPF_BGRX, &jpeg, len, TJSAMP_420,
			85, 0))
		jpeg = NULL;
	tjDestroy(tj);
	free(px);
	return jpeg;
}

static double thread_cpu_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* utime + stime of the pool's workers, in seconds. */
static double workers_cpu_s(struct mmx_decode_pool *p)
{
	long tck = sysconf(_SC_CLK_TCK);
	double sum = 0;
	unsigned int i;

	for (i = 0; i < mmx_decode_workers(p); i++) {
		char path[64], buf[1024], *q;
		unsigned long ut, st;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/stat",
			 mmx_decode_worker_pid(p, i));
		f = fopen(path, "r");
		if (!f)
			continue;
		q = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (q && sscanf(q, ") %*c %*d %*d %*d %*d %*d %*u %*u %*u "
				"%*u %*u %lu %lu", &ut, &st) == 2)
			sum += (double)(ut + st) / tck;
	}
	return sum;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void bench_direct(const unsigned char *jpeg, unsigned long len,
			 unsigned char *dst)
{
	tjhandle tj = tjInitDecompress();
	double t0 = now_ms(), c0 = thread_cpu_s(), t;
	unsigned int n = 0;

	do {
		tjDecompress2(tj, jpeg, len, dst, W, 0, H, TJPF_BGRX,
			      TJFLAG_LIMITSCANS);
		n++;
		t = now_ms() - t0;
	} while (t < RUN_MS);
	tjDestroy(tj);
	printf("bench: jpeg-direct workers=1 fps=%.1f fps_per_cpu_s=%.1f\n",
	       n * 1e3 / t, n / (thread_cpu_s() - c0));
}

static struct mmx_decode_pool *pool(unsigned int workers)
{
	struct mmx_decode_config cfg = { .workers = workers, .path = jpegd };
	struct mmx_decode_pool *p;
	struct mmx_error err;

	if (mmx_decode_pool_new(&cfg, &p, &err)) {
		fprintf(stderr, "bench_jpeg: %s\n", err.message);
		exit(1);
	}
	return p;
}

static void wait_fd(struct mmx_decode_pool *p)
{
	struct pollfd pfd = { mmx_decode_fd(p), POLLIN, 0 };

	poll(&pfd, 1, 1000);
}

/*
 * Keep @depth frames in the pool for RUN_MS; print the rate, and the
 * latency of each frame with the queue that full.
 */
static void bench_pool(unsigned int workers, unsigned int depth,
		       const unsigned char *jpeg, unsigned long len,
		       unsigned char *dst)
{
	struct mmx_decode_pool *p = pool(workers);
	static double sent[4096], lat[4096];
	struct mmx_decode_result res[16];
	unsigned int n = 0, nlat = 0, in = 0, errors = 0;
	uint64_t id = 0;
	double t0 = now_ms(), c0 = workers_cpu_s(p), m0 = thread_cpu_s();
	double t, cpu, mine;

	workers = mmx_decode_workers(p);
	do {
		int k, got;

		while (in < depth) {
			sent[id % 4096] = now_ms();
			/* one destination: the pixels are not checked here */
			if (mmx_decode_submit(p, id++, jpeg, len, dst, W * 4, W,
					      H))
				break;
			in++;
		}
		wait_fd(p);
		got = mmx_decode_collect(p, res, 16);
		for (k = 0; k < got; k++) {
			double d = now_ms() - sent[res[k].id % 4096];

			errors += res[k].status != 0;
			if (nlat < 4096)
				lat[nlat++] = d;
		}
		in -= got > 0 ? got : 0;
		n += got > 0 ? got : 0;
		t = now_ms() - t0;
	} while (t < RUN_MS);
	mine = thread_cpu_s() - m0;
	cpu = workers_cpu_s(p) - c0;
	printf("bench: jpeg-pool workers=%u fps=%.1f fps_per_worker=%.1f "
	       "fps_per_cpu_s=%.1f caller_cpu_ms_per_frame=%.2f%s\n", workers,
	       n * 1e3 / t, n * 1e3 / t / workers, cpu > 0 ? n / cpu : 0.0,
	       n ? mine * 1e3 / n : 0.0, errors ? " (errors!)" : "");
	qsort(lat, nlat, sizeof(lat[0]), cmp_double);
	if (nlat)
		printf("bench: jpeg-latency load=full workers=%u depth=%u "
		       "median_ms=%.2f p99_ms=%.2f\n", workers, depth,
		       lat[nlat / 2], lat[nlat * 99 / 100]);
	mmx_decode_pool_free(p);
}

static void bench_idle_latency(unsigned int workers,
			       const unsigned char *jpeg, unsigned long len,
			       unsigned char *dst)
{
	struct mmx_decode_pool *p = pool(workers);
	static double lat[LAT_N];
	struct mmx_decode_result res;
	unsigned int i;

	for (i = 0; i < LAT_N; i++) {
		double t0 = now_ms();

		if (mmx_decode_submit(p, i, jpeg, len, dst, W * 4, W, H))
			break;
		while (mmx_decode_collect(p, &res, 1) != 1)
			wait_fd(p);
		lat[i] = now_ms() - t0;
	}
	qsort(lat, i, sizeof(lat[0]), cmp_double);
	if (i)
		printf("bench: jpeg-latency load=idle workers=%u median_ms=%.2f "
		       "p99_ms=%.2f\n", mmx_decode_workers(p), lat[i / 2],
		       lat[i * 99 / 100]);
	mmx_decode_pool_free(p);
}

int main(void)
{
	unsigned char *jpeg, *dst = malloc((size_t)W * H * 4);
	unsigned long len;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	if (jpegd_path(jpegd, sizeof(jpegd)))
		return 1;
	jpeg = make_jpeg(&len);
	if (!jpeg || !dst)
		return 1;
	if (cpus < 1)
		cpus = 1;
	if (cpus > MMX_DECODE_MAX_WORKERS)
		cpus = MMX_DECODE_MAX_WORKERS;
	printf("bench: jpeg-1080p bytes=%lu online_cpus=%ld\n", len, cpus);
	bench_direct(jpeg, len, dst);
	bench_pool(1, 2, jpeg, len, dst);
	if (cpus > 1)
		bench_pool(cpus, 2 * cpus, jpeg, len, dst);
	bench_idle_latency(cpus, jpeg, len, dst);
	tjFree(jpeg);
	free(dst);
	return 0;
}
