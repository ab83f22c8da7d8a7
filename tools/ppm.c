// SPDX-License-Identifier: GPL-2.0
/*
 * Reading binary PPM (P6, maxval 255) images, shared by the host tools.
 */
#include <limits.h>
#include <stdlib.h>

#include "ppm.h"

/* Skip blanks and '#' comments in a PPM header. */
static void skip_space(FILE *f)
{
	int c;

	for (;;) {
		c = getc(f);
		if (c == '#') {
			while (c != '\n' && c != EOF)
				c = getc(f);
		} else if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
			if (c != EOF)
				ungetc(c, f);
			return;
		}
	}
}

/* Read one unsigned decimal header field; return 0 or -1. */
static int read_uint(FILE *f, unsigned long *v)
{
	int c, n = 0;

	skip_space(f);
	*v = 0;
	while ((c = getc(f)) >= '0' && c <= '9') {
		if (*v > (ULONG_MAX - 9) / 10)
			return -1;
		*v = *v * 10 + (unsigned long)(c - '0');
		n++;
	}
	if (c != EOF)
		ungetc(c, f);
	return n ? 0 : -1;
}

unsigned char *ppm_read(const char *prog, const char *in, FILE *f,
			unsigned long *w, unsigned long *h)
{
	unsigned long maxval;
	unsigned char *pix;
	size_t size;
	int c;

	if (getc(f) != 'P' || getc(f) != '6') {
		fprintf(stderr, "%s: %s: not a binary PPM (P6)\n", prog, in);
		return NULL;
	}
	if (read_uint(f, w) || read_uint(f, h) || read_uint(f, &maxval)) {
		fprintf(stderr, "%s: %s: bad PPM header\n", prog, in);
		return NULL;
	}
	if (maxval != 255) {
		fprintf(stderr, "%s: %s: maxval %lu, only 255 is supported\n",
			prog, in, maxval);
		return NULL;
	}
	if (*w == 0 || *h == 0 || *w > PPM_MAX_DIM || *h > PPM_MAX_DIM) {
		fprintf(stderr, "%s: %s: bad size %lux%lu\n", prog, in, *w, *h);
		return NULL;
	}
	/* exactly one whitespace byte ends the header */
	c = getc(f);
	if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
		fprintf(stderr, "%s: %s: bad PPM header\n", prog, in);
		return NULL;
	}

	size = (size_t)*w * *h * 3;
	pix = malloc(size);
	if (!pix) {
		fprintf(stderr, "%s: out of memory for %lux%lu\n", prog, *w, *h);
		return NULL;
	}
	if (fread(pix, 1, size, f) != size) {
		fprintf(stderr, "%s: %s: truncated pixel data\n", prog, in);
		free(pix);
		return NULL;
	}
	return pix;
}
