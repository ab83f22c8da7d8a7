// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Changes to a local display: a struct mmx_config becomes one atomic
 * commit (RandR's SetScreenSize, SetCrtcConfig, SetCrtcTransform,
 * SetPanning, SetOutputPrimary and ChangeOutputProperty at once), and a
 * pointer move becomes one commit moving the panned CRTCs' primary planes.
 *
 * mmx_kms_apply() validates everything first and builds the whole desired
 * state (struct mmx_want) from a snapshot and the config, then tests it
 * (TEST_ONLY), and only then commits it. On any failure nothing changed.
 * Documentation/libmmx.rst states the semantics.
 */

#define _GNU_SOURCE		/* strerrorname_np */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drm/mmx_drm.h"
#include "mmx_kms.h"
#include "mmx_matrix.h"
#include "mmx_pan_screen.h"

#define MMX_ALL_CHANGES (MMX_CHANGE_MODE | MMX_CHANGE_POS |		\
			 MMX_CHANGE_ROTATION | MMX_CHANGE_TRANSFORM |	\
			 MMX_CHANGE_FILTER | MMX_CHANGE_PANNING |	\
			 MMX_CHANGE_OFF | MMX_CHANGE_CRTC | MMX_CHANGE_PROPS)
#define MMX_CRTC_CHANGES (MMX_ALL_CHANGES & ~(MMX_CHANGE_OFF |		\
					      MMX_CHANGE_PROPS))
#define MMX_ALL_CONFIG (MMX_CONFIG_SCREEN_SIZE | MMX_CONFIG_PRIMARY |	\
			MMX_CONFIG_PAN_MODE | MMX_CONFIG_TEST_ONLY |	\
			MMX_CONFIG_PENDING_ONLY)

/**
 * struct mmx_want_crtc - the desired state of one CRTC
 * @now: what the kernel has
 * @on: lit
 * @mode: its mode (when @on)
 * @mode_new: @mode needs a new MODE_ID blob
 * @x: position
 * @y: see @x
 * @rotation: MMX_ROTATE_* | MMX_REFLECT_*
 * @transform: the transform to commit (becomes current)
 * @pending: the pending transform after this config
 * @panning: panning
 * @touched: a change of the config drives it (its panning is clamped)
 * @fixed: the combined S31.32 matrix (transform x rotation), when @on
 * @t: @fixed prepared, when @on
 * @mode_blob: blobs created for the commit (destroyed after it)
 * @transform_blob: see @mode_blob
 * @panning_blob: see @mode_blob
 */
struct mmx_want_crtc {
	struct mmx_kms_crtc_now now;
	bool on;
	drmModeModeInfo mode;
	bool mode_new;
	int32_t x;
	int32_t y;
	uint32_t rotation;
	struct mmx_transform_info transform;
	struct mmx_transform_info pending;
	struct mmx_panning_info panning;
	bool touched;
	int64_t fixed[9];
	struct mmx_transform t;
	uint32_t mode_blob;
	uint32_t transform_blob;
};

/**
 * struct mmx_want_prop - a connector property to set
 * @output: index in the snapshot's outputs
 * @prop: KMS property id
 * @value: parsed value
 */
struct mmx_want_prop {
	uint32_t output;
	uint32_t prop;
	uint64_t value;
};

/**
 * struct mmx_want - the desired state of the display
 * @cur: snapshot it starts from
 * @crtc: per CRTC, KMS order
 * @out_crtc: per output of @cur: the CRTC id that drives it, 0: off
 * @nprop: entries in @props
 * @props: connector properties to set (room for every one of the config)
 * @screen_w: the screen size
 * @screen_h: see @screen_w
 * @screen: a new screen framebuffer (fb_id 0: keep the current one)
 */
struct mmx_want {
	struct mmx_state cur;
	struct mmx_want_crtc crtc[MMX_KMS_MAX_CRTCS];
	uint32_t *out_crtc;
	uint32_t nprop;
	struct mmx_want_prop *props;
	uint32_t screen_w;
	uint32_t screen_h;
	struct mmx_screen screen;
};

static const char *mmx_errname(int e)
{
	const char *n = strerrorname_np(e < 0 ? -e : e);

	return n ? n : "error";
}

static int mmx_crtc_index(const struct mmx_kms *k, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++)
		if (k->crtcs[i].id == id)
			return (int)i;
	return -1;
}

static int mmx_output_index(const struct mmx_state *s, uint32_t id)
{
	uint32_t i;

	for (i = 0; i < s->noutput; i++)
		if (s->outputs[i].id == id)
			return (int)i;
	return -1;
}

/* A name for CRTC @i in messages: its first output, else "CRTC <id>". */
static const char *mmx_want_name(const struct mmx_kms *k,
				 const struct mmx_want *w, uint32_t i,
				 char *buf, size_t size)
{
	uint32_t j;

	for (j = 0; j < w->cur.noutput; j++)
		if (w->out_crtc[j] == k->crtcs[i].id)
			return w->cur.outputs[j].name;
	for (j = 0; j < w->cur.noutput; j++)
		if (w->cur.outputs[j].crtc == k->crtcs[i].id)
			return w->cur.outputs[j].name;
	snprintf(buf, size, "CRTC %u", k->crtcs[i].id);
	return buf;
}

static bool mmx_panning_zero(const struct mmx_panning_info *p)
{
	static const struct mmx_panning_info zero;

	return !memcmp(p, &zero, sizeof(zero));
}

static void mmx_panning_to_pure(struct mmx_panning *d,
				const struct mmx_panning_info *p)
{
	d->left = p->left;
	d->top = p->top;
	d->width = p->width;
	d->height = p->height;
	d->track_left = p->track_left;
	d->track_top = p->track_top;
	d->track_width = p->track_width;
	d->track_height = p->track_height;
	d->border_left = p->border_left;
	d->border_top = p->border_top;
	d->border_right = p->border_right;
	d->border_bottom = p->border_bottom;
}

static bool mmx_matrix_is_identity_d(const double m[9])
{
	int i;

	for (i = 0; i < 9; i++)
		if (m[i] != ((i % 4) ? 0.0 : 1.0))
			return false;
	return true;
}

/* Exactly one rotation bit, any reflection bits, nothing else. */
static bool mmx_rotation_valid(uint32_t r)
{
	uint32_t rot = r & 0xf;

	return !(r & ~0x3fu) && rot && !(rot & (rot - 1));
}

/* Parse the text @buf of property @p (RandR ChangeOutputProperty). */
static int mmx_prop_parse_text(const struct mmx_property *p, char *buf,
			       uint64_t *out)
{
	char *tok, *save = NULL, *end;
	uint32_t i;

	switch (p->type) {
	case MMX_PROP_RANGE:
	case MMX_PROP_OBJECT:
		errno = 0;
		*out = strtoull(buf, &end, 0);
		if (errno || end == buf || *end || buf[0] == '-')
			return -EINVAL;
		if (p->type == MMX_PROP_RANGE && (*out < p->min ||
						  *out > p->max))
			return -ERANGE;
		return 0;
	case MMX_PROP_SIGNED_RANGE: {
		long long s;

		errno = 0;
		s = strtoll(buf, &end, 0);
		if (errno || end == buf || *end)
			return -EINVAL;
		if (s < (int64_t)p->min || s > (int64_t)p->max)
			return -ERANGE;
		*out = (uint64_t)s;
		return 0;
	}
	case MMX_PROP_ENUM:
		for (i = 0; i < p->nenum; i++) {
			if (!strcmp(p->enums[i].name, buf)) {
				*out = p->enums[i].value;
				return 0;
			}
		}
		return -EINVAL;
	case MMX_PROP_BITMASK:
		*out = 0;
		for (tok = strtok_r(buf, ", ", &save); tok;
		     tok = strtok_r(NULL, ", ", &save)) {
			for (i = 0; i < p->nenum; i++)
				if (!strcmp(p->enums[i].name, tok))
					break;
			if (i < p->nenum && p->enums[i].value < 64)
				*out |= 1ull << p->enums[i].value;
			else if (strcmp(tok, "0"))
				return -EINVAL;
		}
		return 0;
	default:
		return -EOPNOTSUPP;	/* blobs are not text */
	}
}

/* Parse the text @v of property @p (a copy: bitmasks are cut in tokens). */
static int mmx_prop_parse(const struct mmx_property *p, const char *v,
			  uint64_t *out)
{
	char *buf = strdup(v ? v : "");
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = mmx_prop_parse_text(p, buf, out);
	free(buf);
	return ret;
}

/* Check and record the property changes of change @c (output @j). */
static int mmx_want_props(struct mmx_want *w, const struct mmx_output_change *c,
			  uint32_t j, struct mmx_error *err)
{
	const struct mmx_output_info *o = &w->cur.outputs[j];
	uint32_t i;
	int ret;

	for (i = 0; i < c->nprop; i++) {
		const char *name = c->props[i].name ? c->props[i].name : "";
		const struct mmx_property *p;
		uint64_t v;

		p = mmx_output_property(o, name);
		if (!p)
			return mmx_error_set(err, -EINVAL,
					     "output %s: no property \"%s\"",
					     o->name, name);
		if (p->flags & (MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC))
			return mmx_error_set(err, -EPERM,
					     "output %s: property %s is immutable (RandR BadAccess)",
					     o->name, name);
		ret = mmx_prop_parse(p, c->props[i].value, &v);
		if (ret)
			return mmx_error_set(err, ret,
					     "output %s: property %s: bad value \"%s\"%s",
					     o->name, name,
					     c->props[i].value ?
					     c->props[i].value : "",
					     ret == -ERANGE ? " (out of range)" :
					     ret == -EOPNOTSUPP ?
					     " (blobs cannot be set)" : "");
		w->props[w->nprop].output = j;
		w->props[w->nprop].prop = p->id;
		w->props[w->nprop].value = v;
		w->nprop++;
	}
	return 0;
}

/* The CRTC output @j uses for change @c; -errno with a message. */
static int mmx_want_route(struct mmx_kms *k, struct mmx_want *w,
			  const struct mmx_output_change *c, uint32_t j,
			  struct mmx_error *err)
{
	const struct mmx_output_info *o = &w->cur.outputs[j];
	uint32_t i, n, pass;
	int idx;

	if (c->flags & MMX_CHANGE_CRTC) {
		idx = mmx_crtc_index(k, c->crtc);
		if (idx < 0)
			return mmx_error_set(err, -ENOENT,
					     "output %s: no CRTC %u", o->name,
					     c->crtc);
		for (i = 0; i < o->ncrtc; i++)
			if (o->crtcs[i] == c->crtc)
				return idx;
		return mmx_error_set(err, -EINVAL,
				     "output %s: cannot be driven by CRTC %u",
				     o->name, c->crtc);
	}
	if (w->out_crtc[j])
		return mmx_crtc_index(k, w->out_crtc[j]);
	/*
	 * A free CRTC, the one at the output's own position first: where
	 * any encoder drives any CRTC, output N keeps CRTC N (and its
	 * writeback) when that one is free.
	 */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < o->ncrtc; i++) {
			idx = mmx_crtc_index(k, o->crtcs[i]);
			if (idx < 0 || (!pass && (uint32_t)idx != j))
				continue;
			for (n = 0; n < w->cur.noutput; n++)
				if (w->out_crtc[n] == o->crtcs[i])
					break;
			if (n == w->cur.noutput)
				return idx;
		}
	}
	return mmx_error_set(err, -EBUSY, "output %s: no free CRTC", o->name);
}

/* Turn off the CRTCs that no output uses any more. */
static void mmx_want_orphans(struct mmx_kms *k, struct mmx_want *w)
{
	uint32_t i, j;

	for (i = 0; i < k->ncrtc; i++) {
		for (j = 0; j < w->cur.noutput; j++)
			if (w->out_crtc[j] == k->crtcs[i].id)
				break;
		if (j == w->cur.noutput)
			w->crtc[i].on = false;
	}
}

/* The flags of change @c (of output @o) that cannot go together. */
static int mmx_want_check_flags(const struct mmx_output_info *o,
				const struct mmx_config *cfg,
				const struct mmx_output_change *c,
				struct mmx_error *err)
{
	if (c->flags & ~MMX_ALL_CHANGES)
		return mmx_error_set(err, -EINVAL,
				     "output %s: unknown change flags 0x%x",
				     o->name, c->flags & ~MMX_ALL_CHANGES);
	if ((cfg->flags & MMX_CONFIG_PENDING_ONLY) &&
	    (c->flags & ~(MMX_CHANGE_TRANSFORM | MMX_CHANGE_FILTER)))
		return mmx_error_set(err, -EINVAL,
				     "output %s: a pending-only config takes transforms and filters only",
				     o->name);
	if ((c->flags & MMX_CHANGE_OFF) && (c->flags & MMX_CRTC_CHANGES))
		return mmx_error_set(err, -EINVAL,
				     "output %s: turned off and changed at once",
				     o->name);
	return 0;
}

/*
 * The mode of CRTC @idx for output @j: change @c's, or the one of the
 * output's old CRTC @old (with its position) when @idx is off.
 */
static int mmx_want_mode(struct mmx_want *w, const struct mmx_output_change *c,
			 uint32_t j, int idx, int old, struct mmx_error *err)
{
	const struct mmx_output_info *o = &w->cur.outputs[j];
	struct mmx_want_crtc *wc = &w->crtc[idx];
	const struct mmx_mode *m = &c->mode;

	if (c->flags & MMX_CHANGE_MODE) {
		if (!m->width || !m->height || m->width > 0xffff ||
		    m->height > 0xffff || !m->clock || m->htotal < m->width ||
		    m->vtotal < m->height)
			return mmx_error_set(err, -EINVAL,
					     "output %s: bad mode %ux%u",
					     o->name, m->width, m->height);
		mmx_kms_mode_to_drm(&wc->mode, m);
		wc->mode_new = true;
		return 0;
	}
	if (wc->on)
		return 0;
	if (old < 0 || !w->crtc[old].on)
		return mmx_error_set(err, -EINVAL,
				     "output %s: is off and needs a mode",
				     o->name);
	wc->mode = w->crtc[old].mode;
	wc->mode_new = true;
	wc->x = w->crtc[old].x;
	wc->y = w->crtc[old].y;
	return 0;
}

/* Output @name's change needs CRTC transforms: "the DRIVER driver @what". */
static int mmx_want_no_transforms(struct mmx_kms *k, const char *name,
				  const char *what, struct mmx_error *err)
{
	return mmx_error_set(err, -EOPNOTSUPP, "output %s: the %s driver %s",
			     name, k->driver, what);
}

/* Change @c's rotation (output @name) into @wc. */
static int mmx_want_rotation(struct mmx_kms *k, struct mmx_want_crtc *wc,
			     const struct mmx_output_change *c,
			     const char *name, struct mmx_error *err)
{
	if (!mmx_rotation_valid(c->rotation))
		return mmx_error_set(err, -EINVAL,
				     "output %s: bad rotation 0x%x",
				     name, c->rotation);
	if (c->rotation == MMX_ROTATE_0 || k->has_transforms) {
		wc->rotation = c->rotation;
		return 0;
	}
	return mmx_want_no_transforms(k, name,
				      "cannot rotate or reflect (no CRTC TRANSFORM)",
				      err);
}

/* Change @c's transform and filter (output @name) into @wc's pending ones. */
static int mmx_want_filters(struct mmx_kms *k, struct mmx_want_crtc *wc,
			    const struct mmx_output_change *c,
			    const char *name, struct mmx_error *err)
{
	const char *fname = c->transform.filter ? c->transform.filter : "";
	const char *filter;

	if (c->flags & MMX_CHANGE_TRANSFORM) {
		filter = fname[0] ? mmx_filter_canonical(fname) : "nearest";
		if (!filter)
			return mmx_error_set(err, -EINVAL,
					     "output %s: unknown filter \"%s\"",
					     name, fname);
		memcpy(wc->pending.matrix, c->transform.matrix,
		       sizeof(wc->pending.matrix));
		wc->pending.identity =
			mmx_matrix_is_identity_d(wc->pending.matrix);
		wc->pending.filter = filter;
	}
	if (c->flags & MMX_CHANGE_FILTER) {
		filter = mmx_filter_canonical(fname);
		if (!filter)
			return mmx_error_set(err, -EINVAL,
					     "output %s: unknown filter \"%s\"",
					     name, fname);
		wc->pending.filter = filter;
	}
	if ((c->flags & (MMX_CHANGE_TRANSFORM | MMX_CHANGE_FILTER)) &&
	    !k->has_transforms && (!wc->pending.identity ||
				   strcmp(wc->pending.filter, "nearest")))
		return mmx_want_no_transforms(k, name,
					      "has no CRTC transforms or filters",
					      err);
	return 0;
}

/* Change @c's position, rotation, transform and panning into @wc. */
static int mmx_want_geometry(struct mmx_kms *k, struct mmx_want_crtc *wc,
			     const struct mmx_config *cfg,
			     const struct mmx_output_change *c,
			     const char *name, struct mmx_error *err)
{
	int ret;

	if (c->flags & MMX_CHANGE_POS) {
		wc->x = c->x;
		wc->y = c->y;
	}
	if (c->flags & MMX_CHANGE_ROTATION) {
		ret = mmx_want_rotation(k, wc, c, name, err);
		if (ret)
			return ret;
	}
	ret = mmx_want_filters(k, wc, c, name, err);
	if (ret)
		return ret;
	if (!(cfg->flags & MMX_CONFIG_PENDING_ONLY))
		wc->transform = wc->pending;
	if (c->flags & MMX_CHANGE_PANNING) {
		if (!mmx_panning_zero(&c->panning) && !k->has_transforms)
			return mmx_want_no_transforms(k, name,
						      "has no panning (libmmx pans CRTCs with transforms)",
						      err);
		wc->panning = c->panning;
	}
	return 0;
}

/* Apply change @c (output @j) to the desired state. */
static int mmx_want_change(struct mmx_kms *k, struct mmx_want *w,
			   const struct mmx_config *cfg,
			   const struct mmx_output_change *c, uint32_t j,
			   struct mmx_error *err)
{
	const struct mmx_output_info *o = &w->cur.outputs[j];
	struct mmx_want_crtc *wc;
	int idx, old, ret;

	ret = mmx_want_check_flags(o, cfg, c, err);
	if (ret)
		return ret;
	if (c->flags & MMX_CHANGE_PROPS) {
		ret = mmx_want_props(w, c, j, err);
		if (ret)
			return ret;
	}
	if (c->flags & MMX_CHANGE_OFF) {
		w->out_crtc[j] = 0;
		return 0;
	}
	if (!(c->flags & MMX_CRTC_CHANGES))
		return 0;

	idx = mmx_want_route(k, w, c, j, err);
	if (idx < 0)
		return idx;
	wc = &w->crtc[idx];
	old = w->out_crtc[j] ? mmx_crtc_index(k, w->out_crtc[j]) : -1;
	ret = mmx_want_mode(w, c, j, idx, old, err);
	if (ret)
		return ret;
	if (!(cfg->flags & MMX_CONFIG_PENDING_ONLY)) {
		wc->on = true;
		w->out_crtc[j] = k->crtcs[idx].id;
	}
	wc->touched = true;
	return mmx_want_geometry(k, wc, cfg, c, o->name, err);
}

/* Combined matrix, prepared transform and panning clamp of lit CRTC @i. */
static int mmx_want_transform(struct mmx_kms *k, struct mmx_want *w,
			      uint32_t i, struct mmx_error *err)
{
	struct mmx_want_crtc *wc = &w->crtc[i];
	uint32_t mw = wc->mode.hdisplay, mh = wc->mode.vdisplay;
	struct mmx_panning pan;
	char buf[32];
	int ret;

	ret = mmx_matrix_prepare(&wc->t, wc->fixed, wc->transform.identity ?
				 NULL : wc->transform.matrix, wc->rotation,
				 mw, mh, MMX_TRANSFORM_SPACE_MAX);
	if (ret == -ERANGE)
		return mmx_error_set(err, -EINVAL,
				     "output %s: transform out of range (entries must stay below 32768)",
				     mmx_want_name(k, w, i, buf, sizeof(buf)));
	if (ret)
		return mmx_error_set(err, -EINVAL,
				     "output %s: transform refused for the %ux%u mode (singular, line at infinity on screen or bounding box beyond %d pixels)",
				     mmx_want_name(k, w, i, buf, sizeof(buf)),
				     mw, mh, MMX_TRANSFORM_SPACE_MAX);
	if (wc->touched && !mmx_panning_zero(&wc->panning)) {
		mmx_panning_to_pure(&pan, &wc->panning);
		mmx_pan_clamp(&pan, &wc->t, &wc->x, &wc->y);
	}
	return 0;
}

/* The screen size and RandR's checks of it and of the panning areas. */
/* The lit CRTCs' areas as the screen size rules see them: any lit? */
static bool mmx_want_heads(const struct mmx_kms *k, const struct mmx_want *w,
			   struct mmx_screen_head *heads)
{
	bool any = false;
	uint32_t i;

	memset(heads, 0, MMX_KMS_MAX_CRTCS * sizeof(*heads));
	for (i = 0; i < k->ncrtc; i++) {
		const struct mmx_want_crtc *wc = &w->crtc[i];

		if (!wc->on)
			continue;
		any = true;
		heads[i].on = true;
		heads[i].x = wc->x;
		heads[i].y = wc->y;
		heads[i].bbox_x = wc->t.bbox_x;
		heads[i].bbox_y = wc->t.bbox_y;
		heads[i].bbox_w = wc->t.bbox_w;
		heads[i].bbox_h = wc->t.bbox_h;
		heads[i].pan_left = wc->panning.left;
		heads[i].pan_top = wc->panning.top;
		heads[i].pan_width = wc->panning.width;
		heads[i].pan_height = wc->panning.height;
	}
	return any;
}

/* Every lit CRTC's panning area checked against RandR's rules. */
static int mmx_want_pannings(struct mmx_kms *k, struct mmx_want *w,
			     struct mmx_error *err)
{
	struct mmx_panning pan;
	char buf[32];
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++) {
		const struct mmx_want_crtc *wc = &w->crtc[i];

		if (!wc->on || mmx_panning_zero(&wc->panning))
			continue;
		mmx_panning_to_pure(&pan, &wc->panning);
		if (mmx_panning_check(&pan, &wc->t, w->screen_w, w->screen_h))
			return mmx_error_set(err, -EINVAL,
					     "output %s: panning %ux%u+%u+%u refused: it must cover the CRTC's %ux%u area and lie inside the %ux%u screen, borders within the mode (RandR's rules)",
					     mmx_want_name(k, w, i, buf,
							   sizeof(buf)),
					     pan.width, pan.height, pan.left,
					     pan.top, wc->t.bbox_w,
					     wc->t.bbox_h, w->screen_w,
					     w->screen_h);
	}
	return 0;
}

static int mmx_want_screen(struct mmx_kms *k, struct mmx_want *w,
			   const struct mmx_config *cfg, struct mmx_error *err)
{
	struct mmx_screen_limits lim = {
		k->min_w, k->min_h, k->max_w, k->max_h,
	};
	struct mmx_screen_head heads[MMX_KMS_MAX_CRTCS];
	const struct mmx_screen_head *h;
	bool any = mmx_want_heads(k, w, heads);
	char buf[32];
	int32_t bad;
	int ret;

	if (cfg->flags & MMX_CONFIG_SCREEN_SIZE) {
		w->screen_w = cfg->screen_width;
		w->screen_h = cfg->screen_height;
	} else if (any) {
		ret = mmx_screen_size_auto(heads, k->ncrtc, &lim, &w->screen_w,
					   &w->screen_h);
		if (ret)
			return mmx_error_set(err, -EINVAL,
					     "screen %ux%u needed, beyond the maximum %ux%u",
					     w->screen_w, w->screen_h,
					     k->max_w, k->max_h);
	} else {
		w->screen_w = k->screen.width;
		w->screen_h = k->screen.height;
		return 0;
	}
	ret = mmx_screen_size_check(heads, k->ncrtc, &lim, w->screen_w,
				    w->screen_h, &bad);
	if (!ret)
		return mmx_want_pannings(k, w, err);
	if (bad < 0)
		return mmx_error_set(err, -EINVAL,
				     "screen size %ux%u outside %ux%u..%ux%u",
				     w->screen_w, w->screen_h, k->min_w,
				     k->min_h, k->max_w, k->max_h);
	h = &heads[bad];
	return mmx_error_set(err, -EINVAL,
			     "output %s: its area (%ux%u at %d,%d) or panning area does not fit the %ux%u screen, or its position is negative",
			     mmx_want_name(k, w, (uint32_t)bad, buf, sizeof(buf)),
			     h->bbox_w, h->bbox_h, h->x + h->bbox_x,
			     h->y + h->bbox_y, w->screen_w, w->screen_h);
}

static int mmx_blob(int fd, const void *data, size_t size, uint32_t *id)
{
	return mmx_kms_errno(drmModeCreatePropertyBlob(fd, data, size, id));
}

/* Create the MODE_ID and TRANSFORM blobs of the lit CRTCs. */
static int mmx_want_blobs(struct mmx_kms *k, struct mmx_want *w)
{
	uint32_t i;
	int ret;

	for (i = 0; i < k->ncrtc; i++) {
		struct mmx_want_crtc *wc = &w->crtc[i];

		if (!wc->on)
			continue;
		if (wc->mode_new || !wc->now.has_mode) {
			ret = mmx_blob(k->fd, &wc->mode, sizeof(wc->mode),
				       &wc->mode_blob);
			if (ret)
				return ret;
		}
		if (!k->has_transforms)
			continue;
		if (!mmx_kms_matrix_is_identity(wc->fixed)) {
			struct drm_mmx_transform t;

			memcpy(t.matrix, wc->fixed, sizeof(t.matrix));
			ret = mmx_blob(k->fd, &t, sizeof(t),
				       &wc->transform_blob);
			if (ret)
				return ret;
		}
	}
	return 0;
}

static void mmx_want_free_blobs(struct mmx_kms *k, struct mmx_want *w)
{
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++) {
		if (w->crtc[i].mode_blob)
			drmModeDestroyPropertyBlob(k->fd, w->crtc[i].mode_blob);
		if (w->crtc[i].transform_blob)
			drmModeDestroyPropertyBlob(k->fd,
						   w->crtc[i].transform_blob);
	}
}

/* Primary plane @pl shows @fb (@fb_w x @fb_h) for a CRTC at x, y. */
static void mmx_req_plane(drmModeAtomicReqPtr req,
			  const struct mmx_kms_plane *pl, uint32_t crtc,
			  uint32_t fb, uint32_t fb_w, uint32_t fb_h, int32_t x,
			  int32_t y, const struct mmx_transform *t)
{
	struct mmx_plane_rect r;

	if (!fb || !mmx_screen_clip(x, y, t->bbox_x, t->bbox_y, t->bbox_w,
				    t->bbox_h, fb_w, fb_h, &r)) {
		drmModeAtomicAddProperty(req, pl->id, pl->fb_id, 0);
		drmModeAtomicAddProperty(req, pl->id, pl->crtc_id, 0);
		return;
	}
	drmModeAtomicAddProperty(req, pl->id, pl->fb_id, fb);
	drmModeAtomicAddProperty(req, pl->id, pl->crtc_id, crtc);
	drmModeAtomicAddProperty(req, pl->id, pl->src_x, (uint64_t)r.src_x << 16);
	drmModeAtomicAddProperty(req, pl->id, pl->src_y, (uint64_t)r.src_y << 16);
	drmModeAtomicAddProperty(req, pl->id, pl->src_w, (uint64_t)r.w << 16);
	drmModeAtomicAddProperty(req, pl->id, pl->src_h, (uint64_t)r.h << 16);
	drmModeAtomicAddProperty(req, pl->id, pl->crtc_x,
				 (uint64_t)(int64_t)r.crtc_x);
	drmModeAtomicAddProperty(req, pl->id, pl->crtc_y,
				 (uint64_t)(int64_t)r.crtc_y);
	drmModeAtomicAddProperty(req, pl->id, pl->crtc_w, r.w);
	drmModeAtomicAddProperty(req, pl->id, pl->crtc_h, r.h);
}

/* Turn off every plane (and writeback connector) attached to @crtc. */
static void mmx_req_detach(struct mmx_kms *k, drmModeAtomicReqPtr req,
			   uint32_t index)
{
	struct mmx_kms_props p;
	uint64_t v;
	uint32_t i;

	for (i = 0; i < k->nplane; i++) {
		const struct mmx_kms_plane *pl = &k->planes[i];

		if (!(pl->possible & (1u << index)) ||
		    mmx_kms_props_get(k, pl->id, DRM_MODE_OBJECT_PLANE,
				      &p) ||
		    !mmx_kms_props_find(&p, "CRTC_ID", NULL, &v) ||
		    v != k->crtcs[index].id)
			continue;
		drmModeAtomicAddProperty(req, pl->id, pl->fb_id, 0);
		drmModeAtomicAddProperty(req, pl->id, pl->crtc_id, 0);
	}
}

/*
 * The atomic request of the desired state; @only >= 0 restricts it to the
 * CRTCs, connector and properties of output @only (to find the culprit of
 * a refused config), @props false leaves the properties out.
 */
/*
 * Output @o is lit by a change of the config: when its link-status reads
 * Bad (the driver said the sink can no longer show what was lit, see
 * Documentation/mmx.rst), a well-mannered master sets it back to Good with
 * the new configuration. Outputs the config does not name keep their state,
 * a Bad link included. The id and value come from the snapshot
 * mmx_want_init() took: no ioctl.
 */
static void mmx_req_link_good(drmModeAtomicReqPtr req,
			      const struct mmx_output_info *o)
{
	const struct mmx_property *p = mmx_output_property(o, "link-status");

	if (!p || !p->id || p->value != DRM_MODE_LINK_STATUS_BAD)
		return;
	drmModeAtomicAddProperty(req, o->id, p->id, DRM_MODE_LINK_STATUS_GOOD);
}

/* CRTC @i of @w into @req: off, or on with its mode, transform and plane. */
static void mmx_req_crtc(struct mmx_kms *k, struct mmx_want *w,
			 drmModeAtomicReqPtr req, uint32_t i,
			 const struct mmx_screen *scr)
{
	const struct mmx_kms_crtc *kc = &k->crtcs[i];
	struct mmx_want_crtc *wc = &w->crtc[i];

	if (!wc->on) {
		if (!wc->now.active && !wc->now.mode_blob)
			return;
		drmModeAtomicAddProperty(req, kc->id, kc->p_active, 0);
		drmModeAtomicAddProperty(req, kc->id, kc->p_mode_id, 0);
		mmx_req_detach(k, req, i);
		return;
	}
	drmModeAtomicAddProperty(req, kc->id, kc->p_active, 1);
	if (wc->mode_blob)
		drmModeAtomicAddProperty(req, kc->id, kc->p_mode_id,
					 wc->mode_blob);
	if (k->has_transforms) {
		if (memcmp(wc->fixed, wc->now.matrix, sizeof(wc->fixed)))
			drmModeAtomicAddProperty(req, kc->id,
						 kc->p_transform,
						 wc->transform_blob);
		drmModeAtomicAddProperty(req, kc->id, kc->p_filter,
					 strcmp(wc->transform.filter,
						"bilinear") ?
					 MMX_TRANSFORM_FILTER_NEAREST :
					 MMX_TRANSFORM_FILTER_BILINEAR);
	}
	if (kc->primary >= 0)
		mmx_req_plane(req, &k->planes[kc->primary], kc->id,
			      scr->fb_id, scr->width, scr->height,
			      wc->x, wc->y, &wc->t);
}

/* The outputs' CRTC_ID (where it changes) and link status into @req. */
static int mmx_req_outputs(struct mmx_kms *k, struct mmx_want *w,
			   drmModeAtomicReqPtr req, int only)
{
	struct mmx_kms_props cp;
	uint32_t j, p_crtc;
	int idx;

	for (j = 0; j < w->cur.noutput; j++) {
		if (only >= 0 && (int)j != only)
			continue;
		idx = w->out_crtc[j] ? mmx_crtc_index(k, w->out_crtc[j]) : -1;
		if (idx >= 0 && w->crtc[idx].touched)
			mmx_req_link_good(req, &w->cur.outputs[j]);
		if (w->out_crtc[j] == w->cur.outputs[j].crtc)
			continue;
		if (mmx_kms_props_get(k, w->cur.outputs[j].id,
				      DRM_MODE_OBJECT_CONNECTOR, &cp) ||
		    !mmx_kms_props_find(&cp, "CRTC_ID", &p_crtc, NULL))
			return -ENOENT;
		drmModeAtomicAddProperty(req, w->cur.outputs[j].id, p_crtc,
					 w->out_crtc[j]);
	}
	return 0;
}

static int mmx_want_req(struct mmx_kms *k, struct mmx_want *w, int only,
			bool props, drmModeAtomicReqPtr *out)
{
	const struct mmx_screen *scr = w->screen.fb_id ? &w->screen :
				       &k->screen;
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	uint32_t i;
	int ret;

	if (!req)
		return -ENOMEM;
	for (i = 0; i < k->ncrtc; i++) {
		const struct mmx_kms_crtc *kc = &k->crtcs[i];

		if (only >= 0 && w->out_crtc[only] != kc->id &&
		    w->cur.outputs[only].crtc != kc->id)
			continue;
		mmx_req_crtc(k, w, req, i, scr);
	}
	ret = mmx_req_outputs(k, w, req, only);
	if (ret) {
		drmModeAtomicFree(req);
		return ret;
	}
	for (i = 0; props && i < w->nprop; i++)
		if (only < 0 || (int)w->props[i].output == only)
			drmModeAtomicAddProperty(req,
						 w->cur.outputs[w->props[i].output].id,
						 w->props[i].prop,
						 w->props[i].value);
	*out = req;
	return 0;
}

static int mmx_want_commit(struct mmx_kms *k, struct mmx_want *w, int only,
			   bool props, uint32_t flags)
{
	drmModeAtomicReqPtr req;
	int ret;

	ret = mmx_want_req(k, w, only, props, &req);
	if (ret)
		return ret;
	ret = mmx_kms_errno(drmModeAtomicCommit(k->fd, req,
						flags | DRM_MODE_ATOMIC_ALLOW_MODESET,
						NULL));
	drmModeAtomicFree(req);
	return ret;
}

/* The driver refused the whole config: find the output to blame. */
static int mmx_want_blame(struct mmx_kms *k, struct mmx_want *w,
			  const struct mmx_config *cfg, int e,
			  struct mmx_error *err)
{
	const uint32_t test = DRM_MODE_ATOMIC_TEST_ONLY;
	uint32_t i;
	int j;

	if (e == -EACCES || e == -EPERM)
		return mmx_error_set(err, -EACCES,
				     "not allowed to change the display: DRM master needed (%s)",
				     mmx_errname(e));
	for (i = 0; i < cfg->nchange; i++) {
		const struct mmx_output_change *c = cfg->changes[i];
		const struct mmx_output_info *o;
		int idx;

		j = mmx_output_index(&w->cur, c->output);
		if (j < 0 || !mmx_want_commit(k, w, j, true, test))
			continue;
		o = &w->cur.outputs[j];
		idx = w->out_crtc[j] ? mmx_crtc_index(k, w->out_crtc[j]) : -1;
		if ((c->flags & MMX_CHANGE_PROPS) && c->nprop &&
		    !mmx_want_commit(k, w, j, false, test))
			return mmx_error_set(err, e,
					     "output %s: property values refused by the driver (%s)",
					     o->name, mmx_errname(e));
		if (idx >= 0 && (c->flags & MMX_CHANGE_MODE))
			return mmx_error_set(err, e,
					     "output %s: mode %ux%u refused by the driver (%s)",
					     o->name, w->crtc[idx].mode.hdisplay,
					     w->crtc[idx].mode.vdisplay,
					     mmx_errname(e));
		return mmx_error_set(err, e,
				     "output %s: configuration refused by the driver (%s)",
				     o->name, mmx_errname(e));
	}
	return mmx_error_set(err, e,
			     "configuration refused by the driver (%s)",
			     mmx_errname(e));
}

/* Start from the current state: every pending transform becomes current
 * unless the config only records pending ones. */
static int mmx_want_init(struct mmx_kms *k, struct mmx_want *w,
			 const struct mmx_config *cfg)
{
	uint32_t i, nprop = 0;
	int ret;

	ret = mmx_kms_state(k, 0, &w->cur);
	if (ret)
		return ret;
	for (i = 0; i < cfg->nchange; i++)
		nprop += cfg->changes[i]->nprop;
	w->out_crtc = calloc(w->cur.noutput + 1, sizeof(*w->out_crtc));
	w->props = calloc(nprop + 1, sizeof(*w->props));
	if (!w->out_crtc || !w->props)
		return -ENOMEM;
	for (i = 0; i < k->ncrtc; i++) {
		struct mmx_want_crtc *wc = &w->crtc[i];
		const struct mmx_kms_crtc *kc = &k->crtcs[i];

		ret = mmx_kms_crtc_read(k, i, &wc->now);
		if (ret)
			return ret;
		wc->on = wc->now.active && wc->now.has_mode;
		wc->mode = wc->now.mode;
		wc->x = wc->now.x;
		wc->y = wc->now.y;
		wc->rotation = kc->rotation;
		wc->pending = kc->pending;
		wc->transform = (cfg->flags & MMX_CONFIG_PENDING_ONLY) ?
				kc->current : kc->pending;
		wc->panning = wc->now.panning;
	}
	for (i = 0; i < w->cur.noutput; i++)
		w->out_crtc[i] = w->cur.outputs[i].crtc;
	return 0;
}

/* Build and check the whole desired state; -errno with a message. */
static int mmx_want_build(struct mmx_kms *k, struct mmx_want *w,
			  const struct mmx_config *cfg, struct mmx_error *err)
{
	uint32_t i;
	int j, ret;

	if (cfg->flags & ~MMX_ALL_CONFIG)
		return mmx_error_set(err, -EINVAL, "unknown config flags 0x%x",
				     cfg->flags & ~MMX_ALL_CONFIG);
	ret = mmx_want_init(k, w, cfg);
	if (ret)
		return mmx_error_set(err, ret, "reading the KMS state: %s",
				     mmx_errname(ret));
	for (i = 0; i < cfg->nchange; i++) {
		j = mmx_output_index(&w->cur, cfg->changes[i]->output);
		if (j < 0)
			return mmx_error_set(err, -ENOENT, "no output %u",
					     cfg->changes[i]->output);
		ret = mmx_want_change(k, w, cfg, cfg->changes[i], (uint32_t)j,
				      err);
		if (ret)
			return ret;
	}
	if (cfg->flags & MMX_CONFIG_PRIMARY) {
		j = cfg->primary ? mmx_output_index(&w->cur, cfg->primary) : 0;
		if (j < 0 || (cfg->primary &&
			      w->cur.outputs[j].connection != MMX_CONNECTED))
			return mmx_error_set(err, -EINVAL,
					     "primary output %u: not a connected output",
					     cfg->primary);
	}
	if ((cfg->flags & MMX_CONFIG_PAN_MODE) &&
	    cfg->pan_mode != MMX_PAN_INDEPENDENT &&
	    cfg->pan_mode != MMX_PAN_JOINT)
		return mmx_error_set(err, -EINVAL, "unknown pan mode %u",
				     cfg->pan_mode);
	if (cfg->flags & MMX_CONFIG_PENDING_ONLY)
		return 0;
	mmx_want_orphans(k, w);
	for (i = 0; i < k->ncrtc; i++) {
		if (!w->crtc[i].on)
			continue;
		ret = mmx_want_transform(k, w, i, err);
		if (ret)
			return ret;
	}
	return mmx_want_screen(k, w, cfg, err);
}

/* Remember what KMS cannot hold, after a successful commit. */
static void mmx_want_keep(struct mmx_kms *k, struct mmx_want *w,
			  const struct mmx_config *cfg)
{
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++) {
		struct mmx_kms_crtc *kc = &k->crtcs[i];
		struct mmx_want_crtc *wc = &w->crtc[i];

		kc->pending = wc->pending;
		if (cfg->flags & MMX_CONFIG_PENDING_ONLY)
			continue;
		kc->current = wc->transform;
		if (!wc->on) {
			memset(&kc->panning, 0, sizeof(kc->panning));
			continue;
		}
		kc->panning = wc->panning;
		kc->rotation = wc->rotation;
		if (k->has_transforms)
			memcpy(kc->committed, wc->fixed, sizeof(kc->committed));
		kc->x = wc->x;
		kc->y = wc->y;
	}
	if (cfg->flags & MMX_CONFIG_PRIMARY)
		k->primary = cfg->primary;
	if (cfg->flags & MMX_CONFIG_PAN_MODE)
		k->pan_mode = cfg->pan_mode;
	k->timestamp = mmx_kms_now_ns();
}

/* A screen framebuffer of @w's size in w->screen, when a new one is needed. */
static int mmx_want_screen_fb(struct mmx_kms *k, struct mmx_want *w,
			      const struct mmx_config *cfg,
			      struct mmx_error *err)
{
	bool need_fb = false;
	uint32_t i;
	int ret;

	for (i = 0; i < k->ncrtc; i++)
		need_fb |= w->crtc[i].on;
	if (!(cfg->flags & MMX_CONFIG_SCREEN_SIZE) && !need_fb)
		return 0;
	if (k->screen.fb_id && k->screen.width == w->screen_w &&
	    k->screen.height == w->screen_h)
		return 0;
	ret = mmx_screen_create(k->fd, w->screen_w, w->screen_h, &k->screen,
				&w->screen);
	if (ret)
		return mmx_error_set(err, ret, "screen framebuffer %ux%u: %s",
				     w->screen_w, w->screen_h,
				     mmx_errname(ret));
	return 0;
}

/* Commit @w (TEST_ONLY first; only that for @test) with its blobs. */
static int mmx_want_commit_all(struct mmx_kms *k, struct mmx_want *w,
			       const struct mmx_config *cfg, bool test,
			       struct mmx_error *err)
{
	struct mmx_screen old;
	int ret;

	ret = mmx_want_blobs(k, w);
	if (ret)
		return mmx_error_set(err, ret, "creating property blobs: %s",
				     mmx_errname(ret));
	ret = mmx_want_commit(k, w, -1, true, DRM_MODE_ATOMIC_TEST_ONLY);
	if (!ret && !test)
		ret = mmx_want_commit(k, w, -1, true, 0);
	if (ret) {
		ret = mmx_want_blame(k, w, cfg, ret, err);
		goto out_blobs;
	}
	if (test)
		goto out_blobs;
	mmx_want_keep(k, w, cfg);
	if (w->screen.fb_id) {
		old = k->screen;
		k->screen = w->screen;
		memset(&w->screen, 0, sizeof(w->screen));
		mmx_screen_destroy(k->fd, &old);
	}
out_blobs:
	mmx_want_free_blobs(k, w);
	return ret;
}

/**
 * mmx_kms_apply - apply a configuration to a local display
 * @ctx: the display, a struct mmx_kms
 * @cfg: the configuration
 * @err: why it failed (may be NULL)
 *
 * Builds the whole desired state, checks it (RandR's rules, then the
 * driver with a TEST_ONLY commit) and commits it at once with
 * ALLOW_MODESET. MMX_CONFIG_TEST_ONLY stops after the checks;
 * MMX_CONFIG_PENDING_ONLY records pending transforms without a commit.
 * The screen framebuffer is created, or replaced by one of the new size
 * holding the old content, in the same commit.
 *
 * Return: 0, or -errno with @err saying which output and why; nothing
 * changed then.
 */
int mmx_kms_apply(void *ctx, const struct mmx_config *cfg,
		  struct mmx_error *err)
{
	struct mmx_kms *k = ctx;
	const bool test = cfg && (cfg->flags & MMX_CONFIG_TEST_ONLY);
	struct mmx_want *w;
	int ret;

	if (!cfg)
		return mmx_error_set(err, -EINVAL, "no config");
	w = calloc(1, sizeof(*w));
	if (!w)
		return mmx_error_set(err, -ENOMEM, "out of memory");
	ret = mmx_want_build(k, w, cfg, err);
	if (ret)
		goto out;
	if (cfg->flags & MMX_CONFIG_PENDING_ONLY) {
		if (!test)
			mmx_want_keep(k, w, cfg);
		goto out;
	}
	ret = mmx_want_screen_fb(k, w, cfg, err);
	if (ret)
		goto out;
	ret = mmx_want_commit_all(k, w, cfg, test, err);
	mmx_screen_destroy(k->fd, &w->screen);
out:
	mmx_kms_forget(k);
	mmx_state_clear(&w->cur);
	free(w->out_crtc);
	free(w->props);
	free(w);
	return ret;
}

/* Size of the framebuffer CRTC @kc shows (@fb), remembered per CRTC. */
static bool mmx_pan_fb_size(struct mmx_kms *k, struct mmx_kms_crtc *kc,
			    uint32_t fb, uint32_t *w, uint32_t *h)
{
	drmModeFBPtr info;

	if (fb == k->screen.fb_id) {
		*w = k->screen.width;
		*h = k->screen.height;
		return true;
	}
	if (kc->fb_sized != fb) {
		info = drmModeGetFB(k->fd, fb);
		if (!info)
			return false;
		kc->fb_sized = fb;
		kc->fb_w = info->width;
		kc->fb_h = info->height;
		drmModeFreeFB(info);
	}
	*w = kc->fb_w;
	*h = kc->fb_h;
	return true;
}

/* Each CRTC as it is now (@now) and as the panning rules see it. */
static int mmx_pan_heads(struct mmx_kms *k, struct mmx_kms_crtc_now *now,
			 struct mmx_pan_head *heads)
{
	uint32_t i, n;
	int ret;

	for (i = 0; i < k->ncrtc; i++) {
		s64 e[9];

		ret = mmx_kms_crtc_known(k, i, &now[i]);
		if (ret)
			return ret;
		heads[i].x = now[i].x;
		heads[i].y = now[i].y;
		if (!now[i].active || !now[i].has_mode || !now[i].fb)
			continue;
		for (n = 0; n < 9; n++)
			e[n] = now[i].matrix[n];
		if (mmx_transform_prepare(&heads[i].t, e,
					  now[i].mode.hdisplay,
					  now[i].mode.vdisplay,
					  MMX_TRANSFORM_SPACE_MAX))
			continue;
		mmx_panning_to_pure(&heads[i].panning, &now[i].panning);
	}
	return 0;
}

/*
 * The primary planes of the CRTCs that move to (@nx, @ny) added to @req,
 * marked in @planes: whether any moves.
 */
static bool mmx_pan_req(struct mmx_kms *k, drmModeAtomicReqPtr req,
			const struct mmx_kms_crtc_now *now,
			const struct mmx_pan_head *heads, const int32_t *nx,
			const int32_t *ny, bool *planes)
{
	bool moved = false;
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++) {
		struct mmx_kms_crtc *kc = &k->crtcs[i];
		uint32_t fw, fh;

		if ((nx[i] == heads[i].x && ny[i] == heads[i].y) ||
		    kc->primary < 0 ||
		    !mmx_pan_fb_size(k, kc, now[i].fb, &fw, &fh))
			continue;
		mmx_req_plane(req, &k->planes[kc->primary], kc->id, now[i].fb,
			      fw, fh, nx[i], ny[i], &heads[i].t);
		/*
		 * What libmmx believes, unchanged: no-ops while true, a
		 * modeset (refused without ALLOW_MODESET) or a dead blob
		 * when someone else turned the CRTC off or changed its mode.
		 */
		drmModeAtomicAddProperty(req, kc->id, kc->p_active, 1);
		drmModeAtomicAddProperty(req, kc->id, kc->p_mode_id,
					 now[i].mode_blob);
		planes[i] = true;
		moved = true;
	}
	return moved;
}

/* Commit the CRTCs' new positions (@nx, @ny) and remember them. */
static int mmx_pan_move(struct mmx_kms *k, const struct mmx_kms_crtc_now *now,
			const struct mmx_pan_head *heads, const int32_t *nx,
			const int32_t *ny)
{
	bool planes[MMX_KMS_MAX_CRTCS] = { false };
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	bool moved;
	uint32_t i;
	int ret = 0;

	if (!req)
		return -ENOMEM;
	moved = mmx_pan_req(k, req, now, heads, nx, ny, planes);
	if (moved)
		ret = mmx_kms_errno(drmModeAtomicCommit(k->fd, req, 0, NULL));
	drmModeAtomicFree(req);
	if (ret || !moved)
		return ret;
	for (i = 0; i < k->ncrtc; i++) {
		k->crtcs[i].x = nx[i];
		k->crtcs[i].y = ny[i];
		/* what mmx_kms_crtc_read() would say now */
		if (!planes[i] && now[i].fb)
			continue;
		k->crtcs[i].now.x = nx[i];
		k->crtcs[i].now.y = ny[i];
	}
	return 0;
}

/*
 * One try of mmx_kms_pointer_moved(): the CRTCs as libmmx knows them
 * (mmx_kms_crtc_known()), one commit of the primary planes that move.
 */
static int mmx_pan_commit(struct mmx_kms *k, int32_t x, int32_t y)
{
	struct mmx_kms_crtc_now now[MMX_KMS_MAX_CRTCS];
	struct mmx_pan_head *heads;
	int32_t nx[MMX_KMS_MAX_CRTCS], ny[MMX_KMS_MAX_CRTCS];
	int ret;

	heads = calloc(k->ncrtc ? k->ncrtc : 1, sizeof(*heads));
	if (!heads)
		return -ENOMEM;
	ret = mmx_pan_heads(k, now, heads);
	if (!ret) {
		mmx_pan_follow_heads(k->pan_mode, heads, k->ncrtc, x, y,
				     nx, ny);
		ret = mmx_pan_move(k, now, heads, nx, ny);
	}
	free(heads);
	return ret;
}

/**
 * mmx_kms_pointer_moved - the pointer moved: panned CRTCs follow it
 * @ctx: the display, a struct mmx_kms
 * @x: pointer position on the screen
 * @y: see @x
 *
 * Every lit CRTC with panning gets its new position from
 * mmx_pan_follow_heads() (the display's pan mode), all in one atomic
 * commit that moves the primary planes only (no modeset).
 *
 * The CRTCs' modes, transforms, panning and framebuffers come from what
 * libmmx knows (mmx_kms_crtc_known()), so a motion costs that one commit.
 * The commit also sets each moved CRTC's ACTIVE and MODE_ID to what libmmx
 * believes: no change while that is true, refused when another master or
 * the kernel turned the CRTC off or changed its mode. When the commit
 * fails, libmmx forgets, reads the kernel and tries once more: the error
 * stands only if the kernel's own state refuses it too.
 *
 * Return: 0; -EOPNOTSUPP without CRTC transforms and panning; -errno from
 * KMS (the position is recorded anyway).
 */
int mmx_kms_pointer_moved(void *ctx, int32_t x, int32_t y)
{
	struct mmx_kms *k = ctx;
	bool fresh = true;
	uint32_t i;
	int ret;

	k->pointer_x = x;
	k->pointer_y = y;
	if (!k->has_transforms)
		return -EOPNOTSUPP;
	for (i = 0; i < k->ncrtc; i++)
		fresh &= !k->crtcs[i].known;
	ret = mmx_pan_commit(k, x, y);
	if (!ret)
		return 0;
	mmx_kms_forget(k);
	if (fresh)
		return ret;
	ret = mmx_pan_commit(k, x, y);
	if (ret)
		mmx_kms_forget(k);
	return ret;
}
