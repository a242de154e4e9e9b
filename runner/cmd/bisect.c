// SPDX-License-Identifier: GPL-2.0
/* sysfarm bisect: the first patch of a series after which the ABI changed. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "verify/bisect.h"

static const char about[] =
	"Finds the first patch of the series after which CONFIG's snapshot\n"
	"no longer passes against expected/CONFIG.json, judged as check\n"
	"judges it (an addition the ABI table's row or --allow-added allows\n"
	"passes). Step k applies the series' first k\n"
	"patches to the same tree and build directory, so each step is an\n"
	"incremental build. Untestable steps (build failure, panic, timeout)\n"
	"are skipped like `git bisect skip`. Steps are logged in\n"
	"BUILD/bisect/CONFIG.log; a rerun reuses the logged verdicts.\n"
	"The first bad patch is checked twice (verify: its step rebuilt\n"
	"from nothing shows the same entries; revert: the series without it\n"
	"shows none of them); one that fails either is unverified (125).\n"
	"--commit C checks a commit `git bisect run` named the same way:\n"
	"C's tree, and the --kernel-src tree with C reverted.\n";

static const struct opt bisect_options[] = {
	OPT_INTEGER(0, "good", struct bisect, good, "N", 0, LONG_MAX,
		    "a patch count", "the first N patches are known good "
		    "(default: as many as open patches/series)"),
	OPT_INTEGER(0, "bad", struct bisect, bad, "M", 0, LONG_MAX,
		    "a patch count",
		    "the first M patches are known bad (default: all)"),
	OPT_BOOLEAN(0, "allow-added", struct bisect, allow_added,
		    "additions do not fail, as in check"),
	OPT_STRING(0, "expected", struct bisect, expected, "DIR",
		   "the goldens' directory (default: expected/)"),
	OPT_STRING(0, "commit", struct bisect, commit, "COMMIT",
		   "no bisection: verify COMMIT of --kernel-src's repository"),
	OPT_END
};

static const struct opt_cmd bisect_cmd = {
	.usage = "sysfarm bisect [OPTIONS] CONFIG",
	.about = about,
	.opts = bisect_options,
	.nargs = OPT_CONFIGS,
};

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

/* PASS, FAIL, or SKIP for a check not run */
static const char *check_word(const struct bisect_check *c)
{
	return c->pass ? "PASS" : c->run ? "FAIL" : "SKIP";
}

/*
 * "verify: PASS, revert: PASS", as KernelCI ends a bisection, and what a
 * failed check saw. Return: the checks passed.
 */
static int checks_print(const struct bisect *b)
{
	printf("verify: %s, revert: %s\n", check_word(&b->verify),
	       check_word(&b->revert));
	if (b->verify.seen)
		printf("  verify %s\n", b->verify.seen);
	if (b->revert.seen)
		printf("  revert %s\n", b->revert.seen);
	return b->verify.pass && b->revert.pass;
}

/* The culprit's line, its entries and its checks. Return: exit status. */
static int culprit_print(const struct bisect *b, const char *what,
			 const char *name)
{
	int ok = b->verify.pass && b->revert.pass;

	printf("%s %s: %s\n", ok ? "first bad" : "unverified culprit", what,
	       name);
	diff_print(stdout, &b->bad_diff, "  ", 0);
	return checks_print(b) ? SF_EXIT_OK : SF_EXIT_UNTESTED;
}

/* The first bad patch, or the range skips leave. Return: exit status. */
static int answer_print(const struct bisect *b, const struct config *c,
			long lo, long hi)
{
	printf("bisect %s over %s: %d build%s\n", c->name, b->series,
	       b->builds, b->builds == 1 ? "" : "s");
	if (hi == lo + 1 && b->state[hi] == BISECT_GOOD) {
		printf("no ABI change: the first %ld patches match the golden\n",
		       hi);
		return SF_EXIT_OK;
	}
	if (hi == lo + 1 && b->state[hi] == BISECT_BAD) {
		char *name = xstrfmt("%s: %s",
				     strrchr(b->patches.v[hi - 1], '/') + 1,
				     b->subjects.v[hi - 1]);
		int status = culprit_print(b, "patch", name);

		free(name);
		return status;
	}
	printf("skipped steps leave a range: the first bad patch is one of\n");
	for (long i = lo + 1; i <= hi; i++) {
		printf("  %s: %s (%s)\n", strrchr(b->patches.v[i - 1], '/') + 1,
		       b->subjects.v[i - 1],
		       b->state[i] == BISECT_SKIP ? "untestable" : "bad");
		if (b->state[i] == BISECT_SKIP)
			why_print(b->why[i]);
	}
	return SF_EXIT_UNTESTED;
}

int cmd_bisect(int argc, char **argv)
{
	struct bisect b = BISECT_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct farm f;
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
	if (bisect_prepare(&f, &b, &err)) {
		ui_fail(&err);
		goto out;
	}
	if (b.commit) {
		if (bisect_commit(&f, &b, &err)) {
			ui_fail(&err);
			goto out;
		}
		status = culprit_print(&b, "commit", b.culprit);
		goto out;
	}
	bisect_run(&f, &b);
	bisect_verify(&f, &b);
	status = answer_print(&b, &f.m.configs[f.sel[0]], b.lo, b.hi);
out:
	bisect_release(&f, &b);
	farm_release(&f);
	return status;
}
