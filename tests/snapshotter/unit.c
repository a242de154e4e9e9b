// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: frame, crc32, UTF-8, base64, name keys, kmsg records. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"
#include "kmsg.h"
#include "text.h"
#include "../tap.h"

static const char payload[] = "{\n  \"format\": 1\n}\n";

/* A frame of payload in a fresh buffer; the caller frees it. */
static char *frame_make(size_t *len)
{
	size_t size = frame_size(strlen(payload));
	char *buf = malloc(size);
	ssize_t n;

	if (!buf)
		abort();
	n = frame_encode(buf, size, payload, strlen(payload));
	*len = n < 0 ? 0 : n;
	return buf;
}

static void test_crc32(void)
{
	ok(frame_crc32(0, "123456789", 9) == 0xcbf43926,
	   "crc32 check value of \"123456789\"");
	ok(frame_crc32(frame_crc32(0, "1234", 4), "56789", 5) == 0xcbf43926,
	   "crc32 continues across calls");
	ok(frame_crc32(0, "", 0) == 0, "crc32 of nothing is 0");
}

static void test_frame_good(void)
{
	const char *p = NULL;
	size_t len, plen = 0;
	char *buf = frame_make(&len), *noisy;
	static const char noise[] = "[    1.234] console noise\n";

	ok(len == frame_size(strlen(payload)),
	   "frame_encode writes frame_size bytes");
	ok(!strncmp(buf, "SYSFARM-SNAPSHOT 1 18 ", 22) &&
	   !memcmp(buf + len - 12, "SYSFARM-END\n", 12),
	   "frame has header and trailer");
	ok(frame_decode(buf, len, &p, &plen) == 0 && plen == strlen(payload) &&
	   !memcmp(p, payload, plen), "good frame decodes to its payload");

	noisy = malloc(sizeof(noise) + len + 5);
	memcpy(noisy, noise, sizeof(noise) - 1);
	memcpy(noisy + sizeof(noise) - 1, buf, len);
	memcpy(noisy + sizeof(noise) - 1 + len, "junk\n", 5);
	ok(frame_decode(noisy, sizeof(noise) - 1 + len + 5, &p, &plen) == 0 &&
	   plen == strlen(payload),
	   "frame found after noise, junk after ignored");
	free(noisy);
	ok(frame_encode(buf, len - 1, payload, strlen(payload)) == FRAME_ENOSPC,
	   "frame_encode refuses a buffer one byte short");
	free(buf);
}

static void test_frame_truncated(void)
{
	size_t len, cut, plen;
	char *buf = frame_make(&len);
	const char *p;
	bool all = true;

	/* every prefix that still holds "SYSFARM-SNAPSHOT " is truncated */
	for (cut = strlen(FRAME_MAGIC) + 2; cut < len; cut++) {
		int ret = frame_decode(buf, cut, &p, &plen);

		if (ret != FRAME_ETRUNC) {
			all = false;
			printf("# cut at %zu: %s\n", cut, frame_strerror(ret));
		}
	}
	ok(all, "every cut-short frame is FRAME_ETRUNC");
	ok(frame_decode(buf, 5, &p, &plen) == FRAME_ENOFRAME,
	   "a cut inside the magic is FRAME_ENOFRAME");
	ok(frame_decode("", 0, &p, &plen) == FRAME_ENOFRAME,
	   "an empty buffer is FRAME_ENOFRAME");
	free(buf);
}

static void test_frame_bitflip(void)
{
	size_t len, i, plen, hlen;
	char *buf = frame_make(&len);
	int bad_crc = 0, other = 0;
	const char *p;

	hlen = strchr(buf, '\n') + 1 - buf;
	/* flip each payload bit: crc32 catches every single-bit error */
	for (i = hlen * 8; i < (hlen + strlen(payload)) * 8; i++) {
		buf[i / 8] ^= 1 << (i % 8);
		if (frame_decode(buf, len, &p, &plen) == FRAME_ECRC)
			bad_crc++;
		else
			other++;
		buf[i / 8] ^= 1 << (i % 8);
	}
	ok(bad_crc == (int)strlen(payload) * 8 && !other,
	   "every payload bitflip is FRAME_ECRC (%d of %zu)", bad_crc,
	   strlen(payload) * 8);

	/* a flip in the header or trailer must never decode as good */
	other = 0;
	for (i = 0; i < len * 8; i++) {
		if (i == hlen * 8)
			i = (hlen + strlen(payload)) * 8;
		buf[i / 8] ^= 1 << (i % 8);
		if (frame_decode(buf, len, &p, &plen) == 0)
			other++;
		buf[i / 8] ^= 1 << (i % 8);
	}
	ok(!other, "no header or trailer bitflip decodes as good");
	free(buf);

	ok(frame_decode("SYSFARM-SNAPSHOT 2 0 00000000\nSYSFARM-END\n", 42,
			&p, &plen) == FRAME_EMALFORMED,
	   "unknown frame version is FRAME_EMALFORMED");
	ok(frame_decode("SYSFARM-SNAPSHOT 1 0 00000000\nSYSFARM-END\n", 42,
			&p, &plen) == 0 && plen == 0, "empty payload decodes");
}

static void test_utf8(void)
{
	static const struct {
		const char *s;
		size_t len, bad;
		const char *what;
	} cases[] = {
		{ "plain\n", 6, 6, "ASCII" },
		{ "caf\xc3\xa9", 5, 5, "two-byte sequence" },
		{ "\xe2\x82\xac", 3, 3, "three-byte sequence" },
		{ "\xf0\x9f\x98\x80", 4, 4, "four-byte sequence" },
		{ "a\0b", 3, 1, "NUL byte" },
		{ "\xff", 1, 0, "0xff" },
		{ "ab\x80", 3, 2, "lone continuation byte" },
		{ "\xc0\xaf", 2, 0, "overlong two-byte" },
		{ "\xe0\x80\xaf", 3, 0, "overlong three-byte" },
		{ "\xf0\x80\x80\xaf", 4, 0, "overlong four-byte" },
		{ "\xed\xa0\x80", 3, 0, "surrogate" },
		{ "\xf4\x90\x80\x80", 4, 0, "above U+10FFFF" },
		{ "x\xc3", 2, 1, "sequence cut short" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		ok(utf8_check(cases[i].s, cases[i].len) == cases[i].bad,
		   "utf8_check: %s", cases[i].what);
}

static void test_utf8_next(void)
{
	static const struct {
		const char *s;
		size_t len, n;
		uint32_t cp;
		const char *what;
	} cases[] = {
		{ "ab", 2, 1, 'a', "ASCII" },
		{ "\xc2\x9b[", 3, 2, 0x9b, "C1 control U+009B" },
		{ "\xe2\x80\xae", 3, 3, 0x202e, "U+202E" },
		{ "\xef\xbf\xbf", 3, 3, 0xffff, "U+FFFF" },
		{ "\xf4\x8f\xbf\xbf", 4, 4, 0x10ffff, "U+10FFFF" },
		{ "\xe2\x82\xac", 2, 0, 0, "sequence cut short" },
		{ "\xc0\xaf", 2, 0, 0, "overlong" },
		{ "\0", 1, 0, 0, "NUL byte" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		uint32_t cp = 0;
		size_t n = utf8_next(cases[i].s, cases[i].len, &cp);

		ok(n == cases[i].n && (!n || cp == cases[i].cp),
		   "utf8_next: %s", cases[i].what);
	}
}

static void test_base64(void)
{
	/* RFC 4648 section 10 */
	static const char *const vectors[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" },
		{ "foo", "Zm9v" }, { "foob", "Zm9vYg==" },
		{ "fooba", "Zm9vYmE=" }, { "foobar", "Zm9vYmFy" },
	};
	unsigned char bytes[256], back[256];
	char text[400];
	bool good = true;
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(*vectors); i++) {
		size_t n = base64_encode(text, vectors[i][0],
					 strlen(vectors[i][0]));

		ok(n == strlen(vectors[i][1]) && !strcmp(text, vectors[i][1]),
		   "base64 of \"%s\" is \"%s\"", vectors[i][0], vectors[i][1]);
	}
	for (i = 0; i < sizeof(bytes); i++)
		bytes[i] = 255 - i;
	for (i = 0; i <= sizeof(bytes); i++) {
		size_t n = base64_encode(text, bytes, i);

		if (n + 1 != base64_encoded_size(i) ||
		    base64_decode(back, text, n) != (ssize_t)i ||
		    memcmp(back, bytes, i))
			good = false;
	}
	ok(good, "base64 round trip of every length 0..256");
	ok(base64_decode(back, "Zg=", 3) == -EINVAL,
	   "base64 refuses bad length");
	ok(base64_decode(back, "Zh==", 4) == -EINVAL,
	   "base64 refuses non-canonical padding bits");
	ok(base64_decode(back, "Z===", 4) == -EINVAL &&
	   base64_decode(back, "Zg==Zg==", 8) == -EINVAL &&
	   base64_decode(back, "Zm9v!A==", 8) == -EINVAL,
	   "base64 refuses misplaced padding and foreign bytes");
}

static void test_utf8_or_base64(void)
{
	char *a = utf8_or_base64("led0", 4), *b = utf8_or_base64("\xff\xfe", 2);

	ok(a && !strcmp(a, "led0"), "utf8_or_base64 keeps UTF-8 as is");
	ok(b && !strcmp(b, "base64://4="), "utf8_or_base64 tags base64");
	free(a);
	free(b);
}

static void test_name(void)
{
	static const char *const vectors[][2] = {
		{ "led0", "led0" }, { "caf\xc3\xa9", "caf\xc3\xa9" },
		{ "name\xff", "name%FF" }, { "50%", "50%25" },
		{ "name%FF", "name%25FF" }, { "caf\xc3", "caf%C3" },
		{ "\xed\xa0\x80", "%ED%A0%80" }, { "a/\xfe", "a/%FE" },
	};
	static const char *const refused[] = {
		"%", "%F", "a%zz", "%ff", "%41", "%2F", "%00", "%C3%A9",
	};
	char name[3], key[16], back[64];
	bool good = true;
	size_t i;

	for (i = 0; i < sizeof(vectors) / sizeof(*vectors); i++) {
		char *k = name_encode(vectors[i][0], strlen(vectors[i][0]));

		ok(k && !strcmp(k, vectors[i][1]), "name_encode gives \"%s\"",
		   vectors[i][1]);
		free(k);
	}
	/* every name of one or two bytes comes back: no two share a key */
	for (i = 1; i < 65536; i++) {
		size_t len = i < 256 ? 1 : 2;
		char *k;
		ssize_t n;

		name[0] = (char)(i & 255);
		name[1] = (char)(i >> 8);
		if (!name[0] || (len == 2 && !name[1]))
			continue;
		k = name_encode(name, len);
		n = k ? name_decode(back, k, strlen(k)) : -1;
		if (n != (ssize_t)len || memcmp(back, name, len))
			good = false;
		free(k);
	}
	ok(good, "name_decode gives back every name of 1 and 2 bytes");
	for (i = 0; i < sizeof(refused) / sizeof(*refused); i++) {
		strcpy(key, refused[i]);
		ok(name_decode(back, key, strlen(key)) == -EINVAL,
		   "name_decode refuses \"%s\"", key);
	}
}

static void test_kmsg(void)
{
	static const char rec[] =
		"6,1234,5678901,-,caller=T1;sysfarm-wq: created x\n"
		" SUBSYSTEM=workqueue\n";
	size_t tlen;
	const char *t = kmsg_record_text(rec, strlen(rec), &tlen);

	ok(t && tlen == 21 && !strncmp(t, "sysfarm-wq: created x", tlen),
	   "kmsg record text stops at its newline");
	ok(!kmsg_record_text("no separator\n", 13, &tlen),
	   "kmsg record without ';' has no text");
	t = kmsg_record_text("4,1,2,-;last", 12, &tlen);
	ok(t && tlen == 4 && !strncmp(t, "last", 4),
	   "kmsg record without newline");
}

static void test_errno_name(void)
{
	ok(!strcmp(errno_name(EACCES), "EACCES") &&
	   !strcmp(errno_name(ENODATA), "ENODATA"), "errno_name names errnos");
	ok(!strcmp(errno_name(4095), "E4095"), "errno_name of unknown");
}

int main(void)
{
	test_crc32();
	test_frame_good();
	test_frame_truncated();
	test_frame_bitflip();
	test_utf8();
	test_utf8_next();
	test_base64();
	test_utf8_or_base64();
	test_name();
	test_kmsg();
	test_errno_name();
	return tap_done();
}
