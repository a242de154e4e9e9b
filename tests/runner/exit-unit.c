// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: the one exit policy (runner/lib/exitcode.h, verdict.c). */
#include "lib/exitcode.h"
#include "lib/util.h"
#include "lib/verdict.h"
#include "tests/tap.h"

/* The order exitcode.h documents: the first listed wins. */
static const int order[] = {
	SF_EXIT_INTERRUPTED, SF_EXIT_USAGE, SF_EXIT_DIFF, SF_EXIT_UNTESTED,
	SF_EXIT_OK,
};

int main(void)
{
	const size_t n = ARRAY_SIZE(order);

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int want = order[i < j ? i : j];

			ok(verdict_exit_fold(order[i], order[j]) == want,
			   "fold %d, %d: %d", order[i], order[j], want);
		}
	/* check's verdicts: a DIFF beside a BUILD-FAIL is a difference */
	ok(verdict_exit_fold(verdict_exit(V_BUILD_FAIL),
			     verdict_exit(V_DIFF)) == SF_EXIT_DIFF,
	   "BUILD-FAIL and DIFF: 1");
	ok(verdict_exit_input(0) == SF_EXIT_OK, "an input read: 0");
	ok(verdict_exit_input(INPUT_EIO) == SF_EXIT_UNTESTED,
	   "an input that cannot be read: 125");
	ok(verdict_exit_input(INPUT_EBAD) == SF_EXIT_USAGE,
	   "an input that cannot be parsed: 2");
	/* an output lost: 125 over what nobody gets to read */
	ok(verdict_exit_lost(SF_EXIT_OK) == SF_EXIT_UNTESTED, "lost over 0: 125");
	ok(verdict_exit_lost(SF_EXIT_DIFF) == SF_EXIT_UNTESTED,
	   "lost over 1: 125");
	ok(verdict_exit_lost(SF_EXIT_UNTESTED) == SF_EXIT_UNTESTED,
	   "lost over 125: 125");
	ok(verdict_exit_lost(SF_EXIT_USAGE) == SF_EXIT_USAGE, "lost over 2: 2");
	ok(verdict_exit_lost(SF_EXIT_INTERRUPTED) == SF_EXIT_INTERRUPTED,
	   "lost over 130: 130");
	return tap_done();
}
