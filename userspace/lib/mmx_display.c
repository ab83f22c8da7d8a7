// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * libmmx's public entry points: opening a display (mmxd or a KMS device),
 * snapshots and their lookups, configuration requests and the RandR
 * request-shaped wrappers around them. The work is done by the display's
 * backend through its struct mmx_display_ops: the local one (mmx_kms*.c)
 * or the remote one (mmx_client.c).
 */

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <xf86drm.h>
#include <xf86drmMode.h>

#include "mmx_internal.h"
#include "mmx_pan_screen.h"

int mmx_error_set(struct mmx_error *err, int e, const char *fmt, ...)
{
	va_list ap;

	if (!err)
		return e;
	err->err = e;
	va_start(ap, fmt);
	vsnprintf(err->message, sizeof(err->message), fmt, ap);
	va_end(ap);
	return e;
}

static void error_clear(struct mmx_error *err)
{
	if (err)
		memset(err, 0, sizeof(*err));
}

/* First /dev/dri/cardN whose driver is a KMS driver with connectors. */
static int open_first_kms(void)
{
	char path[64];
	int i;

	for (i = 0; i < DRM_MAX_MINOR; i++) {
		drmModeResPtr res;
		int fd, ok;

		snprintf(path, sizeof(path), DRM_DEV_NAME, DRM_DIR_NAME, i);
		fd = open(path, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		res = drmModeGetResources(fd);
		ok = res && res->count_connectors > 0 && res->count_crtcs > 0;
		drmModeFreeResources(res);
		if (ok)
			return fd;
		close(fd);
	}
	return -ENODEV;
}

/* A display over an open local backend @k (closed on failure). */
static int display_local(struct mmx_kms *k, struct mmx_display **out)
{
	struct mmx_display *d = calloc(1, sizeof(*d));

	if (!d) {
		mmx_kms_close(k);
		return -ENOMEM;
	}
	d->ops = &mmx_kms_display_ops;
	d->backend = k;
	*out = d;
	return 0;
}

static int open_local(int fd, struct mmx_display **out)
{
	struct mmx_kms *k;
	int ret;

	ret = mmx_kms_open(fd, 1, &k);
	if (ret) {
		/* the backend owns @fd only once open succeeded */
		close(fd);
		return ret;
	}
	return display_local(k, out);
}

static int open_remote(const char *path, int tcp, struct mmx_display **out)
{
	struct mmx_display *d;
	struct mmx_client *c;
	int ret;

	ret = tcp ? mmx_client_connect_tcp(path, &c) :
		    mmx_client_connect(path, &c);
	if (ret)
		return ret;
	d = calloc(1, sizeof(*d));
	if (!d) {
		mmx_client_close(c);
		return -ENOMEM;
	}
	d->ops = &mmx_client_display_ops;
	d->backend = c;
	d->remote = c;
	*out = d;
	return 0;
}

static const char *default_socket(void)
{
	const char *env = getenv("MMX_SOCKET");

	return env && *env ? env : MMX_DEFAULT_SOCKET;
}

int mmx_open(const char *spec, struct mmx_display **out)
{
	int fd;

	if (!out)
		return -EINVAL;
	*out = NULL;

	if (!spec) {
		if (!open_remote(default_socket(), 0, out))
			return 0;
		spec = "local";
	}
	if (!strncmp(spec, "unix:", 5))
		return open_remote(spec + 5, 0, out);
	if (!strncmp(spec, "tcp:", 4))
		return open_remote(spec + 4, 1, out);
	if (!strcmp(spec, "local")) {
		fd = open_first_kms();
		if (fd < 0)
			return fd;
		return open_local(fd, out);
	}
	fd = open(spec, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	return open_local(fd, out);
}

int mmx_open_fd(int fd, struct mmx_display **out)
{
	struct mmx_kms *k;
	int ret;

	if (!out || fd < 0)
		return -EINVAL;
	*out = NULL;
	ret = mmx_kms_open(fd, 0, &k);
	if (ret)
		return ret;
	return display_local(k, out);
}

void mmx_close(struct mmx_display *d)
{
	if (!d)
		return;
	if (d->stream)
		mmx_stream_forget(d->stream);
	mmx_time_free(d->time);
	d->ops->close(d->backend);
	free(d);
}

int mmx_is_remote(const struct mmx_display *d)
{
	return d && d->remote;
}

int mmx_fd(const struct mmx_display *d)
{
	return d ? d->ops->kms_fd(d->backend) : -1;
}

static int get_state(struct mmx_display *d, int probe, struct mmx_state **out)
{
	struct mmx_state *s;
	int ret;

	if (!d || !out)
		return -EINVAL;
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	ret = d->ops->state(d->backend, probe, s);
	if (ret) {
		mmx_state_free(s);
		return ret;
	}
	*out = s;
	return 0;
}

int mmx_get_screen_resources(struct mmx_display *d, struct mmx_state **out)
{
	return get_state(d, 1, out);
}

int mmx_get_screen_resources_current(struct mmx_display *d,
				     struct mmx_state **out)
{
	return get_state(d, 0, out);
}

int mmx_screen_bbox(const struct mmx_crtc_info *crtcs, uint32_t n,
		    uint32_t *width, uint32_t *height)
{
	/* no minimum to grow to, no maximum to refuse */
	static const struct mmx_screen_limits any = { 0, 0, UINT32_MAX,
						      UINT32_MAX };
	uint32_t i, w, h;
	int ret = -ENOENT;

	if ((!crtcs && n) || !width || !height)
		return -EINVAL;
	*width = 0;
	*height = 0;
	for (i = 0; i < n; i++) {
		const struct mmx_crtc_info *ci = &crtcs[i];
		const struct mmx_screen_head head = {
			.on = ci->mode_valid,
			.x = ci->x,
			.y = ci->y,
			.bbox_x = ci->bbox_x,
			.bbox_y = ci->bbox_y,
			.bbox_w = ci->width,
			.bbox_h = ci->height,
			.pan_left = ci->panning.left,
			.pan_top = ci->panning.top,
			.pan_width = ci->panning.width,
			.pan_height = ci->panning.height,
		};

		if (mmx_screen_size_auto(&head, 1, &any, &w, &h))
			continue;
		ret = 0;
		if (w > *width)
			*width = w;
		if (h > *height)
			*height = h;
	}
	return ret;
}

int mmx_apply(struct mmx_display *d, const struct mmx_config *cfg,
	      struct mmx_error *err)
{
	error_clear(err);
	if (!d || !cfg)
		return mmx_error_set(err, -EINVAL, "no display or no config");
	return d->ops->apply(d->backend, cfg, err);
}

/* *@cfg: a new config with one output change *@change; 0 or @err set. */
static int one_change(uint32_t output, uint32_t flags, struct mmx_config **cfg,
		      struct mmx_output_change **change, struct mmx_error *err)
{
	if (!output)
		return mmx_error_set(err, -EINVAL, "output 0");
	if (mmx_config_new(cfg))
		return mmx_error_set(err, -ENOMEM, "out of memory");
	*change = mmx_config_output(*cfg, output);
	if (!*change) {
		mmx_config_free(*cfg);
		return mmx_error_set(err, -ENOMEM, "out of memory");
	}
	(*change)->flags = flags;
	return 0;
}

static int apply_free(struct mmx_display *d, struct mmx_config *cfg,
		      struct mmx_error *err)
{
	int ret = mmx_apply(d, cfg, err);

	mmx_config_free(cfg);
	return ret;
}

int mmx_set_output_property(struct mmx_display *d, uint32_t output,
			    const char *name, const char *value,
			    struct mmx_error *err)
{
	struct mmx_output_change *c;
	struct mmx_config *cfg;
	int ret;

	if (!name || !value)
		return mmx_error_set(err, -EINVAL, "bad property name or value");
	ret = one_change(output, MMX_CHANGE_PROPS, &cfg, &c, err);
	if (ret)
		return ret;
	ret = mmx_config_output_set_prop(cfg, output, name, value);
	if (ret) {
		mmx_config_free(cfg);
		return mmx_error_set(err, ret, "out of memory");
	}
	return apply_free(d, cfg, err);
}

int mmx_set_crtc_transform(struct mmx_display *d, uint32_t output,
			   const double matrix[9], const char *filter,
			   struct mmx_error *err)
{
	struct mmx_output_change *c;
	struct mmx_config *cfg;
	const char *canon = mmx_filter_canonical(filter ? filter : "nearest");
	int ret;

	if (!matrix || !canon)
		return mmx_error_set(err, -EINVAL, "bad matrix or filter \"%s\"",
				     filter ? filter : "");
	ret = one_change(output, MMX_CHANGE_TRANSFORM, &cfg, &c, err);
	if (ret)
		return ret;
	cfg->flags = MMX_CONFIG_PENDING_ONLY;
	memcpy(c->transform.matrix, matrix, sizeof(c->transform.matrix));
	c->transform.filter = canon;
	return apply_free(d, cfg, err);
}

int mmx_set_panning(struct mmx_display *d, uint32_t output,
		    const struct mmx_panning_info *p, struct mmx_error *err)
{
	struct mmx_output_change *c;
	struct mmx_config *cfg;
	int ret;

	if (!p)
		return mmx_error_set(err, -EINVAL, "no panning");
	ret = one_change(output, MMX_CHANGE_PANNING, &cfg, &c, err);
	if (ret)
		return ret;
	c->panning = *p;
	return apply_free(d, cfg, err);
}

int mmx_set_screen_size(struct mmx_display *d, uint32_t width,
			uint32_t height, struct mmx_error *err)
{
	struct mmx_config *cfg;

	if (mmx_config_new(&cfg))
		return mmx_error_set(err, -ENOMEM, "out of memory");
	mmx_config_set_screen_size(cfg, width, height);
	return apply_free(d, cfg, err);
}

int mmx_set_primary(struct mmx_display *d, uint32_t output,
		    struct mmx_error *err)
{
	struct mmx_config *cfg;

	if (mmx_config_new(&cfg))
		return mmx_error_set(err, -ENOMEM, "out of memory");
	mmx_config_set_primary(cfg, output);
	return apply_free(d, cfg, err);
}

int mmx_pointer_moved(struct mmx_display *d, int32_t x, int32_t y)
{
	if (!d)
		return -EINVAL;
	return d->ops->pointer_moved(d->backend, x, y);
}

int mmx_capture(struct mmx_display *d, uint32_t crtc, uint32_t *width,
		uint32_t *height, uint32_t **pixels)
{
	if (!d || !width || !height || !pixels)
		return -EINVAL;
	*pixels = NULL;
	return d->ops->capture(d->backend, crtc, width, height, pixels);
}
