// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The device's own debugfs counters, one file per concern, for tests that
 * check that nothing is leaked (the soak, the fuzzer):
 *
 * - ``dri/N/mmx_objects``: the framebuffers and property blobs that exist
 *   (every client's, the driver's and the fbdev emulation's);
 * - ``dri/N/mmx_buffers``: the bytes and number of the composer's pixel
 *   buffers over all CRTCs (sized to what the current state needs, freed
 *   when nobody observes an output; see mmx_composer.c).
 */

#include <linux/debugfs.h>
#include <linux/list.h>
#include <linux/seq_file.h>

#include <drm/drm_device.h>
#include <drm/drm_file.h>
#include <drm/drm_mode_config.h>
#include <drm/drm_property.h>

#include "mmx_drv.h"

static int mmx_objects_show(struct seq_file *m, void *data)
{
	struct drm_device *dev = m->private;
	struct drm_mode_config *config = &dev->mode_config;
	struct drm_property_blob *blob;
	unsigned int blobs = 0;
	int fbs;

	mutex_lock(&config->fb_lock);
	fbs = config->num_fb;
	mutex_unlock(&config->fb_lock);

	mutex_lock(&config->blob_lock);
	list_for_each_entry(blob, &config->property_blob_list, head_global)
		blobs++;
	mutex_unlock(&config->blob_lock);

	seq_printf(m, "framebuffers: %d\n", fbs);
	seq_printf(m, "blobs: %u\n", blobs);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_objects);

static int mmx_buffers_show(struct seq_file *m, void *data)
{
	struct mmx_device *mmx = m->private;
	unsigned int i, buffers = 0;
	u64 bytes = 0;

	for (i = 0; i < mmx->num_outputs; i++)
		mmx_composer_memory(&mmx->outputs[i], &bytes, &buffers);
	seq_printf(m, "bytes: %llu\n", bytes);
	seq_printf(m, "buffers: %u\n", buffers);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_buffers);

/**
 * mmx_debugfs_register - create the device's counter files
 * @mmx: the device, registered
 */
void mmx_debugfs_register(struct mmx_device *mmx)
{
	struct dentry *root = mmx->drm.primary->debugfs_root;

	debugfs_create_file("mmx_objects", 0444, root, &mmx->drm,
			    &mmx_objects_fops);
	debugfs_create_file("mmx_buffers", 0444, root, mmx, &mmx_buffers_fops);
}
