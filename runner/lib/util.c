// SPDX-License-Identifier: GPL-2.0
/* Small helpers shared by the runner: errors, memory, strings, files. */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/util.h"
#include "snapshotter/text.h"

static int err_vset(struct sf_err *e, enum err_kind kind, const char *file,
		    int line, int col, const char *fmt, va_list ap)
{
	int saved = errno;

	if (e->kind == ERR_NONE) {
		e->kind = kind;
		e->line = line;
		e->col = col;
		e->context[0] = '\0';
		snprintf(e->file, sizeof(e->file), "%s", file ? file : "");
		vsnprintf(e->text, sizeof(e->text), fmt, ap);
	}
	errno = saved;
	return -1;
}

int err_set(struct sf_err *e, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, ERR_UNTESTABLE, "", 0, 0, fmt, ap);
	va_end(ap);
	return -1;
}

int err_at(struct sf_err *e, enum err_kind kind, const char *file, int line,
	   int col, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	err_vset(e, kind, file, line, col, fmt, ap);
	va_end(ap);
	return -1;
}

int err_context(struct sf_err *e, const char *fmt, ...)
{
	char old[sizeof(e->context)];
	int saved = errno;
	va_list ap;
	size_t n;

	if (e->kind == ERR_NONE)
		return -1;
	memcpy(old, e->context, sizeof(old));
	va_start(ap, fmt);
	vsnprintf(e->context, sizeof(e->context), fmt, ap);
	va_end(ap);
	n = strlen(e->context);
	snprintf(e->context + n, sizeof(e->context) - n, "%s", old);
	errno = saved;
	return -1;
}

void err_clear(struct sf_err *e)
{
	*e = (struct sf_err)SF_ERR_INIT;
}

char *err_format(const struct sf_err *e, char *buf, size_t size)
{
	if (e->kind == ERR_NONE)
		snprintf(buf, size, "%s", "");
	else if (!*e->file)
		snprintf(buf, size, "%s%s", e->context, e->text);
	else if (!e->line)
		snprintf(buf, size, "%s%s: %s", e->context, e->file, e->text);
	else
		snprintf(buf, size, "%s%s:%d:%d: %s", e->context, e->file,
			 e->line, e->col, e->text);
	return buf;
}

char *str_quote(char *buf, size_t size, const char *s)
{
	size_t n = 0;

	buf[n++] = '\'';
	for (; *s; s++) {
		unsigned char c = *s;
		char esc[8];

		if (c == '\n')
			strcpy(esc, "\\n");
		else if (c == '\t')
			strcpy(esc, "\\t");
		else if (c == '\'' || c == '\\')
			snprintf(esc, sizeof(esc), "\\%c", c);
		else if (c < 0x20 || c > 0x7e)
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		else
			snprintf(esc, sizeof(esc), "%c", c);
		if (n + strlen(esc) + 5 > size) {
			strcpy(buf + n, "...");
			n += 3;
			break;
		}
		strcpy(buf + n, esc);
		n += strlen(esc);
	}
	buf[n++] = '\'';
	buf[n] = '\0';
	return buf;
}

static const struct sf_sink *sink;

void sink_install(const struct sf_sink *s)
{
	sink = s;
}

void sink_error(const struct sf_err *e)
{
	if (sink && sink->error)
		sink->error(e);
}

int sink_live(double seconds, const char *text)
{
	if (!sink || !sink->live)
		return -1;
	sink->live(seconds, text);
	return 0;
}

void sink_progress(double seconds, const char *who, const char *fmt, ...)
{
	va_list ap;
	char *text;
	int n;

	if (!sink || !sink->progress)
		return;
	va_start(ap, fmt);
	n = vasprintf(&text, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	sink->progress(seconds, who, text);
	free(text);
}

static void oom(void)
{
	struct sf_err e = SF_ERR_INIT;

	err_set(&e, "out of memory");
	sink_error(&e);
	exit(125);
}

void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		oom();
	return p;
}

FILE *xmemstream(char **text, size_t *len)
{
	FILE *f = open_memstream(text, len);

	if (!f)
		oom();
	return f;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom();
	return d;
}

static char *xvstrfmt(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		oom();
	return s;
}

char *xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = xvstrfmt(fmt, ap);
	va_end(ap);
	return s;
}

static void strv_push_owned(struct strv *sv, char *s)
{
	sv->v = xrealloc(sv->v, (sv->n + 2) * sizeof(*sv->v));
	sv->v[sv->n++] = s;
	sv->v[sv->n] = NULL;
}

void strv_push(struct strv *sv, const char *s)
{
	strv_push_owned(sv, xstrdup(s));
}

void strv_pushf(struct strv *sv, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strv_push_owned(sv, xvstrfmt(fmt, ap));
	va_end(ap);
}

void strv_extend(struct strv *sv, const struct strv *from)
{
	for (size_t i = 0; i < from->n; i++)
		strv_push(sv, from->v[i]);
}

int strv_has(const struct strv *sv, const char *s)
{
	for (size_t i = 0; sv && i < sv->n; i++)
		if (!strcmp(sv->v[i], s))
			return 1;
	return 0;
}

const char *const *strv_argv(struct strv *sv)
{
	static const char *const empty[] = { NULL };

	return sv->v ? (const char *const *)sv->v : empty;
}

void strv_release(struct strv *sv)
{
	for (size_t i = 0; i < sv->n; i++)
		free(sv->v[i]);
	free(sv->v);
	sv->v = NULL;
	sv->n = 0;
}

/*
 * All of @fd, NUL-terminated, growing the buffer to at most @max + 2
 * bytes: NULL with errno set, EFBIG when there is more than @max.
 */
static char *fd_read_all(int fd, size_t max, size_t *len)
{
	size_t cap = max + 2 < 4096 ? max + 2 : 4096, n = 0;
	char *buf = xmalloc(cap);
	int saved;

	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			cap = cap <= (max + 2) / 2 ? cap * 2 : max + 2;
			buf = xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			goto out_free;
		if (r == 0)
			break;
		n += r;
		if (n > max) {
			errno = EFBIG;
			goto out_free;
		}
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;

out_free:
	saved = errno;
	free(buf);
	errno = saved;
	return NULL;
}

char *file_read(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	char *buf;

	if (fd < 0)
		return NULL;
	buf = fd_read_all(fd, SIZE_MAX / 2, len);
	saved = errno;
	close(fd);
	errno = saved;
	return buf;
}

/* Return: 0 when @st is an input of at most @max bytes, else 1 (bad). */
static int input_stat_bad(const char *path, const struct stat *st,
			  size_t max, struct sf_err *err)
{
	if (!S_ISREG(st->st_mode)) {
		err_at(err, ERR_INPUT, path, 0, 0, "not a regular file (%s)",
		       file_kind(st->st_mode));
		return 1;
	}
	if ((unsigned long long)st->st_size > max) {
		err_at(err, ERR_INPUT, path, 0, 0, "larger than %zu MiB",
		       max >> 20);
		return 1;
	}
	return 0;
}

int input_status(const struct sf_err *e)
{
	return e->kind == ERR_INPUT ? INPUT_EBAD : INPUT_EIO;
}

int input_check(const char *path, size_t max, struct sf_err *err)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return err_at(err, ERR_UNTESTABLE, path, 0, 0,
			      "cannot read: %s", strerror(errno));
	return input_stat_bad(path, &st, max, err) ? -1 : 0;
}

int input_open(const char *path, size_t max, struct sf_err *err)
{
	struct stat st;
	int fd;

	if (!*path)
		return err_at(err, ERR_UNTESTABLE, "''", 0, 0,
			      "cannot read: an empty file name");
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
	if (fd < 0)
		return err_at(err, ERR_UNTESTABLE, path, 0, 0,
			      "cannot read: %s", strerror(errno));
	if (fstat(fd, &st) < 0) {
		err_at(err, ERR_UNTESTABLE, path, 0, 0, "cannot read: %s",
		       strerror(errno));
		close(fd);
		return -1;
	}
	if (input_stat_bad(path, &st, max, err)) {
		close(fd);
		return -1;
	}
	return fd;
}

char *input_read(const char *path, size_t max, size_t *len,
		 struct sf_err *err)
{
	int fd = input_open(path, max, err);
	char *buf;

	if (fd < 0)
		return NULL;
	/* Sizes can lie (procfs says 0) or grow: read at most @max + 1. */
	buf = fd_read_all(fd, max, len);
	if (!buf && errno == EFBIG)
		err_at(err, ERR_INPUT, path, 0, 0, "larger than %zu MiB",
		       max >> 20);
	else if (!buf)
		err_at(err, ERR_UNTESTABLE, path, 0, 0, "cannot read: %s",
		       strerror(errno));
	close(fd);
	return buf;
}

/* The temporary file being written, for file_write_atomic_abort(). */
static char *volatile pending_tmp;

void file_write_atomic_abort(void)
{
	char *tmp = pending_tmp;

	if (tmp)
		unlink(tmp);
}

int file_write_atomic(const char *path, const void *buf, size_t len)
{
	char *tmp = xstrfmt("%s.tmp.XXXXXX", path);
	const char *p = buf;
	int fd, saved;

	/*
	 * A name nobody has (mkostemp: O_EXCL), so never through a file or
	 * link that is there; the mode a golden has (mkostemp's is 0600).
	 */
	pending_tmp = tmp;
	fd = mkostemp(tmp, O_CLOEXEC);
	if (fd < 0)
		goto out_free;
	if (fchmod(fd, 0644) < 0)
		goto out_unlink;
	while (len) {
		ssize_t r = write(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			goto out_unlink;
		}
		p += r;
		len -= r;
	}
	if (fsync(fd) < 0 || close(fd) < 0) {
		fd = -1;
		goto out_unlink;
	}
	fd = -1;
	if (rename(tmp, path) < 0)
		goto out_unlink;
	pending_tmp = NULL;
	free(tmp);
	return 0;

out_unlink:
	saved = errno;
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	errno = saved;
out_free:
	saved = errno;
	pending_tmp = NULL;
	free(tmp);
	errno = saved;
	return -1;
}

/* Replaces @path with its old content and @len bytes of @text. */
static int file_append_atomic(const char *path, const char *text, size_t len)
{
	size_t old_len = 0;
	char *old = file_read(path, &old_len), *all;
	int ret;

	if (!old && errno != ENOENT)
		return -1;
	all = xmalloc(old_len + len);
	memcpy(all, old ? old : "", old_len);
	memcpy(all + old_len, text, len);
	ret = file_write_atomic(path, all, old_len + len);
	free(all);
	free(old);
	return ret;
}

/*
 * Renaming over anything but a regular file would replace it: a device
 * node (/dev/full, as root), a FIFO, the link /dev/stdout.
 */
int file_put(const char *path, const char *text, size_t len, int append)
{
	struct stat st;
	FILE *f;
	int ret;

	if (lstat(path, &st) ? errno == ENOENT : S_ISREG(st.st_mode))
		return append ? file_append_atomic(path, text, len) :
				file_write_atomic(path, text, len);
	f = fopen(path, append ? "a" : "w");
	if (!f)
		return -1;
	ret = fwrite(text, 1, len, f) == len ? 0 : -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

int file_update(const char *path, const void *buf, size_t len)
{
	struct stat st;
	size_t have_len;
	char *have;
	int same;

	/* only a regular file of that size can hold it: nothing else read */
	if (lstat(path, &st) || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size != len)
		return file_write_atomic(path, buf, len);
	have = file_read(path, &have_len);
	same = have && have_len == len && !memcmp(have, buf, len);
	free(have);
	return same ? 1 : file_write_atomic(path, buf, len);
}

int path_exists(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0;
}

int path_inside(const char *real, const char *root)
{
	size_t n = strcmp(root, "/") ? strlen(root) : 0;

	return !strncmp(real, root, n) && real[n] == '/';
}

char *path_relative(const char *base, const char *from, const char *path)
{
	size_t n = strlen(base), common = n, up = 0;
	char *rel;

	if (strncmp(path, base, n) || path[n] != '/' ||
	    strncmp(from, base, n) || (from[n] && from[n] != '/'))
		return NULL;
	/* the longest run of whole directories @from and @path share */
	for (size_t i = n; ; i++) {
		if ((!from[i] || from[i] == '/') && (!path[i] || path[i] == '/'))
			common = i;
		if (!from[i] || from[i] != path[i])
			break;
	}
	/* a directory a "/" begins, however many "/" there are */
	for (const char *p = from + common; *p; p++)
		up += *p == '/' && p[1] && p[1] != '/';
	while (path[common] == '/')
		common++;
	rel = xmalloc(3 * up + strlen(path + common) + 2);
	rel[0] = 0;
	for (size_t i = 0; i < up; i++)
		strcat(rel, "../");
	strcat(rel, path + common);
	if (!*rel)
		strcpy(rel, ".");
	else if (rel[strlen(rel) - 1] == '/')
		rel[strlen(rel) - 1] = 0;
	return rel;
}

int mkdir_p(const char *path)
{
	char *p;
	int ret = 0;

	if (!*path) {
		errno = ENOENT;
		return -1;
	}
	p = xstrdup(path);

	for (char *s = p + 1; ; s++) {
		if (*s != '/' && *s != '\0')
			continue;
		char c = *s;

		*s = '\0';
		if (mkdir(p, 0755) < 0 && errno != EEXIST) {
			ret = -1;
			break;
		}
		*s = c;
		if (!c)
			break;
	}
	free(p);
	return ret;
}

static int rm_one(const char *path, const struct stat *st, int flag,
		  struct FTW *ftw)
{
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

int rm_rf(const char *path)
{
	if (!path_exists(path))
		return 0;
	return nftw(path, rm_one, 32, FTW_DEPTH | FTW_PHYS);
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

uint64_t hash_str(uint64_t h, const char *s)
{
	/* Include the terminator so that "ab","c" differs from "a","bc". */
	return hash_bytes(h, s, strlen(s) + 1);
}

int hash_file(uint64_t *h, const char *path)
{
	size_t len;
	char *buf = file_read(path, &len);

	if (!buf)
		return -1;
	*h = hash_bytes(*h, buf, len);
	free(buf);
	return 0;
}

int stamp_matches(const char *path, const char *want)
{
	char *have = file_read(path, NULL);
	int same = have && !strcmp(have, want);

	free(have);
	return same;
}

double now_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

char *file_tail(const char *path, int n)
{
	size_t len;
	char *buf = file_read(path, &len), *p, *tail;

	if (!buf)
		return xstrdup("");
	while (len && buf[len - 1] == '\n')
		buf[--len] = '\0';
	for (p = buf + len; p > buf && n; p--)
		if (p[-1] == '\n' && !--n)
			break;
	tail = xstrdup(p);
	free(buf);
	return tail;
}
