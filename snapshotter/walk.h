/* SPDX-License-Identifier: GPL-2.0 */
/* Walking a sysfs subtree into a JSON tree of dir, file, link nodes. */
#ifndef SNAPSHOTTER_WALK_H
#define SNAPSHOTTER_WALK_H

#include <stdbool.h>
#include <jansson.h>

/*
 * Symlinks are followed only where the device model keeps a device's
 * content behind a link: class/<class>/<device> and
 * bus/<bus>/devices/<device>, counted from the sysfs mount. Every other
 * link (subsystem, device, driver, of_node, firmware_node, links under
 * power/, ...) is recorded with its target and not entered. A followed link
 * never leads to another followed one, since both positions are at fixed
 * depths below the mount and what a link leads to is one level deeper: the
 * walk cannot loop.
 */

/**
 * walk_root_check() - normalise a root given on the command line
 * @root: "bus/workqueue", "class/leds/", ...; rewritten in place
 *
 * Drops repeated and trailing slashes.
 *
 * Return: 0, or -EINVAL if @root is empty, absolute, or has a "." or ".."
 * component (the following rule counts components).
 */
int walk_root_check(char *root);

/**
 * walk_root() - snapshot one root
 * @sysfd: directory fd of the sysfs mount
 * @root: a root accepted by walk_root_check()
 *
 * Nothing in the tree makes the walk stop: an entry that cannot be examined
 * is a node with "error". A dir 1000 levels below @root that is not empty
 * is not listed but marked "truncated" (snapshotter/FORMAT.md), so that
 * the host can parse the snapshot.
 *
 * Return: the root's node (a new reference), or NULL when out of memory.
 */
json_t *walk_root(int sysfd, const char *root);

#endif /* SNAPSHOTTER_WALK_H */
