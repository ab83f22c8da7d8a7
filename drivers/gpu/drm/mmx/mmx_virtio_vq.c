// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend's transport: commands on the control queue, their
 * answers in the queue's interrupt, and the queue's setup and reset.
 */

#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ring.h>

#include <drm/drm_managed.h>
#include <drm/drm_print.h>

#include "mmx_virtio.h"

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
void *mmx_vcmd_new(struct mmx_virtio_scanout *scanout, u32 type,
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
 * The scatterlist of @cmd's data: @one for kmalloc memory, or @sgt,
 * allocated here and freed by the caller, for vmalloc memory, whose pages
 * are not contiguous; *@sgl is set to its first entry.
 * Return: its number of entries, or a negative errno.
 */
static int mmx_vcmd_data_sg(struct mmx_vcmd *cmd, struct scatterlist *one,
			    struct sg_table *sgt, struct scatterlist **sgl)
{
	size_t left = cmd->data_size;
	u8 *p = cmd->data;
	struct scatterlist *sg;
	unsigned int i, n;
	int ret;

	if (!is_vmalloc_addr(cmd->data)) {
		sg_init_one(one, cmd->data, cmd->data_size);
		*sgl = one;
		return 1;
	}

	n = DIV_ROUND_UP(cmd->data_size + offset_in_page(cmd->data),
			 PAGE_SIZE);
	ret = sg_alloc_table(sgt, n, GFP_KERNEL);
	if (ret)
		return ret;
	for_each_sgtable_sg(sgt, sg, i) {
		size_t len = min_t(size_t, left, PAGE_SIZE - offset_in_page(p));

		sg_set_page(sg, vmalloc_to_page(p), len, offset_in_page(p));
		p += len;
		left -= len;
	}
	*sgl = sgt->sgl;
	return n;
}

/*
 * Add @cmd, whose buffers are @sgs (@out of them sent, one received), to
 * the control queue. Return: 0, -ENOSPC when the queue is full, or another
 * negative errno.
 */
static int mmx_vcmd_add(struct mmx_virtio *vg, struct mmx_vcmd *cmd,
			struct scatterlist **sgs, unsigned int out)
{
	unsigned long flags;
	int ret;

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
	return ret;
}

/*
 * Let the host drain the control queue: notify it, then wait (a tenth of
 * a second at most) for @need free descriptors or the device to go.
 */
static void mmx_vcmd_wait_room(struct mmx_virtio *vg, unsigned int need)
{
	unsigned long flags;

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

/*
 * Queue @cmd on the control queue without notifying the host; waits (at
 * most MMX_VIRTIO_TIMEOUT) for room. On failure, frees @cmd.
 */
int mmx_vcmd_queue(struct mmx_virtio *vg, struct mmx_vcmd *cmd)
{
	struct scatterlist cmd_sg, data_sg, resp_sg, *sgs[3];
	unsigned long deadline = jiffies + MMX_VIRTIO_TIMEOUT;
	struct sg_table data_sgt = {};
	unsigned int out = 0, need = 2;
	int ret;

	sg_init_one(&cmd_sg, cmd->buf, cmd->cmd_size);
	sgs[out++] = &cmd_sg;
	if (cmd->data_size) {
		ret = mmx_vcmd_data_sg(cmd, &data_sg, &data_sgt, &sgs[out++]);
		if (ret < 0)
			goto err_free;
		need += ret;
	}
	sg_init_one(&resp_sg, cmd->resp, cmd->resp_size);
	sgs[out] = &resp_sg;

	while ((ret = mmx_vcmd_add(vg, cmd, sgs, out)) == -ENOSPC &&
	       !time_after(jiffies, deadline))
		mmx_vcmd_wait_room(vg, need);
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
void mmx_virtio_kick(struct mmx_virtio *vg)
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
void *mmx_vcmd_new_nodata(struct mmx_virtio_scanout *scanout,
			  u32 type, size_t cmd_size,
			  mmx_vcmd_done_t done, struct mmx_vcmd **cmdp)
{
	return mmx_vcmd_new(scanout, type, cmd_size,
			    sizeof(struct virtio_gpu_ctrl_hdr), done, cmdp);
}

void mmx_virtio_release(struct drm_device *dev, void *data)
{
	struct mmx_virtio *vg = data;

	ida_destroy(&vg->resource_ida);
	mutex_destroy(&vg->orphans_lock);
}

int mmx_virtio_start(struct mmx_virtio *vg)
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
void mmx_virtio_stop(struct mmx_virtio *vg)
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
