/* SPDX-License-Identifier: GPL-2.0 */
/* Small helpers shared by the runner: errors, memory, strings, files. */
#ifndef SYSFARM_UTIL_H
#define SYSFARM_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What went wrong, filled by library code and reported once, by cmd/
 * (jansson's json_error_t: a kind, a position and a text).
 */
enum err_kind {
	ERR_NONE,		/* no error yet */
	ERR_INPUT,		/* bad usage or bad input: exit 2 */
	ERR_UNTESTABLE,		/* could not test (an input cannot be
				 * read, a tool failed): exit 125 */
};

/**
 * struct sf_err - an error: "CONTEXT FILE:LINE:COL: TEXT" once formatted
 * @kind: ERR_NONE until the first err_*() call; that first error wins,
 *	later ones leave it as it is
 * @line: the line in @file, from 1; 0 when the error has no position
 * @col: the column in @line, from 1
 * @context: what the caller was doing, prepended by err_context()
 * @file: the input at fault, or ""
 * @text: the message
 *
 * Declare with SF_ERR_INIT; err_clear() before reusing one.
 */
struct sf_err {
	enum err_kind kind;
	int line, col;
	char context[256];
	char file[256];
	char text[1024];
};

#define SF_ERR_INIT { .kind = ERR_NONE }

/**
 * err_set() - ERR_UNTESTABLE with @fmt as its text, unless @e is set
 *
 * Return: always -1, so that callers can `return err_set(...)`. errno is
 * kept.
 */
int err_set(struct sf_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * err_at() - bad input at a position, unless @e is set
 * @kind: ERR_INPUT, or ERR_UNTESTABLE for a file that cannot be read
 * @file: the input at fault, or NULL for a command-line word ("TEXT")
 * @line: from 1, or 0 for none ("FILE: TEXT")
 * @col: from 1
 *
 * Return: always -1. errno is kept.
 */
int err_at(struct sf_err *e, enum err_kind kind, const char *file, int line,
	   int col, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/*
 * Prepends "@fmt" to @e's context: "--tarball " makes "--tarball FILE:
 * TEXT" of "FILE: TEXT". Nothing for an unset @e. Return: always -1.
 */
int err_context(struct sf_err *e, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Unsets @e, to be set again. */
void err_clear(struct sf_err *e);

/**
 * err_format() - @e as the user reads it: "CONTEXT FILE:LINE:COL: TEXT",
 *	"CONTEXT FILE: TEXT" or "CONTEXT TEXT" (without the context when
 *	there is none); "" for an unset @e. The one place errors are
 *	formatted.
 * @buf: the result, cut to fit and always NUL-terminated
 *
 * Return: @buf.
 */
char *err_format(const struct sf_err *e, char *buf, size_t size);

/* Room for any err_format() of a struct sf_err. */
#define ERR_FORMAT_MAX (sizeof(((struct sf_err *)0)->context) + \
			sizeof(((struct sf_err *)0)->file) + 32 + \
			sizeof(((struct sf_err *)0)->text))

/**
 * struct sf_sink - what the user must see while the work goes on
 * @error: a notice, or an error the work goes on after (a results file
 *	that cannot be written, out of memory before the exit); "sysfarm:
 *	MESSAGE"
 * @progress: "[   1.2s] WHO: TEXT", @seconds since the start
 * @live: one line rewritten in place, "[   1.2s] TEXT" (NULL @text: gone),
 *	or NULL where there is no terminal to rewrite it on
 *
 * Code below cmd/ never prints: it returns its errors to the command,
 * and says what cannot wait through the sink the command installed
 * (cmd/ui.c), as libgit's error() calls what set_error_routine() set.
 */
struct sf_sink {
	void (*error)(const struct sf_err *e);
	void (*progress)(double seconds, const char *who, const char *text);
	void (*live)(double seconds, const char *text);
};

/* Installs @s; until then (unit tests, fuzzers) nothing is said. */
void sink_install(const struct sf_sink *s);

/* Hands @e to the sink's error(). */
void sink_error(const struct sf_err *e);

/* Hands the progress line "WHO: @fmt" to the sink's progress(). */
void sink_progress(double seconds, const char *who, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Hands @text (NULL: clear it) to the sink's live(). Return: 0, or -1
 * when it has none: say it in progress lines instead.
 */
int sink_live(double seconds, const char *text);

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
/* open_memstream(), or out of memory (the sink is told, and exit). */
FILE *xmemstream(char **text, size_t *len);
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
 * snapshots, tables) tells a file it cannot read from bad content, as
 * the kind of its error does (input_status()).
 */
enum input_status {
	INPUT_EIO = -1,		/* cannot be read (errno kept): exit 125 */
	INPUT_EBAD = -2,	/* bad content, bad type or too large: exit 2 */
};

/* INPUT_EBAD for an ERR_INPUT @e, else INPUT_EIO. */
int input_status(const struct sf_err *e);

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
 * Return: a malloc'd buffer; NULL with @err set at PATH: ERR_UNTESTABLE
 * "cannot read: ..." when the file cannot be read (errno kept), or
 * ERR_INPUT "not a regular file (a FIFO)" / "larger than N MiB".
 */
char *input_read(const char *path, size_t max, size_t *len,
		 struct sf_err *err);

/**
 * input_open() - open @path for reading as input_read() does, for a
 * caller that reads it its own way (a log cut at a size, not refused)
 *
 * Return: the descriptor, or -1 with @err set as input_read() sets it.
 */
int input_open(const char *path, size_t max, struct sf_err *err);

/**
 * input_check() - would input_read() accept @path? Return: 0, or -1 with
 * @err set as input_read() would set it.
 */
int input_check(const char *path, size_t max, struct sf_err *err);

/**
 * file_write_atomic() - replace @path with @len bytes of @buf
 *
 * Writes a temporary file beside @path (PATH.tmp.XXXXXX, made by
 * mkostemp(): never through a file or link already there), mode 0644,
 * fsyncs it and renames it over @path, so that readers see the old or the
 * new content, never a part.
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

/**
 * file_update() - file_write_atomic(), unless @path holds exactly @buf
 * @path: the file; read only when it is a regular file of @len bytes
 * @buf: what it is to hold
 * @len: its length
 *
 * Return: 1 when @path was left as it was (its inode and mtime kept), 0
 * when written, -1 with errno set when it could not be.
 */
int file_update(const char *path, const void *buf, size_t len);

/* Does @path exist (any type)? */
int path_exists(const char *path);

/* Is the real path @real below @root (a directory's real path, "/" too)? */
int path_inside(const char *real, const char *root);

/*
 * @path spelled relative to the directory @from when both lie under @base,
 * or NULL: "/b/src/include" from "/b/kernels/k" is "../../src/include".
 * Plain string work: @from must be physical (as getcwd gives it), so that
 * each ".." climbs a real directory.
 */
char *path_relative(const char *base, const char *from, const char *path);

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

/* Does the file @path hold exactly @want? */
int stamp_matches(const char *path, const char *want);

/* Seconds on CLOCK_MONOTONIC. */
double now_seconds(void);



/* The last @n lines of @path, malloc'd ("" when unreadable). */
char *file_tail(const char *path, int n);

#endif
