// SPDX-License-Identifier: GPL-2.0
/* Where an attribute comes from: its attribute macro in a kernel tree. */
#include <ctype.h>
#include <dirent.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare/diff.h"
#include "lib/paths.h"
#include "verify/origin.h"

/*
 * The macros that name an attribute file after their first argument
 * (include/linux/sysfs.h, device.h, device/bus.h, device/class.h,
 * device/driver.h; kernel/ksysfs.c's KERNEL_ATTR_*): each alone, or with
 * '_' and an upper-case suffix (__ATTR_RO, DEVICE_ATTR_ADMIN_RW).
 */
static const char *const attr_macros[] = {
	"__ATTR", "DEVICE_ATTR", "BUS_ATTR", "CLASS_ATTR", "DRIVER_ATTR",
	"BIN_ATTR", "KERNEL_ATTR", "DEVICE_INT_ATTR", "DEVICE_ULONG_ATTR",
	"DEVICE_BOOL_ATTR", "DEVICE_STRING_ATTR",
};

static int ident_char(int c)
{
	return isalnum(c) || c == '_';
}

static int attr_macro(const char *s, size_t n)
{
	for (size_t i = 0; i < ARRAY_SIZE(attr_macros); i++) {
		size_t m = strlen(attr_macros[i]);

		if (n < m || memcmp(s, attr_macros[i], m))
			continue;
		if (n == m)
			return 1;
		if (s[m] != '_' || n == m + 1)
			continue;
		while (++m < n && (isupper((unsigned char)s[m]) ||
				   isdigit((unsigned char)s[m]) || s[m] == '_'))
			;
		if (m == n)
			return 1;
	}
	return 0;
}

static int def_cmp(const void *a, const void *b)
{
	return strcmp(((const struct origin_def *)a)->name,
		      ((const struct origin_def *)b)->name);
}

static struct origin_def *def_find(const struct origin_tree *t,
				   const char *name)
{
	const struct origin_def key = { .name = (char *)name };

	return t->ndefs ? bsearch(&key, t->defs, t->ndefs, sizeof(key),
				  def_cmp) : NULL;
}

const struct origin_def *origin_tree_find(const struct origin_tree *t,
					  const char *name)
{
	return def_find(t, name);
}

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && isspace((unsigned char)*p))
		p++;
	return p;
}

/* Each definition of a name of @t in @text, file @file of the tree. */
static void text_scan(struct origin_tree *t, const char *file,
		      const char *text, size_t len)
{
	const char *end = text + len, *p = text, *counted = text;
	size_t line = 1;

	while ((p = memmem(p, end - p, "ATTR", 4))) {
		const char *s = p, *me = p + 4, *a, *ae, *e;
		struct origin_def *d;
		char *name;

		while (s > text && ident_char((unsigned char)s[-1]))
			s--;
		while (me < end && ident_char((unsigned char)*me))
			me++;
		p = me;
		if (!attr_macro(s, me - s))
			continue;
		a = skip_space(me, end);
		if (a == end || *a != '(')
			continue;
		a = skip_space(a + 1, end);
		for (ae = a; ae < end && ident_char((unsigned char)*ae); ae++)
			;
		e = skip_space(ae, end);
		if (ae == a || e == end || (*e != ',' && *e != ')'))
			continue;
		name = strndup(a, ae - a);
		d = def_find(t, name);
		free(name);
		if (!d)
			continue;
		for (; counted < s; counted++)
			line += *counted == '\n';
		d->v = xrealloc(d->v, (d->n + 1) * sizeof(*d->v));
		d->v[d->n++] = (struct origin_site){
			.file = xstrdup(file),
			.line = line,
			.macro = xstrfmt("%.*s(%.*s%s", (int)(me - s), s,
					 (int)(ae - a), a,
					 *e == ',' ? ", ...)" : ")"),
		};
	}
}

/*
 * Scans file @rel of the tree when it is a regular file of at most
 * INPUT_MAX_BLOB inside the tree (whose real path is @root): a directory
 * of @rel may be a link. Its name is kept as a terminal shows it.
 */
static void file_scan(struct origin_tree *t, const char *root,
		      const char *rel)
{
	char *path = xstrfmt("%s/%s", t->dir, rel), *text = NULL, *real;
	struct sf_err err = SF_ERR_INIT;
	size_t len;
	struct stat st;

	real = !lstat(path, &st) && S_ISREG(st.st_mode) ?
	       realpath(path, NULL) : NULL;
	if (real && path_inside(real, root))
		text = input_read(real, INPUT_MAX_BLOB, &len, &err);
	if (text) {
		char *shown = diff_text_clean(rel, strlen(rel), "");

		text_scan(t, shown, text, len);
		t->files++;
		free(shown);
		free(text);
	}
	free(real);
	free(path);
}

/*
 * Every entry under @dir/@rel ("" the top), depth first, links not
 * followed: @fn on each regular file's path relative to @dir.
 */
static void tree_walk(const char *dir, const char *rel,
		      void (*fn)(const char *dir, const char *rel, void *ctx),
		      void *ctx)
{
	char *path = *rel ? xstrfmt("%s/%s", dir, rel) : xstrdup(dir);
	DIR *d = opendir(path);
	struct dirent *de;

	while (d && (de = readdir(d))) {
		char *sub;
		struct stat st;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		sub = *rel ? xstrfmt("%s/%s", rel, de->d_name) :
			xstrdup(de->d_name);
		if (de->d_type == DT_DIR) {
			tree_walk(dir, sub, fn, ctx);
		} else if (de->d_type == DT_REG) {
			fn(dir, sub, ctx);
		} else if (de->d_type == DT_UNKNOWN) {
			char *full = xstrfmt("%s/%s", dir, sub);
			int got = !lstat(full, &st);

			if (got && S_ISDIR(st.st_mode))
				tree_walk(dir, sub, fn, ctx);
			else if (got && S_ISREG(st.st_mode))
				fn(dir, sub, ctx);
			free(full);
		}
		free(sub);
	}
	if (d)
		closedir(d);
	free(path);
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* A tree and its real path, for every_c(). */
struct tree_at {
	struct origin_tree *t;
	const char *root;
};

/* Every *.c of the tree, scanned. */
static void every_c(const char *dir, const char *rel, void *ctx)
{
	const struct tree_at *at = ctx;

	if (has_suffix(rel, ".c"))
		file_scan(at->t, at->root, rel);
}

/* A kernel's DIR/.NAME.o.cmd: the tree's DIR/NAME.c. */
static void compiled_c(const char *dir, const char *rel, void *ctx)
{
	const char *base = strrchr(rel, '/');
	size_t n;

	base = base ? base + 1 : rel;
	n = strlen(base);
	if (base[0] == '.' && n > 7 && has_suffix(base, ".o.cmd"))
		strv_pushf(ctx, "%.*s%.*s.c", (int)(base - rel), rel,
			   (int)(n - 7), base + 1);
}

static int str_ptr_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The files the kernels under BUILD/kernels built from @t compiled, each
 * kernel found by its source link; @t->kernels counts them.
 */
static void compiled_files(struct origin_tree *t, const char *tree,
			   const char *build, struct strv *files)
{
	char *kernels = path_kernels(build);
	DIR *d = opendir(kernels);
	struct dirent *de;
	size_t k = 0;

	while (d && (de = readdir(d))) {
		char *kdir = path_kernel(build, de->d_name);
		char *link = path_kernel_source(kdir);
		char *to = de->d_name[0] != '.' ? realpath(link, NULL) : NULL;

		if (to && !strcmp(to, tree)) {
			t->kernels++;
			tree_walk(kdir, "", compiled_c, files);
		}
		free(to);
		free(link);
		free(kdir);
	}
	if (d)
		closedir(d);
	free(kernels);
	/* Sorted, each once: the kernels share most of their files */
	qsort(files->v, files->n, sizeof(*files->v), str_ptr_cmp);
	for (size_t i = 0; i < files->n; i++) {
		if (k && !strcmp(files->v[k - 1], files->v[i]))
			free(files->v[i]);
		else
			files->v[k++] = files->v[i];
	}
	files->n = k;
	if (files->v)
		files->v[k] = NULL;
}

static int site_cmp(const void *a, const void *b)
{
	const struct origin_site *x = a, *y = b;
	int r = strcmp(x->file, y->file);

	return r ? r : (x->line > y->line) - (x->line < y->line);
}

void origin_tree_scan(struct origin_tree *t, const char *build,
		      const struct strv *names)
{
	struct strv files = STRV_INIT;
	struct tree_at at = { .t = t };
	struct stat st;
	char *root;

	t->prepared = !stat(t->dir, &st) && S_ISDIR(st.st_mode) &&
		      (root = realpath(t->dir, NULL));
	if (!t->prepared)
		return;
	at.root = root;
	for (size_t i = 0; i < names->n; i++) {
		if (def_find(t, names->v[i]))
			continue;
		t->defs = xrealloc(t->defs, (t->ndefs + 1) * sizeof(*t->defs));
		t->defs[t->ndefs++] = (struct origin_def){
			.name = xstrdup(names->v[i]),
		};
		qsort(t->defs, t->ndefs, sizeof(*t->defs), def_cmp);
	}
	compiled_files(t, root, build, &files);
	if (!t->kernels)
		tree_walk(t->dir, "", every_c, &at);
	for (size_t i = 0; i < files.n; i++)
		file_scan(t, root, files.v[i]);
	strv_release(&files);
	free(root);
	/* The walk's order is the directories' */
	for (size_t i = 0; i < t->ndefs; i++)
		qsort(t->defs[i].v, t->defs[i].n, sizeof(*t->defs[i].v),
		      site_cmp);
}

void origin_tree_release(struct origin_tree *t)
{
	for (size_t i = 0; i < t->ndefs; i++) {
		for (size_t k = 0; k < t->defs[i].n; k++) {
			free(t->defs[i].v[k].file);
			free(t->defs[i].v[k].macro);
		}
		free(t->defs[i].v);
		free(t->defs[i].name);
	}
	free(t->defs);
	free(t->name);
	free(t->dir);
}
