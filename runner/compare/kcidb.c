// SPDX-License-Identifier: GPL-2.0
/* A results file as a KCIDB v5.3 document: checkouts, builds, tests. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/kcidb.h"
#include "lib/util.h"
#include "lib/verdict.h"
#include "snapshotter/text.h"

/* KCIDB v5.3: "version": {"major": 5, "minor": 3} */
#define KCIDB_MAJOR 5
#define KCIDB_MINOR 3
/* log_excerpt's maxLength, in characters; we count bytes, never fewer */
#define KCIDB_EXCERPT_MAX 16384
/* every test's path starts so: sysfs_abi.CONFIG */
#define KCIDB_SUITE "sysfs_abi"
#define ALNUM "abcdefghijklmnopqrstuvwxyz0123456789"
#define ALNUM_UPPER "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

/*
 * A verdict in KCIDB's words, for the build and for the configuration's
 * test: FAIL the tested code is faulty (a PANIC: the kernel did not
 * boot), ERROR the test's own code failed (FLAKY: two boots disagree),
 * MISS the harness could not run it, DONE it ran and judged nothing (no
 * golden to judge by: SNAPSHOT, NEW).
 */
static const struct {
	const char *build, *test;
} kcidb_status[V_NR] = {
	[V_SNAPSHOT]	 = { "PASS", "DONE" },
	[V_PASS]	 = { "PASS", "PASS" },
	[V_DIFF]	 = { "PASS", "FAIL" },
	[V_ABI_MISMATCH] = { "PASS", "FAIL" },
	[V_NEW]		 = { "PASS", "DONE" },
	[V_CONFIG_FAIL]	 = { "FAIL", "MISS" },
	[V_BUILD_FAIL]	 = { "FAIL", "MISS" },
	[V_QEMU_FAIL]	 = { "PASS", "MISS" },
	[V_PANIC]	 = { "PASS", "FAIL" },
	[V_TIMEOUT]	 = { "PASS", "MISS" },
	[V_CORRUPT]	 = { "PASS", "MISS" },
	[V_NO_SNAPSHOT]	 = { "PASS", "MISS" },
	[V_FLAKY]	 = { "PASS", "ERROR" },
};

const char *kcidb_origin_problem(const char *origin)
{
	if (!*origin)
		return "is empty";
	if (origin[strspn(origin, ALNUM "_")])
		return "may hold only a-z, 0-9 and _ (KCIDB's origin)";
	return NULL;
}

static const char *str_of(json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

/* @s with every byte outside @keep as @sub; "" as @sub alone. */
static char *spell(const char *s, const char *keep, char sub, int lower)
{
	char *out = xstrdup(*s ? s : (char[]){ sub, '\0' });

	for (char *p = out; *p; p++) {
		if (lower && *p >= 'A' && *p <= 'Z')
			*p += 'a' - 'A';
		if (!strchr(keep, *p))
			*p = sub;
	}
	return out;
}

/* A test path's component ([A-Za-z0-9_-]+): any other byte as '_'. */
static char *path_component(const char *name)
{
	return spell(name, ALNUM ALNUM_UPPER "_-", '_', 0);
}

/* At most KCIDB_EXCERPT_MAX bytes of @s, a UTF-8 sequence whole. */
static json_t *excerpt(const char *s)
{
	size_t len = strlen(s), n = 0;
	uint32_t cp;

	while (n < len) {
		size_t k = utf8_next(s + n, len - n, &cp);

		if (!k || n + k > KCIDB_EXCERPT_MAX)
			break;
		n += k;
	}
	return json_stringn(s, n);
}

/* Sets @key to @s's excerpt, when @s has any text. */
static void set_excerpt(json_t *o, const char *s)
{
	if (*s)
		json_object_set_new(o, "log_excerpt", excerpt(s));
}

/* @misc as @o's "misc", unless it is empty. */
static void set_misc(json_t *o, json_t *misc)
{
	if (json_object_size(misc))
		json_object_set(o, "misc", misc);
	json_decref(misc);
}

/* Copies @from's @key into @to as @as, when it has one. */
static void copy_key(json_t *to, const char *as, json_t *from,
		     const char *key)
{
	json_t *v = json_object_get(from, key);

	if (v)
		json_object_set(to, as, v);
}

/* The index of @key in @seen (a new one, @n, when it is not there). */
static size_t group_of(json_t *seen, const char *key, size_t n, int *fresh)
{
	json_t *v = json_object_get(seen, key);

	*fresh = !v;
	if (v)
		return json_integer_value(v);
	json_object_set_new(seen, key, json_integer(n));
	return n;
}

/*
 * The source tree an entry was built from: a checkout per source (its
 * Debian package and version, the .deb's sha256) and series, from what
 * the kernel's manifest recorded ("inputs") and the series' patchset hash.
 */
static json_t *checkout_json(json_t *c, const char *id, const char *origin)
{
	json_t *in = json_object_get(c, "inputs");
	json_t *co = json_pack("{s:s, s:s}", "id", id, "origin", origin);
	json_t *misc = json_object();
	const char *source = str_of(in, "source");

	if (*source) {
		/*
		 * "PACKAGE VERSION": the package names the tree; a user's
		 * tree is "DIR VERSION", a path that names nothing elsewhere
		 */
		char *tree = xstrfmt("%.*s", (int)strcspn(source, " "),
				     source);

		if (!strchr(tree, '/'))
			json_object_set_new(co, "tree_name",
					    json_string(tree));
		json_object_set_new(co, "comment", json_string(source));
		free(tree);
	} else {
		json_object_set_new(co, "comment",
			json_string("the results file names no source"));
	}
	copy_key(co, "patchset_hash", c, "patchset_hash");
	copy_key(misc, "source", in, "source");
	copy_key(misc, "source_sha256", in, "source_sha256");
	copy_key(misc, "series", in, "series");
	set_misc(co, misc);
	return co;
}

/* "a.config+b.config": the fragments' names, else the .config's id. */
static char *config_name(json_t *c)
{
	json_t *frag = json_object_get(c, "kconfig"), *v;
	char *name = NULL, *more;
	size_t i;

	json_array_foreach(frag, i, v) {
		const char *base = strrchr(json_string_value(v), '/');

		base = base ? base + 1 : json_string_value(v);
		more = name ? xstrfmt("%s+%s", name, base) : xstrdup(base);
		free(name);
		name = more;
	}
	return name ? name : xstrdup(str_of(json_object_get(c, "inputs"),
					    "config"));
}

/* A build key's kernel, as the entry @c that first names it saw it. */
static json_t *build_json(json_t *c, const char *id, const char *checkout,
			  const char *origin, enum verdict v)
{
	json_t *in = json_object_get(c, "inputs");
	json_t *b = json_pack("{s:s, s:s, s:s, s:s}", "id", id,
			      "origin", origin, "checkout_id", checkout,
			      "status", kcidb_status[v].build);
	json_t *misc = json_object();
	char *name = config_name(c);

	if (json_object_get(c, "arch")) {
		char *arch = spell(str_of(c, "arch"), ALNUM "_", '_', 1);

		json_object_set_new(b, "architecture", json_string(arch));
		free(arch);
	}
	copy_key(b, "compiler", in, "compiler");
	if (*name)
		json_object_set_new(b, "config_name", json_string(name));
	free(name);
	/* results_check() saw that build_seconds is a number */
	if (json_is_true(json_object_get(c, "built")))
		copy_key(b, "duration", c, "build_seconds");
	if (!strcmp(kcidb_status[v].build, "FAIL"))
		set_excerpt(b, str_of(c, "message"));
	copy_key(misc, "key", c, "key");
	copy_key(misc, "config", in, "config");
	copy_key(misc, "kconfig", c, "kconfig");
	set_misc(b, misc);
	return b;
}

/*
 * A configuration's test: its verdict in KCIDB's words, its message (a
 * fault's console lines) as the excerpt, and in "misc" the judge's
 * entries as the results file holds them (the classified changes, the
 * ABI table's findings, the inputs that changed, the boots retried).
 */
static json_t *test_json(json_t *c, const char *id, const char *build,
			 const char *origin, enum verdict v)
{
	static const char *const kept[][2] = {
		{ "changes", "diff" }, { "abi", "abi" },
		{ "inputs_changed", "inputs_changed" },
		{ "retried", "retried" }, { "confirmed", "confirmed" },
		{ "axes", "axes" }, { "roots", "roots" },
	};
	char *comp = path_component(str_of(c, "config"));
	char *path = xstrfmt(KCIDB_SUITE ".%s", comp);
	char *comment = xstrfmt("%s: %s", str_of(c, "config"),
				verdict_name(v));
	json_t *t = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "id", id,
			      "origin", origin, "build_id", build,
			      "path", path, "status", kcidb_status[v].test,
			      "comment", comment);
	json_t *misc = json_pack("{s:s, s:s}", "config", str_of(c, "config"),
				 "verdict", verdict_name(v));

	copy_key(t, "duration", c, "seconds");
	set_excerpt(t, str_of(c, "message"));
	for (size_t i = 0; i < ARRAY_SIZE(kept); i++)
		copy_key(misc, kept[i][0], c, kept[i][1]);
	set_misc(t, misc);
	free(comp);
	free(path);
	free(comment);
	return t;
}

/*
 * This run's part of every id: a hash of the results file, so that the
 * same results give the same ids (a submission repeated is one) and
 * another run's do not collide with them.
 */
static char *run_id(json_t *results)
{
	char *text = json_dumps(results, JSON_COMPACT | JSON_SORT_KEYS);
	uint64_t h = hash_str(HASH_INIT, text ? text : "");

	free(text);
	return xstrfmt("%016llx", (unsigned long long)h);
}

static json_t *kcidb_document(json_t *results, const char *origin)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	json_t *checkouts = json_array(), *builds = json_array();
	json_t *tests = json_array();
	json_t *seen_co = json_object(), *seen_b = json_object();
	char *run = run_id(results);
	size_t i;

	json_array_foreach(configs, i, c) {
		json_t *in = json_object_get(c, "inputs");
		enum verdict v = verdict_named(str_of(c, "verdict"));
		/* \x1f: a separator no name holds */
		char *ck = xstrfmt("%s\x1f%s\x1f%s\x1f%s", str_of(in, "source"),
				   str_of(in, "source_sha256"),
				   str_of(in, "series"),
				   str_of(c, "patchset_hash"));
		int fresh;
		size_t co = group_of(seen_co, ck, i, &fresh);
		char *co_id = xstrfmt("%s:%s.c%zu", origin, run, co);
		/* an entry without a key (an older file) is a build alone */
		char *bk = json_object_get(c, "key") ?
			xstrfmt("%zu\x1f%s", co, str_of(c, "key")) :
			xstrfmt("%zu\x1f#%zu", co, i);
		size_t b;
		char *b_id, *t_id = xstrfmt("%s:%s.t%zu", origin, run, i);

		if (fresh)
			json_array_append_new(checkouts,
					      checkout_json(c, co_id, origin));
		b = group_of(seen_b, bk, i, &fresh);
		b_id = xstrfmt("%s:%s.b%zu", origin, run, b);
		if (fresh)
			json_array_append_new(builds,
				build_json(c, b_id, co_id, origin, v));
		json_array_append_new(tests,
				      test_json(c, t_id, b_id, origin, v));
		free(ck);
		free(co_id);
		free(bk);
		free(b_id);
		free(t_id);
	}
	free(run);
	json_decref(seen_co);
	json_decref(seen_b);
	return json_pack("{s:{s:i, s:i}, s:o, s:o, s:o}",
			 "version", "major", KCIDB_MAJOR, "minor", KCIDB_MINOR,
			 "checkouts", checkouts, "builds", builds,
			 "tests", tests);
}

char *kcidb_text(json_t *results, const char *origin, size_t *len)
{
	json_t *doc = kcidb_document(results, origin);
	char *json = json_dumps(doc, JSON_INDENT(2) | JSON_SORT_KEYS);
	char *text = json ? xstrfmt("%s\n", json) : NULL;

	free(json);
	json_decref(doc);
	*len = text ? strlen(text) : 0;
	return text;
}
