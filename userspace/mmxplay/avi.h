/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's AVI (RIFF) reader. The reader works on a file held
 * in memory and trusts nothing in it: every chunk size is checked against
 * its parent, every index entry against the chunk it points at, every
 * rate against zero. It finds the first MJPEG video stream and the first
 * PCM or MPEG audio stream and lists their chunks with presentation times:
 *
 * - video chunk n (dropped frames, of size 0, included) at
 *   (start + n) * scale / rate seconds (strh), else n * avih's
 *   microseconds per frame;
 * - PCM audio at the sample count of the bytes before it
 *   (bytes / block_align / samples_per_sec);
 * - MPEG audio: one chunk a frame (strh sample size 0, VBR as ffmpeg
 *   writes it): chunk n at n * scale / rate; else (CBR) at the bytes
 *   before it / the average byte rate.
 *
 * The chunk list comes from idx1 when it is there and every entry points
 * at a chunk of its stream with its size (offsets relative to the 'movi'
 * list or absolute: both exist), else from a scan of 'movi' (and its
 * 'rec ' lists). OpenDML (AVI 2.0 'AVIX' extensions, 'indx') is not read:
 * the first RIFF is played.
 */

#ifndef MMXPLAY_AVI_H
#define MMXPLAY_AVI_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define AVI_ERR_LEN		256
#define AVI_MAX_STREAMS		16
/* Larger files are refused (mmxplay reads the whole file). */
#define AVI_MAX_FILE		(1ull << 32)

/* WAVEFORMATEX.wFormatTag */
#define AVI_WAVE_PCM		0x0001
#define AVI_WAVE_MPEG		0x0050	/* MPEG-1 Layer I/II */
#define AVI_WAVE_MPEGLAYER3	0x0055
#define AVI_WAVE_EXTENSIBLE	0xfffe

enum avi_audio_codec {
	AVI_AUDIO_NONE = 0,
	AVI_AUDIO_PCM,		/* S16LE (8-bit PCM is refused) */
	AVI_AUDIO_MPEG,		/* MPEG-1/2 Layer I, II or III */
};

/*
 * struct avi_chunk - one chunk of a played stream
 * @offset: file offset of its data (after the 8-byte chunk header)
 * @size: bytes of data (0: a dropped video frame)
 * @pts_ns: presentation time from the start of the stream
 * @index: the chunk's number in its stream
 * @key: idx1's AVIIF_KEYFRAME (1 without idx1)
 */
struct avi_chunk {
	uint64_t offset;
	uint32_t size;
	uint32_t key;
	int64_t pts_ns;
	uint32_t index;
};

/*
 * struct avi_file - what mmxplay plays of an AVI
 * @width: video size (BITMAPINFOHEADER)
 * @height: see @width
 * @fps_num: frame rate, rate / scale of the video strh
 * @fps_den: see @fps_num
 * @frame_ns: nominal frame period, ns
 * @video_stream: stream number of the video (its chunk ids "NNdc")
 * @nvideo: entries in @video
 * @video: the video chunks in stream order
 * @audio_codec: enum avi_audio_codec (NONE: no playable audio)
 * @audio_stream: stream number of the audio ("NNwb"), -1 for none
 * @audio_tag: wFormatTag
 * @rate: audio samples per second
 * @channels: audio channels
 * @bits: bits per sample (PCM)
 * @block_align: bytes per PCM frame (all channels)
 * @avg_bytes: nAvgBytesPerSec
 * @naudio: entries in @audio
 * @audio: the audio chunks in stream order
 * @audio_bytes: sum of the audio chunks' sizes
 * @video_bytes: sum of the video chunks' sizes
 * @duration_ns: end of the last frame or audio chunk
 * @from_index: 1 when the chunks came from idx1, 0 from a scan of movi
 * @note: why idx1 was not used, or streams skipped ("" when nothing)
 */
struct avi_file {
	uint32_t width;
	uint32_t height;
	uint32_t fps_num;
	uint32_t fps_den;
	int64_t frame_ns;
	int video_stream;
	uint32_t nvideo;
	struct avi_chunk *video;

	int audio_codec;
	int audio_stream;
	uint32_t audio_tag;
	uint32_t rate;
	uint32_t channels;
	uint32_t bits;
	uint32_t block_align;
	uint32_t avg_bytes;
	uint32_t naudio;
	struct avi_chunk *audio;

	uint64_t audio_bytes;
	uint64_t video_bytes;
	int64_t duration_ns;
	int from_index;
	char note[AVI_ERR_LEN];
};

/*
 * Parse @len bytes of an AVI file. On success fill @out (free it with
 * avi_free()) and return 0; else return -EINVAL (not an AVI, or a chunk,
 * header or index that does not hold together: @err says what and at
 * which offset), -ENOTSUP (no MJPEG video stream, an audio format mmxplay
 * does not play) or -ENOMEM; @out is then empty.
 */
int avi_parse(const uint8_t *data, size_t len, struct avi_file *out,
	      char *err, size_t errlen);
void avi_free(struct avi_file *f);

/*
 * Read a whole file into a malloc'ed buffer. 0, -errno (-EFBIG past
 * AVI_MAX_FILE); @err says what.
 */
int avi_read_file(const char *path, uint8_t **data, size_t *len, char *err,
		  size_t errlen);

#endif /* MMXPLAY_AVI_H */
