/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ABI table (expected/abi.yaml): every guarded sysfs attribute with its
 * mode, the condition under which it exists and where it is documented.
 * Snapshots are checked against it both ways, and the table against the
 * kernel tree's Documentation/ABI What: entries.
 */
#ifndef SYSFARM_ABI_H
#define SYSFARM_ABI_H

#include <jansson.h>
#include <stdio.h>

#include "compare/diff.h"
#include "lib/util.h"

/* What can be wrong; a row may waive any kind but undocumented. */
enum abi_kind {
	ABI_UNDOCUMENTED,	/* a file no row matches */
	ABI_MISSING,		/* a row's file is absent where it should be */
	ABI_MODE,		/* a file whose mode is not the row's */
	ABI_STALE,		/* a row its Documentation/ABI file lost */
	ABI_NKINDS
};

struct abi_row {
	char *path;		/* a glob as written, from /sys/ on */
	unsigned int mode;	/* RO 0444, RW 0644, WO 0200, or octal */
	char *mode_text;	/* as written */
	char *kconfig;		/* when: the option must be y or m */
	char *file;		/* when: a file beside it ... */
	char *value;		/* ... holds this (one trailing newline off) */
	char *contains;		/* ... or holds this text */
	char *since;		/* when: the kernel is this version or newer */
	char *before;		/* when: ... older than this version */
	char *source;		/* Documentation/ABI/... is checked */
	char *waive[ABI_NKINDS];	/* reasons, by kind */
	char *allow_added;	/* why a new file here may pass a check */
	size_t line;
};

/*
 * A status rule: a row with `status:` instead of `path:`. What it allows
 * of a change of its class (removed, changed, added) to a path of its
 * status does not fail: the reason is shown with it.
 */
struct abi_policy {
	enum diff_abi status;
	char *allow[DIFF_CLASS_NR];	/* reasons, by class */
	size_t line;
};

struct abi_table {
	char *path;
	struct abi_row *v;
	size_t n;
	struct abi_policy *policy;	/* the status rules, in order */
	size_t npolicy;
};

#define ABI_TABLE_INIT { 0 }

/**
 * abi_table_load() - read the table in @path
 *
 * A YAML list of mappings with the keys `path` (a glob that starts with
 * /sys/, '*' stops at '/'), `mode` (RO, RW, WO or four octal digits),
 * `source` (required text; a path in the kernel tree, so neither absolute
 * nor with a '..' component), optional `when` (a mapping of `kconfig`,
 * and/or `file` with `value` or `contains`, and/or `since` and `before`,
 * kernel versions that bound the row: a snapshot's header.release, a
 * tree's Makefile version), `waive` (a mapping of
 * `missing`, `mode` or `stale` to a reason) and `allow` (`added`: the
 * reason a file the golden does not have may appear here without failing
 * `check`). A row with `status` (stable, testing, obsolete, removed,
 * undocumented) instead is a status rule: its only other key is `allow`,
 * a mapping of `removed`, `changed` or `added` to a reason.
 *
 * Return: 0, or -1 with @err set: "FILE:LINE:COL: message" for bad
 * input, errno kept when the file cannot be read (@err says so).
 */
int abi_table_load(struct abi_table *t, const char *path, struct sf_err *err);

void abi_table_release(struct abi_table *t);

struct abi_finding {
	enum abi_kind kind;
	char *path;			/* the sysfs path, or the row's glob */
	const struct abi_row *row;	/* NULL for undocumented */
	char *detail;
};

struct abi_findings {
	struct abi_finding *v;
	size_t n;
	size_t files;		/* files the snapshot holds */
};

#define ABI_FINDINGS_INIT { 0 }

/**
 * abi_check() - compare a checked snapshot with the table
 * @kconfig: the options that are y or m in the snapshot's kernel
 * @seen: if not NULL, one flag per row, set for each row whose directory
 *	the snapshot holds (so that callers can name rows never observed)
 *
 * Paths are relative to the sysfs mount, through followed links, as the
 * snapshot spells them. A row applies to each directory that matches its
 * path but the last component and where its condition holds.
 */
void abi_check(const struct abi_table *t, json_t *snap,
	       const struct strv *kconfig, unsigned char *seen,
	       struct abi_findings *out);

/**
 * abi_check_docs() - the rows whose Documentation/ABI source lost them
 * @tree: the kernel tree the snapshots came from
 *
 * A row whose source is a file under Documentation/ABI/ must match one of
 * its What: entries (<name>, "..." and a trailing N or X are wildcards),
 * or fall under a directory entry (one ending in '/') whose text names
 * "/BASENAME". Other sources (commits, other documents) are citations.
 * A source whose real path leaves @tree (a link to outside) is not read:
 * its row is stale.
 *
 * Return: how many rows were checked against a What: entry, or -1 with
 * @err set when @tree has no Documentation/ABI.
 */
int abi_check_docs(const struct abi_table *t, const char *tree,
		   struct abi_findings *out, struct sf_err *err);

/**
 * abi_allowed_added() - may a new file at @path pass?
 * @path: relative to the sysfs mount, as a diff names it
 * @release: the snapshot's kernel release (NULL: any)
 *
 * Return: the `allow: {added: REASON}` of the row that is @path's (the
 * first that matches it and holds for @release), or NULL.
 */
const char *abi_allowed_added(const struct abi_table *t, const char *path,
			      const char *release);

/**
 * abi_policy_allows() - does a status rule let this change pass?
 * @cls: the change's class
 * @status: its path's Documentation/ABI status (DIFF_ABI_UNKNOWN: none
 *	is known, and no rule allows it)
 *
 * Return: the reason of the first rule of @status that allows @cls, or
 * NULL: by default every change counts.
 */
const char *abi_policy_allows(const struct abi_table *t, enum diff_class cls,
			      enum diff_abi status);

/*
 * One kernel tree's Documentation/ABI: the What: entries of every file
 * in its stable/, testing/, obsolete/ and removed/, read once.
 */
struct abi_what;

struct abi_docs {
	struct abi_what *v;
	size_t n;
	char **texts;		/* the files, which the entries point into */
	size_t ntexts;
};

#define ABI_DOCS_INIT { 0 }

/**
 * abi_docs_load() - read @tree's Documentation/ABI
 *
 * Only regular files are read (a link is not followed out of the tree),
 * each of at most INPUT_MAX_TEXT, and only where Documentation/ABI's
 * stable/, testing/, obsolete/ and removed/ lead inside the tree.
 * Return: 0, or -1 with @err set when @tree has no Documentation/ABI, a
 * directory leads outside it, or a document is too large or cannot be
 * read (then nothing is loaded: no status is guessed from a part).
 */
int abi_docs_load(struct abi_docs *docs, const char *tree,
		  struct sf_err *err);

/**
 * abi_docs_status() - the status of @path (a diff's, from the sysfs mount)
 *
 * Matched as abi_check_docs() matches a row: a What: entry's glob, or a
 * directory entry whose text names "/BASENAME" (gpioN naming gpio512).
 * When documents of several statuses match, the strongest promise wins:
 * stable, testing, obsolete, removed. Return: that, undocumented when
 * none matches, unknown without @docs.
 */
enum diff_abi abi_docs_status(const struct abi_docs *docs, const char *path);

/**
 * abi_docs_mark() - set the status of each sysfs change of @d
 * @old: the old side's tree (a removal's status), or NULL if none is at hand
 * @new: the new side's (an addition's and a change's), or NULL
 */
void abi_docs_mark(const struct abi_docs *old, const struct abi_docs *new,
		   struct diff *d);

void abi_docs_release(struct abi_docs *docs);

/* The trees' Documentation/ABI a command has read, each once. */
struct abi_docs_set {
	char **trees;
	struct abi_docs **v;	/* by tree, NULL for one without */
	size_t n;
};

#define ABI_DOCS_SET_INIT { 0 }

/*
 * @tree's Documentation/ABI (NULL @tree: none), read the first time it is
 * asked for; NULL when it has none: its statuses are unknown.
 */
const struct abi_docs *abi_docs_get(struct abi_docs_set *set,
				    const char *tree);

void abi_docs_set_release(struct abi_docs_set *set);

/* The reason @f is waived, or NULL when it counts. */
const char *abi_waived(const struct abi_finding *f);

/* How many findings are not waived. */
size_t abi_count(const struct abi_findings *fs);

/*
 * Prints into @out one line per finding after @prefix, "KIND PATH:
 * DETAIL", a waived one ending in "; waived: REASON" and only if @waived; unwaived first.
 * Each as diff_text_clean() makes it: a table's escapes stay escaped.
 */
void abi_print(FILE *out, const struct abi_findings *fs, const char *prefix,
	       int waived);

/* [{kind, path, row (its line, or null), detail, waived (or null)}] */
json_t *abi_to_json(const struct abi_findings *fs);

void abi_findings_release(struct abi_findings *fs);

#endif
