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

#include "ppm.h"

static const char *prog = "ppmcmp";

struct image {
	unsigned long w, h;
	uint8_t *rgb;
};

static void load(const char *path, struct image *img)
{
	FILE *f = fopen(path, "rb");

	if (!f) {
		fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
		exit(2);
	}
	img->rgb = ppm_read(prog, path, f, &img->w, &img->h);
	fclose(f);
	if (!img->rgb)
		exit(2);
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
