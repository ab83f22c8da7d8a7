/* SPDX-License-Identifier: MIT */
/*
 * The guest stall monitor of the IGT-style tests (in mmx_igt.c), for
 * programs that do not use the rest of mmx_igt.h.
 */
#ifndef MMX_STALL_H
#define MMX_STALL_H

#include <stdbool.h>
#include <stdint.h>

/*
 * Stall monitor: a thread that sleeps 2 ms at a time and records when it
 * woke up more than a threshold late: the guest (its vCPU, under TCG on a
 * busy host) did not run then, and nothing in it could be on time. One
 * monitor per process; a start stops a monitor still running and clears
 * the record, which stays readable after the stop.
 */
/* Start recording the stalls longer than 25 ms. */
void mmx_stall_monitor_start(void);
/* Start recording the stalls longer than @threshold_ns; 0 or -errno. */
int mmx_stall_monitor_start_at(int64_t threshold_ns);
void mmx_stall_monitor_stop(void);
/* Did the guest stall between CLOCK_MONOTONIC ns @a and @b? */
bool mmx_stalled(int64_t a, int64_t b);
/* Stalls recorded since the last start. */
unsigned int mmx_stall_count(void);
/* The longest gap between two wakeups since the last start, in ns. */
int64_t mmx_stall_longest(void);
/*
 * Whether the guest kernel is built with KASAN (the debug kernel of make
 * check-debug): its instrumentation makes the driver's work, composition
 * above all, several times slower, so timing criteria are not judged there.
 */
bool mmx_kernel_sanitized(void);

#endif /* MMX_STALL_H */
