/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A kernel build's progress: the objects it compiled so far, counted in
 * its log as make writes it (kbuild's "  CC " and "  AS " lines), of
 * about how many the last build compiled. Off a terminal a line at most
 * every METER_EVERY seconds per build; on one, one live line for all.
 */
#ifndef SYSFARM_METER_H
#define SYSFARM_METER_H

#include <sys/types.h>

#define METER_EVERY 30.0	/* seconds between two lines of a build */
#define METER_LIVE_EVERY 1.0	/* seconds between two live lines */

struct meter {
	const char *who;	/* the configuration, borrowed */
	char *log;		/* the build's log, read as it grows */
	ino_t ino;		/* the log read (a reconfigure makes anew) */
	off_t off;		/* how much of it */
	unsigned long done;	/* objects compiled */
	unsigned long total;	/* about how many a build compiles, or 0 */
	char head[6];		/* the start of the line being read */
	size_t nhead;
	double said;		/* when its last line was due */
};

/*
 * meter_init() - @who's build, begun at @now, whose make appends to @log
 * from its size now; @total: the last build's count, or 0
 */
void meter_init(struct meter *m, const char *who, const char *log,
		unsigned long total, double now);

/* Counts the objects of @n more bytes of make's output. */
void meter_feed(struct meter *m, const char *buf, size_t n);

/* meter_feed() on what was appended to the log since the last call. */
void meter_read(struct meter *m);

/*
 * meter_due() - whether @m's line is due at @now (METER_EVERY seconds
 * after the last, the first that long after the start), which then
 * counts as said
 */
int meter_due(struct meter *m, double now);

/* "1234 of about 2100 objects compiled", or "1234 objects compiled". */
char *meter_text(const struct meter *m);

/*
 * meter_live() - the live line of @n builds: "x86_64-sysfs-on
 * 1234/2100 objects (58%), arm-sysfs-on 300 objects", malloc'd
 */
char *meter_live(const struct meter *const *ms, size_t n);

void meter_release(struct meter *m);

#endif
