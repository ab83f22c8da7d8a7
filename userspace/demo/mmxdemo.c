// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo: light every output of the mmx device with a test pattern (colour
 * bars, a gradient, a grid, the output number), a translucent overlay and a
 * cursor, in one atomic commit; then capture every output through its
 * writeback connector and save the captures as PPM files.
 *
 * With -T, instead: the tour of what mmx is for (tour.c): rotation,
 * keystone, panning following the pointer over two outputs and a timed
 * commit, through libmmx, each saved as pictures in OUTDIR.
 *
 * Usage: mmxdemo [-d OUTDIR] [-m MAXWxMAXH] [-H SECONDS]
 *        mmxdemo -T OUTDIR [-m MAXWxMAXH]
 *   -d OUTDIR      where to write output-N-NAME.ppm (default: no files)
 *   -T OUTDIR      the tour; its pictures go to OUTDIR
 *   -m WxH         use the largest mode not bigger than WxH instead of the
 *                  preferred mode when the preferred one is bigger
 *   -H SECONDS     then print "mmxdemo: holding the picture" and keep it
 *                  SECONDS seconds (0: until killed), e.g. for a host to take
 *                  screenshots of a virtio-gpu display
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "demo.h"

#define MAX_OUTPUTS 8

struct dumb {
	uint32_t handle, fb_id, pitch, width, height;
	uint64_t size;
	uint32_t *map;
};

struct output {
	drmModeConnector *conn;
	uint32_t wb_conn_id;
	uint32_t crtc_id, primary_id, overlay_id, cursor_id;
	drmModeModeInfo mode;
	struct dumb fb, overlay, cursor, capture;
	int fence;
	char name[32];
};

static int fd;

static void die(const char *what)
{
	fprintf(stderr, "mmxdemo: %s: %s\n", what, strerror(errno));
	exit(1);
}

static int open_mmx(void)
{
	char path[32];

	for (int i = 0; i < 16; i++) {
		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		int f = open(path, O_RDWR | O_CLOEXEC);
		if (f < 0)
			continue;
		drmVersionPtr v = drmGetVersion(f);
		bool ok = v && !strcmp(v->name, "mmx");
		drmFreeVersion(v);
		if (ok)
			return f;
		close(f);
	}
	errno = ENODEV;
	die("no mmx device");
	return -1;
}

static void dumb_create(struct dumb *d, uint32_t w, uint32_t h, uint32_t format)
{
	struct drm_mode_create_dumb c = { .width = w, .height = h, .bpp = 32 };
	struct drm_mode_map_dumb m = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &c))
		die("CREATE_DUMB");
	d->handle = c.handle;
	d->pitch = c.pitch;
	d->size = c.size;
	d->width = w;
	d->height = h;
	handles[0] = c.handle;
	pitches[0] = c.pitch;
	if (drmModeAddFB2(fd, w, h, format, handles, pitches, offsets, &d->fb_id, 0))
		die("ADDFB2");
	m.handle = c.handle;
	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &m))
		die("MAP_DUMB");
	d->map = mmap(NULL, c.size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, m.offset);
	if (d->map == MAP_FAILED)
		die("mmap");
}

static uint32_t prop_id(uint32_t obj, uint32_t type, const char *name)
{
	drmModeObjectPropertiesPtr props = drmModeObjectGetProperties(fd, obj, type);
	uint32_t id = 0;

	for (uint32_t i = 0; props && i < props->count_props && !id; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);
		if (p && !strcmp(p->name, name))
			id = p->prop_id;
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	if (!id) {
		fprintf(stderr, "mmxdemo: object %u has no property %s\n", obj, name);
		exit(1);
	}
	return id;
}

static void add(drmModeAtomicReqPtr req, uint32_t obj, uint32_t type,
		const char *name, uint64_t value)
{
	if (drmModeAtomicAddProperty(req, obj, prop_id(obj, type, name), value) < 0)
		die("AtomicAddProperty");
}

/* 5x7 digits, one byte per row, bit 4 leftmost. */
static const uint8_t digits[10][7] = {
	{ 14, 17, 19, 21, 25, 17, 14 }, { 4, 12, 4, 4, 4, 4, 14 },
	{ 14, 17, 1, 2, 4, 8, 31 },     { 31, 2, 4, 2, 1, 17, 14 },
	{ 2, 6, 10, 18, 31, 2, 2 },     { 31, 16, 30, 1, 1, 17, 14 },
	{ 6, 8, 16, 30, 17, 17, 14 },   { 31, 1, 2, 4, 8, 8, 8 },
	{ 14, 17, 17, 14, 17, 17, 14 }, { 14, 17, 17, 15, 1, 2, 12 },
};

void demo_draw_pattern(uint32_t *px, uint32_t w, uint32_t h, uint32_t stride,
		       int number)
{
	static const uint32_t bars[8] = { 0xffffff, 0xffff00, 0x00ffff, 0x00ff00,
					  0xff00ff, 0xff0000, 0x0000ff, 0x000000 };
	int scale = h / 60 > 0 ? (int)h / 60 : 1;

	for (uint32_t y = 0; y < h; y++) {
		uint32_t *row = px + y * stride;

		for (uint32_t x = 0; x < w; x++) {
			uint32_t c;

			if (y < h * 2 / 3) {
				c = bars[x * 8 / w];
			} else {
				uint32_t g = x * 255 / (w > 1 ? w - 1 : 1);
				c = g << 16 | g << 8 | g;
			}
			if (x % 64 == 0 || y % 64 == 0 || x == w - 1 || y == h - 1)
				c = 0x808080;
			row[x] = c;
		}
	}
	/* The output number, big, in the top-left corner. */
	for (int r = 0; r < 7; r++)
		for (int c = 0; c < 5; c++)
			if (digits[number % 10][r] & (16 >> c))
				for (int yy = 0; yy < scale * 2; yy++)
					for (int xx = 0; xx < scale * 2; xx++) {
						uint32_t dx = 16 + (c * 2 * scale) + xx;
						uint32_t dy = 16 + (r * 2 * scale) + yy;
						if (dx < w && dy < h)
							px[dy * stride + dx] = 0x000000;
					}
}

static void draw_overlay(struct dumb *d)
{
	/* Pre-multiplied translucent blue with an opaque white frame. */
	for (uint32_t y = 0; y < d->height; y++)
		for (uint32_t x = 0; x < d->width; x++) {
			bool edge = x < 4 || y < 4 || x >= d->width - 4 || y >= d->height - 4;
			d->map[y * (d->pitch / 4) + x] = edge ? 0xffffffff : 0x80000080;
		}
}

static void draw_cursor(struct dumb *d)
{
	memset(d->map, 0, d->size);
	for (uint32_t y = 0; y < 40; y++)
		for (uint32_t x = 0; x <= y / 2 && x < 24; x++) {
			bool edge = x == 0 || x == y / 2 || y == 39;
			d->map[y * (d->pitch / 4) + x] = edge ? 0xff000000 : 0xffffffff;
		}
}

static bool pick_mode(drmModeConnector *c, int maxw, int maxh, drmModeModeInfo *out)
{
	int best = -1;

	for (int i = 0; i < c->count_modes; i++)
		if (c->modes[i].type & DRM_MODE_TYPE_PREFERRED)
			best = i;
	if (best < 0 && c->count_modes)
		best = 0;
	if (best >= 0 && maxw && (c->modes[best].hdisplay > maxw || c->modes[best].vdisplay > maxh)) {
		best = -1;
		for (int i = 0; i < c->count_modes; i++)
			if (c->modes[i].hdisplay <= maxw && c->modes[i].vdisplay <= maxh &&
			    (best < 0 || c->modes[i].hdisplay * c->modes[i].vdisplay >
					 c->modes[best].hdisplay * c->modes[best].vdisplay))
				best = i;
	}
	if (best < 0)
		return false;
	*out = c->modes[best];
	return true;
}

static void save_ppm(const char *dir, struct output *o, int index)
{
	char path[512];
	FILE *f;

	snprintf(path, sizeof(path), "%s/output-%d-%s.ppm", dir, index, o->name);
	f = fopen(path, "wb");
	if (!f)
		die(path);
	fprintf(f, "P6\n%u %u\n255\n", o->capture.width, o->capture.height);
	for (uint32_t y = 0; y < o->capture.height; y++)
		for (uint32_t x = 0; x < o->capture.width; x++) {
			uint32_t p = o->capture.map[y * (o->capture.pitch / 4) + x];
			unsigned char rgb[3] = { p >> 16, p >> 8, p };
			fwrite(rgb, 1, 3, f);
		}
	if (fclose(f))
		die(path);
	printf("saved %s\n", path);
}

int main(int argc, char **argv)
{
	const char *outdir = NULL, *tourdir = NULL;
	int maxw = 0, maxh = 0, opt, n = 0, hold = -1;
	uint32_t used_crtcs = 0;
	struct output outs[MAX_OUTPUTS];
	drmModeResPtr res;
	drmModePlaneResPtr pres;
	drmModeAtomicReqPtr req;

	while ((opt = getopt(argc, argv, "d:m:H:T:h")) != -1) {
		switch (opt) {
		case 'd':
			outdir = optarg;
			break;
		case 'T':
			tourdir = optarg;
			break;
		case 'm':
			if (sscanf(optarg, "%dx%d", &maxw, &maxh) != 2 || maxw <= 0 || maxh <= 0) {
				fprintf(stderr, "mmxdemo: bad -m %s (want WxH)\n", optarg);
				return 2;
			}
			break;
		case 'H':
			hold = atoi(optarg);
			if (hold < 0) {
				fprintf(stderr, "mmxdemo: bad -H %s\n", optarg);
				return 2;
			}
			break;
		default:
			fprintf(stderr, "usage: mmxdemo [-d OUTDIR] [-m WxH] [-H SECONDS]\n"
				"       mmxdemo -T OUTDIR [-m WxH]\n");
			return 2;
		}
	}

	fd = open_mmx();
	if (tourdir)
		return demo_tour(fd, tourdir, maxw, maxh);
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		die("SET_CLIENT_CAP");
	res = drmModeGetResources(fd);
	pres = drmModeGetPlaneResources(fd);
	if (!res || !pres)
		die("GETRESOURCES");

	memset(outs, 0, sizeof(outs));
	for (int i = 0; i < res->count_connectors && n < MAX_OUTPUTS; i++) {
		drmModeConnector *c = drmModeGetConnector(fd, res->connectors[i]);
		struct output *o = &outs[n];
		drmModeEncoder *enc;
		int crtc_index = -1;

		if (!c || c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK ||
		    c->connection != DRM_MODE_CONNECTED || !c->count_encoders)
			continue;
		/* Encoders may reach several CRTCs: take the first one unused. */
		enc = drmModeGetEncoder(fd, c->encoders[0]);
		for (int k = 0; enc && k < res->count_crtcs; k++)
			if ((enc->possible_crtcs & (1u << k)) && !(used_crtcs & (1u << k))) {
				crtc_index = k;
				used_crtcs |= 1u << k;
				break;
			}
		drmModeFreeEncoder(enc);
		if (crtc_index < 0 || !pick_mode(c, maxw, maxh, &o->mode))
			continue;
		o->conn = c;
		o->crtc_id = res->crtcs[crtc_index];
		snprintf(o->name, sizeof(o->name), "%s-%u",
			 drmModeGetConnectorTypeName(c->connector_type), c->connector_type_id);
		for (uint32_t p = 0; p < pres->count_planes; p++) {
			drmModePlanePtr pl = drmModeGetPlane(fd, pres->planes[p]);
			uint32_t type_prop = prop_id(pl->plane_id, DRM_MODE_OBJECT_PLANE, "type");
			drmModeObjectPropertiesPtr props =
				drmModeObjectGetProperties(fd, pl->plane_id, DRM_MODE_OBJECT_PLANE);
			uint64_t type = 0;

			for (uint32_t k = 0; k < props->count_props; k++)
				if (props->props[k] == type_prop)
					type = props->prop_values[k];
			drmModeFreeObjectProperties(props);
			if (pl->possible_crtcs & (1u << crtc_index)) {
				if (type == DRM_PLANE_TYPE_PRIMARY && !o->primary_id)
					o->primary_id = pl->plane_id;
				else if (type == DRM_PLANE_TYPE_OVERLAY && !o->overlay_id)
					o->overlay_id = pl->plane_id;
				else if (type == DRM_PLANE_TYPE_CURSOR && !o->cursor_id)
					o->cursor_id = pl->plane_id;
			}
			drmModeFreePlane(pl);
		}
		/* The writeback connector whose encoder drives this CRTC. */
		for (int k = 0; k < res->count_connectors; k++) {
			drmModeConnector *w = drmModeGetConnector(fd, res->connectors[k]);
			if (w && w->connector_type == DRM_MODE_CONNECTOR_WRITEBACK && w->count_encoders) {
				drmModeEncoder *we = drmModeGetEncoder(fd, w->encoders[0]);
				if (we && (we->possible_crtcs & (1u << crtc_index)))
					o->wb_conn_id = w->connector_id;
				drmModeFreeEncoder(we);
			}
			drmModeFreeConnector(w);
		}
		n++;
	}
	if (!n) {
		fprintf(stderr, "mmxdemo: no connected output\n");
		return 1;
	}

	req = drmModeAtomicAlloc();
	for (int i = 0; i < n; i++) {
		struct output *o = &outs[i];
		uint32_t blob, w = o->mode.hdisplay, h = o->mode.vdisplay;

		dumb_create(&o->fb, w, h, DRM_FORMAT_XRGB8888);
		demo_draw_pattern(o->fb.map, w, h, o->fb.pitch / 4, i + 1);
		dumb_create(&o->overlay, w / 3, h / 3, DRM_FORMAT_ARGB8888);
		draw_overlay(&o->overlay);
		dumb_create(&o->cursor, 64, 64, DRM_FORMAT_ARGB8888);
		draw_cursor(&o->cursor);
		if (drmModeCreatePropertyBlob(fd, &o->mode, sizeof(o->mode), &blob))
			die("CREATEPROPBLOB");
		add(req, o->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
		add(req, o->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
		add(req, o->conn->connector_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", o->crtc_id);
		struct { uint32_t id, fb, x, y, w, h; } planes[3] = {
			{ o->primary_id, o->fb.fb_id, 0, 0, w, h },
			{ o->overlay_id, o->overlay.fb_id, w / 2, h / 2, w / 3, h / 3 },
			{ o->cursor_id, o->cursor.fb_id, w / 4, h / 4, 64, 64 },
		};
		for (int p = 0; p < 3; p++) {
			if (!planes[p].id)
				continue;
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "FB_ID", planes[p].fb);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "CRTC_ID", o->crtc_id);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)planes[p].w << 16);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)planes[p].h << 16);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "CRTC_X", planes[p].x);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "CRTC_Y", planes[p].y);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "CRTC_W", planes[p].w);
			add(req, planes[p].id, DRM_MODE_OBJECT_PLANE, "CRTC_H", planes[p].h);
		}
		if (o->wb_conn_id) {
			dumb_create(&o->capture, w, h, DRM_FORMAT_XRGB8888);
			o->fence = -1;
			add(req, o->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", o->crtc_id);
			add(req, o->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_FB_ID", o->capture.fb_id);
			add(req, o->wb_conn_id, DRM_MODE_OBJECT_CONNECTOR, "WRITEBACK_OUT_FENCE_PTR",
			    (uint64_t)(uintptr_t)&o->fence);
		}
	}
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		die("ATOMIC commit");
	drmModeAtomicFree(req);

	for (int i = 0; i < n; i++) {
		struct output *o = &outs[i];
		struct pollfd p = { .fd = o->fence, .events = POLLIN };

		printf("output %d: %s mode %s (%ux%u@%u) CRTC %u planes %u/%u/%u\n", i + 1,
		       o->name, o->mode.name, o->mode.hdisplay, o->mode.vdisplay,
		       o->mode.vrefresh, o->crtc_id, o->primary_id, o->overlay_id, o->cursor_id);
		if (!o->wb_conn_id)
			continue;
		if (o->fence < 0 || poll(&p, 1, 10000) != 1) {
			fprintf(stderr, "mmxdemo: writeback of %s did not complete\n", o->name);
			return 1;
		}
		close(o->fence);
		if (outdir)
			save_ppm(outdir, o, i + 1);
	}
	if (hold >= 0) {
		printf("mmxdemo: holding the picture\n");
		fflush(stdout);
		if (hold)
			sleep(hold);
		else
			for (;;)
				pause();
	}
	return 0;
}
