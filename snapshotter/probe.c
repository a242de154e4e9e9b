// SPDX-License-Identifier: GPL-2.0
/* Probe files: actions on sysfs run before the snapshot, and their record. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "attr.h"
#include "probe.h"
#include "text.h"

#define PROBE_BLANKS	" \t"
#define GPIO_PREFIX	"{gpio:"
#define GPIO_OFFSET_MAX	65535

enum probe_field_kind {
	FIELD_PATH,	/* one word, {gpio:LABEL:OFFSET} allowed */
	FIELD_WORD,	/* one word */
	FIELD_OFFSET,	/* one word, decimal 0..GPIO_OFFSET_MAX */
	FIELD_REST,	/* the rest of the line, blanks included */
};

enum probe_slot { SLOT_PATH, SLOT_ARG, SLOT_OFFSET };

struct probe_field {
	enum probe_field_kind kind;
	enum probe_slot slot;
	const char *what;
};

static const struct probe_syntax {
	const char *name;
	struct probe_field field[2];
	unsigned int nr;
} probe_syntax[] = {
	[PROBE_WRITE] = { "write", {
		{ FIELD_PATH, SLOT_PATH, "path" },
		{ FIELD_REST, SLOT_ARG, "value" } }, 2 },
	[PROBE_READ] = { "read", {
		{ FIELD_PATH, SLOT_PATH, "path" } }, 1 },
	[PROBE_EXPORT] = { "export", {
		{ FIELD_WORD, SLOT_ARG, "label" },
		{ FIELD_OFFSET, SLOT_OFFSET, "offset" } }, 2 },
	[PROBE_WAIT] = { "wait", {
		{ FIELD_PATH, SLOT_PATH, "path" },
		{ FIELD_REST, SLOT_ARG, "value" } }, 2 },
	[PROBE_MOUNT] = { "mount", {
		{ FIELD_WORD, SLOT_ARG, "fstype" },
		{ FIELD_PATH, SLOT_PATH, "directory" } }, 2 },
};

/**
 * struct probe_parser - one line being parsed
 * @line: the line, without its newline and trailing blanks
 * @pos: offset of the next byte to look at
 * @err: where to say what is wrong
 */
struct probe_parser {
	const char *line;
	size_t pos;
	struct probe_error *err;
};

static int __attribute__((format(printf, 3, 4)))
parse_error(struct probe_parser *pp, size_t pos, const char *fmt, ...)
{
	va_list ap;

	pp->err->col = pos + 1;
	va_start(ap, fmt);
	vsnprintf(pp->err->msg, sizeof(pp->err->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Length of a "{gpio:LABEL:OFFSET}" at @s, 0 if malformed. */
static size_t gpio_placeholder_len(const char *s, char **label,
				   unsigned int *offset)
{
	const char *p = s + strlen(GPIO_PREFIX), *colon, *end;
	unsigned long v;

	if (strncmp(s, GPIO_PREFIX, strlen(GPIO_PREFIX)))
		return 0;
	colon = p + strcspn(p, ":}");
	if (colon == p || *colon != ':')
		return 0;
	end = colon + 1 + strspn(colon + 1, "0123456789");
	if (end == colon + 1 || *end != '}' || end - colon > 6)
		return 0;
	v = strtoul(colon + 1, NULL, 10);
	if (v > GPIO_OFFSET_MAX)
		return 0;
	if (label) {
		*label = strndup(p, colon - p);
		if (!*label)
			return 0;
	}
	if (offset)
		*offset = v;
	return end + 1 - s;
}

static int parse_field(struct probe_parser *pp, const struct probe_field *f,
		       struct probe *p)
{
	const char *s = pp->line + pp->pos;
	size_t len, i;
	char *word;

	if (!*s)
		return parse_error(pp, pp->pos, "missing %s", f->what);
	len = f->kind == FIELD_REST ? strlen(s) : strcspn(s, PROBE_BLANKS);
	if (f->kind == FIELD_PATH) {
		for (i = 0; i < len; i++) {
			if (s[i] != '{')
				continue;
			if (!gpio_placeholder_len(s + i, NULL, NULL))
				return parse_error(pp, pp->pos + i,
						   "bad placeholder, want '%s'",
						   GPIO_PREFIX "LABEL:OFFSET}");
		}
	}
	if (f->kind == FIELD_OFFSET) {
		unsigned long v;
		char *end;

		errno = 0;
		v = strtoul(s, &end, 10);
		if (s[0] < '0' || s[0] > '9' || end != s + len || errno ||
		    v > GPIO_OFFSET_MAX)
			return parse_error(pp, pp->pos, "bad offset '%.*s'",
					   (int)len, s);
		p->offset = v;
	} else {
		word = strndup(s, len);
		if (!word)
			return -ENOMEM;
		if (f->slot == SLOT_PATH)
			p->path = word;
		else
			p->arg = word;
	}
	pp->pos += len;
	pp->pos += strspn(pp->line + pp->pos, PROBE_BLANKS);
	return 0;
}

static void probe_release(struct probe *p)
{
	free(p->path);
	free(p->arg);
}

/* Parse one line into @p; 1 if it holds no action. */
static int parse_line(struct probe_parser *pp, struct probe *p)
{
	const char *s;
	size_t len, op;
	unsigned int i;
	int ret;

	pp->pos = strspn(pp->line, PROBE_BLANKS);
	s = pp->line + pp->pos;
	if (!*s || *s == '#')
		return 1;
	len = strcspn(s, PROBE_BLANKS);
	for (op = 0; op < sizeof(probe_syntax) / sizeof(*probe_syntax); op++)
		if (strlen(probe_syntax[op].name) == len &&
		    !strncmp(s, probe_syntax[op].name, len))
			break;
	if (op == sizeof(probe_syntax) / sizeof(*probe_syntax))
		return parse_error(pp, pp->pos, "unknown action '%.*s'",
				   (int)len, s);
	*p = (struct probe){ .op = op };
	pp->pos += len;
	pp->pos += strspn(pp->line + pp->pos, PROBE_BLANKS);
	for (i = 0; i < probe_syntax[op].nr; i++) {
		ret = parse_field(pp, &probe_syntax[op].field[i], p);
		if (ret)
			goto out_release;
	}
	if (pp->line[pp->pos]) {
		s = pp->line + pp->pos;
		ret = parse_error(pp, pp->pos, "unexpected '%.*s' after %s",
				  (int)strcspn(s, PROBE_BLANKS), s,
				  probe_syntax[op].name);
		goto out_release;
	}
	return 0;

out_release:
	probe_release(p);
	return ret;
}

static int probe_list_add(struct probe_list *list, const struct probe *p)
{
	if (list->nr == list->alloc) {
		size_t alloc = list->alloc ? 2 * list->alloc : 16;
		struct probe *v = reallocarray(list->v, alloc, sizeof(*v));

		if (!v)
			return -ENOMEM;
		list->v = v;
		list->alloc = alloc;
	}
	list->v[list->nr++] = *p;
	return 0;
}

int probe_list_load(struct probe_list *list, const char *file,
		    struct probe_error *err)
{
	struct probe_parser pp = { .err = err };
	size_t size = 0, bad;
	unsigned int lineno = 0;
	char *line = NULL;
	struct stat st;
	ssize_t len;
	int fd, ret = 0;
	FILE *f;

	/* O_NONBLOCK: the open of a FIFO nobody writes would wait forever */
	fd = open(file, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
		ret = -errno;
		if (!ret) {
			/* a FIFO, /dev/zero (one endless line), a directory */
			err->line = err->col = 0;
			snprintf(err->msg, sizeof(err->msg),
				 "not a regular file (%s)",
				 file_kind(st.st_mode));
			ret = -EINVAL;
		}
		close(fd);
		return ret;
	}
	f = fdopen(fd, "r");
	if (!f) {
		ret = -errno;
		close(fd);
		return ret;
	}
	while ((errno = 0, len = getline(&line, &size, f)) >= 0) {
		struct probe p;

		lineno++;
		err->line = lineno;
		if (len && line[len - 1] == '\n')
			len--;
		bad = utf8_check(line, len);
		if (bad < (size_t)len) {
			ret = parse_error(&pp, bad, line[bad] ?
					  "not UTF-8" : "NUL byte");
			goto out_free;
		}
		while (len && strchr(PROBE_BLANKS "\r", line[len - 1]))
			len--;
		line[len] = '\0';
		pp.line = line;
		ret = parse_line(&pp, &p);
		if (ret < 0)
			goto out_free;
		if (ret == 0) {
			ret = probe_list_add(list, &p);
			if (ret) {
				probe_release(&p);
				goto out_free;
			}
		}
		ret = 0;
	}
	if (errno)
		ret = -errno;
out_free:
	free(line);
	fclose(f);
	return ret;
}

void probe_list_release(struct probe_list *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		probe_release(&list->v[i]);
	free(list->v);
	*list = (struct probe_list)PROBE_LIST_INIT;
}

/* Read a small attribute without its trailing newline. */
static int attr_read_line(int dirfd, const char *name, struct attr_buf *buf)
{
	int ret = attr_read_at(dirfd, name, true, buf);

	if (!ret && buf->len && buf->data[buf->len - 1] == '\n')
		buf->data[--buf->len] = '\0';
	return ret;
}

/*
 * The global number of line @offset of the gpiochip labelled @label: its
 * base plus @offset. -ENODEV if no chip has that label (the lowest base
 * wins if several do), -ERANGE if the chip has fewer lines.
 */
static int gpio_find(const char *sysfs, const char *label,
		     unsigned int offset, unsigned int *gpio)
{
	char *classdir;
	struct dirent *de;
	long best = -1, ngpio = -1;
	int ret = -ENODEV;
	DIR *dir;

	if (asprintf(&classdir, "%s/class/gpio", sysfs) < 0)
		return -ENOMEM;
	dir = opendir(classdir);
	free(classdir);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		struct attr_buf buf = ATTR_BUF_INIT;
		char name[NAME_MAX + 16];
		long base;
		bool match;

		if (strncmp(de->d_name, "gpiochip", strlen("gpiochip")))
			continue;
		snprintf(name, sizeof(name), "%s/label", de->d_name);
		if (attr_read_line(dirfd(dir), name, &buf))
			continue;
		match = !strcmp(buf.data, label);
		attr_buf_release(&buf);
		snprintf(name, sizeof(name), "%s/base", de->d_name);
		if (!match || attr_read_line(dirfd(dir), name, &buf))
			continue;
		base = strtol(buf.data, NULL, 10);
		attr_buf_release(&buf);
		if (best >= 0 && base >= best)
			continue;
		best = base;
		snprintf(name, sizeof(name), "%s/ngpio", de->d_name);
		ngpio = -1;
		if (!attr_read_line(dirfd(dir), name, &buf))
			ngpio = strtol(buf.data, NULL, 10);
		attr_buf_release(&buf);
	}
	closedir(dir);
	if (best >= 0) {
		ret = ngpio >= 0 && offset >= (unsigned long)ngpio ?
			-ERANGE : 0;
		*gpio = best + offset;
	}
	return ret;
}

/*
 * @path with every {gpio:LABEL:OFFSET} replaced by gpioN, below @sysfs
 * unless absolute.
 */
static int probe_path(const char *sysfs, const char *path, char **out)
{
	size_t size = strlen(sysfs) + strlen(path) + 2;
	char *buf = malloc(size), *o;
	const char *s;
	int ret;

	if (!buf)
		return -ENOMEM;
	o = *path == '/' ? buf : stpcpy(stpcpy(buf, sysfs), "/");
	for (s = path; *s;) {
		unsigned int offset, gpio;
		char *label, *bigger;
		size_t n, used;

		n = *s == '{' ? gpio_placeholder_len(s, &label, &offset) : 0;
		if (!n) {
			*o++ = *s++;
			continue;
		}
		ret = gpio_find(sysfs, label, offset, &gpio);
		free(label);
		if (ret)
			goto out_free;
		/* "gpioN" takes at most 14 bytes where >= 10 were */
		used = o - buf;
		size += 16;
		bigger = realloc(buf, size);
		if (!bigger) {
			ret = -ENOMEM;
			goto out_free;
		}
		buf = bigger;
		o = buf + used;
		o += sprintf(o, "gpio%u", gpio);
		s += n;
	}
	*o = '\0';
	*out = buf;
	return 0;

out_free:
	free(buf);
	return ret;
}

/* Bytes written by one write() of @value, or a negative errno. */
static ssize_t attr_write(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = write(fd, value, strlen(value));
	if (n < 0)
		n = -errno;
	if (close(fd) && n >= 0)
		n = -errno;
	return n;
}

/* Record a write's outcome: "ok", the errno name, or a short count. */
static int json_set_written(json_t *rec, ssize_t n, const char *value)
{
	if (n < 0)
		return json_set_errno(rec, "result", n);
	if (json_set_str(rec, "result", "ok"))
		return -ENOMEM;
	if ((size_t)n != strlen(value) &&
	    json_object_set_new(rec, "written", json_integer(n)))
		return -ENOMEM;
	return 0;
}

static int run_write(const struct probe *p, const char *sysfs, json_t *rec)
{
	char *path;
	ssize_t n;
	int ret;

	ret = probe_path(sysfs, p->path, &path);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return json_set_errno(rec, "result", ret);
	n = attr_write(path, p->arg);
	free(path);
	return json_set_written(rec, n, p->arg);
}

static int run_read(const struct probe *p, const char *sysfs, json_t *rec)
{
	struct attr_buf buf = ATTR_BUF_INIT;
	char *path;
	int ret;

	ret = probe_path(sysfs, p->path, &path);
	if (!ret) {
		ret = attr_read_at(AT_FDCWD, path, true, &buf);
		free(path);
	}
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return json_set_errno(rec, "result", ret);
	ret = json_set_str(rec, "result", "ok");
	if (!ret)
		ret = json_set_attr(rec, &buf);
	attr_buf_release(&buf);
	return ret;
}

static int run_export(const struct probe *p, const char *sysfs, json_t *rec)
{
	char *path, number[16];
	unsigned int gpio;
	ssize_t n;
	int ret;

	ret = gpio_find(sysfs, p->arg, p->offset, &gpio);
	if (ret == -ENOMEM)
		return ret;
	if (ret)
		return json_set_errno(rec, "result", ret);
	if (asprintf(&path, "%s/class/gpio/export", sysfs) < 0)
		return -ENOMEM;
	snprintf(number, sizeof(number), "%u", gpio);
	n = attr_write(path, number);
	free(path);
	return json_set_written(rec, n, number);
}

static long long clock_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static int run_wait(const struct probe *p, const char *sysfs, json_t *rec)
{
	const struct timespec step = {
		.tv_nsec = PROBE_WAIT_STEP_MS * 1000000L,
	};
	long long deadline = clock_ms() + PROBE_WAIT_MS;
	struct attr_buf buf = ATTR_BUF_INIT;
	bool match = false;
	int ret;

	for (;;) {
		char *path;

		attr_buf_release(&buf);
		ret = probe_path(sysfs, p->path, &path);
		if (!ret) {
			ret = attr_read_line(AT_FDCWD, path, &buf);
			free(path);
		}
		if (ret == -ENOMEM)
			return ret;
		match = !ret && buf.len == strlen(p->arg) &&
			!memcmp(buf.data, p->arg, buf.len);
		if (match)
			break;
		if (clock_ms() >= deadline)
			break;
		nanosleep(&step, NULL);
	}
	if (ret)
		ret = json_set_errno(rec, "read_error", ret);
	else
		ret = json_set_bytes(rec, "value", "base64", buf.data, buf.len);
	if (!ret)
		ret = match ? json_set_str(rec, "result", "ok") :
			json_set_errno(rec, "result", ETIMEDOUT);
	attr_buf_release(&buf);
	return ret;
}

/* mkdir -p: @path and its missing parents; @path is restored. */
static int mkdir_parents(char *path)
{
	char *slash = path;

	for (;;) {
		slash = strchr(slash + 1, '/');
		if (slash)
			*slash = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int err = errno;

			if (slash)
				*slash = '/';
			return -err;
		}
		if (!slash)
			return 0;
		*slash = '/';
	}
}

static int run_mount(const struct probe *p, const char *sysfs, json_t *rec)
{
	char *path;
	int ret;

	ret = probe_path(sysfs, p->path, &path);
	if (ret == -ENOMEM)
		return ret;
	if (!ret)
		ret = mkdir_parents(path);
	if (!ret && mount(p->arg, path, p->arg, 0, NULL))
		ret = -errno;
	free(path);
	return ret ? json_set_errno(rec, "result", ret) :
		json_set_str(rec, "result", "ok");
}

/* The record of @p before it runs: what it is. */
static json_t *probe_record(const struct probe *p)
{
	const char *op = probe_syntax[p->op].name;

	switch (p->op) {
	case PROBE_WRITE:
	case PROBE_WAIT:
		return json_pack("{s:s, s:s, s:s}", "op", op, "path", p->path,
				 p->op == PROBE_WAIT ? "expect" : "value",
				 p->arg);
	case PROBE_READ:
		return json_pack("{s:s, s:s}", "op", op, "path", p->path);
	case PROBE_EXPORT:
		return json_pack("{s:s, s:s, s:i, s:o}", "op", op,
				 "label", p->arg, "offset", p->offset, "gpio",
				 json_sprintf(GPIO_PREFIX "%s:%u}", p->arg,
					      p->offset));
	case PROBE_MOUNT:
		return json_pack("{s:s, s:s, s:s}", "op", op, "fstype", p->arg,
				 "path", p->path);
	}
	return NULL;
}

json_t *probe_list_run(const struct probe_list *list, const char *sysfs)
{
	static int (*const run[])(const struct probe *, const char *,
				  json_t *) = {
		[PROBE_WRITE] = run_write,
		[PROBE_READ] = run_read,
		[PROBE_EXPORT] = run_export,
		[PROBE_WAIT] = run_wait,
		[PROBE_MOUNT] = run_mount,
	};
	json_t *records = json_array();
	size_t i;

	if (!records)
		return NULL;
	for (i = 0; i < list->nr; i++) {
		json_t *rec = probe_record(&list->v[i]);

		if (json_array_append_new(records, rec) ||
		    run[list->v[i].op](&list->v[i], sysfs, rec)) {
			json_decref(records);
			return NULL;
		}
	}
	return records;
}
