/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The boundary between mmxd's server and its services (the media streams
 * and TIME), as the X server has it between its dispatcher and its
 * extensions: the server owns the connections, their framing and the one
 * dispatch table, whose entries for a service's requests name its
 * handlers (mmxd_service_handler); a service is called with each such
 * request (struct mmxd_call). Whatever a service sends to a client, the
 * reply to a call or an event of its own, and its log lines go through the
 * event sink the server gives it (struct mmxd_sink); a service includes
 * nothing of the server. To a service a client is an opaque handle
 * (struct mmxd_conn, never defined here): compared, kept, handed back.
 */

#ifndef MMXD_SERVICE_H
#define MMXD_SERVICE_H

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "mmx_protocol.h"

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

/* A client of the server: opaque to the services. */
struct mmxd_conn;

/**
 * struct mmxd_service_events - what a service may ask of the server
 * @reply: answer request @h of @client: error @err (0: success) with
 *	@msg, then @len bytes of @data (exactly one reply a request)
 * @event: queue EVENT @event with @len bytes of @data on @client; 0 or
 *	-errno (the client is gone or does not read)
 * @log: a log line about @client at @level (0: errors, 1: connections and
 *	failed requests, 2: every request)
 */
struct mmxd_service_events {
	void (*reply)(void *ctx, struct mmxd_conn *client,
		      const struct mmx_proto_header *h, int err,
		      const char *msg, const void *data, size_t len);
	int (*event)(void *ctx, struct mmxd_conn *client, uint32_t event,
		     const void *data, size_t len);
	void (*log)(void *ctx, const struct mmxd_conn *client, int level,
		    const char *fmt, va_list ap);
};

/**
 * struct mmxd_sink - the server's events table and its context
 * @ops: the table (NULL: not bound to a server yet, nothing is sent)
 * @ctx: its first argument
 */
struct mmxd_sink {
	const struct mmxd_service_events *ops;
	void *ctx;
};

/**
 * struct mmxd_call - one request handed to a service
 * @sink: where its reply goes
 * @client: who sent it
 * @h: its header
 */
struct mmxd_call {
	const struct mmxd_sink *sink;
	struct mmxd_conn *client;
	const struct mmx_proto_header *h;
};

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
 * Answer one complete request of @service (the object the server holds)
 * with exactly one reply; @len is what the table allows.
 */
typedef void mmxd_service_handler(void *service, const struct mmxd_call *call,
				  const uint8_t *payload, size_t len);

/* Reply to @call: error @err (0: success) with @msg, then @data. */
static inline void mmxd_call_reply(const struct mmxd_call *call, int err,
				   const char *msg, const void *data,
				   size_t len)
{
	const struct mmxd_sink *sink = call->sink;

	sink->ops->reply(sink->ctx, call->client, call->h, err, msg, data,
			 len);
}

/* @size bytes zeroed for @call, or NULL after replying -ENOMEM. */
static inline void *mmxd_call_calloc(const struct mmxd_call *call,
				     size_t size)
{
	void *p = calloc(1, size);

	if (!p)
		mmxd_call_reply(call, -ENOMEM, "out of memory", NULL, 0);
	return p;
}

/* Queue EVENT @event on @client through @sink; 0 or -errno. */
static inline int mmxd_sink_event(const struct mmxd_sink *sink,
				  struct mmxd_conn *client, uint32_t event,
				  const void *data, size_t len)
{
	if (!sink->ops)
		return -ENOTCONN;
	return sink->ops->event(sink->ctx, client, event, data, len);
}

static inline void mmxd_sink_log(const struct mmxd_sink *sink,
				 const struct mmxd_conn *client, int level,
				 const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* A log line about @client through @sink. */
static inline void mmxd_sink_log(const struct mmxd_sink *sink,
				 const struct mmxd_conn *client, int level,
				 const char *fmt, ...)
{
	va_list ap;

	if (!sink->ops)
		return;
	va_start(ap, fmt);
	sink->ops->log(sink->ctx, client, level, fmt, ap);
	va_end(ap);
}

#endif /* MMXD_SERVICE_H */
