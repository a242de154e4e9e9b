// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: runner/lib/proc.c's environment, deadlines and cleanup. */
#include <errno.h>
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
#include "tests/tap.h"

/* More than the 16 slots the table once had. */
#define MANY 40

static char dir[] = "/tmp/proc-unit.XXXXXX";

/* @name in the scratch directory, executable, holding @text. */
static char *script(const char *name, const char *text)
{
	char *path = xstrfmt("%s/%s", dir, name);

	if (file_write_atomic(path, text, strlen(text)) || chmod(path, 0755))
		abort();
	return path;
}

/* Runs @argv with @env, stdout to a file; what it wrote in @out. */
static enum proc_status run(const char *const *argv, const char *const *env,
			    double timeout, int *code, char *out, size_t size)
{
	char *log = xstrfmt("%s/out", dir), *text;
	struct proc p = PROC_INIT;
	enum proc_status st;

	p.argv = argv;
	p.env = env;
	p.out_path = log;
	p.timeout = timeout;
	st = proc_run(&p, code);
	text = file_read(log, NULL);
	snprintf(out, size, "%s", text ? text : "");
	while (*out && out[strlen(out) - 1] == '\n')
		out[strlen(out) - 1] = '\0';
	free(text);
	unlink(log);
	free(log);
	return st;
}

static void test_env(void)
{
	const char *argv[] = { "sh", "-c", "echo \"$A-${B-unset}-$C\"", NULL };
	const char *env[] = { "A=1", "B", "C=x", "C=2", NULL };
	char out[64];
	int code;

	setenv("B", "inherited", 1);
	setenv("C", "inherited", 1);
	ok(run(argv, env, 0, &code, out, sizeof(out)) == PROC_EXITED &&
	   !code && !strcmp(out, "1-unset-2"),
	   "env sets, unsets and overrides in order (got '%s')", out);
	ok(!strcmp(getenv("B"), "inherited") &&
	   !strcmp(getenv("C"), "inherited"),
	   "... and leaves our own environment alone");
}

static void test_path(void)
{
	char *bin = xstrfmt("%s/bin", dir), *path = xstrfmt("PATH=%s", bin);
	const char *env[] = { path, NULL };
	const char *hello[] = { "hello", "world", NULL };
	const char *plain[] = { "plain", "arg", NULL };
	const char *none[] = { "no-such-command-anywhere", NULL };
	char out[64];
	int code;

	mkdir(bin, 0755);
	free(script("bin/hello", "#!/bin/sh\necho \"hello $1\"\n"));
	free(script("bin/plain", "echo \"no #! line, $1\"\n"));
	ok(run(hello, env, 0, &code, out, sizeof(out)) == PROC_EXITED &&
	   !code && !strcmp(out, "hello world"),
	   "argv[0] found in the PATH that env sets (got '%s')", out);
	ok(run(plain, env, 0, &code, out, sizeof(out)) == PROC_EXITED &&
	   !code && !strcmp(out, "no #! line, arg"),
	   "a script without '#!' runs through sh (got '%s')", out);
	ok(run(none, NULL, 0, &code, out, sizeof(out)) == PROC_START_FAILED &&
	   code == ENOENT, "a missing command: START_FAILED, ENOENT");
	free(path);
	free(bin);
}

static void test_status(void)
{
	const char *fail[] = { "sh", "-c", "exit 3", NULL };
	const char *sig[] = { "sh", "-c", "kill -9 $$", NULL };
	const char *slow[] = { "sleep", "30", NULL };
	const char *deaf[] = { "sh", "-c", "trap '' TERM; echo $$; sleep 30 & "
			       "echo $!; wait", NULL };
	enum proc_status st;
	int code, status;
	pid_t sh = 0, bg = 0;
	char out[64];
	double t;

	ok(run(fail, NULL, 5, &code, out, sizeof(out)) == PROC_EXITED &&
	   code == 3, "exit status 3: EXITED, 3");
	ok(run(sig, NULL, 5, &code, out, sizeof(out)) == PROC_SIGNALED &&
	   code == SIGKILL, "killed by SIGKILL: SIGNALED, 9");
	t = now_seconds();
	st = run(slow, NULL, 0.3, &code, out, sizeof(out));
	t = now_seconds() - t;
	ok(st == PROC_TIMEOUT && t < 1.5,
	   "past its deadline: TIMEOUT, and it stops at SIGTERM (%.1f s)", t);
	t = now_seconds();
	st = run(deaf, NULL, 0.3, &code, out, sizeof(out));
	t = now_seconds() - t;
	ok(st == PROC_TIMEOUT && t > 2 && t < 4,
	   "a child that ignores SIGTERM: TIMEOUT, SIGKILL 2 s later (%.1f s)",
	   t);
	/* The shell, and the sleep in its group: an orphan that comes to us */
	if (sscanf(out, "%d %d", &sh, &bg) != 2 || waitpid(bg, &status, 0) < 0)
		status = 0;
	ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL,
	   "... and its whole group is killed (sh %d, sleep %d)", (int)sh,
	   (int)bg);
}

/*
 * A supervisor with MANY proc_fork() children; it ends by @how (a signal
 * we send, or 0: exit()). Return: how many of them outlived it.
 */
static int supervise(int how)
{
	pid_t kids[MANY], sup;
	int fds[2], status, left = 0, reaped = 0;
	double t;

	if (pipe(fds))
		abort();
	sup = fork();
	if (sup == 0) {
		proc_setup_signals();
		for (int i = 0; i < MANY; i++) {
			pid_t kid = proc_fork();

			if (kid == 0) {
				pause();
				_exit(0);
			}
			if (write(fds[1], &kid, sizeof(kid)) != sizeof(kid))
				_exit(1);
		}
		if (!how)
			exit(0);
		pause();
		_exit(1);
	}
	close(fds[1]);
	for (int i = 0; i < MANY; i++)
		if (read(fds[0], &kids[i], sizeof(kids[i])) != sizeof(kids[i]))
			kids[i] = 0;
	close(fds[0]);
	if (how)
		kill(sup, how);
	waitpid(sup, &status, 0);
	/* Killed and reaped by it, or killed and come to us to reap */
	for (t = now_seconds(); now_seconds() - t < 3 && reaped < MANY;) {
		struct timespec ms = { 0, 10000000 };

		if (waitpid(-1, NULL, WNOHANG) > 0) {
			reaped++;
			continue;
		}
		if (how)
			break;	/* it waits for its children itself */
		nanosleep(&ms, NULL);
	}
	for (int i = 0; i < MANY; i++) {
		if (kids[i] > 0 && !kill(kids[i], 0)) {
			left++;
			kill(kids[i], SIGKILL);
			waitpid(kids[i], NULL, 0);
		}
	}
	return left;
}

static void test_cleanup(void)
{
	int left;

	left = supervise(SIGTERM);
	ok(!left, "SIGTERM stops all %d children (%d left)", MANY, left);
	left = supervise(SIGINT);
	ok(!left, "SIGINT stops all %d children (%d left)", MANY, left);
	left = supervise(0);
	ok(!left, "exit() stops all %d children (%d left)", MANY, left);
}

/*
 * proc_wait_any_until(): 0 at its deadline while a child still runs, the
 * child as soon as it ends, not at the deadline.
 */
static void test_wait_until(void)
{
	double t = now_seconds(), slept, woke;
	pid_t kid = proc_fork(), got;
	int status;

	if (kid == 0) {
		usleep(300000);
		_exit(7);
	}
	got = proc_wait_any_until(&status, t + 0.05);
	slept = now_seconds() - t;
	ok(got == 0 && slept >= 0.05 && slept < 0.25,
	   "none ended: 0 at the deadline (%d after %.2f s)", (int)got, slept);
	got = proc_wait_any_until(&status, now_seconds() + 5);
	woke = now_seconds() - t;
	ok(got == kid && WIFEXITED(status) && WEXITSTATUS(status) == 7 &&
	   woke < 2, "the child as it ends, before the deadline (%.2f s)",
	   woke);
	ok(proc_wait_any_until(&status, now_seconds() + 5) < 0,
	   "no child: -1 at once");
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	/* Orphans come to us: what a test leaves behind is seen, and reaped */
	prctl(PR_SET_CHILD_SUBREAPER, 1);
	test_env();
	test_path();
	test_status();
	test_cleanup();
	test_wait_until();
	rm_rf(dir);
	return tap_done();
}
