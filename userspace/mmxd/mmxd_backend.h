/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The boundary between mmxd's media services (media.c, time.c) and what
 * they drive: KMS timed commits, framebuffers, the decoder pool and the
 * audio device, behind struct mmxd_media_ops (media_kms.c in mmxd over
 * libmmx and libmmxd_private; a fake in the host tests). Nothing here
 * knows of the server or of clients.
 */

#ifndef MMXD_BACKEND_H
#define MMXD_BACKEND_H

#include <poll.h>
#include <stddef.h>
#include <stdint.h>

#include "libmmx.h"
#include "libmmx_media.h"
#include "mmx_decode.h"
#include "mmx_clock.h"

/* Streams at once at most (each has its own overlay plane). */
#define MMXD_MAX_STREAMS	8

/**
 * struct mmxd_fb - a framebuffer of a stream's ring
 * @id: KMS framebuffer id
 * @handle: its buffer's handle (backend's)
 * @pitch: bytes a row
 * @map: the pixels, mapped (XRGB8888)
 * @size: bytes mapped
 */
struct mmxd_fb {
	uint32_t id;
	uint32_t handle;
	uint32_t pitch;
	void *map;
	size_t size;
};

/**
 * struct mmxd_video_target - where a stream's video goes
 * @crtc: CRTC id
 * @plane: plane id (an overlay of @crtc)
 * @crtc_width: the CRTC's mode width
 * @crtc_height: its height
 */
struct mmxd_video_target {
	uint32_t crtc;
	uint32_t plane;
	uint32_t crtc_width;
	uint32_t crtc_height;
};

/**
 * struct mmxd_sched_event - a timed commit completed (the kernel's
 *	struct drm_mmx_event_schedule)
 * @user: the user data given to schedule
 * @sched: the schedule id
 * @status: MMX_SCHEDULE_* (mmx_drm.h)
 * @error: its errno for FAILED
 * @sequence: vblank sequence
 * @timestamp_ns: vblank time, CLOCK_MONOTONIC ns
 */
struct mmxd_sched_event {
	uint64_t user;
	uint64_t sched;
	uint32_t status;
	int32_t error;
	uint64_t sequence;
	int64_t timestamp_ns;
};

/**
 * struct mmxd_media_ops - what streams need from the display (KMS and
 *	the decoder pool in mmxd: media_kms.c; a fake in the host tests).
 *	Every int function returns 0 or -errno.
 * @now: CLOCK_MONOTONIC ns
 * @target: pick the CRTC of @output (0: the first lit) and an overlay of
 *	it not in @busy (@nbusy plane ids of other streams)
 * @untarget: take the video off @t's plane (after the stream's last frame)
 * @fb_new: a @width x @height XRGB8888 framebuffer, mapped
 * @fb_free: remove and unmap it
 * @schedule: a timed commit of @t's plane showing @fb at @x,@y (@w x @h),
 *	at @exec_ns, expiring at @expire_ns, with user data @user; its
 *	schedule id in @sched
 * @retract: cancel pending timed commit @sched (-EBUSY: too late)
 * @replace: swap pending timed commit @sched for a new one (arguments as
 *	@schedule; the old one completes REPLACED), its id in @new_sched;
 *	-EBUSY: too late
 * @event_fd: fd that polls readable when @read_events has something
 * @read_events: up to @n completions, without blocking; the count
 * @decode_fd: the decoder pool's fd (mmx_decode_fd()); -1 without a pool
 * @decode_submit: mmx_decode_submit()
 * @decode_submit_audio: mmx_decode_submit_audio() (NULL: no MPEG)
 * @decode_collect: mmx_decode_collect()
 * @decode_cancel: mmx_decode_cancel()
 * @audio: the audio device ops, NULL without audio (struct
 *	mmxd_audio_ops)
 * @vblank_source: (TIME) the vblank clock source of @output's CRTC in
 *	@src, its handle (freed by @vblank_source_free) in @handle; NULL:
 *	no VBLANK clocks (-ENOSYS)
 * @vblank_source_free: free it
 */
struct mmxd_media_ops {
	int64_t (*now)(void *ctx);
	int (*target)(void *ctx, uint32_t output, const uint32_t *busy,
		      unsigned int nbusy, struct mmxd_video_target *t);
	void (*untarget)(void *ctx, const struct mmxd_video_target *t);
	int (*fb_new)(void *ctx, uint32_t width, uint32_t height,
		      struct mmxd_fb *fb);
	void (*fb_free)(void *ctx, struct mmxd_fb *fb);
	int (*schedule)(void *ctx, const struct mmxd_video_target *t,
			uint32_t fb, int32_t x, int32_t y, uint32_t w,
			uint32_t h, int64_t exec_ns, int64_t expire_ns,
			uint64_t user, uint64_t *sched);
	int (*retract)(void *ctx, uint64_t sched);
	int (*replace)(void *ctx, uint64_t sched,
		       const struct mmxd_video_target *t, uint32_t fb,
		       int32_t x, int32_t y, uint32_t w, uint32_t h,
		       int64_t exec_ns, int64_t expire_ns, uint64_t user,
		       uint64_t *new_sched);
	int (*event_fd)(void *ctx);
	int (*read_events)(void *ctx, struct mmxd_sched_event *ev,
			   unsigned int n);
	int (*decode_fd)(void *ctx);
	int (*decode_submit)(void *ctx, uint64_t id, const void *jpeg,
			     size_t len, void *dst, uint32_t pitch,
			     uint32_t width, uint32_t height);
	int (*decode_submit_audio)(void *ctx, uint64_t id, const void *mpeg,
				   size_t len, int16_t *dst,
				   uint32_t max_frames, uint32_t channels);
	int (*decode_collect)(void *ctx, struct mmx_decode_result *r,
			      unsigned int n);
	int (*decode_cancel)(void *ctx, uint64_t id);
	const struct mmxd_audio_ops *audio;
	int (*vblank_source)(void *ctx, uint32_t output,
			     struct mmx_clock_source *src, void **handle);
	void (*vblank_source_free)(void *ctx, void *handle);
};

/**
 * struct mmxd_audio_ops - one audio device (opened by the first stream
 *	with audio, closed with the last), as mmx_audio.h does it
 * @open: open the device at @rate, @channels; its handle in @out
 * @close: close it
 * @play: mmx_audio_play() of @frames frames of @samples (copied) at
 *	device position @at (frames)
 * @cancel: mmx_audio_cancel()
 * @written: mmx_audio_written()
 * @poll_fill: mmx_audio_poll_fill(); the count
 * @service: mmx_audio_service() then mmx_audio_collect() of up to @n
 *	finished plays (@ids, @end_ns); the count or -errno
 * @frame_to_ns: mmx_audio_frame_to_ns()
 * @ns_to_frame: mmx_audio_ns_to_frame()
 * @played: the position being heard now (frames), -EAGAIN if not running
 */
struct mmxd_audio_ops {
	int (*open)(void *ctx, uint32_t rate, uint32_t channels, void **out);
	void (*close)(void *ctx, void *a);
	int (*play)(void *ctx, void *a, uint64_t id, const int16_t *samples,
		    uint64_t frames, int64_t at);
	int (*cancel)(void *ctx, void *a, uint64_t id);
	int64_t (*written)(void *ctx, void *a);
	int (*poll_fill)(void *ctx, void *a, struct pollfd *pfd,
			 unsigned int n);
	int (*service)(void *ctx, void *a, uint64_t *ids, int64_t *end_ns,
		       unsigned int n);
	int (*frame_to_ns)(void *ctx, void *a, int64_t frame, int64_t *ns);
	int (*ns_to_frame)(void *ctx, void *a, int64_t ns, double *frame);
	int (*played)(void *ctx, void *a, int64_t *frames);
};

/*
 * The real backend over @d's KMS device, a decoder pool (NULL: no
 * streams) and the ALSA PCM @audio_device (NULL: "default") (media_kms.c).
 * Its ops: mmxd_kms_media_ops, or mmxd_kms_media_ops_noaudio.
 */
int mmxd_kms_media_new(struct mmx_display *d, struct mmx_decode_pool *pool,
		       const char *audio_device, void **ctx);
void mmxd_kms_media_free(void *ctx);
extern const struct mmxd_media_ops mmxd_kms_media_ops;
extern const struct mmxd_media_ops mmxd_kms_media_ops_noaudio;

#endif /* MMXD_BACKEND_H */
