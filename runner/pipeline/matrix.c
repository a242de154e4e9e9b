// SPDX-License-Identifier: GPL-2.0
/* Loads matrix.yaml with libyaml and expands it into configurations. */
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "lib/yamlfile.h"
#include "pipeline/matrix.h"
#include "pipeline/source.h"

enum field_type { F_STR, F_FILE, F_LIST, F_FILES, F_INT, F_MAP };

/*
 * What a string setting may hold, by where it goes: a name into file and
 * job names and make's command line (which expands $(...)), a word into
 * the kernel command line (console=) or a QEMU option, a tree path below
 * the kernel's build directory, a path below the guest's sysfs mount (each
 * item of a list), a kernel log prefix (a line of the guest's
 * /etc/sysfarm/kmsg).
 */
enum field_rule { R_ANY, R_NAME, R_NAME_OR_EMPTY, R_WORD, R_TREE_PATH,
		  R_TARBALL, R_SYSFS_PATH, R_KMSG_PREFIX, R_DEB_VERSION,
		  R_SHA256, R_ARCHIVE, R_ABS_PATH };

struct field {
	const char *key;
	enum field_type type;
	size_t off;			/* into struct settings */
	const struct field *sub;	/* F_MAP: its fields */
	int min, max;			/* F_INT */
	enum field_rule rule;		/* F_STR, F_LIST: what a value may hold */
	const char *what;		/* its name in messages (key) */
};

#define S(member) offsetof(struct settings, member)

static const struct field kernel_fields[] = {
	{ .key = "arch", .type = F_STR, .off = S(kernel_arch),
	  .rule = R_NAME,
	  .what = "kernel.arch" },
	{ .key = "cross_compile", .type = F_STR, .off = S(cross_compile) },
	{ .key = "image", .type = F_STR, .off = S(image),
	  .rule = R_TREE_PATH,
	  .what = "kernel.image" },
	{ .key = "package", .type = F_STR, .off = S(src_package),
	  .rule = R_NAME,
	  .what = "kernel.package" },
	{ .key = "tarball", .type = F_STR, .off = S(src_tarball),
	  .rule = R_TARBALL,
	  .what = "kernel.tarball" },
	{ .key = "series", .type = F_FILE, .off = S(src_series) },
	/* a source fetched from a Debian suite (pipeline/fetch.h) */
	{ .key = "suite", .type = F_STR, .off = S(src_suite),
	  .rule = R_NAME,
	  .what = "kernel.suite" },
	{ .key = "version", .type = F_STR, .off = S(src_version),
	  .rule = R_DEB_VERSION,
	  .what = "kernel.version" },
	{ .key = "sha256", .type = F_STR, .off = S(src_sha256),
	  .rule = R_SHA256,
	  .what = "kernel.sha256" },
	{ .key = "archive", .type = F_STR, .off = S(src_archive),
	  .rule = R_ARCHIVE,
	  .what = "kernel.archive" },
	{ .key = "keyring", .type = F_STR, .off = S(src_keyring),
	  .rule = R_ABS_PATH,
	  .what = "kernel.keyring" },
	{ 0 }
};

static const struct field guest_fields[] = {
	{ .key = "init", .type = F_FILE, .off = S(init) },
	{ .key = "busybox", .type = F_STR, .off = S(busybox) },
	{ .key = "snapshotter", .type = F_STR, .off = S(snapshotter),
	  .rule = R_WORD,
	  .what = "guest.snapshotter" },
	{ 0 }
};

static const struct field qemu_fields[] = {
	{ .key = "binary", .type = F_STR, .off = S(qemu_binary) },
	{ .key = "machine", .type = F_STR, .off = S(qemu_machine),
	  .rule = R_WORD,
	  .what = "qemu.machine" },
	{ .key = "cpu", .type = F_STR, .off = S(qemu_cpu),
	  .rule = R_WORD,
	  .what = "qemu.cpu" },
	{ .key = "console", .type = F_STR, .off = S(qemu_console),
	  .rule = R_WORD,
	  .what = "qemu.console" },
	{ .key = "channel", .type = F_STR, .off = S(qemu_channel),
	  .rule = R_WORD,
	  .what = "qemu.channel" },
	{ .key = "args", .type = F_LIST, .off = S(qemu_args) },
	{ 0 }
};

static const struct field settings_fields[] = {
	{ .key = "tag", .type = F_STR, .off = S(tag),
	  .rule = R_NAME_OR_EMPTY },
	{ .key = "fragments", .type = F_FILES, .off = S(fragments) },
	{ .key = "probes", .type = F_FILES, .off = S(probes) },
	{ .key = "append", .type = F_LIST, .off = S(append) },
	{ .key = "dts", .type = F_FILES, .off = S(dts) },
	{ .key = "kmsg", .type = F_LIST, .off = S(kmsg),
	  .rule = R_KMSG_PREFIX },
	{ .key = "roots", .type = F_LIST, .off = S(roots),
	  .rule = R_SYSFS_PATH },
	{ .key = "timeout", .type = F_INT, .off = S(timeout),
	  .min = 1, .max = 86400 },
	{ .key = "attempts", .type = F_INT, .off = S(attempts),
	  .min = 1, .max = ATTEMPTS_MAX },
	{ .key = "smp", .type = F_INT, .off = S(smp), .min = 1, .max = 64 },
	{ .key = "memory", .type = F_INT, .off = S(memory),
	  .min = 32, .max = 16384 },
	{ .key = "kernel", .type = F_MAP, .sub = kernel_fields },
	{ .key = "guest", .type = F_MAP, .sub = guest_fields },
	{ .key = "qemu", .type = F_MAP, .sub = qemu_fields },
	{ 0 }
};

/* Settings every configuration must end up with, for the error message. */
static const struct {
	const char *name;
	size_t off;
} required[] = {
	{ "kernel.arch", S(kernel_arch) },
	{ "kernel.image", S(image) },
	{ "guest.init", S(init) },
	{ "guest.busybox", S(busybox) },
	{ "guest.snapshotter", S(snapshotter) },
	{ "qemu.binary", S(qemu_binary) },
	{ "qemu.machine", S(qemu_machine) },
	{ "qemu.console", S(qemu_console) },
	{ "qemu.channel", S(qemu_channel) },
};

struct loader {
	struct matrix *m;
	struct yaml_file yf;
	struct sf_err *err;
	size_t copied;		/* see settings_copy() */
};

static int fail_at(struct loader *ld, yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct loader *ld, yaml_node_t *n, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	yaml_file_bad(&ld->yf, n, "%s", what);
	return -1;
}

static yaml_node_t *node(struct loader *ld, int id)
{
	return yaml_document_get_node(&ld->yf.doc, id);
}

static const char *scalar(yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static int expect(struct loader *ld, yaml_node_t *n, yaml_node_type_t t,
		  const char *what)
{
	if (n->type == t)
		return 0;
	return fail_at(ld, n, "%s must be %s, not %s", what,
		       t == YAML_SCALAR_NODE ? "a scalar" :
		       t == YAML_SEQUENCE_NODE ? "a list" : "a mapping",
		       yaml_file_kind(n));
}

static int parse_int(struct loader *ld, yaml_node_t *n, const struct field *f,
		     int *out)
{
	char *end;
	long v;

	if (expect(ld, n, YAML_SCALAR_NODE, f->key))
		return -1;
	errno = 0;
	v = strtol(scalar(n), &end, 10);
	if (errno || end == scalar(n) || *end || v < f->min || v > f->max)
		return fail_at(ld, n, "'%s' must be a whole number from %d to %d, not '%s'",
			       f->key, f->min, f->max, scalar(n));
	*out = (int)v;
	return 0;
}

static int check_file(struct loader *ld, yaml_node_t *s, const struct field *f)
{
	char *p = matrix_file(ld->m, scalar(s));
	struct sf_err why = SF_ERR_INIT;
	char text[ERR_FORMAT_MAX];
	int bad = input_check(p, INPUT_MAX_TEXT, &why);
	int missing = bad && !path_exists(p);

	free(p);
	if (missing)
		return fail_at(ld, s, "'%s' names '%s', which does not exist",
			       f->key, scalar(s));
	/* Read later by kconfig, dtc, the initramfs: refuse what hangs. */
	if (bad)
		return fail_at(ld, s, "'%s' names %s", f->key,
			       err_format(&why, text, sizeof(text)));
	return 0;
}

static int check_rule(struct loader *ld, yaml_node_t *v,
		      const struct field *f);

/*
 * Each configuration's roots are arguments of the guest's snapshotter and
 * keys of its snapshot: a few, each once.
 */
#define ROOTS_MAX 32

static int parse_list(struct loader *ld, yaml_node_t *n, const struct field *f,
		      struct strv *out)
{
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return fail_at(ld, n, "'%s' must be a list of strings, not %s",
			       f->key, yaml_file_kind(n));
	for (it = n->data.sequence.items.start;
	     it < n->data.sequence.items.top; it++) {
		yaml_node_t *s = node(ld, *it);

		if (s->type != YAML_SCALAR_NODE)
			return fail_at(ld, s, "'%s' must be a list of strings, not hold %s",
				       f->key, yaml_file_kind(s));
		if (f->type == F_FILES && check_file(ld, s, f))
			return -1;
		if (check_rule(ld, s, f))
			return -1;
		if (f->rule == R_SYSFS_PATH && strv_has(out, scalar(s)))
			return fail_at(ld, s, "'%s' names '%s' twice", f->key,
				       scalar(s));
		if (f->rule == R_SYSFS_PATH && out->n == ROOTS_MAX)
			return fail_at(ld, s, "'%s' names more than %d paths",
				       f->key, ROOTS_MAX);
		strv_push(out, scalar(s));
	}
	return 0;
}

/*
 * Every name of the matrix ends up in file names (goldens, build/out/),
 * GitHub's matrix and job names, and command lines: one rule for all,
 * under which none can climb out of a directory or mean anything to a
 * shell or a terminal.
 */
#define NAME_CHARS "abcdefghijklmnopqrstuvwxyz0123456789._-"

static const char *name_problem(const char *s, int empty_ok);
#define NAME_LEN_MAX 64
#define CONFIG_NAME_LEN_MAX 128

const char *matrix_name_problem(const char *s)
{
	return name_problem(s, 0);
}

/* Return: NULL when @s is a good name (or "" with @empty_ok), else why. */
static const char *name_problem(const char *s, int empty_ok)
{
	size_t len = strlen(s);

	if (!len)
		return empty_ok ? NULL : "is empty";
	if (len > NAME_LEN_MAX)
		return "is longer than 64 characters";
	if (strspn(s, NAME_CHARS) != len)
		return "may hold only lowercase letters, digits and ._-";
	if (*s == '.' || *s == '_' || *s == '-')
		return "must start with a lowercase letter or a digit";
	return NULL;
}

/* A name or tag scalar: refused at @n with the rule. */
static int check_name(struct loader *ld, yaml_node_t *n, const char *what,
		      int empty_ok)
{
	const char *why = name_problem(scalar(n), empty_ok);
	char shown[80];

	if (!why)
		return 0;
	/* The name itself may hold escapes or newlines: show it quoted. */
	str_quote(shown, sizeof(shown), scalar(n));
	return fail_at(ld, n, "%s %s %s ([a-z0-9][a-z0-9._-]*, at most %d characters)",
		       what, shown, why, NAME_LEN_MAX);
}

/*
 * A source tarball is an absolute path whose file name, less its .tar.*
 * ending, names the source's tree under the build directory.
 */
static int check_tarball(struct loader *ld, yaml_node_t *v, const char *what)
{
	const char *s = scalar(v);
	char *name = source_name(s), shown[80];
	const char *why = NULL;

	if (*s != '/')
		why = "must be an absolute path";
	else if (!name)
		why = "must name a .tar file (.tar, .tar.xz, ...)";
	else if (name_problem(name, 0))
		why = "must be named [a-z0-9][a-z0-9._-]*.tar*, at most 64 characters before .tar";
	free(name);
	if (!why)
		return 0;
	str_quote(shown, sizeof(shown), s);
	return fail_at(ld, v, "'%s' %s, not %s", what, why, shown);
}

#define WORD_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
		   "0123456789_.,:=/+-"

/*
 * A sysfs path goes to the guest as a line of /etc/sysfarm/roots, then as
 * the snapshotter's argument, and comes back as a key of the snapshot and
 * a part of every path a diff or the ABI table names: relative to the
 * sysfs mount, without '.' or '..' (it must not climb out of it) and
 * spelled one way (no empty component), of characters sysfs names use
 * (0-0045, gta04:red:aux, alarmtimer.0.auto) and no shell or terminal
 * reads.
 */
#define SYSFS_PATH_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			 "0123456789_.,:+@/-"
#define SYSFS_PATH_LEN_MAX 255

/* Return: NULL when @s is a good sysfs path, else what is wrong. */
static const char *sysfs_path_problem(const char *s)
{
	size_t len = strlen(s);

	if (!len)
		return "is empty";
	if (len > SYSFS_PATH_LEN_MAX)
		return "is longer than 255 characters";
	if (strspn(s, SYSFS_PATH_CHARS) != len)
		return "may hold only letters, digits, / and _.,:+@-";
	if (*s == '/')
		return "must be relative to the sysfs mount (class/net, not /sys/class/net)";
	if (*s == '-')
		return "must not start with -";
	for (const char *c = s; ; ) {
		size_t clen = strcspn(c, "/");

		if (!clen)
			return "has an empty component (a doubled or trailing /)";
		if ((clen == 1 && c[0] == '.') ||
		    (clen == 2 && c[0] == '.' && c[1] == '.'))
			return "has a '.' or '..' component";
		if (!c[clen])
			break;
		c += clen + 1;
	}
	return NULL;
}

/*
 * Does @s hold a byte /dev/kmsg never shows as it is: a control character
 * (a newline would split its line), DEL or a byte outside ASCII?
 */
static int kmsg_prefix_bad(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < ' ' || (unsigned char)*s >= 0x7f)
			return 1;
	return 0;
}

/*
 * The values of a fetched source reach apt-get's argv and a deb822 file
 * of the farm's own, each on one line: a Debian version without an epoch
 * (which would put a ':' in the paths named after it), a sha256 as
 * sha256sum prints it, an archive's http(s) or file URI of the
 * characters a URI needs.
 */
#define DEB_VERSION_CHARS "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz" \
			  "0123456789.+~-"
#define ARCHIVE_CHARS WORD_CHARS "~%@"
#define FETCH_VALUE_LEN_MAX 255

static const char *fetch_value_problem(const char *s, enum field_rule rule)
{
	size_t len = strlen(s);

	if (!len || len > FETCH_VALUE_LEN_MAX)
		return "must be 1 to 255 characters";
	switch (rule) {
	case R_DEB_VERSION:
		if (strspn(s, DEB_VERSION_CHARS) != len ||
		    !strchr("0123456789", *s))
			return "must be a Debian version without an epoch: a digit, then letters, digits and .+~-";
		return NULL;
	case R_SHA256:
		if (len != 64 || strspn(s, "0123456789abcdef") != len)
			return "must be 64 lowercase hex digits (sha256sum's)";
		return NULL;
	case R_ARCHIVE:
		if (strncmp(s, "http://", 7) && strncmp(s, "https://", 8) &&
		    strncmp(s, "file:/", 6))
			return "must be an http://, https:// or file:/ URI";
		if (strspn(s, ARCHIVE_CHARS) != len)
			return "may hold only letters, digits and _.,:=/+-~%@";
		return NULL;
	default:
		if (*s != '/' || strspn(s, WORD_CHARS) != len)
			return "must be an absolute path of letters, digits and _.,:=/+-";
		return NULL;
	}
}

const char *matrix_version_problem(const char *s)
{
	return fetch_value_problem(s, R_DEB_VERSION);
}

/* @v as @f's rule wants it, or a message at @v. */
static int check_rule(struct loader *ld, yaml_node_t *v,
		      const struct field *f)
{
	const char *s = scalar(v), *what = f->what ? f->what : f->key;
	char shown[80];

	switch (f->rule) {
	case R_ANY:
		return 0;
	case R_NAME:
	case R_NAME_OR_EMPTY:
		return check_name(ld, v, what, f->rule == R_NAME_OR_EMPTY);
	case R_TARBALL:
		return check_tarball(ld, v, what);
	case R_SYSFS_PATH:
		if (!sysfs_path_problem(s))
			return 0;
		str_quote(shown, sizeof(shown), s);
		return fail_at(ld, v, "'%s' path %s %s", what, shown,
			       sysfs_path_problem(s));
	case R_KMSG_PREFIX:
		/*
		 * The guest reads the prefixes a line each; an empty one is
		 * refused by the snapshotter, and /dev/kmsg shows a control
		 * character, DEL and a byte outside ASCII (UTF-8's) as \xNN,
		 * so a prefix holding one matches nothing.
		 */
		if (*s && !kmsg_prefix_bad(s))
			return 0;
		str_quote(shown, sizeof(shown), s);
		return fail_at(ld, v, "'%s' prefix %s %s", what, shown,
			       *s ? "holds a control character or a byte outside ASCII (the kernel log shows one as \\xNN)" :
				    "is empty");
	case R_DEB_VERSION:
	case R_SHA256:
	case R_ARCHIVE:
	case R_ABS_PATH:
		if (!fetch_value_problem(s, f->rule))
			return 0;
		str_quote(shown, sizeof(shown), s);
		return fail_at(ld, v, "'%s' %s, not %s", what,
			       fetch_value_problem(s, f->rule), shown);
	case R_WORD:
	case R_TREE_PATH:
		break;
	}
	str_quote(shown, sizeof(shown), s);
	if (!*s || strspn(s, WORD_CHARS) != strlen(s) || *s == '-')
		return fail_at(ld, v, "'%s' must be one word of letters, digits and _.,:=/+- (not starting with -), not %s",
			       what, shown);
	if (f->rule == R_TREE_PATH &&
	    (*s == '/' || !strcmp(s, "..") || !strncmp(s, "../", 3) ||
	     strstr(s, "/../") ||
	     (strlen(s) >= 3 && !strcmp(s + strlen(s) - 3, "/.."))))
		return fail_at(ld, v, "'%s' must stay inside the kernel's build directory (relative, no '..'), not %s",
			       what, shown);
	return 0;
}

static int parse_fields(struct loader *ld, yaml_node_t *map,
			const struct field *fields, struct settings *s,
			const char *what);

static int parse_field(struct loader *ld, const struct field *f,
		       yaml_node_t *v, struct settings *s)
{
	void *dst = (char *)s + f->off;

	switch (f->type) {
	case F_STR:
	case F_FILE:
		if (expect(ld, v, YAML_SCALAR_NODE, f->key))
			return -1;
		if (f->type == F_FILE && check_file(ld, v, f))
			return -1;
		if (check_rule(ld, v, f))
			return -1;
		free(*(char **)dst);
		*(char **)dst = xstrdup(scalar(v));
		return 0;
	case F_LIST:
	case F_FILES:
		return parse_list(ld, v, f, dst);
	case F_INT:
		return parse_int(ld, v, f, dst);
	case F_MAP:
		return parse_fields(ld, v, f->sub, s, f->key);
	}
	return 0;
}

static const struct field *field_find(const struct field *fields,
				      const char *key)
{
	for (; fields->key; fields++)
		if (!strcmp(fields->key, key))
			return fields;
	return NULL;
}

/* The settings of one mapping, and what messages call it. */
struct fields_walk {
	struct loader *ld;
	const struct field *fields;
	struct settings *s;
	const char *what;
};

static int field_pair(struct yaml_file *yf, const struct yaml_pair *p,
		      void *ctx)
{
	const struct fields_walk *w = ctx;
	const struct field *f = field_find(w->fields, p->key);

	if (!f)
		return fail_at(w->ld, p->k, "unknown key '%s' in %s", p->key,
			       w->what);
	return parse_field(w->ld, f, p->v, w->s);
}

static int parse_fields(struct loader *ld, yaml_node_t *map,
			const struct field *fields, struct settings *s,
			const char *what)
{
	static const struct yaml_map fields_map = { .pair = field_pair };
	struct fields_walk w = { ld, fields, s, what };

	if (expect(ld, map, YAML_MAPPING_NODE, what))
		return -1;
	return yaml_file_map(&ld->yf, map, &fields_map, &w) ? -1 : 0;
}

static void settings_merge(struct settings *dst, const struct settings *src,
			   const struct field *fields)
{
	for (; fields->key; fields++) {
		void *d = (char *)dst + fields->off;
		const void *s = (const char *)src + fields->off;

		switch (fields->type) {
		case F_STR:
		case F_FILE:
			if (*(char *const *)s) {
				free(*(char **)d);
				*(char **)d = xstrdup(*(char *const *)s);
			}
			break;
		case F_LIST:
		case F_FILES:
			strv_extend(d, s);
			break;
		case F_INT:
			if (*(const int *)s)
				*(int *)d = *(const int *)s;
			break;
		case F_MAP:
			settings_merge(dst, src, fields->sub);
			break;
		}
	}
}

/* What merging @src copies: each string, its NUL and its pointer. */
static size_t settings_cost(const struct settings *src,
			    const struct field *fields)
{
	size_t n = 0;

	for (; fields->key; fields++) {
		const void *s = (const char *)src + fields->off;
		const struct strv *sv = s;

		switch (fields->type) {
		case F_STR:
		case F_FILE:
			if (*(char *const *)s)
				n += strlen(*(char *const *)s) + 1 +
				     sizeof(char *);
			break;
		case F_LIST:
		case F_FILES:
			for (size_t i = 0; i < sv->n; i++)
				n += strlen(sv->v[i]) + 1 + sizeof(char *);
			break;
		case F_INT:
			break;
		case F_MAP:
			n += settings_cost(src, fields->sub);
			break;
		}
	}
	return n;
}

/*
 * Every configuration holds its own copy of the defaults, its axis values
 * and the includes that match it: bounded in all, so that a matrix of a
 * few lines (a long list in 'defaults', 1024 configurations) cannot take
 * gigabytes. A real matrix copies a few kilobytes a configuration.
 */
#define SETTINGS_COPIED_MAX (16u << 20)

/* Merges @src into @dst, or refuses at @line:@col past the bound. */
static int settings_copy(struct loader *ld, struct settings *dst,
			 const struct settings *src, int line, int col)
{
	size_t cost = settings_cost(src, settings_fields);

	if (cost > SETTINGS_COPIED_MAX - ld->copied)
		return err_at(ld->err, ERR_INPUT, ld->m->path, line, col,
			      "the configurations' settings come to more than %u MiB (each configuration copies the defaults, its values and its includes)",
			      SETTINGS_COPIED_MAX >> 20);
	ld->copied += cost;
	settings_merge(dst, src, settings_fields);
	return 0;
}

static void settings_release(struct settings *s, const struct field *fields)
{
	for (; fields->key; fields++) {
		void *d = (char *)s + fields->off;

		switch (fields->type) {
		case F_STR:
		case F_FILE:
			free(*(char **)d);
			*(char **)d = NULL;
			break;
		case F_LIST:
		case F_FILES:
			strv_release(d);
			break;
		case F_INT:
			break;
		case F_MAP:
			settings_release(s, fields->sub);
			break;
		}
	}
}

/* The axis whose values are being read. */
struct axis_walk {
	struct loader *ld;
	struct axis *a;
};

static int value_pair(struct yaml_file *yf, const struct yaml_pair *p,
		      void *ctx)
{
	const struct axis_walk *w = ctx;
	struct axis *a = w->a;
	struct axis_value *av;
	char *what;
	int r;

	if (check_name(w->ld, p->k, "value", 0))
		return -1;
	a->values = xrealloc(a->values, (a->nvalues + 1) * sizeof(*a->values));
	av = &a->values[a->nvalues++];
	memset(av, 0, sizeof(*av));
	av->name = xstrdup(p->key);
	av->line = p->k->start_mark.line + 1;
	av->col = p->k->start_mark.column + 1;
	/* An empty value ("absent:") sets nothing. */
	if (p->v->type == YAML_SCALAR_NODE && !*scalar(p->v))
		return 0;
	what = xstrfmt("'%s: %s'", a->name, av->name);
	r = parse_fields(w->ld, p->v, settings_fields, &av->s, what);
	free(what);
	if (r)
		return -1;
	if (!av->s.tag)
		av->s.tag = xstrdup(av->name);
	return 0;
}

static int axis_pair(struct yaml_file *yf, const struct yaml_pair *p,
		     void *ctx)
{
	static const struct yaml_map values_map = { .pair = value_pair };
	struct axis_walk w = { .ld = ctx };
	struct matrix *m = w.ld->m;
	char *what;
	int r;

	if (check_name(w.ld, p->k, "axis name", 0))
		return -1;
	/*
	 * Axis names share include entries with the settings and
	 * `sysfarm list --json` objects with its fields.
	 */
	if (field_find(settings_fields, p->key) ||
	    !strcmp(p->key, "config") || !strcmp(p->key, "key"))
		return fail_at(w.ld, p->k, "axis name '%s' is reserved (a setting, or a field of 'sysfarm list --json')",
			       p->key);
	m->axes = xrealloc(m->axes, (m->naxes + 1) * sizeof(*m->axes));
	w.a = memset(&m->axes[m->naxes++], 0, sizeof(*w.a));
	w.a->name = xstrdup(p->key);
	what = xstrfmt("axis '%s'", w.a->name);
	r = expect(w.ld, p->v, YAML_MAPPING_NODE, what);
	free(what);
	if (r)
		return -1;
	if (p->v->data.mapping.pairs.top == p->v->data.mapping.pairs.start)
		return fail_at(w.ld, p->v, "axis '%s' has no value", w.a->name);
	return yaml_file_map(yf, p->v, &values_map, &w) ? -1 : 0;
}

static int parse_axes(struct loader *ld, yaml_node_t *map)
{
	static const struct yaml_map axes_map = { .pair = axis_pair };

	if (expect(ld, map, YAML_MAPPING_NODE, "'axes'"))
		return -1;
	if (map->data.mapping.pairs.top == map->data.mapping.pairs.start)
		return fail_at(ld, map, "'axes' names no axis");
	return yaml_file_map(&ld->yf, map, &axes_map, ld) ? -1 : 0;
}

static ssize_t axis_find(const struct matrix *m, const char *name)
{
	for (size_t i = 0; i < m->naxes; i++)
		if (!strcmp(m->axes[i].name, name))
			return i;
	return -1;
}

static ssize_t value_find(const struct axis *a, const char *name)
{
	for (size_t i = 0; i < a->nvalues; i++)
		if (!strcmp(a->values[i].name, name))
			return i;
	return -1;
}

/*
 * A include/exclude entry: axis keys pick values (-1: any), the other keys
 * are settings (include only).
 */
struct entry {
	ssize_t *want;
	struct settings s;
	int has_settings;
	yaml_node_t *where;
};

/* The entry being read. */
struct entry_walk {
	struct loader *ld;
	struct entry *e;
	int is_include;
	const char *what;
};

static int entry_pair(struct yaml_file *yf, const struct yaml_pair *p,
		      void *ctx)
{
	const struct entry_walk *w = ctx;
	struct matrix *m = w->ld->m;
	ssize_t ax = axis_find(m, p->key), val;
	const struct field *f;

	if (ax >= 0) {
		if (expect(w->ld, p->v, YAML_SCALAR_NODE, p->key))
			return -1;
		val = value_find(&m->axes[ax], scalar(p->v));
		if (val < 0)
			return fail_at(w->ld, p->v, "unknown value '%s' for axis '%s'",
				       scalar(p->v), p->key);
		w->e->want[ax] = val;
		return 0;
	}
	f = w->is_include ? field_find(settings_fields, p->key) : NULL;
	if (!f || !strcmp(f->key, "tag"))
		return fail_at(w->ld, p->k, "unknown key '%s' in %s (not an axis%s)",
			       p->key, w->what,
			       w->is_include ? " or a setting" : "");
	if (parse_field(w->ld, f, p->v, &w->e->s))
		return -1;
	w->e->has_settings = 1;
	return 0;
}

static int parse_entry(struct loader *ld, yaml_node_t *map, int is_include,
		       struct entry *e)
{
	static const struct yaml_map entry_map = { .pair = entry_pair };
	struct entry_walk w = {
		.ld = ld, .e = e, .is_include = is_include,
		.what = is_include ? "an 'include' entry" :
				     "an 'exclude' entry",
	};
	struct matrix *m = ld->m;

	if (expect(ld, map, YAML_MAPPING_NODE, w.what))
		return -1;
	e->where = map;
	e->want = xmalloc(m->naxes * sizeof(*e->want));
	for (size_t i = 0; i < m->naxes; i++)
		e->want[i] = -1;
	return yaml_file_map(&ld->yf, map, &entry_map, &w) ? -1 : 0;
}

static int entry_matches(const struct matrix *m, const struct entry *e,
			 const size_t *value)
{
	for (size_t i = 0; i < m->naxes; i++)
		if (e->want[i] >= 0 && (size_t)e->want[i] != value[i])
			return 0;
	return 1;
}

static void config_add(struct matrix *m, const size_t *value)
{
	struct config *c;

	m->configs = xrealloc(m->configs,
			      (m->nconfigs + 1) * sizeof(*m->configs));
	c = &m->configs[m->nconfigs++];
	memset(c, 0, sizeof(*c));
	c->value = xmalloc(m->naxes * sizeof(*c->value));
	memcpy(c->value, value, m->naxes * sizeof(*c->value));
}

static void config_remove(struct matrix *m, size_t i)
{
	free(m->configs[i].value);
	memmove(&m->configs[i], &m->configs[i + 1],
		(m->nconfigs - i - 1) * sizeof(*m->configs));
	m->nconfigs--;
}

/*
 * Every configuration is booted, so a few hundred is already a lot; the
 * bound keeps twenty lines of axes from expanding to millions, which would
 * take hours before any error.
 */
#define COMBINATIONS_MAX 1024

static int check_product(struct loader *ld, yaml_node_t *axes)
{
	size_t n = 1;

	for (size_t i = 0; i < ld->m->naxes; i++) {
		n *= ld->m->axes[i].nvalues;
		if (n > COMBINATIONS_MAX)
			return fail_at(ld, axes, "the axes make more than %d combinations",
				       COMBINATIONS_MAX);
	}
	return 0;
}

/* The full product of the axes, first axis outermost. */
static void expand(struct matrix *m)
{
	size_t *value = xmalloc(m->naxes * sizeof(*value));

	for (;;) {
		ssize_t i;

		config_add(m, value);
		for (i = m->naxes - 1; i >= 0; i--) {
			if (++value[i] < m->axes[i].nvalues)
				break;
			value[i] = 0;
		}
		if (i < 0)
			break;
	}
	free(value);
}

static int parse_entries(struct loader *ld, yaml_node_t *seq, int is_include,
			 struct entry **out, size_t *n)
{
	yaml_node_item_t *it;

	if (expect(ld, seq, YAML_SEQUENCE_NODE,
		   is_include ? "'include'" : "'exclude'"))
		return -1;
	for (it = seq->data.sequence.items.start;
	     it < seq->data.sequence.items.top; it++) {
		*out = xrealloc(*out, (*n + 1) * sizeof(**out));
		memset(&(*out)[*n], 0, sizeof(**out));
		if (parse_entry(ld, node(ld, *it), is_include, &(*out)[(*n)++]))
			return -1;
	}
	return 0;
}

/* GitHub's rules: exclude first, then each include extends or adds. */
static int apply_entries(struct loader *ld, struct entry *exc, size_t nexc,
			 struct entry *inc, size_t ninc)
{
	struct matrix *m = ld->m;

	for (size_t e = 0; e < nexc; e++) {
		int hit = 0;

		for (size_t i = 0; i < m->nconfigs; ) {
			if (entry_matches(m, &exc[e], m->configs[i].value)) {
				config_remove(m, i);
				hit = 1;
			} else {
				i++;
			}
		}
		if (!hit)
			return fail_at(ld, exc[e].where,
				       "this 'exclude' entry matches no configuration");
	}
	for (size_t e = 0; e < ninc; e++) {
		int hit = 0, complete = 1;

		for (size_t i = 0; i < m->naxes; i++)
			complete &= inc[e].want[i] >= 0;
		const yaml_mark_t *at = &inc[e].where->start_mark;

		for (size_t i = 0; i < m->nconfigs; i++) {
			if (!entry_matches(m, &inc[e], m->configs[i].value))
				continue;
			if (settings_copy(ld, &m->configs[i].s, &inc[e].s,
					  at->line + 1, at->column + 1))
				return -1;
			hit = 1;
		}
		if (hit)
			continue;
		if (!complete)
			return fail_at(ld, inc[e].where,
				       "this 'include' entry matches no configuration and does not name a value for every axis");
		config_add(m, (size_t *)inc[e].want);
		if (settings_copy(ld, &m->configs[m->nconfigs - 1].s,
				  &inc[e].s, at->line + 1, at->column + 1))
			return -1;
	}
	return 0;
}

static void entries_free(struct entry *e, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(e[i].want);
		settings_release(&e[i].s, settings_fields);
	}
	free(e);
}

/*
 * Each list of roots was checked where it stands; what the defaults, the
 * axis values and the includes append must hold each path once too.
 */
static int check_roots(struct loader *ld, const struct config *c,
		       const struct axis_value *last)
{
	const struct strv *r = &c->s.roots;

	if (r->n > ROOTS_MAX)
		return err_at(ld->err, ERR_INPUT, ld->m->path, last->line,
			      last->col, "configuration '%s' has %zu roots, more than %d",
			      c->name, r->n, ROOTS_MAX);
	for (size_t i = 1; i < r->n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(r->v[i], r->v[j]))
				return err_at(ld->err, ERR_INPUT, ld->m->path,
					      last->line, last->col,
					      "configuration '%s' names root '%s' twice",
					      c->name, r->v[i]);
	return 0;
}

/*
 * A fetched source (kernel.suite) names its package, and its tarball is
 * the .deb's: kernel.tarball beside it would say otherwise. The pins
 * and the archive mean nothing without a suite.
 */
static int check_fetch(struct loader *ld, const struct config *c,
		       const struct axis_value *last)
{
	const struct settings *s = &c->s;
	const char *why = NULL;

	/* Shown at the last axis value that names a source */
	for (size_t a = ld->m->naxes; a-- > 0; ) {
		const struct axis_value *av =
			&ld->m->axes[a].values[c->value[a]];

		if (av->s.src_suite || av->s.src_tarball ||
		    av->s.src_version) {
			last = av;
			break;
		}
	}

	if (s->src_suite && s->src_tarball)
		why = "names both kernel.tarball and kernel.suite (a fetched source's tarball is its .deb's)";
	else if (s->src_suite && !s->src_package)
		why = "names kernel.suite but no kernel.package to fetch from it";
	else if (!s->src_suite && (s->src_version || s->src_sha256 ||
				   s->src_archive || s->src_keyring))
		why = "pins kernel.version, sha256, archive or keyring without kernel.suite (an installed package is as installed)";
	if (!why)
		return 0;
	return err_at(ld->err, ERR_INPUT, ld->m->path, last->line, last->col,
		      "configuration '%s' %s", c->name, why);
}

/*
 * Settings in order: defaults, then each axis value; includes were merged
 * already and come last, so they are merged in front here.
 */
static int finish_configs(struct loader *ld)
{
	struct matrix *m = ld->m;

	for (size_t i = 0; i < m->nconfigs; i++) {
		struct config *c = &m->configs[i];
		struct settings s = { 0 };
		struct axis_value *last = &m->axes[m->naxes - 1].values[
						c->value[m->naxes - 1]];
		char *name = xstrdup("");
		int bad = settings_copy(ld, &s, &m->defaults, last->line,
					last->col);

		for (size_t a = 0; a < m->naxes && !bad; a++) {
			struct axis_value *av = &m->axes[a].values[c->value[a]];
			const char *tag = av->s.tag ? av->s.tag : av->name;

			bad = settings_copy(ld, &s, &av->s, last->line,
					    last->col);
			if (*tag) {
				char *n = xstrfmt("%s%s%s", name,
						  *name ? "-" : "", tag);

				free(name);
				name = n;
			}
		}
		settings_merge(&s, &c->s, settings_fields);
		settings_release(&c->s, settings_fields);
		c->s = s;
		c->name = name;
		if (bad)
			return -1;
		if (!*name)
			return err_at(ld->err, ERR_INPUT, m->path, last->line,
				      last->col, "a configuration has an empty name (every tag of its values is \"\")");
		if (strlen(name) > CONFIG_NAME_LEN_MAX)
			return err_at(ld->err, ERR_INPUT, m->path, last->line,
				      last->col, "configuration name '%.40s...' is longer than %d characters",
				      name, CONFIG_NAME_LEN_MAX);
		for (size_t j = 0; j < i; j++)
			if (!strcmp(m->configs[j].name, name))
				return err_at(ld->err, ERR_INPUT, m->path,
					      last->line, last->col,
					      "duplicate configuration name '%s' (give the axis values distinct tags)",
					      name);
		for (size_t r = 0; r < ARRAY_SIZE(required); r++)
			if (!*(char **)((char *)&c->s + required[r].off))
				return err_at(ld->err, ERR_INPUT, m->path,
					      last->line, last->col,
					      "configuration '%s' sets no %s",
					      name, required[r].name);
		if (!c->s.timeout)
			return err_at(ld->err, ERR_INPUT, m->path, last->line,
				      last->col, "configuration '%s' sets no timeout",
				      name);
		if (check_roots(ld, c, last))
			return -1;
		if (check_fetch(ld, c, last))
			return -1;
	}
	return 0;
}

/* The top level: 'defaults' is read at once, the others in turn after. */
struct root_walk {
	struct loader *ld;
	yaml_node_t *part[4];
};

enum { ROOT_DEFAULTS, ROOT_AXES, ROOT_INCLUDE, ROOT_EXCLUDE };

static int root_pair(struct yaml_file *yf, const struct yaml_pair *p,
		     void *ctx)
{
	struct root_walk *w = ctx;

	if (p->index == ROOT_DEFAULTS)
		return parse_fields(w->ld, p->v, settings_fields,
				    &w->ld->m->defaults, "'defaults'");
	w->part[p->index] = p->v;
	return 0;
}

static int load_root(struct loader *ld, yaml_node_t *root)
{
	static const char *const root_keys[] = {
		[ROOT_DEFAULTS] = "defaults", [ROOT_AXES] = "axes",
		[ROOT_INCLUDE] = "include", [ROOT_EXCLUDE] = "exclude", NULL
	};
	static const struct yaml_map root_map = {
		.keys = root_keys,
		.unknown = "unknown key '%s' at the top level (defaults, axes, include, exclude)",
		.pair = root_pair,
	};
	struct root_walk w = { .ld = ld };
	struct entry *inc = NULL, *exc = NULL;
	struct matrix *m = ld->m;
	size_t ninc = 0, nexc = 0;
	int ret = -1;

	if (expect(ld, root, YAML_MAPPING_NODE, "the top level") ||
	    yaml_file_map(&ld->yf, root, &root_map, &w))
		return -1;
	if (!w.part[ROOT_AXES])
		return fail_at(ld, root, "no 'axes'");
	if (parse_axes(ld, w.part[ROOT_AXES]) ||
	    check_product(ld, w.part[ROOT_AXES]))
		return -1;
	expand(m);
	if (w.part[ROOT_EXCLUDE] &&
	    parse_entries(ld, w.part[ROOT_EXCLUDE], 0, &exc, &nexc))
		goto out;
	if (w.part[ROOT_INCLUDE] &&
	    parse_entries(ld, w.part[ROOT_INCLUDE], 1, &inc, &ninc))
		goto out;
	if (apply_entries(ld, exc, nexc, inc, ninc))
		goto out;
	if (!m->nconfigs) {
		fail_at(ld, root, "the matrix has no configuration left");
		goto out;
	}
	ret = finish_configs(ld);
out:
	entries_free(inc, ninc);
	entries_free(exc, nexc);
	return ret;
}

static int parse_root(struct yaml_file *yf, yaml_node_t *root, void *ctx)
{
	if (!root) {
		err_at(yf->err, ERR_INPUT, yf->path, 1, 1, "empty file");
		return -2;
	}
	return load_root(ctx, root);
}

int matrix_load(struct matrix *m, const char *path, struct sf_err *err)
{
	struct loader ld = { .m = m, .err = err,
			     .yf = { .path = path, .err = err } };
	char *slash, *dir;

	m->path = xstrdup(path);
	/* Said of the file itself: missing, a directory, a FIFO ... */
	if (input_check(path, INPUT_MAX_YAML, err))
		return -1;
	dir = xstrdup(path);
	slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = '\0';	/* /matrix.yaml: the root */
	else if (slash)
		*slash = '\0';
	else
		strcpy(dir, ".");
	/* Absolute, so that files named in the matrix work from anywhere. */
	m->dir = realpath(dir, NULL);
	free(dir);
	if (!m->dir)
		return err_at(err, ERR_UNTESTABLE, path, 0, 0,
			      "cannot resolve its directory: %s",
			      strerror(errno));
	return yaml_file_load(&ld.yf, parse_root, &ld) ? -1 : 0;
}

/*
 * Does @c match one condition of a selector: AXIS=VALUE, or a name (a
 * glob)? Return: 1, 0, or -1 with @err set (no such axis).
 */
static int select_cond(const struct matrix *m, const struct config *c,
		       const char *whole, const char *cond, size_t len,
		       struct sf_err *err)
{
	char *text = xstrfmt("%.*s", (int)len, cond), *eq = strchr(text, '=');
	char shown[80];
	int ret = 0;
	size_t a;

	if (!*text || eq == text || (eq && !eq[1])) {
		ret = err_set(err, "an empty name, axis or value in %s (NAME, a glob, or AXIS=VALUE[,AXIS=VALUE])",
			      str_quote(shown, sizeof(shown), whole));
		goto out;
	}
	if (!eq) {
		ret = !fnmatch(text, c->name, 0);
		goto out;
	}
	*eq = '\0';
	for (a = 0; a < m->naxes && strcmp(m->axes[a].name, text); a++)
		;
	if (a == m->naxes) {
		char *list = xstrdup(""), *more;

		for (a = 0; a < m->naxes; a++) {
			more = xstrfmt("%s%s%s", list, a ? ", " : "",
				       m->axes[a].name);
			free(list);
			list = more;
		}
		ret = err_set(err, "no axis %s in %s (axes: %s)",
			      str_quote(shown, sizeof(shown), text), m->path,
			      list);
		free(list);
		goto out;
	}
	ret = !fnmatch(eq + 1, m->axes[a].values[c->value[a]].name, 0);
out:
	free(text);
	return ret;
}

/*
 * Does @c match @sel, its conditions joined by commas (all must)? Each is
 * looked at, so that a bad one is said whatever the others match.
 */
static int select_match(const struct matrix *m, const struct config *c,
			const char *sel, struct sf_err *err)
{
	const char *whole = sel;
	int all = 1;

	for (;;) {
		size_t len = strcspn(sel, ",");
		int ret = select_cond(m, c, whole, sel, len, err);

		if (ret < 0)
			return ret;
		all &= ret;
		if (!sel[len])
			return all;
		sel += len + 1;
	}
}

int matrix_select(const struct matrix *m, char *const *names, int n,
		  size_t **sel, struct sf_err *err)
{
	size_t count = 0;

	*sel = xmalloc((m->nconfigs + 1) * sizeof(**sel));
	for (int a = 0; a < n; a++) {
		size_t matched = 0, j;

		for (size_t i = 0; i < m->nconfigs; i++) {
			int ret = select_match(m, &m->configs[i], names[a],
					       err);

			if (ret < 0)
				return -1;
			if (!ret)
				continue;
			matched++;
			/* Named twice is meant once: it boots once. */
			for (j = 0; j < count && (*sel)[j] != i; j++)
				;
			if (j == count)
				(*sel)[count++] = i;
		}
		if (!matched) {
			char shown[80];

			return err_set(err, "no configuration matches %s (%s)",
				       str_quote(shown, sizeof(shown),
						 names[a]),
				       names[a][0] == '-' ?
				       "options go before the configurations" :
				       "see 'sysfarm list'; NAME, a glob such as 'x86_64-*', or AXIS=VALUE[,AXIS=VALUE]");
		}
	}
	if (!n)
		for (size_t i = 0; i < m->nconfigs; i++)
			(*sel)[count++] = i;
	return count;
}

char *matrix_file(const struct matrix *m, const char *rel)
{
	if (rel[0] == '/')
		return xstrdup(rel);
	return xstrfmt("%s/%s", m->dir, rel);
}

void matrix_release(struct matrix *m)
{
	for (size_t i = 0; i < m->naxes; i++) {
		for (size_t j = 0; j < m->axes[i].nvalues; j++) {
			free(m->axes[i].values[j].name);
			settings_release(&m->axes[i].values[j].s,
					 settings_fields);
		}
		free(m->axes[i].values);
		free(m->axes[i].name);
	}
	free(m->axes);
	for (size_t i = 0; i < m->nconfigs; i++) {
		free(m->configs[i].name);
		free(m->configs[i].value);
		settings_release(&m->configs[i].s, settings_fields);
	}
	free(m->configs);
	settings_release(&m->defaults, settings_fields);
	free(m->path);
	free(m->dir);
	memset(m, 0, sizeof(*m));
}
