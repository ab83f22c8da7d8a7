// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxrandr: the command line, parsed into a struct mmxr_request. Syntax
 * only: names are resolved against the screen by plan.c. The messages are
 * xrandr's where xrandr has one; numbers must fill their whole argument
 * (xrandr's sscanf() accepts trailing junk, we do not).
 */

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mmxrandr.h"

struct parser {
	int argc;
	char **argv;
	int i;
	struct mmxr_request *req;
	struct mmxr_output_req *out;	/* the latest --output */
	char *err;
	size_t errlen;
};

static int perr(struct parser *p, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int perr(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->err && p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static const char *const rotations[4] = {
	"normal", "left", "inverted", "right"
};
static const char *const reflections[4] = { "normal", "x", "y", "xy" };

/* The next argument of option argv[i], or NULL after an error. */
static const char *next_arg(struct parser *p)
{
	if (p->i + 1 >= p->argc) {
		perr(p, "%s requires an argument", p->argv[p->i]);
		return NULL;
	}
	return p->argv[++p->i];
}

static int need_output(struct parser *p)
{
	if (!p->out)
		return perr(p, "%s must be used after --output",
			    p->argv[p->i]);
	return 0;
}

/*
 * The two arguments of option @opt (argv[i]) in @a and @b, for its entry
 * @n of at most @max (@what names them in the error).
 */
static int two_args_entry(struct parser *p, const char *opt, unsigned int n,
			  int max, const char *what, const char **a,
			  const char **b)
{
	if (p->i + 2 >= p->argc)
		return perr(p, "%s requires two arguments", opt);
	if (n >= (unsigned int)max)
		return perr(p, "too many %s (at most %d)", what, max);
	*a = p->argv[++p->i];
	*b = p->argv[++p->i];
	return 0;
}

/* The argument of an option of the latest --output, in @a. */
static int output_arg(struct parser *p, const char **a)
{
	int ret = need_output(p);

	if (ret)
		return ret;
	*a = next_arg(p);
	return *a ? 0 : -EINVAL;
}

/* A strict finite double: the whole string. */
static int parse_double(const char *s, double *v)
{
	char *end;
	double d;

	errno = 0;
	d = strtod(s, &end);
	if (end == s || *end || errno || !isfinite(d))
		return -EINVAL;
	*v = d;
	return 0;
}

/*
 * Split @s at @seps (the separator expected before the second, third, ...
 * number; past the end of @seps its last character) into
 * at most @max doubles. Returns how many numbers were read and whether the
 * whole string was consumed through @full. Numbers are read with strtod()
 * or strtol() (@integers) and must be finite.
 */
static int scan_numbers(const char *s, const char *seps, int max,
			int integers, double *v, int *full)
{
	size_t nsep = strlen(seps);
	const char *p = s;
	int n = 0;

	*full = 0;
	while (n < max) {
		const char *start = p;
		char *end;
		double d;

		if (n > 0) {
			size_t k = (size_t)n - 1 < nsep ? (size_t)n - 1 :
							 nsep - 1;

			if (*p != seps[k])
				break;
			p++;
		}
		errno = 0;
		if (integers) {
			long l;

			if (*p == ' ' || *p == '\t' || *p == '+') {
				p = start;
				break;
			}
			l = strtol(p, &end, 10);
			if (l < INT32_MIN || l > INT32_MAX)
				errno = ERANGE;
			d = (double)l;
		} else {
			if (*p == ' ' || *p == '\t') {
				p = start;
				break;
			}
			d = strtod(p, &end);
		}
		if (end == p || errno || !isfinite(d)) {
			p = start;	/* a separator with no number */
			break;
		}
		v[n++] = d;
		p = end;
	}
	*full = *p == '\0';
	return n;
}

/* Whether @s is exactly @n numbers (see scan_numbers()), into @v. */
static int scan_exactly(const char *s, const char *seps, int n, int integers,
			double *v)
{
	int full;

	return scan_numbers(s, seps, n, integers, v, &full) == n && full;
}

/* "X<sep>Y" as two integers. */
static int parse_point(const char *s, const char *sep, int32_t *x, int32_t *y)
{
	double v[2];

	if (!scan_exactly(s, sep, 2, 1, v))
		return -EINVAL;
	*x = (int32_t)v[0];
	*y = (int32_t)v[1];
	return 0;
}

/* "WxH" as two positive (or, @allow_zero, non-negative) integers. */
static int parse_size(const char *s, uint32_t *w, uint32_t *h, int allow_zero)
{
	double v[2];
	int full;

	if (scan_numbers(s, "x", 2, 1, v, &full) != 2 || !full)
		return -EINVAL;
	if (v[0] < (allow_zero ? 0 : 1) || v[1] < (allow_zero ? 0 : 1))
		return -EINVAL;
	*w = (uint32_t)v[0];
	*h = (uint32_t)v[1];
	return 0;
}

/*
 * xrandr's --panning WxH[+X+Y[/TWxTH+TX+TY[/L/T/R/B]]]: 2, 4, 8 or 12
 * numbers; omitted parts are 0. Area and tracking values are unsigned,
 * borders signed.
 */
static int parse_panning(const char *s, struct mmx_panning_info *pan)
{
	double v[12];
	int full, n, k;

	n = scan_numbers(s, "x++/x++////", 12, 1, v, &full);
	if (!full || (n != 2 && n != 4 && n != 8 && n != 12))
		return -EINVAL;
	for (k = n; k < 12; k++)
		v[k] = 0;
	for (k = 0; k < 8; k++)
		if (v[k] < 0)
			return -EINVAL;
	pan->width = (uint32_t)v[0];
	pan->height = (uint32_t)v[1];
	pan->left = (uint32_t)v[2];
	pan->top = (uint32_t)v[3];
	pan->track_width = (uint32_t)v[4];
	pan->track_height = (uint32_t)v[5];
	pan->track_left = (uint32_t)v[6];
	pan->track_top = (uint32_t)v[7];
	pan->border_left = (int32_t)v[8];
	pan->border_top = (int32_t)v[9];
	pan->border_right = (int32_t)v[10];
	pan->border_bottom = (int32_t)v[11];
	return 0;
}

static int lookup(const char *const *names, int n, const char *s)
{
	int k;

	for (k = 0; k < n; k++)
		if (!strcmp(names[k], s))
			return k;
	return -1;
}

/* The request entry of output @name: the existing one, or a new one. */
static int select_output(struct parser *p, const char *name)
{
	struct mmxr_request *req = p->req;
	unsigned int k;

	for (k = 0; k < req->noutput; k++) {
		if (!strcmp(req->outputs[k].name, name)) {
			p->out = &req->outputs[k];
			return 0;
		}
	}
	if (req->noutput >= MMXR_MAX_OUTPUTS)
		return perr(p, "too many --output options (at most %d)",
			    MMXR_MAX_OUTPUTS);
	p->out = &req->outputs[req->noutput++];
	memset(p->out, 0, sizeof(*p->out));
	p->out->name = name;
	return 0;
}

static void set_matrix(struct mmxr_output_req *o, int kind, const double m[9],
		       const char *filter)
{
	o->transform_kind = kind;
	memcpy(o->matrix, m, sizeof(o->matrix));
	o->transform_filter = filter;
	o->changes |= MMXR_CH_TRANSFORM;
}

#define N_OPTIONS(t) (sizeof(t) / sizeof((t)[0]))
#define N_ALIASES 4

/* Whether @opt is one of an option's @names (the unused ones NULL). */
static int is_option(const char *const names[N_ALIASES], const char *opt)
{
	int n;

	for (n = 0; n < N_ALIASES && names[n]; n++)
		if (!strcmp(opt, names[n]))
			return 1;
	return 0;
}

/* The global options that only set request flags, with their names. */
static const struct {
	uint32_t flags;
	const char *names[N_ALIASES];
} global_flags[] = {
	{ MMXR_HELP, { "--help", "-help", "-h" } },
	{ MMXR_VERSION_FLAG, { "--version", "-v" } },
	{ MMXR_VERBOSE, { "--verbose" } },
	{ MMXR_DRYRUN | MMXR_VERBOSE, { "--dryrun" } },
	{ MMXR_CURRENT, { "--current" } },
	{ MMXR_QUERY, { "-q", "--query" } },
	{ MMXR_PROPS, { "--prop", "--props", "--properties", "--madprops" } },
	{ MMXR_HOLD, { "--hold" } },
	{ MMXR_NOPRIMARY, { "--noprimary" } },
};

static int opt_display(struct parser *p, const char *opt)
{
	const char *a = next_arg(p);

	(void)opt;
	if (!a)
		return -EINVAL;
	p->req->display = a;
	return 0;
}

static int opt_fb(struct parser *p, const char *opt)
{
	struct mmxr_request *req = p->req;
	const char *a = next_arg(p);

	(void)opt;
	if (!a)
		return -EINVAL;
	if (parse_size(a, &req->fb_width, &req->fb_height, 0))
		return perr(p, "failed to parse '%s' as a framebuffer size", a);
	req->flags |= MMXR_FB;
	return 0;
}

static int opt_pan_mode(struct parser *p, const char *opt)
{
	struct mmxr_request *req = p->req;
	const char *a = next_arg(p);

	if (!a)
		return -EINVAL;
	if (!strcmp(a, "independent"))
		req->pan_mode = MMX_PAN_INDEPENDENT;
	else if (!strcmp(a, "joint"))
		req->pan_mode = MMX_PAN_JOINT;
	else
		return perr(p, "%s: invalid argument '%s'", opt, a);
	req->flags |= MMXR_PAN_MODE;
	return 0;
}

static int opt_pointer(struct parser *p, const char *opt)
{
	struct mmxr_request *req = p->req;
	const char *a = next_arg(p);
	int32_t x, y;

	(void)opt;
	if (!a)
		return -EINVAL;
	if (parse_point(a, ",", &x, &y))
		return perr(p, "failed to parse '%s' as a pointer position", a);
	if (req->npointer >= MMXR_MAX_POINTER)
		return perr(p, "too many --pointer options (at most %d)",
			    MMXR_MAX_POINTER);
	req->pointer[req->npointer].x = x;
	req->pointer[req->npointer].y = y;
	req->npointer++;
	return 0;
}

static int opt_capture(struct parser *p, const char *opt)
{
	struct mmxr_request *req = p->req;
	const char *output = NULL, *file = NULL;
	int ret;

	ret = two_args_entry(p, opt, req->ncapture, MMXR_MAX_CAPTURE,
			     "--capture options", &output, &file);
	if (ret)
		return ret;
	req->capture[req->ncapture].output = output;
	req->capture[req->ncapture++].file = file;
	return 0;
}

static int opt_output(struct parser *p, const char *opt)
{
	const char *a = next_arg(p);

	(void)opt;
	if (!a)
		return -EINVAL;
	if (!*a)
		return perr(p, "--output: invalid argument ''");
	return select_output(p, a);
}

/* The global options that read arguments. */
static const struct {
	int (*parse)(struct parser *p, const char *opt);
	const char *names[N_ALIASES];
} global_parsers[] = {
	{ opt_display, { "--display", "-d", "-display" } },
	{ opt_fb, { "--fb" } },
	{ opt_pan_mode, { "--pan-mode" } },
	{ opt_pointer, { "--pointer" } },
	{ opt_capture, { "--capture" } },
	{ opt_output, { "--output" } },
};

static int is_rate_option(const char *opt)
{
	return !strcmp(opt, "--rate") || !strcmp(opt, "--refresh") ||
	       !strcmp(opt, "-r");
}

/* Options that take no --output. Returns 1 when argv[i] was one. */
static int global_option(struct parser *p, const char *opt, int *ret)
{
	size_t k;

	*ret = 0;
	for (k = 0; k < N_OPTIONS(global_flags); k++) {
		if (is_option(global_flags[k].names, opt)) {
			p->req->flags |= global_flags[k].flags;
			return 1;
		}
	}
	for (k = 0; k < N_OPTIONS(global_parsers); k++) {
		if (is_option(global_parsers[k].names, opt)) {
			*ret = global_parsers[k].parse(p, opt);
			return 1;
		}
	}
	/* before any --output, these two mean the whole screen */
	if (p->out)
		return 0;
	if (!strcmp(opt, "--auto")) {
		p->req->flags |= MMXR_AUTO_ALL;
		return 1;
	}
	if (is_rate_option(opt)) {
		/* RandR 1.1's screen-wide rate: there is no such thing here */
		*ret = perr(p, "%s must be used after --output", opt);
		return 1;
	}
	return 0;
}

/*
 * The options of the latest --output, in three groups: switches without
 * an argument, --set with two, and the rest with one (the parsers below,
 * called once need_output() and next_arg() have succeeded).
 */

/* the switches (--auto without --output is global) */
static const struct {
	const char *name;
	int mode_kind;		/* MMXR_MODE_KEEP: not a mode option */
	uint32_t changes;
} output_switches[] = {
	{ "--auto", MMXR_MODE_KEEP, MMXR_CH_AUTO },
	{ "--preferred", MMXR_MODE_PREFERRED, MMXR_CH_MODE },
	{ "--off", MMXR_MODE_OFF, MMXR_CH_MODE },
	{ "--primary", MMXR_MODE_KEEP, MMXR_CH_PRIMARY },
};

/* Returns 1 when @opt was a switch, its result in @ret. */
static int output_switch(struct parser *p, const char *opt, int *ret)
{
	size_t k;

	for (k = 0; k < N_OPTIONS(output_switches); k++) {
		if (strcmp(opt, output_switches[k].name))
			continue;
		*ret = need_output(p);
		if (*ret)
			return 1;
		if (output_switches[k].mode_kind != MMXR_MODE_KEEP)
			p->out->mode_kind = output_switches[k].mode_kind;
		p->out->changes |= output_switches[k].changes;
		return 1;
	}
	return 0;
}

static int opt_set(struct parser *p, const char *opt)
{
	struct mmxr_output_req *o = p->out;
	const char *name = NULL, *value = NULL;
	int ret = need_output(p);

	if (ret)
		return ret;
	ret = two_args_entry(p, opt, o->nprop, MMXR_MAX_SET_PROPS,
			     "--set options for one output", &name, &value);
	if (ret)
		return ret;
	o->changes |= MMXR_CH_PROPS;
	o->props[o->nprop].name = name;
	o->props[o->nprop++].value = value;
	return 0;
}

/* --left-of ... --same-as, in the order of their MMXR_LEFT_OF ... values */
static const char *const relations[] = {
	"--left-of", "--right-of", "--above", "--below", "--same-as"
};

static int opt_relation(struct parser *p, const char *opt, const char *a)
{
	struct mmxr_output_req *o = p->out;

	o->relation = lookup(relations, (int)N_OPTIONS(relations), opt);
	o->relative_to = a;
	o->changes |= MMXR_CH_RELATION;
	o->changes &= ~MMXR_CH_POS;
	return 0;
}

static int opt_mode(struct parser *p, const char *opt, const char *a)
{
	struct mmxr_output_req *o = p->out;

	(void)opt;
	if (!strncmp(a, "0x", 2) && a[2]) {
		char *end;
		unsigned long id;

		errno = 0;
		id = strtoul(a + 2, &end, 16);
		if (*end || errno || id > UINT32_MAX)
			return perr(p, "invalid name '%s'", a);
		o->mode_kind = MMXR_MODE_ID;
		o->mode_id = (uint32_t)id;
	} else {
		if (!*a)
			return perr(p, "invalid name '%s'", a);
		o->mode_kind = MMXR_MODE_NAME;
		o->mode_name = a;
	}
	o->changes |= MMXR_CH_MODE;
	return 0;
}

static int opt_pos(struct parser *p, const char *opt, const char *a)
{
	(void)opt;
	if (parse_point(a, "x", &p->out->x, &p->out->y))
		return perr(p, "failed to parse '%s' as a position", a);
	p->out->changes |= MMXR_CH_POS;
	p->out->changes &= ~MMXR_CH_RELATION;
	return 0;
}

static int opt_rate(struct parser *p, const char *opt, const char *a)
{
	double rate;

	(void)opt;
	if (parse_double(a, &rate) || rate <= 0)
		return perr(p, "failed to parse '%s' as a number", a);
	p->out->refresh = rate;
	p->out->changes |= MMXR_CH_RATE;
	return 0;
}

/* --rotate and --reflect (and their other names) */
static int opt_rotate_reflect(struct parser *p, const char *opt,
			      const char *a)
{
	int reflect = !strncmp(opt, "--reflect", 9);
	int k = lookup(reflect ? reflections : rotations, 4, a);

	if (k < 0)
		return perr(p, "%s: invalid argument '%s'", opt, a);
	if (reflect) {
		p->out->reflect = (uint32_t)k * MMX_REFLECT_X;
		p->out->changes |= MMXR_CH_REFLECT;
	} else {
		p->out->rotate = MMX_ROTATE_0 << k;
		p->out->changes |= MMXR_CH_ROTATE;
	}
	return 0;
}

static int opt_transform(struct parser *p, const char *opt, const char *a)
{
	double v[9];

	(void)opt;
	if (!strcmp(a, "none")) {
		mmx_matrix_identity(v);
		set_matrix(p->out, MMXR_XF_MATRIX, v, "nearest");
		return 0;
	}
	if (!scan_exactly(a, ",", 9, 0, v))
		return perr(p, "failed to parse '%s' as a transformation", a);
	set_matrix(p->out, MMXR_XF_MATRIX, v, "bilinear");
	return 0;
}

static int opt_scale(struct parser *p, const char *opt, const char *a)
{
	double v[9], sx, sy;
	int full, n;

	(void)opt;
	n = scan_numbers(a, "x", 2, 0, v, &full);
	if (!full || n < 1 || n > 2)
		return perr(p, "failed to parse '%s' as a scaling factor", a);
	sx = v[0];
	sy = n == 2 ? v[1] : v[0];
	if (sx <= 0 || sy <= 0)
		return perr(p, "failed to parse '%s' as a scaling factor", a);
	mmx_matrix_identity(v);
	v[0] = sx;
	v[4] = sy;
	set_matrix(p->out, MMXR_XF_SCALE, v,
		   sx != 1 || sy != 1 ? "bilinear" : "nearest");
	return 0;
}

static int opt_scale_from(struct parser *p, const char *opt, const char *a)
{
	struct mmxr_output_req *o = p->out;
	double v[9];

	(void)opt;
	if (parse_size(a, &o->scale_from_w, &o->scale_from_h, 0))
		return perr(p, "failed to parse '%s' as a scale-from size", a);
	mmx_matrix_identity(v);
	set_matrix(o, MMXR_XF_SCALE_FROM, v, "bilinear");
	return 0;
}

static int opt_keystone(struct parser *p, const char *opt, const char *a)
{
	struct mmxr_output_req *o = p->out;
	double v[9];

	(void)opt;
	if (!scan_exactly(a, ",", 8, 0, v))
		return perr(p, "failed to parse '%s' as keystone corners", a);
	memcpy(o->keystone, v, sizeof(o->keystone));
	mmx_matrix_identity(v);
	set_matrix(o, MMXR_XF_KEYSTONE, v, "bilinear");
	return 0;
}

static int opt_filter(struct parser *p, const char *opt, const char *a)
{
	const char *f = mmx_filter_canonical(a);

	(void)opt;
	if (!f)
		return perr(p, "Bad argument: %s, for a filter", a);
	p->out->filter = f;
	p->out->changes |= MMXR_CH_FILTER;
	return 0;
}

static int opt_panning(struct parser *p, const char *opt, const char *a)
{
	if (parse_panning(a, &p->out->panning))
		return perr(p, "%s: invalid argument '%s'", opt, a);
	p->out->changes |= MMXR_CH_PANNING;
	return 0;
}

static int opt_crtc(struct parser *p, const char *opt, const char *a)
{
	char *end;
	unsigned long c;

	(void)opt;
	errno = 0;
	if (!strncmp(a, "0x", 2))
		c = strtoul(a + 2, &end, 16);
	else
		c = strtoul(a, &end, 10);
	if (!*a || *end || errno || c > UINT32_MAX || a[0] == '-')
		return perr(p, "invalid name '%s'", a);
	p->out->crtc = a;
	p->out->changes |= MMXR_CH_CRTC;
	return 0;
}

/* The options of an output that take one argument. */
static const struct {
	int (*parse)(struct parser *p, const char *opt, const char *a);
	const char *names[N_ALIASES];
} output_parsers[] = {
	{ opt_relation,
	  { "--left-of", "--right-of", "--above", "--below" } },
	{ opt_relation, { "--same-as" } },
	{ opt_mode, { "--mode" } },
	{ opt_pos, { "--pos" } },
	{ opt_rate, { "--rate", "--refresh", "-r" } },
	{ opt_rotate_reflect, { "--rotate", "--rotation" } },
	{ opt_rotate_reflect, { "--reflect", "--reflection" } },
	{ opt_transform, { "--transform" } },
	{ opt_scale, { "--scale" } },
	{ opt_scale_from, { "--scale-from" } },
	{ opt_filter, { "--filter" } },
	{ opt_panning, { "--panning" } },
	{ opt_keystone, { "--keystone" } },
	{ opt_crtc, { "--crtc" } },
};

/* Options of the latest --output. */
static int output_option(struct parser *p, const char *opt)
{
	const char *a;
	size_t k;
	int ret;

	if (output_switch(p, opt, &ret))
		return ret;
	if (!strcmp(opt, "--set"))
		return opt_set(p, opt);
	for (k = 0; k < N_OPTIONS(output_parsers); k++) {
		if (!is_option(output_parsers[k].names, opt))
			continue;
		ret = output_arg(p, &a);
		if (ret)
			return ret;
		return output_parsers[k].parse(p, opt, a);
	}
	return perr(p, "unrecognized option '%s'", opt);
}

int mmxr_parse_args(int argc, char **argv, struct mmxr_request *req,
		    char *err, size_t errlen)
{
	struct parser p = {
		.argc = argc, .argv = argv, .req = req,
		.err = err, .errlen = errlen,
	};
	int ret;

	memset(req, 0, sizeof(*req));
	if (err && errlen)
		err[0] = '\0';
	for (p.i = 1; p.i < argc; p.i++) {
		const char *opt = argv[p.i];

		if (global_option(&p, opt, &ret)) {
			if (ret)
				return ret;
			continue;
		}
		ret = output_option(&p, opt);
		if (ret)
			return ret;
	}
	return 0;
}

int mmxr_request_changes(const struct mmxr_request *req)
{
	unsigned int k;

	if (req->flags & (MMXR_NOPRIMARY | MMXR_AUTO_ALL | MMXR_FB |
			  MMXR_PAN_MODE))
		return 1;
	for (k = 0; k < req->noutput; k++)
		if (req->outputs[k].changes)
			return 1;
	return 0;
}

void mmxr_usage(FILE *f)
{
	fputs("usage: mmxrandr [options]\n"
	      "  where options are:\n"
	      "  --display <display> or -d <display>\n"
	      "            unix:<socket> (mmxd), local (first KMS device),\n"
	      "            or a device path (/dev/dri/card0)\n"
	      "  --help\n"
	      "  -q        or --query\n"
	      "  -v        or --version\n"
	      "  --verbose\n"
	      "  --current\n"
	      "  --dryrun\n"
	      "  --prop or --properties\n"
	      "  --fb <width>x<height>\n"
	      "  --output <output>\n"
	      "      --auto\n"
	      "      --mode <mode>\n"
	      "      --preferred\n"
	      "      --pos <x>x<y>\n"
	      "      --rate <rate> or --refresh <rate>\n"
	      "      --reflect normal,x,y,xy\n"
	      "      --rotate normal,inverted,left,right\n"
	      "      --left-of <output>\n"
	      "      --right-of <output>\n"
	      "      --above <output>\n"
	      "      --below <output>\n"
	      "      --same-as <output>\n"
	      "      --set <property> <value>\n"
	      "      --scale <x>[x<y>]\n"
	      "      --scale-from <w>x<h>\n"
	      "      --transform <a>,<b>,<c>,<d>,<e>,<f>,<g>,<h>,<i>\n"
	      "      --keystone <x1>,<y1>,<x2>,<y2>,<x3>,<y3>,<x4>,<y4>\n"
	      "      --filter nearest,bilinear\n"
	      "      --off\n"
	      "      --crtc <crtc>\n"
	      "      --panning <w>x<h>[+<x>+<y>[/<track:w>x<h>+<x>+<y>[/<border:l>/<t>/<r>/<b>]]]\n"
	      "      --primary\n"
	      "  --noprimary\n"
	      "  --auto\n"
	      "  --pan-mode independent,joint\n"
	      "  --pointer <x>,<y>\n"
	      "  --capture <output> <file.ppm>\n"
	      "  --hold\n", f);
}
