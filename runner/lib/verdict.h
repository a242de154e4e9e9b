/* SPDX-License-Identifier: GPL-2.0 */
/* One verdict per configuration, and what each means for the exit status. */
#ifndef SYSFARM_VERDICT_H
#define SYSFARM_VERDICT_H

enum verdict {
	V_SNAPSHOT,	/* run: a snapshot arrived intact */
	V_PASS,		/* check: equal to the golden */
	V_DIFF,		/* check: the ABI changed */
	V_ABI_MISMATCH,	/* check: equal, but not what the ABI table says */
	V_NEW,		/* check: no golden yet */
	V_CONFIG_FAIL,	/* a requested Kconfig option did not survive */
	V_BUILD_FAIL,	/* patch application or the kernel build failed */
	V_QEMU_FAIL,	/* QEMU could not start or run the guest */
	V_PANIC,	/* the kernel panicked before a snapshot arrived */
	V_TIMEOUT,	/* no snapshot within the time limit */
	V_CORRUPT,	/* the channel was truncated or failed its checksum,
			 * or its frame holds bad JSON */
	V_NO_SNAPSHOT,	/* the guest ended without sending a snapshot */
	V_FLAKY,	/* check: two boots of one kernel disagree */
	V_NR
};

const char *verdict_name(enum verdict v);

/* The verdict named @name (verdict_name()'s), or V_NR: none or unknown. */
enum verdict verdict_named(const char *name);

/*
 * An infrastructure failure, which a boot retries (QEMU-FAIL, TIMEOUT,
 * CORRUPT, NO-SNAPSHOT); PANIC is the kernel's and never retried away.
 */
int verdict_retried(enum verdict v);

/* At most this many boots for one (the matrix's `attempts`). */
#define ATTEMPTS_MAX 5

/* The exit status a verdict asks for; see exitcode.h. */
int verdict_exit(enum verdict v);

/**
 * verdict_exit_fold() - the one exit policy: two outcomes' statuses as one
 *
 * Every command folds its verdicts and errors through this function, in
 * the order exitcode.h documents: interrupted (130), bad usage or input
 * (2), an ABI difference (1), could not test (125), success (0).
 *
 * Return: whichever of @a and @b comes first in that order.
 */
int verdict_exit_fold(int a, int b);

/*
 * @status once an output asked for (stdout, a report, results.json, a
 * golden) could not be written: 125, over a pass or a difference nobody
 * gets to read; bad usage and an interrupt stay what they are.
 */
int verdict_exit_lost(int status);

/*
 * The status of reading an input (lib/util.h's enum input_status): 0 read,
 * 125 it cannot be read (INPUT_EIO: missing, no permission), 2 it cannot
 * be parsed or is no regular file (INPUT_EBAD). A golden, a pending
 * snapshot or a snapshot is read through this in every command.
 */
int verdict_exit_input(int ret);

#endif
