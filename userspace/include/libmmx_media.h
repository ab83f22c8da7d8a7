/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx media streams: a client of mmxd sends compressed video frames
 * (JPEG) and audio with presentation timestamps; mmxd decodes the frames
 * ahead of time in its sandboxed decoder pool into a ring of framebuffers
 * and schedules each as a timed atomic commit of the kernel (a plane's
 * FB_ID and position, shown at the first vblank at or after its time), so
 * the client never blocks on decoding or presentation and sends only the
 * compressed data. Documentation/mmxd-protocol.rst ("Media streams") has
 * the messages; Documentation/libmmx.rst the usage.
 *
 * Times: every *_ns below is int64 nanoseconds. "Stream time" is the time
 * of the stream clock, which mmx_stream_start() sets to 0; a frame with
 * pts P is shown at the first vblank at or after the CLOCK_MONOTONIC
 * moment the stream clock reads P. With audio as the clock
 * (MMX_STREAM_CLOCK_AUDIO) the stream time is the position of the audio
 * being heard (the PCM's played frames, mapped to CLOCK_MONOTONIC by
 * ALSA's timestamps), so video follows the audio.
 *
 * Streams exist on remote displays only (mmx_open() of "unix:PATH",
 * "tcp:HOST:PORT" or the default socket): the decoder pool, the
 * framebuffers, the kernel's timed-commit queue and the audio device are
 * mmxd's. A stream's calls are made from the thread that uses its display
 * (the stream shares the display's connection); a display has at most one
 * stream open at a time.
 *
 * Network: mmx_open("tcp:HOST:PORT") connects to an mmxd started with
 * --listen tcp:HOST:PORT. A TCP connection has no peer credentials, so
 * libmmx first sends the cookie mmxd wrote to its auth file: it reads
 * $MMX_AUTH_FILE, else MMX_DEFAULT_AUTH_FILE (32 random bytes, mode 0600:
 * whoever can read it may use the display). HOST is a name or address;
 * an IPv6 address goes in brackets ("tcp:[::1]:6000").
 *
 * Every function returns 0 (or a count) or a negative errno.
 */

#ifndef LIBMMX_MEDIA_H
#define LIBMMX_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#include "libmmx.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Default cookie file of mmxd --listen tcp:...; $MMX_AUTH_FILE overrides. */
#define MMX_DEFAULT_AUTH_FILE	"/run/mmx/cookie"
/* Bytes of the cookie. */
#define MMX_AUTH_COOKIE_LEN	32

/* struct mmx_stream_config.audio_format */
#define MMX_AUDIO_NONE		0	/* video only */
#define MMX_AUDIO_S16LE		1	/* PCM, signed 16-bit LE, interleaved */
#define MMX_AUDIO_MPEG		2	/* MPEG-1 Layer II/III frames */

/* struct mmx_stream_config.clock */
#define MMX_STREAM_CLOCK_DEFAULT	0	/* AUDIO with audio, else MONOTONIC */
#define MMX_STREAM_CLOCK_MONOTONIC	1	/* CLOCK_MONOTONIC from start */
#define MMX_STREAM_CLOCK_AUDIO		2	/* the PCM's position */

/* struct mmx_stream_config.flags */
/* Show the video on the CRTC's primary plane instead of an overlay
 * (reserved: mmxd 0.1 refuses it with -EOPNOTSUPP). */
#define MMX_STREAM_PRIMARY_PLANE	(1u << 0)

/* Largest frame size accepted. */
#define MMX_STREAM_MAX_DIM		4096
/* Largest JPEG or audio chunk in one message (4 MiB). */
#define MMX_STREAM_MAX_CHUNK		(4u << 20)

/**
 * struct mmx_stream_config - what mmx_stream_open() asks for (fixed
 * layout: it is also the STREAM_OPEN payload)
 * @output: RandR output (KMS connector) id whose CRTC shows the video;
 *	0: the first lit output (the first output with a CRTC)
 * @width: frame width in pixels, 1..MMX_STREAM_MAX_DIM: every JPEG of
 *	the stream must decode to this size (else DECODE_FAILED, -E2BIG)
 * @height: frame height in pixels, 1..MMX_STREAM_MAX_DIM
 * @x: position of the frame's top left corner on the CRTC (may be
 *	negative: the plane is clipped by the kernel); see @y
 * @y: -1,-1 (both): centred on the CRTC
 * @audio_format: MMX_AUDIO_NONE, MMX_AUDIO_S16LE or MMX_AUDIO_MPEG
 *	(MPEG-1/2 Layer I/II/III frames, decoded by mmxd's sandboxed
 *	decoder pool with libmpg123 into @audio_rate and @audio_channels:
 *	a chunk of another rate fails with -EINVAL in its event)
 * @audio_rate: frames per second of the audio (with audio; 8000..192000)
 * @audio_channels: 1..8 (with audio)
 * @clock: MMX_STREAM_CLOCK_*; AUDIO needs audio (-EINVAL otherwise)
 * @flags: MMX_STREAM_* flags
 * @max_frames: video frames queued in mmxd at once (sent, not yet
 *	completed); 0: the server's default (MMX_STREAM_DEFAULT_FRAMES);
 *	beyond the server's limit: -EINVAL
 * @reserved: must be 0
 */
struct mmx_stream_config {
	uint32_t output;
	uint32_t width;
	uint32_t height;
	int32_t x;
	int32_t y;
	uint32_t audio_format;
	uint32_t audio_rate;
	uint32_t audio_channels;
	uint32_t clock;
	uint32_t flags;
	uint32_t max_frames;
	uint32_t reserved[5];
};

/* Default and largest struct mmx_stream_config.max_frames. */
#define MMX_STREAM_DEFAULT_FRAMES	16
#define MMX_STREAM_MAX_FRAMES		48

/* struct mmx_stream_event.kind */
#define MMX_STREAM_VIDEO	1
#define MMX_STREAM_AUDIO	2

/* struct mmx_stream_event.status: how a frame (or audio chunk) ended */
enum mmx_stream_status {
	MMX_STREAM_PRESENTED = 1,	/* shown (audio: played out) */
	MMX_STREAM_EXPIRED = 2,		/* its vblank came after expire */
	MMX_STREAM_RETRACTED = 3,	/* mmx_stream_retract() or close */
	MMX_STREAM_REPLACED = 4,	/* mmx_stream_replace(): old content */
	MMX_STREAM_FAILED = 5,		/* the commit failed: @error */
	MMX_STREAM_DECODE_FAILED = 6,	/* not a decodable JPEG: @error */
};

/**
 * struct mmx_stream_event - the completion of one frame or audio chunk
 * (fixed layout: the STREAM_EVENT payload)
 * @id: the frame's id (audio: the chunk's sequence number, from 1)
 * @kind: MMX_STREAM_VIDEO or MMX_STREAM_AUDIO
 * @status: enum mmx_stream_status
 * @error: 0, or the negative errno of FAILED / DECODE_FAILED (-EBADMSG a
 *	corrupt JPEG, -E2BIG a size other than the stream's, -ETIMEDOUT the
 *	decoder took too long, -ENOENT the commit's framebuffer vanished)
 * @pad: 0
 * @pts_ns: the frame's pts (stream time)
 * @present_ns: PRESENTED: CLOCK_MONOTONIC time of the vblank that showed
 *	it (the kernel's event timestamp); EXPIRED: that of the first vblank
 *	it could have had; else 0
 * @stream_ns_at_present: the stream clock at @present_ns (the audio
 *	position with audio as the clock); 0 when @present_ns is
 * @sequence: the vblank sequence of @present_ns, 0 when none
 */
struct mmx_stream_event {
	uint64_t id;
	uint32_t kind;
	uint32_t status;
	int32_t error;
	uint32_t pad;
	int64_t pts_ns;
	int64_t present_ns;
	int64_t stream_ns_at_present;
	uint64_t sequence;
};

/**
 * struct mmx_stream_stats - what the client sent and received
 * @bytes_sent: bytes written to the socket for this stream's requests
 *	(headers and everything)
 * @bytes_received: bytes of replies and events read for this stream
 * @payload_bytes: JPEG and audio data bytes among @bytes_sent; the
 *	protocol overhead is @bytes_sent - @payload_bytes
 * @messages: requests sent for this stream
 * @video_frames: frames sent (mmx_stream_video() and replace)
 * @audio_chunks: audio chunks sent
 * @events: events received
 */
struct mmx_stream_stats {
	uint64_t bytes_sent;
	uint64_t bytes_received;
	uint64_t payload_bytes;
	uint64_t messages;
	uint64_t video_frames;
	uint64_t audio_chunks;
	uint64_t events;
};

/**
 * struct mmx_stream_clock - the stream clock (mmx_stream_query_clock())
 * @stream_ns: the stream time at @mono_ns (negative before it starts)
 * @mono_ns: the CLOCK_MONOTONIC time it was read for (in mmxd: the same
 *	clock on one machine; over TCP from another host only roughly
 *	comparable)
 * @running: mmx_stream_start() was called
 * @clock: MMX_STREAM_CLOCK_MONOTONIC or MMX_STREAM_CLOCK_AUDIO
 * @audio_frames: with audio: frames of audio played so far by the device
 */
struct mmx_stream_clock {
	int64_t stream_ns;
	int64_t mono_ns;
	uint32_t running;
	uint32_t clock;
	int64_t audio_frames;
};

struct mmx_stream;

/*
 * Open a stream on @d as @cfg says (its CRTC must be lit). Returns 0,
 * -EOPNOTSUPP on a local display or a server without streams (or for
 * MPEG audio while mmxd cannot decode it), -EBUSY when @d has a stream
 * open already, -EINVAL for a bad config, -ENODEV when the output is not
 * lit or has no plane for video, -ENOSPC when mmxd has no room (too many
 * streams, framebuffers) or the audio device's error.
 */
int mmx_stream_open(struct mmx_display *d,
		    const struct mmx_stream_config *cfg,
		    struct mmx_stream **out);

/*
 * Start the stream clock: stream time 0 is now + @delay_ns (>= 0) on the
 * stream clock. Frames may be sent before (they are decoded ahead and
 * scheduled once the clock runs). With audio, the audio device starts
 * playing then (its first frame being stream time 0). Once only (-EBUSY
 * after).
 */
int mmx_stream_start(struct mmx_stream *s, int64_t delay_ns);

/*
 * Queue JPEG frame @id (unique among the stream's pending frames, not 0)
 * to be shown at stream time @pts_ns and not later than @expire_ns
 * (>= @pts_ns; INT64_MAX: never expires). Returns once mmxd has queued it:
 * 0, -EAGAIN when the stream has max_frames frames pending (wait for
 * events), -EEXIST for an id pending already, -EINVAL (bad times, empty or
 * larger than MMX_STREAM_MAX_CHUNK). The frame's outcome comes as an event.
 */
int mmx_stream_video(struct mmx_stream *s, uint64_t id, int64_t pts_ns,
		     int64_t expire_ns, const void *jpeg, size_t len);

/*
 * Queue audio @data (@len bytes: whole PCM frames of the stream's format,
 * or whole MPEG frames) to
 * play from stream time @pts_ns (rounded to the nearest audio frame; what
 * is late is dropped; chunks may overlap: they are mixed). At most
 * MMX_STREAM_MAX_CHUNK bytes. Returns 0, -EINVAL, -EAGAIN (too much audio
 * queued), -EOPNOTSUPP (a stream without audio). An MMX_STREAM_AUDIO
 * event with the chunk's number (1, 2, ... in sending order) follows once
 * it has played.
 */
int mmx_stream_audio(struct mmx_stream *s, int64_t pts_ns, const void *data,
		     size_t len);

/*
 * Cancel frame @id: it is never shown; a RETRACTED event follows. Returns
 * 0, -ENOENT (no such pending frame) or -EBUSY (too late: it is being
 * shown or done; its own event says how it ended).
 */
int mmx_stream_retract(struct mmx_stream *s, uint64_t id);

/*
 * Replace pending frame @id by new content and times (same id): the old
 * content completes REPLACED (an event with the old pts), the new one as
 * any frame. Returns as mmx_stream_retract() and mmx_stream_video().
 */
int mmx_stream_replace(struct mmx_stream *s, uint64_t id, int64_t pts_ns,
		       int64_t expire_ns, const void *jpeg, size_t len);

/*
 * A file descriptor that polls readable when events may be waiting (the
 * display's socket). Events that arrived during another call are kept
 * inside libmmx: call mmx_stream_events() with timeout 0 before polling.
 */
int mmx_stream_fd(const struct mmx_stream *s);

/*
 * Up to @max events, waiting up to @timeout_ms (-1: forever, 0: not) for
 * the first. Returns how many (0 on timeout) or -errno.
 */
int mmx_stream_events(struct mmx_stream *s, struct mmx_stream_event *ev,
		      int max, int timeout_ms);

/* Read the stream clock now (asks mmxd). */
int mmx_stream_query_clock(struct mmx_stream *s, struct mmx_stream_clock *c);

/* Counters of this stream's traffic. */
int mmx_stream_stats(const struct mmx_stream *s, struct mmx_stream_stats *st);

/*
 * Close the stream: mmxd retracts its pending frames (no events for
 * them), stops its audio, takes the video off the screen and frees its
 * framebuffers. Closing the display (or losing the connection) does the
 * same. @s may be NULL.
 */
void mmx_stream_close(struct mmx_stream *s);

/*
 * TIME (protocol 1.2): clocks and schedules held by mmxd for this
 * connection, freed when it closes. Every function returns 0 or -errno
 * (-ENOSYS: not a remote display, or mmxd older than 1.2).
 */

/* mmx_remote_clock_create() kinds */
#define MMX_REMOTE_CLOCK_MONOTONIC	1	/* CLOCK_MONOTONIC */
#define MMX_REMOTE_CLOCK_VBLANK		2	/* an output's CRTC vblanks */
#define MMX_REMOTE_CLOCK_AUDIO		3	/* a stream's clock */

/* Clocks and pending schedules a connection may hold at most. */
#define MMX_REMOTE_CLOCK_MAX		16
#define MMX_SCHEDULE_PENDING_MAX	64

/**
 * struct mmx_remote_clock_state - a clock read (CLOCK_READ's reply)
 * @value_ns: the clock's value
 * @mono_ns: the CLOCK_MONOTONIC time it was read for (in mmxd)
 * @rate_num: rate numerator
 * @rate_den: rate denominator
 * @running: started and not stopped
 * @kind: MMX_REMOTE_CLOCK_*
 */
struct mmx_remote_clock_state {
	int64_t value_ns;
	int64_t mono_ns;
	int32_t rate_num;
	uint32_t rate_den;
	uint32_t running;
	uint32_t kind;
};

/* struct mmx_schedule_request.kind */
#define MMX_SCHEDULE_KIND_DISPLAY	1
#define MMX_SCHEDULE_KIND_AUDIO		2

/**
 * struct mmx_schedule_request - a request group valid over
 *	[@begin_ns, @end_ns) of a clock (the SCHEDULE_SUBMIT payload)
 * @id: chosen by the client, non-zero, unique among its pending ones
 * @clock: the clock (running, rate > 0) that @begin_ns and @end_ns are of
 * @kind: MMX_SCHEDULE_KIND_DISPLAY or MMX_SCHEDULE_KIND_AUDIO
 * @stream: DISPLAY: the client's stream whose overlay plane it moves;
 *	AUDIO: the client's stream with audio whose device plays it
 * @begin_ns: the clock value to execute at: the first vblank at or after
 *	its CLOCK_MONOTONIC time
 * @end_ns: > @begin_ns; if that vblank is at or after the CLOCK_MONOTONIC
 *	time of @end_ns, it is never shown (EXPIRED)
 * @x: DISPLAY: the stream's latest presented picture is shown at @x, @y of
 *	its CRTC (one kernel timed commit of the stream's overlay plane;
 *	the stream's next frame puts it back at the stream's position).
 *	AUDIO: 0; the request is followed by whole S16LE frames (the
 *	stream's channels, at its rate) that mmxd plays (mixed with the
 *	stream's audio) from the device position of @begin_ns; not played
 *	at all (EXPIRED) when the device has written past @end_ns already
 * @y: see @x
 * @flags: 0
 * @reserved: 0
 */
struct mmx_schedule_request {
	uint64_t id;
	uint32_t clock;
	uint32_t kind;
	uint32_t stream;
	uint32_t flags;
	int64_t begin_ns;
	int64_t end_ns;
	int32_t x;
	int32_t y;
	uint32_t reserved[4];
};

/* struct mmx_schedule_event.status */
enum mmx_time_status {
	MMX_TIME_PRESENTED = 1,
	MMX_TIME_EXPIRED = 2,
	MMX_TIME_RETRACTED = 3,
	MMX_TIME_REPLACED = 4,
	MMX_TIME_FAILED = 5,
};

/**
 * struct mmx_schedule_event - the completion of a schedule (the payload
 *	of an EVENT MMX_PROTO_EVENT_SCHEDULE)
 * @id: the schedule
 * @status: enum mmx_time_status
 * @error: FAILED: its negative errno, else 0
 * @present_ns: PRESENTED: CLOCK_MONOTONIC of the vblank that showed it;
 *	EXPIRED: of the first vblank it could have had; else 0
 * @sequence: the vblank sequence of @present_ns, 0 when none
 * @clock_ns: the schedule's clock at @present_ns (0 without)
 */
struct mmx_schedule_event {
	uint64_t id;
	uint32_t status;
	int32_t error;
	int64_t present_ns;
	uint64_t sequence;
	int64_t clock_ns;
};

/*
 * A clock of @kind over @target (VBLANK: an output id whose CRTC is lit;
 * AUDIO: the stream id of mmx_stream_id(); MONOTONIC: 0), stopped at 0,
 * rate 1/1; its id in @clock.
 */
int mmx_remote_clock_create(struct mmx_display *d, uint32_t kind,
			    uint32_t target, uint32_t *clock);
/* Start (stop) @clock at CLOCK_MONOTONIC @mono_ns, or now if < 0. */
int mmx_remote_clock_start(struct mmx_display *d, uint32_t clock,
			   int64_t mono_ns);
int mmx_remote_clock_stop(struct mmx_display *d, uint32_t clock,
			  int64_t mono_ns);
/* The clock advances @num / @den ns a source ns (-1000..1000 / 1..1000). */
int mmx_remote_clock_set_rate(struct mmx_display *d, uint32_t clock,
			      int32_t num, uint32_t den);
int mmx_remote_clock_query(struct mmx_display *d, uint32_t clock,
			   struct mmx_remote_clock_state *st);
int mmx_remote_clock_destroy(struct mmx_display *d, uint32_t clock);

/* Queue @req; its completion comes as an event (mmx_time_events()). */
int mmx_schedule_submit(struct mmx_display *d,
			const struct mmx_schedule_request *req);
/* The same for an AUDIO request with its samples (@len bytes). */
int mmx_schedule_submit_audio(struct mmx_display *d,
			      const struct mmx_schedule_request *req,
			      const void *samples, size_t len);
/* Cancel pending @id (-EBUSY once it started: its event says how). */
int mmx_schedule_retract(struct mmx_display *d, uint64_t id);
/* Swap pending @old_id for @req (old: REPLACED); -EBUSY once started. */
int mmx_schedule_replace(struct mmx_display *d, uint64_t old_id,
			 const struct mmx_schedule_request *req);
/*
 * Up to @max schedule completions, waiting up to @timeout_ms (-1:
 * forever, 0: not). The count (0 on timeout) or -errno.
 */
int mmx_time_events(struct mmx_display *d, struct mmx_schedule_event *ev,
		    int max, int timeout_ms);
/* The stream's id in mmxd (for MMX_REMOTE_CLOCK_AUDIO, schedules). */
uint32_t mmx_stream_id(const struct mmx_stream *s);

#ifdef __cplusplus
}
#endif

#endif /* LIBMMX_MEDIA_H */
