// SPDX-License-Identifier: GPL-2.0
/* sysfarm abi: check snapshots and Documentation/ABI against the ABI table. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/abi.h"
#include "compare/diff.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/kconfig.h"
#include "lib/paths.h"
#include "pipeline/farm.h"

static const char about[] =
	"Checks each configuration's snapshot (BUILD/out/CONFIG/snapshot.json)\n"
	"against the ABI table: files no row documents (undocumented), rows\n"
	"whose file is absent where their condition holds (missing), modes\n"
	"other than the row's (mode), and rows whose Documentation/ABI source\n"
	"has no What: entry for them in the kernel tree (stale). A finding its\n"
	"row waives is shown with the reason and does not count. Exit 0 none,\n"
	"1 a finding, 2 bad usage or input, 125 a snapshot or the tree is missing.\n";

struct abi_opts {
	const char *table, *tree, *snapshot;
	int goldens;
	struct strv kconfig;
};

static const struct opt abi_options[] = {
	OPT_STRING(0, "table", struct abi_opts, table, "FILE",
		   "the ABI table (expected/abi.yaml beside the matrix)"),
	OPT_BOOLEAN(0, "goldens", struct abi_opts, goldens,
		    "check expected/CONFIG.json instead of the snapshots"),
	OPT_STRING(0, "kernel-tree", struct abi_opts, tree, "DIR",
		   "where Documentation/ABI is read (each source's tree)"),
	OPT_STRING(0, "snapshot", struct abi_opts, snapshot, "FILE",
		   "check this snapshot instead of configurations' "
		   "(with --table and --kernel-tree, no matrix needed)"),
	OPT_STRV(0, "kconfig", struct abi_opts, kconfig, "FILE",
		 "with --snapshot: the options that hold (y or m)"),
	OPT_END
};

static const struct opt_cmd abi_cmd = {
	.usage = "sysfarm abi [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = abi_options,
	.nargs = OPT_CONFIGS,
};

/*
 * Checks one snapshot file and prints its findings; a @golden is read as
 * every command reads one (golden_read(): never through a link).
 * Return: exit status.
 */
static int snapshot_check(const struct abi_table *t, const char *name,
			  const char *path, int golden,
			  const struct strv *kconfig, unsigned char *seen)
{
	struct abi_findings fs = ABI_FINDINGS_INIT;
	struct sf_err err = SF_ERR_INIT;
	json_t *snap;
	size_t n;
	int ret = golden ? golden_read(path, &snap, &err) :
		snap_load(path, &snap, &err);

	if (ret) {
		ui_error(NULL, &err);
		return verdict_exit_input(ret);
	}
	abi_check(t, snap, kconfig, seen, &fs);
	n = abi_count(&fs);
	printf("%s: %zu files, %zu finding%s, %zu waived\n", name, fs.files, n,
	       n == 1 ? "" : "s", fs.n - n);
	abi_print(stdout, &fs, "  ", 1);
	abi_findings_release(&fs);
	json_decref(snap);
	return n ? SF_EXIT_DIFF : SF_EXIT_OK;
}

/* --snapshot FILE, the options that hold read from the --kconfig files */
static int file_check(const struct abi_table *t, const struct abi_opts *o,
		      unsigned char *seen)
{
	struct strv kconfig = STRV_INIT;
	int status = SF_EXIT_USAGE;
	struct sf_err err = SF_ERR_INIT;

	for (size_t i = 0; i < o->kconfig.n; i++)
		if (kconfig_read_set(o->kconfig.v[i], &kconfig, &err)) {
			ui_error("sysfarm", &err);
			goto out;
		}
	status = snapshot_check(t, o->snapshot, o->snapshot, 0, &kconfig,
				seen);
out:
	strv_release(&kconfig);
	return status;
}

static int configs_check(const struct farm *f, const struct abi_opts *o,
			 const struct abi_table *t, unsigned char *seen)
{
	/* --goldens: the matrix's, TOP/expected (no --expected here) */
	char *dir = o->goldens ? path_goldens(f->top) : NULL;
	int status = SF_EXIT_OK;

	for (size_t s = 0; s < f->nsel; s++) {
		const struct config *c = &f->m.configs[f->sel[s]];
		char *out = dir ? NULL : path_out(f->build, c->name);
		char *path = dir ? path_golden(dir, c->name) :
				   path_snapshot(out);
		struct strv kconfig = STRV_INIT;
		struct sf_err err = SF_ERR_INIT;
		int ret;

		if (kbuild_fragment_options(&f->m, c, &kconfig, &err)) {
			ui_error("sysfarm", &err);
			ret = SF_EXIT_USAGE;
		} else {
			ret = snapshot_check(t, c->name, path, !!dir, &kconfig,
					     seen);
		}
		status = verdict_exit_fold(status, ret);
		strv_release(&kconfig);
		free(path);
		free(out);
	}
	free(dir);
	return status;
}

/* The table's Documentation/ABI rows against one kernel tree. */
static int docs_check_tree(const struct abi_opts *o,
			   const struct abi_table *t, const char *tree)
{
	struct abi_findings fs = ABI_FINDINGS_INIT;
	struct sf_err err = SF_ERR_INIT;
	int checked = abi_check_docs(t, tree, &fs, &err);
	size_t n = abi_count(&fs);
	char text[ERR_FORMAT_MAX];

	if (checked < 0 && o->tree) {
		ui_error("sysfarm", &err);
	} else if (checked < 0) {
		/* The hint follows the message: the tree is ours to prepare */
		fprintf(stderr, "sysfarm: %s ('sysfarm build' prepares %s, or use --kernel-tree)\n",
			err_format(&err, text, sizeof(text)), tree);
	} else {
		printf("%s: %zu rows, %d checked against %s/Documentation/ABI, %zu stale, %zu waived\n",
		       t->path, t->n, checked, tree, n, fs.n - n);
		abi_print(stdout, &fs, "  ", 1);
	}
	abi_findings_release(&fs);
	return checked < 0 ? SF_EXIT_UNTESTED : n ? SF_EXIT_DIFF : SF_EXIT_OK;
}

/* --kernel-tree, or the tree of every source the configurations build. */
static int docs_check(const struct farm *f, const struct abi_opts *o,
		      const struct abi_table *t)
{
	int status = SF_EXIT_OK;

	if (o->tree)
		return docs_check_tree(o, t, o->tree);
	for (size_t i = 0; i < f->nsrcs; i++) {
		const char *root = f->srcs[i].root;
		char *tree = root ? path_source_tree(root) :
			xstrdup(f->kernel_src);

		status = verdict_exit_fold(status, docs_check_tree(o, t, tree));
		free(tree);
	}
	return status;
}

int cmd_abi(int argc, char **argv)
{
	struct abi_opts o = { .kconfig = STRV_INIT };
	struct abi_table t = ABI_TABLE_INIT;
	unsigned char *seen = NULL;
	struct sf_err err = SF_ERR_INIT;
	char *table;
	struct farm f;
	int i, status;

	farm_init(&f);
	i = ui_options(argc, argv, &abi_cmd, &o, &f);
	if (i <= 0) {
		status = i ? SF_EXIT_USAGE : SF_EXIT_OK;
		goto out_farm;
	}
	if ((o.snapshot && (i < argc || o.goldens)) ||
	    (o.kconfig.n && !o.snapshot)) {
		fprintf(stderr, "sysfarm abi: --snapshot goes without CONFIG and --goldens, --kconfig with --snapshot\n");
		status = SF_EXIT_USAGE;
		goto out_farm;
	}
	/* A snapshot file and its tree need no matrix */
	if (!o.snapshot || !o.tree || !o.table) {
		status = ui_farm_load(&f, argv + i, argc - i);
		if (status)
			goto out_farm;
	}
	if (o.table) {
		table = xstrdup(o.table);
	} else {
		char *goldens = path_goldens(f.top);

		table = path_abi_table(goldens);
		free(goldens);
	}
	if (abi_table_load(&t, table, &err)) {
		ui_error(NULL, &err);
		status = SF_EXIT_USAGE;
		goto out_table;
	}
	seen = memset(xmalloc(t.n + 1), 0, t.n + 1);
	if (o.snapshot)
		status = file_check(&t, &o, seen);
	else
		status = configs_check(&f, &o, &t, seen);
	/* Bad input is reported alone: the first error wins. */
	if (status != SF_EXIT_USAGE)
		status = verdict_exit_fold(status, docs_check(&f, &o, &t));
	for (size_t r = 0; r < t.n; r++) {
		char *path;

		if (seen[r])
			continue;
		path = diff_text_clean(t.v[r].path, strlen(t.v[r].path), "");
		printf("not observed: %s:%zu %s\n", t.path, t.v[r].line,
		       path);
		free(path);
	}
	free(seen);
out_table:
	abi_table_release(&t);
	free(table);
out_farm:
	strv_release(&o.kconfig);
	farm_release(&f);
	return status;
}
