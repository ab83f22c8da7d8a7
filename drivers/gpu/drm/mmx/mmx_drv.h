/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The KMS core's private header: the device, its outputs and their
 * concerns' small structs, the driver-specific states, and the functions
 * the core's files (and, where exported, the backends) share.
 */

#ifndef _MMX_DRV_H_
#define _MMX_DRV_H_

#include <linux/hrtimer.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include <drm/drm_connector.h>
#include <drm/drm_crtc.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_plane.h>
#include <drm/drm_rect.h>
#include <drm/drm_writeback.h>

#include <drm/mmx_drm.h>

#include "pixel_geometry/mmx_blend.h"
#include "mmx_compat.h"
#include "mmx_edid.h"
#include "mmx_randr_props.h"
#include "pixel_geometry/mmx_resample.h"
#include "mmx_sink.h"
#include "pixel_geometry/mmx_transform.h"

#define MMX_DRIVER_NAME		"mmx"
#define MMX_DRIVER_DESC		"Multimedia extensions virtual KMS driver"
#define MMX_DRIVER_DATE		"20261203"
#define MMX_DRIVER_MAJOR	1
#define MMX_DRIVER_MINOR	0

#define MMX_MAX_OUTPUTS		8
#define MMX_FB_MAX		MMX_FB_MAX_SIZE
#define MMX_CURSOR_MAX		MMX_CURSOR_MAX_SIZE
/* Mode limits (see mmx_mode_valid()). */
#define MMX_MODE_MAX		8192
#define MMX_CLOCK_MIN_KHZ	1000
#define MMX_CLOCK_MAX_KHZ	1200000

/**
 * enum mmx_clone_group - which outputs may share a CRTC
 * @MMX_CLONE_NONE: clones nothing (panels)
 * @MMX_CLONE_ANALOG: analog outputs: VGA, DVI-A and the TV kinds
 * @MMX_CLONE_DIGITAL: digital outputs: DVI-I, DVI-D, HDMI, DisplayPort
 */
enum mmx_clone_group {
	MMX_CLONE_NONE,
	MMX_CLONE_ANALOG,
	MMX_CLONE_DIGITAL,
};

/**
 * struct mmx_output_desc - static description of an output kind
 * @name: name used by the ``connectors`` module parameter
 * @connector_type: DRM_MODE_CONNECTOR_*
 * @encoder_type: DRM_MODE_ENCODER_*
 * @default_sink: the sink plugged at load (&enum mmx_sink_id)
 * @clone_group: outputs of the same group may share a CRTC
 * @hpd: the connector has hotplug detection; without it, it is polled
 */
struct mmx_output_desc {
	const char *name;
	int connector_type;
	int encoder_type;
	enum mmx_sink_id default_sink;
	enum mmx_clone_group clone_group;
	bool hpd;
};

/**
 * struct mmx_connector_state - driver-specific connector state
 * @base: base connector state
 * @signal_format: the SignalFormat property
 * @signal_props: the SignalProperties property (a set of &enum mmx_sigprop
 *	bits), the format's default after a commit that sets the format only
 * @signal_props_set: SignalProperties was set in this commit
 */
struct mmx_connector_state {
	struct drm_connector_state base;
	enum mmx_signal_format signal_format;
	u64 signal_props;
	bool signal_props_set;
};

#define to_mmx_connector_state(s) \
	container_of(s, struct mmx_connector_state, base)

/**
 * struct mmx_crtc_layer - a visible plane as the composer will blend it
 * @layer: geometry, format and blending, decoded in atomic_check; its
 *	pixel address is filled in by the composer
 * @plane_state: the plane state whose mapping holds the pixels
 * @offset: byte offset of the first shown pixel from the start of the
 *	framebuffer's first plane (fb->offsets[0] included in the mapping)
 * @resampled: the plane is scaled, rotated, reflected or at a fractional
 *	source position: the composer resamples it with @transform into an
 *	image of @layer's size (ARGB8888, or XRGB8888 for @src's formats
 *	without alpha), which it blends as @layer
 * @filter: the plane's SCALING_FILTER, decoded
 * @transform: from @layer's pixels to framebuffer points
 *	(mmx_resample_prepare())
 * @src: the pixels @transform reads; its address is relative to the
 *	mapping of the framebuffer's first plane (filled in by the composer)
 */
struct mmx_crtc_layer {
	struct mmx_layer layer;
	struct drm_plane_state *plane_state;
	size_t offset;
	bool resampled;
	enum mmx_filter filter;
	struct mmx_transform transform;
	struct mmx_resample_src src;
};

/**
 * struct mmx_crtc_state - driver-specific CRTC state
 * @base: base CRTC state
 * @num_layers: number of entries used in @layers
 * @layers: the visible planes, bottom first, decoded in atomic_check; their
 *	destinations are relative to the top-left corner of @space
 * @touched_planes: drm_plane_mask() of the planes the commit names itself,
 *	before the CRTC's other planes are added to decode @layers; an
 *	unchanged plane among them is redrawn whole (DIRTYFB without clips),
 *	the others are not (used by the virtio backend's damage tracking)
 * @transform_blob: the TRANSFORM property (&struct drm_mmx_transform)
 * @filter: the TRANSFORM_FILTER property
 * @transformed: @transform is not the identity
 * @transform: @transform_blob decoded for the mode, in atomic_check
 * @space: the CRTC space shown: the mode's rectangle, or the bounding box
 *	of the transformed mode rectangle
 * @sched_token: non-zero in the state of a timed commit: identifies its
 *	entries when the state is latched (handed to the composer); never
 *	duplicated
 * @sched_target: for a timed commit, the vblank at which the state is to
 *	be latched: atomic_flush holds it (see &mmx_vblank.held) until the
 *	vblank timer reaches that count; never duplicated
 * @sched_not_before_ns: for a timed commit, the latest execution time of
 *	its entries: it is never latched at a vblank before that time; never
 *	duplicated
 */
struct mmx_crtc_state {
	struct drm_crtc_state base;
	unsigned int num_layers;
	struct mmx_crtc_layer layers[MMX_PLANES_PER_CRTC];
	u32 touched_planes;
	struct drm_property_blob *transform_blob;
	enum mmx_filter filter;
	bool transformed;
	struct mmx_transform transform;
	struct drm_rect space;
	u64 sched_token;
	u64 sched_target;
	u64 sched_not_before_ns;
};

#define to_mmx_crtc_state(s) container_of(s, struct mmx_crtc_state, base)

#define MMX_DAMAGE_MAX	8

/**
 * struct mmx_damage - what changed on a CRTC since its last frame went to
 * the backend
 * @count: number of entries used in @rects
 * @rects: rectangles in CRTC coordinates, merged so that they rarely
 *	overlap
 */
struct mmx_damage {
	unsigned int count;
	struct drm_rect rects[MMX_DAMAGE_MAX];
};

/* Vblank and latch: owned by mmx_vblank.c */

/*
 * CRTC states flushed but not yet latched. The DRM core lets a CRTC have
 * two commits in flight (a third waits for the cleanup of the first), so
 * two are held at most; the ring has twice that many slots as a margin,
 * and should it ever be full, atomic_flush waits for the vblank to free one.
 */
#define MMX_VBLANK_HELD_MAX	4

/**
 * struct mmx_vblank_held - a CRTC state flushed but not yet latched
 * @state: the state, latched by the vblank timer at @target
 * @event: the commit's vblank event, sent when @state is latched; NULL
 *	for a timed commit, whose event is sent at once (see
 *	mmx_vblank_flush())
 * @target: latch at the first vblank at or after this count (0: the
 *	next one)
 * @not_before_ns: and not at a vblank before this time
 * @damage: what the state changes, given to the backend when it is
 *	latched
 */
struct mmx_vblank_held {
	struct mmx_crtc_state *state;
	struct drm_pending_vblank_event *event;
	u64 target;
	u64 not_before_ns;
	struct mmx_damage damage;
};

/**
 * struct mmx_vblank - the simulated vertical blanking of a CRTC and the
 * latch of its flushed states
 * @timer: simulates the vertical blanking interrupt
 * @on: the vblank is enabled; the timer stops itself when it is not (set
 *	under the DRM vblank locks, read by the timer callback)
 * @frame_period: the current mode's frame duration; written only while
 *	the timer is stopped
 * @held: ring of the CRTC states flushed but not yet latched, oldest at
 *	@held_head; the timer latches at most one per vblank, in order;
 *	protected by &drm_device.event_lock
 * @held_head: index of the oldest entry of @held
 * @held_count: number of entries in @held
 * @latch_wq: woken when a held state is latched or dropped
 * @missed: vblanks the timer expired too late to handle one by one since
 *	the device was created (the count then steps by more than one);
 *	written by the timer callback only
 *
 * Only mmx_vblank.c touches these.
 */
struct mmx_vblank {
	struct hrtimer timer;
	bool on;
	ktime_t frame_period;
	struct mmx_vblank_held held[MMX_VBLANK_HELD_MAX];
	unsigned int held_head;
	unsigned int held_count;
	wait_queue_head_t latch_wq;
	unsigned long missed;
};

/* Timed commits: owned by mmx_schedule.c and mmx_schedule_ioctl.c */

/*
 * Timed commits latched but not yet seen by the schedule: the one latched
 * at this vblank, plus those dropped when the CRTC is turned off (at most
 * MMX_VBLANK_HELD_MAX).
 */
#define MMX_SCHED_FLUSHED_MAX	8

/**
 * struct mmx_sched_flushed - a timed commit handed to the composer
 * @token: &mmx_crtc_state.sched_token of the commit, 0 for a free slot
 * @seq: the vblank its event was armed for
 * @armed: its vblank event was armed (the CRTC is on); if not, it was
 *	never shown
 */
struct mmx_sched_flushed {
	u64 token;
	u64 seq;
	bool armed;
};

/**
 * struct mmx_schedule_queue - the timed commits of a CRTC
 * @entries: the timed entries of this CRTC, any file's, in any state but
 *	completed and freed; protected by &mmx_device.sched_lock
 * @next_ns: time of the vblank after the last one handled; protected by
 *	&mmx_device.sched_lock
 * @next_seq: its sequence; protected by &mmx_device.sched_lock
 * @work: runs due timed entries and completes the others; on
 *	&mmx_device.sched_wq
 * @flushed: the timed commits latched (handed to the composer) and not
 *	yet seen by the schedule (free slots have token 0); protected by
 *	&drm_device.event_lock
 *
 * Only mmx_schedule.c and mmx_schedule_ioctl.c touch these.
 */
struct mmx_schedule_queue {
	struct list_head entries;
	u64 next_ns;
	u64 next_seq;
	struct work_struct work;
	struct mmx_sched_flushed flushed[MMX_SCHED_FLUSHED_MAX];
};

struct mmx_composer;

/**
 * struct mmx_output_layout - which objects of the full pipeline an output has
 * @overlays: number of overlay planes, 0 to %MMX_OVERLAYS_PER_CRTC
 * @cursor: the CRTC has a cursor plane
 * @writeback: the CRTC has a writeback connector
 * @status: the connector's status at creation: connected (its kind's
 *	default sink plugged in), disconnected (no sink) or unknown
 */
struct mmx_output_layout {
	unsigned int overlays;
	bool cursor;
	bool writeback;
	enum drm_connector_status status;
};

/**
 * struct mmx_output - one display pipeline: CRTC, encoder, connector,
 * writeback connector and the planes of the CRTC
 * @crtc: the CRTC
 * @encoder: the encoder feeding @connector
 * @connector: the simulated physical connector
 * @wb: the writeback connector capturing what @crtc shows
 * @primary: primary plane
 * @cursor: cursor plane
 * @overlays: overlay planes
 * @index: output number, 0 based
 * @kind: what @connector simulates
 * @layout: the objects of the pipeline that exist (@overlays beyond
 *	&mmx_output_layout.overlays, @cursor without
 *	&mmx_output_layout.cursor and @wb without
 *	&mmx_output_layout.writeback are not created)
 * @vblank: the simulated vertical blanking and the latch (mmx_vblank.c)
 * @lock: protects the composer's state, CRC and statistics and @damage;
 *	taken from hard interrupt context
 * @damage: what changed since the last frame the backend was given (only
 *	for a backend that presents frames, see &mmx_backend_funcs.present)
 * @composer: the composer; only mmx_composer.c sees inside it
 * @signal_format_prop: the SignalFormat property (values depend on @kind)
 * @signal_props_prop: the SignalProperties property, NULL when @kind's
 *	formats have no properties
 * @port: the simulated sink plugged into @connector (mmx_sink.c)
 * @sched: the timed commits of the CRTC (mmx_schedule*.c)
 */
struct mmx_output {
	struct drm_crtc crtc;
	struct drm_encoder encoder;
	struct drm_connector connector;
	struct drm_writeback_connector wb;
	struct drm_plane *primary;
	struct drm_plane *cursor;
	struct drm_plane *overlays[MMX_OVERLAYS_PER_CRTC];
	unsigned int index;
	enum mmx_output_kind kind;
	struct mmx_output_layout layout;

	struct mmx_vblank vblank;
	spinlock_t lock; /* see the kernel-doc above */
	struct mmx_damage damage;
	struct mmx_composer *composer;

	struct drm_property *signal_format_prop;
	struct drm_property *signal_props_prop;
	struct mmx_sink_port port;

	struct mmx_schedule_queue sched;
};

/**
 * struct mmx_backend_funcs - what a backend does for the core
 *
 * The virtual backend has none of these: its connectors are simulated
 * sinks (see mmx_sink.c) and nobody scans its frames out. Every hook is
 * optional.
 *
 * @detect: the connector status of an output; without it, the simulated
 *	sink's
 * @get_modes: add an output's modes to its connector (the probe helper's
 *	get_modes); without it, the simulated sink's
 * @crtc_enable: the CRTC of an output was enabled
 * @crtc_disable: the CRTC of an output was disabled; its composer does not
 *	run any more
 * @frame_ready: whether a frame can go to the backend now; called with the
 *	output's &mmx_output.lock held
 * @frame_begin: a frame is being composed for the backend, which ends with
 *	@present; called with the output's &mmx_output.lock held
 * @present: show a composed frame (NULL when nothing could be composed)
 *	where it changed (@damage); the core tracks damage only for a backend
 *	with this hook
 * @fixed_routing: an output's frames can only reach its own connector (a
 *	host scanout per CRTC): each encoder drives only its own CRTC and
 *	clones nothing, instead of any CRTC
 */
struct mmx_backend_funcs {
	enum drm_connector_status (*detect)(struct mmx_output *output);
	int (*get_modes)(struct mmx_output *output);
	void (*crtc_enable)(struct mmx_output *output);
	void (*crtc_disable)(struct mmx_output *output,
			     struct mmx_atomic_state *state);
	bool (*frame_ready)(struct mmx_output *output);
	void (*frame_begin)(struct mmx_output *output);
	void (*present)(struct mmx_output *output,
			const struct mmx_frame *frame,
			const struct mmx_damage *damage);
	bool fixed_routing;
};

/**
 * struct mmx_device - the mmx DRM device
 * @drm: the DRM device
 * @num_outputs: number of entries in @outputs
 * @outputs: the display pipelines
 * @composer_wq: ordered workqueue the composers run on
 * @connector_type_prop: RandR's ConnectorType
 * @connector_number_prop: RandR's ConnectorNumber
 * @compatibility_list_prop: RandR's CompatibilityList
 * @clone_list_prop: RandR's CloneList
 * @backend: the backend's hooks (see &struct mmx_backend_funcs)
 * @backend_data: the backend's own data
 * @transform_prop: the CRTCs' TRANSFORM property
 * @filter_prop: the CRTCs' TRANSFORM_FILTER property
 * @sched_lock: protects the timed entries (their lists and state) and
 *	@sched_token; taken from the vblank timer (hard interrupt context)
 * @sched_wq: the workqueue the timed entries execute on
 * @sched_token: last token given to a timed commit
 */
struct mmx_device {
	struct drm_device drm;
	unsigned int num_outputs;
	struct mmx_output outputs[MMX_MAX_OUTPUTS];
	struct workqueue_struct *composer_wq;
	struct drm_property *connector_type_prop;
	struct drm_property *connector_number_prop;
	struct drm_property *compatibility_list_prop;
	struct drm_property *clone_list_prop;
	const struct mmx_backend_funcs *backend;
	void *backend_data;
	struct drm_property *transform_prop;
	struct drm_property *filter_prop;
	spinlock_t sched_lock; /* see the kernel-doc above */
	struct workqueue_struct *sched_wq;
	u64 sched_token;
};

#define to_mmx_device(d) container_of(d, struct mmx_device, drm)
#define crtc_to_mmx_output(c) container_of(c, struct mmx_output, crtc)
#define wb_to_mmx_output(w) container_of(w, struct mmx_output, wb)
#define connector_to_mmx_output(c) container_of(c, struct mmx_output, connector)

/**
 * struct mmx_config - what a device is made of
 * @num_outputs: number of outputs
 * @kinds: kind of each output
 * @custom_layout: @layouts apply; without it every output has the full
 *	pipeline (two overlays, a cursor, a writeback connector) and its
 *	connector starts connected
 * @layouts: the pipeline of each output, when @custom_layout
 */
struct mmx_config {
	unsigned int num_outputs;
	enum mmx_output_kind kinds[MMX_MAX_OUTPUTS];
	bool custom_layout;
	struct mmx_output_layout layouts[MMX_MAX_OUTPUTS];
};

/* Device: shared by the backends' probes */
#define MMX_NUM_IOCTLS	3
extern const struct drm_ioctl_desc mmx_ioctls[MMX_NUM_IOCTLS];

/**
 * DEFINE_MMX_DRM_DRIVER - define a backend module's DRM driver
 * @drv: the name of the &struct drm_driver to define (its file operations
 *	are the module's mmx_fops)
 *
 * Every mmx device has the same driver, but its file operations must
 * belong to the backend module that made the device: an open device file
 * then pins that module (and mmx_core under it), so that removing a backend
 * is refused while a client holds one of its devices, as with any DRM
 * driver. Needs <drm/drm_drv.h>, <drm/drm_gem.h> and
 * <drm/drm_gem_shmem_helper.h>.
 */
#define DEFINE_MMX_DRM_DRIVER(drv)					\
	DEFINE_DRM_GEM_FOPS(mmx_fops);					\
	static const struct drm_driver drv = {				\
		.driver_features = DRIVER_MODESET | DRIVER_ATOMIC |	\
				   DRIVER_GEM,				\
		.fops = &mmx_fops,					\
		.open = mmx_schedule_open,				\
		.postclose = mmx_schedule_postclose,			\
		.ioctls = mmx_ioctls,					\
		.num_ioctls = MMX_NUM_IOCTLS,				\
		DRM_GEM_SHMEM_DRIVER_OPS,				\
		.name = MMX_DRIVER_NAME,				\
		.desc = MMX_DRIVER_DESC,				\
		MMX_DRIVER_DATE_INIT(MMX_DRIVER_DATE)			\
		MMX_FBDEV_DRIVER_OPS					\
		.major = MMX_DRIVER_MAJOR,				\
		.minor = MMX_DRIVER_MINOR,				\
	}

struct mmx_device *mmx_device_alloc(struct device *parent,
				    const struct drm_driver *driver);
int mmx_device_register(struct mmx_device *mmx,
			const struct mmx_config *config);

/* Debugfs counters */
void mmx_debugfs_register(struct mmx_device *mmx);

/* Outputs: connectors and encoders */
struct drm_edid;
extern const struct mmx_output_desc mmx_output_descs[MMX_KIND_COUNT];
int mmx_output_kind_parse(const char *name, enum mmx_output_kind *kind);
int mmx_output_init(struct mmx_device *mmx, struct mmx_output *output);
int mmx_outputs_link(struct mmx_device *mmx);
int mmx_connector_add_edid(struct drm_connector *connector,
			   const struct drm_edid *drm_edid);
void mmx_output_commit_signal(struct mmx_output *output,
			      const struct mmx_connector_state *old_state,
			      const struct mmx_connector_state *new_state);
enum drm_mode_status mmx_mode_valid(struct drm_device *dev,
				    const struct drm_display_mode *mode);

/* Planes */
struct drm_plane *mmx_plane_create(struct mmx_device *mmx,
				   struct mmx_output *output,
				   enum drm_plane_type type,
				   unsigned int zpos);
bool mmx_format_lookup(u32 fourcc, enum mmx_format *format);

/* CRTC */
int mmx_crtc_init(struct mmx_device *mmx, struct mmx_output *output);

/* Vblank and latch */
void mmx_vblank_init(struct mmx_output *output);
void mmx_vblank_release(struct mmx_output *output);
int mmx_vblank_enable(struct drm_crtc *crtc);
void mmx_vblank_disable(struct drm_crtc *crtc);
bool mmx_vblank_get_timestamp(struct drm_crtc *crtc, int *max_error,
			      ktime_t *vblank_time, bool in_vblank_irq);
u64 mmx_vblank_period_ns(const struct mmx_output *output);
void mmx_vblank_flush(struct mmx_output *output,
		      struct mmx_atomic_state *state);
void mmx_vblank_wait_latched(struct mmx_output *output,
			     const struct drm_crtc_state *state);
void mmx_vblank_off(struct mmx_output *output);
void mmx_vblank_debugfs_init(struct mmx_output *output);

/* Composer */
int mmx_composer_init(struct mmx_output *output);
void mmx_composer_show(struct mmx_output *output,
		       struct mmx_crtc_state *state, u64 from);
void mmx_composer_shown_from(struct mmx_output *output, u64 from);
void mmx_composer_flush(struct mmx_output *output);
void mmx_composer_vblank(struct mmx_output *output, u64 frame);
void mmx_composer_drain(struct mmx_output *output);
void mmx_composer_release(struct mmx_output *output);
void mmx_composer_trim(struct mmx_output *output);
void mmx_composer_memory(struct mmx_output *output, u64 *bytes,
			 unsigned int *buffers);
void mmx_composer_debugfs_init(struct mmx_output *output);
const char *const *mmx_crc_get_sources(struct drm_crtc *crtc, size_t *count);
int mmx_crc_verify_source(struct drm_crtc *crtc, const char *source,
			  size_t *values_cnt);
int mmx_crc_set_source(struct drm_crtc *crtc, const char *source);

/* Writeback */
int mmx_writeback_init(struct mmx_device *mmx, struct mmx_output *output);
bool mmx_writeback_pending(struct mmx_output *output);
void mmx_writeback_complete(struct mmx_output *output,
			    const struct mmx_frame *frame);

/* Timed commits: the uAPI side (mmx_schedule_ioctl.c) */
int mmx_schedule_open(struct drm_device *dev, struct drm_file *file);
void mmx_schedule_postclose(struct drm_device *dev, struct drm_file *file);
int mmx_schedule_submit_ioctl(struct drm_device *dev, void *data,
			      struct drm_file *file);
int mmx_schedule_retract_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);
int mmx_schedule_replace_ioctl(struct drm_device *dev, void *data,
			       struct drm_file *file);

/* Timed commits: the queues and their execution (mmx_schedule.c) */
int mmx_schedule_init(struct mmx_device *mmx);
void mmx_schedule_vblank(struct mmx_output *output);
void mmx_schedule_flushed(struct mmx_output *output,
			  const struct mmx_crtc_state *state, bool armed,
			  u64 sequence);
void mmx_schedule_crtc_off(struct mmx_output *output);

/* Damage: what changed, for a backend that presents frames */
void mmx_damage_add(struct mmx_damage *damage, const struct drm_rect *r);
void mmx_damage_reset(struct mmx_output *output, const struct drm_rect *full);
void mmx_damage_note_touched(struct mmx_atomic_state *state);
void mmx_damage_of_commit(struct mmx_output *output,
			  struct mmx_atomic_state *state,
			  struct mmx_damage *damage);
void mmx_damage_merge(struct mmx_output *output,
		      const struct mmx_damage *damage);
void mmx_damage_commit(struct mmx_output *output,
		       struct mmx_atomic_state *state);
bool mmx_damage_frame_due(struct mmx_output *output);
bool mmx_damage_take(struct mmx_output *output, struct mmx_damage *damage);

#endif /* _MMX_DRV_H_ */
