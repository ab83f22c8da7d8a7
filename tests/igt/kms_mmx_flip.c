// SPDX-License-Identifier: MIT
/*
 * kms_mmx_flip - page flips and vblanks: events, sequence numbers and
 * timestamps against the mode's exact frame time (htotal * vtotal / clock),
 * drmWaitVBlank, CRTC_GET_SEQUENCE / CRTC_QUEUE_SEQUENCE, FB changes that
 * need no modeset.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmx_igt.h"

#define FLIP_FLAGS (DRM_MODE_ATOMIC_NONBLOCK | DRM_MODE_PAGE_FLIP_EVENT)
#define EVENT_TIMEOUT_MS 2000

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

static double median_interval(const int64_t *ts, int n)
{
	int64_t *d = calloc((size_t)n, sizeof(*d));
	double m;
	int i;

	mmx_assert(d && n >= 2);
	for (i = 1; i < n; i++)
		d[i - 1] = ts[i] - ts[i - 1];
	qsort(d, (size_t)n - 1, sizeof(*d), cmp_i64);
	m = (n - 1) % 2 ? (double)d[(n - 1) / 2] :
			  (d[(n - 1) / 2 - 1] + d[(n - 1) / 2]) / 2.0;
	free(d);
	return m;
}

static bool rate_ok(const char *what, const int64_t *ts, int n,
		    const drmModeModeInfo *mode)
{
	double frame = mmx_mode_frame_ns(mode);
	double med = median_interval(ts, n);
	bool ok = med > frame * 0.98 && med < frame * 1.02;

	mmx_info("%s: %d events, median interval %.3f ms, mode frame time %.3f ms (%+.2f%%)%s",
		 what, n, med / 1e6, frame / 1e6, (med - frame) / frame * 100,
		 ok ? "" : ": more than 2% off");
	return ok;
}

struct flipper {
	struct mmx_output *o;
	drmModeModeInfo mode;
	struct mmx_fb *fb[2];
	int n, done;
	int64_t *ts;
	uint32_t *seq;
	int64_t *submitted;	/* when the commit of flip i returned */
	int late;		/* flips that missed the next vblank */
};

static void flip_submit(struct mmx_dev *d, struct flipper *f)
{
	struct mmx_req *r = mmx_req_new(d);
	int ret;

	mmx_req_add(r, f->o->primary, "FB_ID", f->fb[(f->done + 1) % 2]->id);
	mmx_req_set_user_data(r, (uint64_t)(uintptr_t)f);
	ret = mmx_req_commit(r, FLIP_FLAGS);
	mmx_assert_f(ret == 0, "flip %d on CRTC %d: %s", f->done, f->o->index,
		     strerror(-ret));
	f->submitted[f->done] = mmx_now_ns();
}

/*
 * Flip every flipper N times, each CRTC on its own: a CRTC's next flip is
 * submitted as soon as its previous event arrives. Checks per CRTC: the
 * right CRTC in the event, sequence +1 per flip, timestamps increasing,
 * median interval within 2% of the mode's frame time.
 */
static bool run_flips_once(struct mmx_dev *d, struct flipper *fl, int n_fl,
			   int n)
{
	struct mmx_req *r = mmx_req_new(d);
	int i, left = n_fl;
	bool ok = true;

	for (i = 0; i < n_fl; i++) {
		struct flipper *f = &fl[i];

		f->n = n;
		f->done = 0;
		f->ts = calloc((size_t)n, sizeof(int64_t));
		f->seq = calloc((size_t)n, sizeof(uint32_t));
		f->submitted = calloc((size_t)n, sizeof(int64_t));
		f->late = 0;
		mmx_assert(f->ts && f->seq && f->submitted);
		mmx_req_output_on(r, f->o, &f->mode);
		mmx_req_plane(r, f->o->primary, f->o->crtc_id, f->fb[0]->id, 0, 0,
			      (int)f->fb[0]->width, (int)f->fb[0]->height, 0, 0,
			      (int)f->fb[0]->width, (int)f->fb[0]->height);
	}
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_event_flush(d->fd);

	for (i = 0; i < n_fl; i++)
		flip_submit(d, &fl[i]);
	while (left) {
		struct mmx_event ev;
		struct flipper *f = NULL;
		int ret = mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev);

		mmx_assert_f(ret == 0, "waiting for flip events: %s (%d CRTCs pending)",
			     strerror(-ret), left);
		mmx_assert_eq(ev.type, DRM_EVENT_FLIP_COMPLETE);
		for (i = 0; i < n_fl; i++)
			if ((uintptr_t)&fl[i] == ev.user_data)
				f = &fl[i];
		mmx_assert_f(f, "event with unknown user_data 0x%llx",
			     (unsigned long long)ev.user_data);
		mmx_assert_f(f->done < f->n, "extra event on CRTC %d", f->o->index);
		mmx_assert_eq(ev.crtc_id, f->o->crtc_id);
		f->ts[f->done] = ev.ns;
		f->seq[f->done] = ev.sequence;
		if (f->done) {
			double frame = mmx_mode_frame_ns(&f->mode);
			int64_t prev = f->ts[f->done - 1];
			/*
			 * Every flip must complete at the vblank after its
			 * submission: sequence +1. Under TCG emulation on a
			 * loaded host the client (or the commit worker) can be
			 * descheduled for more than a frame, and the flip then
			 * lands a vblank later. Such a miss is tolerated in at
			 * most 5% of the flips (logged with its timing), and
			 * only if the event's sequence still matches the
			 * elapsed time (timestamp difference / frame time).
			 */
			uint32_t elapsed = (uint32_t)llround((ev.ns - prev) / frame);

			if (ev.sequence != f->seq[f->done - 1] + 1 &&
			    ev.sequence == f->seq[f->done - 1] + elapsed &&
			    elapsed > 1) {
				if (f->late++ < 3)
					mmx_info("CRTC %d flip %d: missed %u vblank(s) (submitted %.3f ms after the previous vblank)",
						 f->o->index, f->done, elapsed - 1,
						 (f->submitted[f->done] - prev) / 1e6);
			} else {
				mmx_assert_f(ev.sequence == f->seq[f->done - 1] + 1,
					     "CRTC %d flip %d: sequence %u after %u (submitted %.3f ms after the previous vblank, event %.3f ms after it)",
					     f->o->index, f->done, ev.sequence,
					     f->seq[f->done - 1],
					     (f->submitted[f->done] - prev) / 1e6,
					     (ev.ns - prev) / 1e6);
			}
			mmx_assert_f(ev.ns > f->ts[f->done - 1],
				     "CRTC %d flip %d: timestamp %lld after %lld",
				     f->o->index, f->done, (long long)ev.ns,
				     (long long)f->ts[f->done - 1]);
		}
		f->done++;
		if (f->done < f->n)
			flip_submit(d, f);
		else
			left--;
	}
	for (i = 0; i < n_fl; i++) {
		char what[32];

		snprintf(what, sizeof(what), "CRTC %d", fl[i].o->index);
		/* a few misses are the emulator's, not more */
		if (fl[i].late > (n + 19) / 20) {
			mmx_info("%s: %d of %d flips missed their vblank", what,
				 fl[i].late, n);
			ok = false;
		}
		ok &= rate_ok(what, fl[i].ts, n, &fl[i].mode);
		free(fl[i].ts);
		free(fl[i].seq);
		free(fl[i].submitted);
	}
	return ok;
}

struct flip_run {
	struct flipper *fl;
	int n_fl, n;
};

static bool flips_once(struct mmx_dev *d, void *arg)
{
	struct flip_run *fr = arg;

	return run_flips_once(d, fr->fl, fr->n_fl, fr->n);
}

static void run_flips(struct mmx_dev *d, struct flipper *fl, int n_fl, int n)
{
	struct flip_run fr = { fl, n_fl, n };
	double frame = 1e18;
	int i;

	for (i = 0; i < n_fl; i++)
		if (mmx_mode_frame_ns(&fl[i].mode) < frame)
			frame = mmx_mode_frame_ns(&fl[i].mode);
	mmx_timing_attempts(flips_once, d, &fr, frame, "page flips");
}

static void make_flipper(struct mmx_dev *d, struct flipper *f,
			 struct mmx_output *o, int w, int h, int hz)
{
	memset(f, 0, sizeof(*f));
	f->o = o;
	mmx_assert(o->primary && o->conn_id);
	mmx_mode_make(&f->mode, w, h, hz);
	f->fb[0] = mmx_fb_new(d, (uint32_t)w, (uint32_t)h, DRM_FORMAT_XRGB8888);
	f->fb[1] = mmx_fb_new(d, (uint32_t)w, (uint32_t)h, DRM_FORMAT_XRGB8888);
	mmx_fb_fill(f->fb[0], 0xff0000ff);
	mmx_fb_fill(f->fb[1], 0xffffff00);
}

static void test_flip_120(struct mmx_dev *d)
{
	struct flipper f;

	make_flipper(d, &f, &d->out[0], 320, 240, 60);
	run_flips(d, &f, 1, 120);
}

static void test_flip_refresh_rates(struct mmx_dev *d)
{
	static const int rates[] = { 30, 50, 75 };
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(rates); i++) {
		struct flipper f;

		make_flipper(d, &f, &d->out[0], 320, 240, rates[i]);
		mmx_info("%d Hz user mode", rates[i]);
		run_flips(d, &f, 1, 30);
	}
}

static void test_flip_preferred_mode(struct mmx_dev *d)
{
	struct flipper f;
	struct mmx_output *o = &d->out[0];

	mmx_assert(o->has_preferred);
	memset(&f, 0, sizeof(f));
	f.o = o;
	f.mode = o->preferred;
	/* a small FB at the corner: the mode is what times the flips */
	f.fb[0] = mmx_fb_new(d, 64, 64, DRM_FORMAT_XRGB8888);
	f.fb[1] = mmx_fb_new(d, 64, 64, DRM_FORMAT_XRGB8888);
	run_flips(d, &f, 1, 60);
}

static void test_flip_all_crtcs(struct mmx_dev *d)
{
	static const int rates[] = { 60, 50, 75, 30 };
	struct flipper fl[MMX_MAX_OUTPUTS];
	int i;

	for (i = 0; i < d->n_outputs; i++)
		make_flipper(d, &fl[i], &d->out[i], 160 + 16 * i, 120,
			     rates[i % 4]);
	run_flips(d, fl, d->n_outputs, d->n_outputs > 1 ? 45 : 60);
}

static void test_flip_fb_changes_no_modeset(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	const drmModeModeInfo *mode = mmx_small_mode();
	struct mmx_fb *fbs[6];
	uint32_t last_seq = 0;
	int i;

	fbs[0] = mmx_fb_new(d, 320, 240, DRM_FORMAT_XRGB8888);
	fbs[1] = mmx_fb_new_ex(d, 320, 240, DRM_FORMAT_XRGB8888, 320 * 4 + 256,
			       0);
	fbs[2] = mmx_fb_new(d, 200, 100, DRM_FORMAT_XRGB8888);
	fbs[3] = mmx_fb_new(d, 320, 240, DRM_FORMAT_RGB565);
	fbs[4] = mmx_fb_new(d, 320, 240, DRM_FORMAT_ARGB8888);
	fbs[5] = mmx_fb_new(d, 640, 480, DRM_FORMAT_XBGR8888);
	for (i = 0; i < 6; i++)
		mmx_fb_random(fbs[i], 10 + (uint32_t)i, MMX_ALPHA_BINARY_PREMULT);
	mmx_do(mmx_output_set(d, o, mode, fbs[0], 0, 0));
	mmx_event_flush(d->fd);

	/* flips without ALLOW_MODESET: pitch, size, format, bigger FB */
	for (i = 1; i < 6; i++) {
		struct mmx_req *r = mmx_req_new(d);
		struct mmx_ref_plane p = mmx_ref_fb(fbs[i], 0, 0);
		struct mmx_event ev;
		int w = fbs[i]->width < 320 ? (int)fbs[i]->width : 320;
		int h = fbs[i]->height < 240 ? (int)fbs[i]->height : 240;

		mmx_req_plane(r, o->primary, o->crtc_id, fbs[i]->id, 0, 0, w, h,
			      0, 0, w, h);
		mmx_req_set_user_data(r, (uint64_t)i);
		mmx_do(mmx_req_commit(r, FLIP_FLAGS));
		mmx_do(mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev));
		mmx_assert_eq(ev.type, DRM_EVENT_FLIP_COMPLETE);
		mmx_assert_eq(ev.user_data, i);
		mmx_assert_f(ev.sequence > last_seq || i == 1,
			     "sequence %u after %u", ev.sequence, last_seq);
		last_seq = ev.sequence;
		mmx_assert_eq(mmx_prop_get(d, o->primary, "FB_ID"), fbs[i]->id);
		p.w = w;
		p.h = h;
		mmx_check_output(d, o, mode, &p, 1, mmx_format_name(fbs[i]->format));
	}
}

/* ------------------------------------------------------------------------ */
/* vblank ioctls                                                            */

static void light_small(struct mmx_dev *d, struct mmx_output *o)
{
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
}

static int64_t reply_ns(const drmVBlankReply *r)
{
	return (int64_t)r->tval_sec * 1000000000LL +
	       (int64_t)r->tval_usec * 1000;
}

/*
 * One round of 20 relative-1 waits that start early in a frame: every reply
 * must be consistent (sequence advanced by the number of frame times its
 * timestamp advanced) and later; timing (next vblank in >= 90%, median
 * interval within 2%) decides the return value.
 */
static bool vblank_relative_once(struct mmx_dev *d)
{
	double frame = mmx_mode_frame_ns(mmx_small_mode());
	int64_t dts[20], sorted_ts[21];
	int i, k, tried = 0, next = 0;

	for (i = 0; i < 400 && tried < 20; i++) {
		struct mmx_output *o = &d->out[i % d->n_outputs];
		drmVBlankReply q, r;
		int64_t before;
		uint32_t elapsed;

		mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 0, &q));
		before = mmx_now_ns();
		mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, &r));
		mmx_assert_f(reply_ns(&r) > reply_ns(&q),
			     "timestamp %lld not after %lld",
			     (long long)reply_ns(&r), (long long)reply_ns(&q));
		mmx_assert_f(mmx_now_ns() >= reply_ns(&r),
			     "the wait returned before its vblank timestamp");
		mmx_assert_gt(r.sequence, q.sequence);
		elapsed = (uint32_t)llround((reply_ns(&r) - reply_ns(&q)) / frame);
		mmx_assert_f(r.sequence - q.sequence == elapsed,
			     "sequence +%u but timestamp +%.3f ms (%u frames)",
			     r.sequence - q.sequence,
			     (reply_ns(&r) - reply_ns(&q)) / 1e6, elapsed);
		/* only waits issued early in a frame must see the next one */
		if (before >= reply_ns(&q) + (int64_t)(frame / 2))
			continue;
		if (r.sequence == q.sequence + 1)
			dts[next++] = reply_ns(&r) - reply_ns(&q);
		tried++;
	}
	mmx_info("%d waits early in a frame (of %d), %d returned the next vblank",
		 tried, i, next);
	if (tried < 20 || next < 18)
		return false;
	sorted_ts[0] = 0;
	for (k = 0; k < next; k++)
		sorted_ts[k + 1] = sorted_ts[k] + dts[k];
	return rate_ok("drmWaitVBlank relative 1", sorted_ts, next + 1,
		       mmx_small_mode());
}

static bool vblank_relative_try(struct mmx_dev *d, void *arg)
{
	(void)arg;
	return vblank_relative_once(d);
}

static void test_vblank_wait_relative(struct mmx_dev *d)
{
	int i;

	for (i = 0; i < d->n_outputs; i++)
		light_small(d, &d->out[i]);
	mmx_timing_attempts(vblank_relative_try, d, NULL,
			mmx_mode_frame_ns(mmx_small_mode()), "drmWaitVBlank");
}

static void test_vblank_wait_absolute(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[d->n_outputs - 1];
	double frame = mmx_mode_frame_ns(mmx_small_mode());
	drmVBlankReply q, r;
	long long missed;
	int64_t dt;

	light_small(d, o);
	missed = mmx_vblank_missed(d, o->index);
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 0, &q));
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_ABSOLUTE,
			       q.sequence + 6, &r));
	mmx_assert_vblank_seq(d, o->index, missed, r.sequence, q.sequence + 6,
			      "absolute wait +6");
	dt = reply_ns(&r) - reply_ns(&q);
	mmx_info("%u vblanks in %.3f ms (frame %.3f ms)", r.sequence - q.sequence,
		 dt / 1e6, frame / 1e6);
	/*
	 * Within half a frame: the vblank interrupt may be switched off and
	 * on between the two waits, which restarts the timer at another phase.
	 */
	mmx_assert_f(llabs(dt - (int64_t)((r.sequence - q.sequence) * frame)) <
		     (int64_t)(frame / 2),
		     "%u vblanks took %.3f ms", r.sequence - q.sequence,
		     dt / 1e6);
	/* a past sequence returns at once with the current count */
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_ABSOLUTE,
			       q.sequence, &r));
	mmx_assert_gte(r.sequence, q.sequence + 6);
}

static void test_vblank_event(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	double frame = mmx_mode_frame_ns(mmx_small_mode());
	drmVBlankReply q, r;
	struct mmx_event ev;
	long long missed;

	light_small(d, o);
	mmx_event_flush(d->fd);
	missed = mmx_vblank_missed(d, o->index);
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 0, &q));
	{
		drmVBlank vbl;

		memset(&vbl, 0, sizeof(vbl));
		vbl.request.type = (drmVBlankSeqType)(DRM_VBLANK_RELATIVE |
			DRM_VBLANK_EVENT |
			((o->index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
			 DRM_VBLANK_HIGH_CRTC_MASK));
		vbl.request.sequence = 3;
		vbl.request.signal = 0x1234;
		mmx_do(mmx_ioctl(d->fd, DRM_IOCTL_WAIT_VBLANK, &vbl));
		r = vbl.reply;
	}
	mmx_do(mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev));
	mmx_assert_eq(ev.type, DRM_EVENT_VBLANK);
	mmx_assert_eq(ev.user_data, 0x1234);
	mmx_assert_eq(ev.crtc_id, o->crtc_id);
	mmx_assert_gte(r.sequence, q.sequence + 3);
	mmx_assert_lte(r.sequence, q.sequence + 4);
	/*
	 * The event carries the count of the vblank that sent it: the one
	 * asked for, or, when the CRTC missed it (a loaded host delays the
	 * vblank timer and the count catches up), a later one. Either way
	 * its timestamp is that vblank's.
	 */
	mmx_assert_vblank_seq(d, o->index, missed, ev.sequence, r.sequence,
			      "vblank event +3");
	mmx_assert_f(llabs(ev.ns - reply_ns(&q) -
			   (int64_t)((ev.sequence - q.sequence) * frame)) <
		     (int64_t)(frame / 2),
		     "event %u at %+.3f ms from vblank %u, frame %.3f ms",
		     ev.sequence, (ev.ns - reply_ns(&q)) / 1e6, q.sequence,
		     frame / 1e6);
}

static int get_sequence(struct mmx_dev *d, uint32_t crtc, uint64_t *seq,
			int64_t *ns, uint32_t *active)
{
	struct drm_crtc_get_sequence g = { .crtc_id = crtc };
	int ret = mmx_ioctl(d->fd, DRM_IOCTL_CRTC_GET_SEQUENCE, &g);

	if (!ret) {
		*seq = g.sequence;
		*ns = g.sequence_ns;
		if (active)
			*active = g.active;
	}
	return ret;
}

static int queue_sequence(struct mmx_dev *d, uint32_t crtc, uint32_t flags,
			  uint64_t *seq, uint64_t user_data)
{
	struct drm_crtc_queue_sequence q = {
		.crtc_id = crtc,
		.flags = flags,
		.sequence = *seq,
		.user_data = user_data,
	};
	int ret = mmx_ioctl(d->fd, DRM_IOCTL_CRTC_QUEUE_SEQUENCE, &q);

	if (!ret)
		*seq = q.sequence;
	return ret;
}

static void test_crtc_get_sequence(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	double frame = mmx_mode_frame_ns(mmx_small_mode());
	uint64_t s0, s1;
	int64_t t0, t1;
	uint32_t active = 0;
	drmVBlankReply q;

	light_small(d, o);
	mmx_do(get_sequence(d, o->crtc_id, &s0, &t0, &active));
	mmx_assert_eq(active, 1);
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 0, &q));
	/* the same count and timestamp, or later ones on the same grid */
	mmx_assert_f(q.sequence - (uint32_t)s0 < 1000 &&
		     llabs(reply_ns(&q) - t0 -
			   (int64_t)((q.sequence - (uint32_t)s0) * frame)) <
		     (int64_t)(frame / 2),
		     "GET_SEQUENCE %llu at %lld ns vs drmWaitVBlank %u at %lld ns",
		     (unsigned long long)s0, (long long)t0, q.sequence,
		     (long long)reply_ns(&q));
	mmx_sleep_ms(500);
	mmx_do(get_sequence(d, o->crtc_id, &s1, &t1, NULL));
	mmx_info("%llu vblanks in %.3f ms (frame %.3f ms)",
		 (unsigned long long)(s1 - s0), (t1 - t0) / 1e6, frame / 1e6);
	mmx_assert_gt(t1, t0);
	mmx_assert_f(llabs((t1 - t0) - (int64_t)((s1 - s0) * frame)) <
		     (int64_t)(frame / 2),
		     "%llu vblanks in %.3f ms",
		     (unsigned long long)(s1 - s0), (t1 - t0) / 1e6);
	/* 500 ms (or more, if the emulator stalled) of a 60 Hz mode */
	mmx_assert_gte(s1 - s0, 25);
	mmx_assert_lte(t1 - t0, mmx_now_ns() - t0 + (int64_t)frame);
}

/*
 * Each event must come at the vblank it was queued for, with that vblank's
 * timestamp on the frame grid. When the guest stalled and the CRTC missed
 * that vblank (crtc-N/mmx_vblank), the event comes at the next one handled,
 * and carries its sequence and timestamp.
 */
static void test_crtc_queue_sequence(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	double frame = mmx_mode_frame_ns(mmx_small_mode());
	struct mmx_event ev;
	uint64_t s0, target;
	long long missed;
	int64_t t0;

	light_small(d, o);
	mmx_event_flush(d->fd);

	/* absolute */
	missed = mmx_vblank_missed(d, o->index);
	mmx_do(get_sequence(d, o->crtc_id, &s0, &t0, NULL));
	target = s0 + 4;
	mmx_do(queue_sequence(d, o->crtc_id, 0, &target, 0xabc));
	mmx_assert_eq(target, s0 + 4);
	mmx_do(mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev));
	mmx_assert_eq(ev.type, DRM_EVENT_CRTC_SEQUENCE);
	mmx_assert_eq(ev.user_data, 0xabc);
	mmx_assert_vblank_seq(d, o->index, missed, ev.sequence64, s0 + 4,
			      "absolute +4");
	mmx_assert_f(llabs(ev.ns - t0 - (int64_t)((ev.sequence64 - s0) * frame)) <
		     (int64_t)(frame / 2),
		     "sequence +%llu after %.3f ms, frame %.3f ms",
		     (unsigned long long)(ev.sequence64 - s0),
		     (ev.ns - t0) / 1e6, frame / 1e6);

	/* relative (to the count when the ioctl runs) */
	missed = mmx_vblank_missed(d, o->index);
	mmx_do(get_sequence(d, o->crtc_id, &s0, &t0, NULL));
	target = 2;
	mmx_do(queue_sequence(d, o->crtc_id, DRM_CRTC_SEQUENCE_RELATIVE, &target,
			      0xdef));
	mmx_assert_gte(target, s0 + 2);
	mmx_assert_lte(target, s0 + 2 + (uint64_t)((mmx_now_ns() - t0) / frame));
	mmx_do(mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev));
	mmx_assert_eq(ev.type, DRM_EVENT_CRTC_SEQUENCE);
	mmx_assert_eq(ev.user_data, 0xdef);
	mmx_assert_vblank_seq(d, o->index, missed, ev.sequence64, target,
			      "relative +2");

	/* a missed sequence with NEXT_ON_MISS: the next vblank */
	missed = mmx_vblank_missed(d, o->index);
	mmx_do(get_sequence(d, o->crtc_id, &s0, &t0, NULL));
	target = s0 - 5;
	mmx_do(queue_sequence(d, o->crtc_id, DRM_CRTC_SEQUENCE_NEXT_ON_MISS,
			      &target, 0x42));
	mmx_assert_gte(target, s0 + 1);
	mmx_assert_lte(target, s0 + 1 + (uint64_t)((mmx_now_ns() - t0) / frame));
	mmx_do(mmx_event_wait(d->fd, EVENT_TIMEOUT_MS, &ev));
	mmx_assert_eq(ev.user_data, 0x42);
	mmx_assert_vblank_seq(d, o->index, missed, ev.sequence64, target,
			      "next on miss");
}

static void test_vblank_inactive(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	uint64_t seq = 1;
	int64_t ns;
	int ret;

	/* after mmx_reset() every CRTC is off */
	ret = mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, NULL);
	mmx_assert_f(ret < 0, "drmWaitVBlank on an inactive CRTC succeeded");
	ret = get_sequence(d, o->crtc_id, &seq, &ns, NULL);
	mmx_assert_f(ret < 0, "CRTC_GET_SEQUENCE on an inactive CRTC succeeded");
	seq = 1;
	ret = queue_sequence(d, o->crtc_id, DRM_CRTC_SEQUENCE_RELATIVE, &seq, 1);
	mmx_assert_f(ret < 0, "CRTC_QUEUE_SEQUENCE on an inactive CRTC succeeded");
	mmx_assert_eq(mmx_event_wait(d->fd, 100, &(struct mmx_event){ 0 }),
		      -ETIMEDOUT);

	/* light it and switch it off again: same */
	light_small(d, o);
	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, NULL));
	mmx_reset(d);
	ret = mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, NULL);
	mmx_assert_f(ret < 0, "drmWaitVBlank after switching off succeeded");
}

static void test_vblank_counter_survives_flips(struct mmx_dev *d)
{
	struct flipper f;
	uint64_t s0, s1;
	int64_t t0, t1;

	/* the vblank counter keeps counting across flips and FB changes */
	make_flipper(d, &f, &d->out[0], 320, 240, 60);
	run_flips(d, &f, 1, 10);
	mmx_do(get_sequence(d, d->out[0].crtc_id, &s0, &t0, NULL));
	run_flips(d, &f, 1, 10);
	mmx_do(get_sequence(d, d->out[0].crtc_id, &s1, &t1, NULL));
	mmx_assert_gt(s1, s0);
	mmx_assert_gt(t1, t0);
}

static const struct mmx_subtest tests[] = {
	{ "flip-120", "120 nonblocking page flips at 320x240@60: one event each, sequence +1, timestamps increasing, median interval within 2% of the frame time",
	  test_flip_120, NULL, NULL },
	{ "flip-refresh-rates", "flips on 30, 50 and 75 Hz user modes are timed by each mode's exact frame time (within 2%)",
	  test_flip_refresh_rates, NULL, NULL },
	{ "flip-preferred-mode", "60 flips at the preferred mode of output 0, timed by its frame time",
	  test_flip_preferred_mode, NULL, NULL },
	{ "flip-all-crtcs", "every CRTC flips on its own at a different refresh rate; events name the right CRTC, sequences +1, each at its own rate",
	  test_flip_all_crtcs, NULL, NULL },
	{ "flip-fb-changes-no-modeset", "flipping to FBs of another pitch, size or format needs no ALLOW_MODESET, and the new FB is what is shown",
	  test_flip_fb_changes_no_modeset, NULL, NULL },
	{ "vblank-wait-relative", "drmWaitVBlank relative 1 returns the next sequence, one frame time later",
	  test_vblank_wait_relative, NULL, NULL },
	{ "vblank-wait-absolute", "drmWaitVBlank absolute current+6 returns that sequence six frame times later; a past one returns at once",
	  test_vblank_wait_absolute, NULL, NULL },
	{ "vblank-event", "a drmWaitVBlank event arrives with its signal, CRTC id and the requested sequence",
	  test_vblank_event, NULL, NULL },
	{ "crtc-get-sequence", "CRTC_GET_SEQUENCE agrees with drmWaitVBlank, says active, and counts at the mode's refresh",
	  test_crtc_get_sequence, NULL, NULL },
	{ "crtc-queue-sequence", "CRTC_QUEUE_SEQUENCE events arrive at the requested sequence (absolute, relative, next-on-miss) at the right time",
	  test_crtc_queue_sequence, NULL, NULL },
	{ "vblank-inactive", "every vblank ioctl fails on an inactive CRTC and no event arrives",
	  test_vblank_inactive, NULL, NULL },
	{ "vblank-counter-flips", "the vblank counter and timestamps keep increasing across flips",
	  test_vblank_counter_survives_flips, NULL, NULL },
};

MMX_MAIN("mmx page flips and vblanks", tests)
