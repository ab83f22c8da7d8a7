/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The test media of mmxplay's tests: an MJPEG AVI of a known picture (the
 * frame number in the band mmxplay's --capture-check reads, see
 * mmxplay_pattern_find() in userspace/mmxplay/mmxplay.h; a moving texture
 * below) with a tone as PCM or MPEG-1/2 Layer II audio, so that the tests
 * need no stored media. The host test links it; the guest tests run it as
 * the program mmx_test_media (tests/igt/mmx_test_media.c).
 */

#ifndef MMX_TEST_MEDIA_H
#define MMX_TEST_MEDIA_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* enum test_media_audio: --audio */
enum test_media_audio {
	TEST_MEDIA_AUDIO_NONE = 0,
	TEST_MEDIA_AUDIO_PCM,
	TEST_MEDIA_AUDIO_MPEG,
};

/*
 * struct test_media - what test_media_write() writes
 * @seconds: length
 * @width: frame size
 * @height: see @width
 * @fps: frames per second
 * @quality: JPEG quality 1..100
 * @audio: enum test_media_audio
 * @rate: audio samples per second
 * @channels: audio channels
 * @bitrate: MPEG kbit/s
 * @corrupt_every: 0, or make every Nth JPEG undecodable
 */
struct test_media {
	double seconds;
	uint32_t width;
	uint32_t height;
	uint32_t fps;
	uint32_t quality;
	int audio;
	uint32_t rate;
	uint32_t channels;
	uint32_t bitrate;
	uint32_t corrupt_every;
};

void test_media_usage(FILE *fp);
/*
 * Parse "mmx_test_media FILE.avi [OPTION]...". Returns 0 with @m and
 * @path set, 1 when --help was printed, or -EINVAL with @err set.
 */
int test_media_parse(int argc, char **argv, struct test_media *m,
		     const char **path, char *err, size_t errlen);

/*
 * Frame @frame's pixel (@x, @y) of the @w x @h test picture, XRGB8888:
 * the top band (mmxplay_band_rows() rows, w / 16 wide cells) shows the
 * frame number in cells 0..11 (white: bit set, LSB first) and the marker
 * MMXPLAY_MARKER in cells 12..15; below it, a moving texture.
 */
uint32_t test_media_pattern(uint32_t frame, uint32_t x, uint32_t y,
			    uint32_t w, uint32_t h);

/*
 * Write the test media to @path (removed again on failure). 0, or -errno
 * with @err set: -ENOENT when MPEG audio is asked for and libtwolame
 * cannot be loaded.
 */
int test_media_write(const char *path, const struct test_media *m,
		     char *err, size_t errlen);

#endif /* MMX_TEST_MEDIA_H */
