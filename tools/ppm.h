/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading binary PPM (P6, maxval 255) images, shared by the host tools.
 */
#ifndef MMX_TOOLS_PPM_H
#define MMX_TOOLS_PPM_H

#include <stdio.h>

/* Largest width and height accepted. */
#define PPM_MAX_DIM 65536UL

/*
 * Read the P6 image from F (named PATH in messages, which start with PROG);
 * on success return the pixels (3 bytes each, row after row) and set *W, *H.
 * Return NULL after printing why on failure.
 */
unsigned char *ppm_read(const char *prog, const char *path, FILE *f,
			unsigned long *w, unsigned long *h);

#endif
