/* SPDX-License-Identifier: MIT */
/* Panning-check cases (uses mmx_cases_pan_crtc.h); test_lib_pan_crtc.c includes it. */
/* Most cases: a 1920x1080 CRTC without a transform on a 3840x2160 screen. */
#define ON_4K(name, pan, ret)	{ name, m_identity, pan, 3840, 2160, ret }
	/* RRSetPanning: width 0 or >= CRTC width, left + width within the
	 * screen, border_left + border_right <= CRTC width; likewise y.
	 */
	{ "off", m_identity, PAN(0), 1920, 1080, 0 },
	ON_4K("whole-screen", PAN(0, 0, 3840, 2160), 0),
	ON_4K("crtc-sized", PAN(100, 50, 1920, 1080), 0),
	{ "x-only", m_identity, PAN(0, 0, 3840, 0), 3840, 1080, 0 },
	ON_4K("disabled-x-with-left", PAN(5, 0, 0, 1080), -EINVAL),
	ON_4K("disabled-y-with-top", PAN(0, 7, 1920, 0), -EINVAL),
	ON_4K("narrower-than-crtc", PAN(0, 0, 1919, 1080), -EINVAL),
	ON_4K("shorter-than-crtc", PAN(0, 0, 1920, 1079), -EINVAL),
	ON_4K("beyond-screen-right", PAN(1921, 0, 1920, 1080), -EINVAL),
	ON_4K("beyond-screen-bottom", PAN(0, 1081, 1920, 1080), -EINVAL),
	ON_4K("borders-fill-width",
	      PAN(0, 0, 3840, 2160, 0, 0, 0, 0, 960, 0, 960, 0), 0),
	ON_4K("borders-too-wide",
	      PAN(0, 0, 3840, 2160, 0, 0, 0, 0, 961, 0, 960, 0), -EINVAL),
	ON_4K("borders-too-tall",
	      PAN(0, 0, 3840, 2160, 0, 0, 0, 0, 0, 1000, 0, 81), -EINVAL),
	ON_4K("borders-negative",
	      PAN(0, 0, 3840, 2160, 0, 0, 0, 0, -100, -200, -300, -400), 0),
	ON_4K("border-beyond-int16",
	      PAN(0, 0, 3840, 2160, 0, 0, 0, 0, -40000, 0, 0, 0), -EINVAL),
	ON_4K("tracking-beyond-card16",
	      PAN(0, 0, 3840, 2160, 70000, 0, 10, 10), -EINVAL),
	{ "borders-ignored-when-off", m_identity,
	  PAN(0, 0, 0, 0, 0, 0, 0, 0, 5000, 5000, 5000, 5000), 1920, 1080, 0 },
	/* rotated 90: the CRTC covers 1080 x 1920 of the screen */
	{ "rot90-narrow-ok", m_rot90, PAN(0, 0, 1500, 1920), 3000, 3000, 0 },
	{ "rot90-too-narrow", m_rot90, PAN(0, 0, 1079, 1920), 3000, 3000, -EINVAL },
	{ "rot90-too-short", m_rot90, PAN(0, 0, 1080, 1919), 3000, 3000, -EINVAL },
	/* borders are in CRTC pixels: the mode is still 1920 wide */
	{ "rot90-borders-mode-width", m_rot90,
	  PAN(0, 0, 1500, 1920, 0, 0, 0, 0, 1000, 0, 920, 0), 3000, 3000, 0 },
	/* scaled by 2 the CRTC covers 3840 x 2160 */
	{ "scale2-too-narrow", m_scale2, PAN(0, 0, 3000, 2160), 7680, 4320, -EINVAL },
	{ "scale2-ok", m_scale2, PAN(0, 0, 3840, 2160), 7680, 4320, 0 },
#undef ON_4K
