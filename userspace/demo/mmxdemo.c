// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo: light every output of the mmx device with a test pattern (colour
 * bars, a gradient, a grid, the output number), a translucent overlay and a
 * cursor, in one atomic commit; then capture every output through its
 * writeback connector and save the captures as PPM files. libmmx finds the
 * outputs, their modes and CRTCs and does the captures; the planes and
 * framebuffers the demo draws are its own (kms.c).
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
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "libmmx.h"
#include "mmx_kms_mode.h"
#include "demo.h"

#define MAX_OUTPUTS 8

struct output {
	uint32_t conn_id, crtc_id, crtc_index;
	uint32_t primary_id, overlay_id, cursor_id;
	drmModeModeInfo mode;
	struct demo_fb fb, overlay, cursor;
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

static void fb_create(struct demo_fb *d, uint32_t w, uint32_t h,
		      uint32_t format)
{
	int ret = demo_fb_create(fd, w, h, format, d);

	if (ret) {
		errno = -ret;
		die("framebuffer");
	}
}

static void add(drmModeAtomicReqPtr req, uint32_t obj, uint32_t type,
		const char *name, uint64_t value)
{
	uint32_t id;

	if (!demo_prop(fd, obj, type, name, &id, NULL)) {
		fprintf(stderr, "mmxdemo: object %u has no property %s\n", obj, name);
		exit(1);
	}
	if (drmModeAtomicAddProperty(req, obj, id, value) < 0)
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

static void draw_overlay(struct demo_fb *d)
{
	/* Pre-multiplied translucent blue with an opaque white frame. */
	for (uint32_t y = 0; y < d->height; y++)
		for (uint32_t x = 0; x < d->width; x++) {
			bool edge = x < 4 || y < 4 || x >= d->width - 4 || y >= d->height - 4;
			d->map[y * (d->pitch / 4) + x] = edge ? 0xffffffff : 0x80000080;
		}
}

static void draw_cursor(struct demo_fb *d)
{
	memset(d->map, 0, d->size);
	for (uint32_t y = 0; y < 40; y++)
		for (uint32_t x = 0; x <= y / 2 && x < 24; x++) {
			bool edge = x == 0 || x == y / 2 || y == 39;
			d->map[y * (d->pitch / 4) + x] = edge ? 0xff000000 : 0xffffffff;
		}
}

/*
 * The preferred mode; when it is bigger than @maxw x @maxh, the largest
 * mode that is not.
 */
static bool pick_mode(const struct mmx_output_info *o, int maxw, int maxh,
		      drmModeModeInfo *out)
{
	const struct mmx_mode *m = o->modes;
	int best = o->nmode ? (int)(o->npreferred ? o->npreferred - 1 : 0) : -1;

	if (best >= 0 && maxw && (m[best].width > (uint32_t)maxw ||
				  m[best].height > (uint32_t)maxh)) {
		best = -1;
		for (int i = 0; i < (int)o->nmode; i++)
			if (m[i].width <= (uint32_t)maxw && m[i].height <= (uint32_t)maxh &&
			    (best < 0 || m[i].width * m[i].height >
					 m[best].width * m[best].height))
				best = i;
	}
	if (best < 0)
		return false;
	mmx_kms_mode_to_drm(out, &m[best]);
	return true;
}

/* The first CRTC, in KMS order, that can drive @o and is not in @used. */
static const struct mmx_crtc_info *pick_crtc(const struct mmx_state *s,
					     const struct mmx_output_info *o,
					     uint32_t *used)
{
	for (uint32_t k = 0; k < mmx_state_ncrtcs(s); k++) {
		const struct mmx_crtc_info *c = mmx_state_crtc_at(s, k);

		if (*used & (1u << c->index))
			continue;
		for (uint32_t j = 0; j < o->ncrtc; j++)
			if (o->crtcs[j] == c->id) {
				*used |= 1u << c->index;
				return c;
			}
	}
	return NULL;
}

/* The first primary, overlay and cursor planes that can use @o's CRTC. */
static void pick_planes(struct output *o)
{
	drmModePlaneResPtr pres = drmModeGetPlaneResources(fd);

	if (!pres)
		die("GETPLANERESOURCES");
	for (uint32_t p = 0; p < pres->count_planes; p++) {
		drmModePlanePtr pl = drmModeGetPlane(fd, pres->planes[p]);
		uint64_t type = 0;

		if (!pl)
			die("GETPLANE");
		demo_prop(fd, pl->plane_id, DRM_MODE_OBJECT_PLANE, "type", NULL,
			  &type);
		if (pl->possible_crtcs & (1u << o->crtc_index)) {
			if (type == DRM_PLANE_TYPE_PRIMARY && !o->primary_id)
				o->primary_id = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_OVERLAY && !o->overlay_id)
				o->overlay_id = pl->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR && !o->cursor_id)
				o->cursor_id = pl->plane_id;
		}
		drmModeFreePlane(pl);
	}
	drmModeFreePlaneResources(pres);
}

/* Output @index's writeback capture as DIR/output-N-NAME.ppm (libmmx). */
static int capture(struct mmx_display *d, const char *dir, struct output *o,
		   int index)
{
	struct pic p = { 0 };
	char name[64];
	int ret = mmx_capture(d, o->crtc_id, &p.w, &p.h, &p.px);

	if (ret == -EOPNOTSUPP)
		return 0;	/* no writeback connector for this CRTC */
	if (ret) {
		fprintf(stderr, "mmxdemo: writeback of %s did not complete: %s\n",
			o->name, strerror(-ret));
		return ret;
	}
	snprintf(name, sizeof(name), "output-%d-%s", index, o->name);
	if (dir)
		ret = pic_save(dir, name, &p);
	free(p.px);
	return ret;
}

struct demo_args {
	const char *outdir;	/* -d */
	const char *tourdir;	/* -T */
	int maxw, maxh;		/* -m */
	int hold;		/* -H, -1 without */
};

/* The command line into @a: 0, or the exit status 2 (said why). */
static int parse_args(int argc, char **argv, struct demo_args *a)
{
	int opt;

	while ((opt = getopt(argc, argv, "d:m:H:T:h")) != -1) {
		switch (opt) {
		case 'd':
			a->outdir = optarg;
			break;
		case 'T':
			a->tourdir = optarg;
			break;
		case 'm':
			if (sscanf(optarg, "%dx%d", &a->maxw, &a->maxh) != 2 ||
			    a->maxw <= 0 || a->maxh <= 0) {
				fprintf(stderr, "mmxdemo: bad -m %s (want WxH)\n", optarg);
				return 2;
			}
			break;
		case 'H':
			a->hold = atoi(optarg);
			if (a->hold < 0) {
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
	return 0;
}

/* Output @mo into @o with a free CRTC, a mode and planes; false if none. */
static bool setup_output(const struct mmx_state *s,
			 const struct mmx_output_info *mo, int maxw, int maxh,
			 uint32_t *used_crtcs, struct output *o)
{
	const struct mmx_crtc_info *crtc;
	drmModeConnectorPtr c;

	if (mo->connection != MMX_CONNECTED || !mo->ncrtc)
		return false;
	crtc = pick_crtc(s, mo, used_crtcs);
	if (!crtc || !pick_mode(mo, maxw, maxh, &o->mode))
		return false;
	o->conn_id = mo->id;
	o->crtc_id = crtc->id;
	o->crtc_index = crtc->index;
	/* the kernel's connector name, not RandR's (HDMI-A-1, not HDMI-1) */
	c = drmModeGetConnectorCurrent(fd, mo->id);
	if (!c)
		die("GETCONNECTOR");
	snprintf(o->name, sizeof(o->name), "%s-%u",
		 drmModeGetConnectorTypeName(c->connector_type), c->connector_type_id);
	drmModeFreeConnector(c);
	pick_planes(o);
	return true;
}

/* The connected outputs that get a CRTC, at most MAX_OUTPUTS: how many. */
static int find_outputs(const struct mmx_state *s, int maxw, int maxh,
			struct output *outs)
{
	uint32_t used_crtcs = 0;
	int n = 0;

	memset(outs, 0, MAX_OUTPUTS * sizeof(*outs));
	for (uint32_t i = 0; i < mmx_state_noutputs(s) && n < MAX_OUTPUTS;
	     i++)
		if (setup_output(s, mmx_state_output_at(s, i), maxw, maxh,
				 &used_crtcs, &outs[n]))
			n++;
	return n;
}

/* One plane showing @fb at (x, y), w x h, unscaled. */
static void add_plane(drmModeAtomicReqPtr req, uint32_t plane, uint32_t crtc,
		      uint32_t fb, uint32_t x, uint32_t y, uint32_t w,
		      uint32_t h)
{
	if (!plane)
		return;
	add(req, plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_ID", crtc);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_X", 0);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_Y", 0);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_W", (uint64_t)w << 16);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "SRC_H", (uint64_t)h << 16);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_X", x);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_Y", y);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_W", w);
	add(req, plane, DRM_MODE_OBJECT_PLANE, "CRTC_H", h);
}

/* Output @i's pictures drawn, and its mode and planes added to @req. */
static void add_output(drmModeAtomicReqPtr req, struct output *o, int i)
{
	uint32_t blob, w = o->mode.hdisplay, h = o->mode.vdisplay;

	fb_create(&o->fb, w, h, DRM_FORMAT_XRGB8888);
	demo_draw_pattern(o->fb.map, w, h, o->fb.pitch / 4, i + 1);
	fb_create(&o->overlay, w / 3, h / 3, DRM_FORMAT_ARGB8888);
	draw_overlay(&o->overlay);
	fb_create(&o->cursor, 64, 64, DRM_FORMAT_ARGB8888);
	draw_cursor(&o->cursor);
	if (drmModeCreatePropertyBlob(fd, &o->mode, sizeof(o->mode), &blob))
		die("CREATEPROPBLOB");
	add(req, o->crtc_id, DRM_MODE_OBJECT_CRTC, "MODE_ID", blob);
	add(req, o->crtc_id, DRM_MODE_OBJECT_CRTC, "ACTIVE", 1);
	add(req, o->conn_id, DRM_MODE_OBJECT_CONNECTOR, "CRTC_ID", o->crtc_id);
	add_plane(req, o->primary_id, o->crtc_id, o->fb.fb_id, 0, 0, w, h);
	add_plane(req, o->overlay_id, o->crtc_id, o->overlay.fb_id,
		  w / 2, h / 2, w / 3, h / 3);
	add_plane(req, o->cursor_id, o->crtc_id, o->cursor.fb_id,
		  w / 4, h / 4, 64, 64);
}

/* One atomic commit lighting every output with its pictures. */
static void light_outputs(struct output *outs, int n)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();

	for (int i = 0; i < n; i++)
		add_output(req, &outs[i], i);
	if (drmModeAtomicCommit(fd, req, DRM_MODE_ATOMIC_ALLOW_MODESET, NULL))
		die("ATOMIC commit");
	drmModeAtomicFree(req);
}

/* -H: keep the picture @seconds (0: until killed). */
static void hold_picture(int seconds)
{
	printf("mmxdemo: holding the picture\n");
	fflush(stdout);
	if (seconds) {
		sleep(seconds);
		return;
	}
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	struct demo_args a = { .hold = -1 };
	struct output outs[MAX_OUTPUTS];
	struct mmx_display *d;
	struct mmx_state *s;
	int n, ret;

	ret = parse_args(argc, argv, &a);
	if (ret)
		return ret;
	fd = open_mmx();
	if (a.tourdir)
		return demo_tour(fd, a.tourdir, a.maxw, a.maxh);
	/* UNIVERSAL_PLANES, ATOMIC and WRITEBACK_CONNECTORS: set by libmmx */
	ret = mmx_open_fd(fd, &d);
	if (!ret)
		ret = mmx_get_screen_resources(d, &s);
	if (ret) {
		fprintf(stderr, "mmxdemo: libmmx: %s\n", strerror(-ret));
		return 1;
	}
	n = find_outputs(s, a.maxw, a.maxh, outs);
	mmx_state_free(s);
	if (!n) {
		fprintf(stderr, "mmxdemo: no connected output\n");
		return 1;
	}
	light_outputs(outs, n);
	for (int i = 0; i < n; i++) {
		struct output *o = &outs[i];

		printf("output %d: %s mode %s (%ux%u@%u) CRTC %u planes %u/%u/%u\n", i + 1,
		       o->name, o->mode.name, o->mode.hdisplay, o->mode.vdisplay,
		       o->mode.vrefresh, o->crtc_id, o->primary_id, o->overlay_id, o->cursor_id);
		if (capture(d, a.outdir, o, i + 1))
			return 1;
	}
	mmx_close(d);
	if (a.hold >= 0)
		hold_picture(a.hold);
	return 0;
}
