// SPDX-License-Identifier: GPL-2.0
/* The upgrade review: pairs one axis value apart, their delta, merged. */
#include <stdlib.h>
#include <string.h>

#include "compare/report.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"
#include "pipeline/fetch.h"
#include "lib/verdict.h"
#include "verify/store.h"
#include "verify/upgrade.h"

/*
 * The node @path names in @snap, spelled as diff.h spells it: a root,
 * then "/NAME" for an entry, "/" into what a followed link holds.
 */
static json_t *node_at(json_t *snap, const char *path)
{
	json_t *roots = json_object_get(snap, "roots"), *node = NULL, *v;
	const char *key, *p;
	size_t best = 0;

	json_object_foreach(roots, key, v) {
		size_t n = strlen(key);

		if (n > best && !strncmp(path, key, n) &&
		    (path[n] == '\0' || path[n] == '/')) {
			best = n;
			node = v;
		}
	}
	for (p = path + best; node && *p == '/';) {
		size_t n = strcspn(++p, "/");
		char *name;

		if (json_object_get(node, "follow"))
			node = json_object_get(node, "follow");
		if (!n)
			break;
		name = strndup(p, n);
		node = json_object_get(json_object_get(node, "entries"), name);
		free(name);
		p += n;
	}
	return *p ? NULL : node;
}

static const char *const node_kinds[] = { "file", "dir", "link", "other" };

/* What @c is about: the node's type, where a snapshot tells it. */
static const char *delta_kind(const struct diff_change *c, json_t *a,
			      json_t *b)
{
	const char *type;

	if (!strncmp(c->path, "probes[", 7))
		return "probe";
	if (!strncmp(c->path, "kmsg", 4) &&
	    (c->path[4] == '\0' || c->path[4] == '['))
		return "kmsg";
	if (c->kind == DIFF_SYSFS)
		return "sysfs";
	if (c->members)
		return "dir";	/* a rename's or a subtree's */
	type = json_string_value(json_object_get(
		node_at(c->kind == DIFF_ADDED ? b : a, c->path), "type"));
	for (size_t i = 0; type && i < ARRAY_SIZE(node_kinds); i++)
		if (!strcmp(type, node_kinds[i]))
			return node_kinds[i];
	return "node";
}

static int str_cmp_null(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

/* Same entry: class, kind, what changed, path, probe, old and new. */
static int delta_same_cmp(const struct upgrade_delta *x,
			  const struct upgrade_delta *y)
{
	int r;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->c.kind != y->c.kind)
		return x->c.kind < y->c.kind ? -1 : 1;
	if (x->c.abi != y->c.abi)
		return x->c.abi < y->c.abi ? -1 : 1;
	if ((r = strcmp(x->kind, y->kind)) ||
	    (r = strcmp(x->c.path, y->c.path)) ||
	    (r = str_cmp_null(x->c.subject, y->c.subject)) ||
	    (r = str_cmp_null(x->c.old, y->c.old)) ||
	    (r = str_cmp_null(x->c.new, y->c.new)))
		return r;
	return diff_cmp(x->c.members, y->c.members);
}

static int delta_merge_cmp(const void *pa, const void *pb)
{
	const struct upgrade_delta *x = *(struct upgrade_delta *const *)pa;
	const struct upgrade_delta *y = *(struct upgrade_delta *const *)pb;
	int r = delta_same_cmp(x, y);

	return r ? r : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Groups by their pairs (the most first), then class, then found order. */
static int delta_print_cmp(const void *pa, const void *pb)
{
	const struct upgrade_delta *x = *(struct upgrade_delta *const *)pa;
	const struct upgrade_delta *y = *(struct upgrade_delta *const *)pb;

	if (x->npairs != y->npairs)
		return x->npairs > y->npairs ? -1 : 1;
	for (size_t i = 0; i < x->npairs; i++)
		if (x->pairs[i] != y->pairs[i])
			return x->pairs[i] < y->pairs[i] ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int same_pairs(const struct upgrade_delta *x,
		      const struct upgrade_delta *y)
{
	return x->npairs == y->npairs &&
	       !memcmp(x->pairs, y->pairs, x->npairs * sizeof(*x->pairs));
}

static void delta_free(struct upgrade_delta *d)
{
	free(d->c.path);
	free(d->c.old);
	free(d->c.new);
	free(d->c.allowed);
	free(d->c.subject);
	diff_release(d->c.members);
	free(d->c.members);
	free(d->pairs);
	free(d);
}

/* Takes the changes of pair @p out of @d. */
static void deltas_add(struct upgrade *u, size_t p, struct diff *d)
{
	json_t *a = u->snaps[u->pairs[p].from], *b = u->snaps[u->pairs[p].to];

	for (size_t i = 0; i < d->n; i++) {
		struct upgrade_delta *e = xmalloc(sizeof(*e));

		*e = (struct upgrade_delta){
			.cls = diff_class_of(d->v[i].kind),
			.kind = delta_kind(&d->v[i], a, b),
			.c = d->v[i],
			.seq = u->n,
			.pairs = xmalloc(sizeof(*e->pairs)),
			.npairs = 1,
		};
		e->pairs[0] = p;
		if (u->n == u->alloc) {
			u->alloc = u->alloc ? 2 * u->alloc : 64;
			u->v = xrealloc(u->v, u->alloc * sizeof(*u->v));
		}
		u->v[u->n++] = e;
	}
	d->n = 0;	/* the strings are the entries' now */
}

/* One entry per distinct change, with the pairs it is in; then sorted. */
static void deltas_merge(struct upgrade *u)
{
	size_t i, k = 0;

	qsort(u->v, u->n, sizeof(*u->v), delta_merge_cmp);
	for (i = 0; i < u->n; i++) {
		struct upgrade_delta *e = u->v[i];
		struct upgrade_delta *keep = k ? u->v[k - 1] : NULL;

		if (!keep || delta_same_cmp(keep, e)) {
			u->v[k++] = e;
			u->counts[e->cls]++;
			continue;
		}
		/* the same change twice in one pair counts once */
		if (keep->pairs[keep->npairs - 1] != e->pairs[0]) {
			keep->pairs = xrealloc(keep->pairs, (keep->npairs + 1) *
					       sizeof(*keep->pairs));
			keep->pairs[keep->npairs++] = e->pairs[0];
		}
		delta_free(e);
	}
	u->n = k;
	qsort(u->v, u->n, sizeof(*u->v), delta_print_cmp);
}

static const char *config_name(const struct upgrade *u, size_t c)
{
	return u->f->m.configs[c].name;
}

static const char *value_name(const struct upgrade *u, size_t v)
{
	return u->f->m.axes[u->axis].values[v].name;
}

/* "x86_64 -> x86_64-6.12, arm -> arm-6.12" */
static void pairs_put(FILE *out, const struct upgrade *u, const size_t *ps,
		      size_t n, int md)
{
	for (size_t i = 0; i < n; i++) {
		const struct upgrade_pair *p = &u->pairs[ps[i]];

		fputs(i ? ", " : "", out);
		if (md) {
			report_md_put(out, config_name(u, p->from), 1);
			fputs(" \u2192 ", out);
			report_md_put(out, config_name(u, p->to), 1);
		} else {
			fprintf(out, "%s -> %s", config_name(u, p->from),
				config_name(u, p->to));
		}
	}
}

/* The value pairs compared: " 6.1 -> 6.12, 6.12 -> 6.13", each once. */
static void values_put(FILE *out, const struct upgrade *u, const char *arrow)
{
	size_t shown = 0;

	for (size_t i = 0; i < u->npairs; i++) {
		const struct upgrade_pair *p = &u->pairs[i];
		size_t k;

		for (k = 0; k < i; k++)
			if (u->pairs[k].va == p->va && u->pairs[k].vb == p->vb)
				break;
		if (k < i)
			continue;
		fprintf(out, "%s%s %s %s", shown++ ? ", " : " ",
			value_name(u, p->va), arrow, value_name(u, p->vb));
	}
}

static void counts_put(FILE *out, const size_t *counts)
{
	fprintf(out, "%zu removed, %zu changed, %zu added",
		counts[DIFF_CLASS_REMOVED], counts[DIFF_CLASS_CHANGED],
		counts[DIFF_CLASS_ADDED]);
}

/* The entries from @i on that are in the same pairs: how many, by class. */
static size_t group_count(const struct upgrade *u, size_t i, size_t *counts)
{
	size_t j;

	memset(counts, 0, DIFF_CLASS_NR * sizeof(*counts));
	for (j = i; j < u->n && same_pairs(u->v[i], u->v[j]); j++)
		counts[u->v[j]->cls]++;
	return j;
}

static size_t compared(const struct upgrade *u)
{
	size_t n = 0;

	for (size_t i = 0; i < u->npairs; i++)
		n += !u->pairs[i].missing;
	return n;
}

/* "PATH (write /sys/x 0)" for a probe: what the entry's path shows. */
static char *delta_path(const struct upgrade_delta *e)
{
	return e->c.subject ? xstrfmt("%s (%s)", e->c.path, e->c.subject) :
			      xstrdup(e->c.path);
}

/*
 * Where it comes from (verify/origin.h): a file entry's attribute looked
 * for in each side's source tree, BUILD/sources/NAME/src.
 */

/*
 * The attribute @e is about: a file's last name, or that of the sysfs
 * file a read or write probe names (its record in the side that has it,
 * as its subject is); NULL for others.
 */
static const char *entry_attr(const struct upgrade *u,
			      const struct upgrade_delta *e)
{
	const struct upgrade_pair *p = &u->pairs[e->pairs[0]];
	const char *path = e->c.path, *op, *slash;
	json_t *rec;

	if (!strcmp(e->kind, "probe")) {
		rec = json_array_get(json_object_get(u->snaps[
			e->cls == DIFF_CLASS_REMOVED ? p->from : p->to],
			"probes"), strtoul(path + 7, NULL, 10));
		op = json_string_value(json_object_get(rec, "op"));
		path = json_string_value(json_object_get(rec, "path"));
		if (!op || (strcmp(op, "read") && strcmp(op, "write")) ||
		    !path || strncmp(path, "/sys/", 5))
			return NULL;
	} else if (strcmp(e->kind, "file")) {
		return NULL;
	}
	slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

/* Configuration @c's tree in @u->trees, added when new; or SIZE_MAX. */
static size_t tree_add(struct upgrade *u, size_t c)
{
	char *name = config_source_name(&u->f->m.configs[c].s), *root;
	size_t i;

	if (!name)
		return SIZE_MAX;
	for (i = 0; i < u->ntrees; i++)
		if (!strcmp(u->trees[i].name, name)) {
			free(name);
			return i;
		}
	root = path_source(u->f->build, name);
	u->trees = xrealloc(u->trees, (i + 1) * sizeof(*u->trees));
	u->trees[u->ntrees++] = (struct origin_tree){
		.name = name, .dir = path_source_tree(root),
	};
	free(root);
	return i;
}

/* Each compared side's tree, scanned once for every file entry's name. */
static void origins_find(struct upgrade *u)
{
	struct strv names = STRV_INIT;

	u->tree_of = xmalloc((u->f->m.nconfigs + 1) * sizeof(*u->tree_of));
	for (size_t c = 0; c < u->f->m.nconfigs; c++)
		u->tree_of[c] = SIZE_MAX;
	for (size_t p = 0; p < u->npairs; p++) {
		const struct upgrade_pair *pr = &u->pairs[p];

		if (pr->missing)
			continue;
		u->tree_of[pr->from] = tree_add(u, pr->from);
		u->tree_of[pr->to] = tree_add(u, pr->to);
	}
	for (size_t i = 0; i < u->n; i++) {
		const char *attr = entry_attr(u, u->v[i]);

		if (attr && !strv_has(&names, attr))
			strv_push(&names, attr);
	}
	for (size_t t = 0; names.n && t < u->ntrees; t++) {
		origin_tree_scan(&u->trees[t], u->f->build, &names);
		u->origins |= u->trees[t].prepared;
	}
	strv_release(&names);
}

/* The tree of side @side (0 from, 1 to) of @e's @k-th pair, or SIZE_MAX. */
static size_t side_tree_at(const struct upgrade *u,
			   const struct upgrade_delta *e, int side, size_t k)
{
	const struct upgrade_pair *p = &u->pairs[e->pairs[k]];

	return u->tree_of[side ? p->to : p->from];
}

/* That tree when no earlier pair's was it; else SIZE_MAX. */
static size_t side_tree_new(const struct upgrade *u,
			    const struct upgrade_delta *e, int side, size_t k)
{
	size_t t = side_tree_at(u, e, side, k);

	for (size_t i = 0; i < k; i++)
		if (side_tree_at(u, e, side, i) == t)
			return SIZE_MAX;
	return t;
}

/* That tree when it is new and prepared; else NULL. */
static const struct origin_tree *side_tree(const struct upgrade *u,
					   const struct upgrade_delta *e,
					   int side, size_t k)
{
	size_t t = side_tree_new(u, e, side, k);

	return t != SIZE_MAX && u->trees[t].prepared ? &u->trees[t] : NULL;
}

/* How many trees side @side of @e spans, prepared or not. */
static size_t side_trees(const struct upgrade *u,
			 const struct upgrade_delta *e, int side)
{
	size_t n = 0;

	for (size_t k = 0; k < e->npairs; k++)
		n += side_tree_new(u, e, side, k) != SIZE_MAX;
	return n;
}

/* "kernel/workqueue.c:7473 __ATTR(affinity_scope, ...)", "not found",
 * "3 candidates: a.c:1 X(n), b.c:2 Y(n), ..." (at most three shown) */
static char *origin_text(const struct origin_tree *t, const char *attr)
{
	const struct origin_def *d = origin_tree_find(t, attr);
	char *text = NULL;
	size_t len;
	FILE *out;

	if (!d || !d->n)
		return xstrdup("not found");
	out = xmemstream(&text, &len);
	if (d->n > 1)
		fprintf(out, "%zu candidates: ", d->n);
	for (size_t k = 0; k < d->n && k < 3; k++)
		fprintf(out, "%s%s:%zu %s", k ? ", " : "", d->v[k].file,
			d->v[k].line, d->v[k].macro);
	fputs(d->n > 3 ? ", ..." : "", out);
	fclose(out);
	return text;
}

/*
 * @e's origin on each side: a line per side ("      from: ...") in text,
 * the cell of the `defined` column in Markdown (sides split by <br>).
 * A side spanning several trees names each.
 */
static void entry_origin(FILE *out, const struct upgrade *u,
			 const struct upgrade_delta *e, int md)
{
	static const char *const label[] = { "from", "to" };
	const char *attr = entry_attr(u, e);
	int shown = 0;

	if (!u->origins)
		return;
	if (md)
		fputc(' ', out);
	for (int side = 0; attr && side < 2; side++) {
		size_t n = side_trees(u, e, side);

		for (size_t k = 0; k < e->npairs; k++) {
			const struct origin_tree *t = side_tree(u, e, side, k);
			char *text, *head;

			if (!t)
				continue;
			text = origin_text(t, attr);
			head = n > 1 ? xstrfmt("%s %s:", label[side], t->name) :
				xstrfmt("%s:", label[side]);
			if (md) {
				fputs(shown++ ? "<br>" : "", out);
				report_md_put(out, head, 1);
				fputc(' ', out);
				report_md_put(out, text, 1);
			} else {
				fprintf(out, "      %-5s %s\n", head, text);
			}
			free(head);
			free(text);
		}
	}
	if (md)
		fputs(" |", out);
}

/* Once, under the summary: each tree and what was scanned of it. */
static void origins_put(FILE *out, const struct upgrade *u, int md)
{
	if (!u->origins)
		return;
	fputs(md ? "- defined in: " : "defined in: ", out);
	for (size_t t = 0; t < u->ntrees; t++) {
		const struct origin_tree *o = &u->trees[t];
		char *what = !o->prepared ?
			xstrfmt("not prepared (%s)", o->dir) : o->kernels ?
			xstrfmt("%zu file%s compiled by %zu kernel%s",
				o->files, o->files == 1 ? "" : "s",
				o->kernels, o->kernels == 1 ? "" : "s") :
			xstrfmt("%zu file%s, every *.c (no kernel built)",
				o->files, o->files == 1 ? "" : "s");

		fputs(t ? "; " : "", out);
		if (md) {
			report_md_put(out, o->name, 1);
			fputs(": ", out);
			report_md_put(out, what, 1);
		} else {
			fprintf(out, "%s: %s", o->name, what);
		}
		free(what);
	}
	fputc('\n', out);
}

static json_t *origin_json(const struct origin_tree *t, const char *attr)
{
	const struct origin_def *d = origin_tree_find(t, attr);
	json_t *sites = json_array();

	for (size_t k = 0; d && k < d->n; k++)
		json_array_append_new(sites, json_pack("{s:s, s:I, s:s}",
			"file", d->v[k].file, "line", (json_int_t)d->v[k].line,
			"macro", d->v[k].macro));
	return json_pack("{s:I, s:o}", "found",
			 (json_int_t)json_array_size(sites), "sites", sites);
}

/* {"from": {TREE: {"found": N, "sites": [...]}}, "to": {...}}, or NULL */
static json_t *entry_origin_json(const struct upgrade *u,
				 const struct upgrade_delta *e)
{
	static const char *const label[] = { "from", "to" };
	const char *attr = entry_attr(u, e);
	json_t *j;

	if (!u->origins || !attr)
		return NULL;
	j = json_object();
	for (int side = 0; side < 2; side++) {
		json_t *trees = json_object();

		for (size_t k = 0; k < e->npairs; k++) {
			const struct origin_tree *t = side_tree(u, e, side, k);

			if (t)
				json_object_set_new(trees, t->name,
						    origin_json(t, attr));
		}
		json_object_set_new(j, label[side], trees);
	}
	return j;
}

/* Each tree: {NAME: {"dir", "prepared", "kernels", "files"}} */
static json_t *origins_json(const struct upgrade *u)
{
	json_t *j = json_object();

	for (size_t t = 0; t < u->ntrees; t++) {
		const struct origin_tree *o = &u->trees[t];

		json_object_set_new(j, o->name, json_pack("{s:s, s:b, s:I, s:I}",
			"dir", o->dir, "prepared", o->prepared,
			"kernels", (json_int_t)o->kernels,
			"files", (json_int_t)o->files));
	}
	return j;
}

static void summary_put(FILE *out, const struct upgrade *u, int md)
{
	const char *axis = u->f->m.axes[u->axis].name;

	if (md) {
		fputs("## sysfarm upgrade: ", out);
		report_md_put(out, axis, 1);
		values_put(out, u, "\u2192");
		fputs("\n\n", out);
	} else {
		fputs(axis, out);
		values_put(out, u, "->");
		fputs(": ", out);
	}
	fprintf(out, "%zu pair%s compared, %zu not; ", compared(u),
		compared(u) == 1 ? "" : "s", u->npairs - compared(u));
	counts_put(out, u->counts);
	fputs(md ? ".\n" : "\n", out);
	origins_put(out, u, md);
	for (size_t i = 0; i < u->npairs; i++) {
		const struct upgrade_pair *p = &u->pairs[i];

		if (!p->missing)
			continue;
		fputs(md ? "- not compared: " : "not compared: ", out);
		pairs_put(out, u, &i, 1, md);
		fprintf(out, " (no %s for %s)\n", u->what, p->missing);
	}
}

/* "  - KIND PATH: OLD", "  ~ KIND PATH: WHAT OLD -> NEW", "  + ..." */
static void entry_text(FILE *out, const struct upgrade_delta *e)
{
	struct diff_change c = e->c;
	char *line;

	c.path = delta_path(e);
	c.subject = NULL;	/* in the path already */
	line = diff_change_format(&c, 0);
	fprintf(out, "  %.2s%s %s\n", line, e->kind, line + 2);
	free(line);
	free(c.path);
}

static void md_cell(FILE *out, const char *s)
{
	fputs(" ", out);
	report_md_put(out, s ? s : "", 1);
	fputs(" |", out);
}

static void entry_markdown(FILE *out, const struct upgrade_delta *e)
{
	char *path = delta_path(e);

	if (diff_abi_name(e->c.abi)) {
		char *with = xstrfmt("%s [%s]", path, diff_abi_name(e->c.abi));

		free(path);
		path = with;
	}

	fputc('|', out);
	md_cell(out, diff_class_name(e->cls));
	md_cell(out, e->kind);
	md_cell(out, path);
	md_cell(out, e->cls == DIFF_CLASS_CHANGED ?
		diff_kind_name(e->c.kind) : "");
	md_cell(out, e->c.old);
	md_cell(out, e->c.new);
	free(path);
}

void upgrade_print(FILE *out, const struct upgrade *u, int md)
{
	summary_put(out, u, md);
	for (size_t i = 0, end; i < u->n; i = end) {
		size_t counts[DIFF_CLASS_NR];

		end = group_count(u, i, counts);
		fputs(md ? "\n### " : "\n", out);
		pairs_put(out, u, u->v[i]->pairs, u->v[i]->npairs, md);
		fputs(md ? "\n\n" : ": ", out);
		counts_put(out, counts);
		fputs(md ? ".\n\n| class | kind | path | change | old | new |" :
		      "\n", out);
		if (md)
			fputs(u->origins ? " defined |\n| --- | --- | --- | --- | --- | --- | --- |\n" :
			      "\n| --- | --- | --- | --- | --- | --- |\n", out);
		for (size_t j = i; j < end; j++) {
			(md ? entry_markdown : entry_text)(out, u->v[j]);
			entry_origin(out, u, u->v[j], md);
			fputs(md ? "\n" : "", out);
		}
	}
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *pair_json(const struct upgrade *u, const struct upgrade_pair *p)
{
	return json_pack("{s:s, s:s}", "from", config_name(u, p->from),
			 "to", config_name(u, p->to));
}

json_t *upgrade_json(const struct upgrade *u)
{
	json_t *pairs = json_array(), *entries = json_array(), *counts;
	json_t *review;

	for (size_t i = 0; i < u->npairs; i++) {
		const struct upgrade_pair *p = &u->pairs[i];
		json_t *j = pair_json(u, p);

		json_object_set_new(j, "from_value",
				    json_string(value_name(u, p->va)));
		json_object_set_new(j, "to_value",
				    json_string(value_name(u, p->vb)));
		json_object_set_new(j, "compared", json_boolean(!p->missing));
		if (p->missing)
			json_object_set_new(j, "missing",
					    json_string(p->missing));
		json_array_append_new(pairs, j);
	}
	for (size_t i = 0; i < u->n; i++) {
		const struct upgrade_delta *e = u->v[i];
		json_t *configs = json_array(), *origin;
		json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}",
			"class", diff_class_name(e->cls), "kind", e->kind,
			"change", diff_kind_name(e->c.kind), "path", e->c.path,
			"old", string_or_null(e->c.old),
			"new", string_or_null(e->c.new));

		if (e->c.subject)
			json_object_set_new(j, "probe",
					    json_string(e->c.subject));
		if (diff_abi_name(e->c.abi))
			json_object_set_new(j, "abi_status",
					    json_string(diff_abi_name(e->c.abi)));
		if (e->c.members)
			json_object_set_new(j, "entries",
					    diff_to_json(e->c.members));
		for (size_t k = 0; k < e->npairs; k++)
			json_array_append_new(configs, pair_json(u,
					      &u->pairs[e->pairs[k]]));
		json_object_set_new(j, "configs", configs);
		if ((origin = entry_origin_json(u, e)))
			json_object_set_new(j, "origin", origin);
		json_array_append_new(entries, j);
	}
	counts = json_pack("{s:i, s:i, s:i}",
			   "removed", (int)u->counts[DIFF_CLASS_REMOVED],
			   "changed", (int)u->counts[DIFF_CLASS_CHANGED],
			   "added", (int)u->counts[DIFF_CLASS_ADDED]);
	review = json_pack("{s:s, s:o, s:o, s:o}", "axis",
			   u->f->m.axes[u->axis].name, "pairs", pairs,
			   "entries", entries, "counts", counts);
	if (u->origins)
		json_object_set_new(review, "origin_trees", origins_json(u));
	return review;
}

/* The name of axis @i (@axis < 0), or of value @i of axis @axis. */
static const char *name_at(const struct matrix *m, long axis, size_t i)
{
	return axis < 0 ? m->axes[i].name : m->axes[axis].values[i].name;
}

/*
 * The index of @name among the axes (@axis < 0) or the values of axis
 * @axis; or -1 with @err naming option @opt and the choices.
 */
static long name_find(const struct matrix *m, long axis, const char *opt,
		      const char *name, struct sf_err *err)
{
	size_t n = axis < 0 ? m->naxes : m->axes[axis].nvalues, len;
	char shown[80], *choices = NULL;
	FILE *list;

	for (size_t i = 0; i < n; i++)
		if (!strcmp(name_at(m, axis, i), name))
			return i;
	str_quote(shown, sizeof(shown), name);
	list = xmemstream(&choices, &len);
	for (size_t i = 0; i < n; i++)
		fprintf(list, "%s%s", i ? ", " : "", name_at(m, axis, i));
	fclose(list);
	if (axis < 0)
		err_at(err, ERR_INPUT, NULL, 0, 0,
		       "%s %s: %s has no such axis (%s)", opt, shown, m->path,
		       choices);
	else
		err_at(err, ERR_INPUT, NULL, 0, 0,
		       "%s %s: axis '%s' has no such value (%s)", opt, shown,
		       m->axes[axis].name, choices);
	free(choices);
	return -1;
}

/* Do configurations @i and @j differ in the axis alone? */
static int one_axis_apart(const struct matrix *m, size_t axis, size_t i,
			  size_t j)
{
	for (size_t a = 0; a < m->naxes; a++)
		if (a != axis &&
		    m->configs[i].value[a] != m->configs[j].value[a])
			return 0;
	return 1;
}

static int selected(const struct farm *f, size_t c)
{
	for (size_t s = 0; s < f->nsel; s++)
		if (f->sel[s] == c)
			return 1;
	return 0;
}

/* Every pair of selected configurations from value @va to value @vb. */
static void pairs_add(struct upgrade *u, size_t va, size_t vb)
{
	const struct matrix *m = &u->f->m;

	for (size_t i = 0; i < m->nconfigs; i++) {
		if (m->configs[i].value[u->axis] != va)
			continue;
		for (size_t j = 0; j < m->nconfigs; j++) {
			if (m->configs[j].value[u->axis] != vb ||
			    !one_axis_apart(m, u->axis, i, j) ||
			    (!selected(u->f, i) && !selected(u->f, j)))
				continue;
			u->pairs = xrealloc(u->pairs, (u->npairs + 1) *
					    sizeof(*u->pairs));
			u->pairs[u->npairs++] = (struct upgrade_pair){
				.from = i, .to = j, .va = va, .vb = vb,
			};
		}
	}
}

int upgrade_pairs(struct upgrade *u, const struct farm *f,
		  const struct upgrade_req *rq, struct sf_err *err)
{
	const struct axis *ax;
	long axis, va = -1, vb = -1;

	memset(u, 0, sizeof(*u));
	u->f = f;
	axis = name_find(&f->m, -1, "--axis", rq->axis, err);
	if (axis < 0)
		return -1;
	u->axis = axis;
	ax = &f->m.axes[axis];
	if ((rq->from &&
	     (va = name_find(&f->m, axis, "--from", rq->from, err)) < 0) ||
	    (rq->to && (vb = name_find(&f->m, axis, "--to", rq->to, err)) < 0))
		return -1;
	if (rq->from && rq->to && va == vb)
		return err_at(err, ERR_INPUT, NULL, 0, 0,
			      "--from and --to name the same value '%s': nothing to compare",
			      ax->values[va].name);
	if (rq->from && !rq->to && (vb = va + 1) == (long)ax->nvalues)
		return err_at(err, ERR_INPUT, NULL, 0, 0,
			      "--from '%s' is the last value of axis '%s': name --to",
			      ax->values[va].name, ax->name);
	if (rq->to && !rq->from && (va = vb - 1) < 0)
		return err_at(err, ERR_INPUT, NULL, 0, 0,
			      "--to '%s' is the first value of axis '%s': name --from",
			      ax->values[vb].name, ax->name);
	if (rq->from || rq->to)
		pairs_add(u, va, vb);
	else
		for (size_t v = 0; v + 1 < ax->nvalues; v++)
			pairs_add(u, v, v + 1);
	/* A review of nothing is no review: say why there is no pair */
	if (!u->npairs)
		return err_at(err, ERR_INPUT, NULL, 0, 0,
			      "no pair of configurations one '%s' value apart%s",
			      ax->name, ax->nvalues < 2 ?
			      " (the axis has one value)" :
			      " among those selected");
	return 0;
}

/*
 * Loads configuration @c's golden or snapshot; one that fails is added
 * to the misses. Return: the exit status of reading it (0, 125 or 2).
 */
static int snap_of(struct upgrade *u, const struct upgrade_req *rq, size_t c)
{
	const char *name = config_name(u, c);
	char *out = rq->goldens ? NULL : path_out(u->f->build, name);
	char *path = out ? path_snapshot(out) : path_golden(rq->goldens, name);
	struct sf_err err = SF_ERR_INIT;
	int ret = golden_read(path, &u->snaps[c], &err);

	if (ret) {
		u->miss = xrealloc(u->miss, (u->nmiss + 1) * sizeof(*u->miss));
		u->miss[u->nmiss++] = (struct upgrade_miss){
			.config = c, .ret = ret, .err = err,
		};
	}
	free(path);
	free(out);
	return verdict_exit_input(ret);
}

/*
 * Every pair's two sides, each configuration's once; a pair with a side
 * missing is not compared. Return: the folded exit status of reading.
 */
static int snaps_load(struct upgrade *u, const struct upgrade_req *rq)
{
	size_t n = u->f->m.nconfigs;
	int *got = xmalloc((n + 1) * sizeof(*got)), status = SF_EXIT_OK;

	u->snaps = memset(xmalloc((n + 1) * sizeof(*u->snaps)), 0,
			  (n + 1) * sizeof(*u->snaps));
	for (size_t c = 0; c < n; c++)
		got[c] = -1;	/* not tried */
	for (size_t i = 0; i < u->npairs; i++) {
		struct upgrade_pair *p = &u->pairs[i];
		const size_t sides[2] = { p->from, p->to };

		for (size_t s = 0; s < 2; s++) {
			size_t c = sides[s];

			if (got[c] < 0)
				got[c] = snap_of(u, rq, c);
			if (got[c] && !p->missing)
				p->missing = config_name(u, c);
			status = verdict_exit_fold(status, got[c]);
		}
	}
	free(got);
	return status;
}

/*
 * Configuration @c's Documentation/ABI: its source's tree's, where @c is
 * selected (its source known) and the tree has one; else NULL.
 */
static const struct abi_docs *docs_of(struct upgrade *u, size_t c)
{
	const struct abi_docs *docs = NULL;

	for (size_t s = 0; s < u->f->nsel; s++)
		if (u->f->sel[s] == c) {
			char *tree = farm_source_tree(farm_source(u->f, s));

			docs = abi_docs_get(&u->docs, tree);
			free(tree);
		}
	return docs;
}

void upgrade_compare(json_t *from, json_t *to, const struct redactions *rules,
		     struct diff *d)
{
	snap_diff(from, to, rules, d);
}

int upgrade_review(struct upgrade *u, const struct upgrade_req *rq)
{
	int status;

	u->what = rq->goldens ? "golden" : "snapshot";
	status = snaps_load(u, rq);
	if (status == SF_EXIT_USAGE)
		return status;
	for (size_t p = 0; p < u->npairs; p++) {
		struct diff d = DIFF_INIT;

		if (u->pairs[p].missing)
			continue;
		upgrade_compare(u->snaps[u->pairs[p].from],
				u->snaps[u->pairs[p].to], rq->rules, &d);
		abi_docs_mark(docs_of(u, u->pairs[p].from),
			      docs_of(u, u->pairs[p].to), &d);
		diff_fold(&d, rq->fold);
		deltas_add(u, p, &d);
		diff_release(&d);
	}
	deltas_merge(u);
	if (!rq->no_origin)
		origins_find(u);
	return verdict_exit_fold(status, u->n ? SF_EXIT_DIFF : SF_EXIT_OK);
}

void upgrade_release(struct upgrade *u)
{
	for (size_t i = 0; i < u->n; i++)
		delta_free(u->v[i]);
	free(u->v);
	for (size_t c = 0; u->snaps && c < u->f->m.nconfigs; c++)
		json_decref(u->snaps[c]);
	free(u->snaps);
	free(u->miss);
	free(u->pairs);
	abi_docs_set_release(&u->docs);
	for (size_t t = 0; t < u->ntrees; t++)
		origin_tree_release(&u->trees[t]);
	free(u->trees);
	free(u->tree_of);
}
