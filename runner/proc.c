// SPDX-License-Identifier: GPL-2.0
/* Child processes in their own process group, with deadlines and cleanup. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc.h"
#include "util.h"

#define MAX_LIVE 16
#define TERM_GRACE 2.0		/* seconds between SIGTERM and SIGKILL */

extern char **environ;

static volatile pid_t live[MAX_LIVE];	/* process group ids */

static void live_add(pid_t pgid)
{
	for (int i = 0; i < MAX_LIVE; i++) {
		if (!live[i]) {
			live[i] = pgid;
			return;
		}
	}
}

static void live_del(pid_t pgid)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] == pgid)
			live[i] = 0;
}

static void live_kill_all(int sig)
{
	for (int i = 0; i < MAX_LIVE; i++)
		if (live[i] > 0)
			kill(-live[i], sig);
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000,
			       .tv_nsec = (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/*
 * SIGTERM first, so that make deletes the object it was writing instead
 * of leaving a truncated one that looks up to date; SIGKILL for whatever
 * is left after the grace period. A proc_fork() child takes up to one
 * grace period to stop its own children, hence two. Only
 * async-signal-safe calls.
 */
static void on_signal(int sig)
{
	double deadline = now_seconds() + 2 * TERM_GRACE;
	int alive;

	live_kill_all(SIGTERM);
	do {
		alive = 0;
		for (int i = 0; i < MAX_LIVE; i++)
			if (live[i] > 0 && !waitpid(live[i], NULL, WNOHANG))
				alive = 1;
		if (alive)
			sleep_ms(10);
	} while (alive && now_seconds() < deadline);
	live_kill_all(SIGKILL);
	file_write_atomic_abort();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void on_exit_kill(void)
{
	live_kill_all(SIGKILL);
}

void proc_setup_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	atexit(on_exit_kill);
}

/* Runs in the child between fork and exec: only async-signal-safe calls. */
static void child_exec(const struct proc *p, int errpipe)
{
	int fd, err;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		if (p->err_null)
			dup2(fd, 2);
		close(fd);
	}
	if (p->out_path) {
		int flags = O_WRONLY | O_CREAT |
			    (p->out_append ? O_APPEND : O_TRUNC);

		fd = open(p->out_path, flags, 0644);
		if (fd < 0)
			goto fail;
		dup2(fd, 1);
		if (p->err_to_out)
			dup2(fd, 2);
		close(fd);
	}
	if (p->dir && chdir(p->dir) < 0)
		goto fail;
	/* "NAME=value" sets, a bare "NAME" unsets. */
	for (const char *const *e = p->env; e && *e; e++) {
		if (strchr(*e, '='))
			putenv((char *)*e);
		else
			unsetenv(*e);
	}
	execvp(p->argv[0], (char *const *)p->argv);
fail:
	err = errno;
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* Ends the whole group: SIGTERM, a grace period, then SIGKILL. */
static void group_stop(pid_t pid, int *wstatus)
{
	double deadline = now_seconds() + TERM_GRACE;

	kill(-pid, SIGTERM);
	while (waitpid(pid, wstatus, WNOHANG) == 0) {
		if (now_seconds() > deadline) {
			kill(-pid, SIGKILL);
			waitpid(pid, wstatus, 0);
			break;
		}
		sleep_ms(10);
	}
}

pid_t proc_fork(void)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		/* The parent's other children are the parent's to stop. */
		for (int i = 0; i < MAX_LIVE; i++)
			live[i] = 0;
		setpgid(0, 0);
	} else if (pid > 0) {
		setpgid(pid, pid);
		live_add(pid);
	}
	return pid;
}

pid_t proc_wait_any(void)
{
	pid_t pid;

	do
		pid = waitpid(-1, NULL, 0);
	while (pid < 0 && errno == EINTR);
	if (pid > 0) {
		kill(-pid, SIGKILL);
		live_del(pid);
	}
	return pid;
}

enum proc_status proc_run(struct proc *p, int *code)
{
	int errpipe[2], err = 0, wstatus = 0;
	double deadline;
	ssize_t n;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		*code = errno;
		return PROC_START_FAILED;
	}
	pid = fork();
	if (pid < 0) {
		*code = errno;
		close(errpipe[0]);
		close(errpipe[1]);
		return PROC_START_FAILED;
	}
	if (pid == 0)
		child_exec(p, errpipe[1]);
	setpgid(pid, pid);
	live_add(pid);
	p->pid = pid;
	close(errpipe[1]);
	n = read(errpipe[0], &err, sizeof(err));
	close(errpipe[0]);
	if (n == sizeof(err)) {
		waitpid(pid, NULL, 0);
		live_del(pid);
		*code = err;
		return PROC_START_FAILED;
	}

	deadline = p->timeout > 0 ? now_seconds() + p->timeout : 0;
	for (;;) {
		pid_t r = waitpid(pid, &wstatus, deadline ? WNOHANG : 0);

		if (r == pid)
			break;
		if (r < 0 && errno != EINTR)
			break;
		if (deadline && now_seconds() > deadline) {
			group_stop(pid, &wstatus);
			kill(-pid, SIGKILL);
			live_del(pid);
			*code = 0;
			return PROC_TIMEOUT;
		}
		if (deadline)
			sleep_ms(20);
	}
	/* Nothing the child started may outlive it. */
	kill(-pid, SIGKILL);
	live_del(pid);
	if (WIFSIGNALED(wstatus)) {
		*code = WTERMSIG(wstatus);
		return PROC_SIGNALED;
	}
	*code = WEXITSTATUS(wstatus);
	return PROC_EXITED;
}

int proc_capture(const char *const *argv, char *buf, size_t size)
{
	char path[] = "/tmp/sysfarm-capture-XXXXXX";
	struct proc p = PROC_INIT;
	int fd, code;
	ssize_t n;

	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	p.argv = argv;
	p.out_path = path;
	p.err_null = 1;
	if (proc_run(&p, &code) != PROC_EXITED || code != 0) {
		close(fd);
		unlink(path);
		return -1;
	}
	unlink(path);
	n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	return 0;
}

const char *proc_version(const char *prog)
{
	static struct strv progs, versions;
	const char *argv[] = { prog, "--version", NULL };
	char out[512];
	size_t i;

	for (i = 0; i < progs.n; i++)
		if (!strcmp(progs.v[i], prog))
			return versions.v[i];
	if (proc_capture(argv, out, sizeof(out)))
		snprintf(out, sizeof(out), "%s: unknown", prog);
	out[strcspn(out, "\n")] = '\0';
	strv_push(&progs, prog);
	strv_push(&versions, out);
	return versions.v[i];
}
