// SPDX-License-Identifier: GPL-2.0
/* sysfarm build: prepare the source and build the configurations' kernels. */
#include <stdio.h>
#include <stdlib.h>

#include "builtin.h"
#include "exitcode.h"
#include "farm.h"

static const char usage[] =
	"usage: sysfarm build [OPTIONS] [CONFIG...]\n\n" FARM_USAGE;

int cmd_build(int argc, char **argv)
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

		results[s].v = V_PASS;
		farm_build(&f, c, &results[s]);
		results[s].seconds = now_seconds() - t;
	}
	status = farm_summary(&f, results);
	free(results);
	farm_release(&f);
	return status;
}
