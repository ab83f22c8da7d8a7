// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's sandboxed JPEG decoder pool (userspace/private/mmx_decode.c) driving
 * real mmx-jpegd processes.
 *
 * The corpus comes from the test helper mmx-jpeg-corpus (mmx_jpeg_corpus.c,
 * next to this program in the build: libturbojpeg encodes
 * smooth known patterns and decodes them in-process with the workers'
 * flags): a frame decoded through the pool must equal that in-process
 * decode byte for byte and be within a mean error of 3 levels of the
 * pattern. mmx-jpegd is $MMX_JPEGD, else ../bin/mmx-jpegd relative to this
 * program (the build's layout). The sandbox's escapes are tried by the test
 * helper mmx-jpegd-escape (mmx_jpegd_escape.c, next to this program), which
 * enters mmx-jpegd's own sandbox (its sandbox.c, linked in).
 */

#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "jpegd_path.h"
#include "unit.h"
#include "mmx_decode.h"

extern char **environ;

struct item {
	char name[64];
	uint32_t w, h;
	unsigned char *jpg, *src, *ref;
	size_t len;
};

#define MAX_ITEMS 16
static struct item items[MAX_ITEMS];
static unsigned int nitems;
static char jpegd[PATH_MAX], corpus[PATH_MAX], escape[PATH_MAX];

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static uint64_t rng_state = 0x6d6d782d6a706567ull;	/* fixed seed */

static uint64_t rng(void)
{
	return unit_xorshift64(&rng_state);
}

static const struct item *item(const char *name)
{
	unsigned int i;

	for (i = 0; i < nitems; i++)
		if (!strcmp(items[i].name, name))
			return &items[i];
	fprintf(stderr, "no corpus item %s\n", name);
	exit(1);
}

static int run(char *const argv[], int *status)
{
	pid_t pid;
	int ret = posix_spawn(&pid, argv[0], NULL, NULL, argv, environ);

	if (ret)
		return -ret;
	while (waitpid(pid, status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

static unsigned char *load(const char *dir, const char *name,
			   const char *ext, size_t *len)
{
	char path[PATH_MAX];
	unsigned char *buf;
	struct stat st;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	f = fopen(path, "rb");
	if (!f || fstat(fileno(f), &st))
		return NULL;
	buf = malloc(st.st_size ? st.st_size : 1);
	if (buf && fread(buf, 1, st.st_size, f) != (size_t)st.st_size) {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	unlink(path);
	*len = st.st_size;
	return buf;
}

static int make_corpus(void)
{
	char dir[] = "/tmp/mmx-decode-XXXXXX", path[PATH_MAX];
	char *argv[] = { corpus, dir, NULL };
	int status;
	FILE *f;

	if (!mkdtemp(dir))
		return -1;
	if (run(argv, &status) || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "%s failed\n", corpus);
		return -1;
	}
	snprintf(path, sizeof(path), "%s/index", dir);
	f = fopen(path, "r");
	if (!f)
		return -1;
	while (nitems < MAX_ITEMS) {
		struct item *it = &items[nitems];
		size_t n;

		if (fscanf(f, "%63s %u %u", it->name, &it->w, &it->h) != 3)
			break;
		it->jpg = load(dir, it->name, ".jpg", &it->len);
		it->src = load(dir, it->name, ".src", &n);
		it->ref = load(dir, it->name, ".ref", &n);
		if (!it->jpg || !it->src || !it->ref ||
		    n != (size_t)it->w * it->h * 4)
			return -1;
		nitems++;
	}
	fclose(f);
	unlink(path);
	rmdir(dir);
	return nitems ? 0 : -1;
}

static void free_corpus(void)
{
	unsigned int i;

	for (i = 0; i < nitems; i++) {
		free(items[i].jpg);
		free(items[i].src);
		free(items[i].ref);
	}
}

/* Entries of directory @path that @want() takes, or -1. */
static int count_entries(const char *path, bool (*want)(const char *name))
{
	DIR *d = opendir(path);
	struct dirent *e;
	int n = 0;

	if (!d)
		return -1;
	while ((e = readdir(d)))
		n += want(e->d_name);
	closedir(d);
	return n;
}

static bool is_fd(const char *name)
{
	return name[0] != '.';
}

/* Whether /proc entry @name is a process whose parent is this one. */
static bool is_child(const char *name)
{
	char path[300], buf[512], *p;
	int ppid;
	FILE *f;

	if (name[0] < '0' || name[0] > '9')
		return false;
	snprintf(path, sizeof(path), "/proc/%s/stat", name);
	f = fopen(path, "r");
	if (!f)
		return false;
	p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
	fclose(f);
	return p && sscanf(p, ") %*c %d", &ppid) == 1 && ppid == getpid();
}

static int count_fds(void)
{
	int n = count_entries("/proc/self/fd", is_fd);

	return n < 0 ? n : n - 1;	/* the directory's own fd */
}

/* Live children of this process (zombies included), from /proc. */
static int count_children(void)
{
	return count_entries("/proc", is_child);
}

/* UNIT_CHECK that there are @fds fds and @children children, as before. */
#define CHECK_NO_LEAK(fds, children) \
	UNIT_CHECK(count_fds() == (fds) && count_children() == (children), \
		   "fds %d -> %d, children %d -> %d", (fds), count_fds(), \
		   (children), count_children())

static struct mmx_decode_pool *pool_new(unsigned int workers,
					unsigned int timeout_ms,
					unsigned int queue, const char *user)
{
	struct mmx_decode_config cfg = {
		.workers = workers, .path = jpegd, .timeout_ms = timeout_ms,
		.queue = queue, .user = user,
	};
	struct mmx_decode_pool *p;
	struct mmx_error err;
	int ret;

	ret = mmx_decode_pool_new(&cfg, &p, &err);
	if (ret) {
		fprintf(stderr, "mmx_decode_pool_new: %d %s\n", ret,
			err.message);
		return NULL;
	}
	return p;
}

/* Stop (SIGSTOP) @p's first worker: its pid, or -1. */
static pid_t stop_worker(struct mmx_decode_pool *p)
{
	pid_t pid = mmx_decode_worker_pid(p, 0);

	return pid > 0 && !kill(pid, SIGSTOP) ? pid : -1;
}

/* Collect @want results, waiting on the pool's fd up to @timeout_ms. */
static int drain(struct mmx_decode_pool *p, struct mmx_decode_result *res,
		 unsigned int want, unsigned int timeout_ms)
{
	uint64_t deadline = now_ms() + timeout_ms;
	unsigned int got = 0;

	while (got < want) {
		struct pollfd pfd = { mmx_decode_fd(p), POLLIN, 0 };
		uint64_t now;
		int n;

		n = mmx_decode_collect(p, res + got, want - got);
		if (n < 0)
			return n;
		got += n;
		now = now_ms();
		if (got == want || now >= deadline)
			break;
		poll(&pfd, 1, deadline - now);
	}
	return got;
}

/* Frame @it at the top left of @dst (pitch @pitch) equals its reference. */
static int same_as_ref(const struct item *it, const unsigned char *dst,
		       uint32_t pitch)
{
	uint32_t y;

	for (y = 0; y < it->h; y++)
		if (memcmp(dst + (size_t)y * pitch,
			   it->ref + (size_t)y * it->w * 4, it->w * 4))
			return 0;
	return 1;
}

static double mean_error(const struct item *it, const unsigned char *dst,
			 uint32_t pitch)
{
	uint64_t sum = 0;
	uint32_t x, y, c;

	for (y = 0; y < it->h; y++)
		for (x = 0; x < it->w; x++)
			for (c = 0; c < 3; c++)
				sum += abs(dst[(size_t)y * pitch + x * 4 + c] -
					   it->src[((size_t)y * it->w + x) * 4 +
						   c]);
	return (double)sum / ((double)it->w * it->h * 3);
}

/* Decode one frame synchronously; returns its result status. */
static int decode_one(struct mmx_decode_pool *p, uint64_t id,
		      const void *jpg, size_t len, void *dst, uint32_t pitch,
		      uint32_t w, uint32_t h, struct mmx_decode_result *res)
{
	int ret = mmx_decode_submit(p, id, jpg, len, dst, pitch, w, h);

	if (ret)
		return ret;
	if (drain(p, res, 1, 10000) != 1)
		return -ETIME;
	if (res->id != id)
		return -ESRCH;
	return res->status;
}

static int test_corpus(void)
{
	struct mmx_decode_pool *p = pool_new(0, 0, 0, NULL);
	struct mmx_decode_result res;
	struct pollfd pfd;
	unsigned int i;

	UNIT_CHECK(p, "pool");
	for (i = 0; i < nitems; i++) {
		const struct item *it = &items[i];
		uint32_t pitch = it->w * 4 + 64, y;
		size_t size = (size_t)pitch * (it->h + 16);
		unsigned char *dst = malloc(size);
		double mae;
		int st;

		UNIT_CHECK(dst, "malloc");
		memset(dst, 0xab, size);
		/* a destination larger than the frame, padded rows */
		st = decode_one(p, i, it->jpg, it->len, dst, pitch, it->w + 16,
				it->h + 16, &res);
		UNIT_CHECK(st == 0, "%s: status %d", it->name, st);
		UNIT_CHECK(res.width == it->w && res.height == it->h &&
			   !res.flags && !res.signal,
			   "%s: %ux%u flags %u", it->name, res.width,
			   res.height, res.flags);
		UNIT_CHECK(same_as_ref(it, dst, pitch),
			   "%s: pixels differ from the in-process decode",
			   it->name);
		mae = mean_error(it, dst, pitch);
		UNIT_CHECK(mae < 3.0, "%s: mean error %.2f", it->name, mae);
		/* nothing written outside the frame */
		for (y = 0; y < it->h + 16; y++) {
			const unsigned char *row = dst + (size_t)y * pitch;
			uint32_t from = y < it->h ? it->w * 4 : 0, x;

			for (x = from; x < pitch; x++)
				UNIT_CHECK(row[x] == 0xab,
					   "%s: byte %u of row %u written",
					   it->name, x, y);
		}
		/* the exact size, compact pitch */
		memset(dst, 0, size);
		st = decode_one(p, 100 + i, it->jpg, it->len, dst, it->w * 4,
				it->w, it->h, &res);
		UNIT_CHECK(st == 0 && same_as_ref(it, dst, it->w * 4),
			   "%s: exact-size decode %d", it->name, st);
		free(dst);
	}
	/* everything collected: the fd is quiet */
	pfd = (struct pollfd){ mmx_decode_fd(p), POLLIN, 0 };
	UNIT_CHECK(poll(&pfd, 1, 50) == 0, "fd readable with nothing to do");
	mmx_decode_pool_free(p);
	return 0;
}

/* Patch every SOF's dimensions to @dim x @dim. */
static int patch_sof(unsigned char *j, size_t len, unsigned int dim)
{
	size_t i;
	int n = 0;

	for (i = 2; i + 9 < len; i++) {
		if (j[i] == 0xff && (j[i + 1] == 0xc0 || j[i + 1] == 0xc2)) {
			j[i + 5] = j[i + 7] = dim >> 8;
			j[i + 6] = j[i + 8] = dim & 0xff;
			n++;
		}
	}
	return n;
}

static int test_limits(void)
{
	const struct item *it = item("s420-320x240");
	struct mmx_decode_pool *p = pool_new(1, 0, 4, NULL);
	struct mmx_decode_config cfg = { .workers = 1, .path = jpegd,
					 .max_width = 256, .max_height = 256 };
	struct mmx_decode_result res;
	unsigned char *dst = malloc(1024 * 1024 * 4), *big;
	struct mmx_error err;
	int st, i;

	UNIT_CHECK(p && dst, "pool");
	/* one column short of the frame: refused from the header */
	memset(dst, 0x5a, 4);
	st = decode_one(p, 1, it->jpg, it->len, dst, 319 * 4, 319, 240,
			&res);
	UNIT_CHECK(st == -E2BIG && res.width == 320 && res.height == 240,
		   "319 wide: %d %ux%u", st, res.width, res.height);
	UNIT_CHECK(dst[0] == 0x5a, "destination written on -E2BIG");
	/* a declared 65500x65500 (libjpeg's largest) */
	big = malloc(it->len);
	UNIT_CHECK(big, "malloc");
	memcpy(big, it->jpg, it->len);
	UNIT_CHECK(patch_sof(big, it->len, 65500) == 1, "no SOF");
	st = decode_one(p, 2, big, it->len, dst, 1024 * 4, 1024, 1024, &res);
	UNIT_CHECK(st == -E2BIG && res.width == 65500 && res.height == 65500,
		   "65500x65500: %d %ux%u", st, res.width, res.height);
	/* 65535x65535: over libjpeg's own limit, a bad JPEG */
	UNIT_CHECK(patch_sof(big, it->len, 65535) == 1, "no SOF");
	st = decode_one(p, 3, big, it->len, dst, 1024 * 4, 1024, 1024, &res);
	UNIT_CHECK(st == -EBADMSG, "65535x65535: %d", st);
	free(big);
	/* and the next frame is fine */
	st = decode_one(p, 4, it->jpg, it->len, dst, 1024 * 4, 1024, 1024,
			&res);
	UNIT_CHECK(st == 0 && same_as_ref(it, dst, 1024 * 4),
		   "after the huge ones: %d", st);
	/* submit's own refusals */
	UNIT_CHECK(mmx_decode_submit(p, 3, it->jpg, 0, dst, 4096, 1024,
				     1024) == -EINVAL, "zero length");
	UNIT_CHECK(mmx_decode_submit(p, 3, it->jpg, it->len, NULL, 4096,
				     1024, 1024) == -EINVAL, "no destination");
	UNIT_CHECK(mmx_decode_submit(p, 3, it->jpg, it->len, dst, 4092,
				     1024, 1024) == -EINVAL, "short pitch");
	UNIT_CHECK(mmx_decode_submit(p, 3, it->jpg, it->len, dst, 4096, 0,
				     1024) == -EINVAL, "zero width");
	big = calloc(1, MMX_DECODE_DEFAULT_MAX_INPUT + 1);
	UNIT_CHECK(big, "calloc");
	UNIT_CHECK(mmx_decode_submit(p, 3, big, MMX_DECODE_DEFAULT_MAX_INPUT +
				     1, dst, 4096, 1024, 1024) == -E2BIG,
		   "16 MiB + 1");
	free(big);
	/* a queue of 4: the fifth waits for a collect */
	for (i = 0; i < 4; i++)
		UNIT_CHECK(mmx_decode_submit(p, 10 + i, it->jpg, it->len, dst,
					     4096, 1024, 1024) == 0,
			   "submit %d", i);
	UNIT_CHECK(mmx_decode_submit(p, 14, it->jpg, it->len, dst, 4096, 1024,
				     1024) == -EAGAIN, "queue full");
	{
		struct mmx_decode_result r4[4];

		UNIT_CHECK(drain(p, r4, 4, 10000) == 4, "drain");
	}
	mmx_decode_pool_free(p);

	/* the pool's own limit */
	UNIT_CHECK(mmx_decode_pool_new(&cfg, &p, &err) == 0, "%s",
		   err.message);
	st = decode_one(p, 1, it->jpg, it->len, dst, 1024 * 4, 1024, 1024,
			&res);
	UNIT_CHECK(st == -E2BIG, "over max_width: %d", st);
	it = item("prog-256x256");
	st = decode_one(p, 2, it->jpg, it->len, dst, 1024 * 4, 1024, 1024,
			&res);
	UNIT_CHECK(st == 0 && same_as_ref(it, dst, 1024 * 4),
		   "256x256 at max 256: %d", st);
	mmx_decode_pool_free(p);
	free(dst);
	return 0;
}

/*
 * Bad frame / good frame pairs: each bad one gets an error or a frame of
 * its own, each good one right after it decodes exactly; no worker dies
 * (a seccomp kill in libjpeg's error paths would show as a crash).
 */
struct fuzz {
	struct mmx_decode_pool *p;
	const struct item *good;
	unsigned char *dst_bad, *dst_good;
	unsigned int bad, decoded, errors, warnings;
};

static int fuzz_pair(struct fuzz *f, const unsigned char *jpg, size_t len)
{
	const struct item *g = f->good;
	struct mmx_decode_result res[2];
	int n, k;

	memset(f->dst_good, 0, (size_t)g->w * g->h * 4);
	UNIT_CHECK(mmx_decode_submit(f->p, 1, jpg, len, f->dst_bad,
				     1024 * 4, 1024, 1024) == 0, "submit bad");
	UNIT_CHECK(mmx_decode_submit(f->p, 2, g->jpg, g->len, f->dst_good,
				     g->w * 4, g->w, g->h) == 0,
		   "submit good");
	n = drain(f->p, res, 2, 10000);
	UNIT_CHECK(n == 2, "collected %d of 2", n);
	for (k = 0; k < 2; k++) {
		if (res[k].id == 2) {
			UNIT_CHECK(res[k].status == 0 &&
				   same_as_ref(g, f->dst_good, g->w * 4),
				   "good frame after bad #%u: %d", f->bad,
				   res[k].status);
			continue;
		}
		UNIT_CHECK(res[k].id == 1, "id %llu",
			   (unsigned long long)res[k].id);
		UNIT_CHECK(res[k].status == 0 || res[k].status == -EBADMSG ||
			   res[k].status == -E2BIG,
			   "bad #%u: status %d signal %d", f->bad,
			   res[k].status, res[k].signal);
		if (res[k].status == 0) {
			f->decoded++;
			f->warnings += !!(res[k].flags & MMX_DECODE_WARNING);
		} else {
			f->errors++;
		}
	}
	f->bad++;
	return 0;
}

static int fuzz_init(struct fuzz *f, const char *good)
{
	memset(f, 0, sizeof(*f));
	f->good = item(good);
	f->p = pool_new(0, 0, 0, NULL);
	f->dst_bad = malloc(1024 * 1024 * 4);
	f->dst_good = malloc((size_t)f->good->w * f->good->h * 4);
	return f->p && f->dst_bad && f->dst_good ? 0 : -1;
}

static int fuzz_end(struct fuzz *f, const char *what)
{
	struct mmx_decode_stats st;

	mmx_decode_get_stats(f->p, &st);
	printf("%s: %u bad frames: %u decoded (%u with warnings), %u "
	       "refused; %llu worker crashes\n", what, f->bad, f->decoded,
	       f->warnings, f->errors, (unsigned long long)st.crashes);
	mmx_decode_pool_free(f->p);
	free(f->dst_bad);
	free(f->dst_good);
	UNIT_CHECK(st.crashes == 0 && st.restarts == 0,
		   "%llu crashes", (unsigned long long)st.crashes);
	return 0;
}

static int test_fuzz_truncated(void)
{
	const struct item *it = item("s444-64x48"), *pr;
	struct fuzz f;
	size_t len;

	UNIT_CHECK(fuzz_init(&f, "gray-160x120") == 0, "init");
	for (len = 1; len < it->len; len++)
		if (fuzz_pair(&f, it->jpg, len))
			return -1;
	/* a progressive one, every 7 bytes */
	pr = item("prog-256x256");
	for (len = 1; len < pr->len; len += 7)
		if (fuzz_pair(&f, pr->jpg, len))
			return -1;
	UNIT_CHECK(f.errors > 0 && f.warnings > 0,
		   "truncation never refused (%u) or never warned (%u)",
		   f.errors, f.warnings);
	return fuzz_end(&f, "truncated");
}

static int test_fuzz_bitflip(void)
{
	const struct item *it = item("s420-320x240"), *pr;
	unsigned char *buf = malloc(4096 * 16);
	struct fuzz f;
	int i, k;

	UNIT_CHECK(buf && fuzz_init(&f, "s444-64x48") == 0, "init");
	pr = item("prog-256x256");
	for (i = 0; i < 2000; i++) {
		const struct item *src = i % 4 == 3 ? pr : it;
		int flips = 1 + rng() % 4;

		memcpy(buf, src->jpg, src->len);
		for (k = 0; k < flips; k++) {
			/* half of them in the headers, where it hurts most */
			size_t at = (i & 1) ? rng() % 700 : rng() % src->len;

			if (at >= src->len)
				at %= src->len;
			buf[at] ^= 1u << (rng() % 8);
		}
		if (fuzz_pair(&f, buf, src->len))
			return -1;
	}
	free(buf);
	UNIT_CHECK(f.errors > 0 && f.decoded > 0,
		   "bit flips: %u errors %u decoded", f.errors, f.decoded);
	return fuzz_end(&f, "bit-flipped");
}

static int test_fuzz_garbage(void)
{
	const struct item *it = item("s420-320x240");
	unsigned char *buf = malloc(65536);
	struct fuzz f;
	size_t len, k;
	int i;

	UNIT_CHECK(buf && fuzz_init(&f, "s444-64x48") == 0, "init");
	for (i = 0; i < 300; i++) {
		len = 1 + rng() % 65536;
		for (k = 0; k < len; k++)
			buf[k] = rng();
		if (i % 3 == 1 && len > 2) {
			buf[0] = 0xff;	/* a JPEG's start, then noise */
			buf[1] = 0xd8;
		} else if (i % 3 == 2 && len > 700) {
			memcpy(buf, it->jpg, 600);	/* real headers */
		}
		if (fuzz_pair(&f, buf, len))
			return -1;
	}
	free(buf);
	UNIT_CHECK(f.errors > 0, "garbage never refused");
	return fuzz_end(&f, "garbage");
}

/* Submitting returns at once: the frames are queued, not decoded inline. */
static int test_nonblocking(void)
{
	enum { N = 100 };
	const struct item *it = item("s420-320x240");
	struct mmx_decode_pool *p = pool_new(0, 0, 0, NULL);
	struct mmx_decode_result res[N];
	struct mmx_decode_stats st;
	size_t size = (size_t)it->w * it->h * 4;
	unsigned char *dst = malloc(size * N);
	unsigned char seen[N] = { 0 };
	uint64_t t0, t_submit, t_all;
	unsigned int workers, i;
	int n;

	UNIT_CHECK(p && dst, "pool");
	workers = mmx_decode_workers(p);
	t0 = now_ms();
	for (i = 0; i < N; i++)
		UNIT_CHECK(mmx_decode_submit(p, i, it->jpg, it->len,
					     dst + size * i, it->w * 4, it->w,
					     it->h) == 0, "submit %u", i);
	t_submit = now_ms() - t0;
	mmx_decode_get_stats(p, &st);
	/* each worker has one, the rest wait; nothing is done before a collect */
	UNIT_CHECK(st.in_flight == workers && st.queued == N - workers &&
		   st.done == 0, "after submit: %u in flight, %u queued, %u "
		   "done", st.in_flight, st.queued, st.done);
	n = drain(p, res, N, 30000);
	t_all = now_ms() - t0;
	UNIT_CHECK(n == N, "collected %d of %d", n, N);
	for (i = 0; i < N; i++) {
		UNIT_CHECK(res[i].id < N && !seen[res[i].id] &&
			   res[i].status == 0, "result %u: id %llu status %d",
			   i, (unsigned long long)res[i].id, res[i].status);
		seen[res[i].id] = 1;
		UNIT_CHECK(same_as_ref(it, dst + size * res[i].id, it->w * 4),
			   "frame %llu pixels", (unsigned long long)res[i].id);
	}
	printf("non-blocking: %d submits in %llu ms, all %d decoded after "
	       "%llu ms by %u workers\n", N, (unsigned long long)t_submit, N,
	       (unsigned long long)t_all, workers);
	UNIT_CHECK(t_submit < 100 && t_submit * 4 <= t_all,
		   "submitting took %llu ms of %llu",
		   (unsigned long long)t_submit, (unsigned long long)t_all);
	mmx_decode_pool_free(p);
	free(dst);
	return 0;
}

static int test_cancel(void)
{
	const struct item *it = item("s420-1920x1080");
	struct mmx_decode_pool *p = pool_new(1, 0, 0, NULL);
	size_t size = (size_t)it->w * it->h * 4;
	unsigned char *dst = malloc(size * 3);
	struct mmx_decode_result res[3];
	int n;

	UNIT_CHECK(p && dst, "pool");
	memset(dst, 0x11, size * 3);
	/* 1 in flight (one worker), 2 and 3 queued */
	UNIT_CHECK(!mmx_decode_submit(p, 1, it->jpg, it->len, dst, it->w * 4,
				      it->w, it->h) &&
		   !mmx_decode_submit(p, 2, it->jpg, it->len, dst + size,
				      it->w * 4, it->w, it->h) &&
		   !mmx_decode_submit(p, 3, it->jpg, it->len, dst + 2 * size,
				      it->w * 4, it->w, it->h), "submit");
	UNIT_CHECK(mmx_decode_cancel(p, 1) == 0, "cancel in flight");
	UNIT_CHECK(mmx_decode_cancel(p, 2) == 0, "cancel queued");
	UNIT_CHECK(mmx_decode_cancel(p, 2) == -ENOENT, "cancel twice");
	UNIT_CHECK(mmx_decode_cancel(p, 99) == -ENOENT, "cancel unknown");
	n = drain(p, res, 3, 3000);
	UNIT_CHECK(n == 1 && res[0].id == 3 && res[0].status == 0,
		   "%d results, first %llu", n,
		   (unsigned long long)res[0].id);
	UNIT_CHECK(same_as_ref(it, dst + 2 * size, it->w * 4), "frame 3");
	UNIT_CHECK(dst[0] == 0x11 && dst[size - 1] == 0x11 &&
		   dst[size] == 0x11 && dst[2 * size - 1] == 0x11,
		   "cancelled destination written");
	mmx_decode_pool_free(p);
	free(dst);
	return 0;
}

/*
 * Stop the only worker of pool P and submit IT to it as frame ID, into DST;
 * returns the worker's pid (-1 after a failed check).
 */
static pid_t submit_to_stopped(struct mmx_decode_pool *p, const struct item *it,
			       unsigned char *dst, uint64_t id)
{
	pid_t pid;

	UNIT_CHECK(p && dst, "pool");
	pid = stop_worker(p);
	UNIT_CHECK(pid > 0, "stop %d", mmx_decode_worker_pid(p, 0));
	UNIT_CHECK(!mmx_decode_submit(p, id, it->jpg, it->len, dst, it->w * 4,
				      it->w, it->h), "submit");
	return pid;
}

/* Frame ID fails with STATUS, its worker killed by signal SIG. */
static int expect_killed(struct mmx_decode_pool *p, uint64_t id, int status,
			 int sig)
{
	struct mmx_decode_result res;
	int n = drain(p, &res, 1, 5000);

	UNIT_CHECK(n == 1 && res.id == id && res.status == status &&
		   res.signal == sig, "%d: status %d signal %d", n,
		   res.status, res.signal);
	return 0;
}

/* After WHAT the pool decodes IT (as frame ID) into DST again. */
static int decodes_again(struct mmx_decode_pool *p, const struct item *it,
			 unsigned char *dst, uint64_t id, const char *what)
{
	struct mmx_decode_result res;
	int n = decode_one(p, id, it->jpg, it->len, dst, it->w * 4, it->w,
			   it->h, &res);

	UNIT_CHECK(n == 0 && same_as_ref(it, dst, it->w * 4), "after the %s: %d",
		   what, n);
	return 0;
}

/* A worker killed mid-frame fails that frame only and is replaced. */
static int test_crash(void)
{
	const struct item *it = item("s420-1920x1080");
	int fds = count_fds(), children = count_children();
	struct mmx_decode_pool *p = pool_new(1, 0, 0, NULL);
	unsigned char *dst = malloc((size_t)it->w * it->h * 4);
	struct mmx_decode_stats st;
	pid_t pid, pid2;

	pid = submit_to_stopped(p, it, dst, 7);
	if (pid < 0)
		return -1;
	mmx_decode_get_stats(p, &st);
	UNIT_CHECK(st.in_flight == 1, "not in flight");
	kill(pid, SIGSEGV);
	kill(pid, SIGCONT);
	if (expect_killed(p, 7, -ECONNRESET, SIGSEGV))
		return -1;
	mmx_decode_get_stats(p, &st);
	pid2 = mmx_decode_worker_pid(p, 0);
	UNIT_CHECK(st.crashes == 1 && st.restarts == 1 && pid2 > 0 &&
		   pid2 != pid, "crashes %llu restarts %llu pid %d",
		   (unsigned long long)st.crashes,
		   (unsigned long long)st.restarts, pid2);
	if (decodes_again(p, it, dst, 8, "crash"))
		return -1;
	mmx_decode_pool_free(p);
	free(dst);
	CHECK_NO_LEAK(fds, children);
	return 0;
}

/* A stuck decode is killed after timeout_ms, its frame fails. */
static int test_timeout(void)
{
	const struct item *it = item("s420-320x240");
	struct mmx_decode_pool *p = pool_new(1, 300, 0, NULL);
	unsigned char *dst = malloc((size_t)it->w * it->h * 4);
	struct mmx_decode_stats st;
	uint64_t t0 = now_ms(), dt;

	if (submit_to_stopped(p, it, dst, 5) < 0 ||
	    expect_killed(p, 5, -ETIMEDOUT, SIGKILL))
		return -1;
	dt = now_ms() - t0;
	UNIT_CHECK(dt >= 300 && dt < 3000, "timed out after %llu ms",
		   (unsigned long long)dt);
	mmx_decode_get_stats(p, &st);
	UNIT_CHECK(st.timeouts == 1 && st.crashes == 1 && st.restarts == 1,
		   "timeouts %llu", (unsigned long long)st.timeouts);
	if (decodes_again(p, it, dst, 6, "timeout"))
		return -1;
	mmx_decode_pool_free(p);
	free(dst);
	return 0;
}

/* The filter kills every way out with SIGSYS, and lets a decode through. */
static int test_escape(void)
{
	static const char *const ways[] = {
		"open", "socket", "ioctl", "execve", "fork", "mmap-exec",
		"mmap-fd", "read-fd",
	};
	char *argv[] = { escape, "none", NULL };
	unsigned int i;
	int status;

	UNIT_CHECK(run(argv, &status) == 0 && WIFEXITED(status) &&
		   WEXITSTATUS(status) == 0,
		   "a sandboxed decode failed: status 0x%x", status);
	for (i = 0; i < sizeof(ways) / sizeof(ways[0]); i++) {
		argv[1] = (char *)ways[i];
		UNIT_CHECK(run(argv, &status) == 0 && WIFSIGNALED(status) &&
			   WTERMSIG(status) == SIGSYS,
			   "%s: status 0x%x, not killed by SIGSYS", ways[i],
			   status);
	}
	return 0;
}

/* What a worker looks like from outside: its credentials and its fds. */
static int check_worker(pid_t pid, unsigned int uid)
{
	char path[64], line[256], link[PATH_MAX];
	int nnp = -1, seccomp = -1, fds = 0, groups = -1;
	unsigned int u[4] = { 0 }, g[4] = { 0 };
	struct dirent *e;
	DIR *d;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	f = fopen(path, "r");
	UNIT_CHECK(f, "%s", path);
	while (fgets(line, sizeof(line), f)) {
		sscanf(line, "Uid: %u %u %u %u", &u[0], &u[1], &u[2], &u[3]);
		sscanf(line, "Gid: %u %u %u %u", &g[0], &g[1], &g[2], &g[3]);
		sscanf(line, "NoNewPrivs: %d", &nnp);
		sscanf(line, "Seccomp: %d", &seccomp);
		if (!strncmp(line, "Groups:", 7))
			groups = strspn(line + 7, " \t\n") != strlen(line + 7);
	}
	fclose(f);
	UNIT_CHECK(u[0] == uid && u[1] == uid && u[2] == uid && u[3] == uid,
		   "worker %d uid %u %u %u %u, want %u", pid, u[0], u[1],
		   u[2], u[3], uid);
	if (uid == 65534)
		UNIT_CHECK(g[0] == uid && g[1] == uid && g[2] == uid &&
			   groups == 0, "worker %d gid %u groups %d", pid,
			   g[0], groups);
	UNIT_CHECK(nnp == 1 && seccomp == 2, "NoNewPrivs %d Seccomp %d", nnp,
		   seccomp);

	snprintf(path, sizeof(path), "/proc/%d/fd", pid);
	d = opendir(path);
	UNIT_CHECK(d, "%s", path);
	while ((e = readdir(d))) {
		char fdpath[384];
		ssize_t n;
		int fd;

		if (e->d_name[0] == '.')
			continue;
		fd = atoi(e->d_name);
		snprintf(fdpath, sizeof(fdpath), "%s/%s", path, e->d_name);
		n = readlink(fdpath, link, sizeof(link) - 1);
		link[n > 0 ? n : 0] = 0;
		fds++;
		UNIT_CHECK(fd <= 4, "worker %d has fd %d (%s)", pid, fd, link);
		UNIT_CHECK(!strstr(link, "/dev/dri"), "fd %d is %s", fd, link);
		if (fd == 0 || fd == 1)
			UNIT_CHECK(!strcmp(link, "/dev/null"), "fd %d: %s", fd,
				   link);
		if (fd == 3)
			UNIT_CHECK(!strncmp(link, "socket:", 7), "fd 3: %s",
				   link);
		if (fd == 4)
			UNIT_CHECK(strstr(link, "memfd:mmx-jpegd"), "fd 4: %s",
				   link);
	}
	closedir(d);
	UNIT_CHECK(fds == 5, "worker %d has %d fds", pid, fds);
	return 0;
}

static int test_sandbox(void)
{
	unsigned int uid = geteuid() == 0 ? 65534 : getuid(), i;
	struct mmx_decode_pool *p;
	int leak, leak_sock, leak_drm;

	/* fds without O_CLOEXEC (above 4) that must not reach a worker */
	leak = fcntl(open("/dev/null", O_RDONLY), F_DUPFD, 10);
	leak_sock = fcntl(socket(AF_UNIX, SOCK_STREAM, 0), F_DUPFD, 10);
	leak_drm = open("/dev/dri/card0", O_RDWR);	/* if there is one */
	if (leak_drm >= 0)
		leak_drm = fcntl(leak_drm, F_DUPFD, 10);
	UNIT_CHECK(leak > 4 && leak_sock > 4, "fds %d %d", leak, leak_sock);
	p = pool_new(2, 0, 0, NULL);
	UNIT_CHECK(p, "pool");
	for (i = 0; i < mmx_decode_workers(p); i++)
		if (check_worker(mmx_decode_worker_pid(p, i), uid))
			return -1;
	mmx_decode_pool_free(p);
	if (geteuid() == 0) {
		/* another user, by number */
		p = pool_new(1, 0, 0, "4321");
		UNIT_CHECK(p, "pool as 4321");
		if (check_worker(mmx_decode_worker_pid(p, 0), 4321))
			return -1;
		mmx_decode_pool_free(p);
	} else {
		printf("sandbox: not root, the uid switch is not tested\n");
	}
	close(leak);
	close(leak_sock);
	if (leak_drm >= 0)
		close(leak_drm);
	return 0;
}

/* A decoder that cannot start fails the pool's creation, cleanly. */
static int test_bad_path(void)
{
	struct mmx_decode_config cfg = { .workers = 2,
					 .path = "/nonexistent/mmx-jpegd" };
	struct mmx_decode_pool *p = (void *)1;
	int fds = count_fds(), children = count_children();
	struct mmx_error err;
	int ret;

	/* -ENOENT from posix_spawn; under valgrind (no vfork) the child
	 * exits 127 instead, which the pool sees as a worker never ready */
	ret = mmx_decode_pool_new(&cfg, &p, &err);
	UNIT_CHECK((ret == -ENOENT || ret == -ENOEXEC) && !p && err.err == ret,
		   "%d %s", ret, err.message);
	/* a program that exits at once instead of saying hello */
	cfg.path = "/bin/true";
	ret = mmx_decode_pool_new(&cfg, &p, &err);
	UNIT_CHECK(ret == -ENOEXEC && !p, "%d %s", ret, err.message);
	CHECK_NO_LEAK(fds, children);
	return 0;
}

/* Wait until the pool has restarted @n workers in all. */
static int wait_restart(struct mmx_decode_pool *p, uint64_t n)
{
	uint64_t deadline = now_ms() + 5000;
	struct mmx_decode_stats st;
	struct mmx_decode_result res;

	do {
		struct pollfd pfd = { mmx_decode_fd(p), POLLIN, 0 };

		poll(&pfd, 1, 100);
		if (mmx_decode_collect(p, &res, 0) < 0)
			return 0;
		mmx_decode_get_stats(p, &st);
	} while (st.restarts < n && now_ms() < deadline);
	return st.restarts >= n;
}

/* Wait until child @pid is a zombie (dead, its fds closed, not reaped). */
static int wait_zombie(pid_t pid)
{
	uint64_t deadline = now_ms() + 5000;
	char path[64], buf[512], *p, state = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	do {
		f = fopen(path, "r");
		if (!f)
			return 0;
		p = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		if (p && sscanf(p, ") %c", &state) == 1 && state == 'Z')
			return 1;
		usleep(1000);
	} while (now_ms() < deadline);
	return 0;
}

/* Pools come and go (with crashes in between) without leaking. */
static int test_leaks(void)
{
	const struct item *it = item("s444-64x48");
	int fds = count_fds(), children = count_children();
	unsigned char *dst = malloc((size_t)it->w * it->h * 4);
	struct mmx_decode_result res;
	int round;

	UNIT_CHECK(dst, "malloc");
	for (round = 0; round < 5; round++) {
		struct mmx_decode_pool *p = pool_new(2, 0, 0, NULL);
		pid_t pid;
		int st;

		UNIT_CHECK(p, "pool");
		/*
		 * An idle worker dies: replaced, no frame lost. Odd rounds
		 * submit before the pool noticed (the frame goes to a dead
		 * socket and must be handed to another worker).
		 */
		pid = mmx_decode_worker_pid(p, 0);
		kill(pid, SIGKILL);
		if (round & 1)
			UNIT_CHECK(wait_zombie(pid), "%d still alive", pid);
		else
			UNIT_CHECK(wait_restart(p, 1), "no restart");
		st = decode_one(p, 1, it->jpg, it->len, dst, it->w * 4, it->w,
				it->h, &res);
		UNIT_CHECK(st == 0, "round %d: %d", round, st);
		/* frames still queued and in flight at free time */
		mmx_decode_submit(p, 2, it->jpg, it->len, dst, it->w * 4,
				  it->w, it->h);
		mmx_decode_submit(p, 3, it->jpg, it->len, dst, it->w * 4,
				  it->w, it->h);
		mmx_decode_submit(p, 4, it->jpg, it->len, dst, it->w * 4,
				  it->w, it->h);
		mmx_decode_pool_free(p);
	}
	free(dst);
	CHECK_NO_LEAK(fds, children);
	return 0;
}

static const struct unit_case cases[] = {
	{ "corpus-decode", "every corpus JPEG decodes through the pool exactly "
	  "as in-process, within 3 levels of its pattern, nothing written "
	  "outside the frame", test_corpus },
	{ "limits", "oversized frames refused from the header, submit's "
	  "argument checks, queue bound, max_width", test_limits },
	{ "fuzz-truncated", "truncated JPEGs fail or decode that frame only",
	  test_fuzz_truncated },
	{ "fuzz-bitflip", "2000 bit-flipped JPEGs fail or decode that frame "
	  "only, no worker dies", test_fuzz_bitflip },
	{ "fuzz-garbage", "random bytes fail that frame only",
	  test_fuzz_garbage },
	{ "nonblocking", "100 submits queue without decoding inline",
	  test_nonblocking },
	{ "cancel", "cancelled frames are not reported nor written",
	  test_cancel },
	{ "worker-crash", "a worker killed mid-frame fails that frame, is "
	  "restarted, nothing leaks", test_crash },
	{ "worker-timeout", "a stuck worker is killed after timeout_ms",
	  test_timeout },
	{ "sandbox-escape", "open, socket, ioctl, execve, fork, executable or "
	  "file mappings kill the sandboxed decoder with SIGSYS",
	  test_escape },
	{ "sandbox-worker", "workers run unprivileged, seccomp-filtered, with "
	  "fds 0-4 only", test_sandbox },
	{ "bad-path", "a decoder that cannot start fails pool creation",
	  test_bad_path },
	{ "no-leak", "pools created and freed with crashes leak no fd or "
	  "process", test_leaks },
};

int main(int argc, char **argv)
{
	int ret;

	if (jpegd_path(jpegd, sizeof(jpegd)) ||
	    test_helper_path("mmx-jpeg-corpus", corpus, sizeof(corpus)) ||
	    test_helper_path("mmx-jpegd-escape", escape, sizeof(escape)))
		return 1;
	if (make_corpus())
		return 1;
	ret = UNIT_RUN(cases, argc, argv);
	free_corpus();
	return ret;
}
