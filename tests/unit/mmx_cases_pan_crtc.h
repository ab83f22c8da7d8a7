/* SPDX-License-Identifier: MIT */
/* PAN() and the panning cases' matrices (uses ONE); test_lib_pan_crtc.c includes it. */
/* A panning configuration, trailing fields zero. */
#define PAN(...)	PAN_(__VA_ARGS__, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
#define PAN_(l, t, w, h, tl, tt, tw, th, bl, bt, br, bb, ...) \
	{ l, t, w, h, tl, tt, tw, th, bl, bt, br, bb }

static const s64 m_identity[9] = { ONE, 0, 0, 0, ONE, 0, 0, 0, ONE };
/* RandR's "rotate left" of a 1920x1080 mode: x = 1080 - v, y = u */
static const s64 m_rot90[9] = { 0, -ONE, 1080 * ONE, ONE, 0, 0, 0, 0, ONE };
static const s64 m_scale2[9] = { 2 * ONE, 0, 0, 0, 2 * ONE, 0, 0, 0, ONE };
/* a keystone: w = 1 + v / 4096 */
static const s64 m_keystone[9] = { ONE, 0, 0, 0, ONE, 0, 0, ONE / 4096, ONE };
