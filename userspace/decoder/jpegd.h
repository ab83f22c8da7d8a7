/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd internals: the sandbox and the worker loop.
 */

#ifndef MMX_JPEGD_H
#define MMX_JPEGD_H

#include <stddef.h>
#include <stdint.h>

#include <turbojpeg.h>

/*
 * libjpeg-turbo flags of every decode, the worker's and the test corpus'
 * reference alike (so that both are bit-identical): progressive JPEGs with
 * more than 500 scans are refused (a known CPU exhaustion trick).
 */
#define JPEGD_TJFLAGS	TJFLAG_LIMITSCANS

/*
 * struct jpegd_sandbox - what jpegd_sandbox_enter() does
 * @user: user name or number to become when root; NULL: 65534
 * @mem_limit: RLIMIT_AS in bytes, 0: none
 */
struct jpegd_sandbox {
	const char *user;
	uint64_t mem_limit;
};

/*
 * Drop root (setgroups(0), setresgid/setresuid to @sb->user), set
 * RLIMIT_CORE/NOFILE/NPROC (and AS), PR_SET_NO_NEW_PRIVS, non-dumpable, and
 * install the seccomp filter: from then on only read, write, memory
 * management (never executable), futex and exit work; anything else kills
 * the process with SIGSYS. Returns 0 or -errno (with a message on stderr).
 */
int jpegd_sandbox_enter(const struct jpegd_sandbox *sb);

/* Close every fd from @first up (close_range, else one by one). */
void jpegd_close_from(int first);

/* The worker: serve the pool on fds 3 and 4 until EOF. Returns the exit
 * status. */
int jpegd_worker(const struct jpegd_sandbox *sb);

/*
 * Audio requests (format MMX_JPEGD_FORMAT_S16_MPEG, decoder/mpeg.c):
 * libmpg123's one-time setup, before the sandbox (0 or -1); then decode
 * @rq's MPEG audio from @map into interleaved S16 PCM, filling @r.
 */
struct mmx_jpegd_request;
struct mmx_jpegd_reply;
int jpegd_mpeg_init(void);
void jpegd_decode_mpeg(unsigned char *map, uint64_t map_size,
		       const struct mmx_jpegd_request *rq,
		       struct mmx_jpegd_reply *r);

#endif /* MMX_JPEGD_H */
