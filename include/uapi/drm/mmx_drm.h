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
