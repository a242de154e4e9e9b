/* SPDX-License-Identifier: GPL-2.0 */
/* The subcommands, one file each in cmd/, dispatched by sysfarm.c. */
#ifndef SYSFARM_BUILTIN_H
#define SYSFARM_BUILTIN_H

/* Each returns an exit status from exitcode.h. */
int cmd_list(int argc, char **argv);
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

/**
 * stages_main() - `sysfarm build` (@boot 0) and `sysfarm run` (1): the
 * stages alone, a line per configuration (cmd/build.c)
 *
 * Return: the exit status.
 */
int stages_main(int argc, char **argv, const struct opt_cmd *cmd, int boot);

#endif
