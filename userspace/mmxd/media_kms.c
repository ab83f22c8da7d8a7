// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's media backend: streams' framebuffers (dumb buffers), overlay
 * planes and timed atomic commits on the KMS device of mmxd's display
 * (DRM_IOCTL_MMX_SCHEDULE_*, completions read from the DRM fd), the
 * sandboxed decoder pool and the ALSA device (mmx_audio).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "mmxd_backend.h"
#include "mmxd_log.h"
#include "mmx_audio.h"
#include "mmx_clock.h"
#include "drm/mmx_drm.h"

/* The plane properties a frame's commit sets, in this order. */
enum {
	P_FB_ID, P_CRTC_ID, P_SRC_X, P_SRC_Y, P_SRC_W, P_SRC_H,
	P_CRTC_X, P_CRTC_Y, P_CRTC_W, P_CRTC_H, P_COUNT
};

static const char *const prop_names[P_COUNT] = {
	"FB_ID", "CRTC_ID", "SRC_X", "SRC_Y", "SRC_W", "SRC_H",
	"CRTC_X", "CRTC_Y", "CRTC_W", "CRTC_H",
};

struct plane_props {
	uint32_t plane;
	uint32_t id[P_COUNT];
};

struct kms_media {
	struct mmx_display *d;
	int fd;
	struct mmx_decode_pool *pool;
	const char *audio_device;
	struct plane_props props[MMXD_MAX_STREAMS * 2];
	unsigned int nprops;
	/* a partial read of the DRM fd never happens: events are whole */
	uint8_t evbuf[4096];
};

static int64_t kms_now(void *ctx)
{
	(void)ctx;
	return mmx_clock_monotonic_ns();
}

static int plane_prop_ids(struct kms_media *k, uint32_t plane,
			  struct plane_props *out)
{
	drmModeObjectPropertiesPtr props;
	unsigned int i, j, found = 0;

	props = drmModeObjectGetProperties(k->fd, plane, DRM_MODE_OBJECT_PLANE);
	if (!props)
		return -errno ? -errno : -ENOENT;
	memset(out, 0, sizeof(*out));
	out->plane = plane;
	for (i = 0; i < props->count_props; i++) {
		drmModePropertyPtr p = drmModeGetProperty(k->fd,
							  props->props[i]);

		if (!p)
			continue;
		for (j = 0; j < P_COUNT; j++) {
			if (!strcmp(p->name, prop_names[j]) && !out->id[j]) {
				out->id[j] = p->prop_id;
				found++;
			}
		}
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found == P_COUNT ? 0 : -ENOENT;
}

static uint64_t plane_type(int fd, uint32_t plane)
{
	drmModeObjectPropertiesPtr props;
	uint64_t type = (uint64_t)-1;
	unsigned int i;

	props = drmModeObjectGetProperties(fd, plane, DRM_MODE_OBJECT_PLANE);
	if (!props)
		return type;
	for (i = 0; i < props->count_props; i++) {
		drmModePropertyPtr p = drmModeGetProperty(fd, props->props[i]);

		if (p && !strcmp(p->name, "type"))
			type = props->prop_values[i];
		drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return type;
}

/* The CRTC of connector @output (0: the first with one). */
static int find_crtc(struct kms_media *k, uint32_t output, uint32_t *crtc)
{
	drmModeResPtr res = drmModeGetResources(k->fd);
	int i, ret = -ENODEV;

	if (!res)
		return -errno ? -errno : -ENODEV;
	for (i = 0; i < res->count_connectors; i++) {
		drmModeConnectorPtr c;
		drmModeEncoderPtr e;

		if (output && res->connectors[i] != output)
			continue;
		c = drmModeGetConnector(k->fd, res->connectors[i]);
		if (!c)
			continue;
		e = c->encoder_id ? drmModeGetEncoder(k->fd, c->encoder_id) :
		    NULL;
		if (e && e->crtc_id) {
			*crtc = e->crtc_id;
			ret = 0;
		}
		drmModeFreeEncoder(e);
		drmModeFreeConnector(c);
		if (!ret || output)
			break;
	}
	drmModeFreeResources(res);
	return ret;
}

/* @output's lit CRTC (0: the first lit) into @t, and its index @pipe. */
static int target_crtc(struct kms_media *k, uint32_t output,
		       struct mmxd_video_target *t, int *pipe)
{
	drmModeResPtr res;
	drmModeCrtcPtr crtc;
	uint32_t crtc_id = 0, i;
	int ret;

	ret = find_crtc(k, output, &crtc_id);
	if (ret)
		return ret;
	crtc = drmModeGetCrtc(k->fd, crtc_id);
	if (!crtc)
		return -ENODEV;
	if (!crtc->mode_valid) {
		drmModeFreeCrtc(crtc);
		return -ENODEV;
	}
	t->crtc = crtc_id;
	t->crtc_width = crtc->mode.hdisplay;
	t->crtc_height = crtc->mode.vdisplay;
	drmModeFreeCrtc(crtc);

	res = drmModeGetResources(k->fd);
	if (!res)
		return -ENODEV;
	*pipe = -1;
	for (i = 0; i < (uint32_t)res->count_crtcs; i++)
		if (res->crtcs[i] == crtc_id)
			*pipe = (int)i;
	drmModeFreeResources(res);
	return *pipe < 0 ? -ENODEV : 0;
}

/* Keep @pp, the property ids of plane @pp->plane, unless known already. */
static void remember_props(struct kms_media *k, const struct plane_props *pp)
{
	uint32_t j;

	for (j = 0; j < k->nprops; j++)
		if (k->props[j].plane == pp->plane)
			return;
	if (k->nprops < MMXD_MAX_STREAMS * 2)
		k->props[k->nprops++] = *pp;
}

static int kms_target(void *ctx, uint32_t output, const uint32_t *busy,
		      unsigned int nbusy, struct mmxd_video_target *t)
{
	struct kms_media *k = ctx;
	drmModePlaneResPtr pres;
	uint32_t i, j;
	int pipe, ret;

	ret = target_crtc(k, output, t, &pipe);
	if (ret)
		return ret;
	pres = drmModeGetPlaneResources(k->fd);
	if (!pres)
		return -ENODEV;
	ret = -ENODEV;
	for (i = 0; i < pres->count_planes && ret; i++) {
		uint32_t id = pres->planes[i];
		drmModePlanePtr p;
		struct plane_props pp;
		int used = 0;

		for (j = 0; j < nbusy; j++)
			used |= busy[j] == id;
		if (used || plane_type(k->fd, id) != DRM_PLANE_TYPE_OVERLAY)
			continue;
		p = drmModeGetPlane(k->fd, id);
		if (p && (p->possible_crtcs & (1u << pipe)) && !p->fb_id &&
		    !plane_prop_ids(k, id, &pp)) {
			t->plane = id;
			ret = 0;
			remember_props(k, &pp);
		}
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	return ret;
}

static const struct plane_props *props_of(struct kms_media *k,
					  uint32_t plane)
{
	unsigned int i;

	for (i = 0; i < k->nprops; i++)
		if (k->props[i].plane == plane)
			return &k->props[i];
	return NULL;
}

static void kms_untarget(void *ctx, const struct mmxd_video_target *t)
{
	struct kms_media *k = ctx;
	const struct plane_props *pp = props_of(k, t->plane);
	drmModeAtomicReqPtr req;

	if (!pp)
		return;
	req = drmModeAtomicAlloc();
	if (!req)
		return;
	drmModeAtomicAddProperty(req, t->plane, pp->id[P_FB_ID], 0);
	drmModeAtomicAddProperty(req, t->plane, pp->id[P_CRTC_ID], 0);
	if (drmModeAtomicCommit(k->fd, req, 0, NULL))
		mmxd_say("taking the video off plane %u: %s",
			 t->plane, strerror(errno));
	drmModeAtomicFree(req);
}

static int kms_fb_new(void *ctx, uint32_t width, uint32_t height,
		      struct mmxd_fb *fb)
{
	struct kms_media *k = ctx;
	struct drm_mode_create_dumb create = {
		.width = width, .height = height, .bpp = 32,
	};
	struct drm_mode_destroy_dumb destroy = { 0 };
	struct drm_mode_map_dumb map = { 0 };
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	void *p;
	int ret;

	memset(fb, 0, sizeof(*fb));
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_CREATE_DUMB, &create))
		return -errno;
	destroy.handle = create.handle;
	handles[0] = create.handle;
	pitches[0] = create.pitch;
	if (drmModeAddFB2(k->fd, width, height, DRM_FORMAT_XRGB8888, handles,
			  pitches, offsets, &fb->id, 0)) {
		ret = -errno;
		goto err_destroy;
	}
	map.handle = create.handle;
	if (drmIoctl(k->fd, DRM_IOCTL_MODE_MAP_DUMB, &map)) {
		ret = -errno;
		goto err_rmfb;
	}
	p = mmap(NULL, create.size, PROT_READ | PROT_WRITE, MAP_SHARED, k->fd,
		 (off_t)map.offset);
	if (p == MAP_FAILED) {
		ret = -errno;
		goto err_rmfb;
	}
	memset(p, 0, create.size);
	fb->handle = create.handle;
	fb->pitch = create.pitch;
	fb->map = p;
	fb->size = create.size;
	return 0;

err_rmfb:
	drmModeRmFB(k->fd, fb->id);
	fb->id = 0;
err_destroy:
	drmIoctl(k->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	return ret;
}

static void kms_fb_free(void *ctx, struct mmxd_fb *fb)
{
	struct kms_media *k = ctx;
	struct drm_mode_destroy_dumb destroy = { .handle = fb->handle };

	if (fb->map)
		munmap(fb->map, fb->size);
	if (fb->id)
		drmModeRmFB(k->fd, fb->id);
	if (fb->handle)
		drmIoctl(k->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &destroy);
	memset(fb, 0, sizeof(*fb));
}

/* Fill @sub for a frame's commit (the arrays live in @objs...@values). */
static int fill_submit(struct kms_media *k, const struct mmxd_video_target *t,
		       uint32_t fb, int32_t x, int32_t y, uint32_t w,
		       uint32_t h, int64_t exec_ns, int64_t expire_ns,
		       uint64_t user, uint32_t *objs, uint32_t *counts,
		       uint64_t *values, struct drm_mmx_schedule_submit *sub)
{
	const struct plane_props *pp = props_of(k, t->plane);

	if (!pp)
		return -ENOENT;
	objs[0] = t->plane;
	counts[0] = P_COUNT;
	values[P_FB_ID] = fb;
	values[P_CRTC_ID] = t->crtc;
	values[P_SRC_X] = 0;
	values[P_SRC_Y] = 0;
	values[P_SRC_W] = (uint64_t)w << 16;
	values[P_SRC_H] = (uint64_t)h << 16;
	values[P_CRTC_X] = (uint64_t)(int64_t)x;
	values[P_CRTC_Y] = (uint64_t)(int64_t)y;
	values[P_CRTC_W] = w;
	values[P_CRTC_H] = h;
	memset(sub, 0, sizeof(*sub));
	sub->crtc_id = t->crtc;
	sub->count_objs = 1;
	sub->objs_ptr = (uintptr_t)objs;
	sub->count_props_ptr = (uintptr_t)counts;
	sub->props_ptr = (uintptr_t)pp->id;
	sub->prop_values_ptr = (uintptr_t)values;
	sub->exec_ns = (uint64_t)exec_ns;
	sub->expire_ns = (uint64_t)expire_ns;
	sub->user_data = user;
	return 0;
}

/*
 * Submit a frame's commit as a new entry, or (@old not NULL) as the
 * replacement of pending entry *@old; the new entry's id in @sched.
 */
static int submit_frame(struct kms_media *k, const uint64_t *old,
			const struct mmxd_video_target *t, uint32_t fb,
			int32_t x, int32_t y, uint32_t w, uint32_t h,
			int64_t exec_ns, int64_t expire_ns, uint64_t user,
			uint64_t *sched)
{
	uint32_t objs[1], counts[1];
	uint64_t values[P_COUNT];
	struct drm_mmx_schedule_replace r;
	int ret;

	ret = fill_submit(k, t, fb, x, y, w, h, exec_ns, expire_ns, user,
			  objs, counts, values, &r.submit);
	if (ret)
		return ret;
	if (old) {
		r.schedule_id = *old;
		ret = drmIoctl(k->fd, DRM_IOCTL_MMX_SCHEDULE_REPLACE, &r);
	} else {
		ret = drmIoctl(k->fd, DRM_IOCTL_MMX_SCHEDULE_SUBMIT, &r.submit);
	}
	if (ret)
		return -errno;
	*sched = r.submit.schedule_id;
	return 0;
}

static int kms_replace(void *ctx, uint64_t sched,
		       const struct mmxd_video_target *t, uint32_t fb,
		       int32_t x, int32_t y, uint32_t w, uint32_t h,
		       int64_t exec_ns, int64_t expire_ns, uint64_t user,
		       uint64_t *new_sched)
{
	return submit_frame(ctx, &sched, t, fb, x, y, w, h, exec_ns,
			    expire_ns, user, new_sched);
}

static int kms_schedule(void *ctx, const struct mmxd_video_target *t,
			uint32_t fb, int32_t x, int32_t y, uint32_t w,
			uint32_t h, int64_t exec_ns, int64_t expire_ns,
			uint64_t user, uint64_t *sched)
{
	return submit_frame(ctx, NULL, t, fb, x, y, w, h, exec_ns, expire_ns,
			    user, sched);
}

static int kms_retract(void *ctx, uint64_t sched)
{
	struct kms_media *k = ctx;
	struct drm_mmx_schedule_retract r = { .schedule_id = sched };

	if (drmIoctl(k->fd, DRM_IOCTL_MMX_SCHEDULE_RETRACT, &r))
		return -errno;
	return 0;
}

static int kms_event_fd(void *ctx)
{
	return ((struct kms_media *)ctx)->fd;
}

static int kms_read_events(void *ctx, struct mmxd_sched_event *ev,
			   unsigned int n)
{
	struct kms_media *k = ctx;
	unsigned int count = 0;
	size_t off = 0;
	ssize_t len;

	size_t room = n * sizeof(struct drm_mmx_event_schedule);

	/*
	 * The kernel returns whole events only, as many as fit: with room
	 * for @n schedule events, no more than @n can come back (others
	 * are smaller, and skipped).
	 */
	if (room > sizeof(k->evbuf))
		room = sizeof(k->evbuf);
	len = read(k->fd, k->evbuf, room);
	if (len < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	while (off + sizeof(struct drm_event) <= (size_t)len && count < n) {
		struct drm_event e;

		memcpy(&e, k->evbuf + off, sizeof(e));
		if (e.length < sizeof(e) || off + e.length > (size_t)len)
			break;
		if (e.type == DRM_MMX_EVENT_SCHEDULE &&
		    e.length >= sizeof(struct drm_mmx_event_schedule)) {
			struct drm_mmx_event_schedule s;

			memcpy(&s, k->evbuf + off, sizeof(s));
			ev[count].user = s.user_data;
			ev[count].sched = s.schedule_id;
			ev[count].status = s.status;
			ev[count].error = s.error;
			ev[count].sequence = s.sequence;
			ev[count].timestamp_ns = (int64_t)s.timestamp_ns;
			count++;
		}
		off += e.length;
	}
	return (int)count;
}

static int kms_decode_fd(void *ctx)
{
	struct kms_media *k = ctx;

	return k->pool ? mmx_decode_fd(k->pool) : -1;
}

static int kms_decode_submit(void *ctx, uint64_t id, const void *jpeg,
			     size_t len, void *dst, uint32_t pitch,
			     uint32_t width, uint32_t height)
{
	return mmx_decode_submit(((struct kms_media *)ctx)->pool, id, jpeg,
				 len, dst, pitch, width, height);
}

static int kms_decode_submit_audio(void *ctx, uint64_t id, const void *mpeg,
				   size_t len, int16_t *dst,
				   uint32_t max_frames, uint32_t channels)
{
	return mmx_decode_submit_audio(((struct kms_media *)ctx)->pool, id,
				       mpeg, len, dst, max_frames, channels);
}

static int kms_decode_collect(void *ctx, struct mmx_decode_result *r,
			      unsigned int n)
{
	return mmx_decode_collect(((struct kms_media *)ctx)->pool, r, n);
}

static int kms_decode_cancel(void *ctx, uint64_t id)
{
	return mmx_decode_cancel(((struct kms_media *)ctx)->pool, id);
}

/* Audio over mmx_audio */

static int au_open(void *ctx, uint32_t rate, uint32_t channels, void **out)
{
	struct kms_media *k = ctx;
	struct mmx_audio_config cfg = {
		.device = k->audio_device,
		.rate = rate,
		.channels = channels,
	};
	struct mmx_error err;
	struct mmx_audio *a;
	int ret;

	memset(&err, 0, sizeof(err));
	ret = mmx_audio_open(&cfg, &a, &err);
	if (ret) {
		mmxd_say("audio: %s", err.message);
		return ret;
	}
	/* the device runs from now on (silence until plays come) */
	mmx_audio_service(a);
	*out = a;
	return 0;
}

static void au_close(void *ctx, void *a)
{
	(void)ctx;
	mmx_audio_close(a);
}

static int au_play(void *ctx, void *a, uint64_t id, const int16_t *samples,
		   uint64_t frames, int64_t at)
{
	struct mmx_audio_format f;
	struct mmx_audio_buffer *b;
	int ret;

	(void)ctx;
	mmx_audio_get_format(a, &f);
	ret = mmx_audio_buffer_new(f.rate, f.channels, frames, &b);
	if (ret)
		return ret;
	ret = mmx_audio_buffer_write(b, 0, samples, frames);
	if (!ret)
		ret = mmx_audio_play(a, id, b, 0, frames, at, 0);
	mmx_audio_buffer_unref(b);
	return ret;
}

static int au_cancel(void *ctx, void *a, uint64_t id)
{
	(void)ctx;
	return mmx_audio_cancel(a, id);
}

static int64_t au_written(void *ctx, void *a)
{
	(void)ctx;
	return mmx_audio_written(a);
}

static int au_poll_fill(void *ctx, void *a, struct pollfd *pfd,
			unsigned int n)
{
	int count;

	(void)ctx;
	count = mmx_audio_poll_count(a);
	if (count <= 0 || (unsigned int)count > n)
		return 0;
	return mmx_audio_poll_fill(a, pfd, (unsigned int)count);
}

static int au_service(void *ctx, void *a, uint64_t *ids, int64_t *end_ns,
		      unsigned int n)
{
	struct mmx_audio_done done[16];
	int ret, i;

	(void)ctx;
	ret = mmx_audio_service(a);
	if (ret < 0)
		mmxd_say("audio: %s", strerror(-ret));
	if (n > 16)
		n = 16;
	ret = mmx_audio_collect(a, done, n);
	for (i = 0; i < ret; i++) {
		ids[i] = done[i].id;
		end_ns[i] = done[i].end_ns;
	}
	return ret;
}

static int au_frame_to_ns(void *ctx, void *a, int64_t frame, int64_t *ns)
{
	(void)ctx;
	return mmx_audio_frame_to_ns(a, frame, ns);
}

static int au_ns_to_frame(void *ctx, void *a, int64_t ns, double *frame)
{
	(void)ctx;
	return mmx_audio_ns_to_frame(a, ns, frame);
}

static int au_played(void *ctx, void *a, int64_t *frames)
{
	struct mmx_audio_position pos;
	int ret;

	(void)ctx;
	ret = mmx_audio_position(a, &pos);
	if (ret)
		return ret;
	if (!pos.running)
		return -EAGAIN;
	*frames = pos.played;
	return 0;
}

static const struct mmxd_audio_ops kms_audio_ops = {
	.open = au_open,
	.close = au_close,
	.play = au_play,
	.cancel = au_cancel,
	.written = au_written,
	.poll_fill = au_poll_fill,
	.service = au_service,
	.frame_to_ns = au_frame_to_ns,
	.ns_to_frame = au_ns_to_frame,
	.played = au_played,
};

/* TIME's VBLANK clocks: a vblank source of @output's CRTC. */
static int kms_vblank_source(void *ctx, uint32_t output,
			     struct mmx_clock_source *src, void **handle)
{
	struct kms_media *k = ctx;
	struct mmx_vblank_source *v;
	drmModeResPtr res;
	uint32_t crtc, pipe = 0;
	int i, ret;

	ret = find_crtc(k, output, &crtc);
	if (ret)
		return ret == -ENODEV ? -ENOENT : ret;
	res = drmModeGetResources(k->fd);
	if (!res)
		return -ENODEV;
	for (i = 0; i < res->count_crtcs; i++)
		if (res->crtcs[i] == crtc)
			pipe = (uint32_t)i;
	drmModeFreeResources(res);
	ret = mmx_vblank_source_new(k->fd, crtc, pipe, &v);
	if (ret)
		return ret;
	mmx_vblank_source_get(v, src);
	*handle = v;
	return 0;
}

static void kms_vblank_source_free(void *ctx, void *handle)
{
	(void)ctx;
	mmx_vblank_source_free(handle);
}

#define KMS_MEDIA_OPS						\
	.now = kms_now,							\
	.target = kms_target,						\
	.untarget = kms_untarget,					\
	.fb_new = kms_fb_new,						\
	.fb_free = kms_fb_free,						\
	.schedule = kms_schedule,					\
	.retract = kms_retract,						\
	.replace = kms_replace,						\
	.event_fd = kms_event_fd,					\
	.read_events = kms_read_events,					\
	.decode_fd = kms_decode_fd,					\
	.decode_submit = kms_decode_submit,				\
	.decode_submit_audio = kms_decode_submit_audio,			\
	.decode_collect = kms_decode_collect,				\
	.decode_cancel = kms_decode_cancel,				\
	.vblank_source = kms_vblank_source,				\
	.vblank_source_free = kms_vblank_source_free

const struct mmxd_media_ops mmxd_kms_media_ops = {
	KMS_MEDIA_OPS,
	.audio = &kms_audio_ops,
};

const struct mmxd_media_ops mmxd_kms_media_ops_noaudio = {
	KMS_MEDIA_OPS,
	.audio = NULL,
};

int mmxd_kms_media_new(struct mmx_display *d, struct mmx_decode_pool *pool,
		       const char *audio_device, void **ctx)
{
	struct kms_media *k;

	*ctx = NULL;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->d = d;
	k->fd = mmx_fd(d);
	k->pool = pool;
	k->audio_device = audio_device;
	*ctx = k;
	return 0;
}

void mmxd_kms_media_free(void *ctx)
{
	free(ctx);
}
