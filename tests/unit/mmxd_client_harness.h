/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The client side of the mmxd host tests that talk to an in-process server
 * through socketpairs (test_mmxd_server.c, test_mmxd_socket.c,
 * test_mmxd_media.c, test_mmxd_time.c): the server under test, new clients,
 * pumping the server's loop, sending and receiving whole buffers, and a
 * display backend that answers nothing but HELLO. Built once
 * (mmxd_client_harness.c) and linked into each of them and into
 * test_mmxd_client.c, whose fake display captures with fake_capture_fill().
 */
#ifndef MMXD_CLIENT_HARNESS_H
#define MMXD_CLIENT_HARNESS_H

#include <stddef.h>
#include <stdint.h>

#include "mmxd.h"
#include "mmx_wire.h"

/* The server the helpers below run; the test creates and frees it. */
extern struct mmxd_server *srv;

/*
 * A display backend that applies nothing and captures nothing; its state
 * is *quiet_state_shown, or all zero (no outputs) while that is NULL.
 */
extern const struct mmx_display_ops quiet_display_ops;
extern const struct mmx_state *quiet_state_shown;

/* A new client of srv (@tcp: as a TCP one): our non-blocking end, or -1. */
int client_new_tcp(int tcp);
int client_new(void);

/* @n rounds of the server's loop without waiting. */
void pump(int n);

/*
 * Whether srv has no client left after @rounds of its loop (pump()); if
 * it has, how many is said on stderr.
 */
int clients_gone(int rounds);

/* Send all of @buf, pumping the server while the socket is full. */
int send_bytes(int fd, const void *buf, size_t len);

/* One message: header (@flags in its flags field), @a then @b. */
int send_msg(int fd, uint16_t type, uint16_t flags, uint32_t seq,
	     const void *payload, size_t len);
int send_msg2(int fd, uint16_t type, uint32_t seq, const void *a,
	      size_t alen, const void *b, size_t blen);

/* Read exactly @len bytes within @rounds server steps of 1 ms. */
int recv_bytes(int fd, void *buf, size_t len, int rounds);

/*
 * For a fake display's apply(): a deep copy of @src in @dst (cleared
 * first), through the config records (exact: doubles bit for bit).
 */
void config_keep(struct mmx_config *dst, const struct mmx_config *src);
/* 1 when @a and @b hold the same config (their records are the same). */
int config_same(const struct mmx_config *a, const struct mmx_config *b);

/* A HELLO of this protocol version from client "test". */
void hello_init(struct mmx_proto_hello *h);

/*
 * For a fake display's capture(): a @cw x @ch image whose pixel i is
 * @base + i * @step, malloc'ed in *@pixels; 0 or -ENOMEM.
 */
int fake_capture_fill(uint32_t cw, uint32_t ch, uint32_t base, uint32_t step,
		      uint32_t *w, uint32_t *h, uint32_t **pixels);

#endif /* MMXD_CLIENT_HARNESS_H */
