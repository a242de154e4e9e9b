/* SPDX-License-Identifier: GPL-2.0 */
/* TAP for the C unit tests: ok() per check, tap_done() for the plan. */
#ifndef SYSFARM_TAP_H
#define SYSFARM_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

static unsigned int tap_count, tap_failed;

/* Flushed, so that a test that forks does not print a line twice. */
static void __attribute__((format(printf, 2, 3)))
ok(bool pass, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %u - ", pass ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	tap_failed += !pass;
}

/* The plan, last; Return: main()'s exit status. */
static int tap_done(void)
{
	printf("1..%u\n", tap_count);
	return tap_failed ? 1 : 0;
}

#endif
