/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake mmxd media backend and the stream client shared by the host
 * tests of mmxd's media and TIME requests (test_mmxd_media.c,
 * test_mmxd_time.c): a fake clock, framebuffers counted, timed commits
 * kept in a table that a fake vblank executes, a vblank clock source
 * (vblanks every FRAME ns from 0), a decoder that "decodes" text
 * ("FRAME W H" or anything else: -EBADMSG) through a pipe like the pool's
 * fd; and the client's requests, replies and events. Built once
 * (mmxd_fake.c) and linked into both tests.
 */
#ifndef MMXD_FAKE_H
#define MMXD_FAKE_H

#include <stdint.h>

#include "mmxd.h"
#include "mmx_wire.h"
#include "mmxd_client_harness.h"

/* ---- the fake media backend --------------------------------------------- */

#define NSCHED	256
#define NDEC	512

/* The fake vblank clock: vblanks at every multiple of FRAME. */
#define FRAME	16666667ll

/* A timed commit in the fake's table. */
struct sched {
	int used;
	uint64_t id, user;
	int64_t exec, expire;
	uint32_t fb;
};

/* The fake backend's state, reset by server_start(). */
struct mmxd_fake {
	int64_t now;
	unsigned int fbs;		/* alive */
	uint32_t next_fb;
	struct sched sched[NSCHED];
	uint64_t next_sched;
	unsigned int pending;		/* timed commits not completed */
	struct mmxd_sched_event done[NSCHED];
	unsigned int ndone;
	int ev_pipe[2];
	struct mmx_decode_result dec[NDEC];
	unsigned int ndec;
	int dec_pipe[2];
	unsigned int cancels, untargets;
	uint64_t seq;
	int vsources;
};

extern struct mmxd_fake fk;

/*
 * The media backend of test_mmxd_media.c: no REPLACE, no vblank clock
 * source, no audio. The TIME test's tables add fk_replace and the vblank
 * source below.
 */
extern const struct mmxd_media_ops fake_media_ops;
int fk_replace(void *ctx, uint64_t id, const struct mmxd_video_target *t,
	       uint32_t fb, int32_t x, int32_t y, uint32_t w, uint32_t h,
	       int64_t exec, int64_t expire, uint64_t user, uint64_t *new_id);
int fk_vblank_source(void *ctx, uint32_t output,
		     struct mmx_clock_source *src, void **handle);
void fk_vblank_source_free(void *ctx, void *handle);

/* Write one byte to a pipe that wakes the server. */
void kick(int fd);

/* Complete timed commit @e with @status (1 presented, 2 expired, ...). */
void complete(struct sched *e, uint32_t status, int64_t ts);

/*
 * A vblank at @t: every pending entry due (exec <= t) is presented, or
 * expired when @t is past its expiry.
 */
void vblank(int64_t t);

/* ---- the server and its stream client ----------------------------------- */

extern struct mmxd_media *media;
extern const uint8_t good_cookie[MMX_AUTH_COOKIE_LEN];

/*
 * A server with the fake display and media backend @ops, the fake reset
 * (its clock at 1000 s), TCP clients authenticated with good_cookie.
 */
int server_start_media(const struct mmxd_media_ops *ops);
void server_stop_media(void);

/* Events received, in order; TIME schedule events when wanted. */
#define MAXEV	4096
extern struct mmx_proto_stream_event evs[MAXEV];
extern unsigned int nev;
extern unsigned int bad_events;
extern struct mmx_schedule_event tev[MAXEV];
extern unsigned int ntev;
extern int accept_schedule_events;

/* Receive one message; an EVENT is stored (evs or tev) and 1 returned. */
int recv_one(int fd, struct mmx_proto_header *h, struct mmx_proto_reply *r,
	     uint8_t *data, size_t max, size_t *dlen, int rounds);

/* Request with data @b; the reply's data (exactly @outlen) to @out. */
int req2(int fd, uint16_t type, const void *a, size_t alen, const void *b,
	 size_t blen, void *out, size_t outlen);
int req(int fd, uint16_t type, const void *a, size_t alen);

/* Run the server until @n events came (or a while). */
void wait_events(int fd, unsigned int n);

int hello(int fd);
/* HELLO as a client of protocol 1.@minor; the server's answer in @hr. */
int hello_minor(int fd, uint16_t minor, struct mmx_proto_hello_reply *hr);

extern const struct mmx_stream_config good;

/* Open a stream (config @cfg or the good one); its id, or < 0. */
int open_stream(int fd, const struct mmx_stream_config *cfg,
		struct mmx_proto_stream_open_reply *r);
int video(int fd, uint16_t type, uint32_t stream, uint64_t id, int64_t pts,
	  int64_t expire, const char *data);
int start(int fd, uint32_t stream, int64_t delay);

/* @len bytes of the fuzz tests' linear congruential sequence at @*seed. */
void lcg_fill(uint32_t *seed, uint8_t *buf, size_t len);

/*
 * Did fuzzed request number @i (@type, @len bytes) get no reply (@ret, from
 * req2(), is a transport failure)? Then it is said on stderr.
 */
int fuzz_failed(int ret, int i, uint16_t type, size_t len);

/* The stream event of frame @id with @status, or NULL. */
const struct mmx_stream_event *event_of(uint64_t id, uint32_t status);

#endif /* MMXD_FAKE_H */
