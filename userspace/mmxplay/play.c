// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's player: one media stream (libmmx_media.h) on a remote display.
 * The plan's sends go out a window (--ahead) before the stream clock
 * reaches their pts; mmxd decodes the JPEGs, schedules them as timed
 * commits and plays the audio; each frame's event says when it was shown
 * and where the stream clock was then. Nothing here waits for a frame:
 * the loop sends what is due, then waits for events at most until the
 * next send is due.
 *
 * The stream time is estimated locally (CLOCK_MONOTONIC since the start
 * plus the delay) and corrected once a second from mmxd's clock
 * (mmx_stream_query_clock()), which with audio as the clock is the
 * position of the audio being heard.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "libmmx.h"
#include "libmmx_media.h"
#include "mmxplay.h"

/* Audio is sent in groups of at least this much (one message each). */
#define AUDIO_GROUP_NS		200000000ll
/* Events asked for at once. */
#define EVENT_BATCH		64
/* The longest wait for events in one round. */
#define MAX_WAIT_MS		50
/* How long events may take after the media's end. */
#define TAIL_NS			(5ll * 1000000000)
/* Clock corrections from mmxd, at most this often. */
#define CLOCK_QUERY_NS		1000000000ll

int64_t mmxplay_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/*
 * A thread sleeping 1 ms at a time notes when it wakes much later: the
 * machine stopped (an emulator's vCPU descheduled). Tests use it to tell a
 * stalled guest from a late player.
 */
struct stall_watch {
	pthread_t thread;
	atomic_bool run;
	atomic_uint count;
	_Atomic int64_t longest;
	bool started;
};

static void *stall_fn(void *arg)
{
	struct stall_watch *w = arg;
	struct timespec one_ms = { 0, 1000000 };
	int64_t last = mmxplay_now_ns(), now;

	while (atomic_load(&w->run)) {
		nanosleep(&one_ms, NULL);
		now = mmxplay_now_ns();
		if (now - last > MMXPLAY_STALL_NS) {
			atomic_fetch_add(&w->count, 1);
			if (now - last > atomic_load(&w->longest))
				atomic_store(&w->longest, now - last);
		}
		last = now;
	}
	return NULL;
}

static void stall_start(struct stall_watch *w)
{
	atomic_store(&w->run, true);
	w->started = !pthread_create(&w->thread, NULL, stall_fn, w);
}

static void stall_stop(struct stall_watch *w)
{
	if (!w->started)
		return;
	atomic_store(&w->run, false);
	pthread_join(w->thread, NULL);
	w->started = false;
}

struct player {
	const struct mmxplay_opts *o;
	struct avi_file avi;
	uint8_t *data;
	size_t len;
	struct mmxplay_item *items;
	size_t nitems;
	size_t next;			/* the next item to send */
	struct mmxplay_frame *frames;	/* one per video chunk */
	uint8_t *abuf;			/* an audio group's data */
	uint8_t *audio_outcome;		/* per audio send: 0 pending, 1 ok, 2 bad */
	bool audio;

	struct mmx_display *d;
	struct mmx_stream *s;
	uint32_t crtc;			/* for --capture-check */
	uint32_t crtc_w, crtc_h;

	bool started;
	int64_t t_zero;			/* local CLOCK_MONOTONIC of stream time 0 */
	int64_t corr;			/* mmxd's stream clock - the local estimate */
	int64_t last_query;
	int64_t expire;			/* ns after pts; INT64_MAX: never */
	int64_t lead;			/* stream time of the media's start */
	uint32_t pending_video;
	uint32_t pending_audio;
	uint32_t audio_sent;
	int64_t first_send;
	int64_t last_event;

	uint32_t captures_done;
	uint32_t capture_last;
	bool capture_failed;
	struct stall_watch stalls;
	struct mmxplay_report rep;
};

static void errmsg(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void errmsg(const char *fmt, ...)
{
	va_list ap;

	fputs("mmxplay: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int64_t stream_now(const struct player *p, int64_t now)
{
	if (!p->started)
		return 0;
	return now - p->t_zero + p->corr;
}

static const char *status_name(uint32_t st)
{
	switch (st) {
	case MMX_STREAM_PRESENTED: return "presented";
	case MMX_STREAM_EXPIRED: return "expired";
	case MMX_STREAM_RETRACTED: return "retracted";
	case MMX_STREAM_REPLACED: return "replaced";
	case MMX_STREAM_FAILED: return "failed";
	case MMX_STREAM_DECODE_FAILED: return "decode failed";
	}
	return "unknown";
}

/* The event of video frame e->id: its outcome recorded once. */
static void frame_event(struct player *p, const struct mmx_stream_event *e)
{
	struct mmxplay_frame *f;

	if (!e->id || e->id > p->avi.nvideo)
		return;
	f = &p->frames[e->id - 1];
	if (f->outcome != MMXPLAY_PENDING)
		return;
	switch (e->status) {
	case MMX_STREAM_PRESENTED:
		f->outcome = MMXPLAY_PRESENTED;
		f->present_ns = e->present_ns;
		f->stream_ns = e->stream_ns_at_present;
		break;
	case MMX_STREAM_EXPIRED:
		f->outcome = MMXPLAY_EXPIRED;
		break;
	case MMX_STREAM_DECODE_FAILED:
		f->outcome = MMXPLAY_DECODE_FAILED;
		break;
	case MMX_STREAM_REPLACED:
		return;		/* we never replace: ignore */
	case MMX_STREAM_RETRACTED:
		f->outcome = MMXPLAY_RETRACTED;
		break;
	default:
		f->outcome = MMXPLAY_FAILED;
		break;
	}
	f->error = e->error;
	if (p->pending_video)
		p->pending_video--;
	if (f->outcome == MMXPLAY_DECODE_FAILED ||
	    f->outcome == MMXPLAY_FAILED)
		errmsg("frame %" PRIu64 ": %s (%s)", e->id - 1,
		       status_name(e->status),
		       strerror(e->error ? -e->error : EIO));
}

/* The event of audio chunk e->id: played or not, recorded once. */
static void audio_event(struct player *p, const struct mmx_stream_event *e)
{
	if (!e->id || e->id > p->audio_sent || p->audio_outcome[e->id - 1])
		return;
	p->audio_outcome[e->id - 1] =
		e->status == MMX_STREAM_PRESENTED ? 1 : 2;
	if (e->status == MMX_STREAM_PRESENTED)
		p->rep.audio_played++;
	else
		errmsg("audio chunk %" PRIu64 ": %s (%s)", e->id,
		       status_name(e->status),
		       strerror(e->error ? -e->error : EIO));
	if (p->pending_audio)
		p->pending_audio--;
}

static void handle_event(struct player *p, const struct mmx_stream_event *e)
{
	p->last_event = mmxplay_now_ns();
	if (p->o->verbose)
		printf("event: %s %" PRIu64 " %s%s%s pts %.3f ms present %.3f ms stream %.3f ms seq %" PRIu64 "\n",
		       e->kind == MMX_STREAM_VIDEO ? "frame" : "audio",
		       e->id, status_name(e->status),
		       e->error ? ": " : "",
		       e->error ? strerror(-e->error) : "",
		       e->pts_ns / 1e6, e->present_ns / 1e6,
		       e->stream_ns_at_present / 1e6, e->sequence);
	if (e->kind == MMX_STREAM_VIDEO)
		frame_event(p, e);
	else if (e->kind == MMX_STREAM_AUDIO)
		audio_event(p, e);
}

static int poll_events(struct player *p, int timeout_ms)
{
	struct mmx_stream_event ev[EVENT_BATCH];
	int n, i;

	n = mmx_stream_events(p->s, ev, EVENT_BATCH, timeout_ms);
	if (n < 0) {
		errmsg("reading events: %s", strerror(-n));
		return n;
	}
	for (i = 0; i < n; i++)
		handle_event(p, &ev[i]);
	return n;
}

/* Send item @it. 0, -EAGAIN (come back after events) or -errno. */
static int send_item(struct player *p, const struct mmxplay_item *it)
{
	int64_t now = mmxplay_now_ns(), expire;
	int ret;

	if (it->kind == MMXPLAY_VIDEO) {
		const struct avi_chunk *c = &p->avi.video[it->first];
		struct mmxplay_frame *f = &p->frames[it->first];

		if (p->pending_video >= MMX_STREAM_DEFAULT_FRAMES)
			return -EAGAIN;
		expire = p->expire == INT64_MAX ? INT64_MAX :
			it->pts_ns + p->expire;
		ret = mmx_stream_video(p->s, it->first + 1, it->pts_ns, expire,
				       p->data + c->offset, c->size);
		if (ret == -EAGAIN)
			return ret;
		if (ret) {
			errmsg("frame %u: sending: %s", it->first,
			       strerror(-ret));
			return ret;
		}
		f->outcome = MMXPLAY_PENDING;
		f->send_ns = now;
		p->pending_video++;
	} else {
		uint32_t i, off = 0;

		for (i = 0; i < it->count; i++) {
			const struct avi_chunk *c =
				&p->avi.audio[it->first + i];

			memcpy(p->abuf + off, p->data + c->offset, c->size);
			off += c->size;
		}
		ret = mmx_stream_audio(p->s, it->pts_ns, p->abuf, off);
		if (ret == -EAGAIN)
			return ret;
		if (ret) {
			errmsg("audio at %.3f s: sending: %s", it->pts_ns / 1e9,
			       strerror(-ret));
			return ret;
		}
		p->audio_sent++;
		p->pending_audio++;
	}
	if (!p->first_send)
		p->first_send = now;
	return 0;
}

/* Where the stream's video is: the output's CRTC (for captures). */
static int find_output(struct player *p, uint32_t *output)
{
	struct mmx_state *st;
	const struct mmx_output_info *out = NULL;
	const struct mmx_crtc_info *crtc;
	uint32_t i;
	int ret;

	*output = 0;
	ret = mmx_get_screen_resources_current(p->d, &st);
	if (ret) {
		errmsg("reading the screen: %s", strerror(-ret));
		return ret;
	}
	if (p->o->output) {
		out = mmx_state_output_by_name(st, p->o->output);
		if (!out) {
			errmsg("no output '%s'", p->o->output);
			mmx_state_free(st);
			return -ENOENT;
		}
		*output = out->id;
	} else {
		for (i = 0; i < mmx_state_noutputs(st); i++)
			if (mmx_state_output_at(st, i)->crtc) {
				out = mmx_state_output_at(st, i);
				break;
			}
	}
	if (out && out->crtc) {
		crtc = mmx_state_crtc(st, out->crtc);
		if (crtc && crtc->mode_valid) {
			p->crtc = crtc->id;
			p->crtc_w = crtc->mode.width;
			p->crtc_h = crtc->mode.height;
		}
	}
	if (p->o->output && !p->crtc) {
		errmsg("output '%s' is off", p->o->output);
		mmx_state_free(st);
		return -ENODEV;
	}
	mmx_state_free(st);
	return 0;
}

/*
 * Capture the CRTC and read the frame number of the test pattern in the
 * middle (where mmxd centres the video). The frame numbers must be found
 * in every capture, never go back, and be within a second of the frame
 * due at the stream time of the capture.
 */
static void capture_check(struct player *p)
{
	int64_t before = stream_now(p, mmxplay_now_ns()), after;
	uint32_t w, h, *pix = NULL, frame;
	int64_t due, tol = 1000000000ll;
	int32_t x0, y0;
	int ret;

	p->captures_done++;
	ret = mmx_capture(p->d, p->crtc, &w, &h, &pix);
	after = stream_now(p, mmxplay_now_ns());
	if (ret) {
		errmsg("capture %u: %s", p->captures_done, strerror(-ret));
		p->capture_failed = true;
		return;
	}
	x0 = ((int32_t)w - (int32_t)p->avi.width) / 2;
	y0 = ((int32_t)h - (int32_t)p->avi.height) / 2;
	ret = mmxplay_pattern_find(pix, w, h, x0, y0, p->avi.width,
				   p->avi.height, &frame);
	free(pix);
	if (ret) {
		errmsg("capture %u (%ux%u): no test pattern at %d,%d (%s)",
		       p->captures_done, w, h, x0, y0,
		       ret == -ENOENT ? "not shown" : "does not fit");
		p->capture_failed = true;
		return;
	}
	due = ((before + after) / 2 - p->lead) / p->avi.frame_ns;
	printf("capture %u: frame %u shown at stream time %.3f s (frame %" PRId64 " due)\n",
	       p->captures_done, frame, (before + after) / 2e9, due);
	if (p->captures_done > 1 && frame < p->capture_last) {
		errmsg("capture %u: frame %u after frame %u", p->captures_done,
		       frame, p->capture_last);
		p->capture_failed = true;
	}
	if ((int64_t)frame * p->avi.frame_ns + p->lead < before - tol ||
	    (int64_t)frame * p->avi.frame_ns + p->lead > after + tol) {
		errmsg("capture %u: frame %u is not near the stream time %.3f-%.3f s",
		       p->captures_done, frame, before / 1e9, after / 1e9);
		p->capture_failed = true;
	}
	p->capture_last = frame;
}

static int open_stream(struct player *p)
{
	struct mmx_stream_config cfg;
	uint32_t output;
	int ret;

	ret = mmx_open(p->o->display, &p->d);
	if (ret) {
		errmsg("cannot open the display %s: %s",
		       p->o->display ? p->o->display : "(mmxd's socket)",
		       strerror(-ret));
		return ret;
	}
	if (!mmx_is_remote(p->d)) {
		errmsg("no mmxd answers%s%s: mmxplay plays through mmxd",
		       p->o->display ? " at " : "",
		       p->o->display ? p->o->display : "");
		return -EOPNOTSUPP;
	}
	ret = find_output(p, &output);
	if (ret)
		return ret;
	memset(&cfg, 0, sizeof(cfg));
	cfg.output = output;
	cfg.width = p->avi.width;
	cfg.height = p->avi.height;
	cfg.x = -1;
	cfg.y = -1;
	if (p->audio) {
		cfg.audio_format = p->avi.audio_codec == AVI_AUDIO_PCM ?
			MMX_AUDIO_S16LE : MMX_AUDIO_MPEG;
		cfg.audio_rate = p->avi.rate;
		cfg.audio_channels = p->avi.channels;
	}
	cfg.clock = p->o->clock == MMXPLAY_CLOCK_AUDIO ?
		MMX_STREAM_CLOCK_AUDIO :
		p->o->clock == MMXPLAY_CLOCK_MONOTONIC ?
		MMX_STREAM_CLOCK_MONOTONIC : MMX_STREAM_CLOCK_DEFAULT;
	ret = mmx_stream_open(p->d, &cfg, &p->s);
	if (ret) {
		const char *why = "";

		if (ret == -EOPNOTSUPP)
			why = " (the server has no media streams, or cannot decode this audio)";
		else if (ret == -ENODEV)
			why = " (the output is off or has no plane for video)";
		else if (ret == -ENOSPC)
			why = " (no room in mmxd, or the audio device refused)";
		errmsg("opening the stream (%ux%u%s): %s%s", cfg.width,
		       cfg.height, p->audio ? ", audio" : "", strerror(-ret),
		       why);
		return ret;
	}
	return 0;
}

/* Every CLOCK_QUERY_NS, the server's stream clock corrects @est. */
static int sync_clock(struct player *p, int64_t now, int64_t *est)
{
	struct mmx_stream_clock c;
	int ret;

	if (!p->started || now - p->last_query < CLOCK_QUERY_NS)
		return 0;
	ret = mmx_stream_query_clock(p->s, &c);
	if (!ret && c.running) {
		int64_t t = mmxplay_now_ns();

		/* the reply's time: half way */
		p->corr = c.stream_ns - ((now + t) / 2 - p->t_zero);
		*est = stream_now(p, t);
	} else if (ret && ret != -EAGAIN) {
		errmsg("querying the stream clock: %s", strerror(-ret));
		return ret;
	}
	p->last_query = now;
	return 0;
}

/* Whether the next --capture-check is due at @est; its time in @cap_at. */
static bool capture_due(struct player *p, int64_t est, int64_t *cap_at)
{
	const struct mmxplay_opts *o = p->o;

	if (!p->started || !o->capture_checks || !p->crtc ||
	    p->captures_done >= o->capture_checks)
		return false;
	*cap_at = p->lead + p->avi.duration_ns *
		  (int64_t)(p->captures_done + 1) / (o->capture_checks + 1);
	return est >= *cap_at;
}

/* Send the items due before @est + --ahead; @blocked when mmxd is full. */
static int send_due(struct player *p, int64_t est, bool *blocked)
{
	int ret;

	*blocked = false;
	while (p->next < p->nitems &&
	       p->items[p->next].pts_ns <= est + p->o->ahead_ns) {
		ret = send_item(p, &p->items[p->next]);
		if (ret == -EAGAIN) {
			*blocked = true;
			return 0;
		}
		if (ret)
			return ret;
		p->next++;
	}
	return 0;
}

/* Start the stream clock; @deadline: when its last event is overdue. */
static int start_stream(struct player *p, int64_t *deadline)
{
	int64_t now;
	int ret;

	ret = mmx_stream_start(p->s, p->o->delay_ns);
	if (ret) {
		errmsg("starting the stream: %s", strerror(-ret));
		return ret;
	}
	now = mmxplay_now_ns();
	p->started = true;
	p->t_zero = now + p->o->delay_ns;
	p->last_query = now;
	*deadline = p->t_zero + p->lead + p->avi.duration_ns + TAIL_NS;
	return 0;
}

/* How long to wait for events: until the next item or capture is due. */
static int wait_ms(const struct player *p, bool blocked, int64_t est,
		   int64_t cap_at)
{
	const struct mmxplay_opts *o = p->o;
	int timeout = MAX_WAIT_MS;

	if (blocked) {
		timeout = 10;
	} else if (p->next < p->nitems) {
		int64_t due = p->items[p->next].pts_ns - o->ahead_ns - est;

		if (due < (int64_t)timeout * 1000000)
			timeout = due > 0 ? (int)(due / 1000000) : 0;
	}
	if (o->capture_checks && p->captures_done < o->capture_checks &&
	    cap_at - est < (int64_t)timeout * 1000000)
		timeout = cap_at > est ? (int)((cap_at - est) / 1000000) : 0;
	return timeout;
}

static int run(struct player *p)
{
	int64_t deadline = 0, now, est, cap_at = 0;
	bool blocked;
	int ret;

	for (;;) {
		now = mmxplay_now_ns();
		est = stream_now(p, now);
		ret = sync_clock(p, now, &est);
		if (ret)
			return ret;
		if (capture_due(p, est, &cap_at)) {
			capture_check(p);
			continue;
		}
		ret = send_due(p, est, &blocked);
		if (ret)
			return ret;
		if (!p->started) {
			ret = start_stream(p, &deadline);
			if (ret)
				return ret;
			continue;
		}
		if (p->next == p->nitems && !p->pending_video &&
		    !p->pending_audio)
			break;
		if (now > deadline) {
			errmsg("%u frames and %u audio chunks without an event %.1f s after the end",
			       p->pending_video, p->pending_audio,
			       TAIL_NS / 1e9);
			break;
		}
		ret = poll_events(p, wait_ms(p, blocked, est, cap_at));
		if (ret < 0)
			return ret;
	}
	return 0;
}

static void print_file(const struct player *p)
{
	const struct avi_file *f = &p->avi;

	printf("%s: %ux%u MJPEG at %.3f fps, %u frames, ", p->o->file,
	       f->width, f->height, (double)f->fps_num / f->fps_den,
	       f->nvideo);
	if (f->audio_codec == AVI_AUDIO_PCM)
		printf("PCM %u Hz %u ch", f->rate, f->channels);
	else if (f->audio_codec == AVI_AUDIO_MPEG)
		printf("MPEG audio (0x%04x) %u Hz %u ch", f->audio_tag,
		       f->rate, f->channels);
	else
		printf("no audio");
	printf("%s, %.2f s, %s\n", p->audio ? "" : " (not played)",
	       f->duration_ns / 1e9, f->from_index ? "idx1" : "movi scanned");
	if (f->note[0])
		printf("note: %s\n", f->note);
	if (p->lead)
		printf("lead-in: the media starts at stream time %.3f s\n",
		       p->lead / 1e9);
}

/* Read and parse the file, print what it holds; 0 or -1 (said why). */
static int load_file(struct player *p)
{
	const struct mmxplay_opts *o = p->o;
	char err[AVI_ERR_LEN];

	if (avi_read_file(o->file, &p->data, &p->len, err, sizeof(err))) {
		errmsg("%s", err);
		return -1;
	}
	if (avi_parse(p->data, p->len, &p->avi, err, sizeof(err))) {
		errmsg("%s: %s", o->file, err);
		return -1;
	}
	p->audio = !o->no_audio && p->avi.audio_codec != AVI_AUDIO_NONE;
	if (o->clock == MMXPLAY_CLOCK_AUDIO && !p->audio) {
		errmsg("%s: --clock audio, but the file has no audio mmxplay plays",
		       o->file);
		return -1;
	}
	/* the media may start later than stream time 0, over silence */
	p->lead = o->lead_ns;
	print_file(p);
	return 0;
}

/* The items to send, at their stream times, and the frames' records. */
static int prepare(struct player *p)
{
	const struct mmxplay_opts *o = p->o;
	uint32_t i, max_group = 0;

	if (mmxplay_plan(&p->avi, p->audio, AUDIO_GROUP_NS, &p->items,
			 &p->nitems))
		return -ENOMEM;
	for (i = 0; i < p->nitems; i++)
		if (p->items[i].kind == MMXPLAY_AUDIO &&
		    p->items[i].bytes > max_group)
			max_group = p->items[i].bytes;
	p->frames = calloc(p->avi.nvideo, sizeof(*p->frames));
	p->abuf = malloc(max_group + 1);
	p->audio_outcome = calloc(p->nitems + 1, 1);
	if (!p->frames || !p->abuf || !p->audio_outcome)
		return -ENOMEM;
	for (i = 0; i < p->avi.nvideo; i++) {
		p->frames[i].outcome = MMXPLAY_UNSENT;
		p->frames[i].pts_ns = p->avi.video[i].pts_ns + p->lead;
	}
	for (i = 0; i < p->nitems; i++)
		p->items[i].pts_ns += p->lead;
	if (o->expire_ns == 0)
		p->expire = INT64_MAX;
	else if (o->expire_ns > 0)
		p->expire = o->expire_ns;
	else
		p->expire = 2 * p->avi.frame_ns > 100000000 ?
			2 * p->avi.frame_ns : 100000000;
	return 0;
}

/* The figures of the run, printed; -ENOMEM. */
static int report(struct player *p)
{
	const struct mmxplay_opts *o = p->o;
	struct mmx_stream_stats st;
	uint32_t i;

	p->rep.stalls = atomic_load(&p->stalls.count);
	p->rep.stall_max_ns = atomic_load(&p->stalls.longest);
	p->rep.audio_sent = p->audio_sent;
	for (i = 0; i < p->audio_sent; i++)
		if (p->audio_outcome[i] != 1)
			p->rep.audio_failed++;
	if (mmxplay_report_frames(&p->rep, p->frames, p->avi.nvideo,
				  p->avi.frame_ns))
		return -ENOMEM;
	mmx_stream_stats(p->s, &st);
	p->rep.bytes_sent = st.bytes_sent;
	p->rep.payload_bytes = st.payload_bytes;
	p->rep.bytes_received = st.bytes_received;
	p->rep.messages = st.messages;
	p->rep.media_ns = p->avi.duration_ns;
	p->rep.elapsed_ns = p->last_event > p->first_send ?
		p->last_event - p->first_send : 0;
	mmxplay_report_print(stdout, &p->rep, o->stats);
	if (o->capture_checks)
		printf("captures: %u of %u checked%s\n", p->captures_done,
		       o->capture_checks, p->capture_failed ? ", FAILED" : "");
	fflush(stdout);
	return 0;
}

/* Whether the run went well: exit status 0. */
static bool played_well(const struct player *p)
{
	return !p->rep.failed && !p->rep.decode_failed && !p->rep.missing &&
	       !p->rep.audio_failed && !p->capture_failed &&
	       p->captures_done == p->o->capture_checks;
}

static void player_free(struct player *p)
{
	mmx_stream_close(p->s);
	if (p->d)
		mmx_close(p->d);
	free(p->audio_outcome);
	free(p->abuf);
	free(p->frames);
	free(p->items);
	avi_free(&p->avi);
	free(p->data);
	free(p);
}

/* Load, stream and report: the exit status. */
static int play(struct player *p)
{
	int ret;

	if (load_file(p))
		return 1;
	if (prepare(p)) {
		errmsg("out of memory");
		return 1;
	}
	if (open_stream(p))
		return 1;
	if (p->o->capture_checks && !p->crtc) {
		errmsg("--capture-check: no lit output found");
		return 1;
	}
	stall_start(&p->stalls);
	ret = run(p);
	stall_stop(&p->stalls);
	if (report(p)) {
		errmsg("out of memory");
		return 1;
	}
	return !ret && played_well(p) ? 0 : 1;
}

int mmxplay_play(const struct mmxplay_opts *o)
{
	struct player *p;
	int status;

	p = calloc(1, sizeof(*p));
	if (!p) {
		errmsg("out of memory");
		return 1;
	}
	p->o = o;
	status = play(p);
	player_free(p);
	return status;
}
