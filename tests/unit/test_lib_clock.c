// SPDX-License-Identifier: MIT
/*
 * mmxd's clocks (userspace/private/mmx_clock.h): the least-squares fit
 * that maps device units to CLOCK_MONOTONIC, and clock objects (start,
 * stop, set, rate, never backwards, value -> time) over fake sources whose
 * every answer the test chooses. Expected values are worked out in the
 * comments.
 */

#include <errno.h>
#include <math.h>
#include <stdint.h>

#include "unit.h"
#include "mmx_clock.h"

#define NOMINAL_48K	(1e9 / 48000)

/* ------------------------------------------------------------------ */
/* The fit */

static int test_fit_two_point(void)
{
	struct mmx_clock_fit f;
	int64_t y;
	double x;

	mmx_clock_fit_init(&f, NOMINAL_48K);
	UNIT_CHECK(mmx_clock_fit_x_to_y(&f, 0, &y) == -EAGAIN, "empty fit");
	UNIT_CHECK(mmx_clock_fit_add(&f, 0, 1000) == 0, "first pair");
	/* one pair: the nominal slope through it */
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, 48000, &y), "x_to_y");
	UNIT_CHECK(y == 1000 + 1000000000, "nominal: %lld", (long long)y);
	/* 48000 frames in 1.001 s: 1.001e9 / 48000 ns a frame */
	UNIT_CHECK(mmx_clock_fit_add(&f, 48000, 1000 + 1001000000) == 0,
		   "second pair");
	UNIT_CHECK(fabs(f.slope - 1.001e9 / 48000) < 1e-9, "slope %.9f",
		   f.slope);
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, 24000, &y), "x_to_y");
	UNIT_CHECK(y == 1000 + 500500000, "midpoint %lld", (long long)y);
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, 96000, &y), "x_to_y");
	UNIT_CHECK(y == 1000 + 2002000000, "extrapolated %lld", (long long)y);
	UNIT_CHECK(!mmx_clock_fit_y_to_x(&f, 1000 + 500500000, &x), "y_to_x");
	UNIT_CHECK(fabs(x - 24000) < 1e-6, "inverse %.9f", x);
	UNIT_CHECK(mmx_clock_fit_residual(&f) == 0, "two pairs fit exactly");
	return 0;
}

/*
 * Pairs on y = Y0 + S x, around x ~ 1e10 and y ~ 4e14 (days of audio),
 * with +-J ns of jitter in a +, -, -, + pattern (uncorrelated with x over
 * the window, which holds whole patterns): the least-squares slope is S
 * within a part in 1e9, the line exact, the residual J.
 */
static int test_fit_least_squares(void)
{
	const int64_t X0 = 10000000000ll, Y0 = 400000000000000ll, J = 300000;
	const double S = 20833.75;
	struct mmx_clock_fit f;
	int64_t y, res;
	int i;

	mmx_clock_fit_init(&f, NOMINAL_48K);
	for (i = 0; i < 200; i++) {
		int64_t x = X0 + i * 480;

		y = Y0 + llround(S * (x - X0)) + ((i & 3) % 3 ? -J : J);
		UNIT_CHECK(mmx_clock_fit_add(&f, x, y) == 0, "pair %d", i);
	}
	UNIT_CHECK(f.n == MMX_CLOCK_FIT_WINDOW, "window %u", f.n);
	UNIT_CHECK(fabs(f.slope / S - 1) < 1e-9, "slope %.6f", f.slope);
	/* on the line, between the jitter */
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, X0 + 150 * 480, &y), "x_to_y");
	UNIT_CHECK(llabs(y - (Y0 + llround(S * 150 * 480))) <= 1,
		   "on the line: off by %lld",
		   (long long)(y - (Y0 + llround(S * 150 * 480))));
	res = mmx_clock_fit_residual(&f);
	UNIT_CHECK(llabs(res - J) <= 2, "residual %lld", (long long)res);
	return 0;
}

/* A new line replaces the old one within a window of pairs. */
static int test_fit_window(void)
{
	struct mmx_clock_fit f;
	int64_t x = 0, y = 0, yy;
	int i;

	mmx_clock_fit_init(&f, NOMINAL_48K);
	for (i = 0; i < 100; i++, x += 480, y += 10000000)
		mmx_clock_fit_add(&f, x, y);
	UNIT_CHECK(fabs(f.slope - 10000000.0 / 480) < 1e-6, "first slope");
	/* the device slows down by 1% */
	for (i = 0; i < MMX_CLOCK_FIT_WINDOW; i++, x += 480, y += 10100000)
		mmx_clock_fit_add(&f, x, y);
	UNIT_CHECK(fabs(f.slope - 10100000.0 / 480) < 1e-6, "slope %.6f",
		   f.slope);
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, x, &yy) && yy == y,
		   "next pair predicted: %lld vs %lld", (long long)yy,
		   (long long)y);
	return 0;
}

static int test_fit_discontinuity(void)
{
	struct mmx_clock_fit f;
	int64_t y;

	mmx_clock_fit_init(&f, NOMINAL_48K);
	mmx_clock_fit_add(&f, 1000, 5000000);
	mmx_clock_fit_add(&f, 2000, 5000000 + 20833333);
	/* the same position, seen later: ignored (the first sighting is
	 * nearer to when it was reached) */
	UNIT_CHECK(mmx_clock_fit_add(&f, 2000, 5000000 + 30000000) == 0,
		   "duplicate");
	UNIT_CHECK(f.n == 2, "duplicate kept: n %u", f.n);
	/* position backwards: a restart from that pair */
	UNIT_CHECK(mmx_clock_fit_add(&f, 500, 90000000) == 1, "restart");
	UNIT_CHECK(f.n == 1, "n %u", f.n);
	UNIT_CHECK(!mmx_clock_fit_x_to_y(&f, 500 + 48000, &y) &&
		   y == 90000000 + 1000000000, "nominal after restart");
	/* time backwards: a restart too */
	UNIT_CHECK(mmx_clock_fit_add(&f, 600, 80000000) == 1, "restart");
	mmx_clock_fit_reset(&f);
	UNIT_CHECK(f.n == 0 && f.nominal == NOMINAL_48K, "reset");
	return 0;
}

/* Absurd pairs cannot make the slope absurd. */
static int test_fit_clamp(void)
{
	struct mmx_clock_fit f;

	mmx_clock_fit_init(&f, 1000);
	mmx_clock_fit_add(&f, 0, 0);
	mmx_clock_fit_add(&f, 10, 1000000);
	UNIT_CHECK(f.slope == 2000, "clamped high: %f", f.slope);
	mmx_clock_fit_init(&f, 1000);
	mmx_clock_fit_add(&f, 0, 0);
	mmx_clock_fit_add(&f, 1000000, 1);
	UNIT_CHECK(f.slope == 500, "clamped low: %f", f.slope);
	/* no nominal: no clamp */
	mmx_clock_fit_init(&f, 0);
	mmx_clock_fit_add(&f, 0, 0);
	mmx_clock_fit_add(&f, 10, 1000000);
	UNIT_CHECK(f.slope == 100000, "unclamped: %f", f.slope);
	return 0;
}

/*
 * A simulated PCM: the device plays 48000 * (1 + 150 ppm) frames a
 * second; its position moves in 48-frame DMA steps (1 ms, as QEMU's HDA
 * does) and is read with a timestamp every 3.3 ms or so (a deterministic
 * jitter). A position read at t was reached up to 1 ms before t, 0.5 ms
 * on average: over 10 s the fit maps every position to the time it was
 * reached within 1 ms, the slope (over the window's 0.2 s) is within
 * 0.1% of the truth, and the
 * inverse mapping is monotonic.
 */
static int test_pcm_mapping(void)
{
	const double rate = 48000 * (1 + 150e-6), t0 = 7e12;
	struct mmx_clock_fit f;
	double worst = 0, x, prev = -1;
	int64_t y;
	int i;

	mmx_clock_fit_init(&f, NOMINAL_48K);
	for (i = 0; i < 3000; i++) {
		double t = t0 + i * 3.3e6 + ((i * 7919) % 1000) * 1000.0;
		int64_t pos = (int64_t)((t - t0) * rate / 1e9) / 48 * 48;
		double truth = t0 + pos * 1e9 / rate;

		mmx_clock_fit_add(&f, pos, llround(t));
		if (i < 100)
			continue;
		mmx_clock_fit_x_to_y(&f, pos, &y);
		if (fabs(y - truth) > worst)
			worst = fabs(y - truth);
	}
	UNIT_CHECK(worst < 1e6, "mapping off by %.3f ms", worst / 1e6);
	UNIT_CHECK(fabs(1e9 / f.slope / rate - 1) < 1e-3,
		   "rate %.3f vs %.3f", 1e9 / f.slope, rate);
	for (i = 0; i < 2000; i++) {
		mmx_clock_fit_y_to_x(&f, (int64_t)(t0 + 9e9 + i * 100000), &x);
		UNIT_CHECK(x > prev, "y_to_x not increasing at %d", i);
		prev = x;
	}
	return 0;
}

/* ------------------------------------------------------------------ */
/* Clocks over fake sources */

/* A source whose time is a table the test sets; to_monotonic inverts a
 * line src = mono * num / den + off. */
struct fake {
	int64_t num, den, off;
	int64_t dip;		/* subtracted from now() when set */
	int err;
};

static int fake_now(void *ctx, int64_t mono, int64_t *src)
{
	struct fake *f = ctx;

	if (f->err)
		return f->err;
	*src = mono * f->num / f->den + f->off - f->dip;
	return 0;
}

static int fake_to_mono(void *ctx, int64_t src, int64_t *mono)
{
	struct fake *f = ctx;

	*mono = (src - f->off) * f->den / f->num;
	return 0;
}

static int new_clock(struct fake *fk, struct mmx_clock **c)
{
	struct mmx_clock_source s = { fake_now, fake_to_mono, fk };

	return mmx_clock_new(fk ? &s : NULL, c);
}

static int64_t q(struct mmx_clock *c, int64_t mono)
{
	struct mmx_clock_state st;

	if (mmx_clock_query_at(c, mono, &st))
		return INT64_MIN;
	return st.value;
}

static int test_clock_start_stop(void)
{
	struct mmx_clock_state st;
	struct mmx_clock *c;
	struct mmx_clock_source bad = { NULL, fake_to_mono, NULL };

	UNIT_CHECK(mmx_clock_new(&bad, &c) == -EINVAL, "incomplete source");
	UNIT_CHECK(!new_clock(NULL, &c), "new");	/* CLOCK_MONOTONIC */
	UNIT_CHECK(!mmx_clock_query_at(c, 50, &st) && st.value == 0 &&
		   !st.running && st.rate_num == 1 && st.rate_den == 1,
		   "a new clock is stopped at 0, rate 1/1");
	UNIT_CHECK(!mmx_clock_start_at(c, 100), "start");
	UNIT_CHECK(q(c, 1100) == 1000, "1 us later");
	UNIT_CHECK(!mmx_clock_start_at(c, 1500), "start again: nothing");
	UNIT_CHECK(q(c, 2100) == 2000, "started once only");
	UNIT_CHECK(!mmx_clock_stop_at(c, 2100), "stop");
	UNIT_CHECK(!mmx_clock_stop_at(c, 2600), "stop again: nothing");
	UNIT_CHECK(q(c, 5000) == 2000, "stopped: frozen");
	UNIT_CHECK(!mmx_clock_start_at(c, 6000), "restart");
	UNIT_CHECK(q(c, 6000) == 2000, "continues where it stopped");
	UNIT_CHECK(q(c, 7000) == 3000, "and runs on");
	UNIT_CHECK(!mmx_clock_set_value_at(c, 7000, -500), "seek");
	UNIT_CHECK(q(c, 7500) == 0, "from the new value");
	mmx_clock_free(c);
	return 0;
}

static int test_clock_rate(void)
{
	struct mmx_clock *c;

	UNIT_CHECK(!new_clock(NULL, &c), "new");
	UNIT_CHECK(mmx_clock_set_rate_at(c, 0, 1, 0) == -EINVAL, "den 0");
	mmx_clock_start_at(c, 0);
	UNIT_CHECK(!mmx_clock_set_rate_at(c, 1000, 2, 1), "rate 2");
	/* 1000 at rate 1, then 1000 source ns at rate 2 */
	UNIT_CHECK(q(c, 2000) == 3000, "double speed: %lld",
		   (long long)q(c, 2000));
	UNIT_CHECK(!mmx_clock_set_rate_at(c, 2000, 1, 3), "rate 1/3");
	UNIT_CHECK(q(c, 2300) == 3100, "a third");
	/* floor: 301 source ns at 1/3 are 100.33 */
	UNIT_CHECK(q(c, 2301) == 3100, "floored");
	UNIT_CHECK(q(c, 2303) == 3101, "a third");
	UNIT_CHECK(!mmx_clock_set_rate_at(c, 2303, 0, 1), "rate 0");
	UNIT_CHECK(q(c, 9999) == 3101, "rate 0: still");
	UNIT_CHECK(!mmx_clock_set_rate_at(c, 10000, -1, 1), "rate -1");
	UNIT_CHECK(q(c, 10500) == 2601, "backwards at rate -1: %lld",
		   (long long)q(c, 10500));
	/* rate changes on a stopped clock apply when it starts */
	mmx_clock_stop_at(c, 10500);
	UNIT_CHECK(!mmx_clock_set_rate_at(c, 11000, 3, 2), "rate 3/2");
	mmx_clock_start_at(c, 20000);
	UNIT_CHECK(q(c, 20200) == 2901, "3/2 from the stop value");
	mmx_clock_free(c);
	return 0;
}

/* The time a value is reached: the first ns at which it reads it. */
static int test_clock_to_monotonic(void)
{
	static const struct { int32_t num; uint32_t den; } rates[] = {
		{ 1, 1 }, { 2, 1 }, { 1, 3 }, { 7, 5 }, { -1, 2 },
	};
	struct fake fk = { 1, 1, 0, 0, 0 };
	struct mmx_clock *c;
	int64_t mono;
	size_t i;

	UNIT_CHECK(!new_clock(&fk, &c), "new");
	UNIT_CHECK(mmx_clock_to_monotonic(c, 10, &mono) == -EAGAIN,
		   "stopped: never");
	mmx_clock_set_value_at(c, 0, 1000);
	mmx_clock_start_at(c, 5000);
	for (i = 0; i < sizeof(rates) / sizeof(rates[0]); i++) {
		int64_t v, target, before, at, now = 5000 + 1000 * (int64_t)i;

		UNIT_CHECK(!mmx_clock_set_rate_at(c, now, rates[i].num,
						  rates[i].den), "rate");
		v = q(c, now);
		target = v + (rates[i].num > 0 ? 777 : -777);
		UNIT_CHECK(!mmx_clock_to_monotonic(c, target, &mono), "when");
		/* reached at mono, not one ns earlier (earlier query first:
		 * a query moves the never-backwards mark) */
		before = q(c, mono - 1);
		at = q(c, mono);
		if (rates[i].num > 0)
			UNIT_CHECK(at >= target && before < target,
				   "rate %d/%u: %lld at %lld, %lld before",
				   rates[i].num, rates[i].den, (long long)at,
				   (long long)mono, (long long)before);
		else
			UNIT_CHECK(at <= target && before > target,
				   "rate %d/%u: %lld at %lld, %lld before",
				   rates[i].num, rates[i].den, (long long)at,
				   (long long)mono, (long long)before);
		/* the query moved the never-backwards mark: reset it */
		mmx_clock_set_value_at(c, now, v);
	}
	mmx_clock_set_rate_at(c, 20000, 0, 1);
	UNIT_CHECK(mmx_clock_to_monotonic(c, 1e9, &mono) == -EAGAIN,
		   "rate 0: never");
	/* a source at half speed with an offset: mono = (src - off) * 2 */
	fk.num = 1;
	fk.den = 2;
	fk.off = 123;
	mmx_clock_set_rate_at(c, 20000, 1, 1);
	mmx_clock_set_value_at(c, 20000, 0);
	/* src now 10123, value 0; value 500 at src 10623: mono 21000 */
	UNIT_CHECK(!mmx_clock_to_monotonic(c, 500, &mono) && mono == 21000,
		   "through the source: %lld", (long long)mono);
	mmx_clock_free(c);
	return 0;
}

/*
 * The source dips (its fit was revised downwards): the clock holds its
 * last value until the source catches up, then follows it again; a seek
 * may go back.
 */
static int test_clock_never_backwards(void)
{
	struct fake fk = { 1, 1, 0, 0, 0 };
	struct mmx_clock_state st;
	struct mmx_clock *c;
	int64_t prev = INT64_MIN, v;
	int i;

	UNIT_CHECK(!new_clock(&fk, &c), "new");
	mmx_clock_start_at(c, 0);
	for (i = 0; i < 100; i++) {
		fk.dip = i >= 40 && i < 60 ? 3000 : 0;
		v = q(c, i * 100);
		UNIT_CHECK(v >= prev, "backwards at %d: %lld < %lld", i,
			   (long long)v, (long long)prev);
		if (i >= 40 && i < 70)
			UNIT_CHECK(v == (i < 60 ? 3900 : i * 100),
				   "step %d: %lld", i, (long long)v);
		prev = v;
	}
	/* a stop and start keep the mark */
	fk.dip = 1000000;
	mmx_clock_stop_at(c, 10000);
	UNIT_CHECK(q(c, 10000) == 9900, "stopped at the mark");
	fk.dip = 0;
	mmx_clock_set_value_at(c, 10000, 5);
	UNIT_CHECK(q(c, 10000) == 5, "seek back");
	/* the source's error reaches the caller */
	mmx_clock_start_at(c, 10000);
	fk.err = -EAGAIN;
	UNIT_CHECK(mmx_clock_query_at(c, 10001, &st) == -EAGAIN, "error");
	UNIT_CHECK(mmx_clock_stop_at(c, 10001) == -EAGAIN, "error");
	fk.err = 0;
	UNIT_CHECK(q(c, 10100) == 105, "still running");
	mmx_clock_free(c);
	return 0;
}

/* The real-time wrappers run on CLOCK_MONOTONIC. */
static int test_clock_now(void)
{
	struct mmx_clock_state st;
	struct mmx_clock *c;
	int64_t t0, t1, when;

	UNIT_CHECK(!mmx_clock_new(NULL, &c), "new");
	t0 = mmx_clock_monotonic_ns();
	UNIT_CHECK(!mmx_clock_start(c), "start");
	UNIT_CHECK(!mmx_clock_query(c, &st), "query");
	t1 = mmx_clock_monotonic_ns();
	UNIT_CHECK(st.running && st.value >= 0 && st.value <= t1 - t0,
		   "value %lld within %lld", (long long)st.value,
		   (long long)(t1 - t0));
	UNIT_CHECK(!mmx_clock_set_rate(c, 1, 1000), "slow");
	UNIT_CHECK(!mmx_clock_query(c, &st), "query");
	t1 = mmx_clock_monotonic_ns();
	UNIT_CHECK(!mmx_clock_to_monotonic(c, st.value + 1000, &when), "when");
	/* 1 us of clock at 1/1000 is 1 ms away (less what passed since) */
	UNIT_CHECK(when > t1 - 1000000 && when <= t1 + 1000000,
		   "1 us of clock at 1/1000: %lld ns away",
		   (long long)(when - t1));
	UNIT_CHECK(!mmx_clock_stop(c) && !mmx_clock_set_value(c, 0), "stop");
	mmx_clock_free(c);
	return 0;
}

static const struct unit_case cases[] = {
	{ "fit-two-point", "one pair: nominal slope; two: exact line and inverse", test_fit_two_point },
	{ "fit-least-squares", "jittered pairs at large x and y: exact slope, residual = jitter", test_fit_least_squares },
	{ "fit-window", "a new rate replaces the old within the window", test_fit_window },
	{ "fit-discontinuity", "duplicates ignored, backwards x or y restart the fit", test_fit_discontinuity },
	{ "fit-clamp", "the slope stays within [nominal/2, 2 nominal]", test_fit_clamp },
	{ "pcm-mapping", "a 150 ppm fast PCM in 1 ms DMA steps: frames map to time within 1 ms, rate within 0.1%, inverse monotonic", test_pcm_mapping },
	{ "clock-start-stop", "stopped clocks freeze, restart continues, seek", test_clock_start_stop },
	{ "clock-rate", "rate changes keep the value continuous; 2, 1/3, 0, -1, 3/2", test_clock_rate },
	{ "clock-to-monotonic", "the time a value is reached is exact for every rate, and goes through the source", test_clock_to_monotonic },
	{ "clock-never-backwards", "a dipping source holds the clock; seeks may go back; source errors pass through", test_clock_never_backwards },
	{ "clock-now", "the CLOCK_MONOTONIC wrappers", test_clock_now },
};

UNIT_MAIN(cases)
