// SPDX-License-Identifier: GPL-2.0
/* Fetches a kernel source's .deb from a Debian suite, apt's state our own. */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jsonfile.h"
#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/fetch.h"
#include "pipeline/source.h"
#include "snapshotter/text.h"

/* The update fetched 40 MB of lists in 6 s here; a .deb 167 MB in 2 s. */
#define UPDATE_TIMEOUT 600.0
#define DOWNLOAD_TIMEOUT 1800.0
#define QUERY_TIMEOUT 120.0
#define LOG_LINES 6

int fetch_spec_of(const struct settings *s, struct fetch_spec *sp)
{
	size_t len;

	if (!s->src_suite)
		return 0;
	len = strlen(s->src_suite);
	*sp = (struct fetch_spec){
		.package = s->src_package, .suite = s->src_suite,
		.version = s->src_version, .sha256 = s->src_sha256,
		.archive = s->src_archive, .keyring = s->src_keyring,
	};
	if (!sp->archive)
		sp->archive = len > 9 && !strcmp(s->src_suite + len - 9,
						 "-security") ?
			FETCH_ARCHIVE_SECURITY : FETCH_ARCHIVE;
	if (!sp->keyring)
		sp->keyring = FETCH_KEYRING;
	return 1;
}

/* @s with each character other than [a-z0-9.-] made '_', malloc'd. */
static char *name_part(const char *s)
{
	char *n = xstrdup(s);

	for (char *p = n; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789.-", *p))
			*p = '_';
	return n;
}

char *fetch_name(const struct fetch_spec *sp)
{
	char *part = name_part(sp->version ? sp->version : sp->suite);
	char *name = xstrfmt("%s_%s", sp->package, part);

	free(part);
	return name;
}

char *config_source_name(const struct settings *s)
{
	struct fetch_spec sp;

	if (fetch_spec_of(s, &sp))
		return fetch_name(&sp);
	return source_name(s->src_tarball ? s->src_tarball :
			   SOURCE_DEFAULT_TARBALL);
}

/* apt's state for one suite of one archive and keyring, in BUILD/apt/. */
struct apt {
	const struct fetch_spec *sp;
	char *dir, *log, *updated;
	struct strv opts;	/* the -o options every apt command gets */
};

static void apt_init(struct apt *a, const char *build,
		     const struct fetch_spec *sp)
{
	uint64_t h = hash_str(hash_str(HASH_INIT, sp->archive), sp->keyring);
	char *id = xstrfmt("%s-%08llx", sp->suite,
			   (unsigned long long)(h & 0xffffffff));
	char *sources, *lists, *cache, *prefs;

	memset(a, 0, sizeof(*a));
	a->sp = sp;
	a->dir = path_apt(build, id);
	a->log = path_apt_log(a->dir);
	a->updated = path_apt_updated(a->dir);
	sources = path_apt_sources(a->dir);
	lists = path_apt_lists(a->dir);
	cache = path_apt_cache(a->dir);
	prefs = path_apt_prefs(a->dir);
	/*
	 * Only our list: no system source, list, cache or pin (preferences)
	 * is used, and nothing is written under /etc or /var.
	 */
	strv_push(&a->opts, "-o");
	strv_push(&a->opts, "Dir::Etc::SourceList=/dev/null");
	strv_push(&a->opts, "-o");
	strv_pushf(&a->opts, "Dir::Etc::SourceParts=%s", sources);
	strv_push(&a->opts, "-o");
	strv_pushf(&a->opts, "Dir::State::Lists=%s", lists);
	strv_push(&a->opts, "-o");
	strv_pushf(&a->opts, "Dir::Cache=%s", cache);
	strv_push(&a->opts, "-o");
	strv_push(&a->opts, "Dir::Etc::Preferences=/dev/null");
	strv_push(&a->opts, "-o");
	strv_pushf(&a->opts, "Dir::Etc::PreferencesParts=%s", prefs);
	/* the package lists alone: no translations */
	strv_push(&a->opts, "-o");
	strv_push(&a->opts, "Acquire::Languages=none");
	free(id);
	free(sources);
	free(lists);
	free(cache);
	free(prefs);
}

static void apt_release(struct apt *a)
{
	free(a->dir);
	free(a->log);
	free(a->updated);
	strv_release(&a->opts);
}

/* Its directories and deb822 file (the matrix's values, checked). */
static int apt_setup(struct apt *a, struct sf_err *err)
{
	char *(*const dirs[])(const char *) = {
		path_apt_sources, path_apt_lists_partial,
		path_apt_archives_partial, path_apt_prefs,
	};
	char *file = path_apt_sources_file(a->dir), *text;
	int ret = 0;

	for (size_t i = 0; !ret && i < ARRAY_SIZE(dirs); i++) {
		char *d = dirs[i](a->dir);

		if (mkdir_p(d))
			ret = err_set(err, "cannot create '%s': %s", d,
				      strerror(errno));
		free(d);
	}
	text = xstrfmt("Types: deb\nURIs: %s\nSuites: %s\nComponents: main\nSigned-By: %s\n",
		       a->sp->archive, a->sp->suite, a->sp->keyring);
	if (!ret && file_update(file, text, strlen(text)) < 0)
		ret = err_set(err, "cannot write '%s': %s", file,
			      strerror(errno));
	free(text);
	free(file);
	return ret;
}

/*
 * PROG OPTIONS ARGS... in @dir (or anywhere), its output in the log.
 * Return: 0, or -1 with @err naming the log and its last lines.
 */
static int apt_run(struct apt *a, const char *prog, const char *const *args,
		   const char *dir, double timeout, struct sf_err *err)
{
	struct strv argv = STRV_INIT;
	struct proc p = PROC_INIT;
	char *what = xstrfmt("'%s %s' of %s from %s", prog, args[0],
			     a->sp->suite, a->sp->archive);
	int ret;

	strv_push(&argv, prog);
	strv_extend(&argv, &a->opts);
	for (size_t i = 0; args[i]; i++)
		strv_push(&argv, args[i]);
	p.argv = strv_argv(&argv);
	p.dir = dir;
	p.out_path = a->log;
	p.err_to_out = 1;
	p.timeout = timeout;
	ret = proc_run_logged(&p, what, LOG_LINES, err);
	free(what);
	strv_release(&argv);
	return ret;
}

static int apt_update(struct apt *a, struct sf_err *err)
{
	/*
	 * A list whose signature fails is only a warning to apt, which
	 * keeps the lists of the last update: an error here, or a rerun
	 * would go on with a list the archive no longer signs.
	 */
	const char *args[] = { "update", "--error-on=any", NULL };

	unlink(a->updated);
	/* apt would read a FIFO or a device until its timeout */
	if (input_check(a->sp->keyring, SIZE_MAX, err))
		return err_context(err, "kernel.keyring ");
	if (apt_run(a, "apt-get", args, NULL, UPDATE_TIMEOUT, err))
		return -1;
	if (file_write_atomic(a->updated, "", 0))
		return err_set(err, "cannot write '%s': %s", a->updated,
			       strerror(errno));
	return 0;
}

/*
 * The versions of @a's package the list has, newest first, as `apt-cache
 * madison` gives them ("PKG | VERSION | ARCHIVE SUITE/main all Packages").
 */
static int apt_versions(struct apt *a, struct strv *have, struct sf_err *err)
{
	struct strv argv = STRV_INIT;
	char out[16384], *line, *save = NULL;
	int ret;

	strv_push(&argv, "apt-cache");
	strv_extend(&argv, &a->opts);
	strv_push(&argv, "madison");
	strv_push(&argv, a->sp->package);
	ret = proc_capture(strv_argv(&argv), QUERY_TIMEOUT, out, sizeof(out),
			   err);
	strv_release(&argv);
	if (ret)
		return -1;
	for (line = strtok_r(out, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char pkg[256], ver[256];

		if (sscanf(line, " %255s | %255s |", pkg, ver) == 2 &&
		    !strcmp(pkg, a->sp->package) && !strv_has(have, ver))
			strv_push(have, ver);
	}
	return 0;
}

/* The .deb's record is there and says @version: @out filled from it. */
static int record_read(const char *deb, const char *version,
		       struct fetched *out)
{
	char *path = path_deb_record(deb);
	struct sf_err why = SF_ERR_INIT;	/* unused: fetched again */
	const char *v, *h;
	json_t *j = NULL;
	int ok;

	ok = !json_file_read(path, &j, &why);
	v = json_string_value(json_object_get(j, "version"));
	h = json_string_value(json_object_get(j, "sha256"));
	ok = ok && v && h && !strcmp(v, version) &&
	     strspn(h, "0123456789abcdef") == 64 && !h[64];
	if (ok) {
		out->version = xstrdup(v);
		out->sha256 = xstrdup(h);
	}
	json_decref(j);
	free(path);
	return ok;
}

/* The one .deb apt-get download left in @dir, malloc'd, or NULL. */
static char *deb_file(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *found = NULL;

	while (d && !found && (e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len > 4 && !strcmp(e->d_name + len - 4, ".deb"))
			found = xstrfmt("%s/%s", dir, e->d_name);
	}
	if (d)
		closedir(d);
	return found;
}

static int pin_check(const struct fetch_spec *sp, const char *version,
		     const char *sha256, struct sf_err *err)
{
	if (!sp->sha256 || !strcmp(sp->sha256, sha256))
		return 0;
	return err_set(err, "kernel.sha256: %s %s from %s has sha256 %s, the matrix pins %s",
		       sp->package, version, sp->suite, sha256, sp->sha256);
}

/*
 * @version downloaded and checked into @deb.new, extracted there, its
 * record written last, then renamed to @deb: a directory with a record is
 * a whole, verified fetch.
 */
static int download(struct apt *a, const char *version, const char *deb,
		    struct fetched *out, struct sf_err *err)
{
	char *tmp = path_deb_new(deb), *root = path_deb_root(tmp);
	char *want = xstrfmt("%s=%s", a->sp->package, version);
	char *path = NULL, *record = path_deb_record(tmp), *tarball = NULL;
	char fields[1024], sha[65];
	struct stat st;
	const char *dl[] = { "download", want, NULL };
	json_t *j;
	int ret = -1;

	rm_rf(tmp);
	if (mkdir_p(tmp)) {
		err_set(err, "cannot create '%s': %s", tmp, strerror(errno));
		goto out;
	}
	if (apt_run(a, "apt-get", dl, tmp, DOWNLOAD_TIMEOUT, err))
		goto out;
	path = deb_file(tmp);
	if (!path) {
		err_set(err, "'apt-get download %s' left no .deb in '%s'",
			want, tmp);
		goto out;
	}
	{
		const char *f[] = { "dpkg-deb", "-f", path, "Package",
				    "Version", NULL };
		char *expect = xstrfmt("Package: %s\nVersion: %s",
				       a->sp->package, version);
		int bad = proc_capture(f, QUERY_TIMEOUT, fields,
				       sizeof(fields), err);

		if (!bad && strcmp(fields, expect))
			bad = err_set(err, "'%s' is not %s %s (its control file: %s)",
				      path, a->sp->package, version, fields);
		free(expect);
		if (bad)
			goto out;
	}
	if (proc_sha256(path, sha, err) || pin_check(a->sp, version, sha, err))
		goto out;
	{
		const char *x[] = { "dpkg-deb", "-x", path, root, NULL };
		char buf[256];

		if (proc_capture(x, DOWNLOAD_TIMEOUT, buf, sizeof(buf), err))
			goto out;
	}
	/*
	 * The tarball itself, not a link: the farm would build what it
	 * points to, outside the .deb, as this version and sha256.
	 */
	tarball = path_deb_tarball(root, a->sp->package);
	if (lstat(tarball, &st)) {
		err_set(err, "%s %s has no /usr/src/%s.tar.xz (not a linux-source package?)",
			a->sp->package, version, a->sp->package);
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		err_set(err, "%s %s's /usr/src/%s.tar.xz is %s, not the tarball",
			a->sp->package, version, a->sp->package,
			S_ISLNK(st.st_mode) ? "a symbolic link" :
			file_kind(st.st_mode));
		goto out;
	}
	j = json_pack("{s:s, s:s, s:s, s:s, s:s}", "package", a->sp->package,
		      "version", version, "sha256", sha, "suite", a->sp->suite,
		      "archive", a->sp->archive);
	ret = json_file_write(record, j, err);
	json_decref(j);
	if (ret)
		goto out;
	ret = -1;
	rm_rf(deb);
	if (rename(tmp, deb)) {
		err_set(err, "cannot rename '%s': %s", tmp, strerror(errno));
		goto out;
	}
	out->version = xstrdup(version);
	out->sha256 = xstrdup(sha);
	ret = 0;
out:
	if (ret)
		rm_rf(tmp);
	free(tmp);
	free(root);
	free(want);
	free(path);
	free(record);
	free(tarball);
	return ret;
}

/* The suite moved on to another package line (linux-source-7.4). */
static int no_package(const struct fetch_spec *sp, struct sf_err *err)
{
	return err_set(err, "kernel.package: %s from %s has no %s any more (name the package it has now)",
		       sp->suite, sp->archive, sp->package);
}

/* The suite's current version is not one the matrix could pin. */
static int version_bad(const struct fetch_spec *sp, const char *version,
		       struct sf_err *err)
{
	const char *why = matrix_version_problem(version);
	char shown[80];

	if (!why)
		return 0;
	return err_set(err, "kernel.version: %s from %s has %s at version %s, which %s",
		       sp->suite, sp->archive, sp->package,
		       str_quote(shown, sizeof(shown), version), why);
}

int fetch_source(const char *build, const struct fetch_spec *sp,
		 int refresh, struct fetched *out, struct sf_err *err)
{
	struct strv have = STRV_INIT;
	char *want = NULL, *name = NULL, *deb = NULL, *root;
	int updated = 0, ret = -1;
	struct apt a;

	apt_init(&a, build, sp);
	if (apt_setup(&a, err))
		goto out;
	if (!sp->version) {
		/* the suite's current version, as the list last said */
		if ((refresh || !path_exists(a.updated)) && !updated++ &&
		    apt_update(&a, err))
			goto out;
		if (apt_versions(&a, &have, err))
			goto out;
	}
	for (;;) {
		if (sp->version || have.n) {
			free(want);
			free(name);
			free(deb);
			/* the archive's: it names paths under BUILD too */
			if (!sp->version && version_bad(sp, have.v[0], err))
				goto out;
			want = xstrdup(sp->version ? sp->version : have.v[0]);
			name = xstrfmt("%s_%s", sp->package, want);
			deb = path_deb(build, name);
			if (record_read(deb, want, out))
				break;
		}
		if (updated++)
			break;
		/*
		 * Not fetched yet, or not in a list older than the package:
		 * the list as the archive has it now
		 */
		strv_release(&have);
		if (apt_update(&a, err) || apt_versions(&a, &have, err))
			goto out;
	}
	if (!out->version) {
		if (!strv_has(&have, want)) {
			if (have.n)
				err_set(err, "kernel.version: %s %s is not in %s: it has %s now (pin that)",
					sp->package, want, sp->suite,
					have.v[0]);
			else
				no_package(sp, err);
			goto out;
		}
		if (download(&a, want, deb, out, err))
			goto out;
	}
	if (pin_check(sp, want, out->sha256, err))
		goto out;
	root = path_deb_root(deb);
	out->tarball = path_deb_tarball(root, sp->package);
	free(root);
	ret = 0;
out:
	if (ret)
		fetched_release(out);
	strv_release(&have);
	free(want);
	free(name);
	free(deb);
	apt_release(&a);
	return ret;
}

void fetched_release(struct fetched *fd)
{
	free(fd->version);
	free(fd->sha256);
	free(fd->tarball);
	memset(fd, 0, sizeof(*fd));
}
