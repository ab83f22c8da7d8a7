/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's services, as the server calls them: the media streams (media.c)
 * and TIME's clocks and schedules (time.c, built on the streams). Each is
 * bound to the server's event sink (mmxd_service.h) and reaches it through
 * nothing else; below them is their backend (mmxd_backend.h). TIME sits
 * on media: time.c calls media.c's stream queries, media.c hands TIME what
 * is TIME's (completions, closing streams) through struct
 * mmxd_media_listener and never names it.
 */

#ifndef MMXD_MEDIA_H
#define MMXD_MEDIA_H

#include <poll.h>
#include <stdint.h>

#include "mmxd_service.h"
#include "mmxd_backend.h"

/* Media streams (media.c) */

/* Framebuffers of a stream's ring at most (plus the one on screen). */
#define MMXD_STREAM_BUFFERS	8
/* JPEG bytes a stream may hold waiting for a framebuffer. */
#define MMXD_STREAM_MAX_BYTES	(32u << 20)
/* Audio chunks a stream may have queued. */
#define MMXD_STREAM_MAX_AUDIO	256
/* Poll descriptors the media streams add to the server's at most. */
#define MMXD_MEDIA_POLLFDS	8
/*
 * User data of timed commits and audio plays with this bit are not the
 * streams' (they never set it): their completions go to the listener.
 */
#define MMXD_MEDIA_FOREIGN	(1ull << 63)

struct mmxd_media;

int mmxd_media_new(const struct mmxd_media_ops *ops, void *ctx,
		   struct mmxd_media **out);
/* Close every stream (their frames retracted, buffers freed), quietly. */
void mmxd_media_free(struct mmxd_media *m);
/* Send stream events and log lines to @sink (kept; NULL: nowhere). */
void mmxd_media_bind(struct mmxd_media *m, const struct mmxd_sink *sink);

/**
 * struct mmxd_media_listener - what the streams hand to the service above
 *	them (TIME)
 * @sched_done: a timed commit whose user data has %MMXD_MEDIA_FOREIGN
 *	completed
 * @audio_done: a play whose token has %MMXD_MEDIA_FOREIGN finished at
 *	@end_ns
 * @stream_gone: stream @stream closes; @notify: its client may be told
 *	(0 while the streams are freed with the server)
 */
struct mmxd_media_listener {
	void (*sched_done)(void *ctx, const struct mmxd_sched_event *e);
	void (*audio_done)(void *ctx, uint64_t token, int64_t end_ns);
	void (*stream_gone)(void *ctx, uint32_t stream, int notify);
};

/* Hand foreign completions and closing streams to @l (NULL: nobody). */
void mmxd_media_listen(struct mmxd_media *m,
		       const struct mmxd_media_listener *l, void *ctx);
/* MMX_PROTO_CAP_* bits streams add to HELLO's caps. */
uint32_t mmxd_media_caps(const struct mmxd_media *m);
/*
 * The requests of the streams (mmxd_service_handler, called with the
 * struct mmxd_media): STREAM_OPEN, STREAM_CLOSE, STREAM_START,
 * STREAM_VIDEO and STREAM_REPLACE, STREAM_RETRACT, STREAM_AUDIO and
 * CLOCK_QUERY.
 */
mmxd_service_handler mmxd_media_open, mmxd_media_close, mmxd_media_start,
	mmxd_media_video, mmxd_media_retract, mmxd_media_audio,
	mmxd_media_clock_query;
/* Does @c have an open stream (media requests may be large)? */
int mmxd_media_conn_has_stream(const struct mmxd_media *m,
			       const struct mmxd_conn *c);
/* @c is going away: close its stream. */
void mmxd_media_conn_gone(struct mmxd_media *m, const struct mmxd_conn *c);
/* Poll descriptors: fill up to @n, return how many. */
unsigned int mmxd_media_poll_fill(struct mmxd_media *m, struct pollfd *pfd,
				  unsigned int n);
/* After poll: handle what @pfd (as filled) says. */
void mmxd_media_poll_done(struct mmxd_media *m, const struct pollfd *pfd,
			  unsigned int n);
/* Streams open. */
unsigned int mmxd_media_nstreams(const struct mmxd_media *m);
/* Milliseconds until a frame is due to be submitted again, -1: none. */
int mmxd_media_timeout_ms(struct mmxd_media *m);

/* For TIME: the backend. */
const struct mmxd_media_ops *mmxd_media_backend(const struct mmxd_media *m,
						void **ctx);
/*
 * @c's stream @stream: its overlay target, its latest presented picture
 * (@fb, @w x @h). -ENOENT: no such stream of @c; -EAGAIN: nothing shown.
 */
int mmxd_media_stream_picture(struct mmxd_media *m,
			      const struct mmxd_conn *c, uint32_t stream,
			      struct mmxd_video_target *t, uint32_t *fb,
			      uint32_t *w, uint32_t *h);
/* Is @stream one of @c's streams? */
int mmxd_media_stream_of(struct mmxd_media *m, const struct mmxd_conn *c,
			 uint32_t stream);
/*
 * @c's (NULL: anyone's) stream @stream's audio device and channels.
 * -ENOENT: no such stream; -EOPNOTSUPP: it has no audio.
 */
int mmxd_media_stream_audio(struct mmxd_media *m, const struct mmxd_conn *c,
			    uint32_t stream, uint32_t *channels, void **dev);
/* The stream clock at @mono (-ENOENT: gone; -EAGAIN: not started). */
int mmxd_media_stream_time(struct mmxd_media *m, uint32_t stream,
			   int64_t mono, int64_t *ns);
/* The CLOCK_MONOTONIC time the stream clock reads @t. */
int mmxd_media_stream_mono(struct mmxd_media *m, uint32_t stream, int64_t t,
			   int64_t *mono);

/* TIME: clocks and schedules (time.c) */
struct mmxd_time;

/* Server limits (per connection). */
#define MMXD_TIME_MAX_CLOCKS	MMX_REMOTE_CLOCK_MAX
#define MMXD_TIME_MAX_PENDING	MMX_SCHEDULE_PENDING_MAX
/* User data of TIME's timed commits and tokens of its plays have this bit. */
#define MMXD_TIME_TOKEN		MMXD_MEDIA_FOREIGN

/*
 * TIME over the streams of @m (it becomes @m's listener), its events and
 * log lines to @sink (kept).
 */
int mmxd_time_new(struct mmxd_media *m, const struct mmxd_sink *sink,
		  struct mmxd_time **out);
/* Retract every pending schedule, free everything (before @m goes). */
void mmxd_time_free(struct mmxd_time *t);
/*
 * The TIME requests but CLOCK_QUERY (mmxd_service_handler, called with
 * the struct mmxd_time): CLOCK_CREATE, CLOCK_START and CLOCK_STOP,
 * CLOCK_SET_RATE, CLOCK_READ and CLOCK_DESTROY, SCHEDULE_SUBMIT and
 * SCHEDULE_REPLACE, SCHEDULE_RETRACT.
 */
mmxd_service_handler mmxd_time_clock_create, mmxd_time_clock_run,
	mmxd_time_clock_rate, mmxd_time_clock_read, mmxd_time_submit,
	mmxd_time_retract;
/* @c is going away: its schedules retracted, its clocks freed. */
void mmxd_time_conn_gone(struct mmxd_time *t, const struct mmxd_conn *c);

#endif /* MMXD_MEDIA_H */
