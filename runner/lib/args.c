// SPDX-License-Identifier: GPL-2.0
/* Option parsing for the commands that take files, not configurations. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/args.h"
#include "lib/util.h"

int args_parse(int argc, char **argv, const char *usage,
	       const struct option *options,
	       int (*cb)(void *ctx, int opt, const char *arg), void *ctx,
	       int nargs)
{
	static const struct option help = { "help", no_argument, NULL, 'h' };
	struct option *all;
	size_t n = 0;
	int opt, ret = 0;

	while (options[n].name)
		n++;
	all = xmalloc((n + 2) * sizeof(*all));
	memcpy(all, options, n * sizeof(*all));
	all[n] = help;
	memset(&all[n + 1], 0, sizeof(*all));
	optind = 1;
	while (!ret && (opt = getopt_long(argc, argv, "h", all, NULL)) != -1) {
		if (opt == 'h') {
			fputs(usage, stdout);
			free(all);
			return 0;
		}
		ret = opt == '?' ? -1 : cb(ctx, opt, optarg);
	}
	free(all);
	if (!ret && argc - optind == nargs)
		return optind;
	if (!ret || opt == '?')
		fputs(usage, stderr);
	return -1;
}
