/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx internals: a display is a local KMS backend (mmx_kms_*) or a
 * connection to mmxd (mmx_client_*), both behind struct mmx_display_ops;
 * mmx_display.c calls the public API's display operations through it.
 */

#ifndef MMX_INTERNAL_H
#define MMX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "libmmx.h"
#include "mmx_display_ops.h"

struct mmx_kms;
struct mmx_client;
struct mmx_stream;

/*
 * @ops over @backend: the display operations. @remote: the same backend
 * when it is mmxd (whose services go beyond the operations: streams,
 * clocks), or NULL.
 */
struct mmx_display {
	const struct mmx_display_ops *ops;
	void *backend;
	struct mmx_client *remote;
	struct mmx_stream *stream;	/* the open media stream, or NULL */
	struct mmx_time *time;		/* TIME events (mmx_time.c), or NULL */
};

struct mmx_time;
/* Free the TIME state (the display is closing). */
void mmx_time_free(struct mmx_time *t);

/* Free a stream without telling mmxd (the display is closing). */
void mmx_stream_forget(struct mmx_stream *s);

/*
 * Local backend: KMS through libdrm (mmx_kms*.c). Its operations take a
 * struct mmx_kms.
 */
int mmx_kms_open(int fd, int own_fd, struct mmx_kms **out);
extern const struct mmx_display_ops mmx_kms_display_ops;
void mmx_kms_close(void *ctx);
int mmx_kms_state(void *ctx, int probe, struct mmx_state *s);
int mmx_kms_apply(void *ctx, const struct mmx_config *cfg,
		  struct mmx_error *err);
int mmx_kms_pointer_moved(void *ctx, int32_t x, int32_t y);
int mmx_kms_capture(void *ctx, uint32_t crtc, uint32_t *width,
		    uint32_t *height, uint32_t **pixels);

/*
 * Remote backend: the mmxd protocol (mmx_client.c). Its operations take a
 * struct mmx_client.
 */
int mmx_client_connect(const char *path, struct mmx_client **out);
/* "HOST:PORT": TCP, then AUTH with the cookie of $MMX_AUTH_FILE. */
int mmx_client_connect_tcp(const char *spec, struct mmx_client **out);
extern const struct mmx_display_ops mmx_client_display_ops;
void mmx_client_close(void *ctx);
int mmx_client_state(void *ctx, int probe, struct mmx_state *s);
int mmx_client_apply(void *ctx, const struct mmx_config *cfg,
		     struct mmx_error *err);
int mmx_client_pointer_moved(void *ctx, int32_t x, int32_t y);
int mmx_client_capture(void *ctx, uint32_t crtc, uint32_t *width,
		       uint32_t *height, uint32_t **pixels);

/* For media streams (mmx_stream.c). */
int mmx_client_fd(const struct mmx_client *c);
/* HELLO reply's caps (MMX_PROTO_CAP_*). */
uint32_t mmx_client_caps(const struct mmx_client *c);
/* Where MMX_PROTO_EVENT_SCHEDULE payloads go (else the event sink). */
void mmx_client_set_time_sink(struct mmx_client *c,
			      void (*sink)(void *ctx, const void *payload,
					   size_t len),
			      void *ctx);
/* Where EVENT payloads go (while a request waits and in wait_event). */
void mmx_client_set_event_sink(struct mmx_client *c,
			       void (*sink)(void *ctx, const void *payload,
					    size_t len),
			       void *ctx);
/* Bytes written and read on the socket since connecting. */
void mmx_client_counters(const struct mmx_client *c, uint64_t *sent,
			 uint64_t *received);
/*
 * Send request @type (@req then @data) and wait for its reply, whose data
 * must be @out_len bytes, copied to @out. Returns the transport error or
 * the reply's.
 */
int mmx_client_request(struct mmx_client *c, uint16_t type, const void *req,
		       size_t req_len, const void *data, size_t data_len,
		       void *out, size_t out_len);
/* Wait up to @timeout_ms for one EVENT (to the sink): 1, 0 or -errno. */
int mmx_client_wait_event(struct mmx_client *c, int timeout_ms);

/* Set @err (may be NULL) to @e and a printf message; returns @e. */
int mmx_error_set(struct mmx_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* MMX_INTERNAL_H */
