// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxrandr - an xrandr-compatible command line for mmx (and any KMS
 * driver), through libmmx: to mmxd when it runs, else on the device.
 *
 * Order of work: parse everything, take a snapshot, plan everything, then
 * one mmx_apply(); a parse or plan error applies nothing. Then the
 * --pointer moves, the --capture files, the query (when nothing was asked
 * to change, or with -q) and --hold.
 */

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mmxrandr.h"

static const char *prog = "mmxrandr";

static int usage_error(const char *msg)
{
	fprintf(stderr, "%s: %s\n", prog, msg);
	fprintf(stderr, "Try '%s --help' for more information.\n", prog);
	return 1;
}

/* Write XRGB8888 pixels as a binary PPM. */
static int write_ppm(const char *path, uint32_t w, uint32_t h,
		     const uint32_t *px)
{
	FILE *f = fopen(path, "wb");
	unsigned char *row;
	uint32_t x, y;
	int ret = 0;

	if (!f)
		return -errno;
	row = malloc((size_t)w * 3);
	if (!row) {
		fclose(f);
		return -ENOMEM;
	}
	fprintf(f, "P6\n%u %u\n255\n", w, h);
	for (y = 0; y < h && !ret; y++) {
		for (x = 0; x < w; x++) {
			uint32_t p = px[(size_t)y * w + x];

			row[x * 3 + 0] = (p >> 16) & 0xff;
			row[x * 3 + 1] = (p >> 8) & 0xff;
			row[x * 3 + 2] = p & 0xff;
		}
		if (fwrite(row, 3, w, f) != w)
			ret = -EIO;
	}
	free(row);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int get_state(struct mmx_display *d, int current, struct mmx_state **s)
{
	int ret = current ? mmx_get_screen_resources_current(d, s) :
		mmx_get_screen_resources(d, s);

	if (ret)
		fprintf(stderr, "%s: could not get screen resources: %s\n",
			prog, strerror(-ret));
	return ret;
}

static int do_capture(struct mmx_display *d, const char *name,
		      const char *file)
{
	const struct mmx_output_info *o;
	const struct mmx_crtc_info *c;
	struct mmx_state *s;
	uint32_t w, h, *px = NULL;
	int ret;

	ret = get_state(d, 1, &s);
	if (ret)
		return ret;
	o = mmxr_find_output(s, name);
	c = o && o->crtc ? mmx_state_crtc(s, o->crtc) : NULL;
	if (!o) {
		fprintf(stderr, "%s: cannot find output \"%s\"\n", prog, name);
		ret = -ENOENT;
	} else if (!c || !c->mode_valid) {
		fprintf(stderr, "%s: output %s is off: nothing to capture\n",
			prog, o->name);
		ret = -ENODEV;
	} else {
		ret = mmx_capture(d, c->id, &w, &h, &px);
		if (ret)
			fprintf(stderr, "%s: cannot capture output %s: %s\n",
				prog, o->name, strerror(-ret));
		else if ((ret = write_ppm(file, w, h, px)))
			fprintf(stderr, "%s: cannot write %s: %s\n", prog,
				file, strerror(-ret));
	}
	free(px);
	mmx_state_free(s);
	return ret;
}

static void hold(struct mmx_display *d)
{
	sigset_t set;
	int sig;

	if (mmx_is_remote(d)) {
		fprintf(stderr,
			"%s: --hold has no effect with mmxd: the daemon keeps the configuration\n",
			prog);
		return;
	}
	sigemptyset(&set);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigprocmask(SIG_BLOCK, &set, NULL);
	fprintf(stderr, "%s: holding the configuration until SIGINT or SIGTERM\n",
		prog);
	fflush(stdout);
	while (sigwait(&set, &sig))
		;
}

/* Plan @req's changes against the screen, print the plan and apply it. */
static int plan_and_apply(struct mmx_display *d, const struct mmxr_request *req,
			  struct mmxr_plan *plan)
{
	struct mmx_state *s = NULL;
	struct mmx_error merr;
	char err[MMXR_ERR_LEN];
	int ret;

	if (get_state(d, req->flags & MMXR_CURRENT, &s))
		return -1;
	ret = mmxr_plan(req, s, plan, err, sizeof(err));
	mmx_state_free(s);
	if (ret) {
		usage_error(err);
		return -1;
	}
	fputs(plan->warn, stderr);
	fputs(plan->out, stdout);
	fflush(stdout);
	if (!plan->apply)
		return 0;
	memset(&merr, 0, sizeof(merr));
	ret = mmx_apply(d, plan->cfg, &merr);
	if (ret) {
		fprintf(stderr, "%s: %s\n", prog,
			merr.message[0] ? merr.message : strerror(-ret));
		return -1;
	}
	return 0;
}

static int apply_changes(struct mmx_display *d, const struct mmxr_request *req)
{
	struct mmxr_plan *plan = calloc(1, sizeof(*plan));
	int ret;

	if (!plan) {
		fprintf(stderr, "%s: out of memory\n", prog);
		return -1;
	}
	ret = plan_and_apply(d, req, plan);
	mmxr_plan_release(plan);
	free(plan);
	return ret;
}

/* --pointer: each position in turn. */
static int move_pointer(struct mmx_display *d, const struct mmxr_request *req)
{
	unsigned int k;
	int ret;

	for (k = 0; k < req->npointer; k++) {
		ret = mmx_pointer_moved(d, req->pointer[k].x,
					req->pointer[k].y);
		if (ret) {
			fprintf(stderr, "%s: --pointer %d,%d: %s\n", prog,
				req->pointer[k].x, req->pointer[k].y,
				strerror(-ret));
			return -1;
		}
	}
	return 0;
}

/* The query output, from the current state or, after @changes, a probe. */
static int print_query(struct mmx_display *d, const struct mmxr_request *req,
		       int changes)
{
	struct mmx_state *s;

	if (get_state(d, (req->flags & MMXR_CURRENT) || changes, &s))
		return -1;
	mmxr_print_state(stdout, s,
			 (req->flags & MMXR_VERBOSE ? MMXR_PRINT_VERBOSE : 0) |
			 (req->flags & MMXR_PROPS ? MMXR_PRINT_PROPS : 0));
	mmx_state_free(s);
	return 0;
}

/* Everything @req asks of the open display @d, in order; 0 or 1. */
static int run(struct mmx_display *d, const struct mmxr_request *req,
	       int changes, int query)
{
	unsigned int k;

	if (changes && apply_changes(d, req))
		return 1;
	if (move_pointer(d, req))
		return 1;
	for (k = 0; k < req->ncapture; k++)
		if (do_capture(d, req->capture[k].output, req->capture[k].file))
			return 1;
	if (query && print_query(d, req, changes))
		return 1;
	if (fflush(stdout)) {
		fprintf(stderr, "%s: write error: %s\n", prog, strerror(errno));
		return 1;
	}
	if (req->flags & MMXR_HOLD)
		hold(d);
	return 0;
}

int main(int argc, char **argv)
{
	struct mmxr_request req;
	struct mmx_display *d = NULL;
	char err[MMXR_ERR_LEN];
	int changes, query, ret, status;

	if (mmxr_parse_args(argc, argv, &req, err, sizeof(err)))
		return usage_error(err);
	if (req.flags & MMXR_HELP) {
		mmxr_usage(stdout);
		return 0;
	}
	changes = mmxr_request_changes(&req);
	if (req.flags & MMXR_VERSION_FLAG) {
		printf("%s program version       " MMXR_VERSION "\n", prog);
		if (!changes && !req.npointer && !req.ncapture &&
		    !(req.flags & (MMXR_QUERY | MMXR_VERBOSE | MMXR_PROPS |
				   MMXR_HOLD)))
			return 0;
	}
	query = (req.flags & MMXR_QUERY) ||
		(!changes && !req.npointer && !req.ncapture &&
		 !(req.flags & MMXR_HOLD));

	ret = mmx_open(req.display, &d);
	if (ret) {
		fprintf(stderr, "%s: can't open display %s: %s\n", prog,
			req.display ? req.display : "(default)",
			strerror(-ret));
		return 1;
	}
	status = run(d, &req, changes, query);
	mmx_close(d);
	return status;
}
