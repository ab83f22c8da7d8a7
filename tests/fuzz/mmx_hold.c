// SPDX-License-Identifier: MIT
/*
 * mmx_hold - the client of the soak (tests/vm/soak): light the first
 * connected output of the mmx device with a dumb framebuffer it paints
 * through a mapping, optionally capture a few CRCs (so the composer
 * allocates its buffers and keeps them while CRCs are on), print
 * "holding", then keep the fd, the mapping and the CRCs until it is killed.
 *
 * Usage: mmx_hold [--crc N] [--shrink] [--no-wait]
 *   --crc N     read N CRC entries of the lit CRTC; the CRCs go on
 *               (the data file stays open) until the client ends
 *   --shrink    then switch to the smallest mode: the composer's memory
 *               (debugfs mmx_buffers) must follow it down ("Subtest
 *               composer-shrink: SUCCESS|FAIL"; needs --crc)
 *   --no-wait   exit after the modeset instead of holding
 * Exit status: 0, or 1 with a message when a step failed.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "mmx_card.h"

#define PLANE(name, value)						\
	drmModeAtomicAddProperty(req, plane_id,				\
				 prop_id(fd, plane_id, DRM_MODE_OBJECT_PLANE, name), \
				 value)

static int die(const char *what)
{
	printf("mmx_hold: %s: %s\n", what, strerror(errno));
	return 1;
}

static uint32_t prop_id(int fd, uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr list = drmModeObjectGetProperties(fd, obj, type);
	uint32_t i, id = 0;

	for (i = 0; list && i < list->count_props; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, list->props[i]);

		if (p && !strcmp(p->name, name))
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(list);
	return id;
}

/* Read @n CRC lines of CRTC @index (crc/control, crc/data in debugfs). */
static int read_crcs(int minor, int index, int n)
{
	char path[128], line[128];
	FILE *data;
	int f, got = 0;

	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/dri/%d/crtc-%d/crc/control", minor, index);
	f = open(path, O_WRONLY);
	if (f < 0 || write(f, "auto", 4) != 4)
		return die("crc/control");
	close(f);
	snprintf(path, sizeof(path),
		 "/sys/kernel/debug/dri/%d/crtc-%d/crc/data", minor, index);
	data = fopen(path, "r");
	if (!data)
		return die("crc/data");
	while (got < n && fgets(line, sizeof(line), data))
		got++;
	/* open, the file keeps the CRCs (and the composer) going */
	return got == n ? 0 : die("crc lines");
}

/* The composer's bytes in debugfs mmx_buffers, or -1. */
static long long buffer_bytes(int minor)
{
	char path[128];
	long long bytes = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/kernel/debug/dri/%d/mmx_buffers",
		 minor);
	f = fopen(path, "r");
	if (!f)
		return -1;
	if (fscanf(f, "bytes: %lld", &bytes) != 1)
		bytes = -1;
	fclose(f);
	return bytes;
}

/*
 * With CRCs on, switch to the connector's smallest mode: the composer's
 * memory must follow it down (at most twice what the small frame needs:
 * the frame and one row, 4 bytes a pixel).
 */
static int check_shrink(int fd, int minor, drmModeConnectorPtr conn,
			uint32_t crtc_id, uint32_t plane_id, int crcs)
{
	drmModeModeInfo small = conn->modes[0];
	long long big_bytes = buffer_bytes(minor), small_bytes, need;
	drmModeAtomicReqPtr req;
	uint32_t blob;
	int i;

	for (i = 0; i < conn->count_modes; i++)
		if (conn->modes[i].hdisplay * conn->modes[i].vdisplay <
		    small.hdisplay * small.vdisplay)
			small = conn->modes[i];
	if (small.hdisplay * small.vdisplay > 320 * 240) {
		/* a 320x240 user mode at 60 Hz, as the pixel tests use */
		memset(&small, 0, sizeof(small));
		small.hdisplay = 320;
		small.hsync_start = 328;
		small.hsync_end = 360;
		small.htotal = 400;
		small.vdisplay = 240;
		small.vsync_start = 243;
		small.vsync_end = 247;
		small.vtotal = 250;
		small.clock = 6000;
		small.vrefresh = 60;
		small.type = DRM_MODE_TYPE_USERDEF;
		snprintf(small.name, sizeof(small.name), "320x240");
	}
	if (drmModeCreatePropertyBlob(fd, &small, sizeof(small), &blob))
		return die("small mode blob");
	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, crtc_id,
				 prop_id(fd, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID"),
				 blob);
	PLANE("SRC_W", (uint64_t)small.hdisplay << 16);
	PLANE("SRC_H", (uint64_t)small.vdisplay << 16);
	PLANE("CRTC_W", small.hdisplay);
	PLANE("CRTC_H", small.vdisplay);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		return die("modeset to the small mode");
	drmModeAtomicFree(req);
	/* a few frames composed at the new size */
	usleep(300000);
	small_bytes = buffer_bytes(minor);
	need = 4LL * small.hdisplay * (small.vdisplay + 1);
	printf("mmx_hold: composer memory %lld bytes at %s, %lld at %s (needs %lld)\n",
	       big_bytes, conn->modes[0].name, small_bytes, small.name, need);
	if (small_bytes < 0 || small_bytes > 2 * need || !crcs) {
		printf("Subtest composer-shrink: FAIL\n");
		return 1;
	}
	printf("Subtest composer-shrink: SUCCESS\n");
	return 0;
}

int main(int argc, char **argv)
{
	drmModeConnectorPtr conn = NULL;
	struct drm_mode_create_dumb create = { 0 };
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint32_t fb, blob, crtc_id = 0, plane_id = 0;
	drmModePlaneResPtr pres;
	drmModeAtomicReqPtr req;
	drmModeResPtr res;
	int fd, minor, i, crtc_index = -1, crcs = 0;
	bool hold = true, shrink = false;
	uint32_t *pixels;
	drmModeModeInfo mode;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--crc") && i + 1 < argc)
			crcs = atoi(argv[++i]);
		else if (!strcmp(argv[i], "--no-wait"))
			hold = false;
		else if (!strcmp(argv[i], "--shrink"))
			shrink = true;
		else {
			fprintf(stderr, "Usage: mmx_hold [--crc N] [--shrink] [--no-wait]\n");
			return 2;
		}
	}

	fd = mmx_card_open(&minor);
	if (fd < 0)
		return die("no mmx device");
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return die("atomic cap");
	res = drmModeGetResources(fd);
	pres = drmModeGetPlaneResources(fd);
	if (!res || !pres)
		return die("resources");
	for (i = 0; i < res->count_connectors && !conn; i++) {
		conn = drmModeGetConnector(fd, res->connectors[i]);
		if (conn && (conn->connection != DRM_MODE_CONNECTED ||
			     !conn->count_modes || !conn->count_encoders)) {
			drmModeFreeConnector(conn);
			conn = NULL;
		}
	}
	if (!conn)
		return die("no connected output");
	{
		drmModeEncoderPtr enc = drmModeGetEncoder(fd, conn->encoders[0]);

		for (i = 0; enc && i < res->count_crtcs; i++) {
			if (enc->possible_crtcs & (1u << i)) {
				crtc_index = i;
				crtc_id = res->crtcs[i];
				break;
			}
		}
		drmModeFreeEncoder(enc);
	}
	for (i = 0; i < (int)pres->count_planes && crtc_id; i++) {
		drmModePlanePtr pl = drmModeGetPlane(fd, pres->planes[i]);

		if (pl && (pl->possible_crtcs & (1u << crtc_index)) && !plane_id)
			plane_id = pl->plane_id;
		drmModeFreePlane(pl);
	}
	if (!crtc_id || !plane_id)
		return die("no CRTC or plane");

	mode = conn->modes[0];
	create.width = mode.hdisplay;
	create.height = mode.vdisplay;
	create.bpp = 32;
	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return die("create dumb");
	map.handle = create.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &map))
		return die("map dumb");
	pixels = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED,
		      fd, map.offset);
	if (pixels == MAP_FAILED)
		return die("mmap");
	for (i = 0; i < (int)(create.size / 4); i++)
		pixels[i] = 0xff000000 | (i * 2654435761u >> 8);
	handles[0] = create.handle;
	pitches[0] = create.pitch;
	if (drmModeAddFB2(fd, mode.hdisplay, mode.vdisplay, DRM_FORMAT_XRGB8888,
			  handles, pitches, offsets, &fb, 0))
		return die("addfb");
	if (drmModeCreatePropertyBlob(fd, &mode, sizeof(mode), &blob))
		return die("mode blob");

	req = drmModeAtomicAlloc();
	drmModeAtomicAddProperty(req, conn->connector_id,
				 prop_id(fd, conn->connector_id,
					 DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID"),
				 crtc_id);
	drmModeAtomicAddProperty(req, crtc_id,
				 prop_id(fd, crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID"),
				 blob);
	drmModeAtomicAddProperty(req, crtc_id,
				 prop_id(fd, crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE"), 1);
	PLANE("FB_ID", fb);
	PLANE("CRTC_ID", crtc_id);
	PLANE("SRC_X", 0);
	PLANE("SRC_Y", 0);
	PLANE("SRC_W", (uint64_t)mode.hdisplay << 16);
	PLANE("SRC_H", (uint64_t)mode.vdisplay << 16);
	PLANE("CRTC_X", 0);
	PLANE("CRTC_Y", 0);
	PLANE("CRTC_W", mode.hdisplay);
	PLANE("CRTC_H", mode.vdisplay);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		return die("modeset");
	drmModeAtomicFree(req);

	if (crcs && read_crcs(minor, crtc_index, crcs))
		return 1;
	if (shrink && check_shrink(fd, minor, conn, crtc_id, plane_id, crcs))
		return 1;
	printf("mmx_hold: %s lit at %s on crtc-%d, fb %u\n",
	       conn->connector_id ? "output" : "?", mode.name, crtc_index, fb);
	if (!hold)
		return 0;
	printf("holding\n");
	fflush(stdout);
	for (;;)
		pause();
}
