// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd --worker: decode the pool's JPEGs (and MPEG audio: mpeg.c),
 * one at a time, from and to the memory it shares with the pool (fd 4),
 * answering on the socket (fd 3). Everything that needs more than read/write/mmap happens before the
 * sandbox is entered; afterwards a hostile JPEG can at worst crash or hang
 * this process, which the pool kills and replaces.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "jpegd.h"
#include "mmx_decode.h"

struct worker {
	tjhandle tj;
	unsigned char *map;
	uint64_t map_size;
};

static int send_reply(const struct mmx_jpegd_reply *r)
{
	ssize_t n = write(MMX_JPEGD_FD_SOCKET, r, sizeof(*r));

	return n == (ssize_t)sizeof(*r) ? 0 : -1;
}

static int remap(struct worker *w, uint64_t size)
{
	void *p;

	if (size == w->map_size)
		return 0;
	if (w->map)
		munmap(w->map, w->map_size);
	w->map = NULL;
	w->map_size = 0;
	if ((size_t)size != size)
		return -ENOMEM;
	p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED,
		 MMX_JPEGD_FD_MEMORY, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	w->map = p;
	w->map_size = size;
	return 0;
}

static void decode(struct worker *w, const struct mmx_jpegd_request *rq,
		   struct mmx_jpegd_reply *r)
{
	int width = 0, height = 0, subsamp, colorspace;
	uint64_t out_size;

	r->status = remap(w, rq->map_size);
	if (r->status)
		return;
	out_size = (uint64_t)rq->max_width * rq->max_height * 4;
	if (rq->format != MMX_JPEGD_FORMAT_XRGB8888 ||
	    (uint64_t)rq->in_off + rq->len > w->map_size ||
	    rq->out_off > w->map_size || out_size > w->map_size - rq->out_off) {
		r->status = -EINVAL;
		return;
	}
	/* The declared size first: nothing is decoded past the limits. */
	if (tjDecompressHeader3(w->tj, w->map + rq->in_off, rq->len, &width,
				&height, &subsamp, &colorspace)) {
		r->status = -EBADMSG;
		return;
	}
	r->width = width;
	r->height = height;
	if (width <= 0 || height <= 0) {
		r->status = -EBADMSG;
		return;
	}
	if ((uint32_t)width > rq->max_width ||
	    (uint32_t)height > rq->max_height) {
		r->status = -E2BIG;
		return;
	}
	r->pitch = (uint32_t)width * 4;
	if (tjDecompress2(w->tj, w->map + rq->in_off, rq->len,
			  w->map + rq->out_off, width, r->pitch, height,
			  TJPF_BGRX, JPEGD_TJFLAGS)) {
		if (tjGetErrorCode(w->tj) != TJERR_WARNING) {
			r->status = -EBADMSG;
			return;
		}
		r->flags |= MMX_DECODE_WARNING;
	}
	r->status = 0;
}

/*
 * libjpeg-turbo 2.1 leaves a handle mid-state after a failed header read
 * (every later header then fails: "Bogus DQT index"), so a failure costs
 * the handle. tjInitDecompress() only allocates: fine in the sandbox.
 */
static int renew(struct worker *w)
{
	tjDestroy(w->tj);
	w->tj = tjInitDecompress();
	return w->tj ? 0 : -1;
}

int jpegd_worker(const struct jpegd_sandbox *sb)
{
	struct mmx_jpegd_reply hello = {
		.seq = 0, .status = 0, .width = MMX_JPEGD_VERSION,
	};
	struct worker w = { 0 };

	/* Whatever the caller forgot: only 0-4 stay. */
	jpegd_close_from(MMX_JPEGD_FD_MEMORY + 1);
	w.tj = tjInitDecompress();
	if (!w.tj) {
		fprintf(stderr, "mmx-jpegd: tjInitDecompress failed\n");
		return 1;
	}
	if (jpegd_mpeg_init()) {
		fprintf(stderr, "mmx-jpegd: mpg123_init failed\n");
		return 1;
	}
	if (jpegd_sandbox_enter(sb))
		return 1;
	if (send_reply(&hello))
		return 1;
	for (;;) {
		struct mmx_jpegd_request rq;
		struct mmx_jpegd_reply r;
		ssize_t n;

		n = read(MMX_JPEGD_FD_SOCKET, &rq, sizeof(rq));
		if (n == 0)
			return 0;	/* the pool is gone */
		if (n != (ssize_t)sizeof(rq)) {
			if (n < 0 && errno == EINTR)
				continue;
			return 2;
		}
		memset(&r, 0, sizeof(r));
		r.seq = rq.seq;
		if (rq.format == MMX_JPEGD_FORMAT_S16_MPEG) {
			r.status = remap(&w, rq.map_size);
			if (!r.status)
				jpegd_decode_mpeg(w.map, w.map_size, &rq, &r);
		} else {
			decode(&w, &rq, &r);
			if ((r.status || r.flags) && renew(&w))
				r.status = -ENOMEM;
		}
		if (send_reply(&r))
			return 2;
		if (!w.tj)
			return 1;
	}
}
