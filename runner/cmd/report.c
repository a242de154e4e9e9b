// SPDX-License-Identifier: GPL-2.0
/* sysfarm report: a results file as TAP, JUnit, Markdown, HTML or KCIDB. */
#include <stdio.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "compare/report.h"
#include "lib/exitcode.h"
#include "lib/options.h"
#include "verify/results.h"

struct report_opts {
	int tap;
	struct output_opts out;
};

static const struct opt report_options[] = {
	OPT_BOOLEAN(0, "tap", struct report_opts, tap,
		    "TAP on stdout (the default)"),
	OPT_GROUP_AT(GROUP_OUTPUT, output_options, struct report_opts, out),
	OPT_END
};

static const struct opt_cmd report_cmd = {
	.usage = "sysfarm report [OPTIONS] RESULTS.json",
	.opts = report_options,
	.after = "Exit status: 0 written, 2 bad usage or bad input, 125 cannot write.\n",
	.nargs = 1,
};

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	int tap, i, status = SF_EXIT_OK;
	json_t *results;
	struct sf_err err = SF_ERR_INIT;

	i = ui_options(argc, argv, &report_cmd, &o, NULL);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (ui_output_usage("sysfarm report", &o.out, (const struct ui_out[]){
		{ "--tap", o.tap ? "-" : NULL, 1 } }, 1))
		return SF_EXIT_USAGE;
	if (results_load(argv[i], &results, &err)) {
		ui_error("sysfarm report", &err);
		return SF_EXIT_USAGE;
	}
	tap = o.tap || (!o.out.junit && !o.out.markdown && !o.out.html &&
			!o.out.kcidb);
	if ((tap && ui_report_write(report_tap, "-", 0, results,
				    "sysfarm report")) ||
	    ui_output(&o.out, results, "sysfarm report"))
		status = SF_EXIT_UNTESTED;
	json_decref(results);
	return status;
}
