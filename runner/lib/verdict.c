// SPDX-License-Identifier: GPL-2.0
/* Verdict names and their exit statuses. */
#include <string.h>

#include "lib/exitcode.h"
#include "lib/util.h"
#include "lib/verdict.h"

static const struct {
	const char *name;
	int exit;
} verdicts[V_NR] = {
	[V_SNAPSHOT] = { "SNAPSHOT", SF_EXIT_OK },
	[V_PASS] = { "PASS", SF_EXIT_OK },
	[V_DIFF] = { "DIFF", SF_EXIT_DIFF },
	[V_ABI_MISMATCH] = { "ABI-MISMATCH", SF_EXIT_DIFF },
	[V_NEW] = { "NEW", SF_EXIT_DIFF },
	[V_CONFIG_FAIL] = { "CONFIG-FAIL", SF_EXIT_UNTESTED },
	[V_BUILD_FAIL] = { "BUILD-FAIL", SF_EXIT_UNTESTED },
	[V_QEMU_FAIL] = { "QEMU-FAIL", SF_EXIT_UNTESTED },
	[V_PANIC] = { "PANIC", SF_EXIT_UNTESTED },
	[V_TIMEOUT] = { "TIMEOUT", SF_EXIT_UNTESTED },
	[V_CORRUPT] = { "CORRUPT", SF_EXIT_UNTESTED },
	[V_NO_SNAPSHOT] = { "NO-SNAPSHOT", SF_EXIT_UNTESTED },
	[V_FLAKY] = { "FLAKY", SF_EXIT_UNTESTED },
};

int verdict_retried(enum verdict v)
{
	return v == V_QEMU_FAIL || v == V_TIMEOUT || v == V_CORRUPT ||
	       v == V_NO_SNAPSHOT;
}

const char *verdict_name(enum verdict v)
{
	return v < V_NR ? verdicts[v].name : "?";
}

enum verdict verdict_named(const char *name)
{
	int v;

	for (v = 0; name && v < V_NR; v++)
		if (!strcmp(verdicts[v].name, name))
			break;
	return name ? (enum verdict)v : V_NR;
}

int verdict_exit(enum verdict v)
{
	return v < V_NR ? verdicts[v].exit : SF_EXIT_UNTESTED;
}

/* The exit policy's order (exitcode.h): the first listed wins. */
static const int exit_order[] = {
	SF_EXIT_INTERRUPTED, SF_EXIT_USAGE, SF_EXIT_DIFF, SF_EXIT_UNTESTED,
	SF_EXIT_OK,
};

int verdict_exit_fold(int a, int b)
{
	for (size_t i = 0; i < ARRAY_SIZE(exit_order); i++)
		if (a == exit_order[i] || b == exit_order[i])
			return exit_order[i];
	return a ? a : b;
}

int verdict_exit_input(int ret)
{
	return !ret ? SF_EXIT_OK : ret == INPUT_EIO ? SF_EXIT_UNTESTED :
						      SF_EXIT_USAGE;
}

int verdict_exit_lost(int status)
{
	return status == SF_EXIT_OK || status == SF_EXIT_DIFF ?
	       SF_EXIT_UNTESTED : status;
}
