/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sine_measure.h - frequency and amplitude of a sine in interleaved S16
 * samples, for the tests that check played or decoded tones
 * (tests/igt/mmx_audio_wavcheck.c, tests/unit/test_lib_audio_decode.c).
 */
#ifndef MMX_TEST_SINE_MEASURE_H
#define MMX_TEST_SINE_MEASURE_H

#include <math.h>
#include <stdint.h>

/*
 * The frequency of channel @c (of @channels) over frames [@from, @to) at
 * @rate frames a second, from its rising zero crossings (interpolated);
 * 0 with fewer than two.
 */
static inline double sine_frequency(const int16_t *s, int channels, int c,
				    long from, long to, long rate)
{
	double first = -1, last = -1;
	long i, n = 0;

	for (i = from + 1; i < to; i++) {
		int a = s[(i - 1) * channels + c], b = s[i * channels + c];

		if (a < 0 && b >= 0) {
			double t = i - 1 + (double)-a / (b - a);

			if (first < 0)
				first = t;
			last = t;
			n++;
		}
	}
	return n > 1 ? (n - 1) * rate / (last - first) : 0;
}

/* The amplitude of channel @c over frames [@from, @to), from its RMS. */
static inline double sine_amplitude(const int16_t *s, int channels, int c,
				    long from, long to)
{
	double sum = 0;
	long i;

	for (i = from; i < to; i++)
		sum += (double)s[i * channels + c] * s[i * channels + c];
	return sqrt(sum / (to - from)) * sqrt(2);
}

#endif /* MMX_TEST_SINE_MEASURE_H */
