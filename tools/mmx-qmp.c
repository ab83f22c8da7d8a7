// SPDX-License-Identifier: GPL-2.0
/*
 * mmx-qmp - send commands to QEMU's QMP socket, print the answers.
 *
 * Usage: mmx-qmp [-t SECONDS] SOCKET COMMAND...
 *
 * SOCKET is the path of a "-qmp unix:PATH,server=on,wait=off" socket. Each
 * COMMAND is either a JSON object sent as it is, e.g.
 *   '{"execute":"query-status"}'
 * or the shorthand
 *   screendump:DEVICE:HEAD:FILE
 * which asks QEMU to write head HEAD of display device DEVICE (its id=) as
 * a PPM file FILE (made absolute: QEMU writes it, relative to its own
 * working directory).
 *
 * The capabilities handshake is done first. Events are skipped. Each
 * answer is printed on its own line. Exit status: 0 when every command
 * returned, 1 when one answered an error or the connection failed, 2 on
 * bad usage. -t bounds the whole exchange (default 20 s); connecting is
 * retried until then, as QEMU may not have created the socket yet.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

static const char *prog = "mmx-qmp";
static double deadline;
static char inbuf[1 << 16];
static size_t inlen;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int connect_socket(const char *path)
{
	struct sockaddr_un addr = { .sun_family = AF_UNIX };
	int fd;

	if (strlen(path) >= sizeof(addr.sun_path))
		fail("socket path too long: %s", path);
	strcpy(addr.sun_path, path);
	for (;;) {
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (fd < 0)
			fail("socket: %s", strerror(errno));
		if (!connect(fd, (struct sockaddr *)&addr, sizeof(addr)))
			return fd;
		close(fd);
		if ((errno != ENOENT && errno != ECONNREFUSED) || now() > deadline)
			fail("cannot connect to %s: %s", path, strerror(errno));
		usleep(50 * 1000);
	}
}

/* Read one line (without its end) into LINE; fails on timeout or EOF. */
static void read_line(int fd, char *line, size_t size)
{
	for (;;) {
		char *nl = memchr(inbuf, '\n', inlen);

		if (nl) {
			size_t n = nl - inbuf;

			if (n >= size)
				fail("answer longer than %zu bytes", size);
			memcpy(line, inbuf, n);
			line[n] = 0;
			if (n && line[n - 1] == '\r')
				line[n - 1] = 0;
			memmove(inbuf, nl + 1, inlen - n - 1);
			inlen -= n + 1;
			return;
		}
		if (inlen == sizeof(inbuf))
			fail("answer too long");

		struct pollfd p = { .fd = fd, .events = POLLIN };
		int ms = (int)((deadline - now()) * 1000);

		if (ms <= 0 || poll(&p, 1, ms) != 1)
			fail("timed out waiting for QEMU");
		ssize_t r = read(fd, inbuf + inlen, sizeof(inbuf) - inlen);

		if (r <= 0)
			fail("QEMU closed the connection");
		inlen += (size_t)r;
	}
}

static void send_all(int fd, const char *s)
{
	size_t left = strlen(s);

	while (left) {
		ssize_t w = write(fd, s, left);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			fail("write: %s", strerror(errno));
		s += w;
		left -= (size_t)w;
	}
}

/* Send CMD, wait for its answer; return 0 for "return", 1 for "error". */
static int execute(int fd, const char *cmd, int print)
{
	static char line[1 << 16];

	send_all(fd, cmd);
	send_all(fd, "\n");
	for (;;) {
		read_line(fd, line, sizeof(line));
		if (strstr(line, "\"event\""))
			continue;
		if (print)
			printf("%s\n", line);
		if (strstr(line, "\"return\""))
			return 0;
		if (strstr(line, "\"error\""))
			return 1;
	}
}

/* Expand screendump:DEVICE:HEAD:FILE into JSON, or return NULL. */
static char *expand(const char *arg)
{
	char dev[128], file[PATH_MAX], abs[PATH_MAX], *json;
	unsigned int head;
	int n = 0;

	if (strncmp(arg, "screendump:", 11))
		return NULL;
	if (sscanf(arg + 11, "%127[^:]:%u:%n", dev, &head, &n) != 2 || !n ||
	    !arg[11 + n]) {
		fprintf(stderr, "%s: bad '%s' (want screendump:DEVICE:HEAD:FILE)\n",
			prog, arg);
		exit(2);
	}
	snprintf(file, sizeof(file), "%s", arg + 11 + n);
	if (file[0] != '/') {
		char cwd[PATH_MAX];

		if (!getcwd(cwd, sizeof(cwd)))
			fail("getcwd: %s", strerror(errno));
		if (snprintf(abs, sizeof(abs), "%s/%s", cwd, file) >= (int)sizeof(abs))
			fail("path too long");
	} else {
		snprintf(abs, sizeof(abs), "%s", file);
	}
	if (strpbrk(abs, "\"\\") || strpbrk(dev, "\"\\"))
		fail("no quotes or backslashes in names, please");
	if (asprintf(&json, "{\"execute\":\"screendump\",\"arguments\":"
		     "{\"filename\":\"%s\",\"device\":\"%s\",\"head\":%u}}",
		     abs, dev, head) < 0)
		fail("out of memory");
	return json;
}

int main(int argc, char **argv)
{
	char greeting[1 << 12];
	double timeout = 20;
	int fd, i, status = 0, first = 1;

	if (argc > 2 && !strcmp(argv[1], "-t")) {
		timeout = atof(argv[2]);
		argc -= 2;
		argv += 2;
	}
	if (argc < 3 || timeout <= 0) {
		fprintf(stderr, "usage: %s [-t SECONDS] SOCKET COMMAND...\n", prog);
		return 2;
	}
	deadline = now() + timeout;

	fd = connect_socket(argv[first]);
	read_line(fd, greeting, sizeof(greeting));
	if (!strstr(greeting, "\"QMP\""))
		fail("not a QMP greeting: %s", greeting);
	if (execute(fd, "{\"execute\":\"qmp_capabilities\"}", 0))
		fail("qmp_capabilities refused");

	for (i = first + 1; i < argc; i++) {
		char *json = expand(argv[i]);

		if (execute(fd, json ? json : argv[i], 1))
			status = 1;
		free(json);
	}
	close(fd);
	return status;
}
