// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: runner/lib/util.c's path_relative() and str_quote(). */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/tap.h"

/* path_relative(base, from, path) is want (NULL: none) */
static const struct {
	const char *base, *from, *path, *want;
} cases[] = {
	{ "/b", "/b/kernels/k", "/b/sources/s/src", "../../sources/s/src" },
	{ "/b", "/b/kernels/k", "/b/kernels/kx/y", "../kx/y" },
	{ "/b", "/b/kernels/k", "/b/kernels/k/include", "include" },
	{ "/b", "/b/kernels/k", "/b/kernels/k", "." },
	{ "/b", "/b/kernels/k", "/b/kernels", ".." },
	{ "/b", "/b/kernels/k2", "/b/kernels/k", "../k" },
	{ "/b", "/b/kernels/k", "/b", NULL },
	{ "/b", "/b", "/b/src", "src" },
	{ "/b", "/b/k", "/b/src/", "../src" },
	{ "/b", "/b/kernels/k", "/b/kernels/k/source/../x", "source/../x" },
	{ "/b", "/b/k", "/b/k//x.c", "x.c" },
	{ "/b", "/b/k", "/b//src", "../src" },
	{ "/b", "/b", "/b//", "." },
	{ "/b", "/b/k/", "/b/x.c", "../x.c" },
	{ "/b", "/b//k", "/b/x.c", "../x.c" },
	{ "/b", "/bx/k", "/b/src", NULL },
	{ "/b", "/b/k", "/bx/src", NULL },
	{ "/b", "/elsewhere", "/b/src", NULL },
	{ "/b", "/b/k", "relative/src", NULL },
};

/*
 * str_quote(s) into a buffer of size is want: every byte a terminal would
 * act on, and the quote itself, escaped; a long one cut whole escapes.
 */
static const struct {
	const char *s;
	size_t size;
	const char *want;
} quotes[] = {
	{ "plain", 64, "'plain'" },
	{ "it's", 64, "'it\\'s'" },
	{ "''", 64, "'\\'\\''" },
	{ "a\\b", 64, "'a\\\\b'" },
	{ "\x1b]0;pwned\a", 64, "'\\x1b]0;pwned\\x07'" },
	{ "new\nline\ttab\x7f", 64, "'new\\nline\\ttab\\x7f'" },
	{ "caf\xc3\xa9", 64, "'caf\\xc3\\xa9'" },
	{ "abcdefghij", 12, "'abcdef...'" },
	{ "ab'cdefghij", 12, "'ab\\'cd...'" },
	{ "abcde'fghij", 12, "'abcde...'" },
};

int main(void)
{
	for (size_t i = 0; i < ARRAY_SIZE(quotes); i++) {
		char buf[64];

		str_quote(buf, quotes[i].size, quotes[i].s);
		ok(!strcmp(buf, quotes[i].want), "str_quote: %s (want %s)",
		   buf, quotes[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const char *want = cases[i].want;
		char *got = path_relative(cases[i].base, cases[i].from,
					  cases[i].path);

		ok(want ? got && !strcmp(got, want) : !got,
		   "%s from %s, base %s: %s (want %s)", cases[i].path,
		   cases[i].from, cases[i].base, got ? got : "none",
		   want ? want : "none");
		free(got);
	}
	return tap_done();
}
