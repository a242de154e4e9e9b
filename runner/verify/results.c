// SPDX-License-Identifier: GPL-2.0
/* results.json, written by check and update, read by report: one schema. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/jsonfile.h"
#include "lib/paths.h"
#include "verify/results.h"

/* [{"name": AXIS, "value": VALUE}, ...] in matrix order: the HTML grid's. */
static json_t *axes_json(const struct farm *f, const struct config *c)
{
	json_t *arr = json_array();

	for (size_t a = 0; a < f->m.naxes; a++)
		json_array_append_new(arr, json_pack("{s:s, s:s}",
			"name", f->m.axes[a].name,
			"value", f->m.axes[a].values[c->value[a]].name));
	return arr;
}

static json_t *strv_json(const struct strv *sv)
{
	json_t *arr = json_array();

	for (size_t i = 0; i < sv->n; i++)
		json_array_append_new(arr, json_string(sv->v[i]));
	return arr;
}

/*
 * KCIDB's patchset hash of each prepared source's series (source.h), once
 * per source: NULL where none was prepared (--prebuilt: the build
 * directory gets no source) or the hash failed (said).
 */
static char **patchset_hashes(const struct farm *f)
{
	char **hashes = xmalloc(f->nsrcs * sizeof(*hashes) + 1);

	for (size_t i = 0; i < f->nsrcs; i++) {
		const struct farm_source *fs = &f->srcs[i];
		struct sf_err err = SF_ERR_INIT;
		char hex[65], *sums;

		hashes[i] = NULL;
		if (fs->state <= 0 || !fs->series)
			continue;
		sums = path_patchset_sums(fs->root);
		if (!source_patchset_hash(fs->series, sums, hex, &err))
			hashes[i] = xstrdup(hex);
		else
			sink_error(&err);
		free(sums);
	}
	return hashes;
}

json_t *results_json(const struct farm *f, const struct golden_run *run)
{
	json_t *arr = json_array();
	char **patchset = patchset_hashes(f);

	for (size_t s = 0; s < f->nsel; s++) {
		const struct judgement *jd = &run->judged[s];
		const struct config *c = &f->m.configs[f->sel[s]];
		json_t *e = run_result_json(&run->runs[s]);
		json_t *changed = json_array();
		const struct farm_source *fs = farm_source(f, s);
		const char *hash = patchset[f->src_of[s]];

		for (size_t i = 0; i < jd->inputs_changed.n; i++)
			json_array_append_new(changed,
				json_string(jd->inputs_changed.v[i]));
		json_object_set_new(e, "diff", diff_to_json(&jd->diff));
		json_object_set_new(e, "inputs_changed", changed);
		json_object_set_new(e, "confirmed",
				    json_boolean(run->confirmed[s]));
		json_object_set_new(e, "abi", abi_to_json(&jd->found));
		json_object_set_new(e, "axes", axes_json(f, c));
		if (c->s.kernel_arch)
			json_object_set_new(e, "arch",
					    json_string(c->s.kernel_arch));
		json_object_set_new(e, "kconfig", strv_json(&c->s.fragments));
		json_object_set_new(e, "roots", strv_json(&c->s.roots));
		/* a kernel not built has no manifest: its source's part */
		if (run->runs[s].inputs)
			json_object_set_new(e, "inputs",
				json_deep_copy(run->runs[s].inputs));
		else if (fs->state > 0)
			json_object_set_new(e, "inputs",
					    source_inputs(&fs->src));
		if (hash)
			json_object_set_new(e, "patchset_hash",
					    json_string(hash));
		json_array_append_new(arr, e);
	}
	for (size_t i = 0; i < f->nsrcs; i++)
		free(patchset[i]);
	free(patchset);
	return json_pack("{s:o, s:o}", "configs", arr,
			 "abi_stale", abi_to_json(&run->abi_stale));
}

int results_save(const char *path, json_t *results, struct sf_err *err)
{
	char *text = json_dumps(results, JSON_INDENT(2) | JSON_SORT_KEYS);
	int ret = !text || file_put(path, text, strlen(text), 0);

	if (ret)
		err_set(err, "cannot write '%s': %s", path, strerror(errno));
	free(text);
	return ret ? -1 : 0;
}

static enum verdict verdict_of(json_t *c)
{
	return verdict_named(json_string_value(json_object_get(c, "verdict")));
}

/* More than anyone waits, and a sum of them stays finite. */
#define SECONDS_MAX 1e9

/* Is @f not one of abi_to_json()'s findings? */
static int abi_finding_bad(json_t *f)
{
	json_t *w = json_object_get(f, "waived");

	return !json_is_string(json_object_get(f, "kind")) ||
	       !json_is_string(json_object_get(f, "path")) ||
	       !json_is_string(json_object_get(f, "detail")) ||
	       (w && !json_is_string(w) && !json_is_null(w));
}

/* What is wrong with one configuration's entry, or NULL. */
static const char *config_bad(json_t *c)
{
	static const struct {
		const char *key;
		json_type type;	/* JSON_REAL: any number */
		const char *bad;
	} optional[] = {
		{ "message", JSON_STRING, "\"message\" must be a string" },
		{ "key", JSON_STRING, "\"key\" must be a string" },
		{ "seconds", JSON_REAL, "\"seconds\" must be a number" },
		{ "inputs_changed", JSON_ARRAY,
		  "\"inputs_changed\" must be an array" },
		{ "retried", JSON_ARRAY, "\"retried\" must be an array" },
		{ "build_seconds", JSON_REAL,
		  "\"build_seconds\" must be a number" },
		{ "arch", JSON_STRING, "\"arch\" must be a string" },
		{ "kconfig", JSON_ARRAY, "\"kconfig\" must be an array" },
		{ "roots", JSON_ARRAY, "\"roots\" must be an array" },
		{ "inputs", JSON_OBJECT, "\"inputs\" must be an object" },
		{ "patchset_hash", JSON_STRING,
		  "\"patchset_hash\" must be a string" },
	};
	/* the arrays and objects that hold strings alone */
	static const struct {
		const char *key, *bad;
	} strings[] = {
		{ "inputs_changed", "\"inputs_changed\" must hold strings" },
		{ "kconfig", "\"kconfig\" must hold strings" },
		{ "roots", "\"roots\" must hold strings" },
		{ "inputs", "\"inputs\" must hold strings" },
	};
	const char *key;
	json_t *v, *in;
	size_t i, n;

	if (!json_is_object(c))
		return "must be an object";
	if (!json_is_string(json_object_get(c, "config")))
		return "\"config\" must be a string";
	if (verdict_of(c) == V_NR)
		return "\"verdict\" must be a verdict's name";
	for (i = 0; i < ARRAY_SIZE(optional); i++) {
		v = json_object_get(c, optional[i].key);
		if (v && json_typeof(v) != optional[i].type &&
		    !(optional[i].type == JSON_REAL && json_is_integer(v)))
			return optional[i].bad;
	}
	v = json_object_get(c, "seconds");
	if (v && (json_number_value(v) < 0 ||
		  json_number_value(v) > SECONDS_MAX))
		return "\"seconds\" must be from 0 to 1e9";
	for (i = 0; i < ARRAY_SIZE(strings); i++) {
		v = json_object_get(c, strings[i].key);
		json_array_foreach(v, n, in)
			if (!json_is_string(in))
				return strings[i].bad;
		json_object_foreach(v, key, in)
			if (!json_is_string(in))
				return strings[i].bad;
	}
	v = json_object_get(c, "patchset_hash");
	if (v && json_string_length(v) &&
	    (json_string_length(v) != 64 ||
	     strspn(json_string_value(v), "0123456789abcdef") != 64))
		return "\"patchset_hash\" must be \"\" or 64 lowercase hex digits";
	v = json_object_get(c, "retried");
	if (json_array_size(v) > ATTEMPTS_MAX)
		return "\"retried\" must hold at most 5 verdicts";
	json_array_foreach(v, i, in)
		if (!verdict_retried(verdict_named(json_string_value(in))))
			return "\"retried\" must hold QEMU-FAIL, TIMEOUT, CORRUPT or NO-SNAPSHOT";
	v = json_object_get(c, "abi");
	if (v && !json_is_array(v))
		return "\"abi\" must be an array";
	json_array_foreach(v, i, in)
		if (abi_finding_bad(in))
			return "\"abi\" must hold {kind, path, detail: strings, waived: a string or null}";
	v = json_object_get(c, "axes");
	if (v && !json_is_array(v))
		return "\"axes\" must be an array";
	json_array_foreach(v, i, in)
		if (!json_is_string(json_object_get(in, "name")) ||
		    !json_is_string(json_object_get(in, "value")))
			return "\"axes\" must hold {name, value: strings}";
	v = json_object_get(c, "confirmed");
	if (v && !json_is_boolean(v))
		return "\"confirmed\" must be true or false";
	if (json_is_true(v) && verdict_of(c) != V_DIFF &&
	    verdict_of(c) != V_ABI_MISMATCH)
		return "\"confirmed\" is only true for DIFF or ABI-MISMATCH";
	return NULL;
}

int results_check(const char *name, json_t *results, struct sf_err *err)
{
	json_t *configs = json_object_get(results, "configs"), *c;
	size_t i;

	if (!json_is_array(configs)) {
		err_at(err, ERR_INPUT, name, 0, 0,
		       "\"configs\" must be an array");
		return INPUT_EBAD;
	}
	json_array_foreach(configs, i, c) {
		const char *bad = config_bad(c);
		struct diff d = DIFF_INIT;
		char *what;
		int ret;

		if (bad) {
			err_at(err, ERR_INPUT, name, 0, 0, "configs[%zu]: %s",
			       i, bad);
			return INPUT_EBAD;
		}
		if (!json_object_get(c, "diff"))
			continue;
		what = xstrfmt("%s: configs[%zu].diff", name, i);
		ret = diff_from_json(&d, json_object_get(c, "diff"), what,
				     err);
		free(what);
		diff_release(&d);
		if (ret)
			return INPUT_EBAD;
	}
	return 0;
}

int results_load(const char *path, json_t **out, struct sf_err *err)
{
	json_t *results;
	int ret = json_file_read(path, &results, err);

	if (ret)
		return ret;
	if (results_check(path, results, err)) {
		json_decref(results);
		return INPUT_EBAD;
	}
	*out = results;
	return 0;
}

