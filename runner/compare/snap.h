/* SPDX-License-Identifier: GPL-2.0 */
/* Loading, checking, normalizing and comparing snapshots and goldens. */
#ifndef SYSFARM_SNAP_H
#define SYSFARM_SNAP_H

#include <jansson.h>
#include <stddef.h>

#include "lib/jsonfile.h"
#include "lib/util.h"

struct diff;


/**
 * snap_parse() - parse and check a snapshot held in memory
 * @name: what messages call it (a file name, "channel", ...)
 * @buf: @len bytes of JSON
 * @out: set to a new reference on success
 *
 * Syntax errors read "NAME:LINE:COL: message", structural ones
 * "NAME: at PATH: message" (see snap_check()).
 *
 * Return: 0, or INPUT_EBAD with @err set.
 */
int snap_parse(const char *name, const char *buf, size_t len, json_t **out,
	       struct sf_err *err);


/**
 * snap_load() - snap_parse() the file @path
 *
 * Return: 0, INPUT_EIO when it cannot be read (errno is kept, so that a
 * caller can tell ENOENT: a missing golden is NEW), or INPUT_EBAD.
 */
int snap_load(const char *path, json_t **out, struct sf_err *err);

/**
 * snap_check() - is @snap a snapshot as snapshotter/FORMAT.md describes it?
 * @name: the file, for messages
 *
 * Checks everything the comparison relies on: "format" is 1, every node
 * has a known "type" (or only an "error"), modes are octal strings, no key
 * is unknown to this version, value types are right. A file node may hold
 * "redacted": true instead of its content (see redact.h). The "header" is
 * only required to be an object: it is not part of the ABI.
 *
 * Messages read "NAME: at PATH: message", PATH in jq syntax
 * (.roots["bus/workqueue"].entries.devices.mode).
 *
 * Return: 0, or INPUT_EBAD with @err set.
 */
int snap_check(const char *name, json_t *snap, struct sf_err *err);


struct redactions;

/**
 * snap_diff() - diff two snapshots, both redacted by @r
 * @a: the old side (the golden, for `check`), checked by snap_check()
 * @b: the new side (the snapshot just taken), checked too
 * @r: the redaction rules, or NULL for none
 * @out: an initialised (DIFF_INIT) list that receives the changes
 *
 * Neither snapshot is changed: the rules are applied to copies.
 */
void snap_diff(json_t *a, json_t *b, const struct redactions *r,
	       struct diff *out);

/**
 * snap_compare() - load two snapshot files, normalize both, diff them
 * @a: the old side (the golden, for `check`)
 * @b: the new side (the snapshot just taken)
 * @r: the redaction rules, or NULL for none
 * @out: an initialised (DIFF_INIT) list that receives the changes
 *
 * Return: 0 (then @out->n == 0 means equal), INPUT_EIO or INPUT_EBAD.
 */
int snap_compare(const char *a, const char *b, const struct redactions *r,
		 struct diff *out, struct sf_err *err);

#endif
