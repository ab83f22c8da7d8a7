// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The display topology of a virtual device: what the module parameters and
 * configfs describe, checked and turned into the outputs the core builds.
 */

/**
 * DOC: topology
 *
 * A virtual device is described as planes, CRTCs, encoders and connectors
 * with links: a plane's and an encoder's possible CRTCs, a connector's
 * possible encoders. The module parameters describe the default device
 * this way (one CRTC, encoder and connector per output, each CRTC with a
 * primary plane, two overlays, a cursor and a writeback connector); configfs
 * lets a user describe any device.
 *
 * The core builds a device out of outputs, each a CRTC driven by one
 * encoder feeding one connector. mmx_topology_lower() checks that a
 * topology is complete and fits that model, and says in the kernel log what
 * does not:
 *
 * - 1 to %MMX_MAX_OUTPUTS CRTCs, and as many encoders and connectors;
 * - every plane has exactly one possible CRTC; every CRTC has one primary
 *   plane, at most %MMX_OVERLAYS_PER_CRTC overlays and at most one cursor;
 * - every connector has exactly one possible encoder, and every encoder
 *   feeds exactly one connector and has at least one possible CRTC.
 *
 * Encoders take CRTCs in creation order, each the first of its possible
 * CRTCs no earlier encoder took; the CRTC numbers the output. As on the
 * default device, every encoder of the device may then drive every CRTC.
 */

#include <linux/bitops.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "mmx_virtual_topology.h"

#define mmx_topo_for_each(obj, topo, kind) \
	list_for_each_entry(obj, &(topo)->objects[kind], node)

/**
 * mmx_topology_init - start an empty topology
 * @topo: the topology
 * @name: the device's name, for messages
 */
void mmx_topology_init(struct mmx_topology *topo, const char *name)
{
	unsigned int k;

	memset(topo, 0, sizeof(*topo));
	strscpy(topo->name, name, sizeof(topo->name));
	for (k = 0; k < MMX_TOPO_KINDS; k++)
		INIT_LIST_HEAD(&topo->objects[k]);
}

/**
 * mmx_topology_clear - remove every object of a topology
 * @topo: the topology
 */
void mmx_topology_clear(struct mmx_topology *topo)
{
	struct mmx_topo_object *obj, *next;
	unsigned int k;

	for (k = 0; k < MMX_TOPO_KINDS; k++)
		list_for_each_entry_safe(obj, next, &topo->objects[k], node)
			mmx_topology_remove(topo, obj);
}

/**
 * mmx_topology_add - add an object to a topology
 * @topo: the topology
 * @kind: the kind of object
 * @name: its name, for messages
 *
 * The object links to nothing. A plane starts as an overlay, a connector
 * as a connected HDMI-A connector.
 *
 * Return: the object, ERR_PTR(-ENOSPC) when @topo has
 * %MMX_TOPO_MAX_OBJECTS objects of @kind, or ERR_PTR(-ENOMEM).
 */
struct mmx_topo_object *mmx_topology_add(struct mmx_topology *topo,
					 enum mmx_topo_kind kind,
					 const char *name)
{
	struct mmx_topo_object *obj;
	u32 free = ~topo->ids[kind];

	if (!free)
		return ERR_PTR(-ENOSPC);
	obj = kzalloc(sizeof(*obj), GFP_KERNEL);
	if (!obj)
		return ERR_PTR(-ENOMEM);

	obj->kind = kind;
	strscpy(obj->name, name, sizeof(obj->name));
	obj->id = __ffs(free);
	obj->plane_type = DRM_PLANE_TYPE_OVERLAY;
	obj->output_kind = MMX_KIND_HDMIA;
	obj->status = connector_status_connected;
	topo->ids[kind] |= BIT(obj->id);
	list_add_tail(&obj->node, &topo->objects[kind]);
	return obj;
}

/* The kind of object an object of @kind links to. */
static enum mmx_topo_kind mmx_topo_link_kind(enum mmx_topo_kind kind)
{
	return kind == MMX_TOPO_CONNECTOR ? MMX_TOPO_ENCODER : MMX_TOPO_CRTC;
}

/**
 * mmx_topology_remove - remove an object and every link to it
 * @topo: the topology
 * @obj: the object, freed
 */
void mmx_topology_remove(struct mmx_topology *topo,
			 struct mmx_topo_object *obj)
{
	struct mmx_topo_object *other;
	unsigned int k;

	for (k = 0; k < MMX_TOPO_KINDS; k++) {
		if (k == obj->kind || mmx_topo_link_kind(k) != obj->kind)
			continue;
		mmx_topo_for_each(other, topo, k)
			other->links &= ~BIT(obj->id);
	}
	topo->ids[obj->kind] &= ~BIT(obj->id);
	list_del(&obj->node);
	kfree(obj);
}

/**
 * mmx_topology_link - link an object to another of the same topology
 * @obj: a plane, encoder or connector
 * @target: a CRTC for a plane or an encoder, an encoder for a connector
 *
 * Return: 0, or -EINVAL when @target is of the wrong kind.
 */
int mmx_topology_link(struct mmx_topo_object *obj,
		      const struct mmx_topo_object *target)
{
	if (obj->kind == MMX_TOPO_CRTC ||
	    target->kind != mmx_topo_link_kind(obj->kind))
		return -EINVAL;
	obj->links |= BIT(target->id);
	return 0;
}

/**
 * mmx_topology_unlink - remove a link made by mmx_topology_link()
 * @obj: the object
 * @target: the object it links to
 */
void mmx_topology_unlink(struct mmx_topo_object *obj,
			 const struct mmx_topo_object *target)
{
	obj->links &= ~BIT(target->id);
}

/* Add a plane of @type on @crtc. */
static int mmx_topo_add_plane(struct mmx_topology *topo,
			      const struct mmx_topo_object *crtc,
			      enum drm_plane_type type, const char *name)
{
	struct mmx_topo_object *plane;

	plane = mmx_topology_add(topo, MMX_TOPO_PLANE, name);
	if (IS_ERR(plane))
		return PTR_ERR(plane);
	plane->plane_type = type;
	return mmx_topology_link(plane, crtc);
}

/* Add the full pipeline of output @i: CRTC, planes, encoder, connector. */
static int mmx_topo_add_output(struct mmx_topology *topo, unsigned int i,
			       enum mmx_output_kind kind)
{
	struct mmx_topo_object *crtc, *encoder, *connector;
	char name[32];
	unsigned int j;
	int ret;

	snprintf(name, sizeof(name), "crtc%u", i);
	crtc = mmx_topology_add(topo, MMX_TOPO_CRTC, name);
	if (IS_ERR(crtc))
		return PTR_ERR(crtc);
	crtc->writeback = true;

	snprintf(name, sizeof(name), "primary%u", i);
	ret = mmx_topo_add_plane(topo, crtc, DRM_PLANE_TYPE_PRIMARY, name);
	for (j = 0; !ret && j < MMX_OVERLAYS_PER_CRTC; j++) {
		snprintf(name, sizeof(name), "overlay%u.%u", i, j);
		ret = mmx_topo_add_plane(topo, crtc, DRM_PLANE_TYPE_OVERLAY,
					 name);
	}
	snprintf(name, sizeof(name), "cursor%u", i);
	if (!ret)
		ret = mmx_topo_add_plane(topo, crtc, DRM_PLANE_TYPE_CURSOR,
					 name);
	if (ret)
		return ret;

	snprintf(name, sizeof(name), "encoder%u", i);
	encoder = mmx_topology_add(topo, MMX_TOPO_ENCODER, name);
	if (IS_ERR(encoder))
		return PTR_ERR(encoder);
	mmx_topology_link(encoder, crtc);

	snprintf(name, sizeof(name), "connector%u", i);
	connector = mmx_topology_add(topo, MMX_TOPO_CONNECTOR, name);
	if (IS_ERR(connector))
		return PTR_ERR(connector);
	connector->output_kind = kind;
	return mmx_topology_link(connector, encoder);
}

/**
 * mmx_topology_from_kinds - describe the device of the module parameters
 * @topo: an empty topology
 * @kinds: the kind of each output
 * @count: the number of outputs
 *
 * Each output gets a CRTC with a primary plane, %MMX_OVERLAYS_PER_CRTC
 * overlays, a cursor and a writeback connector, an encoder and a connector
 * of its kind.
 *
 * Return: 0 or a negative errno.
 */
int mmx_topology_from_kinds(struct mmx_topology *topo,
			    const enum mmx_output_kind *kinds,
			    unsigned int count)
{
	unsigned int i;
	int ret;

	for (i = 0; i < count; i++) {
		ret = mmx_topo_add_output(topo, i, kinds[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static unsigned int mmx_topo_count(const struct mmx_topology *topo,
				   enum mmx_topo_kind kind)
{
	return hweight32(topo->ids[kind]);
}

/* The counts of each kind: as many CRTCs, encoders and connectors. */
static int mmx_topo_check_counts(const struct mmx_topology *topo)
{
	unsigned int crtcs = mmx_topo_count(topo, MMX_TOPO_CRTC);

	if (crtcs < 1 || crtcs > MMX_MAX_OUTPUTS) {
		pr_err("mmx: %s: %u CRTCs: must be 1 to %d\n", topo->name,
		       crtcs, MMX_MAX_OUTPUTS);
		return -EINVAL;
	}
	if (mmx_topo_count(topo, MMX_TOPO_ENCODER) != crtcs ||
	    mmx_topo_count(topo, MMX_TOPO_CONNECTOR) != crtcs) {
		pr_err("mmx: %s: %u CRTCs, %u encoders, %u connectors: mmx makes one encoder and one connector per CRTC\n",
		       topo->name, crtcs,
		       mmx_topo_count(topo, MMX_TOPO_ENCODER),
		       mmx_topo_count(topo, MMX_TOPO_CONNECTOR));
		return -EINVAL;
	}
	return 0;
}

/* Each plane on one CRTC; each CRTC's planes: its output's layout. */
static int mmx_topo_check_planes(const struct mmx_topology *topo,
				 struct mmx_config *config)
{
	const struct mmx_topo_object *plane, *crtc;
	unsigned int i = 0;

	mmx_topo_for_each(plane, topo, MMX_TOPO_PLANE) {
		if (hweight32(plane->links) != 1) {
			pr_err("mmx: %s: plane %s has %u possible CRTCs: an mmx plane serves exactly one\n",
			       topo->name, plane->name, hweight32(plane->links));
			return -EINVAL;
		}
	}

	mmx_topo_for_each(crtc, topo, MMX_TOPO_CRTC) {
		struct mmx_output_layout *layout = &config->layouts[i++];
		unsigned int counts[DRM_PLANE_TYPE_CURSOR + 1] = {};

		mmx_topo_for_each(plane, topo, MMX_TOPO_PLANE)
			if (plane->links & BIT(crtc->id))
				counts[plane->plane_type]++;
		if (counts[DRM_PLANE_TYPE_PRIMARY] != 1) {
			pr_err("mmx: %s: CRTC %s has %u primary planes: needs exactly one\n",
			       topo->name, crtc->name,
			       counts[DRM_PLANE_TYPE_PRIMARY]);
			return -EINVAL;
		}
		if (counts[DRM_PLANE_TYPE_OVERLAY] > MMX_OVERLAYS_PER_CRTC ||
		    counts[DRM_PLANE_TYPE_CURSOR] > 1) {
			pr_err("mmx: %s: CRTC %s has %u overlays and %u cursors: at most %d and 1\n",
			       topo->name, crtc->name,
			       counts[DRM_PLANE_TYPE_OVERLAY],
			       counts[DRM_PLANE_TYPE_CURSOR],
			       MMX_OVERLAYS_PER_CRTC);
			return -EINVAL;
		}
		layout->overlays = counts[DRM_PLANE_TYPE_OVERLAY];
		layout->cursor = counts[DRM_PLANE_TYPE_CURSOR];
		layout->writeback = crtc->writeback;
	}
	return 0;
}

/* The connector feeding @encoder, checked to be the only one. */
static struct mmx_topo_object *
mmx_topo_encoder_connector(struct mmx_topology *topo,
			   const struct mmx_topo_object *encoder)
{
	struct mmx_topo_object *connector, *found = NULL;

	mmx_topo_for_each(connector, topo, MMX_TOPO_CONNECTOR) {
		if (!(connector->links & BIT(encoder->id)))
			continue;
		if (found) {
			pr_err("mmx: %s: encoder %s feeds connectors %s and %s: an mmx encoder feeds one\n",
			       topo->name, encoder->name, found->name,
			       connector->name);
			return NULL;
		}
		found = connector;
	}
	if (!found)
		pr_err("mmx: %s: encoder %s feeds no connector\n", topo->name,
		       encoder->name);
	return found;
}

/* The output number of each CRTC id: its rank in creation order. */
static void mmx_topo_crtc_outputs(const struct mmx_topology *topo,
				  unsigned int *outputs)
{
	const struct mmx_topo_object *crtc;
	unsigned int i = 0;

	mmx_topo_for_each(crtc, topo, MMX_TOPO_CRTC)
		outputs[crtc->id] = i++;
}

/* Pair encoders with CRTCs; each pair's connector sets the output. */
static int mmx_topo_route(struct mmx_topology *topo,
			  struct mmx_config *config)
{
	unsigned int outputs[MMX_TOPO_MAX_OBJECTS];
	struct mmx_topo_object *connector, *encoder;
	u32 taken = 0;

	mmx_topo_for_each(connector, topo, MMX_TOPO_CONNECTOR) {
		if (hweight32(connector->links) != 1) {
			pr_err("mmx: %s: connector %s has %u possible encoders: needs exactly one\n",
			       topo->name, connector->name,
			       hweight32(connector->links));
			return -EINVAL;
		}
	}

	mmx_topo_crtc_outputs(topo, outputs);
	mmx_topo_for_each(encoder, topo, MMX_TOPO_ENCODER) {
		u32 free = encoder->links & ~taken;
		unsigned int crtc, i;

		connector = mmx_topo_encoder_connector(topo, encoder);
		if (!connector)
			return -EINVAL;
		if (!free) {
			pr_err("mmx: %s: encoder %s has no possible CRTC %s\n",
			       topo->name, encoder->name,
			       encoder->links ? "that an earlier encoder did not take" : "");
			return -EINVAL;
		}
		crtc = __ffs(free);
		taken |= BIT(crtc);
		i = outputs[crtc];
		config->kinds[i] = connector->output_kind;
		config->layouts[i].status = connector->status;
		connector->output = i;
	}
	return 0;
}

/**
 * mmx_topology_lower - check a topology and turn it into outputs
 * @topo: the topology; each connector's &mmx_topo_object.output is set
 * @config: filled with the outputs the core is to build
 *
 * The rules are in the DOC section above. The first rule a topology breaks
 * is logged.
 *
 * Return: 0, or -EINVAL when @topo is incomplete or does not fit.
 */
int mmx_topology_lower(struct mmx_topology *topo, struct mmx_config *config)
{
	int ret;

	memset(config, 0, sizeof(*config));
	ret = mmx_topo_check_counts(topo);
	if (ret)
		return ret;
	config->num_outputs = mmx_topo_count(topo, MMX_TOPO_CRTC);
	config->custom_layout = true;

	ret = mmx_topo_check_planes(topo, config);
	if (ret)
		return ret;
	return mmx_topo_route(topo, config);
}
