// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx's remote backend: a blocking client of mmxd
 * (Documentation/mmxd-protocol.rst). One request at a time; every socket
 * operation has a timeout (MMX_CLIENT_TIMEOUT_MS, MMX_CLIENT_START_MS
 * until the server has said HELLO), so that a wedged daemon makes calls
 * fail with -ETIMEDOUT instead of hanging. After a
 * transport or protocol error the connection is unusable and every later
 * call returns -ENOTCONN.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "mmx_internal.h"
#include "mmx_wire.h"

/* Each send or receive on the socket gives up after this long. */
#define MMX_CLIENT_TIMEOUT_MS	5000
/*
 * ... except up to the server's HELLO: the first client of a socket-activated
 * mmxd waits for systemd to start it, which takes seconds on a slow or
 * loaded machine (an emulator).
 */
#define MMX_CLIENT_START_MS	30000

struct mmx_client {
	int fd;
	uint32_t sequence;
	int broken;		/* the stream is unusable */
	struct mmx_proto_hello_reply server;
	/* EVENT messages go here (else they are dropped) */
	void (*event_sink)(void *ctx, const void *payload, size_t len);
	void *event_ctx;
	/* MMX_PROTO_EVENT_SCHEDULE events go here (mmx_time.c) */
	void (*time_sink)(void *ctx, const void *payload, size_t len);
	void *time_ctx;
	uint64_t bytes_sent;
	uint64_t bytes_received;
};

/* An EVENT payload to its sink: schedules to the time sink, others to the
 * event sink (streams). */
static void deliver_event(struct mmx_client *c, const void *p, size_t len)
{
	struct mmx_proto_event e;

	if (len >= sizeof(e)) {
		memcpy(&e, p, sizeof(e));
		if (e.event == MMX_PROTO_EVENT_SCHEDULE) {
			if (c->time_sink)
				c->time_sink(c->time_ctx, p, len);
			return;
		}
	}
	if (c->event_sink)
		c->event_sink(c->event_ctx, p, len);
}

/* Fill @err (may be NULL); a local twin of mmx_error_set(). */
static int client_error(struct mmx_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int client_error(struct mmx_error *err, int e, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		err->err = e;
		va_start(ap, fmt);
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return e;
}

static int set_timeouts(int fd, unsigned int ms)
{
	struct timeval tv = {
		.tv_sec = ms / 1000,
		.tv_usec = (ms % 1000) * 1000,
	};

	if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))
		return -errno;
	return 0;
}

/*
 * Sending failed with @ret: a server that refused us may have closed
 * already, its refusal waiting to be read. Returns the error to report.
 */
static int refused_error(struct mmx_client *c, int ret,
			 struct mmx_proto_reply *reply)
{
	struct mmx_proto_header h;
	void *p;

	if ((ret != -EPIPE && ret != -ECONNRESET) ||
	    mmx_wire_recv(c->fd, MMX_PROTO_MAX_REPLY, &h, &p))
		return ret;
	if (h.type == MMX_MSG_REPLY && h.sequence == 0 &&
	    h.length - MMX_PROTO_HEADER_SIZE >= MMX_PROTO_REPLY_SIZE) {
		memcpy(reply, p, sizeof(*reply));
		if (reply->request == 0 && reply->error < 0)
			ret = reply->error;
	}
	free(p);
	return ret;
}

/* The next message that is not an EVENT (the EVENTs delivered). */
static int recv_skipping_events(struct mmx_client *c,
				struct mmx_proto_header *h, void **p)
{
	int ret;

	for (;;) {
		ret = mmx_wire_recv(c->fd, MMX_PROTO_MAX_REPLY, h, p);
		if (ret)
			return ret;
		c->bytes_received += h->length;
		if (h->type != MMX_MSG_EVENT)
			return 0;
		deliver_event(c, *p, h->length - MMX_PROTO_HEADER_SIZE);
		free(*p);
	}
}

/* Whether message @h (payload @p) is the REPLY to request @seq of @type. */
static int check_reply(const struct mmx_proto_header *h, void *p,
		       uint32_t seq, uint16_t type,
		       struct mmx_proto_reply *reply)
{
	if (h->type != MMX_MSG_REPLY || h->flags ||
	    h->length - MMX_PROTO_HEADER_SIZE < MMX_PROTO_REPLY_SIZE)
		return -EPROTO;
	memcpy(reply, p, sizeof(*reply));
	mmx_wire_terminate(reply->message, sizeof(reply->message));
	if (h->sequence == 0 && reply->request == 0)
		/* refused by the server (credentials, too many clients) */
		return reply->error < 0 ? reply->error : -ECONNREFUSED;
	if (h->sequence != seq || reply->request != type ||
	    reply->error > 0)
		return -EPROTO;
	return 0;
}

/*
 * Send one request and wait for its reply, skipping EVENTs. On success
 * *@payload (malloc'ed, the caller frees) holds the whole REPLY payload:
 * the struct mmx_proto_reply, decoded into @reply, then *@len - its size
 * bytes of data. Returns 0 when a reply came (its error is in @reply),
 * else a transport or protocol error.
 */
static int transact2(struct mmx_client *c, uint16_t type, const void *req,
		     size_t req_len, const void *data, size_t data_len,
		     struct mmx_proto_reply *reply, uint8_t **payload,
		     size_t *len)
{
	struct mmx_proto_header h;
	uint32_t seq;
	void *p;
	int ret;

	*payload = NULL;
	*len = 0;
	if (c->broken)
		return -ENOTCONN;
	seq = ++c->sequence;
	if (!seq)
		seq = c->sequence = 1;
	ret = mmx_wire_send(c->fd, type, seq, req, req_len, data, data_len);
	if (ret) {
		ret = refused_error(c, ret, reply);
		goto broken;
	}
	c->bytes_sent += MMX_PROTO_HEADER_SIZE + req_len + data_len;
	ret = recv_skipping_events(c, &h, &p);
	if (ret)
		goto broken;
	ret = check_reply(&h, p, seq, type, reply);
	if (ret) {
		free(p);
		goto broken;
	}
	*payload = p;
	*len = h.length - MMX_PROTO_HEADER_SIZE;
	return 0;

broken:
	c->broken = 1;
	return ret;
}

static int transact(struct mmx_client *c, uint16_t type, const void *req,
		    size_t req_len, struct mmx_proto_reply *reply,
		    uint8_t **payload, size_t *len)
{
	return transact2(c, type, req, req_len, NULL, 0, reply, payload, len);
}

/* Read the cookie file: $MMX_AUTH_FILE or MMX_DEFAULT_AUTH_FILE. */
static int read_cookie(struct mmx_proto_auth *auth)
{
	const char *path = getenv("MMX_AUTH_FILE");
	ssize_t n;
	int fd;

	if (!path || !*path)
		path = MMX_DEFAULT_AUTH_FILE;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, auth->cookie, sizeof(auth->cookie));
	close(fd);
	if (n < 0)
		return -errno;
	return n == (ssize_t)sizeof(auth->cookie) ? 0 : -EINVAL;
}

/* Split "HOST:PORT" or "[HOST]:PORT" into @host and @port. */
static int split_host_port(const char *spec, char *host, size_t hsize,
			   char *port, size_t psize)
{
	const char *colon, *h = spec;
	size_t hlen;

	if (*spec == '[') {
		const char *close_br = strchr(spec, ']');

		if (!close_br || close_br[1] != ':')
			return -EINVAL;
		h = spec + 1;
		hlen = (size_t)(close_br - h);
		colon = close_br + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon)
			return -EINVAL;
		hlen = (size_t)(colon - spec);
	}
	if (!hlen || hlen >= hsize || !colon[1] || strlen(colon + 1) >= psize)
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	strcpy(port, colon + 1);
	return 0;
}

/* A connected TCP socket to @spec ("HOST:PORT"), or -errno. */
static int connect_tcp(const char *spec)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM }, *res, *ai;
	char host[256], port[32];
	int fd = -1, ret, one = 1;

	ret = split_host_port(spec, host, sizeof(host), port, sizeof(port));
	if (ret)
		return ret;
	ret = getaddrinfo(host, port, &hints, &res);
	if (ret)
		return ret == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	ret = -ECONNREFUSED;
	for (ai = res; ai; ai = ai->ai_next) {
		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			ret = -errno;
			continue;
		}
		ret = set_timeouts(fd, MMX_CLIENT_START_MS);
		if (!ret && connect(fd, ai->ai_addr, ai->ai_addrlen))
			ret = errno == EAGAIN || errno == EINPROGRESS ?
			      -ETIMEDOUT : -errno;
		if (!ret)
			break;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		return ret;
	/* small requests (retract, events) must not wait for Nagle */
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return fd;
}

static int handshake(struct mmx_client *c, int tcp);

int mmx_client_connect_tcp(const char *spec, struct mmx_client **out)
{
	struct mmx_client *c;
	int ret;

	*out = NULL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fd = connect_tcp(spec);
	if (c->fd < 0) {
		ret = c->fd;
		free(c);
		return ret;
	}
	ret = handshake(c, 1);
	if (ret) {
		close(c->fd);
		free(c);
		return ret;
	}
	*out = c;
	return 0;
}

int mmx_client_connect(const char *path, struct mmx_client **out)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct mmx_client *c;
	int ret;

	*out = NULL;
	if (!path)
		path = getenv("MMX_SOCKET");
	if (!path || !*path)
		path = MMX_DEFAULT_SOCKET;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);

	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0) {
		ret = -errno;
		free(c);
		return ret;
	}
	ret = set_timeouts(c->fd, MMX_CLIENT_START_MS);
	if (ret)
		goto err_close;
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = errno == EAGAIN ? -ETIMEDOUT : -errno;
		goto err_close;
	}
	ret = handshake(c, 0);
	if (ret)
		goto err_close;
	*out = c;
	return 0;

err_close:
	close(c->fd);
	free(c);
	return ret;
}

/* AUTH (on TCP) and HELLO. */
static int handshake(struct mmx_client *c, int tcp)
{
	struct mmx_proto_hello hello;
	struct mmx_proto_reply reply;
	uint8_t *payload;
	size_t len;
	int ret;

	if (tcp) {
		struct mmx_proto_auth auth;

		ret = read_cookie(&auth);
		if (ret)
			return ret == -ENOENT ? -EACCES : ret;
		ret = transact(c, MMX_MSG_AUTH, &auth, sizeof(auth), &reply,
			       &payload, &len);
		memset(&auth, 0, sizeof(auth));
		if (ret)
			return ret;
		free(payload);
		if (reply.error)
			return reply.error;
	}
	memset(&hello, 0, sizeof(hello));
	hello.major = MMX_PROTO_MAJOR;
	hello.minor = MMX_PROTO_MINOR;
	snprintf(hello.client, sizeof(hello.client), "%s",
		 program_invocation_short_name);
	ret = transact(c, MMX_MSG_HELLO, &hello, sizeof(hello), &reply,
		       &payload, &len);
	if (ret)
		return ret;
	ret = reply.error;
	if (!ret && len != MMX_PROTO_REPLY_SIZE + sizeof(c->server))
		ret = -EPROTO;
	if (!ret) {
		memcpy(&c->server, payload + MMX_PROTO_REPLY_SIZE,
		       sizeof(c->server));
		mmx_wire_terminate(c->server.driver, sizeof(c->server.driver));
		mmx_wire_terminate(c->server.server, sizeof(c->server.server));
		if (c->server.major != MMX_PROTO_MAJOR)
			ret = -EPROTO;
	}
	free(payload);
	if (!ret)
		ret = set_timeouts(c->fd, MMX_CLIENT_TIMEOUT_MS);
	return ret;
}

void mmx_client_close(void *ctx)
{
	struct mmx_client *c = ctx;

	if (!c)
		return;
	close(c->fd);
	free(c);
}

/*
 * The state (GET_STATE's records). Undecodable data is -EPROTO and breaks
 * the connection.
 */
int mmx_client_state(void *ctx, int probe, struct mmx_state *s)
{
	struct mmx_client *c = ctx;
	struct mmx_proto_get_state req = { .probe = probe ? 1 : 0 };
	struct mmx_proto_reply reply;
	uint8_t *payload;
	size_t len;
	int ret;

	ret = transact(c, MMX_MSG_GET_STATE, &req, sizeof(req), &reply,
		       &payload, &len);
	if (ret)
		return ret;
	ret = reply.error;
	if (!ret)
		ret = mmx_wire_decode_state(payload + MMX_PROTO_REPLY_SIZE,
					    len - MMX_PROTO_REPLY_SIZE, s) ?
		      -EPROTO : 0;
	if (!ret)
		s->flags |= MMX_STATE_REMOTE;
	free(payload);
	if (ret == -EPROTO)
		c->broken = 1;
	return ret;
}

int mmx_client_apply(void *ctx, const struct mmx_config *cfg,
		     struct mmx_error *err)
{
	struct mmx_client *c = ctx;
	struct mmx_proto_reply reply;
	uint8_t *payload, *records = NULL;
	size_t len, rlen = 0;
	int ret;

	ret = mmx_wire_encode_config(cfg, &records, &rlen);
	if (ret == -E2BIG)
		return client_error(err, -EINVAL,
				    "config: a name or value longer than 255 bytes");
	if (ret)
		return client_error(err, ret, "config: %s", strerror(-ret));
	if (MMX_PROTO_HEADER_SIZE + rlen > c->server.max_request) {
		free(records);
		return client_error(err, -E2BIG,
				    "config: %zu bytes, mmxd takes at most %u",
				    rlen, c->server.max_request);
	}
	ret = transact(c, MMX_MSG_APPLY, records, rlen, &reply, &payload,
		       &len);
	free(records);
	if (ret)
		return client_error(err, ret, "mmxd: %s", strerror(-ret));
	free(payload);
	if (reply.error)
		return client_error(err, reply.error, "%s",
				    reply.message[0] ? reply.message :
				    strerror(-reply.error));
	return client_error(err, 0, "%s", "");
}

int mmx_client_pointer_moved(void *ctx, int32_t x, int32_t y)
{
	struct mmx_client *c = ctx;
	struct mmx_proto_pointer req = { .x = x, .y = y };
	struct mmx_proto_reply reply;
	uint8_t *payload;
	size_t len;
	int ret;

	ret = transact(c, MMX_MSG_POINTER, &req, sizeof(req), &reply,
		       &payload, &len);
	if (ret)
		return ret;
	free(payload);
	return reply.error;
}

int mmx_client_capture(void *ctx, uint32_t crtc, uint32_t *width,
		       uint32_t *height, uint32_t **pixels)
{
	struct mmx_client *c = ctx;
	struct mmx_proto_capture req = { .crtc = crtc };
	struct mmx_proto_capture_reply cap;
	struct mmx_proto_reply reply;
	const size_t off = MMX_PROTO_REPLY_SIZE + sizeof(cap);
	uint8_t *payload;
	size_t len, bytes;
	uint32_t *px;
	int ret;

	*pixels = NULL;
	*width = *height = 0;
	ret = transact(c, MMX_MSG_CAPTURE, &req, sizeof(req), &reply,
		       &payload, &len);
	if (ret)
		return ret;
	ret = reply.error;
	if (ret)
		goto out;
	ret = -EPROTO;
	if (len < off)
		goto out;
	memcpy(&cap, payload + MMX_PROTO_REPLY_SIZE, sizeof(cap));
	if (cap.width > MMX_PROTO_MAX_CAPTURE_DIM ||
	    cap.height > MMX_PROTO_MAX_CAPTURE_DIM)
		goto out;
	bytes = (size_t)cap.width * cap.height * 4;
	if (len - off != bytes)
		goto out;
	px = malloc(bytes ? bytes : 4);
	if (!px) {
		ret = -ENOMEM;
		goto out;
	}
	memcpy(px, payload + off, bytes);
	*pixels = px;
	*width = cap.width;
	*height = cap.height;
	ret = 0;
out:
	free(payload);
	if (ret == -EPROTO)
		c->broken = 1;
	return ret;
}

int mmx_client_fd(const struct mmx_client *c)
{
	return c->fd;
}

/* A remote display has no KMS device of its own. */
static int mmx_client_kms_fd(const void *ctx)
{
	(void)ctx;
	return -1;
}

const struct mmx_display_ops mmx_client_display_ops = {
	.state = mmx_client_state,
	.apply = mmx_client_apply,
	.pointer_moved = mmx_client_pointer_moved,
	.capture = mmx_client_capture,
	.kms_fd = mmx_client_kms_fd,
	.close = mmx_client_close,
};

uint32_t mmx_client_caps(const struct mmx_client *c)
{
	return c->server.caps;
}

void mmx_client_set_time_sink(struct mmx_client *c,
			      void (*sink)(void *ctx, const void *payload,
					   size_t len),
			      void *ctx)
{
	c->time_sink = sink;
	c->time_ctx = ctx;
}

void mmx_client_set_event_sink(struct mmx_client *c,
			       void (*sink)(void *ctx, const void *payload,
					    size_t len),
			       void *ctx)
{
	c->event_sink = sink;
	c->event_ctx = ctx;
}

void mmx_client_counters(const struct mmx_client *c, uint64_t *sent,
			 uint64_t *received)
{
	*sent = c->bytes_sent;
	*received = c->bytes_received;
}

int mmx_client_request(struct mmx_client *c, uint16_t type, const void *req,
		       size_t req_len, const void *data, size_t data_len,
		       void *out, size_t out_len)
{
	struct mmx_proto_reply reply;
	uint8_t *payload;
	size_t len;
	int ret;

	ret = transact2(c, type, req, req_len, data, data_len, &reply,
			&payload, &len);
	if (ret)
		return ret;
	ret = reply.error;
	if (!ret && len != MMX_PROTO_REPLY_SIZE + out_len) {
		ret = -EPROTO;
		c->broken = 1;
	}
	if (!ret && out_len)
		memcpy(out, payload + MMX_PROTO_REPLY_SIZE, out_len);
	free(payload);
	return ret;
}

int mmx_client_wait_event(struct mmx_client *c, int timeout_ms)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	struct mmx_proto_header h;
	void *p;
	int ret;

	if (c->broken)
		return -ENOTCONN;
	ret = poll(&pfd, 1, timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	if (!ret)
		return 0;
	ret = mmx_wire_recv(c->fd, MMX_PROTO_MAX_REPLY, &h, &p);
	if (ret) {
		c->broken = 1;
		return ret;
	}
	c->bytes_received += h.length;
	if (h.type != MMX_MSG_EVENT) {
		/* no request is outstanding: only events may come */
		free(p);
		c->broken = 1;
		return -EPROTO;
	}
	deliver_event(c, p, h.length - MMX_PROTO_HEADER_SIZE);
	free(p);
	return 1;
}
