/* SPDX-License-Identifier: MIT */
/*
 * mmx_media_client - helpers of the guest programs that test mmxd's media
 * requests through libmmx (mmx_stream_check, mmx_time_check): the clock,
 * --subtest selection and result lines, solid-colour JPEGs (libturbojpeg) and colour
 * comparison.
 */
#ifndef MMX_MEDIA_CLIENT_H
#define MMX_MEDIA_CLIENT_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns. */
int64_t now_ns(void);

/* Is subtest @name in the comma-separated list @only (NULL: all)? */
int subtest_wanted(const char *only, const char *name);

/* A @w x @h JPEG of colour @c, XRGB8888 (the caller frees with tjFree). */
unsigned char *solid_jpeg(unsigned int w, unsigned int h, uint32_t c,
			  unsigned long *len);

/*
 * Print subtest @name's line: SUCCESS without @err, else @err and SKIP
 * (with @skip) or FAIL. Returns 1 for FAIL, else 0.
 */
int subtest_report(const char *name, const char *err, int skip);

/* Do XRGB8888 colours @a and @b differ by at most @tol in each channel? */
int close_colour(uint32_t a, uint32_t b, int tol);

#endif /* MMX_MEDIA_CLIENT_H */
