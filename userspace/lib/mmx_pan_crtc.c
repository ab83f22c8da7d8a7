// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * RandR 1.3 panning, as the X server implements it in
 * hw/xfree86/modes/xf86RandR12.c (xf86RandR13VerifyPanningArea() and
 * xf86RandR13Pan()), in integer arithmetic and completed for transformed
 * CRTCs.
 *
 * Coordinates: the CRTC's scanout offset (x, y) is RandR's CRTC position:
 * with a transform M, output point c shows the screen point M c / w + (x, y)
 * (the X server's crtc_to_framebuffer = translate(x, y) * M). Without a
 * transform, output point c shows screen point c + (x, y).
 */

#include "mmx_pan_crtc.h"

#define MMX_PAN_S16_MIN	(-32768)
#define MMX_PAN_S16_MAX	32767
#define MMX_PAN_U16_MAX	65535u

static bool mmx_pan_border_ok(s32 b)
{
	return b >= MMX_PAN_S16_MIN && b <= MMX_PAN_S16_MAX;
}

/* One axis of the panning area; see mmx_panning_check(). */
static int mmx_pan_check_axis(u32 start, u32 size, u32 track_start,
			      u32 track_size, s32 border_a, s32 border_b,
			      u32 crtc_size, u32 mode_size, u32 fb_size)
{
	if (track_start > MMX_PAN_U16_MAX || track_size > MMX_PAN_U16_MAX ||
	    !mmx_pan_border_ok(border_a) || !mmx_pan_border_ok(border_b))
		return -EINVAL;
	if (!size)
		return start ? -EINVAL : 0;
	if (size < crtc_size || (u64)start + size > fb_size)
		return -EINVAL;
	if ((s64)border_a + border_b > (s64)mode_size)
		return -EINVAL;
	return 0;
}

/**
 * mmx_panning_check - validate a panning configuration, RandR's rules
 * @p: the configuration
 * @t: the CRTC's prepared transform (identity without one): gives the mode
 *	size and the CRTC's size on the screen (the bounding box)
 * @fb_w: width of the screen (framebuffer) the CRTC scans out
 * @fb_h: height of the screen
 *
 * Per axis, as RRSetPanning and xf86RandR13VerifyPanningArea() require:
 * a width of 0 disables panning horizontally and then needs left = 0 (the
 * tracking area and borders of a disabled axis are ignored); otherwise the
 * width must be at least the CRTC's width on the screen (its transformed
 * width: RandR checks the mode width, which is the same without a
 * transform), the area must lie inside the screen (left + width <= fb_w),
 * and border_left + border_right must not exceed the mode width (borders
 * are measured in CRTC pixels). Likewise vertically. Values RandR's wire
 * types cannot carry (tracking fields above 65535, borders outside INT16)
 * are refused too.
 *
 * Return: 0, or -EINVAL.
 */
int mmx_panning_check(const struct mmx_panning *p,
		      const struct mmx_transform *t, u32 fb_w, u32 fb_h)
{
	int ret;

	ret = mmx_pan_check_axis(p->left, p->width, p->track_left,
				 p->track_width, p->border_left,
				 p->border_right, t->bbox_w, t->out_w, fb_w);
	if (ret)
		return ret;
	return mmx_pan_check_axis(p->top, p->height, p->track_top,
				  p->track_height, p->border_top,
				  p->border_bottom, t->bbox_h, t->out_h, fb_h);
}

static bool mmx_pan_in_track(s32 v, u32 start, u32 size)
{
	return !size || (v >= (s64)start && v < (s64)start + size);
}

static s32 mmx_pan_clamp_pointer(s32 v, u32 start, u32 size)
{
	if (v < (s64)start)
		return (s32)start;
	if (v >= (s64)start + size)
		return (s32)((s64)start + size - 1);
	return v;
}

/* Clamp c to [border_a, size - border_b), as xf86RandR13Pan() does. */
static bool mmx_pan_clamp_crtc(struct mmx_fixp *c, s32 border_a,
			       s32 border_b, u32 size)
{
	bool panned = false;

	if (c->v < (s64)border_a * MMX_FIXP_ONE) {
		*c = mmx_fixp_from_int(border_a);
		panned = true;
	}
	if (c->v >= ((s64)size - border_b) * MMX_FIXP_ONE) {
		*c = mmx_fixp_from_raw(((s64)size - border_b - 1) *
				       MMX_FIXP_ONE);
		panned = true;
	}
	return panned;
}

/**
 * mmx_panning_clamp_offset - keep a CRTC's screen area in its panning area
 * @o: CRTC position (screen coordinate of the CRTC origin) on one axis
 * @start: start of the panning area on that axis
 * @size: size of the panning area
 * @box: start of the CRTC space (transformed bounding box) relative to @o
 * @box_size: size of the CRTC space
 *
 * Return: the position nearest to @o that keeps [o + box, o + box +
 * box_size) inside [start, start + size); the lower bound wins if the
 * area is too small (as X does).
 */
s32 mmx_panning_clamp_offset(s32 o, u32 start, u32 size, s32 box,
			     u32 box_size)
{
	s64 hi = (s64)start + size - box_size - box, lo = (s64)start - box;
	s64 v = o;

	/* upper bound first, as X does, so that lo wins if they cross */
	if (v > hi)
		v = hi;
	if (v < lo)
		v = lo;
	return (s32)v;
}

/*
 * The offset (@nx, @ny) that shows pointer (@x, @y), clipped to the panning
 * area, at the CRTC border it went past; unchanged when the pointer is
 * within the borders or not shown.
 */
static void mmx_pan_to_pointer(const struct mmx_panning *p,
			       const struct mmx_transform *t, s32 cur_x,
			       s32 cur_y, s32 x, s32 y, s32 *nx, s32 *ny)
{
	bool pan_x = p->width, pan_y = p->height, panned = false;
	struct mmx_fixp cx, cy, sx, sy;

	if (pan_x)
		x = mmx_pan_clamp_pointer(x, p->left, p->width);
	if (pan_y)
		y = mmx_pan_clamp_pointer(y, p->top, p->height);

	sx = mmx_fixp_from_raw(((s64)x - cur_x) * MMX_FIXP_ONE);
	sy = mmx_fixp_from_raw(((s64)y - cur_y) * MMX_FIXP_ONE);
	if (t->kind == MMX_TRANSFORM_IDENTITY) {
		cx = sx;
		cy = sy;
	} else if (!mmx_transform_point_inverse(t, sx, sy, &cx, &cy)) {
		return;	/* beyond the line at infinity: not shown */
	}

	if (pan_x && mmx_pan_clamp_crtc(&cx, p->border_left, p->border_right,
					t->out_w))
		panned = true;
	if (pan_y && mmx_pan_clamp_crtc(&cy, p->border_top, p->border_bottom,
					t->out_h))
		panned = true;
	if (!panned)
		return;

	if (t->kind == MMX_TRANSFORM_IDENTITY) {
		sx = cx;
		sy = cy;
	} else if (!mmx_transform_point(t, cx, cy, &sx, &sy)) {
		return;
	}
	/* offset = pointer - M c, nearest integer, halves down */
	if (pan_x)
		*nx = (s32)-mmx_fixp_round(mmx_fixp_from_raw(sx.v -
							     (s64)x * MMX_FIXP_ONE));
	if (pan_y)
		*ny = (s32)-mmx_fixp_round(mmx_fixp_from_raw(sy.v -
							     (s64)y * MMX_FIXP_ONE));
}

/**
 * mmx_panning_follow - the pointer-following policy of RandR panning
 * @p: a configuration that passed mmx_panning_check()
 * @t: the CRTC's prepared transform (identity without one)
 * @cur_x: current scanout offset x (RandR's CRTC x)
 * @cur_y: current scanout offset y
 * @ptr_x: pointer position on the screen
 * @ptr_y: pointer position on the screen
 * @new_x: new scanout offset x
 * @new_y: new scanout offset y
 *
 * xf86RandR13Pan(): when the pointer is inside the tracking area (an empty
 * tracking axis means the whole screen), it is first clipped to the panning
 * area, then mapped into CRTC space (through the inverse transform); if it
 * is closer to a CRTC edge than that edge's border, it is moved to the
 * border and the offset is chosen so that the clipped pointer shows there:
 * offset = pointer - M c, rounded to the nearest integer (halves down, like
 * X's old - floor(d + 1/2)). Finally the offset is clamped so that the
 * CRTC's screen area stays inside the panning area; X skips this step with a
 * transform ("only works when we do not have a transform"), here the
 * CRTC's area is its transformed bounding box, which makes it exact for any
 * transform. Axes with panning disabled keep their offset.
 */
void mmx_panning_follow(const struct mmx_panning *p,
			const struct mmx_transform *t, s32 cur_x, s32 cur_y,
			s32 ptr_x, s32 ptr_y, s32 *new_x, s32 *new_y)
{
	bool pan_x = p->width, pan_y = p->height;
	s32 nx = cur_x, ny = cur_y;

	if (!pan_x && !pan_y)
		goto out;
	if (mmx_pan_in_track(ptr_x, p->track_left, p->track_width) &&
	    mmx_pan_in_track(ptr_y, p->track_top, p->track_height))
		mmx_pan_to_pointer(p, t, cur_x, cur_y, ptr_x, ptr_y, &nx, &ny);
	if (pan_x)
		nx = mmx_panning_clamp_offset(nx, p->left, p->width,
					      t->bbox_x, t->bbox_w);
	if (pan_y)
		ny = mmx_panning_clamp_offset(ny, p->top, p->height,
					      t->bbox_y, t->bbox_h);
out:
	*new_x = nx;
	*new_y = ny;
}
