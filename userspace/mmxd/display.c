// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxd's display: the request handlers' ops over libmmx's public API on a
 * local display, and the startup configuration.
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "mmxd.h"

static int display_state(void *ctx, int probe, struct mmx_state *out)
{
	struct mmx_display *d = ctx;
	struct mmx_state *s;
	int ret;

	ret = probe ? mmx_get_screen_resources(d, &s) :
		      mmx_get_screen_resources_current(d, &s);
	if (ret)
		return ret;
	/* @out takes the snapshot over, its arena with it */
	mmx_state_clear(out);
	*out = *s;
	free(s);
	return 0;
}

static int display_apply(void *ctx, const struct mmx_config *cfg,
			 struct mmx_error *err)
{
	return mmx_apply(ctx, cfg, err);
}

static int display_pointer_moved(void *ctx, int32_t x, int32_t y)
{
	return mmx_pointer_moved(ctx, x, y);
}

static int display_capture(void *ctx, uint32_t crtc, uint32_t *width,
			   uint32_t *height, uint32_t **pixels)
{
	return mmx_capture(ctx, crtc, width, height, pixels);
}

const struct mmx_display_ops mmxd_display_ops = {
	.state = display_state,
	.apply = display_apply,
	.pointer_moved = display_pointer_moved,
	.capture = display_capture,
};

/*
 * Every connected output at its preferred mode, side by side from the
 * left, into @cfg; the number of outputs planned.
 */
static uint32_t light_up_plan(const struct mmx_state *s,
			      struct mmx_config *cfg, int verbose)
{
	uint32_t i, n = 0;
	int32_t x = 0;

	for (i = 0; i < s->noutput; i++) {
		const struct mmx_output_info *o = &s->outputs[i];
		struct mmx_output_change *ch;

		if (o->connection != MMX_CONNECTED || !o->nmode)
			continue;
		ch = mmx_config_output(cfg, o->id);
		if (!ch)
			break;
		ch->flags |= MMX_CHANGE_MODE | MMX_CHANGE_POS;
		ch->mode = o->modes[0];
		ch->x = x;
		ch->y = 0;
		x += (int32_t)o->modes[0].width;
		if (verbose)
			mmxd_log(NULL, 0, "lighting %s at %s+%d+0", o->name,
				 o->modes[0].name, ch->x);
		n++;
	}
	return n;
}

int mmxd_light_up(struct mmx_display *d, int verbose)
{
	struct mmx_config cfg = { 0 };
	struct mmx_error err;
	struct mmx_state *s;
	uint32_t n;
	int ret;

	ret = mmx_get_screen_resources(d, &s);
	if (ret) {
		mmxd_log(NULL, 0, "reading the outputs failed: %s",
			 strerror(-ret));
		return ret;
	}
	/*
	 * What is lit now (fbcon's clone of its console) shows a framebuffer
	 * that is not ours: lay the screen out anew, on ours.
	 */
	n = light_up_plan(s, &cfg, verbose);
	mmx_state_free(s);
	ret = n ? mmx_apply(d, &cfg, &err) : 0;
	if (ret) {
		mmxd_log(NULL, 0, "lighting the outputs failed: %s",
			 err.message);
		/* not every output together: the first one alone */
		if (n > 1) {
			cfg.nchange = 1;
			ret = mmx_apply(d, &cfg, &err);
			if (ret)
				mmxd_log(NULL, 0,
					 "lighting one output failed: %s",
					 err.message);
			n = 1;
		}
	}
	mmx_config_clear(&cfg);
	return ret ? ret : (int)n;
}
