// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Timed atomic commits, the uAPI side: the submit, retract and replace
 * ioctls, the parsing and validation of a property set into an entry that
 * references its framebuffers and blobs, and the per-file queues. The
 * queues of the CRTCs and the execution are in mmx_schedule.c.
 */

#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_crtc.h>
#include <drm/drm_file.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_mode_object.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"
#include "mmx_schedule.h"

/* Entries: references, queues */

/**
 * mmx_sched_entry_put - drop what a timed entry references
 * @e: the entry
 *
 * Puts its framebuffers, blobs and vblank reference; the entry itself is
 * left to its caller.
 */
void mmx_sched_entry_put(struct mmx_sched_entry *e)
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

/**
 * mmx_sched_entry_free - free a timed entry without completing it
 * @dev: the device
 * @e: the entry, unlinked
 *
 * Drops its references and cancels its reserved event, if any.
 */
void mmx_sched_entry_free(struct drm_device *dev, struct mmx_sched_entry *e)
{
	mmx_sched_entry_put(e);
	if (e->event)
		drm_event_cancel_free(dev, &e->event->base);
	kfree(e);
}

/**
 * mmx_sched_unlink_file - take a timed entry off its file's queue
 * @e: the entry
 *
 * Its CRTC list is the caller's business. Called with
 * &mmx_device.sched_lock held.
 */
void mmx_sched_unlink_file(struct mmx_sched_entry *e)
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
		return prop == mmx->transform_prop || prop == mmx->filter_prop;
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
 * The plane the properties of @obj are set on, NULL for the CRTC: -ENOENT
 * for an object without properties, -EINVAL for one that is neither @crtc
 * nor a plane that can be on it.
 */
static int mmx_sched_obj_plane(struct drm_mode_object *obj,
			       struct drm_crtc *crtc, struct drm_plane **plane)
{
	*plane = NULL;
	if (!obj->properties)
		return -ENOENT;
	if (obj->type == DRM_MODE_OBJECT_PLANE) {
		*plane = obj_to_plane(obj);
		if (!((*plane)->possible_crtcs & drm_crtc_mask(crtc)))
			return -EINVAL;
		return 0;
	}
	if (obj->type != DRM_MODE_OBJECT_CRTC || obj_to_crtc(obj) != crtc)
		return -EINVAL;
	return 0;
}

/*
 * Resolve the @count properties of @obj (on @plane, NULL for the CRTC),
 * entries @first on of @set, into @e's items and reference their objects.
 */
static int mmx_sched_parse_props(struct drm_device *dev,
				 struct drm_file *file,
				 struct mmx_sched_entry *e,
				 struct drm_mode_object *obj,
				 struct drm_plane *plane,
				 const struct mmx_sched_set *set,
				 unsigned int first, unsigned int count)
{
	struct mmx_sched_item *item;
	unsigned int n;
	int ret;

	for (n = first; n < first + count; n++) {
		item = &e->items[n];
		item->plane = plane;
		item->value = set->values[n];
		item->prop = mmx_sched_find_prop(obj, set->props[n]);
		if (!item->prop)
			return -ENOENT;
		e->num_items = n + 1;
		if (!mmx_sched_prop_allowed(to_mmx_device(dev), plane,
					    item->prop))
			return -EINVAL;
		ret = mmx_sched_item_get(dev, file, &e->output->crtc, item);
		if (ret)
			return ret;
	}
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
	struct drm_mode_object *obj;
	struct drm_plane *plane;
	unsigned int i, n = 0;
	int ret;

	for (i = 0; i < set->count_objs; i++) {
		obj = drm_mode_object_find(dev, file, set->objs[i],
					   DRM_MODE_OBJECT_ANY);
		if (!obj)
			return -ENOENT;
		ret = mmx_sched_obj_plane(obj, &e->output->crtc, &plane);
		if (!ret)
			ret = mmx_sched_parse_props(dev, file, e, obj, plane,
						    set, n, set->counts[i]);
		drm_mode_object_put(obj);
		if (ret) {
			drm_dbg_kms(dev, "timed commit: object %u refused: %d\n",
				    set->objs[i], ret);
			return ret;
		}
		n += set->counts[i];
	}
	return 0;
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
 * A new entry for @args on @crtc, its set copied from userspace, parsed and
 * referenced.
 */
static struct mmx_sched_entry *
mmx_sched_entry_new(struct drm_device *dev, struct drm_file *file,
		    struct drm_crtc *crtc,
		    const struct drm_mmx_schedule_submit *args)
{
	struct mmx_sched_entry *e;
	struct mmx_sched_set *set;
	int ret;

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
	if (ret) {
		mmx_sched_entry_free(dev, e);
		return ERR_PTR(ret);
	}
	return e;
}

/* Check @e's set as a TEST_ONLY commit. */
static int mmx_sched_test(struct mmx_sched_entry *e)
{
	LIST_HEAD(one);
	int ret;

	list_add(&e->batch_link, &one);
	ret = mmx_sched_commit(e->output, &one, 0, 0, 0, true);
	list_del(&e->batch_link);
	return ret;
}

/* Reserve @e's completion event on @file. */
static int mmx_sched_event_reserve(struct drm_device *dev,
				   struct drm_file *file,
				   struct mmx_sched_entry *e)
{
	struct mmx_sched_event *ev;
	int ret;

	ev = kzalloc(sizeof(*ev), GFP_KERNEL);
	if (!ev)
		return -ENOMEM;
	ev->event.base.type = DRM_MMX_EVENT_SCHEDULE;
	ev->event.base.length = sizeof(ev->event);
	ret = drm_event_reserve_init(dev, file, &ev->base, &ev->event.base);
	if (ret) {
		kfree(ev);
		return ret;
	}
	e->event = ev;
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
	struct drm_crtc *crtc;
	int ret;

	ret = mmx_sched_check_args(args);
	if (ret)
		return ERR_PTR(ret);
	crtc = drm_crtc_find(dev, file, args->crtc_id);
	if (!crtc)
		return ERR_PTR(-ENOENT);
	e = mmx_sched_entry_new(dev, file, crtc, args);
	if (IS_ERR(e))
		return e;

	ret = mmx_sched_test(e);
	if (ret)
		goto err_free;

	if (drm_crtc_vblank_get(crtc)) {
		drm_dbg_kms(dev, "[CRTC:%d:%s] timed commit on a CRTC that is off\n",
			    crtc->base.id, crtc->name);
		ret = -EINVAL;
		goto err_free;
	}
	e->vblank_ref = true;

	ret = mmx_sched_event_reserve(dev, file, e);
	if (ret)
		goto err_free;
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
