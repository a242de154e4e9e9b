/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One configuration's run as a value, and the one loop that takes every
 * selected configuration through the stages: prepare the source, build
 * the kernel, boot it, then the command's own step (kunit_tool's
 * config/build/exec/parse, each a request and a result). `build` stops
 * after the build, `run` after the boot; check, update and bisect compare
 * the snapshot in their hook.
 */
#ifndef SYSFARM_RUN_H
#define SYSFARM_RUN_H

#include <jansson.h>

#include "lib/util.h"
#include "lib/verdict.h"
#include "pipeline/boot.h"
#include "pipeline/farm.h"

/* The outcome of one configuration's stages. */
struct result {
	enum verdict v;
	struct sf_err why;	/* for anything but success */
	double seconds;
	double build_seconds;	/* make, when it ran for this configuration
				 * (the kernel was not up to date) */
	double boot_seconds;	/* initramfs, QEMU, until the verdict */
	int built;		/* make ran, and built the kernel */
	int shared;		/* an earlier configuration of the run made
				 * (or failed to make) its kernel: its build
				 * is that one's cost */
	/* the verdicts of the boots retried before this one (verdict.h) */
	enum verdict retried[ATTEMPTS_MAX];
	int nretried;
};

/* One selected configuration: the request, then what its stages gave. */
struct run {
	const struct config *c;
	size_t i;		/* its index in f->sel and in the runs */
	char *out;		/* BUILD/out/CONFIG */
	char *snapshot;		/* out/snapshot.json */
	char *cmdline;		/* the kernel's command line */
	json_t *snap;		/* the snapshot as written, header inputs
				 * included; NULL unless res.v was V_SNAPSHOT
				 * after the boot */
	char *kdir;		/* its kernel's directory, once built */
	json_t *inputs;		/* what the kernel is made of, from its
				 * manifest: the header's "inputs" */
	struct result res;
};

/* What a snapshot hook asks of the loop next. */
enum run_next {
	RUN_DONE,		/* the run's verdict is in @r->res */
	RUN_CONFIRM,		/* boot the same kernel again, then call
				 * the confirmed hook */
};

/* What a command does with the stages. */
struct run_hooks {
	int boot;		/* boot the kernel once built */
	int save;		/* write out/result.json for each */
	/*
	 * Called after a boot that gave a snapshot: the command's verdict
	 * from @r->snap, which it must not change. NULL: SNAPSHOT stands.
	 * RUN_CONFIRM: the loop boots @r's kernel a second time, in a worker
	 * like any boot (the others go on meanwhile), and @r waits for it.
	 */
	enum run_next (*snapshot)(void *ctx, struct farm *f, struct run *r);
	/*
	 * After the confirming boot a snapshot hook asked for: @again its
	 * result (retries included), @snap the snapshot it wrote to
	 * out/snapshot.confirm.json (header inputs added; out/snapshot.json
	 * left alone), or NULL when it gave none (@again says why). Both
	 * borrowed. The hook folds them into @r->res.
	 */
	void (*confirmed)(void *ctx, struct farm *f, struct run *r,
			  json_t *snap, struct result *again);
	/*
	 * Instead of the boot: called with what it would boot (initramfs
	 * and device tree made; the frame on the console, as in a lab). A
	 * failure is the hook's to put in @r->res.
	 */
	void (*prepared)(void *ctx, struct farm *f, struct run *r,
			 const struct boot *b, const char *dtb);
	void *ctx;
};

/*
 * A back end (farm.h's --backend): how one boot of a run is made, as a
 * struct file_operations is a driver's. Chosen once per run_matrix().
 */
struct boot_ops {
	const char *name;
	/* One boot of @run as @b says: its verdict, @run->snap on SNAPSHOT */
	enum verdict (*boot)(struct farm *f, struct run *run,
			     const struct boot *b, const char *dtb);
	const char *through;	/* for "booting (ACCEL, through ...)" */
	int console;		/* the frame can only come on the console */
	int replay;		/* reads what a boot left (a lab's log):
				 * said so, never retried nor overlapped */
};

/*
 * The back end called @name, or NULL when there is none; every word
 * --backend takes (farm_options) has one.
 */
const struct boot_ops *boot_ops_find(const char *name);

/* What a LAVA job's metadata says of @r: source, series (new reference). */
json_t *run_lava_metadata(const struct farm *f, const struct run *r);

/* One run per selected configuration of @f, after farm_load(). */
struct run *run_alloc(const struct farm *f);

/* Frees what run_alloc() returned (NULL too). */
void run_free(const struct farm *f, struct run *runs);

/**
 * run_matrix() - take every run through the stages @h asks for
 * @runs: from run_alloc(); each starts afresh, so a bisect can run the
 *	same one again on another series
 *
 * One loop keeps the workers in flight: kernels of distinct build keys
 * are built up front, @f->builds at a time (see farm.h), and each
 * configuration is handed its kernel (or builds it) and booted as soon
 * as it is built, @f->boots configurations at once, each boot in a
 * forked worker that writes the snapshot and sends its struct result
 * back; each is given to @h->snapshot (and, when it asks, after a
 * second boot to @h->confirmed), and its result saved, in the order of
 * @f->sel. The snapshot is written once, to @r->snapshot, after the
 * runner added to its header the inputs that made it.
 */
void run_matrix(struct farm *f, struct run *runs, const struct run_hooks *h);

/**
 * run_shell() - build @run's kernel, then become QEMU booting it with its
 * initramfs, a shell on the console instead of the snapshot
 * (sysfarm.shell=1 of the guest's init), the console on the terminal
 *
 * Return: only on failure: -1 with the verdict in @run->res.
 */
int run_shell(struct farm *f, struct run *run);

/*
 * A run's result as JSON: its result.json, and its entry of results.json
 * before verify/results.c adds the judgement's keys. NULL if it cannot be
 * packed.
 */
json_t *run_result_json(const struct run *r);

#endif
