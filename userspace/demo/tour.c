// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxdemo -T: a tour of what mmx is for, through libmmx on the device
 * (RandR 1.3's model over KMS), each step saved as pictures captured
 * through the writeback connectors:
 *
 *   rotate.ppm     an output unrotated | the same output turned left
 *   keystone.ppm   an output before | after keystone correction
 *   pan-N.ppm      two outputs side by side while the pointer crosses a
 *                  screen twice their width, each panning over its half
 *                  (RandR 1.3 panning with tracking areas); the pointer is
 *                  drawn on the pictures where it is, and a map of the
 *                  screen below shows the areas the outputs show
 *   timed.ppm      an output before | after a commit timed for a given
 *                  CLOCK_MONOTONIC time (DRM_IOCTL_MMX_SCHEDULE_SUBMIT)
 *
 * Every step prints what it did, and a "summary:" line that tests/vm/demo
 * repeats at the end. libmmx does the configuration, the panning policy and
 * the captures; only the timed commit, which libmmx offers through mmxd
 * alone, talks to the driver's ioctl directly (with kms.c's framebuffer
 * and property helpers).
 */
#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drm/mmx_drm.h"
#include "libmmx.h"
#include "mmx_screen_pattern.h"
#include "demo.h"

struct tour {
	struct mmx_display *d;
	int fd;
	const char *outdir;
	/* the outputs used, their modes, the screen size of every step */
	uint32_t out[2];
	char name[2][64];
	struct mmx_mode mode[2];
	int nout;
	uint32_t screen_w, screen_h;
};

#define PAN_FRAMES 5
#define MAP_SCALE 4	/* the panning pictures' map of the screen */

static int apply(struct tour *t, const struct mmx_config *cfg,
		 const char *what)
{
	struct mmx_error err = { 0 };
	int ret = mmx_apply(t->d, cfg, &err);

	if (ret)
		fprintf(stderr, "mmxdemo: %s: %s (%s)\n", what, err.message,
			strerror(-ret));
	return ret;
}

/*
 * Output @i's part of a step's config: the tour's screen size, the output
 * lit at (@x, @y) in its mode, unrotated, untransformed, without panning.
 * The caller changes what the step shows in the returned entry, and adds
 * the other output (step() again, or step_off()).
 */
static struct mmx_output_change *step(struct tour *t, struct mmx_config *cfg,
				      int i, int32_t x, int32_t y)
{
	struct mmx_output_change *c;

	mmx_config_set_screen_size(cfg, t->screen_w, t->screen_h);
	c = mmx_config_output(cfg, t->out[i]);
	c->flags |= MMX_CHANGE_MODE | MMX_CHANGE_POS | MMX_CHANGE_ROTATION |
		    MMX_CHANGE_TRANSFORM | MMX_CHANGE_PANNING;
	c->mode = t->mode[i];
	c->x = x;
	c->y = y;
	c->rotation = MMX_ROTATE_0;
	mmx_matrix_identity(c->transform.matrix);
	c->transform.filter = "nearest";
	memset(&c->panning, 0, sizeof(c->panning));
	return c;
}

static void step_off(struct tour *t, struct mmx_config *cfg, int i)
{
	if (i < t->nout)
		mmx_config_output(cfg, t->out[i])->flags = MMX_CHANGE_OFF;
}

/* The CRTC info of output @i now (a snapshot in @s, freed by the caller). */
static const struct mmx_crtc_info *crtc_now(struct tour *t, int i,
					    struct mmx_state **s)
{
	const struct mmx_output_info *o;

	if (mmx_get_screen_resources_current(t->d, s))
		return NULL;
	o = mmx_state_output(*s, t->out[i]);
	return o && o->crtc ? mmx_state_crtc(*s, o->crtc) : NULL;
}

static int capture(struct tour *t, int i, struct pic *p)
{
	struct mmx_state *s = NULL;
	const struct mmx_crtc_info *c = crtc_now(t, i, &s);
	int ret = -ENOENT;

	if (c)
		ret = mmx_capture(t->d, c->id, &p->w, &p->h, &p->px);
	mmx_state_free(s);
	if (ret)
		fprintf(stderr, "mmxdemo: capture of %s: %s\n", t->name[i],
			strerror(-ret));
	return ret;
}

/* Save @a | @b as @name. */
static int save_pair(struct tour *t, const char *name, struct pic *a,
		     struct pic *b)
{
	struct pic both[2] = { *a, *b }, row;
	int ret;

	if (!pic_row(&row, both, 2))
		return -ENOMEM;
	ret = pic_save(t->outdir, name, &row);
	free(row.px);
	return ret;
}

/* A step's two pictures of one output, before and after a change. */
struct shots {
	struct mmx_config *cfg;
	struct mmx_state *s;	/* the snapshot after */
	struct pic before, after;
};

/*
 * Output @i alone at (@x, 0) as step() lights it, applied (@what) and
 * captured into @sh->before; then @sh->cfg is empty again, for the caller
 * to step() the change into.
 */
static int shots_before(struct tour *t, struct shots *sh, int i, int32_t x,
			const char *what)
{
	int ret = mmx_config_new(&sh->cfg);

	if (ret)
		return ret;
	step(t, sh->cfg, i, x, 0);
	step_off(t, sh->cfg, 1 - i);
	ret = apply(t, sh->cfg, what);
	if (!ret)
		ret = capture(t, i, &sh->before);
	if (!ret)
		mmx_config_reset(sh->cfg);
	return ret;
}

/* The change applied (@what), captured into @sh->after; output @i's CRTC. */
static int shots_after(struct tour *t, struct shots *sh, int i,
		       const char *what, const struct mmx_crtc_info **crtc)
{
	int ret = apply(t, sh->cfg, what);

	if (!ret)
		ret = capture(t, i, &sh->after);
	if (ret)
		return ret;
	*crtc = crtc_now(t, i, &sh->s);
	return *crtc ? 0 : -ENOENT;
}

/* Free what @sh holds; returns @ret. */
static int shots_end(struct shots *sh, int ret)
{
	mmx_config_free(sh->cfg);
	mmx_state_free(sh->s);
	free(sh->before.px);
	free(sh->after.px);
	return ret;
}

/* ------------------------------------------------------------------------ */

static int tour_rotate(struct tour *t)
{
	int i = t->nout - 1;	/* the second output when there are two */
	struct shots sh = { 0 };
	struct mmx_output_change *c;
	const struct mmx_crtc_info *crtc;
	int ret;

	printf("\n---- rotation: %s, RandR's \"normal\" then \"left\"\n",
	       t->name[i]);
	ret = shots_before(t, &sh, i, 0, "rotation: normal");
	if (ret)
		return shots_end(&sh, ret);
	c = step(t, sh.cfg, i, 0, 0);
	c->rotation = MMX_ROTATE_90;
	ret = shots_after(t, &sh, i, "rotation: left", &crtc);
	if (ret)
		return shots_end(&sh, ret);
	printf("%s: mode %s, rotation 0x%x (left), shows the %ux%u screen area at +%d+%d\n",
	       t->name[i], t->mode[i].name, crtc->rotation, crtc->width,
	       crtc->height, crtc->x, crtc->y);
	ret = save_pair(t, "rotate", &sh.before, &sh.after);
	if (!ret)
		printf("summary: rotation: %s %s turned left: the screen's %ux%u area shown on a %ux%u output (rotate.png: normal | left)\n",
		       t->name[i], t->mode[i].name, crtc->width, crtc->height,
		       t->mode[i].width, t->mode[i].height);
	return shots_end(&sh, ret);
}

/*
 * Outline in white the output's own screen area: a rectangle in @before,
 * and in @after the quadrilateral where the transform @m of the @w x @h
 * output shows it (its corners mapped by the inverse of @m).
 */
static void keystone_outline(struct pic *before, struct pic *after,
			     const double m[9], uint32_t w, uint32_t h)
{
	static const int order[4] = { 0, 1, 3, 2 };
	double inv[9], x[4], y[4];

	pic_box(before, 0, 0, w, h, 5, 0xffffff);
	if (mmx_matrix_invert(inv, m))
		return;
	for (int i = 0; i < 4; i++)
		if (mmx_matrix_apply(inv, i & 1 ? w : 0, i & 2 ? h : 0, &x[i], &y[i]))
			return;
	for (int i = 0; i < 4; i++) {
		int a = order[i], b = order[(i + 1) % 4];

		pic_line(after, x[a], y[a], x[b], y[b], 5, 0xffffff);
	}
}

static int tour_keystone(struct tour *t)
{
	uint32_t w = t->mode[0].width, h = t->mode[0].height;
	int32_t x0 = (int32_t)(w * 3 / 20) + 1;
	/*
	 * A projector below the screen, tilted up, draws a trapezoid wider
	 * at the top; the correction draws the inverse trapezoid, narrower at
	 * the top: the output's top corners show screen points 15% of the
	 * width beyond its sides, the bottom corners its own corners.
	 */
	double corners[8] = {
		-(double)w * 0.15, 0, (double)w * 1.15, 0,
		0, h, w, h,
	};
	struct shots sh = { 0 };
	struct mmx_output_change *c;
	const struct mmx_crtc_info *crtc;
	double m[9];
	int ret;

	printf("\n---- keystone: %s, before and after the correction\n",
	       t->name[0]);
	ret = mmx_matrix_keystone(m, w, h, corners);
	if (ret) {
		fprintf(stderr, "mmxdemo: keystone matrix: %s\n", strerror(-ret));
		return ret;
	}
	ret = shots_before(t, &sh, 0, x0, "keystone: before");
	if (ret)
		return shots_end(&sh, ret);
	c = step(t, sh.cfg, 0, x0, 0);
	memcpy(c->transform.matrix, m, sizeof(m));
	c->transform.filter = "bilinear";
	ret = shots_after(t, &sh, 0, "keystone: after", &crtc);
	if (ret)
		return shots_end(&sh, ret);
	printf("%s: corners (0,0) (%u,0) (0,%u) (%u,%u) show screen points (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) (%.0f,%.0f) of its area\n",
	       t->name[0], w, h, w, h, corners[0], corners[1], corners[2],
	       corners[3], corners[4], corners[5], corners[6], corners[7]);
	printf("%s: TRANSFORM (RandR's matrix, filter %s):\n", t->name[0],
	       crtc->current.filter);
	for (int r = 0; r < 3; r++)
		printf("\t%14.9g %14.9g %14.9g\n",
		       crtc->current.matrix[3 * r] + 0.0,
		       crtc->current.matrix[3 * r + 1] + 0.0,
		       crtc->current.matrix[3 * r + 2] + 0.0);
	printf("%s: bounding box %ux%u at %+d%+d from its position +%d+%d\n",
	       t->name[0], crtc->width, crtc->height, crtc->bbox_x,
	       crtc->bbox_y, crtc->x, crtc->y);
	keystone_outline(&sh.before, &sh.after, m, w, h);
	ret = save_pair(t, "keystone", &sh.before, &sh.after);
	if (!ret)
		printf("summary: keystone: %s's picture pre-distorted into a trapezoid 30%% narrower at the top, bilinear (keystone.png: before | after)\n",
		       t->name[0]);
	return shots_end(&sh, ret);
}

/* Three quarters of @c's brightness. */
static uint32_t dim(uint32_t c)
{
	return ((c >> 1) & 0x7f7f7f) + ((c >> 2) & 0x3f3f3f);
}

/*
 * The whole screen, a quarter of its size, sampled off its 32-pixel grid (libmmx's pattern, dimmed), with
 * the areas the two outputs show outlined in white and the pointer as a red
 * square.
 */
static bool pan_map(struct tour *t, struct pic *map, const int32_t *cx,
		    const int32_t *cy, int32_t px, int32_t py)
{
	if (!pic_alloc(map, t->screen_w / MAP_SCALE, t->screen_h / MAP_SCALE, 0))
		return false;
	for (uint32_t y = 0; y < map->h; y++)
		for (uint32_t x = 0; x < map->w; x++)
			map->px[y * map->w + x] =
				dim(mmx_screen_pattern(x * MAP_SCALE + 1,
						       y * MAP_SCALE + 1));
	for (int i = 0; i < 2; i++)
		pic_box(map, cx[i] / MAP_SCALE, cy[i] / MAP_SCALE,
			t->mode[i].width / MAP_SCALE,
			t->mode[i].height / MAP_SCALE, 3, 0xffffff);
	for (int dy = -4; dy <= 4; dy++)
		for (int dx = -4; dx <= 4; dx++)
			pic_dot(map, px / MAP_SCALE + dx, py / MAP_SCALE + dy,
				0xff0000);
	return true;
}

/*
 * RandR 1.3's panning as xrandr sets it: --panning with a tracking area,
 * so each CRTC follows the pointer inside its own half, independently
 * (libmmx's MMX_PAN_INDEPENDENT, the X server's way).
 */
static int pan_setup(struct tour *t, uint32_t half)
{
	struct mmx_output_change *a, *b;
	struct mmx_config *cfg = NULL;
	int ret;

	ret = mmx_config_new(&cfg);
	if (ret)
		return ret;
	mmx_config_set_pan_mode(cfg, MMX_PAN_INDEPENDENT);
	a = step(t, cfg, 0, 0, 0);
	b = step(t, cfg, 1, (int32_t)half, 0);
	a->panning.width = half;
	a->panning.height = t->mode[0].height;
	a->panning.track_width = half;
	a->panning.track_height = t->screen_h;
	b->panning.left = half;
	b->panning.width = t->screen_w - half;
	b->panning.height = t->mode[1].height;
	b->panning.track_left = half;
	b->panning.track_width = t->screen_w - half;
	b->panning.track_height = t->screen_h;
	ret = apply(t, cfg, "panning");
	mmx_config_free(cfg);
	return ret;
}

/* Both outputs captured, each with the pointer where it shows it. */
static int pan_capture(struct tour *t, int32_t px, int32_t py,
		       struct pic pics[2], int32_t cx[2], int32_t cy[2])
{
	int ret;

	for (int i = 0; i < 2; i++) {
		struct mmx_state *s = NULL;
		const struct mmx_crtc_info *c = crtc_now(t, i, &s);

		if (c) {
			cx[i] = c->x;
			cy[i] = c->y;
		}
		mmx_state_free(s);
		ret = c ? capture(t, i, &pics[i]) : -ENOENT;
		if (ret) {
			free(pics[0].px);
			return ret;
		}
		/* the pointer, where this output shows it */
		if (px >= cx[i] && px < cx[i] + (int32_t)pics[i].w &&
		    py >= cy[i] && py < cy[i] + (int32_t)pics[i].h)
			pic_pointer(&pics[i], px - cx[i], py - cy[i]);
	}
	return 0;
}

/* pan-@f.png: the two captures side by side over the screen's map. */
static int pan_save(struct tour *t, int f, const struct pic pics[2],
		    const int32_t cx[2], const int32_t cy[2], int32_t px,
		    int32_t py)
{
	struct pic row, map, frame;
	char name[16];
	int ret = -ENOMEM;

	snprintf(name, sizeof(name), "pan-%d", f + 1);
	if (!pic_row(&row, pics, 2))
		return ret;
	if (pan_map(t, &map, cx, cy, px, py)) {
		if (pic_stack(&frame, &row, &map)) {
			ret = pic_save(t->outdir, name, &frame);
			free(frame.px);
		}
		free(map.px);
	}
	free(row.px);
	return ret;
}

/* Frame @f: the pointer moved to (@px, @py), both outputs captured. */
static int pan_frame(struct tour *t, int f, int32_t px, int32_t py)
{
	struct pic pics[2] = { { 0 }, { 0 } };
	int32_t cx[2] = { 0, 0 }, cy[2] = { 0, 0 };
	int ret;

	ret = mmx_pointer_moved(t->d, px, py);
	if (ret) {
		fprintf(stderr, "mmxdemo: pointer at %d,%d: %s\n", px, py,
			strerror(-ret));
		return ret;
	}
	ret = pan_capture(t, px, py, pics, cx, cy);
	if (ret)
		return ret;
	printf("pointer at %4d,%d: %s shows x %d..%d, %s shows x %d..%d\n",
	       px, py, t->name[0], cx[0], cx[0] + (int32_t)t->mode[0].width - 1,
	       t->name[1], cx[1], cx[1] + (int32_t)t->mode[1].width - 1);
	ret = pan_save(t, f, pics, cx, cy, px, py);
	free(pics[0].px);
	free(pics[1].px);
	return ret;
}

static int tour_pan(struct tour *t)
{
	uint32_t wa = t->mode[0].width, wb = t->mode[1].width;
	uint32_t ha = t->mode[0].height, hb = t->mode[1].height;
	int32_t py = (int32_t)(ha < hb ? ha : hb) / 2;
	uint32_t half = t->screen_w / 2;
	/*
	 * The pointer's stops: on the left output, across the rest of its
	 * half, at the half's end, then across the right half to the
	 * screen's last column.
	 */
	int32_t xs[PAN_FRAMES] = {
		(int32_t)(wa / 2), (int32_t)((wa + half) / 2), (int32_t)half - 1,
		(int32_t)(half + (wb + t->screen_w - half) / 2),
		(int32_t)t->screen_w - 1,
	};
	int ret;

	if (t->nout < 2) {
		printf("\n---- panning: needs two outputs, skipped\n");
		printf("summary: panning: skipped (one output)\n");
		return 0;
	}
	printf("\n---- panning: %s and %s, each panning over its half of a %ux%u screen, following the pointer\n",
	       t->name[0], t->name[1], t->screen_w, t->screen_h);
	ret = pan_setup(t, half);
	if (ret)
		return ret;
	for (int f = 0; f < PAN_FRAMES; f++) {
		ret = pan_frame(t, f, xs[f], py);
		if (ret)
			return ret;
	}
	printf("summary: panning: %s and %s each followed the pointer over its half of the %ux%u screen (pan-1.png .. pan-%d.png: both outputs, a map of the screen below)\n",
	       t->name[0], t->name[1], t->screen_w, t->screen_h, PAN_FRAMES);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* the timed commit: the primary plane flipped to colour bars at a time    */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The plane scanning out on @crtc (libmmx's primary), its FB_ID property. */
static int primary_of(int fd, uint32_t crtc, uint32_t *plane, uint32_t *fb,
		      uint32_t *fb_prop)
{
	drmModePlaneResPtr pres = drmModeGetPlaneResources(fd);

	*plane = 0;
	for (uint32_t i = 0; pres && i < pres->count_planes && !*plane; i++) {
		drmModePlanePtr p = drmModeGetPlane(fd, pres->planes[i]);

		if (p && p->crtc_id == crtc && p->fb_id) {
			*plane = p->plane_id;
			*fb = p->fb_id;
		}
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	if (!*plane)
		return -ENOENT;
	return demo_prop(fd, *plane, DRM_MODE_OBJECT_PLANE, "FB_ID", fb_prop,
			 NULL) ? 0 : -ENOENT;
}

/*
 * A framebuffer as big as @like, drawn with the colour bars over its
 * @w x @h top left corner (what the CRTC shows), black elsewhere.
 */
static int bars_fb(int fd, uint32_t like, uint32_t w, uint32_t h,
		   uint32_t *fb_id)
{
	drmModeFBPtr old = drmModeGetFB(fd, like);
	struct demo_fb fb;
	int ret;

	if (!old)
		return -errno;
	ret = demo_fb_create(fd, old->width, old->height, DRM_FORMAT_XRGB8888,
			     &fb);
	drmModeFreeFB(old);
	if (ret)
		return ret;
	memset(fb.map, 0, fb.size);
	demo_draw_pattern(fb.map, w < fb.width ? w : fb.width,
			  h < fb.height ? h : fb.height, fb.pitch / 4, 1);
	munmap(fb.map, fb.size);
	*fb_id = fb.fb_id;
	return 0;
}

/* Wait for the completion event of entry @id (10 s at most). */
static int wait_schedule(int fd, uint64_t id, struct drm_mmx_event_schedule *ev)
{
	uint64_t deadline = now_ns() + 10000000000ull;
	char buf[1024];

	while (now_ns() < deadline) {
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t len, off = 0;

		if (poll(&p, 1, 1000) <= 0)
			continue;
		len = read(fd, buf, sizeof(buf));
		if (len < 0)
			return -errno;
		while (off + (ssize_t)sizeof(struct drm_event) <= len) {
			struct drm_event *e = (struct drm_event *)(buf + off);

			if (e->length < sizeof(*e) || off + e->length > len)
				break;
			if (e->type == DRM_MMX_EVENT_SCHEDULE &&
			    e->length >= sizeof(*ev)) {
				memcpy(ev, e, sizeof(*ev));
				if (ev->schedule_id == id)
					return 0;
			}
			off += e->length;
		}
	}
	return -ETIMEDOUT;
}

/* What the timed commit asked for and what came of it. */
struct timed {
	uint64_t period_ns;		/* of output 0's mode */
	uint32_t crtc, plane, fb_prop;	/* output 0's primary plane */
	uint32_t bars;			/* the framebuffer flipped to */
	uint64_t seq0, ts0;		/* the vblank before the submission */
	struct drm_mmx_schedule_submit sub;
	struct drm_mmx_event_schedule ev;
	int64_t late;			/* presented - requested, ns */
	char verdict[96];
};

/* Output 0 alone, its primary plane and the colour bars' framebuffer. */
static int timed_setup(struct tour *t, struct timed *tm, struct pic *before)
{
	struct mmx_config *cfg = NULL;
	struct mmx_state *s = NULL;
	const struct mmx_crtc_info *c;
	uint32_t fb = 0;
	int ret;

	ret = mmx_config_new(&cfg);
	if (ret)
		return ret;
	step(t, cfg, 0, 0, 0);
	step_off(t, cfg, 1);
	ret = apply(t, cfg, "timed commit: setup");
	mmx_config_free(cfg);
	if (ret)
		return ret;
	c = crtc_now(t, 0, &s);
	tm->crtc = c ? c->id : 0;
	mmx_state_free(s);
	ret = tm->crtc ? primary_of(t->fd, tm->crtc, &tm->plane, &fb,
				    &tm->fb_prop) : -ENOENT;
	if (!ret)
		ret = bars_fb(t->fd, fb, t->mode[0].width, t->mode[0].height,
			      &tm->bars);
	if (!ret)
		ret = capture(t, 0, before);
	if (ret)
		fprintf(stderr, "mmxdemo: timed commit setup: %s\n", strerror(-ret));
	return ret;
}

/* The FB_ID flip scheduled half a second ahead, after reading a vblank. */
static int timed_submit(struct tour *t, struct timed *tm)
{
	struct drm_mmx_schedule_submit *sub = &tm->sub;
	uint64_t value = tm->bars, submitted;
	uint32_t one = 1;

	sub->crtc_id = tm->crtc;
	sub->count_objs = 1;
	sub->objs_ptr = (uintptr_t)&tm->plane;
	sub->count_props_ptr = (uintptr_t)&one;
	sub->props_ptr = (uintptr_t)&tm->fb_prop;
	sub->prop_values_ptr = (uintptr_t)&value;
	if (drmCrtcGetSequence(t->fd, tm->crtc, &tm->seq0, &tm->ts0)) {
		int err = errno;

		fprintf(stderr, "mmxdemo: CRTC_GET_SEQUENCE: %s\n", strerror(err));
		return -err;
	}
	submitted = now_ns();
	/* half a second ahead; expiring only after 5 s, however slow the VM */
	sub->exec_ns = submitted + 500000000u;
	sub->expire_ns = sub->exec_ns + 5000000000ull;
	if (drmIoctl(t->fd, DRM_IOCTL_MMX_SCHEDULE_SUBMIT, sub)) {
		int err = errno;

		fprintf(stderr, "mmxdemo: SCHEDULE_SUBMIT: %s\n", strerror(err));
		return -err;
	}
	printf("vblank %" PRIu64 " at %" PRIu64 " ns; frame period %" PRIu64 " ns (%s)\n",
	       tm->seq0, tm->ts0, tm->period_ns, t->mode[0].name);
	printf("submitted at       %" PRIu64 " ns: entry %" PRIu64 ", FB_ID of plane %u on CRTC %u at %" PRIu64 " ns\n",
	       submitted, (uint64_t)sub->schedule_id, tm->plane, tm->crtc,
	       (uint64_t)sub->exec_ns);
	return 0;
}

/* The vblank it was presented at against the one requested: -EPROTO early. */
static int timed_verdict(struct timed *tm)
{
	const struct drm_mmx_event_schedule *ev = &tm->ev;
	uint64_t exec_ns = tm->sub.exec_ns, frames, due;

	tm->late = (int64_t)(ev->timestamp_ns - exec_ns);
	/* the first vblank at or after the requested time, counted from seq0 */
	frames = (exec_ns - tm->ts0 + tm->period_ns - 1) / tm->period_ns;
	due = tm->seq0 + frames;
	printf("requested time     %" PRIu64 " ns: the first vblank at or after it is %" PRIu64 " (at about %" PRIu64 " ns)\n",
	       exec_ns, due, tm->ts0 + frames * tm->period_ns);
	printf("presented at vblank %" PRIu64 ", timestamp %" PRIu64 " ns\n",
	       (uint64_t)ev->sequence, (uint64_t)ev->timestamp_ns);
	if (ev->sequence == due)
		snprintf(tm->verdict, sizeof(tm->verdict), "at that vblank");
	else if (ev->sequence > due)
		snprintf(tm->verdict, sizeof(tm->verdict),
			 "%" PRIu64 " frame(s) late: the guest stalled past that vblank",
			 (uint64_t)ev->sequence - due);
	else
		snprintf(tm->verdict, sizeof(tm->verdict), "EARLY: a bug");
	printf("difference         %+.3f ms, %s\n", tm->late / 1e6, tm->verdict);
	return ev->sequence < due || tm->late < 0 ? -EPROTO : 0;
}

/* Submit, wait for the completion and judge it. */
static int timed_run(struct tour *t, struct timed *tm)
{
	int ret;

	ret = timed_submit(t, tm);
	if (ret)
		return ret;
	ret = wait_schedule(t->fd, tm->sub.schedule_id, &tm->ev);
	if (ret) {
		fprintf(stderr, "mmxdemo: no completion event: %s\n", strerror(-ret));
		return ret;
	}
	if (tm->ev.status != MMX_SCHEDULE_PRESENTED) {
		fprintf(stderr, "mmxdemo: timed commit completed with status %u error %d\n",
			tm->ev.status, tm->ev.error);
		return -EIO;
	}
	return timed_verdict(tm);
}

static int tour_timed(struct tour *t)
{
	const struct mmx_mode *mode = &t->mode[0];
	struct timed tm = {
		.period_ns = (uint64_t)mode->htotal * mode->vtotal * 1000000u /
			     (mode->clock ? mode->clock : 1),
	};
	struct pic before = { 0 }, after = { 0 };
	int ret;

	printf("\n---- timed commit: %s's picture replaced by colour bars at a chosen time\n",
	       t->name[0]);
	ret = timed_setup(t, &tm, &before);
	if (!ret)
		ret = timed_run(t, &tm);
	if (!ret)
		ret = capture(t, 0, &after);
	if (!ret)
		ret = save_pair(t, "timed", &before, &after);
	if (!ret)
		printf("summary: timed commit: requested for %" PRIu64 " ns, presented at vblank %" PRIu64 " (%" PRIu64 " ns), %+.3f ms later, %s (frame period %.3f ms; timed.png: before | after)\n",
		       (uint64_t)tm.sub.exec_ns, (uint64_t)tm.ev.sequence,
		       (uint64_t)tm.ev.timestamp_ns, tm.late / 1e6, tm.verdict,
		       tm.period_ns / 1e6);
	free(before.px);
	free(after.px);
	return ret;
}

/* ------------------------------------------------------------------------ */

/* The largest mode within @maxw x @maxh, else the preferred one. */
static void pick(const struct mmx_output_info *o, int maxw, int maxh,
		 struct mmx_mode *mode)
{
	int best = -1;

	for (uint32_t i = 0; maxw && i < o->nmode; i++) {
		const struct mmx_mode *m = &o->modes[i];

		if (m->width <= (uint32_t)maxw && m->height <= (uint32_t)maxh &&
		    (best < 0 || m->width * m->height >
		     o->modes[best].width * o->modes[best].height))
			best = (int)i;
	}
	*mode = o->modes[best < 0 ? 0 : best];
}

/* The first two connected outputs of @s, each with a mode. */
static void tour_outputs(struct tour *t, const struct mmx_state *s, int maxw,
			int maxh)
{
	for (uint32_t i = 0; i < mmx_state_noutputs(s) && t->nout < 2; i++) {
		const struct mmx_output_info *o = mmx_state_output_at(s, i);

		if (o->connection != MMX_CONNECTED || !o->nmode)
			continue;
		t->out[t->nout] = o->id;
		snprintf(t->name[t->nout], sizeof(t->name[0]), "%s", o->name);
		pick(o, maxw, maxh, &t->mode[t->nout]);
		t->nout++;
	}
}

/*
 * One screen for the whole tour, created once and drawn with libmmx's
 * pattern (mmx_screen_pattern(): colours that say where each pixel is, a
 * 32-pixel grid, a white mark near the top left of every 128-pixel
 * tile): twice as wide as the outputs side by side, so panning has room,
 * and high enough for an output turned.
 */
static void tour_screen_size(struct tour *t)
{
	uint32_t big = 0;

	for (int i = 0; i < t->nout; i++) {
		t->screen_w += t->mode[i].width;
		if (t->mode[i].width > big)
			big = t->mode[i].width;
		if (t->mode[i].height > big)
			big = t->mode[i].height;
		printf("%s: %s\n", t->name[i], t->mode[i].name);
	}
	t->screen_w *= 2;
	t->screen_h = big;
}

int demo_tour(int fd, const char *outdir, int maxw, int maxh)
{
	struct tour t = { .fd = fd, .outdir = outdir };
	struct mmx_state *s;
	int ret, failed = 0;

	ret = mmx_open_fd(fd, &t.d);
	if (!ret)
		ret = mmx_get_screen_resources(t.d, &s);
	if (ret) {
		fprintf(stderr, "mmxdemo: libmmx: %s\n", strerror(-ret));
		return 1;
	}
	if (!(mmx_state_flags(s) & MMX_STATE_TRANSFORMS) ||
	    !(mmx_state_flags(s) & MMX_STATE_WRITEBACK)) {
		fprintf(stderr, "mmxdemo: %s has no transforms or writeback\n",
			mmx_state_driver(s));
		return 1;
	}
	tour_outputs(&t, s, maxw, maxh);
	mmx_state_free(s);
	if (!t.nout) {
		fprintf(stderr, "mmxdemo: no connected output\n");
		return 1;
	}
	tour_screen_size(&t);
	failed |= tour_rotate(&t) != 0;
	failed |= tour_keystone(&t) != 0;
	failed |= tour_pan(&t) != 0;
	failed |= tour_timed(&t) != 0;
	mmx_close(t.d);
	return failed;
}
