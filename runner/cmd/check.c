// SPDX-License-Identifier: GPL-2.0
/* sysfarm check: run configurations and compare them with their goldens. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
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
	"expected/ is bad input). The HTML page is BUILD/out/report.html\n"
	"unless --html names another file. Works in a kernel git checkout for\n"
	"`git bisect run`:\n"
	"  git bisect run sysfarm check --matrix M --kernel-src . CONFIG\n";

struct check_opts {
	struct golden_opts g;
	struct output_opts out;
	int tap, color;
};

static const struct opt check_options[] = {
	OPT_INCLUDE(golden_options, struct check_opts, g),
	OPT_GROUP_AT(GROUP_OUTPUT, output_options, struct check_opts, out),
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

int cmd_check(int argc, char **argv)
{
	struct check_opts o = { .g.abi = 1, .g.pending = 1, .color = isatty(1) };
	struct golden_run run;
	struct farm f;
	char *html = NULL, *results = NULL;
	int status, doc;

	farm_init(&f);
	f.uses_source = 1;
	if (ui_setup(&f, argc, argv, &check_cmd, &o, &status))
		goto out_farm;
	/* an output on stdout is all it prints there, but --tap */
	doc = ui_output_stdout(&o.out);
	html = path_report_html(f.build);
	if (!o.out.html)
		o.out.html = html;
	results = o.g.results ? xstrdup(o.g.results) : path_results(f.build);
	if (ui_output_usage("sysfarm check", &o.out, (const struct ui_out[]){
		{ o.tap ? "--tap" : "the table on stdout",
		  o.tap || !doc ? "-" : NULL, 1 },
		{ "--results", results, 0 } }, 2)) {
		status = SF_EXIT_USAGE;
		goto out_farm;
	}
	status = golden_run(&f, &o.g, &run);
	if (status)
		goto out_run;
	if (o.tap)
		report_tap(stdout, run.report);
	else if (!doc)
		golden_print(&f, &run, o.color);
	status = golden_status(&f, &run);
	if (ui_output(&o.out, run.report, "sysfarm"))
		status = verdict_exit_lost(status);
	else if (!o.tap && !doc)
		printf("\nthe page: %s\n", o.out.html);
out_run:
	golden_release(&f, &run);
out_farm:
	free(results);
	free(html);
	farm_release(&f);
	return status;
}
