// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The tests' AVI writer (avi_writer.h), in the layout mmxplay's reader
 * checks (userspace/mmxplay/avi_riff.h): the headers are written first
 * with zero counts and patched at close, when the counts and the largest
 * chunk are known.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "avi.h"
#include "avi_riff.h"
#include "avi_writer.h"

struct avi_writer {
	FILE *fp;
	struct avi_writer_config cfg;
	uint32_t header_size;	/* up to and including "movi" */
	uint64_t movi_bytes;	/* chunk bytes after "movi" */
	uint32_t nvideo;
	uint32_t naudio_chunks;
	uint64_t audio_frames;
	uint32_t max_chunk;
	uint8_t *index;		/* idx1 entries */
	size_t nindex;
	size_t index_cap;
	int error;
};

static void put32(uint8_t **p, uint32_t v)
{
	(*p)[0] = v;
	(*p)[1] = v >> 8;
	(*p)[2] = v >> 16;
	(*p)[3] = v >> 24;
	*p += 4;
}

static void put16(uint8_t **p, uint16_t v)
{
	(*p)[0] = v;
	(*p)[1] = v >> 8;
	*p += 2;
}

static uint32_t strf_audio_size(const struct avi_writer_config *c)
{
	return c->audio_tag == AVI_WAVE_MPEG ? 40 : 18;
}

/* The headers up to the "movi" FOURCC; returns their size. */
static uint32_t build_header(const struct avi_writer *w, uint8_t *buf)
{
	const struct avi_writer_config *c = &w->cfg;
	bool audio = c->audio_tag != 0;
	uint32_t strl_v = 4 + 8 + STRH_SIZE + 8 + BIH_SIZE;
	uint32_t strl_a = audio ? 4 + 8 + STRH_SIZE + 8 + strf_audio_size(c) : 0;
	uint32_t hdrl = 4 + 8 + AVIH_SIZE + 8 + strl_v + (audio ? 8 + strl_a : 0);
	uint32_t idx = (uint32_t)(w->nindex * 16);
	uint32_t movi = 4 + (uint32_t)w->movi_bytes;
	uint32_t usec = (uint32_t)((uint64_t)c->fps_den * 1000000 / c->fps_num);
	uint8_t *p = buf;

	put32(&p, ID_RIFF);
	put32(&p, 4 + 8 + hdrl + 8 + movi + 8 + idx);
	put32(&p, ID_AVI);
	put32(&p, ID_LIST);
	put32(&p, hdrl);
	put32(&p, ID_HDRL);

	put32(&p, ID_AVIH);
	put32(&p, AVIH_SIZE);
	put32(&p, usec);
	put32(&p, 0);			/* max bytes per second */
	put32(&p, 0);			/* padding granularity */
	put32(&p, AVIF_HASINDEX | AVIF_ISINTERLEAVED);
	put32(&p, w->nvideo);
	put32(&p, 0);			/* initial frames */
	put32(&p, audio ? 2 : 1);
	put32(&p, w->max_chunk + 8);
	put32(&p, c->width);
	put32(&p, c->height);
	memset(p, 0, 16);
	p += 16;

	put32(&p, ID_LIST);
	put32(&p, strl_v);
	put32(&p, ID_STRL);
	put32(&p, ID_STRH);
	put32(&p, STRH_SIZE);
	put32(&p, ID_VIDS);
	put32(&p, ID_MJPG);
	put32(&p, 0);			/* flags */
	put32(&p, 0);			/* priority, language */
	put32(&p, 0);			/* initial frames */
	put32(&p, c->fps_den);
	put32(&p, c->fps_num);
	put32(&p, 0);			/* start */
	put32(&p, w->nvideo);
	put32(&p, w->max_chunk);
	put32(&p, 0xffffffff);		/* quality: default */
	put32(&p, 0);			/* sample size */
	put16(&p, 0);
	put16(&p, 0);
	put16(&p, (uint16_t)c->width);
	put16(&p, (uint16_t)c->height);
	put32(&p, ID_STRF);
	put32(&p, BIH_SIZE);
	put32(&p, BIH_SIZE);
	put32(&p, c->width);
	put32(&p, c->height);
	put16(&p, 1);			/* planes */
	put16(&p, 24);			/* bit count */
	put32(&p, ID_MJPG);
	put32(&p, c->width * c->height * 3);
	memset(p, 0, 16);
	p += 16;

	if (audio) {
		bool mpeg = c->audio_tag == AVI_WAVE_MPEG;
		uint32_t align = mpeg ? 1 : 2 * c->channels;
		uint32_t avg = mpeg ? c->mpeg_bitrate * 125 :
			c->rate * align;

		put32(&p, ID_LIST);
		put32(&p, strl_a);
		put32(&p, ID_STRL);
		put32(&p, ID_STRH);
		put32(&p, STRH_SIZE);
		put32(&p, ID_AUDS);
		put32(&p, 0);
		put32(&p, 0);
		put32(&p, 0);
		put32(&p, 0);
		put32(&p, mpeg ? 1152 : 1);	/* scale */
		put32(&p, c->rate);		/* rate */
		put32(&p, 0);			/* start */
		put32(&p, mpeg ? w->naudio_chunks : (uint32_t)w->audio_frames);
		put32(&p, w->max_chunk);
		put32(&p, 0xffffffff);
		put32(&p, mpeg ? 0 : align);	/* sample size: 0 is VBR */
		memset(p, 0, 8);
		p += 8;
		put32(&p, ID_STRF);
		put32(&p, strf_audio_size(c));
		put16(&p, (uint16_t)c->audio_tag);
		put16(&p, (uint16_t)c->channels);
		put32(&p, c->rate);
		put32(&p, avg);
		put16(&p, (uint16_t)align);
		put16(&p, mpeg ? 0 : 16);
		put16(&p, mpeg ? 22 : 0);	/* cbSize */
		if (mpeg) {
			/* MPEG1WAVEFORMAT */
			put16(&p, 2);			/* ACM_MPEG_LAYER2 */
			put32(&p, c->mpeg_bitrate * 1000);
			put16(&p, c->channels == 1 ? 8 : 1);	/* mode */
			put16(&p, 0);			/* mode extension */
			put16(&p, 1);			/* emphasis: none */
			put16(&p, 0x10);		/* ACM_MPEG_ID_MPEG1 */
			put32(&p, 0);
			put32(&p, 0);
		}
	}

	put32(&p, ID_LIST);
	put32(&p, movi);
	put32(&p, ID_MOVI);
	return (uint32_t)(p - buf);
}

#define MAX_HEADER	512

int avi_writer_open(const char *path, const struct avi_writer_config *cfg,
		    struct avi_writer **out)
{
	uint8_t hdr[MAX_HEADER];
	struct avi_writer *w;
	int ret;

	*out = NULL;
	if (!cfg->width || !cfg->height || cfg->width > 16384 ||
	    cfg->height > 16384 || !cfg->fps_num || !cfg->fps_den)
		return -EINVAL;
	if (cfg->audio_tag && cfg->audio_tag != AVI_WAVE_PCM &&
	    cfg->audio_tag != AVI_WAVE_MPEG)
		return -EINVAL;
	if (cfg->audio_tag && (!cfg->rate || !cfg->channels ||
			       cfg->channels > 8))
		return -EINVAL;
	if (cfg->audio_tag == AVI_WAVE_MPEG && !cfg->mpeg_bitrate)
		return -EINVAL;
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->cfg = *cfg;
	w->fp = fopen(path, "wb");
	if (!w->fp) {
		ret = -errno;
		free(w);
		return ret;
	}
	w->header_size = build_header(w, hdr);
	if (fwrite(hdr, 1, w->header_size, w->fp) != w->header_size) {
		ret = -EIO;
		fclose(w->fp);
		free(w);
		return ret;
	}
	*out = w;
	return 0;
}

static int write_chunk(struct avi_writer *w, uint32_t ckid, const void *data,
		       uint32_t size)
{
	uint8_t h[8], *p = h, *e;
	static const uint8_t zero;

	if (w->error)
		return w->error;
	if (w->movi_bytes + size + 9 + (w->nindex + 1) * 16 > 0xfff00000u)
		return w->error = -EFBIG;
	if (w->nindex == w->index_cap) {
		size_t ncap = w->index_cap ? 2 * w->index_cap : 1024;
		uint8_t *n = realloc(w->index, ncap * 16);

		if (!n)
			return w->error = -ENOMEM;
		w->index = n;
		w->index_cap = ncap;
	}
	e = w->index + 16 * w->nindex;
	put32(&e, ckid);
	put32(&e, AVIIF_KEYFRAME);
	put32(&e, 4 + (uint32_t)w->movi_bytes);	/* from "movi" */
	put32(&e, size);
	w->nindex++;

	put32(&p, ckid);
	put32(&p, size);
	if (fwrite(h, 1, 8, w->fp) != 8 ||
	    (size && fwrite(data, 1, size, w->fp) != size) ||
	    ((size & 1) && fwrite(&zero, 1, 1, w->fp) != 1))
		return w->error = -EIO;
	w->movi_bytes += 8 + size + (size & 1);
	if (size > w->max_chunk)
		w->max_chunk = size;
	return 0;
}

int avi_writer_video(struct avi_writer *w, const void *jpeg, uint32_t size)
{
	int ret = write_chunk(w, FCC('0', '0', 'd', 'c'), jpeg, size);

	if (!ret)
		w->nvideo++;
	return ret;
}

int avi_writer_audio(struct avi_writer *w, const void *data, uint32_t size,
		     uint32_t frames)
{
	int ret;

	if (!w->cfg.audio_tag)
		return -EINVAL;
	ret = write_chunk(w, FCC('0', '1', 'w', 'b'), data, size);
	if (!ret) {
		w->naudio_chunks++;
		w->audio_frames += frames;
	}
	return ret;
}

int avi_writer_close(struct avi_writer *w)
{
	uint8_t hdr[MAX_HEADER], h[8], *p = h;
	int ret = w->error;

	if (!ret) {
		put32(&p, ID_IDX1);
		put32(&p, (uint32_t)(w->nindex * 16));
		if (fwrite(h, 1, 8, w->fp) != 8 ||
		    (w->nindex &&
		     fwrite(w->index, 16, w->nindex, w->fp) != w->nindex))
			ret = -EIO;
	}
	if (!ret) {
		build_header(w, hdr);
		if (fseek(w->fp, 0, SEEK_SET) ||
		    fwrite(hdr, 1, w->header_size, w->fp) != w->header_size)
			ret = -EIO;
	}
	if (fclose(w->fp) && !ret)
		ret = -EIO;
	free(w->index);
	free(w);
	return ret;
}
