// SPDX-License-Identifier: GPL-2.0
/* Test helper: decode the frame in a file, print its payload or the error. */
#include <stdio.h>
#include <stdlib.h>

#include "frame.h"

int main(int argc, char **argv)
{
	size_t len = 0, size = 1 << 16, plen;
	const char *payload;
	char *buf = malloc(size);
	FILE *f;
	int ret;

	if (argc != 2 || !buf || !(f = fopen(argv[1], "rb"))) {
		fprintf(stderr, "usage: frame-check FILE\n");
		return 2;
	}
	for (;;) {
		len += fread(buf + len, 1, size - len, f);
		if (len < size)
			break;
		size *= 2;
		buf = realloc(buf, size);
		if (!buf)
			return 2;
	}
	fclose(f);
	ret = frame_decode(buf, len, &payload, &plen);
	if (ret)
		fprintf(stderr, "%s\n", frame_strerror(ret));
	else
		fwrite(payload, 1, plen, stdout);
	free(buf);
	if (fflush(stdout) || ferror(stdout))
		return 2;
	return ret ? 1 : 0;
}
