// SPDX-License-Identifier: GPL-2.0
/* sysfarm check: run configurations and compare them with their goldens. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/kcidb.h"
#include "compare/report.h"
#include "lib/exitcode.h"
#include "lib/paths.h"

static const char about[] =
	"Builds, boots and snapshots each configuration and compares the\n"
	"snapshot with expected/CONFIG.json, then with the ABI table\n"
	"expected/abi.yaml (if there is one; see sysfarm abi). Each change is\n"
	"classed: removed (incompatible), changed (needs review), added\n"
	"(compatible); any change fails unless it is an addition allowed by\n"
	"--allow-added or by the table's row (allow: {added: REASON}).\n"
	"Verdicts: PASS, DIFF, ABI-MISMATCH (equal, but the table finds\n"
	"fault), NEW and the could-not-test ones; exit 0 all pass, 1 a\n"
	"difference, 125 untested or an output not written, 2 bad input.\n"
	"Each DIFF or NEW snapshot is left as expected/CONFIG.json.pending\n"
	"for `sysfarm review` (not under CI=true, where a pending file in\n"
	"expected/ is bad input). Works in a kernel git checkout for\n"
	"`git bisect run`:\n"
	"  git bisect run sysfarm check --matrix M --kernel-src . CONFIG\n";

struct check_opts {
	struct golden_opts g;
	const char *junit, *markdown, *html, *kcidb, *origin;
	int tap, color;
};

static const struct opt check_options[] = {
	OPT_INCLUDE(golden_options, struct check_opts, g),
	OPT_STRING(0, "junit", struct check_opts, junit, "FILE",
		   "also write the results as JUnit XML"),
	OPT_STRING(0, "markdown", struct check_opts, markdown, "FILE",
		   "also append a Markdown summary (GITHUB_STEP_SUMMARY)"),
	OPT_STRING(0, "html", struct check_opts, html, "FILE",
		   "the HTML page (BUILD/out/report.html)"),
	OPT_STRING(0, "kcidb", struct check_opts, kcidb, "FILE",
		   "also write a KCIDB v5.3 document; needs --origin"),
	OPT_STRING(0, "origin", struct check_opts, origin, "NAME",
		   "the KCIDB origin submitting it ([a-z0-9_]+)"),
	OPT_BOOLEAN(0, "allow-added", struct check_opts, g.allow_added,
		    "additions do not fail (shown, classed, allowed)"),
	OPT_BOOLEAN(0, "tap", struct check_opts, tap,
		    "print TAP instead of the table"),
	OPT_COLOR(0, "color", struct check_opts, color,
		  "auto, always or never"),
	OPT_END
};

static const struct opt_cmd check_cmd = {
	.usage = "sysfarm check [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = check_options,
	.nargs = OPT_CONFIGS,
};

/* The whole report or none: see file_put(). @text is freed. */
static int write_text(const char *path, int append, char *text, size_t len)
{
	int ret = text ? file_put(path, text, len, append) : -1;

	if (ret)
		fprintf(stderr, "sysfarm: cannot write '%s': %s\n", path,
			strerror(errno));
	free(text);
	return ret;
}

static int write_report(const char *path, int append, json_t *results,
			int (*fn)(FILE *, json_t *))
{
	size_t len;
	char *text = report_text(fn, results, &len);

	return write_text(path, append, text, len);
}

static int write_kcidb(const char *path, json_t *results, const char *origin)
{
	size_t len;
	char *text = kcidb_text(results, origin, &len);

	return write_text(path, 0, text, len);
}

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .g.abi = 1, .g.pending = 1, .color = isatty(1) };
	struct golden_run run;
	struct farm f;
	char *html;
	int status;

	farm_init(&f);
	f.uses_source = 1;
	if (ui_setup(&f, argc, argv, &check_cmd, &o, &status))
		goto out_farm;
	if (ui_kcidb_usage("sysfarm check", o.kcidb, o.origin)) {
		status = SF_EXIT_USAGE;
		goto out_farm;
	}
	status = golden_run(&f, &o.g, &run);
	if (status)
		goto out_run;
	if (o.tap)
		report_tap(stdout, run.report);
	else
		golden_print(&f, &run, o.color);
	status = golden_status(&f, &run);
	html = o.html ? xstrdup(o.html) : path_report_html(f.build);
	if ((o.junit && write_report(o.junit, 0, run.report, report_junit)) ||
	    (o.markdown && write_report(o.markdown, 1, run.report,
					report_markdown)) ||
	    (o.kcidb && write_kcidb(o.kcidb, run.report, o.origin)) ||
	    write_report(html, 0, run.report, report_html))
		status = verdict_exit_lost(status);
	else if (!o.tap)
		printf("\nthe page: %s\n", html);
	free(html);
out_run:
	golden_release(&f, &run);
out_farm:
	farm_release(&f);
	return status;
}
