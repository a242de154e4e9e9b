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
int cmd_bisect(int argc, char **argv);
int cmd_abi(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_upgrade(int argc, char **argv);
int cmd_report(int argc, char **argv);

#endif
