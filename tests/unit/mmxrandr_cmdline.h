/* SPDX-License-Identifier: MIT */
/*
 * mmxrandr's command line for its host tests: a line split at spaces into
 * argv (after "mmxrandr") and parsed by mmxr_parse_args().
 */
#ifndef MMXRANDR_CMDLINE_H
#define MMXRANDR_CMDLINE_H

#include <stdio.h>
#include <string.h>

#include "mmxrandr.h"

#define T_MAXARGS 40

/* Parse @line into @req; mmxr_parse_args()'s return, its message in @err. */
static inline int t_parse_line(const char *line, struct mmxr_request *req,
			       char *err, size_t errlen)
{
	static char buf[1024];
	char *argv[T_MAXARGS];
	int argc = 0;
	char *tok;

	snprintf(buf, sizeof(buf), "%s", line);
	argv[argc++] = (char *)"mmxrandr";
	for (tok = strtok(buf, " "); tok && argc < T_MAXARGS - 1;
	     tok = strtok(NULL, " "))
		argv[argc++] = tok;
	argv[argc] = NULL;
	return mmxr_parse_args(argc, argv, req, err, errlen);
}

#endif
