/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The local KMS backend's private structures, shared by mmx_kms.c
 * (open, snapshot), mmx_kms_apply.c (configuration, pointer),
 * mmx_screen.c (the screen framebuffer) and mmx_capture.c (writeback).
 */

#ifndef MMX_KMS_H
#define MMX_KMS_H

#include <stdbool.h>
#include <stdint.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "mmx_internal.h"
#include "mmx_kms_mode.h"
#include "mmx_screen_pattern.h"

#define MMX_KMS_MAX_PLANES	64
/* possible_crtcs is a 32-bit mask: no encoder reaches a 33rd CRTC */
#define MMX_KMS_MAX_CRTCS	32
#define MMX_KMS_DRIVER_LEN	32
#define MMX_KMS_MAX_OBJ_PROPS	64
#define MMX_KMS_MAX_PROPS	256

/**
 * struct mmx_screen - the screen framebuffer libmmx owns
 * @fb_id: KMS framebuffer id, 0 when there is none
 * @handle: dumb buffer handle
 * @width: size in pixels
 * @height: see @width
 * @pitch: bytes per line
 * @size: bytes of the dumb buffer
 * @map: its mapping
 */
struct mmx_screen {
	uint32_t fb_id;
	uint32_t handle;
	uint32_t width;
	uint32_t height;
	uint32_t pitch;
	uint64_t size;
	uint8_t *map;
};

/**
 * struct mmx_kms_plane - a plane and its property ids
 * @id: plane id
 * @possible: possible_crtcs (CRTC index bits)
 * @type: DRM_PLANE_TYPE_*
 * @fb_id: property ids of FB_ID, CRTC_ID, SRC_*, CRTC_*
 * @crtc_id: see @fb_id
 * @src_x: see @fb_id
 * @src_y: see @fb_id
 * @src_w: see @fb_id
 * @src_h: see @fb_id
 * @crtc_x: see @fb_id
 * @crtc_y: see @fb_id
 * @crtc_w: see @fb_id
 * @crtc_h: see @fb_id
 */
struct mmx_kms_plane {
	uint32_t id;
	uint32_t possible;
	uint32_t type;
	uint32_t fb_id;
	uint32_t crtc_id;
	uint32_t src_x;
	uint32_t src_y;
	uint32_t src_w;
	uint32_t src_h;
	uint32_t crtc_x;
	uint32_t crtc_y;
	uint32_t crtc_w;
	uint32_t crtc_h;
};

/**
 * struct mmx_kms_crtc_now - what the kernel says a CRTC does now
 * @active: ACTIVE
 * @mode_blob: MODE_ID
 * @has_mode: @mode is valid
 * @mode: the mode
 * @matrix: the TRANSFORM matrix (identity without a blob)
 * @filter: TRANSFORM_FILTER value
 * @panning: the CRTC's panning configuration, as libmmx keeps it (zero
 *	without one, or when the CRTC is off)
 * @fb: primary plane's FB_ID (0: off or not on this CRTC)
 * @x: position: primary plane SRC - CRTC (valid when @fb)
 * @y: see @x
 */
struct mmx_kms_crtc_now {
	bool active;
	uint32_t mode_blob;
	bool has_mode;
	drmModeModeInfo mode;
	int64_t matrix[9];
	uint64_t filter;
	struct mmx_panning_info panning;
	uint32_t fb;
	int32_t x;
	int32_t y;
};

/**
 * struct mmx_kms_crtc - a CRTC: property ids and what KMS cannot hold
 * @id: CRTC id
 * @index: KMS index
 * @primary: index of its primary plane in &mmx_kms.planes, -1 for none
 * @p_active: property id of ACTIVE
 * @p_mode_id: MODE_ID
 * @p_transform: TRANSFORM (0: the driver has no transforms)
 * @p_filter: TRANSFORM_FILTER
 * @rotation: RandR rotation (the kernel holds only the combined matrix)
 * @pending: pending transform (RandR's)
 * @current: current transform
 * @panning: panning configuration (RandR's SetPanning): panning is
 *	userspace's, the kernel has no property for it
 * @committed: the TRANSFORM matrix libmmx last committed or decoded: when
 *	the kernel's differs, someone else changed it and the records above
 *	are decoded again (rotation normal, current = the kernel's matrix)
 * @x: last position libmmx set (used when the primary plane is off)
 * @y: see @x
 * @known: @now is what the CRTC does (see mmx_kms_crtc_known())
 * @now: what libmmx last read from the kernel or committed itself
 * @fb_sized: the framebuffer whose size @fb_w, @fb_h hold (0: none)
 * @fb_w: width of @fb_sized
 * @fb_h: height of @fb_sized
 */
struct mmx_kms_crtc {
	uint32_t id;
	uint32_t index;
	int primary;
	uint32_t p_active;
	uint32_t p_mode_id;
	uint32_t p_transform;
	uint32_t p_filter;
	uint32_t rotation;
	struct mmx_transform_info pending;
	struct mmx_transform_info current;
	struct mmx_panning_info panning;
	int64_t committed[9];
	int32_t x;
	int32_t y;
	bool known;
	struct mmx_kms_crtc_now now;
	uint32_t fb_sized;
	uint32_t fb_w;
	uint32_t fb_h;
};

/**
 * struct mmx_kms_prop_name - a property's name, learnt once per device
 * @id: property id
 * @name: its name
 */
struct mmx_kms_prop_name {
	uint32_t id;
	char name[DRM_PROP_NAME_LEN];
};

/**
 * struct mmx_kms - a local display: a KMS device opened through libdrm
 * @fd: the device
 * @own_fd: close @fd in mmx_kms_close()
 * @is_mmx: the driver is mmx
 * @has_transforms: the CRTCs have TRANSFORM, TRANSFORM_FILTER, PANNING
 * @has_writeback: writeback connectors are visible
 * @driver: driver name
 * @min_w: mode_config limits
 * @min_h: see @min_w
 * @max_w: see @min_w
 * @max_h: see @min_w
 * @ncrtc: entries in @crtcs
 * @crtcs: the CRTCs, KMS order
 * @nplane: entries in @planes
 * @planes: the planes, KMS order
 * @screen: the screen framebuffer
 * @primary: primary output (connector id), 0 for none
 * @pan_mode: enum mmx_pan_mode
 * @pointer_x: last pointer position
 * @pointer_y: see @pointer_x
 * @timestamp: last configuration change, CLOCK_MONOTONIC ns
 * @config_timestamp: last probe, CLOCK_MONOTONIC ns
 * @nname: entries in @names
 * @names: the names of the properties seen so far, by id
 */
struct mmx_kms {
	int fd;
	int own_fd;
	bool is_mmx;
	bool has_transforms;
	bool has_writeback;
	char driver[MMX_KMS_DRIVER_LEN];
	uint32_t min_w;
	uint32_t min_h;
	uint32_t max_w;
	uint32_t max_h;
	uint32_t ncrtc;
	struct mmx_kms_crtc crtcs[MMX_KMS_MAX_CRTCS];
	uint32_t nplane;
	struct mmx_kms_plane planes[MMX_KMS_MAX_PLANES];
	struct mmx_screen screen;
	uint32_t primary;
	uint32_t pan_mode;
	int32_t pointer_x;
	int32_t pointer_y;
	uint64_t timestamp;
	uint64_t config_timestamp;
	uint32_t nname;
	struct mmx_kms_prop_name names[MMX_KMS_MAX_PROPS];
};

/**
 * struct mmx_kms_props - the properties of one KMS object
 * @n: entries used
 * @id: property ids
 * @value: their values
 * @name: their names
 */
struct mmx_kms_props {
	uint32_t n;
	uint32_t id[MMX_KMS_MAX_OBJ_PROPS];
	uint64_t value[MMX_KMS_MAX_OBJ_PROPS];
	char name[MMX_KMS_MAX_OBJ_PROPS][DRM_PROP_NAME_LEN];
};

/* mmx_kms.c */
uint64_t mmx_kms_now_ns(void);
int mmx_kms_props_get(struct mmx_kms *k, uint32_t obj, uint32_t type,
		      struct mmx_kms_props *p);
bool mmx_kms_props_find(const struct mmx_kms_props *p, const char *name,
			uint32_t *id, uint64_t *value);
int mmx_kms_crtc_read(struct mmx_kms *k, uint32_t index,
		      struct mmx_kms_crtc_now *now);
int mmx_kms_crtc_known(struct mmx_kms *k, uint32_t index,
		       struct mmx_kms_crtc_now *now);
void mmx_kms_forget(struct mmx_kms *k);
void mmx_kms_sync_records(struct mmx_kms *k, uint32_t index,
			  const struct mmx_kms_crtc_now *now);
void mmx_kms_mode_from_drm(struct mmx_mode *m, const drmModeModeInfo *d);
bool mmx_kms_matrix_is_identity(const int64_t f[9]);
void mmx_kms_output_name(char *buf, size_t size, uint32_t type,
			 uint32_t type_id);
int mmx_kms_errno(int ret);

/* mmx_screen.c */
int mmx_screen_create(int fd, uint32_t width, uint32_t height,
		      const struct mmx_screen *old, struct mmx_screen *out);
void mmx_screen_destroy(int fd, struct mmx_screen *s);
int mmx_dumb_create(int fd, uint32_t width, uint32_t height,
		    struct mmx_screen *out);

#endif /* MMX_KMS_H */
