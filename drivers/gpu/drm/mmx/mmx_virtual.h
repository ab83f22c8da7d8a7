/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The virtual backend's files: its devices (mmx_virtual.c) and the
 * configfs tree that creates them (mmx_virtual_configfs.c).
 */

#ifndef _MMX_VIRTUAL_H_
#define _MMX_VIRTUAL_H_

struct mmx_config;
struct mmx_output;
struct platform_device;

/* Devices */
struct platform_device *mmx_virtual_add(const struct mmx_config *config);
struct mmx_output *mmx_virtual_output(struct platform_device *pdev,
				      unsigned int index);

/* configfs */
int mmx_configfs_register(void);
void mmx_configfs_unregister(void);

#endif /* _MMX_VIRTUAL_H_ */
