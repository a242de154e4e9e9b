// SPDX-License-Identifier: GPL-2.0
/* sysfarm diff: compare two snapshots (or goldens) path by path. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/snap.h"
#include "lib/args.h"
#include "lib/exitcode.h"

static const char usage[] =
	"usage: sysfarm diff [OPTIONS] OLD.json NEW.json\n\n"
	"  --json               the changes as a JSON array\n"
	"  --color=WHEN         auto (a terminal), always or never\n"
	"  --redactions FILE    normalize both sides with these rules first\n"
	"                       (expected/redactions.yaml; none by default)\n\n"
	"Exit status: 0 equal, 1 different, 2 bad usage or bad input.\n";

enum { OPT_JSON = 1000, OPT_COLOR, OPT_REDACTIONS };

static const struct option options[] = {
	{ "json", no_argument, NULL, OPT_JSON },
	{ "color", required_argument, NULL, OPT_COLOR },
	{ "redactions", required_argument, NULL, OPT_REDACTIONS },
	{ 0 }
};

struct diff_opts {
	int json;
	int color;
	const char *rules;
};

/* --color=auto|always|never; -1 for anything else. */
static int color_parse(const char *arg, FILE *out)
{
	if (!strcmp(arg, "always"))
		return 1;
	if (!strcmp(arg, "never"))
		return 0;
	if (!strcmp(arg, "auto"))
		return isatty(fileno(out));
	return -1;
}

static int option_set(void *ctx, int opt, const char *arg)
{
	struct diff_opts *o = ctx;

	if (opt == OPT_JSON) {
		o->json = 1;
	} else if (opt == OPT_REDACTIONS) {
		o->rules = arg;
	} else {
		o->color = color_parse(arg, stdout);
		if (o->color < 0) {
			fprintf(stderr, "sysfarm diff: bad --color '%s', %s\n",
				arg, "want auto, always or never");
			return -1;
		}
	}
	return 0;
}

int cmd_diff(int argc, char **argv)
{
	struct diff_opts o = { .color = color_parse("auto", stdout) };
	struct redactions rules = REDACTIONS_INIT;
	struct diff d = DIFF_INIT;
	struct sf_err err;
	int i, ret;

	i = args_parse(argc, argv, usage, options, option_set, &o, 2);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (o.rules && redactions_load(&rules, o.rules, &err)) {
		fprintf(stderr, "sysfarm diff: %s\n", err.msg);
		return SF_EXIT_USAGE;
	}
	ret = snap_compare(argv[i], argv[i + 1], &rules, &d, &err);
	redactions_release(&rules);
	if (ret) {
		fprintf(stderr, "sysfarm diff: %s\n", err.msg);
		return SF_EXIT_USAGE;
	}
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
