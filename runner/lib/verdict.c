// SPDX-License-Identifier: GPL-2.0
/* Verdict names and their exit statuses. */
#include <string.h>

#include "lib/exitcode.h"
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

int verdict_exit_fold(int a, int b)
{
	if (a == SF_EXIT_DIFF || b == SF_EXIT_DIFF)
		return SF_EXIT_DIFF;
	if (a == SF_EXIT_UNTESTED || b == SF_EXIT_UNTESTED)
		return SF_EXIT_UNTESTED;
	return a ? a : b;
}

int verdict_exit_lost(int status)
{
	return status == SF_EXIT_OK || status == SF_EXIT_DIFF ?
	       SF_EXIT_UNTESTED : status;
}
