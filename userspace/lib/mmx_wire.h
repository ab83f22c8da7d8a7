/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd protocol framing shared by libmmx's remote backend and mmxd:
 * header encoding, whole-message I/O on blocking sockets (EINTR and
 * partial transfers handled, SO_RCVTIMEO/SO_SNDTIMEO expiry reported as
 * -ETIMEDOUT) and the checks every received payload goes through.
 */

#ifndef MMX_WIRE_H
#define MMX_WIRE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "mmx_protocol.h"
#include "mmx_config.h"
#include "mmx_state.h"

/* Encode a header at @buf (MMX_PROTO_HEADER_SIZE bytes, little-endian). */
void mmx_wire_put_header(void *buf, uint32_t length, uint16_t type,
			 uint32_t sequence);
/* Decode the header at @buf. */
void mmx_wire_get_header(const void *buf, struct mmx_proto_header *h);
/*
 * Check the length of a received header: -EPROTO when shorter than the
 * header (the stream cannot be resynchronised), -EMSGSIZE when above @max.
 */
int mmx_wire_check_length(uint32_t length, size_t max);

/* Encode a struct mmx_proto_reply at @buf (MMX_PROTO_REPLY_SIZE bytes). */
void mmx_wire_put_reply(void *buf, uint16_t request, int32_t error,
			const char *message);

/*
 * Blocking I/O on a socket: every byte or an error. Read returns
 * -ECONNRESET at end of file; both return -ETIMEDOUT when the socket's
 * timeout expires. Sends use MSG_NOSIGNAL (no SIGPIPE: -EPIPE instead).
 */
int mmx_wire_read_all(int fd, void *buf, size_t len);
int mmx_wire_write_all(int fd, const void *buf, size_t len);

/*
 * One recv() or send() (MSG_NOSIGNAL added), EINTR retried: the bytes
 * moved, -EAGAIN when the socket would block or its timeout expired, or
 * -errno.
 */
ssize_t mmx_wire_recv_some(int fd, void *buf, size_t len, int flags);
ssize_t mmx_wire_send_some(int fd, const void *buf, size_t len, int flags);

/* Send a message: header, then @a (@alen bytes), then @b (@blen). */
int mmx_wire_send(int fd, uint16_t type, uint32_t sequence, const void *a,
		  size_t alen, const void *b, size_t blen);
/*
 * Receive a message of at most @max bytes: its header into @h and its
 * payload (h->length - header bytes, may be 0) into a malloc'ed *@payload
 * (NULL when empty) the caller frees.
 */
int mmx_wire_recv(int fd, size_t max, struct mmx_proto_header *h,
		  void **payload);

/* NUL-terminate a received fixed-size string field. */
void mmx_wire_terminate(char *s, size_t size);

/*
 * The records encoding of a state (GET_STATE's reply data,
 * mmx_wire_state.c): *@out (malloc'ed, the caller frees) gets *@len bytes.
 * -E2BIG when a string is longer than 255 bytes, -ERANGE when a matrix
 * entry is not finite or outside S31.32's +-32768, -ENOMEM.
 */
int mmx_wire_encode_state(const struct mmx_state *s, uint8_t **out,
			  size_t *len);
/*
 * Decode @len bytes of records into @s (a zeroed state or one to clear
 * first), its arrays and strings in @s's arena. -EBADMSG when they end
 * early, have bytes left over, count more entries than bytes follow or
 * hold an invalid value (a NUL in a string, unknown bits, more preferred
 * modes than modes); -E2BIG when a mode name does not fit struct
 * mmx_mode; -ENOMEM. On error @s is clear (all zero).
 */
int mmx_wire_decode_state(const void *buf, size_t len, struct mmx_state *s);

/*
 * The records encoding of a config (APPLY's payload, mmx_wire_state.c):
 * *@out (malloc'ed, the caller frees) gets *@len bytes. Only the used
 * changes and properties; the transform's entries as the bit patterns of
 * their doubles. -E2BIG when a string is longer than 255 bytes, -ENOMEM.
 */
int mmx_wire_encode_config(const struct mmx_config *cfg, uint8_t **out,
			   size_t *len);
/*
 * Decode @len bytes of records into @cfg (a zeroed config or one to clear
 * first), in @cfg's arena. -EBADMSG when they end early, have bytes left
 * over, count more entries than bytes follow or hold an invalid value (a
 * NUL in a string, unknown parts bits); -E2BIG when a mode name does not
 * fit struct mmx_mode; -ENOMEM. On error @cfg is clear (all zero).
 */
int mmx_wire_decode_config(const void *buf, size_t len,
			   struct mmx_config *cfg);

/* A name for logs: "HELLO", "GET_STATE", ..., "reserved", "unknown". */
const char *mmx_wire_type_name(uint16_t type);

#endif /* MMX_WIRE_H */
