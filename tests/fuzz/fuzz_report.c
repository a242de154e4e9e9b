// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: any bytes as a results file, loaded and reported. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "compare/report.h"
#include "verify/results.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The input, in memory: no file to remove, no disk to flush. */
static int fd;
static char *path;

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_report: %s: %s\n", what, msg);
	abort();
}

/* @e as the user would read it */
static const char *err_text(const struct sf_err *e)
{
	static char text[ERR_FORMAT_MAX];

	return err_format(e, text, sizeof(text));
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fd = memfd_create("results.json", MFD_CLOEXEC);
	if (fd < 0)
		die("memfd_create", "failed");
	path = xstrfmt("/proc/self/fd/%d", fd);
	return 0;
}

/* @fn's report of @results, as report_text() renders it for a file. */
static char *report_whole(int (*fn)(FILE *, json_t *), json_t *results)
{
	size_t len;
	char *text = report_text(fn, results, &len);

	if (!text)
		die("a report", "cannot be written in memory");
	if (strlen(text) != len)
		die("a report", "holds a NUL");
	return text;
}

/* Of the controls only those in @allowed: a line is one line. */
static void text_controls(const char *what, const char *text,
			  const char *allowed)
{
	for (const unsigned char *s = (const unsigned char *)text; *s; s++)
		if ((*s < 0x20 || *s == 0x7f) && !strchr(allowed, *s))
			die(what, "holds a control character");
}

/* @c in @s not escaped by a backslash (an escaped backslash escapes none). */
static size_t unescaped(const char *s, size_t n, char c)
{
	size_t count = 0, bs = 0;

	for (size_t i = 0; i < n; i++) {
		if (s[i] == c && !(bs & 1))
			count++;
		bs = s[i] == '\\' ? bs + 1 : 0;
	}
	return count;
}

/*
 * One test line a configuration, in order, "# " before everything else:
 * no name or value adds a test line, nor a directive to one.
 */
static void tap_check(const char *tap, size_t n)
{
	const char *line = tap, *end;
	char *want;
	size_t tests = 0;

	text_controls("TAP", tap, "\t\n");
	want = xstrfmt("TAP version 13\n1..%zu\n", n);
	if (strncmp(tap, want, strlen(want)))
		die("TAP", "does not start with its version and plan");
	line += strlen(want);
	free(want);
	for (; *line; line = end + 1) {
		char *ok = xstrfmt("ok %zu - ", tests + 1);
		char *not_ok = xstrfmt("not ok %zu - ", tests + 1);

		end = strchr(line, '\n');
		if (!end)
			die("TAP", "does not end in a newline");
		if (!strncmp(line, ok, strlen(ok)) ||
		    !strncmp(line, not_ok, strlen(not_ok))) {
			if (unescaped(line, (size_t)(end - line), '#'))
				die("TAP", "a test line has a directive");
			tests++;
		} else if (strncmp(line, "# ", 2)) {
			die("TAP", "a line is neither a test nor a comment");
		}
		free(ok);
		free(not_ok);
	}
	if (tests != n)
		die("TAP", "does not have one test line a configuration");
}

/*
 * The attributes of the tag after '<' at @s, each name="value" (values
 * escape '"'): a time is a finite duration.
 */
static void junit_tag(const char *s)
{
	s += 1 + (s[1] == '/');
	s += strcspn(s, " />");
	while (*s == ' ') {
		const char *name = s + 1, *eq = strchr(name, '=');
		const char *value = eq && eq[1] == '"' ? eq + 2 : NULL;
		const char *q = value ? strchr(value, '"') : NULL;
		char *end;
		double t;

		if (!q)
			die("JUnit", "an attribute is not name=\"value\"");
		if (eq - name == 4 && !strncmp(name, "time", 4)) {
			t = strtod(value, &end);
			if (end == value || end != q || !isfinite(t) || t < 0)
				die("JUnit", "a time is not a finite duration");
		}
		s = q + 1;
	}
	if (*s != '>' && strncmp(s, "/>", 2))
		die("JUnit", "a tag does not end");
}

/* Characters XML 1.0 has, well-formed tags, a testcase a configuration. */
static void junit_check(const char *xml, size_t n)
{
	const char *s;
	size_t cases = 0;

	/* XML 1.0 has DEL */
	text_controls("JUnit", xml, "\t\n\x7f");
	if (strstr(xml, "\xef\xbf\xbe") || strstr(xml, "\xef\xbf\xbf"))
		die("JUnit", "holds U+FFFE or U+FFFF");
	/* data escapes '<': every other one starts a tag */
	for (s = strchr(xml, '\n'); s && (s = strchr(s, '<')); s++) {
		junit_tag(s);
		cases += !strncmp(s, "<testcase ", 10);
	}
	if (cases != n)
		die("JUnit", "does not have one testcase a configuration");
}

/* The table: a row a configuration, each of four cells. */
static void markdown_check(const char *md, size_t n)
{
	const char *row = strstr(md, "| --- |");

	text_controls("Markdown", md, "\t\n");
	if (!row)
		die("Markdown", "has no table");
	row = strchr(row, '\n') + 1;
	for (size_t i = 0; i < n; i++) {
		const char *end = strchr(row, '\n');

		if (!end || strncmp(row, "| ", 2) ||
		    unescaped(row, (size_t)(end - row), '|') != 5)
			die("Markdown", "a row is not four cells");
		row = end + 1;
	}
	if (*row != '\n')
		die("Markdown", "the table has more rows than configurations");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sf_err err = SF_ERR_INIT;
	json_t *results;
	char *text;
	size_t n;

	if (ftruncate(fd, 0) || pwrite(fd, data, size, 0) != (ssize_t)size)
		die("cannot write", path);
	err_clear(&err);
	if (results_load(path, &results, &err)) {
		/* Bad input is named: "PATH:LINE:COL: ..." or "PATH: ..." */
		if (strncmp(err_text(&err), path, strlen(path)) ||
		    err_text(&err)[strlen(path)] != ':')
			die("message does not name the results",
			    err_text(&err));
		return 0;
	}
	n = json_array_size(json_object_get(results, "configs"));
	text = report_whole(report_tap, results);
	tap_check(text, n);
	free(text);
	text = report_whole(report_junit, results);
	junit_check(text, n);
	free(text);
	text = report_whole(report_markdown, results);
	markdown_check(text, n);
	free(text);
	json_decref(results);
	return 0;
}
