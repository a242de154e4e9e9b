/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The upgrade review: the ABI delta between configurations one axis value
 * apart, each configuration's golden (or snapshot) loaded once, the
 * changes several pairs share merged into one entry.
 */
#ifndef SYSFARM_VERIFY_UPGRADE_H
#define SYSFARM_VERIFY_UPGRADE_H

#include <stdio.h>
#include <jansson.h>

#include "compare/abi.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "lib/util.h"
#include "pipeline/farm.h"
#include "verify/origin.h"

/* Two configurations, from (value A of the axis) to (value B). */
struct upgrade_pair {
	size_t from, to;	/* into m.configs */
	size_t va, vb;		/* into the axis's values */
	const char *missing;	/* the configuration without a snapshot */
};

/*
 * One change of one pair; after merging, one entry and every pair it is
 * in. @c's strings are owned, moved from the pair's struct diff.
 */
struct upgrade_delta {
	enum diff_class cls;	/* what it means for userland; the order
				 * entries are printed in */
	const char *kind;	/* file dir link other node probe kmsg sysfs */
	struct diff_change c;
	size_t seq;		/* the order it was found in */
	size_t *pairs;		/* into the pairs, ascending */
	size_t npairs;
};

/* A side that could not be loaded: the pairs it is in are not compared. */
struct upgrade_miss {
	size_t config;		/* into m.configs */
	int ret;		/* INPUT_EIO or INPUT_EBAD (lib/util.h) */
	struct sf_err err;
};

struct upgrade {
	const struct farm *f;
	size_t axis;
	struct upgrade_pair *pairs;
	size_t npairs;
	const char *what;		/* "golden" or "snapshot" */
	json_t **snaps;			/* each configuration's */
	struct upgrade_miss *miss;	/* in the order they were tried */
	size_t nmiss;
	struct upgrade_delta **v;	/* the entries, as printed */
	size_t n, alloc;
	size_t counts[DIFF_CLASS_NR];
	struct abi_docs_set docs;	/* the sides' trees' Documentation/ABI */
	/*
	 * Where each file entry's attribute is defined (verify/origin.h):
	 * the compared configurations' source trees, each once; shown when
	 * one of them is prepared.
	 */
	struct origin_tree *trees;
	size_t ntrees;
	size_t *tree_of;		/* per configuration, or SIZE_MAX */
	int origins;
};

/* What is reviewed: the axis, the values, where the goldens are. */
struct upgrade_req {
	const char *axis;		/* the axis the pairs differ in */
	const char *from, *to;		/* values of it, or NULL */
	const char *goldens;		/* DIR/CONFIG.json, or NULL for the
					 * last run's BUILD/out/CONFIG/
					 * snapshot.json */
	const struct redactions *rules;	/* applied to both sides */
	unsigned int fold;		/* what diff_fold() folds */
	int no_origin;			/* look for no attribute's origin */
};

/**
 * upgrade_pairs() - the pairs of selected configurations one value apart
 * @f: the loaded matrix and the selection; a pair is kept when either
 *	side is selected
 *
 * @rq->from and @rq->to; @rq->from to the next value; the one before
 * @rq->to to it; or each value of the axis to the next.
 *
 * Return: 0, or -1 with @err set (bad usage: an axis or value that is
 * none, the same value twice, no pair at all).
 */
int upgrade_pairs(struct upgrade *u, const struct farm *f,
		  const struct upgrade_req *rq, struct sf_err *err);

/**
 * upgrade_compare() - upgrade's comparison: the delta from @from to @to
 *
 * snap_diff() with @rules on both sides, as check compares; nothing is
 * allowed: an upgrade review shows every addition, classed (the ABI
 * table's allowances are check's, about one kernel against its golden).
 * Goes to the one judge once there is one.
 */
void upgrade_compare(json_t *from, json_t *to, const struct redactions *rules,
		     struct diff *d);

/**
 * upgrade_review() - load both sides of every pair, compare, merge
 *
 * Each configuration is read once; one that cannot be read or parsed is
 * in @u->miss and the pairs it is in are not compared. Each change gets
 * its Documentation/ABI status from the tree of its side (a removal the
 * old side's, the rest the new side's) where that side is selected and
 * its tree prepared, else none. Every change of a
 * compared pair becomes an entry; an entry several pairs share is one,
 * with all its pairs. Entries are sorted by their pairs (the most first),
 * class, then the order they were found in. Unless @rq->no_origin, each
 * file entry's attribute is looked for in both sides' source trees
 * (BUILD/sources/NAME/src), each tree scanned once.
 *
 * Return: the exit status (lib/exitcode.h, folded by verdict_exit_fold()):
 * 2 a side cannot be parsed (then nothing is compared), else 1 a delta,
 * 125 a side cannot be read, 0 neither.
 */
int upgrade_review(struct upgrade *u, const struct upgrade_req *rq);

/* Text, or Markdown with @md: the summary, per group of pairs its entries. */
void upgrade_print(FILE *out, const struct upgrade *u, int md);

/* The pairs and the entries as one JSON object (a new reference). */
json_t *upgrade_json(const struct upgrade *u);

void upgrade_release(struct upgrade *u);

#endif
