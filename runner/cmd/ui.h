/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the user sees of errors and progress: the one place that prints
 * them. Code below cmd/ returns a struct sf_err, or hands what cannot
 * wait to the sink ui_install() sets (lib/util.h).
 */
#ifndef SYSFARM_UI_H
#define SYSFARM_UI_H

#include <jansson.h>

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

/*
 * The groups of options commands share: each commands[] row (sysfarm.c)
 * names those its command takes, the others' options are refused.
 */
enum ui_group {
	GROUP_MATRIX = 1 << 0,	/* --matrix, --build-dir */
	GROUP_SOURCE = 1 << 1,	/* --series, --tarball, --kernel-src */
	GROUP_BUILD = 1 << 2,	/* -j/--jobs, --builds */
	GROUP_BOOT = 1 << 3,	/* --prebuilt, --accel, --result, --backend,
				 * --append, --timeout, --boots */
	GROUP_OUTPUT = 1 << 4,	/* --junit, --markdown, --html, --kcidb,
				 * --origin: output_opts, in the command's
				 * own options */
};

/* --no-renames and --full, diff's and upgrade's: what diff_fold() folds. */
struct fold_opts {
	int no_renames, full;
};

extern const struct opt fold_options[];

/* DIFF_FOLD_RENAMES and DIFF_FOLD_SUBTREES, but those @o turns off. */
unsigned int ui_fold(const struct fold_opts *o);

/* The groups of the command sysfarm runs: its commands[] row's. */
void ui_command(unsigned int groups);

/* The output group: reports of a results file, written by ui_output(). */
struct output_opts {
	const char *junit, *markdown, *html, *kcidb, *origin;
};

extern const struct opt output_options[];

/**
 * ui_write() - @len bytes of @text into @path, an output the user named
 * ('-': stdout), whole or not at all (file_put())
 * @text: NULL when it could not be made: errno says why
 * @append: appends, as GitHub expects of a Markdown summary
 * @who: what a message starts with: "sysfarm", "sysfarm report"
 *
 * Return: 0, or -1 when it could not be written (said, but for stdout:
 * main() says that once).
 */
int ui_write(const char *path, const char *text, size_t len, int append,
	     const char *who);

/**
 * ui_report_write() - one report of @results (@fn: report_tap(), ...)
 * made, then written by ui_write()
 *
 * Return: 0, or -1 when it could not be made or written (said).
 */
int ui_report_write(int (*fn)(FILE *, json_t *), const char *path,
		    int append, json_t *results, const char *who);

/**
 * ui_output() - @results as JUnit XML, Markdown (appended), HTML and a
 * KCIDB document (of @o->origin), into the files @o names ('-': stdout),
 * in that order, by ui_write()
 *
 * Return: 0, or -1 at the first report that could not be written.
 */
int ui_output(const struct output_opts *o, json_t *results,
	      const char *who);

/**
 * ui_options() - options_parse(), its outcome reported
 * @f: the farm the groups' options are bound to, or NULL for a command
 *	that takes none of farm.h's
 *
 * Takes the options of the groups ui_command() named besides @cmd's own.
 * --help prints the usage on stdout; a bad value, an unknown option or
 * one of a group the command does not take, a missing value or a wrong
 * number of operands is said in one line on stderr, with the options
 * meant and where the usage is.
 *
 * Return: the index of the first operand; 0 after --help; -1 after
 * misuse (the command exits with SF_EXIT_USAGE).
 */
int ui_options(int argc, char **argv, const struct opt_cmd *cmd,
	       void *base, struct farm *f);

/* An output a command writes, for ui_outputs_usage(). */
struct ui_out {
	const char *opt;	/* "--junit" */
	const char *path;	/* its FILE, '-' stdout; NULL: not asked for */
	int own;		/* the command's own, on stdout ("--tap") */
};

/**
 * ui_outputs_usage() - no two of @n outputs go to one file: stdout
 * twice, one name twice, two names of one regular file or pipe
 * (/dev/stdout and '-'), where one would garble or replace the other;
 * else says which two on stderr as @who
 *
 * Return: 0, or -1: bad usage (SF_EXIT_USAGE).
 */
int ui_outputs_usage(const char *who, const struct ui_out *v, size_t n);

/**
 * ui_output_stdout() - does one of @o's outputs go to stdout ('-')?
 *
 * A command then prints nothing else there (its table, its text).
 */
int ui_output_stdout(const struct output_opts *o);

/* The most outputs of its own a command gives ui_output_usage(). */
#define UI_OUT_OWN_MAX 2

/**
 * ui_output_usage() - @o's outputs and the command's own @nown (up to
 * UI_OUT_OWN_MAX: "--tap" on stdout, check's --results) each to a file
 * of its own (ui_outputs_usage()); --kcidb FILE and --origin NAME go
 * together, NAME KCIDB's origin (kcidb_origin_problem()); else says so
 * on stderr as @who
 *
 * Return: 0, or -1: bad usage (SF_EXIT_USAGE).
 */
int ui_output_usage(const char *who, const struct output_opts *o,
		    const struct ui_out *own, size_t nown);

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
 * ui_setup() - ui_options() with @f, then ui_farm_load() on the operands
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
