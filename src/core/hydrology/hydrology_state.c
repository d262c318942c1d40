/* The hydrology state in snapshots (the flood's lake records are rebuilt,
 * not saved).
 * Little-endian: "GHYD", u32 version 2, u32 width, u32 height, u32 trees,
 * u64 batches ended, u64 the trees' key, u64 the next serial, then per tree
 * in birth order i32 cell, u64 serial, u64 next seeding, u64 death by
 * chance, then the batch's track map as bits.
 * Droplets in flight in lanes, when there are any, follow as hlanes.h's
 * "GHLN" blob.
 * Version 1 (before the trees' events) held per tree i32 cell and f32
 * size; its trees are read in order and draw their events afresh. */
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/hydrology/hlanes.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"

#define STATE_MAGIC 0x44594847u /* "GHYD" read as a little-endian u32 */
#define STATE_VERSION 2u
#define HEAD_V1 20u
#define TREE_V1 8u
#define HEAD_V2 44u
#define TREE_V2 28u

static uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32le(p) | (uint64_t)get_u32le(p + 4) << 32;
}

static void put_u64(unsigned char *p, uint64_t v)
{
	put_u32le(p, (uint32_t)v);
	put_u32le(p + 4, (uint32_t)(v >> 32));
}

static int by_serial(const void *a, const void *b)
{
	uint64_t x = ((const struct tree *)a)->serial, y = ((const struct tree *)b)->serial;
	return (x > y) - (x < y);
}

/* Droplets in flight in lanes follow the blob (hlanes.h, "GHLN"); a state
 * without any is the blob alone, as before the lanes. */
static int append_lanes(const struct hydro_state *s, unsigned char **data, size_t *len)
{
	unsigned char *lanes;
	size_t nlanes;
	int err = hlanes_save(s->lanes, &lanes, &nlanes);
	unsigned char *both = err ? NULL : realloc(*data, *len + nlanes);
	if (!both) {
		free(*data);
		*data = NULL;
		if (!err)
			free(lanes);
		return err ? err : GULLY_ENOMEM;
	}
	memcpy(both + *len, lanes, nlanes);
	free(lanes);
	*data = both;
	*len += nlanes;
	return GULLY_OK;
}

int hydro_save_state(const void *state, unsigned char **data, size_t *len)
{
	const struct hydro_state *s = state;
	const struct forest *f = &s->forest;
	size_t n = (size_t)s->width * (size_t)s->height;
	/* The world's stream layer would lag behind this state: the caller
	 * catches up first (process.h, catch_up). */
	if (s->lag && s->hs.now)
		return GULLY_EINVAL;
	if (f->live > UINT32_MAX)
		return GULLY_ERANGE;
	struct tree *live = f->live ? malloc(f->live * sizeof *live) : NULL;
	size_t size = HEAD_V2 + TREE_V2 * f->live + (n + 7) / 8;
	unsigned char *p = calloc(1, size);
	if (!p || (f->live && !live)) {
		free(live);
		free(p);
		return GULLY_ENOMEM;
	}
	size_t k = 0;
	for (size_t i = 0; i < f->slots; i++)
		if (f->trees[i].cell >= 0)
			live[k++] = f->trees[i];
	if (k > 1)
		qsort(live, k, sizeof *live, by_serial);
	put_u32le(p, STATE_MAGIC);
	put_u32le(p + 4, STATE_VERSION);
	put_u32le(p + 8, (uint32_t)s->width);
	put_u32le(p + 12, (uint32_t)s->height);
	put_u32le(p + 16, (uint32_t)k);
	put_u64(p + 20, f->now);
	put_u64(p + 28, f->key);
	put_u64(p + 36, f->next_serial);
	unsigned char *q = p + HEAD_V2;
	for (size_t i = 0; i < k; i++, q += TREE_V2) {
		put_u32le(q, (uint32_t)live[i].cell);
		put_u64(q + 4, live[i].serial);
		put_u64(q + 12, live[i].seed_at);
		put_u64(q + 20, live[i].die_at);
	}
	free(live);
	for (size_t i = 0; i < n; i++)
		if (s->track[i])
			q[i / 8] |= (unsigned char)(1u << (i % 8));
	*data = p;
	*len = size;
	return hlanes_in_flight(s->lanes) ? append_lanes(s, data, len) : GULLY_OK;
}

/* The blob's trees, checked: on the map, one per cell, serials rising and
 * below the next, events not yet past. Version 1's: cells and sizes. */
static int read_trees(const unsigned char *q, size_t ntrees, uint32_t version, size_t n,
		      uint64_t now, uint64_t next, struct tree *out)
{
	uint8_t *seen = calloc(n, 1);
	if (!seen)
		return GULLY_ENOMEM;
	int err = GULLY_OK;
	for (size_t i = 0; i < ntrees && !err; i++) {
		struct tree *t = &out[i];
		uint32_t cell = get_u32le(q);
		if (version == 1) {
			uint32_t bits = get_u32le(q + 4);
			float size;
			memcpy(&size, &bits, 4);
			*t = (struct tree){(int32_t)cell, i, TREE_UNDRAWN, TREE_UNDRAWN};
			err = !(size >= 0.0f && size <= 1.0f);
			q += TREE_V1;
		} else {
			*t = (struct tree){(int32_t)cell, get_u64(q + 4), get_u64(q + 12),
					   get_u64(q + 20)};
			bool undrawn = t->seed_at == TREE_UNDRAWN && t->die_at == TREE_UNDRAWN;
			err = t->serial >= next || (i && t->serial <= out[i - 1].serial) ||
			      (!undrawn && (t->seed_at < now || t->die_at < now ||
					    t->seed_at == TREE_UNDRAWN || t->die_at == TREE_UNDRAWN));
			q += TREE_V2;
		}
		/* Two trees on one cell never happen in a run. */
		err = err || cell >= n || seen[cell];
		if (!err)
			seen[cell] = 1;
	}
	free(seen);
	return err == GULLY_ENOMEM ? err : err ? GULLY_EFORMAT : GULLY_OK;
}

static void forest_clear(struct hydro_state *s)
{
	struct forest *f = &s->forest;
	tree_map_clear(&f->at);
	f->slots = f->live = f->nfree = 0;
	for (size_t i = 0; i < TREE_WHEEL; i++)
		f->wheel[i].n = 0;
	f->far.n = f->tracked.n = 0;
	f->next_serial = 0;
	f->undrawn = false;
}

int hydro_load_state(void *state, const unsigned char *data, size_t len)
{
	struct hydro_state *s = state;
	struct forest *f = &s->forest;
	size_t n = (size_t)s->width * (size_t)s->height;
	if (len < HEAD_V1 || get_u32le(data) != STATE_MAGIC ||
	    get_u32le(data + 8) != (uint32_t)s->width || get_u32le(data + 12) != (uint32_t)s->height)
		return GULLY_EFORMAT;
	uint32_t version = get_u32le(data + 4);
	size_t head = version == 1 ? HEAD_V1 : HEAD_V2, each = version == 1 ? TREE_V1 : TREE_V2;
	size_t ntrees = get_u32le(data + 16);
	const size_t body = head + each * ntrees + (n + 7) / 8;
	if ((version != 1 && version != 2) || ntrees > n || len < body ||
	    (len > body && version != 2))
		return GULLY_EFORMAT;
	/* Droplets in flight, if any, checked into a spare set of lanes. */
	struct hlanes *lanes = hlanes_create(s->width, s->height);
	if (!lanes)
		return GULLY_ENOMEM;
	int lerr = len > body ? hlanes_load(lanes, data + body, len - body) : GULLY_OK;
	if (lerr) {
		hlanes_destroy(lanes);
		return lerr;
	}
	uint64_t now = version == 1 ? 0 : get_u64(data + 20);
	uint64_t key = version == 1 ? f->key : get_u64(data + 28);
	uint64_t next = version == 1 ? ntrees : get_u64(data + 36);
	/* Check everything before changing anything. */
	struct tree *trees = ntrees ? malloc(ntrees * sizeof *trees) : NULL;
	int err = ntrees && !trees ? GULLY_ENOMEM
				   : read_trees(data + head, ntrees, version, n, now, next, trees);
	if (err) {
		free(trees);
		hlanes_destroy(lanes);
		return err;
	}
	hlanes_destroy(lanes);
	/* Checked above: it cannot fail now. */
	if (len > body)
		hlanes_load(s->lanes, data + body, len - body);
	else
		hlanes_clear(s->lanes);
	forest_clear(s);
	memset(s->roots, 0, n);
	memset(s->w->layer[LAYER_VEGETATION], 0, n * sizeof(float));
	f->now = now;
	f->key = key;
	for (size_t i = 0; i < ntrees && !err; i++) {
		err = hydro_tree_plant(s, trees[i].cell, trees[i].serial, trees[i].seed_at,
				       trees[i].die_at);
	}
	f->next_serial = next;
	free(trees);
	if (err)
		return err;
	const unsigned char *bits = data + head + each * ntrees;
	for (size_t i = 0; i < n; i++)
		s->track[i] = (bits[i / 8] >> (i % 8)) & 1u;
	hstream_relist(&s->hs);
	return GULLY_OK;
}
