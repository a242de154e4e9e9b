// SPDX-License-Identifier: GPL-2.0
/* The ABI table: load it, check snapshots and Documentation/ABI against it. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/abi.h"
#include "compare/diff.h"
#include "lib/kversion.h"
#include "lib/yamlfile.h"

/* NULL-terminated: from ABI_MISSING on, the keys of a 'waive' mapping. */
static const char *const kind_names[ABI_NKINDS + 1] = {
	[ABI_UNDOCUMENTED] = "undocumented",
	[ABI_MISSING] = "missing",
	[ABI_MODE] = "mode",
	[ABI_STALE] = "stale",
};

static const struct {
	const char *name;
	unsigned int mode;
} mode_names[] = {
	{ "RO", 0444 },
	{ "RW", 0644 },
	{ "WO", 0200 },
};

/* Loading */

/* yaml_file_map() on @map, which @what names if it is not a mapping. */
static int map_walk(struct yaml_file *tf, yaml_node_t *map, const char *what,
		    const struct yaml_map *m, void *ctx)
{
	if (map->type != YAML_MAPPING_NODE)
		return yaml_file_bad(tf, map, "%s must be a mapping", what);
	return yaml_file_map(tf, map, m, ctx);
}

/* Stores a non-empty scalar's text in *@slot, or fails naming @key. */
static int text_set(struct yaml_file *tf, yaml_node_t *v, const char *key,
		    char **slot)
{
	if (v->type != YAML_SCALAR_NODE)
		return yaml_file_bad(tf, v, "'%s' must be text", key);
	if (!v->data.scalar.length)
		return yaml_file_bad(tf, v, "'%s' is empty", key);
	*slot = xstrdup((const char *)v->data.scalar.value);
	return 0;
}

static int mode_parse(struct yaml_file *tf, yaml_node_t *v,
		      struct abi_row *r)
{
	const char *s = (const char *)v->data.scalar.value;

	if (text_set(tf, v, "mode", &r->mode_text))
		return -1;
	for (size_t i = 0; i < ARRAY_SIZE(mode_names); i++)
		if (!strcmp(s, mode_names[i].name)) {
			r->mode = mode_names[i].mode;
			return 0;
		}
	if (strlen(s) == 4 && strspn(s, "01234567") == 4) {
		r->mode = (unsigned int)strtoul(s, NULL, 8);
		return 0;
	}
	return yaml_file_bad(tf, v, "'mode' must be RO, RW, WO or four octal digits, not '%s'",
			     s);
}

enum { WHEN_KCONFIG, WHEN_FILE, WHEN_VALUE, WHEN_CONTAINS, WHEN_SINCE,
       WHEN_BEFORE };

static const char *const when_keys[] = {
	[WHEN_KCONFIG] = "kconfig", [WHEN_FILE] = "file",
	[WHEN_VALUE] = "value", [WHEN_CONTAINS] = "contains",
	[WHEN_SINCE] = "since", [WHEN_BEFORE] = "before", NULL
};

/* "6.12": numbers of at most 9 digits between single dots. */
static int version_ok(const char *v)
{
	for (;;) {
		size_t digits = strspn(v, "0123456789");

		if (!digits || digits > 9)
			return 0;
		v += digits;
		if (!*v)
			return 1;
		if (*v++ != '.')
			return 0;
	}
}

static int when_pair(struct yaml_file *tf, const struct yaml_pair *p,
		     void *ctx)
{
	struct abi_row *r = ctx;
	char **slot[] = {
		[WHEN_KCONFIG] = &r->kconfig, [WHEN_FILE] = &r->file,
		[WHEN_VALUE] = &r->value, [WHEN_CONTAINS] = &r->contains,
		[WHEN_SINCE] = &r->since, [WHEN_BEFORE] = &r->before,
	};
	const char *v;

	if (text_set(tf, p->v, p->key, slot[p->index]))
		return -1;
	v = *slot[p->index];
	if (p->index == WHEN_KCONFIG && strncmp(r->kconfig, "CONFIG_", 7))
		return yaml_file_bad(tf, p->v, "'kconfig' must name a CONFIG_ option");
	if ((p->index == WHEN_SINCE || p->index == WHEN_BEFORE) &&
	    !version_ok(v))
		return yaml_file_bad(tf, p->v, "'%s' must be a kernel version (6.12), not '%s'",
				     p->key, v);
	if (r->since && r->before && kversion_cmp(r->since, r->before) >= 0)
		return yaml_file_bad(tf, p->v, "'since: %s' and 'before: %s' leave no version",
				     r->since, r->before);
	return 0;
}

static const struct yaml_map when_map = {
	.keys = when_keys,
	.unknown = "unknown condition '%s' (kconfig, file, value, contains, since, before)",
	.pair = when_pair,
};

static int waive_pair(struct yaml_file *tf, const struct yaml_pair *p,
		      void *ctx)
{
	struct abi_row *r = ctx;

	return text_set(tf, p->v, p->key, &r->waive[ABI_MISSING + p->index]);
}

static const struct yaml_map waive_map = {
	.keys = kind_names + ABI_MISSING,
	.unknown = "cannot waive '%s' (missing, mode, stale)",
	.pair = waive_pair,
};

static const char *const allow_keys[] = { "added", NULL };

static int allow_pair(struct yaml_file *tf, const struct yaml_pair *p,
		      void *ctx)
{
	struct abi_row *r = ctx;

	return text_set(tf, p->v, p->key, &r->allow_added);
}

static const struct yaml_map allow_map = {
	.keys = allow_keys,
	.unknown = "cannot allow '%s' (added: a removal or a change is never allowed)",
	.pair = allow_pair,
};

/* A status rule: `status:` and `allow:` of any class. */
enum { POLICY_STATUS, POLICY_ALLOW };

static const char *const policy_keys[] = {
	[POLICY_STATUS] = "status", [POLICY_ALLOW] = "allow", NULL
};

/* NULL-terminated: the keys of a status rule's `allow`, by class. */
static const char *const class_keys[DIFF_CLASS_NR + 1] = {
	[DIFF_CLASS_REMOVED] = "removed",
	[DIFF_CLASS_CHANGED] = "changed",
	[DIFF_CLASS_ADDED] = "added",
};

static int policy_allow_pair(struct yaml_file *tf, const struct yaml_pair *p,
			     void *ctx)
{
	struct abi_policy *r = ctx;

	return text_set(tf, p->v, p->key, &r->allow[p->index]);
}

static const struct yaml_map policy_allow_map = {
	.keys = class_keys,
	.unknown = "a status rule cannot allow '%s' (removed, changed, added)",
	.pair = policy_allow_pair,
};

static int policy_pair(struct yaml_file *tf, const struct yaml_pair *p,
		       void *ctx)
{
	struct abi_policy *r = ctx;
	char *name = NULL;
	int a;

	if (p->index == POLICY_ALLOW)
		return map_walk(tf, p->v, "'allow'", &policy_allow_map, r);
	if (text_set(tf, p->v, p->key, &name))
		return -1;
	for (a = DIFF_ABI_STABLE; a < DIFF_ABI_NR &&
	     strcmp(name, diff_abi_name((enum diff_abi)a)); a++)
		;
	if (a == DIFF_ABI_NR)
		yaml_file_bad(tf, p->v, "'status' must be stable, testing, obsolete, removed or undocumented, not '%s'",
			      name);
	free(name);
	r->status = (enum diff_abi)a;
	return a == DIFF_ABI_NR ? INPUT_EBAD : 0;
}

static const struct yaml_map policy_map = {
	.keys = policy_keys,
	.unknown = "a status rule has 'status' and 'allow', not '%s'",
	.pair = policy_pair,
};

/* Is @n a mapping with a `status` key: a status rule? */
static int policy_row(struct yaml_file *tf, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE)
		return 0;
	for (yaml_node_pair_t *p = n->data.mapping.pairs.start;
	     p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = yaml_document_get_node(&tf->doc, p->key);

		if (k && k->type == YAML_SCALAR_NODE &&
		    !strcmp((const char *)k->data.scalar.value, "status"))
			return 1;
	}
	return 0;
}

static int policy_parse(struct yaml_file *tf, yaml_node_t *n,
			struct abi_table *t)
{
	struct abi_policy *r;

	t->policy = xrealloc(t->policy, (t->npolicy + 1) * sizeof(*t->policy));
	r = memset(&t->policy[t->npolicy++], 0, sizeof(*r));
	r->line = n->start_mark.line + 1;
	if (yaml_file_map(tf, n, &policy_map, r))
		return -2;
	/* one reason a status and class: a second would never be given */
	for (size_t i = 0; i + 1 < t->npolicy; i++)
		for (int c = 0; c < DIFF_CLASS_NR; c++)
			if (t->policy[i].status == r->status &&
			    t->policy[i].allow[c] && r->allow[c])
				return yaml_file_bad(tf, n, "the status rule at line %zu allows '%s' of '%s' already",
						     t->policy[i].line,
						     class_keys[c],
						     diff_abi_name(r->status));
	for (int c = 0; c < DIFF_CLASS_NR; c++)
		if (r->allow[c])
			return 0;
	return yaml_file_bad(tf, n, "a status rule needs 'allow' with a reason (removed, changed, added)");
}

const char *abi_policy_allows(const struct abi_table *t, enum diff_class cls,
			      enum diff_abi status)
{
	for (size_t i = 0; status != DIFF_ABI_UNKNOWN && i < t->npolicy; i++)
		if (t->policy[i].status == status && t->policy[i].allow[cls])
			return t->policy[i].allow[cls];
	return NULL;
}

/* Does @path have a ".." component? */
static int has_dotdot(const char *path)
{
	for (const char *p = path; (p = strstr(p, "..")); p += 2)
		if ((p == path || p[-1] == '/') && (!p[2] || p[2] == '/'))
			return 1;
	return 0;
}

enum { ROW_PATH, ROW_MODE, ROW_SOURCE, ROW_WHEN, ROW_WAIVE, ROW_ALLOW };

static const char *const row_keys[] = {
	[ROW_PATH] = "path", [ROW_MODE] = "mode", [ROW_SOURCE] = "source",
	[ROW_WHEN] = "when", [ROW_WAIVE] = "waive", [ROW_ALLOW] = "allow",
	NULL
};

static int row_pair(struct yaml_file *tf, const struct yaml_pair *p,
		    void *ctx)
{
	struct abi_row *r = ctx;
	yaml_node_t *v = p->v;

	switch (p->index) {
	case ROW_PATH:
		if (text_set(tf, v, p->key, &r->path))
			return -1;
		if (strncmp(r->path, "/sys/", 5) || !r->path[5] ||
		    r->path[strlen(r->path) - 1] == '/')
			return yaml_file_bad(tf, v, "'path' must name a file under /sys/, not '%s'",
					     r->path);
		return 0;
	case ROW_MODE:
		return mode_parse(tf, v, r);
	case ROW_SOURCE:
		if (text_set(tf, v, p->key, &r->source))
			return -1;
		if (r->source[0] == '/')
			return yaml_file_bad(tf, v, "'source' must be relative to the kernel tree, not the absolute '%s'",
					     r->source);
		if (has_dotdot(r->source))
			return yaml_file_bad(tf, v, "'source' must stay inside the kernel tree, not climb out through '..' in '%s'",
					     r->source);
		return 0;
	case ROW_WHEN:
		if (map_walk(tf, v, "'when'", &when_map, r))
			return -1;
		if ((r->value || r->contains) && !r->file)
			return yaml_file_bad(tf, v, "'value' and 'contains' need 'file'");
		if (r->file && !!r->value == !!r->contains)
			return yaml_file_bad(tf, v, "'file' needs one of 'value' or 'contains'");
		return 0;
	case ROW_WAIVE:
		return map_walk(tf, v, "'waive'", &waive_map, r);
	default:	/* ROW_ALLOW */
		return map_walk(tf, v, "'allow'", &allow_map, r);
	}
}

static const struct yaml_map row_map = {
	.keys = row_keys,
	.unknown = "unknown key '%s'",
	.pair = row_pair,
};

static int row_parse(struct yaml_file *tf, yaml_node_t *n, void *ctx)
{
	struct abi_table *t = ctx;
	struct abi_row *r;

	if (policy_row(tf, n))
		return policy_parse(tf, n, t);
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	r = memset(&t->v[t->n++], 0, sizeof(*r));
	r->line = n->start_mark.line + 1;
	if (map_walk(tf, n, "a row", &row_map, r))
		return -2;
	if (!r->path || !r->mode_text || !r->source)
		return yaml_file_bad(tf, n, "a row needs '%s'",
				     !r->path ? "path" :
				     !r->mode_text ? "mode" : "source");
	return 0;
}

int abi_table_load(struct abi_table *t, const char *path, struct sf_err *err)
{
	struct yaml_file tf = { .path = path, .err = err };

	*t = (struct abi_table)ABI_TABLE_INIT;
	t->path = xstrdup(path);
	return yaml_file_load_list(&tf, "the table must be a list of rows",
				   row_parse, t) ? -1 : 0;
}

void abi_table_release(struct abi_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++) {
		struct abi_row *r = &t->v[i];

		free(r->path);
		free(r->mode_text);
		free(r->kconfig);
		free(r->file);
		free(r->value);
		free(r->contains);
		free(r->since);
		free(r->before);
		free(r->source);
		for (int k = 0; k < ABI_NKINDS; k++)
			free(r->waive[k]);
		free(r->allow_added);
	}
	free(t->v);
	for (size_t i = 0; i < t->npolicy; i++)
		for (int c = 0; c < DIFF_CLASS_NR; c++)
			free(t->policy[i].allow[c]);
	free(t->policy);
	free(t->path);
	*t = (struct abi_table)ABI_TABLE_INIT;
}

/* Findings */

static void finding_add(struct abi_findings *fs, enum abi_kind kind,
			const char *path, const struct abi_row *row,
			char *detail)
{
	fs->v = xrealloc(fs->v, (fs->n + 1) * sizeof(*fs->v));
	fs->v[fs->n++] = (struct abi_finding){
		.kind = kind, .path = xstrdup(path), .row = row,
		.detail = detail,
	};
}

const char *abi_waived(const struct abi_finding *f)
{
	return f->row ? f->row->waive[f->kind] : NULL;
}

size_t abi_count(const struct abi_findings *fs)
{
	size_t n = 0;

	for (size_t i = 0; i < fs->n; i++)
		n += !abi_waived(&fs->v[i]);
	return n;
}

static void abi_lines(const struct abi_findings *fs, struct strv *lines)
{
	for (int waived = 0; waived < 2; waived++)
		for (size_t i = 0; i < fs->n; i++) {
			const struct abi_finding *f = &fs->v[i];
			const char *why = abi_waived(f);

			if (!why == !waived)
				strv_pushf(lines, "%s %s: %s%s%s",
					   kind_names[f->kind], f->path,
					   f->detail, why ? "; waived: " : "",
					   why ? why : "");
		}
}

void abi_print(FILE *out, const struct abi_findings *fs, const char *prefix,
	       int waived)
{
	struct strv lines = STRV_INIT;
	size_t n;

	abi_lines(fs, &lines);
	n = waived ? lines.n : abi_count(fs);
	for (size_t i = 0; i < n; i++) {
		/* a row's path and reason are the table's, escapes and all */
		char *line = diff_text_clean(lines.v[i], strlen(lines.v[i]),
					     "");

		fprintf(out, "%s%s\n", prefix, line);
		free(line);
	}
	strv_release(&lines);
}

json_t *abi_to_json(const struct abi_findings *fs)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < fs->n; i++) {
		const struct abi_finding *f = &fs->v[i];
		const char *why = abi_waived(f);

		json_array_append_new(arr, json_pack("{s:s, s:s, s:o, s:s, s:o}",
			"kind", kind_names[f->kind], "path", f->path,
			"row", f->row ? json_integer((json_int_t)f->row->line) :
					json_null(),
			"detail", f->detail,
			"waived", why ? json_string(why) : json_null()));
	}
	return arr;
}

void abi_findings_release(struct abi_findings *fs)
{
	if (!fs)
		return;
	for (size_t i = 0; i < fs->n; i++) {
		free(fs->v[i].path);
		free(fs->v[i].detail);
	}
	free(fs->v);
	*fs = (struct abi_findings)ABI_FINDINGS_INIT;
}

/* Snapshots */

/* Every file and directory of a snapshot, by path, links followed. */
struct tree {
	struct tree_node {
		char *path;
		json_t *node;	/* borrowed from the snapshot */
		int dir;
	} *v;
	size_t n;
};

static void tree_walk(struct tree *t, json_t *node, const char *path)
{
	const char *type = json_string_value(json_object_get(node, "type"));
	const char *name;
	json_t *child;

	if (!type)
		return;		/* could not be examined */
	if (!strcmp(type, "link")) {
		child = json_object_get(node, "follow");
		if (child)
			tree_walk(t, child, path);
		return;
	}
	if (strcmp(type, "file") && strcmp(type, "dir"))
		return;
	t->v = xrealloc(t->v, (t->n + 1) * sizeof(*t->v));
	t->v[t->n++] = (struct tree_node){
		.path = xstrdup(path), .node = node, .dir = !strcmp(type, "dir"),
	};
	json_object_foreach(json_object_get(node, "entries"), name, child) {
		char *sub = xstrfmt("%s/%s", path, name);

		tree_walk(t, child, sub);
		free(sub);
	}
}

static void tree_release(struct tree *t)
{
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].path);
	free(t->v);
}

/* The row's glob relative to the sysfs mount, as snapshots spell paths. */
static const char *row_glob(const struct abi_row *r)
{
	return r->path + strlen("/sys/");
}

static unsigned int node_mode(json_t *node)
{
	const char *m = json_string_value(json_object_get(node, "mode"));

	return m ? (unsigned int)strtoul(m, NULL, 8) : 0;
}

static int node_is_file(json_t *node)
{
	const char *type = json_string_value(json_object_get(node, "type"));

	return type && !strcmp(type, "file");
}

/*
 * Does @r hold for a kernel of @release (NULL: unknown, any)? `since` and
 * `before` bound it: one table serves every source of the matrix.
 */
static int row_in_release(const struct abi_row *r, const char *release)
{
	if (!release)
		return 1;
	if (r->since && kversion_cmp(release, r->since) < 0)
		return 0;
	return !r->before || kversion_cmp(release, r->before) < 0;
}

/* Does @r's condition hold in the directory @dir? */
static int row_applies(const struct abi_row *r, json_t *dir,
		       const struct strv *kconfig)
{
	json_t *f;
	const char *v;
	size_t len;

	if (r->kconfig && !strv_has(kconfig, r->kconfig))
		return 0;
	if (!r->file)
		return 1;
	f = json_object_get(json_object_get(dir, "entries"), r->file);
	v = json_string_value(json_object_get(f, "value"));
	if (!node_is_file(f) || !v)
		return 0;
	if (r->contains)
		return strstr(v, r->contains) != NULL;
	len = strlen(r->value);
	return !strncmp(v, r->value, len) &&
	       (!v[len] || (v[len] == '\n' && !v[len + 1]));
}

static int dir_has(json_t *dir, const char *glob)
{
	const char *name;
	json_t *child;

	json_object_foreach(json_object_get(dir, "entries"), name, child) {
		json_t *follow = json_object_get(child, "follow");

		if (!fnmatch(glob, name, 0) &&
		    (node_is_file(child) || node_is_file(follow)))
			return 1;
	}
	return 0;
}

/* @path's row: the first that matches it and holds for @release. */
static const struct abi_row *row_of(const struct abi_table *t,
				    const char *path, const char *release)
{
	for (size_t j = 0; j < t->n; j++)
		if (row_in_release(&t->v[j], release) &&
		    !fnmatch(row_glob(&t->v[j]), path, FNM_PATHNAME))
			return &t->v[j];
	return NULL;
}

const char *abi_allowed_added(const struct abi_table *t, const char *path,
			      const char *release)
{
	const struct abi_row *r = row_of(t, path, release);

	return r ? r->allow_added : NULL;
}

/* Each file has a row that holds for @release, and that row's mode. */
static void files_check(const struct abi_table *t, const struct tree *tr,
			const char *release, struct abi_findings *out)
{
	for (size_t i = 0; i < tr->n; i++) {
		const struct tree_node *n = &tr->v[i];
		unsigned int mode = node_mode(n->node);
		const struct abi_row *r;

		if (n->dir)
			continue;
		out->files++;
		r = row_of(t, n->path, release);
		if (!r)
			finding_add(out, ABI_UNDOCUMENTED, n->path, NULL,
				    xstrfmt("%04o, no row of %s matches", mode,
					    t->path));
		else if (mode != r->mode)
			finding_add(out, ABI_MODE, n->path, r,
				    xstrfmt("%04o, %s:%zu says %04o (%s)", mode,
					    t->path, r->line, r->mode,
					    r->mode_text));
	}
}

/* Each row's file is in every directory it applies to. */
static void rows_check(const struct abi_table *t, const struct tree *tr,
		       const struct strv *kconfig, const char *release,
		       unsigned char *seen, struct abi_findings *out)
{
	for (size_t j = 0; j < t->n; j++) {
		const struct abi_row *r = &t->v[j];
		const char *glob = row_glob(r);
		const char *slash = strrchr(glob, '/');
		char *dirglob = slash && row_in_release(r, release) ?
			xstrfmt("%.*s", (int)(slash - glob), glob) : NULL;
		const char *name = slash ? slash + 1 : glob;

		for (size_t i = 0; dirglob && i < tr->n; i++) {
			const struct tree_node *n = &tr->v[i];
			char *path;

			if (!n->dir || fnmatch(dirglob, n->path, FNM_PATHNAME))
				continue;
			if (seen)
				seen[j] = 1;
			if (!row_applies(r, n->node, kconfig) ||
			    dir_has(n->node, name))
				continue;
			path = xstrfmt("%s/%s", n->path, name);
			finding_add(out, ABI_MISSING, path, r,
				    xstrfmt("%s:%zu promises it (%s)", t->path,
					    r->line, r->mode_text));
			free(path);
		}
		free(dirglob);
	}
}

void abi_check(const struct abi_table *t, json_t *snap,
	       const struct strv *kconfig, unsigned char *seen,
	       struct abi_findings *out)
{
	const char *release = json_string_value(
		json_object_get(json_object_get(snap, "header"), "release"));
	struct tree tr = { 0 };
	const char *root;
	json_t *node;

	json_object_foreach(json_object_get(snap, "roots"), root, node)
		tree_walk(&tr, node, root);
	files_check(t, &tr, release, out);
	rows_check(t, &tr, kconfig, release, seen, out);
	tree_release(&tr);
}

/* Documentation/ABI */

/* One What: entry and the text that describes it (its group's). */
struct what {
	char *glob;		/* fnmatch(3) without FNM_PATHNAME */
	int dir;		/* the entry ends in '/' */
	const char *text;	/* into the file's buffer */
	size_t len;
};

/*
 * The What: path as a glob: "<led>", "..." and the N of "gpiochipN" (a
 * capital N or X ending a lowercase name) stand for any text.
 */
static char *what_glob(const char *w, size_t len)
{
	char *g = xmalloc(2 * len + 1), *o = g;

	for (size_t i = 0; i < len; i++) {
		const char *end = w[i] == '<' ? memchr(w + i, '>', len - i) :
						NULL;

		if (end) {
			*o++ = '*';
			i = (size_t)(end - w);
		} else if (!strncmp(w + i, "...", 3) && i + 3 <= len) {
			*o++ = '*';
			i += 2;
		} else if ((w[i] == 'N' || w[i] == 'X') && i &&
			   islower((unsigned char)w[i - 1]) &&
			   (i + 1 == len || w[i + 1] == '/')) {
			*o++ = '*';
		} else {
			if (strchr("*?[\\", w[i]))
				*o++ = '\\';
			*o++ = w[i];
		}
	}
	*o = '\0';
	return g;
}

/* The What: entries [@first, @n) share the text from @text to @end. */
static void group_close(struct what *v, size_t first, size_t n,
			const char *text, const char *end)
{
	for (size_t i = first; i < n; i++) {
		v[i].text = text;
		v[i].len = (size_t)(end - text);
	}
}

/*
 * Parses @buf's What: entries; a group's text runs from its last What:
 * line to the next group. Each entry is set once: a document of 100,000
 * What: lines in a row stays linear.
 */
static size_t whats_parse(char *buf, struct what **out)
{
	struct what *v = NULL;
	size_t n = 0, alloc = 0, group = 0;
	int in_whats = 0;
	char *line = buf;
	const char *text = buf;

	while (*line) {
		char *eol = strchr(line, '\n');
		size_t len = eol ? (size_t)(eol - line) : strlen(line);

		if (!strncmp(line, "What:", 5)) {
			const char *w = line + 5;
			size_t wl;

			/* a What: after text opens a new group */
			if (!in_whats) {
				group_close(v, group, n, text, line);
				group = n;
			}
			w += strspn(w, " \t");
			wl = strcspn(w, " \t\n");
			if (n == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				v = xrealloc(v, alloc * sizeof(*v));
			}
			v[n++] = (struct what){
				.glob = what_glob(w, wl),
				.dir = wl && w[wl - 1] == '/',
			};
			text = line + len;
			in_whats = 1;
		} else {
			in_whats = 0;
		}
		line += len + (eol != NULL);
	}
	group_close(v, group, n, text, line);
	*out = v;
	return n;
}

/*
 * Does the word at @w (@wl bytes) name @name? As it is, or, where it ends
 * in a capital N or X after a lowercase letter ("/gpioN", "/chipX"), with
 * digits in its place, as a What: path's gpiochipN is matched.
 */
static int word_names(const char *w, size_t wl, const char *name)
{
	size_t nl = strlen(name), stem = wl - 1;

	if (wl == nl && !strncmp(w, name, nl))
		return 1;
	if (wl < 2 || (w[stem] != 'N' && w[stem] != 'X') ||
	    !islower((unsigned char)w[stem - 1]))
		return 0;
	return nl > stem && !strncmp(w, name, stem) &&
	       strspn(name + stem, "0123456789") == nl - stem;
}

/* Does @text name "/NAME" as a word? */
static int text_names(const char *text, size_t len, const char *name)
{
	const char *end = text + len;

	for (const char *p = text; p < end; p++) {
		const char *w = p + 1, *e = w;

		if (*p != '/')
			continue;
		while (e < end && (isalnum((unsigned char)*e) || *e == '_'))
			e++;
		if (e > w && word_names(w, (size_t)(e - w), name))
			return 1;
	}
	return 0;
}

/*
 * Does @w cover @path? @unnamed is the last text found not to name the
 * path's base (NULL at first): a group's What: entries share theirs, so
 * that 2,000 of them over a text of 4 MiB read it once, not 2,000 times.
 */
static int what_covers(const struct what *w, const char *path,
		       const char **unnamed)
{
	const char *base = strrchr(path, '/') + 1;
	char *under;
	int ok;

	if (!w->dir)
		return !fnmatch(w->glob, path, 0);
	under = xstrfmt("%s*", w->glob);
	ok = !fnmatch(under, path, 0);
	free(under);
	if (!ok || w->text == *unnamed)
		return 0;
	if (!text_names(w->text, w->len, base))
		*unnamed = w->text;
	return *unnamed != w->text;
}

/*
 * @root is the tree's real path: a source is read through its real path
 * too, and only when that stays inside the tree, so that a link in the
 * tree cannot make the check read a file outside it.
 */
static void row_documented(const struct abi_table *t, const struct abi_row *r,
			   const char *root, struct abi_findings *out)
{
	char *file = xstrfmt("%s/%s", root, r->source);
	char *real = realpath(file, NULL), *buf = NULL;
	struct what *whats = NULL;
	const char *unnamed = NULL;
	size_t n = 0;
	int found = 0;

	if (real && !path_inside(real, root)) {
		finding_add(out, ABI_STALE, r->path, r,
			    xstrfmt("%s:%zu cites %s, which leads outside the kernel tree, to '%s'",
				    t->path, r->line, r->source, real));
		goto out;
	}
	buf = real ? file_read(real, NULL) : NULL;
	if (!buf) {
		finding_add(out, ABI_STALE, r->path, r,
			    xstrfmt("%s:%zu cites %s: %s", t->path, r->line,
				    r->source, strerror(errno)));
		goto out;
	}
	n = whats_parse(buf, &whats);
	for (size_t i = 0; i < n && !found; i++)
		found = what_covers(&whats[i], r->path, &unnamed);
	if (!found)
		finding_add(out, ABI_STALE, r->path, r,
			    xstrfmt("%s:%zu cites %s, no What: entry there matches",
				    t->path, r->line, r->source));
	for (size_t i = 0; i < n; i++)
		free(whats[i].glob);
	free(whats);
out:
	free(buf);
	free(real);
	free(file);
}

int abi_check_docs(const struct abi_table *t, const char *tree,
		   struct abi_findings *out, struct sf_err *err)
{
	char *abi = xstrfmt("%s/Documentation/ABI", tree);
	char *root = realpath(tree, NULL);
	char *release = kversion_of_tree(tree);
	int checked = 0;

	if (!root || !path_exists(abi)) {
		err_set(err, "%s: no Documentation/ABI to read What: entries from",
			tree);
		checked = -1;
		goto out;
	}
	for (size_t i = 0; i < t->n; i++)
		if (!strncmp(t->v[i].source, "Documentation/ABI/", 18) &&
		    row_in_release(&t->v[i], release)) {
			row_documented(t, &t->v[i], root, out);
			checked++;
		}
out:
	free(release);
	free(root);
	free(abi);
	return checked;
}

/* Documentation/ABI's statuses */

/* One What: entry of a tree and the directory its document is in. */
struct abi_what {
	struct what w;
	enum diff_abi status;
	size_t lit;		/* the glob's bytes before any wildcard */
};

/* The directories, in the order their promises weigh. */
static const enum diff_abi doc_dirs[] = {
	DIFF_ABI_STABLE, DIFF_ABI_TESTING, DIFF_ABI_OBSOLETE, DIFF_ABI_REMOVED,
};

/*
 * The What: entries of @path, into @docs, when it is a regular file (a
 * link, a FIFO is none). Return: 0, or -1 with @err set when it is too
 * large (INPUT_MAX_TEXT) or cannot be read.
 */
static int docs_read(struct abi_docs *docs, const char *path,
		     enum diff_abi status, struct sf_err *err)
{
	struct what *whats;
	struct stat st;
	size_t n;
	char *buf;

	if (lstat(path, &st) || !S_ISREG(st.st_mode))
		return 0;
	buf = input_read(path, INPUT_MAX_TEXT, NULL, err);
	if (!buf)
		return -1;
	docs->texts = xrealloc(docs->texts,
			       (docs->ntexts + 1) * sizeof(*docs->texts));
	docs->texts[docs->ntexts++] = buf;
	n = whats_parse(buf, &whats);
	docs->v = xrealloc(docs->v, (docs->n + n + 1) * sizeof(*docs->v));
	for (size_t i = 0; i < n; i++)
		docs->v[docs->n++] = (struct abi_what){
			.w = whats[i], .status = status,
			.lit = strcspn(whats[i].glob, "*?[\\"),
		};
	free(whats);
	return 0;
}

/* Is @dir's real path inside @root's (itself real)? A missing @dir is. */
static int dir_inside(const char *dir, const char *root)
{
	char *real = realpath(dir, NULL);
	int inside = !real || path_inside(real, root);

	free(real);
	return inside;
}

/* The documents of directory @dir, status @status, into @docs. */
static int docs_dir(struct abi_docs *docs, const char *dir,
		    enum diff_abi status, struct sf_err *err)
{
	struct dirent **names;
	int n = scandir(dir, &names, NULL, alphasort), ret = 0;

	for (int k = 0; k < n; k++) {
		char *path = xstrfmt("%s/%s", dir, names[k]->d_name);

		if (!ret && names[k]->d_name[0] != '.')
			ret = docs_read(docs, path, status, err);
		free(path);
		free(names[k]);
	}
	if (n >= 0)
		free(names);
	return ret;
}

int abi_docs_load(struct abi_docs *docs, const char *tree,
		  struct sf_err *err)
{
	char *abi = xstrfmt("%s/Documentation/ABI", tree);
	char *root = realpath(tree, NULL);
	int ret = 0;

	*docs = (struct abi_docs)ABI_DOCS_INIT;
	if (!root || !path_exists(abi)) {
		ret = err_set(err, "%s: no Documentation/ABI to read What: entries from",
			      tree);
		goto out;
	}
	for (size_t d = 0; !ret && d < ARRAY_SIZE(doc_dirs); d++) {
		char *dir = xstrfmt("%s/%s", abi,
				    diff_abi_name(doc_dirs[d]));

		/* as row_documented(): nothing outside the tree is read */
		if (!dir_inside(dir, root))
			ret = err_set(err, "%s: leads outside the kernel tree",
				      dir);
		else
			ret = docs_dir(docs, dir, doc_dirs[d], err);
		free(dir);
	}
	if (ret)
		abi_docs_release(docs);
out:
	free(root);
	free(abi);
	return ret;
}

enum diff_abi abi_docs_status(const struct abi_docs *docs, const char *path)
{
	enum diff_abi st = DIFF_ABI_UNDOCUMENTED;
	const char *unnamed = NULL;
	char *sys;

	if (!docs)
		return DIFF_ABI_UNKNOWN;
	/* a followed link's own node is "link/": the link's path */
	sys = xstrfmt("/sys/%.*s", (int)(strlen(path) -
		      (*path && path[strlen(path) - 1] == '/')), path);
	for (size_t i = 0; i < docs->n; i++) {
		const struct abi_what *a = &docs->v[i];

		if (!strncmp(a->w.glob, sys, a->lit) &&
		    what_covers(&a->w, sys, &unnamed)) {
			st = a->status;
			break;
		}
	}
	free(sys);
	return st;
}

void abi_docs_mark(const struct abi_docs *old, const struct abi_docs *new,
		   struct diff *d)
{
	for (size_t i = 0; i < d->n; i++) {
		struct diff_change *c = &d->v[i];

		if (diff_in_roots(c->path))
			c->abi = abi_docs_status(c->kind == DIFF_REMOVED ?
						 old : new, c->path);
	}
}

void abi_docs_release(struct abi_docs *docs)
{
	if (!docs)
		return;
	for (size_t i = 0; i < docs->n; i++)
		free(docs->v[i].w.glob);
	free(docs->v);
	for (size_t i = 0; i < docs->ntexts; i++)
		free(docs->texts[i]);
	free(docs->texts);
	*docs = (struct abi_docs)ABI_DOCS_INIT;
}

const struct abi_docs *abi_docs_get(struct abi_docs_set *set,
				    const char *tree)
{
	struct sf_err err = SF_ERR_INIT;	/* none: unknown, not an error */
	size_t i;

	if (!tree)
		return NULL;
	for (i = 0; i < set->n && strcmp(set->trees[i], tree); i++)
		;
	if (i == set->n) {
		set->trees = xrealloc(set->trees, (i + 1) * sizeof(*set->trees));
		set->v = xrealloc(set->v, (i + 1) * sizeof(*set->v));
		set->trees[i] = xstrdup(tree);
		set->v[i] = xmalloc(sizeof(*set->v[i]));
		if (abi_docs_load(set->v[i], tree, &err)) {
			free(set->v[i]);
			set->v[i] = NULL;
		}
		set->n++;
	}
	return set->v[i];
}

void abi_docs_set_release(struct abi_docs_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		abi_docs_release(set->v[i]);
		free(set->v[i]);
		free(set->trees[i]);
	}
	free(set->trees);
	free(set->v);
	*set = (struct abi_docs_set)ABI_DOCS_SET_INIT;
}
