// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Timed atomic commits: per-file queues of property sets shown at the first
 * vblank at or after their execution time, with expiry, retract and
 * replace (see "timed atomic commits" in include/uapi/drm/mmx_drm.h).
 *
 * Flow: an ioctl parses the set into items holding references on their
 * framebuffers and blobs, checks it as a TEST_ONLY commit and queues the
 * entry on its CRTC. The vblank timer (hard interrupt context) only looks
 * at the queue: at vblank N it starts the entries whose target vblank T
 * (the first vblank at or after their execution time) is at most N +
 * timed_lead_frames (or completes them expired), completes presented the
 * entries whose commit was latched at this vblank, and kicks the CRTC's
 * work item. The work item builds one atomic state per target from the
 * started entries and commits it (nonblocking) with that target: the
 * CRTC's atomic_flush holds the state and the vblank timer latches it at
 * vblank T exactly (see mmx_vblank_flush()), so the work item has
 * timed_lead_frames frames to run, not one. It also sends the completion
 * events and drops the references, which may sleep.
 *
 * Entry state: PENDING -> EXECUTING -> DONE, or PENDING -> DONE (retracted,
 * replaced, expired, CRTC off), changed only under &mmx_device.sched_lock,
 * so a retract and an execution never both succeed. An entry leaves
 * PENDING at vblank T - timed_lead_frames: from then on it is prepared and
 * cannot be retracted or replaced (-EBUSY).
 */

#include <linux/list_sort.h>
#include <linux/math64.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_managed.h>
#include <drm/drm_mode_object.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"

#define MMX_SCHED_LEAD_MAX	8

/* How many frames before its target vblank an entry starts executing. */
static unsigned int timed_lead_frames = 2;

static int mmx_sched_lead_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;

	if (kstrtouint(val, 0, &n) || n < 1 || n > MMX_SCHED_LEAD_MAX)
		return -EINVAL;
	WRITE_ONCE(*(unsigned int *)kp->arg, n);
	return 0;
}

static const struct kernel_param_ops mmx_sched_lead_ops = {
	.set = mmx_sched_lead_set,
	.get = param_get_uint,
};

module_param_cb(timed_lead_frames, &mmx_sched_lead_ops, &timed_lead_frames,
		0644);
MODULE_PARM_DESC(timed_lead_frames,
		 "Frames before its vblank a timed commit starts executing, 1-8 (default 2)");

enum mmx_sched_state {
	MMX_SCHED_PENDING,
	MMX_SCHED_EXECUTING,
	MMX_SCHED_DONE,
};

/*
 * One property of a stored set. @plane is NULL for a CRTC property. FB_ID
 * keeps its framebuffer in @fb and blob properties their blob in @blob,
 * both referenced until the entry is freed.
 */
struct mmx_sched_item {
	struct drm_plane *plane;
	struct drm_property *prop;
	u64 value;
	struct drm_framebuffer *fb;
	struct drm_property_blob *blob;
};

struct mmx_sched_event {
	struct drm_pending_event base;
	struct drm_mmx_event_schedule event;
};

/* Per-file queue: @entries, @count and @next_id under sched_lock. */
struct mmx_sched_file {
	struct list_head entries;
	unsigned int count;
	u64 next_id;
};

/*
 * A timed entry. @crtc_link (on &mmx_schedule_queue.entries), @file_link,
 * @sfile, @state, @due, @target, @target_ns, @token and the completion
 * fields are protected by &mmx_device.sched_lock; @batch_link belongs to
 * the CRTC's work item. @due: started (EXECUTING) by the vblank timer, not
 * yet taken by the work item; @target, @target_ns: the vblank to present
 * at and its time.
 */
struct mmx_sched_entry {
	struct list_head crtc_link;
	struct list_head file_link;
	struct list_head batch_link;
	struct mmx_sched_file *sfile;
	struct mmx_output *output;
	u64 id;
	u64 token;
	u64 exec_ns;
	u64 expire_ns;
	u64 user_data;
	enum mmx_sched_state state;
	bool due;
	u64 target;
	u64 target_ns;
	bool vblank_ref;
	u32 status;
	int error;
	u64 sequence;
	u64 timestamp_ns;
	struct mmx_sched_event *event;
	unsigned int num_items;
	struct mmx_sched_item items[];
};

/* Entries: allocation, completion */

/* Drop what @e references: framebuffers, blobs, the vblank. */
static void mmx_sched_entry_put(struct mmx_sched_entry *e)
{
	unsigned int i;

	for (i = 0; i < e->num_items; i++) {
		if (e->items[i].fb)
			drm_framebuffer_put(e->items[i].fb);
		drm_property_blob_put(e->items[i].blob);
	}
	e->num_items = 0;
	if (e->vblank_ref)
		drm_crtc_vblank_put(&e->output->crtc);
	e->vblank_ref = false;
}

static void mmx_sched_entry_free(struct drm_device *dev,
				 struct mmx_sched_entry *e)
{
	mmx_sched_entry_put(e);
	if (e->event)
		drm_event_cancel_free(dev, &e->event->base);
	kfree(e);
}

/*
 * Complete @e, which is unlinked: drop its references first, so that what
 * it kept alive is released when its event arrives, then send the event.
 */
static void mmx_sched_complete(struct drm_device *dev,
			       struct mmx_sched_entry *e)
{
	struct drm_mmx_event_schedule *ev = &e->event->event;

	mmx_sched_entry_put(e);
	ev->user_data = e->user_data;
	ev->schedule_id = e->id;
	ev->sequence = e->sequence;
	ev->timestamp_ns = e->timestamp_ns;
	ev->crtc_id = e->output->crtc.base.id;
	ev->status = e->status;
	ev->error = e->error;
	drm_send_event(dev, &e->event->base);
	kfree(e);
}

static void mmx_sched_done(struct mmx_sched_entry *e, u32 status, int error,
			   u64 sequence, u64 timestamp_ns)
{
	e->state = MMX_SCHED_DONE;
	e->status = status;
	e->error = error;
	e->sequence = sequence;
	e->timestamp_ns = timestamp_ns;
}

/* Take @e off its file's queue (its CRTC list is the caller's business). */
static void mmx_sched_unlink_file(struct mmx_sched_entry *e)
{
	if (!e->sfile)
		return;
	list_del_init(&e->file_link);
	e->sfile->count--;
	e->sfile = NULL;
}

/*
 * Take a pending entry off both its queues, done with @status; the caller
 * completes it once the lock is dropped.
 */
static void mmx_sched_withdraw(struct mmx_sched_entry *e, u32 status)
{
	mmx_sched_done(e, status, 0, 0, 0);
	mmx_sched_unlink_file(e);
	list_del_init(&e->crtc_link);
}

/* Complete and free every DONE entry of @output. */
static void mmx_sched_reap(struct mmx_device *mmx, struct mmx_output *output)
{
	struct mmx_sched_entry *e, *tmp;
	LIST_HEAD(done);

	spin_lock_irq(&mmx->sched_lock);
	list_for_each_entry_safe(e, tmp, &output->sched.entries, crtc_link) {
		if (e->state != MMX_SCHED_DONE)
			continue;
		mmx_sched_unlink_file(e);
		list_move_tail(&e->crtc_link, &done);
	}
	spin_unlock_irq(&mmx->sched_lock);

	list_for_each_entry_safe(e, tmp, &done, crtc_link) {
		list_del(&e->crtc_link);
		mmx_sched_complete(&mmx->drm, e);
	}
}

/* Parsing a property set */

/*
 * What a timed commit may set, on a plane or (@plane NULL) on the CRTC:
 * the uAPI's rule (no modeset, no fence, nothing that outlives the ioctl).
 */
static bool mmx_sched_prop_allowed(struct mmx_device *mmx,
				   const struct drm_plane *plane,
				   const struct drm_property *prop)
{
	const struct drm_mode_config *config = &mmx->drm.mode_config;

	if (!plane)
		return prop == mmx->transform_prop ||
		       prop == mmx->filter_prop || prop == mmx->panning_prop;
	return prop == config->prop_fb_id || prop == config->prop_crtc_id ||
	       prop == config->prop_src_x || prop == config->prop_src_y ||
	       prop == config->prop_src_w || prop == config->prop_src_h ||
	       prop == config->prop_crtc_x || prop == config->prop_crtc_y ||
	       prop == config->prop_crtc_w || prop == config->prop_crtc_h ||
	       prop == config->prop_fb_damage_clips ||
	       prop == plane->zpos_property || prop == plane->alpha_property ||
	       prop == plane->blend_mode_property;
}

/*
 * Check @item's value as the atomic ioctl does before it sets a property,
 * and reference what the value names until the entry is freed: a blob, or
 * the framebuffer of FB_ID (drm_framebuffer_lookup()'s reference). CRTC_ID
 * must name @crtc. The core's own check, drm_property_change_valid_get(),
 * is internal to it (drm_crtc_internal.h, exported neither in 6.1 nor in
 * 6.12): this is its rule for the types a timed commit can name (no
 * bitmask among them).
 */
static int mmx_sched_item_get(struct drm_device *dev, struct drm_file *file,
			      struct drm_crtc *crtc,
			      struct mmx_sched_item *item)
{
	struct drm_property *prop = item->prop;
	u64 value = item->value;
	unsigned int i;

	if (prop->flags & DRM_MODE_PROP_IMMUTABLE)
		return -EINVAL;
	if (drm_property_type_is(prop, DRM_MODE_PROP_RANGE))
		return value >= prop->values[0] && value <= prop->values[1] ?
		       0 : -EINVAL;
	if (drm_property_type_is(prop, DRM_MODE_PROP_SIGNED_RANGE))
		return (s64)value >= (s64)prop->values[0] &&
		       (s64)value <= (s64)prop->values[1] ? 0 : -EINVAL;
	if (drm_property_type_is(prop, DRM_MODE_PROP_BLOB)) {
		if (!value)
			return 0;
		item->blob = drm_property_lookup_blob(dev, value);
		return item->blob ? 0 : -EINVAL;
	}
	if (prop == dev->mode_config.prop_fb_id) {
		if (!value)
			return 0;
		item->fb = drm_framebuffer_lookup(dev, file, value);
		return item->fb ? 0 : -EINVAL;
	}
	if (prop == dev->mode_config.prop_crtc_id)
		return !value || drm_crtc_find(dev, file, value) == crtc ?
		       0 : -EINVAL;
	if (!drm_property_type_is(prop, DRM_MODE_PROP_ENUM))
		return -EINVAL;
	for (i = 0; i < prop->num_values; i++) {
		if (prop->values[i] == value)
			return 0;
	}
	return -EINVAL;
}

/*
 * The property @prop_id of @obj, or NULL. The core's lookup,
 * drm_mode_obj_find_prop_id(), is internal to it (exported only for its
 * tests in 6.12).
 */
static struct drm_property *mmx_sched_find_prop(struct drm_mode_object *obj,
						u32 prop_id)
{
	int i;

	for (i = 0; i < obj->properties->count; i++) {
		if (obj->properties->properties[i]->base.id == prop_id)
			return obj->properties->properties[i];
	}
	return NULL;
}

/* The arrays of a submit, copied once. */
struct mmx_sched_set {
	unsigned int count_objs;
	unsigned int num_props;
	u32 objs[MMX_SCHEDULE_OBJS_MAX];
	u32 counts[MMX_SCHEDULE_OBJS_MAX];
	u32 props[MMX_SCHEDULE_PROPS_MAX];
	u64 values[MMX_SCHEDULE_PROPS_MAX];
};

/* Copy the arrays of @args: -EFAULT, or -EINVAL beyond the limits. */
static int mmx_sched_copy_set(struct mmx_sched_set *set,
			      const struct drm_mmx_schedule_submit *args)
{
	unsigned int i, n = args->count_objs;

	set->count_objs = n;
	set->num_props = 0;
	if (copy_from_user(set->objs, u64_to_user_ptr(args->objs_ptr),
			   n * sizeof(u32)) ||
	    copy_from_user(set->counts, u64_to_user_ptr(args->count_props_ptr),
			   n * sizeof(u32)))
		return -EFAULT;
	for (i = 0; i < n; i++) {
		if (set->counts[i] > MMX_SCHEDULE_PROPS_MAX - set->num_props)
			return -EINVAL;
		set->num_props += set->counts[i];
	}
	if (copy_from_user(set->props, u64_to_user_ptr(args->props_ptr),
			   set->num_props * sizeof(u32)) ||
	    copy_from_user(set->values, u64_to_user_ptr(args->prop_values_ptr),
			   set->num_props * sizeof(u64)))
		return -EFAULT;
	return 0;
}

/*
 * Resolve the objects and properties of @set into @e's items, as the
 * atomic ioctl would: -ENOENT for unknown objects and properties.
 */
static int mmx_sched_parse(struct drm_device *dev, struct drm_file *file,
			   struct mmx_sched_entry *e,
			   const struct mmx_sched_set *set)
{
	struct drm_crtc *crtc = &e->output->crtc;
	struct drm_mode_object *obj;
	struct mmx_sched_item *item;
	struct drm_plane *plane;
	unsigned int i, j, n = 0;
	int ret = 0;

	for (i = 0; i < set->count_objs; i++) {
		obj = drm_mode_object_find(dev, file, set->objs[i],
					   DRM_MODE_OBJECT_ANY);
		if (!obj)
			return -ENOENT;
		if (!obj->properties) {
			ret = -ENOENT;
			goto out_put;
		}

		plane = NULL;
		if (obj->type == DRM_MODE_OBJECT_PLANE) {
			plane = obj_to_plane(obj);
			if (!(plane->possible_crtcs & drm_crtc_mask(crtc)))
				ret = -EINVAL;
		} else if (obj->type != DRM_MODE_OBJECT_CRTC ||
			   obj_to_crtc(obj) != crtc) {
			ret = -EINVAL;
		}

		for (j = 0; !ret && j < set->counts[i]; j++, n++) {
			item = &e->items[n];
			item->plane = plane;
			item->value = set->values[n];
			item->prop = mmx_sched_find_prop(obj, set->props[n]);
			if (!item->prop) {
				ret = -ENOENT;
				break;
			}
			e->num_items = n + 1;
			if (!mmx_sched_prop_allowed(to_mmx_device(dev), plane,
						    item->prop))
				ret = -EINVAL;
			else
				ret = mmx_sched_item_get(dev, file, crtc, item);
		}
out_put:
		drm_mode_object_put(obj);
		if (ret) {
			drm_dbg_kms(dev, "timed commit: object %u refused: %d\n",
				    set->objs[i], ret);
			return ret;
		}
	}
	return 0;
}

/* Building and committing the atomic state */

/*
 * Whether @fb was removed by its owner (RMFB, or the close of its file)
 * since the entry referenced it: it is then not to be shown, as the core
 * disables the planes that show a removed framebuffer. The core tells
 * nobody about a removal and keeps no flag for it: RMFB and close unlink
 * the framebuffer from its file (list_del_init() of
 * &drm_framebuffer.filp_head) and then disable the planes whose current
 * state shows it (drm_framebuffer_remove()), which a queued entry is not.
 * The emptied link is the only trace, hence this one read of it.
 */
static bool mmx_sched_fb_removed(struct drm_framebuffer *fb)
{
	return list_empty(&fb->filp_head);
}

/*
 * Set a plane property the way the atomic ioctl does. The core's setter,
 * drm_atomic_plane_set_property() (behind drm_atomic_set_property()), is
 * internal to it in 6.1 and 6.12; its exported parts are used for what
 * they cover (framebuffer, CRTC, blob), and the plain fields a timed
 * commit may set are stored as it stores them.
 */
static int mmx_sched_set_plane_prop(struct drm_plane_state *pstate,
				    struct drm_crtc *crtc,
				    const struct mmx_sched_item *item)
{
	struct drm_plane *plane = pstate->plane;
	struct drm_mode_config *config = &plane->dev->mode_config;
	struct drm_property *prop = item->prop;
	u64 val = item->value;

	if (prop == config->prop_fb_id) {
		if (item->fb && mmx_sched_fb_removed(item->fb))
			return -ENOENT;
		drm_atomic_set_fb_for_plane(pstate, item->fb);
	} else if (prop == config->prop_crtc_id) {
		return drm_atomic_set_crtc_for_plane(pstate, val ? crtc : NULL);
	} else if (prop == config->prop_fb_damage_clips) {
		/* The core's blob setter with a size check is 6.12's only. */
		if (item->blob &&
		    item->blob->length % sizeof(struct drm_mode_rect))
			return -EINVAL;
		drm_property_replace_blob(&pstate->fb_damage_clips, item->blob);
	} else if (prop == config->prop_crtc_x) {
		pstate->crtc_x = (s32)val;
	} else if (prop == config->prop_crtc_y) {
		pstate->crtc_y = (s32)val;
	} else if (prop == config->prop_crtc_w) {
		pstate->crtc_w = val;
	} else if (prop == config->prop_crtc_h) {
		pstate->crtc_h = val;
	} else if (prop == config->prop_src_x) {
		pstate->src_x = val;
	} else if (prop == config->prop_src_y) {
		pstate->src_y = val;
	} else if (prop == config->prop_src_w) {
		pstate->src_w = val;
	} else if (prop == config->prop_src_h) {
		pstate->src_h = val;
	} else if (prop == plane->zpos_property) {
		pstate->zpos = val;
	} else if (prop == plane->alpha_property) {
		pstate->alpha = val;
	} else if (prop == plane->blend_mode_property) {
		pstate->pixel_blend_mode = val;
	} else {
		return -EINVAL;
	}
	return 0;
}

/*
 * Apply @e's properties, in order, to @state: a plane's with
 * mmx_sched_set_plane_prop(), the CRTC's (all the driver's own) with its
 * atomic_set_property hook, which the core calls for them too.
 */
static int mmx_sched_apply(struct drm_atomic_state *state,
			   const struct mmx_sched_entry *e)
{
	struct drm_crtc *crtc = &e->output->crtc;
	const struct mmx_sched_item *item;
	struct drm_plane_state *pstate;
	struct drm_crtc_state *cstate;
	unsigned int i;
	int ret;

	for (i = 0; i < e->num_items; i++) {
		item = &e->items[i];
		if (!item->plane) {
			cstate = drm_atomic_get_crtc_state(state, crtc);
			if (IS_ERR(cstate))
				return PTR_ERR(cstate);
			/* The blob, if any, is referenced: its id is valid. */
			ret = crtc->funcs->atomic_set_property(crtc, cstate,
							       item->prop,
							       item->value);
		} else {
			pstate = drm_atomic_get_plane_state(state, item->plane);
			if (IS_ERR(pstate))
				return PTR_ERR(pstate);
			ret = mmx_sched_set_plane_prop(pstate, crtc, item);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * Apply the entries of @batch (linked by batch_link), in order, to the
 * current state of @output's CRTC and check (@test_only) or commit the
 * result. The commit is nonblocking; if an earlier commit on the CRTC has
 * not flipped yet (-EBUSY) it blocks behind it instead. @token marks the
 * CRTC state so that its latch is reported; @target is the vblank to latch
 * it at, never one before @not_before_ns.
 */
static int mmx_sched_commit(struct mmx_output *output,
			    struct list_head *batch, u64 token, u64 target,
			    u64 not_before_ns, bool test_only)
{
	struct drm_device *dev = output->crtc.dev;
	struct drm_modeset_acquire_ctx ctx;
	struct drm_atomic_state *state;
	struct drm_crtc_state *cstate;
	struct mmx_sched_entry *e;
	bool blocking = false;
	int ret;

	state = drm_atomic_state_alloc(dev);
	if (!state)
		return -ENOMEM;
	drm_modeset_acquire_init(&ctx, test_only ?
				 DRM_MODESET_ACQUIRE_INTERRUPTIBLE : 0);
	state->acquire_ctx = &ctx;

retry:
	cstate = drm_atomic_get_crtc_state(state, &output->crtc);
	if (IS_ERR(cstate)) {
		ret = PTR_ERR(cstate);
		goto out;
	}
	to_mmx_crtc_state(cstate)->sched_token = token;
	to_mmx_crtc_state(cstate)->sched_target = target;
	to_mmx_crtc_state(cstate)->sched_not_before_ns = not_before_ns;
	list_for_each_entry(e, batch, batch_link) {
		ret = mmx_sched_apply(state, e);
		if (ret)
			goto out;
	}
	if (test_only)
		ret = drm_atomic_check_only(state);
	else if (blocking)
		ret = drm_atomic_commit(state);
	else
		ret = drm_atomic_nonblocking_commit(state);
	if (ret == -EBUSY && !test_only && !blocking) {
		blocking = true;
		drm_atomic_state_clear(state);
		goto retry;
	}
out:
	if (ret == -EDEADLK) {
		drm_atomic_state_clear(state);
		ret = drm_modeset_backoff(&ctx);
		if (!ret)
			goto retry;
	}
	drm_atomic_state_put(state);
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
	return ret;
}

/* Execution */

/*
 * Take from @output's flushed commits those that are @armed and latched by
 * vblank @seq (any vblank when @seq is U64_MAX), or, when !@armed, those
 * never armed, into @tokens. Return: how many.
 */
static unsigned int mmx_sched_take_flushed(struct mmx_output *output,
					   bool armed, u64 seq, u64 *tokens)
{
	spinlock_t *event_lock = &output->crtc.dev->event_lock;
	struct mmx_sched_flushed *f;
	unsigned int i, n = 0;
	unsigned long flags;

	spin_lock_irqsave(event_lock, flags);
	for (i = 0; i < MMX_SCHED_FLUSHED_MAX; i++) {
		f = &output->sched.flushed[i];
		if (!f->token || f->armed != armed || (armed && f->seq > seq))
			continue;
		tokens[n++] = f->token;
		f->token = 0;
	}
	spin_unlock_irqrestore(event_lock, flags);
	return n;
}

static bool mmx_sched_token_in(u64 token, const u64 *tokens, unsigned int n)
{
	while (n--) {
		if (tokens[n] == token)
			return true;
	}
	return false;
}

static int mmx_sched_cmp(void *priv, const struct list_head *a,
			 const struct list_head *b)
{
	const struct mmx_sched_entry *ea =
		list_entry(a, struct mmx_sched_entry, batch_link);
	const struct mmx_sched_entry *eb =
		list_entry(b, struct mmx_sched_entry, batch_link);

	if (ea->target != eb->target)
		return ea->target < eb->target ? -1 : 1;
	if (ea->exec_ns != eb->exec_ns)
		return ea->exec_ns < eb->exec_ns ? -1 : 1;
	if (ea->sfile != eb->sfile)
		return 0;
	return ea->id < eb->id ? -1 : 1;
}

/*
 * Move the started entries of @output to @batch, or complete them expired
 * when the vblank they can still reach is past their expiration. Return:
 * how many were moved.
 */
static unsigned int mmx_sched_take_due(struct mmx_device *mmx,
				       struct mmx_output *output,
				       struct list_head *batch)
{
	u64 period = mmx_vblank_period_ns(output);
	struct mmx_sched_entry *e;
	unsigned int n = 0;
	u64 next, seq, now;

	spin_lock_irq(&mmx->sched_lock);
	next = output->sched.next_ns;
	seq = output->sched.next_seq;
	/* Late: the commit can only land at a later vblank. */
	now = ktime_get_ns();
	while (period && next <= now) {
		next += period;
		seq++;
	}
	list_for_each_entry(e, &output->sched.entries, crtc_link) {
		if (e->state != MMX_SCHED_EXECUTING || !e->due)
			continue;
		e->due = false;
		/*
		 * Late, it can only be shown at vblank seq: it catches up by
		 * sharing the commit of the entries due then (the vblank
		 * timer would latch their commits together anyway).
		 */
		if (e->target < seq) {
			e->target = seq;
			e->target_ns = next;
		}
		if (e->target_ns > e->expire_ns) {
			mmx_sched_done(e, MMX_SCHEDULE_EXPIRED, 0, e->target,
				       e->target_ns);
			continue;
		}
		list_add_tail(&e->batch_link, batch);
		n++;
	}
	spin_unlock_irq(&mmx->sched_lock);
	return n;
}

/*
 * Move from @batch (sorted by target) to @group the entries of the first
 * target, marked with a new token. Return: the token.
 */
static u64 mmx_sched_take_group(struct mmx_device *mmx,
				struct list_head *batch,
				struct list_head *group, u64 *target,
				u64 *not_before_ns)
{
	struct mmx_sched_entry *e, *tmp;
	u64 token;

	spin_lock_irq(&mmx->sched_lock);
	token = ++mmx->sched_token;
	*target = list_first_entry(batch, struct mmx_sched_entry,
				   batch_link)->target;
	*not_before_ns = 0;
	list_for_each_entry_safe(e, tmp, batch, batch_link) {
		if (e->target != *target)
			break;
		e->token = token;
		*not_before_ns = max(*not_before_ns, e->exec_ns);
		list_move_tail(&e->batch_link, group);
	}
	spin_unlock_irq(&mmx->sched_lock);
	return token;
}

/*
 * A timed commit that went to the composer while the CRTC was off was not
 * shown and no vblank will report it: complete its entries failed.
 */
static void mmx_sched_check_unarmed(struct mmx_device *mmx,
				    struct mmx_output *output)
{
	u64 tokens[MMX_SCHED_FLUSHED_MAX];
	struct mmx_sched_entry *e;
	unsigned int n;

	n = mmx_sched_take_flushed(output, false, 0, tokens);
	if (!n)
		return;

	spin_lock_irq(&mmx->sched_lock);
	list_for_each_entry(e, &output->sched.entries, crtc_link) {
		if (e->state == MMX_SCHED_EXECUTING &&
		    mmx_sched_token_in(e->token, tokens, n))
			mmx_sched_done(e, MMX_SCHEDULE_FAILED, -EINVAL, 0, 0);
	}
	spin_unlock_irq(&mmx->sched_lock);
}

/*
 * Set @e's target: the first vblank at or after its execution time, seen
 * from vblank @seq, the next one being at @next_ns.
 */
static void mmx_sched_target(struct mmx_sched_entry *e, u64 seq, u64 next_ns,
			     u64 period)
{
	u64 k = 0;

	if (e->exec_ns > next_ns && period)
		k = div64_u64(e->exec_ns - next_ns + period - 1, period);
	e->target = seq + 1 + k;
	e->target_ns = next_ns + k * period;
}

static void mmx_sched_work(struct work_struct *work)
{
	struct mmx_output *output = container_of(work, struct mmx_output,
						  sched.work);
	struct mmx_device *mmx = to_mmx_device(output->crtc.dev);
	struct drm_device *dev = &mmx->drm;
	u64 token, target, not_before_ns;
	struct mmx_sched_entry *e;
	LIST_HEAD(batch);
	int idx, ret;

	mmx_sched_check_unarmed(mmx, output);
	mmx_sched_reap(mmx, output);
	if (!mmx_sched_take_due(mmx, output, &batch)) {
		mmx_sched_reap(mmx, output);
		return;
	}
	list_sort(NULL, &batch, mmx_sched_cmp);

	/* One commit per target vblank, earliest first. */
	while (!list_empty(&batch)) {
		LIST_HEAD(group);

		token = mmx_sched_take_group(mmx, &batch, &group, &target,
					     &not_before_ns);
		ret = -ENODEV;
		if (drm_dev_enter(dev, &idx)) {
			ret = mmx_sched_commit(output, &group, token, target,
					       not_before_ns, false);
			drm_dev_exit(idx);
		}
		if (!ret)
			continue;
		drm_dbg_kms(dev, "[CRTC:%d:%s] timed commit failed: %d\n",
			    output->crtc.base.id, output->crtc.name, ret);
		spin_lock_irq(&mmx->sched_lock);
		list_for_each_entry(e, &group, batch_link) {
			if (e->state == MMX_SCHED_EXECUTING)
				mmx_sched_done(e, MMX_SCHEDULE_FAILED, ret, 0, 0);
		}
		spin_unlock_irq(&mmx->sched_lock);
	}
	/*
	 * Presented entries are completed by the vblank that latched them,
	 * or by mmx_sched_check_unarmed() when the CRTC was off.
	 */
	mmx_sched_reap(mmx, output);
}

/**
 * mmx_schedule_vblank - look at a CRTC's timed entries at a vblank
 * @output: the output whose vblank was just handled
 *
 * Called from the vblank timer, in hard interrupt context, after
 * drm_crtc_handle_vblank() and the latch of held states. Completes the
 * entries whose commit was latched at this vblank (presented) and the ones
 * that can no longer be shown in time (expired), starts the ones whose
 * target vblank is at most timed_lead_frames ahead, and kicks the CRTC's
 * work item for all of that. Never sleeps or commits.
 */
void mmx_schedule_vblank(struct mmx_output *output)
{
	struct drm_crtc *crtc = &output->crtc;
	struct drm_device *dev = crtc->dev;
	struct mmx_device *mmx = to_mmx_device(dev);
	u64 tokens[MMX_SCHED_FLUSHED_MAX];
	u64 period = mmx_vblank_period_ns(output);
	u64 lead = READ_ONCE(timed_lead_frames);
	u64 seq, now_ns, next_ns, ahead_ns;
	struct mmx_sched_entry *e;
	bool kick = false;
	unsigned int n;
	ktime_t now;

	seq = drm_crtc_vblank_count_and_time(crtc, &now);
	now_ns = ktime_to_ns(now);
	next_ns = now_ns + period;
	ahead_ns = now_ns + lead * period;

	n = mmx_sched_take_flushed(output, true, seq, tokens);

	spin_lock(&mmx->sched_lock);
	output->sched.next_ns = next_ns;
	output->sched.next_seq = seq + 1;
	list_for_each_entry(e, &output->sched.entries, crtc_link) {
		if (e->state == MMX_SCHED_EXECUTING &&
		    mmx_sched_token_in(e->token, tokens, n)) {
			mmx_sched_done(e, MMX_SCHEDULE_PRESENTED, 0, seq, now_ns);
			kick = true;
		} else if (e->state == MMX_SCHED_PENDING &&
			   e->exec_ns <= ahead_ns) {
			mmx_sched_target(e, seq, next_ns, period);
			if (e->target_ns > e->expire_ns) {
				mmx_sched_done(e, MMX_SCHEDULE_EXPIRED, 0,
					       e->target, e->target_ns);
			} else {
				e->state = MMX_SCHED_EXECUTING;
				e->due = true;
			}
			kick = true;
		}
	}
	spin_unlock(&mmx->sched_lock);

	if (kick)
		queue_work(mmx->sched_wq, &output->sched.work);
}

/**
 * mmx_schedule_flushed - note that a CRTC state went to the composer
 * @output: the output
 * @state: its new state, switched in atomic_flush
 * @armed: the commit's vblank event was armed (the CRTC is on)
 * @sequence: the vblank the event was armed for
 *
 * Called from atomic_flush with &drm_device.event_lock held, in the same
 * critical section that arms the commit's vblank event, so that a timed
 * commit is reported presented at exactly the vblank its page-flip event
 * would report. A commit whose event was not armed (the CRTC is off) is
 * left to the work item, which completes it failed.
 */
void mmx_schedule_flushed(struct mmx_output *output,
			  const struct mmx_crtc_state *state, bool armed,
			  u64 sequence)
{
	struct mmx_device *mmx = to_mmx_device(output->crtc.dev);
	struct mmx_sched_flushed *f = &output->sched.flushed[0];
	unsigned int i;

	lockdep_assert_held(&output->crtc.dev->event_lock);

	if (!state->sched_token)
		return;
	/* Free slot; the oldest one if none (cannot happen, see the define). */
	for (i = 0; i < MMX_SCHED_FLUSHED_MAX; i++) {
		if (!output->sched.flushed[i].token) {
			f = &output->sched.flushed[i];
			break;
		}
		if (output->sched.flushed[i].seq < f->seq)
			f = &output->sched.flushed[i];
	}
	f->token = state->sched_token;
	f->armed = armed;
	f->seq = sequence;
	if (!armed)
		queue_work(mmx->sched_wq, &output->sched.work);
}

/**
 * mmx_schedule_crtc_off - fail the timed entries of a CRTC being disabled
 * @output: the output, whose vblank timer is stopped
 *
 * Pending entries, started ones not yet committed, and an executing one
 * whose commit was latched but whose vblank never came, complete failed
 * with -EINVAL. Those whose commit was held are dropped with it (see
 * mmx_vblank_off()) and fail the same way.
 */
void mmx_schedule_crtc_off(struct mmx_output *output)
{
	struct drm_device *dev = output->crtc.dev;
	struct mmx_device *mmx = to_mmx_device(dev);
	u64 tokens[MMX_SCHED_FLUSHED_MAX];
	struct mmx_sched_entry *e;
	bool kick = false;
	unsigned int n;

	n = mmx_sched_take_flushed(output, true, U64_MAX, tokens);

	spin_lock_irq(&mmx->sched_lock);
	list_for_each_entry(e, &output->sched.entries, crtc_link) {
		if (e->state == MMX_SCHED_PENDING ||
		    (e->state == MMX_SCHED_EXECUTING &&
		     (e->due || mmx_sched_token_in(e->token, tokens, n)))) {
			mmx_sched_done(e, MMX_SCHEDULE_FAILED, -EINVAL, 0, 0);
			kick = true;
		}
	}
	spin_unlock_irq(&mmx->sched_lock);

	if (kick)
		queue_work(mmx->sched_wq, &output->sched.work);
}

/* ioctls */

static int mmx_sched_check_args(const struct drm_mmx_schedule_submit *args)
{
	if (args->flags || args->pad || args->schedule_id)
		return -EINVAL;
	if (args->exec_ns > args->expire_ns)
		return -EINVAL;
	if (args->count_objs > MMX_SCHEDULE_OBJS_MAX)
		return -EINVAL;
	return 0;
}

/*
 * Everything a submit does before queueing: parse and reference the set,
 * check it as a TEST_ONLY commit, take a vblank reference (the CRTC must
 * be on) and reserve the completion event.
 */
static struct mmx_sched_entry *
mmx_sched_prepare(struct drm_device *dev, struct drm_file *file,
		  const struct drm_mmx_schedule_submit *args)
{
	struct mmx_sched_entry *e;
	struct mmx_sched_event *ev;
	struct mmx_sched_set *set;
	struct drm_crtc *crtc;
	LIST_HEAD(one);
	int ret;

	ret = mmx_sched_check_args(args);
	if (ret)
		return ERR_PTR(ret);
	crtc = drm_crtc_find(dev, file, args->crtc_id);
	if (!crtc)
		return ERR_PTR(-ENOENT);
	set = kmalloc(sizeof(*set), GFP_KERNEL);
	if (!set)
		return ERR_PTR(-ENOMEM);
	ret = mmx_sched_copy_set(set, args);
	if (ret) {
		kfree(set);
		return ERR_PTR(ret);
	}

	e = kzalloc(struct_size(e, items, set->num_props), GFP_KERNEL);
	if (!e) {
		kfree(set);
		return ERR_PTR(-ENOMEM);
	}
	INIT_LIST_HEAD(&e->crtc_link);
	INIT_LIST_HEAD(&e->file_link);
	e->output = crtc_to_mmx_output(crtc);
	e->exec_ns = args->exec_ns;
	e->expire_ns = args->expire_ns;
	e->user_data = args->user_data;

	ret = mmx_sched_parse(dev, file, e, set);
	kfree(set);
	if (ret)
		goto err_free;

	list_add(&e->batch_link, &one);
	ret = mmx_sched_commit(e->output, &one, 0, 0, 0, true);
	list_del(&e->batch_link);
	if (ret)
		goto err_free;

	if (drm_crtc_vblank_get(crtc)) {
		drm_dbg_kms(dev, "[CRTC:%d:%s] timed commit on a CRTC that is off\n",
			    crtc->base.id, crtc->name);
		ret = -EINVAL;
		goto err_free;
	}
	e->vblank_ref = true;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev) {
		ret = -ENOMEM;
		goto err_free;
	}
	ev->event.base.type = DRM_MMX_EVENT_SCHEDULE;
	ev->event.base.length = sizeof(ev->event);
	ret = drm_event_reserve_init(dev, file, &ev->base, &ev->event.base);
	if (ret) {
		kfree(ev);
		goto err_free;
	}
	e->event = ev;
	return e;

err_free:
	mmx_sched_entry_free(dev, e);
	return ERR_PTR(ret);
}

static void mmx_sched_enqueue(struct mmx_device *mmx,
			      struct mmx_sched_file *sfile,
			      struct mmx_sched_entry *e)
{
	lockdep_assert_held(&mmx->sched_lock);

	e->id = sfile->next_id++;
	e->sfile = sfile;
	e->state = MMX_SCHED_PENDING;
	list_add_tail(&e->file_link, &sfile->entries);
	sfile->count++;
	list_add_tail(&e->crtc_link, &e->output->sched.entries);
}

/*
 * The entry @id of @sfile if it is pending, else NULL with *@err set:
 * -EBUSY for an id that was given (executing or completed), -ENOENT
 * otherwise.
 */
static struct mmx_sched_entry *mmx_sched_find(struct mmx_sched_file *sfile,
					      u64 id, int *err)
{
	struct mmx_sched_entry *e;

	list_for_each_entry(e, &sfile->entries, file_link) {
		if (e->id != id)
			continue;
		if (e->state == MMX_SCHED_PENDING)
			return e;
		break;
	}
	*err = id && id < sfile->next_id ? -EBUSY : -ENOENT;
	return NULL;
}

/**
 * mmx_schedule_submit_ioctl - DRM_IOCTL_MMX_SCHEDULE_SUBMIT
 * @dev: the device
 * @data: &struct drm_mmx_schedule_submit
 * @file: the submitting file, a master
 *
 * Return: 0 with the entry's id in @data, or a negative errno.
 */
int mmx_schedule_submit_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file)
{
	struct drm_mmx_schedule_submit *args = data;
	struct mmx_sched_file *sfile = file->driver_priv;
	struct mmx_device *mmx = to_mmx_device(dev);
	struct mmx_sched_entry *e;
	int ret;
	u64 id;

	ret = mmx_sched_check_args(args);
	if (ret)
		return ret;
	if (READ_ONCE(sfile->count) >= MMX_SCHEDULE_QUEUE_MAX)
		return -ENOSPC;

	e = mmx_sched_prepare(dev, file, args);
	if (IS_ERR(e))
		return PTR_ERR(e);

	spin_lock_irq(&mmx->sched_lock);
	if (sfile->count >= MMX_SCHEDULE_QUEUE_MAX) {
		ret = -ENOSPC;
	} else {
		mmx_sched_enqueue(mmx, sfile, e);
		id = e->id;
	}
	spin_unlock_irq(&mmx->sched_lock);
	if (ret) {
		mmx_sched_entry_free(dev, e);
		return ret;
	}
	args->schedule_id = id;
	return 0;
}

/**
 * mmx_schedule_retract_ioctl - DRM_IOCTL_MMX_SCHEDULE_RETRACT
 * @dev: the device
 * @data: &struct drm_mmx_schedule_retract
 * @file: the file that submitted the entry
 *
 * Return: 0 (the entry completes retracted), -EBUSY once it has started to
 * execute or has completed, -ENOENT for an id never given, -EINVAL for
 * non-zero flags or pad.
 */
int mmx_schedule_retract_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_mmx_schedule_retract *args = data;
	struct mmx_sched_file *sfile = file->driver_priv;
	struct mmx_device *mmx = to_mmx_device(dev);
	struct mmx_sched_entry *e;
	int ret = 0;

	if (args->flags || args->pad)
		return -EINVAL;

	spin_lock_irq(&mmx->sched_lock);
	e = mmx_sched_find(sfile, args->schedule_id, &ret);
	if (e)
		mmx_sched_withdraw(e, MMX_SCHEDULE_RETRACTED);
	spin_unlock_irq(&mmx->sched_lock);

	if (e)
		mmx_sched_complete(dev, e);
	return ret;
}

/**
 * mmx_schedule_replace_ioctl - DRM_IOCTL_MMX_SCHEDULE_REPLACE
 * @dev: the device
 * @data: &struct drm_mmx_schedule_replace
 * @file: the file that submitted the entry, a master
 *
 * Return: 0 with the new entry's id in @data (the old one completes
 * replaced), or a negative errno: those of retract and of submit.
 */
int mmx_schedule_replace_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file)
{
	struct drm_mmx_schedule_replace *args = data;
	struct mmx_sched_file *sfile = file->driver_priv;
	struct mmx_device *mmx = to_mmx_device(dev);
	struct mmx_sched_entry *old, *e;
	int ret = 0;
	u64 id;

	ret = mmx_sched_check_args(&args->submit);
	if (ret)
		return ret;
	spin_lock_irq(&mmx->sched_lock);
	old = mmx_sched_find(sfile, args->schedule_id, &ret);
	spin_unlock_irq(&mmx->sched_lock);
	if (!old)
		return ret;

	e = mmx_sched_prepare(dev, file, &args->submit);
	if (IS_ERR(e))
		return PTR_ERR(e);

	spin_lock_irq(&mmx->sched_lock);
	old = mmx_sched_find(sfile, args->schedule_id, &ret);
	if (old) {
		mmx_sched_withdraw(old, MMX_SCHEDULE_REPLACED);
		mmx_sched_enqueue(mmx, sfile, e);
		id = e->id;
	}
	spin_unlock_irq(&mmx->sched_lock);

	if (!old) {
		mmx_sched_entry_free(dev, e);
		return ret;
	}
	mmx_sched_complete(dev, old);
	args->submit.schedule_id = id;
	return 0;
}

/* Files */

/**
 * mmx_schedule_open - give a new file its queue of timed entries
 * @dev: the device
 * @file: the new file
 *
 * Return: 0 or -ENOMEM.
 */
int mmx_schedule_open(struct drm_device *dev, struct drm_file *file)
{
	struct mmx_sched_file *sfile;

	sfile = kzalloc(sizeof(*sfile), GFP_KERNEL);
	if (!sfile)
		return -ENOMEM;
	INIT_LIST_HEAD(&sfile->entries);
	sfile->next_id = 1;
	file->driver_priv = sfile;
	return 0;
}
EXPORT_SYMBOL_GPL(mmx_schedule_open);

/**
 * mmx_schedule_postclose - drop the timed entries of a closed file
 * @dev: the device
 * @file: the file, whose events are already released
 *
 * Pending entries are freed without events; executing and completed ones
 * are left to their CRTC's work item, detached from the file.
 */
void mmx_schedule_postclose(struct drm_device *dev, struct drm_file *file)
{
	struct mmx_sched_file *sfile = file->driver_priv;
	struct mmx_device *mmx = to_mmx_device(dev);
	struct mmx_sched_entry *e, *tmp;
	LIST_HEAD(drop);

	spin_lock_irq(&mmx->sched_lock);
	list_for_each_entry_safe(e, tmp, &sfile->entries, file_link) {
		if (e->state == MMX_SCHED_PENDING) {
			e->state = MMX_SCHED_DONE;
			list_move_tail(&e->crtc_link, &drop);
		}
		mmx_sched_unlink_file(e);
	}
	spin_unlock_irq(&mmx->sched_lock);

	list_for_each_entry_safe(e, tmp, &drop, crtc_link) {
		list_del(&e->crtc_link);
		mmx_sched_entry_free(dev, e);
	}
	kfree(sfile);
	file->driver_priv = NULL;
}
EXPORT_SYMBOL_GPL(mmx_schedule_postclose);

/* Device */

static void mmx_schedule_fini(struct drm_device *dev, void *data)
{
	struct mmx_device *mmx = data;
	struct mmx_sched_entry *e, *tmp;
	unsigned int i;

	destroy_workqueue(mmx->sched_wq);
	/* Every file is closed: only entries whose vblank never came. */
	for (i = 0; i < mmx->num_outputs; i++) {
		list_for_each_entry_safe(e, tmp, &mmx->outputs[i].sched.entries,
					 crtc_link) {
			list_del(&e->crtc_link);
			mmx_sched_entry_free(dev, e);
		}
	}
}

/**
 * mmx_schedule_init - set up the timed commits of a device
 * @mmx: the device, whose outputs and vblank are initialized (the entries
 *	hold vblank references until this is undone)
 *
 * Return: 0 or a negative errno.
 */
int mmx_schedule_init(struct mmx_device *mmx)
{
	unsigned int i;

	spin_lock_init(&mmx->sched_lock);
	for (i = 0; i < mmx->num_outputs; i++) {
		INIT_LIST_HEAD(&mmx->outputs[i].sched.entries);
		INIT_WORK(&mmx->outputs[i].sched.work, mmx_sched_work);
	}
	mmx->sched_wq = alloc_workqueue("mmx_schedule",
					WQ_HIGHPRI | WQ_UNBOUND, 0);
	if (!mmx->sched_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(&mmx->drm, mmx_schedule_fini, mmx);
}
