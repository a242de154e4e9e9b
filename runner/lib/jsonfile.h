/* SPDX-License-Identifier: GPL-2.0 */
/* JSON files: read as bounded inputs with positions, written atomically. */
#ifndef SYSFARM_JSONFILE_H
#define SYSFARM_JSONFILE_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

/**
 * json_file_parse() - parse @len bytes of JSON held in memory
 * @name: what messages call it (a file name, "channel", ...)
 * @out: set to a new reference on success
 *
 * Duplicate keys are refused. Return: 0, or INPUT_EBAD with @err set at
 * NAME:LINE:COL.
 */
int json_file_parse(const char *name, const char *buf, size_t len,
		    json_t **out, struct sf_err *err);

/**
 * json_file_read() - json_file_parse() a file, read with input_read()
 *
 * Return: 0, INPUT_EIO (errno kept) or INPUT_EBAD.
 */
int json_file_read(const char *path, json_t **out, struct sf_err *err);

/**
 * json_file_write() - write @j as the snapshotter does, atomically
 *
 * Sorted keys, 2-space indent, trailing newline; temp file + rename.
 *
 * Return: 0, or -1 with @err set.
 */
int json_file_write(const char *path, json_t *j, struct sf_err *err);

#endif
