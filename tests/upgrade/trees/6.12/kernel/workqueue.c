// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: the attribute the nice probe writes. */
static struct device_attribute wq_sysfs_unbound_attrs[] = {
	__ATTR(nice, 0644, wq_nice_show, wq_nice_store),
	__ATTR_NULL,
};
