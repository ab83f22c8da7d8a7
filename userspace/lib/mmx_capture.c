// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Capture of what a CRTC sends to its output, through the CRTC's writeback
 * connector: one atomic commit attaching a dumb XRGB8888 framebuffer of the
 * mode's size with an out-fence, a wait on the fence, then the pixels are
 * copied out and everything is detached and freed.
 */

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mmx_kms.h"

#define MMX_CAPTURE_TIMEOUT_MS	10000

/* The writeback connector whose encoders can use CRTC @index. */
static int mmx_capture_find(struct mmx_kms *k, uint32_t index,
			    uint32_t *conn)
{
	drmModeResPtr res = drmModeGetResources(k->fd);
	int i, j, ret = -EOPNOTSUPP;

	if (!res)
		return errno ? -errno : -ENODEV;
	for (i = 0; i < res->count_connectors && ret; i++) {
		drmModeConnectorPtr c =
			drmModeGetConnectorCurrent(k->fd, res->connectors[i]);

		if (!c)
			continue;
		if (c->connector_type != DRM_MODE_CONNECTOR_WRITEBACK) {
			drmModeFreeConnector(c);
			continue;
		}
		for (j = 0; j < c->count_encoders && ret; j++) {
			drmModeEncoderPtr e = drmModeGetEncoder(k->fd,
								c->encoders[j]);

			if (e && (e->possible_crtcs & (1u << index))) {
				*conn = c->connector_id;
				ret = 0;
			}
			drmModeFreeEncoder(e);
		}
		drmModeFreeConnector(c);
	}
	drmModeFreeResources(res);
	return ret;
}

static int mmx_capture_wait(int fence)
{
	struct pollfd pfd = { .fd = fence, .events = POLLIN };
	int ret;

	do {
		ret = poll(&pfd, 1, MMX_CAPTURE_TIMEOUT_MS);
	} while (ret < 0 && errno == EINTR);
	if (ret < 0)
		return -errno;
	if (!ret)
		return -ETIMEDOUT;
	return (pfd.revents & (POLLERR | POLLNVAL)) ? -EIO : 0;
}

/* Commit @conn's CRTC_ID (and the writeback framebuffer and fence). */
static int mmx_capture_commit(struct mmx_kms *k, uint32_t conn,
			      uint32_t crtc, uint32_t fb, int32_t *fence)
{
	drmModeAtomicReqPtr req = drmModeAtomicAlloc();
	struct mmx_kms_props p;
	uint32_t p_crtc = 0, p_fb = 0, p_fence = 0;
	int ret;

	if (!req)
		return -ENOMEM;
	ret = mmx_kms_props_get(k, conn, DRM_MODE_OBJECT_CONNECTOR, &p);
	if (ret)
		goto out;
	if (!mmx_kms_props_find(&p, "CRTC_ID", &p_crtc, NULL) ||
	    !mmx_kms_props_find(&p, "WRITEBACK_FB_ID", &p_fb, NULL) ||
	    !mmx_kms_props_find(&p, "WRITEBACK_OUT_FENCE_PTR", &p_fence,
				NULL)) {
		ret = -EOPNOTSUPP;
		goto out;
	}
	drmModeAtomicAddProperty(req, conn, p_crtc, crtc);
	if (fb) {
		drmModeAtomicAddProperty(req, conn, p_fb, fb);
		drmModeAtomicAddProperty(req, conn, p_fence,
					 (uint64_t)(uintptr_t)fence);
	}
	ret = mmx_kms_errno(drmModeAtomicCommit(k->fd, req,
						DRM_MODE_ATOMIC_ALLOW_MODESET,
						NULL));
out:
	drmModeAtomicFree(req);
	return ret;
}

/*
 * One writeback of CRTC @crtc through connector @conn into a @w x @h dumb
 * buffer, copied to @out.
 */
static int mmx_capture_into(struct mmx_kms *k, uint32_t conn, uint32_t crtc,
			    uint32_t w, uint32_t h, uint32_t *out)
{
	struct mmx_screen fb;
	int32_t fence = -1;
	uint32_t y;
	int ret;

	ret = mmx_dumb_create(k->fd, w, h, &fb);
	if (ret)
		return ret;
	ret = mmx_capture_commit(k, conn, crtc, fb.fb_id, &fence);
	if (ret)
		goto out_fb;
	ret = fence >= 0 ? mmx_capture_wait(fence) : -EIO;
	if (fence >= 0)
		close(fence);
	/* detach the writeback connector: the CRTC may be turned off later */
	mmx_capture_commit(k, conn, 0, 0, NULL);
	if (ret)
		goto out_fb;
	for (y = 0; y < h; y++)
		memcpy(out + (size_t)y * w, fb.map + (size_t)y * fb.pitch,
		       (size_t)w * 4);
out_fb:
	mmx_screen_destroy(k->fd, &fb);
	return ret;
}

/**
 * mmx_kms_capture - capture a CRTC's output (writeback)
 * @ctx: the display, a struct mmx_kms
 * @crtc: CRTC id
 * @width: the mode's width
 * @height: the mode's height
 * @pixels: malloc'ed XRGB8888, @width * @height, no padding
 *
 * Return: 0; -EOPNOTSUPP without a writeback connector for the CRTC;
 * -ENOENT for an unknown CRTC; -EINVAL when it is off; -ETIMEDOUT when
 * the writeback did not complete; -ENOMEM; another -errno from KMS.
 */
int mmx_kms_capture(void *ctx, uint32_t crtc, uint32_t *width,
		    uint32_t *height, uint32_t **pixels)
{
	struct mmx_kms *k = ctx;
	struct mmx_kms_crtc_now now;
	uint32_t index, conn = 0, w, h;
	uint32_t *out;
	int ret;

	*pixels = NULL;
	for (index = 0; index < k->ncrtc; index++)
		if (k->crtcs[index].id == crtc)
			break;
	if (index == k->ncrtc)
		return -ENOENT;
	if (!k->has_writeback)
		return -EOPNOTSUPP;
	ret = mmx_capture_find(k, index, &conn);
	if (ret)
		return ret;
	ret = mmx_kms_crtc_read(k, index, &now);
	if (ret)
		return ret;
	if (!now.active || !now.has_mode)
		return -EINVAL;
	w = now.mode.hdisplay;
	h = now.mode.vdisplay;
	out = malloc((size_t)w * h * sizeof(*out));
	if (!out)
		return -ENOMEM;
	ret = mmx_capture_into(k, conn, crtc, w, h, out);
	if (ret) {
		free(out);
		return ret;
	}
	*width = w;
	*height = h;
	*pixels = out;
	return 0;
}
