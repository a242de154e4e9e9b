/* SPDX-License-Identifier: GPL-2.0 */
/*
 * `sysfarm bisect`'s engine: the first patch of a series after which a
 * configuration's snapshot no longer passes against its golden. Step k
 * applies the series' first k patches to the same tree and build
 * directory (an incremental build), and its snapshot is judged as check
 * judges it (judge_snapshot(): an addition the ABI table or
 * --allow-added allows passes), a DIFF confirmed by a second boot.
 * Untestable steps are skipped; each step's verdict is logged in
 * BUILD/bisect/CONFIG.log, and a rerun reuses the logged ones.
 *
 * A first bad patch is checked twice before it is an answer, as
 * KernelCI's bisections end ("verify: PASS, revert: PASS"): its step
 * rebuilt from nothing shows the same entries, and the series without it
 * shows none of them. A commit `git bisect run` named is checked the same
 * way (bisect_commit()).
 */
#ifndef SYSFARM_VERIFY_BISECT_H
#define SYSFARM_VERIFY_BISECT_H

#include "compare/abi.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"
#include "verify/judge.h"

enum bisect_state { BISECT_UNTESTED, BISECT_GOOD, BISECT_BAD, BISECT_SKIP };

/* One check of the culprit: verify or revert. */
struct bisect_check {
	int run;		/* it was run (or replayed); else SKIP */
	int pass;
	char *seen;		/* when it fails: "saw VERDICT[: why]" and
				 * the entries its step showed, or why it
				 * was not run */
};

struct bisect {
	long good, bad;		/* patch counts known good and bad; -1:
				 * the default (bisect_prepare()) */
	int allow_added;	/* --allow-added, as in check */
	const char *expected;	/* --expected: the goldens' directory */
	const char *commit;	/* --commit: a commit of --kernel-src's git
				 * repository to check, no bisection */
	char *culprit;		/* the commit: "HASH SUBJECT" */
	struct bisect_check verify, revert;
	struct strv checked;	/* checks logged as passed: "verify K
				 * PATCH BAD" */
	struct strv patches, subjects;
	char *golden, *log, *series;
	struct redactions reds;
	struct abi_table abi;	/* DIR/abi.yaml: the additions it allows */
	struct judge judge;	/* check's, the table held to only for them */
	struct abi_docs_set docs;	/* the tree's Documentation/ABI */
	enum bisect_state *state;	/* per patch count */
	int builds;
	struct run *run;	/* the configuration's, taken by every step */
	struct diff diff;	/* of the last step that gave a snapshot */
	struct diff bad_diff;	/* of step bad_k */
	long bad_k;
	char **why;		/* per step: why it was untestable, or NULL */
	long lo, hi;		/* the answer: the first bad patch is one of
				 * lo + 1 .. hi */
};

#define BISECT_INIT { .good = -1, .bad = -1 }

/**
 * bisect_prepare() - the series, the range, the golden of @f's one
 *	selected configuration, and the verdicts an earlier run logged
 *
 * @b->good defaults to as many patches as open the matrix's own series,
 * @b->bad to all of them.
 *
 * Return: 0, or -1 with @err set (bad input: exit 2).
 */
int bisect_prepare(struct farm *f, struct bisect *b, struct sf_err *err);

/*
 * bisect_run() - step until the range is one patch, or skips leave no
 * step to take; the answer in @b->lo and @b->hi, the first bad step's
 * diff in @b->bad_diff. Progress goes to the sink.
 */
void bisect_run(struct farm *f, struct bisect *b);

/*
 * bisect_verify() - the two checks of a first bad patch (@b->hi), when
 * bisect_run() found one: *verify*, its step rebuilt after
 * kbuild_clean() (no object reused; the compiler cache serves them) is a
 * DIFF of the same entries (the changes that count, @b->bad_diff's);
 * *revert*, the series up to @b->bad without it passes or shows none of
 * them (other patches may change other things). Sets @b->verify and
 * @b->revert; each is logged ("verify K PATCH BAD PASS SECS"), and one
 * logged as passed is replayed, not run again. Revert, an incremental
 * build, runs first: when it fails, verify (a build from nothing) is not
 * run, the culprit being unverified either way.
 */
void bisect_verify(struct farm *f, struct bisect *b);

/**
 * bisect_commit() - the two checks of @b->commit, a commit of the
 *	repository --kernel-src names (git bisect run's answer)
 *
 * *verify*: the commit's tree (the checkout's, less `git diff -R
 * COMMIT`), built after kbuild_clean(), is a DIFF; its
 * entries are the commit's (@b->bad_diff). *revert*: the checkout (the
 * tip) with the commit reverted (`git diff COMMIT COMMIT^` applied)
 * passes or shows none of them; it is not run when verify saw no entry
 * (it fails then). Both are patches the farm applies to its
 * private copy of the tree, under the series, in BUILD/bisect/: the
 * repository is only read (git --no-optional-locks).
 *
 * Return: 0, or -1 with @err set: @b->commit is no commit with a parent
 * of that repository (bad input).
 */
int bisect_commit(struct farm *f, struct bisect *b, struct sf_err *err);

void bisect_release(struct farm *f, struct bisect *b);

#endif
