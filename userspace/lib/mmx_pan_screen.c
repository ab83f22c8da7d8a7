// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx's pure screen arithmetic, for every head at once: the multi-head
 * panning policy on top of one CRTC's (mmx_pan_crtc.c: mmx_panning_follow(),
 * RandR 1.3's xf86RandR13Pan()), the screen size xrandr computes, RandR's
 * screen-size checks and the placement of the screen framebuffer on a CRTC.
 * Documentation/libmmx.rst describes the semantics.
 */

#include "mmx_pan_screen.h"

/**
 * mmx_pan_enabled - whether a panning configuration pans at all
 * @p: the configuration
 *
 * Return: true when panning is enabled on at least one axis.
 */
bool mmx_pan_enabled(const struct mmx_panning *p)
{
	return p->width || p->height;
}

/**
 * mmx_pan_clamp - move a CRTC the least distance into its panning area
 * @p: its panning configuration
 * @t: its prepared transform (gives the bounding box)
 * @x: position, updated
 * @y: see @x
 *
 * On each axis with panning enabled, the CRTC's screen area is moved into
 * the panning area (the last step of mmx_panning_follow()); an axis without
 * panning keeps its position.
 */
void mmx_pan_clamp(const struct mmx_panning *p, const struct mmx_transform *t,
		   s32 *x, s32 *y)
{
	if (p->width)
		*x = mmx_panning_clamp_offset(*x, p->left, p->width,
					      t->bbox_x, t->bbox_w);
	if (p->height)
		*y = mmx_panning_clamp_offset(*y, p->top, p->height,
					      t->bbox_y, t->bbox_h);
}

/* Whether screen point (px, py) is in the area head @h shows. */
static bool mmx_pan_head_contains(const struct mmx_pan_head *h, s32 px,
				  s32 py)
{
	s64 x0 = (s64)h->x + h->t.bbox_x, y0 = (s64)h->y + h->t.bbox_y;

	return px >= x0 && px < x0 + h->t.bbox_w &&
	       py >= y0 && py < y0 + h->t.bbox_h;
}

/*
 * The joint mode's leader: the first panned head showing the pointer,
 * else the first one the pointer moves; its new offset in (@fx, @fy).
 * NULL when none.
 */
static const struct mmx_pan_head *
mmx_pan_leader(const struct mmx_pan_head *heads, u32 n, s32 ptr_x, s32 ptr_y,
	       s32 *fx, s32 *fy)
{
	const struct mmx_pan_head *lead = NULL;
	u32 i;

	for (i = 0; i < n && !lead; i++)
		if (mmx_pan_enabled(&heads[i].panning) &&
		    mmx_pan_head_contains(&heads[i], ptr_x, ptr_y))
			lead = &heads[i];
	if (lead) {
		mmx_panning_follow(&lead->panning, &lead->t, lead->x, lead->y,
				   ptr_x, ptr_y, fx, fy);
		return lead;
	}
	for (i = 0; i < n && !lead; i++) {
		if (!mmx_pan_enabled(&heads[i].panning))
			continue;
		mmx_panning_follow(&heads[i].panning, &heads[i].t,
				   heads[i].x, heads[i].y, ptr_x,
				   ptr_y, fx, fy);
		if (*fx != heads[i].x || *fy != heads[i].y)
			lead = &heads[i];
	}
	return lead;
}

/**
 * mmx_pan_follow_heads - the pointer moved: new positions of all CRTCs
 * @mode: %MMX_PAN_INDEPENDENT or %MMX_PAN_JOINT
 * @heads: the lit CRTCs
 * @n: entries in @heads
 * @ptr_x: pointer position on the screen
 * @ptr_y: see @ptr_x
 * @new_x: new positions, @n entries (unpanned CRTCs keep theirs)
 * @new_y: see @new_x
 *
 * Independent: each panned CRTC follows the pointer on its own
 * (mmx_panning_follow(): RandR 1.3's policy with the CRTC's transform).
 *
 * Joint: the panned CRTCs show one viewport. The leader is the first
 * panned CRTC whose current screen area contains the pointer, else the
 * first panned CRTC that the pointer would move; the leader's move
 * (mmx_panning_follow()) gives an offset delta, and every panned CRTC moves
 * by that delta on each of its panned axes, then is clamped into its own
 * panning area (mmx_pan_clamp()). Without a leader nothing moves.
 */
void mmx_pan_follow_heads(enum mmx_pan_mode mode,
			  const struct mmx_pan_head *heads, u32 n,
			  s32 ptr_x, s32 ptr_y, s32 *new_x, s32 *new_y)
{
	s32 fx = 0, fy = 0, dx, dy;
	const struct mmx_pan_head *lead;
	u32 i;

	for (i = 0; i < n; i++) {
		new_x[i] = heads[i].x;
		new_y[i] = heads[i].y;
	}

	if (mode != MMX_PAN_JOINT) {
		for (i = 0; i < n; i++)
			if (mmx_pan_enabled(&heads[i].panning))
				mmx_panning_follow(&heads[i].panning,
						   &heads[i].t, heads[i].x,
						   heads[i].y, ptr_x, ptr_y,
						   &new_x[i], &new_y[i]);
		return;
	}

	lead = mmx_pan_leader(heads, n, ptr_x, ptr_y, &fx, &fy);
	if (!lead)
		return;

	dx = fx - lead->x;
	dy = fy - lead->y;
	for (i = 0; i < n; i++) {
		const struct mmx_panning *p = &heads[i].panning;
		s32 x = heads[i].x, y = heads[i].y;

		if (!mmx_pan_enabled(p))
			continue;
		if (p->width)
			x += dx;
		if (p->height)
			y += dy;
		mmx_pan_clamp(p, &heads[i].t, &x, &y);
		new_x[i] = x;
		new_y[i] = y;
	}
}

/* Right and bottom edges of what head @h needs of the screen. */
static void mmx_screen_head_extent(const struct mmx_screen_head *h,
				   s64 *right, s64 *bottom)
{
	*right = (s64)h->x + h->bbox_x + h->bbox_w;
	*bottom = (s64)h->y + h->bbox_y + h->bbox_h;
	if (h->pan_width && (s64)h->pan_left + h->pan_width > *right)
		*right = (s64)h->pan_left + h->pan_width;
	if (h->pan_height && (s64)h->pan_top + h->pan_height > *bottom)
		*bottom = (s64)h->pan_top + h->pan_height;
}

/**
 * mmx_screen_size_auto - the screen size xrandr computes without --fb
 * @heads: the CRTCs
 * @n: entries in @heads
 * @lim: the driver's limits
 * @w: the size
 * @h: see @w
 *
 * The bounding box from the screen origin of the lit CRTCs' screen areas
 * (position plus transformed bounding box) and of their panning areas,
 * grown to the minimum size.
 *
 * Return: 0; -ENOENT when no CRTC is lit (@w, @h untouched); -EINVAL when
 * the box exceeds the maximum (@w, @h are then the box).
 */
int mmx_screen_size_auto(const struct mmx_screen_head *heads, u32 n,
			 const struct mmx_screen_limits *lim, u32 *w, u32 *h)
{
	s64 right = 0, bottom = 0, r, b;
	bool any = false;
	u32 i;

	for (i = 0; i < n; i++) {
		if (!heads[i].on)
			continue;
		any = true;
		mmx_screen_head_extent(&heads[i], &r, &b);
		if (r > right)
			right = r;
		if (b > bottom)
			bottom = b;
	}
	if (!any)
		return -ENOENT;
	if (right < lim->min_w)
		right = lim->min_w;
	if (bottom < lim->min_h)
		bottom = lim->min_h;
	*w = right > U32_MAX ? U32_MAX : (u32)right;
	*h = bottom > U32_MAX ? U32_MAX : (u32)bottom;
	return right > lim->max_w || bottom > lim->max_h ? -EINVAL : 0;
}

/**
 * mmx_screen_size_check - RandR's checks of a screen size (--fb)
 * @heads: the CRTCs
 * @n: entries in @heads
 * @lim: the driver's limits
 * @w: the screen size to check
 * @h: see @w
 * @bad: on -EINVAL, -1 when the size is out of [min, max], else the index
 *	of the first lit CRTC that does not fit
 *
 * RRSetScreenSize and RRSetCrtcConfig: the size within the limits; every
 * lit CRTC at a position >= 0 with its screen area's right and bottom
 * edges (position + bounding box) and its panning area inside the screen.
 * A bounding box reaching left of or above the screen origin (a negative
 * bbox_x, bbox_y) is allowed: that part shows black (mmx_screen_clip()).
 *
 * Return: 0 or -EINVAL.
 */
int mmx_screen_size_check(const struct mmx_screen_head *heads, u32 n,
			  const struct mmx_screen_limits *lim, u32 w, u32 h,
			  s32 *bad)
{
	s64 r, b;
	u32 i;

	*bad = -1;
	if (w < lim->min_w || h < lim->min_h || w > lim->max_w ||
	    h > lim->max_h || !w || !h)
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (!heads[i].on)
			continue;
		mmx_screen_head_extent(&heads[i], &r, &b);
		if (heads[i].x < 0 || heads[i].y < 0 || r > w || b > h) {
			*bad = (s32)i;
			return -EINVAL;
		}
	}
	return 0;
}

/**
 * mmx_screen_clip - the primary plane of a CRTC showing the screen
 * @x: the CRTC's position
 * @y: see @x
 * @bbox_x: its transformed bounding box, relative to the position: its
 *	CRTC space (Documentation/mmx.rst)
 * @bbox_y: see @bbox_x
 * @bbox_w: see @bbox_x
 * @bbox_h: see @bbox_x
 * @fb_w: size of the screen framebuffer
 * @fb_h: see @fb_w
 * @r: the plane's rectangles
 *
 * The plane covers the CRTC space (CRTC_X/Y = bbox origin) and shows the
 * screen from the position plus the bbox origin (so that SRC - CRTC = the
 * position, the scanout offset), clipped to the framebuffer: a part of
 * the area outside the framebuffer is cut from both rectangles alike.
 *
 * Return: false when nothing of the framebuffer is shown.
 */
bool mmx_screen_clip(s32 x, s32 y, s32 bbox_x, s32 bbox_y, u32 bbox_w,
		     u32 bbox_h, u32 fb_w, u32 fb_h, struct mmx_plane_rect *r)
{
	s64 sx = (s64)x + bbox_x, sy = (s64)y + bbox_y;
	s64 cx = bbox_x, cy = bbox_y, w = bbox_w, h = bbox_h;

	if (sx < 0) {
		cx -= sx;
		w += sx;
		sx = 0;
	}
	if (sy < 0) {
		cy -= sy;
		h += sy;
		sy = 0;
	}
	if (sx + w > fb_w)
		w = (s64)fb_w - sx;
	if (sy + h > fb_h)
		h = (s64)fb_h - sy;
	if (w <= 0 || h <= 0)
		return false;
	r->src_x = (s32)sx;
	r->src_y = (s32)sy;
	r->crtc_x = (s32)cx;
	r->crtc_y = (s32)cy;
	r->w = (u32)w;
	r->h = (u32)h;
	return true;
}
