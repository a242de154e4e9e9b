// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: any bytes as a snapshot, redacted and diffed. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/snap.h"

/* Paths relative to the top of the tree, where make and t-fuzz.sh run. */
#define GOLDEN "expected/x86_64-sysfs-on-tca6507.json"
#define RULES "tests/fuzz/redactions.yaml"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static json_t *golden;
static struct redactions rules = REDACTIONS_INIT;
static FILE *devnull;

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_snapshot: %s: %s\n", what, msg);
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
	struct sf_err err = SF_ERR_INIT;

	if (snap_load(GOLDEN, &golden, &err))
		die("cannot load the golden (run from the top)",
		    err_text(&err));
	if (redactions_load(&rules, RULES, &err))
		die("cannot load the rules", err_text(&err));
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		die("/dev/null", "cannot open");
	return 0;
}

/* Everything a change list goes through on its way to the user. */
static void diff_exercise(const struct diff *d)
{
	struct diff back = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;
	json_t *j = diff_to_json(d);

	if (diff_from_json(&back, j, "diff", &err))
		die("diff_from_json() refuses diff_to_json()", err_text(&err));
	if (back.n != d->n)
		die("diff_from_json()", "lost changes");
	for (size_t i = 0; i < d->n; i++)
		if (back.v[i].kind != d->v[i].kind ||
		    strcmp(back.v[i].path, d->v[i].path))
			die("diff_from_json()", "changed a change");
	diff_print(devnull, d, "# ", 1);
	diff_release(&back);
	json_decref(j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct diff d = DIFF_INIT, self = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;
	json_t *snap, *redacted;

	err_clear(&err);
	if (snap_parse("input", (const char *)data, size, &snap, &err)) {
		/* Bad input is named: "input:LINE:COL: ..." or "input: at" */
		if (strncmp(err_text(&err), "input:", 6))
			die("message does not name the input", err_text(&err));
		return 0;
	}

	/* A snapshot equals itself, and a copy of itself. */
	redacted = json_deep_copy(snap);
	diff_snapshots(&self, snap, redacted);
	if (self.n)
		die("a snapshot differs from its copy", self.v[0].path);

	/* Redaction leaves a snapshot that still passes the checker. */
	redactions_apply(&rules, redacted);
	if (snap_check("redacted", redacted, &err))
		die("redaction broke the snapshot", err_text(&err));

	diff_snapshots(&d, golden, snap);
	diff_snapshots(&d, snap, golden);
	diff_snapshots(&d, snap, redacted);
	diff_exercise(&d);

	diff_release(&self);
	diff_release(&d);
	json_decref(redacted);
	json_decref(snap);
	return 0;
}
