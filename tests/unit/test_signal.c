// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_signal.c: RandR 1.3 ConnectorType, SignalFormat and
 * SignalProperties tables and rules, link capacity and TV timings.
 *
 * Oracles: the value names are copied from the RandR protocol text
 * (randrproto.txt, "Properties"); the per-kind subsets from
 * Documentation/mmx.rst ("Objects", the table of kinds); the
 * TV timings from DRM's CEA-861 table (drivers/gpu/drm/drm_edid.c,
 * edid_cea_modes_1, VICs 2, 4, 5, 6, 17 and 21); link limits worked out by
 * hand below each table row.
 */
#include <errno.h>
#include <stdint.h>
#if __has_include(<drm_mode.h>)
#include <drm_mode.h>
#endif

#include "mmx_randr_props.h"
#include "unit.h"
#include "randr_signal.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define P(x) MMX_SIGPROP(MMX_SIGPROP_##x)
#define F(x) MMX_SIGNAL_FMT(MMX_SIGNAL_##x)

/* RandR's lists, as printed in the specification (ASCII hyphens). */
static const char *const randr_connector_types[] = {
	"unknown", "VGA", "DVI", "DVI-I", "DVI-A", "DVI-D", "HDMI", "Panel",
	"TV", "TV-Composite", "TV-SVideo", "TV-Component", "TV-SCART", "TV-C4",
	"DisplayPort",
};

static const char *const randr_signal_formats[] = {
	"unknown", "VGA", "TMDS", "LVDS", "Composite", "Composite-PAL",
	"Composite-NTSC", "Composite-SECAM", "SVideo", "Component",
	"DisplayPort",
};

static int check_names(const struct mmx_prop_name *t, size_t n,
		       const char *const *want, size_t nwant, const char *what)
{
	size_t i, j;

	UNIT_CHECK(n == nwant, "%s: %zu values, want %zu", what, n, nwant);
	for (i = 0; i < n; i++) {
		UNIT_CHECK(t[i].value == (int)i, "%s[%zu]: value %d", what, i,
			   t[i].value);
		UNIT_CHECK(!strcmp(t[i].name, want[i]), "%s[%zu]: '%s' want '%s'",
			   what, i, t[i].name, want[i]);
		for (j = 0; j < i; j++)
			UNIT_CHECK(strcmp(t[i].name, t[j].name), "%s: '%s' twice",
				   what, t[i].name);
	}
	return 0;
}

static int test_names(void)
{
	if (check_names(mmx_connector_type_names, MMX_CONNECTOR_TYPE_COUNT,
			randr_connector_types, N(randr_connector_types),
			"ConnectorType"))
		return -1;
	if (check_names(mmx_signal_format_names, MMX_SIGNAL_COUNT,
			randr_signal_formats, N(randr_signal_formats),
			"SignalFormat"))
		return -1;
	if (check_names(mmx_sigprop_names, MMX_SIGPROP_COUNT,
			randr_signal_attrs, N(randr_signal_attrs),
			"SignalProperties"))
		return -1;
	UNIT_CHECK(MMX_SIGPROP_COUNT <= 64, "%d bits", MMX_SIGPROP_COUNT);
	UNIT_CHECK(MMX_SIGNAL_COUNT <= 32, "%d formats", MMX_SIGNAL_COUNT);
	/* The groups partition the bits. */
	UNIT_CHECK((MMX_SIGPROP_TV_ALL | MMX_SIGPROP_TMDS_ALL |
		    MMX_SIGPROP_DP_ALL) == MMX_SIGPROP(MMX_SIGPROP_COUNT) - 1,
		   "groups do not cover the bits");
	UNIT_CHECK(!(MMX_SIGPROP_NTSC_ALL & MMX_SIGPROP_PAL_ALL) &&
		   !(MMX_SIGPROP_PAL_ALL & MMX_SIGPROP_SECAM_ALL) &&
		   !(MMX_SIGPROP_TV_ALL & MMX_SIGPROP_TMDS_ALL) &&
		   !(MMX_SIGPROP_TMDS_ALL & MMX_SIGPROP_DP_ALL) &&
		   !(MMX_SIGPROP_LANES & MMX_SIGPROP_RATES),
		   "groups overlap");
	UNIT_CHECK(MMX_SIGPROP_NTSC_ALL == (P(NTSC) | P(NTSC_M) | P(NTSC_J) |
		   P(NTSC_N) | P(NTSC_443) | P(NTSC_FILM)), "NTSC group");
	UNIT_CHECK(MMX_SIGPROP_SECAM_ALL == (P(SECAM) | P(SECAM_L) |
		   P(SECAM_B) | P(SECAM_G) | P(SECAM_D) | P(SECAM_K) |
		   P(SECAM_H)), "SECAM group");
	return 0;
}

/* The per-kind table: kind, ConnectorType, SignalFormat subset, default. */
static const struct {
	enum mmx_output_kind kind;
	const char *name;
	const char *type;
	uint32_t formats;
	enum mmx_signal_format def;
} kinds[] = {
	{ MMX_KIND_VGA, "VGA", "VGA", F(VGA), MMX_SIGNAL_VGA },
	{ MMX_KIND_DVII, "DVI-I", "DVI-I", F(VGA) | F(TMDS), MMX_SIGNAL_TMDS },
	{ MMX_KIND_DVID, "DVI-D", "DVI-D", F(TMDS), MMX_SIGNAL_TMDS },
	{ MMX_KIND_DVIA, "DVI-A", "DVI-A", F(VGA), MMX_SIGNAL_VGA },
	{ MMX_KIND_HDMIA, "HDMI-A", "HDMI", F(TMDS), MMX_SIGNAL_TMDS },
	{ MMX_KIND_DP, "DP", "DisplayPort", F(DISPLAYPORT),
	  MMX_SIGNAL_DISPLAYPORT },
	{ MMX_KIND_EDP, "eDP", "Panel", F(DISPLAYPORT), MMX_SIGNAL_DISPLAYPORT },
	{ MMX_KIND_LVDS, "LVDS", "Panel", F(LVDS), MMX_SIGNAL_LVDS },
	{ MMX_KIND_COMPOSITE, "Composite", "TV-Composite",
	  F(COMPOSITE) | F(COMPOSITE_PAL) | F(COMPOSITE_NTSC) |
	  F(COMPOSITE_SECAM), MMX_SIGNAL_COMPOSITE_NTSC },
	{ MMX_KIND_SVIDEO, "SVIDEO", "TV-SVideo", F(SVIDEO), MMX_SIGNAL_SVIDEO },
	{ MMX_KIND_COMPONENT, "Component", "TV-Component", F(COMPONENT),
	  MMX_SIGNAL_COMPONENT },
	{ MMX_KIND_TV, "TV", "TV",
	  F(COMPOSITE) | F(COMPOSITE_PAL) | F(COMPOSITE_NTSC) |
	  F(COMPOSITE_SECAM) | F(SVIDEO), MMX_SIGNAL_COMPOSITE_NTSC },
	{ MMX_KIND_SCART, "SCART", "TV-SCART",
	  F(COMPOSITE) | F(COMPOSITE_PAL) | F(COMPOSITE_NTSC) |
	  F(COMPOSITE_SECAM) | F(SVIDEO) | F(COMPONENT),
	  MMX_SIGNAL_COMPOSITE_PAL },
};

static int test_kinds(void)
{
	size_t i;
	unsigned int f;

	UNIT_CHECK(N(kinds) == MMX_KIND_COUNT, "table has %zu kinds", N(kinds));
	/* The driver's order, SCART last. */
	UNIT_CHECK(MMX_KIND_VGA == 0 && MMX_KIND_TV == 11 &&
		   MMX_KIND_SCART == 12 && MMX_KIND_COUNT == 13, "kind order");
	for (i = 0; i < N(kinds); i++) {
		enum mmx_output_kind k = kinds[i].kind;
		enum mmx_connector_type t = mmx_signal_connector_type(k);
		uint32_t formats = mmx_signal_kind_formats(k);
		enum mmx_signal_format def = mmx_signal_kind_default(k);
		uint64_t props = 0;

		UNIT_CHECK(k == (enum mmx_output_kind)i, "%s out of order",
			   kinds[i].name);
		UNIT_CHECK(!strcmp(mmx_connector_type_names[t].name,
				   kinds[i].type), "%s: ConnectorType %s want %s",
			   kinds[i].name, mmx_connector_type_names[t].name,
			   kinds[i].type);
		UNIT_CHECK(formats == kinds[i].formats, "%s: formats %#x want %#x",
			   kinds[i].name, formats, kinds[i].formats);
		UNIT_CHECK(def == kinds[i].def, "%s: default %d want %d",
			   kinds[i].name, def, kinds[i].def);
		UNIT_CHECK(!(formats & F(UNKNOWN)), "%s offers unknown",
			   kinds[i].name);
		UNIT_CHECK(!mmx_signal_check(k, def, 0),
			   "%s: default format refused", kinds[i].name);
		for (f = 0; f < MMX_SIGNAL_COUNT; f++) {
			int want = formats & MMX_SIGNAL_FMT(f) ? 0 : -EINVAL;

			UNIT_CHECK(mmx_signal_check(k, f, 0) == want,
				   "%s with %s: want %d", kinds[i].name,
				   mmx_signal_format_names[f].name, want);
			UNIT_CHECK(!want == !!(formats & MMX_SIGNAL_FMT(f)),
				   "consistency");
			if (!want) {
				props |= mmx_signal_format_props(f);
				UNIT_CHECK(!mmx_signal_check(k, f,
					   mmx_signal_default_props(f)),
					   "%s with %s: default props refused",
					   kinds[i].name,
					   mmx_signal_format_names[f].name);
			}
		}
		UNIT_CHECK(mmx_signal_kind_props(k) == props,
			   "%s: kind props %#llx want %#llx", kinds[i].name,
			   (unsigned long long)mmx_signal_kind_props(k),
			   (unsigned long long)props);
	}
	UNIT_CHECK(mmx_signal_connector_type(MMX_KIND_COUNT) ==
		   MMX_CONNECTOR_TYPE_UNKNOWN, "invalid kind");
	UNIT_CHECK(!mmx_signal_kind_formats(MMX_KIND_COUNT), "invalid kind");
	UNIT_CHECK(mmx_signal_check(MMX_KIND_COUNT, MMX_SIGNAL_VGA, 0) == -EINVAL,
		   "invalid kind accepted");
	UNIT_CHECK(mmx_signal_check(MMX_KIND_VGA, MMX_SIGNAL_COUNT, 0) == -EINVAL,
		   "invalid format accepted");
	return 0;
}

/* The documented defaults, per format. */
static const struct {
	enum mmx_signal_format format;
	uint64_t allowed;
	uint64_t def;
} formats[] = {
	{ MMX_SIGNAL_UNKNOWN, 0, 0 },
	{ MMX_SIGNAL_VGA, 0, 0 },
	{ MMX_SIGNAL_TMDS, P(SINGLE_LINK) | P(DUAL_LINK), P(SINGLE_LINK) },
	{ MMX_SIGNAL_LVDS, 0, 0 },
	{ MMX_SIGNAL_COMPOSITE, MMX_SIGPROP_TV_ALL, P(NTSC_M) },
	{ MMX_SIGNAL_COMPOSITE_PAL, MMX_SIGPROP_PAL_ALL, P(PAL_B) },
	{ MMX_SIGNAL_COMPOSITE_NTSC, MMX_SIGPROP_NTSC_ALL, P(NTSC_M) },
	{ MMX_SIGNAL_COMPOSITE_SECAM, MMX_SIGPROP_SECAM_ALL, P(SECAM_L) },
	{ MMX_SIGNAL_SVIDEO, MMX_SIGPROP_TV_ALL, P(NTSC_M) },
	{ MMX_SIGNAL_COMPONENT, 0, 0 },
	{ MMX_SIGNAL_DISPLAYPORT, MMX_SIGPROP_DP_ALL, P(LANE4) | P(HI_SPEED) },
};

static int test_format_props(void)
{
	size_t i;

	UNIT_CHECK(N(formats) == MMX_SIGNAL_COUNT, "table");
	for (i = 0; i < N(formats); i++) {
		enum mmx_signal_format f = formats[i].format;

		UNIT_CHECK(mmx_signal_format_props(f) == formats[i].allowed,
			   "%s: allowed %#llx", mmx_signal_format_names[f].name,
			   (unsigned long long)mmx_signal_format_props(f));
		UNIT_CHECK(mmx_signal_default_props(f) == formats[i].def,
			   "%s: default %#llx", mmx_signal_format_names[f].name,
			   (unsigned long long)mmx_signal_default_props(f));
		UNIT_CHECK(mmx_signal_resolve_props(f, 0) == formats[i].def,
			   "%s: resolve 0", mmx_signal_format_names[f].name);
		UNIT_CHECK(mmx_signal_resolve_props(f, P(DUAL_LINK)) ==
			   P(DUAL_LINK), "resolve keeps a set value");
	}
	return 0;
}

/* Named check() cases: kind, format, properties, expected result. */
static const struct {
	const char *name;
	enum mmx_output_kind kind;
	enum mmx_signal_format format;
	uint64_t props;
	int ret;
} check_cases[] = {
#include "tests/mmx_cases_signal_check.h"
};

static int test_check_table(void)
{
	size_t i;

	for (i = 0; i < N(check_cases); i++) {
		int ret = mmx_signal_check(check_cases[i].kind,
					   check_cases[i].format,
					   check_cases[i].props);

		UNIT_CHECK(ret == check_cases[i].ret, "%s: got %d want %d",
			   check_cases[i].name, ret, check_cases[i].ret);
	}
	return 0;
}

/*
 * Every single TV standard bit with every TV format: allowed exactly when
 * the format takes the standard's family.
 */
static int test_check_tv_bits(void)
{
	static const enum mmx_signal_format tv[] = {
		MMX_SIGNAL_COMPOSITE, MMX_SIGNAL_COMPOSITE_PAL,
		MMX_SIGNAL_COMPOSITE_NTSC, MMX_SIGNAL_COMPOSITE_SECAM,
		MMX_SIGNAL_SVIDEO,
	};
	size_t i;
	unsigned int p;

	for (i = 0; i < N(tv); i++) {
		for (p = 0; p < MMX_SIGPROP_COUNT; p++) {
			uint64_t bit = MMX_SIGPROP(p);
			uint64_t fam = tv[i] == MMX_SIGNAL_COMPOSITE_PAL ?
				       MMX_SIGPROP_PAL_ALL :
				       tv[i] == MMX_SIGNAL_COMPOSITE_NTSC ?
				       MMX_SIGPROP_NTSC_ALL :
				       tv[i] == MMX_SIGNAL_COMPOSITE_SECAM ?
				       MMX_SIGPROP_SECAM_ALL :
				       MMX_SIGPROP_TV_ALL;
			enum mmx_output_kind k = tv[i] == MMX_SIGNAL_SVIDEO ?
						 MMX_KIND_SVIDEO :
						 MMX_KIND_COMPOSITE;
			int want = bit & fam ? 0 : -EINVAL;

			UNIT_CHECK(mmx_signal_check(k, tv[i], bit) == want,
				   "%s with %s", mmx_signal_format_names[tv[i]].name,
				   mmx_sigprop_names[p].name);
		}
	}
	return 0;
}

/*
 * Link capacity at the boundaries. DisplayPort payload per lane after
 * 8b/10b: LowSpeed 1296000 kbit/s, HiSpeed 2160000 kbit/s; a mode needs
 * clock_khz * bpp kbit/s.
 */
static const struct {
	const char *name;
	enum mmx_signal_format format;
	uint64_t props;
	uint32_t clock;
	unsigned int bpp;
	int ret;
} fits_cases[] = {
#include "tests/mmx_cases_signal_fits.h"
};

static int test_mode_fits(void)
{
	size_t i;

	for (i = 0; i < N(fits_cases); i++) {
		int ret = mmx_signal_mode_fits(fits_cases[i].format,
					       fits_cases[i].props,
					       fits_cases[i].clock,
					       fits_cases[i].bpp);

		UNIT_CHECK(ret == fits_cases[i].ret, "%s: got %d want %d",
			   fits_cases[i].name, ret, fits_cases[i].ret);
	}
	return 0;
}

/* DRM's CEA-861 timings (drm_edid.c, edid_cea_modes_1), DBLCLK dropped. */
static const struct mmx_timing cea_vic2 = {
	27000, 720, 736, 798, 858, 480, 489, 495, 525,
	MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC, "720x480" };
static const struct mmx_timing cea_vic4 = {
	74250, 1280, 1390, 1430, 1650, 720, 725, 730, 750,
	MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC, "1280x720" };
static const struct mmx_timing cea_vic5 = {
	74250, 1920, 2008, 2052, 2200, 1080, 1084, 1094, 1125,
	MMX_TIMING_PHSYNC | MMX_TIMING_PVSYNC | MMX_TIMING_INTERLACE,
	"1920x1080i" };
static const struct mmx_timing cea_vic6 = {
	13500, 720, 739, 801, 858, 480, 488, 494, 525,
	MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
	"720x480i" };
static const struct mmx_timing cea_vic17 = {
	27000, 720, 732, 796, 864, 576, 581, 586, 625,
	MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC, "720x576" };
static const struct mmx_timing cea_vic21 = {
	13500, 720, 732, 795, 864, 576, 580, 586, 625,
	MMX_TIMING_NHSYNC | MMX_TIMING_NVSYNC | MMX_TIMING_INTERLACE,
	"720x576i" };

static int same_timing(const struct mmx_timing *a, const struct mmx_timing *b)
{
	return a->clock_khz == b->clock_khz && a->hdisplay == b->hdisplay &&
	       a->hsync_start == b->hsync_start && a->hsync_end == b->hsync_end &&
	       a->htotal == b->htotal && a->vdisplay == b->vdisplay &&
	       a->vsync_start == b->vsync_start && a->vsync_end == b->vsync_end &&
	       a->vtotal == b->vtotal && a->flags == b->flags &&
	       !strcmp(a->name, b->name);
}

/* Field (interlaced) or frame rate in mHz, rounded to the nearest. */
static uint64_t refresh_mhz(const struct mmx_timing *t)
{
	uint64_t num = (uint64_t)t->clock_khz * 1000000 *
		       (t->flags & MMX_TIMING_INTERLACE ? 2 : 1);
	uint64_t den = (uint64_t)t->htotal * t->vtotal;

	return (num + den / 2) / den;
}

static const struct {
	const char *name;
	enum mmx_signal_format format;
	uint64_t props;
	unsigned int n;
	const struct mmx_timing *want[4];
	uint64_t refresh[4];
} timing_cases[] = {
	{ "composite-ntsc-default", MMX_SIGNAL_COMPOSITE_NTSC, 0, 1,
	  { &cea_vic6 }, { 59940 } },
	{ "composite-ntsc-j", MMX_SIGNAL_COMPOSITE_NTSC, P(NTSC_J), 1,
	  { &cea_vic6 }, { 59940 } },
	{ "composite-ntsc-n-625", MMX_SIGNAL_COMPOSITE_NTSC, P(NTSC_N), 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-pal-default", MMX_SIGNAL_COMPOSITE_PAL, 0, 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-pal-base", MMX_SIGNAL_COMPOSITE_PAL, P(PAL), 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-pal-m-525", MMX_SIGNAL_COMPOSITE_PAL, P(PAL_M), 1,
	  { &cea_vic6 }, { 59940 } },
	{ "composite-pal-base-and-60", MMX_SIGNAL_COMPOSITE_PAL,
	  P(PAL) | P(PAL_60), 1, { &cea_vic6 }, { 59940 } },
	{ "composite-pal-nc", MMX_SIGNAL_COMPOSITE_PAL, P(PAL_NC), 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-secam-default", MMX_SIGNAL_COMPOSITE_SECAM, 0, 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-secam-k", MMX_SIGNAL_COMPOSITE_SECAM, P(SECAM_K), 1,
	  { &cea_vic21 }, { 50000 } },
	{ "composite-generic-default", MMX_SIGNAL_COMPOSITE, 0, 1,
	  { &cea_vic6 }, { 59940 } },
	{ "composite-generic-pal-b", MMX_SIGNAL_COMPOSITE, P(PAL_B), 1,
	  { &cea_vic21 }, { 50000 } },
	{ "svideo-default", MMX_SIGNAL_SVIDEO, 0, 1, { &cea_vic6 }, { 59940 } },
	{ "svideo-pal", MMX_SIGNAL_SVIDEO, P(PAL_G), 1, { &cea_vic21 },
	  { 50000 } },
	{ "svideo-secam", MMX_SIGNAL_SVIDEO, P(SECAM), 1, { &cea_vic21 },
	  { 50000 } },
	{ "component", MMX_SIGNAL_COMPONENT, 0, 4,
	  { &cea_vic4, &cea_vic5, &cea_vic17, &cea_vic2 },
	  { 60000, 60000, 50000, 59940 } },
	{ "composite-pal-bad-props", MMX_SIGNAL_COMPOSITE_PAL, P(NTSC_M), 0, { NULL }, { 0 } },
	{ "tmds-none", MMX_SIGNAL_TMDS, 0, 0, { NULL }, { 0 } },
	{ "vga-none", MMX_SIGNAL_VGA, 0, 0, { NULL }, { 0 } },
	{ "dp-none", MMX_SIGNAL_DISPLAYPORT, 0, 0, { NULL }, { 0 } },
	{ "lvds-none", MMX_SIGNAL_LVDS, 0, 0, { NULL }, { 0 } },
	{ "unknown-none", MMX_SIGNAL_UNKNOWN, 0, 0, { NULL }, { 0 } },
};

static int test_tv_timings(void)
{
	const struct mmx_timing *t;
	size_t i;
	unsigned int n, j;

	for (i = 0; i < N(timing_cases); i++) {
		n = mmx_signal_timings(timing_cases[i].format,
				       timing_cases[i].props, &t);
		UNIT_CHECK(n == timing_cases[i].n, "%s: %u timings want %u",
			   timing_cases[i].name, n, timing_cases[i].n);
		UNIT_CHECK(!n == !t, "%s: pointer", timing_cases[i].name);
		for (j = 0; j < n; j++) {
			UNIT_CHECK(same_timing(&t[j], timing_cases[i].want[j]),
				   "%s: timing %u is %s", timing_cases[i].name,
				   j, t[j].name);
			UNIT_CHECK(refresh_mhz(&t[j]) == timing_cases[i].refresh[j],
				   "%s: %s at %llu mHz", timing_cases[i].name,
				   t[j].name,
				   (unsigned long long)refresh_mhz(&t[j]));
			UNIT_CHECK(t[j].hdisplay < t[j].hsync_start &&
				   t[j].hsync_start < t[j].hsync_end &&
				   t[j].hsync_end < t[j].htotal &&
				   t[j].vdisplay < t[j].vsync_start &&
				   t[j].vsync_start < t[j].vsync_end &&
				   t[j].vsync_end < t[j].vtotal,
				   "%s: %s not ordered", timing_cases[i].name,
				   t[j].name);
			UNIT_CHECK(!mmx_signal_mode_fits(timing_cases[i].format,
							 timing_cases[i].props,
							 t[j].clock_khz, 24),
				   "%s: own clock refused", timing_cases[i].name);
			UNIT_CHECK(!mmx_signal_timing_fits(timing_cases[i].format,
							   timing_cases[i].props,
							   &t[j], 24),
				   "%s: own timing refused", timing_cases[i].name);
		}
	}
	/* BT.601: 13.5 MHz sampling, 858 and 864 samples per line. */
	n = mmx_signal_timings(MMX_SIGNAL_COMPOSITE_PAL, 0, &t);
	UNIT_CHECK(n == 1 && t->htotal == 864 && t->vtotal == 625 &&
		   t->clock_khz == 13500, "576i");
	n = mmx_signal_timings(MMX_SIGNAL_COMPOSITE_NTSC, 0, &t);
	UNIT_CHECK(n == 1 && t->htotal == 858 && t->vtotal == 525 &&
		   t->clock_khz == 13500, "480i");
	return 0;
}

static int test_timing_fits(void)
{
	struct mmx_timing t = cea_vic21;

	UNIT_CHECK(!mmx_signal_timing_fits(MMX_SIGNAL_COMPOSITE_PAL, 0, &t, 24),
		   "576i on PAL");
	UNIT_CHECK(mmx_signal_timing_fits(MMX_SIGNAL_COMPOSITE_NTSC, 0, &t, 24) ==
		   -EINVAL, "576i on NTSC");
	t.flags &= ~MMX_TIMING_INTERLACE;
	UNIT_CHECK(mmx_signal_timing_fits(MMX_SIGNAL_COMPOSITE_PAL, 0, &t, 24) ==
		   -EINVAL, "progressive 576 on PAL");
	t = cea_vic21;
	t.flags ^= MMX_TIMING_NHSYNC | MMX_TIMING_PHSYNC;
	t.name = "other";
	UNIT_CHECK(!mmx_signal_timing_fits(MMX_SIGNAL_COMPOSITE_PAL, 0, &t, 24),
		   "polarity and name are not compared");
	t = cea_vic21;
	t.hsync_end++;
	UNIT_CHECK(mmx_signal_timing_fits(MMX_SIGNAL_COMPOSITE_PAL, 0, &t, 24) ==
		   -EINVAL, "geometry compared");
	UNIT_CHECK(mmx_signal_timing_fits(MMX_SIGNAL_COMPONENT, 0, &cea_vic6, 24) ==
		   -EINVAL, "480i on component");
	UNIT_CHECK(!mmx_signal_timing_fits(MMX_SIGNAL_COMPONENT, 0, &cea_vic5, 24),
		   "1080i on component");
	/* Non-TV signals: the clock decides. */
	UNIT_CHECK(!mmx_signal_timing_fits(MMX_SIGNAL_TMDS, 0, &cea_vic6, 24),
		   "480i on TMDS");
	t = cea_vic5;
	t.clock_khz = 165001;
	UNIT_CHECK(mmx_signal_timing_fits(MMX_SIGNAL_TMDS, 0, &t, 24) == -EINVAL,
		   "165001 on single link");
	UNIT_CHECK(!mmx_signal_timing_fits(MMX_SIGNAL_TMDS, P(DUAL_LINK), &t, 24),
		   "165001 on dual link");
	return 0;
}

static const struct {
	const char *name;
	enum mmx_output_kind kind;
	enum mmx_signal_format cur;
	uint32_t sink;
	enum mmx_signal_format preferred;
	int ret;
	enum mmx_signal_format want;
} pick_cases[] = {
	{ "dvii-analog-sink", MMX_KIND_DVII, MMX_SIGNAL_TMDS, F(VGA),
	  MMX_SIGNAL_VGA, 0, MMX_SIGNAL_VGA },
	{ "dvii-digital-sink", MMX_KIND_DVII, MMX_SIGNAL_VGA, F(TMDS),
	  MMX_SIGNAL_TMDS, 0, MMX_SIGNAL_TMDS },
	{ "dvii-keeps-current", MMX_KIND_DVII, MMX_SIGNAL_VGA, F(VGA) | F(TMDS),
	  MMX_SIGNAL_TMDS, 0, MMX_SIGNAL_VGA },
	{ "composite-pal-tv", MMX_KIND_COMPOSITE, MMX_SIGNAL_COMPOSITE_NTSC,
	  F(COMPOSITE) | F(COMPOSITE_PAL) | F(SVIDEO),
	  MMX_SIGNAL_COMPOSITE_PAL, 0, MMX_SIGNAL_COMPOSITE_PAL },
	{ "tv-prefers-unavailable", MMX_KIND_SVIDEO, MMX_SIGNAL_SVIDEO,
	  F(COMPOSITE_PAL) | F(SVIDEO), MMX_SIGNAL_COMPOSITE_PAL, 0,
	  MMX_SIGNAL_SVIDEO },
	{ "first-common", MMX_KIND_SCART, MMX_SIGNAL_SVIDEO, F(COMPONENT) |
	  F(COMPOSITE_SECAM), MMX_SIGNAL_TMDS, 0, MMX_SIGNAL_COMPOSITE_SECAM },
	{ "hdmi-analog-sink", MMX_KIND_HDMIA, MMX_SIGNAL_TMDS, F(VGA),
	  MMX_SIGNAL_VGA, -EINVAL, MMX_SIGNAL_TMDS },
	{ "nothing", MMX_KIND_VGA, MMX_SIGNAL_VGA, 0, MMX_SIGNAL_VGA, -EINVAL,
	  MMX_SIGNAL_VGA },
};

static int test_pick(void)
{
	enum mmx_signal_format f;
	size_t i;
	int ret;

	for (i = 0; i < N(pick_cases); i++) {
		ret = mmx_signal_pick(pick_cases[i].kind, pick_cases[i].cur,
				      pick_cases[i].sink, pick_cases[i].preferred,
				      &f);
		UNIT_CHECK(ret == pick_cases[i].ret, "%s: got %d",
			   pick_cases[i].name, ret);
		UNIT_CHECK(f == pick_cases[i].want, "%s: format %s",
			   pick_cases[i].name, mmx_signal_format_names[f].name);
	}
	return 0;
}

static int test_flags_match_drm(void)
{
#ifdef DRM_MODE_FLAG_INTERLACE
	UNIT_CHECK(MMX_TIMING_PHSYNC == DRM_MODE_FLAG_PHSYNC &&
		   MMX_TIMING_NHSYNC == DRM_MODE_FLAG_NHSYNC &&
		   MMX_TIMING_PVSYNC == DRM_MODE_FLAG_PVSYNC &&
		   MMX_TIMING_NVSYNC == DRM_MODE_FLAG_NVSYNC &&
		   MMX_TIMING_INTERLACE == DRM_MODE_FLAG_INTERLACE,
		   "flag values differ from drm_mode.h");
#else
	fprintf(stderr, "note: drm_mode.h not found, flags not compared\n");
#endif
	return 0;
}

/*
 * SignalProperties enum values per kind. Counts worked out by hand from the
 * rules: TMDS 2 (one link), DisplayPort 3 lane counts x 2 rates, TV one
 * standard: NTSC 6, PAL 11, SECAM 7 = 24; "none" when a format of the kind
 * takes no property.
 */
static const struct {
	enum mmx_output_kind kind;
	unsigned int count;
	const char *first, *last;
} value_cases[] = {
	{ MMX_KIND_VGA, 0, NULL, NULL },
	{ MMX_KIND_DVIA, 0, NULL, NULL },
	{ MMX_KIND_LVDS, 0, NULL, NULL },
	{ MMX_KIND_COMPONENT, 0, NULL, NULL },
	{ MMX_KIND_DVII, 3, "none", "DualLink" },
	{ MMX_KIND_DVID, 2, "SingleLink", "DualLink" },
	{ MMX_KIND_HDMIA, 2, "SingleLink", "DualLink" },
	{ MMX_KIND_DP, 6, "Lane1+LowSpeed", "Lane4+HiSpeed" },
	{ MMX_KIND_EDP, 6, "Lane1+LowSpeed", "Lane4+HiSpeed" },
	{ MMX_KIND_COMPOSITE, 24, "NTSC", "SECAM-H" },
	{ MMX_KIND_SVIDEO, 24, "NTSC", "SECAM-H" },
	{ MMX_KIND_TV, 24, "NTSC", "SECAM-H" },
	{ MMX_KIND_SCART, 25, "none", "SECAM-H" },
};

static int test_enum_values(void)
{
	u64 values[MMX_SIGNAL_VALUES_MAX];
	char name[MMX_SIGNAL_NAME_MAX], other[MMX_SIGNAL_NAME_MAX];
	unsigned int c, i, j, f, n;
	int ret;

	for (c = 0; c < N(value_cases); c++) {
		enum mmx_output_kind kind = value_cases[c].kind;
		u32 formats = mmx_signal_kind_formats(kind);

		n = mmx_signal_kind_values(kind, values);
		UNIT_CHECK(n == value_cases[c].count, "kind %d: %u values, want %u",
			   kind, n, value_cases[c].count);
		UNIT_CHECK(!n == !mmx_signal_kind_props(kind),
			   "kind %d: values without properties", kind);
		for (i = 0; i < n; i++) {
			bool fits = false;

			ret = mmx_signal_props_name(values[i], name,
						    sizeof(name));
			UNIT_CHECK(ret > 0 && ret < MMX_SIGNAL_NAME_MAX &&
				   (size_t)ret == strlen(name),
				   "kind %d value 0x%llx: name %d", kind,
				   (unsigned long long)values[i], ret);
			if (i == 0)
				UNIT_CHECK(!strcmp(name, value_cases[c].first),
					   "kind %d: first '%s'", kind, name);
			if (i == n - 1)
				UNIT_CHECK(!strcmp(name, value_cases[c].last),
					   "kind %d: last '%s'", kind, name);
			for (f = 0; f < MMX_SIGNAL_COUNT; f++)
				if ((formats & MMX_SIGNAL_FMT(f)) &&
				    mmx_signal_props_valid(f, values[i]))
					fits = true;
			UNIT_CHECK(fits, "kind %d: '%s' fits no format", kind,
				   name);
			for (j = 0; j < i; j++) {
				UNIT_CHECK(values[j] != values[i],
					   "kind %d: '%s' twice", kind, name);
				mmx_signal_props_name(values[j], other,
						      sizeof(other));
				UNIT_CHECK(strcmp(name, other),
					   "kind %d: name '%s' twice", kind,
					   name);
			}
		}
		/* Each format's default is listed. */
		for (f = 0; n && f < MMX_SIGNAL_COUNT; f++) {
			u64 def = mmx_signal_default_props(f);
			bool found = false;

			if (!(formats & MMX_SIGNAL_FMT(f)))
				continue;
			for (i = 0; i < n; i++)
				found |= values[i] == def;
			UNIT_CHECK(found, "kind %d: default of format %u missing",
				   kind, f);
		}
	}
	return 0;
}

static int test_props_valid(void)
{
	char buf[MMX_SIGNAL_NAME_MAX];

	UNIT_CHECK(mmx_signal_props_valid(MMX_SIGNAL_VGA, 0), "VGA none");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_TMDS, 0),
		   "TMDS none is no shorthand for the default");
	UNIT_CHECK(mmx_signal_props_valid(MMX_SIGNAL_TMDS, P(DUAL_LINK)),
		   "TMDS DualLink");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_VGA, P(SINGLE_LINK)),
		   "VGA SingleLink");
	UNIT_CHECK(mmx_signal_props_valid(MMX_SIGNAL_DISPLAYPORT,
					  P(LANE2) | P(LOW_SPEED)), "DP");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_DISPLAYPORT, P(LANE2)),
		   "DP without rate");
	UNIT_CHECK(mmx_signal_props_valid(MMX_SIGNAL_COMPOSITE_PAL, P(PAL_B)),
		   "PAL-B");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_COMPOSITE_PAL,
					   P(PAL) | P(PAL_B)),
		   "PAL+PAL-B: the variant implies its family");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_COMPOSITE_PAL, P(NTSC_M)),
		   "NTSC-M on Composite-PAL");
	UNIT_CHECK(!mmx_signal_props_valid(MMX_SIGNAL_COUNT, 0), "bad format");

	UNIT_CHECK(mmx_signal_props_name(0, buf, sizeof(buf)) == 4 &&
		   !strcmp(buf, "none"), "none: '%s'", buf);
	UNIT_CHECK(mmx_signal_props_name(P(LANE4) | P(HI_SPEED), buf,
					 sizeof(buf)) == 13 &&
		   !strcmp(buf, "Lane4+HiSpeed"), "'%s'", buf);
	UNIT_CHECK(mmx_signal_props_name(P(NTSC) | P(NTSC_443), buf,
					 sizeof(buf)) == 14 &&
		   !strcmp(buf, "NTSC+NTSC-4.43"), "'%s'", buf);
	UNIT_CHECK(mmx_signal_props_name(MMX_SIGPROP(MMX_SIGPROP_COUNT), buf,
					 sizeof(buf)) == -EINVAL, "unknown bit");
	UNIT_CHECK(mmx_signal_props_name(P(LANE4) | P(HI_SPEED), buf, 13) ==
		   -ENOSPC, "13 bytes for 13 characters");
	UNIT_CHECK(mmx_signal_props_name(0, buf, 4) == -ENOSPC, "none in 4");
	return 0;
}

static const struct unit_case cases[] = {
	{ "names", "RandR value names, order and bit groups", test_names },
	{ "kinds", "ConnectorType, SignalFormat subset and default per kind",
	  test_kinds },
	{ "format-props", "allowed and default SignalProperties per format",
	  test_format_props },
	{ "check-table", "named accepted and refused settings",
	  test_check_table },
	{ "check-tv-bits", "each TV standard with each TV format",
	  test_check_tv_bits },
	{ "mode-fits", "link capacity at the boundaries", test_mode_fits },
	{ "tv-timings", "TV and component timings per signal",
	  test_tv_timings },
	{ "timing-fits", "TV signals carry only their own timings",
	  test_timing_fits },
	{ "pick", "SignalFormat chosen for a new sink", test_pick },
	{ "enum-values", "SignalProperties enum values and names per kind",
	  test_enum_values },
	{ "props-valid", "exact SignalProperties validity and value names",
	  test_props_valid },
	{ "flags-match-drm", "timing flags equal DRM_MODE_FLAG_*",
	  test_flags_match_drm },
};

UNIT_MAIN(cases)
