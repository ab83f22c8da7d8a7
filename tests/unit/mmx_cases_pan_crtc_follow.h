/* SPDX-License-Identifier: MIT */
/* Pointer-follow cases (uses mmx_cases_pan_crtc.h); test_lib_pan_crtc.c includes it. */
	/* 1920x1080 CRTC on a 3840x2160 screen unless said otherwise */
	{ "no-panning", m_identity, PAN(0), 10, 20, 3000, 2000, 10, 20 },
	{ "pointer-inside", m_identity, PAN(0, 0, 3840, 2160), 0, 0, 100, 100, 0, 0 },
	/* c.x = 2000 >= 1920 -> 1919: x = 2000 - 1919 */
	{ "beyond-right", m_identity, PAN(0, 0, 3840, 2160), 0, 0, 2000, 500, 81, 0 },
	/* c.x = -100 -> 0: x = 400 */
	{ "beyond-left", m_identity, PAN(0, 0, 3840, 2160), 500, 0, 400, 10, 400, 0 },
	/* c.y = 1500 -> 1079: y = 1500 - 1079 */
	{ "beyond-bottom", m_identity, PAN(0, 0, 3840, 2160), 0, 0, 10, 1500, 0, 421 },
	{ "beyond-top", m_identity, PAN(0, 0, 3840, 2160), 0, 800, 0, 700, 0, 700 },
	{ "beyond-corner", m_identity, PAN(0, 0, 3840, 2160), 0, 0, 2000, 1100, 81, 21 },
	/* pointer clipped to the area: 3839 - 1919 = 1920, the last position */
	{ "beyond-area", m_identity, PAN(0, 0, 3840, 2160), 0, 0, 5000, 10, 1920, 0 },
	/* border_right 100: c.x = 1850 >= 1820 -> 1819 */
	{ "border-right", m_identity,
	  PAN(0, 0, 3840, 2160, 0, 0, 0, 0, 0, 0, 100, 0), 0, 0, 1850, 0, 31, 0 },
	/* border_top 50: c.y = 60 - 20 = 40 < 50 -> 50: y = 60 - 50 */
	{ "border-top", m_identity,
	  PAN(0, 0, 3840, 2160, 0, 0, 0, 0, 0, 50, 0, 0), 0, 20, 5, 60, 0, 10 },
	/* border_left -50: c.x = -30 is not < -50: no pan */
	{ "border-negative", m_identity,
	  PAN(0, 0, 3840, 2160, 0, 0, 0, 0, -50, 0, 0, 0), 100, 0, 70, 0, 100, 0 },
	/* tracking area is the left 1000 columns: no pan at x = 2000 */
	{ "outside-tracking", m_identity, PAN(0, 0, 3840, 2160, 0, 0, 1000, 2160), 0,
	  0, 2000, 500, 0, 0 },
	{ "inside-tracking", m_identity, PAN(0, 0, 3840, 2160, 0, 0, 2500, 2160), 0,
	  0, 2000, 500, 81, 0 },
	/* tracking limits are half open: x = 2000 is outside [0, 2000) */
	{ "tracking-edge", m_identity, PAN(0, 0, 3840, 2160, 0, 0, 2000, 2160), 0, 0,
	  2000, 500, 0, 0 },
	/* the offset is clamped into the area even without a pan */
	{ "clamp-to-area", m_identity, PAN(100, 0, 2500, 1080), 0, 0, 500, 500, 100,
	  0 },
	{ "clamp-to-area-right", m_identity, PAN(100, 0, 2500, 1080), 900, 0, 1000,
	  500, 680, 0 },
	/* x panning disabled: only y moves */
	{ "x-disabled", m_identity, PAN(0, 0, 0, 2160), 0, 0, 2500, 1500, 0, 421 },
	/* rotated: c = M^-1 (1500, 100) = (100, -420) -> (100, 0), M c =
	 * (1080, 100): offset (420, 0)
	 */
	{ "rot90-beyond-right", m_rot90, PAN(0, 0, 3000, 3000), 0, 0, 1500, 100, 420,
	  0 },
	/* rotated, pointer below: (500, 2500) -> c = (2500, 580) -> c.x 1919,
	 * M c = (500, 1919): offset (0, 581)
	 */
	{ "rot90-beyond-bottom", m_rot90, PAN(0, 0, 3000, 3000), 0, 0, 500, 2500, 0,
	  581 },
	{ "rot90-inside", m_rot90, PAN(0, 0, 3000, 3000), 0, 0, 500, 500, 0, 0 },
	/* the clamp uses the rotated box: x <= 2000 - 1080 */
	{ "rot90-clamp", m_rot90, PAN(0, 0, 2000, 3000), 1500, 0, 1500, 100, 920,
	  0 },
	/* scaled by 2: c = (2000, 50) -> (1919, 50), M c = (3838, 100) */
	{ "scale2-beyond-right", m_scale2, PAN(0, 0, 7680, 4320), 0, 0, 4000, 100,
	  162, 0 },
	/* keystone: w = 1 + v/4096; pointer (100, 2000) from offset (0, 0):
	 * c = M^-1 (100, 2000) = (195.4, 3908.4), c.y -> 1079 (w = 1.26343),
	 * M c = (154.7, 854.03): offset (-54.7, 1145.97) rounds to (-55, 1146),
	 * and x is clamped to the area's left edge (bounding box x = 0)
	 */
	/* the same from offset (500, 0), pointer (600, 2000): x = 600 - 154.67
	 * = 445.33 -> 445 (nearest, not floor)
	 */
	{ "keystone-rounding", m_keystone, PAN(0, 0, 3840, 2160), 500, 0, 600, 2000,
	  445, 1146 },
	{ "keystone-beyond-bottom", m_keystone, PAN(0, 0, 3840, 2160), 0, 0, 100,
	  2000, 0, 1146 },
