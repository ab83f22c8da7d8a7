// SPDX-License-Identifier: MIT
/*
 * kms_mmx_libmmx - libmmx's local backend against the mmx driver, and its
 * degradation on another KMS driver (--virtio-gpu: Debian's virtio_gpu).
 *
 * The contract is userspace/include/libmmx.h and Documentation/libmmx.rst:
 * RandR names and snapshots, probe-free queries, one-commit configuration
 * with the screen framebuffer drawn with mmx_screen_pattern(), rotations and
 * transforms checked on writeback pixels against the documented mapping
 * (an output pixel centre (u + 1/2, v + 1/2) shows the screen point
 * M (u + 1/2, v + 1/2)), screen resizing that keeps the picture and frees
 * the old framebuffer, panning policies, property round trips, and refused
 * configurations that change nothing.
 *
 *   kms_mmx_libmmx [--subtest NAME]          mmx, default boot (eDP, VGA)
 *   kms_mmx_libmmx --virtio-gpu              virtio_gpu, no mmx module
 *
 * Pixel tests use 320x240 user modes to keep TCG time low.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "mmx_igt.h"
#include "libmmx.h"
#include "mmx_info_same.h"
#include "mmx_screen_pattern.h"

static struct mmx_display *g_disp;

/* ------------------------------------------------------------------------ */
/* Helpers                                                                  */

/*
 * The CRTCs keep TRANSFORM and TRANSFORM_FILTER after the IGT
 * reset turned them off, and a fresh libmmx handle decodes them as the
 * current transform (rotation normal): start every subtest from none.
 */
static void clean_transforms(struct mmx_dev *d)
{
	struct mmx_req *r = mmx_req_new(d);
	int i;

	for (i = 0; i < d->n_crtcs; i++) {
		mmx_req_add(r, d->crtcs[i], "TRANSFORM", 0);
		mmx_req_add(r, d->crtcs[i], "TRANSFORM_FILTER", 0);
	}
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
}

/* libmmx on the test's master fd (closes a display a failed subtest left). */
static struct mmx_display *disp(struct mmx_dev *d)
{
	if (g_disp)
		mmx_close(g_disp);
	g_disp = NULL;
	clean_transforms(d);
	mmx_do(mmx_open_fd(d->fd, &g_disp));
	mmx_assert(!mmx_is_remote(g_disp));
	mmx_assert_eq(mmx_fd(g_disp), d->fd);
	return g_disp;
}

static void disp_close(void)
{
	mmx_close(g_disp);
	g_disp = NULL;
}

static struct mmx_state *snap(struct mmx_display *x)
{
	struct mmx_state *s = NULL;

	mmx_do(mmx_get_screen_resources_current(x, &s));
	mmx_assert(s);
	return s;
}

/* The snapshot's screen size (mmx_state_screen_size()), one at a time. */
static uint32_t screen_width(const struct mmx_state *s)
{
	uint32_t w = 0;

	mmx_state_screen_size(s, &w, NULL);
	return w;
}

static uint32_t screen_height(const struct mmx_state *s)
{
	uint32_t h = 0;

	mmx_state_screen_size(s, NULL, &h);
	return h;
}

static const struct mmx_output_info *output(const struct mmx_state *s,
					    const char *name)
{
	const struct mmx_output_info *o = mmx_state_output_by_name(s, name);

	mmx_assert_f(o, "no output %s", name);
	return o;
}

static uint32_t output_id(struct mmx_display *x, const char *name)
{
	struct mmx_state *s = snap(x);
	uint32_t id = output(s, name)->id;

	mmx_state_free(s);
	return id;
}

/* The CRTC of a lit output in snapshot @s. */
static const struct mmx_crtc_info *crtc_of(const struct mmx_state *s,
					   const char *name)
{
	const struct mmx_output_info *o = output(s, name);
	const struct mmx_crtc_info *c = mmx_state_crtc(s, o->crtc);

	mmx_assert_f(c && c->mode_valid, "%s is not lit", name);
	return c;
}

static void small_mode(struct mmx_mode *m, int w, int h)
{
	drmModeModeInfo d;

	mmx_mode_make(&d, w, h, 60);
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%dx%d", w, h);
	m->width = d.hdisplay;
	m->height = d.vdisplay;
	m->clock = d.clock;
	m->hsync_start = d.hsync_start;
	m->hsync_end = d.hsync_end;
	m->htotal = d.htotal;
	m->vsync_start = d.vsync_start;
	m->vsync_end = d.vsync_end;
	m->vtotal = d.vtotal;
	m->flags = d.flags;
	m->type = d.type;
}

/* Light @name in a 320x240 mode at (x, y) (and whatever @cfg has). */
static struct mmx_output_change *light(struct mmx_display *x,
				       struct mmx_config *cfg,
				       const char *name, int32_t px,
				       int32_t py)
{
	struct mmx_output_change *c = mmx_config_output(cfg,
						       output_id(x, name));

	mmx_assert(c);
	c->flags |= MMX_CHANGE_MODE | MMX_CHANGE_POS;
	small_mode(&c->mode, 320, 240);
	c->x = px;
	c->y = py;
	return c;
}

/* In @cfg, move output @id to (x, y): a change of position alone. */
static void move_output(struct mmx_config *cfg, uint32_t id, int32_t px,
			int32_t py)
{
	struct mmx_output_change *c = mmx_config_output(cfg, id);

	mmx_assert(c);
	c->flags = MMX_CHANGE_POS;
	c->x = px;
	c->y = py;
}

/* An empty config, freed by the caller with mmx_config_free(). */
static struct mmx_config *new_config(void)
{
	struct mmx_config *cfg = NULL;

	mmx_assert_eq(mmx_config_new(&cfg), 0);
	return cfg;
}

/* The end of a subtest: the display closed, its config @cfg freed. */
static void disp_done(struct mmx_config *cfg)
{
	disp_close();
	mmx_config_free(cfg);
}

static void apply(struct mmx_display *x, const struct mmx_config *cfg)
{
	struct mmx_error err = { 0 };
	int ret = mmx_apply(x, cfg, &err);

	mmx_assert_f(ret == 0, "mmx_apply: %d (%s): %s", ret, strerror(-ret),
		     err.message);
}

/* Expected pixel of output pixel (u, v): the screen point it shows. */
typedef void (*map_fn)(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
		       int32_t *sx, int32_t *sy);

static void map_identity(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
			 int32_t *sx, int32_t *sy)
{
	(void)w;
	(void)h;
	*sx = (int32_t)u;
	*sy = (int32_t)v;
}

/*
 * RandR's rotations of a w x h mode (RRTransformCompute): left (Rotate_90)
 * maps output (u, v) to screen (h - v, u), so the centre of pixel (u, v)
 * is in screen pixel (h - 1 - v, u); inverted maps it to (w - 1 - u,
 * h - 1 - v); reflect x to (w - 1 - u, v).
 */
static void map_left(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
		     int32_t *sx, int32_t *sy)
{
	(void)w;
	*sx = (int32_t)(h - 1 - v);
	*sy = (int32_t)u;
}

static void map_inverted(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
			 int32_t *sx, int32_t *sy)
{
	*sx = (int32_t)(w - 1 - u);
	*sy = (int32_t)(h - 1 - v);
}

static void map_reflect_x(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
			  int32_t *sx, int32_t *sy)
{
	(void)h;
	*sx = (int32_t)(w - 1 - u);
	*sy = (int32_t)v;
}

/* 2x scale, nearest: the centre (u + 1/2) shows 2u + 1, a pixel edge,
 * which belongs to the pixel left of it: 2u. */
static void map_scale2(uint32_t u, uint32_t v, uint32_t w, uint32_t h,
		       int32_t *sx, int32_t *sy)
{
	(void)w;
	(void)h;
	*sx = (int32_t)(2 * u);
	*sy = (int32_t)(2 * v);
}

/* A screen pixel: the pattern inside the first @ow x @oh (the original
 * screen), black elsewhere (grown area, or outside the screen). */
static uint32_t screen_px(int32_t x, int32_t y, uint32_t sw, uint32_t sh,
			  uint32_t ow, uint32_t oh)
{
	if (x < 0 || y < 0 || (uint32_t)x >= sw || (uint32_t)y >= sh ||
	    (uint32_t)x >= ow || (uint32_t)y >= oh)
		return 0;
	return mmx_screen_pattern((uint32_t)x, (uint32_t)y);
}

static uint32_t *capture(struct mmx_display *x, uint32_t crtc, uint32_t *w,
			 uint32_t *h)
{
	uint32_t *px = NULL;

	mmx_do(mmx_capture(x, crtc, w, h, &px));
	mmx_assert(px);
	return px;
}

/*
 * Capture @name and compare every pixel with the screen (pattern in the
 * first @ow x @oh of a @sw x @sh screen) seen through @map from the CRTC's
 * position.
 */
static void check_picture(struct mmx_display *x, const char *name, map_fn map,
			  uint32_t ow, uint32_t oh, const char *what)
{
	struct mmx_state *s = snap(x);
	const struct mmx_crtc_info *c = crtc_of(s, name);
	uint32_t w, h, u, v, bad = 0;
	uint32_t *px = capture(x, c->id, &w, &h);

	mmx_assert_eq(w, c->mode.width);
	mmx_assert_eq(h, c->mode.height);
	for (v = 0; v < h; v++) {
		for (u = 0; u < w; u++) {
			int32_t sx, sy;
			uint32_t want, got = px[v * w + u] & 0xffffff;

			map(u, v, w, h, &sx, &sy);
			want = screen_px(c->x + sx, c->y + sy, screen_width(s),
					 screen_height(s), ow, oh);
			if (got == want)
				continue;
			if (bad++ < 5)
				mmx_info("%s: %s pixel (%u,%u) = %06x, want %06x (screen %d,%d)",
					 what, name, u, v, got, want,
					 c->x + sx, c->y + sy);
		}
	}
	free(px);
	mmx_assert_f(!bad, "%s: %u of %u pixels of %s differ", what, bad,
		     w * h, name);
	mmx_state_free(s);
}

/* Framebuffers the device has (debugfs). */
static int fb_count(struct mmx_dev *d)
{
	char path[200], *buf, *p;
	int n = 0, len;

	snprintf(path, sizeof(path), "%s/framebuffer", d->debugfs);
	buf = malloc(1 << 16);
	mmx_assert(buf);
	len = mmx_read_file(path, buf, 1 << 16);
	mmx_assert_f(len >= 0, "%s: %s", path, strerror(-len));
	for (p = buf; (p = strstr(p, "framebuffer[")); p++)
		n++;
	free(buf);
	return n;
}

static const struct mmx_property *prop(const struct mmx_state *s,
				       const char *out, const char *name)
{
	const struct mmx_property *p = mmx_output_property(output(s, out),
							   name);

	mmx_assert_f(p, "%s has no property %s", out, name);
	return p;
}

static const char *enum_name(const struct mmx_property *p)
{
	uint32_t i;

	for (i = 0; i < p->nenum; i++)
		if (p->enums[i].value == p->value)
			return p->enums[i].name;
	return "(none)";
}

/* Two snapshots of the same state are byte-identical. */
static void assert_same_state(const struct mmx_state *a,
			      const struct mmx_state *b, const char *what)
{
	uint32_t aw, ah, bw, bh, i;
	uint32_t amin[2], bmin[2], amax[2], bmax[2];
	int32_t ax, ay, bx, by;
	bool same;

	mmx_state_screen_size(a, &aw, &ah);
	mmx_state_screen_size(b, &bw, &bh);
	mmx_state_pointer(a, &ax, &ay);
	mmx_state_pointer(b, &bx, &by);
	mmx_state_min_size(a, &amin[0], &amin[1]);
	mmx_state_min_size(b, &bmin[0], &bmin[1]);
	mmx_state_max_size(a, &amax[0], &amax[1]);
	mmx_state_max_size(b, &bmax[0], &bmax[1]);
	same = mmx_state_flags(a) == mmx_state_flags(b) &&
		mmx_state_pan_mode(a) == mmx_state_pan_mode(b) &&
		!strcmp(mmx_state_driver(a), mmx_state_driver(b)) &&
		mmx_state_timestamp(a) == mmx_state_timestamp(b) &&
		mmx_state_config_timestamp(a) ==
			mmx_state_config_timestamp(b) &&
		aw == bw && ah == bh && ax == bx && ay == by &&
		!memcmp(amin, bmin, sizeof(amin)) &&
		!memcmp(amax, bmax, sizeof(amax)) &&
		mmx_state_primary(a) == mmx_state_primary(b) &&
		mmx_state_noutputs(a) == mmx_state_noutputs(b) &&
		mmx_state_ncrtcs(a) == mmx_state_ncrtcs(b);
	/* the content, arrays and strings included (not their addresses) */
	for (i = 0; same && i < mmx_state_noutputs(a); i++)
		same = !t_output_same(mmx_state_output_at(a, i),
				      mmx_state_output_at(b, i), i);
	for (i = 0; same && i < mmx_state_ncrtcs(a); i++)
		same = !t_crtc_same(mmx_state_crtc_at(a, i),
				    mmx_state_crtc_at(b, i), i);
	mmx_assert_f(same, "%s: the libmmx snapshot changed", what);
}

/* ------------------------------------------------------------------------ */
/* names                                                                    */

static void test_names(struct mmx_dev *d)
{
	struct mmx_display *x = NULL;
	struct mmx_state *s = NULL;
	const struct mmx_output_info *e, *v;
	const struct mmx_property *p;
	struct mmx_config *cfg = new_config();
	struct mmx_error err = { 0 };
	uint32_t i, j;
	int ret;

	mmx_require(d->n_outputs == 2);
	clean_transforms(d);
	/* no mmxd runs: NULL falls back to the first KMS device */
	setenv("MMX_SOCKET", "/tmp/no-mmxd.sock", 1);
	mmx_do(mmx_open(NULL, &x));
	mmx_assert(!mmx_is_remote(x));
	mmx_do(mmx_get_screen_resources_current(x, &s));
	mmx_assert_eq_str(mmx_state_driver(s), "mmx");
	mmx_assert_eq(mmx_state_flags(s) &
		      (MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		       MMX_STATE_WRITEBACK | MMX_STATE_REMOTE),
		      MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		      MMX_STATE_WRITEBACK);
	/* writeback connectors are not outputs */
	mmx_assert_eq(mmx_state_noutputs(s), 2);
	mmx_assert_eq(mmx_state_ncrtcs(s), 2);
	e = output(s, "eDP-1");
	v = output(s, "VGA-1");
	mmx_assert_eq(e->connection, MMX_CONNECTED);
	mmx_assert_eq(v->connection, MMX_CONNECTED);
	mmx_assert_eq_str(enum_name(prop(s, "eDP-1", "ConnectorType")),
			  "Panel");
	mmx_assert_eq_str(enum_name(prop(s, "VGA-1", "ConnectorType")),
			  "VGA");
	p = prop(s, "VGA-1", "ConnectorType");
	mmx_assert_eq(p->flags, MMX_PROP_IMMUTABLE);	/* mmx's, not synthetic */
	mmx_assert_neq(p->id, 0);
	mmx_assert_eq(prop(s, "eDP-1", "ConnectorNumber")->value, 1);
	mmx_assert_eq(prop(s, "eDP-1", "EDID")->type, MMX_PROP_BLOB);
	mmx_assert_gte(prop(s, "eDP-1", "EDID")->blob_len, 128);
	mmx_assert_eq(prop(s, "eDP-1", "DPMS")->type, MMX_PROP_ENUM);
	mmx_assert_eq(prop(s, "VGA-1", "SignalFormat")->type, MMX_PROP_ENUM);
	mmx_assert(!mmx_output_property(e, "CRTC_ID"));
	/* modes: preferred first, unique ids per timings, WxH names */
	for (i = 0; i < mmx_state_noutputs(s); i++) {
		const struct mmx_output_info *o = mmx_state_output_at(s, i);

		mmx_assert_gte(o->npreferred, 1);
		mmx_assert_gte(o->nmode, 1);
		mmx_assert(o->modes[0].type & DRM_MODE_TYPE_PREFERRED);
		/* any encoder drives any CRTC */
		mmx_assert_eq(o->ncrtc, mmx_state_ncrtcs(s));
		for (j = 0; j < o->nmode; j++) {
			const struct mmx_mode *m = &o->modes[j];
			char name[MMX_MODE_NAME_LEN];
			uint32_t k, l;

			snprintf(name, sizeof(name), "%ux%u%s", m->width,
				 m->height,
				 (m->flags & DRM_MODE_FLAG_INTERLACE) ? "i" : "");
			mmx_assert_eq_str(m->name, name);
			mmx_assert_neq(m->id, 0);
			mmx_assert_gt(m->refresh_mhz, 20000);
			for (k = 0; k < mmx_state_noutputs(s); k++) {
				const struct mmx_output_info *ok =
					mmx_state_output_at(s, k);

				for (l = 0; l < ok->nmode; l++) {
					const struct mmx_mode *n =
						&ok->modes[l];
					bool same = n->clock == m->clock &&
						n->width == m->width &&
						n->height == m->height &&
						n->htotal == m->htotal &&
						n->vtotal == m->vtotal &&
						n->hsync_start == m->hsync_start &&
						n->hsync_end == m->hsync_end &&
						n->vsync_start == m->vsync_start &&
						n->vsync_end == m->vsync_end &&
						n->flags == m->flags;

					mmx_assert_f(same == (n->id == m->id),
						     "%s mode %s id %u vs %s mode %s id %u",
						     o->name, m->name, m->id,
						     ok->name,
						     n->name, n->id);
				}
			}
		}
	}
	for (i = 0; i < mmx_state_ncrtcs(s); i++)
		mmx_assert_eq(mmx_state_crtc_at(s, i)->rotations, 0x3f);
	/* this second client is not DRM master: changes are refused */
	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	ret = mmx_apply(x, cfg, &err);
	mmx_info("non-master apply: %d: %s", ret, err.message);
	mmx_assert_eq(ret, -EACCES);
	mmx_assert(strstr(err.message, "master"));
	mmx_state_free(s);
	mmx_close(x);
	mmx_config_free(cfg);
}

/* ------------------------------------------------------------------------ */
/* probe-current                                                            */

static void sink(struct mmx_dev *d, const char *out, const char *preset)
{
	char path[300];

	snprintf(path, sizeof(path), "%s/%s/mmx_sink", d->debugfs, out);
	mmx_do(mmx_write_file(path, preset));
}

/* EDID blocks read over OUT's simulated DDC channel (debugfs mmx_ddc). */
static uint64_t ddc_blocks(struct mmx_dev *d, const char *out)
{
	char path[300], buf[256];
	unsigned long long detects, blocks;
	int n;

	snprintf(path, sizeof(path), "%s/%s/mmx_ddc", d->debugfs, out);
	n = mmx_read_file(path, buf, sizeof(buf));
	mmx_assert_f(n > 0, "reading %s: %s", path,
		     n ? strerror(-n) : "empty");
	mmx_assert_f(sscanf(buf, "detects %llu edid_blocks %llu", &detects,
			    &blocks) == 2, "%s: %s", path, buf);
	return blocks;
}

static void test_probe_current(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_state *s;
	uint64_t t0, t_probe = 0, t_cur = 0, e0, v0, e1, v1;
	int attempt;

	/*
	 * A probe reads both outputs' EDIDs over the simulated DDC channel
	 * (counted in mmx_ddc, not slept); a snapshot reads nothing. The
	 * times are reported only.
	 */
	mmx_do(mmx_get_screen_resources(x, &s));
	mmx_state_free(s);
	e0 = ddc_blocks(d, "eDP-1");
	v0 = ddc_blocks(d, "VGA-1");
	t0 = (uint64_t)mmx_now_ns();
	mmx_do(mmx_get_screen_resources(x, &s));
	t_probe = (uint64_t)mmx_now_ns() - t0;
	mmx_assert_gte(mmx_state_config_timestamp(s), t0);
	mmx_state_free(s);
	e1 = ddc_blocks(d, "eDP-1");
	v1 = ddc_blocks(d, "VGA-1");
	mmx_info("a probe read %llu + %llu DDC blocks",
		 (unsigned long long)(e1 - e0), (unsigned long long)(v1 - v0));
	/* each: the detection's presence check, then an EDID of 1 block */
	mmx_assert_gte(e1 - e0, 2);
	mmx_assert_gte(v1 - v0, 2);
	e0 = e1;
	t0 = (uint64_t)mmx_now_ns();
	s = snap(x);
	t_cur = (uint64_t)mmx_now_ns() - t0;
	mmx_assert_lt(mmx_state_config_timestamp(s), t0);	/* no probe */
	mmx_state_free(s);
	/* eDP has HPD: nobody but a probe reads its DDC */
	mmx_assert_eq_u64(ddc_blocks(d, "eDP-1"), e0);
	mmx_info("probe %.2f ms, current %.2f ms", t_probe / 1e6,
		 t_cur / 1e6);

	/* VGA is polled: unplugging shows only in a probing snapshot */
	for (attempt = 0; attempt < 3; attempt++) {
		bool seen;

		sink(d, "VGA-1", "none");
		s = snap(x);
		seen = output(s, "VGA-1")->connection != MMX_CONNECTED;
		mmx_state_free(s);
		if (!seen)
			break;
		mmx_info("the DRM poll helper probed in between: again");
		sink(d, "VGA-1", "vga");
		mmx_do(mmx_get_screen_resources(x, &s));
		mmx_state_free(s);
	}
	mmx_assert_f(attempt < 3, "GetScreenResourcesCurrent probed VGA-1");
	mmx_do(mmx_get_screen_resources(x, &s));
	mmx_assert_eq(output(s, "VGA-1")->connection, MMX_DISCONNECTED);
	mmx_state_free(s);
	sink(d, "VGA-1", "vga");
	mmx_do(mmx_get_screen_resources(x, &s));
	mmx_assert_eq(output(s, "VGA-1")->connection, MMX_CONNECTED);
	mmx_state_free(s);
	disp_close();
}

/* ------------------------------------------------------------------------ */
/* mode-capture                                                             */

static void test_mode_capture(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_config *cfg = new_config();
	struct mmx_state *s;
	const struct mmx_crtc_info *c;
	int fbs = fb_count(d);

	mmx_require(d->n_outputs >= 2);
	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	light(x, cfg, "VGA-1", 320, 0);
	mmx_config_set_primary(cfg, output_id(x, "VGA-1"));
	apply(x, cfg);
	s = snap(x);
	/* the screen: the bounding box of the two CRTCs */
	mmx_assert_eq(screen_width(s), 640);
	mmx_assert_eq(screen_height(s), 240);
	mmx_assert_eq(mmx_state_primary(s), output_id(x, "VGA-1"));
	mmx_assert(output(s, "VGA-1")->primary);
	mmx_assert(!output(s, "eDP-1")->primary);
	c = crtc_of(s, "VGA-1");
	mmx_assert_eq(c->x, 320);
	mmx_assert_eq(c->y, 0);
	mmx_assert_eq(c->width, 320);
	mmx_assert_eq(c->height, 240);
	mmx_assert_eq(c->rotation, MMX_ROTATE_0);
	mmx_assert_eq(c->mode.width, 320);
	mmx_assert(c->current.identity);
	mmx_assert_eq(c->noutput, 1);
	mmx_assert_eq(fb_count(d), fbs + 1);	/* one screen framebuffer */
	mmx_state_free(s);
	check_picture(x, "eDP-1", map_identity, ~0u, ~0u, "eDP-1 at 0,0");
	check_picture(x, "VGA-1", map_identity, ~0u, ~0u, "VGA-1 at 320,0");

	/* off: the CRTC goes dark, the other keeps its picture */
	mmx_config_reset(cfg);
	mmx_config_output(cfg, output_id(x, "VGA-1"))->flags = MMX_CHANGE_OFF;
	apply(x, cfg);
	s = snap(x);
	mmx_assert_eq(output(s, "VGA-1")->crtc, 0);
	mmx_assert_eq(screen_width(s), 320);	/* shrinks to the lit CRTC */
	mmx_state_free(s);
	check_picture(x, "eDP-1", map_identity, ~0u, ~0u, "after VGA off");
	disp_close();
	mmx_assert_eq(fb_count(d), fbs);	/* freed with the display */
	mmx_config_free(cfg);
}

/* ------------------------------------------------------------------------ */
/* rotations and transforms                                                 */

static void rotate(struct mmx_dev *d, uint32_t rotation, map_fn map,
		   uint32_t bw, uint32_t bh, const char *what)
{
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();
	struct mmx_state *s;
	const struct mmx_crtc_info *ci;

	mmx_config_reset(cfg);
	c = light(x, cfg, "eDP-1", 16, 8);
	c->flags |= MMX_CHANGE_ROTATION;
	c->rotation = rotation;
	apply(x, cfg);
	s = snap(x);
	ci = crtc_of(s, "eDP-1");
	mmx_assert_eq(ci->rotation, rotation);
	mmx_assert_eq(ci->width, bw);
	mmx_assert_eq(ci->height, bh);
	mmx_assert(ci->current.identity);	/* rotation is not in it */
	mmx_assert_eq(screen_width(s), 16 + bw);
	mmx_assert_eq(screen_height(s), 8 + bh);
	mmx_state_free(s);
	check_picture(x, "eDP-1", map, ~0u, ~0u, what);
	if (rotation == MMX_ROTATE_90) {
		struct mmx_display *y = NULL;

		/* another handle sees only the kernel's combined matrix:
		 * rotation normal, the matrix as the current transform */
		mmx_do(mmx_open_fd(d->fd, &y));
		s = snap(y);
		ci = crtc_of(s, "eDP-1");
		mmx_assert_eq(ci->rotation, MMX_ROTATE_0);
		mmx_assert(!ci->current.identity);
		mmx_assert(!ci->pending.identity);
		mmx_assert(ci->current.matrix[1] == -1.0 &&
			   ci->current.matrix[3] == 1.0);
		mmx_assert_eq(ci->width, bw);
		mmx_assert_eq(ci->height, bh);
		mmx_assert_eq(ci->x, 16);
		mmx_assert_eq(ci->y, 8);
		mmx_state_free(s);
		mmx_close(y);
	}
	disp_done(cfg);
}

static void test_rotate_left(struct mmx_dev *d)
{
	rotate(d, MMX_ROTATE_90, map_left, 240, 320, "left");
}

static void test_rotate_inverted(struct mmx_dev *d)
{
	rotate(d, MMX_ROTATE_180, map_inverted, 320, 240, "inverted");
}

static void test_reflect_x(struct mmx_dev *d)
{
	rotate(d, MMX_ROTATE_0 | MMX_REFLECT_X, map_reflect_x, 320, 240,
	       "reflect x");
}

static void test_scale_nearest(struct mmx_dev *d)
{
	static const double scale2[9] = { 2, 0, 0, 0, 2, 0, 0, 0, 1 };
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();
	struct mmx_state *s, *s2;
	const struct mmx_crtc_info *ci;
	uint32_t edp = output_id(x, "eDP-1");

	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	apply(x, cfg);

	/* pending only: recorded, nothing shown */
	mmx_config_reset(cfg);
	mmx_config_set_flags(cfg, MMX_CONFIG_PENDING_ONLY);
	c = mmx_config_output(cfg, edp);
	c->flags = MMX_CHANGE_TRANSFORM;
	memcpy(c->transform.matrix, scale2, sizeof(scale2));
	c->transform.filter = "fast";
	apply(x, cfg);
	s = snap(x);
	ci = crtc_of(s, "eDP-1");
	mmx_assert(ci->current.identity);
	mmx_assert(!ci->pending.identity);
	mmx_assert(ci->pending.matrix[0] == 2.0 && ci->pending.matrix[4] == 2.0);
	mmx_assert_eq_str(ci->pending.filter, "nearest");	/* fast */
	mmx_assert_eq(ci->width, 320);
	mmx_state_free(s);
	check_picture(x, "eDP-1", map_identity, ~0u, ~0u, "pending only");

	/* the next configuration makes it current (RandR SetCrtcConfig) */
	mmx_config_reset(cfg);
	move_output(cfg, edp, 0, 0);
	apply(x, cfg);
	s = snap(x);
	ci = crtc_of(s, "eDP-1");
	mmx_assert(!ci->current.identity);
	mmx_assert(ci->current.matrix[0] == 2.0 &&
		   ci->current.matrix[4] == 2.0 && ci->current.matrix[8] == 1.0);
	mmx_assert_eq_str(ci->current.filter, "nearest");
	mmx_assert_eq(ci->width, 640);
	mmx_assert_eq(ci->height, 480);
	mmx_assert_eq(screen_width(s), 640);
	mmx_assert_eq(screen_height(s), 480);
	/* the screen grew from 320x240: the rest of it is black */
	check_picture(x, "eDP-1", map_scale2, 320, 240, "2x nearest");

	/* SetCrtcTransform records a pending transform ("good" is
	 * bilinear); an empty config makes it current */
	mmx_assert_eq(mmx_set_crtc_transform(x, edp, scale2, "good", NULL), 0);
	s2 = snap(x);
	ci = crtc_of(s2, "eDP-1");
	mmx_assert_eq_str(ci->pending.filter, "bilinear");
	mmx_assert_eq_str(ci->current.filter, "nearest");
	mmx_state_free(s2);
	mmx_config_reset(cfg);
	apply(x, cfg);
	s2 = snap(x);
	ci = crtc_of(s2, "eDP-1");
	mmx_assert_eq_str(ci->current.filter, "bilinear");
	mmx_assert_eq(ci->width, 640);
	mmx_state_free(s2);
	mmx_state_free(s);
	disp_done(cfg);
}

/* ------------------------------------------------------------------------ */
/* screen-resize                                                            */

static void test_screen_resize(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_config *cfg = new_config();
	struct mmx_error err = { 0 };
	struct mmx_state *s;
	uint32_t edp = output_id(x, "eDP-1");
	int fbs = fb_count(d), ret;

	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	apply(x, cfg);
	mmx_assert_eq(fb_count(d), fbs + 1);
	check_picture(x, "eDP-1", map_identity, ~0u, ~0u, "before");

	/* grow: same picture, one framebuffer (the old one freed) */
	ret = mmx_set_screen_size(x, 1024, 768, &err);
	mmx_assert_f(!ret, "%d: %s", ret, err.message);
	s = snap(x);
	mmx_assert_eq(screen_width(s), 1024);
	mmx_assert_eq(screen_height(s), 768);
	mmx_state_free(s);
	mmx_assert_eq(fb_count(d), fbs + 1);
	check_picture(x, "eDP-1", map_identity, 320, 240, "grown");

	/* the grown area is black: move there (keeping the size) */
	mmx_config_reset(cfg);
	mmx_config_set_screen_size(cfg, 1024, 768);
	move_output(cfg, edp, 160, 120);
	apply(x, cfg);
	check_picture(x, "eDP-1", map_identity, 320, 240, "grown, moved");

	/* shrink to 400x300: the content at the origin stays */
	mmx_config_reset(cfg);
	mmx_config_set_screen_size(cfg, 400, 300);
	move_output(cfg, edp, 80, 60);
	apply(x, cfg);
	mmx_assert_eq(fb_count(d), fbs + 1);
	check_picture(x, "eDP-1", map_identity, 320, 240, "shrunk");
	disp_close();
	mmx_assert_eq(fb_count(d), fbs);
	mmx_config_free(cfg);
}

/* ------------------------------------------------------------------------ */
/* panning                                                                  */

static void set_pan(struct mmx_output_change *c, uint32_t w, uint32_t h,
		    uint32_t l, uint32_t t)
{
	c->flags |= MMX_CHANGE_PANNING;
	memset(&c->panning, 0, sizeof(c->panning));
	c->panning.width = w;
	c->panning.height = h;
	c->panning.left = l;
	c->panning.top = t;
}

static void expect_pos(struct mmx_display *x, const char *name, int32_t px,
		       int32_t py)
{
	struct mmx_state *s = snap(x);
	const struct mmx_crtc_info *c = crtc_of(s, name);

	mmx_assert_f(c->x == px && c->y == py, "%s at (%d,%d), want (%d,%d)",
		     name, c->x, c->y, px, py);
	mmx_state_free(s);
}

/* The cases of tests/unit/test_lib_pan_screen.c, on the device. */
static void test_panning(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_config *cfg = new_config();
	struct mmx_state *s;
	const struct mmx_crtc_info *c;
	int32_t px, py;

	mmx_require(d->n_outputs >= 2);
	mmx_config_reset(cfg);
	set_pan(light(x, cfg, "eDP-1", 0, 0), 640, 480, 0, 0);
	set_pan(light(x, cfg, "VGA-1", 640, 0), 640, 480, 640, 0);
	apply(x, cfg);
	s = snap(x);
	mmx_assert_eq(screen_width(s), 1280);
	mmx_assert_eq(screen_height(s), 480);
	mmx_assert_eq(mmx_state_pan_mode(s), MMX_PAN_INDEPENDENT);
	c = crtc_of(s, "VGA-1");
	mmx_assert_eq(c->panning.width, 640);
	mmx_assert_eq(c->panning.left, 640);
	mmx_state_free(s);

	/* independent: eDP pans to 400 - 320 + 1, VGA stays */
	mmx_do(mmx_pointer_moved(x, 400, 100));
	expect_pos(x, "eDP-1", 81, 0);
	expect_pos(x, "VGA-1", 640, 0);
	s = snap(x);
	mmx_state_pointer(s, &px, &py);
	mmx_assert_eq(px, 400);
	mmx_assert_eq(py, 100);
	mmx_state_free(s);
	check_picture(x, "eDP-1", map_identity, ~0u, ~0u, "panned to 81");
	/* on VGA at (950, 230): eDP alone pans to 639 - 320 + 1 */
	mmx_do(mmx_pointer_moved(x, 950, 230));
	expect_pos(x, "eDP-1", 320, 0);
	expect_pos(x, "VGA-1", 640, 0);

	/* joint, from (0,0) and (640,0) again */
	mmx_config_reset(cfg);
	mmx_config_set_pan_mode(cfg, MMX_PAN_JOINT);
	light(x, cfg, "eDP-1", 0, 0);
	light(x, cfg, "VGA-1", 640, 0);
	apply(x, cfg);
	expect_pos(x, "eDP-1", 0, 0);
	mmx_do(mmx_pointer_moved(x, 400, 100));
	expect_pos(x, "eDP-1", 81, 0);
	expect_pos(x, "VGA-1", 721, 0);
	check_picture(x, "VGA-1", map_identity, ~0u, ~0u, "joint 721");
	/* on VGA (now at 721): (1000, 230) is inside it: no move */
	mmx_do(mmx_pointer_moved(x, 1000, 230));
	expect_pos(x, "eDP-1", 81, 0);
	expect_pos(x, "VGA-1", 721, 0);
	/* down: eDP (not containing it) leads: 300 - 240 + 1 */
	mmx_do(mmx_pointer_moved(x, 100, 300));
	expect_pos(x, "eDP-1", 81, 61);
	expect_pos(x, "VGA-1", 721, 61);
	disp_done(cfg);
}

static void test_panning_rotated(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();

	mmx_config_reset(cfg);
	c = light(x, cfg, "eDP-1", 0, 0);
	c->flags |= MMX_CHANGE_ROTATION;
	c->rotation = MMX_ROTATE_90;
	set_pan(c, 480, 640, 0, 0);
	apply(x, cfg);
	/* test_lib_pan_screen's pan-rotation: (300, 10) -> (60, 0);
	 * (100 + 60, 400) -> (60, 81) */
	mmx_do(mmx_pointer_moved(x, 300, 10));
	expect_pos(x, "eDP-1", 60, 0);
	mmx_do(mmx_pointer_moved(x, 160, 400));
	expect_pos(x, "eDP-1", 60, 81);
	check_picture(x, "eDP-1", map_left, ~0u, ~0u, "left, panned");
	disp_done(cfg);
}

/* ------------------------------------------------------------------------ */
/* ioctls per pointer motion                                                */

static bool g_counting;
static int g_count_fd = -1;
static unsigned int g_ioctls;

/*
 * Every ioctl() of this process comes here: libdrm's calls into the C
 * library bind to the executable's definition. While counting, the DRM
 * ioctls on the device are counted; all are passed on unchanged.
 */
int ioctl(int fd, unsigned long request, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, request);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (g_counting && fd == g_count_fd &&
	    _IOC_TYPE(request) == DRM_IOCTL_BASE)
		g_ioctls++;
	return (int)syscall(SYS_ioctl, fd, request, arg);
}

/* DRM ioctls of one mmx_pointer_moved() (which must succeed). */
static unsigned int motion_ioctls(struct mmx_dev *d, struct mmx_display *x,
				  int32_t px, int32_t py)
{
	int ret;

	g_ioctls = 0;
	g_count_fd = d->fd;
	g_counting = true;
	ret = mmx_pointer_moved(x, px, py);
	g_counting = false;
	mmx_do(ret);
	return g_ioctls;
}

/* The cost of panning: one atomic commit per motion once libmmx knows. */
static void test_motion_ioctls(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_output *o = NULL;
	struct mmx_state *s;
	struct mmx_config *cfg = new_config();
	unsigned int first, n;
	struct mmx_req *r;
	uint32_t vga;
	int i;

	mmx_require(d->n_outputs >= 2);
	mmx_config_reset(cfg);
	mmx_config_set_pan_mode(cfg, MMX_PAN_JOINT);
	set_pan(light(x, cfg, "eDP-1", 0, 0), 640, 480, 0, 0);
	set_pan(light(x, cfg, "VGA-1", 640, 0), 640, 480, 640, 0);
	apply(x, cfg);

	/* both CRTCs pan (joint); the first motion reads the kernel */
	first = motion_ioctls(d, x, 400, 100);
	mmx_assert(first > 0);
	n = motion_ioctls(d, x, 100, 300);
	printf("ioctls per motion: %u (first after the configuration: %u)\n",
	       n, first);
	expect_pos(x, "eDP-1", 81, 61);
	expect_pos(x, "VGA-1", 721, 61);
	mmx_assert_f(n <= 3, "%u ioctls for one motion of two CRTCs", n);
	/* after a snapshot: back up */
	n = motion_ioctls(d, x, 0, 0);
	expect_pos(x, "eDP-1", 0, 0);
	expect_pos(x, "VGA-1", 640, 0);
	mmx_assert_f(n <= 3, "%u ioctls for one motion of two CRTCs", n);

	/*
	 * VGA turned off behind libmmx's back: the commit from memory is
	 * refused, libmmx reads the kernel and pans eDP alone, and leaves
	 * VGA off with its plane detached.
	 */
	s = snap(x);
	vga = crtc_of(s, "VGA-1")->id;
	mmx_state_free(s);
	for (i = 0; i < d->n_outputs && !o; i++)
		if (d->out[i].crtc_id == vga)
			o = &d->out[i];
	mmx_assert(o && o->primary);
	r = mmx_req_new(d);
	mmx_req_output_off(r, o);
	mmx_req_add(r, o->primary, "FB_ID", 0);
	mmx_req_add(r, o->primary, "CRTC_ID", 0);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	n = motion_ioctls(d, x, 400, 100);
	printf("ioctls for the motion after VGA went off: %u\n", n);
	mmx_assert_eq(mmx_prop_get(d, vga, "ACTIVE"), 0);
	mmx_assert_eq(mmx_prop_get(d, o->primary, "CRTC_ID"), 0);
	mmx_assert_eq(mmx_prop_get(d, o->primary, "FB_ID"), 0);
	expect_pos(x, "eDP-1", 81, 0);
	disp_done(cfg);
}

/* ------------------------------------------------------------------------ */
/* properties                                                               */

static void test_properties(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_state *s, *s2;
	struct mmx_error err = { 0 };
	const struct mmx_property *p;
	const struct mmx_output_info *o = NULL;
	uint32_t i, j, other = 0;
	char before[64];
	int ret;

	/* SignalFormat: an output with a choice (DVI-I) switches and back */
	s = snap(x);
	for (i = 0; i < mmx_state_noutputs(s) && !o; i++) {
		p = mmx_output_property(mmx_state_output_at(s, i),
					"SignalFormat");
		if (p && p->nenum >= 2)
			o = mmx_state_output_at(s, i);
	}
	if (o) {
		p = mmx_output_property(o, "SignalFormat");
		snprintf(before, sizeof(before), "%s", enum_name(p));
		for (j = 0; j < p->nenum; j++)
			if (p->enums[j].value != p->value)
				other = j;
		ret = mmx_set_output_property(x, o->id, "SignalFormat",
					      p->enums[other].name, &err);
		mmx_assert_f(!ret, "%d: %s", ret, err.message);
		s2 = snap(x);
		mmx_assert_eq_str(enum_name(prop(s2, o->name,
						 "SignalFormat")),
				  p->enums[other].name);
		mmx_state_free(s2);
		mmx_info("%s: SignalFormat %s -> %s -> %s", o->name, before,
			 p->enums[other].name, before);
		mmx_do(mmx_set_output_property(x, o->id, "SignalFormat",
					       before, NULL));
		s2 = snap(x);
		mmx_assert_eq_str(enum_name(prop(s2, o->name,
						 "SignalFormat")), before);
		mmx_state_free(s2);
	} else {
		mmx_info("no output with a SignalFormat choice in this boot");
	}

	/*
	 * SignalProperties (an enum of attribute sets) on eDP (DisplayPort):
	 * round trip; the value is the set, lane count and rate as bits
	 * (uAPI header: Lane2 is bit 27, LowSpeed bit 29)
	 */
	o = mmx_state_output_by_name(s, "eDP-1");
	if (o) {
		ret = mmx_set_output_property(x, o->id, "SignalProperties",
					      "Lane2+LowSpeed", &err);
		mmx_assert_f(!ret, "%d: %s", ret, err.message);
		s2 = snap(x);
		p = prop(s2, "eDP-1", "SignalProperties");
		mmx_assert_eq(p->type, MMX_PROP_ENUM);
		mmx_assert_eq_str(enum_name(p), "Lane2+LowSpeed");
		mmx_assert_eq_u64(p->value, (1ull << 27) | (1ull << 29));
		mmx_state_free(s2);
		/* two lane counts: no such value, nothing changes */
		s2 = snap(x);
		ret = mmx_set_output_property(x, o->id, "SignalProperties",
					      "Lane1+Lane2", &err);
		mmx_info("Lane1+Lane2: %d: %s", ret, err.message);
		mmx_assert_eq(ret, -EINVAL);
		mmx_assert(strstr(err.message, "eDP-1"));
		mmx_state_free(s);
		s = snap(x);
		assert_same_state(s, s2, "two lane counts");
		mmx_state_free(s2);
		mmx_do(mmx_set_output_property(x, o->id, "SignalProperties",
					       "Lane4+HiSpeed", NULL));
	}

	/* refused by libmmx: unknown values and names, immutable
	 * properties; nothing changes */
	o = mmx_state_output_at(s, 0);
	s2 = snap(x);
	ret = mmx_set_output_property(x, o->id, "SignalFormat", "Bogus", &err);
	mmx_info("SignalFormat Bogus: %d: %s", ret, err.message);
	/* a single-format SignalFormat is immutable */
	p = mmx_output_property(o, "SignalFormat");
	mmx_assert_eq(ret, p && (p->flags & MMX_PROP_IMMUTABLE) ? -EPERM :
			   -EINVAL);
	mmx_assert(strstr(err.message, o->name));
	ret = mmx_set_output_property(x, o->id, "ConnectorType", "HDMI", &err);
	mmx_info("ConnectorType: %d: %s", ret, err.message);
	mmx_assert_eq(ret, -EPERM);
	mmx_assert(strstr(err.message, "immutable"));
	ret = mmx_set_output_property(x, o->id, "NoSuchProperty", "1", &err);
	mmx_assert_eq(ret, -EINVAL);
	ret = mmx_set_output_property(x, o->id, "EDID", "1", &err);
	mmx_assert(ret == -EPERM || ret == -EOPNOTSUPP);
	mmx_state_free(s);
	s = snap(x);
	assert_same_state(s, s2, "refused properties");
	mmx_state_free(s);
	mmx_state_free(s2);
	disp_close();
}

/* ------------------------------------------------------------------------ */
/* link-good                                                                */

/* @name's link-status in a fresh snapshot. */
static uint64_t link_of(struct mmx_display *x, const char *name)
{
	struct mmx_state *s = snap(x);
	uint64_t v = prop(s, name, "link-status")->value;

	mmx_state_free(s);
	return v;
}

/*
 * A sink change makes the lit mode impossible: the driver sets link-status
 * Bad and leaves the CRTC lit. libmmx, as a well-mannered master, sets the
 * link Good again with the next configuration that lights the output (one
 * that names another output only leaves it Bad): a 640x480 mode, which
 * single-link TMDS carries, is lit and link-status reads Good (the mode
 * alone would leave it Bad).
 */
static void test_link_good(struct mmx_dev *d)
{
	const char *name = "DVI-I-1";
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	const struct mmx_crtc_info *crtc;
	struct mmx_config *cfg = new_config();
	struct mmx_state *s;
	struct mmx_mode big;
	int i;

	s = snap(x);
	mmx_require_f(mmx_state_output_by_name(s, name),
		      "needs %s (connectors=DVI-I,...)", name);
	mmx_state_free(s);

	/* an analog monitor, lit at 200 MHz (VGA carries it) */
	sink(d, name, "vga");
	memset(&big, 0, sizeof(big));
	snprintf(big.name, sizeof(big.name), "640x480");
	big.width = 640;
	big.height = 480;
	big.clock = 200000;
	big.hsync_start = 700;
	big.hsync_end = 760;
	big.htotal = 4000;
	big.vsync_start = 490;
	big.vsync_end = 495;
	big.vtotal = 1100;
	big.flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC;
	mmx_config_reset(cfg);
	c = mmx_config_output(cfg, output_id(x, name));
	mmx_assert(c);
	c->flags |= MMX_CHANGE_MODE | MMX_CHANGE_POS;
	c->mode = big;
	apply(x, cfg);
	mmx_assert_eq_u64(link_of(x, name), DRM_MODE_LINK_STATUS_GOOD);

	/* a digital one: single-link TMDS cannot carry 200 MHz */
	sink(d, name, "dvi");
	for (i = 0; i < 50 && link_of(x, name) != DRM_MODE_LINK_STATUS_BAD;
	     i++)
		usleep(100000);
	mmx_assert_f(link_of(x, name) == DRM_MODE_LINK_STATUS_BAD,
		     "%s: link-status not Bad with 200 MHz on single-link TMDS",
		     name);
	s = snap(x);
	crtc = crtc_of(s, name);
	mmx_assert_eq(crtc->mode.clock, 200000);
	mmx_state_free(s);

	/* a config that does not name it leaves it as it is, link included */
	mmx_config_reset(cfg);
	light(x, cfg, "VGA-1", 640, 0);
	apply(x, cfg);
	mmx_assert_f(link_of(x, name) == DRM_MODE_LINK_STATUS_BAD,
		     "%s: link-status set by a config that did not name it",
		     name);

	/* a mode that fits: lit, and the link is Good again */
	mmx_config_reset(cfg);
	light(x, cfg, name, 0, 0);
	small_mode(&mmx_config_output(cfg, output_id(x, name))->mode, 640,
		   480);
	apply(x, cfg);
	mmx_assert_f(link_of(x, name) == DRM_MODE_LINK_STATUS_GOOD,
		     "%s: link-status still Bad after mmx_apply() lit 640x480",
		     name);
	s = snap(x);
	crtc = crtc_of(s, name);
	mmx_assert_eq(crtc->mode.width, 640);
	mmx_assert_eq(crtc->mode.height, 480);
	mmx_assert_f(crtc->mode.clock < 165000, "%s lit at %u kHz", name,
		     crtc->mode.clock);
	mmx_state_free(s);
	mmx_info("%s: Bad after the digital monitor came, Good with 640x480 through mmx_apply()",
		 name);

	mmx_config_reset(cfg);
	mmx_config_output(cfg, output_id(x, name))->flags = MMX_CHANGE_OFF;
	apply(x, cfg);
	disp_done(cfg);
}

/* ------------------------------------------------------------------------ */
/* bad-configs, test-only                                                   */

/* Apply @cfg, expect -@e and a message naming @needle; nothing changes. */
static void refused(struct mmx_dev *d, struct mmx_display *x,
		    const struct mmx_config *cfg, int e, const char *needle,
		    const char *what)
{
	struct mmx_snapshot kms;
	struct mmx_state *a = snap(x), *b;
	struct mmx_error err = { 0 };
	int fbs = fb_count(d), ret;

	mmx_snapshot_take(d, &kms);
	ret = mmx_apply(x, cfg, &err);
	mmx_info("%s: %d: %s", what, ret, err.message);
	mmx_assert_f(ret == -e, "%s: got %d (%s), want %d", what, ret,
		     err.message, -e);
	mmx_assert_eq(err.err, -e);
	mmx_assert_f(!needle || strstr(err.message, needle),
		     "%s: message \"%s\" lacks \"%s\"", what, err.message,
		     needle);
	b = snap(x);
	assert_same_state(a, b, what);
	mmx_assert_unchanged(d, &kms);
	mmx_assert_eq(fb_count(d), fbs);
	mmx_snapshot_free(&kms);
	mmx_state_free(a);
	mmx_state_free(b);
}

static void test_bad_configs(struct mmx_dev *d)
{
	static const double zero[9];
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();
	uint32_t edp = output_id(x, "eDP-1"), vga = output_id(x, "VGA-1");

	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	apply(x, cfg);

	/* a mode the DisplayPort link cannot carry */
	mmx_config_reset(cfg);
	c = light(x, cfg, "eDP-1", 0, 0);
	small_mode(&c->mode, 4000, 3000);
	refused(d, x, cfg, EINVAL, "eDP-1: mode 4000x3000 refused",
		"4000x3000");
	/* two outputs, the second one bad: the first is not lit either */
	light(x, cfg, "VGA-1", 4000, 0);
	c = mmx_config_output(cfg, edp);
	small_mode(&c->mode, 320, 240);
	c = mmx_config_output(cfg, vga);
	c->flags |= MMX_CHANGE_ROTATION;
	c->rotation = MMX_ROTATE_90 | MMX_ROTATE_180;
	refused(d, x, cfg, EINVAL, "VGA-1: bad rotation", "two rotations");

	mmx_config_reset(cfg);
	mmx_config_set_screen_size(cfg, 100000, 100);
	refused(d, x, cfg, EINVAL, "screen size", "screen too large");
	mmx_config_set_screen_size(cfg, 100, 100);
	refused(d, x, cfg, EINVAL, "eDP-1", "screen smaller than the CRTC");

	mmx_config_reset(cfg);
	move_output(cfg, 0xdead, 0, 0);
	refused(d, x, cfg, ENOENT, "no output", "unknown output");

	mmx_config_reset(cfg);
	c = mmx_config_output(cfg, edp);
	c->flags = MMX_CHANGE_TRANSFORM;
	memcpy(c->transform.matrix, zero, sizeof(zero));
	refused(d, x, cfg, EINVAL, "eDP-1", "singular transform");
	c->transform.matrix[0] = c->transform.matrix[4] = 1;
	c->transform.matrix[8] = 1;
	c->transform.filter = "cubic";
	refused(d, x, cfg, EINVAL, "filter", "unknown filter");

	mmx_config_reset(cfg);
	c = mmx_config_output(cfg, edp);
	set_pan(c, 200, 100, 0, 0);	/* smaller than the CRTC */
	refused(d, x, cfg, EINVAL, "panning", "panning too small");

	mmx_config_reset(cfg);
	move_output(cfg, vga, 320, 0);
	refused(d, x, cfg, EINVAL, "needs a mode", "off output moved");

	mmx_config_reset(cfg);
	mmx_config_set_primary(cfg, 0xdead);
	refused(d, x, cfg, EINVAL, "primary", "bad primary");

	mmx_config_reset(cfg);
	move_output(cfg, edp, -5, 0);
	refused(d, x, cfg, EINVAL, "eDP-1", "negative position");
	disp_done(cfg);
}

static void test_test_only(struct mmx_dev *d)
{
	struct mmx_display *x = disp(d);
	struct mmx_output_change *c;
	struct mmx_snapshot kms;
	struct mmx_config *cfg = new_config();
	struct mmx_error err = { 0 };
	struct mmx_state *a, *b;
	int fbs;

	mmx_config_reset(cfg);
	light(x, cfg, "eDP-1", 0, 0);
	apply(x, cfg);
	fbs = fb_count(d);
	a = snap(x);
	mmx_snapshot_take(d, &kms);
	mmx_config_reset(cfg);
	mmx_config_set_screen_size(cfg, 1024, 768);
	mmx_config_set_pan_mode(cfg, MMX_PAN_JOINT);
	mmx_config_set_primary(cfg, output_id(x, "VGA-1"));
	mmx_config_set_flags(cfg, mmx_config_flags(cfg) | MMX_CONFIG_TEST_ONLY);
	light(x, cfg, "VGA-1", 320, 0);
	c = light(x, cfg, "eDP-1", 0, 240);
	c->flags |= MMX_CHANGE_ROTATION;
	c->rotation = MMX_ROTATE_180;
	mmx_assert_eq(mmx_apply(x, cfg, &err), 0);
	b = snap(x);
	assert_same_state(a, b, "TEST_ONLY");
	mmx_assert_unchanged(d, &kms);
	mmx_assert_eq(fb_count(d), fbs);
	/* and a bad one fails as it would for real */
	c->rotation = 0;
	mmx_assert_eq(mmx_apply(x, cfg, &err), -EINVAL);
	mmx_snapshot_free(&kms);
	mmx_state_free(a);
	mmx_state_free(b);
	disp_done(cfg);
}

static const struct mmx_subtest tests[] = {
	{ .name = "names", .desc = "RandR output names, kinds, properties, mode ids, flags; a non-master client cannot change anything",
	  .func = test_names },
	{ .name = "probe-current", .desc = "GetScreenResourcesCurrent never probes (a polled unplug stays unseen, and it reads no EDID over DDC)",
	  .func = test_probe_current },
	{ .name = "mode-capture", .desc = "two outputs lit in one config show mmx_screen_pattern() at their positions; off shrinks the screen",
	  .func = test_mode_capture },
	{ .name = "rotate-left", .desc = "rotation left: writeback pixels follow RandR's matrix",
	  .func = test_rotate_left },
	{ .name = "rotate-inverted", .desc = "rotation inverted: writeback pixels follow RandR's matrix",
	  .func = test_rotate_inverted },
	{ .name = "reflect-x", .desc = "reflection x: writeback pixels follow RandR's matrix",
	  .func = test_reflect_x },
	{ .name = "scale-nearest", .desc = "a 2x transform, pending then current, nearest filter pixels, filter aliases",
	  .func = test_scale_nearest },
	{ .name = "screen-resize", .desc = "resizing the screen keeps the picture, the new area is black, the old framebuffer is freed",
	  .func = test_screen_resize },
	{ .name = "panning", .desc = "independent and joint panning of two CRTCs follow the pointer to the offsets of the unit tests",
	  .func = test_panning },
	{ .name = "panning-rotated", .desc = "panning a rotated CRTC",
	  .func = test_panning_rotated },
	{ .name = "motion-ioctls", .desc = "a pointer motion that pans two CRTCs costs at most 3 DRM ioctls (one atomic commit)",
	  .func = test_motion_ioctls },
	{ .name = "properties", .desc = "SignalFormat and SignalProperties round trips, refused values change nothing",
	  .func = test_properties },
	{ .name = "link-good", .desc = "after a sink change set link-status Bad, mmx_apply() of a mode that fits sets it Good (needs DVI-I)",
	  .func = test_link_good },
	{ .name = "bad-configs", .desc = "refused configurations name the output and the reason and change nothing",
	  .func = test_bad_configs },
	{ .name = "test-only", .desc = "MMX_CONFIG_TEST_ONLY checks and changes nothing",
	  .func = test_test_only },
};

/* ------------------------------------------------------------------------ */
/* --virtio-gpu: the degraded mode on Debian's virtio_gpu driver            */

static struct mmx_display *vdisp(void)
{
	struct mmx_display *x = NULL;

	setenv("MMX_SOCKET", "/tmp/no-mmxd.sock", 1);
	mmx_do(mmx_open(NULL, &x));
	return x;
}

static void vtest_names(void)
{
	struct mmx_display *x = vdisp();
	struct mmx_state *s = NULL;
	const struct mmx_property *p;

	mmx_do(mmx_get_screen_resources(x, &s));
	mmx_info("driver %s, %u outputs, %u CRTCs", mmx_state_driver(s),
		 mmx_state_noutputs(s), mmx_state_ncrtcs(s));
	mmx_assert_eq_str(mmx_state_driver(s), "virtio_gpu");
	mmx_assert_eq(mmx_state_flags(s) &
		      (MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		       MMX_STATE_WRITEBACK), 0);
	mmx_assert(output(s, "Virtual-1")->connection == MMX_CONNECTED);
	mmx_assert_gte(output(s, "Virtual-1")->nmode, 1);
	p = prop(s, "Virtual-1", "ConnectorType");
	mmx_assert_eq(p->flags, MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC);
	mmx_assert_eq(p->type, MMX_PROP_ENUM);
	mmx_assert_eq_str(enum_name(p), "unknown");
	p = prop(s, "Virtual-1", "ConnectorNumber");
	mmx_assert_eq(p->flags, MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC);
	mmx_assert_eq(p->value, 1);
	mmx_assert_eq(prop(s, "Virtual-1", "EDID")->type, MMX_PROP_BLOB);
	mmx_assert(mmx_state_crtc_at(s, 0));
	mmx_assert_eq(mmx_state_crtc_at(s, 0)->rotations, MMX_ROTATE_0);
	mmx_state_free(s);
	mmx_close(x);
}

static void vrefused(struct mmx_display *x, const struct mmx_config *cfg,
		     const char *what)
{
	struct mmx_error err = { 0 };
	struct mmx_state *a = snap(x), *b;
	int ret = mmx_apply(x, cfg, &err);

	mmx_info("%s: %d: %s", what, ret, err.message);
	mmx_assert_eq(ret, -EOPNOTSUPP);
	mmx_assert(strstr(err.message, "virtio_gpu"));
	mmx_assert(strstr(err.message, "Virtual-1"));
	b = snap(x);
	assert_same_state(a, b, what);
	mmx_state_free(a);
	mmx_state_free(b);
}

static void vtest_unsupported(void)
{
	static const double scale2[9] = { 2, 0, 0, 0, 2, 0, 0, 0, 1 };
	struct mmx_display *x = vdisp();
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();
	uint32_t *px = NULL, w, h;
	struct mmx_state *s;
	const struct mmx_crtc_info *c0;
	uint32_t id = output_id(x, "Virtual-1");

	mmx_config_reset(cfg);
	c = light(x, cfg, "Virtual-1", 0, 0);
	c->flags |= MMX_CHANGE_ROTATION;
	c->rotation = MMX_ROTATE_90;
	vrefused(x, cfg, "rotation");
	c->rotation = MMX_ROTATE_0 | MMX_REFLECT_Y;
	vrefused(x, cfg, "reflection");
	c->flags &= ~MMX_CHANGE_ROTATION;
	c->flags |= MMX_CHANGE_TRANSFORM;
	memcpy(c->transform.matrix, scale2, sizeof(scale2));
	vrefused(x, cfg, "transform");
	c->flags &= ~MMX_CHANGE_TRANSFORM;
	c->flags |= MMX_CHANGE_FILTER;
	c->transform.filter = "best";
	vrefused(x, cfg, "filter");
	c->flags &= ~MMX_CHANGE_FILTER;
	set_pan(c, 640, 480, 0, 0);
	vrefused(x, cfg, "panning");

	mmx_assert_eq(mmx_pointer_moved(x, 10, 10), -EOPNOTSUPP);
	s = snap(x);
	c0 = mmx_state_crtc_at(s, 0);
	mmx_assert(c0);
	if (c0->mode_valid)
		mmx_assert_eq(mmx_capture(x, c0->id, &w, &h, &px),
			      -EOPNOTSUPP);
	mmx_assert(!px);
	mmx_state_free(s);
	(void)id;
	mmx_close(x);
	mmx_config_free(cfg);
}

static void vtest_modeset(void)
{
	struct mmx_display *x = vdisp();
	struct mmx_output_change *c;
	struct mmx_config *cfg = new_config();
	struct mmx_state *s;
	const struct mmx_crtc_info *ci;
	const struct mmx_output_info *o;
	uint32_t *px = NULL, w, h;

	s = snap(x);
	o = output(s, "Virtual-1");
	mmx_config_reset(cfg);
	c = mmx_config_output(cfg, o->id);
	c->flags = MMX_CHANGE_MODE | MMX_CHANGE_POS | MMX_CHANGE_ROTATION |
		   MMX_CHANGE_FILTER;
	c->mode = o->modes[0];		/* preferred */
	c->rotation = MMX_ROTATE_0;	/* normal and nearest are fine */
	c->transform.filter = "fast";
	mmx_config_set_primary(cfg, o->id);
	apply(x, cfg);
	mmx_state_free(s);
	s = snap(x);
	ci = crtc_of(s, "Virtual-1");
	mmx_info("Virtual-1 lit at %s", ci->mode.name);
	mmx_assert_eq(ci->mode.width, output(s, "Virtual-1")->modes[0].width);
	mmx_assert_eq(ci->x, 0);
	mmx_assert_eq(ci->width, ci->mode.width);
	mmx_assert_eq(screen_width(s), ci->mode.width);
	mmx_assert_eq(screen_height(s), ci->mode.height);
	mmx_assert_eq(mmx_state_primary(s), output(s, "Virtual-1")->id);
	mmx_assert_eq(mmx_capture(x, ci->id, &w, &h, &px), -EOPNOTSUPP);
	/* off again */
	mmx_config_reset(cfg);
	mmx_config_output(cfg, output(s, "Virtual-1")->id)->flags =
		MMX_CHANGE_OFF;
	apply(x, cfg);
	mmx_state_free(s);
	s = snap(x);
	mmx_assert_eq(output(s, "Virtual-1")->crtc, 0);
	mmx_state_free(s);
	mmx_close(x);
	mmx_config_free(cfg);
}

static const struct {
	const char *name;
	const char *desc;
	void (*func)(void);
} vtests[] = {
	{ "virtio-names", "Virtual-1, synthetic ConnectorType and ConnectorNumber, no mmx flags", vtest_names },
	{ "virtio-unsupported", "rotation, transforms, filters, panning, pointer and capture: -EOPNOTSUPP with a message, nothing changed", vtest_unsupported },
	{ "virtio-modeset", "a mode set with the screen framebuffer works and reads back", vtest_modeset },
};

/* Each subtest in a child: mmx_fail() outside mmx_main exits it with 1. */
static int virtio_main(void)
{
	int passed = 0, failed = 0;
	size_t i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < MMX_ARRAY_SIZE(vtests); i++) {
		int64_t t0 = mmx_now_ns();
		int status = 0;
		pid_t pid;

		printf("Starting subtest: %s\n  intent: %s\n", vtests[i].name,
		       vtests[i].desc);
		fflush(stdout);
		pid = fork();
		if (pid == 0) {
			vtests[i].func();
			exit(0);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			status = 1;
		if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
			passed++;
		} else {
			failed++;
			status = -1;
		}
		printf("Subtest %s: %s (%.3fs)\n", vtests[i].name,
		       status ? "FAIL" : "SUCCESS",
		       (mmx_now_ns() - t0) / 1e9);
	}
	printf("kms_mmx_libmmx --virtio-gpu: %d passed, %d failed, 0 skipped\n",
	       passed, failed);
	return failed ? 1 : 0;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "--virtio-gpu"))
		return virtio_main();
	return mmx_main(argc, argv, "libmmx's local backend", tests,
			MMX_ARRAY_SIZE(tests));
}
