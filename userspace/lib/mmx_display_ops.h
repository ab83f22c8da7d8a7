/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The display operations table: what libmmx's local backend (KMS,
 * mmx_kms*.c) and remote backend (mmxd, mmx_client.c) both implement, and
 * what mmxd's request handlers serve (mmxd/display.c, a fake in the host
 * tests).
 */

#ifndef MMX_DISPLAY_OPS_H
#define MMX_DISPLAY_OPS_H

#include <stdint.h>

#include "libmmx.h"
#include "mmx_config.h"
#include "mmx_state.h"

/**
 * struct mmx_display_ops - one display, local or remote
 * @state: fill @s (probing the outputs when @probe): RandR's
 *	GetScreenResources (1) or GetScreenResourcesCurrent (0)
 * @apply: apply @cfg, already checked for its bounds (mmx_apply())
 * @pointer_moved: the pointer is at @x,@y (mmx_pointer_moved())
 * @capture: capture CRTC @crtc (mmx_capture()); the pixels are malloc'ed,
 *	the caller frees them
 * @kms_fd: the KMS device, or -1 (mmx_fd()); NULL in mmxd's tables
 * @close: free @ctx (mmx_close()); NULL in mmxd's tables
 *
 * Every function takes the backend's own context; all return 0 or -errno.
 */
struct mmx_display_ops {
	int (*state)(void *ctx, int probe, struct mmx_state *s);
	int (*apply)(void *ctx, const struct mmx_config *cfg,
		     struct mmx_error *err);
	int (*pointer_moved)(void *ctx, int32_t x, int32_t y);
	int (*capture)(void *ctx, uint32_t crtc, uint32_t *width,
		       uint32_t *height, uint32_t **pixels);
	int (*kms_fd)(const void *ctx);
	void (*close)(void *ctx);
};

#endif /* MMX_DISPLAY_OPS_H */
