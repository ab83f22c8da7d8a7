// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo's KMS helpers for what libmmx's public API does not offer (it
 * owns its screen framebuffer and planes): framebuffers the demo draws
 * itself, plane property lookups, a libmmx mode as a KMS mode.
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

void demo_mode_to_drm(const struct mmx_mode *m, drmModeModeInfo *d)
{
	uint64_t num = (uint64_t)m->clock * 1000, den;

	memset(d, 0, sizeof(*d));
	d->clock = m->clock;
	d->hdisplay = (uint16_t)m->width;
	d->hsync_start = m->hsync_start;
	d->hsync_end = m->hsync_end;
	d->htotal = m->htotal;
	d->hskew = m->hskew;
	d->vdisplay = (uint16_t)m->height;
	d->vsync_start = m->vsync_start;
	d->vsync_end = m->vsync_end;
	d->vtotal = m->vtotal;
	d->vscan = m->vscan;
	d->flags = m->flags;
	d->type = m->type;
	/* the vertical refresh in Hz as the kernel rounds it */
	den = (uint64_t)m->htotal * m->vtotal;
	if (m->flags & DRM_MODE_FLAG_INTERLACE)
		num *= 2;
	if (m->flags & DRM_MODE_FLAG_DBLSCAN)
		den *= 2;
	if (m->vscan > 1)
		den *= m->vscan;
	d->vrefresh = den ? (uint32_t)((num + den / 2) / den) : 0;
	memcpy(d->name, m->name, sizeof(d->name) - 1);
}
