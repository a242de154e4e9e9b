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
 * @init: the guest's /init script
 *
 * Only when what it is made from changed: the hash of its files and
 * settings is kept in OUT.key, and an @out made from the same is kept.
 *
 * Return: 0, or -1 with @err naming the file that could not be read or
 * written.
 */
int image_build(const struct matrix *m, const struct config *c,
		const char *init, const char *out, struct sf_err *err);

#endif
