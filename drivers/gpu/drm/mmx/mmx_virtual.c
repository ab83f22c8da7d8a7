// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtual backend, module mmx: a platform device with simulated
 * outputs, configured by module parameters.
 */

/**
 * DOC: virtual backend
 *
 * The module ``mmx`` is the virtual backend: it needs no hardware. Loading
 * it creates a platform device "mmx" whose outputs are simulated: each
 * connector has a sink that can be unplugged, replaced or described by an
 * uploaded EDID through debugfs (see mmx_sink.c). It loads ``mmx_core``
 * and nothing else: no virtio module, so removing it (even with kmod's
 * ``modprobe -r``, which also removes unused dependencies) never touches
 * the modules of a virtual machine's disks.
 *
 * Module parameters:
 *
 * ``outputs``
 *	number of outputs, 1 to 8 (default 2).
 * ``connectors``
 *	comma-separated connector kinds, one per output: VGA, DVI-I, DVI-D,
 *	DVI-A, HDMI-A, DP, eDP, LVDS, Composite, SVIDEO, Component, TV,
 *	SCART. The default for N outputs is the first N of
 *	"eDP,VGA,HDMI-A,DP,DVI-I,DVI-D,Composite,SVIDEO". Given alone it also
 *	sets the number of outputs; given with ``outputs`` the counts must
 *	agree. A bad value makes loading fail with -EINVAL.
 */

#include <linux/module.h>
#include <linux/platform_device.h>

#include <drm/drm_atomic_helper.h>
#include <drm/drm_drv.h>
#include <drm/drm_gem.h>
#include <drm/drm_gem_shmem_helper.h>
#include <drm/drm_probe_helper.h>

#include "mmx_compat.h"
#include "mmx_drv.h"

/* Module parameters */

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

/* Platform device */

DEFINE_MMX_DRM_DRIVER(mmx_virtual_driver);

static int mmx_probe(struct platform_device *pdev)
{
	const struct mmx_config *config = dev_get_platdata(&pdev->dev);
	struct mmx_device *mmx;

	if (!config)
		return -EINVAL;

	mmx = mmx_device_alloc(&pdev->dev, &mmx_virtual_driver);
	if (IS_ERR(mmx))
		return PTR_ERR(mmx);
	platform_set_drvdata(pdev, &mmx->drm);

	return mmx_device_register(mmx, config);
}

static void mmx_remove(struct platform_device *pdev)
{
	struct drm_device *dev = platform_get_drvdata(pdev);

	drm_kms_helper_poll_fini(dev);
	drm_dev_unplug(dev);
	drm_atomic_helper_shutdown(dev);
}

static void mmx_shutdown(struct platform_device *pdev)
{
	drm_atomic_helper_shutdown(platform_get_drvdata(pdev));
}

static struct platform_driver mmx_platform_driver = {
	.probe = mmx_probe,
	.mmx_platform_remove = mmx_remove,
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

	ret = mmx_config_parse(&mmx_config);
	if (ret)
		return ret;
	/* Show the number in effect in /sys/module/mmx/parameters/outputs. */
	outputs = mmx_config.num_outputs;

	return mmx_virtual_create();
}

static void __exit mmx_exit(void)
{
	mmx_virtual_destroy();
}

module_init(mmx_init);
module_exit(mmx_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION(MMX_DRIVER_DESC " (virtual backend)");
MODULE_LICENSE("GPL");
