// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxrandr: the request resolved against a snapshot of the screen, as
 * xrandr resolves its command line against the server's resources: mode
 * choice (--mode, --preferred, --auto, --rate), rotation and reflection,
 * transforms (--transform, --scale, --scale-from, --keystone), relative
 * placement with xrandr's final shift of every lit output to (0, 0),
 * panning, properties, primary output and screen size checks. The result
 * is one struct mmx_config: applied whole or not at all.
 *
 * Differences from xrandr, on purpose: relative placement uses the
 * transformed size of the outputs (the CRTC's bounding box, what RandR's
 * GetCrtcInfo reports) rather than the rotated mode size, so a scaled
 * output is placed next to what it really covers; --scale-from fits the
 * rotated mode; an unknown --output is an error, not a warning.
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mmxrandr.h"

/* An output as the plan goes. */
struct po {
	const struct mmx_output_info *info;
	const struct mmxr_output_req *req;	/* NULL: not on the command line */
	const struct mmx_crtc_info *crtc;	/* current CRTC, or NULL */
	int was_lit;
	int lit;
	int automatic;
	int mode_changed;
	int geometry_changed;	/* bbox to recompute */
	const struct mmx_mode *mode;
	uint32_t rotation;
	double matrix[9];
	const char *filter;
	int transform_set;
	int placed;		/* position known (for relations) */
	int pos_changed;
	int32_t x;
	int32_t y;
	int32_t bx;
	int32_t by;
	uint32_t bw;
	uint32_t bh;
};

struct planner {
	const struct mmxr_request *req;
	const struct mmx_state *s;
	struct mmxr_plan *plan;
	struct po *po;
	unsigned int n;
	char *err;
	size_t errlen;
};

static int plerr(struct planner *p, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int plerr(struct planner *p, int e, const char *fmt, ...)
{
	va_list ap;

	if (p->err && p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return e;
}

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

/* By RandR name, or by id written "0x3c" as xrandr accepts. */
const struct mmx_output_info *mmxr_find_output(const struct mmx_state *s,
					       const char *name)
{
	const struct mmx_output_info *o = mmx_state_output_by_name(s, name);
	unsigned long id;
	char *end;

	if (o || strncmp(name, "0x", 2) || !name[2])
		return o;
	id = strtoul(name + 2, &end, 16);
	if (*end || id > UINT32_MAX)
		return NULL;
	return mmx_state_output(s, (uint32_t)id);
}

static struct po *po_of(struct planner *p, const struct mmx_output_info *o)
{
	unsigned int k;

	for (k = 0; k < p->n; k++)
		if (p->po[k].info == o)
			return &p->po[k];
	return NULL;
}

static const char *reflection_name(uint32_t rotation)
{
	switch (rotation & (MMX_REFLECT_X | MMX_REFLECT_Y)) {
	case 0:
		return "none";
	case MMX_REFLECT_X:
		return "X axis";
	case MMX_REFLECT_Y:
		return "Y axis";
	default:
		return "X and Y axis";
	}
}

static uint32_t rotated_width(const struct po *o)
{
	return o->rotation & (MMX_ROTATE_90 | MMX_ROTATE_270) ?
		o->mode->height : o->mode->width;
}

static uint32_t rotated_height(const struct po *o)
{
	return o->rotation & (MMX_ROTATE_90 | MMX_ROTATE_270) ?
		o->mode->width : o->mode->height;
}

/* Mode @name of output @o, the closest to @refresh (0: the first). */
static const struct mmx_mode *mode_by_name(const struct mmx_output_info *o,
					   const char *name, double refresh)
{
	const struct mmx_mode *best = NULL;
	double best_dist = 0;
	uint32_t k;

	for (k = 0; k < o->nmode; k++) {
		const struct mmx_mode *m = &o->modes[k];
		double dist;

		if (strcmp(m->name, name))
			continue;
		/* DRM_MODE_FLAG_DBLSCAN: only when a rate asks for it */
		if (!refresh && (m->flags & (1u << 5)))
			continue;
		dist = refresh ? fabs(mmxr_mode_refresh(m) - refresh) : 0;
		if (!best || dist < best_dist) {
			best = m;
			best_dist = dist;
		}
	}
	return best;
}

static const struct mmx_mode *preferred_mode(const struct mmx_output_info *o,
					     double refresh)
{
	if (!o->nmode)
		return NULL;
	/* the preferred modes come first; with a rate, the closest of them */
	if (refresh && o->npreferred)
		return mode_by_name(o, o->modes[0].name, refresh);
	return &o->modes[0];
}

static int resolve_mode(struct planner *p, struct po *o)
{
	const struct mmxr_output_req *r = o->req;
	const struct mmx_output_info *info = o->info;
	double refresh = r && (r->changes & MMXR_CH_RATE) ? r->refresh : 0;
	int kind = r ? r->mode_kind : MMXR_MODE_KEEP;
	const struct mmx_mode *m = NULL;
	uint32_t k;

	if (kind == MMXR_MODE_KEEP && o->automatic)
		kind = info->connection == MMX_DISCONNECTED ?
			MMXR_MODE_OFF : MMXR_MODE_PREFERRED;

	switch (kind) {
	case MMXR_MODE_OFF:
		o->lit = 0;
		o->mode = NULL;
		o->mode_changed = o->was_lit;
		return 0;
	case MMXR_MODE_NAME:
		m = mode_by_name(info, r->mode_name, refresh);
		if (!m)
			return plerr(p, -ENOENT, "cannot find mode %s",
				     r->mode_name);
		break;
	case MMXR_MODE_ID:
		for (k = 0; k < info->nmode; k++)
			if (info->modes[k].id == r->mode_id)
				m = &info->modes[k];
		if (!m)
			return plerr(p, -ENOENT, "cannot find mode 0x%x",
				     r->mode_id);
		break;
	case MMXR_MODE_PREFERRED:
		m = preferred_mode(info, refresh);
		if (!m)
			return plerr(p, -ENOENT, "cannot find preferred mode");
		break;
	default:
		if (!refresh)
			return 0;
		/* --rate alone: the current mode's name at another rate */
		m = o->was_lit ? mode_by_name(info, o->mode->name, refresh) :
			preferred_mode(info, refresh);
		if (!m)
			return plerr(p, -ENOENT,
				     "cannot find a mode of output %s at %g Hz",
				     info->name, refresh);
		break;
	}
	o->lit = 1;
	o->mode = m;
	o->mode_changed = 1;
	o->geometry_changed = 1;
	return 0;
}

static int resolve_rotation(struct planner *p, struct po *o)
{
	const struct mmxr_output_req *r = o->req;
	uint32_t rot = o->rotation, rots;

	if (!r || !(r->changes & (MMXR_CH_ROTATE | MMXR_CH_REFLECT)))
		return 0;
	if (r->changes & MMXR_CH_ROTATE)
		rot = (rot & ~0xfu) | r->rotate;
	if (r->changes & MMXR_CH_REFLECT)
		rot = (rot & ~(MMX_REFLECT_X | MMX_REFLECT_Y)) | r->reflect;
	if (!(rot & 0xf))
		rot |= MMX_ROTATE_0;
	rots = mmxr_output_rotations(p->s, o->info);
	if (!(rots & rot & 0xf) ||
	    (rots & rot & (MMX_REFLECT_X | MMX_REFLECT_Y)) !=
	    (rot & (MMX_REFLECT_X | MMX_REFLECT_Y)))
		return plerr(p, -EINVAL,
			     "output %s cannot use rotation \"%s\" reflection \"%s\"",
			     o->info->name, mmxr_rotation_name(rot),
			     reflection_name(rot));
	o->rotation = rot;
	o->geometry_changed = 1;
	return 0;
}

static void append_matrix(char *buf, size_t len, const double m[9])
{
	int k;

	for (k = 0; k < 9; k++)
		append(buf, len, "%s%.9g", k ? "," : "", m[k]);
}

static int resolve_transform(struct planner *p, struct po *o)
{
	const struct mmxr_output_req *r = o->req;
	double inv[9];
	int ret;

	if (!r || !(r->changes & (MMXR_CH_TRANSFORM | MMXR_CH_FILTER)))
		return 0;
	if (!o->lit)
		return 0;	/* xrandr ignores it for an output left off */
	if (!(mmx_state_flags(p->s) & MMX_STATE_TRANSFORMS))
		return plerr(p, -EOPNOTSUPP,
			     "output %s: the %s driver has no CRTC transforms",
			     o->info->name, mmx_state_driver(p->s));
	if (r->changes & MMXR_CH_TRANSFORM) {
		memcpy(o->matrix, r->matrix, sizeof(o->matrix));
		o->filter = r->transform_filter;
		if (r->transform_kind == MMXR_XF_SCALE_FROM) {
			double sx = (double)r->scale_from_w / rotated_width(o);
			double sy = (double)r->scale_from_h / rotated_height(o);

			mmx_matrix_identity(o->matrix);
			o->matrix[0] = sx;
			o->matrix[4] = sy;
			o->filter = sx != 1 || sy != 1 ? "bilinear" : "nearest";
			if (p->req->flags & MMXR_VERBOSE)
				append(p->plan->out, sizeof(p->plan->out),
				       "scaling %s by %fx%f\n", o->info->name,
				       sx, sy);
		} else if (r->transform_kind == MMXR_XF_KEYSTONE) {
			ret = mmx_matrix_keystone(o->matrix, rotated_width(o),
						  rotated_height(o),
						  r->keystone);
			if (ret)
				return plerr(p, ret,
					     "output %s: the keystone corners do not form a convex quadrilateral",
					     o->info->name);
			append(p->plan->out, sizeof(p->plan->out),
			       "keystone matrix: ");
			append_matrix(p->plan->out, sizeof(p->plan->out),
				      o->matrix);
			append(p->plan->out, sizeof(p->plan->out), "\n");
		}
		if (mmx_matrix_invert(inv, o->matrix))
			return plerr(p, -EINVAL,
				     "output %s: the transform is singular",
				     o->info->name);
		o->transform_set = 1;
		o->geometry_changed = 1;
	}
	if (r->changes & MMXR_CH_FILTER)
		o->filter = r->filter;
	return 0;
}

static int compute_bbox(struct planner *p, struct po *o)
{
	int ret;

	if (!o->lit)
		return 0;
	if (!o->geometry_changed && o->crtc) {
		o->bx = o->crtc->bbox_x;
		o->by = o->crtc->bbox_y;
		o->bw = o->crtc->width;
		o->bh = o->crtc->height;
		return 0;
	}
	ret = mmx_crtc_bbox(o->matrix, o->rotation, o->mode->width,
			    o->mode->height, &o->bx, &o->by, &o->bw, &o->bh);
	if (ret)
		return plerr(p, ret,
			     "output %s: the transform maps the mode to no finite area",
			     o->info->name);
	return 0;
}

/* Place @o relative to @rel (both lit). */
static void place(struct po *o, const struct po *rel, int relation)
{
	switch (relation) {
	case MMXR_LEFT_OF:
		o->x = rel->x + rel->bx - (o->bx + (int32_t)o->bw);
		o->y = rel->y + rel->by - o->by;
		break;
	case MMXR_RIGHT_OF:
		o->x = rel->x + rel->bx + (int32_t)rel->bw - o->bx;
		o->y = rel->y + rel->by - o->by;
		break;
	case MMXR_ABOVE:
		o->x = rel->x + rel->bx - o->bx;
		o->y = rel->y + rel->by - (o->by + (int32_t)o->bh);
		break;
	case MMXR_BELOW:
		o->x = rel->x + rel->bx - o->bx;
		o->y = rel->y + rel->by + (int32_t)rel->bh - o->by;
		break;
	default:
		o->x = rel->x;
		o->y = rel->y;
		break;
	}
}

/* The absolute positions; the relative ones marked not placed yet. */
static int place_absolute(struct planner *p)
{
	unsigned int k;

	for (k = 0; k < p->n; k++) {
		struct po *o = &p->po[k];
		const struct mmxr_output_req *r = o->req;

		o->placed = 1;
		if (!o->lit)
			continue;
		if (r && (r->changes & MMXR_CH_POS)) {
			o->x = r->x;
			o->y = r->y;
		} else if (r && (r->changes & MMXR_CH_RELATION)) {
			if (!mmxr_find_output(p->s, r->relative_to))
				return plerr(p, -ENOENT,
					     "cannot find output \"%s\"",
					     r->relative_to);
			o->placed = 0;
		} else if (!o->was_lit) {
			o->x = 0;
			o->y = 0;
		}
	}
	return 0;
}

/* The relative positions, each once its reference is placed. */
static int place_relative(struct planner *p)
{
	unsigned int k;

	for (;;) {
		int any_set = 0, keep_going = 0;

		for (k = 0; k < p->n; k++) {
			struct po *o = &p->po[k], *rel;

			if (o->placed)
				continue;
			rel = po_of(p, mmxr_find_output(p->s,
							o->req->relative_to));
			if (!rel->lit) {
				o->x = 0;
				o->y = 0;
			} else if (!rel->placed) {
				keep_going = 1;
				continue;
			} else {
				place(o, rel, o->req->relation);
			}
			o->placed = 1;
			any_set = 1;
		}
		if (!keep_going)
			return 0;
		if (!any_set)
			return plerr(p, -EINVAL,
				     "loop in relative position specifications");
	}
}

/* xrandr: the upper left corner of all outputs goes to 0, 0. */
static void normalize_positions(struct planner *p)
{
	int32_t min_x = INT32_MAX, min_y = INT32_MAX;
	unsigned int k;

	for (k = 0; k < p->n; k++) {
		if (!p->po[k].lit)
			continue;
		if (p->po[k].x < min_x)
			min_x = p->po[k].x;
		if (p->po[k].y < min_y)
			min_y = p->po[k].y;
	}
	for (k = 0; k < p->n; k++) {
		struct po *o = &p->po[k];

		if (!o->lit)
			continue;
		if (min_x != INT32_MAX && (min_x || min_y)) {
			o->x -= min_x;
			o->y -= min_y;
		}
		if (!o->was_lit || !o->crtc || o->x != o->crtc->x ||
		    o->y != o->crtc->y ||
		    (o->req && (o->req->changes &
				(MMXR_CH_POS | MMXR_CH_RELATION))))
			o->pos_changed = 1;
	}
}

static int resolve_positions(struct planner *p)
{
	int ret = place_absolute(p);

	if (!ret)
		ret = place_relative(p);
	if (ret)
		return ret;
	normalize_positions(p);
	return 0;
}

static int enum_has(const struct mmx_property *pr, const char *name,
		    size_t len)
{
	uint32_t k;

	for (k = 0; k < pr->nenum; k++)
		if (strlen(pr->enums[k].name) == len &&
		    !strncmp(pr->enums[k].name, name, len))
			return 1;
	return 0;
}

/*
 * Whether @value is one of property @pr's: 1 or 0, -1 for a type mmxrandr
 * cannot set.
 */
static int prop_value_ok(const struct mmx_property *pr, const char *value)
{
	const char *v, *c;
	char *end;

	switch (pr->type) {
	case MMX_PROP_ENUM:
		return enum_has(pr, value, strlen(value));
	case MMX_PROP_BITMASK:
		for (v = value; *v; v = *c ? c + 1 : c) {
			c = strchr(v, ',');
			if (!c)
				c = v + strlen(v);
			if (!enum_has(pr, v, (size_t)(c - v)))
				return 0;
		}
		return 1;
	case MMX_PROP_RANGE: {
		unsigned long long u;

		errno = 0;
		u = strtoull(value, &end, 0);
		return !(!*value || *end || errno || value[0] == '-' ||
			 u < pr->min || u > pr->max);
	}
	case MMX_PROP_SIGNED_RANGE: {
		long long l;

		errno = 0;
		l = strtoll(value, &end, 0);
		return !(!*value || *end || errno || l < (int64_t)pr->min ||
			 l > (int64_t)pr->max);
	}
	default:
		return -1;
	}
}

static int check_prop(struct planner *p, const struct mmx_output_info *o,
		      const char *name, const char *value)
{
	const struct mmx_property *pr = mmx_output_property(o, name);
	int ok;

	if (!pr)
		return plerr(p, -ENOENT, "output %s has no property \"%s\"",
			     o->name, name);
	if (pr->flags & MMX_PROP_IMMUTABLE)
		return plerr(p, -EACCES,
			     "property \"%s\" of output %s is immutable",
			     name, o->name);
	if (strlen(value) > MMXR_MAX_VALUE)
		return plerr(p, -EINVAL, "value of property \"%s\" too long",
			     name);
	ok = prop_value_ok(pr, value);
	if (ok < 0)
		return plerr(p, -EINVAL,
			     "property \"%s\" of output %s cannot be set",
			     name, o->name);
	if (!ok)
		return plerr(p, -EINVAL,
			     "invalid value \"%s\" for property \"%s\" of output %s",
			     value, name, o->name);
	return 0;
}

static int resolve_crtc(struct planner *p, const struct po *o, uint32_t *id)
{
	const char *a = o->req->crtc;
	const struct mmx_crtc_info *c = NULL;
	unsigned long v;
	uint32_t k;

	if (!strncmp(a, "0x", 2)) {
		v = strtoul(a + 2, NULL, 16);
		c = mmx_state_crtc(p->s, (uint32_t)v);
	} else {
		v = strtoul(a, NULL, 10);
		if (v < mmx_state_ncrtcs(p->s))
			c = mmx_state_crtc_at(p->s, (uint32_t)v);
	}
	if (!c)
		return plerr(p, -ENOENT, "cannot find crtc %s", a);
	for (k = 0; k < o->info->ncrtc; k++) {
		if (o->info->crtcs[k] == c->id) {
			*id = c->id;
			return 0;
		}
	}
	return plerr(p, -EINVAL, "output %s cannot use crtc 0x%x",
		     o->info->name, c->id);
}

/* The CRTC libmmx will pick: the current one, else a free usable one. */
static int guess_crtc_index(struct planner *p, const struct po *o,
			    uint32_t forced)
{
	uint32_t k, j, pass, self;

	if (forced) {
		const struct mmx_crtc_info *c = mmx_state_crtc(p->s, forced);

		return c ? (int)c->index : -1;
	}
	if (o->crtc)
		return (int)o->crtc->index;
	/* as libmmx: the CRTC at the output's own position first */
	self = (uint32_t)(o - p->po);	/* po[k] is output k */
	for (pass = 0; pass < 2; pass++) {
		for (k = 0; k < o->info->ncrtc; k++) {
			const struct mmx_crtc_info *c =
				mmx_state_crtc(p->s, o->info->crtcs[k]);
			int used = 0;

			if (!c || (!pass && c->index != self))
				continue;
			for (j = 0; j < p->n; j++)
				if (p->po[j].lit && p->po[j].crtc == c)
					used = 1;
			if (!used)
				return (int)c->index;
		}
	}
	return -1;
}

/* Warn when --fb's screen does not hold lit output @o's area. */
static void fb_warn(struct planner *p, const struct po *o)
{
	int64_t r = (int64_t)o->x + o->bx + o->bw;
	int64_t b = (int64_t)o->y + o->by + o->bh;

	if (o->x + o->bx < 0 || o->y + o->by < 0 || r > p->req->fb_width ||
	    b > p->req->fb_height)
		append(p->plan->warn, sizeof(p->plan->warn),
		       "specified screen %ux%u not large enough for output %s (%ux%u%+d%+d)\n",
		       p->req->fb_width, p->req->fb_height, o->info->name,
		       o->bw, o->bh, o->x + o->bx, o->y + o->by);
}

/* The screen the plan needs (libmmx's arithmetic), or --fb's, checked. */
static int screen_size(struct planner *p, uint32_t *w, uint32_t *h)
{
	struct mmx_crtc_info *areas = calloc(p->n + 1, sizeof(*areas));
	uint32_t need_w, need_h, n = 0;
	uint32_t min_w, min_h, max_w, max_h;
	unsigned int k;

	if (!areas)
		return plerr(p, -ENOMEM, "out of memory");
	for (k = 0; k < p->n; k++) {
		const struct po *o = &p->po[k];
		struct mmx_crtc_info *a = &areas[n];

		if (!o->lit)
			continue;
		n++;
		a->mode_valid = 1;
		a->x = o->x;
		a->y = o->y;
		a->bbox_x = o->bx;
		a->bbox_y = o->by;
		a->width = o->bw;
		a->height = o->bh;
		if (o->req && (o->req->changes & MMXR_CH_PANNING))
			a->panning = o->req->panning;
		else if (o->crtc && o->was_lit)
			a->panning = o->crtc->panning;
		if (p->req->flags & MMXR_FB)
			fb_warn(p, o);
	}
	/* nothing lit: 0x0 */
	mmx_screen_bbox(areas, n, &need_w, &need_h);
	free(areas);
	if (p->req->flags & MMXR_FB) {
		need_w = p->req->fb_width;
		need_h = p->req->fb_height;
		mmx_state_min_size(p->s, &min_w, &min_h);
		if (need_w < min_w || need_h < min_h)
			return plerr(p, -EINVAL, "screen must be at least %ux%u",
				     min_w, min_h);
	}
	mmx_state_max_size(p->s, &max_w, &max_h);
	if (need_w > max_w || need_h > max_h)
		return plerr(p, -EINVAL,
			     "screen cannot be larger than %ux%u (desired size %ux%u)",
			     max_w, max_h, need_w, need_h);
	*w = need_w;
	*h = need_h;
	return 0;
}

/* The MMX_CHANGE_* flags of a lit output @o. */
static int lit_change_flags(struct planner *p, struct po *o, uint32_t *flags)
{
	const struct mmxr_output_req *r = o->req;
	int transforms = mmx_state_flags(p->s) & MMX_STATE_TRANSFORMS;

	if (o->mode_changed)
		*flags |= MMX_CHANGE_MODE;
	if (o->pos_changed)
		*flags |= MMX_CHANGE_POS;
	if ((r && (r->changes & (MMXR_CH_ROTATE | MMXR_CH_REFLECT))) ||
	    !o->was_lit)
		*flags |= MMX_CHANGE_ROTATION;
	if (o->transform_set || (!o->was_lit && transforms))
		*flags |= MMX_CHANGE_TRANSFORM;
	else if (r && (r->changes & MMXR_CH_FILTER))
		*flags |= MMX_CHANGE_FILTER;
	if (r && (r->changes & MMXR_CH_PANNING)) {
		if (!transforms)
			return plerr(p, -EOPNOTSUPP,
				     "output %s: the %s driver has no panning",
				     o->info->name, mmx_state_driver(p->s));
		*flags |= MMX_CHANGE_PANNING;
	}
	return 0;
}

/* What changes on @o (MMX_CHANGE_*), and its --crtc, checked. */
static int change_flags(struct planner *p, struct po *o, uint32_t *flags,
			uint32_t *crtc)
{
	const struct mmxr_output_req *r = o->req;
	unsigned int k;
	int ret;

	if (r && (r->changes & MMXR_CH_CRTC) && o->lit) {
		ret = resolve_crtc(p, o, crtc);
		if (ret)
			return ret;
		*flags |= MMX_CHANGE_CRTC;
	}
	if (o->lit) {
		ret = lit_change_flags(p, o, flags);
		if (ret)
			return ret;
	} else if (o->was_lit && o->mode_changed) {
		*flags |= MMX_CHANGE_OFF;
	}
	if (r && (r->changes & MMXR_CH_PANNING) && !o->lit)
		return plerr(p, -EINVAL, "output %s is off: it cannot pan",
			     o->info->name);
	if (r && (r->changes & MMXR_CH_PROPS)) {
		for (k = 0; k < r->nprop; k++) {
			ret = check_prop(p, o->info, r->props[k].name,
					 r->props[k].value);
			if (ret)
				return ret;
		}
		*flags |= MMX_CHANGE_PROPS;
	}
	return 0;
}

/* @o's entry of the configuration, with @flags. */
static int fill_change(struct planner *p, struct po *o, uint32_t flags,
		       uint32_t crtc)
{
	const struct mmxr_output_req *r = o->req;
	struct mmx_config *cfg = p->plan->cfg;
	struct mmx_output_change *ch = mmx_config_output(cfg, o->info->id);
	unsigned int k;

	if (!ch)
		return plerr(p, -ENOSPC, "too many outputs to change");
	ch->flags |= flags;
	ch->crtc = crtc;
	if (flags & MMX_CHANGE_MODE)
		ch->mode = *o->mode;
	ch->x = o->x;
	ch->y = o->y;
	ch->rotation = o->rotation;
	memcpy(ch->transform.matrix, o->matrix, sizeof(o->matrix));
	/* a static name (mmx_filter_canonical()'s or the snapshot's) */
	ch->transform.filter = o->filter ? o->filter : "nearest";
	ch->transform.identity = !memcmp(o->matrix,
					 (const double[9]){ 1, 0, 0, 0, 1, 0,
							    0, 0, 1 },
					 sizeof(o->matrix));
	if (flags & MMX_CHANGE_PANNING)
		ch->panning = r->panning;
	for (k = 0; (flags & MMX_CHANGE_PROPS) && k < r->nprop; k++)
		if (mmx_config_output_set_prop(cfg, o->info->id,
					       r->props[k].name,
					       r->props[k].value))
			return plerr(p, -ENOMEM, "out of memory");
	return 0;
}

/* xrandr's --verbose line for the change of @o. */
static void verbose_change(struct planner *p, struct po *o, uint32_t flags,
			   uint32_t crtc)
{
	int idx = guess_crtc_index(p, o, crtc);

	if (flags & MMX_CHANGE_OFF)
		append(p->plan->out, sizeof(p->plan->out),
		       "crtc %d: disable\n",
		       o->crtc ? (int)o->crtc->index : idx);
	else if (o->lit && (flags & ~MMX_CHANGE_PROPS))
		append(p->plan->out, sizeof(p->plan->out),
		       "crtc %d: %12s %6.2f +%d+%d \"%s\"\n", idx,
		       o->mode->name, mmxr_mode_refresh(o->mode),
		       o->x, o->y, o->info->name);
}

static int build_change(struct planner *p, struct po *o)
{
	uint32_t flags = 0, crtc = 0;
	int ret;

	ret = change_flags(p, o, &flags, &crtc);
	if (ret || !flags)
		return ret;
	ret = fill_change(p, o, flags, crtc);
	if (ret)
		return ret;
	if (p->req->flags & MMXR_VERBOSE)
		verbose_change(p, o, flags, crtc);
	return 0;
}

/* Every output of the snapshot as it is now. */
static void plan_current(struct planner *p)
{
	const struct mmx_state *s = p->s;
	unsigned int k;

	p->n = mmx_state_noutputs(s);
	for (k = 0; k < p->n; k++) {
		struct po *o = &p->po[k];

		o->info = mmx_state_output_at(s, k);
		o->crtc = o->info->crtc ? mmx_state_crtc(s, o->info->crtc) : NULL;
		o->was_lit = o->crtc && o->crtc->mode_valid;
		o->lit = o->was_lit;
		o->rotation = MMX_ROTATE_0;
		mmx_matrix_identity(o->matrix);
		o->filter = "nearest";
		if (!o->was_lit)
			continue;
		o->mode = &o->crtc->mode;
		o->rotation = o->crtc->rotation ? o->crtc->rotation :
			MMX_ROTATE_0;
		memcpy(o->matrix, o->crtc->current.matrix, sizeof(o->matrix));
		o->filter = o->crtc->current.filter;
		o->x = o->crtc->x;
		o->y = o->crtc->y;
	}
}

/* The command line's outputs, each attached to its output. */
static int plan_requests(struct planner *p)
{
	const struct mmxr_request *req = p->req;
	unsigned int k;

	for (k = 0; k < req->noutput; k++) {
		const struct mmx_output_info *info =
			mmxr_find_output(p->s, req->outputs[k].name);
		struct po *o = info ? po_of(p, info) : NULL;

		if (!o)
			return plerr(p, -ENOENT, "cannot find output \"%s\"",
				     req->outputs[k].name);
		if (o->req)	/* "0x41" and "VGA-1" naming the same one */
			return plerr(p, -EINVAL,
				     "output %s given twice", info->name);
		o->req = &req->outputs[k];
	}
	return 0;
}

/* Each output's mode, rotation, transform and size, and the primary. */
static int plan_outputs(struct planner *p, struct mmx_config *cfg)
{
	unsigned int k;
	int ret;

	for (k = 0; k < p->n; k++) {
		struct po *o = &p->po[k];
		int connected = o->info->connection != MMX_DISCONNECTED;

		if (o->req && (o->req->changes & MMXR_CH_AUTO))
			o->automatic = 1;
		else if ((p->req->flags & MMXR_AUTO_ALL) &&
			 ((connected && !o->was_lit) ||
			  (!connected && o->was_lit)))
			o->automatic = 1;
		ret = resolve_mode(p, o);
		if (!ret)
			ret = resolve_rotation(p, o);
		if (!ret)
			ret = resolve_transform(p, o);
		if (!ret)
			ret = compute_bbox(p, o);
		if (ret)
			return ret;
		if (o->req && (o->req->changes & MMXR_CH_PRIMARY))
			mmx_config_set_primary(cfg, o->info->id);
	}
	return 0;
}

/* The screen-wide options, and whether the plan applies anything. */
static void plan_screen(struct planner *p, struct mmx_config *cfg,
			uint32_t sw, uint32_t sh)
{
	const struct mmxr_request *req = p->req;
	struct mmxr_plan *plan = p->plan;
	uint32_t cur_w, cur_h;

	if (req->flags & MMXR_NOPRIMARY)
		mmx_config_set_primary(cfg, 0);
	if (req->flags & MMXR_FB)
		mmx_config_set_screen_size(cfg, req->fb_width,
					   req->fb_height);
	if (req->flags & MMXR_PAN_MODE)
		mmx_config_set_pan_mode(cfg, req->pan_mode);
	plan->apply = mmx_config_noutputs(cfg) > 0 ||
		(mmx_config_flags(cfg) & (MMX_CONFIG_SCREEN_SIZE | MMX_CONFIG_PRIMARY |
			       MMX_CONFIG_PAN_MODE));
	mmx_state_screen_size(p->s, &cur_w, &cur_h);
	if (plan->apply && (req->flags & MMXR_VERBOSE) &&
	    (sw != cur_w || sh != cur_h))
		append(plan->out, sizeof(plan->out), "screen 0: %ux%u\n",
		       sw, sh);
	if (req->flags & MMXR_DRYRUN)
		mmx_config_set_flags(cfg, mmx_config_flags(cfg) |
				     MMX_CONFIG_TEST_ONLY);
}

/* The plan of @p->req against @p->s into @p->plan (its cfg ready). */
static int plan_run(struct planner *p, struct mmx_config *cfg)
{
	uint32_t sw = 0, sh = 0;
	unsigned int k;
	int ret;

	plan_current(p);
	ret = plan_requests(p);
	if (!ret)
		ret = plan_outputs(p, cfg);
	if (!ret)
		ret = resolve_positions(p);
	if (!ret)
		ret = screen_size(p, &sw, &sh);
	for (k = 0; !ret && k < p->n; k++)
		ret = build_change(p, &p->po[k]);
	if (ret)
		return ret;
	plan_screen(p, cfg, sw, sh);
	return 0;
}

int mmxr_plan(const struct mmxr_request *req, const struct mmx_state *s,
	      struct mmxr_plan *plan, char *err, size_t errlen)
{
	struct planner p = {
		.req = req, .s = s, .plan = plan, .err = err, .errlen = errlen,
	};
	struct mmx_config *cfg = plan->cfg;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	memset(plan, 0, sizeof(*plan));
	if (cfg)
		mmx_config_reset(cfg);
	else if (mmx_config_new(&cfg))
		return plerr(&p, -ENOMEM, "out of memory");
	plan->cfg = cfg;
	/* one per output of the snapshot (po[k] is output k) */
	p.po = calloc(mmx_state_noutputs(s) + 1, sizeof(*p.po));
	if (!p.po)
		return plerr(&p, -ENOMEM, "out of memory");
	ret = plan_run(&p, cfg);
	free(p.po);
	return ret;
}

void mmxr_plan_release(struct mmxr_plan *plan)
{
	if (!plan)
		return;
	mmx_config_free(plan->cfg);
	plan->cfg = NULL;
}
