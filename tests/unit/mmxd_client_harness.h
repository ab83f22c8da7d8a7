/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The client side of the mmxd host tests that talk to the server through
 * socketpairs (test_mmxd_media.c, test_mmxd_time.c): new clients, pumping
 * the server's loop, sending and receiving whole buffers. Expects the
 * test's `static struct mmxd_server *srv` to be declared first.
 */
#ifndef MMXD_CLIENT_HARNESS_H
#define MMXD_CLIENT_HARNESS_H

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "mmxd.h"
#include "mmx_wire.h"

static int client_new_tcp(int tcp)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv))
		return -1;
	if ((tcp ? mmxd_server_add_tcp_client :
	     mmxd_server_add_client)(srv, sv[0])) {
		close(sv[1]);
		return -1;
	}
	fcntl(sv[1], F_SETFL, fcntl(sv[1], F_GETFL) | O_NONBLOCK);
	return sv[1];
}

static void pump(int n)
{
	while (n-- > 0)
		mmxd_server_step(srv, 0, -1);
}

static int send_bytes(int fd, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			pump(1);
			continue;
		}
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int send_msg2(int fd, uint16_t type, uint32_t seq, const void *a,
		     size_t alen, const void *b, size_t blen)
{
	uint8_t *buf = malloc(MMX_PROTO_HEADER_SIZE + alen + blen);
	int ret;

	if (!buf)
		return -ENOMEM;
	mmx_wire_put_header(buf, (uint32_t)(MMX_PROTO_HEADER_SIZE + alen +
					    blen), type, seq);
	if (alen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE, a, alen);
	if (blen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE + alen, b, blen);
	ret = send_bytes(fd, buf, MMX_PROTO_HEADER_SIZE + alen + blen);
	free(buf);
	return ret;
}

static int recv_bytes(int fd, void *buf, size_t len, int rounds)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = recv(fd, p, len, 0);

		if (n == 0)
			return -ECONNRESET;
		if (n < 0) {
			if (errno != EAGAIN && errno != EINTR)
				return -errno;
			if (rounds-- <= 0)
				return -ETIMEDOUT;
			mmxd_server_step(srv, 1, -1);
			continue;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

#endif /* MMXD_CLIENT_HARNESS_H */
