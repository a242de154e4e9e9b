// SPDX-License-Identifier: GPL-2.0
/* sysfarm upgrade: the ABI delta between configurations one axis apart. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/report.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"
#include "pipeline/farm.h"

static const char about[] =
	"For every pair of configurations that differ only in the value of\n"
	"one axis (source, 6.1 -> 6.12), the ABI delta from the first to the\n"
	"second: their goldens expected/CONFIG.json (or with --snapshots the\n"
	"last run's), compared as check compares, redactions applied. Each\n"
	"entry is removed (gone: incompatible for userland), changed (mode,\n"
	"type, target, value, error, probe outcome: to review) or added\n"
	"(compatible); an entry several pairs share is printed once, under\n"
	"the pairs it is in. By default each value of the axis to the next;\n"
	"CONFIG restricts to the pairs from or to it. Exit 0 no delta, 1 a\n"
	"delta, 2 bad usage or input, 125 a golden or snapshot is missing\n"
	"(the other pairs are still shown).\n";

enum { UPGRADE_TEXT, UPGRADE_MARKDOWN, UPGRADE_JSON };

struct upgrade_opts {
	const char *axis, *from, *to;
	struct golden_dir_opts dir;
	int snapshots;
	int no_renames, full;
	int format;		/* the last of --markdown and --json wins */
};

static const struct opt upgrade_options[] = {
	OPT_STRING(0, "axis", struct upgrade_opts, axis, "NAME",
		   "the axis the pairs differ in (source)"),
	OPT_STRING(0, "from", struct upgrade_opts, from, "VALUE",
		   "only from this value (to the next, or --to)"),
	OPT_STRING(0, "to", struct upgrade_opts, to, "VALUE",
		   "only to this value (from the one before, or --from)"),
	OPT_INCLUDE(golden_dir_options, struct upgrade_opts, dir),
	OPT_BOOLEAN(0, "snapshots", struct upgrade_opts, snapshots,
		    "compare BUILD/out/CONFIG/snapshot.json instead"),
	OPT_BOOLEAN(0, "no-renames", struct upgrade_opts, no_renames,
		    "a renamed directory's entries each, not one 'renamed'"),
	OPT_BOOLEAN(0, "full", struct upgrade_opts, full,
		    "a removed or added directory's entries each, not one"),
	OPT_SET_INT(0, "markdown", struct upgrade_opts, format,
		    UPGRADE_MARKDOWN, "a Markdown section per group of pairs"),
	OPT_SET_INT(0, "json", struct upgrade_opts, format, UPGRADE_JSON,
		    "the pairs and the entries as one JSON object"),
	OPT_END
};

static const struct opt_cmd upgrade_cmd = {
	.usage = "sysfarm upgrade [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = upgrade_options,
	.nargs = OPT_CONFIGS,
};

/* Two configurations, from (value A of the axis) to (value B). */
struct pair {
	size_t from, to;	/* into m.configs */
	size_t va, vb;		/* into the axis's values */
	const char *missing;	/* the configuration without a snapshot */
};

/*
 * One change of one pair; after merging, one entry and every pair it is
 * in. @c's strings are owned, moved from the pair's struct diff.
 */
struct delta {
	enum diff_class cls;	/* what it means for userland; the order
				 * entries are printed in */
	const char *kind;	/* file dir link other node probe kmsg sysfs */
	struct diff_change c;
	size_t seq;		/* the order it was found in */
	size_t *pairs;		/* into the pairs, ascending */
	size_t npairs;
};

struct upgrade {
	struct farm f;
	size_t axis;
	struct pair *pairs;
	size_t npairs;
	const char *what;	/* "golden" or "snapshot" */
	json_t **snaps;		/* per configuration, loaded once */
	struct delta **v;
	size_t n, alloc;
	size_t counts[DIFF_CLASS_NR];
	unsigned int fold;	/* what diff_fold() folds */
};

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
static int delta_same_cmp(const struct delta *x, const struct delta *y)
{
	int r;

	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	if (x->c.kind != y->c.kind)
		return x->c.kind < y->c.kind ? -1 : 1;
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
	const struct delta *x = *(struct delta *const *)pa;
	const struct delta *y = *(struct delta *const *)pb;
	int r = delta_same_cmp(x, y);

	return r ? r : x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Groups by their pairs (the most first), then class, then found order. */
static int delta_print_cmp(const void *pa, const void *pb)
{
	const struct delta *x = *(struct delta *const *)pa;
	const struct delta *y = *(struct delta *const *)pb;

	if (x->npairs != y->npairs)
		return x->npairs > y->npairs ? -1 : 1;
	for (size_t i = 0; i < x->npairs; i++)
		if (x->pairs[i] != y->pairs[i])
			return x->pairs[i] < y->pairs[i] ? -1 : 1;
	if (x->cls != y->cls)
		return x->cls < y->cls ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

static int same_pairs(const struct delta *x, const struct delta *y)
{
	return x->npairs == y->npairs &&
	       !memcmp(x->pairs, y->pairs, x->npairs * sizeof(*x->pairs));
}

static void delta_free(struct delta *d)
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

	diff_fold(d, u->fold);
	for (size_t i = 0; i < d->n; i++) {
		struct delta *e = xmalloc(sizeof(*e));

		*e = (struct delta){
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
		struct delta *e = u->v[i], *keep = k ? u->v[k - 1] : NULL;

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
	return u->f.m.configs[c].name;
}

static const char *value_name(const struct upgrade *u, size_t v)
{
	return u->f.m.axes[u->axis].values[v].name;
}

/* "x86_64 -> x86_64-6.12, arm -> arm-6.12" */
static void pairs_put(FILE *out, const struct upgrade *u, const size_t *ps,
		      size_t n, int md)
{
	for (size_t i = 0; i < n; i++) {
		const struct pair *p = &u->pairs[ps[i]];

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
		const struct pair *p = &u->pairs[i];
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
static char *delta_path(const struct delta *e)
{
	return e->c.subject ? xstrfmt("%s (%s)", e->c.path, e->c.subject) :
			      xstrdup(e->c.path);
}

static void summary_put(FILE *out, const struct upgrade *u, int md)
{
	const char *axis = u->f.m.axes[u->axis].name;

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
	for (size_t i = 0; i < u->npairs; i++) {
		const struct pair *p = &u->pairs[i];

		if (!p->missing)
			continue;
		fputs(md ? "- not compared: " : "not compared: ", out);
		pairs_put(out, u, &i, 1, md);
		fprintf(out, " (no %s for %s)\n", u->what, p->missing);
	}
}

/* "  - KIND PATH: OLD", "  ~ KIND PATH: WHAT OLD -> NEW", "  + ..." */
static void entry_text(FILE *out, const struct delta *e)
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

static void entry_markdown(FILE *out, const struct delta *e)
{
	char *path = delta_path(e);

	fputc('|', out);
	md_cell(out, diff_class_name(e->cls));
	md_cell(out, e->kind);
	md_cell(out, path);
	md_cell(out, e->cls == DIFF_CLASS_CHANGED ? diff_kind_name(e->c.kind) : "");
	md_cell(out, e->c.old);
	md_cell(out, e->c.new);
	fputc('\n', out);
	free(path);
}

/* Text, or Markdown with @md: per group of pairs a header, its entries. */
static void upgrade_print(FILE *out, const struct upgrade *u, int md)
{
	summary_put(out, u, md);
	for (size_t i = 0, end; i < u->n; i = end) {
		size_t counts[DIFF_CLASS_NR];

		end = group_count(u, i, counts);
		fputs(md ? "\n### " : "\n", out);
		pairs_put(out, u, u->v[i]->pairs, u->v[i]->npairs, md);
		fputs(md ? "\n\n" : ": ", out);
		counts_put(out, counts);
		fputs(md ? ".\n\n| class | kind | path | change | old | new |\n"
		      "| --- | --- | --- | --- | --- | --- |\n" : "\n", out);
		for (size_t j = i; j < end; j++)
			(md ? entry_markdown : entry_text)(out, u->v[j]);
	}
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *pair_json(const struct upgrade *u, const struct pair *p)
{
	return json_pack("{s:s, s:s}", "from", config_name(u, p->from),
			 "to", config_name(u, p->to));
}

static json_t *upgrade_json(const struct upgrade *u)
{
	json_t *pairs = json_array(), *entries = json_array(), *counts;

	for (size_t i = 0; i < u->npairs; i++) {
		const struct pair *p = &u->pairs[i];
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
		const struct delta *e = u->v[i];
		json_t *configs = json_array();
		json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:o, s:o}",
			"class", diff_class_name(e->cls), "kind", e->kind,
			"change", diff_kind_name(e->c.kind), "path", e->c.path,
			"old", string_or_null(e->c.old),
			"new", string_or_null(e->c.new));

		if (e->c.subject)
			json_object_set_new(j, "probe",
					    json_string(e->c.subject));
		if (e->c.members)
			json_object_set_new(j, "entries",
					    diff_to_json(e->c.members));
		for (size_t k = 0; k < e->npairs; k++)
			json_array_append_new(configs, pair_json(u,
					      &u->pairs[e->pairs[k]]));
		json_object_set_new(j, "configs", configs);
		json_array_append_new(entries, j);
	}
	counts = json_pack("{s:i, s:i, s:i}",
			   "removed", (int)u->counts[DIFF_CLASS_REMOVED],
			   "changed", (int)u->counts[DIFF_CLASS_CHANGED],
			   "added", (int)u->counts[DIFF_CLASS_ADDED]);
	return json_pack("{s:s, s:o, s:o, s:o}", "axis",
			 u->f.m.axes[u->axis].name, "pairs", pairs,
			 "entries", entries, "counts", counts);
}

/* The name of axis @i (@axis < 0), or of value @i of axis @axis. */
static const char *name_at(const struct matrix *m, long axis, size_t i)
{
	return axis < 0 ? m->axes[i].name : m->axes[axis].values[i].name;
}

/*
 * The index of @name among the axes (@axis < 0) or the values of axis
 * @axis; or -1 after a message naming option @opt and the choices.
 */
static long name_find(const struct matrix *m, long axis, const char *opt,
		      const char *name)
{
	size_t n = axis < 0 ? m->naxes : m->axes[axis].nvalues;
	char shown[80];

	for (size_t i = 0; i < n; i++)
		if (!strcmp(name_at(m, axis, i), name))
			return i;
	str_quote(shown, sizeof(shown), name);
	if (axis < 0)
		fprintf(stderr, "sysfarm upgrade: %s %s: %s has no such axis (",
			opt, shown, m->path);
	else
		fprintf(stderr, "sysfarm upgrade: %s %s: axis '%s' has no such value (",
			opt, shown, m->axes[axis].name);
	for (size_t i = 0; i < n; i++)
		fprintf(stderr, "%s%s", i ? ", " : "", name_at(m, axis, i));
	fputs(")\n", stderr);
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
	const struct matrix *m = &u->f.m;

	for (size_t i = 0; i < m->nconfigs; i++) {
		if (m->configs[i].value[u->axis] != va)
			continue;
		for (size_t j = 0; j < m->nconfigs; j++) {
			if (m->configs[j].value[u->axis] != vb ||
			    !one_axis_apart(m, u->axis, i, j) ||
			    (!selected(&u->f, i) && !selected(&u->f, j)))
				continue;
			u->pairs = xrealloc(u->pairs, (u->npairs + 1) *
					    sizeof(*u->pairs));
			u->pairs[u->npairs++] = (struct pair){
				.from = i, .to = j, .va = va, .vb = vb,
			};
		}
	}
}

/*
 * The value pairs: --from and --to; --from to the next value; the one
 * before --to to it; or each value to the next. Return: 0 or -1 after a
 * message.
 */
static int pairs_find(struct upgrade *u, const struct upgrade_opts *o)
{
	const struct axis *ax = &u->f.m.axes[u->axis];
	long va = -1, vb = -1;

	if ((o->from &&
	     (va = name_find(&u->f.m, u->axis, "--from", o->from)) < 0) ||
	    (o->to && (vb = name_find(&u->f.m, u->axis, "--to", o->to)) < 0))
		return -1;
	if (o->from && o->to && va == vb) {
		fprintf(stderr, "sysfarm upgrade: --from and --to name the same value '%s': nothing to compare\n",
			ax->values[va].name);
		return -1;
	}
	if (o->from && !o->to && (vb = va + 1) == (long)ax->nvalues) {
		fprintf(stderr, "sysfarm upgrade: --from '%s' is the last value of axis '%s': name --to\n",
			ax->values[va].name, ax->name);
		return -1;
	}
	if (o->to && !o->from && (va = vb - 1) < 0) {
		fprintf(stderr, "sysfarm upgrade: --to '%s' is the first value of axis '%s': name --from\n",
			ax->values[vb].name, ax->name);
		return -1;
	}
	if (o->from || o->to)
		pairs_add(u, va, vb);
	else
		for (size_t v = 0; v + 1 < ax->nvalues; v++)
			pairs_add(u, v, v + 1);
	/* A review of nothing is no review: say why there is no pair */
	if (!u->npairs) {
		fprintf(stderr, "sysfarm upgrade: no pair of configurations one '%s' value apart%s\n",
			ax->name, ax->nvalues < 2 ? " (the axis has one value)" :
			" among those selected");
		return -1;
	}
	return 0;
}

/*
 * Loads configuration @c's golden or snapshot once. Return: 0, or an exit
 * status after a message: 125 missing (unreadable), 2 bad.
 */
static int snap_of(struct upgrade *u, const struct upgrade_opts *o,
		   const char *goldens, size_t c)
{
	const char *name = config_name(u, c);
	char *out = o->snapshots ? path_out(u->f.build, name) : NULL;
	char *path = out ? path_snapshot(out) : path_golden(goldens, name);
	struct sf_err err = SF_ERR_INIT;
	char text[ERR_FORMAT_MAX];
	int ret = 0;

	if (!u->snaps[c] && (ret = golden_read(path, &u->snaps[c], &err))) {
		fprintf(stderr, "sysfarm upgrade: %s",
			err_format(&err, text, sizeof(text)));
		if (ret == INPUT_EIO)
			fprintf(stderr, " ('sysfarm %s %s' %s)",
				out ? "run" : "update", name,
				out ? "takes it" : "writes it");
		fputc('\n', stderr);
	}
	free(path);
	free(out);
	return !ret ? 0 : ret == INPUT_EIO ? SF_EXIT_UNTESTED : SF_EXIT_USAGE;
}

/*
 * Every pair's two sides, each configuration's once; a pair with a side
 * missing is not compared. Return: 0, 125 a side is missing, or 2 a side
 * is bad (every bad one named).
 */
static int snaps_load(struct upgrade *u, const struct upgrade_opts *o,
		      const char *goldens)
{
	size_t n = u->f.m.nconfigs;
	int *got = xmalloc((n + 1) * sizeof(*got)), status = SF_EXIT_OK;

	u->snaps = memset(xmalloc((n + 1) * sizeof(*u->snaps)), 0,
			  (n + 1) * sizeof(*u->snaps));
	for (size_t c = 0; c < n; c++)
		got[c] = -1;	/* not tried */
	for (size_t i = 0; i < u->npairs; i++) {
		struct pair *p = &u->pairs[i];
		const size_t sides[2] = { p->from, p->to };

		for (size_t s = 0; s < 2; s++) {
			size_t c = sides[s];

			if (got[c] < 0)
				got[c] = snap_of(u, o, goldens, c);
			if (got[c] && !p->missing)
				p->missing = config_name(u, c);
			if (got[c] && status != SF_EXIT_USAGE)
				status = got[c];
		}
	}
	free(got);
	return status;
}

static void upgrade_release(struct upgrade *u)
{
	for (size_t i = 0; i < u->n; i++)
		delta_free(u->v[i]);
	free(u->v);
	for (size_t c = 0; u->snaps && c < u->f.m.nconfigs; c++)
		json_decref(u->snaps[c]);
	free(u->snaps);
	free(u->pairs);
	farm_release(&u->f);
}

int cmd_upgrade(int argc, char **argv)
{
	struct upgrade_opts o = { .axis = "source" };
	struct redactions rules = REDACTIONS_INIT;
	struct upgrade u = { 0 };
	char *goldens = NULL;
	long axis;
	int status;

	farm_init(&u.f);
	if (ui_setup(&u.f, argc, argv, &upgrade_cmd, &o, &status))
		goto out;
	status = SF_EXIT_USAGE;
	axis = name_find(&u.f.m, -1, "--axis", o.axis);
	if (axis < 0)
		goto out;
	u.axis = axis;
	u.what = o.snapshots ? "snapshot" : "golden";
	u.fold = (o.no_renames ? 0 : DIFF_FOLD_RENAMES) |
		 (o.full ? 0 : DIFF_FOLD_SUBTREES);
	if (pairs_find(&u, &o))
		goto out;
	if (golden_dir_load(&o.dir, u.f.top, &goldens, &rules))
		goto out;
	status = snaps_load(&u, &o, goldens);
	if (status == SF_EXIT_USAGE)
		goto out;
	for (size_t p = 0; p < u.npairs; p++) {
		struct diff d = DIFF_INIT;

		if (u.pairs[p].missing)
			continue;
		snap_diff(u.snaps[u.pairs[p].from], u.snaps[u.pairs[p].to],
			  &rules, &d);
		deltas_add(&u, p, &d);
		diff_release(&d);
	}
	deltas_merge(&u);
	if (o.format == UPGRADE_JSON) {
		json_t *j = upgrade_json(&u);

		json_dumpf(j, stdout, JSON_INDENT(2) | JSON_SORT_KEYS);
		putchar('\n');
		json_decref(j);
	} else {
		upgrade_print(stdout, &u, o.format == UPGRADE_MARKDOWN);
	}
	/* An incomplete review is not a clean one, nor only a delta */
	if (status == SF_EXIT_OK && u.n)
		status = SF_EXIT_DIFF;
out:
	redactions_release(&rules);
	free(goldens);
	upgrade_release(&u);
	return status;
}
