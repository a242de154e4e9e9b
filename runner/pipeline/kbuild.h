/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Kernel builds: tinyconfig + fragments through merge_config.sh +
 * olddefconfig, verified like kunit_tool's validate_config, built with
 * ccache in build/kernels/<key>/.
 *
 * The build key hashes what decides the .config and the object code: the
 * source (the matrix's kernel.tarball and kernel.series, by name), the
 * arch, the cross compiler and its version, the fragments' contents. It
 * leaves the patch series out on purpose: a series change is applied to the
 * shared tree file by file (source.h), so the next build of the same key is
 * incremental. Stamps in the build directory record what the .config was
 * made from (the tarball, the fragments and the Kconfig inputs a series
 * touched: source.h's kconfig_id), so that a series changing only code
 * configures nothing again (about 17 s a kernel here), and the source
 * content and .config a build was made from, so that nothing is rebuilt
 * when neither changed. Each build, or finding it up to date, writes
 * sysfarm-kernel.json beside the kernel: its key, the configuration's
 * kernel id (the key but the compiler's version, so that a machine
 * without the compiler finds it: kbuild_prebuilt()) and the inputs a
 * snapshot's header names.
 */
#ifndef SYSFARM_KBUILD_H
#define SYSFARM_KBUILD_H

#include <jansson.h>

#include "lib/util.h"
#include "pipeline/matrix.h"
#include "pipeline/source.h"

struct kbuild {
	const char *build;	/* the build directory (absolute): its
				 * kernels/, ccache's base directory */
	const char *cache;	/* whose ccache/ it uses; NULL: @build's */
	int jobs;		/* make -jN, without a jobserver */
	const int *jobserver;	/* NULL, or the pipe of a GNU make jobserver
				 * shared with other builds: its tokens are
				 * the jobs of all of them */
	const char *log_prefix;	/* for progress lines */
	/* Or NULL: called about every 20 ms while make runs (progress) */
	void (*watch)(void *arg);
	void *watch_arg;
};

enum kbuild_status {
	KBUILD_OK,
	KBUILD_UP_TO_DATE,
	KBUILD_CONFIG_FAIL,	/* @err names every dropped option */
	KBUILD_FAIL,		/* @err has the log's last lines */
};

/**
 * kbuild_check_cross_compile() - is @prefix usable as CROSS_COMPILE?
 *
 * A toolchain prefix is an absolute path or a name looked up in PATH, of
 * letters, digits and _./+- only (at most 255): it reaches make's shell
 * through CROSS_COMPILE= and CC=, and must stay one word there.
 *
 * Return: 0, or -1 with @err saying what is wrong, to follow the name of
 * the setting ("holds ';': ...").
 */
int kbuild_check_cross_compile(const char *prefix, struct sf_err *err);

/**
 * kbuild_check_matrix() - kbuild_check_cross_compile() on the
 * cross_compile of every configuration of @m
 * @err: "MATRIX:LINE:COL: kernel.cross_compile of 'AXIS: VALUE' ..." at
 *	the axis value that set it, or "MATRIX: kernel.cross_compile of
 *	configuration 'NAME' ..." when it came from `defaults` or an
 *	`include` entry
 *
 * Return: 0, or -1 with @err set (bad input).
 */
int kbuild_check_matrix(const struct matrix *m, struct sf_err *err);

/**
 * kbuild_fragment_options() - the options @c's fragments set to y or m
 *
 * The build verifies that each of them survives in the final .config
 * (CONFIG-FAIL otherwise), so they hold in any kernel that booted.
 *
 * Return: 0, or -1 with @err naming the fragment that cannot be read.
 */
int kbuild_fragment_options(const struct matrix *m, const struct config *c,
			    struct strv *options, struct sf_err *err);

/**
 * kbuild_key() - compute @c->key
 *
 * A compiler that does not tell its version is hashed as "unknown": the
 * key of a configuration that is not built is still shown, and
 * kbuild_compiler() says why to those that are.
 *
 * Return: 0, or -1 with @err set (a fragment that cannot be read).
 */
int kbuild_key(const struct matrix *m, struct config *c, struct sf_err *err);

/**
 * kbuild_compiler() - the first line of the configuration's
 * "<cross>gcc --version"
 *
 * Return: the version (cached), or NULL with @err set.
 */
const char *kbuild_compiler(const struct config *c, struct sf_err *err);

/**
 * kbuild_prebuilt() - the kernel a build left for @c in @build
 * @dir: its directory (malloc'd)
 * @inputs: what its manifest says it was made of, for a snapshot's header
 *
 * Found by @c->kernel, which needs neither the source nor the compiler:
 * a check job boots the kernel a build job made. Of two, the one built or
 * found up to date last.
 *
 * Return: 0, or -1 with @err saying where none was.
 */
int kbuild_prebuilt(const char *build, const struct config *c, char **dir,
		    json_t **inputs, struct sf_err *err);

/*
 * kbuild_inputs() - what the build wrote beside the kernel in @kdir
 * (its "inputs"), for a snapshot's header. Return: 0, or -1 with @err.
 */
int kbuild_inputs(const char *kdir, json_t **inputs, struct sf_err *err);

/* BUILD/kernels/KEY (path_kernel()) for @c built from @src, malloc'd. */
char *kbuild_dir(const struct kbuild *kb, const struct config *c,
		 const struct source *src);

/**
 * kbuild_clean() - empty @c's kernel directory (kbuild_dir()) but for its
 *	.config and the stamps that say what it was made from
 *
 * The next build compiles every object again, none of an earlier build
 * reused, from the compiler cache where it has them: the directory stays
 * where it was, and its paths are ccache's key. A bisection's culprit is
 * verified so. Nothing to empty is no error.
 *
 * Return: 0, or -1 with @err naming what could not be removed.
 */
int kbuild_clean(const struct kbuild *kb, const struct config *c,
		 const struct source *src, struct sf_err *err);

/**
 * kbuild_objects() - about how many objects a build of @c compiles: the
 * count the last build in its directory left, else that of the newest
 * build of the same arch from the same tree, else 0 (unknown)
 */
unsigned long kbuild_objects(const struct kbuild *kb, const struct config *c,
			     const struct source *src);

/**
 * kbuild_run() - configure, verify and build @c's kernel if needed
 * @err: on failure, what failed and the evidence (log tail)
 */
enum kbuild_status kbuild_run(const struct kbuild *kb, const struct matrix *m,
			      const struct config *c, const struct source *src,
			      struct sf_err *err);

#endif
