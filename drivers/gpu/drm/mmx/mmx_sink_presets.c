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

/* Detailed timings of the presets (DMT, CVT-RB and CEA-861 timings). */
#define MMX_T_1280X1024_60 \
	{ 108000, 1280, 1328, 1440, 1688, 1024, 1025, 1028, 1066, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1280x1024" }
#define MMX_T_1600X1200_60 \
	{ 162000, 1600, 1664, 1856, 2160, 1200, 1201, 1204, 1250, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1600x1200" }
#define MMX_T_1920X1200_60_RB \
	{ 154000, 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "1920x1200" }
#define MMX_T_1920X1080_60 \
	{ 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1920x1080" }
#define MMX_T_1280X720_60 \
	{ 74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1280x720" }
#define MMX_T_2560X1600_60_RB \
	{ 268500, 2560, 2608, 2640, 2720, 1600, 1603, 1609, 1646, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "2560x1600" }
#define MMX_T_3840X2160_60_RB \
	{ 533250, 3840, 3888, 3920, 4000, 2160, 2163, 2168, 2222, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "3840x2160" }
#define MMX_T_3840X2160_30 \
	{ 297000, 3840, 4016, 4104, 4400, 2160, 2168, 2178, 2250, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "3840x2160" }
#define MMX_T_1280X800_60_RB \
	{ 71000, 1280, 1328, 1360, 1440, 800, 803, 809, 823, \
	  MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "1280x800" }

#define MMX_EST_VGA_60 (MMX_EDID_EST_640X480_60 | MMX_EDID_EST_800X600_60 | \
			MMX_EDID_EST_1024X768_60)

static const struct mmx_timing mmx_vga_timings[] = {
	MMX_T_1280X1024_60, MMX_T_1600X1200_60,
};

static const struct mmx_std_timing mmx_vga_std[] = {
	{ 1280, 960, 60 }, { 1152, 864, 75 },
};

static const struct mmx_timing mmx_dvi_timings[] = {
	MMX_T_1920X1200_60_RB, MMX_T_1600X1200_60,
};

static const struct mmx_std_timing mmx_dvi_std[] = {
	{ 1920, 1080, 60 }, { 1680, 1050, 60 }, { 1280, 1024, 60 },
};

static const struct mmx_timing mmx_hdmi_timings[] = {
	MMX_T_1920X1080_60, MMX_T_1280X720_60,
};

/* 1080p, 720p, 1080i, 480p 16:9 and 4:3, VGA; all 60 Hz. */
static const u8 mmx_hdmi_vics[] = { 16, 4, 5, 3, 2, 1 };

static const struct mmx_timing mmx_dual_link_timings[] = {
	MMX_T_2560X1600_60_RB, MMX_T_1920X1200_60_RB,
};

static const struct mmx_std_timing mmx_dual_link_std[] = {
	{ 1920, 1080, 60 }, { 1680, 1050, 60 }, { 1280, 1024, 60 },
	{ 1280, 800, 60 },
};

static const struct mmx_timing mmx_dp_4k_timings[] = {
	MMX_T_3840X2160_60_RB, MMX_T_3840X2160_30,
};

static const struct mmx_std_timing mmx_dp_4k_std[] = {
	{ 1920, 1200, 60 }, { 1920, 1080, 60 }, { 1280, 720, 60 },
};

static const struct mmx_timing mmx_panel_timings[] = {
	MMX_T_1280X800_60_RB,
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
 * The presets. Range limits cover every timing the EDID offers, checked by
 * the unit tests and by edid-decode --check: established and standard
 * timings resolve to DMT timings (CVT for 2560x1440).
 */
const struct mmx_sink mmx_sinks[MMX_SINK_COUNT] = {
	[MMX_SINK_NONE] = {
		.name = "none",
		.description = "nothing plugged",
	},
	[MMX_SINK_VGA] = {
		.name = "vga",
		.description = "analog monitor, 1280x1024 preferred, up to 1600x1200",
		.present = true,
		.has_edid = true,
		.edid_revision = 4,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_VGA),
		.preferred_format = MMX_SIGNAL_VGA,
		.product = 0x0101,
		.serial = 1001,
		.year = 2024,
		.week = 10,
		.width_cm = 41,
		.height_cm = 31,
		.monitor_name = "MMX VGA 1600",
		.range = { 50, 75, 30, 80, 170 },
		.timings = mmx_vga_timings,
		.num_timings = ARRAY_SIZE(mmx_vga_timings),
		.established = MMX_EST_VGA_60,
		.std = mmx_vga_std,
		.num_std = ARRAY_SIZE(mmx_vga_std),
	},
	[MMX_SINK_DVI] = {
		.name = "dvi",
		.description = "DVI monitor, 1920x1200 reduced blanking (154 MHz)",
		.present = true,
		.has_edid = true,
		.edid_revision = 4,
		.digital = true,
		.iface = MMX_EDID_IFACE_DVI,
		.bpc = 8,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS),
		.preferred_format = MMX_SIGNAL_TMDS,
		.product = 0x0102,
		.serial = 1002,
		.year = 2024,
		.week = 10,
		.width_cm = 52,
		.height_cm = 32,
		.monitor_name = "MMX DVI 1920",
		.range = { 50, 75, 30, 80, 170 },
		.timings = mmx_dvi_timings,
		.num_timings = ARRAY_SIZE(mmx_dvi_timings),
		.established = MMX_EST_VGA_60,
		.std = mmx_dvi_std,
		.num_std = ARRAY_SIZE(mmx_dvi_std),
	},
	[MMX_SINK_HDMI] = {
		.name = "hdmi",
		.description = "HDMI TV, 1920x1080 at 60 Hz, CTA-861 extension",
		.present = true,
		.has_edid = true,
		.edid_revision = 3,
		.digital = true,
		.iface = MMX_EDID_IFACE_HDMI_A,
		.bpc = 8,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS),
		.preferred_format = MMX_SIGNAL_TMDS,
		.product = 0x0103,
		.serial = 1003,
		.year = 2024,
		.week = 10,
		.width_cm = 89,
		.height_cm = 50,
		.monitor_name = "MMX HDMI TV",
		.range = { 50, 75, 30, 70, 150 },
		.timings = mmx_hdmi_timings,
		.num_timings = ARRAY_SIZE(mmx_hdmi_timings),
		.established = MMX_EDID_EST_640X480_60,
		.vics = mmx_hdmi_vics,
		.num_vics = ARRAY_SIZE(mmx_hdmi_vics),
	},
	[MMX_SINK_DUAL_LINK] = {
		.name = "dual-link",
		.description = "DVI monitor, 2560x1600 reduced blanking (268.5 MHz, DualLink)",
		.present = true,
		.has_edid = true,
		.edid_revision = 4,
		.digital = true,
		.iface = MMX_EDID_IFACE_DVI,
		.bpc = 8,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_TMDS),
		.preferred_format = MMX_SIGNAL_TMDS,
		.product = 0x0104,
		.serial = 1004,
		.year = 2024,
		.week = 10,
		.width_cm = 64,
		.height_cm = 40,
		.monitor_name = "MMX DUAL 2560",
		.range = { 50, 75, 30, 100, 270 },
		.timings = mmx_dual_link_timings,
		.num_timings = ARRAY_SIZE(mmx_dual_link_timings),
		.established = MMX_EST_VGA_60,
		.std = mmx_dual_link_std,
		.num_std = ARRAY_SIZE(mmx_dual_link_std),
	},
	[MMX_SINK_DP_4K] = {
		.name = "dp-4k",
		.description = "DisplayPort monitor, 3840x2160 at 60 Hz (533.25 MHz) and 30 Hz",
		.present = true,
		.has_edid = true,
		.edid_revision = 4,
		.digital = true,
		.iface = MMX_EDID_IFACE_DP,
		.bpc = 8,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT),
		.preferred_format = MMX_SIGNAL_DISPLAYPORT,
		.product = 0x0105,
		.serial = 1005,
		.year = 2024,
		.week = 10,
		.width_cm = 60,
		.height_cm = 34,
		.monitor_name = "MMX DP 4K",
		.range = { 24, 75, 30, 140, 540 },
		.timings = mmx_dp_4k_timings,
		.num_timings = ARRAY_SIZE(mmx_dp_4k_timings),
		.established = MMX_EST_VGA_60,
		.std = mmx_dp_4k_std,
		.num_std = ARRAY_SIZE(mmx_dp_4k_std),
	},
	[MMX_SINK_PANEL] = {
		.name = "panel",
		.description = "built-in LVDS or eDP panel, 1280x800 (71 MHz)",
		.present = true,
		.has_edid = true,
		.edid_revision = 4,
		.digital = true,
		.iface = MMX_EDID_IFACE_UNDEFINED,
		.bpc = 6,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_LVDS) |
			   MMX_SIGNAL_FMT(MMX_SIGNAL_DISPLAYPORT),
		.preferred_format = MMX_SIGNAL_LVDS,
		.product = 0x0106,
		.serial = 1006,
		.year = 2024,
		.week = 10,
		.width_cm = 33,
		.height_cm = 21,
		.monitor_name = "MMX PANEL",
		.range = { 50, 75, 30, 60, 80 },
		.timings = mmx_panel_timings,
		.num_timings = ARRAY_SIZE(mmx_panel_timings),
	},
	[MMX_SINK_PAL_TV] = {
		.name = "pal-tv",
		.description = "analog PAL TV (composite, S-Video), 720x576i",
		.present = true,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE) |
			   MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_PAL) |
			   MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO),
		.preferred_format = MMX_SIGNAL_COMPOSITE_PAL,
		.tv_standards = MMX_PAL_TV_STANDARDS,
		.tv_default = MMX_SIGPROP(MMX_SIGPROP_PAL_B),
		.width_cm = 56,
		.height_cm = 42,
	},
	[MMX_SINK_NTSC_TV] = {
		.name = "ntsc-tv",
		.description = "analog NTSC TV (composite, S-Video), 720x480i",
		.present = true,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE) |
			   MMX_SIGNAL_FMT(MMX_SIGNAL_COMPOSITE_NTSC) |
			   MMX_SIGNAL_FMT(MMX_SIGNAL_SVIDEO),
		.preferred_format = MMX_SIGNAL_COMPOSITE_NTSC,
		.tv_standards = MMX_NTSC_TV_STANDARDS,
		.tv_default = MMX_SIGPROP(MMX_SIGPROP_NTSC_M),
		.width_cm = 56,
		.height_cm = 42,
	},
	[MMX_SINK_COMPONENT_TV] = {
		.name = "component-tv",
		.description = "analog HDTV, component input, 480p to 1080i",
		.present = true,
		.formats = MMX_SIGNAL_FMT(MMX_SIGNAL_COMPONENT),
		.preferred_format = MMX_SIGNAL_COMPONENT,
		.width_cm = 89,
		.height_cm = 50,
	},
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
	return 0;
}
