/* SPDX-License-Identifier: GPL-2.0 */
/* Redaction rules: sysfs values that vary between identical boots. */
#ifndef SYSFARM_REDACT_H
#define SYSFARM_REDACT_H

#include <jansson.h>
#include <stddef.h>

#include "lib/util.h"

/* One entry of expected/redactions.yaml. */
struct redaction {
	char *path;	/* fnmatch(3) glob, FNM_PATHNAME */
	char *reason;	/* why the value varies: every rule is justified */
	size_t line;	/* where it stands, for messages */
};

struct redactions {
	struct redaction *v;
	size_t n;
};

#define REDACTIONS_INIT { 0 }

/**
 * redactions_load() - read the rules in @path
 *
 * The file is a YAML list of mappings with exactly the keys `path` (a
 * glob over the sysfs path of a file, relative to the sysfs mount as the
 * snapshot spells it, through followed links: class/leds/x/brightness)
 * and `reason` (non-empty text). An empty file or `[]` holds no rules.
 *
 * Return: 0, or INPUT_EIO / INPUT_EBAD (snap.h) with @err set to
 * "FILE:LINE:COL: message".
 */
int redactions_load(struct redactions *r, const char *path,
		    struct sf_err *err);

void redactions_release(struct redactions *r);

/* The first rule that matches @path, or NULL. */
const struct redaction *redactions_match(const struct redactions *r,
					 const char *path);

/**
 * redactions_apply() - normalize a checked snapshot in place
 *
 * Every file node whose path a rule matches keeps its type and mode; its
 * content ("value", "base64", "error", "truncated") becomes
 * "redacted": true. So do the results of `read` and `wait` probes whose
 * (relative) path matches. Applied to both sides before a diff.
 *
 * Return: how many places were redacted.
 */
size_t redactions_apply(const struct redactions *r, json_t *snap);

#endif
