// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * mmxrandr: xrandr's query output from a struct mmx_state, laid out as
 * xrandr 1.5 lays it out (the same formats, spaces and tabs) so that
 * scripts parsing xrandr keep working:
 *
 *   Screen 0: minimum 8 x 8, current 1024 x 768, maximum 16384 x 16384
 *   eDP-1 connected primary 1024x768+0+0 (normal left inverted right x axis y axis) 309mm x 174mm
 *      1920x1080     60.00 +
 *      1024x768      60.00*
 *   VGA-1 disconnected (normal left inverted right x axis y axis)
 *
 * --verbose adds each output's identifier, timestamp, subpixel order,
 * clones, CRTCs, panning, transform, properties and every mode with its
 * timings; --prop adds the properties only. Differences, where mmx has no
 * such thing: no Gamma/Brightness lines (mmx has no gamma ramps), and
 * properties print as KMS types them (enum and bitmask values by name,
 * blobs as bytes, EDID as hex lines of 16 bytes as xrandr prints it).
 */

#include <inttypes.h>
#include <stdbool.h>
#include <string.h>

#include "mmxrandr.h"

/* DRM_MODE_FLAG_* (the same bits as RandR's mode flags) */
static const struct {
	const char *name;
	uint32_t flag;
} mode_flags[] = {
	{ "+HSync", 1u << 0 },
	{ "-HSync", 1u << 1 },
	{ "+VSync", 1u << 2 },
	{ "-VSync", 1u << 3 },
	{ "Interlace", 1u << 4 },
	{ "DoubleScan", 1u << 5 },
	{ "CSync", 1u << 6 },
	{ "+CSync", 1u << 7 },
	{ "-CSync", 1u << 8 },
};

#define FLAG_INTERLACE	(1u << 4)
#define FLAG_DBLSCAN	(1u << 5)

static const char *const directions[4] = {
	"normal", "left", "inverted", "right"
};

static const char *const connections[3] = {
	"connected", "disconnected", "unknown connection"
};

static const char *const subpixel_orders[6] = {
	"unknown", "horizontal rgb", "horizontal bgr", "vertical rgb",
	"vertical bgr", "no subpixels"
};

double mmxr_mode_refresh(const struct mmx_mode *m)
{
	double vtotal = m->vtotal;

	if (m->flags & FLAG_DBLSCAN)
		vtotal *= 2;
	if (m->flags & FLAG_INTERLACE)
		vtotal /= 2;
	if (!m->htotal || !vtotal)
		return 0;
	return (double)m->clock * 1000.0 / ((double)m->htotal * vtotal);
}

const char *mmxr_rotation_name(uint32_t rotation)
{
	int k;

	if (!(rotation & 0xf))
		return "normal";
	for (k = 0; k < 4; k++)
		if (rotation & (1u << k))
			return directions[k];
	return "invalid rotation";
}

static const char *reflection_name(uint32_t rotation)
{
	switch (rotation & (MMX_REFLECT_X | MMX_REFLECT_Y)) {
	case MMX_REFLECT_X:
		return "X axis";
	case MMX_REFLECT_Y:
		return "Y axis";
	case MMX_REFLECT_X | MMX_REFLECT_Y:
		return "X and Y axis";
	default:
		return "none";
	}
}

/* Rotations every CRTC of the output supports (xrandr's output_rotations). */
uint32_t mmxr_output_rotations(const struct mmx_state *s,
			       const struct mmx_output_info *o)
{
	uint32_t rot = MMX_ROTATE_0, k;
	int found = 0;

	for (k = 0; k < o->ncrtc; k++) {
		const struct mmx_crtc_info *c = mmx_state_crtc(s, o->crtcs[k]);

		if (!c)
			continue;
		rot = found ? rot & c->rotations : c->rotations;
		found = 1;
	}
	return rot;
}

static void print_verbose_mode(FILE *f, const struct mmx_mode *m, int current,
			       int preferred)
{
	size_t k;

	fprintf(f, "  %s (0x%x) %6.3fMHz", m->name, m->id,
		(double)m->clock / 1000.0);
	for (k = 0; k < sizeof(mode_flags) / sizeof(mode_flags[0]); k++)
		if (m->flags & mode_flags[k].flag)
			fprintf(f, " %s", mode_flags[k].name);
	if (current)
		fprintf(f, " *current");
	if (preferred)
		fprintf(f, " +preferred");
	fprintf(f, "\n");
	fprintf(f, "        h: width  %4u start %4u end %4u total %4u skew %4u clock %6.2fKHz\n",
		m->width, m->hsync_start, m->hsync_end, m->htotal, m->hskew,
		m->htotal ? (double)m->clock / m->htotal : 0.0);
	fprintf(f, "        v: height %4u start %4u end %4u total %4u           clock %6.2fHz\n",
		m->height, m->vsync_start, m->vsync_end, m->vtotal,
		mmxr_mode_refresh(m));
}

static void print_enum_name(FILE *f, const struct mmx_property *p,
			    uint64_t value)
{
	uint32_t k;

	for (k = 0; k < p->nenum; k++) {
		if (p->enums[k].value == value) {
			fputs(p->enums[k].name, f);
			return;
		}
	}
	fprintf(f, "%" PRIu64, value);
}

/*
 * CompatibilityList and CloneList: arrays of struct drm_mmx_output_signal
 * (u32 connector id, u32 SignalFormat value), shown as RandR would list
 * outputs: "NAME:SIGNAL" per entry. False when the blob is not such an
 * array (the caller prints the bytes then).
 */
static bool print_output_signals(FILE *f, const struct mmx_state *s,
				 const struct mmx_property *p)
{
	uint32_t k, n = p->blob_len, id, fmt;
	const struct mmx_output_info *o;
	const struct mmx_property *sf;

	if (strcmp(p->name, "CompatibilityList") &&
	    strcmp(p->name, "CloneList"))
		return false;
	if (n % 8)
		return false;
	for (k = 0; k < n; k += 8) {
		memcpy(&id, &p->blob[k], 4);
		memcpy(&fmt, &p->blob[k + 4], 4);
		o = mmx_state_output(s, id);
		sf = o ? mmx_output_property(o, "SignalFormat") : NULL;
		fprintf(f, "%s", o ? o->name : "?");
		if (sf) {
			fputc(':', f);
			print_enum_name(f, sf, fmt);
		}
		fputc(' ', f);
	}
	fputs("\n", f);
	return true;
}

static void print_value(FILE *f, const struct mmx_state *s,
			const struct mmx_property *p)
{
	uint32_t k, n;

	switch (p->type) {
	case MMX_PROP_ENUM:
		print_enum_name(f, p, p->value);
		fputs(" \n", f);
		break;
	case MMX_PROP_BITMASK:
		/* xrandr prints a list of items each followed by a space */
		for (k = 0; k < p->nenum; k++) {
			if (p->enums[k].value < 64 &&
			    (p->value & (1ull << p->enums[k].value)))
				fprintf(f, "%s ", p->enums[k].name);
		}
		fputs("\n", f);
		break;
	case MMX_PROP_SIGNED_RANGE:
		fprintf(f, "%" PRId64 " \n", (int64_t)p->value);
		break;
	case MMX_PROP_BLOB:
		n = p->blob_len;
		if (!strcmp(p->name, "EDID")) {
			fputs("\n\t\t", f);
			for (k = 0; k < n; k++) {
				if (k && !(k % 16))
					fputs("\n\t\t", f);
				fprintf(f, "%02" PRIx8, p->blob[k]);
			}
			fputs("\n", f);
			break;
		}
		if (print_output_signals(f, s, p))
			break;
		for (k = 0; k < n; k++) {
			if (k && !(k % 16))
				fputs("\n\t\t", f);
			fprintf(f, "%d ", (int8_t)p->blob[k]);
		}
		fputs("\n", f);
		break;
	default:	/* ranges, objects */
		fprintf(f, "%" PRIu64 " \n", p->value);
		break;
	}
}

static void print_property(FILE *f, const struct mmx_state *s,
			   const struct mmx_property *p)
{
	uint32_t k;

	/* an empty EDID is no EDID (X's drivers delete the property) */
	if (p->type == MMX_PROP_BLOB && !p->blob_len && !strcmp(p->name, "EDID"))
		return;
	fprintf(f, "\t%s: ", p->name);
	print_value(f, s, p);
	switch (p->type) {
	case MMX_PROP_RANGE:
		fprintf(f, "\t\trange: (%" PRIu64 ", %" PRIu64 ")\n", p->min,
			p->max);
		break;
	case MMX_PROP_SIGNED_RANGE:
		fprintf(f, "\t\trange: (%" PRId64 ", %" PRId64 ")\n",
			(int64_t)p->min, (int64_t)p->max);
		break;
	case MMX_PROP_ENUM:
	case MMX_PROP_BITMASK:
		if (!p->nenum)
			break;
		fputs("\t\tsupported: ", f);
		for (k = 0; k < p->nenum; k++)
			fprintf(f, "%s%s", k ? ", " : "", p->enums[k].name);
		fputs("\n", f);
		break;
	default:
		break;
	}
}

/* 1 when a mode before mode @j of @o has its name. */
static int mode_named_before(const struct mmx_output_info *o, uint32_t j)
{
	uint32_t k;

	for (k = 0; k < j; k++)
		if (!strcmp(o->modes[k].name, o->modes[j].name))
			return 1;
	return 0;
}

/* The supported @rotations and reflections: " (normal left x axis)". */
static void print_rotations(FILE *f, uint32_t rotations)
{
	int first = 1;
	uint32_t k;

	fprintf(f, " (");
	for (k = 0; k < 4; k++) {
		if (rotations & (1u << k)) {
			fprintf(f, "%s%s", first ? "" : " ", directions[k]);
			first = 0;
		}
	}
	if (rotations & MMX_REFLECT_X) {
		fprintf(f, "%sx axis", first ? "" : " ");
		first = 0;
	}
	if (rotations & MMX_REFLECT_Y)
		fprintf(f, "%sy axis", first ? "" : " ");
	fprintf(f, ")");
}

/* " panning WxH+X+Y", and its tracking area when it differs. */
static void print_panning(FILE *f, const struct mmx_panning_info *pan)
{
	fprintf(f, " panning %ux%u+%u+%u", pan->width, pan->height,
		pan->left, pan->top);
	if ((pan->track_width &&
	     (pan->track_left != pan->left ||
	      pan->track_width != pan->width ||
	      pan->border_left || pan->border_right)) ||
	    (pan->track_height &&
	     (pan->track_top != pan->top ||
	      pan->track_height != pan->height ||
	      pan->border_top || pan->border_bottom)))
		fprintf(f, " tracking %ux%u+%u+%u border %d/%d/%d/%d",
			pan->track_width, pan->track_height,
			pan->track_left, pan->track_top,
			pan->border_left, pan->border_top,
			pan->border_right, pan->border_bottom);
}

/* The output's first line: name, connection, geometry, rotations, size. */
static void print_output_line(FILE *f, const struct mmx_state *s,
			      const struct mmx_output_info *o, int verbose)
{
	const struct mmx_crtc_info *c = mmx_state_crtc(s, o->crtc);
	const struct mmx_mode *cur = c && c->mode_valid ? &c->mode : NULL;
	uint32_t rotations = mmxr_output_rotations(s, o);
	uint32_t rotation = cur ? c->rotation : MMX_ROTATE_0;
	int primary = o->primary ||
		(mmx_state_primary(s) && mmx_state_primary(s) == o->id);

	fprintf(f, "%s %s", o->name,
		o->connection < 3 ? connections[o->connection] :
		"unknown connection");
	if (primary)
		fprintf(f, " primary");
	if (cur) {
		fprintf(f, " %ux%u%+d%+d", c->width, c->height, c->x, c->y);
		if (verbose)
			fprintf(f, " (0x%x)", cur->id);
		if (rotation != MMX_ROTATE_0 || verbose) {
			fprintf(f, " %s", mmxr_rotation_name(rotation));
			if (rotation & (MMX_REFLECT_X | MMX_REFLECT_Y))
				fprintf(f, " %s", reflection_name(rotation));
		}
	}
	if (rotations != MMX_ROTATE_0 || verbose)
		print_rotations(f, rotations);
	if (cur)
		fprintf(f, " %umm x %umm", o->mm_width, o->mm_height);
	if (cur && c->panning.width > 0)
		print_panning(f, &c->panning);
	fprintf(f, "\n");
}

/* --verbose's "Clones:" and "CRTCs:" lines, with "CRTC:" between them. */
static void print_clones_crtcs(FILE *f, const struct mmx_state *s,
			       const struct mmx_output_info *o,
			       const struct mmx_crtc_info *cur_crtc)
{
	uint32_t k;

	fprintf(f, "\tClones:    ");
	for (k = 0; k < o->nclone; k++) {
		const struct mmx_output_info *clone =
			mmx_state_output(s, o->clones[k]);

		if (clone)
			fprintf(f, " %s", clone->name);
	}
	fprintf(f, "\n");
	if (cur_crtc)
		fprintf(f, "\tCRTC:       %u\n", cur_crtc->index);
	fprintf(f, "\tCRTCs:     ");
	for (k = 0; k < o->ncrtc; k++) {
		const struct mmx_crtc_info *cc = mmx_state_crtc(s, o->crtcs[k]);

		if (cc)
			fprintf(f, " %u", cc->index);
	}
	fprintf(f, "\n");
}

static bool panning_set(const struct mmx_panning_info *pan)
{
	return pan->width || pan->height || pan->left || pan->top ||
	       pan->track_width || pan->track_height || pan->track_left ||
	       pan->track_top || pan->border_left || pan->border_top ||
	       pan->border_right || pan->border_bottom;
}

/* --verbose's "Transform:" lines: the identity when @cur is NULL. */
static void print_transform(FILE *f, const struct mmx_transform_info *xf,
			    const struct mmx_mode *cur)
{
	int r, x;

	fprintf(f, "\tTransform: ");
	for (r = 0; r < 3; r++) {
		for (x = 0; x < 3; x++) {
			double v = cur ? xf->matrix[r * 3 + x] :
				(r == x ? 1.0 : 0.0);

			fprintf(f, " %f", v);
		}
		if (r < 2)
			fprintf(f, "\n\t           ");
	}
	fprintf(f, "\n\t           filter: %s\n", cur ? xf->filter : "");
}

/* --verbose's lines between the output's first line and its properties. */
static void print_output_details(FILE *f, const struct mmx_state *s,
				 const struct mmx_output_info *o)
{
	const struct mmx_crtc_info *c = mmx_state_crtc(s, o->crtc);
	const struct mmx_mode *cur = c && c->mode_valid ? &c->mode : NULL;

	fprintf(f, "\tIdentifier: 0x%x\n", o->id);
	fprintf(f, "\tTimestamp:  %d\n",
		(int)(uint32_t)(mmx_state_timestamp(s) / 1000000));
	fprintf(f, "\tSubpixel:   %s\n",
		o->subpixel < 6 ? subpixel_orders[o->subpixel] : "unknown");
	print_clones_crtcs(f, s, o, cur ? c : NULL);
	if (cur && panning_set(&c->panning)) {
		const struct mmx_panning_info *pan = &c->panning;

		fprintf(f, "\tPanning:    %ux%u+%u+%u\n", pan->width,
			pan->height, pan->left, pan->top);
		fprintf(f, "\tTracking:   %ux%u+%u+%u\n",
			pan->track_width, pan->track_height,
			pan->track_left, pan->track_top);
		fprintf(f, "\tBorder:     %d/%d/%d/%d\n",
			pan->border_left, pan->border_top,
			pan->border_right, pan->border_bottom);
	}
	print_transform(f, c ? &c->current : NULL, cur);
}

/* The mode list: one line per name, at its first mode, with every rate. */
static void print_mode_rates(FILE *f, const struct mmx_output_info *o,
			     const struct mmx_mode *cur)
{
	uint32_t j, k;

	for (j = 0; j < o->nmode; j++) {
		if (mode_named_before(o, j))
			continue;
		fprintf(f, "   %-12s", o->modes[j].name);
		for (k = j; k < o->nmode; k++) {
			const struct mmx_mode *m = &o->modes[k];

			if (strcmp(m->name, o->modes[j].name))
				continue;
			fprintf(f, " %6.2f%c%c", mmxr_mode_refresh(m),
				cur && m->id == cur->id ? '*' : ' ',
				k < o->npreferred ? '+' : ' ');
		}
		fprintf(f, "\n");
	}
}

static void print_output(FILE *f, const struct mmx_state *s,
			 const struct mmx_output_info *o, uint32_t flags)
{
	int verbose = flags & MMXR_PRINT_VERBOSE;
	const struct mmx_crtc_info *c = mmx_state_crtc(s, o->crtc);
	const struct mmx_mode *cur = c && c->mode_valid ? &c->mode : NULL;
	uint32_t j, k;

	print_output_line(f, s, o, verbose);
	if (verbose)
		print_output_details(f, s, o);
	if (flags & (MMXR_PRINT_VERBOSE | MMXR_PRINT_PROPS))
		for (k = 0; k < o->nprop; k++)
			print_property(f, s, &o->props[k]);
	if (!verbose) {
		print_mode_rates(f, o, cur);
		return;
	}
	for (j = 0; j < o->nmode; j++)
		print_verbose_mode(f, &o->modes[j],
				   cur && o->modes[j].id == cur->id,
				   j < o->npreferred);
}

void mmxr_print_state(FILE *f, const struct mmx_state *s, uint32_t flags)
{
	uint32_t k, min_w, min_h, w, h, max_w, max_h;

	mmx_state_min_size(s, &min_w, &min_h);
	mmx_state_screen_size(s, &w, &h);
	mmx_state_max_size(s, &max_w, &max_h);
	fprintf(f, "Screen 0: minimum %u x %u, current %u x %u, maximum %u x %u\n",
		min_w, min_h, w, h, max_w, max_h);
	for (k = 0; k < mmx_state_noutputs(s); k++)
		print_output(f, s, mmx_state_output_at(s, k), flags);
}
