/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 */

#ifndef _UAPI_MMX_DRM_H_
#define _UAPI_MMX_DRM_H_

#ifdef __KERNEL__
#include <drm/drm.h>
#else
/* Userspace: next to libdrm's copy (pkg-config --cflags libdrm). */
#include "drm.h"
#endif

#if defined(__cplusplus)
extern "C" {
#endif

/**
 * DOC: overview
 *
 * mmx is an atomic-only KMS driver (driver name ``mmx``). This header holds
 * what userspace may rely on beyond the generic KMS uAPI.
 *
 * Objects: each output has one CRTC, one encoder, one connector and one
 * writeback connector (visible with DRM_CLIENT_CAP_WRITEBACK_CONNECTORS)
 * whose encoder drives only that CRTC. Each CRTC has
 * %MMX_PLANES_PER_CRTC planes usable only on it: a primary plane,
 * %MMX_OVERLAYS_PER_CRTC overlays and a cursor.
 *
 * Plane properties (standard names and meanings):
 *
 * ``zpos``
 *	primary: immutable 0; overlays: range 1..%MMX_OVERLAYS_PER_CRTC,
 *	defaults 1, 2, ...; cursor: immutable %MMX_OVERLAYS_PER_CRTC + 1.
 *	Higher is nearer the viewer; equal values are ordered by plane id.
 * ``alpha``
 *	range 0..0xffff, default 0xffff (opaque).
 * ``pixel blend mode``
 *	enum "None", "Pre-multiplied" (default), "Coverage", with the
 *	formulas of the DRM documentation.
 * ``FB_DAMAGE_CLIPS``
 *	accepted; the composer redraws whole frames for now.
 *
 * Planes are not scaled: SRC_W and SRC_H must equal CRTC_W and CRTC_H in
 * 16.16 fixed point (-EINVAL otherwise). Any plane, the primary one too,
 * may be placed anywhere within [-%MMX_PLANE_POS_LIMIT,
 * %MMX_PLANE_POS_LIMIT] (-EINVAL beyond) and is clipped to the CRTC; what
 * no plane covers is black. Cursor framebuffers are ARGB8888, at most
 * %MMX_CURSOR_MAX_SIZE pixels in each direction. Primary and overlay
 * formats: XRGB8888, ARGB8888, XBGR8888, ABGR8888, RGB565, RGB888,
 * XRGB2101010, linear only. Framebuffers are at most %MMX_FB_MAX_SIZE
 * pixels in each direction, with any pitch of at least width times bytes
 * per pixel and any offset that fits the buffer. Changing framebuffers,
 * even to another size, pitch or format, needs no ALLOW_MODESET.
 *
 * Writeback connectors accept XRGB8888 and ARGB8888 framebuffers of the
 * mode's size; they receive the composed frame with alpha 0xff.
 *
 * CRC: the debugfs source ``auto`` gives one CRC32 of the composed XRGB8888
 * frame per vblank.
 */

/**
 * DOC: CRTC transform and panning
 *
 * RandR 1.3 CRTC transforms, done by mmx's compositor on the CRTC itself.
 *
 * ``TRANSFORM``
 *	CRTC blob property holding a &struct drm_mmx_transform. No blob (0)
 *	is the identity, which is also the boot state. RandR's meaning: the
 *	matrix maps an output pixel to the point of CRTC space it shows:
 *	the centre (u + 0.5, v + 0.5, 1) of output pixel (u, v) shows the
 *	point M * (u + 0.5, v + 0.5, 1), divided by its third coordinate.
 *	Example: 2,0,0, 0,2,0, 0,0,1 shows an area twice as large, scaled
 *	down by 2.
 * ``TRANSFORM_FILTER``
 *	CRTC enum property: "nearest" (0, default) or "bilinear" (1). RandR's
 *	"fast" is nearest, "good" and "best" are bilinear (userspace aliases).
 * ``PANNING``
 *	CRTC blob property holding a &struct drm_mmx_panning: RandR 1.3's
 *	panning configuration, validated by RandR's rules and kept for any
 *	client to read back. The driver does not move the picture by itself:
 *	a client follows the pointer (the policy is userspace's) by changing
 *	the scanout offset.
 *
 * CRTC space: the transform applies to everything the CRTC shows.
 * Primary, overlays and cursor are positioned (CRTC_X, CRTC_Y, CRTC_W,
 * CRTC_H) and blended in CRTC space, then the result is transformed. With
 * the identity, CRTC space is the mode's rectangle (0, 0, hdisplay,
 * vdisplay). With a transform it is the bounding box of the transformed
 * mode rectangle, the box RandR's GetCrtcInfo reports: the smallest
 * integer rectangle holding M applied to the corners (0, 0), (hdisplay,
 * 0), (0, vdisplay) and (hdisplay, vdisplay); it may start at negative
 * coordinates. Planes are clipped to it; CRTC space not covered by any
 * plane, and points outside it, show black.
 *
 * Scanout offset (panning): the screen point shown at the CRTC origin is
 * the primary plane's SRC_X, SRC_Y minus its CRTC_X, CRTC_Y. Changing it
 * is an ordinary plane update: no ALLOW_MODESET, applied at the next
 * vblank, composed with any TRANSFORM. Framebuffers of another size and
 * pitch may be flipped in the same way, on several CRTCs in one commit
 * (growing the screen past its first framebuffer).
 *
 * The atomic check refuses with -EINVAL, and changes nothing: a TRANSFORM
 * blob of the wrong size, an entry of magnitude 2^15 or more (RandR's
 * XFixed range), a singular matrix, a projective matrix whose third
 * coordinate is <= 0 anywhere on the mode rectangle (the line at infinity
 * on screen) or, at a corner, less than 1/65536 of its largest value at a
 * corner (a precision margin), a bounding box larger than
 * %MMX_TRANSFORM_SPACE_MAX in either direction or beyond
 * +-%MMX_TRANSFORM_SPACE_MAX, an unknown filter, a PANNING blob of the
 * wrong size, with non-zero flags or pad, or breaking RandR's rules (width
 * 0 or at least the CRTC space width, the same for height, and left (top)
 * 0 when width (height) is 0; the panning area inside the primary plane's
 * framebuffer; border_left + border_right at most the mode width, the same
 * vertically; tracking values within 0..65535 and borders within
 * -32768..32767, RandR's wire types). A CRTC that is off is checked for
 * what no mode could accept (flags, pad, a TRANSFORM refused for a 1x1
 * mode); the rest is checked when it is enabled.
 *
 * Filters: nearest samples exactly as pixman's PIXMAN_FILTER_NEAREST;
 * bilinear uses pixman's 7-bit weights and truncates after each of its
 * three interpolations, so a channel is pixman's value or one below it.
 *
 * Worked keystone example: a projector whose picture lands as a trapezoid
 * is corrected by the matrix mapping the 1920x1080 output's corners onto
 * the screen points (-150, -24), (2090, 4), (12, 1080), (1912, 1072):
 * M = 1.20484499, 0.152024813, -150, 0.0146564019, 1.20445537, -24,
 * 1.82671393e-05, 0.000168734395, 1 (each entry times 2^32 in the blob).
 * Its CRTC space is the bounding box (-150, -24) 2240x1104: a primary
 * plane at CRTC_X -150, CRTC_Y -24, 2240x1104 covers it.
 */

/**
 * struct drm_mmx_transform - TRANSFORM blob
 * @matrix: row-major 3x3 matrix, each entry S31.32 fixed point in two's
 *	complement (as RandR's XFixed and pixman's fixed types, and unlike
 *	&struct drm_color_ctm's sign-magnitude: negative entries are common
 *	in rotations and keystones, and two's complement is what userspace
 *	computes with). 1.0 is 1 << 32.
 */
struct drm_mmx_transform {
	__s64 matrix[9];
};

/* TRANSFORM_FILTER values */
#define MMX_TRANSFORM_FILTER_NEAREST	0
#define MMX_TRANSFORM_FILTER_BILINEAR	1

/* Largest extent of a transformed CRTC space, in pixels. */
#define MMX_TRANSFORM_SPACE_MAX	8192

/**
 * struct drm_mmx_panning - PANNING blob, RandR 1.3's SetPanning fields
 * @left: left edge of the panning area, screen pixels
 * @top: top edge of the panning area
 * @width: width of the panning area; 0 disables panning
 * @height: height of the panning area; 0 disables panning
 * @track_left: left edge of the tracking area (pointer positions that pan)
 * @track_top: top edge of the tracking area
 * @track_width: width of the tracking area; 0 is the whole screen
 * @track_height: height of the tracking area; 0 is the whole screen
 * @border_left: distance from the CRTC's left edge at which the pointer
 *	starts panning, negative beyond the edge
 * @border_top: likewise from the top edge
 * @border_right: likewise from the right edge
 * @border_bottom: likewise from the bottom edge
 * @flags: must be 0
 * @pad: must be 0
 */
struct drm_mmx_panning {
	__u32 left;
	__u32 top;
	__u32 width;
	__u32 height;
	__u32 track_left;
	__u32 track_top;
	__u32 track_width;
	__u32 track_height;
	__s32 border_left;
	__s32 border_top;
	__s32 border_right;
	__s32 border_bottom;
	__u32 flags;
	__u32 pad;
};

/* MMX_OVERLAYS_PER_CRTC: overlay planes of each CRTC */
#define MMX_OVERLAYS_PER_CRTC	2
/* MMX_PLANES_PER_CRTC: planes of each CRTC: primary, overlays, cursor */
#define MMX_PLANES_PER_CRTC	(2 + MMX_OVERLAYS_PER_CRTC)
/* MMX_FB_MAX_SIZE: largest framebuffer width and height */
#define MMX_FB_MAX_SIZE		16384
/* MMX_CURSOR_MAX_SIZE: largest cursor width and height */
#define MMX_CURSOR_MAX_SIZE	256
/* MMX_PLANE_POS_LIMIT: largest distance of CRTC_X, CRTC_Y from 0 */
#define MMX_PLANE_POS_LIMIT	16384

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_MMX_DRM_H_ */
