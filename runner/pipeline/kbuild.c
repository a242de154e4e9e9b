// SPDX-License-Identifier: GPL-2.0
/* Configures, verifies and builds one kernel per build key. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/jsonfile.h"
#include "lib/kconfig.h"
#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/fetch.h"
#include "pipeline/kbuild.h"

#define LOG_TAIL_LINES 15
/* Part of the build stamp: change it when kmake()'s flags change. */
#define KBUILD_RECIPE "3: sysfarm-cc, ccache's depend mode"

/* Reproducible builds: the same inputs give the same image. */
static const char *const build_env[] = {
	"KBUILD_BUILD_TIMESTAMP=Thu Jan  1 00:00:00 UTC 1970",
	"KBUILD_BUILD_USER=sysfarm",
	"KBUILD_BUILD_HOST=sysfarm",
	"KBUILD_BUILD_VERSION=1",
	"CCACHE_SLOPPINESS=time_macros",
	/* Our own make's jobserver must not leak into the kernel's. */
	"MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES",
	NULL
};

#define CROSS_COMPILE_MAX 255	/* characters: a deep toolchain path fits */

/*
 * A prefix reaches make's command line as CROSS_COMPILE= and CC=, and
 * from there recipes run by make's shell: it must be one word of plain
 * characters. ccache would take a leading '-' for an option, and make
 * runs in the kernel tree, where a relative path names another file than
 * the one whose version was read here.
 */
int kbuild_check_cross_compile(const char *prefix, struct sf_err *err)
{
	size_t bad = strspn(prefix, "abcdefghijklmnopqrstuvwxyz"
				    "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_./+-");
	unsigned char c = prefix[bad];

	if (c && isprint(c))
		return err_set(err, "holds '%c': a toolchain prefix may hold only letters, digits and _./+-",
			       c);
	if (c)
		return err_set(err, "holds the byte 0x%02x: a toolchain prefix may hold only letters, digits and _./+-",
			       c);
	if (strlen(prefix) > CROSS_COMPILE_MAX)
		return err_set(err, "is longer than %d characters",
			       CROSS_COMPILE_MAX);
	if (prefix[0] == '-')
		return err_set(err, "starts with '-', which ccache would take for an option");
	if (prefix[0] != '/' && strchr(prefix, '/'))
		return err_set(err, "is the relative path '%s', which make would resolve in the kernel tree: give an absolute path or a name to look up in PATH",
			       prefix);
	return 0;
}

int kbuild_check_matrix(const struct matrix *m, struct sf_err *err)
{
	struct sf_err why = SF_ERR_INIT;
	char text[ERR_FORMAT_MAX];

	for (size_t i = 0; i < m->nconfigs; i++) {
		const struct config *c = &m->configs[i];

		if (!c->s.cross_compile ||
		    !kbuild_check_cross_compile(c->s.cross_compile, &why))
			continue;
		/* The last axis value that sets it, if it is the one */
		for (size_t a = m->naxes; a-- > 0; ) {
			const struct axis_value *av =
				&m->axes[a].values[c->value[a]];

			if (!av->s.cross_compile)
				continue;
			if (!strcmp(av->s.cross_compile, c->s.cross_compile))
				return err_at(err, ERR_INPUT, m->path,
					      av->line, av->col,
					      "kernel.cross_compile of '%s: %s' %s",
					      m->axes[a].name, av->name,
					      err_format(&why, text,
							 sizeof(text)));
			break;
		}
		return err_at(err, ERR_INPUT, m->path, 0, 0,
			      "kernel.cross_compile of configuration '%s' %s",
			      c->name, err_format(&why, text, sizeof(text)));
	}
	return 0;
}

const char *kbuild_compiler(const struct config *c, struct sf_err *err)
{
	char *cc = xstrfmt("%sgcc", c->s.cross_compile ? c->s.cross_compile : "");
	const char *v = proc_version(cc, err);

	free(cc);
	return v;
}

/* The series a matrix names, as one string: its real path if it has one. */
static char *series_identity(const struct matrix *m, const char *series)
{
	char *path, *real;

	if (!series)
		return xstrdup("");
	path = matrix_file(m, series);
	real = realpath(path, NULL);
	if (!real)
		return path;
	free(path);
	return real;
}

int kbuild_key(const struct matrix *m, struct config *c, struct sf_err *err)
{
	const char *cross = c->s.cross_compile ? c->s.cross_compile : "";
	struct sf_err why = SF_ERR_INIT;	/* unknown: hashed so */
	const char *compiler = kbuild_compiler(c, &why);
	uint64_t h = HASH_INIT, k;
	struct fetch_spec sp;
	char *name;

	/*
	 * The source: its tarball and the series the matrix gives it (by
	 * name, not content: a series edit is an incremental build, and
	 * --series, a bisect's, keeps the kernel directory). The series by
	 * its real path: a matrix elsewhere naming the same file shares the
	 * kernel.
	 */
	name = config_source_name(&c->s);
	h = hash_str(h, name);
	k = hash_str(HASH_INIT, name);
	free(name);
	h = hash_str(h, c->s.src_tarball ? c->s.src_tarball : "");
	/*
	 * A fetched source by where it comes from and its pin (not by the
	 * version an unpinned one fetched: list fetches nothing); its tree
	 * starts afresh when the tarball changes, as an installed one's.
	 */
	if (fetch_spec_of(&c->s, &sp)) {
		const char *const from[] = { sp.suite, sp.archive,
					     sp.version ? sp.version : "" };

		for (size_t i = 0; i < ARRAY_SIZE(from); i++) {
			h = hash_str(h, from[i]);
			k = hash_str(k, from[i]);
		}
	}
	name = series_identity(m, c->s.src_series);
	h = hash_str(h, name);
	free(name);
	h = hash_str(h, c->s.kernel_arch);
	h = hash_str(h, cross);
	h = hash_str(h, compiler ? compiler : "unknown");
	/*
	 * The kernel id: the same but the compiler (a machine that only
	 * boots may lack it), and the series as the matrix writes it, not
	 * where it is (a checkout elsewhere finds the kernel a build job
	 * left).
	 */
	k = hash_str(k, c->s.src_tarball ? c->s.src_tarball : "");
	k = hash_str(k, c->s.src_series ? c->s.src_series : "");
	k = hash_str(k, c->s.kernel_arch);
	k = hash_str(k, cross);
	for (size_t i = 0; i < c->s.fragments.n; i++) {
		char *path = matrix_file(m, c->s.fragments.v[i]);
		int r = hash_file(&h, path);

		if (!r)
			r = hash_file(&k, path);
		if (r)
			err_set(err, "%s: cannot read: %s", path,
				strerror(errno));
		free(path);
		if (r)
			return -1;
	}
	snprintf(c->key, sizeof(c->key), "%016llx", (unsigned long long)h);
	c->key[12] = '\0';	/* 48 bits are plenty to tell builds apart */
	snprintf(c->kernel, sizeof(c->kernel), "%016llx",
		 (unsigned long long)k);
	return 0;
}

/*
 * What a built kernel is, beside it (path_kernel_manifest()): its key,
 * the configurations' kernel id, its image, and the inputs a snapshot's
 * header names, so that a kernel built on another machine is booted and
 * described without its source or compiler (kbuild_prebuilt()).
 */
static int manifest_write(const struct config *c, const struct source *src,
			  const char *dir, struct sf_err *err)
{
	char *cfg = path_kconfig(dir), *path = path_kernel_manifest(dir);
	const char *compiler = kbuild_compiler(c, err);
	uint64_t h = HASH_INIT;
	char hex[17];
	json_t *j;
	int ret = -1;

	if (!compiler || hash_file(&h, cfg)) {
		if (compiler)
			err_set(err, "cannot read '%s': %s", cfg,
				strerror(errno));
		goto out;
	}
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	j = json_pack("{s:s, s:s, s:s, s:o}",
		      "key", c->key, "kernel", c->kernel, "image", c->s.image,
		      "inputs", source_inputs(src));
	json_object_set_new(json_object_get(j, "inputs"), "compiler",
			    json_string(compiler));
	json_object_set_new(json_object_get(j, "inputs"), "config",
			    json_string(hex));
	ret = json_file_write(path, j, err);
	json_decref(j);
out:
	free(cfg);
	free(path);
	return ret;
}

/*
 * @kdir's manifest, if it is one: its "kernel" id a string, its "inputs"
 * the four strings a build writes and the source's sha256 when it has
 * one (a user's tree has none, a kernel an older sysfarm built neither),
 * and only those (a snapshot's header takes them as they are).
 */
static json_t *manifest_read(const char *kdir, struct sf_err *err)
{
	static const char *const names[] = { "source", "series", "compiler",
					     "config", "source_sha256" };
	char *path = path_kernel_manifest(kdir);
	json_t *j = NULL, *in, *only;

	if (json_file_read(path, &j, err))
		goto out;
	in = json_object_get(j, "inputs");
	for (size_t i = 0; json_is_object(in) && i < 4; i++)
		if (!json_is_string(json_object_get(in, names[i])))
			in = NULL;
	if (!json_is_string(json_object_get(j, "kernel")) || !in) {
		err_set(err, "%s: not a kernel's manifest (\"kernel\", and \"inputs\" with source, series, compiler and config as strings)",
			path);
		json_decref(j);
		j = NULL;
		goto out;
	}
	only = json_object();
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (json_is_string(json_object_get(in, names[i])))
			json_object_set(only, names[i],
					json_object_get(in, names[i]));
	json_object_set_new(j, "inputs", only);
out:
	free(path);
	return j;
}

int kbuild_inputs(const char *kdir, json_t **inputs, struct sf_err *err)
{
	json_t *j = manifest_read(kdir, err);

	*inputs = j ? json_incref(json_object_get(j, "inputs")) : NULL;
	json_decref(j);
	return *inputs ? 0 : -1;
}

static double mtime(const struct stat *st)
{
	return st->st_mtim.tv_sec + st->st_mtim.tv_nsec / 1e9;
}

int kbuild_prebuilt(const char *build, const struct config *c, char **dir,
		    json_t **inputs, struct sf_err *err)
{
	char *kernels = path_kernel(build, "");
	DIR *d = opendir(kernels);
	struct sf_err bad = SF_ERR_INIT;	/* the first unreadable one */
	struct dirent *e;
	double newest = -1;

	*dir = NULL;
	*inputs = NULL;
	while (d && (e = readdir(d))) {
		char *kdir = path_kernel(build, e->d_name);
		char *path = path_kernel_manifest(kdir);
		char *image = path_image(kdir, c->s.image);
		struct stat st;
		json_t *j;

		/*
		 * Another kernel's, or none: not this configuration's. Not
		 * through links either (an artifact may bring them): the
		 * directory, its manifest and image are what they say.
		 */
		j = e->d_name[0] != '.' && !lstat(kdir, &st) &&
		    S_ISDIR(st.st_mode) && !lstat(image, &st) &&
		    S_ISREG(st.st_mode) && !lstat(path, &st) &&
		    S_ISREG(st.st_mode) && mtime(&st) > newest ?
		    manifest_read(kdir, &bad) : NULL;
		if (j && !strcmp(json_string_value(json_object_get(j, "kernel")),
				 c->kernel)) {
			newest = mtime(&st);
			free(*dir);
			json_decref(*inputs);
			*dir = kdir;
			*inputs = json_incref(json_object_get(j, "inputs"));
			kdir = NULL;
		}
		json_decref(j);
		free(kdir);
		free(path);
		free(image);
	}
	if (d)
		closedir(d);
	if (!*dir && bad.kind != ERR_NONE)
		*err = bad;
	else if (!*dir)
		err_set(err, "no kernel of %s in %s (a 'sysfarm build %s' leaves one, with its image and %s)",
			c->name, kernels, c->name, "sysfarm-kernel.json");
	free(kernels);
	return *dir ? 0 : -1;
}

char *kbuild_dir(const struct kbuild *kb, const struct config *c,
		 const struct source *src)
{
	char *name, *dir;

	/* A user's tree gets its own: objects of two trees never mix. */
	if (src->content_id)
		return path_kernel(kb->build, c->key);
	name = xstrfmt("%s-%016llx", c->key,
		       (unsigned long long)hash_str(HASH_INIT, src->dir));
	dir = path_kernel(kb->build, name);
	free(name);
	return dir;
}

/* The compiler launcher (runner/cc/sysfarm-cc.c), beside this program. */
static char *launcher(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	char *slash;

	exe[n > 0 ? n : 0] = '\0';
	slash = strrchr(exe, '/');
	return xstrfmt("%.*s/sysfarm-cc", slash ? (int)(slash - exe) : 1,
		       slash ? exe : ".");
}

/* proc's done(): never done, the build's watch told instead */
static int kmake_watch(void *arg)
{
	const struct kbuild *kb = arg;

	kb->watch(kb->watch_arg);
	return 0;
}

/*
 * make -C SRC O=DIR ARCH=... CROSS_COMPILE=... CC="sysfarm-cc ..." TARGET,
 * its output appended to @log; a failure is "WHAT failed" in @err.
 */
static int kmake(const struct kbuild *kb, const struct source *src,
		 const struct config *c, const char *dir, const char *log,
		 const char *target, const char *what, struct sf_err *err)
{
	const char *cross = c->s.cross_compile ? c->s.cross_compile : "";
	struct strv argv = STRV_INIT, env = STRV_INIT;
	struct proc p = PROC_INIT;
	char *rel, *cc;
	int ret;

	strv_push(&argv, "make");
	if (!kb->jobserver)
		strv_pushf(&argv, "-j%d", kb->jobs);
	strv_pushf(&argv, "-C%s", src->dir);
	strv_pushf(&argv, "O=%s", dir);
	strv_pushf(&argv, "ARCH=%s", c->s.kernel_arch);
	strv_pushf(&argv, "CROSS_COMPILE=%s", cross);
	cc = launcher();
	strv_pushf(&argv, "CC=%s %sgcc", cc, cross);
	strv_pushf(&argv, "HOSTCC=%s gcc", cc);
	free(cc);
	/*
	 * sysfarm-cc hands the compiler the paths under ccache's base
	 * directory relative, which the kernel's -fmacro-prefix-map=
	 * $(srctree)/= does not match: map them too, or __FILE__ differs
	 * with and without ccache.
	 */
	rel = path_relative(kb->build, dir, src->dir);
	if (rel)
		strv_pushf(&argv, "KCPPFLAGS=-fmacro-prefix-map=%s/=", rel);
	free(rel);
	strv_push(&argv, target);
	for (const char *const *e = build_env; *e; e++)
		strv_push(&env, *e);
	/*
	 * A client of the farm's jobserver, as a sub-make would be. The make
	 * itself runs one job without asking: that slot is a token too, taken
	 * here and given back when it ends.
	 */
	if (kb->jobserver) {
		/* make sets the shared read end O_NONBLOCK: wait with poll */
		struct pollfd pfd = { .fd = kb->jobserver[0], .events = POLLIN };
		char token;

		while (read(kb->jobserver[0], &token, 1) < 0 &&
		       (errno == EINTR || errno == EAGAIN))
			poll(&pfd, 1, -1);
		strv_pushf(&env, "MAKEFLAGS=-j --jobserver-auth=%d,%d",
			   kb->jobserver[0], kb->jobserver[1]);
	}
	/* The user's CCACHE_DIR if set: build directories can share one. */
	if (!getenv("CCACHE_DIR")) {
		char *cache = path_ccache(kb->cache ? kb->cache : kb->build);

		strv_pushf(&env, "CCACHE_DIR=%s", cache);
		free(cache);
	}
	/* Relative paths in the hash: another checkout hits the cache too. */
	strv_pushf(&env, "CCACHE_BASEDIR=%s", kb->build);
	strv_push(&env, "CCACHE_NOHASHDIR=1");
	p.argv = strv_argv(&argv);
	p.env = strv_argv(&env);
	p.out_path = log;
	p.out_append = 1;
	p.err_to_out = 1;
	if (kb->watch) {
		p.done = kmake_watch;
		p.done_arg = (void *)kb;
	}
	ret = proc_run_logged(&p, what, LOG_TAIL_LINES, err);
	if (kb->jobserver && write(kb->jobserver[1], "+", 1) < 0 && !ret)
		ret = err_set(err, "%s: cannot give the jobserver its token back: %s",
			      what, strerror(errno));
	strv_release(&argv);
	strv_release(&env);
	return ret;
}

static int merge_fragments(const struct source *src, const struct matrix *m,
			   const struct config *c, const char *dir,
			   const char *log, struct sf_err *err)
{
	char *cfgpath = path_kconfig(dir);
	struct strv argv = STRV_INIT;
	struct proc p = PROC_INIT;
	int ret;

	strv_pushf(&argv, "%s/scripts/kconfig/merge_config.sh", src->dir);
	strv_push(&argv, "-m");
	strv_push(&argv, "-O");
	strv_push(&argv, dir);
	strv_push(&argv, cfgpath);
	for (size_t i = 0; i < c->s.fragments.n; i++) {
		char *f = matrix_file(m, c->s.fragments.v[i]);

		strv_push(&argv, f);
		free(f);
	}
	p.argv = strv_argv(&argv);
	p.dir = dir;
	p.out_path = log;
	p.out_append = 1;
	p.err_to_out = 1;
	ret = proc_run_logged(&p, "merge_config.sh", LOG_TAIL_LINES, err);
	strv_release(&argv);
	free(cfgpath);
	return ret;
}

/* Is "CONFIG_X=..." (or its absence, for "is not set") what .config says? */
static int option_survived(const char *config, const char *name,
			   const char *want)
{
	char *needle = xstrfmt("\n%s=", name);
	const char *hit = strstr(config, needle);
	int ok;

	if (!want) {
		ok = !hit;
	} else if (!hit) {
		ok = 0;
	} else {
		size_t wl = strlen(want);

		hit += strlen(needle);
		ok = !strncmp(hit, want, wl) &&
		     (hit[wl] == '\n' || hit[wl] == '\0');
	}
	free(needle);
	return ok;
}

/* kunit_tool's validate_config: every fragment line must be in .config. */
static int config_verify(const struct matrix *m, const struct config *c,
			 const char *dir, struct sf_err *err)
{
	char *cfgpath = path_kconfig(dir);
	char *body = file_read(cfgpath, NULL), *config;
	char dropped[sizeof(err->text)] = "";
	size_t used = 0;
	int bad = 0;

	config = xstrfmt("\n%s", body ? body : "");
	for (size_t i = 0; i < c->s.fragments.n; i++) {
		char *path = matrix_file(m, c->s.fragments.v[i]);
		char *text = file_read(path, NULL), *line, *next;
		int lineno = 0;

		/* Every line: a blank one does not end the fragment. */
		for (line = text; line; line = next) {
			char name[KCONFIG_NAME_MAX];
			const char *want;

			lineno++;
			next = strchr(line, '\n');
			if (next)
				*next++ = '\0';
			if (!kconfig_line(line, name, &want))
				continue;
			if (option_survived(config, name, want))
				continue;
			bad++;
			used += snprintf(dropped + used,
					 used < sizeof(dropped) ?
					 sizeof(dropped) - used : 0,
					 "%s%s (%s:%d) did not survive olddefconfig",
					 used ? "; " : "", line,
					 c->s.fragments.v[i], lineno);
			if (used >= sizeof(dropped))
				used = sizeof(dropped);
		}
		free(text);
		free(path);
	}
	free(config);
	free(body);
	free(cfgpath);
	return bad ? err_set(err, "%s", dropped) : 0;
}

/*
 * Objects built from another tarball go: its files keep the tarball's
 * mtimes, older than those objects, so after a source update make would
 * keep them and link old code under the new version string. The tarball
 * a kernel directory's objects come from is in its sysfarm-tree.stamp.
 */
static int tree_start(const char *dir, const char *tarball_id,
		      struct sf_err *err)
{
	char *path = path_tree_stamp(dir);
	char *stamp = xstrfmt("%s\n", tarball_id);
	int ret = 0;

	if (!stamp_matches(path, stamp)) {
		if (rm_rf(dir) || mkdir_p(dir) ||
		    file_write_atomic(path, stamp, strlen(stamp)))
			ret = err_set(err, "cannot start '%s' afresh: %s", dir,
				      strerror(errno));
	}
	free(path);
	free(stamp);
	return ret;
}

static char *config_stamp(const struct matrix *m, const struct config *c,
			  const struct source *src)
{
	struct sf_err err = SF_ERR_INIT;
	uint64_t h = HASH_INIT;
	const char *version;
	char *ld;

	h = hash_str(h, c->key);
	/* a series that changes only code keeps the .config */
	h = hash_str(h, src->kconfig_id ? src->kconfig_id : "external");
	/* Kconfig asks the linker its version (CONFIG_LD_VERSION) */
	ld = xstrfmt("%sld", c->s.cross_compile ? c->s.cross_compile : "");
	version = proc_version(ld, &err);
	h = hash_str(h, version ? version : "no ld");
	free(ld);
	for (size_t i = 0; i < c->s.fragments.n; i++) {
		char *path = matrix_file(m, c->s.fragments.v[i]);

		hash_file(&h, path);
		free(path);
	}
	return xstrfmt("%016llx\n", (unsigned long long)h);
}

static unsigned long objects_found;	/* by count_object(), nftw's */

static int count_object(const char *path, const struct stat *st, int type,
			struct FTW *ftw)
{
	size_t n = strlen(path);

	objects_found += type == FTW_F && n > 2 && !strcmp(path + n - 2, ".o");
	return 0;
}

/*
 * The objects of the build in @dir, recorded for the next one's progress
 * (kbuild_objects()) with what finds it for another key: the arch and the
 * tree. A record that cannot be written only costs that estimate.
 */
static void objects_record(const struct config *c, const struct source *src,
			   const char *dir)
{
	char *path = path_kernel_objects(dir), *text;

	objects_found = 0;
	if (!nftw(dir, count_object, 16, FTW_PHYS)) {
		text = xstrfmt("%lu %s %s\n", objects_found,
			       c->s.kernel_arch, src->dir);
		file_write_atomic(path, text, strlen(text));
		free(text);
	}
	free(path);
}

/* The count of the record @path if it is of @arch and @tree, else 0. */
static unsigned long objects_read(const char *path, const char *arch,
				  const char *tree)
{
	char *text = file_read(path, NULL), *end;
	unsigned long n = text ? strtoul(text, &end, 10) : 0;
	char *want = xstrfmt(" %s %s\n", arch, tree);

	if (n && (end == text || strcmp(end, want)))
		n = 0;
	free(want);
	free(text);
	return n;
}

unsigned long kbuild_objects(const struct kbuild *kb, const struct config *c,
			     const struct source *src)
{
	char *dir = kbuild_dir(kb, c, src), *path = path_kernel_objects(dir);
	char *kernels = xstrdup(dir);
	unsigned long n = objects_read(path, c->s.kernel_arch, src->dir);
	struct timespec newest = { 0 };
	struct dirent *de;
	DIR *d;

	*strrchr(kernels, '/') = '\0';
	d = n ? NULL : opendir(kernels);
	while (d && (de = readdir(d))) {
		char *other = xstrfmt("%s/%s", kernels, de->d_name);
		char *rec = path_kernel_objects(other);
		struct stat st;
		unsigned long k;

		if (de->d_name[0] != '.' && !stat(rec, &st) &&
		    (st.st_mtim.tv_sec > newest.tv_sec ||
		     (st.st_mtim.tv_sec == newest.tv_sec &&
		      st.st_mtim.tv_nsec > newest.tv_nsec)) &&
		    (k = objects_read(rec, c->s.kernel_arch, src->dir))) {
			n = k;
			newest = st.st_mtim;
		}
		free(rec);
		free(other);
	}
	if (d)
		closedir(d);
	free(kernels);
	free(path);
	free(dir);
	return n;
}

int kbuild_clean(const struct kbuild *kb, const struct config *c,
		 const struct source *src, struct sf_err *err)
{
	char *dir = kbuild_dir(kb, c, src);
	char *keep[] = { path_kconfig(dir), path_config_stamp(dir),
			 path_tree_stamp(dir) };
	DIR *d = opendir(dir);
	struct dirent *e;
	int ret = 0;

	if (!d && errno != ENOENT)
		ret = err_set(err, "cannot read '%s': %s", dir, strerror(errno));
	while (d && !ret && (e = readdir(d))) {
		char *path;
		int kept = 0;

		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		path = xstrfmt("%s/%s", dir, e->d_name);
		for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
			kept |= !strcmp(path, keep[i]);
		if (!kept && rm_rf(path))
			ret = err_set(err, "cannot remove '%s': %s", path,
				      strerror(errno));
		free(path);
	}
	if (d)
		closedir(d);
	for (size_t i = 0; i < sizeof(keep) / sizeof(*keep); i++)
		free(keep[i]);
	free(dir);
	return ret;
}

enum kbuild_status kbuild_run(const struct kbuild *kb, const struct matrix *m,
			      const struct config *c, const struct source *src,
			      struct sf_err *err)
{
	char *dir = kbuild_dir(kb, c, src);
	char *log = path_build_log(dir);
	char *cstamp_path = path_config_stamp(dir);
	char *bstamp_path = path_build_stamp(dir);
	char *image = path_image(dir, c->s.image);
	char *cfgpath = path_kconfig(dir);
	char *manifest = path_kernel_manifest(dir);
	char *cstamp = config_stamp(m, c, src), *bstamp = NULL;
	const char *target = strrchr(c->s.image, '/');
	enum kbuild_status ret = KBUILD_FAIL;
	uint64_t h = HASH_INIT;

	target = target ? target + 1 : c->s.image;
	if (src->tarball_id && tree_start(dir, src->tarball_id, err))
		goto out;
	if (mkdir_p(dir)) {
		err_set(err, "cannot create '%s': %s", dir, strerror(errno));
		goto out;
	}
	if (!src->content_id || !stamp_matches(cstamp_path, cstamp) ||
	    !path_exists(cfgpath)) {
		unlink(cstamp_path);
		unlink(manifest);
		unlink(log);
		if (kmake(kb, src, c, dir, log, "tinyconfig",
			  "make tinyconfig", err) ||
		    merge_fragments(src, m, c, dir, log, err) ||
		    kmake(kb, src, c, dir, log, "olddefconfig",
			  "make olddefconfig", err))
			goto out;
		if (config_verify(m, c, dir, err)) {
			ret = KBUILD_CONFIG_FAIL;
			goto out;
		}
		if (file_write_atomic(cstamp_path, cstamp, strlen(cstamp))) {
			err_set(err, "cannot write '%s': %s", cstamp_path,
				strerror(errno));
			goto out;
		}
	}
	h = hash_str(h, cstamp);
	/* the tree's content: the configuration's inputs are not all */
	h = hash_str(h, src->content_id ? src->content_id : "external");
	h = hash_str(h, KBUILD_RECIPE);
	if (hash_file(&h, cfgpath)) {
		err_set(err, "cannot read '%s': %s", cfgpath, strerror(errno));
		goto out;
	}
	bstamp = xstrfmt("%016llx\n", (unsigned long long)h);
	if (src->content_id && stamp_matches(bstamp_path, bstamp) &&
	    path_exists(image)) {
		ret = manifest_write(c, src, dir, err) ? KBUILD_FAIL :
		      KBUILD_UP_TO_DATE;
		goto out;
	}
	unlink(bstamp_path);
	/* a build that fails leaves no kernel for --prebuilt to boot */
	unlink(manifest);
	if (kmake(kb, src, c, dir, log, target, "kernel build", err))
		goto out;
	if (file_write_atomic(bstamp_path, bstamp, strlen(bstamp))) {
		err_set(err, "cannot write '%s': %s", bstamp_path,
			strerror(errno));
		goto out;
	}
	if (manifest_write(c, src, dir, err))
		goto out;
	objects_record(c, src, dir);
	ret = KBUILD_OK;
out:
	free(dir);
	free(log);
	free(cstamp_path);
	free(bstamp_path);
	free(image);
	free(cfgpath);
	free(manifest);
	free(cstamp);
	free(bstamp);
	return ret;
}

int kbuild_fragment_options(const struct matrix *m, const struct config *c,
			    struct strv *options, struct sf_err *err)
{
	for (size_t i = 0; i < c->s.fragments.n; i++) {
		char *path = matrix_file(m, c->s.fragments.v[i]);
		int bad = kconfig_read_set(path, options, err);

		free(path);
		if (bad)
			return -1;
	}
	return 0;
}
