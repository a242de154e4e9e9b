// SPDX-License-Identifier: GPL-2.0
/* sysfarm report: a results file as TAP, JUnit XML or Markdown. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/builtin.h"
#include "compare/report.h"
#include "lib/exitcode.h"
#include "lib/options.h"

struct report_opts {
	int tap;
	const char *junit, *markdown;
};

static const struct opt report_options[] = {
	OPT_BOOLEAN(0, "tap", struct report_opts, tap,
		    "TAP on stdout (the default)"),
	OPT_STRING(0, "junit", struct report_opts, junit, "FILE",
		   "JUnit XML into FILE ('-': stdout)"),
	OPT_STRING(0, "markdown", struct report_opts, markdown, "FILE",
		   "a Markdown summary into FILE ('-': stdout), "
		   "e.g. \"$GITHUB_STEP_SUMMARY\" (appended to)"),
	OPT_END
};

static const struct opt_cmd report_cmd = {
	.usage = "sysfarm report [OPTIONS] RESULTS.json",
	.opts = report_options,
	.after = "Exit status: 0 written, 2 bad usage or bad input, 125 cannot write.\n",
	.nargs = 1,
};

/* @fn's report of @results, built in memory: NULL with errno set. */
static char *report_text(int (*fn)(FILE *, json_t *), json_t *results,
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

/* Replaces @path with its old content and @len bytes of @text. */
static int file_append_atomic(const char *path, const char *text, size_t len)
{
	size_t old_len = 0;
	char *old = file_read(path, &old_len), *all;
	int ret;

	if (!old && errno != ENOENT)
		return -1;
	all = xmalloc(old_len + len);
	memcpy(all, old ? old : "", old_len);
	memcpy(all + old_len, text, len);
	ret = file_write_atomic(path, all, old_len + len);
	free(all);
	free(old);
	return ret;
}

/*
 * Writes @len bytes of @text into @path, after what it holds with
 * @append. A regular file, or a new one, is replaced whole: a full disk
 * leaves it as it was. Anything else (a terminal, a pipe, a symlink such
 * as /dev/stdout) is written in place, as renaming over it would replace
 * the link or fail in /dev.
 */
static int report_put(const char *path, const char *text, size_t len,
		      int append)
{
	struct stat st;
	FILE *f;
	int ret;

	if (lstat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode))
		return append ? file_append_atomic(path, text, len) :
				file_write_atomic(path, text, len);
	f = fopen(path, append ? "a" : "w");
	if (!f)
		return -1;
	ret = fwrite(text, 1, len, f) == len ? 0 : -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

/* Writes one report into @path; Markdown appends, as GitHub expects. */
static int report_write(int (*fn)(FILE *, json_t *), const char *path,
			int append, json_t *results)
{
	size_t len;
	char *text = report_text(fn, results, &len);
	int ret, saved;

	if (text && !strcmp(path, "-")) {
		/* main() reports a lost stdout, once */
		ret = fwrite(text, 1, len, stdout) != len || fflush(stdout);
		free(text);
		return ret ? SF_EXIT_UNTESTED : SF_EXIT_OK;
	}
	ret = text ? report_put(path, text, len, append) : -1;
	saved = errno;
	free(text);
	if (ret) {
		fprintf(stderr, "sysfarm report: cannot write '%s': %s\n",
			path, strerror(saved));
		return SF_EXIT_UNTESTED;
	}
	return SF_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_opts o = { 0 };
	int i, status = SF_EXIT_OK;
	json_t *results;
	struct sf_err err;

	i = options_parse(argc, argv, &report_cmd, &o, NULL, NULL);
	if (i <= 0)
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	if (report_load(argv[i], &results, &err)) {
		fprintf(stderr, "sysfarm report: %s\n", err.msg);
		return SF_EXIT_USAGE;
	}
	if (o.tap || (!o.junit && !o.markdown))
		status = report_write(report_tap, "-", 0, results);
	if (!status && o.junit)
		status = report_write(report_junit, o.junit, 0, results);
	if (!status && o.markdown)
		status = report_write(report_markdown, o.markdown, 1, results);
	json_decref(results);
	return status;
}
