// SPDX-License-Identifier: GPL-2.0
/* check's and update's golden run: inputs checked first, the outcome shown. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/golden.h"
#include "cmd/ui.h"
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
	struct sf_err err = SF_ERR_INIT;

	if (!golden_dir_open(o, top, dir, r, &err))
		return 0;
	ui_fail(&err);
	return SF_EXIT_USAGE;
}

int golden_abi_load(const char *dir, struct abi_table *t)
{
	struct sf_err err = SF_ERR_INIT;

	if (!golden_abi_read(dir, t, &err))
		return 0;
	ui_fail(&err);
	return 1;
}

/*
 * Bad goldens are refused before an hour of building.
 * Return: 0, or the exit status of the worst (verdict_exit_input()).
 */
static int goldens_validate(const struct farm *f, const char *dir)
{
	int status = SF_EXIT_OK;

	for (size_t s = 0; s < f->nsel; s++) {
		struct sf_err err = SF_ERR_INIT;
		int ret = golden_check(dir, f->m.configs[f->sel[s]].name, &err);

		if (ret)
			ui_error(NULL, &err);
		status = verdict_exit_fold(status, verdict_exit_input(ret));
	}
	return status;
}

/*
 * Under CI=true, a pending snapshot in the goldens' directory is one a
 * review never saw (committed by accident): the run fails before it
 * builds anything.
 */
static int pending_refuse(const char *dir)
{
	struct strv found = STRV_INIT;
	int bad;

	if (!golden_ci())
		return 0;
	golden_pending_list(dir, &found);
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

int golden_run(struct farm *f, const struct golden_opts *o,
	       struct golden_run *run)
{
	int status;

	golden_run_init(f, o, run);
	if (golden_dir_load(&o->dir, f->top, &run->expected, &run->reds))
		return SF_EXIT_USAGE;
	if ((status = goldens_validate(f, run->expected)))
		return status;
	if (pending_refuse(run->expected) ||
	    golden_abi_load(run->expected, &run->abi))
		return SF_EXIT_USAGE;
	golden_matrix(f, o, run);
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
	for (size_t i = 0; i < run->judged[s].inputs_changed.n; i++) {
		const char *line = run->judged[s].inputs_changed.v[i];
		char *clean = diff_text_clean(line, strlen(line), "");

		fprintf(out, "inputs changed: %s\n", clean);
		free(clean);
	}
	diff_print(out, &run->judged[s].diff, "  ", color);
	abi_print(out, &run->judged[s].found, "  abi: ", 0);
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
