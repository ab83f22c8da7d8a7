// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmx_transform.c built once more into mmx_kunit.ko: the KUnit suites test the
 * same source, compiled with the same kernel flags, without reaching into
 * mmx_core.ko (whose symbols are not exported).
 */
#include "../pixel_geometry/mmx_transform.c"
