// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * --capture-check's reader of the test picture: the frame number in the
 * band of black and white cells at the top of the picture the tests' media
 * shows (mmxplay.h describes the band).
 */

#include <errno.h>
#include <stdbool.h>

#include "mmxplay.h"

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
		else if (on != mmxplay_marker_bit(i))
			return -ENOENT;
	}
	*frame = value;
	return 0;
}
