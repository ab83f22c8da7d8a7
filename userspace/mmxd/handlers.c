// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's request handlers: one complete message in, exactly one reply
 * out (Documentation/mmxd-protocol.rst, "Requests").
 */

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmxd_server.h"
#include "mmx_wire.h"

static void reply_error(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h, int err,
			const char *fmt, ...) __attribute__((format(printf, 5, 6)));

void mmxd_reply_parts(struct mmxd_server *s, struct mmxd_conn *c,
		      const struct mmx_proto_header *h, int err,
		      const char *msg, const void *a, size_t alen,
		      const void *b, size_t blen)
{
	if (err)
		mmxd_log(s, 1, "client %u: %s #%u: %s (%s)", c->id,
			 mmx_wire_type_name(h->type), h->sequence, msg,
			 strerror(-err));
	else
		mmxd_log(s, 2, "client %u: %s #%u: ok", c->id,
			 mmx_wire_type_name(h->type), h->sequence);
	mmxd_conn_reply(s, c, h->sequence, h->type, err, err ? msg : "", a,
			alen, b, blen);
}

void mmxd_reply(struct mmxd_server *s, struct mmxd_conn *c,
		const struct mmx_proto_header *h, int err, const char *msg,
		const void *data, size_t len)
{
	mmxd_reply_parts(s, c, h, err, msg, data, len, NULL, 0);
}

void *mmxd_reply_calloc(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h, size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		mmxd_reply(s, c, h, -ENOMEM, "out of memory", NULL, 0);
	return p;
}

static void reply_error(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h, int err,
			const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	mmxd_reply(s, c, h, err, msg, NULL, 0);
}

static void reply_ok(struct mmxd_server *s, struct mmxd_conn *c,
		     const struct mmx_proto_header *h, const void *a,
		     size_t alen, const void *b, size_t blen)
{
	mmxd_reply_parts(s, c, h, 0, "", a, alen, b, blen);
}

/* What the server says of itself in a HELLO reply. */
static void hello_reply_fill(struct mmxd_server *s,
			     struct mmx_proto_hello_reply *r)
{
	const struct mmxd_options *o = mmxd_server_options(s);

	memset(r, 0, sizeof(*r));
	r->major = MMX_PROTO_MAJOR;
	r->minor = MMX_PROTO_MINOR;
	r->caps = MMX_PROTO_CAP_STATE | MMX_PROTO_CAP_APPLY;
	if (o->state_flags & MMX_STATE_TRANSFORMS)
		r->caps |= MMX_PROTO_CAP_POINTER;
	if (o->state_flags & MMX_STATE_WRITEBACK)
		r->caps |= MMX_PROTO_CAP_CAPTURE;
	if (mmxd_server_media(s))
		r->caps |= mmxd_media_caps(mmxd_server_media(s));
	r->state_flags = o->state_flags;
	r->max_request = MMX_PROTO_MAX_REQUEST;
	r->max_reply = MMX_PROTO_MAX_REPLY;
	memcpy(r->driver, o->driver, sizeof(r->driver));
	snprintf(r->server, sizeof(r->server), "mmxd %s", MMXD_VERSION);
}

/* 0 when the server can serve @hello, else an errno and why in @msg. */
static int hello_check(const struct mmx_proto_hello *hello, char *msg,
		       size_t size)
{
	if (hello->major != MMX_PROTO_MAJOR) {
		snprintf(msg, size,
			 "protocol %u.%u not supported (server: %u.%u)",
			 hello->major, hello->minor, MMX_PROTO_MAJOR,
			 MMX_PROTO_MINOR);
		return -EPROTONOSUPPORT;
	}
	if (hello->flags) {
		snprintf(msg, size, "HELLO flags 0x%x must be 0", hello->flags);
		return -EINVAL;
	}
	if (hello->reserved[0] || hello->reserved[1]) {
		snprintf(msg, size, "HELLO reserved 0x%x 0x%x must be 0",
			 hello->reserved[0], hello->reserved[1]);
		return -EINVAL;
	}
	return 0;
}

static void handle_hello(struct mmxd_server *s, struct mmxd_conn *c,
			 const struct mmx_proto_header *h,
			 const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmx_proto_hello_reply r;
	struct mmx_proto_hello hello;
	char msg[256];
	int err;

	memcpy(&hello, payload, sizeof(hello));
	mmx_wire_terminate(hello.client, sizeof(hello.client));
	hello_reply_fill(s, &r);
	err = hello_check(&hello, msg, sizeof(msg));
	if (err) {
		mmxd_log(s, 1, "client %u: HELLO: %s", c->id, msg);
		mmxd_conn_reply(s, c, h->sequence, h->type, err, msg, &r,
				sizeof(r), NULL, 0);
		return;
	}
	c->hello = 1;
	memcpy(c->name, hello.client, sizeof(c->name));
	mmxd_log(s, 1, "client %u: HELLO from '%s' (%u.%u)", c->id, c->name,
		 hello.major, hello.minor);
	reply_ok(s, c, h, &r, sizeof(r), NULL, 0);
}

/* GET_STATE: the snapshot in records. */
static void handle_get_state(struct mmxd_server *s, struct mmxd_conn *c,
			     const struct mmx_proto_header *h,
			     const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmx_proto_get_state req;
	const struct mmx_display_ops *ops;
	struct mmx_state *st;
	uint8_t *records;
	size_t records_len;
	void *ctx;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (req.probe > 1 || req.pad) {
		reply_error(s, c, h, -EINVAL, "probe %u / pad %u: 0 or 1 / 0",
			    req.probe, req.pad);
		return;
	}
	st = mmxd_reply_calloc(s, c, h, sizeof(*st));
	if (!st)
		return;
	ops = mmxd_server_ops(s, &ctx);
	ret = ops->state(ctx, (int)req.probe, st);
	if (ret) {
		reply_error(s, c, h, ret, "reading the state failed");
	} else {
		ret = mmx_wire_encode_state(st, &records, &records_len);
		if (ret)
			reply_error(s, c, h, ret, "encoding the state failed");
		else
			reply_ok(s, c, h, records, records_len, NULL, 0);
		free(records);
	}
	mmx_state_free(st);
}

/* Apply a received config (checked) and reply; frees @cfg. */
static void apply_config(struct mmxd_server *s, struct mmxd_conn *c,
			 const struct mmx_proto_header *h,
			 struct mmx_config *cfg)
{
	const struct mmx_display_ops *ops;
	struct mmx_error err;
	void *ctx;
	int ret;

	memset(&err, 0, sizeof(err));
	ops = mmxd_server_ops(s, &ctx);
	ret = ops->apply(ctx, cfg, &err);
	mmx_config_free(cfg);
	mmx_wire_terminate(err.message, sizeof(err.message));
	if (ret)
		reply_error(s, c, h, ret, "%s",
			    err.message[0] ? err.message : "apply failed");
	else
		reply_ok(s, c, h, NULL, 0, NULL, 0);
}

/* APPLY: the config records */
static void handle_apply(struct mmxd_server *s, struct mmxd_conn *c,
			 const struct mmx_proto_header *h,
			 const uint8_t *payload, size_t len)
{
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	int ret;

	if (!cfg) {
		reply_error(s, c, h, -ENOMEM, "out of memory");
		return;
	}
	ret = mmx_wire_decode_config(payload, len, cfg);
	if (ret) {
		reply_error(s, c, h, ret, "config records: %s",
			    ret == -E2BIG ?
			    "a mode name longer than a mode holds" :
			    ret == -ENOMEM ? "out of memory" :
			    "truncated, trailing bytes or an invalid value");
		mmx_config_free(cfg);
		return;
	}
	apply_config(s, c, h, cfg);
}

static void handle_pointer(struct mmxd_server *s, struct mmxd_conn *c,
			   const struct mmx_proto_header *h,
			   const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmx_proto_pointer req;
	const struct mmx_display_ops *ops;
	void *ctx;
	int ret;

	memcpy(&req, payload, sizeof(req));
	ops = mmxd_server_ops(s, &ctx);
	ret = ops->pointer_moved(ctx, req.x, req.y);
	if (ret)
		reply_error(s, c, h, ret, "pointer move to %d,%d failed",
			    req.x, req.y);
	else
		reply_ok(s, c, h, NULL, 0, NULL, 0);
}

static void handle_capture(struct mmxd_server *s, struct mmxd_conn *c,
			   const struct mmx_proto_header *h,
			   const uint8_t *payload, size_t len __maybe_unused)
{
	struct mmx_proto_capture_reply cap = { 0 };
	struct mmx_proto_capture req;
	const struct mmx_display_ops *ops;
	uint32_t *pixels = NULL;
	void *ctx;
	int ret;

	memcpy(&req, payload, sizeof(req));
	if (req.pad) {
		reply_error(s, c, h, -EINVAL, "pad %u must be 0", req.pad);
		return;
	}
	ops = mmxd_server_ops(s, &ctx);
	ret = ops->capture(ctx, req.crtc, &cap.width, &cap.height, &pixels);
	if (!ret && (cap.width > MMX_PROTO_MAX_CAPTURE_DIM ||
		     cap.height > MMX_PROTO_MAX_CAPTURE_DIM))
		ret = -EMSGSIZE;
	if (ret)
		reply_error(s, c, h, ret, "capture of CRTC %u failed",
			    req.crtc);
	else
		reply_ok(s, c, h, &cap, sizeof(cap), pixels,
			 (size_t)cap.width * cap.height * 4);
	free(pixels);
}

/* Compare without leaking where the first difference is. */
static int cookie_equal(const uint8_t *a, const uint8_t *b, size_t len)
{
	uint8_t d = 0;
	size_t i;

	for (i = 0; i < len; i++)
		d |= a[i] ^ b[i];
	return d == 0;
}

static void handle_auth(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h,
			const uint8_t *payload, size_t len __maybe_unused)
{
	const struct mmxd_options *o = mmxd_server_options(s);
	struct mmx_proto_auth auth;

	if (!c->tcp) {
		/* peer credentials decided already */
		reply_ok(s, c, h, NULL, 0, NULL, 0);
		return;
	}
	if (c->authed || c->hello) {
		reply_error(s, c, h, -EPROTO, "AUTH twice");
		return;
	}
	memcpy(&auth, payload, sizeof(auth));
	if (!o->tcp_auth ||
	    !cookie_equal(auth.cookie, o->cookie, sizeof(auth.cookie))) {
		mmxd_log(s, 0, "client %u: refused: wrong cookie", c->id);
		reply_error(s, c, h, -EACCES, "wrong cookie");
		c->closing = 1;
		return;
	}
	c->authed = 1;
	reply_ok(s, c, h, NULL, 0, NULL, 0);
}

static void handle_ping(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h,
			const uint8_t *payload __maybe_unused,
			size_t len __maybe_unused)
{
	reply_ok(s, c, h, NULL, 0, NULL, 0);
}

#define CORE(t, sz, f, fn) \
	{ .type = MMX_MSG_##t, .flags = (f), .size = (sz), .handle = fn }

/*
 * A request of service @svc (MEDIA or TIME, whose handler is
 * mmxd_media_@fn or mmxd_time_@fn): MMX_MSG_@t with a struct @req payload
 * (@f: FIXED, exactly that, or DATA or STREAM_DATA: data follows, as
 * MMXD_REQ_@f says), after HELLO, in a server with media streams.
 */
#define MMXD_REQ_FIXED	0
#define SERVICE(svc, pre, t, req, f, fn) \
	{ .type = MMX_MSG_##t, \
	  .flags = MMXD_REQ_HELLO | MMXD_REQ_MEDIA | MMXD_REQ_##f, \
	  .size = sizeof(struct req), .serve = pre##fn, \
	  .service = MMXD_SERVICE_##svc }
#define MEDIA(t, req, f, fn)	SERVICE(MEDIA, mmxd_media_, t, req, f, fn)
#define TIME(t, req, f, fn)	SERVICE(TIME, mmxd_time_, t, req, f, fn)

/* The one dispatch table: the server's requests, then its services'. */
static const struct mmxd_request requests[] = {
	CORE(PING, 0, MMXD_REQ_BEFORE_AUTH, handle_ping),
	CORE(AUTH, sizeof(struct mmx_proto_auth), MMXD_REQ_BEFORE_AUTH,
	     handle_auth),
	CORE(HELLO, sizeof(struct mmx_proto_hello), MMXD_REQ_BEFORE_HELLO,
	     handle_hello),
	CORE(GET_STATE, sizeof(struct mmx_proto_get_state), MMXD_REQ_HELLO,
	     handle_get_state),
	CORE(APPLY, 0, MMXD_REQ_HELLO | MMXD_REQ_DATA, handle_apply),
	CORE(POINTER, sizeof(struct mmx_proto_pointer), MMXD_REQ_HELLO,
	     handle_pointer),
	CORE(CAPTURE, sizeof(struct mmx_proto_capture), MMXD_REQ_HELLO,
	     handle_capture),
	/* the services': streams, then TIME (AUDIO schedules: samples follow) */
	MEDIA(STREAM_OPEN, mmx_stream_config, FIXED, open),
	MEDIA(STREAM_CLOSE, mmx_proto_stream_ref, FIXED, close),
	MEDIA(STREAM_START, mmx_proto_stream_start, FIXED, start),
	MEDIA(STREAM_VIDEO, mmx_proto_stream_video, STREAM_DATA, video),
	MEDIA(STREAM_REPLACE, mmx_proto_stream_video, STREAM_DATA, video),
	MEDIA(STREAM_RETRACT, mmx_proto_stream_retract, FIXED, retract),
	MEDIA(STREAM_AUDIO, mmx_proto_stream_audio, STREAM_DATA, audio),
	MEDIA(CLOCK_QUERY, mmx_proto_stream_ref, FIXED, clock_query),
	TIME(CLOCK_CREATE, mmx_proto_clock_create, FIXED, clock_create),
	TIME(CLOCK_START, mmx_proto_clock_at, FIXED, clock_run),
	TIME(CLOCK_STOP, mmx_proto_clock_at, FIXED, clock_run),
	TIME(CLOCK_SET_RATE, mmx_proto_clock_rate, FIXED, clock_rate),
	TIME(CLOCK_READ, mmx_proto_clock_ref, FIXED, clock_read),
	TIME(CLOCK_DESTROY, mmx_proto_clock_ref, FIXED, clock_read),
	TIME(SCHEDULE_SUBMIT, mmx_schedule_request, DATA, submit),
	TIME(SCHEDULE_REPLACE, mmx_proto_schedule_replace, DATA, submit),
	TIME(SCHEDULE_RETRACT, mmx_proto_schedule_ref, FIXED, retract),
};

const struct mmxd_request *mmxd_request_find(uint16_t type)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(requests); i++)
		if (requests[i].type == type)
			return &requests[i];
	return NULL;
}

/*
 * NULL when @r's table entry allows a payload of @len bytes, else how the
 * length must compare with the entry's size.
 */
static const char *size_refused(const struct mmxd_request *r, size_t len)
{
	if ((r->flags & MMXD_REQ_STREAM_DATA) == MMXD_REQ_STREAM_DATA)
		return len > r->size ? NULL : "more than";
	if (r->flags & MMXD_REQ_DATA)
		return len >= r->size ? NULL : "at least";
	return len == r->size ? NULL : "not";
}

/*
 * Does @c's request @h (@r: its table entry, or NULL) break a rule of the
 * table or of the connection? 1 after the error reply, else 0.
 */
static int request_refused(struct mmxd_server *s, struct mmxd_conn *c,
			   const struct mmx_proto_header *h,
			   const struct mmxd_request *r, size_t len)
{
	const char *name = mmx_wire_type_name(h->type);
	const char *rule;

	if (h->flags) {
		reply_error(s, c, h, -EINVAL, "header flags 0x%x must be 0",
			    h->flags);
		return 1;
	}
	if (c->tcp && !c->authed &&
	    !(r && (r->flags & MMXD_REQ_BEFORE_AUTH))) {
		/* nothing but PING before the cookie: close */
		reply_error(s, c, h, -EACCES, "%s before AUTH", name);
		c->closing = 1;
		return 1;
	}
	if (!r) {
		reply_error(s, c, h, -ENOSYS,
			    "request type 0x%04x (%s) not implemented",
			    h->type, name);
		return 1;
	}
	if ((r->flags & MMXD_REQ_MEDIA) && !mmxd_server_media(s)) {
		reply_error(s, c, h, -ENOSYS,
			    "%s: no media streams in this server", name);
		return 1;
	}
	if ((r->flags & MMXD_REQ_HELLO) && !c->hello) {
		reply_error(s, c, h, -EPROTO, "%s before HELLO", name);
		return 1;
	}
	if ((r->flags & MMXD_REQ_BEFORE_HELLO) && c->hello) {
		reply_error(s, c, h, -EPROTO, "%s after HELLO", name);
		return 1;
	}
	rule = size_refused(r, len);
	if (rule) {
		reply_error(s, c, h, -EINVAL, "%s payload is %zu bytes, %s %u",
			    name, len, rule, r->size);
		return 1;
	}
	return 0;
}

/* Hand @c's request @h to the service of its entry @r. */
static void call_service(struct mmxd_server *s, struct mmxd_conn *c,
			 const struct mmx_proto_header *h,
			 const struct mmxd_request *r, const uint8_t *payload,
			 size_t len)
{
	const struct mmxd_call call = {
		.sink = mmxd_server_sink(s),
		.client = c,
		.h = h,
	};

	r->serve(mmxd_server_service(s, r->service), &call, payload, len);
}

void mmxd_handle(struct mmxd_server *s, struct mmxd_conn *c,
		 const struct mmx_proto_header *h, const uint8_t *payload,
		 size_t len)
{
	const struct mmxd_request *r = mmxd_request_find(h->type);

	if (request_refused(s, c, h, r, len))
		return;
	if (r->serve)
		call_service(s, c, h, r, payload, len);
	else
		r->handle(s, c, h, payload, len);
}
