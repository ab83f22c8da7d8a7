// SPDX-License-Identifier: MIT
/*
 * mmxrandr's command-line parser (userspace/mmxrandr/args.c): every
 * option's valid forms, and the bad ones with xrandr's message. A parse
 * error is final: main() prints the message and the "Try" line and exits
 * 1 before it opens the display, so nothing can be applied (the last case
 * checks that the request of a failed parse holds no change).
 */
#include <errno.h>
#include <math.h>

#include "unit.h"
#include "mmxrandr_cmdline.h"

static struct mmxr_request req;
static char err[MMXR_ERR_LEN];

/* Parse a command line given as one string split at spaces. */
static int parse(const char *line)
{
	return t_parse_line(line, &req, err, sizeof(err));
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-12;
}

static int test_global(void)
{
	UNIT_CHECK(parse("") == 0, "%s", err);
	UNIT_CHECK(req.flags == 0 && req.noutput == 0, "empty");
	UNIT_CHECK(!mmxr_request_changes(&req), "empty changes");
	UNIT_CHECK(parse("--verbose --current -q --prop") == 0, "%s", err);
	UNIT_CHECK(req.flags == (MMXR_VERBOSE | MMXR_CURRENT | MMXR_QUERY |
				 MMXR_PROPS), "flags %#x", req.flags);
	UNIT_CHECK(!mmxr_request_changes(&req), "query changes");
	UNIT_CHECK(parse("--query --properties") == 0, "%s", err);
	UNIT_CHECK(req.flags == (MMXR_QUERY | MMXR_PROPS), "flags %#x",
		   req.flags);
	UNIT_CHECK(parse("--dryrun") == 0, "%s", err);
	UNIT_CHECK(req.flags == (MMXR_DRYRUN | MMXR_VERBOSE), "dryrun %#x",
		   req.flags);
	UNIT_CHECK(parse("--help") == 0 && (req.flags & MMXR_HELP), "help");
	UNIT_CHECK(parse("--version") == 0 && (req.flags & MMXR_VERSION_FLAG),
		   "version");
	UNIT_CHECK(parse("-d unix:/tmp/mmxd.sock") == 0 &&
		   !strcmp(req.display, "unix:/tmp/mmxd.sock"), "display");
	UNIT_CHECK(parse("--display local --hold") == 0 &&
		   !strcmp(req.display, "local") && (req.flags & MMXR_HOLD),
		   "display local");
	UNIT_CHECK(parse("--noprimary") == 0 &&
		   (req.flags & MMXR_NOPRIMARY) && mmxr_request_changes(&req),
		   "noprimary");
	UNIT_CHECK(parse("--auto") == 0 && (req.flags & MMXR_AUTO_ALL) &&
		   req.noutput == 0, "global auto");
	UNIT_CHECK(parse("--fb 1280x960") == 0 && (req.flags & MMXR_FB) &&
		   req.fb_width == 1280 && req.fb_height == 960, "fb");
	UNIT_CHECK(parse("--pan-mode joint") == 0 &&
		   (req.flags & MMXR_PAN_MODE) &&
		   req.pan_mode == MMX_PAN_JOINT, "pan-mode joint");
	UNIT_CHECK(parse("--pan-mode independent") == 0 &&
		   req.pan_mode == MMX_PAN_INDEPENDENT, "pan-mode independent");
	UNIT_CHECK(parse("--pointer 10,-20 --pointer 0,0") == 0 &&
		   req.npointer == 2 && req.pointer[0].x == 10 &&
		   req.pointer[0].y == -20, "pointer");
	UNIT_CHECK(!mmxr_request_changes(&req), "pointer is no change");
	UNIT_CHECK(parse("--capture eDP-1 /tmp/a.ppm") == 0 &&
		   req.ncapture == 1 &&
		   !strcmp(req.capture[0].output, "eDP-1") &&
		   !strcmp(req.capture[0].file, "/tmp/a.ppm"), "capture");
	return 0;
}

static int test_output_options(void)
{
	struct mmxr_output_req *o = &req.outputs[0];

	UNIT_CHECK(parse("--output eDP-1 --mode 640x480 --rate 59.94 --pos 10x-20 --rotate left --reflect xy") == 0,
		   "%s", err);
	UNIT_CHECK(req.noutput == 1 && !strcmp(o->name, "eDP-1"), "output");
	UNIT_CHECK(o->changes == (MMXR_CH_MODE | MMXR_CH_RATE | MMXR_CH_POS |
				  MMXR_CH_ROTATE | MMXR_CH_REFLECT),
		   "changes %#x", o->changes);
	UNIT_CHECK(o->mode_kind == MMXR_MODE_NAME &&
		   !strcmp(o->mode_name, "640x480"), "mode");
	UNIT_CHECK(near(o->refresh, 59.94), "rate %f", o->refresh);
	UNIT_CHECK(o->x == 10 && o->y == -20, "pos %d,%d", o->x, o->y);
	UNIT_CHECK(o->rotate == MMX_ROTATE_90, "rotate %#x", o->rotate);
	UNIT_CHECK(o->reflect == (MMX_REFLECT_X | MMX_REFLECT_Y), "reflect");

	UNIT_CHECK(parse("--output VGA-1 --mode 0x4b --refresh 75") == 0,
		   "%s", err);
	UNIT_CHECK(o->mode_kind == MMXR_MODE_ID && o->mode_id == 0x4b, "id");
	UNIT_CHECK(parse("--output VGA-1 --rotation inverted --reflection x") == 0 &&
		   o->rotate == MMX_ROTATE_180 && o->reflect == MMX_REFLECT_X,
		   "rotation aliases");
	UNIT_CHECK(parse("--output VGA-1 --rotate right --reflect y") == 0 &&
		   o->rotate == MMX_ROTATE_270 && o->reflect == MMX_REFLECT_Y,
		   "right, y");
	UNIT_CHECK(parse("--output VGA-1 --rotate normal --reflect normal") == 0 &&
		   o->rotate == MMX_ROTATE_0 && o->reflect == 0, "normal");
	UNIT_CHECK(parse("--output VGA-1 --preferred") == 0 &&
		   o->mode_kind == MMXR_MODE_PREFERRED, "preferred");
	UNIT_CHECK(parse("--output VGA-1 --off") == 0 &&
		   o->mode_kind == MMXR_MODE_OFF, "off");
	UNIT_CHECK(parse("--output VGA-1 --auto") == 0 &&
		   o->changes == MMXR_CH_AUTO &&
		   !(req.flags & MMXR_AUTO_ALL), "output auto");
	UNIT_CHECK(parse("--output VGA-1 --primary") == 0 &&
		   o->changes == MMXR_CH_PRIMARY, "primary");
	UNIT_CHECK(parse("--output VGA-1 --crtc 1") == 0 &&
		   !strcmp(o->crtc, "1"), "crtc");
	UNIT_CHECK(parse("--output VGA-1 --set SignalFormat VGA --set link-status Good") == 0,
		   "%s", err);
	UNIT_CHECK(o->nprop == 2 && !strcmp(o->props[0].name, "SignalFormat") &&
		   !strcmp(o->props[0].value, "VGA") &&
		   !strcmp(o->props[1].name, "link-status"), "set");
	return 0;
}

static int test_relations(void)
{
	static const struct {
		const char *opt;
		int rel;
	} rels[] = {
		{ "--left-of", MMXR_LEFT_OF }, { "--right-of", MMXR_RIGHT_OF },
		{ "--above", MMXR_ABOVE }, { "--below", MMXR_BELOW },
		{ "--same-as", MMXR_SAME_AS },
	};
	char line[128];
	size_t k;

	for (k = 0; k < sizeof(rels) / sizeof(rels[0]); k++) {
		snprintf(line, sizeof(line), "--output VGA-1 %s eDP-1",
			 rels[k].opt);
		UNIT_CHECK(parse(line) == 0, "%s: %s", line, err);
		UNIT_CHECK(req.outputs[0].relation == rels[k].rel &&
			   !strcmp(req.outputs[0].relative_to, "eDP-1") &&
			   req.outputs[0].changes == MMXR_CH_RELATION, "%s",
			   line);
	}
	/* the later of --pos and a relation wins */
	UNIT_CHECK(parse("--output VGA-1 --pos 1x2 --left-of eDP-1") == 0 &&
		   req.outputs[0].changes == MMXR_CH_RELATION, "rel after pos");
	UNIT_CHECK(parse("--output VGA-1 --left-of eDP-1 --pos 1x2") == 0 &&
		   req.outputs[0].changes == MMXR_CH_POS, "pos after rel");
	/* repeated --output merges; options go to the latest --output */
	UNIT_CHECK(parse("--output VGA-1 --mode 640x480 --output eDP-1 --off --output VGA-1 --pos 5x6") == 0,
		   "%s", err);
	UNIT_CHECK(req.noutput == 2, "noutput %u", req.noutput);
	UNIT_CHECK(req.outputs[0].changes == (MMXR_CH_MODE | MMXR_CH_POS) &&
		   req.outputs[0].x == 5 &&
		   req.outputs[1].mode_kind == MMXR_MODE_OFF, "merged");
	return 0;
}

static int test_transforms(void)
{
	struct mmxr_output_req *o = &req.outputs[0];
	static const double id[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
	int k;

	UNIT_CHECK(parse("--output eDP-1 --transform 1,0.5,-3,0,2,4e1,0.001,0,1") == 0,
		   "%s", err);
	UNIT_CHECK(o->changes == MMXR_CH_TRANSFORM &&
		   o->transform_kind == MMXR_XF_MATRIX, "transform");
	UNIT_CHECK(near(o->matrix[1], 0.5) && near(o->matrix[2], -3) &&
		   near(o->matrix[5], 40) && near(o->matrix[6], 0.001),
		   "matrix");
	UNIT_CHECK(!strcmp(o->transform_filter, "bilinear"), "xrandr's filter");
	UNIT_CHECK(parse("--output eDP-1 --transform none") == 0, "%s", err);
	for (k = 0; k < 9; k++)
		UNIT_CHECK(o->matrix[k] == id[k], "none [%d]", k);
	UNIT_CHECK(!strcmp(o->transform_filter, "nearest"), "none filter");

	UNIT_CHECK(parse("--output eDP-1 --scale 2") == 0, "%s", err);
	UNIT_CHECK(o->transform_kind == MMXR_XF_SCALE && o->matrix[0] == 2 &&
		   o->matrix[4] == 2 && o->matrix[8] == 1 && o->matrix[1] == 0,
		   "scale 2");
	UNIT_CHECK(!strcmp(o->transform_filter, "bilinear"), "scale filter");
	UNIT_CHECK(parse("--output eDP-1 --scale 1.5x0.5") == 0 &&
		   o->matrix[0] == 1.5 && o->matrix[4] == 0.5, "scale XxY");
	UNIT_CHECK(parse("--output eDP-1 --scale 1x1") == 0 &&
		   !strcmp(o->transform_filter, "nearest"), "scale 1x1");
	UNIT_CHECK(parse("--output eDP-1 --scale-from 1280x960") == 0 &&
		   o->transform_kind == MMXR_XF_SCALE_FROM &&
		   o->scale_from_w == 1280 && o->scale_from_h == 960,
		   "scale-from");
	UNIT_CHECK(parse("--output eDP-1 --keystone -150,-24,2090,4,12,1080,1912,1072") == 0,
		   "%s", err);
	UNIT_CHECK(o->transform_kind == MMXR_XF_KEYSTONE &&
		   o->keystone[0] == -150 && o->keystone[7] == 1072,
		   "keystone");
	/* the last transform option wins; --filter overrides its filter */
	UNIT_CHECK(parse("--output eDP-1 --filter nearest --scale 2") == 0 &&
		   o->transform_kind == MMXR_XF_SCALE &&
		   !strcmp(o->filter, "nearest") &&
		   o->changes == (MMXR_CH_TRANSFORM | MMXR_CH_FILTER),
		   "filter and scale");
	UNIT_CHECK(parse("--output eDP-1 --filter bilinear") == 0 &&
		   !strcmp(o->filter, "bilinear"), "bilinear");
	UNIT_CHECK(parse("--output eDP-1 --filter fast") == 0 &&
		   !strcmp(o->filter, "nearest"), "fast");
	UNIT_CHECK(parse("--output eDP-1 --filter good") == 0 &&
		   !strcmp(o->filter, "bilinear"), "good");
	UNIT_CHECK(parse("--output eDP-1 --filter best") == 0 &&
		   !strcmp(o->filter, "bilinear"), "best");
	return 0;
}

static int test_panning(void)
{
	struct mmx_panning_info *p = &req.outputs[0].panning;

	UNIT_CHECK(parse("--output eDP-1 --panning 2048x1536") == 0, "%s", err);
	UNIT_CHECK(p->width == 2048 && p->height == 1536 && p->left == 0 &&
		   p->top == 0 && p->track_width == 0 && p->border_left == 0,
		   "2 numbers");
	UNIT_CHECK(parse("--output eDP-1 --panning 2048x1536+10+20") == 0 &&
		   p->left == 10 && p->top == 20 && p->track_width == 0,
		   "4 numbers");
	UNIT_CHECK(parse("--output eDP-1 --panning 2048x1536+10+20/1024x768+1+2") == 0,
		   "%s", err);
	UNIT_CHECK(p->track_width == 1024 && p->track_height == 768 &&
		   p->track_left == 1 && p->track_top == 2 &&
		   p->border_bottom == 0, "8 numbers");
	UNIT_CHECK(parse("--output eDP-1 --panning 2048x1536+0+0/2048x1536+0+0/-5/6/-7/8") == 0,
		   "%s", err);
	UNIT_CHECK(p->border_left == -5 && p->border_top == 6 &&
		   p->border_right == -7 && p->border_bottom == 8,
		   "12 numbers");
	UNIT_CHECK(req.outputs[0].changes == MMXR_CH_PANNING, "changes");
	UNIT_CHECK(parse("--output eDP-1 --panning 0x0") == 0 &&
		   p->width == 0 && p->height == 0, "panning off");
	return 0;
}

/* Bad command lines and xrandr's message for each. */
static const struct {
	const char *line;
	const char *msg;
} bad[] = {
	{ "--foo", "unrecognized option '--foo'" },
	{ "--output eDP-1 --bar", "unrecognized option '--bar'" },
	{ "--output", "--output requires an argument" },
	{ "--mode 640x480", "--mode must be used after --output" },
	{ "--pos 0x0", "--pos must be used after --output" },
	{ "--rate 60", "--rate must be used after --output" },
	{ "--off", "--off must be used after --output" },
	{ "--primary", "--primary must be used after --output" },
	{ "--left-of VGA-1", "--left-of must be used after --output" },
	{ "--set a b", "--set must be used after --output" },
	{ "--transform none", "--transform must be used after --output" },
	{ "--output eDP-1 --mode", "--mode requires an argument" },
	{ "--output eDP-1 --mode 0xzz", "invalid name '0xzz'" },
	{ "--output eDP-1 --rotate up", "--rotate: invalid argument 'up'" },
	{ "--output eDP-1 --rotate", "--rotate requires an argument" },
	{ "--output eDP-1 --reflect z", "--reflect: invalid argument 'z'" },
	{ "--output eDP-1 --pos 10", "failed to parse '10' as a position" },
	{ "--output eDP-1 --pos 10x20junk",
	  "failed to parse '10x20junk' as a position" },
	{ "--output eDP-1 --pos 1.5x2", "failed to parse '1.5x2' as a position" },
	{ "--output eDP-1 --rate abc", "failed to parse 'abc' as a number" },
	{ "--output eDP-1 --rate -60", "failed to parse '-60' as a number" },
	{ "--output eDP-1 --transform 1,2,3,4,5,6,7,8",
	  "failed to parse '1,2,3,4,5,6,7,8' as a transformation" },
	{ "--output eDP-1 --transform 1,2,3,4,5,6,7,8,9,10",
	  "failed to parse '1,2,3,4,5,6,7,8,9,10' as a transformation" },
	{ "--output eDP-1 --transform 1,2,3,4,5,6,7,8,x",
	  "failed to parse '1,2,3,4,5,6,7,8,x' as a transformation" },
	{ "--output eDP-1 --transform nan,0,0,0,1,0,0,0,1",
	  "failed to parse 'nan,0,0,0,1,0,0,0,1' as a transformation" },
	{ "--output eDP-1 --transform 1;0;0;0;1;0;0;0;1",
	  "failed to parse '1;0;0;0;1;0;0;0;1' as a transformation" },
	{ "--output eDP-1 --scale 0", "failed to parse '0' as a scaling factor" },
	{ "--output eDP-1 --scale -1x2",
	  "failed to parse '-1x2' as a scaling factor" },
	{ "--output eDP-1 --scale 2x", "failed to parse '2x' as a scaling factor" },
	{ "--output eDP-1 --scale axb", "failed to parse 'axb' as a scaling factor" },
	{ "--output eDP-1 --scale-from 0x10",
	  "failed to parse '0x10' as a scale-from size" },
	{ "--output eDP-1 --scale-from 100",
	  "failed to parse '100' as a scale-from size" },
	{ "--output eDP-1 --filter cubic", "Bad argument: cubic, for a filter" },
	{ "--output eDP-1 --panning 800",
	  "--panning: invalid argument '800'" },
	{ "--output eDP-1 --panning 800x600+1",
	  "--panning: invalid argument '800x600+1'" },
	{ "--output eDP-1 --panning 800x600+1+2/3x4",
	  "--panning: invalid argument '800x600+1+2/3x4'" },
	{ "--output eDP-1 --panning 800x600+1+2/3x4+5",
	  "--panning: invalid argument '800x600+1+2/3x4+5'" },
	{ "--output eDP-1 --panning 800x600+1+2/3x4+5+6/1/2/3",
	  "--panning: invalid argument '800x600+1+2/3x4+5+6/1/2/3'" },
	{ "--output eDP-1 --panning 800x600+1+2/3x4+5+6/1/2/3/4/5",
	  "--panning: invalid argument '800x600+1+2/3x4+5+6/1/2/3/4/5'" },
	{ "--output eDP-1 --panning 800x-600",
	  "--panning: invalid argument '800x-600'" },
	{ "--output eDP-1 --panning 800x600junk",
	  "--panning: invalid argument '800x600junk'" },
	{ "--output eDP-1 --panning 800x600-1-2",
	  "--panning: invalid argument '800x600-1-2'" },
	{ "--fb 10", "failed to parse '10' as a framebuffer size" },
	{ "--fb 0x10", "failed to parse '0x10' as a framebuffer size" },
	{ "--fb", "--fb requires an argument" },
	{ "--output eDP-1 --set SignalFormat", "--set requires two arguments" },
	{ "--pan-mode sideways", "--pan-mode: invalid argument 'sideways'" },
	{ "--pointer 1", "failed to parse '1' as a pointer position" },
	{ "--pointer 1,2,3", "failed to parse '1,2,3' as a pointer position" },
	{ "--capture eDP-1", "--capture requires two arguments" },
	{ "--output eDP-1 --keystone 1,2,3,4,5,6,7",
	  "failed to parse '1,2,3,4,5,6,7' as keystone corners" },
	{ "--output eDP-1 --keystone 1,2,3,4,5,6,7,8,9",
	  "failed to parse '1,2,3,4,5,6,7,8,9' as keystone corners" },
	{ "--output eDP-1 --crtc -1", "invalid name '-1'" },
};

static int test_bad(void)
{
	size_t k;

	for (k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		int ret = parse(bad[k].line);

		UNIT_CHECK(ret == -EINVAL, "'%s' parsed (%d)", bad[k].line,
			   ret);
		UNIT_CHECK(!strcmp(err, bad[k].msg), "'%s': got \"%s\", want \"%s\"",
			   bad[k].line, err, bad[k].msg);
	}
	return 0;
}

static int test_bad_stops(void)
{
	char line[512] = "";
	int k;

	/* the error stops the parse: later options are not even read */
	UNIT_CHECK(parse("--output eDP-1 --rotate up --output VGA-1 --off") ==
		   -EINVAL, "parsed");
	UNIT_CHECK(req.noutput == 1 && req.outputs[0].changes == 0,
		   "request holds a change after a failed parse");
	/* too many --set for one output */
	snprintf(line, sizeof(line), "--output eDP-1");
	for (k = 0; k <= MMXR_MAX_SET_PROPS; k++)
		strcat(line, " --set a b");
	UNIT_CHECK(parse(line) == -EINVAL &&
		   strstr(err, "too many --set"), "%s", err);
	return 0;
}

static const struct unit_case cases[] = {
	{ "args-global", "global options set their flags", test_global },
	{ "args-output", "per-output options fill the request", test_output_options },
	{ "args-relations", "relative placement, merging of --output", test_relations },
	{ "args-transforms", "--transform, --scale, --scale-from, --keystone, --filter", test_transforms },
	{ "args-panning", "--panning with 2, 4, 8 and 12 numbers", test_panning },
	{ "args-bad", "bad options give xrandr's messages", test_bad },
	{ "args-bad-stops", "a bad option stops the parse", test_bad_stops },
};

UNIT_MAIN(cases)
