// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: a second definition of max_brightness. */
static DEVICE_ATTR_RO(max_brightness);
