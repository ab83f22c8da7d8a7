// SPDX-License-Identifier: MIT
/*
 * mmx_capture_check - compare a writeback capture (binary PPM, as written
 * by "mmxrandr --capture") with the picture it must show, computed here
 * from libmmx's screen pattern (mmx_screen_pattern(), what libmmx draws
 * into a screen it creates) and RandR's transform semantics: the centre
 * (u + 0.5, v + 0.5) of output pixel (u, v) shows the screen point
 * (X, Y) + M (u + 0.5, v + 0.5, 1) / w, sampled nearest (the pixel whose
 * square holds the point). Pixels whose point lies within EDGE of a
 * pixel edge are not judged (either neighbour is right for a sampler in
 * fixed point); at least 80% of the pixels must be judged.
 *
 * Usage:
 *   mmx_capture_check size FILE W H
 *   mmx_capture_check pattern FILE X Y [SW SH]
 *   mmx_capture_check transform FILE a,b,c,d,e,f,g,h,i X Y [SW SH]
 *   mmx_capture_check same FILE1 FILE2
 *   mmx_capture_check differ FILE1 FILE2
 * SW x SH is the screen size: points outside it must be black. Prints
 * one line saying what was compared; exits 0 when the capture is right,
 * 1 when not, 2 on a usage or file error.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmmx.h"
#include "mmx_screen_pattern.h"

struct image {
	uint32_t w;
	uint32_t h;
	uint8_t *rgb;
};

static int read_ppm(const char *path, struct image *img)
{
	FILE *f = fopen(path, "rb");
	unsigned int w, h, max;
	size_t n;

	if (!f) {
		fprintf(stderr, "mmx_capture_check: %s: %s\n", path,
			strerror(errno));
		return -1;
	}
	if (fscanf(f, "P6 %u %u %u", &w, &h, &max) != 3 || max != 255 ||
	    fgetc(f) == EOF || !w || !h || w > 16384 || h > 16384) {
		fprintf(stderr, "mmx_capture_check: %s: not a binary PPM\n",
			path);
		fclose(f);
		return -1;
	}
	n = (size_t)w * h * 3;
	img->rgb = malloc(n);
	if (!img->rgb || fread(img->rgb, 1, n, f) != n) {
		fprintf(stderr, "mmx_capture_check: %s: short file\n", path);
		free(img->rgb);
		fclose(f);
		return -1;
	}
	fclose(f);
	img->w = w;
	img->h = h;
	return 0;
}

static uint32_t pixel(const struct image *img, uint32_t x, uint32_t y)
{
	const uint8_t *p = img->rgb + ((size_t)y * img->w + x) * 3;

	return (uint32_t)p[0] << 16 | (uint32_t)p[1] << 8 | p[2];
}

static int parse_matrix(const char *s, double m[9])
{
	char *end;
	int k;

	for (k = 0; k < 9; k++) {
		m[k] = strtod(s, &end);
		if (end == s || (k < 8 && *end != ',') || (k == 8 && *end))
			return -1;
		s = end + 1;
	}
	return 0;
}

/* Expected colour at screen point (sx, sy); screen size 0: unbounded. */
static uint32_t expect(double sx, double sy, long sw, long sh)
{
	long x = (long)floor(sx), y = (long)floor(sy);

	if (x < 0 || y < 0 || (sw && x >= sw) || (sh && y >= sh))
		return 0;
	return mmx_screen_pattern((uint32_t)x, (uint32_t)y) & 0xffffff;
}

/*
 * How close to a pixel edge a sample may fall before either neighbour is
 * right: the driver samples in fixed point (S31.32 matrices, projective
 * spans by forward differencing), pixman's nearest rule takes the pixel
 * left of an exact edge; 2/100 of a pixel covers both on 4096-pixel spans.
 */
#define EDGE 0.02

static int near_edge(double v)
{
	double f = v - floor(v);

	return f < EDGE || f > 1 - EDGE;
}

static int check_mapping(const struct image *img, const double m[9], long ox,
			 long oy, long sw, long sh, const char *what)
{
	unsigned long judged = 0, bad = 0;
	uint32_t u, v;

	for (v = 0; v < img->h; v++) {
		for (u = 0; u < img->w; u++) {
			double x = u + 0.5, y = v + 0.5;
			double px = m[0] * x + m[1] * y + m[2];
			double py = m[3] * x + m[4] * y + m[5];
			double pw = m[6] * x + m[7] * y + m[8];
			uint32_t want, got;

			if (pw <= 0)
				continue;
			px /= pw;
			py /= pw;
			if (near_edge(px) || near_edge(py))
				continue;
			judged++;
			want = expect(ox + px, oy + py, sw, sh);
			got = pixel(img, u, v);
			if (want != got && bad++ < 5)
				fprintf(stderr,
					"  pixel %u,%u: got %06x, want %06x (screen %.3f,%.3f)\n",
					u, v, got, want, ox + px, oy + py);
		}
	}
	printf("%s: %ux%u, %lu pixels judged, %lu wrong\n", what, img->w,
	       img->h, judged, bad);
	if (judged * 10 < (unsigned long)img->w * img->h * 8) {
		fprintf(stderr, "  too few pixels judged\n");
		return 1;
	}
	return bad ? 1 : 0;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: mmx_capture_check size FILE W H\n"
		"       mmx_capture_check pattern FILE X Y [SW SH]\n"
		"       mmx_capture_check transform FILE a,b,c,d,e,f,g,h,i X Y [SW SH]\n"
		"       mmx_capture_check same|differ FILE1 FILE2\n");
	return 2;
}

int main(int argc, char **argv)
{
	struct image a = { 0 }, b = { 0 };
	double m[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	long sw = 0, sh = 0;
	int ret = 2, arg;

	if (argc < 3)
		return usage();
	if (read_ppm(argv[2], &a))
		return 2;
	if (!strcmp(argv[1], "size") && argc == 5) {
		printf("size: %ux%u, want %sx%s\n", a.w, a.h, argv[3],
		       argv[4]);
		ret = a.w == strtoul(argv[3], NULL, 0) &&
		      a.h == strtoul(argv[4], NULL, 0) ? 0 : 1;
	} else if ((!strcmp(argv[1], "same") || !strcmp(argv[1], "differ")) &&
		   argc == 4) {
		unsigned long diff = 0;
		uint32_t x, y;

		if (read_ppm(argv[3], &b))
			goto out;
		if (a.w == b.w && a.h == b.h)
			for (y = 0; y < a.h; y++)
				for (x = 0; x < a.w; x++)
					diff += pixel(&a, x, y) != pixel(&b, x, y);
		printf("%s: %ux%u vs %ux%u, %lu pixels differ\n", argv[1], a.w,
		       a.h, b.w, b.h, diff);
		ret = (a.w == b.w && a.h == b.h && !diff) ==
		      !strcmp(argv[1], "same") ? 0 : 1;
	} else if (!strcmp(argv[1], "pattern") && (argc == 5 || argc == 7)) {
		arg = 3;
		goto mapping;
	} else if (!strcmp(argv[1], "transform") &&
		   (argc == 6 || argc == 8)) {
		if (parse_matrix(argv[3], m)) {
			fprintf(stderr, "mmx_capture_check: bad matrix '%s'\n",
				argv[3]);
			goto out;
		}
		arg = 4;
		goto mapping;
	} else {
		ret = usage();
	}
	goto out;

mapping:
	if (argc > arg + 2) {
		sw = strtol(argv[arg + 2], NULL, 0);
		sh = strtol(argv[arg + 3], NULL, 0);
	}
	ret = check_mapping(&a, m, strtol(argv[arg], NULL, 0),
			    strtol(argv[arg + 1], NULL, 0), sw, sh, argv[1]);
out:
	free(a.rgb);
	free(b.rgb);
	return ret;
}
