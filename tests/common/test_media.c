// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The test media of mmxplay's tests (test_media.h): the picture whose
 * frame number mmxplay's --capture-check reads back, JPEGs from
 * libturbojpeg, the AVI from the tests' writer (avi_writer.h), audio as
 * PCM or as Layer II from libtwolame, opened with dlopen() so that only
 * --audio mpeg needs it.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <turbojpeg.h>
#include <twolame.h>

#include "avi.h"
#include "avi_writer.h"
#include "mmxplay.h"
#include "test_media.h"

uint32_t test_media_pattern(uint32_t frame, uint32_t x, uint32_t y,
			    uint32_t w, uint32_t h)
{
	uint32_t band = mmxplay_band_rows(h);
	uint32_t r, g, b;

	if (y < band) {
		uint32_t cw = w / MMXPLAY_BAND_CELLS ? w / MMXPLAY_BAND_CELLS : 1;
		uint32_t cell = x / cw;
		bool on;

		if (cell >= MMXPLAY_BAND_CELLS)
			return 0x404040;
		if (cell < MMXPLAY_FRAME_BITS)
			on = (frame >> cell) & 1;
		else
			on = mmxplay_marker_bit(cell);
		return on ? 0xffffff : 0;
	}
	r = (x * 255 / w + frame * 4) & 0xff;
	g = h > band ? (y - band) * 255 / (h - band) : 0;
	b = (uint32_t)(128 + 90 * sin((x + 2.0 * y + 6.0 * frame) * 0.09));
	return r << 16 | g << 8 | b;
}

/* libtwolame, through dlopen */
struct twolame {
	void *dl;
	twolame_options *opts;
	twolame_options *(*init)(void);
	int (*set_in_samplerate)(twolame_options *o, int rate);
	int (*set_out_samplerate)(twolame_options *o, int rate);
	int (*set_num_channels)(twolame_options *o, int channels);
	int (*set_mode)(twolame_options *o, TWOLAME_MPEG_mode mode);
	int (*set_bitrate)(twolame_options *o, int kbps);
	int (*init_params)(twolame_options *o);
	int (*encode)(twolame_options *o, const short int *pcm, int frames,
		      unsigned char *out, int out_size);
	int (*flush)(twolame_options *o, unsigned char *out, int out_size);
	void (*close)(twolame_options **o);
};

static int twolame_load(struct twolame *t, const struct test_media *m,
			char *err, size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->dl = dlopen("libtwolame.so.0", RTLD_NOW | RTLD_LOCAL);
	if (!t->dl) {
		snprintf(err, errlen, "MPEG audio needs libtwolame: %s",
			 dlerror());
		return -ENOENT;
	}
#define SYM(f, name) (*(void **)&t->f = dlsym(t->dl, name))
	if (!SYM(init, "twolame_init") ||
	    !SYM(set_in_samplerate, "twolame_set_in_samplerate") ||
	    !SYM(set_out_samplerate, "twolame_set_out_samplerate") ||
	    !SYM(set_num_channels, "twolame_set_num_channels") ||
	    !SYM(set_mode, "twolame_set_mode") ||
	    !SYM(set_bitrate, "twolame_set_bitrate") ||
	    !SYM(init_params, "twolame_init_params") ||
	    !SYM(encode, "twolame_encode_buffer_interleaved") ||
	    !SYM(flush, "twolame_encode_flush") ||
	    !SYM(close, "twolame_close")) {
#undef SYM
		snprintf(err, errlen, "libtwolame: missing symbols");
		dlclose(t->dl);
		return -ENOENT;
	}
	t->opts = t->init();
	if (!t->opts) {
		dlclose(t->dl);
		snprintf(err, errlen, "twolame_init failed");
		return -ENOMEM;
	}
	t->set_in_samplerate(t->opts, (int)m->rate);
	t->set_out_samplerate(t->opts, (int)m->rate);
	t->set_num_channels(t->opts, (int)m->channels);
	t->set_mode(t->opts, m->channels == 1 ? TWOLAME_MONO :
		    TWOLAME_JOINT_STEREO);
	t->set_bitrate(t->opts, (int)m->bitrate);
	if (t->init_params(t->opts)) {
		t->close(&t->opts);
		dlclose(t->dl);
		snprintf(err, errlen,
			 "libtwolame refuses %u Hz, %u channels at %u kbit/s",
			 m->rate, m->channels, m->bitrate);
		return -EINVAL;
	}
	return 0;
}

static void twolame_unload(struct twolame *t)
{
	if (!t->dl)
		return;
	t->close(&t->opts);
	dlclose(t->dl);
	t->dl = NULL;
}

/* Length of the Layer II frame at @p (0: not a Layer II header). */
static uint32_t layer2_frame_len(const uint8_t *p)
{
	static const uint16_t br1[15] = { 0, 32, 48, 56, 64, 80, 96, 112, 128,
					  160, 192, 224, 256, 320, 384 };
	static const uint16_t br2[15] = { 0, 8, 16, 24, 32, 40, 48, 56, 64,
					  80, 96, 112, 128, 144, 160 };
	static const uint32_t sr1[3] = { 44100, 48000, 32000 };
	uint32_t ver, bri, sri, rate, kbps;

	if (p[0] != 0xff || (p[1] & 0xe0) != 0xe0 || ((p[1] >> 1) & 3) != 2)
		return 0;
	ver = (p[1] >> 3) & 3;		/* 3: MPEG-1, 2: MPEG-2, 0: 2.5 */
	bri = p[2] >> 4;
	sri = (p[2] >> 2) & 3;
	if (ver == 1 || bri == 0 || bri == 15 || sri == 3)
		return 0;
	rate = sr1[sri] >> (ver == 3 ? 0 : ver == 2 ? 1 : 2);
	kbps = ver == 3 ? br1[bri] : br2[bri];
	return 144 * kbps * 1000 / rate + ((p[2] >> 1) & 1);
}

/* Write the whole Layer II frames at the start of @buf; keep the rest. */
static int write_mpeg_frames(struct avi_writer *w, uint8_t *buf,
			     size_t *len)
{
	size_t pos = 0;
	int ret;

	while (*len - pos >= 4) {
		uint32_t fl = layer2_frame_len(buf + pos);

		if (!fl)
			return -EPROTO;
		if (fl > *len - pos)
			break;
		ret = avi_writer_audio(w, buf + pos, fl, 1152);
		if (ret)
			return ret;
		pos += fl;
	}
	memmove(buf, buf + pos, *len - pos);
	*len -= pos;
	return 0;
}

/* A 440 Hz tone with a 1 kHz beep in the first 50 ms of every second. */
static int16_t tone(uint64_t n, uint32_t rate, uint32_t ch)
{
	double t = (double)n / rate;
	double f = fmod(t, 1.0) < 0.05 ? 1000.0 : 440.0;

	return (int16_t)(8000 * sin(2 * M_PI * f * t + ch * 0.09));
}

int test_media_write(const char *path, const struct test_media *m,
		     char *err, size_t errlen)
{
	struct avi_writer_config wc = { 0 };
	struct avi_writer *w = NULL;
	struct twolame tl = { 0 };
	uint32_t nframes, n, x, y;
	uint8_t *mp2 = NULL;
	size_t mp2_len = 0, mp2_cap = 0;
	int16_t *pcm = NULL;
	uint32_t *rgb = NULL;
	uint64_t done = 0;
	bool created = false;
	tjhandle tj;
	int ret;

	if (m->seconds <= 0 || m->seconds > 3600 || m->width < 16 ||
	    m->height < 16 || m->width > 4096 || m->height > 4096 ||
	    !m->fps || m->fps > 240 || !m->quality || m->quality > 100 ||
	    (m->audio && (m->rate < 8000 || m->rate > 192000 ||
			  !m->channels || m->channels > 2))) {
		snprintf(err, errlen, "bad test media parameters");
		return -EINVAL;
	}
	nframes = (uint32_t)lround(m->seconds * m->fps);
	if (!nframes)
		nframes = 1;
	tj = tjInitCompress();
	if (!tj) {
		snprintf(err, errlen, "tjInitCompress: %s", tjGetErrorStr());
		return -ENOMEM;
	}
	rgb = malloc((size_t)m->width * m->height * 4);
	/* one frame period of PCM, rounded up */
	pcm = malloc(((size_t)m->rate / m->fps + 2) * 2 * sizeof(*pcm));
	if (!rgb || !pcm) {
		snprintf(err, errlen, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	if (m->audio == TEST_MEDIA_AUDIO_MPEG) {
		ret = twolame_load(&tl, m, err, errlen);
		if (ret)
			goto out;
		mp2_cap = (size_t)m->rate / m->fps * 2 + 16384;
		mp2 = malloc(mp2_cap);
		if (!mp2) {
			snprintf(err, errlen, "out of memory");
			ret = -ENOMEM;
			goto out;
		}
	}

	wc.width = m->width;
	wc.height = m->height;
	wc.fps_num = m->fps;
	wc.fps_den = 1;
	wc.audio_tag = m->audio == TEST_MEDIA_AUDIO_PCM ? AVI_WAVE_PCM :
		m->audio == TEST_MEDIA_AUDIO_MPEG ? AVI_WAVE_MPEG : 0;
	wc.rate = m->rate;
	wc.channels = m->channels;
	wc.mpeg_bitrate = m->bitrate;
	ret = avi_writer_open(path, &wc, &w);
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out;
	}
	created = true;

	for (n = 0; n < nframes; n++) {
		unsigned char *jpeg = NULL;
		unsigned long size = 0;
		uint64_t end, i;
		uint32_t c;

		for (y = 0; y < m->height; y++)
			for (x = 0; x < m->width; x++)
				rgb[(size_t)y * m->width + x] =
					test_media_pattern(n, x, y, m->width,
							   m->height);
		if (tjCompress2(tj, (unsigned char *)rgb, (int)m->width,
				(int)m->width * 4, (int)m->height, TJPF_BGRX,
				&jpeg, &size, TJSAMP_420, (int)m->quality,
				0)) {
			snprintf(err, errlen, "tjCompress2: %s",
				 tjGetErrorStr2(tj));
			ret = -EIO;
			goto out;
		}
		if (m->corrupt_every && n % m->corrupt_every ==
		    m->corrupt_every - 1 && size > 64)
			memset(jpeg + 2, 0, 62);	/* SOI, then nothing */
		ret = avi_writer_video(w, jpeg, (uint32_t)size);
		tjFree(jpeg);
		if (ret)
			goto write_err;
		if (!m->audio)
			continue;

		/* the audio of this frame period */
		end = (uint64_t)(n + 1) * m->rate / m->fps;
		for (i = done; i < end; i++)
			for (c = 0; c < m->channels; c++)
				pcm[(i - done) * m->channels + c] =
					tone(i, m->rate, c);
		if (m->audio == TEST_MEDIA_AUDIO_PCM) {
			ret = avi_writer_audio(w, pcm,
					       (uint32_t)((end - done) *
							  m->channels * 2),
					       (uint32_t)(end - done));
		} else {
			int got = tl.encode(tl.opts, pcm, (int)(end - done),
					    mp2 + mp2_len,
					    (int)(mp2_cap - mp2_len));

			ret = got < 0 ? -EIO : 0;
			if (!ret) {
				mp2_len += (size_t)got;
				ret = write_mpeg_frames(w, mp2, &mp2_len);
			}
		}
		done = end;
		if (ret)
			goto write_err;
	}
	if (m->audio == TEST_MEDIA_AUDIO_MPEG) {
		int got = tl.flush(tl.opts, mp2 + mp2_len,
				   (int)(mp2_cap - mp2_len));

		ret = got < 0 ? -EIO : 0;
		if (!ret) {
			mp2_len += (size_t)got;
			ret = write_mpeg_frames(w, mp2, &mp2_len);
		}
		if (ret)
			goto write_err;
	}
	ret = avi_writer_close(w);
	w = NULL;
	if (ret)
		goto write_err;
	goto out;

write_err:
	snprintf(err, errlen, "%s: %s", path, strerror(-ret));
out:
	if (w)
		avi_writer_close(w);
	if (ret && created)
		unlink(path);	/* no half-written media */
	twolame_unload(&tl);
	free(mp2);
	free(pcm);
	free(rgb);
	tjDestroy(tj);
	return ret;
}

void test_media_usage(FILE *fp)
{
	fprintf(fp,
"Usage: mmx_test_media FILE.avi [OPTION]...\n"
"Write the test media of mmxplay's tests: an MJPEG AVI whose pictures show\n"
"their frame number (read back by mmxplay --capture-check), with a tone.\n"
"\n"
"  --seconds S        length (default 5)\n"
"  --size WxH         frame size (default 320x240)\n"
"  --fps N            frames per second (default 10)\n"
"  --quality Q        JPEG quality 1-100 (default 55)\n"
"  --audio none|pcm|mpeg\n"
"                     16-bit PCM or MPEG-1/2 Layer II (default pcm)\n"
"  --rate HZ          audio rate (default 8000 for PCM, 24000 for MPEG)\n"
"  --channels N       1 or 2 (default 1)\n"
"  --bitrate KBPS     MPEG bit rate (default 32)\n"
"  --corrupt-every N  make every Nth frame an undecodable JPEG\n"
"  -h, --help         show this help\n");
}

/* @s as a number in [@min, @max] (a whole one with @whole) */
static bool number_in(const char *s, double min, double max, bool whole,
		      double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return !errno && end != s && !*end && *v >= min && *v <= max &&
	       (!whole || *v == floor(*v));
}

enum {
	OPT_SECONDS = 256, OPT_SIZE, OPT_FPS, OPT_QUALITY, OPT_AUDIO,
	OPT_RATE, OPT_CHANNELS, OPT_BITRATE, OPT_CORRUPT,
};

static const struct option options[] = {
	{ "seconds", required_argument, NULL, OPT_SECONDS },
	{ "size", required_argument, NULL, OPT_SIZE },
	{ "fps", required_argument, NULL, OPT_FPS },
	{ "quality", required_argument, NULL, OPT_QUALITY },
	{ "audio", required_argument, NULL, OPT_AUDIO },
	{ "rate", required_argument, NULL, OPT_RATE },
	{ "channels", required_argument, NULL, OPT_CHANNELS },
	{ "bitrate", required_argument, NULL, OPT_BITRATE },
	{ "corrupt-every", required_argument, NULL, OPT_CORRUPT },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* the whole-number options: their field and range */
static uint32_t *whole_option(struct test_media *m, int opt, double *min,
			      double *max)
{
	switch (opt) {
	case OPT_FPS:
		*min = 1, *max = 240;
		return &m->fps;
	case OPT_QUALITY:
		*min = 1, *max = 100;
		return &m->quality;
	case OPT_RATE:
		*min = 8000, *max = 192000;
		return &m->rate;
	case OPT_CHANNELS:
		*min = 1, *max = 2;
		return &m->channels;
	case OPT_BITRATE:
		*min = 8, *max = 384;
		return &m->bitrate;
	case OPT_CORRUPT:
		*min = 1, *max = 1000000;
		return &m->corrupt_every;
	}
	return NULL;
}

/* Layer II's sample rates (MPEG-1 and MPEG-2) */
static bool layer2_rate(uint32_t rate)
{
	static const uint32_t ok[] = { 16000, 22050, 24000, 32000, 44100,
				       48000 };
	size_t k;

	for (k = 0; k < sizeof(ok) / sizeof(ok[0]); k++)
		if (rate == ok[k])
			return true;
	return false;
}

/* in test_media_parse(): say why in @err, return -EINVAL */
#define refuse(...) (snprintf(err, errlen, __VA_ARGS__), -EINVAL)

int test_media_parse(int argc, char **argv, struct test_media *m,
		     const char **path, char *err, size_t errlen)
{
	bool rate_set = false;
	unsigned int w, h;
	int opt, idx, n;

	*m = (struct test_media){
		.seconds = 5, .width = 320, .height = 240, .fps = 10,
		.quality = 55, .audio = TEST_MEDIA_AUDIO_PCM, .rate = 8000,
		.channels = 1, .bitrate = 32,
	};
	*path = NULL;
	err[0] = 0;
	optind = 0;	/* glibc: start over (the host test parses often) */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":h", options, &idx)) != -1) {
		/* the argument getopt refused (for '?' and ':') */
		const char *arg = argv[optind - 1];
		double v, min = 0, max = 0;
		uint32_t *field;

		switch (opt) {
		case 'h':
			test_media_usage(stdout);
			return 1;
		case ':':
			return refuse("option '%s' needs a value", arg);
		case '?':
			return refuse("unknown option '%s'", arg);
		case OPT_SECONDS:
			if (!number_in(optarg, 0, 3600, false, &v) || !(v > 0))
				return refuse("--seconds: '%s' is not in (0, 3600]",
					      optarg);
			m->seconds = v;
			break;
		case OPT_SIZE:
			n = -1;
			if (sscanf(optarg, "%ux%u%n", &w, &h, &n) != 2 ||
			    optarg[n] || optarg[0] < '0' || optarg[0] > '9' ||
			    w < 16 || h < 16 || w > 4096 || h > 4096)
				return refuse("--size: '%s' is not WxH (16..4096)",
					      optarg);
			m->width = w;
			m->height = h;
			break;
		case OPT_AUDIO:
			if (!strcmp(optarg, "none"))
				m->audio = TEST_MEDIA_AUDIO_NONE;
			else if (!strcmp(optarg, "pcm"))
				m->audio = TEST_MEDIA_AUDIO_PCM;
			else if (!strcmp(optarg, "mpeg"))
				m->audio = TEST_MEDIA_AUDIO_MPEG;
			else
				return refuse("--audio: '%s' is not none, pcm or mpeg",
					      optarg);
			break;
		default:
			field = whole_option(m, opt, &min, &max);
			if (!field || !number_in(optarg, min, max, true, &v))
				return refuse("--%s: '%s' is not a whole number in %.0f..%.0f",
					      options[idx].name, optarg, min,
					      max);
			*field = (uint32_t)v;
			rate_set |= opt == OPT_RATE;
			break;
		}
	}
	if (optind >= argc)
		return refuse("no output file");
	if (optind + 1 < argc)
		return refuse("one output file only ('%s' and '%s')",
			      argv[optind], argv[optind + 1]);
	*path = argv[optind];
	if (m->audio == TEST_MEDIA_AUDIO_MPEG && !rate_set)
		m->rate = 24000;
	if (m->audio == TEST_MEDIA_AUDIO_MPEG && !layer2_rate(m->rate))
		return refuse("--rate: Layer II takes 16000, 22050, 24000, 32000, 44100 or 48000");
	return 0;
}

#undef refuse
