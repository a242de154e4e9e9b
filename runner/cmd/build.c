// SPDX-License-Identifier: GPL-2.0
/* sysfarm build: prepare the source and build the configurations' kernels. */
#include <stdio.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

static const char about[] =
	"Builds each configuration's kernel (once per build key) and verifies\n"
	"its .config; verdict PASS, CONFIG-FAIL or BUILD-FAIL.\n";

static const struct opt_cmd build_cmd = {
	.usage = "sysfarm build [OPTIONS] [CONFIG...]",
	.about = about,
	.nargs = OPT_CONFIGS,
};

int stages_main(int argc, char **argv, const struct opt_cmd *cmd,
		const struct run_hooks *h, int (*ready)(void *ctx))
{
	struct run *runs;
	struct farm f;
	int status, i;

	farm_init(&f);
	f.uses_source = 1;
	i = ui_options(argc, argv, cmd, h->ctx, &f);
	if (i <= 0) {
		status = i ? SF_EXIT_USAGE : SF_EXIT_OK;
		goto out;
	}
	/* the options alone, before the matrix, sources and compilers */
	if ((ready && (status = ready(h->ctx))) ||
	    (status = ui_farm_load(&f, argv + i, argc - i)))
		goto out;
	runs = run_alloc(&f);
	run_matrix(&f, runs, h);
	status = ui_summary(&f, runs);
	run_free(&f, runs);
out:
	farm_release(&f);
	return status;
}

int cmd_build(int argc, char **argv)
{
	const struct run_hooks hooks = { 0 };

	return stages_main(argc, argv, &build_cmd, &hooks, NULL);
}
