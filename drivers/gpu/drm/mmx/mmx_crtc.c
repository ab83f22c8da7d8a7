// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * CRTCs: state and plane stacking (the vertical blanking and the latch of
 * flushed states are mmx_vblank.c's).
 */

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_color_mgmt.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"

/* State */

static void mmx_crtc_destroy_state(struct drm_crtc *crtc,
				   struct drm_crtc_state *state)
{
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(state);

	drm_property_blob_put(mmx_state->transform_blob);
	__drm_atomic_helper_crtc_destroy_state(state);
	kfree(mmx_state);
}

static void mmx_crtc_reset(struct drm_crtc *crtc)
{
	struct mmx_crtc_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (crtc->state)
		mmx_crtc_destroy_state(crtc, crtc->state);
	__drm_atomic_helper_crtc_reset(crtc, state ? &state->base : NULL);
	if (state)
		state->filter = MMX_FILTER_NEAREST;
}

static struct drm_crtc_state *mmx_crtc_duplicate_state(struct drm_crtc *crtc)
{
	struct mmx_crtc_state *state;

	if (WARN_ON(!crtc->state))
		return NULL;

	state = kmemdup(to_mmx_crtc_state(crtc->state), sizeof(*state),
			GFP_KERNEL);
	if (!state)
		return NULL;
	__drm_atomic_helper_crtc_duplicate_state(crtc, &state->base);
	state->touched_planes = 0;
	state->sched_token = 0;
	state->sched_target = 0;
	state->sched_not_before_ns = 0;
	if (state->transform_blob)
		drm_property_blob_get(state->transform_blob);
	return &state->base;
}

/* Replace *@blob by the blob @id (0: none), which must be @size bytes. */
static int mmx_crtc_replace_blob(struct drm_device *dev,
				 struct drm_property_blob **blob, u64 id,
				 size_t size)
{
	struct drm_property_blob *new_blob = NULL;

	if (id) {
		new_blob = drm_property_lookup_blob(dev, id);
		if (!new_blob)
			return -EINVAL;
		if (new_blob->length != size) {
			drm_property_blob_put(new_blob);
			return -EINVAL;
		}
	}
	drm_property_replace_blob(blob, new_blob);
	drm_property_blob_put(new_blob);
	return 0;
}

static int mmx_crtc_set_property(struct drm_crtc *crtc,
				 struct drm_crtc_state *state,
				 struct drm_property *property, u64 val)
{
	struct mmx_device *mmx = to_mmx_device(crtc->dev);
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(state);

	if (property == mmx->transform_prop)
		return mmx_crtc_replace_blob(crtc->dev, &mmx_state->transform_blob,
					     val, sizeof(struct drm_mmx_transform));
	if (property == mmx->filter_prop) {
		if (val > MMX_TRANSFORM_FILTER_BILINEAR)
			return -EINVAL;
		mmx_state->filter = val == MMX_TRANSFORM_FILTER_BILINEAR ?
				    MMX_FILTER_BILINEAR : MMX_FILTER_NEAREST;
		return 0;
	}
	return -EINVAL;
}

static int mmx_crtc_get_property(struct drm_crtc *crtc,
				 const struct drm_crtc_state *state,
				 struct drm_property *property, u64 *val)
{
	struct mmx_device *mmx = to_mmx_device(crtc->dev);
	const struct mmx_crtc_state *mmx_state =
		container_of(state, struct mmx_crtc_state, base);

	if (property == mmx->transform_prop)
		*val = mmx_state->transform_blob ?
		       mmx_state->transform_blob->base.id : 0;
	else if (property == mmx->filter_prop)
		*val = mmx_state->filter == MMX_FILTER_BILINEAR ?
		       MMX_TRANSFORM_FILTER_BILINEAR :
		       MMX_TRANSFORM_FILTER_NEAREST;
	else
		return -EINVAL;
	return 0;
}

/* The CRTC's debugfs files, one per concern. */
static int mmx_crtc_late_register(struct drm_crtc *crtc)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);

	mmx_composer_debugfs_init(output);
	mmx_vblank_debugfs_init(output);
	return 0;
}

static const struct drm_crtc_funcs mmx_crtc_funcs = {
	.set_config = drm_atomic_helper_set_config,
	.page_flip = drm_atomic_helper_page_flip,
	.reset = mmx_crtc_reset,
	.atomic_duplicate_state = mmx_crtc_duplicate_state,
	.atomic_destroy_state = mmx_crtc_destroy_state,
	.atomic_set_property = mmx_crtc_set_property,
	.atomic_get_property = mmx_crtc_get_property,
	.enable_vblank = mmx_vblank_enable,
	.disable_vblank = mmx_vblank_disable,
	.get_vblank_timestamp = mmx_vblank_get_timestamp,
	.get_crc_sources = mmx_crc_get_sources,
	.set_crc_source = mmx_crc_set_source,
	.verify_crc_source = mmx_crc_verify_source,
	.late_register = mmx_crtc_late_register,
};

/* Atomic check: decode the visible planes into compositor layers */

static enum mmx_blend_mode mmx_blend_mode_of(u16 pixel_blend_mode)
{
	switch (pixel_blend_mode) {
	case DRM_MODE_BLEND_PIXEL_NONE:
		return MMX_BLEND_NONE;
	case DRM_MODE_BLEND_COVERAGE:
		return MMX_BLEND_COVERAGE;
	default:
		return MMX_BLEND_PREMULTI;
	}
}

/* DRM_MODE_ROTATE_* and _REFLECT_* bits as the resampler's. */
static unsigned int mmx_rotation_of(unsigned int rotation)
{
	static const unsigned int map[][2] = {
		{ DRM_MODE_ROTATE_0, MMX_ROTATE_0 },
		{ DRM_MODE_ROTATE_90, MMX_ROTATE_90 },
		{ DRM_MODE_ROTATE_180, MMX_ROTATE_180 },
		{ DRM_MODE_ROTATE_270, MMX_ROTATE_270 },
		{ DRM_MODE_REFLECT_X, MMX_REFLECT_X },
		{ DRM_MODE_REFLECT_Y, MMX_REFLECT_Y },
	};
	unsigned int i, bits = 0;

	for (i = 0; i < ARRAY_SIZE(map); i++)
		if (rotation & map[i][0])
			bits |= map[i][1];
	return bits;
}

/*
 * The YCbCr matrix of a YUV plane: its COLOR_ENCODING and COLOR_RANGE for
 * the depth of @format (the core accepts only the values the plane lists).
 */
static int mmx_crtc_layer_yuv(struct mmx_crtc_layer *cl,
			      const struct drm_plane_state *plane_state,
			      enum mmx_format format)
{
	const struct drm_framebuffer *fb = plane_state->fb;
	struct mmx_yuv_image *yuv = &cl->src.yuv;
	enum mmx_yuv_encoding encoding;
	unsigned int i;

	switch (plane_state->color_encoding) {
	case DRM_COLOR_YCBCR_BT601:
		encoding = MMX_YUV_BT601;
		break;
	case DRM_COLOR_YCBCR_BT709:
		encoding = MMX_YUV_BT709;
		break;
	case DRM_COLOR_YCBCR_BT2020:
		encoding = MMX_YUV_BT2020;
		break;
	default:
		return -EINVAL;
	}
	yuv->format = format;
	for (i = 0; i < MMX_YUV_PLANES; i++) {
		yuv->planes[i] = NULL;
		yuv->pitches[i] = i < fb->format->num_planes ? fb->pitches[i] : 0;
	}
	return mmx_yuv_matrix_init(&yuv->matrix, encoding,
				   plane_state->color_range ==
				   DRM_COLOR_YCBCR_FULL_RANGE ?
				   MMX_YUV_FULL : MMX_YUV_LIMITED,
				   mmx_yuv_depth(format));
}

/*
 * A plane that is not shown one to one: resampled by the composer from
 * the source rectangle's pixels into an image of the clipped destination
 * @dst, which is then blended as @cl's layer.
 */
static int mmx_crtc_layer_resample(struct mmx_crtc_layer *cl,
				   const struct drm_plane_state *plane_state,
				   const struct mmx_resample_geom *g,
				   const struct drm_rect *dst,
				   enum mmx_format format)
{
	const struct drm_framebuffer *fb = plane_state->fb;
	struct mmx_layer *layer = &cl->layer;
	int ret;

	ret = mmx_resample_prepare(&cl->transform, g,
				   (u32)((s64)dst->x1 - plane_state->crtc_x),
				   (u32)((s64)dst->y1 - plane_state->crtc_y),
				   layer->width, layer->height);
	if (ret)
		return ret;
	cl->resampled = true;
	cl->filter = plane_state->scaling_filter ==
		     DRM_SCALING_FILTER_NEAREST_NEIGHBOR ?
		     MMX_FILTER_NEAREST : MMX_FILTER_BILINEAR;
	/* The core keeps the source rectangle inside the framebuffer. */
	cl->src = (struct mmx_resample_src) {
		.pitch = fb->pitches[0],
		.format = format,
		.x1 = g->src_x >> 16,
		.y1 = g->src_y >> 16,
		.x2 = DIV_ROUND_UP_ULL((u64)g->src_x + g->src_w, 1 << 16),
		.y2 = DIV_ROUND_UP_ULL((u64)g->src_y + g->src_h, 1 << 16),
	};
	layer->format = mmx_format_has_alpha(format) ? MMX_FORMAT_ARGB8888 :
						       MMX_FORMAT_XRGB8888;
	layer->pitch = layer->width * 4;
	cl->offset = 0;
	if (mmx_format_is_yuv(format))
		return mmx_crtc_layer_yuv(cl, plane_state, format);
	return 0;
}

/*
 * Clip a plane to the CRTC space and describe it as a compositor layer:
 * blended straight from the framebuffer when shown one to one, else
 * resampled first (a YUV plane always: the resampler converts it).
 * Return: 1 if visible, 0 if not, or -EINVAL.
 */
static int mmx_crtc_layer_decode(struct mmx_crtc_layer *cl,
				 struct drm_plane_state *plane_state,
				 const struct drm_rect *space)
{
	const struct drm_framebuffer *fb = plane_state->fb;
	struct mmx_layer *layer = &cl->layer;
	struct mmx_resample_geom g = {
		.src_x = plane_state->src_x,
		.src_y = plane_state->src_y,
		.src_w = plane_state->src_w,
		.src_h = plane_state->src_h,
		.dst_w = plane_state->crtc_w,
		.dst_h = plane_state->crtc_h,
		.rotation = mmx_rotation_of(plane_state->rotation),
	};
	enum mmx_format format;
	struct drm_rect dst;
	u32 src_x, src_y;

	/* The core refuses CRTC_X + CRTC_W beyond INT_MAX (-ERANGE). */
	drm_rect_init(&dst, plane_state->crtc_x, plane_state->crtc_y,
		      plane_state->crtc_w, plane_state->crtc_h);
	if (!drm_rect_intersect(&dst, space))
		return 0;

	if (!mmx_format_lookup(fb->format->format, &format))
		return -EINVAL;

	layer->pixels = NULL;
	layer->dst_x = dst.x1 - space->x1;
	layer->dst_y = dst.y1 - space->y1;
	layer->width = drm_rect_width(&dst);
	layer->height = drm_rect_height(&dst);
	layer->alpha = plane_state->alpha;
	layer->blend = mmx_blend_mode_of(plane_state->pixel_blend_mode);
	cl->plane_state = plane_state;
	cl->resampled = false;
	if (!mmx_resample_is_copy(&g) || mmx_format_is_yuv(format))
		return mmx_crtc_layer_resample(cl, plane_state, &g, &dst,
					       format) ?: 1;

	src_x = (plane_state->src_x >> 16) + (dst.x1 - plane_state->crtc_x);
	src_y = (plane_state->src_y >> 16) + (dst.y1 - plane_state->crtc_y);
	layer->format = format;
	layer->pitch = fb->pitches[0];
	/* The shadow-plane mapping already points at fb->offsets[0]. */
	cl->offset = (size_t)src_y * fb->pitches[0] +
		     (size_t)src_x * fb->format->cpp[0];
	return 1;
}

/* Decode TRANSFORM for the mode and set the CRTC space. */
static int mmx_crtc_check_transform(struct drm_crtc *crtc,
				    struct mmx_crtc_state *mmx_state)
{
	const struct drm_display_mode *mode = &mmx_state->base.mode;
	const struct drm_mmx_transform *blob;
	s32 x, y;
	u32 w, h;
	int ret;

	mmx_state->transformed = false;
	drm_rect_init(&mmx_state->space, 0, 0, mode->hdisplay, mode->vdisplay);
	mmx_transform_identity(&mmx_state->transform, mode->hdisplay,
			       mode->vdisplay);
	if (!mmx_state->transform_blob)
		return 0;

	blob = mmx_state->transform_blob->data;
	ret = mmx_transform_prepare(&mmx_state->transform, blob->matrix,
				    mode->hdisplay, mode->vdisplay,
				    MMX_TRANSFORM_SPACE_MAX);
	if (ret) {
		drm_dbg_atomic(crtc->dev, "[CRTC:%d:%s] transform refused\n",
			       crtc->base.id, crtc->name);
		return ret;
	}
	if (mmx_state->transform.kind == MMX_TRANSFORM_IDENTITY)
		return 0;

	mmx_transform_bbox(&mmx_state->transform, &x, &y, &w, &h);
	drm_rect_init(&mmx_state->space, x, y, w, h);
	mmx_state->transformed = true;
	return 0;
}

/*
 * A CRTC that is off has no mode, yet what no mode could accept is refused
 * already: a TRANSFORM refused for a 1x1 output. Its checks are implied by
 * those for any mode, whose rectangle holds the 1x1 one (singular, entries,
 * w <= 0, space limits).
 */
static int mmx_crtc_check_off(struct drm_crtc *crtc,
			      const struct mmx_crtc_state *mmx_state)
{
	const struct drm_mmx_transform *matrix;
	struct mmx_transform t;

	if (!mmx_state->transform_blob)
		return 0;
	matrix = mmx_state->transform_blob->data;
	if (!mmx_transform_prepare(&t, matrix->matrix, 1, 1,
				   MMX_TRANSFORM_SPACE_MAX))
		return 0;
	drm_dbg_atomic(crtc->dev, "[CRTC:%d:%s] transform refused\n",
		       crtc->base.id, crtc->name);
	return -EINVAL;
}

/*
 * Decode @plane_state into the layers of @mmx_state, @n of which are
 * decoded already, at its place by normalized zpos (unique per CRTC).
 * Return: 1 if it is visible (then inserted), 0 if not, or -EINVAL.
 */
static int mmx_crtc_layer_insert(struct mmx_crtc_state *mmx_state,
				 unsigned int n,
				 struct drm_plane_state *plane_state)
{
	struct mmx_crtc_layer *sorted = mmx_state->layers;
	unsigned int i;
	int ret;

	for (i = n; i > 0; i--) {
		if (sorted[i - 1].plane_state->normalized_zpos <
		    plane_state->normalized_zpos)
			break;
	}
	memmove(&sorted[i + 1], &sorted[i], (n - i) * sizeof(sorted[0]));
	ret = mmx_crtc_layer_decode(&sorted[i], plane_state,
				    &mmx_state->space);
	if (ret == 0)
		memmove(&sorted[i], &sorted[i + 1],
			(n - i) * sizeof(sorted[0]));
	return ret;
}

static int mmx_crtc_atomic_check(struct drm_crtc *crtc,
				 struct mmx_atomic_state *state)
{
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, crtc);
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(crtc_state);
	struct drm_plane_state *plane_state;
	struct drm_plane *plane;
	unsigned int n = 0;
	int ret;

	mmx_state->num_layers = 0;
	if (!crtc_state->enable)
		return mmx_crtc_check_off(crtc, mmx_state);

	ret = mmx_crtc_check_transform(crtc, mmx_state);
	if (ret)
		return ret;
	if (!crtc_state->active)
		return 0;

	drm_for_each_plane_mask(plane, crtc->dev, crtc_state->plane_mask) {
		plane_state = drm_atomic_get_new_plane_state(state, plane);
		if (!plane_state)
			plane_state = plane->state;
		if (!plane_state->fb)
			continue;
		if (WARN_ON(n == MMX_PLANES_PER_CRTC))
			return -EINVAL;
		ret = mmx_crtc_layer_insert(mmx_state, n, plane_state);
		if (ret < 0)
			return ret;
		n += ret;
	}

	mmx_state->num_layers = n;
	return 0;
}

static void mmx_crtc_atomic_enable(struct drm_crtc *crtc,
				   struct mmx_atomic_state *state)
{
	const struct mmx_backend_funcs *backend =
		to_mmx_device(crtc->dev)->backend;

	drm_crtc_vblank_on(crtc);
	if (backend && backend->crtc_enable)
		backend->crtc_enable(crtc_to_mmx_output(crtc));
}

static void mmx_crtc_atomic_disable(struct drm_crtc *crtc,
				    struct mmx_atomic_state *state)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);
	const struct mmx_backend_funcs *backend =
		to_mmx_device(crtc->dev)->backend;

	drm_crtc_vblank_off(crtc);
	mmx_vblank_off(output);
	mmx_composer_drain(output);
	mmx_composer_trim(output);
	mmx_schedule_crtc_off(output);
	if (backend && backend->crtc_disable)
		backend->crtc_disable(output, state);
}

static void mmx_crtc_atomic_flush(struct drm_crtc *crtc,
				  struct mmx_atomic_state *state)
{
	mmx_vblank_flush(crtc_to_mmx_output(crtc), state);
}

static const struct drm_crtc_helper_funcs mmx_crtc_helper_funcs = {
	.atomic_check = mmx_crtc_atomic_check,
	.atomic_flush = mmx_crtc_atomic_flush,
	.atomic_enable = mmx_crtc_atomic_enable,
	.atomic_disable = mmx_crtc_atomic_disable,
};

static void mmx_crtc_release(struct drm_device *dev, void *data)
{
	struct mmx_output *output = data;

	mmx_vblank_release(output);
	mmx_composer_release(output);
}

static const struct drm_prop_enum_list mmx_filter_names[] = {
	{ MMX_TRANSFORM_FILTER_NEAREST, "nearest" },
	{ MMX_TRANSFORM_FILTER_BILINEAR, "bilinear" },
};

/* The CRTC properties are created once, for all CRTCs. */
static int mmx_crtc_create_props(struct mmx_device *mmx)
{
	struct drm_device *dev = &mmx->drm;

	if (mmx->transform_prop)
		return 0;

	mmx->transform_prop = drm_property_create(dev, DRM_MODE_PROP_BLOB,
						  "TRANSFORM", 0);
	mmx->filter_prop = drm_property_create_enum(dev, 0, "TRANSFORM_FILTER",
						    mmx_filter_names,
						    ARRAY_SIZE(mmx_filter_names));
	if (!mmx->transform_prop || !mmx->filter_prop)
		return -ENOMEM;
	return 0;
}

/**
 * mmx_crtc_init - create the planes and the CRTC of an output
 * @mmx: the device
 * @output: the output; CRTCs must be created in output order
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_crtc_init(struct mmx_device *mmx, struct mmx_output *output)
{
	struct drm_device *dev = &mmx->drm;
	unsigned int i;
	int ret;

	if (WARN_ON(output->layout.overlays > MMX_OVERLAYS_PER_CRTC))
		return -EINVAL;

	/* Planes */
	output->primary = mmx_plane_create(mmx, output, DRM_PLANE_TYPE_PRIMARY,
					   0);
	if (IS_ERR(output->primary))
		return PTR_ERR(output->primary);

	for (i = 0; i < output->layout.overlays; i++) {
		output->overlays[i] = mmx_plane_create(mmx, output,
						       DRM_PLANE_TYPE_OVERLAY,
						       i + 1);
		if (IS_ERR(output->overlays[i]))
			return PTR_ERR(output->overlays[i]);
	}

	if (output->layout.cursor) {
		output->cursor = mmx_plane_create(mmx, output,
						  DRM_PLANE_TYPE_CURSOR,
						  MMX_OVERLAYS_PER_CRTC + 1);
		if (IS_ERR(output->cursor))
			return PTR_ERR(output->cursor);
	}

	/* CRTC */
	ret = drmm_crtc_init_with_planes(dev, &output->crtc, output->primary,
					 output->cursor, &mmx_crtc_funcs, NULL);
	if (ret)
		return ret;
	drm_crtc_helper_add(&output->crtc, &mmx_crtc_helper_funcs);
	if (WARN_ON(drm_crtc_index(&output->crtc) != output->index))
		return -EINVAL;

	spin_lock_init(&output->lock);
	mmx_vblank_init(output);
	ret = mmx_composer_init(output);
	if (ret)
		return ret;

	ret = mmx_crtc_create_props(mmx);
	if (ret)
		return ret;
	drm_object_attach_property(&output->crtc.base, mmx->transform_prop, 0);
	drm_object_attach_property(&output->crtc.base, mmx->filter_prop,
				   MMX_TRANSFORM_FILTER_NEAREST);

	return drmm_add_action_or_reset(dev, mmx_crtc_release, output);
}
