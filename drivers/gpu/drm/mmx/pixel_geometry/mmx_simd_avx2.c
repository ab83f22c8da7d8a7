// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The compositor's inner loops with AVX2 (32-byte vectors). Built with
 * the flags that enable AVX2 (see the Makefile); in the kernel only called
 * between mmx_simd_begin() and mmx_simd_end().
 */

#define MMX_SIMD_BYTES	32
#define MMX_SIMD_NAME	"avx2"
#define MMX_SIMD_OPS	mmx_simd_avx2

#include "mmx_simd_impl.h"
