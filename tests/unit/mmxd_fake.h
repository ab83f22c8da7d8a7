/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * The fake mmxd backend shared by the host tests of mmxd's media and TIME
 * requests (test_mmxd_media.c, test_mmxd_time.c): a display that answers
 * HELLO, a fake clock, framebuffers counted, timed commits kept in a table
 * that a fake vblank executes, a decoder that "decodes" text through a
 * pipe like the pool's fd. Static functions: include it once per test.
 */
#ifndef MMXD_FAKE_H
#define MMXD_FAKE_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "mmxd.h"
#include "mmx_wire.h"

/* ---- the fake display (only what HELLO needs) --------------------------- */

static int fd_state(void *ctx, int probe, struct mmx_state *s)
{
	(void)ctx;
	(void)probe;
	memset(s, 0, sizeof(*s));
	return 0;
}

static int fd_apply(void *ctx, const struct mmx_config *cfg,
		    struct mmx_error *err)
{
	(void)ctx;
	(void)cfg;
	(void)err;
	return 0;
}

static int fd_pointer(void *ctx, int32_t x, int32_t y)
{
	(void)ctx;
	(void)x;
	(void)y;
	return 0;
}

static int fd_capture(void *ctx, uint32_t crtc, uint32_t *w, uint32_t *h,
		      uint32_t **px)
{
	(void)ctx;
	(void)crtc;
	(void)w;
	(void)h;
	(void)px;
	return -EOPNOTSUPP;
}

static const struct mmx_display_ops display_ops = {
	.state = fd_state,
	.apply = fd_apply,
	.pointer_moved = fd_pointer,
	.capture = fd_capture,
};

/* ---- the fake media backend -------------------------------------------- */

#define NSCHED	256
#define NDEC	512

struct sched {
	int used;
	uint64_t id, user;
	int64_t exec, expire;
	uint32_t fb;
};

static struct {
	int64_t now;
	unsigned int fbs;		/* alive */
	uint32_t next_fb;
	struct sched sched[NSCHED];
	uint64_t next_sched;
	unsigned int pending;		/* timed commits not completed */
	struct mmxd_sched_event done[NSCHED];
	unsigned int ndone;
	int ev_pipe[2];
	struct mmx_decode_result dec[NDEC];
	unsigned int ndec;
	int dec_pipe[2];
	unsigned int cancels, untargets;
	uint64_t seq;
	int vsources;
} fk;

static int64_t fk_now(void *ctx)
{
	(void)ctx;
	return fk.now;
}

static int fk_target(void *ctx, uint32_t output, const uint32_t *busy,
		     unsigned int nbusy, struct mmxd_video_target *t)
{
	uint32_t plane;
	unsigned int i;

	(void)ctx;
	if (output && output != 50)
		return -ENODEV;
	for (plane = 60; plane < 70; plane++) {
		int used = 0;

		for (i = 0; i < nbusy; i++)
			used |= busy[i] == plane;
		if (!used)
			break;
	}
	t->crtc = 40;
	t->plane = plane;
	t->crtc_width = 1024;
	t->crtc_height = 768;
	return 0;
}

static void fk_untarget(void *ctx, const struct mmxd_video_target *t)
{
	(void)ctx;
	(void)t;
	fk.untargets++;
}

static int fk_fb_new(void *ctx, uint32_t w, uint32_t h, struct mmxd_fb *fb)
{
	(void)ctx;
	fb->pitch = w * 4;
	fb->size = (size_t)fb->pitch * h;
	fb->map = calloc(1, fb->size);
	if (!fb->map)
		return -ENOMEM;
	fb->id = ++fk.next_fb;
	fk.fbs++;
	return 0;
}

static void fk_fb_free(void *ctx, struct mmxd_fb *fb)
{
	(void)ctx;
	free(fb->map);
	memset(fb, 0, sizeof(*fb));
	fk.fbs--;
}

static void kick(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		abort();
}

static void complete(struct sched *e, uint32_t status, int64_t ts)
{
	struct mmxd_sched_event *d = &fk.done[fk.ndone++];

	d->user = e->user;
	d->sched = e->id;
	d->status = status;
	d->error = 0;
	d->sequence = status == 1 ? ++fk.seq : 0;
	d->timestamp_ns = ts;
	e->used = 0;
	fk.pending--;
	kick(fk.ev_pipe[1]);
}

static int fk_schedule(void *ctx, const struct mmxd_video_target *t,
		       uint32_t fb, int32_t x, int32_t y, uint32_t w, uint32_t h,
		       int64_t exec, int64_t expire, uint64_t user,
		       uint64_t *sched)
{
	unsigned int i;

	(void)ctx;
	(void)t;
	(void)x;
	(void)y;
	(void)w;
	(void)h;
	if (exec > expire || !fb)
		return -EINVAL;
	if (fk.pending >= 64)
		return -ENOSPC;
	for (i = 0; i < NSCHED; i++) {
		if (!fk.sched[i].used) {
			fk.sched[i] = (struct sched){
				.used = 1, .id = ++fk.next_sched, .user = user,
				.exec = exec, .expire = expire, .fb = fb,
			};
			fk.pending++;
			*sched = fk.sched[i].id;
			return 0;
		}
	}
	return -ENOSPC;
}

static int fk_retract(void *ctx, uint64_t id)
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < NSCHED; i++) {
		if (fk.sched[i].used && fk.sched[i].id == id) {
			complete(&fk.sched[i], 3, 0);
			return 0;
		}
	}
	return id && id <= fk.next_sched ? -EBUSY : -ENOENT;
}

#endif /* MMXD_FAKE_H */
