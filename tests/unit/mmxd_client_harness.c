// SPDX-License-Identifier: GPL-2.0-only
/*
 * The client side of the mmxd host tests (see mmxd_client_harness.h):
 * socketpair clients of the in-process server and whole-buffer I/O that
 * steps the server while it waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "mmxd_client_harness.h"

struct mmxd_server *srv;
const struct mmx_state *quiet_state_shown;

static int quiet_state(void *ctx, int probe, struct mmx_state *s)
{
	(void)ctx;
	(void)probe;
	mmx_state_clear(s);
	return quiet_state_shown ? mmx_state_copy(s, quiet_state_shown) : 0;
}

static int quiet_apply(void *ctx, const struct mmx_config *cfg,
		       struct mmx_error *err)
{
	(void)ctx;
	(void)cfg;
	(void)err;
	return 0;
}

static int quiet_pointer(void *ctx, int32_t x, int32_t y)
{
	(void)ctx;
	(void)x;
	(void)y;
	return 0;
}

static int quiet_capture(void *ctx, uint32_t crtc, uint32_t *w,
			 uint32_t *h, uint32_t **pixels)
{
	(void)ctx;
	(void)crtc;
	(void)w;
	(void)h;
	(void)pixels;
	return -EOPNOTSUPP;
}

const struct mmx_display_ops quiet_display_ops = {
	.state = quiet_state,
	.apply = quiet_apply,
	.pointer_moved = quiet_pointer,
	.capture = quiet_capture,
};

int client_new_tcp(int tcp)
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

int client_new(void)
{
	return client_new_tcp(0);
}

void pump(int n)
{
	while (n-- > 0)
		mmxd_server_step(srv, 0, -1);
}

int clients_gone(int rounds)
{
	unsigned int n;

	pump(rounds);
	n = mmxd_server_nclients(srv);
	if (n)
		fprintf(stderr, "%u clients left\n", n);
	return n == 0;
}

int send_bytes(int fd, const void *buf, size_t len)
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

static int send_frame(int fd, uint16_t type, uint16_t flags, uint32_t seq,
		      const void *a, size_t alen, const void *b, size_t blen)
{
	uint8_t *buf = malloc(MMX_PROTO_HEADER_SIZE + alen + blen);
	int ret;

	if (!buf)
		return -ENOMEM;
	mmx_wire_put_header(buf, (uint32_t)(MMX_PROTO_HEADER_SIZE + alen +
					    blen), type, seq);
	buf[6] = (uint8_t)flags;
	buf[7] = (uint8_t)(flags >> 8);
	if (alen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE, a, alen);
	if (blen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE + alen, b, blen);
	ret = send_bytes(fd, buf, MMX_PROTO_HEADER_SIZE + alen + blen);
	free(buf);
	return ret;
}

int send_msg(int fd, uint16_t type, uint16_t flags, uint32_t seq,
	     const void *payload, size_t len)
{
	return send_frame(fd, type, flags, seq, payload, len, NULL, 0);
}

int send_msg2(int fd, uint16_t type, uint32_t seq, const void *a,
	      size_t alen, const void *b, size_t blen)
{
	return send_frame(fd, type, 0, seq, a, alen, b, blen);
}

int recv_bytes(int fd, void *buf, size_t len, int rounds)
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

void config_keep(struct mmx_config *dst, const struct mmx_config *src)
{
	uint8_t *rec;
	size_t len;

	if (mmx_wire_encode_config(src, &rec, &len) ||
	    mmx_wire_decode_config(rec, len, dst))
		abort();
	free(rec);
}

int config_same(const struct mmx_config *a, const struct mmx_config *b)
{
	uint8_t *ra = NULL, *rb = NULL;
	size_t la = 0, lb = 0;
	int same;

	same = !mmx_wire_encode_config(a, &ra, &la) &&
	       !mmx_wire_encode_config(b, &rb, &lb) && la == lb &&
	       !memcmp(ra, rb, la);
	free(ra);
	free(rb);
	return same;
}

void hello_init(struct mmx_proto_hello *h)
{
	memset(h, 0, sizeof(*h));
	h->major = MMX_PROTO_MAJOR;
	h->minor = MMX_PROTO_MINOR;
	strcpy(h->client, "test");
}

int fake_capture_fill(uint32_t cw, uint32_t ch, uint32_t base, uint32_t step,
		      uint32_t *w, uint32_t *h, uint32_t **pixels)
{
	uint32_t i;

	*w = cw;
	*h = ch;
	*pixels = malloc((size_t)cw * ch * 4);
	if (!*pixels)
		return -ENOMEM;
	for (i = 0; i < cw * ch; i++)
		(*pixels)[i] = base + i * step;
	return 0;
}
