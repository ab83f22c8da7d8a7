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

#define T_EDP		40
#define T_VGA		41
#define T_CRTC0		30
#define T_CRTC1		31

static inline void t_mode(struct mmx_mode *m, uint32_t id, uint32_t w,
			  uint32_t h, uint32_t clock, uint32_t htotal,
			  uint32_t vtotal, uint32_t flags)
{
	memset(m, 0, sizeof(*m));
	m->id = id;
	snprintf(m->name, sizeof(m->name), "%ux%u", w, h);
	m->width = w;
	m->height = h;
	m->clock = clock;
	m->hsync_start = (uint16_t)(w + 24);
	m->hsync_end = (uint16_t)(w + 160);
	m->htotal = (uint16_t)htotal;
	m->vsync_start = (uint16_t)(h + 3);
	m->vsync_end = (uint16_t)(h + 9);
	m->vtotal = (uint16_t)vtotal;
	m->flags = flags;
	m->refresh_mhz = (uint32_t)((uint64_t)clock * 1000000ull /
				    ((uint64_t)htotal * vtotal));
}

static inline void t_enum_prop(struct mmx_property *p, const char *name,
			       uint32_t type, uint32_t flags,
			       const char *const *names, uint32_t n,
			       uint64_t value)
{
	uint32_t k;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = type;
	p->flags = flags;
	p->nenum = n;
	for (k = 0; k < n; k++) {
		snprintf(p->enums[k].name, sizeof(p->enums[k].name), "%s",
			 names[k]);
		p->enums[k].value = k;
	}
	p->value = value;
}

static inline void t_range_prop(struct mmx_property *p, const char *name,
				uint32_t flags, uint64_t min, uint64_t max,
				uint64_t value)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = MMX_PROP_RANGE;
	p->flags = flags;
	p->min = min;
	p->max = max;
	p->value = value;
}

/* A freshly allocated state; free() it. */
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
	s->flags = MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		   MMX_STATE_WRITEBACK;
	snprintf(s->driver, sizeof(s->driver), "mmx");
	s->timestamp = 123456000000ull;	/* 123456 ms */
	s->screen_width = 1024;
	s->screen_height = 768;
	s->min_width = 8;
	s->min_height = 8;
	s->max_width = 8192;
	s->max_height = 8192;
	s->primary = T_EDP;
	s->ncrtc = 2;
	s->noutput = 2;
	for (k = 0; k < 2; k++) {
		struct mmx_crtc_info *c = &s->crtcs[k];

		c->id = T_CRTC0 + k;
		c->index = k;
		c->rotation = MMX_ROTATE_0;
		c->rotations = 0x3f;
		c->npossible = 2;
		c->possible[0] = T_EDP;
		c->possible[1] = T_VGA;
		mmx_matrix_identity(c->current.matrix);
		c->current.identity = 1;
		snprintf(c->current.filter, sizeof(c->current.filter),
			 "nearest");
		c->pending = c->current;
	}

	e = &s->outputs[0];
	e->id = T_EDP;
	snprintf(e->name, sizeof(e->name), "eDP-1");
	e->connection = MMX_CONNECTED;
	e->crtc = T_CRTC0;
	e->mm_width = 309;
	e->mm_height = 174;
	e->primary = 1;
	e->ncrtc = 2;
	e->crtcs[0] = T_CRTC0;
	e->crtcs[1] = T_CRTC1;
	e->nmode = 4;
	e->npreferred = 1;
	/* 1024x768@60 (-HSync -VSync), 800x600@60.32, 800x600@75, 640x480@59.94 */
	t_mode(&e->modes[0], 0x48, 1024, 768, 65000, 1344, 806, 0xa);
	t_mode(&e->modes[1], 0x49, 800, 600, 40000, 1056, 628, 0x5);
	t_mode(&e->modes[2], 0x4a, 800, 600, 49500, 1056, 625, 0x5);
	t_mode(&e->modes[3], 0x4b, 640, 480, 25175, 800, 525, 0xa);
	e->nprop = 4;
	t_enum_prop(&e->props[0], "ConnectorType", MMX_PROP_ENUM,
		    MMX_PROP_IMMUTABLE, ctypes, 3, 2);
	t_enum_prop(&e->props[1], "SignalFormat", MMX_PROP_ENUM,
		    MMX_PROP_IMMUTABLE, dp_signal, 1, 0);
	t_enum_prop(&e->props[2], "SignalProperties", MMX_PROP_ENUM, 0,
		    dp_props, 6, 5);
	t_range_prop(&e->props[3], "ConnectorNumber", MMX_PROP_IMMUTABLE, 0,
		     8, 1);

	v = &s->outputs[1];
	v->id = T_VGA;
	snprintf(v->name, sizeof(v->name), "VGA-1");
	v->connection = MMX_CONNECTED;
	v->mm_width = 340;
	v->mm_height = 270;
	v->ncrtc = 2;
	v->crtcs[0] = T_CRTC0;
	v->crtcs[1] = T_CRTC1;
	v->nclone = 0;
	v->nmode = 2;
	v->npreferred = 1;
	t_mode(&v->modes[0], 0x48, 1024, 768, 65000, 1344, 806, 0xa);
	t_mode(&v->modes[1], 0x4b, 640, 480, 25175, 800, 525, 0xa);
	v->nprop = 4;
	t_enum_prop(&v->props[0], "SignalFormat", MMX_PROP_ENUM, 0,
		    vga_signal, 1, 0);
	t_enum_prop(&v->props[1], "link-status", MMX_PROP_ENUM, 0, link, 2,
		    0);
	t_range_prop(&v->props[2], "brightness-test", 0, 0, 100, 50);
	memset(&v->props[3], 0, sizeof(v->props[3]));
	snprintf(v->props[3].name, sizeof(v->props[3].name), "EDID");
	v->props[3].type = MMX_PROP_BLOB;
	v->props[3].flags = MMX_PROP_IMMUTABLE;
	v->props[3].value = 77;
	v->props[3].blob_len = 20;
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
