// SPDX-License-Identifier: GPL-2.0
/* Redaction rules: load expected/redactions.yaml, blank matching values. */
#include <errno.h>
#include <fnmatch.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/redact.h"
#include "lib/yamlfile.h"

/* A non-empty scalar's text, or NULL after a message about @key. */
static const char *text_of(struct yaml_file *rf, const yaml_node_t *n,
			   const char *key)
{
	if (n->type != YAML_SCALAR_NODE) {
		yaml_file_bad(rf, n, "'%s' must be text", key);
		return NULL;
	}
	if (!n->data.scalar.length) {
		yaml_file_bad(rf, n, "'%s' is empty", key);
		return NULL;
	}
	return (const char *)n->data.scalar.value;
}

enum { RULE_PATH, RULE_REASON, RULE_NKEYS };

static const char *const rule_keys[RULE_NKEYS + 1] = {
	[RULE_PATH] = "path", [RULE_REASON] = "reason", NULL
};

static int rule_pair(struct yaml_file *rf, const struct yaml_pair *p,
		     void *ctx)
{
	const char **slot = (const char **)ctx + p->index;

	*slot = text_of(rf, p->v, p->key);
	if (!*slot)
		return INPUT_EBAD;
	if (p->index == RULE_PATH && (*slot)[0] == '/')
		return yaml_file_bad(rf, p->v, "'path' must be relative to %s",
				     "the sysfs mount");
	return 0;
}

static int rule_parse(struct yaml_file *rf, yaml_node_t *map,
		      struct redaction *rule)
{
	static const struct yaml_map rule_map = {
		.keys = rule_keys, .unknown = "unknown key '%s'",
		.pair = rule_pair,
	};
	const char *text[RULE_NKEYS] = { NULL };
	int ret;

	if (map->type != YAML_MAPPING_NODE)
		return yaml_file_bad(rf, map, "a rule must be a mapping with %s",
				     "'path' and 'reason'");
	ret = yaml_file_map(rf, map, &rule_map, text);
	if (ret)
		return ret;
	if (!text[RULE_PATH] || !text[RULE_REASON])
		return yaml_file_bad(rf, map, "missing '%s'",
				     text[RULE_PATH] ? "reason" : "path");
	rule->path = xstrdup(text[RULE_PATH]);
	rule->reason = xstrdup(text[RULE_REASON]);
	rule->line = map->start_mark.line + 1;
	return 0;
}

static int rule_add(struct yaml_file *rf, yaml_node_t *n, void *ctx)
{
	struct redactions *r = ctx;
	int ret;

	r->v = xrealloc(r->v, (r->n + 1) * sizeof(*r->v));
	ret = rule_parse(rf, n, &r->v[r->n]);
	if (!ret)
		r->n++;
	return ret;
}

int redactions_load(struct redactions *r, const char *path,
		    struct sf_err *err)
{
	struct yaml_file rf = { .path = path, .err = err };
	int ret = yaml_file_load_list(&rf, "the rules must be a list",
				      rule_add, r);

	if (ret)
		redactions_release(r);
	return ret;
}

void redactions_release(struct redactions *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].path);
		free(r->v[i].reason);
	}
	free(r->v);
	*r = (struct redactions)REDACTIONS_INIT;
}

const struct redaction *redactions_match(const struct redactions *r,
					 const char *path)
{
	for (size_t i = 0; r && i < r->n; i++)
		if (!fnmatch(r->v[i].path, path, FNM_PATHNAME))
			return &r->v[i];
	return NULL;
}

static void content_redact(json_t *obj, const char *const *keys)
{
	for (; *keys; keys++)
		json_object_del(obj, *keys);
	json_object_set_new(obj, "redacted", json_true());
}

static const char *const file_content[] = {
	"value", "base64", "error", "truncated", NULL
};

static size_t node_redact(const struct redactions *r, json_t *node,
			  char *path)
{
	const char *type = json_string_value(json_object_get(node, "type"));
	json_t *entries, *child;
	const char *name;
	size_t n = 0;

	if (!type)
		return 0;
	if (!strcmp(type, "file")) {
		if (!redactions_match(r, path))
			return 0;
		content_redact(node, file_content);
		return 1;
	}
	if (!strcmp(type, "link")) {
		child = json_object_get(node, "follow");
		return child ? node_redact(r, child, path) : 0;
	}
	entries = json_object_get(node, "entries");
	json_object_foreach(entries, name, child) {
		char *sub = xstrfmt("%s/%s", path, name);

		n += node_redact(r, child, sub);
		free(sub);
	}
	return n;
}

size_t redactions_apply(const struct redactions *r, json_t *snap)
{
	static const char *const probe_content[] = {
		"value", "base64", "read_error", "truncated", NULL
	};
	json_t *roots = json_object_get(snap, "roots"), *node, *rec;
	const char *root;
	size_t n = 0, i;

	if (!r || !r->n)
		return 0;
	json_object_foreach(roots, root, node) {
		char *path = xstrdup(root);

		n += node_redact(r, node, path);
		free(path);
	}
	json_array_foreach(json_object_get(snap, "probes"), i, rec) {
		const char *op = json_string_value(json_object_get(rec, "op"));
		const char *path = json_string_value(json_object_get(rec,
								     "path"));

		if (!op || !path || (strcmp(op, "read") && strcmp(op, "wait")))
			continue;
		/* Probes name /sys/...; rules are relative to the mount. */
		if (!strncmp(path, "/sys/", 5))
			path += 5;
		if (!redactions_match(r, path))
			continue;
		content_redact(rec, probe_content);
		n++;
	}
	return n;
}
