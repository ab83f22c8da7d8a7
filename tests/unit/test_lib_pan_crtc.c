// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_pan_crtc.c: RandR 1.3 panning validation and the
 * pointer-following policy.
 *
 * Expected values are worked by hand from xf86RandR13Pan() (xserver,
 * hw/xfree86/modes/xf86RandR12.c) and the RRSetPanning text of
 * randrproto.txt; each case says how. Invariants (the CRTC never leaves the
 * panning area, a second call with the same pointer does not move it) are
 * checked on random configurations.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "mmx_pan_crtc.h"
#include "unit.h"

#define ONE	((s64)1 << 32)

#include "mmx_cases_pan_crtc.h"

static void prep(struct mmx_transform *t, const s64 *m)
{
	if (mmx_transform_prepare(t, m, 1920, 1080, 32768))
		abort();
}

static const struct {
	const char *name;
	const s64 *m;
	struct mmx_panning p;
	uint32_t fb_w, fb_h;
	int ret;
} check_cases[] = {
#include "mmx_cases_pan_crtc_check.h"
};

static int test_check(void)
{
	struct mmx_transform t;
	size_t i;

	for (i = 0; i < sizeof(check_cases) / sizeof(check_cases[0]); i++) {
		prep(&t, check_cases[i].m);
		UNIT_CHECK(mmx_panning_check(&check_cases[i].p, &t,
					     check_cases[i].fb_w,
					     check_cases[i].fb_h) ==
			   check_cases[i].ret, "%s", check_cases[i].name);
	}
	return 0;
}

static const struct {
	const char *name;
	const s64 *m;
	struct mmx_panning p;
	int32_t cur_x, cur_y, ptr_x, ptr_y;
	int32_t want_x, want_y;
} follow_cases[] = {
#include "mmx_cases_pan_crtc_follow.h"
};

static int test_follow(void)
{
	struct mmx_transform t;
	int32_t x, y;
	size_t i;

	for (i = 0; i < sizeof(follow_cases) / sizeof(follow_cases[0]); i++) {
		prep(&t, follow_cases[i].m);
		mmx_panning_follow(&follow_cases[i].p, &t, follow_cases[i].cur_x,
				   follow_cases[i].cur_y, follow_cases[i].ptr_x,
				   follow_cases[i].ptr_y, &x, &y);
		UNIT_CHECK(x == follow_cases[i].want_x && y == follow_cases[i].want_y,
			   "%s: got (%d, %d) want (%d, %d)", follow_cases[i].name, x,
			   y, follow_cases[i].want_x, follow_cases[i].want_y);
	}
	return 0;
}

static uint32_t rng_state = 0x2545f491;

static uint32_t rng(void)
{
	return unit_xorshift32(&rng_state);
}

static int rnd(int lo, int hi)
{
	return lo + (int)(rng() % (uint32_t)(hi - lo + 1));
}

/*
 * On one axis, whether a CRTC that mmx_panning_follow() put at @pos (from
 * @was) is where it belongs: with panning (@len not 0) its screen area
 * (@bbox_pos from @pos, @bbox_len long) within @start..@start + @len;
 * without, still at @was.
 */
static bool followed(int32_t pos, int32_t was, int32_t bbox_pos,
		     uint32_t bbox_len, uint32_t start, uint32_t len)
{
	if (!len)
		return pos == was;
	return pos + bbox_pos >= (int64_t)start &&
	       pos + bbox_pos + (int64_t)bbox_len <= (int64_t)start + len;
}

/*
 * Random valid configurations, pointers and offsets: the CRTC's screen area
 * (bounding box + offset) always ends inside the panning area, and for
 * transforms that map pixels to pixels a second call with the same pointer
 * keeps the offset.
 */
static int test_invariants(void)
{
	static const s64 *ms[] = { m_identity, m_rot90, m_scale2, m_keystone };
	int n;

	for (n = 0; n < 20000; n++) {
		int k = rnd(0, 3);
		struct mmx_transform t;
		struct mmx_panning p = { 0 };
		uint32_t fb_w = 8000, fb_h = 6000;
		int32_t x, y, x2, y2, cx, cy;

		prep(&t, ms[k]);
		if (rnd(0, 7)) {
			p.width = (uint32_t)rnd((int)t.bbox_w, 7000);
			p.left = (uint32_t)rnd(0, (int)(fb_w - p.width));
		}
		if (rnd(0, 7)) {
			p.height = (uint32_t)rnd((int)t.bbox_h, 5500);
			p.top = (uint32_t)rnd(0, (int)(fb_h - p.height));
		}
		if (!rnd(0, 3)) {
			p.track_left = (uint32_t)rnd(0, 4000);
			p.track_width = (uint32_t)rnd(0, 4000);
			p.track_top = (uint32_t)rnd(0, 3000);
			p.track_height = (uint32_t)rnd(0, 3000);
		}
		p.border_left = rnd(-100, 500);
		p.border_right = rnd(-100, 500);
		p.border_top = rnd(-100, 300);
		p.border_bottom = rnd(-100, 300);
		UNIT_CHECK(!mmx_panning_check(&p, &t, fb_w, fb_h), "valid config");
		cx = rnd(-500, 8000);
		cy = rnd(-500, 6000);
		x = rnd(-1000, 9000);
		y = rnd(-1000, 7000);
		mmx_panning_follow(&p, &t, cx, cy, x, y, &x2, &y2);
		UNIT_CHECK(followed(x2, cx, t.bbox_x, t.bbox_w, p.left, p.width),
			   "case %d: x %d %s", n, x2,
			   p.width ? "outside the area" : "moved");
		UNIT_CHECK(followed(y2, cy, t.bbox_y, t.bbox_h, p.top, p.height),
			   "case %d: y %d %s", n, y2,
			   p.height ? "outside the area" : "moved");
		if (k < 3) {
			int32_t x3, y3;

			mmx_panning_follow(&p, &t, x2, y2, x, y, &x3, &y3);
			UNIT_CHECK(x3 == x2 && y3 == y2,
				   "case %d: (%d,%d) then (%d,%d)", n, x2, y2, x3,
				   y3);
		}
	}
	return 0;
}

/*
 * After a pan that the area allows, the clipped pointer shows at the border
 * it pushed: exactly for pixel-to-pixel transforms, within a pixel for the
 * keystone (the offset is rounded to an integer).
 */
static int test_pointer_on_border(void)
{
	static const s64 *ms[] = { m_identity, m_rot90, m_scale2, m_keystone };
	size_t k;

	for (k = 0; k < 4; k++) {
		struct mmx_transform t;
		struct mmx_panning p = PAN(0, 0, 16000, 12000);
		struct mmx_fixp u, v;
		int32_t x, y;
		int n;

		p.border_right = 64;
		p.border_bottom = 32;
		prep(&t, ms[k]);
		for (n = 0; n < 200; n++) {
			int32_t px = 4000 + rnd(-300, 300), py = 3000 + rnd(-300, 300);

			mmx_panning_follow(&p, &t, 3000, 2000, px, py, &x, &y);
			UNIT_CHECK(mmx_transform_point_inverse(&t,
				   mmx_fixp_from_int(px - x), mmx_fixp_from_int(py - y),
				   &u, &v), "inverse");
			/* inside [0, w - border) after the pan, on its edge
			 * (within one pixel) when the pointer pushed it */
			UNIT_CHECK(u.v >= -ONE && u.v < (int64_t)(1920 - 64 + 1) * ONE &&
				   v.v >= -ONE && v.v < (int64_t)(1080 - 32 + 1) * ONE,
				   "transform %zu pointer (%d,%d) at (%f,%f)", k, px, py,
				   u.v / 4294967296.0, v.v / 4294967296.0);
		}
	}
	return 0;
}

static const struct unit_case cases[] = {
	{ "check", "RandR's rules for the panning area, tracking and borders",
	  test_check },
	{ "follow", "xf86RandR13Pan cases: inside, beyond each edge, borders, tracking, transforms",
	  test_follow },
	{ "invariants", "random configurations stay in the panning area, idempotent",
	  test_invariants },
	{ "pointer-on-border", "the pushed pointer ends on the border, transformed too",
	  test_pointer_on_border },
};

UNIT_MAIN(cases)
