// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of libmmx's pure screen arithmetic (userspace/lib/mmx_pan_screen.c):
 * the panning policy (RandR 1.3's single-CRTC cases, independent and joint
 * multi-head, with a scale and a rotation), the screen size xrandr
 * computes (and mmx_screen_bbox(), its public form), RandR's screen-size
 * checks (--fb) and the placement of the
 * screen framebuffer on a CRTC.
 *
 * Expected values are computed by hand from RandR's rules (X server
 * xf86RandR13Pan(): a pointer beyond the right border pans to
 * x - width + border_right + 1, beyond the left border to x - border_left)
 * and from the formulas of Documentation/libmmx.rst; each case says how.
 */

#include <errno.h>
#include <stdint.h>

#include "unit.h"
#include "mmx_matrix.h"
#include "mmx_pan_screen.h"

/* A transform of a W x H mode: rotation (MMX_ROTATE_*) then matrix @m. */
static int prepare(struct mmx_transform *t, const double *m,
		   uint32_t rotation, uint32_t w, uint32_t h)
{
	return mmx_matrix_prepare(t, NULL, m, rotation, w, h, 8192);
}

static struct mmx_panning pan(u32 w, u32 h, u32 l, u32 t)
{
	struct mmx_panning p = { .left = l, .top = t, .width = w,
				 .height = h };

	return p;
}

/* One 320x240 head at (x, y) with panning @p, identity. */
static void head(struct mmx_pan_head *hd, struct mmx_panning p, s32 x, s32 y)
{
	memset(hd, 0, sizeof(*hd));
	mmx_transform_identity(&hd->t, 320, 240);
	hd->panning = p;
	hd->x = x;
	hd->y = y;
}

static int follow1(const struct mmx_pan_head *hd, s32 px, s32 py, s32 ex,
		   s32 ey, const char *what)
{
	s32 nx, ny;

	mmx_pan_follow_heads(MMX_PAN_INDEPENDENT, hd, 1, px, py, &nx, &ny);
	UNIT_CHECK(nx == ex && ny == ey,
		   "%s: pointer (%d,%d) from (%d,%d): got (%d,%d), want (%d,%d)",
		   what, px, py, hd->x, hd->y, nx, ny, ex, ey);
	return 0;
}

/* RandR's single-head cases: 320x240 mode, panning area 640x480+0+0. */
static int test_randr_single(void)
{
	struct mmx_pan_head h;

	head(&h, pan(640, 480, 0, 0), 0, 0);
	/* right border: 400 - 320 + 0 + 1 = 81; y inside: unchanged */
	if (follow1(&h, 400, 100, 81, 0, "right"))
		return -1;
	/* from (81, 0): left border: x - 0 = 10; bottom: 300 - 240 + 1 */
	h.x = 81;
	if (follow1(&h, 10, 300, 10, 61, "left+bottom"))
		return -1;
	/* beyond the panning area: the pointer is clipped to (639, 479):
	 * 639 - 320 + 1 = 320, 479 - 240 + 1 = 240 (the area's far corner) */
	h.x = 10;
	h.y = 61;
	if (follow1(&h, 700, 500, 320, 240, "clip"))
		return -1;
	/* inside the CRTC: nothing moves */
	h.x = 100;
	h.y = 100;
	if (follow1(&h, 200, 200, 100, 100, "inside"))
		return -1;
	/* no panning at all: nothing moves, even far away */
	head(&h, pan(0, 0, 0, 0), 5, 7);
	return follow1(&h, 1000, 1000, 5, 7, "no panning");
}

/* Tracking area and borders. */
static int test_randr_track_borders(void)
{
	struct mmx_pan_head h;

	/* tracking area 500x100+0+0: (400, 100) is outside (y = 100 is not
	 * < 100): no pan */
	head(&h, pan(640, 480, 0, 0), 0, 0);
	h.panning.track_width = 500;
	h.panning.track_height = 100;
	if (follow1(&h, 400, 100, 0, 0, "outside tracking"))
		return -1;
	/* (400, 99) is inside: 400 - 320 + 1 = 81 */
	if (follow1(&h, 400, 99, 81, 0, "inside tracking"))
		return -1;
	/* (510, 50) is right of it: no pan */
	if (follow1(&h, 510, 50, 0, 0, "right of tracking"))
		return -1;
	/* border_right 20: 310 - 320 + 20 + 1 = 11 */
	head(&h, pan(640, 480, 0, 0), 0, 0);
	h.panning.border_right = 20;
	if (follow1(&h, 310, 10, 11, 0, "border right"))
		return -1;
	/* border_left 30 from (100, 0): pointer 120 is at 20 < 30:
	 * 120 - 30 = 90 */
	h.x = 100;
	h.panning.border_left = 30;
	if (follow1(&h, 120, 10, 90, 0, "border left"))
		return -1;
	/* panning only horizontally (height 0): y never changes */
	head(&h, pan(640, 0, 0, 0), 0, 0);
	return follow1(&h, 400, 300, 81, 0, "horizontal only");
}

/* A 2x scale (M = 2,0,0,0,2,0,0,0,1) of a 320x240 mode: a 640x480 area,
 * panning area 1280x960. */
static int test_scale(void)
{
	static const double scale2[9] = { 2, 0, 0, 0, 2, 0, 0, 0, 1 };
	struct mmx_pan_head h;

	head(&h, pan(1280, 960, 0, 0), 0, 0);
	UNIT_CHECK(!prepare(&h.t, scale2, MMX_ROTATE_0, 320, 240),
		   "prepare 2x");
	UNIT_CHECK(h.t.bbox_w == 640 && h.t.bbox_h == 480, "bbox %ux%u",
		   h.t.bbox_w, h.t.bbox_h);
	/* pointer (700, 100) is output point (350, 50): clamped to 319,
	 * which shows screen x 638: offset 700 - 638 = 62 */
	if (follow1(&h, 700, 100, 62, 0, "2x right"))
		return -1;
	/* beyond the panning area: clipped to 1279: output 319 shows 638:
	 * 1279 - 638 = 641, then the area [641, 1281) leaves the panning
	 * area: clamped to 1280 - 640 = 640 */
	return follow1(&h, 2000, 100, 640, 0, "2x far right");
}

/* Rotation left of a 320x240 mode (RandR: output (u, v) shows screen
 * (240 - v, u), a 240x320 area), panning area 480x640. */
static int test_rotation(void)
{
	struct mmx_pan_head h;

	head(&h, pan(480, 640, 0, 0), 0, 0);
	UNIT_CHECK(!prepare(&h.t, NULL, MMX_ROTATE_90, 320, 240),
		   "prepare left");
	UNIT_CHECK(h.t.bbox_x == 0 && h.t.bbox_y == 0 && h.t.bbox_w == 240 &&
		   h.t.bbox_h == 320, "bbox %d,%d %ux%u", h.t.bbox_x,
		   h.t.bbox_y, h.t.bbox_w, h.t.bbox_h);
	/* pointer (300, 10) is output (u, v) = (10, -60): v clamped to 0,
	 * which shows screen (240, 10): offset (300 - 240, 10 - 10) */
	if (follow1(&h, 300, 10, 60, 0, "left: right edge"))
		return -1;
	/* pointer (100, 400) is output (400, 140): u clamped to 319, which
	 * shows screen (100, 319): offset (0, 400 - 319 = 81) */
	return follow1(&h, 100, 400, 0, 81, "left: bottom edge");
}

/* Two 320x240 heads side by side, each panning a 640x480 area:
 * A [0, 640) x [0, 480) at (0, 0), B [640, 1280) x [0, 480) at (640, 0). */
static void two_heads(struct mmx_pan_head *h)
{
	head(&h[0], pan(640, 480, 0, 0), 0, 0);
	head(&h[1], pan(640, 480, 640, 0), 640, 0);
}

static int follow2(enum mmx_pan_mode mode, const struct mmx_pan_head *h,
		   s32 px, s32 py, s32 ax, s32 ay, s32 bx, s32 by,
		   const char *what)
{
	s32 nx[2], ny[2];

	mmx_pan_follow_heads(mode, h, 2, px, py, nx, ny);
	UNIT_CHECK(nx[0] == ax && ny[0] == ay && nx[1] == bx && ny[1] == by,
		   "%s (%s): pointer (%d,%d): got A (%d,%d) B (%d,%d), want A (%d,%d) B (%d,%d)",
		   what, mode == MMX_PAN_JOINT ? "joint" : "independent",
		   px, py, nx[0], ny[0], nx[1], ny[1], ax, ay, bx, by);
	return 0;
}

static int test_multi_head(void)
{
	struct mmx_pan_head h[2];

	two_heads(h);
	/*
	 * Pointer (400, 100), on neither CRTC. Independent: A pans to 81
	 * (400 - 320 + 1); B clips the pointer to its area (640) which it
	 * shows already: stays. Joint: A is the first that moves: delta
	 * (81, 0) for both: B at 721, inside [640, 960].
	 */
	if (follow2(MMX_PAN_INDEPENDENT, h, 400, 100, 81, 0, 640, 0, "off"))
		return -1;
	if (follow2(MMX_PAN_JOINT, h, 400, 100, 81, 0, 721, 0, "off"))
		return -1;
	/*
	 * Pointer (950, 230) on B, which does not need to move. Joint: B
	 * leads, delta 0: nothing moves. Independent: A clips the pointer to
	 * (639, 230) and pans to 639 - 320 + 1 = 320.
	 */
	if (follow2(MMX_PAN_JOINT, h, 950, 230, 0, 0, 640, 0, "on B"))
		return -1;
	if (follow2(MMX_PAN_INDEPENDENT, h, 950, 230, 320, 0, 640, 0,
		    "on B"))
		return -1;
	/*
	 * B with border_bottom 20, pointer (700, 239) on B: 239 >= 240 - 20:
	 * B pans to 239 - 240 + 20 + 1 = 20. Joint: A follows by (0, 20).
	 * Independent: A clips the pointer to (639, 239): x pans to 320, y
	 * stays 0 (239 - 0 is inside A's rows).
	 */
	h[1].panning.border_bottom = 20;
	if (follow2(MMX_PAN_JOINT, h, 700, 239, 0, 20, 640, 20, "B leads"))
		return -1;
	if (follow2(MMX_PAN_INDEPENDENT, h, 700, 239, 320, 0, 640, 20,
		    "B leads"))
		return -1;
	/*
	 * Joint deltas clamp per head: A at (300, 0), B at (640, 0); pointer
	 * (1279, 0) on neither. A clips it to 639, at 339 >= 320 in A: A
	 * pans to 639 - 320 + 1 = 320, delta 20; B moves to 660.
	 */
	two_heads(h);
	h[0].x = 300;
	if (follow2(MMX_PAN_JOINT, h, 1279, 0, 320, 0, 660, 0, "clamped"))
		return -1;
	/*
	 * A already at its far right (320) does not move; B is the first
	 * that does: 1279 - 320 + 1 = 960, delta 320. A clamps 640 back to
	 * 320 (the right end of its panning area).
	 */
	h[0].x = 320;
	if (follow2(MMX_PAN_JOINT, h, 1279, 0, 320, 0, 960, 0, "B moves"))
		return -1;
	/*
	 * B pans horizontally only (height 0): pointer (300, 300) on
	 * neither: A pans y to 300 - 240 + 1 = 61; delta (0, 61): B keeps
	 * its y (no vertical panning).
	 */
	two_heads(h);
	h[1].panning.height = 0;
	return follow2(MMX_PAN_JOINT, h, 300, 300, 0, 61, 640, 0,
		       "B horizontal only");
}

/* Joint with a rotated head: A left-rotated (a 240x320 area) panning
 * 480x640+0+0, B identity at (480, 0) panning 640x480+480+0. */
static int test_multi_head_rotated(void)
{
	struct mmx_pan_head h[2];

	head(&h[0], pan(480, 640, 0, 0), 0, 0);
	UNIT_CHECK(!prepare(&h[0].t, NULL, MMX_ROTATE_90, 320, 240),
		   "prepare left");
	head(&h[1], pan(640, 480, 480, 0), 480, 0);
	/* pointer (300, 10): on neither; A moves to (60, 0) (test_rotation);
	 * joint: B by 60 too: 540 in [480, 800] */
	if (follow2(MMX_PAN_JOINT, h, 300, 10, 60, 0, 540, 0, "rotated"))
		return -1;
	/* independent: B clips the pointer to (480, 10), shown: stays */
	return follow2(MMX_PAN_INDEPENDENT, h, 300, 10, 60, 0, 480, 0,
		       "rotated");
}

static const struct mmx_screen_limits lim = { 320, 200, 8192, 8192 };

static struct mmx_screen_head sh(s32 x, s32 y, s32 bx, s32 by, u32 bw, u32 bh)
{
	struct mmx_screen_head h = {
		.on = true, .x = x, .y = y, .bbox_x = bx, .bbox_y = by,
		.bbox_w = bw, .bbox_h = bh,
	};

	return h;
}

static int test_screen_size_auto(void)
{
	struct mmx_screen_head h[3];
	u32 w = 0, ht = 0;
	int ret;

	/* 320x240 at (0,0) and a left-rotated 240x320 at (320,0):
	 * 320 + 240 = 560 wide, max(240, 320) = 320 high */
	h[0] = sh(0, 0, 0, 0, 320, 240);
	h[1] = sh(320, 0, 0, 0, 240, 320);
	memset(&h[2], 0, sizeof(h[2]));
	ret = mmx_screen_size_auto(h, 3, &lim, &w, &ht);
	UNIT_CHECK(!ret && w == 560 && ht == 320, "two heads: %d %ux%u", ret,
		   w, ht);
	/* a panning area 1000x600+0+0 on the first widens it */
	h[0].pan_width = 1000;
	h[0].pan_height = 600;
	ret = mmx_screen_size_auto(h, 3, &lim, &w, &ht);
	UNIT_CHECK(!ret && w == 1000 && ht == 600, "panning: %d %ux%u", ret,
		   w, ht);
	/* a 100x50 head alone: the minimum 320x200 */
	h[0] = sh(0, 0, 0, 0, 100, 50);
	ret = mmx_screen_size_auto(h, 1, &lim, &w, &ht);
	UNIT_CHECK(!ret && w == 320 && ht == 200, "min: %d %ux%u", ret, w,
		   ht);
	/* the keystone of the uAPI example at (150, 24): bbox (-150, -24)
	 * 2240x1104: right 150 - 150 + 2240, bottom 24 - 24 + 1104 */
	h[0] = sh(150, 24, -150, -24, 2240, 1104);
	ret = mmx_screen_size_auto(h, 1, &lim, &w, &ht);
	UNIT_CHECK(!ret && w == 2240 && ht == 1104, "keystone: %d %ux%u", ret,
		   w, ht);
	/* beyond the maximum: 8000 + 320 = 8320 > 8192 */
	h[0] = sh(8000, 0, 0, 0, 320, 240);
	ret = mmx_screen_size_auto(h, 1, &lim, &w, &ht);
	UNIT_CHECK(ret == -EINVAL && w == 8320, "max: %d %ux%u", ret, w, ht);
	/* nothing lit */
	h[0].on = false;
	w = 7;
	ret = mmx_screen_size_auto(h, 1, &lim, &w, &ht);
	UNIT_CHECK(ret == -ENOENT && w == 7, "none: %d", ret);
	return 0;
}

/* The public mmx_screen_bbox(): CRTC infos, no minimum, no maximum. */
static int test_screen_bbox(void)
{
	struct mmx_crtc_info c[3];
	uint32_t w = 7, ht = 7;
	int ret;

	memset(c, 0, sizeof(c));
	/* nothing lit: -ENOENT, 0x0 */
	ret = mmx_screen_bbox(c, 3, &w, &ht);
	UNIT_CHECK(ret == -ENOENT && !w && !ht, "none: %d %ux%u", ret, w, ht);
	/*
	 * 100x50 at (0,0) and the uAPI example's keystone at (150, 24),
	 * bbox (-150, -24) 2240x1104: 2240 x 1104, nothing grown to a
	 * minimum; the third CRTC is off, its area does not count
	 */
	c[0].mode_valid = 1;
	c[0].width = 100;
	c[0].height = 50;
	c[1].mode_valid = 1;
	c[1].x = 150;
	c[1].y = 24;
	c[1].bbox_x = -150;
	c[1].bbox_y = -24;
	c[1].width = 2240;
	c[1].height = 1104;
	c[2].x = 9000;
	c[2].width = 9000;
	c[2].height = 9000;
	ret = mmx_screen_bbox(c, 3, &w, &ht);
	UNIT_CHECK(!ret && w == 2240 && ht == 1104, "two lit: %d %ux%u", ret,
		   w, ht);
	/* the first one's panning area 3000x1200+0+0 widens the screen */
	c[0].panning.width = 3000;
	c[0].panning.height = 1200;
	ret = mmx_screen_bbox(c, 3, &w, &ht);
	UNIT_CHECK(!ret && w == 3000 && ht == 1200, "panning: %d %ux%u", ret,
		   w, ht);
	/* no maximum: 9000 + 9000 */
	c[2].mode_valid = 1;
	ret = mmx_screen_bbox(c, 3, &w, &ht);
	UNIT_CHECK(!ret && w == 18000 && ht == 9000, "large: %d %ux%u", ret,
		   w, ht);
	ret = mmx_screen_bbox(NULL, 1, &w, &ht);
	UNIT_CHECK(ret == -EINVAL, "no CRTCs: %d", ret);
	return 0;
}

static int test_screen_size_check(void)
{
	struct mmx_screen_head h[2];
	s32 bad = 99;
	int ret;

	h[0] = sh(0, 0, 0, 0, 320, 240);
	h[1] = sh(320, 0, 0, 0, 320, 240);
	ret = mmx_screen_size_check(h, 2, &lim, 1024, 768, &bad);
	UNIT_CHECK(!ret && bad == -1, "fits: %d %d", ret, bad);
	/* exactly the bounding box: 640x240 is >= min 320x200 */
	ret = mmx_screen_size_check(h, 2, &lim, 640, 240, &bad);
	UNIT_CHECK(!ret, "exact: %d", ret);
	/* below the minimum, above the maximum, zero */
	ret = mmx_screen_size_check(h, 2, &lim, 1024, 100, &bad);
	UNIT_CHECK(ret == -EINVAL && bad == -1, "min: %d %d", ret, bad);
	ret = mmx_screen_size_check(h, 2, &lim, 9000, 768, &bad);
	UNIT_CHECK(ret == -EINVAL && bad == -1, "max: %d %d", ret, bad);
	/* the second head ends at 640 > 600 */
	ret = mmx_screen_size_check(h, 2, &lim, 600, 480, &bad);
	UNIT_CHECK(ret == -EINVAL && bad == 1, "second: %d %d", ret, bad);
	/* a panning area 1000 wide on the first does not fit 800 */
	h[0].pan_width = 1000;
	h[0].pan_height = 240;
	ret = mmx_screen_size_check(h, 2, &lim, 800, 480, &bad);
	UNIT_CHECK(ret == -EINVAL && bad == 0, "panning: %d %d", ret, bad);
	/* a negative position is refused */
	h[0] = sh(-1, 0, 0, 0, 320, 240);
	ret = mmx_screen_size_check(h, 1, &lim, 1024, 768, &bad);
	UNIT_CHECK(ret == -EINVAL && bad == 0, "negative: %d %d", ret, bad);
	/* a negative bbox origin is fine: (0,0) bbox (-10,-10) 340x260
	 * ends at 330, 250 */
	h[0] = sh(0, 0, -10, -10, 340, 260);
	ret = mmx_screen_size_check(h, 1, &lim, 330, 250, &bad);
	UNIT_CHECK(!ret, "negative bbox: %d %d", ret, bad);
	/* off heads do not count */
	h[0].on = false;
	ret = mmx_screen_size_check(h, 1, &lim, 320, 200, &bad);
	UNIT_CHECK(!ret, "off: %d", ret);
	return 0;
}

static int check_clip(s32 x, s32 y, s32 bx, s32 by, u32 bw, u32 bh, u32 fw,
		      u32 fh, const struct mmx_plane_rect *want)
{
	struct mmx_plane_rect r;
	bool ok = mmx_screen_clip(x, y, bx, by, bw, bh, fw, fh, &r);

	if (!want) {
		UNIT_CHECK(!ok, "(%d,%d): expected nothing shown", x, y);
		return 0;
	}
	UNIT_CHECK(ok && !memcmp(&r, want, sizeof(r)),
		   "(%d,%d) bbox %d,%d %ux%u fb %ux%u: got src %d,%d crtc %d,%d %ux%u, want src %d,%d crtc %d,%d %ux%u",
		   x, y, bx, by, bw, bh, fw, fh, r.src_x, r.src_y, r.crtc_x,
		   r.crtc_y, r.w, r.h, want->src_x, want->src_y,
		   want->crtc_x, want->crtc_y, want->w, want->h);
	/* the scanout offset is the position */
	UNIT_CHECK(r.src_x - r.crtc_x == x && r.src_y - r.crtc_y == y,
		   "SRC - CRTC != position");
	return 0;
}

static int test_clip(void)
{
	static const struct mmx_plane_rect plain = { 100, 50, 0, 0, 320, 240 };
	/* keystone bbox at (0,0): 150 and 24 pixels left of/above the
	 * screen are cut: src (0,0), crtc (0,0), 2240-150 x 1104-24 */
	static const struct mmx_plane_rect key0 = { 0, 0, 0, 0, 2090, 1080 };
	/* at (200, 100): src starts at 50, 76; the right and bottom are
	 * cut at the 2240x1104 framebuffer: 2240 - 50, 1104 - 76 */
	static const struct mmx_plane_rect key1 = { 50, 76, -150, -24, 2190,
						    1028 };

	if (check_clip(100, 50, 0, 0, 320, 240, 1024, 768, &plain))
		return -1;
	if (check_clip(0, 0, -150, -24, 2240, 1104, 2240, 1104, &key0))
		return -1;
	if (check_clip(200, 100, -150, -24, 2240, 1104, 2240, 1104, &key1))
		return -1;
	return check_clip(5000, 0, 0, 0, 320, 240, 1024, 768, NULL);
}

static const struct unit_case cases[] = {
	{ "randr-single", "RandR single-head panning cases",
	  test_randr_single },
	{ "randr-track-borders", "tracking area and borders",
	  test_randr_track_borders },
	{ "pan-scale", "panning with a 2x scale transform", test_scale },
	{ "pan-rotation", "panning with rotation left", test_rotation },
	{ "pan-multi-head", "independent and joint panning, two heads",
	  test_multi_head },
	{ "pan-multi-head-rotated", "joint panning with a rotated head",
	  test_multi_head_rotated },
	{ "screen-size-auto", "xrandr's screen size: bbox, panning, min, max",
	  test_screen_size_auto },
	{ "screen-bbox", "mmx_screen_bbox(): the lit CRTCs' extent",
	  test_screen_bbox },
	{ "screen-size-check", "RandR's --fb checks", test_screen_size_check },
	{ "screen-clip", "primary plane rectangles clipped to the screen",
	  test_clip },
};

UNIT_MAIN(cases)
