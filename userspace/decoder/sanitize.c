// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The sanitizers' settings of mmx-jpegd in its ASan/UBSan build (make
 * SANITIZE=1). The decoder pool starts workers with an empty environment,
 * so $ASAN_OPTIONS and $UBSAN_OPTIONS never reach them: these are theirs.
 * Every report stops the worker (ASan does; UBSan: halt_on_error) and goes
 * to stderr, which the pool passes on. No leak check and no symbolizer: both need system
 * calls the seccomp filter kills (clone, ptrace, execve), so stacks are
 * printed as module+offset (addr2line -e mmx-jpegd OFFSET); no colours
 * (isatty() is an ioctl). A fault stays the worker's own signal, as the
 * pool and its tests expect of a crashed worker (ASan's instrumentation
 * reports the bad access before it faults). A report's first line
 * (FILE:LINE: runtime error: ..., or ERROR: AddressSanitizer: ...) always
 * gets out; what follows may be cut short by the filter (SIGSYS) when the
 * runtime probes memory with a pipe. Either way the worker dies and
 * tests/sanitize-check fails on the line.
 */

#ifdef __SANITIZE_ADDRESS__

const char *__asan_default_options(void);
const char *__ubsan_default_options(void);

const char *__asan_default_options(void)
{
	static const char options[] =
		"detect_leaks=0:symbolize=0:color=never:handle_segv=0:handle_sigbus=0";

	return options;
}

const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1:symbolize=0:color=never";
}

#endif
