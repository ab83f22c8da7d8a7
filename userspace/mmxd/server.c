// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's server: non-blocking sockets in one poll loop. Each connection
 * has an input buffer (a request may arrive in pieces, or several in one
 * read) and at most one reply in flight: while it drains, the next
 * request is not read, so a client that does not read its replies stalls
 * only itself, and is dropped after MMXD_STALL_MS without progress.
 * A malformed length cannot be skipped, so it gets an error reply and the
 * connection is closed; every other bad request gets an error reply and
 * the connection goes on. See Documentation/mmxd-protocol.rst.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "mmxd_server.h"
#include "mmxd_log.h"
#include "mmx_wire.h"

struct mmxd_server {
	const struct mmx_display_ops *ops;
	void *ctx;
	struct mmxd_options opts;
	int listen_fd;
	int tcp_fd;
	struct mmxd_media *media;
	struct mmxd_time *time;
	struct mmxd_sink sink;
	unsigned int next_id;
	struct mmxd_conn **conns;
	unsigned int nconn;
	unsigned int cap;
	struct pollfd *pfds;
	unsigned int npfd;
	/* accept() ran out of descriptors: wait until a client is closed */
	int accept_paused;
	uint64_t paused_since;
	struct mmxd_server_stats stats;
};

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* A log line: "mmxd: ", "client N: " when about @c, the message. */
static void log_line(const struct mmxd_server *s, const struct mmxd_conn *c,
		     int level, const char *fmt, va_list ap)
{
	if (s && level > s->opts.verbose)
		return;
	mmxd_log_va(c ? c->id : 0, fmt, ap);
}

void mmxd_log(const struct mmxd_server *s, int level, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_line(s, NULL, level, fmt, ap);
	va_end(ap);
}

/* The event sink of the services: replies, events and log lines. */

static void sink_reply(void *ctx, struct mmxd_conn *c,
		       const struct mmx_proto_header *h, int err,
		       const char *msg, const void *data, size_t len)
{
	mmxd_reply(ctx, c, h, err, msg, data, len);
}

static int sink_event(void *ctx, struct mmxd_conn *c, uint32_t event,
		      const void *data, size_t len)
{
	return mmxd_conn_event(ctx, c, event, data, len);
}

static void sink_log(void *ctx, const struct mmxd_conn *c, int level,
		     const char *fmt, va_list ap)
{
	log_line(ctx, c, level, fmt, ap);
}

static const struct mmxd_service_events server_events = {
	.reply = sink_reply,
	.event = sink_event,
	.log = sink_log,
};

void mmxd_options_init(struct mmxd_options *o)
{
	memset(o, 0, sizeof(*o));
	o->max_clients = MMXD_MAX_CLIENTS;
	o->stall_ms = MMXD_STALL_MS;
	o->uid = geteuid();
	o->gid = getegid();
}

int mmxd_server_new(const struct mmx_display_ops *ops, void *ctx,
		    const struct mmxd_options *opts, struct mmxd_server **out)
{
	struct mmxd_server *s;

	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->sink = (struct mmxd_sink){ .ops = &server_events, .ctx = s };
	s->ops = ops;
	s->ctx = ctx;
	s->opts = *opts;
	mmx_wire_terminate(s->opts.driver, sizeof(s->opts.driver));
	if (!s->opts.max_clients)
		s->opts.max_clients = 1;
	s->listen_fd = -1;
	s->tcp_fd = -1;
	*out = s;
	return 0;
}

/* @c is going away: the services forget it (TIME first: it is on media). */
static void conn_services_gone(struct mmxd_server *s, struct mmxd_conn *c)
{
	if (s->time)
		mmxd_time_conn_gone(s->time, c);
	if (s->media)
		mmxd_media_conn_gone(s->media, c);
}

static void conn_free(struct mmxd_conn *c)
{
	while (c->events) {
		struct mmxd_msg *m = c->events;

		c->events = m->next;
		free(m);
	}
	if (c->fd >= 0)
		close(c->fd);
	free(c->in);
	free(c->out);
	free(c);
}

void mmxd_server_free(struct mmxd_server *s)
{
	unsigned int i;

	if (!s)
		return;
	for (i = 0; i < s->nconn; i++) {
		conn_services_gone(s, s->conns[i]);
		conn_free(s->conns[i]);
	}
	mmxd_time_free(s->time);
	if (s->media)
		mmxd_media_bind(s->media, NULL);
	if (s->listen_fd >= 0)
		close(s->listen_fd);
	if (s->tcp_fd >= 0)
		close(s->tcp_fd);
	free(s->conns);
	free(s->pfds);
	free(s);
}

void mmxd_server_listen(struct mmxd_server *s, int fd)
{
	s->listen_fd = fd;
}

void mmxd_server_listen_tcp(struct mmxd_server *s, int fd)
{
	s->tcp_fd = fd;
}

int mmxd_server_set_media(struct mmxd_server *s, struct mmxd_media *m)
{
	int ret = mmxd_time_new(m, &s->sink, &s->time);

	if (ret)
		return ret;
	mmxd_media_bind(m, &s->sink);
	s->media = m;
	return 0;
}

struct mmxd_media *mmxd_server_media(const struct mmxd_server *s)
{
	return s->media;
}

unsigned int mmxd_server_nclients(const struct mmxd_server *s)
{
	return s->nconn;
}

/* Is @c a client being served (not refused, not closed)? */
static int conn_live(const struct mmxd_conn *c)
{
	return !c->dead && !c->closing && !c->gone;
}

unsigned int mmxd_server_nlive(const struct mmxd_server *s)
{
	unsigned int i, n = 0;

	for (i = 0; i < s->nconn; i++)
		n += conn_live(s->conns[i]);
	return n;
}

void mmxd_server_get_stats(const struct mmxd_server *s,
			   struct mmxd_server_stats *st)
{
	*st = s->stats;
}

const struct mmx_display_ops *
mmxd_server_ops(const struct mmxd_server *s, void **ctx)
{
	*ctx = s->ctx;
	return s->ops;
}

const struct mmxd_options *mmxd_server_options(const struct mmxd_server *s)
{
	return &s->opts;
}

void *mmxd_server_service(const struct mmxd_server *s,
			  enum mmxd_service_id id)
{
	switch (id) {
	case MMXD_SERVICE_MEDIA:
		return s->media;
	case MMXD_SERVICE_TIME:
		return s->time;
	default:
		return NULL;
	}
}

const struct mmxd_sink *mmxd_server_sink(const struct mmxd_server *s)
{
	return &s->sink;
}

int mmxd_peer_allowed(const struct mmxd_options *o, uid_t uid, gid_t gid,
		      const gid_t *groups, int ngroups)
{
	int i;

	if (uid == 0 || uid == o->uid || gid == o->gid)
		return 1;
	for (i = 0; i < ngroups; i++)
		if (groups[i] == o->gid)
			return 1;
	return 0;
}

/* Is the peer of @fd allowed? Fills @c's uid and pid; -errno on failure. */
static int check_peer(struct mmxd_server *s, struct mmxd_conn *c, int *ok)
{
	struct ucred cred;
	socklen_t len = sizeof(cred);
	gid_t groups[256];
	socklen_t glen = sizeof(groups);
	int ngroups = 0;

	if (getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &len))
		return -errno;
	c->uid = cred.uid;
	c->pid = cred.pid;
#ifdef SO_PEERGROUPS
	if (!getsockopt(c->fd, SOL_SOCKET, SO_PEERGROUPS, groups, &glen))
		ngroups = (int)(glen / sizeof(gid_t));
#endif
	*ok = mmxd_peer_allowed(&s->opts, cred.uid, cred.gid, groups,
				ngroups);
	return 0;
}

int mmxd_conn_reply(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t sequence, uint16_t request, int32_t error,
		    const char *message, const void *a, size_t alen,
		    const void *b, size_t blen)
{
	size_t len = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE + alen +
		     blen;
	uint8_t *buf;

	if (c->out) {
		/* a bug: one reply per request, sent before the next */
		mmxd_log(s, 0, "client %u: reply while one is pending", c->id);
		c->closing = 1;
		return -EBUSY;
	}
	if (len > MMX_PROTO_MAX_REPLY) {
		error = -EMSGSIZE;
		message = "reply too large";
		alen = blen = 0;
		len = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
	}
	buf = malloc(len);
	if (!buf && (alen || blen)) {
		error = -ENOMEM;
		message = "out of memory";
		alen = blen = 0;
		len = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
		buf = malloc(len);
	}
	if (!buf) {
		c->closing = 1;
		c->dead = 1;
		return -ENOMEM;
	}
	mmx_wire_put_header(buf, (uint32_t)len, MMX_MSG_REPLY, sequence);
	mmx_wire_put_reply(buf + MMX_PROTO_HEADER_SIZE, request, error,
			   message);
	if (alen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE, a,
		       alen);
	if (blen)
		memcpy(buf + MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE +
		       alen, b, blen);
	c->out = buf;
	c->out_len = len;
	c->out_off = 0;
	c->out_since = now_ms();
	return 0;
}

static void conn_drop_events(struct mmxd_server *s, struct mmxd_conn *c);

int mmxd_conn_event(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t event, const void *data, size_t len)
{
	struct mmx_proto_event e = { .event = event };
	size_t total = MMX_PROTO_HEADER_SIZE + sizeof(e) + len;
	struct timespec ts;
	struct mmxd_msg *m;

	if (c->dead)
		return -ENOTCONN;
	if (c->nevents >= MMXD_MAX_EVENTS) {
		conn_drop_events(s, c);
		return -ENOBUFS;
	}
	m = malloc(sizeof(*m) + total);
	if (!m)
		return -ENOMEM;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	e.timestamp = (uint64_t)ts.tv_sec * 1000000000ull +
		      (uint64_t)ts.tv_nsec;
	m->next = NULL;
	m->len = total;
	mmx_wire_put_header(m->data, (uint32_t)total, MMX_MSG_EVENT, 0);
	memcpy(m->data + MMX_PROTO_HEADER_SIZE, &e, sizeof(e));
	if (len)
		memcpy(m->data + MMX_PROTO_HEADER_SIZE + sizeof(e), data, len);
	if (c->events_tail)
		c->events_tail->next = m;
	else
		c->events = m;
	c->events_tail = m;
	c->nevents++;
	return 0;
}

static void conn_flush(struct mmxd_server *s, struct mmxd_conn *c);

/*
 * Mark the clients whose peer has closed both directions (POLLHUP) but
 * whose close the poll loop has not handled yet: they no longer count
 * against the limit (what they sent is still handled). A reconnect storm
 * leaves many of them behind between two rounds of the loop.
 */
static void mark_gone(struct mmxd_server *s)
{
	struct pollfd *p;
	unsigned int i;

	if (!s->nconn)
		return;
	p = calloc(s->nconn, sizeof(*p));
	if (!p)
		return;
	for (i = 0; i < s->nconn; i++)
		p[i].fd = conn_live(s->conns[i]) ? s->conns[i]->fd : -1;
	if (poll(p, s->nconn, 0) > 0) {
		for (i = 0; i < s->nconn; i++)
			if (p[i].revents & (POLLHUP | POLLERR))
				s->conns[i]->gone = 1;
	}
	free(p);
}

/* May one more client be served (the limit counts live clients only)? */
static int has_room(struct mmxd_server *s)
{
	if (mmxd_server_nlive(s) < s->opts.max_clients)
		return 1;
	mark_gone(s);
	return mmxd_server_nlive(s) < s->opts.max_clients;
}

/* A connection for @fd (made non-blocking), not added yet (errors close @fd). */
static int conn_new(struct mmxd_server *s, int fd, int tcp,
		    struct mmxd_conn **out)
{
	struct mmxd_conn *c;
	int flags, ret;

	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (s->nconn == s->cap) {
		unsigned int cap = s->cap ? s->cap * 2 : 16;
		struct mmxd_conn **n = realloc(s->conns, cap * sizeof(*n));

		if (!n) {
			close(fd);
			return -ENOMEM;
		}
		s->conns = n;
		s->cap = cap;
	}
	c = calloc(1, sizeof(*c));
	if (!c) {
		close(fd);
		return -ENOMEM;
	}
	c->fd = fd;
	c->id = ++s->next_id;
	c->tcp = tcp;
	s->stats.connections++;
	*out = c;
	return 0;
}

/* Refuse @c: error @err with @msg, then close; counted in @count. */
static void conn_refuse(struct mmxd_server *s, struct mmxd_conn *c, int err,
			const char *msg, unsigned long *count)
{
	mmxd_conn_reply(s, c, 0, 0, err, msg, NULL, 0, NULL, 0);
	c->closing = 1;
	(*count)++;
}

/*
 * Serve @c, or refuse it (peer credentials, --max-clients). 0, or -ENOMEM
 * with @c freed.
 */
static int conn_admit(struct mmxd_server *s, struct mmxd_conn *c)
{
	int ok = 0, ret = 0;
	char msg[128];

	if (c->tcp) {
		/* no credentials: the cookie (AUTH) decides */
		c->uid = (uid_t)-1;
		c->pid = 0;
		ok = s->opts.tcp_auth;
	} else {
		ret = check_peer(s, c, &ok);
	}
	if (ret) {
		mmxd_log(s, 0, "client %u: no peer credentials: %s", c->id,
			 strerror(-ret));
		conn_refuse(s, c, ret, "no peer credentials",
			    &s->stats.refused_other);
	} else if (!ok) {
		snprintf(msg, sizeof(msg),
			 "uid %u is not allowed (root, uid %u, group %u)",
			 (unsigned int)c->uid, (unsigned int)s->opts.uid,
			 (unsigned int)s->opts.gid);
		mmxd_log(s, 0, "client %u (pid %d): refused: %s", c->id,
			 (int)c->pid, msg);
		conn_refuse(s, c, -EACCES, msg, &s->stats.refused_access);
	} else if (!has_room(s)) {
		mmxd_log(s, 0, "client %u: refused: %u clients already",
			 c->id, s->opts.max_clients);
		conn_refuse(s, c, -EBUSY, "too many clients",
			    &s->stats.refused_busy);
	} else {
		c->in = malloc(MMX_PROTO_MAX_REQUEST);
		if (!c->in) {
			conn_free(c);
			return -ENOMEM;
		}
		c->in_cap = MMX_PROTO_MAX_REQUEST;
		if (c->tcp)
			mmxd_log(s, 1, "client %u: connected over TCP", c->id);
		else
			mmxd_log(s, 1, "client %u: connected (uid %u, pid %d)",
				 c->id, (unsigned int)c->uid, (int)c->pid);
	}
	return 0;
}

static int add_conn(struct mmxd_server *s, int fd, int tcp)
{
	struct mmxd_conn *c = NULL;
	unsigned int live;
	int ret;

	ret = conn_new(s, fd, tcp, &c);
	if (!ret)
		ret = conn_admit(s, c);
	if (ret)
		return ret;
	if (c->closing) {
		/* the refusal fits in an empty socket buffer: no fd kept */
		conn_flush(s, c);
		if (!c->out || c->dead) {
			mmxd_log(s, 1, "client %u: closed (refused)", c->id);
			c->dead = 1;
			conn_free(c);
			return 0;
		}
	}
	s->conns[s->nconn++] = c;
	live = mmxd_server_nlive(s);
	if (live > s->stats.max_live)
		s->stats.max_live = live;
	return 0;
}

int mmxd_server_add_client(struct mmxd_server *s, int fd)
{
	return add_conn(s, fd, 0);
}

int mmxd_server_add_tcp_client(struct mmxd_server *s, int fd)
{
	return add_conn(s, fd, 1);
}

static void conn_drop(struct mmxd_server *s, struct mmxd_conn *c,
		      const char *why)
{
	if (c->dead)
		return;
	mmxd_log(s, 1, "client %u: closed (%s)", c->id, why);
	c->dead = 1;
}

static void conn_drop_events(struct mmxd_server *s, struct mmxd_conn *c)
{
	conn_drop(s, c, "events not read");
}

/* The largest message @c may send with header @h. */
static size_t conn_max_request(const struct mmxd_server *s,
			       const struct mmxd_conn *c,
			       const struct mmx_proto_header *h)
{
	const struct mmxd_request *r = mmxd_request_find(h->type);

	if (r && (r->flags & MMXD_REQ_STREAM_DATA) == MMXD_REQ_STREAM_DATA &&
	    s->media && c->hello && mmxd_media_conn_has_stream(s->media, c))
		return MMX_PROTO_MAX_MEDIA_REQUEST;
	return MMX_PROTO_MAX_REQUEST;
}

/* With nothing in @c->out, make the oldest queued event the output. */
static void conn_next_event(struct mmxd_conn *c)
{
	struct mmxd_msg *m = c->events;
	size_t len;

	if (c->out || !m)
		return;
	c->events = m->next;
	if (!c->events)
		c->events_tail = NULL;
	c->nevents--;
	/* the message moves to the start of its allocation */
	len = m->len;
	memmove(m, m->data, len);
	c->out = (uint8_t *)m;
	c->out_len = len;
	c->out_off = 0;
	c->out_since = now_ms();
	c->out_event = 1;
}

/* Send what we can of @c's reply and events. */
static void conn_flush(struct mmxd_server *s, struct mmxd_conn *c)
{
	conn_next_event(c);
	while (c->out && !c->dead) {
		ssize_t n = mmx_wire_send_some(c->fd, c->out + c->out_off,
					       c->out_len - c->out_off,
					       MSG_DONTWAIT);

		if (n == -EAGAIN)
			return;
		if (n < 0) {
			conn_drop(s, c, strerror((int)-n));
			return;
		}
		c->out_off += (size_t)n;
		c->out_since = now_ms();
		if (c->out_off == c->out_len) {
			free(c->out);
			c->out = NULL;
			c->out_len = c->out_off = 0;
			c->out_event = 0;
			conn_next_event(c);
		}
	}
}

/*
 * Make room in @c->in for a media request announced by the header there
 * (media data may exceed MMX_PROTO_MAX_REQUEST). 0 or -ENOMEM.
 */
static int conn_grow(struct mmxd_server *s, struct mmxd_conn *c)
{
	struct mmx_proto_header h;
	uint8_t *n;

	if (c->in_len < MMX_PROTO_HEADER_SIZE)
		return 0;
	mmx_wire_get_header(c->in, &h);
	if (h.length <= c->in_cap ||
	    mmx_wire_check_length(h.length, conn_max_request(s, c, &h)))
		return 0;
	n = realloc(c->in, h.length);
	if (!n)
		return -ENOMEM;
	c->in = n;
	c->in_cap = h.length;
	return 0;
}

/* Read what is there (only while no reply is pending). */
static void conn_read(struct mmxd_server *s, struct mmxd_conn *c)
{
	while (!c->eof && !c->dead) {
		ssize_t n;

		if (conn_grow(s, c)) {
			conn_drop(s, c, "out of memory");
			return;
		}
		if (c->in_len >= c->in_cap)
			return;
		n = mmx_wire_recv_some(c->fd, c->in + c->in_len,
				       c->in_cap - c->in_len, MSG_DONTWAIT);
		if (n == -EAGAIN)
			return;
		if (n < 0) {
			conn_drop(s, c, strerror((int)-n));
			return;
		}
		if (n == 0) {
			c->eof = 1;
			return;
		}
		c->in_len += (size_t)n;
	}
}

/* Is a complete message (or a bad header) waiting in @c->in? */
static int conn_has_message(const struct mmxd_server *s,
			    const struct mmxd_conn *c)
{
	struct mmx_proto_header h;

	if (c->in_len < MMX_PROTO_HEADER_SIZE)
		return 0;
	mmx_wire_get_header(c->in, &h);
	if (mmx_wire_check_length(h.length, conn_max_request(s, c, &h)))
		return 1;
	return c->in_len >= h.length;
}

/* Can @c make progress without waiting for I/O? */
static int conn_ready(const struct mmxd_server *s, const struct mmxd_conn *c)
{
	return !c->dead && !c->closing && !c->out && conn_has_message(s, c);
}

/* Handle up to MMXD_BATCH complete messages of @c. */
static void conn_process(struct mmxd_server *s, struct mmxd_conn *c)
{
	unsigned int n;

	for (n = 0; n < MMXD_BATCH && conn_ready(s, c); n++) {
		struct mmx_proto_header h;
		size_t max;
		int ret;

		mmx_wire_get_header(c->in, &h);
		max = conn_max_request(s, c, &h);
		ret = mmx_wire_check_length(h.length, max);
		if (ret) {
			char msg[96];

			snprintf(msg, sizeof(msg),
				 "bad message length %u (%u..%zu): closing",
				 h.length, MMX_PROTO_HEADER_SIZE, max);
			mmxd_log(s, 1, "client %u: %s", c->id, msg);
			mmxd_conn_reply(s, c, h.sequence, h.type, ret, msg,
					NULL, 0, NULL, 0);
			c->closing = 1;
			c->in_len = 0;
		} else {
			mmxd_handle(s, c, &h, c->in + MMX_PROTO_HEADER_SIZE,
				    h.length - MMX_PROTO_HEADER_SIZE);
			memmove(c->in, c->in + h.length, c->in_len - h.length);
			c->in_len -= h.length;
		}
		conn_flush(s, c);
	}
}

/* After I/O: close what is finished, drop what stalls. */
static void conn_settle(struct mmxd_server *s, struct mmxd_conn *c,
			uint64_t now)
{
	if (c->dead)
		return;
	if (c->out) {
		if (now - c->out_since >= s->opts.stall_ms)
			conn_drop(s, c, "reply not read in time");
		return;
	}
	if (c->closing)
		conn_drop(s, c, "protocol error or refused");
	else if (c->eof && !conn_has_message(s, c))
		conn_drop(s, c, c->in_len ? "disconnected mid-request" :
			  "disconnected");
}

/*
 * Accept up to MMXD_ACCEPT_BATCH clients waiting on @lfd (the clients
 * being served get a round of the loop between two batches). Out of
 * descriptors or memory, accepting pauses for MMXD_ACCEPT_PAUSE_MS or
 * until a client goes, instead of spinning on a readable socket.
 */
static void accept_clients(struct mmxd_server *s, int lfd, int tcp)
{
	unsigned int n;

	for (n = 0; n < MMXD_ACCEPT_BATCH; n++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			if (errno == EAGAIN || errno == EWOULDBLOCK)
				return;
			mmxd_log(s, 0, "accept: %s", strerror(errno));
			if (errno == EMFILE || errno == ENFILE ||
			    errno == ENOBUFS || errno == ENOMEM) {
				s->accept_paused = 1;
				s->paused_since = now_ms();
			}
			return;
		}
		if (tcp) {
			int one = 1;

			setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one,
				   sizeof(one));
		}
		add_conn(s, fd, tcp);
	}
}

static void remove_dead(struct mmxd_server *s)
{
	unsigned int i, j = 0;

	for (i = 0; i < s->nconn; i++) {
		if (s->conns[i]->dead) {
			conn_services_gone(s, s->conns[i]);
			conn_free(s->conns[i]);
			s->accept_paused = 0;
		} else {
			s->conns[j++] = s->conns[i];
		}
	}
	s->nconn = j;
}

/**
 * struct step - one round of the poll loop
 * @n: descriptors in the server's pfds before the clients'
 * @stop: index of the stop fd there, or -1
 * @listen: of the listening socket, or -1
 * @tcp: of the TCP socket, or -1
 * @media: of the first of the media streams' descriptors
 * @nmedia: how many they are
 * @timeout_ms: how long poll() waits (-1: no limit)
 */
struct step {
	unsigned int n;
	int stop;
	int listen;
	int tcp;
	unsigned int media;
	unsigned int nmedia;
	int timeout_ms;
};

/* Wait at most @ms in this round. */
static void step_wait(struct step *r, uint64_t ms)
{
	if (r->timeout_ms < 0 || ms < (uint64_t)r->timeout_ms)
		r->timeout_ms = (int)ms;
}

/* Poll @fd for input in this round: its index. */
static int step_poll_in(struct mmxd_server *s, struct step *r, int fd)
{
	s->pfds[r->n] = (struct pollfd){ .fd = fd, .events = POLLIN };
	return (int)r->n++;
}

/* The descriptors before the clients': stop fd, sockets, media. */
static int step_fill(struct mmxd_server *s, int stop_fd, uint64_t now,
		     struct step *r)
{
	const unsigned int want = s->nconn + 3 + MMXD_MEDIA_POLLFDS;

	if (s->npfd < want) {
		struct pollfd *p = realloc(s->pfds, want * sizeof(*p));

		if (!p)
			return -ENOMEM;
		s->pfds = p;
		s->npfd = want;
	}
	if (stop_fd >= 0)
		r->stop = step_poll_in(s, r, stop_fd);
	if (s->accept_paused) {
		uint64_t waited = now - s->paused_since;

		if (waited >= MMXD_ACCEPT_PAUSE_MS)
			s->accept_paused = 0;
		else
			step_wait(r, MMXD_ACCEPT_PAUSE_MS - waited);
	}
	if (s->listen_fd >= 0 && !s->accept_paused)
		r->listen = step_poll_in(s, r, s->listen_fd);
	if (s->tcp_fd >= 0 && !s->accept_paused)
		r->tcp = step_poll_in(s, r, s->tcp_fd);
	if (s->media) {
		int mt = mmxd_media_timeout_ms(s->media);

		if (mt >= 0)
			step_wait(r, (uint64_t)mt);
		r->media = r->n;
		r->nmedia = mmxd_media_poll_fill(s->media, s->pfds + r->n,
						 MMXD_MEDIA_POLLFDS);
		r->n += r->nmedia;
	}
	return 0;
}

/* What to poll @c for (@p), and how long the round may wait for it. */
static void conn_poll_fill(struct mmxd_server *s, struct mmxd_conn *c,
			   struct pollfd *p, uint64_t now, struct step *r)
{
	p->fd = c->fd;
	p->events = 0;
	p->revents = 0;
	conn_next_event(c);
	if (c->out) {
		uint64_t left = now - c->out_since >= s->opts.stall_ms ?
				0 : s->opts.stall_ms - (now - c->out_since);

		p->events = POLLOUT;
		step_wait(r, left);
	} else if (!c->closing && !c->eof) {
		if (c->in_len < c->in_cap)
			p->events = POLLIN;
	}
	if (conn_ready(s, c) || ((c->closing || c->eof) && !c->out))
		r->timeout_ms = 0;
}

/* After poll: @c's I/O (@re: its revents) and its complete requests. */
static void conn_poll_done(struct mmxd_server *s, struct mmxd_conn *c,
			   short re)
{
	if (re & POLLNVAL) {
		conn_drop(s, c, "invalid fd");
		return;
	}
	if (re & POLLHUP)
		c->gone = 1;
	if ((c->out || c->events) && (re & (POLLOUT | POLLERR | POLLHUP)))
		conn_flush(s, c);
	if (!c->out && !c->closing && (re & (POLLIN | POLLERR | POLLHUP)))
		conn_read(s, c);
	conn_process(s, c);
}

/* Is the descriptor at @idx (-1: not polled) readable? */
static int step_readable(const struct mmxd_server *s, int idx)
{
	return idx >= 0 && (s->pfds[idx].revents & POLLIN);
}

int mmxd_server_step(struct mmxd_server *s, int timeout_ms, int stop_fd)
{
	struct step r = { .stop = -1, .listen = -1, .tcp = -1,
			  .timeout_ms = timeout_ms };
	unsigned int i, nc = s->nconn;
	uint64_t now = now_ms();
	int ret;

	ret = step_fill(s, stop_fd, now, &r);
	if (ret)
		return ret;
	for (i = 0; i < nc; i++)
		conn_poll_fill(s, s->conns[i], &s->pfds[r.n + i], now, &r);

	ret = poll(s->pfds, r.n + nc, r.timeout_ms);
	if (ret < 0)
		return errno == EINTR ? 0 : -errno;
	/* media first: the events it queues go out in this round */
	if (s->media)
		mmxd_media_poll_done(s->media, s->pfds + r.media, r.nmedia);
	for (i = 0; i < nc; i++)
		conn_poll_done(s, s->conns[i], s->pfds[r.n + i].revents);
	now = now_ms();
	for (i = 0; i < nc; i++)
		conn_settle(s, s->conns[i], now);
	remove_dead(s);

	if (step_readable(s, r.listen))
		accept_clients(s, s->listen_fd, 0);
	if (step_readable(s, r.tcp))
		accept_clients(s, s->tcp_fd, 1);
	return step_readable(s, r.stop);
}
