// SPDX-License-Identifier: GPL-2.0
/* Structural diff of two snapshots, printed for people or as JSON. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff.h"
#include "snapshotter/text.h"

/* A growable string, NUL-terminated. */
struct buf {
	char *s;
	size_t len, alloc;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->alloc) {
		b->alloc = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->alloc);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

int diff_cp_unsafe(uint32_t cp)
{
	return (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || cp == 0x200e ||
		cp == 0x200f ||
		(cp >= 0x2028 && cp <= 0x202e) ||
		(cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

static void buf_escaped(struct buf *b, const char *str, size_t len,
			const char *quote)
{
	const unsigned char *s = (const unsigned char *)str;
	char esc[16];
	size_t i = 0;

	while (i < len) {
		uint32_t cp = 0;
		size_t n = s[i] >= 0x80 ? utf8_next(str + i, len - i, &cp) : 0;

		if (s[i] == '\n' || s[i] == '\t' || s[i] == '\r' ||
		    s[i] == '\\' || (*quote && s[i] == *quote)) {
			esc[0] = '\\';
			esc[1] = s[i] == '\n' ? 'n' : s[i] == '\t' ? 't' :
				s[i] == '\r' ? 'r' : (char)s[i];
			buf_add(b, esc, 2);
			i++;
		} else if (s[i] >= 0x20 && s[i] < 0x7f) {
			buf_add(b, str + i, 1);
			i++;
		} else if (n) {
			if (diff_cp_unsafe(cp))
				buf_add(b, esc, snprintf(esc, sizeof(esc),
							 "\\u%04x",
							 (unsigned int)cp));
			else
				buf_add(b, str + i, n);
			i += n;
		} else {
			buf_add(b, esc, snprintf(esc, sizeof(esc), "\\x%02x",
						 s[i]));
			i++;
		}
	}
}

char *diff_quote(const char *s, size_t len)
{
	struct buf b = { 0 };

	buf_str(&b, "\"");
	buf_escaped(&b, s, len, "\"");
	buf_str(&b, "\"");
	return b.s;
}

char *diff_text_clean(const char *s, size_t n, const char *special)
{
	char *out = xmalloc(6 * n + 1), *o = out;
	size_t i, k;
	uint32_t cp;

	for (i = 0; i < n; i++) {
		unsigned char ch = (unsigned char)s[i];

		if ((ch < 0x20 && ch != '\t') || ch == 0x7f) {
			o += sprintf(o, "\\x%02x", ch);
		} else if (ch < 0x80 && strchr(special, ch)) {
			*o++ = '\\';
			*o++ = (char)ch;
		} else if (ch < 0x80) {
			*o++ = (char)ch;
		} else if (!(k = utf8_next(s + i, n - i, &cp))) {
			o += sprintf(o, "\\x%02x", ch);
		} else if (diff_cp_unsafe(cp)) {
			o += sprintf(o, "\\u%04x", (unsigned int)cp);
			i += k - 1;
		} else {
			memcpy(o, s + i, k);
			o += k;
			i += k - 1;
		}
	}
	*o = '\0';
	return out;
}

/*
 * The display of the content in @obj: "value" or "base64" quoted, "error"
 * (@err_key) bare, "<redacted>"; NULL if none of them.
 */
static char *content_show(json_t *obj, const char *text_key,
			  const char *b64_key, const char *err_key)
{
	json_t *v;
	char *s, *out;
	size_t len;

	if (json_is_true(json_object_get(obj, "redacted")))
		return xstrdup("<redacted>");
	v = json_object_get(obj, err_key);
	if (v)
		return xstrdup(json_string_value(v));
	v = json_object_get(obj, text_key);
	if (v) {
		out = diff_quote(json_string_value(v), json_string_length(v));
	} else {
		v = json_object_get(obj, b64_key);
		if (!v)
			return NULL;
		/* snap_check() refused what is not canonical base64 */
		s = xmalloc(json_string_length(v) / 4 * 3 + 1);
		len = base64_decode(s, json_string_value(v),
				    json_string_length(v));
		out = diff_quote(s, len);
		free(s);
	}
	if (json_is_true(json_object_get(obj, "truncated"))) {
		s = xstrfmt("%s (truncated)", out);
		free(out);
		out = s;
	}
	return out;
}

static const char *node_type(json_t *node)
{
	const char *t = json_string_value(json_object_get(node, "type"));

	return t ? t : "error";
}

static const char *node_mode(json_t *node)
{
	return json_string_value(json_object_get(node, "mode"));
}

static const char *node_error(json_t *node)
{
	return json_string_value(json_object_get(node, "error"));
}

/*
 * What stopped a dir's listing (malloc'd): its error, "(truncated)" where
 * the snapshotter's depth limit left it unlisted, or NULL.
 */
static char *dir_stop(json_t *node)
{
	if (node_error(node))
		return xstrdup(node_error(node));
	if (json_is_true(json_object_get(node, "truncated")))
		return xstrdup("(truncated)");
	return NULL;
}

/* One line on a node: `file 0644 "1\n"`, `dir 0755`, `ENOENT`. */
static char *node_summary(json_t *node)
{
	const char *type = node_type(node), *err = node_error(node);
	char *what = NULL, *s;

	if (!strcmp(type, "error"))
		return xstrdup(err);
	if (!strcmp(type, "file"))
		what = content_show(node, "value", "base64", "error");
	else if (!strcmp(type, "link"))
		what = content_show(node, "target", "target_base64", "error");
	else
		what = dir_stop(node);
	s = xstrfmt("%s %s%s%s%s", type, node_mode(node),
		    what ? " " : "",
		    !strcmp(type, "link") && !err ? "-> " : "",
		    what ? what : "");
	free(what);
	return s;
}

/* Takes @old and @new (malloc'd or NULL). */
static void change_add(struct diff *d, enum diff_kind kind, const char *path,
		       char *old, char *new)
{
	if (d->n == d->alloc) {
		d->alloc = d->alloc ? 2 * d->alloc : 16;
		d->v = xrealloc(d->v, d->alloc * sizeof(*d->v));
	}
	d->v[d->n++] = (struct diff_change){
		.kind = kind, .path = xstrdup(path), .old = old, .new = new,
	};
}

/* Adds a change when two optional strings differ; takes both. */
static void change_if(struct diff *d, enum diff_kind kind, const char *path,
		      char *old, char *new)
{
	if (old && new ? strcmp(old, new) : old != new) {
		change_add(d, kind, path, old, new);
		return;
	}
	free(old);
	free(new);
}

static char *xstrdup_or_null(const char *s)
{
	return s ? xstrdup(s) : NULL;
}

static int key_cmp(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The keys of @obj (may be NULL) sorted bytewise; borrowed from @obj. */
static const char **keys_sorted(json_t *obj, size_t *n)
{
	const char **keys = xmalloc((json_object_size(obj) + 1) *
				    sizeof(*keys));
	const char *key;
	json_t *v;

	*n = 0;
	json_object_foreach(obj, key, v)
		keys[(*n)++] = key;
	qsort(keys, *n, sizeof(*keys), key_cmp);
	return keys;
}

/* @parent/@name; a followed link's node "x/" holds "x/name". */
static char *path_join(const char *parent, const char *name)
{
	size_t n = strlen(parent);

	if (n && parent[n - 1] == '/')
		return xstrfmt("%s%s", parent, name);
	return xstrfmt("%s/%s", parent, name);
}

static void children_emit(struct diff *d, enum diff_kind kind,
			  const char *path, json_t *node);

/* @node and everything below it as added or removed. */
static void node_emit(struct diff *d, enum diff_kind kind, const char *path,
		      json_t *node)
{
	char *s = node_summary(node);

	change_add(d, kind, path, kind == DIFF_REMOVED ? s : NULL,
		   kind == DIFF_ADDED ? s : NULL);
	children_emit(d, kind, path, node);
}

static void children_emit(struct diff *d, enum diff_kind kind,
			  const char *path, json_t *node)
{
	json_t *entries = json_object_get(node, "entries");
	json_t *follow = json_object_get(node, "follow");
	const char **keys;
	size_t n, i;

	if (follow) {
		char *sub = xstrfmt("%s/", path);

		node_emit(d, kind, sub, follow);
		free(sub);
	}
	if (!entries)
		return;
	keys = keys_sorted(entries, &n);
	for (i = 0; i < n; i++) {
		char *sub = path_join(path, keys[i]);

		node_emit(d, kind, sub, json_object_get(entries, keys[i]));
		free(sub);
	}
	free(keys);
}

static void node_diff(struct diff *d, const char *path, json_t *a,
		      json_t *b);

/* Merges two objects' sorted keys: removed, added, or compared. */
static void entries_diff(struct diff *d, const char *path, json_t *ea,
			 json_t *eb, int is_roots)
{
	size_t na, nb, i = 0, j = 0;
	const char **ka = keys_sorted(ea, &na), **kb = keys_sorted(eb, &nb);

	while (i < na || j < nb) {
		int c = i == na ? 1 : j == nb ? -1 : strcmp(ka[i], kb[j]);
		const char *name = c <= 0 ? ka[i] : kb[j];
		char *sub = is_roots ? xstrdup(name) : path_join(path, name);

		if (c < 0)
			node_emit(d, DIFF_REMOVED, sub,
				  json_object_get(ea, ka[i++]));
		else if (c > 0)
			node_emit(d, DIFF_ADDED, sub,
				  json_object_get(eb, kb[j++]));
		else
			node_diff(d, sub, json_object_get(ea, ka[i++]),
				  json_object_get(eb, kb[j++]));
		free(sub);
	}
	free(ka);
	free(kb);
}

static void file_diff(struct diff *d, const char *path, json_t *a,
		      json_t *b)
{
	char *ca = content_show(a, "value", "base64", "error");
	char *cb = content_show(b, "value", "base64", "error");
	int err = node_error(a) || node_error(b);

	change_if(d, err ? DIFF_ERROR : DIFF_VALUE, path, ca, cb);
}

static void link_diff(struct diff *d, const char *path, json_t *a,
		      json_t *b)
{
	json_t *fa = json_object_get(a, "follow");
	json_t *fb = json_object_get(b, "follow");
	char *sub;

	change_if(d, node_error(a) || node_error(b) ? DIFF_ERROR : DIFF_TARGET,
		  path, content_show(a, "target", "target_base64", "error"),
		  content_show(b, "target", "target_base64", "error"));
	if (!fa && !fb)
		return;
	sub = xstrfmt("%s/", path);
	if (fa && fb)
		node_diff(d, sub, fa, fb);
	else
		node_emit(d, fa ? DIFF_REMOVED : DIFF_ADDED, sub,
			  fa ? fa : fb);
	free(sub);
}

static void node_diff(struct diff *d, const char *path, json_t *a,
		      json_t *b)
{
	const char *type = node_type(a);

	if (strcmp(type, node_type(b))) {
		change_add(d, DIFF_TYPE, path, node_summary(a),
			   node_summary(b));
		children_emit(d, DIFF_REMOVED, path, a);
		children_emit(d, DIFF_ADDED, path, b);
		return;
	}
	if (!strcmp(type, "error")) {
		change_if(d, DIFF_ERROR, path, xstrdup(node_error(a)),
			  xstrdup(node_error(b)));
		return;
	}
	change_if(d, DIFF_MODE, path, xstrdup(node_mode(a)),
		  xstrdup(node_mode(b)));
	if (!strcmp(type, "file")) {
		file_diff(d, path, a, b);
	} else if (!strcmp(type, "link")) {
		link_diff(d, path, a, b);
	} else if (!strcmp(type, "dir")) {
		change_if(d, DIFF_ERROR, path, dir_stop(a), dir_stop(b));
		entries_diff(d, path, json_object_get(a, "entries"),
			     json_object_get(b, "entries"), 0);
	}
}

/* A probe field, a sysfs flag: JSON scalars for display. */
static char *scalar_show(json_t *v)
{
	if (!v)
		return NULL;
	if (json_is_string(v))
		return diff_quote(json_string_value(v), json_string_length(v));
	if (json_is_integer(v))
		return xstrfmt("%" JSON_INTEGER_FORMAT, json_integer_value(v));
	return xstrdup(json_is_true(v) ? "true" :
		       json_is_false(v) ? "false" : "null");
}

/* op="write" path="..." value="0" result="EINVAL": op first. */
static char *probe_summary(json_t *rec)
{
	struct buf b = { 0 };
	const char **keys;
	size_t n, i;
	char *s;

	s = scalar_show(json_object_get(rec, "op"));
	buf_str(&b, "op=");
	buf_str(&b, s);
	free(s);
	keys = keys_sorted(rec, &n);
	for (i = 0; i < n; i++) {
		if (!strcmp(keys[i], "op"))
			continue;
		s = scalar_show(json_object_get(rec, keys[i]));
		buf_str(&b, " ");
		buf_str(&b, keys[i]);
		buf_str(&b, "=");
		buf_str(&b, s);
		free(s);
	}
	free(keys);
	return b.s;
}

/* A probe's operands by op, in the order of its line (FORMAT.md). */
static const struct {
	const char *op;
	const char *args[2];
} probe_lines[] = {
	{ "write", { "path", "value" } },
	{ "read", { "path" } },
	{ "export", { "label", "offset" } },
	{ "wait", { "path", "expect" } },
	{ "mount", { "fstype", "path" } },
};

/* "write /sys/class/leds/x/brightness 255": the probe file's line. */
static char *probe_subject(json_t *rec)
{
	const char *op = json_string_value(json_object_get(rec, "op"));
	char *line = xstrdup(op ? op : "?");

	for (size_t i = 0; op && i < ARRAY_SIZE(probe_lines); i++) {
		if (strcmp(op, probe_lines[i].op))
			continue;
		for (size_t k = 0; k < 2 && probe_lines[i].args[k]; k++) {
			json_t *v = json_object_get(rec,
						    probe_lines[i].args[k]);
			char *longer = json_is_integer(v) ?
				xstrfmt("%s %" JSON_INTEGER_FORMAT, line,
					json_integer_value(v)) :
				xstrfmt("%s %s", line,
					json_is_string(v) ?
					json_string_value(v) : "?");

			free(line);
			line = longer;
		}
	}
	return line;
}

static void probes_diff(struct diff *d, json_t *pa, json_t *pb)
{
	size_t na = json_array_size(pa), nb = json_array_size(pb), i, k;

	for (i = 0; i < na || i < nb; i++) {
		json_t *ra = json_array_get(pa, i), *rb = json_array_get(pb, i);
		char *path = xstrfmt("probes[%zu]", i);
		const char **ka, **kb;
		size_t nka, nkb, j = 0, first;

		if (!ra || !rb) {
			change_add(d, ra ? DIFF_REMOVED : DIFF_ADDED, path,
				   ra ? probe_summary(ra) : NULL,
				   rb ? probe_summary(rb) : NULL);
			d->v[d->n - 1].subject = probe_subject(ra ? ra : rb);
			free(path);
			continue;
		}
		ka = keys_sorted(ra, &nka);
		kb = keys_sorted(rb, &nkb);
		first = d->n;
		for (k = 0; k < nka || j < nkb;) {
			int c = k == nka ? 1 : j == nkb ? -1 :
				strcmp(ka[k], kb[j]);
			json_t *va = c <= 0 ? json_object_get(ra, ka[k]) : NULL;
			json_t *vb = c >= 0 ? json_object_get(rb, kb[j]) : NULL;
			char *sub = xstrfmt("%s.%s", path,
					    c <= 0 ? ka[k] : kb[j]);

			change_if(d, DIFF_PROBE, sub, scalar_show(va),
				  scalar_show(vb));
			k += c <= 0;
			j += c >= 0;
			free(sub);
		}
		for (; first < d->n; first++)
			d->v[first].subject = probe_subject(rb);
		free(ka);
		free(kb);
		free(path);
	}
}

/*
 * More changed lines than this are one change, "N lines -> M lines": a
 * longer list helps nobody, and finding it costs time and memory (below).
 */
#define LINES_DIFF_MAX 1000

/* A line of one side, for numbering: equal lines get equal numbers. */
struct line_ref {
	const char *s;
	size_t len;
	size_t *id;
};

static int line_ref_cmp(const void *a, const void *b)
{
	const struct line_ref *x = a, *y = b;

	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return memcmp(x->s, y->s, x->len);
}

/*
 * The lines of @ka then of @kb as numbers, equal where the lines are, so
 * that the search compares numbers: ids[0..na) and ids[na..na + nb).
 */
static size_t *lines_number(json_t *ka, size_t na, json_t *kb, size_t nb)
{
	struct line_ref *refs = xmalloc((na + nb + 1) * sizeof(*refs));
	size_t *ids = xmalloc((na + nb + 1) * sizeof(*ids));
	size_t i, id = 0;

	for (i = 0; i < na + nb; i++) {
		json_t *line = i < na ? json_array_get(ka, i) :
			json_array_get(kb, i - na);

		refs[i] = (struct line_ref){
			.s = json_string_value(line),
			.len = json_string_length(line),
			.id = &ids[i],
		};
	}
	qsort(refs, na + nb, sizeof(*refs), line_ref_cmp);
	for (i = 0; i < na + nb; i++) {
		if (i && line_ref_cmp(&refs[i - 1], &refs[i]))
			id++;
		*refs[i].id = id;
	}
	free(refs);
	return ids;
}

/*
 * Myers' O(ND) search, run from the ends of the logs towards their starts
 * so that it answers what the walk forward asks: how many changes the
 * lines after a point need. x counts lines of A taken from its end, y of
 * B, on diagonal k = x - y. Round d holds, for each k in -d..d of d's
 * parity, the largest x on k that d changes reach (-1: none); every point
 * of k before it needs at most d changes too. Rounds are kept, d + 1
 * slots each, so the cost is (N + M) * D time and D * D / 2 slots.
 */
struct lines_search {
	const size_t *a, *b;	/* line numbers, from the start */
	size_t na, nb;
	ptrdiff_t *v;
};

static ptrdiff_t *search_slot(const struct lines_search *s, ptrdiff_t d,
			      ptrdiff_t k)
{
	return &s->v[d * (d + 1) / 2 + (k + d) / 2];
}

/* Line x of A from its end equals line y of B from its end. */
static int search_eq(const struct lines_search *s, ptrdiff_t x, ptrdiff_t y)
{
	return s->a[s->na - 1 - x] == s->b[s->nb - 1 - y];
}


/* Round @d from round d - 1; 1 when it reaches both starts. */
static int search_round(struct lines_search *s, ptrdiff_t d)
{
	ptrdiff_t n = s->na, m = s->nb, k;

	for (k = -d; k <= d; k += 2) {
		ptrdiff_t x = -1, del, y;

		if (k < -m || k > n) {
			*search_slot(s, d, k) = -1;
			continue;
		}
		if (!d)
			x = 0;
		/* one more line of B, or of A; at the edge, the last point */
		if (k < d && *search_slot(s, d - 1, k + 1) >= 0)
			x = *search_slot(s, d - 1, k + 1) < m + k ?
				*search_slot(s, d - 1, k + 1) : m + k;
		if (k > -d && *search_slot(s, d - 1, k - 1) >= 0) {
			del = *search_slot(s, d - 1, k - 1) + 1;
			del = del < n ? del : n;
			x = del > x ? del : x;
		}
		y = x - k;
		while (x >= 0 && x < n && y < m && search_eq(s, x, y)) {
			x++;
			y++;
		}
		*search_slot(s, d, k) = x;
		if (x == n && y == m)
			return 1;
	}
	return 0;
}

/*
 * At line @i of A and @j of B, @dist changes from the end, A's line
 * differing from B's: is removing it as good as adding B's? It is when
 * the rest after it needs dist - 1 changes (else it needs dist + 1).
 */
static int search_removes(const struct lines_search *s, ptrdiff_t dist,
			  size_t i, size_t j)
{
	ptrdiff_t x = s->na - i - 1, k = x - (ptrdiff_t)(s->nb - j);

	if (j == s->nb)
		return 1;
	if (i == s->na || k < 1 - dist || k > dist - 1)
		return 0;
	return *search_slot(s, dist - 1, k) >= x;
}

static char *lines_count(size_t n)
{
	return xstrfmt("%zu line%s", n, n == 1 ? "" : "s");
}

/*
 * Lines of @ka not in @kb are removed, and the other way round, along a
 * longest common subsequence: equal lines are taken as they come, and of
 * two ways that change as few lines, the one that removes first. More
 * than LINES_DIFF_MAX changes are summed up in one change instead.
 */
static void lines_diff(struct diff *d, const char *what, json_t *ka,
		       json_t *kb)
{
	size_t na = json_array_size(ka), nb = json_array_size(kb), i, j;
	size_t *ids = lines_number(ka, na, kb, nb);
	size_t most = na + nb < LINES_DIFF_MAX ? na + nb : LINES_DIFF_MAX;
	struct lines_search s = {
		.a = ids, .b = ids + na, .na = na, .nb = nb,
		.v = xmalloc((most + 1) * (most + 2) / 2 * sizeof(*s.v)),
	};
	ptrdiff_t dist = 0;
	char *path, *count;

	while (dist <= (ptrdiff_t)most && !search_round(&s, dist))
		dist++;
	if (dist > (ptrdiff_t)most) {
		for (i = 0; i < na && i < nb && s.a[i] == s.b[i]; i++)
			;
		count = lines_count(nb);
		change_add(d, DIFF_VALUE, what, lines_count(na),
			   xstrfmt("%s (over %d changed from %s[%zu] on, %s)",
				   count, LINES_DIFF_MAX, what, i,
				   "not listed"));
		free(count);
		goto out_free;
	}
	for (i = 0, j = 0; i < na || j < nb;) {
		if (i < na && j < nb && s.a[i] == s.b[j]) {
			i++;
			j++;
			continue;
		}
		if (search_removes(&s, dist, i, j)) {
			path = xstrfmt("%s[%zu]", what, i);
			change_add(d, DIFF_REMOVED, path,
				   scalar_show(json_array_get(ka, i++)), NULL);
		} else {
			path = xstrfmt("%s[%zu]", what, j);
			change_add(d, DIFF_ADDED, path, NULL,
				   scalar_show(json_array_get(kb, j++)));
		}
		free(path);
		dist--;
	}
out_free:
	free(s.v);
	free(ids);
}

static void kmsg_diff(struct diff *d, json_t *ka, json_t *kb)
{
	json_t *empty = json_array();

	change_if(d, DIFF_ERROR, "kmsg", xstrdup_or_null(node_error(ka)),
		  xstrdup_or_null(node_error(kb)));
	lines_diff(d, "kmsg", json_is_array(ka) ? ka : empty,
		   json_is_array(kb) ? kb : empty);
	json_decref(empty);
}

void diff_snapshots(struct diff *d, json_t *a, json_t *b)
{
	json_t *sa = json_object_get(a, "sysfs");
	json_t *sb = json_object_get(b, "sysfs");

	change_if(d, DIFF_SYSFS, "sysfs.mounted",
		  scalar_show(json_object_get(sa, "mounted")),
		  scalar_show(json_object_get(sb, "mounted")));
	change_if(d, DIFF_SYSFS, "sysfs.error",
		  xstrdup_or_null(node_error(sa)),
		  xstrdup_or_null(node_error(sb)));
	entries_diff(d, "", json_object_get(a, "roots"),
		     json_object_get(b, "roots"), 1);
	probes_diff(d, json_object_get(a, "probes"),
		    json_object_get(b, "probes"));
	kmsg_diff(d, json_object_get(a, "kmsg"), json_object_get(b, "kmsg"));
}

void diff_release(struct diff *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->n; i++) {
		free(d->v[i].path);
		free(d->v[i].old);
		free(d->v[i].new);
		free(d->v[i].allowed);
		free(d->v[i].subject);
		diff_release(d->v[i].members);
		free(d->v[i].members);
	}
	free(d->v);
	*d = (struct diff)DIFF_INIT;
}

static const char *const kind_names[DIFF_NR] = {
	[DIFF_ADDED] = "added",
	[DIFF_REMOVED] = "removed",
	[DIFF_TYPE] = "type",
	[DIFF_MODE] = "mode",
	[DIFF_VALUE] = "value",
	[DIFF_ERROR] = "error",
	[DIFF_TARGET] = "target",
	[DIFF_PROBE] = "probe",
	[DIFF_SYSFS] = "sysfs",
	[DIFF_RENAMED] = "renamed",
};

const char *diff_kind_name(enum diff_kind k)
{
	return k < DIFF_NR ? kind_names[k] : "?";
}

static const char *const class_names[DIFF_CLASS_NR] = {
	[DIFF_CLASS_REMOVED] = "removed",
	[DIFF_CLASS_CHANGED] = "changed",
	[DIFF_CLASS_ADDED] = "added",
};

enum diff_class diff_class_of(enum diff_kind k)
{
	return k == DIFF_ADDED ? DIFF_CLASS_ADDED :
	       k == DIFF_REMOVED ? DIFF_CLASS_REMOVED : DIFF_CLASS_CHANGED;
}

const char *diff_class_name(enum diff_class c)
{
	return c < DIFF_CLASS_NR ? class_names[c] : "?";
}

static const char *const abi_names[DIFF_ABI_NR] = {
	[DIFF_ABI_STABLE] = "stable",
	[DIFF_ABI_TESTING] = "testing",
	[DIFF_ABI_OBSOLETE] = "obsolete",
	[DIFF_ABI_REMOVED] = "removed",
	[DIFF_ABI_UNDOCUMENTED] = "undocumented",
};

const char *diff_abi_name(enum diff_abi a)
{
	return a < DIFF_ABI_NR ? abi_names[a] : NULL;
}

void diff_allow(struct diff_change *c, const char *reason)
{
	if (!c->allowed)
		c->allowed = xstrdup(reason);
}

int diff_in_roots(const char *path)
{
	return strcmp(path, "kmsg") && strncmp(path, "kmsg[", 5) &&
	       strncmp(path, "probes[", 7) && strncmp(path, "sysfs.", 6);
}

static int str_cmp_null(const char *a, const char *b)
{
	return a && b ? strcmp(a, b) : (a != NULL) - (b != NULL);
}

int diff_cmp(const struct diff *a, const struct diff *b)
{
	size_t na = a ? a->n : 0, nb = b ? b->n : 0;

	for (size_t i = 0; i < na && i < nb; i++) {
		const struct diff_change *x = &a->v[i], *y = &b->v[i];
		int r;

		if (x->kind != y->kind)
			return x->kind < y->kind ? -1 : 1;
		if ((r = strcmp(x->path, y->path)) ||
		    (r = str_cmp_null(x->old, y->old)) ||
		    (r = str_cmp_null(x->new, y->new)) ||
		    (r = str_cmp_null(x->subject, y->subject)) ||
		    (r = str_cmp_null(x->allowed, y->allowed)) ||
		    (r = diff_cmp(x->members, y->members)))
			return r;
	}
	return na == nb ? 0 : na < nb ? -1 : 1;
}

size_t diff_count(const struct diff *d)
{
	size_t n = 0;

	for (size_t i = 0; i < d->n; i++)
		n += d->v[i].members ? diff_count(d->v[i].members) :
		     !d->v[i].allowed;
	return n;
}

char *diff_summary(const struct diff *d)
{
	size_t count[2][DIFF_CLASS_NR] = { { 0 } };
	struct buf b = { 0 };

	for (size_t i = 0; i < d->n; i++)
		count[!!d->v[i].allowed][diff_class_of(d->v[i].kind)]++;
	for (int allowed = 0; allowed < 2; allowed++)
		for (int c = 0; c < DIFF_CLASS_NR; c++) {
			char *part;

			if (!count[allowed][c])
				continue;
			part = xstrfmt("%s%zu %s%s", b.s ? ", " : "",
				       count[allowed][c], class_names[c],
				       allowed ? " (allowed)" : "");
			buf_str(&b, part);
			free(part);
		}
	return b.s ? b.s : xstrdup("no change");
}

char *diff_change_format(const struct diff_change *c, int color)
{
	struct buf b = { 0 };
	const char *sgr = c->kind == DIFF_ADDED ? "\033[32m" :
		c->kind == DIFF_REMOVED ? "\033[31m" : "\033[33m";

	if (color)
		buf_str(&b, sgr);
	buf_str(&b, c->kind == DIFF_ADDED ? "+ " :
		c->kind == DIFF_REMOVED ? "- " : "~ ");
	buf_escaped(&b, c->path, strlen(c->path), "");
	if (c->kind == DIFF_RENAMED) {
		char *detail = diff_renamed_detail(c);

		buf_str(&b, " -> ");
		buf_escaped(&b, c->new, strlen(c->new), "");
		buf_str(&b, ": renamed (");
		buf_escaped(&b, detail, strlen(detail), "");
		buf_str(&b, ")");
		free(detail);
		goto out;
	}
	if (c->subject) {
		buf_str(&b, " (");
		buf_escaped(&b, c->subject, strlen(c->subject), "");
		buf_str(&b, ")");
	}
	buf_str(&b, ": ");
	if (c->kind == DIFF_ADDED || c->kind == DIFF_REMOVED) {
		buf_str(&b, c->kind == DIFF_ADDED ? c->new : c->old);
	} else {
		buf_str(&b, diff_kind_name(c->kind));
		buf_str(&b, " ");
		buf_str(&b, c->old ? c->old : "(none)");
		buf_str(&b, " -> ");
		buf_str(&b, c->new ? c->new : "(none)");
	}
	if (diff_abi_name(c->abi)) {
		buf_str(&b, " [");
		buf_str(&b, diff_abi_name(c->abi));
		buf_str(&b, "]");
	}
	if (c->allowed) {
		buf_str(&b, " (allowed: ");
		buf_escaped(&b, c->allowed, strlen(c->allowed), "");
		buf_str(&b, ")");
	}
out:
	if (color)
		buf_str(&b, "\033[m");
	return b.s;
}

void diff_print(FILE *out, const struct diff *d, const char *prefix,
		int color)
{
	for (size_t i = 0; i < d->n; i++) {
		char *line = diff_change_format(&d->v[i], color);

		fprintf(out, "%s%s\n", prefix, line);
		free(line);
	}
}

static json_t *string_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

json_t *diff_to_json(const struct diff *d)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < d->n; i++) {
		const struct diff_change *c = &d->v[i];

		json_t *e = json_pack("{s:s, s:s, s:s, s:o, s:o}",
			"kind", diff_kind_name(c->kind),
			"class", diff_class_name(diff_class_of(c->kind)),
			"path", c->path,
			"old", string_or_null(c->old),
			"new", string_or_null(c->new));

		if (c->allowed)
			json_object_set_new(e, "allowed",
					    json_string(c->allowed));
		if (c->subject)
			json_object_set_new(e, "subject",
					    json_string(c->subject));
		if (diff_abi_name(c->abi))
			json_object_set_new(e, "abi_status",
					    json_string(diff_abi_name(c->abi)));
		if (c->members)
			json_object_set_new(e, "entries",
					    diff_to_json(c->members));
		json_array_append_new(arr, e);
	}
	return arr;
}

/* Is @path @top itself, or below it ("P/x"; "P" or "P/" for "P/")? */
static int path_within(const char *path, const char *top)
{
	size_t n = strlen(top);

	n -= n && top[n - 1] == '/';
	return !strncmp(path, top, n) && (path[n] == '\0' || path[n] == '/');
}

/*
 * The entries of fold @c as diff_fold() makes them: each allowed when
 * it is, a subtree's each of its kind and within it, a rename's removed ones within its old
 * directory (diff_renamed_detail() names them relative to it).
 * Return: the index of the first that is not, or -1.
 */
static long fold_stray(const struct diff_change *c)
{
	const struct diff *m = c->members;

	for (size_t k = 0; k < m->n; k++) {
		const struct diff_change *x = &m->v[k];

		if (c->allowed && !x->allowed)
			return (long)k;
		if (c->kind == DIFF_RENAMED ?
		    x->kind == DIFF_REMOVED && !path_within(x->path, c->path) :
		    x->kind != c->kind || !path_within(x->path, c->path))
			return (long)k;
	}
	return -1;
}

/* diff_from_json(), for the changes of a fold too (@depth 1). */
static int changes_from_json(struct diff *d, json_t *arr, const char *what,
			     int depth, struct sf_err *err)
{
	json_t *c;
	size_t i;

	if (!json_is_array(arr))
		return err_set(err, "%s: must be an array", what);
	json_array_foreach(arr, i, c) {
		const char *kind, *path, *class = NULL;
		json_t *old = NULL, *new = NULL, *allowed = NULL;
		json_t *entries = NULL;
		const char *subject = NULL, *status = NULL;
		struct diff *members = NULL;
		json_error_t jerr;
		int k, a = DIFF_ABI_UNKNOWN;
		long stray;

		if (json_unpack_ex(c, &jerr, JSON_STRICT,
				   "{s:s, s?s, s:s, s?o, s?o, s?o, s?s, s?s, s?o}",
				   "kind", &kind, "class", &class, "path", &path,
				   "old", &old, "new", &new, "allowed", &allowed,
				   "subject", &subject, "abi_status", &status,
				   "entries", &entries))
			return err_set(err, "%s[%zu]: %s", what, i, jerr.text);
		for (a = DIFF_ABI_STABLE; status && a < DIFF_ABI_NR &&
		     strcmp(status, abi_names[a]); a++)
			;
		if (a == DIFF_ABI_NR)
			return err_set(err, "%s[%zu]: unknown abi_status '%s' (stable, testing, obsolete, removed, undocumented)",
				       what, i, status);
		if ((old && !json_is_string(old) && !json_is_null(old)) ||
		    (new && !json_is_string(new) && !json_is_null(new)) ||
		    (allowed && !json_is_string(allowed) &&
		     !json_is_null(allowed)))
			return err_set(err, "%s[%zu]: %s", what, i,
				       "old, new and allowed must be strings or null");
		for (k = 0; k < DIFF_NR && strcmp(kind, kind_names[k]); k++)
			;
		if (k == DIFF_NR)
			return err_set(err, "%s[%zu]: unknown kind '%s'", what,
				       i, kind);
		/* diff_change_format() prints the side that has the node */
		if ((k == DIFF_ADDED && !json_is_string(new)) ||
		    (k == DIFF_REMOVED && !json_is_string(old)) ||
		    (k == DIFF_RENAMED &&
		     (!json_is_string(old) || !json_is_string(new))))
			return err_set(err, "%s[%zu]: '%s' entry has no '%s'",
				       what, i, kind,
				       k == DIFF_ADDED || json_is_string(old) ?
				       "new" : "old");
		if (class && strcmp(class, diff_class_name(diff_class_of(k))))
			return err_set(err, "%s[%zu]: a change of kind '%s' is class '%s', not '%s'",
				       what, i, kind,
				       diff_class_name(diff_class_of(k)), class);
		/*
		 * a status rule may allow a removal or a change; a fold is
		 * allowed when all it stands for is (fold_stray())
		 */
		if (json_is_string(allowed) && k != DIFF_ADDED && !status &&
		    !entries)
			return err_set(err, "%s[%zu]: only an addition can be allowed, not a '%s' change",
				       what, i, kind);
		/* a fold's members are changes, each shown as it is */
		if (entries && (depth || (k != DIFF_ADDED &&
					  k != DIFF_REMOVED &&
					  k != DIFF_RENAMED)))
			return err_set(err, "%s[%zu]: a '%s' change%s cannot have 'entries'",
				       what, i, kind,
				       depth ? " in a fold" : "");
		if (k == DIFF_RENAMED && !entries)
			return err_set(err, "%s[%zu]: a 'renamed' change must have 'entries'",
				       what, i);
		if (entries) {
			char *sub = xstrfmt("%s[%zu].entries", what, i);
			int ret;

			members = xmalloc(sizeof(*members));
			*members = (struct diff)DIFF_INIT;
			ret = changes_from_json(members, entries, sub, 1, err);
			free(sub);
			if (ret) {
				diff_release(members);
				free(members);
				return ret;
			}
		}
		change_add(d, (enum diff_kind)k, path,
			   xstrdup_or_null(json_string_value(old)),
			   xstrdup_or_null(json_string_value(new)));
		if (json_is_string(allowed))
			diff_allow(&d->v[d->n - 1], json_string_value(allowed));
		d->v[d->n - 1].subject = xstrdup_or_null(subject);
		d->v[d->n - 1].members = members;
		if (members && !members->n)
			return err_set(err, "%s[%zu].entries: a fold stands for at least one change",
				       what, i);
		if (members && (stray = fold_stray(&d->v[d->n - 1])) >= 0)
			return err_set(err, "%s[%zu].entries[%ld]: not a change the fold stands for (its kind, within its path, allowed if it is)",
				       what, i, stray);
		d->v[d->n - 1].abi = status ? (enum diff_abi)a :
					      DIFF_ABI_UNKNOWN;
	}
	return 0;
}

int diff_from_json(struct diff *d, json_t *arr, const char *what,
		   struct sf_err *err)
{
	return changes_from_json(d, arr, what, 0, err);
}
