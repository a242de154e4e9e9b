// SPDX-License-Identifier: GPL-2.0
/* The one judge: a snapshot against its golden, the ABI table, a rerun. */
#include <stdlib.h>
#include <string.h>

#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"
#include "pipeline/kbuild.h"
#include "verify/judge.h"
#include "verify/store.h"

/* One "name: old -> new" line per input that differs. */
static void inputs_compare(json_t *golden, json_t *snap, struct strv *out)
{
	json_t *gi = json_object_get(json_object_get(golden, "header"),
				     "inputs");
	json_t *si = json_object_get(json_object_get(snap, "header"),
				     "inputs");
	const char *key;
	json_t *v;

	json_object_foreach(si, key, v) {
		const char *old = json_string_value(json_object_get(gi, key));
		const char *new = json_string_value(v);

		if (!old || !new || strcmp(old, new))
			strv_pushf(out, "%s: %s -> %s", key,
				   old ? old : "(not recorded)",
				   new ? new : "(not recorded)");
	}
}

/*
 * Allows the changes of @d that do not fail: any change whose
 * Documentation/ABI status a status rule of the table allows for its
 * class (abi_policy_allows()); else additions of entries of the sysfs
 * roots only (removals, changes, new kmsg lines and probe records count),
 * where the table's row says so (tied to @snap's release) or, with @all,
 * every one.
 */
static void allow_added(const struct abi_table *t, int all, json_t *snap,
			struct diff *d)
{
	const char *release = json_string_value(json_object_get(
		json_object_get(snap, "header"), "release"));

	for (size_t i = 0; i < d->n; i++) {
		struct diff_change *c = &d->v[i];
		const char *why;

		/* a status rule (any class) first: its reason is shown */
		why = t ? abi_policy_allows(t, diff_class_of(c->kind), c->abi) :
			  NULL;
		if (why)
			diff_allow(c, why);
		/* sysfs entries only: a new kernel line or probe counts */
		if (c->kind != DIFF_ADDED || !diff_in_roots(c->path))
			continue;
		why = t ? abi_allowed_added(t, c->path, release) : NULL;
		if (why)
			diff_allow(c, why);
		else if (all)
			diff_allow(c, "--allow-added");
	}
}

/* PASS, DIFF or NEW: the snapshot against its golden, inputs apart. */
static void judge_golden(const struct judge *j, const char *tree,
			 const char *golden, const char *name, json_t *snap,
			 struct judgement *out)
{
	const struct abi_docs *docs = j->docs ? abi_docs_get(j->docs, tree) :
						NULL;

	json_t *gj = NULL;

	if (!path_exists(golden)) {
		out->v = V_NEW;
		err_set(&out->why, "no golden %s yet", golden);
		return;
	}
	if (golden_read(golden, &gj, &out->why) ||
	    snap_check(name, snap, &out->why)) {
		out->v = V_CORRUPT;
		goto out;
	}
	inputs_compare(gj, snap, &out->inputs_changed);
	snap_diff(gj, snap, j->reds, &out->diff);
	/* one tree: a removal's status is the golden's tree's, as it is */
	abi_docs_mark(docs, docs, &out->diff);
	allow_added(j->abi, j->allow_added, snap, &out->diff);
	/* each path allowed (or not) first; shown and counted folded */
	diff_fold(&out->diff, DIFF_FOLD_ALL);
	out->v = diff_count(&out->diff) ? V_DIFF : V_PASS;
	if (out->diff.n) {
		char *summary = diff_summary(&out->diff);

		err_set(&out->why, "%s against %s", summary, golden);
		free(summary);
	}
out:
	json_decref(gj);
}

/* Holds a snapshot to the ABI table: PASS becomes ABI-MISMATCH. */
static void judge_abi(const struct judge *j, const struct config *c,
		      const char *name, json_t *snap, struct judgement *out)
{
	struct strv kconfig = STRV_INIT;
	struct sf_err err = SF_ERR_INIT;
	size_t n;

	if (kbuild_fragment_options(j->m, c, &kconfig, &err) ||
	    snap_check(name, snap, &err)) {
		/* Its message, not the comparison's */
		out->v = V_CORRUPT;
		out->why = err;
		goto out;
	}
	abi_check(j->abi, snap, &kconfig, NULL, &out->found);
	n = abi_count(&out->found);
	if (n && out->v == V_PASS) {
		/* the table's findings first, allowed additions after */
		char allowed[ERR_FORMAT_MAX];

		err_format(&out->why, allowed, sizeof(allowed));
		err_clear(&out->why);
		out->v = V_ABI_MISMATCH;
		err_set(&out->why, "%zu finding%s against %s%s%s", n,
			n == 1 ? "" : "s", j->abi->path,
			*allowed ? "; " : "", allowed);
	}
out:
	strv_release(&kconfig);
}

void judge_snapshot(const struct judge *j, const struct config *c,
		    const char *tree, const char *golden, const char *name,
		    json_t *snap, struct judgement *out)
{
	judge_golden(j, tree, golden, name, snap, out);
	if (j->hold && j->abi && j->abi->path &&
	    verdict_exit(out->v) != SF_EXIT_UNTESTED)
		judge_abi(j, c, name, snap, out);
}

void judgement_release(struct judgement *jd)
{
	diff_release(&jd->diff);
	strv_release(&jd->inputs_changed);
	abi_findings_release(&jd->found);
}

/* At most this many of the paths two boots disagree on, in the message */
#define FLAKY_PATHS 5

int judge_confirm(json_t *first, const char *first_name, json_t *second,
		  const char *second_name, const struct redactions *reds,
		  struct sf_err *why)
{
	struct diff d = DIFF_INIT;
	char *paths = xstrdup("");
	int agree;

	snap_diff(first, second, reds, &d);
	agree = !d.n;
	for (size_t i = 0; i < d.n && i < FLAKY_PATHS; i++) {
		char *q = diff_quote(d.v[i].path, strlen(d.v[i].path));
		char *more = xstrfmt("%s%s%s", paths, i ? ", " : "", q);

		free(q);
		free(paths);
		paths = more;
	}
	if (!agree)
		err_set(why, "two boots of one kernel disagree on %zu path%s: %s%s (%s, %s)",
			d.n, d.n == 1 ? "" : "s", paths,
			d.n > FLAKY_PATHS ? ", ..." : "", first_name,
			second_name);
	free(paths);
	diff_release(&d);
	return agree;
}

int golden_confirm(struct run *r, json_t *snap, struct result *again,
		   const struct redactions *reds)
{
	struct result *res = &r->res;
	char *confirm = path_snapshot_confirm(r->out);
	struct sf_err why = SF_ERR_INIT;
	int confirmed = 0;

	res->boot_seconds += again->boot_seconds;
	for (int i = 0; i < again->nretried && res->nretried < ATTEMPTS_MAX;
	     i++)
		res->retried[res->nretried++] = again->retried[i];
	if (!snap) {
		err_set(&again->why, "no snapshot");	/* if it said nothing */
		err_context(&again->why, "the confirming boot gave %s: ",
			    verdict_name(again->v));
		res->why = again->why;
		res->v = V_FLAKY;
		goto out;
	}
	/* its message, not the comparison's */
	if (snap_check(confirm, snap, &why) ||
	    !judge_confirm(r->snap, r->snapshot, snap, confirm, reds, &why)) {
		res->why = why;
		res->v = V_FLAKY;
		goto out;
	}
	confirmed = 1;
out:
	free(confirm);
	return confirmed;
}
