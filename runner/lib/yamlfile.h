/* SPDX-License-Identifier: GPL-2.0 */
/* One YAML document read from a file, with messages at its nodes. */
#ifndef SYSFARM_YAMLFILE_H
#define SYSFARM_YAMLFILE_H

#include <jansson.h>
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
 * Return: 0, INPUT_EIO when the file cannot be read (errno kept) or
 * INPUT_EBAD for bad input (lib/util.h), with @yf->err set at FILE
 * ("cannot read: ...") or at FILE:LINE:COL.
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

/* One pair of a mapping, as yaml_file_map() hands it on. */
struct yaml_pair {
	const char *key;	/* the key's text */
	int index;		/* its index in yaml_map.keys; -1 without */
	yaml_node_t *k;		/* the key node, for messages */
	yaml_node_t *v;		/* the value node */
};

/**
 * struct yaml_map - what yaml_file_map() accepts in a mapping
 * @keys: the keys it may hold, NULL-terminated; NULL leaves each to @pair
 * @unknown: with @keys, the message for any other key: a format with one
 *	%s, the key ("unknown key '%s'")
 * @pair: called for each pair in order; returns 0 or what yaml_file_bad()
 *	returned, which ends the walk
 */
struct yaml_map {
	const char *const *keys;
	const char *unknown;
	int (*pair)(struct yaml_file *yf, const struct yaml_pair *p,
		    void *ctx);
};

/**
 * yaml_file_map() - check the keys of the mapping @map, then walk its pairs
 * @map: a mapping node (each caller refuses others in its own words)
 * @ctx: handed to @m->pair
 *
 * libyaml keeps every pair, so a key written twice would silently shadow
 * the other: first every key must be a scalar and none may come twice,
 * the first in order that fails refused ("a key must be a scalar, not a
 * list", "duplicate key 'x'"); only then each pair in order, a key not in
 * @m->keys refused with @m->unknown. Keys are sorted, not compared pair by
 * pair, so that a large mapping costs O(n log n).
 *
 * Return: 0, or the first nonzero of @m->pair or yaml_file_bad().
 */
int yaml_file_map(struct yaml_file *yf, yaml_node_t *map,
		  const struct yaml_map *m, void *ctx);

/* @n's type in messages: "a scalar", "a list", "a mapping" or "empty". */
const char *yaml_file_kind(const yaml_node_t *n);

/* ERR_INPUT at @n (FILE:LINE:COL) into @yf->err. Return: INPUT_EBAD. */
int yaml_file_bad(struct yaml_file *yf, const yaml_node_t *n,
		  const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/**
 * yaml_write_json() - @j as one YAML document, written atomically to @path
 * @comment: lines put first ("# ...\n"), or NULL
 *
 * Objects keep their order; a string a YAML 1.1 reader would take for a
 * number, boolean or null is double-quoted.
 *
 * Return: 0, or -1 with @err set.
 */
int yaml_write_json(const char *path, json_t *j, const char *comment,
		    struct sf_err *err);

#endif
