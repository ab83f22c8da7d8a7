// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's listening sockets: the UNIX socket and the opt-in TCP one with
 * its cookie file (Documentation/mmxd-protocol.rst, "Transport and
 * security").
 */

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "mmxd.h"

/* Create @path's directory (one level, 0755) when it is missing. */
static int make_parent(const char *path)
{
	char dir[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Something is at @sa's path: a stale socket is removed and @fd (which
 * probed it) replaced by a fresh socket. -EADDRINUSE when a daemon
 * answers there, -EEXIST when it is not a socket; @fd stays ours.
 */
static int clear_stale(const struct sockaddr_un *sa, int *fd)
{
	struct stat st;

	if (lstat(sa->sun_path, &st))
		return 0;
	if (!S_ISSOCK(st.st_mode))
		return -EEXIST;
	/* a live daemon answers there; a stale socket refuses */
	if (!connect(*fd, (const struct sockaddr *)sa, sizeof(*sa)) ||
	    errno == EAGAIN)
		return -EADDRINUSE;
	close(*fd);
	*fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (*fd < 0)
		return -errno;
	unlink(sa->sun_path);
	return 0;
}

/* Bind @fd to @sa with no window in which it has wider permissions. */
static int bind_private(int fd, const struct sockaddr_un *sa)
{
	mode_t old = umask(0117);
	int ret = bind(fd, (const struct sockaddr *)sa, sizeof(*sa));

	umask(old);
	return ret ? -errno : 0;
}

int mmxd_socket_open(const char *path, gid_t gid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ret;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	ret = make_parent(path);
	if (ret)
		return ret;

	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	ret = clear_stale(&sa, &fd);
	if (ret)
		goto err_close;
	ret = bind_private(fd, &sa);
	if (ret)
		goto err_close;
	if (chmod(path, 0660) ||
	    (gid != (gid_t)-1 && chown(path, (uid_t)-1, gid)) ||
	    listen(fd, MMXD_LISTEN_BACKLOG)) {
		ret = -errno;
		unlink(path);
		goto err_close;
	}
	return fd;

err_close:
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Parse a decimal count or pid; -EINVAL unless it is all digits. */
static int parse_ulong(const char *s, unsigned long *v)
{
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	errno = 0;
	*v = strtoul(s, &end, 10);
	if (errno || *end)
		return -EINVAL;
	return 0;
}

int mmxd_socket_activated(void)
{
	const char *pid_env = getenv("LISTEN_PID");
	const char *fds_env = getenv("LISTEN_FDS");
	const int fd = MMXD_LISTEN_FDS_START;
	struct sockaddr_storage sa;
	socklen_t len;
	unsigned long pid, nfds;
	int type, listening, flags, ret;

	if (!pid_env || !fds_env)
		return 0;
	/* a parent's variables, inherited: not for us */
	if (parse_ulong(pid_env, &pid) || pid != (unsigned long)getpid())
		return 0;
	ret = parse_ulong(fds_env, &nfds);
	/* our children must not take the socket for theirs */
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	unsetenv("LISTEN_FDNAMES");
	if (ret)
		return ret;
	if (!nfds)
		return 0;
	if (nfds != 1)
		return -EINVAL;

	len = sizeof(type);
	if (getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len))
		return errno == EBADF ? -EBADF : -ENOTSOCK;
	len = sizeof(listening);
	if (type != SOCK_STREAM ||
	    getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &len) ||
	    !listening)
		return -EINVAL;
	len = sizeof(sa);
	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return -errno;
	if (sa.ss_family != AF_UNIX)
		return -EAFNOSUPPORT;
	flags = fcntl(fd, F_GETFL);
	if (flags < 0 || fcntl(fd, F_SETFL, flags | O_NONBLOCK) ||
	    fcntl(fd, F_SETFD, FD_CLOEXEC))
		return -errno;
	return fd;
}

int mmxd_socket_name(int fd, char *buf, size_t size)
{
	struct sockaddr_un sa;
	socklen_t len = sizeof(sa);
	size_t n;

	memset(&sa, 0, sizeof(sa));
	if (getsockname(fd, (struct sockaddr *)&sa, &len))
		return -errno;
	if (sa.sun_family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (len <= offsetof(struct sockaddr_un, sun_path))
		return -ENOENT;
	n = len - offsetof(struct sockaddr_un, sun_path);
	/* an abstract name starts with a NUL: shown as '@' */
	if (!sa.sun_path[0]) {
		if (n < 2)
			return -ENOENT;
		sa.sun_path[0] = '@';
	}
	if (snprintf(buf, size, "%.*s", (int)strnlen(sa.sun_path, n),
		     sa.sun_path) >= (int)size)
		return -ENAMETOOLONG;
	return 0;
}

void mmxd_socket_close(int fd, const char *path)
{
	if (fd >= 0)
		close(fd);
	unlink(path);
}

static int is_loopback(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)sa;

		return (ntohl(in->sin_addr.s_addr) >> 24) == 127;
	}
	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *in6 =
			(const struct sockaddr_in6 *)sa;

		return IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr);
	}
	return 0;
}

/*
 * "HOST:PORT" or "[v6]:PORT" into @host (@hsize bytes; empty HOST:
 * 127.0.0.1) and @port (@psize bytes); 0 or -EINVAL.
 */
static int split_host_port(const char *spec, char *host, size_t hsize,
			   char *port, size_t psize)
{
	const char *colon, *h = spec;
	size_t hlen;

	if (*spec == '[') {
		const char *br = strchr(spec, ']');

		if (!br || br[1] != ':')
			return -EINVAL;
		h = spec + 1;
		hlen = (size_t)(br - h);
		colon = br + 1;
	} else {
		colon = strrchr(spec, ':');
		if (!colon)
			return -EINVAL;
		hlen = (size_t)(colon - spec);
	}
	if (hlen >= hsize || !colon[1] || strlen(colon + 1) >= psize)
		return -EINVAL;
	memcpy(host, h, hlen);
	host[hlen] = '\0';
	strcpy(port, colon + 1);
	if (!host[0])
		strcpy(host, "127.0.0.1");
	return 0;
}

int mmxd_tcp_open(const char *spec, int any)
{
	struct addrinfo hints = {
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	}, *res;
	char host[256], port[32];
	int fd, ret, one = 1;

	if (split_host_port(spec, host, sizeof(host), port, sizeof(port)))
		return -EINVAL;
	ret = getaddrinfo(host, port, &hints, &res);
	if (ret)
		return ret == EAI_SYSTEM ? -errno : -EADDRNOTAVAIL;
	if (!any && !is_loopback(res->ai_addr)) {
		freeaddrinfo(res);
		return -EPERM;
	}
	fd = socket(res->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
		    0);
	if (fd < 0) {
		ret = -errno;
		freeaddrinfo(res);
		return ret;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, res->ai_addr, res->ai_addrlen) ||
	    listen(fd, MMXD_LISTEN_BACKLOG)) {
		ret = -errno;
		close(fd);
		freeaddrinfo(res);
		return ret;
	}
	freeaddrinfo(res);
	return fd;
}

int mmxd_cookie_write(const char *path, uint8_t *cookie, size_t len)
{
	char tmp[4096];
	size_t off = 0;
	int fd, ret;

	while (off < len) {
		ssize_t n = getrandom(cookie + off, len - off, 0);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		off += (size_t)n;
	}
	if (snprintf(tmp, sizeof(tmp), "%s.%d", path, (int)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	ret = make_parent(path);
	if (ret)
		return ret;
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fchmod(fd, 0600) || write(fd, cookie, len) != (ssize_t)len) {
		ret = errno ? -errno : -EIO;
		close(fd);
		unlink(tmp);
		return ret;
	}
	if (close(fd) || rename(tmp, path)) {
		ret = -errno;
		unlink(tmp);
		return ret;
	}
	return 0;
}
