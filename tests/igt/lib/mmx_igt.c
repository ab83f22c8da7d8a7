// SPDX-License-Identifier: MIT
/*
 * mmx_igt - IGT-style helpers for the mmx KMS driver tests. See mmx_igt.h.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <math.h>
#include <poll.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "mmx_igt.h"

/* ------------------------------------------------------------------------ */
/* Runner                                                                   */

enum { RES_SUCCESS, RES_SKIP, RES_FAIL, RES_TIMEOUT, RES_CRASH };

static const char *const res_names[] = {
	[RES_SUCCESS] = "SUCCESS",
	[RES_SKIP] = "SKIP",
	[RES_FAIL] = "FAIL",
	[RES_TIMEOUT] = "TIMEOUT",
	[RES_CRASH] = "CRASH",
};

bool mmx_verbose;
static sigjmp_buf subtest_jmp;
static volatile sig_atomic_t in_subtest;
static const char *cur_subtest;
static const char *prog_name = "mmx_igt";
static struct mmx_dev *g_dev;
static int subtest_timeout = 120;

/* Per-subtest resources, released after each subtest. */
static struct mmx_fb *fb_list;
static uint32_t blob_list[512];
static int n_blobs;
static int fd_list[64];
static int n_fds;

const char *mmx_current_subtest(void)
{
	return cur_subtest ? cur_subtest : "(none)";
}

static void vlog(const char *prefix, const char *fmt, va_list ap)
{
	fflush(stdout);
	fprintf(stderr, "%s", prefix);
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	fflush(stderr);
}

void mmx_info(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fflush(stderr);
	vprintf(fmt, ap);
	printf("\n");
	fflush(stdout);
	va_end(ap);
}

void mmx_debug(const char *fmt, ...)
{
	va_list ap;

	if (!mmx_verbose)
		return;
	va_start(ap, fmt);
	vlog("  [debug] ", fmt, ap);
	va_end(ap);
}

void mmx_fail_at(const char *file, int line, const char *func,
		 const char *fmt, ...)
{
	va_list ap;
	int err = errno;

	fflush(stdout);
	fprintf(stderr, "(%s:%d) %s:%d: %s: ", prog_name, getpid(), file, line,
		func);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, " [last errno: %d (%s)]\n", err, strerror(err));
	fflush(stderr);
	if (in_subtest)
		siglongjmp(subtest_jmp, RES_FAIL);
	fprintf(stderr, "%s: fatal error outside of a subtest\n", prog_name);
	exit(1);
}

void mmx_skip_at(const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "(%s:%d) %s:%d: SKIP: ", prog_name, getpid(), file,
		line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n");
	fflush(stderr);
	if (in_subtest)
		siglongjmp(subtest_jmp, RES_SKIP);
	exit(77);
}

static void signal_handler(int sig)
{
	char msg[160];
	int len;

	if (!in_subtest) {
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	len = snprintf(msg, sizeof(msg), "(%s) subtest %s: %s\n", prog_name,
		       mmx_current_subtest(),
		       sig == SIGALRM ? "timed out" : strsignal(sig));
	if (len > 0 && write(2, msg, (size_t)len) < 0)
		len = 0;
	siglongjmp(subtest_jmp, sig == SIGALRM ? RES_TIMEOUT : RES_CRASH);
}

static void install_signal_handlers(void)
{
	static const int sigs[] = { SIGALRM, SIGSEGV, SIGBUS, SIGFPE, SIGABRT,
				    SIGILL };
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = signal_handler;
	sa.sa_flags = SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < MMX_ARRAY_SIZE(sigs); i++)
		sigaction(sigs[i], &sa, NULL);
}

static void track_fd(int fd)
{
	if (n_fds < (int)MMX_ARRAY_SIZE(fd_list))
		fd_list[n_fds++] = fd;
}

static void untrack_fd(int fd)
{
	int i;

	for (i = 0; i < n_fds; i++) {
		if (fd_list[i] == fd) {
			fd_list[i] = fd_list[--n_fds];
			return;
		}
	}
}

static void release_resources(struct mmx_dev *d)
{
	int i;

	while (fb_list)
		mmx_fb_free(fb_list);
	for (i = 0; i < n_blobs; i++) {
		struct drm_mode_destroy_blob db = { .blob_id = blob_list[i] };

		mmx_ioctl(d->fd, DRM_IOCTL_MODE_DESTROYPROPBLOB, &db);
	}
	n_blobs = 0;
	for (i = 0; i < n_fds; i++)
		close(fd_list[i]);
	n_fds = 0;
	mmx_event_flush(d->fd);
}

static int open_device(struct mmx_dev *d);
static void discover(struct mmx_dev *d);
static void load_expectations(struct mmx_dev *d, int cmd_outputs,
			      const char *cmd_connectors);

static bool selected(const char *name, char **patterns, int n_patterns)
{
	int i;

	if (!n_patterns)
		return true;
	for (i = 0; i < n_patterns; i++)
		if (!fnmatch(patterns[i], name, 0))
			return true;
	return false;
}

static void usage(const char *prog, const char *summary)
{
	printf("Usage: %s [OPTION]...\n%s\n\n"
	       "  --list              list the subtests and exit\n"
	       "  --describe          list the subtests with their intent\n"
	       "  --subtest NAME[,NAME]...  run only these (glob patterns)\n"
	       "  --outputs N         expected outputs= (default: from sysfs)\n"
	       "  --connectors LIST   expected connectors= (default: sysfs)\n"
	       "  --timeout SECONDS   per-subtest timeout (default 120)\n"
	       "  --verbose           debug output\n"
	       "Exit status: 0 if no subtest failed, 1 otherwise.\n",
	       prog, summary);
}

static int run_one(struct mmx_dev *d, const struct mmx_subtest *t)
{
	volatile int res;
	int r;

	cur_subtest = t->name;
	r = sigsetjmp(subtest_jmp, 1);
	if (r == 0) {
		in_subtest = 1;
		alarm((unsigned int)subtest_timeout);
		mmx_reset(d);
		if (t->func_arg)
			t->func_arg(d, t->arg);
		else
			t->func(d);
		r = RES_SUCCESS;
	}
	alarm(0);
	in_subtest = 0;
	res = r;

	/* Leave the device off and clean for the next subtest. */
	r = sigsetjmp(subtest_jmp, 1);
	if (r == 0) {
		in_subtest = 1;
		alarm(30);
		mmx_reset(d);
	} else if (res == RES_SUCCESS) {
		fprintf(stderr, "(%s) restoring the device after %s failed\n",
			prog_name, t->name);
		res = RES_FAIL;
	}
	alarm(0);
	in_subtest = 0;
	release_resources(d);
	cur_subtest = NULL;
	return res;
}

int mmx_main(int argc, char **argv, const char *summary,
	     const struct mmx_subtest *tests, size_t n_tests)
{
	static struct mmx_dev dev;
	char *patterns[64];
	int n_patterns = 0;
	int cmd_outputs = 0;
	const char *cmd_connectors = NULL;
	bool list = false, describe = false;
	int failed = 0, passed = 0, skipped = 0;
	size_t i;
	int a, open_err;

	prog_name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (a = 1; a < argc; a++) {
		const char *arg = argv[a];
		const char *val = NULL;

		if (!strncmp(arg, "--", 2) && strchr(arg, '=')) {
			static char opt[64];

			snprintf(opt, sizeof(opt), "%.*s",
				 (int)(strchr(arg, '=') - arg), arg);
			val = strchr(arg, '=') + 1;
			arg = opt;
		}
#define NEED_VAL()							\
		do {							\
			if (!val) {					\
				if (a + 1 >= argc) {			\
					fprintf(stderr, "%s: %s needs an argument\n", \
						prog_name, arg);	\
					return 2;			\
				}					\
				val = argv[++a];			\
			}						\
		} while (0)
		if (!strcmp(arg, "--list") || !strcmp(arg, "--list-subtests")) {
			list = true;
		} else if (!strcmp(arg, "--describe")) {
			describe = true;
		} else if (!strcmp(arg, "--subtest") || !strcmp(arg, "--run-subtest")) {
			char *s, *tok, *save = NULL;

			NEED_VAL();
			s = strdup(val);
			for (tok = strtok_r(s, ",", &save); tok;
			     tok = strtok_r(NULL, ",", &save))
				if (n_patterns < (int)MMX_ARRAY_SIZE(patterns))
					patterns[n_patterns++] = tok;
		} else if (!strcmp(arg, "--outputs")) {
			NEED_VAL();
			cmd_outputs = atoi(val);
			if (cmd_outputs < 1 || cmd_outputs > MMX_MAX_OUTPUTS) {
				fprintf(stderr, "%s: bad --outputs %s\n",
					prog_name, val);
				return 2;
			}
		} else if (!strcmp(arg, "--connectors")) {
			NEED_VAL();
			cmd_connectors = val;
		} else if (!strcmp(arg, "--timeout")) {
			NEED_VAL();
			subtest_timeout = atoi(val);
			if (subtest_timeout <= 0)
				subtest_timeout = 120;
		} else if (!strcmp(arg, "--verbose") || !strcmp(arg, "-v")) {
			mmx_verbose = true;
		} else if (!strcmp(arg, "--help") || !strcmp(arg, "-h")) {
			usage(prog_name, summary);
			return 0;
		} else {
			fprintf(stderr, "%s: unknown option '%s'\nTry '%s --help'.\n",
				prog_name, argv[a], prog_name);
			return 2;
		}
#undef NEED_VAL
	}

	if (list || describe) {
		for (i = 0; i < n_tests; i++) {
			if (!selected(tests[i].name, patterns, n_patterns))
				continue;
			if (describe)
				printf("%s: %s\n", tests[i].name, tests[i].desc);
			else
				printf("%s\n", tests[i].name);
		}
		return 0;
	}

	if (n_patterns) {
		int p;

		for (p = 0; p < n_patterns; p++) {
			bool any = false;

			for (i = 0; i < n_tests; i++)
				any |= !fnmatch(patterns[p], tests[i].name, 0);
			if (!any) {
				fprintf(stderr, "%s: unknown subtest '%s'\n",
					prog_name, patterns[p]);
				return 79;
			}
		}
	}

	install_signal_handlers();
	g_dev = &dev;
	open_err = open_device(&dev);
	if (open_err) {
		struct stat st;
		bool loaded = !stat("/sys/module/mmx", &st);

		fprintf(stderr, "%s: cannot open the mmx device: %s%s\n",
			prog_name, strerror(-open_err),
			loaded ? "" : " (module not loaded: skipping)");
		for (i = 0; i < n_tests; i++) {
			if (!selected(tests[i].name, patterns, n_patterns))
				continue;
			printf("Subtest %s: %s\n", tests[i].name,
			       loaded ? "FAIL" : "SKIP");
			loaded ? failed++ : skipped++;
		}
		return failed ? 1 : 0;
	}
	discover(&dev);
	load_expectations(&dev, cmd_outputs, cmd_connectors);
	printf("%s: %s on %s (debugfs %s), %d CRTC(s), expecting outputs=%d\n",
	       prog_name, summary, dev.path, dev.debugfs, dev.n_crtcs,
	       dev.expect.outputs);

	for (i = 0; i < n_tests; i++) {
		int64_t t0;
		int res;

		if (!selected(tests[i].name, patterns, n_patterns))
			continue;
		printf("Starting subtest: %s\n", tests[i].name);
		printf("  intent: %s\n", tests[i].desc);
		t0 = mmx_now_ns();
		res = run_one(&dev, &tests[i]);
		printf("Subtest %s: %s (%.3fs)\n", tests[i].name,
		       res_names[res], (mmx_now_ns() - t0) / 1e9);
		if (res == RES_SUCCESS)
			passed++;
		else if (res == RES_SKIP)
			skipped++;
		else
			failed++;
	}
	printf("%s: %d passed, %d failed, %d skipped\n", prog_name, passed,
	       failed, skipped);
	close(dev.fd);
	return failed ? 1 : 0;
}

/* ------------------------------------------------------------------------ */
/* Small utilities                                                          */

int mmx_ioctl(int fd, unsigned long request, void *arg)
{
	int ret;

	do {
		ret = ioctl(fd, request, arg);
	} while (ret == -1 && (errno == EINTR || errno == EAGAIN));
	return ret == -1 ? -errno : 0;
}

int64_t mmx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void mmx_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (long)(ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

int mmx_read_file(const char *path, char *buf, size_t size)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, size - 1);
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	buf[n] = 0;
	close(fd);
	return (int)n;
}

int mmx_write_file(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	if (n < 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	return n == (ssize_t)strlen(s) ? 0 : -EIO;
}

/* ------------------------------------------------------------------------ */
/* Device                                                                   */

const char *const mmx_default_kinds[MMX_MAX_OUTPUTS] = {
	"eDP", "VGA", "HDMI-A", "DP", "DVI-I", "DVI-D", "Composite", "SVIDEO",
};

static const struct {
	const char *kind;
	uint32_t type;
} kind_table[] = {
	{ "VGA", DRM_MODE_CONNECTOR_VGA },
	{ "DVI-I", DRM_MODE_CONNECTOR_DVII },
	{ "DVI-D", DRM_MODE_CONNECTOR_DVID },
	{ "DVI-A", DRM_MODE_CONNECTOR_DVIA },
	{ "Composite", DRM_MODE_CONNECTOR_Composite },
	{ "SVIDEO", DRM_MODE_CONNECTOR_SVIDEO },
	{ "LVDS", DRM_MODE_CONNECTOR_LVDS },
	{ "Component", DRM_MODE_CONNECTOR_Component },
	{ "DP", DRM_MODE_CONNECTOR_DisplayPort },
	{ "HDMI-A", DRM_MODE_CONNECTOR_HDMIA },
	{ "TV", DRM_MODE_CONNECTOR_TV },
	{ "eDP", DRM_MODE_CONNECTOR_eDP },
};

int mmx_kind_to_type(const char *kind)
{
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(kind_table); i++)
		if (!strcmp(kind_table[i].kind, kind))
			return (int)kind_table[i].type;
	return -1;
}

const char *mmx_connector_type_name(uint32_t type)
{
	size_t i;

	if (type == DRM_MODE_CONNECTOR_WRITEBACK)
		return "Writeback";
	if (type == DRM_MODE_CONNECTOR_DisplayPort)
		return "DP";
	for (i = 0; i < MMX_ARRAY_SIZE(kind_table); i++)
		if (kind_table[i].type == type)
			return kind_table[i].kind;
	return "Unknown";
}

static int set_caps(int fd, bool universal, bool atomic, bool writeback)
{
	if (universal && drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1))
		return -errno;
	if (atomic && drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return -errno;
	if (writeback &&
	    drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1))
		return -errno;
	return 0;
}

static bool debugfs_is_mmx(const char *dir)
{
	char path[256], buf[256];

	snprintf(path, sizeof(path), "%s/name", dir);
	return mmx_read_file(path, buf, sizeof(buf)) > 0 && !strncmp(buf, "mmx", 3);
}

static int open_device(struct mmx_dev *d)
{
	struct stat st;
	int i, fd = -1, ret;

	for (i = 0; i < 64; i++) {
		drmVersionPtr v;
		char path[64];

		snprintf(path, sizeof(path), "/dev/dri/card%d", i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		v = drmGetVersion(fd);
		if (v && v->name && !strcmp(v->name, "mmx")) {
			drmFreeVersion(v);
			snprintf(d->path, sizeof(d->path), "%s", path);
			break;
		}
		if (v)
			drmFreeVersion(v);
		close(fd);
		fd = -1;
	}
	if (fd < 0)
		return -ENODEV;
	d->fd = fd;
	if (fstat(fd, &st))
		return -errno;
	d->minor = (int)minor(st.st_rdev);

	snprintf(d->debugfs, sizeof(d->debugfs), "/sys/kernel/debug/dri/%d",
		 d->minor);
	if (!debugfs_is_mmx(d->debugfs)) {
		DIR *dir = opendir("/sys/kernel/debug/dri");
		struct dirent *de;

		while (dir && (de = readdir(dir))) {
			char p[300];

			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "/sys/kernel/debug/dri/%.64s",
				 de->d_name);
			if (debugfs_is_mmx(p)) {
				snprintf(d->debugfs, sizeof(d->debugfs),
					 "/sys/kernel/debug/dri/%.64s", de->d_name);
				break;
			}
		}
		if (dir)
			closedir(dir);
	}

	if (drmSetMaster(fd)) {
		fprintf(stderr, "%s: drmSetMaster: %s\n", prog_name,
			strerror(errno));
		return -errno;
	}
	ret = set_caps(fd, true, true, true);
	if (ret)
		return ret;
	return 0;
}

int mmx_open_client(struct mmx_dev *d, bool atomic, bool writeback)
{
	int fd = open(d->path, O_RDWR | O_CLOEXEC);

	mmx_assert_f(fd >= 0, "open %s: %s", d->path, strerror(errno));
	track_fd(fd);
	mmx_do(set_caps(fd, true, atomic, writeback));
	return fd;
}

int mmx_plane_type(struct mmx_dev *d, uint32_t plane_id)
{
	uint64_t v;

	if (!mmx_prop_lookup(d->fd, plane_id, "type", NULL, &v, NULL))
		return -1;
	return (int)v;
}

uint32_t mmx_plane_of(struct mmx_output *o, enum mmx_plane_kind kind, int n)
{
	switch (kind) {
	case MMX_PLANE_PRIMARY:
		return o->primary;
	case MMX_PLANE_OVERLAY:
		return n < 2 ? o->overlay[n] : 0;
	case MMX_PLANE_CURSOR:
		return o->cursor;
	}
	return 0;
}

struct mmx_output *mmx_output0(struct mmx_dev *d)
{
	struct mmx_output *o = &d->out[0];

	mmx_assert_f(d->n_outputs > 0 && o->primary && o->n_overlays == 2 &&
		     o->cursor && o->wb_conn_id,
		     "output 0 lacks planes or writeback");
	return o;
}

static int lowest_bit(uint32_t mask)
{
	int i;

	for (i = 0; i < 32; i++)
		if (mask & (1u << i))
			return i;
	return -1;
}

static void discover(struct mmx_dev *d)
{
	drmModeResPtr res = drmModeGetResources(d->fd);
	drmModePlaneResPtr pres;
	int i, n_real = 0;

	mmx_assert_f(res, "drmModeGetResources: %s", strerror(errno));
	d->n_crtcs = res->count_crtcs < 32 ? res->count_crtcs : 32;
	for (i = 0; i < d->n_crtcs; i++)
		d->crtcs[i] = res->crtcs[i];
	d->n_connectors = res->count_connectors < 64 ? res->count_connectors : 64;
	for (i = 0; i < d->n_connectors; i++)
		d->connectors[i] = res->connectors[i];
	d->n_encoders = res->count_encoders < 64 ? res->count_encoders : 64;
	for (i = 0; i < d->n_encoders; i++)
		d->encoders[i] = res->encoders[i];
	drmModeFreeResources(res);

	d->n_outputs = d->n_crtcs < MMX_MAX_OUTPUTS ? d->n_crtcs : MMX_MAX_OUTPUTS;
	for (i = 0; i < d->n_outputs; i++) {
		d->out[i].index = i;
		d->out[i].crtc_id = d->crtcs[i];
	}

	for (i = 0; i < d->n_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(d->fd, d->connectors[i]);
		struct mmx_output *o;
		int m;

		if (!c)
			continue;
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeEncoderPtr e = c->count_encoders ?
				drmModeGetEncoder(d->fd, c->encoders[0]) : NULL;
			int idx = e ? lowest_bit(e->possible_crtcs) : -1;

			if (idx >= 0 && idx < d->n_outputs &&
			    !d->out[idx].wb_conn_id)
				d->out[idx].wb_conn_id = c->connector_id;
			if (e)
				drmModeFreeEncoder(e);
			drmModeFreeConnector(c);
			continue;
		}
		if (n_real >= d->n_outputs) {
			drmModeFreeConnector(c);
			n_real++;
			continue;
		}
		o = &d->out[n_real++];
		o->conn_id = c->connector_id;
		o->conn_type = c->connector_type;
		o->enc_id = c->count_encoders ? c->encoders[0] : 0;
		snprintf(o->name, sizeof(o->name), "%s-%u",
			 mmx_connector_type_name(c->connector_type),
			 c->connector_type_id);
		for (m = 0; m < c->count_modes; m++) {
			if (c->modes[m].type & DRM_MODE_TYPE_PREFERRED) {
				o->preferred = c->modes[m];
				o->has_preferred = true;
				break;
			}
		}
		drmModeFreeConnector(c);
	}

	pres = drmModeGetPlaneResources(d->fd);
	mmx_assert_f(pres, "drmModeGetPlaneResources: %s", strerror(errno));
	d->n_planes = pres->count_planes < 128 ? (int)pres->count_planes : 128;
	for (i = 0; i < d->n_planes; i++) {
		drmModePlanePtr p;
		struct mmx_output *o;
		drmModePropertyRes *info = NULL;
		uint64_t zpos;
		int idx, type;

		d->planes[i] = pres->planes[i];
		d->plane_defaults[i].plane = pres->planes[i];
		if (mmx_prop_lookup(d->fd, pres->planes[i], "zpos", NULL, &zpos,
				    &info)) {
			d->plane_defaults[i].zpos = zpos;
			d->plane_defaults[i].has_zpos_mutable =
				!(info->flags & DRM_MODE_PROP_IMMUTABLE);
			drmModeFreeProperty(info);
		}
		d->plane_defaults[i].has_alpha =
			mmx_prop_lookup(d->fd, pres->planes[i], "alpha", NULL,
					NULL, NULL);
		if (mmx_prop_lookup(d->fd, pres->planes[i], "pixel blend mode",
				    NULL, NULL, &info)) {
			int k;

			for (k = 0; k < info->count_enums; k++)
				if (!strcmp(info->enums[k].name, "Pre-multiplied")) {
					d->plane_defaults[i].has_blend = true;
					d->plane_defaults[i].blend_premulti =
						info->enums[k].value;
				}
			drmModeFreeProperty(info);
		}
		p = drmModeGetPlane(d->fd, pres->planes[i]);
		if (!p)
			continue;
		idx = lowest_bit(p->possible_crtcs);
		type = mmx_plane_type(d, p->plane_id);
		if (idx >= 0 && idx < d->n_outputs) {
			o = &d->out[idx];
			if (type == DRM_PLANE_TYPE_PRIMARY && !o->primary)
				o->primary = p->plane_id;
			else if (type == DRM_PLANE_TYPE_CURSOR && !o->cursor)
				o->cursor = p->plane_id;
			else if (type == DRM_PLANE_TYPE_OVERLAY &&
				 o->n_overlays < 2)
				o->overlay[o->n_overlays++] = p->plane_id;
		}
		drmModeFreePlane(p);
	}
	drmModeFreePlaneResources(pres);
	/* overlays sorted by id (GETPLANERESOURCES order is by id already) */
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];

		if (o->n_overlays == 2 && o->overlay[0] > o->overlay[1]) {
			uint32_t t = o->overlay[0];

			o->overlay[0] = o->overlay[1];
			o->overlay[1] = t;
		}
	}

	if (drmGetCap(d->fd, DRM_CAP_CURSOR_WIDTH, &d->cursor_w))
		d->cursor_w = 0;
	if (drmGetCap(d->fd, DRM_CAP_CURSOR_HEIGHT, &d->cursor_h))
		d->cursor_h = 0;
}

static void parse_kinds(struct mmx_expect *e, const char *list)
{
	char buf[256], *tok, *save = NULL;

	snprintf(buf, sizeof(buf), "%s", list);
	e->n_kinds = 0;
	for (tok = strtok_r(buf, ",", &save); tok;
	     tok = strtok_r(NULL, ",", &save)) {
		while (isspace((unsigned char)*tok))
			tok++;
		if (e->n_kinds < MMX_MAX_OUTPUTS)
			snprintf(e->kinds[e->n_kinds], sizeof(e->kinds[0]),
				 "%s", tok);
		e->n_kinds++;
	}
}

static void strip(char *s)
{
	size_t n = strlen(s);

	while (n && isspace((unsigned char)s[n - 1]))
		s[--n] = 0;
}

static void load_expectations(struct mmx_dev *d, int cmd_outputs,
			      const char *cmd_connectors)
{
	struct mmx_expect *e = &d->expect;
	char buf[256];
	int i;

	memset(e, 0, sizeof(*e));
	if (cmd_outputs || cmd_connectors) {
		e->from_cmdline = true;
		if (cmd_connectors && *cmd_connectors)
			parse_kinds(e, cmd_connectors);
		e->outputs = cmd_outputs ? cmd_outputs : e->n_kinds;
	} else {
		if (mmx_read_file("/sys/module/mmx/parameters/connectors", buf,
				  sizeof(buf)) > 0) {
			strip(buf);
			if (*buf && strcmp(buf, "(null)"))
				parse_kinds(e, buf);
		}
		if (e->n_kinds) {
			e->outputs = e->n_kinds;
		} else if (mmx_read_file("/sys/module/mmx/parameters/outputs",
					 buf, sizeof(buf)) > 0 && atoi(buf) > 0) {
			e->outputs = atoi(buf);
		} else {
			e->outputs = 2;
		}
	}
	if (e->outputs > MMX_MAX_OUTPUTS)
		e->outputs = MMX_MAX_OUTPUTS;
	if (!e->n_kinds) {
		e->n_kinds = e->outputs;
		for (i = 0; i < e->outputs; i++)
			snprintf(e->kinds[i], sizeof(e->kinds[0]), "%s",
				 mmx_default_kinds[i]);
	}
}

/* ------------------------------------------------------------------------ */
/* Properties                                                               */

static struct prop_cache_entry {
	int fd;
	uint32_t obj;
	uint32_t prop;
	char name[DRM_PROP_NAME_LEN + 1];
} prop_cache[2048];
static int n_prop_cache;

bool mmx_prop_lookup(int fd, uint32_t obj, const char *name,
		     uint32_t *prop_id, uint64_t *value,
		     drmModePropertyRes **info)
{
	drmModeObjectPropertiesPtr props;
	bool found = false;
	uint32_t i;

	props = drmModeObjectGetProperties(fd, obj, DRM_MODE_OBJECT_ANY);
	if (!props)
		return false;
	for (i = 0; i < props->count_props && !found; i++) {
		drmModePropertyRes *p = drmModeGetProperty(fd, props->props[i]);

		if (!p)
			continue;
		if (!strcmp(p->name, name)) {
			found = true;
			if (prop_id)
				*prop_id = p->prop_id;
			if (value)
				*value = props->prop_values[i];
			if (info) {
				*info = p;
				p = NULL;
			}
		}
		if (p)
			drmModeFreeProperty(p);
	}
	drmModeFreeObjectProperties(props);
	return found;
}

uint64_t mmx_prop_get(struct mmx_dev *d, uint32_t obj, const char *name)
{
	uint64_t v = 0;

	if (!mmx_prop_lookup(d->fd, obj, name, NULL, &v, NULL))
		mmx_fail("object %u has no property \"%s\"", obj, name);
	return v;
}

static uint32_t prop_id_fd(int fd, uint32_t obj, const char *name)
{
	uint32_t id = 0;
	int i;

	for (i = 0; i < n_prop_cache; i++)
		if (prop_cache[i].fd == fd && prop_cache[i].obj == obj &&
		    !strcmp(prop_cache[i].name, name))
			return prop_cache[i].prop;
	if (!mmx_prop_lookup(fd, obj, name, &id, NULL, NULL))
		mmx_fail("object %u has no property \"%s\"", obj, name);
	if (n_prop_cache < (int)MMX_ARRAY_SIZE(prop_cache)) {
		prop_cache[n_prop_cache].fd = fd;
		prop_cache[n_prop_cache].obj = obj;
		prop_cache[n_prop_cache].prop = id;
		snprintf(prop_cache[n_prop_cache].name,
			 sizeof(prop_cache[0].name), "%s", name);
		n_prop_cache++;
	}
	return id;
}

uint32_t mmx_prop_id(struct mmx_dev *d, uint32_t obj, const char *name)
{
	return prop_id_fd(d->fd, obj, name);
}

uint64_t mmx_prop_enum(struct mmx_dev *d, uint32_t obj, const char *name,
		       const char *ename)
{
	drmModePropertyRes *info = NULL;
	uint64_t v = 0;
	bool found = false;
	int i;

	if (!mmx_prop_lookup(d->fd, obj, name, NULL, NULL, &info))
		mmx_fail("object %u has no property \"%s\"", obj, name);
	for (i = 0; i < info->count_enums; i++) {
		if (!strcmp(info->enums[i].name, ename)) {
			v = info->enums[i].value;
			found = true;
		}
	}
	drmModeFreeProperty(info);
	if (!found)
		mmx_fail("property \"%s\" of object %u has no enum value \"%s\"",
			 name, obj, ename);
	return v;
}

/* ------------------------------------------------------------------------ */
/* Atomic requests                                                          */

struct mmx_req {
	struct mmx_dev *d;
	int n, cap;
	struct {
		uint32_t obj, prop;
		uint64_t value;
	} *e;
	uint64_t user_data;
};

struct mmx_req *mmx_req_new(struct mmx_dev *d)
{
	struct mmx_req *r = calloc(1, sizeof(*r));

	mmx_assert(r);
	r->d = d;
	return r;
}

void mmx_req_add_id(struct mmx_req *r, uint32_t obj, uint32_t prop,
		    uint64_t value)
{
	int i;

	for (i = 0; i < r->n; i++) {
		if (r->e[i].obj == obj && r->e[i].prop == prop) {
			r->e[i].value = value;
			return;
		}
	}
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 32;
		r->e = realloc(r->e, (size_t)r->cap * sizeof(*r->e));
		mmx_assert(r->e);
	}
	r->e[r->n].obj = obj;
	r->e[r->n].prop = prop;
	r->e[r->n].value = value;
	r->n++;
}

void mmx_req_add(struct mmx_req *r, uint32_t obj, const char *prop,
		 uint64_t value)
{
	mmx_req_add_id(r, obj, prop_id_fd(r->d->fd, obj, prop), value);
}

void mmx_req_free(struct mmx_req *r)
{
	if (!r)
		return;
	free(r->e);
	free(r);
}

int mmx_req_commit_fd(struct mmx_req *r, int fd, uint32_t flags)
{
	uint32_t *objs = calloc((size_t)r->n + 1, sizeof(uint32_t));
	uint32_t *counts = calloc((size_t)r->n + 1, sizeof(uint32_t));
	uint32_t *props = calloc((size_t)r->n + 1, sizeof(uint32_t));
	uint64_t *values = calloc((size_t)r->n + 1, sizeof(uint64_t));
	bool *used = calloc((size_t)r->n + 1, sizeof(bool));
	struct drm_mode_atomic a;
	int n_objs = 0, k = 0, i, j, ret;

	mmx_assert(objs && counts && props && values && used);
	/* group by object, keeping the order of first appearance */
	for (i = 0; i < r->n; i++) {
		if (used[i])
			continue;
		objs[n_objs] = r->e[i].obj;
		for (j = i; j < r->n; j++) {
			if (used[j] || r->e[j].obj != r->e[i].obj)
				continue;
			used[j] = true;
			props[k] = r->e[j].prop;
			values[k] = r->e[j].value;
			k++;
			counts[n_objs]++;
		}
		n_objs++;
	}
	memset(&a, 0, sizeof(a));
	a.flags = flags;
	a.count_objs = (uint32_t)n_objs;
	a.objs_ptr = (uintptr_t)objs;
	a.count_props_ptr = (uintptr_t)counts;
	a.props_ptr = (uintptr_t)props;
	a.prop_values_ptr = (uintptr_t)values;
	a.user_data = r->user_data;
	ret = mmx_ioctl(fd, DRM_IOCTL_MODE_ATOMIC, &a);
	free(objs);
	free(counts);
	free(props);
	free(values);
	free(used);
	mmx_req_free(r);
	return ret;
}

void mmx_req_set_user_data(struct mmx_req *r, uint64_t user_data)
{
	r->user_data = user_data;
}

int mmx_req_commit(struct mmx_req *r, uint32_t flags)
{
	return mmx_req_commit_fd(r, r->d->fd, flags);
}

void mmx_req_plane(struct mmx_req *r, uint32_t plane, uint32_t crtc_id,
		   uint32_t fb_id, int src_x, int src_y, int src_w, int src_h,
		   int crtc_x, int crtc_y, int crtc_w, int crtc_h)
{
	mmx_req_plane_fixed(r, plane, crtc_id, fb_id, (uint64_t)src_x << 16,
			    (uint64_t)src_y << 16, (uint64_t)src_w << 16,
			    (uint64_t)src_h << 16, crtc_x, crtc_y,
			    (uint64_t)crtc_w, (uint64_t)crtc_h);
}

void mmx_req_plane_fixed(struct mmx_req *r, uint32_t plane, uint32_t crtc_id,
			 uint32_t fb_id, uint64_t src_x, uint64_t src_y,
			 uint64_t src_w, uint64_t src_h, int64_t crtc_x,
			 int64_t crtc_y, uint64_t crtc_w, uint64_t crtc_h)
{
	mmx_req_add(r, plane, "FB_ID", fb_id);
	mmx_req_add(r, plane, "CRTC_ID", crtc_id);
	mmx_req_add(r, plane, "SRC_X", src_x);
	mmx_req_add(r, plane, "SRC_Y", src_y);
	mmx_req_add(r, plane, "SRC_W", src_w);
	mmx_req_add(r, plane, "SRC_H", src_h);
	mmx_req_add(r, plane, "CRTC_X", (uint64_t)crtc_x);
	mmx_req_add(r, plane, "CRTC_Y", (uint64_t)crtc_y);
	mmx_req_add(r, plane, "CRTC_W", crtc_w);
	mmx_req_add(r, plane, "CRTC_H", crtc_h);
}

void mmx_req_plane_off(struct mmx_req *r, uint32_t plane)
{
	mmx_req_add(r, plane, "FB_ID", 0);
	mmx_req_add(r, plane, "CRTC_ID", 0);
}

void mmx_req_planes_off_but(struct mmx_req *r, const struct mmx_output *o,
			    const uint32_t *shown, int n)
{
	const uint32_t all[4] = { o->primary, o->overlay[0], o->overlay[1],
				  o->cursor };
	int i, k;

	for (k = 0; k < 4; k++) {
		bool used = false;

		for (i = 0; i < n; i++)
			used |= shown[i] == all[k];
		if (!used)
			mmx_req_plane_off(r, all[k]);
	}
}

void mmx_req_output_on(struct mmx_req *r, struct mmx_output *o,
		       const drmModeModeInfo *mode)
{
	mmx_req_add(r, o->conn_id, "CRTC_ID", o->crtc_id);
	mmx_req_add(r, o->crtc_id, "MODE_ID", mmx_mode_blob(r->d, mode));
	mmx_req_add(r, o->crtc_id, "ACTIVE", 1);
}

void mmx_req_output_off(struct mmx_req *r, struct mmx_output *o)
{
	mmx_req_add(r, o->conn_id, "CRTC_ID", 0);
	if (o->wb_conn_id)
		mmx_req_add(r, o->wb_conn_id, "CRTC_ID", 0);
	mmx_req_add(r, o->crtc_id, "MODE_ID", 0);
	mmx_req_add(r, o->crtc_id, "ACTIVE", 0);
}

int mmx_output_set(struct mmx_dev *d, struct mmx_output *o,
		   const drmModeModeInfo *mode, const struct mmx_fb *fb,
		   int x, int y)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_assert_f(o->conn_id && o->primary, "output %d is incomplete",
		     o->index);
	mmx_req_output_on(r, o, mode);
	if (fb)
		mmx_req_plane(r, o->primary, o->crtc_id, fb->id, 0, 0,
			      (int)fb->width, (int)fb->height, x, y,
			      (int)fb->width, (int)fb->height);
	else
		mmx_req_plane_off(r, o->primary);
	return mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
}

int mmx_blob_create(struct mmx_dev *d, const void *data, size_t size,
		    uint32_t *id)
{
	struct drm_mode_create_blob cb = {
		.data = (uintptr_t)data,
		.length = (uint32_t)size,
	};
	int ret = mmx_ioctl(d->fd, DRM_IOCTL_MODE_CREATEPROPBLOB, &cb);

	if (ret)
		return ret;
	if (n_blobs < (int)MMX_ARRAY_SIZE(blob_list))
		blob_list[n_blobs++] = cb.blob_id;
	*id = cb.blob_id;
	return 0;
}

uint32_t mmx_mode_blob(struct mmx_dev *d, const drmModeModeInfo *mode)
{
	uint32_t id = 0;

	mmx_do(mmx_blob_create(d, mode, sizeof(*mode), &id));
	return id;
}

void mmx_reset(struct mmx_dev *d)
{
	struct mmx_req *r = mmx_req_new(d);
	int i, ret;

	for (i = 0; i < d->n_planes; i++) {
		uint32_t p = d->planes[i];

		mmx_req_plane_off(r, p);
		if (d->plane_defaults[i].has_zpos_mutable)
			mmx_req_add(r, p, "zpos", d->plane_defaults[i].zpos);
		if (d->plane_defaults[i].has_alpha)
			mmx_req_add(r, p, "alpha", 0xffff);
		if (d->plane_defaults[i].has_blend)
			mmx_req_add(r, p, "pixel blend mode",
				    d->plane_defaults[i].blend_premulti);
		/* standard plane properties back to their defaults */
		if (mmx_prop_lookup(d->fd, p, "rotation", NULL, NULL, NULL))
			mmx_req_add(r, p, "rotation", DRM_MODE_ROTATE_0);
		if (mmx_prop_lookup(d->fd, p, "SCALING_FILTER", NULL, NULL, NULL))
			mmx_req_add(r, p, "SCALING_FILTER",
				    mmx_prop_enum(d, p, "SCALING_FILTER", "Default"));
	}
	for (i = 0; i < d->n_connectors; i++)
		mmx_req_add(r, d->connectors[i], "CRTC_ID", 0);
	for (i = 0; i < d->n_crtcs; i++) {
		static const char *const crtc_defaults[] = {
			"TRANSFORM", "TRANSFORM_FILTER",
		};
		unsigned int k;

		mmx_req_add(r, d->crtcs[i], "MODE_ID", 0);
		mmx_req_add(r, d->crtcs[i], "ACTIVE", 0);
		/* mmx's CRTC properties back to their boot values (0) */
		for (k = 0; k < MMX_ARRAY_SIZE(crtc_defaults); k++)
			if (mmx_prop_lookup(d->fd, d->crtcs[i],
					    crtc_defaults[k], NULL, NULL, NULL))
				mmx_req_add(r, d->crtcs[i], crtc_defaults[k], 0);
	}
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
	mmx_assert_f(ret == 0, "resetting all outputs to off: %s",
		     strerror(-ret));
	mmx_event_flush(d->fd);
}

/* ------------------------------------------------------------------------ */
/* Snapshots                                                                */

static void snap_obj(struct mmx_dev *d, struct mmx_snapshot *s, uint32_t obj)
{
	drmModeObjectPropertiesPtr props;
	uint32_t i;

	props = drmModeObjectGetProperties(d->fd, obj, DRM_MODE_OBJECT_ANY);
	mmx_assert_f(props, "properties of object %u: %s", obj,
		     strerror(errno));
	s->e = realloc(s->e, (size_t)(s->n + (int)props->count_props) *
			     sizeof(*s->e));
	mmx_assert(s->e);
	for (i = 0; i < props->count_props; i++) {
		s->e[s->n].obj = obj;
		s->e[s->n].prop = props->props[i];
		s->e[s->n].value = props->prop_values[i];
		s->n++;
	}
	drmModeFreeObjectProperties(props);
}

void mmx_snapshot_take(struct mmx_dev *d, struct mmx_snapshot *s)
{
	int i;

	memset(s, 0, sizeof(*s));
	for (i = 0; i < d->n_crtcs; i++)
		snap_obj(d, s, d->crtcs[i]);
	for (i = 0; i < d->n_connectors; i++)
		snap_obj(d, s, d->connectors[i]);
	for (i = 0; i < d->n_planes; i++)
		snap_obj(d, s, d->planes[i]);
}

void mmx_snapshot_free(struct mmx_snapshot *s)
{
	free(s->e);
	memset(s, 0, sizeof(*s));
}

static bool volatile_prop(int fd, uint32_t prop, char *name, size_t size)
{
	drmModePropertyRes *p = drmModeGetProperty(fd, prop);
	bool vol = false;

	snprintf(name, size, "prop %u", prop);
	if (!p)
		return false;
	snprintf(name, size, "%s", p->name);
	vol = !strcmp(p->name, "WRITEBACK_OUT_FENCE_PTR") ||
	      !strcmp(p->name, "EDID");
	drmModeFreeProperty(p);
	return vol;
}

bool mmx_snapshot_same(struct mmx_dev *d, const struct mmx_snapshot *s)
{
	struct mmx_snapshot now;
	bool same = true;
	int i;

	mmx_snapshot_take(d, &now);
	if (now.n != s->n) {
		fprintf(stderr, "  property count changed: %d -> %d\n", s->n,
			now.n);
		same = false;
	}
	for (i = 0; i < s->n && i < now.n; i++) {
		char name[DRM_PROP_NAME_LEN + 16];

		if (now.e[i].obj == s->e[i].obj &&
		    now.e[i].prop == s->e[i].prop &&
		    now.e[i].value == s->e[i].value)
			continue;
		if (volatile_prop(d->fd, s->e[i].prop, name, sizeof(name)))
			continue;
		fprintf(stderr, "  object %u %s: 0x%llx -> 0x%llx\n",
			s->e[i].obj, name, (unsigned long long)s->e[i].value,
			(unsigned long long)now.e[i].value);
		same = false;
	}
	mmx_snapshot_free(&now);
	return same;
}

/* ------------------------------------------------------------------------ */
/* Modes                                                                    */

void mmx_mode_make(drmModeModeInfo *m, int w, int h, int refresh)
{
	memset(m, 0, sizeof(*m));
	m->hdisplay = (uint16_t)w;
	m->hsync_start = (uint16_t)(w + 16);
	m->hsync_end = (uint16_t)(w + 48);
	m->htotal = (uint16_t)(w + 80);
	m->vdisplay = (uint16_t)h;
	m->vsync_start = (uint16_t)(h + 3);
	m->vsync_end = (uint16_t)(h + 7);
	m->vtotal = (uint16_t)(h + 10);
	m->clock = (uint32_t)(((uint64_t)m->htotal * m->vtotal * refresh +
			       500) / 1000);
	m->vrefresh = (uint32_t)refresh;
	m->flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC;
	m->type = DRM_MODE_TYPE_USERDEF;
	snprintf(m->name, sizeof(m->name), "%dx%d", w, h);
}

const drmModeModeInfo *mmx_small_mode(void)
{
	static drmModeModeInfo m;

	if (!m.clock)
		mmx_mode_make(&m, 320, 240, 60);
	return &m;
}

bool mmx_mode_find(struct mmx_dev *d, uint32_t conn, int w, int h,
		   drmModeModeInfo *m)
{
	drmModeConnectorPtr c = drmModeGetConnector(d->fd, conn);
	bool found = false;
	int i;

	if (!c)
		return false;
	for (i = 0; i < c->count_modes && !found; i++) {
		if (c->modes[i].hdisplay == w && c->modes[i].vdisplay == h) {
			*m = c->modes[i];
			found = true;
		}
	}
	drmModeFreeConnector(c);
	return found;
}

double mmx_mode_frame_ns(const drmModeModeInfo *m)
{
	return (double)m->htotal * m->vtotal * 1e6 / m->clock;
}

bool mmx_mode_equal(const drmModeModeInfo *a, const drmModeModeInfo *b)
{
	return a->clock == b->clock && a->hdisplay == b->hdisplay &&
	       a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->hskew == b->hskew && a->vdisplay == b->vdisplay &&
	       a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       a->vscan == b->vscan &&
	       (a->flags & ~DRM_MODE_FLAG_PIC_AR_MASK) ==
		       (b->flags & ~DRM_MODE_FLAG_PIC_AR_MASK);
}

void mmx_mode_print(const char *prefix, const drmModeModeInfo *m)
{
	mmx_info("%s\"%s\" %d %d %d %d %d %d %d %d %d vrefresh %u flags 0x%x type 0x%x",
		 prefix, m->name, m->clock, m->hdisplay, m->hsync_start,
		 m->hsync_end, m->htotal, m->vdisplay, m->vsync_start,
		 m->vsync_end, m->vtotal, m->vrefresh, m->flags, m->type);
}

/* ------------------------------------------------------------------------ */
/* Formats and buffers                                                      */

const uint32_t mmx_plane_formats[7] = {
	DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_XBGR8888,
	DRM_FORMAT_ABGR8888, DRM_FORMAT_RGB565, DRM_FORMAT_RGB888,
	DRM_FORMAT_XRGB2101010,
};
const uint32_t mmx_wb_formats[2] = { DRM_FORMAT_XRGB8888,
				     DRM_FORMAT_ARGB8888 };

int mmx_format_cpp(uint32_t format)
{
	switch (format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
	case DRM_FORMAT_XRGB2101010:
	case DRM_FORMAT_ARGB2101010:
		return 4;
	case DRM_FORMAT_RGB888:
	case DRM_FORMAT_BGR888:
		return 3;
	case DRM_FORMAT_RGB565:
	case DRM_FORMAT_XRGB4444:
	case DRM_FORMAT_ARGB4444:
	case DRM_FORMAT_ARGB1555:
	case DRM_FORMAT_XRGB1555:
	case DRM_FORMAT_YUYV:
		return 2;
	case DRM_FORMAT_C8:
	case DRM_FORMAT_R8:
		return 1;
	}
	return 0;
}

bool mmx_format_has_alpha(uint32_t format)
{
	return format == DRM_FORMAT_ARGB8888 || format == DRM_FORMAT_ABGR8888;
}

const char *mmx_format_name(uint32_t format)
{
	static char buf[8][16];
	static int slot;
	char *b;

	switch (format) {
	case DRM_FORMAT_XRGB8888: return "xrgb8888";
	case DRM_FORMAT_ARGB8888: return "argb8888";
	case DRM_FORMAT_XBGR8888: return "xbgr8888";
	case DRM_FORMAT_ABGR8888: return "abgr8888";
	case DRM_FORMAT_RGB565: return "rgb565";
	case DRM_FORMAT_RGB888: return "rgb888";
	case DRM_FORMAT_XRGB2101010: return "xrgb2101010";
	}
	b = buf[slot++ % 8];
	snprintf(b, sizeof(buf[0]), "%c%c%c%c", format & 0xff,
		 (format >> 8) & 0xff, (format >> 16) & 0xff, format >> 24);
	return b;
}

int mmx_bo_create(struct mmx_dev *d, uint64_t size, uint32_t *handle,
		  uint8_t **map, uint64_t *real_size)
{
	struct drm_mode_create_dumb cd = { 0 };
	struct drm_mode_map_dumb md = { 0 };
	void *p;
	int ret;

	if (!size)
		size = 1;
	cd.width = 1024;
	cd.bpp = 32;
	cd.height = (uint32_t)((size + 4095) / 4096);
	ret = mmx_ioctl(d->fd, DRM_IOCTL_MODE_CREATE_DUMB, &cd);
	if (ret)
		return ret;
	if (cd.size < size) {
		struct drm_mode_destroy_dumb dd = { .handle = cd.handle };

		mmx_ioctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
		return -ENOSPC;
	}
	md.handle = cd.handle;
	ret = mmx_ioctl(d->fd, DRM_IOCTL_MODE_MAP_DUMB, &md);
	if (!ret) {
		p = mmap(NULL, cd.size, PROT_READ | PROT_WRITE, MAP_SHARED,
			 d->fd, (off_t)md.offset);
		if (p == MAP_FAILED)
			ret = -errno;
	}
	if (ret) {
		struct drm_mode_destroy_dumb dd = { .handle = cd.handle };

		mmx_ioctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
		return ret;
	}
	*handle = cd.handle;
	*map = p;
	*real_size = cd.size;
	return 0;
}

void mmx_bo_destroy(struct mmx_dev *d, uint32_t handle, uint8_t *map,
		    uint64_t size)
{
	struct drm_mode_destroy_dumb dd = { .handle = handle };

	if (map)
		munmap(map, size);
	mmx_ioctl(d->fd, DRM_IOCTL_MODE_DESTROY_DUMB, &dd);
}

int mmx_count_fbs(struct mmx_dev *d)
{
	drmModeResPtr res = drmModeGetResources(d->fd);
	int n;

	mmx_assert(res);
	n = res->count_fbs;
	drmModeFreeResources(res);
	return n;
}

int mmx_addfb(int fd, uint32_t w, uint32_t h, uint32_t format,
	      uint32_t handle, uint32_t pitch, uint32_t offset, uint32_t *fb_id)
{
	struct drm_mode_fb_cmd2 f = { 0 };
	int ret;

	f.width = w;
	f.height = h;
	f.pixel_format = format;
	f.handles[0] = handle;
	f.pitches[0] = pitch;
	f.offsets[0] = offset;
	ret = mmx_ioctl(fd, DRM_IOCTL_MODE_ADDFB2, &f);
	if (!ret)
		*fb_id = f.fb_id;
	return ret;
}

struct mmx_fb *mmx_fb_new_ex(struct mmx_dev *d, uint32_t w, uint32_t h,
			     uint32_t format, uint32_t pitch, uint32_t offset)
{
	struct mmx_fb *fb = calloc(1, sizeof(*fb));
	int ret;

	mmx_assert(fb);
	fb->d = d;
	fb->format = format;
	fb->cpp = mmx_format_cpp(format);
	mmx_assert_f(fb->cpp, "unknown format %s", mmx_format_name(format));
	fb->width = w;
	fb->height = h;
	fb->pitch = pitch ? pitch : w * (uint32_t)fb->cpp;
	fb->offset = offset;
	ret = mmx_bo_create(d, (uint64_t)offset + (uint64_t)fb->pitch * h,
			    &fb->handle, &fb->map, &fb->size);
	if (ret) {
		free(fb);
		mmx_fail("creating a %ux%u dumb buffer: %s", w, h,
			 strerror(-ret));
	}
	fb->next = fb_list;
	fb_list = fb;
	ret = mmx_addfb(d->fd, w, h, format, fb->handle, fb->pitch, offset,
			&fb->id);
	mmx_assert_f(ret == 0, "ADDFB2 %ux%u %s pitch %u offset %u: %s", w, h,
		     mmx_format_name(format), fb->pitch, offset,
		     strerror(-ret));
	return fb;
}

struct mmx_fb *mmx_fb_new(struct mmx_dev *d, uint32_t w, uint32_t h,
			  uint32_t format)
{
	return mmx_fb_new_ex(d, w, h, format, 0, 0);
}

void mmx_fb_free(struct mmx_fb *fb)
{
	struct mmx_fb **pp;

	if (!fb)
		return;
	for (pp = &fb_list; *pp; pp = &(*pp)->next) {
		if (*pp == fb) {
			*pp = fb->next;
			break;
		}
	}
	if (fb->id)
		drmModeRmFB(fb->d->fd, fb->id);
	mmx_bo_destroy(fb->d, fb->handle, fb->map, fb->size);
	free(fb);
}

uint32_t mmx_fb_get_raw(const struct mmx_fb *fb, int x, int y)
{
	const uint8_t *p = mmx_fb_ptr(fb, x, y);
	uint32_t v = 0;
	int i;

	for (i = fb->cpp - 1; i >= 0; i--)
		v = (v << 8) | p[i];
	return v;
}

void mmx_fb_put_raw(struct mmx_fb *fb, int x, int y, uint32_t raw)
{
	uint8_t *p = mmx_fb_ptr(fb, x, y);
	int i;

	for (i = 0; i < fb->cpp; i++)
		p[i] = (uint8_t)(raw >> (8 * i));
}

uint32_t mmx_encode(uint32_t format, uint32_t argb)
{
	uint32_t a = argb >> 24, r = (argb >> 16) & 0xff;
	uint32_t g = (argb >> 8) & 0xff, b = argb & 0xff;

	switch (format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
		return argb;
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888:
		return a << 24 | b << 16 | g << 8 | r;
	case DRM_FORMAT_RGB565:
		return (r >> 3) << 11 | (g >> 2) << 5 | (b >> 3);
	case DRM_FORMAT_RGB888:
		return r << 16 | g << 8 | b;
	case DRM_FORMAT_XRGB2101010:
		return (a >> 6) << 30 | ((r << 2) | (r >> 6)) << 20 |
		       ((g << 2) | (g >> 6)) << 10 | ((b << 2) | (b >> 6));
	}
	mmx_fail("no encoder for format %s", mmx_format_name(format));
}

void mmx_fb_put(struct mmx_fb *fb, int x, int y, uint32_t argb)
{
	mmx_fb_put_raw(fb, x, y, mmx_encode(fb->format, argb));
}

void mmx_fb_rect(struct mmx_fb *fb, int x0, int y0, int w, int h,
		 uint32_t argb)
{
	uint32_t raw = mmx_encode(fb->format, argb);
	int x, y;

	for (y = y0; y < y0 + h; y++) {
		if (y < 0 || y >= (int)fb->height)
			continue;
		for (x = x0; x < x0 + w; x++) {
			if (x < 0 || x >= (int)fb->width)
				continue;
			mmx_fb_put_raw(fb, x, y, raw);
		}
	}
}

void mmx_fb_fill(struct mmx_fb *fb, uint32_t argb)
{
	mmx_fb_rect(fb, 0, 0, (int)fb->width, (int)fb->height, argb);
}

static uint32_t xorshift(uint32_t *s)
{
	uint32_t x = *s;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	*s = x;
	return x;
}

void mmx_fb_random(struct mmx_fb *fb, uint32_t seed, enum mmx_alpha_mode am)
{
	uint32_t s = seed * 2654435761u + 0x9e3779b9u;
	bool alpha = mmx_format_has_alpha(fb->format);
	int x, y;

	if (!s)
		s = 1;
	for (y = 0; y < (int)fb->height; y++) {
		for (x = 0; x < (int)fb->width; x++) {
			uint32_t raw = xorshift(&s);

			if (fb->cpp < 4)
				raw &= (1u << (8 * fb->cpp)) - 1;
			if (alpha && am != MMX_ALPHA_ANY) {
				/* both alpha formats keep alpha in bits 31:24 */
				uint32_t a = raw >> 24;
				uint32_t c0 = raw & 0xff, c1 = (raw >> 8) & 0xff;
				uint32_t c2 = (raw >> 16) & 0xff;
				uint32_t sel = xorshift(&s) % 4;

				if (am == MMX_ALPHA_BINARY ||
				    am == MMX_ALPHA_BINARY_PREMULT)
					a = (sel & 1) ? 0xff : 0;
				else if (sel == 0)
					a = 0;
				else if (sel == 1)
					a = 0xff;
				if (am == MMX_ALPHA_PREMULT ||
				    am == MMX_ALPHA_BINARY_PREMULT) {
					c0 = c0 % (a + 1);
					c1 = c1 % (a + 1);
					c2 = c2 % (a + 1);
				}
				raw = a << 24 | c2 << 16 | c1 << 8 | c0;
			}
			mmx_fb_put_raw(fb, x, y, raw);
		}
	}
}

struct mmx_fb *mmx_fb_new_random(struct mmx_dev *d, uint32_t w, uint32_t h,
				 uint32_t format, uint32_t seed,
				 enum mmx_alpha_mode am)
{
	struct mmx_fb *fb = mmx_fb_new(d, w, h, format);

	mmx_fb_random(fb, seed, am);
	return fb;
}

void mmx_fb_copy(struct mmx_fb *dst, const struct mmx_fb *src)
{
	int x, y;

	for (y = 0; y < (int)src->height && y < (int)dst->height; y++)
		for (x = 0; x < (int)src->width && x < (int)dst->width; x++)
			mmx_fb_put(dst, x, y,
				   mmx_ref_decode(src->format,
						  mmx_fb_ptr(src, x, y)));
}

/* ------------------------------------------------------------------------ */
/* Reference: format decode and blending                                    */

const char *const mmx_blend_names[3] = {
	[MMX_BLEND_NONE] = "None",
	[MMX_BLEND_PREMULTI] = "Pre-multiplied",
	[MMX_BLEND_COVERAGE] = "Coverage",
};

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/*
 * Conversions exactly as the uAPI/contract define them: 8-bit channels are
 * taken as they are, RGB565 replicates the top bits into the low ones,
 * 10-bit channels drop their two low bits; X formats are opaque.
 */
uint32_t mmx_ref_decode(uint32_t format, const uint8_t *p)
{
	uint32_t v, a = 0xff, r, g, b;

	switch (format) {
	case DRM_FORMAT_XRGB8888:
	case DRM_FORMAT_ARGB8888:
	case DRM_FORMAT_XBGR8888:
	case DRM_FORMAT_ABGR8888: {
		/* red in bits 16..23 (RGB orders) or 0..7 (BGR orders) */
		int rs = format == DRM_FORMAT_XRGB8888 ||
			 format == DRM_FORMAT_ARGB8888 ? 16 : 0;

		v = le32(p);
		r = (v >> rs) & 0xff;
		g = (v >> 8) & 0xff;
		b = (v >> (16 - rs)) & 0xff;
		if (mmx_format_has_alpha(format))
			a = v >> 24;
		break;
	}
	case DRM_FORMAT_RGB565: {
		uint32_t r5, g6, b5;

		v = (uint32_t)p[0] | (uint32_t)p[1] << 8;
		r5 = v >> 11;
		g6 = (v >> 5) & 0x3f;
		b5 = v & 0x1f;
		r = (r5 << 3) | (r5 >> 2);
		g = (g6 << 2) | (g6 >> 4);
		b = (b5 << 3) | (b5 >> 2);
		break;
	}
	case DRM_FORMAT_RGB888:
		b = p[0];
		g = p[1];
		r = p[2];
		break;
	case DRM_FORMAT_XRGB2101010:
		v = le32(p);
		r = ((v >> 20) & 0x3ff) >> 2;
		g = ((v >> 10) & 0x3ff) >> 2;
		b = (v & 0x3ff) >> 2;
		break;
	default:
		mmx_fail("no reference decoder for format %s",
			 mmx_format_name(format));
	}
	return a << 24 | r << 16 | g << 8 | b;
}

struct mmx_frame *mmx_frame_new(int w, int h)
{
	struct mmx_frame *f = calloc(1, sizeof(*f));

	mmx_assert(f);
	f->w = w;
	f->h = h;
	f->px = calloc((size_t)w * h, sizeof(uint32_t));
	f->tol = calloc((size_t)w * h, 1);
	mmx_assert(f->px && f->tol);
	return f;
}

void mmx_frame_free(struct mmx_frame *f)
{
	if (!f)
		return;
	free(f->px);
	free(f->tol);
	free(f);
}

struct mmx_ref_plane mmx_ref_fb(const struct mmx_fb *fb, int x, int y)
{
	struct mmx_ref_plane p = {
		.fb = fb,
		.crtc_x = x,
		.crtc_y = y,
		.w = (int)fb->width,
		.h = (int)fb->height,
		.alpha = 0xffff,
		.blend = MMX_BLEND_PREMULTI,
	};

	return p;
}

/*
 * DRM's documented blend equations (drm_blend.c, "pixel blend mode"), in
 * double precision on 0..255 channel values, bottom to top over black:
 *   None:           out = pa * fg + (1 - pa) * bg
 *   Pre-multiplied: out = pa * fg + (1 - pa * fg.a) * bg
 *   Coverage:       out = pa * fg.a * fg + (1 - pa * fg.a) * bg
 * The result is rounded once at the end. A pixel is expected exactly when
 * every layer that still shows had pa = 1 and fg.a in {0, 1}; otherwise
 * within 1 of the rounded exact value.
 */
void mmx_ref_compose(struct mmx_frame *f, const struct mmx_ref_plane *planes,
		     int n)
{
	int x, y, i, c;

	for (y = 0; y < f->h; y++) {
		for (x = 0; x < f->w; x++) {
			double bg[3] = { 0, 0, 0 };
			bool exact = true;
			uint32_t out = 0;

			for (i = 0; i < n; i++) {
				const struct mmx_ref_plane *p = &planes[i];
				double pa = p->alpha / 65535.0, fa, kfg, kbg;
				double fg[3];
				uint32_t px, a8;
				bool step_exact;

				if (x < p->crtc_x || x >= p->crtc_x + p->w ||
				    y < p->crtc_y || y >= p->crtc_y + p->h)
					continue;
				px = mmx_ref_decode(p->fb->format,
						    mmx_fb_ptr(p->fb,
							       p->src_x + x - p->crtc_x,
							       p->src_y + y - p->crtc_y));
				a8 = px >> 24;
				fa = a8 / 255.0;
				fg[0] = (px >> 16) & 0xff;
				fg[1] = (px >> 8) & 0xff;
				fg[2] = px & 0xff;
				switch (p->blend) {
				case MMX_BLEND_NONE:
					kfg = pa;
					kbg = 1.0 - pa;
					break;
				case MMX_BLEND_PREMULTI:
					kfg = pa;
					kbg = 1.0 - pa * fa;
					break;
				case MMX_BLEND_COVERAGE:
				default:
					kfg = pa * fa;
					kbg = 1.0 - pa * fa;
					break;
				}
				for (c = 0; c < 3; c++) {
					bg[c] = kfg * fg[c] + kbg * bg[c];
					if (bg[c] > 255.0)
						bg[c] = 255.0;
					if (bg[c] < 0.0)
						bg[c] = 0.0;
				}
				step_exact = p->alpha == 0xffff &&
					     (a8 == 0 || a8 == 0xff);
				exact = kbg == 0.0 ? step_exact :
						     exact && step_exact;
			}
			for (c = 0; c < 3; c++)
				out = out << 8 | (uint32_t)lround(bg[c]);
			f->px[(size_t)y * f->w + x] = out;
			f->tol[(size_t)y * f->w + x] = exact ? 0 : 1;
		}
	}
}

static void dump_ppm(const char *path, int w, int h, const uint32_t *px,
		     size_t stride_px)
{
	FILE *fp = fopen(path, "wb");
	int x, y;

	if (!fp)
		return;
	fprintf(fp, "P6\n%d %d\n255\n", w, h);
	for (y = 0; y < h; y++) {
		for (x = 0; x < w; x++) {
			uint32_t v = px[(size_t)y * stride_px + x];

			fputc((v >> 16) & 0xff, fp);
			fputc((v >> 8) & 0xff, fp);
			fputc(v & 0xff, fp);
		}
	}
	fclose(fp);
	fprintf(stderr, "  dumped %s\n", path);
}

static int chan_diff(uint32_t a, uint32_t b, int shift)
{
	return abs((int)((a >> shift) & 0xff) - (int)((b >> shift) & 0xff));
}

bool mmx_frame_check(const struct mmx_fb *got, const struct mmx_frame *f,
		     const char *what)
{
	long bad = 0, bad_alpha = 0;
	int x, y, shown = 0;

	if ((int)got->width != f->w || (int)got->height != f->h) {
		fprintf(stderr, "  %s: captured %ux%u, expected %dx%d\n", what,
			got->width, got->height, f->w, f->h);
		return false;
	}
	for (y = 0; y < f->h; y++) {
		const uint8_t *row = mmx_fb_ptr(got, 0, y);

		for (x = 0; x < f->w; x++) {
			uint32_t g = le32(row + 4 * x);
			uint32_t e = f->px[(size_t)y * f->w + x];
			int tol = f->tol[(size_t)y * f->w + x];

			if (got->format == DRM_FORMAT_ARGB8888 &&
			    (g >> 24) != 0xff) {
				if (bad_alpha++ < 3)
					fprintf(stderr, "  %s: (%d,%d) alpha 0x%02x, expected 0xff\n",
						what, x, y, g >> 24);
			}
			if (chan_diff(g, e, 16) <= tol &&
			    chan_diff(g, e, 8) <= tol &&
			    chan_diff(g, e, 0) <= tol)
				continue;
			if (shown++ < 8)
				fprintf(stderr, "  %s: pixel (%d,%d) got %06x expected %06x (tolerance %d)\n",
					what, x, y, g & 0xffffff, e, tol);
			bad++;
		}
	}
	if (bad || bad_alpha) {
		const char *dir = getenv("MMX_IGT_DUMP");

		fprintf(stderr, "  %s: %ld of %d pixels differ, %ld with alpha != 0xff\n",
			what, bad, f->w * f->h, bad_alpha);
		if (dir) {
			char path[512];
			uint32_t *tmp = malloc((size_t)f->w * f->h * 4);

			snprintf(path, sizeof(path), "%s/%s-%s-expected.ppm",
				 dir, mmx_current_subtest(), what);
			dump_ppm(path, f->w, f->h, f->px, (size_t)f->w);
			if (tmp) {
				for (y = 0; y < f->h; y++)
					for (x = 0; x < f->w; x++)
						tmp[(size_t)y * f->w + x] =
							le32(mmx_fb_ptr(got, x, y));
				snprintf(path, sizeof(path), "%s/%s-%s-got.ppm",
					 dir, mmx_current_subtest(), what);
				dump_ppm(path, f->w, f->h, tmp, (size_t)f->w);
				free(tmp);
			}
		}
		return false;
	}
	return true;
}

/* ------------------------------------------------------------------------ */
/* Writeback                                                                */

struct mmx_fb *mmx_wb_fb(struct mmx_dev *d, const drmModeModeInfo *mode,
			 uint32_t format)
{
	return mmx_fb_new(d, mode->hdisplay, mode->vdisplay,
			  format ? format : DRM_FORMAT_XRGB8888);
}

int mmx_fence_wait(int fence, int timeout_ms)
{
	struct pollfd pfd = { .fd = fence, .events = POLLIN };
	int64_t end = mmx_now_ns() + (int64_t)timeout_ms * 1000000;
	int ret;

	for (;;) {
		int left = (int)((end - mmx_now_ns()) / 1000000);

		if (left < 0)
			left = 0;
		ret = poll(&pfd, 1, left);
		if (ret > 0)
			return (pfd.revents & (POLLERR | POLLNVAL)) ? -EINVAL : 0;
		if (ret == 0)
			return -ETIMEDOUT;
		if (errno != EINTR)
			return -errno;
	}
}

int mmx_wb_capture(struct mmx_dev *d, struct mmx_output *o,
		   struct mmx_fb *wb)
{
	struct mmx_req *r;
	int32_t fence = -1;
	size_t i;
	int ret;

	mmx_assert_f(o->wb_conn_id, "output %d has no writeback connector",
		     o->index);
	/* poison the buffer so that a writeback that writes nothing fails */
	for (i = 0; i + 4 <= wb->size; i += 4)
		memcpy(wb->map + i, "\x5a\xa5\x5a\xa5", 4);
	r = mmx_req_new(d);
	mmx_req_add(r, o->wb_conn_id, "CRTC_ID", o->crtc_id);
	mmx_req_add(r, o->wb_conn_id, "WRITEBACK_FB_ID", wb->id);
	mmx_req_add(r, o->wb_conn_id, "WRITEBACK_OUT_FENCE_PTR",
		    (uintptr_t)&fence);
	ret = mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
	if (ret)
		return ret;
	mmx_assert_f(fence >= 0, "no writeback out-fence returned (%d)", fence);
	ret = mmx_fence_wait(fence, 10000);
	close(fence);
	mmx_assert_f(ret == 0, "writeback fence of output %d: %s", o->index,
		     strerror(-ret));
	return 0;
}

void mmx_check_output(struct mmx_dev *d, struct mmx_output *o,
		      const drmModeModeInfo *mode,
		      const struct mmx_ref_plane *planes, int n,
		      const char *what)
{
	struct mmx_fb *wb = mmx_wb_fb(d, mode, DRM_FORMAT_XRGB8888);
	struct mmx_frame *f = mmx_frame_new(mode->hdisplay, mode->vdisplay);
	int ret;

	ret = mmx_wb_capture(d, o, wb);
	mmx_assert_f(ret == 0, "%s: writeback capture commit: %s", what,
		     strerror(-ret));
	mmx_ref_compose(f, planes, n);
	if (!mmx_frame_check(wb, f, what)) {
		mmx_frame_free(f);
		mmx_fail("%s: captured frame differs from the reference", what);
	}
	mmx_frame_free(f);
	mmx_fb_free(wb);
}

/* ------------------------------------------------------------------------ */
/* CRC                                                                      */

int mmx_crc_start(struct mmx_dev *d, int index, struct mmx_crc *c)
{
	char path[256];
	int ret, fd;

	memset(c, 0, sizeof(*c));
	c->fd = -1;
	c->index = index;
	snprintf(path, sizeof(path), "%s/crtc-%d/crc/control", d->debugfs,
		 index);
	ret = mmx_write_file(path, "auto");
	if (ret)
		return ret;
	snprintf(path, sizeof(path), "%s/crtc-%d/crc/data", d->debugfs, index);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	track_fd(fd);
	c->fd = fd;
	return 0;
}

int mmx_crc_next(struct mmx_crc *c, uint32_t *frame, uint32_t *crc)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLIN };
	char buf[512], *p, *end;
	ssize_t n;
	int ret;

	do {
		ret = poll(&pfd, 1, 5000);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	if (ret == 0)
		return -ETIMEDOUT;
	do {
		n = read(c->fd, buf, sizeof(buf) - 1);
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	if (n == 0)
		return -ENODATA;
	buf[n] = 0;
	if (!strncmp(buf, "XXXXXXXXXX", 10)) {
		*frame = UINT32_MAX;
		p = buf + 10;
	} else {
		*frame = (uint32_t)strtoul(buf, &p, 0);
		if (p == buf)
			return -EPROTO;
	}
	c->values = 0;
	for (;;) {
		unsigned long v = strtoul(p, &end, 0);

		if (end == p)
			break;
		if (!c->values)
			*crc = (uint32_t)v;
		c->values++;
		p = end;
	}
	return c->values ? 0 : -EPROTO;
}

void mmx_crc_stop(struct mmx_crc *c)
{
	if (c->fd >= 0) {
		untrack_fd(c->fd);
		close(c->fd);
	}
	c->fd = -1;
}

void mmx_crc_collect(struct mmx_dev *d, int index, int n, uint32_t *crcs,
		     uint32_t *frames)
{
	struct mmx_crc c;
	uint32_t frame, crc, last = 0;
	int i, ret;

	ret = mmx_crc_start(d, index, &c);
	mmx_assert_f(ret == 0, "starting CRC capture on crtc-%d: %s", index,
		     strerror(-ret));
	/* the first entries may predate the last commit's frame */
	for (i = 0; i < 2; i++) {
		ret = mmx_crc_next(&c, &frame, &crc);
		mmx_assert_f(ret == 0, "reading CRC of crtc-%d: %s", index,
			     strerror(-ret));
		last = frame;
	}
	for (i = 0; i < n; i++) {
		ret = mmx_crc_next(&c, &frame, &crc);
		mmx_assert_f(ret == 0, "reading CRC of crtc-%d: %s", index,
			     strerror(-ret));
		mmx_assert_f(frame == UINT32_MAX || frame > last,
			     "CRC frame numbers not increasing: %u after %u",
			     frame, last);
		last = frame;
		crcs[i] = crc;
		if (frames)
			frames[i] = frame;
	}
	mmx_crc_stop(&c);
}

uint32_t mmx_crc_get(struct mmx_dev *d, int index)
{
	uint32_t crcs[3];
	int i;

	mmx_crc_collect(d, index, 3, crcs, NULL);
	for (i = 1; i < 3; i++)
		mmx_assert_f(crcs[i] == crcs[0],
			     "CRC of a static frame changed: 0x%08x -> 0x%08x",
			     crcs[0], crcs[i]);
	return crcs[0];
}

/* ------------------------------------------------------------------------ */
/* Events and vblank                                                        */

static struct event_queue {
	int fd;
	size_t len, pos;
	uint8_t buf[4096];
} queues[4];

static struct event_queue *queue_of(int fd)
{
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(queues); i++)
		if (queues[i].fd == fd && queues[i].len)
			return &queues[i];
	for (i = 0; i < MMX_ARRAY_SIZE(queues); i++)
		if (!queues[i].len) {
			queues[i].fd = fd;
			queues[i].pos = 0;
			return &queues[i];
		}
	queues[0].len = 0;
	queues[0].pos = 0;
	queues[0].fd = fd;
	return &queues[0];
}

void mmx_event_flush(int fd)
{
	struct event_queue *q = queue_of(fd);
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	uint8_t buf[4096];

	q->len = q->pos = 0;
	while (poll(&pfd, 1, 0) > 0 && (pfd.revents & POLLIN)) {
		if (read(fd, buf, sizeof(buf)) <= 0)
			break;
	}
}

int mmx_event_wait(int fd, int timeout_ms, struct mmx_event *ev)
{
	struct event_queue *q = queue_of(fd);
	struct drm_event *e;

	if (q->pos >= q->len) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int ret;

		q->len = q->pos = 0;
		do {
			ret = poll(&pfd, 1, timeout_ms);
		} while (ret < 0 && errno == EINTR);
		if (ret < 0)
			return -errno;
		if (ret == 0)
			return -ETIMEDOUT;
		n = read(fd, q->buf, sizeof(q->buf));
		if (n < 0)
			return -errno;
		if (n < (ssize_t)sizeof(struct drm_event))
			return -EPROTO;
		q->len = (size_t)n;
		q->fd = fd;
	}
	e = (struct drm_event *)(q->buf + q->pos);
	if (e->length < sizeof(*e) || q->pos + e->length > q->len) {
		q->len = q->pos = 0;
		return -EPROTO;
	}
	memset(ev, 0, sizeof(*ev));
	ev->type = e->type;
	if (e->type == DRM_EVENT_VBLANK || e->type == DRM_EVENT_FLIP_COMPLETE) {
		struct drm_event_vblank *v = (struct drm_event_vblank *)e;

		ev->user_data = v->user_data;
		ev->sequence = v->sequence;
		ev->sequence64 = v->sequence;
		ev->crtc_id = v->crtc_id;
		ev->ns = (int64_t)v->tv_sec * 1000000000LL +
			 (int64_t)v->tv_usec * 1000;
	} else if (e->type == DRM_EVENT_CRTC_SEQUENCE) {
		struct drm_event_crtc_sequence *s =
			(struct drm_event_crtc_sequence *)e;

		ev->user_data = s->user_data;
		ev->sequence64 = s->sequence;
		ev->sequence = (uint32_t)s->sequence;
		ev->ns = s->time_ns;
	}
	q->pos += e->length;
	if (q->pos >= q->len)
		q->len = q->pos = 0;
	return 0;
}

int mmx_vblank_wait(int fd, int index, uint32_t type, uint32_t seq,
		    drmVBlankReply *reply)
{
	drmVBlank vbl;
	int ret;

	memset(&vbl, 0, sizeof(vbl));
	vbl.request.type = (drmVBlankSeqType)(type |
		((index << DRM_VBLANK_HIGH_CRTC_SHIFT) &
		 DRM_VBLANK_HIGH_CRTC_MASK));
	vbl.request.sequence = seq;
	ret = mmx_ioctl(fd, DRM_IOCTL_WAIT_VBLANK, &vbl);
	if (!ret && reply)
		*reply = vbl.reply;
	return ret;
}

long long mmx_crtc_stat(struct mmx_dev *d, int index, const char *file,
			const char *key)
{
	char path[256], buf[512], *p;
	size_t len = strlen(key);

	snprintf(path, sizeof(path), "%s/crtc-%d/%s", d->debugfs, index, file);
	if (mmx_read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	for (p = buf; p; p = strchr(p, '\n')) {
		p += *p == '\n';
		if (!strncmp(p, key, len) && p[len] == ':')
			return strtoll(p + len + 1, NULL, 10);
	}
	return -1;
}

long long mmx_vblank_missed(struct mmx_dev *d, int index)
{
	long long missed = mmx_crtc_stat(d, index, "mmx_vblank", "missed");

	mmx_assert_f(missed >= 0, "crtc-%d/mmx_vblank has no missed count",
		     index);
	return missed;
}

void mmx_assert_vblank_seq(struct mmx_dev *d, int index,
			   long long missed_before, uint64_t seq,
			   uint64_t target, const char *what)
{
	long long missed;

	if (seq == target)
		return;
	missed = mmx_vblank_missed(d, index) - missed_before;
	mmx_assert_f(seq > target && missed > 0 &&
		     (uint64_t)missed >= seq - target,
		     "%s: sequence %llu, %llu expected (%lld vblanks missed meanwhile)",
		     what, (unsigned long long)seq,
		     (unsigned long long)target, missed);
	mmx_info("%s: sequence %llu, %llu aimed at: CRTC %d missed %lld vblank(s) meanwhile",
		 what, (unsigned long long)seq, (unsigned long long)target,
		 index, missed);
}

/* ------------------------------------------------------------------------ */
/* Timing under emulation                                                   */

/*
 * Run ONCE (returns whether the timing criteria held) up to five times;
 * the first attempt that meets them passes. Correctness checks inside ONCE
 * fail at once. Timing alone fails only when every attempt missed and at
 * least one of them ran without the guest stalling for half a frame: one
 * miss proves nothing on a loaded host (a vCPU the host did not run can
 * delay the driver's work while the stall monitor's vCPU runs on), five
 * in a row do. If the guest stalled in every attempt the host is too
 * loaded to judge: SKIP.
 */
#define MMX_TIMING_ATTEMPTS 5

void mmx_timing_attempts(bool (*once)(struct mmx_dev *, void *),
			    struct mmx_dev *d, void *arg, double frame_ns,
			    const char *what)
{
	int attempt, calm = 0;

	for (attempt = 1; attempt <= MMX_TIMING_ATTEMPTS; attempt++) {
		int64_t stall;
		bool ok;

		mmx_assert(mmx_stall_monitor_start_at((int64_t)(frame_ns / 2)) == 0);
		ok = once(d, arg);
		mmx_stall_monitor_stop();
		stall = mmx_stall_longest();
		if (ok)
			return;
		mmx_info("%s: attempt %d missed the timing criteria (longest guest stall %.1f ms)",
			 what, attempt, stall / 1e6);
		if (stall < (int64_t)(frame_ns / 2))
			calm++;
	}
	if (mmx_kernel_sanitized())
		mmx_skip("%s: timing criteria missed in all %d attempts on a KASAN kernel, timing not judged",
			 what, MMX_TIMING_ATTEMPTS);
	if (calm)
		mmx_fail("%s: timing criteria missed in all %d attempts, %d of them without the guest stalling",
			 what, MMX_TIMING_ATTEMPTS, calm);
	mmx_skip("%s: the guest stalled for more than half a frame in every attempt (host overloaded), timing not judged",
		 what);
}

/* ------------------------------------------------------------------------ */
/* Stall monitor                                                            */

/*
 * One monitor per process: a thread that sleeps 2 ms at a time, records
 * every gap between its wakeups longer than the threshold (up to
 * MMX_MAX_STALLS of them) and keeps the longest gap.
 */
#define MMX_STALL_NS	25000000ll
#define MMX_MAX_STALLS	4096

static struct {
	pthread_t thread;
	volatile bool run;
	int64_t threshold;
	volatile int64_t longest;
	int64_t from[MMX_MAX_STALLS], to[MMX_MAX_STALLS];
	volatile unsigned int n;
} stall_mon;

static void *stall_monitor(void *arg)
{
	int64_t prev = mmx_now_ns();

	(void)arg;
	while (stall_mon.run) {
		int64_t t;

		mmx_sleep_ms(2);
		t = mmx_now_ns();
		if (t - prev > stall_mon.longest)
			stall_mon.longest = t - prev;
		if (t - prev > stall_mon.threshold &&
		    stall_mon.n < MMX_MAX_STALLS) {
			stall_mon.from[stall_mon.n] = prev;
			stall_mon.to[stall_mon.n] = t;
			stall_mon.n++;
		}
		prev = t;
	}
	return NULL;
}

int mmx_stall_monitor_start_at(int64_t threshold_ns)
{
	int err;

	/* a previous run may have left through a failed assertion */
	mmx_stall_monitor_stop();
	stall_mon.threshold = threshold_ns;
	stall_mon.longest = 0;
	stall_mon.n = 0;
	stall_mon.run = true;
	err = pthread_create(&stall_mon.thread, NULL, stall_monitor, NULL);
	if (err)
		stall_mon.run = false;
	return -err;
}

void mmx_stall_monitor_start(void)
{
	mmx_stall_monitor_start_at(MMX_STALL_NS);
}

void mmx_stall_monitor_stop(void)
{
	if (!stall_mon.run)
		return;
	stall_mon.run = false;
	pthread_join(stall_mon.thread, NULL);
}

bool mmx_stalled(int64_t a, int64_t b)
{
	unsigned int i;

	for (i = 0; i < stall_mon.n; i++)
		if (stall_mon.to[i] >= a && stall_mon.from[i] <= b)
			return true;
	return false;
}

unsigned int mmx_stall_count(void)
{
	return stall_mon.n;
}

int64_t mmx_stall_longest(void)
{
	return stall_mon.longest;
}

bool mmx_kernel_sanitized(void)
{
	static int sanitized = -1;
	char line[256];
	FILE *f;

	if (sanitized >= 0)
		return sanitized;
	sanitized = 0;
	f = fopen("/proc/kallsyms", "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, " kasan_report\n")) {
			sanitized = 1;
			break;
		}
	}
	fclose(f);
	return sanitized;
}
