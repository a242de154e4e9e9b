/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Boots one configuration in QEMU and brings its snapshot home: console to
 * console.log, the snapshot on a separate chardev ("channel"), framed with
 * its length and crc32 (snapshotter/frame.h).
 */
#ifndef SYSFARM_BOOT_H
#define SYSFARM_BOOT_H

#include <jansson.h>

#include "lib/proc.h"
#include "lib/util.h"
#include "lib/verdict.h"
#include "pipeline/matrix.h"

/* The lines around the base64 frame on the console (sysfarm.result=console) */
#define CONSOLE_BEGIN "sysfarm-frame-begin"
#define CONSOLE_END "sysfarm-frame-end"
/*
 * The line after CONSOLE_END: a reader that stops at a match (LAVA's
 * monitor) waits for it, so that the end line has reached its log whole.
 */
#define CONSOLE_SENT "sysfarm-frame-sent"

struct boot {
	const char *kernel;		/* the boot image */
	const char *initramfs;
	const char *outdir;		/* console.log, channel.out, ... */
	const char *accel;		/* "tcg" or "kvm" */
	const char *cmdline;		/* from boot_cmdline() */
	int timeout;			/* seconds */
	int interactive;		/* the console on the terminal */
	int console;			/* the frame comes on the console
					 * (sysfarm.result=console) */
};

/**
 * boot_dtb() - the device tree for a configuration with `dts` fragments
 * @m: the matrix, whose directory the fragments' paths are relative to
 * @c: the configuration
 * @outdir: its out directory, where the trees are made
 * @dtb: set to outdir/board.dtb (malloc'd), or NULL when @c has none
 * @err: why it failed
 *
 * Dumps the tree QEMU generates for the machine and merges the fragments
 * into it with dtc. The dump only when QEMU, dtc or the machine options
 * changed (its key in virt.dts.key); the merge at each boot (a few
 * milliseconds), board.dtb replaced only when it differs.
 *
 * Return: 0, or -1 with @err set.
 */
int boot_dtb(const struct matrix *m, const struct config *c,
	     const char *outdir, char **dtb, struct sf_err *err);

/* The kernel command line for @c with @append's words added, malloc'd. */
char *boot_cmdline(const struct config *c, const struct strv *append);

/**
 * boot_run() - boot, wait, decode
 * @dtb: from boot_dtb(), or NULL
 * @snap: on V_SNAPSHOT, set to the snapshot the guest sent (a new
 *	reference), parsed but not checked; nothing is written
 * @err: the verdict's explanation and evidence (console lines)
 *
 * QEMU is stopped as soon as a whole frame has come on the result path
 * @b asks for (@b->console), or at @b->timeout; else it ends with the
 * guest.
 *
 * Return: V_SNAPSHOT, V_QEMU_FAIL, V_PANIC, V_TIMEOUT, V_CORRUPT or
 * V_NO_SNAPSHOT.
 */
enum verdict boot_run(const struct matrix *m, const struct config *c,
		      const struct boot *b, const char *dtb, json_t **snap,
		      struct sf_err *err);

/**
 * boot_decode() - the verdict of a boot from what it left in @b->outdir
 * @st, @code: how the program that ran the guest ended (lib/proc.h)
 *
 * The frame on the channel (channel.out) or else on the console
 * (console.log), a panic, a timeout, QEMU's failure (qemu.log): what
 * boot_run() gives, for any back end that leaves those files. An intact
 * frame whose payload is not JSON, or has a duplicate key, is V_CORRUPT.
 */
enum verdict boot_decode(const struct boot *b, enum proc_status st,
			 int code, json_t **snap, struct sf_err *err);

/**
 * boot_exec() - become QEMU, the console on the terminal (`sysfarm shell`)
 * @b: with @b->interactive set; its timeout is not used
 *
 * The command line is logged to qemu.log as boot_run() logs it.
 *
 * Return: only on failure: -1 with @err set.
 */
int boot_exec(const struct config *c, const struct boot *b, const char *dtb,
	      struct sf_err *err);

#endif
