// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * struct mmx_error for libmmxd_private (mmx_error.h).
 */

#include <stdarg.h>
#include <stdio.h>

#include "mmx_error.h"

int mmx_private_error(struct mmx_error *err, int e, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		err->err = e;
		vsnprintf(err->message, sizeof(err->message), fmt, ap);
		va_end(ap);
	}
	return e;
}
