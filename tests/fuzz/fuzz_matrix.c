// SPDX-License-Identifier: GPL-2.0
/* libFuzzer target: any bytes as a matrix.yaml, loaded and expanded. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pipeline/kbuild.h"
#include "pipeline/matrix.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/*
 * The input is written to TMP/tests/runner/matrix/fuzz/matrix.yaml, where
 * the files the seeds name exist: patches/ and snapshotter/ beside it as in
 * the top directory (matrix.yaml), and ../frag.config and
 * ../../../../snapshotter/ as in tests/runner/matrix/CASE/.
 */
static const char *const links[][2] = {
	{ "patches", "tests/runner/matrix/fuzz/patches" },
	{ "snapshotter", "tests/runner/matrix/fuzz/snapshotter" },
	{ "snapshotter", "snapshotter" },
	{ "tests/runner/matrix/frag.config",
	  "tests/runner/matrix/frag.config" },
};

/*
 * In tmpfs where there is one: on ext4 rewriting a file in place costs a
 * flush per input (auto_da_alloc), which makes the target ten times slower.
 */
static char tmp_shm[] = "/dev/shm/sysfarm-fuzz-matrix.XXXXXX";
static char tmp_disk[] = "/tmp/sysfarm-fuzz-matrix.XXXXXX";
static char *tmp;
static char *path;

static void die(const char *what, const char *msg)
{
	fprintf(stderr, "fuzz_matrix: %s: %s\n", what, msg);
	abort();
}

/* @e as the user would read it */
static const char *err_text(const struct sf_err *e)
{
	static char text[ERR_FORMAT_MAX];

	return err_format(e, text, sizeof(text));
}

static void tmp_remove(void)
{
	rm_rf(tmp);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *top = realpath(".", NULL), *dir;

	tmp = mkdtemp(tmp_shm);
	if (!tmp)
		tmp = mkdtemp(tmp_disk);
	if (!top || !tmp)
		die("cannot make", tmp_disk);
	atexit(tmp_remove);
	dir = xstrfmt("%s/tests/runner/matrix/fuzz", tmp);
	if (mkdir_p(dir))
		die("cannot make", dir);
	for (size_t i = 0; i < ARRAY_SIZE(links); i++) {
		char *from = xstrfmt("%s/%s", top, links[i][0]);
		char *to = xstrfmt("%s/%s", tmp, links[i][1]);

		if (!path_exists(from) || symlink(from, to))
			die("cannot link (run from the top)", to);
		free(from);
		free(to);
	}
	path = xstrfmt("%s/matrix.yaml", dir);
	free(dir);
	free(top);
	return 0;
}

/* What farm_load() does with a matrix that loaded, and what it relies on. */
static void matrix_exercise(const struct matrix *m)
{
	struct sf_err err = SF_ERR_INIT;
	size_t *sel;
	char **names = xmalloc(m->nconfigs * sizeof(*names));
	int n;

	for (size_t i = 0; i < m->nconfigs; i++) {
		const char *name = m->configs[i].name;

		/* build/out/NAME must stay under build/out */
		if (!*name || strchr(name, '/') || name[0] == '.')
			die("configuration name escapes", name);
		names[i] = m->configs[i].name;
		free(matrix_file(m, m->configs[i].s.init));
	}
	/* No prefix farm_load() accepts holds what make's shell parses */
	if (kbuild_check_matrix(m, &err)) {
		if (strncmp(err_text(&err), m->path, strlen(m->path)))
			die("message does not name the matrix", err_text(&err));
	} else {
		for (size_t i = 0; i < m->nconfigs; i++) {
			const char *cc = m->configs[i].s.cross_compile;

			if (cc && cc[strspn(cc, "abcdefghijklmnopqrstuvwxyz"
					       "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
					       "0123456789_./+-")])
				die("cross_compile reaches make's shell", cc);
		}
	}
	err_clear(&err);
	n = matrix_select(m, NULL, 0, &sel, &err);
	if (n < 0 || (size_t)n != m->nconfigs)
		die("matrix_select() of all", err_text(&err));
	free(sel);
	n = matrix_select(m, names, (int)m->nconfigs, &sel, &err);
	for (int i = 0; i < n; i++)
		if (sel[i] != (size_t)i)
			die("matrix_select() by name", names[i]);
	if (n != (int)m->nconfigs)
		die("matrix_select() by name", err_text(&err));
	free(sel);
	free(names);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct matrix m = MATRIX_INIT;
	struct sf_err err = SF_ERR_INIT;
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		die("cannot write", path);
	err_clear(&err);
	if (matrix_load(&m, path, &err)) {
		/* Bad input is named: "PATH:LINE:COL: ..." */
		if (strncmp(err_text(&err), path, strlen(path)) ||
		    err_text(&err)[strlen(path)] != ':')
			die("message does not name the matrix", err_text(&err));
	} else {
		matrix_exercise(&m);
	}
	matrix_release(&m);
	return 0;
}
