// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The composer: when an output is observed (a CRC source is set or a
 * writeback job is queued) or, on the virtio backend, when its picture
 * changed, blend its planes into a frame once per vblank, on an ordered
 * workqueue, outside the atomic commit's critical path.
 *
 * The transformed composition, the expensive part, is split into bands of
 * rows composed on several CPUs: the composer's work item takes bands
 * itself and queues helpers on the system's unbound workqueue, which take
 * the others. Bands are taken one at a time, so a helper that starts late
 * (a busy machine) costs nothing, and the composition stops at the next
 * band when it is no longer wanted (the picture changed, or the CRC source
 * it was for was closed; a frame a writeback job waits for is always
 * finished): a commit or close() that waits for the composer (to free the
 * state it reads) waits for one band, not for a frame. No
 * lock is held while composing; the composer takes its state under
 * &mmx_output.lock and lets go at once.
 */

#include <linux/cpumask.h>
#include <linux/crc32.h>
#include <linux/debugfs.h>
#include <linux/iosys-map.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/sort.h>

#include <drm/drm_atomic.h>
#include <drm/drm_gem_atomic_helper.h>
#include <drm/drm_print.h>
#include <drm/drm_vblank.h>

#include "mmx_drv.h"
#include "pixel_geometry/mmx_simd.h"

static unsigned int compose_workers;
module_param(compose_workers, uint, 0644);
MODULE_PARM_DESC(compose_workers,
		 "CPUs composing one output's frame (0 = every online CPU, default)");

/* Rows per band: 1920 x 32 pixels fit one SIMD section of the compositor. */
#define MMX_BAND_ROWS	32

/**
 * struct mmx_band_helper - a work item composing bands on another CPU
 * @work: queued on system_unbound_wq
 * @bands: the split it helps
 */
struct mmx_band_helper {
	struct work_struct work;
	struct mmx_bands *bands;
};

/**
 * struct mmx_bands - an output's frame split into bands over several CPUs
 * @output: the output
 * @state: the state being composed; the split stops when it is no longer
 *	the composer's
 * @abortable: no writeback job waits for this very frame: stop when the
 *	picture changes
 * @crc_only: the frame is only wanted for CRCs: stop when they are off
 * @space: the blended CRTC space
 * @frame: the output frame
 * @next: the next band to take
 * @count: number of bands
 * @stopped: a band found the composition no longer wanted
 * @num_helpers: number of @helpers
 * @helpers: the work items, @num_helpers of them
 *
 * Owned by the composer; the fields but @helpers describe the current
 * split and are only read by the helpers while it runs.
 */
struct mmx_bands {
	struct mmx_output *output;
	const struct mmx_crtc_state *state;
	bool abortable;
	bool crc_only;
	const struct mmx_frame *space;
	struct mmx_frame *frame;
	atomic_t next;
	u32 count;
	bool stopped;
	unsigned int num_helpers;
	struct mmx_band_helper helpers[];
};

/* Is the frame being composed still wanted? */
static bool mmx_bands_wanted(const struct mmx_bands *bands)
{
	struct mmx_output *output = bands->output;

	if (!bands->abortable)
		return true;
	if (READ_ONCE(output->composer.state) != bands->state)
		return false;
	return !bands->crc_only || READ_ONCE(output->composer.crc_enabled);
}

/* Take bands until none is left or the frame is no longer wanted. */
static void mmx_bands_take(struct mmx_bands *bands)
{
	const struct mmx_crtc_state *state = bands->state;
	u32 band;

	while ((band = (u32)atomic_inc_return(&bands->next) - 1) <
	       bands->count) {
		/*
		 * Between bands, outside any vector-register section: a
		 * kernel without full preemption would otherwise run every
		 * CPU's composer to the end of the frame before the task that
		 * closes the frame's CRC source (or commits) could run.
		 */
		cond_resched();
		if (!mmx_bands_wanted(bands)) {
			WRITE_ONCE(bands->stopped, true);
			return;
		}
		mmx_transform_compose(&state->transform, state->filter,
				      bands->space, state->space.x1,
				      state->space.y1, bands->frame,
				      band * MMX_BAND_ROWS,
				      (band + 1) * MMX_BAND_ROWS);
	}
}

static void mmx_band_helper_work(struct work_struct *work)
{
	mmx_bands_take(container_of(work, struct mmx_band_helper,
				    work)->bands);
}

/* The helpers for the current compose_workers, allocated once. */
static struct mmx_bands *mmx_bands_get(struct mmx_output *output)
{
	unsigned int want = READ_ONCE(compose_workers), i;
	struct mmx_bands *bands = output->composer.bands;

	if (!want || want > num_online_cpus())
		want = num_online_cpus();
	if (bands && bands->num_helpers == want - 1)
		return bands;

	/* idle: the composer is the only one queueing them */
	kfree(bands);
	output->composer.bands = NULL;
	bands = kzalloc(struct_size(bands, helpers, want - 1), GFP_KERNEL);
	if (!bands)
		return NULL;
	bands->output = output;
	bands->num_helpers = want - 1;
	for (i = 0; i < bands->num_helpers; i++) {
		INIT_WORK(&bands->helpers[i].work, mmx_band_helper_work);
		bands->helpers[i].bands = bands;
	}
	output->composer.bands = bands;
	return bands;
}

/*
 * The transform of @state's CRTC space @space into @frame, in bands over
 * the CPUs. Return: 0, or -ECANCELED if the frame stopped being wanted.
 */
static int mmx_compose_bands(struct mmx_output *output,
			     const struct mmx_crtc_state *state,
			     const struct mmx_frame *space,
			     struct mmx_frame *frame, bool abortable,
			     bool crc_only)
{
	struct mmx_bands *bands = mmx_bands_get(output);
	unsigned int i, helpers;

	if (!bands) {
		mmx_transform_compose(&state->transform, state->filter, space,
				      state->space.x1, state->space.y1, frame,
				      0, frame->height);
		return 0;
	}
	bands->state = state;
	bands->abortable = abortable;
	bands->crc_only = crc_only;
	bands->space = space;
	bands->frame = frame;
	bands->count = DIV_ROUND_UP(frame->height, MMX_BAND_ROWS);
	bands->stopped = false;
	atomic_set(&bands->next, 0);

	helpers = min_t(unsigned int, bands->num_helpers, bands->count - 1);
	for (i = 0; i < helpers; i++)
		queue_work(system_unbound_wq, &bands->helpers[i].work);
	mmx_bands_take(bands);
	/*
	 * Every band is taken: wait for the helpers still composing one; a
	 * helper that has not started yet is cancelled.
	 */
	for (i = 0; i < helpers; i++)
		cancel_work_sync(&bands->helpers[i].work);
	return READ_ONCE(bands->stopped) ? -ECANCELED : 0;
}

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

/* Free a buffer of mmx_composer_reserve(). */
static void mmx_composer_free(u32 **buf, size_t *capacity)
{
	kvfree(*buf);
	*buf = NULL;
	*capacity = 0;
}

/*
 * Like mmx_composer_reserve(), for a buffer reserved once per frame: one
 * holding more than twice what the state needs is given back first, so
 * that memory follows the configuration down as well as up.
 */
static int mmx_composer_fit(u32 **buf, size_t *capacity, size_t words)
{
	if (*capacity / 2 > words)
		mmx_composer_free(buf, capacity);
	return mmx_composer_reserve(buf, capacity, words);
}

/* Free the buffers of resampled planes. */
static void mmx_composer_free_planes(struct mmx_output *output)
{
	mmx_composer_free(&output->composer.plane_pixels, &output->composer.plane_size);
	mmx_composer_free(&output->composer.plane_alpha, &output->composer.plane_alpha_size);
	mmx_composer_free(&output->composer.plane_scratch, &output->composer.plane_scratch_size);
}

/* Free every pixel buffer (the band helpers stay: they own no pixels). */
static void mmx_composer_free_pixels(struct mmx_output *output)
{
	mmx_composer_free(&output->composer.frame_pixels, &output->composer.frame_size);
	mmx_composer_free(&output->composer.scratch, &output->composer.scratch_size);
	mmx_composer_free(&output->composer.space_pixels, &output->composer.space_size);
	mmx_composer_free_planes(output);
}

/*
 * Resample the plane of @cl, whose framebuffer mapping is @vaddr, into
 * output->composer.plane_pixels, and point @layer at it.
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
	ret = mmx_composer_reserve(&output->composer.plane_pixels, &output->composer.plane_size,
				   words);
	if (!ret && alpha)
		ret = mmx_composer_reserve(&output->composer.plane_alpha,
					   &output->composer.plane_alpha_size, words);
	if (!ret)
		ret = mmx_composer_reserve(&output->composer.plane_scratch,
					   &output->composer.plane_scratch_size,
					   max_t(size_t, scratch, 1));
	if (ret)
		return ret;

	image.pixels = output->composer.plane_pixels;
	image.width = t->out_w;
	image.height = t->out_h;
	image.stride = t->out_w;
	mmx_resample(t, cl->filter, &src, &image,
		     alpha ? output->composer.plane_alpha : NULL, output->composer.plane_scratch,
		     output->composer.plane_scratch_size);
	layer->pixels = (const u8 *)output->composer.plane_pixels;
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
		mmx_frame_blend(frame, &layer, output->composer.scratch);
	}
}

/*
 * Compose what @state shows into output->composer.frame: the planes blended in CRTC
 * space, then, with a transform, that space resampled into the mode.
 */
static int mmx_compose(struct mmx_output *output,
		       const struct mmx_crtc_state *state, bool writeback,
		       bool crc_only)
{
	const struct drm_display_mode *mode = &state->base.mode;
	u32 space_w = drm_rect_width(&state->space);
	u32 space_h = drm_rect_height(&state->space);
	struct mmx_frame *frame = &output->composer.frame;
	struct mmx_frame space;
	unsigned int i;
	int ret;

	if (mode->hdisplay <= 0 || mode->vdisplay <= 0)
		return -EINVAL;

	ret = mmx_composer_fit(&output->composer.frame_pixels, &output->composer.frame_size,
			       (size_t)mode->hdisplay * mode->vdisplay);
	if (ret)
		return ret;
	ret = mmx_composer_fit(&output->composer.scratch, &output->composer.scratch_size,
			       max_t(u32, mode->hdisplay, space_w));
	if (ret)
		return ret;
	/* Plane buffers grow within a frame: gone when no plane needs one. */
	for (i = 0; i < state->num_layers; i++)
		if (state->layers[i].resampled)
			break;
	if (i == state->num_layers)
		mmx_composer_free_planes(output);

	frame->pixels = output->composer.frame_pixels;
	frame->width = mode->hdisplay;
	frame->height = mode->vdisplay;
	frame->stride = mode->hdisplay;

	if (!state->transformed) {
		mmx_composer_free(&output->composer.space_pixels, &output->composer.space_size);
		mmx_compose_layers(output, state, frame);
		return 0;
	}

	ret = mmx_composer_fit(&output->composer.space_pixels, &output->composer.space_size,
			       (size_t)space_w * space_h);
	if (ret)
		return ret;
	space.pixels = output->composer.space_pixels;
	space.width = space_w;
	space.height = space_h;
	space.stride = space_w;
	mmx_compose_layers(output, state, &space);
	return mmx_compose_bands(output, state, &space, frame, !writeback,
				 crc_only);
}

/* Account one composed frame that took @ns and ended at @end_ns. */
static void mmx_compose_stats_add(struct mmx_output *output, u64 ns,
				  u64 end_ns)
{
	struct mmx_compose_stats *st = &output->composer.stats;

	spin_lock_irq(&output->lock);
	st->us[st->head] = (u32)min_t(u64, div_u64(ns, 1000), U32_MAX);
	st->end_ns[st->head] = end_ns;
	st->head = (st->head + 1) % MMX_COMPOSE_SAMPLES;
	if (st->samples < MMX_COMPOSE_SAMPLES)
		st->samples++;
	st->frames++;
	spin_unlock_irq(&output->lock);
}

static int mmx_cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return x < y ? -1 : x > y;
}

static int mmx_compose_stats_show(struct seq_file *m, void *data)
{
	struct mmx_output *output = m->private;
	struct mmx_compose_stats *st = &output->composer.stats;
	u64 frames, abandoned, sum = 0, first_ns, last_ns, span;
	u32 *us, n, i, oldest, last;

	us = kmalloc_array(MMX_COMPOSE_SAMPLES, sizeof(*us), GFP_KERNEL);
	if (!us)
		return -ENOMEM;
	spin_lock_irq(&output->lock);
	n = st->samples;
	frames = st->frames;
	abandoned = st->abandoned;
	oldest = (st->head + MMX_COMPOSE_SAMPLES - n) % MMX_COMPOSE_SAMPLES;
	first_ns = st->end_ns[oldest];
	last_ns = st->end_ns[(st->head + MMX_COMPOSE_SAMPLES - 1) %
			     MMX_COMPOSE_SAMPLES];
	last = st->us[(st->head + MMX_COMPOSE_SAMPLES - 1) %
		      MMX_COMPOSE_SAMPLES];
	memcpy(us, st->us, sizeof(st->us));
	spin_unlock_irq(&output->lock);

	seq_printf(m, "simd: %s\n", mmx_simd->name);
	seq_printf(m, "frames: %llu\n", frames);
	seq_printf(m, "abandoned: %llu\n", abandoned);
	seq_printf(m, "samples: %u\n", n);
	if (n) {
		for (i = 0; i < n; i++)
			sum += us[(oldest + i) % MMX_COMPOSE_SAMPLES];
		/* the last n entries of the ring, in any order */
		if (n < MMX_COMPOSE_SAMPLES)
			memmove(us, us + oldest, n * sizeof(*us));
		sort(us, n, sizeof(*us), mmx_cmp_u32, NULL);
		span = last_ns - first_ns;
		seq_printf(m, "mean_us: %llu\n", div_u64(sum, n));
		seq_printf(m, "p99_us: %u\n", us[(n * 99) / 100 < n ?
						   (n * 99) / 100 : n - 1]);
		seq_printf(m, "max_us: %u\n", us[n - 1]);
		seq_printf(m, "last_us: %u\n", last);
		/* frames composed per second over the samples */
		seq_printf(m, "fps_milli: %llu\n",
			   n > 1 && span ? div64_u64((u64)(n - 1) *
						     NSEC_PER_SEC * 1000, span) :
			   0);
	}
	kfree(us);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_compose_stats);

/**
 * mmx_composer_debugfs_init - add the composer's debugfs file of a CRTC
 * @output: the output, its CRTC registered
 *
 * ``crtc-N/mmx_compose``: the composer's time per frame over the last
 * %MMX_COMPOSE_SAMPLES frames (mean, 99th percentile, maximum, the last
 * one's), the frames composed per second over them, the compositions
 * abandoned half-way and the SIMD implementation in use.
 */
void mmx_composer_debugfs_init(struct mmx_output *output)
{
	debugfs_create_file("mmx_compose", 0444, output->crtc.debugfs_entry,
			    output, &mmx_compose_stats_fops);
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
	state = output->composer.state;
	/*
	 * CRCs owed for a picture replaced since they began (a commit shown
	 * at once, within the frame they are owed for) are dropped: this
	 * composition shows the new picture, which is on screen from the
	 * next vblank only.
	 */
	crc = output->composer.crc_pending &&
	      output->composer.crc_state == state;
	frame_start = output->composer.crc_frame_start;
	frame_end = output->composer.crc_frame_end;
	output->composer.crc_pending = false;
	/* Taken with the state: the damage belongs to this picture. */
	host = mmx_damage_take(output, &damage);
	spin_unlock_irq(&output->lock);

	writeback = mmx_writeback_pending(output);
	if (!crc && !writeback && !host) {
		/*
		 * Nobody observes the output (no CRC, no writeback; a backend
		 * that presents frames observes it while the CRTC is on).
		 */
		if (!(backend && backend->present) &&
		    !READ_ONCE(output->composer.crc_enabled))
			mmx_composer_free_pixels(output);
		return;
	}

	if (state && state->base.active) {
		u64 t0 = ktime_get_ns(), t1;

		ret = mmx_compose(output, state, writeback,
				  crc && !writeback && !host);
		t1 = ktime_get_ns();
		if (!ret)
			mmx_compose_stats_add(output, t1 - t0, t1);
	}
	if (ret == -ECANCELED) {
		/*
		 * Not wanted any more: the picture changed (the next frame
		 * shows the new one, with this one's damage) or the CRCs it
		 * was for were turned off (never with a writeback job).
		 */
		drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] composition abandoned\n",
			    crtc->base.id, crtc->name);
		spin_lock_irq(&output->lock);
		output->composer.stats.abandoned++;
		if (host)
			mmx_damage_merge(output, &damage);
		spin_unlock_irq(&output->lock);
		if (host)
			backend->present(output, NULL, &damage);
		return;
	}
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
		backend->present(output, &output->composer.frame, &damage);

	if (writeback)
		mmx_writeback_complete(output, &output->composer.frame);

	if (!crc)
		return;
	crc32 = crc32_le(0, (const u8 *)output->composer.frame.pixels,
			 (size_t)output->composer.frame.width * output->composer.frame.height * 4);
	/* If the composer fell behind, every missed frame showed this one. */
	while (frame_start <= frame_end)
		drm_crtc_add_crc_entry(crtc, true, frame_start++, &crc32);
}

/**
 * mmx_composer_work - work item composing an output's frame
 * @work: &mmx_output.composer.work
 */
void mmx_composer_work(struct work_struct *work)
{
	mmx_composer_run(container_of(work, struct mmx_output, composer.work));
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
	/*
	 * A picture shown after this vblank came (its first is a later one,
	 * or not known yet) is not this frame's: it owes no CRC.
	 */
	if (output->composer.crc_enabled &&
	    output->composer.state_from <= frame) {
		/*
		 * Frames owed from before the picture changed are dropped: the
		 * composer would show them the new one.
		 */
		if (!output->composer.crc_pending ||
		    output->composer.crc_state != output->composer.state)
			output->composer.crc_frame_start = frame;
		output->composer.crc_state = output->composer.state;
		output->composer.crc_frame_end = frame;
		output->composer.crc_pending = true;
	}
	compose = output->composer.crc_enabled || mmx_damage_frame_due(output);
	/*
	 * Memory nobody observed for a while (a writeback client captures
	 * every few frames): the composer, run with nothing to do, gives it
	 * back.
	 */
	if (compose || mmx_writeback_pending(output))
		output->composer.idle = 0;
	else if (READ_ONCE(output->composer.frame_size) &&
		 !(mmx->backend && mmx->backend->present) &&
		 ++output->composer.idle == MMX_COMPOSER_IDLE_FRAMES)
		compose = true;
	spin_unlock(&output->lock);

	if (compose || mmx_writeback_pending(output))
		queue_work(mmx->composer_wq, &output->composer.work);
}

/**
 * mmx_composer_drain - finish every queued writeback job now
 * @output: the output, whose vblank timer is stopped
 *
 * Called when the CRTC is disabled, so that no writeback job waits forever.
 */
void mmx_composer_drain(struct mmx_output *output)
{
	flush_work(&output->composer.work);
	while (mmx_writeback_pending(output))
		mmx_composer_run(output);
}

/**
 * mmx_composer_trim - free the pixel buffers of a CRTC turned off
 * @output: the output, whose composer no longer runs for it (drained)
 */
void mmx_composer_trim(struct mmx_output *output)
{
	mmx_composer_free_pixels(output);
}

/**
 * mmx_composer_memory - the memory of an output's composer buffers
 * @output: the output
 * @bytes: incremented by the bytes its buffers hold
 * @buffers: incremented by their number
 *
 * For statistics: read without the composer's serialization, so a value
 * may be one frame old.
 */
void mmx_composer_memory(struct mmx_output *output, u64 *bytes,
			 unsigned int *buffers)
{
	const size_t sizes[] = {
		READ_ONCE(output->composer.frame_size), READ_ONCE(output->composer.scratch_size),
		READ_ONCE(output->composer.space_size), READ_ONCE(output->composer.plane_size),
		READ_ONCE(output->composer.plane_alpha_size),
		READ_ONCE(output->composer.plane_scratch_size),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		*bytes += (u64)sizes[i] * sizeof(u32);
		*buffers += sizes[i] != 0;
	}
}

/**
 * mmx_composer_release - free the composer's memory
 * @output: the output, whose composer no longer runs
 */
void mmx_composer_release(struct mmx_output *output)
{
	mmx_composer_free_pixels(output);
	/* The helpers are idle: they only run while the composer waits. */
	kfree(output->composer.bands);
	output->composer.bands = NULL;
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

	if (enabled && !output->composer.crc_vblank_ref)
		output->composer.crc_vblank_ref = drm_crtc_vblank_get(crtc) == 0;

	spin_lock_irq(&output->lock);
	output->composer.crc_enabled = enabled;
	if (!enabled)
		output->composer.crc_pending = false;
	spin_unlock_irq(&output->lock);

	if (!enabled) {
		flush_work(&output->composer.work);
		if (output->composer.crc_vblank_ref)
			drm_crtc_vblank_put(crtc);
		output->composer.crc_vblank_ref = false;
	}
	return 0;
}
