// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxplay's AVI reader (avi.h). The layouts are Microsoft's
 * "AVI RIFF File Reference": MainAVIHeader (avih, 56 bytes),
 * AVIStreamHeader (strh, 56 bytes, 48 accepted), BITMAPINFOHEADER and
 * WAVEFORMATEX (strf), AVIOLDINDEX (idx1, 16-byte entries). Everything is
 * little-endian.
 */

#define _GNU_SOURCE

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "avi.h"
#include "avi_riff.h"

/* Nesting of 'rec ' lists inside movi that the scan follows. */
#define MAX_DEPTH		4

static uint32_t rd32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static uint16_t rd16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* A FOURCC for a message, non-printable bytes as '?'. */
static const char *fcc_str(uint32_t v, char buf[5])
{
	int i;

	for (i = 0; i < 4; i++) {
		char c = (char)(v >> (8 * i));

		buf[i] = (c >= 0x20 && c < 0x7f) ? c : '?';
	}
	buf[4] = 0;
	return buf;
}

struct stream {
	uint32_t type;
	uint32_t handler;
	uint32_t scale;
	uint32_t rate;
	uint32_t start;
	uint32_t sample_size;
	const uint8_t *strf;
	uint32_t strf_size;
	bool have_strh;
};

struct parser {
	const uint8_t *d;
	size_t len;
	char *err;
	size_t errlen;
	/* hdrl */
	bool have_avih;
	uint32_t usec_per_frame;
	unsigned int nstreams;
	struct stream streams[AVI_MAX_STREAMS];
	/* movi: the offset of its 'movi' FOURCC and the end of its data */
	bool have_movi;
	size_t movi;
	size_t movi_end;
	/* idx1 data, if any */
	size_t idx1;
	uint32_t idx1_size;
	bool have_idx1;
	/* chunk array capacities */
	uint32_t video_cap;
	uint32_t audio_cap;
};

static int fail(struct parser *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct parser *p, int err, const char *fmt, ...)
{
	va_list ap;

	if (p->errlen) {
		va_start(ap, fmt);
		vsnprintf(p->err, p->errlen, fmt, ap);
		va_end(ap);
	}
	return err;
}

static void note(struct avi_file *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void note(struct avi_file *f, const char *fmt, ...)
{
	size_t used = strlen(f->note);
	va_list ap;

	if (used + 3 >= sizeof(f->note))
		return;
	if (used) {
		strcpy(f->note + used, "; ");
		used += 2;
	}
	va_start(ap, fmt);
	vsnprintf(f->note + used, sizeof(f->note) - used, fmt, ap);
	va_end(ap);
}

/*
 * The chunk header at @pos inside [@pos, @end): its id and size, and the
 * offset of the next chunk. A chunk that does not fit is an error; a
 * missing pad byte after the last chunk is tolerated.
 */
static int chunk_at(struct parser *p, size_t pos, size_t end, uint32_t *id,
		    uint32_t *size, size_t *next)
{
	char b[5];

	if (end - pos < 8)
		return fail(p, -EINVAL,
			    "offset %zu: %zu stray bytes where a chunk header (8) should be",
			    pos, end - pos);
	*id = rd32(p->d + pos);
	*size = rd32(p->d + pos + 4);
	if (*size > end - pos - 8)
		return fail(p, -EINVAL,
			    "chunk '%s' at offset %zu: its %u bytes run past the end of its parent (offset %zu)",
			    fcc_str(*id, b), pos, *size, end);
	*next = pos + 8 + *size;
	if ((*size & 1) && *next < end)
		(*next)++;
	return 0;
}

static int parse_strl(struct parser *p, size_t pos, size_t end)
{
	struct stream *s = NULL;
	uint32_t id, size;
	size_t next;
	int ret;

	if (p->nstreams < AVI_MAX_STREAMS)
		s = &p->streams[p->nstreams];
	p->nstreams++;
	for (; pos < end; pos = next) {
		ret = chunk_at(p, pos, end, &id, &size, &next);
		if (ret)
			return ret;
		if (!s)
			continue;
		if (id == ID_STRH) {
			const uint8_t *h = p->d + pos + 8;

			if (size < STRH_MIN)
				return fail(p, -EINVAL,
					    "stream %u: strh of %u bytes (at least %u)",
					    p->nstreams - 1, size, STRH_MIN);
			s->type = rd32(h);
			s->handler = rd32(h + 4);
			s->scale = rd32(h + 20);
			s->rate = rd32(h + 24);
			s->start = rd32(h + 28);
			s->sample_size = rd32(h + 44);
			s->have_strh = true;
		} else if (id == ID_STRF) {
			s->strf = p->d + pos + 8;
			s->strf_size = size;
		}
	}
	if (s && !s->have_strh)
		return fail(p, -EINVAL, "stream %u: no strh", p->nstreams - 1);
	return 0;
}

static int parse_hdrl(struct parser *p, size_t pos, size_t end)
{
	uint32_t id, size;
	size_t next;
	int ret;

	for (; pos < end; pos = next) {
		ret = chunk_at(p, pos, end, &id, &size, &next);
		if (ret)
			return ret;
		if (id == ID_AVIH) {
			if (size < AVIH_SIZE)
				return fail(p, -EINVAL,
					    "avih of %u bytes (%u expected)",
					    size, AVIH_SIZE);
			p->usec_per_frame = rd32(p->d + pos + 8);
			p->have_avih = true;
		} else if (id == ID_LIST && size >= 4 &&
			   rd32(p->d + pos + 8) == ID_STRL) {
			ret = parse_strl(p, pos + 12, pos + 8 + size);
			if (ret)
				return ret;
		}
	}
	if (!p->have_avih)
		return fail(p, -EINVAL, "no avih main header");
	return 0;
}

static bool is_mjpeg(uint32_t fcc)
{
	char b[5];

	fcc_str(fcc, b);
	return !strcasecmp(b, "MJPG");
}

/* Video stream @i's (@s) frame rate, from its strh or else from avih. */
static int video_rate(struct parser *p, const struct stream *s,
		      unsigned int i, struct avi_file *f)
{
	if (s->scale && s->rate) {
		f->fps_num = s->rate;
		f->fps_den = s->scale;
	} else if (p->usec_per_frame) {
		f->fps_num = 1000000;
		f->fps_den = p->usec_per_frame;
	} else {
		return fail(p, -EINVAL,
			    "video stream %u: no frame rate (strh rate/scale and avih are 0)",
			    i);
	}
	f->frame_ns = (int64_t)((unsigned __int128)f->fps_den * 1000000000u /
				f->fps_num);
	/* between 1000 and 0.01 frames a second */
	if (f->frame_ns < 1000000 || f->frame_ns > 100ll * 1000000000)
		return fail(p, -EINVAL, "video stream %u: frame rate %u/%u",
			    i, f->fps_num, f->fps_den);
	return 0;
}

static int pick_video(struct parser *p, struct avi_file *f)
{
	unsigned int i, n = p->nstreams < AVI_MAX_STREAMS ?
		p->nstreams : AVI_MAX_STREAMS;
	struct stream *s = NULL;
	bool any = false;
	uint32_t comp = 0;
	int32_t w, h;
	char b[5];

	for (i = 0; i < n; i++) {
		if (p->streams[i].type != ID_VIDS)
			continue;
		any = true;
		if (!p->streams[i].strf || p->streams[i].strf_size < BIH_SIZE)
			return fail(p, -EINVAL,
				    "video stream %u: no BITMAPINFOHEADER (strf of %u bytes)",
				    i, p->streams[i].strf_size);
		comp = rd32(p->streams[i].strf + 16);
		if (is_mjpeg(comp) ||
		    (comp == 0 && is_mjpeg(p->streams[i].handler))) {
			s = &p->streams[i];
			break;
		}
	}
	if (!s) {
		if (!any)
			return fail(p, -ENOTSUP, "no video stream");
		return fail(p, -ENOTSUP,
			    "the video is '%s', not MJPEG (MJPG)",
			    fcc_str(comp, b));
	}
	f->video_stream = (int)i;
	w = (int32_t)rd32(s->strf + 4);
	h = (int32_t)rd32(s->strf + 8);
	if (h < 0)
		h = -h;
	if (w <= 0 || h <= 0 || w > 16384 || h > 16384)
		return fail(p, -EINVAL, "video stream %u: bad size %dx%d", i,
			    w, h);
	f->width = (uint32_t)w;
	f->height = (uint32_t)h;
	return video_rate(p, s, i, f);
}

/*
 * Audio stream @i's (@s) codec from f->audio_tag: 1 for PCM or MPEG audio
 * mmxplay plays, 0 (a note) for another, or an error.
 */
static int audio_codec(struct parser *p, const struct stream *s,
		       unsigned int i, struct avi_file *f)
{
	uint32_t tag = f->audio_tag;

	if (tag == AVI_WAVE_PCM) {
		if (f->bits != 16)
			return fail(p, -ENOTSUP,
				    "audio stream %u: %u-bit PCM (16-bit only)",
				    i, f->bits);
		if (f->block_align != 2 * f->channels)
			return fail(p, -EINVAL,
				    "audio stream %u: block align %u for %u channels of 16 bits",
				    i, f->block_align, f->channels);
		f->audio_codec = AVI_AUDIO_PCM;
		return 1;
	}
	if (tag == AVI_WAVE_MPEG || tag == AVI_WAVE_MPEGLAYER3) {
		if (f->channels > 2)
			return fail(p, -EINVAL,
				    "audio stream %u: MPEG audio with %u channels",
				    i, f->channels);
		if (!(s->sample_size == 0 && s->scale && s->rate) &&
		    !f->avg_bytes)
			return fail(p, -EINVAL,
				    "audio stream %u: MPEG audio without a time base (strh scale/rate, nAvgBytesPerSec)",
				    i);
		f->audio_codec = AVI_AUDIO_MPEG;
		return 1;
	}
	note(f, "audio stream %u: format 0x%04x is not played", i, tag);
	return 0;
}

/* The first audio stream; unplayable audio is a note, not an error. */
static int pick_audio(struct parser *p, struct avi_file *f)
{
	unsigned int i, n = p->nstreams < AVI_MAX_STREAMS ?
		p->nstreams : AVI_MAX_STREAMS;
	const uint8_t *wf;
	struct stream *s;
	uint32_t tag;
	int ret;

	f->audio_stream = -1;
	for (i = 0; i < n; i++)
		if (p->streams[i].type == ID_AUDS)
			break;
	if (i == n)
		return 0;
	s = &p->streams[i];
	if (!s->strf || s->strf_size < WFX_MIN)
		return fail(p, -EINVAL,
			    "audio stream %u: no WAVEFORMATEX (strf of %u bytes)",
			    i, s->strf_size);
	wf = s->strf;
	tag = rd16(wf);
	/* WAVEFORMATEXTENSIBLE: the format is the SubFormat GUID's first 2 */
	if (tag == AVI_WAVE_EXTENSIBLE && s->strf_size >= 40 &&
	    rd16(wf + 16) >= 22)
		tag = rd16(wf + 24);
	f->audio_tag = tag;
	f->channels = rd16(wf + 2);
	f->rate = rd32(wf + 4);
	f->avg_bytes = rd32(wf + 8);
	f->block_align = rd16(wf + 12);
	f->bits = rd16(wf + 14);
	if (f->channels < 1 || f->channels > 8 || f->rate < 1000 ||
	    f->rate > 384000)
		return fail(p, -EINVAL,
			    "audio stream %u: %u channels at %u Hz", i,
			    f->channels, f->rate);
	ret = audio_codec(p, s, i, f);
	if (ret <= 0)
		return ret;
	f->audio_stream = (int)i;
	return 0;
}

static int add_chunk(struct parser *p, struct avi_file *f, bool video,
		     uint64_t offset, uint32_t size, uint32_t key)
{
	struct avi_chunk **arr = video ? &f->video : &f->audio;
	uint32_t *n = video ? &f->nvideo : &f->naudio;
	uint32_t *cap = video ? &p->video_cap : &p->audio_cap;
	struct avi_chunk *c;

	if (*n == *cap) {
		uint32_t ncap = *cap ? *cap * 2 : 256;

		if (ncap < *cap)
			return fail(p, -ENOMEM, "too many chunks");
		c = reallocarray(*arr, ncap, sizeof(*c));
		if (!c)
			return fail(p, -ENOMEM, "out of memory");
		*arr = c;
		*cap = ncap;
	}
	c = &(*arr)[*n];
	c->offset = offset;
	c->size = size;
	c->key = key;
	c->pts_ns = 0;
	c->index = *n;
	(*n)++;
	return 0;
}

static int stream_of(uint32_t ckid)
{
	uint8_t a = ckid & 0xff, b = (ckid >> 8) & 0xff;

	if (a < '0' || a > '9' || b < '0' || b > '9')
		return -1;
	return (a - '0') * 10 + (b - '0');
}

/* Whether chunk @ckid is one we play: 1 video, 2 audio, 0 neither. */
static int chunk_kind(const struct avi_file *f, uint32_t ckid)
{
	int s = stream_of(ckid);
	uint32_t tc = ckid >> 16;

	if (s < 0)
		return 0;
	if (s == f->video_stream && tc != ('p' | 'c' << 8))
		return 1;
	if (s == f->audio_stream && f->audio_codec != AVI_AUDIO_NONE &&
	    tc == ('w' | 'b' << 8))
		return 2;
	return 0;
}

static void drop_chunks(struct parser *p, struct avi_file *f)
{
	free(f->video);
	free(f->audio);
	f->video = NULL;
	f->audio = NULL;
	f->nvideo = 0;
	f->naudio = 0;
	p->video_cap = 0;
	p->audio_cap = 0;
}

/* Whether the chunk header at @pos is @ckid of @size inside movi. */
static bool index_hits(const struct parser *p, uint64_t pos, uint32_t ckid,
		       uint32_t size)
{
	if (pos < p->movi + 4 || pos > p->movi_end || p->movi_end - pos < 8)
		return false;
	if (rd32(p->d + pos) != ckid || rd32(p->d + pos + 4) != size)
		return false;
	return size <= p->movi_end - pos - 8;
}

/*
 * The chunks from idx1. Returns 0, 1 when the index cannot be used (the
 * reason in the note; the caller scans movi), or -ENOMEM.
 */
static int read_index(struct parser *p, struct avi_file *f)
{
	uint32_t i, n = p->idx1_size / 16;
	bool based = false;
	uint64_t base = 0;
	int ret;

	for (i = 0; i < n; i++) {
		const uint8_t *e = p->d + p->idx1 + 16 * (size_t)i;
		uint32_t ckid = rd32(e), flags = rd32(e + 4);
		uint32_t off = rd32(e + 8), size = rd32(e + 12);
		int kind = chunk_kind(f, ckid);

		if (!kind)
			continue;
		if (!based) {
			/* relative to the 'movi' FOURCC, or absolute */
			if (index_hits(p, (uint64_t)p->movi + off, ckid, size))
				base = p->movi;
			else if (!index_hits(p, off, ckid, size))
				goto bad;
			based = true;
		}
		if (!index_hits(p, base + off, ckid, size))
			goto bad;
		ret = add_chunk(p, f, kind == 1, base + off + 8, size,
				!!(flags & AVIIF_KEYFRAME));
		if (ret)
			return ret;
	}
	if (!f->nvideo) {
		note(f, "idx1 lists no video chunk: movi scanned");
		drop_chunks(p, f);
		return 1;
	}
	return 0;
bad:
	note(f, "idx1 entry %u does not point at its chunk: movi scanned", i);
	drop_chunks(p, f);
	return 1;
}

static int scan_movi(struct parser *p, struct avi_file *f, size_t pos,
		     size_t end, int depth)
{
	uint32_t id, size;
	size_t next;
	int ret, kind;

	for (; pos < end; pos = next) {
		ret = chunk_at(p, pos, end, &id, &size, &next);
		if (ret)
			return ret;
		if (id == ID_LIST) {
			if (size >= 4 && rd32(p->d + pos + 8) == ID_REC) {
				if (depth >= MAX_DEPTH)
					return fail(p, -EINVAL,
						    "offset %zu: 'rec ' lists nested too deep",
						    pos);
				ret = scan_movi(p, f, pos + 12, pos + 8 + size,
						depth + 1);
				if (ret)
					return ret;
			}
			continue;
		}
		kind = chunk_kind(f, id);
		if (!kind)
			continue;
		ret = add_chunk(p, f, kind == 1, pos + 8, size, 1);
		if (ret)
			return ret;
	}
	return 0;
}

static int64_t mul_div(uint64_t a, uint64_t b, uint64_t c)
{
	unsigned __int128 v = (unsigned __int128)a * b / c;

	return v > INT64_MAX ? INT64_MAX : (int64_t)v;
}

static int set_times(struct parser *p, struct avi_file *f)
{
	const struct stream *vs = &p->streams[f->video_stream];
	uint64_t start = vs->scale && vs->rate ? vs->start : 0;
	uint64_t bytes = 0;
	int64_t end = 0, t;
	uint32_t i;

	for (i = 0; i < f->nvideo; i++) {
		f->video[i].pts_ns = mul_div((start + i) * f->fps_den,
					     1000000000u, f->fps_num);
		f->video_bytes += f->video[i].size;
	}
	if (f->nvideo)
		end = f->video[f->nvideo - 1].pts_ns + f->frame_ns;
	if (f->audio_codec == AVI_AUDIO_NONE)
		goto out;
	for (i = 0; i < f->naudio; i++) {
		struct avi_chunk *c = &f->audio[i];
		const struct stream *as = &p->streams[f->audio_stream];

		if (f->audio_codec == AVI_AUDIO_PCM) {
			if (c->size % f->block_align)
				return fail(p, -EINVAL,
					    "audio chunk %u (offset %llu): %u bytes, not whole %u-byte sample frames",
					    i, (unsigned long long)c->offset,
					    c->size, f->block_align);
			c->pts_ns = mul_div(bytes / f->block_align,
					    1000000000u, f->rate);
			t = mul_div((bytes + c->size) / f->block_align,
				    1000000000u, f->rate);
		} else if (as->sample_size == 0 && as->scale && as->rate) {
			c->pts_ns = mul_div((uint64_t)(as->start + i) *
					    as->scale, 1000000000u, as->rate);
			t = mul_div((uint64_t)(as->start + i + 1) * as->scale,
				    1000000000u, as->rate);
		} else {
			c->pts_ns = mul_div(bytes, 1000000000u, f->avg_bytes);
			t = mul_div(bytes + c->size, 1000000000u,
				    f->avg_bytes);
		}
		bytes += c->size;
		if (t > end)
			end = t;
	}
	f->audio_bytes = bytes;
out:
	f->duration_ns = end;
	return 0;
}

void avi_free(struct avi_file *f)
{
	if (!f)
		return;
	free(f->video);
	free(f->audio);
	memset(f, 0, sizeof(*f));
}

/* The RIFF header and its top-level chunks: hdrl parsed, movi and idx1 found. */
static int read_riff(struct parser *p)
{
	const uint8_t *data = p->d;
	uint32_t id, size;
	size_t pos, next, end;
	int ret;

	if (p->len < 12 || rd32(data) != ID_RIFF || rd32(data + 8) != ID_AVI)
		return fail(p, -EINVAL, "not an AVI file (no RIFF 'AVI ' header)");
	size = rd32(data + 4);
	if (size < 4 || size > p->len - 8)
		return fail(p, -EINVAL,
			    "truncated: the RIFF chunk says %llu bytes, the file has %zu",
			    (unsigned long long)size + 8, p->len);
	end = 8 + (size_t)size;
	for (pos = 12; pos < end; pos = next) {
		ret = chunk_at(p, pos, end, &id, &size, &next);
		if (ret)
			return ret;
		if (id == ID_LIST && size >= 4) {
			uint32_t type = rd32(data + pos + 8);

			if (type == ID_HDRL) {
				ret = parse_hdrl(p, pos + 12, pos + 8 + size);
				if (ret)
					return ret;
			} else if (type == ID_MOVI && !p->have_movi) {
				p->have_movi = true;
				p->movi = pos + 8;
				p->movi_end = pos + 8 + size;
			}
		} else if (id == ID_IDX1 && !p->have_idx1) {
			p->have_idx1 = true;
			p->idx1 = pos + 8;
			p->idx1_size = size;
		}
	}
	return 0;
}

/* The streams picked and their chunks listed (idx1, else movi scanned). */
static int read_streams(struct parser *p, struct avi_file *out)
{
	int ret;

	if (!p->have_avih)
		return fail(p, -EINVAL, "no 'hdrl' header list");
	if (!p->have_movi)
		return fail(p, -EINVAL, "no 'movi' list");
	if (p->nstreams > AVI_MAX_STREAMS)
		note(out, "%u streams: those past %u ignored", p->nstreams,
		     AVI_MAX_STREAMS);
	ret = pick_video(p, out);
	if (ret)
		return ret;
	ret = pick_audio(p, out);
	if (ret)
		return ret;

	ret = 1;
	if (p->have_idx1) {
		ret = read_index(p, out);
		if (ret < 0)
			return ret;
	}
	out->from_index = !ret;
	if (ret) {
		ret = scan_movi(p, out, p->movi + 4, p->movi_end, 0);
		if (ret)
			return ret;
	}
	if (!out->nvideo)
		return fail(p, -EINVAL, "the video stream has no frames");
	return set_times(p, out);
}

int avi_parse(const uint8_t *data, size_t len, struct avi_file *out,
	      char *err, size_t errlen)
{
	struct parser *p;
	int ret;

	memset(out, 0, sizeof(*out));
	out->video_stream = -1;
	out->audio_stream = -1;
	if (errlen)
		err[0] = 0;
	p = calloc(1, sizeof(*p));
	if (!p) {
		if (errlen)
			snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	p->d = data;
	p->len = len;
	p->err = err;
	p->errlen = errlen;

	ret = read_riff(p);
	if (!ret)
		ret = read_streams(p, out);
	if (ret)
		avi_free(out);
	free(p);
	return ret;
}

int avi_read_file(const char *path, uint8_t **data, size_t *len, char *err,
		  size_t errlen)
{
	struct stat st;
	size_t done = 0;
	uint8_t *buf;
	int fd, ret;

	*data = NULL;
	*len = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	if (fstat(fd, &st)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: not a regular file", path);
		goto out_close;
	}
	if ((unsigned long long)st.st_size > AVI_MAX_FILE) {
		ret = -EFBIG;
		snprintf(err, errlen, "%s: larger than %llu bytes", path,
			 (unsigned long long)AVI_MAX_FILE);
		goto out_close;
	}
	buf = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "%s: out of memory", path);
		goto out_close;
	}
	while (done < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + done, (size_t)st.st_size - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			snprintf(err, errlen, "%s: read: %s", path,
				 strerror(-ret));
			free(buf);
			goto out_close;
		}
		done += (size_t)n;
	}
	*data = buf;
	*len = done;
	ret = 0;
out_close:
	close(fd);
	return ret;
}
