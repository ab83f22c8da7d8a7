// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The compositor's inner loops with SSE2 (16-byte vectors). Built with
 * the flags that enable SSE2 (see the Makefile); in the kernel only called
 * between mmx_simd_begin() and mmx_simd_end().
 */

#define MMX_SIMD_BYTES	16
#define MMX_SIMD_NAME	"sse2"
#define MMX_SIMD_OPS	mmx_simd_sse2

#include "mmx_simd_impl.h"
