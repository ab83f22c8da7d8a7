// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The screen framebuffer of a local display: one XRGB8888 dumb buffer that
 * every lit CRTC scans out at its position (the X screen pixmap), drawn
 * with mmx_screen_pattern() when created, and replaced by a buffer of the
 * new size and pitch holding the old content when the screen is resized
 * (RandR SetScreenSize).
 */

#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include <drm_fourcc.h>

#include "mmx_kms.h"

/*
 * mmx_screen_pattern - see mmx_screen_pattern.h. The design, so that
 * captures show where each screen pixel came from:
 *  - red = x mod 256, green = y mod 256, blue = the 256-pixel tile
 *    (x / 256 in the high nibble, y / 256 in the low one): every pixel of a
 *    4096 x 4096 screen has its own colour, and the gradients show the
 *    direction of every axis;
 *  - a 32-pixel grid: pixels with x or y a multiple of 32 are inverted;
 *  - a mark in every 128-pixel tile: an 8 x 4 white bar at (4, 4) of the
 *    tile, near its top-left corner, so that rotations and reflections
 *    show by eye as well.
 * Never black: black in a capture means "no screen content there".
 */
uint32_t mmx_screen_pattern(uint32_t x, uint32_t y)
{
	uint32_t c = (x & 0xff) << 16 | (y & 0xff) << 8 |
		     ((x >> 8) & 0xf) << 4 | ((y >> 8) & 0xf);
	uint32_t tx = x % 128, ty = y % 128;

	if (x % 32 == 0 || y % 32 == 0)
		c ^= 0xffffff;
	else if (tx >= 4 && tx < 12 && ty >= 4 && ty < 8)
		c = 0xffffff;
	return c;
}

/**
 * mmx_dumb_create - a mapped XRGB8888 dumb buffer with a framebuffer
 * @fd: the device
 * @width: size in pixels
 * @height: see @width
 * @out: filled on success (contents zero: black)
 *
 * Return: 0 or -errno, nothing allocated on failure.
 */
int mmx_dumb_create(int fd, uint32_t width, uint32_t height,
		    struct mmx_screen *out)
{
	struct drm_mode_create_dumb create = {
		.width = width, .height = height, .bpp = 32,
	};
	struct drm_mode_destroy_dumb destroy = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t offset;
	void *map;
	int ret;

	memset(out, 0, sizeof(*out));
	if (!width || !height)
		return -EINVAL;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	destroy.handle = create.handle;
	ret = drmModeMapDumbBuffer(fd, create.handle, &offset);
	if (ret) {
		ret = mmx_kms_errno(ret);
		goto err_destroy;
	}
	map = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)offset);
	if (map == MAP_FAILED) {
		ret = -errno;
		goto err_destroy;
	}
	handles[0] = create.handle;
	pitches[0] = create.pitch;
	ret = drmModeAddFB2(fd, width, height, DRM_FORMAT_XRGB8888, handles,
			    pitches, offsets, &out->fb_id, 0);
	if (ret) {
		ret = mmx_kms_errno(ret);
		goto err_unmap;
	}
	out->handle = create.handle;
	out->width = width;
	out->height = height;
	out->pitch = create.pitch;
	out->size = create.size;
	out->map = map;
	return 0;

err_unmap:
	munmap(map, create.size);
err_destroy:
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(out, 0, sizeof(*out));
	return ret;
}

/**
 * mmx_screen_destroy - free a screen (or capture) framebuffer
 * @fd: the device
 * @s: the buffer; zeroed (nothing done when it has no framebuffer)
 *
 * Removing a framebuffer that a plane still shows turns that plane off
 * (DRM_IOCTL_MODE_RMFB): callers switch the CRTCs to the new buffer first.
 */
void mmx_screen_destroy(int fd, struct mmx_screen *s)
{
	struct drm_mode_destroy_dumb destroy = { .handle = s->handle };

	if (!s->fb_id)
		return;
	drmModeRmFB(fd, s->fb_id);
	munmap(s->map, s->size);
	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(s, 0, sizeof(*s));
}

/**
 * mmx_screen_create - a screen framebuffer
 * @fd: the device
 * @width: its size
 * @height: see @width
 * @old: the current screen (NULL or without a framebuffer: none)
 * @out: the new screen
 *
 * Without @old the buffer is drawn with mmx_screen_pattern(); with @old it
 * holds @old's content where the two overlap (same screen coordinates) and
 * is black elsewhere. @old is not touched.
 *
 * Return: 0 or -errno.
 */
int mmx_screen_create(int fd, uint32_t width, uint32_t height,
		      const struct mmx_screen *old, struct mmx_screen *out)
{
	uint32_t x, y, cw, ch;
	int ret;

	ret = mmx_dumb_create(fd, width, height, out);
	if (ret)
		return ret;
	if (old && old->fb_id) {
		cw = old->width < width ? old->width : width;
		ch = old->height < height ? old->height : height;
		for (y = 0; y < height; y++) {
			uint8_t *row = out->map + (size_t)y * out->pitch;

			if (y < ch) {
				memcpy(row, old->map + (size_t)y * old->pitch,
				       (size_t)cw * 4);
				memset(row + (size_t)cw * 4, 0,
				       (size_t)(width - cw) * 4);
			} else {
				memset(row, 0, (size_t)width * 4);
			}
		}
		return 0;
	}
	for (y = 0; y < height; y++) {
		uint32_t *row = (uint32_t *)(out->map + (size_t)y * out->pitch);

		for (x = 0; x < width; x++)
			row[x] = mmx_screen_pattern(x, y);
	}
	return 0;
}
