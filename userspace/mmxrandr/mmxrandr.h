/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxrandr internals. The command line is handled in three stages, each
 * testable on the host without a device:
 *
 *   args.c   argv -> struct mmxr_request (syntax only, no libdrm, no state)
 *   plan.c   request + struct mmx_state snapshot -> struct mmxr_plan (a
 *            struct mmx_config for one mmx_apply(), plus the lines to print)
 *   print.c  struct mmx_state -> xrandr's query text
 *
 * main.c opens the display, runs the stages and applies the plan; nothing
 * is applied when parsing or planning fails.
 */

#ifndef MMXRANDR_H
#define MMXRANDR_H

#include <stdint.h>
#include <stdio.h>

#include "libmmx.h"

#define MMXR_VERSION		"0.1.0"
#define MMXR_ERR_LEN		256
#define MMXR_MAX_POINTER	32
/* --output options, and --set options of one output */
#define MMXR_MAX_OUTPUTS	16
#define MMXR_MAX_SET_PROPS	8
/* a --set value: what mmxd's records carry */
#define MMXR_MAX_VALUE		255
#define MMXR_MAX_CAPTURE	4

/* struct mmxr_output_req.changes: what the command line asked for */
#define MMXR_CH_MODE		(1u << 0)	/* --mode, --preferred, --off */
#define MMXR_CH_RATE		(1u << 1)	/* --rate */
#define MMXR_CH_POS		(1u << 2)	/* --pos */
#define MMXR_CH_ROTATE		(1u << 3)	/* --rotate */
#define MMXR_CH_REFLECT		(1u << 4)	/* --reflect */
#define MMXR_CH_RELATION	(1u << 5)	/* --left-of ... --same-as */
#define MMXR_CH_TRANSFORM	(1u << 6)	/* --transform, --scale(-from) */
#define MMXR_CH_FILTER		(1u << 7)	/* --filter */
#define MMXR_CH_PANNING		(1u << 8)	/* --panning */
#define MMXR_CH_PROPS		(1u << 9)	/* --set */
#define MMXR_CH_PRIMARY		(1u << 10)	/* --primary */
#define MMXR_CH_AUTO		(1u << 11)	/* --auto after --output */
#define MMXR_CH_CRTC		(1u << 12)	/* --crtc */

/* struct mmxr_output_req.mode_kind */
enum mmxr_mode_kind {
	MMXR_MODE_KEEP = 0,	/* the current mode (or none) */
	MMXR_MODE_NAME,		/* --mode NAME */
	MMXR_MODE_ID,		/* --mode 0xID */
	MMXR_MODE_PREFERRED,	/* --preferred */
	MMXR_MODE_OFF,		/* --off */
};

/* struct mmxr_output_req.relation */
enum mmxr_relation {
	MMXR_LEFT_OF = 0,
	MMXR_RIGHT_OF,
	MMXR_ABOVE,
	MMXR_BELOW,
	MMXR_SAME_AS,
};

/* struct mmxr_output_req.transform_kind */
enum mmxr_transform_kind {
	MMXR_XF_MATRIX = 0,	/* --transform (none: the identity) */
	MMXR_XF_SCALE,		/* --scale: matrix holds diag(sx, sy, 1) */
	MMXR_XF_SCALE_FROM,	/* --scale-from WxH: needs the mode */
	MMXR_XF_KEYSTONE,	/* --keystone: needs the mode */
};

/**
 * struct mmxr_output_req - what the command line asks of one output
 * @name: the --output argument (a name, or 0xID)
 * @changes: MMXR_CH_*
 * @mode_kind: enum mmxr_mode_kind
 * @mode_name: --mode NAME
 * @mode_id: --mode 0xID
 * @refresh: --rate, Hz
 * @x: --pos
 * @y: see @x
 * @rotate: MMX_ROTATE_* from --rotate
 * @reflect: MMX_REFLECT_* from --reflect
 * @relation: enum mmxr_relation
 * @relative_to: the other output's name
 * @transform_kind: enum mmxr_transform_kind
 * @matrix: --transform / --scale matrix, row-major
 * @transform_filter: filter implied by the transform option
 * @scale_from_w: --scale-from size
 * @scale_from_h: see @scale_from_w
 * @keystone: --keystone corners x1,y1 .. x4,y4
 * @filter: --filter, canonical name
 * @panning: --panning
 * @nprop: --set entries
 * @props: --set PROPERTY VALUE pairs
 * @crtc: --crtc argument (index, or 0xID)
 */
struct mmxr_output_req {
	const char *name;
	uint32_t changes;
	int mode_kind;
	const char *mode_name;
	uint32_t mode_id;
	double refresh;
	int32_t x;
	int32_t y;
	uint32_t rotate;
	uint32_t reflect;
	int relation;
	const char *relative_to;
	int transform_kind;
	double matrix[9];
	const char *transform_filter;
	uint32_t scale_from_w;
	uint32_t scale_from_h;
	double keystone[8];
	const char *filter;
	struct mmx_panning_info panning;
	unsigned int nprop;
	struct {
		const char *name;
		const char *value;
	} props[MMXR_MAX_SET_PROPS];
	const char *crtc;
};

/* struct mmxr_request.flags */
#define MMXR_VERBOSE		(1u << 0)	/* --verbose */
#define MMXR_PROPS		(1u << 1)	/* --prop */
#define MMXR_CURRENT		(1u << 2)	/* --current */
#define MMXR_QUERY		(1u << 3)	/* -q, --query */
#define MMXR_DRYRUN		(1u << 4)	/* --dryrun */
#define MMXR_HOLD		(1u << 5)	/* --hold */
#define MMXR_HELP		(1u << 6)	/* --help */
#define MMXR_VERSION_FLAG	(1u << 7)	/* --version */
#define MMXR_NOPRIMARY		(1u << 8)	/* --noprimary */
#define MMXR_AUTO_ALL		(1u << 9)	/* --auto before any --output */
#define MMXR_FB			(1u << 10)	/* --fb */
#define MMXR_PAN_MODE		(1u << 11)	/* --pan-mode */

/**
 * struct mmxr_request - the whole command line, parsed
 * @flags: MMXR_*
 * @display: --display SPEC, or NULL
 * @fb_width: --fb size
 * @fb_height: see @fb_width
 * @pan_mode: --pan-mode, enum mmx_pan_mode
 * @npointer: --pointer moves, in order
 * @pointer: their positions
 * @ncapture: --capture requests
 * @capture: output name and PPM file of each
 * @noutput: --output entries (one per distinct name)
 * @outputs: per-output requests, in command-line order
 */
struct mmxr_request {
	uint32_t flags;
	const char *display;
	uint32_t fb_width;
	uint32_t fb_height;
	uint32_t pan_mode;
	unsigned int npointer;
	struct {
		int32_t x;
		int32_t y;
	} pointer[MMXR_MAX_POINTER];
	unsigned int ncapture;
	struct {
		const char *output;
		const char *file;
	} capture[MMXR_MAX_CAPTURE];
	unsigned int noutput;
	struct mmxr_output_req outputs[MMXR_MAX_OUTPUTS];
};

/*
 * Parse argv (argv[0] is the program name). Pointers in @req point into
 * argv. Returns 0, or -EINVAL with a one-line message (no program name,
 * no newline) in @err.
 */
int mmxr_parse_args(int argc, char **argv, struct mmxr_request *req,
		    char *err, size_t errlen);

/* 1 when the request changes something (else it is a query). */
int mmxr_request_changes(const struct mmxr_request *req);

/* The --help text. */
void mmxr_usage(FILE *f);

/**
 * struct mmxr_plan - the request resolved against a snapshot
 * @cfg: the configuration for one mmx_apply() (MMX_CONFIG_TEST_ONLY with
 *	--dryrun); allocated by the first mmxr_plan(), reused by the next,
 *	freed by mmxr_plan_release()
 * @apply: 1 when @cfg changes something
 * @out: lines for stdout (keystone matrices; with --verbose or --dryrun
 *	xrandr's "crtc N: ..." and "screen ..." lines)
 * @warn: lines for stderr (xrandr's warnings)
 */
struct mmxr_plan {
	struct mmx_config *cfg;
	int apply;
	char out[4096];
	char warn[1024];
};

/*
 * Resolve @req against @s. @plan must be zeroed before its first use.
 * Returns 0, or -EINVAL (-ENOENT for a missing output or mode, -ENOMEM)
 * with a message in @err; @plan is then unusable but for another
 * mmxr_plan() or mmxr_plan_release().
 */
int mmxr_plan(const struct mmxr_request *req, const struct mmx_state *s,
	      struct mmxr_plan *plan, char *err, size_t errlen);

/* Free what mmxr_plan() allocated in @plan (not @plan itself). */
void mmxr_plan_release(struct mmxr_plan *plan);

/* Look an output up by name or 0xID. */
const struct mmx_output_info *mmxr_find_output(const struct mmx_state *s,
					       const char *name);

/* print.c: xrandr's query output. */
#define MMXR_PRINT_VERBOSE	(1u << 0)
#define MMXR_PRINT_PROPS	(1u << 1)
void mmxr_print_state(FILE *f, const struct mmx_state *s, uint32_t flags);
/* xrandr's vertical refresh of a mode, Hz. */
double mmxr_mode_refresh(const struct mmx_mode *m);
/* "normal", "left", "inverted", "right" of the rotation bits */
const char *mmxr_rotation_name(uint32_t rotation);
/* Rotations every CRTC of @o supports (xrandr's output_rotations). */
uint32_t mmxr_output_rotations(const struct mmx_state *s,
			       const struct mmx_output_info *o);

#endif /* MMXRANDR_H */
