// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay --make-test-media: an MJPEG AVI of a known picture (the frame
 * number in a band of black and white cells, a moving texture below) with
 * a tone as PCM or MPEG-1/2 Layer II audio, so that the tests need no
 * stored media and can read the frame number back from a capture.
 *
 * JPEGs come from libturbojpeg; Layer II from libtwolame, opened with
 * dlopen() so that mmxplay does not need it to play (only --audio mpeg
 * does).
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <turbojpeg.h>
#include <twolame.h>

#include "mmxplay.h"

/* the marker in cells 12..15 */
static const uint8_t marker[MMXPLAY_BAND_CELLS - MMXPLAY_FRAME_BITS] = {
	1, 0, 1, 1
};

uint32_t mmxplay_band_rows(uint32_t h)
{
	uint32_t r = h / 8;

	if (r < 16)
		r = 16;
	return r > h ? h : r;
}

uint32_t mmxplay_pattern(uint32_t frame, uint32_t x, uint32_t y, uint32_t w,
			 uint32_t h)
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
			on = marker[cell - MMXPLAY_FRAME_BITS];
		return on ? 0xffffff : 0;
	}
	r = (x * 255 / w + frame * 4) & 0xff;
	g = h > band ? (y - band) * 255 / (h - band) : 0;
	b = (uint32_t)(128 + 90 * sin((x + 2.0 * y + 6.0 * frame) * 0.09));
	return r << 16 | g << 8 | b;
}

static int luma(uint32_t p)
{
	return (int)((((p >> 16) & 0xff) * 2 + ((p >> 8) & 0xff) * 5 +
		      (p & 0xff)) / 8);
}

int mmxplay_pattern_find(const uint32_t *pix, uint32_t cw, uint32_t ch,
			 int32_t x0, int32_t y0, uint32_t w, uint32_t h,
			 uint32_t *frame)
{
	uint32_t band = mmxplay_band_rows(h);
	uint32_t cell_w = w / MMXPLAY_BAND_CELLS;
	uint32_t i, value = 0;

	if (x0 < 0 || y0 < 0 || cell_w < 3 || band < 3 ||
	    (uint64_t)x0 + w > cw || (uint64_t)y0 + h > ch)
		return -EINVAL;
	for (i = 0; i < MMXPLAY_BAND_CELLS; i++) {
		uint32_t cx = x0 + i * cell_w + cell_w / 2;
		uint32_t cy = y0 + band / 2;
		int dx, dy, sum = 0;
		bool on;

		for (dy = -1; dy <= 1; dy++)
			for (dx = -1; dx <= 1; dx++)
				sum += luma(pix[(size_t)(cy + dy) * cw +
						cx + dx]);
		sum /= 9;
		if (sum > 170)
			on = true;
		else if (sum < 85)
			on = false;
		else
			return -ENOENT;
		if (i < MMXPLAY_FRAME_BITS)
			value |= (uint32_t)on << i;
		else if (on != marker[i - MMXPLAY_FRAME_BITS])
			return -ENOENT;
	}
	*frame = value;
	return 0;
}

/* libtwolame, through dlopen */
struct twolame {
	void *dl;
	twolame_options *opts;
	twolame_options *(*init)(void);
	int (*set_in_samplerate)(twolame_options *, int);
	int (*set_out_samplerate)(twolame_options *, int);
	int (*set_num_channels)(twolame_options *, int);
	int (*set_mode)(twolame_options *, TWOLAME_MPEG_mode);
	int (*set_bitrate)(twolame_options *, int);
	int (*init_params)(twolame_options *);
	int (*encode)(twolame_options *, const short int *, int,
		      unsigned char *, int);
	int (*flush)(twolame_options *, unsigned char *, int);
	void (*close)(twolame_options **);
};

static int twolame_load(struct twolame *t, const struct mmxplay_media *m,
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

int mmxplay_make_media(const char *path, const struct mmxplay_media *m,
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
	if (m->audio == MMXPLAY_AUDIO_MPEG) {
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
	wc.audio_tag = m->audio == MMXPLAY_AUDIO_PCM ? AVI_WAVE_PCM :
		m->audio == MMXPLAY_AUDIO_MPEG ? AVI_WAVE_MPEG : 0;
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
					mmxplay_pattern(n, x, y, m->width,
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
		if (m->audio == MMXPLAY_AUDIO_PCM) {
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
	if (m->audio == MMXPLAY_AUDIO_MPEG) {
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
