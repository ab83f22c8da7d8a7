// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The mmx device and the mmx_core module: mode configuration, atomic check
 * and commit tail, the ioctl table, and the device allocation and
 * registration the backends call.
 */

/**
 * DOC: overview
 *
 * mmx is an atomic KMS driver with a software compositor, in three
 * modules:
 *
 * ``mmx_core``
 *	the DRM driver: every KMS object, the compositor, CRC, writeback and
 *	timed commits. It binds nothing itself; a backend gives it a device
 *	and, through &struct mmx_backend_funcs, what differs (how a connector
 *	is detected and probed, where a composed frame goes).
 * ``mmx``
 *	the virtual backend (mmx_virtual.c): loading it creates a platform
 *	device "mmx" with one to eight outputs, each a CRTC, an encoder and a
 *	connector of a configurable kind (VGA, DVI, HDMI, DisplayPort,
 *	panels, TV) with a simulated sink, plus a writeback connector.
 * ``mmx_virtio``
 *	the virtio-gpu backend (mmx_virtio_*.c): every virtio-gpu device
 *	becomes an mmx device whose frames QEMU's display shows.
 *
 * Every CRTC has a primary plane, two overlays and a cursor; the compositor
 * blends them (zpos, plane alpha, pixel blend mode) into an XRGB8888 frame
 * whenever somebody looks at the output: a CRC source is set (debugfs
 * ``crtc-N/crc``), a writeback job is queued, or the backend presents
 * frames and the picture changed.
 *
 * Vertical blanking is simulated with an hrtimer running at the mode's
 * exact refresh rate, so page-flip events, WAIT_VBLANK and the CRTC
 * sequence ioctls behave as on real hardware.
 *
 * Module parameters of ``mmx_core``:
 *
 * ``compose_workers``
 *	how many CPUs compose one output's transformed frame, in bands
 *	(default 0: every online CPU); see mmx_composer.c. Writable at run
 *	time.
 * ``timed_lead_frames``
 *	how many frames before its target vblank a timed commit starts
 *	executing, 1 to 8 (default 2); see mmx_schedule.c. Writable at run
 *	time.
 *
 * The parameters of ``mmx`` are in mmx_virtual.c.
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_file.h>
#include <drm/drm_fourcc.h>
#include <drm/drm_gem_framebuffer_helper.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_ioctl.h>
#include <drm/drm_managed.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_vblank.h>

#include "mmx_compat.h"
#include "mmx_drv.h"
#include "pixel_geometry/mmx_simd.h"

/* Mode configuration */

/**
 * mmx_fb_check - whether mmx takes a framebuffer's format and modifier
 * @dev: the device
 * @cmd: the framebuffer's layout
 *
 * The core checks each plane of a multi-planar layout (handles, pitches
 * and sizes, subsampled planes rounded up); a packed 4:2:2 format (one
 * plane, two pixels per block) must also have an even width, or the last
 * pixel's chroma would lie past its row.
 *
 * Return: 0, or -EINVAL for a format or modifier mmx does not take.
 */
int mmx_fb_check(struct drm_device *dev, const struct drm_mode_fb_cmd2 *cmd)
{
	const struct drm_format_info *info;
	enum mmx_format format;

	if (!mmx_format_lookup(cmd->pixel_format, &format)) {
		drm_dbg_kms(dev, "unsupported format %p4cc\n",
			    &cmd->pixel_format);
		return -EINVAL;
	}
	info = drm_format_info(cmd->pixel_format);
	if (info->num_planes == 1 && cmd->width % info->hsub) {
		drm_dbg_kms(dev, "%p4cc: odd width %u\n", &cmd->pixel_format,
			    cmd->width);
		return -EINVAL;
	}
	if ((cmd->flags & DRM_MODE_FB_MODIFIERS) &&
	    cmd->modifier[0] != DRM_FORMAT_MOD_LINEAR) {
		drm_dbg_kms(dev, "unsupported modifier 0x%llx\n",
			    cmd->modifier[0]);
		return -EINVAL;
	}
	return 0;
}

/*
 * Every plane of a CRTC in the commit is checked again, so that the CRTC's
 * list of layers always refers to plane states of the same commit.
 */
static int mmx_atomic_check(struct drm_device *dev,
			    struct mmx_atomic_state *state)
{
	struct drm_crtc_state *crtc_state;
	struct drm_crtc *crtc;
	int i, ret;

	mmx_damage_note_touched(state);
	for_each_new_crtc_in_state(state, crtc, crtc_state, i) {
		ret = drm_atomic_add_affected_planes(state, crtc);
		if (ret)
			return ret;
	}
	return drm_atomic_helper_check(dev, state);
}

/*
 * The helper's commit tail, plus: before the old plane states are unmapped,
 * wait until the new CRTC states are latched (see mmx_vblank_flush()) and for
 * any composition that may still read the old ones.
 */
static void mmx_atomic_commit_tail(struct mmx_atomic_state *old_state)
{
	struct drm_device *dev = old_state->dev;
	struct drm_connector_state *old_conn_state, *new_conn_state;
	struct drm_crtc_state *old_crtc_state, *new_crtc_state;
	struct drm_connector *connector;
	struct drm_crtc *crtc;
	int i;

	drm_atomic_helper_commit_modeset_disables(dev, old_state);
	drm_atomic_helper_commit_planes(dev, old_state, 0);
	drm_atomic_helper_commit_modeset_enables(dev, old_state);
	drm_atomic_helper_fake_vblank(old_state);
	for_each_oldnew_connector_in_state(old_state, connector, old_conn_state,
					   new_conn_state, i) {
		if (connector->connector_type == DRM_MODE_CONNECTOR_WRITEBACK)
			continue;
		mmx_output_commit_signal(connector_to_mmx_output(connector),
					 to_mmx_connector_state(old_conn_state),
					 to_mmx_connector_state(new_conn_state));
	}

	drm_atomic_helper_commit_hw_done(old_state);
	drm_atomic_helper_wait_for_flip_done(dev, old_state);
	/* A held state's flip is done when it is latched. */
	for_each_new_crtc_in_state(old_state, crtc, new_crtc_state, i)
		mmx_vblank_wait_latched(crtc_to_mmx_output(crtc), new_crtc_state);

	for_each_old_crtc_in_state(old_state, crtc, old_crtc_state, i) {
		/* Only an active state has layers the composer may read. */
		if (old_crtc_state->active)
			mmx_composer_flush(crtc_to_mmx_output(crtc));
	}

	drm_atomic_helper_cleanup_planes(dev, old_state);
}

static const struct drm_mode_config_funcs mmx_mode_config_funcs = {
	.fb_create = mmx_fb_create,
	.mode_valid = mmx_mode_valid,
	.atomic_check = mmx_atomic_check,
	.atomic_commit = drm_atomic_helper_commit,
};

static const struct drm_mode_config_helper_funcs mmx_mode_config_helpers = {
	.atomic_commit_tail = mmx_atomic_commit_tail,
};

static void mmx_composer_wq_destroy(struct drm_device *dev, void *data)
{
	destroy_workqueue(data);
}

static int mmx_mode_config_init(struct mmx_device *mmx)
{
	struct drm_device *dev = &mmx->drm;
	int ret;

	ret = drmm_mode_config_init(dev);
	if (ret)
		return ret;

	dev->mode_config.min_width = 1;
	dev->mode_config.min_height = 1;
	dev->mode_config.max_width = MMX_FB_MAX;
	dev->mode_config.max_height = MMX_FB_MAX;
	dev->mode_config.cursor_width = MMX_CURSOR_MAX;
	dev->mode_config.cursor_height = MMX_CURSOR_MAX;
	dev->mode_config.preferred_depth = 24;
	dev->mode_config.normalize_zpos = true;
	dev->mode_config.funcs = &mmx_mode_config_funcs;
	dev->mode_config.helper_private = &mmx_mode_config_helpers;

	mmx->composer_wq = alloc_ordered_workqueue("mmx_composer", 0);
	if (!mmx->composer_wq)
		return -ENOMEM;
	return drmm_add_action_or_reset(dev, mmx_composer_wq_destroy,
					mmx->composer_wq);
}

static const struct mmx_output_layout mmx_full_layout = {
	.overlays = MMX_OVERLAYS_PER_CRTC,
	.cursor = true,
	.writeback = true,
	.status = connector_status_connected,
};

/* The pipelines of @config: CRTC and planes, connector, writeback. */
static int mmx_outputs_init(struct mmx_device *mmx,
			    const struct mmx_config *config)
{
	unsigned int i;
	int ret;

	mmx->num_outputs = config->num_outputs;
	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *output = &mmx->outputs[i];

		output->index = i;
		output->kind = config->kinds[i];
		output->layout = config->custom_layout ? config->layouts[i] :
				 mmx_full_layout;
		ret = mmx_crtc_init(mmx, output);
		if (ret)
			return ret;
		ret = mmx_output_init(mmx, output);
		if (ret)
			return ret;
		ret = mmx_writeback_init(mmx, output);
		if (ret)
			return ret;
	}
	return mmx_outputs_link(mmx);
}

static int mmx_modeset_init(struct mmx_device *mmx,
			    const struct mmx_config *config)
{
	int ret;

	ret = mmx_mode_config_init(mmx);
	if (ret)
		return ret;
	ret = mmx_outputs_init(mmx, config);
	if (ret)
		return ret;

	ret = drm_vblank_init(&mmx->drm, mmx->num_outputs);
	if (ret)
		return ret;

	/* After the vblank: its entries hold vblank references. */
	ret = mmx_schedule_init(mmx);
	if (ret)
		return ret;

	drm_mode_config_reset(&mmx->drm);
	return 0;
}

/* DRM driver */

/* The ioctls of every mmx device; the backends' drivers point at them. */
const struct drm_ioctl_desc mmx_ioctls[MMX_NUM_IOCTLS] = {
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_SUBMIT, mmx_schedule_submit_ioctl,
			  DRM_MASTER),
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_RETRACT, mmx_schedule_retract_ioctl, 0),
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_REPLACE, mmx_schedule_replace_ioctl,
			  DRM_MASTER),
};
EXPORT_SYMBOL_GPL(mmx_ioctls);

/* Device */

/**
 * mmx_device_alloc - allocate an mmx DRM device
 * @parent: the device being probed; the DRM device goes away with its
 *	driver binding
 * @driver: the backend's DRM driver, from DEFINE_MMX_DRM_DRIVER()
 *
 * Return: the device or an ERR_PTR().
 */
struct mmx_device *mmx_device_alloc(struct device *parent,
				    const struct drm_driver *driver)
{
	int ret;

	ret = dma_coerce_mask_and_coherent(parent, DMA_BIT_MASK(64));
	if (ret)
		return ERR_PTR(ret);

	return devm_drm_dev_alloc(parent, driver, struct mmx_device, drm);
}
EXPORT_SYMBOL_GPL(mmx_device_alloc);

/**
 * mmx_device_register - create the KMS objects and register the device
 * @mmx: the device from mmx_device_alloc(), with its backend set up
 *	(&mmx_device.backend and &mmx_device.backend_data; both NULL for
 *	the virtual backend)
 * @config: the outputs to create
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_device_register(struct mmx_device *mmx,
			const struct mmx_config *config)
{
	struct drm_device *dev = &mmx->drm;
	int ret;

	ret = mmx_modeset_init(mmx, config);
	if (ret)
		return ret;

	drm_kms_helper_poll_init(dev);
	ret = drm_dev_register(dev, 0);
	if (ret) {
		drm_kms_helper_poll_fini(dev);
		return ret;
	}

	mmx_debugfs_register(mmx);
	mmx_fbdev_setup(dev, 32);
	return 0;
}
EXPORT_SYMBOL_GPL(mmx_device_register);

static int __init mmx_core_init(void)
{
	/* The compositor's inner loops, for this CPU, before any device. */
	mmx_simd_init();
	pr_info("mmx: compositor inner loops: %s\n", mmx_simd->name);
	return 0;
}

static void __exit mmx_core_exit(void)
{
}

module_init(mmx_core_init);
module_exit(mmx_core_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION(MMX_DRIVER_DESC " (core)");
MODULE_LICENSE("GPL");

