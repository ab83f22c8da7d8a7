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
	*m = (struct mmx_mode){
		.id = id, .width = UINT32_MAX, .height = 1,
		.clock = 0x80000001u, .hsync_start = 0xffff,
		.hsync_end = 0x8000, .htotal = 1, .hskew = 0x7fff,
		.vsync_start = 0, .vsync_end = 0xfffe, .vtotal = 0xffff,
		.vscan = 2, .flags = 0x10 | 0x20 | 0xdeadbeefu,
		.type = UINT32_MAX, .refresh_mhz = 59940,
	};
	memset(m->name, 'z', sizeof(m->name) - 1);
}

/* An enum of @nenum values "value N", N << 33 | N, the last one set. */
static void prop_enum(struct mmx_state *s, struct mmx_property *p,
		      const char *name, uint32_t id, uint32_t nenum)
{
	static const char *const names[] = {
		"value 0", "value 1", "value 2", "value 3",
	};
	uint32_t i;

	t_enum_prop(s, p, name, MMX_PROP_ENUM, MMX_PROP_IMMUTABLE, id, names,
		    nenum, 0);
	for (i = 0; i < nenum; i++)
		p->enums[i].value = (uint64_t)i << 33 | i;
	p->value = nenum ? p->enums[nenum - 1].value : 0;
}

/* A blob of @len bytes of i * 37 + 11 (blob id @id + 1000). */
static void prop_blob(struct mmx_state *s, struct mmx_property *p,
		      const char *name, uint32_t id, uint32_t len)
{
	uint32_t i;

	t_blob_prop(s, p, name, 0, id, id + 1000, len);
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
	char name[32];
	uint32_t j;

	snprintf(name, sizeof(name), "Virtual-%u", i + 1);
	t_output(s, o, 50 + i, name, 520, 290, s->ncrtc, 40);
	t_output_room(s, o, nmode, 5);
	o->npreferred = nmode ? 1 : 0;
	for (j = 0; j < nmode; j++)
		mode_fill(&o->modes[j], 100 + j, sizes[j % 10][0],
			  sizes[j % 10][1], 60000 - 10 * j);
	prop_blob(s, &o->props[0], "EDID", 1, 128);
	prop_enum(s, &o->props[1], "DPMS", 2, 4);
	prop_enum(s, &o->props[2], "link-status", 5, 2);
	t_range_prop(s, &o->props[3], "non-desktop", MMX_PROP_SIGNED_RANGE, 0,
		     6, 0, 1, 0);
	t_range_prop(s, &o->props[4], "CRTC_ID", MMX_PROP_SIGNED_RANGE, 0, 20,
		     0, UINT32_MAX, 40 + i);
}

static void crtc_fill(struct mmx_state *s, uint32_t i)
{
	struct mmx_crtc_info *c = &s->crtcs[i];

	t_crtc(s, c, 40 + i, i, s->noutput, 50);
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

	mmx_state_clear(s);
	t_screen(s, "mmx", 1920 * noutput, noutput ? 1080 : 0, 1, 8192);
	s->timestamp = 123456789012345ull;
	s->config_timestamp = 0xfedcba9876543210ull;
	s->primary = noutput ? 50 : 0;
	s->pointer_x = -1;
	s->pointer_y = INT32_MIN;
	t_state_alloc(s, noutput, noutput);
	for (i = 0; i < s->ncrtc; i++)
		crtc_fill(s, i);
	for (i = 0; i < noutput; i++)
		output_fill(s, i, nmode);
	for (i = 0; i < s->ncrtc; i++)
		s->outputs[i].crtc = 40 + i;
}

/* A string of @n bytes @c, owned by @s. */
static const char *long_str(struct mmx_state *s, char c, size_t n)
{
	char *str = t_alloc(s, n + 1, 1);

	memset(str, c, n);
	return str;
}

/*
 * 1.x's limits and beyond: 16 outputs and CRTCs, 64 modes and 32
 * properties an output, 32 enum values and 600 blob bytes a property,
 * every string as long as the records carry (255 bytes).
 */
#define BIG_OUTPUTS	16
#define BIG_MODES	64
#define BIG_PROPS	32
#define BIG_ENUMS	32
#define BIG_BLOB	600
#define BIG_STR		255

static void big_property(struct mmx_state *s, struct mmx_property *p,
			 uint32_t j)
{
	uint32_t k;

	prop_blob(s, p, "", j, BIG_BLOB);
	p->name = long_str(s, 'p', BIG_STR);
	p->type = MMX_PROP_BITMASK;
	p->nenum = BIG_ENUMS;
	p->enums = t_alloc(s, BIG_ENUMS, sizeof(*p->enums));
	for (k = 0; k < BIG_ENUMS; k++) {
		p->enums[k].name = long_str(s, 'e', BIG_STR);
		p->enums[k].value = UINT64_MAX - k;
	}
}

static void state_max(struct mmx_state *s)
{
	uint32_t i, j;

	state_fill(s, BIG_OUTPUTS, BIG_MODES);
	s->driver = long_str(s, 'd', BIG_STR);
	for (i = 0; i < BIG_OUTPUTS; i++) {
		crtc_fill(s, i);
		s->crtcs[i].noutput = BIG_OUTPUTS;
		for (j = 0; j < BIG_OUTPUTS; j++)
			s->crtcs[i].outputs[j] = 50 + j;
	}
	for (i = 0; i < BIG_OUTPUTS; i++) {
		struct mmx_output_info *o = &s->outputs[i];

		o->name = long_str(s, 'o', BIG_STR);
		o->nclone = BIG_OUTPUTS;
		o->clones = t_alloc(s, BIG_OUTPUTS, sizeof(*o->clones));
		for (j = 0; j < BIG_OUTPUTS; j++)
			o->clones[j] = 50 + j;
		o->npreferred = BIG_MODES;
		for (j = 0; j < BIG_MODES; j++)
			mode_odd(&o->modes[j], j + 1);
		o->nprop = BIG_PROPS;
		o->props = t_alloc(s, BIG_PROPS, sizeof(*o->props));
		for (j = 0; j < BIG_PROPS; j++)
			big_property(s, &o->props[j], j);
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
	c->current.filter = "bilinear";
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
	UNIT_CHECK(!t_state_same(s, &back), "round trip of %u outputs",
		   s->noutput);
	mmx_state_clear(&back);
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

	mmx_state_clear(&st);
	UNIT_CHECK(!round_trip(&st, &len), "empty state");
	UNIT_CHECK(len == 69, "an empty state is %zu bytes", len);
	for (n = 0; n <= 2; n++) {
		state_fill(&st, n, 7);
		UNIT_CHECK(!round_trip(&st, NULL), "%u outputs", n);
	}
	state_fill(&st, 1, 0);
	UNIT_CHECK(!round_trip(&st, NULL), "an output without modes");
	state_max(&st);
	UNIT_CHECK(!round_trip(&st, &len), "1.x's limits and beyond");
	printf("records of 16 outputs of 64 modes and 32 properties: %zu bytes\n",
	       len);
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
	mmx_state_clear(&back);
	/* out of S31.32's range or not finite: the encoder refuses */
	st.crtcs[0].current.matrix[3] = 32768.0;
	CHECK_ENC(&st, -ERANGE);
	st.crtcs[0].current.matrix[3] = NAN;
	CHECK_ENC(&st, -ERANGE);
	state_fill(&st, 1, 1);
	st.crtcs[0].pending.matrix[0] = -INFINITY;
	CHECK_ENC(&st, -ERANGE);
	/* strings longer than a length byte says: the encoder refuses */
	state_fill(&st, 1, 1);
	st.outputs[0].name = long_str(&st, 'o', BIG_STR + 1);
	CHECK_ENC(&st, -E2BIG);
	state_fill(&st, 1, 1);
	st.outputs[0].props[1].enums[0].name = long_str(&st, 'e', 300);
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
 * Safe to use: the encoder walks every array by its count and takes every
 * string (ASan sees a count above its array); a flipped matrix byte may
 * decode to an entry the encoder refuses (-ERANGE), harmless to a reader.
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
 * whose counts and strings are those of its arrays).
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

/* *@b: a deep copy of @a to change one field of. */
static void state_copy(struct mmx_state *b, const struct mmx_state *a)
{
	mmx_state_clear(b);
	if (mmx_state_copy(b, a))
		abort();
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
	CHECK_ERR(decode_patched(buf, len, 60, UINT32_MAX), -EBADMSG);
	CHECK_ERR(decode_patched(buf, len, 64, 1u << 20), -EBADMSG);
	/* 3 CRTCs where there are 2: the bytes run out or a count is wrong */
	ret = decode_patched(buf, len, 60, 3);
	UNIT_CHECK(ret == -EBADMSG, "3 CRTCs: %d", ret);
	/* a NUL in the driver's name */
	CHECK_ERR(decode_patched(buf, len, 68, 'm' << 8 | 3), -EBADMSG);
	/* CRTC 0's parts (after 11 fields at 72): an unknown bit */
	CHECK_ERR(decode_patched(buf, len, 72 + 44, 1u << 3), -EBADMSG);
	CHECK_ERR(decode_patched(buf, len, 72 + 44, 1u << 31), -EBADMSG);

	/* output 0's first mode's name: 32 bytes do not fit its field */
	state_copy(&b, &a);
	b.outputs[0].modes[0].name[8] = '\0';
	UNIT_CHECK(!count_offset(&a, &b, &off), "mode name");
	CHECK_ERR(decode_patched(buf, len, off,
				 ('2' << 24) | ('9' << 16) | ('1' << 8) |
				 MMX_MODE_NAME_LEN), -E2BIG);
	/* output 0's nmode */
	state_copy(&b, &a);
	b.outputs[0].nmode = 2;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nmode");
	CHECK_ERR(decode_patched(buf, len, off, 1u << 24), -EBADMSG);
	ret = decode_patched(buf, len, off, 4);
	UNIT_CHECK(ret == -EBADMSG, "4 modes of 3: %d", ret);
	/* its npreferred, above nmode */
	state_copy(&b, &a);
	b.outputs[0].npreferred = 0;
	UNIT_CHECK(!count_offset(&a, &b, &off), "npreferred");
	CHECK_ERR(decode_patched(buf, len, off, 4), -EBADMSG);
	/* its first property's blob_len and second's nenum */
	state_copy(&b, &a);
	b.outputs[0].props[0].blob_len = 127;
	UNIT_CHECK(!count_offset(&a, &b, &off), "blob_len");
	CHECK_ERR(decode_patched(buf, len, off, 1u << 20), -EBADMSG);
	CHECK_ERR(decode_patched(buf, len, off, 0x7fffffff), -EBADMSG);
	state_copy(&b, &a);
	b.outputs[0].props[1].nenum = 3;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nenum");
	CHECK_ERR(decode_patched(buf, len, off, 1u << 16), -EBADMSG);
	/* output 1's nprop */
	state_copy(&b, &a);
	b.outputs[1].nprop = 4;
	UNIT_CHECK(!count_offset(&a, &b, &off), "nprop");
	CHECK_ERR(decode_patched(buf, len, off, 1u << 16), -EBADMSG);
	mmx_state_clear(&a);
	mmx_state_clear(&b);
	free(buf);
	return 0;
}

/* An enum property of the values @names, the first set. */
#define ENUM_PROP(s, p, name, id, names)				\
	t_enum_prop((s), (p), (name), MMX_PROP_ENUM, 0, (id), (names),	\
		    UNIT_N(names), 0)

/*
 * The properties of a real DisplayPort output, as mmx and the usual KMS
 * drivers show them (with libmmx's synthetic ConnectorType and
 * ConnectorNumber): a 256-byte EDID (a base block and a CTA extension),
 * DPMS, link-status, non-desktop, TILE, Broadcast RGB, content type,
 * max bpc, Colorspace, HDR_OUTPUT_METADATA, vrr_capable, SignalFormat,
 * SignalProperties, ConnectorType, ConnectorNumber.
 */
static void output_props_usual(struct mmx_state *s, struct mmx_output_info *o,
			       uint32_t i)
{
	static const char *const dpms[] = { "On", "Standby", "Suspend", "Off" };
	static const char *const link[] = { "Good", "Bad" };
	static const char *const rgb[] = {
		"Automatic", "Full", "Limited 16:235",
	};
	static const char *const content[] = {
		"No Data", "Graphics", "Photo", "Cinema", "Game",
	};
	static const char *const colorspace[] = {
		"Default", "BT709_YCC", "XVYCC_601", "XVYCC_709", "SYCC_601",
		"opYCC_601", "opRGB", "BT2020_CYCC", "BT2020_RGB",
		"BT2020_YCC", "DCI-P3_RGB_D65", "DCI-P3_RGB_Theater",
	};
	static const char *const format[] = { "DisplayPort" };
	static const char *const sigprops[] = {
		"Lane1+LowSpeed", "Lane1+HiSpeed", "Lane2+LowSpeed",
		"Lane2+HiSpeed", "Lane4+LowSpeed", "Lane4+HiSpeed",
	};
	static const char *const ctypes[] = {
		"unknown", "VGA", "DVI", "DVI-I", "DVI-A", "DVI-D", "HDMI",
		"Panel", "TV", "TV-Composite", "TV-SVideo", "TV-Component",
		"TV-SCART", "TV-C4", "DisplayPort",
	};
	struct mmx_property *p;

	o->nprop = 15;
	o->props = p = t_alloc(s, o->nprop, sizeof(*p));
	prop_blob(s, p++, "EDID", 10 + i, 256);
	ENUM_PROP(s, p++, "DPMS", 2, dpms);
	ENUM_PROP(s, p++, "link-status", 5, link);
	t_range_prop(s, p++, "non-desktop", MMX_PROP_RANGE, MMX_PROP_IMMUTABLE,
		     6, 0, 1, 0);
	t_blob_prop(s, p++, "TILE", MMX_PROP_IMMUTABLE, 7, 0, 0);
	ENUM_PROP(s, p++, "Broadcast RGB", 8, rgb);
	ENUM_PROP(s, p++, "content type", 9, content);
	t_range_prop(s, p++, "max bpc", MMX_PROP_RANGE, 0, 11, 8, 12, 8);
	ENUM_PROP(s, p++, "Colorspace", 12, colorspace);
	t_blob_prop(s, p++, "HDR_OUTPUT_METADATA", 0, 13, 0, 0);
	t_range_prop(s, p++, "vrr_capable", MMX_PROP_RANGE, MMX_PROP_IMMUTABLE,
		     14, 0, 1, 0);
	ENUM_PROP(s, p++, "SignalFormat", 15, format);
	ENUM_PROP(s, p++, "SignalProperties", 16, sigprops);
	ENUM_PROP(s, p++, "ConnectorType", 0, ctypes);
	t_range_prop(s, p, "ConnectorNumber", MMX_PROP_RANGE,
		     MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC, 0, 0, 8, i + 1);
}

/*
 * @n outputs as a real screen has them, each lit on its CRTC: 20 modes
 * (output_fill()'s), the usual 15 properties with a 256-byte EDID.
 */
static void state_usual(struct mmx_state *s, uint32_t n)
{
	uint32_t i;

	state_fill(s, n, 20);
	for (i = 0; i < n; i++)
		output_props_usual(s, &s->outputs[i], i);
}

/*
 * The size of a GET_STATE reply: for two outputs of ten modes and five
 * properties (a 128-byte EDID), both CRTCs lit, checked to the byte (the
 * records' layout); for 2 and 8 outputs as real screens have them.
 */
static int test_get_state_size(void)
{
	const size_t frame = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
	size_t len, two;

	state_fill(&st, 2, 10);
	UNIT_CHECK(!round_trip(&st, &len), "two outputs");
	printf("GET_STATE reply, 2 outputs of 10 modes and 5 properties: %zu bytes (%zu of records)\n",
	       frame + len, len);
	UNIT_CHECK(len == 2626, "the records are %zu bytes", len);

	state_usual(&st, 2);
	UNIT_CHECK(!round_trip(&st, &two), "two usual outputs");
	state_usual(&st, 8);
	UNIT_CHECK(!round_trip(&st, &len), "eight usual outputs");
	printf("GET_STATE for 2 outputs: %zu bytes; for 8 outputs: %zu bytes (20 modes, 15 properties, a 256-byte EDID each)\n",
	       frame + two, frame + len);
	UNIT_CHECK(len < MMX_PROTO_MAX_REQUEST, "8 outputs: %zu bytes", len);
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

	UNIT_CHECK(mmx_output_property(&st.outputs[0], "DPMS") ==
		   &st.outputs[0].props[1] &&
		   !mmx_output_property(&st.outputs[0], "dpms"), "property");

	/* a state without arrays: no output, no CRTC, whatever the counts */
	mmx_state_clear(&st);
	st.noutput = 3;
	st.ncrtc = UINT32_MAX;
	UNIT_CHECK(!mmx_state_noutputs(&st) && !mmx_state_ncrtcs(&st) &&
		   !mmx_state_output_at(&st, 0) && !mmx_state_crtc_at(&st, 0) &&
		   !mmx_state_output(&st, 50) &&
		   !strcmp(mmx_state_driver(&st), ""), "no arrays");

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

/* A string of @n bytes @c, owned by @c's config. */
static const char *cfg_str(struct mmx_config *c, char ch, size_t n)
{
	char *str = mmx_arena_calloc(&c->arena, n + 1, 1);

	if (!str)
		abort();
	memset(str, ch, n);
	return str;
}

/* The change of output 40 + @k, of every kind of field; @k varies values. */
static struct mmx_output_change *change_fill(struct mmx_config *cf,
					     uint32_t k, uint32_t nprop,
					     int long_strings)
{
	static const double odd[9] = {
		1.0 / 3, -0.0, 1e-300, 2.5e-10, -32767.99, 0.1, 1e-5, -1e-5, 1,
	};
	struct mmx_output_change *c = mmx_config_output(cf, 40 + k);
	char name[16], value[16];
	uint32_t i;

	if (!c)
		abort();
	c->flags = MMX_CHANGE_MODE | MMX_CHANGE_POS | MMX_CHANGE_ROTATION |
		   MMX_CHANGE_TRANSFORM | MMX_CHANGE_PANNING |
		   MMX_CHANGE_CRTC;
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
	c->transform.filter = "bilinear";
	c->transform.identity = k & 1;
	c->panning = (struct mmx_panning_info){
		.left = k, .top = 2 * k, .width = 1000 + k, .height = 700,
		.track_left = 1, .track_top = 2, .track_width = 3,
		.track_height = 4, .border_left = -5, .border_top = 6,
		.border_right = -7, .border_bottom = 8,
	};
	for (i = 0; i < nprop; i++) {
		snprintf(name, sizeof(name), "prop%u", i);
		snprintf(value, sizeof(value), "%u", k * i);
		if (mmx_config_output_set_prop(cf, c->output,
					       long_strings ?
					       cfg_str(cf, 'a' + (char)i, 255) :
					       name,
					       long_strings ?
					       cfg_str(cf, 'A' + (char)i, 255) :
					       value))
			abort();
	}
	return c;
}

/* 1.x's limits: 16 changes of 8 properties, every string 255 bytes. */
static void config_full(struct mmx_config *c)
{
	uint32_t k;

	mmx_config_clear(c);
	c->flags = MMX_CONFIG_SCREEN_SIZE | MMX_CONFIG_PRIMARY |
		   MMX_CONFIG_PAN_MODE | MMX_CONFIG_TEST_ONLY;
	c->screen_width = 4096;
	c->screen_height = 2160;
	c->primary = 41;
	c->pan_mode = MMX_PAN_JOINT;
	for (k = 0; k < 16; k++)
		change_fill(c, k, 8, 1);
}

/* Change @k of @a and @b: the same, field by field, doubles bit for bit. */
static int change_same(const struct mmx_output_change *a,
		       const struct mmx_output_change *b, uint32_t k)
{
	uint32_t i;

	UNIT_CHECK(a->output == b->output && a->flags == b->flags &&
		   a->x == b->x && a->y == b->y &&
		   a->rotation == b->rotation && a->crtc == b->crtc,
		   "change %u: fixed fields", k);
	UNIT_CHECK(!memcmp(&a->mode, &b->mode, sizeof(a->mode)),
		   "change %u: mode", k);
	UNIT_CHECK(!memcmp(a->transform.matrix, b->transform.matrix,
			   sizeof(a->transform.matrix)),
		   "change %u: matrix not bit for bit", k);
	UNIT_CHECK(t_str_same(a->transform.filter, b->transform.filter) &&
		   a->transform.identity == b->transform.identity,
		   "change %u: filter, identity", k);
	UNIT_CHECK(!memcmp(&a->panning, &b->panning, sizeof(a->panning)),
		   "change %u: panning", k);
	UNIT_CHECK(a->nprop == b->nprop, "change %u: nprop", k);
	for (i = 0; i < a->nprop; i++)
		UNIT_CHECK(!strcmp(a->props[i].name, b->props[i].name) &&
			   !strcmp(a->props[i].value, b->props[i].value),
			   "change %u: property %u", k, i);
	return 0;
}

/* Encode @c, decode it into back: 0 when equal field by field. */
static int config_round_trip(const struct mmx_config *c, size_t *bytes)
{
	uint8_t *buf;
	size_t len;
	uint32_t k;

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
	for (k = 0; k < c->nchange; k++)
		if (change_same(c->changes[k], cback.changes[k], k))
			return -1;
	return 0;
}

static int test_config_round_trip(void)
{
	size_t bytes, one;
	struct mmx_output_change *c;

	mmx_config_clear(&cfg);
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "empty");
	UNIT_CHECK(bytes == 24, "an empty config takes %zu bytes", bytes);

	/* an output turned off: its fixed fields and an empty filter */
	c = mmx_config_output(&cfg, 51);
	c->flags = MMX_CHANGE_OFF;
	UNIT_CHECK(!config_round_trip(&cfg, &one), "one off");
	UNIT_CHECK(one == 24 + 7 * 4 + 4 + 1 + 4, "off takes %zu bytes",
		   one - 24);

	/* a few properties on a second output, short strings */
	change_fill(&cfg, 2, 3, 0);
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "two");
	/* a property set again keeps its place, with the new value */
	UNIT_CHECK(!mmx_config_output_set_prop(&cfg, 42, "prop1", "x") &&
		   mmx_config_output(&cfg, 42)->nprop == 3 &&
		   !strcmp(mmx_config_output(&cfg, 42)->props[1].value, "x"),
		   "property set again");

	/* special doubles travel as they are */
	c->flags |= MMX_CHANGE_TRANSFORM;
	c->transform.matrix[0] = INFINITY;
	c->transform.matrix[4] = NAN;
	c->transform.matrix[8] = 1e300;
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "special doubles");

	config_full(&cfg);
	UNIT_CHECK(!config_round_trip(&cfg, &bytes), "fullest");
	printf("16 changes of 8 properties, 255-byte strings: %zu bytes of records\n",
	       bytes);
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

	mmx_config_clear(&cfg);
	cfg.flags = MMX_CONFIG_PRIMARY;
	cfg.primary = 41;
	change_fill(&cfg, 0, 2, 0);
	change_fill(&cfg, 1, 1, 1);
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

	mmx_config_clear(&cfg);
	UNIT_CHECK(!mmx_config_output_set_prop(&cfg, 7, "abc", "1"), "set");
	UNIT_CHECK(mmx_config_output(&cfg, 7)->flags == MMX_CHANGE_PROPS,
		   "flags");
	UNIT_CHECK(!mmx_wire_encode_config(&cfg, &buf, &len), "encode");
	UNIT_CHECK(len == name + 1 + 3 + 1 + 1, "layout: %zu bytes", len);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, 1u << 20),
		  -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, 2), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, OFF_NCHANGE, 0), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, parts, 1u << 3), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, parts, 1u << 0), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, nprop, 1u << 20), -EBADMSG);
	CHECK_ERR(codec_patched(c, buf, len, nprop, 2), -EBADMSG);
	/* a NUL inside a string; a string longer than what follows */
	buf[name + 2] = 0;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), -EBADMSG);
	buf[name + 2] = 'b';
	buf[name] = 32;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), -EBADMSG);
	buf[name] = 3;
	CHECK_ERR(mmx_wire_decode_config(buf, len, &cback), 0);
	free(buf);

	/* the encoder refuses strings longer than a length byte says */
	UNIT_CHECK(!mmx_config_output_set_prop(&cfg, 7, "abc",
					       cfg_str(&cfg, 'v', 256)),
		   "set");
	CHECK_ERR(mmx_wire_encode_config(&cfg, &buf, &len), -E2BIG);
	UNIT_CHECK(!buf && !len, "output on error");
	mmx_config_clear(&cfg);
	mmx_config_clear(&cback);
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
	{ "get-state-size", "GET_STATE reply bytes for 2 outputs (checked), 2 and 8 usual ones",
	  test_get_state_size },
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
