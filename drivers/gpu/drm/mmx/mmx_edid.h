/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Simulated sinks (monitors and TVs) of the mmx connectors: their
 * description, the presets (mmx_sink_presets.c) and EDID 1.4 generation
 * (mmx_edid.c). No DRM include: the same sources are built into the module
 * and into the host unit tests.
 */

#ifndef _MMX_EDID_H_
#define _MMX_EDID_H_

#include "pixel_geometry/mmx_pure.h"
#include "mmx_randr_props.h"

#define MMX_EDID_BLOCK_SIZE	128
#define MMX_EDID_MAX_BLOCKS	4
#define MMX_EDID_MAX_SIZE	(MMX_EDID_BLOCK_SIZE * MMX_EDID_MAX_BLOCKS)

/* At most 13 characters in an EDID display name descriptor. */
#define MMX_EDID_NAME_MAX	13

/* Established timings: bit 23 is bit 7 of EDID byte 35, bit 0 bit 0 of 37. */
#define MMX_EDID_EST_720X400_70		0x800000u
#define MMX_EDID_EST_640X480_60		0x200000u
#define MMX_EDID_EST_640X480_75		0x040000u
#define MMX_EDID_EST_800X600_60		0x010000u
#define MMX_EDID_EST_800X600_75		0x004000u
#define MMX_EDID_EST_1024X768_60	0x000800u
#define MMX_EDID_EST_1024X768_75	0x000200u
#define MMX_EDID_EST_1280X1024_75	0x000100u

/**
 * enum mmx_edid_iface - digital interface of an EDID 1.4 sink (byte 20)
 * @MMX_EDID_IFACE_UNDEFINED: not defined (analog sinks, most panels)
 * @MMX_EDID_IFACE_DVI: DVI
 * @MMX_EDID_IFACE_HDMI_A: HDMI-a
 * @MMX_EDID_IFACE_HDMI_B: HDMI-b
 * @MMX_EDID_IFACE_MDDI: MDDI
 * @MMX_EDID_IFACE_DP: DisplayPort
 */
enum mmx_edid_iface {
	MMX_EDID_IFACE_UNDEFINED = 0,
	MMX_EDID_IFACE_DVI = 1,
	MMX_EDID_IFACE_HDMI_A = 2,
	MMX_EDID_IFACE_HDMI_B = 3,
	MMX_EDID_IFACE_MDDI = 4,
	MMX_EDID_IFACE_DP = 5,
};

/**
 * struct mmx_std_timing - an EDID standard timing
 * @hdisplay: width, a multiple of 8 from 256 to 2288
 * @vdisplay: height, giving an aspect ratio of 16:10, 4:3, 5:4 or 16:9
 * @refresh: vertical refresh in Hz, 60 to 123
 */
struct mmx_std_timing {
	u16 hdisplay;
	u16 vdisplay;
	u8 refresh;
};

/**
 * struct mmx_edid_range - EDID display range limits
 * @vmin_hz: lowest vertical rate in Hz
 * @vmax_hz: highest vertical rate in Hz
 * @hmin_khz: lowest horizontal rate in kHz
 * @hmax_khz: highest horizontal rate in kHz
 * @max_clock_mhz: highest pixel clock in MHz, a multiple of 10 up to 2550
 *
 * Interlaced timings count at their field rate, as EDID does.
 */
struct mmx_edid_range {
	u8 vmin_hz;
	u8 vmax_hz;
	u8 hmin_khz;
	u8 hmax_khz;
	u16 max_clock_mhz;
};

/**
 * struct mmx_sink - a simulated sink (monitor or TV)
 * @name: preset name, for lookups (debugfs)
 * @description: one line for humans
 * @present: false only for the "none" preset: nothing plugged
 * @has_edid: the sink answers on DDC (monitors, not analog TVs)
 * @edid_revision: EDID revision, 4 (EDID 1.4) or 3 (EDID 1.3, which the
 *	HDMI specification requires)
 * @digital: digital input (EDID byte 20 bit 7)
 * @iface: digital interface reported in EDID 1.4
 * @bpc: bits per colour of a digital sink (6, 8, 10, 12, 14 or 16)
 * @formats: MMX_SIGNAL_FMT() set of the SignalFormats the sink accepts
 * @preferred_format: the SignalFormat the sink prefers
 * @tv_standards: MMX_SIGPROP() set of the TV standards a TV displays
 * @tv_default: the TV standard a TV is set to (a subset of @tv_standards)
 * @product: EDID product code
 * @serial: EDID serial number
 * @year: year of manufacture (1990 to 2245)
 * @week: week of manufacture (1 to 54; 0 if unknown)
 * @width_cm: image width in cm
 * @height_cm: image height in cm
 * @monitor_name: display name descriptor, at most 13 characters
 * @range: display range limits, covering every timing of the sink
 * @timings: detailed timings, the first one preferred; two go in the base
 *	block, the others in the CTA-861 extension
 * @num_timings: number of @timings
 * @established: MMX_EDID_EST_* set of established timings
 * @std: standard timings
 * @num_std: number of @std, at most 8
 * @vics: CTA-861 video identification codes, the first one native; a
 *	sink with VICs gets a CTA-861 extension block, with an HDMI vendor
 *	specific data block when @iface is HDMI
 * @num_vics: number of @vics
 */
struct mmx_sink {
	const char *name;
	const char *description;
	bool present;
	bool has_edid;
	u8 edid_revision;
	bool digital;
	enum mmx_edid_iface iface;
	u8 bpc;
	u32 formats;
	enum mmx_signal_format preferred_format;
	u64 tv_standards;
	u64 tv_default;
	u16 product;
	u32 serial;
	u16 year;
	u8 week;
	u8 width_cm;
	u8 height_cm;
	const char *monitor_name;
	struct mmx_edid_range range;
	const struct mmx_timing *timings;
	unsigned int num_timings;
	u32 established;
	const struct mmx_std_timing *std;
	unsigned int num_std;
	const u8 *vics;
	unsigned int num_vics;
};

/**
 * enum mmx_sink_id - index of a preset in &mmx_sinks
 * @MMX_SINK_NONE: "none": nothing plugged
 * @MMX_SINK_VGA: "vga": analog monitor, 1280x1024 preferred, 1600x1200 max
 * @MMX_SINK_DVI: "dvi": DVI monitor, 1920x1200 reduced blanking (154 MHz)
 * @MMX_SINK_HDMI: "hdmi": HDMI TV, 1920x1080 at 60 Hz, CTA-861 extension
 * @MMX_SINK_DUAL_LINK: "dual-link": DVI monitor, 2560x1600 (268.5 MHz)
 * @MMX_SINK_DP_4K: "dp-4k": DisplayPort monitor, 3840x2160 at 60 and 30 Hz
 * @MMX_SINK_PANEL: "panel": built-in panel, 1280x800 (71 MHz)
 * @MMX_SINK_PAL_TV: "pal-tv": analog PAL TV, no EDID
 * @MMX_SINK_NTSC_TV: "ntsc-tv": analog NTSC TV, no EDID
 * @MMX_SINK_COMPONENT_TV: "component-tv": analog HDTV with component
 *	input (480p to 1080i), no EDID
 * @MMX_SINK_COUNT: number of presets
 */
enum mmx_sink_id {
	MMX_SINK_NONE,
	MMX_SINK_VGA,
	MMX_SINK_DVI,
	MMX_SINK_HDMI,
	MMX_SINK_DUAL_LINK,
	MMX_SINK_DP_4K,
	MMX_SINK_PANEL,
	MMX_SINK_PAL_TV,
	MMX_SINK_NTSC_TV,
	MMX_SINK_COMPONENT_TV,
	MMX_SINK_COUNT,
};

/* The presets and sink descriptions (mmx_sink_presets.c) */
extern const struct mmx_sink mmx_sinks[MMX_SINK_COUNT];

const struct mmx_sink *mmx_sink_lookup(const char *name, size_t len);
int mmx_sink_from_edid(struct mmx_sink *sink, const u8 *edid, size_t len);
int mmx_sink_signal(const struct mmx_sink *sink, enum mmx_output_kind kind,
		    enum mmx_signal_format *format, u64 *props);

/* EDID generation (mmx_edid.c) */
int mmx_edid_build(const struct mmx_sink *sink, u8 *buf, size_t len);
void mmx_edid_dtd_decode(const u8 *d, struct mmx_timing *t);

#endif /* _MMX_EDID_H_ */
