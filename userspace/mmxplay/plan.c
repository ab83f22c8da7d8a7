// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's plan: the sends of a file in stream-time order. Audio chunks
 * are grouped (an AVI interleaves one chunk a video frame or less; one
 * message per group keeps the protocol overhead down) as long as they are
 * adjacent in time: a group's pts is its first chunk's, and its data the
 * chunks' data in order, which is the same audio.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <stdlib.h>

#include "mmxplay.h"

static int cmp_item(const void *a, const void *b)
{
	const struct mmxplay_item *x = a, *y = b;

	if (x->pts_ns != y->pts_ns)
		return x->pts_ns < y->pts_ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	return x->first < y->first ? -1 : x->first > y->first;
}

/* End of audio chunk @i: the next chunk's pts, or an estimate. */
static int64_t audio_end(const struct avi_file *f, uint32_t i)
{
	const struct avi_chunk *c = &f->audio[i];

	if (i + 1 < f->naudio)
		return f->audio[i + 1].pts_ns;
	if (f->audio_codec == AVI_AUDIO_PCM && f->block_align && f->rate)
		return c->pts_ns + (int64_t)((unsigned __int128)c->size /
					     f->block_align * 1000000000u /
					     f->rate);
	return f->duration_ns;
}

int mmxplay_plan(const struct avi_file *f, bool audio, int64_t audio_group_ns,
		 struct mmxplay_item **items, size_t *n)
{
	struct mmxplay_item *it;
	size_t cnt = 0;
	uint32_t i;

	*items = NULL;
	*n = 0;
	it = calloc((size_t)f->nvideo + f->naudio + 1, sizeof(*it));
	if (!it)
		return -ENOMEM;
	for (i = 0; i < f->nvideo; i++) {
		if (!f->video[i].size)
			continue;
		it[cnt].kind = MMXPLAY_VIDEO;
		it[cnt].first = i;
		it[cnt].count = 1;
		it[cnt].bytes = f->video[i].size;
		it[cnt].pts_ns = f->video[i].pts_ns;
		cnt++;
	}
	if (audio && f->audio_codec != AVI_AUDIO_NONE) {
		struct mmxplay_item *g = NULL;

		for (i = 0; i < f->naudio; i++) {
			const struct avi_chunk *c = &f->audio[i];

			if (!c->size)
				continue;
			/*
			 * Join the group while it is short, this chunk
			 * follows the previous one in time and the bytes fit.
			 */
			if (g && f->audio[i - 1].size &&
			    audio_end(f, g->first + g->count - 1) ==
			    c->pts_ns && g->first + g->count == i &&
			    c->pts_ns - g->pts_ns < audio_group_ns &&
			    (uint64_t)g->bytes + c->size <= MMXPLAY_MAX_SEND) {
				g->count++;
				g->bytes += c->size;
				continue;
			}
			g = &it[cnt++];
			g->kind = MMXPLAY_AUDIO;
			g->first = i;
			g->count = 1;
			g->bytes = c->size;
			g->pts_ns = c->pts_ns;
		}
	}
	qsort(it, cnt, sizeof(*it), cmp_item);
	*items = it;
	*n = cnt;
	return 0;
}
