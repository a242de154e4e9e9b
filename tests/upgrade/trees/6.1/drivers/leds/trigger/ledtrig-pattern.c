// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.1 tree: the pattern trigger's attribute. */
static struct device_attribute dev_attr_pattern =
	__ATTR(
	       pattern ,
	       0644, pattern_show, pattern_store);
