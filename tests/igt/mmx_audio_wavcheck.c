// SPDX-License-Identifier: MIT
/*
 * mmx_audio_wavcheck WAV: the host half of mmx_audio_check. QEMU's wav
 * audiodev (48 kHz stereo S16, hda-duplex with mixer=off: no volume
 * stage) wrote what the guest's HDA device played; find the noise marker,
 * then require, at the stream distances mmx_audio_pattern.h fixes:
 *   - both markers sample-exact (so the schedule was frame-exact and the
 *     retracted play left no trace),
 *   - the sine sample-exact, its zero crossings giving 1000 Hz / 440 Hz
 *     within 1% and its amplitude within 2%,
 *   - silence in the gaps.
 * OVERRUNS, when given, is how many times QEMU's HDA codec found its
 * buffer full and dropped it (its hda_audio_overrun trace event: the
 * host starved QEMU's audio timer). The WAV then lacks what the guest
 * played, so a check it fails is a skip, not a failure.
 * Prints IGT-style subtest lines; exit status 0 when none failed.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

#include "mmx_audio_pattern.h"
#include "sine_measure.h"

static int passed, failed, skipped;
static long overruns;

static void result(const char *name, int ok, const char *why)
{
	if (ok) {
		printf("Subtest %s: SUCCESS\n", name);
		passed++;
	} else if (overruns) {
		printf("Subtest %s: SKIP %s: QEMU dropped %ld buffers "
		       "(hda_audio_overrun)\n", name, why, overruns);
		skipped++;
	} else {
		printf("Subtest %s: FAIL %s\n", name, why);
		failed++;
	}
}

static int summary(void)
{
	printf("%d passed, %d failed, %d skipped\n", passed, failed,
	       skipped);
	return failed ? 1 : 0;
}

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint16_t le16(const unsigned char *p)
{
	return p[0] | p[1] << 8;
}

int main(int argc, char **argv)
{
	static int16_t mark[AP_MARK_FRAMES * AP_CHANNELS];
	unsigned char hdr[12], ch[8];
	long frames = 0, a = -1, i, k, bad;
	int16_t *s = NULL;
	char why[256];
	FILE *f;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: %s WAV [OVERRUNS]\n", argv[0]);
		return 2;
	}
	if (argc == 3)
		overruns = strtol(argv[2], NULL, 10);
	f = fopen(argv[1], "rb");
	if (!f || fread(hdr, 1, 12, f) != 12 || memcmp(hdr, "RIFF", 4) ||
	    memcmp(hdr + 8, "WAVE", 4)) {
		fprintf(stderr, "%s: not a WAV file\n", argv[1]);
		return 2;
	}
	/* fmt, then data (whose size QEMU only writes at exit: the file's
	 * end counts) */
	while (fread(ch, 1, 8, f) == 8) {
		uint32_t len = le32(ch + 4);

		if (!memcmp(ch, "fmt ", 4)) {
			unsigned char fmt[16];

			if (len < 16 || fread(fmt, 1, 16, f) != 16)
				break;
			if (le16(fmt) != 1 || le16(fmt + 2) != AP_CHANNELS ||
			    le32(fmt + 4) != AP_RATE || le16(fmt + 14) != 16) {
				fprintf(stderr, "%s: want PCM %d ch %d Hz 16 "
					"bit, got format %u, %u ch, %u Hz, %u "
					"bit\n", argv[1], AP_CHANNELS,
					AP_RATE, le16(fmt), le16(fmt + 2),
					le32(fmt + 4), le16(fmt + 14));
				return 2;
			}
			fseek(f, len - 16, SEEK_CUR);
		} else if (!memcmp(ch, "data", 4)) {
			long start = ftell(f), end;

			fseek(f, 0, SEEK_END);
			end = ftell(f);
			fseek(f, start, SEEK_SET);
			frames = (end - start) / 4;
			s = malloc(frames * 4 + 4);
			if (!s || fread(s, 4, frames, f) != (size_t)frames) {
				fprintf(stderr, "%s: short read\n", argv[1]);
				return 2;
			}
			break;
		} else {
			fseek(f, len + (len & 1), SEEK_CUR);
		}
	}
	fclose(f);
	if (!s) {
		fprintf(stderr, "%s: no data chunk\n", argv[1]);
		return 2;
	}
	printf("%s: %ld frames (%.2f s)\n", argv[1], frames,
	       (double)frames / AP_RATE);

	/* the first marker: its first 16 samples, then all of it */
	ap_marker(mark);
	for (i = 0; i + AP_MARK_FRAMES <= frames && a < 0; i++)
		if (!memcmp(s + i * 2, mark, 32) &&
		    !memcmp(s + i * 2, mark, sizeof(mark)))
			a = i;
	if (a < 0) {
		long nz = -1;
		int peak = 0;

		for (i = 0; i < frames * 2; i++) {
			if (s[i] && nz < 0)
				nz = i / 2;
			if (abs(s[i]) > peak)
				peak = abs(s[i]);
		}
		snprintf(why, sizeof(why), "(no exact marker; first sound at "
			 "frame %ld, peak %d)", nz, peak);
		result("wav-marker", 0, why);
		free(s);
		return summary();
	}
	printf("marker A at frame %ld (%.3f s)\n", a, (double)a / AP_RATE);
	result("wav-marker", 1, "");

	{
		long b = a + AP_POS_MARK_B - AP_POS_MARK_A;
		long sn = a + AP_POS_SINE - AP_POS_MARK_A;
		int ok = b + AP_MARK_FRAMES <= frames &&
			 !memcmp(s + b * 2, mark, sizeof(mark));
		double fl, fr, al, ar;
		int maxd = 0;

		snprintf(why, sizeof(why), "(marker B not at frame %ld)", b);
		result("wav-schedule-exact", ok, why);
		if (!ok) {
			free(s);
			return summary();
		}

		for (bad = 0, k = 0; k < AP_SINE_FRAMES; k++) {
			for (int c = 0; c < 2; c++) {
				int d = abs(s[(sn + k) * 2 + c] -
					    ap_sine(k, c));

				bad += d != 0;
				if (d > maxd)
					maxd = d;
			}
		}
		printf("sine: %ld of %d samples differ (max by %d)\n", bad,
		       2 * AP_SINE_FRAMES, maxd);
		snprintf(why, sizeof(why), "(%ld samples differ)", bad);
		result("wav-sine-exact", bad == 0, why);

		fl = sine_frequency(s, AP_CHANNELS, 0, sn,
				    sn + AP_SINE_FRAMES, AP_RATE);
		fr = sine_frequency(s, AP_CHANNELS, 1, sn,
				    sn + AP_SINE_FRAMES, AP_RATE);
		al = sine_amplitude(s, AP_CHANNELS, 0, sn,
				    sn + AP_SINE_FRAMES);
		ar = sine_amplitude(s, AP_CHANNELS, 1, sn,
				    sn + AP_SINE_FRAMES);
		printf("sine: left %.3f Hz amplitude %.1f, right %.3f Hz "
		       "amplitude %.1f (want %.0f / %.0f Hz, %.0f)\n",
		       fl, al, fr, ar, AP_FREQ_L, AP_FREQ_R, AP_AMP);
		snprintf(why, sizeof(why), "(%.3f / %.3f Hz, %.1f / %.1f)",
			 fl, fr, al, ar);
		result("wav-sine-frequency",
		       fabs(fl / AP_FREQ_L - 1) < 0.01 &&
		       fabs(fr / AP_FREQ_R - 1) < 0.01 &&
		       fabs(al / AP_AMP - 1) < 0.02 &&
		       fabs(ar / AP_AMP - 1) < 0.02, why);

		/* the gaps between the plays, and around them */
		for (bad = 0, k = a + AP_MARK_FRAMES; k < sn; k++)
			bad += s[k * 2] || s[k * 2 + 1];
		for (k = sn + AP_SINE_FRAMES; k < b; k++)
			bad += s[k * 2] || s[k * 2 + 1];
		for (k = b + AP_MARK_FRAMES;
		     k < frames && k < b + AP_MARK_FRAMES + AP_RATE / 20; k++)
			bad += s[k * 2] || s[k * 2 + 1];
		for (k = a - AP_POS_MARK_A > 0 ? a - AP_POS_MARK_A : 0; k < a;
		     k++)
			bad += s[k * 2] || s[k * 2 + 1];
		snprintf(why, sizeof(why), "(%ld frames not silent)", bad);
		result("wav-silence", bad == 0, why);
	}
	free(s);
	return summary();
}
