/* SPDX-License-Identifier: GPL-2.0 */
/* t-upgrade's fake 6.12 tree: a header is no *.c, never scanned. */
static DEVICE_ATTR_RW(pattern);
