// SPDX-License-Identifier: MIT
/*
 * kms_mmx_output - RandR 1.3 output properties of the mmx connectors
 * (ConnectorType, ConnectorNumber, SignalFormat, SignalProperties, EDID,
 * CompatibilityList, CloneList), the simulated sinks behind debugfs
 * mmx_sink and mmx_edid, hotplug uevents and probe-free connector queries.
 *
 * The contract is include/uapi/drm/mmx_drm.h, "DOC: output properties",
 * and Documentation/mmx.rst. Everything expected here comes from those
 * texts (and RandR's value names), not from the driver's tables: the EDID
 * parser, the link capacity formula and the TV timings checks are the
 * test's own.
 *
 * Run with every interesting kind, e.g.
 *   modprobe mmx connectors=DVI-I,VGA,HDMI-A,DP,Composite,SVIDEO,Component,eDP
 * Subtests whose connector kinds are missing skip (or test less).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/netlink.h>

#include "mmx_igt.h"
#include "../common/randr_signal.h"

/* ------------------------------------------------------------------------ */
/* The contract, as tables                                                  */

/* SignalFormat values: RandR's order, as the uAPI header numbers them. */
enum {
	SF_UNKNOWN,
	SF_VGA,
	SF_TMDS,
	SF_LVDS,
	SF_COMPOSITE,
	SF_COMPOSITE_PAL,
	SF_COMPOSITE_NTSC,
	SF_COMPOSITE_SECAM,
	SF_SVIDEO,
	SF_COMPONENT,
	SF_DISPLAYPORT,
	SF_COUNT,
};

static const char *const sf_names[SF_COUNT] = {
	"unknown", "VGA", "TMDS", "LVDS", "Composite", "Composite-PAL",
	"Composite-NTSC", "Composite-SECAM", "SVideo", "Component",
	"DisplayPort",
};

/* ConnectorType values: RandR's 15 names, in RandR's order. */
static const char *const ct_names[15] = {
	"unknown", "VGA", "DVI", "DVI-I", "DVI-A", "DVI-D", "HDMI", "Panel",
	"TV", "TV-Composite", "TV-SVideo", "TV-Component", "TV-SCART", "TV-C4",
	"DisplayPort",
};

/*
 * The signal attributes in RandR's order: a SignalProperties enum value is
 * the set of its attributes, attribute p being bit p (uAPI header).
 */
#define sp_attr_names randr_signal_attrs
#define SP_ATTRS ((int)MMX_ARRAY_SIZE(sp_attr_names))
_Static_assert(SP_ATTRS == RANDR_SIGNAL_END, "randr_signal_group is stale");

#define F(x) (1u << SF_##x)
#define F_COMPOSITE_ALL (F(COMPOSITE) | F(COMPOSITE_PAL) | \
			 F(COMPOSITE_NTSC) | F(COMPOSITE_SECAM))
#define F_TV (F_COMPOSITE_ALL | F(SVIDEO))

enum clone_group { CG_NONE, CG_ANALOG, CG_DIGITAL };

/*
 * Per connector kind (module parameter name): the RandR ConnectorType, the
 * SignalFormat subset (uAPI header), the default sink and signal
 * (Documentation/mmx.rst), HPD or polled, clone group (uAPI header).
 */
static const struct kind_info {
	const char *kind;
	const char *ctype;
	uint32_t formats;
	int default_format;
	const char *sink;
	bool hpd;
	enum clone_group group;
} kind_table[] = {
	{ "VGA", "VGA", F(VGA), SF_VGA, "vga", false, CG_ANALOG },
	{ "DVI-I", "DVI-I", F(VGA) | F(TMDS), SF_TMDS, "dvi", true, CG_DIGITAL },
	{ "DVI-D", "DVI-D", F(TMDS), SF_TMDS, "dvi", true, CG_DIGITAL },
	{ "DVI-A", "DVI-A", F(VGA), SF_VGA, "vga", false, CG_ANALOG },
	{ "HDMI-A", "HDMI", F(TMDS), SF_TMDS, "hdmi", true, CG_DIGITAL },
	{ "DP", "DisplayPort", F(DISPLAYPORT), SF_DISPLAYPORT, "dp-4k", true,
	  CG_DIGITAL },
	{ "eDP", "Panel", F(DISPLAYPORT), SF_DISPLAYPORT, "panel", true,
	  CG_NONE },
	{ "LVDS", "Panel", F(LVDS), SF_LVDS, "panel", false, CG_NONE },
	{ "Composite", "TV-Composite", F_COMPOSITE_ALL, SF_COMPOSITE_NTSC,
	  "ntsc-tv", false, CG_ANALOG },
	{ "SVIDEO", "TV-SVideo", F(SVIDEO), SF_SVIDEO, "ntsc-tv", false,
	  CG_ANALOG },
	{ "Component", "TV-Component", F(COMPONENT), SF_COMPONENT,
	  "component-tv", false, CG_ANALOG },
	{ "TV", "TV", F_TV, SF_COMPOSITE_NTSC, "ntsc-tv", false, CG_ANALOG },
	{ "SCART", "TV-SCART", F_TV | F(COMPONENT), SF_COMPOSITE_PAL, "pal-tv",
	  false, CG_ANALOG },
};

static const struct kind_info *kind_of(struct mmx_dev *d, struct mmx_output *o)
{
	const char *k = d->expect.kinds[o->index];
	size_t i;

	for (i = 0; i < MMX_ARRAY_SIZE(kind_table); i++)
		if (!strcasecmp(kind_table[i].kind, k))
			return &kind_table[i];
	mmx_fail("output %d: unknown connector kind \"%s\"", o->index, k);
}

static struct mmx_output *find_output(struct mmx_dev *d, const char *kind)
{
	int i;

	for (i = 0; i < d->n_outputs && i < d->expect.n_kinds; i++)
		if (!strcasecmp(d->expect.kinds[i], kind))
			return &d->out[i];
	return NULL;
}

static struct mmx_output *require_output(struct mmx_dev *d, const char *kind)
{
	struct mmx_output *o = find_output(d, kind);

	mmx_require_f(o, "no %s connector (connectors=...%s...)", kind, kind);
	return o;
}

static bool is_tv_format(int f)
{
	return f >= SF_COMPOSITE && f <= SF_SVIDEO;
}

/* Whether NAME is one of RandR's signal attributes [FIRST, END). */
static bool attr_in(const char *name, int first, int end)
{
	int i;

	for (i = first; i < end; i++)
		if (!strcmp(name, sp_attr_names[i]))
			return true;
	return false;
}

/* Whether NAME is a SignalProperties value the format F takes. */
static bool format_takes(int f, const char *name)
{
	switch (f) {
	case SF_TMDS:
		return attr_in(name, RANDR_SIGNAL_TMDS, RANDR_SIGNAL_DP);
	case SF_DISPLAYPORT:
		return attr_in(name, RANDR_SIGNAL_DP, RANDR_SIGNAL_END);
	case SF_COMPOSITE_PAL:
		return !strncmp(name, "PAL", 3);
	case SF_COMPOSITE_NTSC:
		return !strncmp(name, "NTSC", 4);
	case SF_COMPOSITE_SECAM:
		return !strncmp(name, "SECAM", 5);
	case SF_COMPOSITE:
	case SF_SVIDEO:
		return attr_in(name, RANDR_SIGNAL_TV, RANDR_SIGNAL_TMDS);
	default:
		return false;
	}
}

/* Whether one of a kind's formats takes the attribute NAME. */
static bool kind_takes(const struct kind_info *k, const char *name)
{
	int f;

	for (f = 0; f < SF_COUNT; f++)
		if ((k->formats & (1u << f)) && format_takes(f, name))
			return true;
	return false;
}

/*
 * The attribute sets the uAPI header allows with format F, as bits: one
 * link for TMDS, a lane count and a rate for DisplayPort, one standard for
 * TV formats (a family's base value or a variant); none ("none", 0) for the
 * other formats. Returns how many went into SETS.
 */
static int format_sets(int f, uint64_t *sets, int max)
{
	int n = 0, a, b;

	if (!is_tv_format(f) && f != SF_TMDS && f != SF_DISPLAYPORT) {
		sets[n++] = 0;
		return n;
	}
	for (a = 0; a < SP_ATTRS; a++) {
		if (!format_takes(f, sp_attr_names[a]))
			continue;
		if (f == SF_TMDS || is_tv_format(f))
			if (n < max)
				sets[n++] = 1ull << a;
		for (b = a + 1; b < SP_ATTRS; b++) {
			bool ok;

			if (!format_takes(f, sp_attr_names[b]))
				continue;
			/* LaneN and a rate */
			ok = f == SF_DISPLAYPORT && a <= 28 && b >= 29;
			if (ok && n < max)
				sets[n++] = (1ull << a) | (1ull << b);
		}
	}
	return n;
}

/* The union over a kind's formats of format_sets(), each set once. */
static int kind_sets(const struct kind_info *k, uint64_t *sets, int max)
{
	uint64_t fs[64];
	int f, i, j, n = 0, nf;
	bool any_props = false;

	for (f = 0; f < SF_COUNT; f++) {
		if (!(k->formats & (1u << f)))
			continue;
		nf = format_sets(f, fs, 64);
		for (i = 0; i < nf; i++) {
			any_props |= fs[i] != 0;
			for (j = 0; j < n && sets[j] != fs[i]; j++)
				;
			if (j == n && n < max)
				sets[n++] = fs[i];
		}
	}
	return any_props ? n : 0;
}

/* Whether the set V is one of format_sets(F). */
static bool format_set_valid(int f, uint64_t v)
{
	uint64_t fs[64];
	int i, n = format_sets(f, fs, 64);

	for (i = 0; i < n; i++)
		if (fs[i] == v)
			return true;
	return false;
}

/* The documented default SignalProperties of format F ("0": none). */
static const char *default_props(int f)
{
	switch (f) {
	case SF_TMDS:
		return "SingleLink";
	case SF_DISPLAYPORT:
		return "Lane4|HiSpeed";
	case SF_COMPOSITE_PAL:
		return "PAL-B";
	case SF_COMPOSITE_SECAM:
		return "SECAM-L";
	case SF_COMPOSITE:
	case SF_COMPOSITE_NTSC:
	case SF_SVIDEO:
		return "NTSC-M";
	default:
		return "0";
	}
}

/* ------------------------------------------------------------------------ */
/* Property helpers                                                         */

static int sf_get(struct mmx_dev *d, struct mmx_output *o)
{
	return (int)mmx_prop_get(d, o->conn_id, "SignalFormat");
}

static uint64_t sf_value(struct mmx_dev *d, struct mmx_output *o,
			 const char *name)
{
	return mmx_prop_enum(d, o->conn_id, "SignalFormat", name);
}

static const char *sf_name(int v)
{
	return v >= 0 && v < SF_COUNT ? sf_names[v] : "(out of range)";
}

/* SignalFormat can be set: the kind has more than one format. */
static bool sf_mutable(struct mmx_dev *d, struct mmx_output *o)
{
	return __builtin_popcount(kind_of(d, o)->formats) > 1;
}

static bool has_sigprops(struct mmx_dev *d, struct mmx_output *o)
{
	return mmx_prop_lookup(d->fd, o->conn_id, "SignalProperties", NULL,
			       NULL, NULL);
}

static uint64_t sp_get(struct mmx_dev *d, struct mmx_output *o)
{
	return mmx_prop_get(d, o->conn_id, "SignalProperties");
}

/* The bit of attribute NAME (uAPI numbering); fails for unknown names. */
static uint64_t sp_attr_bit(const char *name)
{
	int a;

	for (a = 0; a < SP_ATTRS; a++)
		if (!strcmp(sp_attr_names[a], name))
			return 1ull << a;
	mmx_fail("no signal attribute \"%s\"", name);
	return 0;
}

/*
 * The SignalProperties value of the set "A|B|C" ("0" for none): the set's
 * bits, which is the enum value naming it when the set is a valid one.
 */
static uint64_t sp_bits(struct mmx_dev *d, struct mmx_output *o,
			const char *names)
{
	char buf[256], *tok, *save = NULL;
	uint64_t v = 0;

	(void)d;
	(void)o;
	if (!strcmp(names, "0"))
		return 0;
	snprintf(buf, sizeof(buf), "%s", names);
	for (tok = strtok_r(buf, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save))
		v |= sp_attr_bit(tok);
	return v;
}

/* The value of the one-attribute set NAME. */
static uint64_t sp_bit_anywhere(struct mmx_dev *d, const char *name)
{
	(void)d;
	return sp_attr_bit(name);
}

/* "A|B" for a SignalProperties value (a set of attributes). */
static const char *sp_describe(struct mmx_dev *d, struct mmx_output *o,
			       uint64_t v, char *buf, size_t size)
{
	int a;

	(void)d;
	(void)o;
	buf[0] = 0;
	for (a = 0; a < SP_ATTRS; a++) {
		if (v & (1ull << a)) {
			if (buf[0])
				strncat(buf, "|", size - strlen(buf) - 1);
			strncat(buf, sp_attr_names[a], size - strlen(buf) - 1);
			v &= ~(1ull << a);
		}
	}
	if (v)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s0x%llx",
			 buf[0] ? "|" : "", (unsigned long long)v);
	if (!buf[0])
		snprintf(buf, size, "0");
	return buf;
}

/* Whether the SignalProperties value V of O has bit NAME. */
static bool sp_has(struct mmx_dev *d, struct mmx_output *o, uint64_t v,
		   const char *name)
{
	return (v & sp_bits(d, o, name)) != 0;
}

/*
 * One atomic commit setting O's SignalFormat (FMT, NULL: not in the
 * commit) and SignalProperties (PROPS "A|B", "0"; NULL: not in the
 * commit), and, if MODE is given, lighting O with it on CRTC (0: O's own)
 * with no plane. Returns 0/-errno.
 */
static int set_signal_ex(struct mmx_dev *d, struct mmx_output *o,
			 const char *fmt, const char *props,
			 const drmModeModeInfo *mode, uint32_t flags)
{
	struct mmx_req *r = mmx_req_new(d);

	if (fmt)
		mmx_req_add(r, o->conn_id, "SignalFormat", sf_value(d, o, fmt));
	if (props)
		mmx_req_add(r, o->conn_id, "SignalProperties",
			    sp_bits(d, o, props));
	if (mode) {
		mmx_req_add(r, o->conn_id, "CRTC_ID", o->crtc_id);
		mmx_req_add(r, o->crtc_id, "MODE_ID", mmx_mode_blob(d, mode));
		mmx_req_add(r, o->crtc_id, "ACTIVE", 1);
		flags |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	}
	return mmx_req_commit(r, flags);
}

static int set_signal(struct mmx_dev *d, struct mmx_output *o,
		      const char *fmt, const char *props)
{
	return set_signal_ex(d, o, fmt, props, NULL, 0);
}

/* Raw values (possibly invalid) in one commit; Returns 0/-errno. */
static int set_signal_raw(struct mmx_dev *d, struct mmx_output *o,
			  bool set_fmt, uint64_t fmt, bool set_props,
			  uint64_t props)
{
	struct mmx_req *r = mmx_req_new(d);

	if (set_fmt)
		mmx_req_add(r, o->conn_id, "SignalFormat", fmt);
	if (set_props)
		mmx_req_add(r, o->conn_id, "SignalProperties", props);
	return mmx_req_commit(r, 0);
}

/*
 * The legacy DRM_IOCTL_MODE_SETPROPERTY, as Xorg's modesetting driver uses
 * it for RandR output properties (xrandr --set). Returns 0/-errno.
 */
static int legacy_set(struct mmx_dev *d, struct mmx_output *o,
		      const char *prop, uint64_t value)
{
	struct drm_mode_connector_set_property sp = {
		.value = value,
		.prop_id = mmx_prop_id(d, o->conn_id, prop),
		.connector_id = o->conn_id,
	};

	return mmx_ioctl(d->fd, DRM_IOCTL_MODE_SETPROPERTY, &sp);
}

static void expect_signal(struct mmx_dev *d, struct mmx_output *o,
			  const char *fmt, const char *props)
{
	char a[256], b[256];
	int f = sf_get(d, o);

	mmx_assert_f((uint64_t)f == sf_value(d, o, fmt),
		     "%s SignalFormat reads %s, expected %s", o->name,
		     sf_name(f), fmt);
	if (props) {
		uint64_t got = sp_get(d, o), want = sp_bits(d, o, props);

		mmx_assert_f(got == want,
			     "%s SignalProperties reads %s, expected %s",
			     o->name, sp_describe(d, o, got, a, sizeof(a)),
			     sp_describe(d, o, want, b, sizeof(b)));
	}
	mmx_debug("%s: %s %s", o->name, fmt, props ? props : "");
}

/* ------------------------------------------------------------------------ */
/* Sinks (debugfs)                                                          */

static void sink_path(struct mmx_dev *d, struct mmx_output *o,
		      const char *file, char *path, size_t size)
{
	snprintf(path, size, "%s/%s/%s", d->debugfs, o->name, file);
}

static void plug(struct mmx_dev *d, struct mmx_output *o, const char *preset)
{
	char path[300];
	int ret;

	sink_path(d, o, "mmx_sink", path, sizeof(path));
	ret = mmx_write_file(path, preset);
	mmx_assert_f(ret == 0, "writing \"%s\" to %s: %s", preset, path,
		     strerror(-ret));
}

static void sink_get(struct mmx_dev *d, struct mmx_output *o, char *buf,
		     size_t size)
{
	char path[300];
	int n;

	sink_path(d, o, "mmx_sink", path, sizeof(path));
	n = mmx_read_file(path, buf, size);
	mmx_assert_f(n >= 0, "reading %s: %s", path, strerror(-n));
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
}

/* O's link-status property: DRM_MODE_LINK_STATUS_GOOD or _BAD. */
static uint64_t link_status(struct mmx_dev *d, struct mmx_output *o)
{
	return mmx_prop_get(d, o->conn_id, "link-status");
}

/* What O's simulated port reports in debugfs mmx_ddc. */
struct ddc_figures {
	uint64_t detects;	/* connector detections */
	uint64_t blocks;	/* EDID blocks read over DDC */
	uint64_t ms;		/* their simulated DDC time */
	uint64_t link_bad;	/* link-status set to Bad by a sink change */
};

static void ddc_get(struct mmx_dev *d, struct mmx_output *o,
		    struct ddc_figures *f)
{
	char path[300], buf[256];
	int n;

	sink_path(d, o, "mmx_ddc", path, sizeof(path));
	n = mmx_read_file(path, buf, sizeof(buf));
	mmx_assert_f(n > 0, "reading %s: %s", path,
		     n ? strerror(-n) : "empty");
	n = sscanf(buf, "detects %" SCNu64 " edid_blocks %" SCNu64
		   " ddc_ms %" SCNu64 " link_bad %" SCNu64,
		   &f->detects, &f->blocks, &f->ms, &f->link_bad);
	mmx_assert_f(n == 4, "%s does not read \"detects N edid_blocks N ddc_ms N link_bad N\": %s",
		     path, buf);
	mmx_assert_f(f->ms == f->blocks * 12,
		     "%s: %" PRIu64 " ms of DDC for %" PRIu64 " blocks (12 ms each)",
		     path, f->ms, f->blocks);
}

/* Write LEN bytes to O's mmx_edid in one write(); 0 or -errno. */
static int edid_upload(struct mmx_dev *d, struct mmx_output *o,
		       const uint8_t *buf, size_t len)
{
	char path[300];
	ssize_t n;
	int fd, err;

	sink_path(d, o, "mmx_edid", path, sizeof(path));
	fd = open(path, O_WRONLY | O_CLOEXEC);
	mmx_assert_f(fd >= 0, "open %s: %s", path, strerror(errno));
	n = write(fd, buf, len);
	err = n < 0 ? -errno : 0;
	close(fd);
	if (!err && n != (ssize_t)len)
		err = -EIO;
	return err;
}

static int edid_debugfs(struct mmx_dev *d, struct mmx_output *o, uint8_t *buf,
			size_t size)
{
	char path[300];
	ssize_t n;
	size_t len = 0;
	int fd;

	sink_path(d, o, "mmx_edid", path, sizeof(path));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	mmx_assert_f(fd >= 0, "open %s: %s", path, strerror(errno));
	while (len < size && (n = read(fd, buf + len, size - len)) > 0)
		len += (size_t)n;
	close(fd);
	return (int)len;
}

/* The EDID property blob of connector CONN (without probing); its length. */
static int edid_prop(struct mmx_dev *d, uint32_t conn, uint8_t *buf,
		     size_t size)
{
	drmModePropertyBlobPtr b;
	uint64_t id = mmx_prop_get(d, conn, "EDID");
	int len;

	if (!id)
		return 0;
	b = drmModeGetPropertyBlob(d->fd, (uint32_t)id);
	mmx_assert_f(b, "EDID blob %llu of connector %u: %s",
		     (unsigned long long)id, conn, strerror(errno));
	len = (int)b->length;
	mmx_assert_f((size_t)len <= size, "EDID of %d bytes", len);
	memcpy(buf, b->data, (size_t)len);
	drmModeFreePropertyBlob(b);
	return len;
}

static drmModeConnectorPtr probe(struct mmx_dev *d, struct mmx_output *o)
{
	drmModeConnectorPtr c = drmModeGetConnector(d->fd, o->conn_id);

	mmx_assert_f(c, "drmModeGetConnector(%s): %s", o->name,
		     strerror(errno));
	return c;
}

static drmModeConnectorPtr current(struct mmx_dev *d, struct mmx_output *o)
{
	drmModeConnectorPtr c = drmModeGetConnectorCurrent(d->fd, o->conn_id);

	mmx_assert_f(c, "drmModeGetConnectorCurrent(%s): %s", o->name,
		     strerror(errno));
	return c;
}

static const char *conn_status(const drmModeConnector *c)
{
	return c->connection == DRM_MODE_CONNECTED ? "connected" :
	       c->connection == DRM_MODE_DISCONNECTED ? "disconnected" :
								"unknown";
}

/*
 * Turn every output off and bring it back to its kind's default sink and
 * signal. Subtests start from here.
 */
static void prepare(struct mmx_dev *d)
{
	struct mmx_req *r;
	int i, ret;

	mmx_reset(d);
	r = mmx_req_new(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const struct kind_info *k = kind_of(d, o);
		char cur[64];

		sink_get(d, o, cur, sizeof(cur));
		if (strcmp(cur, k->sink))
			plug(d, o, k->sink);
		if (sf_mutable(d, o))
			mmx_req_add(r, o->conn_id, "SignalFormat",
				    sf_value(d, o,
					     sf_names[k->default_format]));
		if (has_sigprops(d, o))
			mmx_req_add(r, o->conn_id, "SignalProperties",
				    sp_bits(d, o,
					    default_props(k->default_format)));
		/* a sink change of an earlier subtest may have left it Bad */
		mmx_req_add(r, o->conn_id, "link-status",
			    DRM_MODE_LINK_STATUS_GOOD);
	}
	ret = mmx_req_commit(r, 0);
	mmx_assert_f(ret == 0, "restoring the default signals: %s",
		     strerror(-ret));
	for (i = 0; i < d->n_outputs; i++)
		drmModeFreeConnector(probe(d, &d->out[i]));
}

/* ------------------------------------------------------------------------ */
/* Hotplug uevents (NETLINK_KOBJECT_UEVENT)                                 */

static int uev_fd = -1;

static int uevent_open(void)
{
	struct sockaddr_nl addr = {
		.nl_family = AF_NETLINK,
		.nl_groups = 1,		/* kernel events */
	};
	int sz = 1 << 20;

	if (uev_fd >= 0)
		close(uev_fd);
	uev_fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC,
			NETLINK_KOBJECT_UEVENT);
	mmx_assert_f(uev_fd >= 0, "uevent socket: %s", strerror(errno));
	setsockopt(uev_fd, SOL_SOCKET, SO_RCVBUFFORCE, &sz, sizeof(sz));
	mmx_assert_f(!bind(uev_fd, (struct sockaddr *)&addr, sizeof(addr)),
		     "binding the uevent socket: %s", strerror(errno));
	return uev_fd;
}

static void uevent_close(void)
{
	if (uev_fd >= 0)
		close(uev_fd);
	uev_fd = -1;
}

/* Whether a uevent message is a DRM hotplug event of our card. */
static bool uevent_is_hotplug(struct mmx_dev *d, const char *buf, size_t len)
{
	bool drm = false, hotplug = false, ours = false;
	char minor[32];
	size_t i = 0;

	snprintf(minor, sizeof(minor), "MINOR=%d", d->minor);
	while (i < len) {
		const char *s = buf + i;
		size_t n = strnlen(s, len - i);

		drm |= !strcmp(s, "SUBSYSTEM=drm");
		hotplug |= !strcmp(s, "HOTPLUG=1");
		ours |= !strcmp(s, minor);
		i += n + 1;
	}
	return drm && hotplug && ours;
}

/*
 * Wait up to TIMEOUT_MS for a hotplug uevent; returns the milliseconds it
 * took, or -1 on timeout.
 */
static int uevent_wait(struct mmx_dev *d, int timeout_ms)
{
	int64_t t0 = mmx_now_ns(), end = t0 + (int64_t)timeout_ms * 1000000;
	char buf[8192];

	for (;;) {
		struct pollfd pfd = { .fd = uev_fd, .events = POLLIN };
		int64_t left = (end - mmx_now_ns()) / 1000000;
		ssize_t n;
		int ret;

		ret = poll(&pfd, 1, left > 0 ? (int)left : 0);
		if (ret < 0 && errno == EINTR)
			continue;
		mmx_assert_f(ret >= 0, "poll: %s", strerror(errno));
		if (ret == 0)
			return -1;
		n = recv(uev_fd, buf, sizeof(buf) - 1, MSG_DONTWAIT);
		if (n <= 0)
			continue;
		buf[n] = 0;
		if (uevent_is_hotplug(d, buf, (size_t)n))
			return (int)((mmx_now_ns() - t0) / 1000000);
	}
}

/* Drop uevents until none came for QUIET_MS; returns how many hotplugs. */
static int uevent_drain(struct mmx_dev *d, int quiet_ms)
{
	int n = 0;

	while (uevent_wait(d, quiet_ms) >= 0)
		n++;
	return n;
}

/* ------------------------------------------------------------------------ */
/* Timings and the link capacity formula                                    */

struct timing {
	uint32_t clock;		/* kHz */
	uint16_t hd, hss, hse, ht, vd, vss, vse, vt;
	bool il;
};

/* The fields of struct timing and the drmModeModeInfo fields they are. */
#define TIMING_FIELDS(X)						\
	X(clock, clock) X(hd, hdisplay) X(hss, hsync_start)		\
	X(hse, hsync_end) X(ht, htotal) X(vd, vdisplay)			\
	X(vss, vsync_start) X(vse, vsync_end) X(vt, vtotal)

static void timing_of_mode(const drmModeModeInfo *m, struct timing *t)
{
#define X(tf, mf) t->tf = m->mf;
	TIMING_FIELDS(X)
#undef X
	t->il = m->flags & DRM_MODE_FLAG_INTERLACE;
}

static void mode_of_timing(const struct timing *t, drmModeModeInfo *m)
{
	memset(m, 0, sizeof(*m));
#define X(tf, mf) m->mf = t->tf;
	TIMING_FIELDS(X)
#undef X
	m->flags = DRM_MODE_FLAG_PHSYNC | DRM_MODE_FLAG_PVSYNC |
		   (t->il ? DRM_MODE_FLAG_INTERLACE : 0);
	m->vrefresh = (uint32_t)(t->clock * 1000.0 / (t->ht * (double)t->vt) *
				 (t->il ? 2 : 1) + 0.5);
	m->type = DRM_MODE_TYPE_USERDEF;
	snprintf(m->name, sizeof(m->name), "%dx%d%s", t->hd, t->vd,
		 t->il ? "i" : "");
}

static bool timing_equal(const struct timing *a, const struct timing *b)
{
#define X(tf, mf) if (a->tf != b->tf) return false;
	TIMING_FIELDS(X)
#undef X
	return a->il == b->il;
}

static const char *timing_str(const struct timing *t, char *buf, size_t n)
{
	snprintf(buf, n, "%ux%u%s %u kHz (%u %u %u %u / %u %u %u %u) %.3f Hz",
		 t->hd, t->vd, t->il ? "i" : "", t->clock, t->hd, t->hss,
		 t->hse, t->ht, t->vd, t->vss, t->vse, t->vt,
		 t->clock * 1000.0 / ((double)t->ht * t->vt) * (t->il ? 2 : 1));
	return buf;
}

/* Field rate in Hz (frame rate for progressive modes). */
static double mode_rate(const drmModeModeInfo *m)
{
	return m->clock * 1000.0 / ((double)m->htotal * m->vtotal) *
	       ((m->flags & DRM_MODE_FLAG_INTERLACE) ? 2 : 1);
}

/* Index of the mode with timing T in C's list, or -1. */
static int conn_find_timing(const drmModeConnector *c, const struct timing *t)
{
	int i;

	for (i = 0; i < c->count_modes; i++) {
		struct timing m;

		timing_of_mode(&c->modes[i], &m);
		if (timing_equal(&m, t))
			return i;
	}
	return -1;
}

/* The first mode W x H (interlaced or not) at RATE +- TOL Hz, or -1. */
static int conn_find_mode(const drmModeConnector *c, int w, int h, bool il,
			  double rate, double tol)
{
	int i;

	for (i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *m = &c->modes[i];

		if (m->hdisplay == w && m->vdisplay == h &&
		    !!(m->flags & DRM_MODE_FLAG_INTERLACE) == il &&
		    mode_rate(m) > rate - tol && mode_rate(m) < rate + tol)
			return i;
	}
	return -1;
}

static void print_modes(const drmModeConnector *c, const char *what)
{
	int i;

	mmx_info("%s: %s, %d modes", what, conn_status(c), c->count_modes);
	for (i = 0; i < c->count_modes; i++) {
		struct timing t;
		char buf[160];

		timing_of_mode(&c->modes[i], &t);
		mmx_debug("  %s%s", timing_str(&t, buf, sizeof(buf)),
			  (c->modes[i].type & DRM_MODE_TYPE_PREFERRED) ?
				  " preferred" : "");
	}
}

/*
 * Whether a link carries CLOCK_KHZ at 24 bits per pixel, by the documented
 * formula (uAPI header, SignalProperties): TMDS single link up to
 * 165 MHz, dual link up to 330 MHz; DisplayPort lanes x (1.62 or
 * 2.7 Gbit/s) x 8/10 >= clock x 24. Other signals have no documented
 * clock limit (VGA, LVDS) or fixed timings (TV): returns true.
 */
static bool link_fits(struct mmx_dev *d, struct mmx_output *o, int format,
		      uint64_t props, uint32_t clock_khz)
{
	if (format == SF_TMDS)
		return clock_khz <= (sp_has(d, o, props, "DualLink") ?
				     330000u : 165000u);
	if (format == SF_DISPLAYPORT) {
		uint64_t lanes = sp_has(d, o, props, "Lane4") ? 4 :
				 sp_has(d, o, props, "Lane2") ? 2 : 1;
		uint64_t kbps = sp_has(d, o, props, "HiSpeed") ? 2700000 :
								 1620000;

		/* lanes * kbps * 8 / 10 >= clock * 24, in integers */
		return lanes * kbps * 8 >= (uint64_t)clock_khz * 24 * 10;
	}
	return true;
}

static bool link_limited(int format)
{
	return format == SF_TMDS || format == SF_DISPLAYPORT;
}

/*
 * A user mode of CLOCK_KHZ: 640x480 with totals 4000 x 1100, so that any
 * clock from 4.4 to 1056 MHz has a refresh rate of 1 to 240 Hz. Small
 * enough to compose, big clock for the link limits.
 */
static void mode_with_clock(drmModeModeInfo *m, uint32_t clock_khz)
{
	struct timing t = { clock_khz, 640, 700, 760, 4000,
			    480, 490, 495, 1100, false };

	mode_of_timing(&t, m);
}

/* ------------------------------------------------------------------------ */
/* An EDID parser of the test's own (VESA E-EDID 1.4, CTA-861)              */

#define EDID_BLOCK 128

struct edid_info {
	int blocks;
	int version, revision;
	char vendor[4];
	unsigned int product;
	uint32_t serial;
	bool digital;
	char name[14];
	bool has_name;
	bool has_range;
	int vmin, vmax, hmin, hmax, max_mhz;
	int n_dtd;
	struct timing dtd[32];
};

static void dtd_decode(const uint8_t *p, struct timing *t)
{
	unsigned int ha = p[2] | (p[4] & 0xf0) << 4;
	unsigned int hb = p[3] | (p[4] & 0x0f) << 8;
	unsigned int va = p[5] | (p[7] & 0xf0) << 4;
	unsigned int vb = p[6] | (p[7] & 0x0f) << 8;
	unsigned int hso = p[8] | (p[11] & 0xc0) << 2;
	unsigned int hsw = p[9] | (p[11] & 0x30) << 4;
	unsigned int vso = (p[10] >> 4) | (p[11] & 0x0c) << 2;
	unsigned int vsw = (p[10] & 0x0f) | (p[11] & 0x03) << 4;

	memset(t, 0, sizeof(*t));
	t->clock = (uint32_t)(p[0] | p[1] << 8) * 10;
	t->hd = (uint16_t)ha;
	t->hss = (uint16_t)(ha + hso);
	t->hse = (uint16_t)(ha + hso + hsw);
	t->ht = (uint16_t)(ha + hb);
	t->vd = (uint16_t)va;
	t->vss = (uint16_t)(va + vso);
	t->vse = (uint16_t)(va + vso + vsw);
	t->vt = (uint16_t)(va + vb);
	if (p[17] & 0x80) {
		/* one field's lines; a mode counts the frame's (vtotal odd) */
		t->il = true;
		t->vd *= 2;
		t->vss *= 2;
		t->vse *= 2;
		t->vt = (uint16_t)(t->vt * 2 + 1);
	}
}

static void edid_descriptor(const uint8_t *p, struct edid_info *e)
{
	int i;

	if (p[0] || p[1]) {
		if (e->n_dtd < (int)MMX_ARRAY_SIZE(e->dtd))
			dtd_decode(p, &e->dtd[e->n_dtd++]);
		return;
	}
	if (p[3] == 0xfc) {
		for (i = 0; i < 13 && p[5 + i] != 0x0a; i++)
			e->name[i] = (char)p[5 + i];
		e->name[i] = 0;
		e->has_name = true;
	} else if (p[3] == 0xfd) {
		e->has_range = true;
		e->vmin = p[5] + ((p[4] & 0x01) ? 255 : 0);
		e->vmax = p[6] + ((p[4] & 0x02) ? 255 : 0);
		e->hmin = p[7] + ((p[4] & 0x04) ? 255 : 0);
		e->hmax = p[8] + ((p[4] & 0x08) ? 255 : 0);
		e->max_mhz = p[9] * 10;
	}
}

/* Parse an EDID, asserting what every valid EDID must hold. */
static void edid_parse(const uint8_t *buf, int len, struct edid_info *e,
		       const char *what)
{
	static const uint8_t header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0 };
	unsigned int v;
	int b, i;

	memset(e, 0, sizeof(*e));
	mmx_assert_f(len > 0 && len % EDID_BLOCK == 0 && len <= 4 * EDID_BLOCK,
		     "%s: EDID of %d bytes (1 to 4 blocks of 128 expected)",
		     what, len);
	e->blocks = len / EDID_BLOCK;
	mmx_assert_f(!memcmp(buf, header, 8), "%s: bad EDID header", what);
	for (b = 0; b < e->blocks; b++) {
		uint8_t sum = 0;

		for (i = 0; i < EDID_BLOCK; i++)
			sum = (uint8_t)(sum + buf[b * EDID_BLOCK + i]);
		mmx_assert_f(sum == 0, "%s: block %d checksum: sum 0x%02x",
			     what, b, sum);
	}
	mmx_assert_f(buf[126] == e->blocks - 1,
		     "%s: extension count %u for %d blocks", what, buf[126],
		     e->blocks);
	e->version = buf[18];
	e->revision = buf[19];
	mmx_assert_f(e->version == 1 && e->revision >= 3 && e->revision <= 4,
		     "%s: EDID version %d.%d", what, e->version, e->revision);
	v = (unsigned int)buf[8] << 8 | buf[9];
	mmx_assert_f(!(v & 0x8000), "%s: vendor id 0x%04x", what, v);
	for (i = 0; i < 3; i++) {
		unsigned int c = (v >> (10 - 5 * i)) & 0x1f;

		mmx_assert_f(c >= 1 && c <= 26, "%s: vendor id 0x%04x", what, v);
		e->vendor[i] = (char)('A' - 1 + c);
	}
	e->product = buf[10] | buf[11] << 8;
	e->serial = buf[12] | buf[13] << 8 | buf[14] << 16 |
		    (uint32_t)buf[15] << 24;
	e->digital = buf[20] & 0x80;
	for (i = 0; i < 4; i++)
		edid_descriptor(buf + 54 + 18 * i, e);
	for (b = 1; b < e->blocks; b++) {
		const uint8_t *x = buf + b * EDID_BLOCK;
		int off;

		if (x[0] != 0x02 || x[2] < 4)
			continue;
		for (off = x[2]; off + 18 <= EDID_BLOCK - 1; off += 18) {
			if (!x[off] && !x[off + 1])
				break;
			edid_descriptor(x + off, e);
		}
	}
}

/* A DTD within the EDID's range limits (rounding: +-1 Hz, +-1 kHz). */
static void edid_check_ranges(const struct edid_info *e, const char *what)
{
	int i;

	if (!e->has_range)
		return;
	for (i = 0; i < e->n_dtd; i++) {
		const struct timing *t = &e->dtd[i];
		double h = t->clock / (double)t->ht;
		double v = t->clock * 1000.0 / ((double)t->ht * t->vt) *
			   (t->il ? 2 : 1);
		char buf[160];

		timing_str(t, buf, sizeof(buf));
		mmx_assert_f(t->clock <= (uint32_t)e->max_mhz * 1000,
			     "%s: DTD %s above the range limit %d MHz", what,
			     buf, e->max_mhz);
		mmx_assert_f(h >= e->hmin - 1 && h <= e->hmax + 1,
			     "%s: DTD %s at %.1f kHz outside %d-%d kHz", what,
			     buf, h, e->hmin, e->hmax);
		mmx_assert_f(v >= e->vmin - 1 && v <= e->vmax + 1,
			     "%s: DTD %s at %.2f Hz outside %d-%d Hz", what,
			     buf, v, e->vmin, e->vmax);
	}
}

/*
 * The connector's (probed) mode list against its EDID and link: every DTD
 * the link carries is offered, every DTD it does not carry is not, and
 * nothing offered exceeds the link. Returns the number of DTDs offered.
 */
static int check_modes_vs_edid(struct mmx_dev *d, struct mmx_output *o,
			       const drmModeConnector *c,
			       const struct edid_info *e)
{
	int f = sf_get(d, o);
	uint64_t props = has_sigprops(d, o) ? sp_get(d, o) : 0;
	char sp[256], buf[160];
	int i, offered = 0;

	sp_describe(d, o, props, sp, sizeof(sp));
	for (i = 0; i < c->count_modes; i++) {
		struct timing t;

		timing_of_mode(&c->modes[i], &t);
		mmx_assert_f(link_fits(d, o, f, props, t.clock),
			     "%s (%s %s) offers %s, beyond the link", o->name,
			     sf_name(f), sp, timing_str(&t, buf, sizeof(buf)));
	}
	for (i = 0; i < e->n_dtd; i++) {
		bool fits = link_fits(d, o, f, props, e->dtd[i].clock);
		int idx = conn_find_timing(c, &e->dtd[i]);

		timing_str(&e->dtd[i], buf, sizeof(buf));
		mmx_debug("%s: DTD %d %s: %s, %s", o->name, i, buf,
			  fits ? "fits the link" : "beyond the link",
			  idx >= 0 ? "offered" : "not offered");
		if (fits)
			mmx_assert_f(idx >= 0,
				     "%s (%s %s): EDID DTD %s fits the link but is not offered",
				     o->name, sf_name(f), sp, buf);
		else if (link_limited(f))
			mmx_assert_f(idx < 0,
				     "%s (%s %s): EDID DTD %s exceeds the link but is offered",
				     o->name, sf_name(f), sp, buf);
		offered += idx >= 0;
	}
	return offered;
}

/* ------------------------------------------------------------------------ */
/* Snapshots that also cover the EDID contents                              */

struct state_copy {
	struct mmx_snapshot snap;
	uint8_t edid[MMX_MAX_OUTPUTS][1024];
	int edid_len[MMX_MAX_OUTPUTS];
};

static void state_take(struct mmx_dev *d, struct state_copy *s)
{
	int i;

	mmx_snapshot_take(d, &s->snap);
	for (i = 0; i < d->n_outputs; i++)
		s->edid_len[i] = edid_prop(d, d->out[i].conn_id, s->edid[i],
					   sizeof(s->edid[i]));
}

static void state_check(struct mmx_dev *d, struct state_copy *s,
			const char *what)
{
	uint8_t buf[1024];
	int i;

	mmx_assert_f(mmx_snapshot_same(d, &s->snap),
		     "%s: the KMS state changed after a refused request", what);
	for (i = 0; i < d->n_outputs; i++) {
		int n = edid_prop(d, d->out[i].conn_id, buf, sizeof(buf));

		mmx_assert_f(n == s->edid_len[i] &&
			     !memcmp(buf, s->edid[i], (size_t)n),
			     "%s: the EDID of %s changed", what, d->out[i].name);
	}
	mmx_snapshot_free(&s->snap);
}

/* Expect the commit CALL to fail with -EINVAL and to change nothing. */
#define expect_refused(d, what, call)					\
	do {								\
		struct state_copy __s;					\
		int __r;						\
									\
		state_take(d, &__s);					\
		__r = (call);						\
		mmx_assert_f(__r == -EINVAL,				\
			     "%s: expected -EINVAL, got %d (%s)", what,	\
			     __r, __r ? strerror(-__r) : "success");	\
		state_check(d, &__s, what);				\
		mmx_debug("refused as expected: %s", what);		\
	} while (0)

/* ------------------------------------------------------------------------ */
/* props-present                                                            */

static drmModePropertyRes *get_info(struct mmx_dev *d, struct mmx_output *o,
				    const char *name, uint64_t *value)
{
	drmModePropertyRes *info = NULL;

	mmx_assert_f(mmx_prop_lookup(d->fd, o->conn_id, name, NULL, value,
				     &info),
		     "%s has no \"%s\" property", o->name, name);
	return info;
}

/* O's property NAME (value in *VALUE): immutable, of TYPE (a TYPE_NAME). */
static drmModePropertyRes *get_immutable(struct mmx_dev *d,
					 struct mmx_output *o,
					 const char *name, uint32_t type,
					 const char *type_name,
					 uint64_t *value)
{
	drmModePropertyRes *info = get_info(d, o, name, value);

	mmx_assert_f(drm_property_type_is(info, type),
		     "%s %s is not %s (flags 0x%x)", o->name, name,
		     type_name, info->flags);
	mmx_assert_f(info->flags & DRM_MODE_PROP_IMMUTABLE,
		     "%s %s is not immutable", o->name, name);
	return info;
}

static void check_blob_prop(struct mmx_dev *d, struct mmx_output *o,
			    const char *name)
{
	drmModePropertyRes *info;
	uint64_t v;

	info = get_immutable(d, o, name, DRM_MODE_PROP_BLOB, "a blob", &v);
	if (v) {
		drmModePropertyBlobPtr b = drmModeGetPropertyBlob(d->fd,
								  (uint32_t)v);

		mmx_assert_f(b, "%s %s blob %llu cannot be read", o->name,
			     name, (unsigned long long)v);
		drmModeFreePropertyBlob(b);
	}
	drmModeFreeProperty(info);
}

static void test_props_present(struct mmx_dev *d)
{
	int i, k;

	mmx_assert_eq(d->n_outputs, d->expect.outputs);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const struct kind_info *ki = kind_of(d, o);
		drmModePropertyRes *info;
		uint64_t v, sets[64];
		int n_names, f;
		char sp[512];

		/* ConnectorType: immutable enum, RandR's 15 names in order */
		info = get_immutable(d, o, "ConnectorType", DRM_MODE_PROP_ENUM,
				     "an enum", &v);
		mmx_assert_eq(info->count_enums, 15);
		for (k = 0; k < 15; k++) {
			mmx_assert_eq_str(info->enums[k].name, ct_names[k]);
			mmx_assert_eq(info->enums[k].value, k);
		}
		mmx_assert_f(v < 15 && !strcmp(ct_names[v], ki->ctype),
			     "%s (%s): ConnectorType %llu (%s), expected %s",
			     o->name, ki->kind, (unsigned long long)v,
			     v < 15 ? ct_names[v] : "?", ki->ctype);
		drmModeFreeProperty(info);

		/* ConnectorNumber: immutable range 0..8, 1 for the first */
		info = get_immutable(d, o, "ConnectorNumber",
				     DRM_MODE_PROP_RANGE, "a range", &v);
		mmx_assert_eq(info->count_values, 2);
		mmx_assert_eq_u64(info->values[0], 0);
		mmx_assert_eq_u64(info->values[1], 8);
		mmx_assert_eq_u64(v, (uint64_t)i + 1);
		drmModeFreeProperty(info);

		/*
		 * SignalFormat: enum of exactly the kind's subset, immutable
		 * when that is a single format
		 */
		info = get_info(d, o, "SignalFormat", &v);
		mmx_assert_f(drm_property_type_is(info, DRM_MODE_PROP_ENUM),
			     "%s SignalFormat is not an enum", o->name);
		mmx_assert_f(!(info->flags & DRM_MODE_PROP_IMMUTABLE) ==
			     sf_mutable(d, o),
			     "%s (%s) SignalFormat is %simmutable", o->name,
			     ki->kind, sf_mutable(d, o) ? "" : "not ");
		mmx_assert_eq(info->count_enums,
			      __builtin_popcount(ki->formats));
		for (k = 0; k < info->count_enums; k++) {
			uint64_t ev = info->enums[k].value;

			mmx_assert_f(ev < SF_COUNT &&
				     (ki->formats & (1u << ev)) &&
				     !strcmp(info->enums[k].name, sf_names[ev]),
				     "%s SignalFormat value %s=%llu: not in the %s subset or not RandR's number",
				     o->name, info->enums[k].name,
				     (unsigned long long)ev, ki->kind);
		}
		mmx_assert_f(v < SF_COUNT && (ki->formats & (1u << v)),
			     "%s SignalFormat reads %llu", o->name,
			     (unsigned long long)v);
		f = (int)v;
		drmModeFreeProperty(info);

		/*
		 * SignalProperties: an enum (never a bitmask: Xorg cannot
		 * mirror those) of the attribute sets valid with one of the
		 * kind's formats, each once, numbered by its set and named by
		 * its attributes in RandR order joined by commas, "none" for
		 * the empty set
		 */
		n_names = kind_sets(ki, sets, 64);
		if (!n_names) {
			mmx_assert_f(!has_sigprops(d, o),
				     "%s (%s) has SignalProperties but none of its formats takes any",
				     o->name, ki->kind);
		} else {
			info = get_info(d, o, "SignalProperties", &v);
			mmx_assert_f(drm_property_type_is(info,
							  DRM_MODE_PROP_ENUM),
				     "%s SignalProperties is not an enum",
				     o->name);
			mmx_assert_f(!(info->flags & DRM_MODE_PROP_IMMUTABLE) ==
				     (n_names > 1),
				     "%s SignalProperties immutability", o->name);
			mmx_assert_f(info->count_enums == n_names,
				     "%s SignalProperties lists %d values, expected %d",
				     o->name, info->count_enums, n_names);
			for (k = 0; k < info->count_enums; k++) {
				uint64_t ev = info->enums[k].value;
				char want[64] = "";
				int a, j;

				for (a = 0; a < SP_ATTRS; a++)
					if (ev & (1ull << a))
						snprintf(want + strlen(want),
							 sizeof(want) - strlen(want),
							 "%s%s", want[0] ? "+" : "",
							 sp_attr_names[a]);
				if (!ev)
					snprintf(want, sizeof(want), "none");
				mmx_assert_f(!strcmp(info->enums[k].name, want),
					     "%s SignalProperties value %llu is named \"%s\", expected \"%s\"",
					     o->name, (unsigned long long)ev,
					     info->enums[k].name, want);
				for (j = 0; j < n_names && sets[j] != ev; j++)
					;
				mmx_assert_f(j < n_names,
					     "%s SignalProperties lists \"%s\", valid with none of the %s formats",
					     o->name, info->enums[k].name,
					     ki->kind);
			}
			/* the value: a set valid with the current format */
			sp_describe(d, o, v, sp, sizeof(sp));
			mmx_assert_f(format_set_valid(f, v),
				     "%s: SignalProperties %s with SignalFormat %s",
				     o->name, sp, sf_name(f));
			drmModeFreeProperty(info);
		}

		check_blob_prop(d, o, "EDID");
		check_blob_prop(d, o, "CompatibilityList");
		check_blob_prop(d, o, "CloneList");

		mmx_info("%s (%s): ConnectorType %s, ConnectorNumber %d, SignalFormat %s, SignalProperties %s",
			 o->name, ki->kind, ki->ctype, i + 1, sf_name(f),
			 n_names ? sp : "(none)");
	}

	/*
	 * Xorg's modesetting driver mirrors every connector property a
	 * non-atomic client sees into RandR and handles only range, enum and
	 * blob ones: no other kind may appear.
	 */
	for (i = 0; i < d->n_outputs; i++) {
		drmModeObjectPropertiesPtr props;
		uint32_t j;

		props = drmModeObjectGetProperties(d->fd, d->out[i].conn_id,
						   DRM_MODE_OBJECT_CONNECTOR);
		mmx_assert(props);
		for (j = 0; j < props->count_props; j++) {
			drmModePropertyRes *info;

			info = drmModeGetProperty(d->fd, props->props[j]);
			mmx_assert(info);
			if (!(info->flags & DRM_MODE_PROP_ATOMIC))
				mmx_assert_f(drm_property_type_is(info, DRM_MODE_PROP_RANGE) ||
					     drm_property_type_is(info, DRM_MODE_PROP_ENUM) ||
					     drm_property_type_is(info, DRM_MODE_PROP_BLOB),
					     "%s: property %s is of a kind Xorg cannot mirror (flags 0x%x)",
					     d->out[i].name, info->name,
					     info->flags);
			drmModeFreeProperty(info);
		}
		drmModeFreeObjectProperties(props);
	}

	/* immutable ones cannot be set (-EINVAL, nothing changes) */
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		struct mmx_req *r;

		r = mmx_req_new(d);
		mmx_req_add(r, o->conn_id, "ConnectorType", 0);
		expect_refused(d, "setting ConnectorType", mmx_req_commit(r, 0));
		r = mmx_req_new(d);
		mmx_req_add(r, o->conn_id, "ConnectorNumber", 0);
		expect_refused(d, "setting ConnectorNumber",
			       mmx_req_commit(r, 0));
		r = mmx_req_new(d);
		mmx_req_add(r, o->conn_id, "CloneList", 0);
		expect_refused(d, "setting CloneList", mmx_req_commit(r, 0));
		if (sf_mutable(d, o))
			continue;
		/* even to its one value */
		r = mmx_req_new(d);
		mmx_req_add(r, o->conn_id, "SignalFormat",
			    (uint64_t)sf_get(d, o));
		expect_refused(d, "setting a single-format SignalFormat",
			       mmx_req_commit(r, 0));
		expect_refused(d, "legacy SETPROPERTY of a single-format SignalFormat",
			       legacy_set(d, o, "SignalFormat",
					  (uint64_t)sf_get(d, o)));
	}
}

/* ------------------------------------------------------------------------ */
/* modetest-props, proptest-props                                           */

struct tool_prop {
	uint32_t conn;
	char name[64];
	char flags[64];
	char enums[4096];
	char values[1024];
	char value[64];
	char hex[2200];
};

struct tool_out {
	int n;
	struct tool_prop p[256];
	int n_conns;
	uint32_t conns[64];
};

static void trim(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' ' || s[n - 1] == '\t'))
		s[--n] = 0;
}

/* Run CMD and parse the property dumps of its connectors. */
static void run_tool(const char *cmd, struct tool_out *out)
{
	static char line[4096];
	struct tool_prop *cur = NULL;
	uint32_t conn = 0;
	bool in_value = false;
	FILE *f;
	int status;

	memset(out, 0, sizeof(*out));
	mmx_info("running: %s", cmd);
	f = popen(cmd, "r");
	mmx_assert_f(f, "popen(%s): %s", cmd, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		int tabs = 0;
		uint32_t a, b;
		char *s;

		trim(line);
		if (!line[0])
			continue;	/* blank (or whitespace-only) lines */
		while (line[tabs] == '\t')
			tabs++;
		s = line + tabs;
		if (tabs == 0) {
			in_value = false;
			cur = NULL;
			/* modetest -c: "ID\tENCODER\tSTATUS\tNAME..." */
			if (sscanf(line, "%u\t%u\t", &a, &b) == 2 &&
			    strchr(line, '\t')) {
				conn = a;
			} else if (sscanf(line, "Connector %u (", &a) == 1) {
				conn = a;	/* proptest */
			} else if (!strncmp(line, "CRTC", 4) ||
				   !strncmp(line, "Plane", 5) ||
				   !strncmp(line, "Encoders", 8) ||
				   !strncmp(line, "CRTCs", 5) ||
				   !strncmp(line, "Planes", 6) ||
				   !strncmp(line, "Frame buffers", 13)) {
				conn = 0;
			}
			if (conn && (!out->n_conns ||
				     out->conns[out->n_conns - 1] != conn) &&
			    out->n_conns < 64)
				out->conns[out->n_conns++] = conn;
			continue;
		}
		if (!conn)
			continue;
		if (tabs == 1) {
			char name[64];

			in_value = false;
			cur = NULL;
			if (sscanf(s, "%u %63[^:]:", &a, name) == 2 &&
			    s[strlen(s) - 1] == ':' &&
			    out->n < (int)MMX_ARRAY_SIZE(out->p)) {
				cur = &out->p[out->n++];
				cur->conn = conn;
				snprintf(cur->name, sizeof(cur->name), "%s", name);
			}
			continue;
		}
		if (!cur)
			continue;
		if (tabs == 2) {
			in_value = false;
			if (!strncmp(s, "flags:", 6))
				snprintf(cur->flags, sizeof(cur->flags), "%s",
					 s[6] == ' ' ? s + 7 : s + 6);
			else if (!strncmp(s, "enums:", 6))
				snprintf(cur->enums, sizeof(cur->enums), "%s",
					 s[6] == ' ' ? s + 7 : s + 6);
			else if (!strncmp(s, "values:", 7))
				snprintf(cur->values, sizeof(cur->values), "%s",
					 s[7] == ' ' ? s + 8 : s + 7);
			else if (!strncmp(s, "value:", 6)) {
				snprintf(cur->value, sizeof(cur->value), "%s",
					 s[6] == ' ' ? s + 7 : s + 6);
				in_value = true;
			}
			continue;
		}
		if (tabs == 3 && in_value)
			strncat(cur->hex, s, sizeof(cur->hex) - strlen(cur->hex) - 1);
	}
	status = pclose(f);
	mmx_assert_f(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		     "%s exited with status 0x%x", cmd, status);
	mmx_info("%s: %d connectors, %d connector properties parsed", cmd,
		 out->n_conns, out->n);
}

static const struct tool_prop *tool_find(const struct tool_out *out,
					 uint32_t conn, const char *name)
{
	int i;

	for (i = 0; i < out->n; i++)
		if (out->p[i].conn == conn && !strcmp(out->p[i].name, name))
			return &out->p[i];
	return NULL;
}

static void hex_of(const void *data, size_t len, char *buf, size_t size)
{
	const uint8_t *p = data;
	size_t i;

	buf[0] = 0;
	for (i = 0; i < len && 2 * i + 2 < size; i++)
		snprintf(buf + 2 * i, 3, "%02x", p[i]);
}

static void check_tool_blob(struct mmx_dev *d, const char *tool,
			    struct mmx_output *o, const struct tool_prop *p)
{
	static char want[2200];
	uint64_t id = mmx_prop_get(d, o->conn_id, p->name);

	mmx_assert_eq_str(p->flags, "immutable blob");
	want[0] = 0;
	if (id) {
		drmModePropertyBlobPtr b = drmModeGetPropertyBlob(d->fd,
								  (uint32_t)id);

		mmx_assert(b);
		hex_of(b->data, b->length, want, sizeof(want));
		drmModeFreePropertyBlob(b);
	}
	mmx_assert_f(!strcmp(p->hex, want),
		     "%s: %s %s blob differs from libdrm's:\n  %s\n  %s", tool,
		     o->name, p->name, p->hex, want);
}

static void check_tool_output(struct mmx_dev *d, const char *tool,
			      const struct tool_out *out)
{
	int i, k, checked = 0;

	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const struct kind_info *ki = kind_of(d, o);
		const struct tool_prop *p;
		uint64_t sets[64];
		char want[1024], num[32];
		int n_names, f;

		/* ConnectorType */
		p = tool_find(out, o->conn_id, "ConnectorType");
		mmx_assert_f(p, "%s lists no ConnectorType on %s (connector %u)",
			     tool, o->name, o->conn_id);
		mmx_assert_eq_str(p->flags, "immutable enum");
		want[0] = 0;
		for (k = 0; k < 15; k++)
			snprintf(want + strlen(want), sizeof(want) - strlen(want),
				 "%s%s=%d", k ? " " : "", ct_names[k], k);
		mmx_assert_eq_str(p->enums, want);
		for (k = 0; k < 15 && strcmp(ct_names[k], ki->ctype); k++)
			;
		snprintf(num, sizeof(num), "%d", k);
		mmx_assert_eq_str(p->value, num);

		/* ConnectorNumber */
		p = tool_find(out, o->conn_id, "ConnectorNumber");
		mmx_assert_f(p, "%s lists no ConnectorNumber on %s", tool,
			     o->name);
		mmx_assert_eq_str(p->flags, "immutable range");
		mmx_assert_eq_str(p->values, "0 8");
		snprintf(num, sizeof(num), "%d", i + 1);
		mmx_assert_eq_str(p->value, num);

		/* SignalFormat */
		p = tool_find(out, o->conn_id, "SignalFormat");
		mmx_assert_f(p, "%s lists no SignalFormat on %s", tool, o->name);
		mmx_assert_eq_str(p->flags, sf_mutable(d, o) ? "enum" :
					    "immutable enum");
		want[0] = 0;
		for (f = 0; f < SF_COUNT; f++)
			if (ki->formats & (1u << f))
				snprintf(want + strlen(want),
					 sizeof(want) - strlen(want), "%s%s=%d",
					 want[0] ? " " : "", sf_names[f], f);
		mmx_assert_eq_str(p->enums, want);
		snprintf(num, sizeof(num), "%d", sf_get(d, o));
		mmx_assert_eq_str(p->value, num);

		/* SignalProperties */
		n_names = kind_sets(ki, sets, 64);
		p = tool_find(out, o->conn_id, "SignalProperties");
		if (!n_names) {
			mmx_assert_f(!p, "%s lists SignalProperties on %s", tool,
				     o->name);
		} else {
			char buf[4096], *tok, *save = NULL;
			int n = 0;

			mmx_assert_f(p, "%s lists no SignalProperties on %s",
				     tool, o->name);
			mmx_assert_eq_str(p->flags, "enum");
			snprintf(buf, sizeof(buf), "%s", p->enums);
			for (tok = strtok_r(buf, " ", &save); tok;
			     tok = strtok_r(NULL, " ", &save)) {
				char *eq = strrchr(tok, '='), *c;
				unsigned long long ev;

				mmx_assert_f(eq, "%s: bad enum entry \"%s\"",
					     tool, tok);
				*eq = 0;
				ev = strtoull(eq + 1, NULL, 0);
				for (c = tok; *c; c++)
					if (*c == '+')
						*c = '|';
				mmx_assert_f(!strcmp(tok, "none") ? ev == 0 :
					     ev == sp_bits(d, o, tok),
					     "%s: %s SignalProperties entry %s=%llu",
					     tool, o->name, tok, ev);
				n++;
			}
			mmx_assert_eq(n, n_names);
			snprintf(num, sizeof(num), "%llu",
				 (unsigned long long)sp_get(d, o));
			mmx_assert_eq_str(p->value, num);
		}

		/* the blobs, byte for byte */
		p = tool_find(out, o->conn_id, "EDID");
		mmx_assert_f(p, "%s lists no EDID on %s", tool, o->name);
		check_tool_blob(d, tool, o, p);
		p = tool_find(out, o->conn_id, "CompatibilityList");
		mmx_assert_f(p, "%s lists no CompatibilityList on %s", tool,
			     o->name);
		check_tool_blob(d, tool, o, p);
		p = tool_find(out, o->conn_id, "CloneList");
		mmx_assert_f(p, "%s lists no CloneList on %s", tool, o->name);
		check_tool_blob(d, tool, o, p);
		checked++;
	}
	mmx_info("%s: the RandR properties of %d connectors agree with libdrm",
		 tool, checked);
}

static void test_modetest_props(struct mmx_dev *d)
{
	static struct tool_out out;

	prepare(d);
	run_tool("modetest -M mmx -c 2>&1", &out);
	check_tool_output(d, "modetest -c", &out);
}

static void test_proptest_props(struct mmx_dev *d)
{
	static struct tool_out out;

	prepare(d);
	run_tool("proptest -M mmx 2>&1", &out);
	check_tool_output(d, "proptest", &out);
}

/* ------------------------------------------------------------------------ */
/* signal-roundtrip                                                         */

static void roundtrip(struct mmx_dev *d, struct mmx_output *o, const char *fmt,
		      const char *props, const char *want_fmt,
		      const char *want_props)
{
	int ret = set_signal(d, o, fmt, props);

	mmx_assert_f(ret == 0, "%s: setting %s %s: %s", o->name,
		     fmt ? fmt : "(format unchanged)",
		     props ? props : "(properties unchanged)", strerror(-ret));
	expect_signal(d, o, want_fmt, want_props);
	mmx_info("%s: set %s %s -> reads %s %s", o->name, fmt ? fmt : "-",
		 props ? props : "-", want_fmt, want_props ? want_props : "");
}

/*
 * A step of a signal round trip: set SignalFormat FMT and SignalProperties
 * PROPS (NULL: unchanged), then read back WANT_FMT and WANT_PROPS; or, with
 * WANT_FMT REFUSED, see the setting refused (WANT_PROPS says what it tried).
 */
struct rt_step {
	const char *fmt, *props, *want_fmt, *want_props;
};

#define REFUSED NULL

/* Round trips on the first connector of type KIND (or ALT) found. */
static const struct {
	const char *kind, *alt;
	struct rt_step steps[12];
} roundtrips[] = {
	{ "DVI-I", NULL, {
		{ "VGA", NULL, "VGA", "0" },
		{ "TMDS", NULL, "TMDS", "SingleLink" },
		{ NULL, "DualLink", "TMDS", "DualLink" },
		/* "none" is the value of VGA, not a shorthand for a default */
		{ NULL, "0", REFUSED,
		  "SignalProperties none with TMDS" },
		{ "TMDS", "0", REFUSED,
		  "SignalProperties none with a new TMDS" },
		{ NULL, "SingleLink", "TMDS", "SingleLink" },
		{ NULL, "DualLink", "TMDS", "DualLink" },
		/* a format change alone gets the new format's default */
		{ "VGA", NULL, "VGA", "0" },
		{ "TMDS", NULL, "TMDS", "SingleLink" },
		{ "VGA", "0", "VGA", "0" },
		{ "TMDS", "DualLink", "TMDS", "DualLink" },
	} },
	{ "DVI-D", "HDMI-A", {
		{ NULL, "DualLink", "TMDS", "DualLink" },
		{ NULL, "SingleLink", "TMDS", "SingleLink" },
	} },
	{ "DP", NULL, {
		{ NULL, "Lane1|LowSpeed", "DisplayPort", "Lane1|LowSpeed" },
		{ NULL, "Lane4|HiSpeed", "DisplayPort", "Lane4|HiSpeed" },
		{ NULL, "Lane2|LowSpeed", "DisplayPort", "Lane2|LowSpeed" },
		{ NULL, "0", REFUSED,
		  "SignalProperties none on DisplayPort" },
		{ NULL, "Lane4|HiSpeed", "DisplayPort", "Lane4|HiSpeed" },
	} },
	{ "eDP", NULL, {
		{ NULL, "Lane2|HiSpeed", "DisplayPort", "Lane2|HiSpeed" },
		{ NULL, "Lane4|HiSpeed", "DisplayPort", "Lane4|HiSpeed" },
	} },
	{ "Composite", NULL, {
		{ "Composite-PAL", "PAL-B", "Composite-PAL", "PAL-B" },
		{ "Composite-NTSC", "NTSC-M", "Composite-NTSC", "NTSC-M" },
		{ "Composite-PAL", "PAL-I", "Composite-PAL", "PAL-I" },
		/* a variant implies its family: no "PAL+PAL-I" value */
		{ NULL, "PAL|PAL-I", REFUSED,
		  "SignalProperties PAL+PAL-I" },
		{ NULL, "PAL", "Composite-PAL", "PAL" },
		{ NULL, "PAL-60", "Composite-PAL", "PAL-60" },
		/* format changes alone: the documented defaults */
		{ "Composite-SECAM", NULL, "Composite-SECAM", "SECAM-L" },
		{ "Composite-PAL", NULL, "Composite-PAL", "PAL-B" },
		{ "Composite-NTSC", NULL, "Composite-NTSC", "NTSC-M" },
		{ NULL, "NTSC-J", "Composite-NTSC", "NTSC-J" },
		{ NULL, "NTSC", "Composite-NTSC", "NTSC" },
		{ "Composite", "SECAM-K", "Composite", "SECAM-K" },
	} },
	{ "SVIDEO", NULL, {
		{ NULL, "PAL-B", "SVideo", "PAL-B" },
		{ NULL, "NTSC-M", "SVideo", "NTSC-M" },
	} },
	{ "TV", NULL, {
		{ "SVideo", "PAL-B", "SVideo", "PAL-B" },
		{ "Composite-PAL", NULL, "Composite-PAL", "PAL-B" },
	} },
	{ "SCART", NULL, {
		{ "Component", NULL, "Component", "0" },
		{ "Composite-SECAM", NULL, "Composite-SECAM", "SECAM-L" },
		{ "SVideo", "SECAM-L", "SVideo", "SECAM-L" },
		{ "Composite-PAL", NULL, "Composite-PAL", "PAL-B" },
	} },
};

static void test_signal_roundtrip(struct mmx_dev *d)
{
	struct mmx_output *o;
	int tested = 0;
	size_t i, j;

	prepare(d);

	for (i = 0; i < MMX_ARRAY_SIZE(roundtrips); i++) {
		o = find_output(d, roundtrips[i].kind);
		if (!o && roundtrips[i].alt)
			o = find_output(d, roundtrips[i].alt);
		if (!o)
			continue;
		for (j = 0; j < MMX_ARRAY_SIZE(roundtrips[i].steps); j++) {
			const struct rt_step *st = &roundtrips[i].steps[j];

			if (!st->want_props)
				break;	/* the end of the steps */
			if (st->want_fmt == REFUSED)
				expect_refused(d, st->want_props,
					       set_signal(d, o, st->fmt,
							  st->props));
			else
				roundtrip(d, o, st->fmt, st->props,
					  st->want_fmt, st->want_props);
		}
		tested++;
	}
	/* single-format kinds: SignalFormat is immutable */
	if ((o = find_output(d, "VGA")))
		expect_refused(d, "setting VGA's immutable SignalFormat",
			       set_signal(d, o, "VGA", NULL));
	if ((o = find_output(d, "Component")))
		expect_refused(d, "setting Component's immutable SignalFormat",
			       set_signal(d, o, "Component", NULL));

	/* the legacy SETPROPERTY ioctl (xrandr --set through Xorg) */
	if ((o = find_output(d, "DVI-I"))) {
		mmx_do(legacy_set(d, o, "SignalFormat", sf_value(d, o, "VGA")));
		expect_signal(d, o, "VGA", "0");
		mmx_do(legacy_set(d, o, "SignalFormat", sf_value(d, o, "TMDS")));
		expect_signal(d, o, "TMDS", "SingleLink");
		mmx_do(legacy_set(d, o, "SignalProperties",
				  sp_bits(d, o, "DualLink")));
		expect_signal(d, o, "TMDS", "DualLink");
		expect_refused(d, "legacy SETPROPERTY SignalProperties none with TMDS",
			       legacy_set(d, o, "SignalProperties", 0));
		mmx_do(legacy_set(d, o, "SignalProperties",
				  sp_bits(d, o, "SingleLink")));
		expect_signal(d, o, "TMDS", "SingleLink");
		mmx_info("%s: legacy SETPROPERTY round trips VGA/TMDS and SingleLink/DualLink",
			 o->name);
	}
	if ((o = find_output(d, "Composite"))) {
		mmx_do(legacy_set(d, o, "SignalFormat",
				  sf_value(d, o, "Composite-PAL")));
		expect_signal(d, o, "Composite-PAL", "PAL-B");
		mmx_do(legacy_set(d, o, "SignalProperties",
				  sp_bits(d, o, "PAL-I")));
		expect_signal(d, o, "Composite-PAL", "PAL-I");
		mmx_do(legacy_set(d, o, "SignalFormat",
				  sf_value(d, o, "Composite-NTSC")));
		expect_signal(d, o, "Composite-NTSC", "NTSC-M");
	}

	/* on an active output a signal change is a modeset */
	if ((o = find_output(d, "DVI-I"))) {
		drmModeModeInfo m;

		mmx_mode_make(&m, 640, 480, 60);
		mmx_do(set_signal_ex(d, o, "TMDS", "SingleLink", &m, 0));
		expect_refused(d, "SignalFormat change on an active output without ALLOW_MODESET",
			       set_signal(d, o, "VGA", NULL));
		mmx_do(set_signal_ex(d, o, "VGA", NULL, NULL,
				     DRM_MODE_ATOMIC_ALLOW_MODESET));
		expect_signal(d, o, "VGA", "0");
		mmx_do(set_signal_ex(d, o, "TMDS", NULL, NULL,
				     DRM_MODE_ATOMIC_ALLOW_MODESET));
		expect_signal(d, o, "TMDS", "SingleLink");
		mmx_reset(d);
	}
	if ((o = find_output(d, "DP"))) {
		drmModeModeInfo m;
		drmModeCrtcPtr crtc;
		int ret;

		mmx_mode_make(&m, 640, 480, 60);
		ret = set_signal_ex(d, o, NULL, "Lane4|HiSpeed", &m, 0);
		mmx_assert_f(ret == 0, "lighting %s at 640x480: %s", o->name,
			     strerror(-ret));
		expect_refused(d, "SignalProperties change on an active output without ALLOW_MODESET",
			       set_signal(d, o, NULL, "Lane2|HiSpeed"));
		/* setting the current value again is no change */
		mmx_do(set_signal(d, o, NULL, "Lane4|HiSpeed"));
		mmx_do(set_signal_ex(d, o, NULL, "Lane2|HiSpeed", NULL,
				     DRM_MODE_ATOMIC_ALLOW_MODESET));
		expect_signal(d, o, "DisplayPort", "Lane2|HiSpeed");
		crtc = drmModeGetCrtc(d->fd, o->crtc_id);
		mmx_assert(crtc);
		mmx_assert_f(crtc->mode_valid && crtc->mode.hdisplay == 640,
			     "%s: CRTC lost its mode over the signal change",
			     o->name);
		drmModeFreeCrtc(crtc);
		mmx_info("%s: active at 640x480, Lane4|HiSpeed -> Lane2|HiSpeed needs ALLOW_MODESET",
			 o->name);
		/*
		 * The legacy ioctl (xrandr --set on a lit output) is a commit
		 * that may modeset (DRM core): it works, the CRTC stays lit.
		 */
		mmx_do(legacy_set(d, o, "SignalProperties",
				  sp_bits(d, o, "Lane4|HiSpeed")));
		expect_signal(d, o, "DisplayPort", "Lane4|HiSpeed");
		crtc = drmModeGetCrtc(d->fd, o->crtc_id);
		mmx_assert(crtc && crtc->mode_valid);
		drmModeFreeCrtc(crtc);
		mmx_info("%s lit: legacy SETPROPERTY Lane2|HiSpeed -> Lane4|HiSpeed applied",
			 o->name);
	}
	mmx_require_f(tested, "no connector with SignalProperties");
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* signal-invalid                                                           */

static void refuse_fmt(struct mmx_dev *d, struct mmx_output *o, uint64_t fmt)
{
	char what[128];

	snprintf(what, sizeof(what), "%s SignalFormat %llu (%s)", o->name,
		 (unsigned long long)fmt, sf_name((int)fmt));
	expect_refused(d, what, set_signal_raw(d, o, true, fmt, false, 0));
}

static void refuse_props(struct mmx_dev *d, struct mmx_output *o,
			 const char *fmt, uint64_t props, const char *desc)
{
	char what[256];

	snprintf(what, sizeof(what), "%s %s with SignalProperties %s",
		 o->name, fmt ? fmt : "(current format)", desc);
	expect_refused(d, what,
		       set_signal_raw(d, o, fmt != NULL,
				      fmt ? sf_value(d, o, fmt) : 0, true,
				      props));
}

static void refuse_mode(struct mmx_dev *d, struct mmx_output *o,
			const char *fmt, const char *props,
			const drmModeModeInfo *m, const char *desc)
{
	char what[256];

	snprintf(what, sizeof(what), "%s %s %s with %s", o->name,
		 fmt ? fmt : "", props ? props : "", desc);
	expect_refused(d, what, set_signal_ex(d, o, fmt, props, m, 0));
	expect_refused(d, what,
		       set_signal_ex(d, o, fmt, props, m,
				     DRM_MODE_ATOMIC_TEST_ONLY));
}

/*
 * With MODE (WHAT) lit on O, a link PROPS cannot carry it: the change to
 * PROPS is refused by an atomic modeset and by the legacy SETPROPERTY;
 * then O is switched off and back to its format's default link.
 */
static void link_change_refused(struct mmx_dev *d, struct mmx_output *o,
				const char *props, const char *mode)
{
	char what[256];

	snprintf(what, sizeof(what), "%s under an active %s", props, mode);
	expect_refused(d, what,
		       set_signal_ex(d, o, NULL, props, NULL,
				     DRM_MODE_ATOMIC_ALLOW_MODESET));
	snprintf(what, sizeof(what), "legacy SETPROPERTY %s under an active %s",
		 props, mode);
	expect_refused(d, what,
		       legacy_set(d, o, "SignalProperties",
				  sp_bits(d, o, props)));
	mmx_reset(d);
	mmx_do(set_signal(d, o, NULL, default_props(sf_get(d, o))));
}

/*
 * SignalProperties sets a kind refuses: with FORMAT set alongside (NULL:
 * the current one), SET, WHY for the messages (NULL: SET).
 */
static const struct bad_signal {
	const char *kind, *format, *set, *why;
} bad_signals[] = {
	{ "DVI-I", NULL, "SingleLink|DualLink", NULL },
	{ "DVI-I", "TMDS", "SingleLink|DualLink", NULL },
	{ "DVI-I", "VGA", "DualLink", "DualLink (VGA takes none)" },
	{ "DVI-I", "VGA", "SingleLink", "SingleLink (VGA takes none)" },
	{ "DP", NULL, "Lane1|Lane2|HiSpeed", NULL },
	{ "DP", NULL, "Lane2|Lane4|LowSpeed", NULL },
	{ "DP", NULL, "Lane4|LowSpeed|HiSpeed", NULL },
	{ "eDP", NULL, "Lane1|Lane4|HiSpeed", NULL },
	{ "Composite", "Composite-NTSC", "PAL-B", NULL },
	{ "Composite", "Composite-NTSC", "SECAM-L", NULL },
	{ "Composite", "Composite-PAL", "NTSC-M", NULL },
	{ "Composite", "Composite-SECAM", "PAL", NULL },
	{ "Composite", "Composite", "PAL-B|NTSC-M",
	  "PAL-B|NTSC-M (two standards)" },
	{ "Composite", "Composite-PAL", "PAL-B|PAL-I",
	  "PAL-B|PAL-I (two standards)" },
	{ "SVIDEO", NULL, "NTSC-M|PAL-B", "NTSC-M|PAL-B (two standards)" },
};

static void test_signal_invalid(struct mmx_dev *d)
{
	uint64_t lane1 = 0, single = 0, pal_b = 0;
	struct mmx_output *o;
	drmModeModeInfo m;
	int f, tested = 0;
	size_t i;

	prepare(d);
	lane1 = sp_bit_anywhere(d, "Lane1");
	single = sp_bit_anywhere(d, "SingleLink");
	pal_b = sp_bit_anywhere(d, "PAL-B");

	/* SignalFormat values outside the kind's subset, on every output */
	for (f = 0; f < d->n_outputs; f++) {
		struct mmx_output *p = &d->out[f];
		const struct kind_info *k = kind_of(d, p);
		int v;

		for (v = 0; v < SF_COUNT; v++)
			if (!(k->formats & (1u << v)))
				refuse_fmt(d, p, (uint64_t)v);
		refuse_fmt(d, p, SF_COUNT);
		refuse_fmt(d, p, 99);
		refuse_fmt(d, p, ~0ull);
		/* bits no SignalProperties lists */
		if (has_sigprops(d, p)) {
			refuse_props(d, p, NULL, 1ull << 63, "bit 63");
			if (lane1 && !kind_takes(k, "Lane1"))
				refuse_props(d, p, NULL, lane1, "Lane1");
			if (single && !kind_takes(k, "SingleLink"))
				refuse_props(d, p, NULL, single, "SingleLink");
			if (pal_b && !kind_takes(k, "PAL-B"))
				refuse_props(d, p, NULL, pal_b, "PAL-B");
		}
		tested++;
	}

	for (i = 0; i < MMX_ARRAY_SIZE(bad_signals); i++) {
		const struct bad_signal *b = &bad_signals[i];

		if ((o = find_output(d, b->kind)))
			refuse_props(d, o, b->format, sp_bits(d, o, b->set),
				     b->why ? b->why : b->set);
	}
	if ((o = find_output(d, "DVI-I"))) {
		/* single link: 165 MHz at most */
		mode_with_clock(&m, 200000);
		refuse_mode(d, o, NULL, "SingleLink", &m,
			    "a 200 MHz mode on single-link TMDS");
		refuse_mode(d, o, "TMDS", NULL, &m,
			    "a 200 MHz mode on (default) single-link TMDS");
		mmx_do(set_signal_ex(d, o, NULL, "DualLink", &m,
				     DRM_MODE_ATOMIC_TEST_ONLY));
		mode_with_clock(&m, 340000);
		refuse_mode(d, o, NULL, "DualLink", &m,
			    "a 340 MHz mode on dual-link TMDS");
	}
	if ((o = find_output(d, "DP"))) {
		/* 4K60 (CVT-RB, 533.25 MHz) on one low-speed lane */
		{
			struct timing t = { 533250, 3840, 3888, 3920, 4000,
					    2160, 2163, 2168, 2222, false };

			mode_of_timing(&t, &m);
		}
		refuse_mode(d, o, NULL, "Lane1|LowSpeed", &m,
			    "3840x2160@60 on Lane1|LowSpeed");
		refuse_mode(d, o, NULL, "Lane4|HiSpeed", &m,
			    "3840x2160@60 (12.8 Gbit/s) on Lane4|HiSpeed (8.64 Gbit/s)");
	}
	if ((o = find_output(d, "Composite"))) {
		if (single)
			refuse_props(d, o, "Composite-PAL", single, "SingleLink");
		/* an NTSC link cannot carry a PAL or a VGA timing */
		mmx_mode_make(&m, 640, 480, 60);
		refuse_mode(d, o, "Composite-NTSC", NULL, &m,
			    "a 640x480@60 progressive mode on Composite-NTSC");
	}

	/* the same refusals through the legacy SETPROPERTY ioctl */
	if ((o = find_output(d, "VGA")))
		expect_refused(d, "legacy SETPROPERTY VGA SignalFormat TMDS",
			       legacy_set(d, o, "SignalFormat", SF_TMDS));
	if ((o = find_output(d, "DVI-I"))) {
		expect_refused(d, "legacy SETPROPERTY DVI-I SignalFormat DisplayPort",
			       legacy_set(d, o, "SignalFormat", SF_DISPLAYPORT));
		expect_refused(d, "legacy SETPROPERTY DVI-I SingleLink|DualLink",
			       legacy_set(d, o, "SignalProperties",
					  sp_bits(d, o, "SingleLink|DualLink")));
	}
	if ((o = find_output(d, "Composite")))
		expect_refused(d, "legacy SETPROPERTY PAL-B on Composite-NTSC",
			       legacy_set(d, o, "SignalProperties",
					  sp_bits(d, o, "PAL-B")));
	mmx_require(tested);
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* dvi-i-switch                                                             */

/* Plug PRESET (WHAT, for messages) into O and wait for the hotplug uevent. */
static void plug_seen(struct mmx_dev *d, struct mmx_output *o,
		      const char *preset, const char *what)
{
	int ms;

	plug(d, o, preset);
	ms = uevent_wait(d, 5000);
	mmx_assert_f(ms >= 0, "no hotplug uevent within 5 s of plugging %s into %s",
		     what, o->name);
	mmx_info("%s: %s plugged: hotplug uevent after %d ms", o->name, what,
		 ms);
}

/*
 * Plug PRESET (WHAT) into HPD output O, wait for the uevent and return
 * GetConnectorCurrent, which must already say WANT without a probe: no
 * modes when disconnected, some when connected.
 */
static drmModeConnectorPtr plug_current(struct mmx_dev *d,
					struct mmx_output *o,
					const char *preset, const char *what,
					drmModeConnection want)
{
	drmModeConnectorPtr c;

	plug_seen(d, o, preset, what);
	c = current(d, o);
	mmx_info("%s: GetConnectorCurrent after the uevent: %s, %d modes",
		 o->name, conn_status(c), c->count_modes);
	mmx_assert_f(c->connection == want,
		     "%s (HPD): GetConnectorCurrent says %s after the uevent for %s",
		     o->name, conn_status(c), what);
	mmx_assert_f(want == DRM_MODE_CONNECTED ? c->count_modes > 0 :
						  c->count_modes == 0,
		     "%s (HPD): %d modes after the uevent for %s", o->name,
		     c->count_modes, what);
	return c;
}

/*
 * After a uevent, without a probe: O is connected, its EDID property is
 * the (DIGITAL or analog) monitor's and its preferred timing is offered.
 */
static void expect_monitor(struct mmx_dev *d, struct mmx_output *o,
			   bool digital, const char *what)
{
	uint8_t edid[1024];
	drmModeConnectorPtr c = current(d, o);
	struct edid_info e;
	int n;

	mmx_assert_f(c->connection == DRM_MODE_CONNECTED,
		     "%s is %s after the uevent", o->name, conn_status(c));
	n = edid_prop(d, o->conn_id, edid, sizeof(edid));
	edid_parse(edid, n, &e, what);
	mmx_assert_f(e.digital == digital, "%s: the %s's EDID says %s",
		     o->name, what, e.digital ? "digital" : "analog");
	mmx_assert(e.n_dtd > 0);
	mmx_assert_f(conn_find_timing(c, &e.dtd[0]) >= 0,
		     "%s: the %s's preferred timing is not offered (no probe needed after a uevent)",
		     o->name, what);
	print_modes(c, what);
	drmModeFreeConnector(c);
}

static void expect_crtc(struct mmx_dev *d, struct mmx_output *o,
			const drmModeModeInfo *mode, int active);

/*
 * The DRM master's answer to link-status Bad, in one atomic commit: O lit
 * with MODE on its own CRTC and link-status Good. Returns 0/-errno.
 */
static int relink(struct mmx_dev *d, struct mmx_output *o,
		  const drmModeModeInfo *mode)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_add(r, o->conn_id, "link-status", DRM_MODE_LINK_STATUS_GOOD);
	mmx_req_add(r, o->conn_id, "CRTC_ID", o->crtc_id);
	mmx_req_add(r, o->crtc_id, "MODE_ID", mmx_mode_blob(d, mode));
	mmx_req_add(r, o->crtc_id, "ACTIVE", 1);
	return mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
}

/* ACTIVE of O's CRTC alone (DPMS), ALLOW_MODESET. Returns 0/-errno. */
static int set_active_ret(struct mmx_dev *d, struct mmx_output *o, int active)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_add(r, o->crtc_id, "ACTIVE", (uint64_t)active);
	return mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET);
}

/*
 * What Xorg's modesetting driver does on link-status Bad (without atomic,
 * its default): the legacy SETCRTC of O with MODE and FB, which the core
 * turns into a commit with link-status Good. Returns 0/-errno.
 */
static int legacy_setcrtc(struct mmx_dev *d, struct mmx_output *o,
			  const struct mmx_fb *fb, const drmModeModeInfo *mode)
{
	drmModeModeInfo m = *mode;
	uint32_t conn = o->conn_id;

	if (drmModeSetCrtc(d->fd, o->crtc_id, fb->id, 0, 0, &conn, 1, &m))
		return -errno;
	return 0;
}

static void expect_link(struct mmx_dev *d, struct mmx_output *o,
			uint64_t want, const char *when)
{
	uint64_t got = link_status(d, o);

	mmx_assert_f(got == want, "%s: link-status reads %s %s, expected %s",
		     o->name, got == DRM_MODE_LINK_STATUS_BAD ? "Bad" : "Good",
		     when, want == DRM_MODE_LINK_STATUS_BAD ? "Bad" : "Good");
}

/* The master's modeset (RET, WHAT) lit O with MODE and set the link Good. */
static void expect_relit(struct mmx_dev *d, struct mmx_output *o, int ret,
			 const drmModeModeInfo *mode, const char *what)
{
	mmx_assert_f(ret == 0, "%s: %s: %s", o->name, what, strerror(-ret));
	expect_crtc(d, o, mode, 1);
	expect_link(d, o, DRM_MODE_LINK_STATUS_GOOD, what);
}

/* The end of a subtest with uevents open: everything back to defaults. */
static void sink_test_end(struct mmx_dev *d)
{
	mmx_reset(d);
	uevent_drain(d, 300);
	uevent_close();
	prepare(d);
}

/* DVI-I's two sinks: the preset, the monitor, the signal it takes. */
static const struct dvi_i_sink {
	const char *preset, *monitor, *format, *props;
	bool digital;
} dvi_i_sinks[] = {
	{ "vga", "analog monitor", "VGA", "0", false },
	{ "dvi", "digital monitor", "TMDS", "SingleLink", true },
};

static void test_dvi_i_switch(struct mmx_dev *d)
{
	struct mmx_output *o = require_output(d, "DVI-I");
	const struct dvi_i_sink *k;
	drmModeModeInfo m;
	char what[64];
	int extra;

	prepare(d);
	expect_signal(d, o, "TMDS", "SingleLink");
	uevent_open();
	extra = uevent_drain(d, 300);
	if (extra)
		mmx_info("%d hotplug uevent(s) pending before the test", extra);

	/*
	 * An analog monitor: VGA, and clients are told; a digital one: back
	 * to TMDS, another uevent.
	 */
	for (k = dvi_i_sinks; k < dvi_i_sinks + MMX_ARRAY_SIZE(dvi_i_sinks);
	     k++) {
		plug_seen(d, o, k->preset, k->monitor);
		expect_signal(d, o, k->format, k->props);
		expect_monitor(d, o, k->digital, k->monitor);
		extra = uevent_drain(d, 300);
		mmx_debug("%d more uevent(s) after the switch", extra);
	}

	/*
	 * While lit at 640x480, which both signals carry: the kernel follows
	 * the sink's signal and modesets nothing; the link stays Good.
	 */
	mmx_mode_make(&m, 640, 480, 60);
	mmx_do(set_signal_ex(d, o, "TMDS", NULL, &m, 0));
	for (k = dvi_i_sinks; k < dvi_i_sinks + MMX_ARRAY_SIZE(dvi_i_sinks);
	     k++) {
		uevent_drain(d, 200);
		snprintf(what, sizeof(what), "%s (lit)", k->monitor);
		plug_seen(d, o, k->preset, what);
		expect_signal(d, o, k->format, k->props);
		expect_crtc(d, o, &m, 1);
		snprintf(what, sizeof(what), "after %s, which carries 640x480",
			 k->format);
		expect_link(d, o, DRM_MODE_LINK_STATUS_GOOD, what);
	}
	mmx_info("%s lit at 640x480: analog and digital monitors followed, CRTC still lit, link-status Good",
		 o->name);
	uevent_drain(d, 200);
	sink_test_end(d);
}

/* ------------------------------------------------------------------------ */
/* sink-switch-lit, sink-unplug-lit                                         */

/*
 * A sink that demands another signal is plugged while the output is lit
 * with a mode the new signal cannot carry. The driver follows the sink's
 * signal (SignalFormat reads it), leaves the CRTC as the master left it,
 * sets link-status Bad and sends a hotplug uevent. The master decides: it
 * may turn the CRTC dark; lighting the old mode again, or setting the link
 * Good with it, is refused with EINVAL and changes nothing; a mode that
 * fits, with link-status Good, is taken.
 */
static void test_sink_switch_lit_dvi(struct mmx_dev *d)
{
	struct mmx_output *o = require_output(d, "DVI-I");
	struct ddc_figures f0, f1;
	drmModeModeInfo m, small;
	uint64_t props;
	char sp[128];
	int ms, ret;

	prepare(d);
	uevent_open();
	plug(d, o, "vga");
	uevent_drain(d, 300);
	expect_signal(d, o, "VGA", "0");
	mode_with_clock(&m, 200000);
	ret = set_signal_ex(d, o, NULL, NULL, &m, 0);
	mmx_assert_f(ret == 0, "%s: a 200 MHz mode on VGA: %s", o->name,
		     strerror(-ret));
	expect_link(d, o, DRM_MODE_LINK_STATUS_GOOD, "lit on VGA");
	ddc_get(d, o, &f0);

	plug(d, o, "dvi");
	ms = uevent_wait(d, 5000);
	props = sp_get(d, o);
	ddc_get(d, o, &f1);
	mmx_info("%s lit at 200 MHz on VGA, digital monitor plugged: uevent %s, SignalFormat %s %s, link-status %s",
		 o->name, ms >= 0 ? "yes" : "no", sf_name(sf_get(d, o)),
		 sp_describe(d, o, props, sp, sizeof(sp)),
		 link_status(d, o) == DRM_MODE_LINK_STATUS_BAD ? "Bad" : "Good");
	mmx_assert_f(sf_get(d, o) == SF_TMDS,
		     "%s: a digital monitor plugged while lit at 200 MHz on VGA left SignalFormat %s (contract: a digital sink switches DVI-I to TMDS)",
		     o->name, sf_name(sf_get(d, o)));
	mmx_assert_f(ms >= 0, "%s: no uevent for the switch", o->name);
	mmx_assert_f(!link_fits(d, o, SF_TMDS, props, m.clock),
		     "%s: TMDS %s carries 200 MHz: nothing to test", o->name,
		     sp);
	/* the kernel modesets nothing behind the master's back */
	expect_crtc(d, o, &m, 1);
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD,
		    "with a 200 MHz mode on single-link TMDS");
	mmx_assert_eq_u64(f1.link_bad, f0.link_bad + 1);

	/* the master may turn it dark, not light the old mode again */
	mmx_do(set_active_ret(d, o, 0));
	expect_crtc(d, o, &m, 0);
	expect_refused(d, "ACTIVE 1 with 200 MHz on single-link TMDS (link-status Bad)",
		       set_active_ret(d, o, 1));
	expect_refused(d, "link-status Good with 200 MHz on single-link TMDS",
		       relink(d, o, &m));
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD, "after the refusals");
	expect_crtc(d, o, &m, 0);

	/* a mode the link carries, with link-status Good: taken */
	mmx_mode_make(&small, 640, 480, 60);
	expect_relit(d, o, relink(d, o, &small),
		     &small, "link-status Good with 640x480");
	mmx_info("%s: dark while Bad accepted, 200 MHz refused, 640x480 with link-status Good taken",
		 o->name);
	sink_test_end(d);
}

static void test_sink_switch_lit_tv(struct mmx_dev *d)
{
	struct mmx_output *o = NULL;
	drmModeModeInfo m, pal;
	drmModeConnectorPtr c;
	struct mmx_fb *fb;
	char sp[128];
	int i, ms, f, idx, ret;

	for (i = 0; i < d->n_outputs && !o; i++)
		if (kind_of(d, &d->out[i])->formats & F(COMPOSITE_PAL))
			o = &d->out[i];
	mmx_require_f(o, "no Composite, TV or SCART connector");
	prepare(d);
	uevent_open();

	/* unlit: the PAL TV gets a PAL signal, and clients are told */
	plug(d, o, "ntsc-tv");
	mmx_do(set_signal(d, o, "Composite-NTSC", NULL));
	uevent_drain(d, 300);
	plug(d, o, "pal-tv");
	ms = uevent_wait(d, 2000);
	mmx_info("%s off, PAL TV plugged: uevent %s, SignalFormat %s %s",
		 o->name, ms >= 0 ? "yes" : "no", sf_name(sf_get(d, o)),
		 sp_describe(d, o, sp_get(d, o), sp, sizeof(sp)));
	mmx_assert_f(sf_get(d, o) != SF_COMPOSITE_NTSC,
		     "%s (off): a PAL TV left SignalFormat Composite-NTSC",
		     o->name);
	mmx_assert_f(ms >= 0, "%s (off): no uevent for the switch", o->name);
	expect_link(d, o, DRM_MODE_LINK_STATUS_GOOD, "with the CRTC off");

	/* lit at 720x480i: the signal follows, the CRTC stays, link Bad */
	plug(d, o, "ntsc-tv");
	mmx_do(set_signal(d, o, "Composite-NTSC", NULL));
	uevent_drain(d, 300);
	expect_signal(d, o, "Composite-NTSC", "NTSC-M");
	c = probe(d, o);
	idx = conn_find_mode(c, 720, 480, true, 60000.0 / 1001, 0.01);
	mmx_assert(idx >= 0);
	m = c->modes[idx];
	drmModeFreeConnector(c);
	fb = mmx_fb_new(d, 720, 576, DRM_FORMAT_XRGB8888);
	mmx_fb_fill(fb, 0xff204060);
	ret = legacy_setcrtc(d, o, fb, &m);
	mmx_assert_f(ret == 0, "%s: legacy SETCRTC 720x480i on NTSC: %s",
		     o->name, strerror(-ret));
	uevent_drain(d, 300);
	plug(d, o, "pal-tv");
	ms = uevent_wait(d, 2000);
	f = sf_get(d, o);
	mmx_info("%s lit at 720x480i NTSC, PAL TV plugged: uevent %s, SignalFormat %s %s, link-status %s",
		 o->name, ms >= 0 ? "yes" : "no", sf_name(f),
		 sp_describe(d, o, sp_get(d, o), sp, sizeof(sp)),
		 link_status(d, o) == DRM_MODE_LINK_STATUS_BAD ? "Bad" : "Good");
	mmx_assert_f(f != SF_COMPOSITE_NTSC,
		     "%s: a PAL TV plugged while lit at 720x480i left SignalFormat Composite-NTSC (contract: the driver follows the signal the sink demands)",
		     o->name);
	mmx_assert_f(ms >= 0, "%s: no uevent for the switch", o->name);
	expect_crtc(d, o, &m, 1);
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD,
		    "with 720x480i lit on a PAL signal");

	/*
	 * Xorg's modesetting driver re-sets the current mode on Bad: refused,
	 * nothing changed; then RandR clients pick a mode of the new list.
	 */
	expect_refused(d, "legacy SETCRTC of 720x480i on a PAL signal",
		       legacy_setcrtc(d, o, fb, &m));
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD, "after the refusal");
	c = probe(d, o);
	idx = conn_find_mode(c, 720, 576, true, 50.0, 0.01);
	mmx_assert_f(idx >= 0, "%s: no 720x576i mode after the PAL TV", o->name);
	pal = c->modes[idx];
	drmModeFreeConnector(c);
	expect_relit(d, o, legacy_setcrtc(d, o, fb, &pal), &pal,
		     "legacy SETCRTC 720x576i on PAL");
	mmx_info("%s: 720x480i refused on PAL, 720x576i taken, link-status Good",
		 o->name);
	sink_test_end(d);
	mmx_fb_free(fb);
}

/*
 * An HPD sink unplugged from a lit output: disconnected, with a uevent;
 * the CRTC stays lit as the master left it, link-status Bad. Plugged
 * back, the link stays Bad until the master's modeset sets it Good.
 */
static void test_sink_unplug_lit(struct mmx_dev *d)
{
	struct mmx_output *o = NULL;
	drmModeConnectorPtr c;
	drmModeModeInfo m;
	int i;

	for (i = 0; i < d->n_outputs && !o; i++)
		if (kind_of(d, &d->out[i])->hpd &&
		    strcmp(kind_of(d, &d->out[i])->kind, "eDP"))
			o = &d->out[i];
	mmx_require_f(o, "no HPD connector but eDP");
	prepare(d);
	uevent_open();
	mmx_mode_make(&m, 640, 480, 60);
	mmx_do(set_signal_ex(d, o, NULL, NULL, &m, 0));
	uevent_drain(d, 300);

	c = plug_current(d, o, "none", "nothing (unplugged)",
			 DRM_MODE_DISCONNECTED);
	drmModeFreeConnector(c);
	expect_crtc(d, o, &m, 1);
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD, "after the unplug");

	uevent_drain(d, 200);
	plug_seen(d, o, kind_of(d, o)->sink, "its sink again");
	expect_crtc(d, o, &m, 1);
	expect_link(d, o, DRM_MODE_LINK_STATUS_BAD,
		    "after the replug (only the master sets it Good)");
	expect_relit(d, o, relink(d, o, &m), &m,
		     "link-status Good with 640x480 after the replug");
	mmx_info("%s lit at 640x480: unplug left the CRTC lit with link-status Bad; the master's modeset set it Good",
		 o->name);
	sink_test_end(d);
}

/* ------------------------------------------------------------------------ */
/* vga-probe-only                                                           */

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * A probe of O reads its EDID over the simulated DDC channel: one detection
 * and at least BLOCKS EDID blocks plus the detection's presence check (at
 * 12 ms each in mmx_ddc); a probe-free query reads nothing. The DRM poll
 * helper may detect a polled O on its own every 10 s: a query that saw one
 * is tried again.
 */
static void check_ddc_cost(struct mmx_dev *d, struct mmx_output *o,
			   int blocks)
{
	struct ddc_figures a, b;
	int attempt;

	ddc_get(d, o, &a);
	drmModeFreeConnector(probe(d, o));
	ddc_get(d, o, &b);
	mmx_info("%s: a probe: %" PRIu64 " detection(s), %" PRIu64 " EDID block(s), %" PRIu64 " ms of simulated DDC (EDID of %d block(s))",
		 o->name, b.detects - a.detects, b.blocks - a.blocks,
		 b.ms - a.ms, blocks);
	mmx_assert_f(b.detects > a.detects, "%s: a probe did not detect",
		     o->name);
	mmx_assert_f(b.blocks - a.blocks >= (uint64_t)blocks + (blocks > 0),
		     "%s: a probe read %" PRIu64 " DDC block(s), the EDID has %d",
		     o->name, b.blocks - a.blocks, blocks);
	for (attempt = 0; attempt < 3; attempt++) {
		ddc_get(d, o, &a);
		drmModeFreeConnector(current(d, o));
		ddc_get(d, o, &b);
		if (b.detects == a.detects) {
			mmx_assert_f(b.blocks == a.blocks,
				     "%s: GetConnectorCurrent read %" PRIu64 " DDC block(s)",
				     o->name, b.blocks - a.blocks);
			return;
		}
		mmx_info("%s: the DRM poll helper detected in between: again",
			 o->name);
	}
	mmx_fail("%s: GetConnectorCurrent detected three times in a row",
		 o->name);
}

/* Median durations (ns) of N probes and N probe-free queries of O. */
static void time_queries(struct mmx_dev *d, struct mmx_output *o, int n,
			 int64_t *probe_ns, int64_t *current_ns)
{
	int64_t p[16], c[16];
	int i;

	for (i = 0; i < n && i < 16; i++) {
		int64_t t0 = mmx_now_ns();
		drmModeConnectorPtr x = drmModeGetConnector(d->fd, o->conn_id);

		p[i] = mmx_now_ns() - t0;
		mmx_assert(x);
		drmModeFreeConnector(x);
		t0 = mmx_now_ns();
		x = drmModeGetConnectorCurrent(d->fd, o->conn_id);
		c[i] = mmx_now_ns() - t0;
		mmx_assert(x);
		drmModeFreeConnector(x);
	}
	qsort(p, (size_t)i, sizeof(p[0]), cmp_i64);
	qsort(c, (size_t)i, sizeof(c[0]), cmp_i64);
	*probe_ns = p[i / 2];
	*current_ns = c[i / 2];
}

/*
 * Plug PRESET into polled O and check that the cached state does not
 * change before a probe. The DRM poll helper may probe on its own every
 * 10 s; if a hotplug uevent shows it did, try again.
 */
static void plug_unseen(struct mmx_dev *d, struct mmx_output *o,
			const char *preset, drmModeConnection before,
			const char *restore)
{
	int attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		drmModeConnectorPtr c;
		bool same;

		uevent_drain(d, 50);
		plug(d, o, preset);
		c = current(d, o);
		same = c->connection == before;
		mmx_info("%s: plugged %s; GetConnectorCurrent without probe: %s, %d modes",
			 o->name, preset, conn_status(c), c->count_modes);
		drmModeFreeConnector(c);
		if (same)
			return;
		mmx_assert_f(uevent_wait(d, 0) >= 0,
			     "%s (polled, no HPD): GetConnectorCurrent saw the new sink \"%s\" without a probe",
			     o->name, preset);
		mmx_info("the DRM poll helper probed in between: again");
		plug(d, o, restore);
		drmModeFreeConnector(probe(d, o));
	}
	mmx_fail("the poll helper probed %s three times in a row", o->name);
}

/*
 * Plug PRESET into polled O (RESTORE now plugged), unseen until a probe;
 * then the probe and GetConnectorCurrent after it say connected with modes
 * (PLUGGED) or disconnected without.
 */
static void plug_probed(struct mmx_dev *d, struct mmx_output *o,
			const char *preset, const char *restore, bool plugged)
{
	static const char *const when[2] = {
		"a probe", "GetConnectorCurrent after the probe",
	};
	drmModeConnection want = plugged ? DRM_MODE_CONNECTED :
					   DRM_MODE_DISCONNECTED;
	int i;

	plug_unseen(d, o, preset,
		    plugged ? DRM_MODE_DISCONNECTED : DRM_MODE_CONNECTED,
		    restore);
	for (i = 0; i < 2; i++) {
		drmModeConnectorPtr c = i ? current(d, o) : probe(d, o);

		mmx_assert_f(c->connection == want &&
			     (c->count_modes > 0) == plugged,
			     "%s: %s after plugging %s says %s, %d modes",
			     o->name, when[i], preset, conn_status(c),
			     c->count_modes);
		drmModeFreeConnector(c);
	}
}

static void test_vga_probe_only(struct mmx_dev *d)
{
	struct mmx_output *o = find_output(d, "VGA");
	int64_t p_on, c_on, p_off, c_off;
	const char *sink;
	drmModeConnectorPtr c;
	int i, n_edid;
	uint8_t edid[1024];

	/* polled kinds with an EDID sink: VGA, else DVI-A or LVDS */
	if (!o)
		o = find_output(d, "DVI-A");
	if (!o)
		o = find_output(d, "LVDS");
	mmx_require_f(o, "no VGA, DVI-A or LVDS connector");
	sink = kind_of(d, o)->sink;
	prepare(d);
	uevent_open();
	c = current(d, o);
	mmx_assert_eq(c->connection, DRM_MODE_CONNECTED);
	mmx_assert_gt(c->count_modes, 0);
	drmModeFreeConnector(c);

	/* unplug: unseen until a probe */
	plug_probed(d, o, "none", sink, false);
	mmx_assert_eq(edid_prop(d, o->conn_id, edid, sizeof(edid)), 0);
	time_queries(d, o, 7, &p_off, &c_off);

	/* plug back: unseen until a probe again */
	plug_probed(d, o, sink, "none", true);
	n_edid = edid_prop(d, o->conn_id, edid, sizeof(edid));
	mmx_assert_gt(n_edid, 0);
	time_queries(d, o, 7, &p_on, &c_on);
	uevent_close();

	mmx_info("%s timing (median of 7): connected (EDID %d block(s)): probe %.2f ms, current %.3f ms; disconnected: probe %.2f ms, current %.3f ms",
		 o->name, n_edid / EDID_BLOCK, p_on / 1e6, c_on / 1e6,
		 p_off / 1e6, c_off / 1e6);
	printf("TIMING %s connected probe_ms=%.2f current_ms=%.3f edid_blocks=%d\n",
	       o->name, p_on / 1e6, c_on / 1e6, n_edid / EDID_BLOCK);
	printf("TIMING %s disconnected probe_ms=%.2f current_ms=%.3f\n",
	       o->name, p_off / 1e6, c_off / 1e6);
	/* the cost is counted, not slept: the times above are reported only */
	check_ddc_cost(d, o, n_edid / EDID_BLOCK);

	/* every connected output: the same relation, reported */
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *x = &d->out[i];
		int64_t p, q;
		int blocks;

		c = current(d, x);
		if (c->connection != DRM_MODE_CONNECTED) {
			drmModeFreeConnector(c);
			continue;
		}
		drmModeFreeConnector(c);
		blocks = edid_prop(d, x->conn_id, edid, sizeof(edid)) /
			 EDID_BLOCK;
		time_queries(d, x, 5, &p, &q);
		printf("TIMING %s connected probe_ms=%.2f current_ms=%.3f edid_blocks=%d\n",
		       x->name, p / 1e6, q / 1e6, blocks);
		check_ddc_cost(d, x, blocks);
	}
}

/* ------------------------------------------------------------------------ */
/* hdmi-hpd                                                                 */

static void test_hdmi_hpd(struct mmx_dev *d)
{
	struct mmx_output *o = find_output(d, "HDMI-A");
	uint8_t edid[1024];
	drmModeConnectorPtr c;
	struct edid_info e;
	int n;

	if (!o)
		o = find_output(d, "DVI-D");	/* HPD too */
	mmx_require_f(o, "no HDMI-A or DVI-D connector");
	prepare(d);
	uevent_open();
	uevent_drain(d, 300);

	c = plug_current(d, o, "none", "nothing (unplugged)",
			 DRM_MODE_DISCONNECTED);
	drmModeFreeConnector(c);
	mmx_assert_eq(edid_prop(d, o->conn_id, edid, sizeof(edid)), 0);
	uevent_drain(d, 200);

	c = plug_current(d, o, kind_of(d, o)->sink, "its sink",
			 DRM_MODE_CONNECTED);
	n = edid_prop(d, o->conn_id, edid, sizeof(edid));
	edid_parse(edid, n, &e, "the HPD connector's EDID");
	mmx_assert(e.n_dtd > 0);
	mmx_assert_f(conn_find_timing(c, &e.dtd[0]) >= 0,
		     "%s: the EDID's preferred timing is not offered after the uevent",
		     o->name);
	mmx_assert_f(c->modes[conn_find_timing(c, &e.dtd[0])].type &
		     DRM_MODE_TYPE_PREFERRED,
		     "%s: the EDID's first DTD is not the preferred mode",
		     o->name);
	drmModeFreeConnector(c);
	uevent_drain(d, 200);
	uevent_close();
}

/* ------------------------------------------------------------------------ */
/* hpd-all, polled-all, vga-poll                                            */

/* An HPD connector: unplugged and plugged, each seen with a uevent. */
static void replug_hpd(struct mmx_dev *d, struct mmx_output *o,
		       const struct kind_info *k)
{
	drmModeConnectorPtr c;

	uevent_drain(d, 200);
	c = plug_current(d, o, "none", "nothing (unplugged)",
			 DRM_MODE_DISCONNECTED);
	drmModeFreeConnector(c);
	uevent_drain(d, 200);
	c = plug_current(d, o, k->sink, k->sink, DRM_MODE_CONNECTED);
	drmModeFreeConnector(c);
}

/* A polled connector: unplugged and plugged, unseen until a probe. */
static void replug_polled(struct mmx_dev *d, struct mmx_output *o,
			  const struct kind_info *k)
{
	plug_probed(d, o, "none", k->sink, false);
	plug_probed(d, o, k->sink, "none", true);
	mmx_info("%s (polled): unplug and plug unseen until a probe",
		 o->name);
}

/* REPLUG on every HPD (or every polled) connector; skips without one. */
static void replug_all(struct mmx_dev *d, bool hpd,
		       void (*replug)(struct mmx_dev *d, struct mmx_output *o,
				      const struct kind_info *k))
{
	int i, tested = 0;

	prepare(d);
	uevent_open();
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const struct kind_info *k = kind_of(d, o);

		if (k->hpd != hpd)
			continue;
		replug(d, o, k);
		tested++;
	}
	uevent_drain(d, 200);
	uevent_close();
	mmx_require_f(tested, "no %s connector", hpd ? "HPD" : "polled");
}

static void test_hpd_all(struct mmx_dev *d)
{
	replug_all(d, true, replug_hpd);
}

static void test_polled_all(struct mmx_dev *d)
{
	replug_all(d, false, replug_polled);
}

/*
 * Polled connectors are polled (Documentation/mmx.rst: every 10 s by the
 * DRM poll helper): an unplug shows up without any client probe, with a
 * hotplug uevent, within one period.
 */
static void test_vga_poll(struct mmx_dev *d)
{
	struct mmx_output *o = NULL;
	struct ddc_figures a, b;
	drmModeConnectorPtr c;
	int i, ms;

	for (i = 0; i < d->n_outputs && !o; i++)
		if (!kind_of(d, &d->out[i])->hpd)
			o = &d->out[i];
	mmx_require_f(o, "no polled connector");
	prepare(d);
	uevent_open();
	uevent_drain(d, 200);
	ddc_get(d, o, &a);
	plug(d, o, "none");
	ms = uevent_wait(d, 13000);
	ddc_get(d, o, &b);
	c = current(d, o);
	mmx_info("%s unplugged, no probe: uevent %s%d ms, GetConnectorCurrent %s",
		 o->name, ms >= 0 ? "after " : "none within 13 s ",
		 ms >= 0 ? ms : 0, conn_status(c));
	mmx_assert_f(ms >= 0, "%s: no uevent within 13 s: is the connector polled?",
		     o->name);
	mmx_assert_f(c->connection == DRM_MODE_DISCONNECTED,
		     "%s: the poll's uevent came, GetConnectorCurrent still says %s",
		     o->name, conn_status(c));
	drmModeFreeConnector(c);
	/* nobody probed: the detection that saw it is the poll helper's */
	mmx_info("%s: %" PRIu64 " detection(s) by the poll helper", o->name,
		 b.detects - a.detects);
	mmx_assert_f(b.detects > a.detects,
		     "%s: the unplug was seen without a detection", o->name);
	uevent_close();
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* edid-presets                                                             */

/*
 * The presets of the uAPI header, on a connector that fits them, with what
 * mmx_edid.h's kernel-doc promises of each (preferred size) and the
 * monitor name each carries.
 */
static const struct preset_info {
	const char *name;
	const char *kinds[4];
	bool has_edid;
	bool digital;
	const char *monitor;
	int w, h;		/* the first detailed timing */
} presets[] = {
	{ "vga", { "VGA", "DVI-A", "DVI-I" }, true, false, "MMX VGA 1600",
	  1280, 1024 },
	{ "dvi", { "DVI-I", "DVI-D", "HDMI-A" }, true, true, "MMX DVI 1920",
	  1920, 1200 },
	{ "hdmi", { "HDMI-A", "DVI-D", "DVI-I" }, true, true, "MMX HDMI TV",
	  1920, 1080 },
	{ "dual-link", { "DVI-I", "DVI-D" }, true, true, "MMX DUAL 2560",
	  2560, 1600 },
	{ "dp-4k", { "DP" }, true, true, "MMX DP 4K", 3840, 2160 },
	{ "panel", { "eDP", "LVDS" }, true, true, "MMX PANEL", 1280, 800 },
	{ "pal-tv", { "Composite", "SVIDEO", "TV", "SCART" }, false, false, NULL, 0, 0 },
	{ "ntsc-tv", { "Composite", "SVIDEO", "TV" }, false, false, NULL, 0, 0 },
	{ "component-tv", { "Component", "SCART" }, false, false, NULL, 0,
	  0 },
};

static bool have_edid_decode(void)
{
	return !system("command -v edid-decode >/dev/null 2>&1");
}

static void edid_decode_check(const uint8_t *edid, int len, const char *what)
{
	char path[64], cmd[256], log[8192];
	FILE *f;
	int st;

	snprintf(path, sizeof(path), "/tmp/kms_mmx_output-%d.edid", getpid());
	f = fopen(path, "w");
	mmx_assert(f);
	mmx_assert(fwrite(edid, 1, (size_t)len, f) == (size_t)len);
	fclose(f);
	snprintf(cmd, sizeof(cmd), "edid-decode --check %s > %s.log 2>&1",
		 path, path);
	st = system(cmd);
	snprintf(cmd, sizeof(cmd), "%s.log", path);
	log[0] = 0;
	mmx_read_file(cmd, log, sizeof(log));
	unlink(cmd);
	unlink(path);
	if (st)
		fprintf(stderr, "%s\n", log);
	mmx_assert_f(st == 0, "edid-decode --check fails on the EDID of %s",
		     what);
	mmx_debug("edid-decode --check: %s", what);
}

/* A test EDID of our own: 1.4, DVI, 800x600 and 1024x768, BLOCKS blocks. */
static void edid_make(uint8_t *e, int blocks, const char *name)
{
	static const uint8_t dtd800[18] = {
		0xa0, 0x0f, 0x20, 0x00, 0x31, 0x58, 0x1c, 0x20, 0x28, 0x80,
		0x14, 0x00, 0x90, 0x2c, 0x11, 0x00, 0x00, 0x1e,
	};
	static const uint8_t dtd1024[18] = {
		0x64, 0x19, 0x00, 0x40, 0x41, 0x00, 0x26, 0x30, 0x18, 0x88,
		0x36, 0x00, 0x90, 0x2c, 0x11, 0x00, 0x00, 0x18,
	};
	uint16_t vendor = ('I' - '@') << 10 | ('G' - '@') << 5 | ('T' - '@');
	uint8_t sum;
	int b, i;

	memset(e, 0, (size_t)blocks * EDID_BLOCK);
	e[0] = 0;
	for (i = 1; i < 7; i++)
		e[i] = 0xff;
	e[8] = (uint8_t)(vendor >> 8);
	e[9] = (uint8_t)vendor;
	e[10] = 0x34;
	e[11] = 0x12;
	e[12] = 42;
	e[16] = 1;
	e[17] = 2024 - 1990;
	e[18] = 1;
	e[19] = 4;
	e[20] = 0x80 | 2 << 4 | 1;	/* digital, 8 bpc, DVI */
	e[21] = 40;
	e[22] = 30;
	e[23] = 120;
	e[24] = 0x06;
	e[35] = 0x20;			/* 640x480@60 */
	for (i = 38; i < 54; i++)
		e[i] = 0x01;
	memcpy(e + 54, dtd800, 18);
	memcpy(e + 72, dtd1024, 18);
	e[90 + 3] = 0xfd;
	e[90 + 5] = 50;
	e[90 + 6] = 75;
	e[90 + 7] = 30;
	e[90 + 8] = 80;
	e[90 + 9] = 17;
	e[90 + 10] = 0x01;
	e[90 + 11] = 0x0a;
	for (i = 12; i < 18; i++)
		e[90 + i] = 0x20;
	e[108 + 3] = 0xfc;
	for (i = 0; i < 13; i++)
		e[108 + 5 + i] = i < (int)strlen(name) ? (uint8_t)name[i] :
				 i == (int)strlen(name) ? 0x0a : 0x20;
	e[126] = (uint8_t)(blocks - 1);
	for (b = 0; b < blocks; b++) {
		uint8_t *x = e + b * EDID_BLOCK;

		if (b) {		/* empty CTA-861 extensions */
			x[0] = 0x02;
			x[1] = 0x03;
			x[2] = 0x04;
		}
		sum = 0;
		for (i = 0; i < EDID_BLOCK - 1; i++)
			sum = (uint8_t)(sum + x[i]);
		x[127] = (uint8_t)-sum;
	}
}

static void fix_checksum(uint8_t *block)
{
	uint8_t sum = 0;
	int i;

	for (i = 0; i < EDID_BLOCK - 1; i++)
		sum = (uint8_t)(sum + block[i]);
	block[127] = (uint8_t)-sum;
}

static void check_edid_upload(struct mmx_dev *d, struct mmx_output *o)
{
	static uint8_t e[5 * EDID_BLOCK], bad[5 * EDID_BLOCK];
	uint8_t got[1024];
	struct edid_info info;
	drmModeConnectorPtr c;
	int n, blocks;

	/* valid uploads of 1 and 4 blocks are taken as they are */
	for (blocks = 1; blocks <= 4; blocks += 3) {
		edid_make(e, blocks, "IGT UPLOAD");
		mmx_do(edid_upload(d, o, e, (size_t)blocks * EDID_BLOCK));
		c = probe(d, o);
		n = edid_prop(d, o->conn_id, got, sizeof(got));
		mmx_assert_f(n == blocks * EDID_BLOCK &&
			     !memcmp(got, e, (size_t)n),
			     "%s: EDID property (%d bytes) differs from the %d-block upload",
			     o->name, n, blocks);
		mmx_assert_eq(edid_debugfs(d, o, got, sizeof(got)),
			      blocks * EDID_BLOCK);
		mmx_assert(!memcmp(got, e, (size_t)blocks * EDID_BLOCK));
		edid_parse(e, blocks * EDID_BLOCK, &info, "upload");
		mmx_assert_eq(c->connection, DRM_MODE_CONNECTED);
		mmx_assert_f(conn_find_timing(c, &info.dtd[0]) >= 0 &&
			     conn_find_timing(c, &info.dtd[1]) >= 0,
			     "%s: the uploaded EDID's 800x600 and 1024x768 are not offered",
			     o->name);
		mmx_assert_f(c->modes[conn_find_timing(c, &info.dtd[0])].type &
			     DRM_MODE_TYPE_PREFERRED,
			     "%s: the uploaded EDID's first DTD is not preferred",
			     o->name);
		mmx_info("%s: uploaded %d-block EDID \"%s\": taken, %d modes",
			 o->name, blocks, info.name, c->count_modes);
		drmModeFreeConnector(c);
	}

	/* malformed ones: EINVAL, EDID untouched */
	edid_make(e, 1, "IGT UPLOAD");
#define REFUSE_UPLOAD(what, buf, len)					\
	do {								\
		struct state_copy __s;					\
		uint8_t __before[1024], __after[1024];			\
		int __nb, __na, __r;					\
									\
		state_take(d, &__s);					\
		__nb = edid_debugfs(d, o, __before, sizeof(__before));	\
		__r = edid_upload(d, o, buf, len);			\
		mmx_assert_f(__r == -EINVAL,				\
			     "%s: uploading %s: expected -EINVAL, got %d (%s)", \
			     o->name, what, __r,			\
			     __r ? strerror(-__r) : "success");		\
		__na = edid_debugfs(d, o, __after, sizeof(__after));	\
		mmx_assert_f(__na == __nb &&				\
			     !memcmp(__before, __after, (size_t)__na),	\
			     "%s: mmx_edid changed after refusing %s",	\
			     o->name, what);				\
		drmModeFreeConnector(probe(d, o));			\
		state_check(d, &__s, what);				\
		mmx_info("%s: %s refused with EINVAL, nothing changed", \
			 o->name, what);				\
	} while (0)

	memcpy(bad, e, EDID_BLOCK);
	bad[127] ^= 0x01;
	REFUSE_UPLOAD("an EDID with a wrong checksum", bad, EDID_BLOCK);
	memcpy(bad, e, EDID_BLOCK);
	bad[100] ^= 0x40;
	REFUSE_UPLOAD("an EDID with a corrupted byte", bad, EDID_BLOCK);
	REFUSE_UPLOAD("100 bytes", e, 100);
	edid_make(bad, 2, "IGT UPLOAD");
	bad[EDID_BLOCK + 127] ^= 0xff;
	REFUSE_UPLOAD("an extension block with a wrong checksum", bad,
		      2 * EDID_BLOCK);
	edid_make(bad, 5, "IGT UPLOAD");
	REFUSE_UPLOAD("640 bytes (5 blocks)", bad, 5 * EDID_BLOCK);
	memcpy(bad, e, EDID_BLOCK);
	bad[0] = 0x01;
	fix_checksum(bad);
	REFUSE_UPLOAD("a bad header", bad, EDID_BLOCK);
	memcpy(bad, e, EDID_BLOCK);
	bad[7] = 0xff;
	fix_checksum(bad);
	REFUSE_UPLOAD("a bad header (byte 7)", bad, EDID_BLOCK);
	edid_make(bad, 2, "IGT UPLOAD");
	bad[126] = 0;
	fix_checksum(bad);
	REFUSE_UPLOAD("2 blocks with an extension count of 0", bad,
		      2 * EDID_BLOCK);
	memcpy(bad, e, EDID_BLOCK);
	bad[18] = 2;
	fix_checksum(bad);
	REFUSE_UPLOAD("EDID version 2", bad, EDID_BLOCK);
#undef REFUSE_UPLOAD
}

static void test_edid_presets(struct mmx_dev *d)
{
	bool decode = have_edid_decode();
	struct mmx_output *up;
	uint32_t ids[16];
	size_t p;
	int tested = 0, n_ids = 0;

	prepare(d);
	if (!decode)
		mmx_info("edid-decode not found: the parser of this test only");

	for (p = 0; p < MMX_ARRAY_SIZE(presets); p++) {
		const struct preset_info *pi = &presets[p];
		struct mmx_output *o = NULL;
		uint8_t edid[1024], dbg[1024];
		drmModeConnectorPtr c;
		struct edid_info e;
		char what[64], sink[64];
		int k, n, offered;

		for (k = 0; k < 4 && pi->kinds[k] && !o; k++)
			o = find_output(d, pi->kinds[k]);
		if (!o) {
			mmx_info("preset %s: no suitable connector", pi->name);
			continue;
		}
		snprintf(what, sizeof(what), "preset %s on %s", pi->name,
			 o->name);
		plug(d, o, pi->name);
		sink_get(d, o, sink, sizeof(sink));
		mmx_assert_eq_str(sink, pi->name);
		c = probe(d, o);
		mmx_assert_f(c->connection == DRM_MODE_CONNECTED,
			     "%s: %s", what, conn_status(c));
		mmx_assert_f(c->count_modes > 0, "%s: no modes", what);
		n = edid_prop(d, o->conn_id, edid, sizeof(edid));
		mmx_assert_eq(edid_debugfs(d, o, dbg, sizeof(dbg)), n);
		mmx_assert_f(!memcmp(dbg, edid, (size_t)n),
			     "%s: mmx_edid and the EDID property differ", what);
		if (!pi->has_edid) {
			mmx_assert_f(n == 0, "%s: an analog TV with an EDID of %d bytes",
				     what, n);
			mmx_info("%s: no EDID, %d TV modes", what,
				 c->count_modes);
			drmModeFreeConnector(c);
			tested++;
			continue;
		}

		edid_parse(edid, n, &e, what);
		edid_check_ranges(&e, what);
		mmx_assert_f(e.has_name, "%s: no monitor name descriptor", what);
		mmx_assert_eq_str(e.name, pi->monitor);
		mmx_assert_f(e.has_range, "%s: no range limits descriptor", what);
		mmx_assert_f(e.serial != 0, "%s: no serial number", what);
		for (k = 0; k < n_ids; k++)
			mmx_assert_f(ids[k] != (e.product << 16 ^ e.serial),
				     "%s: same product and serial as another preset",
				     what);
		if (n_ids < (int)MMX_ARRAY_SIZE(ids))
			ids[n_ids++] = e.product << 16 ^ e.serial;
		mmx_assert_eq(e.digital, pi->digital);
		mmx_assert_f(e.n_dtd > 0 && e.dtd[0].hd == pi->w &&
			     e.dtd[0].vd == pi->h,
			     "%s: first DTD %ux%u, expected %dx%d", what,
			     e.n_dtd ? e.dtd[0].hd : 0, e.n_dtd ? e.dtd[0].vd : 0,
			     pi->w, pi->h);
		offered = check_modes_vs_edid(d, o, c, &e);
		k = conn_find_timing(c, &e.dtd[0]);
		if (k >= 0)
			mmx_assert_f(c->modes[k].type & DRM_MODE_TYPE_PREFERRED,
				     "%s: the first DTD is offered but not preferred",
				     what);
		if (decode)
			edid_decode_check(edid, n, what);
		mmx_info("%s: EDID %d.%d, %d block(s), %s %04x serial %u, \"%s\", %s, range %d-%d Hz %d-%d kHz %d MHz, %d DTD(s), %d offered, %d modes",
			 what, e.version, e.revision, e.blocks, e.vendor,
			 e.product, e.serial, e.name,
			 e.digital ? "digital" : "analog", e.vmin, e.vmax,
			 e.hmin, e.hmax, e.max_mhz, e.n_dtd, offered,
			 c->count_modes);
		if (e.revision != 4)
			mmx_info("%s: EDID 1.%d, not 1.4", what, e.revision);
		drmModeFreeConnector(c);
		tested++;
	}
	mmx_require(tested);

	/* mmx_sink: "name\n" works (echo), unknown or long names do not */
	up = d->n_outputs ? &d->out[0] : NULL;
	if (up) {
		const struct kind_info *k = kind_of(d, up);
		char buf[80], sink[64], path[300];
		struct state_copy st;
		int ret;

		snprintf(buf, sizeof(buf), "%s\n", k->sink);
		plug(d, up, "none");
		plug(d, up, buf);
		sink_get(d, up, sink, sizeof(sink));
		mmx_assert_eq_str(sink, k->sink);
		drmModeFreeConnector(probe(d, up));
		sink_path(d, up, "mmx_sink", path, sizeof(path));
		state_take(d, &st);
		ret = mmx_write_file(path, "bogus");
		mmx_assert_f(ret == -EINVAL, "mmx_sink \"bogus\": %d", ret);
		ret = mmx_write_file(path, "vga dvi");
		mmx_assert_f(ret == -EINVAL, "mmx_sink \"vga dvi\": %d", ret);
		ret = mmx_write_file(path, "Vga");
		mmx_assert_f(ret == -EINVAL, "mmx_sink \"Vga\": %d", ret);
		memset(buf, 'x', 64);
		buf[64] = 0;
		ret = mmx_write_file(path, buf);
		mmx_assert_f(ret == -EINVAL, "mmx_sink of 64 bytes: %d", ret);
		sink_get(d, up, sink, sizeof(sink));
		mmx_assert_eq_str(sink, k->sink);
		drmModeFreeConnector(probe(d, up));
		state_check(d, &st, "bad mmx_sink names");
		mmx_info("%s: mmx_sink takes \"%s\\n\", refuses unknown and long names with EINVAL",
			 up->name, k->sink);
	}

	up = find_output(d, "DVI-I");
	if (!up)
		up = find_output(d, "HDMI-A");
	if (!up)
		up = find_output(d, "DVI-D");
	if (up)
		check_edid_upload(d, up);
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* tv-modes                                                                 */

static void expect_tv_mode(struct mmx_dev *d, struct mmx_output *o,
			   const char *fmt, const char *props, int w, int h,
			   bool il, double rate, int other_h)
{
	drmModeConnectorPtr c;
	int idx;

	mmx_do(set_signal(d, o, fmt, props));
	if (!fmt)
		fmt = sf_name(sf_get(d, o));
	c = probe(d, o);
	print_modes(c, o->name);
	idx = conn_find_mode(c, w, h, il, rate, 0.01);
	mmx_assert_f(idx >= 0, "%s with %s %s offers no %dx%d%s at %.2f Hz",
		     o->name, fmt, props ? props : "", w, h, il ? "i" : "",
		     rate);
	mmx_info("%s %s %s: offers %s, %.3f Hz%s", o->name, fmt,
		 props ? props : "", c->modes[idx].name, mode_rate(&c->modes[idx]),
		 il ? " (field rate)" : "");
	if (other_h) {
		int i;

		for (i = 0; i < c->count_modes; i++)
			mmx_assert_f(c->modes[i].vdisplay != other_h,
				     "%s with %s also offers %s", o->name, fmt,
				     c->modes[i].name);
	}
	/* and a commit with it works */
	{
		drmModeModeInfo m = c->modes[idx];
		drmModeCrtcPtr crtc;

		mmx_do(set_signal_ex(d, o, NULL, NULL, &m, 0));
		crtc = drmModeGetCrtc(d->fd, o->crtc_id);
		mmx_assert(crtc && crtc->mode_valid);
		mmx_assert_eq(crtc->mode.vdisplay, h);
		mmx_assert_eq(!!(crtc->mode.flags & DRM_MODE_FLAG_INTERLACE),
			      il);
		drmModeFreeCrtc(crtc);
		mmx_reset(d);
	}
	drmModeFreeConnector(c);
}

static void component_modes(struct mmx_dev *d, struct mmx_output *o)
{
	static const struct {
		int w, h;
		bool il;
		double rate[2];
	} want[] = {
		{ 720, 480, false, { 60000.0 / 1001, 60.0 } },
		{ 720, 576, false, { 50.0, 50.0 } },
		{ 1280, 720, false, { 60.0, 60000.0 / 1001 } },
		{ 1920, 1080, true, { 60.0, 60000.0 / 1001 } },
	};
	drmModeConnectorPtr c;
	size_t k;

	if (sf_mutable(d, o))
		mmx_do(set_signal(d, o, "Component", NULL));
	c = probe(d, o);
	print_modes(c, o->name);
	for (k = 0; k < MMX_ARRAY_SIZE(want); k++) {
		int idx = conn_find_mode(c, want[k].w, want[k].h, want[k].il,
					 want[k].rate[0], 0.01);

		if (idx < 0)
			idx = conn_find_mode(c, want[k].w, want[k].h,
					     want[k].il, want[k].rate[1], 0.01);
		mmx_assert_f(idx >= 0, "%s Component offers no %dx%d%s",
			     o->name, want[k].w, want[k].h,
			     want[k].il ? "i" : "p");
		mmx_info("%s Component: %dx%d%s at %.3f Hz", o->name,
			 want[k].w, want[k].h, want[k].il ? "i" : "p",
			 mode_rate(&c->modes[idx]));
	}
	drmModeFreeConnector(c);
}

static void test_tv_modes(struct mmx_dev *d)
{
	int i, tested = 0;

	prepare(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];
		const struct kind_info *k = kind_of(d, o);

		if (k->formats & F(COMPOSITE_PAL)) {
			drmModeConnectorPtr c;
			int i576;

			expect_tv_mode(d, o, "Composite-PAL", NULL, 720, 576,
				       true, 50.0, 480);
			/* the PAL mode is refused once the link is NTSC */
			c = probe(d, o);
			i576 = conn_find_mode(c, 720, 576, true, 50.0, 0.01);
			mmx_assert(i576 >= 0);
			refuse_mode(d, o, "Composite-NTSC", NULL,
				    &c->modes[i576],
				    "the 720x576i PAL mode on Composite-NTSC");
			drmModeFreeConnector(c);
			expect_tv_mode(d, o, "Composite-NTSC", NULL, 720, 480,
				       true, 60000.0 / 1001, 576);
			expect_tv_mode(d, o, "Composite-SECAM", NULL, 720, 576,
				       true, 50.0, 480);
			tested++;
		}
		if (k->formats & F(SVIDEO)) {
			const char *sv = sf_mutable(d, o) ? "SVideo" : NULL;

			expect_tv_mode(d, o, sv, "NTSC-M", 720, 480, true,
				       60000.0 / 1001, 576);
			expect_tv_mode(d, o, sv, "PAL-B", 720, 576, true,
				       50.0, 480);
			tested++;
		}
		if (k->formats & F(COMPONENT)) {
			component_modes(d, o);
			tested++;
		}
	}
	mmx_require(tested);
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* link-limits                                                              */

/* Commit SignalProperties PROPS on the (off) output and probe it. */
static drmModeConnectorPtr with_props(struct mmx_dev *d, struct mmx_output *o,
				      const char *props)
{
	int ret = set_signal(d, o, NULL, props);

	mmx_assert_f(ret == 0, "%s: SignalProperties %s: %s", o->name, props,
		     strerror(-ret));
	return probe(d, o);
}

static void link_boundary(struct mmx_dev *d, struct mmx_output *o,
			  const char *props, uint32_t max_khz)
{
	drmModeModeInfo m;
	char what[128];

	mode_with_clock(&m, max_khz);
	mmx_assert_f(set_signal_ex(d, o, NULL, props, &m,
				   DRM_MODE_ATOMIC_TEST_ONLY) == 0,
		     "%s %s: a %u kHz mode (the documented maximum) is refused",
		     o->name, props, max_khz);
	mode_with_clock(&m, max_khz + 10);
	snprintf(what, sizeof(what), "a %u kHz mode (10 kHz above the maximum)",
		 max_khz + 10);
	refuse_mode(d, o, NULL, props, &m, what);
	mmx_info("%s %s: %u kHz accepted, %u kHz refused", o->name, props,
		 max_khz, max_khz + 10);
}

static void link_limits_tmds(struct mmx_dev *d, struct mmx_output *o)
{
	uint8_t edid[1024];
	drmModeConnectorPtr c;
	drmModeModeInfo big;
	drmModeCrtcPtr crtc;
	struct edid_info e;
	int i, n, idx = -1;

	link_boundary(d, o, "SingleLink", 165000);
	link_boundary(d, o, "DualLink", 330000);

	plug(d, o, "dual-link");
	c = with_props(d, o, "SingleLink");
	n = edid_prop(d, o->conn_id, edid, sizeof(edid));
	edid_parse(edid, n, &e, "dual-link");
	for (i = 0; i < e.n_dtd; i++)
		if (e.dtd[i].hd == 2560 && e.dtd[i].vd == 1600)
			idx = i;
	mmx_assert_f(idx >= 0, "the dual-link preset has no 2560x1600 DTD");
	mmx_assert_f(e.dtd[idx].clock > 165000,
		     "2560x1600 at %u kHz fits a single link", e.dtd[idx].clock);
	mode_of_timing(&e.dtd[idx], &big);
	mmx_assert_f(conn_find_timing(c, &e.dtd[idx]) < 0,
		     "%s with SingleLink offers 2560x1600 (%u kHz)", o->name,
		     e.dtd[idx].clock);
	check_modes_vs_edid(d, o, c, &e);
	mmx_info("%s SingleLink: %d modes, no 2560x1600", o->name,
		 c->count_modes);
	drmModeFreeConnector(c);
	refuse_mode(d, o, NULL, "SingleLink", &big,
		    "2560x1600 (268.5 MHz) on SingleLink");

	c = with_props(d, o, "DualLink");
	mmx_assert_f(conn_find_timing(c, &e.dtd[idx]) >= 0,
		     "%s with DualLink does not offer 2560x1600", o->name);
	check_modes_vs_edid(d, o, c, &e);
	mmx_info("%s DualLink: %d modes, 2560x1600 among them", o->name,
		 c->count_modes);
	big = c->modes[conn_find_timing(c, &e.dtd[idx])];
	drmModeFreeConnector(c);
	mmx_do(set_signal_ex(d, o, NULL, NULL, &big, 0));
	crtc = drmModeGetCrtc(d->fd, o->crtc_id);
	mmx_assert(crtc && crtc->mode_valid);
	mmx_assert_eq(crtc->mode.hdisplay, 2560);
	mmx_assert_eq(crtc->mode.vdisplay, 1600);
	drmModeFreeCrtc(crtc);
	mmx_info("%s: 2560x1600 lit on DualLink", o->name);
	link_change_refused(d, o, "SingleLink", "2560x1600");
}

static void link_limits_dp(struct mmx_dev *d, struct mmx_output *o)
{
	static const struct {
		const char *props;
		uint32_t max_khz;	/* lanes x rate x 8/10 / 24 */
	} links[] = {
		{ "Lane1|LowSpeed", 54000 },
		{ "Lane2|LowSpeed", 108000 },
		{ "Lane4|LowSpeed", 216000 },
		{ "Lane1|HiSpeed", 90000 },
		{ "Lane2|HiSpeed", 180000 },
		{ "Lane4|HiSpeed", 360000 },
	};
	uint8_t edid[1024];
	drmModeConnectorPtr c;
	drmModeModeInfo m30;
	struct edid_info e;
	int i, n, i30 = -1, i60 = -1;
	size_t l;

	for (l = 0; l < MMX_ARRAY_SIZE(links); l++)
		link_boundary(d, o, links[l].props, links[l].max_khz);

	plug(d, o, "dp-4k");
	c = with_props(d, o, "Lane4|HiSpeed");
	n = edid_prop(d, o->conn_id, edid, sizeof(edid));
	edid_parse(edid, n, &e, "dp-4k");
	for (i = 0; i < e.n_dtd; i++) {
		double r = e.dtd[i].clock * 1000.0 /
			   ((double)e.dtd[i].ht * e.dtd[i].vt);

		if (e.dtd[i].hd != 3840 || e.dtd[i].vd != 2160)
			continue;
		if (r > 29 && r < 31)
			i30 = i;
		if (r > 59 && r < 61)
			i60 = i;
	}
	mmx_assert_f(i30 >= 0 && i60 >= 0,
		     "the dp-4k preset lacks a 3840x2160 DTD at 30 or 60 Hz");
	drmModeFreeConnector(c);

	for (l = 0; l < MMX_ARRAY_SIZE(links); l++) {
		bool fits30 = links[l].max_khz >= e.dtd[i30].clock;

		c = with_props(d, o, links[l].props);
		check_modes_vs_edid(d, o, c, &e);
		mmx_assert_f((conn_find_timing(c, &e.dtd[i30]) >= 0) == fits30,
			     "%s %s: 3840x2160@30 (%u kHz) %s", o->name,
			     links[l].props, e.dtd[i30].clock,
			     fits30 ? "not offered though it fits" :
				      "offered though it does not fit");
		mmx_assert_f(conn_find_timing(c, &e.dtd[i60]) < 0,
			     "%s %s offers 3840x2160@60 (%u kHz)", o->name,
			     links[l].props, e.dtd[i60].clock);
		mmx_info("%s %s (%u kHz max): %d modes, 4K30 %s", o->name,
			 links[l].props, links[l].max_khz, c->count_modes,
			 fits30 ? "offered" : "not offered");
		drmModeFreeConnector(c);
	}

	/* 4K30 lit on Lane4|HiSpeed; LowSpeed lanes cannot carry it */
	mode_of_timing(&e.dtd[i30], &m30);
	refuse_mode(d, o, NULL, "Lane4|LowSpeed", &m30,
		    "3840x2160@30 (7.1 Gbit/s) on Lane4|LowSpeed (5.2 Gbit/s)");
	mmx_do(set_signal_ex(d, o, NULL, "Lane4|HiSpeed", &m30, 0));
	mmx_info("%s: 3840x2160@30 lit on Lane4|HiSpeed", o->name);
	link_change_refused(d, o, "Lane4|LowSpeed", "3840x2160@30");
}

static void test_link_limits(struct mmx_dev *d)
{
	struct mmx_output *o;
	int tested = 0;

	prepare(d);
	if ((o = find_output(d, "DVI-I"))) {
		link_limits_tmds(d, o);
		tested++;
	}
	if ((o = find_output(d, "DVI-D"))) {
		link_limits_tmds(d, o);
		tested++;
	}
	if ((o = find_output(d, "DP"))) {
		link_limits_dp(d, o);
		tested++;
	}
	mmx_require(tested);
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* clone-lists                                                              */

struct pair_list {
	int n;
	uint32_t conn[MMX_MAX_OUTPUTS * SF_COUNT];
	uint32_t fmt[MMX_MAX_OUTPUTS * SF_COUNT];
};

static void read_pairs(struct mmx_dev *d, struct mmx_output *o,
		       const char *name, struct pair_list *l)
{
	uint64_t id = mmx_prop_get(d, o->conn_id, name);
	drmModePropertyBlobPtr b;
	const uint32_t *w;
	uint32_t i;

	memset(l, 0, sizeof(*l));
	if (!id)
		return;
	b = drmModeGetPropertyBlob(d->fd, (uint32_t)id);
	mmx_assert(b);
	mmx_assert_f(b->length % 8 == 0,
		     "%s %s: %u bytes, not an array of 8-byte entries", o->name,
		     name, b->length);
	mmx_assert_f(b->length / 8 <= MMX_ARRAY_SIZE(l->conn),
		     "%s %s: %u entries", o->name, name, b->length / 8);
	w = b->data;
	for (i = 0; i < b->length / 8; i++) {
		l->conn[i] = w[2 * i];
		l->fmt[i] = w[2 * i + 1];
	}
	l->n = (int)(b->length / 8);
	drmModeFreePropertyBlob(b);
}

static bool pairs_have(const struct pair_list *l, uint32_t conn, uint32_t fmt)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->conn[i] == conn && l->fmt[i] == fmt)
			return true;
	return false;
}

static bool pairs_name(const struct pair_list *l, uint32_t conn)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->conn[i] == conn)
			return true;
	return false;
}

/*
 * Each entry names another output and one of its SignalFormat values, and
 * each output named is named with all of them, once.
 */
static void check_pairs(struct mmx_dev *d, struct mmx_output *o,
			const char *name, const struct pair_list *l)
{
	int i, j;

	for (i = 0; i < l->n; i++) {
		struct mmx_output *x = NULL;

		for (j = 0; j < d->n_outputs; j++)
			if (d->out[j].conn_id == l->conn[i])
				x = &d->out[j];
		mmx_assert_f(x, "%s %s names connector %u, not an output",
			     o->name, name, l->conn[i]);
		mmx_assert_f(x != o, "%s %s names the output itself", o->name,
			     name);
		mmx_assert_f(l->fmt[i] < SF_COUNT &&
			     (kind_of(d, x)->formats & (1u << l->fmt[i])),
			     "%s %s: %s with SignalFormat %u, not one of its own",
			     o->name, name, x->name, l->fmt[i]);
		for (j = 0; j < i; j++)
			mmx_assert_f(l->conn[j] != l->conn[i] ||
				     l->fmt[j] != l->fmt[i],
				     "%s %s names %s %s twice", o->name, name,
				     x->name, sf_names[l->fmt[i]]);
	}
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *x = &d->out[i];
		int f;

		if (!pairs_name(l, x->conn_id))
			continue;
		for (f = 0; f < SF_COUNT; f++)
			if (kind_of(d, x)->formats & (1u << f))
				mmx_assert_f(pairs_have(l, x->conn_id, (uint32_t)f),
					     "%s %s names %s without its format %s",
					     o->name, name, x->name, sf_names[f]);
	}
}

static int encoder_index(struct mmx_dev *d, uint32_t enc_id)
{
	int i;

	for (i = 0; i < d->n_encoders; i++)
		if (d->encoders[i] == enc_id)
			return i;
	mmx_fail("encoder %u is not in the resources", enc_id);
}

/* A TEST_ONLY (or real) commit of the outputs in SET on CRTC of HOST. */
static int clone_commit(struct mmx_dev *d, struct mmx_output *host,
			struct mmx_output **set, int n,
			const drmModeModeInfo *m, uint32_t flags)
{
	struct mmx_req *r = mmx_req_new(d);
	uint32_t blob = 0;
	int i, ret;

	mmx_do(drmModeCreatePropertyBlob(d->fd, m, sizeof(*m), &blob) ?
	       -errno : 0);
	for (i = 0; i < n; i++)
		mmx_req_add(r, set[i]->conn_id, "CRTC_ID", host->crtc_id);
	mmx_req_add(r, host->crtc_id, "MODE_ID", blob);
	mmx_req_add(r, host->crtc_id, "ACTIVE", 1);
	ret = mmx_req_commit(r, flags | DRM_MODE_ATOMIC_ALLOW_MODESET);
	drmModeDestroyPropertyBlob(d->fd, blob);
	return ret;
}

/*
 * If there are outputs of kinds HOST and OTHER: both at 640x480 on HOST's
 * CRTC are refused (WHY, for the message).
 */
static void refuse_clone(struct mmx_dev *d, const char *host,
			 const char *other, const char *why)
{
	struct mmx_output *set[2] = { find_output(d, host),
				      find_output(d, other) };
	drmModeModeInfo m;
	char what[128];

	if (!set[0] || !set[1])
		return;
	mmx_mode_make(&m, 640, 480, 60);
	snprintf(what, sizeof(what), "%s + %s on %s's CRTC%s", host, other,
		 host, why);
	expect_refused(d, what, clone_commit(d, set[0], set, 2, &m, 0));
}

static void test_clone_lists(struct mmx_dev *d)
{
	static struct pair_list compat[MMX_MAX_OUTPUTS], clone[MMX_MAX_OUTPUTS];
	drmModeConnectorPtr conns[MMX_MAX_OUTPUTS];
	int i, j, n_in = 0, n_out = 0, n_skip = 0;
	struct mmx_output *a, *b;

	prepare(d);
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *o = &d->out[i];

		read_pairs(d, o, "CompatibilityList", &compat[i]);
		read_pairs(d, o, "CloneList", &clone[i]);
		check_pairs(d, o, "CompatibilityList", &compat[i]);
		check_pairs(d, o, "CloneList", &clone[i]);
		conns[i] = probe(d, o);
	}

	for (i = 0; i < d->n_outputs; i++) {
		const struct kind_info *ka = kind_of(d, &d->out[i]);
		drmModeEncoderPtr ea;
		char names[256] = "";

		a = &d->out[i];
		ea = drmModeGetEncoder(d->fd, a->enc_id);
		mmx_assert(ea);
		mmx_assert_f(ea->possible_clones &
			     (1u << encoder_index(d, a->enc_id)),
			     "%s: encoder possible_clones 0x%x lacks itself",
			     a->name, ea->possible_clones);
		mmx_assert_f(ea->possible_crtcs & (1u << i),
			     "%s: encoder cannot drive its own CRTC", a->name);
		for (j = 0; j < d->n_outputs; j++) {
			const struct kind_info *kb = kind_of(d, &d->out[j]);
			bool listed, clones, grouped;

			b = &d->out[j];
			if (a == b)
				continue;
			/* CompatibilityList: every other output */
			mmx_assert_f(pairs_name(&compat[i], b->conn_id),
				     "%s CompatibilityList lacks %s", a->name,
				     b->name);
			listed = pairs_name(&clone[i], b->conn_id);
			/* symmetric */
			mmx_assert_f(listed == pairs_name(&clone[j], a->conn_id),
				     "CloneList not symmetric: %s %s %s, %s %s %s",
				     a->name, listed ? "lists" : "does not list",
				     b->name, b->name, listed ? "does not list" :
							       "lists",
				     a->name);
			/* the documented clone groups */
			grouped = ka->group != CG_NONE && ka->group == kb->group;
			mmx_assert_f(listed == grouped,
				     "%s CloneList %s %s, but the documented clone groups say %s",
				     a->name, listed ? "lists" : "lacks",
				     b->name, grouped ? "clones" : "no clone");
			/* the encoders agree */
			clones = ea->possible_clones &
				 (1u << encoder_index(d, b->enc_id));
			mmx_assert_f(listed == clones,
				     "%s CloneList %s %s but encoder possible_clones 0x%x %s it",
				     a->name, listed ? "lists" : "lacks",
				     b->name, ea->possible_clones,
				     clones ? "has" : "lacks");
			if (listed)
				snprintf(names + strlen(names),
					 sizeof(names) - strlen(names), " %s",
					 b->name);
		}
		mmx_info("%s: CompatibilityList %d entries, CloneList %d entries:%s",
			 a->name, compat[i].n, clone[i].n,
			 names[0] ? names : " (none)");
		drmModeFreeEncoder(ea);
	}

	/*
	 * Every ordered pair on the first one's CRTC, with a mode both take
	 * alone: accepted iff CloneList allows it (TEST_ONLY).
	 */
	for (i = 0; i < d->n_outputs; i++) {
		for (j = 0; j < d->n_outputs; j++) {
			struct mmx_output *set[2];
			drmModeModeInfo cand[64], small;
			int nc = 0, k, ret;
			bool done = false;

			if (i == j)
				continue;
			a = &d->out[i];
			b = &d->out[j];
			mmx_mode_make(&small, 640, 480, 60);
			cand[nc++] = small;
			for (k = 0; k < conns[i]->count_modes && nc < 64; k++)
				cand[nc++] = conns[i]->modes[k];
			for (k = 0; k < conns[j]->count_modes && nc < 64; k++)
				cand[nc++] = conns[j]->modes[k];
			for (k = 0; k < nc && !done; k++) {
				bool want;

				set[0] = a;
				if (clone_commit(d, a, set, 1, &cand[k],
						 DRM_MODE_ATOMIC_TEST_ONLY))
					continue;
				set[0] = b;
				if (clone_commit(d, b, set, 1, &cand[k],
						 DRM_MODE_ATOMIC_TEST_ONLY))
					continue;
				set[0] = a;
				set[1] = b;
				want = pairs_name(&clone[i], b->conn_id);
				ret = clone_commit(d, a, set, 2, &cand[k],
						   DRM_MODE_ATOMIC_TEST_ONLY);
				mmx_assert_f(want ? ret == 0 : ret == -EINVAL,
					     "%s + %s on %s's CRTC at %s: %d (%s), CloneList %s",
					     a->name, b->name, a->name,
					     cand[k].name, ret,
					     ret ? strerror(-ret) : "accepted",
					     want ? "allows it" : "does not");
				mmx_debug("%s + %s at %s: %s", a->name, b->name,
					  cand[k].name,
					  want ? "accepted" : "refused");
				want ? n_in++ : n_out++;
				done = true;
			}
			if (!done)
				n_skip++;
		}
	}
	mmx_info("ordered pairs: %d cloned (CloneList), %d refused, %d without a common mode",
		 n_in, n_out, n_skip);

	/* real commits: two digital outputs at one mode; digital + analog */
	a = find_output(d, "HDMI-A");
	b = find_output(d, "DP");
	if (a && b && pairs_name(&clone[a->index], b->conn_id)) {
		struct mmx_output *set[2] = { a, b };
		drmModeEncoderPtr eb = drmModeGetEncoder(d->fd, b->enc_id);
		drmModeModeInfo m;

		mmx_assert(eb);
		mmx_assert_f(eb->possible_crtcs & (1u << a->index),
			     "%s is in %s's CloneList but its encoder cannot use that CRTC (possible_crtcs 0x%x)",
			     b->name, a->name, eb->possible_crtcs);
		drmModeFreeEncoder(eb);
		mmx_mode_make(&m, 640, 480, 60);
		mmx_do(clone_commit(d, a, set, 2, &m, 0));
		mmx_assert_eq_u64(mmx_prop_get(d, a->conn_id, "CRTC_ID"),
				  a->crtc_id);
		mmx_assert_eq_u64(mmx_prop_get(d, b->conn_id, "CRTC_ID"),
				  a->crtc_id);
		mmx_info("%s and %s cloned on one CRTC at 640x480", a->name,
			 b->name);
		mmx_reset(d);
	}
	refuse_clone(d, "HDMI-A", "VGA", "");
	refuse_clone(d, "VGA", "HDMI-A", "");
	refuse_clone(d, "eDP", "DP", " (panels clone nothing)");
	/* CompatibilityList: every output at once, each on its own CRTC */
	{
		struct mmx_req *r = mmx_req_new(d);
		int lit = 0;

		for (i = 0; i < d->n_outputs; i++) {
			if (!conns[i]->count_modes)
				continue;
			mmx_req_output_on(r, &d->out[i], &conns[i]->modes[0]);
			lit++;
		}
		mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
		for (i = 0; i < d->n_outputs; i++) {
			drmModeCrtcPtr crtc;

			if (!conns[i]->count_modes)
				continue;
			crtc = drmModeGetCrtc(d->fd, d->out[i].crtc_id);
			mmx_assert(crtc && crtc->mode_valid);
			drmModeFreeCrtc(crtc);
		}
		mmx_info("CompatibilityList: %d outputs lit at once, each at its first mode",
			 lit);
		mmx_reset(d);
	}
	for (i = 0; i < d->n_outputs; i++)
		drmModeFreeConnector(conns[i]);
	mmx_assert_f(n_in + n_out > 0, "no pair could be tried");
}

/* ------------------------------------------------------------------------ */
/* dpms-off-link                                                            */

static void set_active(struct mmx_dev *d, struct mmx_output *o, int active)
{
	struct mmx_req *r = mmx_req_new(d);

	mmx_req_add(r, o->crtc_id, "ACTIVE", (uint64_t)active);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
}

/* O's CRTC has MODE (enabled) and is lit or not as ACTIVE says. */
static void expect_crtc(struct mmx_dev *d, struct mmx_output *o,
			const drmModeModeInfo *mode, int active)
{
	drmModeCrtcPtr crtc = drmModeGetCrtc(d->fd, o->crtc_id);

	mmx_assert(crtc);
	mmx_assert_f(crtc->mode_valid && crtc->mode.hdisplay == mode->hdisplay &&
		     crtc->mode.vdisplay == mode->vdisplay &&
		     crtc->mode.clock == mode->clock,
		     "%s: the CRTC lost its %dx%d mode", o->name,
		     mode->hdisplay, mode->vdisplay);
	drmModeFreeCrtc(crtc);
	mmx_assert_eq_u64(mmx_prop_get(d, o->crtc_id, "ACTIVE"),
			  (uint64_t)active);
}

static void test_dpms_off_link(struct mmx_dev *d)
{
	struct mmx_output *o;
	drmModeModeInfo m;
	int tested = 0;

	prepare(d);
	/*
	 * DisplayPort: a 100 MHz mode (2.4 Gbit/s at 24 bpp) fits
	 * Lane2+HiSpeed (4.32 Gbit/s), not Lane1+LowSpeed (1.296 Gbit/s).
	 */
	if ((o = find_output(d, "DP")) || (o = find_output(d, "eDP"))) {
		mode_with_clock(&m, 100000);
		mmx_assert(!link_fits(d, o, SF_DISPLAYPORT,
				      sp_bits(d, o, "Lane1|LowSpeed"), m.clock));
		mmx_assert(link_fits(d, o, SF_DISPLAYPORT,
				     sp_bits(d, o, "Lane2|HiSpeed"), m.clock));
		mmx_do(set_signal_ex(d, o, NULL, "Lane4|HiSpeed", &m, 0));
		set_active(d, o, 0);
		expect_crtc(d, o, &m, 0);
		/* dark but enabled: the link must still carry the mode */
		expect_refused(d, "Lane1+LowSpeed under a DPMS-off 100 MHz mode",
			       set_signal(d, o, NULL, "Lane1|LowSpeed"));
		expect_refused(d, "Lane1+LowSpeed under a DPMS-off 100 MHz mode (ALLOW_MODESET)",
			       set_signal_ex(d, o, NULL, "Lane1|LowSpeed", NULL,
					     DRM_MODE_ATOMIC_ALLOW_MODESET));
		expect_refused(d, "Lane1+LowSpeed under a DPMS-off 100 MHz mode (TEST_ONLY)",
			       set_signal_ex(d, o, NULL, "Lane1|LowSpeed", NULL,
					     DRM_MODE_ATOMIC_TEST_ONLY));
		expect_refused(d, "legacy SETPROPERTY Lane1+LowSpeed under a DPMS-off 100 MHz mode",
			       legacy_set(d, o, "SignalProperties",
					  sp_bits(d, o, "Lane1|LowSpeed")));
		expect_signal(d, o, "DisplayPort", "Lane4|HiSpeed");
		/* a link that fits is taken while dark, without a modeset */
		mmx_do(set_signal(d, o, NULL, "Lane2|HiSpeed"));
		expect_signal(d, o, "DisplayPort", "Lane2|HiSpeed");
		expect_crtc(d, o, &m, 0);
		/* and the output lights again with it */
		set_active(d, o, 1);
		expect_crtc(d, o, &m, 1);
		mmx_info("%s: DPMS off at 100 MHz: Lane1+LowSpeed refused, Lane2+HiSpeed taken, ACTIVE 1 lights",
			 o->name);
		mmx_reset(d);
		mmx_do(set_signal(d, o, NULL, "Lane4|HiSpeed"));
		tested++;
	}
	/* DVI-I: 200 MHz on VGA; TMDS (single link, 165 MHz) cannot carry it */
	if ((o = find_output(d, "DVI-I"))) {
		mode_with_clock(&m, 200000);
		mmx_do(set_signal_ex(d, o, "VGA", NULL, &m, 0));
		set_active(d, o, 0);
		expect_refused(d, "TMDS under a DPMS-off 200 MHz mode",
			       set_signal_ex(d, o, "TMDS", NULL, NULL,
					     DRM_MODE_ATOMIC_ALLOW_MODESET));
		expect_refused(d, "legacy SETPROPERTY TMDS under a DPMS-off 200 MHz mode",
			       legacy_set(d, o, "SignalFormat", SF_TMDS));
		expect_signal(d, o, "VGA", "0");
		set_active(d, o, 1);
		expect_crtc(d, o, &m, 1);
		mmx_info("%s: DPMS off at 200 MHz on VGA: TMDS refused, ACTIVE 1 lights",
			 o->name);
		mmx_reset(d);
		tested++;
	}
	mmx_require_f(tested, "no DisplayPort or DVI-I output");
	prepare(d);
}

/* ------------------------------------------------------------------------ */
/* crtc-move                                                                */

static bool is_tv_kind(const struct kind_info *k)
{
	return (k->formats & ~(F_TV | F(COMPONENT))) == 0;
}

/* The CRTC (id) driving connector CONN, as GETCONNECTOR/GETENCODER say. */
static uint32_t conn_crtc(struct mmx_dev *d, uint32_t conn)
{
	drmModeConnectorPtr c = drmModeGetConnectorCurrent(d->fd, conn);
	drmModeEncoderPtr e;
	uint32_t crtc = 0;

	mmx_assert(c);
	if (c->encoder_id) {
		e = drmModeGetEncoder(d->fd, c->encoder_id);
		mmx_assert(e);
		crtc = e->crtc_id;
		drmModeFreeEncoder(e);
	}
	drmModeFreeConnector(c);
	mmx_assert_eq_u64(mmx_prop_get(d, conn, "CRTC_ID"), crtc);
	return crtc;
}

/* Add to R: O lit with MODE on HOST's CRTC, HOST's primary showing FB. */
static void req_lit_on(struct mmx_dev *d, struct mmx_req *r,
		       struct mmx_output *o, struct mmx_output *host,
		       const drmModeModeInfo *mode, const struct mmx_fb *fb)
{
	mmx_req_add(r, o->conn_id, "CRTC_ID", host->crtc_id);
	mmx_req_add(r, host->crtc_id, "MODE_ID", mmx_mode_blob(d, mode));
	mmx_req_add(r, host->crtc_id, "ACTIVE", 1);
	mmx_req_plane(r, host->primary, host->crtc_id, fb->id, 0, 0,
		      mode->hdisplay, mode->vdisplay, 0, 0, mode->hdisplay,
		      mode->vdisplay);
}

/* A is driven by B's CRTC (B by none), which shows FB whole: WHAT. */
static void expect_on_crtc_of(struct mmx_dev *d, struct mmx_output *a,
			      struct mmx_output *b,
			      const drmModeModeInfo *mode,
			      const struct mmx_fb *fb, const char *what)
{
	struct mmx_ref_plane p = mmx_ref_fb(fb, 0, 0);

	mmx_assert_eq(conn_crtc(d, a->conn_id), b->crtc_id);
	mmx_assert_eq(conn_crtc(d, b->conn_id), 0);
	mmx_check_output(d, b, mode, &p, 1, what);
}

static void test_crtc_move(struct mmx_dev *d)
{
	const drmModeModeInfo *mode = mmx_small_mode();
	struct mmx_output *a = NULL, *b;
	struct mmx_fb *fb1, *fb2;
	struct mmx_ref_plane p;
	drmModeEncoderPtr enc;
	struct mmx_req *r;
	uint32_t all = 0;
	int i;

	prepare(d);
	mmx_require_f(d->n_outputs >= 2, "needs two outputs");
	for (i = 0; i < d->n_outputs && !a; i++)
		if (!is_tv_kind(kind_of(d, &d->out[i])))
			a = &d->out[i];
	mmx_require_f(a, "no output that can carry %dx%d", mode->hdisplay,
		      mode->vdisplay);
	/* B: another output, one that can show the mode if there is one */
	b = a == &d->out[0] ? &d->out[1] : &d->out[0];
	for (i = 0; i < d->n_outputs; i++) {
		if (&d->out[i] != a && !is_tv_kind(kind_of(d, &d->out[i]))) {
			b = &d->out[i];
			break;
		}
	}

	/* every encoder may drive every CRTC */
	for (i = 0; i < d->n_outputs; i++)
		all |= 1u << i;
	for (i = 0; i < d->n_outputs; i++) {
		enc = drmModeGetEncoder(d->fd, d->out[i].enc_id);
		mmx_assert(enc);
		mmx_assert_f(enc->possible_crtcs == all,
			     "%s: encoder possible_crtcs 0x%x, expected 0x%x",
			     d->out[i].name, enc->possible_crtcs, all);
		drmModeFreeEncoder(enc);
	}

	fb1 = mmx_fb_new(d, mode->hdisplay, mode->vdisplay,
			 DRM_FORMAT_XRGB8888);
	fb2 = mmx_fb_new(d, mode->hdisplay, mode->vdisplay,
			 DRM_FORMAT_XRGB8888);
	mmx_fb_random(fb1, 11, MMX_ALPHA_ANY);
	mmx_fb_random(fb2, 22, MMX_ALPHA_ANY);

	/* A on B's CRTC (B's primary plane), A's own CRTC off */
	r = mmx_req_new(d);
	req_lit_on(d, r, a, b, mode, fb1);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	expect_on_crtc_of(d, a, b, mode, fb1, "A on B's CRTC");
	mmx_info("%s driven by CRTC %u (%s's): writeback matches", a->name,
		 b->crtc_id, b->name);

	/* back to its own CRTC in one commit; B's CRTC goes off */
	r = mmx_req_new(d);
	req_lit_on(d, r, a, a, mode, fb2);
	mmx_req_add(r, b->wb_conn_id, "CRTC_ID", 0);
	mmx_req_add(r, b->crtc_id, "MODE_ID", 0);
	mmx_req_add(r, b->crtc_id, "ACTIVE", 0);
	mmx_req_plane_off(r, b->primary);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	mmx_assert_eq(conn_crtc(d, a->conn_id), a->crtc_id);
	mmx_assert_eq_u64(mmx_prop_get(d, b->crtc_id, "ACTIVE"), 0);
	p = mmx_ref_fb(fb2, 0, 0);
	mmx_check_output(d, a, mode, &p, 1, "A back on its CRTC");
	mmx_info("%s moved back to CRTC %u: writeback matches", a->name,
		 a->crtc_id);

	if (is_tv_kind(kind_of(d, b))) {
		mmx_info("no second output that can show %dx%d: not taking a lit CRTC",
			 mode->hdisplay, mode->vdisplay);
		goto out;
	}

	/* A off, B lit on its CRTC; then A takes that CRTC from B */
	r = mmx_req_new(d);
	mmx_req_output_off(r, a);
	mmx_req_plane_off(r, a->primary);
	req_lit_on(d, r, b, b, mode, fb1);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	enc = drmModeGetEncoder(d->fd, a->enc_id);
	mmx_assert(enc);
	if (!(enc->possible_clones & (1u << b->index))) {
		/* not clones: A cannot join B on its CRTC */
		r = mmx_req_new(d);
		mmx_req_add(r, a->conn_id, "CRTC_ID", b->crtc_id);
		expect_refused(d, "A joining a non-clone's CRTC",
			       mmx_req_commit(r,
					      DRM_MODE_ATOMIC_ALLOW_MODESET));
	}
	drmModeFreeEncoder(enc);
	r = mmx_req_new(d);
	mmx_req_add(r, b->conn_id, "CRTC_ID", 0);
	mmx_req_add(r, a->conn_id, "CRTC_ID", b->crtc_id);
	mmx_do(mmx_req_commit(r, DRM_MODE_ATOMIC_ALLOW_MODESET));
	expect_on_crtc_of(d, a, b, mode, fb1, "A took B's CRTC");
	mmx_info("%s took CRTC %u from %s: writeback matches", a->name,
		 b->crtc_id, b->name);
out:
	mmx_reset(d);
	mmx_fb_free(fb1);
	mmx_fb_free(fb2);
}

/* ------------------------------------------------------------------------ */
/* edid-override, edid-firmware                                             */

static int write_bin(const char *path, const void *buf, size_t len)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	n = write(fd, buf, len);
	err = n < 0 ? -errno : n != (ssize_t)len ? -EIO : 0;
	close(fd);
	return err;
}

static int read_bin(const char *path, void *buf, size_t size)
{
	size_t len = 0;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	while (len < size && (n = read(fd, (char *)buf + len, size - len)) > 0)
		len += (size_t)n;
	close(fd);
	return (int)len;
}

static void core_file(struct mmx_dev *d, struct mmx_output *o,
		      const char *file, char *path, size_t size)
{
	sink_path(d, o, file, path, size);
}

/* The first output that is not a TV kind (whose modes are fixed). */
static struct mmx_output *edid_output(struct mmx_dev *d)
{
	int i;

	for (i = 0; i < d->n_outputs; i++)
		if (!is_tv_kind(kind_of(d, &d->out[i])))
			return &d->out[i];
	return NULL;
}

/*
 * C's modes are those of edid_make(): its preferred 800x600 DTD, the
 * 1024x768 DTD and the established 640x480, nothing else.
 */
static void expect_test_edid_modes(drmModeConnectorPtr c, const char *what)
{
	bool m800 = false, m1024 = false;
	int i;

	for (i = 0; i < c->count_modes; i++) {
		const drmModeModeInfo *m = &c->modes[i];

		mmx_assert_f((m->hdisplay == 800 && m->vdisplay == 600) ||
			     (m->hdisplay == 1024 && m->vdisplay == 768) ||
			     (m->hdisplay == 640 && m->vdisplay == 480),
			     "%s: mode %s is not the EDID's", what, m->name);
		if (m->hdisplay == 800) {
			m800 = true;
			mmx_assert_f(m->type & DRM_MODE_TYPE_PREFERRED,
				     "%s: 800x600 is not preferred", what);
		}
		m1024 |= m->hdisplay == 1024;
	}
	mmx_assert_f(m800 && m1024, "%s: the EDID's DTDs are missing", what);
}

static bool same_modes(drmModeConnectorPtr a, drmModeConnectorPtr b)
{
	int i;

	if (a->count_modes != b->count_modes)
		return false;
	for (i = 0; i < a->count_modes; i++)
		if (!mmx_mode_equal(&a->modes[i], &b->modes[i]))
			return false;
	return true;
}

static void test_edid_override(struct mmx_dev *d)
{
	struct mmx_output *o;
	uint8_t edid[2 * EDID_BLOCK], sink[1024], buf[1024];
	drmModeConnectorPtr before, c;
	char path[300], force[300];
	int n, sink_len;

	prepare(d);
	o = edid_output(d);
	mmx_require_f(o, "no output with EDID modes");
	core_file(d, o, "edid_override", path, sizeof(path));
	core_file(d, o, "force", force, sizeof(force));
	mmx_require_f(!access(path, W_OK), "no %s", path);

	edid_make(edid, 2, "override");
	before = probe(d, o);
	sink_len = edid_debugfs(d, o, sink, sizeof(sink));
	mmx_assert(sink_len > 0);
	n = edid_prop(d, o->conn_id, buf, sizeof(buf));
	mmx_assert_f(n == sink_len && !memcmp(buf, sink, (size_t)n),
		     "%s: the EDID property is not the sink's", o->name);

	/* an override: the property and the modes follow at the next probe */
	mmx_do(write_bin(path, edid, sizeof(edid)));
	c = probe(d, o);
	n = edid_prop(d, o->conn_id, buf, sizeof(buf));
	mmx_assert_f(n == (int)sizeof(edid) && !memcmp(buf, edid, sizeof(edid)),
		     "%s: EDID property is not the override (%d bytes)",
		     o->name, n);
	expect_test_edid_modes(c, "edid_override");
	mmx_assert_f(!same_modes(c, before), "%s: the modes did not change",
		     o->name);
	mmx_info("%s: edid_override gives %d modes (was %d), EDID property is the override",
		 o->name, c->count_modes, before->count_modes);
	drmModeFreeConnector(c);
	/* the simulated sink is still the one behind mmx_edid */
	n = edid_debugfs(d, o, buf, sizeof(buf));
	mmx_assert(n == sink_len && !memcmp(buf, sink, (size_t)n));

	/* reset: the sink's EDID and modes are back */
	mmx_do(mmx_write_file(path, "reset"));
	c = probe(d, o);
	n = edid_prop(d, o->conn_id, buf, sizeof(buf));
	mmx_assert_f(n == sink_len && !memcmp(buf, sink, (size_t)n),
		     "%s: after reset the EDID property is not the sink's",
		     o->name);
	mmx_assert_f(same_modes(c, before), "%s: after reset %d modes, was %d",
		     o->name, c->count_modes, before->count_modes);
	drmModeFreeConnector(c);

	/* force: no sink plugged, the override still shows when forced on */
	plug(d, o, "none");
	c = probe(d, o);
	mmx_assert_eq(c->connection, DRM_MODE_DISCONNECTED);
	drmModeFreeConnector(c);
	mmx_do(write_bin(path, edid, EDID_BLOCK * 2));
	mmx_do(mmx_write_file(force, "on"));
	c = probe(d, o);
	mmx_assert_eq(c->connection, DRM_MODE_CONNECTED);
	expect_test_edid_modes(c, "edid_override + force on, no sink");
	drmModeFreeConnector(c);
	mmx_info("%s: no sink, force on: connected with the override's modes",
		 o->name);
	mmx_do(mmx_write_file(force, "unspecified"));
	mmx_do(mmx_write_file(path, "reset"));
	plug(d, o, kind_of(d, o)->sink);
	c = probe(d, o);
	mmx_assert_eq(c->connection, DRM_MODE_CONNECTED);
	mmx_assert_f(same_modes(c, before), "%s: the sink's modes are not back",
		     o->name);
	drmModeFreeConnector(c);
	drmModeFreeConnector(before);
	prepare(d);
}

#define EDID_FW_DIR "/lib/firmware/edid"
#define EDID_FW_NAME "mmx-test.bin"
#define EDID_FW_PARAM "/sys/module/drm/parameters/edid_firmware"

/*
 * drm.edid_firmware=CONNECTOR:edid/FILE: given at boot (tests/vm/run
 * --append, with the file added to /lib/firmware/edid), or else set here
 * through the drm module parameter (writable at run time) with a file of
 * our own.
 */
static void test_edid_firmware(struct mmx_dev *d)
{
	char cmdline[4096], param[256], file[300], *arg, *colon, *end;
	uint8_t fw[1024], buf[1024];
	struct mmx_output *o = NULL;
	drmModeConnectorPtr c;
	bool at_boot;
	int n, fw_len, i;

	prepare(d);
	mmx_assert(mmx_read_file("/proc/cmdline", cmdline, sizeof(cmdline)) >= 0);
	arg = strstr(cmdline, "drm.edid_firmware=");
	at_boot = arg != NULL;
	if (at_boot) {
		/* CONNECTOR:edid/FILE */
		snprintf(param, sizeof(param), "%s",
			 arg + strlen("drm.edid_firmware="));
		end = strpbrk(param, " \n");
		if (end)
			*end = 0;
		colon = strchr(param, ':');
		mmx_require_f(colon, "drm.edid_firmware=%s names no connector",
			      param);
		*colon = 0;
		for (i = 0; i < d->n_outputs; i++)
			if (!strcmp(d->out[i].name, param))
				o = &d->out[i];
		mmx_require_f(o, "no connector %s", param);
		snprintf(file, sizeof(file), "/lib/firmware/%s", colon + 1);
		fw_len = read_bin(file, fw, sizeof(fw));
		mmx_assert_f(fw_len > 0, "%s: %d", file, fw_len);
	} else {
		o = edid_output(d);
		mmx_require_f(o, "no output with EDID modes");
		mmx_require_f(!access(EDID_FW_PARAM, W_OK),
			      "drm's edid_firmware parameter is not writable");
		mkdir("/lib/firmware", 0755);
		mkdir(EDID_FW_DIR, 0755);
		edid_make(fw, 1, "firmware");
		fw_len = EDID_BLOCK;
		mmx_do(write_bin(EDID_FW_DIR "/" EDID_FW_NAME, fw,
				 (size_t)fw_len));
		snprintf(param, sizeof(param), "%s:edid/" EDID_FW_NAME,
			 o->name);
		mmx_do(mmx_write_file(EDID_FW_PARAM, param));
	}

	c = probe(d, o);
	n = edid_prop(d, o->conn_id, buf, sizeof(buf));
	mmx_assert_f(n == fw_len && !memcmp(buf, fw, (size_t)n),
		     "%s: the EDID property is not the firmware EDID (%d bytes, file %d)",
		     o->name, n, fw_len);
	if (!at_boot)
		expect_test_edid_modes(c, "drm.edid_firmware");
	mmx_info("%s: drm.edid_firmware (%s): EDID property is the file's, %d modes",
		 o->name, at_boot ? "kernel command line" : "module parameter",
		 c->count_modes);
	drmModeFreeConnector(c);
	/* the other connectors keep their sinks' EDIDs */
	for (i = 0; i < d->n_outputs; i++) {
		struct mmx_output *x = &d->out[i];

		if (x == o)
			continue;
		drmModeFreeConnector(probe(d, x));
		n = edid_prop(d, x->conn_id, buf, sizeof(buf));
		mmx_assert_f(n != fw_len || memcmp(buf, fw, (size_t)n),
			     "%s got the firmware EDID too", x->name);
	}
	if (!at_boot) {
		/*
		 * A sysfs write cannot empty the string: name a connector
		 * that does not exist, which the core then skips.
		 */
		mmx_do(mmx_write_file(EDID_FW_PARAM, "mmx-no-connector:none"));
		drmModeFreeConnector(probe(d, o));
		n = edid_prop(d, o->conn_id, buf, sizeof(buf));
		mmx_assert_f(n != fw_len || memcmp(buf, fw, (size_t)n),
			     "%s: the firmware EDID stayed after clearing the parameter",
			     o->name);
		unlink(EDID_FW_DIR "/" EDID_FW_NAME);
	}
	prepare(d);
}

/* ------------------------------------------------------------------------ */

static const struct mmx_subtest tests[] = {
	{ "props-present", "every connector has ConnectorType (immutable enum, RandR's 15 names, value from the kind), ConnectorNumber (immutable range 0..8, its position), SignalFormat (enum of exactly the kind's subset, RandR numbers, immutable when that is one format), SignalProperties (enum of the attribute sets valid with the kind's formats, numbered by set, named by attributes, where any), EDID, CompatibilityList and CloneList (immutable blobs); no bitmask property; immutable ones cannot be set",
	  test_props_present, NULL, NULL },
	{ "modetest-props", "modetest -M mmx -c shows the RandR properties on every connector with the right flags, enum names, values and blob bytes",
	  test_modetest_props, NULL, NULL },
	{ "proptest-props", "proptest -M mmx shows the same",
	  test_proptest_props, NULL, NULL },
	{ "signal-roundtrip", "SignalFormat and SignalProperties set through atomic commits read back (DVI-I VGA<->TMDS, DP lanes and rates, Composite PAL/NTSC/SECAM standards); a format change alone gets the new format's default; \"none\" only with a format without properties; single-format SignalFormat refused; on an active output a change needs ALLOW_MODESET",
	  test_signal_roundtrip, NULL, NULL },
	{ "signal-invalid", "formats outside the kind's subset, unknown bits, two links, two lane counts or rates, standards of another family, two standards, and modes the link cannot carry (200 MHz on single-link TMDS, 4K60 on DisplayPort, VGA timing on NTSC) fail with EINVAL and change nothing",
	  test_signal_invalid, NULL, NULL },
	{ "dvi-i-switch", "plugging an analog monitor into DVI-I switches SignalFormat to VGA with a hotplug uevent, a digital one back to TMDS with another; the mode list follows the EDID without a probe; the same while lit at 640x480 (the CRTC stays lit, link-status Good)",
	  test_dvi_i_switch, NULL, NULL },
	{ "sink-switch-lit-dvi", "a digital monitor plugged into DVI-I lit at 200 MHz on VGA (beyond single-link TMDS): SignalFormat becomes TMDS with a uevent, the CRTC stays lit as it was, link-status reads Bad; DPMS off is taken, ACTIVE 1 or link-status Good with 200 MHz are refused (EINVAL, nothing changed), 640x480 with link-status Good is taken",
	  test_sink_switch_lit_dvi, NULL, NULL },
	{ "sink-switch-lit-tv", "a PAL TV plugged into a Composite (TV, SCART) output lit at 720x480i on Composite-NTSC: SignalFormat leaves NTSC for the TV's PAL with a uevent, the CRTC stays lit, link-status Bad; Xorg's answer (legacy SETCRTC) with 720x480i is refused, with 720x576i taken and the link Good",
	  test_sink_switch_lit_tv, NULL, NULL },
	{ "sink-unplug-lit", "an HPD sink unplugged from a lit output: uevent, disconnected, the CRTC stays lit, link-status Bad (still Bad after a replug); the master's modeset with link-status Good is taken",
	  test_sink_unplug_lit, NULL, NULL },
	{ "vga-probe-only", "on VGA (no HPD) an unplug or plug is invisible to GetConnectorCurrent until a probe; probe vs current query times (medians) are reported; mmx_ddc counts a detection and the EDID's blocks (12 ms of simulated DDC each) per probe, nothing per GetConnectorCurrent",
	  test_vga_probe_only, NULL, NULL },
	{ "hdmi-hpd", "on HDMI-A an unplug and a plug each send a hotplug uevent, after which GetConnectorCurrent already shows disconnected / connected with the EDID's modes",
	  test_hdmi_hpd, NULL, NULL },
	{ "hpd-all", "every HPD connector (DVI, HDMI, DisplayPort, eDP): unplug and plug each send a uevent after which GetConnectorCurrent is already right",
	  test_hpd_all, NULL, NULL },
	{ "polled-all", "every polled connector (VGA, DVI-A, LVDS, TV kinds): unplug and plug stay unseen by GetConnectorCurrent until a probe",
	  test_polled_all, NULL, NULL },
	{ "vga-poll", "a polled connector is polled: an unplug shows in GetConnectorCurrent, with a uevent, within 13 s and no client probe (mmx_ddc counts the poll helper's detection)",
	  test_vga_poll, NULL, NULL },
	{ "edid-presets", "each preset's EDID parses (header, per-block checksums, version 1.x, vendor, name, range limits holding every DTD), mmx_edid reads it back, the mode list has exactly the DTDs the link carries; raw uploads of 1 and 4 blocks are taken, malformed ones (checksum, 100 bytes, 640 bytes, header, extension count, version) fail with EINVAL and change nothing",
	  test_edid_presets, NULL, NULL },
	{ "tv-modes", "Composite-PAL/-SECAM offer 720x576i at 50 Hz, Composite-NTSC 720x480i at 59.94 Hz (not the other one), S-Video follows its TV standard, Component offers 480p/576p/720p/1080i; the TV modes can be lit",
	  test_tv_modes, NULL, NULL },
	{ "link-limits", "the documented link formula at its boundaries (TMDS 165/330 MHz, DisplayPort lanes x rate x 8/10 >= clock x 24); 2560x1600 needs DualLink; DP 4K: 4K30 only on Lane4|HiSpeed, never 4K60; a signal that cannot carry the active mode is refused",
	  test_link_limits, NULL, NULL },
	{ "dpms-off-link", "a signal the link cannot carry is refused while the CRTC is enabled but DPMS-off (ACTIVE 0): EINVAL, nothing changed (atomic, TEST_ONLY, legacy); a fitting one is taken while dark; ACTIVE back to 1 lights",
	  test_dpms_off_link, NULL, NULL },
	{ "crtc-move", "every encoder's possible_crtcs has every CRTC; an output driven by another output's CRTC, moved back to its own, and taking a lit CRTC from another output in one modeset shows the picture (writeback); joining a non-clone's CRTC is refused",
	  test_crtc_move, NULL, NULL },
	{ "edid-override", "debugfs edid_override replaces the EDID property and the modes at the next probe, reset brings the sink's back; with force on and no sink the override's modes show",
	  test_edid_override, NULL, NULL },
	{ "edid-firmware", "drm.edid_firmware (kernel command line, or the drm module parameter) gives the named connector the firmware file's EDID and modes, and only it",
	  test_edid_firmware, NULL, NULL },
	{ "clone-lists", "CompatibilityList and CloneList decode as (connector, format) arrays, CloneList is symmetric, follows the documented clone groups and the encoders' possible_clones; every pair of outputs on one CRTC is accepted iff CloneList allows it",
	  test_clone_lists, NULL, NULL },
};

int main(int argc, char **argv)
{
	/* on the host: the EDID that tests/vm/edid-firmware-check boots with */
	if (argc == 3 && !strcmp(argv[1], "--write-test-edid")) {
		uint8_t e[EDID_BLOCK];

		edid_make(e, 1, "firmware");
		if (write_bin(argv[2], e, sizeof(e))) {
			perror(argv[2]);
			return 1;
		}
		return 0;
	}
	return mmx_main(argc, argv, "mmx RandR output properties, sinks and hotplug",
			tests, MMX_ARRAY_SIZE(tests));
}
