// SPDX-License-Identifier: GPL-2.0
/* Loads one YAML document from a file; messages carry FILE:LINE:COL. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "yamlfile.h"

int yaml_file_bad(struct yaml_file *yf, const yaml_node_t *n,
		  const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	err_set(yf->err, "%s:%zu:%zu: %s", yf->path, n->start_mark.line + 1,
		n->start_mark.column + 1, what);
	return -2;
}

/* "FILE:LINE:COL: problem context" for what libyaml could not parse. */
static int parse_error(struct yaml_file *yf, const yaml_parser_t *parser)
{
	err_set(yf->err, "%s:%zu:%zu: %s%s%s", yf->path,
		parser->problem_mark.line + 1, parser->problem_mark.column + 1,
		parser->problem ? parser->problem : "cannot parse",
		parser->context ? " " : "",
		parser->context ? parser->context : "");
	return -2;
}

int yaml_file_load(struct yaml_file *yf,
		   int (*parse)(struct yaml_file *yf, yaml_node_t *root,
				void *ctx),
		   void *ctx)
{
	yaml_parser_t parser;
	int ret;
	FILE *f;

	f = fopen(yf->path, "rb");
	if (!f) {
		err_set(yf->err, "%s: cannot open: %s", yf->path,
			strerror(errno));
		return -1;
	}
	yaml_parser_initialize(&parser);
	yaml_parser_set_input_file(&parser, f);
	if (!yaml_parser_load(&parser, &yf->doc)) {
		ret = parse_error(yf, &parser);
		goto out_parser;
	}
	ret = parse(yf, yaml_document_get_root_node(&yf->doc), ctx);
	yaml_document_delete(&yf->doc);
	if (ret)
		goto out_parser;
	/* A second document would be ignored silently: refuse it. */
	if (!yaml_parser_load(&parser, &yf->doc)) {
		ret = parse_error(yf, &parser);
	} else {
		yaml_node_t *extra = yaml_document_get_root_node(&yf->doc);

		if (extra)
			ret = yaml_file_bad(yf, extra, "a second document; the file holds one");
		yaml_document_delete(&yf->doc);
	}
out_parser:
	yaml_parser_delete(&parser);
	fclose(f);
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
