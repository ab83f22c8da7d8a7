// SPDX-License-Identifier: GPL-2.0-only
/*
 * MPEG audio through mmxd's sandboxed decoder pool
 * (mmx_decode_submit_audio: libmpg123 in mmx-jpegd, under its seccomp
 * filter).
 *
 * The media is made here, not stored: sines encoded to MP2 by libtwolame
 * and to MP3 by libmp3lame, both opened with dlopen() so that neither
 * the build nor libmmx links them (scripts/install-deps installs their
 * -dev packages for the headers). A decoded sine must have its frequency
 * within 1% (rising zero crossings) and its amplitude within 2% (MP2) or
 * 10% (MP3: lame makes this one 0.45 dB low) by RMS;
 * truncated and bit-flipped streams and garbage fail (or shorten) their own
 * request only: no worker dies, and a clean decode afterwards still
 * equals the first one sample for sample.
 *
 * mmx-jpegd is $MMX_JPEGD, else ../bin/mmx-jpegd relative to this program.
 */

#define _GNU_SOURCE

#include <dlfcn.h>
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <lame/lame.h>
#include <twolame.h>

#include "jpegd_path.h"
#include "sine_measure.h"
#include "unit.h"
#include "mmx_decode.h"

static char jpegd[PATH_MAX];

struct media {
	unsigned char *data;
	size_t len;
	long rate;
	int channels;
	double freq[2];	/* per channel */
};

static struct media mp2, mp3;	/* stereo 48 kHz MP2, mono 44.1 kHz MP3 */
static int16_t *ref_mp2;	/* the first clean decode of mp2 */
static uint32_t ref_frames;

#define AMP	10000.0
#define SECONDS	1

static int16_t *sine(long rate, int channels, const double *freq, long n)
{
	int16_t *s = malloc(n * channels * sizeof(*s));
	long i;
	int c;

	if (!s)
		return NULL;
	for (i = 0; i < n; i++)
		for (c = 0; c < channels; c++)
			s[i * channels + c] = (int16_t)lrint(
				AMP * sin(2 * M_PI * freq[c] * i / rate));
	return s;
}

/* Encode with libtwolame (MP2, dlopen()ed). */
static int make_mp2(struct media *m)
{
	twolame_options *(*init)(void);
	int (*set_rate)(twolame_options *, int);
	int (*set_ch)(twolame_options *, int);
	int (*set_bitrate)(twolame_options *, int);
	int (*init_params)(twolame_options *);
	int (*encode)(twolame_options *, const short[], int, unsigned char *,
		      int);
	int (*flush)(twolame_options *, unsigned char *, int);
	void (*fini)(twolame_options **);
	twolame_options *o;
	long n = m->rate * SECONDS;
	int16_t *pcm;
	void *h;
	int r;

	h = dlopen("libtwolame.so.0", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	*(void **)&init = dlsym(h, "twolame_init");
	*(void **)&set_rate = dlsym(h, "twolame_set_in_samplerate");
	*(void **)&set_ch = dlsym(h, "twolame_set_num_channels");
	*(void **)&set_bitrate = dlsym(h, "twolame_set_bitrate");
	*(void **)&init_params = dlsym(h, "twolame_init_params");
	*(void **)&encode = dlsym(h, "twolame_encode_buffer_interleaved");
	*(void **)&flush = dlsym(h, "twolame_encode_flush");
	*(void **)&fini = dlsym(h, "twolame_close");
	if (!init || !set_rate || !set_ch || !set_bitrate || !init_params ||
	    !encode || !flush || !fini)
		return -1;
	pcm = sine(m->rate, m->channels, m->freq, n);
	m->data = malloc(n * 4 + 65536);
	o = init();
	if (!pcm || !m->data || !o)
		return -1;
	set_rate(o, m->rate);
	set_ch(o, m->channels);
	set_bitrate(o, 256);
	if (init_params(o))
		return -1;
	r = encode(o, pcm, n, m->data, n * 4 + 65536);
	if (r < 0)
		return -1;
	m->len = r;
	r = flush(o, m->data + m->len, n * 4 + 65536 - m->len);
	if (r < 0)
		return -1;
	m->len += r;
	fini(&o);
	free(pcm);
	dlclose(h);
	return 0;
}

/* Encode with libmp3lame (MP3, dlopen()ed). */
static int make_mp3(struct media *m)
{
	lame_global_flags *(*init)(void);
	int (*set_rate)(lame_global_flags *, int);
	int (*set_ch)(lame_global_flags *, int);
	int (*set_brate)(lame_global_flags *, int);
	int (*set_mode)(lame_global_flags *, MPEG_mode);
	int (*init_params)(lame_global_flags *);
	int (*encode)(lame_global_flags *, const short int[],
		      const short int[], const int, unsigned char *,
		      const int);
	int (*flush)(lame_global_flags *, unsigned char *, int);
	int (*fini)(lame_global_flags *);
	lame_global_flags *g;
	long n = m->rate * SECONDS, cap = n * 2 + 65536;
	int16_t *pcm;
	void *h;
	int r;

	h = dlopen("libmp3lame.so.0", RTLD_NOW);
	if (!h) {
		fprintf(stderr, "%s\n", dlerror());
		return -1;
	}
	*(void **)&init = dlsym(h, "lame_init");
	*(void **)&set_rate = dlsym(h, "lame_set_in_samplerate");
	*(void **)&set_ch = dlsym(h, "lame_set_num_channels");
	*(void **)&set_brate = dlsym(h, "lame_set_brate");
	*(void **)&set_mode = dlsym(h, "lame_set_mode");
	*(void **)&init_params = dlsym(h, "lame_init_params");
	*(void **)&encode = dlsym(h, "lame_encode_buffer");
	*(void **)&flush = dlsym(h, "lame_encode_flush");
	*(void **)&fini = dlsym(h, "lame_close");
	if (!init || !set_rate || !set_ch || !set_brate || !set_mode ||
	    !init_params || !encode || !flush || !fini)
		return -1;
	pcm = sine(m->rate, 1, m->freq, n);
	m->data = malloc(cap);
	g = init();
	if (!pcm || !m->data || !g)
		return -1;
	set_rate(g, m->rate);
	set_ch(g, 1);
	set_mode(g, MONO);
	set_brate(g, 128);
	if (init_params(g) < 0)
		return -1;
	r = encode(g, pcm, pcm, n, m->data, cap);
	if (r < 0)
		return -1;
	m->len = r;
	r = flush(g, m->data + m->len, cap - m->len);
	if (r < 0)
		return -1;
	m->len += r;
	fini(g);
	free(pcm);
	dlclose(h);
	return 0;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static struct mmx_decode_pool *pool_new(unsigned int workers)
{
	struct mmx_decode_config cfg = { .workers = workers, .path = jpegd };
	struct mmx_decode_pool *p;
	struct mmx_error err;

	if (mmx_decode_pool_new(&cfg, &p, &err)) {
		fprintf(stderr, "mmx_decode_pool_new: %s\n", err.message);
		return NULL;
	}
	return p;
}

/* Collect @want results within 10 s. Returns how many. */
static int drain(struct mmx_decode_pool *p, struct mmx_decode_result *res,
		 unsigned int want)
{
	uint64_t deadline = now_ms() + 10000;
	unsigned int got = 0;

	while (got < want) {
		struct pollfd pfd = { mmx_decode_fd(p), POLLIN, 0 };
		int n = mmx_decode_collect(p, res + got, want - got);

		if (n < 0)
			return n;
		got += n;
		if (got == want || now_ms() >= deadline)
			break;
		poll(&pfd, 1, 100);
	}
	return got;
}

static int decode(struct mmx_decode_pool *p, const void *data, size_t len,
		  int16_t *dst, uint32_t max_frames, uint32_t channels,
		  struct mmx_decode_result *res)
{
	static uint64_t id = 1;
	int r;

	r = mmx_decode_submit_audio(p, ++id, data, len, dst, max_frames,
				    channels);
	if (r)
		return r;
	if (drain(p, res, 1) != 1)
		return -ETIME;
	return res->id == id ? res->status : -ESRCH;
}

/*
 * Frequency and amplitude (within @amp_tol) of each channel in the middle
 * 80%.
 */
static int check_sine(const int16_t *s, uint32_t frames, int channels,
		      long rate, const double *freq, double amp_tol)
{
	long from = frames / 10, to = frames - frames / 10;
	int c;

	for (c = 0; c < channels; c++) {
		double f = sine_frequency(s, channels, c, from, to, rate);
		double a = sine_amplitude(s, channels, c, from, to);

		printf("  channel %d: %.3f Hz (want %.0f), amplitude %.1f "
		       "(want %.0f)\n", c, f, freq[c], a, AMP);
		UNIT_CHECK(fabs(f / freq[c] - 1) < 0.01, "frequency %.3f", f);
		UNIT_CHECK(fabs(a / AMP - 1) < amp_tol, "amplitude %.1f", a);
	}
	return 0;
}

static int test_mp2_stereo(void)
{
	struct mmx_decode_pool *p = pool_new(1);
	struct mmx_decode_result res;
	uint32_t max = 2 * 48000;
	int r;

	UNIT_CHECK(p, "pool");
	ref_mp2 = calloc(max * 2, sizeof(int16_t));
	UNIT_CHECK(ref_mp2, "memory");
	r = decode(p, mp2.data, mp2.len, ref_mp2, max, 2, &res);
	UNIT_CHECK(r == 0, "decode: %d (signal %d)", r, res.signal);
	printf("  MP2 %zu bytes: %u frames, %u channels, %u Hz, flags %#x\n",
	       mp2.len, res.width, res.height, res.rate, res.flags);
	UNIT_CHECK(res.rate == 48000 && res.height == 2 && !res.flags,
		   "format");
	/* whole 1152-frame MPEG frames: the second and the encoder delay */
	UNIT_CHECK(res.width % 1152 == 0 && res.width >= 48000 &&
		   res.width <= 48000 + 3 * 1152, "frames %u", res.width);
	ref_frames = res.width;
	UNIT_CHECK(!check_sine(ref_mp2, res.width, 2, 48000, mp2.freq, 0.02),
		   "sine");
	mmx_decode_pool_free(p);
	return 0;
}

static int test_mp3_mono(void)
{
	struct mmx_decode_pool *p = pool_new(1);
	struct mmx_decode_result res;
	uint32_t max = 2 * 44100, i;
	int16_t *out = calloc(max * 2, sizeof(int16_t));
	int16_t *mono = calloc(max, sizeof(int16_t));
	int r;

	UNIT_CHECK(p && out && mono, "pool, memory");
	r = decode(p, mp3.data, mp3.len, mono, max, 1, &res);
	UNIT_CHECK(r == 0, "decode: %d (signal %d)", r, res.signal);
	printf("  MP3 %zu bytes: %u frames, %u channels, %u Hz\n", mp3.len,
	       res.width, res.height, res.rate);
	UNIT_CHECK(res.rate == 44100 && res.height == 1, "format");
	UNIT_CHECK(res.width >= 44100 && res.width <= 44100 + 4 * 1152,
		   "frames %u", res.width);
	/* lame encodes this mono sine 0.45 dB low (so does an in-process
	 * mpg123 decode): 10% */
	UNIT_CHECK(!check_sine(mono, res.width, 1, 44100, mp3.freq, 0.1),
		   "sine");
	/* asked for stereo: the mono channel twice */
	r = decode(p, mp3.data, mp3.len, out, max, 2, &res);
	UNIT_CHECK(r == 0 && res.height == 2, "stereo decode: %d", r);
	for (i = 0; i < res.width; i++)
		UNIT_CHECK(out[2 * i] == out[2 * i + 1] &&
			   out[2 * i] == mono[i], "frame %u", i);
	mmx_decode_pool_free(p);
	free(out);
	free(mono);
	return 0;
}

static int test_limits(void)
{
	struct mmx_decode_pool *p = pool_new(1);
	struct mmx_decode_result res;
	static unsigned char zeros[8192];
	int16_t *out = calloc(2 * 48000 * 2, sizeof(int16_t));
	int r;

	UNIT_CHECK(p && out, "pool, memory");
	UNIT_CHECK(mmx_decode_submit_audio(p, 1, mp2.data, mp2.len, out,
					   1000, 3) == -EINVAL, "3 channels");
	UNIT_CHECK(mmx_decode_submit_audio(p, 1, mp2.data, mp2.len, out, 0,
					   2) == -EINVAL, "no room");
	UNIT_CHECK(mmx_decode_submit_audio(p, 1, mp2.data, 0, out, 10, 2) ==
		   -EINVAL, "no data");
	UNIT_CHECK(mmx_decode_submit_audio(p, 1, mp2.data, mp2.len, out,
					   UINT32_MAX, 2) == -EINVAL,
		   "more room than the largest frame");
	/* room for a tenth: too big */
	r = decode(p, mp2.data, mp2.len, out, 4800, 2, &res);
	UNIT_CHECK(r == -E2BIG, "short room: %d", r);
	/* room for exactly all of it: fine */
	r = decode(p, mp2.data, mp2.len, out, ref_frames, 2, &res);
	UNIT_CHECK(r == 0 && res.width == ref_frames, "exact room: %d", r);
	r = decode(p, zeros, sizeof(zeros), out, 48000, 2, &res);
	UNIT_CHECK(r == -EBADMSG, "zeros: %d", r);
	r = decode(p, "ID3", 3, out, 48000, 2, &res);
	UNIT_CHECK(r == -EBADMSG, "3 bytes: %d", r);
	mmx_decode_pool_free(p);
	free(out);
	return 0;
}

/*
 * Truncated streams decode to a prefix of the whole (the cut frame is
 * dropped); bit-flipped streams and noise give 0, -EBADMSG or -E2BIG,
 * never a dead worker; afterwards the clean stream decodes as before.
 */
static int test_fuzz(void)
{
	struct mmx_decode_pool *p = pool_new(2);
	struct mmx_decode_stats st;
	struct mmx_decode_result res;
	uint32_t max = 3 * 48000;
	int16_t *out = calloc(max * 2, sizeof(int16_t));
	unsigned char *buf = malloc(mp2.len);
	uint64_t rng = 0x6d703266757a7aull;
	int i, k, r, counts[3] = { 0 };

	UNIT_CHECK(p && out && buf, "pool, memory");
	for (i = 1; i <= 8; i++) {
		size_t len = mp2.len * i / 9 + 17;

		r = decode(p, mp2.data, len, out, max, 2, &res);
		UNIT_CHECK(r == 0 || r == -EBADMSG, "cut at %zu: %d", len, r);
		if (r)
			continue;
		UNIT_CHECK(res.width < ref_frames, "cut: %u frames", res.width);
		UNIT_CHECK(!memcmp(out, ref_mp2, res.width * 4),
			   "cut at %zu: not a prefix", len);
	}
	for (i = 0; i < 60; i++) {
		memcpy(buf, mp2.data, mp2.len);
		for (k = 0; k < 1 + i % 20; k++) {
			unit_xorshift64(&rng);
			buf[rng % mp2.len] ^= 1 << (rng >> 40) % 8;
		}
		if (i >= 50)	/* noise */
			for (k = 0; k < (int)mp2.len; k++)
				buf[k] = rng >> (k % 56);
		r = decode(p, buf, mp2.len, out, max, 2, &res);
		UNIT_CHECK(r == 0 || r == -EBADMSG || r == -E2BIG,
			   "flip %d: %d (signal %d)", i, r, res.signal);
		counts[r == 0 ? 0 : r == -EBADMSG ? 1 : 2]++;
	}
	printf("  fuzzed: %d decoded, %d -EBADMSG, %d -E2BIG\n", counts[0],
	       counts[1], counts[2]);
	mmx_decode_get_stats(p, &st);
	UNIT_CHECK(st.crashes == 0, "%llu workers died",
		   (unsigned long long)st.crashes);
	memset(out, 0, max * 4);
	r = decode(p, mp2.data, mp2.len, out, max, 2, &res);
	UNIT_CHECK(r == 0 && res.width == ref_frames &&
		   !memcmp(out, ref_mp2, ref_frames * 4), "clean again: %d",
		   r);
	mmx_decode_pool_free(p);
	free(out);
	free(buf);
	return 0;
}

static const struct unit_case cases[] = {
	{ "mp2-stereo", "1 s of 1000/440 Hz MP2 (twolame, 48 kHz): 48 kHz stereo, frequencies within 1%, amplitude within 2%", test_mp2_stereo },
	{ "mp3-mono", "1 s of 440 Hz mono MP3 (lame, 44.1 kHz): as mono and as stereo (the channel doubled)", test_mp3_mono },
	{ "limits", "bad arguments, too little room (-E2BIG), exact room, zeros and a stub (-EBADMSG)", test_limits },
	{ "fuzz", "truncated streams decode to a prefix; bit flips and noise fail their own request; no worker dies; clean again after", test_fuzz },
};

int main(int argc, char **argv)
{
	int ret;

	if (jpegd_path(jpegd, sizeof(jpegd)))
		return 1;
	mp2.rate = 48000;
	mp2.channels = 2;
	mp2.freq[0] = 1000;
	mp2.freq[1] = 440;
	mp3.rate = 44100;
	mp3.channels = 1;
	mp3.freq[0] = 440;
	if (make_mp2(&mp2) || make_mp3(&mp3)) {
		fprintf(stderr, "cannot make the test media (libtwolame0, "
			"libmp3lame0)\n");
		return 1;
	}
	ret = UNIT_RUN(cases, argc, argv);
	free(mp2.data);
	free(mp3.data);
	free(ref_mp2);
	return ret;
}
