// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: max_brightness twice more, not compiled. */
static DEVICE_ATTR_RO(max_brightness);
static struct device_attribute max_brightness_too =
	__ATTR_RO(max_brightness);
