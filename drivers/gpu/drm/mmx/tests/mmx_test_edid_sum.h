/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The tests' own EDID block checksum, independent of mmx_edid.c's: used by
 * mmx_kunit.c and by the host test tests/unit/test_edid.c (after
 * mmx_pure.h, which gives the host u8 and bool).
 */
#ifndef MMX_TEST_EDID_SUM_H
#define MMX_TEST_EDID_SUM_H

/* Whether the 128 bytes of a block sum to 0 (mod 256). */
static inline bool mmx_test_edid_sum_ok(const u8 *block)
{
	u8 sum = 0;
	int i;

	for (i = 0; i < 128; i++)
		sum += block[i];
	return sum == 0;
}

/* Set the last byte of a block so that the block sums to 0. */
static inline void mmx_test_edid_fix_sum(u8 *block)
{
	u8 sum = 0;
	int i;

	for (i = 0; i < 127; i++)
		sum += block[i];
	block[127] = -sum;
}

#endif
