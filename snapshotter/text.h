/* SPDX-License-Identifier: GPL-2.0 */
/* Byte-string helpers for the snapshot: UTF-8 check, base64, errno names. */
#ifndef SNAPSHOTTER_TEXT_H
#define SNAPSHOTTER_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/**
 * utf8_check() - find the first byte that is not well-formed UTF-8
 * @buf: bytes to check
 * @len: number of bytes
 *
 * Well-formed means RFC 3629: no overlong forms, no surrogates, nothing
 * above U+10FFFF. A NUL byte is counted as bad too, so that a string that
 * passes is safe for every JSON reader, including ones that stop at NUL.
 *
 * Return: @len if every byte is good, else the offset of the first bad one.
 */
size_t utf8_check(const char *buf, size_t len);

/**
 * utf8_next() - decode the well-formed UTF-8 sequence @buf starts with
 * @buf: bytes
 * @len: number of bytes, at least 1
 * @cp: set to the code point the sequence encodes
 *
 * Well-formed as for utf8_check(), a NUL byte included.
 *
 * Return: the length of the sequence (1 to 4), or 0 if @buf does not
 * start with one.
 */
size_t utf8_next(const char *buf, size_t len, uint32_t *cp);

/**
 * utf8_valid() - whether utf8_check() finds no bad byte
 * @buf: bytes to check
 * @len: number of bytes
 */
bool utf8_valid(const char *buf, size_t len);

/**
 * base64_encoded_size() - space base64_encode() needs, NUL included
 * @len: number of input bytes
 */
size_t base64_encoded_size(size_t len);

/**
 * base64_encode() - RFC 4648 base64 with padding
 * @out: buffer of at least base64_encoded_size(@len) bytes
 * @buf: input bytes
 * @len: number of input bytes
 *
 * Return: the length of the NUL-terminated text written to @out.
 */
size_t base64_encode(char *out, const void *buf, size_t len);

/**
 * base64_decode() - decode RFC 4648 base64 with padding
 * @out: buffer of at least 3 * (@len / 4) bytes
 * @text: base64 text, no blanks
 * @len: its length, a multiple of 4
 *
 * Return: the number of bytes written to @out, or -EINVAL if @text is not
 * canonical base64.
 */
ssize_t base64_decode(void *out, const char *text, size_t len);

/**
 * utf8_or_base64() - a copy of bytes as text: as is, or tagged base64
 * @buf: bytes
 * @len: number of bytes
 *
 * Return: a new NUL-terminated string, the bytes themselves when
 * utf8_valid() accepts them, else "base64:" and their base64; NULL when
 * out of memory.
 */
char *utf8_or_base64(const char *buf, size_t len);

/**
 * name_encode() - a file name as the snapshot keys it
 * @name: the name's bytes
 * @len: their number
 *
 * A name that is UTF-8 and holds no '%' is itself. Otherwise each '%', and
 * each byte that is not part of a well-formed UTF-8 sequence, becomes %XX
 * (two uppercase hex digits): "name\xff" is "name%FF", "50%" is "50%25".
 * No two names give one key, every key is UTF-8, and '/' stays '/', so a
 * path can be encoded whole.
 *
 * Return: a new NUL-terminated string; NULL when out of memory.
 */
char *name_encode(const char *name, size_t len);

/**
 * name_decode() - the name that name_encode() keyed as @key
 * @out: buffer of at least 4 * @len + 1 bytes: the name, then its key
 *	again to check it
 * @key: the key (need not be NUL-terminated)
 * @len: its length
 *
 * Return: the length of the name written to @out; -EINVAL if name_encode()
 * writes @key for no name (a '%' without two uppercase hex digits, %XX for
 * a byte that needs none, a NUL byte).
 */
ssize_t name_decode(char *out, const char *key, size_t len);

/**
 * errno_name() - symbolic name of an errno value, "EACCES" for EACCES
 * @err: a positive errno value
 *
 * Return: a static string; "E<number>" (in a static buffer) when the C
 * library knows no name.
 */
const char *errno_name(int err);

/**
 * file_kind() - what a file that is not a regular one is, for a message
 * @m: its st_mode
 *
 * Return: "a FIFO", "a directory", ... (static).
 */
static inline const char *file_kind(mode_t m)
{
	return S_ISFIFO(m) ? "a FIFO" : S_ISCHR(m) ? "a character device" :
	       S_ISBLK(m) ? "a block device" : S_ISDIR(m) ? "a directory" :
	       S_ISSOCK(m) ? "a socket" : "not a regular file";
}

#endif /* SNAPSHOTTER_TEXT_H */
