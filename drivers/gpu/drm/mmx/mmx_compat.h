/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The kernel API differences between the kernels mmx is built for
 * (Debian 12's 6.1 and Debian 13's 6.12), in one place: the rest of the
 * driver calls these and never tests a kernel version itself. The MMX_HAVE_*
 * macros come from the Makefile, which looks for each API in the headers
 * the module is built against rather than trusting a version number.
 */

#ifndef _MMX_COMPAT_H_
#define _MMX_COMPAT_H_

#include <drm/drm_atomic_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_device.h>
#include <drm/drm_encoder.h>

#ifdef MMX_HAVE_FBDEV_SHMEM
#include <drm/drm_fbdev_shmem.h>
#else
#include <drm/drm_fb_helper.h>
#endif

/*
 * struct platform_driver's remove hook that returns void: .remove_new until
 * 6.11, when .remove itself stopped returning int.
 */
#ifdef MMX_HAVE_VOID_PLATFORM_REMOVE
#define mmx_platform_remove remove
#else
#define mmx_platform_remove remove_new
#endif

/**
 * mmx_fbdev_setup - give the device an fbdev emulation for the console
 * @dev: the registered DRM device (its buffers are shmem GEM objects)
 * @bpp: preferred bits per pixel
 */
static inline void mmx_fbdev_setup(struct drm_device *dev, unsigned int bpp)
{
#ifdef MMX_HAVE_FBDEV_SHMEM
	drm_fbdev_shmem_setup(dev, bpp);
#else
	drm_fbdev_generic_setup(dev, bpp);
#endif
}

/**
 * mmx_check_wb_state - the core's check of a writeback job's framebuffer
 * @encoder: the writeback connector's encoder
 * @conn_state: the writeback connector's new state, with its job
 *
 * Return: 0 or -EINVAL for a framebuffer format the connector does not take.
 */
static inline int mmx_check_wb_state(struct drm_encoder *encoder,
				     struct drm_connector_state *conn_state)
{
#ifdef MMX_HAVE_CHECK_WB_CONNECTOR_STATE
	return drm_atomic_helper_check_wb_connector_state(conn_state->connector,
							  conn_state->state);
#else
	return drm_atomic_helper_check_wb_encoder_state(encoder, conn_state);
#endif
}

#endif /* _MMX_COMPAT_H_ */
