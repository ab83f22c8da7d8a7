// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Server-side sample buffers and ALSA playback (mmx_audio.h). Every
 * mmx_audio_service() mixes the plays that overlap the frames about to be
 * written into an int32 accumulator, saturates to S16 and writes it
 * non-blocking; the device starts by itself once its ring is full
 * (start_threshold). Each service and position query reads ALSA's status
 * with CLOCK_MONOTONIC timestamps (tstamp_mode ENABLE, tstamp_type
 * MONOTONIC): written minus delay is the position at the timestamp of the
 * latest hardware pointer update, and those pairs feed the clock fit.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <alsa/asoundlib.h>

#include "mmx_audio.h"
#include "mmx_error.h"

struct mmx_audio_buffer {
	unsigned int refs;
	uint32_t rate, channels;
	uint64_t frames;
	int16_t *data;
};

struct play {
	struct play *next;
	uint64_t id;
	struct mmx_audio_buffer *b;
	uint64_t first, count;	/* buffer frames still to play */
	int64_t at;		/* stream position of frame @first */
	uint32_t late;
};

struct mmx_audio {
	snd_pcm_t *pcm;
	snd_pcm_status_t *status;
	struct mmx_audio_format fmt;
	int64_t written;
	struct play *plays;
	struct mmx_audio_done *done;
	unsigned int ndone, done_cap;
	/* one chunk of mixing */
	unsigned int chunk;
	int32_t *mix;
	int16_t *out;
	unsigned char *covered;
	struct mmx_clock_fit fit;	/* x: stream position, y: ns */
	int64_t last_played;		/* latest position sampled */
	bool have_src;			/* src_last holds the clock's last */
	int64_t src_last;
	struct mmx_audio_stats stats;
};

/* ------------------------------------------------------------------ */
/* Sample buffers */

int mmx_audio_buffer_new(uint32_t rate, uint32_t channels, uint64_t frames,
			 struct mmx_audio_buffer **out)
{
	struct mmx_audio_buffer *b;
	size_t bytes;

	*out = NULL;
	if (!rate || !channels || channels > MMX_AUDIO_MAX_CHANNELS ||
	    !frames || frames > SIZE_MAX / 2 / channels)
		return -EINVAL;
	bytes = frames * channels * sizeof(int16_t);
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->data = calloc(1, bytes);
	if (!b->data) {
		free(b);
		return -ENOMEM;
	}
	b->refs = 1;
	b->rate = rate;
	b->channels = channels;
	b->frames = frames;
	*out = b;
	return 0;
}

int mmx_audio_buffer_write(struct mmx_audio_buffer *b, uint64_t first,
			   const int16_t *samples, uint64_t frames)
{
	if (first > b->frames || frames > b->frames - first)
		return -EINVAL;
	memcpy(b->data + first * b->channels, samples,
	       frames * b->channels * sizeof(int16_t));
	return 0;
}

int16_t *mmx_audio_buffer_data(struct mmx_audio_buffer *b)
{
	return b->data;
}

uint64_t mmx_audio_buffer_frames(const struct mmx_audio_buffer *b)
{
	return b->frames;
}

struct mmx_audio_buffer *mmx_audio_buffer_ref(struct mmx_audio_buffer *b)
{
	b->refs++;
	return b;
}

void mmx_audio_buffer_unref(struct mmx_audio_buffer *b)
{
	if (!b || --b->refs)
		return;
	free(b->data);
	free(b);
}

/* ------------------------------------------------------------------ */
/* The stream */

/* An ALSA call's failure as @err (what: the step), returned. */
#define TRY(call, what)							\
	do {								\
		r = (call);						\
		if (r < 0)						\
			return mmx_private_error(err, r,		\
						 "audio: %s: %s", what,	\
						 snd_strerror(r));	\
	} while (0)

/*
 * S16 interleaved, @ch channels at @rate; @period and @buffer: what is
 * asked, then what the device took.
 */
static int set_hw_params(struct mmx_audio *a, unsigned int rate,
			 unsigned int ch, snd_pcm_uframes_t *period,
			 snd_pcm_uframes_t *buffer, struct mmx_error *err)
{
	snd_pcm_hw_params_t *hw;
	int dir = 0, r;

	snd_pcm_hw_params_alloca(&hw);
	TRY(snd_pcm_hw_params_any(a->pcm, hw), "no configuration");
	TRY(snd_pcm_hw_params_set_access(a->pcm, hw,
					 SND_PCM_ACCESS_RW_INTERLEAVED),
	    "interleaved access");
	TRY(snd_pcm_hw_params_set_format(a->pcm, hw, SND_PCM_FORMAT_S16),
	    "format S16");
	TRY(snd_pcm_hw_params_set_channels(a->pcm, hw, ch), "channels");
	TRY(snd_pcm_hw_params_set_rate(a->pcm, hw, rate, 0), "rate");
	TRY(snd_pcm_hw_params_set_period_size_near(a->pcm, hw, period,
						   &dir), "period size");
	TRY(snd_pcm_hw_params_set_buffer_size_near(a->pcm, hw, buffer),
	    "buffer size");
	TRY(snd_pcm_hw_params(a->pcm, hw), "hw params");
	TRY(snd_pcm_hw_params_get_period_size(hw, period, &dir),
	    "period size");
	TRY(snd_pcm_hw_params_get_buffer_size(hw, buffer), "buffer size");
	return 0;
}

/* Start once the ring (@buffer) is full, wake a @period, monotonic times. */
static int set_sw_params(struct mmx_audio *a, snd_pcm_uframes_t period,
			 snd_pcm_uframes_t buffer, struct mmx_error *err)
{
	snd_pcm_sw_params_t *sw;
	int r;

	snd_pcm_sw_params_alloca(&sw);
	TRY(snd_pcm_sw_params_current(a->pcm, sw), "sw params");
	TRY(snd_pcm_sw_params_set_start_threshold(a->pcm, sw, buffer),
	    "start threshold");
	TRY(snd_pcm_sw_params_set_avail_min(a->pcm, sw, period),
	    "avail min");
	TRY(snd_pcm_sw_params_set_tstamp_mode(a->pcm, sw,
					      SND_PCM_TSTAMP_ENABLE),
	    "timestamps");
	TRY(snd_pcm_sw_params_set_tstamp_type(a->pcm, sw,
					      SND_PCM_TSTAMP_TYPE_MONOTONIC),
	    "monotonic timestamps");
	TRY(snd_pcm_sw_params(a->pcm, sw), "sw params");
	return 0;
}

#undef TRY

static int set_params(struct mmx_audio *a, const struct mmx_audio_config *c,
		      struct mmx_error *err)
{
	snd_pcm_uframes_t period, buffer;
	unsigned int rate = c->rate ? c->rate : MMX_AUDIO_DEFAULT_RATE;
	unsigned int ch = c->channels ? c->channels :
			  MMX_AUDIO_DEFAULT_CHANNELS;
	int r;

	if (ch > MMX_AUDIO_MAX_CHANNELS)
		return mmx_private_error(err, -EINVAL, "too many channels: %u",
					 ch);
	period = c->period_frames ? c->period_frames : rate / 100;
	buffer = c->buffer_frames ? c->buffer_frames : period * 4;
	r = set_hw_params(a, rate, ch, &period, &buffer, err);
	if (!r)
		r = set_sw_params(a, period, buffer, err);
	if (r)
		return r;
	a->fmt.rate = rate;
	a->fmt.channels = ch;
	a->fmt.period_frames = period;
	a->fmt.buffer_frames = buffer;
	return 0;
}

int mmx_audio_open(const struct mmx_audio_config *cfg, struct mmx_audio **out,
		   struct mmx_error *err)
{
	static const struct mmx_audio_config defaults;
	const char *dev;
	struct mmx_audio *a;
	size_t n;
	int r;

	*out = NULL;
	if (!cfg)
		cfg = &defaults;
	dev = cfg->device ? cfg->device : "default";
	a = calloc(1, sizeof(*a));
	if (!a)
		return mmx_private_error(err, -ENOMEM, "out of memory");
	r = snd_pcm_open(&a->pcm, dev, SND_PCM_STREAM_PLAYBACK,
			 SND_PCM_NONBLOCK);
	if (r < 0) {
		a->pcm = NULL;
		mmx_private_error(err, r, "audio: cannot open '%s': %s", dev,
				  snd_strerror(r));
		goto fail;
	}
	r = set_params(a, cfg, err);
	if (r)
		goto fail;
	r = snd_pcm_status_malloc(&a->status);
	if (r < 0) {
		mmx_private_error(err, -ENOMEM, "out of memory");
		goto fail;
	}
	a->chunk = a->fmt.period_frames;
	n = (size_t)a->chunk * a->fmt.channels;
	a->mix = malloc(n * sizeof(*a->mix));
	a->out = malloc(n * sizeof(*a->out));
	a->covered = malloc(a->chunk);
	if (!a->mix || !a->out || !a->covered) {
		r = mmx_private_error(err, -ENOMEM, "out of memory");
		goto fail;
	}
	mmx_clock_fit_init(&a->fit, 1e9 / a->fmt.rate);
	*out = a;
	return 0;
fail:
	mmx_audio_close(a);
	return r;
}

static void play_free(struct play *p)
{
	mmx_audio_buffer_unref(p->b);
	free(p);
}

void mmx_audio_close(struct mmx_audio *a)
{
	struct play *p;

	if (!a)
		return;
	if (a->pcm) {
		snd_pcm_drop(a->pcm);
		snd_pcm_close(a->pcm);
	}
	while ((p = a->plays)) {
		a->plays = p->next;
		play_free(p);
	}
	if (a->status)
		snd_pcm_status_free(a->status);
	free(a->done);
	free(a->mix);
	free(a->out);
	free(a->covered);
	free(a);
}

void mmx_audio_get_format(const struct mmx_audio *a,
			  struct mmx_audio_format *f)
{
	*f = a->fmt;
}

int64_t mmx_audio_written(const struct mmx_audio *a)
{
	return a->written;
}

/* ------------------------------------------------------------------ */
/* Plays */

static int add_done(struct mmx_audio *a, const struct play *p,
		    uint32_t status)
{
	struct mmx_audio_done *d;

	if (a->ndone == a->done_cap) {
		unsigned int cap = a->done_cap ? a->done_cap * 2 : 16;

		d = realloc(a->done, cap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		a->done = d;
		a->done_cap = cap;
	}
	d = &a->done[a->ndone++];
	d->id = p->id;
	d->status = status;
	d->late_frames = p->late;
	d->end = p->at + (int64_t)p->count;
	if (mmx_clock_fit_x_to_y(&a->fit, d->end, &d->end_ns))
		d->end_ns = 0;
	return 0;
}

int mmx_audio_play(struct mmx_audio *a, uint64_t id,
		   struct mmx_audio_buffer *b, uint64_t first, uint64_t count,
		   int64_t at, uint32_t flags)
{
	struct play *p;
	uint64_t late;

	if ((flags & ~MMX_AUDIO_PLAY_ASAP) || !b ||
	    b->rate != a->fmt.rate || b->channels != a->fmt.channels ||
	    first > b->frames || count > b->frames - first ||
	    count > INT64_MAX / 2)
		return -EINVAL;
	for (p = a->plays; p; p = p->next)
		if (p->id == id)
			return -EEXIST;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	if (flags & MMX_AUDIO_PLAY_ASAP)
		at = a->written;
	late = at < a->written ? (uint64_t)(a->written - at) : 0;
	if (late > count)
		late = count;
	p->id = id;
	p->b = mmx_audio_buffer_ref(b);
	p->first = first + late;
	p->count = count - late;
	p->at = at + (int64_t)late;
	p->late = late > UINT32_MAX ? UINT32_MAX : late;
	a->stats.late_frames += late;
	if (!p->count) {
		int r = add_done(a, p, MMX_AUDIO_PLAYED);

		play_free(p);
		return r;
	}
	p->next = a->plays;
	a->plays = p;
	return 0;
}

int mmx_audio_cancel(struct mmx_audio *a, uint64_t id)
{
	struct play **pp, *p;

	for (pp = &a->plays; (p = *pp); pp = &p->next) {
		if (p->id != id)
			continue;
		*pp = p->next;
		add_done(a, p, MMX_AUDIO_CANCELLED);
		play_free(p);
		return 0;
	}
	return -ENOENT;
}

/* Plays whose last frame has been played. */
static void retire(struct mmx_audio *a)
{
	struct play **pp = &a->plays, *p;

	while ((p = *pp)) {
		if (p->at + (int64_t)p->count > a->last_played) {
			pp = &p->next;
			continue;
		}
		if (add_done(a, p, MMX_AUDIO_PLAYED))
			return;	/* try again next time */
		*pp = p->next;
		play_free(p);
	}
}

int mmx_audio_collect(struct mmx_audio *a, struct mmx_audio_done *done,
		      unsigned int n)
{
	unsigned int k = n < a->ndone ? n : a->ndone;

	memcpy(done, a->done, k * sizeof(*done));
	memmove(a->done, a->done + k, (a->ndone - k) * sizeof(*done));
	a->ndone -= k;
	return k;
}

/*
 * Mix @n frames from the stream position a->written into a->out. Returns
 * how many of them no play covers.
 */
static unsigned int mix(struct mmx_audio *a, unsigned int n)
{
	unsigned int ch = a->fmt.channels, i, silent = 0;
	int64_t from = a->written, to = a->written + n;
	struct play *p;

	memset(a->mix, 0, (size_t)n * ch * sizeof(*a->mix));
	memset(a->covered, 0, n);
	for (p = a->plays; p; p = p->next) {
		int64_t s = p->at > from ? p->at : from;
		int64_t e = p->at + (int64_t)p->count;
		const int16_t *src;
		int32_t *dst;
		size_t k, len;

		if (e > to)
			e = to;
		if (s >= e)
			continue;
		src = p->b->data + (p->first + (uint64_t)(s - p->at)) * ch;
		dst = a->mix + (size_t)(s - from) * ch;
		len = (size_t)(e - s) * ch;
		for (k = 0; k < len; k++)
			dst[k] += src[k];
		memset(a->covered + (s - from), 1, e - s);
	}
	for (i = 0; i < n * ch; i++) {
		int32_t v = a->mix[i];

		a->out[i] = v > INT16_MAX ? INT16_MAX :
			    v < INT16_MIN ? INT16_MIN : v;
	}
	for (i = 0; i < n; i++)
		silent += !a->covered[i];
	return silent;
}

static int recover(struct mmx_audio *a, int r)
{
	if (r == -EPIPE) {
		a->stats.xruns++;
	} else if (r == -ESTRPIPE) {
		while ((r = snd_pcm_resume(a->pcm)) == -EAGAIN)
			;
		if (r == 0)
			return 0;
	} else {
		return r;
	}
	r = snd_pcm_prepare(a->pcm);
	if (r < 0)
		return r;
	/* the device lost time: a new line from the next pairs */
	mmx_clock_fit_reset(&a->fit);
	a->stats.fit_restarts++;
	return 0;
}

int mmx_audio_position(struct mmx_audio *a, struct mmx_audio_position *pos)
{
	snd_pcm_state_t st;
	snd_htimestamp_t ts;
	int r;

	r = snd_pcm_status(a->pcm, a->status);
	if (r < 0)
		return r;
	st = snd_pcm_status_get_state(a->status);
	snd_pcm_status_get_htstamp(a->status, &ts);
	memset(pos, 0, sizeof(*pos));
	pos->written = a->written;
	pos->delay = snd_pcm_status_get_delay(a->status);
	pos->played = a->written - pos->delay;
	pos->ns = (int64_t)ts.tv_sec * MMX_NSEC_PER_SEC + ts.tv_nsec;
	pos->running = st == SND_PCM_STATE_RUNNING;
	if (!pos->running) {
		/* nothing plays: the position is what the ring holds back */
		pos->ns = mmx_clock_monotonic_ns();
		return 0;
	}
	if (pos->played > a->last_played)
		a->last_played = pos->played;
	if (mmx_clock_fit_add(&a->fit, pos->played, pos->ns) > 0)
		a->stats.fit_restarts++;
	return 0;
}

int mmx_audio_service(struct mmx_audio *a)
{
	struct mmx_audio_position pos;
	snd_pcm_sframes_t avail, w;
	int total = 0, r, tries = 0;

	for (;;) {
		avail = snd_pcm_avail_update(a->pcm);
		if (avail >= 0)
			break;
		if (++tries > 2)
			return (int)avail;
		r = recover(a, (int)avail);
		if (r < 0)
			return r;
	}
	while (avail > 0) {
		unsigned int n = avail < a->chunk ? avail : a->chunk;
		unsigned int silent = mix(a, n);

		w = snd_pcm_writei(a->pcm, a->out, n);
		if (w == -EAGAIN)
			break;
		if (w < 0) {
			if (++tries > 2)
				return (int)w;
			r = recover(a, (int)w);
			if (r < 0)
				return r;
			avail = snd_pcm_avail_update(a->pcm);
			if (avail < 0)
				return (int)avail;
			continue;
		}
		/* frames not taken (if any) are mixed again next time */
		a->stats.silence_frames += (unsigned int)w < silent ? w : silent;
		a->written += w;
		a->stats.frames_written += w;
		total += w;
		avail -= w;
	}
	r = mmx_audio_position(a, &pos);
	if (r < 0)
		return r;
	retire(a);
	return total;
}

int mmx_audio_poll_count(const struct mmx_audio *a)
{
	return snd_pcm_poll_descriptors_count(a->pcm);
}

int mmx_audio_poll_fill(const struct mmx_audio *a, struct pollfd *pfd,
			unsigned int n)
{
	return snd_pcm_poll_descriptors(a->pcm, pfd, n);
}

bool mmx_audio_poll_ready(const struct mmx_audio *a, struct pollfd *pfd,
			  unsigned int n)
{
	unsigned short revents = 0;

	if (snd_pcm_poll_descriptors_revents(a->pcm, pfd, n, &revents) < 0)
		return true;	/* let service find out */
	return revents & (POLLOUT | POLLERR);
}

/* ------------------------------------------------------------------ */
/* The clock */

int mmx_audio_frame_to_ns(const struct mmx_audio *a, int64_t frame,
			  int64_t *ns)
{
	return mmx_clock_fit_x_to_y(&a->fit, frame, ns);
}

int mmx_audio_ns_to_frame(const struct mmx_audio *a, int64_t ns,
			  double *frame)
{
	return mmx_clock_fit_y_to_x(&a->fit, ns, frame);
}

double mmx_audio_ns_per_frame(const struct mmx_audio *a)
{
	return a->fit.n >= 2 ? a->fit.slope : a->fit.nominal;
}

int64_t mmx_audio_fit_residual(const struct mmx_audio *a)
{
	return mmx_clock_fit_residual(&a->fit);
}

static int audio_now(void *ctx, int64_t mono_ns, int64_t *src_ns)
{
	struct mmx_audio *a = ctx;
	struct mmx_audio_position pos;
	double frame;
	int64_t s;
	int r;

	r = mmx_audio_position(a, &pos);
	if (r < 0)
		return r;
	r = mmx_clock_fit_y_to_x(&a->fit, mono_ns, &frame);
	if (r)
		return r;
	s = llround(frame * 1e9 / a->fmt.rate);
	if (a->have_src && s < a->src_last)
		s = a->src_last;
	a->have_src = true;
	a->src_last = s;
	*src_ns = s;
	return 0;
}

static int audio_to_monotonic(void *ctx, int64_t src_ns, int64_t *mono_ns)
{
	struct mmx_audio *a = ctx;
	double frame = (double)src_ns * a->fmt.rate / 1e9;

	return mmx_clock_fit_x_to_y(&a->fit, (int64_t)ceil(frame), mono_ns);
}

void mmx_audio_clock_source(struct mmx_audio *a, struct mmx_clock_source *src)
{
	src->now = audio_now;
	src->to_monotonic = audio_to_monotonic;
	src->ctx = a;
}

void mmx_audio_get_stats(const struct mmx_audio *a,
			 struct mmx_audio_stats *s)
{
	*s = a->stats;
}
