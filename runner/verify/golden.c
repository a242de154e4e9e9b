// SPDX-License-Identifier: GPL-2.0
/* check's and update's run: each fresh snapshot judged against its golden. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/paths.h"
#include "verify/golden.h"
#include "verify/results.h"

void golden_run_init(const struct farm *f, const struct golden_opts *o,
		     struct golden_run *run)
{
	memset(run, 0, sizeof(*run));
	run->runs = run_alloc(f);
	run->judged = xmalloc(f->nsel * sizeof(*run->judged));
	for (size_t s = 0; s < f->nsel; s++)
		run->judged[s] = (struct judgement)JUDGEMENT_INIT;
	run->confirmed = xmalloc(f->nsel * sizeof(*run->confirmed));
	memset(run->confirmed, 0, f->nsel * sizeof(*run->confirmed));
	run->pended = xmalloc(f->nsel * sizeof(*run->pended));
	memset(run->pended, 0, f->nsel * sizeof(*run->pended));
	run->pending = o->pending && !golden_ci();
	run->judge = (struct judge){ .m = &f->m, .reds = &run->reds,
				     .abi = &run->abi, .docs = &run->docs,
				     .allow_added = o->allow_added,
				     .hold = o->abi };
}

/* @r's changes as BUILD/out/CONFIG/snapshot.diff. */
static void diff_save(const struct run *r, const struct judgement *jd)
{
	char *path = path_snapshot_diff(r->out);
	/* The artifact a reviewer needs to accept or reject CI's result. */
	FILE *df = fopen(path, "w");

	if (df) {
		for (size_t i = 0; i < jd->inputs_changed.n; i++)
			fprintf(df, "inputs changed: %s\n",
				jd->inputs_changed.v[i]);
		diff_print(df, &jd->diff, "", 0);
		fclose(df);
	}
	free(path);
}

/*
 * A DIFF or NEW snapshot left as DIR/CONFIG.json.pending for `review`;
 * one that passes (equal to its golden, or with allowed additions that
 * update writes) makes a pending file of an earlier check stale: removed.
 * Nothing else is touched.
 */
static void pending_one(struct golden_run *run, struct run *r)
{
	char *path = path_pending(run->expected, r->c->name);
	struct sf_err err = SF_ERR_INIT;
	enum verdict v = r->res.v;

	if (v == V_DIFF || v == V_NEW) {
		run->pended[r->i] = 1;
		if (golden_save(run->expected, path, r->snap, &run->reds,
				&err)) {
			sink_error(&err);
			run->pended[r->i] = -1;
		}
	} else if ((v == V_PASS || v == V_ABI_MISMATCH) && unlink(path) &&
		   errno != ENOENT) {
		err_set(&err, "cannot remove stale '%s': %s", path,
			strerror(errno));
		sink_error(&err);
	}
	free(path);
}

/*
 * run_matrix()'s hook for check and update, on each fresh snapshot: a
 * DIFF or ABI-MISMATCH is only reported once a second boot says it too
 * (golden_confirmed()).
 */
static enum run_next golden_one(void *ctx, struct farm *f, struct run *r)
{
	struct golden_run *run = ctx;
	struct judgement *jd = &run->judged[r->i];
	char *golden = path_golden(run->expected, r->c->name);
	char *tree = farm_source_tree(farm_source(f, r->i));

	judge_snapshot(&run->judge, r->c, tree, golden, r->snapshot, r->snap,
		       jd);
	free(tree);
	free(golden);
	r->res.v = jd->v;
	r->res.why = jd->why;
	diff_save(r, jd);
	if (r->res.v == V_DIFF || r->res.v == V_ABI_MISMATCH)
		return RUN_CONFIRM;
	if (run->pending)
		pending_one(run, r);
	return RUN_DONE;
}

/* run_matrix()'s hook after golden_one()'s confirming boot. */
static void golden_confirmed(void *ctx, struct farm *f, struct run *r,
			     json_t *snap, struct result *again)
{
	struct golden_run *run = ctx;

	run->confirmed[r->i] = golden_confirm(r, snap, again, &run->reds);
	if (run->pending)
		pending_one(run, r);
}

/*
 * The diffs of an earlier run, which this one replaces: a configuration
 * not run now leaves none to be mistaken for this run's.
 */
static void outs_clean(const struct farm *f)
{
	char *(*const files[])(const char *) = { path_snapshot_diff,
						 path_snapshot_confirm };

	for (size_t i = 0; i < f->m.nconfigs; i++) {
		char *out = path_out(f->build, f->m.configs[i].name);

		for (size_t k = 0; k < ARRAY_SIZE(files); k++) {
			char *path = files[k](out);
			struct sf_err err = SF_ERR_INIT;

			if (unlink(path) && errno != ENOENT) {
				err_set(&err, "cannot remove '%s': %s", path,
					strerror(errno));
				sink_error(&err);
			}
			free(path);
		}
		free(out);
	}
}

void golden_matrix(struct farm *f, const struct golden_opts *o,
		   struct golden_run *run)
{
	const struct run_hooks hooks = { .boot = 1, .save = 1,
					 .snapshot = golden_one,
					 .confirmed = golden_confirmed,
					 .ctx = run };
	struct sf_err err = SF_ERR_INIT;
	char *path;

	outs_clean(f);
	run_matrix(f, run->runs, &hooks);
	/* After the builds: what `update` removes is what is there now */
	golden_obsolete(f, run->expected, &run->obsolete, &run->foreign);
	/* Every tree a snapshot was built from, those that were prepared */
	for (size_t i = 0; o->abi && run->abi.path && i < f->nsrcs; i++) {
		err_clear(&err);
		if (f->srcs[i].state > 0 &&
		    abi_check_docs(&run->abi, f->srcs[i].src.dir,
				   &run->abi_stale, &err) < 0)
			sink_error(&err);
	}
	run->report = results_json(f, run);
	path = o->results ? xstrdup(o->results) : path_results(f->build);
	err_clear(&err);
	run->lost = results_save(path, run->report, &err) < 0;
	if (run->lost)
		sink_error(&err);
	free(path);
}

void golden_release(const struct farm *f, struct golden_run *run)
{
	for (size_t s = 0; run->judged && s < f->nsel; s++)
		judgement_release(&run->judged[s]);
	free(run->judged);
	free(run->confirmed);
	free(run->pended);
	abi_findings_release(&run->abi_stale);
	abi_table_release(&run->abi);
	abi_docs_set_release(&run->docs);
	run_free(f, run->runs);
	free(run->expected);
	strv_release(&run->obsolete);
	strv_release(&run->foreign);
	redactions_release(&run->reds);
	json_decref(run->report);
}
