// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: runtime PM's control. */
static DEVICE_ATTR_RW( control );
