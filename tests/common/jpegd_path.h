/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Where the host tests and benchmarks find mmx-jpegd: $MMX_JPEGD, else
 * the build tree's bin/ next to the program's own directory
 * (build/unit/test_x -> build/bin/mmx-jpegd); and the test helpers, which
 * are built next to the tests (build/unit/mmx-jpeg-corpus).
 */
#ifndef MMX_TEST_JPEGD_PATH_H
#define MMX_TEST_JPEGD_PATH_H

#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Fill @path; 0, or -errno (with a message) when it is not executable. */
static inline int jpegd_path(char *path, size_t size)
{
	const char *env = getenv("MMX_JPEGD");
	char exe[PATH_MAX];
	ssize_t n;

	if (env && *env) {
		snprintf(path, size, "%s", env);
	} else {
		n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
		if (n <= 0)
			return -errno;
		exe[n] = 0;
		snprintf(path, size, "%s/../bin/mmx-jpegd", dirname(exe));
	}
	if (access(path, X_OK)) {
		int err = errno;

		fprintf(stderr, "%s: %s (build userspace first, or set "
			"MMX_JPEGD)\n", path, strerror(err));
		return -err;
	}
	return 0;
}

/* Fill @path with @name in this program's directory; 0 or -errno. */
static inline int test_helper_path(const char *name, char *path, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -errno;
	exe[n] = 0;
	snprintf(path, size, "%s/%s", dirname(exe), name);
	if (access(path, X_OK)) {
		int err = errno;

		fprintf(stderr, "%s: %s\n", path, strerror(err));
		return -err;
	}
	return 0;
}

#endif
