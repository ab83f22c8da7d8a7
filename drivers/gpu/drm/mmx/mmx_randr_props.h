/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * RandR 1.3 output properties of the mmx connectors: ConnectorType,
 * SignalFormat and SignalProperties, their value names, the rules tying them
 * to each output kind, the link capacity of each signal and the fixed
 * timings of the TV signals. No DRM include: the same source is built into
 * the module and into the host unit tests.
 */

#ifndef _MMX_RANDR_PROPS_H_
#define _MMX_RANDR_PROPS_H_

#include "pixel_geometry/mmx_pure.h"

/**
 * enum mmx_output_kind - what kind of physical output a connector simulates
 * @MMX_KIND_VGA: analog VGA
 * @MMX_KIND_DVII: DVI-I (analog and digital)
 * @MMX_KIND_DVID: DVI-D (digital)
 * @MMX_KIND_DVIA: DVI-A (analog)
 * @MMX_KIND_HDMIA: HDMI type A
 * @MMX_KIND_DP: DisplayPort
 * @MMX_KIND_EDP: embedded DisplayPort panel
 * @MMX_KIND_LVDS: LVDS panel
 * @MMX_KIND_COMPOSITE: composite TV
 * @MMX_KIND_SVIDEO: S-Video TV
 * @MMX_KIND_COMPONENT: component TV
 * @MMX_KIND_TV: generic TV connector (composite and S-Video)
 * @MMX_KIND_SCART: SCART TV connector (composite, S-Video and component)
 * @MMX_KIND_COUNT: number of kinds
 */
enum mmx_output_kind {
	MMX_KIND_VGA,
	MMX_KIND_DVII,
	MMX_KIND_DVID,
	MMX_KIND_DVIA,
	MMX_KIND_HDMIA,
	MMX_KIND_DP,
	MMX_KIND_EDP,
	MMX_KIND_LVDS,
	MMX_KIND_COMPOSITE,
	MMX_KIND_SVIDEO,
	MMX_KIND_COMPONENT,
	MMX_KIND_TV,
	MMX_KIND_SCART,
	MMX_KIND_COUNT,
};

/**
 * enum mmx_connector_type - values of the RandR "ConnectorType" property
 * @MMX_CONNECTOR_TYPE_UNKNOWN: "unknown"
 * @MMX_CONNECTOR_TYPE_VGA: "VGA"
 * @MMX_CONNECTOR_TYPE_DVI: "DVI", a DVI connector of unknown kind
 * @MMX_CONNECTOR_TYPE_DVII: "DVI-I"
 * @MMX_CONNECTOR_TYPE_DVIA: "DVI-A"
 * @MMX_CONNECTOR_TYPE_DVID: "DVI-D"
 * @MMX_CONNECTOR_TYPE_HDMI: "HDMI"
 * @MMX_CONNECTOR_TYPE_PANEL: "Panel", a built-in (LVDS or eDP) panel
 * @MMX_CONNECTOR_TYPE_TV: "TV", a multi-format TV connector
 * @MMX_CONNECTOR_TYPE_TV_COMPOSITE: "TV-Composite"
 * @MMX_CONNECTOR_TYPE_TV_SVIDEO: "TV-SVideo"
 * @MMX_CONNECTOR_TYPE_TV_COMPONENT: "TV-Component"
 * @MMX_CONNECTOR_TYPE_TV_SCART: "TV-SCART"
 * @MMX_CONNECTOR_TYPE_TV_C4: "TV-C4"
 * @MMX_CONNECTOR_TYPE_DISPLAYPORT: "DisplayPort"
 * @MMX_CONNECTOR_TYPE_COUNT: number of values
 *
 * The values and their order are those of the RandR protocol
 * specification, section "Properties".
 */
enum mmx_connector_type {
	MMX_CONNECTOR_TYPE_UNKNOWN,
	MMX_CONNECTOR_TYPE_VGA,
	MMX_CONNECTOR_TYPE_DVI,
	MMX_CONNECTOR_TYPE_DVII,
	MMX_CONNECTOR_TYPE_DVIA,
	MMX_CONNECTOR_TYPE_DVID,
	MMX_CONNECTOR_TYPE_HDMI,
	MMX_CONNECTOR_TYPE_PANEL,
	MMX_CONNECTOR_TYPE_TV,
	MMX_CONNECTOR_TYPE_TV_COMPOSITE,
	MMX_CONNECTOR_TYPE_TV_SVIDEO,
	MMX_CONNECTOR_TYPE_TV_COMPONENT,
	MMX_CONNECTOR_TYPE_TV_SCART,
	MMX_CONNECTOR_TYPE_TV_C4,
	MMX_CONNECTOR_TYPE_DISPLAYPORT,
	MMX_CONNECTOR_TYPE_COUNT,
};

/**
 * enum mmx_signal_format - values of the RandR "SignalFormat" property
 * @MMX_SIGNAL_UNKNOWN: "unknown"
 * @MMX_SIGNAL_VGA: "VGA", analog RGB
 * @MMX_SIGNAL_TMDS: "TMDS", DVI or HDMI digital
 * @MMX_SIGNAL_LVDS: "LVDS", panel link
 * @MMX_SIGNAL_COMPOSITE: "Composite", composite video of any TV standard
 * @MMX_SIGNAL_COMPOSITE_PAL: "Composite-PAL"
 * @MMX_SIGNAL_COMPOSITE_NTSC: "Composite-NTSC"
 * @MMX_SIGNAL_COMPOSITE_SECAM: "Composite-SECAM"
 * @MMX_SIGNAL_SVIDEO: "SVideo", separate luma and chroma
 * @MMX_SIGNAL_COMPONENT: "Component", YPbPr
 * @MMX_SIGNAL_DISPLAYPORT: "DisplayPort"
 * @MMX_SIGNAL_COUNT: number of values
 *
 * The values and their order are those of the RandR protocol
 * specification, section "Properties".
 */
enum mmx_signal_format {
	MMX_SIGNAL_UNKNOWN,
	MMX_SIGNAL_VGA,
	MMX_SIGNAL_TMDS,
	MMX_SIGNAL_LVDS,
	MMX_SIGNAL_COMPOSITE,
	MMX_SIGNAL_COMPOSITE_PAL,
	MMX_SIGNAL_COMPOSITE_NTSC,
	MMX_SIGNAL_COMPOSITE_SECAM,
	MMX_SIGNAL_SVIDEO,
	MMX_SIGNAL_COMPONENT,
	MMX_SIGNAL_DISPLAYPORT,
	MMX_SIGNAL_COUNT,
};

/* A set of signal formats: bit f stands for enum mmx_signal_format f. */
#define MMX_SIGNAL_FMT(f)	((u32)1 << (f))

/**
 * enum mmx_sigprop - the signal attributes of RandR's "SignalProperties"
 * @MMX_SIGPROP_NTSC: "NTSC", any NTSC variant
 * @MMX_SIGPROP_NTSC_M: "NTSC-M", 525 lines
 * @MMX_SIGPROP_NTSC_J: "NTSC-J", 525 lines
 * @MMX_SIGPROP_NTSC_N: "NTSC-N", 625 lines
 * @MMX_SIGPROP_NTSC_443: "NTSC-4.43", 525 lines
 * @MMX_SIGPROP_NTSC_FILM: "NTSC-film", 525 lines
 * @MMX_SIGPROP_PAL: "PAL", any PAL variant (625 lines unless a variant
 *	says otherwise)
 * @MMX_SIGPROP_PAL_B: "PAL-B", 625 lines
 * @MMX_SIGPROP_PAL_G: "PAL-G", 625 lines
 * @MMX_SIGPROP_PAL_H: "PAL-H", 625 lines
 * @MMX_SIGPROP_PAL_I: "PAL-I", 625 lines
 * @MMX_SIGPROP_PAL_M: "PAL-M", 525 lines
 * @MMX_SIGPROP_PAL_D: "PAL-D", 625 lines
 * @MMX_SIGPROP_PAL_N: "PAL-N", 625 lines
 * @MMX_SIGPROP_PAL_NC: "PAL-Nc", 625 lines
 * @MMX_SIGPROP_PAL_L: "PAL-L", 625 lines
 * @MMX_SIGPROP_PAL_60: "PAL-60", 525 lines
 * @MMX_SIGPROP_SECAM: "SECAM", any SECAM variant
 * @MMX_SIGPROP_SECAM_L: "SECAM-L", 625 lines
 * @MMX_SIGPROP_SECAM_B: "SECAM-B", 625 lines
 * @MMX_SIGPROP_SECAM_G: "SECAM-G", 625 lines
 * @MMX_SIGPROP_SECAM_D: "SECAM-D", 625 lines
 * @MMX_SIGPROP_SECAM_K: "SECAM-K", 625 lines
 * @MMX_SIGPROP_SECAM_H: "SECAM-H", 625 lines
 * @MMX_SIGPROP_SINGLE_LINK: "SingleLink", one TMDS link
 * @MMX_SIGPROP_DUAL_LINK: "DualLink", two TMDS links
 * @MMX_SIGPROP_LANE1: "Lane1", one DisplayPort lane
 * @MMX_SIGPROP_LANE2: "Lane2", two DisplayPort lanes
 * @MMX_SIGPROP_LANE4: "Lane4", four DisplayPort lanes
 * @MMX_SIGPROP_LOW_SPEED: "LowSpeed", 1.62 Gbit/s per DisplayPort lane
 * @MMX_SIGPROP_HI_SPEED: "HiSpeed", 2.7 Gbit/s per DisplayPort lane
 * @MMX_SIGPROP_COUNT: number of bits
 *
 * The names are RandR's, in RandR's order (without the duplicated "PAL-H"
 * and "SECAM-K" of the specification's list). A set of properties is a u64
 * with bit p standing for property p; the connector's SignalProperties
 * enum property uses these sets as its values.
 */
enum mmx_sigprop {
	MMX_SIGPROP_NTSC,
	MMX_SIGPROP_NTSC_M,
	MMX_SIGPROP_NTSC_J,
	MMX_SIGPROP_NTSC_N,
	MMX_SIGPROP_NTSC_443,
	MMX_SIGPROP_NTSC_FILM,
	MMX_SIGPROP_PAL,
	MMX_SIGPROP_PAL_B,
	MMX_SIGPROP_PAL_G,
	MMX_SIGPROP_PAL_H,
	MMX_SIGPROP_PAL_I,
	MMX_SIGPROP_PAL_M,
	MMX_SIGPROP_PAL_D,
	MMX_SIGPROP_PAL_N,
	MMX_SIGPROP_PAL_NC,
	MMX_SIGPROP_PAL_L,
	MMX_SIGPROP_PAL_60,
	MMX_SIGPROP_SECAM,
	MMX_SIGPROP_SECAM_L,
	MMX_SIGPROP_SECAM_B,
	MMX_SIGPROP_SECAM_G,
	MMX_SIGPROP_SECAM_D,
	MMX_SIGPROP_SECAM_K,
	MMX_SIGPROP_SECAM_H,
	MMX_SIGPROP_SINGLE_LINK,
	MMX_SIGPROP_DUAL_LINK,
	MMX_SIGPROP_LANE1,
	MMX_SIGPROP_LANE2,
	MMX_SIGPROP_LANE4,
	MMX_SIGPROP_LOW_SPEED,
	MMX_SIGPROP_HI_SPEED,
	MMX_SIGPROP_COUNT,
};

/* A set of signal properties: bit p stands for enum mmx_sigprop p. */
#define MMX_SIGPROP(p)		((u64)1 << (p))

/* Groups of signal properties. */
#define MMX_SIGPROP_NTSC_ALL	(MMX_SIGPROP(MMX_SIGPROP_PAL) - MMX_SIGPROP(MMX_SIGPROP_NTSC))
#define MMX_SIGPROP_PAL_ALL	(MMX_SIGPROP(MMX_SIGPROP_SECAM) - MMX_SIGPROP(MMX_SIGPROP_PAL))
#define MMX_SIGPROP_SECAM_ALL	(MMX_SIGPROP(MMX_SIGPROP_SINGLE_LINK) - \
				 MMX_SIGPROP(MMX_SIGPROP_SECAM))
#define MMX_SIGPROP_TV_ALL	(MMX_SIGPROP_NTSC_ALL | MMX_SIGPROP_PAL_ALL | \
				 MMX_SIGPROP_SECAM_ALL)
#define MMX_SIGPROP_TMDS_ALL	(MMX_SIGPROP(MMX_SIGPROP_SINGLE_LINK) | \
				 MMX_SIGPROP(MMX_SIGPROP_DUAL_LINK))
#define MMX_SIGPROP_LANES	(MMX_SIGPROP(MMX_SIGPROP_LANE1) | \
				 MMX_SIGPROP(MMX_SIGPROP_LANE2) | \
				 MMX_SIGPROP(MMX_SIGPROP_LANE4))
#define MMX_SIGPROP_RATES	(MMX_SIGPROP(MMX_SIGPROP_LOW_SPEED) | \
				 MMX_SIGPROP(MMX_SIGPROP_HI_SPEED))
#define MMX_SIGPROP_DP_ALL	(MMX_SIGPROP_LANES | MMX_SIGPROP_RATES)

/**
 * struct mmx_prop_name - one value of an enum or bitmask property
 * @value: the enum value, or for a bitmask the bit number
 * @name: the value's name, as RandR spells it
 *
 * Laid out like DRM's struct drm_prop_enum_list, so that the tables below
 * can feed drm_property_create_enum()/drm_property_create_bitmask() or
 * drm_property_add_enum() entry by entry.
 */
struct mmx_prop_name {
	int value;
	const char *name;
};

extern const struct mmx_prop_name mmx_connector_type_names[MMX_CONNECTOR_TYPE_COUNT];
extern const struct mmx_prop_name mmx_signal_format_names[MMX_SIGNAL_COUNT];
extern const struct mmx_prop_name mmx_sigprop_names[MMX_SIGPROP_COUNT];

/*
 * The most values a connector's SignalProperties enum lists (see
 * mmx_signal_kind_values()), and the room a value's name needs.
 */
#define MMX_SIGNAL_VALUES_MAX	64
#define MMX_SIGNAL_NAME_MAX	32

/* Flags of struct mmx_timing: the same bits as DRM_MODE_FLAG_*. */
#define MMX_TIMING_PHSYNC	0x01u
#define MMX_TIMING_NHSYNC	0x02u
#define MMX_TIMING_PVSYNC	0x04u
#define MMX_TIMING_NVSYNC	0x08u
#define MMX_TIMING_INTERLACE	0x10u

/**
 * struct mmx_timing - a video timing, laid out as in struct drm_display_mode
 * @clock_khz: pixel clock in kHz
 * @hdisplay: visible pixels per line
 * @hsync_start: first pixel of the horizontal sync pulse
 * @hsync_end: first pixel after the horizontal sync pulse
 * @htotal: pixels per line, blanking included
 * @vdisplay: visible lines per frame
 * @vsync_start: first line of the vertical sync pulse
 * @vsync_end: first line after the vertical sync pulse
 * @vtotal: lines per frame, blanking included
 * @flags: MMX_TIMING_* (the values of the DRM_MODE_FLAG_* they stand for)
 * @name: mode name, such as "720x576i"; NULL in decoded EDID timings
 *
 * Interlaced timings count lines per frame (both fields), as DRM does.
 */
struct mmx_timing {
	u32 clock_khz;
	u16 hdisplay;
	u16 hsync_start;
	u16 hsync_end;
	u16 htotal;
	u16 vdisplay;
	u16 vsync_start;
	u16 vsync_end;
	u16 vtotal;
	u32 flags;
	const char *name;
};

/* Link limits, see mmx_signal_mode_fits(). */
#define MMX_TMDS_SINGLE_LINK_KHZ	165000u
#define MMX_TMDS_DUAL_LINK_KHZ		330000u
#define MMX_DP_LOW_SPEED_KBPS		1620000u
#define MMX_DP_HI_SPEED_KBPS		2700000u
#define MMX_VGA_DAC_KHZ			400000u
#define MMX_LVDS_SINGLE_KHZ		112000u

enum mmx_connector_type mmx_signal_connector_type(enum mmx_output_kind kind);
u32 mmx_signal_kind_formats(enum mmx_output_kind kind);
enum mmx_signal_format mmx_signal_kind_default(enum mmx_output_kind kind);
u64 mmx_signal_kind_props(enum mmx_output_kind kind);
u64 mmx_signal_format_props(enum mmx_signal_format format);
u64 mmx_signal_default_props(enum mmx_signal_format format);
u64 mmx_signal_resolve_props(enum mmx_signal_format format, u64 props);
int mmx_signal_check(enum mmx_output_kind kind, enum mmx_signal_format format,
		     u64 props);
bool mmx_signal_props_valid(enum mmx_signal_format format, u64 props);
unsigned int mmx_signal_kind_values(enum mmx_output_kind kind, u64 *values);
int mmx_signal_props_name(u64 props, char *buf, size_t size);
int mmx_signal_mode_fits(enum mmx_signal_format format, u64 props,
			 u32 clock_khz, unsigned int bpp);
unsigned int mmx_signal_timings(enum mmx_signal_format format, u64 props,
				const struct mmx_timing **timings);
int mmx_signal_timing_fits(enum mmx_signal_format format, u64 props,
			   const struct mmx_timing *timing, unsigned int bpp);
int mmx_signal_pick(enum mmx_output_kind kind, enum mmx_signal_format cur,
		    u32 sink_formats, enum mmx_signal_format preferred,
		    enum mmx_signal_format *format);

#endif /* _MMX_RANDR_PROPS_H_ */
