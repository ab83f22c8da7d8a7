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

#include "ppm.h"

static const char *prog = "ppm2png";

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
	pix = ppm_read(prog, argv[1], in, &w, &h);
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
