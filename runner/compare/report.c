// SPDX-License-Identifier: GPL-2.0
/* Reports from a results file: TAP, JUnit XML, Markdown for GitHub. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff.h"
#include "compare/report.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/verdict.h"
#include "snapshotter/text.h"

static enum verdict verdict_of(json_t *c)
{
	return verdict_named(json_string_value(json_object_get(c, "verdict")));
}

/*
 * What a configuration's report says beyond its verdict, one entry a
 * line: the changed inputs first (so that nobody mistakes a kernel
 * update for an ABI change), the message, the boots retried and whether
 * a second boot confirmed it, the diff, the ABI table's findings that are
 * not waived.
 */
static void case_lines(json_t *c, struct strv *lines)
{
	const char *msg = json_string_value(json_object_get(c, "message"));
	struct diff d = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;	/* results_check() saw it */
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(c, "inputs_changed"), i, v) {
		char *s = diff_text_clean(json_string_value(v),
				     json_string_length(v), "");

		strv_pushf(lines, "input changed: %s", s);
		free(s);
	}
	while (msg && *msg) {
		size_t n = strcspn(msg, "\n");
		char *s = diff_text_clean(msg, n, "");

		strv_push(lines, s);
		free(s);
		msg += n + (msg[n] == '\n');
	}
	/* results_check() saw verdicts' names, plain words */
	json_array_foreach(json_object_get(c, "retried"), i, v)
		strv_pushf(lines, "booted again after %s",
			   json_string_value(v));
	if (json_is_true(json_object_get(c, "confirmed")))
		strv_push(lines, "confirmed by a second boot");
	/* results_check() saw that the diff converts */
	if (json_object_get(c, "diff") &&
	    !diff_from_json(&d, json_object_get(c, "diff"), "diff", &err))
		for (i = 0; i < d.n; i++) {
			/* old and new come from the file as they are */
			char *line = diff_change_format(&d.v[i], 0);
			char *s = diff_text_clean(line, strlen(line), "");

			strv_push(lines, s);
			free(line);
			free(s);
		}
	diff_release(&d);
	/* the ABI table's findings that count, as check prints them */
	json_array_foreach(json_object_get(c, "abi"), i, v) {
		char *s, *clean;

		if (json_is_string(json_object_get(v, "waived")))
			continue;
		s = xstrfmt("abi: %s %s: %s",
			    json_string_value(json_object_get(v, "kind")),
			    json_string_value(json_object_get(v, "path")),
			    json_string_value(json_object_get(v, "detail")));
		clean = diff_text_clean(s, strlen(s), "");
		strv_push(lines, clean);
		free(clean);
		free(s);
	}
}

static const char *config_name(json_t *c)
{
	return json_string_value(json_object_get(c, "config"));
}

static double config_seconds(json_t *c)
{
	return json_number_value(json_object_get(c, "seconds"));
}

static int out_status(FILE *out)
{
	if (fflush(out) || ferror(out))
		return errno ? -1 : (errno = EIO, -1);
	return 0;
}

int report_tap(FILE *out, json_t *results)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	size_t i, l;

	fprintf(out, "TAP version 13\n1..%zu\n", json_array_size(configs));
	json_array_foreach(configs, i, c) {
		json_t *name = json_object_get(c, "config");
		enum verdict v = verdict_of(c);
		struct strv lines = STRV_INIT;
		/* a '#' would start a directive: "# SKIP" passes anything */
		char *desc = diff_text_clean(json_string_value(name),
					json_string_length(name), "\\#");

		fprintf(out, "%s %zu - %s: %s\n",
			verdict_exit(v) == SF_EXIT_OK ? "ok" : "not ok", i + 1,
			desc, verdict_name(v));
		free(desc);
		case_lines(c, &lines);
		for (l = 0; l < lines.n; l++)
			fprintf(out, "# %s\n", lines.v[l]);
		strv_release(&lines);
	}
	return out_status(out);
}

/*
 * The UTF-8 sequence @s starts with: as it is, or \uXXXX for one that
 * moves or hides text (diff_cp_unsafe()) or is not XML (U+FFFE/F), or
 * \xHH for a byte that starts none. Return: the bytes of @s it took.
 */
static size_t utf8_put_safe(FILE *out, const char *s, size_t len)
{
	uint32_t cp;
	size_t n = utf8_next(s, len, &cp);

	if (!n) {
		fprintf(out, "\\x%02x", (unsigned char)*s);
		return 1;
	}
	if (diff_cp_unsafe(cp) || cp == 0xfffe || cp == 0xffff)
		fprintf(out, "\\u%04x", (unsigned int)cp);
	else
		fwrite(s, 1, n, out);
	return n;
}

/* @s as XML character data (@attr: an attribute value, newlines kept). */
static void xml_put(FILE *out, const char *s, int attr)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];

		if (ch == '&')
			fputs("&amp;", out);
		else if (ch == '<')
			fputs("&lt;", out);
		else if (ch == '>')
			fputs("&gt;", out);
		else if (ch == '"' && attr)
			fputs("&quot;", out);
		else if (ch == '\n' && attr)
			fputs("&#10;", out);
		else if (ch == '\t' && attr)
			fputs("&#9;", out);
		else if (ch < 0x20 && ch != '\n' && ch != '\t')
			fprintf(out, "\\x%02x", ch);	/* not XML 1.0 */
		else if (ch >= 0x80)
			i += utf8_put_safe(out, s + i, len - i) - 1;
		else
			fputc(ch, out);
	}
}

static void xml_lines(FILE *out, const struct strv *lines)
{
	for (size_t l = 0; l < lines->n; l++) {
		xml_put(out, lines->v[l], 0);
		fputc('\n', out);
	}
}

struct tally {
	size_t tests, failures, errors;
	double seconds;
};

static struct tally tally_count(json_t *configs)
{
	struct tally t = { .tests = json_array_size(configs) };
	json_t *c;
	size_t i;

	json_array_foreach(configs, i, c) {
		int status = verdict_exit(verdict_of(c));

		t.failures += status == SF_EXIT_DIFF;
		t.errors += status == SF_EXIT_UNTESTED;
		t.seconds += config_seconds(c);
	}
	return t;
}

int report_junit(FILE *out, json_t *results)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	struct tally t = tally_count(configs);
	size_t i;

	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", out);
	fprintf(out, "<testsuites name=\"sysfarm\" tests=\"%zu\" "
		"failures=\"%zu\" errors=\"%zu\" time=\"%.3f\">\n",
		t.tests, t.failures, t.errors, t.seconds);
	fprintf(out, "  <testsuite name=\"sysfarm\" tests=\"%zu\" "
		"failures=\"%zu\" errors=\"%zu\" skipped=\"0\" "
		"time=\"%.3f\">\n",
		t.tests, t.failures, t.errors, t.seconds);
	json_array_foreach(configs, i, c) {
		enum verdict v = verdict_of(c);
		int status = verdict_exit(v);
		const char *msg = json_string_value(json_object_get(c,
								    "message"));
		const char *tag = status == SF_EXIT_DIFF ? "failure" : "error";
		struct strv lines = STRV_INIT;

		fputs("    <testcase classname=\"sysfarm\" name=\"", out);
		xml_put(out, config_name(c), 1);
		fprintf(out, "\" time=\"%.3f\"", config_seconds(c));
		case_lines(c, &lines);
		if (status == SF_EXIT_OK && !lines.n) {
			fputs("/>\n", out);
			strv_release(&lines);
			continue;
		}
		fputs(">\n", out);
		if (status != SF_EXIT_OK) {
			fprintf(out, "      <%s type=\"%s\" message=\"", tag,
				verdict_name(v));
			xml_put(out, msg && *msg ? msg : verdict_name(v), 1);
			fputs("\">", out);
			xml_lines(out, &lines);
			fprintf(out, "</%s>\n", tag);
		} else {
			fputs("      <system-out>", out);
			xml_lines(out, &lines);
			fputs("</system-out>\n", out);
		}
		fputs("    </testcase>\n", out);
		strv_release(&lines);
	}
	fputs("  </testsuite>\n</testsuites>\n", out);
	return out_status(out);
}

void report_md_put(FILE *out, const char *s, int md)
{
	size_t len = strlen(s);

	for (const char *end = s + len; *s; s++) {
		if ((unsigned char)*s >= 0x80) {
			s += utf8_put_safe(out, s, (size_t)(end - s)) - 1;
			continue;
		}
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (md && strchr("\\`*_[]|#~", *s))
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fprintf(out, "\\x%02x", (unsigned char)*s);
		else
			fputc(*s, out);
	}
}

/* A code fence longer than any run of backticks in @lines. */
static size_t fence_len(const struct strv *lines)
{
	size_t longest = 2, l;

	for (l = 0; l < lines->n; l++) {
		const char *s = lines->v[l];

		while ((s = strchr(s, '`'))) {
			size_t n = strspn(s, "`");

			if (n > longest)
				longest = n;
			s += n;
		}
	}
	return longest + 1;
}

static const char *verdict_icon(enum verdict v)
{
	switch (verdict_exit(v)) {
	case SF_EXIT_OK:
		return "\u2705";	/* check mark */
	case SF_EXIT_DIFF:
		return "\u274c";	/* cross */
	default:
		return "\u26a0\ufe0f";	/* warning sign */
	}
}

static void md_details(FILE *out, json_t *c, const struct strv *lines)
{
	size_t fence = fence_len(lines), n = 0, l;
	struct diff d = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;	/* results_check() saw it */

	/* no Markdown inside an HTML block: only HTML escapes */
	fputs("<details><summary>", out);
	report_md_put(out, config_name(c), 0);
	fprintf(out, ": %s", json_string_value(json_object_get(c, "verdict")));
	/* the changes by class: "1 removed, 2 changed" */
	if (json_array_size(json_object_get(c, "diff")) &&
	    !diff_from_json(&d, json_object_get(c, "diff"), "diff", &err)) {
		char *summary = diff_summary(&d);

		fprintf(out, ", %s", summary);
		free(summary);
	}
	diff_release(&d);
	fputs("</summary>\n\n", out);
	for (n = 0; n < fence; n++)
		fputc('`', out);
	fputs("diff\n", out);
	for (l = 0; l < lines->n; l++)
		fprintf(out, "%s\n", lines->v[l]);
	for (n = 0; n < fence; n++)
		fputc('`', out);
	fputs("\n\n</details>\n\n", out);
}

/*
 * GitHub takes at most 1 MiB of a step's summary: the details stop before
 * that, with a note, so that the table and what fits are shown.
 */
#define SUMMARY_MAX (1024 * 1024)
#define SUMMARY_CUT_NOTE 512		/* room kept for the note */

/* The note: which configurations' @what are not shown, and where. */
static void md_cut(FILE *out, json_t *configs, size_t from, const char *what)
{
	size_t n = json_array_size(configs) - from;

	fprintf(out, "**The %s of %zu configuration%s are cut here:** GitHub shows at most 1 MiB of a step's summary. All of them are in the HTML report and results.json (the workflow's artifacts, or `sysfarm report --html`).\n",
		what, n, n == 1 ? "" : "s");
}

/*
 * At most 300 bytes of @s (a UTF-8 sequence kept whole), up to its first
 * newline with @line.
 */
static char *md_cap(const char *s, int line)
{
	size_t len = line ? strcspn(s, "\n") : strlen(s);

	if (len > 300) {
		len = 300;
		while (len && ((unsigned char)s[len] & 0xc0) == 0x80)
			len--;
	}
	return xstrfmt("%.*s", (int)len, s);
}

/* One row of the table. */
static void md_row(FILE *out, json_t *c)
{
	enum verdict v = verdict_of(c);
	const char *msg = json_string_value(json_object_get(c, "message"));
	char *name = md_cap(config_name(c), 0);
	char *first = md_cap(msg ? msg : "", 1);

	fputs("| ", out);
	report_md_put(out, name, 1);
	fprintf(out, " | %s %s | ", verdict_icon(v), verdict_name(v));
	if (json_object_get(c, "seconds"))
		fprintf(out, "%.1f", config_seconds(c));
	fputs(" | ", out);
	report_md_put(out, first, 1);
	fputs(" |\n", out);
	free(first);
	free(name);
}

/*
 * The table, then each configuration's details folded; both stop before
 * SUMMARY_MAX with a note (md_cut()). A row keeps 300 bytes of a name,
 * and of a message's first line: the rest is in the details.
 */
int report_markdown(FILE *out, json_t *results)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	struct tally t = tally_count(configs);
	size_t i, used = 0;
	int cut = 0;

	used += fprintf(out, "## sysfarm: %zu passed, %zu failed, %zu %s\n\n",
			t.tests - t.failures - t.errors, t.failures, t.errors,
			"could not test");
	used += fprintf(out, "| configuration | verdict | seconds | message |\n"
			"| --- | --- | ---: | --- |\n");
	json_array_foreach(configs, i, c) {
		char *row = NULL;
		size_t len = 0;
		FILE *mem = xmemstream(&row, &len);

		md_row(mem, c);
		if (fclose(mem) || used + len > SUMMARY_MAX - SUMMARY_CUT_NOTE) {
			free(row);
			fputc('\n', out);
			md_cut(out, configs, i, "rows");
			cut = 1;
			break;
		}
		fwrite(row, 1, len, out);
		used += len;
		free(row);
	}
	if (!cut)
		used += fprintf(out, "\n");
	json_array_foreach(configs, i, c) {
		struct strv lines = STRV_INIT;
		char *block = NULL;
		size_t len = 0;
		FILE *mem;

		if (cut)
			break;
		case_lines(c, &lines);
		if (!lines.n) {
			strv_release(&lines);
			continue;
		}
		mem = xmemstream(&block, &len);
		md_details(mem, c, &lines);
		strv_release(&lines);
		if (fclose(mem) || used + len > SUMMARY_MAX - SUMMARY_CUT_NOTE) {
			free(block);
			md_cut(out, configs, i, "details");
			break;
		}
		fwrite(block, 1, len, out);
		used += len;
		free(block);
	}
	return out_status(out);
}

char *report_text(int (*fn)(FILE *, json_t *), json_t *results,
		  size_t *len)
{
	char *text = NULL;
	FILE *mem = open_memstream(&text, len);
	int ret;

	if (!mem)
		return NULL;
	ret = fn(mem, results);
	if (fclose(mem) || ret) {
		free(text);
		return NULL;
	}
	return text;
}

/*
 * HTML: @s as text or an attribute value; C0 controls and DEL as \xHH,
 * C1 controls, bidi overrides and line separators as \uXXXX (they could
 * move or hide what a reviewer reads), bytes that are not UTF-8 as \xHH.
 */
static void html_put(FILE *out, const char *s)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		uint32_t cp;
		size_t n;

		if (ch == '&') {
			fputs("&amp;", out);
		} else if (ch == '<') {
			fputs("&lt;", out);
		} else if (ch == '>') {
			fputs("&gt;", out);
		} else if (ch == '"') {
			fputs("&quot;", out);
		} else if (ch == '\'') {
			fputs("&#39;", out);
		} else if ((ch < 0x20 && ch != '\n' && ch != '\t') ||
			   ch == 0x7f) {
			fprintf(out, "\\x%02x", ch);
		} else if (ch < 0x80) {
			fputc(ch, out);
		} else if (!(n = utf8_next(s + i, len - i, &cp))) {
			fprintf(out, "\\x%02x", ch);
		} else {
			if (diff_cp_unsafe(cp))
				fprintf(out, "\\u%04x", (unsigned int)cp);
			else
				fwrite(s + i, 1, n, out);
			i += n - 1;
		}
	}
}

/* A cell's colour: the verdict's exit status. */
static const char *html_class(enum verdict v)
{
	switch (verdict_exit(v)) {
	case SF_EXIT_OK:
		return "pass";
	case SF_EXIT_DIFF:
		return "fail";
	default:
		return "untested";
	}
}

/* @c's value of axis @name, or "" (a results file without "axes"). */
static const char *axis_value(json_t *c, const char *name)
{
	json_t *a;
	size_t i;

	json_array_foreach(json_object_get(c, "axes"), i, a)
		if (!strcmp(json_string_value(json_object_get(a, "name")),
			    name))
			return json_string_value(json_object_get(a, "value"));
	return "";
}

/*
 * The grid: the axes of the first configuration, in matrix order, the
 * first half its rows, the rest its columns. Each configuration's values
 * are looked up once; a row (a column) is the first configuration with
 * its values of the row (column) axes, in the order they are met. Without
 * axes, or past GRID_AXES_MAX axes or GRID_KEYS_MAX rows or columns, it is
 * no grid anyone reads: a list, a configuration a row.
 */
#define GRID_KEYS_MAX 64
#define GRID_AXES_MAX 16

struct grid {
	json_t *configs;
	size_t n, naxes, nrow_axes;
	const char **axes;		/* names */
	const char **val;		/* n x naxes */
	size_t rows[GRID_KEYS_MAX], cols[GRID_KEYS_MAX];
	size_t nrows, ncols;		/* 0: a list */
	size_t *head, *next;		/* per cell, per configuration: the
					 * configurations in it, in order */
};

/* Do configurations @i and @j have the same values of axes @from..@to? */
static int grid_same(const struct grid *g, size_t i, size_t j, size_t from,
		     size_t to)
{
	for (size_t a = from; a < to; a++)
		if (strcmp(g->val[i * g->naxes + a], g->val[j * g->naxes + a]))
			return 0;
	return 1;
}

/*
 * The index in @keys of the one with @i's values of @from..@to, added if
 * none has them. Return: it, or GRID_KEYS_MAX when there is no room.
 */
static size_t grid_key(const struct grid *g, size_t *keys, size_t *n,
		       size_t i, size_t from, size_t to)
{
	for (size_t k = 0; k < *n; k++)
		if (grid_same(g, keys[k], i, from, to))
			return k;
	if (*n == GRID_KEYS_MAX)
		return GRID_KEYS_MAX;
	keys[*n] = i;
	return (*n)++;
}

static void grid_init(struct grid *g, json_t *configs)
{
	json_t *axes = json_object_get(json_array_get(configs, 0), "axes");
	size_t i, *cell;
	json_t *a;

	memset(g, 0, sizeof(*g));
	g->configs = configs;
	g->n = json_array_size(configs);
	g->naxes = json_array_size(axes);
	g->nrow_axes = (g->naxes + 1) / 2;
	/* no axes (an older results file), or more than a grid can show */
	if (!g->naxes || g->naxes > GRID_AXES_MAX)
		return;
	g->axes = xmalloc((g->naxes + 1) * sizeof(*g->axes));
	json_array_foreach(axes, i, a)
		g->axes[i] = json_string_value(json_object_get(a, "name"));
	g->val = xmalloc((g->n * g->naxes + 1) * sizeof(*g->val));
	for (i = 0; i < g->n; i++)
		for (size_t k = 0; k < g->naxes; k++)
			g->val[i * g->naxes + k] = axis_value(
				json_array_get(configs, i), g->axes[k]);
	cell = xmalloc((g->n + 1) * sizeof(*cell));
	for (i = 0; i < g->n; i++) {
		size_t r = grid_key(g, g->rows, &g->nrows, i, 0, g->nrow_axes);
		size_t c = grid_key(g, g->cols, &g->ncols, i, g->nrow_axes,
				    g->naxes);

		if (r == GRID_KEYS_MAX || c == GRID_KEYS_MAX) {
			g->nrows = g->ncols = 0;
			break;
		}
		cell[i] = r * GRID_KEYS_MAX + c;
	}
	g->head = xmalloc(GRID_KEYS_MAX * GRID_KEYS_MAX * sizeof(*g->head));
	g->next = xmalloc((g->n + 1) * sizeof(*g->next));
	for (size_t k = 0; k < GRID_KEYS_MAX * GRID_KEYS_MAX; k++)
		g->head[k] = SIZE_MAX;
	/* chained from the last, so that each cell lists them in order */
	for (i = g->n; g->nrows && i-- > 0;) {
		g->next[i] = g->head[cell[i]];
		g->head[cell[i]] = i;
	}
	free(cell);
}

static void grid_release(struct grid *g)
{
	free(g->axes);
	free(g->val);
	free(g->head);
	free(g->next);
}

/* A header cell: "axis=value" a line, @i's values of axes @from..@to. */
static void html_key(FILE *out, const struct grid *g, size_t i, size_t from,
		     size_t to)
{
	for (size_t a = from; a < to; a++) {
		fputs(a > from ? "<br>" : "", out);
		html_put(out, g->axes[a]);
		fputs("=", out);
		html_put(out, g->val[i * g->naxes + a]);
	}
}

/* The changes of @c counted by class, "" for none: malloc'd. */
static char *html_summary(json_t *c)
{
	struct diff d = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;	/* results_check() saw it */
	char *s = xstrdup("");

	if (json_array_size(json_object_get(c, "diff")) &&
	    !diff_from_json(&d, json_object_get(c, "diff"), "diff", &err)) {
		free(s);
		s = diff_summary(&d);
	}
	diff_release(&d);
	return s;
}

/* One configuration in a cell: its name, verdict and changes, a link. */
static void html_entry(FILE *out, json_t *c, size_t i)
{
	enum verdict v = verdict_of(c);
	char *summary = html_summary(c);

	fprintf(out, "<a class=\"entry %s\" href=\"#c%zu\" data-verdict=\"%s\" data-config=\"",
		html_class(v), i, verdict_name(v));
	html_put(out, config_name(c));
	fputs("\"><span class=\"name\">", out);
	html_put(out, config_name(c));
	fprintf(out, "</span><span class=\"verdict\">%s</span>",
		verdict_name(v));
	if (*summary) {
		fputs("<span class=\"sub\">", out);
		html_put(out, summary);
		fputs("</span>", out);
	}
	fputs("</a>", out);
	free(summary);
}

/*
 * A cell: every configuration with its values (two that share them are
 * both shown, none hides another), coloured by the worst of them.
 */
static void html_cell(FILE *out, const struct grid *g, size_t row,
		      size_t col)
{
	size_t first = g->head[row * GRID_KEYS_MAX + col];
	const char *cls = "pass";

	if (first == SIZE_MAX) {
		fputs("<td class=\"cell none\">not run</td>", out);
		return;
	}
	for (size_t i = first; i != SIZE_MAX; i = g->next[i]) {
		int st = verdict_exit(verdict_of(json_array_get(g->configs,
								i)));

		if (st == SF_EXIT_DIFF)
			cls = "fail";
		else if (st != SF_EXIT_OK && strcmp(cls, "fail"))
			cls = "untested";
	}
	fprintf(out, "<td class=\"cell %s\">", cls);
	for (size_t i = first; i != SIZE_MAX; i = g->next[i])
		html_entry(out, json_array_get(g->configs, i), i);
	fputs("</td>", out);
}

static void html_grid(FILE *out, json_t *configs)
{
	struct grid g;

	grid_init(&g, configs);
	fputs("<table class=\"grid\" id=\"grid\">\n", out);
	if (!g.nrows) {
		/* too many values for a grid: a configuration a row */
		for (size_t i = 0; i < g.n; i++) {
			json_t *c = json_array_get(configs, i);

			fprintf(out, "<tr><td class=\"cell %s\">",
				html_class(verdict_of(c)));
			html_entry(out, c, i);
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
		grid_release(&g);
		return;
	}
	/* the corner names the axes of the rows and of the columns */
	fputs("<tr><th class=\"corner\">", out);
	for (size_t a = 0; a < g.naxes; a++) {
		fputs(a == g.nrow_axes ? " \\ " : a ? ", " : "", out);
		html_put(out, g.axes[a]);
	}
	fputs("</th>", out);
	for (size_t k = 0; k < g.ncols; k++) {
		fputs("<th>", out);
		html_key(out, &g, g.cols[k], g.nrow_axes, g.naxes);
		fputs("</th>", out);
	}
	fputs("</tr>\n", out);
	for (size_t r = 0; r < g.nrows; r++) {
		fputs("<tr><th>", out);
		html_key(out, &g, g.rows[r], 0, g.nrow_axes);
		fputs("</th>", out);
		for (size_t k = 0; k < g.ncols; k++)
			html_cell(out, &g, r, k);
		fputs("</tr>\n", out);
	}
	fputs("</table>\n", out);
	grid_release(&g);
}

/* @ch's Documentation/ABI status after its path: " [obsolete]". */
static void html_abi_status(FILE *out, const struct diff_change *ch)
{
	const char *st = diff_abi_name(ch->abi);

	if (st)
		fprintf(out, " <span class=\"abi %s\">[%s]</span>", st, st);
}

/* One change as a row: class, path (and subject), golden, snapshot. */
static void html_change(FILE *out, const struct diff_change *ch)
{
	const char *cls = diff_class_name(diff_class_of(ch->kind));

	fprintf(out, "<tr class=\"%s\"><td>%s</td><td>", cls, cls);
	html_put(out, diff_kind_name(ch->kind));
	fputs("</td><td class=\"path\">", out);
	html_put(out, ch->path);
	if (ch->subject) {
		fputs(" <span class=\"subject\">(", out);
		html_put(out, ch->subject);
		fputs(")</span>", out);
	}
	html_abi_status(out, ch);
	fputs("</td><td class=\"old\">", out);
	html_put(out, ch->old ? ch->old : "");
	fputs("</td><td class=\"new\">", out);
	html_put(out, ch->new ? ch->new : "");
	if (ch->kind == DIFF_RENAMED) {
		char *detail = diff_renamed_detail(ch);

		fputs(" <span class=\"subject\">(", out);
		html_put(out, detail);
		fputs(")</span>", out);
		free(detail);
	}
	if (ch->allowed) {
		fputs(" <span class=\"allowed\">(allowed: ", out);
		html_put(out, ch->allowed);
		fputs(")</span>", out);
	}
	fputs("</td></tr>\n", out);
	if (!ch->members)
		return;
	/* a fold's members beneath it, folded */
	fprintf(out, "<tr class=\"members\"><td></td><td colspan=\"4\"><details><summary>%zu change%s</summary>\n<table class=\"diff\">\n",
		ch->members->n, ch->members->n == 1 ? "" : "s");
	for (size_t k = 0; k < ch->members->n; k++)
		html_change(out, &ch->members->v[k]);
	fputs("</table></details></td></tr>\n", out);
}

static void html_list(FILE *out, const char *title, json_t *arr)
{
	json_t *v;
	size_t i;

	if (!json_array_size(arr))
		return;
	fprintf(out, "<h3>%s</h3>\n<ul>\n", title);
	json_array_foreach(arr, i, v) {
		fputs("<li>", out);
		html_put(out, json_string_value(v));
		fputs("</li>\n", out);
	}
	fputs("</ul>\n", out);
}

static void html_config(FILE *out, json_t *c, size_t i)
{
	enum verdict v = verdict_of(c);
	const char *msg = json_string_value(json_object_get(c, "message"));
	struct diff d = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;	/* results_check() saw it */
	json_t *f;
	size_t k;

	fprintf(out, "<section class=\"config %s\" id=\"c%zu\">\n<h2>",
		html_class(v), i);
	html_put(out, config_name(c));
	fprintf(out, ": <span class=\"verdict\">%s</span></h2>\n",
		verdict_name(v));
	html_list(out, "Inputs changed", json_object_get(c, "inputs_changed"));
	if (msg && *msg) {
		fputs("<pre class=\"message\">", out);
		html_put(out, msg);
		fputs("</pre>\n", out);
	}
	json_array_foreach(json_object_get(c, "retried"), k, f)
		fprintf(out, "<p>booted again after %s</p>\n",
			verdict_name(verdict_named(json_string_value(f))));
	if (json_is_true(json_object_get(c, "confirmed")))
		fputs("<p>confirmed by a second boot</p>\n", out);
	if (json_array_size(json_object_get(c, "diff")) &&
	    !diff_from_json(&d, json_object_get(c, "diff"), "diff", &err)) {
		fputs("<h3>Changes</h3>\n<table class=\"diff\">\n<tr><th>class</th><th>kind</th><th>path</th><th>golden</th><th>snapshot</th></tr>\n",
		      out);
		for (k = 0; k < d.n; k++)
			html_change(out, &d.v[k]);
		fputs("</table>\n", out);
	}
	diff_release(&d);
	if (json_array_size(json_object_get(c, "abi"))) {
		fputs("<h3>ABI table findings</h3>\n<table class=\"abi\">\n<tr><th>kind</th><th>path</th><th>detail</th><th>waived</th></tr>\n",
		      out);
		json_array_foreach(json_object_get(c, "abi"), k, f) {
			const char *why = json_string_value(
				json_object_get(f, "waived"));

			fputs("<tr><td>", out);
			html_put(out, json_string_value(json_object_get(f, "kind")));
			fputs("</td><td class=\"path\">", out);
			html_put(out, json_string_value(json_object_get(f, "path")));
			fputs("</td><td>", out);
			html_put(out, json_string_value(json_object_get(f, "detail")));
			fputs("</td><td>", out);
			html_put(out, why ? why : "");
			fputs("</td></tr>\n", out);
		}
		fputs("</table>\n", out);
	}
	fputs("<p><a href=\"#grid\">back to the grid</a></p>\n</section>\n", out);
}

static const char html_style[] =
	"body{font:14px/1.4 sans-serif;margin:1.5em;color:#222}"
	"table{border-collapse:collapse;margin:.5em 0}"
	"th,td{border:1px solid #bbb;padding:.3em .5em;vertical-align:top;text-align:left}"
	".grid td.cell{min-width:11em}"
	".grid a{display:block;color:inherit;text-decoration:none}"
	".grid a+a{border-top:1px dashed #999;margin-top:.3em;padding-top:.3em}"
	".grid .name{display:block;font-size:85%}"
	".grid .verdict{display:block;font-weight:bold}"
	".grid .sub{display:block;font-size:85%}"
	".pass{background:#d9f2d9}.fail{background:#f8d0d0}"
	".untested{background:#fbe7b5}.none{background:#eee;color:#888}"
	"section.config{border-left:6px solid #bbb;padding-left:1em;margin:1.5em 0;background:none}"
	"section.pass{border-color:#3a3}section.fail{border-color:#c33}"
	"section.untested{border-color:#d90}"
	"pre{background:#f4f4f4;padding:.5em;overflow-x:auto;white-space:pre-wrap}"
	".path,.old,.new{font-family:monospace;word-break:break-all}"
	"tr.removed td:first-child{color:#c33;font-weight:bold}"
	"tr.changed td:first-child{color:#b70;font-weight:bold}"
	"tr.added td:first-child{color:#3a3;font-weight:bold}"
	".subject,.allowed,.corner{color:#666}";

int report_html(FILE *out, json_t *results)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	struct tally t = tally_count(configs);
	char *title = xstrfmt("sysfarm: %zu passed, %zu failed, %zu could not test",
			      t.tests - t.failures - t.errors, t.failures,
			      t.errors);
	size_t i;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>",
	      out);
	html_put(out, title);
	fprintf(out, "</title>\n<style>%s</style>\n</head>\n<body>\n<h1>",
		html_style);
	html_put(out, title);
	fputs("</h1>\n", out);
	html_grid(out, configs);
	json_array_foreach(configs, i, c)
		html_config(out, c, i);
	fputs("</body>\n</html>\n", out);
	free(title);
	return out_status(out);
}
