/* SPDX-License-Identifier: GPL-2.0 */
/* Command-line options declared once, in tables that also print the usage. */
#ifndef SYSFARM_OPTIONS_H
#define SYSFARM_OPTIONS_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

/*
 * One option of a table, bound to a field of the struct the table
 * describes (by offset, so that tables are static data), as perf's
 * OPT_BOOLEAN/OPT_STRING bind theirs (tools/lib/subcmd/parse-options.h).
 * Declare entries with the OPT_*() macros below, which check the field's
 * type; a table ends with OPT_END.
 */
struct opt {
	enum opt_type {
		OPT_TYPE_END,
		OPT_TYPE_BOOLEAN,	/* int, set to 1 */
		OPT_TYPE_SET_INT,	/* int, set to .set */
		OPT_TYPE_STRING,	/* const char *, the argument */
		OPT_TYPE_STRDUP,	/* char *, owned: old one freed */
		OPT_TYPE_STRV,		/* struct strv, the argument pushed */
		OPT_TYPE_INT,		/* int from .min to .max */
		OPT_TYPE_LONG,		/* long from .min to .max */
		OPT_TYPE_WORD,		/* const char *, one of .words */
		OPT_TYPE_COLOR,		/* int: 1 always, 0 never, auto:
					 * is stdout a terminal */
		OPT_TYPE_INCLUDE,	/* the entries of .include; with
					 * .group, a group of options */
	} type;
	char short_name;	/* 'j' for -j, or 0 */
	const char *name;	/* the long name, without "--" */
	const char *argh;	/* the value's name in the usage: "FILE"
				 * (a FILE or DIR is never empty) */
	const char *help;	/* one line, wrapped when printed */
	size_t offset;		/* of the field (the included struct) */
	long set;		/* OPT_SET_INT's value */
	long min, max;		/* a number's range, max LONG_MAX: none */
	const char *what;	/* a number's kind in messages: "a count" */
	const char *const *words;	/* OPT_WORD's, NULL-terminated */
	const struct opt *include;	/* OPT_INCLUDE's table */
	unsigned int group;	/* OPT_GROUP's bit, or 0 */
};

/* The offset of @field in @st, a compile error unless it is a @ctype. */
#define OPT_FIELD(st, field, ctype) \
	_Generic(&((st *)0)->field, ctype *: offsetof(st, field))

#define OPT_ENTRY(t, s, l, a, h) \
	.type = (t), .short_name = (s), .name = (l), .argh = (a), .help = (h)

#define OPT_BOOLEAN(s, l, st, field, h) \
	{ OPT_ENTRY(OPT_TYPE_BOOLEAN, s, l, NULL, h), \
	  .offset = OPT_FIELD(st, field, int) }
#define OPT_SET_INT(s, l, st, field, v, h) \
	{ OPT_ENTRY(OPT_TYPE_SET_INT, s, l, NULL, h), .set = (v), \
	  .offset = OPT_FIELD(st, field, int) }
#define OPT_STRING(s, l, st, field, a, h) \
	{ OPT_ENTRY(OPT_TYPE_STRING, s, l, a, h), \
	  .offset = OPT_FIELD(st, field, const char *) }
#define OPT_STRDUP(s, l, st, field, a, h) \
	{ OPT_ENTRY(OPT_TYPE_STRDUP, s, l, a, h), \
	  .offset = OPT_FIELD(st, field, char *) }
#define OPT_STRV(s, l, st, field, a, h) \
	{ OPT_ENTRY(OPT_TYPE_STRV, s, l, a, h), \
	  .offset = OPT_FIELD(st, field, struct strv) }
/*
 * A whole number from @lo to @hi, in an int or a long field; @w names
 * its kind in messages ("--jobs takes a count (1 to 1024), not 'x'").
 */
#define OPT_INTEGER(s, l, st, field, a, lo, hi, w, h) \
	{ OPT_ENTRY(_Generic(((st *)0)->field, int: OPT_TYPE_INT, \
			     long: OPT_TYPE_LONG), s, l, a, h), \
	  .offset = offsetof(st, field), .min = (lo), .max = (hi), \
	  .what = (w) }
/* One of the NULL-terminated @ws; the usage shows them as "a|b". */
#define OPT_WORD(s, l, st, field, ws, h) \
	{ OPT_ENTRY(OPT_TYPE_WORD, s, l, NULL, h), .words = (ws), \
	  .offset = OPT_FIELD(st, field, const char *) }
/* auto, always or never: the one colour option, "WHEN" in the usage. */
#define OPT_COLOR(s, l, st, field, h) \
	{ OPT_ENTRY(OPT_TYPE_COLOR, s, l, "WHEN", h), \
	  .offset = OPT_FIELD(st, field, int) }
/* The options of @table, bound to @field (a struct) of @st. */
#define OPT_INCLUDE(table, st, field) \
	{ .type = OPT_TYPE_INCLUDE, .include = (table), \
	  .offset = offsetof(st, field) }
/*
 * A group of options (@table) that several commands take, each one
 * saying which groups it takes (a bit each, as git.c's RUN_SETUP says
 * what a builtin needs): for a command that does not take @bit its
 * options are neither taken nor listed, but named when refused ("option
 * '--boots' is not taken by 'review'"). OPT_GROUP binds @table to the
 * base itself; OPT_GROUP_AT to @field of @st; OPT_GROUP_OWN binds it
 * nowhere, in the common table, for a group that the commands taking
 * it bind in their own tables with OPT_GROUP_AT.
 */
#define OPT_GROUP(bit, table) \
	{ .type = OPT_TYPE_INCLUDE, .include = (table), .group = (bit) }
#define OPT_GROUP_AT(bit, table, st, field) \
	{ .type = OPT_TYPE_INCLUDE, .include = (table), .group = (bit), \
	  .offset = offsetof(st, field) }
#define OPT_GROUP_OWN(bit, table) \
	{ .type = OPT_TYPE_INCLUDE, .include = (table), .group = (bit), \
	  .offset = OPT_OWN }
#define OPT_OWN SIZE_MAX
#define OPT_END { .type = OPT_TYPE_END }

/* Operands are configuration names: any number, after the options. */
#define OPT_CONFIGS (-1)

/* A command's options and what its usage says around them. */
struct opt_cmd {
	const char *usage;	/* "sysfarm list [OPTIONS] [CONFIG...]" */
	const char *about;	/* what the command does, or NULL */
	const struct opt *opts;	/* its own options, or NULL */
	const char *after;	/* printed after the options, or NULL */
	int nargs;		/* exactly this many operands, options
				 * anywhere; or OPT_CONFIGS */
};

/* What options_parse() returns besides the index of the first operand. */
enum options_status {
	OPTIONS_HELP = 0,	/* -h or --help: the usage, on stdout */
	OPTIONS_BAD = -1,	/* a bad value, said in the error alone */
	OPTIONS_USAGE = -2,	/* an unknown option, a missing value or
				 * a wrong number of operands: said in the
				 * error, one line with a hint */
};

/**
 * options_parse() - getopt_long() over a command's table and the common one
 * @cmd: the command; its options are bound to @base
 * @common: options the command shares with others (may be NULL), bound
 *	to @common_base (NULL when it takes none of its groups)
 * @groups: the OPT_GROUP bits of the groups the command takes, in either
 *	table; the options of the others are refused
 * @err: set for OPTIONS_BAD ("--jobs takes a count (1 to 1024), not 'x'")
 *	and OPTIONS_USAGE ("sysfarm check: unknown option '--alow-added'
 *	(did you mean --allow-added? 'sysfarm check --help' lists them)":
 *	the options it abbreviates, else the nearest within 2 edits; or
 *	"sysfarm review: option '--boots' is not taken by 'review' (...)")
 *
 * -h and --help are added. Nothing is printed here, getopt_long()'s
 * messages neither: the command reports what this returns (cmd/ui.c).
 *
 * Return: the index of the first operand, or an enum options_status.
 */
int options_parse(int argc, char **argv, const struct opt_cmd *cmd,
		  void *base, const struct opt *common, void *common_base,
		  unsigned int groups, struct sf_err *err);

/*
 * Prints @cmd's usage, its options aligned and wrapped, one a line, those
 * of the @groups it takes in @common after.
 */
void options_usage(FILE *out, const struct opt_cmd *cmd,
		   const struct opt *common, unsigned int groups);

#endif
