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
#include <drm/drm_managed.h>
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

#define MMX_COMPOSE_SAMPLES	600
/*
 * MMX_COMPOSER_IDLE_FRAMES: vblanks without CRC, writeback or a presenting
 * backend after which the composer frees its buffers
 */
#define MMX_COMPOSER_IDLE_FRAMES	30

/**
 * struct mmx_buf - a buffer kept from one frame to the next, grown on
 * demand
 * @ptr: the memory (kvmalloc()), NULL when none is held
 * @size: its size in bytes, 0 when none is held; read without the
 *	composer's serialization for statistics
 */
struct mmx_buf {
	void *ptr;
	size_t size;
};

/**
 * struct mmx_compose_stats - the composer's time for the last frames
 * @us: how long each frame took to compose, microseconds, a ring of the
 *	last %MMX_COMPOSE_SAMPLES frames
 * @end_ns: when each finished (CLOCK_MONOTONIC)
 * @head: next entry to write
 * @samples: valid entries
 * @frames: frames composed since the CRTC was created
 * @abandoned: compositions stopped half-way because the frame was no
 *	longer wanted (the picture changed, or its CRC source was closed)
 *
 * Shown in debugfs ``crtc-N/mmx_compose``.
 */
struct mmx_compose_stats {
	u32 us[MMX_COMPOSE_SAMPLES];
	u64 end_ns[MMX_COMPOSE_SAMPLES];
	u32 head;
	u32 samples;
	u64 frames;
	u64 abandoned;
};

/**
 * struct mmx_composer - an output's composer: what it shows, the CRCs it
 * owes, its buffers
 * @output: the output it composes for
 * @work: composes a frame; runs on &mmx_device.composer_wq
 * @state: the CRTC state the composer shows, switched when a state is
 *	latched (mmx_composer_show())
 * @state_from: the first vblank that shows @state (U64_MAX until known)
 * @crc_enabled: a CRC source is set
 * @crc_vblank_ref: the CRC source holds a vblank reference
 * @crc_pending: CRCs for @crc_frame_start..@crc_frame_end are owed
 * @crc_state: @state when @crc_frame_start began; compared only, never
 *	dereferenced
 * @crc_frame_start: first vblank whose CRC is owed
 * @crc_frame_end: last vblank whose CRC is owed
 * @frame: the composed frame; its pixels live in @frame_pixels
 * @frame_pixels: frame memory
 * @scratch: one row of scratch pixels
 * @space_pixels: the composed CRTC space before the transform
 * @plane_pixels: a resampled plane's image
 * @plane_alpha: a resampled plane's alpha pass
 * @plane_scratch: the source pixels of a band of a resampled plane
 * @bands: the helpers that compose bands of the frame on other CPUs
 * @idle: vblanks since the composer last had somebody to compose for
 *	(vblank handler only)
 * @stats: the composer's time per frame
 *
 * @state, the CRC members and @stats are protected by &mmx_output.lock;
 * the frame, the buffers and @bands belong to the work item (and to the
 * callers of mmx_composer_drain(), mmx_composer_trim() and
 * mmx_composer_release(), when it does not run).
 */
struct mmx_composer {
	struct mmx_output *output;
	struct work_struct work;
	struct mmx_crtc_state *state;
	u64 state_from;
	bool crc_enabled;
	bool crc_vblank_ref;
	bool crc_pending;
	const struct mmx_crtc_state *crc_state;
	u64 crc_frame_start;
	u64 crc_frame_end;

	struct mmx_frame frame;
	struct mmx_buf frame_pixels;
	struct mmx_buf scratch;
	struct mmx_buf space_pixels;
	struct mmx_buf plane_pixels;
	struct mmx_buf plane_alpha;
	struct mmx_buf plane_scratch;
	struct mmx_bands *bands;
	unsigned int idle;
	struct mmx_compose_stats stats;
};

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
 * @composer: the composer
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
	struct mmx_composer *composer;
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

/*
 * Make @buf hold at least @size bytes: it is kept when big enough, else
 * replaced (its contents are not kept). Return: 0, or -ENOMEM with @buf
 * unchanged.
 */
static int mmx_buf_grow(struct mmx_buf *buf, size_t size, gfp_t gfp)
{
	void *grown;

	if (size <= buf->size)
		return 0;
	grown = kvmalloc(size, gfp);
	if (!grown)
		return -ENOMEM;
	kvfree(buf->ptr);
	buf->ptr = grown;
	WRITE_ONCE(buf->size, size);
	return 0;
}

/* Free the memory of @buf, which then holds none. */
static void mmx_buf_release(struct mmx_buf *buf)
{
	kvfree(buf->ptr);
	buf->ptr = NULL;
	WRITE_ONCE(buf->size, 0);
}

/* Make @buf hold at least @words pixels. */
static int mmx_buf_grow_words(struct mmx_buf *buf, size_t words)
{
	return mmx_buf_grow(buf, array_size(words, sizeof(u32)), GFP_KERNEL);
}

/*
 * Like mmx_buf_grow_words(), for a buffer sized once per frame: one holding
 * more than twice what the state needs is given back first, so that memory
 * follows the configuration down as well as up.
 */
static int mmx_buf_fit_words(struct mmx_buf *buf, size_t words)
{
	size_t size = array_size(words, sizeof(u32));

	if (buf->size / 2 > size)
		mmx_buf_release(buf);
	return mmx_buf_grow(buf, size, GFP_KERNEL);
}

/* Is the frame being composed still wanted? */
static bool mmx_bands_wanted(const struct mmx_bands *bands)
{
	const struct mmx_composer *c = bands->composer;

	if (!bands->abortable)
		return true;
	if (READ_ONCE(c->state) != bands->state)
		return false;
	return !bands->crc_only || READ_ONCE(c->crc_enabled);
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
static struct mmx_bands *mmx_bands_get(struct mmx_composer *c)
{
	unsigned int want = READ_ONCE(compose_workers), i;
	struct mmx_bands *bands = c->bands;

	if (!want || want > num_online_cpus())
		want = num_online_cpus();
	if (bands && bands->num_helpers == want - 1)
		return bands;

	/* idle: the composer is the only one queueing them */
	kfree(bands);
	c->bands = NULL;
	bands = kzalloc(struct_size(bands, helpers, want - 1), GFP_KERNEL);
	if (!bands)
		return NULL;
	bands->composer = c;
	bands->num_helpers = want - 1;
	for (i = 0; i < bands->num_helpers; i++) {
		INIT_WORK(&bands->helpers[i].work, mmx_band_helper_work);
		bands->helpers[i].bands = bands;
	}
	c->bands = bands;
	return bands;
}

/*
 * The transform of @state's CRTC space @space into @frame, in bands over
 * the CPUs. Return: 0, or -ECANCELED if the frame stopped being wanted.
 */
static int mmx_compose_bands(struct mmx_composer *c,
			     const struct mmx_crtc_state *state,
			     const struct mmx_frame *space,
			     struct mmx_frame *frame, bool abortable,
			     bool crc_only)
{
	struct mmx_bands *bands = mmx_bands_get(c);
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

/* Free the buffers of resampled planes. */
static void mmx_composer_free_planes(struct mmx_composer *c)
{
	mmx_buf_release(&c->plane_pixels);
	mmx_buf_release(&c->plane_alpha);
	mmx_buf_release(&c->plane_scratch);
}

/* Free every pixel buffer (the band helpers stay: they own no pixels). */
static void mmx_composer_free_pixels(struct mmx_composer *c)
{
	mmx_buf_release(&c->frame_pixels);
	mmx_buf_release(&c->scratch);
	mmx_buf_release(&c->space_pixels);
	mmx_composer_free_planes(c);
}

/*
 * Resample the plane of @cl, whose framebuffer mapping is @vaddr (and
 * those of its other planes, for a YUV format), into the composer's
 * plane_pixels, and point @layer at it.
 * Return: 0, or -ENOMEM (the plane is then not shown).
 */
static int mmx_compose_resampled(struct mmx_composer *c,
				 const struct mmx_crtc_layer *cl,
				 const void *vaddr, struct mmx_layer *layer)
{
	const struct mmx_transform *t = &cl->transform;
	const struct drm_shadow_plane_state *shadow =
		to_drm_shadow_plane_state(cl->plane_state);
	struct mmx_resample_src src = cl->src;
	size_t words = (size_t)t->out_w * t->out_h;
	bool alpha = cl->filter == MMX_FILTER_BILINEAR &&
		     mmx_format_has_alpha(src.format);
	struct mmx_frame image;
	unsigned int i;
	size_t scratch;
	int ret;

	src.pixels = vaddr;
	if (mmx_format_is_yuv(src.format))
		for (i = 0; i < MMX_YUV_PLANES; i++)
			src.yuv.planes[i] = shadow->data[i].vaddr;
	scratch = mmx_resample_scratch_words(t, &src);
	ret = mmx_buf_grow_words(&c->plane_pixels, words);
	if (!ret && alpha)
		ret = mmx_buf_grow_words(&c->plane_alpha, words);
	if (!ret)
		ret = mmx_buf_grow_words(&c->plane_scratch,
					 max_t(size_t, scratch, 1));
	if (ret)
		return ret;

	image.pixels = c->plane_pixels.ptr;
	image.width = t->out_w;
	image.height = t->out_h;
	image.stride = t->out_w;
	mmx_resample(t, cl->filter, &src, &image,
		     alpha ? c->plane_alpha.ptr : NULL, c->plane_scratch.ptr,
		     c->plane_scratch.size / sizeof(u32));
	layer->pixels = c->plane_pixels.ptr;
	return 0;
}

/* Blend the layers of @state into @frame, which covers the CRTC space. */
static void mmx_compose_layers(struct mmx_composer *c,
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
		else if (mmx_compose_resampled(c, cl, vaddr, &layer))
			continue;
		mmx_frame_blend(frame, &layer, c->scratch.ptr);
	}
}

/* Does a plane of @state need the buffers of resampled planes? */
static bool mmx_compose_resamples(const struct mmx_crtc_state *state)
{
	unsigned int i;

	for (i = 0; i < state->num_layers; i++)
		if (state->layers[i].resampled)
			return true;
	return false;
}

/*
 * Size the frame buffer for @mode and the row buffer for @row_words
 * pixels, and point the composer's frame at its buffer.
 */
static int mmx_compose_frame_get(struct mmx_composer *c,
				 const struct drm_display_mode *mode,
				 u32 row_words)
{
	struct mmx_frame *frame = &c->frame;
	int ret;

	ret = mmx_buf_fit_words(&c->frame_pixels,
				(size_t)mode->hdisplay * mode->vdisplay);
	if (ret)
		return ret;
	ret = mmx_buf_fit_words(&c->scratch, row_words);
	if (ret)
		return ret;

	frame->pixels = c->frame_pixels.ptr;
	frame->width = mode->hdisplay;
	frame->height = mode->vdisplay;
	frame->stride = mode->hdisplay;
	return 0;
}

/*
 * Compose what @state shows into the composer's frame: the planes blended
 * in CRTC space, then, with a transform, that space resampled into the
 * mode.
 */
static int mmx_compose(struct mmx_composer *c,
		       const struct mmx_crtc_state *state, bool writeback,
		       bool crc_only)
{
	const struct drm_display_mode *mode = &state->base.mode;
	u32 space_w = drm_rect_width(&state->space);
	u32 space_h = drm_rect_height(&state->space);
	struct mmx_frame space;
	int ret;

	if (mode->hdisplay <= 0 || mode->vdisplay <= 0)
		return -EINVAL;

	ret = mmx_compose_frame_get(c, mode,
				    max_t(u32, mode->hdisplay, space_w));
	if (ret)
		return ret;
	/* Plane buffers grow within a frame: gone when no plane needs one. */
	if (!mmx_compose_resamples(state))
		mmx_composer_free_planes(c);

	if (!state->transformed) {
		mmx_buf_release(&c->space_pixels);
		mmx_compose_layers(c, state, &c->frame);
		return 0;
	}

	ret = mmx_buf_fit_words(&c->space_pixels, (size_t)space_w * space_h);
	if (ret)
		return ret;
	space.pixels = c->space_pixels.ptr;
	space.width = space_w;
	space.height = space_h;
	space.stride = space_w;
	mmx_compose_layers(c, state, &space);
	return mmx_compose_bands(c, state, &space, &c->frame, !writeback,
				 crc_only);
}

/* Account one composed frame that took @ns and ended at @end_ns. */
static void mmx_compose_stats_add(struct mmx_output *output, u64 ns,
				  u64 end_ns)
{
	struct mmx_compose_stats *st = &output->composer->stats;

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
	struct mmx_compose_stats *st = &output->composer->stats;
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

/**
 * struct mmx_compose_job - what one run of the composer owes, and to whom
 * @state: the state to compose, NULL when none was latched
 * @crc: CRCs are owed for @frame_start..@frame_end
 * @frame_start: first vblank whose CRC is owed
 * @frame_end: last vblank whose CRC is owed
 * @host: the backend presents the frame: it is owed @damage
 * @damage: what changed since the last frame the backend was given
 * @writeback: a writeback job waits for the frame
 */
struct mmx_compose_job {
	struct mmx_crtc_state *state;
	bool crc;
	u64 frame_start;
	u64 frame_end;
	bool host;
	struct mmx_damage damage;
	bool writeback;
};

/* Take the state to compose and what is owed for it. */
static void mmx_composer_take(struct mmx_output *output,
			      struct mmx_compose_job *job)
{
	struct mmx_composer *c = output->composer;

	spin_lock_irq(&output->lock);
	job->state = c->state;
	/*
	 * CRCs owed for a picture replaced since they began (a commit shown
	 * at once, within the frame they are owed for) are dropped: this
	 * composition shows the new picture, which is on screen from the
	 * next vblank only.
	 */
	job->crc = c->crc_pending && c->crc_state == job->state;
	job->frame_start = c->crc_frame_start;
	job->frame_end = c->crc_frame_end;
	c->crc_pending = false;
	/* Taken with the state: the damage belongs to this picture. */
	job->host = mmx_damage_take(output, &job->damage);
	spin_unlock_irq(&output->lock);

	job->writeback = mmx_writeback_pending(output);
}

/*
 * Compose @job's frame, and account its time.
 * Return: 0, -ECANCELED if the frame stopped being wanted, or another
 * negative errno if nothing could be composed.
 */
static int mmx_compose_timed(struct mmx_output *output,
			     const struct mmx_compose_job *job)
{
	u64 t0, t1;
	int ret;

	if (!job->state || !job->state->base.active)
		return -EINVAL;

	t0 = ktime_get_ns();
	ret = mmx_compose(output->composer, job->state, job->writeback,
			  job->crc && !job->writeback && !job->host);
	t1 = ktime_get_ns();
	if (!ret)
		mmx_compose_stats_add(output, t1 - t0, t1);
	return ret;
}

/*
 * The frame is not wanted any more: the picture changed (the next frame
 * shows the new one, with this one's damage) or the CRCs it was for were
 * turned off (never with a writeback job).
 */
static void mmx_composer_abandon(struct mmx_output *output,
				 struct mmx_compose_job *job)
{
	struct drm_crtc *crtc = &output->crtc;

	drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] composition abandoned\n",
		    crtc->base.id, crtc->name);
	spin_lock_irq(&output->lock);
	output->composer->stats.abandoned++;
	if (job->host)
		mmx_damage_merge(output, &job->damage);
	spin_unlock_irq(&output->lock);
	if (job->host)
		to_mmx_device(crtc->dev)->backend->present(output, NULL,
							   &job->damage);
}

/* Nothing could be composed: end the frame for whoever waits for it. */
static void mmx_composer_fail(struct mmx_output *output,
			      const struct mmx_compose_job *job, int err)
{
	struct drm_crtc *crtc = &output->crtc;

	drm_dbg_kms(crtc->dev, "[CRTC:%d:%s] nothing composed: %d\n",
		    crtc->base.id, crtc->name, err);
	if (job->host)
		to_mmx_device(crtc->dev)->backend->present(output, NULL,
							   &job->damage);
	if (job->writeback)
		mmx_writeback_complete(output, NULL);
}

/* Give the composed frame to the backend, the writeback job and the CRCs. */
static void mmx_composer_deliver(struct mmx_output *output,
				 const struct mmx_compose_job *job)
{
	const struct mmx_frame *frame = &output->composer->frame;
	struct drm_crtc *crtc = &output->crtc;
	u64 seq = job->frame_start;
	u32 crc32;

	if (job->host)
		to_mmx_device(crtc->dev)->backend->present(output, frame,
							   &job->damage);
	if (job->writeback)
		mmx_writeback_complete(output, frame);

	if (!job->crc)
		return;
	crc32 = crc32_le(0, (const u8 *)frame->pixels,
			 (size_t)frame->width * frame->height * 4);
	/* If the composer fell behind, every missed frame showed this one. */
	while (seq <= job->frame_end)
		drm_crtc_add_crc_entry(crtc, true, seq++, &crc32);
}

/* Compose one frame if somebody is waiting for one. */
static void mmx_composer_run(struct mmx_output *output)
{
	const struct mmx_backend_funcs *backend =
		to_mmx_device(output->crtc.dev)->backend;
	struct mmx_compose_job job;
	int ret;

	mmx_composer_take(output, &job);
	if (!job.crc && !job.writeback && !job.host) {
		/*
		 * Nobody observes the output (no CRC, no writeback; a backend
		 * that presents frames observes it while the CRTC is on).
		 */
		if (!(backend && backend->present) &&
		    !READ_ONCE(output->composer->crc_enabled))
			mmx_composer_free_pixels(output->composer);
		return;
	}

	ret = mmx_compose_timed(output, &job);
	if (ret == -ECANCELED)
		mmx_composer_abandon(output, &job);
	else if (ret)
		mmx_composer_fail(output, &job, ret);
	else
		mmx_composer_deliver(output, &job);
}

static void mmx_composer_work(struct work_struct *work)
{
	struct mmx_composer *c = container_of(work, struct mmx_composer, work);

	mmx_composer_run(c->output);
}

/**
 * mmx_composer_init - create the composer of an output
 * @output: the output, its CRTC initialized
 *
 * The composer's memory is the DRM device's (drmm_kzalloc()); its buffers
 * are freed by mmx_composer_release().
 *
 * Return: 0 or -ENOMEM.
 */
int mmx_composer_init(struct mmx_output *output)
{
	struct mmx_composer *c;

	c = drmm_kzalloc(output->crtc.dev, sizeof(*c), GFP_KERNEL);
	if (!c)
		return -ENOMEM;
	c->output = output;
	INIT_WORK(&c->work, mmx_composer_work);
	output->composer = c;
	return 0;
}

/**
 * mmx_composer_show - switch the composer to a latched state
 * @output: the output, whose &mmx_output.lock is held
 * @state: the state the composer shows from now on
 * @from: the first vblank that shows @state: 0 when it is on screen
 *	already, U64_MAX until known (see mmx_composer_shown_from())
 */
void mmx_composer_show(struct mmx_output *output,
		       struct mmx_crtc_state *state, u64 from)
{
	lockdep_assert_held(&output->lock);
	output->composer->state = state;
	output->composer->state_from = from;
}

/**
 * mmx_composer_shown_from - say from which vblank the composer's state is
 * on screen
 * @output: the output, whose &mmx_output.lock is held
 * @from: the first vblank that shows the state
 */
void mmx_composer_shown_from(struct mmx_output *output, u64 from)
{
	lockdep_assert_held(&output->lock);
	output->composer->state_from = from;
}

/**
 * mmx_composer_flush - wait for a composition in progress to end
 * @output: the output
 *
 * After it, the composer no longer reads a state it was given before.
 */
void mmx_composer_flush(struct mmx_output *output)
{
	flush_work(&output->composer->work);
}

/*
 * At a vblank @frame, under &mmx_output.lock: the picture on screen owes
 * the CRC of @frame (a picture shown after this vblank came, its first
 * vblank a later one or not known yet, owes none).
 */
static void mmx_composer_owe_crc(struct mmx_composer *c, u64 frame)
{
	if (!c->crc_enabled || c->state_from > frame)
		return;
	/*
	 * Frames owed from before the picture changed are dropped: the
	 * composer would show them the new one.
	 */
	if (!c->crc_pending || c->crc_state != c->state)
		c->crc_frame_start = frame;
	c->crc_state = c->state;
	c->crc_frame_end = frame;
	c->crc_pending = true;
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
	struct mmx_composer *c = output->composer;
	bool compose;

	spin_lock(&output->lock);
	mmx_composer_owe_crc(c, frame);
	compose = c->crc_enabled || mmx_damage_frame_due(output);
	/*
	 * Memory nobody observed for a while (a writeback client captures
	 * every few frames): the composer, run with nothing to do, gives it
	 * back.
	 */
	if (compose || mmx_writeback_pending(output))
		c->idle = 0;
	else if (READ_ONCE(c->frame_pixels.size) &&
		 !(mmx->backend && mmx->backend->present) &&
		 ++c->idle == MMX_COMPOSER_IDLE_FRAMES)
		compose = true;
	spin_unlock(&output->lock);

	if (compose || mmx_writeback_pending(output))
		queue_work(mmx->composer_wq, &c->work);
}

/**
 * mmx_composer_drain - finish every queued writeback job now
 * @output: the output, whose vblank timer is stopped
 *
 * Called when the CRTC is disabled, so that no writeback job waits forever.
 */
void mmx_composer_drain(struct mmx_output *output)
{
	flush_work(&output->composer->work);
	while (mmx_writeback_pending(output))
		mmx_composer_run(output);
}

/**
 * mmx_composer_trim - free the pixel buffers of a CRTC turned off
 * @output: the output, whose composer no longer runs for it (drained)
 */
void mmx_composer_trim(struct mmx_output *output)
{
	mmx_composer_free_pixels(output->composer);
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
	const struct mmx_composer *c = output->composer;
	const size_t sizes[] = {
		READ_ONCE(c->frame_pixels.size), READ_ONCE(c->scratch.size),
		READ_ONCE(c->space_pixels.size), READ_ONCE(c->plane_pixels.size),
		READ_ONCE(c->plane_alpha.size), READ_ONCE(c->plane_scratch.size),
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(sizes); i++) {
		*bytes += sizes[i];
		*buffers += sizes[i] != 0;
	}
}

/**
 * mmx_composer_release - stop the composer and free its buffers
 * @output: the output, whose vblank timer no longer runs (nothing queues
 *	the composer any more)
 */
void mmx_composer_release(struct mmx_output *output)
{
	struct mmx_composer *c = output->composer;

	cancel_work_sync(&c->work);
	mmx_composer_free_pixels(c);
	/* The helpers are idle: they only run while the composer waits. */
	kfree(c->bands);
	c->bands = NULL;
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
	struct mmx_composer *c = output->composer;
	bool enabled;
	int ret;

	ret = mmx_crc_parse_source(source, &enabled);
	if (ret)
		return ret;

	if (enabled && !c->crc_vblank_ref)
		c->crc_vblank_ref = drm_crtc_vblank_get(crtc) == 0;

	spin_lock_irq(&output->lock);
	c->crc_enabled = enabled;
	if (!enabled)
		c->crc_pending = false;
	spin_unlock_irq(&output->lock);

	if (!enabled) {
		flush_work(&c->work);
		if (c->crc_vblank_ref)
			drm_crtc_vblank_put(crtc);
		c->crc_vblank_ref = false;
	}
	return 0;
}
