// SPDX-License-Identifier: GPL-2.0
/* Writes the guest initramfs as a newc cpio archive. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include "pipeline/image.h"

/* The busybox applets /init, the probes' helpers and `sysfarm shell` use. */
static const char *const applets[] = {
	"sh", "mount", "mkdir", "cat", "stty", "reboot", "sleep", "head",
	"dd", "grep", "echo", "printf", "ls", "tr", "mkfifo", "od", "umount",
	"setsid", "cttyhack", "base64",
};

static const struct {
	const char *name;
	unsigned int major, minor;
} nodes[] = {
	{ "dev/console", 5, 1 },
	{ "dev/null", 1, 3 },
	{ "dev/kmsg", 1, 11 },
	{ "dev/urandom", 1, 9 },
	{ "dev/ttyS0", 4, 64 },
	{ "dev/ttyS1", 4, 65 },
	{ "dev/ttyAMA0", 204, 64 },
	{ "dev/hvc0", 229, 0 },
};

static const char *const dirs[] = {
	"bin", "dev", "etc", "etc/sysfarm", "etc/sysfarm/probes", "proc",
	"sys", "tmp",
};

struct cpio {
	FILE *f;
	unsigned int ino;
};

static void cpio_pad(struct cpio *a)
{
	while (ftell(a->f) % 4)
		fputc(0, a->f);
}

/* Every field is fixed (mtime 0, uid 0) so that archives are reproducible. */
static void cpio_entry(struct cpio *a, const char *name, unsigned int mode,
		       const void *data, size_t len, unsigned int rmaj,
		       unsigned int rmin)
{
	fprintf(a->f, "070701%08X%08X%08X%08X%08X%08X%08zX%08X%08X%08X%08X%08zX%08X",
		++a->ino, mode, 0, 0, 1, 0, len, 0, 0, rmaj, rmin,
		strlen(name) + 1, 0);
	fwrite(name, 1, strlen(name) + 1, a->f);
	cpio_pad(a);
	if (len) {
		fwrite(data, 1, len, a->f);
		cpio_pad(a);
	}
}

/* @lines as a file of one line each, for /init's read loop. */
static void cpio_lines(struct cpio *a, const char *name,
		       const struct strv *lines)
{
	char *text = xstrdup("");

	for (size_t i = 0; i < lines->n; i++) {
		char *more = xstrfmt("%s%s\n", text, lines->v[i]);

		free(text);
		text = more;
	}
	cpio_entry(a, name, S_IFREG | 0644, text, strlen(text), 0, 0);
	free(text);
}

static int cpio_file(struct cpio *a, const char *name, unsigned int perm,
		     const char *path, struct sf_err *err)
{
	size_t len;
	char *buf = input_read(path, INPUT_MAX_BLOB, &len, err);

	if (!buf)
		return -1;
	cpio_entry(a, name, S_IFREG | perm, buf, len, 0, 0);
	free(buf);
	return 0;
}

int image_build(const struct matrix *m, const struct config *c,
		const char *init, const char *out, struct sf_err *err)
{
	const struct settings *s = &c->s;
	struct cpio a = { 0 };
	char *buf = NULL, *path;
	size_t i, len = 0;
	int ret = -1, bad;

	/* made in memory: written only when it differs from the last one */
	a.f = open_memstream(&buf, &len);
	if (!a.f) {
		err_set(err, "cannot make an initramfs: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(dirs); i++)
		cpio_entry(&a, dirs[i], S_IFDIR | 0755, NULL, 0, 0, 0);
	for (i = 0; i < ARRAY_SIZE(nodes); i++)
		cpio_entry(&a, nodes[i].name, S_IFCHR | 0600, NULL, 0,
			   nodes[i].major, nodes[i].minor);
	if (cpio_file(&a, "init", 0755, init, err))
		goto out_close;
	path = matrix_file(m, s->busybox);
	ret = cpio_file(&a, "bin/busybox", 0755, path, err);
	free(path);
	if (ret)
		goto out_close;
	ret = -1;
	for (i = 0; i < ARRAY_SIZE(applets); i++) {
		char *name = xstrfmt("bin/%s", applets[i]);

		cpio_entry(&a, name, S_IFLNK | 0777, "busybox", 7, 0, 0);
		free(name);
	}
	path = matrix_file(m, s->snapshotter);
	ret = cpio_file(&a, "bin/snapshot", 0755, path, err);
	free(path);
	if (ret)
		goto out_close;
	ret = -1;
	/* Numbered, so that /init's glob runs them in the matrix's order. */
	for (i = 0; i < s->probes.n; i++) {
		const char *base = strrchr(s->probes.v[i], '/');
		char *name = xstrfmt("etc/sysfarm/probes/%02zu-%s", i,
				     base ? base + 1 : s->probes.v[i]);
		int r;

		path = matrix_file(m, s->probes.v[i]);
		r = cpio_file(&a, name, 0644, path, err);
		free(path);
		free(name);
		if (r)
			goto out_close;
	}
	/*
	 * /init passes each kmsg line as --kmsg-prefix, each roots line as a
	 * ROOT: the roots are boot data, like the probes, never the kernel's.
	 */
	cpio_lines(&a, "etc/sysfarm/kmsg", &s->kmsg);
	cpio_lines(&a, "etc/sysfarm/roots", &s->roots);
	cpio_entry(&a, "TRAILER!!!", 0, NULL, 0, 0, 0);
	ret = 0;
out_close:
	bad = ferror(a.f);
	if (fclose(a.f) || bad) {
		if (!ret)
			err_set(err, "cannot make an initramfs: %s",
				strerror(errno ? errno : ENOMEM));
		ret = -1;
	}
	if (ret)
		goto out;
	if (file_update(out, buf, len) < 0) {
		err_set(err, "%s: cannot write: %s", out, strerror(errno));
		ret = -1;
	}
out:
	free(buf);
	return ret;
}
