/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The simulated sink port of an output: which sink is plugged in, its EDID
 * and DDC channel, the signal probing uses, and the debugfs files that plug
 * sinks in.
 */

#ifndef _MMX_SINK_H_
#define _MMX_SINK_H_

#include <linux/mutex.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include <drm/drm_connector.h>

#include "mmx_edid.h"
#include "mmx_randr_props.h"

struct dentry;
struct drm_display_mode;
struct mmx_output;

/*
 * A DDC read at 100 kHz: 128 bytes plus addressing take about 12 ms. Not
 * slept: counted in debugfs ``mmx_ddc``.
 */
#define MMX_DDC_BLOCK_MS	12

/**
 * struct mmx_sink_port - the simulated sink side of an output's connector
 * @lock: protects every other member but @hotplug_work
 * @sink: the simulated sink plugged in (a preset or @custom)
 * @custom: the sink described by an uploaded EDID
 * @edid: the sink's EDID, @edid_len bytes
 * @edid_len: 0 for a sink without EDID
 * @signal_format: the connector's SignalFormat, for probing (the committed
 *	one, or the one a newly plugged sink demanded)
 * @signal_props: the connector's SignalProperties, likewise
 * @detects: connector detections (probes, the poll helper's included)
 * @ddc_blocks: EDID blocks read over the simulated DDC channel
 * @link_bad: times a sink change set the connector's link-status to Bad
 * @unknown: detection reports an unknown status (mmx_sink_set_status())
 * @hotplug_work: sends a hotplug event outside the commit path
 */
struct mmx_sink_port {
	struct mutex lock; /* see the kernel-doc above */
	const struct mmx_sink *sink;
	struct mmx_sink custom;
	u8 edid[MMX_EDID_MAX_SIZE];
	size_t edid_len;
	enum mmx_signal_format signal_format;
	u64 signal_props;
	u64 detects;
	u64 ddc_blocks;
	u64 link_bad;
	bool unknown;
	struct work_struct hotplug_work;
};

int mmx_sink_port_init(struct mmx_output *output);
int mmx_sink_plug(struct mmx_output *output, const struct mmx_sink *sink,
		  const u8 *edid, size_t edid_len);
int mmx_sink_set_status(struct mmx_output *output,
			enum drm_connector_status status);
void mmx_sink_port_signal(struct mmx_output *output,
			  enum mmx_signal_format *format, u64 *props);
enum drm_connector_status mmx_sink_detect(struct mmx_output *output);
int mmx_sink_read_block(void *context, u8 *buf, unsigned int block,
			size_t len);
void mmx_sink_debugfs_init(struct mmx_output *output, struct dentry *root);
bool mmx_sink_link_carries(enum mmx_signal_format format, u64 props,
			   const struct drm_display_mode *mode);

#endif /* _MMX_SINK_H_ */
