#include "core/hydrology/flood.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/world.h"
#include "core/hydrology/flood_heap.h"

/* SSE2 is the x86_64 baseline; elsewhere, or with -DGULLY_NO_SIMD, the
 * scalar loop (the same bits: see record_depths). */
#if defined(__SSE2__) && !defined(GULLY_NO_SIMD)
#define FLOOD_SSE2 1
#include <emmintrin.h>
#else
#define FLOOD_SSE2 0
#endif
/* An AVX2 copy of a record's level write (record_level_avx2), picked at run
 * time as the particles' pair loop is (particles_pair.c). */
#if FLOOD_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define FLOOD_HAVE_AVX2 1
#include <immintrin.h>
#else
#define FLOOD_HAVE_AVX2 0
#endif

/* The heap's stand-in for the sea beyond the map edge. */
#define SEA_CELL (-1)
/* A lake's float pools put its surface within an ulp or so of its level;
 * surfaces this close (relative) count as the same level, so the rounding of
 * the last write never reads as a leak. */
#define LEVEL_TOL (8.0 * FLT_EPSILON)
/* Pool sums are kept in fixed point, 2^-53 units: a sum that does not depend
 * on the order cells were visited in (see flood.h on the lake cache). They
 * are unsigned, so a lake holding 1024 units or more wraps (defined) instead
 * of overflowing (undefined): a change of less than that (every pour of a
 * droplet) still comes out exact, as the difference of two sums mod 2^64. */
#define FIX_ONE 9007199254740992.0
/* The one cap on a pool's depth, which snapshots are held to too. */
#define POOL_MAX WORLD_POOL_MAX
/* Lakes smaller than this are cheap to flood afresh: not worth a record. */
#define CACHE_MIN_CELLS 16

/* A remembered lake: cells that share one level, and a persistent heap of
 * the cells around them (its rim). The rim heap holds, for every cell a
 * fresh flood of the lake would sort as rim (and the sea, when the lake
 * touches the map edge), at least one entry whose key is at most the cell's
 * surface. Entries may be stale-low (the surface rose: a pop re-keys them),
 * duplicated, or belong to cells that are no longer rim (in the lake, or
 * cut off by lake_detach): pops drop those. A stale-high entry alone would
 * hide a leak, so every fall of a rim cell's surface pushes a new entry:
 * flood_forget_cell and the pool writes of other lakes do (rim_mark). */
struct lake {
	int32_t *cells;
	/* Dense copies of its cells' ground and pool, and the fixed-point sum
	 * of the pools: a level change rewrites them without gathering. Kept
	 * exact by the forget protocol (a cell whose height changes leaves). */
	float *ground, *depth;
	uint64_t sum;
	size_t ncells, cells_cap;
	struct heap rh;
	size_t rh_base; /* entries after the last compaction */
	bool rim_stale; /* may hold cells no longer next to the lake (lake_detach) */
	/* A cell left it (lake_detach) through a ring gap the box around it
	 * could not close: it may be in pieces. The next pour from it walks it
	 * once (lake_settle_split), however many cells left meanwhile. */
	bool split;
	double smin, smax;  /* range of its cells' surfaces */
	double edge_floor;  /* lowest ground among its map-edge cells */
	double gtop;        /* no cell's ground is above this (the cut of the
			     * last shed: see flood_pour) */
	double sea_level;   /* the sea's surface its rim heap was keyed with */
	bool marked;        /* some of its cells may be on other records' rims */
	bool live;
};

struct flood {
	int width, height;
	size_t n;
	uint32_t *seen;   /* seen[c] == stamp: c was classified this call */
	uint32_t *joined; /* joined[c] == stamp: c is in this call's lake */
	uint32_t stamp;
	int32_t off[8];   /* an interior cell's neighbours */
	struct heap heap; /* a fresh pour's rim */
	int32_t *stack; /* level cells waiting to join */
	size_t stack_len, stack_cap;
	int32_t *lake;
	size_t lake_len, lake_cap;
	size_t nbase; /* a pour from a record: its cells, in the lake but not in f->lake */
	int32_t *pushed; /* every cell classified this call */
	size_t pushed_len, pushed_cap;
	int32_t *leaks; /* leaks a pour from a record found: back on its rim heap */
	size_t leaks_len, leaks_cap;
	int32_t *queue; /* lake_walk's walk */
	size_t queue_cap;
	/* write_pools' output in f->lake's order, for lake_append */
	float *wground, *wdepth;
	size_t wground_cap, wdepth_cap;
	uint64_t wsum;
	bool wmarked, written_dense;
	/* Cells a level write left dry (ground above the cut: see
	 * lake_shed_dry), in the order the record will hold them; the write
	 * takes the range of the other cells' surfaces, so the shed needs no
	 * pass of its own. */
	int32_t *dry;
	size_t dry_len, dry_cap;
	/* The biggest arrays of a dropped record, kept for the next one (one
	 * lake's worth of memory at most): a big lake dropped and remembered
	 * again does not fault in fresh pages every time. */
	int32_t *spare_cells;
	float *spare_ground, *spare_depth;
	size_t spare_cap;
	uint8_t *rim_mark; /* 1: the cell may be on some record's rim heap */
	/* the lake cache */
	bool cache;
	uint32_t *lake_of; /* cell -> lake index + 1; 0: none */
	uint32_t *slot;    /* cell -> its index in its lake's cells */
	struct lake *lakes;
	size_t nlakes, lakes_cap;
	uint32_t *free_ids;
	size_t nfree, free_cap;
	struct flood_counters count;
	bool avx2; /* record writes take record_level_avx2 */
};

/* Exact for every float >= 2^-30 (then v * 2^53 is a whole number below
 * 2^63 for v < POOL_MAX); smaller ones truncate, the same way every time. */
static inline uint64_t fixed(float v)
{
	return (uint64_t)((double)v * FIX_ONE);
}

/* A wrapped fixed-point change back to its sign. */
static inline int64_t fix_signed(uint64_t u)
{
	return u <= (uint64_t)INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

static bool grow(void **arr, size_t *cap, size_t need, size_t size)
{
	if (need <= *cap)
		return true;
	size_t n = *cap ? *cap : 256;
	while (n < need)
		n *= 2;
	void *p = realloc(*arr, n * size);
	if (!p)
		return false;
	*arr = p;
	*cap = n;
	return true;
}

int flood_create(struct flood **out, int width, int height)
{
	*out = NULL;
	if (width < 2 || height < 2)
		return GULLY_EINVAL;
	struct flood *f = calloc(1, sizeof *f);
	if (!f)
		return GULLY_ENOMEM;
	f->width = width;
	f->height = height;
	f->n = (size_t)width * (size_t)height;
	const int32_t off[8] = {1, -1, width, -width, width + 1, 1 - width, width - 1, -width - 1};
	memcpy(f->off, off, sizeof off);
	f->seen = calloc(f->n, sizeof *f->seen);
	f->joined = calloc(f->n, sizeof *f->joined);
	f->lake_of = calloc(f->n, sizeof *f->lake_of);
	f->slot = calloc(f->n, sizeof *f->slot);
	f->rim_mark = calloc(f->n, sizeof *f->rim_mark);
	f->cache = true;
	flood_set_avx2(f, true);
	if (!f->seen || !f->joined || !f->lake_of || !f->slot || !f->rim_mark) {
		flood_destroy(f);
		return GULLY_ENOMEM;
	}
	*out = f;
	return GULLY_OK;
}

static void lake_free(struct lake *k)
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
	lake_free(k);
}

void flood_destroy(struct flood *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->nlakes; i++)
		lake_free(&f->lakes[i]);
	free(f->lakes);
	free(f->free_ids);
	free(f->lake_of);
	free(f->slot);
	free(f->rim_mark);
	free(f->seen);
	free(f->joined);
	free(f->heap.a);
	free(f->stack);
	free(f->lake);
	free(f->pushed);
	free(f->leaks);
	free(f->queue);
	free(f->wground);
	free(f->wdepth);
	free(f->dry);
	free(f->spare_cells);
	free(f->spare_ground);
	free(f->spare_depth);
	free(f);
}

void flood_counters(const struct flood *f, struct flood_counters *c)
{
	*c = f->count;
}

/* `c` goes on a rim heap: its mark, and its own record's (if any), so a
 * write of that record looks for the cell's other records. */
static inline void rim_mark_set(struct flood *f, int32_t c)
{
	f->rim_mark[c] = 1;
	uint32_t id = f->lake_of[c];
	if (id)
		f->lakes[id - 1].marked = true;
}


/* Drops a lake record: its cells forget it. */
static void lake_kill(struct flood *f, uint32_t id)
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

static void next_stamp(struct flood *f)
{
	if (++f->stamp == 0) {
		memset(f->seen, 0, f->n * sizeof *f->seen);
		memset(f->joined, 0, f->n * sizeof *f->joined);
		f->stamp = 1;
	}
}

/* True when taking `c` out of record `id` keeps the rest connected for a
 * local reason: its neighbours in the lake form one 8-connected run around
 * it (no gap in the ring). */
static bool ring_ok(const struct flood *f, uint32_t id, int32_t c)
{
	const int w = f->width;
	/* The ring in order: E, SE, S, SW, W, NW, N, NE (even: sides). */
	const int32_t off[8] = {1, w + 1, w, w - 1, -1, -w - 1, -w, 1 - w};
	bool in[8];
	int members = 0;
	for (int i = 0; i < 8; i++) {
		in[i] = f->lake_of[c + off[i]] == id;
		members += in[i];
	}
	/* Components of the ring's members: neighbours along the ring touch,
	 * and so do consecutive sides (E and S are diagonal to each other). */
	int parent[8];
	for (int i = 0; i < 8; i++)
		parent[i] = i;
	int comps = members;
	for (int i = 0; i < 8; i++) {
		if (!in[i])
			continue;
		int links[2] = {(i + 1) % 8, (i + 2) % 8};
		int nlinks = i % 2 == 0 ? 2 : 1;
		for (int l = 0; l < nlinks; l++) {
			int j = links[l];
			if (!in[j])
				continue;
			int a = i, b = j;
			while (parent[a] != a)
				a = parent[a];
			while (parent[b] != b)
				b = parent[b];
			if (a != b) {
				parent[a] = b;
				comps--;
			}
		}
	}
	return comps == 1;
}

/* True when the lake cells around `c` still meet without it inside the
 * (2R+1)^2 box around it: the ring's runs are joined a little further out
 * (round a small island or a bay). A walk of at most (2R+1)^2 cells. */
#define NEAR_R 3
static bool ring_rejoins(const struct flood *f, uint32_t id, int32_t c)
{
	enum { S = 2 * NEAR_R + 1 };
	const int w = f->width, hh = f->height;
	int cx = c % w, cy = c / w;
	bool in[S][S], seen[S][S];
	for (int j = 0; j < S; j++) {
		for (int i = 0; i < S; i++) {
			int x = cx + i - NEAR_R, y = cy + j - NEAR_R;
			in[j][i] = x >= 0 && y >= 0 && x < w && y < hh && f->lake_of[y * w + x] == id;
			seen[j][i] = false;
		}
	}
	in[NEAR_R][NEAR_R] = false;
	int qx[S * S], qy[S * S], head = 0, tail = 0;
	for (int j = NEAR_R - 1; j <= NEAR_R + 1 && !tail; j++) {
		for (int i = NEAR_R - 1; i <= NEAR_R + 1 && !tail; i++) {
			if (in[j][i]) {
				seen[j][i] = true;
				qx[tail] = i;
				qy[tail++] = j;
			}
		}
	}
	while (head < tail) {
		int i0 = qx[head], j0 = qy[head++];
		for (int dj = -1; dj <= 1; dj++) {
			for (int di = -1; di <= 1; di++) {
				int i = i0 + di, j = j0 + dj;
				if (i < 0 || j < 0 || i >= S || j >= S || !in[j][i] || seen[j][i])
					continue;
				seen[j][i] = true;
				qx[tail] = i;
				qy[tail++] = j;
			}
		}
	}
	for (int j = NEAR_R - 1; j <= NEAR_R + 1; j++)
		for (int i = NEAR_R - 1; i <= NEAR_R + 1; i++)
			if (in[j][i] && !seen[j][i])
				return false;
	return true;
}

/* Takes `c` out of record `id` and puts it on its rim. False: no memory. */
static bool lake_remove(struct flood *f, uint32_t id, int32_t c)
{
	struct lake *k = &f->lakes[id - 1];
	/* Its new surface is not known here: a key below every surface is
	 * stale-low, and the next pop re-keys it. */
	if (!heap_push(&k->rh, -INFINITY, c))
		return false;
	f->rim_mark[c] = 1;
	uint32_t at = f->slot[c];
	k->sum -= fixed(k->depth[at]);
	size_t end = --k->ncells;
	int32_t last = k->cells[end];
	k->cells[at] = last;
	k->ground[at] = k->ground[end];
	k->depth[at] = k->depth[end];
	f->slot[last] = at;
	f->lake_of[c] = 0;
	/* Cells beside c that touched the lake only through c are rim no more:
	 * pops check that until the next compaction. */
	k->rim_stale = true;
	return true;
}

/* How many of record `id`'s cells are 8-connected to its cell `from` (a
 * walk over them: cheaper than a fresh flood of the lake, which sorts its
 * rim too); those reached carry this call's stamp in `seen` until the next
 * stamp. 0 when out of memory. */
static size_t lake_walk(struct flood *f, uint32_t id, int32_t from)
{
	const struct lake *k = &f->lakes[id - 1];
	if (!k->ncells)
		return 0;
	if (!grow((void **)&f->queue, &f->queue_cap, k->ncells, sizeof *f->queue))
		return 0;
	next_stamp(f);
	const int w = f->width, hh = f->height;
	int32_t *q = f->queue;
	size_t head = 0, tail = 0;
	q[tail++] = from;
	f->seen[from] = f->stamp;
	const int32_t *off = f->off;
	const uint32_t *lake_of = f->lake_of;
	uint32_t *seen = f->seen;
	const uint32_t stamp = f->stamp;
	while (head < tail) {
		int32_t c = q[head++];
		int x = c % w, y = c / w;
		if (x > 0 && y > 0 && x < w - 1 && y < hh - 1) {
			/* Inside the map: eight offsets, no bounds to check. */
			for (int j = 0; j < 8; j++) {
				int32_t n = c + off[j];
				if (lake_of[n] == id && seen[n] != stamp) {
					seen[n] = stamp;
					q[tail++] = n;
				}
			}
			continue;
		}
		for (int dy = -1; dy <= 1; dy++) {
			for (int dx = -1; dx <= 1; dx++) {
				int nx = x + dx, ny = y + dy;
				if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
					continue;
				int32_t n = ny * w + nx;
				if (f->lake_of[n] == id && f->seen[n] != f->stamp) {
					f->seen[n] = f->stamp;
					q[tail++] = n;
				}
			}
		}
	}
	return tail;
}

/* After lake_walk found record `id` in pieces: it keeps the piece the walk
 * reached (the other cells leave it; none of them touches that piece, so
 * none is on its rim) when that is big enough to be worth a record, and
 * takes its range and edge floor again. A fresh flood from a cell of the
 * piece finds the piece and what its rim heap leads to, as from any
 * record; a pour into another piece starts afresh. False: drop it. */
static bool lake_keep_walked(struct flood *f, uint32_t id, size_t reached)
{
	struct lake *k = &f->lakes[id - 1];
	if (reached < CACHE_MIN_CELLS)
		return false;
	const int w = f->width, hh = f->height;
	double lo = INFINITY, hi = -INFINITY, floor = INFINITY;
	size_t j = 0;
	for (size_t i = 0; i < k->ncells; i++) {
		int32_t c = k->cells[i];
		if (f->seen[c] != f->stamp) {
			f->lake_of[c] = 0;
			k->sum -= fixed(k->depth[i]);
			continue;
		}
		float g = k->ground[i];
		double s = (double)g + (double)k->depth[i];
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
		int x = c % w, y = c / w;
		if ((x == 0 || y == 0 || x == w - 1 || y == hh - 1) && g < floor)
			floor = g;
		k->cells[j] = c;
		k->ground[j] = g;
		k->depth[j] = k->depth[i];
		f->slot[c] = (uint32_t)j;
		j++;
	}
	k->ncells = j;
	k->smin = lo;
	k->smax = hi;
	k->edge_floor = floor;
	/* Cells next to the pieces that left may still be on the rim heap. */
	k->rim_stale = true;
	return true;
}

/* Takes one changed cell out of its lake's record, when what is left is
 * what a fresh flood would find: the remaining cells are all still at the
 * level (their surfaces did not move) and still connected (a gapless ring
 * around it says so at once, or its runs meeting a little further out).
 * The cell goes on
 * the rim, where the next pour sorts it by its new surface. An edge cell
 * (the sea's floor) or a lake cut in two drops the record instead. */
static bool lake_detach(struct flood *f, uint32_t id, int32_t c)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	if (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1 || k->ncells < 2)
		return false;
	if (!ring_ok(f, id, c) && !ring_rejoins(f, id, c)) {
		/* Maybe in pieces: the next pour from it finds out (and a
		 * record is worth keeping while no pour comes). */
		if (!lake_remove(f, id, c))
			return false;
		k->split = true;
		return true;
	}
	return lake_remove(f, id, c);
}

/* Before a pour from cell `start` of a record that may be in pieces: one
 * walk from `start` keeps the piece it is in (what a fresh flood from it
 * finds, as after a drain's shed: lake_keep_walked), or drops the record. */
static void lake_settle_split(struct flood *f, uint32_t id, int32_t start)
{
	struct lake *k = &f->lakes[id - 1];
	size_t reached = lake_walk(f, id, start);
	bool ok = reached && (reached == k->ncells || lake_keep_walked(f, id, reached));
	next_stamp(f);
	if (ok)
		k->split = false;
	else
		lake_kill(f, id);
}

/* The surface of `cell` may have fallen: every record whose lake it touches
 * (but `skip`) gets an entry for it, keyed `key` (a stale-low key is fine).
 * On failure the record is dropped: a missed entry could hide a leak. A
 * cell no other record's lake touches is on no rim: its mark goes (it is
 * set again by whatever puts it on a rim heap). */
static void rim_notify(struct flood *f, int32_t cell, double key, uint32_t skip)
{
	const int w = f->width, hh = f->height;
	int x = cell % w, y = cell / w;
	uint32_t done[8];
	int ndone = 0;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hh)
				continue;
			uint32_t id = f->lake_of[ny * w + nx];
			if (!id || id == skip)
				continue;
			bool again = false;
			for (int i = 0; i < ndone; i++)
				again |= done[i] == id;
			if (again)
				continue;
			done[ndone++] = id;
			if (!heap_push(&f->lakes[id - 1].rh, key, cell))
				lake_kill(f, id);
		}
	}
	if (!ndone)
		f->rim_mark[cell] = 0;
}

void flood_forget_cell(struct flood *f, int cell)
{
	uint32_t id = f->lake_of[cell];
	/* A lake cell may be on other lakes' rims too. */
	if (f->rim_mark[cell])
		rim_notify(f, cell, -INFINITY, id);
	if (id && !lake_detach(f, id, cell))
		lake_kill(f, id);
}

void flood_forget_all(struct flood *f)
{
	for (size_t i = 0; i < f->nlakes; i++)
		if (f->lakes[i].live)
			lake_kill(f, (uint32_t)i + 1);
}

void flood_set_cache(struct flood *f, bool on)
{
	if (!on)
		flood_forget_all(f);
	f->cache = on;
}


static inline double surface(const float *height, const float *pool, int32_t c)
{
	return (double)height[c] + (double)pool[c];
}

/* One pour's working state. */
struct pour {
	const float *height, *pool;
	double level, tol, sea_level;
	bool sea_seen;
	/* the lowest leak found so far: lowest surface, then lowest cell */
	bool leak;
	int32_t leak_cell; /* SEA_CELL for the sea */
	double leak_key;
	double edge_floor;
	/* The remembered lake this pour started from (NO_LAKE: none). Its cells
	 * are in the lake without a stamp: lake_of says so. */
	uint32_t cur;
	struct heap *heap; /* f->heap, or the record's rim heap */
	bool stale;        /* the heap may hold cells cut off from the lake */
};

#define NO_LAKE UINT32_MAX

static inline bool in_lake(const struct flood *f, const struct pour *p, int32_t c)
{
	return f->joined[c] == f->stamp || f->lake_of[c] == p->cur;
}

static void leak_offer(struct pour *p, double key, int32_t cell)
{
	if (!p->leak || key < p->leak_key || (key == p->leak_key && cell < p->leak_cell)) {
		p->leak = true;
		p->leak_key = key;
		p->leak_cell = cell;
	}
}

/* Sorts a newly seen cell by its surface against the level: a leak below it,
 * a level cell that joins now, or a rim cell for the heap. */
static bool classify(struct flood *f, struct pour *p, int32_t c)
{
	f->seen[c] = f->stamp;
	f->pushed[f->pushed_len++] = c;
	double key = surface(p->height, p->pool, c);
	if (key < p->level - p->tol) {
		leak_offer(p, key, c);
		/* A record's leaks stay on its rim heap. */
		if (p->cur != NO_LAKE)
			f->leaks[f->leaks_len++] = c;
		return true;
	}
	if (key <= p->level + p->tol) {
		f->stack[f->stack_len++] = c;
		return true;
	}
	/* A record's rim heap keeps it: marked, so its surface changes reach
	 * the record. (A fresh pour's rim is marked if it is remembered.) */
	if (p->cur != NO_LAKE)
		rim_mark_set(f, c);
	return heap_push(p->heap, key, c);
}

static bool see_sea(struct flood *f, struct pour *p)
{
	if (p->sea_seen)
		return true;
	p->sea_seen = true;
	/* Water at or above the sea's surface runs into it. */
	if (p->sea_level <= p->level + p->tol) {
		leak_offer(p, p->sea_level, SEA_CELL);
		if (p->cur != NO_LAKE) {
			if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks))
				return false;
			f->leaks[f->leaks_len++] = SEA_CELL;
		}
		return true;
	}
	return heap_push(p->heap, p->sea_level, SEA_CELL);
}

/* True when a cell next to `c` is one of the start record's cells: then c
 * is on its rim, and its rim heap holds it. */
static bool touches_record(const struct flood *f, const struct pour *p, int32_t c)
{
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
				continue;
			if (f->lake_of[ny * w + nx] == p->cur)
				return true;
		}
	}
	return false;
}

/* A new neighbour of a joined cell is sorted now, against the level now,
 * unless a fresh flood would have sorted it already: a rim cell of the
 * start record was, at the start level (it waits in the rim heap). */
static inline bool sort_now(const struct flood *f, const struct pour *p, int32_t n)
{
	return f->seen[n] != f->stamp && f->lake_of[n] != p->cur &&
	       (p->cur == NO_LAKE || !touches_record(f, p, n));
}

/* A fresh pour's classify and join: no record, so no record tests, and
 * no room checks (flood_pour reserved room for every cell of the map in
 * every list first: a fresh pour sorts each cell at most once). */
static inline void classify_fresh(struct flood *f, struct pour *p, int32_t c)
{
	f->seen[c] = f->stamp;
	f->pushed[f->pushed_len++] = c;
	double key = surface(p->height, p->pool, c);
	if (key < p->level - p->tol) {
		leak_offer(p, key, c);
		return;
	}
	if (key <= p->level + p->tol) {
		f->stack[f->stack_len++] = c;
		return;
	}
	heap_push_reserved(&f->heap, key, c);
}

static bool join_fresh(struct flood *f, struct pour *p, int32_t c)
{
	f->joined[c] = f->stamp;
	f->lake[f->lake_len++] = c;
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	const uint32_t *seen = f->seen, stamp = f->stamp;
	if (x > 0 && y > 0 && x < w - 1 && y < hh - 1) {
		/* Written out: the hottest loop of a big fill. */
#define FRESH_NEIGHBOUR(d)                  \
	if (seen[c + (d)] != stamp)         \
		classify_fresh(f, p, c + (d));
		FRESH_NEIGHBOUR(1)
		FRESH_NEIGHBOUR(-1)
		FRESH_NEIGHBOUR(w)
		FRESH_NEIGHBOUR(-w)
		FRESH_NEIGHBOUR(w + 1)
		FRESH_NEIGHBOUR(1 - w)
		FRESH_NEIGHBOUR(w - 1)
		FRESH_NEIGHBOUR(-w - 1)
#undef FRESH_NEIGHBOUR
		return true;
	}
	static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	if (p->height[c] < p->edge_floor)
		p->edge_floor = p->height[c];
	if (!see_sea(f, p))
		return false;
	for (int k = 0; k < 8; k++) {
		int nx = x + dx[k], ny = y + dy[k];
		if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
			continue;
		int32_t n = ny * w + nx;
		if (seen[n] != stamp)
			classify_fresh(f, p, n);
	}
	return true;
}

static bool join_record(struct flood *f, struct pour *p, int32_t c)
{
	static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	/* Room for c and its neighbours in every list they may go to. */
	if (!grow((void **)&f->pushed, &f->pushed_cap, f->pushed_len + 8, sizeof *f->pushed) ||
	    !grow((void **)&f->stack, &f->stack_cap, f->stack_len + 8, sizeof *f->stack) ||
	    (p->cur != NO_LAKE &&
	     !grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 8, sizeof *f->leaks)) ||
	    !grow((void **)&f->lake, &f->lake_cap, f->lake_len + 1, sizeof *f->lake))
		return false;
	/* seen too: a cell off a record's rim heap joins unsorted this call
	 * (a fresh pour's cells were all sorted first). */
	f->joined[c] = f->stamp;
	if (p->cur != NO_LAKE)
		f->seen[c] = f->stamp;
	f->lake[f->lake_len++] = c;
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	if (x > 0 && y > 0 && x < w - 1 && y < hh - 1) {
		const int32_t *off = f->off;
		for (int k = 0; k < 8; k++) {
			int32_t n = c + off[k];
			if (sort_now(f, p, n) && !classify(f, p, n))
				return false;
		}
		return true;
	}
	if (p->height[c] < p->edge_floor)
		p->edge_floor = p->height[c];
	if (!see_sea(f, p))
		return false;
	for (int k = 0; k < 8; k++) {
		int nx = x + dx[k], ny = y + dy[k];
		if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
			continue;
		int32_t n = ny * w + nx;
		if (sort_now(f, p, n) && !classify(f, p, n))
			return false;
	}
	return true;
}

/* Joins `c` to the lake and sorts its new neighbours. */
static inline bool join(struct flood *f, struct pour *p, int32_t c)
{
	return p->cur == NO_LAKE ? join_fresh(f, p, c) : join_record(f, p, c);
}

/* True when a cell next to `c` is in the lake. */
static bool touches_lake(const struct flood *f, const struct pour *p, int32_t c)
{
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hh)
				continue;
			if (in_lake(f, p, ny * w + nx))
				return true;
		}
	}
	return false;
}

/* Brings a valid entry to the top of the pour's heap, dropping and re-keying
 * the others (see struct lake): afterwards the top, if any, is a rim cell
 * keyed by its surface, or the sea. `first`: the start from a record, where
 * a cell already sorted this call was a leak (its entries are duplicates);
 * later, a cell sorted this call is one pushed this call. */
static bool heap_top(struct flood *f, struct pour *p, bool first)
{
	struct heap *hp = p->heap;
	/* A fresh pour's heap holds each cell once, keyed by its surface, and
	 * only its pop joins it: every entry is valid. */
	if (p->cur == NO_LAKE)
		return true;
	while (hp->len) {
		struct node n = hp->a[0];
		if (n.cell == SEA_CELL) {
			/* Left from when the lake touched the map edge. */
			if (!p->sea_seen) {
				heap_pop(hp);
				continue;
			}
			return true;
		}
		int32_t c = n.cell;
		if (in_lake(f, p, c) || (first && f->seen[c] == f->stamp)) {
			heap_pop(hp);
			continue;
		}
		double s = surface(p->height, p->pool, c);
		if (n.key != s) {
			heap_pop(hp);
			/* Stale-low: back in at its surface. Stale-high: a newer
			 * entry holds it (the invariant). */
			if (n.key < s && f->seen[c] != f->stamp && !heap_push(hp, s, c))
				return false;
			continue;
		}
		if (p->stale && !touches_lake(f, p, c)) {
			heap_pop(hp);
			continue;
		}
		return true;
	}
	return true;
}

/* Rebuilds a record's rim heap from its distinct rim cells keyed by their
 * surfaces, when stale entries have piled up. Uses (and spends) a stamp. */
static void rim_compact(struct flood *f, struct pour *p, struct lake *k)
{
	struct heap *hp = &k->rh;
	size_t j = 0;
	bool sea = false;
	for (size_t i = 0; i < hp->len; i++) {
		int32_t c = hp->a[i].cell;
		if (c == SEA_CELL) {
			if (!sea && k->edge_floor < INFINITY)
				hp->a[j++] = (struct node){p->sea_level, SEA_CELL};
			sea = true;
			continue;
		}
		if (f->seen[c] == f->stamp || f->lake_of[c] == p->cur)
			continue;
		f->seen[c] = f->stamp;
		if (k->rim_stale && !touches_lake(f, p, c))
			continue;
		hp->a[j++] = (struct node){surface(p->height, p->pool, c), c};
	}
	hp->len = j;
	heapify(hp);
	k->rh_base = j;
	k->rim_stale = false;
	next_stamp(f);
}


/* Starts from a remembered lake: its cells join at once (lake_of marks
 * them, so nothing per cell but a copy), and only the rim cells at or below
 * the level come off its rim heap to be sorted: what a fresh flood would
 * find after joining them, without sorting the rest of the rim again. */
static bool start_cached(struct flood *f, struct pour *p, struct lake *k)
{
	f->nbase = k->ncells;
	p->edge_floor = k->edge_floor;
	p->sea_seen = k->edge_floor < INFINITY;
	if (k->rh.len > 2 * k->rh_base + 64)
		rim_compact(f, p, k);
	p->heap = &k->rh;
	p->stale = k->rim_stale;
	for (;;) {
		if (!heap_top(f, p, true))
			return false;
		if (!k->rh.len || k->rh.a[0].key > p->level + p->tol)
			return true;
		int32_t c = k->rh.a[0].cell;
		heap_pop(&k->rh);
		if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks) ||
		    !grow((void **)&f->pushed, &f->pushed_cap, f->pushed_len + 1, sizeof *f->pushed) ||
		    !grow((void **)&f->stack, &f->stack_cap, f->stack_len + 1, sizeof *f->stack))
			return false;
		if (c == SEA_CELL) {
			/* At or above the sea's surface: it runs into the sea. */
			leak_offer(p, p->sea_level, SEA_CELL);
			f->leaks[f->leaks_len++] = SEA_CELL;
		} else if (!classify(f, p, c)) {
			return false;
		}
	}
}

/* The heap's top has been reached by the level: it joins, or, for the sea,
 * it is a leak (the rest runs off the map unless a lower leak was found at
 * this level; a record keeps the sea on its rim). */
static inline bool join_top(struct flood *f, struct pour *p)
{
	int32_t c = p->heap->a[0].cell;
	heap_pop(p->heap);
	if (c != SEA_CELL)
		return join(f, p, c);
	leak_offer(p, p->sea_level, SEA_CELL);
	if (p->cur == NO_LAKE)
		return true;
	if (!grow((void **)&f->leaks, &f->leaks_cap, f->leaks_len + 1, sizeof *f->leaks))
		return false;
	f->leaks[f->leaks_len++] = SEA_CELL;
	return true;
}

/* The lowest ground next to the leak that belongs to the lake: the lake can
 * drain through the leak down to there and no lower. */
static double leak_floor(const struct flood *f, const struct pour *p)
{
	if (p->leak_cell == SEA_CELL)
		return p->edge_floor;
	const int w = f->width, hh = f->height;
	int x = p->leak_cell % w, y = p->leak_cell / w;
	double floor = INFINITY;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hh)
				continue;
			int32_t n = ny * w + nx;
			if (in_lake(f, p, n) && p->height[n] < floor)
				floor = p->height[n];
		}
	}
	return floor;
}


static float depth_at(double level, float ground)
{
	double d = level - (double)ground;
	if (!(d > 0))
		return 0.0f;
	float v = (float)d;
	return v < POOL_MAX ? v : POOL_MAX;
}

/* Writes the lake's pools for `level`; returns the fixed-point gain and
 * the range of the surfaces written but those of cells whose ground is
 * above `cut`, which go on f->dry instead. A written cell on another
 * record's rim tells that record its new surface (`own`: the lake's
 * record, if any). */
static uint64_t write_pools(struct flood *f, const float *height, float *pool, double level,
			   double cut, uint32_t own, double *smin, double *smax)
{
	int32_t *dry = f->dry;
	size_t nd = f->dry_len;
	uint64_t gained = 0, sum = 0;
	double lo = *smin, hi = *smax;
	bool marked = false;
	/* The record these cells go into copies what is written from here,
	 * in order (lake_append), instead of gathering it again. */
	float *wground = f->wground, *wdepth = f->wdepth;
	for (size_t i = 0; i < f->lake_len; i++) {
		int32_t c = f->lake[i];
		float g = height[c], old = pool[c], now = depth_at(level, g);
		pool[c] = now;
		wground[i] = g;
		wdepth[i] = now;
		uint64_t fx = fixed(now);
		sum += fx;
		gained += fx - fixed(old);
		double s = (double)g + (double)now;
		if (g > cut) {
			dry[nd++] = c;
		} else {
			lo = s < lo ? s : lo;
			hi = s > hi ? s : hi;
		}
		if (f->rim_mark[c]) {
			rim_notify(f, c, s, own);
			marked |= f->rim_mark[c];
		}
	}
	f->dry_len = nd;
	f->wsum = sum;
	f->wmarked = marked;
	f->written_dense = true;
	*smin = lo;
	*smax = hi;
	return gained;
}

/* New depths of a record's cells for `level` (depth_at of each ground, bit
 * for bit) into `depth`, and the range of their surfaces but those of the
 * cells whose ground is above `cut`, which are appended to dry[*nd]
 * (write_pools). A compare mask takes them out of the range (+-inf in
 * their lanes) and a rarely taken branch lists them. The SSE2 form
 * gives the same floats: cvtpd2ps rounds as the (float) cast does, and
 * max(v, 0) then min(v, POOL_MAX) gives 0 where !(d > 0) (NaN too) and
 * clamps as depth_at does; minpd/maxpd are the `s < lo ? s : lo` forms. */
static void record_depths(const int32_t *cells, const float *ground, float *depth, size_t n,
			  double level, double cut, int32_t *dry, size_t *nd, double *smin,
			  double *smax)
{
	size_t i = 0, m = *nd;
	double lo = *smin, hi = *smax;
#if FLOOD_SSE2
	const __m128d lv = _mm_set1_pd(level), cv = _mm_set1_pd(cut);
	const __m128d pinf = _mm_set1_pd(INFINITY), ninf = _mm_set1_pd(-INFINITY);
	const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(POOL_MAX);
	__m128d vlo = _mm_set1_pd(lo), vhi = _mm_set1_pd(hi);
	for (; i + 2 <= n; i += 2) {
		/* Two floats at a time (__m128i may alias anything). */
		__m128 g2 = _mm_castsi128_ps(_mm_loadl_epi64((const __m128i *)(const void *)(ground + i)));
		__m128d g = _mm_cvtps_pd(g2);
		__m128 v = _mm_cvtpd_ps(_mm_sub_pd(lv, g));
		v = _mm_min_ps(_mm_max_ps(v, zero), top);
		_mm_storel_epi64((__m128i *)(void *)(depth + i), _mm_castps_si128(v));
		__m128d sf = _mm_add_pd(g, _mm_cvtps_pd(v));
		__m128d out = _mm_cmpgt_pd(g, cv);
		if (__builtin_expect(_mm_movemask_pd(out) != 0, 0)) {
			int bits = _mm_movemask_pd(out);
			if (bits & 1)
				dry[m++] = cells[i];
			if (bits & 2)
				dry[m++] = cells[i + 1];
		}
		vlo = _mm_min_pd(_mm_or_pd(_mm_and_pd(out, pinf), _mm_andnot_pd(out, sf)), vlo);
		vhi = _mm_max_pd(_mm_or_pd(_mm_and_pd(out, ninf), _mm_andnot_pd(out, sf)), vhi);
	}
	double l2[2], h2[2];
	_mm_storeu_pd(l2, vlo);
	_mm_storeu_pd(h2, vhi);
	lo = l2[0] < l2[1] ? l2[0] : l2[1];
	hi = h2[0] > h2[1] ? h2[0] : h2[1];
#endif
	for (; i < n; i++) {
		float now = depth_at(level, ground[i]);
		depth[i] = now;
		double sf = (double)ground[i] + (double)now;
		if (ground[i] > cut) {
			dry[m++] = cells[i];
			continue;
		}
		lo = sf < lo ? sf : lo;
		hi = sf > hi ? sf : hi;
	}
	*nd = m;
	*smin = lo;
	*smax = hi;
}

/* A record's cells at `level`: their new depths (record_depths), written to
 * the pool layer too, and the fixed-point sum of those depths. */
static uint64_t record_level(const int32_t *cells, const float *ground, float *depth, float *pool,
			    size_t n, double level, double cut, int32_t *dry, size_t *nd,
			    double *smin, double *smax)
{
	record_depths(cells, ground, depth, n, level, cut, dry, nd, smin, smax);
	uint64_t sum = 0;
	for (size_t i = 0; i < n; i++) {
		float now = depth[i];
		pool[cells[i]] = now;
		sum += fixed(now);
	}
	return sum;
}

#if FLOOD_HAVE_AVX2
/* record_level four cells at a time, the same bits. The depths as
 * record_depths' SSE2 form, four wide (cvtpd2ps, max, min: the same
 * roundings). fixed(v) without a float-to-integer conversion (AVX2 has
 * none for 64 bits): a depth v >= 0 is m 2^(e-150) with m its 24-bit
 * significand (hidden bit set) and e its biased exponent, so v 2^53 =
 * m 2^(e-97), and the conversion's truncation of a positive value is a
 * right shift: m << (e-97) when e >= 97, else m >> (97-e). Variable shifts
 * by 64 or more (a negative count, as unsigned) give 0, so OR-ing both
 * shifts picks the one that applies; e == 0 (zero, subnormals, whose
 * fixed() is 0) gives 0 from both. Depths are below POOL_MAX < 2^10, so
 * e <= 136 and the shifted value stays below 2^63. Sums of int64 are
 * exact in any order. */
__attribute__((target("avx2"))) static uint64_t record_level_avx2(
	const int32_t *cells, const float *ground, float *depth, float *pool, size_t n, double level,
	double cut, int32_t *dry, size_t *nd, double *smin, double *smax)
{
	size_t i = 0, nd0 = *nd;
	const __m256d lv = _mm256_set1_pd(level), cv = _mm256_set1_pd(cut);
	const __m256d pinf = _mm256_set1_pd(INFINITY), ninf = _mm256_set1_pd(-INFINITY);
	const __m128 zero = _mm_setzero_ps(), top = _mm_set1_ps(POOL_MAX);
	const __m128i emask = _mm_set1_epi32(0xff), mmask = _mm_set1_epi32(0x7fffff);
	const __m128i hidden = _mm_set1_epi32(0x800000), bias = _mm_set1_epi32(97);
	__m256d vlo = _mm256_set1_pd(*smin), vhi = _mm256_set1_pd(*smax);
	__m256i acc = _mm256_setzero_si256();
	for (; i + 4 <= n; i += 4) {
		__m256d g = _mm256_cvtps_pd(_mm_loadu_ps(ground + i));
		__m128 v = _mm256_cvtpd_ps(_mm256_sub_pd(lv, g));
		v = _mm_min_ps(_mm_max_ps(v, zero), top);
		_mm_storeu_ps(depth + i, v);
		__m256d sf = _mm256_add_pd(g, _mm256_cvtps_pd(v));
		__m256d out = _mm256_cmp_pd(g, cv, _CMP_GT_OQ);
		int ob = _mm256_movemask_pd(out);
		if (__builtin_expect(ob != 0, 0)) {
			for (int j = 0; j < 4; j++)
				if (ob >> j & 1)
					dry[nd0++] = cells[i + (size_t)j];
		}
		vlo = _mm256_min_pd(_mm256_blendv_pd(sf, pinf, out), vlo);
		vhi = _mm256_max_pd(_mm256_blendv_pd(sf, ninf, out), vhi);
		__m128i bits = _mm_castps_si128(v);
		__m128i e = _mm_and_si128(_mm_srli_epi32(bits, 23), emask);
		__m256i m = _mm256_cvtepu32_epi64(_mm_or_si128(_mm_and_si128(bits, mmask), hidden));
		__m256i up = _mm256_sllv_epi64(m, _mm256_cvtepi32_epi64(_mm_sub_epi32(e, bias)));
		__m256i down = _mm256_srlv_epi64(m, _mm256_cvtepi32_epi64(_mm_sub_epi32(bias, e)));
		acc = _mm256_add_epi64(acc, _mm256_or_si256(up, down));
		pool[cells[i]] = depth[i];
		pool[cells[i + 1]] = depth[i + 1];
		pool[cells[i + 2]] = depth[i + 2];
		pool[cells[i + 3]] = depth[i + 3];
	}
	double l4[4], h4[4];
	uint64_t a4[4];
	_mm256_storeu_pd(l4, vlo);
	_mm256_storeu_pd(h4, vhi);
	_mm256_storeu_si256((__m256i *)(void *)a4, acc);
	double lo = l4[0], hi = h4[0];
	for (int j = 1; j < 4; j++) {
		lo = l4[j] < lo ? l4[j] : lo;
		hi = h4[j] > hi ? h4[j] : hi;
	}
	/* Lanes summed as unsigned, like every fixed-point sum. */
	uint64_t sum = (uint64_t)a4[0] + (uint64_t)a4[1] + (uint64_t)a4[2] + (uint64_t)a4[3];
	for (; i < n; i++) {
		float now = depth_at(level, ground[i]);
		depth[i] = now;
		pool[cells[i]] = now;
		sum += fixed(now);
		double sf = (double)ground[i] + (double)now;
		if (ground[i] > cut) {
			dry[nd0++] = cells[i];
			continue;
		}
		lo = sf < lo ? sf : lo;
		hi = sf > hi ? sf : hi;
	}
	*nd = nd0;
	*smin = lo;
	*smax = hi;
	return sum;
}
#endif

bool flood_set_avx2(struct flood *f, bool on)
{
	f->avx2 = false;
#if FLOOD_HAVE_AVX2
	if (on) {
		__builtin_cpu_init();
		f->avx2 = __builtin_cpu_supports("avx2");
	}
#else
	(void)on;
#endif
	return f->avx2;
}

/* The same for a record's cells, from its dense copies; its sum follows. */
static uint64_t write_record(struct flood *f, struct lake *k, float *pool, double level,
			    double cut, uint32_t own, double *smin, double *smax)
{
	const int32_t *cells = k->cells;
	const float *ground = k->ground;
	float *depth = k->depth;
	uint64_t sum;
#if FLOOD_HAVE_AVX2
	if (f->avx2)
		sum = record_level_avx2(cells, ground, depth, pool, k->ncells, level, cut, f->dry,
					&f->dry_len, smin, smax);
	else
#endif
		sum = record_level(cells, ground, depth, pool, k->ncells, level, cut, f->dry,
				   &f->dry_len, smin, smax);
	if (k->marked) {
		/* Rim notifications read neither pools nor depths: after the
		 * writes, in the cells' order, they push what they pushed
		 * during them. */
		bool marked = false;
		for (size_t i = 0; i < k->ncells; i++) {
			int32_t c = cells[i];
			if (f->rim_mark[c]) {
				rim_notify(f, c, (double)ground[i] + (double)depth[i], own);
				marked |= f->rim_mark[c];
			}
		}
		k->marked = marked;
	}
	uint64_t gained = sum - k->sum;
	k->sum = sum;
	return gained;
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
			f->lake_of[f->lake[i]] = id;
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
		f->lake_of[c] = id;
		f->slot[c] = (uint32_t)at;
	}
}

/* Grows the start lake's record by this call's new cells, in place: its
 * rim heap already holds what this call found (leaks go back on it here).
 * False when that fails (the caller then drops the record). */
static bool lake_extend(struct flood *f, uint32_t id, const float *height, const float *pool,
			double smin, double smax, double edge_floor)
{
	struct lake *k = &f->lakes[id - 1];
	for (size_t i = 0; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old && old != id)
			lake_kill(f, old);
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
static bool leaks_back(struct flood *f, const struct pour *p, struct lake *k)
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

/* After a drain lowered a lake, cells whose ground stands above the new
 * level are dry: a fresh flood would leave them out (as rim) and the
 * record, holding them, could not be used. They leave it the way a changed
 * cell does (lake_detach), and the range is taken again without them; if
 * one cannot leave, the record is dropped. */
static void lake_shed_cells(struct flood *f, uint32_t id, const int32_t *dry, size_t n);

static void lake_shed_dry(struct flood *f, uint32_t id, double cut)
{
	struct lake *k = &f->lakes[id - 1];
	if (!grow((void **)&f->stack, &f->stack_cap, k->ncells, sizeof *f->stack)) {
		lake_kill(f, id);
		return;
	}
	/* One pass: the dry cells, and the range of the cells that stay (what
	 * is left after the removals below). */
	size_t n = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < k->ncells; i++) {
		float g = k->ground[i];
		if (g > cut) {
			f->stack[n++] = k->cells[i];
			continue;
		}
		double s = (double)g + (double)k->depth[i];
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	if (!n)
		return;
	k->smin = lo;
	k->smax = hi;
	lake_shed_cells(f, id, f->stack, n);
}

/* Takes the dry cells `dry` out of record `id`, whose range is already
 * that of the cells that stay (lake_shed_dry, or the level write that
 * listed them). */
static void lake_shed_cells(struct flood *f, uint32_t id, const int32_t *dry, size_t n)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	/* The edge floor is the lowest ground of the edge cells: only the
	 * leaving of a cell at that ground can raise it. */
	bool rings = true, edge = false;
	for (size_t i = 0; i < n; i++) {
		int32_t c = dry[i];
		int x = c % w, y = c / w;
		if (k->ncells < 2) {
			lake_kill(f, id);
			return;
		}
		if (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1) {
			/* On the map edge the ring is cut by the map's border:
			 * only the box walk (which stays on the map) applies.
			 * Its edge floor is taken again below if it was the
			 * lowest. */
			edge = edge || !(k->ground[f->slot[c]] > k->edge_floor);
			rings = rings && ring_rejoins(f, id, c);
		} else {
			rings = rings && (ring_ok(f, id, c) || ring_rejoins(f, id, c));
		}
		if (!lake_remove(f, id, c)) {
			lake_kill(f, id);
			return;
		}
	}
	if (edge) {
		/* An edge cell left: the lake's edge floor is taken again
		 * (INFINITY: it no longer touches the edge, and heap_top drops
		 * its sea entries). */
		double floor = INFINITY;
		for (size_t i = 0; i < k->ncells; i++) {
			int32_t c = k->cells[i];
			int x = c % w, y = c / w;
			if ((x == 0 || y == 0 || x == w - 1 || y == hh - 1) && k->ground[i] < floor)
				floor = k->ground[i];
		}
		k->edge_floor = floor;
	}
	/* One walk for all of them, if a ring had a gap; a lake the drain cut
	 * in pieces keeps the piece the walk reached. */
	if (!rings) {
		size_t reached = lake_walk(f, id, k->cells[0]);
		bool ok = reached && (reached == k->ncells || lake_keep_walked(f, id, reached));
		next_stamp(f);
		if (!ok)
			lake_kill(f, id);
	}
}

/* Records that hold any of this call's lake cells are dropped: the cells
 * are about to change, or to belong to a new record. */
static void forget_lake_cells(struct flood *f, const struct pour *p)
{
	if (f->nbase)
		lake_kill(f, p->cur);
	for (size_t i = 0; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old)
			lake_kill(f, old);
	}
}

/* Remembers this call's lake (after forget_lake_cells); on failure there is
 * simply no record. Its rim heap: every cell sorted this call and not
 * joined (leaks and rim), keyed by their surfaces now, and the sea. */
static uint32_t lake_remember(struct flood *f, const struct pour *p, double smin, double smax)
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
		lake_free(k);
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

/* Room for a fresh pour: it sorts each cell of the map at most once, so
 * every list (and the heap, with the sea) holds at most a map's worth.
 * Reserved once; the pages a small pour never reaches are never touched. */
static bool fresh_reserve(struct flood *f)
{
	return grow((void **)&f->pushed, &f->pushed_cap, f->n, sizeof *f->pushed) &&
	       grow((void **)&f->stack, &f->stack_cap, f->n, sizeof *f->stack) &&
	       grow((void **)&f->lake, &f->lake_cap, f->n, sizeof *f->lake) &&
	       grow((void **)&f->heap.a, &f->heap.cap, f->n + 1, sizeof *f->heap.a);
}

#ifdef FLOOD_DEBUG
#define flood_pour flood_pour_real
static
#endif
int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r)
{
	memset(r, 0, sizeof *r);
	r->drain = -1;
	next_stamp(f);
	f->heap.len = f->stack_len = f->lake_len = f->pushed_len = f->leaks_len = f->nbase = 0;
	f->written_dense = false;

	const double level0 = surface(height, pool, start);
	struct pour p = {
		.height = height,
		.pool = pool,
		.level = level0,
		.tol = LEVEL_TOL * fmax(1.0, fabs(level0)),
		.sea_level = fp->sea_level,
		.edge_floor = INFINITY,
		.cur = NO_LAKE,
		.heap = &f->heap,
	};
	double left = water; /* what the model has not placed yet */

	/* A remembered lake is used only while every cell of it still sits at
	 * the start cell's level: then the result is the one a fresh flood
	 * gets, only cheaper (tests check that). "At the level" is classify's
	 * own test (neither a leak nor above level + tol): a fresh flood from
	 * the start joins every such cell connected to it before its first
	 * heap pop, so a record in that band is part of its lake. */
	uint32_t id = f->cache ? f->lake_of[start] : 0;
	if (id && f->lakes[id - 1].live && f->lakes[id - 1].split) {
		lake_settle_split(f, id, start);
		id = f->lake_of[start];
		next_stamp(f);
	}
	struct lake *cached = NULL;
	if (id && f->lakes[id - 1].live && !(f->lakes[id - 1].smin < level0 - p.tol) &&
	    f->lakes[id - 1].smax <= level0 + p.tol &&
	    f->lakes[id - 1].sea_level == fp->sea_level)
		cached = &f->lakes[id - 1];
	bool ok;
	const bool was_cached = cached != NULL;
	if (cached) {
		p.cur = id;
		ok = start_cached(f, &p, cached);
	} else {
		f->seen[start] = f->stamp;
		ok = fresh_reserve(f);
		if (ok)
			f->pushed[f->pushed_len++] = start;
		ok = ok && join(f, &p, start);
	}
	if (!ok)
		goto nomem;

	double settle_amount = 0;
	bool settle_fill_done = false;
	const float h_start = height[start];
	float h_start_new = h_start;
	enum flood_outcome outcome = FLOOD_FILLED;
	for (;;) {
		while (f->stack_len) {
			if (!join(f, &p, f->stack[--f->stack_len]))
				goto nomem;
		}
		if (cached && !heap_top(f, &p, false))
			goto nomem;
		/* Every rim cell the level has reached joins before any leak
		 * counts: the lake is then the same whatever order cells with
		 * equal surfaces come off the heap in. */
		if (p.heap->len && p.heap->a[0].key <= p.level) {
			if (!join_top(f, &p))
				goto nomem;
			continue;
		}
		if (p.leak) {
			outcome = p.leak_cell == SEA_CELL ? FLOOD_SEA : FLOOD_DRAIN;
			break;
		}
		if (p.heap->len == 0) {
			/* Everything reachable is lake (cannot happen with the sea
			 * around the map; kept for safety): spread what is left. */
			p.level += left / (double)(f->nbase + f->lake_len);
			left = 0;
			break;
		}
		double key = p.heap->a[0].key;
		{
			double area = (double)(f->nbase + f->lake_len);
			double cost = area * (key - p.level);
			if (left < cost) {
				if (!settle_fill_done && settle && settle->on_fill > 0) {
					/* The droplet ends here: its load settles where it
					 * entered, and the water that displaces is poured
					 * with the rest. */
					settle_fill_done = true;
					settle_amount = fmin(settle->on_fill,
							     fmax(0.0, p.level - (double)h_start));
					h_start_new = (float)((double)h_start + settle_amount);
					double before = fmax(0.0, p.level - (double)h_start);
					double after = fmax(0.0, p.level - (double)h_start_new);
					left += before - after;
					continue;
				}
				p.level += left / area;
				left = 0;
				break;
			}
			left -= cost;
			p.level = key;
		}
		/* Risen to it: it joins now (what the next turn would do). */
		if (!join_top(f, &p))
			goto nomem;
	}

	if (outcome != FLOOD_FILLED) {
		r->drain = p.leak_cell == SEA_CELL ? -1 : p.leak_cell;
		/* Slow drainage: the level sinks a little toward the leak, but not
		 * below the lake's ground next to it. */
		if (p.leak_key < p.level) {
			double lower = p.level - fp->drainage * (p.level - p.leak_key);
			double floor = leak_floor(f, &p);
			if (lower < floor)
				lower = floor;
			/* What the lake gives up leaves with the water going on: no
			 * more than that can carry. */
			double room = fp->carry - left;
			double most = room > 0 ? p.level - room / (double)(f->nbase + f->lake_len)
					       : p.level;
			if (lower < most)
				lower = most;
			if (lower < p.level)
				p.level = lower;
		}
		if (settle && settle->on_drain > 0) {
			settle_amount = fmin(settle->on_drain, fmax(0.0, p.level - (double)h_start));
			h_start_new = (float)((double)h_start + settle_amount);
		}
	}

	/* Write. Settling first, so the start cell's pool sees its new ground. */
	if (p.level != level0 &&
	    (!grow((void **)&f->wground, &f->wground_cap, f->lake_len, sizeof *f->wground) ||
	     !grow((void **)&f->wdepth, &f->wdepth_cap, f->lake_len, sizeof *f->wdepth) ||
	     !grow((void **)&f->dry, &f->dry_cap, f->nbase + f->lake_len, sizeof *f->dry)))
		goto nomem;
	/* Cells whose ground stands above this are dry: they leave the record
	 * (lake_shed_dry). */
	const double cut = p.level + p.tol / 4;
	f->dry_len = 0;
	const bool moved = h_start_new != h_start;
	if (moved)
		height[start] = h_start_new;
	r->settled = (double)h_start_new - (double)h_start;
	uint64_t gained = 0;
	size_t written = 0;
	const bool edge_start = start % f->width == 0 || start / f->width == 0 ||
				start % f->width == f->width - 1 ||
				start / f->width == f->height - 1;
	double smin = INFINITY, smax = -INFINITY;
	bool listed = p.level != level0; /* f->dry lists the dry cells */
	if (cached && moved) {
		/* The start is one of the record's cells: its copy follows. */
		uint32_t at = f->slot[start];
		cached->ground[at] = h_start_new;
	}
	if (p.level != level0) {
		/* Any other record these cells were in is dropped (a cached start
		 * lake is grown in place below). */
		if (!cached)
			forget_lake_cells(f, &p);
		else
			gained = write_record(f, cached, pool, p.level, cut, id, &smin, &smax);
		gained += write_pools(f, height, pool, p.level, cut, cached ? id : 0, &smin, &smax);
		written = f->nbase + f->lake_len;
	} else {
		/* The level stands: nothing to write but a start cell that took
		 * sediment. */
		if (moved) {
			float old = pool[start], now = depth_at(p.level, height[start]);
			pool[start] = now;
			gained = fixed(now) - fixed(old);
			written = 1;
			if (cached) {
				uint32_t at = f->slot[start];
				cached->sum += gained;
				cached->depth[at] = now;
			}
			if (f->rim_mark[start])
				rim_notify(f, start, surface(height, pool, start), cached ? id : 0);
		}
		if (cached && !moved && cached->gtop <= cut &&
		    grow((void **)&f->dry, &f->dry_cap, f->lake_len, sizeof *f->dry)) {
			/* None of the record's cells is dry and their range
			 * stands: only this call's cells can be, and they are
			 * listed as a level write lists them. */
			listed = true;
			double lo = cached->smin, hi = cached->smax;
			for (size_t i = 0; i < f->lake_len; i++) {
				int32_t c = f->lake[i];
				if (height[c] > cut) {
					f->dry[f->dry_len++] = c;
					continue;
				}
				double s = surface(height, pool, c);
				lo = s < lo ? s : lo;
				hi = s > hi ? s : hi;
			}
			smin = lo;
			smax = hi;
		} else if (cached || f->cache) {
			/* The range: a record's cells did not move (but the start). */
			double lo = cached ? cached->smin : INFINITY;
			double hi = cached ? cached->smax : -INFINITY;
			for (size_t i = 0; i < f->lake_len; i++) {
				double s = surface(height, pool, f->lake[i]);
				lo = s < lo ? s : lo;
				hi = s > hi ? s : hi;
			}
			double s = surface(height, pool, start);
			smin = s < lo ? s : lo;
			smax = s > hi ? s : hi;
		}
	}
	uint32_t kept = 0; /* the record that holds the lake now */
	if (cached) {
		/* A map-edge start that took sediment may have been the edge's
		 * lowest ground: the record's edge floor would be stale. */
		if ((moved && edge_start) || !leaks_back(f, &p, cached) ||
		    !lake_extend(f, id, height, pool, smin, smax, p.edge_floor))
			forget_lake_cells(f, &p);
		else
			kept = id;
	} else if (f->cache) {
		if (p.level == level0)
			forget_lake_cells(f, &p);
		/* (Not with a settled map-edge start: the edge floor taken while
		 * walking would be stale.) */
		if (!(moved && edge_start))
			kept = lake_remember(f, &p, smin, smax);
	}
	/* A write took the range without the dry cells and listed them (in
	 * the record's order: its old cells, then this call's); if there were
	 * none, its range is that of all cells, as a pass would find. */
	if (kept && listed && f->dry_len)
		lake_shed_cells(f, kept, f->dry, f->dry_len);
	else if (kept && !listed && smax > cut)
		lake_shed_dry(f, kept, cut);
	/* Every cell left has its ground at or below the cut now: the cells
	 * above it were shed, or the range (at or above every ground) is. */
	if (kept && f->lakes[kept - 1].live)
		f->lakes[kept - 1].gtop = cut;
	r->outcome = outcome;
	r->level = p.level;
	r->gained = (double)fix_signed(gained) / FIX_ONE;
	r->lake_cells = f->nbase + f->lake_len;
	r->touched = f->pushed_len;
	r->written = written;
	f->count.calls++;
	f->count.touched += f->pushed_len;
	f->count.lake_cells += f->nbase + f->lake_len;
	f->count.written += written;
	f->count.cached += was_cached;
	return GULLY_OK;
nomem:
	/* Nothing was written, but a record's rim heap may have lost entries
	 * it popped: drop it. */
	if (cached)
		lake_kill(f, id);
	return GULLY_ENOMEM;
}

/* -DFLOOD_DEBUG: every pour from a record is checked against a fresh flood
 * of copies of the layers (a second struct flood with the cache off), and
 * the first difference aborts. O(map) per pour: for hunting cache bugs
 * over whole bench runs (see bench/HYDROLOGY.md), never for a build. */
#ifdef FLOOD_DEBUG
#include <stdio.h>
#undef flood_pour
int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r)
{
	static struct flood *shadow;
	static float *h2, *p2;
	static unsigned long long calls;
	calls++;
	if (!f->cache)
		return flood_pour_real(f, height, pool, start, water, settle, fp, r);
	if (!shadow) {
		flood_create(&shadow, f->width, f->height);
		flood_set_cache(shadow, false);
		h2 = malloc(f->n * sizeof *h2);
		p2 = malloc(f->n * sizeof *p2);
	}
	memcpy(h2, height, f->n * sizeof *h2);
	memcpy(p2, pool, f->n * sizeof *p2);
	struct flood_result r2;
	flood_pour_real(shadow, h2, p2, start, water, settle, fp, &r2);
	uint32_t id = f->lake_of[start];
	int err = flood_pour_real(f, height, pool, start, water, settle, fp, r);
	if (r->outcome != r2.outcome || r->drain != r2.drain || r->level != r2.level ||
	    r->gained != r2.gained || r->lake_cells != r2.lake_cells ||
	    memcmp(height, h2, f->n * sizeof *h2) || memcmp(pool, p2, f->n * sizeof *p2)) {
		fprintf(stderr, "MISMATCH call %llu start %d record %u: out %d/%d drain %d/%d level %.12g/%.12g lake %zu/%zu\n",
			calls, start, id, r->outcome, r2.outcome, r->drain, r2.drain, r->level, r2.level,
			r->lake_cells, r2.lake_cells);
		abort();
	}
	return err;
}
#endif

/* What every live record must hold (flood.h): its dense copies and sum
 * match the map, its cells say they are its, and every cell next to its
 * lake has a rim heap entry at or below its surface (the sea too, for a
 * lake on the map edge). */
int flood_check(const struct flood *f, const float *height, const float *pool)
{
	const int w = f->width, hh = f->height;
	double *best = malloc(f->n * sizeof *best);
	if (!best)
		return GULLY_ENOMEM;
	int bad = 0;
	for (size_t id = 1; id <= f->nlakes && !bad; id++) {
		const struct lake *k = &f->lakes[id - 1];
		if (!k->live)
			continue;
		for (size_t i = 0; i < f->n; i++)
			best[i] = INFINITY;
		double sea = INFINITY;
		for (size_t j = 0; j < k->rh.len; j++) {
			struct node e = k->rh.a[j];
			if (e.cell == SEA_CELL)
				sea = e.key < sea ? e.key : sea;
			else if (e.key < best[e.cell])
				best[e.cell] = e.key;
		}
		if (k->edge_floor < INFINITY && !(sea <= k->sea_level))
			bad = 1;
		uint64_t sum = 0;
		double floor = INFINITY;
		for (size_t i = 0; i < k->ncells && !bad; i++) {
			int32_t c = k->cells[i];
			if ((c % w == 0 || c / w == 0 || c % w == w - 1 || c / w == hh - 1) &&
			    height[c] < floor)
				floor = height[c];
			if (k->ground[i] != height[c] || k->depth[i] != pool[c] || f->slot[c] != i ||
			    !((double)k->ground[i] <= k->gtop) ||
			    f->lake_of[c] != id || (f->rim_mark[c] && !k->marked))
				bad = 1;
			sum += fixed(k->depth[i]);
			int x = c % w, y = c / w;
			for (int dy = -1; dy <= 1; dy++) {
				for (int dx = -1; dx <= 1; dx++) {
					int nx = x + dx, ny = y + dy;
					if (nx < 0 || ny < 0 || nx >= w || ny >= hh)
						continue;
					int32_t n = ny * w + nx;
					if (f->lake_of[n] != id &&
					    !(best[n] <= (double)height[n] + (double)pool[n]))
						bad = 1;
				}
			}
		}
		if (sum != k->sum || (!bad && floor != k->edge_floor))
			bad = 1;
	}
	free(best);
	return bad ? GULLY_EINVAL : GULLY_OK;
}
