/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's log lines on stderr ("mmxd: ..."): the bottom of its layers,
 * for every part of it (the server filters them by its verbosity first).
 */

#ifndef MMXD_LOG_H
#define MMXD_LOG_H

#include <stdarg.h>

/* One line: "mmxd: ", "client @client: " unless @client is 0, @fmt. */
void mmxd_log_va(unsigned int client, const char *fmt, va_list ap);
/* One line, whatever the verbosity (errors, startup). */
void mmxd_say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* MMXD_LOG_H */
