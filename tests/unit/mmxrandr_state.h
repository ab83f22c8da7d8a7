/* SPDX-License-Identifier: MIT */
/*
 * A synthetic struct mmx_state for the mmxrandr host tests: the default
 * mmx module (eDP-1 and VGA-1, two CRTCs that can drive either output,
 * every rotation and reflection), eDP-1 lit at 1024x768+0+0, VGA-1 off.
 * Timings are the VESA/CEA ones, so that refresh rates are the usual
 * 60.00, 60.32, 75.00 and 59.94 Hz.
 */
#ifndef MMXRANDR_STATE_H
#define MMXRANDR_STATE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmmx.h"
#include "mmx_state.h"	/* the tests build snapshots by hand */
#include "mmx_state_build.h"

#define T_EDP		40
#define T_VGA		41
#define T_CRTC0		30
#define T_CRTC1		31

/* A mode with sync at +24..+160 pixels and +3..+9 lines, as VESA's. */
static inline void t_mode(struct mmx_mode *m, uint32_t id, uint32_t w,
			  uint32_t h, uint32_t clock, uint32_t htotal,
			  uint32_t vtotal, uint32_t flags)
{
	t_mode_timing(m, id, w, h, 24, 136, htotal, 3, 6, vtotal);
	m->clock = clock;
	m->flags = flags;
	m->refresh_mhz = (uint32_t)((uint64_t)clock * 1000000ull /
				    ((uint64_t)htotal * vtotal));
}

/* A freshly allocated state; mmx_state_free() it. */
static inline struct mmx_state *t_state(void)
{
	static const char *const ctypes[] = { "unknown", "VGA", "Panel" };
	static const char *const vga_signal[] = { "VGA" };
	static const char *const dp_signal[] = { "DisplayPort" };
	/* mmx's SignalProperties: an enum of the valid attribute sets */
	static const char *const dp_props[] = {
		"Lane1+LowSpeed", "Lane1+HiSpeed", "Lane2+LowSpeed",
		"Lane2+HiSpeed", "Lane4+LowSpeed", "Lane4+HiSpeed"
	};
	static const char *const link[] = { "Good", "Bad" };
	struct mmx_state *s = calloc(1, sizeof(*s));
	struct mmx_output_info *e, *v;
	uint32_t k;

	if (!s)
		abort();
	t_screen(s, "mmx", 1024, 768, 8, 8192);
	s->timestamp = 123456000000ull;	/* 123456 ms */
	s->primary = T_EDP;
	t_state_alloc(s, 2, 2);
	for (k = 0; k < 2; k++)	/* either can drive T_EDP and T_VGA */
		t_crtc(s, &s->crtcs[k], T_CRTC0 + k, k, 2, T_EDP);

	e = &s->outputs[0];
	t_output(s, e, T_EDP, "eDP-1", 309, 174, 2, T_CRTC0);
	e->crtc = T_CRTC0;
	e->primary = 1;
	t_output_room(s, e, 4, 4);
	e->npreferred = 1;
	/* 1024x768@60 (-HSync -VSync), 800x600@60.32, 800x600@75, 640x480@59.94 */
	t_mode(&e->modes[0], 0x48, 1024, 768, 65000, 1344, 806, 0xa);
	t_mode(&e->modes[1], 0x49, 800, 600, 40000, 1056, 628, 0x5);
	t_mode(&e->modes[2], 0x4a, 800, 600, 49500, 1056, 625, 0x5);
	t_mode(&e->modes[3], 0x4b, 640, 480, 25175, 800, 525, 0xa);
	t_enum_prop(s, &e->props[0], "ConnectorType", MMX_PROP_ENUM,
		    MMX_PROP_IMMUTABLE, 0, ctypes, 3, 2);
	t_enum_prop(s, &e->props[1], "SignalFormat", MMX_PROP_ENUM,
		    MMX_PROP_IMMUTABLE, 0, dp_signal, 1, 0);
	t_enum_prop(s, &e->props[2], "SignalProperties", MMX_PROP_ENUM, 0, 0,
		    dp_props, 6, 5);
	t_range_prop(s, &e->props[3], "ConnectorNumber", MMX_PROP_RANGE,
		     MMX_PROP_IMMUTABLE, 0, 0, 8, 1);

	v = &s->outputs[1];
	t_output(s, v, T_VGA, "VGA-1", 340, 270, 2, T_CRTC0);
	t_output_room(s, v, 2, 4);
	v->npreferred = 1;
	t_mode(&v->modes[0], 0x48, 1024, 768, 65000, 1344, 806, 0xa);
	t_mode(&v->modes[1], 0x4b, 640, 480, 25175, 800, 525, 0xa);
	t_enum_prop(s, &v->props[0], "SignalFormat", MMX_PROP_ENUM, 0, 0,
		    vga_signal, 1, 0);
	t_enum_prop(s, &v->props[1], "link-status", MMX_PROP_ENUM, 0, 0, link,
		    2, 0);
	t_range_prop(s, &v->props[2], "brightness-test", MMX_PROP_RANGE, 0, 0,
		     0, 100, 50);
	t_blob_prop(s, &v->props[3], "EDID", MMX_PROP_IMMUTABLE, 0, 77, 20);
	for (k = 0; k < 20; k++)
		v->props[3].blob[k] = k < 8 ? (k == 0 || k == 7 ? 0 : 0xff) :
			(uint8_t)(k * 17);

	/* eDP-1 lit on CRTC 0 at its preferred mode */
	s->crtcs[0].mode_valid = 1;
	s->crtcs[0].mode = e->modes[0];
	s->crtcs[0].width = 1024;
	s->crtcs[0].height = 768;
	s->crtcs[0].noutput = 1;
	s->crtcs[0].outputs[0] = T_EDP;
	return s;
}

#endif
