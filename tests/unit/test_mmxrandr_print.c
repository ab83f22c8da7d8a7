// SPDX-License-Identifier: MIT
/*
 * mmxrandr's query output (userspace/mmxrandr/print.c) against golden
 * text for synthetic snapshots (mmxrandr_state.h): plain, rotated and
 * reflected with a disconnected output, --verbose with panning, a scale
 * transform, properties of every kind and an EDID, and --prop. The golden
 * text follows xrandr 1.5's printf formats: mode lines "   %-12s" then
 * " %6.2f" with '*' current and '+' preferred per rate, modes of one name
 * on one line; verbose modes "  NAME (0xID) %6.3fMHz" with their h:/v:
 * lines; properties "\tNAME: VALUE " and "\t\tsupported: a, b" or
 * "\t\trange: (min, max)"; EDID as 16 bytes of hex per line.
 */
#include "unit.h"
#include "mmxrandr.h"
#include "mmxrandr_state.h"

/* eDP-1's properties as --verbose and --prop print them */
#define EDP_PROPS \
	"\tConnectorType: Panel \n" \
	"\t\tsupported: unknown, VGA, Panel\n" \
	"\tSignalFormat: DisplayPort \n" \
	"\t\tsupported: DisplayPort\n" \
	"\tSignalProperties: Lane4+HiSpeed \n" \
	"\t\tsupported: Lane1+LowSpeed, Lane1+HiSpeed, Lane2+LowSpeed, Lane2+HiSpeed, Lane4+LowSpeed, Lane4+HiSpeed\n" \
	"\tConnectorNumber: 1 \n" \
	"\t\trange: (0, 8)\n"

/* VGA-1's, with its EDID */
#define VGA_PROPS \
	"\tSignalFormat: VGA \n" \
	"\t\tsupported: VGA\n" \
	"\tlink-status: Good \n" \
	"\t\tsupported: Good, Bad\n" \
	"\tbrightness-test: 50 \n" \
	"\t\trange: (0, 100)\n" \
	"\tEDID: \n" \
	"\t\t00ffffffffffff008899aabbccddeeff\n" \
	"\t\t10213243\n"

static const char golden_normal[] =
	"Screen 0: minimum 8 x 8, current 1024 x 768, maximum 8192 x 8192\n"
	"eDP-1 connected primary 1024x768+0+0 (normal left inverted right x axis y axis) 309mm x 174mm\n"
	"   1024x768      60.00*+\n"
	"   800x600       60.32    75.00  \n"
	"   640x480       59.94  \n"
	"VGA-1 connected (normal left inverted right x axis y axis)\n"
	"   1024x768      60.00 +\n"
	"   640x480       59.94  \n";

static const char golden_rotated[] =
	"Screen 0: minimum 8 x 8, current 1024 x 768, maximum 8192 x 8192\n"
	"eDP-1 connected primary 768x1024+0+0 left X axis (normal left inverted right x axis y axis) 309mm x 174mm\n"
	"   1024x768      60.00*+\n"
	"   800x600       60.32    75.00  \n"
	"   640x480       59.94  \n"
	"VGA-1 disconnected (normal left inverted right x axis y axis)\n"
	"   1024x768      60.00 +\n"
	"   640x480       59.94  \n";

static const char golden_verbose[] =
	"Screen 0: minimum 8 x 8, current 1024 x 768, maximum 8192 x 8192\n"
	"eDP-1 connected primary 2048x1536+0+0 (0x48) normal (normal left inverted right x axis y axis) 309mm x 174mm panning 2048x1536+0+0 tracking 2048x1536+0+0 border 1/2/3/4\n"
	"\tIdentifier: 0x28\n"
	"\tTimestamp:  123456\n"
	"\tSubpixel:   unknown\n"
	"\tClones:    \n"
	"\tCRTC:       0\n"
	"\tCRTCs:      0 1\n"
	"\tPanning:    2048x1536+0+0\n"
	"\tTracking:   2048x1536+0+0\n"
	"\tBorder:     1/2/3/4\n"
	"\tTransform:  2.000000 0.000000 0.000000\n"
	"\t            0.000000 2.000000 0.000000\n"
	"\t            0.000000 0.000000 1.000000\n"
	"\t           filter: bilinear\n"
	EDP_PROPS
	"  1024x768 (0x48) 65.000MHz -HSync -VSync *current +preferred\n"
	"        h: width  1024 start 1048 end 1184 total 1344 skew    0 clock  48.36KHz\n"
	"        v: height  768 start  771 end  777 total  806           clock  60.00Hz\n"
	"  800x600 (0x49) 40.000MHz +HSync +VSync\n"
	"        h: width   800 start  824 end  960 total 1056 skew    0 clock  37.88KHz\n"
	"        v: height  600 start  603 end  609 total  628           clock  60.32Hz\n"
	"  800x600 (0x4a) 49.500MHz +HSync +VSync\n"
	"        h: width   800 start  824 end  960 total 1056 skew    0 clock  46.88KHz\n"
	"        v: height  600 start  603 end  609 total  625           clock  75.00Hz\n"
	"  640x480 (0x4b) 25.175MHz -HSync -VSync\n"
	"        h: width   640 start  664 end  800 total  800 skew    0 clock  31.47KHz\n"
	"        v: height  480 start  483 end  489 total  525           clock  59.94Hz\n"
	"VGA-1 connected (normal left inverted right x axis y axis)\n"
	"\tIdentifier: 0x29\n"
	"\tTimestamp:  123456\n"
	"\tSubpixel:   unknown\n"
	"\tClones:    \n"
	"\tCRTCs:      0 1\n"
	"\tTransform:  1.000000 0.000000 0.000000\n"
	"\t            0.000000 1.000000 0.000000\n"
	"\t            0.000000 0.000000 1.000000\n"
	"\t           filter: \n"
	VGA_PROPS
	"  1024x768 (0x48) 65.000MHz -HSync -VSync +preferred\n"
	"        h: width  1024 start 1048 end 1184 total 1344 skew    0 clock  48.36KHz\n"
	"        v: height  768 start  771 end  777 total  806           clock  60.00Hz\n"
	"  640x480 (0x4b) 25.175MHz -HSync -VSync\n"
	"        h: width   640 start  664 end  800 total  800 skew    0 clock  31.47KHz\n"
	"        v: height  480 start  483 end  489 total  525           clock  59.94Hz\n";

static const char golden_props[] =
	"Screen 0: minimum 8 x 8, current 1024 x 768, maximum 8192 x 8192\n"
	"eDP-1 connected primary 2048x1536+0+0 (normal left inverted right x axis y axis) 309mm x 174mm panning 2048x1536+0+0 tracking 2048x1536+0+0 border 1/2/3/4\n"
	EDP_PROPS
	"   1024x768      60.00*+\n"
	"   800x600       60.32    75.00  \n"
	"   640x480       59.94  \n"
	"VGA-1 connected (normal left inverted right x axis y axis)\n"
	VGA_PROPS
	"   1024x768      60.00 +\n"
	"   640x480       59.94  \n";
/* @s printed with @flags, in a malloc'ed string (NULL if none). */
static char *print_text(const struct mmx_state *s, uint32_t flags)
{
	char *got = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&got, &len);

	if (!f)
		return NULL;
	mmxr_print_state(f, s, flags);
	fclose(f);
	return got;
}

/* Print @s with @flags into a string; compare with @want line by line. */
static int check_text(const struct mmx_state *s, uint32_t flags,
		      const char *want)
{
	char *got = print_text(s, flags), *g, *w;
	int line = 1, ret = 0;

	if (!got)
		return -1;
	for (g = got, w = (char *)want; *g && *w && *g == *w; g++, w++)
		if (*g == '\n')
			line++;
	if (*g || *w) {
		fprintf(stderr, "line %d differs:\n  got:  \"%.60s\"\n  want: \"%.60s\"\n",
			line, g, w);
		ret = -1;
	}
	free(got);
	return ret;
}

/* check_text() on @s, which is freed. */
static int check_golden(struct mmx_state *s, uint32_t flags, const char *want)
{
	int ret = check_text(s, flags, want);

	mmx_state_free(s);
	return ret;
}

static int test_normal(void)
{
	UNIT_CHECK(check_golden(t_state(), 0, golden_normal) == 0, "normal");
	return 0;
}

static int test_rotated(void)
{
	struct mmx_state *s = t_state();

	s->outputs[1].connection = MMX_DISCONNECTED;
	s->crtcs[0].rotation = MMX_ROTATE_90 | MMX_REFLECT_X;
	s->crtcs[0].width = 768;
	s->crtcs[0].height = 1024;
	UNIT_CHECK(check_golden(s, 0, golden_rotated) == 0, "rotated");
	return 0;
}

static struct mmx_state *panned_scaled(void)
{
	struct mmx_state *s = t_state();
	struct mmx_crtc_info *c = &s->crtcs[0];

	c->panning = (struct mmx_panning_info){
		.width = 2048, .height = 1536,
		.track_width = 2048, .track_height = 1536,
		.border_left = 1, .border_top = 2, .border_right = 3,
		.border_bottom = 4,
	};
	c->current.matrix[0] = 2;
	c->current.matrix[4] = 2;
	c->current.identity = 0;
	c->current.filter = "bilinear";
	c->width = 2048;
	c->height = 1536;
	return s;
}

static int test_verbose(void)
{
	UNIT_CHECK(check_golden(panned_scaled(), MMXR_PRINT_VERBOSE,
				golden_verbose) == 0, "verbose");
	return 0;
}

static int test_props(void)
{
	UNIT_CHECK(check_golden(panned_scaled(), MMXR_PRINT_PROPS,
				golden_props) == 0, "props");
	return 0;
}

static int test_details(void)
{
	struct mmx_state *s = t_state();
	char *got;

	/* no panning tracking clause when tracking equals the area and
	 * borders are 0; an unset primary; an empty EDID is not listed;
	 * an unknown connection */
	s->crtcs[0].panning = (struct mmx_panning_info){
		.width = 1024, .height = 768, .track_width = 1024,
		.track_height = 768,
	};
	s->outputs[0].primary = 0;
	s->primary = 0;
	s->outputs[1].props[3].blob_len = 0;
	s->outputs[1].connection = MMX_UNKNOWN_CONNECTION;
	got = print_text(s, MMXR_PRINT_PROPS);
	mmx_state_free(s);
	UNIT_CHECK(got, "memstream");
	UNIT_CHECK(strstr(got, "eDP-1 connected 1024x768+0+0 (normal left inverted right x axis y axis) 309mm x 174mm panning 1024x768+0+0\n"),
		   "%s", got);
	UNIT_CHECK(!strstr(got, "EDID"), "empty EDID listed");
	UNIT_CHECK(strstr(got, "VGA-1 unknown connection ("), "%s", got);
	free(got);
	return 0;
}

/*
 * CompatibilityList / CloneList: struct drm_mmx_output_signal arrays shown
 * as output names with their signal; other blobs stay bytes.
 */
static int test_signal_lists(void)
{
	struct mmx_state *s = t_state();
	struct mmx_output_info *e = &s->outputs[0];
	struct mmx_property *props = t_alloc(s, e->nprop + 2, sizeof(*props));
	const uint32_t entries[4] = { T_VGA, 0, T_EDP, 0 };
	struct mmx_property *p;
	char *got;

	/* two more properties: a new array, as libmmx would hand out */
	memcpy(props, e->props, e->nprop * sizeof(*props));
	e->props = props;
	p = &e->props[e->nprop++];
	t_blob_prop(s, p, "CompatibilityList", MMX_PROP_IMMUTABLE, 0, 0,
		    sizeof(entries));
	memcpy(p->blob, entries, sizeof(entries));
	p = &e->props[e->nprop++];
	*p = e->props[e->nprop - 2];
	p->name = "CloneList";
	p->blob_len = 6;	/* not a whole entry: bytes */
	got = print_text(s, MMXR_PRINT_PROPS);
	mmx_state_free(s);
	UNIT_CHECK(got, "memstream");
	UNIT_CHECK(strstr(got, "\tCompatibilityList: VGA-1:VGA eDP-1:DisplayPort \n"),
		   "%s", got);
	UNIT_CHECK(strstr(got, "\tCloneList: 41 0 0 0 0 0 \n"), "%s", got);
	free(got);
	return 0;
}

static const struct unit_case cases[] = {
	{ "print-normal", "xrandr's default query layout", test_normal },
	{ "print-rotated", "rotation and reflection words, a disconnected output", test_rotated },
	{ "print-verbose", "--verbose: ids, CRTCs, panning, transform, properties, modes", test_verbose },
	{ "print-props", "--prop: properties without verbose modes", test_props },
	{ "print-details", "panning clause, primary, empty EDID, unknown connection", test_details },
	{ "print-signal-lists", "CompatibilityList/CloneList as outputs and signals", test_signal_lists },
};

UNIT_MAIN(cases)
