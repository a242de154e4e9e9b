// SPDX-License-Identifier: GPL-2.0
/* sysfarm bisect: the first patch of a series after which the ABI changed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"
#include "pipeline/source.h"

static const char about[] =
	"Finds the first patch of the series after which CONFIG's snapshot\n"
	"differs from expected/CONFIG.json. Step k applies the series' first k\n"
	"patches to the same tree and build directory, so each step is an\n"
	"incremental build. Untestable steps (build failure, panic, timeout)\n"
	"are skipped like `git bisect skip`. Steps are logged in\n"
	"BUILD/bisect/CONFIG.log; a rerun reuses the logged verdicts.\n";

struct bisect {
	long good, bad;
	struct strv patches, subjects;
	char *golden, *log, *series;
	struct redactions reds;
	enum { UNTESTED, GOOD, BAD, SKIP } *state;
	int builds;
	struct run *run;	/* the configuration's, taken by every step */
	struct diff diff;	/* of the last step that gave a snapshot */
	struct diff bad_diff;	/* of step bad_k */
	long bad_k;
	char **why;		/* per step: why it was untestable, or NULL */
};

static const struct opt bisect_options[] = {
	OPT_INTEGER(0, "good", struct bisect, good, "N", 0, LONG_MAX,
		    "a patch count", "the first N patches are known good "
		    "(default: as many as open patches/series)"),
	OPT_INTEGER(0, "bad", struct bisect, bad, "M", 0, LONG_MAX,
		    "a patch count",
		    "the first M patches are known bad (default: all)"),
	OPT_END
};

static const struct opt_cmd bisect_cmd = {
	.usage = "sysfarm bisect [OPTIONS] CONFIG",
	.about = about,
	.opts = bisect_options,
	.nargs = OPT_CONFIGS,
};

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
		b->state[k] = !strcmp(verdict, "PASS") ? GOOD :
			      !strcmp(verdict, "DIFF") ? BAD : SKIP;
	}
	free(text);
}

/*
 * run_matrix()'s hook for a step: PASS or DIFF against the golden, a DIFF
 * confirmed by a second boot (step_confirmed()).
 */
static enum run_next step_compare(void *ctx, struct farm *f, struct run *r)
{
	struct bisect *b = ctx;
	json_t *golden = NULL;

	diff_release(&b->diff);
	if (golden_read(b->golden, &golden, &r->res.why) ||
	    snap_check(r->snapshot, r->snap, &r->res.why)) {
		r->res.v = V_CORRUPT;
	} else {
		snap_diff(golden, r->snap, &b->reds, &b->diff);
		r->res.v = b->diff.n ? V_DIFF : V_PASS;
	}
	json_decref(golden);
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
	b->state[k] = r->v == V_PASS ? GOOD : r->v == V_DIFF ? BAD : SKIP;
	/* Keep the diff of the lowest bad step: the answer's, in the end. */
	if (b->state[k] == BAD && (!b->bad_k || k < b->bad_k)) {
		diff_release(&b->bad_diff);
		b->bad_diff = b->diff;
		memset(&b->diff, 0, sizeof(b->diff));
		b->bad_k = k;
	}
	if (b->state[k] == SKIP)
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
		if (b->state[k] == UNTESTED &&
		    (!best || labs(k - mid) < labs(best - mid)))
			best = k;
	return best;
}

/*
 * The golden and redaction rules of the matrix (bisect has no
 * --expected). Return: 0, or -1 after the message.
 */
static int golden_load(const struct farm *f, const struct config *c,
		       struct bisect *b)
{
	char *goldens = path_goldens(f->top);
	char *reds = path_redactions(goldens);
	struct sf_err err = SF_ERR_INIT;
	int bad;

	b->golden = path_golden(goldens, c->name);
	bad = path_exists(reds) && redactions_load(&b->reds, reds, &err);
	if (bad) {
		ui_error(NULL, &err);
	} else if (!path_exists(b->golden)) {
		bad = err_set(&err, "bisect needs the configuration's golden");
		ui_error("sysfarm", &err);
	}
	free(reds);
	free(goldens);
	return bad ? -1 : 0;
}

/*
 * A build log's line as a terminal may show it: gcc's colour sequences
 * (ESC [ ... letter) dropped, the rest as diff_text_clean() shows it.
 */
static char *log_line_clean(const char *s, size_t n)
{
	char *plain = xmalloc(n + 1), *p = plain, *out;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == 0x1b && i + 1 < n && s[i + 1] == '[') {
			for (i += 2; i < n && strchr("0123456789;", s[i]); i++)
				;
			continue;	/* at the final letter */
		}
		*p++ = s[i];
	}
	out = diff_text_clean(plain, (size_t)(p - plain), "");
	free(plain);
	return out;
}

/*
 * Why a step was untestable: its message's first line, the compiler's
 * errors of the log excerpt after it (else the excerpt's last lines), and
 * where the build log was kept.
 */
static void why_print(const char *why)
{
	struct strv lines = STRV_INIT, errors = STRV_INIT;
	const struct strv *show = &lines;
	size_t from;

	if (!why) {
		printf("    (logged by an earlier run: rerun without BUILD/bisect/CONFIG.log to see why)\n");
		return;
	}
	for (const char *p = why; *p;) {
		size_t n = strcspn(p, "\n");
		char *line = log_line_clean(p, n);

		if (lines.n && (strstr(line, "error:") || strstr(line, "Error ")))
			strv_push(&errors, line);
		if (strncmp(line, "(build log kept: ", 17))
			strv_push(&lines, line);
		free(line);
		p += n + (p[n] == '\n');
	}
	printf("    %s\n", lines.n ? lines.v[0] : "");
	if (errors.n)
		show = &errors;
	from = show == &errors ? 0 : lines.n > 6 ? lines.n - 5 : 1;
	for (size_t i = from; i < show->n; i++)
		printf("    | %s\n", show->v[i]);
	if (strstr(why, "(build log kept: "))
		printf("    %s\n", strstr(why, "(build log kept: "));
	strv_release(&errors);
	strv_release(&lines);
}

/* The first bad patch, or the range skips leave. Return: exit status. */
static int answer_print(const struct bisect *b, const struct config *c,
			long lo, long hi)
{
	printf("bisect %s over %s: %d build%s\n", c->name, b->series,
	       b->builds, b->builds == 1 ? "" : "s");
	if (hi == lo + 1 && b->state[hi] == GOOD) {
		printf("no ABI change: the first %ld patches match the golden\n",
		       hi);
		return SF_EXIT_OK;
	}
	if (hi == lo + 1 && b->state[hi] == BAD) {
		printf("first bad patch: %s: %s\n",
		       strrchr(b->patches.v[hi - 1], '/') + 1,
		       b->subjects.v[hi - 1]);
		diff_print(stdout, &b->bad_diff, "  ", 0);
		return SF_EXIT_OK;
	}
	printf("skipped steps leave a range: the first bad patch is one of\n");
	for (long i = lo + 1; i <= hi; i++) {
		printf("  %s: %s (%s)\n", strrchr(b->patches.v[i - 1], '/') + 1,
		       b->subjects.v[i - 1],
		       b->state[i] == SKIP ? "untestable" : "bad");
		if (b->state[i] == SKIP)
			why_print(b->why[i]);
	}
	return SF_EXIT_UNTESTED;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect b = { .good = -1, .bad = -1 };
	struct sf_err err = SF_ERR_INIT;
	const struct config *c;
	struct farm f;
	long lo, hi;
	int status;

	farm_init(&f);
	f.uses_source = 1;
	if (ui_setup(&f, argc, argv, &bisect_cmd, &b, &status))
		goto out;
	status = SF_EXIT_USAGE;
	if (f.prebuilt) {
		fputs("sysfarm bisect: --prebuilt builds nothing, and each step is a build\n",
		      stderr);
		goto out;
	}
	if (f.nsel != 1 || argc - optind != 1) {
		fprintf(stderr, "sysfarm bisect: takes one configuration, not %zu (usage: %s)\n",
			argc - optind != 1 ? (size_t)(argc - optind) : f.nsel,
			bisect_cmd.usage);
		goto out;
	}
	c = &f.m.configs[f.sel[0]];
	if (series_read(farm_source(&f, 0)->series, &b.patches, &b.subjects,
			&err)) {
		ui_error(NULL, &err);
		goto out;
	}
	if (b.good < 0)
		b.good = common_prefix(&f, c, &b.patches);
	if (b.bad < 0)
		b.bad = b.patches.n;
	if (b.good >= b.bad || (size_t)b.bad > b.patches.n) {
		fprintf(stderr, "sysfarm: nothing to bisect: good %ld, bad %ld, %zu patches\n",
			b.good, b.bad, b.patches.n);
		goto out;
	}
	if (golden_load(&f, c, &b))
		goto out;
	{
		char *dir = path_bisect(f.build);

		mkdir_p(dir);
		free(dir);
	}
	b.log = path_bisect_log(f.build, c->name);
	b.series = xstrdup(farm_source(&f, 0)->series);
	b.run = run_alloc(&f);
	b.state = xmalloc((b.patches.n + 1) * sizeof(*b.state));
	b.why = xmalloc((b.patches.n + 1) * sizeof(*b.why));
	log_replay(&b);

	lo = b.good;
	hi = b.bad;
	for (;;) {
		long k;

		/* Narrow with what is known, logged or tested. */
		for (long i = lo + 1; i < hi; i++) {
			if (b.state[i] == GOOD)
				lo = i;
		}
		for (long i = hi - 1; i > lo; i--) {
			if (b.state[i] == BAD)
				hi = i;
		}
		k = next_step(&b, lo, hi);
		if (!k)
			break;
		step(&f, &b, k);
	}
	/* The answer's own snapshot: its diff is what the patch introduced. */
	if (hi == lo + 1 && b.bad_k != hi)
		step(&f, &b, hi);
	status = answer_print(&b, c, lo, hi);
out:
	run_free(&f, b.run);
	diff_release(&b.diff);
	diff_release(&b.bad_diff);
	redactions_release(&b.reds);
	strv_release(&b.patches);
	strv_release(&b.subjects);
	free(b.golden);
	free(b.log);
	free(b.series);
	free(b.state);
	for (size_t i = 0; b.why && i <= b.patches.n; i++)
		free(b.why[i]);
	free(b.why);
	farm_release(&f);
	return status;
}
