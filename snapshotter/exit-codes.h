/* SPDX-License-Identifier: GPL-2.0 */
/* Exit statuses of the snapshotter, mapped once in main(). */
#ifndef SNAPSHOTTER_EXIT_CODES_H
#define SNAPSHOTTER_EXIT_CODES_H

/**
 * enum snap_exit - what `snapshot` exits with
 * @SNAP_EXIT_OK: a snapshot was written; failures inside it are data
 * @SNAP_EXIT_FAIL: no snapshot: the output was not writable, or memory ran
 *	out
 * @SNAP_EXIT_USAGE: bad command line or bad probe file (the message names
 *	FILE:LINE:COL, or FILE when it is not a regular file); the
 *	farm-wide meaning of 2
 */
enum snap_exit {
	SNAP_EXIT_OK = 0,
	SNAP_EXIT_FAIL = 1,
	SNAP_EXIT_USAGE = 2,
};

#endif /* SNAPSHOTTER_EXIT_CODES_H */
