// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * CRTCs: state, plane stacking and the simulated vertical blanking.
 */

#include <linux/hrtimer.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_blend.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"

/* State */

static void mmx_crtc_destroy_state(struct drm_crtc *crtc,
				   struct drm_crtc_state *state)
{
	__drm_atomic_helper_crtc_destroy_state(state);
	kfree(to_mmx_crtc_state(state));
}

static void mmx_crtc_reset(struct drm_crtc *crtc)
{
	struct mmx_crtc_state *state = kzalloc(sizeof(*state), GFP_KERNEL);

	if (crtc->state)
		mmx_crtc_destroy_state(crtc, crtc->state);
	__drm_atomic_helper_crtc_reset(crtc, state ? &state->base : NULL);
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
	return &state->base;
}

/* Vertical blanking */

static enum hrtimer_restart mmx_vblank_timer_fn(struct hrtimer *timer)
{
	struct mmx_output *output = container_of(timer, struct mmx_output,
						  vblank_timer);
	struct drm_crtc *crtc = &output->crtc;
	u64 overruns;

	if (!READ_ONCE(output->vblank_on))
		return HRTIMER_NORESTART;

	overruns = hrtimer_forward_now(timer, output->frame_period);
	if (overruns != 1)
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] vblank timer overrun %llu\n",
			    crtc->base.id, crtc->name, overruns);

	/* Disabled while this ran: see mmx_crtc_disable_vblank(). */
	if (!drm_crtc_handle_vblank(crtc))
		return HRTIMER_NORESTART;
	mmx_composer_vblank(output, drm_crtc_vblank_count(crtc));
	return READ_ONCE(output->vblank_on) ? HRTIMER_RESTART :
					      HRTIMER_NORESTART;
}

static int mmx_crtc_enable_vblank(struct drm_crtc *crtc)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);
	struct drm_vblank_crtc *vblank =
		&crtc->dev->vblank[drm_crtc_index(crtc)];

	output->frame_period = ns_to_ktime(vblank->framedur_ns);
	WRITE_ONCE(output->vblank_on, true);
	hrtimer_start(&output->vblank_timer, output->frame_period,
		      HRTIMER_MODE_REL);
	return 0;
}

/*
 * Called with dev->event_lock and vbl_lock held, which the timer callback
 * needs too: never wait for the callback here. It sees @vblank_on false
 * and stops; mmx_crtc_atomic_disable() waits for it without locks.
 */
static void mmx_crtc_disable_vblank(struct drm_crtc *crtc)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);

	WRITE_ONCE(output->vblank_on, false);
	hrtimer_try_to_cancel(&output->vblank_timer);
}

/*
 * The timer is moved forward before the vblank is handled, as hardware
 * updates its registers before raising the interrupt: the vblank that is
 * being handled started one period before the timer's next expiry.
 */
static bool mmx_crtc_get_vblank_timestamp(struct drm_crtc *crtc,
					  int *max_error, ktime_t *vblank_time,
					  bool in_vblank_irq)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);
	struct drm_vblank_crtc *vblank =
		&crtc->dev->vblank[drm_crtc_index(crtc)];

	if (!READ_ONCE(vblank->enabled)) {
		*vblank_time = ktime_get();
		return true;
	}

	*vblank_time = ktime_sub(hrtimer_get_expires(&output->vblank_timer),
				 output->frame_period);
	return true;
}

static const struct drm_crtc_funcs mmx_crtc_funcs = {
	.set_config = drm_atomic_helper_set_config,
	.page_flip = drm_atomic_helper_page_flip,
	.reset = mmx_crtc_reset,
	.atomic_duplicate_state = mmx_crtc_duplicate_state,
	.atomic_destroy_state = mmx_crtc_destroy_state,
	.enable_vblank = mmx_crtc_enable_vblank,
	.disable_vblank = mmx_crtc_disable_vblank,
	.get_vblank_timestamp = mmx_crtc_get_vblank_timestamp,
	.get_crc_sources = mmx_crc_get_sources,
	.set_crc_source = mmx_crc_set_source,
	.verify_crc_source = mmx_crc_verify_source,
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

static int mmx_crtc_layer_decode(struct mmx_crtc_layer *cl,
				 struct drm_plane_state *plane_state)
{
	const struct drm_framebuffer *fb = plane_state->fb;
	struct mmx_layer *layer = &cl->layer;
	u32 src_x = plane_state->src.x1 >> 16;
	u32 src_y = plane_state->src.y1 >> 16;

	if (!mmx_format_lookup(fb->format->format, &layer->format))
		return -EINVAL;

	layer->pixels = NULL;
	layer->pitch = fb->pitches[0];
	layer->dst_x = plane_state->dst.x1;
	layer->dst_y = plane_state->dst.y1;
	layer->width = drm_rect_width(&plane_state->dst);
	layer->height = drm_rect_height(&plane_state->dst);
	layer->alpha = plane_state->alpha;
	layer->blend = mmx_blend_mode_of(plane_state->pixel_blend_mode);
	cl->plane_state = plane_state;
	/* The shadow-plane mapping already points at fb->offsets[0]. */
	cl->offset = (size_t)src_y * fb->pitches[0] +
		     (size_t)src_x * fb->format->cpp[0];
	return 0;
}

static int mmx_crtc_atomic_check(struct drm_crtc *crtc,
				 struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state =
		drm_atomic_get_new_crtc_state(state, crtc);
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(crtc_state);
	struct mmx_crtc_layer sorted[MMX_PLANES_PER_CRTC];
	struct drm_plane_state *plane_state;
	struct drm_plane *plane;
	unsigned int i, n = 0;
	int ret;

	mmx_state->num_layers = 0;
	if (!crtc_state->active)
		return 0;

	drm_for_each_plane_mask(plane, crtc->dev, crtc_state->plane_mask) {
		plane_state = drm_atomic_get_new_plane_state(state, plane);
		if (!plane_state)
			plane_state = plane->state;
		if (!plane_state->visible)
			continue;
		if (WARN_ON(n == MMX_PLANES_PER_CRTC))
			return -EINVAL;

		/* Insertion by normalized zpos, which is unique per CRTC. */
		for (i = n; i > 0; i--) {
			if (sorted[i - 1].plane_state->normalized_zpos <
			    plane_state->normalized_zpos)
				break;
			sorted[i] = sorted[i - 1];
		}
		ret = mmx_crtc_layer_decode(&sorted[i], plane_state);
		if (ret)
			return ret;
		n++;
	}

	memcpy(mmx_state->layers, sorted, n * sizeof(sorted[0]));
	mmx_state->num_layers = n;
	return 0;
}

static void mmx_crtc_atomic_enable(struct drm_crtc *crtc,
				   struct drm_atomic_state *state)
{
	drm_crtc_vblank_on(crtc);
	mmx_virtio_crtc_enable(crtc_to_mmx_output(crtc));
}

static void mmx_crtc_atomic_disable(struct drm_crtc *crtc,
				    struct drm_atomic_state *state)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);

	drm_crtc_vblank_off(crtc);
	/* No lock held now: wait for a callback that was still running. */
	hrtimer_cancel(&output->vblank_timer);
	mmx_composer_drain(output);
	mmx_virtio_crtc_disable(output, state);
}

static void mmx_crtc_atomic_flush(struct drm_crtc *crtc,
				  struct drm_atomic_state *state)
{
	struct mmx_output *output = crtc_to_mmx_output(crtc);
	struct drm_pending_vblank_event *event = crtc->state->event;

	spin_lock_irq(&output->lock);
	output->composer_state = to_mmx_crtc_state(crtc->state);
	spin_unlock_irq(&output->lock);
	/* After the switch: damage must never precede its picture. */
	mmx_virtio_crtc_flush(output, state);

	if (!event)
		return;

	crtc->state->event = NULL;
	spin_lock_irq(&crtc->dev->event_lock);
	if (crtc->state->active && drm_crtc_vblank_get(crtc) == 0)
		drm_crtc_arm_vblank_event(crtc, event);
	else
		drm_crtc_send_vblank_event(crtc, event);
	spin_unlock_irq(&crtc->dev->event_lock);
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

	hrtimer_cancel(&output->vblank_timer);
	cancel_work_sync(&output->compose_work);
	mmx_composer_release(output);
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

	/* Planes */
	output->primary = mmx_plane_create(mmx, output, DRM_PLANE_TYPE_PRIMARY,
					   0);
	if (IS_ERR(output->primary))
		return PTR_ERR(output->primary);

	for (i = 0; i < MMX_OVERLAYS_PER_CRTC; i++) {
		output->overlays[i] = mmx_plane_create(mmx, output,
						       DRM_PLANE_TYPE_OVERLAY,
						       i + 1);
		if (IS_ERR(output->overlays[i]))
			return PTR_ERR(output->overlays[i]);
	}

	output->cursor = mmx_plane_create(mmx, output, DRM_PLANE_TYPE_CURSOR,
					  MMX_OVERLAYS_PER_CRTC + 1);
	if (IS_ERR(output->cursor))
		return PTR_ERR(output->cursor);

	/* CRTC */
	ret = drmm_crtc_init_with_planes(dev, &output->crtc, output->primary,
					 output->cursor, &mmx_crtc_funcs, NULL);
	if (ret)
		return ret;
	drm_crtc_helper_add(&output->crtc, &mmx_crtc_helper_funcs);
	if (WARN_ON(drm_crtc_index(&output->crtc) != output->index))
		return -EINVAL;

	spin_lock_init(&output->lock);
	hrtimer_init(&output->vblank_timer, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
	output->vblank_timer.function = mmx_vblank_timer_fn;
	INIT_WORK(&output->compose_work, mmx_composer_work);

	return drmm_add_action_or_reset(dev, mmx_crtc_release, output);
}
