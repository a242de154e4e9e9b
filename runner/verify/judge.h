/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one judge: a snapshot against its golden, the ABI table and the
 * allowed additions, one verdict and the classed diff. check, update,
 * bisect and review call judge_snapshot(), so that an addition one of
 * them lets pass passes in all of them; a second boot's snapshot is held
 * to the first by judge_confirm(). Nothing here prints.
 */
#ifndef SYSFARM_JUDGE_H
#define SYSFARM_JUDGE_H

#include <jansson.h>

#include "compare/abi.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "lib/verdict.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

/* What a snapshot is held to, besides its golden. */
struct judge {
	const struct matrix *m;		/* the configurations' fragments, for
					 * the table's CONFIG_ rows */
	const struct redactions *reds;	/* normalize both sides */
	const struct abi_table *abi;	/* NULL, or no ->path: no table */
	int allow_added;		/* every addition is allowed
					 * (--allow-added) */
	struct abi_docs_set *docs;	/* the trees' Documentation/ABI, read
					 * once each; NULL: no statuses */
	int hold;			/* the table's findings count: a PASS
					 * it finds fault with is ABI-MISMATCH
					 * (check, review); else the table only
					 * allows additions (update, bisect) */
};

/* A judge's verdict on one snapshot. */
struct judgement {
	enum verdict v;			/* PASS, DIFF, NEW, ABI-MISMATCH or
					 * CORRUPT (a file that cannot be read) */
	struct sf_err why;		/* set for all but a PASS without
					 * changes */
	struct diff diff;		/* classed; allowed ones marked */
	struct strv inputs_changed;	/* "name: old -> new" lines */
	struct abi_findings found;	/* with ->hold and a table */
};

#define JUDGEMENT_INIT { .why = SF_ERR_INIT, .diff = DIFF_INIT, \
			 .inputs_changed = STRV_INIT, \
			 .found = ABI_FINDINGS_INIT }

/**
 * judge_snapshot() - @snap, configuration @c's, against its golden
 * @tree: the kernel tree @snap's kernel was built from (its
 *	Documentation/ABI gives each change its status), or NULL
 * @golden: the golden's path (read through golden_read()); missing: NEW
 * @name: @snap's file, for messages
 * @out: initialised (JUDGEMENT_INIT), filled
 *
 * The header's inputs are compared on their own (a kernel update is not
 * an ABI change). Every change is classed (removed, changed, added:
 * diff.h) and carries its status in @tree's Documentation/ABI
 * (abi_docs_mark()); a change a status rule of the table allows for its
 * class (abi_policy_allows()) is allowed; an addition under a sysfs root is allowed, shown but not
 * counted, with @j->allow_added or where the table's row for its path
 * says `allow: {added: REASON}`; a snapshot whose changes are all allowed
 * is PASS. With @j->hold, the table's findings are gathered for any
 * PASS, DIFF or NEW, and turn a PASS into ABI-MISMATCH; a fragment that
 * cannot be read is CORRUPT then.
 */
void judge_snapshot(const struct judge *j, const struct config *c,
		    const char *tree, const char *golden, const char *name,
		    json_t *snap, struct judgement *out);

void judgement_release(struct judgement *jd);

/**
 * judge_confirm() - do two boots of one kernel give the same snapshot?
 * @first, @second: the snapshots, both checked, with their files' names
 * @reds: the rules both are normalized by
 * @why: when they disagree, names the paths that differ (at most 5) and
 *	both files
 *
 * Return: 1 when they agree, 0 when they do not (FLAKY) with @why set.
 */
int judge_confirm(json_t *first, const char *first_name, json_t *second,
		  const char *second_name, const struct redactions *reds,
		  struct sf_err *why);

/**
 * golden_confirm() - is @r's DIFF or ABI-MISMATCH what its kernel does?
 * @snap: the second boot's snapshot (borrowed), or NULL when it gave none
 * @again: that boot's result (run_hooks' confirmed hook gives both)
 * @reds: the rules both snapshots are normalized by
 *
 * Holds the second snapshot to @r's first (judge_confirm()), its retries
 * and boot time added to @r's: a verdict is only reported once the same
 * kernel gives it twice. When they disagree, or the second boot gives
 * none, @r becomes FLAKY (could not test), its message naming the paths
 * that differ and both snapshot files, which stay.
 *
 * Return: 1 when the second snapshot is the first's, else 0.
 */
int golden_confirm(struct run *r, json_t *snap, struct result *again,
		   const struct redactions *reds);

#endif
