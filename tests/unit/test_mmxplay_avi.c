// SPDX-License-Identifier: MIT
/*
 * mmxplay's parts on the host: the AVI reader (userspace/mmxplay/avi.c)
 * against the tests' media (tests/common/test_media.c, also the guest
 * tests' mmx_test_media) and against hand-built RIFF trees
 * (idx1 relative and absolute, no index, a broken index, 'rec ' lists,
 * unsupported codecs, bad sizes), every truncation and thousands of
 * corruptions of a real file (the reader must refuse or return chunks
 * inside the file, never read outside it: run under valgrind), the send
 * plan, the report's figures, the test picture's frame number, mmxplay's
 * command line and mmx_test_media's.
 *
 * Expected values come from the media's own parameters: 10 fps is 100 ms
 * a frame; 8000 Hz mono S16 is 800 samples (1600 bytes) a frame period;
 * Layer II is 1152 samples a frame.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <turbojpeg.h>

#include "unit.h"
#include "avi.h"
#include "mmxplay.h"
#include "test_media.h"

static char dir[] = "/tmp/test_mmxplay.XXXXXX";
static char err[AVI_ERR_LEN];

/* A small growable byte buffer and a RIFF builder on it. */
struct buf {
	uint8_t *d;
	size_t len, cap;
};

static void put(struct buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->d = realloc(b->d, b->cap);
		if (!b->d)
			abort();
	}
	if (n)	/* p may be NULL then */
		memcpy(b->d + b->len, p, n);
	b->len += n;
}

static void put32(struct buf *b, uint32_t v)
{
	uint8_t x[4] = { v, v >> 8, v >> 16, v >> 24 };

	put(b, x, 4);
}

static void put16(struct buf *b, uint16_t v)
{
	uint8_t x[2] = { v, v >> 8 };

	put(b, x, 2);
}

static void fcc(struct buf *b, const char *s)
{
	put(b, s, 4);
}

static void set32(struct buf *b, size_t at, uint32_t v)
{
	b->d[at] = v;
	b->d[at + 1] = v >> 8;
	b->d[at + 2] = v >> 16;
	b->d[at + 3] = v >> 24;
}

static uint32_t get32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

/* open a chunk or list; returns where its size goes */
static size_t open_ck(struct buf *b, const char *id, const char *type)
{
	size_t at;

	fcc(b, id);
	at = b->len;
	put32(b, 0);
	if (type)
		fcc(b, type);
	return at;
}

static void close_ck(struct buf *b, size_t at)
{
	set32(b, at, (uint32_t)(b->len - at - 4));
	if (b->len & 1)
		put(b, "", 1);
}

static void chunk(struct buf *b, const char *id, const void *p, uint32_t n)
{
	fcc(b, id);
	put32(b, n);
	put(b, p, n);
	if (n & 1)
		put(b, "", 1);
}

/*
 * struct spec - a hand-built AVI
 * @vcomp: video biCompression
 * @atag: audio wFormatTag, 0: no audio stream
 * @abits: audio bits
 * @achunk: audio chunk bytes
 * @frames: video frames (frame 2 empty when @drop)
 * @index: 0 none, 1 relative idx1, 2 absolute idx1
 * @rec: put each frame's chunks in a 'rec ' list
 */
struct spec {
	const char *vcomp;
	uint16_t atag;
	uint16_t abits;
	uint32_t achunk;
	uint32_t frames;
	int index;
	bool rec;
	bool drop;
};

static const uint8_t fake_jpeg[] = { 0xff, 0xd8, 1, 2, 3, 0xff, 0xd9 };

static void build(struct buf *b, const struct spec *s)
{
	size_t riff, hdrl, strl, movi, movi_fourcc, rec = 0, idx;
	struct buf ix = { 0 };
	uint8_t audio[4096];
	uint32_t i;

	memset(audio, 0x11, sizeof(audio));
	b->len = 0;
	riff = open_ck(b, "RIFF", "AVI ");
	hdrl = open_ck(b, "LIST", "hdrl");
	fcc(b, "avih");
	put32(b, 56);
	put32(b, 40000);			/* 25 fps */
	for (i = 0; i < 13; i++)
		put32(b, i == 6 ? (s->atag ? 2 : 1) : 0);
	strl = open_ck(b, "LIST", "strl");
	fcc(b, "strh");
	put32(b, 56);
	fcc(b, "vids");
	fcc(b, s->vcomp);
	put32(b, 0);
	put32(b, 0);
	put32(b, 0);
	put32(b, 1);				/* scale */
	put32(b, 25);				/* rate */
	for (i = 0; i < 7; i++)
		put32(b, 0);
	fcc(b, "strf");
	put32(b, 40);
	put32(b, 40);
	put32(b, 64);
	put32(b, (uint32_t)-48);		/* top-down */
	put16(b, 1);
	put16(b, 24);
	fcc(b, s->vcomp);
	for (i = 0; i < 5; i++)
		put32(b, 0);
	close_ck(b, strl);
	if (s->atag) {
		strl = open_ck(b, "LIST", "strl");
		fcc(b, "strh");
		put32(b, 56);
		fcc(b, "auds");
		put32(b, 0);
		put32(b, 0);
		put32(b, 0);
		put32(b, 0);
		put32(b, 1);
		put32(b, 8000);
		for (i = 0; i < 7; i++)
			put32(b, i == 4 ? 4 : 0);
		fcc(b, "strf");
		put32(b, 16);
		put16(b, s->atag);
		put16(b, 2);			/* stereo */
		put32(b, 8000);
		put32(b, 32000);
		put16(b, 4);
		put16(b, s->abits);
		close_ck(b, strl);
	}
	close_ck(b, hdrl);
	chunk(b, "JUNK", "padding", 7);
	movi = open_ck(b, "LIST", "movi");
	movi_fourcc = movi + 4;
	for (i = 0; i < s->frames; i++) {
		uint32_t vlen = s->drop && i == 2 ? 0 : sizeof(fake_jpeg);

		if (s->rec)
			rec = open_ck(b, "LIST", "rec ");
		fcc(&ix, "00dc");
		put32(&ix, 0x10);
		put32(&ix, (uint32_t)(b->len - (s->index == 2 ? 0 :
						  movi_fourcc)));
		put32(&ix, vlen);
		chunk(b, "00dc", fake_jpeg, vlen);
		if (s->atag) {
			fcc(&ix, "01wb");
			put32(&ix, 0x10);
			put32(&ix, (uint32_t)(b->len - (s->index == 2 ? 0 :
							  movi_fourcc)));
			put32(&ix, s->achunk);
			chunk(b, "01wb", audio, s->achunk);
		}
		if (s->rec)
			close_ck(b, rec);
	}
	close_ck(b, movi);
	if (s->index) {
		idx = open_ck(b, "idx1", NULL);
		put(b, ix.d, ix.len);
		close_ck(b, idx);
	}
	close_ck(b, riff);
	free(ix.d);
}

static const struct spec base = {
	.vcomp = "MJPG", .atag = 1, .abits = 16, .achunk = 1280,
	.frames = 5, .index = 1,
};

/* Every chunk lies inside the file: what a corrupt file must keep. */
static int inside(const struct avi_file *f, size_t len)
{
	uint32_t i;

	for (i = 0; i < f->nvideo; i++)
		if (f->video[i].offset + f->video[i].size > len)
			return 0;
	for (i = 0; i < f->naudio; i++)
		if (f->audio[i].offset + f->audio[i].size > len)
			return 0;
	return 1;
}

static int check_base(const struct buf *b, const struct spec *s,
		      int from_index)
{
	struct avi_file f;
	uint32_t i;
	int ret;

	ret = avi_parse(b->d, b->len, &f, err, sizeof(err));
	UNIT_CHECK(ret == 0, "parse: %d %s", ret, err);
	UNIT_CHECK(f.width == 64 && f.height == 48, "size %ux%u", f.width,
		   f.height);
	UNIT_CHECK(f.fps_num == 25 && f.fps_den == 1 && f.frame_ns == 40000000,
		   "fps %u/%u", f.fps_num, f.fps_den);
	UNIT_CHECK(f.from_index == from_index, "from_index %d (note '%s')",
		   f.from_index, f.note);
	UNIT_CHECK(f.nvideo == s->frames, "nvideo %u", f.nvideo);
	UNIT_CHECK(f.naudio == s->frames, "naudio %u", f.naudio);
	for (i = 0; i < f.nvideo; i++) {
		uint32_t want = s->drop && i == 2 ? 0 : sizeof(fake_jpeg);

		UNIT_CHECK(f.video[i].size == want, "frame %u size %u", i,
			   f.video[i].size);
		UNIT_CHECK(!want || !memcmp(b->d + f.video[i].offset,
					    fake_jpeg, want),
			   "frame %u data", i);
		UNIT_CHECK(f.video[i].pts_ns == (int64_t)i * 40000000,
			   "frame %u pts %lld", i,
			   (long long)f.video[i].pts_ns);
		/* 1280 bytes of stereo S16 = 320 samples = 40 ms */
		UNIT_CHECK(f.audio[i].pts_ns == (int64_t)i * 40000000,
			   "audio %u pts %lld", i,
			   (long long)f.audio[i].pts_ns);
		UNIT_CHECK(b->d[f.audio[i].offset] == 0x11, "audio data");
	}
	UNIT_CHECK(f.audio_codec == AVI_AUDIO_PCM && f.rate == 8000 &&
		   f.channels == 2, "audio %d %u %u", f.audio_codec, f.rate,
		   f.channels);
	UNIT_CHECK(f.duration_ns == (int64_t)s->frames * 40000000,
		   "duration %lld", (long long)f.duration_ns);
	avi_free(&f);
	return 0;
}

static int test_index_kinds(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	int ret = 0;

	/* idx1 relative to movi, absolute, none, 'rec ' lists, a drop */
	build(&b, &s);
	ret |= check_base(&b, &s, 1);
	s.index = 2;
	build(&b, &s);
	ret |= check_base(&b, &s, 1);
	s.index = 0;
	build(&b, &s);
	ret |= check_base(&b, &s, 0);
	s.rec = true;
	build(&b, &s);
	ret |= check_base(&b, &s, 0);
	s.index = 1;
	s.drop = true;
	build(&b, &s);
	ret |= check_base(&b, &s, 1);
	free(b.d);
	return ret;
}

/* An index entry pointing elsewhere: the reader scans movi instead. */
static int test_index_broken(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	size_t idx;
	int ret;

	build(&b, &s);
	idx = b.len - 16 * 2 * s.frames;
	set32(&b, idx + 16 * 3 + 8, get32(b.d + idx + 16 * 3 + 8) + 2);
	ret = check_base(&b, &s, 0);
	if (!ret) {
		struct avi_file f;

		avi_parse(b.d, b.len, &f, err, sizeof(err));
		UNIT_CHECK(strstr(f.note, "idx1 entry 3"), "note '%s'", f.note);
		avi_free(&f);
	}
	/* an entry far outside the file */
	build(&b, &s);
	set32(&b, idx + 8, 0xfffffff0u);
	ret |= check_base(&b, &s, 0);
	/* a size that disagrees with the chunk */
	build(&b, &s);
	set32(&b, idx + 16 + 12, 99999);
	ret |= check_base(&b, &s, 0);
	free(b.d);
	return ret;
}

static int expect_fail(const struct buf *b, int want, const char *words)
{
	struct avi_file f;
	int ret;

	memset(&f, 0x5a, sizeof(f));
	ret = avi_parse(b->d, b->len, &f, err, sizeof(err));
	UNIT_CHECK(ret == want, "parse %d, want %d (%s)", ret, want, err);
	UNIT_CHECK(strstr(err, words), "message '%s' lacks '%s'", err, words);
	UNIT_CHECK(!f.video && !f.audio && !f.nvideo, "output not empty");
	return 0;
}

static int test_refused(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	size_t movi;
	int ret = 0;

	put(&b, "RIFF\4\0\0\0WAVE", 12);
	ret |= expect_fail(&b, -EINVAL, "not an AVI");
	b.len = 11;
	ret |= expect_fail(&b, -EINVAL, "not an AVI");
	b.len = 0;
	ret |= expect_fail(&b, -EINVAL, "not an AVI");

	build(&b, &s);
	b.len -= 100;				/* truncated */
	ret |= expect_fail(&b, -EINVAL, "truncated");

	/* a chunk whose size runs past its list */
	build(&b, &s);
	movi = (uint8_t *)memmem(b.d, b.len, "movi", 4) - b.d;
	set32(&b, movi + 8, 0xfffffff0u);
	ret |= expect_fail(&b, -EINVAL, "run past");

	s.vcomp = "H264";
	build(&b, &s);
	ret |= expect_fail(&b, -ENOTSUP, "not MJPEG");
	s = base;
	s.abits = 8;
	build(&b, &s);
	ret |= expect_fail(&b, -ENOTSUP, "8-bit PCM");
	s = base;
	s.achunk = 1282;			/* not whole frames */
	build(&b, &s);
	ret |= expect_fail(&b, -EINVAL, "whole");
	s = base;
	s.frames = 0;
	build(&b, &s);
	ret |= expect_fail(&b, -EINVAL, "no frames");

	/* no hdrl: rename the list */
	s = base;
	build(&b, &s);
	memcpy(memmem(b.d, b.len, "hdrl", 4), "hdrx", 4);
	ret |= expect_fail(&b, -EINVAL, "hdrl");
	build(&b, &s);
	memcpy(memmem(b.d, b.len, "movi", 4), "movx", 4);
	ret |= expect_fail(&b, -EINVAL, "movi");
	/* a zero frame rate everywhere */
	build(&b, &s);
	set32(&b, 32, 0);			/* avih usec per frame */
	set32(&b, (uint8_t *)memmem(b.d, b.len, "vids", 4) - b.d + 20, 0);
	ret |= expect_fail(&b, -EINVAL, "frame rate");
	free(b.d);
	return ret;
}

/* An audio format mmxplay does not play: the video plays alone. */
static int test_other_audio(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	struct avi_file f;
	int ret;

	s.atag = 0x2000;			/* AC-3 */
	build(&b, &s);
	ret = avi_parse(b.d, b.len, &f, err, sizeof(err));
	UNIT_CHECK(ret == 0, "parse %d %s", ret, err);
	UNIT_CHECK(f.audio_codec == AVI_AUDIO_NONE && f.naudio == 0 &&
		   f.nvideo == 5, "audio %d, %u chunks", f.audio_codec,
		   f.naudio);
	UNIT_CHECK(strstr(f.note, "0x2000"), "note '%s'", f.note);
	avi_free(&f);
	free(b.d);
	return 0;
}

static int make(const char *name, const char *audio, double seconds,
		char *path, size_t n)
{
	struct test_media m;
	const char *file;
	char *argv[16];
	int argc = 0;

	snprintf(path, n, "%s/%s", dir, name);
	argv[argc++] = (char *)"mmx_test_media";
	argv[argc++] = path;
	argv[argc++] = (char *)"--audio";
	argv[argc++] = (char *)audio;
	argv[argc] = NULL;
	if (test_media_parse(argc, argv, &m, &file, err, sizeof(err)))
		return -1;
	m.seconds = seconds;
	return test_media_write(file, &m, err, sizeof(err));
}

/* The test media: frames, times, audio, and the picture's frame number. */
static int test_media_pcm(void)
{
	char path[256];
	uint8_t *data;
	size_t len;
	struct avi_file f;
	tjhandle tj;
	uint32_t *pix, i, frame;
	int ret, w, h, sub, cs;

	UNIT_CHECK(make("pcm.avi", "pcm", 5, path, sizeof(path)) == 0, "%s",
		   err);
	ret = avi_read_file(path, &data, &len, err, sizeof(err));
	UNIT_CHECK(ret == 0, "%s", err);
	ret = avi_parse(data, len, &f, err, sizeof(err));
	UNIT_CHECK(ret == 0, "%s", err);
	UNIT_CHECK(f.width == 320 && f.height == 240 && f.nvideo == 50 &&
		   f.frame_ns == 100000000 && f.from_index,
		   "%ux%u, %u frames, %lld ns", f.width, f.height, f.nvideo,
		   (long long)f.frame_ns);
	UNIT_CHECK(f.audio_codec == AVI_AUDIO_PCM && f.rate == 8000 &&
		   f.channels == 1 && f.naudio == 50 &&
		   f.audio_bytes == 5 * 8000 * 2, "audio %u Hz %u, %u chunks, %llu bytes",
		   f.rate, f.channels, f.naudio,
		   (unsigned long long)f.audio_bytes);
	UNIT_CHECK(f.duration_ns == 5000000000ll, "duration %lld",
		   (long long)f.duration_ns);
	tj = tjInitDecompress();
	pix = malloc(320 * 240 * 4);
	UNIT_CHECK(tj && pix, "alloc");
	for (i = 0; i < f.nvideo; i++) {
		const uint8_t *j = data + f.video[i].offset;

		UNIT_CHECK(f.video[i].pts_ns == (int64_t)i * 100000000 &&
			   f.audio[i].pts_ns == (int64_t)i * 100000000 &&
			   f.audio[i].size == 1600, "chunk %u", i);
		UNIT_CHECK(j[0] == 0xff && j[1] == 0xd8 &&
			   j[f.video[i].size - 2] == 0xff &&
			   j[f.video[i].size - 1] == 0xd9, "frame %u not a JPEG", i);
		if (i % 7)
			continue;
		UNIT_CHECK(!tjDecompressHeader3(tj, j, f.video[i].size, &w, &h,
						&sub, &cs) && w == 320 &&
			   h == 240, "frame %u header", i);
		UNIT_CHECK(!tjDecompress2(tj, j, f.video[i].size,
					  (uint8_t *)pix, 320, 320 * 4, 240,
					  TJPF_BGRX, 0), "frame %u decode", i);
		ret = mmxplay_pattern_find(pix, 320, 240, 0, 0, 320, 240,
					   &frame);
		UNIT_CHECK(ret == 0 && frame == i, "frame %u reads %d/%u", i,
			   ret, frame);
	}
	tjDestroy(tj);
	free(pix);
	avi_free(&f);
	free(data);
	return 0;
}

static int test_media_mpeg(void)
{
	char path[256];
	uint8_t *data;
	size_t len;
	struct avi_file f;
	uint32_t i;
	int ret;

	ret = make("mpeg.avi", "mpeg", 3, path, sizeof(path));
	if (ret == -ENOENT) {
		printf("  (no libtwolame: %s)\n", err);
		return 0;
	}
	UNIT_CHECK(ret == 0, "%s", err);
	ret = avi_read_file(path, &data, &len, err, sizeof(err));
	UNIT_CHECK(ret == 0, "%s", err);
	ret = avi_parse(data, len, &f, err, sizeof(err));
	UNIT_CHECK(ret == 0, "%s", err);
	UNIT_CHECK(f.audio_codec == AVI_AUDIO_MPEG && f.audio_tag == 0x50 &&
		   f.rate == 24000 && f.channels == 1, "audio %d %#x %u %u",
		   f.audio_codec, f.audio_tag, f.rate, f.channels);
	/* 3 s at 24 kHz = 62.5 frames of 1152, plus the encoder's tail */
	UNIT_CHECK(f.naudio >= 62 && f.naudio <= 66, "%u MPEG frames",
		   f.naudio);
	for (i = 0; i < f.naudio; i++) {
		const uint8_t *a = data + f.audio[i].offset;

		/* 32 kbit/s at 24 kHz: 144 * 32000 / 24000 = 192 bytes */
		UNIT_CHECK(a[0] == 0xff && (a[1] & 0xe6) == 0xe4 &&
			   f.audio[i].size == 192, "frame %u: %02x %02x, %u bytes",
			   i, a[0], a[1], f.audio[i].size);
		UNIT_CHECK(f.audio[i].pts_ns == (int64_t)i * 1152 *
			   1000000000 / 24000, "frame %u pts %lld", i,
			   (long long)f.audio[i].pts_ns);
	}
	avi_free(&f);
	free(data);
	return 0;
}

/* Every truncation, with the RIFF size fixed up to fit, and corruptions. */
static int test_fuzz(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	struct avi_file f;
	uint8_t *copy;
	size_t n;
	unsigned int seed = 12345, i, ok = 0, refused = 0;
	int ret;

	s.frames = 6;
	build(&b, &s);
	copy = malloc(b.len);
	UNIT_CHECK(copy, "alloc");
	for (n = 0; n <= b.len; n++) {
		/* exactly n bytes: no slack past them for a stray read */
		uint8_t *t = malloc(n ? n : 1);

		memcpy(t, b.d, n);
		if (n >= 8)
			set32(&(struct buf){ .d = t }, 4, (uint32_t)n - 8);
		ret = avi_parse(t, n, &f, err, sizeof(err));
		UNIT_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOTSUP,
			   "truncated to %zu: %d", n, ret);
		UNIT_CHECK(ret || inside(&f, n), "truncated to %zu: outside", n);
		UNIT_CHECK(!ret || err[0], "truncated to %zu: no message", n);
		ok += !ret;
		refused += !!ret;
		avi_free(&f);
		free(t);
	}
	for (i = 0; i < 20000; i++) {
		unsigned int k, flips = 1 + rand_r(&seed) % 4;

		memcpy(copy, b.d, b.len);
		for (k = 0; k < flips; k++) {
			size_t at = rand_r(&seed) % b.len;

			/* half in the headers, half anywhere */
			if (i & 1)
				at %= 300;
			if (rand_r(&seed) & 1)
				copy[at] ^= 1u << (rand_r(&seed) % 8);
			else
				copy[at] = rand_r(&seed);
		}
		ret = avi_parse(copy, b.len, &f, err, sizeof(err));
		UNIT_CHECK(ret == 0 || ret == -EINVAL || ret == -ENOTSUP,
			   "variant %u: %d", i, ret);
		UNIT_CHECK(ret || inside(&f, b.len), "variant %u: outside", i);
		avi_free(&f);
	}
	printf("  %zu truncations: %u parsed, %u refused\n", b.len + 1, ok,
	       refused);
	free(copy);
	free(b.d);
	return 0;
}

static int test_plan(void)
{
	struct buf b = { 0 };
	struct spec s = base;
	struct mmxplay_item *it;
	struct avi_file f;
	size_t n, i;
	int ret;

	s.frames = 10;
	s.drop = true;
	build(&b, &s);
	ret = avi_parse(b.d, b.len, &f, err, sizeof(err));
	UNIT_CHECK(ret == 0, "%s", err);
	/* 40 ms audio chunks in groups of at least 100 ms: 3 chunks each */
	ret = mmxplay_plan(&f, true, 100000000, &it, &n);
	UNIT_CHECK(ret == 0, "plan %d", ret);
	/* 9 frames (one dropped) + groups 0-2, 3-5, 6-8, 9 */
	UNIT_CHECK(n == 9 + 4, "%zu items", n);
	for (i = 1; i < n; i++)
		UNIT_CHECK(it[i - 1].pts_ns < it[i].pts_ns ||
			   (it[i - 1].pts_ns == it[i].pts_ns &&
			    it[i - 1].kind <= it[i].kind), "order at %zu", i);
	UNIT_CHECK(it[0].kind == MMXPLAY_VIDEO && it[1].kind == MMXPLAY_AUDIO &&
		   it[1].count == 3 && it[1].bytes == 3 * 1280 &&
		   it[1].pts_ns == 0, "first items");
	for (i = 0; i < n; i++)
		UNIT_CHECK(!(it[i].kind == MMXPLAY_VIDEO && it[i].first == 2),
			   "the dropped frame is sent");
	free(it);
	ret = mmxplay_plan(&f, false, 100000000, &it, &n);
	UNIT_CHECK(ret == 0 && n == 9, "video only: %zu", n);
	free(it);
	avi_free(&f);
	free(b.d);
	return 0;
}

static int test_report(void)
{
	struct mmxplay_frame fr[10];
	struct mmxplay_report r = { 0 };
	int64_t v[] = { 5, 1, 4, 2, 3 };
	int i;

	UNIT_CHECK(mmxplay_percentile(v, 5, 50) == 3, "median");
	UNIT_CHECK(mmxplay_percentile(v, 5, 99) == 5, "p99");
	UNIT_CHECK(mmxplay_percentile(v, 5, 0) == 1, "p0");
	UNIT_CHECK(mmxplay_percentile(v, 0, 50) == 0, "empty");

	memset(fr, 0, sizeof(fr));
	for (i = 0; i < 10; i++) {
		fr[i].outcome = MMXPLAY_PRESENTED;
		fr[i].pts_ns = i * 100000000ll;
		/* offsets 1..7 ms, one at -150 ms (late) */
		fr[i].stream_ns = fr[i].pts_ns + (i + 1) * 1000000ll;
		fr[i].send_ns = 1000;
		fr[i].present_ns = 1000 + (i + 1) * 10000000ll;
	}
	fr[7].stream_ns = fr[7].pts_ns - 150000000;
	fr[8].outcome = MMXPLAY_EXPIRED;
	fr[9].outcome = MMXPLAY_UNSENT;
	UNIT_CHECK(mmxplay_report_frames(&r, fr, 10, 100000000) == 0, "report");
	UNIT_CHECK(r.sent == 9 && r.presented == 8 && r.on_time == 7 &&
		   r.late == 1 && r.expired == 1 && r.unsent == 1 &&
		   r.missing == 0, "counts %u %u %u %u %u %u", r.sent,
		   r.presented, r.on_time, r.late, r.expired, r.unsent);
	/* |offsets| 1 2 3 4 5 6 7 150 ms: median (nearest rank 4) 4 ms */
	UNIT_CHECK(r.off_median_ns == 4000000 && r.off_p99_ns == 150000000 &&
		   r.off_max_ns == 150000000, "offsets %lld %lld",
		   (long long)r.off_median_ns, (long long)r.off_p99_ns);
	UNIT_CHECK(r.lat_median_ns == 40000000, "latency %lld",
		   (long long)r.lat_median_ns);
	r.bytes_sent = 10200;
	r.payload_bytes = 10000;
	UNIT_CHECK(mmxplay_overhead_pct(&r) > 1.999 &&
		   mmxplay_overhead_pct(&r) < 2.001, "overhead");
	return 0;
}

/* The pattern read back from a larger capture at an offset. */
static int test_pattern(void)
{
	uint32_t cw = 400, ch = 300, w = 320, h = 240, x, y, frame;
	uint32_t *pix = calloc(cw * ch, 4);

	UNIT_CHECK(pix, "alloc");
	for (y = 0; y < h; y++)
		for (x = 0; x < w; x++)
			pix[(y + 30) * cw + x + 40] =
				test_media_pattern(1234, x, y, w, h);
	UNIT_CHECK(mmxplay_pattern_find(pix, cw, ch, 40, 30, w, h, &frame) ==
		   0 && frame == 1234, "frame %u", frame);
	UNIT_CHECK(mmxplay_pattern_find(pix, cw, ch, 41, 31, w, h, &frame) ==
		   0 && frame == 1234, "off by one");
	UNIT_CHECK(mmxplay_pattern_find(pix, cw, ch, 0, 0, w, h, &frame) ==
		   -ENOENT, "found where there is none");
	UNIT_CHECK(mmxplay_pattern_find(pix, cw, ch, 100, 100, w, h,
					&frame) == -EINVAL, "outside");
	free(pix);
	return 0;
}

/* @prog and the words of @line as a command line (in a static buffer) */
#define MAX_ARGS	32
static int split(const char *prog, const char *line, char *argv[MAX_ARGS])
{
	static char b[512];
	int argc = 0;
	char *t;

	snprintf(b, sizeof(b), "%s", line);
	argv[argc++] = (char *)prog;
	for (t = strtok(b, " "); t && argc < MAX_ARGS - 1; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return argc;
}

static int parse(const char *line, struct mmxplay_opts *o)
{
	char *argv[MAX_ARGS];
	int argc = split("mmxplay", line, argv);

	return mmxplay_parse_args(argc, argv, o, err, sizeof(err));
}

static int test_args(void)
{
	struct mmxplay_opts o;

	UNIT_CHECK(parse("a.avi", &o) == 0 && !strcmp(o.file, "a.avi") &&
		   o.ahead_ns == 500000000 && o.expire_ns == -1 &&
		   o.lead_ns == 0 && o.delay_ns == 300000000 &&
		   !o.display && !o.capture_checks, "defaults: %s", err);
	UNIT_CHECK(parse("--display tcp:127.0.0.1:6000 --output=VGA-1 --no-audio --ahead 250 --expire 0 --stats a.avi",
			 &o) == 0 && !strcmp(o.display, "tcp:127.0.0.1:6000") &&
		   !strcmp(o.output, "VGA-1") && o.no_audio &&
		   o.ahead_ns == 250000000 && o.expire_ns == 0 && o.stats,
		   "options: %s", err);
	UNIT_CHECK(parse("--clock audio a.avi", &o) == 0 &&
		   o.clock == MMXPLAY_CLOCK_AUDIO, "clock");
	UNIT_CHECK(parse("--lead-in 1000 --delay=50 a.avi", &o) == 0 &&
		   o.lead_ns == 1000000000 && o.delay_ns == 50000000,
		   "lead-in: %s", err);
	UNIT_CHECK(parse("--lead-in -5 a.avi", &o) == -EINVAL, "lead-in -5");
	UNIT_CHECK(parse("--display :0 a.avi", &o) == -EINVAL &&
		   strstr(err, "unix:PATH"), "bad display: %s", err);
	UNIT_CHECK(parse("--clock wall a.avi", &o) == -EINVAL, "bad clock");
	UNIT_CHECK(parse("--ahead 0 a.avi", &o) == -EINVAL, "ahead 0");
	UNIT_CHECK(parse("--ahead", &o) == -EINVAL &&
		   strstr(err, "needs a value"), "no value: %s", err);
	UNIT_CHECK(parse("a.avi b.avi", &o) == -EINVAL, "two files");
	UNIT_CHECK(parse("", &o) == -EINVAL && strstr(err, "no file"),
		   "no file");
	/* the test media is the tests' (mmx_test_media), not mmxplay's */
	UNIT_CHECK(parse("--make-test-media o.avi", &o) == -EINVAL &&
		   strstr(err, "unknown option '--make-test-media'"),
		   "make-test-media: %s", err);
	UNIT_CHECK(parse("--fps 25 a.avi", &o) == -EINVAL &&
		   strstr(err, "unknown option '--fps'"), "media option: %s",
		   err);
	UNIT_CHECK(parse("--no-audio --clock audio a.avi", &o) == -EINVAL,
		   "audio clock without audio");
	UNIT_CHECK(parse("--bogus a.avi", &o) == -EINVAL &&
		   strstr(err, "unknown option '--bogus'"), "unknown: %s", err);
	return 0;
}

static int parse_media(const char *line, struct test_media *m,
		       const char **file)
{
	char *argv[MAX_ARGS];
	int argc = split("mmx_test_media", line, argv);

	return test_media_parse(argc, argv, m, file, err, sizeof(err));
}

static int test_media_args(void)
{
	struct test_media m;
	const char *file;

	UNIT_CHECK(parse_media("o.avi", &m, &file) == 0 &&
		   !strcmp(file, "o.avi") && m.seconds == 5 &&
		   m.width == 320 && m.height == 240 && m.fps == 10 &&
		   m.quality == 55 && m.audio == TEST_MEDIA_AUDIO_PCM &&
		   m.rate == 8000 && m.channels == 1 && !m.corrupt_every,
		   "defaults: %s", err);
	UNIT_CHECK(parse_media("--seconds 60 o.avi --size 640x480 --fps=25 --audio mpeg",
			       &m, &file) == 0 && !strcmp(file, "o.avi") &&
		   m.seconds == 60 && m.width == 640 && m.height == 480 &&
		   m.fps == 25 && m.audio == TEST_MEDIA_AUDIO_MPEG &&
		   m.rate == 24000 && m.bitrate == 32, "mpeg: %s", err);
	UNIT_CHECK(parse_media("o.avi --seconds 0.5 --corrupt-every 5 --quality 90 --channels 2",
			       &m, &file) == 0 && m.seconds == 0.5 &&
		   m.corrupt_every == 5 && m.quality == 90 &&
		   m.channels == 2, "values: %s", err);
	UNIT_CHECK(parse_media("o.avi --audio=mpeg --rate 44100 --bitrate 128", &m,
			       &file) == 0 && m.rate == 44100 && m.bitrate == 128,
		   "mpeg rate: %s", err);
	UNIT_CHECK(parse_media("o.avi --audio mpeg --rate 8000", &m,
			       &file) == -EINVAL && strstr(err, "Layer II"),
		   "mpeg at 8 kHz: %s", err);
	UNIT_CHECK(parse_media("o.avi --fps 2.5", &m, &file) == -EINVAL &&
		   strstr(err, "--fps: '2.5'"), "fps 2.5: %s", err);
	UNIT_CHECK(parse_media("o.avi --seconds 0", &m, &file) == -EINVAL,
		   "seconds 0");
	UNIT_CHECK(parse_media("o.avi --size 8x8", &m, &file) == -EINVAL &&
		   strstr(err, "WxH"), "size 8x8: %s", err);
	UNIT_CHECK(parse_media("o.avi --size 320x240x", &m, &file) ==
		   -EINVAL, "size 320x240x");
	UNIT_CHECK(parse_media("o.avi --audio ac3", &m, &file) == -EINVAL,
		   "audio ac3");
	UNIT_CHECK(parse_media("o.avi --channels 3", &m, &file) == -EINVAL &&
		   strstr(err, "--channels"), "channels 3: %s", err);
	UNIT_CHECK(parse_media("o.avi --fps", &m, &file) == -EINVAL &&
		   strstr(err, "needs a value"), "no value: %s", err);
	UNIT_CHECK(parse_media("o.avi --display unix:/x", &m, &file) ==
		   -EINVAL && strstr(err, "unknown option '--display"),
		   "playback option: %s", err);
	UNIT_CHECK(parse_media("", &m, &file) == -EINVAL &&
		   strstr(err, "no output file"), "no file: %s", err);
	UNIT_CHECK(parse_media("a.avi b.avi", &m, &file) == -EINVAL,
		   "two files");
	return 0;
}

static const struct unit_case cases[] = {
	{ "index-kinds", "idx1 relative/absolute, none, rec lists, drops",
	  test_index_kinds },
	{ "index-broken", "a wrong idx1 entry: movi is scanned",
	  test_index_broken },
	{ "refused", "not AVI, truncated, bad sizes, codecs: clean errors",
	  test_refused },
	{ "other-audio", "an unplayable audio format: video only, a note",
	  test_other_audio },
	{ "media-pcm", "test media with PCM: times, sizes, frame numbers",
	  test_media_pcm },
	{ "media-mpeg", "test media with Layer II: one frame a chunk",
	  test_media_mpeg },
	{ "fuzz", "every truncation, 20000 corruptions: no read outside",
	  test_fuzz },
	{ "plan", "send order, audio groups, dropped frames", test_plan },
	{ "report", "percentiles, on time/late, overhead", test_report },
	{ "pattern", "the frame number read back from a capture",
	  test_pattern },
	{ "args", "mmxplay's command line", test_args },
	{ "media-args", "mmx_test_media's command line", test_media_args },
};

int main(int argc, char **argv)
{
	char cmd[64];
	int ret;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	ret = UNIT_RUN(cases, argc, argv);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		ret = 1;
	return ret;
}
