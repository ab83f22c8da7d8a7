// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay: play an MJPEG AVI with PCM or MPEG audio through mmxd. See
 * mmxplay(1) and Documentation/mmxplay.rst.
 */

#define _GNU_SOURCE

#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "mmxplay.h"

int main(int argc, char **argv)
{
	char err[MMXPLAY_ERR_LEN];
	struct mmxplay_opts o;
	int ret;

	ret = mmxplay_parse_args(argc, argv, &o, err, sizeof(err));
	if (ret == 1)
		return 0;
	if (ret) {
		fprintf(stderr, "mmxplay: %s\nTry 'mmxplay --help' for more information.\n",
			err);
		return 2;
	}
	/* a lost connection is an error return, not a signal */
	signal(SIGPIPE, SIG_IGN);
	return mmxplay_play(&o);
}
