// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The local backend of libmmx: a KMS device through libdrm. This file
 * opens it and takes snapshots (RandR's GetScreenResources[Current] with
 * every output's and CRTC's info); mmx_kms_apply.c changes it.
 * Documentation/libmmx.rst describes the model.
 */

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drm/mmx_drm.h"
#include "mmx_kms.h"
#include "mmx_matrix.h"

/* Xorg modesetting's output kinds, indexed by DRM connector type. */
static const char *const mmx_kms_kind_names[] = {
	[DRM_MODE_CONNECTOR_Unknown] = "None",
	[DRM_MODE_CONNECTOR_VGA] = "VGA",
	[DRM_MODE_CONNECTOR_DVII] = "DVI-I",
	[DRM_MODE_CONNECTOR_DVID] = "DVI-D",
	[DRM_MODE_CONNECTOR_DVIA] = "DVI-A",
	[DRM_MODE_CONNECTOR_Composite] = "Composite",
	[DRM_MODE_CONNECTOR_SVIDEO] = "SVIDEO",
	[DRM_MODE_CONNECTOR_LVDS] = "LVDS",
	[DRM_MODE_CONNECTOR_Component] = "Component",
	[DRM_MODE_CONNECTOR_9PinDIN] = "DIN",
	[DRM_MODE_CONNECTOR_DisplayPort] = "DP",
	[DRM_MODE_CONNECTOR_HDMIA] = "HDMI",
	[DRM_MODE_CONNECTOR_HDMIB] = "HDMI-B",
	[DRM_MODE_CONNECTOR_TV] = "TV",
	[DRM_MODE_CONNECTOR_eDP] = "eDP",
	[DRM_MODE_CONNECTOR_VIRTUAL] = "Virtual",
	[DRM_MODE_CONNECTOR_DSI] = "DSI",
	[DRM_MODE_CONNECTOR_DPI] = "DPI",
};

/* RandR's ConnectorType values, in the order mmx numbers them (0..14). */
static const char *const mmx_kms_randr_types[] = {
	"unknown", "VGA", "DVI", "DVI-I", "DVI-A", "DVI-D", "HDMI", "Panel",
	"TV", "TV-Composite", "TV-SVideo", "TV-Component", "TV-SCART",
	"TV-C4", "DisplayPort",
};

/* ConnectorType (index in mmx_kms_randr_types) of a DRM connector type. */
static uint32_t mmx_kms_randr_type(uint32_t type)
{
	switch (type) {
	case DRM_MODE_CONNECTOR_VGA:
		return 1;
	case DRM_MODE_CONNECTOR_DVII:
		return 3;
	case DRM_MODE_CONNECTOR_DVIA:
		return 4;
	case DRM_MODE_CONNECTOR_DVID:
		return 5;
	case DRM_MODE_CONNECTOR_HDMIA:
	case DRM_MODE_CONNECTOR_HDMIB:
		return 6;
	case DRM_MODE_CONNECTOR_LVDS:
	case DRM_MODE_CONNECTOR_eDP:
	case DRM_MODE_CONNECTOR_DSI:
		return 7;
	case DRM_MODE_CONNECTOR_TV:
	case DRM_MODE_CONNECTOR_9PinDIN:
		return 8;
	case DRM_MODE_CONNECTOR_Composite:
		return 9;
	case DRM_MODE_CONNECTOR_SVIDEO:
		return 10;
	case DRM_MODE_CONNECTOR_Component:
		return 11;
	case DRM_MODE_CONNECTOR_DisplayPort:
		return 14;
	default:
		return 0;
	}
}

uint64_t mmx_kms_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* A libdrm return value (-1 with errno, or -errno) as -errno. */
int mmx_kms_errno(int ret)
{
	if (ret >= 0)
		return ret;
	if (ret == -1)
		return errno ? -errno : -EIO;
	return ret;
}

/**
 * mmx_kms_output_name - RandR's output name, as Xorg's modesetting driver
 * @buf: the name
 * @size: size of @buf
 * @type: DRM connector type
 * @type_id: DRM connector type id
 */
void mmx_kms_output_name(char *buf, size_t size, uint32_t type,
			 uint32_t type_id)
{
	size_t n = sizeof(mmx_kms_kind_names) / sizeof(mmx_kms_kind_names[0]);

	if (type < n && mmx_kms_kind_names[type])
		snprintf(buf, size, "%s-%u", mmx_kms_kind_names[type], type_id);
	else
		snprintf(buf, size, "Unknown%u-%u", type, type_id);
}

/* The name of property @id: learnt once per device, then remembered. */
static bool mmx_kms_prop_name(struct mmx_kms *k, uint32_t id, char *name)
{
	struct mmx_kms_prop_name *n;
	drmModePropertyPtr info;
	uint32_t i;

	for (i = 0; i < k->nname; i++) {
		if (k->names[i].id == id) {
			memcpy(name, k->names[i].name, DRM_PROP_NAME_LEN);
			return true;
		}
	}
	info = drmModeGetProperty(k->fd, id);
	if (!info)
		return false;
	snprintf(name, DRM_PROP_NAME_LEN, "%s", info->name);
	drmModeFreeProperty(info);
	if (k->nname < MMX_KMS_MAX_PROPS) {
		n = &k->names[k->nname++];
		n->id = id;
		memcpy(n->name, name, DRM_PROP_NAME_LEN);
	}
	return true;
}

/**
 * mmx_kms_props_get - read every property of a KMS object
 * @k: the display
 * @obj: object id
 * @type: DRM_MODE_OBJECT_*
 * @p: filled (at most %MMX_KMS_MAX_OBJ_PROPS)
 *
 * The values are read from the kernel every time; the names of the
 * properties only the first time a property id is seen (a property's id
 * and name never change while the device is open).
 *
 * Return: 0 or -errno.
 */
int mmx_kms_props_get(struct mmx_kms *k, uint32_t obj, uint32_t type,
		      struct mmx_kms_props *p)
{
	drmModeObjectPropertiesPtr props;
	uint32_t i;

	p->n = 0;
	props = drmModeObjectGetProperties(k->fd, obj, type);
	if (!props)
		return errno ? -errno : -ENOENT;
	for (i = 0; i < props->count_props && p->n < MMX_KMS_MAX_OBJ_PROPS;
	     i++) {
		if (!mmx_kms_prop_name(k, props->props[i], p->name[p->n]))
			continue;
		p->id[p->n] = props->props[i];
		p->value[p->n] = props->prop_values[i];
		p->n++;
	}
	drmModeFreeObjectProperties(props);
	return 0;
}

bool mmx_kms_props_find(const struct mmx_kms_props *p, const char *name,
			uint32_t *id, uint64_t *value)
{
	uint32_t i;

	for (i = 0; i < p->n; i++) {
		if (strcmp(p->name[i], name))
			continue;
		if (id)
			*id = p->id[i];
		if (value)
			*value = p->value[i];
		return true;
	}
	return false;
}

/*
 * Vertical refresh from the timings in units of 1/@per_hz Hz, rounded to
 * the nearest: 1 as the kernel rounds it (drm_mode_vrefresh()), 1000 for
 * mHz as xrandr computes it.
 */
static uint32_t mmx_kms_refresh(const drmModeModeInfo *d, uint32_t per_hz)
{
	uint64_t num = (uint64_t)d->clock * 1000 * per_hz, den;

	den = (uint64_t)d->htotal * d->vtotal;
	if (d->flags & DRM_MODE_FLAG_INTERLACE)
		num *= 2;
	if (d->flags & DRM_MODE_FLAG_DBLSCAN)
		den *= 2;
	if (d->vscan > 1)
		den *= d->vscan;
	return den ? (uint32_t)((num + den / 2) / den) : 0;
}

void mmx_kms_mode_from_drm(struct mmx_mode *m, const drmModeModeInfo *d)
{
	memset(m, 0, sizeof(*m));
	snprintf(m->name, sizeof(m->name), "%ux%u%s", d->hdisplay,
		 d->vdisplay, (d->flags & DRM_MODE_FLAG_INTERLACE) ? "i" : "");
	m->width = d->hdisplay;
	m->height = d->vdisplay;
	m->clock = d->clock;
	m->hsync_start = d->hsync_start;
	m->hsync_end = d->hsync_end;
	m->htotal = d->htotal;
	m->hskew = d->hskew;
	m->vsync_start = d->vsync_start;
	m->vsync_end = d->vsync_end;
	m->vtotal = d->vtotal;
	m->vscan = d->vscan;
	m->flags = d->flags;
	m->type = d->type;
	m->refresh_mhz = mmx_kms_refresh(d, 1000);
}

/* mmx_kms_mode_to_drm - see mmx_kms_mode.h */
void mmx_kms_mode_to_drm(drmModeModeInfo *d, const struct mmx_mode *m)
{
	memset(d, 0, sizeof(*d));
	d->clock = m->clock;
	d->hdisplay = (uint16_t)m->width;
	d->hsync_start = m->hsync_start;
	d->hsync_end = m->hsync_end;
	d->htotal = m->htotal;
	d->hskew = m->hskew;
	d->vdisplay = (uint16_t)m->height;
	d->vsync_start = m->vsync_start;
	d->vsync_end = m->vsync_end;
	d->vtotal = m->vtotal;
	d->vscan = m->vscan;
	d->flags = m->flags;
	d->type = m->type ? m->type : DRM_MODE_TYPE_USERDEF;
	d->vrefresh = mmx_kms_refresh(d, 1);
	if (m->name[0])
		snprintf(d->name, sizeof(d->name), "%.*s",
			 (int)sizeof(d->name) - 1, m->name);
	else
		snprintf(d->name, sizeof(d->name), "%ux%u", m->width,
			 m->height);
}

/* Same timings (RandR compares modes by their timings, not names). */
static bool mmx_kms_mode_same(const struct mmx_mode *a,
			      const struct mmx_mode *b)
{
	return a->width == b->width && a->height == b->height &&
	       a->clock == b->clock && a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->hskew == b->hskew && a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       a->vscan == b->vscan && a->flags == b->flags;
}

bool mmx_kms_matrix_is_identity(const int64_t f[9])
{
	int i;

	for (i = 0; i < 9; i++)
		if (f[i] != ((i % 4) ? 0 : (int64_t)1 << 32))
			return false;
	return true;
}

static void mmx_kms_identity_fixed(int64_t f[9])
{
	int i;

	for (i = 0; i < 9; i++)
		f[i] = (i % 4) ? 0 : (int64_t)1 << 32;
}

static const char *mmx_kms_filter_name(uint64_t v)
{
	return v == MMX_TRANSFORM_FILTER_BILINEAR ? "bilinear" : "nearest";
}

/* Read blob @id of exactly @size bytes; false (and @buf zero) otherwise. */
static bool mmx_kms_blob_read(int fd, uint32_t id, void *buf, size_t size)
{
	drmModePropertyBlobPtr b;
	bool ok = false;

	memset(buf, 0, size);
	if (!id)
		return false;
	b = drmModeGetPropertyBlob(fd, id);
	if (!b)
		return false;
	if (b->length == size) {
		memcpy(buf, b->data, size);
		ok = true;
	}
	drmModeFreePropertyBlob(b);
	return ok;
}

/* Where CRTC @c's primary plane scans out from: now->fb, now->x, now->y. */
static int mmx_kms_primary_read(struct mmx_kms *k,
				const struct mmx_kms_crtc *c,
				struct mmx_kms_crtc_now *now)
{
	const struct mmx_kms_plane *pl = &k->planes[c->primary];
	uint64_t fb = 0, crtc = 0, sx = 0, sy = 0, cx = 0, cy = 0;
	struct mmx_kms_props p;
	int ret;

	ret = mmx_kms_props_get(k, pl->id, DRM_MODE_OBJECT_PLANE, &p);
	if (ret)
		return ret;
	mmx_kms_props_find(&p, "FB_ID", NULL, &fb);
	mmx_kms_props_find(&p, "CRTC_ID", NULL, &crtc);
	mmx_kms_props_find(&p, "SRC_X", NULL, &sx);
	mmx_kms_props_find(&p, "SRC_Y", NULL, &sy);
	mmx_kms_props_find(&p, "CRTC_X", NULL, &cx);
	mmx_kms_props_find(&p, "CRTC_Y", NULL, &cy);
	if (fb && crtc == c->id) {
		now->fb = (uint32_t)fb;
		now->x = (int32_t)(sx >> 16) - (int32_t)(int64_t)cx;
		now->y = (int32_t)(sy >> 16) - (int32_t)(int64_t)cy;
	}
	return 0;
}

/**
 * mmx_kms_crtc_read - what the kernel says a CRTC does
 * @k: the display
 * @index: CRTC index
 * @now: filled
 *
 * Reads the CRTC's and its primary plane's property values and the blobs
 * they name, and remembers the result for mmx_kms_crtc_known().
 *
 * Return: 0 or -errno.
 */
int mmx_kms_crtc_read(struct mmx_kms *k, uint32_t index,
		      struct mmx_kms_crtc_now *now)
{
	struct mmx_kms_crtc *c = &k->crtcs[index];
	struct mmx_kms_props p;
	uint64_t v;
	int ret;

	c->known = false;
	c->fb_sized = 0;
	memset(now, 0, sizeof(*now));
	mmx_kms_identity_fixed(now->matrix);
	now->x = c->x;
	now->y = c->y;
	ret = mmx_kms_props_get(k, c->id, DRM_MODE_OBJECT_CRTC, &p);
	if (ret)
		return ret;
	if (mmx_kms_props_find(&p, "ACTIVE", NULL, &v))
		now->active = v;
	if (mmx_kms_props_find(&p, "MODE_ID", NULL, &v) && v) {
		drmModePropertyBlobPtr b = drmModeGetPropertyBlob(k->fd,
								  (uint32_t)v);

		now->mode_blob = (uint32_t)v;
		if (b && b->length == sizeof(now->mode)) {
			memcpy(&now->mode, b->data, sizeof(now->mode));
			now->has_mode = true;
		}
		drmModeFreePropertyBlob(b);
	}
	if (mmx_kms_props_find(&p, "TRANSFORM", NULL, &v) && v) {
		struct drm_mmx_transform t;

		if (mmx_kms_blob_read(k->fd, (uint32_t)v, &t, sizeof(t)))
			memcpy(now->matrix, t.matrix, sizeof(now->matrix));
	}
	if (mmx_kms_props_find(&p, "TRANSFORM_FILTER", NULL, &v))
		now->filter = v;
	if (now->active && now->has_mode)
		now->panning = c->panning;
	if (c->primary >= 0) {
		ret = mmx_kms_primary_read(k, c, now);
		if (ret)
			return ret;
	}
	c->now = *now;
	c->known = true;
	return 0;
}

/**
 * mmx_kms_crtc_known - what a CRTC does, from memory when libmmx knows
 * @k: the display
 * @index: CRTC index
 * @now: filled
 *
 * The pointer path's read: no ioctl once mmx_kms_crtc_read() has read the
 * CRTC, as long as nothing but libmmx's own panning commits changed it
 * since. That holds while libmmx is the DRM master and the only one that
 * configures the CRTCs; mmx_kms_forget() drops the memory when libmmx
 * configures them itself or a commit fails, and every snapshot
 * (mmx_kms_state()) reads the kernel again. A client that changes the
 * CRTCs through the device behind libmmx's back takes a snapshot before
 * the next pointer motion.
 *
 * Return: 0 or -errno.
 */
int mmx_kms_crtc_known(struct mmx_kms *k, uint32_t index,
		       struct mmx_kms_crtc_now *now)
{
	const struct mmx_kms_crtc *c = &k->crtcs[index];

	if (!c->known)
		return mmx_kms_crtc_read(k, index, now);
	*now = c->now;
	return 0;
}

/**
 * mmx_kms_forget - read the CRTCs from the kernel again next time
 * @k: the display
 */
void mmx_kms_forget(struct mmx_kms *k)
{
	uint32_t i;

	for (i = 0; i < k->ncrtc; i++) {
		k->crtcs[i].known = false;
		k->crtcs[i].fb_sized = 0;
	}
}

/**
 * mmx_kms_sync_records - reconcile what libmmx remembers of a CRTC
 * @k: the display
 * @index: CRTC index
 * @now: what the kernel says
 *
 * The kernel holds only the combined matrix (transform x rotation). While
 * it is the one libmmx committed, the remembered rotation and transforms
 * stand; when someone else changed it (or on a fresh open), they are
 * decoded again: rotation normal, current = pending = the kernel's matrix.
 * The current filter is always the kernel's.
 */
void mmx_kms_sync_records(struct mmx_kms *k, uint32_t index,
			  const struct mmx_kms_crtc_now *now)
{
	struct mmx_kms_crtc *c = &k->crtcs[index];

	if (memcmp(c->committed, now->matrix, sizeof(c->committed))) {
		memcpy(c->committed, now->matrix, sizeof(c->committed));
		c->rotation = MMX_ROTATE_0;
		mmx_matrix_from_fixed(c->current.matrix, now->matrix);
		c->current.identity = mmx_kms_matrix_is_identity(now->matrix);
		c->pending = c->current;
		c->pending.filter = mmx_kms_filter_name(now->filter);
	}
	c->current.filter = mmx_kms_filter_name(now->filter);
	if (!c->pending.filter || !c->pending.filter[0])
		c->pending.filter = c->current.filter;
}

/* Plane @pl's type and property ids (counted in k->nplane when found). */
static void mmx_kms_plane_props(struct mmx_kms *k, struct mmx_kms_plane *pl)
{
	struct mmx_kms_props p;
	uint64_t v;

	if (mmx_kms_props_get(k, pl->id, DRM_MODE_OBJECT_PLANE, &p))
		return;
	if (mmx_kms_props_find(&p, "type", NULL, &v))
		pl->type = (uint32_t)v;
	mmx_kms_props_find(&p, "FB_ID", &pl->fb_id, NULL);
	mmx_kms_props_find(&p, "CRTC_ID", &pl->crtc_id, NULL);
	mmx_kms_props_find(&p, "SRC_X", &pl->src_x, NULL);
	mmx_kms_props_find(&p, "SRC_Y", &pl->src_y, NULL);
	mmx_kms_props_find(&p, "SRC_W", &pl->src_w, NULL);
	mmx_kms_props_find(&p, "SRC_H", &pl->src_h, NULL);
	mmx_kms_props_find(&p, "CRTC_X", &pl->crtc_x, NULL);
	mmx_kms_props_find(&p, "CRTC_Y", &pl->crtc_y, NULL);
	mmx_kms_props_find(&p, "CRTC_W", &pl->crtc_w, NULL);
	mmx_kms_props_find(&p, "CRTC_H", &pl->crtc_h, NULL);
	k->nplane++;
}

/* The planes, at most MMX_KMS_MAX_PLANES, with their property ids. */
static int mmx_kms_discover_planes(struct mmx_kms *k)
{
	drmModePlaneResPtr pres = drmModeGetPlaneResources(k->fd);
	uint32_t i;

	if (!pres)
		return errno ? -errno : -ENODEV;
	for (i = 0; i < pres->count_planes && k->nplane < MMX_KMS_MAX_PLANES;
	     i++) {
		struct mmx_kms_plane *pl = &k->planes[k->nplane];
		drmModePlanePtr plane = drmModeGetPlane(k->fd, pres->planes[i]);

		if (!plane)
			continue;
		memset(pl, 0, sizeof(*pl));
		pl->id = plane->plane_id;
		pl->possible = plane->possible_crtcs;
		drmModeFreePlane(plane);
		mmx_kms_plane_props(k, pl);
	}
	drmModeFreePlaneResources(pres);
	return 0;
}

/* CRTC @i (@id): its primary plane, property ids and current state. */
static int mmx_kms_discover_crtc(struct mmx_kms *k, uint32_t i, uint32_t id)
{
	struct mmx_kms_crtc *c = &k->crtcs[i];
	struct mmx_kms_crtc_now now;
	struct mmx_kms_props p;
	uint32_t j;
	int ret;

	memset(c, 0, sizeof(*c));
	c->id = id;
	c->index = i;
	c->primary = -1;
	for (j = 0; j < k->nplane && c->primary < 0; j++)
		if (k->planes[j].type == DRM_PLANE_TYPE_PRIMARY &&
		    (k->planes[j].possible & (1u << i)))
			c->primary = (int)j;
	ret = mmx_kms_props_get(k, c->id, DRM_MODE_OBJECT_CRTC, &p);
	if (ret)
		return ret;
	mmx_kms_props_find(&p, "ACTIVE", &c->p_active, NULL);
	mmx_kms_props_find(&p, "MODE_ID", &c->p_mode_id, NULL);
	mmx_kms_props_find(&p, "TRANSFORM", &c->p_transform, NULL);
	mmx_kms_props_find(&p, "TRANSFORM_FILTER", &c->p_filter, NULL);
	if (!c->p_active || !c->p_mode_id)
		return -EOPNOTSUPP;
	k->ncrtc++;
	ret = mmx_kms_crtc_read(k, i, &now);
	if (ret)
		return ret;
	/* a fresh open: decode the kernel's matrix */
	c->committed[0] = 1;
	c->committed[8] = -1;
	mmx_kms_sync_records(k, i, &now);
	c->x = now.x;
	c->y = now.y;
	return 0;
}

/* Read the planes and the CRTCs' property ids; find primary planes. */
static int mmx_kms_discover(struct mmx_kms *k, drmModeResPtr res)
{
	uint32_t i;
	int ret;

	ret = mmx_kms_discover_planes(k);
	if (ret)
		return ret;
	for (i = 0; i < (uint32_t)res->count_crtcs && i < MMX_KMS_MAX_CRTCS;
	     i++) {
		ret = mmx_kms_discover_crtc(k, i, res->crtcs[i]);
		if (ret)
			return ret;
	}
	k->has_transforms = k->ncrtc > 0;
	for (i = 0; i < k->ncrtc; i++)
		if (!k->crtcs[i].p_transform || !k->crtcs[i].p_filter)
			k->has_transforms = false;
	return 0;
}

/* The driver's name in k->driver, and whether it is mmx. */
static void mmx_kms_driver_name(struct mmx_kms *k)
{
	drmVersionPtr ver = drmGetVersion(k->fd);

	if (ver) {
		if (ver->name)
			strncpy(k->driver, ver->name, sizeof(k->driver) - 1);
		drmFreeVersion(ver);
	}
	k->is_mmx = !strcmp(k->driver, "mmx");
}

/* Whether any connector of @res is a writeback connector. */
static bool mmx_kms_any_writeback(int fd, drmModeResPtr res)
{
	bool any = false;
	int i;

	for (i = 0; i < res->count_connectors && !any; i++) {
		drmModeConnectorPtr c =
			drmModeGetConnectorCurrent(fd, res->connectors[i]);

		any = c && c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK;
		drmModeFreeConnector(c);
	}
	return any;
}

/**
 * mmx_kms_open - open the local backend on a KMS device
 * @fd: the device
 * @own_fd: close @fd in mmx_kms_close() (left open on failure)
 * @out: the handle
 *
 * Sets the client caps UNIVERSAL_PLANES, ATOMIC and WRITEBACK_CONNECTORS
 * (the last is optional). Changes need DRM master; snapshots do not.
 *
 * Return: 0; -EOPNOTSUPP for a driver without atomic modesetting; -ENOMEM;
 * or another -errno from the device.
 */
int mmx_kms_open(int fd, int own_fd, struct mmx_kms **out)
{
	struct mmx_kms *k;
	drmModeResPtr res;
	int ret;

	*out = NULL;
	if (drmSetClientCap(fd, DRM_CLIENT_CAP_UNIVERSAL_PLANES, 1) ||
	    drmSetClientCap(fd, DRM_CLIENT_CAP_ATOMIC, 1))
		return -EOPNOTSUPP;
	k = calloc(1, sizeof(*k));
	if (!k)
		return -ENOMEM;
	k->fd = fd;
	k->own_fd = own_fd;
	k->has_writeback =
		!drmSetClientCap(fd, DRM_CLIENT_CAP_WRITEBACK_CONNECTORS, 1);
	mmx_kms_driver_name(k);
	res = drmModeGetResources(fd);
	if (!res) {
		ret = errno ? -errno : -ENODEV;
		if (ret == -EINVAL)
			ret = -EOPNOTSUPP;	/* not a KMS device */
		goto err_free;
	}
	k->min_w = res->min_width;
	k->min_h = res->min_height;
	k->max_w = res->max_width;
	k->max_h = res->max_height;
	ret = mmx_kms_discover(k, res);
	if (ret)
		goto err_res;
	if (k->has_writeback)
		k->has_writeback = mmx_kms_any_writeback(fd, res);
	drmModeFreeResources(res);
	k->pan_mode = MMX_PAN_INDEPENDENT;
	k->timestamp = mmx_kms_now_ns();
	*out = k;
	return 0;

err_res:
	drmModeFreeResources(res);
err_free:
	free(k);
	return ret;
}

/**
 * mmx_kms_close - close a local display
 * @ctx: the display, a struct mmx_kms (NULL: nothing)
 *
 * Frees the screen framebuffer (CRTCs showing it go dark: KMS state made
 * through a device dies with it) and closes the device if libmmx opened it.
 */
void mmx_kms_close(void *ctx)
{
	struct mmx_kms *k = ctx;

	if (!k)
		return;
	if (k->own_fd)
		close(k->fd);
	else
		mmx_screen_destroy(k->fd, &k->screen);
	free(k);
}

static int mmx_kms_fd(const void *ctx)
{
	const struct mmx_kms *k = ctx;

	return k->fd;
}

const struct mmx_display_ops mmx_kms_display_ops = {
	.state = mmx_kms_state,
	.apply = mmx_kms_apply,
	.pointer_moved = mmx_kms_pointer_moved,
	.capture = mmx_kms_capture,
	.kms_fd = mmx_kms_fd,
	.close = mmx_kms_close,
};

/* The snapshot's id of a mode: equal timings share one (@table has room). */
static uint32_t mmx_kms_mode_id(struct mmx_mode *table, uint32_t *n,
				const struct mmx_mode *m)
{
	uint32_t i;

	for (i = 0; i < *n; i++)
		if (mmx_kms_mode_same(&table[i], m))
			return i + 1;
	table[(*n)++] = *m;
	return *n;
}

/* The enum values of @info into @mp, owned by @a; false without memory. */
static bool mmx_kms_prop_enums(struct mmx_arena *a, drmModePropertyPtr info,
			       struct mmx_property *mp)
{
	int i;

	mp->enums = mmx_arena_calloc(a, (size_t)info->count_enums,
				     sizeof(*mp->enums));
	if (info->count_enums > 0 && !mp->enums)
		return false;
	for (i = 0; i < info->count_enums; i++) {
		mp->enums[i].name = mmx_arena_strndup(a, info->enums[i].name,
						      strnlen(info->enums[i].name,
							      DRM_PROP_NAME_LEN));
		if (!mp->enums[i].name)
			return false;
		mp->enums[i].value = info->enums[i].value;
	}
	mp->nenum = (uint32_t)(info->count_enums > 0 ? info->count_enums : 0);
	return true;
}

/* The type of a KMS property as enum mmx_prop_type, 0 when unknown. */
static uint32_t mmx_kms_prop_type(drmModePropertyPtr info)
{
	static const struct {
		uint32_t drm;
		uint32_t mmx;
	} types[] = {
		{ DRM_MODE_PROP_RANGE, MMX_PROP_RANGE },
		{ DRM_MODE_PROP_SIGNED_RANGE, MMX_PROP_SIGNED_RANGE },
		{ DRM_MODE_PROP_ENUM, MMX_PROP_ENUM },
		{ DRM_MODE_PROP_BITMASK, MMX_PROP_BITMASK },
		{ DRM_MODE_PROP_BLOB, MMX_PROP_BLOB },
		{ DRM_MODE_PROP_OBJECT, MMX_PROP_OBJECT },
	};
	size_t i;

	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++)
		if (drm_property_type_is(info, types[i].drm))
			return types[i].mmx;
	return 0;
}

/*
 * Map a KMS property into an mmx_property whose arrays and strings @a
 * owns: 1, 0 to skip it, -ENOMEM.
 */
static int mmx_kms_prop_fill(int fd, struct mmx_arena *a,
			     drmModePropertyPtr info, uint64_t value,
			     struct mmx_property *mp)
{
	memset(mp, 0, sizeof(*mp));
	mp->type = mmx_kms_prop_type(info);
	if (!mp->type)
		return 0;
	mp->name = mmx_arena_strndup(a, info->name,
				     strnlen(info->name, DRM_PROP_NAME_LEN));
	if (!mp->name)
		return -ENOMEM;
	mp->id = info->prop_id;
	mp->value = value;
	if (info->flags & DRM_MODE_PROP_IMMUTABLE)
		mp->flags |= MMX_PROP_IMMUTABLE;
	if ((mp->type == MMX_PROP_RANGE || mp->type == MMX_PROP_SIGNED_RANGE) &&
	    info->count_values >= 2) {
		mp->min = info->values[0];
		mp->max = info->values[1];
	}
	if ((mp->type == MMX_PROP_ENUM || mp->type == MMX_PROP_BITMASK) &&
	    !mmx_kms_prop_enums(a, info, mp))
		return -ENOMEM;
	if (mp->type == MMX_PROP_BLOB && value) {
		drmModePropertyBlobPtr b = drmModeGetPropertyBlob(fd,
								  (uint32_t)value);

		if (b) {
			mp->blob = mmx_arena_memdup(a, b->data, b->length);
			mp->blob_len = b->length;
			drmModeFreePropertyBlob(b);
			if (!mp->blob && mp->blob_len)
				return -ENOMEM;
		}
	}
	return 1;
}

/*
 * Add ConnectorType and ConnectorNumber when the driver lacks them (@o's
 * props have room for two more).
 */
static void mmx_kms_synthesise(struct mmx_output_info *o,
			       const drmModeConnector *c,
			       struct mmx_prop_enum *types)
{
	struct mmx_property *mp;
	uint32_t i, n = sizeof(mmx_kms_randr_types) /
			sizeof(mmx_kms_randr_types[0]);

	if (!mmx_output_property(o, "ConnectorType")) {
		mp = &o->props[o->nprop++];
		memset(mp, 0, sizeof(*mp));
		mp->name = "ConnectorType";
		mp->type = MMX_PROP_ENUM;
		mp->flags = MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC;
		for (i = 0; i < n; i++) {
			types[i].name = mmx_kms_randr_types[i];
			types[i].value = i;
		}
		mp->enums = types;
		mp->nenum = n;
		mp->value = mmx_kms_randr_type(c->connector_type);
	}
	if (!mmx_output_property(o, "ConnectorNumber")) {
		mp = &o->props[o->nprop++];
		memset(mp, 0, sizeof(*mp));
		mp->name = "ConnectorNumber";
		mp->type = MMX_PROP_RANGE;
		mp->flags = MMX_PROP_IMMUTABLE | MMX_PROP_SYNTHETIC;
		mp->min = 0;
		mp->max = c->connector_type_id > 8 ? c->connector_type_id : 8;
		mp->value = c->connector_type_id;
	}
}

/* Bits of the CRTC indices a connector's encoders can use, and the
 * encoder index bits they can clone. */
static void mmx_kms_conn_routes(int fd, drmModeResPtr res,
				const drmModeConnector *c, uint32_t *crtcs,
				uint32_t *encoders, uint32_t *clones)
{
	int i, j;

	*crtcs = 0;
	*encoders = 0;
	*clones = 0;
	for (i = 0; i < c->count_encoders; i++) {
		drmModeEncoderPtr e = drmModeGetEncoder(fd, c->encoders[i]);

		if (!e)
			continue;
		*crtcs |= e->possible_crtcs;
		*clones |= e->possible_clones;
		for (j = 0; j < res->count_encoders && j < 32; j++)
			if (res->encoders[j] == e->encoder_id)
				*encoders |= 1u << j;
		drmModeFreeEncoder(e);
	}
}

/* Its modes into @o, preferred first; mode ids come from @table. */
static int mmx_kms_output_modes(struct mmx_arena *a, const drmModeConnector *c,
				struct mmx_output_info *o,
				struct mmx_mode *table, uint32_t *ntable)
{
	uint32_t i, pass;

	o->modes = mmx_arena_calloc(a, (size_t)c->count_modes,
				    sizeof(*o->modes));
	if (c->count_modes > 0 && !o->modes)
		return -ENOMEM;
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < (uint32_t)c->count_modes; i++) {
			bool pref = c->modes[i].type & DRM_MODE_TYPE_PREFERRED;
			struct mmx_mode *m;

			if (pref != !pass)
				continue;
			m = &o->modes[o->nmode++];
			mmx_kms_mode_from_drm(m, &c->modes[i]);
			m->id = mmx_kms_mode_id(table, ntable, m);
			if (pref)
				o->npreferred++;
		}
	}
	return 0;
}

/*
 * Every property into @o but the atomic plumbing RandR does not show,
 * then the synthetic ones; *@crtc: CRTC_ID's value.
 */
static int mmx_kms_output_props(struct mmx_kms *k, struct mmx_arena *a,
				const drmModeConnector *c,
				struct mmx_output_info *o, uint64_t *crtc)
{
	struct mmx_prop_enum *types;
	uint32_t i;
	int ret;

	/* room for the two synthetic ones and ConnectorType's values */
	o->props = mmx_arena_calloc(a, (size_t)c->count_props + 2,
				    sizeof(*o->props));
	types = mmx_arena_calloc(a, sizeof(mmx_kms_randr_types) /
				 sizeof(mmx_kms_randr_types[0]),
				 sizeof(*types));
	if (!o->props || !types)
		return -ENOMEM;
	for (i = 0; i < (uint32_t)c->count_props; i++) {
		drmModePropertyPtr info = drmModeGetProperty(k->fd, c->props[i]);

		if (!info)
			continue;
		ret = 0;
		if (!strcmp(info->name, "CRTC_ID"))
			*crtc = c->prop_values[i];
		else
			ret = mmx_kms_prop_fill(k->fd, a, info,
						c->prop_values[i],
						&o->props[o->nprop]);
		drmModeFreeProperty(info);
		if (ret < 0)
			return ret;
		o->nprop += (uint32_t)ret;
	}
	mmx_kms_synthesise(o, c, types);
	return 0;
}

/* Fill output @o from connector @c; mode ids come from @table. */
static int mmx_kms_output_fill(struct mmx_kms *k, struct mmx_arena *a,
			       drmModeConnector *c, struct mmx_output_info *o,
			       struct mmx_mode *table, uint32_t *ntable)
{
	struct mmx_kms_props p;
	uint64_t crtc = 0;
	char name[64];
	int ret;

	o->id = c->connector_id;
	mmx_kms_output_name(name, sizeof(name), c->connector_type,
			    c->connector_type_id);
	o->name = mmx_arena_strdup(a, name);
	if (!o->name)
		return -ENOMEM;
	o->connection = c->connection == DRM_MODE_CONNECTED ? MMX_CONNECTED :
			c->connection == DRM_MODE_DISCONNECTED ?
			MMX_DISCONNECTED : MMX_UNKNOWN_CONNECTION;
	o->mm_width = c->mmWidth;
	o->mm_height = c->mmHeight;
	o->subpixel = c->subpixel > 0 ? c->subpixel - 1 : MMX_SUBPIXEL_UNKNOWN;
	o->primary = k->primary && k->primary == c->connector_id;

	ret = mmx_kms_output_modes(a, c, o, table, ntable);
	if (!ret)
		ret = mmx_kms_output_props(k, a, c, o, &crtc);
	if (ret)
		return ret;
	if (!crtc && !mmx_kms_props_get(k, c->connector_id,
					DRM_MODE_OBJECT_CONNECTOR, &p))
		mmx_kms_props_find(&p, "CRTC_ID", NULL, &crtc);
	o->crtc = (uint32_t)crtc;
	return 0;
}

/*
 * The connectors of @res but the writeback ones, probed or not, into
 * *@conns (malloc'ed, *@n of them, each freed with drmModeFreeConnector())
 * with their routes (mmx_kms_conn_routes()) in *@routes (malloc'ed, 3 per
 * connector: CRTC bits, encoder bits, clone bits).
 */
static int mmx_kms_connectors(struct mmx_kms *k, drmModeResPtr res, int probe,
			      drmModeConnectorPtr **conns, uint32_t **routes,
			      uint32_t *n)
{
	uint32_t i, max = res->count_connectors > 0 ?
			  (uint32_t)res->count_connectors : 0;

	*n = 0;
	*conns = calloc(max ? max : 1, sizeof(**conns));
	*routes = calloc(max ? 3 * max : 1, sizeof(**routes));
	if (!*conns || !*routes)
		return -ENOMEM;
	for (i = 0; i < max; i++) {
		drmModeConnectorPtr c = probe ?
			drmModeGetConnector(k->fd, res->connectors[i]) :
			drmModeGetConnectorCurrent(k->fd, res->connectors[i]);

		if (!c)
			continue;
		if (c->connector_type == DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeFreeConnector(c);
			continue;
		}
		mmx_kms_conn_routes(k->fd, res, c, &(*routes)[3 * *n],
				    &(*routes)[3 * *n + 1],
				    &(*routes)[3 * *n + 2]);
		(*conns)[(*n)++] = c;
	}
	return 0;
}

/* The CRTCs and clones each output can use (@routes: mmx_kms_connectors()). */
static int mmx_kms_output_routes(struct mmx_kms *k, struct mmx_state *s,
				 const uint32_t *routes)
{
	uint32_t i, j;

	for (i = 0; i < s->noutput; i++) {
		struct mmx_output_info *o = &s->outputs[i];

		o->crtcs = mmx_arena_calloc(&s->arena, k->ncrtc,
					    sizeof(*o->crtcs));
		o->clones = mmx_arena_calloc(&s->arena, s->noutput,
					     sizeof(*o->clones));
		if ((k->ncrtc && !o->crtcs) || !o->clones)
			return -ENOMEM;
		for (j = 0; j < k->ncrtc; j++)
			if (routes[3 * i] & (1u << j))
				o->crtcs[o->ncrtc++] = k->crtcs[j].id;
		for (j = 0; j < s->noutput; j++)
			if (j != i && (routes[3 * i + 2] & routes[3 * j + 1]))
				o->clones[o->nclone++] = s->outputs[j].id;
	}
	return 0;
}

/* CRTC @i of @s, read from the kernel (@routes: mmx_kms_connectors()). */
static int mmx_kms_crtc_fill(struct mmx_kms *k, struct mmx_state *s,
			     uint32_t i, const uint32_t *routes,
			     struct mmx_mode *table, uint32_t *ntable)
{
	struct mmx_kms_crtc *kc = &k->crtcs[i];
	struct mmx_crtc_info *ci = &s->crtcs[i];
	struct mmx_kms_crtc_now now;
	uint32_t j;
	int ret;

	ret = mmx_kms_crtc_read(k, i, &now);
	if (ret)
		return ret;
	mmx_kms_sync_records(k, i, &now);
	ci->id = kc->id;
	ci->index = i;
	ci->rotation = kc->rotation;
	ci->rotations = kc->p_transform ? 0x3f : MMX_ROTATE_0;
	ci->pending = kc->pending;
	ci->current = kc->current;
	ci->panning = now.panning;
	ci->mode_valid = now.active && now.has_mode;
	ci->outputs = mmx_arena_calloc(&s->arena, s->noutput,
				       sizeof(*ci->outputs));
	ci->possible = mmx_arena_calloc(&s->arena, s->noutput,
					sizeof(*ci->possible));
	if (s->noutput && (!ci->outputs || !ci->possible))
		return -ENOMEM;
	for (j = 0; j < s->noutput; j++) {
		if (s->outputs[j].crtc == kc->id)
			ci->outputs[ci->noutput++] = s->outputs[j].id;
		if (routes[3 * j] & (1u << i))
			ci->possible[ci->npossible++] = s->outputs[j].id;
	}
	if (!ci->mode_valid)
		return 0;
	mmx_kms_mode_from_drm(&ci->mode, &now.mode);
	ci->mode.id = mmx_kms_mode_id(table, ntable, &ci->mode);
	ci->x = now.x;
	ci->y = now.y;
	if (mmx_crtc_bbox(kc->current.identity ? NULL : kc->current.matrix,
			  kc->rotation, ci->mode.width, ci->mode.height,
			  &ci->bbox_x, &ci->bbox_y, &ci->width, &ci->height)) {
		ci->bbox_x = 0;
		ci->bbox_y = 0;
		ci->width = ci->mode.width;
		ci->height = ci->mode.height;
	}
	return 0;
}

/* What the display says of itself: flags, sizes, primary, pointer. */
static int mmx_kms_screen_fill(struct mmx_kms *k, struct mmx_state *s)
{
	s->flags = (k->is_mmx ? MMX_STATE_MMX_DRIVER : 0) |
		   (k->has_transforms ? MMX_STATE_TRANSFORMS : 0) |
		   (k->has_writeback ? MMX_STATE_WRITEBACK : 0);
	s->pan_mode = k->pan_mode;
	s->driver = mmx_arena_strdup(&s->arena, k->driver);
	s->timestamp = k->timestamp;
	s->config_timestamp = k->config_timestamp;
	s->min_width = k->min_w;
	s->min_height = k->min_h;
	s->max_width = k->max_w;
	s->max_height = k->max_h;
	s->primary = k->primary;
	s->pointer_x = k->pointer_x;
	s->pointer_y = k->pointer_y;
	return s->driver ? 0 : -ENOMEM;
}

/* Fill @s (its counts set, its arrays allocated) from @conns. */
static int mmx_kms_state_fill(struct mmx_kms *k, struct mmx_state *s,
			      drmModeConnectorPtr *conns, const uint32_t *routes)
{
	uint32_t i, ntable = 0, nmodes = k->ncrtc;
	struct mmx_mode *table;
	int ret = 0;

	for (i = 0; i < s->noutput; i++)
		nmodes += (uint32_t)conns[i]->count_modes;
	table = calloc(nmodes ? nmodes : 1, sizeof(*table));
	if (!table)
		return -ENOMEM;
	for (i = 0; i < s->noutput && !ret; i++)
		ret = mmx_kms_output_fill(k, &s->arena, conns[i],
					  &s->outputs[i], table, &ntable);
	if (!ret)
		ret = mmx_kms_output_routes(k, s, routes);
	for (i = 0; i < s->ncrtc && !ret; i++)
		ret = mmx_kms_crtc_fill(k, s, i, routes, table, &ntable);
	free(table);
	return ret;
}

/**
 * mmx_kms_state - a snapshot of a local display
 * @ctx: the display, a struct mmx_kms
 * @probe: 1: probe every output (drmModeGetConnector: RandR's
 *	GetScreenResources); 0: the cached state only
 *	(drmModeGetConnectorCurrent: GetScreenResourcesCurrent)
 * @s: filled (zeroed before; on error cleared)
 *
 * Return: 0 or -errno.
 */
int mmx_kms_state(void *ctx, int probe, struct mmx_state *s)
{
	struct mmx_kms *k = ctx;
	drmModeConnectorPtr *conns = NULL;
	uint32_t i, nconn = 0, *routes = NULL;
	drmModeResPtr res;
	int ret;

	mmx_state_clear(s);
	res = drmModeGetResources(k->fd);
	if (!res)
		return errno ? -errno : -ENODEV;
	if (probe)
		k->config_timestamp = mmx_kms_now_ns();

	/* outputs: every connector but the writeback ones */
	ret = mmx_kms_connectors(k, res, probe, &conns, &routes, &nconn);
	if (!ret)
		ret = mmx_state_alloc(s, k->ncrtc, nconn);
	if (!ret)
		ret = mmx_kms_screen_fill(k, s);
	if (!ret)
		ret = mmx_kms_state_fill(k, s, conns, routes);
	if (ret)
		goto out;
	if (s->primary && !mmx_state_output(s, s->primary))
		s->primary = 0;

	/* the screen: libmmx's framebuffer, else what the lit CRTCs cover */
	if (k->screen.fb_id) {
		s->screen_width = k->screen.width;
		s->screen_height = k->screen.height;
	} else {
		mmx_screen_bbox(s->crtcs, s->ncrtc, &s->screen_width,
				&s->screen_height);
	}
out:
	if (ret)
		mmx_state_clear(s);
	for (i = 0; i < nconn; i++)
		drmModeFreeConnector(conns[i]);
	free(conns);
	free(routes);
	drmModeFreeResources(res);
	return ret;
}
