/* SPDX-License-Identifier: GPL-2.0 */
/* Collecting kernel log messages with chosen prefixes from /dev/kmsg. */
#ifndef SNAPSHOTTER_KMSG_H
#define SNAPSHOTTER_KMSG_H

#include <stddef.h>
#include <jansson.h>

#define KMSG_DEVICE	"/dev/kmsg"

/**
 * kmsg_record_text() - the message text of one /dev/kmsg record
 * @rec: a record, "PRI,SEQ,USEC,FLAGS[,...];TEXT\n" maybe followed by
 *	" KEY=VALUE\n" continuation lines
 * @len: its length
 * @tlen: set to the length of TEXT, without its newline
 *
 * Return: TEXT inside @rec, or NULL if @rec has no ';'.
 */
const char *kmsg_record_text(const char *rec, size_t len, size_t *tlen);

/**
 * kmsg_collect() - append every logged message starting with a prefix
 * @dev: the kmsg device, KMSG_DEVICE
 * @prefix: the prefixes
 * @nr: how many
 * @lines: JSON array the texts are appended to, oldest first; a text that
 *	is not UTF-8 (the kernel escapes such bytes, so never in practice) is
 *	appended as "base64:<bytes>"
 *
 * Reads without blocking from the oldest record still in the buffer until
 * there is nothing more (EAGAIN); records overwritten meanwhile (EPIPE) are
 * skipped.
 *
 * Return: 0, or a negative errno (@lines keeps what was read).
 */
int kmsg_collect(const char *dev, char *const *prefix, size_t nr,
		 json_t *lines);

#endif /* SNAPSHOTTER_KMSG_H */
