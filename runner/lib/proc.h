/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Child processes, modelled on git's run-command.h: argv vectors (never a
 * shell string), own process group, a CLOCK_MONOTONIC deadline, SIGTERM
 * then SIGKILL to the group, and every live child killed on SIGINT,
 * SIGTERM or exit.
 *
 * The child's path and environment are made before fork(), so that it
 * only calls execve(); there is no limit on live children; a wait sleeps
 * in poll() on a pipe that a SIGCHLD handler writes, with the deadline as
 * its timeout.
 */
#ifndef SYSFARM_PROC_H
#define SYSFARM_PROC_H

#include <sys/types.h>

#include "lib/util.h"

struct proc {
	const char *const *argv;	/* argv[0] is looked up in PATH, as
					 * @env leaves it */
	const char *const *env;		/* "NAME=value" set, "NAME" unset,
					 * in order, over our environment */
	const char *dir;		/* chdir here first, or NULL */
	const char *out_path;		/* stdout (and stderr) to this file */
	int out_append;			/* append instead of truncate */
	int err_to_out;			/* stderr to out_path as well */
	int err_null;			/* stderr to /dev/null */
	double timeout;			/* seconds; 0 means none */
	/*
	 * Or NULL. Asked every PROC_DONE_POLL s while the child runs: a
	 * nonzero answer says the child has done what it was run for, and
	 * its group is stopped (PROC_DONE) instead of waited for.
	 */
	int (*done)(void *arg);
	void *done_arg;
	pid_t pid;
};

#define PROC_DONE_POLL 0.02	/* seconds */

#define PROC_INIT { 0 }

enum proc_status {
	PROC_EXITED,		/* exit status in *code */
	PROC_SIGNALED,		/* signal number in *code */
	PROC_TIMEOUT,		/* deadline passed, group killed */
	PROC_DONE,		/* @done said so, group stopped */
	PROC_START_FAILED,	/* fork or exec failed, errno in *code */
};

/**
 * proc_run() - start a child, wait for it or for its deadline
 * @p: what to run
 * @code: exit status, signal number or errno, see &enum proc_status
 *
 * Return: how the child ended.
 */
enum proc_status proc_run(struct proc *p, int *code);

/**
 * proc_run_logged() - proc_run() a step whose output goes to @p->out_path
 * @what: the step, for the message ("make tinyconfig")
 * @lines: how many of the log's last lines the message quotes
 * @err: "WHAT failed (full log: LOG):" and the log's tail when it ran
 *	("WHAT timed out" past @p->timeout);
 *	"WHAT failed: cannot run 'CMD': ERRNO" when it could not start (not
 *	in PATH, no log could be opened): no log is named then, as none
 *	was written, or only an earlier step's
 *
 * Return: 0 when it exited with status 0, else -1 with @err set.
 */
int proc_run_logged(struct proc *p, const char *what, int lines,
		    struct sf_err *err);

/**
 * proc_fork() - fork a copy of this process in a process group of its own
 *
 * The child keeps the signal handlers: on SIGINT/SIGTERM it stops its own
 * children, and the parent stops it like any other. The child should end
 * with _exit().
 *
 * Return: as fork(): 0 in the child, its pid in the parent, -1 on failure.
 */
pid_t proc_fork(void);

/**
 * proc_wait_any() - wait for any proc_fork() child to end
 * @status: where its wait status goes (as waitpid()'s), or NULL
 *
 * Return: its pid, or -1 when there is none.
 */
pid_t proc_wait_any(int *status);

/*
 * proc_wait_any_until() - proc_wait_any(), or 0 once CLOCK_MONOTONIC's
 * @deadline (now_seconds(); 0: none) has come with none ended
 */
pid_t proc_wait_any_until(int *status, double deadline);

/**
 * proc_worker() - a proc_fork() worker that calls @fn and sends its message
 * @fn: the work; it fills all of @msg and returns (the worker then ends)
 * @arg: what @fn works on, the worker's own copy
 * @msg: where @fn puts the message, in the worker
 * @len: its size: at most PIPE_BUF, so that the worker's one write never
 *	waits for a reader (the parent may read only once it has ended)
 * @fd: the pipe's read end, for proc_worker_read()
 *
 * Return: the worker's pid, or -1 (nothing started) with errno: EINVAL
 * when @len is over PIPE_BUF.
 */
pid_t proc_worker(void (*fn)(void *arg, void *msg), void *arg, void *msg,
		  size_t len, int *fd);

/**
 * proc_worker_read() - the message a proc_worker() sent
 * @fd: the pipe proc_worker() gave; closed here
 * @msg: where the message goes
 * @len: its size, as proc_worker() was given
 *
 * Return: 0, or -1 when the worker ended before sending all of it.
 */
int proc_worker_read(int fd, void *msg, size_t len);

/**
 * proc_worker_lost() - why a worker whose message did not come ended
 * @status: its wait status, or -1 when it was not reaped
 *
 * Return: e.g. "was killed by signal 9 (Killed)", for "the boot of X ...".
 */
char *proc_worker_lost(int status);

/**
 * proc_capture() - run a child and collect its stdout through a pipe; its
 * stderr goes to /dev/null
 * @argv: the command
 * @timeout: seconds; past it the child's group is stopped
 * @buf: where the output goes, NUL-terminated, trailing newlines removed;
 *	output beyond @size - 1 bytes is read and dropped
 * @size: size of @buf
 * @err: why it failed: "cannot run 'CMD': ...", "'CMD' exited with
 *	status N", "'CMD' was killed by signal N", "'CMD' timed out after
 *	N s"
 *
 * Nothing is written to disk, so an interrupted capture leaves nothing
 * behind, and the child's process group is killed when it ends.
 *
 * Return: 0 when it exited with status 0, -1 otherwise.
 */
int proc_capture(const char *const *argv, double timeout, char *buf,
		 size_t size, struct sf_err *err);

/**
 * proc_sha256() - a file's sha256, by sha256sum (no hash of our own)
 * @hex: 64 lowercase hex digits and a NUL
 * @err: as proc_capture()'s, or "'FILE': no sha256 from sha256sum"
 * Return: 0, or -1 with @err set.
 */
int proc_sha256(const char *path, char hex[65], struct sf_err *err);

/**
 * proc_version() - the first line of "@prog --version", run once per @prog
 * with a deadline of a few seconds
 * @err: why it failed (as proc_capture()), each time it is asked
 *
 * Return: a string owned by the cache, or NULL with @err set.
 */
const char *proc_version(const char *prog, struct sf_err *err);

/**
 * proc_setup_signals() - kill live children on SIGINT/SIGTERM and exit
 *
 * Installs handlers that kill every live child's process group, then
 * re-raise the signal with its default action.
 */
void proc_setup_signals(void);

#endif
