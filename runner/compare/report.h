/* SPDX-License-Identifier: GPL-2.0 */
/* A farm results file as TAP, JUnit XML or a Markdown summary. */
#ifndef SYSFARM_REPORT_H
#define SYSFARM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "lib/util.h"

/*
 * The writers take a results file as results_load() (verify/results.h)
 * checked it, its schema described there. Each returns 0, or -1 when
 * writing to @out failed (errno set).
 */

/* TAP 13: `ok`/`not ok` a configuration; inputs, message, diff as `#`. */
int report_tap(FILE *out, json_t *results);

/* JUnit XML: DIFF and NEW are failures, could-not-test verdicts errors. */
int report_junit(FILE *out, json_t *results);

/*
 * One self-contained HTML page (no script, no network): the matrix as a
 * grid whose rows and columns are its axes ("axes" of each entry), each
 * cell coloured by verdict and leading to the configuration's section:
 * its message (a fault's console lines), inputs changed, classified
 * changes with golden and snapshot side by side, ABI findings.
 */
int report_html(FILE *out, json_t *results);

/* Markdown for $GITHUB_STEP_SUMMARY: a table, details folded below it. */
int report_markdown(FILE *out, json_t *results);

/*
 * @s escaped for HTML, and with @md for Markdown too (a table cell, a
 * heading): a name from a file cannot break a row or start markup; control
 * characters show as \xHH.
 */
void report_md_put(FILE *out, const char *s, int md);

/*
 * @fn's report of @results, built in memory, so that a file gets all of
 * it or nothing: NULL with errno set.
 */
char *report_text(int (*fn)(FILE *, json_t *), json_t *results,
		  size_t *len);

#endif
