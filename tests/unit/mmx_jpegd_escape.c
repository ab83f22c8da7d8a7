// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd-escape: test_lib_decode's sandbox-escape helper (built next to
 * the tests, never installed). It enters mmx-jpegd's sandbox (the same
 * userspace/decoder/sandbox.c, linked in) and then tries one way out:
 *
 *   mmx-jpegd-escape WHAT [--user USER]
 *       none: a progressive JPEG decode under the filter, exit 0;
 *       open, socket, ioctl, execve, fork, mmap-exec, mmap-fd (map fd 0),
 *       read-fd (read fd 0): the sandbox must kill the process with
 *       SIGSYS (exit status 3 if WHAT succeeded or failed without a kill;
 *       2 for a bad command line)
 */

#define _GNU_SOURCE

#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <termios.h>

#include "jpegd.h"

/* A decode under the filter: the allowlist must be enough for it. */
static int sandboxed_decode(const struct jpegd_sandbox *sb)
{
	enum { W = 96, H = 64 };
	static unsigned char src[W * H * 4], dst[W * H * 4];
	tjhandle enc = tjInitCompress(), dec = tjInitDecompress();
	unsigned char *jpeg = NULL;
	unsigned long len = 0;
	int i;

	if (!enc || !dec)
		return 1;
	for (i = 0; i < W * H * 4; i++)
		src[i] = (i * 7) & 0xff;
	if (tjCompress2(enc, src, W, 0, H, TJPF_BGRX, &jpeg, &len,
			TJSAMP_420, 90, TJFLAG_PROGRESSIVE))
		return 1;
	if (jpegd_sandbox_enter(sb))
		return 1;
	if (tjDecompress2(dec, jpeg, len, dst, W, 0, H, TJPF_BGRX,
			  JPEGD_TJFLAGS))
		return 1;
	return 0;
}

static int try_escape(const struct jpegd_sandbox *sb, const char *what)
{
	long r;

	static const char *const known[] = {
		"open", "socket", "ioctl", "execve", "fork", "mmap-exec",
		"mmap-fd", "read-fd",
	};
	size_t i;

	if (!strcmp(what, "none"))
		return sandboxed_decode(sb);
	for (i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (!strcmp(what, known[i]))
			break;
	if (i == sizeof(known) / sizeof(known[0])) {
		fprintf(stderr, "mmx-jpegd-escape: unknown way '%s'\n", what);
		return 2;
	}
	jpegd_close_from(3);
	if (jpegd_sandbox_enter(sb))
		return 1;
	if (!strcmp(what, "open")) {
		r = open("/dev/dri/card0", O_RDWR | O_CLOEXEC);
	} else if (!strcmp(what, "socket")) {
		r = socket(AF_UNIX, SOCK_STREAM, 0);
	} else if (!strcmp(what, "ioctl")) {
		struct termios t;

		r = ioctl(2, TCGETS, &t);
	} else if (!strcmp(what, "execve")) {
		char *argv[] = { "/bin/sh", "-c", "true", NULL };
		char *envp[] = { NULL };

		r = execve(argv[0], argv, envp);
	} else if (!strcmp(what, "fork")) {
		r = fork();
		if (r == 0)
			_exit(0);
	} else if (!strcmp(what, "mmap-exec")) {
		void *p = mmap(NULL, 4096, PROT_READ | PROT_EXEC,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		r = p == MAP_FAILED ? -1 : 0;
	} else if (!strcmp(what, "mmap-fd")) {
		void *p = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, 0, 0);

		r = p == MAP_FAILED ? -1 : 0;
	} else if (!strcmp(what, "read-fd")) {
		char c;

		r = read(0, &c, 1);
	} else {
		r = -1;
	}
	/* Still alive: the sandbox let it through (whatever it returned). */
	fprintf(stderr, "mmx-jpegd-escape: %s not killed (returned %ld)\n",
		what, r);
	return 3;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "user", required_argument, NULL, 'u' },
		{ NULL, 0, NULL, 0 },
	};
	struct jpegd_sandbox sb = { NULL, 0 };
	int c;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (c != 'u')
			return 2;
		sb.user = optarg;
	}
	if (optind != argc - 1) {
		fprintf(stderr, "Usage: mmx-jpegd-escape WHAT [--user USER]\n");
		return 2;
	}
	/* as mmx-jpegd: nothing may run at exit under the filter */
	_exit(try_escape(&sb, argv[optind]));
}
