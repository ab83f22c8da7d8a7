// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The debugfs files of a connector's sink port: mmx_sink (plug a preset in
 * by name), mmx_edid (read the sink's EDID, or upload one: the sink it
 * describes is plugged in) and mmx_ddc (the simulated DDC cost).
 */

#include <linux/debugfs.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include <drm/drm_edid.h>

#include "mmx_drv.h"

static ssize_t mmx_sink_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *offp)
{
	struct mmx_output *output = file_inode(file)->i_private;
	const struct mmx_sink *sink;
	char name[32];
	int ret;

	if (len == 0 || len >= sizeof(name))
		return -EINVAL;
	if (copy_from_user(name, ubuf, len))
		return -EFAULT;
	name[len] = '\0';

	sink = mmx_sink_lookup(name, len);
	if (!sink)
		return -EINVAL;
	ret = mmx_sink_plug(output, sink, NULL, 0);
	return ret ? ret : len;
}

static int mmx_sink_show(struct seq_file *m, void *data)
{
	struct mmx_output *output = m->private;

	mutex_lock(&output->port.lock);
	seq_printf(m, "%s\n", output->port.sink->name);
	mutex_unlock(&output->port.lock);
	return 0;
}

static int mmx_sink_open(struct inode *inode, struct file *file)
{
	return single_open(file, mmx_sink_show, inode->i_private);
}

static const struct file_operations mmx_sink_fops = {
	.owner = THIS_MODULE,
	.open = mmx_sink_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = single_release,
	.write = mmx_sink_write,
};

/*
 * Whether @len bytes at @edid may be served as a sink's EDID: the DRM
 * core's checks (fixed header, version 1, an extension count matching
 * @len, block checksums; mmx_drm_edid_valid()), and a right checksum in
 * CTA-861 extensions too, which the core forgives in what real sinks send
 * but a simulated sink serves as is.
 */
static bool mmx_sink_edid_valid(u8 *edid, size_t len)
{
	size_t blocks = len / MMX_EDID_BLOCK_SIZE, b, i;
	u8 sum;

	if (len % MMX_EDID_BLOCK_SIZE || edid[126] + 1 != blocks)
		return false;
	if (!mmx_drm_edid_valid(edid, len))
		return false;
	for (b = 0; b < blocks; b++) {
		sum = 0;
		for (i = 0; i < MMX_EDID_BLOCK_SIZE; i++)
			sum += edid[b * MMX_EDID_BLOCK_SIZE + i];
		if (sum)
			return false;
	}
	return true;
}

static ssize_t mmx_edid_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *offp)
{
	struct mmx_output *output = file_inode(file)->i_private;
	struct mmx_sink_port *port = &output->port;
	u8 *edid;
	int ret;

	if (len == 0 || len > MMX_EDID_MAX_SIZE)
		return -EINVAL;
	edid = memdup_user(ubuf, len);
	if (IS_ERR(edid))
		return PTR_ERR(edid);

	if (!mmx_sink_edid_valid(edid, len)) {
		ret = -EINVAL;
		goto out_free;
	}

	mutex_lock(&port->lock);
	ret = mmx_sink_from_edid(&port->custom, edid, len);
	mutex_unlock(&port->lock);
	if (ret)
		goto out_free;

	ret = mmx_sink_plug(output, &port->custom, edid, len);
out_free:
	kfree(edid);
	return ret ? ret : len;
}

static ssize_t mmx_edid_read(struct file *file, char __user *ubuf, size_t len,
			     loff_t *offp)
{
	struct mmx_output *output = file_inode(file)->i_private;
	struct mmx_sink_port *port = &output->port;
	u8 edid[MMX_EDID_MAX_SIZE];
	size_t size;

	mutex_lock(&port->lock);
	size = port->edid_len;
	memcpy(edid, port->edid, size);
	mutex_unlock(&port->lock);

	return simple_read_from_buffer(ubuf, len, offp, edid, size);
}

static const struct file_operations mmx_edid_fops = {
	.owner = THIS_MODULE,
	.read = mmx_edid_read,
	.write = mmx_edid_write,
	.llseek = default_llseek,
};

static int mmx_ddc_show(struct seq_file *m, void *data)
{
	struct mmx_output *output = m->private;
	struct mmx_sink_port *port = &output->port;
	u64 detects, blocks, link_bad;

	mutex_lock(&port->lock);
	detects = port->detects;
	blocks = port->ddc_blocks;
	link_bad = port->link_bad;
	mutex_unlock(&port->lock);

	seq_printf(m, "detects %llu\n", detects);
	seq_printf(m, "edid_blocks %llu\n", blocks);
	seq_printf(m, "ddc_ms %llu\n", blocks * MMX_DDC_BLOCK_MS);
	seq_printf(m, "link_bad %llu\n", link_bad);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(mmx_ddc);

/**
 * mmx_sink_debugfs_init - the sink files of a connector's debugfs directory
 * @output: the output
 * @root: the connector's directory
 */
void mmx_sink_debugfs_init(struct mmx_output *output, struct dentry *root)
{
	debugfs_create_file("mmx_sink", 0644, root, output, &mmx_sink_fops);
	debugfs_create_file("mmx_edid", 0644, root, output, &mmx_edid_fops);
	debugfs_create_file("mmx_ddc", 0444, root, output, &mmx_ddc_fops);
}
