// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's log lines (mmxd_log.h).
 */

#include <stdio.h>

#include "mmxd_log.h"

void mmxd_log_va(unsigned int client, const char *fmt, va_list ap)
{
	fputs("mmxd: ", stderr);
	if (client)
		fprintf(stderr, "client %u: ", client);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void mmxd_say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	mmxd_log_va(0, fmt, ap);
	va_end(ap);
}
