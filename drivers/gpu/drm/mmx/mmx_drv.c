// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 */

/**
 * DOC: overview
 *
 * mmx is an atomic KMS driver with a software compositor. Its virtual
 * backend needs no hardware: loading the module creates a platform device
 * "mmx" with one to eight outputs, each a CRTC, an encoder and a connector
 * of a configurable kind (VGA, DVI, HDMI, DisplayPort, panels, TV), plus a
 * writeback connector. Every CRTC has a primary plane, two overlays and a
 * cursor; the compositor blends them (zpos, plane alpha, pixel blend mode)
 * into an XRGB8888 frame whenever somebody looks at the output: a CRC
 * source is set (debugfs ``crtc-N/crc``) or a writeback job is queued.
 *
 * Vertical blanking is simulated with an hrtimer running at the mode's
 * exact refresh rate, so page-flip events, WAIT_VBLANK and the CRTC
 * sequence ioctls behave as on real hardware.
 *
 * Module parameters:
 *
 * ``outputs``
 *	number of outputs, 1 to 8 (default 2).
 * ``connectors``
 *	comma-separated connector kinds, one per output: VGA, DVI-I, DVI-D,
 *	DVI-A, HDMI-A, DP, eDP, LVDS, Composite, SVIDEO, Component, TV,
 *	SCART. The
 *	default for N outputs is the first N of
 *	"eDP,VGA,HDMI-A,DP,DVI-I,DVI-D,Composite,SVIDEO". Given alone it also
 *	sets the number of outputs; given with ``outputs`` the counts must
 *	agree. A bad value makes loading fail with -EINVAL.
 * ``backend``
 *	``auto`` (default), ``virtual`` or ``virtio``. ``virtio`` binds every
 *	virtio-gpu device (see the DOC of mmx_virtio.c); ``virtual`` creates
 *	the platform device described above; ``auto`` binds the virtio-gpu
 *	devices present when the module loads and creates the virtual device
 *	only if none bound. ``outputs`` and ``connectors`` apply to the
 *	virtual device only.
 * ``timed_lead_frames``
 *	how many frames before its target vblank a timed commit starts
 *	executing, 1 to 8 (default 2); see mmx_schedule.c. Writable at run
 *	time.
 */

#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_fb_helper.h>
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

#include "mmx_drv.h"
#include "mmx_simd.h"

/* 0 until given: then 1 to MMX_MAX_OUTPUTS, checked as the module loads. */
static unsigned int outputs;

static int mmx_outputs_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret;

	ret = kstrtouint(val, 0, &n);
	if (ret || n < 1 || n > MMX_MAX_OUTPUTS) {
		pr_err("mmx: outputs=%s: must be 1 to %d\n", val, MMX_MAX_OUTPUTS);
		return -EINVAL;
	}
	*(unsigned int *)kp->arg = n;
	return 0;
}

static const struct kernel_param_ops mmx_outputs_ops = {
	.set = mmx_outputs_set,
	.get = param_get_uint,
};

module_param_cb(outputs, &mmx_outputs_ops, &outputs, 0444);
MODULE_PARM_DESC(outputs, "Number of outputs, 1-8 (default 2, or the number of connectors)");

static char *connectors;
module_param(connectors, charp, 0444);
MODULE_PARM_DESC(connectors,
		 "Comma-separated connector kinds: VGA,DVI-I,DVI-D,DVI-A,HDMI-A,DP,eDP,LVDS,Composite,SVIDEO,Component,TV,SCART (default eDP,VGA,HDMI-A,DP,DVI-I,DVI-D,Composite,SVIDEO)");

/**
 * enum mmx_backend - what the module binds to
 * @MMX_BACKEND_AUTO: virtio-gpu devices if any bind at load, else the
 *	virtual device
 * @MMX_BACKEND_VIRTUAL: the virtual platform device only
 * @MMX_BACKEND_VIRTIO: virtio-gpu devices only
 */
enum mmx_backend {
	MMX_BACKEND_AUTO,
	MMX_BACKEND_VIRTUAL,
	MMX_BACKEND_VIRTIO,
};

static const char *const mmx_backend_names[] = {
	[MMX_BACKEND_AUTO] = "auto",
	[MMX_BACKEND_VIRTUAL] = "virtual",
	[MMX_BACKEND_VIRTIO] = "virtio",
};

static enum mmx_backend backend;

static int mmx_backend_set(const char *val, const struct kernel_param *kp)
{
	int i = sysfs_match_string(mmx_backend_names, val);

	if (i < 0) {
		pr_err("mmx: backend=%s: must be auto, virtual or virtio\n", val);
		return -EINVAL;
	}
	*(enum mmx_backend *)kp->arg = i;
	return 0;
}

static int mmx_backend_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n",
			  mmx_backend_names[*(enum mmx_backend *)kp->arg]);
}

static const struct kernel_param_ops mmx_backend_ops = {
	.set = mmx_backend_set,
	.get = mmx_backend_get,
};

module_param_cb(backend, &mmx_backend_ops, &backend, 0444);
MODULE_PARM_DESC(backend, "auto (default: virtio-gpu devices if any, else virtual), virtual or virtio");

static const enum mmx_output_kind mmx_default_kinds[MMX_MAX_OUTPUTS] = {
	MMX_KIND_EDP, MMX_KIND_VGA, MMX_KIND_HDMIA, MMX_KIND_DP,
	MMX_KIND_DVII, MMX_KIND_DVID, MMX_KIND_COMPOSITE, MMX_KIND_SVIDEO,
};

/* The validated module parameters of the virtual device. */
static struct mmx_config mmx_config;
static struct platform_device *mmx_pdev;

static int mmx_config_parse(struct mmx_config *config)
{
	unsigned int n = 0;
	char *list, *cursor, *name;
	int ret = 0;

	if (!connectors || !*connectors) {
		config->num_outputs = outputs ? outputs : 2;
		memcpy(config->kinds, mmx_default_kinds, sizeof(config->kinds));
		return 0;
	}

	list = kstrdup(connectors, GFP_KERNEL);
	if (!list)
		return -ENOMEM;

	cursor = list;
	while ((name = strsep(&cursor, ",")) != NULL) {
		if (n == MMX_MAX_OUTPUTS) {
			pr_err("mmx: connectors=%s: more than %d outputs\n",
			       connectors, MMX_MAX_OUTPUTS);
			ret = -EINVAL;
			break;
		}
		ret = mmx_output_kind_parse(strim(name), &config->kinds[n]);
		if (ret) {
			pr_err("mmx: connectors=%s: unknown connector kind \"%s\"\n",
			       connectors, name);
			break;
		}
		n++;
	}
	kfree(list);
	if (ret)
		return ret;

	if (outputs && outputs != n) {
		pr_err("mmx: outputs=%u but connectors= names %u outputs\n",
		       outputs, n);
		return -EINVAL;
	}
	config->num_outputs = n;
	return 0;
}

/* Mode configuration */

static struct drm_framebuffer *
mmx_fb_create(struct drm_device *dev, struct drm_file *file,
	      const struct drm_mode_fb_cmd2 *cmd)
{
	enum mmx_format format;

	if (!mmx_format_lookup(cmd->pixel_format, &format)) {
		drm_dbg_kms(dev, "unsupported format %p4cc\n",
			    &cmd->pixel_format);
		return ERR_PTR(-EINVAL);
	}
	if ((cmd->flags & DRM_MODE_FB_MODIFIERS) &&
	    cmd->modifier[0] != DRM_FORMAT_MOD_LINEAR) {
		drm_dbg_kms(dev, "unsupported modifier 0x%llx\n",
			    cmd->modifier[0]);
		return ERR_PTR(-EINVAL);
	}

	return drm_gem_fb_create_with_dirty(dev, file, cmd);
}

/*
 * Every plane of a CRTC in the commit is checked again, so that the CRTC's
 * list of layers always refers to plane states of the same commit.
 */
static int mmx_atomic_check(struct drm_device *dev,
			    struct drm_atomic_state *state)
{
	struct drm_crtc_state *crtc_state;
	struct drm_crtc *crtc;
	int i, ret;

	mmx_virtio_atomic_check(state);
	for_each_new_crtc_in_state(state, crtc, crtc_state, i) {
		ret = drm_atomic_add_affected_planes(state, crtc);
		if (ret)
			return ret;
	}
	return drm_atomic_helper_check(dev, state);
}

/*
 * The helper's commit tail, plus: before the old plane states are unmapped,
 * wait until the new CRTC states are latched (see mmx_crtc_hold()) and for
 * any composition that may still read the old ones.
 */
static void mmx_atomic_commit_tail(struct drm_atomic_state *old_state)
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
		mmx_crtc_wait_latched(crtc_to_mmx_output(crtc), new_crtc_state);

	for_each_old_crtc_in_state(old_state, crtc, old_crtc_state, i) {
		/* Only an active state has layers the composer may read. */
		if (old_crtc_state->active)
			flush_work(&crtc_to_mmx_output(crtc)->compose_work);
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

static int mmx_modeset_init(struct mmx_device *mmx,
			    const struct mmx_config *config)
{
	struct drm_device *dev = &mmx->drm;
	unsigned int i;
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
	ret = drmm_add_action_or_reset(dev, mmx_composer_wq_destroy,
				       mmx->composer_wq);
	if (ret)
		return ret;

	mmx->num_outputs = config->num_outputs;
	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *output = &mmx->outputs[i];

		output->index = i;
		output->kind = config->kinds[i];
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

	ret = mmx_outputs_link(mmx);
	if (ret)
		return ret;

	ret = drm_vblank_init(dev, mmx->num_outputs);
	if (ret)
		return ret;

	/* After the vblank: its entries hold vblank references. */
	ret = mmx_schedule_init(mmx);
	if (ret)
		return ret;

	drm_mode_config_reset(dev);
	return 0;
}

/* DRM driver */

DEFINE_DRM_GEM_FOPS(mmx_fops);

static const struct drm_ioctl_desc mmx_ioctls[] = {
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_SUBMIT, mmx_schedule_submit_ioctl,
			  DRM_MASTER),
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_RETRACT, mmx_schedule_retract_ioctl, 0),
	DRM_IOCTL_DEF_DRV(MMX_SCHEDULE_REPLACE, mmx_schedule_replace_ioctl,
			  DRM_MASTER),
};

static const struct drm_driver mmx_drm_driver = {
	.driver_features = DRIVER_MODESET | DRIVER_ATOMIC | DRIVER_GEM,
	.fops = &mmx_fops,
	.open = mmx_schedule_open,
	.postclose = mmx_schedule_postclose,
	.ioctls = mmx_ioctls,
	.num_ioctls = ARRAY_SIZE(mmx_ioctls),
	DRM_GEM_SHMEM_DRIVER_OPS,
	.name = MMX_DRIVER_NAME,
	.desc = MMX_DRIVER_DESC,
	.date = MMX_DRIVER_DATE,
	.major = MMX_DRIVER_MAJOR,
	.minor = MMX_DRIVER_MINOR,
};

/* Device */

/**
 * mmx_device_alloc - allocate an mmx DRM device
 * @parent: the device being probed; the DRM device goes away with its
 *	driver binding
 *
 * Return: the device or an ERR_PTR().
 */
struct mmx_device *mmx_device_alloc(struct device *parent)
{
	int ret;

	ret = dma_coerce_mask_and_coherent(parent, DMA_BIT_MASK(64));
	if (ret)
		return ERR_PTR(ret);

	return devm_drm_dev_alloc(parent, &mmx_drm_driver, struct mmx_device,
				  drm);
}

/**
 * mmx_device_register - create the KMS objects and register the device
 * @mmx: the device from mmx_device_alloc(), with its backend set up
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

	drm_fbdev_generic_setup(dev, 32);
	return 0;
}

/* Platform device */

static int mmx_probe(struct platform_device *pdev)
{
	const struct mmx_config *config = dev_get_platdata(&pdev->dev);
	struct mmx_device *mmx;

	if (!config)
		return -EINVAL;

	mmx = mmx_device_alloc(&pdev->dev);
	if (IS_ERR(mmx))
		return PTR_ERR(mmx);
	platform_set_drvdata(pdev, &mmx->drm);

	return mmx_device_register(mmx, config);
}

static int mmx_remove(struct platform_device *pdev)
{
	struct drm_device *dev = platform_get_drvdata(pdev);

	drm_kms_helper_poll_fini(dev);
	drm_dev_unplug(dev);
	drm_atomic_helper_shutdown(dev);
	return 0;
}

static void mmx_shutdown(struct platform_device *pdev)
{
	drm_atomic_helper_shutdown(platform_get_drvdata(pdev));
}

static struct platform_driver mmx_platform_driver = {
	.probe = mmx_probe,
	.remove = mmx_remove,
	.shutdown = mmx_shutdown,
	.driver = {
		.name = MMX_DRIVER_NAME,
	},
};

static int mmx_virtual_create(void)
{
	int ret;

	ret = platform_driver_register(&mmx_platform_driver);
	if (ret)
		return ret;

	mmx_pdev = platform_device_register_data(NULL, MMX_DRIVER_NAME,
						 PLATFORM_DEVID_NONE,
						 &mmx_config,
						 sizeof(mmx_config));
	if (IS_ERR(mmx_pdev)) {
		ret = PTR_ERR(mmx_pdev);
		goto err_unregister_driver;
	}
	if (!platform_get_drvdata(mmx_pdev)) {
		pr_err("mmx: device setup failed\n");
		ret = -ENODEV;
		goto err_unregister_device;
	}
	return 0;

err_unregister_device:
	platform_device_unregister(mmx_pdev);
err_unregister_driver:
	mmx_pdev = NULL;
	platform_driver_unregister(&mmx_platform_driver);
	return ret;
}

static void mmx_virtual_destroy(void)
{
	if (!mmx_pdev)
		return;
	platform_device_unregister(mmx_pdev);
	platform_driver_unregister(&mmx_platform_driver);
	mmx_pdev = NULL;
}

static int __init mmx_init(void)
{
	int ret;

	/* The compositor's inner loops: the best this CPU runs. */
	mmx_simd_init();
	pr_info("mmx: compositor inner loops: %s\n", mmx_simd->name);
	ret = mmx_config_parse(&mmx_config);
	if (ret)
		return ret;
	/* Show the number in effect in /sys/module/mmx/parameters/outputs. */
	outputs = mmx_config.num_outputs;

	if (backend != MMX_BACKEND_VIRTUAL) {
		/* Probes the devices present before it returns. */
		ret = mmx_virtio_register();
		if (ret)
			return ret;
	}
	if (backend == MMX_BACKEND_VIRTIO ||
	    (backend == MMX_BACKEND_AUTO && mmx_virtio_devices()))
		return 0;

	ret = mmx_virtual_create();
	if (ret && backend != MMX_BACKEND_VIRTUAL)
		mmx_virtio_unregister();
	return ret;
}

static void __exit mmx_exit(void)
{
	mmx_virtual_destroy();
	if (backend != MMX_BACKEND_VIRTUAL)
		mmx_virtio_unregister();
}

module_init(mmx_init);
module_exit(mmx_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION(MMX_DRIVER_DESC);
MODULE_LICENSE("GPL");
/* The virtio-gpu devices must exist when the virtio driver registers. */
MODULE_SOFTDEP("pre: virtio_pci");
