/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the user sees of errors and progress: the one place that prints
 * them. Code below cmd/ returns a struct sf_err, or hands what cannot
 * wait to the sink ui_install() sets (lib/util.h).
 */
#ifndef SYSFARM_UI_H
#define SYSFARM_UI_H

#include "lib/options.h"
#include "lib/util.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

/*
 * Installs the sink of lib/, pipeline/ and compare/: an error as
 * "sysfarm: MESSAGE", progress as "[   1.2s] WHO: TEXT", on stderr.
 */
void ui_install(void);

/**
 * ui_error() - @e on stderr, formatted by err_format()
 * @who: "sysfarm" for "sysfarm: MESSAGE", "sysfarm diff", ..., or NULL
 *	for MESSAGE alone (a message that starts with its file, such as
 *	"matrix.yaml:12:5: unknown key 'tca'")
 */
void ui_error(const char *who, const struct sf_err *e);

/*
 * ui_fail() - @e as ui_error() prints it: as it is when it starts with
 * its file (bad input), else sysfarm's ("sysfarm: ...")
 */
void ui_fail(const struct sf_err *e);

/**
 * ui_options() - options_parse(), its outcome reported
 *
 * --help prints the usage on stdout; a bad value, an unknown option, a
 * missing value or a wrong number of operands is said in one line on
 * stderr, with the options meant and where the usage is.
 *
 * Return: the index of the first operand; 0 after --help; -1 after
 * misuse (the command exits with SF_EXIT_USAGE).
 */
int ui_options(int argc, char **argv, const struct opt_cmd *cmd,
	       void *base, const struct opt *common, void *common_base);

/**
 * ui_kcidb_usage() - --kcidb FILE and --origin NAME go together, NAME
 * KCIDB's origin (kcidb_origin_problem()); else says so on stderr as @who
 *
 * Return: 0, or -1: bad usage (SF_EXIT_USAGE).
 */
int ui_kcidb_usage(const char *who, const char *kcidb, const char *origin);

/**
 * ui_farm_load() - farm_load(), its error reported
 *
 * Reported by ui_fail(): the matrix's and the series' own messages start
 * with their file.
 *
 * Return: 0, or the exit status.
 */
int ui_farm_load(struct farm *f, char *const *names, int n);

/**
 * ui_setup() - ui_options() with farm_options, then ui_farm_load() on
 * the operands
 * @cmd: the command, its own options bound to @ctx
 * @status: the exit status to return when this returns nonzero
 *
 * Return: 0 to go on, 1 to exit with *@status (--help, bad usage or input).
 */
int ui_setup(struct farm *f, int argc, char **argv,
	     const struct opt_cmd *cmd, void *ctx, int *status);

/**
 * ui_summary() - one line per run on stdout, then each one's message and
 * the verdicts of the boots it retried
 *
 * Return: the folded exit status.
 */
int ui_summary(const struct farm *f, const struct run *runs);

#endif
