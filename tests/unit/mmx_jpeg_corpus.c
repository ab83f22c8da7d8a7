// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpeg-corpus DIR: JPEGs for the decoder pool's host tests
 * (test_lib_decode), made by libturbojpeg from known patterns, so that the
 * tests need no binary files in the tree. A test helper, never installed.
 * For each NAME listed in DIR/index ("NAME WIDTH HEIGHT" lines): NAME.jpg,
 * NAME.src (the pattern it was made from) and NAME.ref (its in-process
 * tjDecompress2 decode with the worker's flags), both raw XRGB8888 (B, G,
 * R, X bytes) with a pitch of 4 * WIDTH.
 */

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jpegd.h"

struct corpus_item {
	const char *name;
	int width, height, subsamp, quality, flags;
};

static const struct corpus_item items[] = {
	{ "s444-64x48", 64, 48, TJSAMP_444, 95, 0 },
	{ "s420-320x240", 320, 240, TJSAMP_420, 90, 0 },
	{ "s422-333x197", 333, 197, TJSAMP_422, 90, 0 },
	{ "gray-160x120", 160, 120, TJSAMP_GRAY, 90, 0 },
	{ "prog-256x256", 256, 256, TJSAMP_420, 90, TJFLAG_PROGRESSIVE },
	{ "s420-1920x1080", 1920, 1080, TJSAMP_420, 90, 0 },
};

/* A smooth pattern (so JPEG keeps it within a few levels): red grows to
 * the right, green downwards, blue along the diagonal; grey for TJSAMP_GRAY. */
static void pattern(unsigned char *px, int w, int h, int gray)
{
	int x, y;

	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			unsigned char *p = px + ((size_t)y * w + x) * 4;
			int r = x * 255 / (w - 1), g = y * 255 / (h - 1);
			int b = (x + y) * 255 / (w + h - 2);

			if (gray)
				r = g = b;
			p[0] = b;
			p[1] = g;
			p[2] = r;
			p[3] = 0xff;
		}
	}
}

static int write_file(const char *dir, const char *name, const char *ext,
		      const void *data, size_t len)
{
	char path[4096];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "%s/%s%s", dir, name, ext);
	f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "mmx-jpeg-corpus: %s: %s\n", path, strerror(errno));
		return -1;
	}
	ok = fwrite(data, 1, len, f) == len;
	if (fclose(f) || !ok) {
		fprintf(stderr, "mmx-jpeg-corpus: %s: write error\n", path);
		return -1;
	}
	return 0;
}

/*
 * A fresh compressor per item: libjpeg-turbo 2.1 keeps progressive mode in
 * a reused handle and then writes a corrupt baseline JPEG.
 */
static int make_item(const char *dir, const struct corpus_item *it,
		     tjhandle dec, FILE *index)
{
	size_t size = (size_t)it->width * it->height * 4;
	unsigned char *src = malloc(size), *ref = malloc(size);
	tjhandle enc = tjInitCompress();
	unsigned char *jpeg = NULL;
	unsigned long jpeg_len = 0;
	int ret = -1;

	if (!src || !ref || !enc)
		goto out;
	pattern(src, it->width, it->height, it->subsamp == TJSAMP_GRAY);
	if (tjCompress2(enc, src, it->width, 0, it->height, TJPF_BGRX, &jpeg,
			&jpeg_len, it->subsamp, it->quality, it->flags)) {
		fprintf(stderr, "mmx-jpeg-corpus: compress %s: %s\n", it->name,
			tjGetErrorStr2(enc));
		goto out;
	}
	if (tjDecompress2(dec, jpeg, jpeg_len, ref, it->width, 0, it->height,
			  TJPF_BGRX, JPEGD_TJFLAGS)) {
		fprintf(stderr, "mmx-jpeg-corpus: decompress %s: %s\n", it->name,
			tjGetErrorStr2(dec));
		goto out;
	}
	if (write_file(dir, it->name, ".jpg", jpeg, jpeg_len) ||
	    write_file(dir, it->name, ".src", src, size) ||
	    write_file(dir, it->name, ".ref", ref, size))
		goto out;
	fprintf(index, "%s %d %d\n", it->name, it->width, it->height);
	ret = 0;
out:
	tjFree(jpeg);
	if (enc)
		tjDestroy(enc);
	free(src);
	free(ref);
	return ret;
}

static int make_corpus(const char *dir)
{
	tjhandle dec = tjInitDecompress();
	char path[4096];
	FILE *index = NULL;
	size_t i;
	int ret = 1;

	if (!dec)
		goto out;
	snprintf(path, sizeof(path), "%s/index", dir);
	index = fopen(path, "w");
	if (!index) {
		fprintf(stderr, "mmx-jpeg-corpus: %s: %s\n", path, strerror(errno));
		goto out;
	}
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++)
		if (make_item(dir, &items[i], dec, index))
			goto out;
	ret = 0;
out:
	if (index && fclose(index))
		ret = 1;
	if (dec)
		tjDestroy(dec);
	return ret;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fputs("Usage: mmx-jpeg-corpus DIR\n", stderr);
		return 2;
	}
	return make_corpus(argv[1]);
}
