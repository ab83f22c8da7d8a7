// SPDX-License-Identifier: MIT
/* Temporary: the local backend until lib/mmx_kms.c exists. */
#include <errno.h>
#include "mmx_internal.h"
int mmx_kms_open(int fd, int own_fd, struct mmx_kms **out) { (void)fd; (void)own_fd; (void)out; return -ENOSYS; }
void mmx_kms_close(struct mmx_kms *k) { (void)k; }
int mmx_kms_fd(const struct mmx_kms *k) { (void)k; return -1; }
int mmx_kms_state(struct mmx_kms *k, int probe, struct mmx_state *s) { (void)k; (void)probe; (void)s; return -ENOSYS; }
int mmx_kms_apply(struct mmx_kms *k, const struct mmx_config *cfg, struct mmx_error *err) { (void)k; (void)cfg; (void)err; return -ENOSYS; }
int mmx_kms_pointer_moved(struct mmx_kms *k, int32_t x, int32_t y) { (void)k; (void)x; (void)y; return -ENOSYS; }
int mmx_kms_capture(struct mmx_kms *k, uint32_t crtc, uint32_t *w, uint32_t *h, uint32_t **p) { (void)k; (void)crtc; (void)w; (void)h; (void)p; return -ENOSYS; }
