// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Outputs: the simulated physical connectors, their encoders, the sinks
 * plugged into them and RandR 1.3's output properties.
 */

#include <linux/debugfs.h>
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_atomic_uapi.h>
#include <drm/drm_edid.h>
#include <drm/drm_managed.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>
#include <drm/drm_property.h>

#include "mmx_drv.h"

const struct mmx_output_desc mmx_output_descs[MMX_KIND_COUNT] = {
	[MMX_KIND_VGA] = { "VGA", DRM_MODE_CONNECTOR_VGA, DRM_MODE_ENCODER_DAC,
			   MMX_SINK_VGA, MMX_CLONE_ANALOG, false },
	[MMX_KIND_DVII] = { "DVI-I", DRM_MODE_CONNECTOR_DVII,
			    DRM_MODE_ENCODER_TMDS, MMX_SINK_DVI,
			    MMX_CLONE_DIGITAL, true },
	[MMX_KIND_DVID] = { "DVI-D", DRM_MODE_CONNECTOR_DVID,
			    DRM_MODE_ENCODER_TMDS, MMX_SINK_DVI,
			    MMX_CLONE_DIGITAL, true },
	[MMX_KIND_DVIA] = { "DVI-A", DRM_MODE_CONNECTOR_DVIA,
			    DRM_MODE_ENCODER_DAC, MMX_SINK_VGA,
			    MMX_CLONE_ANALOG, false },
	[MMX_KIND_HDMIA] = { "HDMI-A", DRM_MODE_CONNECTOR_HDMIA,
			     DRM_MODE_ENCODER_TMDS, MMX_SINK_HDMI,
			     MMX_CLONE_DIGITAL, true },
	[MMX_KIND_DP] = { "DP", DRM_MODE_CONNECTOR_DisplayPort,
			  DRM_MODE_ENCODER_TMDS, MMX_SINK_DP_4K,
			  MMX_CLONE_DIGITAL, true },
	[MMX_KIND_EDP] = { "eDP", DRM_MODE_CONNECTOR_eDP,
			   DRM_MODE_ENCODER_TMDS, MMX_SINK_PANEL,
			   MMX_CLONE_NONE, true },
	[MMX_KIND_LVDS] = { "LVDS", DRM_MODE_CONNECTOR_LVDS,
			    DRM_MODE_ENCODER_LVDS, MMX_SINK_PANEL,
			    MMX_CLONE_NONE, false },
	[MMX_KIND_COMPOSITE] = { "Composite", DRM_MODE_CONNECTOR_Composite,
				 DRM_MODE_ENCODER_TVDAC, MMX_SINK_NTSC_TV,
				 MMX_CLONE_ANALOG, false },
	[MMX_KIND_SVIDEO] = { "SVIDEO", DRM_MODE_CONNECTOR_SVIDEO,
			      DRM_MODE_ENCODER_TVDAC, MMX_SINK_NTSC_TV,
			      MMX_CLONE_ANALOG, false },
	[MMX_KIND_COMPONENT] = { "Component", DRM_MODE_CONNECTOR_Component,
				 DRM_MODE_ENCODER_TVDAC, MMX_SINK_COMPONENT_TV,
				 MMX_CLONE_ANALOG, false },
	[MMX_KIND_TV] = { "TV", DRM_MODE_CONNECTOR_TV, DRM_MODE_ENCODER_TVDAC,
			  MMX_SINK_NTSC_TV, MMX_CLONE_ANALOG, false },
	/* DRM has no SCART connector type: it shows as a TV connector. */
	[MMX_KIND_SCART] = { "SCART", DRM_MODE_CONNECTOR_TV,
			     DRM_MODE_ENCODER_TVDAC, MMX_SINK_PAL_TV,
			     MMX_CLONE_ANALOG, false },
};

/* A DDC read at 100 kHz: 128 bytes plus addressing take about 12 ms. */
#define MMX_DDC_BLOCK_MS	12

/**
 * mmx_output_kind_parse - look up an output kind by name
 * @name: a name from &mmx_output_descs, case-insensitive
 * @kind: where to store the kind
 *
 * Return: 0 on success, -EINVAL for an unknown name.
 */
int mmx_output_kind_parse(const char *name, enum mmx_output_kind *kind)
{
	unsigned int i;

	for (i = 0; i < MMX_KIND_COUNT; i++) {
		if (!strcasecmp(name, mmx_output_descs[i].name)) {
			*kind = i;
			return 0;
		}
	}
	return -EINVAL;
}
EXPORT_SYMBOL_GPL(mmx_output_kind_parse);

/**
 * mmx_mode_valid - device-wide mode limits
 * @dev: the DRM device
 * @mode: the mode, already checked for basic sanity by the core
 *
 * Applies to probed modes and to user modes set through MODE_ID alike.
 *
 * Return: MODE_OK or the reason the mode is refused.
 */
enum drm_mode_status mmx_mode_valid(struct drm_device *dev,
				    const struct drm_display_mode *mode)
{
	int refresh;

	if (mode->clock < MMX_CLOCK_MIN_KHZ)
		return MODE_CLOCK_LOW;
	if (mode->clock > MMX_CLOCK_MAX_KHZ)
		return MODE_CLOCK_HIGH;
	if (mode->hdisplay > MMX_MODE_MAX)
		return MODE_VIRTUAL_X;
	if (mode->vdisplay > MMX_MODE_MAX)
		return MODE_VIRTUAL_Y;
	if (mode->flags & DRM_MODE_FLAG_DBLSCAN)
		return MODE_NO_DBLESCAN;

	refresh = drm_mode_vrefresh(mode);
	if (refresh < 1 || refresh > 240)
		return MODE_V_ILLEGAL;
	return MODE_OK;
}

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

static int mmx_signal_fits_mode(enum mmx_signal_format format, u64 props,
				const struct drm_display_mode *mode)
{
	struct mmx_timing t;

	mmx_timing_from_mode(&t, mode);
	return mmx_signal_timing_fits(format, props, &t, 24);
}

/* Connector state */

static void mmx_connector_reset(struct drm_connector *connector)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	struct mmx_connector_state *state;

	if (connector->state) {
		__drm_atomic_helper_connector_destroy_state(connector->state);
		kfree(to_mmx_connector_state(connector->state));
		connector->state = NULL;
	}

	state = kzalloc(sizeof(*state), GFP_KERNEL);
	if (!state)
		return;
	__drm_atomic_helper_connector_reset(connector, &state->base);

	mutex_lock(&output->sink_lock);
	state->signal_format = output->signal_format;
	state->signal_props = output->signal_props;
	mutex_unlock(&output->sink_lock);
}

static struct drm_connector_state *
mmx_connector_duplicate_state(struct drm_connector *connector)
{
	struct mmx_connector_state *state;

	if (WARN_ON(!connector->state))
		return NULL;

	state = kmemdup(to_mmx_connector_state(connector->state),
			sizeof(*state), GFP_KERNEL);
	if (!state)
		return NULL;
	__drm_atomic_helper_connector_duplicate_state(connector, &state->base);
	state->signal_props_set = false;
	return &state->base;
}

static void mmx_connector_destroy_state(struct drm_connector *connector,
					struct drm_connector_state *state)
{
	__drm_atomic_helper_connector_destroy_state(state);
	kfree(to_mmx_connector_state(state));
}

static int mmx_connector_set_property(struct drm_connector *connector,
				      struct drm_connector_state *state,
				      struct drm_property *property, u64 val)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	struct mmx_connector_state *mstate = to_mmx_connector_state(state);

	if (property == output->signal_format_prop) {
		if (val >= MMX_SIGNAL_COUNT ||
		    !(mmx_signal_kind_formats(output->kind) &
		      MMX_SIGNAL_FMT(val)))
			return -EINVAL;
		mstate->signal_format = val;
		return 0;
	}
	if (output->signal_props_prop &&
	    property == output->signal_props_prop) {
		/* The core took only a listed value: atomic_check decides. */
		mstate->signal_props = val;
		mstate->signal_props_set = true;
		return 0;
	}
	return -EINVAL;
}

static int mmx_connector_get_property(struct drm_connector *connector,
				      const struct drm_connector_state *state,
				      struct drm_property *property, u64 *val)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	const struct mmx_connector_state *mstate =
		container_of(state, struct mmx_connector_state, base);

	if (property == output->signal_format_prop) {
		*val = mstate->signal_format;
		return 0;
	}
	if (output->signal_props_prop &&
	    property == output->signal_props_prop) {
		*val = mstate->signal_props;
		return 0;
	}
	return -EINVAL;
}

static int mmx_connector_atomic_check(struct drm_connector *connector,
				      struct drm_atomic_state *state)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	struct drm_connector_state *new_state =
		drm_atomic_get_new_connector_state(state, connector);
	struct drm_connector_state *old_state =
		drm_atomic_get_old_connector_state(state, connector);
	struct mmx_connector_state *mnew = to_mmx_connector_state(new_state);
	struct mmx_connector_state *mold = to_mmx_connector_state(old_state);
	struct drm_crtc_state *crtc_state = NULL;
	bool changed;

	/* A new format alone brings its default properties along. */
	if (mnew->signal_format != mold->signal_format &&
	    !mnew->signal_props_set)
		mnew->signal_props =
			mmx_signal_default_props(mnew->signal_format);

	if (mmx_signal_check(output->kind, mnew->signal_format,
			     mnew->signal_props) ||
	    !mmx_signal_props_valid(mnew->signal_format, mnew->signal_props)) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] signal %u props 0x%llx refused\n",
			       connector->base.id, connector->name,
			       mnew->signal_format, mnew->signal_props);
		return -EINVAL;
	}

	if (new_state->crtc)
		crtc_state = drm_atomic_get_new_crtc_state(state,
							   new_state->crtc);
	/*
	 * The link must carry the mode whenever the CRTC has one, lit or not:
	 * a configuration accepted while DPMS is off must light when a client
	 * sets ACTIVE back, which is no time to refuse it.
	 */
	if (!crtc_state || !crtc_state->enable)
		return 0;

	if (mmx_signal_fits_mode(mnew->signal_format, mnew->signal_props,
				 &crtc_state->mode)) {
		drm_dbg_atomic(connector->dev,
			       "[CONNECTOR:%d:%s] link cannot carry " DRM_MODE_FMT "\n",
			       connector->base.id, connector->name,
			       DRM_MODE_ARG(&crtc_state->mode));
		return -EINVAL;
	}

	/* A dark CRTC takes the new signal when it is lit again. */
	changed = mnew->signal_format != mold->signal_format ||
		  mnew->signal_props != mold->signal_props;
	if (changed && crtc_state->active)
		crtc_state->connectors_changed = true;
	return 0;
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
	mutex_lock(&output->sink_lock);
	output->signal_format = new_state->signal_format;
	output->signal_props = new_state->signal_props;
	mutex_unlock(&output->sink_lock);

	if (old_state->signal_format != new_state->signal_format ||
	    old_state->signal_props != new_state->signal_props)
		schedule_work(&output->hotplug_work);
}

/* Probing */

static void mmx_ddc_read_delay(size_t bytes)
{
	unsigned int blocks = DIV_ROUND_UP(bytes, MMX_EDID_BLOCK_SIZE);

	if (blocks)
		msleep(blocks * MMX_DDC_BLOCK_MS);
}

static int mmx_connector_detect_ctx(struct drm_connector *connector,
				    struct drm_modeset_acquire_ctx *ctx,
				    bool force)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	bool present;
	size_t len;

	const struct mmx_backend_funcs *backend =
		to_mmx_device(connector->dev)->backend;

	if (backend && backend->detect)
		return backend->detect(output);

	mutex_lock(&output->sink_lock);
	present = output->sink->present;
	len = output->edid_len;
	mutex_unlock(&output->sink_lock);

	/* Like a real port, look for the sink by reading its first block. */
	mmx_ddc_read_delay(min_t(size_t, len, MMX_EDID_BLOCK_SIZE));
	return present ? connector_status_connected :
			 connector_status_disconnected;
}

/*
 * The simulated sink's DDC channel: one EDID block per call, at DDC speed.
 * The core reads the EDID through it (drm_edid_read_custom()), so debugfs
 * edid_override and drm.edid_firmware replace the sink's EDID as they do on
 * any driver.
 */
static int mmx_sink_read_block(void *context, u8 *buf, unsigned int block,
			       size_t len)
{
	struct mmx_output *output = context;
	size_t start = (size_t)block * len;
	int ret = 0;

	mmx_ddc_read_delay(len);
	mutex_lock(&output->sink_lock);
	if (start + len > output->edid_len)
		ret = -EIO;
	else
		memcpy(buf, output->edid + start, len);
	mutex_unlock(&output->sink_lock);
	return ret;
}

/*
 * Publish @drm_edid (NULL: none) in the EDID property and add its modes.
 * drm_connector_update_edid_property() and drm_add_edid_modes() do that
 * alike on 6.1 and 6.12 (6.1's drm_edid_connector_update() adds the modes
 * as well, 6.12's does not); both want a struct edid, hence the copy.
 */
static int mmx_connector_add_edid(struct drm_connector *connector,
				  const struct drm_edid *drm_edid)
{
	struct edid *edid = NULL;
	int count = 0;

	if (drm_edid)
		edid = drm_edid_duplicate(drm_edid_raw(drm_edid));
	drm_connector_update_edid_property(connector, edid);
	if (edid)
		count = drm_add_edid_modes(connector, edid);
	kfree(edid);
	return count;
}

static int mmx_connector_add_timings(struct drm_connector *connector,
				     enum mmx_signal_format format, u64 props)
{
	const struct mmx_timing *timings;
	struct drm_display_mode *mode;
	unsigned int i, n;

	n = mmx_signal_timings(format, props, &timings);
	for (i = 0; i < n; i++) {
		const struct mmx_timing *t = &timings[i];

		mode = drm_mode_create(connector->dev);
		if (!mode)
			return i;
		mode->clock = t->clock_khz;
		mode->hdisplay = t->hdisplay;
		mode->hsync_start = t->hsync_start;
		mode->hsync_end = t->hsync_end;
		mode->htotal = t->htotal;
		mode->vdisplay = t->vdisplay;
		mode->vsync_start = t->vsync_start;
		mode->vsync_end = t->vsync_end;
		mode->vtotal = t->vtotal;
		mode->flags = t->flags;
		mode->type = DRM_MODE_TYPE_DRIVER;
		if (i == 0)
			mode->type |= DRM_MODE_TYPE_PREFERRED;
		drm_mode_set_name(mode);
		drm_mode_probed_add(connector, mode);
	}
	return n;
}

/*
 * The sink's preferred mode may be one the link cannot carry (4K at 60 Hz
 * over DisplayPort 1.1 rates): then the largest mode that fits is preferred,
 * so that every connected output keeps exactly one preferred mode.
 */
static void mmx_connector_fix_preferred(struct drm_connector *connector,
					enum mmx_signal_format format,
					u64 props)
{
	struct drm_display_mode *mode, *best = NULL;
	bool preferred_fits = false;

	list_for_each_entry(mode, &connector->probed_modes, head) {
		bool fits = !mmx_signal_fits_mode(format, props, mode);

		if (!fits) {
			mode->type &= ~DRM_MODE_TYPE_PREFERRED;
			continue;
		}
		if (mode->type & DRM_MODE_TYPE_PREFERRED)
			preferred_fits = true;
		if (!best ||
		    mode->hdisplay * mode->vdisplay >
		    best->hdisplay * best->vdisplay ||
		    (mode->hdisplay * mode->vdisplay ==
		     best->hdisplay * best->vdisplay &&
		     drm_mode_vrefresh(mode) > drm_mode_vrefresh(best)))
			best = mode;
	}
	if (!preferred_fits && best)
		best->type |= DRM_MODE_TYPE_PREFERRED;
}

static int mmx_connector_get_modes(struct drm_connector *connector)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	const struct drm_edid *drm_edid;
	enum mmx_signal_format format;
	int count;
	u64 props;

	const struct mmx_backend_funcs *backend =
		to_mmx_device(connector->dev)->backend;

	if (backend && backend->get_modes)
		return backend->get_modes(output);

	drm_edid = drm_edid_read_custom(connector, mmx_sink_read_block, output);
	count = mmx_connector_add_edid(connector, drm_edid);
	drm_edid_free(drm_edid);

	mutex_lock(&output->sink_lock);
	format = output->signal_format;
	props = output->signal_props;
	mutex_unlock(&output->sink_lock);

	count += mmx_connector_add_timings(connector, format, props);
	mmx_connector_fix_preferred(connector, format, props);
	return count;
}

static enum drm_mode_status
mmx_connector_mode_valid(struct drm_connector *connector,
			 struct drm_display_mode *mode)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	enum mmx_signal_format format;
	u64 props;

	mutex_lock(&output->sink_lock);
	format = output->signal_format;
	props = output->signal_props;
	mutex_unlock(&output->sink_lock);

	return mmx_signal_fits_mode(format, props, mode) ? MODE_CLOCK_HIGH :
							   MODE_OK;
}

/* Sinks */

/* Retry a signal switch with the connector's CRTC turned off. */
static int mmx_output_switch_dark(struct drm_atomic_state *state,
				  struct drm_connector_state *conn_state)
{
	struct mmx_connector_state *mstate = to_mmx_connector_state(conn_state);
	struct drm_connector *connector = conn_state->connector;
	enum mmx_signal_format format = mstate->signal_format;
	struct drm_crtc *crtc = conn_state->crtc;
	struct drm_connector_state *other_state;
	struct drm_plane_state *plane_state;
	struct drm_crtc_state *crtc_state;
	u64 props = mstate->signal_props;
	struct drm_connector *other;
	struct drm_plane *plane;
	int i, ret;

	drm_atomic_state_clear(state);
	conn_state = drm_atomic_get_connector_state(state, connector);
	if (IS_ERR(conn_state))
		return PTR_ERR(conn_state);
	mstate = to_mmx_connector_state(conn_state);
	mstate->signal_format = format;
	mstate->signal_props = props;
	mstate->signal_props_set = true;

	conn_state->link_status = DRM_MODE_LINK_STATUS_BAD;

	/* Turn the CRTC off altogether, as a client would: mode, planes. */
	crtc_state = drm_atomic_get_crtc_state(state, crtc);
	if (IS_ERR(crtc_state))
		return PTR_ERR(crtc_state);
	ret = drm_atomic_set_mode_prop_for_crtc(crtc_state, NULL);
	if (ret)
		return ret;
	crtc_state->active = false;
	ret = drm_atomic_set_crtc_for_connector(conn_state, NULL);
	if (ret)
		return ret;
	ret = drm_atomic_add_affected_connectors(state, crtc);
	if (ret)
		return ret;
	for_each_new_connector_in_state(state, other, other_state, i) {
		if (other_state->crtc != crtc)
			continue;
		ret = drm_atomic_set_crtc_for_connector(other_state, NULL);
		if (ret)
			return ret;
	}
	ret = drm_atomic_add_affected_planes(state, crtc);
	if (ret)
		return ret;
	for_each_new_plane_in_state(state, plane, plane_state, i) {
		if (plane_state->crtc != crtc)
			continue;
		ret = drm_atomic_set_crtc_for_plane(plane_state, NULL);
		if (ret)
			return ret;
		drm_atomic_set_fb_for_plane(plane_state, NULL);
	}
	return drm_atomic_commit(state);
}

/*
 * Plug @sink (a preset, or output->custom_sink) into @output: store its
 * EDID, switch the signal if the sink demands it, and tell clients where
 * the connector can tell.
 */
static int mmx_output_plug(struct mmx_output *output,
			   const struct mmx_sink *sink,
			   const u8 *edid, size_t edid_len)
{
	struct drm_device *dev = output->connector.dev;
	struct drm_modeset_acquire_ctx ctx;
	struct drm_connector_state *conn_state;
	struct mmx_connector_state *mstate;
	struct drm_atomic_state *state;
	enum mmx_signal_format format;
	bool switched = false;
	u64 props;
	int ret;

	mutex_lock(&output->sink_lock);
	if (edid) {
		memcpy(output->edid, edid, edid_len);
		output->edid_len = edid_len;
	} else {
		ret = mmx_edid_build(sink, output->edid, sizeof(output->edid));
		output->edid_len = ret > 0 ? ret : 0;
	}
	output->sink = sink;
	mutex_unlock(&output->sink_lock);

	/* The sink may demand another signal: commit it like userspace would. */
	state = drm_atomic_state_alloc(dev);
	if (!state)
		return -ENOMEM;
	drm_modeset_acquire_init(&ctx, 0);
	state->acquire_ctx = &ctx;
retry:
	conn_state = drm_atomic_get_connector_state(state, &output->connector);
	if (IS_ERR(conn_state)) {
		ret = PTR_ERR(conn_state);
		goto out;
	}
	mstate = to_mmx_connector_state(conn_state);
	format = mstate->signal_format;
	props = mstate->signal_props;
	ret = 0;
	if (sink->present && !mmx_sink_signal(sink, output->kind, &format,
					      &props) &&
	    (format != mstate->signal_format || props != mstate->signal_props)) {
		mstate->signal_format = format;
		mstate->signal_props = props;
		mstate->signal_props_set = true;
		state->allow_modeset = true;
		ret = drm_atomic_commit(state);
		if (ret == -EINVAL && conn_state->crtc) {
			/*
			 * The new signal cannot carry the current mode: like a
			 * failed link, the output goes dark until a client
			 * picks a mode after the hotplug event.
			 */
			ret = mmx_output_switch_dark(state, conn_state);
		}
		switched = !ret;
	}
out:
	if (ret == -EDEADLK) {
		drm_atomic_state_clear(state);
		drm_modeset_backoff(&ctx);
		goto retry;
	}
	drm_atomic_state_put(state);
	drm_modeset_drop_locks(&ctx);
	drm_modeset_acquire_fini(&ctx);
	if (ret)
		drm_dbg_kms(dev, "[CONNECTOR:%d:%s] signal switch failed: %d\n",
			    output->connector.base.id, output->connector.name,
			    ret);

	if (mmx_output_descs[output->kind].hpd) {
		/* The hotplug interrupt: re-probe now and tell clients. */
		mutex_lock(&dev->mode_config.mutex);
		output->connector.funcs->fill_modes(&output->connector,
						     dev->mode_config.max_width,
						     dev->mode_config.max_height);
		mutex_unlock(&dev->mode_config.mutex);
		drm_kms_helper_hotplug_event(dev);
	} else if (switched) {
		drm_kms_helper_hotplug_event(dev);
	}
	return 0;
}

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
	ret = mmx_output_plug(output, sink, NULL, 0);
	return ret ? ret : len;
}

static int mmx_sink_show(struct seq_file *m, void *data)
{
	struct mmx_output *output = m->private;

	mutex_lock(&output->sink_lock);
	seq_printf(m, "%s\n", output->sink->name);
	mutex_unlock(&output->sink_lock);
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

static ssize_t mmx_edid_write(struct file *file, const char __user *ubuf,
			      size_t len, loff_t *offp)
{
	struct mmx_output *output = file_inode(file)->i_private;
	u8 *edid;
	int ret;

	if (len == 0 || len > MMX_EDID_MAX_SIZE)
		return -EINVAL;
	edid = memdup_user(ubuf, len);
	if (IS_ERR(edid))
		return PTR_ERR(edid);

	ret = mmx_edid_validate(edid, len);
	if (ret)
		goto out_free;

	mutex_lock(&output->sink_lock);
	ret = mmx_sink_from_edid(&output->custom_sink, edid, len);
	mutex_unlock(&output->sink_lock);
	if (ret)
		goto out_free;

	ret = mmx_output_plug(output, &output->custom_sink, edid, len);
out_free:
	kfree(edid);
	return ret ? ret : len;
}

static ssize_t mmx_edid_read(struct file *file, char __user *ubuf, size_t len,
			     loff_t *offp)
{
	struct mmx_output *output = file_inode(file)->i_private;
	u8 edid[MMX_EDID_MAX_SIZE];
	size_t size;

	mutex_lock(&output->sink_lock);
	size = output->edid_len;
	memcpy(edid, output->edid, size);
	mutex_unlock(&output->sink_lock);

	return simple_read_from_buffer(ubuf, len, offp, edid, size);
}

static const struct file_operations mmx_edid_fops = {
	.owner = THIS_MODULE,
	.read = mmx_edid_read,
	.write = mmx_edid_write,
	.llseek = default_llseek,
};

static void mmx_connector_debugfs_init(struct drm_connector *connector,
				       struct dentry *root)
{
	struct mmx_output *output = connector_to_mmx_output(connector);

	debugfs_create_file("mmx_sink", 0644, root, output, &mmx_sink_fops);
	debugfs_create_file("mmx_edid", 0644, root, output, &mmx_edid_fops);
}

static const struct drm_connector_helper_funcs mmx_connector_helper_funcs = {
	.detect_ctx = mmx_connector_detect_ctx,
	.get_modes = mmx_connector_get_modes,
	.mode_valid = mmx_connector_mode_valid,
	.atomic_check = mmx_connector_atomic_check,
};

static const struct drm_connector_funcs mmx_connector_funcs = {
	.fill_modes = drm_helper_probe_single_connector_modes,
	.reset = mmx_connector_reset,
	.atomic_duplicate_state = mmx_connector_duplicate_state,
	.atomic_destroy_state = mmx_connector_destroy_state,
	.atomic_set_property = mmx_connector_set_property,
	.atomic_get_property = mmx_connector_get_property,
	.debugfs_init = mmx_connector_debugfs_init,
};

/* Properties */

static int mmx_output_create_props(struct mmx_device *mmx,
				   struct mmx_output *output)
{
	struct drm_connector *connector = &output->connector;
	u32 formats = mmx_signal_kind_formats(output->kind);
	u64 values[MMX_SIGNAL_VALUES_MAX];
	char name[MMX_SIGNAL_NAME_MAX];
	struct drm_property *prop;
	unsigned int i, n;
	int ret;

	drm_object_attach_property(&connector->base, mmx->connector_type_prop,
				   mmx_signal_connector_type(output->kind));
	drm_object_attach_property(&connector->base, mmx->connector_number_prop,
				   output->index + 1);

	/* A property with a single possible value is immutable. */
	prop = drm_property_create(&mmx->drm, DRM_MODE_PROP_ENUM |
				   (hweight32(formats) == 1 ?
				    DRM_MODE_PROP_IMMUTABLE : 0),
				   "SignalFormat", hweight32(formats));
	if (!prop)
		return -ENOMEM;
	for (i = 0; i < MMX_SIGNAL_COUNT; i++) {
		if (!(formats & MMX_SIGNAL_FMT(i)))
			continue;
		ret = drm_property_add_enum(prop, mmx_signal_format_names[i].value,
					    mmx_signal_format_names[i].name);
		if (ret)
			return ret;
	}
	output->signal_format_prop = prop;
	drm_object_attach_property(&connector->base, prop,
				   output->signal_format);

	/*
	 * SignalProperties: an enum of the attribute sets valid with one of
	 * the kind's formats, each numbered by its set (not a bitmask
	 * property, which generic clients such as Xorg cannot mirror).
	 */
	n = mmx_signal_kind_values(output->kind, values);
	if (!n)
		return 0;
	prop = drm_property_create(&mmx->drm, DRM_MODE_PROP_ENUM |
				   (n == 1 ? DRM_MODE_PROP_IMMUTABLE : 0),
				   "SignalProperties", n);
	if (!prop)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		ret = mmx_signal_props_name(values[i], name, sizeof(name));
		if (ret < 0)
			return ret;
		ret = drm_property_add_enum(prop, values[i], name);
		if (ret)
			return ret;
	}
	output->signal_props_prop = prop;
	drm_object_attach_property(&connector->base, prop, output->signal_props);
	return 0;
}

static int mmx_device_create_props(struct mmx_device *mmx)
{
	struct drm_prop_enum_list types[MMX_CONNECTOR_TYPE_COUNT];
	struct drm_device *dev = &mmx->drm;
	unsigned int i;

	if (mmx->connector_type_prop)
		return 0;

	for (i = 0; i < MMX_CONNECTOR_TYPE_COUNT; i++) {
		types[i].type = mmx_connector_type_names[i].value;
		types[i].name = mmx_connector_type_names[i].name;
	}
	mmx->connector_type_prop =
		drm_property_create_enum(dev, DRM_MODE_PROP_IMMUTABLE,
					 "ConnectorType", types,
					 MMX_CONNECTOR_TYPE_COUNT);
	mmx->connector_number_prop =
		drm_property_create_range(dev, DRM_MODE_PROP_IMMUTABLE,
					  "ConnectorNumber", 0,
					  MMX_MAX_OUTPUTS);
	mmx->compatibility_list_prop =
		drm_property_create(dev, DRM_MODE_PROP_BLOB |
					 DRM_MODE_PROP_IMMUTABLE,
				    "CompatibilityList", 0);
	mmx->clone_list_prop =
		drm_property_create(dev, DRM_MODE_PROP_BLOB |
					 DRM_MODE_PROP_IMMUTABLE,
				    "CloneList", 0);
	if (!mmx->connector_type_prop || !mmx->connector_number_prop ||
	    !mmx->compatibility_list_prop || !mmx->clone_list_prop)
		return -ENOMEM;
	return 0;
}

static bool mmx_outputs_clone(const struct mmx_output *a,
			      const struct mmx_output *b)
{
	enum mmx_clone_group group = mmx_output_descs[a->kind].clone_group;

	return a != b && group != MMX_CLONE_NONE &&
	       group == mmx_output_descs[b->kind].clone_group;
}

/* Write every (connector, format) pair of the outputs @pick accepts. */
static int mmx_output_list_blob(struct mmx_device *mmx,
				struct mmx_output *output,
				struct drm_property *prop,
				bool (*pick)(const struct mmx_output *,
					     const struct mmx_output *))
{
	struct drm_mmx_output_signal *pairs;
	struct drm_property_blob *blob;
	unsigned int i, f, n = 0;

	pairs = kcalloc(MMX_MAX_OUTPUTS * MMX_SIGNAL_COUNT, sizeof(*pairs),
			GFP_KERNEL);
	if (!pairs)
		return -ENOMEM;

	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *other = &mmx->outputs[i];
		u32 formats = mmx_signal_kind_formats(other->kind);

		if (!pick(output, other))
			continue;
		for (f = 0; f < MMX_SIGNAL_COUNT; f++) {
			if (!(formats & MMX_SIGNAL_FMT(f)))
				continue;
			pairs[n].connector_id = other->connector.base.id;
			pairs[n].signal_format = f;
			n++;
		}
	}

	/* An empty list is no blob at all (blob id 0). */
	if (!n) {
		kfree(pairs);
		drm_object_attach_property(&output->connector.base, prop, 0);
		return 0;
	}
	blob = drm_property_create_blob(&mmx->drm, n * sizeof(*pairs), pairs);
	kfree(pairs);
	if (IS_ERR(blob))
		return PTR_ERR(blob);
	drm_object_attach_property(&output->connector.base, prop,
				   blob->base.id);
	return 0;
}

static bool mmx_outputs_compatible(const struct mmx_output *a,
				   const struct mmx_output *b)
{
	return a != b;
}

/**
 * mmx_outputs_link - set up what depends on all outputs
 * @mmx: the device, with every output created
 *
 * Every encoder may drive every CRTC, as on most hardware, so that a client
 * can move an output to another CRTC; encoders of one clone group may share
 * a CRTC, and the writeback encoder of a CRTC clones every encoder. The
 * CompatibilityList and CloneList blobs say the same to RandR clients.
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_outputs_link(struct mmx_device *mmx)
{
	unsigned int i, j;
	u32 crtcs = 0;
	int ret;

	for (i = 0; i < mmx->num_outputs; i++)
		crtcs |= drm_crtc_mask(&mmx->outputs[i].crtc);

	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *a = &mmx->outputs[i];
		u32 clones = drm_encoder_mask(&a->encoder);

		for (j = 0; j < mmx->num_outputs; j++) {
			struct mmx_output *b = &mmx->outputs[j];

			if (mmx_outputs_clone(a, b))
				clones |= drm_encoder_mask(&b->encoder);
		}
		a->encoder.possible_crtcs = crtcs;
		a->encoder.possible_clones = clones;
	}

	/* Writeback encoders clone whatever may drive their CRTC. */
	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *wb_out = &mmx->outputs[i];
		u32 wb_mask = drm_encoder_mask(&wb_out->wb.encoder);

		wb_out->wb.encoder.possible_clones = wb_mask;
		for (j = 0; j < mmx->num_outputs; j++) {
			struct drm_encoder *enc = &mmx->outputs[j].encoder;

			if (!(enc->possible_crtcs & drm_crtc_mask(&wb_out->crtc)))
				continue;
			wb_out->wb.encoder.possible_clones |= drm_encoder_mask(enc);
			enc->possible_clones |= wb_mask;
		}
	}

	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *output = &mmx->outputs[i];

		ret = mmx_output_list_blob(mmx, output,
					   mmx->compatibility_list_prop,
					   mmx_outputs_compatible);
		if (ret)
			return ret;
		ret = mmx_output_list_blob(mmx, output, mmx->clone_list_prop,
					   mmx_outputs_clone);
		if (ret)
			return ret;
	}
	return 0;
}

static void mmx_output_hotplug_work(struct work_struct *work)
{
	struct mmx_output *output = container_of(work, struct mmx_output,
						  hotplug_work);

	drm_kms_helper_hotplug_event(output->connector.dev);
}

static void mmx_output_release(struct drm_device *dev, void *data)
{
	struct mmx_output *output = data;

	cancel_work_sync(&output->hotplug_work);
	mutex_destroy(&output->sink_lock);
}

/**
 * mmx_output_init - create the encoder and connector of an output
 * @mmx: the device
 * @output: the output, whose CRTC already exists
 *
 * The output starts with its kind's default sink plugged in and the signal
 * that sink asks for.
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_output_init(struct mmx_device *mmx, struct mmx_output *output)
{
	const struct mmx_output_desc *desc = &mmx_output_descs[output->kind];
	struct drm_device *dev = &mmx->drm;
	struct drm_connector *connector = &output->connector;
	int ret;

	mutex_init(&output->sink_lock);
	INIT_WORK(&output->hotplug_work, mmx_output_hotplug_work);
	ret = drmm_add_action_or_reset(dev, mmx_output_release, output);
	if (ret)
		return ret;

	output->sink = &mmx_sinks[desc->default_sink];
	ret = mmx_edid_build(output->sink, output->edid, sizeof(output->edid));
	output->edid_len = ret > 0 ? ret : 0;
	output->signal_format = mmx_signal_kind_default(output->kind);
	output->signal_props = mmx_signal_default_props(output->signal_format);
	mmx_sink_signal(output->sink, output->kind, &output->signal_format,
			&output->signal_props);

	ret = mmx_device_create_props(mmx);
	if (ret)
		return ret;

	ret = drmm_encoder_init(dev, &output->encoder, NULL,
				desc->encoder_type, NULL);
	if (ret)
		return ret;
	output->encoder.possible_crtcs = drm_crtc_mask(&output->crtc);

	ret = drmm_connector_init(dev, connector, &mmx_connector_funcs,
				  desc->connector_type, NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(connector, &mmx_connector_helper_funcs);
	/* TV and component signals include interlaced timings. */
	connector->interlace_allowed = true;
	connector->polled = desc->hpd ? DRM_CONNECTOR_POLL_HPD :
			    DRM_CONNECTOR_POLL_CONNECT |
			    DRM_CONNECTOR_POLL_DISCONNECT;

	ret = mmx_output_create_props(mmx, output);
	if (ret)
		return ret;

	return drm_connector_attach_encoder(connector, &output->encoder);
}
