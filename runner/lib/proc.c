// SPDX-License-Identifier: GPL-2.0
/* Child processes in their own process group, with deadlines and cleanup. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/proc.h"
#include "lib/util.h"

#define TERM_GRACE 2.0		/* seconds between SIGTERM and SIGKILL */
/*
 * "gcc --version" answers in milliseconds; a compiler that does not answer
 * in seconds is broken (a hung NFS mount, a wrapper waiting on a terminal).
 */
#define VERSION_TIMEOUT 5.0

extern char **environ;

/*
 * The process groups of live children, for the signal handlers to kill.
 * Changed only with SIGINT, SIGTERM and SIGHUP blocked (live_lock()), and
 * grown before a fork: a handler never sees a table half made, and a
 * child never misses a slot.
 */
static pid_t *live;
static size_t nlive, live_alloc;
/* Our pid when this process is a proc_fork() copy (a worker), or 0. */
static pid_t worker;

/*
 * A self-pipe: on_sigchld() writes a byte when a child ends, so that a
 * wait is a poll() on its read end with the deadline as timeout.
 */
static int chld_rd = -1;
static volatile sig_atomic_t chld_wr = -1;

static void live_lock(sigset_t *old)
{
	sigset_t stop;

	sigemptyset(&stop);
	sigaddset(&stop, SIGINT);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGHUP);
	sigprocmask(SIG_BLOCK, &stop, old);
}

static void live_unlock(const sigset_t *old)
{
	int err = errno;

	sigprocmask(SIG_SETMASK, old, NULL);
	errno = err;
}

/* Room for one more child; with live_lock() held, before the fork. */
static void live_reserve(void)
{
	if (nlive < live_alloc)
		return;
	live_alloc = live_alloc ? 2 * live_alloc : 16;
	live = xrealloc(live, live_alloc * sizeof(*live));
}

/* With live_lock() held, after live_reserve(). */
static void live_add(pid_t pgid)
{
	live[nlive++] = pgid;
}

static void live_del(pid_t pgid)
{
	sigset_t old;

	live_lock(&old);
	for (size_t i = 0; i < nlive; i++) {
		if (live[i] == pgid) {
			live[i] = live[--nlive];
			break;
		}
	}
	live_unlock(&old);
}

static void live_kill_all(int sig)
{
	for (size_t i = 0; i < nlive; i++)
		kill(-live[i], sig);
}

/* Reaps what has ended. Return: whether a live child is still running. */
static int live_running(void)
{
	int alive = 0;

	for (size_t i = 0; i < nlive; i++)
		if (!waitpid(live[i], NULL, WNOHANG))
			alive = 1;
	return alive;
}

static void on_sigchld(int sig)
{
	int err = errno;
	ssize_t n;

	/* A full pipe already holds a wake-up: nothing is lost. */
	n = write(chld_wr, "", 1);
	(void)n;
	errno = err;
}

/* The self-pipe, made once per process. Return: 0, or -1 with errno. */
static int chld_setup(void)
{
	struct sigaction sa = { .sa_handler = on_sigchld,
				.sa_flags = SA_RESTART | SA_NOCLDSTOP };
	int fds[2];

	if (chld_rd >= 0)
		return 0;
	if (pipe2(fds, O_CLOEXEC | O_NONBLOCK) < 0)
		return -1;
	chld_rd = fds[0];
	chld_wr = fds[1];
	sigemptyset(&sa.sa_mask);
	return sigaction(SIGCHLD, &sa, NULL);
}

/*
 * A forked copy shares its parent's self-pipe, and each would eat the
 * other's wake-ups: the copy makes its own.
 */
static void chld_renew(void)
{
	int wr = chld_wr;

	chld_wr = -1;
	close(wr);
	close(chld_rd);
	chld_rd = -1;
	chld_setup();
}

/*
 * Sleeps until a child may have ended, @fd (if not -1) is readable, or
 * @deadline (0: none) passes. Async-signal-safe.
 * Return: the events of @fd.
 */
static short chld_poll(int fd, double deadline)
{
	struct pollfd pfd[2] = { { .fd = chld_rd, .events = POLLIN },
				 { .fd = fd, .events = POLLIN } };
	char drain[64];
	int ms = -1;

	if (deadline) {
		double left = deadline - now_seconds();

		/* Rounded up, so that it does not wake just before */
		ms = left <= 0 ? 0 : left > 86400 ? 86400000 :
		     (int)(left * 1000) + 1;
	}
	if (poll(pfd, 2, ms) < 0)
		pfd[1].revents = 0;
	while (read(chld_rd, drain, sizeof(drain)) > 0)
		;
	return pfd[1].revents;
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
	double deadline = now_seconds() +
			  (worker ? 1 : 2) * TERM_GRACE;

	live_kill_all(SIGTERM);
	while (live_running() && now_seconds() < deadline)
		chld_poll(-1, deadline);
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
 * What the child runs, made before the fork (as git's prepare_cmd()), so
 * that between fork and exec it calls nothing that may allocate.
 */
struct exec_plan {
	char *path;		/* where argv[0] is */
	const char **envp;	/* environ with proc.env applied (the
				 * strings are borrowed) */
	const char **sh_argv;	/* "sh PATH ARGS...", for a script without
				 * "#!", as execvp() runs it */
};

/* environ with @env applied in order: "NAME=value" sets, "NAME" unsets. */
static const char **env_build(const char *const *env)
{
	size_t n = 0, len = 0;
	const char **v;

	for (char **e = environ; *e; e++)
		n++;
	for (const char *const *e = env; e && *e; e++)
		n++;
	v = xmalloc((n + 1) * sizeof(*v));
	for (char **e = environ; *e; e++)
		v[len++] = *e;
	for (const char *const *e = env; e && *e; e++) {
		size_t name = strcspn(*e, "="), kept = 0;

		for (size_t i = 0; i < len; i++)
			if (strncmp(v[i], *e, name) || v[i][name] != '=')
				v[kept++] = v[i];
		len = kept;
		if ((*e)[name])
			v[len++] = *e;
	}
	v[len] = NULL;
	return v;
}

/*
 * @name looked up as execvp() would in the child: in the PATH of @envp, a
 * relative directory taken from @dir when the child changes to it.
 * Return: malloc'd, or NULL with errno set.
 */
static char *path_lookup(const char *name, const char **envp,
			 const char *dir)
{
	const char *path = "/bin:/usr/bin", *p, *end;
	int denied = 0;

	if (strchr(name, '/'))
		return xstrdup(name);
	for (const char **e = envp; *e; e++)
		if (!strncmp(*e, "PATH=", 5))
			path = *e + 5;
	for (p = path; *name; p = end + 1) {
		struct stat st;
		char *cand, *from_here;

		end = strchrnul(p, ':');
		/* An empty entry is the current directory. */
		cand = end > p ? xstrfmt("%.*s/%s", (int)(end - p), p, name) :
				 xstrdup(name);
		from_here = dir && *cand != '/' ? xstrfmt("%s/%s", dir, cand) :
						  xstrdup(cand);
		if (!stat(from_here, &st) && S_ISREG(st.st_mode)) {
			if (!access(from_here, X_OK)) {
				free(from_here);
				return cand;
			}
			denied = 1;
		}
		free(from_here);
		free(cand);
		if (!*end)
			break;
	}
	errno = denied ? EACCES : ENOENT;
	return NULL;
}

static void plan_release(struct exec_plan *plan)
{
	free(plan->path);
	free(plan->envp);
	free(plan->sh_argv);
}

/* Return: 0, or -1 with errno set (the command is not found). */
static int plan_make(struct exec_plan *plan, const struct proc *p)
{
	size_t n = 0;
	int err;

	plan->envp = env_build(p->env);
	plan->path = path_lookup(p->argv[0], plan->envp, p->dir);
	while (p->argv[n])
		n++;
	plan->sh_argv = xmalloc((n + 2) * sizeof(*plan->sh_argv));
	plan->sh_argv[0] = "/bin/sh";
	plan->sh_argv[1] = plan->path;
	memcpy(plan->sh_argv + 2, p->argv + 1, n * sizeof(*p->argv));
	if (plan->path)
		return 0;
	err = errno;
	plan_release(plan);
	errno = err;
	return -1;
}

/*
 * Runs in the child between fork and exec: only async-signal-safe calls.
 * Its stdout is @out_fd, if not -1.
 */
static void child_exec(const struct proc *p, const struct exec_plan *plan,
		       const sigset_t *mask, int out_fd, int errpipe)
{
	int fd, err;

	/*
	 * A worker's child (QEMU, make) in a group of its own dies with the
	 * worker, however the worker ends: no QEMU is left without the
	 * deadline the worker kept.
	 */
	if (worker) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != worker)
			_exit(127);
	}
	/* Ours would stop the parent's children: the defaults, then. */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	sigprocmask(SIG_SETMASK, mask, NULL);
	errpipe = fd_above_stdio(errpipe);
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
	execve(plan->path, (char *const *)p->argv, (char *const *)plan->envp);
	if (errno == ENOEXEC)
		execve(plan->sh_argv[0], (char *const *)plan->sh_argv,
		       (char *const *)plan->envp);
fail:
	err = errno;
	if (write(errpipe, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* What proc_capture() collects, through a non-blocking pipe. */
struct capture {
	int fd;
	int eof;
	char *buf;
	size_t size, len;	/* len < size: room for the NUL */
};

/*
 * One read of the pipe. Output past the buffer is dropped if @drop (the
 * child must not block on a full pipe), else left. Return: bytes read, 0
 * at end of file (and ->eof set), -1 for none yet.
 */
static ssize_t capture_read(struct capture *cap, int drop)
{
	size_t room = cap->size - 1 - cap->len;
	char scrap[4096];
	ssize_t n;

	if (!room && !drop)
		return -1;
	if (room)
		n = read(cap->fd, cap->buf + cap->len, room);
	else
		n = read(cap->fd, scrap, sizeof(scrap));
	if (n > 0 && room)
		cap->len += n;
	if (n < 0 && errno != EAGAIN && errno != EINTR)
		n = 0;
	if (!n)
		cap->eof = 1;
	return n;
}

/*
 * Reaps @pid, reading @cap meanwhile if not NULL, until @deadline (0:
 * none) or until @p's done() says so (@p may be NULL). Return: 0 when
 * reaped, -1 when the deadline came first, 1 when done() did.
 */
static int child_reap(pid_t pid, int *wstatus, double deadline,
		      struct capture *cap, const struct proc *p)
{
	for (;;) {
		pid_t r = waitpid(pid, wstatus, WNOHANG);
		double wake = deadline;

		if (r == pid || (r < 0 && errno != EINTR))
			return 0;
		if (deadline && now_seconds() >= deadline)
			return -1;
		if (p && p->done) {
			if (p->done(p->done_arg))
				return 1;
			wake = now_seconds() + PROC_DONE_POLL;
			if (deadline && deadline < wake)
				wake = deadline;
		}
		if (chld_poll(cap && !cap->eof ? cap->fd : -1, wake))
			capture_read(cap, 1);
	}
}

/* Ends the whole group: SIGTERM, a grace period, then SIGKILL. */
static void group_stop(pid_t pid, int *wstatus)
{
	kill(-pid, SIGTERM);
	if (child_reap(pid, wstatus, now_seconds() + TERM_GRACE, NULL, NULL)) {
		kill(-pid, SIGKILL);
		while (waitpid(pid, wstatus, 0) < 0 && errno == EINTR)
			;
	}
}

/*
 * fork() with the child's group in live[] before a signal can come. The
 * child returns in its own group with SIGINT, SIGTERM and SIGHUP still
 * blocked: *@old is the mask to restore.
 */
static pid_t live_fork(sigset_t *old)
{
	pid_t pid;

	live_lock(old);
	live_reserve();
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		return 0;
	}
	if (pid > 0) {
		setpgid(pid, pid);
		live_add(pid);
	}
	live_unlock(old);
	return pid;
}

pid_t proc_fork(void)
{
	sigset_t old;
	pid_t pid;

	if (chld_setup())
		return -1;
	fflush(NULL);
	pid = live_fork(&old);
	if (pid == 0) {
		/* The parent's other children are the parent's to stop. */
		nlive = 0;
		worker = getpid();
		chld_renew();
		live_unlock(&old);
	}
	return pid;
}

pid_t proc_wait_any_until(int *status, double deadline)
{
	pid_t pid;

	for (;;) {
		pid = waitpid(-1, status, deadline ? WNOHANG : 0);
		if (pid > 0 || (pid < 0 && errno != EINTR))
			break;
		if (!pid && now_seconds() >= deadline)
			return 0;
		/* a child that ends meanwhile wakes it: SIGCHLD's pipe */
		if (!pid)
			chld_poll(-1, deadline);
	}
	if (pid > 0) {
		kill(-pid, SIGKILL);
		live_del(pid);
	}
	return pid;
}

pid_t proc_wait_any(int *status)
{
	return proc_wait_any_until(status, 0);
}

pid_t proc_worker(void (*fn)(void *arg, void *msg), void *arg, void *msg,
		  size_t len, int *fd)
{
	int p[2];
	pid_t pid;

	if (len > PIPE_BUF) {
		errno = EINVAL;
		return -1;
	}
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = proc_fork();
	if (pid == 0) {
		close(p[0]);
		fn(arg, msg);
		_exit(write(p[1], msg, len) == (ssize_t)len ? 0 : 1);
	}
	close(p[1]);
	if (pid < 0) {
		close(p[0]);
		return -1;
	}
	*fd = p[0];
	return pid;
}

int proc_worker_read(int fd, void *msg, size_t len)
{
	size_t got = 0;
	ssize_t k;

	while (got < len) {
		k = read(fd, (char *)msg + got, len - got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			break;
		got += k;
	}
	close(fd);
	return got == len ? 0 : -1;
}

char *proc_worker_lost(int status)
{
	if (status < 0)
		return xstrdup("did not report its outcome");
	if (WIFSIGNALED(status))
		return xstrfmt("was killed by signal %d (%s)",
			       WTERMSIG(status), strsignal(WTERMSIG(status)));
	return xstrfmt("ended with status %d before reporting its outcome",
		       WEXITSTATUS(status));
}

/*
 * Forks and execs @p's child, stdout to @out_fd if not -1.
 * Return: 0, or -1 with errno in *@code.
 */
static int proc_start(struct proc *p, int out_fd, int *code)
{
	struct exec_plan plan;
	int errpipe[2], own_out = -1, err;
	sigset_t old;
	ssize_t n;
	pid_t pid = -1;

	if (chld_setup() || plan_make(&plan, p))
		goto fail;
	if (pipe2(errpipe, O_CLOEXEC) < 0)
		goto fail_release_plan;
	if (out_fd < 0 && p->out_path)
		out_fd = own_out = open(p->out_path, O_WRONLY | O_CREAT |
					O_CLOEXEC | (p->out_append ?
					O_APPEND : O_TRUNC), 0644);
	if (out_fd >= 0 || !p->out_path)
		pid = live_fork(&old);
	if (pid == 0)
		child_exec(p, &plan, &old, out_fd, errpipe[1]);
	err = errno;
	if (own_out >= 0)
		close(own_out);
	close(errpipe[1]);
	plan_release(&plan);
	if (pid < 0) {
		close(errpipe[0]);
		errno = err;
		goto fail;
	}
	p->pid = pid;
	n = read(errpipe[0], &err, sizeof(err));
	close(errpipe[0]);
	if (n == sizeof(err)) {
		waitpid(pid, NULL, 0);
		live_del(pid);
		errno = err;
		goto fail;
	}
	return 0;
fail_release_plan:
	plan_release(&plan);
fail:
	*code = errno;
	return -1;
}

/*
 * Waits for @p's child, for its deadline or for its done(); with @cap,
 * reads its stdout meanwhile. Nothing the child started may outlive it:
 * its group is killed when it ends.
 */
static enum proc_status proc_wait(struct proc *p, struct capture *cap,
				  int *code)
{
	double deadline = p->timeout > 0 ? now_seconds() + p->timeout : 0;
	int wstatus = 0;
	pid_t pid = p->pid;
	int r = child_reap(pid, &wstatus, deadline, cap, p);

	if (r) {
		group_stop(pid, &wstatus);
		kill(-pid, SIGKILL);
		live_del(pid);
		*code = 0;
		return r < 0 ? PROC_TIMEOUT : PROC_DONE;
	}
	kill(-pid, SIGKILL);
	live_del(pid);
	/* What is left in the pipe, up to a full buffer: a writer outside
	 * the group could go on for ever. */
	while (cap && !cap->eof && capture_read(cap, 0) > 0)
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

int proc_run_logged(struct proc *p, const char *what, int lines,
		    struct sf_err *err)
{
	int code;
	enum proc_status st = proc_run(p, &code);
	char *tail;

	if (st == PROC_EXITED && !code)
		return 0;
	if (st == PROC_START_FAILED)
		return err_set(err, "%s failed: cannot run '%s': %s", what,
			       p->argv[0], strerror(code));
	tail = file_tail(p->out_path, lines);
	err_set(err, "%s %s (full log: %s):\n%s", what,
		st == PROC_TIMEOUT ? "timed out" : "failed", p->out_path, tail);
	free(tail);
	return -1;
}

/* A 150 MB tarball in about a second here; a slow disk gets minutes. */
#define SHA256_TIMEOUT 600.0

int proc_sha256(const char *path, char hex[65], struct sf_err *err)
{
	const char *argv[] = { "sha256sum", "--", path, NULL };
	char out[PATH_MAX + 80];

	if (proc_capture(argv, SHA256_TIMEOUT, out, sizeof(out), err))
		return -1;
	if (strspn(out, "0123456789abcdef") != 64)
		return err_set(err, "'%s': no sha256 from sha256sum", path);
	memcpy(hex, out, 64);
	hex[64] = '\0';
	return 0;
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
	case PROC_DONE:		/* no done() here: cannot happen */
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
	char out[512], text[ERR_FORMAT_MAX];
	struct sf_err why = SF_ERR_INIT;
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
		strv_push(&errors, bad ? err_format(&why, text, sizeof(text)) :
					 "");
	}
	if (*errors.v[i]) {
		err_set(err, "%s", errors.v[i]);
		return NULL;
	}
	return versions.v[i];
}
