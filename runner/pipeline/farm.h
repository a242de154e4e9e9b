/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What every subcommand shares: the options, the loaded matrix, the
 * prepared source, and the stages a configuration goes through (prepare,
 * build, image, boot), each ending in a verdict.
 */
#ifndef SYSFARM_FARM_H
#define SYSFARM_FARM_H

#include "lib/options.h"
#include "lib/util.h"
#include "lib/verdict.h"
#include "pipeline/kbuild.h"
#include "pipeline/matrix.h"
#include "pipeline/source.h"

struct farm {
	const char *matrix_path;
	char *top;		/* the matrix's directory (absolute) */
	char *build;		/* build directory (absolute) */
	char *series;
	const char *tarball;
	const char *kernel_src;	/* a user's tree instead of the tarball */
	const char *accel;
	struct strv append;
	int timeout;		/* overrides the matrix when > 0 */
	int jobs;
	double t0;
	int uses_source;	/* builds kernels: the series must be valid,
				 * the build directory is locked */
	int lock_fd;

	struct matrix m;
	struct source src;
	int src_state;		/* 0 not yet, 1 ready, -1 failed */
	struct sf_err src_err;

	size_t *sel;		/* selected configurations */
	size_t nsel;

	int builds;		/* kernels built at a time */
	struct prebuilt *pre;	/* farm_build_all()'s outcomes */
	size_t npre;
};

/* One build key's kernel, built by farm_build_all(). */
struct prebuilt {
	const struct config *c;	/* the first configuration with the key */
	char key[sizeof(((struct config *)0)->key)];
	enum kbuild_status st;
	double seconds;
	struct sf_err why;
	int claimed;		/* farm_build() reported it once */
};

/* The outcome of one configuration's stages. */
struct result {
	enum verdict v;
	struct sf_err why;	/* for anything but success */
	double seconds;
	double build_seconds;	/* make, when the kernel was not up to date */
	double boot_seconds;	/* initramfs, QEMU, until the verdict */
	int built;		/* make ran */
};

void farm_init(struct farm *f);

/*
 * The options every command that loads the matrix takes, bound to the
 * fields of struct farm: the one place to add one.
 */
extern const struct opt farm_options[];

/**
 * farm_summary() - print one line per selected configuration
 * @results: indexed like f->sel
 *
 * Return: the folded exit status.
 */
int farm_summary(const struct farm *f, const struct result *results);

/**
 * farm_setup() - options_parse() with farm_options, then farm_load() on
 * the operands
 * @cmd: the command, its own options bound to @ctx
 * @status: the exit status to return when this returns nonzero
 *
 * Return: 0 to go on, 1 to exit with *@status (--help, bad usage or input).
 */
int farm_setup(struct farm *f, int argc, char **argv,
	       const struct opt_cmd *cmd, void *ctx, int *status);

/**
 * farm_stages_main() - `sysfarm build` (@boot 0) and `sysfarm run` (1)
 *
 * Return: the exit status.
 */
int farm_stages_main(int argc, char **argv, const struct opt_cmd *cmd,
		     int boot);

/**
 * farm_load() - load the matrix and select configurations
 * @names: configuration names; none means all
 *
 * Prints its error. Return: 0, or an exit status.
 */
int farm_load(struct farm *f, char *const *names, int n);

/* Switches to another series: the next build prepares the tree again. */
void farm_set_series(struct farm *f, const char *series);

/* Prints "[   1.2s] CONFIG: what" to stderr. */
void farm_progress(const struct farm *f, const struct config *c,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* build/out/<config>, created. */
char *farm_outdir(const struct farm *f, const struct config *c);

/**
 * farm_build_all() - build the selected configurations' kernels up front,
 * @f->builds distinct build keys at a time, each in a forked worker
 *
 * On 2 cores one make -j2 leaves a core idle while it configures, links
 * and runs objtool; a second build fills it. The makes share @f->jobs
 * tokens of one GNU make jobserver, so together they never run more jobs
 * than one make -j@f->jobs would. farm_build() then hands each
 * configuration its kernel's outcome. Does nothing for fewer than two keys
 * or --builds 1.
 */
void farm_build_all(struct farm *f);

/*
 * Stages: each fills @r and returns 0 to go on, -1 when @r has a verdict.
 * farm_build() starts @r afresh.
 */
int farm_build(struct farm *f, const struct config *c, struct result *r);
int farm_boot(struct farm *f, const struct config *c, struct result *r);

/* Writes outdir/result.json for @c. */
void farm_result_save(const struct farm *f, const struct config *c,
		      const struct result *r);

void farm_release(struct farm *f);

#endif
