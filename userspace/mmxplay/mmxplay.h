/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay internals. Each part is testable on the host without mmxd:
 *
 *   avi.c     the AVI reader (avi.h, the layout in avi_riff.h)
 *   args.c    argv -> struct mmxplay_opts
 *   plan.c    an AVI -> the list of sends in stream-time order
 *   report.c  per-frame outcomes -> the closing figures
 *   pattern.c the test picture's frame number read from a capture
 *   play.c    the player: libmmx_media.h's stream over mmxd
 *
 * main.c runs them.
 */

#ifndef MMXPLAY_H
#define MMXPLAY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "avi.h"

#define MMXPLAY_VERSION		"0.1.0"
#define MMXPLAY_ERR_LEN		256

/* enum mmxplay_clock: --clock */
enum mmxplay_clock {
	MMXPLAY_CLOCK_DEFAULT = 0,	/* audio with audio, else monotonic */
	MMXPLAY_CLOCK_MONOTONIC,
	MMXPLAY_CLOCK_AUDIO,
};

/*
 * struct mmxplay_opts - the command line
 * @file: the AVI to play
 * @display: --display spec, NULL: libmmx's default (mmxd's socket)
 * @output: --output name, NULL: the first lit output
 * @no_audio: --no-audio
 * @clock: enum mmxplay_clock
 * @ahead_ns: --ahead: how far ahead of the stream clock data is sent
 * @expire_ns: --expire: a frame may be shown this late, then expires;
 *	-1: the default (two frame periods, at least 100 ms); 0: never
 * @delay_ns: --delay: stream time 0 is this long after the start
 * @lead_ns: --lead-in: the media starts at this stream time (0)
 * @stats: --stats: a machine-readable line with every figure
 * @verbose: --verbose: every event
 * @capture_checks: --capture-check N: capture the output N times while
 *	playing and find the test picture's frame number
 */
struct mmxplay_opts {
	const char *file;
	const char *display;
	const char *output;
	bool no_audio;
	int clock;
	int64_t ahead_ns;
	int64_t expire_ns;
	int64_t delay_ns;
	int64_t lead_ns;
	bool stats;
	bool verbose;
	uint32_t capture_checks;
};

/*
 * Parse the command line. Returns 0, 1 when --help or --version was
 * printed (exit 0), or -EINVAL with @err set (exit 2 after "Try
 * 'mmxplay --help'").
 */
int mmxplay_parse_args(int argc, char **argv, struct mmxplay_opts *o,
		       char *err, size_t errlen);
void mmxplay_usage(FILE *fp);

/* The plan: what to send, in stream-time order. */
enum mmxplay_item_kind {
	MMXPLAY_VIDEO = 1,
	MMXPLAY_AUDIO = 2,
};

/*
 * struct mmxplay_item - one send
 * @kind: enum mmxplay_item_kind
 * @first: the first chunk (index into the AVI's video or audio chunks)
 * @count: chunks (audio chunks adjacent in time are sent together)
 * @bytes: their data bytes
 * @pts_ns: stream time of the first
 */
struct mmxplay_item {
	int kind;
	uint32_t first;
	uint32_t count;
	uint32_t bytes;
	int64_t pts_ns;
};

/*
 * The sends for @f: every video chunk with data (dropped frames, of size
 * 0, are not sent), and with @audio the audio chunks grouped into sends of
 * at least @audio_group_ns (and at most MMXPLAY_MAX_SEND bytes), sorted by
 * pts (video first at equal pts). Returns 0 or -ENOMEM; free *@items.
 */
#define MMXPLAY_MAX_SEND	(1u << 20)
int mmxplay_plan(const struct avi_file *f, bool audio, int64_t audio_group_ns,
		 struct mmxplay_item **items, size_t *n);

/* The outcome of a frame as the report needs it. */
enum mmxplay_outcome {
	MMXPLAY_PENDING = 0,	/* sent, no event yet */
	MMXPLAY_UNSENT,		/* never sent (empty chunk, send error) */
	MMXPLAY_PRESENTED,
	MMXPLAY_EXPIRED,
	MMXPLAY_FAILED,		/* commit failed */
	MMXPLAY_DECODE_FAILED,
	MMXPLAY_RETRACTED,
};

/*
 * struct mmxplay_frame - one video frame's life
 * @outcome: enum mmxplay_outcome
 * @error: the event's error
 * @pts_ns: its pts
 * @send_ns: CLOCK_MONOTONIC when it was sent
 * @present_ns: CLOCK_MONOTONIC of the vblank that showed it
 * @stream_ns: stream clock at @present_ns
 */
struct mmxplay_frame {
	int outcome;
	int error;
	int64_t pts_ns;
	int64_t send_ns;
	int64_t present_ns;
	int64_t stream_ns;
};

/*
 * struct mmxplay_report - the closing figures
 * @frames: video frames in the file
 * @sent: frames sent
 * @presented: PRESENTED
 * @on_time: presented with |A/V offset| under one frame period
 * @late: presented with a larger offset
 * @expired: EXPIRED
 * @failed: FAILED
 * @decode_failed: DECODE_FAILED
 * @missing: sent but no event came
 * @unsent: not sent (dropped frames in the file, send errors)
 * @audio_sent: audio sends
 * @audio_played: their PRESENTED events
 * @audio_failed: other audio outcomes and missing audio events
 * @frame_ns: the video's frame period
 * @off_median_ns: median |stream_ns - pts| over the presented frames
 * @off_p99_ns: its 99th percentile (nearest rank)
 * @off_max_ns: its largest
 * @off_mean_ns: mean of the signed offset (stream_ns - pts)
 * @lat_median_ns: median present_ns - send_ns
 * @lat_p99_ns: its 99th percentile
 * @bytes_sent: bytes written for the stream (headers included)
 * @payload_bytes: JPEG and audio bytes among them
 * @bytes_received: replies and events read
 * @messages: requests sent
 * @elapsed_ns: from the first send to the last event
 * @media_ns: the file's duration
 * @stalls: times mmxplay's 1 ms sleeper woke more than
 *	MMXPLAY_STALL_NS late (the machine, e.g. an emulator, stopped)
 * @stall_max_ns: the longest such pause
 */
struct mmxplay_report {
	uint32_t frames;
	uint32_t sent;
	uint32_t presented;
	uint32_t on_time;
	uint32_t late;
	uint32_t expired;
	uint32_t failed;
	uint32_t decode_failed;
	uint32_t missing;
	uint32_t unsent;
	uint32_t audio_sent;
	uint32_t audio_played;
	uint32_t audio_failed;
	int64_t frame_ns;
	int64_t off_median_ns;
	int64_t off_p99_ns;
	int64_t off_max_ns;
	int64_t off_mean_ns;
	int64_t lat_median_ns;
	int64_t lat_p99_ns;
	uint64_t bytes_sent;
	uint64_t payload_bytes;
	uint64_t bytes_received;
	uint64_t messages;
	int64_t elapsed_ns;
	int64_t media_ns;
	uint32_t stalls;
	int64_t stall_max_ns;
};

#define MMXPLAY_STALL_NS	50000000ll

/* Nearest-rank percentile @p (0..100) of @n values (sorted in place). */
int64_t mmxplay_percentile(int64_t *v, size_t n, double p);
/*
 * Fill the frame counts and the offset and latency figures of @r from
 * @n frames of period @frame_ns. Returns 0 or -ENOMEM.
 */
int mmxplay_report_frames(struct mmxplay_report *r,
			  const struct mmxplay_frame *frames, size_t n,
			  int64_t frame_ns);
/* (bytes sent - payload) / payload, percent; 0 without payload. */
double mmxplay_overhead_pct(const struct mmxplay_report *r);
/* The summary lines; with @machine also one "mmxplay-stats: k=v ..." line. */
void mmxplay_report_print(FILE *fp, const struct mmxplay_report *r,
			  bool machine);

/*
 * The test picture (the tests' media, tests/common/test_media.h, shows it):
 * its top band, mmxplay_band_rows() rows, is divided into
 * MMXPLAY_BAND_CELLS cells of w / 16 pixels, black or white; cells 0..11
 * hold the frame number (white: bit set, LSB first), cells 12..15 the
 * marker 1011 (MMXPLAY_MARKER, bit i - 12 for cell i).
 */
#define MMXPLAY_BAND_CELLS	16
#define MMXPLAY_FRAME_BITS	12
#define MMXPLAY_MARKER		0xdu

/* Rows of the band of an @h-row picture: h / 8, at least 16 (at most h). */
static inline uint32_t mmxplay_band_rows(uint32_t h)
{
	uint32_t r = h / 8;

	if (r < 16)
		r = 16;
	return r > h ? h : r;
}

/* The marker's bit in cell @cell (MMXPLAY_FRAME_BITS..15). */
static inline bool mmxplay_marker_bit(uint32_t cell)
{
	return (MMXPLAY_MARKER >> (cell - MMXPLAY_FRAME_BITS)) & 1;
}

/*
 * Find the frame number in a capture: the picture's top left corner at
 * (@x0, @y0) of @pix (@cw x @ch pixels, XRGB8888, tight rows), @w x @h the
 * picture's size. Returns 0 with @frame set, -ENOENT when the band is not
 * there (no marker, or a cell neither black nor white), -EINVAL when the
 * picture does not fit.
 */
int mmxplay_pattern_find(const uint32_t *pix, uint32_t cw, uint32_t ch,
			 int32_t x0, int32_t y0, uint32_t w, uint32_t h,
			 uint32_t *frame);

/* Play @o->file; prints the report. Returns the exit status. */
int mmxplay_play(const struct mmxplay_opts *o);

/* CLOCK_MONOTONIC, ns */
int64_t mmxplay_now_ns(void);

#endif /* MMXPLAY_H */
