// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend's driver: the module, the virtio driver, probe and
 * remove. Every CRTC's composed frame is shown on one host scanout.
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

#include <linux/module.h>
#include <linux/virtio_config.h>
#include <linux/virtio_ids.h>

#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_managed.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>

#include "mmx_virtio.h"

/* Totals of every device since the module loaded. */
struct mmx_virtio_stats mmx_virtio_totals;
atomic_t mmx_virtio_bound = ATOMIC_INIT(0);

DEFINE_MMX_DRM_DRIVER(mmx_virtio_drm_driver);

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

	mmx = mmx_device_alloc(&vdev->dev, &mmx_virtio_drm_driver);
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

	mmx_virtio_debugfs_device(vg);
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

	mmx_virtio_debugfs_module_init();

	/* The virtio-gpu devices present are probed before this returns. */
	ret = register_virtio_driver(&mmx_virtio_driver);
	if (ret)
		mmx_virtio_debugfs_module_exit();
	return ret;
}

static void __exit mmx_virtio_exit(void)
{
	unregister_virtio_driver(&mmx_virtio_driver);
	mmx_virtio_debugfs_module_exit();
}

module_init(mmx_virtio_init);
module_exit(mmx_virtio_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION("mmx virtio-gpu backend");
MODULE_LICENSE("GPL");
