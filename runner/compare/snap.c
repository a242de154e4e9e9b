// SPDX-License-Identifier: GPL-2.0
/* Snapshots on the host: load, check the structure, compare two files. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/diff.h"
#include "compare/redact.h"
#include "compare/snap.h"
#include "snapshotter/text.h"

/* Where the checker is, as a jq path: .roots["class/leds"].mode */
struct checker {
	const char *name;
	struct sf_err *err;
	char path[2048];
	size_t len;
};

static int fail(struct checker *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static int fail(struct checker *c, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err_at(c->err, ERR_INPUT, c->name, 0, 0, "at %s: %s",
	       c->len ? c->path : ".", what);
	return INPUT_EBAD;
}

static void path_append(struct checker *c, const char *s, size_t n)
{
	if (c->len + n >= sizeof(c->path))
		n = sizeof(c->path) - 1 - c->len;
	memcpy(c->path + c->len, s, n);
	c->len += n;
	c->path[c->len] = '\0';
}

static int is_ident(const char *s)
{
	if (!*s || (*s >= '0' && *s <= '9'))
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || (*s >= 'a' && *s <= 'z') ||
		      (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9')))
			return 0;
	return 1;
}

/* Descends into @key; returns the length to restore with path_pop(). */
static size_t path_key(struct checker *c, const char *key)
{
	size_t old = c->len;
	char esc[8];

	if (is_ident(key)) {
		path_append(c, ".", 1);
		path_append(c, key, strlen(key));
		return old;
	}
	path_append(c, "[\"", 2);
	for (; *key; key++) {
		if (*key == '"' || *key == '\\') {
			esc[0] = '\\';
			esc[1] = *key;
			path_append(c, esc, 2);
		} else if ((unsigned char)*key < 0x20) {
			snprintf(esc, sizeof(esc), "\\u%04x", *key);
			path_append(c, esc, 6);
		} else {
			path_append(c, key, 1);
		}
	}
	path_append(c, "\"]", 2);
	return old;
}

static size_t path_index(struct checker *c, size_t i)
{
	size_t old = c->len;
	char idx[32];

	path_append(c, idx, snprintf(idx, sizeof(idx), "[%zu]", i));
	return old;
}

static void path_pop(struct checker *c, size_t old)
{
	c->len = old;
	c->path[old] = '\0';
}

static const char *json_kind(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
	case JSON_REAL:
		return "a number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

/* Which JSON type a key must hold; K_TRUE is the literal true. */
enum want { K_STRING, K_INT, K_BOOL, K_TRUE, K_OBJECT, K_BASE64, K_ANY };

struct key_rule {
	const char *key;
	enum want want;
};

/* Canonical base64 only, as the snapshotter writes: one text a content. */
static int base64_valid(const json_t *v)
{
	size_t len = json_string_length(v);
	char *bytes = xmalloc(len / 4 * 3 + 1);
	int ok = base64_decode(bytes, json_string_value(v), len) >= 0;

	free(bytes);
	return ok;
}

static int value_check(struct checker *c, json_t *v, enum want want)
{
	switch (want) {
	case K_STRING:
	case K_BASE64:
		if (!json_is_string(v))
			return fail(c, "must be a string, not %s",
				    json_kind(v));
		if (want == K_BASE64 && !base64_valid(v))
			return fail(c, "bad base64 \"%.40s\"",
				    json_string_value(v));
		return 0;
	case K_INT:
		return json_is_integer(v) ? 0 :
			fail(c, "must be an integer, not %s", json_kind(v));
	case K_BOOL:
		return json_is_boolean(v) ? 0 :
			fail(c, "must be a boolean, not %s", json_kind(v));
	case K_TRUE:
		return json_is_true(v) ? 0 : fail(c, "must be true");
	case K_OBJECT:
		return json_is_object(v) ? 0 :
			fail(c, "must be an object, not %s", json_kind(v));
	case K_ANY:
		break;
	}
	return 0;
}

/* Every key of @obj is in @rules (NULL-terminated) with the right type. */
static int keys_check(struct checker *c, json_t *obj,
		      const struct key_rule *rules)
{
	const char *key;
	json_t *v;

	json_object_foreach(obj, key, v) {
		const struct key_rule *r;
		size_t old;
		int ret;

		for (r = rules; r->key && strcmp(r->key, key); r++)
			;
		if (!r->key)
			return fail(c, "unknown key \"%s\"", key);
		old = path_key(c, key);
		ret = value_check(c, v, r->want);
		path_pop(c, old);
		if (ret)
			return ret;
	}
	return 0;
}

/* Exactly one of the NULL-terminated @keys is in @obj. */
static int one_of(struct checker *c, json_t *obj, const char *const *keys,
		  const char *what)
{
	const char *first = NULL;

	for (; *keys; keys++) {
		if (!json_object_get(obj, *keys))
			continue;
		if (first)
			return fail(c, "%s: both \"%s\" and \"%s\"", what,
				    first, *keys);
		first = *keys;
	}
	return first ? 0 : fail(c, "%s: none of its keys", what);
}

static int mode_check(struct checker *c, json_t *node)
{
	json_t *mode = json_object_get(node, "mode");
	const char *s = json_string_value(mode);

	size_t old;
	int ret = 0;

	if (!mode)
		return fail(c, "missing key \"mode\"");
	/* keys_check() saw a string */
	if (strlen(s) != 4 || strspn(s, "01234567") != 4) {
		old = path_key(c, "mode");
		ret = fail(c, "must be four octal digits, not \"%s\"", s);
		path_pop(c, old);
	}
	return ret;
}

static int node_check(struct checker *c, json_t *node);

/*
 * What is wrong with a name, or with @is_root a relative path: "." or ".."
 * (or "/" in a name), or a key that name_encode() writes for no name.
 */
static const char *name_problem(const char *name, int is_root)
{
	const char *p = name;

	for (;;) {
		size_t n = strcspn(p, "/");
		char *buf;
		ssize_t len;

		if (!n || (n == 1 && p[0] == '.') ||
		    (n == 2 && p[0] == '.' && p[1] == '.'))
			return "";
		buf = xmalloc(4 * n + 1);
		len = name_decode(buf, p, n);
		free(buf);
		if (len < 0)
			return ": want %XX only for '%' and bytes not UTF-8";
		if (!p[n])
			return NULL;
		if (!is_root)
			return "";
		p += n + 1;
	}
}

static int entries_check(struct checker *c, json_t *entries, int is_root)
{
	const char *name;
	json_t *child;

	json_object_foreach(entries, name, child) {
		size_t old = path_key(c, name);
		const char *problem = name_problem(name, is_root);
		int ret;

		if (problem)
			ret = fail(c, "bad %s%s",
				   is_root ? "root" : "entry name", problem);
		else
			ret = node_check(c, child);
		path_pop(c, old);
		if (ret)
			return ret;
	}
	return 0;
}

static const struct key_rule error_keys[] = {
	{ "error", K_STRING }, { NULL }
};
static const struct key_rule dir_keys[] = {
	{ "type", K_STRING }, { "mode", K_STRING }, { "entries", K_OBJECT },
	{ "error", K_STRING }, { "truncated", K_TRUE }, { NULL }
};
static const struct key_rule file_keys[] = {
	{ "type", K_STRING }, { "mode", K_STRING }, { "value", K_STRING },
	{ "base64", K_BASE64 }, { "error", K_STRING },
	{ "truncated", K_TRUE }, { "redacted", K_TRUE }, { NULL }
};
static const struct key_rule link_keys[] = {
	{ "type", K_STRING }, { "mode", K_STRING }, { "target", K_STRING },
	{ "target_base64", K_BASE64 }, { "error", K_STRING },
	{ "follow", K_OBJECT }, { NULL }
};
static const struct key_rule other_keys[] = {
	{ "type", K_STRING }, { "mode", K_STRING }, { NULL }
};

/* Known keys, a mode, and with @content exactly one of those keys. */
static int typed_check(struct checker *c, json_t *node,
		       const struct key_rule *keys,
		       const char *const *content, const char *what)
{
	int ret = keys_check(c, node, keys);

	if (!ret)
		ret = mode_check(c, node);
	if (!ret && content)
		ret = one_of(c, node, content, what);
	return ret;
}

static int node_check(struct checker *c, json_t *node)
{
	static const char *const content[] = {
		"value", "base64", "error", "redacted", NULL
	};
	static const char *const target[] = {
		"target", "target_base64", "error", NULL
	};
	const char *type;
	json_t *sub, *cut;
	size_t old;
	int ret;

	if (!json_is_object(node))
		return fail(c, "a node must be an object, not %s",
			    json_kind(node));
	if (!json_object_get(node, "type")) {
		if (!json_object_get(node, "error"))
			return fail(c, "a node needs \"type\" or \"error\"");
		return keys_check(c, node, error_keys);
	}
	type = json_string_value(json_object_get(node, "type"));
	if (!type)
		return fail(c, "\"type\" must be a string");
	if (!strcmp(type, "dir")) {
		ret = typed_check(c, node, dir_keys, NULL, NULL);
		if (ret)
			return ret;
		sub = json_object_get(node, "entries");
		/* not listed, at the snapshotter's depth limit */
		cut = json_object_get(node, "truncated");
		if (cut && (sub || json_object_get(node, "error")))
			return fail(c, "\"truncated\" with \"entries\" or \"error\"");
		if (!sub && !cut && !json_object_get(node, "error"))
			return fail(c, "a dir needs \"entries\", \"error\" or \"truncated\"");
		if (!sub)
			return 0;
		old = path_key(c, "entries");
		ret = entries_check(c, sub, 0);
		path_pop(c, old);
		return ret;
	}
	if (!strcmp(type, "file")) {
		ret = typed_check(c, node, file_keys, content,
				  "a file's content");
		if (!ret && json_object_get(node, "truncated") &&
		    (json_object_get(node, "error") ||
		     json_object_get(node, "redacted")))
			ret = fail(c, "\"truncated\" without content");
		return ret;
	}
	if (!strcmp(type, "link")) {
		ret = typed_check(c, node, link_keys, target,
				  "a link's target");
		sub = json_object_get(node, "follow");
		if (ret || !sub)
			return ret;
		old = path_key(c, "follow");
		ret = node_check(c, sub);
		path_pop(c, old);
		return ret;
	}
	if (!strcmp(type, "other"))
		return typed_check(c, node, other_keys, NULL, NULL);
	old = path_key(c, "type");
	ret = fail(c, "unknown type \"%s\"", type);
	path_pop(c, old);
	return ret;
}

static const struct key_rule probe_keys[] = {
	{ "op", K_STRING }, { "path", K_STRING }, { "value", K_STRING },
	{ "base64", K_BASE64 }, { "truncated", K_TRUE },
	{ "redacted", K_TRUE }, { "expect", K_STRING },
	{ "result", K_STRING }, { "written", K_INT }, { "label", K_STRING },
	{ "offset", K_INT }, { "gpio", K_STRING }, { "fstype", K_STRING },
	{ "read_error", K_STRING }, { NULL }
};

static int probes_check(struct checker *c, json_t *probes)
{
	json_t *rec;
	size_t i;

	if (!json_is_array(probes))
		return fail(c, "must be an array, not %s", json_kind(probes));
	json_array_foreach(probes, i, rec) {
		size_t old = path_index(c, i);
		int ret;

		if (!json_is_object(rec))
			ret = fail(c, "a probe must be an object, not %s",
				   json_kind(rec));
		else if (!json_object_get(rec, "op"))
			ret = fail(c, "missing key \"op\"");
		else if (!json_object_get(rec, "result"))
			ret = fail(c, "missing key \"result\"");
		else
			ret = keys_check(c, rec, probe_keys);
		path_pop(c, old);
		if (ret)
			return ret;
	}
	return 0;
}

static int kmsg_check(struct checker *c, json_t *kmsg)
{
	json_t *line;
	size_t i;

	if (json_is_object(kmsg))
		return json_object_get(kmsg, "error") ?
			keys_check(c, kmsg, error_keys) :
			fail(c, "missing key \"error\"");
	if (!json_is_array(kmsg))
		return fail(c, "must be an array or {\"error\": ...}, not %s",
			    json_kind(kmsg));
	json_array_foreach(kmsg, i, line) {
		if (!json_is_string(line)) {
			path_index(c, i);
			return fail(c, "must be a string, not %s",
				    json_kind(line));
		}
	}
	return 0;
}

static const struct key_rule sysfs_keys[] = {
	{ "mounted", K_BOOL }, { "error", K_STRING }, { NULL }
};

static const struct key_rule top_keys[] = {
	{ "format", K_INT }, { "header", K_OBJECT }, { "kmsg", K_ANY },
	{ "probes", K_ANY }, { "roots", K_OBJECT }, { "sysfs", K_OBJECT },
	{ NULL }
};

int snap_check(const char *name, json_t *snap, struct sf_err *err)
{
	struct checker c = { .name = name, .err = err };
	const struct key_rule *r;
	size_t old;
	int ret;

	if (!json_is_object(snap))
		return fail(&c, "a snapshot must be an object, not %s",
			    json_kind(snap));
	ret = keys_check(&c, snap, top_keys);
	if (ret)
		return ret;
	for (r = top_keys; r->key; r++)
		if (!json_object_get(snap, r->key))
			return fail(&c, "missing key \"%s\"", r->key);
	if (json_integer_value(json_object_get(snap, "format")) != 1) {
		path_key(&c, "format");
		return fail(&c, "format %" JSON_INTEGER_FORMAT
			    " is not supported, want 1",
			    json_integer_value(json_object_get(snap,
							       "format")));
	}
	old = path_key(&c, "sysfs");
	ret = keys_check(&c, json_object_get(snap, "sysfs"), sysfs_keys);
	if (!ret && !json_object_get(json_object_get(snap, "sysfs"),
				     "mounted"))
		ret = fail(&c, "missing key \"mounted\"");
	path_pop(&c, old);
	if (ret)
		return ret;
	path_key(&c, "kmsg");
	ret = kmsg_check(&c, json_object_get(snap, "kmsg"));
	path_pop(&c, 0);
	if (ret)
		return ret;
	path_key(&c, "probes");
	ret = probes_check(&c, json_object_get(snap, "probes"));
	path_pop(&c, 0);
	if (ret)
		return ret;
	path_key(&c, "roots");
	return entries_check(&c, json_object_get(snap, "roots"), 1);
}



/* Keeps @json only if it is a snapshot. */
static int snap_checked(const char *name, json_t **json, struct sf_err *err)
{
	if (!snap_check(name, *json, err))
		return 0;
	json_decref(*json);
	*json = NULL;
	return INPUT_EBAD;
}

int snap_parse(const char *name, const char *buf, size_t len, json_t **out,
	       struct sf_err *err)
{
	int ret = json_file_parse(name, buf, len, out, err);

	return ret ? ret : snap_checked(name, out, err);
}


int snap_load(const char *path, json_t **out, struct sf_err *err)
{
	int ret = json_file_read(path, out, err);

	return ret ? ret : snap_checked(path, out, err);
}

void snap_diff(json_t *a, json_t *b, const struct redactions *r,
	       struct diff *out)
{
	json_t *ra = NULL, *rb = NULL;

	if (r && r->n) {
		a = ra = json_deep_copy(a);
		b = rb = json_deep_copy(b);
		redactions_apply(r, a);
		redactions_apply(r, b);
	}
	diff_snapshots(out, a, b);
	json_decref(ra);
	json_decref(rb);
}

int snap_compare(const char *a, const char *b, const struct redactions *r,
		 struct diff *out, struct sf_err *err)
{
	json_t *ja = NULL, *jb = NULL;
	int ret;

	ret = snap_load(a, &ja, err);
	if (ret)
		return ret;
	ret = snap_load(b, &jb, err);
	if (!ret)
		snap_diff(ja, jb, r, out);
	json_decref(jb);
	json_decref(ja);
	return ret;
}
