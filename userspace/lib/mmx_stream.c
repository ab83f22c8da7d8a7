// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx media streams (libmmx_media.h): the client side of mmxd's
 * STREAM_* requests. Each call is one request and its reply on the
 * display's connection; the stream's events arrive as EVENT messages,
 * possibly while a request waits for its reply, and are kept in a queue
 * until mmx_stream_events() hands them out.
 */

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmx_internal.h"
#include "mmx_protocol.h"
#include "libmmx_media.h"

/* Events kept unread at most; older ones are dropped past it. */
#define MMX_STREAM_EVENT_QUEUE	4096

struct mmx_stream {
	struct mmx_display *d;
	struct mmx_client *c;
	uint32_t id;
	struct mmx_proto_stream_open_reply info;
	struct mmx_stream_event *q;	/* ring */
	unsigned int q_cap, q_head, q_len;
	uint64_t dropped;
	struct mmx_stream_stats stats;
};

static int64_t mmx_stream_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void stream_event_sink(void *ctx, const void *payload, size_t len)
{
	struct mmx_stream *s = ctx;
	struct mmx_proto_stream_event se;
	struct mmx_proto_event e;

	if (len != sizeof(e) + sizeof(se))
		return;
	memcpy(&e, payload, sizeof(e));
	memcpy(&se, (const uint8_t *)payload + sizeof(e), sizeof(se));
	if (e.event != MMX_PROTO_EVENT_STREAM || se.stream != s->id)
		return;
	s->stats.events++;
	if (s->q_len == s->q_cap) {
		unsigned int cap = s->q_cap ? s->q_cap * 2 : 64, i;
		struct mmx_stream_event *n;

		if (cap > MMX_STREAM_EVENT_QUEUE)
			cap = MMX_STREAM_EVENT_QUEUE;
		n = cap > s->q_cap ? malloc(cap * sizeof(*n)) : NULL;
		if (!n) {
			/* full: forget the oldest */
			s->q_head = (s->q_head + 1) % s->q_cap;
			s->q_len--;
			s->dropped++;
		} else {
			for (i = 0; i < s->q_len; i++)
				n[i] = s->q[(s->q_head + i) % s->q_cap];
			free(s->q);
			s->q = n;
			s->q_cap = cap;
			s->q_head = 0;
		}
	}
	s->q[(s->q_head + s->q_len) % s->q_cap] = se.ev;
	s->q_len++;
}

/* One request of the stream, with its bytes counted. */
static int stream_request(struct mmx_stream *s, uint16_t type,
			  const void *req, size_t req_len, const void *data,
			  size_t data_len, void *out, size_t out_len)
{
	uint64_t sent0, recv0, sent1, recv1;
	int ret;

	mmx_client_counters(s->c, &sent0, &recv0);
	ret = mmx_client_request(s->c, type, req, req_len, data, data_len,
				 out, out_len);
	mmx_client_counters(s->c, &sent1, &recv1);
	s->stats.bytes_sent += sent1 - sent0;
	s->stats.bytes_received += recv1 - recv0;
	if (sent1 != sent0) {
		s->stats.messages++;
		s->stats.payload_bytes += data_len;
	}
	return ret;
}

int mmx_stream_open(struct mmx_display *d,
		    const struct mmx_stream_config *cfg,
		    struct mmx_stream **out)
{
	struct mmx_stream *s;
	int ret;

	if (!d || !cfg || !out)
		return -EINVAL;
	*out = NULL;
	if (!d->remote)
		return -EOPNOTSUPP;
	if (d->stream)
		return -EBUSY;
	if (!(mmx_client_caps(d->remote) & MMX_PROTO_CAP_STREAM))
		return -EOPNOTSUPP;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->d = d;
	s->c = d->remote;
	mmx_client_set_event_sink(s->c, stream_event_sink, s);
	ret = stream_request(s, MMX_MSG_STREAM_OPEN, cfg, sizeof(*cfg), NULL,
			     0, &s->info, sizeof(s->info));
	if (ret) {
		mmx_client_set_event_sink(s->c, NULL, NULL);
		free(s);
		return ret;
	}
	s->id = s->info.stream;
	d->stream = s;
	*out = s;
	return 0;
}

int mmx_stream_start(struct mmx_stream *s, int64_t delay_ns)
{
	struct mmx_proto_stream_start req = {
		.stream = s->id,
		.delay_ns = delay_ns,
	};

	return stream_request(s, MMX_MSG_STREAM_START, &req, sizeof(req),
			      NULL, 0, NULL, 0);
}

static int send_video(struct mmx_stream *s, uint16_t type, uint64_t id,
		      int64_t pts_ns, int64_t expire_ns, const void *jpeg,
		      size_t len)
{
	struct mmx_proto_stream_video req = {
		.stream = s->id,
		.id = id,
		.pts_ns = pts_ns,
		.expire_ns = expire_ns,
	};
	int ret;

	if (!jpeg || !len || len > MMX_STREAM_MAX_CHUNK)
		return -EINVAL;
	ret = stream_request(s, type, &req, sizeof(req), jpeg, len, NULL, 0);
	if (!ret)
		s->stats.video_frames++;
	return ret;
}

int mmx_stream_video(struct mmx_stream *s, uint64_t id, int64_t pts_ns,
		     int64_t expire_ns, const void *jpeg, size_t len)
{
	return send_video(s, MMX_MSG_STREAM_VIDEO, id, pts_ns, expire_ns,
			  jpeg, len);
}

int mmx_stream_replace(struct mmx_stream *s, uint64_t id, int64_t pts_ns,
		       int64_t expire_ns, const void *jpeg, size_t len)
{
	return send_video(s, MMX_MSG_STREAM_REPLACE, id, pts_ns, expire_ns,
			  jpeg, len);
}

int mmx_stream_audio(struct mmx_stream *s, int64_t pts_ns, const void *data,
		     size_t len)
{
	struct mmx_proto_stream_audio req = {
		.stream = s->id,
		.pts_ns = pts_ns,
	};
	int ret;

	if (!data || !len || len > MMX_STREAM_MAX_CHUNK)
		return -EINVAL;
	ret = stream_request(s, MMX_MSG_STREAM_AUDIO, &req, sizeof(req),
			     data, len, NULL, 0);
	if (!ret)
		s->stats.audio_chunks++;
	return ret;
}

int mmx_stream_retract(struct mmx_stream *s, uint64_t id)
{
	struct mmx_proto_stream_retract req = { .stream = s->id, .id = id };

	return stream_request(s, MMX_MSG_STREAM_RETRACT, &req, sizeof(req),
			      NULL, 0, NULL, 0);
}

uint32_t mmx_stream_id(const struct mmx_stream *s)
{
	return s ? s->id : 0;
}

int mmx_stream_fd(const struct mmx_stream *s)
{
	return mmx_client_fd(s->c);
}

static int pop_events(struct mmx_stream *s, struct mmx_stream_event *ev,
		      int max)
{
	int n = 0;

	while (n < max && s->q_len) {
		ev[n++] = s->q[s->q_head];
		s->q_head = (s->q_head + 1) % s->q_cap;
		s->q_len--;
	}
	return n;
}

int mmx_stream_events(struct mmx_stream *s, struct mmx_stream_event *ev,
		      int max, int timeout_ms)
{
	int64_t deadline = 0;
	int ret;

	if (!s || !ev || max <= 0)
		return -EINVAL;
	if (timeout_ms > 0)
		deadline = mmx_stream_now_ms() + timeout_ms;
	while (!s->q_len) {
		uint64_t r0, r1, sent;
		int left = timeout_ms;

		if (timeout_ms > 0) {
			int64_t now = mmx_stream_now_ms();

			left = now >= deadline ? 0 : (int)(deadline - now);
		}
		mmx_client_counters(s->c, &sent, &r0);
		ret = mmx_client_wait_event(s->c, left);
		mmx_client_counters(s->c, &sent, &r1);
		s->stats.bytes_received += r1 - r0;
		if (ret < 0)
			return ret;
		if (!ret && left == 0)
			break;
		if (!ret && timeout_ms > 0 &&
		    mmx_stream_now_ms() >= deadline)
			break;
	}
	/* whatever else is there already, without waiting */
	while (s->q_len < (unsigned int)max &&
	       mmx_client_wait_event(s->c, 0) > 0)
		;
	return pop_events(s, ev, max);
}

int mmx_stream_query_clock(struct mmx_stream *s, struct mmx_stream_clock *c)
{
	struct mmx_proto_stream_ref req = { .stream = s->id };

	return stream_request(s, MMX_MSG_CLOCK_QUERY, &req, sizeof(req), NULL,
			      0, c, sizeof(*c));
}

int mmx_stream_stats(const struct mmx_stream *s, struct mmx_stream_stats *st)
{
	if (!s || !st)
		return -EINVAL;
	*st = s->stats;
	return 0;
}

void mmx_stream_forget(struct mmx_stream *s)
{
	mmx_client_set_event_sink(s->c, NULL, NULL);
	s->d->stream = NULL;
	free(s->q);
	free(s);
}

void mmx_stream_close(struct mmx_stream *s)
{
	struct mmx_proto_stream_ref req;

	if (!s)
		return;
	req = (struct mmx_proto_stream_ref){ .stream = s->id };
	stream_request(s, MMX_MSG_STREAM_CLOSE, &req, sizeof(req), NULL, 0,
		       NULL, 0);
	mmx_client_set_event_sink(s->c, NULL, NULL);
	s->d->stream = NULL;
	free(s->q);
	free(s);
}
