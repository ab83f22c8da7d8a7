// SPDX-License-Identifier: MIT
/*
 * kms_mmx_edid_modes - a connector's modes are exactly the modes of its EDID
 *
 * For every connected connector, the EDID property blob is decoded here,
 * independently of the driver and of the DRM core (base block: detailed
 * timings, established timings, standard timings, standard timing
 * descriptors, range limits; CTA-861 extensions: SVDs and detailed
 * timings), and compared with the connector's mode list (GETCONNECTOR, a
 * full probe):
 *
 * - every mode the EDID defines is listed: a detailed timing or a VIC with
 *   its exact timing (a VIC also at its 1000/1001 clock), an established or
 *   standard timing with its size, refresh rate and scan. A detailed timing
 *   or VIC the connector cannot carry (an atomic TEST_ONLY modeset with it
 *   is refused) is excused, an established or standard timing likewise
 *   when its CVT timing is refused (the test has no DMT table);
 * - the EDID's preferred timing (first detailed timing, EDID 1.4 or the
 *   feature bit) is the first mode listed, marked preferred, when listed;
 * - no other mode is listed (a listed mode counts as the EDID's when its
 *   size, refresh rate and scan are those of an EDID mode: so the twin at
 *   the 1000/1001 clock the DRM core adds for a VIC is no extra), except
 *   these documented extras:
 *   1. the fixed timings of a TV signal (Composite, S-Video: 720x480i and
 *      720x576i; Component: 1280x720, 1920x1080i, 720x576, 720x480), which
 *      the virtual backend adds for its TV outputs whatever the EDID;
 *   2. on the virtio-gpu backend, one preferred mode of the host's current
 *      size (debugfs dri/N/virtio) when no EDID mode has that size;
 *   3. modes the DRM core infers from the EDID's range limits when the
 *      EDID sets "continuous frequency": each must lie within the range
 *      limits and be no larger than a mode of the EDID.
 *
 * Subtests: edid-modes (every connector as it is: the virtual backend's
 * default sinks, the virtio-gpu host's EDIDs), edid-modes-presets (the
 * virtual backend only: every sink preset with an EDID plugged into every
 * output in turn, through debugfs mmx_sink; the default sinks come back).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_igt.h"

#define EDID_BLOCK	128
#define MAX_EDID_MODES	128

enum edid_src { SRC_DTD, SRC_VIC, SRC_EST, SRC_STD };

static const char *const src_names[] = {
	[SRC_DTD] = "detailed timing",
	[SRC_VIC] = "CTA VIC",
	[SRC_EST] = "established timing",
	[SRC_STD] = "standard timing",
};

/* A mode the EDID defines; @exact: @m holds the whole timing. */
struct edid_mode {
	enum edid_src src;
	int vic;
	bool exact;
	bool preferred;
	drmModeModeInfo m;
};

struct edid_info {
	int n;
	struct edid_mode modes[MAX_EDID_MODES];
	bool continuous;	/* feature bit 0: continuous frequency */
	bool has_range;
	int vmin, vmax, hmin_khz, hmax_khz, max_clock_mhz;
	char problem[512];	/* what could not be decoded */
};

struct mode_key {
	int w, h, refresh;
	bool interlace;
};

/* Refresh rate as the DRM core rounds it (field rate when interlaced). */
static int mode_refresh(const drmModeModeInfo *m)
{
	unsigned long long num = (unsigned long long)m->clock * 1000;
	unsigned long long den = (unsigned long long)m->htotal * m->vtotal;

	if (!den)
		return 0;
	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		num *= 2;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		den *= 2;
	return (int)((num + den / 2) / den);
}

static struct mode_key key_of(const drmModeModeInfo *m)
{
	struct mode_key k = {
		.w = m->hdisplay, .h = m->vdisplay,
		.refresh = m->vrefresh ? (int)m->vrefresh : mode_refresh(m),
		.interlace = !!(m->flags & DRM_MODE_FLAG_INTERLACE),
	};

	return k;
}

static bool key_eq(struct mode_key a, struct mode_key b)
{
	return a.w == b.w && a.h == b.h && a.refresh == b.refresh &&
	       a.interlace == b.interlace;
}

static void mode_str(const drmModeModeInfo *m, char *buf, size_t size)
{
	if (!m->clock) {
		snprintf(buf, size, "%ux%u%s@%u", m->hdisplay, m->vdisplay,
			 m->flags & DRM_MODE_FLAG_INTERLACE ? "i" : "",
			 m->vrefresh);
		return;
	}
	snprintf(buf, size, "%ux%u%s@%d (%u kHz %u %u %u %u / %u %u %u %u flags 0x%x type 0x%x)",
		 m->hdisplay, m->vdisplay,
		 m->flags & DRM_MODE_FLAG_INTERLACE ? "i" : "",
		 key_of(m).refresh, m->clock, m->hdisplay, m->hsync_start,
		 m->hsync_end, m->htotal, m->vdisplay, m->vsync_start,
		 m->vsync_end, m->vtotal, m->flags, m->type);
}

#define TIMING_FLAGS (DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_NHSYNC | \
		      DRM_MODE_FLAG_PVSYNC | DRM_MODE_FLAG_NVSYNC | \
		      DRM_MODE_FLAG_INTERLACE)

/* Same timing; @alt_clock: the clock may also be the 1000/1001 one. */
static bool timing_eq(const drmModeModeInfo *a, const drmModeModeInfo *b,
		      bool alt_clock)
{
	bool clock = a->clock == b->clock;

	if (alt_clock && !clock)
		clock = a->clock == (b->clock * 1000 + 500) / 1001 ||
			b->clock == (a->clock * 1000 + 500) / 1001;
	return clock &&
	       a->hdisplay == b->hdisplay && a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->vdisplay == b->vdisplay && a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       (a->flags & TIMING_FLAGS) == (b->flags & TIMING_FLAGS);
}

/* ------------------------------------------------------------------------ */
/* EDID decoding                                                            */

static void set_timing(drmModeModeInfo *m, unsigned int clock, int h, int hss,
		       int hse, int ht, int v, int vss, int vse, int vt,
		       uint32_t flags)
{
	memset(m, 0, sizeof(*m));
	m->clock = clock;
	m->hdisplay = (uint16_t)h;
	m->hsync_start = (uint16_t)hss;
	m->hsync_end = (uint16_t)hse;
	m->htotal = (uint16_t)ht;
	m->vdisplay = (uint16_t)v;
	m->vsync_start = (uint16_t)vss;
	m->vsync_end = (uint16_t)vse;
	m->vtotal = (uint16_t)vt;
	m->flags = flags;
	m->vrefresh = (uint32_t)mode_refresh(m);
	snprintf(m->name, sizeof(m->name), "%dx%d%s", h, v,
		 flags & DRM_MODE_FLAG_INTERLACE ? "i" : "");
}

static void set_size(drmModeModeInfo *m, int w, int h, int refresh,
		     bool interlace)
{
	memset(m, 0, sizeof(*m));
	m->hdisplay = (uint16_t)w;
	m->vdisplay = (uint16_t)h;
	m->vrefresh = (uint32_t)refresh;
	if (interlace)
		m->flags = DRM_MODE_FLAG_INTERLACE;
	snprintf(m->name, sizeof(m->name), "%dx%d%s", w, h,
		 interlace ? "i" : "");
}

/* Add a problem to e->problem ("; " between two). */
static void __attribute__((format(printf, 2, 3)))
edid_problem(struct edid_info *e, const char *fmt, ...)
{
	size_t len = strlen(e->problem);
	va_list ap;

	if (len && len + 2 < sizeof(e->problem)) {
		strcpy(e->problem + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(e->problem + len, sizeof(e->problem) - len, fmt, ap);
	va_end(ap);
}

static struct edid_mode *add_mode(struct edid_info *e, enum edid_src src)
{
	struct edid_mode *em;

	if (e->n >= MAX_EDID_MODES) {
		edid_problem(e, "more than %d modes", MAX_EDID_MODES);
		return NULL;
	}
	em = &e->modes[e->n++];
	memset(em, 0, sizeof(*em));
	em->src = src;
	return em;
}

#define PH DRM_MODE_FLAG_PHSYNC
#define NH DRM_MODE_FLAG_NHSYNC
#define PV DRM_MODE_FLAG_PVSYNC
#define NV DRM_MODE_FLAG_NVSYNC
#define IL DRM_MODE_FLAG_INTERLACE

/*
 * The CTA-861 VICs the test knows, with their timings (CTA-861-G table 1):
 * those of the virtual backend's HDMI sink and of QEMU's EDID, and a few
 * more. An EDID with another VIC fails the test until it is added here.
 */
static const struct vic_timing {
	int vic;
	unsigned int clock;
	int h, hss, hse, ht, v, vss, vse, vt;
	uint32_t flags;
} vic_timings[] = {
	{ 1, 25175, 640, 656, 752, 800, 480, 490, 492, 525, NH | NV },
	{ 2, 27000, 720, 736, 798, 858, 480, 489, 495, 525, NH | NV },
	{ 3, 27000, 720, 736, 798, 858, 480, 489, 495, 525, NH | NV },
	{ 4, 74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750, PH | PV },
	{ 5, 74250, 1920, 2008, 2052, 2200, 1080, 1084, 1094, 1125,
	  PH | PV | IL },
	{ 16, 148500, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, PH | PV },
	{ 17, 27000, 720, 732, 796, 864, 576, 581, 586, 625, NH | NV },
	{ 18, 27000, 720, 732, 796, 864, 576, 581, 586, 625, NH | NV },
	{ 19, 74250, 1280, 1720, 1760, 1980, 720, 725, 730, 750, PH | PV },
	{ 20, 74250, 1920, 2448, 2492, 2640, 1080, 1084, 1094, 1125,
	  PH | PV | IL },
	{ 31, 148500, 1920, 2448, 2492, 2640, 1080, 1084, 1089, 1125, PH | PV },
	{ 32, 74250, 1920, 2558, 2602, 2750, 1080, 1084, 1089, 1125, PH | PV },
	{ 33, 74250, 1920, 2448, 2492, 2640, 1080, 1084, 1089, 1125, PH | PV },
	{ 34, 74250, 1920, 2008, 2052, 2200, 1080, 1084, 1089, 1125, PH | PV },
	{ 89, 185625, 2560, 3108, 3152, 3300, 1080, 1084, 1089, 1125, PH | PV },
	{ 96, 594000, 3840, 4896, 4984, 5280, 2160, 2168, 2178, 2250, PH | PV },
	{ 97, 594000, 3840, 4016, 4104, 4400, 2160, 2168, 2178, 2250, PH | PV },
	{ 101, 594000, 4096, 5064, 5152, 5280, 2160, 2168, 2178, 2250, PH | PV },
	{ 125, 742500, 5120, 6216, 6304, 6600, 2160, 2168, 2178, 2250, PH | PV },
};

/* The established timings, bit 7 of byte 35 first (VESA E-EDID table 3.18). */
static const struct mode_key est_timings[17] = {
	{ 720, 400, 70, false }, { 720, 400, 88, false },
	{ 640, 480, 60, false }, { 640, 480, 67, false },
	{ 640, 480, 72, false }, { 640, 480, 75, false },
	{ 800, 600, 56, false }, { 800, 600, 60, false },
	{ 800, 600, 72, false }, { 800, 600, 75, false },
	{ 832, 624, 75, false }, { 1024, 768, 87, true },
	{ 1024, 768, 60, false }, { 1024, 768, 70, false },
	{ 1024, 768, 75, false }, { 1280, 1024, 75, false },
	{ 1152, 870, 75, false },
};

/*
 * Established timings III (descriptor 0xf7), bit 7 of byte 6 first (VESA
 * E-EDID 1.4 table 3.30); the reduced blanking ones have the same key.
 */
static const struct mode_key est3_timings[44] = {
	{ 640, 350, 85, false }, { 640, 400, 85, false },
	{ 720, 400, 85, false }, { 640, 480, 85, false },
	{ 848, 480, 60, false }, { 800, 600, 85, false },
	{ 1024, 768, 85, false }, { 1152, 864, 75, false },
	{ 1280, 768, 60, false }, { 1280, 768, 60, false },
	{ 1280, 768, 75, false }, { 1280, 768, 85, false },
	{ 1280, 960, 60, false }, { 1280, 960, 85, false },
	{ 1280, 1024, 60, false }, { 1280, 1024, 85, false },
	{ 1360, 768, 60, false }, { 1440, 900, 60, false },
	{ 1440, 900, 60, false }, { 1440, 900, 75, false },
	{ 1440, 900, 85, false }, { 1400, 1050, 60, false },
	{ 1400, 1050, 60, false }, { 1400, 1050, 75, false },
	{ 1400, 1050, 85, false }, { 1680, 1050, 60, false },
	{ 1680, 1050, 60, false }, { 1680, 1050, 75, false },
	{ 1680, 1050, 85, false }, { 1600, 1200, 60, false },
	{ 1600, 1200, 65, false }, { 1600, 1200, 70, false },
	{ 1600, 1200, 75, false }, { 1600, 1200, 85, false },
	{ 1792, 1344, 60, false }, { 1792, 1344, 75, false },
	{ 1856, 1392, 60, false }, { 1856, 1392, 75, false },
	{ 1920, 1200, 60, false }, { 1920, 1200, 60, false },
	{ 1920, 1200, 75, false }, { 1920, 1200, 85, false },
	{ 1920, 1440, 60, false }, { 1920, 1440, 75, false },
};

static void decode_est3(struct edid_info *e, const uint8_t *d)
{
	struct edid_mode *em;
	int i;

	for (i = 0; i < 44; i++) {
		if (!(d[6 + i / 8] & 0x80 >> i % 8))
			continue;
		em = add_mode(e, SRC_EST);
		if (em)
			set_size(&em->m, est3_timings[i].w, est3_timings[i].h,
				 est3_timings[i].refresh, false);
	}
}

static void decode_dtd(struct edid_info *e, const uint8_t *d, bool preferred)
{
	unsigned int clock = (d[0] | d[1] << 8) * 10;
	int ha = d[2] | (d[4] & 0xf0) << 4, hb = d[3] | (d[4] & 0x0f) << 8;
	int va = d[5] | (d[7] & 0xf0) << 4, vb = d[6] | (d[7] & 0x0f) << 8;
	int hso = d[8] | (d[11] & 0xc0) << 2, hsw = d[9] | (d[11] & 0x30) << 4;
	int vso = d[10] >> 4 | (d[11] & 0x0c) << 2;
	int vsw = (d[10] & 0x0f) | (d[11] & 0x03) << 4;
	uint32_t flags = (d[17] & 0x02 ? PH : NH) | (d[17] & 0x04 ? PV : NV);
	struct edid_mode *em;
	int vt = va + vb;

	if (d[17] & 0x60) {
		edid_problem(e, "a stereo detailed timing (flags 0x%02x)", d[17]);
		return;
	}
	if (d[17] & 0x80) {
		/* as the DRM core: frame lines, total odd */
		flags |= IL;
		va *= 2;
		vso *= 2;
		vsw *= 2;
		vt = (vt * 2) | 1;
	}
	em = add_mode(e, SRC_DTD);
	if (!em)
		return;
	em->exact = true;
	em->preferred = preferred;
	set_timing(&em->m, clock, ha, ha + hso, ha + hso + hsw, ha + hb,
		   va, va + vso, va + vso + vsw, vt, flags);
}

/*
 * The image aspect ratio (height over width) of a standard timing, by the
 * top two bits of its second byte (VESA E-EDID table 3.19); 1:1 instead of
 * 16:10 before EDID 1.3.
 */
static const struct { int h, w; } std_aspect[4] = {
	{ 10, 16 }, { 3, 4 }, { 4, 5 }, { 9, 16 },
};

static void decode_std(struct edid_info *e, const uint8_t *s, int rev)
{
	struct edid_mode *em;
	int w, h, a = s[1] >> 6;

	if ((s[0] == 0x00 && s[1] == 0x00) || (s[0] == 0x01 && s[1] == 0x01) ||
	    (s[0] == 0x20 && s[1] == 0x20))
		return;
	w = s[0] * 8 + 248;
	h = a == 0 && rev < 3 ? w : w * std_aspect[a].h / std_aspect[a].w;
	em = add_mode(e, SRC_STD);
	if (em)
		set_size(&em->m, w, h, (s[1] & 0x3f) + 60, false);
}

static void decode_descriptor(struct edid_info *e, const uint8_t *d, int rev)
{
	int i;

	switch (d[3]) {
	case 0xfd:	/* range limits */
		e->has_range = true;
		e->vmin = d[5] + (d[4] & 0x01 ? 255 : 0);
		e->vmax = d[6] + (d[4] & 0x02 ? 255 : 0);
		e->hmin_khz = d[7] + (d[4] & 0x04 ? 255 : 0);
		e->hmax_khz = d[8] + (d[4] & 0x08 ? 255 : 0);
		e->max_clock_mhz = d[9] * 10;
		break;
	case 0xfa:	/* six more standard timings */
		for (i = 0; i < 6; i++)
			decode_std(e, d + 5 + 2 * i, rev);
		break;
	case 0xf7:
		decode_est3(e, d);
		break;
	case 0xf8:
		edid_problem(e, "CVT 3-byte codes (descriptor 0xf8) not decoded");
		break;
	default:	/* name, serial, text, colour, dummy: no timing */
		break;
	}
}

static void decode_cta(struct edid_info *e, const uint8_t *b)
{
	int dtd = b[2], off = 4, i;

	if (dtd < 4 || dtd > EDID_BLOCK - 1) {
		if (dtd)
			edid_problem(e, "CTA extension with DTD offset %d", dtd);
		return;
	}
	while (off < dtd) {
		int tag = b[off] >> 5, len = b[off] & 0x1f;
		const uint8_t *p = b + off + 1;

		if (off + 1 + len > dtd) {
			edid_problem(e, "CTA data block at %d overruns", off);
			return;
		}
		if (tag == 2) {
			for (i = 0; i < len; i++) {
				int vic = p[i];
				const struct vic_timing *t = NULL;
				struct edid_mode *em;
				size_t j;

				if ((vic >= 1 && vic <= 64) ||
				    (vic >= 129 && vic <= 192))
					vic &= 0x7f;
				for (j = 0; j < MMX_ARRAY_SIZE(vic_timings); j++)
					if (vic_timings[j].vic == vic)
						t = &vic_timings[j];
				if (!t) {
					edid_problem(e, "VIC %d is not in the test's table",
						     vic);
					continue;
				}
				em = add_mode(e, SRC_VIC);
				if (!em)
					return;
				em->vic = vic;
				em->exact = true;
				set_timing(&em->m, t->clock, t->h, t->hss,
					   t->hse, t->ht, t->v, t->vss, t->vse,
					   t->vt, t->flags);
			}
		} else if (tag == 3 && len >= 3 && p[0] == 0x03 &&
			   p[1] == 0x0c && p[2] == 0x00) {
			/* HDMI VSDB: HDMI_Video_present brings HDMI VICs */
			if (len >= 8 && (p[7] & 0x20))
				edid_problem(e, "HDMI VICs (HDMI VSDB) not decoded");
		} else if (tag == 7 && len >= 1 && p[0] == 14) {
			edid_problem(e, "YCbCr 4:2:0 video data block not decoded");
		}
		off += 1 + len;
	}
	for (off = dtd; off + 18 <= EDID_BLOCK - 1; off += 18) {
		if (!b[off] && !b[off + 1])
			break;
		decode_dtd(e, b + off, false);
	}
}

/* Decode @len bytes of EDID into @e; false (with e->problem) if unusable. */
static bool edid_decode(const uint8_t *edid, size_t len, struct edid_info *e)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0 };
	unsigned int bits;
	size_t blk;
	int rev, i;

	memset(e, 0, sizeof(*e));
	if (len < EDID_BLOCK || len % EDID_BLOCK ||
	    memcmp(edid, header, sizeof(header)) ||
	    len != (size_t)(edid[126] + 1) * EDID_BLOCK) {
		edid_problem(e, "not an EDID of %zu bytes with %d extensions",
			     len, len >= EDID_BLOCK ? edid[126] : -1);
		return false;
	}
	rev = edid[19];
	e->continuous = edid[24] & 0x01;

	/* detailed descriptors first: the preferred timing is the first */
	for (i = 0; i < 4; i++) {
		const uint8_t *d = edid + 54 + 18 * i;

		if (d[0] || d[1])
			decode_dtd(e, d, i == 0 &&
				   (rev >= 4 || (edid[24] & 0x02)));
		else
			decode_descriptor(e, d, rev);
	}
	bits = (unsigned int)edid[35] << 9 | edid[36] << 1 | edid[37] >> 7;
	for (i = 0; i < 17; i++) {
		struct edid_mode *em;

		if (!(bits & 1u << (16 - i)))
			continue;
		em = add_mode(e, SRC_EST);
		if (em)
			set_size(&em->m, est_timings[i].w, est_timings[i].h,
				 est_timings[i].refresh,
				 est_timings[i].interlace);
	}
	for (i = 0; i < 8; i++)
		decode_std(e, edid + 38 + 2 * i, rev);

	for (blk = 1; blk < len / EDID_BLOCK; blk++) {
		const uint8_t *b = edid + blk * EDID_BLOCK;

		if (b[0] == 0x02)
			decode_cta(e, b);
		else
			edid_problem(e, "extension block tag 0x%02x not decoded", b[0]);
	}
	return !e->problem[0];
}

/* ------------------------------------------------------------------------ */
/* The comparison                                                           */

struct conn_report {
	int failures;
	int edid_modes, listed, extras, excused;
};

#define report_fail(rep, fmt, ...)					\
	do {								\
		printf("  FAIL: " fmt "\n", ##__VA_ARGS__);		\
		(rep)->failures++;					\
	} while (0)

/* The SignalFormat's name, "" without the property. */
static void signal_format(struct mmx_dev *d, uint32_t conn, char *buf,
			  size_t size)
{
	drmModePropertyRes *info = NULL;
	uint64_t value;
	int i;

	buf[0] = 0;
	if (!mmx_prop_lookup(d->fd, conn, "SignalFormat", NULL, &value, &info))
		return;
	for (i = 0; i < info->count_enums; i++)
		if (info->enums[i].value == value)
			snprintf(buf, size, "%s", info->enums[i].name);
	drmModeFreeProperty(info);
}

/* Extra 1: the fixed timings of a TV signal. */
static bool tv_signal_mode(const char *format, const drmModeModeInfo *m)
{
	static const struct mode_key sd[] = {
		{ 720, 480, 60, true }, { 720, 576, 50, true },
	};
	static const struct mode_key component[] = {
		{ 1280, 720, 60, false }, { 1920, 1080, 60, true },
		{ 720, 576, 50, false }, { 720, 480, 60, false },
	};
	const struct mode_key *k = NULL;
	size_t n = 0, i;

	if (!strncmp(format, "Composite", 9) || !strcmp(format, "SVideo")) {
		k = sd;
		n = MMX_ARRAY_SIZE(sd);
	} else if (!strcmp(format, "Component")) {
		k = component;
		n = MMX_ARRAY_SIZE(component);
	}
	for (i = 0; i < n; i++)
		if (key_eq(k[i], key_of(m)))
			return true;
	return false;
}

/* Extra 3: a mode the core infers from the range limits. */
static bool inferred_mode(const struct edid_info *e, const drmModeModeInfo *m)
{
	unsigned long long hfreq_hz;
	int refresh = key_of(m).refresh, i;
	bool fits = false;

	if (!e->continuous || !e->has_range || !m->htotal)
		return false;
	hfreq_hz = (unsigned long long)m->clock * 1000 / m->htotal;
	if (refresh < e->vmin || refresh > e->vmax ||
	    hfreq_hz + 500 < (unsigned long long)e->hmin_khz * 1000 ||
	    hfreq_hz > (unsigned long long)e->hmax_khz * 1000 + 500 ||
	    m->clock > (unsigned int)e->max_clock_mhz * 1000)
		return false;
	for (i = 0; i < e->n; i++)
		if (m->hdisplay <= e->modes[i].m.hdisplay &&
		    m->vdisplay <= e->modes[i].m.vdisplay)
			fits = true;
	return fits;
}

/* The virtio-gpu host's current size of output @index, false if none. */
static bool virtio_host_size(struct mmx_dev *d, int index, int *w, int *h)
{
	char path[192], buf[4096], pat[32], *p;
	unsigned int hw, hh;

	snprintf(path, sizeof(path), "%s/virtio", d->debugfs);
	if (mmx_read_file(path, buf, sizeof(buf)) <= 0)
		return false;
	snprintf(pat, sizeof(pat), "scanout %d: host enabled ", index);
	p = strstr(buf, pat);
	if (!p || sscanf(p + strlen(pat), "%ux%u", &hw, &hh) != 2 || !hw || !hh)
		return false;
	*w = (int)hw;
	*h = (int)hh;
	return true;
}

static bool is_virtio(struct mmx_dev *d)
{
	char path[192], buf[64];

	snprintf(path, sizeof(path), "%s/virtio", d->debugfs);
	return mmx_read_file(path, buf, sizeof(buf)) > 0;
}

/*
 * @m, which has only a size and a refresh rate, with the timing of the
 * VESA CVT 1.1 formula (standard blanking, as the DRM core's drm_cvt_mode()
 * computes it), so that an atomic TEST_ONLY modeset can ask the connector
 * whether it takes such a mode. The DMT timing the core uses for most
 * established and standard timings differs a little (a borderline pixel
 * clock could be judged either way); the links that refuse these modes
 * here (TV signals, single-link TMDS) are nowhere near the border.
 */
static void cvt_timing(drmModeModeInfo *m)
{
	int w = m->hdisplay - m->hdisplay % 8, h = m->vdisplay;
	long long refresh = m->vrefresh, hperiod, hblank_pct, hblank;
	int vsync, vsbp, htotal, vtotal, hsw, hse;
	bool interlace = m->flags & DRM_MODE_FLAG_INTERLACE;
	long long clock;

	if (interlace)
		h /= 2;
	if (h * 4 / 3 == w)
		vsync = 4;
	else if (h * 16 / 9 == w)
		vsync = 5;
	else if (h * 16 / 10 == w)
		vsync = 6;
	else if (h * 5 / 4 == w || h * 15 / 9 == w)
		vsync = 7;
	else
		vsync = 10;
	/* line period in ns * 1000, 550 us of vsync + back porch at least */
	hperiod = (1000LL * 1000000 - 550LL * 1000 * refresh) * 2 /
		  (((h + 3) * 2 + interlace) * refresh);
	vsbp = (int)(550LL * 1000 / hperiod + 1);
	if (vsbp < vsync + 3)
		vsbp = vsync + 3;
	vtotal = h + vsbp + 3;
	hblank_pct = 30 * 1000 - 300 * hperiod / 1000;
	if (hblank_pct < 20 * 1000)
		hblank_pct = 20 * 1000;
	hblank = w * hblank_pct / (100 * 1000 - hblank_pct);
	hblank -= hblank % 16;
	htotal = w + (int)hblank;
	hse = w + (int)hblank / 2;
	hsw = htotal * 8 / 100;
	hsw -= hsw % 8;
	clock = (long long)htotal * 1000 * 1000 / hperiod;
	clock -= clock % 250;
	if (interlace) {
		h *= 2;
		vtotal = vtotal * 2 + 1;
	}
	set_timing(m, (unsigned int)clock, w, hse - hsw, hse, htotal, h, h + 3,
		   h + 3 + vsync, vtotal,
		   NH | PV | (interlace ? IL : 0));
}

/* Whether the connector of @o takes @m: an atomic TEST_ONLY modeset. */
static bool output_carries(struct mmx_dev *d, struct mmx_output *o,
			   const drmModeModeInfo *m)
{
	drmModeModeInfo mode = *m;
	struct mmx_req *r;

	mode.type = DRM_MODE_TYPE_USERDEF;
	r = mmx_req_new(d);
	mmx_req_output_on(r, o, &mode);
	return mmx_req_commit(r, DRM_MODE_ATOMIC_TEST_ONLY |
				 DRM_MODE_ATOMIC_ALLOW_MODESET) == 0;
}

/* Compare the modes of @o's connector with its EDID. */
static void check_output(struct mmx_dev *d, struct mmx_output *o,
			 const char *what, struct conn_report *rep)
{
	drmModeConnectorPtr c = drmModeGetConnector(d->fd, o->conn_id);
	drmModePropertyBlobRes *blob = NULL;
	struct edid_info *e = calloc(1, sizeof(*e));
	const struct edid_mode *pref = NULL;
	char fmt[32], s[192], s2[192];
	int host_w = 0, host_h = 0, host_extra = -1, i, j;
	bool virtio = is_virtio(d), host = false, have_edid = false;
	uint64_t blob_id = 0;

	mmx_assert(e);
	mmx_assert_f(c, "GETCONNECTOR %u: %s", o->conn_id, strerror(errno));
	memset(rep, 0, sizeof(*rep));
	signal_format(d, o->conn_id, fmt, sizeof(fmt));
	if (virtio)
		host = virtio_host_size(d, o->index, &host_w, &host_h);

	if (mmx_prop_lookup(d->fd, o->conn_id, "EDID", NULL, &blob_id, NULL) &&
	    blob_id)
		blob = drmModeGetPropertyBlob(d->fd, (uint32_t)blob_id);
	if (blob) {
		have_edid = true;
		if (!edid_decode(blob->data, blob->length, e)) {
			const uint8_t *b = blob->data;

			report_fail(rep, "%s%s%s: EDID (%u bytes): %s", o->name,
				    what[0] ? " with " : "", what,
				    blob->length, e->problem);
			for (i = 0; i < (int)blob->length; i++)
				printf("%s%02x%s", i % 32 ? "" : "    ", b[i],
				       i % 32 == 31 ? "\n" : "");
		}
		drmModeFreePropertyBlob(blob);
	}
	rep->edid_modes = e->n;
	rep->listed = c->count_modes;
	printf("%s%s%s: %s, EDID %s (%d modes%s), %d listed\n", o->name,
	       what[0] ? " with " : "", what,
	       c->connection == DRM_MODE_CONNECTED ? "connected" :
						     "not connected",
	       have_edid ? "present" : "absent", e->n,
	       e->continuous ? ", continuous frequency" : "", c->count_modes);
	if (mmx_verbose) {
		for (i = 0; i < c->count_modes; i++) {
			mode_str(&c->modes[i], s, sizeof(s));
			printf("    listed %s\n", s);
		}
		for (i = 0; i < e->n; i++) {
			mode_str(&e->modes[i].m, s, sizeof(s));
			printf("    EDID %s %s\n", src_names[e->modes[i].src], s);
		}
	}
	if (c->connection != DRM_MODE_CONNECTED)
		goto out;

	/* Every mode listed is one of the EDID's or a documented extra. */
	for (i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *m = &c->modes[i];
		bool found = false;

		for (j = 0; j < e->n && !found; j++)
			found = key_eq(key_of(m), key_of(&e->modes[j].m));
		if (found)
			continue;
		rep->extras++;
		if (tv_signal_mode(fmt, m) || inferred_mode(e, m))
			continue;
		if (virtio && host && host_extra < 0 &&
		    m->hdisplay == host_w && m->vdisplay == host_h &&
		    (m->type & DRM_MODE_TYPE_PREFERRED)) {
			bool sized = false;

			for (j = 0; j < e->n; j++)
				sized |= e->modes[j].m.hdisplay == host_w &&
					 e->modes[j].m.vdisplay == host_h;
			if (!sized) {
				host_extra = i;
				continue;
			}
		}
		mode_str(m, s, sizeof(s));
		report_fail(rep, "%s%s%s lists %s, which the EDID does not define",
			    o->name, what[0] ? " with " : "", what, s);
	}

	/* Every mode of the EDID is listed, unless the connector refuses it. */
	for (j = 0; j < e->n; j++) {
		const struct edid_mode *em = &e->modes[j];
		drmModeModeInfo tried;
		bool found = false;

		for (i = 0; i < c->count_modes && !found; i++) {
			if (em->exact)
				found = timing_eq(&c->modes[i], &em->m,
						  em->src == SRC_VIC);
			else
				found = key_eq(key_of(&c->modes[i]),
					       key_of(&em->m));
		}
		if (em->preferred)
			pref = em;
		if (found)
			continue;
		mode_str(&em->m, s, sizeof(s));
		tried = em->m;
		if (!em->exact)
			cvt_timing(&tried);
		if (!output_carries(d, o, &tried)) {
			rep->excused++;
			mode_str(&tried, s2, sizeof(s2));
			printf("  (the EDID's %s %s is not listed: the connector refuses %s)\n",
			       src_names[em->src], s, em->exact ? "it" : s2);
			if (em->preferred)
				pref = NULL;
			continue;
		}
		report_fail(rep, "%s%s%s does not list the EDID's %s %s, which the connector takes",
			    o->name, what[0] ? " with " : "", what,
			    src_names[em->src], s);
		if (em->preferred)
			pref = NULL;
	}

	/* The preferred mode comes first. */
	if (c->count_modes) {
		const drmModeModeInfo *first = &c->modes[0];

		mode_str(first, s, sizeof(s));
		if (!(first->type & DRM_MODE_TYPE_PREFERRED))
			report_fail(rep, "%s: the first mode %s is not preferred",
				    o->name, s);
		if (host_extra >= 0) {
			if (host_extra != 0)
				report_fail(rep, "%s: the host's size %dx%d is not the first mode (%s is)",
					    o->name, host_w, host_h, s);
		} else if (virtio && host && pref &&
			   (pref->m.hdisplay != host_w ||
			    pref->m.vdisplay != host_h)) {
			/* the host's size is preferred over the EDID's */
			if (first->hdisplay != host_w ||
			    first->vdisplay != host_h)
				report_fail(rep, "%s: the first mode %s is not of the host's size %dx%d",
					    o->name, s, host_w, host_h);
		} else if (pref && !timing_eq(first, &pref->m, false)) {
			mode_str(&pref->m, s2, sizeof(s2));
			report_fail(rep, "%s: the first mode is %s, not the EDID's preferred %s",
				    o->name, s, s2);
		}
	}
	printf("  %d EDID modes, %d listed, %d extras, %d refused by the connector, %d failures\n",
	       e->n, c->count_modes, rep->extras, rep->excused, rep->failures);
out:
	free(e);
	drmModeFreeConnector(c);
}

/* ------------------------------------------------------------------------ */
/* Subtests                                                                 */

static void test_edid_modes(struct mmx_dev *d)
{
	struct conn_report rep;
	int i, failures = 0, checked = 0;

	mmx_reset(d);
	for (i = 0; i < d->n_outputs; i++) {
		check_output(d, &d->out[i], "", &rep);
		failures += rep.failures;
		checked += rep.listed > 0;
	}
	mmx_assert_f(checked > 0, "no connector lists a mode");
	mmx_assert_eq(failures, 0);
}

/* The sink presets of the virtual backend that have an EDID. */
static const char *const edid_presets[] = {
	"vga", "dvi", "hdmi", "dual-link", "dp-4k", "panel",
};

static void sink_file(struct mmx_dev *d, struct mmx_output *o, char *path,
		      size_t size)
{
	snprintf(path, size, "%s/%s/mmx_sink", d->debugfs, o->name);
}

static void test_edid_modes_presets(struct mmx_dev *d)
{
	struct conn_report rep;
	int i, failures = 0, checked = 0;
	size_t p;

	mmx_require_f(!is_virtio(d), "the virtio-gpu backend has no sink presets");
	mmx_reset(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		char path[300], orig[64];
		int n;

		sink_file(d, o, path, sizeof(path));
		n = mmx_read_file(path, orig, sizeof(orig));
		mmx_assert_f(n > 0, "reading %s: %s", path, strerror(-n));
		while (n > 0 && (orig[n - 1] == '\n' || orig[n - 1] == ' '))
			orig[--n] = 0;
		for (p = 0; p < MMX_ARRAY_SIZE(edid_presets); p++) {
			char what[48];
			int ret = mmx_write_file(path, edid_presets[p]);

			snprintf(what, sizeof(what), "sink %s", edid_presets[p]);
			if (ret) {
				printf("%s: sink %s refused (%s)\n", o->name,
				       edid_presets[p], strerror(-ret));
				continue;
			}
			check_output(d, o, what, &rep);
			failures += rep.failures;
			checked += rep.listed > 0;
		}
		n = mmx_write_file(path, orig);
		mmx_assert_f(n == 0, "plugging %s back into %s: %s", orig,
			     o->name, strerror(-n));
	}
	mmx_assert_f(checked > 0, "no sink made a connector list a mode");
	mmx_assert_eq(failures, 0);
}

static const struct mmx_subtest tests[] = {
	{ "edid-modes", "every connected connector lists exactly the modes of its EDID property (and the documented extras), the EDID's preferred mode first",
	  test_edid_modes, NULL, NULL },
	{ "edid-modes-presets", "the same for every sink preset with an EDID plugged into every output (virtual backend)",
	  test_edid_modes_presets, NULL, NULL },
};

MMX_MAIN("connector modes against the EDID", tests)
