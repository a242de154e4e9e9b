/* SPDX-License-Identifier: GPL-2.0 */
/*
 * matrix.yaml: axes whose values carry settings, expanded to configurations
 * with GitHub Actions' include/exclude rules. See matrix.yaml for the keys.
 */
#ifndef SYSFARM_MATRIX_H
#define SYSFARM_MATRIX_H

#include "lib/util.h"
#include "lib/verdict.h"

/* What an axis value, `defaults` or an include entry may set. */
struct settings {
	char *tag;			/* this value's part of a config name */
	struct strv fragments;		/* kconfig fragment files */
	struct strv probes;		/* snapshotter probe files */
	struct strv append;		/* kernel command-line words */
	struct strv dts;		/* device-tree fragments (-dtb) */
	struct strv kmsg;		/* kernel log prefixes to keep */
	struct strv roots;		/* sysfs subtrees to snapshot */
	int timeout;			/* seconds from QEMU start */
	int attempts;			/* boots of an infrastructure failure */
	int smp;
	int memory;			/* MiB */
	char *kernel_arch;		/* ARCH= */
	char *cross_compile;		/* CROSS_COMPILE= */
	char *image;			/* boot image, relative to O= */
	char *init;			/* the guest's /init script */
	char *busybox;			/* the guest's static busybox */
	char *snapshotter;		/* the guest's static snapshotter */
	char *qemu_binary;
	char *qemu_machine;
	char *qemu_cpu;
	char *qemu_console;		/* console= device */
	char *qemu_channel;		/* guest device of the result channel */
	struct strv qemu_args;		/* attaches the "channel" chardev */
	char *src_package;		/* kernel.package: the tarball's */
	char *src_tarball;		/* kernel.tarball: the source */
	char *src_series;		/* kernel.series: its patches */
	char *src_suite;		/* kernel.suite: fetched from it */
	char *src_version;		/* kernel.version: its pin, or NULL */
	char *src_sha256;		/* kernel.sha256: the .deb's pin */
	char *src_archive;		/* kernel.archive: an apt URI */
	char *src_keyring;		/* kernel.keyring: Signed-By */
};

struct axis_value {
	char *name;
	struct settings s;
	int line, col;
};

struct axis {
	char *name;
	struct axis_value *values;
	size_t nvalues;
};

struct config {
	char *name;
	size_t *value;		/* per axis: index into axes[i].values */
	struct settings s;	/* defaults + axis values + includes */
	char key[17];		/* build key: see kbuild.h */
	char kernel[17];	/* the key but the compiler: a prebuilt
				 * kernel's (kbuild_prebuilt()) */
};

struct matrix {
	char *path;
	char *dir;		/* relative files are resolved against it */
	struct settings defaults;
	struct axis *axes;
	size_t naxes;
	struct config *configs;
	size_t nconfigs;
};

#define MATRIX_INIT { 0 }

/**
 * matrix_load() - parse and expand a matrix file
 * @m: filled on success
 * @path: the file
 * @err: on failure, "FILE:LINE:COL: what" (or "FILE: what")
 *
 * Return: 0, or -1 with @err set; @m must be released either way.
 */
int matrix_load(struct matrix *m, const char *path, struct sf_err *err);

/**
 * matrix_select() - pick configurations by name, glob or axis value
 * @names: selectors from the command line; none means all. Each is a
 *	name, a glob of names ('x86_64-*', fnmatch(3)) or AXIS=VALUE (VALUE
 *	a glob too), conditions joined by commas all holding
 *	(arch=arm,sysfs=on); the configurations of each, in matrix order,
 *	are added once.
 * @sel: set to a malloc'd array of indices into @m->configs
 *
 * Return: how many were selected, or -1 with @err naming a selector that
 * matches none or an unknown axis.
 */
int matrix_select(const struct matrix *m, char *const *names, int n,
		  size_t **sel, struct sf_err *err);

/*
 * Return: NULL when @s is a good name for an axis, a value or a source
 * ([a-z0-9][a-z0-9._-]*, at most 64 characters), else what is wrong.
 */
const char *matrix_name_problem(const char *s);

/*
 * Return: NULL when @s is a Debian version a fetched source may have
 * (kernel.version's rule: no epoch, no '/'), else what is wrong.
 */
const char *matrix_version_problem(const char *s);

/* The path of a file named in the matrix, resolved against its directory. */
char *matrix_file(const struct matrix *m, const char *rel);

void matrix_release(struct matrix *m);

#endif
