// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Which implementation of the compositor's inner loops runs: chosen once
 * from the CPU's features (in the kernel at module load, on the host at
 * the first mmx_simd_init()). Host tests and benchmarks may switch tables
 * between compositions to compare them.
 */

#include "mmx_simd.h"

#if defined(__KERNEL__) && defined(MMX_SIMD_X86)
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* The table mmx_transform_compose() uses. */
const struct mmx_simd_ops *mmx_simd = &mmx_simd_scalar;

static const struct mmx_simd_ops *const mmx_simd_all[] = {
	&mmx_simd_scalar,
#ifdef MMX_SIMD_X86
	&mmx_simd_sse2,
	&mmx_simd_avx2,
#endif
};

/**
 * mmx_simd_supported - whether this CPU runs an implementation
 * @ops: the implementation
 *
 * Return: true if @ops may be used.
 */
bool mmx_simd_supported(const struct mmx_simd_ops *ops)
{
	if (ops == &mmx_simd_scalar)
		return true;
#ifdef MMX_SIMD_X86
#ifdef __KERNEL__
	if (ops == &mmx_simd_sse2)
		return boot_cpu_has(X86_FEATURE_XMM2);
	if (ops == &mmx_simd_avx2)
		return boot_cpu_has(X86_FEATURE_AVX) &&
		       boot_cpu_has(X86_FEATURE_AVX2) &&
		       cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM,
					 NULL);
#else
	if (ops == &mmx_simd_sse2)
		return __builtin_cpu_supports("sse2");
	if (ops == &mmx_simd_avx2)
		return __builtin_cpu_supports("avx2");
#endif
#endif
	return false;
}

/**
 * mmx_simd_find - an implementation by name
 * @name: "scalar", "sse2" or "avx2"
 *
 * Return: the implementation, or NULL if there is none of that name or
 * this CPU cannot run it.
 */
const struct mmx_simd_ops *mmx_simd_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mmx_simd_all); i++)
		if (!strcmp(mmx_simd_all[i]->name, name) &&
		    mmx_simd_supported(mmx_simd_all[i]))
			return mmx_simd_all[i];
	return NULL;
}

/**
 * mmx_simd_init - choose the fastest implementation this CPU runs
 */
void mmx_simd_init(void)
{
	size_t i;

	for (i = ARRAY_SIZE(mmx_simd_all); i-- > 0;) {
		if (mmx_simd_supported(mmx_simd_all[i])) {
			mmx_simd = mmx_simd_all[i];
			return;
		}
	}
}
