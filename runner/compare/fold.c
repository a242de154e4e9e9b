// SPDX-License-Identifier: GPL-2.0
/* A diff folded for people: a renamed directory, a whole subtree, one entry. */
#include <stdlib.h>
#include <string.h>

#include "compare/diff.h"

/* A directory removed or added: the changes [first, end) of the diff. */
struct top {
	size_t first, end;
};

/* One entry for several changes: its head and its members, in order. */
struct fold {
	struct diff_change head;
	size_t *idx;
	size_t n;
};

struct folding {
	struct diff *d;
	struct top *tops;
	size_t ntops;
	struct fold *folds;
	size_t nfolds;
	size_t *owner;		/* per change: 1 + its fold, 0 none */
	int *top_folded;	/* per top */
};

/* The side of an addition or a removal that has the node's summary. */
static const char *side(const struct diff_change *c)
{
	return c->kind == DIFF_ADDED ? c->new : c->old;
}

static int dir_summary(const char *s)
{
	return s && !strncmp(s, "dir ", 4);
}

/* Is @path below @top ("P/x", or "P/" for a link followed into a dir)? */
static int under(const char *path, const char *top)
{
	size_t n = strlen(top);

	if (strncmp(path, top, n))
		return 0;
	return n && top[n - 1] == '/' ? path[n] != '\0' : path[n] == '/';
}

/* Does change @i open a directory: a dir, or a link followed into one? */
static int dir_at(const struct diff *d, size_t i)
{
	const struct diff_change *c = &d->v[i], *next;
	size_t n = strlen(c->path);

	if (c->members || (c->kind != DIFF_ADDED && c->kind != DIFF_REMOVED))
		return 0;
	if (dir_summary(side(c)))
		return 1;
	if (strncmp(side(c), "link ", 5) || i + 1 == d->n)
		return 0;
	next = &d->v[i + 1];
	return next->kind == c->kind && !next->members &&
	       !strncmp(next->path, c->path, n) && next->path[n] == '/' &&
	       next->path[n + 1] == '\0' && dir_summary(side(next));
}

static void tops_find(struct folding *f)
{
	const struct diff *d = f->d;
	size_t i = 0, end;

	f->tops = xmalloc((d->n + 1) * sizeof(*f->tops));
	while (i < d->n) {
		if (!dir_at(d, i)) {
			i++;
			continue;
		}
		for (end = i + 1; end < d->n && d->v[end].kind == d->v[i].kind &&
		     !d->v[end].members && under(d->v[end].path, d->v[i].path);
		     end++)
			;
		f->tops[f->ntops++] = (struct top){ .first = i, .end = end };
		i = end;
	}
}

/* The last run of digits in @s: its start, or NULL; its length in @n. */
static const char *last_number(const char *s, size_t *n)
{
	const char *end = s + strlen(s), *p;

	while (end > s && (end[-1] < '0' || end[-1] > '9'))
		end--;
	for (p = end; p > s && p[-1] >= '0' && p[-1] <= '9'; p--)
		;
	*n = (size_t)(end - p);
	return *n ? p : NULL;
}

/* The last component of a top's path, and the length of its parent. */
static const char *base_name(const char *path, size_t *parent)
{
	const char *slash = strrchr(path, '/');

	*parent = slash ? (size_t)(slash - path) : 0;
	return slash ? slash + 1 : path;
}

/*
 * @s with every whole run of digits that is @from made @to; the escapes
 * diff_quote() writes (\xHH, \uHHHH, \n) are copied as they are.
 */
static char *renumber(const char *s, const char *from, const char *to)
{
	size_t nf = strlen(from), nt = strlen(to), i = 0, o = 0, run;
	char *out = xmalloc(strlen(s) / (nf ? nf : 1) * (nt + 1) +
			    strlen(s) + 1);

	while (s[i]) {
		if (s[i] == '\\' && s[i + 1]) {
			size_t n = s[i + 1] == 'x' ? 4 : s[i + 1] == 'u' ? 6 : 2;

			while (n-- && s[i])
				out[o++] = s[i++];
			continue;
		}
		run = strspn(s + i, "0123456789");
		if (!run) {
			out[o++] = s[i++];
		} else if (run == nf && !strncmp(s + i, from, nf)) {
			memcpy(out + o, to, nt);
			o += nt;
			i += run;
		} else {
			memcpy(out + o, s + i, run);
			o += run;
			i += run;
		}
	}
	out[o] = '\0';
	return out;
}

/* @b is @a, or @a renumbered from @from to @to. */
static int renumbered(const char *a, const char *b, const char *from,
		      const char *to)
{
	char *r;
	int same;

	if (!a || !b)
		return a == b;
	if (!strcmp(a, b))
		return 1;
	r = renumber(a, from, to);
	same = !strcmp(r, b);
	free(r);
	return same;
}

/*
 * Two node summaries (`file 0444 "1023\n"`): the same type and mode, and
 * the rest the same but for the number.
 */
static int summary_renumbered(const char *a, const char *b, const char *from,
			      const char *to)
{
	const char *sp = strchr(a, ' ');
	size_t n = strlen(a);

	if (sp && (sp = strchr(sp + 1, ' ')))
		n = (size_t)(sp - a + 1);
	return !strncmp(a, b, n) && strlen(b) >= n &&
	       renumbered(a + n, b + n, from, to);
}

/* The number @name has in its last run of digits: malloc'd. */
static char *number_of(const char *name)
{
	size_t n;
	const char *p = last_number(name, &n);

	return xstrfmt("%.*s", p ? (int)n : 0, p ? p : "");
}

/* Removed top @r and added @a hold the same entries, renumbered. */
static int tops_renamed(const struct diff *d, const struct top *r,
			const struct top *a, const char *from, const char *to)
{
	size_t nr = strlen(d->v[r->first].path);
	size_t na = strlen(d->v[a->first].path);

	if (r->end - r->first != a->end - a->first)
		return 0;
	for (size_t k = 0; k < r->end - r->first; k++) {
		const struct diff_change *x = &d->v[r->first + k];
		const struct diff_change *y = &d->v[a->first + k];

		if (strcmp(x->path + nr, y->path + na) ||
		    !summary_renumbered(x->old, y->new, from, to))
			return 0;
	}
	return 1;
}

static void fold_add(struct folding *f, struct diff_change head)
{
	f->folds = xrealloc(f->folds, (f->nfolds + 1) * sizeof(*f->folds));
	f->folds[f->nfolds++] = (struct fold){ .head = head };
}

static void fold_take(struct folding *f, size_t fold, size_t first,
		      size_t end)
{
	struct fold *fo = &f->folds[fold];

	fo->idx = xrealloc(fo->idx, (fo->n + end - first) * sizeof(*fo->idx));
	for (size_t i = first; i < end; i++) {
		fo->idx[fo->n++] = i;
		f->owner[i] = fold + 1;
	}
}

/*
 * A top as renames group them: its path up to the last run of digits of
 * its name (the parent, the name's start), that run, and the rest.
 */
struct top_key {
	size_t t;		/* into the tops */
	const char *path;
	const char *run;
	size_t nrun;
};

static int top_key_same(const struct top_key *a, const struct top_key *b)
{
	return a->run - a->path == b->run - b->path &&
	       !memcmp(a->path, b->path, a->run - a->path) &&
	       !strcmp(a->run + a->nrun, b->run + b->nrun);
}

static int top_key_cmp(const void *pa, const void *pb)
{
	const struct top_key *a = pa, *b = pb;
	size_t na = a->run - a->path, nb = b->run - b->path;
	int r;

	if (na != nb)
		return na < nb ? -1 : 1;
	if ((r = memcmp(a->path, b->path, na)) ||
	    (r = strcmp(a->run + a->nrun, b->run + b->nrun)))
		return r;
	return a->t < b->t ? -1 : a->t > b->t;
}

/* The rename of removed top @r to added top @a, if their entries agree. */
static void rename_try(struct folding *f, size_t r, size_t a)
{
	const struct diff *d = f->d;
	size_t parent;
	const char *from_name = base_name(d->v[f->tops[r].first].path, &parent);
	const char *to_name = base_name(d->v[f->tops[a].first].path, &parent);
	char *from = number_of(from_name), *to = number_of(to_name);

	if (tops_renamed(d, &f->tops[r], &f->tops[a], from, to)) {
		fold_add(f, (struct diff_change){
			.kind = DIFF_RENAMED,
			.path = xstrdup(d->v[f->tops[r].first].path),
			.old = xstrdup(from_name),
			.new = xstrdup(to_name),
		});
		fold_take(f, f->nfolds - 1, f->tops[r].first, f->tops[r].end);
		fold_take(f, f->nfolds - 1, f->tops[a].first, f->tops[a].end);
		f->top_folded[r] = f->top_folded[a] = 1;
	}
	free(from);
	free(to);
}

/*
 * The tops sorted by parent and name but for its last run of digits:
 * a group of one removed and one added is a rename's candidate; any
 * other group (two candidates) is none.
 */
static void renames_find(struct folding *f)
{
	struct top_key *keys = xmalloc((f->ntops + 1) * sizeof(*keys));
	size_t n = 0, i, j;

	for (size_t t = 0; t < f->ntops; t++) {
		const char *path = f->d->v[f->tops[t].first].path, *run;
		size_t parent, nrun;

		run = last_number(base_name(path, &parent), &nrun);
		if (run)
			keys[n++] = (struct top_key){
				.t = t, .path = path, .run = run, .nrun = nrun,
			};
	}
	qsort(keys, n, sizeof(*keys), top_key_cmp);
	for (i = 0; i < n; i = j) {
		size_t removed = 0, added = 0, r = 0, a = 0;

		for (j = i; j < n && top_key_same(&keys[i], &keys[j]); j++) {
			if (f->d->v[f->tops[keys[j].t].first].kind ==
			    DIFF_REMOVED) {
				removed++;
				r = keys[j].t;
			} else {
				added++;
				a = keys[j].t;
			}
		}
		if (removed == 1 && added == 1)
			rename_try(f, r, a);
	}
	free(keys);
}

/* The next component of a link target at @s, its length. */
static size_t component(const char *s)
{
	return strcspn(s, "/");
}

/*
 * Does the link target change @a -> @b (quoted) rename one component
 * from rename @fo's old name to its new one, and change nothing else?
 */
static int target_follows(const char *a, const char *b,
			  const struct diff_change *fo)
{
	size_t na = strlen(a), nb = strlen(b), renamed = 0;
	const char *old = fo->old, *new = fo->new;

	if (na < 2 || nb < 2 || a[0] != '"' || b[0] != '"' ||
	    a[na - 1] != '"' || b[nb - 1] != '"')
		return 0;
	a++;
	b++;
	for (;;) {
		size_t ca = component(a), cb = component(b);
		int last_a = a[ca] != '/', last_b = b[cb] != '/';

		/* the closing quote is not part of the last component */
		ca -= last_a;
		cb -= last_b;
		if (ca == cb && !strncmp(a, b, ca)) {
			;
		} else if (ca == strlen(old) && cb == strlen(new) &&
			   !strncmp(a, old, ca) && !strncmp(b, new, cb)) {
			renamed++;
		} else {
			return 0;
		}
		if (last_a || last_b)
			return last_a && last_b && renamed;
		a += ca + 1;
		b += cb + 1;
	}
}

/* A rename by its old name, to find the one a link target names. */
struct rename_name {
	const char *old;
	size_t fold;
};

static int rename_name_cmp(const void *pa, const void *pb)
{
	return strcmp(((const struct rename_name *)pa)->old,
		      ((const struct rename_name *)pb)->old);
}

/*
 * The one rename whose old name is a component of the quoted target @t
 * and into which @t -> @u follows; -1 for none, or when several renames
 * have that name (which one it would be is a guess).
 */
static long target_rename(const struct folding *f,
			  const struct rename_name *names, size_t n,
			  const char *t, const char *u)
{
	const struct rename_name *hit;
	struct rename_name key;
	const char *p;

	if (t[0] != '"')
		return -1;
	for (p = t + 1;; p += component(p) + 1) {
		size_t len = component(p);
		char *name = xstrfmt("%.*s", (int)(len - (p[len] != '/')), p);

		key.old = name;
		hit = bsearch(&key, names, n, sizeof(*names),
			      rename_name_cmp);
		free(name);
		if (hit && (hit == names || rename_name_cmp(hit - 1, hit)) &&
		    (hit + 1 == names + n || rename_name_cmp(hit, hit + 1)) &&
		    target_follows(t, u, &f->folds[hit->fold].head))
			return (long)hit->fold;
		if (p[len] != '/')
			return -1;
	}
}

/*
 * Links elsewhere into a renamed directory follow it: a target changed
 * only by the rename is the rename's, and so is what changed below the
 * link only by its number, where it is followed.
 */
static void links_follow(struct folding *f)
{
	struct diff *d = f->d;
	struct rename_name *names = xmalloc((f->nfolds + 1) * sizeof(*names));
	size_t n = f->nfolds;

	for (size_t fo = 0; fo < n; fo++)
		names[fo] = (struct rename_name){
			.old = f->folds[fo].head.old, .fold = fo,
		};
	qsort(names, n, sizeof(*names), rename_name_cmp);
	for (size_t i = 0; n && i < d->n; i++) {
		const struct diff_change *c = &d->v[i];
		char *below, *from, *to;
		size_t end;
		long fo;

		if (f->owner[i] || c->kind != DIFF_TARGET || !c->old ||
		    !c->new ||
		    (fo = target_rename(f, names, n, c->old, c->new)) < 0)
			continue;
		fold_take(f, fo, i, i + 1);
		below = xstrfmt("%s/", c->path);
		from = number_of(f->folds[fo].head.old);
		to = number_of(f->folds[fo].head.new);
		for (end = i + 1; end < d->n &&
		     !strncmp(d->v[end].path, below, strlen(below)); end++)
			if (!f->owner[end] && (d->v[end].kind == DIFF_VALUE ||
					       d->v[end].kind == DIFF_TARGET) &&
			    d->v[end].old && d->v[end].new &&
			    renumbered(d->v[end].old, d->v[end].new, from, to))
				fold_take(f, fo, end, end + 1);
		free(below);
		free(from);
		free(to);
	}
	free(names);
}

/*
 * Each reason of fold @fo's changes once, "; " between, when all of them
 * are allowed: malloc'd; else NULL.
 */
static char *reasons_join(const struct diff *d, const struct fold *fo)
{
	struct strv seen = STRV_INIT;
	char *s = NULL, *more;

	for (size_t k = 0; k < fo->n; k++) {
		const char *why = d->v[fo->idx[k]].allowed;

		if (!why) {
			free(s);
			s = NULL;
			break;
		}
		if (strv_has(&seen, why))
			continue;
		strv_push(&seen, why);
		more = s ? xstrfmt("%s; %s", s, why) : xstrdup(why);
		free(s);
		s = more;
	}
	strv_release(&seen);
	return s;
}

/* "dir, 6 entries" and, when all are allowed, their reasons. */
static void subtrees_find(struct folding *f)
{
	struct diff *d = f->d;

	for (size_t t = 0; t < f->ntops; t++) {
		const struct top *tp = &f->tops[t];
		const struct diff_change *c = &d->v[tp->first];
		size_t n = tp->end - tp->first, allowed = 0;
		char *count;

		if (f->top_folded[t] || n < 2)
			continue;
		for (size_t i = tp->first; i < tp->end; i++)
			allowed += !!d->v[i].allowed;
		count = allowed && allowed < n ?
			xstrfmt("dir, %zu entr%s, %zu allowed", n - 1,
				n == 2 ? "y" : "ies", allowed) :
			xstrfmt("dir, %zu entr%s", n - 1, n == 2 ? "y" : "ies");
		fold_add(f, (struct diff_change){
			.kind = c->kind,
			.path = c->path[strlen(c->path) - 1] == '/' ?
				xstrdup(c->path) : xstrfmt("%s/", c->path),
			.old = c->kind == DIFF_REMOVED ? count : NULL,
			.new = c->kind == DIFF_ADDED ? count : NULL,
		});
		fold_take(f, f->nfolds - 1, tp->first, tp->end);
	}
}

/* The changes again: each fold's head at its first member's place. */
static void folds_apply(struct folding *f)
{
	struct diff *d = f->d, out = DIFF_INIT;
	size_t *first = xmalloc((f->nfolds + 1) * sizeof(*first));

	for (size_t fo = 0; fo < f->nfolds; fo++) {
		/* allowed, as a subtree or a rename, when all of it is */
		f->folds[fo].head.allowed = reasons_join(d, &f->folds[fo]);
		first[fo] = d->n;
		for (size_t k = 0; k < f->folds[fo].n; k++)
			if (f->folds[fo].idx[k] < first[fo])
				first[fo] = f->folds[fo].idx[k];
	}
	out.v = xmalloc((d->n + 1) * sizeof(*out.v));
	out.alloc = d->n + 1;
	for (size_t i = 0; i < d->n; i++) {
		size_t fo = f->owner[i];
		struct fold *fd;
		struct diff *m;

		if (!fo) {
			out.v[out.n++] = d->v[i];
			continue;
		}
		fd = &f->folds[fo - 1];
		if (first[fo - 1] != i)
			continue;
		m = xmalloc(sizeof(*m));
		*m = (struct diff){
			.v = xmalloc(fd->n * sizeof(*m->v)),
			.n = fd->n,
			.alloc = fd->n,
		};
		for (size_t k = 0; k < fd->n; k++)
			m->v[k] = d->v[fd->idx[k]];
		fd->head.members = m;
		out.v[out.n++] = fd->head;
	}
	free(first);
	free(d->v);
	*d = out;
}

void diff_fold(struct diff *d, unsigned int what)
{
	struct folding f = {
		.d = d,
		.owner = xmalloc((d->n + 1) * sizeof(*f.owner)),
	};

	memset(f.owner, 0, (d->n + 1) * sizeof(*f.owner));
	tops_find(&f);
	f.top_folded = xmalloc((f.ntops + 1) * sizeof(*f.top_folded));
	memset(f.top_folded, 0, (f.ntops + 1) * sizeof(*f.top_folded));
	if (what & DIFF_FOLD_RENAMES) {
		renames_find(&f);
		links_follow(&f);
	}
	if (what & DIFF_FOLD_SUBTREES)
		subtrees_find(&f);
	if (f.nfolds)
		folds_apply(&f);
	for (size_t fo = 0; fo < f.nfolds; fo++)
		free(f.folds[fo].idx);
	free(f.folds);
	free(f.top_folded);
	free(f.tops);
	free(f.owner);
}

char *diff_renamed_detail(const struct diff_change *c)
{
	const struct diff *m = c->members;
	size_t nr = 0, np = strlen(c->path), shown = 0, len;
	char *names = NULL, *from, *to, *s;
	FILE *out = xmemstream(&names, &len);

	while (nr < m->n && m->v[nr].kind == DIFF_REMOVED)
		nr++;
	for (size_t k = 0; k < nr && nr + k < m->n; k++) {
		const struct diff_change *x = &m->v[k], *y = &m->v[nr + k];
		const char *rel = x->path + np;

		if (strncmp(x->old, "file ", 5) || !y->new ||
		    !strcmp(x->old, y->new))
			continue;
		rel += *rel == '/';
		/* three named, as where an attribute comes from */
		if (shown++ < 3)
			fprintf(out, "%s%s", shown > 1 ? ", " : "", rel);
		else if (shown == 4)
			fputs(", ...", out);
	}
	fclose(out);
	if (!shown) {
		free(names);
		return xstrfmt("%zu entr%s", nr, nr == 1 ? "y" : "ies");
	}
	from = number_of(c->old);
	to = number_of(c->new);
	s = xstrfmt("%zu entr%s; %s \"%s\" -> \"%s\"", nr,
		    nr == 1 ? "y" : "ies", names, from, to);
	free(from);
	free(to);
	free(names);
	return s;
}
