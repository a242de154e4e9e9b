// SPDX-License-Identifier: GPL-2.0
/* Unit tests, TAP: runner/lib/util.c's path_relative(). */
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "tests/tap.h"

/* path_relative(@base, @from, @path) is @want (NULL: none) */
static void rel(const char *base, const char *from, const char *path,
		const char *want)
{
	char *got = path_relative(base, from, path);

	ok(want ? got && !strcmp(got, want) : !got,
	   "%s from %s, base %s: %s (want %s)", path, from, base,
	   got ? got : "none", want ? want : "none");
	free(got);
}

int main(void)
{
	rel("/b", "/b/kernels/k", "/b/sources/s/src", "../../sources/s/src");
	rel("/b", "/b/kernels/k", "/b/kernels/kx/y", "../kx/y");
	rel("/b", "/b/kernels/k", "/b/kernels/k/include", "include");
	rel("/b", "/b/kernels/k", "/b/kernels/k", ".");
	rel("/b", "/b/kernels/k", "/b/kernels", "..");
	rel("/b", "/b/kernels/k2", "/b/kernels/k", "../k");
	rel("/b", "/b/kernels/k", "/b", NULL);
	rel("/b", "/b", "/b/src", "src");
	rel("/b", "/b/k", "/b/src/", "../src");
	rel("/b", "/b/kernels/k", "/b/kernels/k/source/../x", "source/../x");
	rel("/b", "/b/k", "/b/k//x.c", "x.c");
	rel("/b", "/b/k", "/b//src", "../src");
	rel("/b", "/b", "/b//", ".");
	rel("/b", "/b/k/", "/b/x.c", "../x.c");
	rel("/b", "/b//k", "/b/x.c", "../x.c");
	rel("/b", "/bx/k", "/b/src", NULL);
	rel("/b", "/b/k", "/bx/src", NULL);
	rel("/b", "/elsewhere", "/b/src", NULL);
	rel("/b", "/b/k", "relative/src", NULL);
	return tap_done();
}
