/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * struct mmx_config, the layout behind libmmx's opaque configuration
 * handle: private to libmmx, mmxd and their tests. Clients allocate a
 * config with mmx_config_new(), fill it with the mmx_config_*() setters
 * and mmx_config_output() of libmmx.h. Its changes, their properties and
 * strings live in its arena; mmxd's APPLY carries it as records
 * (mmx_wire_encode_config()).
 */

#ifndef MMX_CONFIG_H
#define MMX_CONFIG_H

#include <stdint.h>

#include "libmmx.h"
#include "mmx_arena.h"

/**
 * struct mmx_config - a configuration request (RandR SetScreenSize,
 * SetCrtcConfig, SetCrtcTransform, SetPanning, SetOutputPrimary,
 * ChangeOutputProperty for many outputs, applied in one atomic commit)
 * @flags: MMX_CONFIG_*
 * @screen_width: new screen size (MMX_CONFIG_SCREEN_SIZE); without it the
 *	screen grows, or shrinks, to the bounding box of the lit CRTCs and
 *	their panning areas, as xrandr does
 * @screen_height: see @screen_width
 * @primary: primary output (MMX_CONFIG_PRIMARY)
 * @pan_mode: enum mmx_pan_mode (MMX_CONFIG_PAN_MODE)
 * @nchange: entries used in @changes
 * @room: entries @changes has room for
 * @changes: per-output changes (each its own allocation, so that the
 *	address mmx_config_output() gave stays valid); outputs not listed
 *	keep their state
 * @arena: owns @changes, the changes and their properties' arrays and
 *	strings
 */
struct mmx_config {
	uint32_t flags;
	uint32_t screen_width;
	uint32_t screen_height;
	uint32_t primary;
	uint32_t pan_mode;
	uint32_t nchange;
	uint32_t room;
	struct mmx_output_change **changes;
	struct mmx_arena arena;
};

/* Free what @cfg holds and zero it (it may be filled again). */
void mmx_config_clear(struct mmx_config *cfg);

#endif /* MMX_CONFIG_H */
