// SPDX-License-Identifier: GPL-2.0-only
/*
 * The records encoding of struct mmx_state (libmmx's mmx_wire_state.c):
 * states of 0, 1, 2 and the most outputs, odd modes, negative positions
 * and transforms round-trip field by field; every truncation, byte flip,
 * count above its array and byte too many is refused with its errno or
 * decodes to a state that is safe to use; the size of a GET_STATE
 * reply for two outputs; and the public accessors that read a state for
 * libmmx's clients. The same for the records of struct mmx_config
 * (APPLY's payload): empty, ordinary and
 * fullest configs round-trip field by field, the transform's doubles bit
 * for bit, and every truncation, byte flip and count is checked.
 */

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>

#include "unit.h"
#include "mmx_state_build.h"
#include "mmx_wire.h"

/* ---- states ------------------------------------------------------------- */

/* A value of the S31.32 grid near @x (a matrix entry that travels exactly). */
static double on_grid(double x)
{
	return ldexp((double)llround(ldexp(x, 32)), -32);
}

static void mode_fill(struct mmx_mode *m, uint32_t id, uint32_t w, uint32_t h,
		      uint32_t refresh_mhz)
{
	t_mode_timing(m, id, w, h, 48, 32, w + 160, 3, 5, h + 30);
	m->clock = (uint32_t)((uint64_t)m->htotal * m->vtotal *
			      refresh_mhz / 1000000);
	m->type = 0x48;
	m->refresh_mhz = refresh_mhz;
}

/* Odd values: the widest fields full, a name of 31 bytes, interlace. */
static void mode_odd(struct mmx_mode *m, uint32_t id)
{
	memset(m, 0, sizeof(*m));
	m->id = id;
	memset(m->name, 'z', sizeof(m->name) - 1);
	m->width = UINT32_MAX;
	m->height = 1;
	m->clock = 0x80000001u;
	m->hsync_start = 0xffff;
	m->hsync_end = 0x8000;
	m->htotal = 1;
	m->hskew = 0x7fff;
	m->vsync_start = 0;
	m->vsync_end = 0xfffe;
	m->vtotal = 0xffff;
	m->vscan = 2;
	m->flags = 0x10 | 0x20 | 0xdeadbeefu;
	m->type = UINT32_MAX;
	m->refresh_mhz = 59940;
}

/* An enum of @nenum values "value N", N << 33 | N, the last one set. */
static void prop_enum(struct mmx_property *p, const char *name, uint32_t id,
		      uint32_t nenum)
{
	static const char *const names[] = {
		"value 0", "value 1", "value 2", "value 3",
	};
	uint32_t i;

	t_enum_prop(p, name, MMX_PROP_ENUM, MMX_PROP_IMMUTABLE, id, names,
		    nenum, 0);
	for (i = 0; i < nenum; i++)
		p->enums[i].value = (uint64_t)i << 33 | i;
	p->value = nenum ? p->enums[nenum - 1].value : 0;
}

/* A blob of @len bytes of i * 37 + 11 (blob id @id + 1000). */
static void prop_blob(struct mmx_property *p, const char *name, uint32_t id,
		      uint32_t len)
{
	uint32_t i;

	t_blob_prop(p, name, 0, id, id + 1000, len);
	for (i = 0; i < len; i++)
		p->blob[i] = (uint8_t)(i * 37 + 11);
}

/*
 * An output as the virtual backend shows one: @nmode modes (the first
 * preferred), EDID (128 bytes), DPMS, link-status, non-desktop, CRTC_ID.
 */
static void output_fill(struct mmx_state *s, uint32_t i, uint32_t nmode)
{
	static const uint32_t sizes[][2] = {
		{ 1920, 1080 }, { 1680, 1050 }, { 1600, 900 }, { 1280, 1024 },
		{ 1440, 900 }, { 1280, 800 }, { 1280, 720 }, { 1024, 768 },
		{ 800, 600 }, { 640, 480 },
	};
	struct mmx_output_info *o = &s->outputs[i];
	char name[MMX_NAME_LEN];
	uint32_t j;

	snprintf(name, sizeof(name), "Virtual-%u", i + 1);
	t_output(o, 50 + i, name, 520, 290, s->ncrtc, 40);
	o->nmode = nmode;
	o->npreferred = nmode ? 1 : 0;
	for (j = 0; j < nmode; j++)
		mode_fill(&o->modes[j], 100 + j, sizes[j % 10][0],
			  sizes[j % 10][1], 60000 - 10 * j);
	o->nprop = 5;
	prop_blob(&o->props[0], "EDID", 1, 128);
	prop_enum(&o->props[1], "DPMS", 2, 4);
	prop_enum(&o->props[2], "link-status", 5, 2);
	t_range_prop(&o->props[3], "non-desktop", MMX_PROP_SIGNED_RANGE, 0, 6,
		     0, 1, 0);
	t_range_prop(&o->props[4], "CRTC_ID", MMX_PROP_SIGNED_RANGE, 0, 20, 0,
		     UINT32_MAX, 40 + i);
}

static void crtc_fill(struct mmx_state *s, uint32_t i)
{
	struct mmx_crtc_info *c = &s->crtcs[i];

	t_crtc(c, 40 + i, i, s->noutput, 50);
	if (i < s->noutput) {
		c->mode_valid = 1;
		mode_fill(&c->mode, 100, 1920, 1080, 60000);
		c->x = (int32_t)(1920 * i);
		c->width = 1920;
		c->height = 1080;
		c->noutput = 1;
		c->outputs[0] = 50 + i;
	}
}

/* @noutput outputs of @nmode modes each, as many CRTCs. */
static void state_fill(struct mmx_state *s, uint32_t noutput, uint32_t nmode)
{
	uint32_t i;

	memset(s, 0, sizeof(*s));
	s->flags = MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		   MMX_STATE_WRITEBACK;
	strcpy(s->driver, "mmx");
	s->timestamp = 123456789012345ull;
	s->config_timestamp = 0xfedcba9876543210ull;
	s->screen_width = 1920 * noutput;
	s->screen_height = noutput ? 1080 : 0;
	s->min_width = s->min_height = 1;
	s->max_width = s->max_height = 8192;
	s->primary = noutput ? 50 : 0;
	s->pointer_x = -1;
	s->pointer_y = INT32_MIN;
	s->noutput = noutput;
	s->ncrtc = noutput;
	for (i = 0; i < s->ncrtc; i++)
		crtc_fill(s, i);
	for (i = 0; i < noutput; i++)
		output_fill(s, i, nmode);
	for (i = 0; i < s->ncrtc; i++)
		s->outputs[i].crtc = 40 + i;
}

/* Every array full, every string 31 bytes long. */
static void state_max(struct mmx_state *s)
{
	uint32_t i, j, k;

	state_fill(s, MMX_MAX_OUTPUTS, MMX_MAX_MODES);
	memset(s->driver, 'd', sizeof(s->driver) - 1);
	s->ncrtc = MMX_MAX_CRTCS;
	for (i = 0; i < MMX_MAX_CRTCS; i++) {
		crtc_fill(s, i);
		s->crtcs[i].noutput = MMX_MAX_OUTPUTS;
		for (j = 0; j < MMX_MAX_OUTPUTS; j++)
			s->crtcs[i].outputs[j] = 50 + j;
	}
	for (i = 0; i < MMX_MAX_OUTPUTS; i++) {
		struct mmx_output_info *o = &s->outputs[i];

		memset(o->name, 'o', sizeof(o->name) - 1);
		o->ncrtc = MMX_MAX_CRTCS;
		for (j = 0; j < MMX_MAX_CRTCS; j++)
			o->crtcs[j] = 40 + j;
		o->nclone = MMX_MAX_OUTPUTS;
		for (j = 0; j < MMX_MAX_OUTPUTS; j++)
			o->clones[j] = 50 + j;
		o->npreferred = MMX_MAX_MODES;
		for (j = 0; j < MMX_MAX_MODES; j++)
			mode_odd(&o->modes[j], j + 1);
		o->nprop = MMX_MAX_PROPS;
		for (j = 0; j < MMX_MAX_PROPS; j++) {
			prop_blob(&o->props[j], "", j, MMX_MAX_BLOB);
			memset(o->props[j].name, 'p', sizeof(o->props[j].name) - 1);
			o->props[j].type = MMX_PROP_BITMASK;
			o->props[j].nenum = MMX_MAX_ENUMS;
			for (k = 0; k < MMX_MAX_ENUMS; k++) {
				memset(o->props[j].enums[k].name, 'e',
				       sizeof(o->props[j].enums[k].name) - 1);
				o->props[j].enums[k].value = UINT64_MAX - k;
			}
		}
	}
}

/* Negative positions and bounding boxes, rotations, keystones, panning. */
static void state_transformed(struct mmx_state *s)
{
	static const double keystone[9] = {
		1.25, -0.125, 7.5, 0.0625, 0.875, -33.0,
		0.0001, -0.0002, 1.0,
	};
	struct mmx_crtc_info *c;
	int i;

	state_fill(s, 2, 3);
	c = &s->crtcs[0];
	c->x = -1920;
	c->y = -7;
	c->bbox_x = -13;
	c->bbox_y = -200;
	c->rotation = MMX_ROTATE_270 | MMX_REFLECT_X;
	for (i = 0; i < 9; i++)
		c->current.matrix[i] = on_grid(keystone[i]);
	c->current.identity = 0;
	strcpy(c->current.filter, "bilinear");
	for (i = 0; i < 9; i++)
		c->pending.matrix[i] = on_grid(-keystone[8 - i] / 3.0);
	c->pending.matrix[4] = -32767.75;
	c->pending.identity = 0;
	c->panning = (struct mmx_panning_info){
		.left = 0, .top = 0, .width = 3840, .height = 2160,
		.track_width = 3840, .track_height = 2160,
		.border_left = -5, .border_top = 0, .border_right = 100,
		.border_bottom = INT32_MIN,
	};
	c = &s->crtcs[1];
	c->x = INT32_MIN;
	c->y = INT32_MAX;
	/* a CRTC that is off but keeps a mode: the mode travels too */
	c->mode_valid = 0;
	memset(c->current.matrix, 0, sizeof(c->current.matrix));
	s->pan_mode = MMX_PAN_JOINT;
}

/* ---- comparison, field by field ----------------------------------------- */

#define SAME(a, b, what, ...)						\
	do {								\
		if (memcmp(&(a), &(b), sizeof(a))) {			\
			fprintf(stderr, "differs: " what "\n", ##__VA_ARGS__); \
			return -1;					\
		}							\
	} while (0)

/* A member of a struct, compared byte for byte by same_fields(). */
struct field {
	const char *name;
	size_t offset, size;
};

#define FIELD(type, member)						\
	{ #member, offsetof(type, member), sizeof(((type *)0)->member) }

/*
 * Whether the @n @fields of @a and @b are the same, in the order given;
 * at the first that differs, say "differs: @what[@i].NAME" (@what NULL:
 * "differs: NAME").
 */
static int same_fields(const void *a, const void *b,
		       const struct field *fields, size_t n, const char *what,
		       uint32_t i)
{
	size_t k;

	for (k = 0; k < n; k++) {
		const struct field *f = &fields[k];

		if (!memcmp((const char *)a + f->offset,
			    (const char *)b + f->offset, f->size))
			continue;
		if (what)
			fprintf(stderr, "differs: %s[%u].%s\n", what, i,
				f->name);
		else
			fprintf(stderr, "differs: %s\n", f->name);
		return -1;
	}
	return 0;
}

#define C(member) FIELD(struct mmx_crtc_info, member)
static const struct field crtc_fields[] = {
	C(id), C(index), C(x), C(y), C(width), C(height), C(bbox_x),
	C(bbox_y), C(mode_valid), C(rotation), C(rotations), C(noutput),
	C(outputs), C(npossible), C(possible), C(mode),
};
#undef C

#define O(member) FIELD(struct mmx_output_info, member)
static const struct field output_fields[] = {
	O(id), O(name), O(connection), O(crtc), O(mm_width), O(mm_height),
	O(subpixel), O(primary), O(ncrtc), O(crtcs), O(nclone), O(clones),
	O(nmode), O(npreferred),
};
#undef O

#define S(member) FIELD(struct mmx_state, member)
static const struct field state_fields[] = {
	S(flags), S(pan_mode), S(driver), S(timestamp), S(config_timestamp),
	S(screen_width), S(screen_height), S(min_width), S(min_height),
	S(max_width), S(max_height), S(primary), S(pointer_x), S(pointer_y),
	S(ncrtc), S(noutput),
};
#undef S

static int same_crtc(const struct mmx_crtc_info *a,
		     const struct mmx_crtc_info *b, uint32_t i)
{
	int k;

	if (same_fields(a, b, crtc_fields, UNIT_N(crtc_fields), "crtcs", i))
		return -1;
	for (k = 0; k < 9; k++) {
		SAME(a->pending.matrix[k], b->pending.matrix[k],
		     "crtcs[%u].pending.matrix[%d]: %.17g %.17g", i, k,
		     a->pending.matrix[k], b->pending.matrix[k]);
		SAME(a->current.matrix[k], b->current.matrix[k],
		     "crtcs[%u].current.matrix[%d]: %.17g %.17g", i, k,
		     a->current.matrix[k], b->current.matrix[k]);
	}
	SAME(a->pending, b->pending, "crtcs[%u].pending", i);
	SAME(a->current, b->current, "crtcs[%u].current", i);
	SAME(a->panning, b->panning, "crtcs[%u].panning", i);
	SAME(*a, *b, "crtcs[%u] (padding)", i);
	return 0;
}

static int same_output(const struct mmx_output_info *a,
		       const struct mmx_output_info *b, uint32_t i)
{
	uint32_t j;

	if (same_fields(a, b, output_fields, UNIT_N(output_fields), "outputs", i))
		return -1;
	for (j = 0; j < MMX_MAX_MODES; j++)
		SAME(a->modes[j], b->modes[j], "outputs[%u].modes[%u]", i, j);
	SAME(a->nprop, b->nprop, "outputs[%u].nprop", i);
	for (j = 0; j < MMX_MAX_PROPS; j++) {
		SAME(a->props[j].name, b->props[j].name,
		     "outputs[%u].props[%u].name", i, j);
		SAME(a->props[j].enums, b->props[j].enums,
		     "outputs[%u].props[%u].enums", i, j);
		SAME(a->props[j].blob_len, b->props[j].blob_len,
		     "outputs[%u].props[%u].blob_len", i, j);
		SAME(a->props[j].blob, b->props[j].blob,
		     "outputs[%u].props[%u].blob", i, j);
		SAME(a->props[j], b->props[j], "outputs[%u].props[%u]", i, j);
	}
	SAME(*a, *b, "outputs[%u] (padding)", i);
	return 0;
}

static int same_state(const struct mmx_state *a, const struct mmx_state *b)
{
	uint32_t i;

	if (same_fields(a, b, state_fields, UNIT_N(state_fields), NULL, 0))
		return -1;
	for (i = 0; i < MMX_MAX_CRTCS; i++)
		if (same_crtc(&a->crtcs[i], &b->crtcs[i], i))
			return -1;
	for (i = 0; i < MMX_MAX_OUTPUTS; i++)
		if (same_output(&a->outputs[i], &b->outputs[i], i))
			return -1;
	SAME(*a, *b, "the state (padding)");
	return 0;
}

/* Encode @s, decode it again: equal, field by field. */
static int round_trip(const struct mmx_state *s, size_t *bytes)
{
	static struct mmx_state back;
	uint8_t *buf;
	size_t len;
	int ret;

	ret = mmx_wire_encode_state(s, &buf, &len);
	UNIT_CHECK(!ret, "encode: %d", ret);
	ret = mmx_wire_decode_state(buf, len, &back);
	free(buf);
	UNIT_CHECK(!ret, "decode: %d", ret);
	UNIT_CHECK(!same_state(s, &back), "round trip of %u outputs",
		   s->noutput);
	if (bytes)
		*bytes = len;
	return 0;
}

/* ---- tests -------------------------------------------------------------- */

static struct mmx_state st;

/* Encoding @s fails with @want. */
#define CHECK_ENC(s, want)						\
	do {								\
		uint8_t *_b;						\
		size_t _l;						\
		int _r = mmx_wire_encode_state((s), &_b, &_l);		\
		free(_b);						\
		UNIT_CHECK(_r == (want), "encode: %d, expected %d", _r,	\
			   (int)(want));				\
	} while (0)

static int test_round_trip(void)
{
	size_t len;
	uint32_t n;

	memset(&st, 0, sizeof(st));
	UNIT_CHECK(!round_trip(&st, &len), "empty state");
	UNIT_CHECK(len == 69, "an empty state is %zu bytes", len);
	for (n = 0; n <= 2; n++) {
		state_fill(&st, n, 7);
		UNIT_CHECK(!round_trip(&st, NULL), "%u outputs", n);
	}
	state_fill(&st, 1, 0);
	UNIT_CHECK(!round_trip(&st, NULL), "an output without modes");
	state_max(&st);
	UNIT_CHECK(!round_trip(&st, &len), "every array full");
	UNIT_CHECK(len < sizeof(st), "the fullest state: %zu bytes", len);
	printf("records of the fullest state: %zu bytes (struct: %zu)\n",
	       len, sizeof(st));
	state_transformed(&st);
	UNIT_CHECK(!round_trip(&st, NULL), "transforms, negative positions");
	return 0;
}

/* Matrix entries off the S31.32 grid come back within half a step. */
static int test_fixed_point(void)
{
	static struct mmx_state back;
	static const double entries[9] = {
		0.1, -1.0 / 3.0, 3.14159265358979, 1e-12, -1e-9,
		32767.999999, -32767.999999, 2.0 / 3.0, 1.0,
	};
	uint8_t *buf;
	size_t len;
	int i;

	state_fill(&st, 1, 1);
	memcpy(st.crtcs[0].current.matrix, entries, sizeof(entries));
	UNIT_CHECK(!mmx_wire_encode_state(&st, &buf, &len), "encode");
	UNIT_CHECK(!mmx_wire_decode_state(buf, len, &back), "decode");
	free(buf);
	for (i = 0; i < 9; i++) {
		double d = back.crtcs[0].current.matrix[i] - entries[i];

		UNIT_CHECK(fabs(d) <= ldexp(1.0, -33), "entry %d: %.17g for %.17g",
			   i, back.crtcs[0].current.matrix[i], entries[i]);
	}
	/* out of S31.32's range or not finite: the encoder refuses */
	st.crtcs[0].current.matrix[3] = 32768.0;
	CHECK_ENC(&st, -ERANGE);
	st.crtcs[0].current.matrix[3] = NAN;
	CHECK_ENC(&st, -ERANGE);
	state_fill(&st, 1, 1);
	st.crtcs[0].pending.matrix[0] = -INFINITY;
	CHECK_ENC(&st, -ERANGE);
	/* counts above their arrays: the encoder refuses */
	state_fill(&st, 1, 1);
	st.outputs[0].nmode = MMX_MAX_MODES + 1;
	CHECK_ENC(&st, -E2BIG);
	state_fill(&st, 1, 1);
	st.outputs[0].props[0].blob_len = MMX_MAX_BLOB + 1;
	CHECK_ENC(&st, -E2BIG);
	return 0;
}

/* The encoding of @s in *@buf (the caller frees), its length in *@len. */
static int encode(const struct mmx_state *s, uint8_t **buf, size_t *len)
{
	int ret = mmx_wire_encode_state(s, buf, len);

	UNIT_CHECK(!ret, "encoding: %d", ret);
	return 0;
}

/*
 * Where the encodings of two states that differ in one count first differ:
 * the offset of that count's (little-endian) field.
 */
static int count_offset(const struct mmx_state *a, const struct mmx_state *b,
			size_t *off)
{
	uint8_t *ea, *eb;
	size_t la, lb, i;

	UNIT_CHECK(!encode(a, &ea, &la) && !encode(b, &eb, &lb), "encode");
	for (i = 0; i < la && i < lb && ea[i] == eb[i]; i++)
		;
	free(ea);
	free(eb);
	UNIT_CHECK(i < la && i < lb, "no difference");
	*off = i;
	return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}


/* A decoder under test: its object, zeroed on error, and its safety check. */
struct codec {
	int (*decode)(const void *buf, size_t len, void *obj);
	int (*check)(void *obj);
	void *obj;
	size_t size;
};

static int state_decode(const void *buf, size_t len, void *obj)
{
	return mmx_wire_decode_state(buf, len, obj);
}

/*
 * Safe to use: the encoder, which refuses counts above their arrays
 * (-E2BIG), takes it; a flipped matrix byte may decode to an entry the
 * encoder refuses (-ERANGE), harmless to a reader.
 */
static int state_check(void *obj)
{
	uint8_t *buf;
	size_t len;
	int ret = mmx_wire_encode_state(obj, &buf, &len);

	free(buf);
	return ret == -ERANGE ? 0 : ret;
}

/*
 * Every truncation of @buf (-EBADMSG, the object zeroed), a byte too
 * many (-EBADMSG), every byte flipped (-EBADMSG or -E2BIG, or an object
 * whose counts and strings are within their arrays).
 */
static int sweep(const struct codec *c, const uint8_t *buf, size_t len)
{
	uint8_t *copy = malloc(len + 1), *zero = calloc(1, c->size);
	size_t i;
	int ret, nok = 0, nbad = 0;

	UNIT_CHECK(copy && zero, "memory");
	/* every truncation, in a buffer of exactly that size (ASan sees) */
	for (i = 0; i < len; i++) {
		uint8_t *cut = malloc(i ? i : 1);

		UNIT_CHECK(cut, "memory");
		memcpy(cut, buf, i);
		ret = c->decode(cut, i, c->obj);
		free(cut);
		UNIT_CHECK(ret == -EBADMSG, "cut at %zu of %zu: %d", i, len,
			   ret);
		UNIT_CHECK(!memcmp(c->obj, zero, c->size),
			   "cut at %zu: not zeroed", i);
	}
	/* a byte too many */
	memcpy(copy, buf, len);
	copy[len] = 0;
	CHECK_ERR(c->decode(copy, len + 1, c->obj), -EBADMSG);
	for (i = 0; i < len; i++) {
		memcpy(copy, buf, len);
		copy[i] ^= 0xff;
		ret = c->decode(copy, len, c->obj);
		UNIT_CHECK(!ret || ret == -EBADMSG || ret == -E2BIG,
			   "byte %zu flipped: %d", i, ret);
		if (!ret) {
			UNIT_CHECK(!c->check(c->obj),
				   "byte %zu flipped: unsafe", i);
			nok++;
		} else {
			UNIT_CHECK(!memcmp(c->obj, zero, c->size),
				   "byte %zu flipped: not zeroed", i);
			nbad++;
		}
	}
	printf("%zu bytes flipped one at a time: %d refused, %d decoded\n",
	       len, nbad, nok);
	free(zero);
	free(copy);
	return 0;
}

/* Decode @buf with the u32 at @off replaced by @v: -errno or 0. */
static int codec_patched(const struct codec *c, const uint8_t *buf,
			 size_t len, size_t off, uint32_t v)
{
	uint8_t *copy = malloc(len);
	int ret;

	if (!copy)
		return -ENOMEM;
	memcpy(copy, buf, len);
	put_le32(copy + off, v);
	ret = c->decode(copy, len, c->obj);
	free(copy);
	return ret;
}

static int decode_patched(const uint8_t *buf, size_t len, size_t off,
			  uint32_t v)
{
	static struct mmx_state back;
	const struct codec c = {
		state_decode, state_check, &back, sizeof(back),
	};

	return codec_patched(&c, buf, len, off, v);
}

static int test_truncated_corrupt(void)
{
	static struct mmx_state back;
	const struct codec c = {
		state_decode, state_check, &back, sizeof(back),
	};
	uint8_t *buf;
	size_t len;
	int ret;

	state_transformed(&st);
	UNIT_CHECK(!encode(&st, &buf, &len), "encode");
	ret = sweep(&c, buf, len);
	free(buf);
	return ret;
}

/* Counts, lengths and values out of range, each alone. */
static int test_refused(void)
{
	static struct mmx_state a, b;
	uint8_t *buf;
	size_t len, off;
	int ret;

	state_fill(&a, 2, 3);
	UNIT_CHECK(!encode(&a, &buf, &len), "encode");
	/* the screen record: ncrtc at 60, noutput at 64, driver at 68 */
	CHECK_ERR(decode_patched(buf, len, 60, MMX_MAX_CRTCS + 1), -E2BIG);
	CHECK_ERR(decode_patched(buf, len, 60, UINT32_MAX), -E2BIG);
	CHECK_ERR(decode_patched(buf, len, 64, MMX_MAX_OUTPUTS + 1), -E2BIG);
	/* 16 CRTCs where there are 2: the bytes run out or a count is wrong */
	ret = decode_patched(buf, len, 60, MMX_MAX_CRTCS);
	UNIT_CHECK(ret == -EBADMSG || ret == -E2BIG, "16 CRTCs: %d", ret);
	CHECK_ERR(decode_patched(buf, len, 68, 'm' << 8 | MMX_NAME_LEN),
		  -E2BIG);
	CHECK_ERR(decode_patched(buf, len, 68, 'm' << 8 | 3), -EBADMSG);
	/* CRTC 0's parts (after 11 fields at 72): an unknown bit */
	CHECK_ERR(decode_patched(buf, len, 72 + 44, 1u << 3), -EBADMSG);
	CHECK_ERR(decode_patched(buf, len, 72 + 44, 1u << 31), -EBADMSG);

	/* output 0's nmode */
	b = a;
	b.outputs[0].nmode = 2;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nmode");
	CHECK_ERR(decode_patched(buf, len, off, MMX_MAX_MODES + 1), -E2BIG);
	ret = decode_patched(buf, len, off, 4);
	UNIT_CHECK(ret == -EBADMSG || ret == -E2BIG, "4 modes of 3: %d", ret);
	/* its npreferred, above nmode */
	b = a;
	b.outputs[0].npreferred = 0;
	UNIT_CHECK(!count_offset(&a, &b, &off), "npreferred");
	CHECK_ERR(decode_patched(buf, len, off, 4), -EBADMSG);
	/* its first property's blob_len and second's nenum */
	b = a;
	b.outputs[0].props[0].blob_len = 127;
	UNIT_CHECK(!count_offset(&a, &b, &off), "blob_len");
	CHECK_ERR(decode_patched(buf, len, off, MMX_MAX_BLOB + 1), -E2BIG);
	CHECK_ERR(decode_patched(buf, len, off, 0x7fffffff), -E2BIG);
	b = a;
	b.outputs[0].props[1].nenum = 3;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nenum");
	CHECK_ERR(decode_patched(buf, len, off, MMX_MAX_ENUMS + 1), -E2BIG);
	/* output 1's nprop */
	b = a;
	b.outputs[1].nprop = 4;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nprop");
	CHECK_ERR(decode_patched(buf, len, off, MMX_MAX_PROPS + 1), -E2BIG);
	free(buf);
	return 0;
}

/*
 * A GET_STATE reply for two outputs (ten modes and five properties each,
 * a 128-byte EDID, both CRTCs lit).
 */
static int test_two_output_size(void)
{
	const size_t frame = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
	size_t len;

	state_fill(&st, 2, 10);
	UNIT_CHECK(!round_trip(&st, &len), "two outputs");
	printf("GET_STATE reply, 2 outputs: %zu bytes (%zu of records)\n",
	       frame + len, len);
	UNIT_CHECK(len == 2626, "the records are %zu bytes", len);
	return 0;
}

/* The mmx_state_*() accessors read every field; NULL and bad indices. */
static int test_accessors(void)
{
	uint32_t w = 7, h = 7;
	int32_t x = 7, y = 7;

	state_fill(&st, 2, 3);
	st.pan_mode = MMX_PAN_JOINT;
	UNIT_CHECK(mmx_state_flags(&st) == st.flags, "flags");
	UNIT_CHECK(mmx_state_pan_mode(&st) == MMX_PAN_JOINT, "pan_mode");
	UNIT_CHECK(!strcmp(mmx_state_driver(&st), "mmx"), "driver");
	UNIT_CHECK(mmx_state_timestamp(&st) == st.timestamp, "timestamp");
	UNIT_CHECK(mmx_state_config_timestamp(&st) == st.config_timestamp,
		   "config_timestamp");
	mmx_state_screen_size(&st, &w, &h);
	UNIT_CHECK(w == 3840 && h == 1080, "screen %ux%u", w, h);
	mmx_state_min_size(&st, &w, &h);
	UNIT_CHECK(w == 1 && h == 1, "min %ux%u", w, h);
	mmx_state_max_size(&st, &w, NULL);
	mmx_state_max_size(&st, NULL, &h);
	UNIT_CHECK(w == 8192 && h == 8192, "max %ux%u", w, h);
	UNIT_CHECK(mmx_state_primary(&st) == 50, "primary");
	mmx_state_pointer(&st, &x, &y);
	UNIT_CHECK(x == -1 && y == INT32_MIN, "pointer %d,%d", x, y);
	UNIT_CHECK(mmx_state_noutputs(&st) == 2 && mmx_state_ncrtcs(&st) == 2,
		   "counts");
	UNIT_CHECK(mmx_state_output_at(&st, 1) == &st.outputs[1] &&
		   !mmx_state_output_at(&st, 2), "output_at");
	UNIT_CHECK(mmx_state_crtc_at(&st, 0) == &st.crtcs[0] &&
		   mmx_state_crtc_at(&st, 1) == mmx_state_crtc_at(&st, 0) + 1 &&
		   !mmx_state_crtc_at(&st, 2), "crtc_at");
	UNIT_CHECK(mmx_state_output(&st, st.outputs[1].id) == &st.outputs[1],
		   "output by id");
	UNIT_CHECK(mmx_state_crtc(&st, st.crtcs[1].id) == &st.crtcs[1],
		   "crtc by id");

	/* counts above the arrays are clamped */
	st.noutput = MMX_MAX_OUTPUTS + 1;
	st.ncrtc = UINT32_MAX;
	UNIT_CHECK(mmx_state_noutputs(&st) == MMX_MAX_OUTPUTS &&
		   mmx_state_ncrtcs(&st) == MMX_MAX_CRTCS, "clamped counts");
	UNIT_CHECK(!mmx_state_output_at(&st, MMX_MAX_OUTPUTS) &&
		   !mmx_state_crtc_at(&st, MMX_MAX_CRTCS), "past the arrays");

	/* NULL: 0 or NULL, nothing written */
	w = h = 7;
	x = y = 7;
	mmx_state_screen_size(NULL, &w, &h);
	mmx_state_min_size(NULL, &w, &h);
	mmx_state_max_size(NULL, &w, &h);
	mmx_state_pointer(NULL, &x, &y);
	UNIT_CHECK(w == 7 && h == 7 && x == 7 && y == 7, "NULL wrote");
	UNIT_CHECK(!mmx_state_flags(NULL) && !mmx_state_pan_mode(NULL) &&
		   !mmx_state_driver(NULL) && !mmx_state_timestamp(NULL) &&
		   !mmx_state_config_timestamp(NULL) &&
		   !mmx_state_primary(NULL) && !mmx_state_noutputs(NULL) &&
		   !mmx_state_ncrtcs(NULL) && !mmx_state_output_at(NULL, 0) &&
		   !mmx_state_crtc_at(NULL, 0), "NULL state");
	return 0;
}

/* ---- configs (APPLY) ---------------------------------------------------- */

/* The config-wide fields: 6 u32 before the first change. */
#define OFF_NCHANGE	20

static struct mmx_config cfg, cback;

/* One change of every kind of field; @k varies the values. */
static void change_fill(struct mmx_output_change *c, uint32_t k,
			uint32_t nprop, int long_strings)
{
	static const double odd[9] = {
		1.0 / 3, -0.0, 1e-300, 2.5e-10, -32767.99, 0.1, 1e-5, -1e-5, 1,
	};
	uint32_t i;

	c->output = 40 + k;
	c->flags = MMX_CHANGE_MODE | MMX_CHANGE_POS | MMX_CHANGE_ROTATION |
		   MMX_CHANGE_TRANSFORM | MMX_CHANGE_PANNING |
		   MMX_CHANGE_CRTC | MMX_CHANGE_PROPS;
	c->x = -(int32_t)k * 7;
	c->y = (int32_t)k * 1000 + 1;
	c->rotation = MMX_ROTATE_90 | MMX_REFLECT_X;
	c->crtc = 30 + k;
	mode_fill(&c->mode, 100 + k, 640 + 16 * k, 480 + 8 * k, 59950);
	c->mode.hskew = 3;
	c->mode.vscan = 1;
	c->mode.flags = 0x5;
	for (i = 0; i < 9; i++)
		c->transform.matrix[i] = odd[i] * (k + 1);
	snprintf(c->transform.filter, sizeof(c->transform.filter),
		 "bilinear");
	c->transform.identity = k & 1;
	c->panning.left = k;
	c->panning.top = 2 * k;
	c->panning.width = 1000 + k;
	c->panning.height = 700;
	c->panning.track_left = 1;
	c->panning.track_top = 2;
	c->panning.track_width = 3;
	c->panning.track_height = 4;
	c->panning.border_left = -5;
	c->panning.border_top = 6;
	c->panning.border_right = -7;
	c->panning.border_bottom = 8;
	c->nprop = nprop;
	for (i = 0; i < nprop; i++) {
		struct mmx_set_prop *p = &c->props[i];

		if (long_strings) {
			memset(p->name, 'a' + (int)i, sizeof(p->name) - 1);
			memset(p->value, 'A' + (int)i, sizeof(p->value) - 1);
		} else {
			snprintf(p->name, sizeof(p->name), "prop%u", i);
			snprintf(p->value, sizeof(p->value), "%u", k * i);
		}
	}
}

static void config_full(struct mmx_config *c)
{
	uint32_t k;

	memset(c, 0, sizeof(*c));
	c->flags = MMX_CONFIG_SCREEN_SIZE | MMX_CONFIG_PRIMARY |
		   MMX_CONFIG_PAN_MODE | MMX_CONFIG_TEST_ONLY;
	c->screen_width = 4096;
	c->screen_height = 2160;
	c->primary = 41;
	c->pan_mode = MMX_PAN_JOINT;
	c->nchange = MMX_MAX_OUTPUTS;
	for (k = 0; k < MMX_MAX_OUTPUTS; k++)
		change_fill(&c->changes[k], k, MMX_MAX_SET_PROPS, 1);
}


/* Encode @c, decode it into back: 0 when equal field by field. */
static int config_round_trip(const struct mmx_config *c, size_t *bytes)
{
	uint8_t *buf;
	size_t len;
	uint32_t k, i;

	UNIT_CHECK(!mmx_wire_encode_config(c, &buf, &len), "encode");
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), 0);
	free(buf);
	*bytes = len;
	UNIT_CHECK(cback.flags == c->flags &&
		   cback.screen_width == c->screen_width &&
		   cback.screen_height == c->screen_height &&
		   cback.primary == c->primary &&
		   cback.pan_mode == c->pan_mode &&
		   cback.nchange == c->nchange, "config-wide fields");
	for (k = 0; k < c->nchange; k++) {
		const struct mmx_output_change *a = &c->changes[k];
		const struct mmx_output_change *b = &cback.changes[k];

		UNIT_CHECK(a->output == b->output && a->flags == b->flags &&
			   a->x == b->x && a->y == b->y &&
			   a->rotation == b->rotation && a->crtc == b->crtc,
			   "change %u: fixed fields", k);
		UNIT_CHECK(!memcmp(&a->mode, &b->mode, sizeof(a->mode)),
			   "change %u: mode", k);
		UNIT_CHECK(!memcmp(a->transform.matrix, b->transform.matrix,
				   sizeof(a->transform.matrix)),
			   "change %u: matrix not bit for bit", k);
		UNIT_CHECK(!strcmp(a->transform.filter, b->transform.filter) &&
			   a->transform.identity == b->transform.identity,
			   "change %u: filter, identity", k);
		UNIT_CHECK(!memcmp(&a->panning, &b->panning,
				   sizeof(a->panning)), "change %u: panning", k);
		UNIT_CHECK(a->nprop == b->nprop, "change %u: nprop", k);
		for (i = 0; i < a->nprop; i++)
			UNIT_CHECK(!strcmp(a->props[i].name, b->props[i].name) &&
				   !strcmp(a->props[i].value,
					   b->props[i].value),
				   "change %u: property %u", k, i);
	}
	/* and nothing else: the unused entries stay zero */
	UNIT_CHECK(!memcmp(c, &cback, sizeof(cback)), "bytes differ");
	return 0;
}

static int test_config_round_trip(void)
{
	size_t bytes, one;
	struct mmx_output_change *c;

	memset(&cfg, 0, sizeof(cfg));
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "empty");
	UNIT_CHECK(bytes == 24, "an empty config takes %zu bytes", bytes);

	/* an output turned off: its fixed fields and an empty filter */
	c = &cfg.changes[cfg.nchange++];
	c->output = 51;
	c->flags = MMX_CHANGE_OFF;
	UNIT_CHECK(!config_round_trip(&cfg, &one), "one off");
	UNIT_CHECK(one == 24 + 7 * 4 + 4 + 1 + 4, "off takes %zu bytes",
		   one - 24);

	/* a few properties on a second output, short strings */
	change_fill(&cfg.changes[cfg.nchange++], 2, 3, 0);
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "two");

	/* special doubles travel as they are */
	c->flags |= MMX_CHANGE_TRANSFORM;
	c->transform.matrix[0] = INFINITY;
	c->transform.matrix[4] = NAN;
	c->transform.matrix[8] = 1e300;
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "special doubles");

	config_full(&cfg);
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "fullest");
	printf("fullest config: %zu bytes of records, %zu of struct\n",
	       bytes, sizeof(struct mmx_config));
	UNIT_CHECK(bytes < sizeof(struct mmx_config), "records not smaller");
	return 0;
}

static int config_decode(const void *buf, size_t len, void *obj)
{
	return mmx_wire_decode_config(buf, len, obj);
}

static int config_check(void *obj)
{
	uint8_t *buf;
	size_t len;
	int ret = mmx_wire_encode_config(obj, &buf, &len);

	free(buf);
	return ret;
}

static const struct codec config_codec = {
	config_decode, config_check, &cback, sizeof(cback),
};

static int test_config_truncated_corrupt(void)
{
	uint8_t *buf;
	size_t len;
	int ret;

	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = MMX_CONFIG_PRIMARY;
	cfg.primary = 41;
	cfg.nchange = 2;
	change_fill(&cfg.changes[0], 0, 2, 0);
	change_fill(&cfg.changes[1], 1, 1, 1);
	UNIT_CHECK(!mmx_wire_encode_config(&cfg, &buf, &len), "encode");
	ret = sweep(&config_codec, buf, len);
	free(buf);
	return ret;
}

static int test_config_refused(void)
{
	/* one change without mode, matrix or panning, then one property */
	const size_t parts = 24 + 6 * 4, nprop = parts + 4 + 4 + 1;
	const size_t name = nprop + 4;
	const struct codec *c = &config_codec;
	uint8_t *buf;
	size_t len;

	memset(&cfg, 0, sizeof(cfg));
	cfg.nchange = 1;
	cfg.changes[0].output = 7;
	cfg.changes[0].flags = MMX_CHANGE_PROPS;
	cfg.changes[0].nprop = 1;
	strcpy(cfg.changes[0].props[0].name, "abc");
	strcpy(cfg.changes[0].props[0].value, "1");
	UNIT_CHECK(!mmx_wire_encode_config(&cfg, &buf, &len), "encode");
	UNIT_CHECK(len == name + 1 + 3 + 1 + 1, "layout: %zu bytes", len);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, MMX_MAX_OUTPUTS + 1),
		  -E2BIG);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, 2), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, 0), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, parts, 1u << 3), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, parts, 1u << 0), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, nprop, MMX_MAX_SET_PROPS + 1),
		  -E2BIG);
	CHECK_ERR(codec_patched(c, buf, len, nprop, 2), -EBADMSG);
	/* a NUL inside a string; a string as long as its field */
	buf[name + 2] = 0;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), -EBADMSG);
	buf[name + 2] = 'b';
	buf[name] = MMX_NAME_LEN;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), -E2BIG);
	buf[name] = 3;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), 0);
	free(buf);

	/* the encoder refuses counts above their arrays */
	cfg.changes[0].nprop = MMX_MAX_SET_PROPS + 1;
	CHECK_ERR(mmx_wire_encode_config(&cfg, &buf, &len), -E2BIG);
	UNIT_CHECK(!buf && !len, "output on error");
	cfg.changes[0].nprop = 1;
	cfg.nchange = MMX_MAX_OUTPUTS + 1;
	CHECK_ERR(mmx_wire_encode_config(&cfg, &buf, &len), -E2BIG);
	return 0;
}

static const struct unit_case cases[] = {
	{ "round-trip", "0, 1, 2 and the most outputs, odd modes, transforms: equal field by field",
	  test_round_trip },
	{ "fixed-point", "matrix entries within 2^-33; out of range and counts refused by the encoder",
	  test_fixed_point },
	{ "truncated-corrupt", "every truncation -EBADMSG, a byte too many, every byte flipped",
	  test_truncated_corrupt },
	{ "refused", "counts above their arrays -E2BIG, bad strings, bits, npreferred -EBADMSG",
	  test_refused },
	{ "two-output-size", "GET_STATE reply bytes for two outputs",
	  test_two_output_size },
	{ "config-round-trip", "configs, empty to fullest: equal field by field, doubles bit for bit",
	  test_config_round_trip },
	{ "config-truncated-corrupt", "config records: every truncation -EBADMSG, a byte too many, every byte flipped",
	  test_config_truncated_corrupt },
	{ "config-refused", "config records: counts above their arrays -E2BIG, bad strings, parts bits -EBADMSG",
	  test_config_refused },
	{ "accessors", "mmx_state_*() read every field; clamped counts, bad indices, NULL",
	  test_accessors },
};

UNIT_MAIN(cases)
