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

/* The verdict @j names, or V_NR. */
static enum verdict verdict_named(json_t *j)
{
	const char *name = json_string_value(j);
	int v;

	for (v = 0; name && v < V_NR; v++)
		if (!strcmp(verdict_name((enum verdict)v), name))
			break;
	return name ? (enum verdict)v : V_NR;
}

static enum verdict verdict_of(json_t *c)
{
	return verdict_named(json_object_get(c, "verdict"));
}

/* More than anyone waits, and a sum of them stays finite. */
#define SECONDS_MAX 1e9

/* Is @f not one of abi_to_json()'s findings? */
static int abi_finding_bad(json_t *f)
{
	json_t *w = json_object_get(f, "waived");

	return !json_is_string(json_object_get(f, "kind")) ||
	       !json_is_string(json_object_get(f, "path")) ||
	       !json_is_string(json_object_get(f, "detail")) ||
	       (w && !json_is_string(w) && !json_is_null(w));
}

/* What is wrong with one configuration's entry, or NULL. */
static const char *config_bad(json_t *c)
{
	static const struct {
		const char *key;
		json_type type;	/* JSON_REAL: any number */
		const char *bad;
	} optional[] = {
		{ "message", JSON_STRING, "\"message\" must be a string" },
		{ "key", JSON_STRING, "\"key\" must be a string" },
		{ "seconds", JSON_REAL, "\"seconds\" must be a number" },
		{ "inputs_changed", JSON_ARRAY,
		  "\"inputs_changed\" must be an array" },
		{ "retried", JSON_ARRAY, "\"retried\" must be an array" },
	};
	json_t *v, *in;
	size_t i;

	if (!json_is_object(c))
		return "must be an object";
	if (!json_is_string(json_object_get(c, "config")))
		return "\"config\" must be a string";
	if (verdict_of(c) == V_NR)
		return "\"verdict\" must be a verdict's name";
	for (i = 0; i < ARRAY_SIZE(optional); i++) {
		v = json_object_get(c, optional[i].key);
		if (v && json_typeof(v) != optional[i].type &&
		    !(optional[i].type == JSON_REAL && json_is_integer(v)))
			return optional[i].bad;
	}
	v = json_object_get(c, "seconds");
	if (v && (json_number_value(v) < 0 ||
		  json_number_value(v) > SECONDS_MAX))
		return "\"seconds\" must be from 0 to 1e9";
	v = json_object_get(c, "inputs_changed");
	json_array_foreach(v, i, in)
		if (!json_is_string(in))
			return "\"inputs_changed\" must hold strings";
	v = json_object_get(c, "retried");
	if (json_array_size(v) > ATTEMPTS_MAX)
		return "\"retried\" must hold at most 5 verdicts";
	json_array_foreach(v, i, in)
		if (!verdict_retried(verdict_named(in)))
			return "\"retried\" must hold QEMU-FAIL, TIMEOUT, CORRUPT or NO-SNAPSHOT";
	v = json_object_get(c, "abi");
	if (v && !json_is_array(v))
		return "\"abi\" must be an array";
	json_array_foreach(v, i, in)
		if (abi_finding_bad(in))
			return "\"abi\" must hold {kind, path, detail: strings, waived: a string or null}";
	v = json_object_get(c, "confirmed");
	if (v && !json_is_boolean(v))
		return "\"confirmed\" must be true or false";
	if (json_is_true(v) && verdict_of(c) != V_DIFF &&
	    verdict_of(c) != V_ABI_MISMATCH)
		return "\"confirmed\" is only true for DIFF or ABI-MISMATCH";
	return NULL;
}

int report_check(const char *name, json_t *results, struct sf_err *err)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	size_t i;

	if (!json_is_array(configs)) {
		err_at(err, ERR_INPUT, name, 0, 0,
		       "\"configs\" must be an array");
		return INPUT_EBAD;
	}
	json_array_foreach(configs, i, c) {
		const char *bad = config_bad(c);
		struct diff d = DIFF_INIT;
		char *what;
		int ret;

		if (bad) {
			err_at(err, ERR_INPUT, name, 0, 0, "configs[%zu]: %s",
			       i, bad);
			return INPUT_EBAD;
		}
		if (!json_object_get(c, "diff"))
			continue;
		what = xstrfmt("%s: configs[%zu].diff", name, i);
		ret = diff_from_json(&d, json_object_get(c, "diff"), what,
				     err);
		free(what);
		diff_release(&d);
		if (ret)
			return INPUT_EBAD;
	}
	return 0;
}

int report_load(const char *path, json_t **out, struct sf_err *err)
{
	json_t *results;
	int ret = json_file_read(path, &results, err);

	if (ret)
		return ret;
	if (report_check(path, results, err)) {
		json_decref(results);
		return INPUT_EBAD;
	}
	*out = results;
	return 0;
}

/*
 * @n bytes of @s with control characters other than tab as \xHH, so that
 * a line stays one line, and the characters in @special after a
 * backslash.
 */
static char *text_clean(const char *s, size_t n, const char *special)
{
	char *out = xmalloc(4 * n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			o += sprintf(o, "\\x%02x", ch);
		} else if (strchr(special, ch)) {
			*o++ = '\\';
			*o++ = (char)ch;
		} else {
			*o++ = (char)ch;
		}
	}
	*o = '\0';
	return out;
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
	struct sf_err err = SF_ERR_INIT;	/* report_check() saw it */
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(c, "inputs_changed"), i, v) {
		char *s = text_clean(json_string_value(v),
				     json_string_length(v), "");

		strv_pushf(lines, "input changed: %s", s);
		free(s);
	}
	while (msg && *msg) {
		size_t n = strcspn(msg, "\n");
		char *s = text_clean(msg, n, "");

		strv_push(lines, s);
		free(s);
		msg += n + (msg[n] == '\n');
	}
	/* report_check() saw verdicts' names, plain words */
	json_array_foreach(json_object_get(c, "retried"), i, v)
		strv_pushf(lines, "booted again after %s",
			   json_string_value(v));
	if (json_is_true(json_object_get(c, "confirmed")))
		strv_push(lines, "confirmed by a second boot");
	/* report_check() saw that the diff converts */
	if (json_object_get(c, "diff") &&
	    !diff_from_json(&d, json_object_get(c, "diff"), "diff", &err))
		for (i = 0; i < d.n; i++) {
			/* old and new come from the file as they are */
			char *line = diff_change_format(&d.v[i], 0);
			char *s = text_clean(line, strlen(line), "");

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
		clean = text_clean(s, strlen(s), "");
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
		char *desc = text_clean(json_string_value(name),
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

/* @s as XML character data (@attr: an attribute value, newlines kept). */
static void xml_put(FILE *out, const char *s, int attr)
{
	size_t len = strlen(s);

	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)s[i];
		uint32_t cp;

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
		else if (ch >= 0x80 && utf8_next(s + i, len - i, &cp) == 3 &&
			 cp >= 0xfffe) {
			/* U+FFFE/F: neither */
			fprintf(out, "\\u%04x", (unsigned int)cp);
			i += 2;
		} else
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
	for (; *s; s++) {
		if (*s == '&')
			fputs("&amp;", out);
		else if (*s == '<')
			fputs("&lt;", out);
		else if (*s == '>')
			fputs("&gt;", out);
		else if (md && strchr("\\`*_[]|#~", *s))
			fprintf(out, "\\%c", *s);
		else if ((unsigned char)*s < 0x20 || *s == 0x7f)
			fputc(' ', out);
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
	struct sf_err err = SF_ERR_INIT;	/* report_check() saw it */

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

int report_markdown(FILE *out, json_t *results)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	struct tally t = tally_count(configs);
	size_t i;

	fprintf(out, "## sysfarm: %zu passed, %zu failed, %zu %s\n\n",
		t.tests - t.failures - t.errors, t.failures, t.errors,
		"could not test");
	fputs("| configuration | verdict | seconds | message |\n"
	      "| --- | --- | ---: | --- |\n", out);
	json_array_foreach(configs, i, c) {
		enum verdict v = verdict_of(c);
		const char *msg = json_string_value(json_object_get(c,
								    "message"));

		char *first = xstrdup(msg ? msg : "");

		/* the first line: the rest is in the details below */
		first[strcspn(first, "\n")] = '\0';
		fputs("| ", out);
		report_md_put(out, config_name(c), 1);
		fprintf(out, " | %s %s | ", verdict_icon(v), verdict_name(v));
		if (json_object_get(c, "seconds"))
			fprintf(out, "%.1f", config_seconds(c));
		fputs(" | ", out);
		report_md_put(out, first, 1);
		fputs(" |\n", out);
		free(first);
	}
	fputc('\n', out);
	json_array_foreach(configs, i, c) {
		struct strv lines = STRV_INIT;

		case_lines(c, &lines);
		if (lines.n)
			md_details(out, c, &lines);
		strv_release(&lines);
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
