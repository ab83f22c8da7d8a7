/* SPDX-License-Identifier: MIT */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * An arena: allocations freed together. A snapshot (struct mmx_state) and
 * a configuration (struct mmx_config) own their arrays and strings through
 * one, so that mmx_state_free() and mmx_config_free() free everything
 * they handed out at once. Each allocation is its own malloc() block
 * (sanitizers see every bound); the arena only chains them.
 */

#ifndef MMX_ARENA_H
#define MMX_ARENA_H

#include <stddef.h>

struct mmx_arena_block;

/**
 * struct mmx_arena - allocations freed together
 * @blocks: the allocations, newest first; NULL when empty (a zeroed
 *	arena is an empty one)
 */
struct mmx_arena {
	struct mmx_arena_block *blocks;
};

/*
 * @n zeroed elements of @size bytes, aligned for any type; NULL when @n is
 * 0 (nothing to hold) or memory runs out (check with @n).
 */
void *mmx_arena_calloc(struct mmx_arena *a, size_t n, size_t size);
/* A copy of @len bytes at @p (NULL when @len is 0 or memory runs out). */
void *mmx_arena_memdup(struct mmx_arena *a, const void *p, size_t len);
/* A copy of @len bytes of @s and a NUL; NULL when memory runs out. */
char *mmx_arena_strndup(struct mmx_arena *a, const char *s, size_t len);
/* A copy of @s (NULL: ""); NULL when memory runs out. */
char *mmx_arena_strdup(struct mmx_arena *a, const char *s);
/* Free every allocation of @a; it is empty again. */
void mmx_arena_free(struct mmx_arena *a);

#endif /* MMX_ARENA_H */
