/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * A libmmx mode as a KMS mode, for the local backend and for mmxdemo (which
 * sets its own planes' CRTC modes). Not part of the public API: linked
 * from libmmx.a, not exported by libmmx.so.
 */

#ifndef MMX_KMS_MODE_H
#define MMX_KMS_MODE_H

#include <xf86drmMode.h>

#include "libmmx.h"

/*
 * mmx_kms_mode_to_drm - @m's timings in @d; type USERDEF when @m has none,
 * name "WxH" when it has none, vrefresh in Hz as the kernel rounds it
 * (drm_mode_vrefresh()).
 */
void mmx_kms_mode_to_drm(drmModeModeInfo *d, const struct mmx_mode *m);

#endif /* MMX_KMS_MODE_H */
