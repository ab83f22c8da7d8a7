/* SPDX-License-Identifier: GPL-2.0-only */
/* Pixel-read cases (format, bytes, ARGB8888); mmx_kunit.c and test_blend.c include it. */
	{ "xrgb-ignores-x", MMX_FORMAT_XRGB8888, { 0x33, 0x22, 0x11, 0x00 }, 0xff112233 },
	{ "argb-keeps-alpha", MMX_FORMAT_ARGB8888, { 0x33, 0x22, 0x11, 0x80 }, 0x80112233 },
	{ "xbgr-swaps", MMX_FORMAT_XBGR8888, { 0x33, 0x22, 0x11, 0x7f }, 0xff332211 },
	{ "abgr-swaps", MMX_FORMAT_ABGR8888, { 0x33, 0x22, 0x11, 0x40 }, 0x40332211 },
	{ "rgb565-white", MMX_FORMAT_RGB565, { 0xff, 0xff }, 0xffffffff },
	{ "rgb565-red", MMX_FORMAT_RGB565, { 0x00, 0xf8 }, 0xffff0000 },
	{ "rgb565-green-lsb", MMX_FORMAT_RGB565, { 0x20, 0x00 }, 0xff000400 },
	{ "rgb565-blue-10000", MMX_FORMAT_RGB565, { 0x10, 0x00 }, 0xff000084 },
	{ "rgb888-bytes", MMX_FORMAT_RGB888, { 0x33, 0x22, 0x11 }, 0xff112233 },
	{ "xrgb2101010-max", MMX_FORMAT_XRGB2101010, { 0xff, 0xff, 0xff, 0x3f }, 0xffffffff },
	{ "xrgb2101010-red-top8", MMX_FORMAT_XRGB2101010, { 0x00, 0x00, 0x00, 0x3f }, 0xfffc0000 },
