/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx: RandR 1.3 over KMS.
 *
 * A display (struct mmx_display) is either a KMS device opened directly
 * ("local") or a connection to the mmxd daemon ("remote"), with the same
 * API: the X model, where the daemon owns the configuration and clients
 * ask it for changes. Queries return a snapshot of the whole screen
 * (an opaque struct mmx_state: RandR's screen resources with every
 * output's and CRTC's info, properties, transforms and panning), read with
 * the mmx_state_*() accessors and freed with mmx_state_free(). Changes
 * are described by a configuration (an opaque struct mmx_config from
 * mmx_config_new(), filled with the mmx_config_*() setters and
 * mmx_config_output()) and applied in one atomic commit by mmx_apply().
 *
 * Every function but the snapshot accessors and lookups returns 0 or a
 * negative errno; no global state; a display may be used from one thread
 * at a time (thread-compatible).
 *
 * The ABI rule (libmmx.so.1, Documentation/libmmx.rst "ABI and SONAME"):
 * the structures libmmx hands out (struct mmx_output_info, mmx_crtc_info,
 * mmx_property, mmx_prop_enum, mmx_output_change, mmx_set_prop, and the
 * opaque mmx_state and mmx_config) are allocated only by libmmx; their
 * arrays are a pointer and a count, their strings const char *, all owned
 * by the snapshot (or the config) and valid until mmx_state_free() (or
 * mmx_config_free(), mmx_config_reset()); later versions only append
 * fields to them, so a caller never allocates one, copies one by value,
 * or depends on its size. The small value types struct mmx_mode,
 * mmx_transform_info, mmx_panning_info and mmx_error are frozen for 1.x:
 * their layout never changes, and callers may copy and allocate them
 * (a config's mode, transform and panning are set by value). Nothing here
 * has a count limit: every array holds what there is.
 *
 * On a KMS driver other than mmx, libmmx degrades: the RandR output
 * properties mmx does not expose are synthesised where they can be
 * (ConnectorType and ConnectorNumber from the DRM connector), transforms,
 * filters and panning report -EOPNOTSUPP (MMX_STATE_TRANSFORMS unset).
 */

#ifndef LIBMMX_H
#define LIBMMX_H

#include <stdint.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* struct mmx_mode.name, NUL included (drmModeModeInfo's name size). */
#define MMX_MODE_NAME_LEN	32

/* Default mmxd socket; $MMX_SOCKET overrides it. */
#define MMX_DEFAULT_SOCKET	"/run/mmx/mmxd.sock"

/* RandR's Rotation bits (randrproto.txt), the same values. */
#define MMX_ROTATE_0		(1u << 0)
#define MMX_ROTATE_90		(1u << 1)
#define MMX_ROTATE_180		(1u << 2)
#define MMX_ROTATE_270		(1u << 3)
#define MMX_REFLECT_X		(1u << 4)
#define MMX_REFLECT_Y		(1u << 5)

/* RandR's Connection values. */
#define MMX_CONNECTED		0
#define MMX_DISCONNECTED	1
#define MMX_UNKNOWN_CONNECTION	2

/* RandR's SubpixelOrder values. */
#define MMX_SUBPIXEL_UNKNOWN	0

/**
 * struct mmx_mode - a mode (RandR ModeInfo); a value type, frozen for 1.x
 * @id: mode id, unique in its snapshot (equal timings share an id)
 * @name: RandR's name, "WxH" (with "i" for interlaced), NUL-terminated
 * @width: horizontal active pixels
 * @height: vertical active lines
 * @clock: dot clock in kHz
 * @hsync_start: KMS timings, as in drmModeModeInfo
 * @hsync_end: see @hsync_start
 * @htotal: see @hsync_start
 * @hskew: see @hsync_start
 * @vsync_start: see @hsync_start
 * @vsync_end: see @hsync_start
 * @vtotal: see @hsync_start
 * @vscan: see @hsync_start
 * @flags: DRM_MODE_FLAG_*
 * @type: DRM_MODE_TYPE_*
 * @refresh_mhz: vertical refresh in mHz, computed from the timings
 */
struct mmx_mode {
	uint32_t id;
	char name[MMX_MODE_NAME_LEN];
	uint32_t width;
	uint32_t height;
	uint32_t clock;
	uint16_t hsync_start;
	uint16_t hsync_end;
	uint16_t htotal;
	uint16_t hskew;
	uint16_t vsync_start;
	uint16_t vsync_end;
	uint16_t vtotal;
	uint16_t vscan;
	uint32_t flags;
	uint32_t type;
	uint32_t refresh_mhz;
};

/* struct mmx_property.type */
enum mmx_prop_type {
	MMX_PROP_RANGE = 1,		/* unsigned range [min, max] */
	MMX_PROP_SIGNED_RANGE = 2,	/* signed range [min, max] */
	MMX_PROP_ENUM = 3,
	MMX_PROP_BITMASK = 4,
	MMX_PROP_BLOB = 5,
	MMX_PROP_OBJECT = 6,
};

/* struct mmx_property.flags */
#define MMX_PROP_IMMUTABLE	(1u << 0)
/* Synthesised by libmmx, not a KMS property (degraded drivers). */
#define MMX_PROP_SYNTHETIC	(1u << 1)

/**
 * struct mmx_prop_enum - one value of an enum or bitmask property
 * @name: its name, owned by the snapshot
 * @value: enum value, or bit number for a bitmask
 */
struct mmx_prop_enum {
	const char *name;
	uint64_t value;
};

/**
 * struct mmx_property - an output property (RandR GetOutputProperty and
 * QueryOutputProperty in one); owned by its snapshot
 * @name: its name ("EDID", "SignalFormat", "link-status", ...)
 * @type: enum mmx_prop_type
 * @flags: MMX_PROP_*
 * @id: KMS property id (0 when synthetic)
 * @nenum: entries in @enums (enum, bitmask)
 * @blob_len: bytes in @blob (blob: the whole blob)
 * @pad: 0
 * @min: lower end of a range (signed ranges: as int64_t)
 * @max: upper end of a range
 * @value: current value (blob: the blob id)
 * @enums: the supported values (NULL when @nenum is 0)
 * @blob: the blob's content (NULL when @blob_len is 0)
 */
struct mmx_property {
	const char *name;
	uint32_t type;
	uint32_t flags;
	uint32_t id;
	uint32_t nenum;
	uint32_t blob_len;
	uint32_t pad;
	uint64_t min;
	uint64_t max;
	uint64_t value;
	struct mmx_prop_enum *enums;
	uint8_t *blob;
};

/**
 * struct mmx_output_info - an output (RandR GetOutputInfo); owned by its
 * snapshot, as are its arrays (NULL when their count is 0) and strings
 * @id: KMS connector id (RandR's output XID)
 * @connection: MMX_CONNECTED, MMX_DISCONNECTED or MMX_UNKNOWN_CONNECTION
 * @name: RandR name: "VGA-1", "DVI-I-1", "HDMI-1", "DP-1", "eDP-1",
 *	"LVDS-1", "TV-1", ... (kind and per-kind number, as Xorg's
 *	modesetting driver names them)
 * @crtc: CRTC id driving it, 0 when off
 * @mm_width: physical width in millimetres
 * @mm_height: physical height
 * @subpixel: RandR SubpixelOrder
 * @primary: 1 when this is the screen's primary output
 * @ncrtc: entries in @crtcs
 * @crtcs: CRTC ids that can drive it
 * @nclone: entries in @clones
 * @nmode: entries in @modes
 * @clones: outputs that can share its CRTC (connector ids)
 * @npreferred: the first @npreferred modes are preferred (RandR)
 * @nprop: entries in @props
 * @modes: its modes, preferred first, then as the driver lists them
 * @props: every property, KMS order, synthetic ones last
 */
struct mmx_output_info {
	uint32_t id;
	uint32_t connection;
	const char *name;
	uint32_t crtc;
	uint32_t mm_width;
	uint32_t mm_height;
	uint32_t subpixel;
	uint32_t primary;
	uint32_t ncrtc;
	uint32_t *crtcs;
	uint32_t nclone;
	uint32_t nmode;
	uint32_t *clones;
	uint32_t npreferred;
	uint32_t nprop;
	struct mmx_mode *modes;
	struct mmx_property *props;
};

/**
 * struct mmx_transform_info - a CRTC transform (RandR GetCrtcTransform);
 * a value type, frozen for 1.x
 * @matrix: row-major 3x3 matrix mapping an output pixel to the screen
 *	point it shows, relative to the CRTC position (RandR's meaning; the
 *	rotation/reflection is not included: it is applied first)
 * @filter: "nearest" or "bilinear" (the aliases fast/good/best are
 *	accepted on input and stored as their meaning); in a snapshot one of
 *	mmx_filter_canonical()'s static names, "" when unknown; in a change,
 *	a string the caller keeps until mmx_apply() (NULL or "" means
 *	"nearest")
 * @identity: 1 when @matrix is the identity
 * @pad: 0
 */
struct mmx_transform_info {
	double matrix[9];
	const char *filter;
	uint32_t identity;
	uint32_t pad;
};

/**
 * struct mmx_panning_info - a CRTC's panning (RandR GetPanning/SetPanning);
 * a value type, frozen for 1.x
 * @left: panning area, screen pixels
 * @top: see @left
 * @width: 0: no panning
 * @height: see @width
 * @track_left: tracking area; width/height 0 = the whole screen
 * @track_top: see @track_left
 * @track_width: see @track_left
 * @track_height: see @track_left
 * @border_left: borders at which the pointer starts panning
 * @border_top: see @border_left
 * @border_right: see @border_left
 * @border_bottom: see @border_left
 */
struct mmx_panning_info {
	uint32_t left;
	uint32_t top;
	uint32_t width;
	uint32_t height;
	uint32_t track_left;
	uint32_t track_top;
	uint32_t track_width;
	uint32_t track_height;
	int32_t border_left;
	int32_t border_top;
	int32_t border_right;
	int32_t border_bottom;
};

/**
 * struct mmx_crtc_info - a CRTC (RandR GetCrtcInfo, GetCrtcTransform,
 * GetPanning); owned by its snapshot, as are its arrays (NULL when their
 * count is 0)
 * @id: KMS CRTC id (RandR's CRTC XID)
 * @index: its index in KMS order
 * @x: position of the CRTC's origin on the screen
 * @y: see @x
 * @width: size of the screen area it shows: the bounding box of the
 *	transformed mode (RandR's GetCrtcInfo width/height)
 * @height: see @width
 * @bbox_x: the bounding box's origin relative to @x, @y (negative for
 *	some keystones)
 * @bbox_y: see @bbox_x
 * @mode_valid: 1 when the CRTC is on; @mode is then its mode
 * @rotation: current MMX_ROTATE_* | MMX_REFLECT_*
 * @rotations: supported rotations and reflections
 * @noutput: entries in @outputs
 * @npossible: entries in @possible
 * @pad: 0
 * @outputs: connector ids it drives
 * @possible: outputs it can drive
 * @mode: current mode
 * @pad2: 0
 * @pending: transform set but not yet applied (RandR's pending values)
 * @current: transform in effect
 * @panning: current panning (all zero: none)
 */
struct mmx_crtc_info {
	uint32_t id;
	uint32_t index;
	int32_t x;
	int32_t y;
	uint32_t width;
	uint32_t height;
	int32_t bbox_x;
	int32_t bbox_y;
	uint32_t mode_valid;
	uint32_t rotation;
	uint32_t rotations;
	uint32_t noutput;
	uint32_t npossible;
	uint32_t pad;
	uint32_t *outputs;
	uint32_t *possible;
	struct mmx_mode mode;
	uint32_t pad2;
	struct mmx_transform_info pending;
	struct mmx_transform_info current;
	struct mmx_panning_info panning;
};

/* mmx_state_flags() */
#define MMX_STATE_MMX_DRIVER	(1u << 0)	/* the driver is mmx */
#define MMX_STATE_TRANSFORMS	(1u << 1)	/* TRANSFORM, filters, panning */
#define MMX_STATE_REMOTE	(1u << 2)	/* snapshot came from mmxd */
#define MMX_STATE_WRITEBACK	(1u << 3)	/* mmx_capture() works */

/* Multi-head panning (mmx_state_pan_mode(), struct mmx_config). */
enum mmx_pan_mode {
	/* each CRTC follows the pointer inside its own panning area */
	MMX_PAN_INDEPENDENT = 0,
	/* the panned CRTCs move together by the same offset: one viewport */
	MMX_PAN_JOINT = 1,
};

/*
 * A snapshot of the screen (RandR GetScreenResources, GetScreenInfo and
 * every output's and CRTC's info): an opaque handle, from
 * mmx_get_screen_resources() or mmx_get_screen_resources_current(), read
 * with the mmx_state_*() accessors below, freed with mmx_state_free().
 */
struct mmx_state;

/* struct mmx_output_change.flags: what to change */
#define MMX_CHANGE_MODE		(1u << 0)	/* set @mode (turns the output on) */
#define MMX_CHANGE_POS		(1u << 1)	/* set @x, @y */
#define MMX_CHANGE_ROTATION	(1u << 2)	/* set @rotation */
#define MMX_CHANGE_TRANSFORM	(1u << 3)	/* set @transform (pending) */
#define MMX_CHANGE_FILTER	(1u << 4)	/* set @transform.filter only */
#define MMX_CHANGE_PANNING	(1u << 5)	/* set @panning */
#define MMX_CHANGE_OFF		(1u << 6)	/* turn the output off */
#define MMX_CHANGE_CRTC		(1u << 7)	/* drive it with @crtc */
#define MMX_CHANGE_PROPS	(1u << 8)	/* set @props */

/**
 * struct mmx_set_prop - a property to set, RandR ChangeOutputProperty;
 * owned by its config (mmx_config_output_set_prop())
 * @name: property name
 * @value: value as text: a number, an enum name, or for a bitmask the
 *	names of the bits separated by commas
 */
struct mmx_set_prop {
	const char *name;
	const char *value;
};

/**
 * struct mmx_output_change - the changes of one output; owned by its
 * config (mmx_config_output())
 * @output: connector id
 * @flags: MMX_CHANGE_*
 * @x: new position
 * @y: see @x
 * @rotation: MMX_ROTATE_* | MMX_REFLECT_*
 * @crtc: CRTC id to use (MMX_CHANGE_CRTC), else libmmx picks: the
 *	output's current CRTC, then a free one it can use
 * @mode: new mode; @mode.id may be 0 (the timings count)
 * @pad0: 0
 * @transform: new transform (becomes pending; applied by this config
 *	unless MMX_CONFIG_PENDING_ONLY)
 * @panning: new panning (all zero: none)
 * @nprop: entries in @props
 * @pad: 0
 * @props: properties to set, read-only: mmx_config_output_set_prop()
 *	adds them (NULL when @nprop is 0)
 */
struct mmx_output_change {
	uint32_t output;
	uint32_t flags;
	int32_t x;
	int32_t y;
	uint32_t rotation;
	uint32_t crtc;
	struct mmx_mode mode;
	uint32_t pad0;
	struct mmx_transform_info transform;
	struct mmx_panning_info panning;
	uint32_t nprop;
	uint32_t pad;
	const struct mmx_set_prop *props;
};

/* mmx_config_flags(): mmx_config_set_*() set the first three */
#define MMX_CONFIG_SCREEN_SIZE	(1u << 0)	/* set the screen size */
#define MMX_CONFIG_PRIMARY	(1u << 1)	/* set the primary (0: none) */
#define MMX_CONFIG_PAN_MODE	(1u << 2)	/* set the pan mode */
#define MMX_CONFIG_TEST_ONLY	(1u << 3)	/* check, change nothing */
#define MMX_CONFIG_PENDING_ONLY	(1u << 4)	/* record transforms, no commit */

/*
 * A configuration request (RandR SetScreenSize, SetCrtcConfig,
 * SetCrtcTransform, SetPanning, SetOutputPrimary, ChangeOutputProperty for
 * many outputs, applied in one atomic commit): an opaque handle from
 * mmx_config_new(), filled with the mmx_config_*() setters and
 * mmx_config_output(), applied with mmx_apply(), freed with
 * mmx_config_free(). Outputs without a change keep their state.
 */
struct mmx_config;

/**
 * struct mmx_error - why a request failed; a value type the caller
 * allocates (on its stack), frozen for 1.x
 * @err: the negative errno also returned
 * @message: one line for a human ("output VGA-1: mode 800x600 not ..."),
 *	NUL-terminated, cut at 255 bytes. An array rather than a pointer on
 *	purpose: the message outlives the display and the call, needs no
 *	free, and is filled even when there is no display to own it.
 */
struct mmx_error {
	int32_t err;
	char message[256];
};

struct mmx_display;

/*
 * Open a display. @spec: NULL (mmxd at $MMX_SOCKET or MMX_DEFAULT_SOCKET
 * when it answers, else the first KMS device with connectors),
 * "unix:PATH" (mmxd only), "local" (first KMS device only), or a device
 * path ("/dev/dri/card0").
 */
int mmx_open(const char *spec, struct mmx_display **out);
/* Use an already open KMS fd (not closed by mmx_close()). */
int mmx_open_fd(int fd, struct mmx_display **out);
void mmx_close(struct mmx_display *d);
/* 1 when @d talks to mmxd. */
int mmx_is_remote(const struct mmx_display *d);
/* The KMS fd of a local display, -1 for a remote one. */
int mmx_fd(const struct mmx_display *d);

/* RandR GetScreenResources: probes the outputs (slow: reads EDIDs). */
int mmx_get_screen_resources(struct mmx_display *d, struct mmx_state **out);
/* RandR GetScreenResourcesCurrent: never probes. */
int mmx_get_screen_resources_current(struct mmx_display *d,
				     struct mmx_state **out);
void mmx_state_free(struct mmx_state *s);

/*
 * The snapshot's accessors take the handle of mmx_get_screen_resources*();
 * given NULL they return 0 or NULL (and set nothing).
 */

/**
 * mmx_state_flags - what the display can do
 * @s: the snapshot
 *
 * Return: MMX_STATE_* bits
 */
uint32_t mmx_state_flags(const struct mmx_state *s);

/**
 * mmx_state_pan_mode - how the panned CRTCs follow the pointer
 * @s: the snapshot
 *
 * Return: enum mmx_pan_mode
 */
uint32_t mmx_state_pan_mode(const struct mmx_state *s);

/**
 * mmx_state_driver - the KMS driver's name
 * @s: the snapshot
 *
 * Return: a NUL-terminated string living as long as @s
 */
const char *mmx_state_driver(const struct mmx_state *s);

/**
 * mmx_state_timestamp - time of the last configuration change
 * @s: the snapshot
 *
 * Return: CLOCK_MONOTONIC ns
 */
uint64_t mmx_state_timestamp(const struct mmx_state *s);

/**
 * mmx_state_config_timestamp - time of the last probe
 * @s: the snapshot
 *
 * Return: CLOCK_MONOTONIC ns
 */
uint64_t mmx_state_config_timestamp(const struct mmx_state *s);

/**
 * mmx_state_screen_size - size of the screen framebuffer
 * @s: the snapshot
 * @width: set to its width (0 x 0 when libmmx owns none yet: then the
 *	bounding box of the lit CRTCs); may be NULL
 * @height: set to its height; may be NULL
 */
void mmx_state_screen_size(const struct mmx_state *s, uint32_t *width,
			   uint32_t *height);

/**
 * mmx_state_min_size - smallest screen (mode_config min)
 * @s: the snapshot
 * @width: set to the smallest width; may be NULL
 * @height: set to the smallest height; may be NULL
 */
void mmx_state_min_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height);

/**
 * mmx_state_max_size - largest screen (mode_config max)
 * @s: the snapshot
 * @width: set to the largest width; may be NULL
 * @height: set to the largest height; may be NULL
 */
void mmx_state_max_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height);

/**
 * mmx_state_primary - the primary output
 * @s: the snapshot
 *
 * Return: its connector id, 0 for none
 */
uint32_t mmx_state_primary(const struct mmx_state *s);

/**
 * mmx_state_pointer - last pointer position given to mmx_pointer_moved()
 * @s: the snapshot
 * @x: set to its x; may be NULL
 * @y: set to its y; may be NULL
 */
void mmx_state_pointer(const struct mmx_state *s, int32_t *x, int32_t *y);

/**
 * mmx_state_noutputs - number of outputs
 * @s: the snapshot
 *
 * Return: the outputs' count
 */
uint32_t mmx_state_noutputs(const struct mmx_state *s);

/**
 * mmx_state_ncrtcs - number of CRTCs
 * @s: the snapshot
 *
 * Return: the CRTCs' count
 */
uint32_t mmx_state_ncrtcs(const struct mmx_state *s);

/**
 * mmx_state_output_at - an output by its index
 * @s: the snapshot
 * @index: 0 to mmx_state_noutputs() - 1, KMS order
 *
 * Return: the output, living as long as @s; NULL when @index is out of
 * range
 */
const struct mmx_output_info *mmx_state_output_at(const struct mmx_state *s,
						  uint32_t index);

/**
 * mmx_state_crtc_at - a CRTC by its index
 * @s: the snapshot
 * @index: 0 to mmx_state_ncrtcs() - 1, KMS order
 *
 * The CRTCs are contiguous: mmx_state_crtc_at(@s, 0) is an array of
 * mmx_state_ncrtcs() of them (as mmx_screen_bbox() takes).
 *
 * Return: the CRTC, living as long as @s; NULL when @index is out of range
 */
const struct mmx_crtc_info *mmx_state_crtc_at(const struct mmx_state *s,
					      uint32_t index);

/**
 * mmx_state_output - an output by its connector id
 * @s: the snapshot
 * @id: connector id
 *
 * Return: the output, living as long as @s; NULL when absent
 */
const struct mmx_output_info *mmx_state_output(const struct mmx_state *s,
					       uint32_t id);
/**
 * mmx_state_output_by_name - an output by its RandR name
 * @s: the snapshot
 * @name: "VGA-1", "HDMI-1", ...
 *
 * Return: the output, living as long as @s; NULL when absent
 */
const struct mmx_output_info *
mmx_state_output_by_name(const struct mmx_state *s, const char *name);
/**
 * mmx_state_crtc - a CRTC by its id
 * @s: the snapshot
 * @id: KMS CRTC id
 *
 * Return: the CRTC, living as long as @s; NULL when absent
 */
const struct mmx_crtc_info *mmx_state_crtc(const struct mmx_state *s,
					   uint32_t id);
const struct mmx_property *mmx_output_property(const struct mmx_output_info *o,
					       const char *name);

/* Apply a configuration; on failure nothing changed and @err says why. */
int mmx_apply(struct mmx_display *d, const struct mmx_config *cfg,
	      struct mmx_error *err);
/**
 * mmx_config_new - allocate an empty configuration (no change)
 * @out: set to the config, to free with mmx_config_free()
 *
 * Return: 0, or -EINVAL (@out NULL) or -ENOMEM
 */
int mmx_config_new(struct mmx_config **out);
/* Free a config from mmx_config_new(); NULL is a no-op. */
void mmx_config_free(struct mmx_config *cfg);
/*
 * Empty @cfg again: no flag, no change, as from mmx_config_new(); the
 * entries mmx_config_output() gave are gone.
 */
void mmx_config_reset(struct mmx_config *cfg);
/**
 * mmx_config_set_flags - replace the flags of @cfg
 * @cfg: the config
 * @flags: MMX_CONFIG_*; the setters below add theirs, so to add
 *	MMX_CONFIG_TEST_ONLY or MMX_CONFIG_PENDING_ONLY pass
 *	mmx_config_flags(cfg) | MMX_CONFIG_...
 */
void mmx_config_set_flags(struct mmx_config *cfg, uint32_t flags);
/* The flags of @cfg (MMX_CONFIG_*); 0 when @cfg is NULL. */
uint32_t mmx_config_flags(const struct mmx_config *cfg);
/*
 * Set the screen size (adds MMX_CONFIG_SCREEN_SIZE); without it the
 * screen grows, or shrinks, to the bounding box of the lit CRTCs and their
 * panning areas, as xrandr does.
 */
void mmx_config_set_screen_size(struct mmx_config *cfg, uint32_t width,
				uint32_t height);
/* Set the primary output, 0 for none (adds MMX_CONFIG_PRIMARY). */
void mmx_config_set_primary(struct mmx_config *cfg, uint32_t output);
/* Set the pan mode, enum mmx_pan_mode (adds MMX_CONFIG_PAN_MODE). */
void mmx_config_set_pan_mode(struct mmx_config *cfg, uint32_t mode);
/**
 * mmx_config_output - the change entry of @output, added when absent
 * @cfg: the config
 * @output: connector id
 *
 * Return: the entry, living as long as @cfg (its address never changes),
 * zeroed but for @output when new; NULL when @output is 0 or memory runs
 * out
 */
struct mmx_output_change *mmx_config_output(struct mmx_config *cfg,
					    uint32_t output);
/**
 * mmx_config_output_set_prop - set a property of @output (RandR
 * ChangeOutputProperty)
 * @cfg: the config
 * @output: connector id; its change entry is added when absent
 * @name: property name
 * @value: value as text: a number, an enum name, or for a bitmask the
 *	names of the bits separated by commas
 *
 * Adds MMX_CHANGE_PROPS to the entry's flags; a second value for the same
 * @name replaces the first. @cfg keeps copies of @name and @value.
 *
 * Return: 0, -EINVAL (a NULL argument, @output 0) or -ENOMEM
 */
int mmx_config_output_set_prop(struct mmx_config *cfg, uint32_t output,
			       const char *name, const char *value);
/* The number of change entries of @cfg. */
uint32_t mmx_config_noutputs(const struct mmx_config *cfg);
/* Change entry @i (0 ... mmx_config_noutputs() - 1), NULL beyond. */
struct mmx_output_change *mmx_config_output_at(struct mmx_config *cfg,
					       uint32_t i);

/* Convenience wrappers over mmx_apply() (RandR request names). */
int mmx_set_output_property(struct mmx_display *d, uint32_t output,
			    const char *name, const char *value,
			    struct mmx_error *err);
int mmx_set_crtc_transform(struct mmx_display *d, uint32_t output,
			   const double matrix[9], const char *filter,
			   struct mmx_error *err);
int mmx_set_panning(struct mmx_display *d, uint32_t output,
		    const struct mmx_panning_info *p, struct mmx_error *err);
int mmx_set_screen_size(struct mmx_display *d, uint32_t width,
			uint32_t height, struct mmx_error *err);
int mmx_set_primary(struct mmx_display *d, uint32_t output,
		    struct mmx_error *err);

/*
 * The pointer moved to screen point (@x, @y): every CRTC with panning
 * follows it (RandR 1.3's policy, with transforms, per the state's
 * pan_mode), all in one atomic commit. -EOPNOTSUPP without transforms.
 * Locally it reads nothing from the kernel once libmmx knows the CRTCs:
 * after changing a CRTC's TRANSFORM or PANNING through mmx_fd() yourself,
 * take a snapshot (mmx_get_screen_resources_current()) before the next
 * motion.
 */
int mmx_pointer_moved(struct mmx_display *d, int32_t x, int32_t y);

/*
 * Capture what the CRTC sends to its output (writeback), XRGB8888, into
 * a malloc'ed buffer of @width * @height pixels the caller frees.
 * -EOPNOTSUPP without writeback.
 */
int mmx_capture(struct mmx_display *d, uint32_t crtc, uint32_t *width,
		uint32_t *height, uint32_t **pixels);

/* Matrices (row-major 3x3, RandR's meaning). */
void mmx_matrix_identity(double m[9]);
/* RandR's rotation/reflection of a @width x @height mode, as a matrix. */
int mmx_matrix_rotation(double m[9], uint32_t rotation, uint32_t width,
			uint32_t height);
void mmx_matrix_multiply(double out[9], const double a[9], const double b[9]);
int mmx_matrix_invert(double out[9], const double m[9]);
/* Map (x, y) by @m; -ERANGE when the third coordinate is not > 0. */
int mmx_matrix_apply(const double m[9], double x, double y, double *ox,
		     double *oy);
/*
 * Keystone: the projective matrix mapping the corners (0,0), (w,0),
 * (0,h), (w,h) of a @width x @height output onto @points (x1,y1 .. x4,y4,
 * the same order: top-left, top-right, bottom-left, bottom-right, as in
 * Documentation/mmx.rst's worked example). -EINVAL when three points are
 * collinear or the quadrilateral is not convex.
 */
int mmx_matrix_keystone(double m[9], uint32_t width, uint32_t height,
			const double points[8]);
/*
 * Bounding box (RandR GetCrtcInfo) of the @width x @height mode under
 * rotation @rotation then @transform (NULL: identity).
 */
int mmx_crtc_bbox(const double transform[9], uint32_t rotation,
		  uint32_t width, uint32_t height, int32_t *x, int32_t *y,
		  uint32_t *w, uint32_t *h);
/*
 * The screen size the lit CRTCs among @crtcs (@n of them, mode_valid set)
 * need, as xrandr computes it without --fb: the bounding box from the
 * screen origin of their screen areas (x + bbox_x + width, y + bbox_y +
 * height) and of their panning areas. The CRTCs may be a snapshot's or
 * planned ones. -ENOENT (and 0x0) when none is lit.
 */
int mmx_screen_bbox(const struct mmx_crtc_info *crtcs, uint32_t n,
		    uint32_t *width, uint32_t *height);

/* Filter names: "nearest", "bilinear", and RandR's "fast" (nearest),
 * "good", "best" (bilinear). Returns the canonical name or NULL. */
const char *mmx_filter_canonical(const char *name);

#ifdef __cplusplus
}
#endif

#endif /* LIBMMX_H */
