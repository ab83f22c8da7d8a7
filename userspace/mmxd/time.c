// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's TIME requests (protocol 1.2): clock objects of a connection over
 * CLOCK_MONOTONIC, a CRTC's vblanks or a stream's clock (libmmx's
 * mmx_clock.h), and schedules: request groups valid over [begin, end) of
 * such a clock, each mapped onto one kernel timed commit (exec = the
 * CLOCK_MONOTONIC time of begin, expire = that of end, less 1 ns), with
 * retract, replace and an EVENT for each completion. A display request
 * shows the client's stream's latest presented picture at a position of
 * its CRTC: the only plane it touches is the overlay mmxd gave the stream.
 * Documentation/mmxd-protocol.rst has the messages.
 */

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmxd_media.h"

/* MMX_SCHEDULE_* of mmx_drm.h, the kernel's completion statuses */
#define K_PRESENTED	1
#define K_EXPIRED	2
#define K_RETRACTED	3
#define K_REPLACED	4
#define K_FAILED	5

/* CLOCK_START/STOP times at most this far from now */
#define TIME_MAX_AWAY_NS	(60ll * MMX_NSEC_PER_SEC)
/* Display positions within +-this */
#define TIME_MAX_POS		16384
/* Rates: |num| and den at most */
#define TIME_MAX_RATE		1000

/* An AUDIO clock's source: the stream's clock, looked up on each use. */
struct stream_src {
	struct mmxd_media *m;
	uint32_t stream;
};

/*
 * What a clock and a schedule have in common: a client's object, found by
 * its id on a list of TIME's, until retired (a schedule retracted or
 * replaced, whose event is to come, is no longer found by its id).
 */
struct titem {
	struct titem *next;
	struct mmxd_conn *conn;
	uint64_t id;
	int retired;
};

struct tclock {
	struct titem item;
	uint32_t kind;
	struct mmx_clock *clock;
	void *vblank;		/* the backend's handle (VBLANK) */
	struct stream_src *ss;	/* AUDIO */
};

/* A schedule: pending (retract and replace may succeed) until retired. */
struct tsched {
	struct titem item;
	uint64_t token;
	uint64_t ksched;
	uint32_t clock;
	uint32_t kind;		/* MMX_SCHEDULE_KIND_* */
	uint32_t stream;
	int64_t exec;		/* AUDIO: CLOCK_MONOTONIC of begin */
	int64_t at;		/* AUDIO: the device frame it plays from */
};

struct mmxd_time {
	struct mmxd_media *m;
	const struct mmxd_sink *sink;	/* the server's */
	struct titem *clocks;	/* struct tclock */
	struct titem *scheds;	/* struct tsched */
	uint32_t next_clock;
	uint64_t next_token;
};

#define to_clock(it)	((struct tclock *)(it))
#define to_sched(it)	((struct tsched *)(it))
_Static_assert(offsetof(struct tclock, item) == 0 &&
	       offsetof(struct tsched, item) == 0, "items first");

/* @c's item @id on @list, not retired, or NULL. */
static struct titem *item_find(struct titem *list, const struct mmxd_conn *c,
			       uint64_t id)
{
	for (; list; list = list->next)
		if (list->conn == c && list->id == id && !list->retired)
			return list;
	return NULL;
}

/* How many items of @c are on @list (retired ones too). */
static unsigned int items_of(const struct titem *list,
			     const struct mmxd_conn *c)
{
	unsigned int n = 0;

	for (; list; list = list->next)
		n += list->conn == c;
	return n;
}

static void item_push(struct titem **list, struct titem *it)
{
	it->next = *list;
	*list = it;
}

static void item_unlink(struct titem **list, struct titem *it)
{
	while (*list != it)
		list = &(*list)->next;
	*list = it->next;
}

static const struct mmxd_media_listener time_listener;

int mmxd_time_new(struct mmxd_media *m, const struct mmxd_sink *sink,
		  struct mmxd_time **out)
{
	struct mmxd_time *t = calloc(1, sizeof(*t));

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->m = m;
	t->sink = sink;
	mmxd_media_listen(m, &time_listener, t);
	*out = t;
	return 0;
}

static void clock_free(struct mmxd_time *t, struct tclock *k)
{
	const struct mmxd_media_ops *ops;
	void *ctx;

	ops = mmxd_media_backend(t->m, &ctx);
	mmx_clock_free(k->clock);
	if (k->vblank && ops->vblank_source_free)
		ops->vblank_source_free(ctx, k->vblank);
	free(k->ss);
	free(k);
}

/* Drop @c's schedules (NULL: all), retracting the pending ones. */
static void scheds_drop(struct mmxd_time *t, const struct mmxd_conn *c)
{
	const struct mmxd_media_ops *ops;
	struct titem **pp = &t->scheds;
	void *ctx;

	ops = mmxd_media_backend(t->m, &ctx);
	while (*pp) {
		struct tsched *e = to_sched(*pp);

		if (c && e->item.conn != c) {
			pp = &e->item.next;
			continue;
		}
		/* -EBUSY: executing; its event finds nothing */
		if (!e->item.retired &&
		    e->kind == MMX_SCHEDULE_KIND_DISPLAY) {
			ops->retract(ctx, e->ksched);
		} else if (!e->item.retired) {
			uint32_t ch;
			void *dev;

			if (!mmxd_media_stream_audio(t->m, NULL, e->stream,
						     &ch, &dev))
				ops->audio->cancel(ctx, dev, e->token);
		}
		*pp = e->item.next;
		free(e);
	}
}

void mmxd_time_conn_gone(struct mmxd_time *t, const struct mmxd_conn *c)
{
	struct titem **pp = &t->clocks;

	scheds_drop(t, c);
	while (*pp) {
		struct tclock *k = to_clock(*pp);

		if (k->item.conn != c) {
			pp = &k->item.next;
			continue;
		}
		*pp = k->item.next;
		clock_free(t, k);
	}
}

void mmxd_time_free(struct mmxd_time *t)
{
	if (!t)
		return;
	mmxd_media_listen(t->m, NULL, NULL);
	scheds_drop(t, NULL);
	while (t->clocks) {
		struct tclock *k = to_clock(t->clocks);

		t->clocks = k->item.next;
		clock_free(t, k);
	}
	free(t);
}

static int64_t now_ns(struct mmxd_time *t)
{
	const struct mmxd_media_ops *ops;
	void *ctx;

	ops = mmxd_media_backend(t->m, &ctx);
	return ops->now(ctx);
}

/* Clocks */

static int ss_now(void *ctx, int64_t mono_ns, int64_t *src_ns)
{
	struct stream_src *ss = ctx;

	return mmxd_media_stream_time(ss->m, ss->stream, mono_ns, src_ns);
}

static int ss_to_monotonic(void *ctx, int64_t src_ns, int64_t *mono_ns)
{
	struct stream_src *ss = ctx;

	return mmxd_media_stream_mono(ss->m, ss->stream, src_ns, mono_ns);
}

static struct tclock *clock_find(struct mmxd_time *t,
				 const struct mmxd_conn *c, uint32_t id)
{
	return to_clock(item_find(t->clocks, c, id));
}

/* An AUDIO clock's source: stream @stream's clock. */
static int clock_stream_source(struct mmxd_time *t, struct tclock *k,
			       uint32_t stream, struct mmx_clock_source *src)
{
	if (!mmxd_media_stream_of(t->m, k->item.conn, stream))
		return -ENOENT;
	k->ss = malloc(sizeof(*k->ss));
	if (!k->ss)
		return -ENOMEM;
	k->ss->m = t->m;
	k->ss->stream = stream;
	*src = (struct mmx_clock_source){
		.now = ss_now,
		.to_monotonic = ss_to_monotonic,
		.ctx = k->ss,
	};
	return 0;
}

/* The source of @k, a clock of @req's kind over its target. */
static int clock_source(struct mmxd_time *t, struct tclock *k,
			const struct mmx_proto_clock_create *req,
			struct mmx_clock_source *src)
{
	const struct mmxd_media_ops *ops;
	void *ctx;

	ops = mmxd_media_backend(t->m, &ctx);
	switch (req->kind) {
	case MMX_REMOTE_CLOCK_MONOTONIC:
		if (req->target)
			return -EINVAL;
		*src = mmx_clock_source_monotonic;
		return 0;
	case MMX_REMOTE_CLOCK_VBLANK:
		if (!ops->vblank_source)
			return -ENOSYS;
		return ops->vblank_source(ctx, req->target, src, &k->vblank);
	case MMX_REMOTE_CLOCK_AUDIO:
		return clock_stream_source(t, k, req->target, src);
	default:
		return -EINVAL;
	}
}

void mmxd_time_clock_create(void *svc, const struct mmxd_call *call,
			    const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_time *t = svc;
	struct mmxd_conn *c = call->client;
	struct mmx_proto_clock_create req;
	struct mmx_proto_clock_ref r;
	struct mmx_clock_source src;
	struct tclock *k;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (items_of(t->clocks, c) >= MMXD_TIME_MAX_CLOCKS) {
		mmxd_call_reply(call, -ENOSPC, "too many clocks", NULL, 0);
		return;
	}
	k = mmxd_call_calloc(call, sizeof(*k));
	if (!k)
		return;
	k->item.conn = c;
	k->kind = req.kind;
	ret = clock_source(t, k, &req, &src);
	if (!ret)
		ret = mmx_clock_new(&src, &k->clock);
	if (ret) {
		clock_free(t, k);
		mmxd_call_reply(call, ret,
				ret == -EINVAL ? "bad clock kind or target" :
				ret == -ENOENT ? "no such stream or output" :
				"cannot make the clock", NULL, 0);
		return;
	}
	memset(&r, 0, sizeof(r));
	do {
		r.clock = ++t->next_clock;
	} while (!r.clock || clock_find(t, c, r.clock));
	k->item.id = r.clock;
	item_push(&t->clocks, &k->item);
	mmxd_call_reply(call, 0, "", &r, sizeof(r));
}

/* The reply to a clock operation: @ret is the source's error, or 0. */
static void reply_clock(const struct mmxd_call *call, int ret)
{
	mmxd_call_reply(call, ret, "the clock's source cannot be read", NULL,
			0);
}

static struct tclock *lookup_clock(struct mmxd_time *t,
				   const struct mmxd_call *call, uint32_t id)
{
	struct tclock *k = clock_find(t, call->client, id);

	if (!k)
		mmxd_call_reply(call, -ENOENT, "no such clock", NULL, 0);
	return k;
}

void mmxd_time_clock_run(void *svc, const struct mmxd_call *call,
			 const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_time *t = svc;
	struct mmx_proto_clock_at req;
	struct tclock *k;
	int64_t now = now_ns(t), at;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (req.flags & ~MMX_PROTO_CLOCK_NOW) {
		mmxd_call_reply(call, -EINVAL, "unknown flags", NULL, 0);
		return;
	}
	at = (req.flags & MMX_PROTO_CLOCK_NOW) ? now : req.mono_ns;
	if (at < now - TIME_MAX_AWAY_NS || at > now + TIME_MAX_AWAY_NS) {
		mmxd_call_reply(call, -EINVAL, "time more than 60 s away", NULL,
				0);
		return;
	}
	k = lookup_clock(t, call, req.clock);
	if (!k)
		return;
	if (call->h->type == MMX_MSG_CLOCK_START)
		ret = mmx_clock_start_at(k->clock, at);
	else
		ret = mmx_clock_stop_at(k->clock, at);
	reply_clock(call, ret);
}

void mmxd_time_clock_rate(void *svc, const struct mmxd_call *call,
			  const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_time *t = svc;
	struct mmx_proto_clock_rate req;
	struct tclock *k;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (req.pad || !req.den || req.den > TIME_MAX_RATE ||
	    req.num < -TIME_MAX_RATE || req.num > TIME_MAX_RATE) {
		mmxd_call_reply(call, -EINVAL, "bad rate", NULL, 0);
		return;
	}
	k = lookup_clock(t, call, req.clock);
	if (!k)
		return;
	ret = mmx_clock_set_rate_at(k->clock, now_ns(t), req.num, req.den);
	reply_clock(call, ret);
}

void mmxd_time_clock_read(void *svc, const struct mmxd_call *call,
			  const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_time *t = svc;
	struct mmx_proto_clock_ref req;
	struct mmx_remote_clock_state r;
	struct mmx_clock_state st;
	struct tclock *k;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (req.pad) {
		mmxd_call_reply(call, -EINVAL, "pad not 0", NULL, 0);
		return;
	}
	k = lookup_clock(t, call, req.clock);
	if (!k)
		return;
	if (call->h->type == MMX_MSG_CLOCK_DESTROY) {
		item_unlink(&t->clocks, &k->item);
		clock_free(t, k);
		mmxd_call_reply(call, 0, "", NULL, 0);
		return;
	}
	ret = mmx_clock_query_at(k->clock, now_ns(t), &st);
	if (ret) {
		reply_clock(call, ret);
		return;
	}
	memset(&r, 0, sizeof(r));
	r.value_ns = st.value;
	r.mono_ns = st.mono_ns;
	r.rate_num = st.rate_num;
	r.rate_den = st.rate_den;
	r.running = st.running;
	r.kind = k->kind;
	mmxd_call_reply(call, 0, "", &r, sizeof(r));
}

/* Schedules */

/* @c's pending schedule @id, or NULL. */
static struct tsched *sched_find(struct mmxd_time *t,
				 const struct mmxd_conn *c, uint64_t id)
{
	return to_sched(item_find(t->scheds, c, id));
}

/*
 * What a request becomes: a timed commit of @tgt showing @fb... from
 * @exec to @expire; @expired: no vblank in [begin, end) can show it.
 * 0 or -errno with *@msg set.
 */
struct plan {
	struct mmxd_video_target tgt;
	uint32_t fb, w, h;
	int64_t exec, expire;
	int expired;
	uint32_t channels;	/* AUDIO */
	void *dev;
};

/* Is @r malformed? -EINVAL with *@msg set, or 0. */
static int request_invalid(const struct mmx_schedule_request *r,
			   const char **msg)
{
	unsigned int i;

	*msg = "bad request";
	if (!r->id || r->flags)
		return -EINVAL;
	for (i = 0; i < 4; i++)
		if (r->reserved[i])
			return -EINVAL;
	if (r->kind != MMX_SCHEDULE_KIND_DISPLAY &&
	    r->kind != MMX_SCHEDULE_KIND_AUDIO) {
		*msg = "bad kind";
		return -EINVAL;
	}
	if (r->begin_ns >= r->end_ns) {
		*msg = "begin not before end";
		return -EINVAL;
	}
	if (r->x < -TIME_MAX_POS || r->x > TIME_MAX_POS ||
	    r->y < -TIME_MAX_POS || r->y > TIME_MAX_POS) {
		*msg = "position out of range";
		return -EINVAL;
	}
	return 0;
}

/* What @r's stream gives: its audio device, or its picture and plane. */
static int plan_stream(struct mmxd_time *t, const struct mmxd_conn *c,
		       const struct mmx_schedule_request *r, struct plan *p,
		       const char **msg)
{
	int ret;

	if (r->kind == MMX_SCHEDULE_KIND_AUDIO) {
		*msg = "bad request";
		if (r->x || r->y)
			return -EINVAL;
		ret = mmxd_media_stream_audio(t->m, c, r->stream,
					      &p->channels, &p->dev);
		if (ret)
			*msg = ret == -ENOENT ? "no such stream" :
			       "the stream has no audio";
		return ret;
	}
	ret = mmxd_media_stream_picture(t->m, c, r->stream, &p->tgt, &p->fb,
					&p->w, &p->h);
	if (ret)
		*msg = ret == -ENOENT ? "no such stream" :
		       "the stream has shown nothing yet";
	return ret;
}

static int plan_request(struct mmxd_time *t, const struct mmxd_conn *c,
			const struct mmx_schedule_request *r,
			struct plan *p, const char **msg)
{
	struct tclock *k;
	int64_t end;
	int ret;

	ret = request_invalid(r, msg);
	if (ret)
		return ret;
	k = clock_find(t, c, r->clock);
	if (!k) {
		*msg = "no such clock";
		return -ENOENT;
	}
	ret = plan_stream(t, c, r, p, msg);
	if (ret)
		return ret;
	ret = mmx_clock_to_monotonic(k->clock, r->begin_ns, &p->exec);
	if (!ret)
		ret = mmx_clock_to_monotonic(k->clock, r->end_ns, &end);
	if (ret) {
		*msg = "the clock does not run forward";
		return ret;
	}
	p->expire = end - 1;
	p->expired = p->expire < p->exec;
	return 0;
}

static void sched_event(struct mmxd_time *t, struct mmxd_conn *c, uint64_t id,
			uint32_t clock, uint32_t status, int32_t error,
			int64_t present, uint64_t sequence)
{
	struct mmx_schedule_event ev;
	struct mmx_clock_state st;
	struct tclock *k = clock_find(t, c, clock);

	memset(&ev, 0, sizeof(ev));
	ev.id = id;
	ev.status = status;
	ev.error = error;
	ev.present_ns = present;
	ev.sequence = sequence;
	if (present && k && !mmx_clock_query_at(k->clock, present, &st))
		ev.clock_ns = st.value;
	mmxd_sink_event(t->sink, c, MMX_PROTO_EVENT_SCHEDULE, &ev, sizeof(ev));
}

static void sched_unlink(struct mmxd_time *t, struct tsched *e)
{
	item_unlink(&t->scheds, &e->item);
	free(e);
}

static struct tsched *sched_new(struct mmxd_time *t, struct mmxd_conn *c,
				const struct mmx_schedule_request *r)
{
	struct tsched *e = calloc(1, sizeof(*e));

	if (!e)
		return NULL;
	e->item.conn = c;
	e->item.id = r->id;
	e->clock = r->clock;
	e->token = MMXD_TIME_TOKEN | ++t->next_token;
	e->kind = r->kind;
	e->stream = r->stream;
	return e;
}

/* Has the device written (started) the play of @e? */
static int audio_started(struct mmxd_time *t, const struct tsched *e)
{
	const struct mmxd_media_ops *ops;
	uint32_t ch;
	void *ctx, *dev;

	ops = mmxd_media_backend(t->m, &ctx);
	if (mmxd_media_stream_audio(t->m, NULL, e->stream, &ch, &dev))
		return 1;
	return ops->audio->written(ctx, dev) > e->at;
}

/* Cancel the play of pending @e, before it started: 0 or -EBUSY. */
static int audio_cancel(struct mmxd_time *t, const struct tsched *e)
{
	const struct mmxd_media_ops *ops;
	uint32_t ch;
	void *ctx, *dev;

	ops = mmxd_media_backend(t->m, &ctx);
	if (audio_started(t, e) ||
	    mmxd_media_stream_audio(t->m, NULL, e->stream, &ch, &dev))
		return -EBUSY;
	ops->audio->cancel(ctx, dev, e->token);
	return 0;
}

/*
 * How a submitted schedule (@e) went: SUBMIT_ERROR (-errno, why in the
 * message), SUBMIT_QUEUED (@e is pending) or SUBMIT_EXPIRED (nothing to
 * do: no vblank, or no device frame, of [begin, end) is left; @e is not
 * kept).
 */
#define SUBMIT_QUEUED	0
#define SUBMIT_EXPIRED	1

/* Play @dlen bytes of S16LE @data for @e, from device frame @e->at. */
static int audio_play(struct mmxd_time *t, const struct plan *p,
		      const struct tsched *e, const uint8_t *data,
		      size_t dlen, const char **msg)
{
	const struct mmxd_media_ops *ops;
	int16_t *pcm;
	void *ctx;
	int ret;

	ops = mmxd_media_backend(t->m, &ctx);
	pcm = malloc(dlen);
	if (!pcm) {
		*msg = "out of memory";
		return -ENOMEM;
	}
	memcpy(pcm, data, dlen);
	ret = ops->audio->play(ctx, p->dev, e->token, pcm,
			       dlen / (2u * p->channels), e->at);
	free(pcm);
	*msg = "the audio device refused it";
	return ret;
}

/*
 * An AUDIO schedule (@e, of @c; @old: the one it replaces): the samples
 * (@dlen bytes) play from the device frame of begin, unless the device
 * has written past end's frame already (EXPIRED). mmxd's audio device
 * mixes them with the stream's audio.
 */
static int submit_audio(struct mmxd_time *t, struct mmxd_conn *c,
			struct tsched *old, struct tsched *e,
			const struct plan *p, const uint8_t *data,
			size_t dlen, const char **msg)
{
	const struct mmxd_media_ops *ops;
	double at, endf;
	void *ctx;
	int ret;

	ops = mmxd_media_backend(t->m, &ctx);
	*msg = "not whole S16LE frames";
	if (dlen % (2u * p->channels))
		return -EINVAL;
	*msg = "the audio device does not run";
	ret = ops->audio->ns_to_frame(ctx, p->dev, p->exec, &at);
	if (!ret)
		ret = ops->audio->ns_to_frame(ctx, p->dev, p->expire, &endf);
	if (ret)
		return ret;
	if (old) {
		*msg = "too late";
		ret = audio_cancel(t, old);
		if (ret)
			return ret;
		sched_event(t, c, old->item.id, old->clock, MMX_TIME_REPLACED,
			    0, 0, 0);
		sched_unlink(t, old);
	}
	e->exec = p->exec;
	e->at = llround(at);
	if (p->expired ||
	    ops->audio->written(ctx, p->dev) >= (int64_t)llround(endf))
		return SUBMIT_EXPIRED;
	ret = audio_play(t, p, e, data, dlen, msg);
	if (ret)
		return ret;
	item_push(&t->scheds, &e->item);
	return SUBMIT_QUEUED;
}

/*
 * A DISPLAY schedule (@e, of @c, for @r; @old: the one it replaces): a
 * timed commit, or the replacement of @old's, unless no vblank of
 * [begin, end) is left (EXPIRED; @old is retracted then).
 */
static int submit_display(struct mmxd_time *t, struct mmxd_conn *c,
			  const struct mmx_schedule_request *r,
			  struct tsched *old, struct tsched *e,
			  const struct plan *p, const char **msg)
{
	const struct mmxd_media_ops *ops;
	void *ctx;
	int ret;

	ops = mmxd_media_backend(t->m, &ctx);
	*msg = "too late";
	if (p->expired && old) {
		ret = ops->retract(ctx, old->ksched);
		if (ret)
			return ret;
		/* its RETRACTED finds nothing: it is REPLACED */
		sched_event(t, c, old->item.id, old->clock, MMX_TIME_REPLACED,
			    0, 0, 0);
		sched_unlink(t, old);
	}
	if (p->expired)
		return SUBMIT_EXPIRED;
	if (old)
		ret = ops->replace(ctx, old->ksched, &p->tgt, p->fb, r->x, r->y,
				   p->w, p->h, p->exec, p->expire, e->token,
				   &e->ksched);
	else
		ret = ops->schedule(ctx, &p->tgt, p->fb, r->x, r->y, p->w,
				    p->h, p->exec, p->expire, e->token,
				    &e->ksched);
	if (ret) {
		if (ret != -EBUSY)
			*msg = "the kernel refused the commit";
		return ret;
	}
	if (old)
		old->item.retired = 1;
	item_push(&t->scheds, &e->item);
	return SUBMIT_QUEUED;
}

/*
 * May @c submit @r (@dlen bytes of data; @old: the pending schedule it
 * replaces, or NULL)? Its plan in @p, or -errno with *@msg set.
 */
static int submit_refused(struct mmxd_time *t, struct mmxd_conn *c,
			  const struct mmx_schedule_request *r,
			  const struct tsched *old, size_t dlen,
			  struct plan *p, const char **msg)
{
	const struct tsched *e;
	int ret;

	if ((r->kind == MMX_SCHEDULE_KIND_AUDIO) != (dlen > 0)) {
		*msg = dlen ? "data with a display request" :
		       "an audio request without samples";
		return -EINVAL;
	}
	ret = plan_request(t, c, r, p, msg);
	if (ret)
		return ret;
	if (old && old->kind != r->kind) {
		*msg = "replace by another kind";
		return -EINVAL;
	}
	e = sched_find(t, c, r->id);
	if (e && e != old) {
		*msg = "id already pending";
		return -EEXIST;
	}
	if (!old && items_of(t->scheds, c) >= MMXD_TIME_MAX_PENDING) {
		*msg = "too many pending schedules";
		return -ENOSPC;
	}
	return 0;
}

void mmxd_time_submit(void *svc, const struct mmxd_call *call,
		      const uint8_t *payload, size_t len)
{
	struct mmxd_time *t = svc;
	struct mmxd_conn *c = call->client;
	struct mmx_proto_schedule_replace req;
	const struct mmx_schedule_request *r = &req.req;
	struct tsched *old = NULL, *e;
	size_t head = sizeof(req.req);
	const char *msg;
	struct plan p;
	int ret;

	memset(&req, 0, sizeof(req));
	if (call->h->type == MMX_MSG_SCHEDULE_SUBMIT) {
		memcpy(&req.req, payload, head);
	} else {
		head = sizeof(req);
		memcpy(&req, payload, head);
		old = sched_find(t, c, req.old_id);
		if (!old) {
			mmxd_call_reply(call, -ENOENT,
					"no such pending schedule", NULL, 0);
			return;
		}
	}
	ret = submit_refused(t, c, r, old, len - head, &p, &msg);
	if (ret) {
		mmxd_call_reply(call, ret, msg, NULL, 0);
		return;
	}
	e = sched_new(t, c, r);
	if (!e) {
		mmxd_call_reply(call, -ENOMEM, "out of memory", NULL, 0);
		return;
	}
	if (r->kind == MMX_SCHEDULE_KIND_AUDIO)
		ret = submit_audio(t, c, old, e, &p, payload + head,
				   len - head, &msg);
	else
		ret = submit_display(t, c, r, old, e, &p, &msg);
	if (ret != SUBMIT_QUEUED)
		free(e);
	mmxd_call_reply(call, ret < 0 ? ret : 0, msg, NULL, 0);
	if (ret == SUBMIT_EXPIRED)
		sched_event(t, c, r->id, r->clock, MMX_TIME_EXPIRED, 0, 0, 0);
}

void mmxd_time_retract(void *svc, const struct mmxd_call *call,
		       const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmxd_time *t = svc;
	struct mmxd_conn *c = call->client;
	struct mmx_proto_schedule_ref req;
	const struct mmxd_media_ops *ops;
	struct tsched *e;
	void *ctx;
	int ret;

	ops = mmxd_media_backend(t->m, &ctx);
	memcpy(&req, payload, sizeof(req));
	e = sched_find(t, c, req.id);
	if (!e) {
		mmxd_call_reply(call, -ENOENT, "no such pending schedule", NULL,
				0);
		return;
	}
	if (e->kind == MMX_SCHEDULE_KIND_AUDIO) {
		ret = audio_cancel(t, e);
		mmxd_call_reply(call, ret, "too late", NULL, 0);
		if (!ret) {
			sched_event(t, c, e->item.id, e->clock,
				    MMX_TIME_RETRACTED, 0, 0, 0);
			sched_unlink(t, e);
		}
		return;
	}
	ret = ops->retract(ctx, e->ksched);
	if (!ret)
		e->item.retired = 1;
	mmxd_call_reply(call, ret, "too late", NULL, 0);
}

/* A timed commit of TIME's completed. */
static void time_sched_done(void *ctx, const struct mmxd_sched_event *ke)
{
	struct mmxd_time *t = ctx;
	struct tsched *e = NULL;
	struct titem *it;
	uint32_t status;
	int64_t present = 0;
	uint64_t seq = 0;

	for (it = t->scheds; it && !e; it = it->next)
		if (to_sched(it)->token == ke->user &&
		    to_sched(it)->ksched == ke->sched)
			e = to_sched(it);
	if (!e)
		return;
	switch (ke->status) {
	case K_PRESENTED:
		status = MMX_TIME_PRESENTED;
		present = ke->timestamp_ns;
		seq = ke->sequence;
		break;
	case K_EXPIRED:
		status = MMX_TIME_EXPIRED;
		present = ke->timestamp_ns;
		seq = ke->sequence;
		break;
	case K_RETRACTED:
		status = MMX_TIME_RETRACTED;
		break;
	case K_REPLACED:
		status = MMX_TIME_REPLACED;
		break;
	default:
		status = MMX_TIME_FAILED;
		break;
	}
	sched_event(t, e->item.conn, e->item.id, e->clock, status,
		    status == MMX_TIME_FAILED ? ke->error : 0, present, seq);
	sched_unlink(t, e);
}

/* A play of TIME's finished (when does not matter: it began at exec). */
static void time_audio_done(void *ctx, uint64_t token,
			    int64_t end_ns __maybe_unused)
{
	struct mmxd_time *t = ctx;
	struct tsched *e = NULL;
	struct titem *it;

	for (it = t->scheds; it && !e; it = it->next)
		if (to_sched(it)->token == token &&
		    to_sched(it)->kind == MMX_SCHEDULE_KIND_AUDIO)
			e = to_sched(it);
	if (!e)
		return;
	/* present: when its first frame was due */
	sched_event(t, e->item.conn, e->item.id, e->clock, MMX_TIME_PRESENTED,
		    0, e->exec, 0);
	sched_unlink(t, e);
}

/* Stream @stream closes: its audio schedules FAILED (-ENOENT). */
static void time_stream_gone(void *ctx, uint32_t stream, int notify)
{
	struct mmxd_time *t = ctx;
	struct titem *it, *next;

	for (it = t->scheds; it; it = next) {
		struct tsched *e = to_sched(it);

		next = it->next;
		if (e->kind != MMX_SCHEDULE_KIND_AUDIO || e->stream != stream)
			continue;
		if (notify)
			sched_event(t, e->item.conn, e->item.id, e->clock,
				    MMX_TIME_FAILED, -ENOENT, 0, 0);
		sched_unlink(t, e);
	}
}

static const struct mmxd_media_listener time_listener = {
	.sched_done = time_sched_done,
	.audio_done = time_audio_done,
	.stream_gone = time_stream_gone,
};
