/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the commands that load the matrix share: the options of the groups
 * they take, the build directory's lock, the loaded matrix and its
 * selection, the prepared source. The stages a
 * configuration goes through are run.h's.
 */
#ifndef SYSFARM_FARM_H
#define SYSFARM_FARM_H

#include "lib/options.h"
#include "lib/util.h"
#include "lib/verdict.h"
#include "pipeline/kbuild.h"
#include "pipeline/matrix.h"
#include "pipeline/fetch.h"
#include "pipeline/source.h"

/*
 * A kernel source the selected configurations build: a tarball and its
 * series (the matrix's `source:`, or --tarball and --series), or a user's
 * tree. Prepared once per run, for the first configuration that needs it.
 */
struct farm_source {
	char *name;		/* source_name(), also for a user's tree */
	char *tarball;		/* NULL for a user's tree */
	char *package;		/* the Debian package, for messages; or NULL */
	int fetch;		/* fetched from a suite: tarball is NULL
				 * until farm_load() has fetched it */
	struct fetch_spec spec;	/* then: borrowed from its configuration */
	struct fetched got;	/* what was fetched */
	char *series;		/* absolute */
	char *root;		/* BUILD/sources/NAME */
	struct source src;
	int state;		/* 0 not yet, 1 ready, -1 failed */
	struct sf_err err;
};

struct farm {
	const char *matrix_path;
	char *top;		/* the matrix's directory (absolute) */
	char *build;		/* build directory (absolute) */
	char *series;		/* --series: every source's series */
	const char *tarball;	/* --tarball: every configuration's source */
	const char *kernel_src;	/* a user's tree instead of the tarball */
	int prebuilt;		/* boot the kernels a build left, build none */
	char *tree_build;	/* BUILD/tree: where a user's tree is built */
	const struct config *tree_match;	/* a configuration of the
						 * source the tree goes with
						 * (tree_pick()), or NULL */
	const char *accel;
	const char *result;	/* "channel" or "console": the transport,
				 * not an input (not in the header) */
	const char *backend;	/* "qemu", "lava" or "lab" (run.h's
				 * boot_ops): not an input either */
	struct strv append;
	int timeout;		/* overrides the matrix when > 0 */
	int jobs;
	double t0;
	int uses_source;	/* builds kernels: the series must be valid,
				 * the build directory is locked, fetched
				 * sources fetched (unless --prebuilt) */
	int fetch_refresh;	/* `sysfarm fetch`: the build directory
				 * locked, fetched sources fetched, unpinned
				 * ones at the suite's current version */
	int lock_fd;

	struct matrix m;
	struct farm_source *srcs;	/* the selected configurations' */
	size_t nsrcs;

	size_t *sel;		/* selected configurations */
	size_t nsel;
	size_t *src_of;		/* per selected configuration: its srcs[] */

	struct kbuild kb;	/* how kernels are built here, for them all */
	int builds;		/* kernels built at a time */
	int boots;		/* configurations booted at a time */
};

void farm_init(struct farm *f);

/*
 * The options commands that load the matrix share, bound to the fields
 * of struct farm, in groups: cmd/ui.c parses those of the groups a
 * command takes (its commands[] row) with the command's own. The matrix
 * and the build directory; the kernel source; how kernels are built; how
 * they are booted.
 */
extern const struct opt farm_matrix_options[];
extern const struct opt farm_source_options[];
extern const struct opt farm_build_options[];
extern const struct opt farm_boot_options[];

/**
 * farm_load() - load the matrix and select configurations
 * @names: configuration names; none means all
 *
 * When the build directory is in use, says so through the sink and
 * waits (lib/util.h).
 *
 * Return: 0, or an exit status with @err set.
 */
int farm_load(struct farm *f, char *const *names, int n,
	      struct sf_err *err);

/* @c's series in the matrix (source.series, or patches/series), malloc'd. */
char *farm_matrix_series(const struct farm *f, const struct config *c);

/* The source of the @s-th selected configuration. */
struct farm_source *farm_source(const struct farm *f, size_t s);

/*
 * The tree @fs is prepared in, or was by an earlier run
 * (BUILD/sources/NAME/src, a user's tree's copy under BUILD/tree):
 * malloc'd. Whether it is there is the caller's to find out.
 */
char *farm_source_tree(const struct farm_source *fs);

/**
 * farm_source_prepare() - extract and patch @fs's tree, once per run
 *
 * Return: 0, or -1 with @fs->err saying why (BUILD-FAIL).
 */
int farm_source_prepare(struct farm *f, struct farm_source *fs);

/*
 * farm_source_prepare() in three, for a preparation in a worker
 * (run.c's build pool): the progress line that says it begins, the work
 * (silent; done again in the parent after the worker, it reads what the
 * worker made from the tree's state, or fails again to say why), the
 * line that says what was prepared.
 */
void farm_source_begin(const struct farm *f, const struct farm_source *fs);
int farm_source_work(struct farm *f, struct farm_source *fs);
void farm_source_end(const struct farm *f, const struct farm_source *fs);

/* Switches to another series: the next build prepares the tree again. */
void farm_set_series(struct farm *f, const char *series);

/* "CONFIG: what" (or "sysfarm: what") to the sink's progress. */
void farm_progress(const struct farm *f, const struct config *c,
		   const char *fmt, ...) __attribute__((format(printf, 3, 4)));

void farm_release(struct farm *f);

#endif
