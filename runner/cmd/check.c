// SPDX-License-Identifier: GPL-2.0
/* sysfarm check: run configurations and compare them with their goldens. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "compare/report.h"
#include "lib/exitcode.h"

static const char usage[] =
	"usage: sysfarm check [OPTIONS] [CONFIG...]\n\n"
	"Builds, boots and snapshots each configuration and compares the\n"
	"snapshot with expected/CONFIG.json, then with the ABI table\n"
	"expected/abi.yaml (if there is one; see sysfarm abi). Verdicts: PASS,\n"
	"DIFF, ABI-MISMATCH (equal, but the table finds fault), NEW and the\n"
	"could-not-test ones; exit 0 all pass, 1 a difference, 125 untested,\n"
	"2 bad input. Works in a kernel git checkout for `git bisect run`:\n"
	"  git bisect run sysfarm check --matrix M --kernel-src . CONFIG\n\n"
	GOLDEN_USAGE
	"  --junit FILE       also write the results as JUnit XML\n"
	"  --markdown FILE    also append a Markdown summary (GITHUB_STEP_SUMMARY)\n"
	"  --tap              print TAP instead of the table\n"
	"  --color WHEN       auto, always or never\n"
	FARM_USAGE;

enum { OPT_JUNIT = 1000, OPT_MARKDOWN, OPT_TAP, OPT_COLOR };

static const struct option options[] = {
	GOLDEN_OPTIONS,
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ "tap", no_argument, NULL, OPT_TAP },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ 0 }
};

struct check_opts {
	struct golden_opts g;
	const char *junit, *markdown;
	int tap, color;
};

static int check_option(void *ctx, int opt, const char *arg)
{
	struct check_opts *o = ctx;

	if (golden_option(&o->g, opt, arg))
		return 1;
	switch (opt) {
	case OPT_JUNIT:
		o->junit = arg;
		break;
	case OPT_MARKDOWN:
		o->markdown = arg;
		break;
	case OPT_TAP:
		o->tap = 1;
		break;
	case OPT_COLOR:
		if (!strcmp(arg, "always"))
			o->color = 1;
		else if (!strcmp(arg, "never"))
			o->color = 0;
		else if (strcmp(arg, "auto")) {
			fprintf(stderr, "sysfarm: --color takes auto, always or never, not '%s'\n",
				arg);
			return -1;
		}
		break;
	default:
		return 0;
	}
	return 1;
}

/* The whole report or none: see file_put(). */
static int write_report(const char *path, int append, json_t *results,
			int (*fn)(FILE *, json_t *))
{
	size_t len;
	char *text = report_text(fn, results, &len);
	int ret = text ? file_put(path, text, len, append) : -1;

	if (ret)
		fprintf(stderr, "sysfarm: cannot write '%s': %s\n", path,
			strerror(errno));
	free(text);
	return ret;
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .g.abi = 1, .color = isatty(1) };
	struct golden_run run;
	struct farm f;
	int status;

	farm_init(&f);
	f.uses_source = 1;
	if (farm_setup(&f, argc, argv, usage, options, check_option, &o,
		       &status))
		goto out_farm;
	status = golden_run(&f, &o.g, &run);
	if (status)
		goto out_run;
	if (o.tap)
		report_tap(stdout, run.report);
	else
		golden_print(&f, &run, o.color);
	status = golden_status(&f, &run);
	if ((o.junit && write_report(o.junit, 0, run.report, report_junit)) ||
	    (o.markdown && write_report(o.markdown, 1, run.report,
					report_markdown)))
		status = verdict_exit_fold(status, SF_EXIT_UNTESTED);
out_run:
	golden_release(&f, &run);
out_farm:
	farm_release(&f);
	return status;
}
