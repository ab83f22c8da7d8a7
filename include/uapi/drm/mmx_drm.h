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
 *	accepted; the composer redraws whole frames, the virtio-gpu backend
 *	sends only the damaged rectangles to the host.
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
 *
 * virtio-gpu backend (module parameter ``backend``): one output per host
 * scanout, each a DisplayPort connector, connected when the host reports the
 * scanout enabled; its ``EDID`` property holds the host's EDID (empty without
 * the device's EDID feature) and its preferred mode is the size the host
 * reports. A display-configuration change of the host sends a hotplug
 * uevent. Everything above holds unchanged; in addition, pixels written into
 * a displayed framebuffer reach the host only through a commit or
 * DRM_IOCTL_MODE_DIRTYFB (FB_DAMAGE_CLIPS limit what is sent). The vblank
 * runs as long as a CRTC is on.
 */

/**
 * DOC: output properties
 *
 * Every connector carries RandR 1.3's standard output properties, with
 * RandR's names and value names, so that KMS clients (modetest, proptest)
 * and X clients (through the modesetting driver, which mirrors enum and
 * range connector properties) see the same thing.
 *
 * ``ConnectorType``
 *	immutable enum: unknown, VGA, DVI, DVI-I, DVI-A, DVI-D, HDMI, Panel,
 *	TV, TV-Composite, TV-SVideo, TV-Component, TV-SCART, TV-C4,
 *	DisplayPort. Follows the output's kind: eDP and LVDS are Panel,
 *	SCART (a DRM TV connector) is TV-SCART.
 * ``ConnectorNumber``
 *	immutable range 0..8: the output's physical connector number, 1
 *	for the first (0 would mean unknown).
 * ``SignalFormat``
 *	enum listing exactly the formats the connector kind supports, out of
 *	unknown, VGA, TMDS, LVDS, Composite, Composite-PAL, Composite-NTSC,
 *	Composite-SECAM, SVideo, Component, DisplayPort (VGA: VGA; DVI-I: VGA
 *	and TMDS; DVI-D, HDMI: TMDS; DVI-A: VGA; LVDS: LVDS; eDP, DisplayPort:
 *	DisplayPort; Composite: the Composite values; S-Video: SVideo;
 *	Component: Component; TV: the Composite values and SVideo; SCART:
 *	the Composite values, SVideo and Component). Another
 *	value fails the commit with -EINVAL. Changing it on an active output is
 *	a modeset (ALLOW_MODESET needed; the legacy SETPROPERTY ioctl, which
 *	xrandr --set uses through Xorg, is allowed to modeset). The driver
 *	switches it itself when the plugged sink demands it (a DVI-I port goes
 *	to VGA for an analog monitor, to TMDS for a digital one; a PAL TV
 *	takes Composite-PAL) and then sends a hotplug event; if the new signal
 *	cannot carry the current mode, the output is turned off (CRTC
 *	disabled, link-status Bad) until a client picks a mode.
 *	The mode list follows the signal: TV signals offer their TV timings,
 *	the others the sink's EDID modes that the link can carry.
 * ``SignalProperties``
 *	bitmask, on connectors whose formats have properties: the TV
 *	standards NTSC ... SECAM-H for Composite and SVideo, SingleLink and
 *	DualLink for TMDS, Lane1, Lane2, Lane4, LowSpeed and HiSpeed for
 *	DisplayPort. A combination that does not fit the SignalFormat (two
 *	links, two lane counts, a PAL standard on Composite-NTSC, ...) fails
 *	with -EINVAL. TV signals take one standard family (NTSC, PAL or
 *	SECAM), at most one variant of it, optionally with the family's base
 *	name ("PAL" with "PAL-B" is fine, "PAL-B" with "PAL-G" is not);
 *	Composite-PAL takes only PAL standards, and so on. 0 selects the
 *	format's default (TMDS: SingleLink; DisplayPort: Lane4 HiSpeed;
 *	Composite, Composite-NTSC and SVideo: NTSC-M; Composite-PAL: PAL-B;
 *	Composite-SECAM: SECAM-L), and reads back as that default. A commit
 *	that changes
 *	SignalFormat without setting SignalProperties gets the new format's
 *	default. The link must carry the mode: single-link TMDS up to
 *	165 MHz, dual-link up to 330 MHz, DisplayPort lanes x 1.62 or
 *	2.7 Gbit/s x 8/10 >= clock x 24 bits, VGA DAC up to 400 MHz,
 *	single-channel LVDS up to 112 MHz, TV signals only their own
 *	timings; otherwise -EINVAL.
 * ``EDID``
 *	the standard blob: the EDID of the simulated sink.
 * ``CompatibilityList``, ``CloneList``
 *	immutable blobs: arrays of &struct drm_mmx_output_signal.
 *	CompatibilityList names every other output and each of its signal
 *	formats: all can be used at the same time as this one (each output
 *	has its own CRTC). CloneList names the outputs that may share this
 *	output's CRTC, with each of their formats; it is symmetric, agrees
 *	with the encoders' possible_clones, and the atomic check refuses any
 *	other clone set with -EINVAL. Clone groups: analog outputs (VGA,
 *	DVI-A and the TV kinds) clone each other, digital ones (DVI-I, DVI-D,
 *	HDMI, DisplayPort) each other; panels clone nothing.
 *
 * Simulated sinks: debugfs ``dri/N/<connector>/mmx_sink`` takes a preset
 * name (none, vga, dvi, hdmi, dual-link, dp-4k, panel, pal-tv, ntsc-tv,
 * component-tv) and reads back the current one; ``mmx_edid`` takes a raw
 * EDID (1 to 4 blocks, -EINVAL when malformed). Connectors with hotplug
 * detection (DVI, HDMI, DisplayPort, eDP) report a change at once with a
 * hotplug uevent; VGA and TV connectors are polled: a change shows only
 * when a client probes. A probe reads the EDID at DDC speed (12 ms per
 * 128-byte block); DRM_IOCTL_MODE_GETCONNECTOR with count_modes == 0
 * probes, drmModeGetConnectorCurrent() does not.
 */

/**
 * struct drm_mmx_output_signal - one entry of CompatibilityList or CloneList
 * @connector_id: the other output's connector object id
 * @signal_format: one of its SignalFormat enum values (RandR order:
 *	0 unknown, 1 VGA, 2 TMDS, 3 LVDS, 4 Composite, 5 Composite-PAL,
 *	6 Composite-NTSC, 7 Composite-SECAM, 8 SVideo, 9 Component,
 *	10 DisplayPort)
 */
struct drm_mmx_output_signal {
	__u32 connector_id;
	__u32 signal_format;
};

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
