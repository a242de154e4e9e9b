/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The goldens' store: expected/CONFIG.json, the pending snapshots check
 * leaves beside them (CONFIG.json.pending), the redaction rules and the
 * ABI table found there, and the goldens no configuration makes.
 * Nothing here prints: each function returns its error.
 */
#ifndef SYSFARM_STORE_H
#define SYSFARM_STORE_H

#include <jansson.h>

#include "compare/abi.h"
#include "compare/redact.h"
#include "lib/util.h"
#include "pipeline/farm.h"

/* Where the goldens are, and the rules that normalize both sides. */
struct golden_dir_opts {
	const char *expected;		/* the goldens' directory */
	const char *redactions;		/* rules file, or NULL for the default */
};

/**
 * golden_dir_open() - the goldens' directory and the redaction rules
 * @top: the matrix's directory
 * @dir: set to --expected, or TOP/expected (malloc'd; NULL on a bad option)
 * @r: filled from --redactions, or DIR/redactions.yaml when there is one
 *
 * Return: 0, or -1 with @err set (bad usage or input: exit 2).
 */
int golden_dir_open(const struct golden_dir_opts *o, const char *top,
		    char **dir, struct redactions *r, struct sf_err *err);

/**
 * golden_read() - snap_load() a golden or a pending snapshot, never a link
 *
 * A symbolic link is refused before anything is read through it: its
 * target (another user's file, /etc/shadow) could otherwise be quoted in
 * a parse error. The message names the link alone.
 *
 * Return: 0, or INPUT_EIO / INPUT_EBAD with @err set, as snap_load().
 */
int golden_read(const char *path, json_t **out, struct sf_err *err);

/*
 * golden_check() - @dir's golden of @name, if there is one, is readable
 * (bad goldens are refused before an hour of building).
 * Return: 0, or INPUT_EIO / INPUT_EBAD with @err set, as golden_read().
 */
int golden_check(const char *dir, const char *name, struct sf_err *err);

/* DIR/abi.yaml into @t, if there is one. Return: 0, or -1 with @err set. */
int golden_abi_read(const char *dir, struct abi_table *t,
		    struct sf_err *err);

/* Is this a CI run (CI=true)? Then nothing is written into DIR. */
int golden_ci(void);

/**
 * golden_save() - @snap normalized by @reds, written to @path atomically
 * @dir: the goldens' directory, made if missing
 *
 * A golden (update, review) or a pending snapshot (check): whole or not
 * there, never half-written (temp file + rename).
 *
 * Return: 0, or -1 with @err set.
 */
int golden_save(const char *dir, const char *path, json_t *snap,
		const struct redactions *reds, struct sf_err *err);

/*
 * Is @name, which ends in @suffix (".json", ".json.pending"), a
 * configuration's name followed by it?
 */
int golden_names_config(const struct farm *f, const char *name,
			const char *suffix);

/* The pending snapshots in @dir, DIR/NAME.json.pending, sorted, into @out. */
void golden_pending_list(const char *dir, struct strv *out);

/**
 * golden_obsolete() - the DIR/NAME.json no configuration is named after
 * @obsolete: those sysfarm wrote (a regular file, a snapshot whose header
 *	has "inputs" and "snapshotter"): their paths
 * @foreign: the others, one message each, left alone
 */
void golden_obsolete(const struct farm *f, const char *dir,
		     struct strv *obsolete, struct strv *foreign);

#endif
