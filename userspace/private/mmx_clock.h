/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Clocks for mmxd's schedules (the TIME idea): a clock object can be
 * started, stopped, set, queried and run at a rational rate, over one of
 * three time sources:
 *
 * - CLOCK_MONOTONIC itself;
 * - a CRTC's vblank clock: the time of the latest vblank (it advances in
 *   steps of one frame), from drmCrtcGetSequence() (drmWaitVBlank() on old
 *   kernels); the time a value is reached is the first vblank at or after
 *   it, predicted from a fit of (sequence, timestamp) pairs;
 * - a playing PCM (mmx_audio.h): the number of frames played, in ns of
 *   the stream's nominal rate, mapped to CLOCK_MONOTONIC by a fit of
 *   (frames played, ALSA timestamp) pairs.
 *
 * All times are int64 nanoseconds. Documentation/mmx-audio.rst has the
 * design. Nothing here blocks or keeps global state.
 */

#ifndef MMX_CLOCK_H
#define MMX_CLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define MMX_NSEC_PER_SEC	1000000000ll

/* CLOCK_MONOTONIC now, in ns. */
int64_t mmx_clock_monotonic_ns(void);

/*
 * A least-squares line through the latest MMX_CLOCK_FIT_WINDOW (x, y)
 * pairs, where x counts device units (PCM frames, vblank sequences) and y
 * is CLOCK_MONOTONIC ns: y = y0 + slope * (x - x0), (x0, y0) being the
 * pairs' means. With one pair the slope is the nominal one. The slope is
 * kept within [nominal / 2, 2 * nominal] when a nominal is given. The
 * line is kept as y = y0 + off + slope * (x - x0) with (x0, y0) the newest
 * pair, so that no precision is lost to large x and y.
 */
#define MMX_CLOCK_FIT_WINDOW	64

struct mmx_clock_fit {
	int64_t x[MMX_CLOCK_FIT_WINDOW];
	int64_t y[MMX_CLOCK_FIT_WINDOW];
	unsigned int n;		/* pairs held */
	unsigned int head;	/* next slot to write */
	double nominal;		/* ns per unit; 0: unknown */
	/* the line, valid when n > 0 */
	int64_t x0, y0;
	double off;
	double slope;
};

void mmx_clock_fit_init(struct mmx_clock_fit *f, double nominal);
/* Forget every pair (after a discontinuity: an xrun, a mode set). */
void mmx_clock_fit_reset(struct mmx_clock_fit *f);
/*
 * Add a pair. A pair whose x is not above the newest one's is a
 * discontinuity (the fit restarts from it) unless it is the same pair
 * again (ignored). Returns 0, or 1 when the fit restarted.
 */
int mmx_clock_fit_add(struct mmx_clock_fit *f, int64_t x, int64_t y);
/* y at @x, rounded to nearest. -EAGAIN without any pair. */
int mmx_clock_fit_x_to_y(const struct mmx_clock_fit *f, int64_t x,
			 int64_t *y);
/* x at @y as a real number (not rounded). -EAGAIN without any pair. */
int mmx_clock_fit_y_to_x(const struct mmx_clock_fit *f, int64_t y,
			 double *x);
/* The largest |y - line(x)| of the pairs held, in ns (0 with fewer than
 * 2). */
int64_t mmx_clock_fit_residual(const struct mmx_clock_fit *f);

/*
 * struct mmx_clock_source - a timeline a clock runs on
 * @now: the source's time (ns on its own timeline) at CLOCK_MONOTONIC
 *	@mono_ns, which is now or just past; nondecreasing in @mono_ns.
 *	0 or -errno (-EAGAIN: the source does not run yet)
 * @to_monotonic: the CLOCK_MONOTONIC ns at which the source reaches
 *	@src_ns (a prediction when in the future). 0 or -errno
 * @ctx: their first argument
 */
struct mmx_clock_source {
	int (*now)(void *ctx, int64_t mono_ns, int64_t *src_ns);
	int (*to_monotonic)(void *ctx, int64_t src_ns, int64_t *mono_ns);
	void *ctx;
};

/* CLOCK_MONOTONIC itself (both mappings the identity). */
extern const struct mmx_clock_source mmx_clock_source_monotonic;

/*
 * struct mmx_clock_state - what mmx_clock_query() says
 * @value: the clock's time, ns
 * @mono_ns: the CLOCK_MONOTONIC time it was read for
 * @rate_num: rate numerator (the clock advances rate_num / rate_den ns a
 *	source ns); may be 0 or negative
 * @rate_den: rate denominator, > 0
 * @running: started and not stopped
 */
struct mmx_clock_state {
	int64_t value;
	int64_t mono_ns;
	int32_t rate_num;
	uint32_t rate_den;
	bool running;
};

struct mmx_clock;

/*
 * A clock over @src (copied; NULL: CLOCK_MONOTONIC), stopped at value 0,
 * rate 1/1. Returns 0, -EINVAL or -ENOMEM.
 */
int mmx_clock_new(const struct mmx_clock_source *src, struct mmx_clock **out);
void mmx_clock_free(struct mmx_clock *c);

/*
 * The operations, as of CLOCK_MONOTONIC time @mono_ns (each _at form; the
 * form without it uses now). A clock continues from the value it stopped
 * at. The value of a running clock with a rate >= 0 never goes backwards
 * between queries unless set, even when its source's fit is revised. Each
 * returns 0 or -errno (the source's, e.g. -EAGAIN; -EINVAL for a zero
 * denominator).
 */

/* Start the clock (a running one: nothing). */
int mmx_clock_start_at(struct mmx_clock *c, int64_t mono_ns);
int mmx_clock_start(struct mmx_clock *c);

/* Stop it (a stopped one: nothing). */
int mmx_clock_stop_at(struct mmx_clock *c, int64_t mono_ns);
int mmx_clock_stop(struct mmx_clock *c);

/* Make it read @value. */
int mmx_clock_set_value_at(struct mmx_clock *c, int64_t mono_ns,
			   int64_t value);
int mmx_clock_set_value(struct mmx_clock *c, int64_t value);

/* From then on it advances @num / @den ns a source ns. */
int mmx_clock_set_rate_at(struct mmx_clock *c, int64_t mono_ns,
			  int32_t num, uint32_t den);
int mmx_clock_set_rate(struct mmx_clock *c, int32_t num, uint32_t den);

/* Read it into @st. */
int mmx_clock_query_at(struct mmx_clock *c, int64_t mono_ns,
		       struct mmx_clock_state *st);
int mmx_clock_query(struct mmx_clock *c, struct mmx_clock_state *st);

/*
 * When (CLOCK_MONOTONIC ns) the clock reads @value, at its current rate:
 * the first moment it is at or past it (for a vblank source, the first
 * vblank at or after it). The answer is in the past if the clock is there
 * already. -EAGAIN when the clock is stopped or its rate is 0 (it never
 * gets there), or the source's error.
 */
int mmx_clock_to_monotonic(struct mmx_clock *c, int64_t value,
			   int64_t *mono_ns);

/*
 * A CRTC's vblank clock. @pipe is the CRTC's index (only used with
 * drmWaitVBlank() when the kernel lacks drmCrtcGetSequence()). The CRTC
 * must be active to be read (else -EINVAL from the kernel). Its nominal
 * frame time comes from the CRTC's mode. The source stays valid until
 * mmx_vblank_source_free(); @fd is not closed.
 */
struct mmx_vblank_source;

int mmx_vblank_source_new(int fd, uint32_t crtc_id, uint32_t pipe,
			  struct mmx_vblank_source **out);
void mmx_vblank_source_free(struct mmx_vblank_source *v);
void mmx_vblank_source_get(struct mmx_vblank_source *v,
			   struct mmx_clock_source *src);
/* The latest vblank: its sequence and CLOCK_MONOTONIC time (added to the
 * fit). 0 or -errno. */
int mmx_vblank_source_sample(struct mmx_vblank_source *v, uint64_t *seq,
			     int64_t *ns);
/* The fitted (or nominal) frame time, ns. */
double mmx_vblank_source_frame_ns(const struct mmx_vblank_source *v);

#endif /* MMX_CLOCK_H */
