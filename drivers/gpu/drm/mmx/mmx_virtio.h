/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend's private header: the device, its scanouts, the
 * commands on the control queue, the counters; shared by mmx_virtio_drv.c
 * (the virtio driver), mmx_virtio_vq.c (transport), mmx_virtio_display.c
 * (displays, scanouts and frames) and mmx_virtio_debugfs.c.
 */

#ifndef _MMX_VIRTIO_H_
#define _MMX_VIRTIO_H_

#include <linux/atomic.h>
#include <linux/idr.h>
#include <linux/scatterlist.h>
#include <linux/spinlock.h>
#include <linux/virtio.h>
#include <linux/virtio_gpu.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

#include "mmx_drv.h"

/* How long to wait for the host's answers or for room in the queue. */
#define MMX_VIRTIO_TIMEOUT	(5 * HZ)
/* Modes offered without EDID. */
#define MMX_VIRTIO_NOEDID_WIDTH		1920
#define MMX_VIRTIO_NOEDID_HEIGHT	1200
#define MMX_VIRTIO_EDID_SIZE	1024

#ifdef __BIG_ENDIAN
#define MMX_VIRTIO_FORMAT	VIRTIO_GPU_FORMAT_X8R8G8B8_UNORM
#else
#define MMX_VIRTIO_FORMAT	VIRTIO_GPU_FORMAT_B8G8R8X8_UNORM
#endif

/**
 * enum mmx_virtio_stat - counters shown in debugfs
 * @MMX_STAT_BYTES: bytes sent to the host by TRANSFER_TO_HOST_2D
 * @MMX_STAT_TRANSFERS: TRANSFER_TO_HOST_2D commands sent
 * @MMX_STAT_FRAMES: frames presented
 * @MMX_STAT_COMMANDS: commands the host answered
 * @MMX_STAT_LIVE_RESOURCES: resources the host created and that were not
 *	unreferenced yet
 * @MMX_STAT_HOST_ERRORS: VIRTIO_GPU_RESP_ERR_* answers
 * @MMX_STAT_SUBMIT_ERRORS: commands that could not be sent
 * @MMX_STAT_COUNT: number of counters
 */
enum mmx_virtio_stat {
	MMX_STAT_BYTES,
	MMX_STAT_TRANSFERS,
	MMX_STAT_FRAMES,
	MMX_STAT_COMMANDS,
	MMX_STAT_LIVE_RESOURCES,
	MMX_STAT_HOST_ERRORS,
	MMX_STAT_SUBMIT_ERRORS,
	MMX_STAT_COUNT,
};

/**
 * struct mmx_virtio_stats - a set of counters
 * @v: the counters, indexed by &enum mmx_virtio_stat
 */
struct mmx_virtio_stats {
	atomic64_t v[MMX_STAT_COUNT];
};

/**
 * struct mmx_virtio_orphan - shadow memory the host may still read
 * @node: entry in &mmx_virtio.orphans
 * @shadow: the buffer
 * @sgt: its pages
 * @dma_mapped: @sgt is mapped for the device
 */
struct mmx_virtio_orphan {
	struct list_head node;
	void *shadow;
	struct sg_table sgt;
	bool dma_mapped;
};

/**
 * struct mmx_virtio_scanout - a host scanout and the CRTC shown on it
 * @index: scanout number, the output's index
 * @host_enabled: the host reports a display on the scanout
 * @host_width: its width
 * @host_height: its height
 * @edid_len: bytes in @edid, 0 for none
 * @edid: the host's EDID for the scanout
 * @resource_id: the host resource shown, 0 while the CRTC is off
 * @width: width of the resource and of @shadow
 * @height: height of the resource and of @shadow
 * @shadow: the resource's backing, XRGB8888, @width pixels a row
 * @sgt: the pages of @shadow
 * @dma_mapped: @sgt is mapped for the device
 * @vblank_ref: holds a vblank reference of the CRTC
 * @inflight: commands sent for the scanout and not yet answered, plus one
 *	from mmx_virtio_frame_begin() to mmx_virtio_present()
 * @live: frames may be presented
 *
 * @host_enabled, @host_width, @host_height, @edid_len and @edid are
 * protected by &mmx_virtio.info_lock; @live by the output's
 * &mmx_output.lock. @resource_id, @width, @height, @shadow, @sgt,
 * @dma_mapped and @vblank_ref change only in the CRTC's enable and disable,
 * when its composer does not run.
 */
struct mmx_virtio_scanout {
	unsigned int index;

	bool host_enabled;
	u32 host_width;
	u32 host_height;
	size_t edid_len;
	u8 edid[MMX_VIRTIO_EDID_SIZE];

	u32 resource_id;
	u32 width;
	u32 height;
	void *shadow;
	struct sg_table sgt;
	bool dma_mapped;
	bool vblank_ref;

	atomic_t inflight;
	bool live;
};

/**
 * struct mmx_virtio - the virtio-gpu backend of an mmx device
 * @mmx: the device
 * @vdev: the virtio device
 * @dma_dev: the device that maps memory for @vdev
 * @ctrlq: the control queue
 * @qlock: protects @ctrlq and @ready; taken from the queue's interrupt
 * @ready: commands may be queued
 * @has_edid: the device offers VIRTIO_GPU_F_EDID
 * @use_dma_api: addresses given to the host are DMA addresses of @dma_dev
 *	(VIRTIO_F_ACCESS_PLATFORM), not physical addresses
 * @ack_wq: woken when the host answers
 * @num_scanouts: scanouts used (outputs of the device)
 * @info_lock: protects @info_gen, @info_failed and the host information
 *	of @scanouts; taken from the queue's interrupt
 * @info_gen: display-information answers received
 * @info_failed: the last GET_DISPLAY_INFO failed
 * @config_work: handles a display-configuration change
 * @resource_ida: host resource ids
 * @orphans_lock: protects @orphans
 * @orphans: shadow buffers of scanouts whose host did not answer, freed
 *	once the device is reset
 * @stats: counters
 * @scanouts: the scanouts
 */
struct mmx_virtio {
	struct mmx_device *mmx;
	struct virtio_device *vdev;
	struct device *dma_dev;

	struct virtqueue *ctrlq;
	spinlock_t qlock; /* see the kernel-doc above */
	bool ready;
	bool has_edid;
	bool use_dma_api;
	wait_queue_head_t ack_wq;

	unsigned int num_scanouts;
	spinlock_t info_lock; /* see the kernel-doc above */
	unsigned int info_gen;
	bool info_failed;
	struct work_struct config_work;

	struct ida resource_ida;
	struct mutex orphans_lock; /* see the kernel-doc above */
	struct list_head orphans;

	struct mmx_virtio_stats stats;
	struct mmx_virtio_scanout scanouts[MMX_MAX_OUTPUTS];
};

struct mmx_vcmd;
typedef void (*mmx_vcmd_done_t)(struct mmx_virtio *vg, struct mmx_vcmd *cmd,
				bool ok);

/**
 * struct mmx_vcmd - a command for the control queue and room for its answer
 * @node: entry in a list of answered commands
 * @done: called with the answer, in interrupt context, or NULL
 * @scanout: the scanout whose &mmx_virtio_scanout.inflight counts the
 *	command, or NULL
 * @data: data sent after the command (kmalloc or vmalloc memory), freed
 *	with the command
 * @data_size: bytes of @data
 * @cmd_size: bytes of the command at @buf
 * @resp_size: bytes of room for the answer at @resp
 * @resp_len: bytes of answer the host wrote
 * @resp: the answer, in @buf after the command
 * @buf: the command, then the answer
 */
struct mmx_vcmd {
	struct list_head node;
	mmx_vcmd_done_t done;
	struct mmx_virtio_scanout *scanout;
	void *data;
	size_t data_size;
	u32 cmd_size;
	u32 resp_size;
	u32 resp_len;
	struct virtio_gpu_ctrl_hdr *resp;
	u8 buf[] __aligned(8);
};

/* Totals of every device since the module loaded (mmx_virtio_drv.c). */
extern struct mmx_virtio_stats mmx_virtio_totals;
extern atomic_t mmx_virtio_bound;

/* Count @n in @vg's counter @stat and in the module's total. */
static inline void mmx_virtio_count(struct mmx_virtio *vg,
				    enum mmx_virtio_stat stat, s64 n)
{
	atomic64_add(n, &vg->stats.v[stat]);
	atomic64_add(n, &mmx_virtio_totals.v[stat]);
}

static inline s64 mmx_virtio_stat(struct mmx_virtio_stats *stats,
				  enum mmx_virtio_stat stat)
{
	return atomic64_read(&stats->v[stat]);
}

static inline struct mmx_virtio *mmx_virtio_of(const struct mmx_output *output)
{
	return to_mmx_device(output->crtc.dev)->backend_data;
}

/* Transport: the control queue (mmx_virtio_vq.c) */
int mmx_virtio_start(struct mmx_virtio *vg);
void mmx_virtio_stop(struct mmx_virtio *vg);
void mmx_virtio_release(struct drm_device *dev, void *data);
void *mmx_vcmd_new(struct mmx_virtio_scanout *scanout, u32 type,
		   size_t cmd_size, size_t resp_size, mmx_vcmd_done_t done,
		   struct mmx_vcmd **cmdp);
void *mmx_vcmd_new_nodata(struct mmx_virtio_scanout *scanout, u32 type,
			  size_t cmd_size, mmx_vcmd_done_t done,
			  struct mmx_vcmd **cmdp);
int mmx_vcmd_queue(struct mmx_virtio *vg, struct mmx_vcmd *cmd);
void mmx_virtio_kick(struct mmx_virtio *vg);

/* Displays, scanouts and frames (mmx_virtio_display.c) */
extern const struct mmx_backend_funcs mmx_virtio_funcs;
int mmx_virtio_query_displays(struct mmx_virtio *vg);
void mmx_virtio_config_work(struct work_struct *work);
void mmx_virtio_config_changed(struct virtio_device *vdev);
int mmx_virtio_queue_flush(struct mmx_virtio *vg,
			   struct mmx_virtio_scanout *sc, u32 resource_id,
			   const struct drm_rect *r);
void mmx_virtio_shadow_free(struct mmx_virtio *vg, void *shadow,
			    struct sg_table *sgt, bool dma_mapped);

/* debugfs (mmx_virtio_debugfs.c) */
void mmx_virtio_debugfs_device(struct mmx_virtio *vg);
void mmx_virtio_debugfs_module_init(void);
void mmx_virtio_debugfs_module_exit(void);

#endif /* _MMX_VIRTIO_H_ */
