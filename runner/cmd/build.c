// SPDX-License-Identifier: GPL-2.0
/* sysfarm build: prepare the source and build the configurations' kernels. */
#include "cmd/builtin.h"
#include "pipeline/farm.h"

static const char about[] =
	"Builds each configuration's kernel (once per build key) and verifies\n"
	"its .config; verdict PASS, CONFIG-FAIL or BUILD-FAIL.\n";

static const struct opt_cmd build_cmd = {
	.usage = "sysfarm build [OPTIONS] [CONFIG...]",
	.about = about,
	.nargs = OPT_CONFIGS,
};

int cmd_build(int argc, char **argv)
{
	return farm_stages_main(argc, argv, &build_cmd, 0);
}
