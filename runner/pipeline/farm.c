// SPDX-License-Identifier: GPL-2.0
/* The stages every configuration goes through, and the common options. */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lib/exitcode.h"
#include "lib/jsonfile.h"
#include "lib/proc.h"
#include "pipeline/boot.h"
#include "pipeline/farm.h"
#include "pipeline/image.h"
#include "pipeline/kbuild.h"

#define DEFAULT_TARBALL "/usr/src/linux-source-6.1.tar.xz"

void farm_init(struct farm *f)
{
	memset(f, 0, sizeof(*f));
	f->lock_fd = -1;
	f->matrix_path = "matrix.yaml";
	f->tarball = DEFAULT_TARBALL;
	f->accel = "tcg";
	f->jobs = sysconf(_SC_NPROCESSORS_ONLN);
	if (f->jobs < 1)
		f->jobs = 1;
	f->builds = 2;
	f->t0 = now_seconds();
}

static const char *const accels[] = { "tcg", "kvm", NULL };

const struct opt farm_options[] = {
	OPT_STRING(0, "matrix", struct farm, matrix_path, "FILE",
		   "the matrix (matrix.yaml)"),
	OPT_STRDUP(0, "build-dir", struct farm, build, "DIR",
		   "where everything is built (build/ beside it)"),
	OPT_STRDUP(0, "series", struct farm, series, "FILE",
		   "the patch series (patches/series)"),
	OPT_STRING(0, "tarball", struct farm, tarball, "FILE",
		   "kernel source (" DEFAULT_TARBALL ")"),
	OPT_STRING(0, "kernel-src", struct farm, kernel_src, "DIR",
		   "build this kernel tree as it is, no patches"),
	OPT_WORD(0, "accel", struct farm, accel, accels,
		 "QEMU accelerator (tcg)"),
	OPT_STRV(0, "append", struct farm, append, "WORD",
		 "add WORD to the kernel command line"),
	OPT_INTEGER(0, "timeout", struct farm, timeout, "SECONDS", 1, 86400,
		    "seconds", "boot time limit instead of the matrix's"),
	OPT_INTEGER('j', "jobs", struct farm, jobs, "N", 1, 1024, "a count",
		    "compile jobs at a time, in all (number of CPUs)"),
	OPT_INTEGER(0, "builds", struct farm, builds, "N", 1, 64, "a count",
		    "kernels of distinct build keys built at a time, "
		    "sharing the jobs through a make jobserver (2)"),
	OPT_END
};

int farm_setup(struct farm *f, int argc, char **argv,
	       const struct opt_cmd *cmd, void *ctx, int *status)
{
	int i = options_parse(argc, argv, cmd, ctx, farm_options, f);

	if (i <= 0) {
		*status = i ? SF_EXIT_USAGE : SF_EXIT_OK;
		return 1;
	}
	*status = farm_load(f, argv + i, argc - i);
	return *status != 0;
}

int farm_stages_main(int argc, char **argv, const struct opt_cmd *cmd,
		     int boot)
{
	struct result *results;
	struct farm f;
	int status;

	farm_init(&f);
	f.uses_source = 1;
	if (farm_setup(&f, argc, argv, cmd, NULL, &status))
		goto out;
	results = xmalloc(f.nsel * sizeof(*results));
	farm_build_all(&f);
	for (size_t s = 0; s < f.nsel; s++) {
		const struct config *c = &f.m.configs[f.sel[s]];
		double t = now_seconds();

		if (!farm_build(&f, c, &results[s]) && boot)
			farm_boot(&f, c, &results[s]);
		results[s].seconds = now_seconds() - t;
		if (boot)
			farm_result_save(&f, c, &results[s]);
	}
	status = farm_summary(&f, results);
	free(results);
out:
	farm_release(&f);
	return status;
}

/*
 * One building sysfarm per build directory: a second one (another
 * terminal, a test, a benchmark) waits instead of patching the tree or
 * writing the stamps under the first. The lock ends with the process.
 */
static int farm_lock(struct farm *f)
{
	char *path = xstrfmt("%s/.lock", f->build);
	int ret = SF_EXIT_USAGE;

	if (mkdir_p(f->build)) {
		fprintf(stderr, "sysfarm: cannot create '%s': %s\n", f->build,
			strerror(errno));
		goto out;
	}
	f->lock_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (f->lock_fd < 0) {
		fprintf(stderr, "sysfarm: cannot open '%s': %s\n", path,
			strerror(errno));
		goto out;
	}
	if (flock(f->lock_fd, LOCK_EX | LOCK_NB)) {
		fprintf(stderr, "sysfarm: %s is in use by another sysfarm, waiting\n",
			f->build);
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
static int build_dir_check(const struct farm *f)
{
	char *real = dir_resolve(f->build);
	const char *home = getenv("HOME");
	char *rhome = home && *home ? realpath(home, NULL) : NULL;
	const char *why = NULL;
	char *lock;

	/* A build directory a sysfarm used before (a matrix under build/) */
	lock = xstrfmt("%s/.lock", real);
	if (!strcmp(real, "/"))
		why = "the root directory";
	else if (rhome && dir_contains(real, rhome))
		why = "the home directory or above it";
	else if (dir_contains(real, f->top) && !path_exists(lock))
		why = "the matrix's directory or above it";
	free(lock);
	if (why)
		fprintf(stderr, "sysfarm: --build-dir '%s' is %s: the farm replaces src/, kernels/ and out/ in it; name a directory of its own\n",
			f->build, why);
	free(real);
	free(rhome);
	return why ? -1 : 0;
}

int farm_load(struct farm *f, char *const *names, int n)
{
	struct sf_err err;
	int count;

	if (matrix_load(&f->m, f->matrix_path, &err) ||
	    kbuild_check_matrix(&f->m, &err)) {
		fprintf(stderr, "%s\n", err.msg);
		return SF_EXIT_USAGE;
	}
	f->top = xstrdup(f->m.dir);
	if (!f->build)
		f->build = xstrfmt("%s/build", f->top);
	else {
		char *b = absolute(f->build);

		free(f->build);
		f->build = b;
		if (build_dir_check(f))
			return SF_EXIT_USAGE;
	}
	if (!f->series)
		f->series = xstrfmt("%s/patches/series", f->top);
	for (size_t i = 0; i < f->m.nconfigs; i++) {
		if (kbuild_key(&f->m, &f->m.configs[i], &err)) {
			fprintf(stderr, "sysfarm: %s\n", err.msg);
			return SF_EXIT_USAGE;
		}
	}
	if (f->kernel_src) {
		struct source tree = SOURCE_INIT;
		int bad = source_external(&tree, f->kernel_src, &err);

		source_release(&tree);
		if (bad) {
			fprintf(stderr, "sysfarm: --kernel-src %s\n", err.msg);
			return SF_EXIT_USAGE;
		}
	} else if (f->uses_source) {
		struct strv patches = STRV_INIT;
		int bad = series_read(f->series, &patches, NULL, &err);

		strv_release(&patches);
		if (bad) {
			fprintf(stderr, "%s\n", err.msg);
			return SF_EXIT_USAGE;
		}
		/* Missing is 'make deps' undone (125); tar would wait on a FIFO */
		if (path_exists(f->tarball) &&
		    input_check(f->tarball, SIZE_MAX, &err)) {
			fprintf(stderr, "sysfarm: --tarball %s\n", err.msg);
			return SF_EXIT_USAGE;
		}
	}
	count = matrix_select(&f->m, names, n, &f->sel, &err);
	if (count < 0) {
		fprintf(stderr, "sysfarm: %s\n", err.msg);
		return SF_EXIT_USAGE;
	}
	f->nsel = count;
	/*
	 * Only the selected configurations need their compiler here: the
	 * others' keys are shown, not built, and a machine without the arm
	 * toolchain still runs the x86_64 ones. A missing or broken compiler
	 * is this machine's, not the matrix's: could not test.
	 */
	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];

		if (!kbuild_compiler(c, &err)) {
			fprintf(stderr, "sysfarm: %s: %s\n", c->name, err.msg);
			return SF_EXIT_UNTESTED;
		}
	}
	return f->uses_source ? farm_lock(f) : 0;
}

void farm_progress(const struct farm *f, const struct config *c,
		   const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "[%7.1fs] %s: ", now_seconds() - f->t0,
		c ? c->name : "sysfarm");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

char *farm_outdir(const struct farm *f, const struct config *c)
{
	char *dir = xstrfmt("%s/out/%s", f->build, c->name);

	mkdir_p(dir);
	return dir;
}

void farm_set_series(struct farm *f, const char *series)
{
	free(f->series);
	f->series = xstrdup(series);
	source_release(&f->src);
	f->src_state = 0;
	f->npre = 0;	/* built from the other series */
}

/* The tree is prepared once per run, for the first configuration. */
static int farm_prepare(struct farm *f, struct result *r)
{
	int ret;

	if (f->src_state == 0) {
		farm_progress(f, NULL, "preparing the kernel source");
		if (mkdir_p(f->build)) {
			err_set(&f->src_err, "cannot create '%s': %s",
				f->build, strerror(errno));
			ret = -1;
		} else if (f->kernel_src) {
			ret = source_external(&f->src, f->kernel_src,
					      &f->src_err);
		} else {
			ret = source_prepare(&f->src, f->build, f->tarball,
					     f->series, &f->src_err);
		}
		f->src_state = ret ? -1 : 1;
		if (!ret)
			farm_progress(f, NULL, "source %s, series %s",
				      f->src.version,
				      *f->src.series_hash ?
				      f->src.series_hash : "(none)");
	}
	if (f->src_state > 0)
		return 0;
	r->v = V_BUILD_FAIL;
	r->why = f->src_err;
	return -1;
}

/* What a build worker reports through its pipe. */
struct built_msg {
	enum kbuild_status st;
	double seconds;
	struct sf_err why;
};

/*
 * The kernel of @c's build key, built in a forked worker; @fd its pipe,
 * @jobserver the tokens its makes share with the other workers'.
 */
static pid_t build_start(struct farm *f, const struct config *c,
			 const int *jobserver, int *fd)
{
	struct kbuild kb = { .build = f->build, .src = &f->src,
			     .jobs = f->jobs, .jobserver = jobserver };
	struct built_msg msg;
	int p[2];
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = proc_fork();
	if (pid == 0) {
		double t = now_seconds();

		close(p[0]);
		memset(&msg, 0, sizeof(msg));
		msg.st = kbuild_run(&kb, &f->m, c, &msg.why);
		msg.seconds = now_seconds() - t;
		_exit(write(p[1], &msg, sizeof(msg)) == sizeof(msg) ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	*fd = p[0];
	return pid;
}

/* The outcome of a kernel build, once farm_build_all() made it. */
static struct prebuilt *prebuilt_find(struct farm *f, const char *key)
{
	for (size_t i = 0; i < f->npre; i++)
		if (!strcmp(f->pre[i].key, key))
			return &f->pre[i];
	return NULL;
}

void farm_build_all(struct farm *f)
{
	struct { pid_t pid; int fd; struct prebuilt *p; } *slot;
	struct result scratch;
	size_t next = 0, running = 0;
	int jobserver[2];

	free(f->pre);
	f->pre = NULL;
	f->npre = 0;
	if (f->builds < 2 || farm_prepare(f, &scratch))
		return;
	f->pre = xmalloc(f->nsel * sizeof(*f->pre));
	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];

		if (prebuilt_find(f, c->key))
			continue;
		memset(&f->pre[f->npre], 0, sizeof(*f->pre));
		f->pre[f->npre].c = c;
		snprintf(f->pre[f->npre].key, sizeof(f->pre->key), "%s",
			 c->key);
		/* Until its worker says otherwise: never a stale kernel */
		f->pre[f->npre].st = KBUILD_FAIL;
		err_set(&f->pre[f->npre].why,
			"the build of kernel %s did not report its outcome",
			c->key);
		f->npre++;
	}
	if (f->npre < 2) {
		f->npre = 0;	/* nothing to overlap: farm_build() builds */
		return;
	}
	/* --jobs N in all: N tokens, inherited by the makes (no O_CLOEXEC) */
	if (pipe(jobserver) < 0) {
		fprintf(stderr, "sysfarm: cannot make a jobserver: %s\n",
			strerror(errno));
		f->npre = 0;
		return;
	}
	for (int i = 0; i < f->jobs; i++)
		if (write(jobserver[1], "+", 1) < 0)
			break;
	slot = xmalloc(f->builds * sizeof(*slot));
	while (next < f->npre || running) {
		struct built_msg msg;
		struct prebuilt *p;
		size_t i;
		pid_t pid;

		while (running < (size_t)f->builds && next < f->npre) {
			p = &f->pre[next++];
			farm_progress(f, p->c, "kernel %s", p->key);
			slot[running].pid = build_start(f, p->c, jobserver,
							&slot[running].fd);
			if (slot[running].pid < 0) {
				err_set(&p->why, "cannot start a build: %s",
					strerror(errno));
				continue;
			}
			slot[running++].p = p;
		}
		if (!running)
			break;
		pid = proc_wait_any();
		for (i = 0; i < running && slot[i].pid != pid; i++)
			;
		if (i == running)
			break;
		p = slot[i].p;
		if (read(slot[i].fd, &msg, sizeof(msg)) == sizeof(msg)) {
			p->st = msg.st;
			p->seconds = msg.seconds;
			p->why = msg.why;
		}
		close(slot[i].fd);
		slot[i] = slot[--running];
		if (p->st == KBUILD_OK)
			farm_progress(f, p->c, "kernel %s built in %.1f s",
				      p->key, p->seconds);
	}
	free(slot);
	close(jobserver[0]);
	close(jobserver[1]);
}

int farm_build(struct farm *f, const struct config *c, struct result *r)
{
	struct kbuild kb = { .build = f->build, .src = &f->src,
			     .jobs = f->jobs };
	struct prebuilt *p;
	enum kbuild_status st;
	double seconds;

	memset(r, 0, sizeof(*r));
	if (farm_prepare(f, r))
		return -1;
	p = prebuilt_find(f, c->key);
	if (p) {
		st = p->st;
		seconds = p->seconds;
		r->why = p->why;
		/* Built once, for the first configuration to ask. */
		if (st == KBUILD_OK && p->claimed)
			st = KBUILD_UP_TO_DATE;
		p->claimed = 1;
	} else {
		seconds = now_seconds();
		farm_progress(f, c, "kernel %s", c->key);
		st = kbuild_run(&kb, &f->m, c, &r->why);
		seconds = now_seconds() - seconds;
		if (st == KBUILD_OK)
			farm_progress(f, c, "kernel %s built in %.1f s",
				      c->key, seconds);
	}
	switch (st) {
	case KBUILD_UP_TO_DATE:
		farm_progress(f, c, "kernel %s is up to date", c->key);
		return 0;
	case KBUILD_OK:
		r->built = 1;
		r->build_seconds = seconds;
		return 0;
	case KBUILD_CONFIG_FAIL:
		r->v = V_CONFIG_FAIL;
		return -1;
	case KBUILD_FAIL:
		break;
	}
	r->v = V_BUILD_FAIL;
	return -1;
}

/*
 * Records in the snapshot's header what made it, so that a changed input
 * is reported as such and never mistaken for an ABI change.
 */
static int snapshot_add_inputs(struct farm *f, const struct config *c,
			       const struct boot *b, const char *kdir,
			       struct sf_err *err)
{
	char *path = xstrfmt("%s/snapshot.json", b->outdir);
	char *cfg = xstrfmt("%s/.config", kdir);
	char *cmdline = boot_cmdline(c, b), hex[17];
	const char *compiler, *qemu;
	uint64_t h = HASH_INIT;
	json_error_t je;
	json_t *snap, *inputs;
	int ret = -1;

	snap = json_load_file(path, 0, &je);
	if (!json_is_object(json_object_get(snap, "header"))) {
		err_set(err, "%s: no header: %s", path, je.text);
		goto out;
	}
	hash_file(&h, cfg);
	snprintf(hex, sizeof(hex), "%016llx", (unsigned long long)h);
	compiler = kbuild_compiler(c, err);
	qemu = proc_version(c->s.qemu_binary, err);
	if (!compiler || !qemu)
		goto out;
	inputs = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s, s:s}",
			   "source", f->src.version,
			   "series", f->src.series_hash,
			   "compiler", compiler,
			   "qemu", qemu,
			   "accel", b->accel,
			   "config", hex, "cmdline", cmdline);
	json_object_set_new(json_object_get(snap, "header"), "inputs", inputs);
	ret = json_file_write(path, snap, err);
out:
	json_decref(snap);
	free(cmdline);
	free(cfg);
	free(path);
	return ret;
}

int farm_boot(struct farm *f, const struct config *c, struct result *r)
{
	struct kbuild kb = { .build = f->build, .src = &f->src };
	char *out = farm_outdir(f, c);
	char *kdir = kbuild_dir(&kb, c);
	char *kernel = xstrfmt("%s/%s", kdir, c->s.image);
	char *initramfs = xstrfmt("%s/initramfs.cpio", out);
	char *init = matrix_file(&f->m, c->s.init);
	char *dtb = NULL;
	struct boot b = {
		.kernel = kernel, .initramfs = initramfs, .outdir = out,
		.accel = f->accel, .append = &f->append,
		.timeout = f->timeout > 0 ? f->timeout : c->s.timeout,
	};
	double t = now_seconds();
	int ret = -1;

	if (image_build(&f->m, c, init, initramfs, &r->why) ||
	    boot_dtb(&f->m, c, out, &dtb, &r->why)) {
		r->v = V_QEMU_FAIL;
		goto out;
	}
	farm_progress(f, c, "booting (%s, limit %d s)", f->accel, b.timeout);
	r->v = boot_run(&f->m, c, &b, dtb, &r->why);
	if (r->v == V_SNAPSHOT && snapshot_add_inputs(f, c, &b, kdir, &r->why))
		r->v = V_NO_SNAPSHOT;
	r->boot_seconds = now_seconds() - t;
	farm_progress(f, c, "%s after %.1f s", verdict_name(r->v),
		      r->boot_seconds);
	ret = r->v == V_SNAPSHOT ? 0 : -1;
out:
	free(out);
	free(kdir);
	free(kernel);
	free(initramfs);
	free(init);
	free(dtb);
	return ret;
}

void farm_result_save(const struct farm *f, const struct config *c,
		      const struct result *r)
{
	char *out = farm_outdir(f, c);
	char *path = xstrfmt("%s/result.json", out);
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:f, s:f}",
			      "config", c->name, "verdict",
			      verdict_name(r->v), "key", c->key,
			      "message", r->why.msg, "seconds", r->seconds,
			      "built", r->built, "build_seconds",
			      r->build_seconds, "boot_seconds",
			      r->boot_seconds);
	char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;

	if (!text || file_write_atomic(path, text, strlen(text)))
		fprintf(stderr, "sysfarm: cannot write '%s'\n", path);
	free(text);
	json_decref(j);
	free(path);
	free(out);
}

int farm_summary(const struct farm *f, const struct result *results)
{
	int status = 0;

	printf("%-28s %-12s %-12s %7s\n", "CONFIG", "KEY", "VERDICT", "TIME");
	for (size_t i = 0; i < f->nsel; i++) {
		const struct config *c = &f->m.configs[f->sel[i]];
		const struct result *r = &results[i];

		printf("%-28s %-12s %-12s %6.1fs\n", c->name, c->key,
		       verdict_name(r->v), r->seconds);
		status = verdict_exit_fold(status, verdict_exit(r->v));
	}
	for (size_t i = 0; i < f->nsel; i++) {
		const struct result *r = &results[i];

		if (r->why.msg[0])
			printf("\n%s: %s: %s\n", f->m.configs[f->sel[i]].name,
			       verdict_name(r->v), r->why.msg);
	}
	return status;
}

void farm_release(struct farm *f)
{
	matrix_release(&f->m);
	source_release(&f->src);
	strv_release(&f->append);
	free(f->top);
	free(f->build);
	free(f->series);
	free(f->sel);
	free(f->pre);
	if (f->lock_fd >= 0)
		close(f->lock_fd);
}
