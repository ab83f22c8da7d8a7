// SPDX-License-Identifier: GPL-2.0-only
/*
 * Host tests of mmx_resample.c: plane scaling, rotation, reflection and
 * fractional source positions.
 *
 * Oracle for the nearest filter: DRM's own definition, forwards. A source
 * pixel is a unit square of the framebuffer; the reference moves it into
 * the destination the way the DRM core describes a plane (drm_rect_rotate()
 * written out again here from its documentation: reflect, then rotate
 * counter-clockwise, within the source rectangle; then scale the rotated
 * source rectangle to CRTC_W x CRTC_H) and picks the pixel whose square
 * contains the destination pixel's centre. Nothing of the driver's inverse
 * matrix is used. Scale factors are odd/odd fractions and source positions
 * multiples of 1/4 pixel, so a centre never falls on a pixel edge (see
 * no_tie()), and the reference asserts exactly one pixel contains it.
 *
 * Bilinear: hand-worked values (a uniform plane stays uniform up to its
 * edges, which repeat; a half-pixel source offset averages neighbours).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "mmx_resample.h"
#include "unit.h"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static u32 rng32(void)
{
	return (u32)(unit_xorshift64(&rng_state) >> 16);
}

/* A framebuffer of random ARGB8888 pixels. */
struct fb {
	u32 w, h;
	u32 *px;
};

static struct fb fb_random(u32 w, u32 h)
{
	struct fb fb = { w, h, malloc((size_t)w * h * 4) };
	size_t i;

	for (i = 0; i < (size_t)w * h; i++)
		fb.px[i] = rng32();
	return fb;
}

/* A rectangle in 16.16 units, half open. */
struct rect {
	s64 x1, y1, x2, y2;
};

/* @r mirrored left-right (@x) and/or top-bottom (@y) in a @w x @h rectangle. */
static struct rect reflect(struct rect r, s64 w, s64 h, bool x, bool y)
{
	struct rect t = r;

	if (x) {
		r.x1 = w - t.x2;
		r.x2 = w - t.x1;
	}
	if (y) {
		r.y1 = h - t.y2;
		r.y2 = h - t.y1;
	}
	return r;
}

/* drm_rect_rotate() of @r within a @w x @h (16.16) rectangle, from its doc. */
static struct rect rotate(struct rect r, s64 w, s64 h, unsigned int rot)
{
	struct rect t;

	r = reflect(r, w, h, rot & MMX_REFLECT_X, rot & MMX_REFLECT_Y);
	t = r;
	switch (rot & 0xf) {
	case MMX_ROTATE_90:	/* counter-clockwise: top-right goes top-left */
		r.x1 = t.y1;
		r.x2 = t.y2;
		r.y1 = w - t.x2;
		r.y2 = w - t.x1;
		break;
	case MMX_ROTATE_180:	/* both reflections */
		r = reflect(r, w, h, true, true);
		break;
	case MMX_ROTATE_270:
		r.x1 = h - t.y2;
		r.x2 = h - t.y1;
		r.y1 = t.x1;
		r.y2 = t.x2;
		break;
	default:
		break;
	}
	return r;
}

/*
 * The framebuffer pixel that destination pixel (u, v) (relative to CRTC_X,
 * CRTC_Y) shows, by search. Returns the number of pixels containing the
 * centre (1 expected), the pixel in *px, *py.
 */
static int reference_pixel(const struct mmx_resample_geom *g, u32 u, u32 v,
			   int *px, int *py)
{
	bool swap = g->rotation & (MMX_ROTATE_90 | MMX_ROTATE_270);
	s64 rw = swap ? g->src_h : g->src_w, rh = swap ? g->src_w : g->src_h;
	/* centre in rotated-source 16.16 units: (2u + 1) rw / (2 dst_w) */
	s64 nx = (2 * (s64)u + 1) * rw, dx = 2 * (s64)g->dst_w;
	s64 ny = (2 * (s64)v + 1) * rh, dy = 2 * (s64)g->dst_h;
	int x, y, found = 0;

	for (y = (int)(g->src_y >> 16); y < (int)((g->src_y + g->src_h + 0xffff) >> 16); y++) {
		for (x = (int)(g->src_x >> 16); x < (int)((g->src_x + g->src_w + 0xffff) >> 16); x++) {
			struct rect r = {
				((s64)x << 16) - g->src_x, ((s64)y << 16) - g->src_y,
				((s64)(x + 1) << 16) - g->src_x,
				((s64)(y + 1) << 16) - g->src_y,
			};

			r = rotate(r, g->src_w, g->src_h, g->rotation);
			if (r.x1 * dx < nx && nx < r.x2 * dx &&
			    r.y1 * dy < ny && ny < r.y2 * dy) {
				*px = x;
				*py = y;
				found++;
			}
		}
	}
	return found;
}

static struct mmx_resample_src src_of(const struct fb *fb,
				      const struct mmx_resample_geom *g)
{
	struct mmx_resample_src s = {
		.pixels = (const u8 *)fb->px, .pitch = fb->w * 4,
		.format = MMX_FORMAT_ARGB8888,
		.x1 = (s32)(g->src_x >> 16), .y1 = (s32)(g->src_y >> 16),
		.x2 = (s32)((g->src_x + g->src_w + 0xffff) >> 16),
		.y2 = (s32)((g->src_y + g->src_h + 0xffff) >> 16),
	};

	return s;
}

/* Resample the clipped part (cx, cy, w, h) of the destination. */
static int run(const struct fb *fb, const struct mmx_resample_geom *g,
	       enum mmx_filter filter, u32 cx, u32 cy, u32 w, u32 h,
	       u32 *out)
{
	struct mmx_resample_src src = src_of(fb, g);
	struct mmx_frame frame = { out, w, h, w };
	struct mmx_transform t;
	u32 *alpha = malloc((size_t)w * h * 4);
	size_t words;
	u32 *scratch;
	int ret;

	ret = mmx_resample_prepare(&t, g, cx, cy, w, h);
	if (ret) {
		free(alpha);
		return ret;
	}
	words = mmx_resample_scratch_words(&t, &src);
	scratch = malloc(words * 4 + 4);
	mmx_resample(&t, filter, &src, &frame, alpha, scratch, words);
	free(scratch);
	free(alpha);
	return 0;
}

static const unsigned int rotations[16] = {
	MMX_ROTATE_0, MMX_ROTATE_90, MMX_ROTATE_180, MMX_ROTATE_270,
	MMX_ROTATE_0 | MMX_REFLECT_X, MMX_ROTATE_90 | MMX_REFLECT_X,
	MMX_ROTATE_180 | MMX_REFLECT_X, MMX_ROTATE_270 | MMX_REFLECT_X,
	MMX_ROTATE_0 | MMX_REFLECT_Y, MMX_ROTATE_90 | MMX_REFLECT_Y,
	MMX_ROTATE_180 | MMX_REFLECT_Y, MMX_ROTATE_270 | MMX_REFLECT_Y,
	MMX_ROTATE_0 | MMX_REFLECT_X | MMX_REFLECT_Y,
	MMX_ROTATE_90 | MMX_REFLECT_X | MMX_REFLECT_Y,
	MMX_ROTATE_180 | MMX_REFLECT_X | MMX_REFLECT_Y,
	MMX_ROTATE_270 | MMX_REFLECT_X | MMX_REFLECT_Y,
};

/*
 * Geometries: source (16.16), destination before rotation is applied to
 * the sizes (the rotated source's size is scaled to dst). Scale factors
 * 1, 3, 1/3, 5/3, 3/5, 7 and 1/7: odd over odd (no ties, see header).
 */
struct geom_case {
	const char *name;
	u32 sx, sy, sw, sh;	/* 16.16 */
	u32 rw_scale_num, rw_scale_den;	/* dst = rotated src * den / num */
	u32 rh_scale_num, rh_scale_den;
};

static const struct geom_case geoms[] = {
	{ "one-to-one", 3 << 16, 2 << 16, 7 << 16, 5 << 16, 1, 1, 1, 1 },
	{ "up-3", 2 << 16, 1 << 16, 5 << 16, 3 << 16, 1, 3, 1, 3 },
	{ "down-3", 0, 0, 15 << 16, 9 << 16, 3, 1, 3, 1 },
	{ "mixed-5/3-3/5", 1 << 16, 0, 15 << 16, 9 << 16, 5, 3, 3, 5 },
	{ "up-7-down-7", 0, 0, 7 << 16, 14 << 16, 1, 7, 7, 1 },
	{ "quarter-offsets", (2 << 16) + 0x4000, (1 << 16) + 0xc000,
	  9 << 16, 6 << 16, 3, 1, 3, 1 },
};

static void geom_of(const struct geom_case *c, unsigned int rot,
		    struct mmx_resample_geom *g)
{
	bool swap = rot & (MMX_ROTATE_90 | MMX_ROTATE_270);
	u32 rw = (swap ? c->sh : c->sw) >> 16, rh = (swap ? c->sw : c->sh) >> 16;

	g->src_x = c->sx;
	g->src_y = c->sy;
	g->src_w = c->sw;
	g->src_h = c->sh;
	g->dst_w = rw * c->rw_scale_den / c->rw_scale_num;
	g->dst_h = rh * c->rh_scale_den / c->rh_scale_num;
	g->rotation = rot;
}

/* Every geometry in every rotation, whole and clipped, nearest filter. */
static int test_nearest_vs_reference(void)
{
	struct fb fb = fb_random(24, 20);
	size_t i, r;

	for (i = 0; i < sizeof(geoms) / sizeof(geoms[0]); i++) {
		for (r = 0; r < 16; r++) {
			struct mmx_resample_geom g;
			u32 clip[2][4], k, u, v, *out;

			geom_of(&geoms[i], rotations[r], &g);
			/* whole, then a part inside (as clipped by the CRTC) */
			clip[0][0] = 0;
			clip[0][1] = 0;
			clip[0][2] = g.dst_w;
			clip[0][3] = g.dst_h;
			clip[1][0] = g.dst_w / 3;
			clip[1][1] = g.dst_h / 4;
			clip[1][2] = g.dst_w - g.dst_w / 3 - g.dst_w / 5;
			clip[1][3] = g.dst_h - g.dst_h / 4;
			for (k = 0; k < 2; k++) {
				u32 cw = clip[k][2], ch = clip[k][3];

				if (!cw || !ch)
					continue;
				out = malloc((size_t)cw * ch * 4);
				UNIT_CHECK(run(&fb, &g, MMX_FILTER_NEAREST, clip[k][0],
					       clip[k][1], cw, ch, out) == 0,
					   "%s rot 0x%x: prepare failed", geoms[i].name,
					   rotations[r]);
				for (v = 0; v < ch; v++) {
					for (u = 0; u < cw; u++) {
						int px = -1, py = -1;
						int n = reference_pixel(&g, clip[k][0] + u,
									clip[k][1] + v, &px, &py);
						u32 want, got = out[v * cw + u];

						UNIT_CHECK(n == 1, "%s: reference found %d pixels",
							   geoms[i].name, n);
						want = fb.px[py * fb.w + px];
						UNIT_CHECK(got == want,
							   "%s rot 0x%x clip %u: (%u,%u) got %08x want %08x (fb %d,%d)",
							   geoms[i].name, rotations[r], k, u, v,
							   got, want, px, py);
					}
				}
				free(out);
			}
		}
	}
	free(fb.px);
	return 0;
}

/*
 * Random geometries: scale factors p/q with p, q in {1, 3, 5, 7} per
 * direction (size p m onto q m), source positions at whole or odd quarter
 * pixels (no ties, see the header), any rotation, a random clip; outputs
 * up to 42 rows, so several bands.
 */
static int test_nearest_random(void)
{
	static const u32 odd[4] = { 1, 3, 5, 7 };
	static const u32 quarter[3] = { 0, 0x4000, 0xc000 };
	struct fb fb = fb_random(64, 64);
	int n;

	for (n = 0; n < 150; n++) {
		unsigned int rot = rotations[rng32() % 16];
		bool swap = rot & (MMX_ROTATE_90 | MMX_ROTATE_270);
		u32 px = odd[rng32() % 4], qx = odd[rng32() % 4];
		u32 py = odd[rng32() % 4], qy = odd[rng32() % 4];
		u32 mx = 1 + rng32() % 6, my = 1 + rng32() % 6;
		u32 rw = px * mx, rh = py * my;	/* rotated source size */
		struct mmx_resample_geom g = {
			.src_w = (swap ? rh : rw) << 16,
			.src_h = (swap ? rw : rh) << 16,
			.dst_w = qx * mx, .dst_h = qy * my, .rotation = rot,
		};
		u32 cx, cy, cw, ch, u, v, *out;

		g.src_x = (rng32() % (64 - (g.src_w >> 16))) << 16;
		g.src_y = (rng32() % (64 - (g.src_h >> 16))) << 16;
		if (g.src_x)
			g.src_x -= quarter[rng32() % 3];
		if (g.src_y)
			g.src_y -= quarter[rng32() % 3];
		cx = rng32() % g.dst_w;
		cy = rng32() % g.dst_h;
		cw = 1 + rng32() % (g.dst_w - cx);
		ch = 1 + rng32() % (g.dst_h - cy);
		out = malloc((size_t)cw * ch * 4);
		UNIT_CHECK(run(&fb, &g, MMX_FILTER_NEAREST, cx, cy, cw, ch, out) == 0,
			   "case %d: prepare", n);
		for (v = 0; v < ch; v++) {
			for (u = 0; u < cw; u++) {
				int x = -1, y = -1;

				UNIT_CHECK(reference_pixel(&g, cx + u, cy + v, &x, &y) == 1,
					   "case %d: reference", n);
				UNIT_CHECK(out[v * cw + u] == fb.px[y * fb.w + x],
					   "case %d (rot 0x%x, %ux%u+%u+%u -> %ux%u, clip %u,%u %ux%u): (%u,%u)",
					   n, rot, g.src_w >> 16, g.src_h >> 16,
					   g.src_x >> 16, g.src_y >> 16, g.dst_w,
					   g.dst_h, cx, cy, cw, ch, u, v);
			}
		}
		free(out);
	}
	free(fb.px);
	return 0;
}

/* A uniform translucent plane stays uniform, edges too, in both filters. */
static int test_bilinear_uniform(void)
{
	struct fb fb = fb_random(40, 30);
	struct mmx_resample_geom g = {
		.src_x = 5 << 16, .src_y = 4 << 16, .src_w = 13 << 16,
		.src_h = 9 << 16, .dst_w = 100, .dst_h = 70,
		.rotation = MMX_ROTATE_90 | MMX_REFLECT_Y,
	};
	u32 *out = malloc(100 * 70 * 4), x, y, i;

	for (y = 4; y < 13; y++)
		for (x = 5; x < 18; x++)
			fb.px[y * fb.w + x] = 0x80406080;
	for (i = 0; i < 2; i++) {
		UNIT_CHECK(run(&fb, &g, i ? MMX_FILTER_BILINEAR : MMX_FILTER_NEAREST,
			       0, 0, 100, 70, out) == 0, "prepare");
		for (y = 0; y < 70; y++)
			for (x = 0; x < 100; x++)
				UNIT_CHECK(out[y * 100 + x] == 0x80406080,
					   "filter %u (%u,%u): %08x", i, x, y,
					   out[y * 100 + x]);
	}
	free(out);
	free(fb.px);
	return 0;
}

static int near(u32 got, u32 want)
{
	int s;

	for (s = 0; s < 32; s += 8) {
		int d = (int)(got >> s & 0xff) - (int)(want >> s & 0xff);

		if (d < -1 || d > 1)
			return 0;
	}
	return 1;
}

/*
 * SRC_X = 0.5, unscaled: destination pixel u samples framebuffer x = u + 1,
 * which bilinear filtering reads as the mean of pixels u and u + 1 (alpha
 * too), and the last one as the last pixel (the edge repeats).
 */
static int test_bilinear_half_offset(void)
{
	struct fb fb = fb_random(9, 3);
	struct mmx_resample_geom g = {
		.src_x = 0x8000, .src_y = 1 << 16, .src_w = 8 << 16,
		.src_h = 1 << 16, .dst_w = 8, .dst_h = 1,
		.rotation = MMX_ROTATE_0,
	};
	u32 out[8], u, want;
	int s;

	UNIT_CHECK(!mmx_resample_is_copy(&g), "fractional is no copy");
	UNIT_CHECK(run(&fb, &g, MMX_FILTER_BILINEAR, 0, 0, 8, 1, out) == 0,
		   "prepare");
	for (u = 0; u < 8; u++) {
		u32 a = fb.px[9 + u], b = fb.px[9 + (u < 8 ? u + 1 : 8)];

		want = 0;
		for (s = 0; s < 32; s += 8)
			want |= (((a >> s & 0xff) + (b >> s & 0xff)) / 2) << s;
		UNIT_CHECK(near(out[u], want), "u %u: got %08x want %08x", u,
			   out[u], want);
	}
	/* nearest: the point u + 1 is on an edge: pixel u */
	UNIT_CHECK(run(&fb, &g, MMX_FILTER_NEAREST, 0, 0, 8, 1, out) == 0,
		   "prepare");
	for (u = 0; u < 8; u++)
		UNIT_CHECK(out[u] == fb.px[9 + u], "nearest u %u", u);
	free(fb.px);
	return 0;
}

/* Opaque formats read with alpha 0xff, through both filters. */
static int test_opaque_format(void)
{
	u16 px565[4 * 4];
	struct mmx_resample_src src = {
		.pixels = (const u8 *)px565, .pitch = 8,
		.format = MMX_FORMAT_RGB565, .x1 = 0, .y1 = 0, .x2 = 4, .y2 = 4,
	};
	struct mmx_resample_geom g = {
		.src_w = 4 << 16, .src_h = 4 << 16, .dst_w = 8, .dst_h = 8,
		.rotation = MMX_ROTATE_180,
	};
	struct mmx_transform t;
	u32 out[64], alpha[64], scratch[256];
	struct mmx_frame frame = { out, 8, 8, 8 };
	int i, f;

	for (i = 0; i < 16; i++)
		px565[i] = 0xf800;	/* red */
	for (f = 0; f < 2; f++) {
		UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 8, 8) == 0, "prepare");
		UNIT_CHECK(mmx_resample_scratch_words(&t, &src) <= 256, "scratch");
		mmx_resample(&t, f ? MMX_FILTER_BILINEAR : MMX_FILTER_NEAREST,
			     &src, &frame, alpha, scratch, 256);
		for (i = 0; i < 64; i++)
			UNIT_CHECK(out[i] == 0xffff0000, "filter %d pixel %d: %08x",
				   f, i, out[i]);
	}
	return 0;
}

/*
 * 7x and 3x minification of a wide source turned by 90 degrees: the bands'
 * scratch stays a small part of the source, and sampled pixels match the
 * reference.
 */
static int test_band_scratch(void)
{
	struct fb fb = fb_random(1596, 120);
	struct mmx_resample_geom g = {
		.src_w = 1596 << 16, .src_h = 120 << 16, .dst_w = 40,
		.dst_h = 228, .rotation = MMX_ROTATE_90,
	};
	struct mmx_resample_src src = src_of(&fb, &g);
	struct mmx_transform t;
	u32 *out = malloc(40 * 228 * 4);
	size_t words;
	int k;

	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 40, 228) == 0, "prepare");
	words = mmx_resample_scratch_words(&t, &src);
	/* 16 rows of output read 16 x 7 columns (and a margin) of 120 rows */
	UNIT_CHECK(words < 125 * 130, "scratch %zu words", words);
	UNIT_CHECK(run(&fb, &g, MMX_FILTER_NEAREST, 0, 0, 40, 228, out) == 0,
		   "run");
	for (k = 0; k < 200; k++) {
		u32 u = rng32() % 40, v = rng32() % 228;
		int px, py;

		UNIT_CHECK(reference_pixel(&g, u, v, &px, &py) == 1, "ref");
		UNIT_CHECK(out[v * 40 + u] == fb.px[py * fb.w + px],
			   "(%u,%u)", u, v);
	}
	free(out);
	free(fb.px);
	return 0;
}

static int test_refusals(void)
{
	struct mmx_resample_geom g = {
		.src_w = 4 << 16, .src_h = 4 << 16, .dst_w = 4, .dst_h = 4,
		.rotation = MMX_ROTATE_0,
	};
	struct mmx_transform t;

	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 4, 4) == 0, "good");
	UNIT_CHECK(mmx_resample_is_copy(&g), "copy");
	g.rotation = MMX_ROTATE_0 | MMX_ROTATE_90;
	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 4, 4) == -EINVAL, "two");
	g.rotation = MMX_REFLECT_X;
	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 4, 4) == -EINVAL, "none");
	UNIT_CHECK(!mmx_resample_is_copy(&g), "reflect is no copy");
	g.rotation = MMX_ROTATE_0;
	g.dst_w = 0;
	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 4, 4) == -EINVAL, "empty");
	g.dst_w = 4;
	g.src_w = 4000 << 16;	/* 1000x: beyond any allowed scale */
	UNIT_CHECK(mmx_resample_prepare(&t, &g, 0, 0, 4, 4) == -EINVAL, "1000x");
	g.src_w = 8 << 16;
	UNIT_CHECK(!mmx_resample_is_copy(&g), "scaled is no copy");
	UNIT_CHECK(mmx_resample_prepare(&t, &g, 1u << 25, 0, 4, 4) == -EINVAL,
		   "clip offset");
	return 0;
}

static const struct unit_case cases[] = {
	{ "nearest-vs-reference", "every rotation/reflection, scale and clip matches DRM's forward definition", test_nearest_vs_reference },
	{ "nearest-random", "random rotations, odd scale factors, quarter-pixel sources and clips match the reference", test_nearest_random },
	{ "bilinear-uniform", "a uniform plane stays uniform (colour and alpha), edges included", test_bilinear_uniform },
	{ "bilinear-half-offset", "SRC_X = 0.5 averages neighbours, the edge repeats", test_bilinear_half_offset },
	{ "opaque-format", "RGB565 resamples with alpha 0xff", test_opaque_format },
	{ "band-scratch", "8x minification turned 90 degrees reads bands of bounded size", test_band_scratch },
	{ "refusals", "bad rotations, empty and absurd geometries are refused", test_refusals },
};

UNIT_MAIN(cases)
