// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The sink port of each output: what is plugged into its connector, its
 * EDID and DDC channel, and what the connector does when a sink is plugged
 * in (the debugfs files that plug sinks in: mmx_sink_debugfs.c).
 *
 * A sink change behaves like hardware: the connector's status, EDID and
 * signal follow the new sink, the link-status goes Bad when the lit mode
 * no longer fits (or the sink went away), and a hotplug event tells the
 * DRM master, who decides what to commit. The kernel never commits a
 * configuration of its own.
 */

#include <drm/drm_atomic.h>
#include <drm/drm_managed.h>
#include <drm/drm_modeset_lock.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>

#include "mmx_drv.h"

/* The link */

static void mmx_timing_from_mode(struct mmx_timing *t,
				 const struct drm_display_mode *mode)
{
	t->clock_khz = mode->clock;
	t->hdisplay = mode->hdisplay;
	t->hsync_start = mode->hsync_start;
	t->hsync_end = mode->hsync_end;
	t->htotal = mode->htotal;
	t->vdisplay = mode->vdisplay;
	t->vsync_start = mode->vsync_start;
	t->vsync_end = mode->vsync_end;
	t->vtotal = mode->vtotal;
	t->flags = mode->flags & (MMX_TIMING_PHSYNC | MMX_TIMING_NHSYNC |
				  MMX_TIMING_PVSYNC | MMX_TIMING_NVSYNC |
				  MMX_TIMING_INTERLACE);
	t->name = NULL;
}

/**
 * mmx_sink_link_carries - whether a signal carries a mode
 * @format: the SignalFormat
 * @props: the SignalProperties
 * @mode: the mode, at 24 bits per pixel
 *
 * Return: true when the link has the capacity (and, for a TV signal, the
 * timing is one of the standard's).
 */
bool mmx_sink_link_carries(enum mmx_signal_format format, u64 props,
			   const struct drm_display_mode *mode)
{
	struct mmx_timing t;

	mmx_timing_from_mode(&t, mode);
	return !mmx_signal_timing_fits(format, props, &t, 24);
}

/**
 * mmx_sink_port_signal - the signal probing uses
 * @output: the output
 * @format: where to store the SignalFormat
 * @props: where to store the SignalProperties
 */
void mmx_sink_port_signal(struct mmx_output *output,
			  enum mmx_signal_format *format, u64 *props)
{
	struct mmx_sink_port *port = &output->port;

	mutex_lock(&port->lock);
	*format = port->signal_format;
	*props = port->signal_props;
	mutex_unlock(&port->lock);
}

/**
 * mmx_output_commit_signal - note a committed signal change
 * @output: the output
 * @old_state: the connector's previous state
 * @new_state: the committed state
 *
 * Probing uses the committed signal; a change of SignalFormat changes the
 * mode list, so clients are told with a hotplug event.
 */
void mmx_output_commit_signal(struct mmx_output *output,
			      const struct mmx_connector_state *old_state,
			      const struct mmx_connector_state *new_state)
{
	struct mmx_sink_port *port = &output->port;

	mutex_lock(&port->lock);
	port->signal_format = new_state->signal_format;
	port->signal_props = new_state->signal_props;
	mutex_unlock(&port->lock);

	if (old_state->signal_format != new_state->signal_format ||
	    old_state->signal_props != new_state->signal_props)
		schedule_work(&port->hotplug_work);
}

/* Probing: detection and the DDC channel */

/**
 * mmx_sink_detect - the connector status the simulated sink gives
 * @output: the output
 *
 * Like a real port, looks for the sink by reading its first EDID block
 * (counted in ``mmx_ddc``, not slept).
 *
 * Return: connected or disconnected, or unknown when the port was told so
 * (mmx_sink_set_status()).
 */
enum drm_connector_status mmx_sink_detect(struct mmx_output *output)
{
	struct mmx_sink_port *port = &output->port;
	bool present, unknown;

	mutex_lock(&port->lock);
	present = port->sink->present;
	unknown = port->unknown;
	port->detects++;
	if (port->edid_len)
		port->ddc_blocks++;
	mutex_unlock(&port->lock);

	if (unknown)
		return connector_status_unknown;
	return present ? connector_status_connected :
			 connector_status_disconnected;
}

/**
 * mmx_sink_read_block - the simulated sink's DDC channel
 * @context: the &struct mmx_output
 * @buf: where to store the block
 * @block: block number
 * @len: block size
 *
 * One EDID block per call. The core reads the EDID through it
 * (drm_edid_read_custom()), so debugfs edid_override and drm.edid_firmware
 * replace the sink's EDID as they do on any driver. Every block read is
 * counted in ``mmx_ddc`` at %MMX_DDC_BLOCK_MS of simulated DDC time.
 *
 * Return: 0, or -EIO past the end of the sink's EDID.
 */
int mmx_sink_read_block(void *context, u8 *buf, unsigned int block,
			size_t len)
{
	struct mmx_output *output = context;
	struct mmx_sink_port *port = &output->port;
	size_t start = (size_t)block * len;
	int ret = 0;

	mutex_lock(&port->lock);
	port->ddc_blocks += DIV_ROUND_UP(len, MMX_EDID_BLOCK_SIZE);
	if (start + len > port->edid_len)
		ret = -EIO;
	else
		memcpy(buf, port->edid + start, len);
	mutex_unlock(&port->lock);
	return ret;
}

/* Plugging */

/*
 * Lock what a sink change touches: the connection mutex and, when the
 * connector drives a CRTC, that CRTC (*@crtc_state, else NULL).
 */
static int mmx_sink_lock_link(struct drm_connector *connector,
			      struct drm_modeset_acquire_ctx *ctx,
			      const struct drm_crtc_state **crtc_state)
{
	struct drm_crtc *crtc;
	int ret;

	*crtc_state = NULL;
	ret = drm_modeset_lock(&connector->dev->mode_config.connection_mutex,
			       ctx);
	if (ret)
		return ret;
	crtc = connector->state->crtc;
	if (!crtc)
		return 0;
	ret = drm_modeset_lock(&crtc->mutex, ctx);
	if (ret)
		return ret;
	*crtc_state = crtc->state;
	return 0;
}

/*
 * Whether the link goes Bad with @sink on a lit CRTC: the mode does not
 * fit the signal, or an HPD sink went away.
 */
static bool mmx_sink_link_bad(const struct mmx_output *output,
			      const struct mmx_sink *sink,
			      const struct drm_crtc_state *crtc_state,
			      enum mmx_signal_format format, u64 props)
{
	if (!crtc_state || !crtc_state->enable)
		return false;
	if (!sink->present)
		return mmx_output_descs[output->kind].hpd;
	return !mmx_sink_link_carries(format, props, &crtc_state->mode);
}

/*
 * Follow @sink on the committed connector state, as hardware would: the
 * signal the sink demands (a DVI-I port's analog or digital pins, a TV's
 * standard) and, when the CRTC's mode no longer fits that signal or an
 * HPD sink went away, link-status Bad. Changes state in place under the
 * connection and CRTC locks, like drm_connector_set_link_status_property(),
 * and commits nothing. Sets *@changed when clients must be told.
 */
static int mmx_sink_follow(struct mmx_output *output,
			   const struct mmx_sink *sink,
			   struct drm_modeset_acquire_ctx *ctx, bool *changed)
{
	struct drm_connector *connector = &output->connector;
	struct drm_device *dev = connector->dev;
	struct mmx_sink_port *port = &output->port;
	const struct drm_crtc_state *crtc_state;
	struct drm_connector_state *conn_state;
	struct mmx_connector_state *mstate;
	enum mmx_signal_format format;
	bool switched, bad;
	u64 props;
	int ret;

	ret = mmx_sink_lock_link(connector, ctx, &crtc_state);
	if (ret)
		return ret;
	conn_state = connector->state;
	mstate = to_mmx_connector_state(conn_state);
	format = mstate->signal_format;
	props = mstate->signal_props;
	/* A sink with no signal in common with the port leaves it as it is. */
	if (sink->present)
		mmx_sink_signal(sink, output->kind, &format, &props);
	switched = format != mstate->signal_format ||
		   props != mstate->signal_props;
	bad = mmx_sink_link_bad(output, sink, crtc_state, format, props);

	mutex_lock(&port->lock);
	mstate->signal_format = format;
	mstate->signal_props = props;
	port->signal_format = format;
	port->signal_props = props;
	if (bad && conn_state->link_status != DRM_MODE_LINK_STATUS_BAD) {
		conn_state->link_status = DRM_MODE_LINK_STATUS_BAD;
		port->link_bad++;
	}
	mutex_unlock(&port->lock);

	if (bad)
		drm_dbg_kms(dev, "[CONNECTOR:%d:%s] link-status Bad: %s\n",
			    connector->base.id, connector->name,
			    sink->present ? "the mode does not fit the sink's signal" :
					    "the sink went away");
	*changed = switched || bad;
	return 0;
}

/*
 * Plug @sink in (with @edid, or its own EDID built, or the one it has when
 * it stays plugged in) and report the port's status as unknown or not.
 */
static int mmx_sink_change(struct mmx_output *output,
			   const struct mmx_sink *sink, const u8 *edid,
			   size_t edid_len, bool unknown)
{
	struct drm_connector *connector = &output->connector;
	struct drm_device *dev = connector->dev;
	struct mmx_sink_port *port = &output->port;
	struct drm_modeset_acquire_ctx ctx;
	bool changed = false, status_changed;
	int ret;

	mutex_lock(&port->lock);
	if (edid) {
		memcpy(port->edid, edid, edid_len);
		port->edid_len = edid_len;
	} else if (sink != port->sink) {
		ret = mmx_edid_build(sink, port->edid, sizeof(port->edid));
		port->edid_len = ret > 0 ? ret : 0;
	}
	port->sink = sink;
	status_changed = port->unknown != unknown;
	port->unknown = unknown;
	mutex_unlock(&port->lock);

	drm_modeset_acquire_init(&ctx, 0);
	while ((ret = mmx_sink_follow(output, sink, &ctx, &changed)) ==
	       -EDEADLK)
		drm_modeset_backoff(&ctx);
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
	if (ret)
		return ret;

	changed |= status_changed;
	if (mmx_output_descs[output->kind].hpd) {
		/* The hotplug interrupt: re-probe now and tell clients. */
		mutex_lock(&dev->mode_config.mutex);
		connector->funcs->fill_modes(connector,
					     dev->mode_config.max_width,
					     dev->mode_config.max_height);
		mutex_unlock(&dev->mode_config.mutex);
		drm_kms_helper_hotplug_event(dev);
	} else if (changed) {
		drm_kms_helper_hotplug_event(dev);
	}
	return 0;
}

/**
 * mmx_sink_plug - plug a sink into an output, as a cable would
 * @output: the output
 * @sink: a preset, or the port's custom sink
 * @edid: the sink's EDID as uploaded, or NULL to build it from @sink
 * @edid_len: the length of @edid
 *
 * Stores the EDID, follows the sink on the connector and tells clients
 * where the connector can tell: an HPD connector re-probes at once and
 * sends a hotplug event; a polled one only when its signal or link-status
 * changed.
 *
 * Return: 0 or a negative errno (from the modeset locks).
 */
int mmx_sink_plug(struct mmx_output *output, const struct mmx_sink *sink,
		  const u8 *edid, size_t edid_len)
{
	return mmx_sink_change(output, sink, edid, edid_len, false);
}

/**
 * mmx_sink_set_status - set what detecting an output's connector finds
 * @output: the output
 * @status: connected (the sink plugged in stays, or the kind's default
 *	sink is plugged in if there is none), disconnected (the sink is
 *	unplugged) or unknown (the sink stays, detection cannot tell)
 *
 * Clients are told as with mmx_sink_plug().
 *
 * Return: 0, -EINVAL for another @status, or a negative errno from the
 * modeset locks.
 */
int mmx_sink_set_status(struct mmx_output *output,
			enum drm_connector_status status)
{
	const struct mmx_sink *sink;

	mutex_lock(&output->port.lock);
	sink = output->port.sink;
	mutex_unlock(&output->port.lock);

	switch (status) {
	case connector_status_connected:
		if (!sink->present)
			sink = &mmx_sinks[mmx_output_descs[output->kind].default_sink];
		break;
	case connector_status_disconnected:
		sink = &mmx_sinks[MMX_SINK_NONE];
		break;
	case connector_status_unknown:
		break;
	default:
		return -EINVAL;
	}
	return mmx_sink_change(output, sink, NULL, 0,
			       status == connector_status_unknown);
}
EXPORT_SYMBOL_GPL(mmx_sink_set_status);

/* Setup */

static void mmx_sink_hotplug_work(struct work_struct *work)
{
	struct mmx_sink_port *port = container_of(work, struct mmx_sink_port,
						  hotplug_work);
	struct mmx_output *output = container_of(port, struct mmx_output,
						 port);

	drm_kms_helper_hotplug_event(output->connector.dev);
}

static void mmx_sink_port_release(struct drm_device *dev, void *data)
{
	struct mmx_sink_port *port = data;

	cancel_work_sync(&port->hotplug_work);
	mutex_destroy(&port->lock);
}

/**
 * mmx_sink_port_init - plug an output's default sink in
 * @output: the output, whose kind is set and whose connector is not yet
 *	created
 *
 * The output starts with its kind's default sink (none when its layout
 * says disconnected) and the signal that sink asks for.
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_sink_port_init(struct mmx_output *output)
{
	const struct mmx_output_desc *desc = &mmx_output_descs[output->kind];
	struct drm_device *dev = output->crtc.dev;
	struct mmx_sink_port *port = &output->port;
	int ret;

	mutex_init(&port->lock);
	INIT_WORK(&port->hotplug_work, mmx_sink_hotplug_work);
	ret = drmm_add_action_or_reset(dev, mmx_sink_port_release, port);
	if (ret)
		return ret;

	port->sink = &mmx_sinks[desc->default_sink];
	if (output->layout.status == connector_status_disconnected)
		port->sink = &mmx_sinks[MMX_SINK_NONE];
	port->unknown = output->layout.status == connector_status_unknown;
	ret = mmx_edid_build(port->sink, port->edid, sizeof(port->edid));
	port->edid_len = ret > 0 ? ret : 0;
	port->signal_format = mmx_signal_kind_default(output->kind);
	port->signal_props = mmx_signal_default_props(port->signal_format);
	mmx_sink_signal(port->sink, output->kind, &port->signal_format,
			&port->signal_props);
	return 0;
}
