// SPDX-License-Identifier: GPL-2.0
/* The one place errors and progress are printed: see ui.h. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/ui.h"
#include "compare/diff.h"
#include "compare/report.h"
#include "compare/kcidb.h"
#include "lib/exitcode.h"

static void sink_error_print(const struct sf_err *e)
{
	ui_error("sysfarm", e);
}

/* stderr is a terminal: the live line's, cleared before any other */
static int ui_tty;

static void sink_progress_print(double seconds, const char *who,
				const char *text)
{
	/* a boot worker's line too clears it: the cursor is on its row */
	fprintf(stderr, "%s[%7.1fs] %s: %s\n", ui_tty ? "\r\033[K" : "",
		seconds, who, text);
}

/* Cut to the terminal's width: a line that wraps cannot be rewritten. */
static void sink_live_print(double seconds, const char *text)
{
	struct winsize ws;
	int cols = 80;

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 12)
		cols = ws.ws_col;
	if (text)
		fprintf(stderr, "\r[%7.1fs] %.*s\033[K", seconds, cols - 12,
			text);
	else
		fputs("\r\033[K", stderr);
	fflush(stderr);
}

static const struct sf_sink ui_sink = {
	.error = sink_error_print,
	.progress = sink_progress_print,
}, ui_sink_tty = {
	.error = sink_error_print,
	.progress = sink_progress_print,
	.live = sink_live_print,
};

void ui_install(void)
{
	ui_tty = isatty(STDERR_FILENO);
	sink_install(ui_tty ? &ui_sink_tty : &ui_sink);
}

/*
 * @text a line at a time, each as diff_text_clean() makes it: a guest's
 * console lines in a PANIC's message, a file's bytes in a parser's
 * complaint, cannot retitle or clear the terminal.
 */
static void text_put(FILE *out, const char *text)
{
	while (*text) {
		size_t n = strcspn(text, "\n");
		char *line = diff_text_clean(text, n, "");

		fputs(line, out);
		free(line);
		text += n;
		if (*text)
			fputc(*text++, out);
	}
}

void ui_error(const char *who, const struct sf_err *e)
{
	char text[ERR_FORMAT_MAX];

	fprintf(stderr, "%s%s%s", ui_tty ? "\r\033[K" : "",
		who ? who : "", who ? ": " : "");
	text_put(stderr, err_format(e, text, sizeof(text)));
	fputc('\n', stderr);
}

void ui_fail(const struct sf_err *e)
{
	ui_error(*e->file && !*e->context ? NULL : "sysfarm", e);
}

const struct opt output_options[] = {
	OPT_STRING(0, "junit", struct output_opts, junit, "FILE",
		   "the results as JUnit XML into FILE ('-': stdout)"),
	OPT_STRING(0, "markdown", struct output_opts, markdown, "FILE",
		   "a Markdown summary appended to FILE ('-': stdout), "
		   "e.g. \"$GITHUB_STEP_SUMMARY\""),
	OPT_STRING(0, "html", struct output_opts, html, "FILE",
		   "one self-contained HTML page into FILE ('-': stdout)"),
	OPT_STRING(0, "kcidb", struct output_opts, kcidb, "FILE",
		   "a KCIDB v5.3 document into FILE ('-': stdout); "
		   "needs --origin"),
	OPT_STRING(0, "origin", struct output_opts, origin, "NAME",
		   "the KCIDB origin submitting it ([a-z0-9_]+)"),
	OPT_END
};

/* The groups, bound to a struct farm but the output group (own tables). */
static const struct opt group_options[] = {
	OPT_GROUP(GROUP_MATRIX, farm_matrix_options),
	OPT_GROUP(GROUP_SOURCE, farm_source_options),
	OPT_GROUP(GROUP_BUILD, farm_build_options),
	OPT_GROUP(GROUP_BOOT, farm_boot_options),
	OPT_GROUP_OWN(GROUP_OUTPUT, output_options),
	OPT_END
};

const struct opt fold_options[] = {
	OPT_BOOLEAN(0, "no-renames", struct fold_opts, no_renames,
		    "a renamed directory's entries each, not one 'renamed'"),
	OPT_BOOLEAN(0, "full", struct fold_opts, full,
		    "a removed or added directory's entries each, not one"),
	OPT_END
};

unsigned int ui_fold(const struct fold_opts *o)
{
	return (o->no_renames ? 0 : DIFF_FOLD_RENAMES) |
	       (o->full ? 0 : DIFF_FOLD_SUBTREES);
}

static unsigned int ui_groups;

void ui_command(unsigned int groups)
{
	ui_groups = groups;
}

int ui_write(const char *path, const char *text, size_t len, int append,
	     const char *who)
{
	if (text && !strcmp(path, "-"))
		/* main() reports a lost stdout, once */
		return fwrite(text, 1, len, stdout) != len || fflush(stdout) ?
		       -1 : 0;
	if (text && !file_put(path, text, len, append))
		return 0;
	fprintf(stderr, "%s: cannot write '%s': %s\n", who, path,
		strerror(errno));
	return -1;
}

int ui_report_write(int (*fn)(FILE *, json_t *), const char *path,
		    int append, json_t *results, const char *who)
{
	size_t len = 0;
	char *text = report_text(fn, results, &len);
	int ret = ui_write(path, text, len, append, who);

	free(text);
	return ret;
}

int ui_output(const struct output_opts *o, json_t *results, const char *who)
{
	const struct {
		int (*fn)(FILE *, json_t *);
		const char *path;
		int append;
	} out[] = {
		{ report_junit, o->junit, 0 },
		{ report_markdown, o->markdown, 1 },
		{ report_html, o->html, 0 },
	};

	for (size_t i = 0; i < sizeof(out) / sizeof(out[0]); i++)
		if (out[i].path && ui_report_write(out[i].fn, out[i].path,
						   out[i].append, results,
						   who))
			return -1;
	if (o->kcidb) {
		size_t len = 0;
		char *text = kcidb_text(results, o->origin, &len);
		int ret = ui_write(o->kcidb, text, len, 0, who);

		free(text);
		return ret;
	}
	return 0;
}

int ui_options(int argc, char **argv, const struct opt_cmd *cmd,
	       void *base, struct farm *f)
{
	struct sf_err err = SF_ERR_INIT;
	int i = options_parse(argc, argv, cmd, base, group_options, f,
			      ui_groups, &err);

	switch (i) {
	case OPTIONS_HELP:
		options_usage(stdout, cmd, group_options, ui_groups);
		return 0;
	case OPTIONS_BAD:
		ui_error("sysfarm", &err);
		return -1;
	case OPTIONS_USAGE:
		ui_error(NULL, &err);
		return -1;
	}
	return i;
}

/* stat() of @path, '-' stdout's. Return: 0, or -1 (errno set). */
static int out_stat(const char *path, struct stat *st)
{
	return strcmp(path, "-") ? stat(path, st) : fstat(STDOUT_FILENO, st);
}

/*
 * Would @a and @b, two outputs' FILEs, end up in one file (a regular
 * file, a pipe, stdout twice)? A character device (/dev/null, a
 * terminal) is not counted: writes there do not undo each other.
 */
static int out_same(const char *a, const char *b)
{
	struct stat sa, sb;
	int ra = out_stat(a, &sa), rb = out_stat(b, &sb);

	if ((!ra && S_ISCHR(sa.st_mode)) || (!rb && S_ISCHR(sb.st_mode)))
		return 0;
	if (!strcmp(a, b))
		return 1;
	return !ra && !rb && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* "--junit 'x'", "--junit -", or "--tap" (its own output, no FILE) */
static char *out_label(char *buf, size_t size, const struct ui_out *o)
{
	char q[80];

	if (o->own)
		snprintf(buf, size, "%s", o->opt);
	else
		snprintf(buf, size, "%s %s", o->opt, strcmp(o->path, "-") ?
			 str_quote(q, sizeof(q), o->path) : "-");
	return buf;
}

int ui_outputs_usage(const char *who, const struct ui_out *v, size_t n)
{
	char la[128], lb[128];

	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; v[i].path && j < n; j++) {
			const char *a = v[i].path, *b = v[j].path;

			if (!b || !out_same(a, b))
				continue;
			fprintf(stderr, "%s: %s and %s both write to %s: name another file for one\n",
				who, out_label(la, sizeof(la), &v[i]),
				out_label(lb, sizeof(lb), &v[j]),
				!strcmp(a, "-") || !strcmp(b, "-") ? "stdout" :
				"one file");
			return -1;
		}
	return 0;
}

int ui_output_stdout(const struct output_opts *o)
{
	const char *paths[] = { o->junit, o->markdown, o->html, o->kcidb };

	for (size_t i = 0; i < ARRAY_SIZE(paths); i++)
		if (paths[i] && !strcmp(paths[i], "-"))
			return 1;
	return 0;
}

int ui_output_usage(const char *who, const struct output_opts *o,
		    const struct ui_out *own, size_t nown)
{
	const struct ui_out group[] = {
		{ "--junit", o->junit, 0 }, { "--markdown", o->markdown, 0 },
		{ "--html", o->html, 0 }, { "--kcidb", o->kcidb, 0 },
	};
	struct ui_out out[UI_OUT_OWN_MAX + ARRAY_SIZE(group)];
	const char *bad = o->origin ? kcidb_origin_problem(o->origin) : NULL;
	char q[80];

	/* the command's own first, as the messages name them */
	nown = nown < UI_OUT_OWN_MAX ? nown : UI_OUT_OWN_MAX;
	memcpy(out, own, nown * sizeof(*own));
	memcpy(out + nown, group, sizeof(group));
	if (ui_outputs_usage(who, out, nown + ARRAY_SIZE(group)))
		return -1;
	if (o->kcidb && !o->origin)
		fprintf(stderr, "%s: --kcidb needs --origin NAME, the CI system submitting it\n",
			who);
	else if (o->origin && !o->kcidb)
		fprintf(stderr, "%s: --origin is for --kcidb FILE\n", who);
	else if (bad)
		fprintf(stderr, "%s: --origin %s %s\n", who,
			str_quote(q, sizeof(q), o->origin), bad);
	else
		return 0;
	return -1;
}

int ui_farm_load(struct farm *f, char *const *names, int n)
{
	struct sf_err err = SF_ERR_INIT;
	int status = farm_load(f, names, n, &err);

	if (status)
		ui_fail(&err);
	return status;
}

int ui_setup(struct farm *f, int argc, char **argv,
	     const struct opt_cmd *cmd, void *ctx, int *status)
{
	int i = ui_options(argc, argv, cmd, ctx, f);

	if (i <= 0) {
		*status = i ? SF_EXIT_USAGE : SF_EXIT_OK;
		return 1;
	}
	*status = ui_farm_load(f, argv + i, argc - i);
	return *status != 0;
}

/* Where a run's kernel came from, for the KERNEL column. */
static const char *ui_kernel(const struct result *r)
{
	if (r->built)
		return "built";
	if (r->build_seconds > 0)
		return "failed";	/* its make ran */
	if (r->shared)
		return "shared";
	return r->v == V_BUILD_FAIL || r->v == V_CONFIG_FAIL ? "-" : "ready";
}

int ui_summary(const struct farm *f, const struct run *runs)
{
	char text[ERR_FORMAT_MAX];
	int status = 0;

	printf("%-32s %-12s %-12s %-6s %7s\n", "CONFIG", "KEY", "VERDICT",
	       "KERNEL", "TIME");
	for (size_t s = 0; s < f->nsel; s++) {
		const struct run *r = &runs[s];

		/* its own cost: its make, if it ran one, and its boots */
		printf("%-32s %-12s %-12s %-6s %6.1fs\n", r->c->name,
		       r->c->key, verdict_name(r->res.v), ui_kernel(&r->res),
		       r->res.build_seconds + r->res.boot_seconds);
		status = verdict_exit_fold(status, verdict_exit(r->res.v));
	}
	for (size_t s = 0; s < f->nsel; s++) {
		const struct run *r = &runs[s];

		if (*err_format(&r->res.why, text, sizeof(text))) {
			printf("\n%s: %s: ", r->c->name,
			       verdict_name(r->res.v));
			text_put(stdout, text);
			putchar('\n');
		}
		if (r->res.nretried) {
			printf("%s: booted again after", r->c->name);
			for (int i = 0; i < r->res.nretried; i++)
				printf("%s %s", i ? "," : "",
				       verdict_name(r->res.retried[i]));
			printf("\n");
		}
	}
	return status;
}
