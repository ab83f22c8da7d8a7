// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmx-jpegd's audio requests: MPEG-1/2 Layer I/II/III audio decoded by
 * libmpg123 from the shared memory into interleaved S16 PCM. Every request
 * gets a fresh handle in feeder mode (mpg123_open_feed, mpg123_feed,
 * mpg123_read): no file, no seek, nothing but malloc, which the sandbox
 * allows. A hostile stream can at worst fail its request (or crash this
 * process, which the pool replaces).
 */

#define _GNU_SOURCE

#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include <mpg123.h>

#include "jpegd.h"
#include "mmx_decode.h"

int jpegd_mpeg_init(void)
{
	return mpg123_init() == MPG123_OK ? 0 : -1;
}

static bool rate_ok(long rate)
{
	const long *rates;
	size_t n, i;

	mpg123_rates(&rates, &n);
	for (i = 0; i < n; i++)
		if (rates[i] == rate)
			return true;
	return false;
}

/* A handle giving S16 at any of mpg123's rates with @channels channels. */
static mpg123_handle *open_handle(uint32_t channels)
{
	long flags = MPG123_QUIET |
		     (channels == 1 ? MPG123_MONO_MIX : MPG123_FORCE_STEREO);
	mpg123_handle *mh;
	const long *rates;
	size_t n, i;
	int err;

	mh = mpg123_new(NULL, &err);
	if (!mh)
		return NULL;
	if (mpg123_param(mh, MPG123_FLAGS, flags, 0) != MPG123_OK ||
	    mpg123_param(mh, MPG123_RESYNC_LIMIT, 4096, 0) != MPG123_OK ||
	    mpg123_format_none(mh) != MPG123_OK)
		goto fail;
	mpg123_rates(&rates, &n);
	for (i = 0; i < n; i++)
		if (mpg123_format(mh, rates[i],
				  channels == 1 ? MPG123_MONO : MPG123_STEREO,
				  MPG123_ENC_SIGNED_16) != MPG123_OK)
			goto fail;
	if (mpg123_open_feed(mh) != MPG123_OK)
		goto fail;
	return mh;
fail:
	mpg123_delete(mh);
	return NULL;
}

/*
 * Decode what was fed into @out (@room bytes): the bytes written in
 * @done, the rate in @rate and mpg123's last answer in @last. Returns 0,
 * or the reply's status when the stream is refused.
 */
static int decode_all(mpg123_handle *mh, unsigned char *out, uint64_t room,
		      uint32_t channels, size_t *done, long *rate, int *last)
{
	size_t got;
	int ch = 0, enc = 0, ret;

	for (;;) {
		got = 0;
		ret = mpg123_read(mh, out + *done, room - *done, &got);
		*done += got;
		if (ret == MPG123_NEW_FORMAT) {
			if (mpg123_getformat(mh, rate, &ch, &enc) !=
			    MPG123_OK || ch != (int)channels ||
			    enc != MPG123_ENC_SIGNED_16 || !rate_ok(*rate))
				return -EBADMSG;
			continue;
		}
		/* MPG123_OK without the buffer full: more to come */
		if (ret == MPG123_OK && *done < room && got)
			continue;
		break;
	}
	if (ret == MPG123_OK && *done == room) {
		/* full: anything more is too much */
		unsigned char probe[8];

		ret = mpg123_read(mh, probe, sizeof(probe), &got);
		if (got || ret == MPG123_OK)
			return -E2BIG;
	}
	*last = ret;
	return 0;
}

void jpegd_decode_mpeg(unsigned char *map, uint64_t map_size,
		       const struct mmx_jpegd_request *rq,
		       struct mmx_jpegd_reply *r)
{
	uint32_t channels = rq->max_height;
	uint64_t room = (uint64_t)rq->max_width * channels * 2;
	size_t done = 0;
	mpg123_handle *mh;
	long rate = 0;
	int ret, status;

	if ((channels != 1 && channels != 2) || !rq->max_width ||
	    (uint64_t)rq->in_off + rq->len > map_size ||
	    rq->out_off > map_size || room > map_size - rq->out_off) {
		r->status = -EINVAL;
		return;
	}
	mh = open_handle(channels);
	if (!mh) {
		r->status = -ENOMEM;
		return;
	}
	ret = mpg123_feed(mh, map + rq->in_off, rq->len);
	if (ret != MPG123_OK)
		status = ret == MPG123_OUT_OF_MEM ? -ENOMEM : -EBADMSG;
	else
		status = decode_all(mh, map + rq->out_off, room, channels,
				    &done, &rate, &ret);
	mpg123_delete(mh);
	/* MPG123_NEED_MORE: the data ended (maybe inside a frame) */
	if (!status && ret == MPG123_OUT_OF_MEM)
		status = -ENOMEM;
	if (!status && (!rate || done < (size_t)channels * 2))
		status = -EBADMSG;	/* not a single frame */
	if (status) {
		r->status = status;
		return;
	}
	if (ret != MPG123_NEED_MORE && ret != MPG123_DONE &&
	    ret != MPG123_OK)
		r->flags |= MMX_DECODE_WARNING;	/* decoded up to an error */
	r->status = 0;
	r->width = done / (channels * 2);
	r->height = channels;
	r->pitch = rate;
}
