// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd - the mmx display daemon (userspace/man/mmxd.8): owns a KMS device
 * (DRM master, the screen framebuffer) and serves libmmx clients over a
 * UNIX socket (Documentation/mmxd-protocol.rst).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <grp.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <xf86drm.h>

#include "mmxd.h"

#ifdef __SANITIZE_ADDRESS__
/*
 * The ASan/UBSan build (make SANITIZE=1): a UBSan report stops mmxd as an
 * ASan one does ($UBSAN_OPTIONS still has the last word).
 */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
	return "halt_on_error=1:print_stacktrace=1";
}
#endif

static void usage(FILE *f)
{
	fprintf(f,
		"Usage: mmxd [OPTION]...\n"
		"The mmx display daemon: holds a KMS device and serves libmmx clients.\n"
		"\n"
		"  -d, --device PATH   KMS device (default: the first with connectors)\n"
		"  -s, --socket PATH   listening socket (default $MMX_SOCKET or %s)\n"
		"  -g, --group GROUP, --socket-group GROUP\n"
		"                      group of the socket (name or number; mode\n"
		"                      0660); its members may connect\n"
		"  -f, --foreground    stay in the foreground (the default)\n"
		"  -p, --pidfile PATH  write the pid there\n"
		"      --no-light-up   do not light the outputs at startup\n"
		"      --max-clients N clients served at once (default %u)\n"
		"      --listen tcp:HOST:PORT\n"
		"                      also serve TCP clients there (HOST: a loopback\n"
		"                      address, default 127.0.0.1); they must send the\n"
		"                      cookie of --auth-file\n"
		"      --listen-any    allow a non-loopback --listen address\n"
		"      --auth-file PATH\n"
		"                      cookie file for TCP clients, written at startup\n"
		"                      (mode 0600; default %s)\n"
		"      --no-streams    no media streams (no decoder processes)\n"
		"      --decoders N    JPEG/MPEG decoder processes (default: the CPUs)\n"
		"      --audio-device PCM\n"
		"                      ALSA PCM for stream audio (default \"default\")\n"
		"      --no-audio      streams without audio only\n"
		"  -v, --verbose       log connections (twice: every request)\n"
		"Socket activation: with $LISTEN_PID and $LISTEN_FDS=1 (systemd's\n"
		"mmxd.socket), fd 3 is served instead of --socket.\n"
		"  -h, --help          show this help\n"
		"  -V, --version       show the version\n",
		MMX_DEFAULT_SOCKET, MMXD_MAX_CLIENTS, MMX_DEFAULT_AUTH_FILE);
}

static int parse_group(const char *arg, gid_t *gid)
{
	struct group *g;
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (*arg && !*end && !errno) {
		*gid = (gid_t)v;
		return 0;
	}
	g = getgrnam(arg);
	if (!g)
		return -ENOENT;
	*gid = g->gr_gid;
	return 0;
}

static int write_pidfile(const char *path)
{
	FILE *f = fopen(path, "we");

	if (!f)
		return -errno;
	fprintf(f, "%d\n", (int)getpid());
	if (fclose(f))
		return -errno;
	return 0;
}

/**
 * struct mmxd_args - what the command line asks for
 * @device: --device, or NULL: the first KMS device with connectors
 * @light: light the outputs at startup (not --no-light-up)
 * @sock_path: --socket, $MMX_SOCKET or the default
 * @group: --group, (gid_t)-1: none given
 * @pidfile: --pidfile, or NULL
 * @listen_tcp: --listen's HOST:PORT, or NULL
 * @listen_any: --listen-any
 * @auth_file: --auth-file
 * @streams: media streams (not --no-streams)
 * @decoders: --decoders, 0: the CPUs
 * @audio: stream audio (not --no-audio)
 * @audio_device: --audio-device, or NULL: "default"
 * @opts: the server's options (--max-clients, --verbose, then what the
 *	setup learns)
 */
struct mmxd_args {
	const char *device;
	int light;
	const char *sock_path;
	gid_t group;
	const char *pidfile;
	const char *listen_tcp;
	int listen_any;
	const char *auth_file;
	int streams;
	unsigned int decoders;
	int audio;
	const char *audio_device;
	struct mmxd_options opts;
};

/**
 * struct mmxd_daemon - what runs, undone by teardown() in reverse
 * @d: the display (DRM master while served)
 * @pool: the decoder pool, or NULL
 * @media_ctx: the media backend, or NULL
 * @media: the media streams, or NULL
 * @server: the server, or NULL
 * @sfd: the signalfd (SIGTERM, SIGINT, SIGHUP), or -1
 * @listen_fd: the listening UNIX socket, or -1
 * @tcp_fd: the TCP socket not yet handed to the server, or -1
 * @activated: @listen_fd came from the service manager (stays)
 * @listening: the server owns @listen_fd
 * @sock_path: where @listen_fd is bound (unlinked unless @activated)
 * @pidfile: the pid file written, or NULL
 * @auth_file: the cookie file written, or NULL
 * @sock_name: @sock_path's storage for an activated socket
 */
struct mmxd_daemon {
	struct mmx_display *d;
	struct mmx_decode_pool *pool;
	void *media_ctx;
	struct mmxd_media *media;
	struct mmxd_server *server;
	int sfd;
	int listen_fd;
	int tcp_fd;
	int activated;
	int listening;
	const char *sock_path;
	const char *pidfile;
	const char *auth_file;
	char sock_name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
};

/* A count option's value in 1..@max, or 0 (not a number or too large). */
static unsigned int parse_count(const char *arg, unsigned int max)
{
	char *end;
	unsigned int v = (unsigned int)strtoul(arg, &end, 10);

	return *end || v > max ? 0 : v;
}

/* The options whose value is checked: 0, or 2 after the message. */
static int parse_checked(struct mmxd_args *a, int opt, const char *arg)
{
	switch (opt) {
	case 'g':
		if (!parse_group(arg, &a->group))
			return 0;
		fprintf(stderr, "mmxd: unknown group '%s'\n", arg);
		return 2;
	case 'M':
		a->opts.max_clients = parse_count(arg, UINT_MAX);
		if (a->opts.max_clients)
			return 0;
		fprintf(stderr, "mmxd: bad --max-clients '%s'\n", arg);
		return 2;
	case 'l':
		if (!strncmp(arg, "tcp:", 4)) {
			a->listen_tcp = arg + 4;
			return 0;
		}
		fprintf(stderr, "mmxd: --listen '%s': tcp:HOST:PORT expected\n",
			arg);
		return 2;
	case 'D':
		a->decoders = parse_count(arg, MMX_DECODE_MAX_WORKERS);
		if (a->decoders)
			return 0;
		fprintf(stderr, "mmxd: bad --decoders '%s' (1..%u)\n", arg,
			MMX_DECODE_MAX_WORKERS);
		return 2;
	}
	fprintf(stderr, "Try 'mmxd --help' for more information.\n");
	return 2;
}

/**
 * struct arg_option - an option that keeps its argument or sets a flag
 * @opt: its getopt value
 * @field: where, in struct mmxd_args
 * @value: the flag's value (an int field), or -1: the argument (a string
 *	field)
 */
struct arg_option {
	int opt;
	size_t field;
	int value;
};

#define ARG_STRING(opt, f)	{ opt, offsetof(struct mmxd_args, f), -1 }
#define ARG_FLAG(opt, f, v)	{ opt, offsetof(struct mmxd_args, f), v }

static const struct arg_option arg_options[] = {
	ARG_STRING('d', device),
	ARG_STRING('s', sock_path),
	ARG_STRING('p', pidfile),
	ARG_STRING('a', auth_file),
	ARG_STRING('P', audio_device),
	ARG_FLAG('L', light, 0),
	ARG_FLAG('A', listen_any, 1),
	ARG_FLAG('S', streams, 0),
	ARG_FLAG('N', audio, 0),
};

/* One option: 0 to go on, else the exit status (-1: not handled here). */
static int parse_option(struct mmxd_args *a, int opt, const char *arg)
{
	unsigned int i;

	if (opt == 'f')
		return 0;	/* the foreground is the default */
	if (opt == 'v') {
		a->opts.verbose++;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(arg_options); i++) {
		const struct arg_option *o = &arg_options[i];
		char *field = (char *)a + o->field;

		if (o->opt != opt)
			continue;
		if (o->value < 0)
			*(const char **)field = arg;
		else
			*(int *)field = o->value;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "device", required_argument, NULL, 'd' },
	{ "socket", required_argument, NULL, 's' },
	{ "group", required_argument, NULL, 'g' },
	{ "socket-group", required_argument, NULL, 'g' },
	{ "foreground", no_argument, NULL, 'f' },
	{ "pidfile", required_argument, NULL, 'p' },
	{ "no-light-up", no_argument, NULL, 'L' },
	{ "max-clients", required_argument, NULL, 'M' },
	{ "listen", required_argument, NULL, 'l' },
	{ "listen-any", no_argument, NULL, 'A' },
	{ "auth-file", required_argument, NULL, 'a' },
	{ "no-streams", no_argument, NULL, 'S' },
	{ "decoders", required_argument, NULL, 'D' },
	{ "audio-device", required_argument, NULL, 'P' },
	{ "no-audio", no_argument, NULL, 'N' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
	{ NULL, 0, NULL, 0 },
};

/* The command line into @a: -1 to run, else the exit status. */
static int parse_args(int argc, char **argv, struct mmxd_args *a)
{
	int opt, ret;

	memset(a, 0, sizeof(*a));
	a->auth_file = MMX_DEFAULT_AUTH_FILE;
	a->streams = a->audio = a->light = 1;
	a->group = (gid_t)-1;
	mmxd_options_init(&a->opts);
	while ((opt = getopt_long(argc, argv, "d:s:g:fp:vhV", longopts,
				  NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 0;
		}
		if (opt == 'V') {
			printf("mmxd %s (protocol %u.%u)\n", MMXD_VERSION,
			       MMX_PROTO_MAJOR, MMX_PROTO_MINOR);
			return 0;
		}
		ret = parse_option(a, opt, optarg);
		if (ret < 0)
			ret = parse_checked(a, opt, optarg);
		if (ret)
			return ret;
	}
	if (optind < argc) {
		fprintf(stderr, "mmxd: unexpected argument '%s'\n"
			"Try 'mmxd --help' for more information.\n",
			argv[optind]);
		return 2;
	}
	if (!a->sock_path)
		a->sock_path = getenv("MMX_SOCKET");
	if (!a->sock_path || !*a->sock_path)
		a->sock_path = MMX_DEFAULT_SOCKET;
	return -1;
}

/* What error @err means: @msg when it is @err_msg, else strerror(). */
static const char *why(int err, int err_msg, const char *msg)
{
	return err == err_msg ? msg : strerror(-err);
}

/*
 * The socket the service manager passed (first: fd 3 must not leak into
 * anything we start), and who may connect: --group, else its file's
 * group. 0 or -1 after the message.
 */
static int take_activated_socket(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	struct stat sst;
	int ret = mmxd_socket_activated();

	dm->sock_path = a->sock_path;
	if (ret < 0) {
		mmxd_log(NULL, 0, "socket activation: fd %d: %s",
			 MMXD_LISTEN_FDS_START,
			 why(ret, -EINVAL,
			     "one listening stream socket expected"));
		return -1;
	}
	if (ret > 0) {
		dm->listen_fd = ret;
		dm->activated = 1;
		if (mmxd_socket_name(dm->listen_fd, dm->sock_name,
				     sizeof(dm->sock_name)))
			snprintf(dm->sock_name, sizeof(dm->sock_name),
				 "fd %d", dm->listen_fd);
		dm->sock_path = dm->sock_name;
		if (a->group == (gid_t)-1 && dm->sock_name[0] == '/' &&
		    !stat(dm->sock_name, &sst))
			a->group = sst.st_gid;
	}
	if (a->group != (gid_t)-1)
		a->opts.gid = a->group;
	return 0;
}

/*
 * SIGTERM, SIGINT and SIGHUP (a closed controlling terminal) as a
 * readable fd: each releases the display. 0 or -1 after the message.
 */
static int block_signals(struct mmxd_daemon *dm)
{
	sigset_t mask;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) ||
	    (dm->sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		perror("mmxd: signalfd");
		return -1;
	}
	return 0;
}

/*
 * The KMS device, as DRM master, its outputs lit (unless --no-light-up),
 * its driver and state flags in the options. 0 or -1 after the message.
 */
static int open_display(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	const char *what = a->device ? a->device : "the KMS device";
	struct mmx_state *st;
	int ret;

	ret = mmx_open(a->device ? a->device : "local", &dm->d);
	if (ret) {
		mmxd_log(NULL, 0, "cannot open %s: %s",
			 a->device ? a->device : "a KMS device", strerror(-ret));
		return -1;
	}
	if (!drmIsMaster(mmx_fd(dm->d)) && drmSetMaster(mmx_fd(dm->d))) {
		mmxd_log(NULL, 0,
			 "cannot become DRM master of %s (another display server runs?)",
			 what);
		return -1;
	}
	if (a->light) {
		ret = mmxd_light_up(dm->d, a->opts.verbose);
		if (ret > 0)
			mmxd_log(NULL, 0, "lit %d output(s)", ret);
	}
	ret = mmx_get_screen_resources_current(dm->d, &st);
	if (ret) {
		mmxd_log(NULL, 0, "reading the state failed: %s",
			 strerror(-ret));
		return -1;
	}
	snprintf(a->opts.driver, sizeof(a->opts.driver), "%s", st->driver);
	a->opts.state_flags = st->flags;
	mmx_state_free(st);
	return 0;
}

/*
 * The decoder pool (its workers start here, before any client) and the
 * media streams over it; without a pool, no streams. 0 or -1 after the
 * message.
 */
static int start_media(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	struct mmx_decode_config dc = { .workers = a->decoders };
	struct mmx_error err;
	int ret;

	if (!a->streams)
		return 0;
	memset(&err, 0, sizeof(err));
	ret = mmx_decode_pool_new(&dc, &dm->pool, &err);
	if (ret) {
		mmxd_log(NULL, 0, "no media streams: decoder pool: %s",
			 err.message[0] ? err.message : strerror(-ret));
		dm->pool = NULL;
		return 0;
	}
	ret = mmxd_kms_media_new(dm->d, dm->pool, a->audio_device,
				 &dm->media_ctx);
	if (!ret)
		ret = mmxd_media_new(a->audio ? &mmxd_kms_media_ops :
				     &mmxd_kms_media_ops_noaudio,
				     dm->media_ctx, &dm->media);
	if (ret) {
		mmxd_log(NULL, 0, "media streams: %s", strerror(-ret));
		return -1;
	}
	return 0;
}

/* --listen: the cookie file, then the TCP socket. 0 or -1. */
static int start_tcp(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	int ret;

	if (!a->listen_tcp)
		return 0;
	ret = mmxd_cookie_write(a->auth_file, a->opts.cookie,
				sizeof(a->opts.cookie));
	if (ret) {
		mmxd_log(NULL, 0, "auth file %s: %s", a->auth_file,
			 strerror(-ret));
		return -1;
	}
	dm->auth_file = a->auth_file;
	a->opts.tcp_auth = 1;
	dm->tcp_fd = mmxd_tcp_open(a->listen_tcp, a->listen_any);
	if (dm->tcp_fd < 0) {
		mmxd_log(NULL, 0, "--listen tcp:%s: %s", a->listen_tcp,
			 why(dm->tcp_fd, -EPERM,
			     "not a loopback address (see --listen-any)"));
		return -1;
	}
	return 0;
}

/* The UNIX socket, the service manager's or made here, served. 0 or -1. */
static int listen_unix(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	if (!dm->activated)
		dm->listen_fd = mmxd_socket_open(dm->sock_path, a->group);
	if (dm->listen_fd >= 0) {
		mmxd_server_listen(dm->server, dm->listen_fd);
		dm->listening = 1;
		return 0;
	}
	mmxd_log(NULL, 0, "socket %s: %s", dm->sock_path,
		 why(dm->listen_fd, -EADDRINUSE, "another mmxd listens there"));
	return -1;
}

/*
 * The server with its streams, its TCP socket and its UNIX socket (made
 * here unless the service manager passed it), then the pid file. 0 or -1.
 */
static int start_server(struct mmxd_args *a, struct mmxd_daemon *dm)
{
	int ret;

	ret = mmxd_server_new(&mmxd_display_ops, dm->d, &a->opts,
			      &dm->server);
	if (!ret && dm->media)
		ret = mmxd_server_set_media(dm->server, dm->media);
	if (ret) {
		mmxd_log(NULL, 0, "%s", strerror(-ret));
		return -1;
	}
	if (dm->tcp_fd >= 0) {
		mmxd_server_listen_tcp(dm->server, dm->tcp_fd);
		dm->tcp_fd = -1;
		mmxd_log(NULL, 0, "serving tcp:%s (cookie in %s)",
			 a->listen_tcp, a->auth_file);
	}
	if (listen_unix(a, dm))
		return -1;
	if (a->pidfile && (ret = write_pidfile(a->pidfile))) {
		mmxd_log(NULL, 0, "pidfile %s: %s", a->pidfile, strerror(-ret));
		return -1;
	}
	dm->pidfile = a->pidfile;
	return 0;
}

/* Serve until a signal (0) or a poll failure (1). */
static int serve(struct mmxd_daemon *dm)
{
	struct signalfd_siginfo si;
	int ret;

	for (;;) {
		ret = mmxd_server_step(dm->server, -1, dm->sfd);
		if (ret < 0) {
			mmxd_log(NULL, 0, "poll: %s", strerror(-ret));
			return 1;
		}
		if (ret == 1 && read(dm->sfd, &si, sizeof(si)) == sizeof(si)) {
			mmxd_log(NULL, 0, "%s: releasing the display",
				 strsignal((int)si.ssi_signo));
			return 0;
		}
	}
}

/* Clients first, then the socket, then master and the device. */
static void teardown(struct mmxd_daemon *dm)
{
	mmxd_server_free(dm->server);
	mmxd_media_free(dm->media);
	mmxd_kms_media_free(dm->media_ctx);
	mmx_decode_pool_free(dm->pool);
	if (dm->tcp_fd >= 0)
		close(dm->tcp_fd);
	if (dm->auth_file)
		unlink(dm->auth_file);
	/* the service manager's socket stays for the next start */
	if (dm->listen_fd >= 0 && !dm->activated)
		unlink(dm->sock_path);
	if (dm->listen_fd >= 0 && !dm->listening)
		close(dm->listen_fd);
	if (dm->pidfile)
		unlink(dm->pidfile);
	if (dm->d) {
		if (drmIsMaster(mmx_fd(dm->d)))
			drmDropMaster(mmx_fd(dm->d));
		mmx_close(dm->d);
	}
	if (dm->sfd >= 0)
		close(dm->sfd);
}

int main(int argc, char **argv)
{
	struct mmxd_daemon dm = { .sfd = -1, .listen_fd = -1, .tcp_fd = -1 };
	struct mmxd_args a;
	int status;

	status = parse_args(argc, argv, &a);
	if (status >= 0)
		return status;
	if (take_activated_socket(&a, &dm) || block_signals(&dm))
		return 1;
	status = 1;
	if (!open_display(&a, &dm) && !start_media(&a, &dm) &&
	    !start_tcp(&a, &dm) && !start_server(&a, &dm)) {
		mmxd_log(NULL, 0, "serving %s%s (driver %s, protocol %u.%u)",
			 dm.sock_path, dm.activated ? " (socket activation)" : "",
			 a.opts.driver, MMX_PROTO_MAJOR, MMX_PROTO_MINOR);
		status = serve(&dm);
	}
	teardown(&dm);
	return status;
}
