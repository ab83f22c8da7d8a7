// SPDX-License-Identifier: MIT
/*
 * mmxd_fuzz - a test client of a live mmxd (tests/igt/mmxd_check.sh):
 * raw protocol messages, random ones, clients that misbehave, and the
 * public API over "unix:PATH".
 *
 * Usage: mmxd_fuzz [--socket PATH] [--uid N] [--gid N] COMMAND [ARG]...
 *   hello [ERRNO]   connect and say HELLO; succeed when the result is
 *                   -ERRNO (default 0: accepted)
 *   config          print the configuration (lit CRTCs) in one line
 *   fuzz N SEED     N random messages (fixed seed): each must get its
 *                   reply, an unsyncable length an error and the close
 *   midreq          clients leaving mid-request or before their reply
 *   many N          N clients at once, HELLO and GET_STATE on each
 *   api             the public API: REMOTE snapshot, a TEST_ONLY apply of
 *                   the current configuration, a bad one with its
 *                   message, a capture of each lit CRTC against
 *                   mmx_screen_pattern()
 *   state-records   GET_STATE's records decode without error and encode
 *                   back to the same bytes; the reply size is printed
 * --uid/--gid switch to that uid/gid (no supplementary groups) first.
 * Exit status 0 on success, 1 on a failed check, 2 on bad usage.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <stdarg.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "libmmx.h"
#include "mmx_screen_pattern.h"
#include "mmx_protocol.h"
#include "mmx_wire.h"
#include "wire_fuzz.h"
#include "wire_rx.h"

static const char *sock_path;

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int failed;

static void fail(const char *fmt, ...)
{
	va_list ap;

	fputs("mmxd_fuzz: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	failed = 1;
}

/* A non-blocking connection and everything received on it. */
struct conn {
	int fd;
	struct wire_rx rx;
	int eof;
};

static int conn_open(struct conn *c)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(c, 0, sizeof(*c));
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -errno;
	if (connect(c->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int ret = -errno;

		close(c->fd);
		return ret;
	}
	fcntl(c->fd, F_SETFL, fcntl(c->fd, F_GETFL) | O_NONBLOCK);
	return 0;
}

static void conn_close(struct conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	free(c->rx.p);
	memset(c, 0, sizeof(*c));
	c->fd = -1;
}

/* Read what is there into c->rx. */
static void conn_fill(struct conn *c)
{
	int ret = wire_rx_fill(c->fd, &c->rx);

	if (ret == -ENOMEM) {
		fail("out of memory");
		exit(1);
	}
	if (ret < 0)
		c->eof = 1;
}

/* Send all of @buf, reading meanwhile (the server answers as we send). */
static int conn_send(struct conn *c, const void *buf, size_t len)
{
	const uint8_t *p = buf;

	while (len) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN | POLLOUT };
		ssize_t n;

		if (poll(&pfd, 1, 5000) <= 0)
			return -ETIMEDOUT;
		if (pfd.revents & POLLIN)
			conn_fill(c);
		if (!(pfd.revents & POLLOUT))
			continue;
		n = send(c->fd, p, len, MSG_NOSIGNAL);
		if (n < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return -errno;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* The next message, within 10 s. */
static int conn_reply(struct conn *c, struct wire_msg *m)
{
	int ret;

	memset(m, 0, sizeof(*m));
	while (!(ret = wire_rx_take(&c->rx, &m->h, &m->raw))) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		if (c->eof)
			return -ECONNRESET;
		if (poll(&pfd, 1, 10000) <= 0)
			return -ETIMEDOUT;
		conn_fill(c);
	}
	if (ret < 0)
		return ret;
	wire_msg_reply(m);
	return 0;
}

/* Is the connection closed by the server (within 10 s)? */
static int conn_closed(struct conn *c)
{
	time_t t0 = time(NULL);

	while (!c->eof && time(NULL) - t0 < 10) {
		struct pollfd pfd = { .fd = c->fd, .events = POLLIN };

		poll(&pfd, 1, 1000);
		c->rx.len = 0;
		conn_fill(c);
	}
	return c->eof;
}

static int msg_put(uint8_t *buf, uint16_t type, uint32_t seq,
		   const void *payload, size_t len)
{
	mmx_wire_put_header(buf, (uint32_t)(MMX_PROTO_HEADER_SIZE + len), type,
			    seq);
	if (len)
		memcpy(buf + MMX_PROTO_HEADER_SIZE, payload, len);
	return (int)(MMX_PROTO_HEADER_SIZE + len);
}

/* Send a request and wait for its reply; returns its error or 1000+. */
static int request(struct conn *c, uint16_t type, uint32_t seq,
		   const void *payload, size_t len, struct wire_msg *out)
{
	uint8_t *buf = malloc(MMX_PROTO_HEADER_SIZE + len);
	struct wire_msg m;
	int ret;

	if (!buf)
		return 1000;
	msg_put(buf, type, seq, payload, len);
	ret = conn_send(c, buf, MMX_PROTO_HEADER_SIZE + len);
	free(buf);
	if (!ret)
		ret = conn_reply(c, &m);
	if (ret) {
		fail("%s #%u: %s", mmx_wire_type_name(type), seq,
		     strerror(-ret));
		return 1000;
	}
	if (m.h.sequence != seq || m.r.request != type) {
		fail("%s #%u: reply for #%u (0x%x)", mmx_wire_type_name(type),
		     seq, m.h.sequence, m.r.request);
		free(m.raw);
		return 1001;
	}
	ret = m.r.error;
	if (out)
		*out = m;
	else
		free(m.raw);
	return ret;
}

static int hello(struct conn *c, struct wire_msg *out)
{
	struct mmx_proto_hello h = {
		.major = MMX_PROTO_MAJOR,
		.minor = MMX_PROTO_MINOR,
		.client = "mmxd_fuzz",
	};

	return request(c, MMX_MSG_HELLO, 1, &h, sizeof(h), out);
}

/* ---- commands ------------------------------------------------------------ */

static int cmd_hello(int expect)
{
	struct conn c;
	struct wire_msg m;
	int ret;

	ret = conn_open(&c);
	if (ret) {
		printf("hello: connect: %d (%s)\n", ret, strerror(-ret));
	} else {
		/* the reply may be an unsolicited refusal */
		struct mmx_proto_hello h = {
			.major = MMX_PROTO_MAJOR,
		};
		uint8_t buf[MMX_PROTO_HEADER_SIZE + sizeof(h)];

		msg_put(buf, MMX_MSG_HELLO, 1, &h, sizeof(h));
		ret = conn_send(&c, buf, sizeof(buf));
		if (ret == -EPIPE || ret == -ECONNRESET)
			ret = 0;	/* the refusal is still to be read */
		if (!ret)
			ret = conn_reply(&c, &m);
		if (!ret) {
			ret = m.r.error;
			printf("hello: %d (%s) request 0x%x seq %u\n", ret,
			       m.r.message, m.r.request, m.h.sequence);
			if (ret && !conn_closed(&c))
				fail("refused but not closed");
			free(m.raw);
		} else {
			printf("hello: transport %d (%s)\n", ret,
			       strerror(-ret));
		}
		conn_close(&c);
	}
	if (ret != -expect)
		fail("HELLO gave %d, expected %d", ret, -expect);
	return failed;
}

static void print_config(const struct mmx_state *s)
{
	uint32_t i, j, w, h;

	mmx_state_screen_size(s, &w, &h);
	printf("screen %ux%u", w, h);
	for (i = 0; i < mmx_state_ncrtcs(s); i++) {
		const struct mmx_crtc_info *c = mmx_state_crtc_at(s, i);

		if (!c->mode_valid)
			continue;
		printf("; crtc %u %s@%u +%d+%d rot %u outputs", c->id,
		       c->mode.name, c->mode.refresh_mhz, c->x, c->y,
		       c->rotation);
		for (j = 0; j < c->noutput; j++)
			printf(" %u", c->outputs[j]);
	}
	printf("\n");
}

/* Open the daemon's display through libmmx ("unix:PATH"); 0 or -errno. */
static int open_remote(struct mmx_display **d)
{
	char spec[160];
	int ret;

	snprintf(spec, sizeof(spec), "unix:%s", sock_path);
	ret = mmx_open(spec, d);
	if (ret)
		fail("mmx_open(%s): %s", spec, strerror(-ret));
	return ret;
}

static int cmd_config(void)
{
	struct mmx_display *d;
	struct mmx_state *s;
	int ret;

	if (open_remote(&d))
		return 1;
	ret = mmx_get_screen_resources_current(d, &s);
	if (ret) {
		fail("state: %s", strerror(-ret));
	} else {
		print_config(s);
		mmx_state_free(s);
	}
	mmx_close(d);
	return failed;
}

static uint64_t rng;

static uint32_t rnd(void)
{
	return wire_fuzz_next(&rng);
}

static int cmd_fuzz(unsigned int total, unsigned long seed)
{
	uint8_t *batch = malloc(1024 * 1024);
	unsigned int sent = 0, resets = 0, errors = 0, i;
	uint32_t expect[32];
	struct conn c = { .fd = -1 };
	struct wire_msg m;

	rng = seed * 0x9e3779b97f4a7c15ull + 1;
	if (!batch)
		return 1;
	while (sent < total && !failed) {
		unsigned int n = 1 + rnd() % 32;
		size_t off;
		int unsync = rnd() % 300 == 0;

		if (c.fd < 0) {
			if (conn_open(&c)) {
				fail("connect: %s", strerror(errno));
				break;
			}
			if (rnd() % 2 && hello(&c, NULL))
				fail("HELLO refused");
		}
		off = wire_fuzz_batch(rnd, batch, n, expect, unsync, 1);
		if (conn_send(&c, batch, off)) {
			fail("message %u: send failed", sent);
			break;
		}
		for (i = 0; i < n && !failed; i++) {
			int ret = conn_reply(&c, &m);

			if (ret) {
				fail("message %u: no reply: %s", sent + i,
				     strerror(-ret));
				break;
			}
			if (m.h.type != MMX_MSG_REPLY ||
			    m.h.sequence != expect[i] || m.r.error > 0)
				fail("message %u: reply seq %u err %d, want seq %u",
				     sent + i, m.h.sequence, m.r.error,
				     expect[i]);
			errors += m.r.error != 0;
			free(m.raw);
		}
		sent += n;
		if (unsync && !failed) {
			if (conn_reply(&c, &m) || (m.r.error != -EPROTO &&
						   m.r.error != -EMSGSIZE))
				fail("bad length: no -EPROTO/-EMSGSIZE reply");
			else
				free(m.raw);
			if (!conn_closed(&c))
				fail("bad length: connection not closed");
			conn_close(&c);
			resets++;
		}
	}
	conn_close(&c);
	printf("fuzz: %u messages, %u error replies, %u unsyncable streams closed\n",
	       sent, errors, resets);
	free(batch);
	return failed;
}

static int cmd_midreq(void)
{
	struct mmx_config *cfg = calloc(1, sizeof(*cfg));
	struct mmx_proto_get_state gs = { .probe = 0 };
	uint8_t *rec = NULL, *buf = NULL;
	struct conn c, other;
	size_t len = 0, cuts[4];
	unsigned int i;

	if (!cfg)
		return 1;
	if (conn_open(&other) || hello(&other, NULL)) {
		fail("cannot connect");
		return 1;
	}
	/* an APPLY that would turn every output off, cut short */
	mmx_config_output(cfg, 0xffff)->flags = MMX_CHANGE_OFF;
	if (mmx_wire_encode_config(cfg, &rec, &len))
		return 1;
	buf = malloc(MMX_PROTO_HEADER_SIZE + len);
	if (!buf)
		return 1;
	msg_put(buf, MMX_MSG_APPLY, 9, rec, len);
	free(rec);
	cuts[0] = 3;
	cuts[1] = MMX_PROTO_HEADER_SIZE;
	cuts[2] = MMX_PROTO_HEADER_SIZE + 20;
	cuts[3] = MMX_PROTO_HEADER_SIZE + len - 1;
	for (i = 0; i < sizeof(cuts) / sizeof(cuts[0]); i++) {
		if (conn_open(&c) || hello(&c, NULL)) {
			fail("cannot connect");
			break;
		}
		conn_send(&c, buf, cuts[i]);
		usleep(100000);
		conn_close(&c);
		if (request(&other, MMX_MSG_PING, 100 + i, NULL, 0, NULL))
			fail("PING after a client left at byte %zu", cuts[i]);
	}
	/* ask for a state and leave without reading it */
	for (i = 0; i < 3; i++) {
		uint8_t req[MMX_PROTO_HEADER_SIZE + sizeof(gs)];

		if (conn_open(&c) || hello(&c, NULL)) {
			fail("cannot connect");
			break;
		}
		msg_put(req, MMX_MSG_GET_STATE, 5, &gs, sizeof(gs));
		conn_send(&c, req, sizeof(req));
		conn_send(&c, req, sizeof(req));
		if (i)
			usleep(200000);
		conn_close(&c);
	}
	if (request(&other, MMX_MSG_GET_STATE, 200, &gs, sizeof(gs), NULL))
		fail("GET_STATE after clients left mid-reply");
	conn_close(&other);
	printf("midreq: %zu cut requests, 3 unread replies\n",
	       sizeof(cuts) / sizeof(cuts[0]));
	mmx_config_free(cfg);
	free(buf);
	return failed;
}

static int cmd_many(unsigned int n)
{
	struct mmx_proto_get_state gs = { .probe = 0 };
	struct conn *cs = calloc(n, sizeof(*cs));
	uint8_t req[MMX_PROTO_HEADER_SIZE + sizeof(gs)];
	unsigned int i, ok = 0;
	struct wire_msg m;

	if (!cs)
		return 1;
	for (i = 0; i < n; i++) {
		cs[i].fd = -1;
		if (conn_open(&cs[i]) || hello(&cs[i], NULL))
			fail("client %u: cannot connect", i);
	}
	/* all ask, then all read, in reverse order */
	msg_put(req, MMX_MSG_GET_STATE, 77, &gs, sizeof(gs));
	for (i = 0; i < n && !failed; i++)
		if (conn_send(&cs[i], req, sizeof(req)))
			fail("client %u: send", i);
	for (i = n; i-- > 0 && !failed;) {
		if (conn_reply(&cs[i], &m) || m.h.sequence != 77 || m.r.error ||
		    !m.len) {
			fail("client %u: no state", i);
			continue;
		}
		free(m.raw);
		ok++;
	}
	for (i = 0; i < n; i++)
		conn_close(&cs[i]);
	free(cs);
	printf("many: %u of %u clients served\n", ok, n);
	return failed;
}

static int cmd_state_records(void)
{
	const size_t frame = MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE;
	struct mmx_proto_get_state gs = { .probe = 0 };
	static struct mmx_state back;
	uint8_t *enc = NULL;
	struct wire_msg rec;
	size_t enc_len = 0;
	struct conn c;
	int ret;

	if (conn_open(&c) || hello(&c, NULL)) {
		fail("state-records: cannot connect");
		return 1;
	}
	if (request(&c, MMX_MSG_GET_STATE, 2, &gs, sizeof(gs), &rec)) {
		conn_close(&c);
		return 1;
	}
	conn_close(&c);
	printf("state-records: GET_STATE reply %zu bytes\n", frame + rec.len);
	ret = mmx_wire_decode_state(rec.data, rec.len, &back);
	if (ret)
		fail("state-records: decoding: %d", ret);
	ret = ret ? ret : mmx_wire_encode_state(&back, &enc, &enc_len);
	if (ret)
		fail("state-records: encoding the decoded state: %d", ret);
	else if (enc_len != rec.len || memcmp(enc, rec.data, enc_len))
		fail("state-records: the records do not round-trip (%zu/%zu bytes)",
		     enc_len, rec.len);
	printf("state-records: %u outputs, %u CRTCs, %s\n",
	       mmx_state_noutputs(&back), mmx_state_ncrtcs(&back),
	       failed ? "differ" : "same state");
	free(enc);
	free(rec.raw);
	return failed;
}

static int cmd_api(void)
{
	struct mmx_display *d;
	struct mmx_state *s;
	struct mmx_config cfg;
	struct mmx_error err;
	uint32_t i, n = 0;
	int ret;

	if (open_remote(&d))
		return 1;
	if (!mmx_is_remote(d))
		fail("not remote");
	ret = mmx_get_screen_resources(d, &s);
	if (ret) {
		fail("state: %s", strerror(-ret));
		mmx_close(d);
		return 1;
	}
	if (!(mmx_state_flags(s) & MMX_STATE_REMOTE))
		fail("snapshot without MMX_STATE_REMOTE");
	print_config(s);

	/* the current configuration, TEST_ONLY: accepted */
	memset(&cfg, 0, sizeof(cfg));
	cfg.flags = MMX_CONFIG_TEST_ONLY;
	for (i = 0; i < mmx_state_ncrtcs(s); i++) {
		const struct mmx_crtc_info *c = mmx_state_crtc_at(s, i);
		struct mmx_output_change *ch;

		if (!c->mode_valid || !c->noutput)
			continue;
		ch = mmx_config_output(&cfg, c->outputs[0]);
		ch->flags = MMX_CHANGE_MODE | MMX_CHANGE_POS;
		ch->mode = c->mode;
		ch->x = c->x;
		ch->y = c->y;
	}
	ret = mmx_apply(d, &cfg, &err);
	if (ret)
		fail("TEST_ONLY apply of the current configuration: %s",
		     err.message);
	/* an output that does not exist: an error with a message */
	mmx_config_clear(&cfg);
	mmx_config_output(&cfg, 0xdead)->flags = MMX_CHANGE_OFF;
	ret = mmx_apply(d, &cfg, &err);
	printf("api: bad output: %d '%s'\n", ret, err.message);
	if (ret >= 0 || err.err != ret || !err.message[0])
		fail("bad output: %d '%s'", ret, err.message);

	/* each lit CRTC shows the screen's picture at its position */
	for (i = 0; i < mmx_state_ncrtcs(s) &&
		    (mmx_state_flags(s) & MMX_STATE_WRITEBACK); i++) {
		const struct mmx_crtc_info *c = mmx_state_crtc_at(s, i);
		uint32_t w, h, *px, x, y, bad = 0;

		if (!c->mode_valid || c->rotation != MMX_ROTATE_0 ||
		    !c->current.identity)
			continue;
		ret = mmx_capture(d, c->id, &w, &h, &px);
		if (ret) {
			fail("capture of CRTC %u: %s", c->id, strerror(-ret));
			continue;
		}
		if (w != c->mode.width || h != c->mode.height)
			fail("capture %ux%u, mode %ux%u", w, h, c->mode.width,
			     c->mode.height);
		for (y = 0; y < h && y < c->mode.height; y++)
			for (x = 0; x < w && x < c->mode.width; x++)
				if ((px[y * w + x] ^
				     mmx_screen_pattern((uint32_t)c->x + x,
							(uint32_t)c->y + y)) &
				    0xffffff)
					bad++;
		printf("api: CRTC %u capture %ux%u at +%d+%d: %u pixels differ\n",
		       c->id, w, h, c->x, c->y, bad);
		if (bad)
			fail("CRTC %u: %u pixels differ from the pattern",
			     c->id, bad);
		free(px);
		n++;
	}
	if ((mmx_state_flags(s) & MMX_STATE_WRITEBACK) && !n)
		fail("no CRTC captured");
	mmx_config_clear(&cfg);
	mmx_state_free(s);
	mmx_close(d);
	return failed;
}

static int usage(void)
{
	fprintf(stderr,
		"Usage: mmxd_fuzz [--socket PATH] [--uid N] [--gid N] hello [ERRNO]|config|fuzz N SEED|midreq|many N|api|state-records\n");
	return 2;
}

int main(int argc, char **argv)
{
	long uid = -1, gid = -1;
	int i = 1;

	sock_path = getenv("MMX_SOCKET");
	if (!sock_path)
		sock_path = MMX_DEFAULT_SOCKET;
	signal(SIGPIPE, SIG_IGN);
	for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
		if (!strcmp(argv[i], "--socket"))
			sock_path = argv[i + 1];
		else if (!strcmp(argv[i], "--uid"))
			uid = atol(argv[i + 1]);
		else if (!strcmp(argv[i], "--gid"))
			gid = atol(argv[i + 1]);
		else
			return usage();
	}
	if (i >= argc)
		return usage();
	if (gid >= 0 && (setgroups(0, NULL) || setgid((gid_t)gid))) {
		perror("setgid");
		return 2;
	}
	if (uid >= 0 && setuid((uid_t)uid)) {
		perror("setuid");
		return 2;
	}
	if (!strcmp(argv[i], "hello"))
		return cmd_hello(i + 1 < argc ? atoi(argv[i + 1]) : 0);
	if (!strcmp(argv[i], "config"))
		return cmd_config();
	if (!strcmp(argv[i], "fuzz") && i + 2 < argc)
		return cmd_fuzz((unsigned int)atoi(argv[i + 1]),
				strtoul(argv[i + 2], NULL, 0));
	if (!strcmp(argv[i], "midreq"))
		return cmd_midreq();
	if (!strcmp(argv[i], "many") && i + 1 < argc)
		return cmd_many((unsigned int)atoi(argv[i + 1]));
	if (!strcmp(argv[i], "api"))
		return cmd_api();
	if (!strcmp(argv[i], "state-records"))
		return cmd_state_records();
	return usage();
}
