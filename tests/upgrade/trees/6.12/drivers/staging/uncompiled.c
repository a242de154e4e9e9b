// SPDX-License-Identifier: GPL-2.0
/* t-upgrade's fake 6.12 tree: control again, in a file no kernel compiled. */
static DEVICE_ATTR_ADMIN_RW(control);
