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
"       mmxplay --make-test-media FILE.avi [MEDIA OPTION]...\n"
"Play an MJPEG AVI with PCM or MPEG audio through the mmxd display daemon:\n"
"the JPEG frames and the audio go to mmxd with their times, mmxd decodes\n"
"and shows them; the figures of the run are printed at the end.\n"
"\n"
"Playback options:\n"
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
"Test media (--make-test-media FILE.avi):\n"
"      --seconds S        length (default 5)\n"
"      --size WxH         frame size (default 320x240)\n"
"      --fps N            frames per second (default 10)\n"
"      --quality Q        JPEG quality 1-100 (default 55)\n"
"      --audio none|pcm|mpeg\n"
"                         16-bit PCM or MPEG-1/2 Layer II (default pcm)\n"
"      --rate HZ          audio rate (default 8000 for PCM, 24000 for MPEG)\n"
"      --channels N       1 or 2 (default 1)\n"
"      --bitrate KBPS     MPEG bit rate (default 32)\n"
"      --corrupt-every N  make every Nth frame an undecodable JPEG\n"
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

static int parse_seconds(const char *s, double *v)
{
	char *end;
	double x;

	if (!s || !*s)
		return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (errno || *end || !(x > 0) || x > 3600)
		return -EINVAL;
	*v = x;
	return 0;
}

static int parse_size(const char *s, uint32_t *w, uint32_t *h)
{
	unsigned long a, b;
	char *end;

	if (!s || *s < '0' || *s > '9')
		return -EINVAL;
	a = strtoul(s, &end, 10);
	if (*end != 'x' || end[1] < '0' || end[1] > '9')
		return -EINVAL;
	b = strtoul(end + 1, &end, 10);
	if (*end || a < 16 || b < 16 || a > 4096 || b > 4096)
		return -EINVAL;
	*w = (uint32_t)a;
	*h = (uint32_t)b;
	return 0;
}

/* the options that take a value */
static const char *const with_value[] = {
	"--display", "-d", "--output", "-o", "--clock", "--ahead", "--expire",
	"--delay", "--lead-in", "--capture-check", "--seconds", "--size", "--fps",
	"--quality", "--audio", "--rate", "--channels", "--bitrate",
	"--corrupt-every", NULL
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
	bool rate_set = false, media_opt = false;
	char name[64];
	int i;

	memset(o, 0, sizeof(*o));
	o->ahead_ns = 500000000;
	o->expire_ns = -1;
	o->delay_ns = 300000000;
	o->lead_ns = 0;
	o->media.seconds = 5;
	o->media.width = 320;
	o->media.height = 240;
	o->media.fps = 10;
	o->media.quality = 55;
	o->media.audio = MMXPLAY_AUDIO_PCM;
	o->media.rate = 8000;
	o->media.channels = 1;
	o->media.bitrate = 32;
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
		} else if (!strcmp(name, "--make-test-media")) {
			o->make = true;
		} else if (!strcmp(name, "--seconds")) {
			media_opt = true;
			if (parse_seconds(val, &o->media.seconds))
				return bad(err, errlen,
					   "--seconds: '%s' is not in (0, 3600]",
					   val);
		} else if (!strcmp(name, "--size")) {
			media_opt = true;
			if (parse_size(val, &o->media.width, &o->media.height))
				return bad(err, errlen,
					   "--size: '%s' is not WxH (16..4096)",
					   val);
		} else if (!strcmp(name, "--fps")) {
			media_opt = true;
			if (parse_u32(val, 1, 240, &o->media.fps))
				return bad(err, errlen,
					   "--fps: '%s' is not 1..240", val);
		} else if (!strcmp(name, "--quality")) {
			media_opt = true;
			if (parse_u32(val, 1, 100, &o->media.quality))
				return bad(err, errlen,
					   "--quality: '%s' is not 1..100", val);
		} else if (!strcmp(name, "--audio")) {
			media_opt = true;
			if (!strcmp(val, "none"))
				o->media.audio = MMXPLAY_AUDIO_NONE;
			else if (!strcmp(val, "pcm"))
				o->media.audio = MMXPLAY_AUDIO_PCM;
			else if (!strcmp(val, "mpeg"))
				o->media.audio = MMXPLAY_AUDIO_MPEG;
			else
				return bad(err, errlen,
					   "--audio: '%s' is not none, pcm or mpeg",
					   val);
		} else if (!strcmp(name, "--rate")) {
			media_opt = true;
			rate_set = true;
			if (parse_u32(val, 8000, 192000, &o->media.rate))
				return bad(err, errlen,
					   "--rate: '%s' is not 8000..192000",
					   val);
		} else if (!strcmp(name, "--channels")) {
			media_opt = true;
			if (parse_u32(val, 1, 2, &o->media.channels))
				return bad(err, errlen,
					   "--channels: '%s' is not 1 or 2",
					   val);
		} else if (!strcmp(name, "--bitrate")) {
			media_opt = true;
			if (parse_u32(val, 8, 384, &o->media.bitrate))
				return bad(err, errlen,
					   "--bitrate: '%s' is not 8..384",
					   val);
		} else if (!strcmp(name, "--corrupt-every")) {
			media_opt = true;
			if (parse_u32(val, 1, 1000000,
				      &o->media.corrupt_every))
				return bad(err, errlen,
					   "--corrupt-every: '%s' is not a positive number",
					   val);
		} else {
			return bad(err, errlen, "unknown option '%s'", arg);
		}
	}
	if (!o->file)
		return bad(err, errlen, o->make ?
			   "--make-test-media: no output file" :
			   "no file to play");
	if (media_opt && !o->make)
		return bad(err, errlen,
			   "test media options need --make-test-media");
	if (o->make && (o->display || o->output || o->no_audio || o->clock ||
			o->capture_checks))
		return bad(err, errlen,
			   "--make-test-media takes no playback option");
	if (o->media.audio == MMXPLAY_AUDIO_MPEG && !rate_set)
		o->media.rate = 24000;
	if (o->media.audio == MMXPLAY_AUDIO_MPEG) {
		static const uint32_t ok[] = { 16000, 22050, 24000, 32000,
					       44100, 48000 };
		unsigned int k;

		for (k = 0; k < sizeof(ok) / sizeof(ok[0]); k++)
			if (o->media.rate == ok[k])
				break;
		if (k == sizeof(ok) / sizeof(ok[0]))
			return bad(err, errlen,
				   "--rate: Layer II takes 16000, 22050, 24000, 32000, 44100 or 48000 Hz");
	}
	if (o->no_audio && o->clock == MMXPLAY_CLOCK_AUDIO)
		return bad(err, errlen,
			   "--clock audio needs the audio (no --no-audio)");
	return 0;
}
