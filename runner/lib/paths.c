// SPDX-License-Identifier: GPL-2.0
/* The farm's file layout: the one place that spells its file names. */
#include "lib/paths.h"
#include "lib/util.h"

/* FN(dir): DIR/NAME, as git's GIT_PATH_FUNC(FN, NAME). */
#define PATH_FUNC(fn, name) \
	char *fn(const char *dir) \
	{ \
		return xstrfmt("%s/%s", dir, name); \
	}

/* FN(dir, s): DIR/FMT, FMT naming a file after @s (a configuration). */
#define NAMED_PATH_FUNC(fn, fmt) \
	char *fn(const char *dir, const char *s) \
	{ \
		return xstrfmt("%s/" fmt, dir, s); \
	}

PATH_FUNC(path_build, "build")
PATH_FUNC(path_goldens, "expected")
PATH_FUNC(path_series, "patches/series")

NAMED_PATH_FUNC(path_golden, "%s.json")
NAMED_PATH_FUNC(path_pending, "%s.json.pending")
PATH_FUNC(path_redactions, "redactions.yaml")
PATH_FUNC(path_abi_table, "abi.yaml")

PATH_FUNC(path_lock, ".lock")
PATH_FUNC(path_tree_build, "tree")
PATH_FUNC(path_ccache, "ccache")
NAMED_PATH_FUNC(path_source, "sources/%s")
PATH_FUNC(path_source_tree, "src")
PATH_FUNC(path_kernels, "kernels")
NAMED_PATH_FUNC(path_kernel, "kernels/%s")
NAMED_PATH_FUNC(path_out, "out/%s")
PATH_FUNC(path_results, "out/results.json")
PATH_FUNC(path_report_html, "out/report.html")
PATH_FUNC(path_bisect, "bisect")
NAMED_PATH_FUNC(path_lava_jobs, "lava/%s")
NAMED_PATH_FUNC(path_bisect_log, "bisect/%s.log")
NAMED_PATH_FUNC(path_bisect_series, "bisect/%s.series")
NAMED_PATH_FUNC(path_bisect_build_log, "bisect/%s.build.log")
NAMED_PATH_FUNC(path_bisect_patch, "bisect/%s.patch")

NAMED_PATH_FUNC(path_image, "%s")
PATH_FUNC(path_kconfig, ".config")
PATH_FUNC(path_build_log, "build.log")
PATH_FUNC(path_tree_stamp, "sysfarm-tree.stamp")
PATH_FUNC(path_config_stamp, "sysfarm-config.stamp")
PATH_FUNC(path_build_stamp, "sysfarm-build.stamp")
PATH_FUNC(path_kernel_manifest, "sysfarm-kernel.json")
PATH_FUNC(path_kernel_objects, "sysfarm-objects")
PATH_FUNC(path_kernel_source, "source")

PATH_FUNC(path_snapshot, "snapshot.json")
PATH_FUNC(path_snapshot_confirm, "snapshot.confirm.json")
PATH_FUNC(path_snapshot_diff, "snapshot.diff")
PATH_FUNC(path_result, "result.json")
PATH_FUNC(path_console, "console.log")
PATH_FUNC(path_qemu_log, "qemu.log")
PATH_FUNC(path_channel, "channel.out")
PATH_FUNC(path_lava_run, "lava")
PATH_FUNC(path_lava_job, "job.yaml")
PATH_FUNC(path_lava_device, "device.yaml")
PATH_FUNC(path_lava_dispatcher, "dispatcher.yaml")
PATH_FUNC(path_lava_log, "lava.log")
PATH_FUNC(path_lava_output, "output")
PATH_FUNC(path_initramfs, "initramfs.cpio")
PATH_FUNC(path_machine_dtb, "virt.dtb")
PATH_FUNC(path_machine_dts, "virt.dts")
PATH_FUNC(path_board_dts, "board.dts")
PATH_FUNC(path_board_dtb, "board.dtb")
PATH_FUNC(path_board_new, "board.dtb.new")
PATH_FUNC(path_dtc_log, "dtc.log")

NAMED_PATH_FUNC(path_apt, "apt/%s")
PATH_FUNC(path_apt_sources, "sources")
PATH_FUNC(path_apt_sources_file, "sources/sysfarm.sources")
PATH_FUNC(path_apt_lists, "lists")
PATH_FUNC(path_apt_lists_partial, "lists/partial")
PATH_FUNC(path_apt_cache, "cache")
PATH_FUNC(path_apt_archives_partial, "cache/archives/partial")
PATH_FUNC(path_apt_prefs, "preferences.d")
PATH_FUNC(path_apt_updated, "updated")
PATH_FUNC(path_apt_log, "apt.log")
NAMED_PATH_FUNC(path_deb, "debs/%s")
PATH_FUNC(path_deb_root, "root")
PATH_FUNC(path_deb_record, "fetched.json")
NAMED_PATH_FUNC(path_deb_tarball, "usr/src/%s.tar.xz")
PATH_FUNC(path_patchset_sums, "patchset.sha256")
PATH_FUNC(path_tarball_sha256, "tarball.sha256")

char *path_deb_new(const char *deb)
{
	return xstrfmt("%s.new", deb);
}

char *path_key(const char *file)
{
	return xstrfmt("%s.key", file);
}
