// SPDX-License-Identifier: MIT
/*
 * Copyright (C) 2026 The mmx authors
 *
 * Configurations (struct mmx_config): their lifetime (everything in one
 * arena, freed by mmx_config_free()) and the mmx_config_*() setters of
 * libmmx.h.
 */

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "mmx_config.h"

void mmx_config_clear(struct mmx_config *cfg)
{
	mmx_arena_free(&cfg->arena);
	memset(cfg, 0, sizeof(*cfg));
}

int mmx_config_new(struct mmx_config **out)
{
	if (!out)
		return -EINVAL;
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void mmx_config_free(struct mmx_config *cfg)
{
	if (!cfg)
		return;
	mmx_arena_free(&cfg->arena);
	free(cfg);
}

void mmx_config_reset(struct mmx_config *cfg)
{
	if (cfg)
		mmx_config_clear(cfg);
}

void mmx_config_set_flags(struct mmx_config *cfg, uint32_t flags)
{
	if (cfg)
		cfg->flags = flags;
}

uint32_t mmx_config_flags(const struct mmx_config *cfg)
{
	return cfg ? cfg->flags : 0;
}

void mmx_config_set_screen_size(struct mmx_config *cfg, uint32_t width,
				uint32_t height)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_SCREEN_SIZE;
	cfg->screen_width = width;
	cfg->screen_height = height;
}

void mmx_config_set_primary(struct mmx_config *cfg, uint32_t output)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_PRIMARY;
	cfg->primary = output;
}

void mmx_config_set_pan_mode(struct mmx_config *cfg, uint32_t mode)
{
	if (!cfg)
		return;
	cfg->flags |= MMX_CONFIG_PAN_MODE;
	cfg->pan_mode = mode;
}

/*
 * Room for one more change: the table of pointers doubles (the old one
 * stays in the arena until the config is freed: configs are small).
 */
static bool config_grow(struct mmx_config *cfg)
{
	uint32_t room = cfg->room ? cfg->room * 2 : 8;
	struct mmx_output_change **changes;

	if (cfg->nchange < cfg->room)
		return true;
	changes = mmx_arena_calloc(&cfg->arena, room, sizeof(*changes));
	if (!changes)
		return false;
	if (cfg->nchange)
		memcpy(changes, cfg->changes,
		       cfg->nchange * sizeof(*changes));
	cfg->changes = changes;
	cfg->room = room;
	return true;
}

struct mmx_output_change *mmx_config_output(struct mmx_config *cfg,
					    uint32_t output)
{
	struct mmx_output_change *c;
	uint32_t i;

	if (!cfg || !output)
		return NULL;
	for (i = 0; i < cfg->nchange; i++)
		if (cfg->changes[i]->output == output)
			return cfg->changes[i];
	if (!config_grow(cfg))
		return NULL;
	c = mmx_arena_calloc(&cfg->arena, 1, sizeof(*c));
	if (!c)
		return NULL;
	c->output = output;
	cfg->changes[cfg->nchange++] = c;
	return c;
}

int mmx_config_output_set_prop(struct mmx_config *cfg, uint32_t output,
			       const char *name, const char *value)
{
	struct mmx_output_change *c;
	struct mmx_set_prop *props;
	uint32_t i;

	if (!cfg || !output || !name || !value)
		return -EINVAL;
	c = mmx_config_output(cfg, output);
	if (!c)
		return -ENOMEM;
	/* a new array (the old one stays in the arena: configs are small) */
	props = mmx_arena_calloc(&cfg->arena, c->nprop + 1, sizeof(*props));
	if (!props)
		return -ENOMEM;
	if (c->nprop)
		memcpy(props, c->props, c->nprop * sizeof(*props));
	for (i = 0; i < c->nprop && strcmp(props[i].name, name); i++)
		;
	props[i].value = mmx_arena_strdup(&cfg->arena, value);
	if (i == c->nprop)
		props[i].name = mmx_arena_strdup(&cfg->arena, name);
	if (!props[i].name || !props[i].value)
		return -ENOMEM;
	c->props = props;
	c->nprop += i == c->nprop;
	c->flags |= MMX_CHANGE_PROPS;
	return 0;
}

uint32_t mmx_config_noutputs(const struct mmx_config *cfg)
{
	return cfg ? cfg->nchange : 0;
}

struct mmx_output_change *mmx_config_output_at(struct mmx_config *cfg,
					       uint32_t i)
{
	return i < mmx_config_noutputs(cfg) ? cfg->changes[i] : NULL;
}
