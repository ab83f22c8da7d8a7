// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * RandR 1.3 output properties: value names, per-kind and per-format rules,
 * link capacity and TV timings. Integer only, no DRM include: host unit
 * tests compile this file as is.
 */

#include <linux/errno.h>

#include "mmx_randr_props.h"

/* Host builds: linux/kernel.h provides it in the kernel. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/**
 * DOC: signal rules
 *
 * Every output kind has one RandR ConnectorType, a set of SignalFormat
 * values it can produce and a default SignalFormat:
 *
 * ========= ============= ===================================== ==============
 * kind      ConnectorType SignalFormat subset                   default
 * ========= ============= ===================================== ==============
 * VGA       VGA           VGA                                   VGA
 * DVI-I     DVI-I         VGA, TMDS                             TMDS
 * DVI-D     DVI-D         TMDS                                  TMDS
 * DVI-A     DVI-A         VGA                                   VGA
 * HDMI-A    HDMI          TMDS                                  TMDS
 * DP        DisplayPort   DisplayPort                           DisplayPort
 * eDP       Panel         DisplayPort                           DisplayPort
 * LVDS      Panel         LVDS                                  LVDS
 * Composite TV-Composite  the four Composite values             Composite-NTSC
 * S-Video   TV-SVideo     SVideo                                SVideo
 * Component TV-Component  Component                             Component
 * TV        TV            the four Composite, SVideo            Composite-NTSC
 * SCART     TV-SCART      the four Composite, SVideo, Component Composite-PAL
 * ========= ============= ===================================== ==============
 *
 * "unknown" is in no subset. Each SignalFormat allows some SignalProperties
 * bits and has a default set:
 *
 * =============== ====================================== ==============
 * SignalFormat    allowed SignalProperties               default
 * =============== ====================================== ==============
 * TMDS            SingleLink, DualLink                   SingleLink
 * DisplayPort     Lane1, Lane2, Lane4, LowSpeed, HiSpeed Lane4, HiSpeed
 * Composite       every TV standard                      NTSC-M
 * Composite-NTSC  NTSC, NTSC-M ... NTSC-film             NTSC-M
 * Composite-PAL   PAL, PAL-B ... PAL-60                  PAL-B
 * Composite-SECAM SECAM, SECAM-L ... SECAM-H             SECAM-L
 * SVideo          every TV standard                      NTSC-M
 * others          none                                   none
 * =============== ====================================== ==============
 *
 * mmx_signal_check() accepts a (kind, format, properties) triple when the
 * format is in the kind's subset and the properties, once an empty set is
 * replaced by the format's default, are allowed for the format and describe
 * one signal:
 *
 * - TMDS: exactly one of SingleLink and DualLink;
 * - DisplayPort: exactly one of Lane1, Lane2 and Lane4 and exactly one of
 *   LowSpeed and HiSpeed;
 * - Composite and SVideo: the standards of one family (NTSC, PAL or SECAM),
 *   at most one variant of it ("PAL-B"), optionally with the family's base
 *   value ("PAL"); the specific Composite formats take only their family;
 * - VGA, LVDS, Component: no property.
 *
 * A TV standard implies its line system: 625 lines at 50 Hz for PAL, SECAM,
 * NTSC-N, PAL-N, PAL-Nc and PAL-L, 525 lines at 59.94 Hz for NTSC, PAL-M
 * and PAL-60; a variant decides over its base value.
 *
 * A connector's SignalProperties is an enum property whose values are the
 * sets above, valid with one of the kind's formats or more
 * (mmx_signal_kind_values()), named by mmx_signal_props_name(). A commit
 * takes a set only when it fits the SignalFormat of the same commit exactly
 * (mmx_signal_props_valid()): there the empty set, "none", is the value of
 * the formats without properties, not a shorthand for the default, and a TV
 * signal names one standard (a variant implies its family's base value).
 */

const struct mmx_prop_name mmx_connector_type_names[MMX_CONNECTOR_TYPE_COUNT] = {
	{ MMX_CONNECTOR_TYPE_UNKNOWN, "unknown" },
	{ MMX_CONNECTOR_TYPE_VGA, "VGA" },
	{ MMX_CONNECTOR_TYPE_DVI, "DVI" },
	{ MMX_CONNECTOR_TYPE_DVII, "DVI-I" },
	{ MMX_CONNECTOR_TYPE_DVIA, "DVI-A" },
	{ MMX_CONNECTOR_TYPE_DVID, "DVI-D" },
	{ MMX_CONNECTOR_TYPE_HDMI, "HDMI" },
	{ MMX_CONNECTOR_TYPE_PANEL, "Panel" },
	{ MMX_CONNECTOR_TYPE_TV, "TV" },
	{ MMX_CONNECTOR_TYPE_TV_COMPOSITE, "TV-Composite" },
	{ MMX_CONNECTOR_TYPE_TV_SVIDEO, "TV-SVideo" },
	{ MMX_CONNECTOR_TYPE_TV_COMPONENT, "TV-Component" },
	{ MMX_CONNECTOR_TYPE_TV_SCART, "TV-SCART" },
	{ MMX_CONNECTOR_TYPE_TV_C4, "TV-C4" },
	{ MMX_CONNECTOR_TYPE_DISPLAYPORT, "DisplayPort" },
};

const struct mmx_prop_name mmx_signal_format_names[MMX_SIGNAL_COUNT] = {
	{ MMX_SIGNAL_UNKNOWN, "unknown" },
	{ MMX_SIGNAL_VGA, "VGA" },
	{ MMX_SIGNAL_TMDS, "TMDS" },
	{ MMX_SIGNAL_LVDS, "LVDS" },
	{ MMX_SIGNAL_COMPOSITE, "Composite" },
	{ MMX_SIGNAL_COMPOSITE_PAL, "Composite-PAL" },
	{ MMX_SIGNAL_COMPOSITE_NTSC, "Composite-NTSC" },
	{ MMX_SIGNAL_COMPOSITE_SECAM, "Composite-SECAM" },
	{ MMX_SIGNAL_SVIDEO, "SVideo" },
	{ MMX_SIGNAL_COMPONENT, "Component" },
	{ MMX_SIGNAL_DISPLAYPORT, "DisplayPort" },
};

const struct mmx_prop_name mmx_sigprop_names[MMX_SIGPROP_COUNT] = {
	{ MMX_SIGPROP_NTSC, "NTSC" },
	{ MMX_SIGPROP_NTSC_M, "NTSC-M" },
	{ MMX_SIGPROP_NTSC_J, "NTSC-J" },
	{ MMX_SIGPROP_NTSC_N, "NTSC-N" },
	{ MMX_SIGPROP_NTSC_443, "NTSC-4.43" },
	{ MMX_SIGPROP_NTSC_FILM, "NTSC-film" },
	{ MMX_SIGPROP_PAL, "PAL" },
	{ MMX_SIGPROP_PAL_B, "PAL-B" },
	{ MMX_SIGPROP_PAL_G, "PAL-G" },
	{ MMX_SIGPROP_PAL_H, "PAL-H" },
	{ MMX_SIGPROP_PAL_I, "PAL-I" },
	{ MMX_SIGPROP_PAL_M, "PAL-M" },
	{ MMX_SIGPROP_PAL_D, "PAL-D" },
	{ MMX_SIGPROP_PAL_N, "PAL-N" },
	{ MMX_SIGPROP_PAL_NC, "PAL-Nc" },
	{ MMX_SIGPROP_PAL_L, "PAL-L" },
	{ MMX_SIGPROP_PAL_60, "PAL-60" },
	{ MMX_SIGPROP_SECAM, "SECAM" },
	{ MMX_SIGPROP_SECAM_L, "SECAM-L" },
	{ MMX_SIGPROP_SECAM_B, "SECAM-B" },
	{ MMX_SIGPROP_SECAM_G, "SECAM-G" },
	{ MMX_SIGPROP_SECAM_D, "SECAM-D" },
	{ MMX_SIGPROP_SECAM_K, "SECAM-K" },
	{ MMX_SIGPROP_SECAM_H, "SECAM-H" },
	{ MMX_SIGPROP_SINGLE_LINK, "SingleLink" },
	{ MMX_SIGPROP_DUAL_LINK, "DualLink" },
	{ MMX_SIGPROP_LANE1, "Lane1" },
	{ MMX_SIGPROP_LANE2, "Lane2" },
	{ MMX_SIGPROP_LANE4, "Lane4" },
	{ MMX_SIGPROP_LOW_SPEED, "LowSpeed" },
	{ MMX_SIGPROP_HI_SPEED, "HiSpeed" },
};

#define MMX_FMT_COMPOSITE_ALL	(MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE) | \
				 MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_PAL) | \
				 MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_NTSC) | \
				 MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_SECAM))

static const struct {
	enum mmx_connector_type type;
	u32 formats;
	enum mmx_signal_format format;
} mmx_kinds[MMX_KIND_COUNT] = {
	[MMX_KIND_VGA] = { MMX_CONNECTOR_TYPE_VGA,
			   MMX_SIGNAL_FMT(MMX_SIGNAL_VGA), MMX_SIGNAL_VGA },
	[MMX_KIND_DVII] = { MMX_CONNECTOR_TYPE_DVII,
			    MMX_SIGNAL_FMT(MMX_SIGNAL_VGA) |
			    MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS), MMX_SIGNAL_TMDS },
	[MMX_KIND_DVID] = { MMX_CONNECTOR_TYPE_DVID,
			    MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS), MMX_SIGNAL_TMDS },
	[MMX_KIND_DVIA] = { MMX_CONNECTOR_TYPE_DVIA,
			    MMX_SIGNAL_FMT(MMX_SIGNAL_VGA), MMX_SIGNAL_VGA },
	[MMX_KIND_HDMIA] = { MMX_CONNECTOR_TYPE_HDMI,
			     MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS), MMX_SIGNAL_TMDS },
	[MMX_KIND_DP] = { MMX_CONNECTOR_TYPE_DISPLAYPORT,
			  MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT),
			  MMX_SIGNAL_DISPLAYPORT },
	[MMX_KIND_EDP] = { MMX_CONNECTOR_TYPE_PANEL,
			   MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT),
			   MMX_SIGNAL_DISPLAYPORT },
	[MMX_KIND_LVDS] = { MMX_CONNECTOR_TYPE_PANEL,
			    MMX_SIGNAL_FMT(MMX_SIGNAL_LVDS), MMX_SIGNAL_LVDS },
	[MMX_KIND_COMPOSITE] = { MMX_CONNECTOR_TYPE_TV_COMPOSITE,
				 MMX_FMT_COMPOSITE_ALL,
				 MMX_SIGNAL_COMPOSITE_NTSC },
	[MMX_KIND_SVIDEO] = { MMX_CONNECTOR_TYPE_TV_SVIDEO,
			      MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO),
			      MMX_SIGNAL_SVIDEO },
	[MMX_KIND_COMPONENT] = { MMX_CONNECTOR_TYPE_TV_COMPONENT,
				 MMX_SIGNAL_FMT(MMX_SIGNAL_COMPONENT),
				 MMX_SIGNAL_COMPONENT },
	[MMX_KIND_TV] = { MMX_CONNECTOR_TYPE_TV,
			  MMX_FMT_COMPOSITE_ALL |
			  MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO),
			  MMX_SIGNAL_COMPOSITE_NTSC },
	[MMX_KIND_SCART] = { MMX_CONNECTOR_TYPE_TV_SCART,
			     MMX_FMT_COMPOSITE_ALL |
			     MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO) |
			     MMX_SIGNAL_FMT(MMX_SIGNAL_COMPONENT),
			     MMX_SIGNAL_COMPOSITE_PAL },
};

static const struct {
	u64 allowed;
	u64 defaults;
} mmx_formats[MMX_SIGNAL_COUNT] = {
	[MMX_SIGNAL_TMDS] = { MMX_SIGPROP_TMDS_ALL,
			      MMX_SIGPROP(MMX_SIGPROP_SINGLE_LINK) },
	[MMX_SIGNAL_COMPOSITE] = { MMX_SIGPROP_TV_ALL,
				   MMX_SIGPROP(MMX_SIGPROP_NTSC_M) },
	[MMX_SIGNAL_COMPOSITE_PAL] = { MMX_SIGPROP_PAL_ALL,
				       MMX_SIGPROP(MMX_SIGPROP_PAL_B) },
	[MMX_SIGNAL_COMPOSITE_NTSC] = { MMX_SIGPROP_NTSC_ALL,
					MMX_SIGPROP(MMX_SIGPROP_NTSC_M) },
	[MMX_SIGNAL_COMPOSITE_SECAM] = { MMX_SIGPROP_SECAM_ALL,
					 MMX_SIGPROP(MMX_SIGPROP_SECAM_L) },
	[MMX_SIGNAL_SVIDEO] = { MMX_SIGPROP_TV_ALL,
				MMX_SIGPROP(MMX_SIGPROP_NTSC_M) },
	[MMX_SIGNAL_DISPLAYPORT] = { MMX_SIGPROP_DP_ALL,
				     MMX_SIGPROP(MMX_SIGPROP_LANE4) |
				     MMX_SIGPROP(MMX_SIGPROP_HI_SPEED) },
};

/* Base values of the TV families, and the standards with 625 lines. */
#define MMX_SIGPROP_TV_BASES	(MMX_SIGPROP(MMX_SIGPROP_NTSC) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL) | \
				 MMX_SIGPROP(MMX_SIGPROP_SECAM))
#define MMX_SIGPROP_TV_625	(MMX_SIGPROP(MMX_SIGPROP_NTSC_N) | \
				 (MMX_SIGPROP_PAL_ALL & \
				  ~MMX_SIGPROP(MMX_SIGPROP_PAL_M) & \
				  ~MMX_SIGPROP(MMX_SIGPROP_PAL_60)) | \
				 MMX_SIGPROP_SECAM_ALL)

/*
 * The TV timings, from CEA-861 (as in DRM's edid_cea_modes) without pixel
 * repetition for the interlaced SD modes: BT.601 sampling at 13.5 MHz gives
 * 858 x 525 for 525 lines at 59.94 Hz and 864 x 625 for 625 lines at 50 Hz.
 */
static const struct mmx_timing mmx_tv_525[] = {
	{ 13500, 720, 739, 801, 858, 480, 488, 494, 525,
	  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
	  "720x480i" },
};

static const struct mmx_timing mmx_tv_625[] = {
	{ 13500, 720, 732, 795, 864, 576, 580, 586, 625,
	  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
	  "720x576i" },
};

/* Component: CEA VIC 4 (preferred), 5, 17 and 2. */
static const struct mmx_timing mmx_component[] = {
	{ 74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750,
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1280x720" },
	{ 74250, 1920, 2008, 2052, 2200, 1080, 1084, 1094, 1125,
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC | MMX_TIMING_INTERLACE,
	  "1920x1080i" },
	{ 27000, 720, 732, 796, 864, 576, 581, 586, 625,
	  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC, "720x576" },
	{ 27000, 720, 736, 798, 858, 480, 489, 495, 525,
	  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC, "720x480" },
};

static unsigned int mmx_bit_count(u64 v)
{
	unsigned int n = 0;

	for (; v; v &= v - 1)
		n++;
	return n;
}

static bool mmx_kind_valid(enum mmx_output_kind kind)
{
	return (unsigned int)kind < MMX_KIND_COUNT;
}

static bool mmx_format_valid(enum mmx_signal_format format)
{
	return (unsigned int)format < MMX_SIGNAL_COUNT;
}

static bool mmx_format_is_tv(enum mmx_signal_format format)
{
	return format >= MMX_SIGNAL_COMPOSITE && format <= MMX_SIGNAL_SVIDEO;
}

/* Whether a valid set of TV standards has 625 lines (else 525). */
static bool mmx_tv_is_625(u64 props)
{
	u64 variant = props & ~MMX_SIGPROP_TV_BASES;

	return ((variant ? variant : props) & MMX_SIGPROP_TV_625) != 0;
}

/**
 * mmx_signal_connector_type - RandR ConnectorType of an output kind
 * @kind: the output kind
 *
 * Return: the ConnectorType, %MMX_CONNECTOR_TYPE_UNKNOWN for an invalid
 * kind.
 */
enum mmx_connector_type mmx_signal_connector_type(enum mmx_output_kind kind)
{
	if (!mmx_kind_valid(kind))
		return MMX_CONNECTOR_TYPE_UNKNOWN;
	return mmx_kinds[kind].type;
}

/**
 * mmx_signal_kind_formats - SignalFormat values an output kind can produce
 * @kind: the output kind
 *
 * Return: a set of MMX_SIGNAL_FMT() bits, 0 for an invalid kind. The
 * SignalFormat enum property of a connector lists exactly these values.
 */
u32 mmx_signal_kind_formats(enum mmx_output_kind kind)
{
	if (!mmx_kind_valid(kind))
		return 0;
	return mmx_kinds[kind].formats;
}

/**
 * mmx_signal_kind_default - initial SignalFormat of an output kind
 * @kind: the output kind
 *
 * Return: the default SignalFormat, %MMX_SIGNAL_UNKNOWN for an invalid kind.
 */
enum mmx_signal_format mmx_signal_kind_default(enum mmx_output_kind kind)
{
	if (!mmx_kind_valid(kind))
		return MMX_SIGNAL_UNKNOWN;
	return mmx_kinds[kind].format;
}

/**
 * mmx_signal_format_props - SignalProperties bits allowed with a format
 * @format: the SignalFormat
 *
 * Return: a set of MMX_SIGPROP() bits, 0 for formats without properties
 * and for invalid formats.
 */
u64 mmx_signal_format_props(enum mmx_signal_format format)
{
	if (!mmx_format_valid(format))
		return 0;
	return mmx_formats[format].allowed;
}

/**
 * mmx_signal_kind_props - SignalProperties bits an output kind can use
 * @kind: the output kind
 *
 * Return: the union of mmx_signal_format_props() over the formats of
 * @kind, 0 when none of them takes properties (the connector then has no
 * SignalProperties property).
 */
u64 mmx_signal_kind_props(enum mmx_output_kind kind)
{
	u32 formats = mmx_signal_kind_formats(kind);
	u64 props = 0;
	unsigned int f;

	for (f = 0; f < MMX_SIGNAL_COUNT; f++)
		if (formats & MMX_SIGNAL_FMT(f))
			props |= mmx_formats[f].allowed;
	return props;
}

/**
 * mmx_signal_default_props - default SignalProperties of a format
 * @format: the SignalFormat
 *
 * Return: the default set (SingleLink for TMDS, Lane4 and HiSpeed for
 * DisplayPort, NTSC-M, PAL-B or SECAM-L for TV signals), 0 for formats
 * without properties and for invalid formats.
 */
u64 mmx_signal_default_props(enum mmx_signal_format format)
{
	if (!mmx_format_valid(format))
		return 0;
	return mmx_formats[format].defaults;
}

/**
 * mmx_signal_resolve_props - the SignalProperties a setting stands for
 * @format: the SignalFormat
 * @props: the SignalProperties as set
 *
 * An empty set stands for the format's default.
 *
 * Return: @props, or mmx_signal_default_props(@format) when @props is 0.
 */
u64 mmx_signal_resolve_props(enum mmx_signal_format format, u64 props)
{
	return props ? props : mmx_signal_default_props(format);
}

/* The per-format part of mmx_signal_check(), on resolved properties. */
static int mmx_props_check(enum mmx_signal_format format, u64 props)
{
	u64 families = 0;

	if (props & ~mmx_signal_format_props(format))
		return -EINVAL;

	switch (format) {
	case MMX_SIGNAL_TMDS:
		return mmx_bit_count(props) == 1 ? 0 : -EINVAL;
	case MMX_SIGNAL_DISPLAYPORT:
		if (mmx_bit_count(props & MMX_SIGPROP_LANES) != 1 ||
		    mmx_bit_count(props & MMX_SIGPROP_RATES) != 1)
			return -EINVAL;
		return 0;
	case MMX_SIGNAL_COMPOSITE:
	case MMX_SIGNAL_COMPOSITE_PAL:
	case MMX_SIGNAL_COMPOSITE_NTSC:
	case MMX_SIGNAL_COMPOSITE_SECAM:
	case MMX_SIGNAL_SVIDEO:
		if (props & MMX_SIGPROP_NTSC_ALL)
			families++;
		if (props & MMX_SIGPROP_PAL_ALL)
			families++;
		if (props & MMX_SIGPROP_SECAM_ALL)
			families++;
		if (families != 1)
			return -EINVAL;
		if (mmx_bit_count(props & ~MMX_SIGPROP_TV_BASES) > 1)
			return -EINVAL;
		return 0;
	default:
		return props ? -EINVAL : 0;
	}
}

/**
 * mmx_signal_check - validate a SignalFormat and SignalProperties setting
 * @kind: the connector's output kind
 * @format: the SignalFormat
 * @props: the SignalProperties, 0 for the format's default
 *
 * Applies the rules of the "signal rules" section: the format must be in
 * the kind's subset, and the properties must be allowed with the format and
 * name one TMDS link count, one DisplayPort lane count and rate, or one TV
 * standard.
 *
 * Return: 0 if the setting is valid, -EINVAL otherwise.
 */
int mmx_signal_check(enum mmx_output_kind kind, enum mmx_signal_format format,
		     u64 props)
{
	if (!mmx_format_valid(format) ||
	    !(mmx_signal_kind_formats(kind) & MMX_SIGNAL_FMT(format)))
		return -EINVAL;
	return mmx_props_check(format, mmx_signal_resolve_props(format, props));
}

/**
 * mmx_signal_props_valid - whether a SignalProperties value fits a format
 * @format: the SignalFormat
 * @props: the SignalProperties value as committed
 *
 * Unlike mmx_signal_check(), an empty set is not read as the format's
 * default: it is the value "none", which fits exactly the formats that take
 * no property. A TV signal is named by one standard: its family's base value
 * ("PAL") or a variant ("PAL-B"), which implies the family, so a base value
 * together with its variant is not a value of its own.
 *
 * Return: true if @props names one signal of @format.
 */
bool mmx_signal_props_valid(enum mmx_signal_format format, u64 props)
{
	if (!mmx_format_valid(format))
		return false;
	if (!props)
		return !mmx_formats[format].allowed;
	if (mmx_format_is_tv(format) && mmx_bit_count(props) != 1)
		return false;
	return !mmx_props_check(format, props);
}

/* Whether @props fits at least one of the @formats. */
static bool mmx_formats_take(u32 formats, u64 props)
{
	unsigned int f;

	for (f = 0; f < MMX_SIGNAL_COUNT; f++)
		if ((formats & MMX_SIGNAL_FMT(f)) &&
		    mmx_signal_props_valid(f, props))
			return true;
	return false;
}

static void mmx_values_add(u64 *values, unsigned int *n, u32 formats,
			   u64 props)
{
	if (*n < MMX_SIGNAL_VALUES_MAX && mmx_formats_take(formats, props))
		values[(*n)++] = props;
}

/**
 * mmx_signal_kind_values - the values of a kind's SignalProperties enum
 * @kind: the output kind
 * @values: where to store them, room for %MMX_SIGNAL_VALUES_MAX entries
 *
 * Every set of signal attributes that is valid (mmx_signal_props_valid())
 * with at least one SignalFormat of @kind, each once: the empty set
 * ("none") first when one of the formats takes no property, then the sets
 * of one attribute in attribute order, then those of two (a DisplayPort
 * lane count and rate), ordered by their first and then their second
 * attribute. No valid set has three attributes or more. The numbers are the
 * sets themselves (bit p for &enum mmx_sigprop p).
 *
 * Return: the number of values stored, 0 when no format of @kind takes
 * properties.
 */
unsigned int mmx_signal_kind_values(enum mmx_output_kind kind, u64 *values)
{
	u32 formats = mmx_signal_kind_formats(kind);
	u64 allowed = mmx_signal_kind_props(kind);
	unsigned int n = 0, i, j;

	if (!allowed)
		return 0;
	mmx_values_add(values, &n, formats, 0);
	for (i = 0; i < MMX_SIGPROP_COUNT; i++)
		if (allowed & MMX_SIGPROP(i))
			mmx_values_add(values, &n, formats, MMX_SIGPROP(i));
	for (i = 0; i < MMX_SIGPROP_COUNT; i++) {
		if (!(allowed & MMX_SIGPROP(i)))
			continue;
		for (j = i + 1; j < MMX_SIGPROP_COUNT; j++)
			if (allowed & MMX_SIGPROP(j))
				mmx_values_add(values, &n, formats,
					       MMX_SIGPROP(i) | MMX_SIGPROP(j));
	}
	return n;
}

/**
 * mmx_signal_props_name - the name of a SignalProperties value
 * @props: the set of signal attributes
 * @buf: where to write the name, NUL-terminated
 * @size: size of @buf
 *
 * The attributes' names (&mmx_sigprop_names) in attribute order, joined by
 * '+' ("Lane4+HiSpeed"); "none" for the empty set.
 *
 * Return: the length of the name, -EINVAL when @props has bits beyond
 * %MMX_SIGPROP_COUNT, -ENOSPC when the name does not fit @size.
 */
int mmx_signal_props_name(u64 props, char *buf, size_t size)
{
	size_t len = 0, l;
	unsigned int p;

	if (props >> MMX_SIGPROP_COUNT)
		return -EINVAL;
	if (!props) {
		if (size < sizeof("none"))
			return -ENOSPC;
		memcpy(buf, "none", sizeof("none"));
		return sizeof("none") - 1;
	}
	for (p = 0; p < MMX_SIGPROP_COUNT; p++) {
		if (!(props & MMX_SIGPROP(p)))
			continue;
		l = strlen(mmx_sigprop_names[p].name);
		if (len + !!len + l + 1 > size)
			return -ENOSPC;
		if (len)
			buf[len++] = '+';
		memcpy(buf + len, mmx_sigprop_names[p].name, l);
		len += l;
	}
	buf[len] = '\0';
	return len;
}

/**
 * mmx_signal_timings - the fixed timings of a TV signal
 * @format: the SignalFormat
 * @props: the SignalProperties, 0 for the format's default
 * @timings: where to store the address of the first timing
 *
 * Composite and S-Video signals carry 720x480i at 59.94 Hz for 525-line
 * standards and 720x576i at 50 Hz for 625-line ones; component carries
 * 1280x720, 1920x1080i (both 60 Hz), 720x576 (50 Hz) and 720x480
 * (59.94 Hz). The first timing is the preferred one. Other signals have no
 * fixed timings: their modes come from the sink's EDID.
 *
 * Return: the number of timings, 0 (and @timings set to NULL) for signals
 * without fixed timings and for properties that do not fit the format.
 */
unsigned int mmx_signal_timings(enum mmx_signal_format format, u64 props,
				const struct mmx_timing **timings)
{
	*timings = NULL;
	if (!mmx_format_valid(format))
		return 0;
	props = mmx_signal_resolve_props(format, props);
	if (format == MMX_SIGNAL_COMPONENT) {
		*timings = mmx_component;
		return ARRAY_SIZE(mmx_component);
	}
	if (!mmx_format_is_tv(format) || mmx_props_check(format, props))
		return 0;
	if (mmx_tv_is_625(props)) {
		*timings = mmx_tv_625;
		return ARRAY_SIZE(mmx_tv_625);
	}
	*timings = mmx_tv_525;
	return ARRAY_SIZE(mmx_tv_525);
}

/**
 * mmx_signal_mode_fits - whether a link can carry a pixel rate
 * @format: the SignalFormat
 * @props: the SignalProperties, 0 for the format's default
 * @clock_khz: pixel clock in kHz
 * @bpp: bits per pixel on the link
 *
 * The limits, compared exactly in 64-bit integers:
 *
 * - TMDS: the TMDS clock, @clock_khz * max(@bpp, 24) / 24 (deep colour
 *   raises it), is at most 165000 kHz on a single link and 330000 kHz on a
 *   dual link;
 * - DisplayPort: lanes * lane rate * 8 / 10 (8b/10b coding) >= @clock_khz *
 *   @bpp, with 1620000 kbit/s per LowSpeed lane and 2700000 kbit/s per
 *   HiSpeed lane;
 * - VGA: the DAC runs up to 400000 kHz;
 * - LVDS: a single channel runs up to 112000 kHz (RandR has no property to
 *   select a dual channel);
 * - Composite, SVideo and Component: @clock_khz is the clock of one of
 *   the signal's own timings (see mmx_signal_timings()).
 *
 * Return: 0 if the link carries the rate, -EINVAL if it does not, if
 * @clock_khz or @bpp is 0, or if @props does not fit @format.
 */
int mmx_signal_mode_fits(enum mmx_signal_format format, u64 props,
			 u32 clock_khz, unsigned int bpp)
{
	const struct mmx_timing *timings;
	unsigned int i, n;
	u64 need, have;

	if (!mmx_format_valid(format) || !clock_khz || !bpp)
		return -EINVAL;
	props = mmx_signal_resolve_props(format, props);
	if (mmx_props_check(format, props))
		return -EINVAL;

	switch (format) {
	case MMX_SIGNAL_TMDS:
		need = (u64)clock_khz * (bpp > 24 ? bpp : 24);
		have = (props & MMX_SIGPROP(MMX_SIGPROP_DUAL_LINK) ?
			MMX_TMDS_DUAL_LINK_KHZ : MMX_TMDS_SINGLE_LINK_KHZ);
		return need <= have * 24 ? 0 : -EINVAL;
	case MMX_SIGNAL_DISPLAYPORT:
		need = (u64)clock_khz * bpp * 10;
		have = props & MMX_SIGPROP(MMX_SIGPROP_LANE4) ? 4 :
		       props & MMX_SIGPROP(MMX_SIGPROP_LANE2) ? 2 : 1;
		have *= props & MMX_SIGPROP(MMX_SIGPROP_HI_SPEED) ?
			MMX_DP_HI_SPEED_KBPS : MMX_DP_LOW_SPEED_KBPS;
		return need <= have * 8 ? 0 : -EINVAL;
	case MMX_SIGNAL_VGA:
		return clock_khz <= MMX_VGA_DAC_KHZ ? 0 : -EINVAL;
	case MMX_SIGNAL_LVDS:
		return clock_khz <= MMX_LVDS_SINGLE_KHZ ? 0 : -EINVAL;
	default:
		n = mmx_signal_timings(format, props, &timings);
		for (i = 0; i < n; i++)
			if (timings[i].clock_khz == clock_khz)
				return 0;
		return -EINVAL;
	}
}

/**
 * mmx_signal_timing_fits - whether a signal can carry a timing
 * @format: the SignalFormat
 * @props: the SignalProperties, 0 for the format's default
 * @timing: the timing (its @name is ignored)
 * @bpp: bits per pixel on the link
 *
 * Signals with fixed timings (see mmx_signal_timings()) carry exactly
 * those: same clock, same horizontal and vertical values and same
 * interlacing (sync polarities are not compared). Other signals carry any
 * timing whose pixel rate passes mmx_signal_mode_fits().
 *
 * Return: 0 if the signal carries @timing, -EINVAL otherwise.
 */
int mmx_signal_timing_fits(enum mmx_signal_format format, u64 props,
			   const struct mmx_timing *timing, unsigned int bpp)
{
	const struct mmx_timing *t;
	unsigned int i, n;

	n = mmx_signal_timings(format, props, &t);
	if (!n)
		return mmx_signal_mode_fits(format, props, timing->clock_khz,
					    bpp);
	for (i = 0; i < n; i++, t++) {
		if (t->clock_khz == timing->clock_khz &&
		    t->hdisplay == timing->hdisplay &&
		    t->hsync_start == timing->hsync_start &&
		    t->hsync_end == timing->hsync_end &&
		    t->htotal == timing->htotal &&
		    t->vdisplay == timing->vdisplay &&
		    t->vsync_start == timing->vsync_start &&
		    t->vsync_end == timing->vsync_end &&
		    t->vtotal == timing->vtotal &&
		    !((t->flags ^ timing->flags) & MMX_TIMING_INTERLACE))
			return 0;
	}
	return -EINVAL;
}

/**
 * mmx_signal_pick - the SignalFormat to use with a newly attached sink
 * @kind: the connector's output kind
 * @cur: the current SignalFormat
 * @sink_formats: MMX_SIGNAL_FMT() set of the formats the sink accepts
 * @preferred: the format the sink prefers
 * @format: where to store the chosen format
 *
 * Keeps @cur if the sink accepts it, else takes @preferred if the kind can
 * produce it, else the lowest format both the kind and the sink support.
 * This is how a DVI-I output switches to VGA for an analog monitor and to
 * TMDS for a digital one.
 *
 * Return: 0 with @format set, -EINVAL (and @format set to @cur) when the
 * kind and the sink have no format in common.
 */
int mmx_signal_pick(enum mmx_output_kind kind, enum mmx_signal_format cur,
		    u32 sink_formats, enum mmx_signal_format preferred,
		    enum mmx_signal_format *format)
{
	u32 common = mmx_signal_kind_formats(kind) & sink_formats;
	unsigned int f;

	*format = cur;
	if (mmx_format_valid(cur) && (common & MMX_SIGNAL_FMT(cur)))
		return 0;
	if (mmx_format_valid(preferred) && (common & MMX_SIGNAL_FMT(preferred))) {
		*format = preferred;
		return 0;
	}
	for (f = 0; f < MMX_SIGNAL_COUNT; f++) {
		if (common & MMX_SIGNAL_FMT(f)) {
			*format = f;
			return 0;
		}
	}
	return -EINVAL;
}
