// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's command line: "--option VALUE" or "--option=VALUE", options
 * and the file in any order. Nothing global (no getopt), so the unit tests
 * can parse many command lines.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "mmxplay.h"

void mmxplay_usage(FILE *fp)
{
	fprintf(fp,
"Usage: mmxplay [OPTION]... FILE.avi\n"
"Play an MJPEG AVI with PCM or MPEG audio through the mmxd display daemon:\n"
"the JPEG frames and the audio go to mmxd with their times, mmxd decodes\n"
"and shows them; the figures of the run are printed at the end.\n"
"\n"
"Options:\n"
"  -d, --display SPEC     unix:PATH or tcp:HOST:PORT (default: mmxd at\n"
"                         $MMX_SOCKET or /run/mmx/mmxd.sock)\n"
"  -o, --output NAME      show the video on this output's CRTC (default:\n"
"                         the first lit output)\n"
"      --no-audio         do not send the audio (the clock is then monotonic)\n"
"      --clock audio|monotonic\n"
"                         the stream clock (default: audio when there is\n"
"                         audio, else monotonic)\n"
"      --ahead MS         send data this far ahead of the clock (default 500)\n"
"      --expire MS        a frame may be shown this late before it expires\n"
"                         (default: 2 frame periods, at least 100; 0: never)\n"
"      --delay MS         stream time 0 this long after the start (default 300)\n"
"      --lead-in MS       start the media at this stream time, after silence\n"
"                         (default 0)\n"
"      --capture-check N  capture the output N times while playing and read\n"
"                         the test media's frame number in each capture\n"
"      --stats            also print every figure on one line (key=value)\n"
"  -v, --verbose          print every frame's event\n"
"\n"
"  -h, --help             show this help\n"
"      --version          show the version\n"
"\n"
"Exit status: 0 when every frame sent was presented or expired and no\n"
"error occurred, 1 on errors (a file mmxplay cannot play, no display,\n"
"frames that failed), 2 on a bad command line.\n");
}

static int bad(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_u32(const char *s, uint32_t min, uint32_t max, uint32_t *v)
{
	unsigned long long x;
	char *end;

	if (!s || !*s || *s == '-' || *s == '+')
		return -EINVAL;
	errno = 0;
	x = strtoull(s, &end, 10);
	if (errno || *end || x < min || x > max)
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

static int parse_ms(const char *s, uint32_t max, int64_t *ns)
{
	uint32_t v;
	int ret = parse_u32(s, 0, max, &v);

	if (!ret)
		*ns = (int64_t)v * 1000000;
	return ret;
}

/* the options that take a value */
static const char *const with_value[] = {
	"--display", "-d", "--output", "-o", "--clock", "--ahead", "--expire",
	"--delay", "--lead-in", "--capture-check", NULL
};

static bool takes_value(const char *name)
{
	int i;

	for (i = 0; with_value[i]; i++)
		if (!strcmp(name, with_value[i]))
			return true;
	return false;
}

#define NAME_LEN 64

/*
 * argv[*i]'s option name into @name and its value, from "--name=VALUE" or
 * the next argument (then *i moves on), into @val (NULL when it takes none).
 */
static int read_option(int argc, char **argv, int *i, char *name,
		       const char **val, char *err, size_t errlen)
{
	const char *arg = argv[*i];
	const char *eq = strncmp(arg, "--", 2) ? NULL : strchr(arg, '=');
	size_t len = eq ? (size_t)(eq - arg) : strlen(arg);

	*val = NULL;
	if (len >= NAME_LEN)
		return bad(err, errlen, "unknown option '%s'", arg);
	memcpy(name, arg, len);
	name[len] = 0;
	if (!takes_value(name)) {
		if (eq)
			return bad(err, errlen,
				   "option '%s' takes no value", name);
		return 0;
	}
	if (eq)
		*val = eq + 1;
	else if (*i + 1 < argc)
		*val = argv[++*i];
	else
		return bad(err, errlen, "option '%s' needs a value", name);
	return 0;
}

/* The field of the options in milliseconds, or NULL. */
static int64_t *ms_option(struct mmxplay_opts *o, const char *name)
{
	if (!strcmp(name, "--ahead"))
		return &o->ahead_ns;
	if (!strcmp(name, "--expire"))
		return &o->expire_ns;
	if (!strcmp(name, "--delay"))
		return &o->delay_ns;
	if (!strcmp(name, "--lead-in"))
		return &o->lead_ns;
	return NULL;
}

/* The options with a value other than milliseconds. */
static int value_option(struct mmxplay_opts *o, const char *name,
			const char *val, char *err, size_t errlen)
{
	if (!strcmp(name, "-d") || !strcmp(name, "--display")) {
		if (strncmp(val, "unix:", 5) && strncmp(val, "tcp:", 4))
			return bad(err, errlen,
				   "--display: '%s' is neither unix:PATH nor tcp:HOST:PORT",
				   val);
		o->display = val;
	} else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
		if (!*val)
			return bad(err, errlen, "--output: no name");
		o->output = val;
	} else if (!strcmp(name, "--clock")) {
		if (!strcmp(val, "audio"))
			o->clock = MMXPLAY_CLOCK_AUDIO;
		else if (!strcmp(val, "monotonic"))
			o->clock = MMXPLAY_CLOCK_MONOTONIC;
		else
			return bad(err, errlen,
				   "--clock: '%s' is neither audio nor monotonic",
				   val);
	} else if (!strcmp(name, "--capture-check")) {
		if (parse_u32(val, 0, 100, &o->capture_checks))
			return bad(err, errlen,
				   "--capture-check: '%s' is not 0..100", val);
	}
	return 0;
}

/*
 * Option @name (argv's @arg) with its value @val: 1 when it was --help or
 * --version (printed), else 0 or -EINVAL.
 */
static int apply_option(struct mmxplay_opts *o, const char *name,
			const char *val, const char *arg, char *err,
			size_t errlen)
{
	int64_t *ns = ms_option(o, name);

	if (ns) {
		int ahead = ns == &o->ahead_ns;

		if (parse_ms(val, 60000, ns) || (ahead && !*ns))
			return bad(err, errlen, "%s: '%s' is not %d..60000 ms",
				   name, val, ahead);
		return 0;
	}
	if (val)
		return value_option(o, name, val, err, errlen);
	if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
		mmxplay_usage(stdout);
		return 1;
	}
	if (!strcmp(name, "--version")) {
		printf("mmxplay %s\n", MMXPLAY_VERSION);
		return 1;
	}
	if (!strcmp(name, "--no-audio"))
		o->no_audio = true;
	else if (!strcmp(name, "--stats"))
		o->stats = true;
	else if (!strcmp(name, "-v") || !strcmp(name, "--verbose"))
		o->verbose = true;
	else
		return bad(err, errlen, "unknown option '%s'", arg);
	return 0;
}

/* The positional arguments: the file; after "--", everything. */
static int file_arg(struct mmxplay_opts *o, const char *arg, char *err,
		    size_t errlen)
{
	if (o->file)
		return bad(err, errlen, "one file only ('%s' and '%s')",
			   o->file, arg);
	o->file = arg;
	return 0;
}

int mmxplay_parse_args(int argc, char **argv, struct mmxplay_opts *o,
		       char *err, size_t errlen)
{
	char name[NAME_LEN];
	const char *val;
	int i, ret;

	memset(o, 0, sizeof(*o));
	o->ahead_ns = 500000000;
	o->expire_ns = -1;
	o->delay_ns = 300000000;
	o->lead_ns = 0;
	err[0] = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (arg[0] != '-' || !strcmp(arg, "-")) {
			ret = file_arg(o, arg, err, errlen);
			if (ret)
				return ret;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (i + 1 < argc && !o->file)
				o->file = argv[++i];
			if (i + 1 < argc)
				return bad(err, errlen, "one file only");
			break;
		}
		ret = read_option(argc, argv, &i, name, &val, err, errlen);
		if (!ret)
			ret = apply_option(o, name, val, arg, err, errlen);
		if (ret)
			return ret;
	}
	if (!o->file)
		return bad(err, errlen, "no file to play");
	if (o->no_audio && o->clock == MMXPLAY_CLOCK_AUDIO)
		return bad(err, errlen,
			   "--clock audio needs the audio (no --no-audio)");
	return 0;
}
