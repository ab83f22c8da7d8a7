// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend: the KMS device of the virtual backend, bound to a
 * virtio-gpu device, with every CRTC's composed frame shown on one host
 * scanout.
 */

/**
 * DOC: virtio backend
 *
 * The module ``mmx_virtio`` binds the virtio-gpu devices of the machine
 * through the virtio bus; each becomes an mmx DRM device (the core,
 * ``mmx_core``, is loaded with it; the virtual backend, ``mmx``, is not).
 * Keeping the backend in its own module means that loading or removing
 * ``mmx`` never touches the virtio modules, which may hold the machine's
 * root disk. Debian's ``virtio_gpu`` driver must not be bound in the same
 * guest: whichever module binds first owns the device. mmx_virtio declares
 * no module alias for virtio-gpu devices, so udev never loads it in place
 * of ``virtio_gpu``; load it by hand (``modprobe mmx_virtio``, and
 * blacklist ``virtio_gpu`` where udev would load it).
 *
 * Outputs: one per host scanout (at most 8), each of kind DisplayPort
 * (connector type DisplayPort, named DP-N). A connector is connected when
 * the host reports its scanout enabled (VIRTIO_GPU_CMD_GET_DISPLAY_INFO).
 * Its modes are those of the host's EDID (VIRTIO_GPU_CMD_GET_EDID, when the
 * device offers VIRTIO_GPU_F_EDID), which is also the connector's ``EDID``
 * property, or the DMT modes up to 1920x1200 without EDID; the size the host
 * reports is the preferred mode (added as a CVT mode when the EDID lacks it),
 * else the EDID's preferred mode, else 1024x768.
 * A display-configuration change from the host (config-changed interrupt)
 * queries the host again and sends a hotplug uevent.
 *
 * Scanout: enabling a CRTC allocates a shadow buffer of the mode's size
 * (XRGB8888), makes it the backing of a host 2D resource
 * (RESOURCE_CREATE_2D, RESOURCE_ATTACH_BACKING with the buffer's pages) and
 * shows that resource on the output's scanout (SET_SCANOUT). Disabling the
 * CRTC detaches the scanout (SET_SCANOUT with resource 0) and frees the
 * resource (RESOURCE_UNREF); so does unbinding the device or unloading the
 * module, as they disable every CRTC first. A modeset that keeps the CRTC
 * on with a mode of the same size (e.g. attaching its writeback connector)
 * keeps the resource.
 *
 * Damage: every commit adds to its CRTC's damage the rectangles that
 * changed: the old and new position of a plane that moved, appeared,
 * disappeared or changed alpha, blend mode or zpos; the FB_DAMAGE_CLIPS of a
 * plane (DIRTYFB uses them), or the whole plane when its framebuffer changed
 * without clips or when the commit names the plane without changing it; the
 * whole CRTC after a new mode, enabling it or a colour-management change
 * (a modeset that only routes connectors damages nothing). While a CRTC
 * has damage, the composer runs at its next vblank (so at most once per
 * vblank), copies the damaged rectangles of the composed frame into the
 * shadow buffer and sends only them to the host (TRANSFER_TO_HOST_2D and
 * RESOURCE_FLUSH per rectangle). Pixels drawn into a shown framebuffer
 * without a commit or DIRTYFB reach the host only with the next damage
 * that covers them.
 *
 * Commands go to the control queue asynchronously. The queue's interrupt
 * completes them: a VIRTIO_GPU_RESP_ERR_* answer is logged with drm_err and
 * counted, and never blocks anything. A new frame is sent only when the
 * previous one has been answered. Nothing waits for the host in atomic
 * context; modeset paths wait, at most 5 seconds, only when a CRTC is
 * disabled, before freeing its shadow buffer (memory the host no longer
 * answers for is kept until the device is reset).
 *
 * Vblank: virtio-gpu has no vertical blanking interrupt (the host shows a
 * flushed resource whenever it wants), so vblank stays the hrtimer of the
 * virtual backend, running at the mode's refresh rate for as long as the
 * CRTC is enabled; events, timestamps, CRC and writeback behave as on the
 * virtual backend.
 *
 * debugfs: ``dri/N/virtio`` shows the device's counters (bytes sent to the
 * host, transfers, frames, live host resources, host errors) and the state
 * of each scanout; ``mmx/virtio`` the totals of every device bound since the
 * module loaded (``live_resources`` is 0 once every device has been
 * unbound, unless a resource leaked). Writing to ``dri/N/virtio_inject_error``
 * sends a RESOURCE_FLUSH of a resource that does not exist, which the host
 * must answer with an error: a test of the error path.
 */

#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/virtio.h>
#include <linux/virtio_config.h>
#include <linux/virtio_gpu.h>
#include <linux/virtio_ids.h>
#include <linux/virtio_ring.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_damage_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_edid.h>
#include <drm/drm_managed.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

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

static const char *const mmx_virtio_stat_names[MMX_STAT_COUNT] = {
	[MMX_STAT_BYTES] = "bytes_to_host",
	[MMX_STAT_TRANSFERS] = "transfers",
	[MMX_STAT_FRAMES] = "frames",
	[MMX_STAT_COMMANDS] = "commands",
	[MMX_STAT_LIVE_RESOURCES] = "live_resources",
	[MMX_STAT_HOST_ERRORS] = "host_errors",
	[MMX_STAT_SUBMIT_ERRORS] = "submit_errors",
};

/**
 * struct mmx_virtio_stats - a set of counters
 * @v: the counters, indexed by &enum mmx_virtio_stat
 */
struct mmx_virtio_stats {
	atomic64_t v[MMX_STAT_COUNT];
};

/* Totals of every device since the module loaded. */
static struct mmx_virtio_stats mmx_virtio_totals;
static atomic_t mmx_virtio_bound = ATOMIC_INIT(0);
static struct dentry *mmx_virtio_debugfs_root;

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

/* Count @n in @vg's counter @stat and in the module's total. */
static void mmx_virtio_count(struct mmx_virtio *vg, enum mmx_virtio_stat stat,
			     s64 n)
{
	atomic64_add(n, &vg->stats.v[stat]);
	atomic64_add(n, &mmx_virtio_totals.v[stat]);
}

static s64 mmx_virtio_stat(struct mmx_virtio_stats *stats,
			   enum mmx_virtio_stat stat)
{
	return atomic64_read(&stats->v[stat]);
}

static struct mmx_virtio *mmx_virtio_of(const struct mmx_output *output)
{
	return to_mmx_device(output->crtc.dev)->backend_data;
}

/* Commands */

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

static const char *mmx_vcmd_name(u32 type)
{
	switch (type) {
	case VIRTIO_GPU_CMD_GET_DISPLAY_INFO:
		return "GET_DISPLAY_INFO";
	case VIRTIO_GPU_CMD_RESOURCE_CREATE_2D:
		return "RESOURCE_CREATE_2D";
	case VIRTIO_GPU_CMD_RESOURCE_UNREF:
		return "RESOURCE_UNREF";
	case VIRTIO_GPU_CMD_SET_SCANOUT:
		return "SET_SCANOUT";
	case VIRTIO_GPU_CMD_RESOURCE_FLUSH:
		return "RESOURCE_FLUSH";
	case VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D:
		return "TRANSFER_TO_HOST_2D";
	case VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING:
		return "RESOURCE_ATTACH_BACKING";
	case VIRTIO_GPU_CMD_GET_EDID:
		return "GET_EDID";
	default:
		return "?";
	}
}

static const char *mmx_vresp_name(u32 type)
{
	switch (type) {
	case VIRTIO_GPU_RESP_ERR_UNSPEC:
		return "ERR_UNSPEC";
	case VIRTIO_GPU_RESP_ERR_OUT_OF_MEMORY:
		return "ERR_OUT_OF_MEMORY";
	case VIRTIO_GPU_RESP_ERR_INVALID_SCANOUT_ID:
		return "ERR_INVALID_SCANOUT_ID";
	case VIRTIO_GPU_RESP_ERR_INVALID_RESOURCE_ID:
		return "ERR_INVALID_RESOURCE_ID";
	case VIRTIO_GPU_RESP_ERR_INVALID_CONTEXT_ID:
		return "ERR_INVALID_CONTEXT_ID";
	case VIRTIO_GPU_RESP_ERR_INVALID_PARAMETER:
		return "ERR_INVALID_PARAMETER";
	default:
		return "unknown answer";
	}
}

/*
 * Allocate a command of @cmd_size bytes whose header says @type, with room
 * for an answer of @resp_size bytes. Returns the command, or NULL.
 */
static void *mmx_vcmd_new(struct mmx_virtio_scanout *scanout, u32 type,
			  size_t cmd_size, size_t resp_size,
			  mmx_vcmd_done_t done, struct mmx_vcmd **cmdp)
{
	size_t resp_offset = ALIGN(cmd_size, 8);
	struct virtio_gpu_ctrl_hdr *hdr;
	struct mmx_vcmd *cmd;

	cmd = kzalloc(struct_size(cmd, buf, resp_offset + resp_size),
		      GFP_KERNEL);
	if (!cmd)
		return NULL;
	cmd->done = done;
	cmd->scanout = scanout;
	cmd->cmd_size = cmd_size;
	cmd->resp_size = resp_size;
	cmd->resp = (struct virtio_gpu_ctrl_hdr *)(cmd->buf + resp_offset);
	hdr = (struct virtio_gpu_ctrl_hdr *)cmd->buf;
	hdr->type = cpu_to_le32(type);
	*cmdp = cmd;
	return cmd->buf;
}

static void mmx_vcmd_free(struct mmx_vcmd *cmd)
{
	kvfree(cmd->data);
	kfree(cmd);
}

static u32 mmx_vcmd_type(const struct mmx_vcmd *cmd)
{
	return le32_to_cpu(((const struct virtio_gpu_ctrl_hdr *)cmd->buf)->type);
}

/* The host answered @cmd: account, report, free. */
static void mmx_vcmd_complete(struct mmx_virtio *vg, struct mmx_vcmd *cmd)
{
	u32 type = cmd->resp_len >= sizeof(*cmd->resp) ?
		   le32_to_cpu(cmd->resp->type) : 0;
	bool ok = type >= VIRTIO_GPU_RESP_OK_NODATA &&
		  type < VIRTIO_GPU_RESP_ERR_UNSPEC;

	mmx_virtio_count(vg, MMX_STAT_COMMANDS, 1);
	if (!ok) {
		mmx_virtio_count(vg, MMX_STAT_HOST_ERRORS, 1);
		drm_err_ratelimited(&vg->mmx->drm,
				    "virtio-gpu: %s (0x%x) answered %s (0x%x)\n",
				    mmx_vcmd_name(mmx_vcmd_type(cmd)),
				    mmx_vcmd_type(cmd), mmx_vresp_name(type),
				    type);
	}
	if (cmd->done)
		cmd->done(vg, cmd, ok);
	if (cmd->scanout) {
		/* What done() changed is visible to inflight's waiters. */
		smp_mb__before_atomic();
		atomic_dec(&cmd->scanout->inflight);
	}
	mmx_vcmd_free(cmd);
}

/* Control queue interrupt: complete every answered command. */
static void mmx_virtio_ctrl_ack(struct virtqueue *vq)
{
	struct mmx_virtio *vg = vq->vdev->priv;
	struct mmx_vcmd *cmd, *next;
	unsigned long flags;
	unsigned int len;
	LIST_HEAD(answered);

	spin_lock_irqsave(&vg->qlock, flags);
	do {
		virtqueue_disable_cb(vq);
		while ((cmd = virtqueue_get_buf(vq, &len))) {
			cmd->resp_len = len;
			list_add_tail(&cmd->node, &answered);
		}
	} while (!virtqueue_enable_cb(vq));
	spin_unlock_irqrestore(&vg->qlock, flags);

	list_for_each_entry_safe(cmd, next, &answered, node)
		mmx_vcmd_complete(vg, cmd);
	wake_up_all(&vg->ack_wq);
}

/*
 * Queue @cmd on the control queue without notifying the host; waits (at
 * most MMX_VIRTIO_TIMEOUT) for room. On failure, frees @cmd.
 */
static int mmx_vcmd_queue(struct mmx_virtio *vg, struct mmx_vcmd *cmd)
{
	struct scatterlist cmd_sg, data_sg, resp_sg, *sgs[3];
	unsigned long deadline = jiffies + MMX_VIRTIO_TIMEOUT;
	struct sg_table data_sgt = {};
	unsigned int out = 0, need;
	unsigned long flags;
	int ret;

	sg_init_one(&cmd_sg, cmd->buf, cmd->cmd_size);
	sgs[out++] = &cmd_sg;
	need = 2;
	if (cmd->data_size) {
		if (is_vmalloc_addr(cmd->data)) {
			unsigned int i, n = DIV_ROUND_UP(cmd->data_size +
							 offset_in_page(cmd->data),
							 PAGE_SIZE);
			size_t left = cmd->data_size;
			u8 *p = cmd->data;
			struct scatterlist *sg;

			ret = sg_alloc_table(&data_sgt, n, GFP_KERNEL);
			if (ret)
				goto err_free;
			for_each_sgtable_sg(&data_sgt, sg, i) {
				size_t len = min_t(size_t, left,
						   PAGE_SIZE - offset_in_page(p));

				sg_set_page(sg, vmalloc_to_page(p), len,
					    offset_in_page(p));
				p += len;
				left -= len;
			}
			sgs[out++] = data_sgt.sgl;
			need += n;
		} else {
			sg_init_one(&data_sg, cmd->data, cmd->data_size);
			sgs[out++] = &data_sg;
			need++;
		}
	}
	sg_init_one(&resp_sg, cmd->resp, cmd->resp_size);
	sgs[out] = &resp_sg;

	for (;;) {
		spin_lock_irqsave(&vg->qlock, flags);
		if (!vg->ready) {
			ret = -ENODEV;
		} else {
			ret = virtqueue_add_sgs(vg->ctrlq, sgs, out, 1, cmd,
						GFP_ATOMIC);
			if (!ret && cmd->scanout)
				atomic_inc(&cmd->scanout->inflight);
		}
		spin_unlock_irqrestore(&vg->qlock, flags);
		if (ret != -ENOSPC || time_after(jiffies, deadline))
			break;

		/* Let the host drain the queue, then try again. */
		spin_lock_irqsave(&vg->qlock, flags);
		if (virtqueue_kick_prepare(vg->ctrlq)) {
			spin_unlock_irqrestore(&vg->qlock, flags);
			virtqueue_notify(vg->ctrlq);
		} else {
			spin_unlock_irqrestore(&vg->qlock, flags);
		}
		wait_event_timeout(vg->ack_wq,
				   READ_ONCE(vg->ctrlq->num_free) >= need ||
				   !READ_ONCE(vg->ready),
				   HZ / 10);
	}
	sg_free_table(&data_sgt);
	if (!ret)
		return 0;

err_free:
	mmx_virtio_count(vg, MMX_STAT_SUBMIT_ERRORS, 1);
	drm_err(&vg->mmx->drm, "virtio-gpu: cannot send %s: %d\n",
		mmx_vcmd_name(mmx_vcmd_type(cmd)), ret);
	mmx_vcmd_free(cmd);
	return ret;
}

/* Notify the host of the commands queued. */
static void mmx_virtio_kick(struct mmx_virtio *vg)
{
	unsigned long flags;
	bool notify;

	spin_lock_irqsave(&vg->qlock, flags);
	notify = vg->ready && virtqueue_kick_prepare(vg->ctrlq);
	spin_unlock_irqrestore(&vg->qlock, flags);
	if (notify)
		virtqueue_notify(vg->ctrlq);
}

/* A command that needs no answer but "OK". */
static void *mmx_vcmd_new_nodata(struct mmx_virtio_scanout *scanout,
				 u32 type, size_t cmd_size,
				 mmx_vcmd_done_t done, struct mmx_vcmd **cmdp)
{
	return mmx_vcmd_new(scanout, type, cmd_size,
			    sizeof(struct virtio_gpu_ctrl_hdr), done, cmdp);
}

/* Display information and EDID */

static void mmx_virtio_display_info_done(struct mmx_virtio *vg,
					 struct mmx_vcmd *cmd, bool ok)
{
	const struct virtio_gpu_resp_display_info *resp = (void *)cmd->resp;
	unsigned long flags;
	unsigned int i;

	spin_lock_irqsave(&vg->info_lock, flags);
	for (i = 0; ok && i < vg->num_scanouts; i++) {
		struct mmx_virtio_scanout *sc = &vg->scanouts[i];

		sc->host_enabled = le32_to_cpu(resp->pmodes[i].enabled);
		sc->host_width = le32_to_cpu(resp->pmodes[i].r.width);
		sc->host_height = le32_to_cpu(resp->pmodes[i].r.height);
	}
	vg->info_failed = !ok;
	vg->info_gen++;
	spin_unlock_irqrestore(&vg->info_lock, flags);
}

static void mmx_virtio_edid_done(struct mmx_virtio *vg, struct mmx_vcmd *cmd,
				 bool ok)
{
	const struct virtio_gpu_cmd_get_edid *req = (void *)cmd->buf;
	const struct virtio_gpu_resp_edid *resp = (void *)cmd->resp;
	u32 index = le32_to_cpu(req->scanout);
	u32 size = ok ? le32_to_cpu(resp->size) : 0;
	struct mmx_virtio_scanout *sc;
	unsigned long flags;

	if (index >= vg->num_scanouts)
		return;
	sc = &vg->scanouts[index];
	if (size > sizeof(resp->edid) || size > sizeof(sc->edid))
		size = 0;

	spin_lock_irqsave(&vg->info_lock, flags);
	memcpy(sc->edid, resp->edid, size);
	sc->edid_len = size;
	spin_unlock_irqrestore(&vg->info_lock, flags);
}

static bool mmx_virtio_info_since(struct mmx_virtio *vg, unsigned int gen)
{
	bool answered;

	spin_lock_irq(&vg->info_lock);
	answered = vg->info_gen != gen;
	spin_unlock_irq(&vg->info_lock);
	return answered;
}

/*
 * Ask the host for its EDIDs and display information and wait for the
 * answer (the EDIDs are asked first, so they are answered by then).
 */
static int mmx_virtio_query_displays(struct mmx_virtio *vg)
{
	struct virtio_gpu_cmd_get_edid *edid;
	struct virtio_gpu_ctrl_hdr *hdr;
	struct mmx_vcmd *cmd;
	unsigned int i, gen;
	bool failed;
	int ret;

	spin_lock_irq(&vg->info_lock);
	gen = vg->info_gen;
	spin_unlock_irq(&vg->info_lock);

	for (i = 0; vg->has_edid && i < vg->num_scanouts; i++) {
		edid = mmx_vcmd_new(NULL, VIRTIO_GPU_CMD_GET_EDID,
				    sizeof(*edid),
				    sizeof(struct virtio_gpu_resp_edid),
				    mmx_virtio_edid_done, &cmd);
		if (!edid)
			return -ENOMEM;
		edid->scanout = cpu_to_le32(i);
		ret = mmx_vcmd_queue(vg, cmd);
		if (ret)
			return ret;
	}

	hdr = mmx_vcmd_new(NULL, VIRTIO_GPU_CMD_GET_DISPLAY_INFO, sizeof(*hdr),
			   sizeof(struct virtio_gpu_resp_display_info),
			   mmx_virtio_display_info_done, &cmd);
	if (!hdr)
		return -ENOMEM;
	ret = mmx_vcmd_queue(vg, cmd);
	if (ret)
		return ret;
	mmx_virtio_kick(vg);

	if (!wait_event_timeout(vg->ack_wq, mmx_virtio_info_since(vg, gen),
				MMX_VIRTIO_TIMEOUT)) {
		drm_err(&vg->mmx->drm,
			"virtio-gpu: no display information from the host\n");
		return -ETIMEDOUT;
	}

	spin_lock_irq(&vg->info_lock);
	failed = vg->info_failed;
	spin_unlock_irq(&vg->info_lock);
	return failed ? -EIO : 0;
}

static bool mmx_virtio_edid_usable(u8 *edid, size_t len)
{
	if (len < EDID_LENGTH || len % EDID_LENGTH)
		return false;
	if ((size_t)(edid[0x7e] + 1) * EDID_LENGTH > len)
		return false;
	return drm_edid_is_valid((struct edid *)edid);
}

/**
 * mmx_virtio_get_modes - the modes of a virtio-gpu output
 * @output: the output
 *
 * Sets the connector's EDID property from the host's EDID and adds its
 * modes, or the DMT modes up to 1920x1200 without one; the host's current
 * size is the preferred mode, else the EDID's preferred mode, else
 * 1024x768.
 *
 * Return: the number of modes added.
 */
static int mmx_virtio_get_modes(struct mmx_output *output)
{
	struct drm_connector *connector = &output->connector;
	struct mmx_virtio *vg = mmx_virtio_of(output);
	struct mmx_virtio_scanout *sc = &vg->scanouts[output->index];
	const struct drm_edid *drm_edid = NULL;
	struct drm_display_mode *mode;
	u32 width, height;
	bool enabled, found = false;
	size_t len;
	u8 *edid;
	int count;

	edid = kmalloc(sizeof(sc->edid), GFP_KERNEL);
	spin_lock_irq(&vg->info_lock);
	enabled = sc->host_enabled;
	width = sc->host_width;
	height = sc->host_height;
	len = edid ? sc->edid_len : 0;
	if (len)
		memcpy(edid, sc->edid, len);
	spin_unlock_irq(&vg->info_lock);

	if (len && mmx_virtio_edid_usable(edid, len))
		drm_edid = drm_edid_alloc(edid, len);
	kfree(edid);
	count = drm_edid_connector_update(connector, drm_edid);
	drm_edid_free(drm_edid);

	if (!count)
		count = drm_add_modes_noedid(connector,
					     MMX_VIRTIO_NOEDID_WIDTH,
					     MMX_VIRTIO_NOEDID_HEIGHT);

	if (!enabled || !width || !height) {
		/* Keep the EDID's preference, if any. */
		list_for_each_entry(mode, &connector->probed_modes, head) {
			if (mode->type & DRM_MODE_TYPE_PREFERRED)
				return count;
		}
		drm_set_preferred_mode(connector, 1024, 768);
		return count;
	}

	/* The size the host shows is the preferred mode, and only it. */
	list_for_each_entry(mode, &connector->probed_modes, head) {
		if (mode->hdisplay == width && mode->vdisplay == height) {
			mode->type |= DRM_MODE_TYPE_PREFERRED;
			found = true;
		} else {
			mode->type &= ~DRM_MODE_TYPE_PREFERRED;
		}
	}
	if (!found) {
		mode = drm_cvt_mode(connector->dev, width, height, 60, false,
				    false, false);
		if (mode) {
			mode->type |= DRM_MODE_TYPE_DRIVER |
				      DRM_MODE_TYPE_PREFERRED;
			drm_mode_probed_add(connector, mode);
			count++;
		}
	}
	return count;
}

/**
 * mmx_virtio_detect - whether the host shows a display on an output
 * @output: the output
 *
 * Return: connected when the host reports the scanout enabled.
 */
static enum drm_connector_status mmx_virtio_detect(struct mmx_output *output)
{
	struct mmx_virtio *vg = mmx_virtio_of(output);
	bool enabled;

	spin_lock_irq(&vg->info_lock);
	enabled = vg->scanouts[output->index].host_enabled;
	spin_unlock_irq(&vg->info_lock);
	return enabled ? connector_status_connected :
			 connector_status_disconnected;
}

static void mmx_virtio_config_work(struct work_struct *work)
{
	struct mmx_virtio *vg = container_of(work, struct mmx_virtio,
					     config_work);
	u32 events;
	int ret;

	virtio_cread_le(vg->vdev, struct virtio_gpu_config, events_read,
			&events);
	if (!(events & VIRTIO_GPU_EVENT_DISPLAY))
		return;
	events = VIRTIO_GPU_EVENT_DISPLAY;
	virtio_cwrite_le(vg->vdev, struct virtio_gpu_config, events_clear,
			 &events);

	ret = mmx_virtio_query_displays(vg);
	if (ret)
		drm_err(&vg->mmx->drm,
			"virtio-gpu: display change, query failed: %d\n", ret);
	drm_kms_helper_hotplug_event(&vg->mmx->drm);
}

static void mmx_virtio_config_changed(struct virtio_device *vdev)
{
	struct mmx_virtio *vg = vdev->priv;

	schedule_work(&vg->config_work);
}


/* The host answered the previous frame: the next may go. */
static bool mmx_virtio_frame_ready(struct mmx_output *output)
{
	struct mmx_virtio_scanout *sc =
		&mmx_virtio_of(output)->scanouts[output->index];

	lockdep_assert_held(&output->lock);
	return sc->live && !atomic_read(&sc->inflight);
}

/* The frame counts as a command until mmx_virtio_present(). */
static void mmx_virtio_frame_begin(struct mmx_output *output)
{
	lockdep_assert_held(&output->lock);
	atomic_inc(&mmx_virtio_of(output)->scanouts[output->index].inflight);
}

/* Scanout resources */

static void mmx_virtio_create_done(struct mmx_virtio *vg,
				   struct mmx_vcmd *cmd, bool ok)
{
	if (ok)
		mmx_virtio_count(vg, MMX_STAT_LIVE_RESOURCES, 1);
}

static void mmx_virtio_unref_done(struct mmx_virtio *vg, struct mmx_vcmd *cmd,
				  bool ok)
{
	if (ok)
		mmx_virtio_count(vg, MMX_STAT_LIVE_RESOURCES, -1);
}

static void mmx_virtio_shadow_free(struct mmx_virtio *vg, void *shadow,
				   struct sg_table *sgt, bool dma_mapped)
{
	if (dma_mapped)
		dma_unmap_sgtable(vg->dma_dev, sgt, DMA_TO_DEVICE, 0);
	sg_free_table(sgt);
	vfree(shadow);
}

/* Allocate and map the shadow buffer; return its memory entries. */
static struct virtio_gpu_mem_entry *
mmx_virtio_shadow_alloc(struct mmx_virtio *vg, struct mmx_virtio_scanout *sc,
			unsigned int *nents)
{
	size_t size = PAGE_ALIGN((size_t)sc->width * sc->height * 4);
	unsigned int i, npages = size >> PAGE_SHIFT;
	struct virtio_gpu_mem_entry *ents;
	struct scatterlist *sg;
	struct page **pages;
	int ret;

	sc->shadow = vzalloc(size);
	if (!sc->shadow)
		return ERR_PTR(-ENOMEM);

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages) {
		ret = -ENOMEM;
		goto err_free_shadow;
	}
	for (i = 0; i < npages; i++)
		pages[i] = vmalloc_to_page(sc->shadow + i * PAGE_SIZE);
	ret = sg_alloc_table_from_pages(&sc->sgt, pages, npages, 0, size,
					GFP_KERNEL);
	kvfree(pages);
	if (ret)
		goto err_free_shadow;

	if (vg->use_dma_api) {
		ret = dma_map_sgtable(vg->dma_dev, &sc->sgt, DMA_TO_DEVICE, 0);
		if (ret)
			goto err_free_table;
		sc->dma_mapped = true;
	}

	*nents = vg->use_dma_api ? sc->sgt.nents : sc->sgt.orig_nents;
	ents = kvmalloc_array(*nents, sizeof(*ents), GFP_KERNEL);
	if (!ents) {
		ret = -ENOMEM;
		goto err_unmap;
	}
	if (vg->use_dma_api) {
		for_each_sgtable_dma_sg(&sc->sgt, sg, i) {
			ents[i].addr = cpu_to_le64(sg_dma_address(sg));
			ents[i].length = cpu_to_le32(sg_dma_len(sg));
			ents[i].padding = 0;
		}
	} else {
		for_each_sgtable_sg(&sc->sgt, sg, i) {
			ents[i].addr = cpu_to_le64(sg_phys(sg));
			ents[i].length = cpu_to_le32(sg->length);
			ents[i].padding = 0;
		}
	}
	return ents;

err_unmap:
	if (sc->dma_mapped)
		dma_unmap_sgtable(vg->dma_dev, &sc->sgt, DMA_TO_DEVICE, 0);
	sc->dma_mapped = false;
err_free_table:
	sg_free_table(&sc->sgt);
err_free_shadow:
	vfree(sc->shadow);
	sc->shadow = NULL;
	return ERR_PTR(ret);
}

static int mmx_virtio_set_scanout(struct mmx_virtio *vg,
				  struct mmx_virtio_scanout *sc,
				  u32 resource_id, u32 width, u32 height)
{
	struct virtio_gpu_set_scanout *set;
	struct mmx_vcmd *cmd;

	set = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_SET_SCANOUT, sizeof(*set),
				  NULL, &cmd);
	if (!set)
		return -ENOMEM;
	set->scanout_id = cpu_to_le32(sc->index);
	set->resource_id = cpu_to_le32(resource_id);
	set->r.width = cpu_to_le32(width);
	set->r.height = cpu_to_le32(height);
	return mmx_vcmd_queue(vg, cmd);
}

/*
 * Detach the scanout, free its resource and, once the host answered, the
 * shadow buffer. Called with the composer stopped.
 */
static void mmx_virtio_scanout_destroy(struct mmx_virtio *vg,
				       struct mmx_virtio_scanout *sc)
{
	struct drm_device *dev = &vg->mmx->drm;
	struct virtio_gpu_resource_unref *unref;
	struct mmx_virtio_orphan *orphan;
	struct mmx_vcmd *cmd;

	if (sc->resource_id) {
		mmx_virtio_set_scanout(vg, sc, 0, 0, 0);
		unref = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_UNREF,
					    sizeof(*unref),
					    mmx_virtio_unref_done, &cmd);
		if (unref) {
			unref->resource_id = cpu_to_le32(sc->resource_id);
			mmx_vcmd_queue(vg, cmd);
		}
		mmx_virtio_kick(vg);
	}

	if (wait_event_timeout(vg->ack_wq, !atomic_read(&sc->inflight),
			       MMX_VIRTIO_TIMEOUT)) {
		mmx_virtio_shadow_free(vg, sc->shadow, &sc->sgt,
				       sc->dma_mapped);
	} else {
		drm_err(dev, "virtio-gpu: scanout %u: the host does not answer, keeping its memory\n",
			sc->index);
		orphan = kzalloc(sizeof(*orphan), GFP_KERNEL);
		if (orphan) {
			orphan->shadow = sc->shadow;
			orphan->sgt = sc->sgt;
			orphan->dma_mapped = sc->dma_mapped;
			mutex_lock(&vg->orphans_lock);
			list_add_tail(&orphan->node, &vg->orphans);
			mutex_unlock(&vg->orphans_lock);
		}
	}
	if (sc->resource_id)
		ida_free(&vg->resource_ida, sc->resource_id);
	sc->resource_id = 0;
	sc->width = 0;
	sc->height = 0;
	sc->shadow = NULL;
	memset(&sc->sgt, 0, sizeof(sc->sgt));
	sc->dma_mapped = false;
}

/*
 * Create the host resource of @sc's size backed by a new shadow buffer and
 * show it on the scanout.
 */
static int mmx_virtio_scanout_create(struct mmx_virtio *vg,
				     struct mmx_virtio_scanout *sc)
{
	struct virtio_gpu_resource_attach_backing *attach;
	struct virtio_gpu_resource_create_2d *create;
	struct virtio_gpu_mem_entry *ents;
	struct mmx_vcmd *cmd;
	unsigned int nents;
	int id, ret;

	ents = mmx_virtio_shadow_alloc(vg, sc, &nents);
	if (IS_ERR(ents))
		return PTR_ERR(ents);

	id = ida_alloc_min(&vg->resource_ida, 1, GFP_KERNEL);
	if (id < 0) {
		ret = id;
		goto err_free_ents;
	}

	create = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_CREATE_2D,
				     sizeof(*create), mmx_virtio_create_done,
				     &cmd);
	if (!create) {
		ret = -ENOMEM;
		goto err_free_id;
	}
	create->resource_id = cpu_to_le32(id);
	create->format = cpu_to_le32(MMX_VIRTIO_FORMAT);
	create->width = cpu_to_le32(sc->width);
	create->height = cpu_to_le32(sc->height);
	ret = mmx_vcmd_queue(vg, cmd);
	if (ret)
		goto err_free_id;
	/* From here on, mmx_virtio_scanout_destroy() undoes everything. */
	sc->resource_id = id;

	attach = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING,
				     sizeof(*attach), NULL, &cmd);
	if (!attach) {
		ret = -ENOMEM;
		goto err_destroy;
	}
	attach->resource_id = cpu_to_le32(id);
	attach->nr_entries = cpu_to_le32(nents);
	cmd->data = ents;
	cmd->data_size = nents * sizeof(*ents);
	ents = NULL;
	ret = mmx_vcmd_queue(vg, cmd);
	if (ret)
		goto err_destroy;

	ret = mmx_virtio_set_scanout(vg, sc, id, sc->width, sc->height);
	if (ret)
		goto err_destroy;
	mmx_virtio_kick(vg);
	return 0;

err_destroy:
	kvfree(ents);
	mmx_virtio_scanout_destroy(vg, sc);
	return ret;

err_free_id:
	ida_free(&vg->resource_ida, id);
err_free_ents:
	kvfree(ents);
	mmx_virtio_shadow_free(vg, sc->shadow, &sc->sgt, sc->dma_mapped);
	sc->shadow = NULL;
	memset(&sc->sgt, 0, sizeof(sc->sgt));
	sc->dma_mapped = false;
	return ret;
}

/**
 * mmx_virtio_crtc_enable - show an output's CRTC on its host scanout
 * @output: the output, whose CRTC is being enabled
 *
 * Keeps the vblank running while the CRTC is on (frames go to the host at
 * vblank), creates the scanout's resource and damages the whole CRTC. A
 * failure is logged and leaves the scanout blank: a commit cannot fail any
 * more at this point.
 */
static void mmx_virtio_crtc_enable(struct mmx_output *output)
{
	struct mmx_virtio *vg = mmx_virtio_of(output);
	const struct drm_display_mode *mode = &output->crtc.state->mode;
	struct mmx_virtio_scanout *sc;
	struct drm_rect full;
	int ret;

	if (!vg)
		return;
	sc = &vg->scanouts[output->index];
	if (!sc->vblank_ref)
		sc->vblank_ref = !drm_crtc_vblank_get(&output->crtc);

	/* Kept by mmx_virtio_crtc_disable() for a modeset of the same size. */
	if (sc->shadow && sc->width == mode->hdisplay &&
	    sc->height == mode->vdisplay) {
		spin_lock_irq(&output->lock);
		sc->live = true;
		spin_unlock_irq(&output->lock);
		return;
	}
	if (sc->shadow)
		mmx_virtio_scanout_destroy(vg, sc);

	sc->width = mode->hdisplay;
	sc->height = mode->vdisplay;
	ret = mmx_virtio_scanout_create(vg, sc);
	if (ret) {
		drm_err(&vg->mmx->drm,
			"virtio-gpu: scanout %u: no %dx%d resource: %d\n",
			sc->index, mode->hdisplay, mode->vdisplay, ret);
		sc->width = 0;
		sc->height = 0;
		return;
	}

	drm_rect_init(&full, 0, 0, sc->width, sc->height);
	spin_lock_irq(&output->lock);
	mmx_damage_reset(output, &full);
	sc->live = true;
	spin_unlock_irq(&output->lock);
}

/**
 * mmx_virtio_crtc_disable - detach an output's host scanout
 * @output: the output, whose CRTC is being disabled and whose composer
 *	has been drained
 * @state: the commit
 *
 * Lets the vblank stop. Unless the commit enables the CRTC again with a
 * mode of the same size, detaches the scanout and frees its resource and
 * shadow buffer; otherwise the resource and the pending damage are kept
 * for mmx_virtio_crtc_enable().
 */
static void mmx_virtio_crtc_disable(struct mmx_output *output,
				    struct drm_atomic_state *state)
{
	struct mmx_virtio *vg = mmx_virtio_of(output);
	const struct drm_crtc_state *crtc_state;
	struct mmx_virtio_scanout *sc;
	bool keep;

	if (!vg)
		return;
	sc = &vg->scanouts[output->index];
	crtc_state = drm_atomic_get_new_crtc_state(state, &output->crtc);
	keep = crtc_state && crtc_state->active &&
	       crtc_state->mode.hdisplay == sc->width &&
	       crtc_state->mode.vdisplay == sc->height;

	spin_lock_irq(&output->lock);
	sc->live = false;
	if (!keep)
		mmx_damage_reset(output, NULL);
	spin_unlock_irq(&output->lock);

	if (sc->vblank_ref)
		drm_crtc_vblank_put(&output->crtc);
	sc->vblank_ref = false;

	if (sc->shadow && !keep)
		mmx_virtio_scanout_destroy(vg, sc);
}

static void mmx_virtio_rect(struct virtio_gpu_rect *dst,
			    const struct drm_rect *src)
{
	dst->x = cpu_to_le32(src->x1);
	dst->y = cpu_to_le32(src->y1);
	dst->width = cpu_to_le32(drm_rect_width(src));
	dst->height = cpu_to_le32(drm_rect_height(src));
}

/* Copy the damaged rectangles to the shadow buffer and send them. */
static void mmx_virtio_send(struct mmx_virtio *vg, struct mmx_output *output,
			    struct mmx_virtio_scanout *sc,
			    const struct mmx_frame *frame,
			    const struct mmx_damage *damage)
{
	struct virtio_gpu_transfer_to_host_2d *transfer;
	struct virtio_gpu_resource_flush *flush;
	struct mmx_damage unsent = {};
	struct drm_rect bounds, r;
	struct mmx_vcmd *cmd;
	unsigned int i;
	int y;

	drm_rect_init(&bounds, 0, 0, min(frame->width, sc->width),
		      min(frame->height, sc->height));
	for (i = 0; i < damage->count; i++) {
		r = damage->rects[i];
		if (!drm_rect_intersect(&r, &bounds))
			continue;
		for (y = r.y1; y < r.y2; y++)
			memcpy((u32 *)sc->shadow + (size_t)y * sc->width + r.x1,
			       frame->pixels + (size_t)y * frame->stride + r.x1,
			       drm_rect_width(&r) * 4);
	}
	if (sc->dma_mapped)
		dma_sync_sgtable_for_device(vg->dma_dev, &sc->sgt,
					    DMA_TO_DEVICE);

	for (i = 0; i < damage->count; i++) {
		r = damage->rects[i];
		if (!drm_rect_intersect(&r, &bounds))
			continue;

		transfer = mmx_vcmd_new_nodata(sc,
					       VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D,
					       sizeof(*transfer), NULL, &cmd);
		if (!transfer)
			goto unsent;
		transfer->resource_id = cpu_to_le32(sc->resource_id);
		transfer->offset = cpu_to_le64(((u64)r.y1 * sc->width + r.x1) * 4);
		mmx_virtio_rect(&transfer->r, &r);
		if (mmx_vcmd_queue(vg, cmd))
			goto unsent;
		mmx_virtio_count(vg, MMX_STAT_BYTES, (u64)drm_rect_width(&r) * drm_rect_height(&r) * 4);
		mmx_virtio_count(vg, MMX_STAT_TRANSFERS, 1);

		flush = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_FLUSH,
					    sizeof(*flush), NULL, &cmd);
		if (!flush)
			goto unsent;
		flush->resource_id = cpu_to_le32(sc->resource_id);
		mmx_virtio_rect(&flush->r, &r);
		if (mmx_vcmd_queue(vg, cmd))
			goto unsent;
		continue;
unsent:
		mmx_damage_add(&unsent, &r);
	}
	mmx_virtio_kick(vg);
	mmx_virtio_count(vg, MMX_STAT_FRAMES, 1);

	if (!unsent.count)
		return;
	spin_lock_irq(&output->lock);
	mmx_damage_merge(output, &unsent);
	spin_unlock_irq(&output->lock);
}

/**
 * mmx_virtio_present - send the damaged part of a composed frame to the host
 * @output: the output
 * @frame: the frame just composed, or NULL if composition failed
 * @damage: the damage taken with mmx_damage_take()
 *
 * Copies the damaged rectangles into the shadow buffer and sends each with
 * TRANSFER_TO_HOST_2D and RESOURCE_FLUSH. Rectangles that could not be sent
 * are damage again. Runs in the composer, which may sleep.
 */
static void mmx_virtio_present(struct mmx_output *output,
			       const struct mmx_frame *frame,
			       const struct mmx_damage *damage)
{
	struct mmx_virtio *vg = mmx_virtio_of(output);
	struct mmx_virtio_scanout *sc;

	if (!vg)
		return;
	sc = &vg->scanouts[output->index];
	if (frame && sc->shadow)
		mmx_virtio_send(vg, output, sc, frame, damage);
	atomic_dec(&sc->inflight);
	wake_up_all(&vg->ack_wq);
}

/* debugfs */

static void mmx_virtio_stats_show(struct seq_file *m,
				  struct mmx_virtio_stats *stats)
{
	unsigned int i;

	for (i = 0; i < MMX_STAT_COUNT; i++)
		seq_printf(m, "%s: %lld\n", mmx_virtio_stat_names[i],
			   (long long)mmx_virtio_stat(stats, i));
}

static int mmx_virtio_device_show(struct seq_file *m, void *data)
{
	struct mmx_virtio *vg = m->private;
	unsigned int i, damage;
	bool enabled, live;
	u32 w, h;
	size_t edid_len;

	seq_printf(m, "scanouts: %u\n", vg->num_scanouts);
	seq_printf(m, "features:%s%s\n", vg->has_edid ? " edid" : "",
		   vg->use_dma_api ? " access_platform" : "");
	mmx_virtio_stats_show(m, &vg->stats);
	for (i = 0; i < vg->num_scanouts; i++) {
		struct mmx_virtio_scanout *sc = &vg->scanouts[i];
		struct mmx_output *output = &vg->mmx->outputs[i];

		spin_lock_irq(&vg->info_lock);
		enabled = sc->host_enabled;
		w = sc->host_width;
		h = sc->host_height;
		edid_len = sc->edid_len;
		spin_unlock_irq(&vg->info_lock);
		spin_lock_irq(&output->lock);
		live = sc->live;
		damage = vg->mmx->outputs[i].damage.count;
		spin_unlock_irq(&output->lock);

		seq_printf(m, "scanout %u: host %s %ux%u edid %zu, resource %u %ux%u%s, damage %u, inflight %d\n",
			   i, enabled ? "enabled" : "disabled", w, h, edid_len,
			   sc->resource_id, sc->width, sc->height,
			   live ? " live" : "", damage,
			   atomic_read(&sc->inflight));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_virtio_device);

/* Send a command the host must refuse: tests the error path. */
static ssize_t mmx_virtio_inject_write(struct file *file,
				       const char __user *buf, size_t len,
				       loff_t *ppos)
{
	struct mmx_virtio *vg = file->private_data;
	struct virtio_gpu_resource_flush *flush;
	struct mmx_vcmd *cmd;
	int ret;

	flush = mmx_vcmd_new_nodata(NULL, VIRTIO_GPU_CMD_RESOURCE_FLUSH,
				    sizeof(*flush), NULL, &cmd);
	if (!flush)
		return -ENOMEM;
	/* Resource ids come from an IDA: never this one. */
	flush->resource_id = cpu_to_le32(U32_MAX);
	flush->r.width = cpu_to_le32(1);
	flush->r.height = cpu_to_le32(1);
	ret = mmx_vcmd_queue(vg, cmd);
	if (ret)
		return ret;
	mmx_virtio_kick(vg);
	return len;
}

static const struct file_operations mmx_virtio_inject_fops = {
	.owner = THIS_MODULE,
	.open = simple_open,
	.write = mmx_virtio_inject_write,
	.llseek = noop_llseek,
};

static int mmx_virtio_totals_show(struct seq_file *m, void *data)
{
	seq_printf(m, "devices: %d\n", atomic_read(&mmx_virtio_bound));
	mmx_virtio_stats_show(m, &mmx_virtio_totals);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_virtio_totals);

/* The virtio driver */

static void mmx_virtio_release(struct drm_device *dev, void *data)
{
	struct mmx_virtio *vg = data;

	ida_destroy(&vg->resource_ida);
	mutex_destroy(&vg->orphans_lock);
}

static int mmx_virtio_start(struct mmx_virtio *vg)
{
	struct virtio_device *vdev = vg->vdev;
	struct virtqueue *vq;

	vg->has_edid = virtio_has_feature(vdev, VIRTIO_GPU_F_EDID);
	vg->use_dma_api = !virtio_has_dma_quirk(vdev);
	vg->dma_dev = vdev->dev.parent;

	vq = virtio_find_single_vq(vdev, mmx_virtio_ctrl_ack, "control");
	if (IS_ERR(vq))
		return PTR_ERR(vq);
	vg->ctrlq = vq;
	virtio_device_ready(vdev);

	spin_lock_irq(&vg->qlock);
	vg->ready = true;
	spin_unlock_irq(&vg->qlock);
	return 0;
}

/* Reset the device: no more commands, every buffer back to us. */
static void mmx_virtio_stop(struct mmx_virtio *vg)
{
	struct mmx_virtio_orphan *orphan, *next;
	struct mmx_vcmd *cmd;

	spin_lock_irq(&vg->qlock);
	vg->ready = false;
	spin_unlock_irq(&vg->qlock);
	wake_up_all(&vg->ack_wq);

	virtio_reset_device(vg->vdev);
	/* Answers that came before the reset, then what never got one. */
	mmx_virtio_ctrl_ack(vg->ctrlq);
	while ((cmd = virtqueue_detach_unused_buf(vg->ctrlq))) {
		if (cmd->scanout)
			atomic_dec(&cmd->scanout->inflight);
		mmx_vcmd_free(cmd);
	}
	vg->vdev->config->del_vqs(vg->vdev);

	mutex_lock(&vg->orphans_lock);
	list_for_each_entry_safe(orphan, next, &vg->orphans, node) {
		mmx_virtio_shadow_free(vg, orphan->shadow, &orphan->sgt,
				       orphan->dma_mapped);
		list_del(&orphan->node);
		kfree(orphan);
	}
	mutex_unlock(&vg->orphans_lock);
}

static const struct mmx_backend_funcs mmx_virtio_funcs = {
	.detect = mmx_virtio_detect,
	.get_modes = mmx_virtio_get_modes,
	.crtc_enable = mmx_virtio_crtc_enable,
	.crtc_disable = mmx_virtio_crtc_disable,
	.frame_ready = mmx_virtio_frame_ready,
	.frame_begin = mmx_virtio_frame_begin,
	.present = mmx_virtio_present,
};

static int mmx_virtio_probe(struct virtio_device *vdev)
{
	struct mmx_config config = {};
	struct mmx_device *mmx;
	struct mmx_virtio *vg;
	u32 num_scanouts;
	unsigned int i;
	int ret;

	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1))
		return -ENODEV;

	virtio_cread_le(vdev, struct virtio_gpu_config, num_scanouts,
			&num_scanouts);
	if (!num_scanouts) {
		dev_err(&vdev->dev, "mmx: the virtio-gpu device has no scanout\n");
		return -ENODEV;
	}
	if (num_scanouts > MMX_MAX_OUTPUTS) {
		dev_info(&vdev->dev, "mmx: using %d of %u scanouts\n",
			 MMX_MAX_OUTPUTS, num_scanouts);
		num_scanouts = MMX_MAX_OUTPUTS;
	}

	mmx = mmx_device_alloc(&vdev->dev);
	if (IS_ERR(mmx))
		return PTR_ERR(mmx);
	vg = drmm_kzalloc(&mmx->drm, sizeof(*vg), GFP_KERNEL);
	if (!vg)
		return -ENOMEM;
	vg->mmx = mmx;
	vg->vdev = vdev;
	vg->num_scanouts = num_scanouts;
	for (i = 0; i < num_scanouts; i++)
		vg->scanouts[i].index = i;
	spin_lock_init(&vg->qlock);
	spin_lock_init(&vg->info_lock);
	init_waitqueue_head(&vg->ack_wq);
	INIT_WORK(&vg->config_work, mmx_virtio_config_work);
	ida_init(&vg->resource_ida);
	mutex_init(&vg->orphans_lock);
	INIT_LIST_HEAD(&vg->orphans);
	ret = drmm_add_action_or_reset(&mmx->drm, mmx_virtio_release, vg);
	if (ret)
		return ret;
	vdev->priv = vg;
	mmx->backend = &mmx_virtio_funcs;
	mmx->backend_data = vg;

	ret = mmx_virtio_start(vg);
	if (ret)
		return ret;
	ret = mmx_virtio_query_displays(vg);
	if (ret)
		goto err_stop;

	config.num_outputs = num_scanouts;
	for (i = 0; i < num_scanouts; i++)
		config.kinds[i] = MMX_KIND_DP;
	ret = mmx_device_register(mmx, &config);
	if (ret)
		goto err_stop;

	debugfs_create_file("virtio", 0444, mmx->drm.primary->debugfs_root,
			    vg, &mmx_virtio_device_fops);
	debugfs_create_file("virtio_inject_error", 0200,
			    mmx->drm.primary->debugfs_root, vg,
			    &mmx_virtio_inject_fops);
	atomic_inc(&mmx_virtio_bound);
	drm_info(&mmx->drm, "virtio-gpu: %u scanouts%s\n", num_scanouts,
		 vg->has_edid ? ", EDID" : "");
	return 0;

err_stop:
	mmx_virtio_stop(vg);
	return ret;
}

static void mmx_virtio_remove(struct virtio_device *vdev)
{
	struct mmx_virtio *vg = vdev->priv;
	struct drm_device *dev = &vg->mmx->drm;
	s64 live;

	cancel_work_sync(&vg->config_work);
	drm_kms_helper_poll_fini(dev);
	drm_dev_unplug(dev);
	/* Disables every CRTC: detaches the scanouts, frees the resources. */
	drm_atomic_helper_shutdown(dev);
	mmx_virtio_stop(vg);

	live = mmx_virtio_stat(&vg->stats, MMX_STAT_LIVE_RESOURCES);
	if (live)
		drm_err(dev, "virtio-gpu: %lld host resources still referenced\n",
			(long long)live);
	atomic_dec(&mmx_virtio_bound);
}

static const struct virtio_device_id mmx_virtio_ids[] = {
	{ VIRTIO_ID_GPU, VIRTIO_DEV_ANY_ID },
	{ 0 },
};

static const unsigned int mmx_virtio_features[] = {
	VIRTIO_GPU_F_EDID,
};

static struct virtio_driver mmx_virtio_driver = {
	.feature_table = mmx_virtio_features,
	.feature_table_size = ARRAY_SIZE(mmx_virtio_features),
	.driver.name = KBUILD_MODNAME,
	.driver.owner = THIS_MODULE,
	.id_table = mmx_virtio_ids,
	.probe = mmx_virtio_probe,
	.remove = mmx_virtio_remove,
	.config_changed = mmx_virtio_config_changed,
};

static int __init mmx_virtio_init(void)
{
	int ret;

	mmx_virtio_debugfs_root = debugfs_create_dir(MMX_DRIVER_NAME, NULL);
	debugfs_create_file("virtio", 0444, mmx_virtio_debugfs_root, NULL,
			    &mmx_virtio_totals_fops);

	/* The virtio-gpu devices present are probed before this returns. */
	ret = register_virtio_driver(&mmx_virtio_driver);
	if (ret)
		debugfs_remove_recursive(mmx_virtio_debugfs_root);
	return ret;
}

static void __exit mmx_virtio_exit(void)
{
	unregister_virtio_driver(&mmx_virtio_driver);
	debugfs_remove_recursive(mmx_virtio_debugfs_root);
}

module_init(mmx_virtio_init);
module_exit(mmx_virtio_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION("mmx virtio-gpu backend");
MODULE_LICENSE("GPL");
/* The virtio-gpu devices must exist when the virtio driver registers. */
MODULE_SOFTDEP("pre: virtio_pci");
