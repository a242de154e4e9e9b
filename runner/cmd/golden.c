// SPDX-License-Identifier: GPL-2.0
/* Compares fresh snapshots with expected/<config>.json, one verdict each. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/golden.h"
#include "compare/snap.h"
#include "lib/exitcode.h"

const struct opt golden_options[] = {
	OPT_STRING(0, "expected", struct golden_opts, expected, "DIR",
		   "the goldens (expected/ beside the matrix)"),
	OPT_STRING(0, "redactions", struct golden_opts, redactions, "FILE",
		   "redaction rules (DIR/redactions.yaml)"),
	OPT_STRING(0, "results", struct golden_opts, results, "FILE",
		   "results file (BUILD/out/results.json)"),
	OPT_END
};

char *golden_path(const struct golden_run *run, const struct config *c)
{
	return xstrfmt("%s/%s.json", run->expected, c->name);
}

/* Bad goldens are bad input: refuse them before an hour of building. */
static int goldens_validate(const struct farm *f, struct golden_run *run)
{
	int bad = 0;

	for (size_t s = 0; s < f->nsel; s++) {
		char *path = golden_path(run, &f->m.configs[f->sel[s]]);
		struct sf_err err;
		json_t *j = NULL;

		if (path_exists(path) && snap_load(path, &j, &err)) {
			fprintf(stderr, "%s\n", err.msg);
			bad = 1;
		}
		json_decref(j);
		free(path);
	}
	return bad;
}

/* The runner's "inputs" beside the guest's "snapshotter": sysfarm's. */
static int header_is_ours(json_t *snap)
{
	json_t *h = json_object_get(snap, "header");

	return json_is_object(json_object_get(h, "inputs")) &&
	       json_is_string(json_object_get(h, "snapshotter"));
}

/*
 * Why @path is not a golden sysfarm wrote, or NULL if it is one. Nothing
 * else may be removed as obsolete: not a link, a device, a FIFO (never
 * opened), nor a stranger's JSON.
 */
static const char *golden_foreign(const char *path)
{
	const char *why = NULL;
	struct sf_err err;
	struct stat st;
	json_t *j = NULL;

	if (lstat(path, &st))
		why = strerror(errno);
	else if (S_ISLNK(st.st_mode))
		why = "a symbolic link";
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (snap_load(path, &j, &err))
		why = "not a snapshot";
	else if (!header_is_ours(j))
		why = "its header is not sysfarm's";
	json_decref(j);
	return why;
}

/* scandir()'s filter: a golden is named CONFIG.json */
static int json_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return len > 5 && !strcmp(e->d_name + len - 5, ".json");
}

/* Is @name, which ends in ".json", a configuration's golden? */
static int golden_of_config(const struct farm *f, const char *name)
{
	size_t len = strlen(name) - 5;

	for (size_t i = 0; i < f->m.nconfigs; i++)
		if (strlen(f->m.configs[i].name) == len &&
		    !strncmp(f->m.configs[i].name, name, len))
			return 1;
	return 0;
}

/* The *.json in DIR no configuration is named after, sysfarm's or not. */
static void goldens_obsolete(const struct farm *f, struct golden_run *run)
{
	struct dirent **names;
	int n = scandir(run->expected, &names, json_name, alphasort);

	for (int k = 0; k < n; k++) {
		const char *name = names[k]->d_name, *why;
		char *path = xstrfmt("%s/%s", run->expected, name);

		if (!golden_of_config(f, name)) {
			why = golden_foreign(path);
			if (why)
				strv_pushf(&run->foreign, "%s: not a sysfarm golden (%s), left alone",
					   path, why);
			else
				strv_push(&run->obsolete, path);
		}
		free(path);
		free(names[k]);
	}
	if (n >= 0)
		free(names);
}

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

/* DIR/abi.yaml, if there is one: bad input before anything is built. */
static int abi_load(struct golden_run *run)
{
	char *path = xstrfmt("%s/abi.yaml", run->expected);
	struct sf_err err;
	int bad = path_exists(path) && abi_table_load(&run->abi, path, &err);

	if (bad)
		fprintf(stderr, "%s\n", err.msg);
	free(path);
	return bad;
}

static void compare_one(struct farm *f, struct golden_run *run, size_t s)
{
	const struct config *c = &f->m.configs[f->sel[s]];
	struct result *r = &run->results[s];
	char *out = farm_outdir(f, c);
	char *snap_path = xstrfmt("%s/snapshot.json", out);
	char *diff_path = xstrfmt("%s/snapshot.diff", out);
	char *golden = golden_path(run, c);
	json_t *gj = NULL, *sj = NULL;
	FILE *df;

	if (!path_exists(golden)) {
		r->v = V_NEW;
		err_set(&r->why, "no golden %s yet ('sysfarm update %s' writes it from %s)",
			golden, c->name, snap_path);
		goto out;
	}
	if (snap_load(golden, &gj, &r->why) || snap_load(snap_path, &sj, &r->why)) {
		r->v = V_CORRUPT;
		goto out;
	}
	inputs_compare(gj, sj, &run->inputs_changed[s]);
	if (snap_compare(golden, snap_path, &run->reds, &run->diffs[s],
			 &r->why)) {
		r->v = V_CORRUPT;
		goto out;
	}
	r->v = run->diffs[s].n ? V_DIFF : V_PASS;
	if (r->v == V_DIFF)
		err_set(&r->why, "%zu change%s against %s", run->diffs[s].n,
			run->diffs[s].n == 1 ? "" : "s", golden);
out:
	/* The artifact a reviewer needs to accept or reject CI's result. */
	df = fopen(diff_path, "w");
	if (df) {
		for (size_t i = 0; i < run->inputs_changed[s].n; i++)
			fprintf(df, "inputs changed: %s\n",
				run->inputs_changed[s].v[i]);
		diff_print(df, &run->diffs[s], "", 0);
		fclose(df);
	}
	json_decref(gj);
	json_decref(sj);
	free(golden);
	free(out);
	free(snap_path);
	free(diff_path);
}

/* Holds a snapshot to the ABI table: PASS becomes ABI-MISMATCH. */
static void abi_one(struct farm *f, struct golden_run *run, size_t s)
{
	const struct config *c = &f->m.configs[f->sel[s]];
	struct result *r = &run->results[s];
	char *snap_path = xstrfmt("%s/out/%s/snapshot.json", f->build,
				  c->name);
	struct strv kconfig = STRV_INIT;
	json_t *sj = NULL;
	size_t n;

	if (kbuild_fragment_options(&f->m, c, &kconfig, &r->why) ||
	    snap_load(snap_path, &sj, &r->why)) {
		r->v = V_CORRUPT;
		goto out;
	}
	abi_check(&run->abi, sj, &kconfig, NULL, &run->abi_found[s]);
	n = abi_count(&run->abi_found[s]);
	if (n && r->v == V_PASS) {
		r->v = V_ABI_MISMATCH;
		err_set(&r->why, "%zu finding%s against %s", n,
			n == 1 ? "" : "s", run->abi.path);
	}
out:
	json_decref(sj);
	strv_release(&kconfig);
	free(snap_path);
}

static json_t *results_json(const struct farm *f, const struct golden_run *run)
{
	json_t *arr = json_array();

	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		const struct result *r = &run->results[s];
		json_t *changed = json_array();

		for (size_t i = 0; i < run->inputs_changed[s].n; i++)
			json_array_append_new(changed,
				json_string(run->inputs_changed[s].v[i]));
		json_array_append_new(arr, json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:f, s:f, s:o, s:o, s:o}",
			"config", c->name, "key", c->key,
			"verdict", verdict_name(r->v), "message", r->why.msg,
			"seconds", r->seconds, "built", r->built,
			"build_seconds", r->build_seconds,
			"boot_seconds", r->boot_seconds,
			"diff", diff_to_json(&run->diffs[s]),
			"inputs_changed", changed,
			"abi", abi_to_json(&run->abi_found[s])));
	}
	return json_pack("{s:o, s:o}", "configs", arr,
			 "abi_stale", abi_to_json(&run->abi_stale));
}

int golden_run(struct farm *f, const struct golden_opts *o,
	       struct golden_run *run)
{
	char *reds = o->redactions ? xstrdup(o->redactions) : NULL;
	struct sf_err err;
	char *text;

	memset(run, 0, sizeof(*run));
	run->expected = o->expected ? xstrdup(o->expected) :
				      xstrfmt("%s/expected", f->top);
	if (!reds)
		reds = xstrfmt("%s/redactions.yaml", run->expected);
	run->results = xmalloc(f->nsel * sizeof(*run->results));
	run->diffs = xmalloc(f->nsel * sizeof(*run->diffs));
	run->inputs_changed = xmalloc(f->nsel * sizeof(*run->inputs_changed));
	run->abi_found = xmalloc(f->nsel * sizeof(*run->abi_found));
	for (size_t s = 0; s < f->nsel; s++)
		run->abi_found[s] = (struct abi_findings)ABI_FINDINGS_INIT;
	if (path_exists(reds) && redactions_load(&run->reds, reds, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		free(reds);
		return SF_EXIT_USAGE;
	}
	free(reds);
	if (goldens_validate(f, run) || (o->abi && abi_load(run)))
		return SF_EXIT_USAGE;

	farm_build_all(f);
	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		double t = now_seconds();

		if (!farm_build(f, c, &run->results[s]) &&
		    !farm_boot(f, c, &run->results[s])) {
			compare_one(f, run, s);
			if (run->abi.path && verdict_exit(run->results[s].v) !=
					     SF_EXIT_UNTESTED)
				abi_one(f, run, s);
		}
		run->results[s].seconds = now_seconds() - t;
		farm_result_save(f, c, &run->results[s]);
	}
	/* After the builds: what `update` removes is what is there now */
	goldens_obsolete(f, run);
	/* The tree every snapshot was built from, if one was prepared */
	if (run->abi.path && f->src_state > 0 &&
	    abi_check_docs(&run->abi, f->src.dir, &run->abi_stale, &err) < 0)
		fprintf(stderr, "sysfarm: %s\n", err.msg);
	run->report = results_json(f, run);
	text = json_dumps(run->report, JSON_INDENT(2) | JSON_SORT_KEYS);
	{
		char *path = o->results ? xstrdup(o->results) :
					  xstrfmt("%s/out/results.json", f->build);

		if (!text || file_put(path, text, strlen(text), 0))
			fprintf(stderr, "sysfarm: cannot write '%s': %s\n",
				path, strerror(errno));
		free(path);
	}
	free(text);
	return 0;
}

int golden_status(const struct farm *f, const struct golden_run *run)
{
	int status = abi_count(&run->abi_stale) ? SF_EXIT_DIFF : SF_EXIT_OK;

	for (size_t s = 0; s < f->nsel; s++)
		status = verdict_exit_fold(status,
					   verdict_exit(run->results[s].v));
	/*
	 * An obsolete golden says the goldens and the matrix disagree, not
	 * that the kernel changed: it fails a run of the whole matrix that
	 * passed, and never hides a configuration that could not be tested
	 * (under `git bisect run` that would blame the commit).
	 */
	if (status == SF_EXIT_OK && run->obsolete.n &&
	    f->nsel == f->m.nconfigs)
		status = SF_EXIT_DIFF;
	return status;
}

void golden_print(const struct farm *f, const struct golden_run *run,
		  int color)
{
	farm_summary(f, run->results);

	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];

		if (!run->inputs_changed[s].n && !run->diffs[s].n &&
		    !abi_count(&run->abi_found[s]))
			continue;
		printf("\n%s:\n", c->name);
		/* Inputs first: a kernel update is not an ABI change. */
		for (size_t i = 0; i < run->inputs_changed[s].n; i++)
			printf("inputs changed: %s\n",
			       run->inputs_changed[s].v[i]);
		diff_print(stdout, &run->diffs[s], "  ", color);
		abi_print(&run->abi_found[s], "  abi: ", 0);
	}
	for (size_t i = 0; i < run->obsolete.n; i++)
		printf("\n%s: obsolete: no configuration produces it\n",
		       run->obsolete.v[i]);
	for (size_t i = 0; i < run->foreign.n; i++)
		printf("\n%s\n", run->foreign.v[i]);
	if (abi_count(&run->abi_stale)) {
		printf("\n%s: rows Documentation/ABI no longer has:\n",
		       run->abi.path);
		abi_print(&run->abi_stale, "  abi: ", 0);
	}
}

void golden_release(const struct farm *f, struct golden_run *run)
{
	for (size_t s = 0; run->diffs && s < f->nsel; s++) {
		diff_release(&run->diffs[s]);
		strv_release(&run->inputs_changed[s]);
		abi_findings_release(&run->abi_found[s]);
	}
	free(run->abi_found);
	abi_findings_release(&run->abi_stale);
	abi_table_release(&run->abi);
	free(run->diffs);
	free(run->inputs_changed);
	free(run->results);
	free(run->expected);
	strv_release(&run->obsolete);
	strv_release(&run->foreign);
	redactions_release(&run->reds);
	json_decref(run->report);
}
