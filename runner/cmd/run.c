// SPDX-License-Identifier: GPL-2.0
/* sysfarm run: build, boot and snapshot; build/out/<config>/snapshot.json. */
#include "cmd/builtin.h"
#include "pipeline/farm.h"

static const char usage[] =
	"usage: sysfarm run [OPTIONS] [CONFIG...]\n\n"
	"Builds, boots and snapshots each configuration; the snapshot goes to\n"
	"BUILD/out/CONFIG/snapshot.json beside console.log and result.json.\n\n"
	FARM_USAGE;

int cmd_run(int argc, char **argv)
{
	return farm_stages_main(argc, argv, usage, 1);
}
