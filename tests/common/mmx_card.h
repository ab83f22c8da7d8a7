/* SPDX-License-Identifier: MIT */
/*
 * mmx_card.h - find the mmx device among /dev/dri/card0..15 (libdrm's
 * drmGetVersion), for the guest programs that open it by driver name
 * (tests/fuzz/mmx_fuzz.c, tests/fuzz/mmx_hold.c).
 */
#ifndef MMX_TEST_CARD_H
#define MMX_TEST_CARD_H

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>

/* The first card driven by mmx: its fd (its number in *@minor), or -1. */
static inline int mmx_card_open(int *minor)
{
	char p[64];
	int i;

	for (i = 0; i < 16; i++) {
		drmVersionPtr v;
		int f;

		snprintf(p, sizeof(p), "/dev/dri/card%d", i);
		f = open(p, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		v = drmGetVersion(f);
		if (v && !strcmp(v->name, "mmx")) {
			drmFreeVersion(v);
			if (minor)
				*minor = i;
			return f;
		}
		drmFreeVersion(v);
		close(f);
	}
	return -1;
}

#endif /* MMX_TEST_CARD_H */
