/* SPDX-License-Identifier: GPL-2.0-only OR MIT */
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
/* Host builds: the uAPI types of the kernel headers (linux-libc-dev). */
#include <linux/types.h>
#include <stdbool.h>
#include <stddef.h>
#include <string.h>

typedef __u8 u8;
typedef __u16 u16;
typedef __u32 u32;
typedef __u64 u64;
typedef __s16 s16;
typedef __s32 s32;
typedef __s64 s64;

#ifndef likely
#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#endif
#endif

#endif /* _MMX_PURE_H_ */
