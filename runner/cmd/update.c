// SPDX-License-Identifier: GPL-2.0
/* sysfarm update: run configurations and write their goldens atomically. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/golden.h"
#include "cmd/ui.h"
#include "compare/diff.h"
#include "compare/snap.h"
#include "lib/exitcode.h"
#include "lib/paths.h"

static const char about[] =
	"Runs the configurations like `check` and writes expected/CONFIG.json\n"
	"for each NEW or DIFF one (or whose inputs changed, or whose additions\n"
	"the ABI table allows: PASS, as in check), each atomically.\n"
	"Over the whole matrix, once every configuration gave a snapshot, obsolete\n"
	"goldens are removed, each named first: the DIR/NAME.json sysfarm wrote\n"
	"(a snapshot whose header has inputs and snapshotter) that no\n"
	"configuration is named after; links and other files are left alone.\n"
	"Refuses under CI=true: the would-be goldens stay in\n"
	"BUILD/out/CONFIG/snapshot.json with snapshot.diff, for a reviewer to\n"
	"accept locally.\n";

struct update_opts {
	struct golden_opts g;
	int force;
};

static const struct opt update_options[] = {
	OPT_BOOLEAN(0, "force", struct update_opts, force,
		    "write goldens even under CI=true"),
	OPT_INCLUDE(golden_options, struct update_opts, g),
	OPT_END
};

static const struct opt_cmd update_cmd = {
	.usage = "sysfarm update [OPTIONS] [CONFIG...]",
	.about = about,
	.opts = update_options,
	.nargs = OPT_CONFIGS,
};

/*
 * @r's snapshot, normalized, as its golden (temp file + rename), said,
 * with what the ABI table finds in it; a pending one of it is done with.
 * Return: 0, or -1 with @err set.
 */
static int golden_write(const struct golden_run *run, size_t s,
			struct sf_err *err)
{
	const struct run *r = &run->runs[s];
	char *golden = path_golden(run->expected, r->c->name);
	char *pending = path_pending(run->expected, r->c->name);
	size_t n = abi_count(&run->judged[s].found);
	int ret = -1;

	if (snap_check(r->snapshot, r->snap, err) ||
	    golden_save(run->expected, golden, r->snap, &run->reds, err))
		goto out;
	printf("wrote %s (%s)\n", golden, verdict_name(r->res.v));
	if (n)
		printf("  %s finds %zu fault%s in it (above): check will say ABI-MISMATCH until the table or the kernel changes\n",
		       run->abi.path, n, n == 1 ? "" : "s");
	if (unlink(pending) == 0)
		printf("removed %s\n", pending);
	ret = 0;
out:
	free(pending);
	free(golden);
	return ret;
}

int cmd_update(int argc, char **argv)
{
	struct update_opts o = { 0 };
	struct golden_run run;
	struct farm f;
	int status, changes = 0, untested = 0, refuse;

	farm_init(&f);
	f.uses_source = 1;
	if (ui_setup(&f, argc, argv, &update_cmd, &o, &status))
		goto out_farm;
	status = golden_run(&f, &o.g, &run);
	if (status)
		goto out_run;
	golden_print(&f, &run, 0);
	status = SF_EXIT_OK;
	refuse = golden_ci() && !o.force;
	for (size_t s = 0; s < f.nsel; s++) {
		const struct run *r = &run.runs[s];
		enum verdict v = r->res.v;
		struct sf_err err = SF_ERR_INIT;

		if (v != V_PASS && v != V_DIFF && v != V_NEW) {
			status = SF_EXIT_UNTESTED;
			untested++;
			continue;
		}
		/* PASS may hold allowed changes: the golden takes them */
		if (v == V_PASS && !run.judged[s].diff.n &&
		    !run.judged[s].inputs_changed.n)
			continue;
		changes++;
		if (!refuse && golden_write(&run, s, &err)) {
			ui_error("sysfarm", &err);
			status = SF_EXIT_UNTESTED;
		}
	}
	if (f.nsel == f.m.nconfigs && run.obsolete.n && untested)
		printf("obsolete goldens kept because %d configuration%s gave no snapshot\n",
		       untested, untested == 1 ? "" : "s");
	/* Only a whole run's snapshots prove that no configuration makes it */
	for (size_t k = 0; f.nsel == f.m.nconfigs && !untested &&
			   k < run.obsolete.n; k++) {
		char *shown;

		changes++;
		if (refuse)
			continue;
		shown = diff_text_clean(run.obsolete.v[k],
					strlen(run.obsolete.v[k]), "");
		printf("removing obsolete %s\n", shown);
		fflush(stdout);
		if (unlink(run.obsolete.v[k])) {
			fprintf(stderr, "sysfarm: cannot remove '%s': %s\n",
				shown, strerror(errno));
			status = SF_EXIT_UNTESTED;
		}
		free(shown);
	}
	if (changes && refuse) {
		char *out = path_out(f.build, "<config>");
		char *snap = path_snapshot(out);

		fprintf(stderr, "sysfarm: CI=true: %d golden change%s not written (--force to write); the would-be goldens are %s, their diffs snapshot.diff\n",
			changes, changes == 1 ? "" : "s", snap);
		free(snap);
		free(out);
		status = SF_EXIT_USAGE;
	}
	if (run.lost)
		status = verdict_exit_lost(status);
out_run:
	golden_release(&f, &run);
out_farm:
	farm_release(&f);
	return status;
}
