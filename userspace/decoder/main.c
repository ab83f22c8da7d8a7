// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd: the sandboxed JPEG decoder process of mmxd's decoder pool
 * (userspace/private/mmx_decode.c starts it; nobody else needs to).
 *
 * Usage:
 *   mmx-jpegd --worker [--user USER] [--mem-limit BYTES]
 *       serve the pool on fd 3 (socket) and fd 4 (shared memory)
 *   mmx-jpegd --selftest-escape WHAT [--user USER]
 *       enter the sandbox, then try WHAT: none (decode a JPEG, exit 0),
 *       open, socket, ioctl, execve, fork, mmap-exec, mmap-fd (map fd 0),
 *       read-fd (read fd 0); the sandbox must kill
 *       the process with SIGSYS (exit status 3 if WHAT succeeded or failed
 *       without a kill)
 */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <termios.h>

#include "jpegd.h"

static void usage(FILE *f)
{
	fputs("Usage: mmx-jpegd --worker [--user USER] [--mem-limit BYTES]\n"
	      "       mmx-jpegd --selftest-escape WHAT [--user USER]\n"
	      "The sandboxed JPEG decoder of mmxd's decoder pool; WHAT is\n"
	      "none, open, socket, ioctl, execve, fork, mmap-exec, mmap-fd or\n"
	      "read-fd.\n", f);
}

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

int jpegd_selftest_escape(const struct jpegd_sandbox *sb, const char *what)
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
		fprintf(stderr, "mmx-jpegd: unknown selftest '%s'\n", what);
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
	fprintf(stderr, "mmx-jpegd: selftest %s not killed (returned %ld)\n",
		what, r);
	return 3;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "worker", no_argument, NULL, 'w' },
		{ "selftest-escape", required_argument, NULL, 'e' },
		{ "user", required_argument, NULL, 'u' },
		{ "mem-limit", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct jpegd_sandbox sb = { NULL, 0 };
	const char *escape = NULL;
	int worker = 0, c;
	char *end;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			worker = 1;
			break;
		case 'e':
			escape = optarg;
			break;
		case 'u':
			sb.user = optarg;
			break;
		case 'm':
			errno = 0;
			sb.mem_limit = strtoull(optarg, &end, 10);
			if (errno || *end || !*optarg) {
				fprintf(stderr,
					"mmx-jpegd: bad --mem-limit '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc || worker + !!escape != 1) {
		usage(stderr);
		return 2;
	}
	/*
	 * Sandboxed, the process ends with _exit(): nothing registered to
	 * run at exit (a sanitizer's leak check: clone, ptrace) may run
	 * under the seccomp filter. stderr is unbuffered; stdout unused.
	 */
	if (escape)
		_exit(jpegd_selftest_escape(&sb, escape));
	_exit(jpegd_worker(&sb));
}
