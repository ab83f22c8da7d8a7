// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Simulated sinks: presets, EDID 1.4 generation, validation of uploaded
 * EDIDs and a decoder of their detailed timings. Integer only, no DRM
 * include: host unit tests compile this file as is.
 *
 * Layouts follow VESA E-EDID 1.4 (base block) and CTA-861 (extension
 * block); the byte offsets are spelled out where they are used.
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
 * Return: 0, or -EINVAL when mmx_edid_validate() refuses the EDID.
 */
int mmx_sink_from_edid(struct mmx_sink *sink, const u8 *edid, size_t len)
{
	int ret = mmx_edid_validate(edid, len);

	if (ret)
		return ret;
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

/* Decode an 18-byte detailed timing descriptor (its clock is not 0). */
static void mmx_edid_get_dtd(const u8 *d, struct mmx_timing *t)
{
	unsigned int hact = d[2] | (d[4] & 0xf0) << 4;
	unsigned int hblank = d[3] | (d[4] & 0x0f) << 8;
	unsigned int vact = d[5] | (d[7] & 0xf0) << 4;
	unsigned int vblank = d[6] | (d[7] & 0x0f) << 8;
	unsigned int hfp = d[8] | (d[11] & 0xc0) << 2;
	unsigned int hsw = d[9] | (d[11] & 0x30) << 4;
	unsigned int vfp = d[10] >> 4 | (d[11] & 0x0c) << 2;
	unsigned int vsw = (d[10] & 0x0f) | (d[11] & 0x03) << 4;

	memset(t, 0, sizeof(*t));
	t->clock_khz = (d[0] | d[1] << 8) * 10;
	t->hdisplay = hact;
	t->hsync_start = hact + hfp;
	t->hsync_end = hact + hfp + hsw;
	t->htotal = hact + hblank;
	if (d[17] & 0x80) {
		/* Interlaced: the descriptor counts the lines of one field. */
		t->vdisplay = 2 * vact;
		t->vsync_start = 2 * (vact + vfp);
		t->vsync_end = 2 * (vact + vfp + vsw);
		t->vtotal = 2 * (vact + vblank) + 1;
		t->flags |= MMX_TIMING_INTERLACE;
	} else {
		t->vdisplay = vact;
		t->vsync_start = vact + vfp;
		t->vsync_end = vact + vfp + vsw;
		t->vtotal = vact + vblank;
	}
	/* Polarities are defined for digital separate sync only. */
	if ((d[17] & 0x18) == 0x18) {
		t->flags |= d[17] & 0x02 ? MMX_TIMING_PHSYNC : MMX_TIMING_NHSYNC;
		t->flags |= d[17] & 0x04 ? MMX_TIMING_PVSYNC : MMX_TIMING_NVSYNC;
	}
}

/*
 * Encode a detailed timing descriptor with digital separate sync. Refuses
 * timings the 18 bytes cannot hold exactly: the result is decoded again
 * and must give the same timing back.
 */
static int mmx_edid_put_dtd(u8 *d, const struct mmx_timing *t,
			    unsigned int width_mm, unsigned int height_mm)
{
	unsigned int il = t->flags & MMX_TIMING_INTERLACE ? 1 : 0;
	unsigned int hact, hblank, hfp, hsw, vact, vblank, vfp, vsw;
	u32 mask = MMX_TIMING_INTERLACE | MMX_TIMING_PHSYNC |
		   MMX_TIMING_NHSYNC | MMX_TIMING_PVSYNC | MMX_TIMING_NVSYNC;
	struct mmx_timing back;

	if (!t->clock_khz || t->clock_khz % 10 || t->clock_khz / 10 > 0xffff)
		return -EINVAL;
	if (t->hdisplay > t->hsync_start || t->hsync_start >= t->hsync_end ||
	    t->hsync_end > t->htotal || t->vdisplay > t->vsync_start ||
	    t->vsync_start >= t->vsync_end || t->vsync_end > t->vtotal)
		return -EINVAL;
	hact = t->hdisplay;
	hblank = t->htotal - t->hdisplay;
	hfp = t->hsync_start - t->hdisplay;
	hsw = t->hsync_end - t->hsync_start;
	vact = t->vdisplay >> il;
	vblank = (t->vtotal - t->vdisplay) >> il;
	vfp = (t->vsync_start - t->vdisplay) >> il;
	vsw = (t->vsync_end - t->vsync_start) >> il;
	if (hact > 4095 || hblank > 4095 || vact > 4095 || vblank > 4095 ||
	    hfp > 1023 || hsw > 1023 || vfp > 63 || vsw > 63 ||
	    width_mm > 4095 || height_mm > 4095)
		return -EINVAL;

	d[0] = t->clock_khz / 10 & 0xff;
	d[1] = t->clock_khz / 10 >> 8;
	d[2] = hact & 0xff;
	d[3] = hblank & 0xff;
	d[4] = (hact >> 8) << 4 | hblank >> 8;
	d[5] = vact & 0xff;
	d[6] = vblank & 0xff;
	d[7] = (vact >> 8) << 4 | vblank >> 8;
	d[8] = hfp & 0xff;
	d[9] = hsw & 0xff;
	d[10] = (vfp & 0x0f) << 4 | (vsw & 0x0f);
	d[11] = (hfp >> 8) << 6 | (hsw >> 8) << 4 | (vfp >> 4) << 2 | vsw >> 4;
	d[12] = width_mm & 0xff;
	d[13] = height_mm & 0xff;
	d[14] = (width_mm >> 8) << 4 | height_mm >> 8;
	d[15] = 0;
	d[16] = 0;
	d[17] = il << 7 | 0x18;
	if (t->flags & MMX_TIMING_PHSYNC)
		d[17] |= 0x02;
	if (t->flags & MMX_TIMING_PVSYNC)
		d[17] |= 0x04;

	mmx_edid_get_dtd(d, &back);
	if (back.clock_khz != t->clock_khz || back.hdisplay != t->hdisplay ||
	    back.hsync_start != t->hsync_start ||
	    back.hsync_end != t->hsync_end || back.htotal != t->htotal ||
	    back.vdisplay != t->vdisplay ||
	    back.vsync_start != t->vsync_start ||
	    back.vsync_end != t->vsync_end || back.vtotal != t->vtotal ||
	    back.flags != (t->flags & mask))
		return -EINVAL;
	return 0;
}

/* A display descriptor holding text: name (0xfc) or serial string (0xff). */
static int mmx_edid_put_text(u8 *d, u8 tag, const char *text)
{
	size_t n = strlen(text), i;

	if (n > MMX_EDID_NAME_MAX)
		return -EINVAL;
	d[3] = tag;
	for (i = 0; i < MMX_EDID_NAME_MAX; i++) {
		if (i < n && (text[i] < 0x20 || text[i] > 0x7e))
			return -EINVAL;
		d[5 + i] = i < n ? text[i] : i == n ? 0x0a : 0x20;
	}
	return 0;
}

static int mmx_edid_put_range(u8 *d, const struct mmx_edid_range *r, u8 rev)
{
	unsigned int i;

	if (!r->vmin_hz || r->vmin_hz > r->vmax_hz || !r->hmin_khz ||
	    r->hmin_khz > r->hmax_khz || !r->max_clock_mhz ||
	    r->max_clock_mhz % 10 || r->max_clock_mhz > 2550)
		return -EINVAL;
	d[3] = 0xfd;
	d[5] = r->vmin_hz;
	d[6] = r->vmax_hz;
	d[7] = r->hmin_khz;
	d[8] = r->hmax_khz;
	d[9] = r->max_clock_mhz / 10;
	/* Range limits only: no timing formula (1.4), no secondary GTF (1.3). */
	d[10] = rev == 3 ? 0x00 : 0x01;
	d[11] = 0x0a;
	for (i = 12; i < 18; i++)
		d[i] = 0x20;
	return 0;
}

static int mmx_edid_put_std(u8 *d, const struct mmx_std_timing *s)
{
	u32 w = s->hdisplay, h = s->vdisplay;
	u8 aspect;

	if (w % 8 || w < 256 || w > 2288 || s->refresh < 60 ||
	    s->refresh > 123)
		return -EINVAL;
	if (w * 10 == h * 16)
		aspect = 0;
	else if (w * 3 == h * 4)
		aspect = 1;
	else if (w * 4 == h * 5)
		aspect = 2;
	else if (w * 9 == h * 16)
		aspect = 3;
	else
		return -EINVAL;
	d[0] = w / 8 - 31;
	d[1] = aspect << 6 | (s->refresh - 60);
	return 0;
}

/* Render a number in decimal; returns the length. */
static size_t mmx_utoa(char *buf, u32 v)
{
	char tmp[10];
	size_t n = 0, i;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return n;
}

static void mmx_edid_checksum(u8 *block)
{
	u8 sum = 0;
	unsigned int i;

	for (i = 0; i < MMX_EDID_BLOCK_SIZE - 1; i++)
		sum += block[i];
	block[MMX_EDID_BLOCK_SIZE - 1] = -sum;
}

/* CTA-861 extension: video data block, HDMI VSDB, extra timings. */
static int mmx_edid_put_cta(u8 *b, const struct mmx_sink *sink)
{
	unsigned int i, off = 4;
	int ret;

	if (!sink->num_vics || sink->num_vics > 31)
		return -EINVAL;
	b[0] = 0x02;		/* CTA extension tag */
	b[1] = 0x03;		/* revision 3 */
	/* Underscans IT formats; one native DTD, the preferred timing. */
	b[3] = 0x80 | 1;
	b[off++] = 2 << 5 | sink->num_vics;	/* video data block */
	for (i = 0; i < sink->num_vics; i++) {
		if (!sink->vics[i] || sink->vics[i] > 127)
			return -EINVAL;
		b[off++] = sink->vics[i];
	}
	/*
	 * Video capability data block: RGB quantization range selectable,
	 * IT formats underscanned, CE formats over- or underscanned.
	 */
	b[off++] = 7 << 5 | 2;
	b[off++] = 0x00;
	b[off++] = 0x4b;
	if (sink->iface == MMX_EDID_IFACE_HDMI_A ||
	    sink->iface == MMX_EDID_IFACE_HDMI_B) {
		b[off++] = 3 << 5 | 7;	/* vendor specific data block */
		b[off++] = 0x03;	/* IEEE OUI 00-0c-03, HDMI Licensing */
		b[off++] = 0x0c;
		b[off++] = 0x00;
		b[off++] = 0x10;	/* physical address 1.0.0.0 */
		b[off++] = 0x00;
		b[off++] = 0x00;	/* no deep colour, no DVI dual */
		b[off++] = sink->range.max_clock_mhz / 5;	/* max TMDS */
	}
	b[2] = off;
	for (i = 2; i < sink->num_timings; i++) {
		if (off + 18 > MMX_EDID_BLOCK_SIZE - 1)
			return -EINVAL;
		ret = mmx_edid_put_dtd(b + off, &sink->timings[i],
				       sink->width_cm * 10,
				       sink->height_cm * 10);
		if (ret)
			return ret;
		off += 18;
	}
	mmx_edid_checksum(b);
	return 0;
}

/*
 * sRGB primaries and D65 white point, CIE x and y times 1024 rounded to
 * the nearest: red (0.640, 0.330), green (0.300, 0.600), blue
 * (0.150, 0.060), white (0.3127, 0.3290).
 */
static const u16 mmx_srgb[8] = { 655, 338, 307, 614, 154, 61, 320, 337 };

/**
 * mmx_edid_build - generate the EDID of a sink
 * @sink: the sink
 * @buf: where to write it
 * @len: size of @buf; %MMX_EDID_MAX_SIZE is always enough
 *
 * Writes an EDID 1.4 base block (1.3, without the 1.4 depth and interface
 * bits, when the sink asks for it as HDMI requires): vendor "MMX", the
 * sink's product code, serial number, date and size, sRGB colorimetry, the
 * established and standard timings, the first two detailed timings (the
 * first one preferred), a serial number string when there is one timing
 * only, the range limits and the name. A sink with VICs also gets a CTA-861
 * extension block (with an HDMI vendor specific data block for HDMI sinks,
 * so that DRM's drm_detect_hdmi_monitor() sees an HDMI sink) holding the
 * other detailed timings. Checksums are set.
 *
 * Return: the number of bytes written (128 per block), 0 for a sink
 * without EDID (none, analog TVs), -ENOSPC if @len is too small, -EINVAL
 * for a sink that EDID cannot describe (@buf then holds no valid EDID).
 */
int mmx_edid_build(const struct mmx_sink *sink, u8 *buf, size_t len)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	unsigned int blocks, i, slot;
	u8 rev = sink->edid_revision;
	char serial[16];
	u16 vendor;
	u8 *d;
	int ret;

	if (!sink->present || !sink->has_edid)
		return 0;
	if (rev != 3 && rev != 4)
		return -EINVAL;
	if (!sink->timings || !sink->num_timings || !sink->monitor_name ||
	    sink->num_std > 8 || sink->year < 1990 || sink->year > 2245 ||
	    sink->week > 54)
		return -EINVAL;
	blocks = sink->num_vics ? 2 : 1;
	if (blocks == 1 && sink->num_timings > 2)
		return -EINVAL;
	if (len < blocks * MMX_EDID_BLOCK_SIZE)
		return -ENOSPC;
	memset(buf, 0, blocks * MMX_EDID_BLOCK_SIZE);

	memcpy(buf, header, sizeof(header));
	/* Bytes 8-9: PNP vendor id, three 5-bit letters, big endian. */
	vendor = ('M' - '@') << 10 | ('M' - '@') << 5 | ('X' - '@');
	buf[8] = vendor >> 8;
	buf[9] = vendor & 0xff;
	/* Bytes 10-17: product code, serial (little endian), week, year. */
	buf[10] = sink->product & 0xff;
	buf[11] = sink->product >> 8;
	buf[12] = sink->serial & 0xff;
	buf[13] = sink->serial >> 8 & 0xff;
	buf[14] = sink->serial >> 16 & 0xff;
	buf[15] = sink->serial >> 24;
	buf[16] = sink->week;
	buf[17] = sink->year - 1990;
	/* Bytes 18-19: version 1.4 (1.3 for HDMI). */
	buf[18] = 1;
	buf[19] = rev;
	/* Byte 20: video input; EDID 1.3 has no depth and interface. */
	if (sink->digital && rev == 3) {
		buf[20] = 0x80;
	} else if (sink->digital) {
		if (sink->bpc < 6 || sink->bpc > 16 || sink->bpc % 2 ||
		    (unsigned int)sink->iface > MMX_EDID_IFACE_DP)
			return -EINVAL;
		buf[20] = 0x80 | ((sink->bpc - 4) / 2) << 4 | sink->iface;
	} else {
		buf[20] = 0x08;	/* 0.7 V, separate sync */
	}
	/* Bytes 21-23: size in cm, gamma 2.2. */
	buf[21] = sink->width_cm;
	buf[22] = sink->height_cm;
	buf[23] = 120;
	/*
	 * Byte 24: DPMS standby, suspend and off for analog monitors; RGB
	 * colour display (analog, EDID 1.3) or RGB 4:4:4 (digital EDID 1.4);
	 * sRGB is the default colour space; the preferred timing is native;
	 * not continuous frequency (1.4), no GTF (1.3).
	 */
	if (!sink->digital)
		buf[24] = 0xee;
	else
		buf[24] = rev == 3 ? 0x0e : 0x06;
	/* Bytes 25-34: chromaticity, low 2 bits first. */
	buf[25] = (mmx_srgb[0] & 3) << 6 | (mmx_srgb[1] & 3) << 4 |
		  (mmx_srgb[2] & 3) << 2 | (mmx_srgb[3] & 3);
	buf[26] = (mmx_srgb[4] & 3) << 6 | (mmx_srgb[5] & 3) << 4 |
		  (mmx_srgb[6] & 3) << 2 | (mmx_srgb[7] & 3);
	for (i = 0; i < 8; i++)
		buf[27 + i] = mmx_srgb[i] >> 2;
	/* Bytes 35-37: established timings. */
	buf[35] = sink->established >> 16 & 0xff;
	buf[36] = sink->established >> 8 & 0xff;
	buf[37] = sink->established & 0xff;
	/* Bytes 38-53: standard timings, 01 01 when unused. */
	for (i = 0; i < 8; i++) {
		d = buf + 38 + 2 * i;
		if (i < sink->num_std) {
			ret = mmx_edid_put_std(d, &sink->std[i]);
			if (ret)
				return ret;
		} else {
			d[0] = 0x01;
			d[1] = 0x01;
		}
	}
	/* Bytes 54-125: four 18-byte descriptors. */
	for (slot = 0; slot < 2 && slot < sink->num_timings; slot++) {
		ret = mmx_edid_put_dtd(buf + 54 + 18 * slot,
				       &sink->timings[slot],
				       sink->width_cm * 10,
				       sink->height_cm * 10);
		if (ret)
			return ret;
	}
	if (slot < 2) {
		memcpy(serial, "MMX-", 4);
		mmx_utoa(serial + 4, sink->serial);
		ret = mmx_edid_put_text(buf + 54 + 18 * slot, 0xff, serial);
		if (ret)
			return ret;
	}
	ret = mmx_edid_put_range(buf + 54 + 18 * 2, &sink->range, rev);
	if (ret)
		return ret;
	ret = mmx_edid_put_text(buf + 54 + 18 * 3, 0xfc, sink->monitor_name);
	if (ret)
		return ret;
	/* Byte 126: extension count; 127: checksum. */
	buf[126] = blocks - 1;
	mmx_edid_checksum(buf);

	if (blocks > 1) {
		ret = mmx_edid_put_cta(buf + MMX_EDID_BLOCK_SIZE, sink);
		if (ret)
			return ret;
	}
	return blocks * MMX_EDID_BLOCK_SIZE;
}

/**
 * mmx_edid_validate - check an EDID before using it (raw uploads)
 * @edid: the EDID
 * @len: its length in bytes
 *
 * Accepts 1 to %MMX_EDID_MAX_BLOCKS blocks of 128 bytes with the fixed
 * header, EDID version 1, an extension count (byte 126) matching the length
 * and a correct checksum in every block. The contents of the descriptors
 * and extensions are not checked.
 *
 * Return: 0 if the EDID is acceptable, -EINVAL otherwise (empty, not a
 * whole number of blocks, more than %MMX_EDID_MAX_SIZE bytes, bad header,
 * version, extension count or checksum).
 */
int mmx_edid_validate(const u8 *edid, size_t len)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	size_t i, b, blocks;
	u8 sum;

	if (!edid || !len || len % MMX_EDID_BLOCK_SIZE ||
	    len > MMX_EDID_MAX_SIZE)
		return -EINVAL;
	if (memcmp(edid, header, sizeof(header)) || edid[18] != 1)
		return -EINVAL;
	blocks = len / MMX_EDID_BLOCK_SIZE;
	if (edid[126] != blocks - 1)
		return -EINVAL;
	for (b = 0; b < blocks; b++) {
		sum = 0;
		for (i = 0; i < MMX_EDID_BLOCK_SIZE; i++)
			sum += edid[b * MMX_EDID_BLOCK_SIZE + i];
		if (sum)
			return -EINVAL;
	}
	return 0;
}

/**
 * mmx_edid_timings - decode the detailed timings of an EDID
 * @edid: the EDID
 * @len: its length in bytes
 * @out: where to store the timings (their names are NULL)
 * @max: room in @out
 *
 * Reads the detailed timing descriptors of the base block, in order, then
 * those of the CTA-861 extension blocks. Interlaced descriptors count the
 * lines of a field; the result counts the lines of a frame (vtotal is then
 * odd), as DRM does for the CEA interlaced sizes. Sync polarities are
 * decoded for digital separate sync only.
 *
 * Return: the number of timings stored (at most @max), -EINVAL when
 * mmx_edid_validate() refuses the EDID.
 */
int mmx_edid_timings(const u8 *edid, size_t len, struct mmx_timing *out,
		     unsigned int max)
{
	const u8 *b, *d;
	unsigned int n = 0, i, off;
	size_t blk;
	int ret;

	ret = mmx_edid_validate(edid, len);
	if (ret)
		return ret;
	for (i = 0; i < 4 && n < max; i++) {
		d = edid + 54 + 18 * i;
		if (d[0] || d[1])
			mmx_edid_get_dtd(d, &out[n++]);
	}
	for (blk = 1; blk < len / MMX_EDID_BLOCK_SIZE; blk++) {
		b = edid + blk * MMX_EDID_BLOCK_SIZE;
		if (b[0] != 0x02 || b[2] < 4)
			continue;
		for (off = b[2]; off + 18 <= MMX_EDID_BLOCK_SIZE - 1 && n < max;
		     off += 18) {
			if (!b[off] && !b[off + 1])
				break;
			mmx_edid_get_dtd(b + off, &out[n++]);
		}
	}
	return n;
}
