// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's media streams (Documentation/mmxd-protocol.rst, "Media
 * streams"): a client's JPEG frames are decoded ahead of time in the
 * sandboxed decoder pool into a ring of framebuffers, then each is
 * scheduled as a kernel timed commit of the stream's plane at the
 * CLOCK_MONOTONIC time of its pts on the stream clock; the kernel's
 * completion events become the client's stream events. Audio chunks are
 * played by the audio device at the position of their pts (MPEG decoded
 * in the pool first); with audio as the clock, the device's position
 * defines stream time.
 *
 * A frame goes WAITING (JPEG held, no framebuffer free) -> DECODING (in
 * the pool, into a framebuffer) -> DECODED (stream not started) ->
 * SCHEDULED (a kernel entry) -> done (an event; the framebuffer it showed
 * stays busy until the next frame is presented). A retracted or replaced
 * SCHEDULED frame waits in RETRACTING for the kernel's event. Nothing
 * here blocks: the pool, the kernel and the audio device are polled by the
 * server's loop.
 */

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mmxd_media.h"

/* MMX_SCHEDULE_* of mmx_drm.h, the kernel's completion statuses */
#define K_PRESENTED	1
#define K_EXPIRED	2
#define K_RETRACTED	3
#define K_REPLACED	4
#define K_FAILED	5

enum frame_state {
	F_WAITING,
	F_DECODING,
	F_DECODED,
	F_SCHEDULED,
	F_RETRACTING,
};

struct mframe {
	struct mframe *next;
	uint64_t id;
	uint64_t token;		/* decode id and kernel user data */
	int64_t pts;
	int64_t expire;
	enum frame_state state;
	int buf;		/* ring index or -1 */
	uint8_t *jpeg;		/* F_WAITING only */
	size_t len;
	uint64_t sched;		/* F_SCHEDULED, F_RETRACTING */
	int64_t exec;		/* F_SCHEDULED: its execution time */
	int64_t expire_mono;	/* and expiry */
	uint32_t report;	/* status to report instead of the kernel's */
	unsigned int retries;	/* resubmissions after a modeset */
	int64_t retry_at;	/* F_DECODED: not submitted before (mono) */
};

/*
 * A modeset of the stream's CRTC (a capture attaching the writeback
 * connector, an output reconfigured) fails its pending timed commits with
 * -EINVAL: such a frame is submitted again, MMXD_RETRY_NS later, up to
 * MMXD_RETRIES times, before it is reported FAILED.
 */
#define MMXD_RETRIES	5
#define MMXD_RETRY_NS	20000000ll

enum chunk_state {
	A_READY,	/* PCM, waiting for the start */
	A_DECODING,	/* MPEG in the pool */
	A_PLAYING,	/* queued on the device */
};

struct mchunk {
	struct mchunk *next;
	uint64_t num;		/* 1, 2, ... (the client's event id) */
	uint64_t token;
	int64_t pts;
	enum chunk_state state;
	int16_t *pcm;		/* A_READY; A_DECODING: the destination */
	uint64_t frames;
	uint32_t max_frames;
};

enum buf_state {
	B_FREE,
	B_BUSY,		/* a frame decodes into it or it is scheduled */
	B_SHOWN,	/* on screen */
};

struct mstream {
	struct mmxd_conn *conn;
	uint32_t id;
	struct mmx_stream_config cfg;
	struct mmxd_video_target t;
	int32_t x, y;
	uint32_t max_frames;
	struct mmxd_fb fb[MMXD_STREAM_BUFFERS + 1];
	enum buf_state bs[MMXD_STREAM_BUFFERS + 1];
	unsigned int nbuf;
	int shown_any;
	struct mframe *frames;
	unsigned int nframes;
	size_t bytes;
	int started;
	int64_t origin_ns;	/* CLOCK_MONOTONIC of stream time 0 */
	int audio;		/* has audio (owns the device) */
	int audio_clock;
	int64_t audio_origin;	/* device frame of stream time 0 */
	struct mchunk *chunks;
	unsigned int nchunks;
	uint64_t next_chunk;
};

struct mmxd_media {
	const struct mmxd_media_ops *ops;
	void *ctx;
	struct mstream *streams[MMXD_MAX_STREAMS];
	unsigned int n;
	uint64_t next_token;
	uint32_t next_id;
	void *audio;		/* the device, while a stream has audio */
	const struct mmxd_sink *sink;	/* the server's */
	const struct mmxd_media_listener *listener;	/* TIME */
	void *listener_ctx;
};

/* Where events go before the server binds the streams (nowhere). */
static const struct mmxd_sink unbound;

int mmxd_media_new(const struct mmxd_media_ops *ops, void *ctx,
		   struct mmxd_media **out)
{
	struct mmxd_media *m;

	*out = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;

	m->ops = ops;
	m->ctx = ctx;
	m->sink = &unbound;
	*out = m;
	return 0;
}

void mmxd_media_bind(struct mmxd_media *m, const struct mmxd_sink *sink)
{
	m->sink = sink ? sink : &unbound;
}

void mmxd_media_listen(struct mmxd_media *m,
		       const struct mmxd_media_listener *l, void *ctx)
{
	m->listener = l;
	m->listener_ctx = ctx;
}

const struct mmxd_media_ops *mmxd_media_backend(const struct mmxd_media *m,
						void **ctx)
{
	*ctx = m->ctx;
	return m->ops;
}

static struct mstream *stream_by_id(const struct mmxd_media *m, uint32_t id)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->streams[i]->id == id)
			return m->streams[i];
	return NULL;
}

int mmxd_media_stream_of(struct mmxd_media *m, const struct mmxd_conn *c,
			 uint32_t stream)
{
	struct mstream *st = stream_by_id(m, stream);

	return st && st->conn == c;
}

uint32_t mmxd_media_caps(const struct mmxd_media *m)
{
	uint32_t caps = MMX_PROTO_CAP_TIME;

	if (m->ops->decode_fd(m->ctx) < 0)
		return caps;
	caps |= MMX_PROTO_CAP_STREAM;
	if (m->ops->audio) {
		caps |= MMX_PROTO_CAP_AUDIO;
		if (m->ops->decode_submit_audio)
			caps |= MMX_PROTO_CAP_MPEG;
	}
	return caps;
}

unsigned int mmxd_media_nstreams(const struct mmxd_media *m)
{
	return m->n;
}

static struct mstream *stream_of_conn(const struct mmxd_media *m,
				      const struct mmxd_conn *c)
{
	unsigned int i;

	for (i = 0; i < m->n; i++)
		if (m->streams[i]->conn == c)
			return m->streams[i];
	return NULL;
}

int mmxd_media_conn_has_stream(const struct mmxd_media *m,
			       const struct mmxd_conn *c)
{
	return stream_of_conn(m, c) != NULL;
}

/* Clocks */

static int64_t ns_to_frames(int64_t ns, uint32_t rate)
{
	return (int64_t)llround((double)ns * rate / 1e9);
}

/* The CLOCK_MONOTONIC time at which the stream clock reads @t. */
static int64_t stream_to_mono(struct mmxd_media *m, struct mstream *st,
			      int64_t t)
{
	if (st->audio_clock && m->audio) {
		int64_t ns;

		if (!m->ops->audio->frame_to_ns(m->ctx, m->audio,
			st->audio_origin + ns_to_frames(t, st->cfg.audio_rate),
			&ns))
			return ns;
		/* the device does not run yet: its nominal start */
	}
	return st->origin_ns + t;
}

/* The stream clock at CLOCK_MONOTONIC @mono. */
static int64_t stream_at(struct mmxd_media *m, struct mstream *st,
			 int64_t mono)
{
	if (st->audio_clock && m->audio) {
		double frame;

		if (!m->ops->audio->ns_to_frame(m->ctx, m->audio, mono, &frame))
			return (int64_t)llround((frame - st->audio_origin) *
						1e9 / st->cfg.audio_rate);
	}
	return mono - st->origin_ns;
}

int mmxd_media_stream_picture(struct mmxd_media *m,
			      const struct mmxd_conn *c, uint32_t stream,
			      struct mmxd_video_target *t, uint32_t *fb,
			      uint32_t *w, uint32_t *h)
{
	struct mstream *st = stream_by_id(m, stream);
	unsigned int i;

	if (!st || st->conn != c)
		return -ENOENT;
	for (i = 0; i < st->nbuf; i++) {
		if (st->bs[i] == B_SHOWN) {
			*t = st->t;
			*fb = st->fb[i].id;
			*w = st->cfg.width;
			*h = st->cfg.height;
			return 0;
		}
	}
	return -EAGAIN;
}

int mmxd_media_stream_audio(struct mmxd_media *m, const struct mmxd_conn *c,
			    uint32_t stream, uint32_t *channels, void **dev)
{
	struct mstream *st = stream_by_id(m, stream);

	if (!st || (c && st->conn != c))
		return -ENOENT;
	if (!st->audio || !m->audio)
		return -EOPNOTSUPP;
	*channels = st->cfg.audio_channels;
	*dev = m->audio;
	return 0;
}

/* Stream @id in @st when its clock runs: 0, -ENOENT or -EAGAIN. */
static int started_stream(const struct mmxd_media *m, uint32_t id,
			  struct mstream **st)
{
	*st = stream_by_id(m, id);
	if (!*st)
		return -ENOENT;
	return (*st)->started ? 0 : -EAGAIN;
}

int mmxd_media_stream_time(struct mmxd_media *m, uint32_t stream,
			   int64_t mono, int64_t *ns)
{
	struct mstream *st;
	int ret = started_stream(m, stream, &st);

	if (ret)
		return ret;
	*ns = stream_at(m, st, mono);
	return 0;
}

int mmxd_media_stream_mono(struct mmxd_media *m, uint32_t stream, int64_t t,
			   int64_t *mono)
{
	struct mstream *st;
	int ret = started_stream(m, stream, &st);

	if (ret)
		return ret;
	*mono = stream_to_mono(m, st, t);
	return 0;
}

/* Events */

static void send_event(struct mmxd_media *m, struct mstream *st,
		       uint32_t kind, uint32_t status, int32_t error,
		       uint64_t id, int64_t pts, int64_t present,
		       int64_t stream_ns, uint64_t sequence)
{
	struct mmx_proto_stream_event se;

	memset(&se, 0, sizeof(se));
	se.stream = st->id;
	se.ev.id = id;
	se.ev.kind = kind;
	se.ev.status = status;
	se.ev.error = error;
	se.ev.pts_ns = pts;
	se.ev.present_ns = present;
	se.ev.stream_ns_at_present = stream_ns;
	se.ev.sequence = sequence;
	mmxd_sink_event(m->sink, st->conn, MMX_PROTO_EVENT_STREAM, &se,
			sizeof(se));
}

static void unlink_frame(struct mstream *st, struct mframe *f)
{
	struct mframe **pp;

	for (pp = &st->frames; *pp; pp = &(*pp)->next) {
		if (*pp == f) {
			*pp = f->next;
			st->nframes--;
			break;
		}
	}
	if (f->jpeg)
		st->bytes -= f->len;
	free(f->jpeg);
	free(f);
}

/* @f ended without being shown: its buffer is free again. */
static void frame_end(struct mmxd_media *m, struct mstream *st,
		      struct mframe *f, uint32_t status, int32_t error,
		      int64_t when, uint64_t sequence, int quiet)
{
	if (f->buf >= 0)
		st->bs[f->buf] = B_FREE;
	if (!quiet)
		send_event(m, st, MMX_STREAM_VIDEO, status, error, f->id,
			   f->pts, when, 0, sequence);
	unlink_frame(st, f);
}

static struct mframe *find_frame(struct mstream *st, uint64_t id)
{
	struct mframe *f;

	for (f = st->frames; f; f = f->next)
		if (f->id == id && f->state != F_RETRACTING)
			return f;
	return NULL;
}

/*
 * Take pending frame @f back, told to the client as @status: a frame not
 * at the kernel yet ends now; a scheduled one is retracted and ends with
 * the kernel's event (RETRACTED, reported as @status). 0, or the retract's
 * -errno (-EBUSY: too late) with @f as it was.
 */
static int frame_withdraw(struct mmxd_media *m, struct mstream *st,
			  struct mframe *f, uint32_t status)
{
	int ret;

	if (f->state != F_SCHEDULED) {
		if (f->state == F_DECODING)
			m->ops->decode_cancel(m->ctx, f->token);
		frame_end(m, st, f, status, 0, 0, 0, 0);
		return 0;
	}
	ret = m->ops->retract(m->ctx, f->sched);
	if (ret)
		return ret;
	f->state = F_RETRACTING;
	f->report = status;
	return 0;
}

static int free_buffer(struct mstream *st)
{
	unsigned int i;

	for (i = 0; i < st->nbuf; i++)
		if (st->bs[i] == B_FREE)
			return (int)i;
	return -1;
}

/*
 * With audio as the clock, the monotonic time of a pts is a prediction
 * from the audio device's fit, which starts only once the device runs and
 * then settles: move the frames submitted already (the kernel's REPLACE)
 * when the prediction moved by more than MMXD_FOLLOW_NS and they are not
 * about to execute.
 */
#define MMXD_FOLLOW_NS		2000000ll
#define MMXD_FOLLOW_MARGIN_NS	8000000ll

static void follow_audio(struct mmxd_media *m, struct mstream *st)
{
	int64_t now = m->ops->now(m->ctx);
	struct mframe *f;

	if (!m->ops->replace)
		return;
	for (f = st->frames; f; f = f->next) {
		int64_t exec, expire;
		uint64_t id;

		if (f->state != F_SCHEDULED ||
		    f->exec - now < MMXD_FOLLOW_MARGIN_NS)
			continue;
		exec = stream_to_mono(m, st, f->pts);
		if (llabs(exec - f->exec) <= MMXD_FOLLOW_NS ||
		    exec - now < MMXD_FOLLOW_MARGIN_NS)
			continue;
		expire = f->expire == INT64_MAX ? INT64_MAX :
			 stream_to_mono(m, st, f->expire);
		if (expire < exec)
			expire = exec;
		if (m->ops->replace(m->ctx, f->sched, &st->t,
				    st->fb[f->buf].id, st->x, st->y,
				    st->cfg.width, st->cfg.height, exec, expire,
				    f->token, &id))
			continue;	/* executing: it shows as it is */
		/* the old entry's REPLACED event matches no frame */
		f->sched = id;
		f->exec = exec;
		f->expire_mono = expire;
	}
}

/* Decode the waiting frames into the free framebuffers. */
static void pump_decode(struct mmxd_media *m, struct mstream *st)
{
	struct mframe *f, *next;

	for (f = st->frames; f; f = next) {
		int b, ret;

		next = f->next;
		if (f->state != F_WAITING)
			continue;
		b = free_buffer(st);
		if (b < 0)
			break;
		ret = m->ops->decode_submit(m->ctx, f->token, f->jpeg, f->len,
					    st->fb[b].map, st->fb[b].pitch,
					    st->cfg.width, st->cfg.height);
		if (ret == -EAGAIN)
			break;
		if (ret) {
			frame_end(m, st, f, MMX_STREAM_DECODE_FAILED, ret, 0,
				  0, 0);
			continue;
		}
		st->bs[b] = B_BUSY;
		f->buf = b;
		f->state = F_DECODING;
		st->bytes -= f->len;
		free(f->jpeg);
		f->jpeg = NULL;
	}
}

/* Schedule the decoded frames (the stream clock runs). */
static void pump_schedule(struct mmxd_media *m, struct mstream *st)
{
	struct mframe *f, *next;

	for (f = st->frames; f; f = next) {
		int64_t exec, expire;
		int ret;

		next = f->next;
		if (f->state != F_DECODED ||
		    (f->retry_at && f->retry_at > m->ops->now(m->ctx)))
			continue;
		exec = stream_to_mono(m, st, f->pts);
		expire = f->expire == INT64_MAX ? INT64_MAX :
			 stream_to_mono(m, st, f->expire);
		if (exec < 0)
			exec = 0;
		if (expire < exec)
			expire = exec;
		ret = m->ops->schedule(m->ctx, &st->t, st->fb[f->buf].id,
				       st->x, st->y, st->cfg.width,
				       st->cfg.height, exec, expire, f->token,
				       &f->sched);
		if (ret == -ENOSPC)
			break;	/* the kernel's queue: again at its next event */
		if (ret == -EINVAL && f->retries && f->retries < MMXD_RETRIES) {
			/* the CRTC is still being modeset */
			f->retries++;
			f->retry_at = m->ops->now(m->ctx) + MMXD_RETRY_NS;
			continue;
		}
		if (ret) {
			frame_end(m, st, f, MMX_STREAM_FAILED, ret, 0, 0, 0);
			continue;
		}
		f->state = F_SCHEDULED;
		f->exec = exec;
		f->expire_mono = expire;
	}
}

/* Play the audio chunks that are ready. */
static void pump_audio(struct mmxd_media *m, struct mstream *st)
{
	struct mchunk *a, **pp;

	for (pp = &st->chunks; (a = *pp);) {
		int ret;

		if (a->state != A_READY) {
			pp = &a->next;
			continue;
		}
		ret = m->ops->audio->play(m->ctx, m->audio, a->token, a->pcm,
			a->frames, st->audio_origin +
			ns_to_frames(a->pts, st->cfg.audio_rate));
		free(a->pcm);
		a->pcm = NULL;
		if (!ret) {
			a->state = A_PLAYING;
			pp = &a->next;
			continue;
		}
		send_event(m, st, MMX_STREAM_AUDIO, MMX_STREAM_FAILED, ret,
			   a->num, a->pts, 0, 0, 0);
		*pp = a->next;
		st->nchunks--;
		free(a);
	}
}

/* Move frames and audio along: decode what has a buffer, schedule what
 * is decoded once the clock runs, play what audio is ready. */
static void pump(struct mmxd_media *m, struct mstream *st)
{
	pump_decode(m, st);
	if (!st->started)
		return;
	pump_schedule(m, st);
	if (!st->audio)
		return;
	if (st->audio_clock)
		follow_audio(m, st);
	pump_audio(m, st);
}

/* Closing */

static void chunk_free(struct mmxd_media *m, struct mstream *st,
		       struct mchunk *a)
{
	if (a->state == A_DECODING)
		m->ops->decode_cancel(m->ctx, a->token);
	else if (a->state == A_PLAYING && m->audio)
		m->ops->audio->cancel(m->ctx, m->audio, a->token);
	free(a->pcm);
	free(a);
	st->nchunks--;
}

/* Close @st; @notify: its client and TIME may be told (not at the end). */
static void stream_free(struct mmxd_media *m, struct mstream *st, int notify)
{
	unsigned int i;

	while (st->frames) {
		struct mframe *f = st->frames;

		if (f->state == F_DECODING)
			m->ops->decode_cancel(m->ctx, f->token);
		else if (f->state == F_SCHEDULED)
			/* -EBUSY: executing; its event finds no frame */
			m->ops->retract(m->ctx, f->sched);
		frame_end(m, st, f, 0, 0, 0, 0, 1);
	}
	while (st->chunks) {
		struct mchunk *a = st->chunks;

		st->chunks = a->next;
		chunk_free(m, st, a);
	}
	if (st->shown_any)
		m->ops->untarget(m->ctx, &st->t);
	for (i = 0; i < st->nbuf; i++)
		m->ops->fb_free(m->ctx, &st->fb[i]);
	if (m->listener)
		m->listener->stream_gone(m->listener_ctx, st->id, notify);
	if (st->audio && m->audio) {
		m->ops->audio->close(m->ctx, m->audio);
		m->audio = NULL;
	}
	for (i = 0; i < m->n; i++) {
		if (m->streams[i] == st) {
			m->streams[i] = m->streams[--m->n];
			break;
		}
	}
	if (notify)
		mmxd_sink_log(m->sink, st->conn, 1, "stream %u closed", st->id);
	free(st);
}

void mmxd_media_conn_gone(struct mmxd_media *m, const struct mmxd_conn *c)
{
	struct mstream *st = stream_of_conn(m, c);

	if (st)
		stream_free(m, st, 1);
}

void mmxd_media_free(struct mmxd_media *m)
{
	if (!m)
		return;
	while (m->n)
		stream_free(m, m->streams[0], 0);
	free(m);
}

/* Requests */

static const char *check_config(const struct mmxd_media *m,
				const struct mmx_stream_config *cfg, int *err)
{
	unsigned int i;

	*err = -EINVAL;
	for (i = 0; i < sizeof(cfg->reserved) / sizeof(cfg->reserved[0]); i++)
		if (cfg->reserved[i])
			return "reserved fields must be 0";
	if (!cfg->width || !cfg->height || cfg->width > MMX_STREAM_MAX_DIM ||
	    cfg->height > MMX_STREAM_MAX_DIM)
		return "frame size out of 1..MMX_STREAM_MAX_DIM";
	if (cfg->flags & ~MMX_STREAM_PRIMARY_PLANE)
		return "unknown flags";
	if (cfg->flags & MMX_STREAM_PRIMARY_PLANE) {
		*err = -EOPNOTSUPP;
		return "the primary plane is not supported yet";
	}
	if (cfg->max_frames > MMX_STREAM_MAX_FRAMES)
		return "max_frames above MMX_STREAM_MAX_FRAMES";
	if (cfg->audio_format > MMX_AUDIO_MPEG)
		return "unknown audio format";
	if (cfg->clock > MMX_STREAM_CLOCK_AUDIO)
		return "unknown clock";
	if (cfg->audio_format == MMX_AUDIO_NONE) {
		if (cfg->clock == MMX_STREAM_CLOCK_AUDIO)
			return "the audio clock needs audio";
		if (cfg->audio_rate || cfg->audio_channels)
			return "audio rate and channels without audio";
		return NULL;
	}
	if (cfg->audio_rate < 8000 || cfg->audio_rate > 192000 ||
	    !cfg->audio_channels || cfg->audio_channels > 8)
		return "audio rate 8000..192000, channels 1..8";
	*err = -EOPNOTSUPP;
	if (!m->ops->audio)
		return "no audio device in this server";
	if (cfg->audio_format == MMX_AUDIO_MPEG &&
	    !m->ops->decode_submit_audio)
		return "no MPEG audio decoder in this server";
	*err = -EBUSY;
	if (m->audio)
		return "the audio device is used by another stream";
	return NULL;
}

/* @st's overlay plane (one no other stream has) and its position. */
static int stream_place(struct mmxd_media *m, struct mstream *st)
{
	const struct mmx_stream_config *cfg = &st->cfg;
	uint32_t busy[MMXD_MAX_STREAMS];
	unsigned int i;
	int ret;

	for (i = 0; i < m->n; i++)
		busy[i] = m->streams[i]->t.plane;
	ret = m->ops->target(m->ctx, cfg->output, busy, m->n, &st->t);
	if (ret)
		return ret;
	if (cfg->x == -1 && cfg->y == -1) {
		st->x = ((int32_t)st->t.crtc_width - (int32_t)cfg->width) / 2;
		st->y = ((int32_t)st->t.crtc_height - (int32_t)cfg->height) / 2;
	} else {
		st->x = cfg->x;
		st->y = cfg->y;
	}
	return 0;
}

/* @st's ring of framebuffers (all or none). */
static int stream_buffers(struct mmxd_media *m, struct mstream *st)
{
	unsigned int i;
	int ret;

	st->nbuf = (st->max_frames < MMXD_STREAM_BUFFERS ? st->max_frames :
		    MMXD_STREAM_BUFFERS) + 1;
	if (st->nbuf < 3)
		st->nbuf = 3;
	for (i = 0; i < st->nbuf; i++) {
		ret = m->ops->fb_new(m->ctx, st->cfg.width, st->cfg.height,
				     &st->fb[i]);
		if (ret) {
			while (i--)
				m->ops->fb_free(m->ctx, &st->fb[i]);
			return ret;
		}
	}
	return 0;
}

/*
 * A new stream's plane, framebuffers and audio device; -errno and why
 * (@why) with nothing held.
 */
static int stream_setup(struct mmxd_media *m, struct mstream *st,
			const char **why)
{
	unsigned int i;
	int ret;

	ret = stream_place(m, st);
	if (ret) {
		*why = "no lit output with a free overlay plane";
		return ret;
	}
	ret = stream_buffers(m, st);
	if (ret) {
		*why = "cannot create the framebuffers";
		return ret == -ENOMEM ? -ENOSPC : ret;
	}
	if (st->cfg.audio_format == MMX_AUDIO_NONE)
		return 0;
	ret = m->ops->audio->open(m->ctx, st->cfg.audio_rate,
				  st->cfg.audio_channels, &m->audio);
	if (ret) {
		for (i = 0; i < st->nbuf; i++)
			m->ops->fb_free(m->ctx, &st->fb[i]);
		m->audio = NULL;
		*why = "cannot open the audio device";
		return ret;
	}
	st->audio = 1;
	st->audio_clock = st->cfg.clock != MMX_STREAM_CLOCK_MONOTONIC;
	return 0;
}

/* @st is open: numbered, listed, told to its client. */
static void stream_opened(struct mmxd_media *m, struct mstream *st,
			  const struct mmxd_call *call)
{
	struct mmx_proto_stream_open_reply r;

	st->id = ++m->next_id ? m->next_id : ++m->next_id;
	m->streams[m->n++] = st;

	memset(&r, 0, sizeof(r));
	r.stream = st->id;
	r.crtc = st->t.crtc;
	r.plane = st->t.plane;
	r.max_frames = st->max_frames;
	r.x = st->x;
	r.y = st->y;
	r.audio_rate = st->audio ? st->cfg.audio_rate : 0;
	r.audio_channels = st->audio ? st->cfg.audio_channels : 0;
	mmxd_sink_log(m->sink, call->client, 1,
		      "stream %u: %ux%u at %d,%d on CRTC %u plane %u, %u buffers%s",
		      st->id, st->cfg.width, st->cfg.height, st->x, st->y,
		      st->t.crtc, st->t.plane, st->nbuf,
		      st->audio ? ", audio" : "");
	mmxd_call_reply(call, 0, "", &r, sizeof(r));
}

void mmxd_media_open(void *svc, const struct mmxd_call *call,
		     const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_media *m = svc;
	struct mmx_stream_config cfg;
	struct mstream *st;
	const char *why;
	int ret;

	memcpy(&cfg, payload, sizeof(cfg));
	if (stream_of_conn(m, call->client)) {
		mmxd_call_reply(call, -EBUSY, "a stream is open already", NULL,
				0);
		return;
	}
	why = check_config(m, &cfg, &ret);
	if (why) {
		mmxd_call_reply(call, ret, why, NULL, 0);
		return;
	}
	if (m->n >= MMXD_MAX_STREAMS) {
		mmxd_call_reply(call, -ENOSPC, "too many streams", NULL, 0);
		return;
	}
	st = mmxd_call_calloc(call, sizeof(*st));
	if (!st)
		return;
	st->conn = call->client;
	st->cfg = cfg;
	st->max_frames = cfg.max_frames ? cfg.max_frames :
			 MMX_STREAM_DEFAULT_FRAMES;
	ret = stream_setup(m, st, &why);
	if (ret) {
		free(st);
		mmxd_call_reply(call, ret, why, NULL, 0);
		return;
	}
	stream_opened(m, st, call);
}

/* Every media request but STREAM_OPEN starts with its stream's id. */
_Static_assert(offsetof(struct mmx_proto_stream_ref, stream) == 0 &&
	       offsetof(struct mmx_proto_stream_start, stream) == 0 &&
	       offsetof(struct mmx_proto_stream_video, stream) == 0 &&
	       offsetof(struct mmx_proto_stream_retract, stream) == 0 &&
	       offsetof(struct mmx_proto_stream_audio, stream) == 0,
	       "media requests start with the stream id");

/*
 * The stream @payload names, the caller's, or NULL after replying -ENOENT; the
 * request's @size fixed bytes copied to @req.
 */
static struct mstream *request_stream(struct mmxd_media *m,
				      const struct mmxd_call *call,
				      const uint8_t *payload, void *req,
				      size_t size)
{
	struct mstream *st = stream_of_conn(m, call->client);
	uint32_t id;

	memcpy(req, payload, size);
	memcpy(&id, payload, sizeof(id));
	if (st && st->id == id)
		return st;
	mmxd_call_reply(call, -ENOENT, "no such stream", NULL, 0);
	return NULL;
}

static void stream_start(struct mmxd_media *m, struct mstream *st,
			 const struct mmxd_call *call,
			 const struct mmx_proto_stream_start *req,
			 const uint8_t *data __maybe_unused,
			 size_t dlen __maybe_unused)
{
	if (req->pad || req->delay_ns < 0 ||
	    req->delay_ns > 60 * 1000000000ll) {
		mmxd_call_reply(call, -EINVAL, "delay 0..60 s, pad 0", NULL, 0);
		return;
	}
	if (st->started) {
		mmxd_call_reply(call, -EBUSY, "started already", NULL, 0);
		return;
	}
	st->started = 1;
	st->origin_ns = m->ops->now(m->ctx) + req->delay_ns;
	if (st->audio)
		st->audio_origin = m->ops->audio->written(m->ctx, m->audio) +
			ns_to_frames(req->delay_ns, st->cfg.audio_rate);
	pump(m, st);
	mmxd_call_reply(call, 0, "", NULL, 0);
}

/*
 * Why VIDEO or REPLACE (@replace) of frame @req->id (@old: the pending
 * one, or NULL) with @dlen bytes cannot be queued on @st: -errno and
 * @why, or 0.
 */
static int video_refused(const struct mstream *st,
			 const struct mmx_proto_stream_video *req, size_t dlen,
			 int replace, const struct mframe *old,
			 const char **why)
{
	if (req->flags || !req->id || req->expire_ns < req->pts_ns ||
	    dlen > MMX_STREAM_MAX_CHUNK) {
		*why = "flags 0, id non-zero, expire >= pts";
		return -EINVAL;
	}
	if (replace && !old) {
		*why = "no such pending frame";
		return -ENOENT;
	}
	if (!replace && old) {
		*why = "frame id pending already";
		return -EEXIST;
	}
	if ((!replace && st->nframes >= st->max_frames) ||
	    st->nframes >= 2 * st->max_frames ||
	    st->bytes + dlen > MMXD_STREAM_MAX_BYTES) {
		*why = "stream queue full";
		return -EAGAIN;
	}
	return 0;
}

/* A frame holding a copy of the JPEG @data, or NULL. */
static struct mframe *frame_new(const uint8_t *data, size_t dlen)
{
	struct mframe *f = calloc(1, sizeof(*f));

	if (f)
		f->jpeg = malloc(dlen);
	if (!f || !f->jpeg) {
		free(f);
		return NULL;
	}
	memcpy(f->jpeg, data, dlen);
	f->len = dlen;
	return f;
}

/* Queue @f last: frames are decoded in the order they came. */
static void frame_append(struct mstream *st, struct mframe *f)
{
	struct mframe **pp = &st->frames;

	while (*pp)
		pp = &(*pp)->next;
	*pp = f;
	st->nframes++;
	st->bytes += f->len;
}

static void stream_video(struct mmxd_media *m, struct mstream *st,
			 const struct mmxd_call *call,
			 const struct mmx_proto_stream_video *req,
			 const uint8_t *data, size_t dlen)
{
	int replace = call->h->type == MMX_MSG_STREAM_REPLACE;
	struct mframe *f, *old = find_frame(st, req->id);
	const char *why;
	int ret;

	ret = video_refused(st, req, dlen, replace, old, &why);
	if (ret) {
		mmxd_call_reply(call, ret, why, NULL, 0);
		return;
	}
	f = frame_new(data, dlen);
	if (!f) {
		mmxd_call_reply(call, -ENOMEM, "out of memory", NULL, 0);
		return;
	}
	ret = old ? frame_withdraw(m, st, old, MMX_STREAM_REPLACED) : 0;
	if (ret) {
		free(f->jpeg);
		free(f);
		mmxd_call_reply(call, ret,
				ret == -EBUSY ? "too late" : "retract failed",
				NULL, 0);
		return;
	}
	f->id = req->id;
	f->token = ++m->next_token;
	f->pts = req->pts_ns;
	f->expire = req->expire_ns;
	f->state = F_WAITING;
	f->buf = -1;
	frame_append(st, f);
	pump(m, st);
	mmxd_call_reply(call, 0, "", NULL, 0);
}

static void stream_retract(struct mmxd_media *m, struct mstream *st,
			   const struct mmxd_call *call,
			   const struct mmx_proto_stream_retract *req,
			   const uint8_t *data __maybe_unused,
			   size_t dlen __maybe_unused)
{
	struct mframe *f;
	int scheduled, ret;

	if (req->pad) {
		mmxd_call_reply(call, -EINVAL, "pad must be 0", NULL, 0);
		return;
	}
	f = find_frame(st, req->id);
	if (!f) {
		mmxd_call_reply(call, -ENOENT, "no such pending frame", NULL,
				0);
		return;
	}
	scheduled = f->state == F_SCHEDULED;
	ret = frame_withdraw(m, st, f, MMX_STREAM_RETRACTED);
	if (ret) {
		mmxd_call_reply(call, ret,
				ret == -EBUSY ? "too late" : "retract failed",
				NULL, 0);
		return;
	}
	if (!scheduled)
		pump(m, st);	/* its framebuffer is free */
	mmxd_call_reply(call, 0, "", NULL, 0);
}

/*
 * A chunk of @st's audio: S16LE @data copied (READY), or room for MPEG
 * @data's samples (DECODING, not yet submitted). NULL: out of memory.
 */
static struct mchunk *chunk_new(struct mmxd_media *m, struct mstream *st,
				int64_t pts, const uint8_t *data, size_t dlen)
{
	size_t fsize = 2u * st->cfg.audio_channels;
	struct mchunk *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->token = ++m->next_token;
	a->pts = pts;
	if (st->cfg.audio_format == MMX_AUDIO_S16LE) {
		a->frames = dlen / fsize;
		a->pcm = malloc(dlen);
		if (a->pcm)
			memcpy(a->pcm, data, dlen);
		a->state = A_READY;
	} else {
		/* at most 60 s a chunk; MPEG never packs more than 1152
		 * frames in 24 bytes (8 kbit/s at 8 kHz: 48 a byte) */
		uint64_t max = (uint64_t)dlen * 48 + 1152;

		if (max > 60ull * st->cfg.audio_rate)
			max = 60ull * st->cfg.audio_rate;
		a->max_frames = (uint32_t)max;
		a->pcm = malloc((size_t)max * fsize);
		a->state = A_DECODING;
	}
	if (!a->pcm) {
		free(a);
		return NULL;
	}
	return a;
}

static void stream_audio(struct mmxd_media *m, struct mstream *st,
			 const struct mmxd_call *call,
			 const struct mmx_proto_stream_audio *req,
			 const uint8_t *data, size_t dlen)
{
	struct mchunk *a, **pp;
	int ret;

	if (!st->audio) {
		mmxd_call_reply(call, -EOPNOTSUPP, "a stream without audio",
				NULL, 0);
		return;
	}
	if (req->flags || dlen > MMX_STREAM_MAX_CHUNK ||
	    (st->cfg.audio_format == MMX_AUDIO_S16LE &&
	     dlen % (2u * st->cfg.audio_channels))) {
		mmxd_call_reply(call, -EINVAL,
				"flags 0, whole frames, at most MMX_STREAM_MAX_CHUNK",
				NULL, 0);
		return;
	}
	if (st->nchunks >= MMXD_STREAM_MAX_AUDIO) {
		mmxd_call_reply(call, -EAGAIN, "audio queue full", NULL, 0);
		return;
	}
	a = chunk_new(m, st, req->pts_ns, data, dlen);
	if (!a) {
		mmxd_call_reply(call, -ENOMEM, "out of memory", NULL, 0);
		return;
	}
	if (a->state == A_DECODING) {
		ret = m->ops->decode_submit_audio(m->ctx, a->token, data, dlen,
						  a->pcm, a->max_frames,
						  st->cfg.audio_channels);
		if (ret) {
			free(a->pcm);
			free(a);
			mmxd_call_reply(call, ret, "decoder queue", NULL, 0);
			return;
		}
	}
	a->num = ++st->next_chunk;
	for (pp = &st->chunks; *pp; pp = &(*pp)->next)
		;
	*pp = a;
	st->nchunks++;
	pump(m, st);
	mmxd_call_reply(call, 0, "", NULL, 0);
}

static void stream_clock_query(struct mmxd_media *m, struct mstream *st,
			       const struct mmxd_call *call,
			       const struct mmx_proto_stream_ref *req
			       __maybe_unused,
			       const uint8_t *data __maybe_unused,
			       size_t dlen __maybe_unused)
{
	struct mmx_stream_clock r;

	memset(&r, 0, sizeof(r));
	r.mono_ns = m->ops->now(m->ctx);
	r.running = (uint32_t)st->started;
	r.clock = st->audio_clock ? MMX_STREAM_CLOCK_AUDIO :
		  MMX_STREAM_CLOCK_MONOTONIC;
	r.stream_ns = st->started ? stream_at(m, st, r.mono_ns) : 0;
	if (st->audio && m->audio) {
		int64_t played;

		if (!m->ops->audio->played(m->ctx, m->audio, &played))
			r.audio_frames = played;
	}
	mmxd_call_reply(call, 0, "", &r, sizeof(r));
}

static void stream_close(struct mmxd_media *m, struct mstream *st,
			 const struct mmxd_call *call,
			 const struct mmx_proto_stream_ref *req __maybe_unused,
			 const uint8_t *data __maybe_unused,
			 size_t dlen __maybe_unused)
{
	stream_free(m, st, 1);
	mmxd_call_reply(call, 0, "", NULL, 0);
}

/*
 * STREAM_REQUEST(fn, req) makes the handler mmxd_media_@fn of a request
 * on the caller's stream: it finds the stream the request names (else
 * replies -ENOENT) and calls stream_@fn() with it, the request's fixed
 * part (a struct @req) and the data after it.
 */
#define STREAM_REQUEST(fn, req_type)					\
void mmxd_media_##fn(void *svc, const struct mmxd_call *call,		\
		     const uint8_t *payload, size_t len)		\
{									\
	req_type req;							\
	struct mstream *st;						\
									\
	st = request_stream(svc, call, payload, &req, sizeof(req));	\
	if (st)								\
		stream_##fn(svc, st, call, &req, payload + sizeof(req),	\
			    len - sizeof(req));				\
}

STREAM_REQUEST(start, struct mmx_proto_stream_start)
STREAM_REQUEST(video, struct mmx_proto_stream_video)
STREAM_REQUEST(retract, struct mmx_proto_stream_retract)
STREAM_REQUEST(audio, struct mmx_proto_stream_audio)
STREAM_REQUEST(clock_query, struct mmx_proto_stream_ref)
STREAM_REQUEST(close, struct mmx_proto_stream_ref)

/* Completions */

static int find_token(struct mmxd_media *m, uint64_t token,
		      struct mstream **stp, struct mframe **fp,
		      struct mchunk **ap)
{
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		struct mstream *st = m->streams[i];
		struct mframe *f;
		struct mchunk *a;

		for (f = st->frames; f; f = f->next) {
			if (f->token == token) {
				*stp = st;
				*fp = f;
				return 1;
			}
		}
		for (a = st->chunks; a; a = a->next) {
			if (a->token == token) {
				*stp = st;
				*ap = a;
				return 1;
			}
		}
	}
	return 0;
}

static void unlink_chunk(struct mstream *st, struct mchunk *a)
{
	struct mchunk **pp;

	for (pp = &st->chunks; *pp; pp = &(*pp)->next) {
		if (*pp == a) {
			*pp = a->next;
			st->nchunks--;
			break;
		}
	}
	free(a->pcm);
	free(a);
}

static void decode_done(struct mmxd_media *m,
			const struct mmx_decode_result *r)
{
	struct mstream *st = NULL;
	struct mframe *f = NULL;
	struct mchunk *a = NULL;

	if (!find_token(m, r->id, &st, &f, &a))
		return;
	if (a) {
		if (a->state != A_DECODING)
			return;
		if (!r->status && (r->rate != st->cfg.audio_rate ||
				   r->height != st->cfg.audio_channels ||
				   !r->width)) {
			send_event(m, st, MMX_STREAM_AUDIO,
				   MMX_STREAM_DECODE_FAILED, -EINVAL, a->num,
				   a->pts, 0, 0, 0);
			unlink_chunk(st, a);
		} else if (r->status) {
			send_event(m, st, MMX_STREAM_AUDIO,
				   MMX_STREAM_DECODE_FAILED, r->status, a->num,
				   a->pts, 0, 0, 0);
			unlink_chunk(st, a);
		} else {
			a->frames = r->width;
			a->state = A_READY;
		}
	} else {
		if (f->state != F_DECODING)
			return;
		if (!r->status && (r->width != st->cfg.width ||
				   r->height != st->cfg.height)) {
			frame_end(m, st, f, MMX_STREAM_DECODE_FAILED, -E2BIG, 0,
				  0, 0);
		} else if (r->status) {
			frame_end(m, st, f, MMX_STREAM_DECODE_FAILED, r->status,
				  0, 0, 0);
		} else {
			f->state = F_DECODED;
		}
	}
	pump(m, st);
}

/* The stream status of a frame whose timed commit ended @kstatus unshown. */
static uint32_t stream_status(uint32_t kstatus)
{
	switch (kstatus) {
	case K_EXPIRED:
		return MMX_STREAM_EXPIRED;
	case K_RETRACTED:
		return MMX_STREAM_RETRACTED;
	case K_REPLACED:
		return MMX_STREAM_REPLACED;
	default:
		return MMX_STREAM_FAILED;
	}
}

static void sched_done(struct mmxd_media *m,
		       const struct mmxd_sched_event *e)
{
	struct mstream *st = NULL;
	struct mframe *f = NULL;
	struct mchunk *a = NULL;
	uint32_t status;

	if (e->user & MMXD_MEDIA_FOREIGN) {
		if (m->listener)
			m->listener->sched_done(m->listener_ctx, e);
		return;
	}
	if (!find_token(m, e->user, &st, &f, &a) || !f ||
	    (f->state != F_SCHEDULED && f->state != F_RETRACTING) ||
	    f->sched != e->sched)
		return;
	if (e->status == K_PRESENTED) {
		int64_t at = stream_at(m, st, e->timestamp_ns);
		unsigned int i;

		/* the previous picture is off the screen now */
		for (i = 0; i < st->nbuf; i++)
			if (st->bs[i] == B_SHOWN)
				st->bs[i] = B_FREE;
		st->bs[f->buf] = B_SHOWN;
		st->shown_any = 1;
		send_event(m, st, MMX_STREAM_VIDEO, MMX_STREAM_PRESENTED, 0,
			   f->id, f->pts, e->timestamp_ns, at, e->sequence);
		f->buf = -1;
		unlink_frame(st, f);
	} else if (e->status == K_FAILED && e->error == -EINVAL &&
		   !f->report && f->state == F_SCHEDULED &&
		   f->retries < MMXD_RETRIES) {
		/* failed by a modeset: again, a little later */
		f->retries++;
		f->state = F_DECODED;
		f->retry_at = m->ops->now(m->ctx) + MMXD_RETRY_NS;
	} else {
		status = f->report ? f->report : stream_status(e->status);
		frame_end(m, st, f, status, e->status == K_FAILED ?
			  e->error : 0, e->timestamp_ns,
			  e->status == K_EXPIRED ? e->sequence : 0, 0);
	}
	pump(m, st);
}

static void audio_done(struct mmxd_media *m,
		       uint64_t token, int64_t end_ns)
{
	struct mstream *st = NULL;
	struct mframe *f = NULL;
	struct mchunk *a = NULL;

	if (token & MMXD_MEDIA_FOREIGN) {
		if (m->listener)
			m->listener->audio_done(m->listener_ctx, token, end_ns);
		return;
	}
	if (!find_token(m, token, &st, &f, &a) || !a ||
	    a->state != A_PLAYING)
		return;
	send_event(m, st, MMX_STREAM_AUDIO, MMX_STREAM_PRESENTED, 0, a->num,
		   a->pts, end_ns, end_ns ? stream_at(m, st, end_ns) : 0, 0);
	unlink_chunk(st, a);
}

int mmxd_media_timeout_ms(struct mmxd_media *m)
{
	int64_t first = 0, now;
	unsigned int i;

	for (i = 0; i < m->n; i++) {
		struct mframe *f;

		if (!m->streams[i]->started)
			continue;
		for (f = m->streams[i]->frames; f; f = f->next)
			if (f->state == F_DECODED && f->retry_at &&
			    (!first || f->retry_at < first))
				first = f->retry_at;
	}
	if (!first)
		return -1;
	now = m->ops->now(m->ctx);
	return first <= now ? 0 : (int)((first - now) / 1000000 + 1);
}

/* Poll set: [event fd] [decode fd] [audio fds...] */
unsigned int mmxd_media_poll_fill(struct mmxd_media *m, struct pollfd *pfd,
				  unsigned int n)
{
	unsigned int k = 0;
	int fd;

	if (n < 2)
		return 0;
	fd = m->ops->event_fd(m->ctx);
	pfd[k++] = (struct pollfd){ .fd = fd, .events = fd >= 0 ? POLLIN : 0 };
	fd = m->ops->decode_fd(m->ctx);
	pfd[k++] = (struct pollfd){ .fd = fd, .events = fd >= 0 ? POLLIN : 0 };
	if (m->audio) {
		int ret = m->ops->audio->poll_fill(m->ctx, m->audio, pfd + k,
						   n - k);

		if (ret > 0)
			k += (unsigned int)ret;
	}
	return k;
}

void mmxd_media_poll_done(struct mmxd_media *m, const struct pollfd *pfd,
			  unsigned int n)
{
	unsigned int i;
	int ret;

	if (n >= 1 && pfd[0].fd >= 0 && (pfd[0].revents & POLLIN)) {
		struct mmxd_sched_event ev[16];

		ret = m->ops->read_events(m->ctx, ev, 16);
		for (i = 0; ret > 0 && i < (unsigned int)ret; i++)
			sched_done(m, &ev[i]);
	}
	if (n >= 2 && pfd[1].fd >= 0 && (pfd[1].revents & POLLIN)) {
		struct mmx_decode_result r[16];

		do {
			ret = m->ops->decode_collect(m->ctx, r, 16);
			for (i = 0; ret > 0 && i < (unsigned int)ret; i++)
				decode_done(m, &r[i]);
		} while (ret == 16);
	}
	for (i = 0; i < m->n; i++)
		pump(m, m->streams[i]);
	if (n > 2 && m->audio) {
		unsigned int any = 0;

		for (i = 2; i < n; i++)
			any |= pfd[i].revents;
		if (any) {
			uint64_t ids[16];
			int64_t end[16];

			ret = m->ops->audio->service(m->ctx, m->audio, ids, end,
						     16);
			for (i = 0; ret > 0 && i < (unsigned int)ret; i++)
				audio_done(m, ids[i], end[i]);
		}
	}
}
