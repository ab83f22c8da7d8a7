// SPDX-License-Identifier: MIT
/* Temporary: the remote backend until lib/mmx_client.c exists. */
#include <errno.h>
#include "mmx_internal.h"
int mmx_client_connect(const char *path, struct mmx_client **out) { (void)path; (void)out; return -ENOSYS; }
void mmx_client_close(struct mmx_client *c) { (void)c; }
int mmx_client_state(struct mmx_client *c, int probe, struct mmx_state *s) { (void)c; (void)probe; (void)s; return -ENOSYS; }
int mmx_client_apply(struct mmx_client *c, const struct mmx_config *cfg, struct mmx_error *err) { (void)c; (void)cfg; (void)err; return -ENOSYS; }
int mmx_client_pointer_moved(struct mmx_client *c, int32_t x, int32_t y) { (void)c; (void)x; (void)y; return -ENOSYS; }
int mmx_client_capture(struct mmx_client *c, uint32_t crtc, uint32_t *w, uint32_t *h, uint32_t **p) { (void)c; (void)crtc; (void)w; (void)h; (void)p; return -ENOSYS; }
