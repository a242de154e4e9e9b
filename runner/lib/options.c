// SPDX-License-Identifier: GPL-2.0
/* Command-line options from tables: parsed by getopt_long(), usage printed. */
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/options.h"

/* Where help lines are wrapped: an 80-column terminal. */
#define USAGE_COLUMNS 79

/* getopt_long() returns OPT_VAL + i for the i-th long option. */
#define OPT_VAL 0x100

/* An entry of the tables, flattened, and the field it sets. */
struct bound {
	const struct opt *o;
	void *field;		/* NULL when only the usage is printed */
};

struct bounds {
	struct bound *v;
	size_t n;
};

/* Every command takes it; handled before any field is set. */
static const struct opt help_opt = {
	.type = OPT_TYPE_BOOLEAN, .short_name = 'h', .name = "help",
	.help = "print this help",
};

static const char *const color_words[] = { "auto", "always", "never", NULL };

static void bounds_push(struct bounds *b, const struct opt *o, void *field)
{
	b->v = xrealloc(b->v, (b->n + 1) * sizeof(*b->v));
	b->v[b->n++] = (struct bound){ .o = o, .field = field };
}

/*
 * Appends @table's entries, included ones in their place, but those of a
 * group not in @groups to @foreign (when not NULL): named, never bound.
 */
static void bounds_add(struct bounds *b, struct bounds *foreign,
		       const struct opt *table, char *base,
		       unsigned int groups)
{
	for (const struct opt *o = table; o && o->type != OPT_TYPE_END; o++) {
		int taken = !o->group || (o->group & groups);

		if (o->type != OPT_TYPE_INCLUDE)
			bounds_push(b, o, base ? base + o->offset : NULL);
		else if (taken && o->offset != OPT_OWN)
			bounds_add(b, foreign, o->include,
				   base ? base + o->offset : NULL, groups);
		else if (!taken && foreign)
			bounds_add(foreign, NULL, o->include, NULL, ~0u);
	}
}

/*
 * The entries of @first, then @second's, then --help; those of the
 * groups not taken in @foreign (when not NULL).
 */
static void bounds_init(struct bounds *b, struct bounds *foreign,
			const struct opt *first, void *first_base,
			const struct opt *second, void *second_base,
			unsigned int groups)
{
	*b = (struct bounds){ 0 };
	if (foreign)
		*foreign = (struct bounds){ 0 };
	bounds_add(b, foreign, first, first_base, groups);
	bounds_add(b, foreign, second, second_base, groups);
	bounds_push(b, &help_opt, NULL);
}

static int takes_value(const struct opt *o)
{
	return o->type != OPT_TYPE_BOOLEAN && o->type != OPT_TYPE_SET_INT;
}

/* "a|b" (@prose 0) or "a, b or c" (@prose 1), cut to fit @size. */
static char *words_join(char *buf, size_t size, const char *const *w,
			int prose)
{
	size_t len = 0;

	buf[0] = '\0';
	for (size_t i = 0; w[i] && len < size; i++) {
		const char *sep = !i ? "" : !prose ? "|" :
				  w[i + 1] ? ", " : " or ";

		len += snprintf(buf + len, size - len, "%s%s", sep, w[i]);
	}
	return buf;
}

/* Which of @words @arg is; -1 with @err naming --@o->name. */
static int word_index(const struct opt *o, const char *const *words,
		      const char *arg, struct sf_err *err)
{
	char all[256];

	for (int i = 0; words[i]; i++)
		if (!strcmp(arg, words[i]))
			return i;
	return err_at(err, ERR_INPUT, "", 0, 0, "--%s takes %s, not '%s'",
		      o->name, words_join(all, sizeof(all), words, 1), arg);
}

/* A whole number in o->min..o->max; -1 with @err naming it. */
static int number_set(const struct opt *o, void *field, const char *arg,
		      struct sf_err *err)
{
	char *end;
	long n;

	/* past LONG_MAX, strtol() says LONG_MAX and ERANGE: refused */
	errno = 0;
	n = strtol(arg, &end, 10);
	if (!*arg || *end || errno || n < o->min || n > o->max) {
		if (o->max == LONG_MAX)
			return err_at(err, ERR_INPUT, "", 0, 0,
				      "--%s takes %s, not '%s'",
				      o->name, o->what, arg);
		return err_at(err, ERR_INPUT, "", 0, 0,
			      "--%s takes %s (%ld to %ld), not '%s'",
			      o->name, o->what, o->min, o->max, arg);
	}
	if (o->type == OPT_TYPE_INT)
		*(int *)field = (int)n;
	else
		*(long *)field = n;
	return 0;
}

/* "file" or "directory" when @o's value names one (FILE, DIR), or NULL. */
static const char *names_path(const struct opt *o)
{
	if (!o->argh)
		return NULL;
	return !strcmp(o->argh, "FILE") ? "file" :
	       !strcmp(o->argh, "DIR") ? "directory" : NULL;
}

/* Sets @b's field from @arg. Return: 0, or -1 with @err set. */
static int bound_set(const struct bound *b, const char *arg,
		     struct sf_err *err)
{
	const struct opt *o = b->o;
	int i;

	/* "--junit=" or --markdown "$UNSET": bad usage, never a file "" */
	if (arg && !*arg && names_path(o))
		return err_at(err, ERR_INPUT, "", 0, 0,
			      "--%s names no %s (an empty argument)", o->name,
			      names_path(o));
	switch (o->type) {
	case OPT_TYPE_BOOLEAN:
		*(int *)b->field = 1;
		break;
	case OPT_TYPE_SET_INT:
		*(int *)b->field = (int)o->set;
		break;
	case OPT_TYPE_STRING:
		*(const char **)b->field = arg;
		break;
	case OPT_TYPE_STRDUP:
		free(*(char **)b->field);
		*(char **)b->field = xstrdup(arg);
		break;
	case OPT_TYPE_STRV:
		strv_push(b->field, arg);
		break;
	case OPT_TYPE_INT:
	case OPT_TYPE_LONG:
		return number_set(o, b->field, arg, err);
	case OPT_TYPE_WORD:
		if (word_index(o, o->words, arg, err) < 0)
			return -1;
		*(const char **)b->field = arg;
		break;
	case OPT_TYPE_COLOR:
		i = word_index(o, color_words, arg, err);
		if (i < 0)
			return -1;
		*(int *)b->field = i == 0 ? isatty(STDOUT_FILENO) : i == 1;
		break;
	case OPT_TYPE_END:
	case OPT_TYPE_INCLUDE:
		break;
	}
	return 0;
}

/* The entry -@c names, or NULL ('?': getopt_long() said why). */
static const struct bound *bound_short(const struct bounds *b, int c)
{
	for (size_t i = 0; i < b->n; i++)
		if (b->v[i].o->short_name == c)
			return &b->v[i];
	return NULL;
}

/* The entry --@name names ("boots" or "boots=3"), or NULL. */
static const struct bound *bound_long(const struct bounds *b,
				      const char *name)
{
	size_t len = strcspn(name, "=");

	for (size_t i = 0; i < b->n; i++)
		if (strlen(b->v[i].o->name) == len &&
		    !strncmp(b->v[i].o->name, name, len))
			return &b->v[i];
	return NULL;
}

/* Edits that turn @a into @b (Levenshtein), for names up to 63 bytes. */
static size_t edits(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), row[64], i, j;

	if (la > 63 || lb > 63)
		return SIZE_MAX;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

/*
 * The long options @name may have meant: those it abbreviates (more than
 * one: ambiguous), else the nearest within 2 edits. Return: how many were
 * put in @buf ("--a, --b").
 */
static int guess(const struct bounds *b, const char *name, char *buf,
		 size_t size)
{
	size_t len = strcspn(name, "="), best = 3, used = 0;
	int n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < b->n; i++)
		if (len && !strncmp(b->v[i].o->name, name, len) &&
		    used + strlen(b->v[i].o->name) + 5 < size) {
			used += snprintf(buf + used, size - used, "%s--%s",
					 n++ ? ", " : "", b->v[i].o->name);
		}
	if (n)
		return n;
	for (size_t i = 0; i < b->n; i++) {
		char want[64];
		size_t d;

		snprintf(want, sizeof(want), "%.*s", (int)(len < 63 ? len : 63),
			 name);
		d = edits(want, b->v[i].o->name);
		if (d < best && strlen(b->v[i].o->name) + 3 < size) {
			best = d;
			snprintf(buf, size, "--%s", b->v[i].o->name);
			n = 1;
		}
	}
	return n;
}

/* @opt is of a group the command argv[0] does not take. */
static void refused_say(char **argv, const char *opt, struct sf_err *err)
{
	err_set(err, "sysfarm %s: option '%s' is not taken by '%s' ('sysfarm %s --help' lists them)",
		argv[0], opt, argv[0], argv[0]);
}

/*
 * getopt_long()'s complaint (it prints nothing: opterr is 0) as one line:
 * what was wrong, the options meant, where the rest is.
 */
static void misuse_say(const struct bounds *b, const struct bounds *foreign,
		       char **argv, int c, struct sf_err *err)
{
	const char *arg = argv[optind - 1];
	char shown[80], hint[160], meant[200] = "";
	const struct bound *e = optopt >= OPT_VAL ? &b->v[optopt - OPT_VAL] :
				bound_short(b, optopt);
	int n;

	if (c == ':' && e && optopt < OPT_VAL) {
		err_set(err, "sysfarm %s: -%c needs a value ('sysfarm %s --help')",
			argv[0], optopt, argv[0]);
		return;
	}
	if (e && optopt >= OPT_VAL) {
		err_set(err, "sysfarm %s: --%s %s ('sysfarm %s --help')", argv[0],
			e->o->name, c == ':' ? "needs a value" : "takes no value",
			argv[0]);
		return;
	}
	if (optopt && optopt < OPT_VAL) {
		char opt[3] = { '-', (char)optopt, '\0' };

		if (bound_short(foreign, optopt))
			refused_say(argv, opt, err);
		else
			err_set(err, "sysfarm %s: unknown option %s ('sysfarm %s --help' lists them)",
				argv[0], str_quote(shown, sizeof(shown), opt),
				argv[0]);
		return;
	}
	e = !strncmp(arg, "--", 2) ? bound_long(foreign, arg + 2) : NULL;
	if (e) {
		char opt[80];

		snprintf(opt, sizeof(opt), "--%s", e->o->name);
		refused_say(argv, opt, err);
		return;
	}
	n = !strncmp(arg, "--", 2) ? guess(b, arg + 2, hint, sizeof(hint)) : 0;
	if (n)
		snprintf(meant, sizeof(meant), "%s %s? ",
			 n > 1 ? "one of" : "did you mean", hint);
	err_set(err, "sysfarm %s: %s option %s (%s'sysfarm %s --help' lists them)",
		argv[0], n > 1 ? "ambiguous" : "unknown",
		str_quote(shown, sizeof(shown), arg), meant, argv[0]);
}

int options_parse(int argc, char **argv, const struct opt_cmd *cmd,
		  void *base, const struct opt *common, void *common_base,
		  unsigned int groups, struct sf_err *err)
{
	struct option *longopts;
	struct bounds b, foreign;
	char *shorts, *s;
	int c, ret = OPTIONS_USAGE;

	/*
	 * The common options first: getopt_long() names the candidates of
	 * an ambiguous abbreviation in this order, as it always has.
	 */
	bounds_init(&b, &foreign, common, common_base, cmd->opts, base,
		    groups);
	longopts = xmalloc((b.n + 1) * sizeof(*longopts));
	s = shorts = xmalloc(2 * b.n + 3);
	/* Options end at the first configuration name. */
	if (cmd->nargs == OPT_CONFIGS)
		*s++ = '+';
	/* ':' for a missing value, no message: misuse_say() says it */
	*s++ = ':';
	for (size_t i = 0; i < b.n; i++) {
		const struct opt *o = b.v[i].o;

		longopts[i] = (struct option){
			.name = o->name, .val = OPT_VAL + (int)i,
			.has_arg = takes_value(o) ? required_argument :
						    no_argument,
		};
		if (o->short_name) {
			*s++ = o->short_name;
			if (takes_value(o))
				*s++ = ':';
		}
	}
	memset(&longopts[b.n], 0, sizeof(*longopts));
	*s = '\0';
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, shorts, longopts, NULL)) != -1) {
		const struct bound *e = c >= OPT_VAL ? &b.v[c - OPT_VAL] :
						       bound_short(&b, c);

		if (c == '?' || c == ':') {
			misuse_say(&b, &foreign, argv, c, err);
			goto out;
		}
		if (!e)
			goto out;
		if (e->o == &help_opt) {
			ret = OPTIONS_HELP;
			goto out;
		}
		if (bound_set(e, optarg, err)) {
			ret = OPTIONS_BAD;
			goto out;
		}
	}
	if (cmd->nargs == OPT_CONFIGS || argc - optind == cmd->nargs)
		ret = optind;
	else
		err_set(err, "sysfarm %s: takes %d operand%s, not %d (usage: %s)",
			argv[0], cmd->nargs, cmd->nargs == 1 ? "" : "s",
			argc - optind, cmd->usage);
out:
	free(shorts);
	free(longopts);
	free(foreign.v);
	free(b.v);
	return ret;
}

/* "-j, --jobs N", "--accel tcg|kvm" or "--tap" */
static char *opt_label(char *buf, size_t size, const struct opt *o)
{
	char words[128];
	const char *argh = o->type == OPT_TYPE_WORD ?
		words_join(words, sizeof(words), o->words, 0) : o->argh;
	size_t len = 0;

	if (o->short_name)
		len = snprintf(buf, size, "-%c, ", o->short_name);
	snprintf(buf + len, size - len, "--%s%s%s", o->name,
		 takes_value(o) ? " " : "", takes_value(o) ? argh : "");
	return buf;
}

/* @help from column @col, wrapped at USAGE_COLUMNS, continued at @col. */
static void help_print(FILE *out, const char *help, int col)
{
	int at = col;

	while (*help) {
		int len = (int)strcspn(help, " ");

		if (at > col && at + 1 + len > USAGE_COLUMNS) {
			fprintf(out, "\n%*s", col, "");
			at = col;
		}
		at += fprintf(out, "%s%.*s", at > col ? " " : "", len, help);
		help += len;
		help += strspn(help, " ");
	}
	fputc('\n', out);
}

void options_usage(FILE *out, const struct opt_cmd *cmd,
		   const struct opt *common, unsigned int groups)
{
	struct bounds b;
	char label[160];
	int width = 0;

	bounds_init(&b, NULL, cmd->opts, NULL, common, NULL, groups);
	for (size_t i = 0; i < b.n; i++) {
		int len = (int)strlen(opt_label(label, sizeof(label),
						b.v[i].o));

		if (len > width)
			width = len;
	}
	fprintf(out, "usage: %s\n\n", cmd->usage);
	if (cmd->about)
		fprintf(out, "%s\n", cmd->about);
	for (size_t i = 0; i < b.n; i++) {
		fprintf(out, "  %-*s  ", width,
			opt_label(label, sizeof(label), b.v[i].o));
		help_print(out, b.v[i].o->help, width + 4);
	}
	if (cmd->after)
		fprintf(out, "\n%s", cmd->after);
	free(b.v);
}
