/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * A pool of sandboxed JPEG decoder processes (mmx-jpegd) for mmxd: frames
 * are submitted without blocking, decoded ahead of presentation by
 * unprivileged, seccomp-confined workers with no access to the DRM device,
 * and collected into the caller's buffers when a pollable fd says so. A
 * hostile JPEG fails its own frame only; a crashed or stuck worker is
 * killed and restarted. Documentation/mmx-compress.rst has the design.
 *
 * libmmx does not link libturbojpeg: only mmx-jpegd does.
 */

#ifndef MMX_DECODE_H
#define MMX_DECODE_H

#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "libmmx.h"

/* Defaults (a zero field of struct mmx_decode_config selects them). */
#define MMX_DECODE_MAX_WORKERS		8
#define MMX_DECODE_DEFAULT_MAX_DIM	8192
#define MMX_DECODE_DEFAULT_MAX_INPUT	(16u << 20)
#define MMX_DECODE_DEFAULT_TIMEOUT_MS	2000
#define MMX_DECODE_DEFAULT_QUEUE	256
/* A worker that dies this many times in a row before saying hello is
 * not restarted again. */
#define MMX_DECODE_MAX_START_FAILURES	3

/*
 * struct mmx_decode_config - how to run the pool (all zero: defaults)
 * @workers: decoder processes; 0: online CPUs, at most
 *	MMX_DECODE_MAX_WORKERS
 * @path: the mmx-jpegd program; NULL: $MMX_JPEGD, else mmx-jpegd next
 *	to the calling executable, else MMX_LIBEXECDIR/mmx/mmx-jpegd
 * @user: user name or number the workers run as when the caller is root;
 *	NULL: nobody (uid and gid 65534)
 * @max_width: widest frame accepted (checked from the JPEG header before
 *	decoding; a frame's own limit is also its destination's size)
 * @max_height: tallest frame accepted
 * @max_input: largest JPEG accepted, in bytes
 * @timeout_ms: wall-clock time one decode may take before its worker is
 *	killed (the frame then fails with -ETIMEDOUT)
 * @queue: frames submitted and not yet collected, at most
 */
struct mmx_decode_config {
	unsigned int workers;
	const char *path;
	const char *user;
	uint32_t max_width;
	uint32_t max_height;
	uint32_t max_input;
	unsigned int timeout_ms;
	unsigned int queue;
};

/* Result flags. */
#define MMX_DECODE_WARNING	(1u << 0)	/* corrupt data, decoded anyway */

/*
 * struct mmx_decode_result - one finished frame (or audio chunk)
 * @id: the caller's id given to mmx_decode_submit() (or
 *	mmx_decode_submit_audio())
 * @status: 0 decoded into the destination; -EBADMSG not a decodable JPEG;
 *	-E2BIG its declared size exceeds the limits (@width and @height
 *	then say the declared size); -ETIMEDOUT the decode took too long and
 *	its worker was killed; -ECONNRESET its worker died (@signal says
 *	how); -EPROTO its worker broke the protocol and was killed;
 *	-ENOEXEC no worker could be started; -ENOMEM the worker ran out
 * @signal: the signal that ended the worker that had this frame, or 0
 * @width: decoded (or declared) width in pixels; audio: PCM frames decoded
 * @height: decoded (or declared) height in pixels; audio: channels
 * @flags: MMX_DECODE_*
 * @rate: audio: the sample rate in Hz (0 for a JPEG)
 */
struct mmx_decode_result {
	uint64_t id;
	int32_t status;
	int32_t signal;
	uint32_t width;
	uint32_t height;
	uint32_t flags;
	uint32_t rate;
};

/*
 * struct mmx_decode_stats - counters since the pool was created
 * @submitted: frames accepted by mmx_decode_submit()
 * @decoded: frames collected with status 0
 * @failed: frames collected with an error
 * @crashes: workers that died while decoding (including timeouts)
 * @timeouts: workers killed for taking longer than timeout_ms
 * @restarts: workers started after the first ones
 * @queued: frames waiting for a worker now
 * @in_flight: frames being decoded now
 * @done: frames finished and not yet collected
 */
struct mmx_decode_stats {
	uint64_t submitted;
	uint64_t decoded;
	uint64_t failed;
	uint64_t crashes;
	uint64_t timeouts;
	uint64_t restarts;
	unsigned int queued;
	unsigned int in_flight;
	unsigned int done;
};

struct mmx_decode_pool;

/*
 * Start the workers (waiting up to a few seconds for them to enter their
 * sandbox: call it at startup, not from a busy main loop). @cfg may be
 * NULL. Returns 0 or -errno (with @err, which may be NULL, set).
 */
int mmx_decode_pool_new(const struct mmx_decode_config *cfg,
			struct mmx_decode_pool **out, struct mmx_error *err);
/* Kill the workers and free everything; no destination is written after. */
void mmx_decode_pool_free(struct mmx_decode_pool *p);

/*
 * Queue JPEG @jpeg (@len bytes, copied: the caller may free it at once) to
 * be decoded as XRGB8888 into @dst (@pitch bytes a row, @width x @height
 * pixels at most), which must stay valid until the frame is collected or
 * cancelled. Never blocks. Returns 0, -EINVAL (bad arguments, empty JPEG),
 * -E2BIG (@len over max_input), -EAGAIN (queue full) or -ENOMEM.
 */
int mmx_decode_submit(struct mmx_decode_pool *p, uint64_t id,
		      const void *jpeg, size_t len, void *dst, uint32_t pitch,
		      uint32_t width, uint32_t height);

/*
 * Queue MPEG-1/2 audio (Layer I, II or III; @len bytes of whole frames,
 * copied) to be decoded by libmpg123 in a worker into interleaved S16
 * native-endian PCM with @channels (1: mixed down, 2: mono doubled) at
 * the stream's own rate, into @dst (room for @max_frames frames), which
 * must stay valid until collected or cancelled. The result says frames
 * (@width), channels (@height) and rate. Its status: 0 (with
 * MMX_DECODE_WARNING if decoding stopped at an error after some frames; a
 * truncated last frame is dropped), -EBADMSG (not one frame of MPEG
 * audio, or it changes format midway), -E2BIG (more than @max_frames), or
 * a worker's failure as for JPEGs. @max_frames * @channels * 2 may not
 * exceed max_width * max_height * 4 (the largest frame's memory). Never
 * blocks. Returns 0, -EINVAL, -E2BIG (@len over max_input), -EAGAIN or
 * -ENOMEM.
 */
int mmx_decode_submit_audio(struct mmx_decode_pool *p, uint64_t id,
			    const void *mpeg, size_t len, int16_t *dst,
			    uint32_t max_frames, uint32_t channels);

/*
 * A file descriptor that polls readable when mmx_decode_collect() has work
 * to do (a worker answered, died or timed out, or results are waiting). It
 * stays the same for the pool's life.
 */
int mmx_decode_fd(const struct mmx_decode_pool *p);

/*
 * Without blocking: handle what the workers said, restart dead ones, hand
 * queued frames to idle workers, copy decoded pixels to their destination
 * and return up to @n finished frames in @res (in completion order, not
 * submission order). Returns how many, or -errno.
 */
int mmx_decode_collect(struct mmx_decode_pool *p,
		       struct mmx_decode_result *res, unsigned int n);

/*
 * Forget frame @id: its destination is not written after this returns and
 * no result is reported. Returns 0 or -ENOENT (unknown or already
 * collected).
 */
int mmx_decode_cancel(struct mmx_decode_pool *p, uint64_t id);

void mmx_decode_get_stats(const struct mmx_decode_pool *p,
			  struct mmx_decode_stats *s);
/* Worker @i's process id (for tests and diagnostics), or -1. */
pid_t mmx_decode_worker_pid(const struct mmx_decode_pool *p, unsigned int i);
unsigned int mmx_decode_workers(const struct mmx_decode_pool *p);

/*
 * The pool <-> mmx-jpegd protocol. mmx-jpegd --worker runs with fd 3 a
 * SOCK_SEQPACKET socket to the pool and fd 4 a memfd shared with it; 0 and
 * 1 are /dev/null, 2 is the pool's stderr, nothing else is open. Once in its
 * sandbox the worker sends a hello (a reply with seq 0 and status 0, @width
 * = MMX_JPEGD_VERSION). Then, per request, the JPEG is at @in_off in the
 * memfd (@len bytes) and the worker writes XRGB8888 pixels at @out_off
 * with its own pitch (4 * width), after mapping @map_size bytes of the
 * memfd (which only grows). One request at a time. The pool trusts nothing
 * in a reply but checks it against the request; it never reads anything
 * but pixels from the shared memory.
 */
#define MMX_JPEGD_FD_SOCKET	3
#define MMX_JPEGD_FD_MEMORY	4
#define MMX_JPEGD_VERSION	1
#define MMX_JPEGD_FORMAT_XRGB8888	0x34325258	/* DRM_FORMAT_XRGB8888 */
/*
 * An audio request: MPEG audio at @in_off (@len bytes) to S16 PCM at
 * @out_off, @max_width frames of @max_height (1 or 2) channels at most.
 * Its reply: @width frames, @height channels, @pitch the sample rate.
 */
#define MMX_JPEGD_FORMAT_S16_MPEG	0x4745504d	/* "MPEG" */

struct mmx_jpegd_request {
	uint32_t seq;
	uint32_t len;
	uint32_t max_width;
	uint32_t max_height;
	uint32_t format;
	uint32_t in_off;
	uint64_t out_off;
	uint64_t map_size;
};

struct mmx_jpegd_reply {
	uint32_t seq;
	int32_t status;
	uint32_t width;
	uint32_t height;
	uint32_t pitch;
	uint32_t flags;
};

#endif /* MMX_DECODE_H */
