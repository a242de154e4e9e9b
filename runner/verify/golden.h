/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check's and update's run: every selected configuration built, booted
 * and judged against its golden (judge.h), results.json written. The
 * command checks its inputs first (cmd/golden.c's golden_run()) and
 * prints what came of it.
 */
#ifndef SYSFARM_VERIFY_GOLDEN_H
#define SYSFARM_VERIFY_GOLDEN_H

#include "compare/abi.h"
#include "compare/redact.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"
#include "verify/judge.h"
#include "verify/store.h"

struct golden_opts {
	struct golden_dir_opts dir;
	const char *results;		/* results file to write */
	int abi;			/* hold snapshots to DIR/abi.yaml */
	int allow_added;		/* additions do not fail (--allow-added) */
	int pending;			/* leave DIR/CONFIG.json.pending for
					 * review (check, outside CI) */
};

struct golden_run {
	struct redactions reds;
	char *expected;
	struct judge judge;		/* what each snapshot is held to */
	struct run *runs;		/* indexed like f->sel */
	struct judgement *judged;	/* indexed like f->sel */
	struct strv obsolete;		/* sysfarm's goldens no configuration
					 * makes: DIR/NAME.json */
	struct strv foreign;		/* other DIR/NAME.json, left alone: one
					 * message each */
	struct abi_table abi;		/* empty without DIR/abi.yaml */
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

/*
 * golden_run_init() - @run empty, sized for @f's selection, its judge
 * set from @o (the table, once loaded into @run->abi, allows additions
 * either way and is held to only with @o->abi).
 */
void golden_run_init(const struct farm *f, const struct golden_opts *o,
		     struct golden_run *run);

/**
 * golden_matrix() - build, boot and judge every selected configuration
 *
 * run_matrix() hands each fresh snapshot, in memory, to judge_snapshot();
 * a DIFF or ABI-MISMATCH is confirmed by booting the kernel again
 * (golden_confirm()). Writes BUILD/out/CONFIG/snapshot.diff beside each
 * snapshot, result.json for each, and the results file; removes the
 * snapshot.diff and snapshot.confirm.json of the configurations not run,
 * so that build/out/ holds this run's alone. With @run->pending, leaves
 * each DIFF or NEW snapshot as DIR/CONFIG.json.pending (removing a stale
 * one of a configuration that now passes). After the builds, lists the
 * goldens no configuration of the matrix is named after (golden_obsolete())
 * and, with @o->abi, checks the table's Documentation/ABI rows against
 * each tree that was built. What goes wrong meanwhile goes to the sink.
 */
void golden_matrix(struct farm *f, const struct golden_opts *o,
		   struct golden_run *run);

void golden_release(const struct farm *f, struct golden_run *run);

#endif
