/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd internals: the server (connections, framing, poll loop), the
 * request handlers over a display (struct mmx_display_ops, the table
 * libmmx's own backends implement: libmmx's public API in mmxd, a fake in
 * the host tests), the listening socket and the display setup.
 */

#ifndef MMXD_H
#define MMXD_H

#include <stddef.h>
#include <stdint.h>
#include <poll.h>
#include <sys/types.h>

#include "libmmx.h"
#include "libmmx_media.h"
#include "mmx_protocol.h"
#include "mmx_decode.h"
#include "mmx_clock.h"
#include "mmx_display_ops.h"

#define MMXD_VERSION		"0.1.0"

/*
 * The display operations over a struct mmx_display (@ctx), through
 * libmmx's public API. The server calls @state, @apply, @pointer_moved and
 * @capture; @kms_fd and @close are NULL.
 */
extern const struct mmx_display_ops mmxd_display_ops;

/**
 * struct mmxd_options - server settings
 * @max_clients: connections served at once; more are refused (-EBUSY)
 * @stall_ms: a client whose pending reply makes no progress for this long
 *	is dropped
 * @verbose: 0: errors only, 1: connections and failed requests, 2: every
 *	request
 * @uid: the daemon's uid (allowed to connect, as is root)
 * @gid: the socket's group (its members are allowed)
 * @driver: KMS driver name for HELLO replies
 * @state_flags: struct mmx_state.flags for HELLO replies
 * @cookie: what TCP clients must send in AUTH (valid with @tcp_auth)
 * @tcp_auth: TCP clients are served (the cookie is set)
 */
struct mmxd_options {
	unsigned int max_clients;
	unsigned int stall_ms;
	int verbose;
	uid_t uid;
	gid_t gid;
	char driver[MMX_PROTO_NAME_LEN];
	uint32_t state_flags;
	uint8_t cookie[MMX_AUTH_COOKIE_LEN];
	int tcp_auth;
};

#define MMXD_MAX_CLIENTS	64
/*
 * Connections waiting to be accepted, at most (the kernel clamps it to
 * net.core.somaxconn, 4096 by default): a burst of reconnecting clients
 * waits in the queue instead of failing with EAGAIN.
 */
#define MMXD_LISTEN_BACKLOG	4096
/* Connections accepted per round of the poll loop (fairness). */
#define MMXD_ACCEPT_BATCH	64
/* Out of descriptors: accepting waits this long or until a client goes. */
#define MMXD_ACCEPT_PAUSE_MS	100
#define MMXD_STALL_MS		10000
/* Messages handled for one client per poll round (fairness). */
#define MMXD_BATCH		16
/* EVENT messages waiting to be sent to one client, at most (else the
 * client is dropped: it does not read). */
#define MMXD_MAX_EVENTS		4096

/**
 * struct mmxd_conn - one client connection
 * @fd: the socket (non-blocking)
 * @id: number for the log
 * @uid: peer's uid (SO_PEERCRED)
 * @pid: peer's pid
 * @hello: HELLO done
 * @eof: the peer shut its side down: serve what is buffered, then close
 * @closing: close once @out is sent (the stream cannot go on)
 * @dead: closed, to be removed
 * @in: received bytes, MMX_PROTO_MAX_REQUEST of room
 * @in_len: bytes in @in
 * @out: the reply being sent (one at a time: the next request is read
 *	only once it is gone, so a client that does not read stalls only
 *	itself)
 * @out_len: bytes in @out
 * @out_off: bytes of @out sent
 * @out_since: time of the last progress of @out (ms, CLOCK_MONOTONIC)
 * @name: client name from HELLO
 * @tcp: accepted on the TCP socket: AUTH must come before anything but PING
 * @authed: AUTH succeeded (TCP)
 * @in_cap: bytes of room in @in (MMX_PROTO_MAX_REQUEST, more for a media
 *	request of a client with a stream)
 * @events: EVENT messages waiting to be sent after @out (a FIFO)
 * @events_tail: the last of @events
 * @nevents: how many
 * @out_event: @out is an EVENT (not a reply)
 * @gone: the peer closed both directions (POLLHUP): no longer counted as a
 *	client; what it sent is still handled before the close
 */
struct mmxd_conn {
	int fd;
	unsigned int id;
	uid_t uid;
	pid_t pid;
	int hello;
	int eof;
	int closing;
	int dead;
	uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len;
	size_t out_off;
	uint64_t out_since;
	char name[MMX_PROTO_NAME_LEN];
	int tcp;
	int authed;
	size_t in_cap;
	struct mmxd_msg *events;
	struct mmxd_msg *events_tail;
	unsigned int nevents;
	int out_event;
	int gone;
};

/* An EVENT message queued on a connection. */
struct mmxd_msg {
	struct mmxd_msg *next;
	size_t len;
	uint8_t data[];
};

struct mmxd_server;

/* Server (server.c) */
void mmxd_options_init(struct mmxd_options *o);
int mmxd_server_new(const struct mmx_display_ops *ops, void *ctx,
		    const struct mmxd_options *opts, struct mmxd_server **out);
/* Close every client (and the listening socket, not unlinking it). */
void mmxd_server_free(struct mmxd_server *s);
/* Accept clients on @fd (a listening socket; owned by the server). */
void mmxd_server_listen(struct mmxd_server *s, int fd);
/* Accept TCP clients on @fd (they must AUTH with the options' cookie). */
void mmxd_server_listen_tcp(struct mmxd_server *s, int fd);
/* Serve a connected TCP socket (AUTH required); 0 or -errno. */
int mmxd_server_add_tcp_client(struct mmxd_server *s, int fd);
/*
 * Serve a connected socket (owned by the server from now on, made
 * non-blocking); its peer credentials are checked. Returns 0 or -errno.
 */
int mmxd_server_add_client(struct mmxd_server *s, int fd);
/*
 * One round of the poll loop: wait up to @timeout_ms (-1: no limit) for
 * the clients, the listening socket or @stop_fd (-1: none). Returns 1
 * when @stop_fd is readable, 0 otherwise, -errno on a poll failure.
 */
int mmxd_server_step(struct mmxd_server *s, int timeout_ms, int stop_fd);
/* Open connections (refused ones not yet closed included). */
unsigned int mmxd_server_nclients(const struct mmxd_server *s);
/*
 * Clients being served: what --max-clients limits (neither refused
 * connections nor those whose peer has closed count).
 */
unsigned int mmxd_server_nlive(const struct mmxd_server *s);

/**
 * struct mmxd_server_stats - connection counts since the server started
 * @connections: connections accepted (or added)
 * @refused_busy: refused with -EBUSY (--max-clients live clients)
 * @refused_access: refused with -EACCES (peer credentials)
 * @refused_other: refused for another reason (no credentials)
 * @max_live: the most live clients at once
 */
struct mmxd_server_stats {
	unsigned long connections;
	unsigned long refused_busy;
	unsigned long refused_access;
	unsigned long refused_other;
	unsigned int max_live;
};

void mmxd_server_get_stats(const struct mmxd_server *s,
			   struct mmxd_server_stats *st);
/*
 * The credentials policy: root, @o->uid and members of @o->gid (primary
 * @gid or one of @groups) may connect.
 */
int mmxd_peer_allowed(const struct mmxd_options *o, uid_t uid, gid_t gid,
		      const gid_t *groups, int ngroups);
/* Queue a reply on @c (header, struct mmx_proto_reply, @a, @b). */
int mmxd_conn_reply(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t sequence, uint16_t request, int32_t error,
		    const char *message, const void *a, size_t alen,
		    const void *b, size_t blen);
/* Queue EVENT @event with @data (@len bytes) on @c; 0 or -errno. */
int mmxd_conn_event(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t event, const void *data, size_t len);
void mmxd_log(const struct mmxd_server *s, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Requests: one table per protocol, served by handlers.c */

/*
 * The kernel's helpers, for the tables and for a handler's parameter it
 * need not read (the table checked it).
 */
#ifndef __maybe_unused
#define __maybe_unused __attribute__((unused))
#endif
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/*
 * What a request type needs before its handler runs:
 * @MMXD_REQ_BEFORE_AUTH: allowed on a TCP connection before AUTH (anything
 *	else there closes the connection)
 * @MMXD_REQ_HELLO: only after HELLO (else -EPROTO)
 * @MMXD_REQ_BEFORE_HELLO: only before HELLO (else -EPROTO)
 * @MMXD_REQ_MEDIA: only in a server with media streams (else -ENOSYS)
 * @MMXD_REQ_DATA: data of any length follows the @size bytes
 * @MMXD_REQ_STREAM_DATA: as @MMXD_REQ_DATA but at least one byte of it (a
 *	stream's JPEG or audio), and the message may be as large as
 *	MMX_PROTO_MAX_MEDIA_REQUEST once the connection has a stream
 */
enum mmxd_request_flags {
	MMXD_REQ_BEFORE_AUTH = 1u << 0,
	MMXD_REQ_HELLO = 1u << 1,
	MMXD_REQ_MEDIA = 1u << 2,
	MMXD_REQ_DATA = 1u << 3,
	MMXD_REQ_STREAM_DATA = MMXD_REQ_DATA | 1u << 4,
	MMXD_REQ_BEFORE_HELLO = 1u << 5,
};

/*
 * Answer one complete request with exactly one reply; @len is what the
 * table allows.
 */
typedef void mmxd_handler(struct mmxd_server *s, struct mmxd_conn *c,
			  const struct mmx_proto_header *h,
			  const uint8_t *payload, size_t len);

/**
 * struct mmxd_request - one request type
 * @type: MMX_MSG_*
 * @flags: enum mmxd_request_flags
 * @size: the payload's bytes (with %MMXD_REQ_DATA: at least)
 * @handle: its handler
 */
struct mmxd_request {
	uint16_t type;
	uint16_t flags;
	uint32_t size;
	mmxd_handler *handle;
};

/*
 * An entry of the media and TIME tables (media.c, time.c): MMX_MSG_@t with
 * a struct @req payload (@f: more flags, the data ones), after HELLO, in a
 * server with media streams.
 */
#define MMXD_MEDIA_REQUEST(t, req, f, fn) \
	{ MMX_MSG_##t, MMXD_REQ_HELLO | MMXD_REQ_MEDIA | (f), sizeof(req), fn }

/**
 * struct mmxd_protocol - the requests of one protocol
 * @requests: the table
 * @n: its entries
 */
struct mmxd_protocol {
	const struct mmxd_request *requests;
	unsigned int n;
};

/*
 * Reply to @h on @c: error @err (0: success) with @msg, then @a and @b
 * (@alen, @blen bytes); logged at verbosity 1 (errors) or 2 (success).
 */
void mmxd_reply_parts(struct mmxd_server *s, struct mmxd_conn *c,
		      const struct mmx_proto_header *h, int err,
		      const char *msg, const void *a, size_t alen,
		      const void *b, size_t blen);
/* The same with one data part. */
void mmxd_reply(struct mmxd_server *s, struct mmxd_conn *c,
		const struct mmx_proto_header *h, int err, const char *msg,
		const void *data, size_t len);
/* @size bytes zeroed for the request, or NULL after replying -ENOMEM. */
void *mmxd_reply_calloc(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h, size_t size);

/* HELLO, PING, AUTH and the display requests (handlers.c). */
extern const struct mmxd_protocol mmxd_core_protocol;
/* @type's entry in the protocols' tables, or NULL. */
const struct mmxd_request *mmxd_request_find(uint16_t type);
/* Answer one complete message (through its table entry). */
void mmxd_handle(struct mmxd_server *s, struct mmxd_conn *c,
		 const struct mmx_proto_header *h, const uint8_t *payload,
		 size_t len);
/* The server's ops, ctx and options (for the handlers). */
const struct mmx_display_ops *
mmxd_server_ops(const struct mmxd_server *s, void **ctx);
const struct mmxd_options *mmxd_server_options(const struct mmxd_server *s);

/* Media streams (media.c) */

/**
 * struct mmxd_fb - a framebuffer of a stream's ring
 * @id: KMS framebuffer id
 * @handle: its buffer's handle (backend's)
 * @pitch: bytes a row
 * @map: the pixels, mapped (XRGB8888)
 * @size: bytes mapped
 */
struct mmxd_fb {
	uint32_t id;
	uint32_t handle;
	uint32_t pitch;
	void *map;
	size_t size;
};

/**
 * struct mmxd_video_target - where a stream's video goes
 * @crtc: CRTC id
 * @plane: plane id (an overlay of @crtc)
 * @crtc_width: the CRTC's mode width
 * @crtc_height: its height
 */
struct mmxd_video_target {
	uint32_t crtc;
	uint32_t plane;
	uint32_t crtc_width;
	uint32_t crtc_height;
};

/**
 * struct mmxd_sched_event - a timed commit completed (the kernel's
 *	struct drm_mmx_event_schedule)
 * @user: the user data given to schedule
 * @sched: the schedule id
 * @status: MMX_SCHEDULE_* (mmx_drm.h)
 * @error: its errno for FAILED
 * @sequence: vblank sequence
 * @timestamp_ns: vblank time, CLOCK_MONOTONIC ns
 */
struct mmxd_sched_event {
	uint64_t user;
	uint64_t sched;
	uint32_t status;
	int32_t error;
	uint64_t sequence;
	int64_t timestamp_ns;
};

/**
 * struct mmxd_media_ops - what streams need from the display (KMS and
 *	the decoder pool in mmxd: media_kms.c; a fake in the host tests).
 *	Every int function returns 0 or -errno.
 * @now: CLOCK_MONOTONIC ns
 * @target: pick the CRTC of @output (0: the first lit) and an overlay of
 *	it not in @busy (@nbusy plane ids of other streams)
 * @untarget: take the video off @t's plane (after the stream's last frame)
 * @fb_new: a @width x @height XRGB8888 framebuffer, mapped
 * @fb_free: remove and unmap it
 * @schedule: a timed commit of @t's plane showing @fb at @x,@y (@w x @h),
 *	at @exec_ns, expiring at @expire_ns, with user data @user; its
 *	schedule id in @sched
 * @retract: cancel pending timed commit @sched (-EBUSY: too late)
 * @replace: swap pending timed commit @sched for a new one (arguments as
 *	@schedule; the old one completes REPLACED), its id in @new_sched;
 *	-EBUSY: too late
 * @event_fd: fd that polls readable when @read_events has something
 * @read_events: up to @n completions, without blocking; the count
 * @decode_fd: the decoder pool's fd (mmx_decode_fd()); -1 without a pool
 * @decode_submit: mmx_decode_submit()
 * @decode_submit_audio: mmx_decode_submit_audio() (NULL: no MPEG)
 * @decode_collect: mmx_decode_collect()
 * @decode_cancel: mmx_decode_cancel()
 * @audio: the audio device ops, NULL without audio (struct
 *	mmxd_audio_ops)
 * @vblank_source: (TIME) the vblank clock source of @output's CRTC in
 *	@src, its handle (freed by @vblank_source_free) in @handle; NULL:
 *	no VBLANK clocks (-ENOSYS)
 * @vblank_source_free: free it
 */
struct mmxd_media_ops {
	int64_t (*now)(void *ctx);
	int (*target)(void *ctx, uint32_t output, const uint32_t *busy,
		      unsigned int nbusy, struct mmxd_video_target *t);
	void (*untarget)(void *ctx, const struct mmxd_video_target *t);
	int (*fb_new)(void *ctx, uint32_t width, uint32_t height,
		      struct mmxd_fb *fb);
	void (*fb_free)(void *ctx, struct mmxd_fb *fb);
	int (*schedule)(void *ctx, const struct mmxd_video_target *t,
			uint32_t fb, int32_t x, int32_t y, uint32_t w,
			uint32_t h, int64_t exec_ns, int64_t expire_ns,
			uint64_t user, uint64_t *sched);
	int (*retract)(void *ctx, uint64_t sched);
	int (*replace)(void *ctx, uint64_t sched,
		       const struct mmxd_video_target *t, uint32_t fb,
		       int32_t x, int32_t y, uint32_t w, uint32_t h,
		       int64_t exec_ns, int64_t expire_ns, uint64_t user,
		       uint64_t *new_sched);
	int (*event_fd)(void *ctx);
	int (*read_events)(void *ctx, struct mmxd_sched_event *ev,
			   unsigned int n);
	int (*decode_fd)(void *ctx);
	int (*decode_submit)(void *ctx, uint64_t id, const void *jpeg,
			     size_t len, void *dst, uint32_t pitch,
			     uint32_t width, uint32_t height);
	int (*decode_submit_audio)(void *ctx, uint64_t id, const void *mpeg,
				   size_t len, int16_t *dst,
				   uint32_t max_frames, uint32_t channels);
	int (*decode_collect)(void *ctx, struct mmx_decode_result *r,
			      unsigned int n);
	int (*decode_cancel)(void *ctx, uint64_t id);
	const struct mmxd_audio_ops *audio;
	int (*vblank_source)(void *ctx, uint32_t output,
			     struct mmx_clock_source *src, void **handle);
	void (*vblank_source_free)(void *ctx, void *handle);
};

/**
 * struct mmxd_audio_ops - one audio device (opened by the first stream
 *	with audio, closed with the last), as mmx_audio.h does it
 * @open: open the device at @rate, @channels; its handle in @out
 * @close: close it
 * @play: mmx_audio_play() of @frames frames of @samples (copied) at
 *	device position @at (frames)
 * @cancel: mmx_audio_cancel()
 * @written: mmx_audio_written()
 * @poll_fill: mmx_audio_poll_fill(); the count
 * @service: mmx_audio_service() then mmx_audio_collect() of up to @n
 *	finished plays (@ids, @end_ns); the count or -errno
 * @frame_to_ns: mmx_audio_frame_to_ns()
 * @ns_to_frame: mmx_audio_ns_to_frame()
 * @played: the position being heard now (frames), -EAGAIN if not running
 */
struct mmxd_audio_ops {
	int (*open)(void *ctx, uint32_t rate, uint32_t channels, void **out);
	void (*close)(void *ctx, void *a);
	int (*play)(void *ctx, void *a, uint64_t id, const int16_t *samples,
		    uint64_t frames, int64_t at);
	int (*cancel)(void *ctx, void *a, uint64_t id);
	int64_t (*written)(void *ctx, void *a);
	int (*poll_fill)(void *ctx, void *a, struct pollfd *pfd,
			 unsigned int n);
	int (*service)(void *ctx, void *a, uint64_t *ids, int64_t *end_ns,
		       unsigned int n);
	int (*frame_to_ns)(void *ctx, void *a, int64_t frame, int64_t *ns);
	int (*ns_to_frame)(void *ctx, void *a, int64_t ns, double *frame);
	int (*played)(void *ctx, void *a, int64_t *frames);
};

/* Server limits of streams. */
#define MMXD_MAX_STREAMS	8
/* Framebuffers of a stream's ring at most (plus the one on screen). */
#define MMXD_STREAM_BUFFERS	8
/* JPEG bytes a stream may hold waiting for a framebuffer. */
#define MMXD_STREAM_MAX_BYTES	(32u << 20)
/* Audio chunks a stream may have queued. */
#define MMXD_STREAM_MAX_AUDIO	256
/* Poll descriptors the media streams add to the server's at most. */
#define MMXD_MEDIA_POLLFDS	8

struct mmxd_media;

int mmxd_media_new(const struct mmxd_media_ops *ops, void *ctx,
		   struct mmxd_media **out);
/* Close every stream (their frames retracted, buffers freed). */
void mmxd_media_free(struct mmxd_media *m);
/* Serve streams on @s (the server polls @m's fds and calls it). */
void mmxd_server_set_media(struct mmxd_server *s, struct mmxd_media *m);
struct mmxd_media *mmxd_server_media(const struct mmxd_server *s);
/* MMX_PROTO_CAP_* bits streams add to HELLO's caps. */
uint32_t mmxd_media_caps(const struct mmxd_media *m);
/* The STREAM_* and CLOCK_QUERY requests. */
extern const struct mmxd_protocol mmxd_media_protocol;
/* Does @c have an open stream (media requests may be large)? */
int mmxd_media_conn_has_stream(const struct mmxd_media *m,
			       const struct mmxd_conn *c);
/* @c is going away: close its stream. */
void mmxd_media_conn_gone(struct mmxd_server *s, struct mmxd_media *m,
			  struct mmxd_conn *c);
/* Poll descriptors: fill up to @n, return how many. */
unsigned int mmxd_media_poll_fill(struct mmxd_media *m, struct pollfd *pfd,
				  unsigned int n);
/* After poll: handle what @pfd (as filled) says. */
void mmxd_media_poll_done(struct mmxd_server *s, struct mmxd_media *m,
			  const struct pollfd *pfd, unsigned int n);
/* Streams open. */
unsigned int mmxd_media_nstreams(const struct mmxd_media *m);
/* Milliseconds until a frame is due to be submitted again, -1: none. */
int mmxd_media_timeout_ms(struct mmxd_media *m);

/* For TIME (time.c): the backend. */
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
/* User data of TIME's timed commits has this bit (streams' never). */
#define MMXD_TIME_TOKEN		(1ull << 63)

int mmxd_time_new(struct mmxd_media *m, struct mmxd_time **out);
/* Retract every pending schedule, free everything. */
void mmxd_time_free(struct mmxd_time *t);
struct mmxd_time *mmxd_media_time(const struct mmxd_media *m);
/* The TIME requests but CLOCK_QUERY (media's). */
extern const struct mmxd_protocol mmxd_time_protocol;
/* A timed commit of TIME's (user & MMXD_TIME_TOKEN) completed. */
void mmxd_time_sched_done(struct mmxd_server *s, struct mmxd_time *t,
			  const struct mmxd_sched_event *e);
/* A play of TIME's (token & MMXD_TIME_TOKEN) finished at @end_ns. */
void mmxd_time_audio_done(struct mmxd_server *s, struct mmxd_time *t,
			  uint64_t token, int64_t end_ns);
/* Stream @stream closes: its audio schedules FAILED (-ENOENT). */
void mmxd_time_stream_gone(struct mmxd_server *s, struct mmxd_time *t,
			   uint32_t stream);
/* @c is going away: its schedules retracted, its clocks freed. */
void mmxd_time_conn_gone(struct mmxd_time *t, const struct mmxd_conn *c);

/*
 * The real backend over @d's KMS device, a decoder pool (NULL: no
 * streams) and the ALSA PCM @audio_device (NULL: "default") (media_kms.c).
 * Its ops: mmxd_kms_media_ops, or mmxd_kms_media_ops_noaudio.
 */
int mmxd_kms_media_new(struct mmx_display *d, struct mmx_decode_pool *pool,
		       const char *audio_device, void **ctx);
void mmxd_kms_media_free(void *ctx);
extern const struct mmxd_media_ops mmxd_kms_media_ops;
extern const struct mmxd_media_ops mmxd_kms_media_ops_noaudio;

/* TCP (socket.c) */
/*
 * Listen on "HOST:PORT" (HOST a name or address, "[v6]:PORT"; empty
 * HOST: 127.0.0.1). A non-loopback address is refused (-EPERM) unless
 * @any. Returns the listening fd or -errno.
 */
int mmxd_tcp_open(const char *spec, int any);
/*
 * Make a fresh random cookie and write it to @path (created 0600 by us,
 * its directory 0755 if missing; replaced atomically). 0 or -errno.
 */
int mmxd_cookie_write(const char *path, uint8_t *cookie, size_t len);

/* Listening socket (socket.c) */
/*
 * Create the UNIX socket at @path: its directory (0755) if missing, a
 * stale socket replaced (-EADDRINUSE when a daemon answers there), mode
 * 0660, group @gid unless (gid_t)-1. Returns the listening fd or -errno.
 */
int mmxd_socket_open(const char *path, gid_t gid);
/* Close @fd and remove @path. */
void mmxd_socket_close(int fd, const char *path);

/* The first descriptor a service manager passes (sd_listen_fds(3)). */
#define MMXD_LISTEN_FDS_START	3
/*
 * Socket activation, systemd's protocol (sd_listen_fds(3)) without
 * libsystemd: when $LISTEN_PID is our pid and $LISTEN_FDS is 1, fd 3 is a
 * listening UNIX stream socket to serve (made non-blocking and
 * close-on-exec). $LISTEN_PID, $LISTEN_FDS and $LISTEN_FDNAMES are removed
 * from the environment when they are ours. Returns 3, 0 when no socket is
 * passed, -EINVAL for a bad count, more than one socket or a socket that
 * is not a listening stream, -ENOTSOCK/-EBADF/-EAFNOSUPPORT for fd 3 not
 * a UNIX socket.
 */
int mmxd_socket_activated(void);
/* The path a UNIX socket is bound to ("@name" for an abstract one). */
int mmxd_socket_name(int fd, char *buf, size_t size);

/* Display setup (display.c) */
/*
 * Light every connected output at its preferred mode, left to right in KMS
 * order, on a screen framebuffer of ours (as Xorg does at startup; what
 * fbcon had lit is replaced). Returns the number of outputs lit or -errno.
 */
int mmxd_light_up(struct mmx_display *d, int verbose);

#endif /* MMXD_H */
