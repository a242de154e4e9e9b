/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The guest's initramfs: a newc cpio written directly (device nodes need
 * no root), holding busybox, the snapshotter, /init, the probes, the kmsg
 * prefixes and the roots.
 */
#ifndef SYSFARM_IMAGE_H
#define SYSFARM_IMAGE_H

#include "lib/util.h"
#include "pipeline/matrix.h"

/**
 * image_build() - write @out for configuration @c
 * @m: the matrix, whose directory the settings' paths are relative to
 * @c: the configuration: busybox, snapshotter, probes, kmsg, roots
 * @init: the guest's /init script
 * @out: the archive
 * @err: why it failed
 *
 * The archive is made in memory and written only when it differs from what
 * @out holds (file_update()): an unchanged @out keeps its inode and mtime.
 *
 * Return: 0, or -1 with @err set (naming the file that could not be read
 * or written).
 */
int image_build(const struct matrix *m, const struct config *c,
		const char *init, const char *out, struct sf_err *err);

#endif
