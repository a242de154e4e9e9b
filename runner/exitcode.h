/* SPDX-License-Identifier: GPL-2.0 */
/* Exit statuses of the sysfarm command, chosen so `git bisect run` works. */
#ifndef SYSFARM_EXITCODE_H
#define SYSFARM_EXITCODE_H

enum sf_exit {
	SF_EXIT_OK = 0,		/* everything tested passed */
	SF_EXIT_DIFF = 1,	/* an ABI difference was found */
	SF_EXIT_USAGE = 2,	/* bad usage or bad input (file:line:col) */
	SF_EXIT_INTERRUPTED = 130,	/* SIGINT/SIGTERM, children killed */
	SF_EXIT_UNTESTED = 125,	/* could not test: config, build, boot */
};

#endif
