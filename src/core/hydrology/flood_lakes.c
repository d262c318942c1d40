/* The lake records (the cache, flood.h): a remembered lake's cells, dense
 * copies of their ground and pools, and a persistent heap of its rim.
 * Invariants of a live record (flood_check tests them):
 * - its cells all sit at one level (its range smin..smax is within the
 *   level tolerance when a pour uses it), lake_of[] and slot[] point at
 *   them, and its ground/depth copies and fixed-point sum match the map;
 * - its rim heap holds, for every cell next to its lake (and the sea, when
 *   it touches the map edge), an entry keyed at or below the cell's
 *   surface; stale entries are dropped or re-keyed when popped;
 * - whoever lowers a surface tells the records (flood_forget_cell, or the
 *   level writes through flood_rim_notify); a record that cannot be kept
 *   exact is dropped (flood_lake_kill), never used stale.
 * Dropping a record costs nothing but the next pour's speed. */
#include "core/hydrology/flood_internal.h"

void flood_lake_free(struct lake *k)
{
	free(k->cells);
	free(k->ground);
	free(k->depth);
	free(k->rh.a);
	*k = (struct lake){0};
}

/* Drops a record's arrays, keeping the biggest for reuse (struct flood). */
static void lake_release(struct flood *f, struct lake *k)
{
	if (k->cells && k->ground && k->depth && k->cells_cap > f->spare_cap) {
		free(f->spare_cells);
		free(f->spare_ground);
		free(f->spare_depth);
		f->spare_cells = k->cells;
		f->spare_ground = k->ground;
		f->spare_depth = k->depth;
		f->spare_cap = k->cells_cap;
		k->cells = NULL;
		k->ground = k->depth = NULL;
	}
	flood_lake_free(k);
}

/* Drops a lake record: its cells forget it. */
void flood_lake_kill(struct flood *f, uint32_t id)
{
	struct lake *k = &f->lakes[id - 1];
	if (!k->live)
		return;
	for (size_t i = 0; i < k->ncells; i++)
		if (f->lake_of[k->cells[i]] == id)
			f->lake_of[k->cells[i]] = 0;
	lake_release(f, k);
	/* free_ids has room for every record ever made (see lake_new). */
	f->free_ids[f->nfree++] = id;
}

/* The surface of `cell` may have fallen: every record whose lake it touches
 * (but `skip`) gets an entry for it, keyed `key` (a stale-low key is fine).
 * On failure the record is dropped: a missed entry could hide a leak. A
 * cell no other record's lake touches is on no rim: its mark goes (it is
 * set again by whatever puts it on a rim heap). */
void flood_rim_notify(struct flood *f, int32_t cell, double key, uint32_t skip)
{
	uint32_t done[8];
	int ndone = 0;
	int32_t nb[8];
	int m = grid_neighbours(f->width, f->height, cell, nb);
	for (int k = 0; k < m; k++) {
		uint32_t id = f->lake_of[nb[k]];
		if (!id || id == skip)
			continue;
		bool again = false;
		for (int i = 0; i < ndone; i++)
			again |= done[i] == id;
		if (again)
			continue;
		done[ndone++] = id;
		if (!heap_push(&f->lakes[id - 1].rh, key, cell))
			flood_lake_kill(f, id);
	}
	if (!ndone)
		f->rim_mark[cell] = 0;
}

void flood_forget_cell(struct flood *f, int cell)
{
	f->memo.valid = false;
	if (!watched(f, cell))
		return;
	uint32_t id = f->lake_of[cell];
	/* A lake cell may be on other lakes' rims too. */
	if (f->rim_mark[cell])
		flood_rim_notify(f, cell, -INFINITY, id);
	if (id && !flood_lake_detach(f, id, cell))
		flood_lake_kill(f, id);
}

void flood_forget_cells(struct flood *f, const uint32_t *cells, size_t n)
{
	if (n)
		f->memo.valid = false;
	/* Most cells are not watched: which are is a coin toss the branch
	 * predictor loses, so they are picked out without a branch first. */
	while (n) {
		uint32_t pick[64];
		const size_t part = n < 64 ? n : 64;
		size_t k = 0;
		for (size_t i = 0; i < part; i++) {
			pick[k] = cells[i];
			k += watched_bit(f, cells[i]);
		}
		for (size_t j = 0; j < k; j++)
			flood_forget_cell(f, (int)pick[j]);
		cells += part;
		n -= part;
	}
}

void flood_forget_all(struct flood *f)
{
	f->memo.valid = false;
	for (size_t i = 0; i < f->nlakes; i++)
		if (f->lakes[i].live)
			flood_lake_kill(f, (uint32_t)i + 1);
}

void flood_set_cache(struct flood *f, bool on)
{
	if (!on)
		flood_forget_all(f);
	f->cache = on;
}

/* Room for `n` cells in a record. */
static bool lake_reserve(struct lake *k, size_t n)
{
	if (n <= k->cells_cap)
		return true;
	size_t cap = k->cells_cap ? k->cells_cap : 16;
	while (cap < n)
		cap *= 2;
	int32_t *cells = realloc(k->cells, cap * sizeof *cells);
	if (cells)
		k->cells = cells;
	float *ground = realloc(k->ground, cap * sizeof *ground);
	if (ground)
		k->ground = ground;
	float *depth = realloc(k->depth, cap * sizeof *depth);
	if (depth)
		k->depth = depth;
	if (!cells || !ground || !depth)
		return false;
	k->cells_cap = cap;
	return true;
}

/* Appends this call's new lake cells to record `k` (lake_of, slots and the
 * dense copies, read after the pools were written). */
static void lake_append(struct flood *f, uint32_t id, struct lake *k, const float *height,
			const float *pool)
{
	if (f->written_dense) {
		/* None: the buffers may never have been allocated (NULL), and
		 * memcpy takes no NULL even for 0 bytes. */
		size_t at0 = k->ncells;
		if (f->lake_len) {
			memcpy(k->cells + at0, f->lake, f->lake_len * sizeof *k->cells);
			memcpy(k->ground + at0, f->wground, f->lake_len * sizeof *k->ground);
			memcpy(k->depth + at0, f->wdepth, f->lake_len * sizeof *k->depth);
		}
		k->sum += f->wsum;
		k->marked |= f->wmarked;
		for (size_t i = 0; i < f->lake_len; i++) {
			lake_of_set(f, f->lake[i], id);
			f->slot[f->lake[i]] = (uint32_t)(at0 + i);
		}
		k->ncells += f->lake_len;
		return;
	}
	for (size_t i = 0; i < f->lake_len; i++) {
		int32_t c = f->lake[i];
		size_t at = k->ncells++;
		k->cells[at] = c;
		k->ground[at] = height[c];
		k->depth[at] = pool[c];
		k->sum += fixed(pool[c]);
		k->marked |= f->rim_mark[c];
		lake_of_set(f, c, id);
		f->slot[c] = (uint32_t)at;
	}
}

/* Grows the start lake's record by this call's new cells, in place: its
 * rim heap already holds what this call found (leaks go back on it here).
 * False when that fails (the caller then drops the record). */
bool flood_lake_extend(struct flood *f, uint32_t id, const float *height, const float *pool,
			double smin, double smax, double edge_floor)
{
	struct lake *k = &f->lakes[id - 1];
	for (size_t i = 0; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old && old != id)
			flood_lake_kill(f, old);
	}
	if (!lake_reserve(k, k->ncells + f->lake_len))
		return false;
	lake_append(f, id, k, height, pool);
	k->smin = smin;
	k->smax = smax;
	k->edge_floor = edge_floor;
	return true;
}

/* Puts the leaks a pour from a record found back on its rim heap. */
bool flood_leaks_back(struct flood *f, const struct pour *p, struct lake *k)
{
	for (size_t i = 0; i < f->leaks_len; i++) {
		int32_t c = f->leaks[i];
		double key = p->sea_level;
		if (c != SEA_CELL) {
			key = surface(p->height, p->pool, c);
			rim_mark_set(f, c);
		}
		if (!heap_push(&k->rh, key, c))
			return false;
	}
	f->leaks_len = 0;
	return true;
}
/* Records that hold any of this call's lake cells are dropped: the cells
 * are about to change, or to belong to a new record. */
void flood_forget_lake_cells(struct flood *f, const struct pour *p)
{
	if (f->nbase)
		flood_lake_kill(f, p->cur);
	for (size_t i = 0; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old)
			flood_lake_kill(f, old);
	}
}

/* Remembers this call's lake (after flood_forget_lake_cells); on failure there is
 * simply no record. Its rim heap: every cell sorted this call and not
 * joined (leaks and rim), keyed by their surfaces now, and the sea. */
uint32_t flood_lake_remember(struct flood *f, const struct pour *p, double smin, double smax)
{
	const float *height = p->height, *pool = p->pool;
	if (f->lake_len < CACHE_MIN_CELLS)
		return 0;
	uint32_t id;
	if (f->nfree) {
		id = f->free_ids[--f->nfree];
	} else {
		if (!grow((void **)&f->lakes, &f->lakes_cap, f->nlakes + 1, sizeof *f->lakes) ||
		    !grow((void **)&f->free_ids, &f->free_cap, f->nlakes + 1, sizeof *f->free_ids))
			return 0;
		f->lakes[f->nlakes].live = false;
		id = (uint32_t)++f->nlakes;
	}
	struct lake *k = &f->lakes[id - 1];
	size_t nrim = p->sea_seen;
	for (size_t i = 0; i < f->pushed_len; i++)
		nrim += f->joined[f->pushed[i]] != f->stamp;
	*k = (struct lake){0};
	if (f->spare_cap) {
		k->cells = f->spare_cells;
		k->ground = f->spare_ground;
		k->depth = f->spare_depth;
		k->cells_cap = f->spare_cap;
		f->spare_cells = NULL;
		f->spare_ground = f->spare_depth = NULL;
		f->spare_cap = 0;
	}
	if (!lake_reserve(k, f->lake_len) ||
	    !grow((void **)&k->rh.a, &k->rh.cap, nrim + 1, sizeof *k->rh.a)) {
		flood_lake_free(k);
		f->free_ids[f->nfree++] = id;
		return 0;
	}
	struct heap *hp = &k->rh;
	if (p->sea_seen)
		hp->a[hp->len++] = (struct node){p->sea_level, SEA_CELL};
	for (size_t i = 0; i < f->pushed_len; i++) {
		int32_t c = f->pushed[i];
		if (f->joined[c] == f->stamp)
			continue;
		rim_mark_set(f, c);
		hp->a[hp->len++] = (struct node){surface(p->height, p->pool, c), c};
	}
	heapify(hp);
	k->rh_base = hp->len;
	k->rim_stale = false;
	k->smin = smin;
	k->smax = smax;
	k->edge_floor = p->edge_floor;
	k->sea_level = p->sea_level;
	k->live = true;
	lake_append(f, id, k, height, pool);
	return id;
}
