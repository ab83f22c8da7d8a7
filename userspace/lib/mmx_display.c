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
#include "mmx_pan.h"

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
		free(s);
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

void mmx_state_free(struct mmx_state *s)
{
	free(s);
}

uint32_t mmx_state_flags(const struct mmx_state *s)
{
	return s ? s->flags : 0;
}

uint32_t mmx_state_pan_mode(const struct mmx_state *s)
{
	return s ? s->pan_mode : 0;
}

const char *mmx_state_driver(const struct mmx_state *s)
{
	return s ? s->driver : NULL;
}

uint64_t mmx_state_timestamp(const struct mmx_state *s)
{
	return s ? s->timestamp : 0;
}

uint64_t mmx_state_config_timestamp(const struct mmx_state *s)
{
	return s ? s->config_timestamp : 0;
}

/* *@a = @x, *@b = @y, each where its pointer is set */
static void get_pair(uint32_t *a, uint32_t *b, uint32_t x, uint32_t y)
{
	if (a)
		*a = x;
	if (b)
		*b = y;
}

void mmx_state_screen_size(const struct mmx_state *s, uint32_t *width,
			   uint32_t *height)
{
	if (s)
		get_pair(width, height, s->screen_width, s->screen_height);
}

void mmx_state_min_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height)
{
	if (s)
		get_pair(width, height, s->min_width, s->min_height);
}

void mmx_state_max_size(const struct mmx_state *s, uint32_t *width,
			uint32_t *height)
{
	if (s)
		get_pair(width, height, s->max_width, s->max_height);
}

uint32_t mmx_state_primary(const struct mmx_state *s)
{
	return s ? s->primary : 0;
}

void mmx_state_pointer(const struct mmx_state *s, int32_t *x, int32_t *y)
{
	if (!s)
		return;
	if (x)
		*x = s->pointer_x;
	if (y)
		*y = s->pointer_y;
}

uint32_t mmx_state_noutputs(const struct mmx_state *s)
{
	if (!s)
		return 0;
	return s->noutput < MMX_MAX_OUTPUTS ? s->noutput : MMX_MAX_OUTPUTS;
}

uint32_t mmx_state_ncrtcs(const struct mmx_state *s)
{
	if (!s)
		return 0;
	return s->ncrtc < MMX_MAX_CRTCS ? s->ncrtc : MMX_MAX_CRTCS;
}

const struct mmx_output_info *mmx_state_output_at(const struct mmx_state *s,
						  uint32_t index)
{
	return index < mmx_state_noutputs(s) ? &s->outputs[index] : NULL;
}

const struct mmx_crtc_info *mmx_state_crtc_at(const struct mmx_state *s,
					      uint32_t index)
{
	return index < mmx_state_ncrtcs(s) ? &s->crtcs[index] : NULL;
}

const struct mmx_output_info *mmx_state_output(const struct mmx_state *s,
					       uint32_t id)
{
	uint32_t i;

	if (!s || !id)
		return NULL;
	for (i = 0; i < s->noutput && i < MMX_MAX_OUTPUTS; i++)
		if (s->outputs[i].id == id)
			return &s->outputs[i];
	return NULL;
}

const struct mmx_output_info *
mmx_state_output_by_name(const struct mmx_state *s, const char *name)
{
	uint32_t i;

	if (!s || !name)
		return NULL;
	for (i = 0; i < s->noutput && i < MMX_MAX_OUTPUTS; i++)
		if (!strcmp(s->outputs[i].name, name))
			return &s->outputs[i];
	return NULL;
}

const struct mmx_crtc_info *mmx_state_crtc(const struct mmx_state *s,
					   uint32_t id)
{
	uint32_t i;

	if (!s || !id)
		return NULL;
	for (i = 0; i < s->ncrtc && i < MMX_MAX_CRTCS; i++)
		if (s->crtcs[i].id == id)
			return &s->crtcs[i];
	return NULL;
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

const struct mmx_property *mmx_output_property(const struct mmx_output_info *o,
					       const char *name)
{
	uint32_t i;

	if (!o || !name)
		return NULL;
	for (i = 0; i < o->nprop && i < MMX_MAX_PROPS; i++)
		if (!strcmp(o->props[i].name, name))
			return &o->props[i];
	return NULL;
}

int mmx_config_new(struct mmx_config **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void mmx_config_free(struct mmx_config *cfg)
{
	free(cfg);
}

void mmx_config_reset(struct mmx_config *cfg)
{
	if (cfg)
		memset(cfg, 0, sizeof(*cfg));
}

void mmx_config_set_flags(struct mmx_config *cfg, uint32_t flags)
{
	if (cfg)
		cfg->flags = flags;
}

uint32_t mmx_config_flags(const struct mmx_config *cfg)
{
	return cfg ? cfg->flags : 0;
}

void mmx_config_set_screen_size(struct mmx_config *cfg, uint32_t width,
				uint32_t height)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_SCREEN_SIZE;
	cfg->screen_width = width;
	cfg->screen_height = height;
}

void mmx_config_set_primary(struct mmx_config *cfg, uint32_t output)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_PRIMARY;
	cfg->primary = output;
}

void mmx_config_set_pan_mode(struct mmx_config *cfg, uint32_t mode)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_PAN_MODE;
	cfg->pan_mode = mode;
}

struct mmx_output_change *mmx_config_output(struct mmx_config *cfg,
					    uint32_t output)
{
	struct mmx_output_change *c;
	uint32_t i;

	if (!cfg || !output)
		return NULL;
	for (i = 0; i < cfg->nchange && i < MMX_MAX_OUTPUTS; i++)
		if (cfg->changes[i].output == output)
			return &cfg->changes[i];
	if (cfg->nchange >= MMX_MAX_OUTPUTS)
		return NULL;
	c = &cfg->changes[cfg->nchange++];
	memset(c, 0, sizeof(*c));
	c->output = output;
	return c;
}

uint32_t mmx_config_noutputs(const struct mmx_config *cfg)
{
	if (!cfg)
		return 0;
	return cfg->nchange < MMX_MAX_OUTPUTS ? cfg->nchange : MMX_MAX_OUTPUTS;
}

struct mmx_output_change *mmx_config_output_at(struct mmx_config *cfg,
					       uint32_t i)
{
	return i < mmx_config_noutputs(cfg) ? &cfg->changes[i] : NULL;
}

int mmx_apply(struct mmx_display *d, const struct mmx_config *cfg,
	      struct mmx_error *err)
{
	error_clear(err);
	if (!d || !cfg)
		return mmx_error_set(err, -EINVAL, "no display or no config");
	if (cfg->nchange > MMX_MAX_OUTPUTS)
		return mmx_error_set(err, -EINVAL, "%u output changes, at most %u",
				     cfg->nchange, MMX_MAX_OUTPUTS);
	return d->ops->apply(d->backend, cfg, err);
}

/* A config with one output change; NULL (and @err set) when out of memory. */
static struct mmx_config *one_change(uint32_t output, uint32_t flags,
				     struct mmx_output_change **change,
				     struct mmx_error *err)
{
	struct mmx_config *cfg;

	if (mmx_config_new(&cfg)) {
		mmx_error_set(err, -ENOMEM, "out of memory");
		return NULL;
	}
	*change = mmx_config_output(cfg, output);
	(*change)->flags = flags;
	return cfg;
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

	if (!name || !value || strlen(name) >= MMX_NAME_LEN ||
	    strlen(value) >= MMX_VALUE_LEN)
		return mmx_error_set(err, -EINVAL, "bad property name or value");
	cfg = one_change(output, MMX_CHANGE_PROPS, &c, err);
	if (!cfg)
		return -ENOMEM;
	c->nprop = 1;
	strcpy(c->props[0].name, name);
	strcpy(c->props[0].value, value);
	return apply_free(d, cfg, err);
}

int mmx_set_crtc_transform(struct mmx_display *d, uint32_t output,
			   const double matrix[9], const char *filter,
			   struct mmx_error *err)
{
	struct mmx_output_change *c;
	struct mmx_config *cfg;
	const char *canon = mmx_filter_canonical(filter ? filter : "nearest");

	if (!matrix || !canon)
		return mmx_error_set(err, -EINVAL, "bad matrix or filter \"%s\"",
				     filter ? filter : "");
	cfg = one_change(output, MMX_CHANGE_TRANSFORM, &c, err);
	if (!cfg)
		return -ENOMEM;
	cfg->flags = MMX_CONFIG_PENDING_ONLY;
	memcpy(c->transform.matrix, matrix, sizeof(c->transform.matrix));
	snprintf(c->transform.filter, sizeof(c->transform.filter), "%s", canon);
	return apply_free(d, cfg, err);
}

int mmx_set_panning(struct mmx_display *d, uint32_t output,
		    const struct mmx_panning_info *p, struct mmx_error *err)
{
	struct mmx_output_change *c;
	struct mmx_config *cfg;

	if (!p)
		return mmx_error_set(err, -EINVAL, "no panning");
	cfg = one_change(output, MMX_CHANGE_PANNING, &c, err);
	if (!cfg)
		return -ENOMEM;
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
