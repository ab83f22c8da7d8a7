# SPDX-License-Identifier: GPL-2.0-only
# The compiler flags of the compositor's SIMD objects, shared by the
# driver's Makefile (kbuild) and the host builds (tests/unit, bench): the
# kernel builds everything with -mno-sse -mno-sse2 -mno-avx, these objects
# turn their instruction set back on (per-object flags come after the
# global ones). Integer vector code only: no -mhard-float needed. x86-64.

MMX_SIMD_CFLAGS_mmx_simd_sse2 := -msse -msse2
MMX_SIMD_CFLAGS_mmx_simd_avx2 := -msse -msse2 -mavx -mavx2
MMX_SIMD_X86_OBJS := mmx_simd_sse2.o mmx_simd_avx2.o
