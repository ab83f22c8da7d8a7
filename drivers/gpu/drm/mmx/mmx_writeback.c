// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Writeback: one connector per CRTC that captures the composed frame.
 */

#include <linux/iosys-map.h>
#include <linux/slab.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_edid.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "mmx_compat.h"
#include "mmx_drv.h"

static const u32 mmx_wb_formats[] = {
	DRM_FORMAT_XRGB8888,
	DRM_FORMAT_ARGB8888,
};

/**
 * struct mmx_wb_job - driver data of a writeback job
 * @map: kernel mappings of the framebuffer's objects
 * @data: kernel mappings of the framebuffer's planes
 * @vblank_ref: the job holds a vblank reference of its CRTC
 */
struct mmx_wb_job {
	struct iosys_map map[DRM_FORMAT_MAX_PLANES];
	struct iosys_map data[DRM_FORMAT_MAX_PLANES];
	bool vblank_ref;
};

static int mmx_wb_encoder_atomic_check(struct drm_encoder *encoder,
				       struct drm_crtc_state *crtc_state,
				       struct drm_connector_state *conn_state)
{
	const struct drm_display_mode *mode = &crtc_state->mode;
	struct drm_framebuffer *fb;

	if (!conn_state->writeback_job || !conn_state->writeback_job->fb)
		return 0;

	fb = conn_state->writeback_job->fb;
	if (fb->width != mode->hdisplay || fb->height != mode->vdisplay) {
		drm_dbg_atomic(encoder->dev,
			       "writeback framebuffer %ux%u, mode %dx%d\n",
			       fb->width, fb->height, mode->hdisplay,
			       mode->vdisplay);
		return -EINVAL;
	}

	return mmx_check_wb_state(encoder, conn_state);
}

static const struct drm_encoder_helper_funcs mmx_wb_encoder_helper_funcs = {
	.atomic_check = mmx_wb_encoder_atomic_check,
};

static int mmx_wb_get_modes(struct drm_connector *connector)
{
	return drm_add_modes_noedid(connector, MMX_MODE_MAX, MMX_MODE_MAX);
}

static int mmx_wb_prepare_job(struct drm_writeback_connector *wb,
			      struct drm_writeback_job *job)
{
	struct mmx_wb_job *mmx_job;
	int ret;

	if (!job->fb)
		return 0;

	mmx_job = kzalloc(sizeof(*mmx_job), GFP_KERNEL);
	if (!mmx_job)
		return -ENOMEM;

	ret = drm_gem_fb_vmap(job->fb, mmx_job->map, mmx_job->data);
	if (ret) {
		kfree(mmx_job);
		return ret;
	}
	job->priv = mmx_job;
	return 0;
}

static void mmx_wb_cleanup_job(struct drm_writeback_connector *wb,
			       struct drm_writeback_job *job)
{
	struct mmx_wb_job *mmx_job = job->priv;

	if (!mmx_job)
		return;
	drm_gem_fb_vunmap(job->fb, mmx_job->map);
	kfree(mmx_job);
}

static void mmx_wb_atomic_commit(struct drm_connector *connector,
				 struct mmx_atomic_state *state)
{
	struct drm_connector_state *conn_state =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_writeback_connector *wb = drm_connector_to_writeback(connector);
	struct mmx_output *output = wb_to_mmx_output(wb);
	struct mmx_wb_job *mmx_job = conn_state->writeback_job->priv;

	/* Keep the vblank timer, and so the composer, running for the job. */
	mmx_job->vblank_ref = drm_crtc_vblank_get(&output->crtc) == 0;
	drm_writeback_queue_job(wb, conn_state);
}

static const struct drm_connector_helper_funcs mmx_wb_connector_helper_funcs = {
	.get_modes = mmx_wb_get_modes,
	.prepare_writeback_job = mmx_wb_prepare_job,
	.cleanup_writeback_job = mmx_wb_cleanup_job,
	.atomic_commit = mmx_wb_atomic_commit,
};

static const struct drm_connector_funcs mmx_wb_connector_funcs = {
	.fill_modes = drm_helper_probe_single_connector_modes,
	.destroy = drm_connector_cleanup,
	.reset = drm_atomic_helper_connector_reset,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
};

/**
 * mmx_writeback_pending - whether a writeback job waits for a frame
 * @output: the output
 *
 * Return: true if a job is queued.
 */
bool mmx_writeback_pending(struct mmx_output *output)
{
	unsigned long flags;
	bool pending;

	spin_lock_irqsave(&output->wb.job_lock, flags);
	pending = !list_empty(&output->wb.job_queue);
	spin_unlock_irqrestore(&output->wb.job_lock, flags);
	return pending;
}

/**
 * mmx_writeback_complete - hand a composed frame to the oldest job
 * @output: the output
 * @frame: the composed frame, or NULL if composition failed (the job then
 *	completes with -EIO)
 *
 * Only the composer calls this, so the oldest job cannot go away meanwhile.
 */
void mmx_writeback_complete(struct mmx_output *output,
			    const struct mmx_frame *frame)
{
	struct drm_writeback_job *job;
	const struct drm_framebuffer *fb;
	struct mmx_wb_job *mmx_job;
	unsigned long flags;
	u32 y, rows, bytes;
	u8 *dst;

	spin_lock_irqsave(&output->wb.job_lock, flags);
	job = list_first_entry_or_null(&output->wb.job_queue,
				       struct drm_writeback_job, list_entry);
	spin_unlock_irqrestore(&output->wb.job_lock, flags);
	if (!job)
		return;

	fb = job->fb;
	mmx_job = job->priv;
	if (frame && mmx_job && mmx_job->data[0].vaddr) {
		/* data[0] already points at fb->offsets[0]. */
		dst = mmx_job->data[0].vaddr;
		rows = min(fb->height, frame->height);
		bytes = min(fb->width, frame->width) * 4;
		/* XRGB8888 and ARGB8888 alike: the frame's alpha is 0xff. */
		for (y = 0; y < rows; y++)
			memcpy(dst + (size_t)y * fb->pitches[0],
			       frame->pixels + (size_t)y * frame->stride, bytes);
	}

	if (mmx_job && mmx_job->vblank_ref)
		drm_crtc_vblank_put(&output->crtc);
	drm_writeback_signal_completion(&output->wb, frame ? 0 : -EIO);
}

/**
 * mmx_writeback_init - create the writeback connector of an output
 * @mmx: the device
 * @output: the output, whose CRTC already exists; nothing is created
 *	unless its layout has a writeback connector
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_writeback_init(struct mmx_device *mmx, struct mmx_output *output)
{
	int ret;

	/* Without a writeback connector, a queue that stays empty. */
	if (!output->layout.writeback) {
		spin_lock_init(&output->wb.job_lock);
		INIT_LIST_HEAD(&output->wb.job_queue);
		return 0;
	}

	drm_connector_helper_add(&output->wb.base,
				 &mmx_wb_connector_helper_funcs);
	ret = drm_writeback_connector_init(&mmx->drm, &output->wb,
					   &mmx_wb_connector_funcs,
					   &mmx_wb_encoder_helper_funcs,
					   mmx_wb_formats,
					   ARRAY_SIZE(mmx_wb_formats),
					   drm_crtc_mask(&output->crtc));
	return ret;
}
