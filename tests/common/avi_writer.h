/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The tests' AVI writer: an MJPEG video stream ("00dc" chunks) and an
 * optional PCM or MPEG Layer II audio stream ("01wb"), interleaved in the
 * order written, an idx1 at the end. mmxplay only reads AVIs
 * (userspace/mmxplay/avi.h); the writer makes the test media
 * (test_media.h) that its tests play.
 */

#ifndef MMX_TEST_AVI_WRITER_H
#define MMX_TEST_AVI_WRITER_H

#include <stdint.h>

/*
 * struct avi_writer_config - the streams
 * @width: frame size
 * @height: see @width
 * @fps_num: frames per second, @fps_num / @fps_den
 * @fps_den: see @fps_num
 * @audio_tag: 0 (no audio), AVI_WAVE_PCM (S16LE) or AVI_WAVE_MPEG
 *	(Layer II, one frame a chunk, 1152 samples each)
 * @rate: audio samples per second
 * @channels: audio channels
 * @mpeg_bitrate: kbit/s (MPEG)
 */
struct avi_writer_config {
	uint32_t width;
	uint32_t height;
	uint32_t fps_num;
	uint32_t fps_den;
	uint32_t audio_tag;
	uint32_t rate;
	uint32_t channels;
	uint32_t mpeg_bitrate;
};

struct avi_writer;

/* Create @path and write its headers. 0 or -errno. */
int avi_writer_open(const char *path, const struct avi_writer_config *cfg,
		    struct avi_writer **out);
int avi_writer_video(struct avi_writer *w, const void *jpeg, uint32_t size);
/* PCM: @frames sample frames; MPEG: one Layer II frame (@frames 1152). */
int avi_writer_audio(struct avi_writer *w, const void *data, uint32_t size,
		     uint32_t frames);
/* Write the index, patch the headers, close. Frees @w in any case. */
int avi_writer_close(struct avi_writer *w);

#endif /* MMX_TEST_AVI_WRITER_H */
