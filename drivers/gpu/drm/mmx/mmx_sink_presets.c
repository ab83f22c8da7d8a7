// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The simulated sinks: the presets debugfs plugs in by name, their lookup,
 * the signal a sink asks for, and the description of the sink behind an
 * uploaded EDID. Integer only, no DRM include: host unit tests compile this
 * file as is.
 */

#include <linux/errno.h>

#include "mmx_edid.h"

/* Host builds: linux/kernel.h provides it in the kernel. */
#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#define MMX_EST_VGA_60 (MMX_EDID_EST_640X480_60 | MMX_EDID_EST_800X600_60 | \
			MMX_EDID_EST_1024X768_60)
#define MMX_PP	(MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC)
#define MMX_PN	(MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC)

/*
 * The timings of each preset, the preferred one first: DMT, CVT reduced
 * blanking (_rb) and CEA-861 timings, as struct mmx_timing: clock in kHz,
 * then horizontal and vertical display, sync start, sync end and total,
 * sync polarities and name. Standard timings: width, height, refresh.
 */
static const struct mmx_timing mmx_vga_timings[] = {
	{ 108000, 1280, 1328, 1440, 1688, 1024, 1025, 1028, 1066, MMX_PP, "1280x1024" },
	{ 162000, 1600, 1664, 1856, 2160, 1200, 1201, 1204, 1250, MMX_PP, "1600x1200" },
};

static const struct mmx_std_timing mmx_vga_std[] = {
	{ 1280, 960, 60 }, { 1152, 864, 75 },
};

static const struct mmx_timing mmx_dvi_timings[] = {
	{ 154000, 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235, MMX_PN, "1920x1200" },
	{ 162000, 1600, 1664, 1856, 2160, 1200, 1201, 1204, 1250, MMX_PP, "1600x1200" },
};

static const struct mmx_std_timing mmx_dvi_std[] = {
	{ 1920, 1080, 60 }, { 1680, 1050, 60 }, { 1280, 1024, 60 },
};

static const struct mmx_timing mmx_hdmi_timings[] = {
	{ 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, MMX_PP, "1920x1080" },
	{ 74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750, MMX_PP, "1280x720" },
};

/* 1080p, 720p, 1080i, 480p 16:9 and 4:3, VGA; all 60 Hz. */
static const u8 mmx_hdmi_vics[] = { 16, 4, 5, 3, 2, 1 };

static const struct mmx_timing mmx_dual_link_timings[] = {
	{ 268500, 2560, 2608, 2640, 2720, 1600, 1603, 1609, 1646, MMX_PN, "2560x1600" },
	{ 154000, 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235, MMX_PN, "1920x1200" },
};

static const struct mmx_std_timing mmx_dual_link_std[] = {
	{ 1920, 1080, 60 }, { 1680, 1050, 60 }, { 1280, 1024, 60 },
	{ 1280, 800, 60 },
};

static const struct mmx_timing mmx_dp_4k_timings[] = {
	{ 533250, 3840, 3888, 3920, 4000, 2160, 2163, 2168, 2222, MMX_PN, "3840x2160" },
	{ 297000, 3840, 4016, 4104, 4400, 2160, 2168, 2178, 2250, MMX_PP, "3840x2160" },
};

static const struct mmx_std_timing mmx_dp_4k_std[] = {
	{ 1920, 1200, 60 }, { 1920, 1080, 60 }, { 1280, 720, 60 },
};

static const struct mmx_timing mmx_panel_timings[] = {
	{ 71000, 1280, 1328, 1360, 1440, 800, 803, 809, 823, MMX_PN, "1280x800" },
};

#define MMX_PAL_TV_STANDARDS	(MMX_SIGPROP(MMX_SIGPROP_PAL) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL_B) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL_G) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL_H) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL_I) | \
				 MMX_SIGPROP(MMX_SIGPROP_PAL_D))
#define MMX_NTSC_TV_STANDARDS	(MMX_SIGPROP(MMX_SIGPROP_NTSC) | \
				 MMX_SIGPROP(MMX_SIGPROP_NTSC_M) | \
				 MMX_SIGPROP(MMX_SIGPROP_NTSC_J))

/*
 * A preset with an EDID: name, description, EDID revision, product code,
 * serial, size in cm, monitor name and range limits (Hz, kHz, MHz; struct
 * mmx_edid_range), made in week 10 of 2024. Its timings, standard timings
 * and VICs are the tables mmx_<preset>_timings, _std and _vics above.
 */
#define MMX_EDID_SINK(id, desc, rev, prod, ser, w, h, mon, ...) \
	.name = (id), .description = (desc), .present = true, \
	.has_edid = true, .edid_revision = (rev), .product = (prod), \
	.serial = (ser), .year = 2024, .week = 10, .width_cm = (w), \
	.height_cm = (h), .monitor_name = (mon), .range = { __VA_ARGS__ }
#define MMX_SINK_SIGNALS(fmts, preferred) \
	.formats = (fmts), .preferred_format = (preferred)
#define MMX_SINK_DIGITAL(interface, depth) \
	.digital = true, .iface = (interface), .bpc = (depth)
#define MMX_SINK_TIMINGS(preset, est) \
	.timings = mmx_##preset##_timings, \
	.num_timings = ARRAY_SIZE(mmx_##preset##_timings), .established = (est)
#define MMX_SINK_STD(preset) \
	.std = mmx_##preset##_std, .num_std = ARRAY_SIZE(mmx_##preset##_std)
/* A digital monitor of one signal (MMX_SIGNAL_<sig>), with standard timings. */
#define MMX_MONITOR(preset, interface, depth, sig, est) \
	.digital = true, .iface = (interface), .bpc = (depth), \
	.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_##sig), \
	.preferred_format = MMX_SIGNAL_##sig, \
	.timings = mmx_##preset##_timings, \
	.num_timings = ARRAY_SIZE(mmx_##preset##_timings), .established = (est), \
	.std = mmx_##preset##_std, .num_std = ARRAY_SIZE(mmx_##preset##_std)
/* An analog TV: name, description, formats, standards, size in cm. */
#define MMX_TV_SINK(id, desc, fmts, preferred, standards, standard, w, h) \
	.name = (id), .description = (desc), .present = true, \
	MMX_SINK_SIGNALS(fmts, preferred), .tv_standards = (standards), \
	.tv_default = MMX_SIGPROP(standard), .width_cm = (w), .height_cm = (h)

#define MMX_FMT_TMDS	MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS)
#define MMX_FMT_DP	MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT)
#define MMX_FMT_TV	(MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE) | \
			 MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO))

/*
 * The presets. Range limits cover every timing the EDID offers, checked by
 * the unit tests and by edid-decode --check: established and standard
 * timings resolve to DMT timings (CVT for 2560x1440).
 */
const struct mmx_sink mmx_sinks[MMX_SINK_COUNT] = {
	[MMX_SINK_NONE] = { .name = "none", .description = "nothing plugged" },
	[MMX_SINK_VGA] = { MMX_EDID_SINK("vga",
		"analog monitor, 1280x1024 preferred, up to 1600x1200",
		4, 0x0101, 1001, 41, 31, "MMX VGA 1600", 50, 75, 30, 80, 170),
		MMX_SINK_SIGNALS(MMX_SIGNAL_FMT(MMX_SIGNAL_VGA), MMX_SIGNAL_VGA),
		MMX_SINK_TIMINGS(vga, MMX_EST_VGA_60), MMX_SINK_STD(vga) },
	[MMX_SINK_DVI] = { MMX_EDID_SINK("dvi",
		"DVI monitor, 1920x1200 reduced blanking (154 MHz)",
		4, 0x0102, 1002, 52, 32, "MMX DVI 1920", 50, 75, 30, 80, 170),
		MMX_MONITOR(dvi, MMX_EDID_IFACE_DVI, 8, TMDS, MMX_EST_VGA_60) },
	[MMX_SINK_HDMI] = { MMX_EDID_SINK("hdmi",
		"HDMI TV, 1920x1080 at 60 Hz, CTA-861 extension",
		3, 0x0103, 1003, 89, 50, "MMX HDMI TV", 50, 75, 30, 70, 150),
		MMX_SINK_DIGITAL(MMX_EDID_IFACE_HDMI_A, 8),
		MMX_SINK_SIGNALS(MMX_FMT_TMDS, MMX_SIGNAL_TMDS),
		MMX_SINK_TIMINGS(hdmi, MMX_EDID_EST_640X480_60),
		.vics = mmx_hdmi_vics, .num_vics = ARRAY_SIZE(mmx_hdmi_vics) },
	[MMX_SINK_DUAL_LINK] = { MMX_EDID_SINK("dual-link",
		"DVI monitor, 2560x1600 reduced blanking (268.5 MHz, DualLink)",
		4, 0x0104, 1004, 64, 40, "MMX DUAL 2560", 50, 75, 30, 100, 270),
		MMX_MONITOR(dual_link, MMX_EDID_IFACE_DVI, 8, TMDS, MMX_EST_VGA_60) },
	[MMX_SINK_DP_4K] = { MMX_EDID_SINK("dp-4k",
		"DisplayPort monitor, 3840x2160 at 60 Hz (533.25 MHz) and 30 Hz",
		4, 0x0105, 1005, 60, 34, "MMX DP 4K", 24, 75, 30, 140, 540),
		MMX_MONITOR(dp_4k, MMX_EDID_IFACE_DP, 8, DISPLAYPORT, MMX_EST_VGA_60) },
	[MMX_SINK_PANEL] = { MMX_EDID_SINK("panel",
		"built-in LVDS or eDP panel, 1280x800 (71 MHz)",
		4, 0x0106, 1006, 33, 21, "MMX PANEL", 50, 75, 30, 60, 80),
		MMX_SINK_DIGITAL(MMX_EDID_IFACE_UNDEFINED, 6),
		MMX_SINK_SIGNALS(MMX_SIGNAL_FMT(MMX_SIGNAL_LVDS) | MMX_FMT_DP,
				 MMX_SIGNAL_LVDS),
		MMX_SINK_TIMINGS(panel, 0) },
	[MMX_SINK_PAL_TV] = { MMX_TV_SINK("pal-tv",
		"analog PAL TV (composite, S-Video), 720x576i",
		MMX_FMT_TV | MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_PAL),
		MMX_SIGNAL_COMPOSITE_PAL, MMX_PAL_TV_STANDARDS,
		MMX_SIGPROP_PAL_B, 56, 42) },
	[MMX_SINK_NTSC_TV] = { MMX_TV_SINK("ntsc-tv",
		"analog NTSC TV (composite, S-Video), 720x480i",
		MMX_FMT_TV | MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_NTSC),
		MMX_SIGNAL_COMPOSITE_NTSC, MMX_NTSC_TV_STANDARDS,
		MMX_SIGPROP_NTSC_M, 56, 42) },
	[MMX_SINK_COMPONENT_TV] = {
		.name = "component-tv",
		.description = "analog HDTV, component input, 480p to 1080i",
		.present = true, .width_cm = 89, .height_cm = 50,
		MMX_SINK_SIGNALS(MMX_SIGNAL_FMT(MMX_SIGNAL_COMPONENT),
				 MMX_SIGNAL_COMPONENT) },
};

/**
 * mmx_sink_lookup - find a preset by name
 * @name: the name, not necessarily NUL-terminated
 * @len: length of @name; one trailing newline is ignored (debugfs writes)
 *
 * Return: the preset, NULL for an unknown name.
 */
const struct mmx_sink *mmx_sink_lookup(const char *name, size_t len)
{
	unsigned int i;

	if (len && name[len - 1] == '\n')
		len--;
	for (i = 0; i < MMX_SINK_COUNT; i++) {
		if (strlen(mmx_sinks[i].name) == len &&
		    !memcmp(mmx_sinks[i].name, name, len))
			return &mmx_sinks[i];
	}
	return NULL;
}

/**
 * mmx_sink_signal - the signal to drive a newly attached sink with
 * @sink: the sink (a preset, or filled by mmx_sink_from_edid())
 * @kind: the connector's output kind
 * @format: in: the current SignalFormat; out: the one to use
 * @props: in: the current SignalProperties; out: the ones to use
 *
 * Chooses the format with mmx_signal_pick() (keep the current one if the
 * sink accepts it, else the sink's preferred one, else the first common
 * one). The properties are kept when the format is kept and they are valid
 * (and, for a TV, name a standard the TV displays); otherwise they become
 * the TV's own standard or the format's default. Empty properties come out
 * resolved to the format's default.
 *
 * Return: 0, or -EINVAL (and nothing changed) when the sink is absent or
 * has no format in common with @kind.
 */
int mmx_sink_signal(const struct mmx_sink *sink, enum mmx_output_kind kind,
		    enum mmx_signal_format *format, u64 *props)
{
	enum mmx_signal_format f;
	u64 p;
	int ret;

	if (!sink->present)
		return -EINVAL;
	ret = mmx_signal_pick(kind, *format, sink->formats,
			      sink->preferred_format, &f);
	if (ret)
		return ret;

	p = f == *format ? *props : 0;
	if (mmx_signal_check(kind, f, p))
		p = 0;
	p = mmx_signal_resolve_props(f, p);
	if (sink->tv_standards && (mmx_signal_format_props(f) & sink->tv_standards) &&
	    (p & ~sink->tv_standards)) {
		p = sink->tv_default;
		if (mmx_signal_check(kind, f, p))
			p = mmx_signal_default_props(f);
	}
	*format = f;
	*props = p;
	return 0;
}

/* Whether a CTA-861 extension holds an HDMI vendor specific data block. */
static bool mmx_edid_has_hdmi_vsdb(const u8 *edid, size_t len)
{
	const u8 *b;
	unsigned int off, n;
	size_t blk;

	for (blk = 1; blk < len / MMX_EDID_BLOCK_SIZE; blk++) {
		b = edid + blk * MMX_EDID_BLOCK_SIZE;
		if (b[0] != 0x02 || b[2] <= 4)
			continue;
		for (off = 4; off < b[2] && b[2] < MMX_EDID_BLOCK_SIZE;
		     off += 1 + n) {
			n = b[off] & 0x1f;
			if (off + 1 + n > b[2])
				break;
			if (b[off] >> 5 == 3 && n >= 3 && b[off + 1] == 0x03 &&
			    b[off + 2] == 0x0c && b[off + 3] == 0x00)
				return true;
		}
	}
	return false;
}

/* The signals a digital sink accepts, from its interface. */
static void mmx_sink_digital_signals(struct mmx_sink *sink)
{
	switch (sink->iface) {
	case MMX_EDID_IFACE_DVI:
	case MMX_EDID_IFACE_HDMI_A:
	case MMX_EDID_IFACE_HDMI_B:
		sink->formats = MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS);
		sink->preferred_format = MMX_SIGNAL_TMDS;
		break;
	case MMX_EDID_IFACE_DP:
		sink->formats = MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT);
		sink->preferred_format = MMX_SIGNAL_DISPLAYPORT;
		break;
	default:
		sink->formats = MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS) |
				MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT) |
				MMX_SIGNAL_FMT(MMX_SIGNAL_LVDS);
		sink->preferred_format = MMX_SIGNAL_TMDS;
		break;
	}
}

/**
 * mmx_sink_from_edid - describe the sink behind an uploaded EDID
 * @sink: filled in; its timings, name and ranges are left empty (the EDID
 *	itself describes them)
 * @edid: the EDID
 * @len: its length in bytes
 *
 * An analog EDID accepts VGA; a digital one TMDS for DVI and HDMI (EDID
 * 1.4 interface, or an HDMI vendor specific data block), and DisplayPort
 * for DisplayPort; a digital EDID of undefined interface (EDID 1.3,
 * panels) accepts TMDS, DisplayPort and LVDS.
 *
 * The caller has validated the EDID (the DRM core's checks, see
 * mmx_sink_debugfs.c); only its size is checked here.
 *
 * Return: 0, or -EINVAL when @len is not 1 to %MMX_EDID_MAX_BLOCKS whole
 * blocks.
 */
int mmx_sink_from_edid(struct mmx_sink *sink, const u8 *edid, size_t len)
{
	if (!edid || !len || len % MMX_EDID_BLOCK_SIZE ||
	    len > MMX_EDID_MAX_SIZE)
		return -EINVAL;
	memset(sink, 0, sizeof(*sink));
	sink->name = "edid";
	sink->description = "uploaded EDID";
	sink->edid_revision = edid[19];
	sink->present = true;
	sink->has_edid = true;
	sink->digital = edid[20] & 0x80;
	sink->product = edid[10] | edid[11] << 8;
	sink->serial = edid[12] | edid[13] << 8 | edid[14] << 16 |
		       (u32)edid[15] << 24;
	sink->week = edid[16];
	sink->year = 1990 + edid[17];
	sink->width_cm = edid[21];
	sink->height_cm = edid[22];

	if (!sink->digital) {
		sink->formats = MMX_SIGNAL_FMT(MMX_SIGNAL_VGA);
		sink->preferred_format = MMX_SIGNAL_VGA;
		return 0;
	}
	if (edid[19] >= 4) {
		sink->iface = edid[20] & 0x0f;
		if ((edid[20] >> 4 & 7) >= 1 && (edid[20] >> 4 & 7) <= 6)
			sink->bpc = 4 + 2 * (edid[20] >> 4 & 7);
	}
	if (sink->iface == MMX_EDID_IFACE_UNDEFINED &&
	    mmx_edid_has_hdmi_vsdb(edid, len))
		sink->iface = MMX_EDID_IFACE_HDMI_A;
	mmx_sink_digital_signals(sink);
	return 0;
}
