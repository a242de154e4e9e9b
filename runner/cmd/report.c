// SPDX-License-Identifier: GPL-2.0
/* sysfarm report: a results file as TAP, JUnit, Markdown, HTML or KCIDB. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "compare/kcidb.h"
#include "compare/report.h"
#include "lib/exitcode.h"
#include "lib/options.h"
#include "verify/results.h"

struct report_opts {
	int tap;
	const char *junit, *markdown, *html, *kcidb, *origin;
};

static const struct opt report_options[] = {
	OPT_BOOLEAN(0, "tap", struct report_opts, tap,
		    "TAP on stdout (the default)"),
	OPT_STRING(0, "junit", struct report_opts, junit, "FILE",
		   "JUnit XML into FILE ('-': stdout)"),
	OPT_STRING(0, "markdown", struct report_opts, markdown, "FILE",
		   "a Markdown summary into FILE ('-': stdout), "
		   "e.g. \"$GITHUB_STEP_SUMMARY\" (appended to)"),
	OPT_STRING(0, "html", struct report_opts, html, "FILE",
		   "one self-contained HTML page into FILE ('-': stdout)"),
	OPT_STRING(0, "kcidb", struct report_opts, kcidb, "FILE",
		   "a KCIDB v5.3 document into FILE ('-': stdout); "
		   "needs --origin"),
	OPT_STRING(0, "origin", struct report_opts, origin, "NAME",
		   "the KCIDB origin submitting it ([a-z0-9_]+)"),
	OPT_END
};

static const struct opt_cmd report_cmd = {
	.usage = "sysfarm report [OPTIONS] RESULTS.json",
	.opts = report_options,
	.after = "Exit status: 0 written, 2 bad usage or bad input, 125 cannot write.\n",
	.nargs = 1,
};

/*
 * Writes @text (freed; NULL: it could not be made, errno set) into
 * @path; Markdown appends, as GitHub expects.
 */
static int report_put(char *text, size_t len, const char *path, int append)
{
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

static int report_write(int (*fn)(FILE *, json_t *), const char *path,
			int append, json_t *results)
{
	size_t len;
	char *text = report_text(fn, results, &len);

	return report_put(text, len, path, append);
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	int i, status = SF_EXIT_OK;
	json_t *results;
	struct sf_err err = SF_ERR_INIT;

	i = ui_options(argc, argv, &report_cmd, &o, NULL, NULL);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (ui_kcidb_usage("sysfarm report", o.kcidb, o.origin))
		return SF_EXIT_USAGE;
	if (results_load(argv[i], &results, &err)) {
		ui_error("sysfarm report", &err);
		return SF_EXIT_USAGE;
	}
	if (o.tap || (!o.junit && !o.markdown && !o.html && !o.kcidb))
		status = report_write(report_tap, "-", 0, results);
	if (!status && o.junit)
		status = report_write(report_junit, o.junit, 0, results);
	if (!status && o.markdown)
		status = report_write(report_markdown, o.markdown, 1, results);
	if (!status && o.html)
		status = report_write(report_html, o.html, 0, results);
	if (!status && o.kcidb) {
		size_t len;
		char *text = kcidb_text(results, o.origin, &len);

		status = report_put(text, len, o.kcidb, 0);
	}
	json_decref(results);
	return status;
}
