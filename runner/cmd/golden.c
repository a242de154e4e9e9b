// SPDX-License-Identifier: GPL-2.0
/* Compares fresh snapshots with expected/<config>.json, one verdict each. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"

const struct opt golden_dir_options[] = {
	OPT_STRING(0, "expected", struct golden_dir_opts, expected, "DIR",
		   "the goldens (expected/ beside the matrix)"),
	OPT_STRING(0, "redactions", struct golden_dir_opts, redactions,
		   "FILE", "redaction rules (DIR/redactions.yaml)"),
	OPT_END
};

const struct opt golden_options[] = {
	OPT_INCLUDE(golden_dir_options, struct golden_opts, dir),
	OPT_STRING(0, "results", struct golden_opts, results, "FILE",
		   "results file (BUILD/out/results.json)"),
	OPT_END
};

int golden_dir_load(const struct golden_dir_opts *o, const char *top,
		    char **dir, struct redactions *r)
{
	char *path;
	struct sf_err err = SF_ERR_INIT;
	int bad;

	if ((o->expected && !*o->expected) ||
	    (o->redactions && !*o->redactions)) {
		fprintf(stderr, "sysfarm: --%s takes a path, not ''\n",
			o->expected && !*o->expected ? "expected" :
						       "redactions");
		*dir = NULL;
		return SF_EXIT_USAGE;
	}
	*dir = o->expected ? xstrdup(o->expected) : path_goldens(top);
	path = o->redactions ? xstrdup(o->redactions) :
			       path_redactions(*dir);
	bad = path_exists(path) && redactions_load(r, path, &err);
	if (bad)
		ui_error(NULL, &err);
	free(path);
	return bad ? SF_EXIT_USAGE : 0;
}

int golden_read(const char *path, json_t **out, struct sf_err *err)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		err_at(err, ERR_INPUT, path, 0, 0,
		       "a symbolic link, not read: goldens and pending snapshots are regular files");
		return INPUT_EBAD;
	}
	return snap_load(path, out, err);
}

/*
 * Bad goldens are bad input: refuse them before an hour of building.
 * Return: 0, or the exit status of the worst (verdict_exit_input()).
 */
static int goldens_validate(const struct farm *f, struct golden_run *run)
{
	int status = SF_EXIT_OK;

	for (size_t s = 0; s < f->nsel; s++) {
		char *path = path_golden(run->expected,
					 f->m.configs[f->sel[s]].name);
		struct sf_err err = SF_ERR_INIT;
		json_t *j = NULL;

		int ret = path_exists(path) ? golden_read(path, &j, &err) : 0;

		if (ret)
			ui_error(NULL, &err);
		status = verdict_exit_fold(status, verdict_exit_input(ret));
		json_decref(j);
		free(path);
	}
	return status;
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
	struct sf_err err = SF_ERR_INIT;
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

int golden_names_config(const struct farm *f, const char *name,
			const char *suffix)
{
	size_t len = strlen(name) - strlen(suffix);

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

		if (!golden_names_config(f, name, ".json")) {
			why = golden_foreign(path);
			if (why) {
				/* Anyone's name: shown as a terminal shows it safely */
				char *shown = diff_text_clean(path, strlen(path), "");

				strv_pushf(&run->foreign, "%s: not a sysfarm golden (%s), left alone",
					   shown, why);
				free(shown);
			} else {
				strv_push(&run->obsolete, path);
			}
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

/* Bad input before anything is built. */
int golden_abi_load(const char *dir, struct abi_table *t)
{
	char *path = path_abi_table(dir);
	struct sf_err err = SF_ERR_INIT;
	int bad = path_exists(path) && abi_table_load(t, path, &err);

	if (bad)
		ui_error(NULL, &err);
	free(path);
	return bad;
}

int golden_ci(void)
{
	const char *ci = getenv("CI");

	return ci && !strcmp(ci, "true");
}

int golden_save(const char *dir, const char *path, json_t *snap,
		const struct redactions *reds, struct sf_err *err)
{
	json_t *j = json_deep_copy(snap);
	int ret = -1;

	redactions_apply(reds, j);
	if (mkdir_p(dir))
		err_set(err, "%s: cannot create: %s", dir, strerror(errno));
	else
		ret = json_file_write(path, j, err);
	json_decref(j);
	return ret;
}

/* scandir()'s filter: NAME.json.pending */
static int pending_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name), suf = strlen(".json.pending");

	return len > suf && !strcmp(e->d_name + len - suf, ".json.pending");
}

void golden_pending_list(const char *dir, struct strv *out)
{
	struct dirent **names;
	int n = scandir(dir, &names, pending_name, alphasort);

	for (int k = 0; k < n; k++) {
		strv_pushf(out, "%s/%s", dir, names[k]->d_name);
		free(names[k]);
	}
	if (n >= 0)
		free(names);
}

void golden_allow(const struct abi_table *t, int all, json_t *snap,
		  struct diff *d)
{
	const char *release = json_string_value(json_object_get(
		json_object_get(snap, "header"), "release"));

	for (size_t i = 0; i < d->n; i++) {
		struct diff_change *c = &d->v[i];
		const char *why;

		/* a status rule (any class) first: its reason is shown */
		why = abi_policy_allows(t, diff_class_of(c->kind), c->abi);
		if (why)
			diff_allow(c, why);
		/* sysfs entries only: a new kernel line or probe counts */
		if (c->kind != DIFF_ADDED || !diff_in_roots(c->path))
			continue;
		why = abi_allowed_added(t, c->path, release);
		if (why)
			diff_allow(c, why);
		else if (all)
			diff_allow(c, "--allow-added");
	}
}

/*
 * PASS, DIFF or NEW: the snapshot against its golden, inputs apart; each
 * change with its status in @docs, its tree's Documentation/ABI (or NULL).
 */
static void compare_one(struct golden_run *run, struct run *r,
			const struct abi_docs *docs)
{
	struct result *res = &r->res;
	char *diff_path = path_snapshot_diff(r->out);
	char *golden = path_golden(run->expected, r->c->name);
	struct diff *d = &run->diffs[r->i];
	json_t *gj = NULL;
	FILE *df;

	if (!path_exists(golden)) {
		res->v = V_NEW;
		err_set(&res->why, "no golden %s yet", golden);
		goto out;
	}
	if (golden_read(golden, &gj, &res->why) ||
	    snap_check(r->snapshot, r->snap, &res->why)) {
		res->v = V_CORRUPT;
		goto out;
	}
	inputs_compare(gj, r->snap, &run->inputs_changed[r->i]);
	snap_diff(gj, r->snap, &run->reds, d);
	abi_docs_mark(docs, docs, d);
	golden_allow(&run->abi, run->allow_added, r->snap, d);
	res->v = diff_count(d) ? V_DIFF : V_PASS;
	if (d->n) {
		char *summary = diff_summary(d);

		err_set(&res->why, "%s against %s", summary, golden);
		free(summary);
	}
out:
	/* The artifact a reviewer needs to accept or reject CI's result. */
	df = fopen(diff_path, "w");
	if (df) {
		for (size_t i = 0; i < run->inputs_changed[r->i].n; i++)
			fprintf(df, "inputs changed: %s\n",
				run->inputs_changed[r->i].v[i]);
		diff_print(df, d, "", 0);
		fclose(df);
	}
	json_decref(gj);
	free(golden);
	free(diff_path);
}

/* Holds a snapshot to the ABI table: PASS becomes ABI-MISMATCH. */
static void abi_one(struct farm *f, struct golden_run *run, struct run *r)
{
	struct abi_findings *found = &run->abi_found[r->i];
	struct strv kconfig = STRV_INIT;
	struct result *res = &r->res;
	struct sf_err err = SF_ERR_INIT;
	size_t n;

	if (kbuild_fragment_options(&f->m, r->c, &kconfig, &err) ||
	    snap_check(r->snapshot, r->snap, &err)) {
		/* Its message, not the comparison's */
		res->v = V_CORRUPT;
		res->why = err;
		goto out;
	}
	abi_check(&run->abi, r->snap, &kconfig, NULL, found);
	n = abi_count(found);
	if (n && res->v == V_PASS) {
		/* the table's findings first, allowed additions after */
		char allowed[ERR_FORMAT_MAX];

		err_format(&res->why, allowed, sizeof(allowed));
		err_clear(&res->why);
		res->v = V_ABI_MISMATCH;
		err_set(&res->why, "%zu finding%s against %s%s%s", n,
			n == 1 ? "" : "s", run->abi.path,
			*allowed ? "; " : "", allowed);
	}
out:
	strv_release(&kconfig);
}

/* At most this many of the paths two boots disagree on, in the message */
#define FLAKY_PATHS 5

int golden_confirm(struct farm *f, struct run *r,
		   const struct redactions *reds)
{
	struct result *res = &r->res, again;
	json_t *snap = run_confirm(f, r, &again);
	struct diff d = DIFF_INIT;
	char *confirm = path_snapshot_confirm(r->out);
	char *paths = xstrdup("");
	int confirmed = 0;

	res->boot_seconds += again.boot_seconds;
	for (int i = 0; i < again.nretried && res->nretried < ATTEMPTS_MAX; i++)
		res->retried[res->nretried++] = again.retried[i];
	if (!snap) {
		err_set(&again.why, "no snapshot");	/* if it said nothing */
		err_context(&again.why, "the confirming boot gave %s: ",
			    verdict_name(again.v));
		res->why = again.why;
		res->v = V_FLAKY;
		goto out;
	}
	err_clear(&again.why);
	if (snap_check(confirm, snap, &again.why)) {
		/* its message, not the comparison's */
		err_clear(&res->why);
		res->why = again.why;
		res->v = V_FLAKY;
		goto out;
	}
	snap_diff(r->snap, snap, reds, &d);
	confirmed = !d.n;
	if (confirmed)
		goto out;
	for (size_t i = 0; i < d.n && i < FLAKY_PATHS; i++) {
		char *q = diff_quote(d.v[i].path, strlen(d.v[i].path));
		char *more = xstrfmt("%s%s%s", paths, i ? ", " : "", q);

		free(q);
		free(paths);
		paths = more;
	}
	err_clear(&res->why);
	err_set(&res->why, "two boots of one kernel disagree on %zu path%s: %s%s (%s, %s)",
		d.n, d.n == 1 ? "" : "s", paths, d.n > FLAKY_PATHS ? ", ..." : "",
		r->snapshot, confirm);
	res->v = V_FLAKY;
out:
	free(paths);
	diff_release(&d);
	json_decref(snap);
	free(confirm);
	return confirmed;
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
			ui_error("sysfarm", &err);
			run->pended[r->i] = -1;
		}
	} else if ((v == V_PASS || v == V_ABI_MISMATCH) && unlink(path) &&
		   errno != ENOENT) {
		fprintf(stderr, "sysfarm: cannot remove stale '%s': %s\n",
			path, strerror(errno));
	}
	free(path);
}

/* run_matrix()'s hook for check and update, on each fresh snapshot. */
static void golden_one(void *ctx, struct farm *f, struct run *r)
{
	struct golden_run *run = ctx;

	char *tree = farm_source_tree(farm_source(f, r->i));

	compare_one(run, r, abi_docs_get(&run->docs, tree));
	free(tree);
	if (run->abi.path && verdict_exit(r->res.v) != SF_EXIT_UNTESTED)
		abi_one(f, run, r);
	if (r->res.v == V_DIFF || r->res.v == V_ABI_MISMATCH)
		run->confirmed[r->i] = golden_confirm(f, r, &run->reds);
	if (run->pending)
		pending_one(run, r);
}

/* [{"name": AXIS, "value": VALUE}, ...] in matrix order: the HTML grid's. */
static json_t *axes_json(const struct farm *f, const struct config *c)
{
	json_t *arr = json_array();

	for (size_t a = 0; a < f->m.naxes; a++)
		json_array_append_new(arr, json_pack("{s:s, s:s}",
			"name", f->m.axes[a].name,
			"value", f->m.axes[a].values[c->value[a]].name));
	return arr;
}

/* results.json: each run's result.json with what the comparison found. */
static json_t *results_json(const struct farm *f, const struct golden_run *run)
{
	json_t *arr = json_array();

	for (size_t s = 0; s < f->nsel; s++) {
		json_t *e = run_result_json(&run->runs[s]);
		json_t *changed = json_array();

		for (size_t i = 0; i < run->inputs_changed[s].n; i++)
			json_array_append_new(changed,
				json_string(run->inputs_changed[s].v[i]));
		json_object_set_new(e, "diff", diff_to_json(&run->diffs[s]));
		json_object_set_new(e, "inputs_changed", changed);
		json_object_set_new(e, "confirmed",
				    json_boolean(run->confirmed[s]));
		json_object_set_new(e, "abi",
				    abi_to_json(&run->abi_found[s]));
		json_object_set_new(e, "axes", axes_json(f, &f->m.configs[f->sel[s]]));
		json_array_append_new(arr, e);
	}
	return json_pack("{s:o, s:o}", "configs", arr,
			 "abi_stale", abi_to_json(&run->abi_stale));
}

/*
 * Under CI=true, a pending snapshot in the goldens' directory is one a
 * review never saw (committed by accident): the run fails before it
 * builds anything.
 */
static int pending_refuse(const struct golden_run *run)
{
	struct strv found = STRV_INIT;
	int bad;

	if (!golden_ci())
		return 0;
	golden_pending_list(run->expected, &found);
	for (size_t i = 0; i < found.n; i++) {
		char *q = diff_quote(found.v[i], strlen(found.v[i]));

		fprintf(stderr, "%s: a pending snapshot in the tree under CI=true: accept or reject it with 'sysfarm review' and commit the golden, never the pending file\n",
			q);
		free(q);
	}
	bad = found.n > 0;
	strv_release(&found);
	return bad;
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

		for (size_t k = 0; k < sizeof(files) / sizeof(files[0]); k++) {
			char *path = files[k](out);

			if (unlink(path) && errno != ENOENT)
				fprintf(stderr, "sysfarm: cannot remove '%s': %s\n",
					path, strerror(errno));
			free(path);
		}
		free(out);
	}
}

int golden_run(struct farm *f, const struct golden_opts *o,
	       struct golden_run *run)
{
	const struct run_hooks hooks = { .boot = 1, .save = 1,
					 .snapshot = golden_one, .ctx = run };
	struct sf_err err = SF_ERR_INIT;
	char *path, *text;
	int status;

	memset(run, 0, sizeof(*run));
	run->runs = run_alloc(f);
	run->diffs = xmalloc(f->nsel * sizeof(*run->diffs));
	run->inputs_changed = xmalloc(f->nsel * sizeof(*run->inputs_changed));
	run->abi_found = xmalloc(f->nsel * sizeof(*run->abi_found));
	run->confirmed = xmalloc(f->nsel * sizeof(*run->confirmed));
	memset(run->confirmed, 0, f->nsel * sizeof(*run->confirmed));
	for (size_t s = 0; s < f->nsel; s++)
		run->abi_found[s] = (struct abi_findings)ABI_FINDINGS_INIT;
	run->pended = xmalloc(f->nsel * sizeof(*run->pended));
	memset(run->pended, 0, f->nsel * sizeof(*run->pended));
	run->allow_added = o->allow_added;
	run->pending = o->pending && !golden_ci();
	if (golden_dir_load(&o->dir, f->top, &run->expected, &run->reds))
		return SF_EXIT_USAGE;
	if ((status = goldens_validate(f, run)))
		return status;
	if (pending_refuse(run) ||
	    (o->abi && golden_abi_load(run->expected, &run->abi)))
		return SF_EXIT_USAGE;

	outs_clean(f);
	run_matrix(f, run->runs, &hooks);
	/* After the builds: what `update` removes is what is there now */
	goldens_obsolete(f, run);
	/* Every tree a snapshot was built from, those that were prepared */
	for (size_t i = 0; run->abi.path && i < f->nsrcs; i++) {
		err_clear(&err);
		if (f->srcs[i].state > 0 &&
		    abi_check_docs(&run->abi, f->srcs[i].src.dir,
				   &run->abi_stale, &err) < 0)
			ui_error("sysfarm", &err);
	}
	run->report = results_json(f, run);
	text = json_dumps(run->report, JSON_INDENT(2) | JSON_SORT_KEYS);
	path = o->results ? xstrdup(o->results) : path_results(f->build);
	run->lost = !text || file_put(path, text, strlen(text), 0);
	if (run->lost)
		fprintf(stderr, "sysfarm: cannot write '%s': %s\n", path,
			strerror(errno));
	free(path);
	free(text);
	return 0;
}

int golden_status(const struct farm *f, const struct golden_run *run)
{
	int status = abi_count(&run->abi_stale) ? SF_EXIT_DIFF : SF_EXIT_OK;

	for (size_t s = 0; s < f->nsel; s++)
		status = verdict_exit_fold(status,
					   verdict_exit(run->runs[s].res.v));
	/*
	 * An obsolete golden says the goldens and the matrix disagree, not
	 * that the kernel changed: it fails a run of the whole matrix that
	 * passed, and never hides a configuration that could not be tested
	 * (under `git bisect run` that would blame the commit).
	 */
	if (status == SF_EXIT_OK && run->obsolete.n &&
	    f->nsel == f->m.nconfigs)
		status = SF_EXIT_DIFF;
	return run->lost ? verdict_exit_lost(status) : status;
}

/* @s's inputs changes, diff and ABI findings as printed, malloc'd. */
static char *details_text(const struct golden_run *run, size_t s, int color)
{
	char *text = NULL;
	size_t len;
	FILE *out = xmemstream(&text, &len);

	/*
	 * Inputs first: a kernel update is not an ABI change. Their values
	 * are the headers' strings, escapes and all.
	 */
	for (size_t i = 0; i < run->inputs_changed[s].n; i++) {
		const char *line = run->inputs_changed[s].v[i];
		char *clean = diff_text_clean(line, strlen(line), "");

		fprintf(out, "inputs changed: %s\n", clean);
		free(clean);
	}
	diff_print(out, &run->diffs[s], "  ", color);
	abi_print(out, &run->abi_found[s], "  abi: ", 0);
	if (fclose(out)) {
		free(text);
		return xstrdup("  (cannot show: out of memory)\n");
	}
	return text;
}

/* What to do with what check saw: review the pending ones, or, in CI, where
 * the would-be goldens are. */
static void print_next_steps(const struct farm *f, const struct golden_run *run)
{
	size_t pended = 0, differ = 0;

	for (size_t s = 0; s < f->nsel; s++) {
		enum verdict v = run->runs[s].res.v;

		pended += run->pended[s] > 0;
		differ += v == V_DIFF || v == V_NEW;
	}
	if (pended) {
		printf("\npending (sysfarm review: each diff, accept or reject; --accept or --reject for all):\n");
		for (size_t s = 0; s < f->nsel; s++) {
			char *p;

			if (run->pended[s] <= 0)
				continue;
			p = path_pending(run->expected, run->runs[s].c->name);
			printf("  %s\n", p);
			free(p);
		}
	} else if (differ && golden_ci()) {
		char *out = path_out(f->build, "CONFIG");
		char *snap = path_snapshot(out);

		printf("\nCI=true: no pending snapshot written; the would-be goldens are %s (to accept: sysfarm check CONFIG, then sysfarm review, outside CI)\n",
		       snap);
		free(snap);
		free(out);
	}
}

void golden_print(const struct farm *f, const struct golden_run *run,
		  int color)
{
	char **text = xmalloc(f->nsel * sizeof(*text));

	ui_summary(f, run->runs);
	for (size_t s = 0; s < f->nsel; s++)
		text[s] = details_text(run, s, color);
	/* Each distinct text once, with the configurations it is also in */
	for (size_t s = 0; s < f->nsel; s++) {
		const char *sep = " (same in: ";
		size_t k;

		for (k = 0; k < s && strcmp(text[k], text[s]); k++)
			;
		if (k < s || !*text[s])
			continue;
		printf("\n%s", run->runs[s].c->name);
		for (k = s + 1; k < f->nsel; k++) {
			if (strcmp(text[k], text[s]))
				continue;
			printf("%s%s", sep, run->runs[k].c->name);
			sep = ", ";
		}
		printf("%s:\n%s", *sep == ',' ? ")" : "", text[s]);
	}
	for (size_t s = 0; s < f->nsel; s++)
		free(text[s]);
	free(text);
	for (size_t i = 0; i < run->obsolete.n; i++) {
		const char *p = run->obsolete.v[i];
		char *shown = diff_text_clean(p, strlen(p), "");

		printf("\n%s: obsolete: no configuration produces it\n", shown);
		free(shown);
	}
	for (size_t i = 0; i < run->foreign.n; i++)
		printf("\n%s\n", run->foreign.v[i]);
	if (abi_count(&run->abi_stale)) {
		printf("\n%s: rows Documentation/ABI no longer has:\n",
		       run->abi.path);
		abi_print(stdout, &run->abi_stale, "  abi: ", 0);
	}
	print_next_steps(f, run);
}

void golden_release(const struct farm *f, struct golden_run *run)
{
	for (size_t s = 0; run->diffs && s < f->nsel; s++) {
		diff_release(&run->diffs[s]);
		strv_release(&run->inputs_changed[s]);
		abi_findings_release(&run->abi_found[s]);
	}
	abi_docs_set_release(&run->docs);
	free(run->abi_found);
	free(run->confirmed);
	free(run->pended);
	abi_findings_release(&run->abi_stale);
	abi_table_release(&run->abi);
	free(run->diffs);
	free(run->inputs_changed);
	run_free(f, run->runs);
	free(run->expected);
	strv_release(&run->obsolete);
	strv_release(&run->foreign);
	redactions_release(&run->reds);
	json_decref(run->report);
}
