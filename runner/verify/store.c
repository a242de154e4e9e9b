// SPDX-License-Identifier: GPL-2.0
/* The goldens' store: goldens, pending snapshots, their directory's rules. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/diff.h"
#include "compare/snap.h"
#include "lib/jsonfile.h"
#include "lib/paths.h"
#include "verify/store.h"

int golden_dir_open(const struct golden_dir_opts *o, const char *top,
		    char **dir, struct redactions *r, struct sf_err *err)
{
	char *path;
	int bad;

	*dir = NULL;
	if ((o->expected && !*o->expected) ||
	    (o->redactions && !*o->redactions))
		return err_set(err, "--%s takes a path, not ''",
			       o->expected && !*o->expected ? "expected" :
							      "redactions");
	*dir = o->expected ? xstrdup(o->expected) : path_goldens(top);
	path = o->redactions ? xstrdup(o->redactions) :
			       path_redactions(*dir);
	bad = path_exists(path) && redactions_load(r, path, err);
	free(path);
	return bad ? -1 : 0;
}

int golden_read(const char *path, json_t **out, struct sf_err *err)
{
	struct stat st;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode)) {
		err_at(err, ERR_INPUT, path, 0, 0,
		       "a symbolic link, not read: goldens and pending snapshots are regular files");
		return INPUT_EBAD;
	}
	return snap_load(path, out, err);
}

int golden_check(const char *dir, const char *name, struct sf_err *err)
{
	char *path = path_golden(dir, name);
	json_t *j = NULL;
	int ret = path_exists(path) ? golden_read(path, &j, err) : 0;

	json_decref(j);
	free(path);
	return ret;
}

int golden_abi_read(const char *dir, struct abi_table *t, struct sf_err *err)
{
	char *path = path_abi_table(dir);
	int bad = path_exists(path) && abi_table_load(t, path, err);

	free(path);
	return bad ? -1 : 0;
}

int golden_ci(void)
{
	const char *ci = getenv("CI");

	return ci && !strcmp(ci, "true");
}

int golden_save(const char *dir, const char *path, json_t *snap,
		const struct redactions *reds, struct sf_err *err)
{
	json_t *j = json_deep_copy(snap);
	int ret = -1;

	redactions_apply(reds, j);
	if (mkdir_p(dir))
		err_set(err, "%s: cannot create: %s", dir, strerror(errno));
	else
		ret = json_file_write(path, j, err);
	json_decref(j);
	return ret;
}

int golden_names_config(const struct farm *f, const char *name,
			const char *suffix)
{
	size_t len = strlen(name) - strlen(suffix);

	for (size_t i = 0; i < f->m.nconfigs; i++)
		if (strlen(f->m.configs[i].name) == len &&
		    !strncmp(f->m.configs[i].name, name, len))
			return 1;
	return 0;
}

/* scandir()'s filter: NAME.json.pending */
static int pending_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name), suf = strlen(".json.pending");

	return len > suf && !strcmp(e->d_name + len - suf, ".json.pending");
}

void golden_pending_list(const char *dir, struct strv *out)
{
	struct dirent **names;
	int n = scandir(dir, &names, pending_name, alphasort);

	for (int k = 0; k < n; k++) {
		strv_pushf(out, "%s/%s", dir, names[k]->d_name);
		free(names[k]);
	}
	if (n >= 0)
		free(names);
}

/* The runner's "inputs" beside the guest's "snapshotter": sysfarm's. */
static int header_is_ours(json_t *snap)
{
	json_t *h = json_object_get(snap, "header");

	return json_is_object(json_object_get(h, "inputs")) &&
	       json_is_string(json_object_get(h, "snapshotter"));
}

/*
 * Why @path is not a golden sysfarm wrote, or NULL if it is one. Nothing
 * else may be removed as obsolete: not a link, a device, a FIFO (never
 * opened), nor a stranger's JSON.
 */
static const char *golden_foreign(const char *path)
{
	const char *why = NULL;
	struct sf_err err = SF_ERR_INIT;
	struct stat st;
	json_t *j = NULL;

	if (lstat(path, &st))
		why = strerror(errno);
	else if (S_ISLNK(st.st_mode))
		why = "a symbolic link";
	else if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (snap_load(path, &j, &err))
		why = "not a snapshot";
	else if (!header_is_ours(j))
		why = "its header is not sysfarm's";
	json_decref(j);
	return why;
}

/* scandir()'s filter: a golden is named CONFIG.json */
static int json_name(const struct dirent *e)
{
	size_t len = strlen(e->d_name);

	return len > 5 && !strcmp(e->d_name + len - 5, ".json");
}

void golden_obsolete(const struct farm *f, const char *dir,
		     struct strv *obsolete, struct strv *foreign)
{
	struct dirent **names;
	int n = scandir(dir, &names, json_name, alphasort);

	for (int k = 0; k < n; k++) {
		const char *name = names[k]->d_name, *why;
		char *path = xstrfmt("%s/%s", dir, name);

		if (!golden_names_config(f, name, ".json")) {
			why = golden_foreign(path);
			if (why) {
				/* Anyone's name: shown as a terminal shows it safely */
				char *shown = diff_text_clean(path, strlen(path), "");

				strv_pushf(foreign, "%s: not a sysfarm golden (%s), left alone",
					   shown, why);
				free(shown);
			} else {
				strv_push(obsolete, path);
			}
		}
		free(path);
		free(names[k]);
	}
	if (n >= 0)
		free(names);
}
