// SPDX-License-Identifier: GPL-2.0-only
/*
 * Copyright (C) 2026 The mmx authors
 *
 * The configfs tree of the virtual backend: devices built at run time.
 */

/**
 * DOC: configfs
 *
 * With configfs mounted (``mount -t configfs none /sys/kernel/config``),
 * ``/sys/kernel/config/mmx/`` creates virtual devices at run time, each its
 * own DRM card, described as a topology (see mmx_virtual_topology.c)::
 *
 *   mmx/DEVICE/enabled
 *   mmx/DEVICE/planes/NAME/type               primary, overlay, cursor
 *   mmx/DEVICE/planes/NAME/possible_crtcs/    links to crtcs/NAME
 *   mmx/DEVICE/crtcs/NAME/writeback           0 or 1
 *   mmx/DEVICE/encoders/NAME/possible_crtcs/  links to crtcs/NAME
 *   mmx/DEVICE/connectors/NAME/type           a kind of ``connectors=``
 *   mmx/DEVICE/connectors/NAME/status         connected, disconnected,
 *                                             unknown
 *   mmx/DEVICE/connectors/NAME/possible_encoders/  links to encoders/NAME
 *
 * Objects are made with mkdir and removed with rmdir, links with ln -s
 * (to an object of the same device and of the right kind, else -EINVAL).
 * Names are at most 31 characters.
 *
 * Writing 1 to ``enabled`` checks the topology (-EINVAL and a kernel log
 * message saying what is wrong) and registers the device. While it is
 * enabled, its objects cannot be added, removed, linked or retyped
 * (-EBUSY), nor the device removed (-ENOTEMPTY, as it has objects); a
 * connector's
 * ``status`` can change: the connector then reports the new status, and
 * clients get a hotplug event (at once on a connector with hotplug
 * detection, at the next poll on a polled one, as on hardware).
 *
 * Writing 0 unregisters the device at once, like a USB display unplugged:
 * clients that still hold it open get errors (-ENODEV) from then on and
 * release it when they close it. Refusing with -EBUSY while a client holds
 * the card would race with clients opening it, and would let a hung client
 * keep a test's configuration forever; vkms unplugs the same way.
 *
 * The module cannot be removed while devices exist in configfs (they hold
 * it): remove them with rmdir first.
 */

#include <linux/configfs.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/platform_device.h>
#include <linux/slab.h>

#include "mmx_drv.h"
#include "mmx_virtual_topology.h"
#include "mmx_virtual.h"

/**
 * struct mmx_cfs_device - a device directory
 * @group: its directory
 * @kinds: the directories planes, crtcs, encoders and connectors
 * @lock: protects @topo, @pdev and the objects' attributes and links;
 *	taken after the subsystem's su_mutex when both are held
 * @topo: what the directories describe
 * @pdev: the device while enabled, else NULL
 */
struct mmx_cfs_device {
	struct config_group group;
	struct config_group kinds[MMX_TOPO_KINDS];
	struct mutex lock; /* see the kernel-doc above */
	struct mmx_topology topo;
	struct platform_device *pdev;
};

/**
 * struct mmx_cfs_object - a plane, CRTC, encoder or connector directory
 * @group: its directory
 * @links: its possible_crtcs or possible_encoders directory (not for a
 *	CRTC)
 * @dev: the device it belongs to
 * @obj: what it describes
 */
struct mmx_cfs_object {
	struct config_group group;
	struct config_group links;
	struct mmx_cfs_device *dev;
	struct mmx_topo_object *obj;
};

static struct configfs_subsystem mmx_cfs_subsys;

static struct mmx_cfs_device *to_mmx_cfs_device(struct config_item *item)
{
	return container_of(to_config_group(item), struct mmx_cfs_device,
			    group);
}

static struct mmx_cfs_object *to_mmx_cfs_object(struct config_item *item)
{
	return container_of(to_config_group(item), struct mmx_cfs_object,
			    group);
}

static struct mmx_cfs_object *links_to_mmx_cfs_object(struct config_item *item)
{
	return container_of(to_config_group(item), struct mmx_cfs_object,
			    links);
}

/* Links */

static const struct config_item_type mmx_cfs_object_types[MMX_TOPO_KINDS];

static int mmx_cfs_allow_link(struct config_item *src,
			      struct config_item *target)
{
	struct mmx_cfs_object *from = links_to_mmx_cfs_object(src);
	struct mmx_cfs_object *to;
	int ret;

	if (target->ci_type != &mmx_cfs_object_types[MMX_TOPO_CRTC] &&
	    target->ci_type != &mmx_cfs_object_types[MMX_TOPO_ENCODER])
		return -EINVAL;
	to = to_mmx_cfs_object(target);
	if (to->dev != from->dev)
		return -EINVAL;

	mutex_lock(&from->dev->lock);
	ret = from->dev->pdev ? -EBUSY : mmx_topology_link(from->obj, to->obj);
	mutex_unlock(&from->dev->lock);
	return ret;
}

/* configfs cannot refuse an unlink: an enabled device keeps its links. */
static void mmx_cfs_drop_link(struct config_item *src,
			      struct config_item *target)
{
	struct mmx_cfs_object *from = links_to_mmx_cfs_object(src);

	mutex_lock(&from->dev->lock);
	if (from->dev->pdev)
		pr_warn("mmx: %s: %s: link removed while enabled: the card keeps it until it is re-enabled\n",
			from->dev->topo.name, from->obj->name);
	mmx_topology_unlink(from->obj, to_mmx_cfs_object(target)->obj);
	mutex_unlock(&from->dev->lock);
}

static struct configfs_item_operations mmx_cfs_links_ops = {
	.allow_link = mmx_cfs_allow_link,
	.drop_link = mmx_cfs_drop_link,
};

static const struct config_item_type mmx_cfs_links_type = {
	.ct_item_ops = &mmx_cfs_links_ops,
	.ct_owner = THIS_MODULE,
};

/* Attributes of the objects */

/* The values of a plane's type and a connector's status. */
static const char *const mmx_cfs_plane_types[] = {
	[DRM_PLANE_TYPE_OVERLAY] = "overlay",
	[DRM_PLANE_TYPE_PRIMARY] = "primary",
	[DRM_PLANE_TYPE_CURSOR] = "cursor",
};

static const char *const mmx_cfs_statuses[] = {
	[connector_status_connected] = "connected",
	[connector_status_disconnected] = "disconnected",
	[connector_status_unknown] = "unknown",
};

/*
 * Store a value parsed from @page with @parse into @obj under the device
 * lock, unless the device is enabled.
 */
static ssize_t mmx_cfs_store(struct config_item *item, const char *page,
			     size_t count,
			     int (*parse)(const char *s, struct mmx_topo_object *obj))
{
	struct mmx_cfs_object *cobj = to_mmx_cfs_object(item);
	char buf[32];
	int ret;

	strscpy(buf, page, sizeof(buf));
	mutex_lock(&cobj->dev->lock);
	ret = cobj->dev->pdev ? -EBUSY : parse(strim(buf), cobj->obj);
	mutex_unlock(&cobj->dev->lock);
	return ret ? ret : count;
}

/* Show the name @name gives the object's value, under the device lock. */
static ssize_t mmx_cfs_show(struct config_item *item, char *page,
			    const char *(*name)(const struct mmx_topo_object *obj))
{
	struct mmx_cfs_object *cobj = to_mmx_cfs_object(item);
	ssize_t len;

	mutex_lock(&cobj->dev->lock);
	len = sprintf(page, "%s\n", name(cobj->obj));
	mutex_unlock(&cobj->dev->lock);
	return len;
}

static const char *mmx_cfs_plane_type(const struct mmx_topo_object *obj)
{
	return mmx_cfs_plane_types[obj->plane_type];
}

static ssize_t mmx_cfs_plane_type_show(struct config_item *item, char *page)
{
	return mmx_cfs_show(item, page, mmx_cfs_plane_type);
}

static int mmx_cfs_plane_type_parse(const char *s, struct mmx_topo_object *obj)
{
	int i = sysfs_match_string(mmx_cfs_plane_types, s);

	if (i < 0)
		return -EINVAL;
	obj->plane_type = i;
	return 0;
}

static ssize_t mmx_cfs_plane_type_store(struct config_item *item,
					const char *page, size_t count)
{
	return mmx_cfs_store(item, page, count, mmx_cfs_plane_type_parse);
}

static const char *mmx_cfs_writeback(const struct mmx_topo_object *obj)
{
	return obj->writeback ? "1" : "0";
}

static ssize_t mmx_cfs_crtc_writeback_show(struct config_item *item,
					   char *page)
{
	return mmx_cfs_show(item, page, mmx_cfs_writeback);
}

static int mmx_cfs_writeback_parse(const char *s, struct mmx_topo_object *obj)
{
	return kstrtobool(s, &obj->writeback);
}

static ssize_t mmx_cfs_crtc_writeback_store(struct config_item *item,
					    const char *page, size_t count)
{
	return mmx_cfs_store(item, page, count, mmx_cfs_writeback_parse);
}

static const char *mmx_cfs_connector_type(const struct mmx_topo_object *obj)
{
	return mmx_output_descs[obj->output_kind].name;
}

static ssize_t mmx_cfs_connector_type_show(struct config_item *item,
					   char *page)
{
	return mmx_cfs_show(item, page, mmx_cfs_connector_type);
}

static int mmx_cfs_connector_type_parse(const char *s,
					struct mmx_topo_object *obj)
{
	return mmx_output_kind_parse(s, &obj->output_kind);
}

static ssize_t mmx_cfs_connector_type_store(struct config_item *item,
					    const char *page, size_t count)
{
	return mmx_cfs_store(item, page, count, mmx_cfs_connector_type_parse);
}

static const char *mmx_cfs_status(const struct mmx_topo_object *obj)
{
	return mmx_cfs_statuses[obj->status];
}

static ssize_t mmx_cfs_connector_status_show(struct config_item *item,
					     char *page)
{
	return mmx_cfs_show(item, page, mmx_cfs_status);
}

/* The only attribute that changes while the device is enabled. */
static ssize_t mmx_cfs_connector_status_store(struct config_item *item,
					      const char *page, size_t count)
{
	struct mmx_cfs_object *cobj = to_mmx_cfs_object(item);
	struct mmx_cfs_device *dev = cobj->dev;
	char buf[32];
	int status, ret = 0;

	strscpy(buf, page, sizeof(buf));
	/* Entry 0 of the table is not a status: a match there is none. */
	status = __sysfs_match_string(mmx_cfs_statuses + 1,
				      ARRAY_SIZE(mmx_cfs_statuses) - 1,
				      strim(buf));
	if (status < 0)
		return -EINVAL;
	status++;

	mutex_lock(&dev->lock);
	if (dev->pdev)
		ret = mmx_sink_set_status(mmx_virtual_output(dev->pdev,
							     cobj->obj->output),
					  status);
	if (!ret)
		cobj->obj->status = status;
	mutex_unlock(&dev->lock);
	return ret ? ret : count;
}

CONFIGFS_ATTR(mmx_cfs_plane_, type);
CONFIGFS_ATTR(mmx_cfs_crtc_, writeback);
CONFIGFS_ATTR(mmx_cfs_connector_, type);
CONFIGFS_ATTR(mmx_cfs_connector_, status);

static struct configfs_attribute *mmx_cfs_plane_attrs[] = {
	&mmx_cfs_plane_attr_type,
	NULL,
};

static struct configfs_attribute *mmx_cfs_crtc_attrs[] = {
	&mmx_cfs_crtc_attr_writeback,
	NULL,
};

static struct configfs_attribute *mmx_cfs_connector_attrs[] = {
	&mmx_cfs_connector_attr_type,
	&mmx_cfs_connector_attr_status,
	NULL,
};

/* Objects */

static void mmx_cfs_object_release(struct config_item *item)
{
	struct mmx_cfs_object *cobj = to_mmx_cfs_object(item);
	struct mmx_cfs_device *dev = cobj->dev;

	mutex_lock(&dev->lock);
	mmx_topology_remove(&dev->topo, cobj->obj);
	mutex_unlock(&dev->lock);
	kfree(cobj);
}

static struct configfs_item_operations mmx_cfs_object_ops = {
	.release = mmx_cfs_object_release,
};

static const struct config_item_type mmx_cfs_object_types[MMX_TOPO_KINDS] = {
	[MMX_TOPO_PLANE] = {
		.ct_item_ops = &mmx_cfs_object_ops,
		.ct_attrs = mmx_cfs_plane_attrs,
		.ct_owner = THIS_MODULE,
	},
	[MMX_TOPO_CRTC] = {
		.ct_item_ops = &mmx_cfs_object_ops,
		.ct_attrs = mmx_cfs_crtc_attrs,
		.ct_owner = THIS_MODULE,
	},
	[MMX_TOPO_ENCODER] = {
		.ct_item_ops = &mmx_cfs_object_ops,
		.ct_owner = THIS_MODULE,
	},
	[MMX_TOPO_CONNECTOR] = {
		.ct_item_ops = &mmx_cfs_object_ops,
		.ct_attrs = mmx_cfs_connector_attrs,
		.ct_owner = THIS_MODULE,
	},
};

static const char *const mmx_cfs_kind_dirs[MMX_TOPO_KINDS] = {
	[MMX_TOPO_PLANE] = "planes",
	[MMX_TOPO_CRTC] = "crtcs",
	[MMX_TOPO_ENCODER] = "encoders",
	[MMX_TOPO_CONNECTOR] = "connectors",
};

static struct config_group *mmx_cfs_make_object(struct config_group *group,
						const char *name)
{
	struct mmx_cfs_device *dev = to_mmx_cfs_device(group->cg_item.ci_parent);
	enum mmx_topo_kind kind = group - dev->kinds;
	struct mmx_cfs_object *cobj;
	struct mmx_topo_object *obj;

	if (strlen(name) >= sizeof(obj->name))
		return ERR_PTR(-ENAMETOOLONG);
	cobj = kzalloc(sizeof(*cobj), GFP_KERNEL);
	if (!cobj)
		return ERR_PTR(-ENOMEM);

	mutex_lock(&dev->lock);
	obj = dev->pdev ? ERR_PTR(-EBUSY) :
	      mmx_topology_add(&dev->topo, kind, name);
	mutex_unlock(&dev->lock);
	if (IS_ERR(obj)) {
		kfree(cobj);
		return ERR_CAST(obj);
	}

	cobj->dev = dev;
	cobj->obj = obj;
	config_group_init_type_name(&cobj->group, name,
				    &mmx_cfs_object_types[kind]);
	if (kind != MMX_TOPO_CRTC) {
		config_group_init_type_name(&cobj->links,
					    kind == MMX_TOPO_CONNECTOR ?
					    "possible_encoders" : "possible_crtcs",
					    &mmx_cfs_links_type);
		configfs_add_default_group(&cobj->links, &cobj->group);
	}
	return &cobj->group;
}

/* The directories that make others: mmx/ and each kind's of a device. */
static const struct config_item_type mmx_cfs_parent_type;

/* Devices */

/* Unpin the objects of @dev, up to @stop (excluded; NULL: all). */
static void mmx_cfs_unpin(struct mmx_cfs_device *dev, struct config_item *stop)
{
	struct config_item *item;
	unsigned int k;

	lockdep_assert_held(&mmx_cfs_subsys.su_mutex);
	for (k = 0; k < MMX_TOPO_KINDS; k++)
		list_for_each_entry(item, &dev->kinds[k].cg_children, ci_entry) {
			if (item == stop)
				return;
			configfs_undepend_item_unlocked(item);
		}
}

/*
 * Pin the object directories of @dev: configfs then refuses to remove them
 * (-EBUSY), and with them the device's directory (-ENOTEMPTY).
 */
static int mmx_cfs_pin(struct mmx_cfs_device *dev)
{
	struct config_item *item;
	unsigned int k;
	int ret;

	for (k = 0; k < MMX_TOPO_KINDS; k++)
		list_for_each_entry(item, &dev->kinds[k].cg_children, ci_entry) {
			ret = configfs_depend_item_unlocked(&mmx_cfs_subsys,
							    item);
			if (ret) {
				mmx_cfs_unpin(dev, item);
				return ret;
			}
		}
	return 0;
}

static int mmx_cfs_enable(struct mmx_cfs_device *dev)
{
	struct platform_device *pdev;
	struct mmx_config *config;
	int ret;

	config = kzalloc(sizeof(*config), GFP_KERNEL);
	if (!config)
		return -ENOMEM;
	ret = mmx_topology_lower(&dev->topo, config);
	if (ret)
		goto out_free;
	ret = mmx_cfs_pin(dev);
	if (ret)
		goto out_free;

	pdev = mmx_virtual_add(config);
	if (IS_ERR(pdev)) {
		ret = PTR_ERR(pdev);
		mmx_cfs_unpin(dev, NULL);
		goto out_free;
	}
	dev->pdev = pdev;
	pr_info("mmx: %s: enabled as %s\n", dev->topo.name, dev_name(&pdev->dev));
out_free:
	kfree(config);
	return ret;
}

static void mmx_cfs_disable(struct mmx_cfs_device *dev)
{
	platform_device_unregister(dev->pdev);
	dev->pdev = NULL;
	mmx_cfs_unpin(dev, NULL);
}

static ssize_t mmx_cfs_device_enabled_show(struct config_item *item,
					   char *page)
{
	struct mmx_cfs_device *dev = to_mmx_cfs_device(item);
	ssize_t len;

	mutex_lock(&dev->lock);
	len = sprintf(page, "%d\n", !!dev->pdev);
	mutex_unlock(&dev->lock);
	return len;
}

static ssize_t mmx_cfs_device_enabled_store(struct config_item *item,
					    const char *page, size_t count)
{
	struct mmx_cfs_device *dev = to_mmx_cfs_device(item);
	bool enable;
	int ret = 0;

	if (kstrtobool(page, &enable))
		return -EINVAL;

	/*
	 * The subsystem's mutex keeps the object directories as they are
	 * while they are pinned or unpinned; configfs takes it before the
	 * device lock (mkdir calls make_group with it held).
	 */
	mutex_lock(&mmx_cfs_subsys.su_mutex);
	mutex_lock(&dev->lock);
	if (enable && !dev->pdev)
		ret = mmx_cfs_enable(dev);
	else if (!enable && dev->pdev)
		mmx_cfs_disable(dev);
	mutex_unlock(&dev->lock);
	mutex_unlock(&mmx_cfs_subsys.su_mutex);
	return ret ? ret : count;
}

CONFIGFS_ATTR(mmx_cfs_device_, enabled);

static struct configfs_attribute *mmx_cfs_device_attrs[] = {
	&mmx_cfs_device_attr_enabled,
	NULL,
};

/* Pinned while enabled, a device is released disabled, its objects gone. */
static void mmx_cfs_device_release(struct config_item *item)
{
	struct mmx_cfs_device *dev = to_mmx_cfs_device(item);

	if (WARN_ON(dev->pdev))
		platform_device_unregister(dev->pdev);
	mmx_topology_clear(&dev->topo);
	mutex_destroy(&dev->lock);
	kfree(dev);
}

static struct configfs_item_operations mmx_cfs_device_ops = {
	.release = mmx_cfs_device_release,
};

static const struct config_item_type mmx_cfs_device_type = {
	.ct_item_ops = &mmx_cfs_device_ops,
	.ct_attrs = mmx_cfs_device_attrs,
	.ct_owner = THIS_MODULE,
};

static struct config_group *mmx_cfs_make_device(struct config_group *group,
						const char *name)
{
	struct mmx_cfs_device *dev;
	unsigned int k;

	if (strlen(name) >= sizeof(dev->topo.name))
		return ERR_PTR(-ENAMETOOLONG);
	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);

	mutex_init(&dev->lock);
	mmx_topology_init(&dev->topo, name);
	config_group_init_type_name(&dev->group, name, &mmx_cfs_device_type);
	for (k = 0; k < MMX_TOPO_KINDS; k++) {
		config_group_init_type_name(&dev->kinds[k], mmx_cfs_kind_dirs[k],
					    &mmx_cfs_parent_type);
		configfs_add_default_group(&dev->kinds[k], &dev->group);
	}
	return &dev->group;
}

static struct config_group *mmx_cfs_make_group(struct config_group *group,
					       const char *name)
{
	if (group == &mmx_cfs_subsys.su_group)
		return mmx_cfs_make_device(group, name);
	return mmx_cfs_make_object(group, name);
}

static struct configfs_group_operations mmx_cfs_parent_ops = {
	.make_group = mmx_cfs_make_group,
};

static const struct config_item_type mmx_cfs_parent_type = {
	.ct_group_ops = &mmx_cfs_parent_ops,
	.ct_owner = THIS_MODULE,
};

static struct configfs_subsystem mmx_cfs_subsys = {
	.su_group = {
		.cg_item = {
			.ci_namebuf = MMX_DRIVER_NAME,
			.ci_type = &mmx_cfs_parent_type,
		},
	},
};

/**
 * mmx_configfs_register - create /sys/kernel/config/mmx
 *
 * Return: 0 or a negative errno.
 */
int mmx_configfs_register(void)
{
	config_group_init(&mmx_cfs_subsys.su_group);
	mutex_init(&mmx_cfs_subsys.su_mutex);
	return configfs_register_subsystem(&mmx_cfs_subsys);
}

/**
 * mmx_configfs_unregister - remove /sys/kernel/config/mmx
 *
 * The devices hold the module: there are none left when it goes.
 */
void mmx_configfs_unregister(void)
{
	configfs_unregister_subsystem(&mmx_cfs_subsys);
}
