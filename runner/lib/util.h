/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the runner: memory, string vectors, files, hashes. */
#ifndef SYSFARM_UTIL_H
#define SYSFARM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A message for the user, filled by library code and printed once on top. */
struct sf_err {
	char msg[1024];
};

/**
 * err_set() - format a message into @e
 *
 * Return: always -1, so that callers can `return err_set(...)`.
 */
int err_set(struct sf_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * str_quote() - @s in single quotes, safe to print on a terminal
 * @buf: the result, always NUL-terminated
 * @size: its size (at least 8)
 *
 * Control characters, quotes, backslashes and bytes above 0x7e are
 * written as C escapes (\n, \x1b, ...), so that a name from a file
 * cannot move the cursor, forge a line or hide its own end; a long one
 * is cut with "...". Return: @buf.
 */
char *str_quote(char *buf, size_t size, const char *s);

/* Allocation that cannot fail: out of memory ends the program. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xstrfmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable NULL-terminated vector of owned strings. */
struct strv {
	char **v;
	size_t n;
};

#define STRV_INIT { 0 }

void strv_push(struct strv *sv, const char *s);
void strv_pushf(struct strv *sv, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void strv_extend(struct strv *sv, const struct strv *from);
/* Does @sv (which may be NULL) hold @s? */
int strv_has(const struct strv *sv, const char *s);
/* The vector as argv: never NULL, always NULL-terminated. */
const char *const *strv_argv(struct strv *sv);
void strv_release(struct strv *sv);

/**
 * file_read() - read a whole file
 * @path: the file
 * @len: set to its length (the buffer is NUL-terminated beyond that)
 *
 * Return: a malloc'd buffer, or NULL with errno set.
 */
char *file_read(const char *path, size_t *len);

/*
 * What reading an input returns besides 0: every loader (YAML, JSON,
 * snapshots, tables) tells a file it cannot read from bad content.
 */
enum input_status {
	INPUT_EIO = -1,		/* cannot be read (errno kept): exit 125 */
	INPUT_EBAD = -2,	/* bad content, bad type or too large: exit 2 */
};

/* The largest input file of each kind sysfarm reads (bounded memory). */
#define INPUT_MAX_YAML (4u << 20)	/* matrix, redactions, ABI table */
#define INPUT_MAX_TEXT (4u << 20)	/* fragments, probes, series, .config */
#define INPUT_MAX_JSON (64u << 20)	/* snapshots, goldens, results */
#define INPUT_MAX_BLOB (64u << 20)	/* a patch, a file for the guest */

/**
 * input_read() - read a whole input file: a regular file of at most @max
 * @path: the file
 * @max: its largest accepted size in bytes
 * @len: set to its length (the buffer is NUL-terminated beyond that)
 * @err: the message on failure
 *
 * A FIFO would block, a device never end, and a huge file exhaust memory:
 * anything but a regular file (links followed) of at most @max bytes is
 * refused without reading more than @max + 1 bytes. A FIFO is opened
 * without blocking.
 *
 * Return: a malloc'd buffer; NULL with @err set to "PATH: cannot read:
 * ..." and *@bad 0 when the file cannot be read, or to "PATH: not a
 * regular file (a FIFO)" / "PATH: larger than N MiB" and *@bad 1 for bad
 * input.
 */
char *input_read(const char *path, size_t max, size_t *len, int *bad,
		 struct sf_err *err);

/**
 * input_check() - would input_read() accept @path? Return: 0, or -1 with
 * @err set as input_read() would set it.
 */
int input_check(const char *path, size_t max, struct sf_err *err);

/**
 * file_write_atomic() - replace @path with @len bytes of @buf
 *
 * Writes a temporary file beside @path, fsyncs it and renames it over
 * @path, so that readers see the old or the new content, never a part.
 *
 * Return: 0, or -1 with errno set.
 */
int file_write_atomic(const char *path, const void *buf, size_t len);

/**
 * file_put() - write @len bytes of @text into @path, an output the user named
 * @path: the file
 * @text: what to write
 * @len: its length
 * @append: keep what @path holds and write after it
 *
 * A regular file, or a new one, is replaced whole by file_write_atomic():
 * a full disk leaves it as it was. Anything else (a terminal, a pipe, a
 * device, a symlink such as /dev/stdout) is written in place.
 *
 * Return: 0, or -1 with errno set.
 */
int file_put(const char *path, const char *text, size_t len, int append);

/*
 * Removes the temporary file of a file_write_atomic() in progress, if any:
 * for signal handlers (async-signal-safe).
 */
void file_write_atomic_abort(void);

/* Does @path exist (any type)? */
int path_exists(const char *path);

/* mkdir -p. Return: 0, or -1 with errno set. */
int mkdir_p(const char *path);

/* rm -rf, without following links. Return: 0, or -1 with errno set. */
int rm_rf(const char *path);

/* FNV-1a, 64 bits: build keys and stamps, not security. */
#define HASH_INIT 0xcbf29ce484222325ULL
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_str(uint64_t h, const char *s);
/* Hashes the content of @path; -1 with errno set when it cannot be read. */
int hash_file(uint64_t *h, const char *path);

/* Seconds on CLOCK_MONOTONIC. */
double now_seconds(void);



/* The last @n lines of @path, malloc'd ("" when unreadable). */
char *file_tail(const char *path, int n);

#endif
