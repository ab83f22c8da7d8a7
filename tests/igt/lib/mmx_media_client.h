/* SPDX-License-Identifier: MIT */
/*
 * mmx_media_client - helpers of the guest programs that test mmxd's media
 * requests through libmmx (mmx_stream_check, mmx_time_check): the clock,
 * --spec and --subtest, subtest selection and result lines, solid-colour
 * JPEGs (libturbojpeg) and colour comparison.
 */
#ifndef MMX_MEDIA_CLIENT_H
#define MMX_MEDIA_CLIENT_H

#include <getopt.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in ns. */
int64_t now_ns(void);

/* The options every client takes, in getopt_long()'s table. */
#define MEDIA_CLIENT_OPTIONS					\
	{ "spec", required_argument, NULL, 's' },		\
	{ "subtest", required_argument, NULL, 't' }

/*
 * getopt_long()'s @opt with argument @arg, if one of MEDIA_CLIENT_OPTIONS:
 * --spec sets *@spec, --subtest *@only. Returns 1 if it was, else 0.
 */
int media_client_option(int opt, const char *arg, const char **spec,
			const char **only);

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
