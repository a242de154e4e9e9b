/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Exit statuses of the sysfarm command, chosen so `git bisect run` works.
 *
 * The one exit policy, the same in every command: a command's verdicts and
 * errors fold into one status through verdict_exit_fold() (lib/verdict.h),
 * the first of these that happened winning:
 *
 *   130  interrupted (SIGINT, SIGTERM)
 *     2  bad usage or bad input (128 inside a `git bisect run`, see below)
 *     1  an ABI difference (a verdict, a delta, a finding, a pending file)
 *   125  could not test (config, build, boot, an input that cannot be read)
 *     0  everything tested passed
 *
 * An input that cannot be parsed is bad input (2), one that cannot be read
 * could not test (125): verdict_exit_input(), for goldens, pending
 * snapshots and snapshots alike. An output asked for that cannot be written
 * (stdout, a report, results.json, a golden) is 125 over 1 and 0:
 * verdict_exit_lost(). main() maps 2 to 128 while a bisection runs, once.
 */
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
