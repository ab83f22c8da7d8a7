// SPDX-License-Identifier: GPL-2.0-only OR MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The rasteriser: the transformed composition of a picture (the screen into
 * a CRTC's output, a framebuffer into a plane's destination) through a
 * prepared struct mmx_transform. Integer arithmetic only; built into
 * mmx_core.ko, the host unit tests and the benchmark (README), not libmmx.
 *
 * Sampling model (RandR and pixman): output pixel (u, v) shows the screen
 * point p = M (u + 1/2, v + 1/2, 1) / w. Screen pixel (i, j) covers
 * [i, i + 1) x [j, j + 1), its centre is at (i + 1/2, j + 1/2).
 *
 * - NEAREST takes screen pixel (ceil(p.x) - 1, ceil(p.y) - 1), which is
 *   pixman's pixman_fixed_to_int(x - pixman_fixed_e): exactly pixman's.
 * - BILINEAR interpolates the four pixels around p - (1/2, 1/2) with
 *   pixman's 7-bit weights (the fraction truncated to 1/128). pixman sums
 *   the four weighted pixels exactly and truncates once; here each of the
 *   three linear interpolations truncates (see mmx_bilerp()), so a channel
 *   is pixman's value or one below it.
 * - Screen pixels outside the screen image are black (pixman REPEAT_NONE
 *   reads them as transparent; over black that is the same).
 *
 * Precision: affine sample points are exact to 2^-32 pixel (the half-pixel
 * term is rounded half up to that). Projective sample points are quantised
 * as pixman does: the quotient X / W is truncated to 2^-16 pixel; X and W
 * themselves are exact for matrices representable in 16.16 (they are kept
 * scaled so that W < 2^28, i.e. with at least 27 significant bits).
 *
 * Fast paths (enum mmx_transform_kind): integer translations are row
 * copies, 90-degree rotations and reflections pixel shuffles (a transpose
 * in bands of eight rows with 64-bit accesses, or reversed rows), affine
 * matrices step the sample point by a constant per pixel with the columns
 * that need no edge handling found per row, and projective matrices get the
 * exact floors of their quotients without a division per pixel (quadratic
 * forward differencing between exact samples, see mmx_proj_next()), which
 * is what makes NEAREST match pixman exactly for them too.
 */

#include "mmx_raster.h"
#include "mmx_simd.h"

#define MMX_BLACK	MMX_SIMD_BLACK

/* Rows of the screen image, and its size. */
struct mmx_src {
	const u32 *px;
	size_t stride;
	u64 w;
	u64 h;
};

static void mmx_fill_black(u32 *dst, u32 n)
{
	u32 i;

	for (i = 0; i < n; i++)
		dst[i] = MMX_BLACK;
}

/* Bilinear arithmetic: mmx_bilerp() and friends in mmx_simd.h. */

static __always_inline u32 mmx_src_get(const struct mmx_src *s, s64 x, s64 y)
{
	if ((u64)x < s->w && (u64)y < s->h)
		return s->px[(size_t)y * s->stride + (size_t)x];
	return 0;
}

/* Bilinear sample whose 2x2 footprint may cross the screen's edge. */
static u32 mmx_bilinear_edge(const struct mmx_src *s, s64 xi, s64 yi,
			     u32 wx, u32 wy)
{
	if (xi < -1 || yi < -1 || xi >= (s64)s->w || yi >= (s64)s->h)
		return MMX_BLACK;
	return mmx_bilerp(mmx_src_get(s, xi, yi), mmx_src_get(s, xi + 1, yi),
			  mmx_src_get(s, xi, yi + 1),
			  mmx_src_get(s, xi + 1, yi + 1), wx, wy);
}

/* Bilinear sample whose footprint is inside the screen. */
static __always_inline u32 mmx_bilinear_in(const u32 *px, size_t stride,
					   s64 xi, s64 yi, u32 wx, u32 wy)
{
	const u32 *p = px + (size_t)yi * stride + (size_t)xi;

	return mmx_bilerp(p[0], p[1], p[stride], p[stride + 1], wx, wy);
}

/* ceil(a / b), b > 0 */
static s64 mmx_div_ceil(s64 a, s64 b)
{
	return -mmx_div_floor(-a, b);
}

/*
 * Narrow [*lo, *hi) to the k with 0 <= x + k dx < lim (lim > 0), exactly:
 * x + k dx is what the row loop computes by repeated addition. An empty
 * result is [0, 0).
 */
static void mmx_span(s64 x, s64 dx, s64 lim, s64 *lo, s64 *hi)
{
	s64 l, h;

	if (!dx) {
		if (x < 0 || x >= lim) {
			*lo = 0;
			*hi = 0;
		}
		return;
	}
	if (dx > 0) {
		l = mmx_div_ceil(-x, dx);
		h = mmx_div_ceil(lim - x, dx);
	} else {
		l = mmx_div_floor(x - lim, -dx) + 1;
		h = mmx_div_floor(x, -dx) + 1;
	}
	*lo = l > *lo ? l : *lo;
	*hi = h < *hi ? h : *hi;
	if (*hi <= *lo) {
		*lo = 0;
		*hi = 0;
	}
}

/*
 * Affine rows: x and y in 2^-32 pixels, already offset so that the pixel
 * index is x >> 32 (nearest: x - 2^-32; bilinear: x - 1/2, whose bits
 * 25..31 are the weight). The columns whose samples are inside the screen
 * are found per row by division, so the inner loops test nothing.
 */
static void mmx_affine_row_nearest(const struct mmx_simd_ops *ops, u32 *dst,
				   u32 n, s64 x, s64 y, s64 dx, s64 dy,
				   const struct mmx_src *s)
{
	const u32 *px = s->px;
	size_t stride = s->stride;
	s64 lo = 0, hi = n, i;

	mmx_span(x, dx, (s64)s->w << 32, &lo, &hi);
	mmx_span(y, dy, (s64)s->h << 32, &lo, &hi);
	mmx_fill_black(dst, (u32)lo);
	x += lo * dx;
	y += lo * dy;
	if (!dy && lo < hi) {
		const u32 *row = px + (size_t)(y >> 32) * stride;

		if (dx == 2 * MMX_FIXP_ONE) {
			/* an exact 2x downscale: every other pixel */
			ops->pick2_row(dst + lo, (u32)(hi - lo), row + (x >> 32));
		} else {
			for (i = lo; i < hi; i++, x += dx)
				dst[i] = row[x >> 32];
		}
	} else {
		for (i = lo; i < hi; i++, x += dx, y += dy)
			dst[i] = px[(size_t)(y >> 32) * stride +
				    (size_t)(x >> 32)];
	}
	mmx_fill_black(dst + hi, n - (u32)hi);
}

/*
 * Samples in chunks: their positions (pixel offsets and weights, as
 * mmx_simd_ops.bilinear_gather takes them) first, then the interpolation.
 */
#define MMX_GATHER	32

struct mmx_gather {
	size_t off[MMX_GATHER];
	u64 wx[MMX_GATHER];
	u64 wy[MMX_GATHER];
};

/* Bilinear samples [i, hi) of an affine row, all inside the screen. */
static void mmx_affine_gather(const struct mmx_simd_ops *ops, u32 *dst,
			      s64 i, s64 hi, s64 x, s64 y, s64 dx, s64 dy,
			      const struct mmx_src *s)
{
	struct mmx_gather g;
	u32 k, n;

	for (; i < hi; i += n) {
		n = hi - i < MMX_GATHER ? (u32)(hi - i) : MMX_GATHER;
		for (k = 0; k < n; k++, x += dx, y += dy) {
			g.off[k] = (size_t)(y >> 32) * s->stride +
				   (size_t)(x >> 32);
			g.wx[k] = MMX_SIMD_LANES4((u32)x >> 25);
			g.wy[k] = MMX_SIMD_LANES4((u32)y >> 25);
		}
		ops->bilinear_gather(dst + i, n, s->px, s->stride, g.off, g.wx,
				     g.wy);
	}
}

static void mmx_affine_row_bilinear(const struct mmx_simd_ops *ops, u32 *dst,
				    u32 n, s64 x, s64 y, s64 dx, s64 dy,
				    const struct mmx_src *s)
{
	s64 lo = 0, hi = n, i;
	bool box2 = dx == 2 * MMX_FIXP_ONE && !dy &&
		    ((u32)x >> 25) == 64 && ((u32)y >> 25) == 64;

	if (s->w > 1 && s->h > 1) {
		mmx_span(x, dx, (s64)(s->w - 1) << 32, &lo, &hi);
		mmx_span(y, dy, (s64)(s->h - 1) << 32, &lo, &hi);
	} else {
		hi = 0;
	}
	for (i = 0; i < lo; i++, x += dx, y += dy)
		dst[i] = mmx_bilinear_edge(s, x >> 32, y >> 32,
					   (u32)x >> 25, (u32)y >> 25);
	if (i < hi) {
		/*
		 * Weights all one half (a 2x downscale with pixel centres
		 * between source pixels, xrandr --scale 2x2): each
		 * interpolation is floor((a + b) / 2), a byte-wise average.
		 */
		if (box2)
			ops->box2_row(dst + i, (u32)(hi - i),
				      s->px + (size_t)(y >> 32) * s->stride +
				      (size_t)(x >> 32), s->stride);
		else
			mmx_affine_gather(ops, dst, i, hi, x, y, dx, dy, s);
		x += (hi - i) * dx;
		y += (hi - i) * dy;
		i = hi;
	}
	for (; i < n; i++, x += dx, y += dy)
		dst[i] = mmx_bilinear_edge(s, x >> 32, y >> 32,
					   (u32)x >> 25, (u32)y >> 25);
}

/*
 * Scales (no rotation or shear: dy per column and dx per row are 0). Every
 * row samples the same columns, so their offsets and weights are computed
 * once per tile of columns (for BILINEAR as the implementation's plan,
 * mmx_simd_ops.hplan), and the rows are separable: a bilinear sample
 * is the vertical interpolation of two horizontal ones, and the horizontal
 * interpolation of a screen row serves every output row that reads it.
 * The tile is walked down a group of rows keeping the last two
 * interpolated screen rows. NEAREST goes row by row and copies an output
 * row that shows the same screen row as the one above it.
 */
#define MMX_TILE	MMX_SIMD_HPLAN
#define MMX_SCALE_ROWS	16

struct mmx_scale_tile {
	struct mmx_simd_hplan plan;
	u32 h[2][MMX_TILE];	/* interpolated screen rows hy[0], hy[1] */
	s64 hy[2];
	u32 pf_off;		/* the next tile's first screen pixel */
	u32 pf_px;		/* and how many it reads, 0: no next tile */
};

static __always_inline const u32 *
mmx_scale_hrow(const struct mmx_simd_ops *ops, struct mmx_scale_tile *tl,
	       const struct mmx_src *s, s64 yi)
{
	int k = tl->hy[0] == yi ? 0 : tl->hy[1] == yi ? 1 : -1;

	if (k < 0) {
		/* replace the row that is not yi - 1 (rows only go down) */
		const u32 *row = s->px + (size_t)yi * s->stride;
		u32 i;

		k = tl->hy[0] == yi - 1 ? 1 : 0;
		/*
		 * the next tile reads this row a group of rows later: its
		 * lines are fetched while this tile's rows are composed
		 */
		for (i = 0; i < tl->pf_px; i += 16)
			__builtin_prefetch(row + tl->pf_off + i);
		ops->hlerp_plan(tl->h[k], &tl->plan, row);
		tl->hy[k] = yi;
	}
	return tl->h[k];
}

/*
 * The screen pixels the tile from column @c1 (up to @hi) reads, for
 * prefetching: from *@off, *@n of them (at most 64, 0 without a tile).
 */
static void mmx_scale_next(u32 *off, u32 *n, s64 x, s64 dx, u32 c1, u32 hi)
{
	u32 c2 = hi - c1 < MMX_TILE ? hi : c1 + MMX_TILE;
	s64 a = (x + (s64)c1 * dx) >> 32, b = (x + (s64)(c2 - 1) * dx) >> 32;

	*off = 0;
	*n = 0;
	if (c1 >= hi)
		return;
	if (b < a) {
		s64 t = a;

		a = b;
		b = t;
	}
	*off = (u32)a;
	*n = b - a + 2 < 64 ? (u32)(b - a + 2) : 64;
}

/* BILINEAR rows [@row_begin, @row_end), columns [@lo, @hi) of a scale. */
static void mmx_scale_rows(const struct mmx_simd_ops *ops,
			   const struct mmx_transform *t,
			   const struct mmx_src *s, s64 x, s64 y,
			   struct mmx_frame *out, u32 row_begin, u32 row_end,
			   u32 lo, u32 hi)
{
	s64 dx = t->dxu, dy = t->dyv, xk;
	struct mmx_scale_tile tl;
	const u32 *top, *bot;
	u32 c0, c1, v, k;
	s64 yv;

	for (c0 = lo; c0 < hi; c0 = c1) {
		c1 = hi - c0 < MMX_TILE ? hi : c0 + MMX_TILE;
		ops->hplan(&tl.plan, c1 - c0, x + (s64)c0 * dx, dx, (u32)s->w);
		mmx_scale_next(&tl.pf_off, &tl.pf_px, x, dx, c1, hi);
		tl.hy[0] = -2;
		tl.hy[1] = -2;
		yv = y + (s64)row_begin * dy;
		for (v = row_begin; v < row_end; v++, yv += dy) {
			u32 *dst = out->pixels + (size_t)v * out->stride + c0;
			s64 yi = yv >> 32;

			if ((u64)yi >= s->h - 1) {
				xk = x + (s64)c0 * dx;
				for (k = 0; k < c1 - c0; k++, xk += dx)
					dst[k] = mmx_bilinear_edge(s, xk >> 32, yi,
								   (u32)xk >> 25,
								   (u32)yv >> 25);
				continue;
			}
			/* in this order: the second keeps the first */
			top = mmx_scale_hrow(ops, &tl, s, yi);
			bot = mmx_scale_hrow(ops, &tl, s, yi + 1);
			ops->vlerp_row(dst, c1 - c0, top, bot, (u32)yv >> 25);
		}
	}
}

/*
 * NEAREST rows of a scale, [@lo, @hi) inside the screen. A 2x downscale
 * goes row by row (pick2_row); others in groups of rows walked tile by tile
 * as BILINEAR, the tile's offsets computed once for the group. A row that
 * shows the same screen row as the one above it is a copy of it.
 */
static void mmx_scale_nearest(const struct mmx_simd_ops *ops,
			      const struct mmx_transform *t,
			      const struct mmx_src *s, s64 x, s64 y,
			      struct mmx_frame *out, u32 row_begin,
			      u32 row_end, u32 lo, u32 hi)
{
	s64 dx = t->dxu, dy = t->dyv, yv, xk;
	struct mmx_simd_hplan plan;
	u32 v, c0, c1, g0, g1, i, pf_off, pf_px;
	bool pick2 = dx == 2 * MMX_FIXP_ONE;

	if (lo >= hi)
		return;
	for (g0 = row_begin; g0 < row_end; g0 = g1) {
		g1 = row_end - g0 < MMX_SCALE_ROWS ? row_end :
						     g0 + MMX_SCALE_ROWS;
		for (c0 = lo; c0 < hi; c0 = c1) {
			c1 = pick2 || hi - c0 < MMX_TILE ? hi : c0 + MMX_TILE;
			xk = x + (s64)c0 * dx;
			if (!pick2) {
				ops->hplan(&plan, c1 - c0, xk, dx, (u32)s->w);
				mmx_scale_next(&pf_off, &pf_px, x, dx, c1, hi);
			}
			yv = y + (s64)g0 * dy;
			for (v = g0; v < g1; v++, yv += dy) {
				u32 *dst = out->pixels + (size_t)v * out->stride;
				s64 yi = yv >> 32;
				const u32 *row;

				if ((u64)yi >= s->h) {
					mmx_fill_black(dst + c0, c1 - c0);
					continue;
				}
				if (v > g0 && ((yv - dy) >> 32) == yi) {
					memcpy(dst + c0, dst + c0 - out->stride,
					       (size_t)(c1 - c0) * sizeof(u32));
					continue;
				}
				row = s->px + (size_t)yi * s->stride;
				if (pick2)
					ops->pick2_row(dst + c0, c1 - c0,
						       row + (xk >> 32));
				else
					ops->pick_plan(dst + c0, &plan, row);
				for (i = 0; !pick2 && i < pf_px; i += 16)
					__builtin_prefetch(row + pf_off + i);
			}
		}
	}
}

/*
 * The columns of a scale outside [@lo, @hi), whose samples reach past the
 * screen's edge: black for NEAREST, edge samples for BILINEAR.
 */
static void mmx_scale_edges(const struct mmx_transform *t, bool bilinear,
			    const struct mmx_src *s, s64 x, s64 y,
			    struct mmx_frame *out, u32 row_begin, u32 row_end,
			    s64 lo, s64 hi)
{
	s64 dx = t->dxu, dy = t->dyv, yv = y + (s64)row_begin * dy;
	u32 v, k;

	for (v = row_begin; v < row_end; v++, yv += dy) {
		u32 *dst = out->pixels + (size_t)v * out->stride;
		s64 xk = x;

		if (!bilinear) {
			mmx_fill_black(dst, (u32)lo);
			mmx_fill_black(dst + hi, t->out_w - (u32)hi);
			continue;
		}
		for (k = 0; k < t->out_w; k++, xk += dx) {
			if (k == (u32)lo && lo < hi) {
				k = (u32)hi;
				xk = x + hi * dx;
				if (k >= t->out_w)
					break;
			}
			dst[k] = mmx_bilinear_edge(s, xk >> 32, yv >> 32,
						   (u32)xk >> 25,
						   (u32)yv >> 25);
		}
	}
}

static void mmx_compose_scale(const struct mmx_simd_ops *ops,
			      const struct mmx_transform *t,
			      enum mmx_filter filter, const struct mmx_src *s,
			      s64 x, s64 y, struct mmx_frame *out,
			      u32 row_begin, u32 row_end)
{
	bool bilinear = filter == MMX_FILTER_BILINEAR;
	s64 dx = t->dxu, lo = 0, hi = t->out_w;
	u64 lim_w = bilinear ? s->w - 1 : s->w;
	u32 g0, g1;

	if (!bilinear)
		mmx_span(x, dx, (s64)s->w << 32, &lo, &hi);
	else if (s->w > 1 && s->h > 1)
		mmx_span(x, dx, (s64)lim_w << 32, &lo, &hi);
	else
		hi = 0;		/* no sample has its footprint inside */
	if (!bilinear) {
		mmx_scale_nearest(ops, t, s, x, y, out, row_begin, row_end,
				  (u32)lo, (u32)hi);
		goto edges;
	}
	/*
	 * Groups of MMX_SCALE_ROWS rows, each walked tile by tile: the
	 * group's rows (pages) stay cached from one tile to the next. Larger
	 * groups pay a tile's plan and the restart of its two interpolated
	 * rows less often but run slower once the caches are cold (as after
	 * another client's work): more rows are walked at once than the
	 * hardware prefetchers follow.
	 */
	for (g0 = row_begin; g0 < row_end; g0 = g1) {
		g1 = row_end - g0 < MMX_SCALE_ROWS ? row_end :
						     g0 + MMX_SCALE_ROWS;
		mmx_scale_rows(ops, t, s, x, y, out, g0, g1, (u32)lo,
			       (u32)hi);
	}
edges:
	mmx_scale_edges(t, bilinear, s, x, y, out, row_begin, row_end, lo, hi);
}

static void mmx_compose_affine(const struct mmx_simd_ops *ops,
			       const struct mmx_transform *t,
			       enum mmx_filter filter, const struct mmx_src *s,
			       s32 sx, s32 sy, struct mmx_frame *out,
			       u32 row_begin, u32 row_end)
{
	s64 bias = filter == MMX_FILTER_BILINEAR ? MMX_FIXP_HALF : 1;
	s64 x = t->x0 - (s64)sx * MMX_FIXP_ONE - bias;
	s64 y = t->y0 - (s64)sy * MMX_FIXP_ONE - bias;
	bool box2 = t->dxu == 2 * MMX_FIXP_ONE && ((u32)x >> 25) == 64 &&
		    ((u32)y >> 25) == 64;
	u32 v;

	if (!t->dyu && !t->dxv && !box2) {
		mmx_compose_scale(ops, t, filter, s, x, y, out, row_begin,
				  row_end);
		return;
	}
	x += (s64)row_begin * t->dxv;
	y += (s64)row_begin * t->dyv;
	for (v = row_begin; v < row_end; v++, x += t->dxv, y += t->dyv) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		if (filter == MMX_FILTER_BILINEAR)
			mmx_affine_row_bilinear(ops, dst, t->out_w, x, y,
						t->dxu, t->dyu, s);
		else
			mmx_affine_row_nearest(ops, dst, t->out_w, x, y,
					       t->dxu, t->dyu, s);
	}
}

/*
 * Projective rows. Along an output row X, Y and W are affine in u, and each
 * filter needs the exact floor of a ratio of two affine functions of u
 * (X, Y already relative to the screen image; x16 = floor(2^16 X / W) is
 * pixman's quantised coordinate):
 * - NEAREST: floor((x16 - 1) / 2^16) = floor((2^16 X - W) / (2^16 W));
 * - BILINEAR: floor((x16 - 2^15) / 2^9) = floor((2^16 X - 2^15 W) / (2^9 W)),
 *   the pixel index times 128 plus the 7-bit weight
 * (floor((floor(a) - k) / m) = floor((a - k) / m) for integers k, m > 0).
 *
 * No division per pixel: each row is cut into spans of up to 64 pixels; the
 * quotient q(u) = N(u) / D(u) is evaluated exactly (to 2^-16, one division)
 * at a span's ends and middle, and the quadratic through these values is
 * stepped by forward differences. The longest span is chosen per row so that
 * the quadratic stays within 2^-12 of q; its floor is then q's floor unless
 * its fraction is within that bound of an integer, and those rare pixels are
 * decided with the exact remainder N - t D.
 *
 * Magnitudes: |X| <= 2^16 W (2^15 of screen plus 2^15 of screen offset) and
 * W < 2^28 + 2^17, so |N| < 2^61 and D < 2^44.1 at every pixel of the row,
 * and |t D| < 2^61.1 for any t within one of a quotient. Quotients stay
 * below 2^17 (nearest) or 2^24 (bilinear), 2^39 in 2^-16 units, 2^61 in the
 * 2^-38 units of the forward differences, and their slopes below 2^62 there.
 */
#define MMX_CHUNK	MMX_SIMD_POINTS

/* floor(n / d) given an estimate t within one of it, else by division */
static s64 mmx_floor_near(s64 n, s64 d, s64 t)
{
	s64 e = n - t * d;

	if (e < 0)
		t--;
	else if (e >= d)
		t++;
	else
		return t;
	e = n - t * d;
	if (unlikely((u64)e >= (u64)d))
		t = mmx_div_floor(n, d);
	return t;
}

/* floor(2^16 n / d) given an estimate t of floor(n / d): one division */
static s64 mmx_floor16(s64 n, s64 d, s64 t)
{
	s64 e;

	t = mmx_floor_near(n, d, t);
	e = n - t * d;
	return t * 65536 + div64_s64(e * 65536, d);
}

static unsigned int mmx_bits64(u64 v)
{
	return v ? 64 - __builtin_clzll(v) : 0;
}

/*
 * log2 of the half span h (0..5) for which the quadratic through q(0),
 * q(h), q(2h) stays within 2^-12 of q = N / D on a row (N = n0 + u dn,
 * D = d0 + u dd, D >= dmin and |q| <= qmax on the row), or -1 when even
 * h = 1 does not. The third derivative of q is -6 q' (dd / D)^2 and
 * |q'| = |dn - q dd| / D <= f1 = |dn| / dmin + qmax r + 2 with
 * r >= |dd| / dmin; the quadratic's error is at most
 * 0.0642 h^3 max|q'''| <= 0.385 h^3 f1 r^2, below 2^-12 when
 * h^3 f1 r32^2 <= 2^53 with r32 = 2^32 r.
 */
static int mmx_span_log(s64 dn, s64 dd, s64 dmin, s64 qmax)
{
	u64 add = dd < 0 ? -(u64)dd : (u64)dd, adn = dn < 0 ? -(u64)dn : (u64)dn;
	int s = (int)mmx_bits64(add) + 32 - 62;
	struct mmx_wide e;
	s64 r32, f1, dm;
	int lh;

	if (!dd)
		return 5;
	s = s > 0 ? s : 0;
	dm = dmin >> s;		/* rounded down: r32 rounded up */
	if (!dm)
		return -1;
	r32 = div64_s64((s64)(add << (32 - s)) + dm - 1, dm);
	if (r32 > ((s64)1 << 31))
		return -1;
	f1 = (s64)div64_u64(adn, (u64)dmin) + 1 +
	     ((qmax * r32) >> 32) + 2;
	if (f1 > ((s64)1 << 30))
		return -1;
	for (lh = 5; lh >= 0; lh--) {
		e = mmx_wide_mul(f1 << (3 * lh), r32 * r32);
		if (mmx_wide_cmp(e, mmx_wide_shl(mmx_wide_from_s64(1), 53)) <= 0)
			return lh;
	}
	return -1;
}

/* Quotients are stepped by forward differences: struct mmx_simd_quad. */
#define MMX_QSHIFT	MMX_SIMD_QSHIFT

/* The quadratic through f0, fm, f1 = 2^16 q at 0, h, 2h (h = 2^lh). */
static void mmx_quad_fit(struct mmx_simd_quad *q, s64 f0, s64 fm, s64 f1, int lh)
{
	s64 c = ((f1 - 2 * fm + f0) * ((s64)1 << 22)) >> (1 + 2 * lh);
	s64 b = (((fm - f0) * ((s64)1 << 22)) >> lh) - c * ((s64)1 << lh);

	q->e = f0 * ((s64)1 << 22);
	q->d1 = b + c;
	q->d2 = 2 * c;
}

/* Rough integer quotient i pixels ahead (an estimate for mmx_floor16()). */
static s64 mmx_quad_guess(const struct mmx_simd_quad *q, s64 i)
{
	return (q->e >> MMX_QSHIFT) +
	       ((i * (q->d1 >> 22) + ((i * (i - 1)) >> 1) * (q->d2 >> 22)) >> 16);
}

/* The two quotients X / W and Y / W of a projective row. */
struct mmx_proj {
	s64 nx, ny, d;		/* numerators and denominator at pixel u */
	s64 dnx, dny, dd;	/* their change per pixel */
	s64 fx, fy;		/* floor(2^16 quotient) at pixel u */
	struct mmx_simd_quad qx, qy;	/* the current span, at pixel u */
	u32 u;			/* next pixel */
	u32 left;		/* pixels left in the current span */
	u32 n;			/* row length */
	int lh;			/* log2 of the longest half span; -1: divide */
};

static void mmx_proj_start(struct mmx_proj *p, s64 nx, s64 dnx, s64 ny,
			   s64 dny, s64 d, s64 dd, u32 n)
{
	s64 dl = d + (s64)(n - 1) * dd, dmin = d < dl ? d : dl;
	s64 tx = mmx_div_floor(nx, d), ty = mmx_div_floor(ny, d);
	s64 txl = mmx_div_floor(nx + (s64)(n - 1) * dnx, dl);
	s64 tyl = mmx_div_floor(ny + (s64)(n - 1) * dny, dl);
	s64 qx = (tx < 0 ? -tx : tx) > (txl < 0 ? -txl : txl) ?
		 (tx < 0 ? -tx : tx) : (txl < 0 ? -txl : txl);
	s64 qy = (ty < 0 ? -ty : ty) > (tyl < 0 ? -tyl : tyl) ?
		 (ty < 0 ? -ty : ty) : (tyl < 0 ? -tyl : tyl);
	/* q is monotonic along the row (q' has the sign of dn d0 - n0 dd) */
	int lx = mmx_span_log(dnx, dd, dmin, qx + 1);
	int ly = mmx_span_log(dny, dd, dmin, qy + 1);
	s64 fx = mmx_floor16(nx, d, tx), fy = mmx_floor16(ny, d, ty);

	*p = (struct mmx_proj) {
		.nx = nx, .ny = ny, .d = d, .dnx = dnx, .dny = dny, .dd = dd,
		.fx = fx, .fy = fy, .n = n, .lh = lx < ly ? lx : ly,
		.qx = { .e = fx * ((s64)1 << 22) },
		.qy = { .e = fy * ((s64)1 << 22) },
	};
}

/* Fit the span starting at pixel p->u; its length, 0 if none fits. */
static u32 mmx_proj_span(struct mmx_proj *p)
{
	u32 room = p->n - 1 - p->u;
	int k = p->lh + 1;
	s64 h, fxm, fym, fx1, fy1;

	while (k > 0 && ((u32)1 << k) > room)
		k--;
	if (k <= 0)
		return 0;
	h = (s64)1 << (k - 1);
	fxm = mmx_floor16(p->nx + h * p->dnx, p->d + h * p->dd,
			  mmx_quad_guess(&p->qx, h));
	fym = mmx_floor16(p->ny + h * p->dny, p->d + h * p->dd,
			  mmx_quad_guess(&p->qy, h));
	fx1 = mmx_floor16(p->nx + 2 * h * p->dnx, p->d + 2 * h * p->dd,
			  mmx_quad_guess(&p->qx, 2 * h));
	fy1 = mmx_floor16(p->ny + 2 * h * p->dny, p->d + 2 * h * p->dd,
			  mmx_quad_guess(&p->qy, 2 * h));
	mmx_quad_fit(&p->qx, p->fx, fxm, fx1, k - 1);
	mmx_quad_fit(&p->qy, p->fy, fym, fy1, k - 1);
	p->fx = fx1;
	p->fy = fy1;
	return (u32)(2 * h);
}

/* Pixel p->u by division (no span fits), and step past it. */
static void mmx_proj_divide(struct mmx_proj *p, s32 *ox, s32 *oy)
{
	*ox = (s32)mmx_div_floor(p->nx, p->d);
	*oy = (s32)mmx_div_floor(p->ny, p->d);
	p->nx += p->dnx;
	p->ny += p->dny;
	p->d += p->dd;
	if (++p->u < p->n) {
		p->fx = mmx_floor16(p->nx, p->d, *ox);
		p->fy = mmx_floor16(p->ny, p->d, *oy);
		p->qx.e = p->fx * ((s64)1 << 22);
		p->qy.e = p->fy * ((s64)1 << 22);
	}
}

/* The next n pixels' quotients, exact. */
static void mmx_proj_next(const struct mmx_simd_ops *ops, struct mmx_proj *p,
			  s32 *ox, s32 *oy, u32 n)
{
	struct mmx_simd_quad qx = p->qx, qy = p->qy;
	u32 i = 0, l, j;
	u64 near;

	while (i < n) {
		if (!p->left) {
			p->qx = qx;
			p->qy = qy;
			if (p->lh >= 0)
				p->left = mmx_proj_span(p);
			if (!p->left) {
				mmx_proj_divide(p, ox + i, oy + i);
				qx = p->qx;
				qy = p->qy;
				i++;
				continue;
			}
			qx = p->qx;
			qy = p->qy;
		}
		l = p->left < n - i ? p->left : n - i;
		/* quotients near an integer: decided with the remainder */
		near = ops->quad_steps(ox + i, oy + i, l, &qx, &qy);
		while (near) {
			s64 d;

			j = __builtin_ctzll(near);
			near &= near - 1;
			d = p->d + (s64)j * p->dd;
			ox[i + j] = (s32)mmx_floor_near(p->nx + (s64)j * p->dnx,
							d, ox[i + j]);
			oy[i + j] = (s32)mmx_floor_near(p->ny + (s64)j * p->dny,
							d, oy[i + j]);
		}
		i += l;
		p->u += l;
		p->left -= l;
		p->nx += (s64)l * p->dnx;
		p->ny += (s64)l * p->dny;
		p->d += (s64)l * p->dd;
	}
	p->qx = qx;
	p->qy = qy;
}

/* NEAREST samples at the pixel indices @cx, @cy. */
static void mmx_proj_nearest(const struct mmx_src *s, u32 *dst,
			     const s32 *cx, const s32 *cy, u32 n)
{
	u32 k;

	for (k = 0; k < n; k++) {
		u64 xi = (u64)(s64)cx[k], yi = (u64)(s64)cy[k];

		dst[k] = (xi < s->w && yi < s->h) ?
			 s->px[yi * s->stride + xi] : MMX_BLACK;
	}
}

/* BILINEAR samples at @cx, @cy (pixel index times 128 plus weight). */
static void mmx_proj_bilinear(const struct mmx_src *s, u32 *dst,
			      const s32 *cx, const s32 *cy, u32 n)
{
	u32 k;

	for (k = 0; k < n; k++) {
		s64 xi = cx[k] >> 7, yi = cy[k] >> 7;
		u32 wx = (u32)cx[k] & 127, wy = (u32)cy[k] & 127;

		if (likely((u64)xi < s->w - 1 && (u64)yi < s->h - 1))
			dst[k] = mmx_bilinear_in(s->px, s->stride, xi, yi, wx,
						 wy);
		else
			dst[k] = mmx_bilinear_edge(s, xi, yi, wx, wy);
	}
}

static void mmx_compose_projective(const struct mmx_simd_ops *ops,
				   const struct mmx_transform *t,
				   enum mmx_filter filter,
				   const struct mmx_src *s, s32 sx, s32 sy,
				   struct mmx_frame *out, u32 row_begin,
				   u32 row_end)
{
	bool bilinear = filter == MMX_FILTER_BILINEAR;
	s64 scale = bilinear ? (s64)1 << 9 : (s64)1 << 16;
	s64 bias = bilinear ? (s64)1 << 15 : 1;
	s32 cx[MMX_CHUNK], cy[MMX_CHUNK];
	struct mmx_proj p;
	s64 x, y, z, hx, hy;
	u32 v, u, n;
	/* whole chunks inside the screen, with 32-bit pixel offsets */
	bool points = s->w > 1 && s->h > 1 &&
		      s->h * s->stride + s->w < ((u64)1 << 31);

	/* Screen offset: x - sx = (X - sx W) / W. */
	hx = t->hu[0] - (s64)sx * t->hu[2];
	hy = t->hu[1] - (s64)sy * t->hu[2];
	for (v = row_begin; v < row_end; v++) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		z = t->h0[2] + (s64)v * t->hv[2];
		x = t->h0[0] + (s64)v * t->hv[0] - (s64)sx * z;
		y = t->h0[1] + (s64)v * t->hv[1] - (s64)sy * z;
		mmx_proj_start(&p, x * 65536 - bias * z,
			       hx * 65536 - bias * t->hu[2],
			       y * 65536 - bias * z,
			       hy * 65536 - bias * t->hu[2],
			       z * scale, t->hu[2] * scale, t->out_w);
		for (u = 0; u < t->out_w; u += n) {
			n = t->out_w - u < MMX_CHUNK ? t->out_w - u : MMX_CHUNK;
			mmx_proj_next(ops, &p, cx, cy, n);
			if (!bilinear)
				mmx_proj_nearest(s, dst + u, cx, cy, n);
			else if (!points ||
				 !ops->bilinear_points(dst + u, n, cx, cy,
						       s->px, s->stride,
						       (u32)s->w - 1,
						       (u32)s->h - 1))
				mmx_proj_bilinear(s, dst + u, cx, cy, n);
		}
	}
}

/*
 * Rotations by multiples of 90 degrees and reflections: output pixel (u, v)
 * shows screen pixel (x0 + xu u + xv v, y0 + yu u + yv v).
 */

/* Output range [lo, hi) of k in [0, n) with 0 <= a + b k < lim (b = +-1). */
static void mmx_axis_range(s64 a, s32 b, u64 lim, u32 n, u32 *lo, u32 *hi)
{
	s64 l, h;

	if (b > 0) {
		l = -a;
		h = (s64)lim - a;
	} else {
		l = a - (s64)lim + 1;
		h = a + 1;
	}
	l = l < 0 ? 0 : l;
	h = h > (s64)n ? (s64)n : h;
	if (l >= h) {
		*lo = 0;
		*hi = 0;
	} else {
		*lo = (u32)l;
		*hi = (u32)h;
	}
}

/*
 * Transposing copy of the output rectangle [u0, u1) x [v0, v1):
 * dst(u, v) = src(x0 + xv v, y0 + yu u). Output rows are taken a band at a
 * time (mmx_simd_ops.transpose_band): the source is walked down a column of
 * pieces, one row apart, so the walk prefetches a few rows ahead; the
 * band's output rows are written sequentially.
 */
#define MMX_BAND		MMX_SIMD_TBAND
#define MMX_TBLOCK		256

static void mmx_axis_transpose(const struct mmx_simd_ops *ops,
			       const struct mmx_src *s, s64 x0, s32 xv,
			       s64 y0, s32 yu, struct mmx_frame *out,
			       u32 u0, u32 u1, u32 v0, u32 v1)
{
	ptrdiff_t ustep = yu * (ptrdiff_t)s->stride;
	const u32 *col = s->px + (y0 + (s64)yu * u0) * (ptrdiff_t)s->stride + x0;
	u32 v, u, ub, ue;

	v = v0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	/*
	 * Blocks of MMX_TBLOCK output columns (source rows), each walked
	 * band after band: a band reads one piece of each source row, and the
	 * block's source rows (pages) stay cached for the next band.
	 */
	for (ub = u0; ub < u1; ub = ue) {
		const u32 *bcol = col + (ptrdiff_t)(ub - u0) * ustep;

		ue = u1 - ub < MMX_TBLOCK ? u1 : ub + MMX_TBLOCK;
		for (v = v0; v + MMX_BAND <= v1; v += MMX_BAND) {
			/* leftmost source pixel of the band in row ub */
			const u32 *p = bcol + (xv > 0 ? (s64)v :
						 -(s64)v - (MMX_BAND - 1));

			ops->transpose_band(p, xv, ustep,
					    out->pixels + (size_t)v * out->stride,
					    out->stride, ub, ue);
		}
	}
#endif
	for (; v < v1; v++) {
		u32 *d = out->pixels + (size_t)v * out->stride;
		const u32 *p = col + (s64)xv * v;

		for (u = u0; u < u1; u++, p += ustep)
			d[u] = *p;
	}
}

/*
 * Output rows that are screen rows, possibly reversed: output pixel (u, v)
 * shows screen pixel (x0 + xu u, y0 + yv v).
 */
static void mmx_axis_rows(const struct mmx_simd_ops *ops,
			  const struct mmx_transform *t,
			  const struct mmx_src *s, s64 x0, s32 xu, s64 y0,
			  s32 yv, struct mmx_frame *out, u32 row_begin,
			  u32 row_end)
{
	u32 v, lo, hi;

	mmx_axis_range(x0, xu, s->w, t->out_w, &lo, &hi);
	for (v = row_begin; v < row_end; v++) {
		u32 *dst = out->pixels + (size_t)v * out->stride;
		s64 ys = y0 + (s64)yv * v;
		const u32 *src;

		if ((u64)ys >= s->h || lo == hi) {
			mmx_fill_black(dst, t->out_w);
			continue;
		}
		src = s->px + (size_t)ys * s->stride;
		mmx_fill_black(dst, lo);
		if (xu > 0)
			memcpy(dst + lo, src + x0 + lo,
			       (size_t)(hi - lo) * sizeof(u32));
		else
			ops->copy_reversed(dst + lo, src + x0 - lo, hi - lo);
		mmx_fill_black(dst + hi, t->out_w - hi);
	}
}

static void mmx_compose_axis(const struct mmx_simd_ops *ops,
			     const struct mmx_transform *t,
			     const struct mmx_src *s, s32 sx, s32 sy,
			     struct mmx_frame *out, u32 row_begin, u32 row_end)
{
	s64 x0 = (s64)t->ax[0] - sx, y0 = (s64)t->ax[3] - sy;
	s32 xu = t->ax[1], xv = t->ax[2], yu = t->ax[4], yv = t->ax[5];
	u32 v, lo, hi, vlo, vhi;

	if (!xv) {
		mmx_axis_rows(ops, t, s, x0, xu, y0, yv, out, row_begin,
			      row_end);
		return;
	}

	/* Output rows are screen columns: x from v, y from u. */
	mmx_axis_range(y0, yu, s->h, t->out_w, &lo, &hi);
	mmx_axis_range(x0, xv, s->w, t->out_h, &vlo, &vhi);
	vlo = vlo > row_begin ? vlo : row_begin;
	vhi = vhi < row_end ? vhi : row_end;
	if (lo == hi || vlo >= vhi) {
		vlo = row_end;
		vhi = row_end;
	}
	for (v = row_begin; v < row_end; v++) {
		u32 *dst = out->pixels + (size_t)v * out->stride;

		if (v < vlo || v >= vhi) {
			mmx_fill_black(dst, t->out_w);
		} else {
			mmx_fill_black(dst, lo);
			mmx_fill_black(dst + hi, t->out_w - hi);
		}
	}
	if (vlo < vhi)
		mmx_axis_transpose(ops, s, x0, xv, y0, yu, out, lo, hi, vlo,
				   vhi);
}

/* Rows [@row_begin, @row_end) with @ops' inner loops. */
static void mmx_compose_rows(const struct mmx_simd_ops *ops,
			     const struct mmx_transform *t,
			     enum mmx_filter filter, const struct mmx_src *s,
			     s32 screen_x, s32 screen_y, struct mmx_frame *out,
			     u32 row_begin, u32 row_end)
{
	switch (t->kind) {
	case MMX_TRANSFORM_IDENTITY:
	case MMX_TRANSFORM_TRANSLATE:
	case MMX_TRANSFORM_AXIS:
		mmx_compose_axis(ops, t, s, screen_x, screen_y, out, row_begin,
				 row_end);
		break;
	case MMX_TRANSFORM_AFFINE:
		mmx_compose_affine(ops, t, filter, s, screen_x, screen_y, out,
				   row_begin, row_end);
		break;
	case MMX_TRANSFORM_PROJECTIVE:
	default:
		mmx_compose_projective(ops, t, filter, s, screen_x, screen_y,
				       out, row_begin, row_end);
		break;
	}
}

/**
 * mmx_transform_compose - fill output rows with the transformed screen
 * @t: a prepared transform
 * @filter: sampling filter
 * @screen: the screen image: the blended planes in screen (pre-transform)
 *	space, pixels 0xffRRGGBB
 * @screen_x: transform-space x of @screen's top-left pixel. The sample point
 *	p = M (u + 1/2, v + 1/2, 1) / w lies in transform space, which is
 *	screen space minus the CRTC's scanout offset (x, y): a caller that
 *	blends the screen area starting at screen point (x + a, y + b) into
 *	@screen passes (a, b); usually the bounding box origin
 *	(bbox_x, bbox_y), with @screen the size of the bounding box.
 *	|@screen_x| and |@screen_y| must not exceed
 *	%MMX_TRANSFORM_EXTENT_MAX, else the rows are black.
 * @screen_y: transform-space y of @screen's top-left pixel
 * @out: the output, @t->out_w x @t->out_h
 * @row_begin: first row to fill
 * @row_end: row after the last one to fill (at most @t->out_h)
 *
 * Output pixel (u, v) samples @screen at p - (@screen_x, @screen_y); pixels
 * outside @screen are black. Rows are independent: disjoint row ranges can
 * be composed concurrently. Copy paths (integer translations, 90-degree
 * rotations, reflections) and NEAREST copy screen pixels as they are,
 * BILINEAR writes 0xffRRGGBB.
 */
void mmx_transform_compose(const struct mmx_transform *t,
			   enum mmx_filter filter,
			   const struct mmx_frame *screen,
			   s32 screen_x, s32 screen_y, struct mmx_frame *out,
			   u32 row_begin, u32 row_end)
{
	struct mmx_src s = {
		.px = screen->pixels,
		.stride = screen->stride,
		.w = screen->width,
		.h = screen->height,
	};
	const struct mmx_simd_ops *ops = mmx_simd;
	s64 lim = MMX_TRANSFORM_EXTENT_MAX;
	u32 v, n, rows;

	if (row_end > t->out_h)
		row_end = t->out_h;
	if (row_begin >= row_end)
		return;
	/* sample indices never reach 2^17 (|p - screen origin| <= 2^16) */
	s.w = s.w < ((u64)1 << 20) ? s.w : (u64)1 << 20;
	s.h = s.h < ((u64)1 << 20) ? s.h : (u64)1 << 20;
	if (!s.w || !s.h || screen_x > lim || screen_x < -lim ||
	    screen_y > lim || screen_y < -lim) {
		for (v = row_begin; v < row_end; v++)
			mmx_fill_black(out->pixels + (size_t)v * out->stride,
				       t->out_w);
		return;
	}

	/*
	 * Bands of rows of at most MMX_SIMD_SECTION pixels, each in one
	 * vector-register section (in the kernel: preemption disabled).
	 */
	rows = MMX_SIMD_SECTION / t->out_w;
	rows = rows ? rows : 1;
	for (v = row_begin; v < row_end; v += n) {
		n = row_end - v < rows ? row_end - v : rows;
		mmx_simd_begin(ops);
		mmx_compose_rows(ops, t, filter, &s, screen_x, screen_y, out, v,
				 v + n);
		mmx_simd_end(ops);
	}
}
