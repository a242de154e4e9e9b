// SPDX-License-Identifier: GPL-2.0
/*
 * Unit tests, TAP: a path's Documentation/ABI status (compare/abi.c) in
 * tests/abi/status's two trees, each change marked from its side's tree,
 * the status rules of a table, and the status in diff.c's text and JSON.
 * Run from the top of the tree.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare/abi.h"
#include "compare/diff.h"
#include "tests/tap.h"

#define STATUS "tests/abi/status"

/* the status of path in the old tree, then in the new one */
static const struct {
	const char *path;
	enum diff_abi old, new;
} statuses[] = {
	/* in stable/ and named by obsolete/'s text: the stronger promise */
	{ "class/farm/chip0/stable_attr", DIFF_ABI_STABLE, DIFF_ABI_STABLE },
	{ "class/farm/chip0/testing_attr", DIFF_ABI_TESTING,
	  DIFF_ABI_TESTING },
	/* a directory entry whose text names "/old_attr" */
	{ "class/farm/chip0/old_attr", DIFF_ABI_OBSOLETE, DIFF_ABI_OBSOLETE },
	/* "/chipN" names chip0, and a link's own node is the link's path */
	{ "class/farm/chip0", DIFF_ABI_OBSOLETE, DIFF_ABI_OBSOLETE },
	{ "class/farm/chip12/", DIFF_ABI_OBSOLETE, DIFF_ABI_OBSOLETE },
	/* ... but not a name that only starts like it */
	{ "class/farm/chipset", DIFF_ABI_UNDOCUMENTED,
	  DIFF_ABI_UNDOCUMENTED },
	{ "class/farm/chip0/gone_attr", DIFF_ABI_REMOVED, DIFF_ABI_REMOVED },
	/* obsolete in the old tree, moved to removed/ in the new one */
	{ "class/farm/chip0/moved_attr", DIFF_ABI_OBSOLETE,
	  DIFF_ABI_REMOVED },
	{ "class/farm/chip0/new_attr", DIFF_ABI_UNDOCUMENTED,
	  DIFF_ABI_TESTING },
	/* another class's What: of the same name lends it nothing */
	{ "class/farm/chip0/plain_attr", DIFF_ABI_UNDOCUMENTED,
	  DIFF_ABI_UNDOCUMENTED },
	{ "class/other/x/plain_attr", DIFF_ABI_TESTING, DIFF_ABI_TESTING },
};

static struct diff_change change(enum diff_kind kind, const char *path)
{
	return (struct diff_change){
		.kind = kind, .path = xstrdup(path),
		.old = kind == DIFF_ADDED ? NULL : xstrdup("file 0444"),
		.new = kind == DIFF_REMOVED ? NULL : xstrdup("file 0444"),
	};
}

static void docs_test(const struct abi_docs *old, const struct abi_docs *new)
{
	struct diff d = DIFF_INIT;

	for (size_t i = 0; i < ARRAY_SIZE(statuses); i++) {
		enum diff_abi o = abi_docs_status(old, statuses[i].path);
		enum diff_abi n = abi_docs_status(new, statuses[i].path);

		ok(o == statuses[i].old && n == statuses[i].new,
		   "%s: %s in the old tree, %s in the new (got %s, %s)",
		   statuses[i].path, diff_abi_name(statuses[i].old),
		   diff_abi_name(statuses[i].new), diff_abi_name(o),
		   diff_abi_name(n));
	}
	ok(abi_docs_status(NULL, "class/farm/chip0/stable_attr") ==
	   DIFF_ABI_UNKNOWN, "no tree at hand: unknown, never guessed");

	d.v = xmalloc(4 * sizeof(*d.v));
	d.v[d.n++] = change(DIFF_REMOVED, "class/farm/chip0/moved_attr");
	d.v[d.n++] = change(DIFF_ADDED, "class/farm/chip0/new_attr");
	d.v[d.n++] = change(DIFF_VALUE, "class/farm/chip0/moved_attr");
	d.v[d.n++] = change(DIFF_ADDED, "kmsg[1]");
	abi_docs_mark(old, new, &d);
	ok(d.v[0].abi == DIFF_ABI_OBSOLETE,
	   "a removal takes the old tree's status");
	ok(d.v[1].abi == DIFF_ABI_TESTING,
	   "an addition takes the new tree's");
	ok(d.v[2].abi == DIFF_ABI_REMOVED, "a change takes the new tree's");
	ok(d.v[3].abi == DIFF_ABI_UNKNOWN, "a kmsg line has none");
	abi_docs_mark(NULL, new, &d);
	ok(d.v[0].abi == DIFF_ABI_UNKNOWN,
	   "a removal with no old tree at hand: unknown");
	diff_release(&d);
}

static void format_test(void)
{
	struct diff d = DIFF_INIT, back = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;
	json_t *j, *bad;
	char *line;

	d.v = xmalloc(2 * sizeof(*d.v));
	d.v[d.n++] = change(DIFF_REMOVED, "class/farm/chip0/old_attr");
	d.v[0].abi = DIFF_ABI_OBSOLETE;
	diff_allow(&d.v[0], "expected");
	d.v[d.n++] = change(DIFF_ADDED, "kmsg[1]");
	line = diff_change_format(&d.v[0], 0);
	ok(!strcmp(line, "- class/farm/chip0/old_attr: file 0444 [obsolete] (allowed: expected)"),
	   "text: the status, then the reason (%s)", line);
	free(line);
	line = diff_change_format(&d.v[1], 0);
	ok(!strcmp(line, "+ kmsg[1]: file 0444"),
	   "text: no status, no label (%s)", line);
	free(line);
	j = diff_to_json(&d);
	ok(json_equal(json_object_get(json_array_get(j, 0), "abi_status"),
		      json_string("obsolete")) &&
	   !json_object_get(json_array_get(j, 1), "abi_status"),
	   "JSON: \"abi_status\" where it is known, none elsewhere");
	ok(!diff_from_json(&back, j, "diff", &err) && back.n == 2 &&
	   back.v[0].abi == DIFF_ABI_OBSOLETE && back.v[0].allowed &&
	   back.v[1].abi == DIFF_ABI_UNKNOWN,
	   "JSON read back: the status, and an allowed removal with it");
	diff_release(&back);
	json_object_set_new(json_array_get(j, 0), "abi_status",
			    json_string("promised"));
	ok(diff_from_json(&back, j, "diff", &err) &&
	   strstr(err.text, "unknown abi_status 'promised'"),
	   "JSON: a status that is none refused (%s)", err.text);
	diff_release(&back);
	err_clear(&err);
	bad = json_deep_copy(j);
	json_object_del(json_array_get(bad, 0), "abi_status");
	ok(diff_from_json(&back, bad, "diff", &err) &&
	   strstr(err.text, "only an addition can be allowed"),
	   "JSON: an allowed removal without a status refused (%s)",
	   err.text);
	diff_release(&back);
	json_decref(bad);
	json_decref(j);
	diff_release(&d);
}

static void policy_test(void)
{
	struct abi_table t = ABI_TABLE_INIT;
	struct sf_err err = SF_ERR_INIT;
	const char *why;

	ok(!abi_table_load(&t, STATUS "/abi.yaml", &err) && !t.n &&
	   t.npolicy == 2, "a table of two status rules, no file row");
	why = abi_policy_allows(&t, DIFF_CLASS_REMOVED, DIFF_ABI_OBSOLETE);
	ok(why && strstr(why, "obsolete"),
	   "an obsolete file's removal allowed, with the rule's reason");
	ok(!abi_policy_allows(&t, DIFF_CLASS_REMOVED, DIFF_ABI_STABLE),
	   "... a stable file's is not");
	ok(!abi_policy_allows(&t, DIFF_CLASS_CHANGED, DIFF_ABI_OBSOLETE),
	   "... nor an obsolete file's change");
	ok(abi_policy_allows(&t, DIFF_CLASS_ADDED, DIFF_ABI_TESTING) &&
	   !abi_policy_allows(&t, DIFF_CLASS_REMOVED, DIFF_ABI_TESTING),
	   "an addition to testing/ allowed, a removal from it not");
	ok(!abi_policy_allows(&t, DIFF_CLASS_REMOVED, DIFF_ABI_UNKNOWN),
	   "an unknown status is allowed nothing");
	abi_table_release(&t);
}

/* One rule, two classes: each its own reason. */
static void policy_classes_test(void)
{
	char path[] = "/tmp/abi-status-unit-XXXXXX";
	int fd = mkstemp(path);
	static const char rule[] = "- status: undocumented\n"
		"  allow: {removed: R, changed: C}\n";
	struct abi_table t = ABI_TABLE_INIT;
	struct sf_err err = SF_ERR_INIT;
	const char *r, *c;

	ok(fd >= 0 && write(fd, rule, strlen(rule)) == (ssize_t)strlen(rule) &&
	   !close(fd) && !abi_table_load(&t, path, &err),
	   "a rule of two classes loaded");
	r = abi_policy_allows(&t, DIFF_CLASS_REMOVED, DIFF_ABI_UNDOCUMENTED);
	c = abi_policy_allows(&t, DIFF_CLASS_CHANGED, DIFF_ABI_UNDOCUMENTED);
	ok(r && c && !strcmp(r, "R") && !strcmp(c, "C") &&
	   !abi_policy_allows(&t, DIFF_CLASS_ADDED, DIFF_ABI_UNDOCUMENTED),
	   "each class its own reason, one not named none");
	abi_table_release(&t);
	unlink(path);
}

/* A node @path removed or added, summary @node, allowed by @why. */
static struct diff_change node(enum diff_kind kind, const char *path,
			       const char *summary, const char *why)
{
	return (struct diff_change){
		.kind = kind, .path = xstrdup(path),
		.old = kind == DIFF_REMOVED ? xstrdup(summary) : NULL,
		.new = kind == DIFF_ADDED ? xstrdup(summary) : NULL,
		.allowed = xstrdup(why),
		.abi = kind == DIFF_REMOVED ? DIFF_ABI_OBSOLETE :
					      DIFF_ABI_TESTING,
	};
}

/*
 * Folds whose changes are all allowed (a status rule's removals, an
 * addition's): allowed as their changes are, counted so, and read back.
 */
static void fold_allowed_test(void)
{
	struct diff d = DIFF_INIT, back = DIFF_INIT;
	struct sf_err err = SF_ERR_INIT;
	char *sum;
	json_t *j;

	d.v = xmalloc(6 * sizeof(*d.v));
	d.v[d.n++] = node(DIFF_REMOVED, "class/farm/chip0", "dir 0755", "R");
	d.v[d.n++] = node(DIFF_REMOVED, "class/farm/chip0/a",
			  "file 0444 \"0\\n\"", "R");
	d.v[d.n++] = node(DIFF_REMOVED, "class/gpio/gpio1023", "dir 0755",
			  "R");
	d.v[d.n++] = node(DIFF_REMOVED, "class/gpio/gpio1023/value",
			  "file 0444 \"0\\n\"", "R");
	d.v[d.n++] = node(DIFF_ADDED, "class/gpio/gpio512", "dir 0755", "A");
	d.v[d.n++] = node(DIFF_ADDED, "class/gpio/gpio512/value",
			  "file 0444 \"0\\n\"", "A");
	diff_fold(&d, DIFF_FOLD_ALL);
	sum = diff_summary(&d);
	ok(d.n == 2 && d.v[0].kind == DIFF_REMOVED &&
	   d.v[1].kind == DIFF_RENAMED && !diff_count(&d) &&
	   !strcmp(sum, "1 removed (allowed), 1 changed (allowed)"),
	   "a removed directory and a rename all allowed: counted allowed (%s)",
	   sum);
	free(sum);
	ok(d.v[0].allowed && !strcmp(d.v[0].allowed, "R") &&
	   d.v[1].allowed && !strcmp(d.v[1].allowed, "R; A"),
	   "... each with its changes' reasons");
	j = diff_to_json(&d);
	ok(!diff_from_json(&back, j, "diff", &err) && !diff_cmp(&d, &back),
	   "... and read back from JSON (%s)", err.text);
	json_decref(j);
	diff_release(&back);
	free(d.v[1].members->v[3].allowed);
	d.v[1].members->v[3].allowed = NULL;
	j = diff_to_json(&d);
	err_clear(&err);
	ok(diff_from_json(&back, j, "diff", &err) &&
	   strstr(err.text, "diff[1].entries[3]: not a change the fold"),
	   "an allowed fold of a change that is not refused (%s)", err.text);
	json_decref(j);
	diff_release(&back);
	diff_release(&d);
}

int main(void)
{
	struct abi_docs old, new;
	struct sf_err err = SF_ERR_INIT;

	ok(!abi_docs_load(&old, STATUS "/tree-old", &err) &&
	   !abi_docs_load(&new, STATUS "/tree-new", &err),
	   "both trees' Documentation/ABI read");
	docs_test(&old, &new);
	abi_docs_release(&old);
	abi_docs_release(&new);
	ok(abi_docs_load(&old, STATUS, &err) &&
	   strstr(err.text, "no Documentation/ABI"),
	   "a tree without Documentation/ABI said so (%s)", err.text);
	format_test();
	policy_test();
	policy_classes_test();
	fold_allowed_test();
	return tap_done();
}
