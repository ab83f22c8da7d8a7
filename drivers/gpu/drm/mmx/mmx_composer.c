// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The composer: when an output is observed (a CRC source is set or a
 * writeback job is queued) or, on the virtio backend, when its picture
 * changed, blend its planes into a frame once per vblank, on an ordered
 * workqueue, outside the atomic commit's critical path.
 */

#include <linux/crc32.h>
#include <linux/iosys-map.h>
#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"

static int mmx_composer_reserve(u32 **buf, size_t *capacity, size_t words)
{
	u32 *grown;

	if (words <= *capacity)
		return 0;
	grown = kvmalloc_array(words, sizeof(u32), GFP_KERNEL);
	if (!grown)
		return -ENOMEM;
	kvfree(*buf);
	*buf = grown;
	*capacity = words;
	return 0;
}

/*
 * Resample the plane of @cl, whose framebuffer mapping is @vaddr, into
 * output->plane_pixels, and point @layer at it.
 * Return: 0, or -ENOMEM (the plane is then not shown).
 */
static int mmx_compose_resampled(struct mmx_output *output,
				 const struct mmx_crtc_layer *cl,
				 const void *vaddr, struct mmx_layer *layer)
{
	const struct mmx_transform *t = &cl->transform;
	struct mmx_resample_src src = cl->src;
	size_t words = (size_t)t->out_w * t->out_h;
	bool alpha = cl->filter == MMX_FILTER_BILINEAR &&
		     mmx_format_has_alpha(src.format);
	struct mmx_frame image;
	size_t scratch;
	int ret;

	src.pixels = vaddr;
	scratch = mmx_resample_scratch_words(t, &src);
	ret = mmx_composer_reserve(&output->plane_pixels, &output->plane_size,
				   words);
	if (!ret && alpha)
		ret = mmx_composer_reserve(&output->plane_alpha,
					   &output->plane_alpha_size, words);
	if (!ret)
		ret = mmx_composer_reserve(&output->plane_scratch,
					   &output->plane_scratch_size,
					   max_t(size_t, scratch, 1));
	if (ret)
		return ret;

	image.pixels = output->plane_pixels;
	image.width = t->out_w;
	image.height = t->out_h;
	image.stride = t->out_w;
	mmx_resample(t, cl->filter, &src, &image,
		     alpha ? output->plane_alpha : NULL, output->plane_scratch,
		     output->plane_scratch_size);
	layer->pixels = (const u8 *)output->plane_pixels;
	return 0;
}

/* Blend the layers of @state into @frame, which covers the CRTC space. */
static void mmx_compose_layers(struct mmx_output *output,
			       const struct mmx_crtc_state *state,
			       struct mmx_frame *frame)
{
	unsigned int i;

	mmx_frame_fill(frame, 0);
	for (i = 0; i < state->num_layers; i++) {
		const struct mmx_crtc_layer *cl = &state->layers[i];
		const struct drm_shadow_plane_state *shadow =
			to_drm_shadow_plane_state(cl->plane_state);
		const void *vaddr = shadow->data[0].vaddr;
		struct mmx_layer layer = cl->layer;

		if (!vaddr)
			continue;
		if (!cl->resampled)
			layer.pixels = (const u8 *)vaddr + cl->offset;
		else if (mmx_compose_resampled(output, cl, vaddr, &layer))
			continue;
		mmx_frame_blend(frame, &layer, output->scratch);
	}
}

/*
 * Compose what @state shows into output->frame: the planes blended in CRTC
 * space, then, with a transform, that space resampled into the mode.
 */
static int mmx_compose(struct mmx_output *output,
		       const struct mmx_crtc_state *state)
{
	const struct drm_display_mode *mode = &state->base.mode;
	u32 space_w = drm_rect_width(&state->space);
	u32 space_h = drm_rect_height(&state->space);
	struct mmx_frame *frame = &output->frame;
	struct mmx_frame space;
	int ret;

	if (mode->hdisplay <= 0 || mode->vdisplay <= 0)
		return -EINVAL;

	ret = mmx_composer_reserve(&output->frame_pixels, &output->frame_size,
				   (size_t)mode->hdisplay * mode->vdisplay);
	if (ret)
		return ret;
	ret = mmx_composer_reserve(&output->scratch, &output->scratch_size,
				   max_t(u32, mode->hdisplay, space_w));
	if (ret)
		return ret;

	frame->pixels = output->frame_pixels;
	frame->width = mode->hdisplay;
	frame->height = mode->vdisplay;
	frame->stride = mode->hdisplay;

	if (!state->transformed) {
		mmx_compose_layers(output, state, frame);
		return 0;
	}

	ret = mmx_composer_reserve(&output->space_pixels, &output->space_size,
				   (size_t)space_w * space_h);
	if (ret)
		return ret;
	space.pixels = output->space_pixels;
	space.width = space_w;
	space.height = space_h;
	space.stride = space_w;
	mmx_compose_layers(output, state, &space);
	mmx_transform_compose(&state->transform, state->filter, &space,
			      state->space.x1, state->space.y1, frame, 0,
			      frame->height);
	return 0;
}

/* Compose one frame if somebody is waiting for one. */
static void mmx_composer_run(struct mmx_output *output)
{
	struct drm_crtc *crtc = &output->crtc;
	const struct mmx_backend_funcs *backend =
		to_mmx_device(crtc->dev)->backend;
	struct mmx_damage damage;
	struct mmx_crtc_state *state;
	u64 frame_start, frame_end;
	bool crc, writeback, host;
	u32 crc32;
	int ret = -EINVAL;

	spin_lock_irq(&output->lock);
	state = output->composer_state;
	crc = output->crc_pending;
	frame_start = output->crc_frame_start;
	frame_end = output->crc_frame_end;
	output->crc_pending = false;
	/* Taken with the state: the damage belongs to this picture. */
	host = mmx_damage_take(output, &damage);
	spin_unlock_irq(&output->lock);

	writeback = mmx_writeback_pending(output);
	if (!crc && !writeback && !host)
		return;

	if (state && state->base.active)
		ret = mmx_compose(output, state);
	if (ret) {
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] nothing composed: %d\n",
			    crtc->base.id, crtc->name, ret);
		if (host)
			backend->present(output, NULL, &damage);
		if (writeback)
			mmx_writeback_complete(output, NULL);
		return;
	}

	if (host)
		backend->present(output, &output->frame, &damage);

	if (writeback)
		mmx_writeback_complete(output, &output->frame);

	if (!crc)
		return;
	crc32 = crc32_le(0, (const u8 *)output->frame.pixels,
			 (size_t)output->frame.width * output->frame.height * 4);
	/* If the composer fell behind, every missed frame showed this one. */
	while (frame_start <= frame_end)
		drm_crtc_add_crc_entry(crtc, true, frame_start++, &crc32);
}

/**
 * mmx_composer_work - work item composing an output's frame
 * @work: &mmx_output.compose_work
 */
void mmx_composer_work(struct work_struct *work)
{
	mmx_composer_run(container_of(work, struct mmx_output, compose_work));
}

/**
 * mmx_composer_vblank - account a vblank and queue a composition if needed
 * @output: the output
 * @frame: the vblank count that just started
 *
 * Called from the vblank timer, in hard interrupt context.
 */
void mmx_composer_vblank(struct mmx_output *output, u64 frame)
{
	struct mmx_device *mmx = to_mmx_device(output->crtc.dev);
	bool compose;

	spin_lock(&output->lock);
	if (output->crc_enabled) {
		/*
		 * Frames owed from before the picture changed are dropped: the
		 * composer would show them the new one.
		 */
		if (!output->crc_pending ||
		    output->crc_state != output->composer_state)
			output->crc_frame_start = frame;
		output->crc_state = output->composer_state;
		output->crc_frame_end = frame;
		output->crc_pending = true;
	}
	compose = output->crc_enabled || mmx_damage_frame_due(output);
	spin_unlock(&output->lock);

	if (compose || mmx_writeback_pending(output))
		queue_work(mmx->composer_wq, &output->compose_work);
}

/**
 * mmx_composer_drain - finish every queued writeback job now
 * @output: the output, whose vblank timer is stopped
 *
 * Called when the CRTC is disabled, so that no writeback job waits forever.
 */
void mmx_composer_drain(struct mmx_output *output)
{
	flush_work(&output->compose_work);
	while (mmx_writeback_pending(output))
		mmx_composer_run(output);
}

/**
 * mmx_composer_release - free the composer's memory
 * @output: the output, whose composer no longer runs
 */
void mmx_composer_release(struct mmx_output *output)
{
	kvfree(output->frame_pixels);
	output->frame_pixels = NULL;
	output->frame_size = 0;
	kvfree(output->scratch);
	output->scratch = NULL;
	output->scratch_size = 0;
	kvfree(output->space_pixels);
	output->space_pixels = NULL;
	output->space_size = 0;
	kvfree(output->plane_pixels);
	output->plane_pixels = NULL;
	output->plane_size = 0;
	kvfree(output->plane_alpha);
	output->plane_alpha = NULL;
	output->plane_alpha_size = 0;
	kvfree(output->plane_scratch);
	output->plane_scratch = NULL;
	output->plane_scratch_size = 0;
}

/* CRC */

static const char *const mmx_crc_sources[] = { "auto" };

/**
 * mmx_crc_get_sources - list the CRC sources
 * @crtc: the CRTC
 * @count: where to store the number of sources
 *
 * Return: the source names.
 */
const char *const *mmx_crc_get_sources(struct drm_crtc *crtc, size_t *count)
{
	*count = ARRAY_SIZE(mmx_crc_sources);
	return mmx_crc_sources;
}

static int mmx_crc_parse_source(const char *source, bool *enabled)
{
	*enabled = false;
	if (!source)
		return 0;
	if (strcmp(source, "auto"))
		return -EINVAL;
	*enabled = true;
	return 0;
}

/**
 * mmx_crc_verify_source - check a CRC source name
 * @crtc: the CRTC
 * @source: the name, or NULL to stop
 * @values_cnt: where to store the number of values per CRC entry
 *
 * Return: 0 or -EINVAL for an unknown source.
 */
int mmx_crc_verify_source(struct drm_crtc *crtc, const char *source,
			  size_t *values_cnt)
{
	bool enabled;

	if (mmx_crc_parse_source(source, &enabled)) {
		drm_dbg_kms(crtc->dev, "unknown CRC source %s\n", source);
		return -EINVAL;
	}
	*values_cnt = 1;
	return 0;
}

/**
 * mmx_crc_set_source - start or stop computing CRCs
 * @crtc: the CRTC
 * @source: "auto", or NULL to stop
 *
 * While a source is set the CRTC's vblank stays enabled, so that one CRC is
 * produced per frame.
 *
 * Return: 0 or -EINVAL for an unknown source.
 */
int mmx_crc_set_source(struct drm_crtc *crtc, const char *source)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);
	bool enabled;
	int ret;

	ret = mmx_crc_parse_source(source, &enabled);
	if (ret)
		return ret;

	if (enabled && !output->crc_vblank_ref)
		output->crc_vblank_ref = drm_crtc_vblank_get(crtc) == 0;

	spin_lock_irq(&output->lock);
	output->crc_enabled = enabled;
	if (!enabled)
		output->crc_pending = false;
	spin_unlock_irq(&output->lock);

	if (!enabled) {
		flush_work(&output->compose_work);
		if (output->crc_vblank_ref)
			drm_crtc_vblank_put(crtc);
		output->crc_vblank_ref = false;
	}
	return 0;
}
