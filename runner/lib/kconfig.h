/* SPDX-License-Identifier: GPL-2.0 */
/* Lines of a .config or a kconfig fragment, read the one way both need. */
#ifndef SYSFARM_KCONFIG_H
#define SYSFARM_KCONFIG_H

#include "lib/util.h"

#define KCONFIG_NAME_MAX 128

/**
 * kconfig_line() - the option a .config or fragment line sets
 * @line: one line, without its newline
 * @name: set to "CONFIG_X" (longer names are cut)
 * @value: set to what follows '=' in @line, or NULL for "# CONFIG_X is
 *	not set"
 *
 * Return: 1 when the line sets an option, 0 for anything else.
 */
int kconfig_line(const char *line, char name[KCONFIG_NAME_MAX],
		 const char **value);

/**
 * kconfig_read_set() - append the options @path sets to y or m
 *
 * Return: 0, or -1 with @err set (input_read()'s messages).
 */
int kconfig_read_set(const char *path, struct strv *options,
		     struct sf_err *err);

#endif
