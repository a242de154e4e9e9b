/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Golden files: expected/<config>.json compared with fresh snapshots, one
 * verdict per configuration, the inputs header compared on its own.
 * Shared by `sysfarm check` and `sysfarm update`; bisect confirms with it.
 */
#ifndef SYSFARM_GOLDEN_H
#define SYSFARM_GOLDEN_H

#include <jansson.h>

#include "compare/abi.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

/* Where the goldens are, and the rules that normalize both sides. */
struct golden_dir_opts {
	const char *expected;		/* the goldens' directory */
	const char *redactions;		/* rules file, or NULL for the default */
};

/* --expected and --redactions, bound to struct golden_dir_opts. */
extern const struct opt golden_dir_options[];

/**
 * golden_dir_load() - the goldens' directory and the redaction rules
 * @top: the matrix's directory
 * @dir: set to --expected, or TOP/expected (malloc'd)
 * @r: filled from --redactions, or DIR/redactions.yaml when there is one
 *
 * Return: 0, or SF_EXIT_USAGE after printing the rules' message.
 */
int golden_dir_load(const struct golden_dir_opts *o, const char *top,
		    char **dir, struct redactions *r);

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

/* DIR/abi.yaml into @t, if there is one. Return: 0, or 1 after its message. */
int golden_abi_load(const char *dir, struct abi_table *t);

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
 * golden_allow() - allow the changes of @d that do not fail
 * @snap: the new side, whose release the table's rows may be tied to
 * @all: every addition (--allow-added), else only where @t's row says
 *
 * A change whose Documentation/ABI status (abi_docs_mark()) a status
 * rule of @t allows for its class (abi_policy_allows()); else only
 * additions of entries of the sysfs roots: removals, changes, new kmsg
 * lines and probe records count.
 */
void golden_allow(const struct abi_table *t, int all, json_t *snap,
		  struct diff *d);

struct golden_opts {
	struct golden_dir_opts dir;
	const char *results;		/* results file to write */
	int abi;			/* hold snapshots to DIR/abi.yaml */
	int allow_added;		/* additions do not fail (--allow-added) */
	int pending;			/* leave DIR/CONFIG.json.pending for
					 * review (check, outside CI) */
};

/* The options check and update share, bound to struct golden_opts. */
extern const struct opt golden_options[];

struct golden_run {
	struct redactions reds;
	char *expected;
	struct run *runs;		/* indexed like f->sel */
	struct diff *diffs;
	struct strv *inputs_changed;	/* "name: old -> new" lines */
	struct strv obsolete;		/* sysfarm's goldens no configuration
					 * makes: DIR/NAME.json */
	struct strv foreign;		/* other DIR/NAME.json, left alone: one
					 * message each */
	struct abi_table abi;		/* empty without opts->abi or table */
	int allow_added;		/* opts->allow_added */
	struct abi_findings *abi_found;	/* indexed like f->sel */
	struct abi_findings abi_stale;	/* rows Documentation/ABI lost */
	struct abi_docs_set docs;	/* the trees' Documentation/ABI */
	unsigned char *confirmed;	/* indexed like f->sel: a second boot
					 * gave the same snapshot */
	int pending;			/* opts->pending and not golden_ci() */
	signed char *pended;		/* indexed like f->sel: 1 the snapshot
					 * was left pending, -1 it could not be
					 * (said), 0 neither */
	json_t *report;			/* the results file's content */
	int lost;			/* it could not be written (said) */
};

/**
 * golden_run() - build, boot and compare every selected configuration
 *
 * Goldens, the redaction rules and the ABI table are validated before
 * anything is built; then run_matrix() hands each fresh snapshot, in
 * memory, to the comparison with its golden. Every change is classed
 * (removed, changed, added: diff.h); an addition is allowed, shown but
 * not counted, with @o->allow_added or where the ABI table's row for its
 * path says `allow: {added: REASON}`; a snapshot whose changes are all
 * allowed is PASS. A DIFF or ABI-MISMATCH is confirmed by booting the
 * kernel again (run_confirm()): two snapshots that disagree are FLAKY.
 * With @o->abi, a snapshot
 * equal to its golden that the ABI table finds fault with is ABI-MISMATCH,
 * and the table's Documentation/ABI rows are checked against the tree
 * that was built. Writes BUILD/out/CONFIG/snapshot.diff beside each
 * snapshot, result.json for each, and the results file; removes the
 * snapshot.diff and snapshot.confirm.json of the configurations not
 * run, so that build/out/ holds this run's alone. With @o->pending,
 * leaves each DIFF or NEW snapshot as DIR/CONFIG.json.pending (removing
 * a stale one of a configuration that now equals its golden). Under
 * CI=true a pending file in DIR is bad input: nothing is built. After the
 * builds, lists the goldens no configuration of the matrix is named
 * after: obsolete if sysfarm wrote them (a regular file, a snapshot whose
 * header has "inputs" and "snapshotter"), foreign otherwise.
 *
 * Return: 0, or after printing its message SF_EXIT_USAGE for bad input
 * (a golden that cannot be parsed), SF_EXIT_UNTESTED for a golden that
 * cannot be read (verdict_exit_input()).
 */
int golden_run(struct farm *f, const struct golden_opts *o,
	       struct golden_run *run);

/**
 * golden_confirm() - is @r's DIFF or ABI-MISMATCH what its kernel does?
 * @reds: the rules both snapshots are normalized by
 *
 * Boots the kernel again (run_confirm()) and compares the two snapshots:
 * a verdict is only reported once the same kernel gives it twice. When
 * they disagree, or the second boot gives none, @r becomes FLAKY (could
 * not test), its message naming the paths that differ (at most 5) and
 * both snapshot files, which stay.
 *
 * Return: 1 when the second snapshot is the first's, else 0.
 */
int golden_confirm(struct farm *f, struct run *r,
		   const struct redactions *reds);

/*
 * The summary table, then per configuration its inputs changes (first, on
 * their own lines) and its diff, then obsolete goldens and foreign files.
 */
void golden_print(const struct farm *f, const struct golden_run *run,
		  int color);

/*
 * The folded exit status; a stale row of the ABI table counts as a
 * difference, an obsolete golden only in a run of the whole matrix that
 * otherwise passed, a foreign file never; a results file that could not
 * be written is 125 (verdict_exit_lost()).
 */
int golden_status(const struct farm *f, const struct golden_run *run);

void golden_release(const struct farm *f, struct golden_run *run);

#endif
