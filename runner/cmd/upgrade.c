// SPDX-License-Identifier: GPL-2.0
/* sysfarm upgrade: the ABI delta between configurations one axis apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "verify/upgrade.h"

static const char about[] =
	"For every pair of configurations that differ only in the value of\n"
	"one axis (source, 6.1 -> 6.12), the ABI delta from the first to the\n"
	"second: their goldens expected/CONFIG.json (or with --snapshots the\n"
	"last run's), compared as check compares, redactions applied. Each\n"
	"entry is removed (gone: incompatible for userland), changed (mode,\n"
	"type, target, value, error, probe outcome: to review) or added\n"
	"(compatible); an entry several pairs share is printed once, under\n"
	"the pairs it is in. By default each value of the axis to the next;\n"
	"CONFIG restricts to the pairs from or to it. The review goes to\n"
	"stdout as text (--json: JSON); --markdown FILE also appends it to\n"
	"FILE as Markdown ('-': instead of the text). Under a file's entry\n"
	"(or a probe's of a file),\n"
	"where each side's source tree (BUILD/sources/NAME/src, when\n"
	"prepared) defines its attribute: the one attribute macro of its\n"
	"name (__ATTR(NAME, ...), DEVICE_ATTR_RW(NAME), ...) in the files its\n"
	"kernels compiled, else 'not found' or the candidates (--no-origin:\n"
	"none of this). Exit 0 no delta, 1 a delta, 2 bad\n"
	"usage or input (a golden that cannot be parsed), 125 a golden or\n"
	"snapshot that is missing or cannot be read (the other pairs are\n"
	"still shown), or an output that cannot be written.\n";

struct upgrade_opts {
	struct upgrade_req rq;
	struct golden_dir_opts dir;
	const char *markdown;
	int snapshots, json;
	struct fold_opts fold;
};

static const struct opt upgrade_options[] = {
	OPT_STRING(0, "axis", struct upgrade_opts, rq.axis, "NAME",
		   "the axis the pairs differ in (source)"),
	OPT_STRING(0, "from", struct upgrade_opts, rq.from, "VALUE",
		   "only from this value (to the next, or --to)"),
	OPT_STRING(0, "to", struct upgrade_opts, rq.to, "VALUE",
		   "only to this value (from the one before, or --from)"),
	OPT_INCLUDE(golden_dir_options, struct upgrade_opts, dir),
	OPT_BOOLEAN(0, "snapshots", struct upgrade_opts, snapshots,
		    "compare BUILD/out/CONFIG/snapshot.json instead"),
	OPT_INCLUDE(fold_options, struct upgrade_opts, fold),
	OPT_STRING(0, "markdown", struct upgrade_opts, markdown, "FILE",
		   "also append it as Markdown to FILE ('-': stdout), e.g. "
		   "\"$GITHUB_STEP_SUMMARY\""),
	OPT_BOOLEAN(0, "json", struct upgrade_opts, json,
		    "print the pairs and the entries as one JSON object"),
	OPT_BOOLEAN(0, "no-origin", struct upgrade_opts, rq.no_origin,
		    "look for no file's attribute macro in the source trees"),
	OPT_END
};

static const struct opt_cmd upgrade_cmd = {
	.usage = "sysfarm upgrade [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = upgrade_options,
	.nargs = OPT_CONFIGS,
};

/* Each side that could not be loaded, named, with who makes a missing one. */
static void misses_print(const struct upgrade *u, int snapshots)
{
	for (size_t i = 0; i < u->nmiss; i++) {
		struct sf_err err = u->miss[i].err;
		const char *name = u->f->m.configs[u->miss[i].config].name;
		size_t len = strlen(err.text);

		if (u->miss[i].ret == INPUT_EIO)
			snprintf(err.text + len, sizeof(err.text) - len,
				 " ('sysfarm %s %s' %s)",
				 snapshots ? "run" : "update", name,
				 snapshots ? "takes it" : "writes it");
		ui_error("sysfarm upgrade", &err);
	}
}

/* The Markdown review appended to @path. Return: 0, or -1 (said). */
static int markdown_write(const char *path, const struct upgrade *u)
{
	char *text = NULL;
	size_t len;
	FILE *out = xmemstream(&text, &len);
	int ret;

	upgrade_print(out, u, 1);
	/* @text is set by fclose(), before it is read */
	ret = fclose(out);
	ret = ui_write(path, ret ? NULL : text, len, 1, "sysfarm");
	free(text);
	return ret;
}

int cmd_upgrade(int argc, char **argv)
{
	struct upgrade_opts o = { .rq.axis = "source" };
	struct redactions rules = REDACTIONS_INIT;
	struct sf_err err = SF_ERR_INIT;
	struct upgrade u = { 0 };
	char *goldens = NULL;
	struct farm f;
	int status, md_out;

	farm_init(&f);
	if (ui_setup(&f, argc, argv, &upgrade_cmd, &o, &status))
		goto out;
	status = SF_EXIT_USAGE;
	md_out = o.markdown && !strcmp(o.markdown, "-");
	if (ui_outputs_usage("sysfarm upgrade", (const struct ui_out[]){
		{ o.json ? "--json" : "the text on stdout",
		  o.json || !md_out ? "-" : NULL, 1 },
		{ "--markdown", o.markdown, 0 } }, 2))
		goto out;
	if (upgrade_pairs(&u, &f, &o.rq, &err)) {
		ui_error("sysfarm upgrade", &err);
		goto out;
	}
	if (golden_dir_load(&o.dir, f.top, &goldens, &rules))
		goto out;
	o.rq.goldens = o.snapshots ? NULL : goldens;
	o.rq.rules = &rules;
	o.rq.fold = ui_fold(&o.fold);
	status = upgrade_review(&u, &o.rq);
	misses_print(&u, o.snapshots);
	if (status == SF_EXIT_USAGE)
		goto out;
	if (o.json) {
		json_t *j = upgrade_json(&u);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(j);
	} else if (!md_out) {
		/* --markdown -: the review on stdout is the Markdown one */
		upgrade_print(stdout, &u, 0);
	}
	if (o.markdown && markdown_write(o.markdown, &u))
		status = verdict_exit_lost(status);
out:
	upgrade_release(&u);
	redactions_release(&rules);
	free(goldens);
	farm_release(&f);
	return status;
}
