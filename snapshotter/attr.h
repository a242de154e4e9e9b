/* SPDX-License-Identifier: GPL-2.0 */
/* Reading sysfs attributes to EOF and recording bytes in JSON nodes. */
#ifndef SNAPSHOTTER_ATTR_H
#define SNAPSHOTTER_ATTR_H

#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>

/*
 * Bin attributes report size 0 and may hold more than a page (the LED
 * `trigger` file lists every trigger), so reads go to EOF; this caps them.
 */
#define ATTR_READ_MAX	(1024 * 1024)

/**
 * struct attr_buf - bytes read from an attribute
 * @data: the bytes (NUL-terminated for convenience; may hold NULs)
 * @len: number of bytes, at most ATTR_READ_MAX
 * @truncated: the file held more than ATTR_READ_MAX bytes
 */
struct attr_buf {
	char *data;
	size_t len;
	bool truncated;
};

#define ATTR_BUF_INIT { .data = NULL }

/**
 * attr_read_at() - read a file to EOF (or to the cap)
 * @dirfd: directory @name is relative to, or AT_FDCWD
 * @name: the file
 * @follow: whether a symlink at @name may be followed
 * @buf: filled on success; release with attr_buf_release() in any case
 *
 * The file is opened non-blocking, so a FIFO swapped in behind our back
 * cannot hang the walk.
 *
 * Return: 0, or a negative errno (from open or read) with @buf empty.
 */
int attr_read_at(int dirfd, const char *name, bool follow,
		 struct attr_buf *buf);

/**
 * attr_buf_release() - free the bytes; @buf is empty and reusable after
 * @buf: the buffer
 */
void attr_buf_release(struct attr_buf *buf);

/**
 * json_set_bytes() - record bytes as text or, when not UTF-8, as base64
 * @obj: the JSON object to add to
 * @key: key for the text form, when utf8_valid() accepts the bytes
 * @b64_key: key for the base64 form otherwise
 * @data: the bytes
 * @len: number of bytes
 *
 * Return: 0, or -ENOMEM.
 */
int json_set_bytes(json_t *obj, const char *key, const char *b64_key,
		   const char *data, size_t len);

/**
 * json_set_attr() - record an attribute read: its bytes and any truncation
 * @obj: the JSON object to add to
 * @buf: what attr_read_at() read
 *
 * Sets "value" or "base64", and "truncated": true when the cap was hit.
 *
 * Return: 0, or -ENOMEM.
 */
int json_set_attr(json_t *obj, const struct attr_buf *buf);

/**
 * json_set_errno() - record a failure as its errno name under @key
 * @obj: the JSON object to add to
 * @key: "error", "result", ...
 * @err: positive or negative errno value
 *
 * Return: 0, or -ENOMEM.
 */
int json_set_errno(json_t *obj, const char *key, int err);

/**
 * json_set_str() - json_object_set_new() with a new string, checked
 * @obj: the JSON object to add to
 * @key: the key
 * @str: valid UTF-8 text
 *
 * Return: 0, or -ENOMEM.
 */
int json_set_str(json_t *obj, const char *key, const char *str);

#endif /* SNAPSHOTTER_ATTR_H */
