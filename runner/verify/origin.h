/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Where an attribute comes from: the places in a kernel tree that define
 * a sysfs attribute file of a given name with one of the kernel's
 * attribute macros (`__ATTR(affinity_scope, ...)` in kernel/workqueue.c),
 * found by name, never guessed: one place, none, or several.
 */
#ifndef SYSFARM_VERIFY_ORIGIN_H
#define SYSFARM_VERIFY_ORIGIN_H

#include <stddef.h>

#include "lib/util.h"

/* One definition: "kernel/workqueue.c", 7473, "__ATTR(affinity_scope, ...)" */
struct origin_site {
	char *file;		/* relative to the tree */
	size_t line;
	char *macro;		/* the macro and its first argument */
};

/* Every definition of one name in one tree. */
struct origin_def {
	char *name;
	struct origin_site *v;	/* by file, then line */
	size_t n;
};

/* One kernel tree and what it defines of the names looked for. */
struct origin_tree {
	char *name;		/* its source's, BUILD/sources/NAME */
	char *dir;		/* the tree, BUILD/sources/NAME/src */
	int prepared;		/* the tree is there */
	size_t kernels;		/* the kernels built from it whose compiled
				 * files were scanned; 0: every *.c */
	size_t files;		/* the files scanned */
	struct origin_def *defs;	/* by name */
	size_t ndefs;
};

/**
 * origin_tree_scan() - the definitions of @names in tree @t->dir
 * @build: the build directory: the files its kernels built from this
 *	tree compiled (BUILD/kernels/KEY/source leads to the tree) are what
 *	can define an attribute a guest showed; with none, every *.c of it
 * @names: the attribute names looked for
 *
 * A definition is a call of an attribute macro (__ATTR, __ATTR_RO,
 * DEVICE_ATTR_RW, BIN_ATTR, CLASS_ATTR_WO, ...: a family or the family,
 * '_' and an upper-case suffix) whose first argument is the name itself.
 * A tree that is not there is left unprepared, with nothing found. Only
 * its regular files of at most INPUT_MAX_BLOB whose real path is inside
 * it are read; a site's file is named as diff_text_clean() shows it.
 */
void origin_tree_scan(struct origin_tree *t, const char *build,
		      const struct strv *names);

/* The definitions of @name in @t, or NULL when it was not looked for. */
const struct origin_def *origin_tree_find(const struct origin_tree *t,
					  const char *name);

void origin_tree_release(struct origin_tree *t);

#endif
