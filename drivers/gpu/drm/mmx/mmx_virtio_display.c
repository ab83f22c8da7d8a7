// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend's displays: what the host reports (scanouts,
 * EDID), the connectors' modes, and the scanout resources that show each
 * CRTC's composed frames.
 */

#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/virtio_config.h>

#include <drm/drm_atomic.h>
#include <drm/drm_edid.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "mmx_virtio.h"

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
int mmx_virtio_query_displays(struct mmx_virtio *vg)
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

/**
 * struct mmx_virtio_edid_copy - the host's EDID of a scanout, as read
 * @edid: the bytes
 * @len: how many, 0 when the host gave none
 */
struct mmx_virtio_edid_copy {
	const u8 *edid;
	size_t len;
};

/* Block @block of the host's EDID, for the DRM core's EDID reading. */
static int mmx_virtio_edid_block(void *context, u8 *buf, unsigned int block,
				 size_t len)
{
	const struct mmx_virtio_edid_copy *copy = context;
	size_t start = (size_t)block * EDID_LENGTH;

	if (start >= copy->len || len > copy->len - start)
		return -EINVAL;
	memcpy(buf, copy->edid + start, len);
	return 0;
}

/* Without a size from the host: the EDID's preferred mode, else 1024x768. */
static void mmx_virtio_prefer_default(struct drm_connector *connector)
{
	struct drm_display_mode *mode;

	list_for_each_entry(mode, &connector->probed_modes, head) {
		if (mode->type & DRM_MODE_TYPE_PREFERRED)
			return;
	}
	drm_set_preferred_mode(connector, 1024, 768);
}

/*
 * The size the host shows is the preferred mode, and only it; a CVT mode
 * of that size is added when no mode has it.
 * Return: the number of modes added.
 */
static int mmx_virtio_prefer_host_size(struct drm_connector *connector,
				       u32 width, u32 height)
{
	struct drm_display_mode *mode;
	bool found = false;

	list_for_each_entry(mode, &connector->probed_modes, head) {
		if (mode->hdisplay == width && mode->vdisplay == height) {
			mode->type |= DRM_MODE_TYPE_PREFERRED;
			found = true;
		} else {
			mode->type &= ~DRM_MODE_TYPE_PREFERRED;
		}
	}
	if (found)
		return 0;
	mode = drm_cvt_mode(connector->dev, width, height, 60, false, false,
			    false);
	if (!mode)
		return 0;
	mode->type |= DRM_MODE_TYPE_DRIVER | DRM_MODE_TYPE_PREFERRED;
	drm_mode_probed_add(connector, mode);
	return 1;
}

/**
 * mmx_virtio_get_modes - the modes of a virtio-gpu output
 * @output: the output
 *
 * Reads the host's EDID through the DRM core (so that debugfs
 * ``edid_override`` and ``drm.edid_firmware`` replace it as on any
 * driver), sets the connector's EDID property from it and adds its modes
 * as the virtual backend's connectors do (mmx_connector_add_edid()), or
 * the DMT modes up to 1920x1200 without one; the host's current
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
	struct mmx_virtio_edid_copy copy = {};
	const struct drm_edid *drm_edid;
	u32 width, height;
	bool enabled;
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

	copy.edid = edid;
	copy.len = len;
	drm_edid = drm_edid_read_custom(connector, mmx_virtio_edid_block, &copy);
	kfree(edid);
	count = mmx_connector_add_edid(connector, drm_edid);
	drm_edid_free(drm_edid);

	if (!count)
		count = drm_add_modes_noedid(connector,
					     MMX_VIRTIO_NOEDID_WIDTH,
					     MMX_VIRTIO_NOEDID_HEIGHT);

	if (!enabled || !width || !height) {
		mmx_virtio_prefer_default(connector);
		return count;
	}
	return count + mmx_virtio_prefer_host_size(connector, width, height);
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

void mmx_virtio_config_work(struct work_struct *work)
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

void mmx_virtio_config_changed(struct virtio_device *vdev)
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

void mmx_virtio_shadow_free(struct mmx_virtio *vg, void *shadow,
			    struct sg_table *sgt, bool dma_mapped)
{
	if (dma_mapped)
		dma_unmap_sgtable(vg->dma_dev, sgt, DMA_TO_DEVICE, 0);
	sg_free_table(sgt);
	vfree(shadow);
}

/* The scatter table of the shadow buffer's @size bytes (vmalloc pages). */
static int mmx_virtio_shadow_table(struct mmx_virtio_scanout *sc,
				   size_t size)
{
	unsigned int i, npages = size >> PAGE_SHIFT;
	struct page **pages;
	int ret;

	pages = kvmalloc_array(npages, sizeof(*pages), GFP_KERNEL);
	if (!pages)
		return -ENOMEM;
	for (i = 0; i < npages; i++)
		pages[i] = vmalloc_to_page(sc->shadow + i * PAGE_SIZE);
	ret = sg_alloc_table_from_pages(&sc->sgt, pages, npages, 0, size,
					GFP_KERNEL);
	kvfree(pages);
	return ret;
}

/*
 * The memory entries the host attaches to the resource, one per segment of
 * the shadow buffer's table (DMA addresses when the DMA API is used).
 * Return: the entries (kvmalloc()), *@nents of them, or NULL.
 */
static struct virtio_gpu_mem_entry *
mmx_virtio_mem_entries(struct mmx_virtio *vg, struct mmx_virtio_scanout *sc,
		       unsigned int *nents)
{
	struct virtio_gpu_mem_entry *ents;
	struct scatterlist *sg;
	unsigned int i;

	*nents = vg->use_dma_api ? sc->sgt.nents : sc->sgt.orig_nents;
	ents = kvmalloc_array(*nents, sizeof(*ents), GFP_KERNEL);
	if (!ents)
		return NULL;
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
}

/* Allocate and map the shadow buffer; return its memory entries. */
static struct virtio_gpu_mem_entry *
mmx_virtio_shadow_alloc(struct mmx_virtio *vg, struct mmx_virtio_scanout *sc,
			unsigned int *nents)
{
	size_t size = PAGE_ALIGN((size_t)sc->width * sc->height * 4);
	struct virtio_gpu_mem_entry *ents;
	int ret;

	sc->shadow = vzalloc(size);
	if (!sc->shadow)
		return ERR_PTR(-ENOMEM);
	ret = mmx_virtio_shadow_table(sc, size);
	if (ret)
		goto err_free_shadow;

	if (vg->use_dma_api) {
		ret = dma_map_sgtable(vg->dma_dev, &sc->sgt, DMA_TO_DEVICE, 0);
		if (ret)
			goto err_free_table;
		sc->dma_mapped = true;
	}

	ents = mmx_virtio_mem_entries(vg, sc, nents);
	if (!ents) {
		ret = -ENOMEM;
		goto err_unmap;
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

/* Ask the host for the scanout's 2D resource @id. */
static int mmx_virtio_create_2d(struct mmx_virtio *vg,
				struct mmx_virtio_scanout *sc, u32 id)
{
	struct virtio_gpu_resource_create_2d *create;
	struct mmx_vcmd *cmd;

	create = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_CREATE_2D,
				     sizeof(*create), mmx_virtio_create_done,
				     &cmd);
	if (!create)
		return -ENOMEM;
	create->resource_id = cpu_to_le32(id);
	create->format = cpu_to_le32(MMX_VIRTIO_FORMAT);
	create->width = cpu_to_le32(sc->width);
	create->height = cpu_to_le32(sc->height);
	return mmx_vcmd_queue(vg, cmd);
}

/*
 * Attach the shadow buffer, its @nents memory entries @ents, to the
 * scanout's resource. @ents goes with the command: it is freed in any case.
 */
static int mmx_virtio_attach_backing(struct mmx_virtio *vg,
				     struct mmx_virtio_scanout *sc,
				     struct virtio_gpu_mem_entry *ents,
				     unsigned int nents)
{
	struct virtio_gpu_resource_attach_backing *attach;
	struct mmx_vcmd *cmd;

	attach = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_ATTACH_BACKING,
				     sizeof(*attach), NULL, &cmd);
	if (!attach) {
		kvfree(ents);
		return -ENOMEM;
	}
	attach->resource_id = cpu_to_le32(sc->resource_id);
	attach->nr_entries = cpu_to_le32(nents);
	cmd->data = ents;
	cmd->data_size = nents * sizeof(*ents);
	return mmx_vcmd_queue(vg, cmd);
}

/*
 * Create the host resource of @sc's size backed by a new shadow buffer and
 * show it on the scanout.
 */
static int mmx_virtio_scanout_create(struct mmx_virtio *vg,
				     struct mmx_virtio_scanout *sc)
{
	struct virtio_gpu_mem_entry *ents;
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
	ret = mmx_virtio_create_2d(vg, sc, id);
	if (ret)
		goto err_free_id;
	/* From here on, mmx_virtio_scanout_destroy() undoes everything. */
	sc->resource_id = id;

	ret = mmx_virtio_attach_backing(vg, sc, ents, nents);
	if (ret)
		goto err_destroy;
	ret = mmx_virtio_set_scanout(vg, sc, id, sc->width, sc->height);
	if (ret)
		goto err_destroy;
	mmx_virtio_kick(vg);
	return 0;

err_destroy:
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
				    struct mmx_atomic_state *state)
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

/**
 * mmx_virtio_queue_flush - queue a resource flush
 * @vg: the device
 * @sc: the scanout it is for, NULL for none
 * @resource_id: the resource to flush to the display
 * @r: the rectangle to flush
 *
 * The host is not notified (see mmx_virtio_kick()).
 *
 * Return: 0 or a negative errno.
 */
int mmx_virtio_queue_flush(struct mmx_virtio *vg,
			   struct mmx_virtio_scanout *sc, u32 resource_id,
			   const struct drm_rect *r)
{
	struct virtio_gpu_resource_flush *flush;
	struct mmx_vcmd *cmd;

	flush = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_RESOURCE_FLUSH,
				    sizeof(*flush), NULL, &cmd);
	if (!flush)
		return -ENOMEM;
	flush->resource_id = cpu_to_le32(resource_id);
	mmx_virtio_rect(&flush->r, r);
	return mmx_vcmd_queue(vg, cmd);
}

/* Copy what @damage covers of @frame, within @bounds, to the shadow. */
static void mmx_virtio_copy_damage(struct mmx_virtio *vg,
				   struct mmx_virtio_scanout *sc,
				   const struct mmx_frame *frame,
				   const struct mmx_damage *damage,
				   const struct drm_rect *bounds)
{
	struct drm_rect r;
	unsigned int i;
	int y;

	for (i = 0; i < damage->count; i++) {
		r = damage->rects[i];
		if (!drm_rect_intersect(&r, bounds))
			continue;
		for (y = r.y1; y < r.y2; y++)
			memcpy((u32 *)sc->shadow + (size_t)y * sc->width + r.x1,
			       frame->pixels + (size_t)y * frame->stride + r.x1,
			       drm_rect_width(&r) * 4);
	}
	if (sc->dma_mapped)
		dma_sync_sgtable_for_device(vg->dma_dev, &sc->sgt,
					    DMA_TO_DEVICE);
}

/*
 * Queue the transfer of the shadow's rectangle @r to the host's resource
 * and its flush to the display. Return: 0, or a negative errno when either
 * could not be queued.
 */
static int mmx_virtio_send_rect(struct mmx_virtio *vg,
				struct mmx_virtio_scanout *sc,
				const struct drm_rect *r)
{
	struct virtio_gpu_transfer_to_host_2d *transfer;
	struct mmx_vcmd *cmd;
	int ret;

	transfer = mmx_vcmd_new_nodata(sc, VIRTIO_GPU_CMD_TRANSFER_TO_HOST_2D,
				       sizeof(*transfer), NULL, &cmd);
	if (!transfer)
		return -ENOMEM;
	transfer->resource_id = cpu_to_le32(sc->resource_id);
	transfer->offset = cpu_to_le64(((u64)r->y1 * sc->width + r->x1) * 4);
	mmx_virtio_rect(&transfer->r, r);
	ret = mmx_vcmd_queue(vg, cmd);
	if (ret)
		return ret;
	mmx_virtio_count(vg, MMX_STAT_BYTES,
			 (u64)drm_rect_width(r) * drm_rect_height(r) * 4);
	mmx_virtio_count(vg, MMX_STAT_TRANSFERS, 1);
	return mmx_virtio_queue_flush(vg, sc, sc->resource_id, r);
}

/* Copy the damaged rectangles to the shadow buffer and send them. */
static void mmx_virtio_send(struct mmx_virtio *vg, struct mmx_output *output,
			    struct mmx_virtio_scanout *sc,
			    const struct mmx_frame *frame,
			    const struct mmx_damage *damage)
{
	struct mmx_damage unsent = {};
	struct drm_rect bounds, r;
	unsigned int i;

	drm_rect_init(&bounds, 0, 0, min(frame->width, sc->width),
		      min(frame->height, sc->height));
	mmx_virtio_copy_damage(vg, sc, frame, damage, &bounds);

	for (i = 0; i < damage->count; i++) {
		r = damage->rects[i];
		if (!drm_rect_intersect(&r, &bounds))
			continue;
		if (mmx_virtio_send_rect(vg, sc, &r))
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

const struct mmx_backend_funcs mmx_virtio_funcs = {
	.detect = mmx_virtio_detect,
	.get_modes = mmx_virtio_get_modes,
	.crtc_enable = mmx_virtio_crtc_enable,
	.crtc_disable = mmx_virtio_crtc_disable,
	.frame_ready = mmx_virtio_frame_ready,
	.frame_begin = mmx_virtio_frame_begin,
	.present = mmx_virtio_present,
	/* A CRTC's frames go to the scanout of the same index. */
	.fixed_routing = true,
};
