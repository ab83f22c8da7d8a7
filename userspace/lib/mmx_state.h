/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * struct mmx_state, the layout behind libmmx's opaque snapshot handle:
 * private to libmmx, mmxd and their tests. Clients read a snapshot with
 * the mmx_state_*() accessors of libmmx.h. Everything a snapshot holds
 * (its CRTCs and outputs, their arrays and strings) lives in its arena,
 * freed by mmx_state_free(); mmxd's GET_STATE carries it as records
 * (mmx_wire_encode_state()).
 */

#ifndef MMX_STATE_H
#define MMX_STATE_H

#include <stdint.h>

#include "libmmx.h"
#include "mmx_arena.h"

/**
 * struct mmx_state - a snapshot of the screen (RandR GetScreenResources,
 * GetScreenInfo and every output's and CRTC's info)
 * @flags: MMX_STATE_*
 * @pan_mode: enum mmx_pan_mode
 * @driver: KMS driver name (NULL reads as "")
 * @timestamp: time of the last configuration change, CLOCK_MONOTONIC ns
 * @config_timestamp: time of the last probe, CLOCK_MONOTONIC ns
 * @screen_width: size of the screen framebuffer (0 x 0 when libmmx owns
 *	none yet: then the bounding box of the lit CRTCs)
 * @screen_height: see @screen_width
 * @min_width: smallest screen (mode_config min)
 * @min_height: see @min_width
 * @max_width: largest screen (mode_config max)
 * @max_height: see @max_width
 * @primary: primary output's connector id, 0 for none
 * @pointer_x: last pointer position given to mmx_pointer_moved()
 * @pointer_y: see @pointer_x
 * @ncrtc: entries in @crtcs
 * @noutput: entries in @outputs
 * @crtcs: the CRTCs in KMS order
 * @outputs: the outputs in KMS order
 * @arena: owns @driver, @crtcs, @outputs and everything they point to
 */
struct mmx_state {
	uint32_t flags;
	uint32_t pan_mode;
	const char *driver;
	uint64_t timestamp;
	uint64_t config_timestamp;
	uint32_t screen_width;
	uint32_t screen_height;
	uint32_t min_width;
	uint32_t min_height;
	uint32_t max_width;
	uint32_t max_height;
	uint32_t primary;
	int32_t pointer_x;
	int32_t pointer_y;
	uint32_t ncrtc;
	uint32_t noutput;
	struct mmx_crtc_info *crtcs;
	struct mmx_output_info *outputs;
	struct mmx_arena arena;
};

/* Free what @s holds and zero it (it may be filled again). */
void mmx_state_clear(struct mmx_state *s);
/*
 * Allocate @s's @ncrtc CRTCs and @noutput outputs (zeroed; their arrays
 * are the caller's to allocate from @s->arena). -ENOMEM.
 */
int mmx_state_alloc(struct mmx_state *s, uint32_t ncrtc, uint32_t noutput);
/* @dst (zeroed) becomes a deep copy of @src. -ENOMEM (@dst then clear). */
int mmx_state_copy(struct mmx_state *dst, const struct mmx_state *src);

#endif /* MMX_STATE_H */
