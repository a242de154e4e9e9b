/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel tree to build: a Debian linux-source tarball extracted once
 * under BUILD/sources/NAME/src with its series applied, or a user's own
 * tree. Each source of the matrix (linux-source-6.1, -6.12, ...) has its
 * own directory, named after its tarball.
 *
 * Applying a new series rewrites only the files whose content changes, so
 * that kbuild recompiles only what the patches touch: a bisect step or a
 * one-line patch edit costs an incremental build, not a cold one.
 */
#ifndef SYSFARM_SOURCE_H
#define SYSFARM_SOURCE_H

#include <jansson.h>

#include "lib/util.h"

struct source {
	char *dir;		/* absolute path of the tree */
	char *version;		/* "PACKAGE VERSION", or "external" */
	char *sha256;		/* of the fetched .deb or of the tarball;
				 * NULL for a user's tree */
	char *series_hash;	/* of the applied series, "" when none */
	char *content_id;	/* same id <=> same tree content; NULL when
				 * unknown (external trees) */
	char *tarball_id;	/* the extracted tarball (size and mtime);
				 * NULL for external trees */
	char *kconfig_id;	/* same id <=> same configuration inputs
				 * (the tarball, the Kconfig files a series
				 * touched); NULL when content_id is */
};

#define SOURCE_INIT { 0 }

/*
 * source_series_hash() - the series_hash a tree patched with @series has
 * (each patch's name and content), read from the series alone.
 * Return: 0 with @hex malloc'd, or -1 with @err.
 */
int source_series_hash(const char *series, char **hex, struct sf_err *err);

/*
 * What a kernel's manifest says of its source (kbuild.h), a new object:
 * "source" (@src's version), "series" (its hash) and, when it has one,
 * "source_sha256".
 */
json_t *source_inputs(const struct source *src);

/**
 * source_patchset_hash() - the patchset hash KCIDB defines for @series:
 * the sha256 over each patch's sha256 (hex, newline-terminated, in
 * order), as `sha256sum *.patch | cut -c-64 | sha256sum` gives
 * @sums: where those lines are written (path_patchset_sums()), whose
 *	sha256 it is
 *
 * An empty series gives "" (KCIDB: no patches applied).
 * Return: 0 with @hex set, or -1 with @err.
 */
int source_patchset_hash(const char *series, const char *sums,
			 char hex[65], struct sf_err *err);

/* A configuration's tarball when the matrix names none. */
#define SOURCE_DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"


/**
 * source_name() - the name of a tarball's source: its file name less the
 *	".tar" or ".tar.*" ending ("linux-source-6.1")
 *
 * Return: the name (malloc'd), or NULL when @tarball has no such ending.
 */
char *source_name(const char *tarball);

/* Where a tarball came from, when it was fetched (pipeline/fetch.h). */
struct source_origin {
	const char *version;	/* "PACKAGE VERSION" */
	const char *sha256;	/* of its .deb */
};

/**
 * source_prepare() - extract the tarball if needed and apply a series
 * @src: filled on success
 * @root: the source's own directory, path_source() (absolute): the tree
 *	is its src/, beside what preparing it keeps (pristine/, logs, the
 *	tarball's sha256)
 * @tarball: e.g. /usr/src/linux-source-6.1.tar.xz
 * @origin: a fetched tarball's version and sha256, or NULL: the version
 *	dpkg has installed (or the tree's, for a tarball no package owns)
 *	and the tarball's own sha256
 * @series: the series file; its patches are named relative to it
 * @err: "PATCH: does not apply to FILE ..." and the like
 *
 * Return: 0; -2 for bad input (a series naming a missing file, with
 * FILE:LINE:COL); -1 for a patch that does not apply or a failed
 * extraction.
 */
int source_prepare(struct source *src, const char *root,
		   const char *tarball, const struct source_origin *origin,
		   const char *series, struct sf_err *err);

/**
 * source_prepare_tree() - a private copy of a user's tree with a series
 * @root: as source_prepare()'s; the copy is its src/
 * @dir: the user's tree, only read: its git status stays clean
 *
 * The first call copies the whole tree (but .git); later ones rewrite
 * only the files that differ, keeping the tree's mtimes, so that a bisect
 * step after a checkout rebuilds what the checkout changed. The series is
 * applied as source_prepare() applies it; an empty one leaves the copy as
 * the tree is. @src->content_id is NULL: make decides what is up to date.
 *
 * Return: as source_prepare(); -1 also for @dir that is no kernel tree.
 */
int source_prepare_tree(struct source *src, const char *root,
			const char *dir, const char *series,
			struct sf_err *err);

/**
 * source_external() - use @dir as it is (git bisect run in a user's
 * checkout)
 * @err: "'DIR': No such file or directory", "'DIR': Not a directory" or
 *	"'DIR' is not a kernel tree (no Makefile)"
 *
 * Return: 0, or -1 with @err set: @dir is bad input.
 */
int source_external(struct source *src, const char *dir, struct sf_err *err);

void source_release(struct source *src);

/**
 * series_read() - the patch files a series names, in order
 * @series: the series file
 * @patches: absolute paths appended here
 * @subjects: if not NULL, each patch's Subject: line appended here
 *
 * Return: 0, or -1 with "FILE:LINE:COL: ..." in @err.
 */
int series_read(const char *series, struct strv *patches,
		struct strv *subjects, struct sf_err *err);

#endif
