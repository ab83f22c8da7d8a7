// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's media streams (STREAM_*, CLOCK_QUERY, AUTH) over socketpairs with
 * a fake backend: a fake clock, framebuffers counted, timed commits kept in
 * a table that a fake vblank executes, a decoder that "decodes" text
 * ("FRAME W H" or anything else: -EBADMSG) through a pipe like the pool's
 * fd. Checks the framing and validation of every new request, the event
 * flow (PRESENTED, EXPIRED, RETRACTED, REPLACED, DECODE_FAILED), queue
 * limits, that closing frees everything, AUTH on TCP connections, and
 * 50k random media messages with the daemon still answering PING.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "mmxd.h"
#include "mmx_wire.h"

#include "mmxd_fake.h"

static int fk_event_fd(void *ctx)
{
	(void)ctx;
	return fk.ev_pipe[0];
}

static int fk_read_events(void *ctx, struct mmxd_sched_event *ev,
			  unsigned int n)
{
	unsigned int k = fk.ndone < n ? fk.ndone : n;
	char buf[256];

	(void)ctx;
	memcpy(ev, fk.done, k * sizeof(*ev));
	memmove(fk.done, fk.done + k, (fk.ndone - k) * sizeof(*ev));
	fk.ndone -= k;
	if (!fk.ndone)
		while (read(fk.ev_pipe[0], buf, sizeof(buf)) > 0)
			;
	return (int)k;
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
	unsigned int k = fk.ndec < n ? fk.ndec : n;
	char buf[256];

	(void)ctx;
	memcpy(r, fk.dec, k * sizeof(*r));
	memmove(fk.dec, fk.dec + k, (fk.ndec - k) * sizeof(*r));
	fk.ndec -= k;
	if (!fk.ndec)
		while (read(fk.dec_pipe[0], buf, sizeof(buf)) > 0)
			;
	return (int)k;
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

static const struct mmxd_media_ops media_ops = {
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

/*
 * A vblank at @t: every pending entry due (exec <= t) is presented, or
 * expired when @t is past its expiry.
 */
static void vblank(int64_t t)
{
	unsigned int i;

	fk.now = t;
	for (i = 0; i < NSCHED; i++) {
		struct sched *e = &fk.sched[i];

		if (e->used && e->exec <= t)
			complete(e, t > e->expire ? 2 : 1, t);
	}
}

/* ---- harness ------------------------------------------------------------ */

static struct mmxd_server *srv;
static struct mmxd_media *media;
static const uint8_t good_cookie[MMX_AUTH_COOKIE_LEN] = { 1, 2, 3, 4, 5 };

static int server_start(void)
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
	ret = mmxd_server_new(&display_ops, NULL, &o, &srv);
	if (!ret)
		ret = mmxd_media_new(&media_ops, NULL, &media);
	if (!ret)
		mmxd_server_set_media(srv, media);
	return ret;
}

static void server_stop(void)
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

#include "mmxd_client_harness.h"

/* Events received, in order. */
#define MAXEV	4096
static struct mmx_proto_stream_event evs[MAXEV];
static unsigned int nev;
static unsigned int bad_events;

/* Receive one message; an EVENT is stored in evs and 1 returned. */
static int recv_one(int fd, struct mmx_proto_header *h,
		    struct mmx_proto_reply *r, uint8_t *data, size_t max,
		    size_t *dlen, int rounds)
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
		struct mmx_proto_event e;

		if (len != sizeof(e) + sizeof(evs[0])) {
			bad_events++;
		} else {
			memcpy(&e, raw, sizeof(e));
			if (e.event != MMX_PROTO_EVENT_STREAM)
				bad_events++;
			else if (nev < MAXEV)
				memcpy(&evs[nev++], raw + sizeof(e),
				       sizeof(evs[0]));
		}
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

/* Request with data @b; the reply's data (exactly @outlen) to @out. */
static int req2(int fd, uint16_t type, const void *a, size_t alen,
		const void *b, size_t blen, void *out, size_t outlen)
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

static int req(int fd, uint16_t type, const void *a, size_t alen)
{
	return req2(fd, type, a, alen, NULL, 0, NULL, 0);
}

/* Run the server until @n events came (or a while). */
static void wait_events(int fd, unsigned int n)
{
	int rounds = 200;

	while (nev < n && rounds-- > 0) {
		struct mmx_proto_header h;
		struct mmx_proto_reply r;
		size_t dl;
		int ret = recv_one(fd, &h, &r, NULL, 0, &dl, 5);

		if (ret < 0 && ret != -ETIMEDOUT)
			break;
	}
}

static int hello(int fd)
{
	struct mmx_proto_hello h;
	struct mmx_proto_hello_reply hr;

	memset(&h, 0, sizeof(h));
	h.major = MMX_PROTO_MAJOR;
	h.minor = MMX_PROTO_MINOR;
	h.state_size = sizeof(struct mmx_state);
	h.config_size = sizeof(struct mmx_config);
	strcpy(h.client, "test");
	return req2(fd, MMX_MSG_HELLO, &h, sizeof(h), NULL, 0, &hr, sizeof(hr));
}

static const struct mmx_stream_config good = {
	.width = 320, .height = 240, .x = -1, .y = -1,
};

/* Open a stream (config @cfg or the good one); its id, or < 0. */
static int open_stream(int fd, const struct mmx_stream_config *cfg,
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

static int video(int fd, uint16_t type, uint32_t stream, uint64_t id,
		 int64_t pts, int64_t expire, const char *data)
{
	struct mmx_proto_stream_video v = {
		.stream = stream, .id = id, .pts_ns = pts, .expire_ns = expire,
	};

	return req2(fd, type, &v, sizeof(v), data, strlen(data), NULL, 0);
}

static int start(int fd, uint32_t stream, int64_t delay)
{
	struct mmx_proto_stream_start s = { .stream = stream,
					    .delay_ns = delay };

	return req(fd, MMX_MSG_STREAM_START, &s, sizeof(s));
}

static const struct mmx_stream_event *event_of(uint64_t id, uint32_t status)
{
	unsigned int i;

	for (i = 0; i < nev; i++)
		if (evs[i].ev.id == id && evs[i].ev.status == status)
			return &evs[i].ev;
	return NULL;
}

#define CHECK_ERR(expr, want)						\
	do {								\
		int _r = (expr);					\
		UNIT_CHECK(_r == (want), "%s: %d, expected %d", #expr,	\
			   _r, (want));					\
	} while (0)

/* ---- tests -------------------------------------------------------------- */

static int test_caps(void)
{
	struct mmx_proto_hello h;
	struct mmx_proto_hello_reply hr;
	int fd;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	memset(&h, 0, sizeof(h));
	h.major = MMX_PROTO_MAJOR;
	h.minor = 0;	/* an older client is served too */
	h.state_size = sizeof(struct mmx_state);
	h.config_size = sizeof(struct mmx_config);
	CHECK_ERR(req2(fd, MMX_MSG_HELLO, &h, sizeof(h), NULL, 0, &hr,
		       sizeof(hr)), 0);
	UNIT_CHECK(hr.minor == MMX_PROTO_MINOR && hr.minor >= 1,
		   "minor %u", hr.minor);
	UNIT_CHECK(hr.caps & MMX_PROTO_CAP_STREAM, "caps 0x%x", hr.caps);
	UNIT_CHECK(!(hr.caps & MMX_PROTO_CAP_AUDIO),
		   "audio without an audio backend");
	close(fd);
	server_stop();
	return 0;
}

static int test_validation(void)
{
	struct mmx_proto_stream_video v = { .stream = 1, .id = 1 };
	struct mmx_proto_stream_retract rt = { .stream = 1, .id = 1 };
	struct mmx_proto_stream_ref ref = { .stream = 1 };
	struct mmx_stream_clock clk;
	struct mmx_stream_config cfg;
	uint8_t junk[128] = { 0 };
	int fd, sid;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	/* before HELLO */
	CHECK_ERR(req(fd, MMX_MSG_STREAM_OPEN, &good, sizeof(good)), -EPROTO);
	CHECK_ERR(hello(fd), 0);
	/* sizes */
	CHECK_ERR(req(fd, MMX_MSG_STREAM_OPEN, &good, sizeof(good) - 1),
		  -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_OPEN, junk, sizeof(good) + 4),
		  -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_START, junk, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_CLOSE, junk, 12), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_RETRACT, junk, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_QUERY, junk, 0), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v)), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_AUDIO, junk, 16), -EINVAL);
	/* configs */
#define BAD_CFG(field, value, err)					\
	do {								\
		cfg = good;						\
		cfg.field = value;					\
		CHECK_ERR(open_stream(fd, &cfg, NULL), err);		\
	} while (0)
	BAD_CFG(width, 0, -EINVAL);
	BAD_CFG(height, MMX_STREAM_MAX_DIM + 1, -EINVAL);
	BAD_CFG(flags, 1u << 7, -EINVAL);
	BAD_CFG(flags, MMX_STREAM_PRIMARY_PLANE, -EOPNOTSUPP);
	BAD_CFG(reserved[4], 1, -EINVAL);
	BAD_CFG(max_frames, MMX_STREAM_MAX_FRAMES + 1, -EINVAL);
	BAD_CFG(clock, MMX_STREAM_CLOCK_AUDIO, -EINVAL);
	BAD_CFG(clock, 3, -EINVAL);
	BAD_CFG(audio_format, 3, -EINVAL);
	BAD_CFG(audio_rate, 48000, -EINVAL);
	BAD_CFG(output, 77, -ENODEV);
	cfg = good;
	cfg.audio_format = MMX_AUDIO_S16LE;
	cfg.audio_rate = 48000;
	cfg.audio_channels = 2;
	CHECK_ERR(open_stream(fd, &cfg, NULL), -EOPNOTSUPP);
	UNIT_CHECK(fk.fbs == 0, "%u framebuffers after refusals", fk.fbs);
	/* unknown stream */
	CHECK_ERR(req(fd, MMX_MSG_STREAM_CLOSE, &ref, sizeof(ref)), -ENOENT);
	CHECK_ERR(req2(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v), "FRAME 1 1", 9,
		       NULL, 0), -ENOENT);
	CHECK_ERR(req(fd, MMX_MSG_STREAM_RETRACT, &rt, sizeof(rt)), -ENOENT);
	CHECK_ERR(req2(fd, MMX_MSG_CLOCK_QUERY, &ref, sizeof(ref), NULL, 0,
		       &clk, sizeof(clk)), -ENOENT);
	/* one stream per connection */
	sid = open_stream(fd, NULL, NULL);
	UNIT_CHECK(sid > 0, "open: %d", sid);
	CHECK_ERR(open_stream(fd, NULL, NULL), -EBUSY);
	UNIT_CHECK(fk.fbs >= 3, "%u framebuffers", fk.fbs);
	/* field checks on a real stream */
	v.stream = (uint32_t)sid;
	v.id = 0;
	CHECK_ERR(req2(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v), "FRAME", 5,
		       NULL, 0), -EINVAL);
	v.id = 1;
	v.pts_ns = 10;
	v.expire_ns = 9;
	CHECK_ERR(req2(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v), "FRAME", 5,
		       NULL, 0), -EINVAL);
	v.expire_ns = 10;
	v.flags = 1;
	CHECK_ERR(req2(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v), "FRAME", 5,
		       NULL, 0), -EINVAL);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_REPLACE, (uint32_t)sid, 5, 0, 0,
			"FRAME 320 240"), -ENOENT);
	CHECK_ERR(start(fd, (uint32_t)sid, -1), -EINVAL);
	CHECK_ERR(start(fd, (uint32_t)sid, 61000000000ll), -EINVAL);
	CHECK_ERR(start(fd, (uint32_t)sid, 0), 0);
	CHECK_ERR(start(fd, (uint32_t)sid, 0), -EBUSY);
	{
		struct mmx_proto_stream_audio a = { .stream = (uint32_t)sid };

		CHECK_ERR(req2(fd, MMX_MSG_STREAM_AUDIO, &a, sizeof(a), "ab",
			       2, NULL, 0), -EOPNOTSUPP);
	}
	ref.stream = (uint32_t)sid;
	CHECK_ERR(req2(fd, MMX_MSG_CLOCK_QUERY, &ref, sizeof(ref), NULL, 0,
		       &clk, sizeof(clk)), 0);
	UNIT_CHECK(clk.running && clk.clock == MMX_STREAM_CLOCK_MONOTONIC &&
		   clk.stream_ns == 0 && clk.mono_ns == fk.now,
		   "clock %d %u %lld", clk.running, clk.clock,
		   (long long)clk.stream_ns);
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 0);
	close(fd);
	pump(3);
	UNIT_CHECK(fk.fbs == 0, "%u framebuffers after close", fk.fbs);
	server_stop();
	return 0;
}

static int test_flow(void)
{
	const struct mmx_stream_event *e;
	struct mmx_proto_stream_open_reply r;
	int64_t t0;
	int fd, sid;

	UNIT_CHECK(!server_start(), "server");
	nev = 0;
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	sid = open_stream(fd, NULL, &r);
	UNIT_CHECK(sid > 0, "open %d", sid);
	UNIT_CHECK(r.x == (1024 - 320) / 2 && r.y == (768 - 240) / 2 &&
		   r.crtc == 40 && r.plane == 60 &&
		   r.max_frames == MMX_STREAM_DEFAULT_FRAMES,
		   "open reply %d,%d crtc %u plane %u max %u", r.x, r.y,
		   r.crtc, r.plane, r.max_frames);
	/* decoded ahead of the start, scheduled once started */
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 1, 0,
			INT64_MAX, "FRAME 320 240"), 0);
	pump(3);
	UNIT_CHECK(fk.pending == 0, "scheduled before the start");
	t0 = fk.now;
	CHECK_ERR(start(fd, (uint32_t)sid, 50000000), 0);
	pump(3);
	UNIT_CHECK(fk.pending == 1 && fk.sched[0].exec == t0 + 50000000,
		   "pending %u exec %lld", fk.pending,
		   (long long)(fk.sched[0].exec - t0));
	/* a corrupt one, a wrong-sized one, an expired one, a good one */
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 2, 100000000,
			INT64_MAX, "garbage"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 3, 100000000,
			INT64_MAX, "FRAME 16 16"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 4, 100000000,
			100000001, "FRAME 320 240"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 5, 200000000,
			INT64_MAX, "FRAME 320 240"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 5, 0, 0,
			"FRAME 320 240"), -EEXIST);
	/* retract one scheduled, replace one scheduled */
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 6, 300000000,
			INT64_MAX, "FRAME 320 240"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 7, 400000000,
			INT64_MAX, "FRAME 320 240"), 0);
	pump(3);
	{
		struct mmx_proto_stream_retract rt = { .stream = (uint32_t)sid,
						       .id = 6 };

		CHECK_ERR(req(fd, MMX_MSG_STREAM_RETRACT, &rt, sizeof(rt)), 0);
		CHECK_ERR(req(fd, MMX_MSG_STREAM_RETRACT, &rt, sizeof(rt)),
			  -ENOENT);
	}
	CHECK_ERR(video(fd, MMX_MSG_STREAM_REPLACE, (uint32_t)sid, 7,
			450000000, INT64_MAX, "FRAME 320 240"), 0);
	pump(3);
	/* stream time 0 is t0 + 50 ms */
	vblank(t0 + 50000000);
	vblank(t0 + 160000000);		/* 4 expired (expire 100.000001 ms) */
	vblank(t0 + 266666666);
	vblank(t0 + 500000000);
	wait_events(fd, 8);
	e = event_of(1, MMX_STREAM_PRESENTED);
	UNIT_CHECK(e && e->present_ns == t0 + 50000000 &&
		   e->stream_ns_at_present == 0 && e->sequence == 1 &&
		   e->kind == MMX_STREAM_VIDEO,
		   "frame 1: %p", (const void *)e);
	e = event_of(2, MMX_STREAM_DECODE_FAILED);
	UNIT_CHECK(e && e->error == -EBADMSG, "frame 2 not DECODE_FAILED");
	e = event_of(3, MMX_STREAM_DECODE_FAILED);
	UNIT_CHECK(e && e->error == -E2BIG, "frame 3 not -E2BIG");
	UNIT_CHECK(event_of(4, MMX_STREAM_EXPIRED), "frame 4 not EXPIRED");
	e = event_of(5, MMX_STREAM_PRESENTED);
	UNIT_CHECK(e && e->present_ns == t0 + 266666666 &&
		   e->stream_ns_at_present == 216666666, "frame 5");
	UNIT_CHECK(event_of(6, MMX_STREAM_RETRACTED) &&
		   !event_of(6, MMX_STREAM_PRESENTED), "frame 6");
	UNIT_CHECK(event_of(7, MMX_STREAM_REPLACED), "frame 7 not REPLACED");
	e = event_of(7, MMX_STREAM_PRESENTED);
	UNIT_CHECK(e && e->pts_ns == 450000000, "frame 7's new content");
	UNIT_CHECK(nev == 8, "%u events", nev);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	close(fd);
	server_stop();
	return 0;
}

static int test_limits(void)
{
	struct mmx_stream_config cfg = good;
	static uint8_t big[MMX_PROTO_MAX_REQUEST * 2];
	struct mmx_proto_stream_video v = { .id = 1, .expire_ns = 1 };
	int fd, fd2, sid, i, fds[MMXD_MAX_STREAMS];

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	/* a media request above MMX_PROTO_MAX_REQUEST without a stream */
	memcpy(big, "BIG", 3);
	UNIT_CHECK(!send_msg2(fd, MMX_MSG_STREAM_VIDEO, 9, &v, sizeof(v), big,
			      sizeof(big)) || 1, "send");
	{
		struct mmx_proto_header h;
		struct mmx_proto_reply r;
		size_t dl;

		UNIT_CHECK(!recv_one(fd, &h, &r, NULL, 0, &dl, 3000) &&
			   r.error == -EMSGSIZE, "no -EMSGSIZE");
	}
	close(fd);
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	cfg.max_frames = 4;
	sid = open_stream(fd, &cfg, NULL);
	UNIT_CHECK(sid > 0, "open");
	v.stream = (uint32_t)sid;
	/* with a stream: a large frame is accepted (then fails to decode) */
	CHECK_ERR(req2(fd, MMX_MSG_STREAM_VIDEO, &v, sizeof(v), big,
		       sizeof(big), NULL, 0), 0);
	for (i = 2; i <= 4; i++)
		CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid,
				(uint64_t)i, 0, INT64_MAX, "FRAME 320 240"), 0);
	pump(3);
	/* 1 failed decoding: 3 pending, room for one */
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 5, 0,
			INT64_MAX, "FRAME 320 240"), 0);
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 6, 0,
			INT64_MAX, "FRAME 320 240"), -EAGAIN);
	/* too many streams */
	fds[0] = fd;
	for (i = 1; i < MMXD_MAX_STREAMS; i++) {
		fds[i] = client_new_tcp(0);
		CHECK_ERR(hello(fds[i]), 0);
		UNIT_CHECK(open_stream(fds[i], NULL, NULL) > 0, "stream %d", i);
	}
	fd2 = client_new_tcp(0);
	CHECK_ERR(hello(fd2), 0);
	CHECK_ERR(open_stream(fd2, NULL, NULL), -ENOSPC);
	/* started with pending entries, then everyone leaves */
	CHECK_ERR(start(fd, (uint32_t)sid, 1000000000), 0);
	pump(3);
	UNIT_CHECK(fk.pending > 0, "nothing scheduled");
	for (i = 0; i < MMXD_MAX_STREAMS; i++)
		close(fds[i]);
	close(fd2);
	pump(5);
	UNIT_CHECK(mmxd_media_nstreams(media) == 0, "%u streams left",
		   mmxd_media_nstreams(media));
	UNIT_CHECK(fk.fbs == 0, "%u framebuffers left", fk.fbs);
	UNIT_CHECK(fk.pending == 0, "%u timed commits left", fk.pending);
	server_stop();
	return 0;
}

static int test_auth(void)
{
	struct mmx_proto_auth a;
	int fd;

	UNIT_CHECK(!server_start(), "server");
	/* HELLO before AUTH: refused and closed */
	fd = client_new_tcp(1);
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 0);
	CHECK_ERR(hello(fd), -EACCES);
	pump(3);
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 1000);
	close(fd);
	/* a wrong cookie */
	fd = client_new_tcp(1);
	memcpy(a.cookie, good_cookie, sizeof(a.cookie));
	a.cookie[31] ^= 1;
	CHECK_ERR(req(fd, MMX_MSG_AUTH, &a, sizeof(a)), -EACCES);
	pump(3);
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 1000);
	close(fd);
	/* a bad size */
	fd = client_new_tcp(1);
	CHECK_ERR(req(fd, MMX_MSG_AUTH, &a, sizeof(a) - 1), -EINVAL);
	close(fd);
	/* the right cookie, then a stream */
	fd = client_new_tcp(1);
	memcpy(a.cookie, good_cookie, sizeof(a.cookie));
	CHECK_ERR(req(fd, MMX_MSG_AUTH, &a, sizeof(a)), 0);
	CHECK_ERR(req(fd, MMX_MSG_AUTH, &a, sizeof(a)), -EPROTO);
	CHECK_ERR(hello(fd), 0);
	UNIT_CHECK(open_stream(fd, NULL, NULL) > 0, "stream over TCP");
	close(fd);
	/* UNIX: AUTH is accepted and ignored */
	fd = client_new_tcp(0);
	a.cookie[0] ^= 1;
	CHECK_ERR(req(fd, MMX_MSG_AUTH, &a, sizeof(a)), 0);
	CHECK_ERR(hello(fd), 0);
	close(fd);
	pump(3);
	server_stop();
	return 0;
}

static int test_fuzz(void)
{
	static const uint16_t types[] = {
		MMX_MSG_STREAM_OPEN, MMX_MSG_STREAM_CLOSE, MMX_MSG_STREAM_START,
		MMX_MSG_STREAM_VIDEO, MMX_MSG_STREAM_RETRACT,
		MMX_MSG_STREAM_REPLACE, MMX_MSG_STREAM_AUDIO,
		MMX_MSG_CLOCK_QUERY, MMX_MSG_AUTH, MMX_MSG_TIME_FIRST + 1,
		MMX_MSG_COMPRESS_FIRST + 9,
	};
	uint32_t seed = 12345;
	uint8_t buf[160];
	int fd, i, sid = 1, errors = 0;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	for (i = 0; i < 50000; i++) {
		uint16_t type = types[(seed >> 8) % (sizeof(types) /
						     sizeof(types[0]))];
		size_t len, k;
		int ret;

		seed = seed * 1103515245u + 12345u;
		len = (seed >> 16) % sizeof(buf);
		for (k = 0; k < len; k++) {
			seed = seed * 1103515245u + 12345u;
			buf[k] = (uint8_t)(seed >> 16);
		}
		/* often a plausible header: our stream, sane sizes */
		if (len >= 4 && (seed & 3)) {
			memcpy(buf, &sid, 4);
			if (type == MMX_MSG_STREAM_OPEN && (seed & 4)) {
				struct mmx_stream_config c = good;

				c.max_frames = (seed >> 3) % 50;
				memcpy(buf, &c, sizeof(c));
				len = sizeof(c);
			}
			if ((type == MMX_MSG_STREAM_VIDEO ||
			     type == MMX_MSG_STREAM_REPLACE) && len > 32 &&
			    (seed & 8)) {
				int64_t pts = (int64_t)(seed % 1000) * 1000000;

				buf[4] = buf[5] = buf[6] = buf[7] = 0;
				memcpy(buf + 16, &pts, 8);
				pts += 50000000;
				memcpy(buf + 24, &pts, 8);
				memcpy(buf + 32, "FRAME 320 240", 13 <
				       len - 32 ? 13 : len - 32);
			}
		}
		seed = seed * 1103515245u + 12345u;
		ret = req2(fd, type, buf, len, NULL, 0, NULL, 0);
		if (ret >= 1000) {
			fprintf(stderr, "message %d (%s, %zu bytes): %d\n", i,
				mmx_wire_type_name(type), len, ret);
			errors++;
			break;
		}
		if (type == MMX_MSG_STREAM_OPEN && ret == 0)
			sid++;	/* stream ids grow; the next open is -EBUSY */
		if (!(i % 97))
			vblank(fk.now + 16666667);
		if (!(i % 4999)) {
			struct mmx_proto_stream_ref ref;

			/* close whatever stream is open: the next can open */
			for (k = 1; k <= (size_t)sid + 1; k++) {
				ref.stream = (uint32_t)k;
				ref.pad = 0;
				req(fd, MMX_MSG_STREAM_CLOSE, &ref, sizeof(ref));
			}
		}
	}
	UNIT_CHECK(!errors, "the server stopped answering");
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 0);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	close(fd);
	pump(5);
	UNIT_CHECK(fk.fbs == 0 && fk.pending == 0,
		   "%u framebuffers, %u timed commits left", fk.fbs,
		   fk.pending);
	server_stop();
	return 0;
}

static const struct unit_case cases[] = {
	{ "caps", "HELLO says protocol 1.1 with streams (and no audio without a device)",
	  test_caps },
	{ "validation", "bad sizes, configs, fields and unknown streams get their errno; nothing leaks",
	  test_validation },
	{ "flow", "decode ahead, schedule at start + pts; PRESENTED, DECODE_FAILED, EXPIRED, RETRACTED, REPLACED events",
	  test_flow },
	{ "limits", "large media data only with a stream; max_frames, MMXD_MAX_STREAMS; closing frees all",
	  test_limits },
	{ "auth", "TCP: nothing but PING before AUTH, a wrong cookie refused and closed, the right one serves",
	  test_auth },
	{ "fuzz", "50k random media messages (fixed seed): one reply each, then PING; nothing left",
	  test_fuzz },
};

int main(int argc, char **argv)
{
	return unit_run(cases, sizeof(cases) / sizeof(cases[0]), argc, argv);
}
