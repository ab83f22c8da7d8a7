// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtio-gpu backend's debugfs files: counters, scanouts, an error
 * injector for the error path.
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>

#include <drm/drm_file.h>

#include "mmx_virtio.h"

static const char *const mmx_virtio_stat_names[MMX_STAT_COUNT] = {
	[MMX_STAT_BYTES] = "bytes_to_host",
	[MMX_STAT_TRANSFERS] = "transfers",
	[MMX_STAT_FRAMES] = "frames",
	[MMX_STAT_COMMANDS] = "commands",
	[MMX_STAT_LIVE_RESOURCES] = "live_resources",
	[MMX_STAT_HOST_ERRORS] = "host_errors",
	[MMX_STAT_SUBMIT_ERRORS] = "submit_errors",
};

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
	struct drm_rect r = DRM_RECT_INIT(0, 0, 1, 1);
	int ret;

	/* Resource ids come from an IDA: never this one. */
	ret = mmx_virtio_queue_flush(vg, NULL, U32_MAX, &r);
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

static struct dentry *mmx_virtio_debugfs_root;

/**
 * mmx_virtio_debugfs_device - a device's debugfs files
 * @vg: the device, registered
 *
 * ``dri/N/virtio`` (counters and scanouts) and ``dri/N/virtio_inject_error``.
 */
void mmx_virtio_debugfs_device(struct mmx_virtio *vg)
{
	struct dentry *root = vg->mmx->drm.primary->debugfs_root;

	debugfs_create_file("virtio", 0444, root, vg, &mmx_virtio_device_fops);
	debugfs_create_file("virtio_inject_error", 0200, root, vg,
			    &mmx_virtio_inject_fops);
}

/**
 * mmx_virtio_debugfs_module_init - the module's debugfs files
 *
 * ``mmx/virtio``: the totals of every device bound since the module loaded.
 */
void mmx_virtio_debugfs_module_init(void)
{
	mmx_virtio_debugfs_root = debugfs_create_dir(MMX_DRIVER_NAME, NULL);
	debugfs_create_file("virtio", 0444, mmx_virtio_debugfs_root, NULL,
			    &mmx_virtio_totals_fops);
}

/**
 * mmx_virtio_debugfs_module_exit - remove the module's debugfs files
 */
void mmx_virtio_debugfs_module_exit(void)
{
	debugfs_remove_recursive(mmx_virtio_debugfs_root);
}
