// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * EDID 1.4 generation for the simulated sinks (mmx_sink_presets.c), and
 * the detailed timing decoder that checks each descriptor it writes.
 * Integer only, no DRM include: host unit tests compile this file as is.
 * Uploaded EDIDs are validated by the DRM core (mmx_sink_debugfs.c).
 *
 * Layouts follow VESA E-EDID 1.4 (base block) and CTA-861 (extension
 * block); the byte offsets are spelled out where they are used.
 */

#include <linux/errno.h>

#include "mmx_edid.h"

/**
 * mmx_edid_dtd_decode - decode an 18-byte detailed timing descriptor
 * @d: the descriptor (its pixel clock is not 0)
 * @t: the timing (its name is NULL)
 *
 * An interlaced descriptor counts the lines of a field; @t counts the lines
 * of a frame (vtotal is then odd), as DRM does for the CEA interlaced
 * sizes. Sync polarities are decoded for digital separate sync only.
 */
void mmx_edid_dtd_decode(const u8 *d, struct mmx_timing *t)
{
	unsigned int hact = d[2] | (d[4] & 0xf0) << 4;
	unsigned int hblank = d[3] | (d[4] & 0x0f) << 8;
	unsigned int vact = d[5] | (d[7] & 0xf0) << 4;
	unsigned int vblank = d[6] | (d[7] & 0x0f) << 8;
	unsigned int hfp = d[8] | (d[11] & 0xc0) << 2;
	unsigned int hsw = d[9] | (d[11] & 0x30) << 4;
	unsigned int vfp = d[10] >> 4 | (d[11] & 0x0c) << 2;
	unsigned int vsw = (d[10] & 0x0f) | (d[11] & 0x03) << 4;

	memset(t, 0, sizeof(*t));
	t->clock_khz = (d[0] | d[1] << 8) * 10;
	t->hdisplay = hact;
	t->hsync_start = hact + hfp;
	t->hsync_end = hact + hfp + hsw;
	t->htotal = hact + hblank;
	if (d[17] & 0x80) {
		/* Interlaced: the descriptor counts the lines of one field. */
		t->vdisplay = 2 * vact;
		t->vsync_start = 2 * (vact + vfp);
		t->vsync_end = 2 * (vact + vfp + vsw);
		t->vtotal = 2 * (vact + vblank) + 1;
		t->flags |= MMX_TIMING_INTERLACE;
	} else {
		t->vdisplay = vact;
		t->vsync_start = vact + vfp;
		t->vsync_end = vact + vfp + vsw;
		t->vtotal = vact + vblank;
	}
	/* Polarities are defined for digital separate sync only. */
	if ((d[17] & 0x18) == 0x18) {
		t->flags |= d[17] & 0x02 ? MMX_TIMING_PHSYNC : MMX_TIMING_NHSYNC;
		t->flags |= d[17] & 0x04 ? MMX_TIMING_PVSYNC : MMX_TIMING_NVSYNC;
	}
}

/* A clock in 10 kHz units of 16 bits, syncs inside the blanking. */
static bool mmx_timing_encodable(const struct mmx_timing *t)
{
	if (!t->clock_khz || t->clock_khz % 10 || t->clock_khz / 10 > 0xffff)
		return false;
	return t->hdisplay <= t->hsync_start &&
	       t->hsync_start < t->hsync_end && t->hsync_end <= t->htotal &&
	       t->vdisplay <= t->vsync_start &&
	       t->vsync_start < t->vsync_end && t->vsync_end <= t->vtotal;
}

/* @a and @b are the same timing, @b's flags taken within @flags. */
static bool mmx_timing_same(const struct mmx_timing *a,
			    const struct mmx_timing *b, u32 flags)
{
	return a->clock_khz == b->clock_khz && a->hdisplay == b->hdisplay &&
	       a->hsync_start == b->hsync_start &&
	       a->hsync_end == b->hsync_end && a->htotal == b->htotal &&
	       a->vdisplay == b->vdisplay &&
	       a->vsync_start == b->vsync_start &&
	       a->vsync_end == b->vsync_end && a->vtotal == b->vtotal &&
	       a->flags == (b->flags & flags);
}

/*
 * Encode a detailed timing descriptor with digital separate sync. Refuses
 * timings the 18 bytes cannot hold exactly: the result is decoded again
 * and must give the same timing back.
 */
static int mmx_edid_put_dtd(u8 *d, const struct mmx_timing *t,
			    unsigned int width_mm, unsigned int height_mm)
{
	unsigned int il = t->flags & MMX_TIMING_INTERLACE ? 1 : 0;
	unsigned int hact, hblank, hfp, hsw, vact, vblank, vfp, vsw;
	u32 mask = MMX_TIMING_INTERLACE | MMX_TIMING_PHSYNC |
		   MMX_TIMING_NHSYNC | MMX_TIMING_PVSYNC | MMX_TIMING_NVSYNC;
	struct mmx_timing back;

	if (!mmx_timing_encodable(t))
		return -EINVAL;
	hact = t->hdisplay;
	hblank = t->htotal - t->hdisplay;
	hfp = t->hsync_start - t->hdisplay;
	hsw = t->hsync_end - t->hsync_start;
	vact = t->vdisplay >> il;
	vblank = (t->vtotal - t->vdisplay) >> il;
	vfp = (t->vsync_start - t->vdisplay) >> il;
	vsw = (t->vsync_end - t->vsync_start) >> il;
	if (hact > 4095 || hblank > 4095 || vact > 4095 || vblank > 4095 ||
	    hfp > 1023 || hsw > 1023 || vfp > 63 || vsw > 63 ||
	    width_mm > 4095 || height_mm > 4095)
		return -EINVAL;

	d[0] = t->clock_khz / 10 & 0xff;
	d[1] = t->clock_khz / 10 >> 8;
	d[2] = hact & 0xff;
	d[3] = hblank & 0xff;
	d[4] = (hact >> 8) << 4 | hblank >> 8;
	d[5] = vact & 0xff;
	d[6] = vblank & 0xff;
	d[7] = (vact >> 8) << 4 | vblank >> 8;
	d[8] = hfp & 0xff;
	d[9] = hsw & 0xff;
	d[10] = (vfp & 0x0f) << 4 | (vsw & 0x0f);
	d[11] = (hfp >> 8) << 6 | (hsw >> 8) << 4 | (vfp >> 4) << 2 | vsw >> 4;
	d[12] = width_mm & 0xff;
	d[13] = height_mm & 0xff;
	d[14] = (width_mm >> 8) << 4 | height_mm >> 8;
	d[15] = 0;
	d[16] = 0;
	d[17] = il << 7 | 0x18;
	if (t->flags & MMX_TIMING_PHSYNC)
		d[17] |= 0x02;
	if (t->flags & MMX_TIMING_PVSYNC)
		d[17] |= 0x04;

	mmx_edid_dtd_decode(d, &back);
	return mmx_timing_same(&back, t, mask) ? 0 : -EINVAL;
}

/* A display descriptor holding text: name (0xfc) or serial string (0xff). */
static int mmx_edid_put_text(u8 *d, u8 tag, const char *text)
{
	size_t n = strlen(text), i;

	if (n > MMX_EDID_NAME_MAX)
		return -EINVAL;
	d[3] = tag;
	for (i = 0; i < MMX_EDID_NAME_MAX; i++) {
		if (i < n && (text[i] < 0x20 || text[i] > 0x7e))
			return -EINVAL;
		d[5 + i] = i < n ? text[i] : i == n ? 0x0a : 0x20;
	}
	return 0;
}

static int mmx_edid_put_range(u8 *d, const struct mmx_edid_range *r, u8 rev)
{
	unsigned int i;

	if (!r->vmin_hz || r->vmin_hz > r->vmax_hz || !r->hmin_khz ||
	    r->hmin_khz > r->hmax_khz || !r->max_clock_mhz ||
	    r->max_clock_mhz % 10 || r->max_clock_mhz > 2550)
		return -EINVAL;
	d[3] = 0xfd;
	d[5] = r->vmin_hz;
	d[6] = r->vmax_hz;
	d[7] = r->hmin_khz;
	d[8] = r->hmax_khz;
	d[9] = r->max_clock_mhz / 10;
	/* Range limits only: no timing formula (1.4), no secondary GTF (1.3). */
	d[10] = rev == 3 ? 0x00 : 0x01;
	d[11] = 0x0a;
	for (i = 12; i < 18; i++)
		d[i] = 0x20;
	return 0;
}

static int mmx_edid_put_std(u8 *d, const struct mmx_std_timing *s)
{
	u32 w = s->hdisplay, h = s->vdisplay;
	u8 aspect;

	if (w % 8 || w < 256 || w > 2288 || s->refresh < 60 ||
	    s->refresh > 123)
		return -EINVAL;
	if (w * 10 == h * 16)
		aspect = 0;
	else if (w * 3 == h * 4)
		aspect = 1;
	else if (w * 4 == h * 5)
		aspect = 2;
	else if (w * 9 == h * 16)
		aspect = 3;
	else
		return -EINVAL;
	d[0] = w / 8 - 31;
	d[1] = aspect << 6 | (s->refresh - 60);
	return 0;
}

/* Render a number in decimal; returns the length. */
static size_t mmx_utoa(char *buf, u32 v)
{
	char tmp[10];
	size_t n = 0, i;

	do {
		tmp[n++] = '0' + v % 10;
		v /= 10;
	} while (v);
	for (i = 0; i < n; i++)
		buf[i] = tmp[n - 1 - i];
	buf[n] = 0;
	return n;
}

static void mmx_edid_checksum(u8 *block)
{
	u8 sum = 0;
	unsigned int i;

	for (i = 0; i < MMX_EDID_BLOCK_SIZE - 1; i++)
		sum += block[i];
	block[MMX_EDID_BLOCK_SIZE - 1] = -sum;
}

/* CTA-861 extension: video data block, HDMI VSDB, extra timings. */
static int mmx_edid_put_cta(u8 *b, const struct mmx_sink *sink)
{
	unsigned int i, off = 4;
	int ret;

	if (!sink->num_vics || sink->num_vics > 31)
		return -EINVAL;
	b[0] = 0x02;		/* CTA extension tag */
	b[1] = 0x03;		/* revision 3 */
	/* Underscans IT formats; one native DTD, the preferred timing. */
	b[3] = 0x80 | 1;
	b[off++] = 2 << 5 | sink->num_vics;	/* video data block */
	for (i = 0; i < sink->num_vics; i++) {
		if (!sink->vics[i] || sink->vics[i] > 127)
			return -EINVAL;
		b[off++] = sink->vics[i];
	}
	/*
	 * Video capability data block: RGB quantization range selectable,
	 * IT formats underscanned, CE formats over- or underscanned.
	 */
	b[off++] = 7 << 5 | 2;
	b[off++] = 0x00;
	b[off++] = 0x4b;
	if (sink->iface == MMX_EDID_IFACE_HDMI_A ||
	    sink->iface == MMX_EDID_IFACE_HDMI_B) {
		b[off++] = 3 << 5 | 7;	/* vendor specific data block */
		b[off++] = 0x03;	/* IEEE OUI 00-0c-03, HDMI Licensing */
		b[off++] = 0x0c;
		b[off++] = 0x00;
		b[off++] = 0x10;	/* physical address 1.0.0.0 */
		b[off++] = 0x00;
		b[off++] = 0x00;	/* no deep colour, no DVI dual */
		b[off++] = sink->range.max_clock_mhz / 5;	/* max TMDS */
	}
	b[2] = off;
	for (i = 2; i < sink->num_timings; i++) {
		if (off + 18 > MMX_EDID_BLOCK_SIZE - 1)
			return -EINVAL;
		ret = mmx_edid_put_dtd(b + off, &sink->timings[i],
				       sink->width_cm * 10,
				       sink->height_cm * 10);
		if (ret)
			return ret;
		off += 18;
	}
	mmx_edid_checksum(b);
	return 0;
}

/*
 * sRGB primaries and D65 white point, CIE x and y times 1024 rounded to
 * the nearest: red (0.640, 0.330), green (0.300, 0.600), blue
 * (0.150, 0.060), white (0.3127, 0.3290).
 */
static const u16 mmx_srgb[8] = { 655, 338, 307, 614, 154, 61, 320, 337 };

/* Bytes 0-19: header, vendor "MMX", product, serial, date, version. */
static void mmx_edid_put_id(u8 *buf, const struct mmx_sink *sink)
{
	static const u8 header[8] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	u16 vendor;

	memcpy(buf, header, sizeof(header));
	/* Bytes 8-9: PNP vendor id, three 5-bit letters, big endian. */
	vendor = ('M' - '@') << 10 | ('M' - '@') << 5 | ('X' - '@');
	buf[8] = vendor >> 8;
	buf[9] = vendor & 0xff;
	/* Bytes 10-17: product code, serial (little endian), week, year. */
	buf[10] = sink->product & 0xff;
	buf[11] = sink->product >> 8;
	buf[12] = sink->serial & 0xff;
	buf[13] = sink->serial >> 8 & 0xff;
	buf[14] = sink->serial >> 16 & 0xff;
	buf[15] = sink->serial >> 24;
	buf[16] = sink->week;
	buf[17] = sink->year - 1990;
	/* Bytes 18-19: version 1.4 (1.3 for HDMI). */
	buf[18] = 1;
	buf[19] = sink->edid_revision;
}

/* Bytes 20-34: video input, size, gamma, features, chromaticity. */
static int mmx_edid_put_display(u8 *buf, const struct mmx_sink *sink)
{
	u8 rev = sink->edid_revision;
	unsigned int i;

	/* Byte 20: video input; EDID 1.3 has no depth and interface. */
	if (sink->digital && rev == 3) {
		buf[20] = 0x80;
	} else if (sink->digital) {
		if (sink->bpc < 6 || sink->bpc > 16 || sink->bpc % 2 ||
		    (unsigned int)sink->iface > MMX_EDID_IFACE_DP)
			return -EINVAL;
		buf[20] = 0x80 | ((sink->bpc - 4) / 2) << 4 | sink->iface;
	} else {
		buf[20] = 0x08;	/* 0.7 V, separate sync */
	}
	/* Bytes 21-23: size in cm, gamma 2.2. */
	buf[21] = sink->width_cm;
	buf[22] = sink->height_cm;
	buf[23] = 120;
	/*
	 * Byte 24: DPMS standby, suspend and off for analog monitors; RGB
	 * colour display (analog, EDID 1.3) or RGB 4:4:4 (digital EDID 1.4);
	 * sRGB is the default colour space; the preferred timing is native;
	 * not continuous frequency (1.4), no GTF (1.3).
	 */
	if (!sink->digital)
		buf[24] = 0xee;
	else
		buf[24] = rev == 3 ? 0x0e : 0x06;
	/* Bytes 25-34: chromaticity, low 2 bits first. */
	buf[25] = (mmx_srgb[0] & 3) << 6 | (mmx_srgb[1] & 3) << 4 |
		  (mmx_srgb[2] & 3) << 2 | (mmx_srgb[3] & 3);
	buf[26] = (mmx_srgb[4] & 3) << 6 | (mmx_srgb[5] & 3) << 4 |
		  (mmx_srgb[6] & 3) << 2 | (mmx_srgb[7] & 3);
	for (i = 0; i < 8; i++)
		buf[27 + i] = mmx_srgb[i] >> 2;
	return 0;
}

/* Bytes 35-53: established timings, standard timings (01 01 unused). */
static int mmx_edid_put_timings(u8 *buf, const struct mmx_sink *sink)
{
	unsigned int i;
	u8 *d;
	int ret;

	buf[35] = sink->established >> 16 & 0xff;
	buf[36] = sink->established >> 8 & 0xff;
	buf[37] = sink->established & 0xff;
	for (i = 0; i < 8; i++) {
		d = buf + 38 + 2 * i;
		if (i < sink->num_std) {
			ret = mmx_edid_put_std(d, &sink->std[i]);
			if (ret)
				return ret;
		} else {
			d[0] = 0x01;
			d[1] = 0x01;
		}
	}
	return 0;
}

/*
 * Bytes 54-125: four 18-byte descriptors: the first two detailed timings
 * (a serial number string in the second slot when there is one timing),
 * the range limits and the name.
 */
static int mmx_edid_put_descriptors(u8 *buf, const struct mmx_sink *sink)
{
	unsigned int slot;
	char serial[16];
	int ret;

	for (slot = 0; slot < 2 && slot < sink->num_timings; slot++) {
		ret = mmx_edid_put_dtd(buf + 54 + 18 * slot,
				       &sink->timings[slot],
				       sink->width_cm * 10,
				       sink->height_cm * 10);
		if (ret)
			return ret;
	}
	if (slot < 2) {
		memcpy(serial, "MMX-", 4);
		mmx_utoa(serial + 4, sink->serial);
		ret = mmx_edid_put_text(buf + 54 + 18 * slot, 0xff, serial);
		if (ret)
			return ret;
	}
	ret = mmx_edid_put_range(buf + 54 + 18 * 2, &sink->range,
				 sink->edid_revision);
	if (ret)
		return ret;
	return mmx_edid_put_text(buf + 54 + 18 * 3, 0xfc, sink->monitor_name);
}

/**
 * mmx_edid_build - generate the EDID of a sink
 * @sink: the sink
 * @buf: where to write it
 * @len: size of @buf; %MMX_EDID_MAX_SIZE is always enough
 *
 * Writes an EDID 1.4 base block (1.3, without the 1.4 depth and interface
 * bits, when the sink asks for it as HDMI requires): vendor "MMX", the
 * sink's product code, serial number, date and size, sRGB colorimetry, the
 * established and standard timings, the first two detailed timings (the
 * first one preferred), a serial number string when there is one timing
 * only, the range limits and the name. A sink with VICs also gets a CTA-861
 * extension block (with an HDMI vendor specific data block for HDMI sinks,
 * so that DRM's drm_detect_hdmi_monitor() sees an HDMI sink) holding the
 * other detailed timings. Checksums are set.
 *
 * Return: the number of bytes written (128 per block), 0 for a sink
 * without EDID (none, analog TVs), -ENOSPC if @len is too small, -EINVAL
 * for a sink that EDID cannot describe (@buf then holds no valid EDID).
 */
int mmx_edid_build(const struct mmx_sink *sink, u8 *buf, size_t len)
{
	u8 rev = sink->edid_revision;
	unsigned int blocks;
	int ret;

	if (!sink->present || !sink->has_edid)
		return 0;
	if (rev != 3 && rev != 4)
		return -EINVAL;
	if (!sink->timings || !sink->num_timings || !sink->monitor_name ||
	    sink->num_std > 8 || sink->year < 1990 || sink->year > 2245 ||
	    sink->week > 54)
		return -EINVAL;
	blocks = sink->num_vics ? 2 : 1;
	if (blocks == 1 && sink->num_timings > 2)
		return -EINVAL;
	if (len < blocks * MMX_EDID_BLOCK_SIZE)
		return -ENOSPC;
	memset(buf, 0, blocks * MMX_EDID_BLOCK_SIZE);

	mmx_edid_put_id(buf, sink);
	ret = mmx_edid_put_display(buf, sink) ?:
	      mmx_edid_put_timings(buf, sink) ?:
	      mmx_edid_put_descriptors(buf, sink);
	if (ret)
		return ret;
	/* Byte 126: extension count; 127: checksum. */
	buf[126] = blocks - 1;
	mmx_edid_checksum(buf);

	if (blocks > 1) {
		ret = mmx_edid_put_cta(buf + MMX_EDID_BLOCK_SIZE, sink);
		if (ret)
			return ret;
	}
	return blocks * MMX_EDID_BLOCK_SIZE;
}
