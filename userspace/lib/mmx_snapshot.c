// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Snapshots (struct mmx_state): their lifetime (everything in one arena,
 * freed by mmx_state_free()), a deep copy for mmxd and the tests, and the
 * mmx_state_*() accessors and lookups of libmmx.h.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_state.h"

void mmx_state_clear(struct mmx_state *s)
{
	mmx_arena_free(&s->arena);
	memset(s, 0, sizeof(*s));
}

void mmx_state_free(struct mmx_state *s)
{
	if (!s)
		return;
	mmx_arena_free(&s->arena);
	free(s);
}

int mmx_state_alloc(struct mmx_state *s, uint32_t ncrtc, uint32_t noutput)
{
	s->ncrtc = ncrtc;
	s->noutput = noutput;
	s->crtcs = mmx_arena_calloc(&s->arena, ncrtc, sizeof(*s->crtcs));
	s->outputs = mmx_arena_calloc(&s->arena, noutput, sizeof(*s->outputs));
	return (ncrtc && !s->crtcs) || (noutput && !s->outputs) ? -ENOMEM : 0;
}

/* *@dst = a copy in @a of the @n ids at @src; false when memory ran out. */
static bool copy_ids(struct mmx_arena *a, uint32_t **dst, const uint32_t *src,
		     uint32_t n)
{
	*dst = mmx_arena_memdup(a, src, (size_t)n * sizeof(*src));
	return !n || *dst;
}

static bool copy_property(struct mmx_arena *a, struct mmx_property *p)
{
	const struct mmx_prop_enum *enums = p->enums;
	uint32_t i;

	p->name = mmx_arena_strdup(a, p->name);
	p->blob = mmx_arena_memdup(a, p->blob, p->blob_len);
	p->enums = mmx_arena_calloc(a, p->nenum, sizeof(*p->enums));
	if (!p->name || (p->blob_len && !p->blob) || (p->nenum && !p->enums))
		return false;
	for (i = 0; i < p->nenum; i++) {
		p->enums[i].value = enums[i].value;
		p->enums[i].name = mmx_arena_strdup(a, enums[i].name);
		if (!p->enums[i].name)
			return false;
	}
	return true;
}

/* Give @o (a shallow copy) its own arrays and strings in @a. */
static bool copy_output(struct mmx_arena *a, struct mmx_output_info *o)
{
	const struct mmx_property *props = o->props;
	uint32_t i;

	o->name = mmx_arena_strdup(a, o->name);
	if (!o->name || !copy_ids(a, &o->crtcs, o->crtcs, o->ncrtc) ||
	    !copy_ids(a, &o->clones, o->clones, o->nclone))
		return false;
	o->modes = mmx_arena_memdup(a, o->modes,
				    (size_t)o->nmode * sizeof(*o->modes));
	o->props = mmx_arena_memdup(a, props,
				    (size_t)o->nprop * sizeof(*o->props));
	if ((o->nmode && !o->modes) || (o->nprop && !o->props))
		return false;
	for (i = 0; i < o->nprop; i++)
		if (!copy_property(a, &o->props[i]))
			return false;
	return true;
}

int mmx_state_copy(struct mmx_state *dst, const struct mmx_state *src)
{
	struct mmx_arena *a = &dst->arena;
	uint32_t i;

	*dst = *src;
	dst->arena.blocks = NULL;
	dst->driver = mmx_arena_strdup(a, src->driver);
	dst->crtcs = mmx_arena_memdup(a, src->crtcs,
				      (size_t)src->ncrtc * sizeof(*src->crtcs));
	dst->outputs = mmx_arena_memdup(a, src->outputs, (size_t)src->noutput *
					sizeof(*src->outputs));
	if (!dst->driver || (src->ncrtc && !dst->crtcs) ||
	    (src->noutput && !dst->outputs))
		goto err_clear;
	for (i = 0; i < src->ncrtc; i++) {
		struct mmx_crtc_info *c = &dst->crtcs[i];

		if (!copy_ids(a, &c->outputs, c->outputs, c->noutput) ||
		    !copy_ids(a, &c->possible, c->possible, c->npossible))
			goto err_clear;
	}
	for (i = 0; i < src->noutput; i++)
		if (!copy_output(a, &dst->outputs[i]))
			goto err_clear;
	return 0;

err_clear:
	mmx_state_clear(dst);
	return -ENOMEM;
}

uint32_t mmx_state_flags(const struct mmx_state *s)
{
	return s ? s->flags : 0;
}

uint32_t mmx_state_pan_mode(const struct mmx_state *s)
{
	return s ? s->pan_mode : 0;
}

const char *mmx_state_driver(const struct mmx_state *s)
{
	if (!s)
		return NULL;
	return s->driver ? s->driver : "";
}

uint64_t mmx_state_timestamp(const struct mmx_state *s)
{
	return s ? s->timestamp : 0;
}

uint64_t mmx_state_config_timestamp(const struct mmx_state *s)
{
	return s ? s->config_timestamp : 0;
}

/* *@a = @x, *@b = @y, each where its pointer is set */
static void get_pair(uint32_t *a, uint32_t *b, uint32_t x, uint32_t y)
{
	if (a)
		*a = x;
	if (b)
		*b = y;
}

void mmx_state_screen_size(const struct mmx_state *s, uint32_t *width,
			   uint32_t *height)
{
	if (s)
		get_pair(width, height, s->screen_width, s->screen_height);
}

void mmx_state_min_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height)
{
	if (s)
		get_pair(width, height, s->min_width, s->min_height);
}

void mmx_state_max_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height)
{
	if (s)
		get_pair(width, height, s->max_width, s->max_height);
}

uint32_t mmx_state_primary(const struct mmx_state *s)
{
	return s ? s->primary : 0;
}

void mmx_state_pointer(const struct mmx_state *s, int32_t *x, int32_t *y)
{
	if (!s)
		return;
	if (x)
		*x = s->pointer_x;
	if (y)
		*y = s->pointer_y;
}

uint32_t mmx_state_noutputs(const struct mmx_state *s)
{
	return s && s->outputs ? s->noutput : 0;
}

uint32_t mmx_state_ncrtcs(const struct mmx_state *s)
{
	return s && s->crtcs ? s->ncrtc : 0;
}

const struct mmx_output_info *mmx_state_output_at(const struct mmx_state *s,
						  uint32_t index)
{
	return index < mmx_state_noutputs(s) ? &s->outputs[index] : NULL;
}

const struct mmx_crtc_info *mmx_state_crtc_at(const struct mmx_state *s,
					      uint32_t index)
{
	return index < mmx_state_ncrtcs(s) ? &s->crtcs[index] : NULL;
}

/* The output of @s of connector id @id, or (@id 0) named @name. */
static const struct mmx_output_info *find_output(const struct mmx_state *s,
						 uint32_t id, const char *name)
{
	uint32_t i, n = mmx_state_noutputs(s);

	for (i = 0; i < n; i++) {
		const struct mmx_output_info *o = &s->outputs[i];

		if (id ? o->id == id :
			 o->name && name && !strcmp(o->name, name))
			return o;
	}
	return NULL;
}

const struct mmx_output_info *mmx_state_output(const struct mmx_state *s,
					       uint32_t id)
{
	return id ? find_output(s, id, NULL) : NULL;
}

const struct mmx_output_info *
mmx_state_output_by_name(const struct mmx_state *s, const char *name)
{
	return name ? find_output(s, 0, name) : NULL;
}

const struct mmx_crtc_info *mmx_state_crtc(const struct mmx_state *s,
					   uint32_t id)
{
	uint32_t i, n = mmx_state_ncrtcs(s);

	for (i = 0; id && i < n; i++)
		if (s->crtcs[i].id == id)
			return &s->crtcs[i];
	return NULL;
}

const struct mmx_property *mmx_output_property(const struct mmx_output_info *o,
					       const char *name)
{
	uint32_t i;

	if (!o || !name || !o->props)
		return NULL;
	for (i = 0; i < o->nprop; i++)
		if (o->props[i].name && !strcmp(o->props[i].name, name))
			return &o->props[i];
	return NULL;
}
