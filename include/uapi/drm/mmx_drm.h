/* SPDX-License-Identifier: (GPL-2.0-only WITH Linux-syscall-note) OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The mmx driver's uAPI: its properties and their blob layouts, the limits
 * userspace may rely on, and the timed-commit ioctls and event.
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
 * ``rotation``
 *	bitmask "rotate-0" (default), "rotate-90", "rotate-180", "rotate-270",
 *	"reflect-x", "reflect-y": exactly one rotation, any reflections (else
 *	-EINVAL). DRM's meaning (drm_rect_rotate()): the source rectangle is
 *	reflected (reflect-x mirrors its columns, reflect-y its rows), then
 *	rotated counter-clockwise, then scaled to CRTC_W x CRTC_H. It places
 *	the plane in CRTC space; the CRTC's TRANSFORM then applies to the
 *	composed CRTC space as a whole.
 * ``SCALING_FILTER``
 *	enum "Default" (bilinear) or "Nearest Neighbor", for planes that are
 *	resampled (see below). The sampling rules are those of the CRTC's
 *	TRANSFORM_FILTER: destination pixel (u, v) shows the framebuffer point
 *	that the centre (u + 1/2, v + 1/2) maps to; "Nearest Neighbor" takes
 *	the pixel containing it (a point on a pixel edge belongs to the pixel
 *	above/left of it), "Default" interpolates the four pixels around it
 *	with pixman's 7-bit weights, alpha interpolated like a colour. Pixels
 *	beyond the source rectangle's edge read as its edge pixels.
 *
 * Scaling: SRC_W x SRC_H (16.16) is scaled to CRTC_W x CRTC_H on every
 * plane, with scale factors (source over destination size, after the
 * rotation) from 1/%MMX_PLANE_SCALE_LIMIT (magnification) to
 * %MMX_PLANE_SCALE_LIMIT (minification) in each direction; beyond that,
 * or with an empty source rectangle, the commit fails with -ERANGE (an
 * empty CRTC rectangle is accepted and shows nothing). Fractional
 * SRC_X, SRC_Y, SRC_W, SRC_H are honoured. A plane that is unrotated,
 * unscaled and at an integer source position is shown pixel for pixel; any
 * other is resampled with its SCALING_FILTER.
 *
 * Position: any CRTC_X, CRTC_Y the uAPI carries is accepted, the primary
 * plane's too; the plane is clipped to the CRTC and what no plane covers is
 * black. A plane entirely off the CRTC is accepted and simply not shown.
 * The DRM core refuses CRTC_X + CRTC_W or CRTC_Y + CRTC_H beyond INT_MAX
 * (-ERANGE) and a source rectangle outside the framebuffer (-ENOSPC).
 *
 * Formats, every plane kind alike (the cursor too): XRGB8888, ARGB8888,
 * XBGR8888, ABGR8888, RGB565, RGB888, XRGB2101010, linear only, of any size
 * up to %MMX_FB_MAX_SIZE pixels in each direction, with any pitch of at
 * least width times bytes per pixel and any offset that fits the buffer.
 * DRM_CAP_CURSOR_WIDTH and _HEIGHT report %MMX_CURSOR_MAX_SIZE as the
 * preferred cursor size, a hint only. Changing framebuffers, even to
 * another size, pitch or format, needs no ALLOW_MODESET.
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
 * range connector properties) see the same thing. Every connector property
 * is a range, an enum or a blob, the kinds Xorg's modesetting driver
 * handles (it cannot mirror a bitmask property), and a property that can
 * take a single value only is immutable.
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
 *	the Composite values, SVideo and Component). Immutable on the kinds
 *	with a single format (VGA, DVI-D, DVI-A, HDMI, DisplayPort, eDP,
 *	LVDS, S-Video, Component): setting it, even to its value, fails with
 *	-EINVAL. Another value fails the commit with -EINVAL. Changing it on
 *	an active output is
 *	a modeset (ALLOW_MODESET needed; the legacy SETPROPERTY ioctl, which
 *	xrandr --set uses through Xorg, is allowed to modeset). It follows
 *	the plugged sink when the sink demands another signal (a DVI-I port
 *	goes to VGA for an analog monitor, to TMDS for a digital one; a PAL TV
 *	takes Composite-PAL): the connector's state reads the new value at
 *	once, without a commit, and a hotplug event is sent. The kernel never
 *	modesets on its own: if the new signal cannot carry the CRTC's mode
 *	(or the sink of a lit HPD connector went away), the CRTC stays as it
 *	was and the connector's standard "link-status" property reads Bad
 *	until the DRM master commits link-status Good with a mode the link
 *	carries (a legacy SETCRTC does so too); a commit that would light a
 *	mode the link cannot carry fails with -EINVAL and changes nothing,
 *	while turning the CRTC dark (ACTIVE 0) or off is allowed.
 *	The mode list follows the signal: TV signals offer their TV timings,
 *	the others the sink's EDID modes that the link can carry.
 * ``SignalProperties``
 *	enum, on connectors one of whose formats has properties. RandR gives
 *	an output a set of signal attributes per format; KMS has no set
 *	property but the bitmask, which Xorg cannot mirror, so each enum value
 *	is one valid set: its number is the set itself, attribute p being
 *	bit p in RandR's order (0 NTSC, 1 NTSC-M, 2 NTSC-J, 3 NTSC-N,
 *	4 NTSC-4.43, 5 NTSC-film, 6 PAL, 7 PAL-B, 8 PAL-G, 9 PAL-H, 10 PAL-I,
 *	11 PAL-M, 12 PAL-D, 13 PAL-N, 14 PAL-Nc, 15 PAL-L, 16 PAL-60,
 *	17 SECAM, 18 SECAM-L, 19 SECAM-B, 20 SECAM-G, 21 SECAM-D, 22 SECAM-K,
 *	23 SECAM-H, 24 SingleLink, 25 DualLink, 26 Lane1, 27 Lane2, 28 Lane4,
 *	29 LowSpeed, 30 HiSpeed), and its name the attributes' names in that
 *	order joined by '+' ("Lane4+HiSpeed"), "none" for the empty set. The
 *	sets: TMDS one link (SingleLink, DualLink); DisplayPort one lane count
 *	and one rate (Lane1+LowSpeed ... Lane4+HiSpeed); Composite and SVideo
 *	one TV standard, a family's base value ("PAL") or one of its variants
 *	("PAL-B"), which implies the family; Composite-PAL, -NTSC and -SECAM
 *	only their family's standards; VGA, LVDS and Component "none". The
 *	enum lists every set valid with one of the connector's formats, in
 *	that order: "none" first when a format has no properties, then the
 *	one-attribute sets, then the two-attribute ones (DVI-I: none,
 *	SingleLink, DualLink; DisplayPort: six; the TV kinds: the 24
 *	standards). A value that does not fit the SignalFormat of the same
 *	commit ("none" with TMDS, a PAL standard on Composite-NTSC, DualLink
 *	with VGA) fails with -EINVAL and changes nothing. A commit that
 *	changes SignalFormat without setting SignalProperties gets the new
 *	format's default (TMDS: SingleLink; DisplayPort: Lane4+HiSpeed;
 *	Composite, Composite-NTSC and SVideo: NTSC-M; Composite-PAL: PAL-B;
 *	Composite-SECAM: SECAM-L; the others: none).
 *
 *	The link must carry the CRTC's mode whenever the CRTC is enabled,
 *	lit or not (DPMS off, ACTIVE 0): single-link TMDS up to 165 MHz,
 *	dual-link up to 330 MHz, DisplayPort lanes x 1.62 or 2.7 Gbit/s x
 *	8/10 >= clock x 24 bits, VGA DAC up to 400 MHz, single-channel LVDS
 *	up to 112 MHz, TV signals only their own timings; otherwise the
 *	commit that would make the configuration fails with -EINVAL, so that
 *	setting ACTIVE back never does (except after a sink change left
 *	link-status Bad, see SignalFormat). A signal change on a CRTC that is
 *	enabled but not active needs no ALLOW_MODESET: it takes effect when
 *	the CRTC is lit again.
 * ``EDID``
 *	the standard blob: the EDID of the simulated sink, read through the
 *	DRM core (its simulated DDC cost, 12 ms per block, is counted in
 *	debugfs ``mmx_ddc``, not waited for), so that debugfs
 *	``dri/N/<connector>/edid_override`` (with ``force``) and the
 *	``drm.edid_firmware`` kernel parameter replace it, and the connector's
 *	modes with it, on the next probe, as on any driver. The sink itself
 *	(its presence, its signal demands) stays the simulated one.
 * ``CompatibilityList``, ``CloneList``
 *	immutable blobs: arrays of &struct drm_mmx_output_signal.
 *	CompatibilityList names every other output and each of its signal
 *	formats: all can be used at the same time as this one. Every encoder
 *	can drive every CRTC (possible_crtcs has them all), so a client may
 *	move an output to another CRTC or take a CRTC from another output;
 *	each output's own CRTC, writeback connector and CRC are its index's.
 *	CloneList names the outputs that may share this
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
 * RandR 1.3 panning is userspace's: the process that holds the panning
 * configuration (the display server) follows the pointer by moving the
 * primary plane, as below; the driver has no panning property.
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
 * +-%MMX_TRANSFORM_SPACE_MAX, or an unknown filter. A CRTC that is off is
 * checked for what no mode could accept (a TRANSFORM refused for a 1x1
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

/* MMX_OVERLAYS_PER_CRTC: overlay planes of each CRTC */
#define MMX_OVERLAYS_PER_CRTC	2
/* MMX_PLANES_PER_CRTC: planes of each CRTC: primary, overlays, cursor */
#define MMX_PLANES_PER_CRTC	(2 + MMX_OVERLAYS_PER_CRTC)
/* MMX_FB_MAX_SIZE: largest framebuffer width and height */
#define MMX_FB_MAX_SIZE		16384
/* MMX_CURSOR_MAX_SIZE: DRM_CAP_CURSOR_WIDTH/HEIGHT, a hint, not a limit */
#define MMX_CURSOR_MAX_SIZE	256
/* MMX_PLANE_SCALE_LIMIT: largest plane magnification and minification */
#define MMX_PLANE_SCALE_LIMIT	8

/**
 * DOC: timed atomic commits
 *
 * A master schedules an atomic property set to be shown at a given time:
 * DRM_IOCTL_MMX_SCHEDULE_SUBMIT takes the property set encoded exactly as
 * DRM_IOCTL_MODE_ATOMIC encodes it (object ids, property counts, property
 * ids, values), an execution time and an expiration time, and returns a
 * schedule id. Times are nanoseconds of CLOCK_MONOTONIC, the clock of the
 * vblank timestamps.
 *
 * Presentation: the entry is shown at the first vblank of its CRTC at or
 * after the execution time ("as closely as possible to, but not before").
 * If that vblank is later than the expiration time, the entry is never
 * shown and completes ``expired``. An execution time in the past means the
 * next vblank. The driver knows the CRTC's vblank times exactly (its vblank
 * is a timer at the mode's frame period): at vblank N it starts every entry
 * whose first vblank at or after its execution time is N + 1, builds the
 * atomic state from the stored property set on a work item, outside the
 * vblank handler, and commits it so that it lands at vblank N + 1. A commit
 * that misses that vblank (the system stalled) is shown at a later one and
 * its event says which: the event always carries the sequence and
 * timestamp of the vblank at which the picture was actually latched, the
 * values a page-flip event of the same commit would report. Entries of one
 * CRTC that fall due at the same vblank are applied in one commit, in
 * order of execution time (then of schedule id); they succeed or fail
 * together.
 *
 * The CRTC: &drm_mmx_schedule_submit.crtc_id names the CRTC whose vblanks
 * time the entry; it must be active (-EINVAL otherwise). Every object of
 * the set must belong to it: the CRTC itself or one of its planes; a
 * plane's CRTC_ID may be that CRTC or 0 (-EINVAL otherwise). Connectors are
 * refused (-EINVAL).
 *
 * Properties accepted in a timed commit (any other one, a property that
 * is immutable, or a value outside the property's range or enum, fails
 * with -EINVAL at submit):
 *
 * - planes: ``FB_ID``, ``CRTC_ID``, ``SRC_X``, ``SRC_Y``, ``SRC_W``,
 *   ``SRC_H``, ``CRTC_X``, ``CRTC_Y``, ``CRTC_W``, ``CRTC_H``, ``zpos``,
 *   ``alpha``, ``pixel blend mode``, ``FB_DAMAGE_CLIPS``;
 * - the CRTC: ``TRANSFORM``, ``TRANSFORM_FILTER``.
 *
 * Not accepted: ``ACTIVE``, ``MODE_ID`` and connector routing (timed
 * commits never modeset: they are committed without ALLOW_MODESET, so
 * whatever would need a modeset fails the check), ``IN_FENCE_FD`` and
 * ``OUT_FENCE_PTR`` (fences and user pointers cannot outlive the ioctl).
 * Unknown object ids, objects without properties and property ids the
 * object does not have fail with -ENOENT, as with the atomic ioctl; an FB
 * or blob id that does not exist fails with -EINVAL, as with the atomic
 * ioctl.
 *
 * Validation: at submit, the set is checked as a TEST_ONLY commit against
 * the current state (its errno is returned and nothing is queued); at
 * execution it is applied to the state current then and checked again: a
 * failure completes the entry ``failed`` with that errno, and nothing of
 * it is shown.
 *
 * References: the framebuffers and blobs the set names are referenced at
 * submit and released when the entry completes, so they stay alive
 * meanwhile. A framebuffer that its owner removed (RMFB or close) before
 * the entry executes is not shown: the entry completes ``failed`` with
 * -ENOENT.
 *
 * Latency model: an entry's target is the first vblank T of its CRTC at or
 * after exec_ns. It starts to execute at vblank T - L, where L is the
 * module parameter ``timed_lead_frames`` (1 to 8, default 2; read in
 * ``/sys/module/mmx/parameters/timed_lead_frames``): its commit is built,
 * checked and flushed then, and held by the driver, which latches it
 * exactly at vblank T (the picture changes there, and never at a vblank
 * before exec_ns). Scheduling delay in the guest thus costs nothing as
 * long as the commit is flushed within L frames. An entry submitted less
 * than L frames before its target starts at the next vblank and has less
 * time; a commit flushed after vblank T has passed (the machine stalled)
 * is latched at the next vblank and its event reports that vblank's
 * sequence and timestamp, never T. Entries due at the same vblank share
 * one commit; late entries catch up with the ones due at the vblank they
 * can still reach (applied in order, all reported at that vblank) instead
 * of delaying every later entry.
 *
 * Retract and replace: DRM_IOCTL_MMX_SCHEDULE_RETRACT cancels a pending
 * entry (it completes ``retracted``); DRM_IOCTL_MMX_SCHEDULE_REPLACE swaps
 * a pending entry for a new set with new times and user data: the old id
 * completes ``replaced`` and the new entry gets a new id, returned in
 * &drm_mmx_schedule_replace.submit. Both succeed only while the entry has
 * not started to execute, i.e. until vblank T - ``timed_lead_frames`` is
 * handled; once it has (its commit is prepared or held, or it completed)
 * they fail with -EBUSY, and with -ENOENT for an id this file was never
 * given. A prepared entry is not aborted: it is shown at T. An entry
 * either executes or is retracted (or replaced), never both: its state
 * (pending, executing, done) changes under a lock.
 *
 * Completion: every entry completes exactly once with a
 * &struct drm_mmx_event_schedule of type %DRM_MMX_EVENT_SCHEDULE read
 * from the DRM file (event space is reserved at submit: -ENOMEM when the
 * file's event space is exhausted).
 *
 * Queues and permissions: entries belong to the file that submitted them;
 * ids are per file, start at 1 and increase. A file holds at most
 * %MMX_SCHEDULE_QUEUE_MAX entries that have not completed (-ENOSPC past
 * that); closing the file drops its entries without events. Submit and
 * replace need the DRM master (-EACCES otherwise); a lessee master may use
 * the objects of its lease (others are -ENOENT). Retract needs no master.
 * A set has at most %MMX_SCHEDULE_OBJS_MAX objects and
 * %MMX_SCHEDULE_PROPS_MAX properties (-EINVAL beyond). Every flag, pad and
 * output field must be zero on input (-EINVAL otherwise); exec_ns greater
 * than expire_ns is -EINVAL.
 *
 * Ordering with ordinary commits: a timed entry executes against whatever
 * state is current when it starts (L frames before T); an ordinary atomic
 * commit never waits for the queue, but it does wait, as commits do behind
 * earlier commits, for a timed commit that is held on its CRTC: it is
 * latched at a vblank after the held one (its page-flip event says which),
 * and a blocking one returns then. A nonblocking ordinary commit made
 * while another ordinary one is in flight gets -EBUSY as usual; a held
 * timed commit does not cause that. Other CRTCs are never affected. A
 * timed commit that follows an ordinary one still in flight on its CRTC
 * waits for it (so it may land a vblank later, which its event reports).
 * Turning the CRTC off (or any modeset that disables it) fails its pending
 * entries, and those whose commit is held (never shown), with -EINVAL;
 * closing the file drops its pending entries, while held ones are still
 * latched (without events); unloading the module turns the CRTCs off
 * first.
 */

/* Driver ioctl numbers, relative to DRM_COMMAND_BASE */
#define DRM_MMX_SCHEDULE_SUBMIT		0x00
#define DRM_MMX_SCHEDULE_RETRACT	0x01
#define DRM_MMX_SCHEDULE_REPLACE	0x02

/* MMX_SCHEDULE_QUEUE_MAX: entries of a file that have not completed */
#define MMX_SCHEDULE_QUEUE_MAX		64
/* MMX_SCHEDULE_OBJS_MAX: objects in one timed property set */
#define MMX_SCHEDULE_OBJS_MAX		8
/* MMX_SCHEDULE_PROPS_MAX: properties in one timed property set */
#define MMX_SCHEDULE_PROPS_MAX		64

/**
 * struct drm_mmx_schedule_submit - DRM_IOCTL_MMX_SCHEDULE_SUBMIT argument
 * @crtc_id: the CRTC whose vblanks time the entry; every object of the set
 *	belongs to it
 * @count_objs: number of objects in @objs_ptr
 * @objs_ptr: pointer to @count_objs __u32 object ids
 * @count_props_ptr: pointer to @count_objs __u32: the number of properties
 *	of each object
 * @props_ptr: pointer to the __u32 property ids, object after object
 * @prop_values_ptr: pointer to the __u64 values, one per property id
 * @exec_ns: execution time, CLOCK_MONOTONIC nanoseconds: the entry is
 *	shown at the first vblank at or after it
 * @expire_ns: expiration time, CLOCK_MONOTONIC nanoseconds, at least
 *	@exec_ns: if the first vblank at or after @exec_ns is later, the
 *	entry is not shown and completes %MMX_SCHEDULE_EXPIRED
 * @user_data: returned in the completion event
 * @flags: must be 0
 * @pad: must be 0
 * @schedule_id: output: the entry's id (non-zero); must be 0 on input
 */
struct drm_mmx_schedule_submit {
	__u32 crtc_id;
	__u32 count_objs;
	__u64 objs_ptr;
	__u64 count_props_ptr;
	__u64 props_ptr;
	__u64 prop_values_ptr;
	__u64 exec_ns;
	__u64 expire_ns;
	__u64 user_data;
	__u32 flags;
	__u32 pad;
	__u64 schedule_id;
};

/**
 * struct drm_mmx_schedule_retract - DRM_IOCTL_MMX_SCHEDULE_RETRACT argument
 * @schedule_id: the pending entry to cancel
 * @flags: must be 0
 * @pad: must be 0
 */
struct drm_mmx_schedule_retract {
	__u64 schedule_id;
	__u32 flags;
	__u32 pad;
};

/**
 * struct drm_mmx_schedule_replace - DRM_IOCTL_MMX_SCHEDULE_REPLACE argument
 * @schedule_id: the pending entry to replace; it completes
 *	%MMX_SCHEDULE_REPLACED
 * @submit: the new entry, as for DRM_IOCTL_MMX_SCHEDULE_SUBMIT (any CRTC);
 *	its @schedule_id returns the new entry's id
 */
struct drm_mmx_schedule_replace {
	__u64 schedule_id;
	struct drm_mmx_schedule_submit submit;
};

/* DRM_MMX_EVENT_SCHEDULE: type of &struct drm_mmx_event_schedule */
#define DRM_MMX_EVENT_SCHEDULE		0x80000000

/* Completion status of a timed entry (&drm_mmx_event_schedule.status) */
#define MMX_SCHEDULE_PRESENTED		1
#define MMX_SCHEDULE_EXPIRED		2
#define MMX_SCHEDULE_RETRACTED		3
#define MMX_SCHEDULE_REPLACED		4
#define MMX_SCHEDULE_FAILED		5

/**
 * struct drm_mmx_event_schedule - completion of a timed entry
 * @base: type %DRM_MMX_EVENT_SCHEDULE, length sizeof(this structure)
 * @user_data: the entry's user data
 * @schedule_id: the entry's id
 * @sequence: %MMX_SCHEDULE_PRESENTED: the vblank sequence (as the vblank
 *	and CRTC sequence ioctls count) at which the picture was latched;
 *	%MMX_SCHEDULE_EXPIRED: the first vblank at or after the execution
 *	time, which it would have needed; otherwise 0
 * @timestamp_ns: that vblank's timestamp, CLOCK_MONOTONIC nanoseconds
 *	(exact: the driver's vblank timer), or 0
 * @crtc_id: the entry's CRTC
 * @status: one of %MMX_SCHEDULE_PRESENTED, %MMX_SCHEDULE_EXPIRED,
 *	%MMX_SCHEDULE_RETRACTED, %MMX_SCHEDULE_REPLACED, %MMX_SCHEDULE_FAILED
 * @error: %MMX_SCHEDULE_FAILED: the negative errno of the failed check or
 *	commit; otherwise 0
 * @pad: 0
 */
struct drm_mmx_event_schedule {
	struct drm_event base;
	__u64 user_data;
	__u64 schedule_id;
	__u64 sequence;
	__u64 timestamp_ns;
	__u32 crtc_id;
	__u32 status;
	__s32 error;
	__u32 pad;
};

#define DRM_IOCTL_MMX_SCHEDULE_SUBMIT					\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MMX_SCHEDULE_SUBMIT,		\
		 struct drm_mmx_schedule_submit)
#define DRM_IOCTL_MMX_SCHEDULE_RETRACT					\
	DRM_IOW(DRM_COMMAND_BASE + DRM_MMX_SCHEDULE_RETRACT,		\
		struct drm_mmx_schedule_retract)
#define DRM_IOCTL_MMX_SCHEDULE_REPLACE					\
	DRM_IOWR(DRM_COMMAND_BASE + DRM_MMX_SCHEDULE_REPLACE,		\
		 struct drm_mmx_schedule_replace)

#if defined(__cplusplus)
}
#endif

#endif /* _UAPI_MMX_DRM_H_ */
