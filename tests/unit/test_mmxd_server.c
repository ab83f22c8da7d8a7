// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's server and request handlers over socketpairs, with a fake display
 * backend: framing (pieces, several messages in one write), every
 * malformed request answered with its error while the connection goes on
 * (or is closed when the stream cannot be resynchronised), out-of-order
 * requests, many clients, a client that does not read, a client that
 * leaves mid-request, and random messages (fixed seed) that must never
 * crash the server nor stop it answering.
 */

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
#include "mmxd_client_harness.h"
#include "mmx_state_build.h"
#include "wire_fuzz.h"
#include "wire_rx.h"

/* ---- the fake display --------------------------------------------------- */

struct fake {
	struct mmx_state state;
	unsigned int nstate, napply, npointer, ncapture;
	struct mmx_config last;
	int32_t px, py;
	int apply_err;
};

static struct fake fake;

static void fake_reset(void)
{
	static const char *const names[] = { "eDP-1", "VGA-1" };
	struct mmx_state *s = &fake.state;

	mmx_state_clear(&fake.state);
	mmx_config_clear(&fake.last);
	memset(&fake, 0, sizeof(fake));
	t_state_small(s, "fake", MMX_STATE_MMX_DRIVER | MMX_STATE_TRANSFORMS |
		      MMX_STATE_WRITEBACK, 2, 40, 2, 50, names);
	s->screen_width = 1024;
	s->screen_height = 768;
	t_output_room(s, &s->outputs[0], 1, 0);
	strcpy(s->outputs[0].modes[0].name, "1024x768");
}

static int fake_state(void *ctx, int probe, struct mmx_state *s)
{
	int ret;

	(void)ctx;
	fake.nstate++;
	mmx_state_clear(s);
	ret = mmx_state_copy(s, &fake.state);
	s->pointer_x = probe;	/* lets a test see which flavour ran */
	return ret;
}

static int fake_apply(void *ctx, const struct mmx_config *cfg,
		      struct mmx_error *err)
{
	(void)ctx;
	fake.napply++;
	config_keep(&fake.last, cfg);
	if (fake.apply_err) {
		err->err = fake.apply_err;
		snprintf(err->message, sizeof(err->message),
			 "output VGA-1: mode 9x9 not supported");
		return fake.apply_err;
	}
	return 0;
}

static int fake_pointer(void *ctx, int32_t x, int32_t y)
{
	(void)ctx;
	fake.npointer++;
	fake.px = x;
	fake.py = y;
	return x < 0 ? -EINVAL : 0;
}

static int fake_capture(void *ctx, uint32_t crtc, uint32_t *w, uint32_t *h,
			uint32_t **pixels)
{
	(void)ctx;
	fake.ncapture++;
	if (crtc != 40)
		return -ENOENT;
	/* 0xff000000 | i * 0x010203: the alpha byte over 12 small values */
	return fake_capture_fill(4, 3, 0xff000000u, 0x010203u, w, h, pixels);
}

static const struct mmx_display_ops fake_ops = {
	.state = fake_state,
	.apply = fake_apply,
	.pointer_moved = fake_pointer,
	.capture = fake_capture,
};

/* ---- harness ------------------------------------------------------------ */

static int server_start(unsigned int max_clients, unsigned int stall_ms)
{
	struct mmxd_options o;

	fake_reset();
	mmxd_options_init(&o);
	if (max_clients)
		o.max_clients = max_clients;
	if (stall_ms)
		o.stall_ms = stall_ms;
	strcpy(o.driver, "fake");
	o.state_flags = fake.state.flags;
	return mmxd_server_new(&fake_ops, NULL, &o, &srv);
}

static void server_stop(void)
{
	mmxd_server_free(srv);
	srv = NULL;
}

static void msg_free(struct wire_msg *m)
{
	free(m->raw);
	memset(m, 0, sizeof(*m));
}

/* Receive one message from the server (a REPLY is decoded). */
static int recv_msg(int fd, struct wire_msg *m)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE];
	size_t len;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = recv_bytes(fd, hdr, sizeof(hdr), 3000);
	if (ret)
		return ret;
	mmx_wire_get_header(hdr, &m->h);
	if (m->h.length < MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE ||
	    m->h.length > MMX_PROTO_MAX_REPLY)
		return -EPROTO;
	len = m->h.length - MMX_PROTO_HEADER_SIZE;
	m->raw = malloc(len);
	if (!m->raw)
		return -ENOMEM;
	ret = recv_bytes(fd, m->raw, len, 3000);
	if (ret) {
		msg_free(m);
		return ret;
	}
	wire_msg_reply(m);
	return 0;
}

/* Send a request, receive its reply; returns the reply's error. */
static int request(int fd, uint16_t type, uint32_t seq, const void *payload,
		   size_t len, struct wire_msg *m)
{
	struct wire_msg tmp;
	int ret;

	if (!m)
		m = &tmp;
	ret = send_msg(fd, type, 0, seq, payload, len);
	if (!ret)
		ret = recv_msg(fd, m);
	if (ret) {
		fprintf(stderr, "request %s #%u: transport error %d\n",
			mmx_wire_type_name(type), seq, ret);
		return 1000;	/* never an errno */
	}
	if (m->h.type != MMX_MSG_REPLY || m->h.sequence != seq ||
	    m->r.request != type) {
		fprintf(stderr, "reply type 0x%x seq %u request 0x%x\n",
			m->h.type, m->h.sequence, m->r.request);
		ret = 1001;
	} else {
		ret = m->r.error;
	}
	if (m == &tmp)
		msg_free(m);
	return ret;
}

/* APPLY @cfg (its records); returns the reply's error. */
static int apply(int fd, uint32_t seq, const struct mmx_config *cfg,
		 struct wire_msg *m)
{
	uint8_t *rec;
	size_t len;
	int ret;

	if (mmx_wire_encode_config(cfg, &rec, &len))
		return 1002;	/* never an errno */
	ret = request(fd, MMX_MSG_APPLY, seq, rec, len, m);
	free(rec);
	return ret;
}

/* GET_STATE; 0 when its records decode to @want (probe aside). */
static int get_state_equals(int fd, uint32_t seq, uint32_t probe,
			    const struct mmx_state *want)
{
	static struct mmx_state back;
	struct mmx_proto_get_state gs = { .probe = probe };
	struct wire_msg m;
	int ret;

	ret = request(fd, MMX_MSG_GET_STATE, seq, &gs, sizeof(gs), &m);
	if (ret)
		return ret;
	ret = mmx_wire_decode_state(m.data, m.len, &back);
	msg_free(&m);
	if (ret)
		return ret;
	back.pointer_x = want->pointer_x;
	ret = t_state_same(&back, want) ? 1003 : 0;
	mmx_state_clear(&back);
	return ret;
}

static int hello(int fd)
{
	struct mmx_proto_hello h;

	hello_init(&h);
	return request(fd, MMX_MSG_HELLO, 1, &h, sizeof(h), NULL);
}

static int ping(int fd, uint32_t seq)
{
	return request(fd, MMX_MSG_PING, seq, NULL, 0, NULL);
}

/* Is the peer closed (EOF after draining whatever is left)? */
static int closed_by_server(int fd)
{
	uint8_t buf[4096];
	int rounds = 3000;

	for (;;) {
		ssize_t n = recv(fd, buf, sizeof(buf), 0);

		if (n == 0)
			return 1;
		if (n < 0 && errno != EAGAIN && errno != EINTR)
			return errno == ECONNRESET;
		if (n < 0 && rounds-- <= 0)
			return 0;
		if (n < 0)
			mmxd_server_step(srv, 1, -1);
	}
}

/* ---- tests -------------------------------------------------------------- */

static int test_hello_state(void)
{
	struct mmx_proto_hello_reply hr;
	struct mmx_proto_hello h;
	struct wire_msg m;
	int fd;

	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	UNIT_CHECK(fd >= 0, "client");
	CHECK_ERR(ping(fd, 7), 0);
	hello_init(&h);
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 8, &h, sizeof(h), &m), 0);
	UNIT_CHECK(m.len == sizeof(hr), "hello reply %zu bytes", m.len);
	memcpy(&hr, m.data, sizeof(hr));
	msg_free(&m);
	UNIT_CHECK(hr.major == MMX_PROTO_MAJOR && hr.minor == MMX_PROTO_MINOR,
		   "version %u.%u", hr.major, hr.minor);
	UNIT_CHECK(!strcmp(hr.driver, "fake"), "driver %s", hr.driver);
	UNIT_CHECK(!hr.reserved[0] && !hr.reserved[1], "reserved");
	UNIT_CHECK(hr.caps == (MMX_PROTO_CAP_STATE | MMX_PROTO_CAP_APPLY |
			       MMX_PROTO_CAP_POINTER | MMX_PROTO_CAP_CAPTURE),
		   "caps 0x%x", hr.caps);
	UNIT_CHECK(hr.max_request == MMX_PROTO_MAX_REQUEST, "max request");

	CHECK_ERR(get_state_equals(fd, 9, 1, &fake.state), 0);
	UNIT_CHECK(fake.nstate == 1, "state read %u times", fake.nstate);
	CHECK_ERR(get_state_equals(fd, 10, 0, &fake.state), 0);
	close(fd);
	server_stop();
	return 0;
}

static int test_apply_pointer_capture(void)
{
	struct mmx_proto_pointer pt = { .x = 12, .y = -3 };
	struct mmx_proto_capture cap = { .crtc = 40 };
	struct mmx_proto_capture_reply cr;
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	uint32_t px[12];
	struct wire_msg m;
	int fd, i;

	UNIT_CHECK(cfg, "alloc");
	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	CHECK_ERR(hello(fd), 0);

	mmx_config_output(cfg, 51)->flags = MMX_CHANGE_MODE;
	strcpy(mmx_config_output(cfg, 51)->mode.name, "640x480");
	CHECK_ERR(apply(fd, 2, cfg, NULL), 0);
	UNIT_CHECK(fake.napply == 1, "apply ran %u times", fake.napply);
	UNIT_CHECK(fake.last.nchange == 1 &&
		   fake.last.changes[0]->output == 51 &&
		   !strcmp(fake.last.changes[0]->mode.name, "640x480"),
		   "config not passed");

	fake.apply_err = -EINVAL;
	CHECK_ERR(apply(fd, 3, cfg, &m), -EINVAL);
	UNIT_CHECK(!strcmp(m.r.message, "output VGA-1: mode 9x9 not supported"),
		   "message '%s'", m.r.message);
	msg_free(&m);

	CHECK_ERR(request(fd, MMX_MSG_POINTER, 4, &pt, sizeof(pt), NULL), 0);
	UNIT_CHECK(fake.px == 12 && fake.py == -3, "pointer %d,%d", fake.px,
		   fake.py);
	pt.x = -1;
	CHECK_ERR(request(fd, MMX_MSG_POINTER, 5, &pt, sizeof(pt), NULL),
		  -EINVAL);

	CHECK_ERR(request(fd, MMX_MSG_CAPTURE, 6, &cap, sizeof(cap), &m), 0);
	UNIT_CHECK(m.len == sizeof(cr) + sizeof(px), "capture %zu bytes",
		   m.len);
	memcpy(&cr, m.data, sizeof(cr));
	memcpy(px, m.data + sizeof(cr), sizeof(px));
	msg_free(&m);
	UNIT_CHECK(cr.width == 4 && cr.height == 3, "size %ux%u", cr.width,
		   cr.height);
	for (i = 0; i < 12; i++)
		UNIT_CHECK(px[i] == (0xff000000u | (uint32_t)i * 0x010203u),
			   "pixel %d = %08x", i, px[i]);
	cap.crtc = 99;
	CHECK_ERR(request(fd, MMX_MSG_CAPTURE, 7, &cap, sizeof(cap), NULL),
		  -ENOENT);
	CHECK_ERR(ping(fd, 8), 0);
	close(fd);
	server_stop();
	mmx_config_free(cfg);
	return 0;
}

static int test_partial_reads(void)
{
	struct mmx_proto_get_state gs = { .probe = 0 };
	uint8_t buf[MMX_PROTO_HEADER_SIZE + sizeof(gs)];
	uint8_t probe;
	struct wire_msg m;
	size_t i;
	int fd;

	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	mmx_wire_put_header(buf, sizeof(buf), MMX_MSG_GET_STATE, 77);
	memcpy(buf + MMX_PROTO_HEADER_SIZE, &gs, sizeof(gs));
	for (i = 0; i < sizeof(buf); i++) {
		UNIT_CHECK(!send_bytes(fd, buf + i, 1), "send");
		pump(3);
		if (i + 1 < sizeof(buf))
			UNIT_CHECK(recv(fd, &probe, 1, MSG_PEEK) < 0 &&
				   errno == EAGAIN,
				   "a reply after %zu of %zu bytes", i + 1,
				   sizeof(buf));
	}
	UNIT_CHECK(!recv_msg(fd, &m), "no reply");
	UNIT_CHECK(m.h.sequence == 77 && m.r.error == 0 && m.len > 0,
		   "reply seq %u err %d", m.h.sequence, m.r.error);
	msg_free(&m);
	UNIT_CHECK(fake.nstate == 1, "state read %u times", fake.nstate);
	close(fd);
	server_stop();
	return 0;
}

static int test_several_in_one_write(void)
{
	struct mmx_proto_pointer pt = { .x = 5, .y = 6 };
	uint8_t buf[3 * MMX_PROTO_HEADER_SIZE + sizeof(pt)];
	uint32_t seqs[3] = { 100, 101, 102 };
	uint16_t types[3] = { MMX_MSG_PING, MMX_MSG_POINTER, MMX_MSG_PING };
	size_t off = 0;
	struct wire_msg m;
	int fd, i;

	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	mmx_wire_put_header(buf, MMX_PROTO_HEADER_SIZE, MMX_MSG_PING, 100);
	off = MMX_PROTO_HEADER_SIZE;
	mmx_wire_put_header(buf + off, MMX_PROTO_HEADER_SIZE + sizeof(pt),
			    MMX_MSG_POINTER, 101);
	off += MMX_PROTO_HEADER_SIZE;
	memcpy(buf + off, &pt, sizeof(pt));
	off += sizeof(pt);
	mmx_wire_put_header(buf + off, MMX_PROTO_HEADER_SIZE, MMX_MSG_PING, 102);
	UNIT_CHECK(!send_bytes(fd, buf, sizeof(buf)), "send");
	for (i = 0; i < 3; i++) {
		UNIT_CHECK(!recv_msg(fd, &m), "reply %d missing", i);
		UNIT_CHECK(m.h.sequence == seqs[i] && m.r.request == types[i] &&
			   m.r.error == 0, "reply %d: seq %u request 0x%x err %d",
			   i, m.h.sequence, m.r.request, m.r.error);
		msg_free(&m);
	}
	UNIT_CHECK(fake.npointer == 1 && fake.px == 5, "pointer not applied");
	close(fd);
	server_stop();
	return 0;
}

static int test_out_of_order(void)
{
	struct mmx_proto_get_state gs = { 0 };
	struct mmx_proto_pointer pt = { 0 };
	struct mmx_proto_capture cap = { .crtc = 40 };
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	int fd;

	UNIT_CHECK(cfg, "alloc");
	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 1, &gs, sizeof(gs), NULL),
		  -EPROTO);
	CHECK_ERR(apply(fd, 2, cfg, NULL), -EPROTO);
	CHECK_ERR(request(fd, MMX_MSG_POINTER, 3, &pt, sizeof(pt), NULL),
		  -EPROTO);
	CHECK_ERR(request(fd, MMX_MSG_CAPTURE, 4, &cap, sizeof(cap), NULL),
		  -EPROTO);
	UNIT_CHECK(!fake.nstate && !fake.napply && !fake.npointer &&
		   !fake.ncapture, "a request before HELLO reached the display");
	CHECK_ERR(hello(fd), 0);
	CHECK_ERR(hello(fd), -EPROTO);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 5, &gs, sizeof(gs), NULL), 0);
	CHECK_ERR(ping(fd, 6), 0);
	close(fd);
	server_stop();
	mmx_config_free(cfg);
	return 0;
}

static int test_bad_requests(void)
{
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	struct mmx_proto_get_state gs = { .probe = 2 };
	struct mmx_proto_capture cap = { .crtc = 40, .pad = 1 };
	uint8_t junk[64] = { 0 };
	int fd;

	UNIT_CHECK(cfg, "alloc");
	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	CHECK_ERR(hello(fd), 0);

	/* payload sizes */
	CHECK_ERR(request(fd, MMX_MSG_PING, 1, junk, 1, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 2, junk, 4, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 3, junk, 12, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 4, junk, 0, NULL), -EBADMSG);
	CHECK_ERR(request(fd, MMX_MSG_POINTER, 5, junk, 0, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_CAPTURE, 6, junk, 9, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 7, junk, 3, NULL), -EPROTO);
	/* field values */
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 8, &gs, sizeof(gs), NULL),
		  -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_CAPTURE, 9, &cap, sizeof(cap), NULL),
		  -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 10, junk, sizeof(junk), NULL),
		  -EBADMSG);
	UNIT_CHECK(!fake.napply && !fake.nstate && !fake.ncapture,
		   "a bad request reached the display");
	/* header flags, unknown, reserved and server-only types */
	UNIT_CHECK(!send_msg(fd, MMX_MSG_PING, 1, 12, NULL, 0), "send");
	{
		struct wire_msg m;

		UNIT_CHECK(!recv_msg(fd, &m), "no reply to flags");
		UNIT_CHECK(m.h.sequence == 12 && m.r.error == -EINVAL,
			   "flags: seq %u err %d", m.h.sequence, m.r.error);
		msg_free(&m);
	}
	CHECK_ERR(request(fd, 0x7777, 13, NULL, 0, NULL), -ENOSYS);
	CHECK_ERR(request(fd, 0, 14, NULL, 0, NULL), -ENOSYS);
	CHECK_ERR(request(fd, MMX_MSG_TIME_FIRST + 5, 15, junk, 8, NULL),
		  -ENOSYS);
	CHECK_ERR(request(fd, MMX_MSG_AUDIO_FIRST, 16, NULL, 0, NULL), -ENOSYS);
	CHECK_ERR(request(fd, MMX_MSG_COMPRESS_LAST, 17, NULL, 0, NULL),
		  -ENOSYS);
	/* AUTH (1.1) takes a cookie: a bad size */
	CHECK_ERR(request(fd, MMX_MSG_AUTH, 18, NULL, 0, NULL), -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_REPLY, 19, junk, 20, NULL), -ENOSYS);
	CHECK_ERR(request(fd, MMX_MSG_EVENT, 20, NULL, 0, NULL), -ENOSYS);
	/* still serving */
	CHECK_ERR(ping(fd, 21), 0);
	gs.probe = 1;
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 22, &gs, sizeof(gs), NULL), 0);
	close(fd);
	server_stop();
	mmx_config_free(cfg);
	return 0;
}

static int test_versions(void)
{
	struct mmx_proto_hello h;
	struct mmx_proto_hello_reply hr;
	struct mmx_proto_get_state gs = { 0 };
	struct wire_msg m;
	int fd;

	UNIT_CHECK(!server_start(0, 0), "server");
	fd = client_new();
	hello_init(&h);
	h.major = MMX_PROTO_MAJOR + 1;
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 1, &h, sizeof(h), &m),
		  -EPROTONOSUPPORT);
	/* the refusal still says what the server speaks */
	UNIT_CHECK(m.len == sizeof(hr), "refusal without server version");
	memcpy(&hr, m.data, sizeof(hr));
	msg_free(&m);
	UNIT_CHECK(hr.major == MMX_PROTO_MAJOR, "major %u", hr.major);
	/* a 1.x client (its HELLO had the struct sizes there) */
	hello_init(&h);
	h.major = 1;
	h.minor = 4;
	h.reserved[0] = 1048560;
	h.reserved[1] = 9408;
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 2, &h, sizeof(h), NULL),
		  -EPROTONOSUPPORT);
	hello_init(&h);
	h.reserved[1] = 1;
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 2, &h, sizeof(h), NULL), -EINVAL);
	hello_init(&h);
	h.flags = 4;
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 3, &h, sizeof(h), NULL), -EINVAL);
	/* none of these counted as HELLO */
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 4, &gs, sizeof(gs), NULL),
		  -EPROTO);
	/* a newer minor is fine, and an unterminated name is cut */
	hello_init(&h);
	h.minor = MMX_PROTO_MINOR + 3;
	memset(h.client, 'n', sizeof(h.client));
	CHECK_ERR(request(fd, MMX_MSG_HELLO, 5, &h, sizeof(h), NULL), 0);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 6, &gs, sizeof(gs), NULL), 0);
	close(fd);
	server_stop();
	return 0;
}

/*
 * GET_STATE's records decode to the backend's state, matrices included,
 * in far fewer bytes than the state's memory; a state the records cannot
 * carry is an error reply.
 */
static int test_state_records(void)
{
	struct mmx_proto_get_state gs = { .probe = 1 };
	const size_t frame = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
	struct wire_msg m;
	int fd;

	UNIT_CHECK(!server_start(0, 0), "server");
	fake.state.crtcs[0].x = -640;
	fake.state.crtcs[0].current.matrix[0] = -1.5;
	fake.state.crtcs[0].current.matrix[8] = 1.0;

	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	CHECK_ERR(get_state_equals(fd, 2, 1, &fake.state), 0);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 3, &gs, sizeof(gs), &m), 0);
	printf("GET_STATE reply, the fake's 2 outputs: %zu bytes\n",
	       frame + m.len);
	UNIT_CHECK(frame + m.len < 2048, "records reply %zu bytes",
		   frame + m.len);
	msg_free(&m);
	gs.pad = 1;
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 4, &gs, sizeof(gs), NULL),
		  -EINVAL);
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 5, &gs, 4, NULL), -EINVAL);
	gs.pad = 0;
	fake.state.crtcs[1].pending.matrix[2] = 1e6;
	CHECK_ERR(request(fd, MMX_MSG_GET_STATE, 6, &gs, sizeof(gs), NULL),
		  -ERANGE);
	CHECK_ERR(ping(fd, 7), 0);
	close(fd);
	server_stop();
	return 0;
}

/*
 * APPLY's records reach the backend as the config encoded, bit for bit;
 * cut, long or oversized records are refused before the backend sees
 * them.
 */
static int test_apply_records(void)
{
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	struct mmx_output_change *c;
	uint8_t *rec = NULL, *bad = NULL;
	size_t len = 0;
	struct wire_msg m;
	int fd, ok;

	UNIT_CHECK(cfg, "alloc");
	cfg->flags = MMX_CONFIG_SCREEN_SIZE | MMX_CONFIG_PAN_MODE;
	cfg->screen_width = 1024;
	cfg->screen_height = 768;
	cfg->pan_mode = MMX_PAN_JOINT;
	c = mmx_config_output(cfg, 51);
	c->flags = MMX_CHANGE_TRANSFORM;
	mmx_matrix_identity(c->transform.matrix);
	c->transform.matrix[0] = 1.0 / 3;	/* off the S31.32 grid */
	c->transform.filter = "bilinear";
	UNIT_CHECK(!mmx_config_output_set_prop(cfg, 51, "Broadcast RGB",
					       "Full"), "set");
	mmx_config_output(cfg, 52)->flags = MMX_CHANGE_OFF;
	UNIT_CHECK(!mmx_wire_encode_config(cfg, &rec, &len), "encode");
	printf("APPLY payload, 2 changes: %zu bytes\n", len);
	UNIT_CHECK(!server_start(0, 0), "server");

	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 2, rec, len, NULL), 0);
	ok = fake.napply == 1 && config_same(&fake.last, cfg);
	UNIT_CHECK(ok, "the records reached the backend as another config");
	fake.apply_err = -EINVAL;
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 3, rec, len, &m),
		  -EINVAL);
	UNIT_CHECK(!strcmp(m.r.message, "output VGA-1: mode 9x9 not supported"),
		   "message '%s'", m.r.message);
	msg_free(&m);
	fake.apply_err = 0;

	/* refused before the backend: cut, a byte too many, no bytes */
	bad = malloc(len + 1);
	UNIT_CHECK(bad, "alloc");
	memcpy(bad, rec, len);
	bad[len] = 0;
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 4, bad, len - 1, NULL),
		  -EBADMSG);
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 5, bad, len + 1, NULL),
		  -EBADMSG);
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 6, bad, 0, NULL),
		  -EBADMSG);
	/* more changes than bytes follow */
	bad[22] = 1;
	CHECK_ERR(request(fd, MMX_MSG_APPLY, 7, bad, len, NULL),
		  -EBADMSG);
	UNIT_CHECK(fake.napply == 2, "apply ran %u times", fake.napply);
	CHECK_ERR(ping(fd, 8), 0);
	close(fd);
	server_stop();
	free(bad);
	free(rec);
	mmx_config_free(cfg);
	return 0;
}

static int test_unsyncable(void)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE];
	uint32_t lengths[] = { MMX_PROTO_MAX_REQUEST + 1, 1u << 30, 0xffffffffu,
			       0, 5, MMX_PROTO_HEADER_SIZE - 1 };
	int wants[] = { -EMSGSIZE, -EMSGSIZE, -EMSGSIZE, -EPROTO, -EPROTO,
			-EPROTO };
	struct wire_msg m;
	unsigned int i;
	int fd, other;

	UNIT_CHECK(!server_start(0, 0), "server");
	other = client_new();
	CHECK_ERR(hello(other), 0);
	for (i = 0; i < sizeof(lengths) / sizeof(lengths[0]); i++) {
		fd = client_new();
		CHECK_ERR(hello(fd), 0);
		mmx_wire_put_header(hdr, lengths[i], MMX_MSG_PING, 40 + i);
		UNIT_CHECK(!send_bytes(fd, hdr, sizeof(hdr)), "send");
		/* whatever follows is not read as a request */
		UNIT_CHECK(!send_msg(fd, MMX_MSG_PING, 0, 99, NULL, 0), "send");
		UNIT_CHECK(!recv_msg(fd, &m), "no reply for length %u",
			   lengths[i]);
		UNIT_CHECK(m.h.sequence == 40 + i && m.r.error == wants[i],
			   "length %u: seq %u err %d (want %d)", lengths[i],
			   m.h.sequence, m.r.error, wants[i]);
		msg_free(&m);
		UNIT_CHECK(closed_by_server(fd),
			   "length %u: connection not closed", lengths[i]);
		close(fd);
		CHECK_ERR(ping(other, 50 + i), 0);
	}
	/* the largest valid request is served */
	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	{
		uint8_t *big = calloc(1, MMX_PROTO_MAX_REQUEST);

		UNIT_CHECK(big, "alloc");
		CHECK_ERR(request(fd, MMX_MSG_PING, 60, big,
				  MMX_PROTO_MAX_REQUEST - MMX_PROTO_HEADER_SIZE,
				  NULL), -EINVAL);
		free(big);
	}
	CHECK_ERR(ping(fd, 61), 0);
	close(fd);
	close(other);
	server_stop();
	return 0;
}

static int test_disconnect_mid_request(void)
{
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	uint8_t *buf = malloc(MMX_PROTO_HEADER_SIZE + sizeof(*cfg));
	int fd, other, i;

	UNIT_CHECK(cfg && buf, "alloc");
	UNIT_CHECK(!server_start(0, 0), "server");
	other = client_new();
	CHECK_ERR(hello(other), 0);
	for (i = 0; i < 3; i++) {
		size_t cut[] = { 5, MMX_PROTO_HEADER_SIZE,
				 MMX_PROTO_HEADER_SIZE + sizeof(*cfg) - 1 };

		fd = client_new();
		CHECK_ERR(hello(fd), 0);
		mmx_wire_put_header(buf, MMX_PROTO_HEADER_SIZE + sizeof(*cfg),
				    MMX_MSG_APPLY, 3);
		memcpy(buf + MMX_PROTO_HEADER_SIZE, cfg, sizeof(*cfg));
		UNIT_CHECK(!send_bytes(fd, buf, cut[i]), "send");
		pump(5);
		close(fd);
		pump(5);
		UNIT_CHECK(mmxd_server_nclients(srv) == 1,
			   "%u clients after a disconnect",
			   mmxd_server_nclients(srv));
		UNIT_CHECK(!fake.napply, "the partial APPLY was applied");
		CHECK_ERR(ping(other, 10 + (uint32_t)i), 0);
	}
	/* a client that half-closes after a complete request gets served */
	fd = client_new();
	CHECK_ERR(hello(fd), 0);
	UNIT_CHECK(!send_msg(fd, MMX_MSG_PING, 0, 33, NULL, 0), "send");
	shutdown(fd, SHUT_WR);
	{
		struct wire_msg m;

		UNIT_CHECK(!recv_msg(fd, &m), "half-closed client not served");
		UNIT_CHECK(m.h.sequence == 33 && !m.r.error, "bad reply");
		msg_free(&m);
	}
	UNIT_CHECK(closed_by_server(fd), "half-closed client not closed");
	close(fd);
	close(other);
	server_stop();
	mmx_config_free(cfg);
	free(buf);
	return 0;
}

static int test_many_clients(void)
{
	struct mmx_proto_get_state gs = { .probe = 0 };
	int fds[40];
	struct wire_msg m;
	int i, n = 40, extra;

	UNIT_CHECK(!server_start(n, 0), "server");
	for (i = 0; i < n; i++) {
		fds[i] = client_new();
		UNIT_CHECK(fds[i] >= 0, "client %d", i);
	}
	/* everyone sends before anyone reads */
	for (i = 0; i < n; i++)
		UNIT_CHECK(!send_msg(fds[i], MMX_MSG_PING, 0, 1000 + i, NULL, 0),
			   "send %d", i);
	for (i = n - 1; i >= 0; i--) {
		UNIT_CHECK(!recv_msg(fds[i], &m), "client %d: no reply", i);
		UNIT_CHECK(m.h.sequence == 1000u + (uint32_t)i && !m.r.error,
			   "client %d: seq %u", i, m.h.sequence);
		msg_free(&m);
	}
	for (i = 0; i < n; i++) {
		CHECK_ERR(hello(fds[i]), 0);
		CHECK_ERR(request(fds[i], MMX_MSG_GET_STATE, 5, &gs, sizeof(gs),
				  NULL), 0);
	}
	/* one more than max_clients is refused, unsolicited */
	extra = client_new();
	UNIT_CHECK(!recv_msg(extra, &m), "no refusal");
	UNIT_CHECK(m.h.sequence == 0 && m.r.request == 0 &&
		   m.r.error == -EBUSY, "refusal: seq %u err %d", m.h.sequence,
		   m.r.error);
	msg_free(&m);
	UNIT_CHECK(closed_by_server(extra), "refused client not closed");
	close(extra);
	for (i = 0; i < n; i++)
		close(fds[i]);
	UNIT_CHECK(clients_gone(3), "clients left");
	server_stop();
	return 0;
}

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

#define SLOW_REQUESTS	1000

static int test_slow_reader(void)
{
	struct mmx_proto_get_state gs = { .probe = 0 };
	uint64_t t0;
	int slow, fast, i;

	UNIT_CHECK(!server_start(0, 300), "server");
	slow = client_new();
	fast = client_new();
	CHECK_ERR(hello(slow), 0);
	CHECK_ERR(hello(fast), 0);
	/*
	 * More replies than the socket holds (1000 of about 1 KiB) the
	 * client never reads: the server stops reading its requests once a
	 * reply is stuck
	 */
	for (i = 0; i < SLOW_REQUESTS; i++)
		UNIT_CHECK(!send_msg(slow, MMX_MSG_GET_STATE, 0, 10 + i, &gs,
				     sizeof(gs)), "send");
	pump(3);
	/* answered while the other stalls (no timing: a blocked server
	 * would not answer at all) */
	for (i = 0; i < 20; i++)
		CHECK_ERR(ping(fast, 100 + i), 0);
	UNIT_CHECK(fake.nstate < SLOW_REQUESTS,
		   "%u states made for a non-reader", fake.nstate);
	/* after the stall time the non-reader is dropped (the bound only
	 * keeps a broken server from hanging the test) */
	t0 = ms_now();
	while (mmxd_server_nclients(srv) == 2 && ms_now() - t0 < 60000)
		mmxd_server_step(srv, 50, -1);
	UNIT_CHECK(mmxd_server_nclients(srv) == 1,
		   "the non-reading client was not dropped");
	CHECK_ERR(ping(fast, 200), 0);
	close(slow);
	close(fast);
	server_stop();
	return 0;
}

static int test_peer_policy(void)
{
	struct mmxd_options o;
	gid_t groups[3] = { 10, 20, 30 };

	mmxd_options_init(&o);
	o.uid = 1000;
	o.gid = 44;
	UNIT_CHECK(mmxd_peer_allowed(&o, 0, 0, NULL, 0), "root refused");
	UNIT_CHECK(mmxd_peer_allowed(&o, 1000, 1000, NULL, 0),
		   "the daemon's uid refused");
	UNIT_CHECK(mmxd_peer_allowed(&o, 1001, 44, NULL, 0),
		   "primary group member refused");
	groups[1] = 44;
	UNIT_CHECK(mmxd_peer_allowed(&o, 1001, 1001, groups, 3),
		   "supplementary group member refused");
	groups[1] = 20;
	UNIT_CHECK(!mmxd_peer_allowed(&o, 1001, 1001, groups, 3),
		   "a stranger allowed");
	UNIT_CHECK(!mmxd_peer_allowed(&o, 65534, 65534, NULL, 0),
		   "nobody allowed");
	return 0;
}

/* xorshift64*: fixed seed, same messages every run */
static uint64_t rng = 0x6d6d786466757a7aull;

static uint32_t rnd(void)
{
	return wire_fuzz_next(&rng);
}

/* Send all of @buf, collecting replies meanwhile (no deadlock). */
static int fuzz_send(int fd, const uint8_t *buf, size_t len,
		     struct wire_rx *rx)
{
	while (len) {
		ssize_t n = send(fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			mmxd_server_step(srv, 0, -1);
			if (wire_rx_fill(fd, rx) < 0)
				return -EIO;
			continue;
		}
		if (n < 0)
			return -errno;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Pop the next message from @rx, receiving more as needed. */
static int rx_msg(int fd, struct wire_rx *rx, struct wire_msg *m)
{
	int rounds = 3000, eof = 0, ret;

	memset(m, 0, sizeof(*m));
	while (!(ret = wire_rx_take(rx, &m->h, &m->raw))) {
		if (eof)
			return -ECONNRESET;
		if (rounds-- <= 0)
			return -ETIMEDOUT;
		mmxd_server_step(srv, 1, -1);
		if (wire_rx_fill(fd, rx) < 0)
			eof = 1;
	}
	if (ret < 0)
		return ret;
	wire_msg_reply(m);
	return 0;
}

static int test_fuzz_messages(void)
{
	const unsigned int total = 100000;
	uint8_t *batch = malloc(1024 * 1024);
	struct wire_rx rx = { 0 };
	uint32_t expect[64];
	unsigned int sent = 0, answered = 0, resets = 0;
	int fd = -1;
	struct wire_msg m;

	UNIT_CHECK(batch, "alloc");
	UNIT_CHECK(!server_start(0, 0), "server");
	while (sent < total) {
		unsigned int n = 1 + rnd() % 32, i;
		size_t off, pos;
		int unsync = rnd() % 500 == 0;

		if (fd < 0) {
			fd = client_new();
			UNIT_CHECK(fd >= 0, "client");
			if (rnd() % 2)
				CHECK_ERR(hello(fd), 0);
		}
		off = wire_fuzz_batch(rnd, batch, n, expect, unsync, 0);
		/* send in random pieces */
		for (pos = 0; pos < off;) {
			size_t piece = 1 + rnd() % (off - pos);

			UNIT_CHECK(!fuzz_send(fd, batch + pos, piece, &rx),
				   "send");
			pos += piece;
			if (rnd() % 2)
				pump(1);
		}
		for (i = 0; i < n; i++) {
			UNIT_CHECK(!rx_msg(fd, &rx, &m), "message %u: no reply",
				   sent + i);
			UNIT_CHECK(m.h.type == MMX_MSG_REPLY &&
				   m.h.sequence == expect[i],
				   "message %u: reply seq %u, want %u",
				   sent + i, m.h.sequence, expect[i]);
			UNIT_CHECK(m.r.error <= 0 &&
				   m.r.message[sizeof(m.r.message) - 1] == 0,
				   "message %u: bad reply", sent + i);
			msg_free(&m);
			answered++;
		}
		sent += n;
		if (unsync) {
			UNIT_CHECK(!rx_msg(fd, &rx, &m),
				   "no reply to bad length");
			UNIT_CHECK(m.r.error == -EPROTO ||
				   m.r.error == -EMSGSIZE, "err %d",
				   m.r.error);
			msg_free(&m);
			UNIT_CHECK(closed_by_server(fd), "not closed");
			close(fd);
			fd = -1;
			rx.len = 0;
			resets++;
		}
	}
	UNIT_CHECK(answered == sent, "%u of %u answered", answered, sent);
	if (fd < 0)
		fd = client_new();
	CHECK_ERR(ping(fd, 424242), 0);
	printf("  %u messages, %u replies, %u unsyncable streams closed\n",
	       sent, answered, resets);
	close(fd);
	UNIT_CHECK(mmxd_server_nclients(srv) <= 1, "clients leak");
	server_stop();
	free(batch);
	free(rx.p);
	return 0;
}

static int test_fuzz_garbage(void)
{
	uint8_t buf[512];
	int i, fd;
	size_t k, len;

	UNIT_CHECK(!server_start(0, 0), "server");
	for (i = 0; i < 2000; i++) {
		fd = client_new();
		UNIT_CHECK(fd >= 0, "client");
		len = rnd() % sizeof(buf);
		for (k = 0; k < len; k++)
			buf[k] = (uint8_t)rnd();
		send_bytes(fd, buf, len);
		pump(2);
		close(fd);
		pump(2);
	}
	UNIT_CHECK(clients_gone(0), "clients left");
	fd = client_new();
	CHECK_ERR(ping(fd, 1), 0);
	CHECK_ERR(hello(fd), 0);
	close(fd);
	server_stop();
	return 0;
}

static const struct unit_case cases[] = {
	{ "hello-state", "PING, HELLO's reply, GET_STATE equals the backend's",
	  test_hello_state },
	{ "apply-pointer-capture", "APPLY (errors and messages), POINTER, CAPTURE pixels",
	  test_apply_pointer_capture },
	{ "partial-reads", "a request sent byte by byte is answered once, at its end",
	  test_partial_reads },
	{ "several-in-one-write", "three requests in one write get three replies in order",
	  test_several_in_one_write },
	{ "out-of-order", "requests before HELLO and a second HELLO get -EPROTO",
	  test_out_of_order },
	{ "bad-requests", "bad sizes, fields, flags and types get their errors; serving goes on",
	  test_bad_requests },
	{ "versions", "another major, other struct sizes, HELLO flags refused; newer minor accepted",
	  test_versions },
	{ "state-records", "GET_STATE's records decode to the backend's state; one it cannot carry is an error",
	  test_state_records },
	{ "apply-records", "APPLY's records reach the backend as encoded; bad records refused",
	  test_apply_records },
	{ "unsyncable", "a length out of range gets -EMSGSIZE/-EPROTO and the connection closes",
	  test_unsyncable },
	{ "disconnect-mid-request", "a client leaving mid-request loses only its request",
	  test_disconnect_mid_request },
	{ "many-clients", "40 clients at once, one more refused with -EBUSY",
	  test_many_clients },
	{ "slow-reader", "a client that does not read neither blocks others nor stays",
	  test_slow_reader },
	{ "peer-policy", "root, the daemon's uid and the socket group only",
	  test_peer_policy },
	{ "fuzz-messages", "100k random messages (fixed seed): one reply each, then PING",
	  test_fuzz_messages },
	{ "fuzz-garbage", "2000 connections of random bytes, then PING",
	  test_fuzz_garbage },
};

UNIT_MAIN(cases)
