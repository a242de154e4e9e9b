/* SPDX-License-Identifier: GPL-2.0 */
/* Exit statuses of the sysfarm command, chosen so `git bisect run` works. */
#ifndef SYSFARM_EXITCODE_H
#define SYSFARM_EXITCODE_H

enum sf_exit {
	SF_EXIT_OK = 0,		/* everything tested passed */
	SF_EXIT_DIFF = 1,	/* an ABI difference was found */
	SF_EXIT_USAGE = 2,	/* bad usage or bad input (file:line:col) */
	/*
	 * SF_EXIT_USAGE while `git bisect run` is bisecting: 1 to 127 but
	 * 125 would mark the commit bad, and bad input is not about the
	 * commit; 128 and above make git stop the bisection instead.
	 */
	SF_EXIT_USAGE_BISECT = 128,
	SF_EXIT_INTERRUPTED = 130,	/* SIGINT/SIGTERM, children killed */
	SF_EXIT_UNTESTED = 125,	/* could not test: config, build, boot */
};

#endif
