// SPDX-License-Identifier: MIT
/*
 * kms_mmx_crc - the debugfs CRC of the composed frame: stable for a static
 * frame, one entry per frame, different when any pixel differs, equal when
 * the composed pixels are equal however they were produced (pitch, offset,
 * format, planes, writeback round trip), and the picture of the frame it
 * is labelled with.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "mmx_igt.h"

#define W 320
#define H 240

/* Show FB whole at (0, 0) on the primary plane, without a modeset. */
static void flip_to(struct mmx_dev *d, struct mmx_output *o, struct mmx_fb *fb)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_plane(r, o->primary, o->crtc_id, fb->id, 0, 0, (int)fb->width,
		      (int)fb->height, 0, 0, (int)fb->width, (int)fb->height);
	mmx_do(mmx_req_commit(r, 0));
}

/* Ten CRCs: always all equal; true if they came from consecutive frames. */
static bool crc_consecutive_once(struct mmx_dev *d, void *arg)
{
	struct mmx_output *o = arg;
	uint32_t crcs[10], frames[10];
	bool consecutive = true;
	int i;

	(void)d;
	mmx_crc_collect(d, o->index, 10, crcs, frames);
	for (i = 0; i < 10; i++)
		mmx_debug("frame %u: 0x%08x", frames[i], crcs[i]);
	for (i = 1; i < 10; i++) {
		mmx_assert_f(crcs[i] == crcs[0],
			     "CRC of frame %u 0x%08x != 0x%08x of frame %u",
			     frames[i], crcs[i], crcs[0], frames[0]);
		if (frames[i] != frames[i - 1] + 1) {
			mmx_info("frame %u follows frame %u", frames[i],
				 frames[i - 1]);
			consecutive = false;
		}
	}
	mmx_info("10 equal CRCs 0x%08x, frames %u..%u", crcs[0], frames[0],
		 frames[9]);
	return consecutive;
}

static void test_crc_static_stable(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *fb = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	uint32_t crc0, frame, crc;
	struct mmx_crc c;

	mmx_fb_random(fb, 1, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), fb, 0, 0));
	crc0 = mmx_crc_get(d, o->index);
	/* one entry per frame (judged unless the emulator stalls) */
	mmx_timing_attempts(crc_consecutive_once, d, o,
			    mmx_mode_frame_ns(mmx_small_mode()), "CRC per frame");
	/* the same after stopping and restarting the capture */
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc0);

	/* one value per line */
	mmx_do(mmx_crc_start(d, o->index, &c));
	mmx_do(mmx_crc_next(&c, &frame, &crc));
	mmx_assert_eq(c.values, 1);
	mmx_assert_eq_u64(crc, crc0);
	mmx_crc_stop(&c);
}

static void test_crc_one_pixel(struct mmx_dev *d)
{
	static const int pixels[][2] = { { 0, 0 }, { W - 1, H - 1 },
					 { W - 1, 0 }, { 0, H - 1 },
					 { 160, 120 }, { 33, 201 } };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *base = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *mod = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	uint32_t crc0, crc;
	size_t i;
	int ch;

	mmx_fb_random(base, 2, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), base, 0, 0));
	crc0 = mmx_crc_get(d, o->index);
	for (i = 0; i < MMX_ARRAY_SIZE(pixels); i++) {
		int x = pixels[i][0], y = pixels[i][1];

		for (ch = 0; ch < 3; ch++) {
			uint32_t v;

			/* the same image but one channel of one pixel, off by one */
			memcpy(mod->map, base->map, base->size);
			v = mmx_fb_get_raw(mod, x, y);
			v ^= 1u << (8 * ch);
			mmx_fb_put_raw(mod, x, y, v);
			flip_to(d, o, mod);
			crc = mmx_crc_get(d, o->index);
			mmx_debug("(%d,%d) channel %d: 0x%08x", x, y, ch, crc);
			mmx_assert_f(crc != crc0,
				     "pixel (%d,%d) channel %d changed by 1: CRC stays 0x%08x",
				     x, y, ch, crc);
		}
	}
	/* back to the original: the original CRC */
	flip_to(d, o, base);
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc0);

	/* X bits are not part of the picture */
	memcpy(mod->map, base->map, base->size);
	mmx_fb_put_raw(mod, 5, 5, mmx_fb_get_raw(mod, 5, 5) ^ 0xff000000);
	flip_to(d, o, mod);
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc0);
}

static void test_crc_pitch_offset(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *a = mmx_fb_new_ex(d, W, H, DRM_FORMAT_XRGB8888, 4 * W, 0);
	struct mmx_fb *b = mmx_fb_new_ex(d, W, H, DRM_FORMAT_XRGB8888,
					 4 * W + 256, 3 * 4096 + 512);
	uint32_t ca, cb;
	int i;

	mmx_fb_random(a, 3, MMX_ALPHA_ANY);
	/* garbage around b's pixels, then the same image */
	memset(b->map, 0xa5, b->size);
	mmx_fb_copy(b, a);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), a, 0, 0));
	ca = mmx_crc_get(d, o->index);
	for (i = 0; i < 3; i++) {
		struct mmx_fb *to = i % 2 ? a : b;

		/* a different pitch and offset: no ALLOW_MODESET needed */
		flip_to(d, o, to);
		mmx_assert_eq(mmx_prop_get(d, o->primary, "FB_ID"), to->id);
		cb = mmx_crc_get(d, o->index);
		mmx_info("pitch %u offset %u: CRC 0x%08x", to->pitch, to->offset,
			 cb);
		mmx_assert_eq_u64(cb, ca);
	}
	/* the image really is there */
	{
		struct mmx_ref_plane p = mmx_ref_fb(a, 0, 0);

		flip_to(d, o, b);
		mmx_check_output(d, o, mmx_small_mode(), &p, 1, "pitch-offset");
	}
}

static void test_crc_format_equivalence(struct mmx_dev *d)
{
	static const uint32_t formats[] = { DRM_FORMAT_ARGB8888,
					    DRM_FORMAT_XBGR8888,
					    DRM_FORMAT_ABGR8888,
					    DRM_FORMAT_RGB888,
					    DRM_FORMAT_XRGB2101010 };
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *ref = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *r565 = mmx_fb_new(d, W, H, DRM_FORMAT_RGB565);
	struct mmx_fb *x565 = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	uint32_t crc0, crc;
	size_t i;

	mmx_fb_random(ref, 4, MMX_ALPHA_ANY);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), ref, 0, 0));
	crc0 = mmx_crc_get(d, o->index);
	for (i = 0; i < MMX_ARRAY_SIZE(formats); i++) {
		struct mmx_fb *fb = mmx_fb_new(d, W, H, formats[i]);
		int x, y;

		/* the same colours, opaque */
		for (y = 0; y < H; y++)
			for (x = 0; x < W; x++)
				mmx_fb_put(fb, x, y, 0xff000000 |
					   mmx_ref_decode(ref->format,
							  mmx_fb_ptr(ref, x, y)));
		flip_to(d, o, fb);
		crc = mmx_crc_get(d, o->index);
		mmx_info("%s: 0x%08x (xrgb8888 0x%08x)", mmx_format_name(formats[i]),
			 crc, crc0);
		mmx_assert_f(crc == crc0, "%s shows the same colours with another CRC",
			     mmx_format_name(formats[i]));
	}
	/* RGB565 against its 8-bit expansion */
	mmx_fb_random(r565, 5, MMX_ALPHA_ANY);
	mmx_fb_copy(x565, r565);
	flip_to(d, o, x565);
	crc0 = mmx_crc_get(d, o->index);
	flip_to(d, o, r565);
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc0);
}

static void test_crc_black(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *black = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	struct mmx_fb *clear = mmx_fb_new(d, 100, 100, DRM_FORMAT_ARGB8888);
	struct mmx_req *r;
	uint32_t crc_empty, crc;

	/* no plane at all == an all-black primary */
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
	crc_empty = mmx_crc_get(d, o->index);
	mmx_fb_fill(black, 0xff000000);
	flip_to(d, o, black);
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc_empty);

	/* a fully transparent overlay changes nothing */
	mmx_fb_fill(clear, 0x00000000);
	r = mmx_req_new(d);
	mmx_req_plane(r, o->overlay[0], o->crtc_id, clear->id, 0, 0, 100, 100,
		      50, 50, 100, 100);
	mmx_do(mmx_req_commit(r, 0));
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc_empty);

	/* but one grey pixel does */
	mmx_fb_put(black, 319, 0, 0xff010101);
	r = mmx_req_new(d);
	mmx_req_plane_off(r, o->overlay[0]);
	mmx_do(mmx_req_commit(r, 0));
	crc = mmx_crc_get(d, o->index);
	mmx_assert_neq_u64(crc, crc_empty);
}

static void test_crc_vs_writeback(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_fb *bg = mmx_fb_new(d, W, H, DRM_FORMAT_RGB565);
	struct mmx_fb *ov = mmx_fb_new(d, 200, 150, DRM_FORMAT_ARGB8888);
	struct mmx_fb *wb = mmx_wb_fb(d, mmx_small_mode(), DRM_FORMAT_XRGB8888);
	struct mmx_req *r;
	uint32_t crc_scene;

	/* a scene with blending ... */
	mmx_fb_random(bg, 6, MMX_ALPHA_ANY);
	mmx_fb_random(ov, 7, MMX_ALPHA_PREMULT);
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), bg, 0, 0));
	r = mmx_req_new(d);
	mmx_req_plane(r, o->overlay[1], o->crtc_id, ov->id, 0, 0, 200, 150, 80,
		      60, 200, 150);
	mmx_req_add(r, o->overlay[1], "alpha", 0xc000);
	mmx_do(mmx_req_commit(r, 0));
	crc_scene = mmx_crc_get(d, o->index);
	/* ... captured, then shown alone: the same pixels, the same CRC */
	mmx_do(mmx_wb_capture(d, o, wb));
	r = mmx_req_new(d);
	mmx_req_plane_off(r, o->overlay[1]);
	mmx_req_plane(r, o->primary, o->crtc_id, wb->id, 0, 0, W, H, 0, 0, W, H);
	mmx_req_add(r, o->wb_conn_id, "CRTC_ID", 0);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_assert_eq_u64(mmx_crc_get(d, o->index), crc_scene);
}

static void test_crc_inactive(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	struct mmx_crc c;
	uint32_t frame, crc;
	int ret;

	/* mmx_reset() left every CRTC off */
	ret = mmx_crc_start(d, o->index, &c);
	if (ret == 0) {
		ret = mmx_crc_next(&c, &frame, &crc);
		mmx_crc_stop(&c);
	}
	mmx_info("CRC of an inactive CRTC: %s", strerror(-ret));
	mmx_assert_eq(ret, -EIO);

	/* and it works once the CRTC is on */
	mmx_do(mmx_output_set(d, o, mmx_small_mode(), NULL, 0, 0));
	mmx_crc_get(d, o->index);
}

static void test_crc_per_crtc(struct mmx_dev *d)
{
	struct mmx_fb *a, *b;
	uint32_t c0, c1;
	int i;

	mmx_require_f(d->n_outputs >= 2, "needs two outputs");
	a = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	b = mmx_fb_new(d, W, H, DRM_FORMAT_XRGB8888);
	mmx_fb_random(a, 8, MMX_ALPHA_ANY);
	mmx_fb_random(b, 9, MMX_ALPHA_ANY);
	for (i = 0; i < 2; i++)
		mmx_do(mmx_output_set(d, &d->out[i], mmx_small_mode(), a, 0, 0));
	c0 = mmx_crc_get(d, 0);
	c1 = mmx_crc_get(d, 1);
	mmx_assert_eq_u64(c0, c1);
	flip_to(d, &d->out[1], b);
	mmx_assert_eq_u64(mmx_crc_get(d, 0), c0);
	mmx_assert_neq_u64(mmx_crc_get(d, 1), c0);
}

/*
 * Flips at moments spread over the frame while the composer is busy (a
 * large mode on an emulated CPU takes longer than a frame to compose):
 * every CRC entry carries the picture of its frame, the old one before
 * the frame the flip's event names, the new one from that frame on. The
 * composer may skip frames; it never labels one with the other picture.
 */
#define LABEL_FLIPS 20

static void test_crc_flip_label(struct mmx_dev *d)
{
	struct mmx_output *o = mmx_output0(d);
	uint32_t want[2], frame, crc, entries = 0;
	drmModeModeInfo mode;
	struct mmx_fb *fb[2];
	struct mmx_event ev;
	struct timespec ts;
	struct mmx_crc c;
	int i;

	mmx_mode_make(&mode, 1920, 1080, 60);
	for (i = 0; i < 2; i++) {
		fb[i] = mmx_fb_new(d, 1920, 1080, DRM_FORMAT_XRGB8888);
		mmx_fb_random(fb[i], 20 + i, MMX_ALPHA_ANY);
	}
	mmx_do(mmx_output_set(d, o, &mode, fb[1], 0, 0));
	want[1] = mmx_crc_get(d, o->index);
	flip_to(d, o, fb[0]);
	want[0] = mmx_crc_get(d, o->index);
	mmx_assert_neq_u64(want[0], want[1]);

	mmx_event_flush(d->fd);
	mmx_do(mmx_crc_start(d, o->index, &c));
	mmx_do(mmx_crc_next(&c, &frame, &crc));
	for (i = 1; i <= LABEL_FLIPS; i++) {
		struct mmx_req *r = mmx_req_new(d);

		ts.tv_sec = 0;
		ts.tv_nsec = (long)(mmx_mode_frame_ns(&mode) * (i % 5) / 5);
		nanosleep(&ts, NULL);
		mmx_req_add(r, o->primary, "FB_ID", fb[i % 2]->id);
		mmx_do(mmx_req_commit(r, DRM_MODE_PAGE_FLIP_EVENT |
					 DRM_MODE_ATOMIC_NONBLOCK));
		mmx_do(mmx_event_wait(d->fd, 5000, &ev));
		/* the entries up to the first frame after the flip's */
		do {
			bool before;

			mmx_do(mmx_crc_next(&c, &frame, &crc));
			before = (int32_t)(frame - ev.sequence) < 0;
			mmx_assert_f(crc == want[(i - before) % 2],
				     "flip %d shown from frame %u: frame %u has "
				     "the CRC of the %s picture", i,
				     ev.sequence, frame, before ? "new" : "old");
			entries++;
		} while ((int32_t)(frame - ev.sequence) < 1);
	}
	mmx_crc_stop(&c);
	mmx_info("%d flips, %u CRC entries, each with its frame's picture",
		 LABEL_FLIPS, entries);
}

static const struct mmx_subtest tests[] = {
	{ "crc-static-stable", "ten consecutive frames of a static picture: one entry per frame, all equal, and equal again after restarting",
	  test_crc_static_stable, NULL, NULL },
	{ "crc-one-pixel", "changing one channel of one pixel by one (corners, middle) changes the CRC; restoring it restores the CRC; X bits do not count",
	  test_crc_one_pixel, NULL, NULL },
	{ "crc-pitch-offset", "the same image with pitch 4*w and with pitch 4*w+256 at a non-zero offset gives identical CRCs, flipping between them needs no ALLOW_MODESET",
	  test_crc_pitch_offset, NULL, NULL },
	{ "crc-format-equivalence", "the same colours in every format (and RGB565 against its expansion) give the same CRC",
	  test_crc_format_equivalence, NULL, NULL },
	{ "crc-black", "no plane, an all-black primary and a transparent overlay are the same frame; one dark grey pixel is not",
	  test_crc_black, NULL, NULL },
	{ "crc-vs-writeback", "a blended scene and its writeback capture shown alone have the same CRC",
	  test_crc_vs_writeback, NULL, NULL },
	{ "crc-inactive", "CRC capture on an inactive CRTC fails with EIO, and works once it is on",
	  test_crc_inactive, NULL, NULL },
	{ "crc-per-crtc", "two CRTCs showing the same picture have the same CRC, and only the changed one changes",
	  test_crc_per_crtc, NULL, NULL },
	{ "crc-flip-label", "flips at moments spread over the frame while a 1920x1080 frame is composed: each CRC entry has the picture its frame showed (before the flip's event's frame the old one, from it the new one); entries may be skipped, never mislabelled",
	  test_crc_flip_label, NULL, NULL },
};

MMX_MAIN("mmx debugfs CRCs", tests)
