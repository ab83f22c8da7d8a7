// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx_test_media - write the test media of mmxplay's guest tests
 * (mmxplay_check, mmxplay_bench): tests/common/test_media.h says what it
 * holds, --help lists the options. Exit 0 when written, 1 when it could
 * not be (nothing is left behind), 2 on a bad command line.
 */

#include <stdio.h>

#include "test_media.h"

int main(int argc, char **argv)
{
	struct test_media m;
	const char *path;
	char err[256];
	int ret;

	ret = test_media_parse(argc, argv, &m, &path, err, sizeof(err));
	if (ret == 1)
		return 0;
	if (ret) {
		fprintf(stderr, "mmx_test_media: %s\n", err);
		fprintf(stderr, "Try 'mmx_test_media --help' for more information.\n");
		return 2;
	}
	if (test_media_write(path, &m, err, sizeof(err))) {
		fprintf(stderr, "mmx_test_media: %s\n", err);
		return 1;
	}
	return 0;
}
