/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The kernel API differences between the kernels mmx is built for (Debian
 * 12's 6.1, Debian 13's 6.12, and the 7.2 and 7.3 of sid and
 * trixie-backports), in one place: the rest of the driver uses the names
 * defined here and never tests a kernel version itself. The MMX_HAVE_*
 * macros come from the Makefile, which looks for each API in the headers
 * the module is built against rather than trusting a version number; each
 * test names the API it picks, and a kernel that has none of the known
 * variants of an API stops the build there, with a message saying which.
 */

#ifndef _MMX_COMPAT_H_
#define _MMX_COMPAT_H_

#include <linux/hrtimer.h>
#include <drm/drm_atomic.h>
#include <drm/drm_atomic_helper.h>
#include <drm/drm_connector.h>
#include <drm/drm_device.h>
#include <drm/drm_edid.h>
#include <drm/drm_encoder.h>
#include <drm/drm_gem_framebuffer_helper.h>

#if defined(MMX_HAVE_CLIENT_SETUP)
#include <drm/clients/drm_client_setup.h>
#include <drm/drm_fbdev_shmem.h>
#elif defined(MMX_HAVE_FBDEV_SHMEM)
#include <drm/drm_fbdev_shmem.h>
#elif defined(MMX_HAVE_FBDEV_GENERIC)
#include <drm/drm_fb_helper.h>
#else
#error "mmx: no fbdev emulation API known (the Makefile says more)"
#endif

/*
 * The atomic update: struct drm_atomic_state with drm_atomic_state_alloc(),
 * _clear() and _put() until the core renamed all of them to
 * drm_atomic_commit. The driver says struct mmx_atomic_state and
 * mmx_atomic_state_alloc(), _clear() and _put(), names of its own for
 * whichever the core has.
 */
#if defined(MMX_HAVE_ATOMIC_COMMIT)
#define mmx_atomic_state drm_atomic_commit
#define mmx_atomic_state_alloc drm_atomic_commit_alloc
#define mmx_atomic_state_clear drm_atomic_commit_clear
#define mmx_atomic_state_put drm_atomic_commit_put
#elif defined(MMX_HAVE_ATOMIC_STATE)
#define mmx_atomic_state drm_atomic_state
#define mmx_atomic_state_alloc drm_atomic_state_alloc
#define mmx_atomic_state_clear drm_atomic_state_clear
#define mmx_atomic_state_put drm_atomic_state_put
#else
#error "mmx: no atomic update struct known (the Makefile says more)"
#endif

/*
 * EDID validation by the core: drm_edid_valid() on a struct drm_edid where
 * the core has it; drm_edid_is_valid() before, which repairs a header with
 * one or two wrong bytes in place, so a header must be exactly right first
 * (a simulated sink serves its EDID as it was given).
 */
#ifdef MMX_HAVE_DRM_EDID_VALID
static inline bool mmx_drm_edid_valid(u8 *edid, size_t size)
{
	const struct drm_edid *drm_edid = drm_edid_alloc(edid, size);
	bool valid = drm_edid_valid(drm_edid);

	drm_edid_free(drm_edid);
	return valid;
}
#else
static inline bool mmx_drm_edid_valid(u8 *edid, size_t size)
{
	return drm_edid_header_is_valid(edid) == 8 &&
	       drm_edid_is_valid((struct edid *)edid);
}
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

/*
 * struct drm_driver's .date, gone from the newer cores (the version ioctl
 * then reports none); the older ones warn when it is missing.
 */
#ifdef MMX_HAVE_DRIVER_DATE
#define MMX_DRIVER_DATE_INIT(d) .date = (d),
#else
#define MMX_DRIVER_DATE_INIT(d)
#endif

/*
 * The driver callbacks of the fbdev emulation through the DRM client
 * library (struct drm_driver's .fbdev_probe); nothing before it.
 */
#ifdef MMX_HAVE_CLIENT_SETUP
#define MMX_FBDEV_DRIVER_OPS DRM_FBDEV_SHMEM_DRIVER_OPS,
#else
#define MMX_FBDEV_DRIVER_OPS
#endif

/*
 * The mode a connector's .mode_valid is given: const in the newer cores.
 */
#ifdef MMX_HAVE_CONST_CONNECTOR_MODE_VALID
#define MMX_CONNECTOR_MODE_CONST const
#else
#define MMX_CONNECTOR_MODE_CONST
#endif

/**
 * mmx_fbdev_setup - give the device an fbdev emulation for the console
 * @dev: the registered DRM device (its buffers are shmem GEM objects)
 * @bpp: preferred bits per pixel
 */
static inline void mmx_fbdev_setup(struct drm_device *dev, unsigned int bpp)
{
#if defined(MMX_HAVE_CLIENT_SETUP)
	drm_client_setup_with_color_mode(dev, bpp);
#elif defined(MMX_HAVE_FBDEV_SHMEM)
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

/**
 * mmx_hrtimer_setup - initialise an hrtimer with its callback
 * @timer: the timer
 * @function: its callback
 * @clock_id: the clock it runs on
 * @mode: its mode
 */
static inline void mmx_hrtimer_setup(struct hrtimer *timer,
				     enum hrtimer_restart (*function)(struct hrtimer *),
				     clockid_t clock_id, enum hrtimer_mode mode)
{
#ifdef MMX_HAVE_HRTIMER_SETUP
	hrtimer_setup(timer, function, clock_id, mode);
#else
	hrtimer_init(timer, clock_id, mode);
	timer->function = function;
#endif
}

int mmx_fb_check(struct drm_device *dev, const struct drm_mode_fb_cmd2 *cmd);

/*
 * mmx_fb_create(), the mode configuration's .fb_create: a framebuffer of
 * shmem GEM objects with damage tracking once mmx_fb_check() took its
 * format and modifier. The newer cores give the callback the format's
 * information, which drm_gem_fb_create_with_dirty() then wants too.
 */
#ifdef MMX_HAVE_FB_CREATE_INFO
static inline struct drm_framebuffer *
mmx_fb_create(struct drm_device *dev, struct drm_file *file,
	      const struct drm_format_info *info,
	      const struct drm_mode_fb_cmd2 *cmd)
{
	int ret = mmx_fb_check(dev, cmd);

	if (ret)
		return ERR_PTR(ret);
	return drm_gem_fb_create_with_dirty(dev, file, info, cmd);
}
#else
static inline struct drm_framebuffer *
mmx_fb_create(struct drm_device *dev, struct drm_file *file,
	      const struct drm_mode_fb_cmd2 *cmd)
{
	int ret = mmx_fb_check(dev, cmd);

	if (ret)
		return ERR_PTR(ret);
	return drm_gem_fb_create_with_dirty(dev, file, cmd);
}
#endif

#endif /* _MMX_COMPAT_H_ */
