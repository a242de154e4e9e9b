// SPDX-License-Identifier: GPL-2.0
/* Reading sysfs attributes to EOF and recording bytes in JSON nodes. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "attr.h"
#include "text.h"

int attr_read_at(int dirfd, const char *name, bool follow,
		 struct attr_buf *buf)
{
	int flags = O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK;
	size_t size = 4096, len = 0;
	char *data;
	int fd, ret = 0;

	fd = openat(dirfd, name, follow ? flags : flags | O_NOFOLLOW);
	if (fd < 0)
		return -errno;
	data = malloc(size);
	if (!data) {
		ret = -ENOMEM;
		goto out_close;
	}
	/* Room for the cap, one byte more to see if there is more, and NUL. */
	for (;;) {
		ssize_t n;

		if (len == size - 1) {
			char *bigger;

			if (size == ATTR_READ_MAX + 2)
				break;
			size = size * 2 < ATTR_READ_MAX + 2 ?
				size * 2 : ATTR_READ_MAX + 2;
			bigger = realloc(data, size);
			if (!bigger) {
				ret = -ENOMEM;
				goto out_free;
			}
			data = bigger;
		}
		n = read(fd, data + len, size - 1 - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = -errno;
			goto out_free;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf->truncated = len > ATTR_READ_MAX;
	buf->len = buf->truncated ? ATTR_READ_MAX : len;
	data[buf->len] = '\0';
	buf->data = data;
	goto out_close;

out_free:
	free(data);
out_close:
	close(fd);
	return ret;
}

void attr_buf_release(struct attr_buf *buf)
{
	free(buf->data);
	*buf = (struct attr_buf)ATTR_BUF_INIT;
}

int json_set_bytes(json_t *obj, const char *key, const char *b64_key,
		   const char *data, size_t len)
{
	char *b64;
	int ret;

	if (utf8_valid(data, len)) {
		ret = json_object_set_new(obj, key, json_stringn(data, len));
		return ret ? -ENOMEM : 0;
	}
	b64 = malloc(base64_encoded_size(len));
	if (!b64)
		return -ENOMEM;
	base64_encode(b64, data, len);
	ret = json_set_str(obj, b64_key, b64);
	free(b64);
	return ret;
}

int json_set_attr(json_t *obj, const struct attr_buf *buf)
{
	if (json_set_bytes(obj, "value", "base64", buf->data, buf->len))
		return -ENOMEM;
	if (buf->truncated &&
	    json_object_set_new(obj, "truncated", json_true()))
		return -ENOMEM;
	return 0;
}

int json_set_errno(json_t *obj, const char *key, int err)
{
	return json_set_str(obj, key, errno_name(err < 0 ? -err : err));
}

int json_set_str(json_t *obj, const char *key, const char *str)
{
	return json_object_set_new(obj, key, json_string(str)) ? -ENOMEM : 0;
}
