/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd as its main() assembles it: the server (mmxd_server.h) and its
 * services (mmxd_media.h), the display operations and the display setup
 * (display.c), the listening sockets (socket.c).
 */

#ifndef MMXD_H
#define MMXD_H

#include <sys/types.h>

#include "libmmx.h"
#include "mmx_display_ops.h"
#include "mmxd_server.h"
#include "mmxd_media.h"

/*
 * The display operations over a struct mmx_display (@ctx), through
 * libmmx's public API. The server calls @state, @apply, @pointer_moved and
 * @capture; @kms_fd and @close are NULL.
 */
extern const struct mmx_display_ops mmxd_display_ops;

/* TCP (socket.c) */
/*
 * Listen on "HOST:PORT" (HOST a name or address, "[v6]:PORT"; empty
 * HOST: 127.0.0.1). A non-loopback address is refused (-EPERM) unless
 * @any. Returns the listening fd or -errno.
 */
int mmxd_tcp_open(const char *spec, int any);
/*
 * Make a fresh random cookie and write it to @path (created 0600 by us,
 * its directory 0755 if missing; replaced atomically). 0 or -errno.
 */
int mmxd_cookie_write(const char *path, uint8_t *cookie, size_t len);

/* Listening socket (socket.c) */
/*
 * Create the UNIX socket at @path: its directory (0755) if missing, a
 * stale socket replaced (-EADDRINUSE when a daemon answers there), mode
 * 0660, group @gid unless (gid_t)-1. Returns the listening fd or -errno.
 */
int mmxd_socket_open(const char *path, gid_t gid);
/* Close @fd and remove @path. */
void mmxd_socket_close(int fd, const char *path);

/* The first descriptor a service manager passes (sd_listen_fds(3)). */
#define MMXD_LISTEN_FDS_START	3
/*
 * Socket activation, systemd's protocol (sd_listen_fds(3)) without
 * libsystemd: when $LISTEN_PID is our pid and $LISTEN_FDS is 1, fd 3 is a
 * listening UNIX stream socket to serve (made non-blocking and
 * close-on-exec). $LISTEN_PID, $LISTEN_FDS and $LISTEN_FDNAMES are removed
 * from the environment when they are ours. Returns 3, 0 when no socket is
 * passed, -EINVAL for a bad count, more than one socket or a socket that
 * is not a listening stream, -ENOTSOCK/-EBADF/-EAFNOSUPPORT for fd 3 not
 * a UNIX socket.
 */
int mmxd_socket_activated(void);
/* The path a UNIX socket is bound to ("@name" for an abstract one). */
int mmxd_socket_name(int fd, char *buf, size_t size);

/* Display setup (display.c) */
/*
 * Light every connected output at its preferred mode, left to right in KMS
 * order, on a screen framebuffer of ours (as Xorg does at startup; what
 * fbcon had lit is replaced). Returns the number of outputs lit or -errno.
 */
int mmxd_light_up(struct mmx_display *d, int verbose);

#endif /* MMXD_H */
