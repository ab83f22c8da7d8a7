/* SPDX-License-Identifier: MIT */
/*
 * RandR 1.3's signal attributes (the SignalProperties values of its
 * specification), in its order: the tests' independent copy, which the
 * driver's names and mmx's SignalProperties enum (attribute p is bit p) are
 * checked against.
 */
#ifndef MMX_TESTS_RANDR_SIGNAL_H
#define MMX_TESTS_RANDR_SIGNAL_H

static const char *const randr_signal_attrs[] = {
	"NTSC", "NTSC-M", "NTSC-J", "NTSC-N", "NTSC-4.43", "NTSC-film",
	"PAL", "PAL-B", "PAL-G", "PAL-H", "PAL-I", "PAL-M", "PAL-D", "PAL-N",
	"PAL-Nc", "PAL-L", "PAL-60",
	"SECAM", "SECAM-L", "SECAM-B", "SECAM-G", "SECAM-D", "SECAM-K",
	"SECAM-H",
	"SingleLink", "DualLink",
	"Lane1", "Lane2", "Lane4", "LowSpeed", "HiSpeed",
};

/*
 * Where each signal's attributes start in randr_signal_attrs: the TV
 * standards (NTSC ... SECAM-H), TMDS links, DisplayPort lanes and rates.
 */
enum randr_signal_group {
	RANDR_SIGNAL_TV = 0,
	RANDR_SIGNAL_TMDS = 24,
	RANDR_SIGNAL_DP = 26,
	RANDR_SIGNAL_END = 31,
};

#endif
