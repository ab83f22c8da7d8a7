/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * RandR 1.3 panning of one CRTC: validation of its panning configuration
 * and the pointer-following policy. Panning is userspace's: libmmx keeps
 * the configuration with the display handle (mmxd for its clients, as the
 * X server does) and moves the CRTC's primary plane; the kernel only sees
 * the plane positions. Pure logic, no libdrm include (host tests compile it
 * alone).
 */

#ifndef _MMX_PAN_CRTC_H_
#define _MMX_PAN_CRTC_H_

#include "mmx_transform.h"

/**
 * struct mmx_panning - a CRTC's panning configuration, RandR's SetPanning
 * @left: left of the panning area, screen pixels
 * @top: top of the panning area
 * @width: width of the panning area; 0 disables panning horizontally
 * @height: height of the panning area; 0 disables panning vertically
 * @track_left: left of the tracking area: pointer positions that pan
 * @track_top: top of the tracking area
 * @track_width: width of the tracking area; 0 means the whole screen
 * @track_height: height of the tracking area; 0 means the whole screen
 * @border_left: distance from the CRTC's left edge at which the pointer
 *	starts panning (CRTC pixels; negative: beyond the edge)
 * @border_top: likewise from the top edge
 * @border_right: likewise from the right edge
 * @border_bottom: likewise from the bottom edge
 *
 * RandR's fields and meaning (randrproto.txt, RRSetPanning). All zero is
 * "no panning", the default.
 */
struct mmx_panning {
	u32 left;
	u32 top;
	u32 width;
	u32 height;
	u32 track_left;
	u32 track_top;
	u32 track_width;
	u32 track_height;
	s32 border_left;
	s32 border_top;
	s32 border_right;
	s32 border_bottom;
};

int mmx_panning_check(const struct mmx_panning *p,
		      const struct mmx_transform *t, u32 fb_w, u32 fb_h);
s32 mmx_panning_clamp_offset(s32 o, u32 start, u32 size, s32 box,
			     u32 box_size);
void mmx_panning_follow(const struct mmx_panning *p,
			const struct mmx_transform *t, s32 cur_x, s32 cur_y,
			s32 ptr_x, s32 ptr_y, s32 *new_x, s32 *new_y);

#endif /* _MMX_PAN_CRTC_H_ */
