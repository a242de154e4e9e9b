// SPDX-License-Identifier: GPL-2.0
/* sysfarm list: configurations, build keys, and which share a kernel. */
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "pipeline/farm.h"

enum { LIST_TABLE, LIST_JSON, LIST_GITHUB };

struct list_opts {
	int format;		/* the last of --json and --github wins */
	int kernels;
};

static const struct opt list_options[] = {
	OPT_SET_INT(0, "json", struct list_opts, format, LIST_JSON,
		    "one JSON object per configuration, in an array"),
	OPT_SET_INT(0, "github", struct list_opts, format, LIST_GITHUB,
		    "the GitHub Actions matrix: {\"include\": [...]}"),
	OPT_BOOLEAN(0, "kernels", struct list_opts, kernels,
		    "one entry per build key (its first configuration)"),
	OPT_END
};

static const struct opt_cmd list_cmd = {
	.usage = "sysfarm list [OPTIONS] [CONFIG...]",
	.opts = list_options,
	.nargs = OPT_CONFIGS,
};

/* Is @s the first selected configuration with its build key? */
static int first_of_key(const struct farm *f, size_t s)
{
	for (size_t t = 0; t < s; t++)
		if (!strcmp(f->m.configs[f->sel[t]].key,
			    f->m.configs[f->sel[s]].key))
			return 0;
	return 1;
}

static json_t *strv_json(const struct strv *sv)
{
	json_t *a = json_array();

	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(a, json_string(sv->v[i]));
	return a;
}

/*
 * What a configuration is and boots with; --json also says what it
 * guards (its roots, when it names any), which jobs do not need.
 */
static json_t *config_json(const struct farm *f, const struct config *c,
			   int format)
{
	const struct matrix *m = &f->m;
	json_t *j = json_pack("{s:s, s:s, s:i}", "config", c->name,
			      "key", c->key, "timeout", c->s.timeout);

	json_object_set_new(j, "append", strv_json(&c->s.append));
	/* what a job installs (ci/deps --package), unless it is fetched */
	if (c->s.src_suite)
		json_object_set_new(j, "suite", json_string(c->s.src_suite));
	if (c->s.src_package)
		json_object_set_new(j, "package",
				    json_string(c->s.src_package));
	if (format == LIST_JSON && c->s.roots.n)
		json_object_set_new(j, "roots", strv_json(&c->s.roots));
	/* what a kernel job hands the check jobs (ci/kernel) */
	if (format == LIST_JSON)
		json_object_set_new(j, "files", json_pack("{s:s, s:s}",
				    "image", c->s.image,
				    "snapshotter", c->s.snapshotter));

	for (size_t a = 0; a < m->naxes; a++)
		json_object_set_new(j, m->axes[a].name,
				    json_string(m->axes[a].values[c->value[a]].name));
	return j;
}

int cmd_list(int argc, char **argv)
{
	struct farm f;
	json_t *arr;
	struct list_opts o = { LIST_TABLE };
	int status;

	farm_init(&f);
	if (ui_setup(&f, argc, argv, &list_cmd, &o, &status))
		goto out;
	if (o.format) {
		char *text;

		arr = json_array();
		for (size_t s = 0; s < f.nsel; s++)
			if (!o.kernels || first_of_key(&f, s))
				json_array_append_new(arr, config_json(&f,
						      &f.m.configs[f.sel[s]],
						      o.format));
		if (o.format == LIST_GITHUB)
			arr = json_pack("{s:o}", "include", arr);
		text = json_dumps(arr, o.format == LIST_GITHUB ?
				  JSON_COMPACT | JSON_SORT_KEYS :
				  JSON_INDENT(2) | JSON_SORT_KEYS);
		puts(text);
		free(text);
		json_decref(arr);
		goto out;
	}
	printf("%-32s %-12s %s\n", "CONFIG", "KEY", "SHARES ITS KERNEL WITH");
	for (size_t s = 0; s < f.nsel; s++) {
		const struct config *c = &f.m.configs[f.sel[s]];
		int shared = 0;

		printf("%-32s %-12s", c->name, c->key);
		for (size_t k = 0; k < f.m.nconfigs; k++) {
			const struct config *d = &f.m.configs[k];

			if (d != c && !strcmp(d->key, c->key)) {
				printf("%s%s", shared ? ", " : " ", d->name);
				shared = 1;
			}
		}
		printf("%s\n", shared ? "" : " -");
	}
out:
	farm_release(&f);
	return status;
}
