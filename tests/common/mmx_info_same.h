/* SPDX-License-Identifier: MIT */
/*
 * mmx_info_same.h - whether two of libmmx's public structs hold the same
 * content, field by field, arrays and strings by what they hold (never by
 * address): outputs, CRTCs, properties and transforms. libmmx.h only, so
 * that the host tests (mmx_state_build.h's t_state_same()) and the IGT
 * tests that read snapshots through the public API share them. A
 * difference is said on stderr ("differs: ...").
 */
#ifndef MMX_INFO_SAME_H
#define MMX_INFO_SAME_H

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "libmmx.h"

/* @a and @b as strings, NULL reading as "". */
static inline int t_str_same(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

#define T_SAME(cond, what, ...)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "differs: " what "\n", ##__VA_ARGS__); \
			return -1;					\
		}							\
	} while (0)

#define T_SAME_BYTES(a, b, n, what, ...)				\
	T_SAME((n) == 0 || !memcmp((a), (b), (n)), what, ##__VA_ARGS__)

/* The same transform: matrix bit for bit, filter, identity. */
static inline int t_transform_same(const struct mmx_transform_info *a,
				   const struct mmx_transform_info *b,
				   const char *what, uint32_t i)
{
	int k;

	for (k = 0; k < 9; k++)
		T_SAME(!memcmp(&a->matrix[k], &b->matrix[k], sizeof(double)),
		       "crtcs[%u].%s.matrix[%d]: %.17g %.17g", i, what, k,
		       a->matrix[k], b->matrix[k]);
	T_SAME(t_str_same(a->filter, b->filter) && a->identity == b->identity,
	       "crtcs[%u].%s filter or identity", i, what);
	return 0;
}

static inline int t_crtc_same(const struct mmx_crtc_info *a,
			      const struct mmx_crtc_info *b, uint32_t i)
{
	T_SAME(a->id == b->id && a->index == b->index && a->x == b->x &&
	       a->y == b->y && a->width == b->width &&
	       a->height == b->height && a->bbox_x == b->bbox_x &&
	       a->bbox_y == b->bbox_y && a->mode_valid == b->mode_valid &&
	       a->rotation == b->rotation && a->rotations == b->rotations,
	       "crtcs[%u] fields", i);
	T_SAME(a->noutput == b->noutput && a->npossible == b->npossible,
	       "crtcs[%u] counts", i);
	T_SAME_BYTES(a->outputs, b->outputs, a->noutput * 4,
		     "crtcs[%u].outputs", i);
	T_SAME_BYTES(a->possible, b->possible, a->npossible * 4,
		     "crtcs[%u].possible", i);
	T_SAME(!memcmp(&a->mode, &b->mode, sizeof(a->mode)),
	       "crtcs[%u].mode", i);
	if (t_transform_same(&a->pending, &b->pending, "pending", i) ||
	    t_transform_same(&a->current, &b->current, "current", i))
		return -1;
	T_SAME(!memcmp(&a->panning, &b->panning, sizeof(a->panning)),
	       "crtcs[%u].panning", i);
	return 0;
}

static inline int t_property_same(const struct mmx_property *a,
				  const struct mmx_property *b, uint32_t i,
				  uint32_t j)
{
	uint32_t k;

	T_SAME(t_str_same(a->name, b->name) && a->type == b->type &&
	       a->flags == b->flags && a->id == b->id && a->min == b->min &&
	       a->max == b->max && a->value == b->value,
	       "outputs[%u].props[%u] fields", i, j);
	T_SAME(a->nenum == b->nenum && a->blob_len == b->blob_len,
	       "outputs[%u].props[%u] counts", i, j);
	for (k = 0; k < a->nenum; k++)
		T_SAME(t_str_same(a->enums[k].name, b->enums[k].name) &&
		       a->enums[k].value == b->enums[k].value,
		       "outputs[%u].props[%u].enums[%u]", i, j, k);
	T_SAME_BYTES(a->blob, b->blob, a->blob_len,
		     "outputs[%u].props[%u].blob", i, j);
	return 0;
}

static inline int t_output_same(const struct mmx_output_info *a,
				const struct mmx_output_info *b, uint32_t i)
{
	uint32_t j;

	T_SAME(a->id == b->id && t_str_same(a->name, b->name) &&
	       a->connection == b->connection && a->crtc == b->crtc &&
	       a->mm_width == b->mm_width && a->mm_height == b->mm_height &&
	       a->subpixel == b->subpixel && a->primary == b->primary,
	       "outputs[%u] fields", i);
	T_SAME(a->ncrtc == b->ncrtc && a->nclone == b->nclone &&
	       a->nmode == b->nmode && a->npreferred == b->npreferred &&
	       a->nprop == b->nprop, "outputs[%u] counts", i);
	T_SAME_BYTES(a->crtcs, b->crtcs, a->ncrtc * 4, "outputs[%u].crtcs", i);
	T_SAME_BYTES(a->clones, b->clones, a->nclone * 4,
		     "outputs[%u].clones", i);
	T_SAME_BYTES(a->modes, b->modes, a->nmode * sizeof(*a->modes),
		     "outputs[%u].modes", i);
	for (j = 0; j < a->nprop; j++)
		if (t_property_same(&a->props[j], &b->props[j], i, j))
			return -1;
	return 0;
}

#endif
