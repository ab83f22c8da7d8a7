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
 *
 * The sandbox's escape tests run the same sandbox (sandbox.c) in the test
 * helper mmx-jpegd-escape (tests/unit/mmx_jpegd_escape.c).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "jpegd.h"

static void usage(FILE *f)
{
	fputs("Usage: mmx-jpegd --worker [--user USER] [--mem-limit BYTES]\n"
	      "The sandboxed JPEG decoder of mmxd's decoder pool.\n", f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "worker", no_argument, NULL, 'w' },
		{ "user", required_argument, NULL, 'u' },
		{ "mem-limit", required_argument, NULL, 'm' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct jpegd_sandbox sb = { NULL, 0 };
	int worker = 0, c;
	char *end;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'w':
			worker = 1;
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
	if (optind != argc || !worker) {
		usage(stderr);
		return 2;
	}
	/*
	 * Sandboxed, the process ends with _exit(): nothing registered to
	 * run at exit (a sanitizer's leak check: clone, ptrace) may run
	 * under the seccomp filter. stderr is unbuffered; stdout unused.
	 */
	_exit(jpegd_worker(&sb));
}
