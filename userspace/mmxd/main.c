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
#include <grp.h>
#include <signal.h>
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

int main(int argc, char **argv)
{
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
	const char *device = NULL, *sock_path = NULL, *pidfile = NULL;
	const char *listen_tcp = NULL, *auth_file = MMX_DEFAULT_AUTH_FILE;
	const char *audio_device = NULL;
	int listen_any = 0, streams = 1, audio = 1, tcp_fd = -1;
	int cookie_written = 0;
	unsigned int decoders = 0;
	struct mmx_decode_pool *pool = NULL;
	struct mmxd_media *media = NULL;
	void *media_ctx = NULL;
	struct mmxd_server *server = NULL;
	struct mmxd_options opts;
	struct mmx_display *d = NULL;
	struct mmx_state *st;
	struct signalfd_siginfo si;
	gid_t group = (gid_t)-1;
	int light = 1, listen_fd = -1, sfd = -1, ret, opt, status = 1;
	int activated = 0, listening = 0;
	char sock_name[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	sigset_t mask;
	char *end;

	mmxd_options_init(&opts);
	while ((opt = getopt_long(argc, argv, "d:s:g:fp:vhV", longopts,
				  NULL)) != -1) {
		switch (opt) {
		case 'd':
			device = optarg;
			break;
		case 's':
			sock_path = optarg;
			break;
		case 'g':
			if (parse_group(optarg, &group)) {
				fprintf(stderr, "mmxd: unknown group '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'f':
			break;
		case 'p':
			pidfile = optarg;
			break;
		case 'L':
			light = 0;
			break;
		case 'M':
			opts.max_clients = (unsigned int)strtoul(optarg, &end,
								 10);
			if (*end || !opts.max_clients) {
				fprintf(stderr, "mmxd: bad --max-clients '%s'\n",
					optarg);
				return 2;
			}
			break;
		case 'l':
			if (strncmp(optarg, "tcp:", 4)) {
				fprintf(stderr,
					"mmxd: --listen '%s': tcp:HOST:PORT expected\n",
					optarg);
				return 2;
			}
			listen_tcp = optarg + 4;
			break;
		case 'A':
			listen_any = 1;
			break;
		case 'a':
			auth_file = optarg;
			break;
		case 'S':
			streams = 0;
			break;
		case 'D':
			decoders = (unsigned int)strtoul(optarg, &end, 10);
			if (*end || !decoders ||
			    decoders > MMX_DECODE_MAX_WORKERS) {
				fprintf(stderr, "mmxd: bad --decoders '%s' (1..%u)\n",
					optarg, MMX_DECODE_MAX_WORKERS);
				return 2;
			}
			break;
		case 'P':
			audio_device = optarg;
			break;
		case 'N':
			audio = 0;
			break;
		case 'v':
			opts.verbose++;
			break;
		case 'h':
			usage(stdout);
			return 0;
		case 'V':
			printf("mmxd %s (protocol %u.%u)\n", MMXD_VERSION,
			       MMX_PROTO_MAJOR, MMX_PROTO_MINOR);
			return 0;
		default:
			fprintf(stderr, "Try 'mmxd --help' for more information.\n");
			return 2;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "mmxd: unexpected argument '%s'\n"
			"Try 'mmxd --help' for more information.\n",
			argv[optind]);
		return 2;
	}
	if (!sock_path)
		sock_path = getenv("MMX_SOCKET");
	if (!sock_path || !*sock_path)
		sock_path = MMX_DEFAULT_SOCKET;

	/* first: fd 3 must not leak into anything we start */
	ret = mmxd_socket_activated();
	if (ret < 0) {
		mmxd_log(NULL, 0, "socket activation: fd %d: %s",
			 MMXD_LISTEN_FDS_START,
			 ret == -EINVAL ? "one listening stream socket expected" :
			 strerror(-ret));
		return 1;
	}
	if (ret > 0) {
		struct stat sst;

		listen_fd = ret;
		activated = 1;
		if (mmxd_socket_name(listen_fd, sock_name, sizeof(sock_name)))
			snprintf(sock_name, sizeof(sock_name), "fd %d",
				 listen_fd);
		sock_path = sock_name;
		/* who may connect: --group, else the socket file's group */
		if (group == (gid_t)-1 && sock_name[0] == '/' &&
		    !stat(sock_name, &sst))
			group = sst.st_gid;
	}
	if (group != (gid_t)-1)
		opts.gid = group;

	signal(SIGPIPE, SIG_IGN);
	sigemptyset(&mask);
	sigaddset(&mask, SIGTERM);
	sigaddset(&mask, SIGINT);
	/* a closed controlling terminal: release the display as for SIGTERM */
	sigaddset(&mask, SIGHUP);
	if (sigprocmask(SIG_BLOCK, &mask, NULL) ||
	    (sfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK)) < 0) {
		perror("mmxd: signalfd");
		return 1;
	}

	ret = mmx_open(device ? device : "local", &d);
	if (ret) {
		mmxd_log(NULL, 0, "cannot open %s: %s",
			 device ? device : "a KMS device", strerror(-ret));
		goto out;
	}
	if (!drmIsMaster(mmx_fd(d)) && drmSetMaster(mmx_fd(d))) {
		mmxd_log(NULL, 0,
			 "cannot become DRM master of %s (another display server runs?)",
			 device ? device : "the KMS device");
		goto out;
	}
	if (light) {
		ret = mmxd_light_up(d, opts.verbose);
		if (ret > 0)
			mmxd_log(NULL, 0, "lit %d output(s)", ret);
	}
	ret = mmx_get_screen_resources_current(d, &st);
	if (ret) {
		mmxd_log(NULL, 0, "reading the state failed: %s",
			 strerror(-ret));
		goto out;
	}
	memcpy(opts.driver, st->driver, sizeof(opts.driver));
	opts.driver[sizeof(opts.driver) - 1] = '\0';
	opts.state_flags = st->flags;
	mmx_state_free(st);

	if (streams) {
		struct mmx_decode_config dc = { .workers = decoders };
		struct mmx_error err;

		memset(&err, 0, sizeof(err));
		/* before any client: the workers start up here */
		ret = mmx_decode_pool_new(&dc, &pool, &err);
		if (ret) {
			mmxd_log(NULL, 0, "no media streams: decoder pool: %s",
				 err.message[0] ? err.message : strerror(-ret));
			pool = NULL;
		}
	}
	if (pool) {
		ret = mmxd_kms_media_new(d, pool, audio_device, &media_ctx);
		if (!ret)
			ret = mmxd_media_new(audio ? &mmxd_kms_media_ops :
					     &mmxd_kms_media_ops_noaudio,
					     media_ctx, &media);
		if (ret) {
			mmxd_log(NULL, 0, "media streams: %s", strerror(-ret));
			goto out;
		}
	}
	if (listen_tcp) {
		ret = mmxd_cookie_write(auth_file, opts.cookie,
					sizeof(opts.cookie));
		if (ret) {
			mmxd_log(NULL, 0, "auth file %s: %s", auth_file,
				 strerror(-ret));
			goto out;
		}
		cookie_written = 1;
		opts.tcp_auth = 1;
		tcp_fd = mmxd_tcp_open(listen_tcp, listen_any);
		if (tcp_fd < 0) {
			mmxd_log(NULL, 0, "--listen tcp:%s: %s", listen_tcp,
				 tcp_fd == -EPERM ?
				 "not a loopback address (see --listen-any)" :
				 strerror(-tcp_fd));
			goto out;
		}
	}

	ret = mmxd_server_new(&mmxd_display_ops, d, &opts, &server);
	if (ret) {
		mmxd_log(NULL, 0, "%s", strerror(-ret));
		goto out;
	}
	if (media && (ret = mmxd_server_set_media(server, media))) {
		mmxd_log(NULL, 0, "media streams: %s", strerror(-ret));
		goto out;
	}
	if (tcp_fd >= 0) {
		mmxd_server_listen_tcp(server, tcp_fd);
		tcp_fd = -1;
		mmxd_log(NULL, 0, "serving tcp:%s (cookie in %s)", listen_tcp,
			 auth_file);
	}
	if (!activated)
		listen_fd = mmxd_socket_open(sock_path, group);
	if (listen_fd < 0) {
		mmxd_log(NULL, 0, "socket %s: %s", sock_path,
			 listen_fd == -EADDRINUSE ?
			 "another mmxd listens there" : strerror(-listen_fd));
		goto out;
	}
	mmxd_server_listen(server, listen_fd);
	listening = 1;
	if (pidfile && (ret = write_pidfile(pidfile))) {
		mmxd_log(NULL, 0, "pidfile %s: %s", pidfile, strerror(-ret));
		pidfile = NULL;
		goto out;
	}
	mmxd_log(NULL, 0, "serving %s%s (driver %s, protocol %u.%u)",
		 sock_path, activated ? " (socket activation)" : "",
		 opts.driver, MMX_PROTO_MAJOR, MMX_PROTO_MINOR);

	for (;;) {
		ret = mmxd_server_step(server, -1, sfd);
		if (ret < 0) {
			mmxd_log(NULL, 0, "poll: %s", strerror(-ret));
			goto out;
		}
		if (ret == 1 && read(sfd, &si, sizeof(si)) == sizeof(si)) {
			mmxd_log(NULL, 0, "%s: releasing the display",
				 strsignal((int)si.ssi_signo));
			break;
		}
	}
	status = 0;
out:
	/* clients first, then the socket, then master and the device */
	mmxd_server_free(server);
	mmxd_media_free(media);
	mmxd_kms_media_free(media_ctx);
	mmx_decode_pool_free(pool);
	if (tcp_fd >= 0)
		close(tcp_fd);
	if (cookie_written)
		unlink(auth_file);
	/* the service manager's socket stays for the next start */
	if (listen_fd >= 0 && !activated)
		unlink(sock_path);
	if (listen_fd >= 0 && !listening)
		close(listen_fd);
	if (pidfile)
		unlink(pidfile);
	if (d) {
		if (drmIsMaster(mmx_fd(d)))
			drmDropMaster(mmx_fd(d));
		mmx_close(d);
	}
	if (sfd >= 0)
		close(sfd);
	return status;
}
