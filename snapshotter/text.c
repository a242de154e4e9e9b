// SPDX-License-Identifier: GPL-2.0
/* Byte-string helpers for the snapshot: UTF-8 check, base64, errno names. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text.h"

/* Length of the sequence led by @c, 0 if @c cannot lead one. */
static size_t utf8_seq_len(unsigned char c)
{
	if (c >= 0x01 && c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		return 2;
	if (c >= 0xe0 && c <= 0xef)
		return 3;
	if (c >= 0xf0 && c <= 0xf4)
		return 4;
	return 0;
}

size_t utf8_next(const char *buf, size_t len, uint32_t *cp)
{
	const unsigned char *s = (const unsigned char *)buf;
	size_t n = utf8_seq_len(s[0]), k;
	uint32_t c;

	if (!n || n > len)
		return 0;
	c = n == 1 ? s[0] : s[0] & (0x7f >> n);
	for (k = 1; k < n; k++) {
		if ((s[k] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[k] & 0x3f);
	}
	/* 0xc0/0xc1 are refused above; these are the other overlongs */
	if ((n == 3 && c < 0x800) || (n == 4 && c < 0x10000) ||
	    (c >= 0xd800 && c <= 0xdfff) || c > 0x10ffff)
		return 0;
	*cp = c;
	return n;
}

size_t utf8_check(const char *buf, size_t len)
{
	size_t i = 0, n;
	uint32_t cp;

	while (i < len) {
		n = utf8_next(buf + i, len - i, &cp);
		if (!n)
			return i;
		i += n;
	}
	return len;
}

bool utf8_valid(const char *buf, size_t len)
{
	return utf8_check(buf, len) == len;
}

static const char base64_alphabet[] =
	"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t base64_encoded_size(size_t len)
{
	return (len + 2) / 3 * 4 + 1;
}

size_t base64_encode(char *out, const void *buf, size_t len)
{
	const unsigned char *s = buf;
	char *o = out;
	size_t i;

	for (i = 0; i + 2 < len; i += 3) {
		uint32_t v = (uint32_t)s[i] << 16 | s[i + 1] << 8 | s[i + 2];

		*o++ = base64_alphabet[v >> 18];
		*o++ = base64_alphabet[v >> 12 & 63];
		*o++ = base64_alphabet[v >> 6 & 63];
		*o++ = base64_alphabet[v & 63];
	}
	if (i < len) {
		uint32_t v = (uint32_t)s[i] << 16;

		if (i + 1 < len)
			v |= s[i + 1] << 8;
		*o++ = base64_alphabet[v >> 18];
		*o++ = base64_alphabet[v >> 12 & 63];
		*o++ = i + 1 < len ? base64_alphabet[v >> 6 & 63] : '=';
		*o++ = '=';
	}
	*o = '\0';
	return o - out;
}

static int base64_value(char c)
{
	const char *p = c ? strchr(base64_alphabet, c) : NULL;

	return p ? p - base64_alphabet : -1;
}

ssize_t base64_decode(void *out, const char *text, size_t len)
{
	unsigned char *o = out;
	size_t i;

	if (len % 4)
		return -EINVAL;
	for (i = 0; i < len; i += 4) {
		int a = base64_value(text[i]);
		int b = base64_value(text[i + 1]);
		int c = base64_value(text[i + 2]);
		int d = base64_value(text[i + 3]);
		bool last = i + 4 == len;

		if (a < 0 || b < 0)
			return -EINVAL;
		if (last && text[i + 2] == '=' && text[i + 3] == '=') {
			if (b & 15)	/* not canonical: stray low bits */
				return -EINVAL;
			*o++ = a << 2 | b >> 4;
			break;
		}
		if (last && c >= 0 && text[i + 3] == '=') {
			if (c & 3)
				return -EINVAL;
			*o++ = a << 2 | b >> 4;
			*o++ = (b & 15) << 4 | c >> 2;
			break;
		}
		if (c < 0 || d < 0)
			return -EINVAL;
		*o++ = a << 2 | b >> 4;
		*o++ = (b & 15) << 4 | c >> 2;
		*o++ = (c & 3) << 6 | d;
	}
	return o - (unsigned char *)out;
}

char *utf8_or_base64(const char *buf, size_t len)
{
	char *text;

	if (utf8_valid(buf, len))
		return strndup(buf, len);
	text = malloc(strlen("base64:") + base64_encoded_size(len));
	if (text)
		base64_encode(stpcpy(text, "base64:"), buf, len);
	return text;
}

static const char hex_digits[] = "0123456789ABCDEF";

static char *byte_escape(char *o, unsigned char c)
{
	*o++ = '%';
	*o++ = hex_digits[c >> 4];
	*o++ = hex_digits[c & 15];
	return o;
}

/* Writes the key of @name to @out (3 * @len + 1 bytes); its length. */
static size_t name_escape(char *out, const char *name, size_t len)
{
	char *o = out;
	size_t i = 0, end;

	while (i < len) {
		/* the well-formed run, then the byte that ends it */
		for (end = i + utf8_check(name + i, len - i); i < end; i++)
			if (name[i] == '%')
				o = byte_escape(o, '%');
			else
				*o++ = name[i];
		if (i < len)
			o = byte_escape(o, name[i++]);
	}
	*o = '\0';
	return o - out;
}

char *name_encode(const char *name, size_t len)
{
	char *key = malloc(3 * len + 1);

	if (key)
		name_escape(key, name, len);
	return key;
}

static int hex_value(char c)
{
	const char *p = c ? strchr(hex_digits, c) : NULL;

	return p ? p - hex_digits : -1;
}

ssize_t name_decode(char *out, const char *key, size_t len)
{
	size_t i, n = 0;

	for (i = 0; i < len; i++) {
		int hi, lo;

		if (key[i] != '%') {
			out[n++] = key[i];
			continue;
		}
		hi = i + 2 < len ? hex_value(key[i + 1]) : -1;
		lo = hi < 0 ? -1 : hex_value(key[i + 2]);
		if (lo < 0)
			return -EINVAL;
		out[n++] = hi << 4 | lo;
		i += 2;
	}
	if (memchr(out, '\0', n))
		return -EINVAL;
	/* one key a name: escapes where none is due are refused */
	if (name_escape(out + n, out, n) != len || memcmp(out + n, key, len))
		return -EINVAL;
	return n;
}

const char *errno_name(int err)
{
	static char unknown[16];
	const char *name = strerrorname_np(err);

	if (name)
		return name;
	snprintf(unknown, sizeof(unknown), "E%d", err);
	return unknown;
}
