/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx internals: a display is a local KMS backend (mmx_kms_*) or a
 * connection to mmxd (mmx_client_*); mmx_display.c dispatches the public
 * API to one of them.
 */

#ifndef MMX_INTERNAL_H
#define MMX_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "libmmx.h"

struct mmx_kms;
struct mmx_client;
struct mmx_stream;

struct mmx_display {
	struct mmx_kms *kms;		/* local, or NULL */
	struct mmx_client *client;	/* remote, or NULL */
	struct mmx_stream *stream;	/* the open media stream, or NULL */
	struct mmx_time *time;		/* TIME events (mmx_time.c), or NULL */
};

struct mmx_time;
/* Free the TIME state (the display is closing). */
void mmx_time_free(struct mmx_time *t);

/* Free a stream without telling mmxd (the display is closing). */
void mmx_stream_forget(struct mmx_stream *s);

/* Local backend: KMS through libdrm (mmx_kms*.c). */
int mmx_kms_open(int fd, int own_fd, struct mmx_kms **out);
void mmx_kms_close(struct mmx_kms *k);
int mmx_kms_fd(const struct mmx_kms *k);
int mmx_kms_state(struct mmx_kms *k, int probe, struct mmx_state *s);
int mmx_kms_apply(struct mmx_kms *k, const struct mmx_config *cfg,
		  struct mmx_error *err);
int mmx_kms_pointer_moved(struct mmx_kms *k, int32_t x, int32_t y);
int mmx_kms_capture(struct mmx_kms *k, uint32_t crtc, uint32_t *width,
		    uint32_t *height, uint32_t **pixels);

/* Remote backend: the mmxd protocol (mmx_client.c). */
int mmx_client_connect(const char *path, struct mmx_client **out);
/* "HOST:PORT": TCP, then AUTH with the cookie of $MMX_AUTH_FILE. */
int mmx_client_connect_tcp(const char *spec, struct mmx_client **out);
void mmx_client_close(struct mmx_client *c);
int mmx_client_state(struct mmx_client *c, int probe, struct mmx_state *s);
int mmx_client_apply(struct mmx_client *c, const struct mmx_config *cfg,
		     struct mmx_error *err);
int mmx_client_pointer_moved(struct mmx_client *c, int32_t x, int32_t y);
int mmx_client_capture(struct mmx_client *c, uint32_t crtc, uint32_t *width,
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
