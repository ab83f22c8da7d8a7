// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's listening UNIX socket (Documentation/mmxd-protocol.rst,
 * "Security").
 */

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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

int mmxd_socket_open(const char *path, gid_t gid)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct stat st;
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
	if (!lstat(path, &st)) {
		if (!S_ISSOCK(st.st_mode)) {
			ret = -EEXIST;
			goto err_close;
		}
		/* a live daemon answers there; a stale socket refuses */
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)) ||
		    errno == EAGAIN) {
			ret = -EADDRINUSE;
			goto err_close;
		}
		close(fd);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK |
			    SOCK_CLOEXEC, 0);
		if (fd < 0)
			return -errno;
		unlink(path);
	}
	/* no window in which the socket has wider permissions */
	{
		mode_t old = umask(0117);

		ret = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
		umask(old);
	}
	if (ret) {
		ret = -errno;
		goto err_close;
	}
	if (chmod(path, 0660) ||
	    (gid != (gid_t)-1 && chown(path, (uid_t)-1, gid)) ||
	    listen(fd, 64)) {
		ret = -errno;
		unlink(path);
		goto err_close;
	}
	return fd;

err_close:
	close(fd);
	return ret;
}

void mmxd_socket_close(int fd, const char *path)
{
	if (fd >= 0)
		close(fd);
	unlink(path);
}
