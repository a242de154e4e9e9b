/* SPDX-License-Identifier: GPL-2.0 */
/* One YAML document read from a file, with messages at its nodes. */
#ifndef SYSFARM_YAMLFILE_H
#define SYSFARM_YAMLFILE_H

#include <yaml.h>

#include "lib/util.h"

struct yaml_file {
	const char *path;
	yaml_document_t doc;
	struct sf_err *err;
};

/**
 * yaml_file_load() - parse @path and hand its document to @parse
 * @parse: called with the root node, NULL for a file of only comments;
 *	returns 0 or what yaml_file_bad() returned
 *
 * A second document is refused rather than ignored.
 *
 * Return: 0, -1 when the file cannot be opened (errno kept), -2 for bad
 * input (INPUT_EIO and INPUT_EBAD of lib/util.h), with @yf->err set to
 * "FILE: cannot open: ..." or "FILE:LINE:COL: message".
 */
int yaml_file_load(struct yaml_file *yf,
		   int (*parse)(struct yaml_file *yf, yaml_node_t *root,
				void *ctx),
		   void *ctx);

/**
 * yaml_file_load_list() - yaml_file_load() for a file holding one list
 * @not_a_list: the message when the document is something else
 * @item: called for each item in order; returns 0 or what
 *	yaml_file_bad() returned, which ends the walk
 *
 * A file of only comments is an empty list. Return: as yaml_file_load().
 */
int yaml_file_load_list(struct yaml_file *yf, const char *not_a_list,
			int (*item)(struct yaml_file *yf, yaml_node_t *n,
				    void *ctx),
			void *ctx);

/* "FILE:LINE:COL: message" at @n into @yf->err. Return: -2. */
int yaml_file_bad(struct yaml_file *yf, const yaml_node_t *n,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
