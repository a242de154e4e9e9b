// SPDX-License-Identifier: GPL-2.0
/* sysfarm run: build, boot and snapshot; build/out/<config>/snapshot.json. */
#include "cmd/builtin.h"
#include "pipeline/farm.h"
#include "pipeline/run.h"

static const char about[] =
	"Builds, boots and snapshots each configuration; the snapshot goes to\n"
	"BUILD/out/CONFIG/snapshot.json beside console.log and result.json.\n";

static const struct opt_cmd run_cmd = {
	.usage = "sysfarm run [OPTIONS] [CONFIG...]",
	.about = about,
	.nargs = OPT_CONFIGS,
};

int cmd_run(int argc, char **argv)
{
	const struct run_hooks hooks = { .boot = 1, .save = 1 };

	return stages_main(argc, argv, &run_cmd, &hooks, NULL);
}
