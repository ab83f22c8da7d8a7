// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * TIME over the mmxd protocol (1.2): remote clocks and schedules of a
 * remote display (libmmx_media.h). Schedule completions arrive as EVENTs
 * at any time the connection is read (while a request waits too); the
 * client's time sink queues them here for mmx_time_events().
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
#define MMX_TIME_EVENT_QUEUE	4096

struct mmx_time {
	struct mmx_schedule_event *q;	/* ring */
	unsigned int cap, head, len;
	uint64_t dropped;
};

static void time_sink(void *ctx, const void *payload, size_t len)
{
	struct mmx_time *t = ctx;
	struct mmx_schedule_event ev;

	if (len != sizeof(struct mmx_proto_event) + sizeof(ev))
		return;
	memcpy(&ev, (const uint8_t *)payload + sizeof(struct mmx_proto_event),
	       sizeof(ev));
	if (t->len == t->cap) {
		unsigned int cap = t->cap ? t->cap * 2 : 64, i;
		struct mmx_schedule_event *n;

		if (cap > MMX_TIME_EVENT_QUEUE)
			cap = MMX_TIME_EVENT_QUEUE;
		n = cap > t->cap ? malloc(cap * sizeof(*n)) : NULL;
		if (!n) {
			if (!t->cap) {
				t->dropped++;
				return;
			}
			/* full: forget the oldest */
			t->head = (t->head + 1) % t->cap;
			t->len--;
			t->dropped++;
		} else {
			for (i = 0; i < t->len; i++)
				n[i] = t->q[(t->head + i) % t->cap];
			free(t->q);
			t->q = n;
			t->cap = cap;
			t->head = 0;
		}
	}
	t->q[(t->head + t->len) % t->cap] = ev;
	t->len++;
}

void mmx_time_free(struct mmx_time *t)
{
	if (!t)
		return;
	free(t->q);
	free(t);
}

/* The display's TIME state, made (and its sink installed) on first use. */
static int time_of(struct mmx_display *d, struct mmx_time **out)
{
	if (!d || !d->remote)
		return -ENOSYS;
	if (!(mmx_client_caps(d->remote) & MMX_PROTO_CAP_TIME))
		return -ENOSYS;
	if (!d->time) {
		d->time = calloc(1, sizeof(*d->time));
		if (!d->time)
			return -ENOMEM;
		mmx_client_set_time_sink(d->remote, time_sink, d->time);
	}
	*out = d->time;
	return 0;
}

static int time_request(struct mmx_display *d, uint16_t type,
			const void *req, size_t len, void *out,
			size_t out_len)
{
	struct mmx_time *t;
	int ret = time_of(d, &t);

	if (ret)
		return ret;
	return mmx_client_request(d->remote, type, req, len, NULL, 0, out,
				  out_len);
}

int mmx_remote_clock_create(struct mmx_display *d, uint32_t kind,
			    uint32_t target, uint32_t *clock)
{
	struct mmx_proto_clock_create req = { .kind = kind, .target = target };
	struct mmx_proto_clock_ref r;
	int ret;

	if (!clock)
		return -EINVAL;
	ret = time_request(d, MMX_MSG_CLOCK_CREATE, &req, sizeof(req), &r,
			   sizeof(r));
	if (!ret)
		*clock = r.clock;
	return ret;
}

static int clock_at(struct mmx_display *d, uint16_t type, uint32_t clock,
		    int64_t mono_ns)
{
	struct mmx_proto_clock_at req = {
		.clock = clock,
		.flags = mono_ns < 0 ? MMX_PROTO_CLOCK_NOW : 0,
		.mono_ns = mono_ns < 0 ? 0 : mono_ns,
	};

	return time_request(d, type, &req, sizeof(req), NULL, 0);
}

int mmx_remote_clock_start(struct mmx_display *d, uint32_t clock,
			   int64_t mono_ns)
{
	return clock_at(d, MMX_MSG_CLOCK_START, clock, mono_ns);
}

int mmx_remote_clock_stop(struct mmx_display *d, uint32_t clock,
			  int64_t mono_ns)
{
	return clock_at(d, MMX_MSG_CLOCK_STOP, clock, mono_ns);
}

int mmx_remote_clock_set_rate(struct mmx_display *d, uint32_t clock,
			      int32_t num, uint32_t den)
{
	struct mmx_proto_clock_rate req = { .clock = clock, .num = num,
					    .den = den };

	return time_request(d, MMX_MSG_CLOCK_SET_RATE, &req, sizeof(req),
			    NULL, 0);
}

int mmx_remote_clock_query(struct mmx_display *d, uint32_t clock,
			   struct mmx_remote_clock_state *st)
{
	struct mmx_proto_clock_ref req = { .clock = clock };

	if (!st)
		return -EINVAL;
	return time_request(d, MMX_MSG_CLOCK_READ, &req, sizeof(req), st,
			    sizeof(*st));
}

int mmx_remote_clock_destroy(struct mmx_display *d, uint32_t clock)
{
	struct mmx_proto_clock_ref req = { .clock = clock };

	return time_request(d, MMX_MSG_CLOCK_DESTROY, &req, sizeof(req), NULL,
			    0);
}

int mmx_schedule_submit(struct mmx_display *d,
			const struct mmx_schedule_request *req)
{
	if (!req)
		return -EINVAL;
	return time_request(d, MMX_MSG_SCHEDULE_SUBMIT, req, sizeof(*req),
			    NULL, 0);
}

int mmx_schedule_submit_audio(struct mmx_display *d,
			      const struct mmx_schedule_request *req,
			      const void *samples, size_t len)
{
	struct mmx_time *t;
	int ret;

	if (!req || !samples || !len ||
	    len > MMX_PROTO_MAX_REQUEST - MMX_PROTO_HEADER_SIZE - sizeof(*req))
		return -EINVAL;
	ret = time_of(d, &t);
	if (ret)
		return ret;
	return mmx_client_request(d->remote, MMX_MSG_SCHEDULE_SUBMIT, req,
				  sizeof(*req), samples, len, NULL, 0);
}

int mmx_schedule_retract(struct mmx_display *d, uint64_t id)
{
	struct mmx_proto_schedule_ref req = { .id = id };

	return time_request(d, MMX_MSG_SCHEDULE_RETRACT, &req, sizeof(req),
			    NULL, 0);
}

int mmx_schedule_replace(struct mmx_display *d, uint64_t old_id,
			 const struct mmx_schedule_request *req)
{
	struct mmx_proto_schedule_replace r;

	if (!req)
		return -EINVAL;
	memset(&r, 0, sizeof(r));
	r.old_id = old_id;
	r.req = *req;
	return time_request(d, MMX_MSG_SCHEDULE_REPLACE, &r, sizeof(r), NULL,
			    0);
}

static int64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int mmx_time_events(struct mmx_display *d, struct mmx_schedule_event *ev,
		    int max, int timeout_ms)
{
	struct mmx_time *t;
	int64_t deadline = 0;
	int ret, n = 0;

	if (!ev || max <= 0)
		return -EINVAL;
	ret = time_of(d, &t);
	if (ret)
		return ret;
	if (timeout_ms > 0)
		deadline = now_ms() + timeout_ms;
	while (!t->len) {
		int left = timeout_ms;

		if (timeout_ms > 0) {
			int64_t now = now_ms();

			if (now >= deadline)
				break;
			left = (int)(deadline - now);
		}
		ret = mmx_client_wait_event(d->remote, left);
		if (ret < 0)
			return ret;
		if (!ret && timeout_ms == 0)
			break;
	}
	/* whatever else is there already, without waiting */
	while (t->len < (unsigned int)max &&
	       mmx_client_wait_event(d->remote, 0) > 0)
		;
	while (n < max && t->len) {
		ev[n++] = t->q[t->head];
		t->head = (t->head + 1) % t->cap;
		t->len--;
	}
	return n;
}
