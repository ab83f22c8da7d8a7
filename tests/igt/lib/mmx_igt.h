/* SPDX-License-Identifier: MIT */
/*
 * mmx_igt - a small IGT-style test library for the mmx KMS driver.
 *
 * What it offers:
 *  - a subtest runner (sigsetjmp based): every subtest is a function that
 *    returns on success, or leaves through mmx_assert*() (FAIL) or
 *    mmx_require()/mmx_skip() (SKIP); results are printed as
 *    "Subtest NAME: SUCCESS|SKIP|FAIL (1.234s)";
 *  - device discovery (the card whose driver is "mmx"), master, client caps;
 *  - the KMS topology mapped to outputs (CRTC, connector, writeback
 *    connector, primary/overlay/cursor planes);
 *  - property lookup by name, atomic request helpers, a restore-to-off reset
 *    run before and after every subtest;
 *  - dumb buffers + ADDFB2, pixel encoders for drawing and an independent
 *    software reference (format decode to ARGB8888 and DRM blending);
 *  - writeback capture, debugfs CRC reading, DRM event reading, vblank
 *    helpers, snapshots of all KMS properties for "nothing changed" checks.
 *
 * The reference code here is written from the documented uAPI semantics,
 * not from the driver: it must stay independent of drivers/gpu/drm/mmx.
 */
#ifndef MMX_IGT_H
#define MMX_IGT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <xf86drm.h>
#include <xf86drmMode.h>
#include <drm_fourcc.h>

#define MMX_MAX_OUTPUTS 8
#define MMX_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* ------------------------------------------------------------------------ */
/* Subtest runner                                                           */

struct mmx_dev;
struct mmx_fb;

/**
 * struct mmx_subtest - one subtest of a program
 * @name: dash-separated name, as printed and as selected by --subtest
 * @desc: one line saying what the subtest checks and why
 * @func: the body; returns normally on success
 * @func_arg: or a body taking @arg (for families of subtests)
 * @arg: argument of @func_arg
 */
struct mmx_subtest {
	const char *name;
	const char *desc;
	void (*func)(struct mmx_dev *dev);
	void (*func_arg)(struct mmx_dev *dev, const void *arg);
	const void *arg;
};

/**
 * mmx_main - parse the command line, open the device, run the subtests
 *
 * Options: --list, --describe, --subtest NAME[,NAME...] (glob patterns),
 * --outputs N, --connectors LIST (expected module parameters; default:
 * read from /sys/module/mmx/parameters), --verbose.
 *
 * Return: exit status, 0 when no subtest failed.
 */
int mmx_main(int argc, char **argv, const char *summary,
	     const struct mmx_subtest *tests, size_t n_tests);

/* A test program's main(): mmx_main() on the array TESTS (like igt_main). */
#define MMX_MAIN(summary, tests)					\
	int main(int argc, char **argv)					\
	{								\
		return mmx_main(argc, argv, summary, tests,		\
				MMX_ARRAY_SIZE(tests));			\
	}

/* Name of the subtest being run (for messages). */
const char *mmx_current_subtest(void);
extern bool mmx_verbose;

void mmx_fail_at(const char *file, int line, const char *func,
		 const char *fmt, ...)
	__attribute__((noreturn, format(printf, 4, 5)));
void mmx_skip_at(const char *file, int line, const char *fmt, ...)
	__attribute__((noreturn, format(printf, 3, 4)));
void mmx_info(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void mmx_debug(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#define mmx_assert(expr)						\
	do {								\
		if (!(expr))						\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "Failed assertion: %s", #expr);	\
	} while (0)

#define mmx_assert_f(expr, fmt, ...)					\
	do {								\
		if (!(expr))						\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "Failed assertion: %s: " fmt, #expr,	\
				    ##__VA_ARGS__);			\
	} while (0)

#define mmx_fail(fmt, ...)						\
	mmx_fail_at(__FILE__, __LINE__, __func__, fmt, ##__VA_ARGS__)

/* Integer comparisons that print both values. */
#define __mmx_assert_cmp(a, op, b, fmt, type)				\
	do {								\
		type __a = (a), __b = (b);				\
		if (!(__a op __b))					\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "Failed assertion: %s %s %s: got " fmt \
				    " %s " fmt, #a, #op, #b, __a, #op, __b); \
	} while (0)

#define mmx_assert_eq(a, b) __mmx_assert_cmp(a, ==, b, "%lld", long long)
#define mmx_assert_neq(a, b) __mmx_assert_cmp(a, !=, b, "%lld", long long)
#define mmx_assert_lt(a, b) __mmx_assert_cmp(a, <, b, "%lld", long long)
#define mmx_assert_lte(a, b) __mmx_assert_cmp(a, <=, b, "%lld", long long)
#define mmx_assert_gt(a, b) __mmx_assert_cmp(a, >, b, "%lld", long long)
#define mmx_assert_gte(a, b) __mmx_assert_cmp(a, >=, b, "%lld", long long)
#define mmx_assert_eq_u64(a, b)						\
	__mmx_assert_cmp(a, ==, b, "0x%llx", unsigned long long)
#define mmx_assert_neq_u64(a, b)					\
	__mmx_assert_cmp(a, !=, b, "0x%llx", unsigned long long)
#define mmx_assert_eq_str(a, b)						\
	do {								\
		const char *__a = (a), *__b = (b);			\
		if (!__a || !__b || strcmp(__a, __b))			\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "Failed assertion: %s == %s: got \"%s\" vs \"%s\"", \
				    #a, #b, __a ? __a : "(null)",	\
				    __b ? __b : "(null)");		\
	} while (0)

/* A call returning 0 or -errno must return 0. */
#define mmx_do(call)							\
	do {								\
		int __r = (call);					\
		if (__r)						\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "%s failed: %d (%s)", #call, __r,	\
				    __r < 0 ? strerror(-__r) : "?");	\
	} while (0)

/* A call returning 0 or -errno must return exactly -err. */
#define mmx_assert_err(call, err)					\
	do {								\
		int __r = (call);					\
		if (__r != -(err))					\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "%s: expected -%s (%d), got %d (%s)",	\
				    #call, #err, -(err), __r,		\
				    __r < 0 ? strerror(-__r) : "success"); \
	} while (0)

#define mmx_require(expr)						\
	do {								\
		if (!(expr))						\
			mmx_skip_at(__FILE__, __LINE__,			\
				    "Test requirement not met: %s", #expr); \
	} while (0)

#define mmx_require_f(expr, fmt, ...)					\
	do {								\
		if (!(expr))						\
			mmx_skip_at(__FILE__, __LINE__,			\
				    "Test requirement not met: %s: " fmt,	\
				    #expr, ##__VA_ARGS__);		\
	} while (0)

#define mmx_skip(fmt, ...) mmx_skip_at(__FILE__, __LINE__, fmt, ##__VA_ARGS__)

/* ------------------------------------------------------------------------ */
/* Device and topology                                                      */

enum mmx_plane_kind {
	MMX_PLANE_PRIMARY,
	MMX_PLANE_OVERLAY,
	MMX_PLANE_CURSOR,
};

/**
 * struct mmx_output - what belongs to CRTC @index
 *
 * The i-th non-writeback connector (GETRESOURCES order) is output i; the
 * writeback connector is the one whose encoder can only use CRTC i; planes
 * are assigned by their possible_crtcs (overlays sorted by plane id).
 */
struct mmx_output {
	int index;
	uint32_t crtc_id;
	uint32_t conn_id;
	uint32_t conn_type;
	uint32_t enc_id;
	uint32_t wb_conn_id;
	uint32_t primary;
	uint32_t overlay[2];
	uint32_t cursor;
	int n_overlays;
	drmModeModeInfo preferred;
	bool has_preferred;
	char name[32];		/* e.g. "eDP-1" (connector type + type id) */
};

struct mmx_expect {
	int outputs;
	int n_kinds;
	char kinds[MMX_MAX_OUTPUTS][16];
	bool from_cmdline;
};

/* The device, opened once per program, master, with all client caps. */
struct mmx_dev {
	int fd;
	int minor;
	char path[64];
	char debugfs[128];
	struct mmx_expect expect;

	int n_crtcs;
	uint32_t crtcs[32];
	int n_connectors;		/* with the writeback cap */
	uint32_t connectors[64];
	int n_encoders;
	uint32_t encoders[64];
	int n_planes;
	uint32_t planes[128];

	int n_outputs;
	struct mmx_output out[MMX_MAX_OUTPUTS];

	/* default values of mutable plane properties, restored by reset */
	struct {
		uint32_t plane;
		uint64_t zpos;
		bool has_zpos_mutable;
		bool has_alpha;
		bool has_blend;
		uint64_t blend_premulti;
	} plane_defaults[128];

	uint64_t cursor_w, cursor_h;
};

/* Connector kinds (module parameter names) and their DRM types. */
int mmx_kind_to_type(const char *kind);
const char *mmx_connector_type_name(uint32_t type);
/* The default connector list (first N of it for outputs=N). */
extern const char *const mmx_default_kinds[MMX_MAX_OUTPUTS];

/* Open another client on the same card (no master, caps as asked). */
int mmx_open_client(struct mmx_dev *d, bool atomic, bool writeback);

/* Plane type property value (DRM_PLANE_TYPE_*) or -1. */
int mmx_plane_type(struct mmx_dev *d, uint32_t plane_id);
uint32_t mmx_plane_of(struct mmx_output *o, enum mmx_plane_kind kind,
		      int n);
/*
 * Output 0 with all its planes (primary, two overlays, cursor) and a
 * writeback connector; fails the subtest otherwise.
 */
struct mmx_output *mmx_output0(struct mmx_dev *d);

/* ------------------------------------------------------------------------ */
/* Properties and atomic requests                                           */

/*
 * Look up property NAME on object OBJ (any type). Returns false if the object
 * has no such property; fills what is asked.
 */
bool mmx_prop_lookup(int fd, uint32_t obj, const char *name,
		     uint32_t *prop_id, uint64_t *value,
		     drmModePropertyRes **info);
/* Same, asserting the property exists. */
uint64_t mmx_prop_get(struct mmx_dev *d, uint32_t obj, const char *name);
uint32_t mmx_prop_id(struct mmx_dev *d, uint32_t obj, const char *name);
/* Value of enum entry ENAME of property NAME on OBJ (asserts it exists). */
uint64_t mmx_prop_enum(struct mmx_dev *d, uint32_t obj, const char *name,
		       const char *ename);

/* An atomic request builder on top of drmModeAtomicReq. */
struct mmx_req;
struct mmx_req *mmx_req_new(struct mmx_dev *d);
void mmx_req_add(struct mmx_req *r, uint32_t obj, const char *prop,
		 uint64_t value);
void mmx_req_add_id(struct mmx_req *r, uint32_t obj, uint32_t prop_id,
		    uint64_t value);
/* Commit (and free) the request on D's fd; returns 0 or -errno. */
int mmx_req_commit(struct mmx_req *r, uint32_t flags);
/* Same on another fd (e.g. a non-master client). */
int mmx_req_commit_fd(struct mmx_req *r, int fd, uint32_t flags);
void mmx_req_free(struct mmx_req *r);
/* user_data of the DRM_MODE_PAGE_FLIP_EVENT events of this request. */
void mmx_req_set_user_data(struct mmx_req *r, uint64_t user_data);

/* Planes: source rectangle in whole pixels (converted to 16.16). */
void mmx_req_plane(struct mmx_req *r, uint32_t plane, uint32_t crtc_id,
		   uint32_t fb_id, int src_x, int src_y, int src_w, int src_h,
		   int crtc_x, int crtc_y, int crtc_w, int crtc_h);
/* Same as the properties take it: a 16.16 source, any CRTC position. */
void mmx_req_plane_fixed(struct mmx_req *r, uint32_t plane, uint32_t crtc_id,
			 uint32_t fb_id, uint64_t src_x, uint64_t src_y,
			 uint64_t src_w, uint64_t src_h, int64_t crtc_x,
			 int64_t crtc_y, uint64_t crtc_w, uint64_t crtc_h);
void mmx_req_plane_off(struct mmx_req *r, uint32_t plane);
/* Every plane of O off but those of SHOWN[0..N). */
void mmx_req_planes_off_but(struct mmx_req *r, const struct mmx_output *o,
			    const uint32_t *shown, int n);

/* Outputs: connector -> CRTC, MODE_ID blob, ACTIVE. */
void mmx_req_output_on(struct mmx_req *r, struct mmx_output *o,
		       const drmModeModeInfo *mode);
void mmx_req_output_off(struct mmx_req *r, struct mmx_output *o);

/*
 * Modeset output O to MODE with FB (NULL: no primary plane) shown whole on
 * the primary plane at (X, Y); ALLOW_MODESET, blocking. Returns 0/-errno.
 */
int mmx_output_set(struct mmx_dev *d, struct mmx_output *o,
		   const drmModeModeInfo *mode, const struct mmx_fb *fb,
		   int x, int y);

/* Mode blobs (destroyed after the subtest). Asserts success. */
uint32_t mmx_mode_blob(struct mmx_dev *d, const drmModeModeInfo *mode);
/* Any blob; returns 0/-errno. Tracked and destroyed after the subtest. */
int mmx_blob_create(struct mmx_dev *d, const void *data, size_t size,
		    uint32_t *id);

/* Turn every output off, detach all planes and writeback connectors and
 * restore plane zpos/alpha/blend defaults. Asserts success. */
void mmx_reset(struct mmx_dev *d);

/* Snapshot of every property of every CRTC, connector and plane. */
struct mmx_snapshot {
	int n;
	struct mmx_snap_entry {
		uint32_t obj;
		uint32_t prop;
		uint64_t value;
	} *e;
};
void mmx_snapshot_take(struct mmx_dev *d, struct mmx_snapshot *s);
void mmx_snapshot_free(struct mmx_snapshot *s);
/* Assert the current state equals S (prints every difference). */
#define mmx_assert_unchanged(d, s)					\
	do {								\
		if (!mmx_snapshot_same(d, s))				\
			mmx_fail_at(__FILE__, __LINE__, __func__,	\
				    "KMS state changed after a failed commit"); \
	} while (0)
bool mmx_snapshot_same(struct mmx_dev *d, const struct mmx_snapshot *s);

/* ------------------------------------------------------------------------ */
/* Modes                                                                    */

/* A simple user mode W x H at REFRESH Hz (exact refresh when possible). */
void mmx_mode_make(drmModeModeInfo *m, int w, int h, int refresh);
/* The mode W x H of connector CONN (first one listed), false if none. */
bool mmx_mode_find(struct mmx_dev *d, uint32_t conn, int w, int h,
		   drmModeModeInfo *m);
/* Frame duration of MODE in nanoseconds (htotal * vtotal / clock). */
double mmx_mode_frame_ns(const drmModeModeInfo *m);
bool mmx_mode_equal(const drmModeModeInfo *a, const drmModeModeInfo *b);
void mmx_mode_print(const char *prefix, const drmModeModeInfo *m);

/* The small mode used by pixel tests: 320x240@60 (user mode). */
extern const drmModeModeInfo *mmx_small_mode(void);

/* ------------------------------------------------------------------------ */
/* Buffers                                                                  */

struct mmx_fb {
	struct mmx_dev *d;
	uint32_t id;
	uint32_t handle;
	uint32_t format;
	uint32_t width, height;
	uint32_t pitch;
	uint32_t offset;
	uint64_t size;
	uint8_t *map;
	int cpp;
	struct mmx_fb *next;	/* per-subtest tracking list */
};

int mmx_format_cpp(uint32_t format);
bool mmx_format_has_alpha(uint32_t format);
const char *mmx_format_name(uint32_t format);

/* The formats the contract promises. */
extern const uint32_t mmx_plane_formats[7];
extern const uint32_t mmx_wb_formats[2];

/* A dumb buffer of at least SIZE bytes, mapped. Returns 0/-errno. */
int mmx_bo_create(struct mmx_dev *d, uint64_t size, uint32_t *handle,
		  uint8_t **map, uint64_t *real_size);
void mmx_bo_destroy(struct mmx_dev *d, uint32_t handle, uint8_t *map,
		    uint64_t size);
/* The number of framebuffers of D's file (GETRESOURCES). */
int mmx_count_fbs(struct mmx_dev *d);
/* ADDFB2 with one plane; returns 0/-errno. */
int mmx_addfb(int fd, uint32_t w, uint32_t h, uint32_t format,
	      uint32_t handle, uint32_t pitch, uint32_t offset,
	      uint32_t *fb_id);

/* A framebuffer with tight pitch / with PITCH and OFFSET. Asserts success. */
struct mmx_fb *mmx_fb_new(struct mmx_dev *d, uint32_t w, uint32_t h,
			  uint32_t format);
struct mmx_fb *mmx_fb_new_ex(struct mmx_dev *d, uint32_t w, uint32_t h,
			     uint32_t format, uint32_t pitch,
			     uint32_t offset);
void mmx_fb_free(struct mmx_fb *fb);

static inline uint8_t *mmx_fb_ptr(const struct mmx_fb *fb, int x, int y)
{
	return fb->map + fb->offset + (size_t)y * fb->pitch +
	       (size_t)x * fb->cpp;
}

uint32_t mmx_fb_get_raw(const struct mmx_fb *fb, int x, int y);
void mmx_fb_put_raw(struct mmx_fb *fb, int x, int y, uint32_t raw);
/* Encode an ARGB8888 colour into the FB's format (drawing helper). */
uint32_t mmx_encode(uint32_t format, uint32_t argb);
void mmx_fb_put(struct mmx_fb *fb, int x, int y, uint32_t argb);
void mmx_fb_fill(struct mmx_fb *fb, uint32_t argb);
void mmx_fb_rect(struct mmx_fb *fb, int x, int y, int w, int h,
		 uint32_t argb);

enum mmx_alpha_mode {
	MMX_ALPHA_ANY,		/* alpha bits random */
	MMX_ALPHA_BINARY,	/* alpha 0 or max */
	MMX_ALPHA_PREMULT,	/* r, g, b <= a (valid pre-multiplied) */
	MMX_ALPHA_BINARY_PREMULT, /* alpha 0 (then r = g = b = 0) or max */
};
/* Random raw pixels (deterministic for SEED); alpha constrained as asked. */
void mmx_fb_random(struct mmx_fb *fb, uint32_t seed, enum mmx_alpha_mode am);
/* A new FB (mmx_fb_new()) filled by mmx_fb_random(). */
struct mmx_fb *mmx_fb_new_random(struct mmx_dev *d, uint32_t w, uint32_t h,
				 uint32_t format, uint32_t seed,
				 enum mmx_alpha_mode am);
/* Copy FB contents pixel by pixel (same size) converting through ARGB. */
void mmx_fb_copy(struct mmx_fb *dst, const struct mmx_fb *src);

/* ------------------------------------------------------------------------ */
/* Software reference                                                       */

/* Decode one pixel of FORMAT at P to ARGB8888 (alpha 0xff for X formats). */
uint32_t mmx_ref_decode(uint32_t format, const uint8_t *p);

enum mmx_blend {
	MMX_BLEND_NONE,
	MMX_BLEND_PREMULTI,
	MMX_BLEND_COVERAGE,
};
extern const char *const mmx_blend_names[3];	/* property enum names */

struct mmx_ref_plane {
	const struct mmx_fb *fb;
	int src_x, src_y;	/* whole pixels */
	int crtc_x, crtc_y;
	int w, h;		/* src size == crtc size (no scaling) */
	uint16_t alpha;
	enum mmx_blend blend;
};

/* Expected frame: XRGB8888 pixels and a per-pixel tolerance. */
struct mmx_frame {
	int w, h;
	uint32_t *px;
	uint8_t *tol;
};

struct mmx_frame *mmx_frame_new(int w, int h);
void mmx_frame_free(struct mmx_frame *f);
/* Compose PLANES (bottom to top) over black into F. */
void mmx_ref_compose(struct mmx_frame *f, const struct mmx_ref_plane *planes,
		     int n);
/* A plane showing all of FB at (X, Y), opaque, pre-multiplied. */
struct mmx_ref_plane mmx_ref_fb(const struct mmx_fb *fb, int x, int y);

/*
 * Compare a captured XRGB8888/ARGB8888 FB with F; prints up to a few
 * mismatching pixels (and dumps PPMs to $MMX_IGT_DUMP if set).
 */
bool mmx_frame_check(const struct mmx_fb *got, const struct mmx_frame *f,
		     const char *what);

/* ------------------------------------------------------------------------ */
/* Writeback                                                                */

/* An XRGB8888 (or FORMAT) FB of MODE's size for writeback. */
struct mmx_fb *mmx_wb_fb(struct mmx_dev *d, const drmModeModeInfo *mode,
			 uint32_t format);
/*
 * Capture the current frame of output O into WB: one atomic commit attaching
 * the writeback connector with WRITEBACK_FB_ID and an out-fence, then wait
 * for the fence. Returns the commit's 0/-errno; asserts the fence signals.
 */
int mmx_wb_capture(struct mmx_dev *d, struct mmx_output *o,
		   struct mmx_fb *wb);
/*
 * Capture output O (in MODE) and compare it with PLANES (bottom to top)
 * composed by the reference; asserts a match. WHAT names the check.
 */
void mmx_check_output(struct mmx_dev *d, struct mmx_output *o,
		      const drmModeModeInfo *mode,
		      const struct mmx_ref_plane *planes, int n,
		      const char *what);
/* Wait for a sync_file fence; returns 0 or -ETIMEDOUT. */
int mmx_fence_wait(int fence, int timeout_ms);

/* ------------------------------------------------------------------------ */
/* CRC (debugfs)                                                            */

struct mmx_crc {
	int fd;
	int index;
	int values;		/* values per line seen in the last entry */
};

/* Select source "auto" and open crtc-INDEX/crc/data; returns 0/-errno. */
int mmx_crc_start(struct mmx_dev *d, int index, struct mmx_crc *c);
/* Next entry (blocks up to 5 s); returns 0/-errno (-ETIMEDOUT). */
int mmx_crc_next(struct mmx_crc *c, uint32_t *frame, uint32_t *crc);
void mmx_crc_stop(struct mmx_crc *c);
/*
 * Collect N CRCs of the current (static) frame of CRTC INDEX: starts the
 * capture, drops the first entries, reads N, stops. Asserts success.
 */
void mmx_crc_collect(struct mmx_dev *d, int index, int n, uint32_t *crcs,
		     uint32_t *frames);
/* One CRC of the current frame (asserts the collected ones are equal). */
uint32_t mmx_crc_get(struct mmx_dev *d, int index);

/* ------------------------------------------------------------------------ */
/* Events and vblank                                                        */

struct mmx_event {
	uint32_t type;		/* DRM_EVENT_* */
	uint64_t user_data;
	uint32_t sequence;	/* low 32 bits for the vblank kinds */
	uint64_t sequence64;	/* CRTC_SEQUENCE events */
	uint32_t crtc_id;
	int64_t ns;		/* CLOCK_MONOTONIC timestamp */
};

/* Next DRM event on FD (queued per fd); 0 or -ETIMEDOUT / -errno. */
int mmx_event_wait(int fd, int timeout_ms, struct mmx_event *ev);
/* Drop pending events of FD. */
void mmx_event_flush(int fd);

/* drmWaitVBlank on CRTC INDEX; returns 0/-errno. */
int mmx_vblank_wait(int fd, int index, uint32_t type, uint32_t seq,
		    drmVBlankReply *reply);

/*
 * The number after "KEY: " in debugfs crtc-INDEX/FILE (mmx_compose,
 * mmx_vblank), or -1 when the file or the key is missing.
 */
long long mmx_crtc_stat(struct mmx_dev *d, int index, const char *file,
			const char *key);
/*
 * Vblanks CRTC INDEX missed since load (crtc-INDEX/mmx_vblank): the timer
 * expired more than a frame late and the count stepped by more than one.
 */
long long mmx_vblank_missed(struct mmx_dev *d, int index);
/*
 * Assert that an event WHAT due at vblank TARGET of CRTC INDEX, which came
 * at SEQ, came at TARGET; a later vblank is accepted (and logged) only when
 * the CRTC missed at least as many vblanks since MISSED_BEFORE (read with
 * mmx_vblank_missed() before the event was requested).
 */
void mmx_assert_vblank_seq(struct mmx_dev *d, int index,
			   long long missed_before, uint64_t seq,
			   uint64_t target, const char *what);

/*
 * Run ONCE(D, ARG), which returns whether its timing criteria held (its
 * correctness checks assert at once), up to five times; the first attempt
 * that meets them passes. The stall monitor (mmx_stall.h) measures the
 * longest guest stall of each attempt. If every attempt missed its criteria the subtest
 * fails when at least one of them ran without a stall longer than
 * FRAME_NS / 2, and is skipped (timing cannot be judged: TCG on a loaded
 * host) when all of them stalled.
 */
void mmx_timing_attempts(bool (*once)(struct mmx_dev *d, void *arg),
			 struct mmx_dev *d, void *arg, double frame_ns,
			 const char *what);

/* ioctl returning 0 or -errno, restarted on EINTR/EAGAIN. */
int mmx_ioctl(int fd, unsigned long request, void *arg);

int64_t mmx_now_ns(void);
void mmx_sleep_ms(int ms);

/* Stall monitor: lib/mmx_stall.h (usable without this header). */
#include "mmx_stall.h"

/* Reads a small sysfs/debugfs file into BUF; returns length or -errno. */
int mmx_read_file(const char *path, char *buf, size_t size);
int mmx_write_file(const char *path, const char *s);

#endif /* MMX_IGT_H */
