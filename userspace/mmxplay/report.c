// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's closing figures. The A/V offset of a presented frame is the
 * stream clock at its presentation minus its pts: with audio as the clock,
 * how far the audio being heard was from the frame's time when the frame
 * appeared. Figures are of its absolute value, in ms and in frame periods.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mmxplay.h"

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int64_t mmxplay_percentile(int64_t *v, size_t n, double p)
{
	size_t rank;

	if (!n)
		return 0;
	qsort(v, n, sizeof(*v), cmp_i64);
	/* nearest rank: the smallest value with p% of them at or below */
	rank = (size_t)ceil(p / 100.0 * (double)n);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return v[rank - 1];
}

/* A frame that was not presented, counted by its @outcome. */
static void count_outcome(struct mmxplay_report *r, int outcome)
{
	switch (outcome) {
	case MMXPLAY_EXPIRED:
		r->expired++;
		break;
	case MMXPLAY_FAILED:
	case MMXPLAY_RETRACTED:
		r->failed++;
		break;
	case MMXPLAY_DECODE_FAILED:
		r->decode_failed++;
		break;
	case MMXPLAY_UNSENT:
		r->unsent++;
		break;
	default:
		r->missing++;
		break;
	}
}

int mmxplay_report_frames(struct mmxplay_report *r,
			  const struct mmxplay_frame *frames, size_t n,
			  int64_t frame_ns)
{
	int64_t *off, *lat, sum = 0;
	size_t i, noff = 0, nlat = 0;

	off = calloc(n + 1, sizeof(*off));
	lat = calloc(n + 1, sizeof(*lat));
	if (!off || !lat) {
		free(off);
		free(lat);
		return -ENOMEM;
	}
	r->frames = (uint32_t)n;
	r->frame_ns = frame_ns;
	r->sent = r->presented = r->on_time = r->late = 0;
	r->expired = r->failed = r->decode_failed = 0;
	r->missing = r->unsent = 0;
	for (i = 0; i < n; i++) {
		const struct mmxplay_frame *f = &frames[i];
		int64_t d;

		if (f->outcome != MMXPLAY_UNSENT)
			r->sent++;
		if (f->outcome != MMXPLAY_PRESENTED) {
			count_outcome(r, f->outcome);
			continue;
		}
		r->presented++;
		d = f->stream_ns - f->pts_ns;
		sum += d;
		if (d < 0)
			d = -d;
		off[noff++] = d;
		if (d < frame_ns)
			r->on_time++;
		else
			r->late++;
		if (f->send_ns && f->present_ns)
			lat[nlat++] = f->present_ns - f->send_ns;
	}
	r->off_mean_ns = noff ? sum / (int64_t)noff : 0;
	r->off_median_ns = mmxplay_percentile(off, noff, 50);
	r->off_p99_ns = mmxplay_percentile(off, noff, 99);
	r->off_max_ns = mmxplay_percentile(off, noff, 100);
	r->lat_median_ns = mmxplay_percentile(lat, nlat, 50);
	r->lat_p99_ns = mmxplay_percentile(lat, nlat, 99);
	free(off);
	free(lat);
	return 0;
}

double mmxplay_overhead_pct(const struct mmxplay_report *r)
{
	if (!r->payload_bytes || r->bytes_sent < r->payload_bytes)
		return 0;
	return 100.0 * (double)(r->bytes_sent - r->payload_bytes) /
	       (double)r->payload_bytes;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double periods(const struct mmxplay_report *r, int64_t ns)
{
	return r->frame_ns ? (double)ns / (double)r->frame_ns : 0;
}

void mmxplay_report_print(FILE *fp, const struct mmxplay_report *r,
			  bool machine)
{
	double secs = r->media_ns > 0 ? (double)r->media_ns / 1e9 : 0;

	fprintf(fp,
		"frames: %u in the file, %u sent: %u presented (%u on time, %u late), %u expired, %u failed, %u decode failed, %u without an event\n",
		r->frames, r->sent, r->presented, r->on_time, r->late,
		r->expired, r->failed, r->decode_failed, r->missing);
	fprintf(fp, "audio: %u chunks sent, %u played, %u failed\n",
		r->audio_sent, r->audio_played, r->audio_failed);
	fprintf(fp,
		"A/V offset |stream time at presentation - pts| over %u frames: median %.2f ms (%.2f frames), p99 %.2f ms (%.2f frames), max %.2f ms (%.2f frames); mean signed %+.2f ms\n",
		r->presented, ms(r->off_median_ns),
		periods(r, r->off_median_ns), ms(r->off_p99_ns),
		periods(r, r->off_p99_ns), ms(r->off_max_ns),
		periods(r, r->off_max_ns), ms(r->off_mean_ns));
	fprintf(fp, "latency send -> presented: median %.2f ms, p99 %.2f ms\n",
		ms(r->lat_median_ns), ms(r->lat_p99_ns));
	fprintf(fp,
		"bytes: %" PRIu64 " sent, %" PRIu64 " payload, overhead %" PRIu64 " (%.3f%% of payload), %" PRIu64 " received, %" PRIu64 " messages\n",
		r->bytes_sent, r->payload_bytes,
		r->bytes_sent > r->payload_bytes ?
		r->bytes_sent - r->payload_bytes : 0,
		mmxplay_overhead_pct(r), r->bytes_received, r->messages);
	fprintf(fp,
		"bitrate: %.1f KB/s payload, %.1f KB/s sent over %.2f s of media (%.2f s played)\n",
		secs ? r->payload_bytes / 1000.0 / secs : 0,
		secs ? r->bytes_sent / 1000.0 / secs : 0, secs,
		(double)r->elapsed_ns / 1e9);
	fprintf(fp, "stalls: %u pauses of mmxplay over %.0f ms, the longest %.1f ms\n",
		r->stalls, ms(MMXPLAY_STALL_NS), ms(r->stall_max_ns));
	if (!machine)
		return;
	fprintf(fp,
		"mmxplay-stats: frames=%u sent=%u presented=%u on_time=%u late=%u expired=%u failed=%u decode_failed=%u missing=%u audio_sent=%u audio_played=%u audio_failed=%u frame_ms=%.3f off_median_ms=%.3f off_p99_ms=%.3f off_max_ms=%.3f off_mean_ms=%.3f off_median_frames=%.3f off_p99_frames=%.3f lat_median_ms=%.3f lat_p99_ms=%.3f bytes_sent=%" PRIu64 " payload=%" PRIu64 " received=%" PRIu64 " messages=%" PRIu64 " overhead_pct=%.4f payload_kBps=%.2f media_s=%.3f elapsed_s=%.3f stalls=%u stall_max_ms=%.1f\n",
		r->frames, r->sent, r->presented, r->on_time, r->late,
		r->expired, r->failed, r->decode_failed, r->missing,
		r->audio_sent, r->audio_played, r->audio_failed,
		ms(r->frame_ns), ms(r->off_median_ns), ms(r->off_p99_ns),
		ms(r->off_max_ns), ms(r->off_mean_ns),
		periods(r, r->off_median_ns), periods(r, r->off_p99_ns),
		ms(r->lat_median_ns), ms(r->lat_p99_ns), r->bytes_sent,
		r->payload_bytes, r->bytes_received, r->messages,
		mmxplay_overhead_pct(r),
		secs ? r->payload_bytes / 1000.0 / secs : 0, secs,
		(double)r->elapsed_ns / 1e9, r->stalls, ms(r->stall_max_ns));
}
