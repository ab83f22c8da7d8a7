// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Timed atomic commits, the execution: the CRTCs' queues of entries, their
 * vblank hook and work item, the atomic commits and the completion events.
 * The uAPI side (ioctls, parsing, per-file queues) is mmx_schedule_ioctl.c.
 *
 * A timed commit is a property set shown at the first vblank at or after
 * its execution time, with expiry, retract and replace (see "timed atomic
 * commits" in include/uapi/drm/mmx_drm.h).
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

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_framebuffer.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_property.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"
#include "mmx_schedule.h"

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

/* Completion */

/**
 * mmx_sched_complete - complete a timed entry: send its event and free it
 * @dev: the device
 * @e: the entry, unlinked and done
 *
 * Drops its references first, so that what it kept alive is released when
 * its event arrives, then sends the event.
 */
void mmx_sched_complete(struct drm_device *dev, struct mmx_sched_entry *e)
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
static int mmx_sched_apply(struct mmx_atomic_state *state,
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
 * Set @batch's entries, in order, on @state, and mark its state of
 * @output's CRTC as the timed commit @token (0: none) due at vblank
 * @target, not before @not_before_ns.
 */
static int mmx_sched_build(struct mmx_atomic_state *state,
			   struct mmx_output *output, struct list_head *batch,
			   u64 token, u64 target, u64 not_before_ns)
{
	struct drm_crtc_state *cstate;
	struct mmx_crtc_state *mstate;
	struct mmx_sched_entry *e;
	int ret;

	cstate = drm_atomic_get_crtc_state(state, &output->crtc);
	if (IS_ERR(cstate))
		return PTR_ERR(cstate);
	mstate = to_mmx_crtc_state(cstate);
	mstate->sched_token = token;
	mstate->sched_target = target;
	mstate->sched_not_before_ns = not_before_ns;
	list_for_each_entry(e, batch, batch_link) {
		ret = mmx_sched_apply(state, e);
		if (ret)
			return ret;
	}
	return 0;
}

/**
 * mmx_sched_commit - check or commit timed entries on their CRTC
 * @output: the output
 * @batch: the entries, linked by &mmx_sched_entry.batch_link
 * @token: marks the CRTC state so that its latch is reported (0 for none)
 * @target: the vblank to latch the state at (0 for the next one)
 * @not_before_ns: never latch it at a vblank before this time
 * @test_only: only check the result (a submit's TEST_ONLY check)
 *
 * Applies the entries of @batch, in order, to the current state of
 * @output's CRTC and checks or commits the result. The commit is
 * nonblocking; if an earlier commit on the CRTC has not flipped yet
 * (-EBUSY) it blocks behind it instead.
 *
 * Return: 0 or a negative errno.
 */
int mmx_sched_commit(struct mmx_output *output, struct list_head *batch,
		     u64 token, u64 target, u64 not_before_ns, bool test_only)
{
	struct drm_device *dev = output->crtc.dev;
	struct drm_modeset_acquire_ctx ctx;
	struct mmx_atomic_state *state;
	bool blocking = false;
	int ret;

	state = mmx_atomic_state_alloc(dev);
	if (!state)
		return -ENOMEM;
	drm_modeset_acquire_init(&ctx, test_only ?
				 DRM_MODESET_ACQUIRE_INTERRUPTIBLE : 0);
	state->acquire_ctx = &ctx;

retry:
	ret = mmx_sched_build(state, output, batch, token, target,
			      not_before_ns);
	if (ret)
		goto out;
	if (test_only)
		ret = drm_atomic_check_only(state);
	else if (blocking)
		ret = drm_atomic_commit(state);
	else
		ret = drm_atomic_nonblocking_commit(state);
	if (ret == -EBUSY && !test_only && !blocking) {
		blocking = true;
		mmx_atomic_state_clear(state);
		goto retry;
	}
out:
	if (ret == -EDEADLK) {
		mmx_atomic_state_clear(state);
		ret = drm_modeset_backoff(&ctx);
		if (!ret)
			goto retry;
	}
	mmx_atomic_state_put(state);
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
