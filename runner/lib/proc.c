// SPDX-License-Identifier: GPL-2.0
/* Child processes in their own process group, with deadlines and cleanup. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/util.h"

#define MAX_LIVE 16
#define TERM_GRACE 2.0		/* seconds between SIGTERM and SIGKILL */
/*
 * "gcc --version" answers in milliseconds; a compiler that does not answer
 * in seconds is broken (a hung NFS mount, a wrapper waiting on a terminal).
 */
#define VERSION_TIMEOUT 5.0

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

/*
 * @fd moved to 3 or above, close-on-exec, so that dup2() onto 0, 1 or 2
 * never meets it: a parent started with stdin or stdout closed gets its
 * pipes or /dev/null there. Async-signal-safe.
 */
static int fd_above_stdio(int fd)
{
	int high;

	if (fd < 0 || fd > 2)
		return fd;
	high = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return high;
}

/*
 * Runs in the child between fork and exec: only async-signal-safe calls.
 * @out_fd, if not -1, is its stdout instead of @p->out_path.
 */
static void child_exec(const struct proc *p, int out_fd, int errpipe)
{
	int fd, err;

	setpgid(0, 0);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	errpipe = fd_above_stdio(errpipe);
	if (out_fd < 0 && p->out_path) {
		int flags = O_WRONLY | O_CREAT |
			    (p->out_append ? O_APPEND : O_TRUNC);

		out_fd = open(p->out_path, flags, 0644);
		if (out_fd < 0)
			goto fail;
	}
	out_fd = fd_above_stdio(out_fd);
	fd = fd_above_stdio(open("/dev/null", O_RDWR));
	if (fd >= 0) {
		dup2(fd, 0);
		if (p->err_null)
			dup2(fd, 2);
		close(fd);
	}
	if (out_fd >= 0) {
		dup2(out_fd, 1);
		if (p->err_to_out)
			dup2(out_fd, 2);
		close(out_fd);
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

/*
 * Forks and execs @p's child, stdout to @out_fd if not -1. SIGINT, SIGTERM
 * and SIGHUP wait until the child is in live[]: its group is then killed
 * with ours, never left behind. Return: 0, or -1 with errno in *@code.
 */
static int proc_start(struct proc *p, int out_fd, int *code)
{
	sigset_t stop, old;
	int errpipe[2], err = 0;
	ssize_t n;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC) < 0) {
		*code = errno;
		return -1;
	}
	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, &old);
	pid = fork();
	if (pid == 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		child_exec(p, out_fd, errpipe[1]);
	}
	if (pid > 0) {
		setpgid(pid, pid);
		live_add(pid);
	}
	err = errno;
	sigprocmask(SIG_SETMASK, &old, NULL);
	close(errpipe[1]);
	if (pid < 0) {
		close(errpipe[0]);
		*code = err;
		return -1;
	}
	p->pid = pid;
	n = read(errpipe[0], &err, sizeof(err));
	close(errpipe[0]);
	if (n == sizeof(err)) {
		waitpid(pid, NULL, 0);
		live_del(pid);
		*code = err;
		return -1;
	}
	return 0;
}

/* What proc_capture() collects, through a non-blocking pipe. */
struct capture {
	int fd;
	char *buf;
	size_t size, len;	/* len < size: room for the NUL */
};

/*
 * One read of the pipe, after waiting up to @ms for it. Output past the
 * buffer is dropped if @drop (the child must not block on a full pipe),
 * else left. Return: bytes read, 0 at end of file, -1 for none yet.
 */
static ssize_t capture_read(struct capture *cap, int ms, int drop)
{
	struct pollfd pfd = { .fd = cap->fd, .events = POLLIN };
	size_t room = cap->size - 1 - cap->len;
	char scrap[4096];
	ssize_t n;

	if (!room && !drop)
		return -1;
	poll(&pfd, 1, ms);
	if (room)
		n = read(cap->fd, cap->buf + cap->len, room);
	else
		n = read(cap->fd, scrap, sizeof(scrap));
	if (n > 0 && room)
		cap->len += n;
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		return 0;
	return n;
}

/*
 * Waits for @p's child, or for its deadline; with @cap, reads its stdout
 * meanwhile. Nothing the child started may outlive it: its group is
 * killed when it ends.
 */
static enum proc_status proc_wait(struct proc *p, struct capture *cap,
				  int *code)
{
	double deadline = p->timeout > 0 ? now_seconds() + p->timeout : 0;
	int poll_wait = deadline || cap, wstatus = 0, reading = !!cap;
	pid_t pid = p->pid;

	for (;;) {
		pid_t r = waitpid(pid, &wstatus, poll_wait ? WNOHANG : 0);

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
		if (reading)
			reading = capture_read(cap, 20, 1) != 0;
		else if (poll_wait)
			sleep_ms(20);
	}
	kill(-pid, SIGKILL);
	live_del(pid);
	/* What is left in the pipe, up to a full buffer: a writer outside
	 * the group could go on for ever. */
	while (reading && capture_read(cap, 0, 0) > 0)
		;
	if (WIFSIGNALED(wstatus)) {
		*code = WTERMSIG(wstatus);
		return PROC_SIGNALED;
	}
	*code = WEXITSTATUS(wstatus);
	return PROC_EXITED;
}

enum proc_status proc_run(struct proc *p, int *code)
{
	if (proc_start(p, -1, code))
		return PROC_START_FAILED;
	return proc_wait(p, NULL, code);
}

/* @argv as one line, for messages. */
static char *argv_text(const char *const *argv)
{
	char *text = xstrdup(argv[0]);

	for (const char *const *a = argv + 1; *a; a++) {
		char *more = xstrfmt("%s %s", text, *a);

		free(text);
		text = more;
	}
	return text;
}

int proc_capture(const char *const *argv, double timeout, char *buf,
		 size_t size, struct sf_err *err)
{
	struct capture cap = { .fd = -1, .buf = buf, .size = size };
	struct proc p = PROC_INIT;
	enum proc_status st = PROC_START_FAILED;
	int pipefd[2], code, started = 0, ret = -1;
	char *cmd = argv_text(argv);

	buf[0] = '\0';
	p.argv = argv;
	p.err_null = 1;
	p.timeout = timeout;
	if (pipe2(pipefd, O_CLOEXEC) < 0) {
		code = errno;
		goto out;
	}
	cap.fd = pipefd[0];
	/* Only our end is non-blocking: the child's writes must wait. */
	if (fcntl(cap.fd, F_SETFL, O_NONBLOCK) < 0)
		code = errno;
	else
		started = !proc_start(&p, pipefd[1], &code);
	/* The child's copy alone keeps the pipe open: EOF when it ends. */
	close(pipefd[1]);
	if (started)
		st = proc_wait(&p, &cap, &code);
	close(cap.fd);
	buf[cap.len] = '\0';
	while (cap.len > 0 && buf[cap.len - 1] == '\n')
		buf[--cap.len] = '\0';
out:
	switch (st) {
	case PROC_EXITED:
		if (!code)
			ret = 0;
		else
			err_set(err, "'%s' exited with status %d", cmd, code);
		break;
	case PROC_SIGNALED:
		err_set(err, "'%s' was killed by signal %d", cmd, code);
		break;
	case PROC_TIMEOUT:
		err_set(err, "'%s' timed out after %g s", cmd, timeout);
		break;
	case PROC_START_FAILED:
		err_set(err, "cannot run '%s': %s", cmd, strerror(code));
		break;
	}
	free(cmd);
	return ret;
}

const char *proc_version(const char *prog, struct sf_err *err)
{
	static struct strv progs, versions, errors;
	const char *argv[] = { prog, "--version", NULL };
	char out[512];
	struct sf_err why;
	size_t i;

	for (i = 0; i < progs.n; i++)
		if (!strcmp(progs.v[i], prog))
			break;
	if (i == progs.n) {
		int bad = proc_capture(argv, VERSION_TIMEOUT, out,
				       sizeof(out), &why);

		out[strcspn(out, "\n")] = '\0';
		strv_push(&progs, prog);
		strv_push(&versions, out);
		strv_push(&errors, bad ? why.msg : "");
	}
	if (*errors.v[i]) {
		err_set(err, "%s", errors.v[i]);
		return NULL;
	}
	return versions.v[i];
}
