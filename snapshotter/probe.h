/* SPDX-License-Identifier: GPL-2.0 */
/* Probe files: actions on sysfs run before the snapshot, and their record. */
#ifndef SNAPSHOTTER_PROBE_H
#define SNAPSHOTTER_PROBE_H

#include <stddef.h>
#include <jansson.h>

/* How long `wait` polls, and how often. */
#define PROBE_WAIT_MS		5000
#define PROBE_WAIT_STEP_MS	10

enum probe_op {
	PROBE_WRITE,
	PROBE_READ,
	PROBE_EXPORT,
	PROBE_WAIT,
	PROBE_MOUNT,
};

/**
 * struct probe - one action of a probe file
 * @op: what to do
 * @path: write, read, wait: the attribute; mount: the directory. May hold
 *	{gpio:LABEL:OFFSET} placeholders; relative to the sysfs directory
 *	unless absolute.
 * @arg: write, wait: the value; export: the chip label; mount: the fstype
 * @offset: export: the line offset on the chip
 */
struct probe {
	enum probe_op op;
	char *path;
	char *arg;
	unsigned int offset;
};

/**
 * struct probe_list - the actions of every probe file, in order
 * @v: the actions
 * @nr: how many
 * @alloc: room in @v
 */
struct probe_list {
	struct probe *v;
	size_t nr, alloc;
};

#define PROBE_LIST_INIT { .v = NULL }

/**
 * struct probe_error - where a probe file is wrong
 * @line: 1-based line
 * @col: 1-based byte column
 * @msg: what is wrong, lowercase, no full stop
 */
struct probe_error {
	unsigned int line, col;
	char msg[128];
};

/**
 * probe_list_load() - parse a probe file and append its actions
 * @list: the list to append to
 * @file: the probe file
 * @err: filled when the file is malformed
 *
 * Return: 0; -EINVAL when the file is malformed (@err says where and why)
 * or is not a regular file (@err->line 0, @err->msg says what it is: it
 * is not read, nor waited for); another negative errno when it cannot be
 * read (@err untouched).
 */
int probe_list_load(struct probe_list *list, const char *file,
		    struct probe_error *err);

/**
 * probe_list_release() - free every action; @list is empty after
 * @list: the list
 */
void probe_list_release(struct probe_list *list);

/**
 * probe_list_run() - run the actions in order and record each outcome
 * @list: the actions
 * @sysfs: the sysfs directory relative paths start from
 *
 * A failing action is recorded (its errno name as "result") and the next
 * one runs.
 *
 * Return: a new JSON array with one record per action, or NULL when out of
 * memory.
 */
json_t *probe_list_run(const struct probe_list *list, const char *sysfs);

#endif /* SNAPSHOTTER_PROBE_H */
