// SPDX-License-Identifier: MIT
/*
 * mmx_media_client - helpers of the guest programs that test mmxd's media
 * requests (see mmx_media_client.h).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <turbojpeg.h>

#include "mmx_media_client.h"

int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000ll + ts.tv_nsec;
}

int media_client_option(int opt, const char *arg, const char **spec,
			const char **only)
{
	switch (opt) {
	case 's':
		*spec = arg;
		return 1;
	case 't':
		*only = arg;
		return 1;
	default:
		return 0;
	}
}

int subtest_wanted(const char *only, const char *name)
{
	const char *p = only;
	size_t n = strlen(name);

	if (!only)
		return 1;
	while (p && *p) {
		if (!strncmp(p, name, n) && (p[n] == ',' || !p[n]))
			return 1;
		p = strchr(p, ',');
		if (p)
			p++;
	}
	return 0;
}

int subtest_report(const char *name, const char *err, int skip)
{
	if (!err)
		printf("Subtest %s: SUCCESS\n", name);
	else
		printf("  %s\nSubtest %s: %s\n", err, name,
		       skip ? "SKIP" : "FAIL");
	fflush(stdout);
	return err && !skip;
}

unsigned char *solid_jpeg(unsigned int w, unsigned int h, uint32_t c,
			  unsigned long *len)
{
	unsigned char *rgb = malloc((size_t)w * h * 3), *jpeg = NULL;
	tjhandle tj = tjInitCompress();
	size_t i;

	*len = 0;
	if (!rgb || !tj) {
		free(rgb);
		if (tj)
			tjDestroy(tj);
		return NULL;
	}
	for (i = 0; i < (size_t)w * h; i++) {
		rgb[3 * i] = (unsigned char)(c >> 16);
		rgb[3 * i + 1] = (unsigned char)(c >> 8);
		rgb[3 * i + 2] = (unsigned char)c;
	}
	if (tjCompress2(tj, rgb, (int)w, 0, (int)h, TJPF_RGB, &jpeg, len,
			TJSAMP_444, 95, 0)) {
		jpeg = NULL;
		*len = 0;
	}
	tjDestroy(tj);
	free(rgb);
	return jpeg;
}

int close_colour(uint32_t a, uint32_t b, int tol)
{
	int i;

	for (i = 0; i < 24; i += 8) {
		int d = (int)((a >> i) & 0xff) - (int)((b >> i) & 0xff);

		if (d > tol || d < -tol)
			return 0;
	}
	return 1;
}
