// SPDX-License-Identifier: MIT
/*
 * mmxrandr's planner (userspace/mmxrandr/plan.c) over synthetic snapshots
 * (mmxrandr_state.h: eDP-1 lit at 1024x768+0+0, VGA-1 connected and off):
 * mode choice, --auto, --rate, relative placement with xrandr's shift to
 * (0, 0), rotation with --pos, scale matrices and bounding boxes,
 * --same-as, properties, screen size limits, and the errors that stop a
 * plan (after which main() applies nothing). Expected positions are
 * worked out by hand from the mode sizes.
 */
#include <errno.h>
#include <math.h>

#include "unit.h"
#include "mmxrandr_cmdline.h"
#include "mmxrandr_state.h"
#include "mmx_config.h"	/* the tests read the planned config */

static struct mmxr_request req;
static struct mmxr_plan plan;
static char err[MMXR_ERR_LEN];
static struct mmx_state *st;

/* Parse @line and plan it against st. */
static int run(const char *line)
{
	int ret = t_parse_line(line, &req, err, sizeof(err));

	if (ret) {
		fprintf(stderr, "parse '%s': %s\n", line, err);
		return ret;
	}
	return mmxr_plan(&req, st, &plan, err, sizeof(err));
}

static const struct mmx_output_change *change(uint32_t output)
{
	uint32_t k;

	for (k = 0; k < plan.cfg->nchange; k++)
		if (plan.cfg->changes[k]->output == output)
			return plan.cfg->changes[k];
	return NULL;
}

static void fresh(void)
{
	mmx_state_free(st);
	st = t_state();
}

/* Light VGA-1 in the snapshot on CRTC 1. */
static void light_vga(uint32_t mode_index, int32_t x, int32_t y)
{
	struct mmx_crtc_info *c = &st->crtcs[1];

	st->outputs[1].crtc = T_CRTC1;
	c->mode_valid = 1;
	c->mode = st->outputs[1].modes[mode_index];
	c->x = x;
	c->y = y;
	c->width = c->mode.width;
	c->height = c->mode.height;
	c->noutput = 1;
	c->outputs[0] = T_VGA;
}

static int test_mode_name(void)
{
	const struct mmx_output_change *c;

	fresh();
	UNIT_CHECK(run("--output VGA-1 --mode 640x480") == 0, "%s", err);
	UNIT_CHECK(plan.apply && plan.cfg->nchange == 1, "nchange %u",
		   plan.cfg->nchange);
	c = change(T_VGA);
	UNIT_CHECK(c, "no VGA change");
	UNIT_CHECK(c->flags == (MMX_CHANGE_MODE | MMX_CHANGE_POS |
				MMX_CHANGE_ROTATION | MMX_CHANGE_TRANSFORM),
		   "flags %#x", c->flags);
	UNIT_CHECK(c->mode.id == 0x4b && c->mode.width == 640, "mode %#x",
		   c->mode.id);
	UNIT_CHECK(c->x == 0 && c->y == 0 && c->rotation == MMX_ROTATE_0,
		   "pos %d,%d", c->x, c->y);
	UNIT_CHECK(c->transform.matrix[0] == 1 && c->transform.matrix[4] == 1 &&
		   c->transform.identity, "identity for a newly lit output");
	UNIT_CHECK(!(plan.cfg->flags & MMX_CONFIG_TEST_ONLY), "test only");

	/* by id, and a mode of another output is not this one's */
	UNIT_CHECK(run("--output eDP-1 --mode 0x4a") == 0, "%s", err);
	UNIT_CHECK(change(T_EDP)->mode.id == 0x4a, "by id");
	UNIT_CHECK(run("--output VGA-1 --mode 0x49") == -ENOENT &&
		   !strcmp(err, "cannot find mode 0x49"), "%s", err);
	UNIT_CHECK(run("--output VGA-1 --mode 800x600") == -ENOENT &&
		   !strcmp(err, "cannot find mode 800x600"), "%s", err);
	UNIT_CHECK(run("--output FOO --mode 800x600") == -ENOENT &&
		   !strcmp(err, "cannot find output \"FOO\""), "%s", err);
	/* outputs by 0xID too */
	UNIT_CHECK(run("--output 0x29 --off") == 0 && change(T_VGA) == NULL &&
		   !plan.apply, "VGA-1 was off already");
	UNIT_CHECK(run("--output 0x28 --off") == 0 &&
		   change(T_EDP)->flags == MMX_CHANGE_OFF, "eDP-1 off");
	return 0;
}

static int test_rate(void)
{
	fresh();
	UNIT_CHECK(run("--output eDP-1 --mode 800x600") == 0, "%s", err);
	UNIT_CHECK(change(T_EDP)->mode.id == 0x49, "first 800x600");
	UNIT_CHECK(run("--output eDP-1 --mode 800x600 --rate 75") == 0, "%s",
		   err);
	UNIT_CHECK(change(T_EDP)->mode.id == 0x4a, "75 Hz");
	UNIT_CHECK(run("--output eDP-1 --mode 800x600 --rate 61") == 0, "%s",
		   err);
	UNIT_CHECK(change(T_EDP)->mode.id == 0x49, "61 Hz -> 60.32");
	UNIT_CHECK(run("--output eDP-1 --mode 800x600 --rate 70") == 0 &&
		   change(T_EDP)->mode.id == 0x4a, "70 Hz -> 75");
	/* --rate alone keeps the current mode's name */
	UNIT_CHECK(run("--output eDP-1 --rate 30") == 0 &&
		   change(T_EDP)->mode.id == 0x48, "rate alone");
	/* xrandr's refresh formula */
	UNIT_CHECK(fabs(mmxr_mode_refresh(&st->outputs[0].modes[3]) -
			59.9404) < 1e-3, "refresh %f",
		   mmxr_mode_refresh(&st->outputs[0].modes[3]));
	return 0;
}

static int test_auto(void)
{
	const struct mmx_output_change *c;

	fresh();
	UNIT_CHECK(run("--output VGA-1 --preferred") == 0 &&
		   change(T_VGA)->mode.id == 0x48, "preferred");
	/* global --auto: VGA-1 connected and off gets its preferred mode;
	 * eDP-1, lit, is left alone */
	UNIT_CHECK(run("--auto") == 0, "%s", err);
	UNIT_CHECK(plan.cfg->nchange == 1, "nchange %u", plan.cfg->nchange);
	c = change(T_VGA);
	UNIT_CHECK(c && c->mode.id == 0x48 && (c->flags & MMX_CHANGE_MODE),
		   "VGA auto");
	UNIT_CHECK(!change(T_EDP), "eDP-1 touched");

	/* a disconnected output that is lit goes off */
	st->outputs[0].connection = MMX_DISCONNECTED;
	UNIT_CHECK(run("--auto") == 0, "%s", err);
	UNIT_CHECK(change(T_EDP) && change(T_EDP)->flags == MMX_CHANGE_OFF,
		   "disconnected off");
	UNIT_CHECK(run("--output eDP-1 --auto") == 0 &&
		   change(T_EDP)->flags == MMX_CHANGE_OFF, "output auto off");
	/* per-output --auto on a lit connected output: its preferred mode */
	fresh();
	st->crtcs[0].mode = st->outputs[0].modes[3];
	UNIT_CHECK(run("--output eDP-1 --auto") == 0 &&
		   change(T_EDP)->mode.id == 0x48, "auto preferred");
	/* --auto with --mode: the mode wins */
	UNIT_CHECK(run("--output eDP-1 --auto --mode 800x600") == 0 &&
		   change(T_EDP)->mode.id == 0x49, "auto and mode");
	return 0;
}

static int test_placement(void)
{
	const struct mmx_output_change *v, *e;

	fresh();
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --right-of eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	UNIT_CHECK(v->x == 1024 && v->y == 0, "right-of %d,%d", v->x, v->y);
	UNIT_CHECK(!change(T_EDP), "eDP-1 moved");

	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --below eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	UNIT_CHECK(v->x == 0 && v->y == 768, "below %d,%d", v->x, v->y);

	/* left-of: VGA-1 at -640 and everything shifts right by 640 */
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --left-of eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	e = change(T_EDP);
	UNIT_CHECK(v->x == 0 && v->y == 0, "left-of %d,%d", v->x, v->y);
	UNIT_CHECK(e && e->flags == MMX_CHANGE_POS && e->x == 640 && e->y == 0,
		   "eDP-1 shifted");

	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --above eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	e = change(T_EDP);
	UNIT_CHECK(v->x == 0 && v->y == 0 && e->x == 0 && e->y == 480,
		   "above: VGA %d,%d eDP %d,%d", v->x, v->y, e->x, e->y);

	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --same-as eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	UNIT_CHECK(v->x == 0 && v->y == 0 && !change(T_EDP), "same-as");

	/* chains resolve in any order; a relation to an off output is 0,0 */
	UNIT_CHECK(run("--output eDP-1 --right-of VGA-1 --output VGA-1 --mode 640x480 --pos 100x50") == 0,
		   "%s", err);
	v = change(T_VGA);
	e = change(T_EDP);
	UNIT_CHECK(v->x == 0 && v->y == 0 && e->x == 640 && e->y == 0,
		   "chain: VGA %d,%d eDP %d,%d", v->x, v->y, e->x, e->y);
	UNIT_CHECK(run("--output eDP-1 --pos 10x10 --right-of VGA-1") == 0 &&
		   change(T_EDP)->x == 0 && change(T_EDP)->y == 0,
		   "relation to an off output");

	UNIT_CHECK(run("--output eDP-1 --left-of VGA-1 --output VGA-1 --mode 640x480 --left-of eDP-1") == -EINVAL &&
		   !strcmp(err, "loop in relative position specifications"),
		   "%s", err);
	UNIT_CHECK(run("--output eDP-1 --left-of eDP-1") == -EINVAL &&
		   !strcmp(err, "loop in relative position specifications"),
		   "%s", err);
	UNIT_CHECK(run("--output eDP-1 --left-of HDMI-1") == -ENOENT &&
		   !strcmp(err, "cannot find output \"HDMI-1\""), "%s", err);

	/* placement uses the screen area the CRTC covers: eDP-1 translated
	 * by (-100, -50) covers (-100, -50) 1024x768, so VGA-1 goes to
	 * x = -100 + 1024, y = -50, and xrandr's shift moves both down 50 */
	UNIT_CHECK(run("--output eDP-1 --transform 1,0,-100,0,1,-50,0,0,1 --output VGA-1 --mode 640x480 --right-of eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	e = change(T_EDP);
	UNIT_CHECK(v->x == 924 && v->y == 0, "right of a translated eDP-1: %d,%d",
		   v->x, v->y);
	UNIT_CHECK(e->x == 0 && e->y == 50 && (e->flags & MMX_CHANGE_POS),
		   "eDP-1 shifted to %d,%d", e->x, e->y);
	UNIT_CHECK(run("--output eDP-1 --transform 1,0,-100,0,1,-50,0,0,1 --output VGA-1 --mode 640x480 --left-of eDP-1") == 0,
		   "%s", err);
	v = change(T_VGA);
	e = change(T_EDP);
	UNIT_CHECK(v->x == 0 && v->y == 0 && e->x == 740 && e->y == 50,
		   "left of a translated eDP-1: VGA %d,%d eDP %d,%d", v->x, v->y,
		   e->x, e->y);

	/* moving a lit output */
	UNIT_CHECK(run("--output eDP-1 --pos 0x0") == 0 &&
		   change(T_EDP)->flags == MMX_CHANGE_POS, "pos");
	light_vga(1, 1024, 0);
	UNIT_CHECK(run("--output VGA-1 --pos 2000x100") == 0, "%s", err);
	v = change(T_VGA);
	UNIT_CHECK(v->flags == MMX_CHANGE_POS && v->x == 2000 && v->y == 100,
		   "move VGA");
	return 0;
}

static int test_rotation_pos(void)
{
	const struct mmx_output_change *v, *e;

	fresh();
	UNIT_CHECK(run("--output eDP-1 --rotate left --pos 0x0 --output VGA-1 --mode 640x480 --right-of eDP-1") == 0,
		   "%s", err);
	e = change(T_EDP);
	v = change(T_VGA);
	UNIT_CHECK(e->flags & MMX_CHANGE_ROTATION, "rotation flag");
	UNIT_CHECK(e->rotation == MMX_ROTATE_90, "rotation %#x", e->rotation);
	UNIT_CHECK(v->x == 768 && v->y == 0, "right of a rotated 1024x768: %d,%d",
		   v->x, v->y);
	UNIT_CHECK(run("--output eDP-1 --reflect x") == 0 &&
		   change(T_EDP)->rotation == (MMX_ROTATE_0 | MMX_REFLECT_X),
		   "reflect keeps the rotation");
	st->crtcs[0].rotation = MMX_ROTATE_180;
	UNIT_CHECK(run("--output eDP-1 --reflect y") == 0 &&
		   change(T_EDP)->rotation == (MMX_ROTATE_180 | MMX_REFLECT_Y),
		   "reflect keeps 180");
	UNIT_CHECK(run("--output eDP-1 --rotate normal") == 0 &&
		   change(T_EDP)->rotation == MMX_ROTATE_0, "normal");

	/* CRTCs without 90/270 and reflections */
	st->crtcs[0].rotations = MMX_ROTATE_0 | MMX_ROTATE_180;
	UNIT_CHECK(run("--output eDP-1 --rotate left") == -EINVAL, "left");
	UNIT_CHECK(!strcmp(err, "output eDP-1 cannot use rotation \"left\" reflection \"none\""),
		   "%s", err);
	UNIT_CHECK(run("--output eDP-1 --rotate inverted --reflect x") ==
		   -EINVAL &&
		   !strcmp(err, "output eDP-1 cannot use rotation \"inverted\" reflection \"X axis\""),
		   "%s", err);
	UNIT_CHECK(run("--output eDP-1 --rotate inverted") == 0,
		   "inverted: %s", err);
	return 0;
}

static int near(double a, double b)
{
	return fabs(a - b) < 1e-9;
}

static int test_scale(void)
{
	const struct mmx_output_change *v, *e;

	fresh();
	UNIT_CHECK(run("--output eDP-1 --scale 2 --output VGA-1 --mode 640x480 --right-of eDP-1") == 0,
		   "%s", err);
	e = change(T_EDP);
	v = change(T_VGA);
	UNIT_CHECK(e->flags == MMX_CHANGE_TRANSFORM, "flags %#x", e->flags);
	UNIT_CHECK(e->transform.matrix[0] == 2 && e->transform.matrix[4] == 2 &&
		   e->transform.matrix[8] == 1 && e->transform.matrix[1] == 0 &&
		   e->transform.matrix[2] == 0 && e->transform.matrix[6] == 0,
		   "diag(2, 2, 1)");
	UNIT_CHECK(!strcmp(e->transform.filter, "bilinear") &&
		   !e->transform.identity, "filter %s", e->transform.filter);
	UNIT_CHECK(v->x == 2048 && v->y == 0,
		   "right of a 2x scaled 1024x768 (bbox 2048x1536): %d,%d",
		   v->x, v->y);

	UNIT_CHECK(run("--output eDP-1 --scale 0.5x0.25 --filter nearest") == 0,
		   "%s", err);
	e = change(T_EDP);
	UNIT_CHECK(e->transform.matrix[0] == 0.5 &&
		   e->transform.matrix[4] == 0.25 &&
		   !strcmp(e->transform.filter, "nearest"), "0.5x0.25");

	/* --scale-from fits the mode into the size */
	UNIT_CHECK(run("--output eDP-1 --scale-from 2048x1152") == 0, "%s",
		   err);
	e = change(T_EDP);
	UNIT_CHECK(near(e->transform.matrix[0], 2.0) &&
		   near(e->transform.matrix[4], 1.5), "scale-from %f %f",
		   e->transform.matrix[0], e->transform.matrix[4]);
	/* ... of the rotated mode */
	UNIT_CHECK(run("--output eDP-1 --rotate left --scale-from 1536x2048") ==
		   0, "%s", err);
	e = change(T_EDP);
	UNIT_CHECK(near(e->transform.matrix[0], 2.0) &&
		   near(e->transform.matrix[4], 2.0), "rotated scale-from");
	/* --transform none is the identity */
	UNIT_CHECK(run("--output eDP-1 --transform none") == 0 &&
		   change(T_EDP)->transform.identity &&
		   !strcmp(change(T_EDP)->transform.filter, "nearest"),
		   "none");
	/* --filter alone changes the filter only */
	UNIT_CHECK(run("--output eDP-1 --filter best") == 0 &&
		   change(T_EDP)->flags == MMX_CHANGE_FILTER &&
		   !strcmp(change(T_EDP)->transform.filter, "bilinear"),
		   "filter alone");
	/* a singular matrix stops the plan */
	UNIT_CHECK(run("--output eDP-1 --transform 1,0,0,0,0,0,0,0,1") ==
		   -EINVAL &&
		   !strcmp(err, "output eDP-1: the transform is singular"),
		   "%s", err);
	/* a driver without transforms */
	st->flags &= ~MMX_STATE_TRANSFORMS;
	UNIT_CHECK(run("--output eDP-1 --scale 2") == -EOPNOTSUPP, "no xf");
	UNIT_CHECK(run("--output VGA-1 --mode 640x480") == 0 &&
		   !(change(T_VGA)->flags & MMX_CHANGE_TRANSFORM),
		   "no identity transform sent without transforms");
	return 0;
}

static int test_keystone(void)
{
	const struct mmx_output_change *e;
	static const double pts[8] = { -150, -24, 1150, 4, 12, 768, 1012, 760 };
	double corners[8] = { 0, 0, 1024, 0, 0, 768, 1024, 768 };
	double x, y, m[9];
	char *p;
	int k;

	fresh();
	UNIT_CHECK(run("--output eDP-1 --keystone -150,-24,1150,4,12,768,1012,760") == 0,
		   "%s", err);
	e = change(T_EDP);
	UNIT_CHECK(e && e->flags == MMX_CHANGE_TRANSFORM, "flags");
	for (k = 0; k < 4; k++) {
		UNIT_CHECK(mmx_matrix_apply(e->transform.matrix, corners[2 * k],
					    corners[2 * k + 1], &x, &y) == 0,
			   "apply");
		UNIT_CHECK(fabs(x - pts[2 * k]) < 1e-6 &&
			   fabs(y - pts[2 * k + 1]) < 1e-6,
			   "corner %d -> %f,%f", k, x, y);
	}
	/* the printed matrix is the applied one, %.9g */
	UNIT_CHECK(!strncmp(plan.out, "keystone matrix: ", 17), "%s",
		   plan.out);
	p = plan.out + 17;
	for (k = 0; k < 9; k++) {
		m[k] = strtod(p, &p);
		UNIT_CHECK(fabs(m[k] - e->transform.matrix[k]) <=
			   1e-8 * (1 + fabs(m[k])), "entry %d", k);
		UNIT_CHECK(*p == (k < 8 ? ',' : '\n'), "separator %d", k);
		p++;
	}
	UNIT_CHECK(run("--output eDP-1 --keystone 0,0,100,100,200,200,300,300") ==
		   -EINVAL, "collinear accepted");
	UNIT_CHECK(run("--output VGA-1 --keystone 0,0,1,0,0,1,1,1") == 0 &&
		   !plan.apply, "keystone on an off output is ignored");
	return 0;
}

static int test_props(void)
{
	const struct mmx_output_change *c;

	fresh();
	UNIT_CHECK(run("--output VGA-1 --set SignalFormat VGA --set brightness-test 100") == 0,
		   "%s", err);
	c = change(T_VGA);
	UNIT_CHECK(c->flags == MMX_CHANGE_PROPS && c->nprop == 2, "props");
	UNIT_CHECK(!strcmp(c->props[0].name, "SignalFormat") &&
		   !strcmp(c->props[0].value, "VGA") &&
		   !strcmp(c->props[1].value, "100"), "values");
	UNIT_CHECK(run("--output eDP-1 --set SignalProperties Lane2+LowSpeed") == 0,
		   "%s", err);
	UNIT_CHECK(run("--output VGA-1 --set SignalFormat TMDS") == -EINVAL &&
		   !strcmp(err, "invalid value \"TMDS\" for property \"SignalFormat\" of output VGA-1"),
		   "%s", err);
	UNIT_CHECK(run("--output VGA-1 --set brightness-test 101") == -EINVAL,
		   "range max");
	UNIT_CHECK(run("--output VGA-1 --set brightness-test -1") == -EINVAL,
		   "range min");
	UNIT_CHECK(run("--output VGA-1 --set brightness-test 5x") == -EINVAL,
		   "range junk");
	UNIT_CHECK(run("--output eDP-1 --set SignalProperties Lane2+Lane4") ==
		   -EINVAL, "not an enum value");
	UNIT_CHECK(run("--output eDP-1 --set SignalFormat DisplayPort") ==
		   -EACCES, "single-format SignalFormat is immutable");
	UNIT_CHECK(run("--output eDP-1 --set ConnectorType VGA") == -EACCES &&
		   !strcmp(err, "property \"ConnectorType\" of output eDP-1 is immutable"),
		   "%s", err);
	UNIT_CHECK(run("--output eDP-1 --set Foo 1") == -ENOENT &&
		   !strcmp(err, "output eDP-1 has no property \"Foo\""), "%s",
		   err);
	/* every property is checked before anything is planned */
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --set SignalFormat VGA --output eDP-1 --set Foo 1") ==
		   -ENOENT, "second output's bad property");
	return 0;
}

static int test_screen(void)
{
	fresh();
	UNIT_CHECK(run("--fb 2048x1536") == 0, "%s", err);
	UNIT_CHECK((plan.cfg->flags & MMX_CONFIG_SCREEN_SIZE) &&
		   plan.cfg->screen_width == 2048 &&
		   plan.cfg->screen_height == 1536 && plan.apply, "fb");
	UNIT_CHECK(!plan.warn[0], "warning %s", plan.warn);
	UNIT_CHECK(run("--fb 800x600") == 0 &&
		   !strcmp(plan.warn, "specified screen 800x600 not large enough for output eDP-1 (1024x768+0+0)\n"),
		   "warn '%s'", plan.warn);
	UNIT_CHECK(run("--fb 4x4") == -EINVAL &&
		   !strcmp(err, "screen must be at least 8x8"), "%s", err);
	UNIT_CHECK(run("--fb 9000x100") == -EINVAL &&
		   !strcmp(err, "screen cannot be larger than 8192x8192 (desired size 9000x100)"),
		   "%s", err);
	UNIT_CHECK(run("--output VGA-1 --mode 1024x768 --pos 8000x0") ==
		   -EINVAL &&
		   !strcmp(err, "screen cannot be larger than 8192x8192 (desired size 9024x768)"),
		   "%s", err);
	/* panning areas count, as in xrandr */
	UNIT_CHECK(run("--output eDP-1 --panning 9000x768") == -EINVAL,
		   "panning too wide");
	UNIT_CHECK(run("--output eDP-1 --panning 2048x1536+0+0/0x0+0+0/1/2/3/4") ==
		   0, "%s", err);
	UNIT_CHECK(change(T_EDP)->flags == MMX_CHANGE_PANNING &&
		   change(T_EDP)->panning.width == 2048 &&
		   change(T_EDP)->panning.border_bottom == 4, "panning");
	UNIT_CHECK(run("--output VGA-1 --panning 2048x1536") == -EINVAL &&
		   !strcmp(err, "output VGA-1 is off: it cannot pan"), "%s",
		   err);
	return 0;
}

static int test_misc(void)
{
	fresh();
	UNIT_CHECK(run("--output VGA-1 --primary") == 0 &&
		   (plan.cfg->flags & MMX_CONFIG_PRIMARY) &&
		   plan.cfg->primary == T_VGA && plan.cfg->nchange == 0 &&
		   plan.apply, "primary");
	UNIT_CHECK(run("--output VGA-1 --primary --noprimary") == 0 &&
		   plan.cfg->primary == 0, "noprimary wins");
	UNIT_CHECK(run("--pan-mode joint") == 0 &&
		   (plan.cfg->flags & MMX_CONFIG_PAN_MODE) &&
		   plan.cfg->pan_mode == MMX_PAN_JOINT, "pan mode");
	UNIT_CHECK(run("--dryrun --output VGA-1 --mode 640x480 --right-of eDP-1") == 0 &&
		   (plan.cfg->flags & MMX_CONFIG_TEST_ONLY), "dryrun");
	UNIT_CHECK(!strcmp(plan.out,
			   "crtc 1:      640x480  59.94 +1024+0 \"VGA-1\"\n"
			   "screen 0: 1664x768\n"), "out '%s'", plan.out);
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --crtc 0x1f") == 0 &&
		   change(T_VGA)->crtc == T_CRTC1 &&
		   (change(T_VGA)->flags & MMX_CHANGE_CRTC), "crtc by id");
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --crtc 7") == -ENOENT &&
		   !strcmp(err, "cannot find crtc 7"), "%s", err);
	st->outputs[1].ncrtc = 1;
	UNIT_CHECK(run("--output VGA-1 --mode 640x480 --crtc 1") == -EINVAL &&
		   !strcmp(err, "output VGA-1 cannot use crtc 0x1f"), "%s", err);
	UNIT_CHECK(run("--output VGA-1 --output 0x29") == -EINVAL,
		   "same output twice");
	return 0;
}

static const struct unit_case cases[] = {
	{ "plan-mode-name", "--mode by name and id, unknown outputs and modes", test_mode_name },
	{ "plan-rate", "--rate picks the closest refresh", test_rate },
	{ "plan-auto", "--auto and --preferred, global and per output", test_auto },
	{ "plan-placement", "relative placement and xrandr's shift to 0,0", test_placement },
	{ "plan-rotation-pos", "rotation swaps the size used for placement", test_rotation_pos },
	{ "plan-scale", "--scale, --scale-from, --transform, --filter matrices", test_scale },
	{ "plan-keystone", "--keystone maps the corners and prints the matrix", test_keystone },
	{ "plan-props", "--set checks names, values and immutability", test_props },
	{ "plan-screen", "--fb and screen limits, panning areas", test_screen },
	{ "plan-misc", "primary, pan mode, dryrun lines, --crtc", test_misc },
};

int main(int argc, char **argv)
{
	int ret = UNIT_RUN(cases, argc, argv);

	mmx_state_free(st);
	return ret;
}
