// SPDX-License-Identifier: GPL-2.0-only
/*
 * libmmx's remote backend against mmxd's server (fake display, real UNIX
 * socket, the server in a thread) through the public API
 * (mmx_open("unix:PATH")), and against hostile or wedged servers: every
 * failure is an error code, never a hang or a bad snapshot.
 */

#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "mmxd.h"
#include "mmxd_client_harness.h"	/* fake_capture_fill() */
#include "mmx_internal.h"
#include "mmx_state_build.h"
#include "mmx_wire.h"

static char dir[64];
static char path[128];

/* ---- a fake display behind a real server --------------------------------- */

static struct mmx_state fake_st;
static struct mmx_config fake_last;
static int32_t fake_px, fake_py;

static int fake_state(void *ctx, int probe, struct mmx_state *s)
{
	(void)ctx;
	(void)probe;
	mmx_state_clear(s);
	return mmx_state_copy(s, &fake_st);
}

static int fake_apply(void *ctx, const struct mmx_config *cfg,
		      struct mmx_error *err)
{
	(void)ctx;
	config_keep(&fake_last, cfg);
	if (cfg->flags & MMX_CONFIG_TEST_ONLY) {
		snprintf(err->message, sizeof(err->message),
			 "output %u: no such output", cfg->changes[0]->output);
		return -ENOENT;
	}
	return 0;
}

static int fake_pointer(void *ctx, int32_t x, int32_t y)
{
	(void)ctx;
	fake_px = x;
	fake_py = y;
	return 0;
}

static int fake_capture(void *ctx, uint32_t crtc, uint32_t *w, uint32_t *h,
			uint32_t **pixels)
{
	(void)ctx;
	(void)crtc;
	return fake_capture_fill(64, 48, 0, 2654435761u, w, h, pixels);
}

static const struct mmx_display_ops fake_ops = {
	.state = fake_state,
	.apply = fake_apply,
	.pointer_moved = fake_pointer,
	.capture = fake_capture,
};

struct daemon {
	struct mmxd_server *srv;
	pthread_t thread;
	int stop[2];
};

static void *daemon_main(void *arg)
{
	struct daemon *dm = arg;

	while (mmxd_server_step(dm->srv, 100, dm->stop[0]) == 0)
		;
	return NULL;
}

static int daemon_start(struct daemon *dm)
{
	struct mmxd_options o;
	int fd;

	static const char *const names[] = { "HDMI-1" };

	t_state_small(&fake_st, "fake", MMX_STATE_MMX_DRIVER |
		      MMX_STATE_WRITEBACK, 1, 40, 1, 50, names);
	mmxd_options_init(&o);
	strcpy(o.driver, "fake");
	o.state_flags = fake_st.flags;
	if (mmxd_server_new(&fake_ops, NULL, &o, &dm->srv))
		return -1;
	fd = mmxd_socket_open(path, (gid_t)-1);
	if (fd < 0) {
		mmxd_server_free(dm->srv);
		return fd;
	}
	mmxd_server_listen(dm->srv, fd);
	if (pipe(dm->stop))
		return -1;
	return pthread_create(&dm->thread, NULL, daemon_main, dm) ? -1 : 0;
}

static void daemon_stop(struct daemon *dm)
{
	if (write(dm->stop[1], "x", 1) != 1)
		return;
	pthread_join(dm->thread, NULL);
	mmxd_server_free(dm->srv);
	close(dm->stop[0]);
	close(dm->stop[1]);
	unlink(path);
}

/* ---- a scripted raw server ------------------------------------------------ */

enum evil {
	EVIL_SLOW,		/* answers HELLO after 8 s, then never */
	EVIL_MUTE,		/* answers HELLO, then never */
	EVIL_REFUSE,		/* unsolicited -EACCES */
	EVIL_BAD_COUNTS,	/* GET_STATE records with ncrtc 999 */
	EVIL_BAD_SEQUENCE,	/* replies with another sequence */
	EVIL_HUGE,		/* a length above the reply limit */
	EVIL_CLOSE,		/* closes after HELLO */
	EVIL_OLD_MAJOR,		/* a 1.x server's HELLO reply */
	EVIL_EVENTS,		/* EVENTs before each reply */
	EVIL_BAD_CAPTURE,	/* pixels do not match width * height */
	EVIL_RECORDS_CUT,	/* GET_STATE records one byte short */
	EVIL_RECORDS_BIG,	/* records with 17 outputs */
	EVIL_APPLY_SEEN,	/* answers 0, the request's type kept */
};

struct evil_server {
	enum evil mode;
	uint16_t apply_type;	/* EVIL_APPLY_SEEN: the last request's type */
	size_t apply_len;	/* and its payload's length */
	int lfd;
	pthread_t thread;
};

static int send_reply(int fd, uint32_t seq, uint16_t req, int err,
		      const void *data, size_t len)
{
	uint8_t r[MMX_PROTO_REPLY_SIZE];

	mmx_wire_put_reply(r, req, err, err ? "evil" : "");
	return mmx_wire_send(fd, MMX_MSG_REPLY, seq, r, sizeof(r), data, len);
}

static void *evil_main(void *arg)
{
	static const char *const names[] = { "HDMI-1" };
	struct evil_server *e = arg;
	struct mmx_proto_hello_reply hr = {
		.major = MMX_PROTO_MAJOR,
		.caps = MMX_PROTO_CAP_STATE | MMX_PROTO_CAP_APPLY,
		.max_request = MMX_PROTO_MAX_REQUEST,
		.max_reply = MMX_PROTO_MAX_REPLY,
	};
	struct mmx_proto_header h;
	void *p;
	int fd = accept(e->lfd, NULL, NULL);

	if (fd < 0)
		return NULL;
	if (e->mode == EVIL_SLOW)
		sleep(8);
	if (e->mode == EVIL_REFUSE) {
		send_reply(fd, 0, 0, -EACCES, NULL, 0);
		close(fd);
		return NULL;
	}
	if (mmx_wire_recv(fd, MMX_PROTO_MAX_REQUEST, &h, &p))
		goto out;
	free(p);
	if (e->mode == EVIL_OLD_MAJOR) {
		hr.major = 1;
		hr.minor = 4;
	}
	send_reply(fd, h.sequence, MMX_MSG_HELLO, 0, &hr, sizeof(hr));
	if (e->mode == EVIL_CLOSE)
		goto out;
	while (!mmx_wire_recv(fd, MMX_PROTO_MAX_REQUEST, &h, &p)) {
		struct mmx_state *st = calloc(1, sizeof(*st));
		uint8_t hdr[MMX_PROTO_HEADER_SIZE];
		uint32_t cap[3] = { 4, 4, 0 };
		uint8_t *rec = NULL;
		size_t rec_len = 0;

		free(p);
		if (!st)
			break;
		if (e->mode == EVIL_APPLY_SEEN) {
			e->apply_type = h.type;
			e->apply_len = h.length - MMX_PROTO_HEADER_SIZE;
			send_reply(fd, h.sequence, h.type, 0, NULL, 0);
			free(st);
			continue;
		}
		t_state_small(st, e->mode == EVIL_EVENTS ? "evented" : "",
			      0, 0, 0, 1, 0, names);
		if (mmx_wire_encode_state(st, &rec, &rec_len))
			break;
		switch (e->mode) {
		case EVIL_RECORDS_CUT:
			send_reply(fd, h.sequence, h.type, 0, rec,
				   rec_len - 1);
			break;
		case EVIL_RECORDS_BIG:
			rec[64] = 17;	/* noutput */
			send_reply(fd, h.sequence, h.type, 0, rec, rec_len);
			break;
		case EVIL_BAD_COUNTS:
			rec[60] = 999 & 0xff;	/* ncrtc */
			rec[61] = 999 >> 8;
			send_reply(fd, h.sequence, h.type, 0, rec, rec_len);
			break;
		case EVIL_BAD_SEQUENCE:
			send_reply(fd, h.sequence + 1, h.type, 0, rec,
				   rec_len);
			break;
		case EVIL_HUGE:
			mmx_wire_put_header(hdr, 0xfffffff0u, MMX_MSG_REPLY,
					    h.sequence);
			mmx_wire_write_all(fd, hdr, sizeof(hdr));
			break;
		case EVIL_EVENTS:
			mmx_wire_send(fd, MMX_MSG_EVENT, 0, "12345678", 8,
				      NULL, 0);
			mmx_wire_send(fd, MMX_MSG_EVENT, 0, NULL, 0, NULL, 0);
			send_reply(fd, h.sequence, h.type, 0, rec, rec_len);
			break;
		case EVIL_BAD_CAPTURE:
			send_reply(fd, h.sequence, h.type, 0, cap,
				   sizeof(cap));
			break;
		default:
			break;
		}
		free(rec);
		mmx_state_free(st);
	}
out:
	close(fd);
	return NULL;
}

static int evil_start(struct evil_server *e, enum evil mode)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	e->mode = mode;
	unlink(path);
	strcpy(sa.sun_path, path);
	e->lfd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (e->lfd < 0 || bind(e->lfd, (struct sockaddr *)&sa, sizeof(sa)) ||
	    listen(e->lfd, 4))
		return -1;
	return pthread_create(&e->thread, NULL, evil_main, e) ? -1 : 0;
}

static void evil_stop(struct evil_server *e)
{
	pthread_join(e->thread, NULL);
	close(e->lfd);
	unlink(path);
}

/* ---- tests ------------------------------------------------------------ */

static int test_public_api(void)
{
	struct mmx_display *d;
	struct mmx_state *s;
	struct mmx_config *cfg;
	struct mmx_error err;
	struct daemon dm;
	struct stat st;
	char spec[160];
	uint32_t w, h, *px, i;
	uint64_t sent, received, after, before;
	int ret;

	/* mmxd creates the socket's directory, 0755 */
	*strrchr(path, '/') = '\0';
	rmdir(path);
	UNIT_CHECK(access(path, F_OK), "%s still there", path);
	path[strlen(path)] = '/';
	UNIT_CHECK(!daemon_start(&dm), "daemon");
	*strrchr(path, '/') = '\0';
	UNIT_CHECK(!stat(path, &st) && S_ISDIR(st.st_mode) &&
		   (st.st_mode & 0777) == 0755, "directory not made 0755");
	path[strlen(path)] = '/';
	UNIT_CHECK(!stat(path, &st) && S_ISSOCK(st.st_mode) &&
		   (st.st_mode & 0777) == 0660, "socket mode %o",
		   st.st_mode & 0777);
	snprintf(spec, sizeof(spec), "unix:%s", path);
	ret = mmx_open(spec, &d);
	UNIT_CHECK(!ret, "mmx_open(%s): %d", spec, ret);
	UNIT_CHECK(mmx_is_remote(d) && mmx_fd(d) == -1, "not remote");

	mmx_client_counters(d->remote, &sent, &received);
	UNIT_CHECK(!mmx_get_screen_resources(d, &s), "state");
	mmx_client_counters(d->remote, &sent, &after);
	/* the records of one output */
	UNIT_CHECK(after - received < 1024, "the state took %llu bytes",
		   (unsigned long long)(after - received));
	UNIT_CHECK(s->flags & MMX_STATE_REMOTE, "REMOTE flag missing");
	UNIT_CHECK(!strcmp(s->driver, "fake") && s->noutput == 1 &&
		   !strcmp(s->outputs[0].name, "HDMI-1"), "state content");
	mmx_state_free(s);
	UNIT_CHECK(!mmx_get_screen_resources_current(d, &s), "state");
	mmx_state_free(s);

	UNIT_CHECK(!mmx_config_new(&cfg), "config");
	mmx_config_output(cfg, 50)->flags = MMX_CHANGE_OFF;
	mmx_client_counters(d->remote, &before, &after);
	UNIT_CHECK(!mmx_apply(d, cfg, &err), "apply: %s", err.message);
	mmx_client_counters(d->remote, &sent, &after);
	/* the records of one change */
	UNIT_CHECK(sent - before < 256, "the config took %llu bytes",
		   (unsigned long long)(sent - before));
	UNIT_CHECK(fake_last.nchange == 1 &&
		   fake_last.changes[0]->flags == MMX_CHANGE_OFF,
		   "config not passed");
	mmx_config_set_flags(cfg, MMX_CONFIG_TEST_ONLY);
	ret = mmx_apply(d, cfg, &err);
	mmx_config_free(cfg);
	UNIT_CHECK(ret == -ENOENT && err.err == -ENOENT &&
		   !strcmp(err.message, "output 50: no such output"),
		   "apply error %d '%s'", ret, err.message);

	UNIT_CHECK(!mmx_pointer_moved(d, 300, -20), "pointer");
	UNIT_CHECK(fake_px == 300 && fake_py == -20, "pointer not passed");

	UNIT_CHECK(!mmx_capture(d, 40, &w, &h, &px), "capture");
	UNIT_CHECK(w == 64 && h == 48, "capture %ux%u", w, h);
	for (i = 0; i < w * h; i++)
		UNIT_CHECK(px[i] == i * 2654435761u, "pixel %u", i);
	free(px);

	/* a second daemon on the same socket is refused */
	UNIT_CHECK(mmxd_socket_open(path, (gid_t)-1) == -EADDRINUSE,
		   "a second daemon took the socket");
	mmx_close(d);
	daemon_stop(&dm);
	UNIT_CHECK(access(path, F_OK), "socket not removed");
	return 0;
}

static int test_no_daemon(void)
{
	struct mmx_client *c;
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, ret;

	unlink(path);
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == -ENOENT, "no socket: %d", ret);
	/* a stale socket: nobody listens */
	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM, 0);
	UNIT_CHECK(!bind(fd, (struct sockaddr *)&sa, sizeof(sa)), "bind");
	close(fd);
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == -ECONNREFUSED, "stale socket: %d", ret);
	/* and a new daemon replaces it */
	fd = mmxd_socket_open(path, (gid_t)-1);
	UNIT_CHECK(fd >= 0, "stale socket not replaced: %d", fd);
	mmxd_socket_close(fd, path);
	UNIT_CHECK(access(path, F_OK), "socket not removed");
	return 0;
}

/* A socket-activated mmxd answers its first client's HELLO late. */
static int test_slow_start(void)
{
	struct evil_server e;
	struct mmx_client *c;
	int ret;

	UNIT_CHECK(!evil_start(&e, EVIL_SLOW), "server");
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == 0, "HELLO after 8 s: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);
	return 0;
}

static int test_wedged(void)
{
	static struct mmx_state st;
	struct evil_server e;
	struct mmx_client *c;
	struct timespec t0, t1;
	double dt;
	int ret;

	UNIT_CHECK(!evil_start(&e, EVIL_MUTE), "server");
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == 0, "HELLO: %d", ret);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	ret = mmx_client_state(c, 0, &st);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	dt = (double)(t1.tv_sec - t0.tv_sec) +
	     (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	UNIT_CHECK(ret == -ETIMEDOUT, "silent server: %d", ret);
	/* never before the timeout; the upper bound only says it returned */
	UNIT_CHECK(dt > 4.5 && dt < 60, "gave up after %.1f s", dt);
	mmx_client_close(c);
	evil_stop(&e);
	return 0;
}

static int test_hostile(void)
{
	struct evil_server e;
	struct mmx_client *c;
	static struct mmx_state st;
	struct mmx_state *s = &st;
	uint32_t w, h, *px;
	int ret;

	UNIT_CHECK(!evil_start(&e, EVIL_REFUSE), "server %s", path);
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == -EACCES, "refusal: %d", ret);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_OLD_MAJOR), "server");
	ret = mmx_client_connect(path, &c);
	UNIT_CHECK(ret == -EPROTO, "a 1.x server: %d", ret);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_BAD_COUNTS), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(ret == -EPROTO, "ncrtc 999: %d", ret);
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(ret == -ENOTCONN, "after a protocol error: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_BAD_SEQUENCE), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 1, s);
	UNIT_CHECK(ret == -EPROTO, "wrong sequence: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_HUGE), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_pointer_moved(c, 1, 2);
	UNIT_CHECK(ret == -EMSGSIZE, "huge reply: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_CLOSE), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(ret == -ECONNRESET || ret == -EPIPE, "closed: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_EVENTS), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(!ret && !strcmp(s->driver, "evented"), "events: %d", ret);
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(!ret, "events, again: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	/* records cut or saying too much */
	UNIT_CHECK(!evil_start(&e, EVIL_RECORDS_CUT), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(ret == -EPROTO, "cut records: %d", ret);
	UNIT_CHECK(mmx_client_state(c, 0, s) == -ENOTCONN, "still used");
	mmx_client_close(c);
	evil_stop(&e);
	UNIT_CHECK(!evil_start(&e, EVIL_RECORDS_BIG), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_state(c, 0, s);
	UNIT_CHECK(ret == -EPROTO, "17 outputs: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);

	UNIT_CHECK(!evil_start(&e, EVIL_BAD_CAPTURE), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	ret = mmx_client_capture(c, 1, &w, &h, &px);
	UNIT_CHECK(ret == -EPROTO && !px, "short capture: %d", ret);
	mmx_client_close(c);
	evil_stop(&e);
	return 0;
}

/* mmx_apply() sends APPLY with the config's records, not the struct. */
static int test_apply_records(void)
{
	struct evil_server e = { 0 };
	struct mmx_client *c;
	struct mmx_config *cfg;
	struct mmx_error err;
	uint8_t *rec;
	size_t len;
	int ret;

	UNIT_CHECK(!mmx_config_new(&cfg), "config");
	mmx_config_output(cfg, 50)->flags = MMX_CHANGE_OFF;
	UNIT_CHECK(!mmx_wire_encode_config(cfg, &rec, &len), "encode");
	free(rec);
	UNIT_CHECK(!evil_start(&e, EVIL_APPLY_SEEN), "server");
	UNIT_CHECK(!mmx_client_connect(path, &c), "connect");
	memset(&err, 0, sizeof(err));
	ret = mmx_client_apply(c, cfg, &err);
	mmx_client_close(c);
	evil_stop(&e);
	mmx_config_free(cfg);
	UNIT_CHECK(!ret, "apply: %d %s", ret, err.message);
	UNIT_CHECK(e.apply_type == MMX_MSG_APPLY && e.apply_len == len,
		   "sent type 0x%04x, %zu bytes", e.apply_type, e.apply_len);
	return 0;
}

static const struct unit_case cases[] = {
	{ "public-api", "mmx_open(unix:) against mmxd's server: state, apply errors, pointer, capture pixels",
	  test_public_api },
	{ "no-daemon", "no socket -ENOENT, stale socket -ECONNREFUSED and replaced",
	  test_no_daemon },
	{ "slow-start", "a daemon that answers HELLO after 8 s (socket activation on a slow machine) is connected",
	  test_slow_start },
	{ "wedged-daemon", "a daemon that stops answering after HELLO: the next request fails with -ETIMEDOUT after 5 s",
	  test_wedged },
	{ "hostile-server", "refusals, a 1.x server, bad counts, sequences, lengths, records, events",
	  test_hostile },
	{ "apply-records", "mmx_apply() sends APPLY with the config's records",
	  test_apply_records },
};

int main(int argc, char **argv)
{
	int ret;

	snprintf(dir, sizeof(dir), "/tmp/mmxd-test-%d", (int)getpid());
	snprintf(path, sizeof(path), "%s/sub/mmxd.sock", dir);
	mkdir(dir, 0700);
	snprintf(path, sizeof(path), "%s/sub", dir);
	mkdir(path, 0700);
	snprintf(path, sizeof(path), "%s/sub/mmxd.sock", dir);
	ret = UNIT_RUN(cases, argc, argv);
	unlink(path);
	snprintf(path, sizeof(path), "%s/sub", dir);
	rmdir(path);
	rmdir(dir);
	return ret;
}
