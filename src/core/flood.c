#include "core/flood.h"

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"

/* The heap's stand-in for the sea beyond the map edge. */
#define SEA_CELL (-1)
/* A lake's float pools put its surface within an ulp or so of its level;
 * surfaces this close (relative) count as the same level, so the rounding of
 * the last write never reads as a leak. */
#define LEVEL_TOL (8.0 * FLT_EPSILON)
/* Pool sums are kept in fixed point, 2^-53 units: a sum that does not depend
 * on the order cells were visited in (see flood.h on the lake cache). */
#define FIX_ONE 9007199254740992.0
#define POOL_MAX 1000.0f
/* Lakes smaller than this are cheap to flood afresh: not worth a record. */
#define CACHE_MIN_CELLS 16

struct node {
	double key;
	int32_t cell;
};

/* A remembered lake: cells that share one level, and the cells around them. */
struct lake {
	int32_t *cells, *rim;
	size_t ncells, nrim, rim_cap;
	bool rim_stale; /* may hold cells no longer next to the lake (lake_detach) */
	double smin, smax;  /* range of its cells' surfaces */
	double edge_floor;  /* lowest ground among its map-edge cells */
	bool live;
};

struct flood {
	int width, height;
	size_t n;
	uint32_t *seen;   /* seen[c] == stamp: c was classified this call */
	uint32_t *joined; /* joined[c] == stamp: c is in this call's lake */
	uint32_t stamp;
	struct node *heap;
	size_t heap_len, heap_cap;
	int32_t *stack; /* level cells waiting to join */
	size_t stack_len, stack_cap;
	int32_t *lake;
	size_t lake_len, lake_cap;
	int32_t *pushed; /* every cell classified this call */
	size_t pushed_len, pushed_cap;
	/* the lake cache */
	bool cache;
	uint32_t *lake_of; /* cell -> lake index + 1; 0: none */
	uint32_t *slot;    /* cell -> its index in its lake's cells */
	struct lake *lakes;
	size_t nlakes, lakes_cap;
	uint32_t *free_ids;
	size_t nfree, free_cap;
	struct flood_counters count;
};

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
	f->seen = calloc(f->n, sizeof *f->seen);
	f->joined = calloc(f->n, sizeof *f->joined);
	f->lake_of = calloc(f->n, sizeof *f->lake_of);
	f->slot = calloc(f->n, sizeof *f->slot);
	f->cache = true;
	if (!f->seen || !f->joined || !f->lake_of || !f->slot) {
		flood_destroy(f);
		return GULLY_ENOMEM;
	}
	*out = f;
	return GULLY_OK;
}

static void lake_free(struct lake *k)
{
	free(k->cells);
	free(k->rim);
	k->cells = k->rim = NULL;
	k->live = false;
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
	free(f->seen);
	free(f->joined);
	free(f->heap);
	free(f->stack);
	free(f->lake);
	free(f->pushed);
	free(f);
}

void flood_counters(const struct flood *f, struct flood_counters *c)
{
	*c = f->count;
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
	lake_free(k);
	/* free_ids has room for every record ever made (see lake_new). */
	f->free_ids[f->nfree++] = id;
}

/* Takes one changed cell out of its lake's record, when what is left is
 * what a fresh flood would find: the remaining cells are all still at the
 * level (their surfaces did not move) and still connected, which holds when
 * the cell's neighbours in the lake touch each other around it (an
 * 8-connected ring with no gap). The cell goes on the rim, where the next
 * pour sorts it by its new surface. An edge cell (the sea's floor) or a
 * gap in the ring drops the record instead. */
static bool lake_detach(struct flood *f, uint32_t id, int32_t c)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	if (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1 || k->ncells < 2)
		return false;
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
	if (comps != 1)
		return false;
	if (k->nrim + 1 > k->rim_cap) {
		size_t cap = k->rim_cap ? 2 * k->rim_cap : 16;
		int32_t *rim = realloc(k->rim, cap * sizeof *rim);
		if (!rim)
			return false;
		k->rim = rim;
		k->rim_cap = cap;
	}
	uint32_t at = f->slot[c];
	int32_t last = k->cells[--k->ncells];
	k->cells[at] = last;
	f->slot[last] = at;
	f->lake_of[c] = 0;
	k->rim[k->nrim++] = c;
	/* Cells beside c that touched the lake only through c are rim no more:
	 * the next use filters the rim. */
	k->rim_stale = true;
	return true;
}

void flood_forget_cell(struct flood *f, int cell)
{
	uint32_t id = f->lake_of[cell];
	if (id && !lake_detach(f, id, cell))
		lake_kill(f, id);
}

/* Drops rim cells with no neighbour in the lake (see lake_detach). */
static void lake_filter_rim(struct flood *f, uint32_t id)
{
	struct lake *k = &f->lakes[id - 1];
	const int w = f->width, hh = f->height;
	size_t j = 0;
	for (size_t i = 0; i < k->nrim; i++) {
		int32_t c = k->rim[i];
		int x = c % w, y = c / w;
		bool touches = false;
		for (int dy = -1; dy <= 1 && !touches; dy++) {
			for (int dx = -1; dx <= 1; dx++) {
				int nx = x + dx, ny = y + dy;
				if ((dx == 0 && dy == 0) || nx < 0 || ny < 0 || nx >= w || ny >= hh)
					continue;
				if (f->lake_of[ny * w + nx] == id) {
					touches = true;
					break;
				}
			}
		}
		if (touches)
			k->rim[j++] = c;
	}
	k->nrim = j;
	k->rim_stale = false;
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

static bool heap_push(struct flood *f, double key, int32_t cell)
{
	if (!grow((void **)&f->heap, &f->heap_cap, f->heap_len + 1, sizeof *f->heap))
		return false;
	size_t i = f->heap_len++;
	struct node *h = f->heap;
	while (i > 0) {
		size_t parent = (i - 1) / 2;
		if (h[parent].key <= key)
			break;
		h[i] = h[parent];
		i = parent;
	}
	h[i].key = key;
	h[i].cell = cell;
	return true;
}

static void heap_pop(struct flood *f)
{
	struct node *h = f->heap;
	struct node last = h[--f->heap_len];
	size_t n = f->heap_len, i = 0;
	for (;;) {
		size_t c = 2 * i + 1;
		if (c >= n)
			break;
		if (c + 1 < n && h[c + 1].key < h[c].key)
			c++;
		if (last.key <= h[c].key)
			break;
		h[i] = h[c];
		i = c;
	}
	if (n)
		h[i] = last;
}

static void next_stamp(struct flood *f)
{
	if (++f->stamp == 0) {
		memset(f->seen, 0, f->n * sizeof *f->seen);
		memset(f->joined, 0, f->n * sizeof *f->joined);
		f->stamp = 1;
	}
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
		return true;
	}
	if (key <= p->level + p->tol) {
		f->stack[f->stack_len++] = c;
		return true;
	}
	return heap_push(f, key, c);
}

static bool see_sea(struct flood *f, struct pour *p)
{
	if (p->sea_seen)
		return true;
	p->sea_seen = true;
	/* Water at or above the sea's surface runs into it. */
	if (p->sea_level <= p->level + p->tol) {
		leak_offer(p, p->sea_level, SEA_CELL);
		return true;
	}
	return heap_push(f, p->sea_level, SEA_CELL);
}

static bool join(struct flood *f, struct pour *p, int32_t c)
{
	static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1};
	static const int dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
	/* Room for c and its neighbours in every list they may go to. */
	if (!grow((void **)&f->pushed, &f->pushed_cap, f->pushed_len + 8, sizeof *f->pushed) ||
	    !grow((void **)&f->stack, &f->stack_cap, f->stack_len + 8, sizeof *f->stack) ||
	    !grow((void **)&f->lake, &f->lake_cap, f->lake_len + 1, sizeof *f->lake))
		return false;
	f->joined[c] = f->stamp;
	f->lake[f->lake_len++] = c;
	const int w = f->width, hh = f->height;
	int x = c % w, y = c / w;
	if (x > 0 && y > 0 && x < w - 1 && y < hh - 1) {
		const int32_t off[8] = {1, -1, w, -w, w + 1, 1 - w, w - 1, -w - 1};
		for (int k = 0; k < 8; k++) {
			int32_t n = c + off[k];
			if (f->seen[n] != f->stamp && f->lake_of[n] != p->cur && !classify(f, p, n))
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
		if (f->seen[n] != f->stamp && f->lake_of[n] != p->cur && !classify(f, p, n))
			return false;
	}
	return true;
}

/* Starts from a remembered lake: its cells join at once (lake_of marks
 * them, so nothing per cell but a copy) and only its rim is sorted, which
 * is what a fresh flood would reach after joining them. */
static bool start_cached(struct flood *f, struct pour *p, const struct lake *k)
{
	if (!grow((void **)&f->lake, &f->lake_cap, k->ncells + 9, sizeof *f->lake) ||
	    !grow((void **)&f->pushed, &f->pushed_cap, k->nrim + 8, sizeof *f->pushed) ||
	    !grow((void **)&f->stack, &f->stack_cap, k->nrim + 8, sizeof *f->stack))
		return false;
	memcpy(f->lake, k->cells, k->ncells * sizeof *f->lake);
	f->lake_len = k->ncells;
	p->edge_floor = k->edge_floor;
	if (k->edge_floor < INFINITY && !see_sea(f, p))
		return false;
	for (size_t i = 0; i < k->nrim; i++)
		if (!classify(f, p, k->rim[i]))
			return false;
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

/* Exact for every float >= 2^-30 (then v * 2^53 is a whole number below
 * 2^63 for v < POOL_MAX); smaller ones truncate, the same way every time. */
static inline int64_t fixed(float v)
{
	return (int64_t)((double)v * FIX_ONE);
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
 * the range of the surfaces written. */
static int64_t write_pools(struct flood *f, const float *height, float *pool, double level,
			   double *smin, double *smax)
{
	int64_t gained = 0;
	double lo = INFINITY, hi = -INFINITY;
	for (size_t i = 0; i < f->lake_len; i++) {
		int32_t c = f->lake[i];
		float old = pool[c], now = depth_at(level, height[c]);
		pool[c] = now;
		gained += fixed(now) - fixed(old);
		double s = (double)height[c] + (double)now;
		lo = s < lo ? s : lo;
		hi = s > hi ? s : hi;
	}
	*smin = lo;
	*smax = hi;
	return gained;
}

/* Grows the start lake's record by this call's new cells, in place: what
 * a fresh record would hold, without copying the lake again. False when
 * that fails (the caller then starts over). */
static bool lake_extend(struct flood *f, uint32_t id, double smin, double smax, double edge_floor)
{
	struct lake *k = &f->lakes[id - 1];
	for (size_t i = k->ncells; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old && old != id)
			lake_kill(f, old);
	}
	size_t nrim = 0;
	for (size_t i = 0; i < f->pushed_len; i++)
		nrim += f->joined[f->pushed[i]] != f->stamp;
	int32_t *cells = k->cells, *rim = k->rim;
	if (f->lake_len > k->ncells) {
		cells = realloc(k->cells, f->lake_len * sizeof *cells);
		if (!cells)
			return false;
		k->cells = cells;
	}
	if (nrim > k->rim_cap) {
		rim = realloc(k->rim, nrim * sizeof *rim);
		if (!rim)
			return false;
		k->rim = rim;
		k->rim_cap = nrim;
	}
	for (size_t i = k->ncells; i < f->lake_len; i++) {
		cells[i] = f->lake[i];
		f->lake_of[f->lake[i]] = id;
		f->slot[f->lake[i]] = (uint32_t)i;
	}
	k->ncells = f->lake_len;
	k->nrim = 0;
	k->rim_stale = false;
	for (size_t i = 0; i < f->pushed_len; i++)
		if (f->joined[f->pushed[i]] != f->stamp)
			rim[k->nrim++] = f->pushed[i];
	k->smin = smin;
	k->smax = smax;
	k->edge_floor = edge_floor;
	return true;
}

/* Records that hold any of this call's lake cells are dropped: the cells
 * are about to change, or to belong to a new record. */
static void forget_lake_cells(struct flood *f)
{
	for (size_t i = 0; i < f->lake_len; i++) {
		uint32_t old = f->lake_of[f->lake[i]];
		if (old)
			lake_kill(f, old);
	}
}

/* Remembers this call's lake (after forget_lake_cells); on failure there is
 * simply no record. */
static void lake_remember(struct flood *f, double smin, double smax, double edge_floor)
{
	if (f->lake_len < CACHE_MIN_CELLS)
		return;
	uint32_t id;
	if (f->nfree) {
		id = f->free_ids[--f->nfree];
	} else {
		if (!grow((void **)&f->lakes, &f->lakes_cap, f->nlakes + 1, sizeof *f->lakes) ||
		    !grow((void **)&f->free_ids, &f->free_cap, f->nlakes + 1, sizeof *f->free_ids))
			return;
		f->lakes[f->nlakes].live = false;
		id = (uint32_t)++f->nlakes;
	}
	struct lake *k = &f->lakes[id - 1];
	size_t nrim = 0;
	for (size_t i = 0; i < f->pushed_len; i++)
		nrim += f->joined[f->pushed[i]] != f->stamp;
	k->cells = malloc(f->lake_len * sizeof *k->cells);
	k->rim = malloc((nrim ? nrim : 1) * sizeof *k->rim);
	if (!k->cells || !k->rim) {
		free(k->cells);
		free(k->rim);
		k->cells = k->rim = NULL;
		f->free_ids[f->nfree++] = id;
		return;
	}
	memcpy(k->cells, f->lake, f->lake_len * sizeof *k->cells);
	k->ncells = f->lake_len;
	k->rim_cap = nrim ? nrim : 1;
	k->rim_stale = false;
	k->nrim = 0;
	for (size_t i = 0; i < f->pushed_len; i++)
		if (f->joined[f->pushed[i]] != f->stamp)
			k->rim[k->nrim++] = f->pushed[i];
	k->smin = smin;
	k->smax = smax;
	k->edge_floor = edge_floor;
	k->live = true;
	for (size_t i = 0; i < f->lake_len; i++) {
		f->lake_of[f->lake[i]] = id;
		f->slot[f->lake[i]] = (uint32_t)i;
	}
}

int flood_pour(struct flood *f, float *height, float *pool, int start, double water,
	       const struct flood_settle *settle, const struct flood_params *fp,
	       struct flood_result *r)
{
	memset(r, 0, sizeof *r);
	r->drain = -1;
	next_stamp(f);
	f->heap_len = f->stack_len = f->lake_len = f->pushed_len = 0;

	const double level0 = surface(height, pool, start);
	struct pour p = {
		.height = height,
		.pool = pool,
		.level = level0,
		.tol = LEVEL_TOL * fmax(1.0, fabs(level0)),
		.sea_level = fp->sea_level,
		.edge_floor = INFINITY,
		.cur = NO_LAKE,
	};
	double left = water; /* what the model has not placed yet */

	/* A remembered lake is used only while every cell of it still sits at
	 * the start cell's level: then the result is the one a fresh flood
	 * gets, only cheaper (tests check that). */
	uint32_t id = f->cache ? f->lake_of[start] : 0;
	const struct lake *cached = NULL;
	if (id && f->lakes[id - 1].live && fabs(f->lakes[id - 1].smin - level0) <= p.tol / 2 &&
	    fabs(f->lakes[id - 1].smax - level0) <= p.tol / 2)
		cached = &f->lakes[id - 1];
	bool ok;
	const bool was_cached = cached != NULL;
	if (cached) {
		if (cached->rim_stale)
			lake_filter_rim(f, id);
		p.cur = id;
		ok = start_cached(f, &p, cached);
	} else {
		f->seen[start] = f->stamp;
		ok = grow((void **)&f->pushed, &f->pushed_cap, 1, sizeof *f->pushed);
		if (ok)
			f->pushed[f->pushed_len++] = start;
		ok = ok && join(f, &p, start);
	}
	if (!ok)
		return GULLY_ENOMEM;

	double settle_amount = 0;
	bool settle_fill_done = false;
	const float h_start = height[start];
	float h_start_new = h_start;
	enum flood_outcome outcome = FLOOD_FILLED;
	for (;;) {
		while (f->stack_len) {
			if (!join(f, &p, f->stack[--f->stack_len]))
				return GULLY_ENOMEM;
		}
		if (p.leak) {
			outcome = p.leak_cell == SEA_CELL ? FLOOD_SEA : FLOOD_DRAIN;
			break;
		}
		if (f->heap_len == 0) {
			/* Everything reachable is lake (cannot happen with the sea
			 * around the map; kept for safety): spread what is left. */
			p.level += left / (double)f->lake_len;
			left = 0;
			break;
		}
		double key = f->heap[0].key;
		int32_t cell = f->heap[0].cell;
		if (key > p.level) {
			double area = (double)f->lake_len;
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
		heap_pop(f);
		if (cell == SEA_CELL) {
			/* Risen to the sea: the rest runs off the map. */
			outcome = FLOOD_SEA;
			p.leak_key = key;
			p.leak_cell = SEA_CELL;
			break;
		}
		if (!join(f, &p, cell))
			return GULLY_ENOMEM;
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
			double most = room > 0 ? p.level - room / (double)f->lake_len : p.level;
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
	if (h_start_new != h_start)
		height[start] = h_start_new;
	r->settled = (double)h_start_new - (double)h_start;
	int64_t gained = 0;
	size_t written = 0;
	bool edge_start = start % f->width == 0 || start / f->width == 0 ||
			  start % f->width == f->width - 1 || start / f->width == f->height - 1;
	if (p.level != level0) {
		double smin, smax;
		/* A cached start lake is grown in place (f->lake begins with its
		 * cells); any other record these cells were in is dropped. */
		if (!cached)
			forget_lake_cells(f);
		gained = write_pools(f, height, pool, p.level, &smin, &smax);
		written = f->lake_len;
		if (cached && !lake_extend(f, id, smin, smax, p.edge_floor)) {
			forget_lake_cells(f);
			cached = NULL;
		}
		if (f->cache && !cached)
			lake_remember(f, smin, smax, p.edge_floor);
	} else {
		/* The level stands: nothing to write but a start cell that took
		 * sediment. */
		bool moved = h_start_new != h_start;
		if (moved) {
			float old = pool[start], now = depth_at(p.level, height[start]);
			pool[start] = now;
			gained = fixed(now) - fixed(old);
			written = 1;
		}
		if (cached && f->lake_len == cached->ncells && !(moved && edge_start)) {
			/* Same lake: widen its range by the start cell only. */
			struct lake *k = &f->lakes[id - 1];
			double s = surface(height, pool, start);
			k->smin = s < k->smin ? s : k->smin;
			k->smax = s > k->smax ? s : k->smax;
		} else {
			if (moved)
				flood_forget_cell(f, start);
			if (f->cache) {
				double lo = INFINITY, hi = -INFINITY;
				for (size_t i = 0; i < f->lake_len; i++) {
					double s = surface(height, pool, f->lake[i]);
					lo = s < lo ? s : lo;
					hi = s > hi ? s : hi;
				}
				forget_lake_cells(f);
				lake_remember(f, lo, hi, p.edge_floor);
			}
		}
	}
	r->outcome = outcome;
	r->level = p.level;
	r->gained = (double)gained / FIX_ONE;
	r->lake_cells = f->lake_len;
	r->touched = f->pushed_len;
	r->written = written;
	f->count.calls++;
	f->count.touched += f->pushed_len;
	f->count.lake_cells += f->lake_len;
	f->count.written += written;
	f->count.cached += was_cached;
	return GULLY_OK;
}
