/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The picture libmmx draws into a screen framebuffer it creates, for the
 * programs that check captures against it (tests, mmxdemo's map). Not
 * part of the public API: linked from libmmx.a, not exported by libmmx.so.
 */

#ifndef MMX_SCREEN_PATTERN_H
#define MMX_SCREEN_PATTERN_H

#include <stdint.h>

/*
 * mmx_screen_pattern - XRGB8888 of screen point (@x, @y) in a screen
 * framebuffer libmmx created (Documentation/libmmx.rst, "Screen
 * framebuffer and size"). Grown screens keep the old content; the new
 * area is black.
 */
uint32_t mmx_screen_pattern(uint32_t x, uint32_t y);

#endif /* MMX_SCREEN_PATTERN_H */
