// SPDX-License-Identifier: GPL-2.0
/* Prepares the kernel tree: extraction, series application, minimal sync. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/kversion.h"
#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/source.h"

#define STATE_NAME ".sysfarm-state.json"
/* dpkg -S reads every package's file list: seconds on a large system. */
#define DPKG_TIMEOUT 60.0

/* A patch's Subject: line without its "[PATCH n/m] " tag, malloc'd. */
static char *patch_subject(const char *patch)
{
	char *text = file_read(patch, NULL), *s, *subject;

	s = text ? strstr(text, "\nSubject: ") : NULL;
	if (s) {
		s += 10;
		s[strcspn(s, "\n")] = '\0';
		if (*s == '[' && strchr(s, ']'))
			s = strchr(s, ']') + 1 + (strchr(s, ']')[1] == ' ');
	}
	subject = xstrdup(s ? s : "");
	free(text);
	return subject;
}

int series_read(const char *series, struct strv *patches,
		struct strv *subjects, struct sf_err *err)
{
	char *buf, *line, *save = NULL, *dir, *slash;
	int lineno = 0, ret = 0;

	buf = input_read(series, INPUT_MAX_TEXT, NULL, err);
	if (!buf)
		return -1;
	dir = xstrdup(series);
	slash = strrchr(dir, '/');
	if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	/* strtok_r would skip empty lines and lose the line count. */
	for (line = buf; line; line = save) {
		struct sf_err why = SF_ERR_INIT;
		char *p, *end, *path, *rp, text[ERR_FORMAT_MAX];
		int col;

		lineno++;
		save = strchr(line, '\n');
		if (save)
			*save++ = '\0';
		p = line + strspn(line, " \t");
		col = p - line + 1;
		if (!*p || *p == '#')
			continue;
		end = p + strcspn(p, " \t#");
		if (*end && *end != '#' &&
		    end[strspn(end, " \t")] != '#' && end[strspn(end, " \t")]) {
			ret = err_at(err, ERR_INPUT, series, lineno,
				     (int)(end + strspn(end, " \t") - line) + 1,
				     "one patch file name per line (options are not supported)");
			break;
		}
		*end = '\0';
		path = *p == '/' ? xstrdup(p) : xstrfmt("%s/%s", dir, p);
		rp = realpath(path, NULL);
		free(path);
		if (!rp) {
			ret = err_at(err, ERR_INPUT, series, lineno, col,
				     "no patch file '%s'", p);
			break;
		}
		/* patch(1) reads it: a FIFO or a device would hang it. */
		if (input_check(rp, INPUT_MAX_BLOB, &why)) {
			ret = err_at(err, ERR_INPUT, series, lineno, col, "%s",
				     err_format(&why, text, sizeof(text)));
			free(rp);
			break;
		}
		strv_push(patches, rp);
		if (subjects) {
			char *subject = patch_subject(rp);

			strv_push(subjects, subject);
			free(subject);
		}
		free(rp);
	}
	free(dir);
	free(buf);
	return ret;
}

/* @name once in @files */
static void files_add(struct strv *files, const char *name)
{
	if (*name && !strv_has(files, name))
		strv_push(files, name);
}

/*
 * Files a patch creates, changes, deletes, renames or copies, from its
 * diff headers: "--- a/X" and "+++ b/X", and git's "rename from X",
 * "rename to Y", "copy from/to", which a pure rename has alone.
 */
static void patch_files(const char *patch, struct strv *files)
{
	static const char *const git[] = { "rename from ", "rename to ",
					   "copy from ", "copy to " };
	char *text = file_read(patch, NULL), *line, *next;
	int prev_minus = 0;

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if ((prev_minus && !strncmp(line, "+++ ", 4)) ||
		    !strncmp(line, "--- ", 4)) {
			char *p = line + 4, *slash;

			p[strcspn(p, "\t")] = '\0';
			slash = strchr(p, '/');
			if (strcmp(p, "/dev/null") && slash)
				files_add(files, slash + 1);
		}
		for (size_t i = 0; i < ARRAY_SIZE(git); i++)
			if (!strncmp(line, git[i], strlen(git[i])))
				files_add(files, line + strlen(git[i]));
		/* "--- x" starts a header only outside hunks: right after
		 * "diff" or "index" lines; good enough for format-patch. */
		prev_minus = !strncmp(line, "--- ", 4);
	}
	free(text);
}

static int copy_file(const char *from, const char *to)
{
	struct stat st;
	size_t len;
	char *buf, *dir, *slash;
	int ret;

	if (stat(from, &st) < 0)
		return -1;
	buf = file_read(from, &len);
	if (!buf)
		return -1;
	dir = xstrdup(to);
	slash = strrchr(dir, '/');
	*slash = '\0';
	ret = mkdir_p(dir);
	free(dir);
	if (!ret)
		ret = file_write_atomic(to, buf, len);
	if (!ret)
		ret = chmod(to, st.st_mode & 07777);
	free(buf);
	return ret;
}

static int same_content(const char *a, const char *b)
{
	size_t la, lb;
	char *ba = file_read(a, &la), *bb = file_read(b, &lb);
	int same = ba && bb && la == lb && !memcmp(ba, bb, la);

	if (!ba && !bb)
		same = errno == ENOENT && !path_exists(a);
	free(ba);
	free(bb);
	return same;
}

/*
 * @to made like @from, a copy or gone as @from is: rewritten only when
 * the content differs, so that an unchanged file keeps its mtime.
 * Return: 0, or -1 with errno set.
 */
static int file_mirror(const char *from, const char *to)
{
	if (same_content(from, to))
		return 0;
	if (path_exists(from))
		return copy_file(from, to);
	return unlink(to) && errno != ENOENT ? -1 : 0;
}

/*
 * @argv run with its output in @log; else "WHAT failed (full log: LOG):"
 * and the log's last lines (a full disk says so there), or why it did not
 * start (proc_run_logged()).
 */
static int run_logged(const char **argv, const char *const *env,
		      const char *log, const char *what, struct sf_err *err)
{
	struct proc p = PROC_INIT;

	p.argv = argv;
	p.env = env;
	p.out_path = log;
	p.err_to_out = 1;
	return proc_run_logged(&p, what, 5, err);
}

static int extract(const char *root, const char *tarball,
		   struct sf_err *err)
{
	char *tmp = xstrfmt("%s/src.new", root);
	char *src = path_source_tree(root);
	char *pristine = xstrfmt("%s/pristine", root);
	char *log = xstrfmt("%s/extract.log", root);
	const char *argv[] = { "tar", "-xf", tarball, "-C", tmp,
			       "--strip-components=1", NULL };
	/*
	 * Debian's tarballs are xz in blocks (55 in linux-source-6.1's): xz
	 * decompresses them on every core, tar's own xz -d on one.
	 */
	const char *const env[] = { "XZ_OPT=-T0", NULL };
	char *what = xstrfmt("extract '%s'", tarball);
	int ret = -1;

	if (rm_rf(tmp) || mkdir_p(tmp)) {
		err_set(err, "cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (run_logged(argv, env, log, what, err))
		goto out;
	if (rm_rf(src) || rm_rf(pristine) || rename(tmp, src)) {
		err_set(err, "cannot replace '%s': %s", src, strerror(errno));
		goto out;
	}
	ret = 0;
out:
	free(tmp);
	free(src);
	free(pristine);
	free(log);
	free(what);
	return ret;
}

/* Why the patch failed, from patch(1)'s output: the file and the hunk. */
static void patch_failure(const char *log, const char *name,
			  struct sf_err *err)
{
	char *text = file_read(log, NULL), *line, *next = NULL;
	char file[PATH_MAX] = "?", why[256] = "see the log";

	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!strncmp(line, "patching file ", 14)) {
			snprintf(file, sizeof(file), "%s", line + 14);
		} else if (strstr(line, "FAILED") ||
			   strstr(line, "can't find file") ||
			   strstr(line, "malformed") ||
			   strstr(line, "Reversed")) {
			snprintf(why, sizeof(why), "%s", line);
			break;
		}
	}
	if (!strncmp(why, "can't find file", 15))
		snprintf(file, sizeof(file), "a file it names, which is missing");
	err_set(err, "patch '%s' does not apply to %s: %s", name, file, why);
	free(text);
}

static int apply_series(const char *scratch, const struct strv *patches,
			const char *log, struct sf_err *err)
{
	for (size_t i = 0; i < patches->n; i++) {
		const char *argv[] = { "patch", "-p1", "--batch", "--forward",
				       "--no-backup-if-mismatch", "-r", "-",
				       "-d", scratch, "-i", patches->v[i],
				       NULL };
		struct proc p = PROC_INIT;
		int code;

		p.argv = argv;
		p.out_path = log;
		p.err_to_out = 1;
		if (proc_run(&p, &code) != PROC_EXITED || code) {
			const char *base = strrchr(patches->v[i], '/');

			patch_failure(log, base ? base + 1 : patches->v[i],
				      err);
			return -1;
		}
	}
	return 0;
}

static json_t *state_load(const char *path)
{
	json_t *st = json_load_file(path, 0, NULL);

	if (!json_is_object(st)) {
		json_decref(st);
		return NULL;
	}
	return st;
}

static const char *state_str(json_t *st, const char *key)
{
	const char *s = json_string_value(json_object_get(st, key));

	return s ? s : "";
}

/*
 * "linux-source-6.1 6.1.192-3" for a tarball dpkg installed, NULL for one
 * it does not know.
 */
static char *package_version(const char *tarball)
{
	const char *argv[] = { "dpkg", "-S", tarball, NULL };
	char pkg[256], ver[256];
	/* Unused: the caller falls back */
	struct sf_err unowned = SF_ERR_INIT;

	if (proc_capture(argv, DPKG_TIMEOUT, pkg, sizeof(pkg), &unowned))
		return NULL;
	pkg[strcspn(pkg, ":")] = '\0';
	{
		const char *q[] = { "dpkg-query", "-W", "-f=${Version}", pkg,
				    NULL };

		if (proc_capture(q, DPKG_TIMEOUT, ver, sizeof(ver), &unowned))
			return NULL;
	}
	return xstrfmt("%s %s", pkg, ver);
}

/*
 * The tarball's sha256 in @src->sha256, computed once per tarball (its
 * path, size and mtime: @src->tarball_id) and kept in the source's
 * directory: a warm run does not read 150 MB again.
 */
static int tarball_sha256(struct source *src, const char *root,
			  const char *tarball, struct sf_err *err)
{
	char *cache = path_tarball_sha256(root), *text = file_read(cache, NULL);
	char *key = xstrfmt("%s %s ", src->tarball_id, tarball), hex[65];
	size_t klen = strlen(key);
	int ret = 0;

	if (text && !strncmp(text, key, klen) &&
	    strspn(text + klen, "0123456789abcdef") == 64) {
		memcpy(hex, text + klen, 64);
		hex[64] = '\0';
	} else if (!proc_sha256(tarball, hex, err)) {
		char *line = xstrfmt("%s%s\n", key, hex);

		/* a cache: one not written is computed again next time */
		file_write_atomic(cache, line, strlen(line));
		free(line);
	} else {
		ret = -1;
	}
	if (!ret)
		src->sha256 = xstrdup(hex);
	free(cache);
	free(text);
	free(key);
	return ret;
}

/* The files of one source_prepare(), all in the source's own directory. */
struct prep_paths {
	const char *root;
	char *src;		/* the tree kbuild builds */
	char *state;		/* what src holds, see state_save() */
	char *scratch;		/* where the series is applied */
	char *last;		/* the source version it last applied on */
	char *log;		/* patch(1)'s output */
};

static void prep_paths_init(struct prep_paths *pp, const char *root)
{
	pp->root = root;
	pp->src = path_source_tree(root);
	pp->state = xstrfmt("%s/%s", pp->src, STATE_NAME);
	pp->scratch = xstrfmt("%s/src.scratch", root);
	pp->last = xstrfmt("%s/series-applied-on", root);
	pp->log = xstrfmt("%s/patch.log", root);
}

static void prep_paths_release(struct prep_paths *pp)
{
	free(pp->src);
	free(pp->state);
	free(pp->scratch);
	free(pp->last);
	free(pp->log);
}

/*
 * The series' id (each patch's name and content) in @src->series_hash and
 * @h; @patches gets its patches. Return: 0; -2 for a bad series, -1 for an
 * unreadable patch.
 */
static int series_id(struct source *src, const char *series,
		     struct strv *patches, uint64_t *h, struct sf_err *err)
{
	char hex[17];

	if (series_read(series, patches, NULL, err))
		return -2;
	for (size_t i = 0; i < patches->n; i++) {
		const char *base = strrchr(patches->v[i], '/') + 1;

		*h = hash_str(*h, base);
		if (hash_file(h, patches->v[i]))
			return err_set(err, "%s: cannot read: %s",
				       patches->v[i], strerror(errno));
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)*h);
	src->series_hash = xstrdup(hex);
	return 0;
}

/*
 * The ids of the tree to make, before anything is extracted: the
 * tarball's (size and mtime), the series' (each patch's name and
 * content), and both together, which says whether build/src holds it.
 * @patches gets the series' patches. Return: 0; -2 for a bad series, -1
 * for an unreadable tarball or patch.
 */
static int source_ids(struct source *src, const char *tarball,
		      const char *series, struct strv *patches,
		      struct sf_err *err)
{
	char tid[64], hex[17];
	uint64_t h = HASH_INIT;
	struct stat tst;
	int ret;

	if (stat(tarball, &tst) < 0)
		return err_set(err, "no kernel source '%s' (run 'make deps')",
			       tarball);
	snprintf(tid, sizeof(tid), "%lld:%lld", (long long)tst.st_size,
		 (long long)tst.st_mtime);
	ret = series_id(src, series, patches, &h, err);
	if (ret)
		return ret;
	h = hash_str(h, tid);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	src->content_id = xstrdup(hex);
	src->tarball_id = xstrdup(tid);
	return 0;
}

/*
 * The state of build/src, extracting the tarball afresh when the tree is
 * missing or from another tarball. Return: the state, or NULL with @err.
 */
static json_t *state_get(const struct prep_paths *pp, const char *tarball,
			 const char *tarball_id, struct sf_err *err)
{
	json_t *st = state_load(pp->state);

	if (st && !strcmp(state_str(st, "tarball"), tarball_id))
		return st;
	json_decref(st);
	if (extract(pp->root, tarball, err))
		return NULL;
	return json_pack("{s:s, s:s, s:[]}", "tarball", tarball_id, "series",
			 "", "touched");
}

/* For a tarball that no dpkg package owns: its name, the tree's version. */
static char *tarball_version(const char *tarball, const char *srcdir)
{
	char *tv = kversion_of_tree(srcdir);
	char *version = xstrfmt("%s %s (no dpkg package owns it)", tarball,
				tv ? tv : "(no version)");

	free(tv);
	return version;
}

/*
 * @all: every file that this or an earlier series touched, from the
 * state and @patches. The first time a file is touched, what build/src
 * has is pristine: it is saved under build/pristine.
 */
static int pristine_record(const struct prep_paths *pp,
			   const struct strv *patches, json_t *st,
			   struct strv *all, struct sf_err *err)
{
	struct strv touched = STRV_INIT;
	size_t i;
	json_t *v;
	int ret = 0;

	for (i = 0; i < patches->n; i++)
		patch_files(patches->v[i], &touched);
	json_array_foreach(json_object_get(st, "touched"), i, v)
		strv_push(all, json_string_value(v));
	for (i = 0; i < touched.n && !ret; i++) {
		char *from, *to;

		if (strv_has(all, touched.v[i]))
			continue;
		strv_push(all, touched.v[i]);
		from = xstrfmt("%s/%s", pp->src, touched.v[i]);
		to = xstrfmt("%s/pristine/%s", pp->root, touched.v[i]);
		if (path_exists(from) && copy_file(from, to))
			ret = err_set(err, "cannot save '%s': %s", to,
				      strerror(errno));
		free(from);
		free(to);
	}
	strv_release(&touched);
	return ret;
}

/* What a failed patch is told about the source it did not apply to. */
static void apply_context(const struct prep_paths *pp, const char *version,
			  struct sf_err *err)
{
	char *last = file_read(pp->last, NULL);
	size_t n = strlen(err->text);

	if (last && strcmp(last, version))
		snprintf(err->text + n, sizeof(err->text) - n,
			 " (the series last applied on %s; the source is now %s)",
			 last, version);
	else
		snprintf(err->text + n, sizeof(err->text) - n, " (source %s)",
			 version);
	free(last);
}

/*
 * The series applied in a scratch tree of the pristine copies of @all,
 * so that a patch that does not apply leaves build/src as it was.
 */
static int scratch_apply(const struct prep_paths *pp, const struct strv *all,
			 const struct strv *patches, const char *version,
			 struct sf_err *err)
{
	if (rm_rf(pp->scratch) || mkdir_p(pp->scratch))
		return err_set(err, "cannot create '%s': %s", pp->scratch,
			       strerror(errno));
	for (size_t i = 0; i < all->n; i++) {
		char *from = xstrfmt("%s/pristine/%s", pp->root, all->v[i]);
		char *to = xstrfmt("%s/%s", pp->scratch, all->v[i]);
		int bad = path_exists(from) && copy_file(from, to);

		free(from);
		free(to);
		if (bad)
			return err_set(err, "cannot copy into '%s': %s",
				       pp->scratch, strerror(errno));
	}
	if (apply_series(pp->scratch, patches, pp->log, err)) {
		apply_context(pp, version, err);
		return -1;
	}
	return 0;
}

/*
 * build/src made like the scratch tree in the files of @all. Only what
 * differs is rewritten: unchanged files keep their mtime, and kbuild
 * rebuilds only what the series changes.
 */
static int tree_sync(const struct prep_paths *pp, const struct strv *all,
		     struct sf_err *err)
{
	for (size_t i = 0; i < all->n; i++) {
		char *from = xstrfmt("%s/%s", pp->scratch, all->v[i]);
		char *to = xstrfmt("%s/%s", pp->src, all->v[i]);
		int bad = 0;

		bad = file_mirror(from, to);
		free(from);
		free(to);
		if (bad)
			return err_set(err, "cannot update '%s': %s", pp->src,
				       strerror(errno));
	}
	return 0;
}

/*
 * The state of build/src written: its tarball, the content id of its
 * series ("series") and every file a series touched; and beside it the
 * source version the series applied on, for the next failure to quote.
 */
static int state_save(const struct prep_paths *pp, json_t *st,
		      const struct strv *all, const struct source *src,
		      struct sf_err *err)
{
	json_t *arr = json_array();
	char *text;
	int ret = 0;

	for (size_t i = 0; i < all->n; i++)
		json_array_append_new(arr, json_string(all->v[i]));
	json_object_set_new(st, "touched", arr);
	json_object_set_new(st, "series", json_string(src->content_id ?
						      src->content_id :
						      src->series_hash));
	text = json_dumps(st, JSON_INDENT(1) | JSON_SORT_KEYS);
	if (!text || file_write_atomic(pp->state, text, strlen(text)) ||
	    file_write_atomic(pp->last, src->version, strlen(src->version)))
		ret = err_set(err, "cannot write '%s': %s", pp->state,
			      strerror(errno));
	free(text);
	return ret;
}

/*
 * Before the tree is synced: every file the sync may change in the state,
 * and no series, so that a sync cut short (a signal, a full disk) is done
 * again by the next run, whatever series it asks for.
 */
static int state_syncing(const struct prep_paths *pp, json_t *st,
			 const struct strv *all, const struct source *src,
			 struct sf_err *err)
{
	struct source none = *src;

	none.content_id = (char *)"";
	return state_save(pp, st, all, &none, err);
}

char *source_name(const char *tarball)
{
	const char *base = strrchr(tarball, '/');
	const char *tar;

	base = base ? base + 1 : tarball;
	tar = strstr(base, ".tar");
	if (!tar || tar == base || strchr(tar + 4, '/') ||
	    (tar[4] && tar[4] != '.'))
		return NULL;
	return xstrfmt("%.*s", (int)(tar - base), base);
}

/*
 * Could @path, changed by a series, change what `make tinyconfig`, the
 * fragments and olddefconfig make of the tree? Kconfig files, config
 * fragments, the scripts Kconfig runs (scripts/, arch/ARCH/tools/), the
 * top Makefile (the version) and the arch Makefiles it includes for
 * %config targets.
 */
static int kconfig_input(const char *path)
{
	const char *base = strrchr(path, '/');
	const char *arch = !strncmp(path, "arch/", 5) ?
			   strchr(path + 5, '/') : NULL;

	base = base ? base + 1 : path;
	return !strncmp(base, "Kconfig", 7) ||
	       (strlen(base) > 7 && !strcmp(base + strlen(base) - 7, ".config")) ||
	       !strncmp(path, "scripts/", 8) || !strcmp(path, "Makefile") ||
	       (arch && (!strncmp(arch, "/Makefile", 9) ||
			 !strncmp(arch, "/tools/", 7)));
}

/*
 * The id of what the kernel's configuration is made from: the tarball and
 * each Kconfig input a series left other than the tarball has it (its
 * path and content). A series that changes only code keeps it, and so
 * does the history of series a tree went through: two trees with the
 * same content have the same id.
 */
static void kconfig_id(struct source *src, const struct prep_paths *pp,
		       json_t *st)
{
	uint64_t h = hash_str(HASH_INIT, src->tarball_id);
	char hex[17];
	json_t *v;
	size_t i;

	json_array_foreach(json_object_get(st, "touched"), i, v) {
		const char *t = json_string_value(v);
		char *path, *pristine;

		if (!t || !kconfig_input(t))
			continue;
		path = xstrfmt("%s/%s", pp->src, t);
		pristine = xstrfmt("%s/pristine/%s", pp->root, t);
		if (!same_content(path, pristine)) {
			h = hash_str(h, t);
			if (hash_file(&h, path))
				h = hash_str(h, "(absent)");
		}
		free(path);
		free(pristine);
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	src->kconfig_id = xstrdup(hex);
}

int source_prepare(struct source *src, const char *root,
		   const char *tarball, const struct source_origin *origin,
		   const char *series, struct sf_err *err)
{
	struct strv patches = STRV_INIT, all = STRV_INIT;
	struct prep_paths pp;
	json_t *st;
	int ret;

	prep_paths_init(&pp, root);
	src->dir = xstrdup(pp.src);
	src->version = origin ? xstrdup(origin->version) :
		       package_version(tarball);
	ret = source_ids(src, tarball, series, &patches, err);
	if (ret)
		goto out;
	ret = -1;
	if (origin)
		src->sha256 = xstrdup(origin->sha256);
	else if (tarball_sha256(src, root, tarball, err))
		goto out;
	st = state_get(&pp, tarball, src->tarball_id, err);
	if (!st)
		goto out;
	if (!src->version)
		src->version = tarball_version(tarball, pp.src);
	/* build/src holds this series on this tarball already */
	if (!strcmp(state_str(st, "series"), src->content_id)) {
		kconfig_id(src, &pp, st);
		ret = 0;
		goto out_state;
	}
	if (pristine_record(&pp, &patches, st, &all, err) ||
	    scratch_apply(&pp, &all, &patches, src->version, err) ||
	    state_syncing(&pp, st, &all, src, err) ||
	    tree_sync(&pp, &all, err) || state_save(&pp, st, &all, src, err))
		goto out_state;
	rm_rf(pp.scratch);
	kconfig_id(src, &pp, st);
	ret = 0;
out_state:
	json_decref(st);
out:
	strv_release(&patches);
	strv_release(&all);
	prep_paths_release(&pp);
	return ret;
}

/*
 * A user's tree copied into @pp->src: every file but those a series
 * touched (and .git, and links that are absolute or lead out of the
 * tree), whose copies in pristine/ are refreshed instead.
 * rsync rewrites only what differs in size or mtime, and keeps the
 * tree's mtimes: after a checkout, make rebuilds only what changed.
 */
static int tree_copy(const struct prep_paths *pp, const char *dir,
		     json_t *st, struct sf_err *err)
{
	char *list = xstrfmt("%s/touched.list", pp->root);
	char *log = xstrfmt("%s/copy.log", pp->root);
	char *exclude = xstrfmt("--exclude-from=%s", list);
	char *from = xstrfmt("%s/", dir), *to = xstrfmt("%s/", pp->src);
	/*
	 * --safe-links: no link that is absolute or climbs out of the tree
	 * is copied, so the series' writes into the copy stay in it.
	 */
	const char *argv[] = { "rsync", "-a", "--safe-links", "--delete",
			       "--exclude=/.git", "--exclude=/" STATE_NAME,
			       exclude, from, to, NULL };
	char *what = xstrfmt("copy '%s'", dir), *text = NULL;
	size_t i, len = 0;
	json_t *v;
	FILE *m = open_memstream(&text, &len);
	int ret = -1;

	/* Anchored: a touched lib/Makefile is not every Makefile. */
	json_array_foreach(json_object_get(st, "touched"), i, v)
		fprintf(m, "/%s\n", json_string_value(v));
	if (fclose(m) || mkdir_p(pp->src) ||
	    file_write_atomic(list, text, len)) {
		err_set(err, "cannot write '%s': %s", list, strerror(errno));
		goto out;
	}
	if (run_logged(argv, NULL, log, what, err))
		goto out;
	json_array_foreach(json_object_get(st, "touched"), i, v) {
		char *mine = xstrfmt("%s/%s", dir, json_string_value(v));
		char *saved = xstrfmt("%s/pristine/%s", pp->root,
				      json_string_value(v));
		int bad = file_mirror(mine, saved);

		free(mine);
		free(saved);
		if (bad) {
			err_set(err, "cannot save '%s': %s", pp->root,
				strerror(errno));
			goto out;
		}
	}
	ret = 0;
out:
	free(text);
	free(list);
	free(log);
	free(what);
	free(exclude);
	free(from);
	free(to);
	return ret;
}

int source_prepare_tree(struct source *src, const char *root,
			const char *dir, const char *series,
			struct sf_err *err)
{
	struct strv patches = STRV_INIT, all = STRV_INIT;
	struct source user = SOURCE_INIT;
	struct prep_paths pp;
	uint64_t h = HASH_INIT;
	json_t *st = NULL;
	char *tid = NULL, *tv;
	int ret;

	prep_paths_init(&pp, root);
	ret = source_external(&user, dir, err);
	if (ret)
		goto out;
	ret = series_id(src, series, &patches, &h, err);
	if (ret)
		goto out;
	tv = kversion_of_tree(user.dir);
	src->version = xstrfmt("%s %s", user.dir, tv ? tv : "(no version)");
	free(tv);
	src->dir = xstrdup(pp.src);
	/* No content id: its files change under it, make decides. */
	tid = xstrfmt("tree %s", user.dir);
	ret = -1;
	st = state_load(pp.state);
	if (!st || strcmp(state_str(st, "tarball"), tid)) {
		json_decref(st);
		st = json_pack("{s:s, s:s, s:[]}", "tarball", tid, "series",
			       "", "touched");
		if (rm_rf(pp.scratch) || rm_rf(pp.src)) {
			err_set(err, "cannot start '%s' afresh: %s", pp.src,
				strerror(errno));
			goto out;
		}
	}
	if (tree_copy(&pp, user.dir, st, err) ||
	    pristine_record(&pp, &patches, st, &all, err) ||
	    scratch_apply(&pp, &all, &patches, src->version, err) ||
	    state_syncing(&pp, st, &all, src, err) ||
	    tree_sync(&pp, &all, err) || state_save(&pp, st, &all, src, err))
		goto out;
	rm_rf(pp.scratch);
	ret = 0;
out:
	json_decref(st);
	free(tid);
	source_release(&user);
	strv_release(&patches);
	strv_release(&all);
	prep_paths_release(&pp);
	return ret;
}

int source_external(struct source *src, const char *dir, struct sf_err *err)
{
	char *rp = realpath(dir, NULL), *mk = NULL;
	struct stat st;

	if (!rp || stat(rp, &st))
		goto fail_errno;
	if (!S_ISDIR(st.st_mode)) {
		errno = ENOTDIR;
		goto fail_errno;
	}
	mk = xstrfmt("%s/Makefile", rp);
	if (stat(mk, &st) || !S_ISREG(st.st_mode)) {
		err_set(err, "'%s' is not a kernel tree (no Makefile)", dir);
		goto fail;
	}
	free(mk);
	src->dir = rp;
	src->version = xstrdup("external");
	src->series_hash = xstrdup("");
	src->content_id = NULL;
	return 0;
fail_errno:
	err_set(err, "'%s': %s", dir, strerror(errno));
fail:
	free(mk);
	free(rp);
	return -1;
}

int source_series_hash(const char *series, char **hex, struct sf_err *err)
{
	struct source src = SOURCE_INIT;
	struct strv patches = STRV_INIT;
	uint64_t h = HASH_INIT;

	*hex = NULL;
	if (!series_id(&src, series, &patches, &h, err))
		*hex = xstrdup(src.series_hash);
	strv_release(&patches);
	source_release(&src);
	return *hex ? 0 : -1;
}

json_t *source_inputs(const struct source *src)
{
	const char *series = src->series_hash ? src->series_hash : "";
	json_t *in = json_pack("{s:s, s:s}",
			       "source", src->version ? src->version : "",
			       "series", series);

	/* none for a user's tree: its version and series say what it is */
	if (src->sha256)
		json_object_set_new(in, "source_sha256",
				    json_string(src->sha256));
	return in;
}

int source_patchset_hash(const char *series, const char *sums,
			 char hex[65], struct sf_err *err)
{
	struct strv patches = STRV_INIT;
	char *text = xstrdup(""), *more;
	int ret = -1;

	hex[0] = '\0';
	if (series_read(series, &patches, NULL, err))
		goto out;
	for (size_t i = 0; i < patches.n; i++) {
		if (proc_sha256(patches.v[i], hex, err))
			goto out;
		more = xstrfmt("%s%s\n", text, hex);
		free(text);
		text = more;
	}
	hex[0] = '\0';
	if (file_write_atomic(sums, text, strlen(text))) {
		err_set(err, "cannot write '%s': %s", sums, strerror(errno));
		goto out;
	}
	ret = patches.n ? proc_sha256(sums, hex, err) : 0;
out:
	if (ret)
		hex[0] = '\0';
	free(text);
	strv_release(&patches);
	return ret;
}

void source_release(struct source *src)
{
	free(src->dir);
	free(src->version);
	free(src->series_hash);
	free(src->content_id);
	free(src->kconfig_id);
	free(src->tarball_id);
	free(src->sha256);
	memset(src, 0, sizeof(*src));
}
