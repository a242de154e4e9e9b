// SPDX-License-Identifier: GPL-2.0
/* sysfarm build: prepare the source and build the configurations' kernels. */
#include "cmd/builtin.h"
#include "pipeline/farm.h"

static const char usage[] =
	"usage: sysfarm build [OPTIONS] [CONFIG...]\n\n"
	"Builds each configuration's kernel (once per build key) and verifies\n"
	"its .config; verdict PASS, CONFIG-FAIL or BUILD-FAIL.\n\n"
	FARM_USAGE;

int cmd_build(int argc, char **argv)
{
	return farm_stages_main(argc, argv, usage, 0);
}
