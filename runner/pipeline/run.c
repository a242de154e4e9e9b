// SPDX-License-Identifier: GPL-2.0
/* The run loop: every configuration through prepare, build, boot, hook. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/jsonfile.h"
#include "lib/meter.h"
#include "lib/paths.h"
#include "lib/proc.h"
#include "pipeline/boot.h"
#include "pipeline/lava.h"
#include "pipeline/image.h"
#include "pipeline/kbuild.h"
#include "pipeline/run.h"

/* One build key's kernel, built by the pool (struct build_pool). */
struct prebuilt {
	const struct config *c;	/* the first configuration with the key */
	struct farm_source *fs;	/* its source */
	char key[sizeof(((struct config *)0)->key)];
	enum kbuild_status st;
	double seconds;
	struct sf_err why;
	int claimed;		/* run_build() reported it once */
	int started;		/* the pool started its build */
	int done;		/* its outcome is in */
	struct meter meter;	/* while it builds */
};

struct run *run_alloc(const struct farm *f)
{
	struct run *runs = xmalloc(f->nsel * sizeof(*runs));

	for (size_t s = 0; s < f->nsel; s++) {
		struct run *r = &runs[s];

		r->c = &f->m.configs[f->sel[s]];
		r->i = s;
		r->out = path_out(f->build, r->c->name);
		r->snapshot = path_snapshot(r->out);
		r->cmdline = boot_cmdline(r->c, &f->append);
	}
	return runs;
}

void run_free(const struct farm *f, struct run *runs)
{
	for (size_t s = 0; runs && s < f->nsel; s++) {
		free(runs[s].out);
		free(runs[s].snapshot);
		free(runs[s].cmdline);
		free(runs[s].kdir);
		json_decref(runs[s].inputs);
		json_decref(runs[s].snap);
	}
	free(runs);
}

/*
 * How the builds of @ms go: on a terminal one live line for them all, at
 * most every METER_LIVE_EVERY s (*@live: when it was last, 0 at first, -1
 * once the sink said it has no terminal), else a line per build at most
 * every METER_EVERY s.
 */
static void meters_say(const struct farm *f, struct meter **ms, size_t n,
		       double *live)
{
	double now = now_seconds();
	char *text;

	for (size_t i = 0; i < n; i++)
		meter_read(ms[i]);
	if (*live >= 0) {
		if (now - *live < METER_LIVE_EVERY)
			return;
		text = meter_live((const struct meter *const *)ms, n);
		*live = sink_live(now - f->t0, text) ? -1 : now;
		free(text);
		if (*live >= 0)
			return;
	}
	for (size_t i = 0; i < n; i++) {
		if (!meter_due(ms[i], now))
			continue;
		text = meter_text(ms[i]);
		sink_progress(now - f->t0, ms[i]->who, "%s", text);
		free(text);
	}
}

/* @c's build, begun: its meter counts what its log shows from now. */
static void meter_begin(struct farm *f, const struct config *c,
			const struct source *src, struct meter *m)
{
	char *dir = kbuild_dir(&f->kb, c, src), *log = path_build_log(dir);

	meter_init(m, c->name, log, kbuild_objects(&f->kb, c, src),
		   now_seconds());
	free(log);
	free(dir);
}

/* A build in this process (run_build()): its make's watch. */
struct build_watch {
	const struct farm *f;
	struct meter m;
	double live;
	double next;		/* the log is read once a second */
};

static void build_watched(void *arg)
{
	struct build_watch *w = arg;
	struct meter *m = &w->m;

	if (now_seconds() < w->next)
		return;
	w->next = now_seconds() + METER_LIVE_EVERY;
	meters_say(w->f, &m, 1, &w->live);
}

/* @run's source, prepared for the first configuration that needs it. */
static int run_prepare(struct farm *f, struct run *run)
{
	struct farm_source *fs = farm_source(f, run->i);

	if (!farm_source_prepare(f, fs))
		return 0;
	run->res.v = V_BUILD_FAIL;
	run->res.why = fs->err;
	return -1;
}

/* What a build worker reports through its pipe. */
struct built_msg {
	enum kbuild_status st;
	double seconds;
	struct sf_err why;
};

/* A worker's message fits one pipe write (proc_worker()). */
_Static_assert(sizeof(struct built_msg) <= PIPE_BUF, "built_msg too large");
_Static_assert(sizeof(struct result) <= PIPE_BUF, "result too large");

/* A build worker's work: @f's kernel of @c on @src, its makes' tokens. */
struct build_job {
	struct farm *f;
	const struct config *c;
	const struct source *src;
	const int *jobserver;
};

static void build_work(void *arg, void *out)
{
	struct build_job *job = arg;
	struct built_msg *msg = out;
	double t = now_seconds();

	/* The worker's own copy: the farm's makes use -jN. */
	job->f->kb.jobserver = job->jobserver;
	memset(msg, 0, sizeof(*msg));
	msg->st = kbuild_run(&job->f->kb, &job->f->m, job->c, job->src,
			     &msg->why);
	msg->seconds = now_seconds() - t;
}

/* A source's preparation, in a worker: its message is whether it worked. */
struct prep_job {
	struct farm *f;
	struct farm_source *fs;
};

static void prep_work(void *arg, void *out)
{
	struct prep_job *job = arg;
	int *ok = out;

	*ok = !farm_source_work(job->f, job->fs);
}

/*
 * The kernels built up front, in forked workers: the sources' preparations
 * and the builds share @f->builds slots; run_matrix() boots each
 * configuration as soon as its kernel is built, while the others build.
 */
struct build_pool {
	struct prebuilt *pre;	/* one per build key; none (@npre 0): each
				 * kernel is built when its configuration
				 * comes (run_build()) */
	size_t npre;
	struct {
		pid_t pid;
		int fd;
		struct prebuilt *p;	/* a build, or */
		struct farm_source *fs;	/* a source's preparation */
	} *slot;
	size_t running;
	char *preparing;	/* per f->srcs[]: a worker prepares it */
	int jobserver[2];
	double live;		/* meters_say()'s */
};

/* The pool's kernel of @key, or NULL. */
static struct prebuilt *prebuilt_find(const struct build_pool *bp,
				      const char *key)
{
	for (size_t i = 0; i < bp->npre; i++)
		if (!strcmp(bp->pre[i].key, key))
			return &bp->pre[i];
	return NULL;
}

/*
 * What goes in a free slot next: the first kernel whose source is ready,
 * else the preparation of the first source a kernel waits for (@*fs).
 * NULL and no @*fs: nothing can start until a worker ends. A kernel whose
 * source failed is passed over (run_build() says why).
 */
static struct prebuilt *pool_next(struct farm *f, const struct build_pool *bp,
				  struct farm_source **fs)
{
	*fs = NULL;
	for (size_t i = 0; i < bp->npre; i++) {
		struct prebuilt *p = &bp->pre[i];

		if (p->started || p->fs->state < 0)
			continue;
		if (p->fs->state > 0)
			return p;
		if (!*fs && !bp->preparing[p->fs - f->srcs])
			*fs = p->fs;
	}
	return NULL;
}

/* Free slots filled: preparations and builds started. */
static void pool_fill(struct farm *f, struct build_pool *bp)
{
	while (bp->running < (size_t)f->builds) {
		struct farm_source *fs;
		struct prebuilt *p = pool_next(f, bp, &fs);
		struct prep_job prep = { .f = f, .fs = fs };
		struct build_job job = { .f = f, .jobserver = bp->jobserver };
		struct built_msg msg;
		pid_t pid;
		int ok;

		if (fs) {
			bp->preparing[fs - f->srcs] = 1;
			farm_source_begin(f, fs);
			/*
			 * A user's tree is prepared here: this process would
			 * copy it again to know what the worker made. No
			 * worker either: prepared here, the others wait.
			 */
			pid = f->kernel_src ? -1 :
			      proc_worker(prep_work, &prep, &ok, sizeof(ok),
					  &bp->slot[bp->running].fd);
			if (pid < 0) {
				farm_source_work(f, fs);
				farm_source_end(f, fs);
				continue;
			}
		} else if (p) {
			p->started = 1;
			job.c = p->c;
			job.src = &p->fs->src;
			farm_progress(f, p->c, "kernel %s", p->key);
			meter_begin(f, p->c, job.src, &p->meter);
			pid = proc_worker(build_work, &job, &msg, sizeof(msg),
					  &bp->slot[bp->running].fd);
			if (pid < 0) {
				meter_release(&p->meter);
				err_clear(&p->why);
				err_set(&p->why, "cannot start a build: %s",
					strerror(errno));
				p->done = 1;
				continue;
			}
		} else {
			return;
		}
		bp->slot[bp->running].pid = pid;
		bp->slot[bp->running].p = fs ? NULL : p;
		bp->slot[bp->running++].fs = fs;
	}
}

/*
 * Sets up @bp and starts its first workers. Does nothing (@bp->npre 0:
 * run_build() builds each kernel when its configuration comes) for fewer
 * than two keys or --builds 1.
 *
 * On 2 cores one make -j2 leaves a core idle while it configures, links
 * and runs objtool; a second build fills it. The makes share @f->jobs
 * tokens of one GNU make jobserver, so together they never run more jobs
 * than one make -j@f->jobs would. A source is prepared when its first
 * kernel needs it: that kernel starts as soon as its own source is ready,
 * while the next source is still being extracted beside it.
 */
static void pool_begin(struct farm *f, struct build_pool *bp)
{
	memset(bp, 0, sizeof(*bp));
	if (f->builds < 2 || f->prebuilt)
		return;
	bp->pre = xmalloc(f->nsel * sizeof(*bp->pre));
	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		struct prebuilt *p = &bp->pre[bp->npre];

		if (prebuilt_find(bp, c->key))
			continue;
		memset(p, 0, sizeof(*p));
		p->c = c;
		p->fs = farm_source(f, s);
		snprintf(p->key, sizeof(p->key), "%s", c->key);
		/* Until its worker says otherwise: never a stale kernel */
		p->st = KBUILD_FAIL;
		err_set(&p->why,
			"the build of kernel %s did not report its outcome",
			c->key);
		bp->npre++;
	}
	if (bp->npre < 2) {
		bp->npre = 0;	/* nothing to overlap: run_build() builds */
		return;
	}
	/* --jobs N in all: N tokens, inherited by the makes (no O_CLOEXEC) */
	if (pipe(bp->jobserver) < 0) {
		struct sf_err err = SF_ERR_INIT;

		err_set(&err, "cannot make a jobserver: %s", strerror(errno));
		sink_error(&err);
		bp->npre = 0;
		return;
	}
	for (int i = 0; i < f->jobs; i++)
		if (write(bp->jobserver[1], "+", 1) < 0)
			break;
	bp->slot = xmalloc(f->builds * sizeof(*bp->slot));
	bp->preparing = memset(xmalloc(f->nsrcs), 0, f->nsrcs);
	pool_fill(f, bp);
}

/*
 * If @pid (ended with @status) is one of @bp's workers: its outcome taken,
 * the slots filled again. Return: whether it was.
 */
static int pool_reaped(struct farm *f, struct build_pool *bp, pid_t pid,
		       int status)
{
	struct farm_source *fs;
	struct built_msg msg;
	struct prebuilt *p;
	size_t i;
	int ok;

	for (i = 0; i < bp->running && bp->slot[i].pid != pid; i++)
		;
	if (i == bp->running)
		return 0;
	p = bp->slot[i].p;
	fs = bp->slot[i].fs;
	if (fs) {
		/*
		 * This process's own struct source, from the tree's state
		 * (quick, quiet); one the worker failed is prepared again
		 * here, to say why. Its "ok" tells nothing more.
		 */
		proc_worker_read(bp->slot[i].fd, &ok, sizeof(ok));
		farm_source_work(f, fs);
		farm_source_end(f, fs);
	} else if (!proc_worker_read(bp->slot[i].fd, &msg, sizeof(msg))) {
		p->st = msg.st;
		p->seconds = msg.seconds;
		p->why = msg.why;
	} else {
		char *lost = proc_worker_lost(status);

		err_clear(&p->why);
		err_set(&p->why, "the build of kernel %s %s", p->key, lost);
		free(lost);
	}
	bp->slot[i] = bp->slot[--bp->running];
	if (p) {
		meter_release(&p->meter);
		sink_live(0, NULL);	/* said again at the next wait */
		p->done = 1;
		if (p->st == KBUILD_OK)
			farm_progress(f, p->c, "kernel %s built in %.1f s",
				      p->key, p->seconds);
	}
	pool_fill(f, bp);
	return 1;
}

/*
 * Whether @run's kernel may be asked for: built, or not the pool's, and
 * no worker preparing its source (two sources may share a key).
 */
static int pool_ready(struct farm *f, const struct build_pool *bp,
		      const struct run *run)
{
	struct prebuilt *p = prebuilt_find(bp, run->c->key);
	struct farm_source *fs = farm_source(f, run->i);

	if (bp->preparing && bp->preparing[fs - f->srcs] && !fs->state)
		return 0;
	return !p || p->done || p->fs->state < 0;
}

static void pool_end(struct build_pool *bp)
{
	free(bp->pre);
	bp->pre = NULL;
	bp->npre = 0;
	if (!bp->slot)
		return;
	for (size_t i = 0; i < bp->running; i++)
		close(bp->slot[i].fd);
	free(bp->preparing);
	free(bp->slot);
	close(bp->jobserver[0]);
	close(bp->jobserver[1]);
	bp->slot = NULL;
}

/*
 * proc_wait_any(), saying how the pool's builds go meanwhile (once a
 * second: meters_say() decides what to print).
 */
static pid_t pool_wait(struct farm *f, struct build_pool *bp, int *status)
{
	for (;;) {
		struct meter *ms[64];	/* --builds is at most 64 */
		size_t n = 0;
		pid_t pid;

		for (size_t i = 0; i < bp->running && n < ARRAY_SIZE(ms); i++)
			if (bp->slot[i].p)
				ms[n++] = &bp->slot[i].p->meter;
		pid = proc_wait_any_until(status, n ? now_seconds() +
					  METER_LIVE_EVERY : 0);
		if (pid)
			return pid;
		meters_say(f, ms, n, &bp->live);
	}
}

/*
 * --prebuilt's build stage: the kernel a build left, if it was built from
 * the series there is now (a build that failed after an edit of a patch
 * left the last one's). Return: as run_build().
 */
static int run_prebuilt(struct farm *f, struct run *run)
{
	const struct farm_source *fs = farm_source(f, run->i);
	struct result *r = &run->res;
	const char *built;
	char *now = NULL;

	if (kbuild_prebuilt(f->build, run->c, &run->kdir, &run->inputs,
			    &r->why) ||
	    (fs->series && source_series_hash(fs->series, &now, &r->why))) {
		r->v = V_BUILD_FAIL;
		return -1;
	}
	built = json_string_value(json_object_get(run->inputs, "series"));
	if (strcmp(built, now ? now : "")) {
		err_set(&r->why, "the kernel in %s was built from series %s, %s is %s now: build it again ('sysfarm build %s')",
			run->kdir, built, fs->series ? fs->series : "the series",
			now ? now : "none", run->c->name);
		free(now);
		r->v = V_BUILD_FAIL;
		return -1;
	}
	free(now);
	farm_progress(f, run->c, "kernel %s (prebuilt)", run->kdir);
	return 0;
}

/* @run's kernel built in this process, its make watched (@*seconds). */
static enum kbuild_status run_build_here(struct farm *f, struct run *run,
					 double *seconds)
{
	const struct config *c = run->c;
	const struct source *src = &farm_source(f, run->i)->src;
	struct build_watch w = { .f = f };
	enum kbuild_status st;
	double t = now_seconds();

	farm_progress(f, c, "kernel %s", c->key);
	meter_begin(f, c, src, &w.m);
	f->kb.watch = build_watched;
	f->kb.watch_arg = &w;
	st = kbuild_run(&f->kb, &f->m, c, src, &run->res.why);
	f->kb.watch = NULL;
	meter_release(&w.m);
	sink_live(0, NULL);
	*seconds = now_seconds() - t;
	if (st == KBUILD_OK)
		farm_progress(f, c, "kernel %s built in %.1f s", c->key,
			      *seconds);
	return st;
}

/*
 * The build stage: @bp's kernel claimed, or built here when it is none of
 * @bp's. Return: 0 to go on, -1 when @r has its verdict.
 */
static int run_build(struct farm *f, struct build_pool *bp, struct run *run)
{
	const struct config *c = run->c;
	struct result *r = &run->res;
	struct prebuilt *p;
	enum kbuild_status st;
	double seconds;

	free(run->kdir);
	json_decref(run->inputs);
	run->kdir = NULL;
	run->inputs = NULL;
	if (f->prebuilt)
		return run_prebuilt(f, run);
	if (run_prepare(f, run))
		return -1;
	p = prebuilt_find(bp, c->key);
	if (p) {
		st = p->st;
		/* Built once, for the first configuration to ask. */
		seconds = p->claimed ? 0 : p->seconds;
		r->why = p->why;
		if (st == KBUILD_OK && p->claimed)
			st = KBUILD_UP_TO_DATE;
		p->claimed = 1;
	} else {
		st = run_build_here(f, run, &seconds);
	}
	/* make's time, when it ran for this configuration, built or not */
	if (st != KBUILD_UP_TO_DATE)
		r->build_seconds = seconds;
	switch (st) {
	case KBUILD_UP_TO_DATE:
		farm_progress(f, c, "kernel %s is up to date", c->key);
		break;
	case KBUILD_OK:
		r->built = 1;
		break;
	case KBUILD_CONFIG_FAIL:
		r->v = V_CONFIG_FAIL;
		return -1;
	case KBUILD_FAIL:
		r->v = V_BUILD_FAIL;
		return -1;
	}
	run->kdir = kbuild_dir(&f->kb, c, &farm_source(f, run->i)->src);
	if (kbuild_inputs(run->kdir, &run->inputs, &r->why)) {
		r->v = V_BUILD_FAIL;
		return -1;
	}
	return 0;
}

/*
 * Records in the snapshot's header what made it, so that a changed input
 * is reported as such and never mistaken for an ABI change, then writes
 * it: the only time it is written.
 */
static int snapshot_save(struct farm *f, struct run *r, struct sf_err *err)
{
	json_t *header = json_object_get(r->snap, "header"), *inputs;
	const char *qemu;

	if (!json_is_object(header))
		return err_set(err, "%s: no header", r->snapshot);
	qemu = proc_version(r->c->s.qemu_binary, err);
	if (!qemu)
		return -1;
	/* the kernel's manifest's (only what a build writes), and the boot's */
	inputs = json_deep_copy(r->inputs);
	json_object_set_new(inputs, "qemu", json_string(qemu));
	json_object_set_new(inputs, "accel", json_string(f->accel));
	json_object_set_new(inputs, "cmdline", json_string(r->cmdline));
	json_object_set_new(header, "inputs", inputs);
	return json_file_write(r->snapshot, r->snap, err);
}

/* What a boot of a run takes: its kernel, initramfs, device tree. */
struct boot_files {
	char *kdir, *kernel, *initramfs, *init, *dtb;
};

static void boot_files_release(struct boot_files *bf)
{
	free(bf->kdir);
	free(bf->kernel);
	free(bf->initramfs);
	free(bf->init);
	free(bf->dtb);
}

/*
 * @run's initramfs and device tree made, @b filled to boot them.
 * Return: 0, or -1 with the verdict (QEMU-FAIL) in @run->res.
 */
static int boot_prepare(struct farm *f, struct run *run,
			struct boot_files *bf, struct boot *b)
{
	const struct config *c = run->c;
	struct result *r = &run->res;

	memset(bf, 0, sizeof(*bf));
	bf->kdir = xstrdup(run->kdir);
	bf->kernel = path_image(bf->kdir, c->s.image);
	bf->initramfs = path_initramfs(run->out);
	bf->init = matrix_file(&f->m, c->s.init);
	*b = (struct boot){
		.kernel = bf->kernel, .initramfs = bf->initramfs,
		.outdir = run->out, .accel = f->accel, .cmdline = run->cmdline,
		.timeout = f->timeout > 0 ? f->timeout : c->s.timeout,
	};
	mkdir_p(run->out);
	if (image_build(&f->m, c, bf->init, bf->initramfs, &r->why) ||
	    boot_dtb(&f->m, c, run->out, &bf->dtb, &r->why)) {
		r->v = V_QEMU_FAIL;
		return -1;
	}
	return 0;
}

static enum verdict qemu_boot(struct farm *f, struct run *run,
			      const struct boot *b, const char *dtb)
{
	return boot_run(&f->m, run->c, b, dtb, &run->snap, &run->res.why);
}

static enum verdict lava_boot(struct farm *f, struct run *run,
			      const struct boot *b, const char *dtb)
{
	json_t *meta = run_lava_metadata(f, run);
	enum verdict v = lava_boot_run(run->c, b, dtb, meta, &run->snap,
				       &run->res.why);

	json_decref(meta);
	return v;
}

static enum verdict lab_boot(struct farm *f, struct run *run,
			     const struct boot *b, const char *dtb)
{
	char *dir = path_lava_jobs(f->build, run->c->name);
	char *log = path_lava_log(dir);
	enum verdict v = lava_log_run(b, dtb, log, &run->snap, &run->res.why);

	free(log);
	free(dir);
	return v;
}

static const struct boot_ops backends[] = {
	{ .name = "qemu", .boot = qemu_boot },
	{ .name = "lava", .boot = lava_boot, .through = ", through lava-run",
	  .console = 1 },
	{ .name = "lab", .boot = lab_boot, .console = 1, .replay = 1 },
};

const struct boot_ops *boot_ops_find(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(backends); i++)
		if (!strcmp(backends[i].name, name))
			return &backends[i];
	return NULL;
}

/*
 * @b asks the guest for its frame on the console and stops at that frame.
 * Return: @b's command line, for the caller to free after the boot.
 */
static char *boot_on_console(const struct run *run, struct boot *b)
{
	char *cmdline = xstrfmt("%s sysfarm.result=console", run->cmdline);

	b->cmdline = cmdline;
	b->console = 1;
	return cmdline;
}

/* One boot through @ops. Return: 0 with @run->snap, or -1 with its verdict. */
static int boot_once(struct farm *f, const struct boot_ops *ops,
		     struct run *run)
{
	const struct config *c = run->c;
	struct result *r = &run->res;
	struct boot_files bf;
	struct boot b;
	char *cmdline = NULL;
	double t = now_seconds();
	int ret = -1;

	if (boot_prepare(f, run, &bf, &b))
		goto out;
	/* the frame on the console: asked for, or the back end's only way */
	if (ops->console || !strcmp(f->result, "console"))
		cmdline = boot_on_console(run, &b);
	if (ops->replay)
		farm_progress(f, c, "reading the lab's LAVA log");
	else
		farm_progress(f, c, "booting (%s%s, limit %d s)", f->accel,
			      ops->through ? ops->through : "", b.timeout);
	/* Nothing from an earlier boot may be mistaken for this one's. */
	unlink(run->snapshot);
	r->v = ops->boot(f, run, &b, bf.dtb);
	if (r->v == V_SNAPSHOT && snapshot_save(f, run, &r->why)) {
		r->v = V_NO_SNAPSHOT;
		json_decref(run->snap);
		run->snap = NULL;
	}
	r->boot_seconds += now_seconds() - t;
	farm_progress(f, c, "%s after %.1f s", verdict_name(r->v),
		      now_seconds() - t);
	ret = r->v == V_SNAPSHOT ? 0 : -1;
out:
	boot_files_release(&bf);
	free(cmdline);
	return ret;
}

json_t *run_lava_metadata(const struct farm *f, const struct run *r)
{
	return json_pack("{s:O, s:O, s:s}", "sysfarm.source",
			 json_object_get(r->inputs, "source"),
			 "sysfarm.series", json_object_get(r->inputs, "series"),
			 "sysfarm.cmdline", r->cmdline);
}

/* The prepared hook's turn, instead of a boot. */
static void run_prepared(struct farm *f, struct run *run,
			 const struct run_hooks *h)
{
	struct boot_files bf;
	struct boot b;
	char *cmdline;

	if (boot_prepare(f, run, &bf, &b))
		goto out;
	cmdline = boot_on_console(run, &b);
	h->prepared(h->ctx, f, run, &b, bf.dtb);
	free(cmdline);
out:
	boot_files_release(&bf);
}

int run_shell(struct farm *f, struct run *run)
{
	/* one configuration: no kernel to build up front */
	struct build_pool none = { 0 };
	struct boot_files bf;
	struct boot b;
	char *cmdline;

	memset(&run->res, 0, sizeof(run->res));
	if (run_build(f, &none, run))
		return -1;
	if (!boot_prepare(f, run, &bf, &b)) {
		cmdline = xstrfmt("%s sysfarm.shell=1", run->cmdline);
		b.cmdline = cmdline;
		b.interactive = 1;
		farm_progress(f, run->c, "booting (%s) with a shell on this terminal; Ctrl-A X ends QEMU",
			      f->accel);
		boot_exec(run->c, &b, bf.dtb, &run->res.why);
		run->res.v = V_QEMU_FAIL;
		free(cmdline);
	}
	boot_files_release(&bf);
	return -1;
}

/*
 * The boot stage: an infrastructure failure is booted again while the
 * matrix's `attempts` allow, each retried verdict kept; a PANIC, or any
 * verdict of the kernel's, stands at once.
 * Return: 0 with @run->snap, or -1 with its verdict.
 */
static int run_boot(struct farm *f, const struct boot_ops *ops,
		    struct run *run)
{
	struct result *r = &run->res;
	/* a lab's log says the same the second time */
	int attempts = run->c->s.attempts && !ops->replay ?
		       run->c->s.attempts : 1;

	while (boot_once(f, ops, run)) {
		if (!verdict_retried(r->v) || r->nretried + 1 >= attempts)
			return -1;
		r->retried[r->nretried++] = r->v;
		farm_progress(f, run->c, "booting again (attempt %d of %d)",
			      r->nretried + 1, attempts);
		err_clear(&r->why);
	}
	return 0;
}

json_t *run_result_json(const struct run *r)
{
	char text[ERR_FORMAT_MAX];
	json_t *retried = json_array();

	for (int i = 0; i < r->res.nretried; i++)
		json_array_append_new(retried,
			json_string(verdict_name(r->res.retried[i])));
	return json_pack("{s:s, s:s, s:s, s:s, s:f, s:b, s:f, s:f, s:o}",
			 "config", r->c->name, "key", r->c->key,
			 "verdict", verdict_name(r->res.v),
			 "message", err_format(&r->res.why, text, sizeof(text)),
			 "seconds", r->res.seconds,
			 "built", r->res.built,
			 "build_seconds", r->res.build_seconds,
			 "boot_seconds", r->res.boot_seconds,
			 "retried", retried);
}

/* out/result.json, for a reader of the out directory alone. */
static void run_result_save(const struct run *r)
{
	char *path = path_result(r->out);
	json_t *j = run_result_json(r);
	char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_SORT_KEYS) : NULL;

	mkdir_p(r->out);
	if (!text || file_write_atomic(path, text, strlen(text))) {
		struct sf_err err = SF_ERR_INIT;

		err_set(&err, "cannot write '%s'", path);
		sink_error(&err);
	}
	free(text);
	json_decref(j);
	free(path);
}

/*
 * The one loop (run_matrix()), as git's run_processes_parallel() is one:
 * the pool's builds and the runs' boots are forked workers it starts and
 * reaps, whichever ends first; the hooks come in the order of @f->sel.
 */
enum run_stage {
	STAGE_WAITING,		/* not begun */
	STAGE_BOOTING,		/* its boot's worker runs */
	STAGE_BOOTED,		/* its stages' result in: the hook's turn */
	STAGE_CONFIRMING,	/* its hook asked for a second boot, which
				 * a worker runs (or will, once a slot is
				 * free: no @pid yet) */
	STAGE_CONFIRMED,	/* that boot's result in */
	STAGE_DONE,		/* hooks called, result saved */
};

/* A run's place in the loop. */
struct sched_run {
	enum run_stage stage;
	pid_t pid;		/* its boot's worker; 0: none, or reaped */
	int status;		/* its wait status once reaped, else -1 */
	int fd;			/* the worker's struct result comes here;
				 * -1: no worker, or its message collected */
	double t0;		/* when the run's build stage began */
	struct result again;	/* the confirming boot's */
	json_t *again_snap;	/* its snapshot, or NULL */
};

struct sched {
	struct farm *f;
	struct run *runs;
	const struct run_hooks *h;
	const struct boot_ops *ops;	/* chosen once, by @f->backend */
	struct build_pool bp;
	struct sched_run *sr;	/* per run */
	size_t ahead;		/* boot workers at once */
	size_t started;		/* runs begun */
	size_t next;		/* the first run not done */
};

/*
 * A boot worker's work: as a boot in this process would, the snapshot
 * written to @run's snapshot file.
 */
struct boot_job {
	struct farm *f;
	const struct boot_ops *ops;
	struct run *run;
};

static void boot_work(void *arg, void *out)
{
	struct boot_job *job = arg;

	run_boot(job->f, job->ops, job->run);
	memcpy(out, &job->run->res, sizeof(job->run->res));
}

/*
 * Boots @run (the @i-th run, or its confirming copy) in a forked worker,
 * which sends its struct result back. Return: 0, or -1 (nothing started)
 * with errno.
 */
static int sched_boot(struct sched *s, struct run *run, size_t i)
{
	struct boot_job job = { .f = s->f, .ops = s->ops, .run = run };
	struct sched_run *sr = &s->sr[i];
	struct result res;

	/*
	 * Asked once here, not once per worker (proc_version() caches);
	 * dtc's is asked in each worker that makes a device tree (ms).
	 */
	proc_version(run->c->s.qemu_binary, &run->res.why);
	err_clear(&run->res.why);
	sr->pid = proc_worker(boot_work, &job, &res, sizeof(res), &sr->fd);
	sr->status = -1;
	if (sr->pid < 0) {
		sr->pid = 0;
		return -1;
	}
	return 0;
}

/*
 * The outcome of the @i-th run's boot worker, reaped (or lost): its
 * result, the snapshot it wrote read back; a first boot's into the run,
 * a confirming boot's beside it.
 */
static void sched_collect(struct sched *s, size_t i)
{
	struct sched_run *sr = &s->sr[i];
	struct run *run = &s->runs[i];
	int confirm = sr->stage == STAGE_CONFIRMING;
	struct result *res = confirm ? &sr->again : &run->res;
	json_t **snap = confirm ? &sr->again_snap : &run->snap;
	char *path = confirm ? path_snapshot_confirm(run->out) :
		     xstrdup(run->snapshot);
	struct result got;

	if (proc_worker_read(sr->fd, &got, sizeof(got))) {
		char *lost = proc_worker_lost(sr->status);

		res->v = V_QEMU_FAIL;
		err_set(&res->why, "the boot of %s %s", run->c->name, lost);
		free(lost);
	} else {
		*res = got;
		if (res->v == V_SNAPSHOT &&
		    json_file_read(path, snap, &res->why)) {
			res->v = V_NO_SNAPSHOT;
			*snap = NULL;
		}
	}
	sr->fd = -1;
	sr->stage = confirm ? STAGE_CONFIRMED : STAGE_BOOTED;
	free(path);
}

/*
 * One worker reaped, whichever ends first: a build's or a preparation's
 * (the pool's: taken at once, its slot filled again) or a boot's
 * (collected).
 */
static void sched_reap(struct sched *s)
{
	int status;
	pid_t pid = pool_wait(s->f, &s->bp, &status);

	if (pid >= 0 && pool_reaped(s->f, &s->bp, pid, status))
		return;
	for (size_t i = s->next; i < s->started; i++) {
		struct sched_run *sr = &s->sr[i];

		if (sr->pid && (pid < 0 || sr->pid == pid)) {
			sr->pid = 0;
			sr->status = pid < 0 ? -1 : status;
			sched_collect(s, i);
		}
	}
	/* No child left to wait for: pool_end() closes the slots */
	if (pid < 0)
		while (s->bp.running)
			close(s->bp.slot[--s->bp.running].fd);
}

/*
 * The stages of the @i-th run before its hook: build, then its boot
 * begun in a worker, or the prepared hook.
 */
static void run_start(struct sched *s, size_t i)
{
	struct run *r = &s->runs[i];
	const struct run_hooks *h = s->h;
	char *confirm = path_snapshot_confirm(r->out);

	/* a second boot belongs to the run that asked for it */
	unlink(confirm);
	free(confirm);
	memset(&r->res, 0, sizeof(r->res));
	json_decref(r->snap);
	r->snap = NULL;
	s->sr[i].stage = STAGE_BOOTED;
	s->sr[i].t0 = now_seconds();
	if (run_build(s->f, &s->bp, r))
		return;
	if (h->prepared) {
		run_prepared(s->f, r, h);
	} else if (h->boot && sched_boot(s, r, i)) {
		r->res.v = V_QEMU_FAIL;
		err_set(&r->res.why, "cannot start a boot: %s",
			strerror(errno));
	} else if (h->boot) {
		s->sr[i].stage = STAGE_BOOTING;
	}
}

/*
 * The confirming boot of the @i-th run, whose hook asked for it: its
 * kernel booted again in a worker, the snapshot written to
 * out/snapshot.confirm.json, out/snapshot.json left alone.
 */
static void sched_confirm(struct sched *s, size_t i)
{
	struct run *r = &s->runs[i];
	struct sched_run *sr = &s->sr[i];
	struct run again = *r;

	memset(&again.res, 0, sizeof(again.res));
	again.snap = NULL;
	again.snapshot = path_snapshot_confirm(r->out);
	memset(&sr->again, 0, sizeof(sr->again));
	sr->again_snap = NULL;
	farm_progress(s->f, r->c, "booting again to confirm");
	if (sched_boot(s, &again, i)) {
		sr->again.v = V_QEMU_FAIL;
		err_set(&sr->again.why, "cannot start a boot: %s",
			strerror(errno));
		sr->stage = STAGE_CONFIRMED;
	}
	free(again.snapshot);
}

/*
 * Whether the @next-th run may be built while the runs before it boot:
 * not when its kernel is built here (none of the pool's, not --prebuilt)
 * and one of them boots the same kernel directory, which that build may
 * rewrite under it.
 */
static int run_may_start(const struct sched *s, size_t next)
{
	const char *key = s->runs[next].c->key;

	if (s->f->prebuilt || prebuilt_find(&s->bp, key))
		return 1;
	for (size_t i = s->next; i < next; i++)
		if ((s->sr[i].stage == STAGE_BOOTING ||
		     s->sr[i].stage == STAGE_CONFIRMING) &&
		    !strcmp(s->runs[i].c->key, key))
			return 0;
	return 1;
}

/* The boot workers running. */
static size_t sched_running(const struct sched *s)
{
	size_t n = 0;

	for (size_t i = s->next; i < s->started; i++)
		n += s->sr[i].pid != 0;
	return n;
}

/*
 * Whether the next run may begin: one at a time without boots (as its
 * hooks come), else while fewer than @s->ahead boot workers run (a
 * confirming boot's too: a slow boot or a confirmation holds one slot,
 * not the runs after it).
 */
static int sched_may_begin(const struct sched *s)
{
	if (s->started == s->f->nsel)
		return 0;
	if (!s->h->boot || s->h->prepared)
		return s->started == s->next;
	return sched_running(s) < s->ahead &&
	       (s->started == s->next || run_may_start(s, s->started));
}

/*
 * The confirming boots asked for begun, then the next runs while
 * sched_may_begin(), each as soon as its kernel is built: the boots
 * overlap the builds still going. Return: how many.
 */
static size_t sched_start(struct sched *s)
{
	size_t n = 0;

	for (size_t i = s->next; i < s->started; i++)
		if (s->sr[i].stage == STAGE_CONFIRMING && !s->sr[i].pid &&
		    sched_running(s) < s->ahead) {
			sched_confirm(s, i);
			n++;
		}
	while (sched_may_begin(s)) {
		if (!pool_ready(s->f, &s->bp, &s->runs[s->started]) &&
		    s->bp.running)
			break;		/* its kernel is still being built */
		run_start(s, s->started++);
		n++;
	}
	return n;
}

/*
 * Whether an earlier run of @runs made runs[@s]'s kernel (the same key
 * from the same source), which runs[@s] did not: the pool's kernel goes
 * to the first configuration to ask, and one built here is up to date
 * for the next.
 */
static int run_kernel_shared(struct farm *f, const struct run *runs,
			     size_t s)
{
	const struct run *r = &runs[s];

	if (r->res.build_seconds > 0)
		return 0;
	for (size_t k = 0; k < s; k++)
		if (runs[k].res.build_seconds > 0 &&
		    !strcmp(runs[k].c->key, r->c->key) &&
		    farm_source(f, k) == farm_source(f, s))
			return 1;
	return 0;
}

/*
 * The hooks' turn, in the order of @f->sel: for each run whose stages
 * are in, its snapshot hook (which may ask for a confirming boot:
 * sched_start() begins it, the run waits for it), then the confirmed
 * hook after that boot, then its result saved. Return: how many steps
 * were taken.
 */
static size_t sched_finish(struct sched *s)
{
	const struct run_hooks *h = s->h;
	size_t n = 0;

	while (s->next < s->started) {
		size_t i = s->next;
		struct sched_run *sr = &s->sr[i];
		struct run *r = &s->runs[i];

		if (sr->stage == STAGE_BOOTED && r->snap && h->snapshot &&
		    h->snapshot(h->ctx, s->f, r) == RUN_CONFIRM) {
			sr->stage = STAGE_CONFIRMING;
			n++;
			continue;
		}
		if (sr->stage == STAGE_CONFIRMED) {
			h->confirmed(h->ctx, s->f, r, sr->again_snap,
				     &sr->again);
			json_decref(sr->again_snap);
			sr->again_snap = NULL;
		} else if (sr->stage != STAGE_BOOTED) {
			break;
		}
		r->res.seconds = now_seconds() - sr->t0;
		r->res.shared = run_kernel_shared(s->f, s->runs, i);
		if (h->save)
			run_result_save(r);
		sr->stage = STAGE_DONE;
		s->next++;
		n++;
	}
	return n;
}

void run_matrix(struct farm *f, struct run *runs, const struct run_hooks *h)
{
	struct sched s = {
		.f = f, .runs = runs, .h = h,
		.ops = boot_ops_find(f->backend),
		.sr = xmalloc(f->nsel * sizeof(*s.sr)),
	};

	/* a lab's logs are read, not booted: nothing to overlap */
	s.ahead = s.ops->replay ? 1 : (size_t)f->boots;
	for (size_t i = 0; i < f->nsel; i++)
		s.sr[i] = (struct sched_run){ .status = -1, .fd = -1 };
	pool_begin(f, &s.bp);
	/* the hooks first: a confirming boot takes the slot its run freed */
	while (s.next < f->nsel)
		if (!sched_finish(&s) && !sched_start(&s))
			sched_reap(&s);
	pool_end(&s.bp);
	free(s.sr);
}
