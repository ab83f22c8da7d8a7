// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Planes: one primary, two overlays and one cursor per CRTC, all alike but
 * for their zpos and the cursor's RGB-only formats: any size and position,
 * scaling, rotation.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_damage_helper.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "mmx_drv.h"

static const struct {
	u32 fourcc;
	enum mmx_format format;
} mmx_formats[] = {
	{ DRM_FORMAT_XRGB8888, MMX_FORMAT_XRGB8888 },
	{ DRM_FORMAT_ARGB8888, MMX_FORMAT_ARGB8888 },
	{ DRM_FORMAT_XBGR8888, MMX_FORMAT_XBGR8888 },
	{ DRM_FORMAT_ABGR8888, MMX_FORMAT_ABGR8888 },
	{ DRM_FORMAT_RGB565, MMX_FORMAT_RGB565 },
	{ DRM_FORMAT_RGB888, MMX_FORMAT_RGB888 },
	{ DRM_FORMAT_XRGB2101010, MMX_FORMAT_XRGB2101010 },
	{ DRM_FORMAT_NV12, MMX_FORMAT_NV12 },
	{ DRM_FORMAT_NV21, MMX_FORMAT_NV21 },
	{ DRM_FORMAT_NV16, MMX_FORMAT_NV16 },
	{ DRM_FORMAT_NV61, MMX_FORMAT_NV61 },
	{ DRM_FORMAT_NV24, MMX_FORMAT_NV24 },
	{ DRM_FORMAT_NV42, MMX_FORMAT_NV42 },
	{ DRM_FORMAT_YUV420, MMX_FORMAT_YUV420 },
	{ DRM_FORMAT_YVU420, MMX_FORMAT_YVU420 },
	{ DRM_FORMAT_YUV422, MMX_FORMAT_YUV422 },
	{ DRM_FORMAT_YVU422, MMX_FORMAT_YVU422 },
	{ DRM_FORMAT_YUV444, MMX_FORMAT_YUV444 },
	{ DRM_FORMAT_YVU444, MMX_FORMAT_YVU444 },
	{ DRM_FORMAT_YUYV, MMX_FORMAT_YUYV },
	{ DRM_FORMAT_YVYU, MMX_FORMAT_YVYU },
	{ DRM_FORMAT_UYVY, MMX_FORMAT_UYVY },
	{ DRM_FORMAT_VYUY, MMX_FORMAT_VYUY },
	{ DRM_FORMAT_P010, MMX_FORMAT_P010 },
	{ DRM_FORMAT_P012, MMX_FORMAT_P012 },
	{ DRM_FORMAT_P016, MMX_FORMAT_P016 },
};

/*
 * The RGB formats first: the cursor plane takes those only (the first
 * MMX_CURSOR_FORMATS), since a cursor image is a small picture that needs
 * per-pixel alpha, which no YUV format carries, and no client puts video on
 * a cursor. The primary and overlay planes take the YUV formats too, with
 * COLOR_ENCODING and COLOR_RANGE.
 */
#define MMX_CURSOR_FORMATS	7

static const u32 mmx_plane_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
	DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888,
	DRM_FORMAT_RGB565,
	DRM_FORMAT_RGB888,
	DRM_FORMAT_XRGB2101010,
	DRM_FORMAT_NV12,
	DRM_FORMAT_NV21,
	DRM_FORMAT_NV16,
	DRM_FORMAT_NV61,
	DRM_FORMAT_NV24,
	DRM_FORMAT_NV42,
	DRM_FORMAT_YUV420,
	DRM_FORMAT_YVU420,
	DRM_FORMAT_YUV422,
	DRM_FORMAT_YVU422,
	DRM_FORMAT_YUV444,
	DRM_FORMAT_YVU444,
	DRM_FORMAT_YUYV,
	DRM_FORMAT_YVYU,
	DRM_FORMAT_UYVY,
	DRM_FORMAT_VYUY,
	DRM_FORMAT_P010,
	DRM_FORMAT_P012,
	DRM_FORMAT_P016,
};

static const u64 mmx_plane_modifiers[] = {
	DRM_FORMAT_MOD_LINEAR,
	DRM_FORMAT_MOD_INVALID,
};

/**
 * mmx_format_lookup - map a DRM fourcc to a compositor format
 * @fourcc: DRM_FORMAT_* code
 * @format: where to store the compositor format
 *
 * Return: true if the compositor reads @fourcc.
 */
bool mmx_format_lookup(u32 fourcc, enum mmx_format *format)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(mmx_formats); i++) {
		if (mmx_formats[i].fourcc == fourcc) {
			*format = mmx_formats[i].format;
			return true;
		}
	}
	return false;
}

/*
 * Scale factors (source size over destination size, 16.16) from 8x
 * magnification to 8x minification, on every plane.
 */
#define MMX_PLANE_SCALE_MIN	(DRM_PLANE_NO_SCALING / MMX_PLANE_SCALE_LIMIT)
#define MMX_PLANE_SCALE_MAX	(DRM_PLANE_NO_SCALING * MMX_PLANE_SCALE_LIMIT)

/*
 * Any position the uAPI carries is fine: the core has refused CRTC_X +
 * CRTC_W beyond INT_MAX (-ERANGE) and a source outside the framebuffer
 * (-ENOSPC); a plane off the CRTC is simply not visible. The helper checks
 * the scale factors (-ERANGE) with the rotation applied.
 */
static int mmx_plane_atomic_check(struct drm_plane *plane,
				  struct mmx_atomic_state *state)
{
	struct drm_plane_state *new_state =
		drm_atomic_get_new_plane_state(state, plane);
	struct drm_crtc_state *crtc_state;
	int ret;

	if (!new_state->crtc || !new_state->fb)
		return 0;

	crtc_state = drm_atomic_get_new_crtc_state(state, new_state->crtc);
	ret = drm_atomic_helper_check_plane_state(new_state, crtc_state,
						  MMX_PLANE_SCALE_MIN,
						  MMX_PLANE_SCALE_MAX,
						  true, true);
	if (ret)
		drm_dbg_atomic(plane->dev,
			       "[PLANE:%d:%s] %u.%04ux%u.%04u to %ux%u refused: %d\n",
			       plane->base.id, plane->name,
			       new_state->src_w >> 16,
			       ((new_state->src_w & 0xffff) * 10000) >> 16,
			       new_state->src_h >> 16,
			       ((new_state->src_h & 0xffff) * 10000) >> 16,
			       new_state->crtc_w, new_state->crtc_h, ret);
	return ret;
}

/*
 * Nothing to program: the CRTC's new state, switched in its atomic_flush,
 * tells the composer what to read at the next vblank.
 */
static void mmx_plane_atomic_update(struct drm_plane *plane,
				    struct mmx_atomic_state *state)
{
}

/*
 * The framebuffer's kernel mapping lives from prepare_fb to cleanup_fb, as
 * the shadow-plane helpers did until 6.2. Their begin/end_fb_access pair
 * (6.2 on) unmaps the old state's buffers at the end of commit_planes, but
 * the composer may read them later: a held state is latched at a vblank
 * after that, and the commit tail waits for it (and for the composer)
 * before cleanup_planes.
 */
static int mmx_plane_prepare_fb(struct drm_plane *plane,
				struct drm_plane_state *state)
{
	struct drm_shadow_plane_state *shadow = to_drm_shadow_plane_state(state);
	int ret;

	if (!state->fb)
		return 0;
	ret = drm_gem_plane_helper_prepare_fb(plane, state);
	if (ret)
		return ret;
	return drm_gem_fb_vmap(state->fb, shadow->map, shadow->data);
}

static void mmx_plane_cleanup_fb(struct drm_plane *plane,
				 struct drm_plane_state *state)
{
	struct drm_shadow_plane_state *shadow = to_drm_shadow_plane_state(state);

	if (state->fb)
		drm_gem_fb_vunmap(state->fb, shadow->map);
}

static const struct drm_plane_helper_funcs mmx_plane_helper_funcs = {
	.prepare_fb = mmx_plane_prepare_fb,
	.cleanup_fb = mmx_plane_cleanup_fb,
	.atomic_check = mmx_plane_atomic_check,
	.atomic_update = mmx_plane_atomic_update,
};

static const struct drm_plane_funcs mmx_plane_funcs = {
	.update_plane = drm_atomic_helper_update_plane,
	.disable_plane = drm_atomic_helper_disable_plane,
	DRM_GEM_SHADOW_PLANE_FUNCS,
};

/*
 * The zpos, alpha, blending, rotation and scaling filter properties, and
 * the YCbCr ones on the planes that take YUV.
 */
static int mmx_plane_create_props(struct drm_plane *plane,
				  enum drm_plane_type type, unsigned int zpos)
{
	int ret;

	if (type == DRM_PLANE_TYPE_OVERLAY)
		ret = drm_plane_create_zpos_property(plane, zpos, 1,
						     MMX_OVERLAYS_PER_CRTC);
	else
		ret = drm_plane_create_zpos_immutable_property(plane, zpos);
	if (ret)
		return ret;

	ret = drm_plane_create_alpha_property(plane);
	if (ret)
		return ret;

	ret = drm_plane_create_blend_mode_property(plane,
						   BIT(DRM_MODE_BLEND_PIXEL_NONE) |
						   BIT(DRM_MODE_BLEND_PREMULTI) |
						   BIT(DRM_MODE_BLEND_COVERAGE));
	if (ret)
		return ret;

	ret = drm_plane_create_rotation_property(plane, DRM_MODE_ROTATE_0,
						 DRM_MODE_ROTATE_MASK |
						 DRM_MODE_REFLECT_MASK);
	if (ret)
		return ret;

	if (type != DRM_PLANE_TYPE_CURSOR) {
		ret = drm_plane_create_color_properties(plane,
							BIT(DRM_COLOR_YCBCR_BT601) |
							BIT(DRM_COLOR_YCBCR_BT709) |
							BIT(DRM_COLOR_YCBCR_BT2020),
							BIT(DRM_COLOR_YCBCR_LIMITED_RANGE) |
							BIT(DRM_COLOR_YCBCR_FULL_RANGE),
							DRM_COLOR_YCBCR_BT601,
							DRM_COLOR_YCBCR_LIMITED_RANGE);
		if (ret)
			return ret;
	}

	return drm_plane_create_scaling_filter_property(plane,
							BIT(DRM_SCALING_FILTER_DEFAULT) |
							BIT(DRM_SCALING_FILTER_NEAREST_NEIGHBOR));
}

/**
 * mmx_plane_create - create a plane of an output's CRTC
 * @mmx: the device
 * @output: the output the plane belongs to
 * @type: primary, overlay or cursor
 * @zpos: default zpos; mutable in 1..%MMX_OVERLAYS_PER_CRTC for overlays,
 *	immutable for the others
 *
 * Return: the plane or an ERR_PTR().
 */
struct drm_plane *mmx_plane_create(struct mmx_device *mmx,
				   struct mmx_output *output,
				   enum drm_plane_type type,
				   unsigned int zpos)
{
	bool cursor = type == DRM_PLANE_TYPE_CURSOR;
	struct drm_plane *plane;
	int ret;

	plane = __drmm_universal_plane_alloc(&mmx->drm, sizeof(*plane), 0,
					     BIT(output->index),
					     &mmx_plane_funcs,
					     mmx_plane_formats,
					     cursor ? MMX_CURSOR_FORMATS :
						      ARRAY_SIZE(mmx_plane_formats),
					     mmx_plane_modifiers, type, NULL);
	if (IS_ERR(plane))
		return plane;
	drm_plane_helper_add(plane, &mmx_plane_helper_funcs);

	ret = mmx_plane_create_props(plane, type, zpos);
	if (ret)
		return ERR_PTR(ret);

	drm_plane_enable_fb_damage_clips(plane);
	return plane;
}
