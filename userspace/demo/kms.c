// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo's KMS helpers for what libmmx's public API does not offer (it
 * owns its screen framebuffer and planes): framebuffers the demo draws
 * itself and plane property lookups (a libmmx mode as a KMS mode is
 * libmmx's mmx_kms_mode_to_drm()).
 */
#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "demo.h"

int demo_fb_create(int fd, uint32_t w, uint32_t h, uint32_t format,
		   struct demo_fb *fb)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t offset;
	void *map;

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c) ||
	    drmModeMapDumbBuffer(fd, c.handle, &offset))
		return -errno;
	map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		   (off_t)offset);
	if (map == MAP_FAILED)
		return -errno;
	handles[0] = c.handle;
	pitches[0] = c.pitch;
	if (drmModeAddFB2(fd, w, h, format, handles, pitches, offsets,
			  &fb->fb_id, 0))
		return -errno;
	fb->map = map;
	fb->size = c.size;
	fb->pitch = c.pitch;
	fb->width = w;
	fb->height = h;
	return 0;
}

bool demo_prop(int fd, uint32_t obj, uint32_t type, const char *name,
	       uint32_t *id, uint64_t *value)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, obj,
								     type);
	bool found = false;

	for (uint32_t i = 0; props && i < props->count_props && !found; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, name)) {
			found = true;
			if (id)
				*id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found;
}
