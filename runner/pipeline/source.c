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

#include "lib/proc.h"
#include "pipeline/source.h"

#define STATE_NAME ".sysfarm-state.json"
/* dpkg -S reads every package's file list: seconds on a large system. */
#define DPKG_TIMEOUT 60.0

int series_read(const char *series, struct strv *patches,
		struct strv *subjects, struct sf_err *err)
{
	char *buf, *line, *save = NULL, *dir, *slash;
	int lineno = 0, ret = 0, bad;

	buf = input_read(series, INPUT_MAX_TEXT, NULL, &bad, err);
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
		char *p, *end, *path, *rp;
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
			ret = err_set(err, "%s:%d:%d: one patch file name per line (options are not supported)",
				      series, lineno,
				      (int)(end + strspn(end, " \t") - line) + 1);
			break;
		}
		*end = '\0';
		path = *p == '/' ? xstrdup(p) : xstrfmt("%s/%s", dir, p);
		rp = realpath(path, NULL);
		free(path);
		if (!rp) {
			ret = err_set(err, "%s:%d:%d: no patch file '%s'",
				      series, lineno, col, p);
			break;
		}
		/* patch(1) reads it: a FIFO or a device would hang it. */
		if (input_check(rp, INPUT_MAX_BLOB, err)) {
			char *why = xstrdup(err->msg);

			ret = err_set(err, "%s:%d:%d: %s", series, lineno, col,
				      why);
			free(why);
			free(rp);
			break;
		}
		strv_push(patches, rp);
		if (subjects) {
			char *text = file_read(rp, NULL), *s, *e;

			s = text ? strstr(text, "\nSubject: ") : NULL;
			if (s) {
				s += 10;
				e = s + strcspn(s, "\n");
				*e = '\0';
				if (*s == '[' && strchr(s, ']'))
					s = strchr(s, ']') + 1 +
					    (strchr(s, ']')[1] == ' ');
			}
			strv_push(subjects, s ? s : "");
			free(text);
		}
		free(rp);
	}
	free(dir);
	free(buf);
	return ret;
}

/* Files a patch creates, changes or deletes, from its diff headers. */
static void patch_files(const char *patch, struct strv *files)
{
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
			if (strcmp(p, "/dev/null") && slash) {
				int seen = 0;

				for (size_t i = 0; i < files->n; i++)
					seen |= !strcmp(files->v[i], slash + 1);
				if (!seen)
					strv_push(files, slash + 1);
			}
		}
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

static int strv_has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

static int extract(const char *build, const char *tarball,
		   struct sf_err *err)
{
	char *tmp = xstrfmt("%s/src.new", build);
	char *src = xstrfmt("%s/src", build);
	char *pristine = xstrfmt("%s/pristine", build);
	char *log = xstrfmt("%s/extract.log", build);
	const char *argv[] = { "tar", "-xf", tarball, "-C", tmp,
			       "--strip-components=1", NULL };
	struct proc p = PROC_INIT;
	int code, ret = -1;

	if (rm_rf(tmp) || mkdir_p(tmp)) {
		err_set(err, "cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	p.argv = argv;
	p.out_path = log;
	p.err_to_out = 1;
	if (proc_run(&p, &code) != PROC_EXITED || code) {
		err_set(err, "cannot extract '%s' (see %s)", tarball, log);
		goto out;
	}
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

/* "6.1.190" from the top Makefile of the tree in DIR, malloc'd, or NULL. */
static char *tree_version(const char *dir)
{
	static const char *const keys[] = {
		"VERSION = ", "PATCHLEVEL = ", "SUBLEVEL = ", "EXTRAVERSION ="
	};
	char *mk = xstrfmt("%s/Makefile", dir);
	char *text = file_read(mk, NULL), *line, *next;
	char part[4][32] = { "", "", "", "" };

	free(mk);
	for (line = text; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		for (size_t i = 0; i < ARRAY_SIZE(keys); i++)
			if (!*part[i] && !strncmp(line, keys[i], strlen(keys[i])))
				snprintf(part[i], sizeof(part[i]), "%s",
					 line + strlen(keys[i]) +
					 (line[strlen(keys[i])] == ' '));
		if (!strncmp(line, "NAME = ", 7))
			break;
	}
	free(text);
	if (!*part[0] || !*part[1])
		return NULL;
	return xstrfmt("%s.%s%s%s%s", part[0], part[1], *part[2] ? "." : "",
		       part[2], part[3]);
}

/*
 * "linux-source-6.1 6.1.192-3" for a tarball dpkg installed, NULL for one
 * it does not know.
 */
static char *package_version(const char *tarball)
{
	const char *argv[] = { "dpkg", "-S", tarball, NULL };
	char pkg[256], ver[256];
	struct sf_err unowned;	/* unused: the caller falls back */

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

int source_prepare(struct source *src, const char *build,
		   const char *tarball, const char *series,
		   struct sf_err *err)
{
	struct strv patches = STRV_INIT, touched = STRV_INIT, all = STRV_INIT;
	char *srcdir = xstrfmt("%s/src", build);
	char *state_path = xstrfmt("%s/%s", srcdir, STATE_NAME);
	char *scratch = xstrfmt("%s/src.scratch", build);
	char *last_path = xstrfmt("%s/series-applied-on", build);
	char *log = xstrfmt("%s/patch.log", build);
	char tid[64], hex[17];
	uint64_t h = HASH_INIT;
	json_t *st, *arr, *v;
	struct stat tst;
	size_t i;
	int ret = -1;

	src->dir = xstrdup(srcdir);
	src->version = package_version(tarball);
	if (stat(tarball, &tst) < 0) {
		err_set(err, "no kernel source '%s' (run 'make deps')",
			tarball);
		goto out;
	}
	snprintf(tid, sizeof(tid), "%lld:%lld", (long long)tst.st_size,
		 (long long)tst.st_mtime);
	if (series_read(series, &patches, NULL, err)) {
		ret = -2;
		goto out;
	}
	for (i = 0; i < patches.n; i++) {
		const char *base = strrchr(patches.v[i], '/') + 1;

		h = hash_str(h, base);
		if (hash_file(&h, patches.v[i])) {
			err_set(err, "%s: cannot read: %s", patches.v[i],
				strerror(errno));
			goto out;
		}
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	src->series_hash = xstrdup(hex);
	h = hash_str(h, tid);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	src->content_id = xstrdup(hex);
	src->tarball_id = xstrdup(tid);

	st = state_load(state_path);
	if (!st || strcmp(state_str(st, "tarball"), tid)) {
		json_decref(st);
		if (extract(build, tarball, err))
			goto out;
		st = json_pack("{s:s, s:s, s:[]}", "tarball", tid,
			       "series", "", "touched");
	}
	if (!src->version) {
		char *tv = tree_version(srcdir);

		src->version = xstrfmt("%s %s (no dpkg package owns it)",
				       tarball, tv ? tv : "(no version)");
		free(tv);
	}
	if (!strcmp(state_str(st, "series"), hex)) {
		json_decref(st);
		ret = 0;
		goto out;
	}

	for (i = 0; i < patches.n; i++)
		patch_files(patches.v[i], &touched);
	json_array_foreach(json_object_get(st, "touched"), i, v)
		strv_push(&all, json_string_value(v));
	/* First time a file is touched: what is there now is pristine. */
	for (i = 0; i < touched.n; i++) {
		char *from, *to;

		if (strv_has(&all, touched.v[i]))
			continue;
		strv_push(&all, touched.v[i]);
		from = xstrfmt("%s/%s", srcdir, touched.v[i]);
		to = xstrfmt("%s/pristine/%s", build, touched.v[i]);
		if (path_exists(from) && copy_file(from, to)) {
			err_set(err, "cannot save '%s': %s", to,
				strerror(errno));
			free(from);
			free(to);
			goto out_state;
		}
		free(from);
		free(to);
	}

	if (rm_rf(scratch) || mkdir_p(scratch)) {
		err_set(err, "cannot create '%s': %s", scratch,
			strerror(errno));
		goto out_state;
	}
	for (i = 0; i < all.n; i++) {
		char *from = xstrfmt("%s/pristine/%s", build, all.v[i]);
		char *to = xstrfmt("%s/%s", scratch, all.v[i]);
		int bad = path_exists(from) && copy_file(from, to);

		free(from);
		free(to);
		if (bad) {
			err_set(err, "cannot copy into '%s': %s", scratch,
				strerror(errno));
			goto out_state;
		}
	}
	if (apply_series(scratch, &patches, log, err)) {
		char *last = file_read(last_path, NULL);

		if (last && strcmp(last, src->version)) {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n,
				 " (the series last applied on %s; the source is now %s)",
				 last, src->version);
		} else {
			size_t n = strlen(err->msg);

			snprintf(err->msg + n, sizeof(err->msg) - n,
				 " (source %s)", src->version);
		}
		free(last);
		goto out_state;
	}

	/* Rewrite only what differs: unchanged files keep their mtime. */
	for (i = 0; i < all.n; i++) {
		char *from = xstrfmt("%s/%s", scratch, all.v[i]);
		char *to = xstrfmt("%s/%s", srcdir, all.v[i]);
		int bad = 0;

		if (!same_content(from, to)) {
			if (path_exists(from))
				bad = copy_file(from, to);
			else
				bad = unlink(to) && errno != ENOENT;
		}
		free(from);
		free(to);
		if (bad) {
			err_set(err, "cannot update '%s': %s", srcdir,
				strerror(errno));
			goto out_state;
		}
	}
	arr = json_array();
	for (i = 0; i < all.n; i++)
		json_array_append_new(arr, json_string(all.v[i]));
	json_object_set_new(st, "touched", arr);
	json_object_set_new(st, "series", json_string(hex));
	{
		char *text = json_dumps(st, JSON_INDENT(1) | JSON_SORT_KEYS);

		if (!text || file_write_atomic(state_path, text, strlen(text)) ||
		    file_write_atomic(last_path, src->version,
				      strlen(src->version))) {
			err_set(err, "cannot write '%s': %s", state_path,
				strerror(errno));
			free(text);
			goto out_state;
		}
		free(text);
	}
	rm_rf(scratch);
	ret = 0;
out_state:
	json_decref(st);
out:
	strv_release(&patches);
	strv_release(&touched);
	strv_release(&all);
	free(srcdir);
	free(state_path);
	free(scratch);
	free(last_path);
	free(log);
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

void source_release(struct source *src)
{
	free(src->dir);
	free(src->version);
	free(src->series_hash);
	free(src->content_id);
	free(src->tarball_id);
	memset(src, 0, sizeof(*src));
}
