/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Types for the pure-logic files of mmx (compositor, fixed point, ...):
 * these files include no DRM header and compile both in the kernel and in
 * the host unit tests and benchmarks.
 */

#ifndef _MMX_PURE_H_
#define _MMX_PURE_H_

#ifdef __KERNEL__
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/types.h>
#else
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int32_t s32;
typedef int64_t s64;
#endif

#endif /* _MMX_PURE_H_ */
