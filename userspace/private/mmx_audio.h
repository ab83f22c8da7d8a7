/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Server-side audio for mmxd (the AUDIO idea): sample buffers that clients
 * upload once, and a PCM playback stream through ALSA (libasound) that
 * plays ranges of them at chosen stream positions, mixed, sample-exact.
 * A playing PCM is a clock: the frames it has played, mapped to
 * CLOCK_MONOTONIC by a least-squares fit of ALSA's (position, timestamp)
 * pairs, so video can be scheduled by audio position (mmx_clock.h).
 *
 * Nothing blocks and there are no threads: the caller polls the stream's
 * descriptors and calls mmx_audio_service() when they are ready (or at
 * least every period). The stream always runs once started: when nothing
 * is queued it plays silence, so its clock never stops short of an xrun.
 *
 * Stream positions are frames since the stream started, counting every
 * frame written (silence too); they never go back (an xrun loses time,
 * not frames). Samples are S16 little-endian (native), interleaved.
 */

#ifndef MMX_AUDIO_H
#define MMX_AUDIO_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include "mmx_clock.h"

struct mmx_error;	/* libmmx.h */

#define MMX_AUDIO_DEFAULT_RATE		48000
#define MMX_AUDIO_DEFAULT_CHANNELS	2
#define MMX_AUDIO_MAX_CHANNELS		8

/*
 * struct mmx_audio_config - how to open the stream (zero: defaults)
 * @device: ALSA PCM name; NULL: "default"
 * @rate: frames per second (exact: the device must take it); 0: 48000
 * @channels: 0: 2
 * @period_frames: wanted period (near); 0: 10 ms
 * @buffer_frames: wanted ring buffer (near); 0: 4 periods
 */
struct mmx_audio_config {
	const char *device;
	uint32_t rate;
	uint32_t channels;
	uint32_t period_frames;
	uint32_t buffer_frames;
};

/* Sample buffers: reference counted (a queued play holds one). */
struct mmx_audio_buffer;

/*
 * A zeroed buffer of @frames frames of @channels S16 samples at @rate.
 * Returns 0, -EINVAL or -ENOMEM.
 */
int mmx_audio_buffer_new(uint32_t rate, uint32_t channels, uint64_t frames,
			 struct mmx_audio_buffer **out);
/* Copy @frames frames into the buffer from frame @first: 0 or -EINVAL. */
int mmx_audio_buffer_write(struct mmx_audio_buffer *b, uint64_t first,
			   const int16_t *samples, uint64_t frames);
int16_t *mmx_audio_buffer_data(struct mmx_audio_buffer *b);
uint64_t mmx_audio_buffer_frames(const struct mmx_audio_buffer *b);
struct mmx_audio_buffer *mmx_audio_buffer_ref(struct mmx_audio_buffer *b);
void mmx_audio_buffer_unref(struct mmx_audio_buffer *b);

struct mmx_audio;

int mmx_audio_open(const struct mmx_audio_config *cfg, struct mmx_audio **out,
		   struct mmx_error *err);
/* Stop at once (dropping what is queued) and close. */
void mmx_audio_close(struct mmx_audio *a);

/*
 * struct mmx_audio_format - what the stream got
 */
struct mmx_audio_format {
	uint32_t rate;
	uint32_t channels;
	uint32_t period_frames;
	uint32_t buffer_frames;
};
void mmx_audio_get_format(const struct mmx_audio *a,
			  struct mmx_audio_format *f);

/* Play flags. */
#define MMX_AUDIO_PLAY_ASAP	(1u << 0)	/* at the first unwritten frame */

/*
 * Play @count frames of @b from frame @first at stream position @at (or,
 * with MMX_AUDIO_PLAY_ASAP, right after what is written already), mixed
 * with whatever else plays then. The buffer must have the stream's rate
 * and channels. Frames due before the first unwritten one are dropped and
 * counted as late. @id names it for mmx_audio_cancel() and its
 * completion. Returns 0, -EINVAL, -EEXIST (@id queued) or -ENOMEM.
 */
int mmx_audio_play(struct mmx_audio *a, uint64_t id,
		   struct mmx_audio_buffer *b, uint64_t first, uint64_t count,
		   int64_t at, uint32_t flags);
/*
 * Retract play @id: none of its frames is written after this returns
 * (those written already play). Returns 0 or -ENOENT.
 */
int mmx_audio_cancel(struct mmx_audio *a, uint64_t id);

/* The first stream position not written yet (what ASAP would take). */
int64_t mmx_audio_written(const struct mmx_audio *a);

/* Completion statuses. */
enum mmx_audio_status {
	MMX_AUDIO_PLAYED = 0,	/* every frame played (or was late) */
	MMX_AUDIO_CANCELLED,	/* retracted (part may have played) */
};

/*
 * struct mmx_audio_done - a finished play
 * @id: as given
 * @status: enum mmx_audio_status
 * @late_frames: frames dropped because they were due before being queued
 * @end: stream position after its last frame
 * @end_ns: CLOCK_MONOTONIC time that position was (or is estimated to be)
 *	played, 0 if unknown
 */
struct mmx_audio_done {
	uint64_t id;
	uint32_t status;
	uint32_t late_frames;
	int64_t end;
	int64_t end_ns;
};

/*
 * Without blocking: recover from an xrun, write as much as the device
 * takes (queued plays mixed, silence elsewhere), start the device once its
 * buffer is full, and sample the clock. Returns the frames written, or a
 * negative errno the stream did not recover from.
 */
int mmx_audio_service(struct mmx_audio *a);
/* Up to @n finished plays (played out or cancelled). Returns how many. */
int mmx_audio_collect(struct mmx_audio *a, struct mmx_audio_done *done,
		      unsigned int n);

/* Poll descriptors (snd_pcm_poll_descriptors): the count, then fill. */
int mmx_audio_poll_count(const struct mmx_audio *a);
int mmx_audio_poll_fill(const struct mmx_audio *a, struct pollfd *pfd,
			unsigned int n);
/* Whether @pfd (as filled, after poll) says the stream wants service. */
bool mmx_audio_poll_ready(const struct mmx_audio *a, struct pollfd *pfd,
			  unsigned int n);

/*
 * struct mmx_audio_position - where playback is
 * @played: stream position being played at @ns (frames written minus
 *	ALSA's delay)
 * @ns: CLOCK_MONOTONIC time of that position (ALSA's status timestamp)
 * @written: frames written
 * @delay: ALSA's delay (frames written but not heard yet)
 * @running: the device runs
 */
struct mmx_audio_position {
	int64_t played;
	int64_t ns;
	int64_t written;
	int64_t delay;
	bool running;
};
/* Read ALSA's status now (adding the pair to the clock fit). 0 or -errno. */
int mmx_audio_position(struct mmx_audio *a, struct mmx_audio_position *pos);

/*
 * The fitted mapping between stream positions and CLOCK_MONOTONIC ns.
 * -EAGAIN before the device ran long enough to have a pair.
 */
int mmx_audio_frame_to_ns(const struct mmx_audio *a, int64_t frame,
			  int64_t *ns);
int mmx_audio_ns_to_frame(const struct mmx_audio *a, int64_t ns,
			  double *frame);
/* The fit's ns per frame (nominal: 1e9 / rate) and worst residual, ns. */
double mmx_audio_ns_per_frame(const struct mmx_audio *a);
int64_t mmx_audio_fit_residual(const struct mmx_audio *a);

/*
 * The stream as a clock source: its time is the stream position played
 * at a CLOCK_MONOTONIC moment, in ns at the nominal rate (frames * 1e9 /
 * rate), from the fit; -EAGAIN until the device runs. Valid while @a is.
 */
void mmx_audio_clock_source(struct mmx_audio *a, struct mmx_clock_source *src);

/*
 * struct mmx_audio_stats - counters since open
 * @xruns: underruns recovered from
 * @frames_written: every frame written (the stream position)
 * @silence_frames: frames of those with no play in them
 * @late_frames: frames of plays dropped for being late
 * @fit_restarts: the clock fit started over (xruns, position jumps)
 */
struct mmx_audio_stats {
	uint64_t xruns;
	uint64_t frames_written;
	uint64_t silence_frames;
	uint64_t late_frames;
	uint64_t fit_restarts;
};
void mmx_audio_get_stats(const struct mmx_audio *a,
			 struct mmx_audio_stats *s);

#endif /* MMX_AUDIO_H */
