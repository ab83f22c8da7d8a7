// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The records encoding of struct mmx_state (GET_STATE's reply, the only
 * way a state travels): a screen record with counts, then only the used CRTCs, outputs,
 * modes and properties, every field an explicit little-endian integer,
 * strings as a length byte and their bytes, matrices S31.32. The layout is
 * in Documentation/mmxd-protocol.rst ("The state records"). Also that of
 * struct mmx_config (APPLY's payload; "The config records"), whose
 * transform matrices travel as the bits of their doubles.
 */

#include <endian.h>
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_matrix.h"
#include "mmx_wire.h"

/* The longest string a record carries: its length is one byte. */
#define STR_MAX			255

/* struct mmx_wire_crtc parts: what follows the CRTC's fixed fields */
#define PART_MODE		(1u << 0)	/* the mode record */
#define PART_PENDING_MATRIX	(1u << 1)	/* pending's 9 S31.32 entries */
#define PART_CURRENT_MATRIX	(1u << 2)	/* current's 9 S31.32 entries */
#define PART_ALL		(PART_MODE | PART_PENDING_MATRIX | \
				 PART_CURRENT_MATRIX)

/* ---- writing ------------------------------------------------------------ */

/*
 * Bytes go to @buf while it is not NULL; @len counts them either way, so
 * a first pass without a buffer measures the encoding.
 */
struct writer {
	uint8_t *buf;
	size_t len;
	int err;
};

static void put(struct writer *w, const void *p, size_t n)
{
	if (w->buf && n)
		memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void put_u16(struct writer *w, uint16_t v)
{
	v = htole16(v);
	put(w, &v, sizeof(v));
}

static void put_u32(struct writer *w, uint32_t v)
{
	v = htole32(v);
	put(w, &v, sizeof(v));
}

static void put_s32(struct writer *w, int32_t v)
{
	put_u32(w, (uint32_t)v);
}

static void put_u64(struct writer *w, uint64_t v)
{
	v = htole64(v);
	put(w, &v, sizeof(v));
}

/* A string (NULL: ""): its length, its bytes; longer than STR_MAX: -E2BIG. */
static void put_str(struct writer *w, const char *s)
{
	size_t len = s ? strlen(s) : 0;
	uint8_t n = (uint8_t)len;

	if (len > STR_MAX) {
		w->err = -E2BIG;
		return;
	}
	put(w, &n, 1);
	put(w, s, n);
}

/* A fixed-size string field: its length (at most size - 1), its bytes. */
static void put_field(struct writer *w, const char *s, size_t size)
{
	uint8_t n = (uint8_t)strnlen(s, size - 1);

	put(w, &n, 1);
	put(w, s, n);
}

static void put_ids(struct writer *w, const uint32_t *ids, uint32_t n)
{
	uint32_t i;

	put_u32(w, n);
	for (i = 0; i < n; i++)
		put_u32(w, ids[i]);
}

static void put_mode(struct writer *w, const struct mmx_mode *m)
{
	put_u32(w, m->id);
	put_field(w, m->name, sizeof(m->name));
	put_u32(w, m->width);
	put_u32(w, m->height);
	put_u32(w, m->clock);
	put_u16(w, m->hsync_start);
	put_u16(w, m->hsync_end);
	put_u16(w, m->htotal);
	put_u16(w, m->hskew);
	put_u16(w, m->vsync_start);
	put_u16(w, m->vsync_end);
	put_u16(w, m->vtotal);
	put_u16(w, m->vscan);
	put_u32(w, m->flags);
	put_u32(w, m->type);
	put_u32(w, m->refresh_mhz);
}

static bool matrix_is_identity(const double m[9])
{
	double id[9];

	mmx_matrix_identity(id);
	return !memcmp(m, id, sizeof(id));
}

static int put_transform(struct writer *w, const struct mmx_transform_info *t,
			 bool with_matrix)
{
	int64_t fixed[9];
	int i;

	put_u32(w, t->identity);
	put_str(w, t->filter);
	if (!with_matrix)
		return 0;
	if (mmx_matrix_to_fixed(fixed, t->matrix))
		return -ERANGE;
	for (i = 0; i < 9; i++)
		put_u64(w, (uint64_t)fixed[i]);
	return 0;
}

static void put_panning(struct writer *w, const struct mmx_panning_info *p)
{
	put_u32(w, p->left);
	put_u32(w, p->top);
	put_u32(w, p->width);
	put_u32(w, p->height);
	put_u32(w, p->track_left);
	put_u32(w, p->track_top);
	put_u32(w, p->track_width);
	put_u32(w, p->track_height);
	put_s32(w, p->border_left);
	put_s32(w, p->border_top);
	put_s32(w, p->border_right);
	put_s32(w, p->border_bottom);
}

static bool mode_is_zero(const struct mmx_mode *m)
{
	static const struct mmx_mode zero;

	return !memcmp(m, &zero, sizeof(zero));
}

static int put_crtc(struct writer *w, const struct mmx_crtc_info *c)
{
	uint32_t parts = 0;
	int ret;

	if (!mode_is_zero(&c->mode))
		parts |= PART_MODE;
	if (!matrix_is_identity(c->pending.matrix))
		parts |= PART_PENDING_MATRIX;
	if (!matrix_is_identity(c->current.matrix))
		parts |= PART_CURRENT_MATRIX;

	put_u32(w, c->id);
	put_u32(w, c->index);
	put_s32(w, c->x);
	put_s32(w, c->y);
	put_u32(w, c->width);
	put_u32(w, c->height);
	put_s32(w, c->bbox_x);
	put_s32(w, c->bbox_y);
	put_u32(w, c->mode_valid);
	put_u32(w, c->rotation);
	put_u32(w, c->rotations);
	put_u32(w, parts);
	put_ids(w, c->outputs, c->noutput);
	put_ids(w, c->possible, c->npossible);
	if (parts & PART_MODE)
		put_mode(w, &c->mode);
	ret = put_transform(w, &c->pending, parts & PART_PENDING_MATRIX);
	if (ret)
		return ret;
	ret = put_transform(w, &c->current, parts & PART_CURRENT_MATRIX);
	if (ret)
		return ret;
	put_panning(w, &c->panning);
	return 0;
}

static void put_property(struct writer *w, const struct mmx_property *p)
{
	uint32_t i;

	put_str(w, p->name);
	put_u32(w, p->type);
	put_u32(w, p->flags);
	put_u32(w, p->id);
	put_u64(w, p->min);
	put_u64(w, p->max);
	put_u64(w, p->value);
	put_u32(w, p->nenum);
	for (i = 0; i < p->nenum; i++) {
		put_str(w, p->enums[i].name);
		put_u64(w, p->enums[i].value);
	}
	put_u32(w, p->blob_len);
	put(w, p->blob, p->blob_len);
}

static void put_output(struct writer *w, const struct mmx_output_info *o)
{
	uint32_t i;

	put_u32(w, o->id);
	put_str(w, o->name);
	put_u32(w, o->connection);
	put_u32(w, o->crtc);
	put_u32(w, o->mm_width);
	put_u32(w, o->mm_height);
	put_u32(w, o->subpixel);
	put_u32(w, o->primary);
	put_ids(w, o->crtcs, o->ncrtc);
	put_ids(w, o->clones, o->nclone);
	put_u32(w, o->nmode);
	put_u32(w, o->npreferred);
	for (i = 0; i < o->nmode; i++)
		put_mode(w, &o->modes[i]);
	put_u32(w, o->nprop);
	for (i = 0; i < o->nprop; i++)
		put_property(w, &o->props[i]);
}

/* @obj: the struct mmx_state to encode */
static int put_state(struct writer *w, const void *obj)
{
	const struct mmx_state *s = obj;
	uint32_t i;
	int ret;

	put_u32(w, s->flags);
	put_u32(w, s->pan_mode);
	put_u64(w, s->timestamp);
	put_u64(w, s->config_timestamp);
	put_u32(w, s->screen_width);
	put_u32(w, s->screen_height);
	put_u32(w, s->min_width);
	put_u32(w, s->min_height);
	put_u32(w, s->max_width);
	put_u32(w, s->max_height);
	put_u32(w, s->primary);
	put_s32(w, s->pointer_x);
	put_s32(w, s->pointer_y);
	put_u32(w, s->ncrtc);
	put_u32(w, s->noutput);
	put_str(w, s->driver);
	for (i = 0; i < s->ncrtc; i++) {
		ret = put_crtc(w, &s->crtcs[i]);
		if (ret)
			return ret;
	}
	for (i = 0; i < s->noutput; i++)
		put_output(w, &s->outputs[i]);
	return w->err;
}

/*
 * Encode @obj with @put: a first pass measures, a second one writes into a
 * buffer of that size.
 */
static int encode(int (*put)(struct writer *w, const void *obj),
		  const void *obj, uint8_t **out, size_t *len)
{
	struct writer w = { 0 };
	int ret;

	*out = NULL;
	*len = 0;
	ret = put(&w, obj);
	if (ret)
		return ret;
	w.buf = malloc(w.len ? w.len : 1);
	if (!w.buf)
		return -ENOMEM;
	w.len = 0;
	put(&w, obj);
	*out = w.buf;
	*len = w.len;
	return 0;
}

int mmx_wire_encode_state(const struct mmx_state *s, uint8_t **out,
			  size_t *len)
{
	return encode(put_state, s, out, len);
}

/* ---- reading ------------------------------------------------------------ */

/*
 * The bytes not read yet; the first error sticks (later reads give 0).
 * What the records hold is allocated from @arena.
 */
struct reader {
	const uint8_t *p;
	size_t left;
	int err;
	struct mmx_arena *arena;
};

static void fail(struct reader *r, int err)
{
	if (!r->err)
		r->err = err;
}

static bool take(struct reader *r, void *dst, size_t n)
{
	if (r->err || r->left < n) {
		fail(r, -EBADMSG);
		memset(dst, 0, n);
		return false;
	}
	memcpy(dst, r->p, n);
	r->p += n;
	r->left -= n;
	return true;
}

static uint16_t get_u16(struct reader *r)
{
	uint16_t v;

	take(r, &v, sizeof(v));
	return le16toh(v);
}

static uint32_t get_u32(struct reader *r)
{
	uint32_t v;

	take(r, &v, sizeof(v));
	return le32toh(v);
}

static int32_t get_s32(struct reader *r)
{
	return (int32_t)get_u32(r);
}

static uint64_t get_u64(struct reader *r)
{
	uint64_t v;

	take(r, &v, sizeof(v));
	return le64toh(v);
}

/* A count of entries each at least @min_bytes long: they must be there. */
static uint32_t get_count(struct reader *r, size_t min_bytes)
{
	uint32_t n = get_u32(r);

	if (!r->err && (size_t)n * min_bytes > r->left) {
		fail(r, -EBADMSG);
		return 0;
	}
	return r->err ? 0 : n;
}

/*
 * An array of @n elements of @size bytes from the arena (NULL when @n is
 * 0 or on error: then the count read must be taken as 0 too).
 */
static void *get_array(struct reader *r, uint32_t *n, size_t size)
{
	void *p;

	if (r->err)
		*n = 0;
	if (!*n)
		return NULL;
	p = mmx_arena_calloc(r->arena, *n, size);
	if (!p) {
		fail(r, -ENOMEM);
		*n = 0;
	}
	return p;
}

/*
 * A string's length and bytes, checked: at most @max bytes (-E2BIG), no
 * NUL in them; NULL on error.
 */
static const uint8_t *get_str_bytes(struct reader *r, uint8_t *n, size_t max)
{
	const uint8_t *p;

	if (!take(r, n, 1))
		return NULL;
	if (*n > max) {
		fail(r, -E2BIG);
		return NULL;
	}
	p = r->p;
	if (r->left < *n) {
		fail(r, -EBADMSG);
		return NULL;
	}
	if (memchr(p, '\0', *n)) {
		fail(r, -EBADMSG);
		return NULL;
	}
	r->p += *n;
	r->left -= *n;
	return p;
}

/* A string, allocated from the arena ("" on error). */
static const char *get_str(struct reader *r)
{
	const uint8_t *p;
	char *str;
	uint8_t n;

	p = get_str_bytes(r, &n, STR_MAX);
	if (!p)
		return "";
	str = mmx_arena_strndup(r->arena, (const char *)p, n);
	if (!str) {
		fail(r, -ENOMEM);
		return "";
	}
	return str;
}

/* A string into a zeroed field of @size bytes: < @size, else -E2BIG. */
static void get_field(struct reader *r, char *dst, size_t size)
{
	const uint8_t *p;
	uint8_t n;

	p = get_str_bytes(r, &n, size - 1);
	if (p)
		memcpy(dst, p, n);
}

/* A filter name: mmx_filter_canonical()'s static one, else a copy. */
static const char *get_filter(struct reader *r)
{
	const char *name = get_str(r), *canon;

	if (!*name)
		return "";
	canon = mmx_filter_canonical(name);
	return canon && !strcmp(canon, name) ? canon : name;
}

static uint32_t *get_ids(struct reader *r, uint32_t *n)
{
	uint32_t i, *ids;

	*n = get_count(r, 4);
	ids = get_array(r, n, sizeof(*ids));
	for (i = 0; i < *n; i++)
		ids[i] = get_u32(r);
	return ids;
}

/* A parts word: bits outside @known are refused. */
static uint32_t get_parts(struct reader *r, uint32_t known)
{
	uint32_t parts = get_u32(r);

	if (parts & ~known)
		fail(r, -EBADMSG);
	return parts;
}

/*
 * The fewest bytes of a mode record (an empty name), of a property, of a
 * CRTC (no mode, no matrix) and of an output.
 */
#define MODE_MIN_BYTES		(4 + 1 + 12 + 16 + 12)
#define PROP_MIN_BYTES		(1 + 12 + 24 + 4 + 4)
#define CRTC_MIN_BYTES		(12 * 4 + 2 * 4 + 2 * (4 + 1) + 48)
#define OUTPUT_MIN_BYTES	(4 + 1 + 6 * 4 + 2 * 4 + 2 * 4 + 4)

static void get_mode(struct reader *r, struct mmx_mode *m)
{
	m->id = get_u32(r);
	get_field(r, m->name, sizeof(m->name));
	m->width = get_u32(r);
	m->height = get_u32(r);
	m->clock = get_u32(r);
	m->hsync_start = get_u16(r);
	m->hsync_end = get_u16(r);
	m->htotal = get_u16(r);
	m->hskew = get_u16(r);
	m->vsync_start = get_u16(r);
	m->vsync_end = get_u16(r);
	m->vtotal = get_u16(r);
	m->vscan = get_u16(r);
	m->flags = get_u32(r);
	m->type = get_u32(r);
	m->refresh_mhz = get_u32(r);
}

static void get_transform(struct reader *r, struct mmx_transform_info *t,
			  bool with_matrix)
{
	int64_t fixed[9];
	int i;

	t->identity = get_u32(r);
	t->filter = get_filter(r);
	if (!with_matrix) {
		mmx_matrix_identity(t->matrix);
		return;
	}
	for (i = 0; i < 9; i++)
		fixed[i] = (int64_t)get_u64(r);
	mmx_matrix_from_fixed(t->matrix, fixed);
}

static void get_panning(struct reader *r, struct mmx_panning_info *p)
{
	p->left = get_u32(r);
	p->top = get_u32(r);
	p->width = get_u32(r);
	p->height = get_u32(r);
	p->track_left = get_u32(r);
	p->track_top = get_u32(r);
	p->track_width = get_u32(r);
	p->track_height = get_u32(r);
	p->border_left = get_s32(r);
	p->border_top = get_s32(r);
	p->border_right = get_s32(r);
	p->border_bottom = get_s32(r);
}

static void get_crtc(struct reader *r, struct mmx_crtc_info *c)
{
	uint32_t parts;

	c->id = get_u32(r);
	c->index = get_u32(r);
	c->x = get_s32(r);
	c->y = get_s32(r);
	c->width = get_u32(r);
	c->height = get_u32(r);
	c->bbox_x = get_s32(r);
	c->bbox_y = get_s32(r);
	c->mode_valid = get_u32(r);
	c->rotation = get_u32(r);
	c->rotations = get_u32(r);
	parts = get_parts(r, PART_ALL);
	c->outputs = get_ids(r, &c->noutput);
	c->possible = get_ids(r, &c->npossible);
	if (parts & PART_MODE)
		get_mode(r, &c->mode);
	get_transform(r, &c->pending, parts & PART_PENDING_MATRIX);
	get_transform(r, &c->current, parts & PART_CURRENT_MATRIX);
	get_panning(r, &c->panning);
}

static void get_property(struct reader *r, struct mmx_property *p)
{
	uint32_t i;

	p->name = get_str(r);
	p->type = get_u32(r);
	p->flags = get_u32(r);
	p->id = get_u32(r);
	p->min = get_u64(r);
	p->max = get_u64(r);
	p->value = get_u64(r);
	p->nenum = get_count(r, 1 + 8);
	p->enums = get_array(r, &p->nenum, sizeof(*p->enums));
	for (i = 0; i < p->nenum; i++) {
		p->enums[i].name = get_str(r);
		p->enums[i].value = get_u64(r);
	}
	p->blob_len = get_count(r, 1);
	p->blob = get_array(r, &p->blob_len, 1);
	if (p->blob_len)
		take(r, p->blob, p->blob_len);
}

static void get_output(struct reader *r, struct mmx_output_info *o)
{
	uint32_t i;

	o->id = get_u32(r);
	o->name = get_str(r);
	o->connection = get_u32(r);
	o->crtc = get_u32(r);
	o->mm_width = get_u32(r);
	o->mm_height = get_u32(r);
	o->subpixel = get_u32(r);
	o->primary = get_u32(r);
	o->crtcs = get_ids(r, &o->ncrtc);
	o->clones = get_ids(r, &o->nclone);
	o->nmode = get_count(r, MODE_MIN_BYTES);
	o->npreferred = get_u32(r);
	if (o->npreferred > o->nmode)
		fail(r, -EBADMSG);
	o->modes = get_array(r, &o->nmode, sizeof(*o->modes));
	for (i = 0; i < o->nmode && !r->err; i++)
		get_mode(r, &o->modes[i]);
	o->nprop = get_count(r, PROP_MIN_BYTES);
	o->props = get_array(r, &o->nprop, sizeof(*o->props));
	for (i = 0; i < o->nprop && !r->err; i++)
		get_property(r, &o->props[i]);
}

/* The end of a decode: no bytes after the last record. */
static int decode_end(struct reader *r)
{
	if (!r->err && r->left)
		r->err = -EBADMSG;
	return r->err;
}

int mmx_wire_decode_state(const void *buf, size_t len, struct mmx_state *s)
{
	struct reader r = { .p = buf, .left = len };
	uint32_t i;

	mmx_state_clear(s);
	r.arena = &s->arena;
	s->flags = get_u32(&r);
	s->pan_mode = get_u32(&r);
	s->timestamp = get_u64(&r);
	s->config_timestamp = get_u64(&r);
	s->screen_width = get_u32(&r);
	s->screen_height = get_u32(&r);
	s->min_width = get_u32(&r);
	s->min_height = get_u32(&r);
	s->max_width = get_u32(&r);
	s->max_height = get_u32(&r);
	s->primary = get_u32(&r);
	s->pointer_x = get_s32(&r);
	s->pointer_y = get_s32(&r);
	s->ncrtc = get_count(&r, CRTC_MIN_BYTES);
	s->noutput = get_count(&r, OUTPUT_MIN_BYTES);
	s->driver = get_str(&r);
	s->crtcs = get_array(&r, &s->ncrtc, sizeof(*s->crtcs));
	s->outputs = get_array(&r, &s->noutput, sizeof(*s->outputs));
	for (i = 0; i < s->ncrtc && !r.err; i++)
		get_crtc(&r, &s->crtcs[i]);
	for (i = 0; i < s->noutput && !r.err; i++)
		get_output(&r, &s->outputs[i]);
	if (decode_end(&r))
		mmx_state_clear(s);
	return r.err;
}

/* ---- the config records (APPLY) ------------------------------------------ */

/* struct mmx_output_change parts: what follows the change's fixed fields */
#define CPART_MODE		(1u << 0)	/* the mode record */
#define CPART_MATRIX		(1u << 1)	/* the transform's 9 entries */
#define CPART_PANNING		(1u << 2)	/* the panning record */
#define CPART_ALL		(CPART_MODE | CPART_MATRIX | CPART_PANNING)

static bool bytes_are_zero(const void *p, size_t n)
{
	const uint8_t *b = p;

	while (n--)
		if (*b++)
			return false;
	return true;
}

/*
 * The transform's entries travel as the bit patterns of their IEEE-754
 * doubles, not in S31.32: libmmx multiplies the transform by the rotation
 * in doubles and rounds the product once, and keeps the pending matrix as
 * given, so a rounded transform would change what a rotated CRTC shows
 * and what a snapshot reports.
 */
static void put_double(struct writer *w, double d)
{
	uint64_t v;

	memcpy(&v, &d, sizeof(v));
	put_u64(w, v);
}

static int put_change(struct writer *w, const struct mmx_output_change *c)
{
	/* an all-zero mode, matrix or panning is left out */
	const uint32_t parts = (mode_is_zero(&c->mode) ? 0 : CPART_MODE) |
		(bytes_are_zero(c->transform.matrix,
				sizeof(c->transform.matrix)) ? 0 : CPART_MATRIX) |
		(bytes_are_zero(&c->panning, sizeof(c->panning)) ?
		 0 : CPART_PANNING);
	const uint32_t head[] = {
		c->output, c->flags, (uint32_t)c->x, (uint32_t)c->y,
		c->rotation, c->crtc, parts,
	};
	uint32_t i;

	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		put_u32(w, head[i]);
	if (parts & CPART_MODE)
		put_mode(w, &c->mode);
	put_u32(w, c->transform.identity);
	put_str(w, c->transform.filter);
	if (parts & CPART_MATRIX)
		for (i = 0; i < 9; i++)
			put_double(w, c->transform.matrix[i]);
	if (parts & CPART_PANNING)
		put_panning(w, &c->panning);
	put_u32(w, c->nprop);
	for (i = 0; i < c->nprop; i++) {
		put_str(w, c->props[i].name);
		put_str(w, c->props[i].value);
	}
	return w->err;
}

/* @obj: the struct mmx_config to encode */
static int put_config(struct writer *w, const void *obj)
{
	const struct mmx_config *cfg = obj;
	const uint32_t head[] = {
		cfg->flags, cfg->screen_width, cfg->screen_height,
		cfg->primary, cfg->pan_mode, cfg->nchange,
	};
	uint32_t i;
	int ret;

	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		put_u32(w, head[i]);
	for (i = 0; i < cfg->nchange; i++) {
		ret = put_change(w, cfg->changes[i]);
		if (ret)
			return ret;
	}
	return 0;
}

int mmx_wire_encode_config(const struct mmx_config *cfg, uint8_t **out,
			   size_t *len)
{
	return encode(put_config, cfg, out, len);
}

/* The fewest bytes of a change record: fixed fields, identity, filter, nprop. */
#define CHANGE_MIN_BYTES	(7 * 4 + 4 + 1 + 4)

static double get_double(struct reader *r)
{
	uint64_t v = get_u64(r);
	double d;

	memcpy(&d, &v, sizeof(d));
	return d;
}

static void get_change(struct reader *r, struct mmx_output_change *c)
{
	/* x and y: s32 read as u32, the type's unsigned twin */
	uint32_t *const head[] = {
		&c->output, &c->flags, (uint32_t *)&c->x, (uint32_t *)&c->y,
		&c->rotation, &c->crtc,
	};
	struct mmx_set_prop *props;
	uint32_t parts, i;

	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		*head[i] = get_u32(r);
	parts = get_parts(r, CPART_ALL);
	if (parts & CPART_MODE)
		get_mode(r, &c->mode);
	c->transform.identity = get_u32(r);
	c->transform.filter = get_filter(r);
	if (parts & CPART_MATRIX)
		for (i = 0; i < 9; i++)
			c->transform.matrix[i] = get_double(r);
	if (parts & CPART_PANNING)
		get_panning(r, &c->panning);
	c->nprop = get_count(r, 2);
	props = get_array(r, &c->nprop, sizeof(*props));
	for (i = 0; i < c->nprop && !r->err; i++) {
		props[i].name = get_str(r);
		props[i].value = get_str(r);
	}
	c->props = props;
}

int mmx_wire_decode_config(const void *buf, size_t len,
			   struct mmx_config *cfg)
{
	struct reader r = { .p = buf, .left = len };
	uint32_t i;

	uint32_t *const head[] = {
		&cfg->flags, &cfg->screen_width, &cfg->screen_height,
		&cfg->primary, &cfg->pan_mode,
	};

	mmx_config_clear(cfg);
	r.arena = &cfg->arena;
	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++)
		*head[i] = get_u32(&r);
	cfg->nchange = get_count(&r, CHANGE_MIN_BYTES);
	cfg->changes = get_array(&r, &cfg->nchange, sizeof(*cfg->changes));
	cfg->room = cfg->nchange;
	for (i = 0; i < cfg->nchange && !r.err; i++) {
		cfg->changes[i] = mmx_arena_calloc(r.arena, 1,
						   sizeof(*cfg->changes[i]));
		if (!cfg->changes[i])
			fail(&r, -ENOMEM);
		else
			get_change(&r, cfg->changes[i]);
	}
	if (decode_end(&r))
		mmx_config_clear(cfg);
	return r.err;
}
