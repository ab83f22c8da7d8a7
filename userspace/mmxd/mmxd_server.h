/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's server layer: the connections, their framing and the poll loop
 * (server.c), the one dispatch table and the requests the server answers
 * itself (handlers.c: HELLO, PING, AUTH and the display requests over
 * struct mmx_display_ops). The services below it (mmxd_media.h) are
 * called from here and answer through the event sink the server gives
 * them (mmxd_service.h); they never include this header.
 */

#ifndef MMXD_SERVER_H
#define MMXD_SERVER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libmmx.h"
#include "mmx_protocol.h"
#include "mmx_display_ops.h"
#include "mmxd_service.h"
#include "mmxd_media.h"

#define MMXD_VERSION		"0.1.0"

/**
 * struct mmxd_options - server settings
 * @max_clients: connections served at once; more are refused (-EBUSY)
 * @stall_ms: a client whose pending reply makes no progress for this long
 *	is dropped
 * @verbose: 0: errors only, 1: connections and failed requests, 2: every
 *	request
 * @uid: the daemon's uid (allowed to connect, as is root)
 * @gid: the socket's group (its members are allowed)
 * @driver: KMS driver name for HELLO replies
 * @state_flags: struct mmx_state.flags for HELLO replies
 * @cookie: what TCP clients must send in AUTH (valid with @tcp_auth)
 * @tcp_auth: TCP clients are served (the cookie is set)
 */
struct mmxd_options {
	unsigned int max_clients;
	unsigned int stall_ms;
	int verbose;
	uid_t uid;
	gid_t gid;
	char driver[MMX_PROTO_NAME_LEN];
	uint32_t state_flags;
	uint8_t cookie[MMX_AUTH_COOKIE_LEN];
	int tcp_auth;
};

#define MMXD_MAX_CLIENTS	64
/*
 * Connections waiting to be accepted, at most (the kernel clamps it to
 * net.core.somaxconn, 4096 by default): a burst of reconnecting clients
 * waits in the queue instead of failing with EAGAIN.
 */
#define MMXD_LISTEN_BACKLOG	4096
/* Connections accepted per round of the poll loop (fairness). */
#define MMXD_ACCEPT_BATCH	64
/* Out of descriptors: accepting waits this long or until a client goes. */
#define MMXD_ACCEPT_PAUSE_MS	100
#define MMXD_STALL_MS		10000
/* Messages handled for one client per poll round (fairness). */
#define MMXD_BATCH		16
/* EVENT messages waiting to be sent to one client, at most (else the
 * client is dropped: it does not read). */
#define MMXD_MAX_EVENTS		4096

/**
 * struct mmxd_conn - one client connection
 * @fd: the socket (non-blocking)
 * @id: number for the log
 * @uid: peer's uid (SO_PEERCRED)
 * @pid: peer's pid
 * @hello: HELLO done
 * @eof: the peer shut its side down: serve what is buffered, then close
 * @closing: close once @out is sent (the stream cannot go on)
 * @dead: closed, to be removed
 * @in: received bytes, MMX_PROTO_MAX_REQUEST of room
 * @in_len: bytes in @in
 * @out: the reply being sent (one at a time: the next request is read
 *	only once it is gone, so a client that does not read stalls only
 *	itself)
 * @out_len: bytes in @out
 * @out_off: bytes of @out sent
 * @out_since: time of the last progress of @out (ms, CLOCK_MONOTONIC)
 * @name: client name from HELLO
 * @tcp: accepted on the TCP socket: AUTH must come before anything but PING
 * @authed: AUTH succeeded (TCP)
 * @in_cap: bytes of room in @in (MMX_PROTO_MAX_REQUEST, more for a media
 *	request of a client with a stream)
 * @events: EVENT messages waiting to be sent after @out (a FIFO)
 * @events_tail: the last of @events
 * @nevents: how many
 * @out_event: @out is an EVENT (not a reply)
 * @gone: the peer closed both directions (POLLHUP): no longer counted as a
 *	client; what it sent is still handled before the close
 */
struct mmxd_conn {
	int fd;
	unsigned int id;
	uid_t uid;
	pid_t pid;
	int hello;
	int eof;
	int closing;
	int dead;
	uint8_t *in;
	size_t in_len;
	uint8_t *out;
	size_t out_len;
	size_t out_off;
	uint64_t out_since;
	char name[MMX_PROTO_NAME_LEN];
	int tcp;
	int authed;
	size_t in_cap;
	struct mmxd_msg *events;
	struct mmxd_msg *events_tail;
	unsigned int nevents;
	int out_event;
	int gone;
};

/* An EVENT message queued on a connection. */
struct mmxd_msg {
	struct mmxd_msg *next;
	size_t len;
	uint8_t data[];
};

struct mmxd_server;

/* Server (server.c) */
void mmxd_options_init(struct mmxd_options *o);
int mmxd_server_new(const struct mmx_display_ops *ops, void *ctx,
		    const struct mmxd_options *opts, struct mmxd_server **out);
/* Close every client (and the listening socket, not unlinking it). */
void mmxd_server_free(struct mmxd_server *s);
/* Accept clients on @fd (a listening socket; owned by the server). */
void mmxd_server_listen(struct mmxd_server *s, int fd);
/* Accept TCP clients on @fd (they must AUTH with the options' cookie). */
void mmxd_server_listen_tcp(struct mmxd_server *s, int fd);
/* Serve a connected TCP socket (AUTH required); 0 or -errno. */
int mmxd_server_add_tcp_client(struct mmxd_server *s, int fd);
/*
 * Serve a connected socket (owned by the server from now on, made
 * non-blocking); its peer credentials are checked. Returns 0 or -errno.
 */
int mmxd_server_add_client(struct mmxd_server *s, int fd);
/*
 * One round of the poll loop: wait up to @timeout_ms (-1: no limit) for
 * the clients, the listening socket or @stop_fd (-1: none). Returns 1
 * when @stop_fd is readable, 0 otherwise, -errno on a poll failure.
 */
int mmxd_server_step(struct mmxd_server *s, int timeout_ms, int stop_fd);
/* Open connections (refused ones not yet closed included). */
unsigned int mmxd_server_nclients(const struct mmxd_server *s);
/*
 * Clients being served: what --max-clients limits (neither refused
 * connections nor those whose peer has closed count).
 */
unsigned int mmxd_server_nlive(const struct mmxd_server *s);

/**
 * struct mmxd_server_stats - connection counts since the server started
 * @connections: connections accepted (or added)
 * @refused_busy: refused with -EBUSY (--max-clients live clients)
 * @refused_access: refused with -EACCES (peer credentials)
 * @refused_other: refused for another reason (no credentials)
 * @max_live: the most live clients at once
 */
struct mmxd_server_stats {
	unsigned long connections;
	unsigned long refused_busy;
	unsigned long refused_access;
	unsigned long refused_other;
	unsigned int max_live;
};

void mmxd_server_get_stats(const struct mmxd_server *s,
			   struct mmxd_server_stats *st);
/*
 * The credentials policy: root, @o->uid and members of @o->gid (primary
 * @gid or one of @groups) may connect.
 */
int mmxd_peer_allowed(const struct mmxd_options *o, uid_t uid, gid_t gid,
		      const gid_t *groups, int ngroups);
/* Queue a reply on @c (header, struct mmx_proto_reply, @a, @b). */
int mmxd_conn_reply(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t sequence, uint16_t request, int32_t error,
		    const char *message, const void *a, size_t alen,
		    const void *b, size_t blen);
/* Queue EVENT @event with @data (@len bytes) on @c; 0 or -errno. */
int mmxd_conn_event(struct mmxd_server *s, struct mmxd_conn *c,
		    uint32_t event, const void *data, size_t len);
void mmxd_log(const struct mmxd_server *s, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Requests: the one dispatch table (handlers.c) */

/*
 * Answer one complete request with exactly one reply; @len is what the
 * table allows.
 */
typedef void mmxd_handler(struct mmxd_server *s, struct mmxd_conn *c,
			  const struct mmx_proto_header *h,
			  const uint8_t *payload, size_t len);

/* Who serves a request: the server itself or one of its services. */
enum mmxd_service_id {
	MMXD_SERVER,
	MMXD_SERVICE_MEDIA,
	MMXD_SERVICE_TIME,
};

/**
 * struct mmxd_request - one request type
 * @type: MMX_MSG_*
 * @flags: enum mmxd_request_flags
 * @size: the payload's bytes (with %MMXD_REQ_DATA: at least)
 * @handle: its handler, for a request of the server's (else NULL)
 * @serve: its handler, for a request of a service (else NULL)
 * @service: which service (with @serve)
 */
struct mmxd_request {
	uint16_t type;
	uint16_t flags;
	uint32_t size;
	mmxd_handler *handle;
	mmxd_service_handler *serve;
	enum mmxd_service_id service;
};

/*
 * Reply to @h on @c: error @err (0: success) with @msg, then @a and @b
 * (@alen, @blen bytes); logged at verbosity 1 (errors) or 2 (success).
 */
void mmxd_reply_parts(struct mmxd_server *s, struct mmxd_conn *c,
		      const struct mmx_proto_header *h, int err,
		      const char *msg, const void *a, size_t alen,
		      const void *b, size_t blen);
/* The same with one data part. */
void mmxd_reply(struct mmxd_server *s, struct mmxd_conn *c,
		const struct mmx_proto_header *h, int err, const char *msg,
		const void *data, size_t len);
/* @size bytes zeroed for the request, or NULL after replying -ENOMEM. */
void *mmxd_reply_calloc(struct mmxd_server *s, struct mmxd_conn *c,
			const struct mmx_proto_header *h, size_t size);

/*
 * @type's entry in the one dispatch table (HELLO, PING, AUTH and the
 * display requests, answered by handlers.c; the services' requests), or
 * NULL.
 */
const struct mmxd_request *mmxd_request_find(uint16_t type);
/* Answer one complete message (through its table entry). */
void mmxd_handle(struct mmxd_server *s, struct mmxd_conn *c,
		 const struct mmx_proto_header *h, const uint8_t *payload,
		 size_t len);
/* The server's ops, ctx and options (for the handlers). */
const struct mmx_display_ops *
mmxd_server_ops(const struct mmxd_server *s, void **ctx);
const struct mmxd_options *mmxd_server_options(const struct mmxd_server *s);
/* The object of service @id (NULL when the server has none). */
void *mmxd_server_service(const struct mmxd_server *s,
			  enum mmxd_service_id id);
/* The sink the server gives its services. */
const struct mmxd_sink *mmxd_server_sink(const struct mmxd_server *s);

/*
 * Serve streams and TIME on @s: the server polls @m's fds, calls it, and
 * makes TIME over it (freed with the server; @m is the caller's, to be
 * freed after the server). 0 or -errno.
 */
int mmxd_server_set_media(struct mmxd_server *s, struct mmxd_media *m);
struct mmxd_media *mmxd_server_media(const struct mmxd_server *s);

#endif /* MMXD_SERVER_H */
