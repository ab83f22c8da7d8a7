// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's media streams (STREAM_*, CLOCK_QUERY, AUTH) over socketpairs with
 * the fake backend of mmxd_fake.c (a fake clock, framebuffers counted,
 * timed commits kept in a table that a fake vblank executes, a decoder
 * that "decodes" text through a pipe like the pool's fd). Checks the framing and validation of every new request, the event
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

static int server_start(void)
{
	return server_start_media(&fake_media_ops);
}

static void server_stop(void)
{
	server_stop_media();
}

/* ---- tests -------------------------------------------------------------- */

static int test_caps(void)
{
	struct mmx_proto_hello_reply hr;
	int fd;

	UNIT_CHECK(!server_start(), "server");
	fd = client_new_tcp(0);
	/* a client of an older minor is served too */
	CHECK_ERR(hello_minor(fd, 0, &hr), 0);
	UNIT_CHECK(hr.major == MMX_PROTO_MAJOR && hr.minor == MMX_PROTO_MINOR,
		   "version %u.%u", hr.major, hr.minor);
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
		lcg_fill(&seed, buf, len);
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
		if (fuzz_failed(ret, i, type, len)) {
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
	{ "caps", "HELLO says the protocol with streams (and no audio without a device)",
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

UNIT_MAIN(cases)
