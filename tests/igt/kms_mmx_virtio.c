// SPDX-License-Identifier: MIT
/*
 * kms_mmx_virtio - mmx on its virtio-gpu backend: outputs from the host's
 * scanouts, modes and EDID from the host, pictures that reach the host
 * exactly, and damage tracking that sends only what changed.
 *
 * Needs mmx bound to a virtio-gpu device (debugfs dri/N/virtio); skips
 * otherwise. Connectors the host reports disconnected should be forced on
 * (debugfs DP-N/force) before, to test every scanout.
 *
 * Environment:
 *   MMX_VIRTIO_OUT   directory where the writeback capture of every picture
 *                    the host is asked to show is saved, as TAG-head-N.ppm
 *   MMX_VIRTIO_SNAP  if set, after each such picture print
 *                    "mmx-virtio-snapshot: TAG heads=N[,N...]" and hold the
 *                    picture MMX_VIRTIO_HOLD_MS ms (default 3000), so that a
 *                    watcher on the host (tests/vm/virtio-check) can take
 *                    QEMU screendumps of those heads and compare them with
 *                    the captures
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_igt.h"

/* The mode the picture tests use when the connector offers it. */
#define TEST_W 640
#define TEST_H 480
#define CURSOR 64

/* ------------------------------------------------------------------------ */
/* debugfs dri/N/virtio                                                     */

static bool virtio_read(struct mmx_dev *d, char *buf, size_t size)
{
	char path[192];

	snprintf(path, sizeof(path), "%s/virtio", d->debugfs);
	return mmx_read_file(path, buf, size) > 0;
}

/* Value of "KEY: N" in dri/N/virtio. */
static uint64_t virtio_stat(struct mmx_dev *d, const char *key)
{
	char buf[4096], pat[64], *p;

	mmx_assert_f(virtio_read(d, buf, sizeof(buf)), "cannot read %s/virtio",
		     d->debugfs);
	snprintf(pat, sizeof(pat), "\n%s: ", key);
	p = strstr(buf, pat);
	if (!p && !strncmp(buf, pat + 1, strlen(pat + 1)))
		p = buf - 1;
	mmx_assert_f(p, "no \"%s\" in %s/virtio", key, d->debugfs);
	return strtoull(p + strlen(pat), NULL, 10);
}

struct scanout_info {
	bool host_enabled;
	int host_w, host_h;
	int edid_len;
	unsigned int resource;
	int width, height;
	int damage, inflight;
	bool live;
};

static bool scanout_info(struct mmx_dev *d, int index, struct scanout_info *s)
{
	char buf[4096], pat[32], state[16], *p;

	if (!virtio_read(d, buf, sizeof(buf)))
		return false;
	snprintf(pat, sizeof(pat), "scanout %d: ", index);
	p = strstr(buf, pat);
	if (!p)
		return false;
	memset(s, 0, sizeof(*s));
	if (sscanf(p + strlen(pat), "host %15s %dx%d edid %d, resource %u %dx%d",
		   state, &s->host_w, &s->host_h, &s->edid_len,
		   &s->resource, &s->width, &s->height) != 7)
		return false;
	s->host_enabled = !strcmp(state, "enabled");
	s->live = strstr(p, " live,") && strstr(p, " live,") < strchr(p, '\n');
	p = strstr(p, "damage ");
	return p && sscanf(p, "damage %d, inflight %d", &s->damage,
			   &s->inflight) == 2;
}

/* Wait until every change of output O reached the host and was answered. */
static void wait_host_idle(struct mmx_dev *d, struct mmx_output *o)
{
	struct scanout_info s;
	int64_t end = mmx_now_ns() + 10000000000LL;

	for (;;) {
		mmx_assert_f(scanout_info(d, o->index, &s),
			     "no scanout %d in %s/virtio", o->index,
			     d->debugfs);
		if (!s.damage && !s.inflight)
			return;
		mmx_assert_f(mmx_now_ns() < end,
			     "scanout %d still busy after 10 s (damage %d, inflight %d)",
			     o->index, s.damage, s.inflight);
		mmx_sleep_ms(10);
	}
}

static bool is_virtio(struct mmx_dev *d)
{
	char buf[4096];

	return virtio_read(d, buf, sizeof(buf));
}

/* ------------------------------------------------------------------------ */
/* Pictures                                                                 */

static bool connected(struct mmx_dev *d, struct mmx_output *o)
{
	drmModeConnectorPtr c = drmModeGetConnector(d->fd, o->conn_id);
	bool yes = c && c->connection == DRM_MODE_CONNECTED && c->count_modes;

	drmModeFreeConnector(c);
	return yes;
}

/* TEST_W x TEST_H if the connector has it, else its preferred mode. */
static void test_mode(struct mmx_dev *d, struct mmx_output *o,
		      drmModeModeInfo *mode)
{
	if (mmx_mode_find(d, o->conn_id, TEST_W, TEST_H, mode))
		return;
	mmx_require_f(o->has_preferred, "%s has no mode", o->name);
	*mode = o->preferred;
}

struct scene {
	struct mmx_output *o;
	drmModeModeInfo mode;
	struct mmx_fb *primary, *overlay, *cursor;
	int ov_x, ov_y, cur_x, cur_y;
};

/* A primary, a translucent overlay and a cursor; seeds depend on SEED. */
static void scene_make(struct mmx_dev *d, struct scene *s,
		       struct mmx_output *o, uint32_t seed, bool overlay)
{
	int w, h;

	memset(s, 0, sizeof(*s));
	s->o = o;
	test_mode(d, o, &s->mode);
	w = s->mode.hdisplay;
	h = s->mode.vdisplay;
	s->primary = mmx_fb_new(d, w, h, DRM_FORMAT_XRGB8888);
	mmx_fb_random(s->primary, seed, MMX_ALPHA_ANY);
	if (overlay) {
		s->overlay = mmx_fb_new(d, w / 3, h / 3, DRM_FORMAT_ARGB8888);
		mmx_fb_random(s->overlay, seed + 1, MMX_ALPHA_PREMULT);
		s->ov_x = w / 2;
		s->ov_y = h / 2;
	}
	s->cursor = mmx_fb_new(d, CURSOR, CURSOR, DRM_FORMAT_ARGB8888);
	mmx_fb_random(s->cursor, seed + 2, MMX_ALPHA_BINARY_PREMULT);
	s->cur_x = w / 8;
	s->cur_y = h / 8;
}

static void scene_planes(struct mmx_req *r, struct scene *s)
{
	struct mmx_output *o = s->o;

	mmx_req_plane(r, o->primary, o->crtc_id, s->primary->id, 0, 0,
		      (int)s->primary->width, (int)s->primary->height, 0, 0,
		      (int)s->primary->width, (int)s->primary->height);
	if (s->overlay)
		mmx_req_plane(r, o->overlay[0], o->crtc_id, s->overlay->id, 0,
			      0, (int)s->overlay->width,
			      (int)s->overlay->height, s->ov_x, s->ov_y,
			      (int)s->overlay->width, (int)s->overlay->height);
	mmx_req_plane(r, o->cursor, o->crtc_id, s->cursor->id, 0, 0, CURSOR,
		      CURSOR, s->cur_x, s->cur_y, CURSOR, CURSOR);
}

static int scene_refs(struct scene *s, struct mmx_ref_plane *p)
{
	int n = 0;

	p[n++] = mmx_ref_fb(s->primary, 0, 0);
	if (s->overlay)
		p[n++] = mmx_ref_fb(s->overlay, s->ov_x, s->ov_y);
	p[n++] = mmx_ref_fb(s->cursor, s->cur_x, s->cur_y);
	return n;
}

/* Light the scenes' outputs in one commit. */
static void scenes_show(struct mmx_dev *d, struct scene *s, int n)
{
	struct mmx_req *r = mmx_req_new(d);
	int i;

	for (i = 0; i < n; i++) {
		mmx_req_output_on(r, s[i].o, &s[i].mode);
		scene_planes(r, &s[i]);
	}
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
}

/* Move the cursor of S to (X, Y): one commit naming the cursor plane. */
static void cursor_move(struct mmx_dev *d, struct scene *s, int x, int y)
{
	struct mmx_req *r = mmx_req_new(d);

	s->cur_x = x;
	s->cur_y = y;
	mmx_req_add(r, s->o->cursor, "CRTC_X", (uint64_t)(int64_t)x);
	mmx_req_add(r, s->o->cursor, "CRTC_Y", (uint64_t)(int64_t)y);
	mmx_do(mmx_req_commit(r, 0));
}

static void save_ppm(const struct mmx_fb *fb, const char *path)
{
	FILE *f = fopen(path, "wb");
	uint32_t x, y;

	mmx_assert_f(f, "%s: %s", path, strerror(errno));
	fprintf(f, "P6\n%u %u\n255\n", fb->width, fb->height);
	for (y = 0; y < fb->height; y++)
		for (x = 0; x < fb->width; x++) {
			uint32_t p = mmx_fb_get_raw(fb, (int)x, (int)y);
			unsigned char rgb[3] = { p >> 16, p >> 8, p };

			fwrite(rgb, 1, 3, f);
		}
	mmx_assert_f(!fclose(f), "%s: %s", path, strerror(errno));
}

/*
 * Capture each scene by writeback, check it against the software reference,
 * save it for the host and, once every change reached the host, let the
 * host take its screendumps.
 */
static void scenes_check(struct mmx_dev *d, struct scene *s, int n,
			 const char *tag)
{
	const char *out = getenv("MMX_VIRTIO_OUT");
	const char *hold = getenv("MMX_VIRTIO_HOLD_MS");
	char heads[64] = "", path[512], what[64];
	struct mmx_ref_plane planes[3];
	int i;

	for (i = 0; i < n; i++) {
		struct mmx_fb *wb = mmx_wb_fb(d, &s[i].mode,
					      DRM_FORMAT_XRGB8888);
		struct mmx_frame *f = mmx_frame_new(s[i].mode.hdisplay,
						    s[i].mode.vdisplay);
		int np = scene_refs(&s[i], planes);

		snprintf(what, sizeof(what), "%s head %d", tag, s[i].o->index);
		mmx_do(mmx_wb_capture(d, s[i].o, wb));
		mmx_ref_compose(f, planes, np);
		mmx_assert_f(mmx_frame_check(wb, f, what),
			     "%s: writeback differs from the reference", what);
		mmx_frame_free(f);
		if (out) {
			snprintf(path, sizeof(path), "%s/%s-head-%d.ppm", out,
				 tag, s[i].o->index);
			save_ppm(wb, path);
		}
		snprintf(heads + strlen(heads), sizeof(heads) - strlen(heads),
			 "%s%d", i ? "," : "", s[i].o->index);
		mmx_fb_free(wb);
	}
	for (i = 0; i < n; i++)
		wait_host_idle(d, s[i].o);
	if (getenv("MMX_VIRTIO_SNAP")) {
		printf("mmx-virtio-snapshot: %s heads=%s\n", tag, heads);
		fflush(stdout);
		mmx_sleep_ms(hold ? atoi(hold) : 3000);
	}
}

/* Up to MAX modes of the connector of O. */
static int conn_modes(struct mmx_dev *d, struct mmx_output *o,
		      drmModeModeInfo *modes, int max)
{
	drmModeConnectorPtr c = drmModeGetConnector(d->fd, o->conn_id);
	int i, n = 0;

	for (i = 0; c && i < c->count_modes && n < max; i++)
		modes[n++] = c->modes[i];
	drmModeFreeConnector(c);
	return n;
}

static struct mmx_output *first_output(struct mmx_dev *d)
{
	mmx_require(is_virtio(d));
	mmx_require_f(d->n_outputs > 0 && connected(d, &d->out[0]),
		      "output 0 is not connected");
	return &d->out[0];
}

/* Bytes sent to the host by FN(d, arg) once it all reached the host. */
static uint64_t host_bytes_before(struct mmx_dev *d, struct mmx_output *o)
{
	wait_host_idle(d, o);
	return virtio_stat(d, "bytes_to_host");
}

static uint64_t host_bytes_since(struct mmx_dev *d, struct mmx_output *o,
				 uint64_t before)
{
	wait_host_idle(d, o);
	return virtio_stat(d, "bytes_to_host") - before;
}

/* ------------------------------------------------------------------------ */
/* Subtests                                                                 */

static void test_topology(struct mmx_dev *d)
{
	uint64_t scanouts;
	int i;

	mmx_require(is_virtio(d));
	scanouts = virtio_stat(d, "scanouts");
	mmx_info("%" PRIu64 " host scanout(s)", scanouts);
	mmx_assert_eq(d->n_outputs, (long long)scanouts);

	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		drmModePropertyBlobPtr blob;
		struct scanout_info s;
		drmModeModeInfo pref;
		uint64_t edid;
		static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff,
						   0xff, 0xff, 0xff, 0 };

		mmx_assert_eq(o->conn_type, DRM_MODE_CONNECTOR_DisplayPort);
		mmx_assert(o->wb_conn_id && o->primary && o->cursor &&
			   o->n_overlays == 2);
		mmx_assert(scanout_info(d, i, &s));
		mmx_info("%s: host %s %dx%d, EDID %d bytes", o->name,
			 s.host_enabled ? "enabled" : "disabled", s.host_w,
			 s.host_h, s.edid_len);
		if (i == 0)
			mmx_assert_f(s.host_enabled && connected(d, o),
				     "the host's first scanout is enabled");
		if (!connected(d, o))
			continue;

		/* The EDID property holds the host's EDID. */
		edid = mmx_prop_get(d, o->conn_id, "EDID");
		if (s.edid_len) {
			mmx_assert_f(edid, "%s: no EDID blob", o->name);
			blob = drmModeGetPropertyBlob(d->fd, (uint32_t)edid);
			mmx_assert(blob && blob->length >= 128 &&
				   blob->length % 128 == 0);
			mmx_assert(!memcmp(blob->data, header, 8));
			drmModeFreePropertyBlob(blob);
		}
		/* The host's size is the preferred mode. */
		if (s.host_enabled) {
			mmx_assert(o->has_preferred);
			pref = o->preferred;
			mmx_assert_eq(pref.hdisplay, s.host_w);
			mmx_assert_eq(pref.vdisplay, s.host_h);
		}
	}
}

static void test_pattern(struct mmx_dev *d)
{
	struct scene s[MMX_MAX_OUTPUTS];
	int i, n = 0;

	mmx_require(is_virtio(d));
	for (i = 0; i < d->n_outputs; i++) {
		if (!connected(d, &d->out[i]))
			continue;
		scene_make(d, &s[n], &d->out[i], 100 + 10 * i, true);
		n++;
	}
	mmx_require_f(n, "no connected output");
	scenes_show(d, s, n);
	scenes_check(d, s, n, "pattern");
	for (i = 0; i < n; i++)
		mmx_assert_f(virtio_stat(d, "live_resources") >= (uint64_t)n,
			     "fewer live host resources than lit outputs");
}

static void test_damage_cursor(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	uint64_t frame_bytes, before, sent;
	struct scene s;

	scene_make(d, &s, o, 7, false);
	frame_bytes = (uint64_t)s.mode.hdisplay * s.mode.vdisplay * 4;
	scenes_show(d, &s, 1);

	/* Far away: the old and the new 64x64 rectangles. */
	before = host_bytes_before(d, o);
	cursor_move(d, &s, s.mode.hdisplay / 2, s.mode.vdisplay / 2);
	sent = host_bytes_since(d, o, before);
	mmx_info("cursor moved far: %" PRIu64 " of %" PRIu64 " bytes (%.2f%%)",
		 sent, frame_bytes, 100.0 * sent / frame_bytes);
	mmx_assert_eq(sent, 2 * CURSOR * CURSOR * 4);
	mmx_assert_lt(sent * 20, frame_bytes);

	/* A little: one rectangle covering both. */
	before = host_bytes_before(d, o);
	cursor_move(d, &s, s.cur_x + 8, s.cur_y + 4);
	sent = host_bytes_since(d, o, before);
	mmx_info("cursor moved by (8,4): %" PRIu64 " bytes", sent);
	mmx_assert_eq(sent, (CURSOR + 8) * (CURSOR + 4) * 4);

	scenes_check(d, &s, 1, "damage-cursor");
}

static void test_damage_dirtyfb(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	uint64_t frame_bytes, before, sent;
	drmModeClip clip = { 100, 60, 100 + 32, 60 + 32 };
	struct scene s;

	scene_make(d, &s, o, 11, true);
	frame_bytes = (uint64_t)s.mode.hdisplay * s.mode.vdisplay * 4;
	scenes_show(d, &s, 1);

	/* Draw into the shown framebuffer, then DIRTYFB that rectangle. */
	before = host_bytes_before(d, o);
	mmx_fb_rect(s.primary, clip.x1, clip.y1, 32, 32, 0xff20c040);
	mmx_do(drmModeDirtyFB(d->fd, s.primary->id, &clip, 1) ? -errno : 0);
	sent = host_bytes_since(d, o, before);
	mmx_info("32x32 DIRTYFB clip: %" PRIu64 " of %" PRIu64 " bytes (%.2f%%)",
		 sent, frame_bytes, 100.0 * sent / frame_bytes);
	mmx_assert_eq(sent, 32 * 32 * 4);
	mmx_assert_lt(sent * 20, frame_bytes);
	scenes_check(d, &s, 1, "damage-dirtyfb");

	/* DIRTYFB without clips: the whole plane. */
	before = host_bytes_before(d, o);
	mmx_fb_rect(s.primary, 0, s.mode.vdisplay - 8, s.mode.hdisplay, 8,
		    0xff804020);
	mmx_do(drmModeDirtyFB(d->fd, s.primary->id, NULL, 0) ? -errno : 0);
	sent = host_bytes_since(d, o, before);
	mmx_info("DIRTYFB without clips: %" PRIu64 " bytes", sent);
	mmx_assert_eq(sent, frame_bytes);
}

static void test_damage_clips(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	struct drm_mode_rect rect = { 200, 100, 200 + 48, 100 + 16 };
	uint64_t before, sent, frame_bytes;
	struct mmx_fb *first, *next;
	struct mmx_req *r;
	struct scene s;
	uint32_t blob;

	scene_make(d, &s, o, 23, true);
	frame_bytes = (uint64_t)s.mode.hdisplay * s.mode.vdisplay * 4;
	scenes_show(d, &s, 1);

	/* Flip to a copy that differs in RECT, saying so in the clips. */
	first = s.primary;
	next = mmx_fb_new(d, first->width, first->height, DRM_FORMAT_XRGB8888);
	mmx_fb_copy(next, first);
	mmx_fb_rect(next, rect.x1, rect.y1, 48, 16, 0xff1060f0);
	mmx_do(mmx_blob_create(d, &rect, sizeof(rect), &blob));

	before = host_bytes_before(d, o);
	r = mmx_req_new(d);
	mmx_req_add(r, o->primary, "FB_ID", next->id);
	mmx_req_add(r, o->primary, "FB_DAMAGE_CLIPS", blob);
	mmx_do(mmx_req_commit(r, 0));
	sent = host_bytes_since(d, o, before);
	mmx_info("page flip with a 48x16 damage clip: %" PRIu64 " bytes", sent);
	mmx_assert_eq(sent, 48 * 16 * 4);
	s.primary = next;
	scenes_check(d, &s, 1, "damage-clips");

	/* A flip without clips sends the whole plane. */
	before = host_bytes_before(d, o);
	r = mmx_req_new(d);
	mmx_req_add(r, o->primary, "FB_ID", first->id);
	mmx_do(mmx_req_commit(r, 0));
	sent = host_bytes_since(d, o, before);
	mmx_info("page flip without clips: %" PRIu64 " bytes", sent);
	mmx_assert_eq(sent, frame_bytes);
	s.primary = first;
}

static void test_untouched_planes(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	uint64_t before;
	struct mmx_req *r;
	struct scene s;

	scene_make(d, &s, o, 31, true);
	scenes_show(d, &s, 1);

	/* Changing a property of the CRTC's connector only: nothing to send. */
	before = host_bytes_before(d, o);
	r = mmx_req_new(d);
	mmx_req_add(r, o->conn_id, "CRTC_ID", o->crtc_id);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq(host_bytes_since(d, o, before), 0);

	/* A writeback capture keeps the resource and sends nothing. */
	before = host_bytes_before(d, o);
	scenes_check(d, &s, 1, "untouched");
	mmx_assert_eq(host_bytes_since(d, o, before), 0);
}

static void test_disable_frees(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	drmModeModeInfo modes[64];
	uint64_t live, errors;
	struct scanout_info si;
	struct scene s, other;
	struct mmx_req *r;
	int i;

	errors = virtio_stat(d, "host_errors");
	live = virtio_stat(d, "live_resources");
	scene_make(d, &s, o, 41, false);
	scenes_show(d, &s, 1);
	wait_host_idle(d, o);
	mmx_assert_eq(virtio_stat(d, "live_resources"), live + 1);
	mmx_assert(scanout_info(d, o->index, &si) && si.resource && si.live);

	r = mmx_req_new(d);
	mmx_req_output_off(r, o);
	mmx_req_plane_off(r, o->primary);
	mmx_req_plane_off(r, o->cursor);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_assert_eq(virtio_stat(d, "live_resources"), live);
	mmx_assert(scanout_info(d, o->index, &si) && !si.resource && !si.live);

	/* On again, then a mode of another size: a new resource, the old
	 * one freed. */
	scenes_show(d, &s, 1);
	wait_host_idle(d, o);
	mmx_assert_eq(virtio_stat(d, "live_resources"), live + 1);
	other = s;
	other.primary = NULL;
	for (i = 0; i < conn_modes(d, o, modes, 64); i++) {
		if (modes[i].hdisplay != s.mode.hdisplay ||
		    modes[i].vdisplay != s.mode.vdisplay) {
			other.mode = modes[i];
			break;
		}
	}
	mmx_require_f(other.mode.hdisplay != s.mode.hdisplay ||
		      other.mode.vdisplay != s.mode.vdisplay,
		      "%s has a single mode size", o->name);
	other.primary = mmx_fb_new(d, other.mode.hdisplay,
				   other.mode.vdisplay, DRM_FORMAT_XRGB8888);
	mmx_fb_random(other.primary, 42, MMX_ALPHA_ANY);
	scenes_show(d, &other, 1);
	wait_host_idle(d, o);
	mmx_assert(scanout_info(d, o->index, &si));
	mmx_info("%dx%d, then %dx%d: resource %u %dx%d", s.mode.hdisplay,
		 s.mode.vdisplay, other.mode.hdisplay, other.mode.vdisplay,
		 si.resource, si.width, si.height);
	mmx_assert(si.resource && si.live);
	mmx_assert_eq(si.width, other.mode.hdisplay);
	mmx_assert_eq(si.height, other.mode.vdisplay);
	mmx_assert_eq(virtio_stat(d, "live_resources"), live + 1);
	mmx_assert_eq(virtio_stat(d, "host_errors"), errors);
}

static void test_crc_writeback(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	struct scene s;
	uint32_t crc1, crc2;

	scene_make(d, &s, o, 53, true);
	scenes_show(d, &s, 1);
	crc1 = mmx_crc_get(d, o->index);
	cursor_move(d, &s, s.cur_x + 1, s.cur_y);
	crc2 = mmx_crc_get(d, o->index);
	mmx_info("CRC 0x%08x, after a cursor move 0x%08x", crc1, crc2);
	mmx_assert_neq(crc1, crc2);
	scenes_check(d, &s, 1, "crc-writeback");
}

static void test_no_host_errors(struct mmx_dev *d)
{
	mmx_require(is_virtio(d));
	mmx_assert_eq(virtio_stat(d, "host_errors"), 0);
	mmx_assert_eq(virtio_stat(d, "submit_errors"), 0);
}

static void test_host_error(struct mmx_dev *d)
{
	struct mmx_output *o = first_output(d);
	uint64_t errors, before, sent;
	int64_t end = mmx_now_ns() + 5000000000LL;
	char path[192];
	struct scene s;

	scene_make(d, &s, o, 61, false);
	scenes_show(d, &s, 1);
	errors = virtio_stat(d, "host_errors");

	snprintf(path, sizeof(path), "%s/virtio_inject_error", d->debugfs);
	mmx_do(mmx_write_file(path, "1"));
	while (virtio_stat(d, "host_errors") == errors) {
		mmx_assert_f(mmx_now_ns() < end,
			     "no host error counted 5 s after the bad command");
		mmx_sleep_ms(10);
	}
	mmx_assert_eq(virtio_stat(d, "host_errors"), errors + 1);

	/* The display goes on. */
	before = host_bytes_before(d, o);
	cursor_move(d, &s, s.cur_x + 100, s.cur_y + 100);
	sent = host_bytes_since(d, o, before);
	mmx_assert_eq(sent, 2 * CURSOR * CURSOR * 4);
	scenes_check(d, &s, 1, "host-error");
}

static const struct mmx_subtest tests[] = {
	{ "virtio-topology", "one DisplayPort output per host scanout, the host's EDID in the EDID property and its size as the preferred mode",
	  test_topology, NULL, NULL },
	{ "virtio-pattern", "primary, translucent overlay and cursor on every connected output: writeback equals the software reference (the host compares its screendumps with the captures)",
	  test_pattern, NULL, NULL },
	{ "virtio-damage-cursor", "moving a 64x64 cursor sends only the old and new cursor rectangles (their union when they overlap) to the host",
	  test_damage_cursor, NULL, NULL },
	{ "virtio-damage-dirtyfb", "DIRTYFB of a 32x32 rectangle sends 32x32 pixels; without clips the whole plane",
	  test_damage_dirtyfb, NULL, NULL },
	{ "virtio-damage-clips", "a page flip with FB_DAMAGE_CLIPS sends only the clip",
	  test_damage_clips, NULL, NULL },
	{ "virtio-untouched-planes", "a commit that changes no plane and a writeback capture send nothing to the host",
	  test_untouched_planes, NULL, NULL },
	{ "virtio-disable-frees", "turning an output off frees its host resource (debugfs live_resources), turning it on creates one, a mode of another size replaces it",
	  test_disable_frees, NULL, NULL },
	{ "virtio-crc-writeback", "CRCs and writeback work on the virtio backend and follow a cursor move",
	  test_crc_writeback, NULL, NULL },
	{ "virtio-no-host-errors", "no command got an error answer from the host and none failed to be sent",
	  test_no_host_errors, NULL, NULL },
	{ "virtio-host-error", "a command the host refuses (debugfs virtio_inject_error) is counted as a host error and the display goes on",
	  test_host_error, NULL, NULL },
};

MMX_MAIN("mmx virtio-gpu backend", tests)
