// SPDX-License-Identifier: MIT
/*
 * kms_mmx_basic - device identity, topology against the module parameters,
 * connector modes and modesets checked through GETCRTC and writeback pixels.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mmx_igt.h"
#include "yuv_ref.h"

#define NO_FLAGS 0

static void for_each_output_check(struct mmx_dev *d)
{
	int i;

	mmx_assert_gt(d->n_outputs, 0);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];

		mmx_assert_f(o->conn_id && o->primary && o->wb_conn_id,
			     "output %d: connector %u primary %u writeback %u",
			     i, o->conn_id, o->primary, o->wb_conn_id);
	}
}

/* ------------------------------------------------------------------------ */

static void test_driver_name(struct mmx_dev *d)
{
	drmVersionPtr v = drmGetVersion(d->fd);
	char path[256], buf[256];
	struct stat st;
	int n;

	mmx_assert(v);
	mmx_info("driver %s %d.%d.%d (%s, %s)", v->name, v->version_major,
		 v->version_minor, v->version_patchlevel, v->date, v->desc);
	mmx_assert_eq_str(v->name, "mmx");
	drmFreeVersion(v);

	mmx_assert_f(!stat("/sys/module/mmx", &st), "/sys/module/mmx missing");
	snprintf(path, sizeof(path), "%s/name", d->debugfs);
	n = mmx_read_file(path, buf, sizeof(buf));
	mmx_assert_f(n > 0, "reading %s: %s", path, strerror(-n));
	mmx_info("debugfs name: %s", buf);
	mmx_assert_f(!strncmp(buf, "mmx", 3), "%s says \"%s\"", path, buf);

	/* the device is modeset-capable, atomic, with dumb buffers */
	{
		uint64_t cap = 0;

		mmx_assert_eq(drmGetCap(d->fd, DRM_CAP_DUMB_BUFFER, &cap), 0);
		mmx_assert_eq(cap, 1);
		mmx_assert_eq(drmGetCap(d->fd, DRM_CAP_CRTC_IN_VBLANK_EVENT,
					&cap), 0);
		mmx_assert_eq(cap, 1);
	}
}

static int count_planes_fd(int fd)
{
	drmModePlaneResPtr pr = drmModeGetPlaneResources(fd);
	int n;

	mmx_assert(pr);
	n = (int)pr->count_planes;
	drmModeFreePlaneResources(pr);
	return n;
}

static void test_resource_counts(struct mmx_dev *d)
{
	int n = d->expect.outputs;
	drmModeResPtr res;
	int fd;

	mmx_info("expected outputs=%d; device: %d CRTCs, %d connectors, %d encoders, %d planes",
		 n, d->n_crtcs, d->n_connectors, d->n_encoders, d->n_planes);
	mmx_assert_eq(d->n_crtcs, n);
	mmx_assert_eq(d->n_connectors, 2 * n);
	mmx_assert_eq(d->n_encoders, 2 * n);
	mmx_assert_eq(d->n_planes, 4 * n);

	/* without the writeback cap the writeback connectors are hidden */
	fd = mmx_open_client(d, true, false);
	res = drmModeGetResources(fd);
	mmx_assert(res);
	mmx_assert_eq(res->count_crtcs, n);
	mmx_assert_eq(res->count_connectors, n);
	mmx_assert_eq(res->count_encoders, 2 * n);
	drmModeFreeResources(res);
	mmx_assert_eq(count_planes_fd(fd), 4 * n);

	/* without universal planes only the overlays are listed */
	fd = open(d->path, O_RDWR | O_CLOEXEC);
	mmx_assert(fd >= 0);
	res = drmModeGetResources(fd);
	mmx_assert(res);
	mmx_assert_eq(res->count_crtcs, n);
	mmx_assert_eq(res->count_connectors, n);
	drmModeFreeResources(res);
	mmx_assert_eq(count_planes_fd(fd), 2 * n);
	close(fd);
}

static bool encoder_type_ok(const char *kind, uint32_t type)
{
	if (!strcmp(kind, "VGA") || !strcmp(kind, "DVI-A"))
		return type == DRM_MODE_ENCODER_DAC;
	if (!strcmp(kind, "DVI-I"))
		return type == DRM_MODE_ENCODER_TMDS ||
		       type == DRM_MODE_ENCODER_DAC;
	if (!strcmp(kind, "DVI-D") || !strcmp(kind, "HDMI-A"))
		return type == DRM_MODE_ENCODER_TMDS;
	if (!strcmp(kind, "DP"))
		return type == DRM_MODE_ENCODER_TMDS ||
		       type == DRM_MODE_ENCODER_DPMST;
	if (!strcmp(kind, "eDP"))
		return type == DRM_MODE_ENCODER_TMDS ||
		       type == DRM_MODE_ENCODER_DPMST ||
		       type == DRM_MODE_ENCODER_LVDS;
	if (!strcmp(kind, "LVDS"))
		return type == DRM_MODE_ENCODER_LVDS;
	return type == DRM_MODE_ENCODER_TVDAC;	/* Composite, SVIDEO, ... */
}

static void test_connector_types(struct mmx_dev *d)
{
	int i;

	mmx_assert_eq(d->expect.n_kinds, d->expect.outputs);
	mmx_assert_eq(d->n_outputs, d->expect.outputs);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const char *kind = d->expect.kinds[i];
		drmModeConnectorPtr c = drmModeGetConnector(d->fd, o->conn_id);
		drmModeEncoderPtr e;

		mmx_assert(c);
		mmx_info("output %d: connector %u %s-%u (expected %s), %s, %d modes, encoder %u",
			 i, c->connector_id,
			 mmx_connector_type_name(c->connector_type),
			 c->connector_type_id, kind,
			 c->connection == DRM_MODE_CONNECTED ? "connected" :
								"not connected",
			 c->count_modes, c->count_encoders ? c->encoders[0] : 0);
		mmx_assert_f(mmx_kind_to_type(kind) >= 0, "bad kind %s", kind);
		mmx_assert_eq(c->connector_type, mmx_kind_to_type(kind));
		mmx_assert_eq(c->connection, DRM_MODE_CONNECTED);
		mmx_assert_eq(c->count_encoders, 1);
		e = drmModeGetEncoder(d->fd, c->encoders[0]);
		mmx_assert(e);
		mmx_info("  encoder %u type %u possible_crtcs 0x%x", e->encoder_id,
			 e->encoder_type, e->possible_crtcs);
		mmx_assert_f(encoder_type_ok(kind, e->encoder_type),
			     "encoder type %u for a %s connector", e->encoder_type,
			     kind);
		mmx_assert_f(e->possible_crtcs & (1u << i),
			     "encoder of output %d cannot use CRTC %d (0x%x)", i,
			     i, e->possible_crtcs);
		drmModeFreeEncoder(e);
		drmModeFreeConnector(c);
	}
}

static void test_writeback_connectors(struct mmx_dev *d)
{
	uint32_t crtc_mask = 0;
	int i, n_wb = 0;

	for (i = 0; i < d->n_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(d->fd, d->connectors[i]);
		drmModeEncoderPtr e;
		drmModePropertyBlobPtr blob;
		uint64_t blob_id;
		const uint32_t *fmts;
		uint32_t n_fmts, k;
		bool has_x = false, has_a = false;

		mmx_assert(c);
		if (c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeFreeConnector(c);
			continue;
		}
		n_wb++;
		mmx_assert_eq(c->count_encoders, 1);
		e = drmModeGetEncoder(d->fd, c->encoders[0]);
		mmx_assert(e);
		mmx_info("writeback connector %u: encoder %u type %u possible_crtcs 0x%x",
			 c->connector_id, e->encoder_id, e->encoder_type,
			 e->possible_crtcs);
		mmx_assert_eq(e->encoder_type, DRM_MODE_ENCODER_VIRTUAL);
		mmx_assert_f(e->possible_crtcs &&
			     !(e->possible_crtcs & (e->possible_crtcs - 1)),
			     "writeback encoder possible_crtcs 0x%x is not one CRTC",
			     e->possible_crtcs);
		mmx_assert_f(!(crtc_mask & e->possible_crtcs),
			     "two writeback connectors for CRTC mask 0x%x",
			     e->possible_crtcs);
		crtc_mask |= e->possible_crtcs;
		drmModeFreeEncoder(e);

		mmx_prop_id(d, c->connector_id, "WRITEBACK_FB_ID");
		mmx_prop_id(d, c->connector_id, "WRITEBACK_OUT_FENCE_PTR");
		mmx_prop_id(d, c->connector_id, "CRTC_ID");
		blob_id = mmx_prop_get(d, c->connector_id,
				       "WRITEBACK_PIXEL_FORMATS");
		blob = drmModeGetPropertyBlob(d->fd, (uint32_t)blob_id);
		mmx_assert_f(blob, "WRITEBACK_PIXEL_FORMATS blob %llu",
			     (unsigned long long)blob_id);
		fmts = blob->data;
		n_fmts = blob->length / 4;
		for (k = 0; k < n_fmts; k++) {
			mmx_info("  writeback format %s", mmx_format_name(fmts[k]));
			has_x |= fmts[k] == DRM_FORMAT_XRGB8888;
			has_a |= fmts[k] == DRM_FORMAT_ARGB8888;
		}
		mmx_assert_eq(n_fmts, 2);
		mmx_assert(has_x && has_a);
		drmModeFreePropertyBlob(blob);
		drmModeFreeConnector(c);
	}
	mmx_assert_eq(n_wb, d->expect.outputs);
	mmx_assert_eq_u64(crtc_mask, (1u << d->n_crtcs) - 1);
	for_each_output_check(d);
}

static void test_plane_layout(struct mmx_dev *d)
{
	int i, k;

	mmx_assert_eq(d->n_planes, 4 * d->n_crtcs);
	for (i = 0; i < d->n_crtcs; i++) {
		int prim = 0, ovl = 0, cur = 0, total = 0;

		for (k = 0; k < d->n_planes; k++) {
			drmModePlanePtr p = drmModeGetPlane(d->fd, d->planes[k]);
			int type;

			mmx_assert(p);
			mmx_assert_f(p->possible_crtcs &&
				     !(p->possible_crtcs & (p->possible_crtcs - 1)),
				     "plane %u possible_crtcs 0x%x: not exactly one CRTC",
				     p->plane_id, p->possible_crtcs);
			if (p->possible_crtcs == (1u << i)) {
				type = mmx_plane_type(d, p->plane_id);
				total++;
				prim += type == DRM_PLANE_TYPE_PRIMARY;
				ovl += type == DRM_PLANE_TYPE_OVERLAY;
				cur += type == DRM_PLANE_TYPE_CURSOR;
			}
			drmModeFreePlane(p);
		}
		mmx_info("CRTC %d: %d planes: %d primary, %d overlay, %d cursor",
			 i, total, prim, ovl, cur);
		mmx_assert_eq(total, 4);
		mmx_assert_eq(prim, 1);
		mmx_assert_eq(ovl, 2);
		mmx_assert_eq(cur, 1);
	}
}

static bool format_set_equal(const uint32_t *a, int na, const uint32_t *b,
			     int nb)
{
	int i, j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		bool found = false;

		for (j = 0; j < nb; j++)
			found |= a[i] == b[j];
		if (!found)
			return false;
	}
	return true;
}

static void print_formats(const char *what, const uint32_t *f, int n)
{
	char buf[512] = "";
	int i;

	for (i = 0; i < n; i++) {
		strncat(buf, " ", sizeof(buf) - strlen(buf) - 1);
		strncat(buf, mmx_format_name(f[i]), sizeof(buf) - strlen(buf) - 1);
	}
	mmx_info("%s:%s", what, buf);
}

static void test_plane_formats(struct mmx_dev *d)
{
	uint32_t promised[7 + YUV_REF_N_FORMATS];
	int k;

	/* the RGB formats, then (not on the cursor) the YUV formats */
	memcpy(promised, mmx_plane_formats, sizeof(mmx_plane_formats));
	for (k = 0; k < (int)YUV_REF_N_FORMATS; k++)
		promised[7 + k] = yuv_ref_formats[k].fourcc;

	for (k = 0; k < d->n_planes; k++) {
		drmModePlanePtr p = drmModeGetPlane(d->fd, d->planes[k]);
		int type = mmx_plane_type(d, d->planes[k]);
		char what[64];
		uint32_t blob_id = 0;
		uint64_t v;
		int n;

		mmx_assert(p);
		snprintf(what, sizeof(what), "plane %u (%s)", p->plane_id,
			 type == DRM_PLANE_TYPE_PRIMARY ? "primary" :
			 type == DRM_PLANE_TYPE_CURSOR ? "cursor" : "overlay");
		print_formats(what, p->formats, (int)p->count_formats);
		n = type == DRM_PLANE_TYPE_CURSOR ? 7 : 7 + YUV_REF_N_FORMATS;
		mmx_assert_f(format_set_equal(p->formats, (int)p->count_formats,
					      promised, n),
			     "%s formats differ from the %d promised", what, n);

		/* IN_FORMATS, when present, lists the same formats, linear */
		if (mmx_prop_lookup(d->fd, p->plane_id, "IN_FORMATS", NULL, &v,
				    NULL))
			blob_id = (uint32_t)v;
		if (blob_id) {
			drmModePropertyBlobPtr b = drmModeGetPropertyBlob(d->fd, blob_id);
			const struct drm_format_modifier_blob *h;
			const uint32_t *f;

			mmx_assert(b);
			h = b->data;
			f = (const uint32_t *)((const char *)b->data +
					       h->formats_offset);
			mmx_assert_f(format_set_equal(f, (int)h->count_formats,
						      p->formats,
						      (int)p->count_formats),
				     "%s IN_FORMATS differs from the format list",
				     what);
			drmModeFreePropertyBlob(b);
		}
		drmModeFreePlane(p);
	}
}

static void check_range_prop(struct mmx_dev *d, uint32_t plane,
			     const char *name, uint64_t min, uint64_t max,
			     uint64_t value, bool immutable)
{
	drmModePropertyRes *info = NULL;
	uint64_t v;

	mmx_assert_f(mmx_prop_lookup(d->fd, plane, name, NULL, &v, &info),
		     "plane %u has no \"%s\" property", plane, name);
	mmx_info("plane %u %s = %llu, range [%llu, %llu]%s", plane, name,
		 (unsigned long long)v,
		 (unsigned long long)(info->count_values > 0 ? info->values[0] : 0),
		 (unsigned long long)(info->count_values > 1 ? info->values[1] : 0),
		 (info->flags & DRM_MODE_PROP_IMMUTABLE) ? " immutable" : "");
	mmx_assert_f(drm_property_type_is(info, DRM_MODE_PROP_RANGE) ||
		     drm_property_type_is(info, DRM_MODE_PROP_SIGNED_RANGE),
		     "plane %u %s is not a range", plane, name);
	mmx_assert_eq(info->count_values, 2);
	mmx_assert_eq_u64(info->values[0], min);
	mmx_assert_eq_u64(info->values[1], max);
	mmx_assert_eq(!!(info->flags & DRM_MODE_PROP_IMMUTABLE), immutable);
	mmx_assert_eq_u64(v, value);
	drmModeFreeProperty(info);
}

static void test_plane_properties(struct mmx_dev *d)
{
	int i;

	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		uint32_t planes[4] = { o->primary, o->overlay[0], o->overlay[1],
				       o->cursor };
		uint64_t z0, z1;
		int k;

		for_each_output_check(d);
		mmx_assert(o->overlay[1] && o->cursor);
		check_range_prop(d, o->primary, "zpos", 0, 0, 0, true);
		check_range_prop(d, o->cursor, "zpos", 3, 3, 3, true);
		z0 = mmx_prop_get(d, o->overlay[0], "zpos");
		z1 = mmx_prop_get(d, o->overlay[1], "zpos");
		check_range_prop(d, o->overlay[0], "zpos", 1, 2, z0, false);
		check_range_prop(d, o->overlay[1], "zpos", 1, 2, z1, false);
		mmx_assert_f((z0 == 1 && z1 == 2) || (z0 == 2 && z1 == 1),
			     "overlay default zpos %llu and %llu, expected 1 and 2",
			     (unsigned long long)z0, (unsigned long long)z1);

		for (k = 0; k < 4; k++) {
			drmModePropertyRes *info = NULL;
			uint64_t v;
			bool none = false, pre = false, cov = false;
			int e;

			check_range_prop(d, planes[k], "alpha", 0, 0xffff, 0xffff,
					 false);
			mmx_assert_f(mmx_prop_lookup(d->fd, planes[k],
						     "pixel blend mode", NULL, &v,
						     &info),
				     "plane %u has no pixel blend mode", planes[k]);
			mmx_assert(drm_property_type_is(info, DRM_MODE_PROP_ENUM));
			mmx_assert_eq(info->count_enums, 3);
			for (e = 0; e < info->count_enums; e++) {
				none |= !strcmp(info->enums[e].name, "None");
				pre |= !strcmp(info->enums[e].name, "Pre-multiplied");
				cov |= !strcmp(info->enums[e].name, "Coverage");
			}
			mmx_assert(none && pre && cov);
			mmx_assert_eq_u64(v, mmx_prop_enum(d, planes[k],
							   "pixel blend mode",
							   "Pre-multiplied"));
			drmModeFreeProperty(info);
		}
	}
}

static void test_cursor_caps(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	struct mmx_fb *fb, *prim;
	struct mmx_req *r;

	mmx_info("DRM_CAP_CURSOR_WIDTH %llu, DRM_CAP_CURSOR_HEIGHT %llu",
		 (unsigned long long)d->cursor_w,
		 (unsigned long long)d->cursor_h);
	mmx_assert_gte(d->cursor_w, 64);
	mmx_assert_gte(d->cursor_h, 64);
	mmx_assert_lte(d->cursor_w, 256);
	mmx_assert_lte(d->cursor_h, 256);

	/* a cursor of the advertised size is accepted */
	for_each_output_check(d);
	prim = mmx_fb_new(d, 320, 240, DRM_FORMAT_XRGB8888);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), prim, 0, 0));
	fb = mmx_fb_new(d, (uint32_t)d->cursor_w, (uint32_t)d->cursor_h,
			DRM_FORMAT_ARGB8888);
	r = mmx_req_new(d);
	mmx_req_plane(r, o->cursor, o->crtc_id, fb->id, 0, 0, (int)fb->width,
		      (int)fb->height, 10, 10, (int)fb->width, (int)fb->height);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_TEST_ONLY));
}

/*
 * Modes per connector kind (Documentation/mmx.rst, "Objects"): every
 * connector offers 640x480, 800x600 and
 * 1024x768; the preferred and the largest mode depend on the kind, plus
 * some sizes each kind must list. Nothing is above 3840x2160.
 */
/*
 * What each kind offers with the sink plugged at load (Documentation/mmx.rst,
 * "Objects"): the sink's EDID modes the link can carry, or the TV timings of
 * a TV signal. need[] lists modes that must be there besides those two.
 */
static const struct kind_modes {
	const char *kinds[3];
	int pref[2];
	int largest[2];
	int need[5][2];
} kind_modes[] = {
	{ { "VGA", "DVI-A" }, { 1280, 1024 }, { 1600, 1200 },
	  { { 640, 480 }, { 800, 600 }, { 1024, 768 } } },
	{ { "DVI-I", "DVI-D" }, { 1920, 1200 }, { 1920, 1200 },
	  { { 640, 480 }, { 800, 600 }, { 1024, 768 }, { 1920, 1080 } } },
	{ { "HDMI-A" }, { 1920, 1080 }, { 1920, 1080 },
	  { { 640, 480 }, { 720, 480 }, { 1280, 720 } } },
	/* 3840x2160 at 30 Hz: 60 Hz needs more than four 2.7 Gbit/s lanes */
	{ { "DP" }, { 3840, 2160 }, { 3840, 2160 },
	  { { 640, 480 }, { 800, 600 }, { 1024, 768 }, { 1280, 720 },
	    { 1920, 1080 } } },
	{ { "eDP", "LVDS" }, { 1280, 800 }, { 1280, 800 }, { { 0 } } },
	{ { "Component" }, { 1280, 720 }, { 1920, 1080 },
	  { { 720, 480 }, { 720, 576 } } },
	{ { "Composite", "SVIDEO", "TV" }, { 720, 480 }, { 720, 480 },
	  { { 0 } } },
	{ { "SCART" }, { 720, 576 }, { 720, 576 }, { { 0 } } },
};

/* TV signals carry only their own timings: no user modes there. */
static bool kind_is_tv(const char *kind)
{
	static const char *const tv[] = { "Composite", "SVIDEO", "TV",
					  "SCART", "Component" };
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(tv); i++)
		if (!strcmp(kind, tv[i]))
			return true;
	return false;
}

static const struct kind_modes *modes_of_kind(const char *kind)
{
	size_t i, k;

	for (i = 0; i < MMX_ARRAY_SIZE(kind_modes); i++)
		for (k = 0; k < 3 && kind_modes[i].kinds[k]; k++)
			if (!strcmp(kind_modes[i].kinds[k], kind))
				return &kind_modes[i];
	return NULL;
}

static bool has_mode(drmModeConnectorPtr c, int w, int h)
{
	int m;

	for (m = 0; m < c->count_modes; m++)
		if (c->modes[m].hdisplay == w && c->modes[m].vdisplay == h)
			return true;
	return false;
}

/* Report a failed mode check and go on (all outputs are checked). */
#define MODE_CHECK(cond, fmt, ...)					\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "  output %d (%s): " fmt "\n", i,	\
				d->expect.kinds[i], ##__VA_ARGS__);	\
			bad++;						\
		}							\
	} while (0)

static void test_connector_modes(struct mmx_dev *d)
{
	int i, m, bad = 0;
	size_t k;

	mmx_assert_eq(d->n_outputs, d->expect.n_kinds);
	for (i = 0; i < d->n_outputs; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(d->fd, d->out[i].conn_id);
		const struct kind_modes *km = modes_of_kind(d->expect.kinds[i]);
		int preferred = 0, maxw = 0, maxh = 0;
		drmModeModeInfo *pref = NULL;

		mmx_assert(c);
		mmx_assert_f(km, "no mode table for kind %s", d->expect.kinds[i]);
		for (m = 0; m < c->count_modes; m++) {
			drmModeModeInfo *mi = &c->modes[m];
			double hz = mi->clock * 1000.0 / (mi->htotal * (double)mi->vtotal);

			if (mmx_verbose)
				mmx_mode_print("  ", mi);
			if (mi->hdisplay > maxw)
				maxw = mi->hdisplay;
			if (mi->vdisplay > maxh)
				maxh = mi->vdisplay;
			if (mi->type & DRM_MODE_TYPE_PREFERRED) {
				preferred++;
				if (!pref)
					pref = mi;
			}
			MODE_CHECK(mi->clock > 0 && mi->hdisplay > 0 &&
				   mi->hsync_start >= mi->hdisplay &&
				   mi->hsync_end >= mi->hsync_start &&
				   mi->htotal >= mi->hsync_end &&
				   mi->vdisplay > 0 &&
				   mi->vsync_start >= mi->vdisplay &&
				   mi->vsync_end >= mi->vsync_start &&
				   mi->vtotal >= mi->vsync_end,
				   "insane mode %s", mi->name);
			/* interlaced: vrefresh counts fields, twice the frames */
			if (mi->flags & DRM_MODE_FLAG_INTERLACE)
				hz *= 2;
			MODE_CHECK(hz > mi->vrefresh - 1.0 && hz < mi->vrefresh + 1.0,
				   "mode %s: vrefresh %u but timings give %.3f Hz",
				   mi->name, mi->vrefresh, hz);
		}
		mmx_info("output %d (%s, %s): %d modes, largest %dx%d, preferred %dx%d",
			 i, d->out[i].name, d->expect.kinds[i], c->count_modes,
			 maxw, maxh, pref ? pref->hdisplay : 0,
			 pref ? pref->vdisplay : 0);
		MODE_CHECK(preferred == 1, "%d modes flagged preferred", preferred);
		MODE_CHECK(pref && pref->hdisplay == km->pref[0] &&
			   pref->vdisplay == km->pref[1],
			   "preferred %dx%d, expected %dx%d",
			   pref ? pref->hdisplay : 0, pref ? pref->vdisplay : 0,
			   km->pref[0], km->pref[1]);
		/* the largest size, listed as a mode, nothing beyond it */
		MODE_CHECK(maxw == km->largest[0] && maxh == km->largest[1],
			   "modes reach %dx%d, expected up to %dx%d", maxw, maxh,
			   km->largest[0], km->largest[1]);
		MODE_CHECK(has_mode(c, km->largest[0], km->largest[1]),
			   "no %dx%d mode", km->largest[0], km->largest[1]);
		MODE_CHECK(maxw <= 3840 && maxh <= 2160, "modes beyond 3840x2160");
		for (k = 0; k < MMX_ARRAY_SIZE(km->need) && km->need[k][0]; k++)
			MODE_CHECK(has_mode(c, km->need[k][0], km->need[k][1]),
				   "no %dx%d mode", km->need[k][0], km->need[k][1]);
		drmModeFreeConnector(c);
	}
	mmx_assert_f(bad == 0, "%d mode check(s) failed (listed above)", bad);
}

/* ------------------------------------------------------------------------ */
/* Modesets                                                                 */

/* CRTC state as GETCRTC and the properties report it. */
static void check_crtc_on(struct mmx_dev *d, struct mmx_output *o,
			  const drmModeModeInfo *mode, uint32_t fb_id)
{
	drmModeCrtcPtr c = drmModeGetCrtc(d->fd, o->crtc_id);
	drmModeConnectorPtr conn;
	drmModeEncoderPtr enc;
	drmModePropertyBlobPtr blob;
	drmVBlankReply rep;
	uint64_t mode_id;

	mmx_assert(c);
	mmx_assert_eq(c->mode_valid, 1);
	if (!mmx_mode_equal(&c->mode, mode)) {
		mmx_mode_print("GETCRTC: ", &c->mode);
		mmx_mode_print("expected: ", mode);
		mmx_fail("CRTC %u reports another mode", o->crtc_id);
	}
	mmx_assert_eq(c->width, mode->hdisplay);
	mmx_assert_eq(c->height, mode->vdisplay);
	mmx_assert_eq(c->buffer_id, fb_id);
	drmModeFreeCrtc(c);

	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "ACTIVE"), 1);
	mode_id = mmx_prop_get(d, o->crtc_id, "MODE_ID");
	mmx_assert_neq(mode_id, 0);
	blob = drmModeGetPropertyBlob(d->fd, (uint32_t)mode_id);
	mmx_assert(blob);
	mmx_assert_eq(blob->length, sizeof(drmModeModeInfo));
	mmx_assert(mmx_mode_equal(blob->data, mode));
	drmModeFreePropertyBlob(blob);

	mmx_assert_eq(mmx_prop_get(d, o->conn_id, "CRTC_ID"), o->crtc_id);
	conn = drmModeGetConnector(d->fd, o->conn_id);
	mmx_assert(conn);
	mmx_assert_neq(conn->encoder_id, 0);
	enc = drmModeGetEncoder(d->fd, conn->encoder_id);
	mmx_assert(enc);
	mmx_assert_eq(enc->crtc_id, o->crtc_id);
	drmModeFreeEncoder(enc);
	drmModeFreeConnector(conn);

	mmx_do(mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, &rep));
}

static void check_crtc_off(struct mmx_dev *d, struct mmx_output *o)
{
	drmModeCrtcPtr c = drmModeGetCrtc(d->fd, o->crtc_id);
	drmModeConnectorPtr conn;
	int ret;

	mmx_assert(c);
	mmx_assert_eq(c->mode_valid, 0);
	mmx_assert_eq(c->buffer_id, 0);
	drmModeFreeCrtc(c);
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "ACTIVE"), 0);
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "MODE_ID"), 0);
	mmx_assert_eq(mmx_prop_get(d, o->conn_id, "CRTC_ID"), 0);
	conn = drmModeGetConnector(d->fd, o->conn_id);
	mmx_assert(conn);
	mmx_assert_eq(conn->encoder_id, 0);
	drmModeFreeConnector(conn);
	ret = mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, NULL);
	mmx_assert_f(ret < 0, "vblank wait on an inactive CRTC succeeded");
	mmx_info("vblank wait on the inactive CRTC %d: %s", o->index,
		 strerror(-ret));
}

/*
 * Light output O in MODE with a random 200x120 XRGB8888 image somewhere on
 * its primary plane, check GETCRTC and the writeback capture (image at the
 * right place, black elsewhere).
 */
static void modeset_and_check(struct mmx_dev *d, struct mmx_output *o,
			      const drmModeModeInfo *mode, uint32_t seed)
{
	struct mmx_fb *fb = mmx_fb_new(d, 200, 120, DRM_FORMAT_XRGB8888);
	struct mmx_fb *wb;
	struct mmx_frame *f;
	struct mmx_ref_plane p;
	int x = mode->hdisplay / 3, y = mode->vdisplay / 4;
	char what[64];

	mmx_info("output %d (%s): %dx%d@%u", o->index, o->name, mode->hdisplay,
		 mode->vdisplay, mode->vrefresh);
	mmx_fb_random(fb, seed, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mode, fb, x, y));
	check_crtc_on(d, o, mode, fb->id);

	wb = mmx_wb_fb(d, mode, DRM_FORMAT_XRGB8888);
	mmx_do(mmx_wb_capture(d, o, wb));
	f = mmx_frame_new(mode->hdisplay, mode->vdisplay);
	p = mmx_ref_fb(fb, x, y);
	mmx_ref_compose(f, &p, 1);
	snprintf(what, sizeof(what), "output%d-%dx%d", o->index,
		 mode->hdisplay, mode->vdisplay);
	mmx_assert(mmx_frame_check(wb, f, what));
	mmx_frame_free(f);
	mmx_fb_free(wb);
}

static void output_off(struct mmx_dev *d, struct mmx_output *o)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_output_off(r, o);
	mmx_req_plane_off(r, o->primary);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
}

static void test_modeset_preferred(struct mmx_dev *d)
{
	int i;

	for_each_output_check(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];

		mmx_assert_f(o->has_preferred, "output %d has no preferred mode",
			     i);
		modeset_and_check(d, o, &o->preferred, 100 + (uint32_t)i);
		output_off(d, o);
		check_crtc_off(d, o);
	}
}

static void test_modeset_other_mode(struct mmx_dev *d)
{
	int i;

	for_each_output_check(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		drmModeModeInfo m;

		/*
		 * 640x480 unless that is the preferred one, then 800x600;
		 * panels and TVs may offer one mode only: nothing else to try.
		 */
		if (!mmx_mode_find(d, o->conn_id, 640, 480, &m) ||
		    (m.type & DRM_MODE_TYPE_PREFERRED)) {
			if (!mmx_mode_find(d, o->conn_id, 800, 600, &m)) {
				mmx_info("output %d (%s): no other small mode",
					 i, o->name);
				continue;
			}
		}
		modeset_and_check(d, o, &m, 200 + (uint32_t)i);
		/* straight to another mode, without switching off first */
		if (mmx_mode_find(d, o->conn_id, 1024, 768, &m) ||
		    mmx_mode_find(d, o->conn_id, 800, 600, &m))
			modeset_and_check(d, o, &m, 300 + (uint32_t)i);
		output_off(d, o);
		check_crtc_off(d, o);
	}
}

static void test_modeset_user_mode(struct mmx_dev *d)
{
	drmModeModeInfo m;
	int i;

	for_each_output_check(d);
	mmx_mode_make(&m, 400, 300, 50);
	for (i = 0; i < d->n_outputs; i++) {
		if (kind_is_tv(d->expect.kinds[i]))
			continue;
		modeset_and_check(d, &d->out[i], mmx_small_mode(), 400 + (uint32_t)i);
		modeset_and_check(d, &d->out[i], &m, 500 + (uint32_t)i);
		output_off(d, &d->out[i]);
		check_crtc_off(d, &d->out[i]);
	}
}

static void test_modeset_all_outputs(struct mmx_dev *d)
{
	struct mmx_fb *fbs[MMX_MAX_OUTPUTS], *wb[MMX_MAX_OUTPUTS];
	const drmModeModeInfo *mode = mmx_small_mode();
	struct mmx_req *r = mmx_req_new(d);
	int i;

	for_each_output_check(d);
	/* one commit lights every output, each with its own image */
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];

		if (kind_is_tv(d->expect.kinds[i]))
			continue;
		fbs[i] = mmx_fb_new(d, mode->hdisplay, mode->vdisplay,
				    DRM_FORMAT_XRGB8888);
		mmx_fb_random(fbs[i], 600 + (uint32_t)i, MMX_ALPHA_ANY);
		mmx_req_output_on(r, o, mode);
		mmx_req_plane(r, o->primary, o->crtc_id, fbs[i]->id, 0, 0,
			      mode->hdisplay, mode->vdisplay, 0, 0,
			      mode->hdisplay, mode->vdisplay);
	}
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	for (i = 0; i < d->n_outputs; i++)
		if (!kind_is_tv(d->expect.kinds[i]))
			check_crtc_on(d, &d->out[i], mode, fbs[i]->id);

	/* capture all outputs in one commit, too */
	r = mmx_req_new(d);
	{
		int32_t fences[MMX_MAX_OUTPUTS];

		for (i = 0; i < d->n_outputs; i++) {
			struct mmx_output *o = &d->out[i];

			fences[i] = -1;
			if (kind_is_tv(d->expect.kinds[i]))
				continue;
			wb[i] = mmx_wb_fb(d, mode, DRM_FORMAT_XRGB8888);
			memset(wb[i]->map, 0x5a, wb[i]->size);
			mmx_req_add(r, o->wb_conn_id, "CRTC_ID", o->crtc_id);
			mmx_req_add(r, o->wb_conn_id, "WRITEBACK_FB_ID", wb[i]->id);
			mmx_req_add(r, o->wb_conn_id, "WRITEBACK_OUT_FENCE_PTR",
				    (uintptr_t)&fences[i]);
		}
		mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
		for (i = 0; i < d->n_outputs; i++) {
			if (kind_is_tv(d->expect.kinds[i]))
				continue;
			mmx_assert(fences[i] >= 0);
			mmx_do(mmx_fence_wait(fences[i], 10000));
			close(fences[i]);
		}
	}
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_frame *f;
		struct mmx_ref_plane p;
		char what[32];

		if (kind_is_tv(d->expect.kinds[i]))
			continue;
		f = mmx_frame_new(mode->hdisplay, mode->vdisplay);
		p = mmx_ref_fb(fbs[i], 0, 0);

		mmx_ref_compose(f, &p, 1);
		snprintf(what, sizeof(what), "output%d", i);
		mmx_assert(mmx_frame_check(wb[i], f, what));
		mmx_frame_free(f);
	}

	/* and one commit turns them all off */
	r = mmx_req_new(d);
	for (i = 0; i < d->n_outputs; i++) {
		if (kind_is_tv(d->expect.kinds[i]))
			continue;
		mmx_req_output_off(r, &d->out[i]);
		mmx_req_plane_off(r, d->out[i].primary);
	}
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	for (i = 0; i < d->n_outputs; i++)
		check_crtc_off(d, &d->out[i]);
}

static void test_active_toggle(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	const drmModeModeInfo *mode = mmx_small_mode();
	struct mmx_fb *fb = mmx_fb_new(d, 320, 240, DRM_FORMAT_XRGB8888);
	struct mmx_fb *wb = mmx_wb_fb(d, mode, 0);
	struct mmx_frame *f = mmx_frame_new(320, 240);
	struct mmx_ref_plane p = mmx_ref_fb(fb, 0, 0);
	struct mmx_req *r;
	int ret;

	for_each_output_check(d);
	mmx_fb_random(fb, 700, MMX_ALPHA_ANY);
	mmx_ref_compose(f, &p, 1);
	mmx_do(mmx_output_set(d, o, mode, fb, 0, 0));

	/* ACTIVE=0 keeps the mode and the routing but stops the CRTC */
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "ACTIVE", 0);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_assert_eq(mmx_prop_get(d, o->crtc_id, "ACTIVE"), 0);
	mmx_assert_neq(mmx_prop_get(d, o->crtc_id, "MODE_ID"), 0);
	mmx_assert_eq(mmx_prop_get(d, o->conn_id, "CRTC_ID"), o->crtc_id);
	ret = mmx_vblank_wait(d->fd, o->index, DRM_VBLANK_RELATIVE, 1, NULL);
	mmx_assert_f(ret < 0, "vblank wait on an inactive CRTC succeeded");
	/* writeback needs an active CRTC */
	ret = mmx_wb_capture(d, o, wb);
	mmx_assert_eq(ret, -EINVAL);

	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "ACTIVE", 1);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	check_crtc_on(d, o, mode, fb->id);
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_assert(mmx_frame_check(wb, f, "reactivated"));
	mmx_frame_free(f);
}

static void test_modeset_needs_allow_modeset(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	struct mmx_fb *fb = mmx_fb_new(d, 320, 240, DRM_FORMAT_XRGB8888);
	struct mmx_snapshot s;
	struct mmx_req *r;
	drmModeModeInfo m;

	for_each_output_check(d);
	mmx_snapshot_take(d, &s);
	r = mmx_req_new(d);
	mmx_req_output_on(r, o, mmx_small_mode());
	mmx_req_plane(r, o->primary, o->crtc_id, fb->id, 0, 0, 320, 240, 0, 0,
		      320, 240);
	mmx_assert_err(mmx_req_commit(r, NO_FLAGS), EINVAL);
	mmx_assert_unchanged(d, &s);
	mmx_snapshot_free(&s);

	/* a mode change on an active CRTC needs it too */
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), fb, 0, 0));
	mmx_snapshot_take(d, &s);
	mmx_mode_make(&m, 320, 240, 30);
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "MODE_ID", mmx_mode_blob(d, &m));
	mmx_assert_err(mmx_req_commit(r, NO_FLAGS), EINVAL);
	mmx_assert_unchanged(d, &s);
	/* and so does switching off */
	r = mmx_req_new(d);
	mmx_req_add(r, o->crtc_id, "ACTIVE", 0);
	mmx_assert_err(mmx_req_commit(r, NO_FLAGS), EINVAL);
	mmx_assert_unchanged(d, &s);
	mmx_snapshot_free(&s);
}

static void test_crtc_without_primary(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];
	const drmModeModeInfo *mode = mmx_small_mode();
	struct mmx_fb *wb = mmx_wb_fb(d, mode, 0);
	struct mmx_fb *ov = mmx_fb_new(d, 64, 48, DRM_FORMAT_XRGB8888);
	struct mmx_frame *f = mmx_frame_new(320, 240);
	struct mmx_ref_plane p = mmx_ref_fb(ov, 100, 50);
	struct mmx_req *r;

	for_each_output_check(d);
	/* nothing at all: black */
	mmx_do(mmx_output_set(d, o, mode, NULL, 0, 0));
	check_crtc_on(d, o, mode, 0);
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_ref_compose(f, NULL, 0);
	mmx_assert(mmx_frame_check(wb, f, "empty"));

	/* only an overlay */
	mmx_fb_random(ov, 800, MMX_ALPHA_ANY);
	r = mmx_req_new(d);
	mmx_req_plane(r, o->overlay[0], o->crtc_id, ov->id, 0, 0, 64, 48, 100,
		      50, 64, 48);
	mmx_do(mmx_req_commit(r, NO_FLAGS));
	mmx_do(mmx_wb_capture(d, o, wb));
	mmx_ref_compose(f, &p, 1);
	mmx_assert(mmx_frame_check(wb, f, "overlay-only"));
	mmx_frame_free(f);
}

/* ------------------------------------------------------------------------ */
/* modetest                                                                 */

struct mt_obj {
	uint32_t id;
	char text[512];
	char formats[512];
};

static int find_id(const uint32_t *ids, int n, uint32_t id)
{
	int i;

	for (i = 0; i < n; i++)
		if (ids[i] == id)
			return i;
	return -1;
}

static void test_modetest_listing(struct mmx_dev *d)
{
	static struct mt_obj conns[64], crtcs[32], planes[128];
	int n_conns = 0, n_crtcs = 0, n_planes = 0;
	enum { NONE, CONN, CRTC, PLANE, OTHER } sec = NONE;
	char line[4096];
	FILE *p;
	int status, i, fd;
	drmModeResPtr res;

	mmx_require_f(!system("command -v modetest >/dev/null 2>&1"),
		      "modetest not installed");
	p = popen("modetest -M mmx -c -p 2>&1", "r");
	mmx_assert(p);
	while (fgets(line, sizeof(line), p)) {
		if (!strncmp(line, "Connectors:", 11))
			sec = CONN;
		else if (!strncmp(line, "CRTCs:", 6))
			sec = CRTC;
		else if (!strncmp(line, "Planes:", 7))
			sec = PLANE;
		else if (!strncmp(line, "Encoders:", 9) ||
			 !strncmp(line, "Frame buffers:", 14))
			sec = OTHER;
		else if (line[0] >= '0' && line[0] <= '9') {
			struct mt_obj *o = NULL;

			if (sec == CONN && n_conns < 64)
				o = &conns[n_conns++];
			else if (sec == CRTC && n_crtcs < 32)
				o = &crtcs[n_crtcs++];
			else if (sec == PLANE && n_planes < 128)
				o = &planes[n_planes++];
			if (o) {
				o->id = (uint32_t)strtoul(line, NULL, 10);
				snprintf(o->text, sizeof(o->text), "%.500s", line);
			}
		} else if (sec == PLANE && n_planes &&
			   strstr(line, "formats:")) {
			snprintf(planes[n_planes - 1].formats,
				 sizeof(planes[0].formats), "%.500s",
				 strstr(line, "formats:") + 8);
		}
	}
	status = pclose(p);
	mmx_assert_f(status == 0, "modetest exited with status 0x%x", status);
	mmx_info("modetest: %d connectors, %d CRTCs, %d planes", n_conns,
		 n_crtcs, n_planes);

	/* modetest sets no writeback cap: compare with such a client */
	fd = mmx_open_client(d, false, false);
	res = drmModeGetResources(fd);
	mmx_assert(res);
	mmx_assert_eq(n_conns, res->count_connectors);
	mmx_assert_eq(n_conns, d->expect.outputs);
	for (i = 0; i < n_conns; i++) {
		char status_s[32] = "", name[64] = "";
		drmModeConnectorPtr c;
		uint32_t cid, enc;
		int modes = -1;

		mmx_assert_f(find_id(res->connectors, res->count_connectors,
				     conns[i].id) >= 0,
			     "modetest lists unknown connector %u", conns[i].id);
		mmx_assert_f(sscanf(conns[i].text, "%u %u %31s %63s %*s %d", &cid,
				    &enc, status_s, name, &modes) == 5,
			     "cannot parse modetest line: %s", conns[i].text);
		/* modetest's caps: no aspect-ratio cap hides CEA duplicates */
		c = drmModeGetConnector(fd, conns[i].id);
		mmx_assert(c);
		mmx_assert_eq_str(status_s, "connected");
		mmx_assert_eq(modes, c->count_modes);
		drmModeFreeConnector(c);
	}
	for (i = 0; i < res->count_connectors; i++) {
		bool found = false;
		int k;

		for (k = 0; k < n_conns; k++)
			found |= conns[k].id == res->connectors[i];
		mmx_assert_f(found, "connector %u missing from modetest",
			     res->connectors[i]);
	}
	mmx_assert_eq(n_crtcs, d->n_crtcs);
	for (i = 0; i < n_crtcs; i++)
		mmx_assert_f(find_id(d->crtcs, d->n_crtcs, crtcs[i].id) >= 0,
			     "modetest lists unknown CRTC %u", crtcs[i].id);
	drmModeFreeResources(res);

	mmx_assert_eq(n_planes, d->n_planes);
	for (i = 0; i < n_planes; i++) {
		drmModePlanePtr pl;
		unsigned int mask = 0;
		char *last_tab = strrchr(planes[i].text, '\t');
		uint32_t k;

		mmx_assert_f(find_id(d->planes, d->n_planes, planes[i].id) >= 0,
			     "modetest lists unknown plane %u", planes[i].id);
		pl = drmModeGetPlane(d->fd, planes[i].id);
		mmx_assert(pl);
		mmx_assert_f(last_tab && sscanf(last_tab, "%x", &mask) == 1,
			     "cannot parse modetest plane line: %s", planes[i].text);
		mmx_assert_eq_u64(mask, pl->possible_crtcs);
		for (k = 0; k < pl->count_formats; k++) {
			char fourcc[5];

			snprintf(fourcc, sizeof(fourcc), "%c%c%c%c",
				 pl->formats[k] & 0xff, (pl->formats[k] >> 8) & 0xff,
				 (pl->formats[k] >> 16) & 0xff, pl->formats[k] >> 24);
			mmx_assert_f(strstr(planes[i].formats, fourcc),
				     "plane %u: modetest formats \"%s\" lack %s",
				     planes[i].id, planes[i].formats, fourcc);
		}
		drmModeFreePlane(pl);
	}
}

static const struct mmx_subtest tests[] = {
	{ "driver-name", "the device's DRM driver is called mmx, in the version ioctl and debugfs",
	  test_driver_name, NULL, NULL },
	{ "resource-counts", "N CRTCs, 2N connectors (N without the writeback cap), 2N encoders, 4N planes (2N without universal planes) for outputs=N",
	  test_resource_counts, NULL, NULL },
	{ "connector-types", "connector i has the DRM type of the i-th kind of the connectors= list (or the default list), is connected, and has an encoder of the kind's type able to drive CRTC i",
	  test_connector_types, NULL, NULL },
	{ "writeback-connectors", "one writeback connector per CRTC, its encoder bound to exactly that CRTC, with the writeback properties and formats XRGB8888+ARGB8888",
	  test_writeback_connectors, NULL, NULL },
	{ "plane-layout", "every CRTC has exactly one primary, two overlay and one cursor plane, none shared with another CRTC",
	  test_plane_layout, NULL, NULL },
	{ "plane-formats", "every plane lists the 7 promised RGB formats, the primary and overlays also the 19 YUV formats (the cursor keeps RGB), IN_FORMATS agrees",
	  test_plane_formats, NULL, NULL },
	{ "plane-properties", "zpos (primary 0, overlays 1..2 defaults 1 and 2, cursor 3), alpha 0..0xffff default opaque, pixel blend mode None/Pre-multiplied/Coverage default Pre-multiplied",
	  test_plane_properties, NULL, NULL },
	{ "cursor-caps", "the cursor size caps are within 64..256 and a cursor that big is accepted",
	  test_cursor_caps, NULL, NULL },
	{ "connector-modes", "every connector lists 640x480, 800x600 and 1024x768 with sane timings; its one preferred mode, its largest mode and the other sizes it must list follow its kind (table in Documentation/mmx.rst)",
	  test_connector_modes, NULL, NULL },
	{ "modeset-preferred", "each output at its preferred mode: GETCRTC/properties report it, writeback shows the image in place on black; then off: inactive, vblank waits fail",
	  test_modeset_preferred, NULL, NULL },
	{ "modeset-other-mode", "each output at 640x480 (800x600), then straight to 1024x768: reported mode and writeback pixels follow",
	  test_modeset_other_mode, NULL, NULL },
	{ "modeset-user-mode", "user modes from MODE_ID blobs (320x240@60, 400x300@50) are reported back and captured at their size",
	  test_modeset_user_mode, NULL, NULL },
	{ "modeset-all-outputs", "one commit lights every output at once, each shows its own image in its writeback; one commit switches all off",
	  test_modeset_all_outputs, NULL, NULL },
	{ "active-toggle", "ACTIVE=0 keeps mode and routing but stops vblanks and refuses writeback; ACTIVE=1 brings the same picture back",
	  test_active_toggle, NULL, NULL },
	{ "modeset-needs-allow-modeset", "enabling, changing the mode of or disabling a CRTC without ALLOW_MODESET fails with EINVAL and changes nothing",
	  test_modeset_needs_allow_modeset, NULL, NULL },
	{ "crtc-without-primary", "an active CRTC with no primary FB composes black, and an overlay alone on black",
	  test_crtc_without_primary, NULL, NULL },
	{ "modetest-listing", "modetest -M mmx -c -p lists exactly the connectors, CRTCs and planes libdrm reports, with the same status, mode counts, possible CRTCs and formats",
	  test_modetest_listing, NULL, NULL },
};

MMX_MAIN("mmx topology and modesets", tests)
