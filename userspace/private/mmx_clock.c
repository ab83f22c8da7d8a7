// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Clock objects over CLOCK_MONOTONIC, a CRTC's vblanks or a playing PCM
 * (mmx_clock.h), and the least-squares fit that maps device units to
 * CLOCK_MONOTONIC. A clock is a line through (base_src, base_value) of
 * slope rate_num / rate_den over its source's timeline; every change of
 * state first moves the base to "now", so that values stay continuous.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "mmx_clock.h"

int64_t mmx_clock_monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * MMX_NSEC_PER_SEC + ts.tv_nsec;
}

/* ------------------------------------------------------------------ */
/* The fit */

void mmx_clock_fit_init(struct mmx_clock_fit *f, double nominal)
{
	memset(f, 0, sizeof(*f));
	f->nominal = nominal > 0 ? nominal : 0;
}

void mmx_clock_fit_reset(struct mmx_clock_fit *f)
{
	mmx_clock_fit_init(f, f->nominal);
}

static unsigned int newest(const struct mmx_clock_fit *f)
{
	return (f->head + MMX_CLOCK_FIT_WINDOW - 1) % MMX_CLOCK_FIT_WINDOW;
}

/* Recompute the line, relative to the newest pair. */
static void fit_update(struct mmx_clock_fit *f)
{
	unsigned int i, k = newest(f);
	double sx = 0, sy = 0, sxx = 0, sxy = 0, mx, my, slope;
	int64_t xr = f->x[k], yr = f->y[k];

	for (i = 0; i < f->n; i++) {
		double dx = (double)(f->x[i] - xr), dy = (double)(f->y[i] - yr);

		sx += dx;
		sy += dy;
	}
	mx = sx / f->n;
	my = sy / f->n;
	for (i = 0; i < f->n; i++) {
		double dx = (double)(f->x[i] - xr) - mx;
		double dy = (double)(f->y[i] - yr) - my;

		sxx += dx * dx;
		sxy += dx * dy;
	}
	slope = f->n >= 2 && sxx > 0 ? sxy / sxx : f->nominal;
	if (f->nominal > 0) {
		if (!(slope >= f->nominal / 2))	/* also NaN */
			slope = f->nominal / 2;
		if (slope > f->nominal * 2)
			slope = f->nominal * 2;
	}
	f->slope = slope;
	f->x0 = xr;
	f->y0 = yr;
	/* the line goes through the means */
	f->off = my - slope * mx;
}

int mmx_clock_fit_add(struct mmx_clock_fit *f, int64_t x, int64_t y)
{
	int restarted = 0;

	if (f->n) {
		unsigned int k = newest(f);

		if (x == f->x[k])
			return 0;	/* no progress: keep the first sighting */
		if (x < f->x[k] || y < f->y[k]) {
			mmx_clock_fit_reset(f);
			restarted = 1;
		}
	}
	f->x[f->head] = x;
	f->y[f->head] = y;
	f->head = (f->head + 1) % MMX_CLOCK_FIT_WINDOW;
	if (f->n < MMX_CLOCK_FIT_WINDOW)
		f->n++;
	fit_update(f);
	return restarted;
}

int mmx_clock_fit_x_to_y(const struct mmx_clock_fit *f, int64_t x,
			 int64_t *y)
{
	if (!f->n)
		return -EAGAIN;
	*y = f->y0 + llround(f->off + f->slope * (double)(x - f->x0));
	return 0;
}

int mmx_clock_fit_y_to_x(const struct mmx_clock_fit *f, int64_t y,
			 double *x)
{
	if (!f->n)
		return -EAGAIN;
	if (!(f->slope > 0))
		return -ERANGE;
	*x = (double)f->x0 + ((double)(y - f->y0) - f->off) / f->slope;
	return 0;
}

int64_t mmx_clock_fit_residual(const struct mmx_clock_fit *f)
{
	int64_t worst = 0, y, d;
	unsigned int i;

	if (f->n < 2)
		return 0;
	for (i = 0; i < f->n; i++) {
		mmx_clock_fit_x_to_y(f, f->x[i], &y);
		d = llabs(f->y[i] - y);
		if (d > worst)
			worst = d;
	}
	return worst;
}

/* ------------------------------------------------------------------ */
/* CLOCK_MONOTONIC as a source */

static int mono_now(void *ctx, int64_t mono_ns, int64_t *src_ns)
{
	(void)ctx;
	*src_ns = mono_ns;
	return 0;
}

static int mono_to_monotonic(void *ctx, int64_t src_ns, int64_t *mono_ns)
{
	(void)ctx;
	*mono_ns = src_ns;
	return 0;
}

const struct mmx_clock_source mmx_clock_source_monotonic = {
	.now = mono_now,
	.to_monotonic = mono_to_monotonic,
	.ctx = NULL,
};

/* ------------------------------------------------------------------ */
/* Clocks */

struct mmx_clock {
	struct mmx_clock_source src;
	bool running;
	int64_t base_src;	/* source time of the base (when running) */
	int64_t base_value;	/* the clock's value there (or, stopped, now) */
	int32_t num;
	uint32_t den;
	bool have_last;		/* last_value holds the latest value read */
	int64_t last_value;
};

int mmx_clock_new(const struct mmx_clock_source *src, struct mmx_clock **out)
{
	struct mmx_clock *c;

	*out = NULL;
	if (src && (!src->now || !src->to_monotonic))
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->src = src ? *src : mmx_clock_source_monotonic;
	c->num = 1;
	c->den = 1;
	*out = c;
	return 0;
}

void mmx_clock_free(struct mmx_clock *c)
{
	free(c);
}

static int64_t floor_div(__int128 a, __int128 b)
{
	__int128 q = a / b;

	if ((a % b) && ((a < 0) != (b < 0)))
		q--;
	return (int64_t)q;
}

static int64_t ceil_div(__int128 a, __int128 b)
{
	return -floor_div(-a, b);
}

/*
 * The value at @mono_ns (and the source time there in *@src when
 * running), with the never-backwards rule applied and recorded.
 */
static int value_at(struct mmx_clock *c, int64_t mono_ns, int64_t *value,
		    int64_t *src)
{
	int64_t s, v;
	int ret;

	if (!c->running) {
		*value = c->base_value;
		return 0;
	}
	ret = c->src.now(c->src.ctx, mono_ns, &s);
	if (ret)
		return ret;
	v = c->base_value +
	    floor_div((__int128)(s - c->base_src) * c->num, c->den);
	if (c->num >= 0 && c->have_last && v < c->last_value)
		v = c->last_value;
	c->have_last = true;
	c->last_value = v;
	*value = v;
	if (src)
		*src = s;
	return 0;
}

int mmx_clock_start_at(struct mmx_clock *c, int64_t mono_ns)
{
	int64_t s;
	int ret;

	if (c->running)
		return 0;
	ret = c->src.now(c->src.ctx, mono_ns, &s);
	if (ret)
		return ret;
	c->base_src = s;
	c->running = true;
	return 0;
}

int mmx_clock_stop_at(struct mmx_clock *c, int64_t mono_ns)
{
	int64_t v;
	int ret;

	if (!c->running)
		return 0;
	ret = value_at(c, mono_ns, &v, NULL);
	if (ret)
		return ret;
	c->base_value = v;
	c->running = false;
	return 0;
}

int mmx_clock_set_value_at(struct mmx_clock *c, int64_t mono_ns,
			   int64_t value)
{
	int64_t s;
	int ret;

	if (c->running) {
		ret = c->src.now(c->src.ctx, mono_ns, &s);
		if (ret)
			return ret;
		c->base_src = s;
	}
	c->base_value = value;
	c->have_last = false;
	return 0;
}

int mmx_clock_set_rate_at(struct mmx_clock *c, int64_t mono_ns,
			  int32_t num, uint32_t den)
{
	int64_t v, s;
	int ret;

	if (!den)
		return -EINVAL;
	if (c->running) {
		ret = value_at(c, mono_ns, &v, &s);
		if (ret)
			return ret;
		c->base_value = v;
		c->base_src = s;
	}
	c->num = num;
	c->den = den;
	return 0;
}

int mmx_clock_query_at(struct mmx_clock *c, int64_t mono_ns,
		       struct mmx_clock_state *st)
{
	int64_t v;
	int ret;

	ret = value_at(c, mono_ns, &v, NULL);
	if (ret)
		return ret;
	st->value = v;
	st->mono_ns = mono_ns;
	st->rate_num = c->num;
	st->rate_den = c->den;
	st->running = c->running;
	return 0;
}

int mmx_clock_start(struct mmx_clock *c)
{
	return mmx_clock_start_at(c, mmx_clock_monotonic_ns());
}

int mmx_clock_stop(struct mmx_clock *c)
{
	return mmx_clock_stop_at(c, mmx_clock_monotonic_ns());
}

int mmx_clock_set_value(struct mmx_clock *c, int64_t value)
{
	return mmx_clock_set_value_at(c, mmx_clock_monotonic_ns(), value);
}

int mmx_clock_set_rate(struct mmx_clock *c, int32_t num, uint32_t den)
{
	return mmx_clock_set_rate_at(c, mmx_clock_monotonic_ns(), num, den);
}

int mmx_clock_query(struct mmx_clock *c, struct mmx_clock_state *st)
{
	return mmx_clock_query_at(c, mmx_clock_monotonic_ns(), st);
}

int mmx_clock_to_monotonic(struct mmx_clock *c, int64_t value,
			   int64_t *mono_ns)
{
	__int128 d;
	int64_t ds;

	if (!c->running || c->num == 0)
		return -EAGAIN;
	/*
	 * The first source ns after the base at which floor(ds * num / den)
	 * reaches value - base: ds >= v den / num going up; going down,
	 * floor(ds num / den) <= v means ds num < (v + 1) den.
	 */
	d = (__int128)(value - c->base_value);
	if (c->num > 0)
		ds = ceil_div(d * c->den, c->num);
	else
		ds = floor_div((d + 1) * c->den, c->num) + 1;
	return c->src.to_monotonic(c->src.ctx, c->base_src + ds, mono_ns);
}

/* ------------------------------------------------------------------ */
/* A CRTC's vblanks */

struct mmx_vblank_source {
	int fd;
	uint32_t crtc_id, pipe;
	bool legacy;		/* drmWaitVBlank(): 32-bit sequences */
	uint64_t legacy_hi;	/* wraps of the 32-bit sequence */
	uint32_t legacy_last;
	struct mmx_clock_fit fit;	/* x: sequence, y: ns */
};

static int vblank_wait_query(struct mmx_vblank_source *v, uint64_t *seq,
			     int64_t *ns)
{
	drmVBlank vbl;
	uint32_t type = DRM_VBLANK_RELATIVE;

	memset(&vbl, 0, sizeof(vbl));
	if (v->pipe == 1)
		type |= DRM_VBLANK_SECONDARY;
	else if (v->pipe > 1)
		type |= (v->pipe << DRM_VBLANK_HIGH_CRTC_SHIFT) &
			DRM_VBLANK_HIGH_CRTC_MASK;
	vbl.request.type = type;
	vbl.request.sequence = 0;
	if (drmWaitVBlank(v->fd, &vbl))
		return -errno;
	if (vbl.reply.sequence < v->legacy_last)
		v->legacy_hi += 1ull << 32;
	v->legacy_last = vbl.reply.sequence;
	*seq = v->legacy_hi | vbl.reply.sequence;
	*ns = (int64_t)vbl.reply.tval_sec * MMX_NSEC_PER_SEC +
	      (int64_t)vbl.reply.tval_usec * 1000;
	return 0;
}

int mmx_vblank_source_sample(struct mmx_vblank_source *v, uint64_t *seq,
			     int64_t *ns)
{
	uint64_t s = 0, tu = 0;
	int64_t t = 0;
	int ret = 0;

	if (!v->legacy) {
		ret = drmCrtcGetSequence(v->fd, v->crtc_id, &s, &tu) ?
		      -errno : 0;
		t = (int64_t)tu;
		if (ret == -ENOTTY || ret == -EOPNOTSUPP) {
			v->legacy = true;
			mmx_clock_fit_reset(&v->fit);
		}
	}
	if (v->legacy)
		ret = vblank_wait_query(v, &s, &t);
	if (ret)
		return ret;
	mmx_clock_fit_add(&v->fit, (int64_t)s, t);
	*seq = s;
	*ns = t;
	return 0;
}

double mmx_vblank_source_frame_ns(const struct mmx_vblank_source *v)
{
	return v->fit.n >= 2 ? v->fit.slope : v->fit.nominal;
}

/* The latest vblank at or before @mono_ns. */
static int vblank_now(void *ctx, int64_t mono_ns, int64_t *src_ns)
{
	struct mmx_vblank_source *v = ctx;
	uint64_t seq;
	int64_t t;
	double x;
	int ret;

	ret = mmx_vblank_source_sample(v, &seq, &t);
	if (ret)
		return ret;
	if (t <= mono_ns) {
		*src_ns = t;
		return 0;
	}
	/* asked about a moment before the latest vblank */
	ret = mmx_clock_fit_y_to_x(&v->fit, mono_ns, &x);
	if (ret)
		return ret;
	return mmx_clock_fit_x_to_y(&v->fit, (int64_t)floor(x), src_ns);
}

/* The first vblank at or after @src_ns. */
static int vblank_to_monotonic(void *ctx, int64_t src_ns, int64_t *mono_ns)
{
	struct mmx_vblank_source *v = ctx;
	int64_t seq, t;
	double x;
	int ret;

	if (!v->fit.n) {
		uint64_t s;

		ret = mmx_vblank_source_sample(v, &s, &t);
		if (ret)
			return ret;
	}
	ret = mmx_clock_fit_y_to_x(&v->fit, src_ns, &x);
	if (ret)
		return ret;
	seq = (int64_t)ceil(x);
	ret = mmx_clock_fit_x_to_y(&v->fit, seq, &t);
	/* the fit's rounding must not put it before @src_ns */
	while (!ret && t < src_ns)
		ret = mmx_clock_fit_x_to_y(&v->fit, ++seq, &t);
	if (!ret)
		*mono_ns = t;
	return ret;
}

int mmx_vblank_source_new(int fd, uint32_t crtc_id, uint32_t pipe,
			  struct mmx_vblank_source **out)
{
	struct mmx_vblank_source *v;
	drmModeCrtc *crtc;
	double frame = 0;

	*out = NULL;
	crtc = drmModeGetCrtc(fd, crtc_id);
	if (!crtc)
		return errno ? -errno : -ENOENT;
	if (crtc->mode_valid && crtc->mode.clock && crtc->mode.htotal &&
	    crtc->mode.vtotal)
		frame = (double)crtc->mode.htotal * crtc->mode.vtotal *
			1e6 / crtc->mode.clock;
	drmModeFreeCrtc(crtc);
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v->fd = fd;
	v->crtc_id = crtc_id;
	v->pipe = pipe;
	mmx_clock_fit_init(&v->fit, frame);
	*out = v;
	return 0;
}

void mmx_vblank_source_free(struct mmx_vblank_source *v)
{
	free(v);
}

void mmx_vblank_source_get(struct mmx_vblank_source *v,
			   struct mmx_clock_source *src)
{
	src->now = vblank_now;
	src->to_monotonic = vblank_to_monotonic;
	src->ctx = v;
}
