// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Outputs: the simulated physical connectors, their encoders and modes.
 */

#include <linux/string.h>

#include <drm/drm_atomic_helper.h>
#include <drm/drm_edid.h>
#include <drm/drm_managed.h>
#include <drm/drm_modes.h>
#include <drm/drm_print.h>
#include <drm/drm_probe_helper.h>

#include "mmx_drv.h"

/*
 * What each kind offers: analog outputs stop at 2048x1536, single-link DVI
 * at 1920x1200, TV outputs at 1024x768; HDMI, DisplayPort and eDP go to
 * 3840x2160.
 */
const struct mmx_output_desc mmx_output_descs[MMX_KIND_COUNT] = {
	[MMX_KIND_VGA] = { "VGA", DRM_MODE_CONNECTOR_VGA,
			   DRM_MODE_ENCODER_DAC, 2048, 1536, 1024, 768 },
	[MMX_KIND_DVII] = { "DVI-I", DRM_MODE_CONNECTOR_DVII,
			    DRM_MODE_ENCODER_TMDS, 1920, 1200, 1920, 1080 },
	[MMX_KIND_DVID] = { "DVI-D", DRM_MODE_CONNECTOR_DVID,
			    DRM_MODE_ENCODER_TMDS, 1920, 1200, 1920, 1080 },
	[MMX_KIND_DVIA] = { "DVI-A", DRM_MODE_CONNECTOR_DVIA,
			    DRM_MODE_ENCODER_DAC, 2048, 1536, 1024, 768 },
	[MMX_KIND_HDMIA] = { "HDMI-A", DRM_MODE_CONNECTOR_HDMIA,
			     DRM_MODE_ENCODER_TMDS, 3840, 2160, 1920, 1080 },
	[MMX_KIND_DP] = { "DP", DRM_MODE_CONNECTOR_DisplayPort,
			  DRM_MODE_ENCODER_TMDS, 3840, 2160, 2560, 1440 },
	[MMX_KIND_EDP] = { "eDP", DRM_MODE_CONNECTOR_eDP,
			   DRM_MODE_ENCODER_TMDS, 3840, 2160, 1920, 1080 },
	[MMX_KIND_LVDS] = { "LVDS", DRM_MODE_CONNECTOR_LVDS,
			    DRM_MODE_ENCODER_LVDS, 1920, 1200, 1280, 800 },
	[MMX_KIND_COMPOSITE] = { "Composite", DRM_MODE_CONNECTOR_Composite,
				 DRM_MODE_ENCODER_TVDAC, 1024, 768, 640, 480 },
	[MMX_KIND_SVIDEO] = { "SVIDEO", DRM_MODE_CONNECTOR_SVIDEO,
			      DRM_MODE_ENCODER_TVDAC, 1024, 768, 640, 480 },
	[MMX_KIND_COMPONENT] = { "Component", DRM_MODE_CONNECTOR_Component,
				 DRM_MODE_ENCODER_TVDAC, 1920, 1080, 1280, 720 },
	[MMX_KIND_TV] = { "TV", DRM_MODE_CONNECTOR_TV,
			  DRM_MODE_ENCODER_TVDAC, 1024, 768, 640, 480 },
};

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
	if (refresh < 1)
		return MODE_V_ILLEGAL;
	if (refresh > 240)
		return MODE_V_ILLEGAL;
	return MODE_OK;
}

/* Common resolutions missing from the DMT list that drm_add_modes_noedid uses. */
static const struct {
	u16 width;
	u16 height;
} mmx_cvt_modes[] = {
	{ 2560, 1440 },
	{ 3840, 2160 },
};

static int mmx_connector_get_modes(struct drm_connector *connector)
{
	struct mmx_output *output = container_of(connector, struct mmx_output,
						  connector);
	const struct mmx_output_desc *desc = &mmx_output_descs[output->kind];
	struct drm_device *dev = connector->dev;
	struct drm_display_mode *mode;
	unsigned int i;
	int count;

	if (mmx_virtio_output(output))
		return mmx_virtio_get_modes(output);

	count = drm_add_modes_noedid(connector, desc->max_width,
				     desc->max_height);

	for (i = 0; i < ARRAY_SIZE(mmx_cvt_modes); i++) {
		if (mmx_cvt_modes[i].width > desc->max_width ||
		    mmx_cvt_modes[i].height > desc->max_height)
			continue;
		mode = drm_cvt_mode(dev, mmx_cvt_modes[i].width,
				    mmx_cvt_modes[i].height, 60, true, false,
				    false);
		if (!mode)
			continue;
		mode->type |= DRM_MODE_TYPE_DRIVER;
		drm_mode_probed_add(connector, mode);
		count++;
	}

	drm_set_preferred_mode(connector, desc->preferred_width,
			       desc->preferred_height);
	return count;
}

static const struct drm_connector_helper_funcs mmx_connector_helper_funcs = {
	.get_modes = mmx_connector_get_modes,
};

static enum drm_connector_status
mmx_connector_detect(struct drm_connector *connector, bool force)
{
	struct mmx_output *output = container_of(connector, struct mmx_output,
						  connector);

	if (mmx_virtio_output(output))
		return mmx_virtio_detect(output);
	return connector_status_connected;
}

static const struct drm_connector_funcs mmx_connector_funcs = {
	.detect = mmx_connector_detect,
	.fill_modes = drm_helper_probe_single_connector_modes,
	.reset = drm_atomic_helper_connector_reset,
	.atomic_duplicate_state = drm_atomic_helper_connector_duplicate_state,
	.atomic_destroy_state = drm_atomic_helper_connector_destroy_state,
};

/**
 * mmx_output_init - create the encoder and connector of an output
 * @mmx: the device
 * @output: the output, whose CRTC already exists
 *
 * Return: 0 on success or a negative errno.
 */
int mmx_output_init(struct mmx_device *mmx, struct mmx_output *output)
{
	const struct mmx_output_desc *desc = &mmx_output_descs[output->kind];
	struct drm_device *dev = &mmx->drm;
	int ret;

	ret = drmm_encoder_init(dev, &output->encoder, NULL,
				desc->encoder_type, NULL);
	if (ret)
		return ret;
	output->encoder.possible_crtcs = drm_crtc_mask(&output->crtc);

	ret = drmm_connector_init(dev, &output->connector,
				  &mmx_connector_funcs, desc->connector_type,
				  NULL);
	if (ret)
		return ret;
	drm_connector_helper_add(&output->connector,
				 &mmx_connector_helper_funcs);

	return drm_connector_attach_encoder(&output->connector,
					    &output->encoder);
}
