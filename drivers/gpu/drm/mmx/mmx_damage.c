// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Damage: what each commit changes on its CRTC, gathered per output until
 * the composer hands a frame to a backend that presents frames (the
 * virtio-gpu backend sends only the damaged rectangles to the host). The
 * virtual backend presents nothing, so nothing is gathered for it.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_damage_helper.h>

#include "mmx_drv.h"

static bool mmx_backend_presents(const struct mmx_output *output)
{
	const struct mmx_backend_funcs *funcs =
		to_mmx_device(output->crtc.dev)->backend;

	return funcs && funcs->present;
}

static u64 mmx_rect_area(const struct drm_rect *r)
{
	return (u64)drm_rect_width(r) * drm_rect_height(r);
}

static void mmx_rect_union(struct drm_rect *r, const struct drm_rect *other)
{
	r->x1 = min(r->x1, other->x1);
	r->y1 = min(r->y1, other->y1);
	r->x2 = max(r->x2, other->x2);
	r->y2 = max(r->y2, other->y2);
}

/**
 * mmx_damage_add - add a rectangle to a damage list
 * @damage: the list
 * @r: the rectangle; an empty one is ignored
 *
 * Two rectangles whose union is no bigger than their areas together become
 * their union; a full list becomes one rectangle.
 */
void mmx_damage_add(struct mmx_damage *damage, const struct drm_rect *r)
{
	struct drm_rect rect = *r;
	unsigned int i;

	if (!drm_rect_visible(&rect))
		return;
again:
	for (i = 0; i < damage->count; i++) {
		struct drm_rect u = damage->rects[i];

		mmx_rect_union(&u, &rect);
		if (mmx_rect_area(&u) <= mmx_rect_area(&damage->rects[i]) +
					 mmx_rect_area(&rect)) {
			damage->rects[i] = damage->rects[--damage->count];
			rect = u;
			goto again;
		}
	}
	if (damage->count == MMX_DAMAGE_MAX) {
		for (i = 0; i < damage->count; i++)
			mmx_rect_union(&rect, &damage->rects[i]);
		damage->count = 0;
	}
	damage->rects[damage->count++] = rect;
}
EXPORT_SYMBOL_GPL(mmx_damage_add);

/* A plane shown one to one: framebuffer damage maps by a translation. */
static bool mmx_damage_plane_is_copy(const struct drm_plane_state *state)
{
	return (state->rotation & DRM_MODE_ROTATE_MASK) == DRM_MODE_ROTATE_0 &&
	       !(state->rotation & DRM_MODE_REFLECT_MASK) &&
	       !(state->src.x1 & 0xffff) && !(state->src.y1 & 0xffff) &&
	       drm_rect_width(&state->src) == drm_rect_width(&state->dst) << 16 &&
	       drm_rect_height(&state->src) == drm_rect_height(&state->dst) << 16;
}

/* What a plane of @crtc changed on it. */
static void mmx_damage_plane(struct mmx_damage *damage,
			     struct drm_crtc *crtc, u32 touched,
			     struct drm_plane *plane,
			     struct drm_plane_state *old_state,
			     struct drm_plane_state *new_state)
{
	bool was = old_state->crtc == crtc && old_state->visible;
	bool is = new_state->crtc == crtc && new_state->visible;
	struct drm_atomic_helper_damage_iter iter;
	struct drm_rect clip;

	if (!was && !is)
		return;

	if (was != is ||
	    !drm_rect_equals(&old_state->dst, &new_state->dst) ||
	    !drm_rect_equals(&old_state->src, &new_state->src) ||
	    old_state->rotation != new_state->rotation ||
	    old_state->scaling_filter != new_state->scaling_filter ||
	    old_state->alpha != new_state->alpha ||
	    old_state->pixel_blend_mode != new_state->pixel_blend_mode ||
	    old_state->normalized_zpos != new_state->normalized_zpos) {
		if (was)
			mmx_damage_add(damage, &old_state->dst);
		if (is)
			mmx_damage_add(damage, &new_state->dst);
		return;
	}

	/* Same place, same blending: only what the framebuffer changed. */
	if (old_state->fb == new_state->fb && !new_state->fb_damage_clips &&
	    !(touched & drm_plane_mask(plane)))
		return;

	/* Scaled, rotated or fractionally placed: redraw the whole plane. */
	if (!mmx_damage_plane_is_copy(new_state)) {
		mmx_damage_add(damage, &new_state->dst);
		return;
	}

	drm_atomic_helper_damage_iter_init(&iter, old_state, new_state);
	drm_atomic_for_each_plane_damage(&iter, &clip) {
		drm_rect_translate(&clip,
				   new_state->dst.x1 - (new_state->src.x1 >> 16),
				   new_state->dst.y1 - (new_state->src.y1 >> 16));
		if (drm_rect_intersect(&clip, &new_state->dst))
			mmx_damage_add(damage, &clip);
	}
}

static void mmx_damage_mark_touched(struct mmx_atomic_state *state,
				    struct drm_crtc *crtc, struct drm_plane *plane)
{
	struct drm_crtc_state *crtc_state;

	if (!crtc)
		return;
	crtc_state = drm_atomic_get_new_crtc_state(state, crtc);
	if (crtc_state)
		to_mmx_crtc_state(crtc_state)->touched_planes |=
			drm_plane_mask(plane);
}

/**
 * mmx_damage_note_touched - note the planes a commit names itself
 * @state: the commit, before the CRTCs' other planes are added to it
 *
 * Fills &mmx_crtc_state.touched_planes of every CRTC in @state.
 */
void mmx_damage_note_touched(struct mmx_atomic_state *state)
{
	struct drm_plane_state *old_plane_state, *new_plane_state;
	struct drm_crtc_state *crtc_state;
	struct drm_plane *plane;
	struct drm_crtc *crtc;
	int i;

	for_each_new_crtc_in_state(state, crtc, crtc_state, i)
		to_mmx_crtc_state(crtc_state)->touched_planes = 0;
	for_each_oldnew_plane_in_state(state, plane, old_plane_state,
				       new_plane_state, i) {
		mmx_damage_mark_touched(state, old_plane_state->crtc, plane);
		mmx_damage_mark_touched(state, new_plane_state->crtc, plane);
	}
}

/**
 * mmx_damage_of_commit - what a commit changes on its CRTC
 * @output: the output
 * @state: the commit
 * @damage: where to store the rectangles (none for a backend that does not
 *	present frames)
 *
 * Called from the CRTC's atomic_flush. The result goes to the output's
 * damage, with mmx_damage_merge(), once the composer was given the new
 * state.
 */
void mmx_damage_of_commit(struct mmx_output *output,
			  struct mmx_atomic_state *state,
			  struct mmx_damage *damage)
{
	struct drm_plane_state *old_plane_state, *new_plane_state;
	struct drm_crtc_state *old_crtc_state, *new_crtc_state;
	struct drm_crtc *crtc = &output->crtc;
	struct drm_plane *plane;
	unsigned int i, n;
	struct drm_rect full;
	u32 touched;
	int j;

	damage->count = 0;
	if (!mmx_backend_presents(output))
		return;
	old_crtc_state = drm_atomic_get_old_crtc_state(state, crtc);
	new_crtc_state = drm_atomic_get_new_crtc_state(state, crtc);
	if (!new_crtc_state || !new_crtc_state->active)
		return;

	/*
	 * A new mode redraws everything; a routing change alone (a writeback
	 * connector attached) keeps the picture, and the host resource.
	 */
	drm_rect_init(&full, 0, 0, new_crtc_state->mode.hdisplay,
		      new_crtc_state->mode.vdisplay);
	/*
	 * Plane rectangles live in CRTC space: with a transform, or when it
	 * changes, damage the whole output rather than map them through it.
	 */
	if (!old_crtc_state->active || new_crtc_state->active_changed ||
	    new_crtc_state->mode_changed ||
	    new_crtc_state->color_mgmt_changed ||
	    to_mmx_crtc_state(new_crtc_state)->transformed ||
	    to_mmx_crtc_state(old_crtc_state)->transformed) {
		mmx_damage_add(damage, &full);
	} else {
		touched = to_mmx_crtc_state(new_crtc_state)->touched_planes;
		for_each_oldnew_plane_in_state(state, plane, old_plane_state,
					       new_plane_state, j)
			mmx_damage_plane(damage, crtc, touched, plane,
					 old_plane_state, new_plane_state);
	}
	for (i = 0, n = 0; i < damage->count; i++) {
		if (drm_rect_intersect(&damage->rects[i], &full))
			damage->rects[n++] = damage->rects[i];
	}
	damage->count = n;
}

/**
 * mmx_damage_merge - add rectangles to an output's damage
 * @output: the output, whose &mmx_output.lock the caller holds
 * @damage: from mmx_damage_of_commit()
 */
void mmx_damage_merge(struct mmx_output *output,
		      const struct mmx_damage *damage)
{
	unsigned int i;

	lockdep_assert_held(&output->lock);

	for (i = 0; i < damage->count; i++)
		mmx_damage_add(&output->damage, &damage->rects[i]);
}
EXPORT_SYMBOL_GPL(mmx_damage_merge);

/**
 * mmx_damage_reset - replace an output's damage
 * @output: the output, whose &mmx_output.lock the caller holds
 * @full: the whole picture, or NULL for no damage
 */
void mmx_damage_reset(struct mmx_output *output, const struct drm_rect *full)
{
	lockdep_assert_held(&output->lock);

	output->damage.count = 0;
	if (full)
		mmx_damage_add(&output->damage, full);
}
EXPORT_SYMBOL_GPL(mmx_damage_reset);

/**
 * mmx_damage_commit - add what a commit changed to its output's damage
 * @output: the output
 * @state: the commit
 *
 * Called from the CRTC's atomic_flush, after the composer was given the new
 * state.
 */
void mmx_damage_commit(struct mmx_output *output,
		       struct mmx_atomic_state *state)
{
	struct mmx_damage damage;

	mmx_damage_of_commit(output, state, &damage);
	if (!damage.count)
		return;
	spin_lock_irq(&output->lock);
	mmx_damage_merge(output, &damage);
	spin_unlock_irq(&output->lock);
}

/**
 * mmx_damage_frame_due - whether a frame should go to the backend
 * @output: the output, whose &mmx_output.lock is held
 *
 * Return: true when the output has damage and the backend can take a frame.
 */
bool mmx_damage_frame_due(struct mmx_output *output)
{
	const struct mmx_backend_funcs *funcs =
		to_mmx_device(output->crtc.dev)->backend;

	lockdep_assert_held(&output->lock);
	return output->damage.count && mmx_backend_presents(output) &&
	       (!funcs->frame_ready || funcs->frame_ready(output));
}

/**
 * mmx_damage_take - take the damage of the frame to compose
 * @output: the output, whose &mmx_output.lock is held
 * @damage: where to move the damage
 *
 * Return: true when a frame is due (see mmx_damage_frame_due()); the
 * composer must then pass @damage to the backend's present hook, which ends
 * the frame.
 */
bool mmx_damage_take(struct mmx_output *output, struct mmx_damage *damage)
{
	const struct mmx_backend_funcs *funcs =
		to_mmx_device(output->crtc.dev)->backend;

	if (!mmx_damage_frame_due(output))
		return false;
	*damage = output->damage;
	output->damage.count = 0;
	if (funcs->frame_begin)
		funcs->frame_begin(output);
	return true;
}
