// SPDX-License-Identifier: GPL-2.0
/* Collecting kernel log messages with chosen prefixes from /dev/kmsg. */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"
#include "text.h"

/* The kernel's limit for one record read from /dev/kmsg. */
#define KMSG_RECORD_MAX	8192

const char *kmsg_record_text(const char *rec, size_t len, size_t *tlen)
{
	const char *text = memchr(rec, ';', len), *nl;

	if (!text)
		return NULL;
	text++;
	nl = memchr(text, '\n', rec + len - text);
	*tlen = (nl ? nl : rec + len) - text;
	return text;
}

static bool kmsg_wanted(const char *text, size_t len, char *const *prefix,
			size_t nr)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		size_t plen = strlen(prefix[i]);

		if (plen <= len && !memcmp(text, prefix[i], plen))
			return true;
	}
	return false;
}

static int kmsg_append(json_t *lines, const char *text, size_t len)
{
	char *copy = utf8_or_base64(text, len);
	int ret;

	if (!copy)
		return -ENOMEM;
	ret = json_array_append_new(lines, json_string(copy)) ? -ENOMEM : 0;
	free(copy);
	return ret;
}

int kmsg_collect(const char *dev, char *const *prefix, size_t nr,
		 json_t *lines)
{
	char *rec;
	int fd, ret = 0;

	fd = open(dev, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	rec = malloc(KMSG_RECORD_MAX);
	if (!rec) {
		ret = -ENOMEM;
		goto out_close;
	}
	for (;;) {
		ssize_t n = read(fd, rec, KMSG_RECORD_MAX);
		const char *text;
		size_t tlen;

		if (n < 0 && (errno == EPIPE || errno == EINTR))
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			ret = -errno;
			break;
		}
		if (n == 0)
			break;
		text = kmsg_record_text(rec, n, &tlen);
		if (!text || !kmsg_wanted(text, tlen, prefix, nr))
			continue;
		ret = kmsg_append(lines, text, tlen);
		if (ret)
			break;
	}
	free(rec);
out_close:
	close(fd);
	return ret;
}
