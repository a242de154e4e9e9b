// SPDX-License-Identifier: GPL-2.0
/* sysfarm review: accept, reject or skip the snapshots check left pending. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"

static const char about[] =
	"Walks the snapshots `check` left pending (expected/CONFIG.json.pending,\n"
	"one per DIFF or NEW configuration): shows each one's classified diff\n"
	"against its golden and what the ABI table finds in it, then accepts\n"
	"it (its golden is written atomically, the pending file removed),\n"
	"rejects it (the pending file alone is removed) or skips it. On a\n"
	"terminal it asks; --accept or --reject answer for every one; without\n"
	"either and without a terminal it lists them. With no CONFIG, a pending\n"
	"file no configuration is named after is listed, and --reject removes\n"
	"it. Builds and boots nothing; a review interrupted loses nothing.\n"
	"Exit status: 0 none left pending, 1 some left (skipped or listed),\n"
	"2 a pending file or golden that cannot be parsed or is a symbolic\n"
	"link (a link --reject removes, never its target), 125 one that\n"
	"cannot be read, or a golden that cannot be written.\n";

struct review_opts {
	struct golden_dir_opts dir;
	int accept, reject, color;
};

static const struct opt review_options[] = {
	OPT_BOOLEAN(0, "accept", struct review_opts, accept,
		    "accept every pending snapshot selected"),
	OPT_BOOLEAN(0, "reject", struct review_opts, reject,
		    "reject every pending snapshot selected"),
	OPT_COLOR(0, "color", struct review_opts, color,
		  "auto, always or never"),
	OPT_INCLUDE(golden_dir_options, struct review_opts, dir),
	OPT_END
};

static const struct opt_cmd review_cmd = {
	.usage = "sysfarm review [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = review_options,
	.nargs = OPT_CONFIGS,
};

enum answer { ACCEPT, REJECT, SKIP, QUIT };

struct review {
	struct farm *f;
	const struct review_opts *o;
	char *expected;
	struct redactions reds;
	struct abi_table abi;
	struct judge judge;		/* check's, without --allow-added */
	struct abi_docs_set docs;	/* the trees' Documentation/ABI */
	int ask;			/* on a terminal, neither option */
	int status;			/* reading's, folded */
	int lost;			/* a golden not written, a pending
					 * file not removed (said) */
	size_t left;			/* pending files still there */
	size_t unread;			/* of those, not shown: it or its
					 * golden was not read */
};

/* @line (@len bytes), blanks trimmed, is @word or its first letter. */
static int answer_is(const char *line, size_t len, const char *word)
{
	/* a NUL inside is no answer: the bytes after it count too */
	if (memchr(line, '\0', len))
		return 0;
	while (len && strchr(" \t\r\n", line[len - 1]))
		len--;
	while (len && strchr(" \t", *line)) {
		line++;
		len--;
	}
	return (len == 1 && *line == *word) ||
	       (len == strlen(word) && !strncmp(line, word, len));
}

/*
 * One answer from the terminal, a whole line: "a" or "accept", ...;
 * anything else asks again. End of input is quit.
 */
static enum answer ask(void)
{
	static const char *const words[] = { "accept", "reject", "skip",
					     "quit" };
	char *line = NULL;
	size_t size = 0;
	ssize_t len;
	int a = QUIT;

	for (;;) {
		printf("accept, reject, skip, quit? [a/r/s/q] ");
		fflush(stdout);
		len = getline(&line, &size, stdin);
		if (len < 0) {
			printf("\n");
			break;
		}
		for (a = 0; a < 4 && !answer_is(line, (size_t)len, words[a]);
		     a++)
			;
		if (a < 4)
			break;
		printf("a: write the golden, r: remove the pending file, s: leave it, q: leave it and the rest\n");
	}
	free(line);
	return a < 4 ? (enum answer)a : QUIT;
}

/*
 * @snap (the pending file, loaded) judged as check judges it: the
 * verdict, each change and what the ABI table finds in it. Return: 0, or
 * INPUT_EIO / INPUT_EBAD when the golden or the configuration's fragments
 * cannot be read or parsed (said).
 */
static int show_diff(struct review *rv, size_t s, const char *pending,
		     const char *golden, json_t *snap)
{
	const struct config *c = &rv->f->m.configs[rv->f->sel[s]];
	char *tree = farm_source_tree(farm_source(rv->f, s));
	struct judgement jd = JUDGEMENT_INIT;
	size_t n;
	char *summary;
	int ret = 0;

	judge_snapshot(&rv->judge, c, tree, golden, pending, snap, &jd);
	free(tree);
	if (jd.v == V_CORRUPT) {
		ret = input_status(&jd.why);
		ui_fail(&jd.why);
		goto out;
	}
	summary = diff_summary(&jd.diff);
	if (jd.v == V_NEW)
		printf("\n%s: NEW: no golden %s yet (%s)\n", c->name, golden,
		       pending);
	else
		printf("\n%s: %s: %s against %s (%s)\n", c->name,
		       verdict_name(jd.v), summary, golden, pending);
	free(summary);
	diff_print(stdout, &jd.diff, "  ", rv->o->color);
	n = abi_count(&jd.found);
	if (n) {
		printf("  %s finds %zu fault%s in it: once accepted, check says ABI-MISMATCH until the table or the kernel changes\n",
		       rv->abi.path, n, n == 1 ? "" : "s");
		abi_print(stdout, &jd.found, "  abi: ", 0);
	}
out:
	judgement_release(&jd);
	return ret;
}

/* A file name as a terminal shows it safely (a stray's is anyone's). */
static char *shown(const char *path)
{
	return diff_quote(path, strlen(path));
}

/*
 * Removes @pending unless it is no longer the file @seen describes (a
 * check in another terminal wrote a new one while this one was on the
 * screen: that one is for the next review). NULL @seen: remove it.
 * Return: 0 removed (or gone), -1 kept (said).
 */
static int pending_remove(struct review *rv, const char *pending,
			  const struct stat *seen)
{
	char *q = shown(pending);
	struct stat now;
	int ret = 0;

	if (seen && !lstat(pending, &now) &&
	    (now.st_ino != seen->st_ino || now.st_dev != seen->st_dev ||
	     now.st_size != seen->st_size ||
	     now.st_mtim.tv_sec != seen->st_mtim.tv_sec ||
	     now.st_mtim.tv_nsec != seen->st_mtim.tv_nsec)) {
		printf("%s changed since it was shown: kept for the next review\n",
		       q);
		rv->left++;
		ret = -1;
	} else if (unlink(pending) && errno != ENOENT) {
		fprintf(stderr, "sysfarm: cannot remove %s: %s\n", q,
			strerror(errno));
		rv->lost = 1;
		rv->left++;
		ret = -1;
	}
	free(q);
	return ret;
}

/* Accept: the golden first (atomic), then the pending file goes. */
static void accept(struct review *rv, const char *pending, const char *golden,
		   json_t *snap, const struct stat *seen)
{
	struct sf_err err = SF_ERR_INIT;

	if (golden_save(rv->expected, golden, snap, &rv->reds, &err)) {
		ui_error("sysfarm", &err);
		rv->lost = 1;
		rv->left++;
		return;
	}
	printf("accepted: wrote %s\n", golden);
	pending_remove(rv, pending, seen);
}

static void reject(struct review *rv, const char *pending,
		   const struct stat *seen)
{
	char *q;

	if (pending_remove(rv, pending, seen))
		return;
	q = shown(pending);
	printf("rejected: removed %s\n", q);
	free(q);
}

/*
 * The @s-th selected configuration's pending file, if it has one.
 * Return: 1 to quit.
 */
static int review_one(struct review *rv, size_t s)
{
	const struct config *c = &rv->f->m.configs[rv->f->sel[s]];
	char *pending = path_pending(rv->expected, c->name);
	char *golden = path_golden(rv->expected, c->name);
	struct sf_err err = SF_ERR_INIT;
	enum answer a = SKIP;
	json_t *snap = NULL;
	struct stat seen;
	int quit = 0, ret;

	if (lstat(pending, &seen))
		goto out;
	ret = golden_read(pending, &snap, &err);
	if (ret || (ret = snap_check(pending, snap, &err))) {
		ui_error(NULL, &err);
		rv->status = verdict_exit_fold(rv->status,
					       verdict_exit_input(ret));
		/* a damaged pending file can still be rejected */
		if (rv->o->reject) {
			reject(rv, pending, &seen);
		} else {
			rv->left++;
			rv->unread++;
		}
		goto out;
	}
	if ((ret = show_diff(rv, s, pending, golden, snap))) {
		rv->status = verdict_exit_fold(rv->status,
					       verdict_exit_input(ret));
		rv->left++;
		rv->unread++;
		goto out;
	}
	if (rv->o->accept)
		a = ACCEPT;
	else if (rv->o->reject)
		a = REJECT;
	else if (rv->ask)
		a = ask();
	if (a == ACCEPT)
		accept(rv, pending, golden, snap, &seen);
	else if (a == REJECT)
		reject(rv, pending, &seen);
	else
		rv->left++;
	quit = a == QUIT;
out:
	json_decref(snap);
	free(golden);
	free(pending);
	return quit;
}

/*
 * Pending files no configuration of the matrix is named after: removed
 * by --reject, else left (and counted).
 */
static void review_strays(struct review *rv)
{
	struct strv found = STRV_INIT;

	golden_pending_list(rv->expected, &found);
	for (size_t i = 0; i < found.n; i++) {
		const char *name = strrchr(found.v[i], '/') + 1;
		char *q;

		if (golden_names_config(rv->f, name, ".json.pending"))
			continue;
		q = shown(found.v[i]);
		printf("\n%s: no configuration of the matrix is named after it\n",
		       q);
		free(q);
		if (rv->o->reject)
			reject(rv, found.v[i], NULL);
		else
			rv->left++;
	}
	strv_release(&found);
}

int cmd_review(int argc, char **argv)
{
	struct review_opts o = { .color = isatty(STDOUT_FILENO) };
	struct review rv = { .o = &o, .reds = REDACTIONS_INIT };
	struct farm f;
	struct stat st;
	size_t s;
	int status;

	farm_init(&f);
	rv.f = &f;
	if (ui_setup(&f, argc, argv, &review_cmd, &o, &status))
		goto out;
	if (o.accept && o.reject) {
		fprintf(stderr, "sysfarm review: --accept or --reject, not both\n");
		status = SF_EXIT_USAGE;
		goto out;
	}
	status = SF_EXIT_USAGE;
	if (golden_dir_load(&o.dir, f.top, &rv.expected, &rv.reds) ||
	    golden_abi_load(rv.expected, &rv.abi))
		goto out;
	if (stat(rv.expected, &st) || !S_ISDIR(st.st_mode)) {
		char *q = shown(rv.expected);

		fprintf(stderr, "sysfarm review: %s: not a directory of goldens\n",
			q);
		free(q);
		goto out;
	}
	rv.judge = (struct judge){ .m = &f.m, .reds = &rv.reds,
				   .abi = &rv.abi, .docs = &rv.docs,
				   .hold = 1 };
	rv.ask = !o.accept && !o.reject && isatty(STDIN_FILENO);
	for (s = 0; s < f.nsel; s++)
		if (review_one(&rv, s))
			break;
	/* after a quit, the ones not shown are still pending */
	for (s = s < f.nsel ? s + 1 : s; s < f.nsel; s++) {
		char *pending = path_pending(rv.expected,
					     f.m.configs[f.sel[s]].name);

		rv.left += path_exists(pending);
		free(pending);
	}
	if (f.nsel == f.m.nconfigs)
		review_strays(&rv);
	if (rv.left)
		printf("\n%zu pending snapshot%s left in %s\n", rv.left,
		       rv.left == 1 ? "" : "s", rv.expected);
	else
		printf("no pending snapshot in %s\n", rv.expected);
	/* one not shown is the read's failure, not a difference left */
	status = verdict_exit_fold(rv.status, rv.left > rv.unread ?
				   SF_EXIT_DIFF : SF_EXIT_OK);
	if (rv.lost)
		status = verdict_exit_lost(status);
out:
	abi_table_release(&rv.abi);
	abi_docs_set_release(&rv.docs);
	redactions_release(&rv.reds);
	free(rv.expected);
	farm_release(&f);
	return status;
}
