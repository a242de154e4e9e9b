/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Every file the farm reads or writes, named once, one function each (as
 * git's GIT_PATH_FUNC names BISECT_LOG): a call site asks for the path and
 * never spells a file name. Each function takes the directory the file
 * lives in and returns a malloc'd path; none creates anything.
 *
 *   TOP/expected/               the goldens (path_goldens), or --expected
 *     CONFIG.json redactions.yaml abi.yaml
 *     CONFIG.json.pending       a snapshot `check` saw, for `review`
 *   TOP/patches/series          the default series
 *   TOP/build/                  the default build directory, BUILD
 *   BUILD/.lock BUILD/ccache
 *   BUILD/sources/NAME/         a kernel source (source.h): src/, the tree,
 *                               patchset.sha256 (KCIDB's patchset hash)
 *   BUILD/tree/                 sources/ and kernels/ of --kernel-src
 *   BUILD/kernels/KEY/          .config build.log sysfarm-*.stamp
 *                               sysfarm-kernel.json sysfarm-objects,
 *                               the image (arch/x86/boot/bzImage) and
 *                               kbuild's source link to the tree
 *   BUILD/out/results.json report.html
 *   BUILD/out/CONFIG/           snapshot.json snapshot.confirm.json
 *                               snapshot.diff result.json
 *                               console.log qemu.log channel.out
 *                               initramfs.cpio virt.dtb virt.dts
 *                               board.dts board.dtb board.dtb.new
 *                               dtc.log virt.dts.key
 *                               lava/: job.yaml device.yaml
 *                               dispatcher.yaml lava.log output/
 *                               (the LAVA back end's boot)
 *   BUILD/bisect/               CONFIG.log CONFIG.series
 *                               CONFIG.K.build.log
 *                               CONFIG.verify.patch CONFIG.revert.patch
 *   BUILD/lava/CONFIG/          job.yaml and the images it names
 *   BUILD/apt/SUITE-ID/         apt's own state for a fetched source:
 *                               sources/ lists/ cache/ updated apt.log
 *   BUILD/debs/PKG_VERSION/     a fetched .deb, root/ (its files),
 *                               fetched.json (its version and sha256)
 *                               (`sysfarm lava-jobs`)
 */
#ifndef SYSFARM_PATHS_H
#define SYSFARM_PATHS_H

/* In TOP, the matrix's directory. */
char *path_build(const char *top);		/* TOP/build, the default */
char *path_goldens(const char *top);		/* TOP/expected */
char *path_series(const char *top);		/* TOP/patches/series */

/* In a goldens directory: TOP/expected, or the one --expected names. */
char *path_golden(const char *goldens, const char *config); /* CONFIG.json */
/* CONFIG.json.pending: a differing snapshot awaiting review */
char *path_pending(const char *goldens, const char *config);
char *path_redactions(const char *goldens);	/* redactions.yaml */
char *path_abi_table(const char *goldens);	/* abi.yaml */

/* In BUILD, the build directory. */
char *path_lock(const char *build);		/* BUILD/.lock */
/* BUILD/tree: sources/ and kernels/ of a user's tree (--kernel-src) */
char *path_tree_build(const char *build);
char *path_ccache(const char *build);		/* BUILD/ccache */
char *path_source(const char *build, const char *name); /* sources/NAME */
/* In a source's directory, path_source(). */
char *path_source_tree(const char *source);	/* src: the tree */
char *path_kernels(const char *build);		/* kernels: every build's */
char *path_kernel(const char *build, const char *name); /* kernels/NAME */
char *path_out(const char *build, const char *config);	/* out/CONFIG */
char *path_results(const char *build);		/* out/results.json */
char *path_report_html(const char *build);	/* out/report.html */
char *path_bisect(const char *build);		/* BUILD/bisect */
char *path_bisect_log(const char *build, const char *config);
char *path_bisect_series(const char *build, const char *config);
/* bisect/STEP.build.log: an untestable step's, STEP "CONFIG.K" */
char *path_bisect_build_log(const char *build, const char *step);
/* bisect/CHECK.patch: --commit's, CHECK "CONFIG.verify" or "CONFIG.revert" */
char *path_bisect_patch(const char *build, const char *check);
/* lava/CONFIG: a job of `sysfarm lava-jobs` and its images */
char *path_lava_jobs(const char *build, const char *config);

/* In a kernel's directory, path_kernel(). */
char *path_image(const char *kernel, const char *image); /* kernel.image */
char *path_kconfig(const char *kernel);		/* .config */
char *path_build_log(const char *kernel);	/* build.log */
char *path_tree_stamp(const char *kernel);	/* the tarball it came from */
char *path_config_stamp(const char *kernel);	/* what made .config */
char *path_build_stamp(const char *kernel);	/* what made the image */
char *path_kernel_manifest(const char *kernel);	/* what it is, for --prebuilt */
/* sysfarm-objects: how many objects its last build had, for progress */
char *path_kernel_objects(const char *kernel);
/* source: kbuild's link to the tree it was built from (O=) */
char *path_kernel_source(const char *kernel);

/* In a configuration's out directory, path_out(). */
char *path_snapshot(const char *out);		/* snapshot.json */
/* snapshot.confirm.json: the second boot of a DIFF or ABI-MISMATCH */
char *path_snapshot_confirm(const char *out);
char *path_snapshot_diff(const char *out);	/* snapshot.diff */
char *path_result(const char *out);		/* result.json */
char *path_console(const char *out);		/* console.log */
char *path_qemu_log(const char *out);		/* qemu.log: the command */
char *path_channel(const char *out);		/* channel.out: the frame */
char *path_lava_run(const char *out);		/* lava: a boot by lava-run */

/* In a LAVA job's directory, path_lava_run() or path_lava_jobs(). */
char *path_lava_job(const char *dir);		/* job.yaml */
char *path_lava_device(const char *dir);	/* device.yaml */
char *path_lava_dispatcher(const char *dir);	/* dispatcher.yaml */
char *path_lava_log(const char *dir);		/* lava.log: lava-run's */
char *path_lava_output(const char *dir);	/* output: its --output-dir */
char *path_initramfs(const char *out);		/* initramfs.cpio */
char *path_machine_dtb(const char *out);	/* virt.dtb, QEMU's own */
char *path_machine_dts(const char *out);	/* virt.dts, decompiled */
char *path_board_dts(const char *out);		/* board.dts, + fragments */
char *path_board_dtb(const char *out);		/* board.dtb, booted */
char *path_board_new(const char *out);		/* board.dtb.new, dtc's */
char *path_dtc_log(const char *out);		/* dtc.log */

/* Beside a file made only when its inputs change (boot.c's stamps). */
/*
 * A fetched source (pipeline/fetch.h): BUILD/apt/ID holds apt's state for
 * one archive, suite and keyring (its deb822 file, lists, cache: nothing
 * of the system's /etc/apt or /var), BUILD/debs/PACKAGE_VERSION one
 * fetched .deb, its tree and its record.
 */
char *path_apt(const char *build, const char *id);	/* apt/ID */
char *path_apt_sources(const char *apt);	/* sources: SourceParts */
char *path_apt_sources_file(const char *apt);	/* sources/sysfarm.sources */
char *path_apt_lists(const char *apt);		/* lists */
char *path_apt_lists_partial(const char *apt);	/* lists/partial */
char *path_apt_cache(const char *apt);		/* cache */
char *path_apt_archives_partial(const char *apt); /* cache/archives/partial */
char *path_apt_prefs(const char *apt);		/* preferences.d, empty */
char *path_apt_updated(const char *apt);	/* updated: lists are there */
char *path_apt_log(const char *apt);		/* apt.log: apt's output */
char *path_deb(const char *build, const char *name); /* debs/PKG_VERSION */
char *path_deb_root(const char *deb);		/* root: dpkg-deb -x */
char *path_deb_record(const char *deb);		/* fetched.json: verified */
char *path_deb_new(const char *deb);		/* DEB.new: being fetched */
/* In a .deb's root: usr/src/PACKAGE.tar.xz, a linux-source package's */
char *path_deb_tarball(const char *root, const char *package);
/* In a source's directory: its series' patches' sha256s, one a line */
char *path_patchset_sums(const char *source);	/* patchset.sha256 */
/* In a source's directory: its tarball's sha256, by size and mtime */
char *path_tarball_sha256(const char *source);

char *path_key(const char *file);		/* FILE.key: their hash */

#endif
