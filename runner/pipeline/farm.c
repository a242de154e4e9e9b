// SPDX-License-Identifier: GPL-2.0
/* What commands share: the option groups' tables, the lock, the matrix. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/kversion.h"
#include "lib/paths.h"
#include "pipeline/farm.h"
#include "pipeline/kbuild.h"
#include "pipeline/run.h"

void farm_init(struct farm *f)
{
	memset(f, 0, sizeof(*f));
	f->lock_fd = -1;
	f->matrix_path = "matrix.yaml";
	f->accel = "tcg";
	f->result = "channel";
	f->backend = "qemu";
	f->jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if (f->jobs < 1)
		f->jobs = 1;
	f->builds = 2;
	f->boots = f->jobs;
	f->t0 = now_seconds();
}

static const char *const accels[] = { "tcg", "kvm", NULL };
static const char *const results[] = { "channel", "console", NULL };
static const char *const backends[] = { "qemu", "lava", "lab", NULL };

const struct opt farm_matrix_options[] = {
	OPT_STRING(0, "matrix", struct farm, matrix_path, "FILE",
		   "the matrix (matrix.yaml)"),
	OPT_STRDUP(0, "build-dir", struct farm, build, "DIR",
		   "where everything is built (build/ beside it)"),
	OPT_END
};

const struct opt farm_source_options[] = {
	OPT_STRDUP(0, "series", struct farm, series, "FILE",
		   "the patch series (each source's series)"),
	OPT_STRING(0, "tarball", struct farm, tarball, "FILE",
		   "kernel source (each configuration's source.tarball)"),
	OPT_STRING(0, "kernel-src", struct farm, kernel_src, "DIR",
		   "a kernel tree of yours: a private copy of it is built, "
		   "with the series of its version's source (else the "
		   "newest older one, else the oldest)"),
	OPT_END
};

const struct opt farm_build_options[] = {
	OPT_INTEGER('j', "jobs", struct farm, jobs, "N", 1, 1024, "a count",
		    "compile jobs at a time, in all (number of CPUs)"),
	OPT_INTEGER(0, "builds", struct farm, builds, "N", 1, 64, "a count",
		    "kernels of distinct build keys built at a time, "
		    "sharing the jobs through a make jobserver (2)"),
	OPT_END
};

const struct opt farm_boot_options[] = {
	OPT_BOOLEAN(0, "prebuilt", struct farm, prebuilt,
		    "boot the kernels a 'sysfarm build' left in the build "
		    "directory (each one's sysfarm-kernel.json), as a CI job "
		    "that only boots: no source, no compiler, nothing built"),
	OPT_WORD(0, "accel", struct farm, accel, accels,
		 "QEMU accelerator (tcg)"),
	OPT_WORD(0, "result", struct farm, result, results,
		 "how the guest sends its snapshot: a second serial port to "
		 "a file (channel), or base64 on the console, as in a lab"),
	OPT_WORD(0, "backend", struct farm, backend, backends,
		 "what boots the guest: QEMU started by sysfarm (qemu), a "
		 "LAVA job run by lava-run here (lava), or a lab, whose "
		 "LAVA logs are read from BUILD/lava/CONFIG/lava.log (lab)"),
	OPT_STRV(0, "append", struct farm, append, "WORD",
		 "add WORD to the kernel command line"),
	OPT_INTEGER(0, "timeout", struct farm, timeout, "SECONDS", 1, 86400,
		    "seconds", "boot time limit instead of the matrix's"),
	OPT_INTEGER(0, "boots", struct farm, boots, "N", 1, 64, "a count",
		    "configurations booted at a time, each QEMU one TCG "
		    "thread; results stay in matrix order (number of CPUs)"),
	OPT_END
};

/*
 * One building sysfarm per build directory: a second one (another
 * terminal, a test, a benchmark) waits instead of patching the tree or
 * writing the stamps under the first. The lock ends with the process.
 */
static int farm_lock(struct farm *f, struct sf_err *err)
{
	char *path = path_lock(f->build);
	int ret = SF_EXIT_USAGE;

	if (mkdir_p(f->build)) {
		err_set(err, "cannot create '%s': %s", f->build,
			strerror(errno));
		goto out;
	}
	f->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (f->lock_fd < 0) {
		err_set(err, "cannot open '%s': %s", path, strerror(errno));
		goto out;
	}
	if (flock(f->lock_fd, LOCK_EX | LOCK_NB)) {
		struct sf_err wait = SF_ERR_INIT;

		err_set(&wait, "%s is in use by another sysfarm, waiting",
			f->build);
		sink_error(&wait);
		while (flock(f->lock_fd, LOCK_EX))
			if (errno != EINTR)
				goto out;
	}
	ret = 0;
out:
	free(path);
	return ret;
}

static char *absolute(const char *path)
{
	char cwd[4096];

	if (path[0] == '/' || !getcwd(cwd, sizeof(cwd)))
		return xstrdup(path);
	return xstrfmt("%s/%s", cwd, path);
}

/* Is @a the directory @b or one of its ancestors? Both real paths. */
static int dir_contains(const char *a, const char *b)
{
	size_t n = strlen(a);

	if (!strcmp(a, "/"))
		return 1;
	return !strncmp(a, b, n) && (b[n] == '/' || b[n] == '\0');
}

/*
 * The directory absolute @path names once mkdir_p() has made it: the real
 * path of the part that exists, then the rest with '.' and '..' taken
 * lexically, which is exact there as mkdir_p() makes no links
 * ("/tmp/new/.." is /tmp, not a new directory below it).
 */
static char *dir_resolve(const char *path)
{
	char *head = xstrdup(path), *real, *rest, *tok, *save;
	size_t cut = strlen(head);

	while (!(real = realpath(*head ? head : "/", NULL))) {
		while (cut && head[cut] != '/')
			cut--;
		head[cut] = '\0';
	}
	rest = xstrdup(path + cut);
	for (tok = strtok_r(rest, "/", &save); tok;
	     tok = strtok_r(NULL, "/", &save)) {
		char *slash = strrchr(real, '/'), *longer;

		if (!strcmp(tok, "."))
			continue;
		if (!strcmp(tok, "..")) {
			slash[slash == real] = '\0';
			continue;
		}
		longer = xstrfmt("%s%s%s", real, strcmp(real, "/") ? "/" : "",
				 tok);
		free(real);
		real = longer;
	}
	free(rest);
	free(head);
	return real;
}

/*
 * The farm makes, replaces and removes src/, pristine/, kernels/ and out/
 * in its build directory: the root, the matrix's own directory, the home
 * directory or a directory above them would lose files it does not own.
 */
static int build_dir_check(const struct farm *f, struct sf_err *err)
{
	char *real = dir_resolve(f->build);
	const char *home = getenv("HOME");
	char *rhome = home && *home ? realpath(home, NULL) : NULL;
	const char *why = NULL;
	char *lock;

	/* A build directory a sysfarm used before (a matrix under build/) */
	lock = path_lock(real);
	if (!strcmp(real, "/"))
		why = "the root directory";
	else if (rhome && dir_contains(real, rhome))
		why = "the home directory or above it";
	else if (dir_contains(real, f->top) && !path_exists(lock))
		why = "the matrix's directory or above it";
	free(lock);
	if (why)
		err_at(err, ERR_INPUT, "", 0, 0,
		       "--build-dir '%s' is %s: the farm replaces src/, kernels/ and out/ in it; name a directory of its own",
		       f->build, why);
	free(real);
	free(rhome);
	return why ? -1 : 0;
}

char *farm_matrix_series(const struct farm *f, const struct config *c)
{
	if (c->s.src_series)
		return matrix_file(&f->m, c->s.src_series);
	return path_series(f->top);
}

/*
 * @f->srcs[] entry for @tarball (or the fetched source @spec) and @series,
 * added when new.
 */
static size_t source_find(struct farm *f, const char *tarball,
			  const struct fetch_spec *spec,
			  const char *package, const char *series)
{
	struct farm_source *fs;
	char *name = spec ? fetch_name(spec) : source_name(tarball);
	unsigned int same = 0;
	size_t i;

	for (i = 0; i < f->nsrcs; i++)
		if (!f->srcs[i].fetch == !spec &&
		    !strcmp(spec ? f->srcs[i].name : f->srcs[i].tarball,
			    spec ? name : tarball) &&
		    !strcmp(f->srcs[i].series, series)) {
			free(name);
			return i;
		}
	f->srcs = xrealloc(f->srcs, (f->nsrcs + 1) * sizeof(*f->srcs));
	fs = memset(&f->srcs[f->nsrcs], 0, sizeof(*fs));
	/*
	 * One tree per tarball and series: a tarball that --tarball gave to
	 * configurations of two series, or two tarballs of one file name,
	 * get a directory each ('+' is in no source's own name).
	 */
	for (i = 0; i < f->nsrcs; i++) {
		const char *rest = f->srcs[i].name + strlen(name);

		same += !strncmp(f->srcs[i].name, name, strlen(name)) &&
			(!*rest || *rest == '+');
	}
	fs->name = same ? xstrfmt("%s+%u", name, same + 1) : xstrdup(name);
	free(name);
	fs->tarball = tarball ? xstrdup(tarball) : NULL;
	if (spec) {
		fs->fetch = 1;
		fs->spec = *spec;
	}
	fs->package = package ? xstrdup(package) : NULL;
	fs->root = path_source(f->build, fs->name);
	fs->series = xstrdup(series);
	return f->nsrcs++;
}

/* @c's tarball: the matrix's kernel.tarball, or the default. */
static const char *config_tarball(const struct config *c)
{
	return c->s.src_tarball ? c->s.src_tarball : SOURCE_DEFAULT_TARBALL;
}

/*
 * @c's source's version ("6.12" of linux-source-6.12): of its package's
 * name where it has one (a fetched source has no tarball of its own
 * name), else of its tarball's; NULL when neither ends in a version.
 */
static char *config_version(const struct config *c)
{
	char *name = c->s.src_package ? xstrdup(c->s.src_package) :
		source_name(config_tarball(c)), *v = NULL;
	const char *dash = name ? strrchr(name, '-') : NULL;

	if (dash && isdigit((unsigned char)dash[1]))
		v = xstrdup(dash + 1);
	free(name);
	return v;
}

/*
 * The first configuration of the source whose series a tree of version
 * @mm ("7.4" of 7.4.0-rc1) takes, and why: the source of its major.minor
 * (an -rc is that release in the making, as Debian's experimental
 * linux-source-7.4 of 7.4~rc3 is), else the newest source older than the
 * tree (mainline and -next run ahead of every Debian source), else the
 * oldest: a tree older than every source is still built, with the
 * nearest series and goldens the matrix has (--series names your own).
 * NULL when no source has a version.
 */
static const struct config *tree_pick(const struct matrix *m,
				      const char *mm, const char **why)
{
	const struct config *pick = NULL;
	char *vp = NULL;
	int fit = 0, same = 0;	/* @pick is not newer than the tree, is it */

	for (size_t i = 0; i < m->nconfigs; i++) {
		char *v = config_version(&m->configs[i]);
		int cmp = v ? kversion_cmp(v, mm) : 0, better;

		if (!v)
			continue;
		if (!pick || (cmp <= 0) != fit)
			better = !pick || cmp <= 0;
		else	/* the newest of the older, the oldest of the newer */
			better = fit ? kversion_cmp(v, vp) > 0 :
				kversion_cmp(v, vp) < 0;
		if (!better) {
			free(v);
			continue;
		}
		pick = &m->configs[i];
		free(vp);
		vp = v;
		fit = cmp <= 0;
		same = !cmp;
	}
	free(vp);
	*why = same ? "the tree's version" :
		fit ? "the newest not newer than the tree" :
		"the oldest: the tree is older than every source";
	return pick;
}

/*
 * --kernel-src: one source for every configuration, the user's tree
 * copied into BUILD/tree/sources/NAME with the series of the matrix's
 * source tree_pick() finds, or --series; without a version in its
 * Makefile, the first selected configuration's. It is compared with that
 * source's goldens. Its kernels are built in BUILD/tree/kernels, so that
 * the paths the compiler sees are those of the farm's own builds of that
 * source: ccache hits the farm's objects.
 */
static void tree_source(struct farm *f)
{
	struct farm_source *fs = memset(xmalloc(sizeof(*fs)), 0, sizeof(*fs));
	char *tv = kversion_of_tree(f->kernel_src), *mm = NULL, *shown, *sv;
	const char *dot = tv ? strchr(tv, '.') : NULL, *why = NULL;
	const struct config *match = NULL, *from;

	/* "6.12" of "6.12.118" */
	if (dot) {
		mm = xstrfmt("%.*s", (int)(dot + 1 - tv +
					   strspn(dot + 1, "0123456789")), tv);
		match = tree_pick(&f->m, mm, &why);
	}
	if (match)
		fs->name = config_source_name(&match->s);
	else
		fs->name = xstrfmt("linux-%s", mm ? mm : "tree");
	if (matrix_name_problem(fs->name)) {
		free(fs->name);
		fs->name = xstrdup("linux-tree");
	}
	f->tree_match = match;
	from = match ? match : &f->m.configs[f->sel[0]];
	fs->series = f->series ? xstrdup(f->series) :
		farm_matrix_series(f, from);
	shown = path_relative(f->top, f->top, fs->series);
	/* tree_pick() found it by it: "7.3" of linux-source-7.3 */
	sv = match ? config_version(match) : NULL;
	if (!match)
		farm_progress(f, NULL, "tree %s: series %s (%s's), %s",
			      tv ? tv : "of no version",
			      shown ? shown : fs->series, from->name,
			      tv ? "no source has a version" :
			      "as its Makefile gives none");
	else if (f->series)
		farm_progress(f, NULL, "tree %s: goldens of source %s, %s; series %s (--series)",
			      tv, sv, why, fs->series);
	else
		farm_progress(f, NULL, "tree %s: series of source %s (%s), %s",
			      tv, sv, shown ? shown : fs->series, why);
	free(shown);
	free(sv);
	f->tree_build = path_tree_build(f->build);
	f->kb.build = f->tree_build;
	f->kb.cache = f->build;
	fs->root = path_source(f->tree_build, fs->name);
	f->srcs = fs;
	f->nsrcs = 1;
	free(tv);
	free(mm);
}

/*
 * Each selected configuration's source: --kernel-src, or its tarball
 * (--tarball, the matrix's source.tarball, the default) with its series
 * (--series, the matrix's source.series, patches/series). A command that
 * builds checks each series and tarball before anything is built.
 */
/*
 * A tree of a source's version is compared with that source's goldens:
 * the whole matrix means its configurations; one of another source named
 * on the command line is bad usage.
 */
/* @c's source as a user names it: its package, else @name, its tree's */
static const char *source_shown(const struct config *c, const char *name)
{
	return c->s.src_package ? c->s.src_package : name;
}

static int tree_select(struct farm *f, int named, struct sf_err *err)
{
	char *want = config_source_name(&f->tree_match->s);
	size_t kept = 0;
	int ret = 0;

	for (size_t s = 0; s < f->nsel && !ret; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		char *name = config_source_name(&c->s);

		if (name && !strcmp(name, want))
			f->sel[kept++] = f->sel[s];
		else if (named)
			ret = err_at(err, ERR_INPUT, NULL, 0, 0,
				     "--kernel-src: the tree is checked against %s's goldens; '%s' is a configuration of %s",
				     source_shown(f->tree_match, want), c->name,
				     source_shown(c, name));
		free(name);
	}
	f->nsel = kept;
	free(want);
	return ret;
}

static int farm_sources(struct farm *f, int named, struct sf_err *err)
{
	f->src_of = memset(xmalloc((f->nsel + 1) * sizeof(*f->src_of)), 0,
			   (f->nsel + 1) * sizeof(*f->src_of));
	if (f->kernel_src && f->nsel) {
		tree_source(f);
		if (f->tree_match && tree_select(f, named, err))
			return -1;
	}
	for (size_t s = 0; !f->kernel_src && s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		const char *tarball = f->tarball ? f->tarball :
			config_tarball(c);
		char *name = source_name(tarball), *series;
		const char *why = name ? matrix_name_problem(name) :
			"has no .tar ending";
		struct fetch_spec spec;
		int fetch = !f->tarball && fetch_spec_of(&c->s, &spec);
		char shown[80];

		free(name);
		/* It names the source's directory under BUILD */
		if (why && !fetch)
			return err_at(err, ERR_INPUT, NULL, 0, 0,
				      "--tarball %s: its file name %s",
				      str_quote(shown, sizeof(shown), tarball),
				      why);
		series = f->series ? xstrdup(f->series) :
			farm_matrix_series(f, c);
		f->src_of[s] = source_find(f, fetch ? NULL : tarball,
					   fetch ? &spec : NULL,
					   f->tarball ? NULL : c->s.src_package,
					   series);
		free(series);
	}
	for (size_t i = 0; f->uses_source && i < f->nsrcs; i++) {
		struct farm_source *fs = &f->srcs[i];
		struct strv patches = STRV_INIT;
		int bad = series_read(fs->series, &patches, NULL, err);

		strv_release(&patches);
		if (bad)
			return -1;
		/* Missing is 'make deps' undone (125); tar would wait on a FIFO */
		if (fs->tarball && path_exists(fs->tarball) &&
		    input_check(fs->tarball, SIZE_MAX, err)) {
			err_context(err, f->tarball ? "--tarball " :
				    "kernel.tarball ");
			return -1;
		}
	}
	return 0;
}

struct farm_source *farm_source(const struct farm *f, size_t s)
{
	return &f->srcs[f->src_of[s]];
}

char *farm_source_tree(const struct farm_source *fs)
{
	return fs->state > 0 ? xstrdup(fs->src.dir) :
		path_source_tree(fs->root);
}

void farm_source_begin(const struct farm *f, const struct farm_source *fs)
{
	farm_progress(f, NULL, "preparing the kernel source %s", fs->name);
}

int farm_source_work(struct farm *f, struct farm_source *fs)
{
	int ret;

	if (fs->state)
		return fs->state > 0 ? 0 : -1;
	if (mkdir_p(fs->root)) {
		ret = err_set(&fs->err, "cannot create '%s': %s", fs->root,
			      strerror(errno));
	} else if (f->kernel_src) {
		ret = source_prepare_tree(&fs->src, fs->root, f->kernel_src,
					  fs->series, &fs->err);
	} else if (!fs->tarball || !path_exists(fs->tarball)) {
		ret = err_set(&fs->err, "no kernel source '%s' (run 'make deps'%s%s)",
			      fs->tarball ? fs->tarball : fs->name,
			      fs->package ? ": it installs " : "",
			      fs->package ? fs->package : "");
	} else if (fs->fetch) {
		char *version = xstrfmt("%s %s", fs->spec.package,
					fs->got.version);
		const struct source_origin origin = { version, fs->got.sha256 };

		ret = source_prepare(&fs->src, fs->root, fs->tarball, &origin,
				     fs->series, &fs->err);
		free(version);
	} else {
		ret = source_prepare(&fs->src, fs->root, fs->tarball, NULL,
				     fs->series, &fs->err);
	}
	fs->state = ret ? -1 : 1;
	return ret;
}

void farm_source_end(const struct farm *f, const struct farm_source *fs)
{
	if (fs->state > 0)
		farm_progress(f, NULL, "source %s, series %s",
			      fs->src.version, *fs->src.series_hash ?
			      fs->src.series_hash : "(none)");
}

int farm_source_prepare(struct farm *f, struct farm_source *fs)
{
	int ret;

	if (fs->state)
		return fs->state > 0 ? 0 : -1;
	farm_source_begin(f, fs);
	ret = farm_source_work(f, fs);
	farm_source_end(f, fs);
	return ret;
}

/*
 * The selected fetched sources fetched (under the lock: BUILD/apt and
 * BUILD/debs are the farm's), unless --prebuilt builds nothing: each
 * source's tarball is then known. Return: 0, or SF_EXIT_UNTESTED.
 */
static int farm_fetch(struct farm *f, struct sf_err *err)
{
	for (size_t i = 0; i < f->nsrcs; i++) {
		struct farm_source *fs = &f->srcs[i];

		if (!fs->fetch || (f->prebuilt && !f->fetch_refresh))
			continue;
		if (fetch_source(f->build, &fs->spec, f->fetch_refresh,
				 &fs->got, err))
			return SF_EXIT_UNTESTED;
		fs->tarball = xstrdup(fs->got.tarball);
	}
	return 0;
}

int farm_load(struct farm *f, char *const *names, int n,
	      struct sf_err *err)
{
	int count;

	if (matrix_load(&f->m, f->matrix_path, err) ||
	    kbuild_check_matrix(&f->m, err))
		return SF_EXIT_USAGE;
	f->top = xstrdup(f->m.dir);
	if (!f->build)
		f->build = path_build(f->top);
	else {
		char *b = absolute(f->build);

		free(f->build);
		f->build = b;
		if (build_dir_check(f, err))
			return SF_EXIT_USAGE;
	}
	f->kb = (struct kbuild){ .build = f->build, .jobs = f->jobs };
	for (size_t i = 0; i < f->m.nconfigs; i++)
		if (kbuild_key(&f->m, &f->m.configs[i], err))
			return SF_EXIT_USAGE;
	if (f->kernel_src) {
		struct source tree = SOURCE_INIT;
		int bad = source_external(&tree, f->kernel_src, err);
		char *real = dir_resolve(f->build);

		/* The copy must not copy itself, nor replace the tree */
		if (!bad && (dir_contains(tree.dir, real) ||
			     dir_contains(real, tree.dir)))
			bad = err_at(err, ERR_INPUT, NULL, 0, 0,
				     "'%s' and the build directory '%s' must not hold one another",
				     f->kernel_src, f->build);
		if (!bad && f->tarball)
			bad = err_at(err, ERR_INPUT, NULL, 0, 0,
				     "'%s' goes without --tarball: the tree is the source",
				     f->kernel_src);
		if (!bad && f->prebuilt)
			bad = err_at(err, ERR_INPUT, NULL, 0, 0,
				     "'%s' goes without --prebuilt, which builds nothing",
				     f->kernel_src);
		free(real);
		source_release(&tree);
		if (bad) {
			err_context(err, "--kernel-src ");
			return SF_EXIT_USAGE;
		}
	}
	if (f->prebuilt && (f->series || f->tarball)) {
		err_at(err, ERR_INPUT, NULL, 0, 0,
		       "--prebuilt builds nothing: it goes without --series and --tarball");
		return SF_EXIT_USAGE;
	}
	count = matrix_select(&f->m, names, n, &f->sel, err);
	if (count < 0)
		return SF_EXIT_USAGE;
	f->nsel = count;
	if (farm_sources(f, n > 0, err))
		return SF_EXIT_USAGE;
	/*
	 * Only the selected configurations of a command that builds need
	 * their compiler here: the others' keys are shown, not built, and a
	 * machine without the arm toolchain still runs the x86_64 ones (list,
	 * and a --prebuilt check, need none: a CI job without it). A missing
	 * or broken compiler is this machine's, not the matrix's: could not
	 * test.
	 */
	for (size_t s = 0; f->uses_source && !f->prebuilt && s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];

		if (!kbuild_compiler(c, err)) {
			err_context(err, "%s: ", c->name);
			return SF_EXIT_UNTESTED;
		}
	}
	if (!f->uses_source && !f->fetch_refresh)
		return 0;
	if (farm_lock(f, err))
		return SF_EXIT_USAGE;
	return farm_fetch(f, err);
}

void farm_progress(const struct farm *f, const struct config *c,
		   const char *fmt, ...)
{
	char *text;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	va_end(ap);
	sink_progress(now_seconds() - f->t0, c ? c->name : "sysfarm", "%s",
		      text ? text : fmt);
	free(text);
}

void farm_set_series(struct farm *f, const char *series)
{
	for (size_t i = 0; i < f->nsrcs; i++) {
		free(f->srcs[i].series);
		f->srcs[i].series = xstrdup(series);
		source_release(&f->srcs[i].src);
		err_clear(&f->srcs[i].err);
		f->srcs[i].state = 0;
	}
}

void farm_release(struct farm *f)
{
	matrix_release(&f->m);
	for (size_t i = 0; i < f->nsrcs; i++) {
		struct farm_source *fs = &f->srcs[i];

		free(fs->name);
		free(fs->tarball);
		fetched_release(&fs->got);
		free(fs->package);
		free(fs->series);
		free(fs->root);
		source_release(&fs->src);
	}
	free(f->srcs);
	free(f->src_of);
	free(f->tree_build);
	strv_release(&f->append);
	free(f->top);
	free(f->build);
	free(f->series);
	free(f->sel);
	if (f->lock_fd >= 0)
		close(f->lock_fd);
}
