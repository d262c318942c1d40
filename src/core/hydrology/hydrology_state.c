/* The hydrology state in snapshots (the flood's lake records are rebuilt,
 * not saved).
 * Little-endian: "GHYD", u32 version 1, u32 width, u32 height, u32 trees,
 * then per tree i32 cell and f32 size, then the batch's track map as bits. */
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"

#define STATE_MAGIC 0x44594847u /* "GHYD" read as a little-endian u32 */
#define STATE_VERSION 1u

int hydro_save_state(const void *state, unsigned char **data, size_t *len)
{
	const struct hydro_state *s = state;
	size_t n = (size_t)s->width * (size_t)s->height;
	if (s->ntrees > UINT32_MAX)
		return GULLY_ERANGE;
	size_t size = 20 + 8 * s->ntrees + (n + 7) / 8;
	unsigned char *p = calloc(1, size);
	if (!p)
		return GULLY_ENOMEM;
	put_u32le(p, STATE_MAGIC);
	put_u32le(p + 4, STATE_VERSION);
	put_u32le(p + 8, (uint32_t)s->width);
	put_u32le(p + 12, (uint32_t)s->height);
	put_u32le(p + 16, (uint32_t)s->ntrees);
	unsigned char *q = p + 20;
	for (size_t i = 0; i < s->ntrees; i++, q += 8) {
		uint32_t bits;
		memcpy(&bits, &s->trees[i].size, 4);
		put_u32le(q, (uint32_t)s->trees[i].cell);
		put_u32le(q + 4, bits);
	}
	for (size_t i = 0; i < n; i++)
		if (s->track[i])
			q[i / 8] |= (unsigned char)(1u << (i % 8));
	*data = p;
	*len = size;
	return GULLY_OK;
}

int hydro_load_state(void *state, const unsigned char *data, size_t len)
{
	struct hydro_state *s = state;
	size_t n = (size_t)s->width * (size_t)s->height;
	if (len < 20 || get_u32le(data) != STATE_MAGIC || get_u32le(data + 4) != STATE_VERSION ||
	    get_u32le(data + 8) != (uint32_t)s->width || get_u32le(data + 12) != (uint32_t)s->height)
		return GULLY_EFORMAT;
	size_t ntrees = get_u32le(data + 16);
	if (ntrees > n || len != 20 + 8 * ntrees + (n + 7) / 8)
		return GULLY_EFORMAT;
	/* Check everything before changing anything. */
	const unsigned char *q = data + 20;
	for (size_t i = 0; i < ntrees; i++) {
		uint32_t cell = get_u32le(q + 8 * i), bits = get_u32le(q + 8 * i + 4);
		float size;
		memcpy(&size, &bits, 4);
		if (cell >= n || !(size >= 0.0f && size <= 1.0f))
			return GULLY_EFORMAT;
	}
	uint8_t *roots = calloc(n, 1);
	struct tree *trees = ntrees ? malloc(ntrees * sizeof *trees) : NULL;
	if (!roots || (ntrees && !trees)) {
		free(roots);
		free(trees);
		return GULLY_ENOMEM;
	}
	for (size_t i = 0; i < ntrees; i++) {
		trees[i].cell = (int32_t)get_u32le(q + 8 * i);
		uint32_t bits = get_u32le(q + 8 * i + 4);
		memcpy(&trees[i].size, &bits, 4);
		/* Two trees on one cell never happen in a run. */
		if (roots[trees[i].cell]) {
			free(roots);
			free(trees);
			return GULLY_EFORMAT;
		}
		roots[trees[i].cell] = 1;
	}
	free(s->trees);
	s->trees = trees;
	s->ntrees = s->cap = ntrees;
	memset(s->roots, 0, n);
	memset(s->w->layer[LAYER_VEGETATION], 0, n * sizeof(float));
	free(roots);
	for (size_t i = 0; i < ntrees; i++)
		hydro_root(s, trees[i].cell, +1);
	const unsigned char *bits = q + 8 * ntrees;
	for (size_t i = 0; i < n; i++)
		s->track[i] = (bits[i / 8] >> (i % 8)) & 1u;
	hstream_relist(&s->hs);
	return GULLY_OK;
}
