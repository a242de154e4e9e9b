/* SPDX-License-Identifier: GPL-2.0 */
/* Structural diff of two snapshots: every changed path, in tree order. */
#ifndef SYSFARM_DIFF_H
#define SYSFARM_DIFF_H

#include <jansson.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

enum diff_kind {
	DIFF_ADDED,	/* only in the new side: entry, root, probe, line */
	DIFF_REMOVED,	/* only in the old one */
	DIFF_TYPE,	/* file, dir, link, other, or an error in its place */
	DIFF_MODE,	/* permission bits */
	DIFF_VALUE,	/* a file's content (text or bytes), kmsg's size */
	DIFF_ERROR,	/* a read, listing or lookup error changed, or a
			 * dir's listing cut at the depth limit (truncated) */
	DIFF_TARGET,	/* a symlink's target */
	DIFF_PROBE,	/* one field of a probe's record */
	DIFF_SYSFS,	/* sysfs.mounted or sysfs.error */
	DIFF_RENAMED,	/* a directory renumbered: only a fold (diff_fold()) */
	DIFF_NR
};

/*
 * What a change means to userland, as libabigail's abidiff sorts them:
 * something it could rely on is gone (incompatible), something new is
 * there (compatible), or something is different (needs review). Ordered
 * most severe first.
 */
enum diff_class {
	DIFF_CLASS_REMOVED,	/* DIFF_REMOVED: incompatible */
	DIFF_CLASS_CHANGED,	/* type, mode, value, ...: needs review */
	DIFF_CLASS_ADDED,	/* DIFF_ADDED: compatible */
	DIFF_CLASS_NR
};

/*
 * The status the kernel's Documentation/ABI gives a changed sysfs path
 * (compare/abi.h, abi_docs_mark()): the directory of the document whose
 * What: entry matches it, or none of them. Unknown where no tree was at
 * hand or the change is no sysfs entry (kmsg, a probe): never guessed.
 */
enum diff_abi {
	DIFF_ABI_UNKNOWN,
	DIFF_ABI_STABLE,
	DIFF_ABI_TESTING,
	DIFF_ABI_OBSOLETE,
	DIFF_ABI_REMOVED,
	DIFF_ABI_UNDOCUMENTED,
	DIFF_ABI_NR
};

/*
 * One change. @path is raw: a sysfs path relative to the mount as the
 * snapshot spells it (class/leds/x/brightness; a followed link's own node
 * is "link/", what it holds "link/name"), or sysfs.mounted, probes[N],
 * probes[N].FIELD, kmsg, kmsg[N] (indexes from 0, into the side that has
 * it). @old and @new are for display: values quoted with C escapes
 * ("256\n", "\xff"), errno names bare (EACCES), "<redacted>", modes, node
 * summaries (file 0644 "1\n"); NULL where that side has nothing.
 * @allowed is the reason a change does not fail (--allow-added, an ABI
 * table row's `allow: {added: REASON}`, or a status rule's, which may
 * allow a removal or a change too), NULL when the change counts.
 * @abi is the path's Documentation/ABI status.
 * @subject names the probe a change of probes[N] is about by its line in
 * the probe file ("write /sys/class/leds/x/brightness 255", built from the
 * record): a probe is known by what it did, not its index. NULL for every
 * other change.
 * @members: a fold's (diff_fold()): the changes it stands for, which a
 * reader sees as one; NULL for every other change.
 */
struct diff_change {
	enum diff_kind kind;
	char *path;
	char *old;
	char *new;
	char *allowed;
	char *subject;
	struct diff *members;
	enum diff_abi abi;
};

struct diff {
	struct diff_change *v;
	size_t n, alloc;
};

#define DIFF_INIT { 0 }

/**
 * diff_snapshots() - append to @d every difference from @a to @b
 *
 * Both must have passed snap_check() (and been normalized alike). The
 * header is left out. Order: sysfs, then roots in tree order with
 * siblings sorted bytewise, then probes and kmsg lines in their order
 * (kmsg lines matched by longest common subsequence). When more than 1000
 * kmsg lines would be added or removed, one DIFF_VALUE on "kmsg" stands
 * for them: "N lines" -> "M lines (over 1000 changed from kmsg[K] on, not
 * listed)", K the first line that differs. Time and memory stay linear in
 * the lines, times that bound.
 */
void diff_snapshots(struct diff *d, json_t *a, json_t *b);

void diff_release(struct diff *d);

/* "added", "removed", "type", ...: the kind's name in JSON. */
const char *diff_kind_name(enum diff_kind k);

enum diff_class diff_class_of(enum diff_kind k);

/* "removed", "changed" or "added": the class's name in JSON and text. */
const char *diff_class_name(enum diff_class c);

/* "stable", ..., "undocumented"; NULL for DIFF_ABI_UNKNOWN. */
const char *diff_abi_name(enum diff_abi a);

/* Sets @c's allowed reason (a copy of @reason) if it has none yet. */
void diff_allow(struct diff_change *c, const char *reason);

/*
 * Is @path (a change's) an entry of the snapshot's roots, not kmsg, a
 * probe record or sysfs.mounted/error?
 */
int diff_in_roots(const char *path);

/* How many changes count: those not allowed, a fold's members each. */
size_t diff_count(const struct diff *d);

/* What diff_fold() folds: renamed directories, whole subtrees, or both. */
enum {
	DIFF_FOLD_RENAMES = 1,
	DIFF_FOLD_SUBTREES = 2,
	DIFF_FOLD_ALL = DIFF_FOLD_RENAMES | DIFF_FOLD_SUBTREES,
};

/**
 * diff_fold() - make the changes of a directory one entry, for people
 * @what: DIFF_FOLD_RENAMES and/or DIFF_FOLD_SUBTREES
 *
 * Presentation only: every change stays, a member of its fold
 * (@c->members), so diff_count() and an exit status are as before; call
 * it after the changes were allowed (an ABI table sees each path). It
 * reads the changes alone, as diff_snapshots() or diff_from_json() made
 * them, flat. A directory is a dir node or a link followed into one
 * ("P", then "P/").
 *
 * Renames (DIFF_RENAMED, class changed, at the first member's place): a
 * directory removed and one added under the same parent, their names
 * equal but for the last run of digits (gpiochip1023, gpiochip512), the
 * only such pair there (two candidates: no fold); their entries the same
 * (relative paths, types, modes) and every value that differs the old
 * number (a whole run of digits) made the new one. Its path is the old
 * one, @old and @new the two names; its members the removed entries,
 * then the added ones in the same order, then each link elsewhere whose
 * target differs only in the directory's name (and what is changed
 * below it the same way, where it is followed).
 *
 * Subtrees: a directory removed or added with anything under it is one
 * change of its kind, path "P/", text "dir, N entries" (N under it;
 * ", K allowed" when only some are).
 *
 * A fold is allowed (their reasons, each once) when all its members are,
 * so that diff_summary() counts it as diff_count() does.
 */
void diff_fold(struct diff *d, unsigned int what);

/*
 * Orders two lists of changes (NULL: none) by each change's kind, path,
 * old, new, subject, allowed and members: 0 when they are the same.
 */
int diff_cmp(const struct diff *a, const struct diff *b);

/*
 * What a rename says of its members: "8 entries; base \"1023\" ->
 * \"512\"" (the entries of the old directory; the files whose values
 * changed, three named, then "..."; the numbers of @c's two names).
 * Return: a malloc'd string.
 */
char *diff_renamed_detail(const struct diff_change *c);

/**
 * diff_summary() - the changes counted by class, most severe first
 *
 * "1 removed, 2 changed", with the allowed ones after the rest: "4 added
 * (allowed)"; "no change" for none. Return: a malloc'd string.
 */
char *diff_summary(const struct diff *d);

/**
 * diff_change_format() - one terminal line, without newline
 * @color: wrap it in ANSI colour (green +, red -, yellow ~)
 *
 * "+ PATH: NEW", "- PATH: OLD" or "~ PATH: KIND OLD -> NEW" (the
 * marker is the class: + added, - removed, ~ changed), PATH followed by
 * " (SUBJECT)" when it has one, then
 * " [STATUS]" for a known Documentation/ABI status, then
 * " (allowed: REASON)" for an allowed one; control characters in PATH
 * and REASON are escaped. Return: a malloc'd string.
 */
char *diff_change_format(const struct diff_change *c, int color);

/* Every change as a line, each after @prefix ("" or "# "). */
void diff_print(FILE *out, const struct diff *d, const char *prefix,
		int color);

/*
 * [{"kind": ..., "class": ..., "path": ..., "old": ..., "new": ...}], an
 * allowed change with "allowed": REASON too, a probe field's with
 * "subject", one of known status with "abi_status", a fold with
 * "entries": [its members, the same way]; a new reference.
 */
json_t *diff_to_json(const struct diff *d);

/**
 * diff_from_json() - append the changes of a diff_to_json() array to @d
 * @what: names the array in messages
 *
 * Refuses what diff_to_json() never writes and diff_change_format()
 * could not print: an "added" change whose "new" is not a string, a
 * "removed" one whose "old" is not, a "class" that is not its kind's, an
 * "allowed" reason on a change that is not an addition unless it has an
 * "abi_status" (a status rule allowed it), an "abi_status" that is not a
 * status's name, "entries" in a fold's member, a "renamed" change without
 * them, a fold of none, or one holding a change it cannot stand for (a
 * subtree's not of its kind or outside its path, a rename's removal
 * outside its old directory). "class", "allowed", "subject", "abi_status" and "entries" are
 * optional (results files of older versions).
 *
 * Return: 0, or -1 with @err set ("WHAT[3]: unknown kind 'x'").
 */
int diff_from_json(struct diff *d, json_t *arr, const char *what,
		   struct sf_err *err);

/*
 * Code points that move or hide text on a terminal or a page: C1
 * controls, bidi marks, overrides and isolates, line separators, BOM.
 */
int diff_cp_unsafe(uint32_t cp);

/**
 * diff_quote() - @len bytes as a double-quoted string a terminal shows
 * safely: C escapes for controls, \xHH for bytes that are not UTF-8,
 * \uXXXX for C1 controls, bidi overrides and line separators.
 *
 * Return: a malloc'd string.
 */
char *diff_quote(const char *s, size_t len);

/**
 * diff_text_clean() - @n bytes of text as one line a terminal or a report
 * shows as it is: control characters other than tab as \xHH, code points
 * diff_cp_unsafe() names as \uXXXX, bytes that are not UTF-8 as \xHH;
 * and the characters in @special after a backslash (TAP's "\\#")
 *
 * A guest's console line, a YAML table's path: nothing in it can retitle
 * or clear a terminal, forge a line or start a TAP directive.
 *
 * Return: a malloc'd string.
 */
char *diff_text_clean(const char *s, size_t n, const char *special);

#endif
