// SPDX-License-Identifier: GPL-2.0
/* sysfarm diff: compare two snapshots (or goldens) path by path. */
#include <stdio.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/options.h"

struct diff_opts {
	int json;
	int color;
	struct fold_opts fold;
	const char *rules;
};

static const struct opt diff_options[] = {
	OPT_BOOLEAN(0, "json", struct diff_opts, json,
		    "the changes as a JSON array"),
	OPT_COLOR(0, "color", struct diff_opts, color,
		  "auto (a terminal), always or never"),
	OPT_INCLUDE(fold_options, struct diff_opts, fold),
	OPT_STRING(0, "redactions", struct diff_opts, rules, "FILE",
		   "normalize both sides with these rules first "
		   "(expected/redactions.yaml; none by default)"),
	OPT_END
};

static const struct opt_cmd diff_cmd = {
	.usage = "sysfarm diff [OPTIONS] OLD.json NEW.json",
	.opts = diff_options,
	.after = "Exit status: 0 equal, 1 different, 2 bad usage or bad input,\n"
		 "125 cannot write.\n",
	.nargs = 2,
};

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .color = isatty(STDOUT_FILENO) };
	struct redactions rules = REDACTIONS_INIT;
	struct diff d = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;
	int i, ret;

	i = ui_options(argc, argv, &diff_cmd, &o, NULL);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (o.rules && redactions_load(&rules, o.rules, &err)) {
		ui_error("sysfarm diff", &err);
		return SF_EXIT_USAGE;
	}
	ret = snap_compare(argv[i], argv[i + 1], &rules, &d, &err);
	redactions_release(&rules);
	if (ret) {
		ui_error("sysfarm diff", &err);
		return SF_EXIT_USAGE;
	}
	diff_fold(&d, ui_fold(&o.fold));
	if (o.json) {
		json_t *arr = diff_to_json(&d);

		json_dumpf(arr, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(arr);
	} else {
		diff_print(stdout, &d, "", o.color);
	}
	ret = d.n ? SF_EXIT_DIFF : SF_EXIT_OK;
	diff_release(&d);
	return ret;
}
