// SPDX-License-Identifier: GPL-2.0
/* Loads one YAML document from a file; messages carry FILE:LINE:COL. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/yamlfile.h"

/* A message at @mark (FILE:LINE:COL) into @yf->err. Return: INPUT_EBAD. */
static int bad_vmark(struct yaml_file *yf, const yaml_mark_t *mark,
		     const char *fmt, va_list ap)
{
	char what[512];

	vsnprintf(what, sizeof(what), fmt, ap);
	err_at(yf->err, ERR_INPUT, yf->path, (int)mark->line + 1,
	       (int)mark->column + 1, "%s", what);
	return INPUT_EBAD;
}

static int bad_mark(struct yaml_file *yf, const yaml_mark_t *mark,
		    const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad_mark(struct yaml_file *yf, const yaml_mark_t *mark,
		    const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bad_vmark(yf, mark, fmt, ap);
	va_end(ap);
	return ret;
}

int yaml_file_bad(struct yaml_file *yf, const yaml_node_t *n,
		  const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = bad_vmark(yf, &n->start_mark, fmt, ap);
	va_end(ap);
	return ret;
}

/*
 * "problem context" at FILE:LINE:COL for what libyaml could not parse. Its
 * reader (bad UTF-8, control characters) gives no mark, only a byte
 * offset: the position is counted from the text.
 */
static int parse_error(struct yaml_file *yf, const yaml_parser_t *parser,
		       const char *text, size_t len)
{
	yaml_mark_t mark = parser->problem_mark;

	if (parser->error == YAML_READER_ERROR) {
		size_t off = parser->problem_offset < len ?
			     parser->problem_offset : len;

		mark.line = mark.column = 0;
		for (size_t i = 0; i < off; i++) {
			if (text[i] == '\n') {
				mark.line++;
				mark.column = 0;
			} else if (((unsigned char)text[i] & 0xc0) != 0x80) {
				mark.column++;
			}
		}
	}
	return bad_mark(yf, &mark, "%s%s%s",
			parser->problem ? parser->problem : "cannot parse",
			parser->context ? " " : "",
			parser->context ? parser->context : "");
}

/*
 * No file of ours nests deeper than a few levels or needs thousands of
 * keys in one mapping; bounding both keeps a hostile file from costing
 * deep recursion in the walkers or quadratic lookups in the loaders.
 * An alias stands for a copy of its anchor's node (the loaders copy what
 * they read), so the nodes and the text are counted with every alias
 * expanded: a "billion laughs" of a few lines is refused like the file
 * it spells out. A few anchors serve any file of ours; bounding them
 * bounds the lookups of each alias (here, and libyaml's loader).
 */
#define YAML_DEPTH_MAX 32
#define YAML_KEYS_MAX 4096
#define YAML_NODES_MAX 200000
#define YAML_ANCHORS_MAX 256

/* What a node (and so an alias of it) expands to. */
struct yaml_size {
	size_t nodes, bytes;
};

/* An anchor, and what its node expands to once that node has ended. */
struct yaml_anchor {
	char *name;
	struct yaml_size size;
	int done;
};

/* The event stream's counts, all aliases expanded. */
struct yaml_bounds {
	struct yaml_size seen;
	struct yaml_anchor anchor[YAML_ANCHORS_MAX];
	size_t nanchors;
	/* by depth: the anchor of the collection open there, or -1 */
	ssize_t open[YAML_DEPTH_MAX + 1];
	struct yaml_size start[YAML_DEPTH_MAX + 1];
};

static struct yaml_anchor *anchor_find(struct yaml_bounds *b,
				       const char *name)
{
	/* the latest of a name is the one an alias means */
	for (size_t i = b->nanchors; i-- > 0; )
		if (!strcmp(b->anchor[i].name, name))
			return &b->anchor[i];
	return NULL;
}

/*
 * Counts the node of @ev (an alias: what its anchor expands to). Return:
 * the anchor it defines (its index), -1 for none, or INPUT_EBAD.
 */
static ssize_t bounds_count(struct yaml_file *yf, struct yaml_bounds *b,
			    const yaml_event_t *ev)
{
	const yaml_char_t *anchor = NULL;
	struct yaml_size add = { 1, 0 };
	struct yaml_anchor *a;

	switch (ev->type) {
	case YAML_ALIAS_EVENT:
		a = anchor_find(b, (const char *)ev->data.alias.anchor);
		/* unknown, or inside its own node: libyaml's loader says */
		if (a && a->done)
			add = a->size;
		break;
	case YAML_SCALAR_EVENT:
		anchor = ev->data.scalar.anchor;
		add.bytes = ev->data.scalar.length;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = ev->data.sequence_start.anchor;
		break;
	default:
		anchor = ev->data.mapping_start.anchor;
		break;
	}
	if (add.nodes > YAML_NODES_MAX - b->seen.nodes)
		return bad_mark(yf, &ev->start_mark,
				"more than %d nodes%s", YAML_NODES_MAX,
				ev->type == YAML_ALIAS_EVENT ?
				" with the aliases expanded" : "");
	if (add.bytes > INPUT_MAX_YAML - b->seen.bytes)
		return bad_mark(yf, &ev->start_mark,
				"more than %u MiB of text with the aliases expanded",
				INPUT_MAX_YAML >> 20);
	if (anchor && b->nanchors == YAML_ANCHORS_MAX)
		return bad_mark(yf, &ev->start_mark, "more than %d anchors",
				YAML_ANCHORS_MAX);
	if (anchor) {
		b->anchor[b->nanchors] = (struct yaml_anchor){
			.name = xstrdup((const char *)anchor),
			.size = add,
			.done = ev->type == YAML_SCALAR_EVENT,
		};
	}
	b->seen.nodes += add.nodes;
	b->seen.bytes += add.bytes;
	return anchor ? (ssize_t)b->nanchors++ : -1;
}

/* Checks the bounds on the event stream, before any document is built. */
static int bounds_check(struct yaml_file *yf, const char *text, size_t len)
{
	struct yaml_bounds *b = xmalloc(sizeof(*b));
	size_t keys[YAML_DEPTH_MAX + 1];
	char is_map[YAML_DEPTH_MAX + 1];
	yaml_parser_t parser;
	yaml_event_t ev;
	int depth = 0, ret = 0;

	b->seen = (struct yaml_size){ 0, 0 };
	b->nanchors = 0;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	for (;;) {
		yaml_event_type_t t;
		ssize_t anchor = -1;

		if (!yaml_parser_parse(&parser, &ev)) {
			ret = parse_error(yf, &parser, text, len);
			break;
		}
		t = ev.type;
		if (t == YAML_SCALAR_EVENT || t == YAML_ALIAS_EVENT ||
		    t == YAML_SEQUENCE_START_EVENT ||
		    t == YAML_MAPPING_START_EVENT) {
			anchor = bounds_count(yf, b, &ev);
			if (anchor < -1) {
				ret = (int)anchor;
				break;
			}
			/* Every other node of a mapping is a key. */
			if (depth && is_map[depth] && !(keys[depth]++ % 2) &&
			    keys[depth] / 2 >= YAML_KEYS_MAX) {
				ret = bad_mark(yf, &ev.start_mark,
					       "a mapping of more than %d keys",
					       YAML_KEYS_MAX);
				break;
			}
		}
		if (t == YAML_SEQUENCE_START_EVENT ||
		    t == YAML_MAPPING_START_EVENT) {
			if (depth == YAML_DEPTH_MAX) {
				ret = bad_mark(yf, &ev.start_mark,
					       "nested more than %d levels deep",
					       YAML_DEPTH_MAX);
				break;
			}
			depth++;
			is_map[depth] = t == YAML_MAPPING_START_EVENT;
			keys[depth] = 0;
			b->open[depth] = anchor;
			b->start[depth] = b->seen;
		} else if (t == YAML_SEQUENCE_END_EVENT ||
			   t == YAML_MAPPING_END_EVENT) {
			/* its anchor stands for it and all it holds */
			if (b->open[depth] >= 0) {
				struct yaml_anchor *a =
					&b->anchor[b->open[depth]];

				a->size.nodes += b->seen.nodes -
						 b->start[depth].nodes;
				a->size.bytes += b->seen.bytes -
						 b->start[depth].bytes;
				a->done = 1;
			}
			depth--;
		}
		yaml_event_delete(&ev);
		if (t == YAML_STREAM_END_EVENT)
			break;
	}
	if (ret)
		yaml_event_delete(&ev);
	yaml_parser_delete(&parser);
	for (size_t i = 0; i < b->nanchors; i++)
		free(b->anchor[i].name);
	free(b);
	return ret;
}

int yaml_file_load(struct yaml_file *yf,
		   int (*parse)(struct yaml_file *yf, yaml_node_t *root,
				void *ctx),
		   void *ctx)
{
	yaml_parser_t parser;
	size_t len;
	char *text;
	int ret;

	text = input_read(yf->path, INPUT_MAX_YAML, &len, yf->err);
	if (!text)
		return input_status(yf->err);
	ret = bounds_check(yf, text, len);
	if (ret)
		goto out_free;
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_string(&parser, (const unsigned char *)text,
				     len);
	if (!yaml_parser_load(&parser, &yf->doc)) {
		ret = parse_error(yf, &parser, text, len);
		goto out_parser;
	}
	ret = parse(yf, yaml_document_get_root_node(&yf->doc), ctx);
	yaml_document_delete(&yf->doc);
	if (ret)
		goto out_parser;
	/* A second document would be ignored silently: refuse it. */
	if (!yaml_parser_load(&parser, &yf->doc)) {
		ret = parse_error(yf, &parser, text, len);
	} else {
		yaml_node_t *extra = yaml_document_get_root_node(&yf->doc);

		if (extra)
			ret = yaml_file_bad(yf, extra, "a second document; the file holds one");
		yaml_document_delete(&yf->doc);
	}
out_parser:
	yaml_parser_delete(&parser);
out_free:
	free(text);
	return ret;
}

struct list_walk {
	const char *not_a_list;
	int (*item)(struct yaml_file *yf, yaml_node_t *n, void *ctx);
	void *ctx;
};

static int list_parse(struct yaml_file *yf, yaml_node_t *root, void *ctx)
{
	const struct list_walk *w = ctx;
	yaml_node_item_t *it;

	if (!root)
		return 0;
	if (root->type != YAML_SEQUENCE_NODE)
		return yaml_file_bad(yf, root, "%s", w->not_a_list);
	for (it = root->data.sequence.items.start;
	     it < root->data.sequence.items.top; it++) {
		int ret = w->item(yf, yaml_document_get_node(&yf->doc, *it),
				  w->ctx);

		if (ret)
			return ret;
	}
	return 0;
}

int yaml_file_load_list(struct yaml_file *yf, const char *not_a_list,
			int (*item)(struct yaml_file *yf, yaml_node_t *n,
				    void *ctx),
			void *ctx)
{
	struct list_walk w = { not_a_list, item, ctx };

	return yaml_file_load(yf, list_parse, &w);
}

const char *yaml_file_kind(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "empty";
	}
}

static const char *key_text(const yaml_node_t *k)
{
	return (const char *)k->data.scalar.value;
}

/* A key and where it stands, sorted by text, then by place. */
struct key_ref {
	const char *text;
	size_t i;
};

static int key_ref_cmp(const void *a, const void *b)
{
	const struct key_ref *x = a, *y = b;
	int c = strcmp(x->text, y->text);

	return c ? c : (x->i > y->i) - (x->i < y->i);
}

/*
 * The index of the first of the @n pairs whose key is not a scalar or
 * repeats an earlier key, or @n when there is none.
 */
static size_t keys_first_bad(struct yaml_file *yf,
			     const yaml_node_pair_t *pairs, size_t n)
{
	struct key_ref *refs = xmalloc(n * sizeof(*refs));
	size_t bad = n, nrefs = 0;

	for (size_t i = 0; i < n; i++) {
		yaml_node_t *k = yaml_document_get_node(&yf->doc, pairs[i].key);

		if (k->type != YAML_SCALAR_NODE) {
			bad = i;
			break;
		}
		refs[nrefs++] = (struct key_ref){ key_text(k), i };
	}
	qsort(refs, nrefs, sizeof(*refs), key_ref_cmp);
	/* Each key equal to the one sorted before it repeats an earlier one. */
	for (size_t j = 1; j < nrefs; j++)
		if (refs[j].i < bad && !strcmp(refs[j].text, refs[j - 1].text))
			bad = refs[j].i;
	free(refs);
	return bad;
}

int yaml_file_map(struct yaml_file *yf, yaml_node_t *map,
		  const struct yaml_map *m, void *ctx)
{
	const yaml_node_pair_t *pairs = map->data.mapping.pairs.start;
	size_t n = map->data.mapping.pairs.top - pairs;
	size_t bad = keys_first_bad(yf, pairs, n);

	if (bad < n) {
		yaml_node_t *k = yaml_document_get_node(&yf->doc,
							pairs[bad].key);

		if (k->type != YAML_SCALAR_NODE)
			return yaml_file_bad(yf, k, "a key must be a scalar, not %s",
					     yaml_file_kind(k));
		return yaml_file_bad(yf, k, "duplicate key '%s'", key_text(k));
	}
	for (size_t i = 0; i < n; i++) {
		struct yaml_pair p = {
			.k = yaml_document_get_node(&yf->doc, pairs[i].key),
			.v = yaml_document_get_node(&yf->doc, pairs[i].value),
			.index = -1,
		};
		int ret;

		p.key = key_text(p.k);
		if (m->keys) {
			for (p.index = 0; m->keys[p.index] &&
			     strcmp(m->keys[p.index], p.key); p.index++)
				;
			if (!m->keys[p.index])
				return yaml_file_bad(yf, p.k, m->unknown,
						     p.key);
		}
		ret = m->pair(yf, &p, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

/* Buffers what the emitter writes. */
struct yaml_out {
	char *buf;
	size_t len, size;
};

static int yaml_out_write(void *data, unsigned char *p, size_t n)
{
	struct yaml_out *o = data;

	if (o->len + n + 1 > o->size) {
		o->size = 2 * (o->len + n + 1);
		o->buf = xrealloc(o->buf, o->size);
	}
	memcpy(o->buf + o->len, p, n);
	o->len += n;
	return 1;
}

/*
 * Would a YAML 1.1 reader (PyYAML, LAVA's) take @s, unquoted, for
 * something other than a string: a number, a boolean, null, a date?
 */
static int yaml_looks_typed(const char *s)
{
	static const char *const words[] = {
		"", "~", "y", "n", "yes", "no", "on", "off", "true", "false",
		"null", NULL
	};

	/* numbers; "=" (the value key) and "<<" (the merge key) */
	if (strchr("0123456789+-.", *s) || !strcmp(s, "=") ||
	    !strncmp(s, "<<", 2))
		return 1;
	for (const char *const *w = words; *w; w++)
		if (!strcasecmp(s, *w))
			return 1;
	return 0;
}

/* @plain: may be plain; @quoted: may be quoted (a string) */
static int yaml_emit_scalar(yaml_emitter_t *e, const char *s, int plain,
			    int quoted, yaml_scalar_style_t style)
{
	yaml_event_t ev;

	return yaml_scalar_event_initialize(&ev, NULL, NULL,
					    (yaml_char_t *)s, (int)strlen(s),
					    plain, quoted, style) &&
	       yaml_emitter_emit(e, &ev);
}

static int yaml_emit_str(yaml_emitter_t *e, const char *s)
{
	int typed = yaml_looks_typed(s);

	return yaml_emit_scalar(e, s, !typed, 1, typed ?
				YAML_DOUBLE_QUOTED_SCALAR_STYLE :
				YAML_ANY_SCALAR_STYLE);
}

/* @j as YAML events: objects in their order, strings never retyped. */
static int yaml_emit_json(yaml_emitter_t *e, json_t *j)
{
	yaml_event_t ev;
	const char *key;
	char num[64];
	json_t *v;
	size_t i;

	switch (json_typeof(j)) {
	case JSON_OBJECT:
		if (!yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
							 YAML_BLOCK_MAPPING_STYLE) ||
		    !yaml_emitter_emit(e, &ev))
			return 0;
		json_object_foreach(j, key, v)
			if (!yaml_emit_str(e, key) || !yaml_emit_json(e, v))
				return 0;
		return yaml_mapping_end_event_initialize(&ev) &&
		       yaml_emitter_emit(e, &ev);
	case JSON_ARRAY:
		if (!yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
							  YAML_BLOCK_SEQUENCE_STYLE) ||
		    !yaml_emitter_emit(e, &ev))
			return 0;
		json_array_foreach(j, i, v)
			if (!yaml_emit_json(e, v))
				return 0;
		return yaml_sequence_end_event_initialize(&ev) &&
		       yaml_emitter_emit(e, &ev);
	case JSON_STRING:
		return yaml_emit_str(e, json_string_value(j));
	case JSON_INTEGER:
		snprintf(num, sizeof(num), "%" JSON_INTEGER_FORMAT,
			 json_integer_value(j));
		return yaml_emit_scalar(e, num, 1, 0, YAML_PLAIN_SCALAR_STYLE);
	case JSON_REAL:
		snprintf(num, sizeof(num), "%.17g", json_real_value(j));
		return yaml_emit_scalar(e, num, 1, 0, YAML_PLAIN_SCALAR_STYLE);
	case JSON_TRUE:
		return yaml_emit_scalar(e, "true", 1, 0, YAML_PLAIN_SCALAR_STYLE);
	case JSON_FALSE:
		return yaml_emit_scalar(e, "false", 1, 0, YAML_PLAIN_SCALAR_STYLE);
	default:
		return yaml_emit_scalar(e, "null", 1, 0, YAML_PLAIN_SCALAR_STYLE);
	}
}

int yaml_write_json(const char *path, json_t *j, const char *comment,
		    struct sf_err *err)
{
	struct yaml_out o = { 0 };
	yaml_emitter_t e;
	yaml_event_t ev;
	int ok, ret = -1;

	if (comment)
		yaml_out_write(&o, (unsigned char *)comment, strlen(comment));
	if (!yaml_emitter_initialize(&e)) {
		err_set(err, "%s: cannot start a YAML emitter", path);
		return -1;
	}
	yaml_emitter_set_output(&e, yaml_out_write, &o);
	yaml_emitter_set_unicode(&e, 1);
	yaml_emitter_set_width(&e, -1);	/* no folded lines */
	ok = yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING) &&
	     yaml_emitter_emit(&e, &ev) &&
	     yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1) &&
	     yaml_emitter_emit(&e, &ev) &&
	     yaml_emit_json(&e, j) &&
	     yaml_document_end_event_initialize(&ev, 1) &&
	     yaml_emitter_emit(&e, &ev) &&
	     yaml_stream_end_event_initialize(&ev) &&
	     yaml_emitter_emit(&e, &ev) && yaml_emitter_flush(&e);
	if (!ok)
		err_set(err, "%s: cannot write YAML: %s", path,
			e.problem ? e.problem : "out of memory");
	else if (file_write_atomic(path, o.buf, o.len))
		err_set(err, "%s: cannot write: %s", path, strerror(errno));
	else
		ret = 0;
	yaml_emitter_delete(&e);
	free(o.buf);
	return ret;
}
