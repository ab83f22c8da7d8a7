/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The EDID presets and what each builds: id, name, EDID bytes, revision.
 * Rows only; included by mmx_kunit.c and tests/unit/test_edid.c.
 */
	{ MMX_SINK_NONE, "none", 0, 0 },
	{ MMX_SINK_VGA, "vga", 128, 4 },
	{ MMX_SINK_DVI, "dvi", 128, 4 },
	{ MMX_SINK_HDMI, "hdmi", 256, 3 },
	{ MMX_SINK_DUAL_LINK, "dual-link", 128, 4 },
	{ MMX_SINK_DP_4K, "dp-4k", 128, 4 },
	{ MMX_SINK_PANEL, "panel", 128, 4 },
	{ MMX_SINK_PAL_TV, "pal-tv", 0, 0 },
	{ MMX_SINK_NTSC_TV, "ntsc-tv", 0, 0 },
	{ MMX_SINK_COMPONENT_TV, "component-tv", 0, 0 },
