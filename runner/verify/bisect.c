// SPDX-License-Identifier: GPL-2.0
/* A bisection of a series: each step built, booted and judged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/paths.h"
#include "pipeline/source.h"
#include "verify/bisect.h"
#include "verify/store.h"

/* How many patches open both @c's series in the matrix and @patches. */
static long common_prefix(const struct farm *f, const struct config *c,
			  const struct strv *patches)
{
	char *def = farm_matrix_series(f, c);
	struct strv base = STRV_INIT;
	struct sf_err err = SF_ERR_INIT;	/* none: nothing in common */
	long n = 0;

	if (!series_read(def, &base, NULL, &err))
		while ((size_t)n < base.n && (size_t)n < patches->n &&
		       !strcmp(base.v[n], patches->v[n]))
			n++;
	strv_release(&base);
	free(def);
	return n;
}

/* Replays verdicts logged by an earlier run over the same series. */
static void log_replay(struct bisect *b)
{
	char *text = file_read(b->log, NULL), *line, *next;

	for (line = text; line && *line; line = next) {
		char name[256], verdict[32];
		long k;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%ld %255s %31s", &k, name, verdict) != 3 ||
		    k <= b->good || k > b->bad ||
		    strcmp(strrchr(b->patches.v[k - 1], '/') + 1, name))
			continue;
		b->state[k] = !strcmp(verdict, "PASS") ? BISECT_GOOD :
			      !strcmp(verdict, "DIFF") ? BISECT_BAD : BISECT_SKIP;
	}
	free(text);
}

/*
 * run_matrix()'s hook for a step: judged against the golden as check
 * judges (its allowed additions pass), a DIFF confirmed by a second boot
 * (step_confirmed()).
 */
static enum run_next step_compare(void *ctx, struct farm *f, struct run *r)
{
	struct bisect *b = ctx;
	struct judgement jd = JUDGEMENT_INIT;
	char *tree = farm_source_tree(farm_source(f, r->i));

	judge_snapshot(&b->judge, r->c, tree, b->golden, r->snapshot, r->snap,
		       &jd);
	free(tree);
	r->res.v = jd.v;
	r->res.why = jd.why;
	diff_release(&b->diff);
	b->diff = jd.diff;
	jd.diff = (struct diff)DIFF_INIT;
	judgement_release(&jd);
	/* a step is only bad if its kernel says so twice: FLAKY skips it */
	return r->res.v == V_DIFF ? RUN_CONFIRM : RUN_DONE;
}

static void step_confirmed(void *ctx, struct farm *f, struct run *r,
			   json_t *snap, struct result *again)
{
	struct bisect *b = ctx;

	golden_confirm(r, snap, again, &b->reds);
}

/*
 * An untestable step's message, and its build log copied out of the
 * kernel directory the next step builds in again:
 * BUILD/bisect/CONFIG.K.build.log.
 */
static void skip_keep(struct farm *f, struct bisect *b, long k)
{
	const struct result *r = &b->run->res;
	char why[ERR_FORMAT_MAX], *dir, *log, *kept, *text, *step;
	size_t len;

	err_format(&r->why, why, sizeof(why));
	free(b->why[k]);
	b->why[k] = xstrdup(why);
	if (r->v != V_BUILD_FAIL && r->v != V_CONFIG_FAIL)
		return;
	dir = kbuild_dir(&f->kb, b->run->c, &farm_source(f, 0)->src);
	log = path_build_log(dir);
	step = xstrfmt("%s.%ld", b->run->c->name, k);
	kept = path_bisect_build_log(f->build, step);
	text = file_read(log, &len);
	if (text && !file_write_atomic(kept, text, len)) {
		char *more = xstrfmt("%s\n(build log kept: %s)", b->why[k],
				     kept);

		free(b->why[k]);
		b->why[k] = more;
	}
	free(text);
	free(kept);
	free(step);
	free(log);
	free(dir);
}

/* Step k: the first k patches, built, booted, compared with the golden. */
static void step(struct farm *f, struct bisect *b, long k)
{
	/* No result.json: the steps' verdicts are in the log */
	const struct run_hooks hooks = { .boot = 1, .snapshot = step_compare,
					 .confirmed = step_confirmed, .ctx = b };
	const struct config *c = b->run->c;
	char *series = path_bisect_series(f->build, c->name);
	const char *name = strrchr(b->patches.v[k - 1], '/') + 1;
	struct result *r = &b->run->res;
	double t = now_seconds();
	char why[ERR_FORMAT_MAX];
	FILE *log;
	char *text = xstrdup("");

	for (long i = 0; i < k; i++) {
		char *more = xstrfmt("%s%s\n", text, b->patches.v[i]);

		free(text);
		text = more;
	}
	if (file_write_atomic(series, text, strlen(text))) {
		memset(r, 0, sizeof(*r));
		err_set(&r->why, "%s: %s", series, strerror(errno));
		r->v = V_BUILD_FAIL;
	} else {
		farm_set_series(f, series);
		farm_progress(f, c, "bisect: %ld patches, up to %s", k, name);
		b->builds++;
		run_matrix(f, b->run, &hooks);
	}
	b->state[k] = r->v == V_PASS ? BISECT_GOOD :
		      r->v == V_DIFF ? BISECT_BAD : BISECT_SKIP;
	/* Keep the diff of the lowest bad step: the answer's, in the end. */
	if (b->state[k] == BISECT_BAD && (!b->bad_k || k < b->bad_k)) {
		diff_release(&b->bad_diff);
		b->bad_diff = b->diff;
		memset(&b->diff, 0, sizeof(b->diff));
		b->bad_k = k;
	}
	if (b->state[k] == BISECT_SKIP)
		skip_keep(f, b, k);
	log = fopen(b->log, "a");
	if (log) {
		fprintf(log, "%ld %s %s %.1f\n", k, name, verdict_name(r->v),
			now_seconds() - t);
		fclose(log);
	}
	err_format(&r->why, why, sizeof(why));
	farm_progress(f, c, "bisect: %ld patches: %s%s%.*s", k,
		      verdict_name(r->v), *why ? ": " : "",
		      (int)strcspn(why, "\n"), why);
	free(text);
	free(series);
}

/*
 * The next step: the untested, unskipped count nearest the middle of the
 * range, or 0 when none is left.
 */
static long next_step(const struct bisect *b, long lo, long hi)
{
	long mid = lo + (hi - lo) / 2, best = 0;

	for (long k = lo + 1; k < hi; k++)
		if (b->state[k] == BISECT_UNTESTED &&
		    (!best || labs(k - mid) < labs(best - mid)))
			best = k;
	return best;
}

/*
 * The golden, redaction rules and ABI table of the matrix (bisect has no
 * --expected). Return: 0, or -1 with @err set.
 */
static int golden_load(struct farm *f, const struct config *c,
		       struct bisect *b, struct sf_err *err)
{
	const struct golden_dir_opts none = { 0 };
	char *goldens;
	int bad;

	if (golden_dir_open(&none, f->top, &goldens, &b->reds, err))
		return -1;
	b->golden = path_golden(goldens, c->name);
	b->judge = (struct judge){ .m = &f->m, .reds = &b->reds,
				   .abi = &b->abi, .docs = &b->docs,
				   .allow_added = b->allow_added };
	bad = golden_abi_read(goldens, &b->abi, err);
	free(goldens);
	if (!bad && !path_exists(b->golden))
		bad = err_set(err, "bisect needs the configuration's golden");
	return bad;
}

int bisect_prepare(struct farm *f, struct bisect *b, struct sf_err *err)
{
	const struct config *c = &f->m.configs[f->sel[0]];
	char *dir;

	if (series_read(farm_source(f, 0)->series, &b->patches, &b->subjects,
			err))
		return -1;
	if (b->good < 0)
		b->good = common_prefix(f, c, &b->patches);
	if (b->bad < 0)
		b->bad = b->patches.n;
	if (b->good >= b->bad || (size_t)b->bad > b->patches.n)
		return err_set(err, "nothing to bisect: good %ld, bad %ld, %zu patches",
			       b->good, b->bad, b->patches.n);
	if (golden_load(f, c, b, err))
		return -1;
	dir = path_bisect(f->build);
	mkdir_p(dir);
	free(dir);
	b->log = path_bisect_log(f->build, c->name);
	b->series = xstrdup(farm_source(f, 0)->series);
	b->run = run_alloc(f);
	b->state = xmalloc((b->patches.n + 1) * sizeof(*b->state));
	b->why = xmalloc((b->patches.n + 1) * sizeof(*b->why));
	log_replay(b);
	return 0;
}

void bisect_run(struct farm *f, struct bisect *b)
{
	long lo = b->good, hi = b->bad;

	for (;;) {
		long k;

		/* Narrow with what is known, logged or tested. */
		for (long i = lo + 1; i < hi; i++) {
			if (b->state[i] == BISECT_GOOD)
				lo = i;
		}
		for (long i = hi - 1; i > lo; i--) {
			if (b->state[i] == BISECT_BAD)
				hi = i;
		}
		k = next_step(b, lo, hi);
		if (!k)
			break;
		step(f, b, k);
	}
	/* The answer's own snapshot: its diff is what the patch introduced. */
	if (hi == lo + 1 && b->bad_k != hi)
		step(f, b, hi);
	b->lo = lo;
	b->hi = hi;
}

void bisect_release(struct farm *f, struct bisect *b)
{
	run_free(f, b->run);
	diff_release(&b->diff);
	diff_release(&b->bad_diff);
	redactions_release(&b->reds);
	abi_table_release(&b->abi);
	abi_docs_set_release(&b->docs);
	strv_release(&b->patches);
	strv_release(&b->subjects);
	free(b->golden);
	free(b->log);
	free(b->series);
	free(b->state);
	for (size_t i = 0; b->why && i <= b->patches.n; i++)
		free(b->why[i]);
	free(b->why);
}
