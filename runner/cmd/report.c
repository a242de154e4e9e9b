// SPDX-License-Identifier: GPL-2.0
/* sysfarm report: a results file as TAP, JUnit XML or Markdown. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "compare/report.h"
#include "lib/args.h"
#include "lib/exitcode.h"

static const char usage[] =
	"usage: sysfarm report [OPTIONS] RESULTS.json\n\n"
	"  --tap              TAP on stdout (the default)\n"
	"  --junit FILE       JUnit XML into FILE ('-': stdout)\n"
	"  --markdown FILE    a Markdown summary into FILE ('-': stdout),\n"
	"                     e.g. \"$GITHUB_STEP_SUMMARY\" (appended to)\n\n"
	"Exit status: 0 written, 2 bad usage or bad input, 125 cannot write.\n";

enum { OPT_TAP = 1000, OPT_JUNIT, OPT_MARKDOWN };

static const struct option options[] = {
	{ "tap", no_argument, NULL, OPT_TAP },
	{ "junit", required_argument, NULL, OPT_JUNIT },
	{ "markdown", required_argument, NULL, OPT_MARKDOWN },
	{ 0 }
};

struct report_opts {
	int tap;
	const char *junit, *markdown;
};

static int option_set(void *ctx, int opt, const char *arg)
{
	struct report_opts *o = ctx;

	if (opt == OPT_TAP)
		o->tap = 1;
	else if (opt == OPT_JUNIT)
		o->junit = arg;
	else
		o->markdown = arg;
	return 0;
}

/* Writes one report into @path; Markdown appends, as GitHub expects. */
static int report_write(int (*fn)(FILE *, json_t *), const char *path,
			int append, json_t *results)
{
	size_t len;
	char *text = report_text(fn, results, &len);
	int ret, saved;

	if (text && !strcmp(path, "-")) {
		/* main() reports a lost stdout, once */
		ret = fwrite(text, 1, len, stdout) != len || fflush(stdout);
		free(text);
		return ret ? SF_EXIT_UNTESTED : SF_EXIT_OK;
	}
	ret = text ? file_put(path, text, len, append) : -1;
	saved = errno;
	free(text);
	if (ret) {
		fprintf(stderr, "sysfarm report: cannot write '%s': %s\n",
			path, strerror(saved));
		return SF_EXIT_UNTESTED;
	}
	return SF_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	int i, status = SF_EXIT_OK;
	json_t *results;
	struct sf_err err;

	i = args_parse(argc, argv, usage, options, option_set, &o, 1);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (report_load(argv[i], &results, &err)) {
		fprintf(stderr, "sysfarm report: %s\n", err.msg);
		return SF_EXIT_USAGE;
	}
	if (o.tap || (!o.junit && !o.markdown))
		status = report_write(report_tap, "-", 0, results);
	if (!status && o.junit)
		status = report_write(report_junit, o.junit, 0, results);
	if (!status && o.markdown)
		status = report_write(report_markdown, o.markdown, 1, results);
	json_decref(results);
	return status;
}
