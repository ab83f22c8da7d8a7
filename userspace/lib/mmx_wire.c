// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd protocol framing (see mmx_wire.h and
 * Documentation/mmxd-protocol.rst).
 */

#include <endian.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

#include "mmx_wire.h"

#if __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mmx protocol payloads are little-endian: big-endian hosts unsupported"
#endif

_Static_assert(sizeof(struct mmx_proto_header) == MMX_PROTO_HEADER_SIZE,
	       "protocol header layout");
_Static_assert(sizeof(struct mmx_proto_reply) == MMX_PROTO_REPLY_SIZE,
	       "protocol reply layout");
_Static_assert(sizeof(struct mmx_proto_hello) == 48, "HELLO layout");
_Static_assert(sizeof(struct mmx_proto_hello_reply) == 96,
	       "HELLO reply layout");

void mmx_wire_put_header(void *buf, uint32_t length, uint16_t type,
			 uint32_t sequence)
{
	uint8_t *p = buf;
	uint32_t l = htole32(length), s = htole32(sequence);
	uint16_t t = htole16(type), f = 0;

	memcpy(p, &l, 4);
	memcpy(p + 4, &t, 2);
	memcpy(p + 6, &f, 2);
	memcpy(p + 8, &s, 4);
}

void mmx_wire_get_header(const void *buf, struct mmx_proto_header *h)
{
	const uint8_t *p = buf;

	memcpy(&h->length, p, 4);
	memcpy(&h->type, p + 4, 2);
	memcpy(&h->flags, p + 6, 2);
	memcpy(&h->sequence, p + 8, 4);
	h->length = le32toh(h->length);
	h->type = le16toh(h->type);
	h->flags = le16toh(h->flags);
	h->sequence = le32toh(h->sequence);
}

int mmx_wire_check_length(uint32_t length, size_t max)
{
	if (length < MMX_PROTO_HEADER_SIZE)
		return -EPROTO;
	if (length > max)
		return -EMSGSIZE;
	return 0;
}

void mmx_wire_put_reply(void *buf, uint16_t request, int32_t error,
			const char *message)
{
	struct mmx_proto_reply r;

	memset(&r, 0, sizeof(r));
	r.request = htole16(request);
	r.error = (int32_t)htole32((uint32_t)error);
	if (message) {
		strncpy(r.message, message, sizeof(r.message) - 1);
		r.message[sizeof(r.message) - 1] = '\0';
	}
	memcpy(buf, &r, sizeof(r));
}

/* After a failed send or receive: -EAGAIN when it would block, or -errno. */
static ssize_t io_error(void)
{
	return errno == EAGAIN || errno == EWOULDBLOCK ? -EAGAIN : -errno;
}

ssize_t mmx_wire_recv_some(int fd, void *buf, size_t len, int flags)
{
	ssize_t n;

	do
		n = recv(fd, buf, len, flags);
	while (n < 0 && errno == EINTR);
	return n < 0 ? io_error() : n;
}

static ssize_t sendmsg_some(int fd, const struct msghdr *msg, int flags)
{
	ssize_t n;

	do
		n = sendmsg(fd, msg, flags | MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? io_error() : n;
}

ssize_t mmx_wire_send_some(int fd, const void *buf, size_t len, int flags)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };

	return sendmsg_some(fd, &msg, flags);
}

int mmx_wire_read_all(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		ssize_t n = mmx_wire_recv_some(fd, p, len, 0);

		if (n == -EAGAIN)
			return -ETIMEDOUT;
		if (n < 0)
			return (int)n;
		if (n == 0)
			return -ECONNRESET;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

static int writev_all(int fd, struct iovec *iov, int niov)
{
	while (niov) {
		struct msghdr msg = { .msg_iov = iov, .msg_iovlen = niov };
		ssize_t n = sendmsg_some(fd, &msg, 0);

		if (n == -EAGAIN)
			return -ETIMEDOUT;
		if (n < 0)
			return (int)n;
		/* skip what was sent */
		while (niov && (size_t)n >= iov->iov_len) {
			n -= (ssize_t)iov->iov_len;
			iov++;
			niov--;
		}
		if (niov) {
			iov->iov_base = (uint8_t *)iov->iov_base + n;
			iov->iov_len -= (size_t)n;
		}
	}
	return 0;
}

int mmx_wire_write_all(int fd, const void *buf, size_t len)
{
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };

	return writev_all(fd, &iov, 1);
}

int mmx_wire_send(int fd, uint16_t type, uint32_t sequence, const void *a,
		  size_t alen, const void *b, size_t blen)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE];
	struct iovec iov[3];
	int n = 0;
	size_t total = sizeof(hdr) + alen + blen;

	if (total > UINT32_MAX)
		return -EMSGSIZE;
	mmx_wire_put_header(hdr, (uint32_t)total, type, sequence);
	iov[n].iov_base = hdr;
	iov[n++].iov_len = sizeof(hdr);
	if (alen) {
		iov[n].iov_base = (void *)a;
		iov[n++].iov_len = alen;
	}
	if (blen) {
		iov[n].iov_base = (void *)b;
		iov[n++].iov_len = blen;
	}
	return writev_all(fd, iov, n);
}

int mmx_wire_recv(int fd, size_t max, struct mmx_proto_header *h,
		  void **payload)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE];
	size_t len;
	void *p = NULL;
	int ret;

	*payload = NULL;
	ret = mmx_wire_read_all(fd, hdr, sizeof(hdr));
	if (ret)
		return ret;
	mmx_wire_get_header(hdr, h);
	ret = mmx_wire_check_length(h->length, max);
	if (ret)
		return ret;
	len = h->length - MMX_PROTO_HEADER_SIZE;
	if (len) {
		p = malloc(len);
		if (!p)
			return -ENOMEM;
		ret = mmx_wire_read_all(fd, p, len);
		if (ret) {
			free(p);
			return ret;
		}
	}
	*payload = p;
	return 0;
}

void mmx_wire_terminate(char *s, size_t size)
{
	if (size)
		s[size - 1] = '\0';
}

#define TYPE_NAME(t) { MMX_MSG_##t, #t }

static const struct {
	uint16_t type;
	const char *name;
} type_names[] = {
	TYPE_NAME(HELLO), TYPE_NAME(PING), TYPE_NAME(AUTH),
	TYPE_NAME(SUBSCRIBE), TYPE_NAME(GET_STATE), TYPE_NAME(APPLY),
	TYPE_NAME(POINTER), TYPE_NAME(CAPTURE),
	TYPE_NAME(CLOCK_QUERY),
	TYPE_NAME(CLOCK_CREATE), TYPE_NAME(CLOCK_START),
	TYPE_NAME(CLOCK_STOP), TYPE_NAME(CLOCK_SET_RATE),
	TYPE_NAME(CLOCK_READ), TYPE_NAME(CLOCK_DESTROY),
	TYPE_NAME(SCHEDULE_SUBMIT), TYPE_NAME(SCHEDULE_RETRACT),
	TYPE_NAME(SCHEDULE_REPLACE), TYPE_NAME(STREAM_AUDIO),
	TYPE_NAME(STREAM_OPEN), TYPE_NAME(STREAM_CLOSE),
	TYPE_NAME(STREAM_START), TYPE_NAME(STREAM_VIDEO),
	TYPE_NAME(STREAM_RETRACT), TYPE_NAME(STREAM_REPLACE),
	TYPE_NAME(REPLY), TYPE_NAME(EVENT),
};

const char *mmx_wire_type_name(uint16_t type)
{
	size_t i;

	for (i = 0; i < sizeof(type_names) / sizeof(type_names[0]); i++)
		if (type_names[i].type == type)
			return type_names[i].name;
	if (type >= MMX_MSG_TIME_FIRST && type <= MMX_MSG_COMPRESS_LAST)
		return "reserved";
	return "unknown";
}
