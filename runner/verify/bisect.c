// SPDX-License-Identifier: GPL-2.0
/* A bisection of a series: each step built, booted and judged. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/kbuild.h"
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

/*
 * Replays verdicts logged by an earlier run over the same series: the
 * steps' ("K PATCH VERDICT SECS"), and the checks of a first bad patch
 * that passed ("verify K PATCH BAD PASS SECS"), kept as "verify K PATCH
 * BAD" in b->checked. A failed check is run again, to say what it saw.
 */
static void log_replay(struct bisect *b)
{
	char *text = file_read(b->log, NULL), *line, *next;

	for (line = text; line && *line; line = next) {
		char what[16], name[256], verdict[32];
		long k, bad;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (sscanf(line, "%15[a-z] %ld %255s %ld %31s", what, &k, name,
			   &bad, verdict) == 5) {
			if (!strcmp(verdict, "PASS"))
				strv_pushf(&b->checked, "%s %ld %s %ld", what,
					   k, name, bad);
			continue;
		}
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

/*
 * The configuration built (from nothing when @fresh), booted and judged
 * with the @n patches of @v as its series, BUILD/bisect/CONFIG.series:
 * its result in b->run->res, its diff in b->diff when it gave a
 * snapshot. A fresh build empties the kernel's directory of all but its
 * .config first (kbuild_clean()): no object of an earlier step is
 * reused, the compiler cache still serves them.
 */
static void series_run(struct farm *f, struct bisect *b, char *const *v,
		       size_t n, int fresh)
{
	/* No result.json: the steps' verdicts are in the log */
	const struct run_hooks hooks = { .boot = 1, .snapshot = step_compare,
					 .confirmed = step_confirmed, .ctx = b };
	struct farm_source *fs = farm_source(f, 0);
	char *series = path_bisect_series(f->build, b->run->c->name);
	struct result *r = &b->run->res;
	struct sf_err why = SF_ERR_INIT;
	char *text = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		char *more = xstrfmt("%s%s\n", text, v[i]);

		free(text);
		text = more;
	}
	if (file_write_atomic(series, text, strlen(text))) {
		err_set(&why, "%s: %s", series, strerror(errno));
	} else {
		farm_set_series(f, series);
		/* a tree that cannot be prepared: the run says why */
		if (fresh && !farm_source_prepare(f, fs))
			kbuild_clean(&f->kb, b->run->c, &fs->src, &why);
	}
	if (why.kind != ERR_NONE) {
		memset(r, 0, sizeof(*r));
		r->why = why;
		r->v = V_BUILD_FAIL;
	} else {
		run_matrix(f, b->run, &hooks);
	}
	free(text);
	free(series);
}

/* Step k: the first k patches, built, booted, compared with the golden. */
static void step(struct farm *f, struct bisect *b, long k)
{
	const struct config *c = b->run->c;
	const char *name = strrchr(b->patches.v[k - 1], '/') + 1;
	struct result *r = &b->run->res;
	double t = now_seconds();
	char why[ERR_FORMAT_MAX];
	FILE *log;

	farm_progress(f, c, "bisect: %ld patches, up to %s", k, name);
	b->builds++;
	series_run(f, b, b->patches.v, k, 0);
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
 * The golden, redaction rules and ABI table of --expected, else of the
 * matrix. Return: 0, or -1 with @err set.
 */
static int golden_load(struct farm *f, const struct config *c,
		       struct bisect *b, struct sf_err *err)
{
	const struct golden_dir_opts o = { .expected = b->expected };
	char *goldens;
	int bad;

	if (golden_dir_open(&o, f->top, &goldens, &b->reds, err))
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
	if (b->commit && (b->good >= 0 || b->bad >= 0 || !f->kernel_src))
		return err_at(err, ERR_INPUT, NULL, 0, 0,
			      "--commit checks a commit of --kernel-src's repository, without --good and --bad");
	if (b->good < 0)
		b->good = common_prefix(f, c, &b->patches);
	if (b->bad < 0)
		b->bad = b->patches.n;
	if (!b->commit &&
	    (b->good >= b->bad || (size_t)b->bad > b->patches.n))
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

/* The changes of @d that count (not allowed), one line each. */
static void entries_of(const struct diff *d, struct strv *lines)
{
	for (size_t i = 0; i < d->n; i++) {
		char *line;

		if (d->v[i].allowed)
			continue;
		line = diff_change_format(&d->v[i], 0);
		strv_push(lines, line);
		free(line);
	}
}

/* Did the check's step give a snapshot judged against the golden? */
static int judged(const struct result *r)
{
	return r->v == V_PASS || r->v == V_DIFF || r->v == V_ABI_MISMATCH;
}

/* What a failed check's step showed: its verdict, then @what: @lines. */
static char *seen_format(const struct result *r, const char *what,
			 const struct strv *lines)
{
	char why[ERR_FORMAT_MAX], *s;

	err_format(&r->why, why, sizeof(why));
	s = xstrfmt("saw %s%s%.*s%s%s", verdict_name(r->v), *why ? ": " : "",
		    (int)strcspn(why, "\n"), why, lines->n ? ", " : "",
		    lines->n ? what : "");
	for (size_t i = 0; i < lines->n; i++) {
		char *more = xstrfmt("%s\n  %s", s, lines->v[i]);

		free(s);
		s = more;
	}
	return s;
}

/* verify: a DIFF of the culprit's entries, no more, no fewer */
static void verify_judge(struct bisect *b)
{
	const struct result *r = &b->run->res;
	struct strv want = STRV_INIT, got = STRV_INIT;
	int same;

	entries_of(&b->bad_diff, &want);
	if (r->v == V_DIFF)
		entries_of(&b->diff, &got);
	same = want.n == got.n;
	for (size_t i = 0; same && i < want.n; i++)
		same = !strcmp(want.v[i], got.v[i]);
	b->verify.run = 1;
	b->verify.pass = r->v == V_DIFF && want.n && same;
	if (!b->verify.pass)
		b->verify.seen = seen_format(r, "its entries:", &got);
	strv_release(&want);
	strv_release(&got);
}

/* revert: judged, and none of the culprit's entries among its own */
static void revert_judge(struct bisect *b)
{
	const struct result *r = &b->run->res;
	struct strv want = STRV_INIT, got = STRV_INIT, still = STRV_INIT;

	entries_of(&b->bad_diff, &want);
	if (judged(r))
		entries_of(&b->diff, &got);
	for (size_t i = 0; i < want.n; i++)
		if (strv_has(&got, want.v[i]))
			strv_push(&still, want.v[i]);
	b->revert.run = 1;
	b->revert.pass = judged(r) && want.n && !still.n;
	if (!b->revert.pass)
		b->revert.seen = seen_format(r, "still the culprit's entries:",
					     &still);
	strv_release(&want);
	strv_release(&got);
	strv_release(&still);
}

/*
 * Check @check of the first bad patch: replayed when an earlier run
 * logged it passed, else its step run (@n patches of @v), judged by
 * @judge, and logged.
 */
static void check_step(struct farm *f, struct bisect *b, const char *check,
		       char *const *v, size_t n, int fresh,
		       void (*judge)(struct bisect *b), struct bisect_check *to)
{
	const struct config *c = b->run->c;
	const char *name = strrchr(b->patches.v[b->hi - 1], '/') + 1;
	char *key = xstrfmt("%s %ld %s %ld", check, b->hi, name, b->bad);
	double t = now_seconds();
	FILE *log;

	if (strv_has(&b->checked, key)) {
		farm_progress(f, c, "bisect: %s: PASS (logged by an earlier run)",
			      check);
		to->run = to->pass = 1;
		free(key);
		return;
	}
	if (fresh)
		farm_progress(f, c, "bisect: %s: %zu patches, up to %s, built from nothing",
			      check, n, name);
	else
		farm_progress(f, c, "bisect: %s: %zu patches, the first %ld without %s",
			      check, n, b->bad, name);
	series_run(f, b, v, n, fresh);
	judge(b);
	log = fopen(b->log, "a");
	if (log) {
		fprintf(log, "%s %s %.1f\n", key, to->pass ? "PASS" : "FAIL",
			now_seconds() - t);
		fclose(log);
	}
	free(key);
}

void bisect_verify(struct farm *f, struct bisect *b)
{
	struct strv without = STRV_INIT;

	if (b->hi != b->lo + 1 || b->state[b->hi] != BISECT_BAD)
		return;
	for (long i = 0; i < b->bad; i++)
		if (i != b->hi - 1)
			strv_push(&without, b->patches.v[i]);
	/* the cheap one first: an incremental build */
	check_step(f, b, "revert", without.v, without.n, 0, revert_judge,
		   &b->revert);
	strv_release(&without);
	if (!b->revert.pass) {
		b->verify.seen = xstrdup("not run: revert failed, the culprit is unverified either way");
		return;
	}
	check_step(f, b, "verify", b->patches.v, b->hi, 1, verify_judge,
		   &b->verify);
}

/* seconds: a diff across a kernel release reads every file */
#define GIT_TIMEOUT 600

/*
 * `git --no-optional-locks -C TREE ARGS...`: its output to @path, or
 * into @buf (@size) when @path is NULL. Nothing is written to the tree
 * or its .git: no index refresh, no lock.
 */
static int git_run(const char *tree, const char *const *args,
		   const char *path, char *buf, size_t size,
		   struct sf_err *err)
{
	struct strv argv = STRV_INIT;
	struct proc p = PROC_INIT;
	int code, ret = 0;

	strv_push(&argv, "git");
	strv_push(&argv, "--no-optional-locks");
	strv_push(&argv, "-C");
	strv_push(&argv, tree);
	for (const char *const *a = args; *a; a++)
		strv_push(&argv, *a);
	if (!path) {
		ret = proc_capture(strv_argv(&argv), GIT_TIMEOUT, buf, size,
				   err);
	} else {
		p.argv = strv_argv(&argv);
		p.out_path = path;
		p.err_null = 1;
		p.timeout = GIT_TIMEOUT;
		if (proc_run(&p, &code) != PROC_EXITED || code)
			ret = err_set(err, "'git %s' failed in '%s'", args[0],
				      tree);
	}
	strv_release(&argv);
	return ret;
}

/*
 * A patch git writes, @check "verify" or "revert", as
 * BUILD/bisect/CONFIG.CHECK.patch, pushed on @series unless empty (patch
 * refuses an empty one), then the tree's series.
 */
static int commit_patch(struct farm *f, struct bisect *b, const char *check,
			const char *from, const char *to, struct strv *series,
			struct sf_err *err)
{
	/* plain patch(1) input, whatever the user's git configuration says */
	const char *args[] = { "diff", "--no-color", "--no-ext-diff",
			       "--no-textconv", "--no-renames",
			       "--src-prefix=a/", "--dst-prefix=b/",
			       to ? from : "-R", to ? to : from, "--", NULL };
	char *name = xstrfmt("%s.%s", b->run->c->name, check);
	char *path = path_bisect_patch(f->build, name);
	int ret = git_run(f->kernel_src, args, path, NULL, 0, err);
	struct stat st;

	if (!ret && !stat(path, &st) && st.st_size)
		strv_push(series, path);
	strv_extend(series, &b->patches);
	free(path);
	free(name);
	return ret;
}

int bisect_commit(struct farm *f, struct bisect *b, struct sf_err *err)
{
	const struct config *c = b->run->c;
	struct strv verify = STRV_INIT, revert = STRV_INIT;
	char *spec = xstrfmt("%s^{commit}", b->commit), *parent = NULL;
	const char *show[] = { "show", "-s", "--no-color", "--format=%H %s",
			       spec, "--", NULL };
	char out[1024];
	int ret = -1;

	/* A name git would take for an option is none of a commit */
	if (*b->commit == '-' ||
	    git_run(f->kernel_src, show, NULL, out, sizeof(out), err)) {
		err_clear(err);
		err_at(err, ERR_INPUT, NULL, 0, 0,
		       "--commit '%s': no commit of '%s'", b->commit,
		       f->kernel_src);
		goto out;
	}
	/* the subject is the committer's text, shown on a terminal */
	b->culprit = diff_text_clean(out, strlen(out), "");
	out[strcspn(out, " ")] = '\0';
	parent = xstrfmt("%s^", out);
	if (commit_patch(f, b, "verify", out, NULL, &verify, err) ||
	    commit_patch(f, b, "revert", out, parent, &revert, err)) {
		err_context(err, "--commit %s: ", b->commit);
		goto out;
	}
	farm_progress(f, c, "bisect: verify: commit %.12s, built from nothing",
		      out);
	series_run(f, b, verify.v, verify.n, 1);
	/*
	 * The entries of the commit's tree are the commit's, those revert
	 * must not show: verify holds them to themselves (a DIFF is all it
	 * asks), then keeps them.
	 */
	if (b->run->res.v == V_DIFF)
		b->bad_diff = b->diff;
	verify_judge(b);
	if (b->run->res.v == V_DIFF)
		b->diff = (struct diff)DIFF_INIT;
	ret = 0;
	if (!diff_count(&b->bad_diff)) {
		b->revert.seen = xstrdup("not run: the commit's tree shows no entry to look for");
		goto out;
	}
	farm_progress(f, c, "bisect: revert: the tree without commit %.12s",
		      out);
	series_run(f, b, revert.v, revert.n, 0);
	revert_judge(b);
out:
	strv_release(&verify);
	strv_release(&revert);
	free(parent);
	free(spec);
	return ret;
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
	strv_release(&b->checked);
	free(b->golden);
	free(b->log);
	free(b->series);
	free(b->culprit);
	free(b->verify.seen);
	free(b->revert.seen);
	free(b->state);
	for (size_t i = 0; b->why && i <= b->patches.n; i++)
		free(b->why[i]);
	free(b->why);
}
