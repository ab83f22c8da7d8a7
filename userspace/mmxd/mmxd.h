/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd internals: the server (connections, framing, poll loop), the
 * request handlers over a small display ops table (libmmx in mmxd, a fake
 * in the host tests), the listening socket and the display setup.
 */

#ifndef MMXD_H
#define MMXD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "libmmx.h"
#include "mmx_protocol.h"

#define MMXD_VERSION		"0.1.0"

/**
 * struct mmxd_ops - what the handlers do with the display
 * @state: fill @s (probing the outputs when @probe)
 * @apply: mmx_apply()
 * @pointer_moved: mmx_pointer_moved()
 * @capture: mmx_capture() (the pixels are malloc'ed, freed by the server)
 */
struct mmxd_ops {
	int (*state)(void *ctx, int probe, struct mmx_state *s);
	int (*apply)(void *ctx, const struct mmx_config *cfg,
		     struct mmx_error *err);
	int (*pointer_moved)(void *ctx, int32_t x, int32_t y);
	int (*capture)(void *ctx, uint32_t crtc, uint32_t *width,
		       uint32_t *height, uint32_t **pixels);
};

/* The ops over a struct mmx_display (@ctx). */
extern const struct mmxd_ops mmxd_display_ops;

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
 */
struct mmxd_options {
	unsigned int max_clients;
	unsigned int stall_ms;
	int verbose;
	uid_t uid;
	gid_t gid;
	char driver[MMX_NAME_LEN];
	uint32_t state_flags;
};

#define MMXD_MAX_CLIENTS	64
#define MMXD_STALL_MS		10000
/* Messages handled for one client per poll round (fairness). */
#define MMXD_BATCH		16

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
	char name[MMX_NAME_LEN];
};

struct mmxd_server;

/* Server (server.c) */
void mmxd_options_init(struct mmxd_options *o);
int mmxd_server_new(const struct mmxd_ops *ops, void *ctx,
		    const struct mmxd_options *opts, struct mmxd_server **out);
/* Close every client (and the listening socket, not unlinking it). */
void mmxd_server_free(struct mmxd_server *s);
/* Accept clients on @fd (a listening socket; owned by the server). */
void mmxd_server_listen(struct mmxd_server *s, int fd);
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
void mmxd_log(const struct mmxd_server *s, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Request handlers (handlers.c): answer one complete message. */
void mmxd_handle(struct mmxd_server *s, struct mmxd_conn *c,
		 const struct mmx_proto_header *h, const uint8_t *payload,
		 size_t len);
/* The server's ops, ctx and options (for the handlers). */
const struct mmxd_ops *mmxd_server_ops(const struct mmxd_server *s,
				       void **ctx);
const struct mmxd_options *mmxd_server_options(const struct mmxd_server *s);

/* Listening socket (socket.c) */
/*
 * Create the UNIX socket at @path: its directory (0755) if missing, a
 * stale socket replaced (-EADDRINUSE when a daemon answers there), mode
 * 0660, group @gid unless (gid_t)-1. Returns the listening fd or -errno.
 */
int mmxd_socket_open(const char *path, gid_t gid);
/* Close @fd and remove @path. */
void mmxd_socket_close(int fd, const char *path);

/* Display setup (display.c) */
/*
 * Light every connected output at its preferred mode, left to right in KMS
 * order, on a screen framebuffer of ours (as Xorg does at startup; what
 * fbcon had lit is replaced). Returns the number of outputs lit or -errno.
 */
int mmxd_light_up(struct mmx_display *d, int verbose);

#endif /* MMXD_H */
