// SPDX-License-Identifier: GPL-2.0
/*
 * ppm2png - convert a binary PPM (P6, maxval 255) into a PNG.
 *
 * Usage: ppm2png IN.ppm OUT.png
 *
 * QEMU's screendump and the mmx tests write PPM; PNG is what people (and
 * image viewers) want to look at. Exit status: 0 on success, 1 on an I/O or
 * format error (with a message on stderr), 2 on bad usage.
 */
#include <errno.h>
#include <limits.h>
#include <png.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *prog = "ppm2png";

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

/*
 * Read the P6 image in IN; on success return the pixels (3 bytes each, row
 * after row) and set *w, *h. Return NULL after printing why on failure.
 */
static unsigned char *read_ppm(const char *in, FILE *f, unsigned long *w,
			       unsigned long *h)
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
	if (*w == 0 || *h == 0 || *w > PNG_UINT_31_MAX / 3 ||
	    *h > PNG_UINT_31_MAX || *w > SIZE_MAX / 3 / *h) {
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

/* Write the pixels to OUT as 8-bit RGB; return 0 or -1 after a message. */
static int write_png(const char *out, FILE *f, const unsigned char *pix,
		     unsigned long w, unsigned long h)
{
	png_structp png;
	png_infop info;
	unsigned long y;

	png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
	if (!png)
		goto err_msg;
	info = png_create_info_struct(png);
	if (!info) {
		png_destroy_write_struct(&png, NULL);
		goto err_msg;
	}
	if (setjmp(png_jmpbuf(png))) {
		png_destroy_write_struct(&png, &info);
		goto err_msg;
	}
	png_init_io(png, f);
	png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8,
		     PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
		     PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
	png_write_info(png, info);
	for (y = 0; y < h; y++)
		png_write_row(png, pix + y * w * 3);
	png_write_end(png, NULL);
	png_destroy_write_struct(&png, &info);
	return 0;

err_msg:
	fprintf(stderr, "%s: %s: cannot write PNG\n", prog, out);
	return -1;
}

int main(int argc, char **argv)
{
	unsigned long w, h;
	unsigned char *pix;
	FILE *in, *out;
	int ret;

	if (argc != 3) {
		fprintf(stderr, "Usage: %s IN.ppm OUT.png\n", prog);
		return 2;
	}

	in = fopen(argv[1], "rb");
	if (!in) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[1], strerror(errno));
		return 1;
	}
	pix = read_ppm(argv[1], in, &w, &h);
	fclose(in);
	if (!pix)
		return 1;

	out = fopen(argv[2], "wb");
	if (!out) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], strerror(errno));
		free(pix);
		return 1;
	}
	ret = write_png(argv[2], out, pix, w, h);
	free(pix);
	if (fclose(out) && !ret) {
		fprintf(stderr, "%s: %s: %s\n", prog, argv[2], strerror(errno));
		ret = -1;
	}
	if (ret)
		remove(argv[2]);
	return ret ? 1 : 0;
}
