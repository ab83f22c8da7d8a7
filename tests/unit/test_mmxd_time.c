// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's TIME requests (protocol 1.2: CLOCK_CREATE/START/STOP/SET_RATE/
 * READ/DESTROY, SCHEDULE_SUBMIT/RETRACT/REPLACE and schedule EVENTs) over
 * socketpairs with the fake backend of mmxd_fake.c (a fake clock,
 * timed commits in a table that a fake vblank executes) plus a fake
 * vblank clock source (vblanks every FRAME ns from 0). Checks validation
 * (sizes, kinds, unknown and other clients' ids, begin >= end, limits),
 * clock arithmetic through the protocol, the schedule flow (PRESENTED at
 * the first vblank at or after begin, EXPIRED, RETRACTED, REPLACED, -EBUSY
 * too late), that closing frees everything, and 20k random TIME messages
 * with the daemon still answering PING.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "mmxd.h"
#include "mmx_wire.h"

#include "mmxd_fake.h"

/* A fake audio device at 48 kHz whose frame 0 played at AU0. */
#define AU_RATE	48000
#define AU0	1000000000000ll
#define NPLAY	64

static struct {
	int open;
	int64_t written;		/* set by the tests */
	struct { uint64_t id; uint64_t frames; int64_t at; } play[NPLAY];
	unsigned int nplay;
	uint64_t done[NPLAY];
	unsigned int ndone, cancels;
	int pipe[2];
} au;

static int fake_audio_open(void *ctx, uint32_t rate, uint32_t ch,
			   void **out)
{
	(void)ctx;
	if (rate != AU_RATE || ch != 2 || au.open)
		return -EINVAL;
	au.open = 1;
	*out = &au;
	return 0;
}

static void fake_audio_close(void *ctx, void *a)
{
	(void)ctx;
	(void)a;
	au.open = 0;
	au.nplay = 0;
}

static int fake_audio_play(void *ctx, void *a, uint64_t id,
			   const int16_t *samples, uint64_t frames, int64_t at)
{
	(void)ctx;
	(void)a;
	(void)samples;
	if (au.nplay >= NPLAY)
		return -ENOMEM;
	au.play[au.nplay].id = id;
	au.play[au.nplay].frames = frames;
	au.play[au.nplay].at = at;
	au.nplay++;
	return 0;
}

static int fake_audio_cancel(void *ctx, void *a, uint64_t id)
{
	unsigned int i;

	(void)ctx;
	(void)a;
	for (i = 0; i < au.nplay; i++) {
		if (au.play[i].id == id) {
			au.play[i] = au.play[--au.nplay];
			au.cancels++;
			return 0;
		}
	}
	return -ENOENT;
}

static int64_t fake_audio_written(void *ctx, void *a)
{
	(void)ctx;
	(void)a;
	return au.written;
}

static int fake_audio_poll_fill(void *ctx, void *a, struct pollfd *pfd,
				unsigned int n)
{
	(void)ctx;
	(void)a;
	if (!n)
		return 0;
	pfd[0] = (struct pollfd){ .fd = au.pipe[0], .events = POLLIN };
	return 1;
}

static int fake_audio_service(void *ctx, void *a, uint64_t *ids,
			      int64_t *end_ns, unsigned int n)
{
	unsigned int k = 0;
	char buf[64];

	(void)ctx;
	(void)a;
	while (read(au.pipe[0], buf, sizeof(buf)) > 0)
		;
	while (k < n && au.ndone) {
		ids[k] = au.done[--au.ndone];
		end_ns[k] = fk.now;
		k++;
	}
	return (int)k;
}

static int fake_audio_frame_to_ns(void *ctx, void *a, int64_t frame,
				  int64_t *ns)
{
	(void)ctx;
	(void)a;
	*ns = AU0 + frame * 1000000000ll / AU_RATE;
	return 0;
}

static int fake_audio_ns_to_frame(void *ctx, void *a, int64_t ns,
				  double *frame)
{
	(void)ctx;
	(void)a;
	*frame = (double)(ns - AU0) * AU_RATE / 1e9;
	return 0;
}

static int fake_audio_played(void *ctx, void *a, int64_t *frames)
{
	(void)ctx;
	(void)a;
	*frames = (fk.now - AU0) * AU_RATE / 1000000000ll;
	return 0;
}

static const struct mmxd_audio_ops audio_ops = {
	.open = fake_audio_open,
	.close = fake_audio_close,
	.play = fake_audio_play,
	.cancel = fake_audio_cancel,
	.written = fake_audio_written,
	.poll_fill = fake_audio_poll_fill,
	.service = fake_audio_service,
	.frame_to_ns = fake_audio_frame_to_ns,
	.ns_to_frame = fake_audio_ns_to_frame,
	.played = fake_audio_played,
};

static int with_audio;

/* The fake backend with REPLACE and the vblank clock source; audio too with
 * with_audio. */
static struct mmxd_media_ops media_ops;

static int server_start(void)
{
	media_ops = fake_media_ops;
	media_ops.replace = fk_replace;
	media_ops.vblank_source = fk_vblank_source;
	media_ops.vblank_source_free = fk_vblank_source_free;
	media_ops.audio = with_audio ? &audio_ops : NULL;
	memset(&au, 0, sizeof(au));
	if (pipe2(au.pipe, O_NONBLOCK | O_CLOEXEC))
		return -errno;
	nev = ntev = bad_events = 0;
	accept_schedule_events = 1;
	return server_start_media(&media_ops);
}

static void server_stop(void)
{
	server_stop_media();
	close(au.pipe[0]);
	close(au.pipe[1]);
}

/* ---- TIME helpers ------------------------------------------------------- */

static int clk_create(int fd, uint32_t kind, uint32_t target)
{
	struct mmx_proto_clock_create c = { .kind = kind, .target = target };
	struct mmx_proto_clock_ref r;
	int ret = req2(fd, MMX_MSG_CLOCK_CREATE, &c, sizeof(c), NULL, 0, &r,
		       sizeof(r));

	return ret ? ret : (int)r.clock;
}

static int clk_at(int fd, uint16_t type, int clock, uint32_t flags,
		  int64_t mono)
{
	struct mmx_proto_clock_at a = { .clock = (uint32_t)clock,
					.flags = flags, .mono_ns = mono };

	return req(fd, type, &a, sizeof(a));
}

static int clk_rate(int fd, int clock, int32_t num, uint32_t den)
{
	struct mmx_proto_clock_rate r = { .clock = (uint32_t)clock,
					  .num = num, .den = den };

	return req(fd, MMX_MSG_CLOCK_SET_RATE, &r, sizeof(r));
}

static int clk_read(int fd, int clock, struct mmx_remote_clock_state *st)
{
	struct mmx_proto_clock_ref r = { .clock = (uint32_t)clock };

	return req2(fd, MMX_MSG_CLOCK_READ, &r, sizeof(r), NULL, 0, st,
		    sizeof(*st));
}

static int clk_destroy(int fd, int clock)
{
	struct mmx_proto_clock_ref r = { .clock = (uint32_t)clock };

	return req(fd, MMX_MSG_CLOCK_DESTROY, &r, sizeof(r));
}

static struct mmx_schedule_request sreq(uint64_t id, int clock, int sid,
					int64_t begin, int64_t end)
{
	struct mmx_schedule_request r;

	memset(&r, 0, sizeof(r));
	r.id = id;
	r.clock = (uint32_t)clock;
	r.kind = MMX_SCHEDULE_KIND_DISPLAY;
	r.stream = (uint32_t)sid;
	r.begin_ns = begin;
	r.end_ns = end;
	r.x = 10;
	r.y = 20;
	return r;
}

static int submit(int fd, const struct mmx_schedule_request *r)
{
	return req(fd, MMX_MSG_SCHEDULE_SUBMIT, r, sizeof(*r));
}

static int replace(int fd, uint64_t old, const struct mmx_schedule_request *r)
{
	struct mmx_proto_schedule_replace rp = { .old_id = old, .req = *r };

	return req(fd, MMX_MSG_SCHEDULE_REPLACE, &rp, sizeof(rp));
}

static int retract(int fd, uint64_t id)
{
	struct mmx_proto_schedule_ref r = { .id = id };

	return req(fd, MMX_MSG_SCHEDULE_RETRACT, &r, sizeof(r));
}

static const struct mmx_stream_config *shown_cfg;	/* NULL: video */

/* A stream of @fd that has presented a picture; its id. */
static int shown_stream(int fd)
{
	int sid = open_stream(fd, shown_cfg, NULL);

	if (sid <= 0)
		return -1;
	if (video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 1, 0, INT64_MAX,
		  "FRAME 320 240") || start(fd, (uint32_t)sid, 0))
		return -1;
	pump(3);
	vblank(fk.now + FRAME);
	wait_events(fd, nev + 1);
	return nev == 1 && evs[0].ev.status == MMX_STREAM_PRESENTED ? sid : -1;
}

static const struct mmx_schedule_event *tevent(uint64_t id, uint32_t status)
{
	unsigned int i;

	for (i = 0; i < ntev; i++)
		if (tev[i].id == id && tev[i].status == status)
			return &tev[i];
	return NULL;
}

/* The fake's pending entry with user data of TIME, the newest. */
static struct sched *time_entry(void)
{
	struct sched *best = NULL;
	unsigned int i;

	for (i = 0; i < NSCHED; i++)
		if (fk.sched[i].used && (fk.sched[i].user & MMXD_TIME_TOKEN) &&
		    (!best || fk.sched[i].id > best->id))
			best = &fk.sched[i];
	return best;
}

/* ---- tests -------------------------------------------------------------- */

static int test_caps(void)
{
	struct mmx_proto_hello_reply hr;
	int fd;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	/* a client of another minor is served */
	CHECK_ERR(hello_minor(fd, 1, &hr), 0);
	UNIT_CHECK(hr.major == MMX_PROTO_MAJOR && hr.minor == MMX_PROTO_MINOR,
		   "version %u.%u", hr.major, hr.minor);
	UNIT_CHECK((hr.caps & MMX_PROTO_CAP_TIME) &&
		   (hr.caps & MMX_PROTO_CAP_STREAM), "caps 0x%x", hr.caps);
	close(fd);
	server_stop();
	return 0;
}

static int test_validation(void)
{
	struct mmx_proto_clock_create cc = { .kind = 1 };
	struct mmx_remote_clock_state st;
	struct mmx_schedule_request r;
	uint8_t big[200] = { 0 };
	int fd, fd2, fd3, mono, other, sid, sid2, i, ids[MMXD_TIME_MAX_CLOCKS];

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	fd2 = client_new_tcp(0);
	fd3 = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	CHECK_ERR(hello(fd2), 0);
	/* before HELLO */
	CHECK_ERR(req(fd3, MMX_MSG_CLOCK_CREATE, &cc, sizeof(cc)), -EPROTO);
	/* sizes */
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_CREATE, &cc, 4), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_CREATE, big, sizeof(big)), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_START, big, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_SET_RATE, big, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_CLOCK_READ, big, 16), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_SCHEDULE_SUBMIT, big, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_SCHEDULE_REPLACE, big, 8), -EINVAL);
	CHECK_ERR(req(fd, MMX_MSG_SCHEDULE_RETRACT, big, 4), -EINVAL);
	/* kinds and targets */
	CHECK_ERR(clk_create(fd, 0, 0), -EINVAL);
	CHECK_ERR(clk_create(fd, 4, 0), -EINVAL);
	CHECK_ERR(clk_create(fd, 0xffffffffu, 0), -EINVAL);
	CHECK_ERR(clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 1), -EINVAL);
	CHECK_ERR(clk_create(fd, MMX_REMOTE_CLOCK_VBLANK, 51), -ENOENT);
	CHECK_ERR(clk_create(fd, MMX_REMOTE_CLOCK_AUDIO, 99), -ENOENT);
	UNIT_CHECK(fk.vsources == 0, "%d vblank sources", fk.vsources);
	mono = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
	UNIT_CHECK(mono > 0, "create %d", mono);
	other = clk_create(fd2, MMX_REMOTE_CLOCK_VBLANK, 50);
	UNIT_CHECK(other > 0, "create vblank %d", other);
	/* unknown ids, other client's ids */
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, 777, 1, 0), -ENOENT);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, other, 1, 0),
		  other == mono ? 0 : -ENOENT);
	CHECK_ERR(clk_read(fd, other == mono ? 777 : other, &st), -ENOENT);
	CHECK_ERR(clk_destroy(fd, 777), -ENOENT);
	CHECK_ERR(clk_rate(fd, 777, 1, 1), -ENOENT);
	/* fields */
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, mono, 2, 0), -EINVAL);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, mono, 0, 0), -EINVAL);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_STOP, mono, 0,
			 fk.now + 61 * MMX_NSEC_PER_SEC), -EINVAL);
	CHECK_ERR(clk_rate(fd, mono, 1, 0), -EINVAL);
	CHECK_ERR(clk_rate(fd, mono, 1001, 1), -EINVAL);
	CHECK_ERR(clk_rate(fd, mono, -1001, 1), -EINVAL);
	CHECK_ERR(clk_rate(fd, mono, 1, 1001), -EINVAL);
	{
		struct mmx_proto_clock_rate rr = { .clock = (uint32_t)mono,
						   .num = 1, .den = 1,
						   .pad = 1 };
		struct mmx_proto_clock_ref ref = { .clock = (uint32_t)mono,
						   .pad = 1 };

		CHECK_ERR(req(fd, MMX_MSG_CLOCK_SET_RATE, &rr, sizeof(rr)),
			  -EINVAL);
		CHECK_ERR(req(fd, MMX_MSG_CLOCK_READ, &ref, sizeof(ref)),
			  -EINVAL);
	}
	/* the clock limit */
	for (i = 1; i < MMXD_TIME_MAX_CLOCKS; i++) {
		ids[i] = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
		UNIT_CHECK(ids[i] > 0, "clock %d: %d", i, ids[i]);
	}
	CHECK_ERR(clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0), -ENOSPC);
	CHECK_ERR(clk_destroy(fd, ids[3]), 0);
	CHECK_ERR(clk_destroy(fd, ids[3]), -ENOENT);
	ids[3] = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
	UNIT_CHECK(ids[3] > 0, "again %d", ids[3]);
	/* schedules */
	sid2 = shown_stream(fd2);
	UNIT_CHECK(sid2 > 0, "stream of client 2");
	nev = 0;
	sid = open_stream(fd, NULL, NULL);
	UNIT_CHECK(sid > 0, "stream");
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, mono, 1, 0), 0);
	r = sreq(1, mono, sid, 0, 1000);
	CHECK_ERR(submit(fd, &r), -EAGAIN);	/* nothing shown yet */
	CHECK_ERR(video(fd, MMX_MSG_STREAM_VIDEO, (uint32_t)sid, 1, 0,
			INT64_MAX, "FRAME 320 240"), 0);
	CHECK_ERR(start(fd, (uint32_t)sid, 0), 0);
	pump(3);
	vblank(fk.now + FRAME);
	wait_events(fd, 1);
	CHECK_ERR(submit(fd, &r), 0);
	CHECK_ERR(submit(fd, &r), -EEXIST);
	r = sreq(0, mono, sid, 0, 1000);
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, mono, sid, 1000, 1000);
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, mono, sid, 1001, 1000);
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, mono, sid, 0, 1000);
	r.flags = 1;
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, mono, sid, 0, 1000);
	r.reserved[3] = 1;
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, mono, sid, 0, 1000);
	r.kind = 7;
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r.kind = MMX_SCHEDULE_KIND_AUDIO;
	r.x = r.y = 0;
	CHECK_ERR(submit(fd, &r), -EINVAL);	/* no samples */
	CHECK_ERR(req2(fd, MMX_MSG_SCHEDULE_SUBMIT, &r, sizeof(r), big, 8,
		       NULL, 0), -EOPNOTSUPP);	/* no audio */
	r.kind = MMX_SCHEDULE_KIND_DISPLAY;
	CHECK_ERR(req2(fd, MMX_MSG_SCHEDULE_SUBMIT, &r, sizeof(r), big, 8,
		       NULL, 0), -EINVAL);	/* display with data */
	r = sreq(2, mono, sid, 0, 1000);
	r.x = 20000;
	CHECK_ERR(submit(fd, &r), -EINVAL);
	r = sreq(2, 777, sid, 0, 1000);
	CHECK_ERR(submit(fd, &r), -ENOENT);
	r = sreq(2, mono, sid2, 0, 1000);	/* client 2's stream */
	CHECK_ERR(submit(fd, &r), -ENOENT);
	r = sreq(2, ids[5], sid, 0, 1000);	/* a stopped clock */
	CHECK_ERR(submit(fd, &r), -EAGAIN);
	CHECK_ERR(retract(fd, 55), -ENOENT);
	r = sreq(3, mono, sid, 0, 1000);
	CHECK_ERR(replace(fd, 55, &r), -ENOENT);
	/* client 2 cannot touch client 1's schedule */
	CHECK_ERR(retract(fd2, 1), -ENOENT);
	/* the pending limit */
	for (i = 2; i <= MMXD_TIME_MAX_PENDING; i++) {
		r = sreq((uint64_t)i, mono, sid, 1000000000, 2000000000);
		CHECK_ERR(submit(fd, &r), 0);
	}
	r = sreq(1000, mono, sid, 1000000000, 2000000000);
	CHECK_ERR(submit(fd, &r), -ENOSPC);
	CHECK_ERR(retract(fd, 5), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(5, MMX_TIME_RETRACTED), "RETRACTED");
	CHECK_ERR(submit(fd, &r), 0);
	UNIT_CHECK(fk.pending == MMXD_TIME_MAX_PENDING, "pending %u",
		   fk.pending);
	/* closing frees the clocks and retracts the schedules */
	close(fd);
	close(fd2);
	close(fd3);
	pump(5);
	UNIT_CHECK(fk.pending == 0 && fk.vsources == 0 && fk.fbs == 0,
		   "left: %u commits, %d vblank sources, %u fbs", fk.pending,
		   fk.vsources, fk.fbs);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	server_stop();
	return 0;
}

static int test_clocks(void)
{
	struct mmx_remote_clock_state st;
	int fd, c, v, a, sid;
	int64_t t0;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	c = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
	UNIT_CHECK(c > 0, "create");
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 0 && !st.running && st.rate_num == 1 &&
		   st.rate_den == 1 && st.kind == MMX_REMOTE_CLOCK_MONOTONIC &&
		   st.mono_ns == fk.now, "new clock: %lld running %u %d/%u",
		   (long long)st.value_ns, st.running, st.rate_num,
		   st.rate_den);
	t0 = fk.now;
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, c, MMX_PROTO_CLOCK_NOW, 0),
		  0);
	fk.now = t0 + 1000000000;
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 1000000000 && st.running &&
		   st.mono_ns == fk.now, "1 s: %lld", (long long)st.value_ns);
	CHECK_ERR(clk_rate(fd, c, 2, 1), 0);
	fk.now += 1000000000;
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 3000000000 && st.rate_num == 2,
		   "rate 2/1: %lld", (long long)st.value_ns);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_STOP, c, MMX_PROTO_CLOCK_NOW, 0), 0);
	fk.now += 1000000000;
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 3000000000 && !st.running, "stopped: %lld",
		   (long long)st.value_ns);
	/* started half a second ago: as if it had run since */
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, c, 0, fk.now - 500000000),
		  0);
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 4000000000, "started in the past: %lld",
		   (long long)st.value_ns);
	CHECK_ERR(clk_rate(fd, c, 1, 3), 0);
	fk.now += 3000000000;
	CHECK_ERR(clk_read(fd, c, &st), 0);
	UNIT_CHECK(st.value_ns == 5000000000, "rate 1/3: %lld",
		   (long long)st.value_ns);
	/* vblank clock: moves in whole frames */
	v = clk_create(fd, MMX_REMOTE_CLOCK_VBLANK, 50);
	UNIT_CHECK(v > 0 && fk.vsources == 1, "vblank clock");
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, v, MMX_PROTO_CLOCK_NOW, 0),
		  0);
	fk.now += 10 * FRAME + FRAME / 2;
	CHECK_ERR(clk_read(fd, v, &st), 0);
	UNIT_CHECK(st.value_ns == 10 * FRAME || st.value_ns == 11 * FRAME,
		   "vblank clock after 10.5 frames: %lld",
		   (long long)st.value_ns);
	UNIT_CHECK(st.kind == MMX_REMOTE_CLOCK_VBLANK, "kind %u", st.kind);
	/* a stream's clock: not before the stream starts */
	sid = open_stream(fd, NULL, NULL);
	a = clk_create(fd, MMX_REMOTE_CLOCK_AUDIO, (uint32_t)sid);
	UNIT_CHECK(sid > 0 && a > 0, "stream clock %d", a);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, a, MMX_PROTO_CLOCK_NOW, 0),
		  -EAGAIN);
	CHECK_ERR(start(fd, (uint32_t)sid, 0), 0);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, a, MMX_PROTO_CLOCK_NOW, 0),
		  0);
	fk.now += 250000000;
	CHECK_ERR(clk_read(fd, a, &st), 0);
	UNIT_CHECK(st.value_ns == 250000000, "stream clock %lld",
		   (long long)st.value_ns);
	/* the stream gone: its clock cannot be read */
	{
		struct mmx_proto_stream_ref ref = { .stream = (uint32_t)sid };

		CHECK_ERR(req(fd, MMX_MSG_STREAM_CLOSE, &ref, sizeof(ref)), 0);
	}
	CHECK_ERR(clk_read(fd, a, &st), -ENOENT);
	CHECK_ERR(clk_destroy(fd, v), 0);
	UNIT_CHECK(fk.vsources == 0, "vblank source not freed");
	close(fd);
	pump(3);
	server_stop();
	return 0;
}

static int test_flow(void)
{
	const struct mmx_schedule_event *e;
	struct mmx_schedule_request r;
	struct sched *k, copy;
	int fd, v, m, sid;
	int64_t s0, b;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	sid = shown_stream(fd);
	UNIT_CHECK(sid > 0, "shown stream");
	v = clk_create(fd, MMX_REMOTE_CLOCK_VBLANK, 50);
	m = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
	s0 = fk.now;
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, v, 0, s0), 0);
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, m, 0, s0), 0);
	/* presented at the first vblank at or after begin */
	b = 5 * FRAME + 1;
	r = sreq(1, v, sid, b, b + 10 * FRAME);
	CHECK_ERR(submit(fd, &r), 0);
	k = time_entry();
	UNIT_CHECK(k && k->exec % FRAME == 0 &&
		   k->exec >= s0 / FRAME * FRAME + b &&
		   k->exec < s0 / FRAME * FRAME + b + FRAME,
		   "exec %lld", k ? (long long)(k->exec - s0) : -1ll);
	UNIT_CHECK(k && k->expire >= k->exec + 9 * FRAME &&
		   k->expire < k->exec + 11 * FRAME, "expire");
	vblank(k->exec);
	wait_events(fd, nev + 1);
	e = tevent(1, MMX_TIME_PRESENTED);
	UNIT_CHECK(e && e->present_ns == fk.now && e->sequence &&
		   e->clock_ns >= b && e->clock_ns < b + FRAME,
		   "PRESENTED %p clock %lld", (const void *)e,
		   e ? (long long)e->clock_ns : 0);
	/* no vblank in [begin, end): EXPIRED, nothing committed */
	r = sreq(2, v, sid, 20 * FRAME + 5, 20 * FRAME + 9);
	CHECK_ERR(submit(fd, &r), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(2, MMX_TIME_EXPIRED) && !time_entry(),
		   "EXPIRED without a commit");
	/* expired by the kernel: its vblank is past end */
	r = sreq(3, m, sid, 1000000000, 1000000100);
	CHECK_ERR(submit(fd, &r), 0);
	k = time_entry();
	UNIT_CHECK(k && k->exec == s0 + 1000000000 &&
		   k->expire == s0 + 1000000099, "mono exec/expire");
	vblank(s0 + 1000000000 + FRAME / 2);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(3, MMX_TIME_EXPIRED), "EXPIRED by the kernel");
	/* retract */
	r = sreq(4, m, sid, 2000000000, 3000000000);
	CHECK_ERR(submit(fd, &r), 0);
	CHECK_ERR(retract(fd, 4), 0);
	CHECK_ERR(retract(fd, 4), -ENOENT);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(4, MMX_TIME_RETRACTED), "RETRACTED");
	/* replace (a new id), then presented */
	r = sreq(5, m, sid, 2000000000, 3000000000);
	CHECK_ERR(submit(fd, &r), 0);
	r = sreq(6, m, sid, 2100000000, 3000000000);
	CHECK_ERR(replace(fd, 5, &r), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(5, MMX_TIME_REPLACED), "REPLACED");
	k = time_entry();
	UNIT_CHECK(k && k->exec == s0 + 2100000000, "replacement exec");
	/* replace keeping the id */
	r = sreq(6, m, sid, 2200000000, 3000000000);
	CHECK_ERR(replace(fd, 6, &r), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(6, MMX_TIME_REPLACED), "REPLACED, same id");
	vblank(s0 + 2200000000);
	wait_events(fd, nev + ntev + 1);
	e = tevent(6, MMX_TIME_PRESENTED);
	UNIT_CHECK(e && e->clock_ns == 2200000000, "replacement PRESENTED");
	/* too late: the kernel says -EBUSY, so does mmxd */
	r = sreq(7, m, sid, 2500000000, 3000000000);
	CHECK_ERR(submit(fd, &r), 0);
	k = time_entry();
	UNIT_CHECK(k != NULL, "entry 7");
	if (k) {
		copy = *k;
		k->used = 0;
		CHECK_ERR(retract(fd, 7), -EBUSY);
		r = sreq(8, m, sid, 2600000000, 3000000000);
		CHECK_ERR(replace(fd, 7, &r), -EBUSY);
		*k = copy;
		fk.now = s0 + 2500000000;
		complete(k, 1, fk.now);
		wait_events(fd, nev + ntev + 1);
		UNIT_CHECK(tevent(7, MMX_TIME_PRESENTED),
			   "PRESENTED after -EBUSY");
	}
	/* a rate-2 clock: begin 4 s is 1.5 s of CLOCK_MONOTONIC later */
	CHECK_ERR(clk_rate(fd, m, 2, 1), 0);	/* at 2.5 s: value 2.5 s */
	r = sreq(9, m, sid, 4000000000, 5000000000);
	CHECK_ERR(submit(fd, &r), 0);
	k = time_entry();
	UNIT_CHECK(k && k->exec == s0 + 3250000000 &&
		   k->expire == s0 + 3750000000 - 1, "rate 2 exec %lld",
		   k ? (long long)(k->exec - s0) : -1ll);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	close(fd);
	pump(5);
	UNIT_CHECK(fk.pending == 0 && fk.vsources == 0 && fk.fbs == 0,
		   "left: %u commits, %d sources, %u fbs", fk.pending,
		   fk.vsources, fk.fbs);
	server_stop();
	return 0;
}

static int test_fuzz(void)
{
	static const uint16_t types[] = {
		MMX_MSG_CLOCK_CREATE, MMX_MSG_CLOCK_START, MMX_MSG_CLOCK_STOP,
		MMX_MSG_CLOCK_SET_RATE, MMX_MSG_CLOCK_READ,
		MMX_MSG_CLOCK_DESTROY, MMX_MSG_SCHEDULE_SUBMIT,
		MMX_MSG_SCHEDULE_RETRACT, MMX_MSG_SCHEDULE_REPLACE,
		MMX_MSG_CLOCK_QUERY, MMX_MSG_TIME_FIRST + 0x20,
	};
	uint32_t seed = 4242;
	uint8_t buf[160];
	int fd, i, sid, errors = 0;

	static const struct mmx_stream_config acfg = {
		.width = 320, .height = 240, .x = -1, .y = -1,
		.audio_format = MMX_AUDIO_S16LE, .audio_rate = AU_RATE,
		.audio_channels = 2, .clock = MMX_STREAM_CLOCK_MONOTONIC,
	};

	with_audio = 1;
	UNIT_CHECK(!server_start(), "server");
	with_audio = 0;
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	shown_cfg = &acfg;
	sid = shown_stream(fd);
	shown_cfg = NULL;
	UNIT_CHECK(sid > 0 && au.open, "stream with audio");
	for (i = 0; i < 20000; i++) {
		size_t extra = 0;

		uint16_t type;
		size_t len, k;
		int ret;

		seed = seed * 1103515245u + 12345u;
		type = types[(seed >> 8) % (sizeof(types) / sizeof(types[0]))];
		len = (seed >> 16) % sizeof(buf);
		lcg_fill(&seed, buf, len);
		seed = seed * 1103515245u + 12345u;
		/* often plausible: right sizes, small ids, sane fields */
		if (seed & 3) {
			struct mmx_schedule_request r;
			uint32_t small = (seed >> 4) % 4;

			switch (type) {
			case MMX_MSG_CLOCK_CREATE:
				len = 8;
				buf[0] = (uint8_t)(1 + small % 3);
				memset(buf + 1, 0, 3);
				memcpy(buf + 4, small == 1 ? "\x32" : "\x00", 1);
				memset(buf + 5, 0, 3);
				break;
			case MMX_MSG_CLOCK_START:
			case MMX_MSG_CLOCK_STOP:
			case MMX_MSG_CLOCK_SET_RATE:
				len = 16;
				memcpy(buf, &small, 4);
				if (type != MMX_MSG_CLOCK_SET_RATE) {
					memcpy(buf + 4, "\x01\0\0\0", 4);
				} else {
					int32_t num = (int32_t)(seed % 5) - 1;
					uint32_t den = 1 + seed % 3;

					memcpy(buf + 4, &num, 4);
					memcpy(buf + 8, &den, 4);
					memset(buf + 12, 0, 4);
				}
				break;
			case MMX_MSG_CLOCK_READ:
			case MMX_MSG_CLOCK_DESTROY:
				len = 8;
				memcpy(buf, &small, 4);
				memset(buf + 4, 0, 4);
				break;
			case MMX_MSG_SCHEDULE_RETRACT:
				len = 8;
				memset(buf, 0, 8);
				buf[0] = (uint8_t)(seed % 8);
				break;
			case MMX_MSG_SCHEDULE_SUBMIT:
			case MMX_MSG_SCHEDULE_REPLACE:
				r = sreq(seed % 8, (int)small, sid,
					 (int64_t)(seed % 1000) * 1000000,
					 (int64_t)(seed % 1000) * 1000000 +
					 (int64_t)((seed >> 10) % 100) *
					 1000000 - 1000000);
				k = 0;
				if (type == MMX_MSG_SCHEDULE_REPLACE) {
					uint64_t old = (seed >> 3) % 8;

					memcpy(buf, &old, 8);
					k = 8;
				}
				if (seed & 16) {
					r.kind = MMX_SCHEDULE_KIND_AUDIO;
					r.x = r.y = 0;
					extra = 4 * ((seed >> 5) % 8);
				}
				memcpy(buf + k, &r, sizeof(r));
				len = k + sizeof(r);
				break;
			}
		}
		if (extra) {
			static const int16_t pcm[32];

			ret = req2(fd, type, buf, len, pcm, extra, NULL, 0);
		} else {
			ret = req2(fd, type, buf, len, NULL, 0, NULL, 0);
		}
		if (fuzz_failed(ret, i, type, len)) {
			errors++;
			break;
		}
		if (!(i % 37)) {
			vblank(fk.now + FRAME);
			au.written = (fk.now - AU0) * AU_RATE / 1000000000ll;
			if (au.nplay && au.ndone < NPLAY) {
				au.done[au.ndone++] = au.play[0].id;
				au.play[0] = au.play[--au.nplay];
				kick(au.pipe[1]);
			}
		}
	}
	UNIT_CHECK(!errors, "the server stopped answering");
	CHECK_ERR(req(fd, MMX_MSG_PING, NULL, 0), 0);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	UNIT_CHECK(ntev > 0, "no schedule ever completed");
	{
		unsigned int j, audio_ok = 0;

		for (j = 0; j < ntev; j++)
			audio_ok += tev[j].status == MMX_TIME_PRESENTED &&
				    !tev[j].sequence;
		UNIT_CHECK(audio_ok > 0, "no audio schedule played");
	}
	close(fd);
	pump(5);
	UNIT_CHECK(fk.fbs == 0 && fk.pending == 0 && fk.vsources == 0,
		   "%u framebuffers, %u timed commits, %d sources left",
		   fk.fbs, fk.pending, fk.vsources);
	server_stop();
	return 0;
}

static int submit_pcm(int fd, const struct mmx_schedule_request *r,
		      size_t bytes)
{
	static const int16_t pcm[4096];

	return req2(fd, MMX_MSG_SCHEDULE_SUBMIT, r, sizeof(*r), pcm, bytes,
		    NULL, 0);
}

static int test_audio(void)
{
	static const struct mmx_stream_config acfg = {
		.width = 320, .height = 240, .x = -1, .y = -1,
		.audio_format = MMX_AUDIO_S16LE, .audio_rate = AU_RATE,
		.audio_channels = 2,
	};
	struct mmx_proto_stream_open_reply orep;
	struct mmx_schedule_request r;
	const struct mmx_schedule_event *e;
	int fd, m, sid;
	int64_t s0;

	with_audio = 1;
	UNIT_CHECK(!server_start(), "server");
	with_audio = 0;
	fd = client_new_tcp(0);
	CHECK_ERR(hello(fd), 0);
	sid = open_stream(fd, &acfg, &orep);
	UNIT_CHECK(sid > 0 && au.open, "audio stream %d", sid);
	m = clk_create(fd, MMX_REMOTE_CLOCK_MONOTONIC, 0);
	s0 = fk.now;
	CHECK_ERR(clk_at(fd, MMX_MSG_CLOCK_START, m, 0, s0), 0);
	au.written = (s0 - AU0) * AU_RATE / 1000000000ll;
	/* not whole frames */
	r = sreq(1, m, sid, 100000000, 200000000);
	r.kind = MMX_SCHEDULE_KIND_AUDIO;
	r.x = r.y = 0;
	CHECK_ERR(submit_pcm(fd, &r, 6), -EINVAL);
	/* plays from the device frame of begin */
	CHECK_ERR(submit_pcm(fd, &r, 4 * 480), 0);
	UNIT_CHECK(au.nplay == 1 && au.play[0].frames == 480 &&
		   au.play[0].at == (s0 + 100000000 - AU0) * AU_RATE /
				    1000000000ll,
		   "play: %u at %lld", au.nplay,
		   au.nplay ? (long long)au.play[0].at : 0);
	/* it played out: PRESENTED at begin's time */
	au.done[au.ndone++] = au.play[0].id;
	au.nplay = 0;
	kick(au.pipe[1]);
	wait_events(fd, nev + ntev + 1);
	e = tevent(1, MMX_TIME_PRESENTED);
	UNIT_CHECK(e && e->present_ns == s0 + 100000000 &&
		   e->clock_ns == 100000000, "PRESENTED");
	/* retract before it starts; -EBUSY once written */
	r.id = 2;
	CHECK_ERR(submit_pcm(fd, &r, 4 * 480), 0);
	CHECK_ERR(retract(fd, 2), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(2, MMX_TIME_RETRACTED) && au.nplay == 0 &&
		   au.cancels == 1, "RETRACTED");
	r.id = 3;
	CHECK_ERR(submit_pcm(fd, &r, 4 * 480), 0);
	au.written += AU_RATE;	/* a second later: it started */
	CHECK_ERR(retract(fd, 3), -EBUSY);
	{
		struct mmx_proto_schedule_replace rp = { .old_id = 3,
							 .req = r };
		static const int16_t pcm[200];

		rp.req.id = 4;
		CHECK_ERR(req2(fd, MMX_MSG_SCHEDULE_REPLACE, &rp, sizeof(rp),
			       pcm, sizeof(pcm), NULL, 0), -EBUSY);
	}
	/* end already written: EXPIRED, nothing played */
	r.id = 5;
	CHECK_ERR(submit_pcm(fd, &r, 4 * 480), 0);
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(5, MMX_TIME_EXPIRED) && au.nplay == 1,
		   "EXPIRED, %u plays", au.nplay);
	/* replace before it starts */
	r = sreq(6, m, sid, 3000000000, 4000000000);
	r.kind = MMX_SCHEDULE_KIND_AUDIO;
	r.x = r.y = 0;
	CHECK_ERR(submit_pcm(fd, &r, 4 * 100), 0);
	r.id = 7;
	r.begin_ns = 3500000000;
	{
		struct mmx_proto_schedule_replace rp = { .old_id = 6,
							 .req = r };
		static const int16_t pcm[200];

		CHECK_ERR(req2(fd, MMX_MSG_SCHEDULE_REPLACE, &rp, sizeof(rp),
			       pcm, sizeof(pcm), NULL, 0), 0);
	}
	wait_events(fd, nev + ntev + 1);
	UNIT_CHECK(tevent(6, MMX_TIME_REPLACED) && au.nplay == 2 &&
		   au.play[1].frames == 100, "REPLACED, %u plays",
		   au.nplay);
	/* the stream closes: its pending audio schedules FAIL */
	{
		struct mmx_proto_stream_ref ref = { .stream = (uint32_t)sid };

		CHECK_ERR(req(fd, MMX_MSG_STREAM_CLOSE, &ref, sizeof(ref)), 0);
	}
	wait_events(fd, nev + ntev + 2);
	e = tevent(7, MMX_TIME_FAILED);
	UNIT_CHECK(e && e->error == -ENOENT && tevent(3, MMX_TIME_FAILED) &&
		   !au.open, "FAILED on close");
	CHECK_ERR(retract(fd, 7), -ENOENT);
	UNIT_CHECK(!bad_events, "%u malformed events", bad_events);
	close(fd);
	pump(3);
	server_stop();
	return 0;
}

/* libmmx's TIME API against the server in a thread over a UNIX socket. */
struct daemon {
	pthread_t thread;
	int stop[2];
};

static void *daemon_main(void *arg)
{
	struct daemon *dm = arg;

	while (mmxd_server_step(srv, 100, dm->stop[0]) == 0)
		;
	return NULL;
}

static int test_client(void)
{
	char path[] = "/tmp/mmxd-time-XXXXXX", sock[64], spec[80];
	struct mmx_remote_clock_state st;
	struct mmx_schedule_request r;
	struct mmx_schedule_event ev[4];
	struct mmx_display *d = NULL;
	struct daemon dm;
	uint32_t c = 0, c2 = 0;
	int fd, ret;

	UNIT_CHECK(mkdtemp(path) != NULL, "mkdtemp");
	snprintf(sock, sizeof(sock), "%s/s", path);
	snprintf(spec, sizeof(spec), "unix:%s", sock);
	UNIT_CHECK(!server_start(), "server");
	fd = mmxd_socket_open(sock, (gid_t)-1);
	UNIT_CHECK(fd >= 0, "socket %d", fd);
	mmxd_server_listen(srv, fd);
	UNIT_CHECK(!pipe(dm.stop), "pipe");
	UNIT_CHECK(!pthread_create(&dm.thread, NULL, daemon_main, &dm),
		   "thread");
	ret = mmx_open(spec, &d);
	UNIT_CHECK(!ret, "mmx_open: %d", ret);
	if (!ret) {
		/* fk.now does not move while the thread serves */
		CHECK_ERR(mmx_remote_clock_create(d, MMX_REMOTE_CLOCK_AUDIO,
						  9, &c), -ENOENT);
		CHECK_ERR(mmx_remote_clock_create(d, MMX_REMOTE_CLOCK_MONOTONIC,
						  0, &c), 0);
		CHECK_ERR(mmx_remote_clock_create(d, MMX_REMOTE_CLOCK_VBLANK,
						  50, &c2), 0);
		UNIT_CHECK(c && c2 && c != c2, "ids %u %u", c, c2);
		CHECK_ERR(mmx_remote_clock_start(d, c, fk.now - 2000000000),
			  0);
		CHECK_ERR(mmx_remote_clock_set_rate(d, c, 3, 2), 0);
		CHECK_ERR(mmx_remote_clock_query(d, c, &st), 0);
		UNIT_CHECK(st.value_ns == 2000000000 && st.running &&
			   st.rate_num == 3 && st.rate_den == 2 &&
			   st.kind == MMX_REMOTE_CLOCK_MONOTONIC,
			   "query %lld", (long long)st.value_ns);
		CHECK_ERR(mmx_remote_clock_stop(d, c, -1), 0);
		CHECK_ERR(mmx_remote_clock_query(d, c, &st), 0);
		UNIT_CHECK(!st.running, "still running");
		r = sreq(1, (int)c, 1, 0, 1000);
		CHECK_ERR(mmx_schedule_submit(d, &r), -ENOENT);
		CHECK_ERR(mmx_schedule_retract(d, 1), -ENOENT);
		CHECK_ERR(mmx_schedule_replace(d, 1, &r), -ENOENT);
		CHECK_ERR(mmx_time_events(d, ev, 4, 0), 0);
		CHECK_ERR(mmx_time_events(d, ev, 4, 20), 0);
		CHECK_ERR(mmx_remote_clock_destroy(d, c2), 0);
		CHECK_ERR(mmx_remote_clock_destroy(d, c2), -ENOENT);
		mmx_close(d);
	}
	UNIT_CHECK(write(dm.stop[1], "x", 1) == 1, "stop");
	pthread_join(dm.thread, NULL);
	close(dm.stop[0]);
	close(dm.stop[1]);
	pump(3);
	UNIT_CHECK(fk.vsources == 0, "vblank source left");
	server_stop();
	unlink(sock);
	rmdir(path);
	return 0;
}

static const struct unit_case cases[] = {
	{ "caps", "HELLO: the server's protocol with TIME to a client of another minor", test_caps },
	{ "validation", "bad sizes, kinds, fields, unknown and other clients' ids, begin >= end, limits; closing frees all",
	  test_validation },
	{ "clocks", "MONOTONIC start/stop/rate/start in the past, VBLANK in frames, a stream's clock, through the protocol",
	  test_clocks },
	{ "flow", "PRESENTED at the first vblank >= begin, EXPIRED (with and without a commit), RETRACTED, REPLACED, -EBUSY when too late, rate 2",
	  test_flow },
	{ "audio", "AUDIO schedules: played from begin's device frame, PRESENTED, RETRACTED, -EBUSY once written, EXPIRED, REPLACED, FAILED when the stream closes",
	  test_audio },
	{ "client", "libmmx's mmx_remote_clock_*, mmx_schedule_*, mmx_time_events against the server",
	  test_client },
	{ "fuzz", "20k random TIME (display and audio) messages (fixed seed): one reply each, then PING; nothing left",
	  test_fuzz },
};

UNIT_MAIN(cases)
