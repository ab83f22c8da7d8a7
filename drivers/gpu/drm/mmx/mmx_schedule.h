/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Timed atomic commits, private to their two files: the entry a submit
 * stores, shared by the uAPI side (mmx_schedule_ioctl.c: ioctls, parsing,
 * the entries' references, per-file queues) and the execution
 * (mmx_schedule.c: the CRTC queues, their work items, commits and
 * completion events).
 */

#ifndef _MMX_SCHEDULE_H_
#define _MMX_SCHEDULE_H_

#include <linux/list.h>
#include <linux/types.h>

#include <drm/drm_file.h>
#include <drm/mmx_drm.h>

struct drm_device;
struct drm_framebuffer;
struct drm_plane;
struct drm_property;
struct drm_property_blob;
struct mmx_output;

/**
 * enum mmx_sched_state - where a timed entry is
 * @MMX_SCHED_PENDING: queued; can be retracted or replaced
 * @MMX_SCHED_EXECUTING: started by the vblank timer, timed_lead_frames
 *	before its target vblank: committed or about to be
 * @MMX_SCHED_DONE: completed (its status is set), waiting to be reaped
 *
 * PENDING -> EXECUTING -> DONE, or PENDING -> DONE (retracted, replaced,
 * expired, CRTC off); changed only under &mmx_device.sched_lock.
 */
enum mmx_sched_state {
	MMX_SCHED_PENDING,
	MMX_SCHED_EXECUTING,
	MMX_SCHED_DONE,
};

/**
 * struct mmx_sched_item - one property of a stored set
 * @plane: the plane it is set on, NULL for a CRTC property
 * @prop: the property
 * @value: its value
 * @fb: for FB_ID, the framebuffer, referenced until the entry is freed
 * @blob: for a blob property, the blob, referenced until the entry is freed
 */
struct mmx_sched_item {
	struct drm_plane *plane;
	struct drm_property *prop;
	u64 value;
	struct drm_framebuffer *fb;
	struct drm_property_blob *blob;
};

/**
 * struct mmx_sched_event - the completion event of a timed entry
 * @base: the DRM core's pending event, reserved at submit
 * @event: what userspace reads
 */
struct mmx_sched_event {
	struct drm_pending_event base;
	struct drm_mmx_event_schedule event;
};

/**
 * struct mmx_sched_file - the timed entries of a DRM file
 * @entries: its entries, linked by &mmx_sched_entry.file_link
 * @count: how many
 * @next_id: the id the next entry gets (ids start at 1)
 *
 * In &drm_file.driver_priv. All members are protected by
 * &mmx_device.sched_lock.
 */
struct mmx_sched_file {
	struct list_head entries;
	unsigned int count;
	u64 next_id;
};

/**
 * struct mmx_sched_entry - a timed entry
 * @crtc_link: on &mmx_schedule_queue.entries of @output
 * @file_link: on &mmx_sched_file.entries of @sfile
 * @batch_link: on a list of the CRTC's work item, which owns it
 * @sfile: the file's queue, NULL once detached from it
 * @output: the output whose CRTC it is shown on
 * @id: its schedule id, unique in its file
 * @token: &mmx_crtc_state.sched_token of the commit that carries it
 * @exec_ns: execution time (CLOCK_MONOTONIC)
 * @expire_ns: expiration time (CLOCK_MONOTONIC)
 * @user_data: returned in the event
 * @state: where it is
 * @due: started (EXECUTING) by the vblank timer, not yet taken by the
 *	work item
 * @target: the vblank to present at
 * @target_ns: its time
 * @vblank_ref: holds a vblank reference on the CRTC
 * @status: completion status, MMX_SCHEDULE_*
 * @error: completion errno
 * @sequence: the vblank it completed at
 * @timestamp_ns: that vblank's time
 * @event: the completion event, reserved at submit
 * @num_items: how many of @items are set (and referenced)
 * @items: the properties to set, in order
 *
 * @crtc_link, @file_link, @sfile, @state, @due, @target, @target_ns,
 * @token and the completion fields (@status to @timestamp_ns) are
 * protected by &mmx_device.sched_lock.
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

/* Mark @e completed; under &mmx_device.sched_lock. */
static inline void mmx_sched_done(struct mmx_sched_entry *e, u32 status,
				  int error, u64 sequence, u64 timestamp_ns)
{
	e->state = MMX_SCHED_DONE;
	e->status = status;
	e->error = error;
	e->sequence = sequence;
	e->timestamp_ns = timestamp_ns;
}

/* Entries (mmx_schedule_ioctl.c) */
void mmx_sched_entry_put(struct mmx_sched_entry *e);
void mmx_sched_entry_free(struct drm_device *dev, struct mmx_sched_entry *e);
void mmx_sched_unlink_file(struct mmx_sched_entry *e);

/* Execution (mmx_schedule.c) */
void mmx_sched_complete(struct drm_device *dev, struct mmx_sched_entry *e);
int mmx_sched_commit(struct mmx_output *output, struct list_head *batch,
		     u64 token, u64 target, u64 not_before_ns, bool test_only);

#endif /* _MMX_SCHEDULE_H_ */
