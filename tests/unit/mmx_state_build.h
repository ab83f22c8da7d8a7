/* SPDX-License-Identifier: MIT */
/*
 * Builders of the parts of a struct mmx_state that the host tests make by
 * hand (mmxrandr_state.h's snapshot, test_lib_wire_state.c's states): a
 * mode, properties of each kind, an output and a CRTC. Each one clears
 * what it builds first; the caller sets what is particular to it. Arrays
 * and strings come from the state's arena (t_alloc()), as libmmx's own
 * snapshots: free the state with mmx_state_free() (or mmx_state_clear()).
 */
#ifndef MMX_STATE_BUILD_H
#define MMX_STATE_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libmmx.h"
#include "mmx_info_same.h"
#include "mmx_state.h"

/* @n zeroed elements of @size bytes owned by @s (NULL when @n is 0). */
static inline void *t_alloc(struct mmx_state *s, size_t n, size_t size)
{
	void *p = mmx_arena_calloc(&s->arena, n, size);

	if (n && !p)
		abort();
	return p;
}

/* A copy of @str owned by @s. */
static inline const char *t_str(struct mmx_state *s, const char *str)
{
	const char *p = mmx_arena_strdup(&s->arena, str);

	if (!p)
		abort();
	return p;
}

/* @s with @ncrtc zeroed CRTCs and @noutput zeroed outputs. */
static inline void t_state_alloc(struct mmx_state *s, uint32_t ncrtc,
				 uint32_t noutput)
{
	if (mmx_state_alloc(s, ncrtc, noutput))
		abort();
}

/*
 * @s's driver @driver (an mmx one: transforms and writeback), a screen of
 * @w x @h, from @min x @min to @max x @max.
 */
static inline void t_screen(struct mmx_state *s, const char *driver,
			    uint32_t w, uint32_t h, uint32_t min, uint32_t max)
{
	s->flags = MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		   MMX_STATE_WRITEBACK;
	s->driver = t_str(s, driver);
	s->screen_width = w;
	s->screen_height = h;
	s->min_width = s->min_height = min;
	s->max_width = s->max_height = max;
}

/*
 * A fake display's small state: driver @driver, @flags, @ncrtc CRTCs of
 * ids @crtc0 on, an output of id @output0 + i and name @names[i] for each
 * of the @noutput names, without modes or properties.
 */
static inline void t_state_small(struct mmx_state *s, const char *driver,
				 uint32_t flags, uint32_t ncrtc,
				 uint32_t crtc0, uint32_t noutput,
				 uint32_t output0, const char *const *names)
{
	uint32_t i;

	mmx_state_clear(s);
	s->flags = flags;
	s->driver = t_str(s, driver);
	t_state_alloc(s, ncrtc, noutput);
	for (i = 0; i < ncrtc; i++)
		s->crtcs[i].id = crtc0 + i;
	for (i = 0; i < noutput; i++) {
		s->outputs[i].id = output0 + i;
		s->outputs[i].name = t_str(s, names[i]);
	}
}

/* Room for @nmode modes and @nprop properties in @o (counts set). */
static inline void t_output_room(struct mmx_state *s,
				 struct mmx_output_info *o, uint32_t nmode,
				 uint32_t nprop)
{
	o->nmode = nmode;
	o->modes = t_alloc(s, nmode, sizeof(*o->modes));
	o->nprop = nprop;
	o->props = t_alloc(s, nprop, sizeof(*o->props));
}

/*
 * A mode named "WxH" of @w x @h: sync @hfront pixels after the active
 * area for @hsync pixels, @htotal in all; the same in lines for @vfront,
 * @vsync and @vtotal. Clock, refresh, flags and type are the caller's.
 */
static inline void t_mode_timing(struct mmx_mode *m, uint32_t id, uint32_t w,
				 uint32_t h, uint32_t hfront, uint32_t hsync,
				 uint32_t htotal, uint32_t vfront,
				 uint32_t vsync, uint32_t vtotal)
{
	memset(m, 0, sizeof(*m));
	m->id = id;
	snprintf(m->name, sizeof(m->name), "%ux%u", w, h);
	m->width = w;
	m->height = h;
	m->hsync_start = (uint16_t)(w + hfront);
	m->hsync_end = (uint16_t)(w + hfront + hsync);
	m->htotal = (uint16_t)htotal;
	m->vsync_start = (uint16_t)(h + vfront);
	m->vsync_end = (uint16_t)(h + vfront + vsync);
	m->vtotal = (uint16_t)vtotal;
}

/* A property @name of @type, @flags and @id; its values are the caller's. */
static inline void t_prop(struct mmx_state *s, struct mmx_property *p,
			  const char *name, uint32_t type, uint32_t flags,
			  uint32_t id)
{
	memset(p, 0, sizeof(*p));
	p->name = t_str(s, name);
	p->type = type;
	p->flags = flags;
	p->id = id;
}

/* A range property (@type: MMX_PROP_RANGE or MMX_PROP_SIGNED_RANGE). */
static inline void t_range_prop(struct mmx_state *s, struct mmx_property *p,
				const char *name, uint32_t type, uint32_t flags,
				uint32_t id, uint64_t min, uint64_t max,
				uint64_t value)
{
	t_prop(s, p, name, type, flags, id);
	p->min = min;
	p->max = max;
	p->value = value;
}

/* An enum property of the @n values @names, valued 0 to @n - 1. */
static inline void t_enum_prop(struct mmx_state *s, struct mmx_property *p,
			       const char *name, uint32_t type, uint32_t flags,
			       uint32_t id, const char *const *names,
			       uint32_t n, uint64_t value)
{
	uint32_t k;

	t_prop(s, p, name, type, flags, id);
	p->nenum = n;
	p->enums = t_alloc(s, n, sizeof(*p->enums));
	for (k = 0; k < n; k++) {
		p->enums[k].name = t_str(s, names[k]);
		p->enums[k].value = k;
	}
	p->value = value;
}

/* A blob property (blob id @value) of @len bytes, all zero. */
static inline void t_blob_prop(struct mmx_state *s, struct mmx_property *p,
			       const char *name, uint32_t flags, uint32_t id,
			       uint64_t value, uint32_t len)
{
	t_prop(s, p, name, MMX_PROP_BLOB, flags, id);
	p->value = value;
	p->blob_len = len;
	p->blob = t_alloc(s, len, 1);
}

/*
 * A connected output @name of @mm_width x @mm_height mm that @ncrtc CRTCs,
 * ids @crtc0 on, can drive; no modes, properties or clones.
 */
static inline void t_output(struct mmx_state *s, struct mmx_output_info *o,
			    uint32_t id, const char *name, uint32_t mm_width,
			    uint32_t mm_height, uint32_t ncrtc, uint32_t crtc0)
{
	uint32_t k;

	memset(o, 0, sizeof(*o));
	o->id = id;
	o->name = t_str(s, name);
	o->connection = MMX_CONNECTED;
	o->mm_width = mm_width;
	o->mm_height = mm_height;
	o->ncrtc = ncrtc;
	o->crtcs = t_alloc(s, ncrtc, sizeof(*o->crtcs));
	for (k = 0; k < ncrtc; k++)
		o->crtcs[k] = crtc0 + k;
}

/*
 * An unlit CRTC of index @index that can drive @npossible outputs, ids
 * @output0 on, at every rotation and reflection (its outputs array has
 * room for them all); its transform, current and pending, the identity
 * with the nearest filter.
 */
static inline void t_crtc(struct mmx_state *s, struct mmx_crtc_info *c,
			  uint32_t id, uint32_t index, uint32_t npossible,
			  uint32_t output0)
{
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->index = index;
	c->rotation = MMX_ROTATE_0;
	c->rotations = 0x3f;
	c->npossible = npossible;
	c->possible = t_alloc(s, npossible, sizeof(*c->possible));
	c->outputs = t_alloc(s, npossible, sizeof(*c->outputs));
	for (k = 0; k < npossible; k++)
		c->possible[k] = output0 + k;
	mmx_matrix_identity(c->current.matrix);
	c->current.identity = 1;
	c->current.filter = "nearest";
	c->pending = c->current;
}

/* 0 when @a and @b hold the same snapshot, field by field. */
static inline int t_state_same(const struct mmx_state *a,
			       const struct mmx_state *b)
{
	uint32_t i;

	T_SAME(a->flags == b->flags && a->pan_mode == b->pan_mode &&
	       t_str_same(a->driver, b->driver) &&
	       a->timestamp == b->timestamp &&
	       a->config_timestamp == b->config_timestamp,
	       "state flags, pan mode, driver or times");
	T_SAME(a->screen_width == b->screen_width &&
	       a->screen_height == b->screen_height &&
	       a->min_width == b->min_width && a->min_height == b->min_height &&
	       a->max_width == b->max_width && a->max_height == b->max_height,
	       "state sizes");
	T_SAME(a->primary == b->primary && a->pointer_x == b->pointer_x &&
	       a->pointer_y == b->pointer_y, "state primary or pointer");
	T_SAME(a->ncrtc == b->ncrtc && a->noutput == b->noutput,
	       "state counts %u/%u %u/%u", a->ncrtc, b->ncrtc, a->noutput,
	       b->noutput);
	for (i = 0; i < a->ncrtc; i++)
		if (t_crtc_same(&a->crtcs[i], &b->crtcs[i], i))
			return -1;
	for (i = 0; i < a->noutput; i++)
		if (t_output_same(&a->outputs[i], &b->outputs[i], i))
			return -1;
	return 0;
}

#endif
