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
 * On a virtual machine with a virtio-gpu device (QEMU ``-device
 * virtio-gpu-pci,max_outputs=N,edid=on`` or ``-device virtio-vga``) mmx
 * drives the device, with the same KMS objects, properties, compositor, CRC
 * and writeback as the virtual backend, and QEMU shows what mmx composes.
 *
 * Binding
 *     ``mmx_virtio`` registers a virtio driver (``mmx_virtio``) for the
 *     virtio GPU device id; every virtio-gpu device present or appearing
 *     later binds, and becomes an mmx DRM device (the core, ``mmx_core``, is
 *     loaded with it; the virtual backend, ``mmx``, is not). Keeping the
 *     backend in its own module means that loading or removing ``mmx`` never
 *     touches the virtio modules, which may hold the machine's root disk.
 *     ``mmx_virtio`` declares no module alias for the device, so udev never
 *     loads it in place of Debian's ``virtio_gpu``: load it by hand.
 *     ``virtio_gpu`` must not be bound to the same device (whichever binds
 *     first owns it; blacklist ``virtio_gpu`` where udev would load it). A
 *     virtio-gpu device binds whenever it appears on the virtio bus, before
 *     or after ``mmx_virtio`` loads (``virtio_pci`` creates it; udev loads
 *     ``virtio_pci`` for the PCI device, the test harness with ``--preload
 *     virtio_pci``). ``mmx_virtio`` declares no soft dependency on
 *     ``virtio_pci``: kmod's ``modprobe -r`` removes a module's ``pre:`` soft
 *     dependencies too, and ``virtio_pci`` may be the root disk's transport.
 *     Unbinding (``/sys/bus/virtio/drivers/mmx_virtio/unbind``) works with
 *     clients open: their ioctls fail with -ENODEV from then on.
 *
 * Outputs
 *     One output per host scanout (at most 8), all of kind DisplayPort:
 *     connector type DisplayPort, named ``DP-N``; once the RandR output
 *     properties exist, ``ConnectorType`` reads ``DisplayPort`` and
 *     ``SignalFormat`` ``DisplayPort``. A connector is connected when the
 *     host reports its scanout enabled (``VIRTIO_GPU_CMD_GET_DISPLAY_INFO``).
 *     QEMU reports only the first head enabled when it has no display window
 *     (``-display none``); force the others on with
 *     ``echo on > /sys/kernel/debug/dri/N/DP-2/force``.
 *
 * Modes and EDID
 *     With the ``VIRTIO_GPU_F_EDID`` feature, the host's EDID
 *     (``VIRTIO_GPU_CMD_GET_EDID``) is the connector's ``EDID`` property and
 *     gives its modes; without it the connector has the DMT modes up to
 *     1920x1200 and no EDID. The size the host reports for the scanout is
 *     the preferred mode (a CVT mode is added when the EDID lacks it); for a
 *     scanout the host reports disabled, the EDID's preferred mode, else
 *     1024x768. A display-configuration change from the host (the device's
 *     config-changed interrupt with ``VIRTIO_GPU_EVENT_DISPLAY``) queries the
 *     display information and the EDIDs again and sends a hotplug uevent.
 *
 * Scanout
 *     Enabling a CRTC allocates a shadow buffer of the mode's size
 *     (XRGB8888, the host format B8G8R8X8), creates a host 2D resource with
 *     it as backing (``RESOURCE_CREATE_2D``, ``RESOURCE_ATTACH_BACKING`` with
 *     the buffer's pages) and shows it on the output's scanout
 *     (``SET_SCANOUT``). Disabling the CRTC detaches the scanout
 *     (``SET_SCANOUT`` with resource 0) and frees the resource
 *     (``RESOURCE_UNREF``), then the buffer once the host answered. A
 *     modeset that keeps the CRTC on at the same size (attaching its
 *     writeback connector, say) keeps the resource. Unbinding the device or
 *     unloading the module disables every CRTC first, so every host resource
 *     is freed.
 *
 * Damage
 *     Each commit adds to its CRTC's damage what it changed: the old and new
 *     rectangles of a plane that moved, appeared, disappeared, or changed
 *     alpha, blend mode or zpos; a plane's ``FB_DAMAGE_CLIPS``
 *     (``DRM_IOCTL_MODE_DIRTYFB`` sends its clips that way), or the whole
 *     plane when its framebuffer changed without clips, or when the commit
 *     names the plane without changing anything (DIRTYFB without clips); the
 *     whole CRTC for a new mode, on enabling, on a colour-management change,
 *     and while the CRTC has a transform or its transform changes (plane
 *     rectangles are not mapped through it). A commit that only routes
 *     connectors damages nothing. While a CRTC has damage, its composer runs
 *     at the next vblank (so at most once per vblank), composes the frame,
 *     copies the damaged rectangles (up to 8, merged when that costs no more)
 *     into the shadow buffer and sends only them: ``TRANSFER_TO_HOST_2D`` and
 *     ``RESOURCE_FLUSH`` per rectangle. Pixels written into a displayed
 *     framebuffer without a commit or DIRTYFB reach the host with the next
 *     damage that covers them.
 *
 * Commands
 *     Queued on the control virtqueue without waiting; its
 *     interrupt completes them. An error answer (``VIRTIO_GPU_RESP_ERR_*``)
 *     is logged with ``drm_err`` (rate-limited) and counted, and never
 *     blocks: a commit cannot fail after its check, so host errors are
 *     surfaced in the log and in debugfs, and only a failed
 *     ``GET_DISPLAY_INFO`` at probe fails the probe. A frame is sent only
 *     when the previous one of the CRTC has been answered (the damage waits
 *     meanwhile). Nothing sleeps in atomic context; waiting happens only in
 *     process context, bounded by 5 seconds: for room in the queue, for the
 *     display information at probe, and for the host's answers before a
 *     disabled CRTC's buffer is freed (memory the host does not answer for
 *     is kept until the device is reset at unbind).
 *
 * Vblank
 *     virtio-gpu has no vertical blanking interrupt: the host shows a flushed
 *     resource whenever it likes and tells the guest nothing about its
 *     refresh. So vblank stays the core's hrtimer (mmx_vblank.c) at the
 *     mode's refresh rate, running as long as the CRTC is on (the composer
 *     sends frames from it); page-flip events, timestamps, ``WAIT_VBLANK``,
 *     CRC and writeback behave as on the virtual backend.
 *
 * debugfs
 *     ``/sys/kernel/debug/dri/N/virtio``: ``scanouts``, ``features``,
 *     ``bytes_to_host`` (bytes sent by ``TRANSFER_TO_HOST_2D``),
 *     ``transfers``, ``frames``, ``commands`` (answered), ``live_resources``
 *     (host resources created and not yet unreferenced), ``host_errors``,
 *     ``submit_errors``, and per scanout the host's size, EDID length, the
 *     resource shown, pending damage rectangles and commands in flight.
 *     ``/sys/kernel/debug/mmx/virtio``: the same counters summed over every
 *     device bound since the module loaded, and ``devices``;
 *     ``live_resources`` there is 0 once every device is unbound unless a
 *     resource leaked. Writing anything to
 *     ``/sys/kernel/debug/dri/N/virtio_inject_error`` sends a
 *     ``RESOURCE_FLUSH`` of a resource that does not exist: the host answers
 *     ``ERR_INVALID_RESOURCE_ID``, which tests the error path.
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

/* The scanouts of @vdev to use: 0 when it has none. */
static u32 mmx_virtio_num_scanouts(struct virtio_device *vdev)
{
	u32 num_scanouts;

	virtio_cread_le(vdev, struct virtio_gpu_config, num_scanouts,
			&num_scanouts);
	if (!num_scanouts) {
		dev_err(&vdev->dev, "mmx: the virtio-gpu device has no scanout\n");
		return 0;
	}
	if (num_scanouts > MMX_MAX_OUTPUTS) {
		dev_info(&vdev->dev, "mmx: using %d of %u scanouts\n",
			 MMX_MAX_OUTPUTS, num_scanouts);
		num_scanouts = MMX_MAX_OUTPUTS;
	}
	return num_scanouts;
}

/*
 * The DRM device of @vdev and its backend data, released with the DRM
 * device; the virtqueues are not set up yet.
 */
static struct mmx_virtio *mmx_virtio_alloc(struct virtio_device *vdev,
					   u32 num_scanouts)
{
	struct mmx_device *mmx;
	struct mmx_virtio *vg;
	unsigned int i;
	int ret;

	mmx = mmx_device_alloc(&vdev->dev, &mmx_virtio_drm_driver);
	if (IS_ERR(mmx))
		return ERR_CAST(mmx);
	vg = drmm_kzalloc(&mmx->drm, sizeof(*vg), GFP_KERNEL);
	if (!vg)
		return ERR_PTR(-ENOMEM);
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
		return ERR_PTR(ret);
	vdev->priv = vg;
	mmx->backend = &mmx_virtio_funcs;
	mmx->backend_data = vg;
	return vg;
}

static int mmx_virtio_probe(struct virtio_device *vdev)
{
	struct mmx_config config = {};
	struct mmx_virtio *vg;
	u32 num_scanouts;
	unsigned int i;
	int ret;

	if (!virtio_has_feature(vdev, VIRTIO_F_VERSION_1))
		return -ENODEV;
	num_scanouts = mmx_virtio_num_scanouts(vdev);
	if (!num_scanouts)
		return -ENODEV;
	vg = mmx_virtio_alloc(vdev, num_scanouts);
	if (IS_ERR(vg))
		return PTR_ERR(vg);

	ret = mmx_virtio_start(vg);
	if (ret)
		return ret;
	ret = mmx_virtio_query_displays(vg);
	if (ret)
		goto err_stop;

	config.num_outputs = num_scanouts;
	for (i = 0; i < num_scanouts; i++)
		config.kinds[i] = MMX_KIND_DP;
	ret = mmx_device_register(vg->mmx, &config);
	if (ret)
		goto err_stop;

	mmx_virtio_debugfs_device(vg);
	atomic_inc(&mmx_virtio_bound);
	drm_info(&vg->mmx->drm, "virtio-gpu: %u scanouts%s\n", num_scanouts,
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
