// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The arena of snapshots and configurations (mmx_arena.h).
 */

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_arena.h"

struct mmx_arena_block {
	struct mmx_arena_block *next;
	max_align_t data[];
};

void *mmx_arena_calloc(struct mmx_arena *a, size_t n, size_t size)
{
	struct mmx_arena_block *b;

	if (!n || !size)
		return NULL;
	if (n > (SIZE_MAX - sizeof(*b)) / size)
		return NULL;
	b = calloc(1, sizeof(*b) + n * size);
	if (!b)
		return NULL;
	b->next = a->blocks;
	a->blocks = b;
	return b->data;
}

void *mmx_arena_memdup(struct mmx_arena *a, const void *p, size_t len)
{
	void *q = mmx_arena_calloc(a, len, 1);

	if (q)
		memcpy(q, p, len);
	return q;
}

char *mmx_arena_strndup(struct mmx_arena *a, const char *s, size_t len)
{
	char *q = mmx_arena_calloc(a, len + 1, 1);

	if (q && len)
		memcpy(q, s, len);
	return q;
}

char *mmx_arena_strdup(struct mmx_arena *a, const char *s)
{
	return s ? mmx_arena_strndup(a, s, strlen(s)) :
		   mmx_arena_strndup(a, "", 0);
}

void mmx_arena_free(struct mmx_arena *a)
{
	struct mmx_arena_block *b = a->blocks;

	while (b) {
		struct mmx_arena_block *next = b->next;

		free(b);
		b = next;
	}
	a->blocks = NULL;
}
