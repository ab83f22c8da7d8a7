/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The AVI (RIFF) layout as Microsoft's "AVI RIFF File Reference" gives it:
 * FOURCCs, header flags and the sizes of the fixed headers. Shared by
 * mmxplay's reader (avi.c) and the tests' writer (tests/common/avi_writer.c).
 */

#ifndef MMXPLAY_AVI_RIFF_H
#define MMXPLAY_AVI_RIFF_H

#include <stdint.h>

#define FCC(a, b, c, d) ((uint32_t)(a) | (uint32_t)(b) << 8 | \
			 (uint32_t)(c) << 16 | (uint32_t)(d) << 24)

#define ID_RIFF		FCC('R', 'I', 'F', 'F')
#define ID_AVI		FCC('A', 'V', 'I', ' ')
#define ID_LIST		FCC('L', 'I', 'S', 'T')
#define ID_HDRL		FCC('h', 'd', 'r', 'l')
#define ID_AVIH		FCC('a', 'v', 'i', 'h')
#define ID_STRL		FCC('s', 't', 'r', 'l')
#define ID_STRH		FCC('s', 't', 'r', 'h')
#define ID_STRF		FCC('s', 't', 'r', 'f')
#define ID_MOVI		FCC('m', 'o', 'v', 'i')
#define ID_REC		FCC('r', 'e', 'c', ' ')
#define ID_IDX1		FCC('i', 'd', 'x', '1')
#define ID_VIDS		FCC('v', 'i', 'd', 's')
#define ID_AUDS		FCC('a', 'u', 'd', 's')
#define ID_MJPG		FCC('M', 'J', 'P', 'G')

#define AVIF_HASINDEX		0x10
#define AVIF_ISINTERLEAVED	0x100
#define AVIIF_KEYFRAME		0x10

#define AVIH_SIZE		56
#define STRH_SIZE		56
#define STRH_MIN		48
#define BIH_SIZE		40
#define WFX_MIN			16

#endif /* MMXPLAY_AVI_RIFF_H */
