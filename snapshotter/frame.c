// SPDX-License-Identifier: GPL-2.0
/* Channel frame around a snapshot: length and crc32, encode and decode. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "frame.h"

uint32_t frame_crc32(uint32_t crc, const void *buf, size_t len)
{
	/* Half-byte table of the reflected polynomial 0xedb88320. */
	static const uint32_t nibble[16] = {
		0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
		0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
		0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
		0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
	};
	const unsigned char *p = buf;

	crc = ~crc;
	while (len--) {
		crc ^= *p++;
		crc = (crc >> 4) ^ nibble[crc & 15];
		crc = (crc >> 4) ^ nibble[crc & 15];
	}
	return ~crc;
}

static int frame_header(char *buf, size_t size, const char *payload,
			size_t plen)
{
	return snprintf(buf, size, "%s %d %zu %08" PRIx32 "\n", FRAME_MAGIC,
			FRAME_VERSION, plen, frame_crc32(0, payload, plen));
}

size_t frame_size(size_t plen)
{
	char len[24];

	return sizeof(FRAME_MAGIC) + 2 + snprintf(len, sizeof(len), "%zu",
						  plen) + 10 + plen +
		strlen(FRAME_TRAILER);
}

ssize_t frame_encode(char *buf, size_t size, const char *payload,
		     size_t plen)
{
	size_t need = frame_size(plen);
	int hlen;

	if (size < need)
		return FRAME_ENOSPC;
	hlen = frame_header(buf, size, payload, plen);
	memcpy(buf + hlen, payload, plen);
	memcpy(buf + hlen + plen, FRAME_TRAILER, strlen(FRAME_TRAILER));
	return need;
}

/* The first line of @buf that starts with FRAME_MAGIC and a blank. */
static const char *frame_find(const char *buf, size_t len)
{
	const size_t mlen = strlen(FRAME_MAGIC);
	const char *p = buf, *end = buf + len;

	while ((size_t)(end - p) > mlen) {
		const char *nl;

		if (!memcmp(p, FRAME_MAGIC, mlen) && p[mlen] == ' ')
			return p;
		nl = memchr(p, '\n', end - p);
		if (!nl)
			break;
		p = nl + 1;
	}
	return NULL;
}

/*
 * Parse digits up to @stop and step past it: 0, or 1 when the buffer ends
 * first, or -1 when there are none, a non-digit, or more than @max.
 */
static int frame_number(const char **pos, const char *end, char stop,
			int base, uint64_t max, uint64_t *val)
{
	const char *p = *pos;
	uint64_t v = 0;

	for (; p < end && *p != stop; p++) {
		int d;

		if (*p >= '0' && *p <= '9')
			d = *p - '0';
		else if (base == 16 && *p >= 'a' && *p <= 'f')
			d = *p - 'a' + 10;
		else
			return -1;
		if (v > (max - d) / base)
			return -1;
		v = v * base + d;
	}
	if (p == end)
		return 1;	/* ran out of bytes: truncated */
	if (p == *pos || p - *pos > 20)
		return -1;
	*pos = p + 1;
	*val = v;
	return 0;
}

int frame_decode(const char *buf, size_t len, const char **payload,
		 size_t *plen)
{
	const char *start = frame_find(buf, len), *end = buf + len;
	const size_t tlen = strlen(FRAME_TRAILER);
	const char *p, *body, *crc_at;
	uint64_t version, length, crc;
	int ret;

	if (!start)
		return FRAME_ENOFRAME;
	p = start + strlen(FRAME_MAGIC) + 1;
	ret = frame_number(&p, end, ' ', 10, UINT64_MAX, &version);
	if (!ret)
		ret = frame_number(&p, end, ' ', 10, SIZE_MAX, &length);
	crc_at = p;
	if (!ret)
		ret = frame_number(&p, end, '\n', 16, UINT32_MAX, &crc);
	if (ret > 0)
		return FRAME_ETRUNC;
	if (ret < 0 || version != FRAME_VERSION || p - crc_at != 9)
		return FRAME_EMALFORMED;
	body = p;
	if ((size_t)(end - body) < length ||
	    (size_t)(end - body) - length < tlen) {
		/* a trailer that is already wrong is not worth waiting for */
		size_t have = end - body > (ptrdiff_t)length ?
			(end - body) - length : 0;

		if (have && memcmp(body + length, FRAME_TRAILER, have))
			return FRAME_EMALFORMED;
		return FRAME_ETRUNC;
	}
	if (memcmp(body + length, FRAME_TRAILER, tlen))
		return FRAME_EMALFORMED;
	if (frame_crc32(0, body, length) != crc)
		return FRAME_ECRC;
	*payload = body;
	*plen = length;
	return 0;
}

const char *frame_strerror(int err)
{
	switch (err) {
	case 0:
		return "success";
	case FRAME_ENOFRAME:
		return "no frame";
	case FRAME_ETRUNC:
		return "truncated frame";
	case FRAME_ECRC:
		return "frame checksum mismatch";
	case FRAME_EMALFORMED:
		return "malformed frame";
	case FRAME_ENOSPC:
		return "frame buffer too small";
	}
	return "unknown frame error";
}
