// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: runner/lib/meter.c, a build's progress, on a fake clock. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/meter.h"
#include "lib/util.h"
#include "tests/tap.h"

static const char kbuild[] =
	"  SYNC    include/config/auto.conf\n"
	"  HOSTCC  scripts/basic/fixdep\n"
	"  CC      kernel/exit.o\n"
	"  AS      arch/x86/entry/entry_64.o\n"
	"  CC [M]  fs/foo.o\n"
	"  AR      kernel/built-in.a\n"
	"  LD      vmlinux.o\n"
	"make[2]: '  CC ' is not at the start\n"
	"   CC     three spaces is not kbuild's\n"
	"  CC      lib/string.o\n";

/* Objects in @text fed @step bytes at a time */
static unsigned long count(const char *text, size_t step)
{
	struct meter m;
	size_t n = strlen(text);

	meter_init(&m, "c", "/nonexistent/build.log", 0, 0);
	for (size_t i = 0; i < n; i += step)
		meter_feed(&m, text + i, i + step > n ? n - i : step);
	meter_release(&m);
	return m.done;
}

static void append(const char *path, const char *text)
{
	FILE *f = fopen(path, "a");

	fputs(text, f);
	fclose(f);
}

int main(void)
{
	char dir[] = "/tmp/meter-unit.XXXXXX", *log, *s;
	const struct meter *both[2];
	struct meter m, n;
	int said;

	/* what counts: kbuild's "  CC " and "  AS " at a line's start */
	for (size_t step = 1; step <= 7; step += 3)
		ok(count(kbuild, step) == 4,
		   "4 objects in kbuild's lines fed %zu bytes at a time (%lu)",
		   step, count(kbuild, step));
	ok(count("  CC", 4) == 0,
	   "a line cut before its ' ' is not counted yet");

	/* the log: only what make appends after the start counts */
	if (!mkdtemp(dir))
		return 1;
	log = xstrfmt("%s/build.log", dir);
	append(log, "  CC      old/build.o\n");
	meter_init(&m, "x86_64-sysfs-on", log, 2100, 100.0);
	meter_read(&m);
	ok(m.done == 0, "the last build's lines in the log are not counted");
	append(log, "  CC      kernel/ex");
	meter_read(&m);
	append(log, "it.o\n  CC      kernel/fork.o\n");
	meter_read(&m);
	ok(m.done == 2, "two objects appended, the first in two writes (%lu)",
	   m.done);
	/* the configure steps remove the log: read the new one from 0 */
	unlink(log);
	append(log, "  CC      a.o\n");
	meter_read(&m);
	ok(m.done == 3, "a new log is read from its start (%lu)", m.done);

	/* off a terminal: a line every 30 s, never more */
	said = meter_due(&m, 100.0 + METER_EVERY - 0.1);
	ok(!said, "no line before %g s", METER_EVERY);
	ok(meter_due(&m, 100.0 + METER_EVERY), "a line at %g s", METER_EVERY);
	ok(!meter_due(&m, 100.0 + METER_EVERY + 1),
	   "none a second later");
	ok(!meter_due(&m, 100.0 + 2 * METER_EVERY - 0.1),
	   "none just before the next %g s", METER_EVERY);
	ok(meter_due(&m, 100.0 + 2 * METER_EVERY + 5),
	   "the next one %g s after the last", METER_EVERY);

	s = meter_text(&m);
	ok(!strcmp(s, "3 of about 2100 objects compiled"), "text: %s", s);
	free(s);
	meter_init(&n, "arm-sysfs-on", "/nonexistent/build.log", 0, 0);
	meter_feed(&n, "  CC      a.o\n", 14);
	s = meter_text(&n);
	ok(!strcmp(s, "1 objects compiled"), "text without a total: %s", s);
	free(s);

	/* on a terminal: one line for both builds */
	both[0] = &m;
	both[1] = &n;
	s = meter_live(both, 2);
	ok(!strcmp(s, "x86_64-sysfs-on 3/2100 objects (0%), "
		   "arm-sysfs-on 1 objects"),
	   "live: %s", s);
	free(s);
	m.done = 2500;
	s = meter_live(both, 1);
	ok(!strcmp(s, "x86_64-sysfs-on 2500/2100 objects (99%)"),
	   "past the last build's count, 99%%: %s", s);
	free(s);

	meter_release(&m);
	meter_release(&n);
	unlink(log);
	rmdir(dir);
	free(log);
	return tap_done();
}
