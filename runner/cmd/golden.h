/* SPDX-License-Identifier: GPL-2.0 */
/*
 * check's and update's side of a golden run (verify/golden.h): their
 * options, the inputs checked and reported before anything is built, the
 * summary and the next steps printed; the goldens' directory opened and
 * reported for review and upgrade too.
 */
#ifndef SYSFARM_GOLDEN_H
#define SYSFARM_GOLDEN_H

#include "lib/options.h"
#include "pipeline/farm.h"
#include "verify/golden.h"

/* --expected and --redactions, bound to struct golden_dir_opts. */
extern const struct opt golden_dir_options[];

/* The options check and update share, bound to struct golden_opts. */
extern const struct opt golden_options[];

/*
 * golden_dir_open(), its error printed. Return: 0, or SF_EXIT_USAGE.
 */
int golden_dir_load(const struct golden_dir_opts *o, const char *top,
		    char **dir, struct redactions *r);

/* golden_abi_read(), its error printed. Return: 0, or 1. */
int golden_abi_load(const char *dir, struct abi_table *t);

/**
 * golden_run() - check the inputs, then golden_matrix()
 *
 * Goldens, the redaction rules and the ABI table are validated before
 * anything is built, each bad one reported; under CI=true a pending
 * file in DIR is bad input too: nothing is built.
 *
 * Return: 0, or after printing its message SF_EXIT_USAGE for bad input
 * (a golden that cannot be parsed), SF_EXIT_UNTESTED for a golden that
 * cannot be read (verdict_exit_input()).
 */
int golden_run(struct farm *f, const struct golden_opts *o,
	       struct golden_run *run);

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

#endif
