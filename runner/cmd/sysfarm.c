// SPDX-License-Identifier: GPL-2.0
/* sysfarm: builds, boots and snapshots the matrix; dispatches subcommands. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd/builtin.h"
#include "cmd/ui.h"
#include "lib/exitcode.h"
#include "lib/proc.h"
#include "lib/util.h"
#include "lib/verdict.h"

/* The option groups of a command that builds and boots (ui.h). */
#define GROUPS_RUN (GROUP_MATRIX | GROUP_SOURCE | GROUP_BUILD | GROUP_BOOT)

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned int groups;	/* of options it takes besides its own */
	const char *help;
} commands[] = {
	{ "list", cmd_list, GROUP_MATRIX | GROUP_SOURCE,
	  "the configurations and their build keys" },
	{ "fetch", cmd_fetch, GROUP_MATRIX,
	  "fetch the sources named by a Debian suite" },
	{ "build", cmd_build, GROUP_MATRIX | GROUP_SOURCE | GROUP_BUILD,
	  "build the configurations' kernels" },
	{ "run", cmd_run, GROUPS_RUN,
	  "build, boot and snapshot configurations" },
	{ "check", cmd_check, GROUPS_RUN | GROUP_OUTPUT,
	  "run and compare with the goldens in expected/" },
	{ "update", cmd_update, GROUPS_RUN,
	  "run and write the goldens (atomically)" },
	{ "review", cmd_review, GROUP_MATRIX,
	  "accept or reject the snapshots check left pending" },
	{ "shell", cmd_shell, GROUPS_RUN,
	  "boot a configuration with a shell on the console" },
	{ "lava-jobs", cmd_lava_jobs, GROUPS_RUN,
	  "a LAVA job definition per configuration" },
	{ "bisect", cmd_bisect, GROUPS_RUN,
	  "the first patch that changed the ABI" },
	{ "abi", cmd_abi, GROUP_MATRIX | GROUP_SOURCE,
	  "check snapshots against the ABI table" },
	{ "diff", cmd_diff, 0, "compare two snapshots path by path" },
	{ "upgrade", cmd_upgrade, GROUP_MATRIX,
	  "the ABI delta of a release upgrade (source axis)" },
	{ "report", cmd_report, GROUP_OUTPUT,
	  "a results file as TAP, JUnit XML or Markdown" },
};

static void usage(FILE *out)
{
	fputs("usage: sysfarm COMMAND [OPTIONS] [CONFIG...]\n\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-9s %s\n", commands[i].name, commands[i].help);
	fputs("\n'sysfarm COMMAND --help' for a command's options.\n"
	      "Exit status: 0 all passed, 1 an ABI difference, 2 bad usage or input\n"
	      "(128 while a git bisect is in progress, so that it stops), 125 could\n"
	      "not test (config, build, boot, timeout, corrupt) or cannot write.\n",
	      out);
}

/* The git directory @dir/.git is or names (a worktree), or NULL. */
static char *git_dir_of(const char *dir, const char *dotgit)
{
	struct sf_err err = SF_ERR_INIT;	/* unread: not a git dir */
	char *text, *gitdir = NULL;
	struct stat st;
	size_t len;

	if (stat(dotgit, &st) < 0)
		return NULL;
	if (S_ISDIR(st.st_mode))
		return xstrdup(dotgit);
	text = input_read(dotgit, 4096, &len, &err);
	if (text && !strncmp(text, "gitdir: ", 8)) {
		text[strcspn(text, "\n")] = '\0';
		gitdir = text[8] == '/' ? xstrdup(text + 8) :
					  xstrfmt("%s/%s", dir, text + 8);
	}
	free(text);
	return gitdir ? gitdir : xstrdup("");
}

/*
 * Is a `git bisect` in progress in the repository around the current
 * directory (where `git bisect run` runs its command)? A bisection leaves
 * BISECT_START in the nearest git directory until `git bisect reset`.
 */
static int bisecting(void)
{
	char *dir = getcwd(NULL, 0), *gitdir = NULL, *slash;
	int found = 0;

	while (dir && !gitdir) {
		char *dotgit = xstrfmt("%s/.git", dir);

		gitdir = git_dir_of(dir, dotgit);
		free(dotgit);
		slash = strrchr(dir, '/');
		if (!slash || slash == dir)
			break;
		*slash = '\0';
	}
	if (gitdir && *gitdir) {
		char *mark = xstrfmt("%s/BISECT_START", gitdir);

		found = path_exists(mark);
		free(mark);
	}
	free(gitdir);
	free(dir);
	return found;
}

/* Bad usage or input under `git bisect run` stops it (see exitcode.h). */
static int exit_status(int status)
{
	if (status != SF_EXIT_USAGE || !bisecting())
		return status;
	fprintf(stderr, "sysfarm: a git bisect is in progress: exit status %d stops it (bad input is not about the commit)\n",
		SF_EXIT_USAGE_BISECT);
	return SF_EXIT_USAGE_BISECT;
}

/* Like git's run_builtin: a lost stdout is a failure (125). */
static int stdout_check(int status)
{
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "sysfarm: cannot write to stdout: %s\n",
			strerror(errno));
		return verdict_exit_lost(status);
	}
	return status;
}

int main(int argc, char **argv)
{
	ui_install();
	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return exit_status(stdout_check(argc < 2 ? SF_EXIT_USAGE :
							   SF_EXIT_OK));
	}
	proc_setup_signals();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (!strcmp(argv[1], commands[i].name)) {
			ui_command(commands[i].groups);
			return exit_status(stdout_check(
				commands[i].fn(argc - 1, argv + 1)));
		}
	fprintf(stderr, "sysfarm: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return exit_status(SF_EXIT_USAGE);
}
