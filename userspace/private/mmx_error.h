/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * How libmmxd_private's parts fill libmmx's struct mmx_error (a public
 * type): this library is built on libmmx's public headers only.
 */

#ifndef MMX_PRIVATE_ERROR_H
#define MMX_PRIVATE_ERROR_H

#include "libmmx.h"

/*
 * Set @err (may be NULL) to @e and a printf message (cut to what fits);
 * returns @e, for "return mmx_private_error(err, -EINVAL, ...)".
 */
int mmx_private_error(struct mmx_error *err, int e, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif /* MMX_PRIVATE_ERROR_H */
