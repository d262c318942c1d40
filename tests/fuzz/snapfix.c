#include "snapfix.h"

#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "core/base/bytes.h"
#include "io/snapshot.h"
#include "io/snapshot_format.h"

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

/* Layers past this are left alone (a fuzzer's map is small). */
#define SNAPFIX_MAX_CELLS (1u << 24)

static float *raw_cells(const uint8_t *p, size_t cells)
{
	float *v = malloc(cells * sizeof *v + 1);
	if (v)
		for (size_t i = 0; i < cells; i++)
			v[i] = get_f32le(p + 4 * i);
	return v;
}

/* A runs layer decoded by the loader's own code (snapshot_runs.c). */
static float *runs_cells(const uint8_t *p, size_t length, size_t cells, float *const *decoded,
			 uint32_t index)
{
	if (length < RUNS_REF_BYTES)
		return NULL;
	uint32_t kind = le32(p), word = le32(p + 4);
	struct runs_ref r = {NULL, word};
	if (kind == RUNS_REF_LAYER) {
		if (word >= index || !decoded[word])
			return NULL;
		r.layer = decoded[word];
	}
	float *v = malloc(cells * sizeof *v + 1);
	FILE *fp = fmemopen((void *)(uintptr_t)(p + RUNS_REF_BYTES), length - RUNS_REF_BYTES + 1, "rb");
	char why[128];
	int e = v && fp ? runs_read(fp, v, &r, cells, length - RUNS_REF_BYTES, why, sizeof why) : 1;
	if (fp)
		fclose(fp);
	if (e) {
		free(v);
		return NULL;
	}
	return v;
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
	const uint32_t version = le32(d + 8);
	float *decoded[64] = {NULL};
	for (uint32_t l = 0; l < layers && l < 64; l++) {
		if (!skip_string(d, &pos, size) || size - pos < 4)
			break;
		size_t at = pos;
		pos += 4;
		uint32_t encoding = SNAPSHOT_ENC_RAW;
		uint64_t length = cells * 4;
		if (version >= 2) {
			if (size - pos < 12)
				break;
			encoding = le32(d + pos);
			length = (uint64_t)le32(d + pos + 4) | (uint64_t)le32(d + pos + 8) << 32;
			pos += 12;
		}
		if (length > size - pos || cells > SNAPFIX_MAX_CELLS)
			break;
		if (encoding == SNAPSHOT_ENC_RAW && length == cells * 4)
			decoded[l] = raw_cells(d + pos, (size_t)cells);
		else if (encoding == SNAPSHOT_ENC_RUNS)
			decoded[l] = runs_cells(d + pos, (size_t)length, (size_t)cells, decoded, l);
		if (!decoded[l])
			break;
		put32(d + at, snapshot_cells_crc(decoded[l], (size_t)cells));
		pos += (size_t)length;
		fixed++;
	}
	for (int l = 0; l < 64; l++)
		free(decoded[l]);
	return fixed;
}
