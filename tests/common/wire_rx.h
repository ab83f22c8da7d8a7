/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * wire_rx.h - a receive buffer of mmx protocol bytes cut into whole
 * messages, for the test clients that read replies while they send
 * (tests/igt/mmxd_fuzz.c against a live mmxd, tests/unit/test_mmxd_server.c
 * against the in-process server). Needs mmx_wire.h (libmmx's framing).
 */
#ifndef MMX_TEST_WIRE_RX_H
#define MMX_TEST_WIRE_RX_H

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "mmx_wire.h"

/* Bytes received and not yet taken as messages. */
struct wire_rx {
	uint8_t *p;
	size_t len, cap;
};

/*
 * Receive all that non-blocking @fd has now into @rx: 0 once it would
 * block, -ECONNRESET at its end, -ENOMEM or -errno.
 */
static inline int wire_rx_fill(int fd, struct wire_rx *rx)
{
	for (;;) {
		ssize_t n;

		if (rx->cap - rx->len < 65536) {
			size_t cap = rx->cap * 2 + 65536;
			uint8_t *p = realloc(rx->p, cap);

			if (!p)
				return -ENOMEM;
			rx->p = p;
			rx->cap = cap;
		}
		n = recv(fd, rx->p + rx->len, rx->cap - rx->len, 0);
		if (n == 0)
			return -ECONNRESET;
		if (n < 0)
			return errno == EAGAIN || errno == EINTR ? 0 : -errno;
		rx->len += (size_t)n;
	}
}

/*
 * Take the first message (a REPLY's length at least) off @rx: its header
 * in @h and its payload in a malloc'ed *@payload. 1 when taken, 0 when
 * it is not all there yet, -EPROTO for a length no reply can have, or
 * -ENOMEM.
 */
static inline int wire_rx_take(struct wire_rx *rx, struct mmx_proto_header *h,
			       uint8_t **payload)
{
	if (rx->len < MMX_PROTO_HEADER_SIZE)
		return 0;
	mmx_wire_get_header(rx->p, h);
	if (h->length < MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE ||
	    h->length > MMX_PROTO_MAX_REPLY)
		return -EPROTO;
	if (rx->len < h->length)
		return 0;
	*payload = malloc(h->length);
	if (!*payload)
		return -ENOMEM;
	memcpy(*payload, rx->p + MMX_PROTO_HEADER_SIZE,
	       h->length - MMX_PROTO_HEADER_SIZE);
	memmove(rx->p, rx->p + h->length, rx->len - h->length);
	rx->len -= h->length;
	return 1;
}

/* A message as the test clients keep it, its payload split. */
struct wire_msg {
	struct mmx_proto_header h;
	struct mmx_proto_reply r;	/* a REPLY's first bytes */
	uint8_t *data;			/* after the reply struct */
	size_t len;			/* of data */
	uint8_t *raw;			/* the payload, malloc'ed */
};

/*
 * Decode the REPLY that starts @m's payload (@m->raw, @m->h.length bytes
 * with the header, checked by wire_rx_take() or the caller to hold a
 * REPLY): @m->r, and @m->data/@m->len what follows it.
 */
static inline void wire_msg_reply(struct wire_msg *m)
{
	memcpy(&m->r, m->raw, sizeof(m->r));
	m->data = m->raw + MMX_PROTO_REPLY_SIZE;
	m->len = m->h.length - MMX_PROTO_HEADER_SIZE - MMX_PROTO_REPLY_SIZE;
}

#endif /* MMX_TEST_WIRE_RX_H */
