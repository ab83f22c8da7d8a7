// SPDX-License-Identifier: GPL-2.0
/*
 * ppmcmp - compare two binary PPM images (P6, maxval 255) pixel by pixel.
 *
 * Usage: ppmcmp [-r X,Y,W,H] A.ppm B.ppm
 *
 * Prints "identical WxH" or the number of differing pixels and the first
 * few of them. -r compares only that rectangle (which must fit both).
 * Exit status: 0 identical, 1 different (or different sizes), 2 on bad
 * usage or an unreadable file.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "ppmcmp";

struct image {
	unsigned long w, h;
	uint8_t *rgb;
};

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

static int read_uint(FILE *f, unsigned long *v)
{
	int c, n = 0;

	skip_space(f);
	*v = 0;
	while ((c = getc(f)) >= '0' && c <= '9') {
		if (*v > 100000000)
			return -1;
		*v = *v * 10 + (unsigned long)(c - '0');
		n++;
	}
	if (c != EOF)
		ungetc(c, f);
	return n ? 0 : -1;
}

static void load(const char *path, struct image *img)
{
	unsigned long maxval;
	FILE *f = fopen(path, "rb");
	size_t size;

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	if (getc(f) != 'P' || getc(f) != '6' || read_uint(f, &img->w) ||
	    read_uint(f, &img->h) || read_uint(f, &maxval) || maxval != 255 ||
	    !img->w || !img->h || img->w > 65536 || img->h > 65536) {
		fprintf(stderr, "%s: %s: not a P6 PPM with maxval 255\n", prog, path);
		exit(2);
	}
	getc(f);	/* the single blank after maxval */
	size = img->w * img->h * 3;
	img->rgb = malloc(size);
	if (!img->rgb || fread(img->rgb, 1, size, f) != size) {
		fprintf(stderr, "%s: %s: short file\n", prog, path);
		exit(2);
	}
	fclose(f);
}

int main(int argc, char **argv)
{
	unsigned long x0 = 0, y0 = 0, w, h, x, y, diff = 0;
	struct image a, b;
	int rect = 0;

	if (argc == 5 && !strcmp(argv[1], "-r")) {
		if (sscanf(argv[2], "%lu,%lu,%lu,%lu", &x0, &y0, &w, &h) != 4 ||
		    !w || !h) {
			fprintf(stderr, "%s: bad rectangle '%s' (want X,Y,W,H)\n",
				prog, argv[2]);
			return 2;
		}
		rect = 1;
		argv += 2;
		argc -= 2;
	}
	if (argc != 3) {
		fprintf(stderr, "usage: %s [-r X,Y,W,H] A.ppm B.ppm\n", prog);
		return 2;
	}
	load(argv[1], &a);
	load(argv[2], &b);
	if (!rect && (a.w != b.w || a.h != b.h)) {
		printf("sizes differ: %lux%lu and %lux%lu\n", a.w, a.h, b.w, b.h);
		return 1;
	}
	if (!rect) {
		w = a.w;
		h = a.h;
	}
	if (x0 + w > a.w || x0 + w > b.w || y0 + h > a.h || y0 + h > b.h) {
		printf("rectangle %lu,%lu %lux%lu does not fit %lux%lu and %lux%lu\n",
		       x0, y0, w, h, a.w, a.h, b.w, b.h);
		return 1;
	}
	for (y = y0; y < y0 + h; y++) {
		for (x = x0; x < x0 + w; x++) {
			const uint8_t *pa = a.rgb + (y * a.w + x) * 3;
			const uint8_t *pb = b.rgb + (y * b.w + x) * 3;

			if (!memcmp(pa, pb, 3))
				continue;
			if (diff < 5)
				printf("  (%lu,%lu): #%02x%02x%02x vs #%02x%02x%02x\n",
				       x, y, pa[0], pa[1], pa[2], pb[0], pb[1], pb[2]);
			diff++;
		}
	}
	if (diff) {
		printf("%lu of %lu pixels differ\n", diff, w * h);
		return 1;
	}
	printf("identical %lux%lu\n", w, h);
	return 0;
}
