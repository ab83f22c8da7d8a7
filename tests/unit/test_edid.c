// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_edid.c: the sink presets, their EDIDs, the validation
 * of uploaded EDIDs, the detailed timing decoder and the signal a sink
 * gets.
 *
 * Oracles: the EDID bytes are parsed again here by hand (VESA E-EDID 1.4
 * layout), independently of mmx_edid.c; established, standard and CTA-861
 * timings resolve through tables copied from DRM's drivers/gpu/drm/
 * drm_edid.c (drm_dmt_modes, edid_cea_modes_1); edid-decode --check (Debian
 * package edid-decode) judges every preset when /usr/bin/edid-decode exists.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/wait.h>

#include "mmx_edid.h"
#include "tests/mmx_test_edid_sum.h"
#include "unit.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define P(x) MMX_SIGPROP(MMX_SIGPROP_##x)
#define F(x) MMX_SIGNAL_FMT(MMX_SIGNAL_##x)

#ifndef EDID_DECODE
#define EDID_DECODE "/usr/bin/edid-decode"
#endif

static const uint8_t edid_header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };

/* Timings reached through established, standard and CTA-861 codes. */
struct ref_timing {
	uint16_t w, h, refresh;
	uint32_t clock;
	uint16_t htotal, vtotal;
	int interlace;
};

/* drm_edid.c drm_dmt_modes (non reduced-blanking, as DRM picks them). */
static const struct ref_timing dmt[] = {
	{ 640, 480, 60, 25175, 800, 525, 0 },		/* 0x04 */
	{ 800, 600, 60, 40000, 1056, 628, 0 },		/* 0x09 */
	{ 1024, 768, 60, 65000, 1344, 806, 0 },		/* 0x10 */
	{ 1152, 864, 75, 108000, 1600, 900, 0 },	/* 0x15 */
	{ 1280, 800, 60, 83500, 1680, 831, 0 },		/* 0x1c */
	{ 1280, 960, 60, 108000, 1800, 1000, 0 },	/* 0x20 */
	{ 1280, 1024, 60, 108000, 1688, 1066, 0 },	/* 0x23 */
	{ 1680, 1050, 60, 146250, 2240, 1089, 0 },	/* 0x3a */
	{ 1920, 1200, 60, 193250, 2592, 1245, 0 },	/* 0x45 */
	{ 1920, 1080, 60, 148500, 2200, 1125, 0 },	/* 0x52 */
	{ 1280, 720, 60, 74250, 1650, 750, 0 },		/* 0x55 */
};

/* Established timing bits (byte 35 bit 7 = bit 23) the presets use. */
static const struct {
	uint32_t bit;
	uint16_t w, h, refresh;
} established[] = {
	{ MMX_EDID_EST_640X480_60, 640, 480, 60 },
	{ MMX_EDID_EST_800X600_60, 800, 600, 60 },
	{ MMX_EDID_EST_1024X768_60, 1024, 768, 60 },
};

/* drm_edid.c edid_cea_modes_1, VIC = index + 1, for VICs 1 to 5 and 16. */
static const struct ref_timing cea[16] = {
	{ 640, 480, 60, 25175, 800, 525, 0 },
	{ 720, 480, 60, 27000, 858, 525, 0 },
	{ 720, 480, 60, 27000, 858, 525, 0 },
	{ 1280, 720, 60, 74250, 1650, 750, 0 },
	{ 1920, 1080, 60, 74250, 2200, 1125, 1 },
	[15] = { 1920, 1080, 60, 148500, 2200, 1125, 0 },
};

static const struct ref_timing *find_dmt(unsigned int w, unsigned int h,
					 unsigned int r)
{
	size_t i;

	for (i = 0; i < N(dmt); i++)
		if (dmt[i].w == w && dmt[i].h == h && dmt[i].refresh == r)
			return &dmt[i];
	return NULL;
}


/* The display descriptor with @tag in the base block, or NULL. */
static const uint8_t *find_desc(const uint8_t *e, uint8_t tag)
{
	int i;

	for (i = 0; i < 4; i++) {
		const uint8_t *d = e + 54 + 18 * i;

		if (!d[0] && !d[1] && d[3] == tag)
			return d;
	}
	return NULL;
}

struct range {
	unsigned int vmin, vmax, hmin, hmax, clock_mhz;
};

/* Whether a timing lies within the range limits (exact integer tests). */
static int in_range(const struct range *r, uint32_t clock, unsigned int htotal,
		    unsigned int vtotal, int interlace)
{
	uint64_t lines = (uint64_t)htotal * vtotal;
	uint64_t field = (uint64_t)clock * 1000 * (interlace ? 2 : 1);

	return (uint64_t)r->hmin * htotal <= clock &&
	       clock <= (uint64_t)r->hmax * htotal &&
	       r->vmin * lines <= field && field <= r->vmax * lines &&
	       clock <= r->clock_mhz * 1000;
}

static int same_timing(const struct mmx_timing *a, const struct mmx_timing *b)
{
	return a->clock_khz == b->clock_khz && a->hdisplay == b->hdisplay &&
	       a->hsync_start == b->hsync_start && a->hsync_end == b->hsync_end &&
	       a->htotal == b->htotal && a->vdisplay == b->vdisplay &&
	       a->vsync_start == b->vsync_start && a->vsync_end == b->vsync_end &&
	       a->vtotal == b->vtotal && a->flags == b->flags;
}

static const struct {
	enum mmx_sink_id id;
	const char *name;
	int size;
	int revision;
} presets[] = {
#include "tests/mmx_cases_edid_preset.h"
};

/*
 * From sink *@i on, the first that has an EDID, built into @e (its size
 * in *@n), with *@i its index; NULL after the last sink.
 */
static const struct mmx_sink *edid_from(size_t *i, uint8_t *e, int *n)
{
	for (; *i < MMX_SINK_COUNT; (*i)++) {
		*n = mmx_edid_build(&mmx_sinks[*i], e, MMX_EDID_MAX_SIZE);
		if (*n > 0)
			return &mmx_sinks[*i];
	}
	return NULL;
}

/* Every sink @s (index @i) that has an EDID, built into @e, @n bytes. */
#define for_each_edid(s, i, e, n) \
	for ((i) = 0; ((s) = edid_from(&(i), (e), &(n))); (i)++)

static int test_presets_build(void)
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	size_t i;
	int n, b;

	UNIT_CHECK(N(presets) == MMX_SINK_COUNT, "table");
	for (i = 0; i < N(presets); i++) {
		const struct mmx_sink *s = &mmx_sinks[presets[i].id];

		UNIT_CHECK(!strcmp(s->name, presets[i].name), "%zu: name %s",
			   i, s->name);
		memset(e, 0xa5, sizeof(e));
		n = mmx_edid_build(s, e, sizeof(e));
		UNIT_CHECK(n == presets[i].size, "%s: %d bytes", s->name, n);
		UNIT_CHECK(!n == !s->has_edid, "%s: has_edid", s->name);
		if (!n)
			continue;
		UNIT_CHECK(!memcmp(e, edid_header, 8), "%s: header", s->name);
		UNIT_CHECK(e[18] == 1 && e[19] == presets[i].revision,
			   "%s: version %u.%u", s->name, e[18], e[19]);
		UNIT_CHECK(e[126] == n / 128 - 1, "%s: %u extensions", s->name,
			   e[126]);
		for (b = 0; b < n / 128; b++)
			UNIT_CHECK(mmx_test_edid_sum_ok(e + 128 * b), "%s: block %d checksum",
				   s->name, b);
		/* Digital flag, and for 1.4 the interface and depth. */
		UNIT_CHECK(!!(e[20] & 0x80) == s->digital, "%s: digital",
			   s->name);
		if (s->digital && e[19] == 4)
			UNIT_CHECK((e[20] & 0x0f) == s->iface &&
				   (e[20] >> 4 & 7) == (s->bpc - 4) / 2,
				   "%s: byte 20 %#x", s->name, e[20]);
		UNIT_CHECK(e[21] == s->width_cm && e[22] == s->height_cm,
			   "%s: size", s->name);
		/* Timings go first in 1.4: bit 1 of byte 24 must be set. */
		UNIT_CHECK(e[24] & 0x02, "%s: preferred timing bit", s->name);
		UNIT_CHECK(e[54] || e[55], "%s: first descriptor is no DTD",
			   s->name);
	}
	return 0;
}

/* Run @check on every preset that has an EDID (index @i, built into @e). */
static int each_edid(int (*check)(const struct mmx_sink *s, size_t i,
				  const uint8_t *e))
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	const struct mmx_sink *s;
	size_t i;
	int n;

	for_each_edid(s, i, e, n)
		if (check(s, i, e))
			return -1;
	return 0;
}

static int check_vendor_product(const struct mmx_sink *s, size_t i,
				const uint8_t *e)
{
	uint16_t v = e[8] << 8 | e[9];
	char id[4];

	(void)i;
	id[0] = '@' + (v >> 10 & 31);
	id[1] = '@' + (v >> 5 & 31);
	id[2] = '@' + (v & 31);
	id[3] = 0;
	UNIT_CHECK(!(v & 0x8000) && !strcmp(id, "MMX"), "%s: vendor %s",
		   s->name, id);
	UNIT_CHECK((e[10] | e[11] << 8) == s->product, "%s: product", s->name);
	UNIT_CHECK((uint32_t)(e[12] | e[13] << 8 | e[14] << 16 |
			      (uint32_t)e[15] << 24) == s->serial,
		   "%s: serial", s->name);
	UNIT_CHECK(e[16] == s->week && 1990 + e[17] == s->year, "%s: date",
		   s->name);
	return 0;
}

static int test_vendor_product(void)
{
	return each_edid(check_vendor_product);
}

static int check_name_descriptor(const struct mmx_sink *s, size_t i,
				 const uint8_t *e)
{
	const uint8_t *d = find_desc(e, 0xfc);
	char name[14];
	int k;

	UNIT_CHECK(d, "%s: no name descriptor", s->name);
	for (k = 0; k < 13 && d[5 + k] != 0x0a; k++)
		name[k] = d[5 + k];
	name[k] = 0;
	UNIT_CHECK(!strcmp(name, s->monitor_name), "%s: name '%s'", s->name,
		   name);
	for (k++; k < 13; k++)
		UNIT_CHECK(d[5 + k] == 0x20, "%s: padding", s->name);
	/* Two distinct presets never share a name or product. */
	for (k = 0; k < (int)i; k++)
		UNIT_CHECK(!mmx_sinks[k].monitor_name ||
			   (strcmp(mmx_sinks[k].monitor_name, s->monitor_name) &&
			    mmx_sinks[k].product != s->product),
			   "%s: same as %s", s->name, mmx_sinks[k].name);
	return 0;
}

static int test_name_descriptor(void)
{
	return each_edid(check_name_descriptor);
}

/* Range limits cover every detailed, established, standard and CTA timing. */
/*
 * The detailed timings of an EDID: the base block's descriptors in order,
 * then those of its CTA-861 extensions, each decoded by the builder's own
 * decoder (mmx_edid_dtd_decode()). At most @max; returns how many.
 */
static int edid_timings(const uint8_t *e, size_t len, struct mmx_timing *out,
			unsigned int max)
{
	unsigned int n = 0, i, off;
	const uint8_t *b;
	size_t blk;

	for (i = 0; i < 4 && n < max; i++) {
		b = e + 54 + 18 * i;
		if (b[0] || b[1])
			mmx_edid_dtd_decode(b, &out[n++]);
	}
	for (blk = 1; blk < len / 128; blk++) {
		b = e + blk * 128;
		if (b[0] != 0x02 || b[2] < 4)
			continue;
		for (off = b[2]; off + 18 <= 127 && n < max && (b[off] || b[off + 1]);
		     off += 18)
			mmx_edid_dtd_decode(b + off, &out[n++]);
	}
	return n;
}

static int test_range_covers_timings(void)
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	struct mmx_timing t[8];
	const struct mmx_sink *s;
	size_t i, k;
	int n, j;

	for_each_edid(s, i, e, n) {
		const uint8_t *d = find_desc(e, 0xfd);
		struct range r;
		uint32_t est;


		UNIT_CHECK(d, "%s: no range descriptor", s->name);
		UNIT_CHECK(d[4] == 0, "%s: range offsets", s->name);
		r.vmin = d[5];
		r.vmax = d[6];
		r.hmin = d[7];
		r.hmax = d[8];
		r.clock_mhz = d[9] * 10;
		UNIT_CHECK(r.vmin == s->range.vmin_hz && r.vmax == s->range.vmax_hz &&
			   r.hmin == s->range.hmin_khz &&
			   r.hmax == s->range.hmax_khz &&
			   r.clock_mhz == s->range.max_clock_mhz,
			   "%s: range bytes", s->name);

		for (k = 0; k < s->num_timings; k++) {
			const struct mmx_timing *p = &s->timings[k];

			UNIT_CHECK(in_range(&r, p->clock_khz, p->htotal,
					    p->vtotal,
					    p->flags & MMX_TIMING_INTERLACE),
				   "%s: DTD %s out of range", s->name, p->name);
		}

		est = e[35] << 16 | e[36] << 8 | e[37];
		UNIT_CHECK(est == s->established, "%s: established %#x",
			   s->name, est);
		for (k = 0; k < N(established); k++) {
			const struct ref_timing *m;

			if (!(est & established[k].bit))
				continue;
			est &= ~established[k].bit;
			m = find_dmt(established[k].w, established[k].h,
				     established[k].refresh);
			UNIT_CHECK(m && in_range(&r, m->clock, m->htotal,
						 m->vtotal, 0),
				   "%s: established %ux%u out of range",
				   s->name, established[k].w, established[k].h);
		}
		UNIT_CHECK(!est, "%s: established bits %#x not in the test table",
			   s->name, est);

		for (j = 0; j < 8; j++) {
			const uint8_t *st = e + 38 + 2 * j;
			unsigned int w, h, rate;
			const struct ref_timing *m;

			if (st[0] == 1 && st[1] == 1) {
				UNIT_CHECK(j >= (int)s->num_std, "%s: std %d unused",
					   s->name, j);
				continue;
			}
			UNIT_CHECK(j < (int)s->num_std, "%s: std %d", s->name, j);
			w = (st[0] + 31) * 8;
			switch (st[1] >> 6) {
			case 0:
				h = w * 10 / 16;
				break;
			case 1:
				h = w * 3 / 4;
				break;
			case 2:
				h = w * 4 / 5;
				break;
			default:
				h = w * 9 / 16;
				break;
			}
			rate = (st[1] & 0x3f) + 60;
			UNIT_CHECK(w == s->std[j].hdisplay &&
				   h == s->std[j].vdisplay &&
				   rate == s->std[j].refresh,
				   "%s: std %d is %ux%u@%u", s->name, j, w, h, rate);
			m = find_dmt(w, h, rate);
			UNIT_CHECK(m, "%s: std %ux%u@%u not DMT", s->name, w, h,
				   rate);
			UNIT_CHECK(in_range(&r, m->clock, m->htotal, m->vtotal, 0),
				   "%s: std %ux%u@%u out of range", s->name, w, h,
				   rate);
		}

		for (k = 0; k < s->num_vics; k++) {
			const struct ref_timing *c = &cea[s->vics[k] - 1];

			UNIT_CHECK(s->vics[k] <= N(cea) && c->clock,
				   "%s: VIC %u not in the test table", s->name,
				   s->vics[k]);
			UNIT_CHECK(in_range(&r, c->clock, c->htotal, c->vtotal,
					    c->interlace),
				   "%s: VIC %u out of range", s->name, s->vics[k]);
		}

		/* Decoded timings too (the DTDs of every block). */
		n = edid_timings(e, n, t, N(t));
		UNIT_CHECK(n == (int)s->num_timings, "%s: %d DTDs", s->name, n);
		for (j = 0; j < n; j++)
			UNIT_CHECK(in_range(&r, t[j].clock_khz, t[j].htotal,
					    t[j].vtotal,
					    t[j].flags & MMX_TIMING_INTERLACE),
				   "%s: decoded DTD %d out of range", s->name, j);
	}
	return 0;
}

static int test_dtd_roundtrip(void)
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	struct mmx_timing t[8];
	const struct mmx_sink *s;
	size_t i;
	int n, j;

	for_each_edid(s, i, e, n) {
		const uint8_t *d;

		n = edid_timings(e, n, t, N(t));
		UNIT_CHECK(n == (int)s->num_timings, "%s: %d timings", s->name,
			   n);
		for (j = 0; j < n; j++) {
			UNIT_CHECK(same_timing(&t[j], &s->timings[j]),
				   "%s: DTD %d is %ux%u %u kHz", s->name, j,
				   t[j].hdisplay, t[j].vdisplay, t[j].clock_khz);
			UNIT_CHECK(!t[j].name, "%s: decoded name", s->name);
			/* Image size in mm, from the size in cm. */
			d = e + 54 + 18 * j;
			UNIT_CHECK((d[12] | (d[14] & 0xf0) << 4) ==
				   s->width_cm * 10 &&
				   (d[13] | (d[14] & 0x0f) << 8) ==
				   s->height_cm * 10, "%s: DTD size", s->name);
		}
		/* Room for one only. */
		UNIT_CHECK(edid_timings(e, s->has_edid ? 128u * (e[126] + 1) : 0,
					t, 1) == 1, "%s: max 1", s->name);
		UNIT_CHECK(same_timing(&t[0], &s->timings[0]), "%s: first",
			   s->name);
	}
	return 0;
}

/*
 * A custom sink with interlaced timings and a third timing, which goes to
 * the CTA-861 extension: the decoder must give the frame timings back.
 */
static int test_interlaced_and_cta_dtds(void)
{
	static const struct mmx_timing timings[] = {
		{ 74250, 1920, 2008, 2052, 2200, 1080, 1084, 1094, 1125,
		  MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC | MMX_TIMING_INTERLACE,
		  "1920x1080i" },
		{ 13500, 720, 732, 795, 864, 576, 580, 586, 625,
		  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
		  "720x576i" },
		{ 13500, 720, 739, 801, 858, 480, 488, 494, 525,
		  MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
		  "720x480i" },
	};
	static const uint8_t vics[] = { 5 };
	struct mmx_sink s = mmx_sinks[MMX_SINK_HDMI];
	uint8_t e[MMX_EDID_MAX_SIZE];
	struct mmx_timing t[4];
	int n, j;

	s.timings = timings;
	s.num_timings = N(timings);
	s.vics = vics;
	s.num_vics = N(vics);
	n = mmx_edid_build(&s, e, sizeof(e));
	UNIT_CHECK(n == 256, "built %d", n);
	UNIT_CHECK(mmx_test_edid_sum_ok(e) && mmx_test_edid_sum_ok(e + 128), "checksums");
	/* The field values: 1080i has 540 active lines per field. */
	UNIT_CHECK(e[54 + 5] == (540 & 0xff) && (e[54 + 7] >> 4) == 540 >> 8 &&
		   (e[54 + 17] & 0x80), "1080i field");
	n = edid_timings(e, n, t, N(t));
	UNIT_CHECK(n == 3, "%d timings", n);
	for (j = 0; j < n; j++)
		UNIT_CHECK(same_timing(&t[j], &timings[j]), "timing %d", j);
	/* Without VICs there is no room for three. */
	s.num_vics = 0;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "3 DTDs");
	return 0;
}

static int test_build_errors(void)
{
	static const struct mmx_timing odd_clock[] = { {
		154005, 1920, 1968, 2000, 2080, 1200, 1203, 1209, 1235,
		MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "odd" } };
	static const struct mmx_timing too_wide[] = { {
		600000, 5000, 5048, 5080, 5200, 1200, 1203, 1209, 1235,
		MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "wide" } };
	static const struct mmx_timing no_sync[] = { {
		154000, 1920, 1968, 1968, 2080, 1200, 1203, 1209, 1235,
		MMX_TIMING_PHSYNC | MMX_TIMING_NVSYNC, "nosync" } };
	static const struct mmx_std_timing bad_aspect[] = { { 1360, 768, 60 } };
	static const struct mmx_std_timing too_wide_std[] = { { 2560, 1440, 60 } };
	uint8_t e[MMX_EDID_MAX_SIZE];
	struct mmx_sink s;

	UNIT_CHECK(mmx_edid_build(&mmx_sinks[MMX_SINK_VGA], e, 127) == -ENOSPC,
		   "127 bytes");
	UNIT_CHECK(mmx_edid_build(&mmx_sinks[MMX_SINK_HDMI], e, 128) == -ENOSPC,
		   "hdmi in 128 bytes");
	UNIT_CHECK(mmx_edid_build(&mmx_sinks[MMX_SINK_NONE], e, 0) == 0, "none");

	s = mmx_sinks[MMX_SINK_DVI];
	s.monitor_name = "MMX NAME 14 CH";
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "long name");
	s = mmx_sinks[MMX_SINK_DVI];
	s.monitor_name = "MMX\tTAB";
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "tab in name");
	s = mmx_sinks[MMX_SINK_DVI];
	s.timings = odd_clock;
	s.num_timings = 1;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "odd clock");
	s.timings = too_wide;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "too wide");
	s.timings = no_sync;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "no sync");
	s = mmx_sinks[MMX_SINK_DVI];
	s.std = bad_aspect;
	s.num_std = 1;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "aspect");
	s.std = too_wide_std;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "std width");
	s = mmx_sinks[MMX_SINK_DVI];
	s.edid_revision = 5;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "revision");
	s = mmx_sinks[MMX_SINK_DVI];
	s.range.max_clock_mhz = 165;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "clock range");
	s = mmx_sinks[MMX_SINK_DVI];
	s.bpc = 7;
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == -EINVAL, "bpc");
	/* One timing: the second slot holds a serial number string. */
	s = mmx_sinks[MMX_SINK_PANEL];
	UNIT_CHECK(mmx_edid_build(&s, e, sizeof(e)) == 128, "panel");
	UNIT_CHECK(find_desc(e, 0xff) && !memcmp(find_desc(e, 0xff) + 5,
						 "MMX-1006\n", 9), "serial");
	return 0;
}

static int test_lookup(void)
{
	size_t i;

	for (i = 0; i < MMX_SINK_COUNT; i++) {
		const char *name = mmx_sinks[i].name;
		char line[32];

		UNIT_CHECK(mmx_sink_lookup(name, strlen(name)) == &mmx_sinks[i],
			   "%s", name);
		snprintf(line, sizeof(line), "%s\n", name);
		UNIT_CHECK(mmx_sink_lookup(line, strlen(line)) == &mmx_sinks[i],
			   "%s with newline", name);
	}
	UNIT_CHECK(!mmx_sink_lookup("dv", 2), "prefix");
	UNIT_CHECK(!mmx_sink_lookup("dvi-x", 5), "longer");
	UNIT_CHECK(!mmx_sink_lookup("DVI", 3), "case");
	UNIT_CHECK(!mmx_sink_lookup("", 0), "empty");
	UNIT_CHECK(mmx_sink_lookup("vga\n\n", 5) == NULL, "two newlines");
	UNIT_CHECK(!mmx_sinks[MMX_SINK_NONE].present, "none present");
	return 0;
}

/* mmx_sink_signal(): kind, sink, current signal -> result. */
static const struct {
	const char *name;
	enum mmx_output_kind kind;
	enum mmx_sink_id sink;
	enum mmx_signal_format format;
	uint64_t props;
	int ret;
	enum mmx_signal_format want_format;
	uint64_t want_props;
} signal_cases[] = {
	{ "dvii-vga-monitor", MMX_KIND_DVII, MMX_SINK_VGA, MMX_SIGNAL_TMDS,
	  P(SINGLE_LINK), 0, MMX_SIGNAL_VGA, 0 },
	{ "dvii-dvi-monitor", MMX_KIND_DVII, MMX_SINK_DVI, MMX_SIGNAL_VGA, 0, 0,
	  MMX_SIGNAL_TMDS, P(SINGLE_LINK) },
	{ "dvii-keeps-dual-link", MMX_KIND_DVII, MMX_SINK_DUAL_LINK,
	  MMX_SIGNAL_TMDS, P(DUAL_LINK), 0, MMX_SIGNAL_TMDS, P(DUAL_LINK) },
	{ "dvid-resolves-default", MMX_KIND_DVID, MMX_SINK_DUAL_LINK,
	  MMX_SIGNAL_TMDS, 0, 0, MMX_SIGNAL_TMDS, P(SINGLE_LINK) },
	{ "hdmi-hdmi-tv", MMX_KIND_HDMIA, MMX_SINK_HDMI, MMX_SIGNAL_TMDS,
	  P(SINGLE_LINK), 0, MMX_SIGNAL_TMDS, P(SINGLE_LINK) },
	{ "hdmi-vga-monitor", MMX_KIND_HDMIA, MMX_SINK_VGA, MMX_SIGNAL_TMDS,
	  P(SINGLE_LINK), -EINVAL, MMX_SIGNAL_TMDS, P(SINGLE_LINK) },
	{ "vga-dvi-monitor", MMX_KIND_VGA, MMX_SINK_DVI, MMX_SIGNAL_VGA, 0,
	  -EINVAL, MMX_SIGNAL_VGA, 0 },
	{ "dp-4k", MMX_KIND_DP, MMX_SINK_DP_4K, MMX_SIGNAL_DISPLAYPORT, 0, 0,
	  MMX_SIGNAL_DISPLAYPORT, P(LANE4) | P(HI_SPEED) },
	{ "dp-keeps-lanes", MMX_KIND_DP, MMX_SINK_DP_4K, MMX_SIGNAL_DISPLAYPORT,
	  P(LANE2) | P(LOW_SPEED), 0, MMX_SIGNAL_DISPLAYPORT,
	  P(LANE2) | P(LOW_SPEED) },
	{ "dp-fixes-bad-props", MMX_KIND_DP, MMX_SINK_DP_4K,
	  MMX_SIGNAL_DISPLAYPORT, P(LANE2), 0, MMX_SIGNAL_DISPLAYPORT,
	  P(LANE4) | P(HI_SPEED) },
	{ "lvds-panel", MMX_KIND_LVDS, MMX_SINK_PANEL, MMX_SIGNAL_LVDS, 0, 0,
	  MMX_SIGNAL_LVDS, 0 },
	{ "edp-panel", MMX_KIND_EDP, MMX_SINK_PANEL, MMX_SIGNAL_DISPLAYPORT, 0,
	  0, MMX_SIGNAL_DISPLAYPORT, P(LANE4) | P(HI_SPEED) },
	{ "composite-pal-tv", MMX_KIND_COMPOSITE, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_COMPOSITE_NTSC, P(NTSC_M), 0, MMX_SIGNAL_COMPOSITE_PAL,
	  P(PAL_B) },
	{ "composite-ntsc-tv", MMX_KIND_COMPOSITE, MMX_SINK_NTSC_TV,
	  MMX_SIGNAL_COMPOSITE_PAL, P(PAL_B), 0, MMX_SIGNAL_COMPOSITE_NTSC,
	  P(NTSC_M) },
	{ "composite-ntsc-tv-keeps-j", MMX_KIND_COMPOSITE, MMX_SINK_NTSC_TV,
	  MMX_SIGNAL_COMPOSITE_NTSC, P(NTSC_J), 0, MMX_SIGNAL_COMPOSITE_NTSC,
	  P(NTSC_J) },
	{ "composite-generic-pal-tv", MMX_KIND_COMPOSITE, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_COMPOSITE, P(NTSC_M), 0, MMX_SIGNAL_COMPOSITE, P(PAL_B) },
	{ "svideo-pal-tv", MMX_KIND_SVIDEO, MMX_SINK_PAL_TV, MMX_SIGNAL_SVIDEO,
	  0, 0, MMX_SIGNAL_SVIDEO, P(PAL_B) },
	{ "svideo-pal-tv-keeps-i", MMX_KIND_SVIDEO, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_SVIDEO, P(PAL_I), 0, MMX_SIGNAL_SVIDEO, P(PAL_I) },
	{ "svideo-pal-tv-no-pal-m", MMX_KIND_SVIDEO, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_SVIDEO, P(PAL_M), 0, MMX_SIGNAL_SVIDEO, P(PAL_B) },
	{ "scart-pal-tv", MMX_KIND_SCART, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_COMPOSITE_PAL, P(PAL_G), 0, MMX_SIGNAL_COMPOSITE_PAL,
	  P(PAL_G) },
	{ "scart-ntsc-tv", MMX_KIND_SCART, MMX_SINK_NTSC_TV,
	  MMX_SIGNAL_COMPOSITE_PAL, P(PAL_G), 0, MMX_SIGNAL_COMPOSITE_NTSC,
	  P(NTSC_M) },
	{ "component-pal-tv", MMX_KIND_COMPONENT, MMX_SINK_PAL_TV,
	  MMX_SIGNAL_COMPONENT, 0, -EINVAL, MMX_SIGNAL_COMPONENT, 0 },
	{ "none", MMX_KIND_DVII, MMX_SINK_NONE, MMX_SIGNAL_TMDS, P(DUAL_LINK),
	  -EINVAL, MMX_SIGNAL_TMDS, P(DUAL_LINK) },
};

static int test_sink_signal(void)
{
	enum mmx_signal_format f;
	u64 p;
	size_t i;
	int ret;

	for (i = 0; i < N(signal_cases); i++) {
		f = signal_cases[i].format;
		p = signal_cases[i].props;
		ret = mmx_sink_signal(&mmx_sinks[signal_cases[i].sink],
				      signal_cases[i].kind, &f, &p);
		UNIT_CHECK(ret == signal_cases[i].ret, "%s: got %d",
			   signal_cases[i].name, ret);
		UNIT_CHECK(f == signal_cases[i].want_format &&
			   p == signal_cases[i].want_props,
			   "%s: got %s %#llx", signal_cases[i].name,
			   mmx_signal_format_names[f].name,
			   (unsigned long long)p);
		if (!ret)
			UNIT_CHECK(!mmx_signal_check(signal_cases[i].kind, f, p),
				   "%s: result refused by check",
				   signal_cases[i].name);
	}
	return 0;
}

/* A sink made from a preset's EDID gets the same signal as the preset. */
static int test_sink_from_edid(void)
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	const struct mmx_sink *s;
	struct mmx_sink raw;
	size_t i;
	unsigned int k;
	int n;

	memset(e, 0, sizeof(e));
	UNIT_CHECK(mmx_sink_from_edid(&raw, e, 100) == -EINVAL, "bad EDID");
	for_each_edid(s, i, e, n) {
		UNIT_CHECK(!mmx_sink_from_edid(&raw, e, n), "%s", s->name);
		UNIT_CHECK(raw.present && raw.has_edid &&
			   raw.digital == s->digital &&
			   raw.product == s->product && raw.serial == s->serial &&
			   raw.year == s->year && raw.week == s->week &&
			   raw.width_cm == s->width_cm &&
			   raw.height_cm == s->height_cm &&
			   raw.edid_revision == s->edid_revision,
			   "%s: fields", s->name);
		if (i == MMX_SINK_PANEL) {
			/* Undefined interface: any digital link. */
			UNIT_CHECK(raw.formats == (F(TMDS) | F(DISPLAYPORT) |
						   F(LVDS)), "panel formats");
			continue;
		}
		UNIT_CHECK(raw.formats == s->formats &&
			   raw.preferred_format == s->preferred_format,
			   "%s: formats %#x", s->name, raw.formats);
		if (s->edid_revision == 4)
			UNIT_CHECK(raw.iface == s->iface && raw.bpc == s->bpc,
				   "%s: iface", s->name);
		for (k = 0; k < MMX_KIND_COUNT; k++) {
			enum mmx_signal_format f1 = mmx_signal_kind_default(k);
			enum mmx_signal_format f2 = f1;
			u64 p1 = 0, p2 = 0;
			int r1 = mmx_sink_signal(s, k, &f1, &p1);
			int r2 = mmx_sink_signal(&raw, k, &f2, &p2);

			UNIT_CHECK(r1 == r2 && f1 == f2 && p1 == p2,
				   "%s on kind %u differs", s->name, k);
		}
	}
	/* HDMI found through the vendor block of an EDID 1.3. */
	n = mmx_edid_build(&mmx_sinks[MMX_SINK_HDMI], e, sizeof(e));
	UNIT_CHECK(!mmx_sink_from_edid(&raw, e, n) &&
		   raw.iface == MMX_EDID_IFACE_HDMI_A, "hdmi iface");
	/* The same EDID without its extension: any digital link. */
	e[126] = 0;
	mmx_test_edid_fix_sum(e);
	UNIT_CHECK(!mmx_sink_from_edid(&raw, e, 128) &&
		   raw.iface == MMX_EDID_IFACE_UNDEFINED &&
		   raw.formats == (F(TMDS) | F(DISPLAYPORT) | F(LVDS)),
		   "hdmi base block only");
	return 0;
}

/* The presets' timings against the links they are meant for. */
static int test_presets_vs_links(void)
{
	static const struct {
		enum mmx_sink_id sink;
		enum mmx_signal_format format;
		uint64_t props;
		int fits[2];
	} cases[] = {
		{ MMX_SINK_VGA, MMX_SIGNAL_VGA, 0, { 0, 0 } },
		{ MMX_SINK_DVI, MMX_SIGNAL_TMDS, P(SINGLE_LINK), { 0, 0 } },
		{ MMX_SINK_HDMI, MMX_SIGNAL_TMDS, P(SINGLE_LINK), { 0, 0 } },
		/* 2560x1600 at 268.5 MHz needs DualLink. */
		{ MMX_SINK_DUAL_LINK, MMX_SIGNAL_TMDS, P(SINGLE_LINK),
		  { -EINVAL, 0 } },
		{ MMX_SINK_DUAL_LINK, MMX_SIGNAL_TMDS, P(DUAL_LINK), { 0, 0 } },
		/* 4K60 needs 12.8 Gbit/s; four HiSpeed lanes carry 8.64. */
		{ MMX_SINK_DP_4K, MMX_SIGNAL_DISPLAYPORT,
		  P(LANE4) | P(HI_SPEED), { -EINVAL, 0 } },
		{ MMX_SINK_DP_4K, MMX_SIGNAL_DISPLAYPORT,
		  P(LANE4) | P(LOW_SPEED), { -EINVAL, -EINVAL } },
		{ MMX_SINK_PANEL, MMX_SIGNAL_LVDS, 0, { 0, 0 } },
		{ MMX_SINK_PANEL, MMX_SIGNAL_DISPLAYPORT, P(LANE1) | P(HI_SPEED),
		  { 0, 0 } },
	};
	size_t i;
	unsigned int j;

	for (i = 0; i < N(cases); i++) {
		const struct mmx_sink *s = &mmx_sinks[cases[i].sink];

		for (j = 0; j < s->num_timings; j++)
			UNIT_CHECK(mmx_signal_timing_fits(cases[i].format,
							  cases[i].props,
							  &s->timings[j], 24) ==
				   cases[i].fits[j], "%s: %s on %s %#llx",
				   s->name, s->timings[j].name,
				   mmx_signal_format_names[cases[i].format].name,
				   (unsigned long long)cases[i].props);
	}
	return 0;
}

/* Run edid-decode --check on one EDID; 1 = pass, 0 = fail, -1 = no tool. */
static int edid_decode_check(const struct mmx_sink *s, const uint8_t *e,
			     int n)
{
	char bin[] = "/tmp/mmx-edid-XXXXXX";
	char cmd[256], line[512];
	int fd, status, failures = 0, pass = 0, vendor = 0, name = 0;
	FILE *out;

	if (access(EDID_DECODE, X_OK))
		return -1;
	fd = mkstemp(bin);
	if (fd < 0 || write(fd, e, n) != n) {
		perror("edid temp file");
		return 0;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), EDID_DECODE " --check %s 2>&1", bin);
	out = popen(cmd, "r");
	if (!out) {
		unlink(bin);
		return 0;
	}
	while (fgets(line, sizeof(line), out)) {
		if (strstr(line, "Failures:"))
			failures = 1;
		if (strstr(line, "Warnings:"))
			fprintf(stderr, "note: edid-decode warns about %s\n",
				s->name);
		if (strstr(line, "EDID conformity: PASS"))
			pass = 1;
		if (strstr(line, "Manufacturer: MMX"))
			vendor = 1;
		if (strstr(line, "Display Product Name: '") &&
		    strstr(line, s->monitor_name))
			name = 1;
		if (failures)
			fputs(line, stderr);
	}
	status = pclose(out);
	unlink(bin);
	if (!WIFEXITED(status) || WEXITSTATUS(status) || failures || !pass ||
	    !vendor || !name) {
		fprintf(stderr, "edid-decode: %s: status %d pass %d vendor %d name %d\n",
			s->name, status, pass, vendor, name);
		return 0;
	}
	return 1;
}

static int test_edid_decode(void)
{
	uint8_t e[MMX_EDID_MAX_SIZE];
	const struct mmx_sink *s;
	size_t i;
	int n, r;

	for_each_edid(s, i, e, n) {
		r = edid_decode_check(s, e, n);
		if (r < 0) {
			fprintf(stderr, "note: " EDID_DECODE
				" not installed (Debian package edid-decode), skipped\n");
			return 0;
		}
		UNIT_CHECK(r == 1, "%s: edid-decode --check failed", s->name);
	}
	return 0;
}

static const struct unit_case cases[] = {
	{ "presets-build", "every preset builds: size, header, version, checksums",
	  test_presets_build },
	{ "vendor-product", "PNP id MMX, product, serial and date",
	  test_vendor_product },
	{ "name-descriptor", "the display name descriptor holds the name",
	  test_name_descriptor },
	{ "range-covers-timings", "range limits cover every offered timing",
	  test_range_covers_timings },
	{ "dtd-roundtrip", "detailed timings decode to the preset's timings",
	  test_dtd_roundtrip },
	{ "interlaced-and-cta-dtds", "interlaced DTDs and DTDs in CTA-861",
	  test_interlaced_and_cta_dtds },
	{ "build-errors", "sinks EDID cannot describe are refused",
	  test_build_errors },
	{ "lookup", "presets found by name, debugfs newline ignored",
	  test_lookup },
	{ "sink-signal", "SignalFormat and SignalProperties for a new sink",
	  test_sink_signal },
	{ "sink-from-edid", "an uploaded EDID describes the same sink",
	  test_sink_from_edid },
	{ "presets-vs-links", "preset timings against link capacity",
	  test_presets_vs_links },
	{ "edid-decode", "edid-decode --check passes every preset",
	  test_edid_decode },
};

UNIT_MAIN(cases)
