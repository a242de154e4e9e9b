// SPDX-License-Identifier: GPL-2.0
/* sysfarm run: build, boot and snapshot; build/out/<config>/snapshot.json. */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "exitcode.h"
#include "farm.h"

static const char usage[] =
	"usage: sysfarm run [OPTIONS] [CONFIG...]\n\n"
	"Builds, boots and snapshots each configuration; the snapshot goes to\n"
	"BUILD/out/CONFIG/snapshot.json beside console.log and result.json.\n\n"
	FARM_USAGE;

int cmd_run(int argc, char **argv)
{
	struct result *results;
	struct farm f;
	int i, status;

	farm_init(&f);
	f.uses_source = 1;
	i = farm_parse(&f, argc, argv, usage, NULL, NULL, NULL);
	if (i <= 0) {
		farm_release(&f);
		return i ? SF_EXIT_USAGE : SF_EXIT_OK;
	}
	status = farm_load(&f, argv + i, argc - i);
	if (status) {
		farm_release(&f);
		return status;
	}
	results = xmalloc(f.nsel * sizeof(*results));
	for (size_t s = 0; s < f.nsel; s++) {
		const struct config *c = &f.m.configs[f.sel[s]];
		double t = now_seconds();

		if (!farm_build(&f, c, &results[s]))
			farm_boot(&f, c, &results[s]);
		results[s].seconds = now_seconds() - t;
		farm_result_save(&f, c, &results[s]);
	}
	status = farm_summary(&f, results);
	free(results);
	farm_release(&f);
	return status;
}
