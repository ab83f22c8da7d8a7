// SPDX-License-Identifier: GPL-2.0-only
/*
 * mmxd's server on a real listening UNIX socket (mmxd_socket_open() in a
 * temporary directory) with a fake display: the client limit counts live
 * clients only, a burst of connections waits in the listen backlog instead
 * of failing with EAGAIN, a storm of 1000 connect/close cycles while a
 * well-behaved client keeps being answered, and socket activation (a
 * socket passed as systemd does: fd 3, $LISTEN_PID, $LISTEN_FDS).
 *
 * No check depends on timing: the server of the storm runs in its own
 * process, stopped (SIGSTOP) for the part that must pile connections up,
 * and the checks are on counts and answers.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "unit.h"
#include "mmxd.h"
#include "mmx_wire.h"
#include "mmxd_client_harness.h"
#include "mmx_state_build.h"

/* ---- the fake display --------------------------------------------------- */

static void fake_fill(struct mmx_state *s)
{
	static const char *const names[] = { "VGA-1" };

	t_state_small(s, "fake", MMX_STATE_MMX_DRIVER, 1, 40, 1, 50, names);
	s->screen_width = 1280;
	s->screen_height = 800;
}

/* What the display shows: fake_fill()'s state. */
static struct mmx_state shown;

/* ---- harness ------------------------------------------------------------ */

static char dir[64], path[128];

static int server_start(unsigned int max_clients)
{
	struct mmxd_options o;

	mmxd_options_init(&o);
	o.max_clients = max_clients;
	strcpy(o.driver, "fake");
	o.state_flags = MMX_STATE_MMX_DRIVER;
	fake_fill(&shown);
	quiet_state_shown = &shown;
	return mmxd_server_new(&quiet_display_ops, NULL, &o, &srv);
}

/* A server listening on a fresh socket in a fresh directory. */
static int server_listen(unsigned int max_clients)
{
	int fd;

	strcpy(dir, "/tmp/mmxd-socket-XXXXXX");
	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/mmxd.sock", dir);
	fd = mmxd_socket_open(path, (gid_t)-1);
	if (fd < 0)
		return fd;
	if (server_start(max_clients)) {
		close(fd);
		return -ENOMEM;
	}
	mmxd_server_listen(srv, fd);
	return 0;
}

static void server_stop(void)
{
	mmxd_server_free(srv);
	srv = NULL;
	unlink(path);
	rmdir(dir);
}

/* Connect to @path; @nonblock: without waiting (-EAGAIN: backlog full). */
static int client_connect(int nonblock)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct timeval tv = { .tv_sec = 60 };
	int fd, ret;

	strcpy(sa.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC |
		    (nonblock ? SOCK_NONBLOCK : 0), 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		ret = -errno;
		close(fd);
		return ret;
	}
	/* a stuck server fails the test instead of hanging it */
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	if (nonblock)
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
	return fd;
}

/*
 * Read @len bytes, stepping the in-process server meanwhile (srv NULL:
 * the server runs in another process and the socket's timeout bounds the
 * wait). 0 or -errno.
 */
static int read_full(int fd, void *buf, size_t len)
{
	uint8_t *p = buf;
	int rounds = 100000;

	while (len) {
		ssize_t n = recv(fd, p, len, srv ? MSG_DONTWAIT : 0);

		if (n == 0)
			return -ECONNRESET;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN && srv && rounds--) {
			mmxd_server_step(srv, 1, -1);
			continue;
		}
		if (n < 0)
			return errno == EAGAIN ? -ETIMEDOUT : -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * Receive one REPLY on @fd: its error, or a transport error below -10000.
 * Its data (after struct mmx_proto_reply) in a malloc'ed *@data.
 */
static int recv_reply(int fd, uint32_t seq, uint16_t type, void **data,
		      size_t *len)
{
	uint8_t hdr[MMX_PROTO_HEADER_SIZE];
	struct mmx_proto_header h;
	struct mmx_proto_reply r;
	uint8_t *p;
	int ret;

	ret = read_full(fd, hdr, sizeof(hdr));
	if (ret)
		return ret - 10000;
	mmx_wire_get_header(hdr, &h);
	if (h.type != MMX_MSG_REPLY ||
	    h.length < MMX_PROTO_HEADER_SIZE + MMX_PROTO_REPLY_SIZE ||
	    h.length > MMX_PROTO_MAX_REPLY)
		return -10000 - EPROTO;
	p = malloc(h.length - MMX_PROTO_HEADER_SIZE);
	if (!p)
		return -10000 - ENOMEM;
	ret = read_full(fd, p, h.length - MMX_PROTO_HEADER_SIZE);
	if (ret) {
		free(p);
		return ret - 10000;
	}
	memcpy(&r, p, sizeof(r));
	/* a refusal comes unsolicited: sequence 0, request 0 */
	if (r.error && !h.sequence && !r.request) {
		free(p);
		return r.error;
	}
	if (h.sequence != seq || r.request != type) {
		free(p);
		return -10000 - EPROTO;
	}
	if (data) {
		*len = h.length - MMX_PROTO_HEADER_SIZE - MMX_PROTO_REPLY_SIZE;
		*data = malloc(*len ? *len : 1);
		if (*data)
			memcpy(*data, p + MMX_PROTO_REPLY_SIZE, *len);
	}
	free(p);
	return r.error;
}

static int request(int fd, uint16_t type, uint32_t seq, const void *payload,
		   size_t plen, void **data, size_t *len)
{
	int ret = mmx_wire_send(fd, type, seq, payload, plen, NULL, 0);

	if (ret)
		return ret - 10000;
	return recv_reply(fd, seq, type, data, len);
}

static int hello(int fd)
{
	struct mmx_proto_hello h;
	struct mmx_proto_hello_reply *hr = NULL;
	size_t len = 0;
	int ret;

	hello_init(&h);
	strcpy(h.client, "storm");
	ret = request(fd, MMX_MSG_HELLO, 1, &h, sizeof(h), (void **)&hr, &len);
	if (!ret && (len < sizeof(*hr) || strcmp(hr->driver, "fake")))
		ret = -10000 - EPROTO;
	free(hr);
	return ret;
}

/* GET_STATE: 0 when the answer is the fake display's state. */
static int get_state_ok(int fd, uint32_t seq)
{
	static struct mmx_state st, want;
	struct mmx_proto_get_state gs = { .probe = 0 };
	uint8_t *rec = NULL;
	size_t len = 0;
	int ret;

	ret = request(fd, MMX_MSG_GET_STATE, seq, &gs, sizeof(gs), (void **)&rec,
		      &len);
	if (ret) {
		free(rec);
		return ret;
	}
	fake_fill(&want);
	if (mmx_wire_decode_state(rec, len, &st) ||
	    strcmp(st.driver, want.driver) ||
	    st.screen_width != want.screen_width ||
	    st.screen_height != want.screen_height || st.ncrtc != 1 ||
	    st.crtcs[0].id != 40 || st.noutput != 1 ||
	    strcmp(st.outputs[0].name, "VGA-1"))
		ret = -10000 - EPROTO;
	free(rec);
	return ret;
}

static uint64_t ms_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

/* ---- the limit and the backlog ------------------------------------------ */

/*
 * Clients that connected and closed before mmxd accepted them are not
 * clients: a live one accepted in the same round is served, and the
 * limit still refuses the live client beyond it.
 */
static int test_closed_not_counted(void)
{
	struct mmxd_server_stats st;
	int keeper, late, more[3], extra, i, fd;

	UNIT_CHECK(!server_listen(4), "server");
	keeper = client_connect(1);
	UNIT_CHECK(keeper >= 0, "keeper: %d", keeper);
	CHECK_ERR(hello(keeper), 0);
	/* 20 clients come and go while mmxd is busy elsewhere */
	for (i = 0; i < 20; i++) {
		fd = client_connect(1);
		UNIT_CHECK(fd >= 0, "client %d: %d", i, fd);
		close(fd);
	}
	late = client_connect(1);
	UNIT_CHECK(late >= 0, "late client: %d", late);
	CHECK_ERR(hello(late), 0);
	CHECK_ERR(get_state_ok(late, 2), 0);
	UNIT_CHECK(mmxd_server_nlive(srv) == 2, "%u live clients",
		   mmxd_server_nlive(srv));
	/* the limit: 4 live clients are served, the fifth is refused */
	for (i = 0; i < 2; i++) {
		more[i] = client_connect(1);
		UNIT_CHECK(more[i] >= 0, "client %d", i);
		CHECK_ERR(hello(more[i]), 0);
	}
	extra = client_connect(1);
	UNIT_CHECK(extra >= 0, "extra client");
	CHECK_ERR(hello(extra), -EBUSY);
	close(extra);
	/* one leaves: there is room again */
	close(more[0]);
	more[2] = client_connect(1);
	UNIT_CHECK(more[2] >= 0, "client");
	CHECK_ERR(hello(more[2]), 0);
	CHECK_ERR(get_state_ok(keeper, 3), 0);
	mmxd_server_get_stats(srv, &st);
	UNIT_CHECK(st.refused_busy == 1, "%lu refused for the limit",
		   st.refused_busy);
	UNIT_CHECK(st.connections == 26, "%lu connections", st.connections);
	close(more[1]);
	close(more[2]);
	close(late);
	close(keeper);
	UNIT_CHECK(clients_gone(3), "clients left");
	server_stop();
	return 0;
}

/* A burst of connections waits in the backlog: no connect gets EAGAIN. */
static int test_burst_backlog(void)
{
	enum { BURST = 300 };
	static int fds[BURST];
	unsigned int eagain = 0;
	int i;

	UNIT_CHECK(!server_listen(BURST + 1), "server");
	for (i = 0; i < BURST; i++) {
		fds[i] = client_connect(1);
		if (fds[i] == -EAGAIN)
			eagain++;
		UNIT_CHECK(fds[i] >= 0 || fds[i] == -EAGAIN, "connect %d: %d",
			   i, fds[i]);
	}
	UNIT_CHECK(!eagain, "%u of %d connects got EAGAIN", eagain, BURST);
	for (i = 0; i < BURST; i++)
		CHECK_ERR(request(fds[i], MMX_MSG_PING, 100 + (uint32_t)i, NULL,
				  0, NULL, NULL), 0);
	UNIT_CHECK(mmxd_server_nlive(srv) == BURST, "%u live clients",
		   mmxd_server_nlive(srv));
	for (i = 0; i < BURST; i++)
		close(fds[i]);
	UNIT_CHECK(clients_gone(3), "clients left");
	server_stop();
	return 0;
}

/* ---- the storm ------------------------------------------------------------ */

#define STORM_MAX_CLIENTS	16
#define STORM_FROZEN		200	/* cycles while the server is stopped */
#define STORM_WORKERS		4
#define STORM_CYCLES		200	/* per worker, with the server running */

/* What a storm client did, summed up by each process. */
struct storm_counts {
	unsigned long cycles, eagain, answered, busy, bad;
};

/*
 * One connect/close cycle of kind @i % 4: close at once, send PING and
 * close without reading, HELLO and GET_STATE answered, leave mid-request.
 * @wait: kinds that wait for an answer are allowed.
 */
static void storm_cycle(unsigned int i, int wait, struct storm_counts *n)
{
	static const uint8_t partial[5] = { 0x40, 0, 0, 0, 0x01 };
	unsigned int kind = wait ? i % 4 : (i % 3 == 2 ? 3 : i % 3);
	int fd, ret;

	n->cycles++;
	fd = client_connect(1);
	if (fd == -EAGAIN) {
		n->eagain++;
		return;
	}
	if (fd < 0) {
		n->bad++;
		return;
	}
	switch (kind) {
	case 0:
		break;
	case 1:
		mmx_wire_send(fd, MMX_MSG_PING, i, NULL, 0, NULL, 0);
		break;
	case 2:
		ret = hello(fd);
		if (!ret)
			ret = get_state_ok(fd, 2);
		if (ret == -EBUSY)
			n->busy++;
		else if (ret)
			n->bad++;
		else
			n->answered++;
		break;
	case 3:
		if (send(fd, partial, sizeof(partial), MSG_NOSIGNAL) < 0)
			n->bad++;
		break;
	}
	close(fd);
}

/* The server's process: serve until @stop is readable, then report. */
static void storm_server(int stop, int report)
{
	struct mmxd_server_stats st;
	unsigned int left[2];

	for (;;) {
		int ret = mmxd_server_step(srv, -1, stop);

		if (ret)
			break;
	}
	/* what is left of the clients once they all went */
	pump(3);
	mmxd_server_get_stats(srv, &st);
	left[0] = mmxd_server_nclients(srv);
	left[1] = mmxd_server_nlive(srv);
	if (write(report, &st, sizeof(st)) != sizeof(st) ||
	    write(report, left, sizeof(left)) != sizeof(left))
		_exit(3);
	mmxd_server_free(srv);
	_exit(0);
}

/* The in-process server, moved to a process of its own (storm_server). */
struct forked_server {
	pid_t pid;
	int stop;		/* written to: the server reports and exits */
	int report;		/* its stats and the clients left */
};

/*
 * A server listening as server_listen() makes it, run by a child process
 * until forked_server_end(); the parent's copy is freed (srv NULL from
 * then on). 0 or -errno.
 */
static int forked_server_start(unsigned int max_clients,
			       struct forked_server *fs)
{
	int stop[2], report[2], ret;

	ret = server_listen(max_clients);
	if (ret)
		return ret;
	if (pipe2(stop, O_CLOEXEC))
		return -errno;
	if (pipe2(report, O_CLOEXEC))
		return -errno;
	fs->pid = fork();
	if (fs->pid < 0)
		return -errno;
	if (!fs->pid) {
		/* a failed check leaves no stopped server behind */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close(stop[1]);
		storm_server(stop[0], report[1]);
	}
	close(stop[0]);
	close(report[1]);
	fs->stop = stop[1];
	fs->report = report[0];
	mmxd_server_free(srv);
	srv = NULL;
	return 0;
}

/*
 * Stop the forked server: its stats in @st, its clients and live clients
 * left in @left. NULL, or what went wrong.
 */
static const char *forked_server_end(struct forked_server *fs,
				     struct mmxd_server_stats *st,
				     unsigned int left[2])
{
	const char *fail = NULL;
	int status;

	if (write(fs->stop, "x", 1) != 1)
		fail = "stop";
	close(fs->stop);
	if (!fail && (read(fs->report, st, sizeof(*st)) != sizeof(*st) ||
		      read(fs->report, left, 2 * sizeof(*left)) !=
		      2 * sizeof(*left)))
		fail = "no report from the server";
	close(fs->report);
	if (!fail && (waitpid(fs->pid, &status, 0) != fs->pid ||
		      !WIFEXITED(status) || WEXITSTATUS(status)))
		fail = "server exit status not 0";
	unlink(path);
	rmdir(dir);
	return fail;
}

static int test_storm(void)
{
	struct storm_counts frozen = { 0 }, workers = { 0 }, w;
	struct mmxd_server_stats st;
	unsigned long keeper_ok = 0, keeper_bad = 0;
	unsigned int left[2], i, done = 0;
	struct forked_server server;
	int results[2], keeper, late, fds[16], ret;
	pid_t pid[STORM_WORKERS];
	const char *fail;
	uint32_t seq = 10;
	uint64_t t0, t_frozen, t_all;

	ret = forked_server_start(STORM_MAX_CLIENTS, &server);
	UNIT_CHECK(!ret, "server: %d", ret);

	keeper = client_connect(1);
	UNIT_CHECK(keeper >= 0, "keeper");
	CHECK_ERR(hello(keeper), 0);
	t0 = ms_now();

	/* frozen: connections pile up in the backlog, then mmxd catches up */
	UNIT_CHECK(!kill(server.pid, SIGSTOP), "SIGSTOP");
	for (i = 0; i < STORM_FROZEN; i++)
		storm_cycle(i, 0, &frozen);
	late = client_connect(1);
	UNIT_CHECK(late >= 0, "late client: %d", late);
	UNIT_CHECK(!kill(server.pid, SIGCONT), "SIGCONT");
	CHECK_ERR(hello(late), 0);
	CHECK_ERR(get_state_ok(keeper, seq++), 0);
	close(late);
	t_frozen = ms_now() - t0;

	/* running: workers storm while the keeper keeps asking */
	UNIT_CHECK(!pipe2(results, O_CLOEXEC), "pipe");
	for (i = 0; i < STORM_WORKERS; i++) {
		pid[i] = fork();
		UNIT_CHECK(pid[i] >= 0, "fork");
		if (!pid[i]) {
			struct storm_counts n = { 0 };
			unsigned int k;

			prctl(PR_SET_PDEATHSIG, SIGKILL);
			close(keeper);
			for (k = 0; k < STORM_CYCLES; k++)
				storm_cycle(k + i, 1, &n);
			_exit(write(results[1], &n, sizeof(n)) == sizeof(n) ?
			      0 : 3);
		}
	}
	close(results[1]);
	while (done < STORM_WORKERS) {
		ret = seq % 8 ? request(keeper, MMX_MSG_PING, seq, NULL, 0,
					NULL, NULL) :
				get_state_ok(keeper, seq);
		seq++;
		if (ret)
			keeper_bad++;
		else
			keeper_ok++;
		for (i = 0; i < STORM_WORKERS; i++) {
			if (pid[i] > 0 && waitpid(pid[i], NULL, WNOHANG) > 0) {
				pid[i] = 0;
				done++;
			}
		}
		if (keeper_bad)
			break;
	}
	for (i = 0; i < STORM_WORKERS; i++)
		if (pid[i] > 0)
			waitpid(pid[i], NULL, 0);
	t_all = ms_now() - t0;
	while (read(results[0], &w, sizeof(w)) == sizeof(w)) {
		workers.cycles += w.cycles;
		workers.eagain += w.eagain;
		workers.answered += w.answered;
		workers.busy += w.busy;
		workers.bad += w.bad;
	}
	close(results[0]);

	/* afterwards nobody stale is counted: 15 more fill the limit */
	for (i = 0; i < STORM_MAX_CLIENTS - 1; i++) {
		fds[i] = client_connect(1);
		UNIT_CHECK(fds[i] >= 0, "client %u", i);
		CHECK_ERR(hello(fds[i]), 0);
	}
	CHECK_ERR(get_state_ok(keeper, seq++), 0);
	for (i = 0; i < STORM_MAX_CLIENTS - 1; i++)
		close(fds[i]);
	close(keeper);

	fail = forked_server_end(&server, &st, left);
	UNIT_CHECK(!fail, "%s", fail);

	printf("  storm: %lu+%lu connect/close cycles in %llu ms",
	       frozen.cycles, workers.cycles, (unsigned long long)t_all);
	printf(" (the first %lu in %llu ms, server stopped),\n",
	       frozen.cycles, (unsigned long long)t_frozen);
	printf("  keeper: %lu requests answered; storm clients answered: %lu;\n",
	       keeper_ok, workers.answered);
	printf("  server: %lu connections, %lu refused (limit %u), at most %u live\n",
	       st.connections, st.refused_busy, STORM_MAX_CLIENTS, st.max_live);
	UNIT_CHECK(!keeper_bad, "the keeper got %lu bad answers", keeper_bad);
	UNIT_CHECK(keeper_ok > 0, "the keeper was never answered");
	UNIT_CHECK(!frozen.eagain && !workers.eagain,
		   "%lu+%lu connects got EAGAIN", frozen.eagain,
		   workers.eagain);
	UNIT_CHECK(!frozen.bad && !workers.bad, "%lu+%lu failed cycles",
		   frozen.bad, workers.bad);
	UNIT_CHECK(frozen.cycles + workers.cycles ==
		   STORM_FROZEN + STORM_WORKERS * STORM_CYCLES,
		   "%lu cycles", frozen.cycles + workers.cycles);
	UNIT_CHECK(!workers.busy && !st.refused_busy,
		   "%lu clients refused as too many (%lu by the server)",
		   workers.busy, st.refused_busy);
	UNIT_CHECK(workers.answered == STORM_WORKERS * STORM_CYCLES / 4,
		   "%lu storm clients answered", workers.answered);
	/* keeper, late, the cycles, the 15 */
	UNIT_CHECK(st.connections == 2 + STORM_FROZEN +
		   STORM_WORKERS * STORM_CYCLES + STORM_MAX_CLIENTS - 1,
		   "%lu connections", st.connections);
	UNIT_CHECK(left[0] == 0 && left[1] == 0,
		   "%u connections, %u live left", left[0], left[1]);
	return 0;
}

/* ---- the protocol fuzzer ------------------------------------------------ */

/* tests/igt's mmxd_fuzz: $MMXD_FUZZ, else build/igt next to build[/asan]/unit. */
static int fuzzer_path(char *out, size_t size)
{
	static const char *const rel[] = { "../igt/mmxd_fuzz",
					   "../../igt/mmxd_fuzz" };
	const char *env = getenv("MMXD_FUZZ");
	char exe[4096], *slash;
	ssize_t n;
	size_t i;

	if (env && *env) {
		snprintf(out, size, "%s", env);
		return access(out, X_OK) ? -errno : 0;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return -errno;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (slash)
		*slash = 0;
	for (i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		snprintf(out, size, "%s/%s", exe, rel[i]);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* Run mmxd_fuzz --socket PATH @args...; its exit status. */
static int run_fuzzer(const char *fuzzer, const char *const *args)
{
	const char *argv[8];
	int n = 0, status;
	pid_t pid;

	argv[n++] = fuzzer;
	argv[n++] = "--socket";
	argv[n++] = path;
	while (*args && n < 7)
		argv[n++] = *args++;
	argv[n] = NULL;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		execv(fuzzer, (char *const *)argv);
		_exit(127);
	}
	if (waitpid(pid, &status, 0) != pid)
		return -1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

/*
 * The guest's protocol fuzzer (tests/igt/mmxd_fuzz, what mmxd_check runs
 * against the real mmxd) against this server: random messages, clients
 * leaving mid-request, many at once. In the sanitizer build (make
 * SANITIZE=1) the server is the instrumented one.
 */
static int test_protocol_fuzzer(void)
{
	static const char *const hello_args[] = { "hello", NULL };
	static const char *const many[] = { "many", "32", NULL };
	static const char *const fuzz[] = { "fuzz", "20000", "1", NULL };
	static const char *const midreq[] = { "midreq", NULL };
	static const char *const *const runs[] = { hello_args, many, fuzz,
						   midreq, hello_args };
	struct mmxd_server_stats st;
	char fuzzer[4200];
	unsigned int left[2], i;
	struct forked_server server;
	int ret, keeper;
	const char *fail;

	UNIT_CHECK(!fuzzer_path(fuzzer, sizeof(fuzzer)),
		   "no mmxd_fuzz: make tests (build/igt) or $MMXD_FUZZ");
	ret = forked_server_start(MMXD_MAX_CLIENTS, &server);
	UNIT_CHECK(!ret, "server: %d", ret);

	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		ret = run_fuzzer(fuzzer, runs[i]);
		UNIT_CHECK(ret == 0, "mmxd_fuzz %s: exit status %d", runs[i][0],
			   ret);
	}
	keeper = client_connect(1);
	UNIT_CHECK(keeper >= 0, "connect");
	CHECK_ERR(hello(keeper), 0);
	CHECK_ERR(get_state_ok(keeper, 2), 0);
	close(keeper);

	fail = forked_server_end(&server, &st, left);
	UNIT_CHECK(!fail, "%s", fail);
	printf("  protocol fuzzer: %lu connections, %lu refused\n",
	       st.connections, st.refused_busy + st.refused_access +
	       st.refused_other);
	UNIT_CHECK(left[0] == 0, "%u connections left", left[0]);
	return 0;
}

/* ---- socket activation ---------------------------------------------------- */

/*
 * Put a listening socket bound to @path on fd 3, as systemd does, with
 * $LISTEN_PID @pid and $LISTEN_FDS @nfds.
 */
static int activation_env(pid_t pid, const char *nfds)
{
	char buf[32];
	int fd;

	fd = mmxd_socket_open(path, (gid_t)-1);
	if (fd < 0)
		return fd;
	if (fd != 3) {
		if (dup2(fd, 3) != 3)
			return -errno;
		close(fd);
	}
	/* systemd hands it over without O_NONBLOCK and without CLOEXEC */
	fcntl(3, F_SETFL, fcntl(3, F_GETFL) & ~O_NONBLOCK);
	fcntl(3, F_SETFD, 0);
	snprintf(buf, sizeof(buf), "%d", (int)pid);
	setenv("LISTEN_PID", buf, 1);
	setenv("LISTEN_FDS", nfds, 1);
	setenv("LISTEN_FDNAMES", "mmxd.socket", 1);
	return 0;
}

static int make_dir(void)
{
	strcpy(dir, "/tmp/mmxd-socket-XXXXXX");
	if (!mkdtemp(dir))
		return -errno;
	snprintf(path, sizeof(path), "%s/mmxd.sock", dir);
	return 0;
}

static int test_activation(void)
{
	char name[sizeof(((struct sockaddr_un *)0)->sun_path)];
	int fd, keeper;

	UNIT_CHECK(!make_dir(), "dir");
	UNIT_CHECK(!activation_env(getpid(), "1"), "fd 3");
	fd = mmxd_socket_activated();
	UNIT_CHECK(fd == 3, "activation gave %d", fd);
	UNIT_CHECK(!getenv("LISTEN_PID") && !getenv("LISTEN_FDS") &&
		   !getenv("LISTEN_FDNAMES"),
		   "the variables stay for our children");
	UNIT_CHECK((fcntl(fd, F_GETFD) & FD_CLOEXEC) &&
		   (fcntl(fd, F_GETFL) & O_NONBLOCK),
		   "fd 3 not made CLOEXEC and non-blocking");
	UNIT_CHECK(!mmxd_socket_name(fd, name, sizeof(name)) &&
		   !strcmp(name, path), "name '%s'", name);
	/* a second look: not activated any more (the variables are gone) */
	CHECK_ERR(mmxd_socket_activated(), 0);
	UNIT_CHECK(!server_start(4), "server");
	mmxd_server_listen(srv, fd);
	keeper = client_connect(1);
	UNIT_CHECK(keeper >= 0, "connect");
	CHECK_ERR(hello(keeper), 0);
	CHECK_ERR(get_state_ok(keeper, 2), 0);
	close(keeper);
	server_stop();
	UNIT_CHECK(fcntl(3, F_GETFD) < 0, "fd 3 not closed with the server");
	return 0;
}

static int test_activation_refused(void)
{
	int sv[2];

	UNIT_CHECK(!make_dir(), "dir");
	/* nothing passed */
	unsetenv("LISTEN_PID");
	unsetenv("LISTEN_FDS");
	CHECK_ERR(mmxd_socket_activated(), 0);
	/* meant for another process: ignored, fd 3 left alone */
	UNIT_CHECK(!activation_env(getpid() + 1, "1"), "fd 3");
	CHECK_ERR(mmxd_socket_activated(), 0);
	UNIT_CHECK(fcntl(3, F_GETFD) == 0, "fd 3 touched");
	/* no socket passed */
	close(3);
	unlink(path);
	UNIT_CHECK(!activation_env(getpid(), "0"), "fd 3");
	CHECK_ERR(mmxd_socket_activated(), 0);
	/* two sockets, a garbage count */
	close(3);
	unlink(path);
	UNIT_CHECK(!activation_env(getpid(), "2"), "fd 3");
	CHECK_ERR(mmxd_socket_activated(), -EINVAL);
	close(3);
	unlink(path);
	UNIT_CHECK(!activation_env(getpid(), "1x"), "fd 3");
	CHECK_ERR(mmxd_socket_activated(), -EINVAL);
	close(3);
	unlink(path);
	/* fd 3 is no listening socket, or none at all */
	UNIT_CHECK(!activation_env(getpid(), "1"), "fd 3");
	UNIT_CHECK(!socketpair(AF_UNIX, SOCK_STREAM, 0, sv), "socketpair");
	UNIT_CHECK(dup2(sv[0], 3) == 3, "dup2");
	CHECK_ERR(mmxd_socket_activated(), -EINVAL);
	close(sv[0]);
	close(sv[1]);
	close(3);
	UNIT_CHECK(!activation_env(getpid(), "1"), "fd 3");
	close(3);
	UNIT_CHECK(open("/dev/null", O_RDONLY) == 3, "fd 3");
	CHECK_ERR(mmxd_socket_activated(), -ENOTSOCK);
	close(3);
	unlink(path);
	rmdir(dir);
	return 0;
}

/* mmxd's own socket: mode 0660, the group given. */
static int test_socket_group(void)
{
	struct stat st;
	gid_t groups[64];
	int fd, n, i;
	gid_t gid = getegid();

	/* a supplementary group of ours if there is one (chown needs it) */
	n = getgroups(64, groups);
	for (i = 0; i < n; i++)
		if (groups[i] != getegid())
			gid = groups[i];
	UNIT_CHECK(!make_dir(), "dir");
	fd = mmxd_socket_open(path, gid);
	UNIT_CHECK(fd >= 0, "socket: %d", fd);
	UNIT_CHECK(!stat(path, &st), "stat");
	UNIT_CHECK(S_ISSOCK(st.st_mode) && (st.st_mode & 07777) == 0660,
		   "mode 0%o", (unsigned int)st.st_mode);
	UNIT_CHECK(st.st_gid == gid, "group %u, want %u",
		   (unsigned int)st.st_gid, (unsigned int)gid);
	/* a second daemon on the same path is refused */
	CHECK_ERR(mmxd_socket_open(path, (gid_t)-1), -EADDRINUSE);
	mmxd_socket_close(fd, path);
	rmdir(dir);
	return 0;
}

static const struct unit_case cases[] = {
	{ "closed-not-counted", "clients gone before accept() do not count against --max-clients",
	  test_closed_not_counted },
	{ "burst-backlog", "300 connects at once wait in the backlog (no EAGAIN), all answered",
	  test_burst_backlog },
	{ "storm", "1000 connect/close cycles while a client keeps being answered",
	  test_storm },
	{ "protocol-fuzzer", "tests/igt's mmxd_fuzz (hello, many, fuzz, midreq) against the server",
	  test_protocol_fuzzer },
	{ "activation", "a socket passed on fd 3 with LISTEN_PID/LISTEN_FDS is served",
	  test_activation },
	{ "activation-refused", "another pid's, none, two, garbage and non-listening fds",
	  test_activation_refused },
	{ "socket-group", "the socket is 0660 with the given group; a second daemon refused",
	  test_socket_group },
};

int main(int argc, char **argv)
{
	struct rlimit rl;

	/* the burst needs 2 x 300 descriptors */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < 1024 &&
	    rl.rlim_max >= 1024) {
		rl.rlim_cur = 1024;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	signal(SIGPIPE, SIG_IGN);
	return UNIT_RUN(cases, argc, argv);
}
