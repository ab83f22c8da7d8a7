/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx's pure screen arithmetic: multi-head panning policy, screen size
 * (RandR SetScreenSize / xrandr's --fb) and the placement of the screen
 * framebuffer on a CRTC. No libdrm include: the host unit tests
 * (tests/unit/test_lib_pan_screen.c) call these directly.
 *
 * Coordinates are RandR's: a CRTC at position (x, y) whose transformed mode
 * has the bounding box (bbox_x, bbox_y, bbox_w, bbox_h) (relative to the
 * position, see struct mmx_transform) shows the screen area
 * [x + bbox_x, x + bbox_x + bbox_w) x [y + bbox_y, y + bbox_y + bbox_h).
 */

#ifndef MMX_PAN_SCREEN_H
#define MMX_PAN_SCREEN_H

#include "libmmx.h"
#include "mmx_pan_crtc.h"

/**
 * struct mmx_pan_head - one lit CRTC as the panning policy sees it
 * @panning: its panning configuration (all zero: not panned)
 * @t: its prepared transform, rotation included (mmx_transform_identity()
 *	of the mode size without one)
 * @x: current position (scanout offset)
 * @y: see @x
 */
struct mmx_pan_head {
	struct mmx_panning panning;
	struct mmx_transform t;
	s32 x;
	s32 y;
};

bool mmx_pan_enabled(const struct mmx_panning *p);
void mmx_pan_clamp(const struct mmx_panning *p, const struct mmx_transform *t,
		   s32 *x, s32 *y);
void mmx_pan_follow_heads(enum mmx_pan_mode mode,
			  const struct mmx_pan_head *heads, u32 n,
			  s32 ptr_x, s32 ptr_y, s32 *new_x, s32 *new_y);

/**
 * struct mmx_screen_head - one CRTC as the screen-size arithmetic sees it
 * @on: the CRTC is lit (the other fields matter only then)
 * @x: position
 * @y: see @x
 * @bbox_x: bounding box of the transformed mode, relative to @x, @y
 * @bbox_y: see @bbox_x
 * @bbox_w: see @bbox_x
 * @bbox_h: see @bbox_x
 * @pan_left: panning area (width 0 / height 0: none on that axis)
 * @pan_top: see @pan_left
 * @pan_width: see @pan_left
 * @pan_height: see @pan_left
 */
struct mmx_screen_head {
	bool on;
	s32 x;
	s32 y;
	s32 bbox_x;
	s32 bbox_y;
	u32 bbox_w;
	u32 bbox_h;
	u32 pan_left;
	u32 pan_top;
	u32 pan_width;
	u32 pan_height;
};

/**
 * struct mmx_screen_limits - smallest and largest screen (mode_config)
 * @min_w: smallest width
 * @min_h: smallest height
 * @max_w: largest width
 * @max_h: largest height
 */
struct mmx_screen_limits {
	u32 min_w;
	u32 min_h;
	u32 max_w;
	u32 max_h;
};

int mmx_screen_size_auto(const struct mmx_screen_head *heads, u32 n,
			 const struct mmx_screen_limits *lim, u32 *w, u32 *h);
int mmx_screen_size_check(const struct mmx_screen_head *heads, u32 n,
			  const struct mmx_screen_limits *lim, u32 w, u32 h,
			  s32 *bad);

/**
 * struct mmx_plane_rect - where a primary plane shows the screen
 * @src_x: source rectangle in the screen framebuffer, whole pixels
 * @src_y: see @src_x
 * @crtc_x: destination in CRTC space (may be negative)
 * @crtc_y: see @crtc_x
 * @w: width of both rectangles
 * @h: height of both rectangles
 */
struct mmx_plane_rect {
	s32 src_x;
	s32 src_y;
	s32 crtc_x;
	s32 crtc_y;
	u32 w;
	u32 h;
};

bool mmx_screen_clip(s32 x, s32 y, s32 bbox_x, s32 bbox_y, u32 bbox_w,
		     u32 bbox_h, u32 fb_w, u32 fb_h, struct mmx_plane_rect *r);

#endif /* MMX_PAN_SCREEN_H */
