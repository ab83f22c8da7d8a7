/* SPDX-License-Identifier: MIT */
/*
 * What mmx_audio_check plays in the guest and mmx_audio_wavcheck looks
 * for in the WAV file QEMU's wav audiodev wrote on the host: a noise
 * marker, a two-tone sine, the marker again, each at a fixed stream
 * position, at 48 kHz, stereo S16.
 */

#ifndef MMX_AUDIO_PATTERN_H
#define MMX_AUDIO_PATTERN_H

#include <math.h>
#include <stdint.h>

#define AP_RATE		48000
#define AP_CHANNELS	2
/* the marker: pseudo-random noise, this many frames */
#define AP_MARK_FRAMES	4800
/* the sine: left AP_FREQ_L Hz, right AP_FREQ_R Hz, amplitude AP_AMP */
#define AP_SINE_FRAMES	(5 * AP_RATE)
#define AP_FREQ_L	1000.0
#define AP_FREQ_R	440.0
#define AP_AMP		12000.0
/* stream positions (frames since the stream started) */
#define AP_POS_MARK_A	9600
#define AP_POS_SINE	(AP_POS_MARK_A + AP_MARK_FRAMES + 2400)
#define AP_POS_MARK_B	(AP_POS_SINE + AP_SINE_FRAMES + 2400)
#define AP_POS_END	(AP_POS_MARK_B + AP_MARK_FRAMES)

/* Fill @out (AP_MARK_FRAMES frames) with the marker: xorshift32 noise. */
static inline void ap_marker(int16_t *out)
{
	uint32_t x = 0x6d6d7821;	/* "!xmm" */
	int i;

	for (i = 0; i < AP_MARK_FRAMES * AP_CHANNELS; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
		out[i] = (int16_t)(x >> 16) / 2;
	}
}

/* Sample @i of the sine, channel @c (0 left). */
static inline int16_t ap_sine(long i, int c)
{
	double f = c ? AP_FREQ_R : AP_FREQ_L;

	return (int16_t)lrint(AP_AMP * sin(2 * M_PI * f * i / AP_RATE));
}

#endif /* MMX_AUDIO_PATTERN_H */
