/* SPDX-License-Identifier: GPL-2.0 */
/* Option parsing for the commands that take files, not configurations. */
#ifndef SYSFARM_ARGS_H
#define SYSFARM_ARGS_H

#include <getopt.h>

/**
 * args_parse() - getopt_long() with --help and a fixed number of operands
 * @usage: printed on stdout for --help, on stderr for misuse
 * @options: the command's own long options, { 0 }-terminated, each with
 *	a value handled by @cb (--help is added here)
 * @cb: takes one option; returns 0, or -1 after a message on stderr
 * @nargs: how many operands must follow the options
 *
 * Return: the index of the first operand; 0 after --help; -1 after a
 * message (the command exits with SF_EXIT_USAGE).
 */
int args_parse(int argc, char **argv, const char *usage,
	       const struct option *options,
	       int (*cb)(void *ctx, int opt, const char *arg), void *ctx,
	       int nargs);

#endif
