// SPDX-License-Identifier: MIT
/*
 * mmx_fuzz - a seeded random-input campaign against the mmx KMS driver,
 * run in a guest (tests/fuzz/check).
 *
 * Several processes share the device: process 0 is the DRM master and the
 * only one that changes KMS state (atomic commits, legacy DPMS, timed
 * commits, debugfs sink and EDID writes); the others hold non-master fds
 * and create and remove framebuffers, dumb buffers and blobs, and try what
 * a non-master may not do. One of them is killed at a random operation.
 *
 * Each process draws its operations from xorshift streams derived from the
 * seed, one per operation, so a seed and an operation count give the same
 * sequence of operations in every process (their arguments too, where the
 * kernel answered the same so far; with several processes only their
 * interleaving differs; --procs 1 replays a run exactly but for timing).
 *
 * The oracle (process 0):
 *  - a refused commit (atomic or legacy) leaves every mutable property of
 *    every object as it was (read back);
 *  - an accepted real commit reads back the values it set, and an accepted
 *    TEST_ONLY one changed nothing;
 *  - a CRTC that has a mode but is dark (ACTIVE 0, DPMS off) must light:
 *    after every accepted commit, ACTIVE 1 with ALLOW_MODESET passes a
 *    TEST_ONLY check, and a DPMS-on through the connector property is
 *    never refused (Xorg's modesetting driver cannot handle that);
 *  - every accepted PAGE_FLIP_EVENT commit delivers one event per CRTC,
 *    every timed commit completes exactly once;
 *  - the kernel is not tainted by a WARN or an Oops (checked every 64
 *    operations, so the operation that did it is known within 64).
 *
 * Output: "mmx_fuzz: seed S ops N procs P", a "FAIL ..." line per oracle
 * violation (with the op number), then per area the operation count,
 * time and ops/s, and "Subtest fuzz: SUCCESS|FAIL".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <drm_fourcc.h>
#include <xf86drm.h>
#include <xf86drmMode.h>

#include "drm/mmx_drm.h"
#include "mmx_card.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAX_OBJS 64
#define MAX_PROPS 40
#define MAX_VALS 64
#define MAX_FBS 24
#define MAX_DUMBS 12
#define MAX_BLOBS 24
#define MAX_PROCS 8

/* ------------------------------------------------------------------------ */
/* Areas and statistics, shared with the parent                             */

enum area {
	A_ATOMIC, A_SIGNAL, A_DPMS, A_FB, A_DUMB, A_BLOB, A_TIMED, A_DEBUGFS,
	A_MASTER, A_ORACLE, A_COUNT
};

static const char *const area_names[A_COUNT] = {
	"atomic", "signal", "dpms", "fb", "dumb", "blob", "timed", "debugfs",
	"master", "oracle",
};

struct shared {
	uint64_t ops[MAX_PROCS][A_COUNT];
	uint64_t ns[MAX_PROCS][A_COUNT];
	uint64_t done[MAX_PROCS];
	uint64_t failures;
	uint64_t found[8];
};

static struct shared *sh;
static int me;
static unsigned long long op_no;
static bool verbose;

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void fail(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void fail(const char *fmt, ...)
{
	uint64_t n = __atomic_add_fetch(&sh->failures, 1, __ATOMIC_SEQ_CST);
	va_list ap;

	/* the first ones say it all: a broken rule breaks again and again */
	if (n > 40)
		return;
	printf("FAIL proc %d op %llu: ", me, op_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	fflush(stdout);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void note(const char *fmt, ...)
{
	va_list ap;

	if (!verbose)
		return;
	printf("[%d:%llu] ", me, op_no);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
}

/* ------------------------------------------------------------------------ */
/* Random numbers                                                           */

static uint64_t rng_state;

static uint64_t rnd(void)
{
	uint64_t x = rng_state;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	rng_state = x;
	return x * 0x2545f4914f6cdd1dull;
}

static uint64_t rng_base;

/*
 * Each operation draws from its own stream (the process's seed and the
 * operation number, through splitmix64): what the kernel answered to one
 * operation (an EBUSY, a timed commit still pending) may change the numbers
 * it draws, never which operations follow.
 */
static void rng_for_op(unsigned long long op)
{
	uint64_t z = rng_base + (op + 1) * 0x9e3779b97f4a7c15ull;

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	rng_state = (z ^ (z >> 31)) | 1;
}

static uint32_t below(uint32_t n)
{
	return n ? (uint32_t)(rnd() % n) : 0;
}

static bool chance(unsigned int percent)
{
	return below(100) < percent;
}

static uint64_t garbage(void)
{
	static const uint64_t odd[] = {
		0, 1, 2, 0x7f, 0xff, 0xffff, 0x10000, 0x7fffffff, 0x80000000,
		0xffffffff, 0x100000000ull, 0x7fffffffffffffffull,
		0x8000000000000000ull, ~0ull, ~0ull - 1,
	};

	switch (below(3)) {
	case 0:
		return odd[below(ARRAY_SIZE(odd))];
	case 1:
		return rnd() & 0xffffffff;
	default:
		return rnd();
	}
}

/* ------------------------------------------------------------------------ */
/* Objects and properties                                                   */

struct prop {
	uint32_t id;
	char name[DRM_PROP_NAME_LEN];
	uint32_t flags;
	int n_vals;
	uint64_t vals[MAX_VALS];
};

struct obj {
	uint32_t id;
	uint32_t type;
	int n_props;
	struct prop props[MAX_PROPS];
	/* CRTC: index; plane: type and possible CRTCs; connector: modes */
	int index;
	uint32_t possible_crtcs;
	int plane_type;
	uint32_t *formats;
	int n_formats;
	drmModeModeInfo *modes;
	int n_modes;
	char name[32];
	bool writeback;
};

static int fd = -1;
static struct obj objs[MAX_OBJS];
static int n_objs;
static char debugfs[256];

static bool prop_is(const struct prop *p, const char *name)
{
	return !strcmp(p->name, name);
}

static struct prop *find_prop(struct obj *o, const char *name)
{
	int i;

	for (i = 0; i < o->n_props; i++)
		if (prop_is(&o->props[i], name))
			return &o->props[i];
	return NULL;
}

static void load_props(struct obj *o)
{
	drmModeObjectPropertiesPtr list;
	uint32_t i;
	int j;

	list = drmModeObjectGetProperties(fd, o->id, o->type);
	if (!list)
		return;
	for (i = 0; i < list->count_props && o->n_props < MAX_PROPS; i++) {
		drmModePropertyPtr dp = drmModeGetProperty(fd, list->props[i]);
		struct prop *p = &o->props[o->n_props++];

		if (!dp) {
			o->n_props--;
			continue;
		}
		p->id = dp->prop_id;
		snprintf(p->name, sizeof(p->name), "%s", dp->name);
		p->flags = dp->flags;
		if (drm_property_type_is(dp, DRM_MODE_PROP_ENUM) ||
		    drm_property_type_is(dp, DRM_MODE_PROP_BITMASK)) {
			for (j = 0; j < dp->count_enums && j < MAX_VALS; j++)
				p->vals[j] = dp->enums[j].value;
			p->n_vals = j;
		} else {
			for (j = 0; j < dp->count_values && j < MAX_VALS; j++)
				p->vals[j] = dp->values[j];
			p->n_vals = j;
		}
		drmModeFreeProperty(dp);
	}
	drmModeFreeObjectProperties(list);
}

static struct obj *add_obj(uint32_t id, uint32_t type)
{
	struct obj *o;

	if (n_objs == MAX_OBJS)
		return NULL;
	o = &objs[n_objs++];
	memset(o, 0, sizeof(*o));
	o->id = id;
	o->type = type;
	load_props(o);
	return o;
}

static void load_objects(void)
{
	drmModeResPtr res = drmModeGetResources(fd);
	drmModePlaneResPtr pres = drmModeGetPlaneResources(fd);
	uint32_t i;

	if (!res || !pres) {
		printf("mmx_fuzz: no KMS resources: %s\n", strerror(errno));
		exit(2);
	}
	for (i = 0; i < (uint32_t)res->count_crtcs; i++) {
		struct obj *o = add_obj(res->crtcs[i], DRM_MODE_OBJECT_CRTC);

		if (o) {
			o->index = i;
			snprintf(o->name, sizeof(o->name), "crtc-%u", i);
		}
	}
	for (i = 0; i < pres->count_planes; i++) {
		drmModePlanePtr pl = drmModeGetPlane(fd, pres->planes[i]);
		struct obj *o = add_obj(pres->planes[i], DRM_MODE_OBJECT_PLANE);
		struct prop *type;

		if (!o || !pl) {
			drmModeFreePlane(pl);
			continue;
		}
		o->possible_crtcs = pl->possible_crtcs;
		o->n_formats = pl->count_formats;
		o->formats = calloc(pl->count_formats + 1, sizeof(uint32_t));
		memcpy(o->formats, pl->formats,
		       pl->count_formats * sizeof(uint32_t));
		type = find_prop(o, "type");
		snprintf(o->name, sizeof(o->name), "plane-%u", pl->plane_id);
		o->plane_type = -1;
		if (type) {
			drmModeObjectPropertiesPtr list =
				drmModeObjectGetProperties(fd, o->id, o->type);
			uint32_t k;

			for (k = 0; list && k < list->count_props; k++)
				if (list->props[k] == type->id)
					o->plane_type = list->prop_values[k];
			drmModeFreeObjectProperties(list);
		}
		drmModeFreePlane(pl);
	}
	for (i = 0; i < (uint32_t)res->count_connectors; i++) {
		drmModeConnectorPtr c = drmModeGetConnector(fd,
							    res->connectors[i]);
		struct obj *o = add_obj(res->connectors[i],
					DRM_MODE_OBJECT_CONNECTOR);
		drmModeEncoderPtr enc;

		if (!o || !c) {
			drmModeFreeConnector(c);
			continue;
		}
		snprintf(o->name, sizeof(o->name), "%s-%u",
			 drmModeGetConnectorTypeName(c->connector_type) ?: "?",
			 c->connector_type_id);
		o->writeback = c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		o->n_modes = c->count_modes;
		o->modes = calloc(c->count_modes + 1, sizeof(*o->modes));
		memcpy(o->modes, c->modes, c->count_modes * sizeof(*o->modes));
		if (c->count_encoders) {
			enc = drmModeGetEncoder(fd, c->encoders[0]);
			if (enc)
				o->possible_crtcs = enc->possible_crtcs;
			drmModeFreeEncoder(enc);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	drmModeFreePlaneResources(pres);
}

static struct obj *random_obj(uint32_t type)
{
	int i, n = 0;

	for (i = 0; i < n_objs; i++)
		n += objs[i].type == type;
	if (!n)
		return NULL;
	n = below(n);
	for (i = 0; i < n_objs; i++)
		if (objs[i].type == type && n-- == 0)
			return &objs[i];
	return NULL;
}

static struct obj *crtc_by_index(int index)
{
	int i;

	for (i = 0; i < n_objs; i++)
		if (objs[i].type == DRM_MODE_OBJECT_CRTC &&
		    objs[i].index == index)
			return &objs[i];
	return NULL;
}

/* Current value of @p on @o (false if it cannot be read). */
static bool read_prop(const struct obj *o, const struct prop *p, uint64_t *val)
{
	drmModeObjectPropertiesPtr list;
	bool found = false;
	uint32_t i;

	list = drmModeObjectGetProperties(fd, o->id, o->type);
	for (i = 0; list && i < list->count_props; i++) {
		if (list->props[i] == p->id) {
			*val = list->prop_values[i];
			found = true;
		}
	}
	drmModeFreeObjectProperties(list);
	return found;
}

static uint64_t prop_value(struct obj *o, const char *name)
{
	struct prop *p = find_prop(o, name);
	uint64_t v = 0;

	if (p)
		read_prop(o, p, &v);
	return v;
}

/* Properties whose read-back is not what was written. */
static bool prop_write_only(const struct prop *p)
{
	return prop_is(p, "OUT_FENCE_PTR") ||
	       prop_is(p, "WRITEBACK_OUT_FENCE_PTR") ||
	       prop_is(p, "WRITEBACK_FB_ID") || prop_is(p, "IN_FENCE_FD") ||
	       prop_is(p, "FB_DAMAGE_CLIPS");
}

/* Object and blob properties: their values are ids. */
static bool prop_is_id(const struct prop *p)
{
	uint32_t kind = p->flags & (DRM_MODE_PROP_LEGACY_TYPE |
				    DRM_MODE_PROP_EXTENDED_TYPE);

	return kind == DRM_MODE_PROP_OBJECT || kind == DRM_MODE_PROP_BLOB;
}

/* ------------------------------------------------------------------------ */
/* Snapshots: every mutable property of every object                        */

struct snapshot {
	int n;
	uint32_t obj[MAX_OBJS * MAX_PROPS];
	uint32_t prop[MAX_OBJS * MAX_PROPS];
	uint64_t val[MAX_OBJS * MAX_PROPS];
};

static struct snapshot snap_before, snap_after;

static void take_snapshot(struct snapshot *s)
{
	int i, j;

	s->n = 0;
	for (i = 0; i < n_objs; i++) {
		drmModeObjectPropertiesPtr list =
			drmModeObjectGetProperties(fd, objs[i].id, objs[i].type);
		uint32_t k;

		for (k = 0; list && k < list->count_props; k++) {
			const struct prop *p = NULL;

			for (j = 0; j < objs[i].n_props; j++)
				if (objs[i].props[j].id == list->props[k])
					p = &objs[i].props[j];
			/*
			 * DPMS mirrors ACTIVE and is updated in the commit
			 * tail: after a nonblocking commit, some time later.
			 */
			if (!p || (p->flags & DRM_MODE_PROP_IMMUTABLE) ||
			    prop_write_only(p) || prop_is(p, "link-status") ||
			    prop_is(p, "DPMS"))
				continue;
			s->obj[s->n] = objs[i].id;
			s->prop[s->n] = p->id;
			s->val[s->n] = list->prop_values[k];
			s->n++;
		}
		drmModeFreeObjectProperties(list);
	}
}

static const char *prop_name_of(uint32_t obj_id, uint32_t prop_id,
				const char **obj_name)
{
	int i, j;

	for (i = 0; i < n_objs; i++) {
		if (objs[i].id != obj_id)
			continue;
		*obj_name = objs[i].name;
		for (j = 0; j < objs[i].n_props; j++)
			if (objs[i].props[j].id == prop_id)
				return objs[i].props[j].name;
	}
	*obj_name = "?";
	return "?";
}

/* Report every difference; return true if none. */
static bool same_snapshot(const struct snapshot *a, const struct snapshot *b,
			  const char *what)
{
	bool same = a->n == b->n;
	int i;

	for (i = 0; i < a->n && i < b->n; i++) {
		const char *on, *pn;

		if (a->obj[i] == b->obj[i] && a->prop[i] == b->prop[i] &&
		    a->val[i] == b->val[i])
			continue;
		same = false;
		pn = prop_name_of(a->obj[i], a->prop[i], &on);
		fail("%s: %s.%s changed from 0x%" PRIx64 " to 0x%" PRIx64,
		     what, on, pn, a->val[i], b->val[i]);
	}
	if (a->n != b->n)
		fail("%s: %d properties before, %d after", what, a->n, b->n);
	return same;
}

/* ------------------------------------------------------------------------ */
/* Resources of this process                                                */

struct dumb {
	uint32_t handle, width, height, pitch;
	uint64_t size;
};

static struct dumb dumbs[MAX_DUMBS];
static int n_dumbs;
static uint32_t fbs[MAX_FBS];
static int n_fbs;
static uint32_t blobs[MAX_BLOBS];
static int n_blobs;
static uint32_t mode_blobs[MAX_BLOBS];
static int n_mode_blobs;

static int dumb_create(uint32_t w, uint32_t h, uint32_t bpp, struct dumb *d)
{
	struct drm_mode_create_dumb arg = { .width = w, .height = h, .bpp = bpp };

	if (drmIoctl(fd, DRM_IOCTL_MODE_CREATE_DUMB, &arg))
		return -errno;
	d->handle = arg.handle;
	d->width = w;
	d->height = h;
	d->pitch = arg.pitch;
	d->size = arg.size;
	return 0;
}

static void dumb_destroy(uint32_t handle)
{
	struct drm_mode_destroy_dumb arg = { .handle = handle };

	drmIoctl(fd, DRM_IOCTL_MODE_DESTROY_DUMB, &arg);
}

/* Write a byte pattern through a mapping of @d. */
static int dumb_touch(const struct dumb *d, uint8_t value)
{
	struct drm_mode_map_dumb arg = { .handle = d->handle };
	void *p;

	if (drmIoctl(fd, DRM_IOCTL_MODE_MAP_DUMB, &arg))
		return -errno;
	p = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		 arg.offset);
	if (p == MAP_FAILED)
		return -errno;
	memset(p, value, d->size);
	munmap(p, d->size);
	return 0;
}

/* An XRGB8888 framebuffer of @w x @h, for the starting configuration. */
static uint32_t plain_fb(uint32_t w, uint32_t h)
{
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	struct dumb d;
	uint32_t id;

	if (n_dumbs == MAX_DUMBS || dumb_create(w, h, 32, &d))
		return 0;
	dumb_touch(&d, 0x40 + 0x20 * n_dumbs);
	dumbs[n_dumbs++] = d;
	handles[0] = d.handle;
	pitches[0] = d.pitch;
	if (drmModeAddFB2(fd, w, h, DRM_FORMAT_XRGB8888, handles, pitches,
			  offsets, &id, 0))
		return 0;
	if (n_fbs < MAX_FBS)
		fbs[n_fbs++] = id;
	return id;
}

/* ------------------------------------------------------------------------ */
/* Events                                                                   */

#define MAX_PENDING 256

static uint64_t flip_cookie = 1;
static uint64_t flips_expected;
static uint64_t flips_seen;
static uint64_t sched_pending[MAX_PENDING];
static int n_sched_pending;
static uint64_t sched_done;

static void sched_add(uint64_t id)
{
	if (n_sched_pending < MAX_PENDING)
		sched_pending[n_sched_pending++] = id;
}

static bool sched_remove(uint64_t id)
{
	int i;

	for (i = 0; i < n_sched_pending; i++) {
		if (sched_pending[i] == id) {
			sched_pending[i] = sched_pending[--n_sched_pending];
			return true;
		}
	}
	return false;
}

/* Read the events waiting on the fd (wait up to @timeout_ms for one). */
static void read_events(int timeout_ms)
{
	char buf[4096];
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	ssize_t len;
	size_t off;

	while (poll(&pfd, 1, timeout_ms) > 0) {
		len = read(fd, buf, sizeof(buf));
		if (len <= 0)
			return;
		for (off = 0; off + sizeof(struct drm_event) <= (size_t)len;) {
			struct drm_event *e = (struct drm_event *)(buf + off);

			if (e->length < sizeof(*e) || off + e->length > (size_t)len) {
				fail("event of length %u at %zu of %zd",
				     e->length, off, len);
				return;
			}
			if (e->type == DRM_EVENT_FLIP_COMPLETE) {
				flips_seen++;
			} else if (e->type == DRM_MMX_EVENT_SCHEDULE) {
				struct drm_mmx_event_schedule *s =
					(struct drm_mmx_event_schedule *)e;

				if (!sched_remove(s->schedule_id))
					fail("timed commit %" PRIu64
					     " completed (status %u) but was not pending",
					     (uint64_t)s->schedule_id, s->status);
				sched_done++;
			}
			off += e->length;
		}
		timeout_ms = 0;
	}
}

/* Wait until every expected event came, or fail after @seconds. */
static void wait_events(int seconds)
{
	uint64_t end = now_ns() + (uint64_t)seconds * 1000000000ull;

	while ((flips_seen < flips_expected || n_sched_pending) &&
	       now_ns() < end)
		read_events(50);
	if (flips_seen != flips_expected)
		fail("%" PRIu64 " flip events for %" PRIu64 " accepted event commits",
		     flips_seen, flips_expected);
	if (n_sched_pending)
		fail("%d timed commits never completed (first id %" PRIu64 ")",
		     n_sched_pending, sched_pending[0]);
}

/* ------------------------------------------------------------------------ */
/* Atomic requests                                                          */

#define REQ_MAX 256

struct req {
	int n;
	struct obj *o[REQ_MAX];
	struct prop *p[REQ_MAX];
	uint64_t v[REQ_MAX];
};

static void req_set(struct req *r, struct obj *o, struct prop *p, uint64_t v)
{
	int i;

	if (!p)
		return;
	for (i = 0; i < r->n; i++) {
		if (r->o[i] == o && r->p[i] == p) {
			r->v[i] = v;
			return;
		}
	}
	if (r->n == REQ_MAX)
		return;
	r->o[r->n] = o;
	r->p[r->n] = p;
	r->v[r->n] = v;
	r->n++;
}

static int req_commit(const struct req *r, uint32_t flags)
{
	drmModeAtomicReqPtr a = drmModeAtomicAlloc();
	uint64_t cookie = flip_cookie++;
	int i, ret;

	for (i = 0; i < r->n; i++)
		drmModeAtomicAddProperty(a, r->o[i]->id, r->p[i]->id, r->v[i]);
	ret = drmModeAtomicCommit(fd, a, flags, (void *)(uintptr_t)cookie);
	if (ret)
		ret = -errno;
	drmModeAtomicFree(a);
	return ret;
}

/* The CRTCs a request touches (for counting flip events). */
static int req_crtcs(const struct req *r)
{
	uint32_t mask = 0;
	int i, n = 0;

	/* the core adds the old and the new CRTC of every plane/connector */
	for (i = 0; i < r->n; i++) {
		uint64_t crtc[2] = { 0, 0 };
		struct prop *cp;
		int k, m;

		if (r->o[i]->type == DRM_MODE_OBJECT_CRTC) {
			mask |= 1u << r->o[i]->index;
			continue;
		}
		cp = find_prop(r->o[i], "CRTC_ID");
		if (cp)
			read_prop(r->o[i], cp, &crtc[0]);
		if (prop_is(r->p[i], "CRTC_ID"))
			crtc[1] = r->v[i];
		for (m = 0; m < 2; m++)
			for (k = 0; crtc[m] && k < n_objs; k++)
				if (objs[k].type == DRM_MODE_OBJECT_CRTC &&
				    objs[k].id == crtc[m])
					mask |= 1u << objs[k].index;
	}
	for (i = 0; i < 32; i++)
		n += !!(mask & (1u << i));
	return n;
}

/* A value for @p of @o: valid-looking, current, or garbage. */
static uint64_t pick_value(struct obj *o, struct prop *p)
{
	uint32_t kind = p->flags & (DRM_MODE_PROP_LEGACY_TYPE |
				    DRM_MODE_PROP_EXTENDED_TYPE);
	uint64_t cur = 0;

	if (prop_is(p, "OUT_FENCE_PTR") || prop_is(p, "WRITEBACK_OUT_FENCE_PTR"))
		return 0;
	if (prop_is(p, "IN_FENCE_FD"))
		return chance(70) ? (uint64_t)-1 : below(64);
	if (chance(8))
		return garbage();
	if (chance(15) && read_prop(o, p, &cur))
		return cur + (below(3) - 1);

	if (kind == DRM_MODE_PROP_RANGE && p->n_vals == 2) {
		uint64_t lo = p->vals[0], hi = p->vals[1];

		if (chance(20))
			return chance(50) ? lo : hi;
		if (hi - lo < 0x10000)
			return lo + rnd() % (hi - lo + 1);
		return lo + (rnd() & 0xffff) * (chance(50) ? 1 : 0x10000);
	}
	if (kind == DRM_MODE_PROP_SIGNED_RANGE && p->n_vals == 2) {
		int64_t v = (int64_t)(rnd() % 8192) - 2048;

		if (chance(10))
			return chance(50) ? p->vals[0] : p->vals[1];
		return (uint64_t)v;
	}
	if (kind == DRM_MODE_PROP_ENUM && p->n_vals)
		return p->vals[below(p->n_vals)];
	if (kind == DRM_MODE_PROP_BITMASK && p->n_vals) {
		uint64_t v = 0;
		int i;

		for (i = 0; i < p->n_vals; i++)
			if (chance(30))
				v |= 1ull << p->vals[i];
		return v;
	}
	if (kind == DRM_MODE_PROP_OBJECT) {
		if (prop_is(p, "FB_ID") || prop_is(p, "WRITEBACK_FB_ID"))
			return n_fbs && chance(85) ? fbs[below(n_fbs)] : 0;
		if (prop_is(p, "CRTC_ID")) {
			struct obj *c = random_obj(DRM_MODE_OBJECT_CRTC);

			return c && chance(80) ? c->id : 0;
		}
		return 0;
	}
	if (kind == DRM_MODE_PROP_BLOB) {
		if (prop_is(p, "MODE_ID") && n_mode_blobs && chance(85))
			return mode_blobs[below(n_mode_blobs)];
		if (n_blobs && chance(70))
			return blobs[below(n_blobs)];
		return 0;
	}
	return garbage();
}

static uint32_t pick_flags(void)
{
	uint32_t f = 0;

	if (chance(35))
		f |= DRM_MODE_ATOMIC_TEST_ONLY;
	if (chance(60))
		f |= DRM_MODE_ATOMIC_ALLOW_MODESET;
	if (chance(25))
		f |= DRM_MODE_ATOMIC_NONBLOCK;
	if (chance(30))
		f |= DRM_MODE_PAGE_FLIP_EVENT;
	if (chance(2))
		f |= 1u << (below(20) + 12);
	return f;
}

/*
 * Whether connector @o reads link-status Bad: its sink changed under a lit
 * mode the new link cannot carry. Lighting that mode again is refused until
 * the master picks one that fits (Documentation/mmx.rst, simulated sinks
 * and hotplug).
 */
static bool link_bad(struct obj *o)
{
	return prop_value(o, "link-status") == DRM_MODE_LINK_STATUS_BAD;
}

/* Whether a connector on CRTC @c reads link-status Bad. */
static bool crtc_link_bad(const struct obj *c)
{
	int i;

	for (i = 0; i < n_objs; i++) {
		struct obj *o = &objs[i];

		if (o->type == DRM_MODE_OBJECT_CONNECTOR && !o->writeback &&
		    prop_value(o, "CRTC_ID") == c->id && link_bad(o))
			return true;
	}
	return false;
}

/*
 * A CRTC with a mode but dark must light (the TEST_ONLY probe), unless its
 * link went Bad.
 */
static void check_can_light(const char *after)
{
	int i;

	for (i = 0; i < n_objs; i++) {
		struct obj *c = &objs[i];
		struct req r = { 0 };
		int ret;

		if (c->type != DRM_MODE_OBJECT_CRTC ||
		    !prop_value(c, "MODE_ID") || prop_value(c, "ACTIVE") ||
		    crtc_link_bad(c))
			continue;
		req_set(&r, c, find_prop(c, "ACTIVE"), 1);
		ret = req_commit(&r, DRM_MODE_ATOMIC_TEST_ONLY |
				 DRM_MODE_ATOMIC_ALLOW_MODESET);
		if (ret) {
			fail("after %s: %s has a mode and is dark, but ACTIVE 1 is refused: %s",
			     after, c->name, strerror(-ret));
			sh->found[0]++;
		}
	}
}

/*
 * Commit @r with @flags and judge it: refused -> nothing changed;
 * accepted -> reads back (real) or nothing changed (TEST_ONLY).
 */
static int commit_judged(const struct req *r, uint32_t flags, const char *what)
{
	bool judge = n_sched_pending == 0;
	uint64_t t0 = now_ns();
	int ret, i, crtcs = 0;

	if (judge)
		take_snapshot(&snap_before);
	if (flags & DRM_MODE_PAGE_FLIP_EVENT)
		crtcs = req_crtcs(r);
	sh->ns[me][A_ORACLE] += now_ns() - t0;
	ret = req_commit(r, flags);
	t0 = now_ns();
	note("%s: %d props flags 0x%x -> %d", what, r->n, flags, ret);
	if (!ret && (flags & DRM_MODE_PAGE_FLIP_EVENT) &&
	    !(flags & DRM_MODE_ATOMIC_TEST_ONLY))
		flips_expected += crtcs;

	if (judge && (ret || (flags & DRM_MODE_ATOMIC_TEST_ONLY))) {
		take_snapshot(&snap_after);
		if (!same_snapshot(&snap_before, &snap_after,
				   ret ? "refused commit" : "TEST_ONLY commit"))
			fail("%s with flags 0x%x (%s)", what, flags,
			     ret ? strerror(-ret) : "accepted");
	}
	if (!ret && !(flags & DRM_MODE_ATOMIC_TEST_ONLY) && judge) {
		bool sig_set = false;

		for (i = 0; i < r->n; i++)
			sig_set |= prop_is(r->p[i], "SignalProperties");
		for (i = 0; i < r->n; i++) {
			uint64_t v;

			/* userspace can only ask for GOOD (the core's rule) */
			if (prop_write_only(r->p[i]) ||
			    prop_is(r->p[i], "link-status") ||
			    (prop_is(r->p[i], "SignalProperties") && !sig_set))
				continue;
			if (!read_prop(r->o[i], r->p[i], &v))
				continue;
			/* the core looks objects and blobs up by 32-bit id */
			if (prop_is_id(r->p[i]) && v == (uint32_t)r->v[i])
				continue;
			if (v != r->v[i])
				fail("%s accepted: %s.%s set to 0x%" PRIx64
				     " reads 0x%" PRIx64, what, r->o[i]->name,
				     r->p[i]->name, r->v[i], v);
		}
		check_can_light(what);
	}
	sh->ops[me][A_ORACLE]++;
	sh->ns[me][A_ORACLE] += now_ns() - t0;
	return ret;
}

/* ------------------------------------------------------------------------ */
/* The starting configuration: every connector lit at its first mode        */

static void create_mode_blobs(void)
{
	int i, j;

	for (i = 0; i < n_objs; i++) {
		struct obj *o = &objs[i];

		if (o->type != DRM_MODE_OBJECT_CONNECTOR)
			continue;
		for (j = 0; j < o->n_modes && n_mode_blobs < MAX_BLOBS; j++) {
			uint32_t id;

			/* a few of each connector's modes, the first always */
			if (j && below(4))
				continue;
			if (!drmModeCreatePropertyBlob(fd, &o->modes[j],
						       sizeof(o->modes[j]), &id))
				mode_blobs[n_mode_blobs++] = id;
		}
	}
}

static struct obj *primary_of(int crtc_index)
{
	int i;

	for (i = 0; i < n_objs; i++)
		if (objs[i].type == DRM_MODE_OBJECT_PLANE &&
		    objs[i].plane_type == DRM_PLANE_TYPE_PRIMARY &&
		    (objs[i].possible_crtcs & (1u << crtc_index)))
			return &objs[i];
	return NULL;
}

static struct req start_req;

static void build_start(void)
{
	int i, crtc = 0;

	memset(&start_req, 0, sizeof(start_req));
	for (i = 0; i < n_objs; i++) {
		struct obj *o = &objs[i];
		struct obj *c, *pl;
		uint32_t blob, fb, w, h;

		if (o->type != DRM_MODE_OBJECT_CONNECTOR || o->writeback ||
		    !o->n_modes)
			continue;
		c = crtc_by_index(crtc);
		while (c && !(o->possible_crtcs & (1u << c->index)))
			c = crtc_by_index(++crtc);
		if (!c)
			break;
		pl = primary_of(c->index);
		if (drmModeCreatePropertyBlob(fd, &o->modes[0],
					      sizeof(o->modes[0]), &blob))
			continue;
		w = o->modes[0].hdisplay;
		h = o->modes[0].vdisplay;
		fb = plain_fb(w, h);
		req_set(&start_req, o, find_prop(o, "CRTC_ID"), c->id);
		req_set(&start_req, c, find_prop(c, "MODE_ID"), blob);
		req_set(&start_req, c, find_prop(c, "ACTIVE"), 1);
		if (pl && fb) {
			req_set(&start_req, pl, find_prop(pl, "FB_ID"), fb);
			req_set(&start_req, pl, find_prop(pl, "CRTC_ID"), c->id);
			req_set(&start_req, pl, find_prop(pl, "SRC_W"),
				(uint64_t)w << 16);
			req_set(&start_req, pl, find_prop(pl, "SRC_H"),
				(uint64_t)h << 16);
			req_set(&start_req, pl, find_prop(pl, "CRTC_W"), w);
			req_set(&start_req, pl, find_prop(pl, "CRTC_H"), h);
		}
		crtc++;
	}
}

/* Back to the starting configuration (not judged: it may need a retry). */
static void restore_start(void)
{
	int ret = req_commit(&start_req, DRM_MODE_ATOMIC_ALLOW_MODESET);

	note("restore -> %d", ret);
}

/* ------------------------------------------------------------------------ */
/* Operations of the master                                                 */

static void op_atomic(void)
{
	struct req r = { 0 };
	int n_objects = 1 + below(3), i, j;

	/* mutate the starting configuration, or build from nothing */
	if (chance(40)) {
		r = start_req;
		for (i = 0; i < r.n; i++)
			if (chance(15))
				r.v[i] = pick_value(r.o[i], r.p[i]);
	}
	for (i = 0; i < n_objects; i++) {
		static const uint32_t types[] = {
			DRM_MODE_OBJECT_CRTC, DRM_MODE_OBJECT_PLANE,
			DRM_MODE_OBJECT_PLANE, DRM_MODE_OBJECT_CONNECTOR,
		};
		struct obj *o = random_obj(types[below(ARRAY_SIZE(types))]);
		int n_p = 1 + below(4);

		if (!o || !o->n_props)
			continue;
		for (j = 0; j < n_p; j++) {
			struct prop *p = &o->props[below(o->n_props)];

			req_set(&r, o, p, pick_value(o, p));
		}
	}
	commit_judged(&r, pick_flags(), "atomic");
}

/* SignalFormat/SignalProperties of a connector, often while dark. */
static void op_signal(void)
{
	struct obj *o = random_obj(DRM_MODE_OBJECT_CONNECTOR);
	struct prop *fmt, *props;
	struct req r = { 0 };
	uint32_t flags;

	if (!o)
		return;
	fmt = find_prop(o, "SignalFormat");
	props = find_prop(o, "SignalProperties");
	if (!fmt)
		return;
	if (fmt->n_vals && !(fmt->flags & DRM_MODE_PROP_IMMUTABLE))
		req_set(&r, o, fmt, chance(90) ? fmt->vals[below(fmt->n_vals)] :
					      garbage());
	if (props && !(props->flags & DRM_MODE_PROP_IMMUTABLE) && chance(40))
		req_set(&r, o, props, pick_value(o, props));
	if (chance(30)) {
		/* with a mode of another connector on its CRTC */
		uint64_t crtc_id = prop_value(o, "CRTC_ID");
		int i;

		for (i = 0; i < n_objs && crtc_id; i++)
			if (objs[i].id == crtc_id && n_mode_blobs)
				req_set(&r, &objs[i],
					find_prop(&objs[i], "MODE_ID"),
					mode_blobs[below(n_mode_blobs)]);
	}
	if (!r.n)
		return;
	flags = pick_flags() & ~DRM_MODE_PAGE_FLIP_EVENT;
	if (chance(50))
		flags &= ~DRM_MODE_ATOMIC_TEST_ONLY;
	commit_judged(&r, flags, "signal");
}

/* Legacy DPMS through the connector property, as Xorg sets it. */
static void op_dpms(void)
{
	struct obj *o = random_obj(DRM_MODE_OBJECT_CONNECTOR);
	struct prop *dpms;
	uint64_t crtc, value;
	bool judge = n_sched_pending == 0;
	int ret;

	if (!o || o->writeback)
		return;
	dpms = find_prop(o, "DPMS");
	if (!dpms)
		return;
	value = chance(50) ? DRM_MODE_DPMS_ON :
		chance(80) ? DRM_MODE_DPMS_OFF : below(6);
	crtc = prop_value(o, "CRTC_ID");
	if (judge)
		take_snapshot(&snap_before);
	ret = drmModeConnectorSetProperty(fd, o->id, dpms->id, value);
	ret = ret ? -errno : 0;
	note("dpms %s %" PRIu64 " -> %d", o->name, value, ret);
	if (ret && value == DRM_MODE_DPMS_ON && crtc && ret != -EBUSY &&
	    !link_bad(o)) {
		fail("DPMS on of %s (on a CRTC with a mode) refused: %s",
		     o->name, strerror(-ret));
		sh->found[1]++;
	}
	if (ret && judge) {
		take_snapshot(&snap_after);
		same_snapshot(&snap_before, &snap_after, "refused DPMS");
	}
	if (!ret && judge)
		check_can_light("DPMS");
}

static void op_timed(void)
{
	struct obj *c = random_obj(DRM_MODE_OBJECT_CRTC);
	struct obj *pl = c ? primary_of(c->index) : NULL;
	uint32_t objs_arr[2], counts[2], props[8];
	uint64_t values[8];
	int n_props = 0, ret;

	if (!c || !pl)
		return;
	if (chance(25) && n_sched_pending) {
		struct drm_mmx_schedule_retract rt = {
			.schedule_id = sched_pending[below(n_sched_pending)],
		};

		if (chance(5))
			rt.pad = 1;
		ret = drmIoctl(fd, DRM_IOCTL_MMX_SCHEDULE_RETRACT, &rt) ? -errno : 0;
		note("retract %" PRIu64 " -> %d", (uint64_t)rt.schedule_id, ret);
		return;
	}
	objs_arr[0] = pl->id;
	counts[0] = 0;
	if (n_fbs && chance(80)) {
		props[n_props] = find_prop(pl, "FB_ID")->id;
		values[n_props++] = fbs[below(n_fbs)];
	}
	if (chance(50)) {
		struct prop *p = find_prop(pl, "CRTC_X");

		props[n_props] = p->id;
		values[n_props++] = pick_value(pl, p);
	}
	if (chance(30)) {
		struct prop *p = &pl->props[below(pl->n_props)];

		props[n_props] = p->id;
		values[n_props++] = pick_value(pl, p);
	}
	counts[0] = n_props;

	struct drm_mmx_schedule_submit s = {
		.crtc_id = chance(95) ? c->id : (uint32_t)garbage(),
		.count_objs = 1,
		.objs_ptr = (uintptr_t)objs_arr,
		.count_props_ptr = (uintptr_t)counts,
		.props_ptr = (uintptr_t)props,
		.prop_values_ptr = (uintptr_t)values,
		.user_data = op_no,
	};
	s.exec_ns = now_ns() + below(80) * 1000000ull;
	s.expire_ns = s.exec_ns + (chance(80) ? 1000000000ull : below(20000000));
	if (chance(5))
		s.flags = 1u << below(32);
	if (chance(5))
		s.exec_ns = garbage();

	if (chance(25) && n_sched_pending) {
		struct drm_mmx_schedule_replace rp = {
			.schedule_id = sched_pending[below(n_sched_pending)],
			.submit = s,
		};

		ret = drmIoctl(fd, DRM_IOCTL_MMX_SCHEDULE_REPLACE, &rp) ? -errno : 0;
		note("replace %" PRIu64 " -> %d", (uint64_t)rp.schedule_id, ret);
		if (!ret)
			sched_add(rp.submit.schedule_id);
		return;
	}
	ret = drmIoctl(fd, DRM_IOCTL_MMX_SCHEDULE_SUBMIT, &s) ? -errno : 0;
	note("submit on %s -> %d", c->name, ret);
	if (!ret)
		sched_add(s.schedule_id);
}

/* The debugfs directory of connector @o, or NULL. */
static bool connector_debugfs(const struct obj *o, const char *file,
			      char *path, size_t len)
{
	snprintf(path, len, "%s/%s/%s", debugfs, o->name, file);
	return access(path, F_OK) == 0;
}

/* CRCs of a random CRTC for a moment: the composer allocates, then frees. */
static void op_crc(void)
{
	struct obj *c = random_obj(DRM_MODE_OBJECT_CRTC);
	struct pollfd pfd = { .events = POLLIN };
	char path[512], line[128];
	int f;

	if (!c || !debugfs[0])
		return;
	snprintf(path, sizeof(path), "%s/crtc-%d/crc/control", debugfs,
		 c->index);
	f = open(path, O_WRONLY);
	if (f < 0)
		return;
	if (write(f, chance(90) ? "auto" : "bogus", chance(90) ? 4 : 5) < 0) {
		close(f);
		return;
	}
	close(f);
	snprintf(path, sizeof(path), "%s/crtc-%d/crc/data", debugfs, c->index);
	pfd.fd = open(path, O_RDONLY | O_NONBLOCK);
	if (pfd.fd < 0)
		return;
	if (poll(&pfd, 1, 100) > 0 && read(pfd.fd, line, sizeof(line)) < 0)
		note("crc %s: %s", c->name, strerror(errno));
	close(pfd.fd);
}

static void op_debugfs(void)
{
	static const char *const sinks[] = {
		"none", "vga", "dvi", "hdmi", "dual-link", "dp-4k", "panel",
		"pal-tv", "ntsc-tv", "component-tv", "bogus", "",
	};
	struct obj *o = random_obj(DRM_MODE_OBJECT_CONNECTOR);
	char path[512];
	int f;

	if (chance(25)) {
		op_crc();
		return;
	}
	if (!o || o->writeback)
		return;
	if (chance(60)) {
		const char *s = sinks[below(ARRAY_SIZE(sinks))];

		if (!connector_debugfs(o, "mmx_sink", path, sizeof(path)))
			return;
		f = open(path, O_WRONLY);
		if (f < 0)
			return;
		note("sink %s <- %s: %zd", o->name, s, write(f, s, strlen(s)));
		close(f);
	} else {
		/* another connector's EDID, maybe damaged, or garbage */
		struct obj *src = random_obj(DRM_MODE_OBJECT_CONNECTOR);
		uint8_t edid[1024];
		ssize_t n = 0;

		if (src && !src->writeback &&
		    connector_debugfs(src, "mmx_edid", path, sizeof(path))) {
			f = open(path, O_RDONLY);
			if (f >= 0) {
				n = read(f, edid, sizeof(edid));
				close(f);
			}
		}
		if (n <= 0 || chance(15)) {
			n = 128 * (1 + below(4));
			for (ssize_t i = 0; i < n; i++)
				edid[i] = rnd();
		} else if (chance(40)) {
			edid[below(n)] ^= 1u << below(8);
		}
		if (!connector_debugfs(o, "mmx_edid", path, sizeof(path)))
			return;
		f = open(path, O_WRONLY);
		if (f < 0)
			return;
		note("edid %s <- %zd bytes: %zd", o->name, n, write(f, edid, n));
		close(f);
	}
	if (n_sched_pending == 0)
		check_can_light("sink change");
}

/* ------------------------------------------------------------------------ */
/* Operations of every process                                              */

static void op_fb(void)
{
	static const uint32_t odd_formats[] = {
		DRM_FORMAT_XRGB8888, DRM_FORMAT_ARGB8888, DRM_FORMAT_RGB565,
		DRM_FORMAT_XRGB2101010, DRM_FORMAT_NV12, DRM_FORMAT_YUV420,
		DRM_FORMAT_YUYV, DRM_FORMAT_P010, DRM_FORMAT_C8,
		DRM_FORMAT_ABGR16161616F, 0, 0x20202020,
	};
	uint32_t handles[4] = { 0 }, pitches[4] = { 0 }, offsets[4] = { 0 };
	uint64_t modifiers[4] = { 0 };
	uint32_t w, h, format, id, flags = 0;
	struct obj *pl;
	struct dumb *d;
	int ret, i;

	if (n_fbs && (chance(35) || n_fbs == MAX_FBS)) {
		int i = below(n_fbs);

		ret = drmModeRmFB(fd, fbs[i]);
		note("rmfb %u -> %d", fbs[i], ret);
		fbs[i] = fbs[--n_fbs];
		return;
	}
	if (chance(5)) {
		ret = drmModeRmFB(fd, (uint32_t)garbage());
		return;
	}
	if (!n_dumbs)
		return;
	d = &dumbs[below(n_dumbs)];
	pl = random_obj(DRM_MODE_OBJECT_PLANE);
	if (pl && pl->n_formats && chance(80))
		format = pl->formats[below(pl->n_formats)];
	else
		format = odd_formats[below(ARRAY_SIZE(odd_formats))];
	w = chance(80) ? 1 + below(d->width) : (uint32_t)garbage();
	h = chance(80) ? 1 + below(d->height) : (uint32_t)garbage();
	handles[0] = chance(95) ? d->handle : (uint32_t)garbage();
	pitches[0] = chance(60) ? d->pitch : chance(50) ? d->pitch + 4 * below(16) - 32 :
					      (uint32_t)garbage();
	offsets[0] = chance(70) ? 0 : chance(70) ? 4 * below(4096) :
					  (uint32_t)garbage();
	/* the other planes of a YUV format, mostly in the same buffer */
	for (i = 1; i < 3 && chance(70); i++) {
		handles[i] = chance(90) ? d->handle : (uint32_t)garbage();
		pitches[i] = chance(70) ? d->pitch / (1 + below(2)) :
					  (uint32_t)garbage();
		offsets[i] = chance(80) ? d->pitch * below(d->height) :
					  (uint32_t)garbage();
	}
	if (chance(10)) {
		flags = DRM_MODE_FB_MODIFIERS;
		modifiers[0] = chance(50) ? DRM_FORMAT_MOD_LINEAR : garbage();
	}
	ret = drmModeAddFB2WithModifiers(fd, w, h, format, handles, pitches,
					 offsets, modifiers, &id, flags);
	note("addfb %ux%u %.4s pitch %u offset %u -> %d", w, h,
	     (char *)&format, pitches[0], offsets[0], ret);
	if (!ret && n_fbs < MAX_FBS)
		fbs[n_fbs++] = id;
	else if (!ret)
		drmModeRmFB(fd, id);
}

static void op_dumb(void)
{
	struct dumb d;

	if (n_dumbs && (chance(30) || n_dumbs == MAX_DUMBS)) {
		int i = below(n_dumbs);

		/* framebuffers on it keep it alive: that is the point */
		dumb_destroy(dumbs[i].handle);
		dumbs[i] = dumbs[--n_dumbs];
		return;
	}
	if (chance(10)) {
		/* sizes the driver must refuse or survive */
		if (!dumb_create((uint32_t)garbage(), (uint32_t)garbage(),
				 (uint32_t)garbage() & 0xff, &d))
			dumb_destroy(d.handle);
		return;
	}
	if (dumb_create(1 + below(1024), 1 + below(768),
			chance(80) ? 32 : 8 * (1 + below(4)), &d))
		return;
	if (chance(50))
		dumb_touch(&d, rnd());
	dumbs[n_dumbs++] = d;
}

static void op_blob(void)
{
	static uint8_t data[65536];
	uint32_t id, size;

	if (n_blobs && (chance(40) || n_blobs == MAX_BLOBS)) {
		int i = below(n_blobs);

		drmModeDestroyPropertyBlob(fd, blobs[i]);
		blobs[i] = blobs[--n_blobs];
		return;
	}
	if (chance(5)) {
		drmModeDestroyPropertyBlob(fd, (uint32_t)garbage());
		return;
	}
	size = chance(70) ? 4 * below(64) + 4 : below(sizeof(data));
	for (uint32_t i = 0; i < size && i < 256; i++)
		data[i] = chance(70) ? 0 : rnd();
	if (!drmModeCreatePropertyBlob(fd, data, size, &id))
		blobs[n_blobs++] = id;
}

/* A non-master tries what only a master may do. */
static void op_not_master(void)
{
	struct obj *c = random_obj(DRM_MODE_OBJECT_CRTC);
	struct req r = { 0 };
	int ret;

	if (!c)
		return;
	req_set(&r, c, find_prop(c, "ACTIVE"), below(2));
	ret = req_commit(&r, pick_flags() & ~DRM_MODE_PAGE_FLIP_EVENT);
	if (ret != -EACCES)
		fail("non-master atomic commit: %s, not EACCES", strerror(-ret));
	if (chance(20) && drmSetMaster(fd) == 0) {
		/* nobody was master for a moment: give it straight back */
		drmDropMaster(fd);
	}
}

/* The master drops its master status and takes it back. */
static void op_master_cycle(void)
{
	int tries;

	drmDropMaster(fd);
	for (tries = 0; tries < 200 && drmSetMaster(fd); tries++)
		usleep(1000);
	if (tries == 200)
		fail("master could not get its master status back: %s",
		     strerror(errno));
}

/* ------------------------------------------------------------------------ */
/* Process bodies                                                           */

static bool kernel_tainted(void)
{
	char buf[32] = "";
	FILE *f = fopen("/proc/sys/kernel/tainted", "r");
	unsigned long v;

	if (!f)
		return false;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	v = strtoul(buf, NULL, 10);
	/* TAINT_DIE (bit 7), TAINT_WARN (bit 9), TAINT_BAD_PAGE (bit 5) */
	return v & ((1ul << 7) | (1ul << 9) | (1ul << 5));
}

static void run_op(enum area a, void (*fn)(void))
{
	uint64_t t0 = now_ns();

	fn();
	sh->ns[me][a] += now_ns() - t0;
	sh->ops[me][a]++;
}

/*
 * Everything off, every connector's SignalFormat and SignalProperties as
 * they were before the run (they outlive it, and the modes that the fbdev
 * emulation lights after it depend on them): the leak check compares the
 * driver's counters before and after.
 */
static struct req signal_req;

static void save_signals(void)
{
	int i, j;

	for (i = 0; i < n_objs; i++) {
		struct obj *o = &objs[i];

		for (j = 0; j < o->n_props; j++) {
			struct prop *p = &o->props[j];
			bool off = prop_is(p, "CRTC_ID") || prop_is(p, "FB_ID") ||
				   prop_is(p, "ACTIVE") || prop_is(p, "MODE_ID");
			bool signal = prop_is(p, "SignalFormat") ||
				      prop_is(p, "SignalProperties");
			uint64_t v = 0;

			if (p->flags & DRM_MODE_PROP_IMMUTABLE)
				continue;
			if (signal && read_prop(o, p, &v))
				req_set(&signal_req, o, p, v);
			else if (off)
				req_set(&signal_req, o, p, 0);
		}
	}
}

static void restore_signals(void)
{
	int ret = req_commit(&signal_req, DRM_MODE_ATOMIC_ALLOW_MODESET);

	if (ret)
		printf("mmx_fuzz: restoring the signals failed: %s\n",
		       strerror(-ret));
}

static void master_body(unsigned long long ops)
{
	bool tainted = kernel_tainted();

	save_signals();
	create_mode_blobs();
	build_start();
	restore_start();
	for (op_no = 0; op_no < ops; op_no++) {
		uint32_t r;

		rng_for_op(op_no);
		r = below(100);
		if (r < 36)
			run_op(A_ATOMIC, op_atomic);
		else if (r < 48)
			run_op(A_SIGNAL, op_signal);
		else if (r < 56)
			run_op(A_DPMS, op_dpms);
		else if (r < 64)
			run_op(A_FB, op_fb);
		else if (r < 68)
			run_op(A_DUMB, op_dumb);
		else if (r < 74)
			run_op(A_BLOB, op_blob);
		else if (r < 88)
			run_op(A_TIMED, op_timed);
		else if (r < 92)
			run_op(A_DEBUGFS, op_debugfs);
		else if (r < 93)
			run_op(A_MASTER, op_master_cycle);
		else if (r < 97)
			run_op(A_ATOMIC, restore_start);
		else
			read_events(0);
		read_events(0);
		if ((op_no & 63) == 63 && !tainted && kernel_tainted()) {
			tainted = true;
			fail("the kernel is tainted (WARN, BUG or Oops) within the last 64 ops");
		}
		sh->done[me] = op_no + 1;
	}
	wait_events(10);
	restore_signals();
}

static void other_body(unsigned long long ops)
{
	for (op_no = 0; op_no < ops; op_no++) {
		uint32_t r;

		rng_for_op(op_no);
		r = below(100);
		if (r < 40)
			run_op(A_FB, op_fb);
		else if (r < 60)
			run_op(A_DUMB, op_dumb);
		else if (r < 85)
			run_op(A_BLOB, op_blob);
		else
			run_op(A_MASTER, op_not_master);
		sh->done[me] = op_no + 1;
	}
}

static int open_mmx(const char *path)
{
	if (path)
		return open(path, O_RDWR | O_CLOEXEC);
	return mmx_card_open(NULL);
}

static void find_debugfs(void)
{
	DIR *d = opendir("/sys/kernel/debug/dri");
	struct dirent *de;

	debugfs[0] = 0;
	while (d && (de = readdir(d))) {
		char p[300], name[64] = "";
		FILE *f;

		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "/sys/kernel/debug/dri/%.64s/name",
			 de->d_name);
		f = fopen(p, "r");
		if (!f)
			continue;
		if (fgets(name, sizeof(name), f) && !strncmp(name, "mmx ", 4))
			snprintf(debugfs, sizeof(debugfs),
				 "/sys/kernel/debug/dri/%.64s", de->d_name);
		fclose(f);
	}
	if (d)
		closedir(d);
}

static void usage(FILE *out)
{
	fprintf(out,
		"Usage: mmx_fuzz [--seed S] [--ops N] [--procs P] [--no-kill]\n"
		"                [--device /dev/dri/cardN] [--verbose]\n"
		"Random KMS input against mmx; process 0 is master and judged.\n"
		"N operations in all (default 10000), shared by P processes\n"
		"(default 3; process 0 does half). Same seed and N: same\n"
		"operations.\n");
}

int main(int argc, char **argv)
{
	unsigned long long ops = 10000, seed = 0, mine;
	const char *device = NULL;
	int procs = 3, i, a, victim = -1;
	unsigned long long kill_at = 0;
	bool kill_one = true, seeded = false;
	pid_t pids[MAX_PROCS];
	uint64_t t_start, t_total, total_ops = 0, failures;
	int status, rc = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--seed") && i + 1 < argc) {
			seed = strtoull(argv[++i], NULL, 0);
			seeded = true;
		} else if (!strcmp(argv[i], "--ops") && i + 1 < argc) {
			ops = strtoull(argv[++i], NULL, 0);
		} else if (!strcmp(argv[i], "--procs") && i + 1 < argc) {
			procs = atoi(argv[++i]);
		} else if (!strcmp(argv[i], "--device") && i + 1 < argc) {
			device = argv[++i];
		} else if (!strcmp(argv[i], "--no-kill")) {
			kill_one = false;
		} else if (!strcmp(argv[i], "--verbose")) {
			verbose = true;
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else {
			usage(stderr);
			return 2;
		}
	}
	if (procs < 1 || procs > MAX_PROCS) {
		fprintf(stderr, "mmx_fuzz: --procs 1..%d\n", MAX_PROCS);
		return 2;
	}
	if (!seeded)
		seed = now_ns() ^ ((uint64_t)getpid() << 32);
	printf("mmx_fuzz: seed %llu ops %llu procs %d (replay: --seed %llu --ops %llu --procs %d)\n",
	       seed, ops, procs, seed, ops, procs);
	fflush(stdout);

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE,
		  MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED)
		return 2;
	memset(sh, 0, sizeof(*sh));

	/* the master opens first, the others after it holds master status */
	fd = open_mmx(device);
	if (fd < 0) {
		printf("mmx_fuzz: no mmx device\n");
		return 2;
	}
	if (drmSetMaster(fd) && errno != EINVAL) {
		/* the first opener is master already on older kernels */
	}
	drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
	drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	find_debugfs();
	load_objects();

	rng_state = seed * 0x9e3779b97f4a7c15ull + 1;
	if (procs > 1 && kill_one) {
		victim = procs - 1;
		kill_at = (ops / 2 / (procs - 1)) / 4 +
			  below((ops / 2 / (procs - 1)) / 2 + 1);
	}

	t_start = now_ns();
	for (i = 0; i < procs; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return 2;
		if (pids[i])
			continue;
		me = i;
		rng_base = (seed + 1) * 0x9e3779b97f4a7c15ull ^
			   (0xd1b54a32d192ed03ull * (i + 1));
		rng_for_op(~0ull);
		mine = procs == 1 ? ops : i == 0 ? ops / 2 :
		       (ops - ops / 2) / (procs - 1);
		if (i == 0) {
			master_body(mine);
		} else {
			close(fd);
			fd = open_mmx(device);
			if (fd < 0)
				_exit(2);
			drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1);
			drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1);
			other_body(mine);
		}
		_exit(0);
	}
	/* the parent keeps its fd open: the master's is a copy of it */
	if (victim >= 0) {
		while (sh->done[victim] < kill_at) {
			if (waitpid(pids[victim], &status, WNOHANG) == pids[victim]) {
				pids[victim] = 0;
				break;
			}
			usleep(2000);
		}
		if (pids[victim]) {
			kill(pids[victim], SIGKILL);
			printf("mmx_fuzz: killed process %d at its op %llu\n",
			       victim, (unsigned long long)sh->done[victim]);
		}
	}
	for (i = 0; i < procs; i++) {
		if (!pids[i])
			continue;
		waitpid(pids[i], &status, 0);
		if (i == victim)
			continue;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			printf("FAIL process %d ended with status 0x%x\n", i,
			       status);
			rc = 1;
		}
	}
	t_total = now_ns() - t_start;

	printf("%-8s %10s %10s %10s\n", "area", "ops", "seconds", "ops/s");
	for (a = 0; a < A_COUNT; a++) {
		uint64_t n = 0, ns = 0;

		for (i = 0; i < procs; i++) {
			n += sh->ops[i][a];
			ns += sh->ns[i][a];
		}
		if (a != A_ORACLE)
			total_ops += n;
		printf("%-8s %10" PRIu64 " %10.2f %10.0f\n", area_names[a], n,
		       ns / 1e9, ns ? n / (ns / 1e9) : 0.0);
	}
	printf("%-8s %10" PRIu64 " %10.2f %10.0f\n", "total", total_ops,
	       t_total / 1e9, total_ops / (t_total / 1e9));
	failures = sh->failures;
	if (kernel_tainted() && !failures) {
		printf("FAIL the kernel is tainted (WARN, BUG or Oops)\n");
		failures++;
	}
	printf("mmx_fuzz: %" PRIu64 " failures; seed %llu ops %llu procs %d\n",
	       failures, seed, ops, procs);
	printf("Subtest fuzz: %s\n", failures || rc ? "FAIL" : "SUCCESS");
	return failures || rc ? 1 : 0;
}
