// SPDX-License-Identifier: GPL-2.0-only
/*
 * The fake mmxd media backend and stream client of the media and TIME host
 * tests (see mmxd_fake.h).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmxd_fake.h"

struct mmxd_fake fk;

/* ---- the fake media backend --------------------------------------------- */

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

void kick(int fd)
{
	char c = 1;

	if (write(fd, &c, 1) != 1)
		abort();
}

void complete(struct sched *e, uint32_t status, int64_t ts)
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

/* The pending entry @id, or NULL. */
static struct sched *fk_find(uint64_t id)
{
	unsigned int i;

	for (i = 0; i < NSCHED; i++)
		if (fk.sched[i].used && fk.sched[i].id == id)
			return &fk.sched[i];
	return NULL;
}

/* The errno for an id that is not pending: done already, or never seen. */
static int fk_gone(uint64_t id)
{
	return id && id <= fk.next_sched ? -EBUSY : -ENOENT;
}

static int fk_retract(void *ctx, uint64_t id)
{
	struct sched *e = fk_find(id);

	(void)ctx;
	if (!e)
		return fk_gone(id);
	complete(e, 3, 0);
	return 0;
}

int fk_replace(void *ctx, uint64_t id, const struct mmxd_video_target *t,
	       uint32_t fb, int32_t x, int32_t y, uint32_t w, uint32_t h,
	       int64_t exec, int64_t expire, uint64_t user, uint64_t *new_id)
{
	struct sched *e = fk_find(id);
	int ret;

	if (!e)
		return fk_gone(id);
	ret = fk_schedule(ctx, t, fb, x, y, w, h, exec, expire, user, new_id);
	if (ret)
		return ret;
	complete(e, 4, 0);
	return 0;
}

static int vb_now(void *ctx, int64_t mono, int64_t *src)
{
	(void)ctx;
	*src = mono / FRAME * FRAME;
	return 0;
}

static int vb_to_mono(void *ctx, int64_t src, int64_t *mono)
{
	(void)ctx;
	*mono = (src + FRAME - 1) / FRAME * FRAME;
	return 0;
}

int fk_vblank_source(void *ctx, uint32_t output,
		     struct mmx_clock_source *src, void **handle)
{
	(void)ctx;
	if (output != 50)
		return -ENOENT;
	src->now = vb_now;
	src->to_monotonic = vb_to_mono;
	src->ctx = NULL;
	*handle = malloc(1);
	fk.vsources++;
	return *handle ? 0 : -ENOMEM;
}

void fk_vblank_source_free(void *ctx, void *handle)
{
	(void)ctx;
	free(handle);
	fk.vsources--;
}

/*
 * Move up to @n of the @*count items of @size bytes at the front of
 * @queue to @out; the wake-up pipe @fd is drained once the queue is empty.
 */
static int fk_take(void *out, void *queue, unsigned int *count,
		   unsigned int n, size_t size, int fd)
{
	unsigned int k = *count < n ? *count : n;
	char buf[256];

	memcpy(out, queue, k * size);
	memmove(queue, (char *)queue + k * size, (*count - k) * size);
	*count -= k;
	if (!*count)
		while (read(fd, buf, sizeof(buf)) > 0)
			;
	return (int)k;
}

static int fk_event_fd(void *ctx)
{
	(void)ctx;
	return fk.ev_pipe[0];
}

static int fk_read_events(void *ctx, struct mmxd_sched_event *ev,
			  unsigned int n)
{
	(void)ctx;
	return fk_take(ev, fk.done, &fk.ndone, n, sizeof(*ev), fk.ev_pipe[0]);
}

static int fk_decode_fd(void *ctx)
{
	(void)ctx;
	return fk.dec_pipe[0];
}

static int fk_decode_submit(void *ctx, uint64_t id, const void *jpeg,
			    size_t len, void *dst, uint32_t pitch,
			    uint32_t width, uint32_t height)
{
	struct mmx_decode_result *r;
	char text[32] = { 0 };
	unsigned int w = 0, h = 0;

	(void)ctx;
	if (!len || !dst || pitch < width * 4)
		return -EINVAL;
	if (fk.ndec >= NDEC)
		return -EAGAIN;
	memcpy(text, jpeg, len < sizeof(text) - 1 ? len : sizeof(text) - 1);
	r = &fk.dec[fk.ndec++];
	memset(r, 0, sizeof(*r));
	r->id = id;
	if (sscanf(text, "FRAME %u %u", &w, &h) == 2 && w <= width &&
	    h <= height) {
		r->width = w;
		r->height = h;
		memset(dst, 0x5a, (size_t)pitch * h);
	} else if (w > width || h > height) {
		r->status = -E2BIG;
	} else {
		r->status = -EBADMSG;
	}
	kick(fk.dec_pipe[1]);
	return 0;
}

static int fk_decode_collect(void *ctx, struct mmx_decode_result *r,
			     unsigned int n)
{
	(void)ctx;
	return fk_take(r, fk.dec, &fk.ndec, n, sizeof(*r), fk.dec_pipe[0]);
}

static int fk_decode_cancel(void *ctx, uint64_t id)
{
	unsigned int i;

	(void)ctx;
	for (i = 0; i < fk.ndec; i++) {
		if (fk.dec[i].id == id) {
			memmove(&fk.dec[i], &fk.dec[i + 1],
				(fk.ndec - i - 1) * sizeof(fk.dec[0]));
			fk.ndec--;
			fk.cancels++;
			return 0;
		}
	}
	return -ENOENT;
}

const struct mmxd_media_ops fake_media_ops = {
	.now = fk_now,
	.target = fk_target,
	.untarget = fk_untarget,
	.fb_new = fk_fb_new,
	.fb_free = fk_fb_free,
	.schedule = fk_schedule,
	.retract = fk_retract,
	.event_fd = fk_event_fd,
	.read_events = fk_read_events,
	.decode_fd = fk_decode_fd,
	.decode_submit = fk_decode_submit,
	.decode_collect = fk_decode_collect,
	.decode_cancel = fk_decode_cancel,
};

void vblank(int64_t t)
{
	unsigned int i;

	fk.now = t;
	for (i = 0; i < NSCHED; i++) {
		struct sched *e = &fk.sched[i];

		if (e->used && e->exec <= t)
			complete(e, t > e->expire ? 2 : 1, t);
	}
}

/* ---- the server and its stream client ----------------------------------- */

struct mmxd_media *media;
const uint8_t good_cookie[MMX_AUTH_COOKIE_LEN] = { 1, 2, 3, 4, 5 };

int server_start_media(const struct mmxd_media_ops *ops)
{
	struct mmxd_options o;
	int ret;

	memset(&fk, 0, sizeof(fk));
	fk.now = 1000000000000ll;
	if (pipe2(fk.ev_pipe, O_NONBLOCK | O_CLOEXEC) ||
	    pipe2(fk.dec_pipe, O_NONBLOCK | O_CLOEXEC))
		return -errno;
	mmxd_options_init(&o);
	strcpy(o.driver, "fake");
	memcpy(o.cookie, good_cookie, sizeof(o.cookie));
	o.tcp_auth = 1;
	ret = mmxd_server_new(&quiet_display_ops, NULL, &o, &srv);
	if (!ret)
		ret = mmxd_media_new(ops, NULL, &media);
	if (!ret)
		ret = mmxd_server_set_media(srv, media);
	return ret;
}

void server_stop_media(void)
{
	mmxd_server_free(srv);
	mmxd_media_free(media);
	srv = NULL;
	media = NULL;
	close(fk.ev_pipe[0]);
	close(fk.ev_pipe[1]);
	close(fk.dec_pipe[0]);
	close(fk.dec_pipe[1]);
}

struct mmx_proto_stream_event evs[MAXEV];
unsigned int nev;
unsigned int bad_events;
struct mmx_schedule_event tev[MAXEV];
unsigned int ntev;
int accept_schedule_events;

/* Store the EVENT @raw of @len bytes (a bad one is counted). */
static void store_event(const uint8_t *raw, size_t len)
{
	struct mmx_proto_event e;

	if (accept_schedule_events && len == sizeof(e) + sizeof(tev[0])) {
		memcpy(&e, raw, sizeof(e));
		if (e.event != MMX_PROTO_EVENT_SCHEDULE)
			bad_events++;
		else if (ntev < MAXEV)
			memcpy(&tev[ntev++], raw + sizeof(e), sizeof(tev[0]));
	} else if (len != sizeof(e) + sizeof(evs[0])) {
		bad_events++;
	} else {
		memcpy(&e, raw, sizeof(e));
		if (e.event != MMX_PROTO_EVENT_STREAM)
			bad_events++;
		else if (nev < MAXEV)
			memcpy(&evs[nev++], raw + sizeof(e), sizeof(evs[0]));
	}
}

int recv_one(int fd, struct mmx_proto_header *h, struct mmx_proto_reply *r,
	     uint8_t *data, size_t max, size_t *dlen, int rounds)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE], *raw;
	size_t len;
	int ret;

	ret = recv_bytes(fd, hdr, sizeof(hdr), rounds);
	if (ret)
		return ret;
	mmx_wire_get_header(hdr, h);
	if (h->length < MMX_PROTO_HEADER_SIZE ||
	    h->length > MMX_PROTO_MAX_REPLY)
		return -EPROTO;
	len = h->length - MMX_PROTO_HEADER_SIZE;
	raw = malloc(len ? len : 1);
	if (!raw)
		return -ENOMEM;
	ret = recv_bytes(fd, raw, len, 3000);
	if (ret) {
		free(raw);
		return ret;
	}
	if (h->type == MMX_MSG_EVENT) {
		store_event(raw, len);
		free(raw);
		return 1;
	}
	if (h->type != MMX_MSG_REPLY || len < MMX_PROTO_REPLY_SIZE) {
		free(raw);
		return -EPROTO;
	}
	memcpy(r, raw, sizeof(*r));
	*dlen = len - MMX_PROTO_REPLY_SIZE;
	if (data && *dlen <= max)
		memcpy(data, raw + MMX_PROTO_REPLY_SIZE, *dlen);
	free(raw);
	return 0;
}

int req2(int fd, uint16_t type, const void *a, size_t alen, const void *b,
	 size_t blen, void *out, size_t outlen)
{
	static uint32_t seq = 100;
	struct mmx_proto_header h;
	struct mmx_proto_reply r;
	uint8_t data[512];
	size_t dlen = 0;
	int ret;

	seq++;
	ret = send_msg2(fd, type, seq, a, alen, b, blen);
	if (ret)
		return 1000;
	do {
		ret = recv_one(fd, &h, &r, data, sizeof(data), &dlen, 3000);
	} while (ret == 1);
	if (ret)
		return 1000;
	if (h.sequence != seq || r.request != type)
		return 1001;
	if (!r.error && out) {
		if (dlen != outlen)
			return 1002;
		memcpy(out, data, outlen);
	}
	return r.error;
}

int req(int fd, uint16_t type, const void *a, size_t alen)
{
	return req2(fd, type, a, alen, NULL, 0, NULL, 0);
}

void wait_events(int fd, unsigned int n)
{
	int rounds = 200;

	while (nev + ntev < n && rounds-- > 0) {
		struct mmx_proto_header h;
		struct mmx_proto_reply r;
		size_t dl;
		int ret = recv_one(fd, &h, &r, NULL, 0, &dl, 5);

		if (ret < 0 && ret != -ETIMEDOUT)
			break;
	}
}

int hello_minor(int fd, uint16_t minor, struct mmx_proto_hello_reply *hr)
{
	struct mmx_proto_hello h;

	hello_init(&h);
	h.minor = minor;
	return req2(fd, MMX_MSG_HELLO, &h, sizeof(h), NULL, 0, hr, sizeof(*hr));
}

int hello(int fd)
{
	struct mmx_proto_hello_reply hr;

	return hello_minor(fd, MMX_PROTO_MINOR, &hr);
}

const struct mmx_stream_config good = {
	.width = 320, .height = 240, .x = -1, .y = -1,
};

int open_stream(int fd, const struct mmx_stream_config *cfg,
		struct mmx_proto_stream_open_reply *r)
{
	struct mmx_proto_stream_open_reply tmp;
	int ret;

	if (!r)
		r = &tmp;
	ret = req2(fd, MMX_MSG_STREAM_OPEN, cfg ? cfg : &good,
		   sizeof(good), NULL, 0, r, sizeof(*r));
	return ret ? ret : (int)r->stream;
}

int video(int fd, uint16_t type, uint32_t stream, uint64_t id, int64_t pts,
	  int64_t expire, const char *data)
{
	struct mmx_proto_stream_video v = {
		.stream = stream, .id = id, .pts_ns = pts, .expire_ns = expire,
	};

	return req2(fd, type, &v, sizeof(v), data, strlen(data), NULL, 0);
}

int start(int fd, uint32_t stream, int64_t delay)
{
	struct mmx_proto_stream_start s = { .stream = stream,
					    .delay_ns = delay };

	return req(fd, MMX_MSG_STREAM_START, &s, sizeof(s));
}

const struct mmx_stream_event *event_of(uint64_t id, uint32_t status)
{
	unsigned int i;

	for (i = 0; i < nev; i++)
		if (evs[i].ev.id == id && evs[i].ev.status == status)
			return &evs[i].ev;
	return NULL;
}

void lcg_fill(uint32_t *seed, uint8_t *buf, size_t len)
{
	size_t k;

	for (k = 0; k < len; k++) {
		*seed = *seed * 1103515245u + 12345u;
		buf[k] = (uint8_t)(*seed >> 16);
	}
}

int fuzz_failed(int ret, int i, uint16_t type, size_t len)
{
	if (ret < 1000)
		return 0;
	fprintf(stderr, "message %d (%s, %zu bytes): %d\n", i,
		mmx_wire_type_name(type), len, ret);
	return 1;
}
