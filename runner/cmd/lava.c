// SPDX-License-Identifier: GPL-2.0
/* sysfarm lava-jobs: one LAVA job definition per configuration. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "lib/paths.h"
#include "lib/yamlfile.h"
#include "pipeline/farm.h"
#include "pipeline/lava.h"
#include "pipeline/run.h"

static const char about[] =
	"Builds what each configuration boots, as `run` does, and writes a LAVA\n"
	"job for it to BUILD/lava/CONFIG/job.yaml beside copies of its kernel,\n"
	"initramfs and device tree: device type qemu, the images deployed to\n"
	"tmpfs, the kernel command line with sysfarm.result=console, a monitor\n"
	"test waiting for the frame on the console (runner/pipeline/LAVA.md).\n"
	"The images are named by file:// URLs, or under --url BASE, where a lab\n"
	"fetches BUILD/lava/ from: `lavacli jobs submit BUILD/lava/*/job.yaml`.\n"
	"Only the job and the images are replaced: the lab's lava.log stays.\n"
	"Nothing is booted; verdict PASS when the job is written.\n";

struct lava_opts {
	const char *url;
};

static const struct opt lava_options[] = {
	OPT_STRING(0, "url", struct lava_opts, url, "BASE",
		   "the images' base URL: BASE/CONFIG/FILE (file:// URLs of "
		   "the copies here without it)"),
	OPT_END
};

static const struct opt_cmd lava_cmd = {
	.usage = "sysfarm lava-jobs [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = lava_options,
	.nargs = OPT_CONFIGS,
};

/* @from copied to DIR/its base name; the copy's path (malloc'd) or NULL */
static char *copy_into(const char *dir, const char *from, struct sf_err *err)
{
	const char *slash = strrchr(from, '/');
	char *to = xstrfmt("%s/%s", dir, slash ? slash + 1 : from);
	size_t len;
	char *data = file_read(from, &len);

	if (!data || file_write_atomic(to, data, len)) {
		err_set(err, "cannot copy %s to %s: %s", from, to,
			strerror(errno));
		free(to);
		to = NULL;
	}
	free(data);
	return to;
}

static void write_job(void *ctx, struct farm *f, struct run *r,
		      const struct boot *b, const char *dtb)
{
	const struct lava_opts *o = ctx;
	char *dir = path_lava_jobs(f->build, r->c->name);
	char *kernel = NULL, *initramfs = NULL, *dtbc = NULL, *url = NULL;
	char *jobf = path_lava_job(dir);
	struct boot copy = *b;
	struct lava_job_in in = { .b = &copy };
	json_t *job = NULL;
	struct stat st;

	r->res.v = V_QEMU_FAIL;
	/*
	 * Only the files written here are replaced: the lab's lava.log the
	 * user keeps beside the job stays. Not through a link either.
	 */
	if (mkdir_p(dir) || lstat(dir, &st)) {
		err_set(&r->res.why, "cannot make %s: %s", dir,
			strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		err_set(&r->res.why, "%s: not a directory (a file or a symbolic link): the job goes into one",
			dir);
		goto out;
	}
	kernel = copy_into(dir, b->kernel, &r->res.why);
	initramfs = kernel ? copy_into(dir, b->initramfs, &r->res.why) : NULL;
	dtbc = initramfs && dtb ? copy_into(dir, dtb, &r->res.why) : NULL;
	if (!initramfs || (dtb && !dtbc))
		goto out;
	if (o->url)
		url = lava_url_join(o->url, r->c->name);
	copy.kernel = kernel;
	copy.initramfs = initramfs;
	in.dtb = dtbc;
	in.url = url;
	in.metadata = run_lava_metadata(f, r);
	job = lava_job(r->c, &in, &r->res.why);
	json_decref(in.metadata);
	if (!job || yaml_write_json(jobf, job, "# A LAVA job written by `sysfarm lava-jobs` (runner/pipeline/LAVA.md).\n",
				    &r->res.why))
		goto out;
	farm_progress(f, r->c, "LAVA job %s", jobf);
	r->res.v = V_PASS;
out:
	json_decref(job);
	free(dir);
	free(kernel);
	free(initramfs);
	free(dtbc);
	free(url);
	free(jobf);
}

/* --url, checked before anything is built */
static int url_ready(void *ctx)
{
	const struct lava_opts *o = ctx;
	struct sf_err err = SF_ERR_INIT;

	if (!o->url || !lava_url_check(o->url, &err))
		return 0;
	sink_error(&err);
	return SF_EXIT_USAGE;
}

int cmd_lava_jobs(int argc, char **argv)
{
	struct lava_opts o = { 0 };
	const struct run_hooks hooks = { .prepared = write_job, .ctx = &o };

	return stages_main(argc, argv, &lava_cmd, &hooks, url_ready);
}
