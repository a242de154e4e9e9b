// SPDX-License-Identifier: GPL-2.0
/* sysfarm: builds, boots and snapshots the matrix; dispatches subcommands. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "exitcode.h"
#include "proc.h"

static const struct cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *help;
} commands[] = {
	{ "list", cmd_list, "the configurations and their build keys" },
	{ "build", cmd_build, "build the configurations' kernels" },
	{ "run", cmd_run, "build, boot and snapshot configurations" },
	{ "check", cmd_check, "run and compare with the goldens in expected/" },
	{ "update", cmd_update, "run and write the goldens (atomically)" },
	{ "bisect", cmd_bisect, "the first patch that changed the ABI" },
	{ "abi", cmd_abi, "check snapshots against the ABI table" },
	{ "diff", cmd_diff, "compare two snapshots path by path" },
	{ "report", cmd_report, "a results file as TAP, JUnit XML or Markdown" },
};

static void usage(FILE *out)
{
	fputs("usage: sysfarm COMMAND [OPTIONS] [CONFIG...]\n\n", out);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].help);
	fputs("\n'sysfarm COMMAND --help' for a command's options.\n"
	      "Exit status: 0 all passed, 1 an ABI difference, 2 bad usage or input,\n"
	      "125 could not test (config, build, boot, timeout, corrupt).\n", out);
}

int main(int argc, char **argv)
{
	int status;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(argc < 2 ? stderr : stdout);
		return argc < 2 ? SF_EXIT_USAGE : SF_EXIT_OK;
	}
	proc_setup_signals();
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[1], commands[i].name))
			continue;
		status = commands[i].fn(argc - 1, argv + 1);
		/* Like git's run_builtin: a lost stdout is a failure. */
		if (fflush(stdout) || ferror(stdout)) {
			fprintf(stderr, "sysfarm: cannot write to stdout: %s\n",
				strerror(errno));
			return status ? status : SF_EXIT_UNTESTED;
		}
		return status;
	}
	fprintf(stderr, "sysfarm: unknown command '%s'\n\n", argv[1]);
	usage(stderr);
	return SF_EXIT_USAGE;
}
