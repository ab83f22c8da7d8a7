// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The simulated vertical blanking of a CRTC and its held-frame latch.
 *
 * An hrtimer stands for the vblank interrupt. The latch stands for the
 * double-buffered registers of real hardware: a CRTC state flushed ahead of
 * its vblank (a timed commit, or any commit behind one) waits in
 * &mmx_vblank.held, and the timer makes it the composer's at that vblank,
 * which is when the picture changes, and sends its event then. Any other
 * state is latched at once by atomic_flush, its event armed for the next
 * vblank. The commit tail waits for the latch before it cleans up the old
 * plane states, which the composer shows until then.
 */

#include <linux/debugfs.h>
#include <linux/hrtimer.h>
#include <linux/seq_file.h>

#include <drm/drm_atomic.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"

#define vblank_to_mmx_output(v) container_of(v, struct mmx_output, vblank)

/* The held states: a ring, oldest first, under &drm_device.event_lock */

static struct mmx_vblank_held *mmx_vblank_held_at(struct mmx_vblank *vblank,
						  unsigned int i)
{
	return &vblank->held[(vblank->held_head + i) % MMX_VBLANK_HELD_MAX];
}

static struct mmx_vblank_held *mmx_vblank_held_pop(struct mmx_vblank *vblank)
{
	struct mmx_vblank_held *h = mmx_vblank_held_at(vblank, 0);

	vblank->held_head = (vblank->held_head + 1) % MMX_VBLANK_HELD_MAX;
	vblank->held_count--;
	return h;
}

/* Make @state the composer's, on screen from vblank @from. */
static void mmx_vblank_show(struct mmx_output *output,
			    struct mmx_crtc_state *state, u64 from)
{
	unsigned long flags;

	spin_lock_irqsave(&output->lock, flags);
	mmx_composer_show(output, state, from);
	spin_unlock_irqrestore(&output->lock, flags);
}

/* The composer's state is on screen from vblank @from. */
static void mmx_vblank_shown_from(struct mmx_output *output, u64 from)
{
	unsigned long flags;

	spin_lock_irqsave(&output->lock, flags);
	mmx_composer_shown_from(output, from);
	spin_unlock_irqrestore(&output->lock, flags);
}

/* Give @h's damage to the backend's tracking, and its state if @show. */
static void mmx_vblank_held_switch(struct mmx_output *output,
				   const struct mmx_vblank_held *h, bool show)
{
	unsigned long flags;

	spin_lock_irqsave(&output->lock, flags);
	if (show)
		mmx_composer_show(output, h->state, 0);
	mmx_damage_merge(output, &h->damage);
	spin_unlock_irqrestore(&output->lock, flags);
}

/* Has the vblank @seq at @now_ns come for the held state @h? */
static bool mmx_vblank_held_due(const struct mmx_vblank_held *h, u64 seq,
				u64 now_ns)
{
	return seq >= h->target && now_ns >= h->not_before_ns;
}

/*
 * At a vblank, in the timer: latch the oldest held state if its vblank has
 * come, and, if the commits behind it are timed ones whose vblank has come
 * too (they were late), those as well: the newest goes to the composer and
 * all report this vblank, as entries due at the same vblank do. A held
 * ordinary commit goes at the vblank after the one before it.
 * Return: how many were latched; the caller then drops the vblank
 * references they held and wakes &mmx_vblank.latch_wq.
 */
static unsigned int mmx_vblank_latch(struct mmx_output *output)
{
	struct mmx_vblank *vblank = &output->vblank;
	struct drm_crtc *crtc = &output->crtc;
	struct drm_device *dev = crtc->dev;
	struct mmx_vblank_held *h = NULL, *next;
	unsigned int n = 0;
	ktime_t now;
	u64 seq;

	seq = drm_crtc_vblank_count_and_time(crtc, &now);
	spin_lock(&dev->event_lock);
	while (vblank->held_count) {
		next = mmx_vblank_held_at(vblank, 0);
		if (!mmx_vblank_held_due(next, seq, ktime_to_ns(now)) ||
		    (h && !next->target))
			break;
		h = mmx_vblank_held_pop(vblank);
		/* Damage of each, the picture of the last (done below). */
		mmx_vblank_held_switch(output, h, false);
		if (h->event)
			drm_crtc_send_vblank_event(crtc, h->event);
		mmx_schedule_flushed(output, h->state, true, seq);
		n++;
	}
	if (h)
		mmx_vblank_show(output, h->state, 0);
	spin_unlock(&dev->event_lock);
	return n;
}

/* Drop @n vblank references of held states and wake their waiters. */
static void mmx_vblank_unhold(struct mmx_output *output, unsigned int n)
{
	if (!n)
		return;
	while (n--)
		drm_crtc_vblank_put(&output->crtc);
	wake_up_all(&output->vblank.latch_wq);
}

/*
 * Drop every held state of a CRTC whose vblank stopped: the newest goes to
 * the composer (older ones' commits may free the states before it), none
 * was shown, their events go out now and their timed entries fail.
 */
static void mmx_vblank_drop_held(struct mmx_output *output)
{
	struct mmx_vblank *vblank = &output->vblank;
	struct drm_crtc *crtc = &output->crtc;
	struct mmx_vblank_held *h;
	unsigned int n = 0;

	spin_lock_irq(&crtc->dev->event_lock);
	while (vblank->held_count) {
		h = mmx_vblank_held_pop(vblank);
		mmx_vblank_held_switch(output, h, !vblank->held_count);
		if (h->event)
			drm_crtc_send_vblank_event(crtc, h->event);
		mmx_schedule_flushed(output, h->state, false, 0);
		n++;
	}
	spin_unlock_irq(&crtc->dev->event_lock);
	mmx_vblank_unhold(output, n);
}

static bool mmx_vblank_holds(struct mmx_output *output,
			     const struct drm_crtc_state *state)
{
	struct mmx_vblank *vblank = &output->vblank;
	bool held = false;
	unsigned int i;

	spin_lock_irq(&output->crtc.dev->event_lock);
	for (i = 0; i < vblank->held_count; i++)
		held |= &mmx_vblank_held_at(vblank, i)->state->base == state;
	spin_unlock_irq(&output->crtc.dev->event_lock);
	return held;
}

/*
 * Hold the new state of @output's CRTC until its vblank if it is a timed
 * commit (even one whose target is the next vblank: the composer must not
 * see it before), or if states are held already (it goes behind them). A
 * timed commit's event (the atomic helper's own, nobody reads it) is sent
 * at once: its flip is done as far as the DRM core is concerned, so the
 * next timed commit can be flushed behind it, and the commit tail waits
 * for the latch itself before cleaning up (mmx_vblank_wait_latched()).
 * Return: true if held; the caller must then not touch @event.
 */
static bool mmx_vblank_hold(struct mmx_output *output,
			    struct mmx_atomic_state *state,
			    struct drm_pending_vblank_event *event)
{
	struct mmx_vblank *vblank = &output->vblank;
	struct drm_crtc *crtc = &output->crtc;
	struct drm_device *dev = crtc->dev;
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(crtc->state);
	bool timed = mmx_state->sched_token && mmx_state->sched_target;
	struct mmx_vblank_held *h;
	struct mmx_damage damage;

	if (!timed && !READ_ONCE(vblank->held_count))
		return false;
	mmx_damage_of_commit(output, state, &damage);

	for (;;) {
		spin_lock_irq(&dev->event_lock);
		if (vblank->held_count < MMX_VBLANK_HELD_MAX)
			break;
		spin_unlock_irq(&dev->event_lock);
		/* Cannot happen (see the define); the vblank frees a slot. */
		wait_event_timeout(vblank->latch_wq,
				   READ_ONCE(vblank->held_count) <
				   MMX_VBLANK_HELD_MAX, HZ / 10);
	}
	if ((!timed && !vblank->held_count) || drm_crtc_vblank_get(crtc)) {
		spin_unlock_irq(&dev->event_lock);
		return false;
	}
	h = mmx_vblank_held_at(vblank, vblank->held_count++);
	h->state = mmx_state;
	h->target = timed ? mmx_state->sched_target : 0;
	h->not_before_ns = timed ? mmx_state->sched_not_before_ns : 0;
	h->damage = damage;
	h->event = event;
	if (event && timed) {
		drm_crtc_send_vblank_event(crtc, event);
		h->event = NULL;
	}
	spin_unlock_irq(&dev->event_lock);
	return true;
}

/**
 * mmx_vblank_flush - latch a flushed CRTC state, now or at its vblank
 * @output: the output
 * @state: the commit whose new CRTC state (crtc->state) was just flushed
 *
 * Called from atomic_flush. A timed commit's state, or any state flushed
 * while others are held, is held until its vblank (see the file comment).
 * Any other goes to the composer at once, after which its damage is
 * recorded, and its event is armed for the next vblank (sent at once when
 * the CRTC is off). Either way the schedule learns, under
 * &drm_device.event_lock, when a timed commit was latched.
 */
void mmx_vblank_flush(struct mmx_output *output,
		      struct mmx_atomic_state *state)
{
	struct drm_crtc *crtc = &output->crtc;
	struct mmx_crtc_state *mmx_state = to_mmx_crtc_state(crtc->state);
	struct drm_pending_vblank_event *event = crtc->state->event;
	u64 from;

	crtc->state->event = NULL;
	if (crtc->state->active && mmx_vblank_hold(output, state, event))
		return;

	/*
	 * On screen from the next vblank, whose number is known only once
	 * the event is armed: until then the composer gives no vblank this
	 * picture (a vblank may come between the two).
	 */
	mmx_vblank_show(output, mmx_state, U64_MAX);
	/* After the switch: damage must never precede its picture. */
	mmx_damage_commit(output, state);

	spin_lock_irq(&crtc->dev->event_lock);
	if (event && crtc->state->active && drm_crtc_vblank_get(crtc) == 0) {
		drm_crtc_arm_vblank_event(crtc, event);
		from = event->sequence;
		/* Under event_lock: the vblank cannot have sent it yet. */
		mmx_schedule_flushed(output, mmx_state, true, event->sequence);
	} else {
		if (event)
			drm_crtc_send_vblank_event(crtc, event);
		from = crtc->state->active ? drm_crtc_vblank_count(crtc) + 1 : 0;
		mmx_schedule_flushed(output, mmx_state, false, 0);
	}
	spin_unlock_irq(&crtc->dev->event_lock);
	mmx_vblank_shown_from(output, from);
}

/**
 * mmx_vblank_wait_latched - wait until a flushed CRTC state is latched
 * @output: the output
 * @state: a new CRTC state of a commit past its atomic_flush
 *
 * Called from the commit tail before the old plane states are cleaned up:
 * the composer shows them until @state is latched. Returns at once for a
 * state that was not held. The vblank that latches it is at most a few
 * frames away; if it never comes (it always does: a held state holds a
 * vblank reference and disabling the CRTC drops the held states), after
 * ten seconds the held states are dropped.
 */
void mmx_vblank_wait_latched(struct mmx_output *output,
			     const struct drm_crtc_state *state)
{
	if (wait_event_timeout(output->vblank.latch_wq,
			       !mmx_vblank_holds(output, state), 10 * HZ))
		return;
	drm_err(output->crtc.dev, "[CRTC:%d:%s] held state not latched in 10 s\n",
		output->crtc.base.id, output->crtc.name);
	mmx_vblank_drop_held(output);
}

/* The timer */

static enum hrtimer_restart mmx_vblank_timer_fn(struct hrtimer *timer)
{
	struct mmx_vblank *vblank = container_of(timer, struct mmx_vblank,
						 timer);
	struct mmx_output *output = vblank_to_mmx_output(vblank);
	struct drm_crtc *crtc = &output->crtc;
	unsigned int latched;
	u64 overruns;

	if (!READ_ONCE(vblank->on))
		return HRTIMER_NORESTART;

	overruns = hrtimer_forward_now(timer, vblank->frame_period);
	if (overruns > 1) {
		WRITE_ONCE(vblank->missed, vblank->missed + overruns - 1);
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] vblank timer overrun %llu\n",
			    crtc->base.id, crtc->name, overruns);
	}

	/* Disabled while this ran: see mmx_vblank_disable(). */
	if (!drm_crtc_handle_vblank(crtc))
		return HRTIMER_NORESTART;
	latched = mmx_vblank_latch(output);
	mmx_composer_vblank(output, drm_crtc_vblank_count(crtc));
	mmx_schedule_vblank(output);
	mmx_vblank_unhold(output, latched);
	return READ_ONCE(vblank->on) ? HRTIMER_RESTART : HRTIMER_NORESTART;
}

/**
 * mmx_vblank_enable - &drm_crtc_funcs.enable_vblank: start the timer
 * @crtc: the CRTC
 *
 * The frame period is the one the DRM core computed for the mode.
 *
 * Return: 0.
 */
int mmx_vblank_enable(struct drm_crtc *crtc)
{
	struct mmx_vblank *vblank = &crtc_to_mmx_output(crtc)->vblank;
	struct drm_vblank_crtc *core =
		&crtc->dev->vblank[drm_crtc_index(crtc)];

	vblank->frame_period = ns_to_ktime(core->framedur_ns);
	WRITE_ONCE(vblank->on, true);
	hrtimer_start(&vblank->timer, vblank->frame_period, HRTIMER_MODE_REL);
	return 0;
}

/**
 * mmx_vblank_disable - &drm_crtc_funcs.disable_vblank: stop the timer
 * @crtc: the CRTC
 *
 * Called with &drm_device.event_lock and vbl_lock held, which the timer
 * callback needs too: never waits for the callback, which sees
 * &mmx_vblank.on false and stops; mmx_vblank_off() waits for it without
 * locks.
 */
void mmx_vblank_disable(struct drm_crtc *crtc)
{
	struct mmx_vblank *vblank = &crtc_to_mmx_output(crtc)->vblank;

	WRITE_ONCE(vblank->on, false);
	hrtimer_try_to_cancel(&vblank->timer);
}

/**
 * mmx_vblank_get_timestamp - &drm_crtc_funcs.get_vblank_timestamp
 * @crtc: the CRTC
 * @max_error: unused: the timestamp is exact
 * @vblank_time: the time of the last vblank
 * @in_vblank_irq: unused
 *
 * The timer is moved forward before the vblank is handled, as hardware
 * updates its registers before raising the interrupt: the vblank that is
 * being handled started one period before the timer's next expiry.
 *
 * Return: true.
 */
bool mmx_vblank_get_timestamp(struct drm_crtc *crtc, int *max_error,
			      ktime_t *vblank_time, bool in_vblank_irq)
{
	struct mmx_vblank *vblank = &crtc_to_mmx_output(crtc)->vblank;
	struct drm_vblank_crtc *core =
		&crtc->dev->vblank[drm_crtc_index(crtc)];

	if (!READ_ONCE(core->enabled)) {
		*vblank_time = ktime_get();
		return true;
	}

	*vblank_time = ktime_sub(hrtimer_get_expires(&vblank->timer),
				 vblank->frame_period);
	return true;
}

/**
 * mmx_vblank_period_ns - the frame period of a CRTC's vblank
 * @output: the output
 *
 * Return: the period in nanoseconds, 0 before the vblank was first enabled.
 */
u64 mmx_vblank_period_ns(const struct mmx_output *output)
{
	return ktime_to_ns(output->vblank.frame_period);
}

/**
 * mmx_vblank_off - stop the vblank of a CRTC being disabled
 * @output: the output, after drm_crtc_vblank_off()
 *
 * Waits for a timer callback that was still running, then drops the held
 * states (see mmx_vblank_drop_held()).
 */
void mmx_vblank_off(struct mmx_output *output)
{
	/* No lock held now: wait for a callback that was still running. */
	hrtimer_cancel(&output->vblank.timer);
	mmx_vblank_drop_held(output);
}

/**
 * mmx_vblank_init - set up the vblank timer and latch of an output
 * @output: the output
 */
void mmx_vblank_init(struct mmx_output *output)
{
	struct mmx_vblank *vblank = &output->vblank;

	init_waitqueue_head(&vblank->latch_wq);
	mmx_hrtimer_setup(&vblank->timer, mmx_vblank_timer_fn, CLOCK_MONOTONIC,
			  HRTIMER_MODE_REL);
}

/**
 * mmx_vblank_release - stop the vblank timer of an output for good
 * @output: the output, whose device is going away
 */
void mmx_vblank_release(struct mmx_output *output)
{
	hrtimer_cancel(&output->vblank.timer);
}

static int mmx_vblank_stats_show(struct seq_file *m, void *data)
{
	struct mmx_output *output = m->private;

	seq_printf(m, "period_ns: %llu\n", mmx_vblank_period_ns(output));
	seq_printf(m, "missed: %lu\n", READ_ONCE(output->vblank.missed));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_vblank_stats);

/**
 * mmx_vblank_debugfs_init - add the vblank's debugfs file of a CRTC
 * @output: the output, its CRTC registered
 *
 * ``crtc-N/mmx_vblank``: the frame period and the vblanks missed, those
 * the timer expired too late to handle one by one (a stalled or busy host);
 * the vblank count then steps by more than one, as after a lost interrupt,
 * and an event due at a missed vblank is sent at the next one handled.
 */
void mmx_vblank_debugfs_init(struct mmx_output *output)
{
	debugfs_create_file("mmx_vblank", 0444, output->crtc.debugfs_entry,
			    output, &mmx_vblank_stats_fops);
}
