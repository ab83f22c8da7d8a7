// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Outputs: the simulated physical connectors, their encoders and RandR
 * 1.3's output properties (the sinks plugged into them: mmx_sink.c).
 */

#include <linux/slab.h>
#include <linux/string.h>

#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
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
EXPORT_SYMBOL_GPL(mmx_output_descs);

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

	mmx_sink_port_signal(output, &state->signal_format,
			     &state->signal_props);
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

/*
 * Give a new signal format set alone its default properties, and check
 * that @output's kind can send the signal.
 */
static int mmx_connector_check_signal(struct mmx_output *output,
				      struct mmx_connector_state *mnew,
				      const struct mmx_connector_state *mold)
{
	struct drm_connector *connector = &output->connector;

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
	return 0;
}

/* Can the link of the signal @mnew carry @mode? */
static int mmx_connector_check_link(struct drm_connector *connector,
				    const struct mmx_connector_state *mnew,
				    const struct drm_display_mode *mode)
{
	if (mmx_sink_link_carries(mnew->signal_format, mnew->signal_props,
				  mode))
		return 0;
	drm_dbg_atomic(connector->dev,
		       "[CONNECTOR:%d:%s] link cannot carry " DRM_MODE_FMT "\n",
		       connector->base.id, connector->name, DRM_MODE_ARG(mode));
	return -EINVAL;
}

static int mmx_connector_atomic_check(struct drm_connector *connector,
				      struct mmx_atomic_state *state)
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
	int ret;

	ret = mmx_connector_check_signal(output, mnew, mold);
	if (ret)
		return ret;

	if (new_state->crtc)
		crtc_state = drm_atomic_get_new_crtc_state(state,
							   new_state->crtc);
	/*
	 * The link must carry the mode whenever the CRTC has one, lit or not:
	 * a configuration accepted while DPMS is off must light when a client
	 * sets ACTIVE back, which is no time to refuse it. The exception is a
	 * link a sink change left Bad (mmx_sink.c): the master may still turn
	 * the CRTC dark before it picks a mode; lighting it, or setting the
	 * link-status back to Good, needs a mode that fits.
	 */
	if (!crtc_state || !crtc_state->enable)
		return 0;
	if (new_state->link_status == DRM_MODE_LINK_STATUS_BAD &&
	    !crtc_state->active)
		return 0;

	ret = mmx_connector_check_link(connector, mnew, &crtc_state->mode);
	if (ret)
		return ret;

	/* A dark CRTC takes the new signal when it is lit again. */
	changed = mnew->signal_format != mold->signal_format ||
		  mnew->signal_props != mold->signal_props;
	if (changed && crtc_state->active)
		crtc_state->connectors_changed = true;
	return 0;
}

/* Probing */

static int mmx_connector_detect_ctx(struct drm_connector *connector,
				    struct drm_modeset_acquire_ctx *ctx,
				    bool force)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	const struct mmx_backend_funcs *backend =
		to_mmx_device(connector->dev)->backend;

	if (backend && backend->detect)
		return backend->detect(output);
	return mmx_sink_detect(output);
}

/**
 * mmx_connector_add_edid - publish an EDID and add its modes
 * @connector: the connector, its probed modes being built
 * @drm_edid: the EDID, NULL for none
 *
 * Sets the connector's EDID property (and the display info) from
 * @drm_edid and adds the modes it defines, for every backend.
 * drm_connector_update_edid_property() and drm_add_edid_modes() do that
 * alike on every kernel, whereas drm_edid_connector_update() adds the
 * modes only before 6.3 (later, drm_edid_connector_add_modes() does);
 * both want a struct edid, hence the copy.
 *
 * Return: the number of modes added, 0 without an EDID.
 */
int mmx_connector_add_edid(struct drm_connector *connector,
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
EXPORT_SYMBOL_GPL(mmx_connector_add_edid);

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
		bool fits = mmx_sink_link_carries(format, props, mode);

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

/* A sink's DDC channel: reads EDID block @block into @buf (0 or -errno). */
typedef int mmx_ddc_read_block_fn(void *context, u8 *buf, unsigned int block,
				  size_t len);

/*
 * The modes of @output: the EDID the core reads through @read_block (the
 * backend's DDC channel, given @output), or the override or firmware EDID
 * that replaces it, then the signal's own timings, with one preferred mode
 * the link carries.
 */
static int mmx_output_get_modes(struct mmx_output *output,
				mmx_ddc_read_block_fn *read_block)
{
	struct drm_connector *connector = &output->connector;
	const struct drm_edid *drm_edid;
	enum mmx_signal_format format;
	int count;
	u64 props;

	drm_edid = drm_edid_read_custom(connector, read_block, output);
	count = mmx_connector_add_edid(connector, drm_edid);
	drm_edid_free(drm_edid);

	mmx_sink_port_signal(output, &format, &props);
	count += mmx_connector_add_timings(connector, format, props);
	mmx_connector_fix_preferred(connector, format, props);
	return count;
}

static int mmx_connector_get_modes(struct drm_connector *connector)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	const struct mmx_backend_funcs *backend =
		to_mmx_device(connector->dev)->backend;

	if (backend && backend->get_modes)
		return backend->get_modes(output);
	return mmx_output_get_modes(output, mmx_sink_read_block);
}

static enum drm_mode_status
mmx_connector_mode_valid(struct drm_connector *connector,
			 MMX_CONNECTOR_MODE_CONST struct drm_display_mode *mode)
{
	struct mmx_output *output = connector_to_mmx_output(connector);
	enum mmx_signal_format format;
	u64 props;

	mmx_sink_port_signal(output, &format, &props);
	return mmx_sink_link_carries(format, props, mode) ? MODE_OK :
							    MODE_CLOCK_HIGH;
}

static void mmx_connector_debugfs_init(struct drm_connector *connector,
				       struct dentry *root)
{
	mmx_sink_debugfs_init(connector_to_mmx_output(connector), root);
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

/* The SignalFormat property of @output, set to @format. */
static int mmx_output_format_prop(struct mmx_device *mmx,
				  struct mmx_output *output,
				  enum mmx_signal_format format)
{
	u32 formats = mmx_signal_kind_formats(output->kind);
	struct drm_property *prop;
	unsigned int i;
	int ret;

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
	drm_object_attach_property(&output->connector.base, prop, format);
	return 0;
}

/*
 * The SignalProperties property of @output, set to @props: an enum of the
 * attribute sets valid with one of the kind's formats, each numbered by
 * its set (not a bitmask property, which generic clients such as Xorg
 * cannot mirror); none when the kind's formats have no properties.
 */
static int mmx_output_signal_props_prop(struct mmx_device *mmx,
					struct mmx_output *output, u64 props)
{
	u64 values[MMX_SIGNAL_VALUES_MAX];
	char name[MMX_SIGNAL_NAME_MAX];
	struct drm_property *prop;
	unsigned int i, n;
	int ret;

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
	drm_object_attach_property(&output->connector.base, prop, props);
	return 0;
}

static int mmx_output_create_props(struct mmx_device *mmx,
				   struct mmx_output *output)
{
	struct drm_connector *connector = &output->connector;
	enum mmx_signal_format format;
	u64 props;
	int ret;

	mmx_sink_port_signal(output, &format, &props);
	drm_object_attach_property(&connector->base, mmx->connector_type_prop,
				   mmx_signal_connector_type(output->kind));
	drm_object_attach_property(&connector->base, mmx->connector_number_prop,
				   output->index + 1);

	ret = mmx_output_format_prop(mmx, output, format);
	if (ret)
		return ret;
	return mmx_output_signal_props_prop(mmx, output, props);
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

/*
 * The CRTCs each encoder may drive (its own only with a backend of fixed
 * routing) and the encoders it may share one with.
 */
static void mmx_outputs_route(struct mmx_device *mmx)
{
	bool fixed = mmx->backend && mmx->backend->fixed_routing;
	unsigned int i, j;
	u32 crtcs = 0;

	for (i = 0; i < mmx->num_outputs; i++)
		crtcs |= drm_crtc_mask(&mmx->outputs[i].crtc);

	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *a = &mmx->outputs[i];
		u32 clones = drm_encoder_mask(&a->encoder);

		for (j = 0; j < mmx->num_outputs && !fixed; j++) {
			struct mmx_output *b = &mmx->outputs[j];

			if (mmx_outputs_clone(a, b))
				clones |= drm_encoder_mask(&b->encoder);
		}
		a->encoder.possible_crtcs = fixed ? drm_crtc_mask(&a->crtc) : crtcs;
		a->encoder.possible_clones = clones;
	}
}

/* Writeback encoders clone whatever may drive their CRTC. */
static void mmx_outputs_wb_clones(struct mmx_device *mmx)
{
	unsigned int i, j;

	for (i = 0; i < mmx->num_outputs; i++) {
		struct mmx_output *wb_out = &mmx->outputs[i];
		u32 wb_mask;

		if (!wb_out->layout.writeback)
			continue;
		wb_mask = drm_encoder_mask(&wb_out->wb.encoder);
		wb_out->wb.encoder.possible_clones = wb_mask;
		for (j = 0; j < mmx->num_outputs; j++) {
			struct drm_encoder *enc = &mmx->outputs[j].encoder;

			if (!(enc->possible_crtcs & drm_crtc_mask(&wb_out->crtc)))
				continue;
			wb_out->wb.encoder.possible_clones |= drm_encoder_mask(enc);
			enc->possible_clones |= wb_mask;
		}
	}
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
	unsigned int i;
	int ret;

	mmx_outputs_route(mmx);
	mmx_outputs_wb_clones(mmx);

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

	ret = mmx_sink_port_init(output);
	if (ret)
		return ret;

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
