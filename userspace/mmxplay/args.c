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

int mmxplay_parse_args(int argc, char **argv, struct mmxplay_opts *o,
		       char *err, size_t errlen)
{
	char name[64];
	int i;

	memset(o, 0, sizeof(*o));
	o->ahead_ns = 500000000;
	o->expire_ns = -1;
	o->delay_ns = 300000000;
	o->lead_ns = 0;
	err[0] = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *val = NULL, *eq;
		size_t len;

		if (arg[0] != '-' || !strcmp(arg, "-")) {
			if (o->file)
				return bad(err, errlen,
					   "one file only ('%s' and '%s')",
					   o->file, arg);
			o->file = arg;
			continue;
		}
		if (!strcmp(arg, "--")) {
			if (i + 1 < argc && !o->file)
				o->file = argv[++i];
			if (i + 1 < argc)
				return bad(err, errlen, "one file only");
			break;
		}
		eq = strncmp(arg, "--", 2) ? NULL : strchr(arg, '=');
		len = eq ? (size_t)(eq - arg) : strlen(arg);
		if (len >= sizeof(name))
			return bad(err, errlen, "unknown option '%s'", arg);
		memcpy(name, arg, len);
		name[len] = 0;
		if (takes_value(name)) {
			if (eq)
				val = eq + 1;
			else if (i + 1 < argc)
				val = argv[++i];
			else
				return bad(err, errlen,
					   "option '%s' needs a value", name);
		} else if (eq) {
			return bad(err, errlen,
				   "option '%s' takes no value", name);
		}

		if (!strcmp(name, "-h") || !strcmp(name, "--help")) {
			mmxplay_usage(stdout);
			return 1;
		} else if (!strcmp(name, "--version")) {
			printf("mmxplay %s\n", MMXPLAY_VERSION);
			return 1;
		} else if (!strcmp(name, "-d") || !strcmp(name, "--display")) {
			if (strncmp(val, "unix:", 5) && strncmp(val, "tcp:", 4))
				return bad(err, errlen,
					   "--display: '%s' is neither unix:PATH nor tcp:HOST:PORT",
					   val);
			o->display = val;
		} else if (!strcmp(name, "-o") || !strcmp(name, "--output")) {
			if (!*val)
				return bad(err, errlen, "--output: no name");
			o->output = val;
		} else if (!strcmp(name, "--no-audio")) {
			o->no_audio = true;
		} else if (!strcmp(name, "--clock")) {
			if (!strcmp(val, "audio"))
				o->clock = MMXPLAY_CLOCK_AUDIO;
			else if (!strcmp(val, "monotonic"))
				o->clock = MMXPLAY_CLOCK_MONOTONIC;
			else
				return bad(err, errlen,
					   "--clock: '%s' is neither audio nor monotonic",
					   val);
		} else if (!strcmp(name, "--ahead")) {
			if (parse_ms(val, 60000, &o->ahead_ns) ||
			    !o->ahead_ns)
				return bad(err, errlen,
					   "--ahead: '%s' is not 1..60000 ms",
					   val);
		} else if (!strcmp(name, "--expire")) {
			if (parse_ms(val, 60000, &o->expire_ns))
				return bad(err, errlen,
					   "--expire: '%s' is not 0..60000 ms",
					   val);
		} else if (!strcmp(name, "--delay")) {
			if (parse_ms(val, 60000, &o->delay_ns))
				return bad(err, errlen,
					   "--delay: '%s' is not 0..60000 ms",
					   val);
		} else if (!strcmp(name, "--lead-in")) {
			if (parse_ms(val, 60000, &o->lead_ns))
				return bad(err, errlen,
					   "--lead-in: '%s' is not 0..60000 ms",
					   val);
		} else if (!strcmp(name, "--capture-check")) {
			if (parse_u32(val, 0, 100, &o->capture_checks))
				return bad(err, errlen,
					   "--capture-check: '%s' is not 0..100",
					   val);
		} else if (!strcmp(name, "--stats")) {
			o->stats = true;
		} else if (!strcmp(name, "-v") || !strcmp(name, "--verbose")) {
			o->verbose = true;
		} else {
			return bad(err, errlen, "unknown option '%s'", arg);
		}
	}
	if (!o->file)
		return bad(err, errlen, "no file to play");
	if (o->no_audio && o->clock == MMXPLAY_CLOCK_AUDIO)
		return bad(err, errlen,
			   "--clock audio needs the audio (no --no-audio)");
	return 0;
}
