// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtual backend, module mmx: platform devices with simulated
 * outputs, configured by module parameters and configfs.
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
 * ``default_device``
 *	create the device of ``outputs`` and ``connectors`` at load (default
 *	true); false leaves only what configfs creates (mmx_virtual_configfs.c).
 *
 * Every device, the default one and those of configfs, is a platform
 * device of the driver "mmx" with its own DRM card; the default device is
 * named "mmx", the others "mmx.N.auto".
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
#include "mmx_virtual_topology.h"
#include "mmx_virtual.h"

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

static bool default_device = true;
module_param(default_device, bool, 0444);
MODULE_PARM_DESC(default_device,
		 "Create the device of outputs= and connectors= at load (default true; false: configfs only)");

static const enum mmx_output_kind mmx_default_kinds[MMX_MAX_OUTPUTS] = {
	MMX_KIND_EDP, MMX_KIND_VGA, MMX_KIND_HDMIA, MMX_KIND_DP,
	MMX_KIND_DVII, MMX_KIND_DVID, MMX_KIND_COMPOSITE, MMX_KIND_SVIDEO,
};

/* The device of the module parameters. */
static struct platform_device *mmx_pdev;

/* The kinds of the module parameters, validated. */
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

/* Create platform device "mmx" with @id and the DRM device it binds. */
static struct platform_device *mmx_virtual_register(const struct mmx_config *config,
						    int id)
{
	struct platform_device *pdev;

	pdev = platform_device_register_data(NULL, MMX_DRIVER_NAME, id,
					     config, sizeof(*config));
	if (IS_ERR(pdev))
		return pdev;
	if (!platform_get_drvdata(pdev)) {
		pr_err("mmx: device setup failed\n");
		platform_device_unregister(pdev);
		return ERR_PTR(-ENODEV);
	}
	return pdev;
}

/**
 * mmx_virtual_add - create and register a virtual device
 * @config: its outputs
 *
 * Return: the platform device ("mmx.N.auto"), or an ERR_PTR() when it
 * could not be created or its DRM device could not be set up.
 */
struct platform_device *mmx_virtual_add(const struct mmx_config *config)
{
	return mmx_virtual_register(config, PLATFORM_DEVID_AUTO);
}

/**
 * mmx_virtual_output - an output of a virtual device
 * @pdev: the device, from mmx_virtual_add()
 * @index: the output's number
 *
 * Return: the output, or NULL if there is no such output.
 */
struct mmx_output *mmx_virtual_output(struct platform_device *pdev,
				      unsigned int index)
{
	struct mmx_device *mmx = to_mmx_device(platform_get_drvdata(pdev));

	return index < mmx->num_outputs ? &mmx->outputs[index] : NULL;
}

/* The default device: the module parameters' outputs, full pipelines. */
static int mmx_default_create(void)
{
	struct mmx_topology *topo;
	struct mmx_config *config;
	int ret;

	topo = kmalloc(sizeof(*topo), GFP_KERNEL);
	config = kzalloc(sizeof(*config), GFP_KERNEL);
	if (!topo || !config) {
		ret = -ENOMEM;
		goto out_free;
	}
	ret = mmx_config_parse(config);
	if (ret)
		goto out_free;
	/* Show the number in effect in /sys/module/mmx/parameters/outputs. */
	outputs = config->num_outputs;
	if (!default_device)
		goto out_free;

	mmx_topology_init(topo, MMX_DRIVER_NAME);
	ret = mmx_topology_from_kinds(topo, config->kinds, config->num_outputs);
	if (!ret)
		ret = mmx_topology_lower(topo, config);
	mmx_topology_clear(topo);
	if (ret)
		goto out_free;

	mmx_pdev = mmx_virtual_register(config, PLATFORM_DEVID_NONE);
	if (IS_ERR(mmx_pdev)) {
		ret = PTR_ERR(mmx_pdev);
		mmx_pdev = NULL;
	}
out_free:
	kfree(config);
	kfree(topo);
	return ret;
}

static int __init mmx_init(void)
{
	int ret;

	ret = platform_driver_register(&mmx_platform_driver);
	if (ret)
		return ret;
	ret = mmx_default_create();
	if (ret)
		goto err_unregister_driver;
	ret = mmx_configfs_register();
	if (ret)
		goto err_remove_default;
	return 0;

err_remove_default:
	if (mmx_pdev)
		platform_device_unregister(mmx_pdev);
err_unregister_driver:
	platform_driver_unregister(&mmx_platform_driver);
	return ret;
}

/* configfs holds the module while it has devices: none is left here. */
static void __exit mmx_exit(void)
{
	mmx_configfs_unregister();
	if (mmx_pdev)
		platform_device_unregister(mmx_pdev);
	platform_driver_unregister(&mmx_platform_driver);
}

module_init(mmx_init);
module_exit(mmx_exit);

MODULE_AUTHOR("The mmx authors");
MODULE_DESCRIPTION(MMX_DRIVER_DESC " (virtual backend)");
MODULE_LICENSE("GPL");
