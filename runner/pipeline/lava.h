/* SPDX-License-Identifier: GPL-2.0 */
/*
 * LAVA as a back end: a configuration's boot as a LAVA job definition
 * (device type `qemu`, kernel and initramfs deployed to tmpfs, a monitor
 * test waiting for the frame the guest prints on the console), and a boot
 * through Debian's `lava-run` on this machine, its log turned back into
 * console.log and a verdict by boot_decode(). runner/pipeline/LAVA.md has
 * the mapping and what a lab adds.
 */
#ifndef SYSFARM_LAVA_H
#define SYSFARM_LAVA_H

#include <jansson.h>

#include "lib/util.h"
#include "lib/verdict.h"
#include "pipeline/boot.h"
#include "pipeline/matrix.h"

/* What a job is made of besides the configuration. */
struct lava_job_in {
	const struct boot *b;	/* kernel, initramfs, cmdline (with
				 * sysfarm.result=console), timeout, accel */
	const char *dtb;	/* or NULL */
	const char *url;	/* base URL of the images; NULL: file:// */
	json_t *metadata;	/* added to the job's (borrowed) */
};

/**
 * lava_job() - the LAVA job definition of one boot of @c
 *
 * Images are named by their base name under @in->url (the images laid
 * out beside the job, as `sysfarm lava-jobs` does), or by file:// URLs of
 * their paths, each with its sha256sum.
 *
 * Return: the job (a new reference), or NULL with @err set: a word of
 * the command line or of QEMU's arguments that LAVA's command line cannot
 * carry (a quote, a brace, white space).
 */
json_t *lava_job(const struct config *c, const struct lava_job_in *in,
		 struct sf_err *err);

/* BASE/NAME, one '/' between them (malloc'd) */
char *lava_url_join(const char *base, const char *name);

/*
 * Is @url a base URL lava_job() takes: http(s), a host name, an optional
 * port, a path needing no quoting, without '.' or '..' parts?
 */
int lava_url_check(const char *url, struct sf_err *err);

/**
 * lava_boot_run() - boot_run() through lava-run
 *
 * Writes the job, a device dictionary (what lava-server's qemu.jinja2
 * renders for the job's context) and the dispatcher's settings to
 * @b->outdir/lava/, runs lava-run with a job id of its own, and decodes
 * the console lines of its log. A failure of LAVA's own (an
 * infrastructure, configuration or job error before the guest printed
 * anything) is QEMU-FAIL, LAVA's timeout TIMEOUT: never a snapshot.
 */
enum verdict lava_boot_run(const struct config *c, const struct boot *b,
			   const char *dtb, json_t *metadata, json_t **snap,
			   struct sf_err *err);

/**
 * lava_log_run() - the verdict of a lab's boot from its LAVA log @logf
 * (`lavacli jobs logs --raw ID`, or lava-run's), as lava_boot_run() gives
 * it; nothing is booted. QEMU-FAIL, saying why, for no log or one that
 * is not a regular file, the log of a job that has not ended, one that
 * lacks the checksum of an image or the boot command, or the log of other
 * images or another command line than @b's (jobs written before this
 * build). LAVA.md has what a log must show and the lines skipped.
 */
enum verdict lava_log_run(const struct boot *b, const char *dtb,
			  const char *logf, json_t **snap, struct sf_err *err);

#endif
