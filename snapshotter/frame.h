/* SPDX-License-Identifier: GPL-2.0 */
/* Channel frame around a snapshot: length and crc32, encode and decode. */
#ifndef SNAPSHOTTER_FRAME_H
#define SNAPSHOTTER_FRAME_H

/*
 * A frame is
 *
 *	SYSFARM-SNAPSHOT 1 <length> <crc32 as 8 lowercase hex digits>\n
 *	<length bytes of payload>SYSFARM-END\n
 *
 * with <length> in decimal and the crc32 the zlib/IEEE one over the payload.
 * This file and frame.c are shared with the host runner: no printing, no
 * allocation, no dependency beyond the C library.
 */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define FRAME_MAGIC	"SYSFARM-SNAPSHOT"
#define FRAME_VERSION	1
#define FRAME_TRAILER	"SYSFARM-END\n"
/* Longest header: magic, version, 20-digit length, crc, blanks, newline. */
#define FRAME_HEADER_MAX	(sizeof(FRAME_MAGIC) + 2 + 21 + 9 + 1)

/**
 * enum frame_error - why frame_decode() or frame_encode() failed
 * @FRAME_ENOFRAME: no header line starting with FRAME_MAGIC in the buffer
 * @FRAME_ETRUNC: a header was found but the buffer ends before the frame
 * @FRAME_ECRC: the payload does not match the header's crc32
 * @FRAME_EMALFORMED: the header or trailer is not what a frame holds
 *	(unknown version, bad number, trailer not at <length>)
 * @FRAME_ENOSPC: frame_encode() was given a buffer too small
 *
 * All are negative, so a caller can test ``ret < 0``.
 */
enum frame_error {
	FRAME_ENOFRAME = -1,
	FRAME_ETRUNC = -2,
	FRAME_ECRC = -3,
	FRAME_EMALFORMED = -4,
	FRAME_ENOSPC = -5,
};

/**
 * frame_crc32() - zlib-compatible crc32, continuable
 * @crc: 0 to start, or the result of the previous call to continue
 * @buf: bytes
 * @len: number of bytes
 *
 * frame_crc32(0, "123456789", 9) is 0xcbf43926.
 *
 * Return: the crc32 of everything seen so far.
 */
uint32_t frame_crc32(uint32_t crc, const void *buf, size_t len);

/**
 * frame_size() - bytes frame_encode() writes for a payload
 * @plen: payload length
 *
 * Return: the exact frame length.
 */
size_t frame_size(size_t plen);

/**
 * frame_encode() - wrap a payload in a frame
 * @buf: where to write the frame
 * @size: room in @buf; frame_size(@plen) is enough
 * @payload: the payload bytes (any bytes; a snapshot is JSON text)
 * @plen: payload length
 *
 * Return: the frame length, or FRAME_ENOSPC if @size is too small.
 */
ssize_t frame_encode(char *buf, size_t size, const char *payload,
		     size_t plen);

/**
 * frame_decode() - find and check the first frame in a buffer
 * @buf: bytes read from the channel; anything may come before the frame
 * @len: number of bytes
 * @payload: set to the payload inside @buf on success (not copied, not
 *	NUL-terminated)
 * @plen: set to the payload length on success
 *
 * The frame starts at the first line of @buf that begins with FRAME_MAGIC
 * followed by a blank. Bytes after the trailer are ignored.
 *
 * Return: 0 on success, else a negative &enum frame_error:
 * FRAME_ENOFRAME, FRAME_ETRUNC, FRAME_ECRC or FRAME_EMALFORMED.
 */
int frame_decode(const char *buf, size_t len, const char **payload,
		 size_t *plen);

/**
 * frame_strerror() - short lowercase text for an &enum frame_error
 * @err: a value returned by frame_decode() or frame_encode()
 *
 * Return: a static string such as "truncated frame".
 */
const char *frame_strerror(int err);

#endif /* SNAPSHOTTER_FRAME_H */
