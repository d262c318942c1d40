#include "snapfix.h"

#include <zlib.h>

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* Skips n bytes; 0 when they are not there. */
static int skip(size_t *pos, size_t size, uint64_t n)
{
	if (n > size - *pos)
		return 0;
	*pos += (size_t)n;
	return 1;
}

/* A length-prefixed string. */
static int skip_string(const uint8_t *d, size_t *pos, size_t size)
{
	if (size - *pos < 4)
		return 0;
	uint32_t n = le32(d + *pos);
	*pos += 4;
	return skip(pos, size, n);
}

static uint32_t crc_of(const uint8_t *p, size_t n)
{
	return (uint32_t)crc32_z(crc32(0L, Z_NULL, 0), p, n);
}

int snapfix_crcs(uint8_t *d, size_t size)
{
	size_t pos = 0;
	if (!skip(&pos, size, 12) || size - pos < 8)
		return 0;
	uint64_t cells = (uint64_t)le32(d + 12) * le32(d + 16);
	if (!skip(&pos, size, 8 + 16) || size - pos < 4)
		return 0;
	uint32_t tallies = le32(d + pos);
	pos += 4;
	for (uint32_t t = 0; t < tallies; t++)
		if (!skip_string(d, &pos, size) || !skip(&pos, size, 8))
			return 0;
	if (!skip(&pos, size, 16))
		return 0;
	for (int s = 0; s < 4; s++) /* process, parameters, preset, state */
		if (!skip_string(d, &pos, size))
			return 0;
	if (size - pos < 8)
		return 0;
	uint32_t layers = le32(d + pos);
	pos += 4;
	put32(d + pos, crc_of(d, pos));
	pos += 4;
	int fixed = 1;
	for (uint32_t l = 0; l < layers; l++) {
		if (!skip_string(d, &pos, size) || size - pos < 4)
			break;
		size_t at = pos;
		pos += 4;
		if (cells * 4 > size - pos)
			break;
		put32(d + at, crc_of(d + pos, (size_t)cells * 4));
		pos += (size_t)cells * 4;
		fixed++;
	}
	return fixed;
}
