/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The display topology of a virtual device as its user describes it
 * (planes, CRTCs, encoders, connectors and their links), filled by the
 * module parameters or configfs, and its translation into the outputs the
 * core builds.
 */

#ifndef _MMX_VIRTUAL_TOPOLOGY_H_
#define _MMX_VIRTUAL_TOPOLOGY_H_

#include <linux/list.h>
#include <linux/types.h>

#include "mmx_drv.h"

/* Objects of one kind a topology holds: a link is a bit in a u32. */
#define MMX_TOPO_MAX_OBJECTS	32

/**
 * enum mmx_topo_kind - the kinds of object of a topology
 * @MMX_TOPO_PLANE: a plane; links to its possible CRTCs
 * @MMX_TOPO_CRTC: a CRTC; links to nothing
 * @MMX_TOPO_ENCODER: an encoder; links to its possible CRTCs
 * @MMX_TOPO_CONNECTOR: a connector; links to its possible encoders
 * @MMX_TOPO_KINDS: number of kinds
 */
enum mmx_topo_kind {
	MMX_TOPO_PLANE,
	MMX_TOPO_CRTC,
	MMX_TOPO_ENCODER,
	MMX_TOPO_CONNECTOR,
	MMX_TOPO_KINDS,
};

/**
 * struct mmx_topo_object - a plane, CRTC, encoder or connector
 * @node: in &mmx_topology.objects of its kind, in creation order
 * @kind: what it is
 * @name: its name, for messages
 * @id: its bit in the links of the objects that link to it
 * @links: bits of the objects it links to (see &enum mmx_topo_kind)
 * @plane_type: a plane's &enum drm_plane_type (default overlay)
 * @writeback: a CRTC has a writeback connector
 * @output_kind: a connector's kind (default HDMI-A)
 * @status: a connector's status (default connected)
 * @output: the output a connector became, set by mmx_topology_lower()
 */
struct mmx_topo_object {
	struct list_head node;
	enum mmx_topo_kind kind;
	char name[32];
	unsigned int id;
	u32 links;
	enum drm_plane_type plane_type;
	bool writeback;
	enum mmx_output_kind output_kind;
	enum drm_connector_status status;
	unsigned int output;
};

/**
 * struct mmx_topology - the objects of a device and their links
 * @name: the device's name, for messages
 * @objects: the objects of each kind, in creation order
 * @ids: the ids in use of each kind
 *
 * The topology does no locking: its user serialises the calls.
 */
struct mmx_topology {
	char name[32];
	struct list_head objects[MMX_TOPO_KINDS];
	u32 ids[MMX_TOPO_KINDS];
};

void mmx_topology_init(struct mmx_topology *topo, const char *name);
void mmx_topology_clear(struct mmx_topology *topo);
struct mmx_topo_object *mmx_topology_add(struct mmx_topology *topo,
					 enum mmx_topo_kind kind,
					 const char *name);
void mmx_topology_remove(struct mmx_topology *topo,
			 struct mmx_topo_object *obj);
int mmx_topology_link(struct mmx_topo_object *obj,
		      const struct mmx_topo_object *target);
void mmx_topology_unlink(struct mmx_topo_object *obj,
			 const struct mmx_topo_object *target);
int mmx_topology_from_kinds(struct mmx_topology *topo,
			    const enum mmx_output_kind *kinds,
			    unsigned int count);
int mmx_topology_lower(struct mmx_topology *topo, struct mmx_config *config);

#endif /* _MMX_VIRTUAL_TOPOLOGY_H_ */
