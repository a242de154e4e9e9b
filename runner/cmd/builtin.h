/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands, one file each in cmd/, dispatched by sysfarm.c. */
#ifndef SYSFARM_BUILTIN_H
#define SYSFARM_BUILTIN_H

/* Each returns an exit status from exitcode.h. */
int cmd_list(int argc, char **argv);
int cmd_fetch(int argc, char **argv);
int cmd_build(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_update(int argc, char **argv);
int cmd_review(int argc, char **argv);
int cmd_shell(int argc, char **argv);
int cmd_lava_jobs(int argc, char **argv);
int cmd_bisect(int argc, char **argv);
int cmd_abi(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_upgrade(int argc, char **argv);
int cmd_report(int argc, char **argv);

struct opt_cmd;
struct run_hooks;

/**
 * stages_main() - `sysfarm build`, `run` and `lava-jobs`: the stages with
 * @h's hooks, a line per configuration (cmd/build.c)
 * @h: its ctx holds @cmd's options
 * @ready: NULL, or checks the options once parsed, before the matrix is
 *	loaded (a compiler looked for): 0, or the exit status (the message
 *	said)
 *
 * Return: the exit status.
 */
int stages_main(int argc, char **argv, const struct opt_cmd *cmd,
		const struct run_hooks *h, int (*ready)(void *ctx));

#endif
