/* SPDX-License-Identifier: MIT */
/*
 * Builders of the parts of a struct mmx_state that the host tests make by
 * hand (mmxrandr_state.h's snapshot, test_lib_wire_state.c's states): a
 * mode, properties of each kind, an output and a CRTC. Each one clears
 * what it builds first; the caller sets what is particular to it.
 */
#ifndef MMX_STATE_BUILD_H
#define MMX_STATE_BUILD_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libmmx.h"
#include "mmx_state.h"

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
static inline void t_prop(struct mmx_property *p, const char *name,
			  uint32_t type, uint32_t flags, uint32_t id)
{
	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->type = type;
	p->flags = flags;
	p->id = id;
}

/* A range property (@type: MMX_PROP_RANGE or MMX_PROP_SIGNED_RANGE). */
static inline void t_range_prop(struct mmx_property *p, const char *name,
				uint32_t type, uint32_t flags, uint32_t id,
				uint64_t min, uint64_t max, uint64_t value)
{
	t_prop(p, name, type, flags, id);
	p->min = min;
	p->max = max;
	p->value = value;
}

/* An enum property of the @n values @names, valued 0 to @n - 1. */
static inline void t_enum_prop(struct mmx_property *p, const char *name,
			       uint32_t type, uint32_t flags, uint32_t id,
			       const char *const *names, uint32_t n,
			       uint64_t value)
{
	uint32_t k;

	t_prop(p, name, type, flags, id);
	p->nenum = n;
	for (k = 0; k < n; k++) {
		snprintf(p->enums[k].name, sizeof(p->enums[k].name), "%s",
			 names[k]);
		p->enums[k].value = k;
	}
	p->value = value;
}

/* A blob property (blob id @value) of @len bytes, all zero. */
static inline void t_blob_prop(struct mmx_property *p, const char *name,
			       uint32_t flags, uint32_t id, uint64_t value,
			       uint32_t len)
{
	t_prop(p, name, MMX_PROP_BLOB, flags, id);
	p->value = value;
	p->blob_len = len;
}

/*
 * A connected output @name of @mm_width x @mm_height mm that @ncrtc CRTCs,
 * ids @crtc0 on, can drive; no modes, properties or clones.
 */
static inline void t_output(struct mmx_output_info *o, uint32_t id,
			    const char *name, uint32_t mm_width,
			    uint32_t mm_height, uint32_t ncrtc, uint32_t crtc0)
{
	uint32_t k;

	memset(o, 0, sizeof(*o));
	o->id = id;
	snprintf(o->name, sizeof(o->name), "%s", name);
	o->connection = MMX_CONNECTED;
	o->mm_width = mm_width;
	o->mm_height = mm_height;
	o->ncrtc = ncrtc;
	for (k = 0; k < ncrtc; k++)
		o->crtcs[k] = crtc0 + k;
}

/*
 * An unlit CRTC of index @index that can drive @npossible outputs, ids
 * @output0 on, at every rotation and reflection; its transform, current
 * and pending, the identity with the nearest filter.
 */
static inline void t_crtc(struct mmx_crtc_info *c, uint32_t id,
			  uint32_t index, uint32_t npossible, uint32_t output0)
{
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->index = index;
	c->rotation = MMX_ROTATE_0;
	c->rotations = 0x3f;
	c->npossible = npossible;
	for (k = 0; k < npossible; k++)
		c->possible[k] = output0 + k;
	mmx_matrix_identity(c->current.matrix);
	c->current.identity = 1;
	snprintf(c->current.filter, sizeof(c->current.filter), "nearest");
	c->pending = c->current;
}

#endif
