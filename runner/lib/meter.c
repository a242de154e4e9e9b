// SPDX-License-Identifier: GPL-2.0
/* A kernel build's progress, counted in its log: see meter.h. */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/meter.h"
#include "lib/util.h"

void meter_init(struct meter *m, const char *who, const char *log,
		unsigned long total, double now)
{
	struct stat st;

	memset(m, 0, sizeof(*m));
	m->who = who;
	m->log = xstrdup(log);
	m->total = total;
	m->said = now;
	if (!stat(log, &st)) {
		m->ino = st.st_ino;
		m->off = st.st_size;
	}
}

/* A line of kbuild's quiet output that made an object */
static int line_is_object(const char *head)
{
	return !strncmp(head, "  CC ", 5) || !strncmp(head, "  AS ", 5);
}

void meter_feed(struct meter *m, const char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (buf[i] == '\n') {
			m->nhead = 0;
			continue;
		}
		if (m->nhead >= sizeof(m->head) - 1)
			continue;
		m->head[m->nhead++] = buf[i];
		m->head[m->nhead] = '\0';
		if (m->nhead == 5 && line_is_object(m->head))
			m->done++;
	}
}

void meter_read(struct meter *m)
{
	int fd = open(m->log, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	char buf[65536];
	ssize_t n;

	if (fd < 0)
		return;
	/* The configure steps remove the log and begin a new one */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		goto out;
	if (st.st_ino != m->ino || st.st_size < m->off) {
		m->ino = st.st_ino;
		m->off = 0;
		m->nhead = 0;
	}
	while ((n = pread(fd, buf, sizeof(buf), m->off)) > 0) {
		meter_feed(m, buf, n);
		m->off += n;
	}
out:
	close(fd);
}

int meter_due(struct meter *m, double now)
{
	if (now - m->said < METER_EVERY)
		return 0;
	m->said = now;
	return 1;
}

char *meter_text(const struct meter *m)
{
	if (!m->total)
		return xstrfmt("%lu objects compiled", m->done);
	return xstrfmt("%lu of about %lu objects compiled", m->done,
		       m->total);
}

char *meter_live(const struct meter *const *ms, size_t n)
{
	char *line = xstrdup("");

	for (size_t i = 0; i < n; i++) {
		const struct meter *m = ms[i];
		/* "about": a build may compile more than the last one */
		unsigned long pct = m->total ? m->done * 100 / m->total : 0;
		char *longer;

		if (!m->total)
			longer = xstrfmt("%s%s%s %lu objects", line,
					 i ? ", " : "", m->who, m->done);
		else
			longer = xstrfmt("%s%s%s %lu/%lu objects (%lu%%)", line,
					 i ? ", " : "", m->who, m->done,
					 m->total, pct > 99 ? 99 : pct);
		free(line);
		line = longer;
	}
	return line;
}

void meter_release(struct meter *m)
{
	free(m->log);
	m->log = NULL;
}
