/* The flood's private parts, shared by its files (never included outside
 * src/core/hydrology/flood*.c):
 *   flood.c        a pour from start to finish: its phases (flood_pour)
 *   flood_fill.c   the priority flood that grows the lake, fresh or from a record
 *   flood_halves.c the 2020 code's tries (flood_params.halves)
 *   flood_lakes.c  the lake records (the cache): made, grown, dropped, told of changes
 *   flood_shed.c   cells leaving a record, and whether what is left holds together
 *   flood_write.c  the level write: the pools of the lake for its new level
 *   flood_check.c  the checks: record invariants (flood_check) and the shadow pour
 * Invariants every file keeps:
 * - seen[c] == stamp: c was sorted this call (leak, level or rim), at most once
 *   for a fresh pour; joined[c] == stamp: c is in this call's lake. A new stamp
 *   (next_stamp) forgets both in O(1).
 * - lake_of[c] == id (> 0): c is one of record id's cells, and
 *   lakes[id-1].cells[slot[c]] == c; every record's dense ground/depth copies and
 *   its fixed-point sum match the map while it lives (flood_check).
 * - rim_mark[c] == 0: c is on no record's rim heap; every fall of a marked
 *   cell's surface pushes an entry for it on the rim heaps it is on
 *   (flood_rim_notify), so a rim heap never hides a leak.
 * - watch bit c clear: lake_of[c] == 0 and rim_mark[c] == 0 (the bit may
 *   stay set after both clear). flood_forget_cell reads this bitmap first:
 *   an eighth of rim_mark's bytes and a thirty-second of lake_of's, so on a
 *   big map a descent's cells, nearly all in no record, cost no miss there.
 * - Pool sums are fixed point (fixed()): exact and independent of visit order. */
#ifndef GULLY_FLOOD_INTERNAL_H
#define GULLY_FLOOD_INTERNAL_H

#include <float.h>
#include <math.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/grid.h"
#include "core/base/world.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/flood_heap.h"

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
 * cut off by flood_lake_detach): pops drop those. A stale-high entry alone would
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
	bool rim_stale; /* may hold cells no longer next to the lake (flood_lake_detach) */
	/* A cell left it (flood_lake_detach) through a ring gap the box around it
	 * could not close: it may be in pieces. The next pour from it walks it
	 * once (flood_lake_settle_split), however many cells left meanwhile. */
	bool split;
	double smin, smax;  /* range of its cells' surfaces */
	double edge_floor;  /* lowest ground among its map-edge cells */
	double gtop;        /* no cell's ground is above this (the cut of the
			     * last shed: see flood_pour) */
	double sea_level;   /* the sea's surface its rim heap was keyed with */
	bool marked;        /* some of its cells may be on other records' rims */
	bool live;
};

/* The last pour, while the same pour again is known to give the same
 * result: it wrote nothing, and nothing was changed since (every forget and
 * every other pour ends it). A droplet whose pour keeps nothing (all its
 * tries overshoot) goes on from its start; on a lake cell it pours there
 * again at once, with the same water, on the same map, up to its spill
 * rounds. */
struct flood_memo {
	bool valid;
	const float *height, *pool;
	int start;
	double water;
	bool settle;
	struct flood_settle s;
	struct flood_params fp; /* compared field by field (params_equal) */
	float h_start, p_start; /* the start cell's layers: a cheap second check */
	struct flood_result r;
};

struct flood {
	int width, height;
	size_t n;
	uint32_t *seen;   /* seen[c] == stamp: c was classified this call */
	uint32_t *joined; /* joined[c] == stamp: c is in this call's lake */
	uint32_t stamp;
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
	/* flood_write_pools' output in f->lake's order, for lake_append */
	float *wground, *wdepth;
	size_t wground_cap, wdepth_cap;
	uint64_t wsum;
	bool wmarked, written_dense;
	/* Cells a level write left dry (ground above the cut: see
	 * flood_shed_dry), in the order the record will hold them; the write
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
	uint64_t *watch;   /* bit c: c may be in a record or marked (above) */
	uint64_t *watch_lines; /* bit l: watch's line l may hold a set bit */
	/* the lake cache */
	bool cache;
	uint32_t *lake_of; /* cell -> lake index + 1; 0: none */
	uint32_t *slot;    /* cell -> its index in its lake's cells */
	struct lake *lakes;
	size_t nlakes, lakes_cap;
	uint32_t *free_ids;
	size_t nfree, free_cap;
	struct flood_counters count;
	struct flood_memo memo;
	bool ov_exit; /* flood_overshoot_lake may end a pour (the default) */
	bool avx2; /* record writes take record_level_avx2 */
	/* The shadow check (flood_check.c): a cache-less flood poured beside
	 * every pour on copies of the layers; what differed. */
	struct flood *shadow;
	float *shadow_height, *shadow_pool;
	struct flood_shadow shadow_found;
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

static inline bool grow(void **arr, size_t *cap, size_t need, size_t size)
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

/* The watch bitmap (the invariants above), and above it a bit for each of
 * its cache lines (512 cells) that may hold a set bit: 4 KB at 4096x4096,
 * where the bitmap's 2 MB miss the caches and hold nothing until the
 * first lake. */
#define WATCH_LINE_SHIFT 9

static inline void watch_set(struct flood *f, int32_t c)
{
	const uint32_t u = (uint32_t)c, line = u >> WATCH_LINE_SHIFT;
	f->watch[u >> 6] |= UINT64_C(1) << (u & 63);
	f->watch_lines[line >> 6] |= UINT64_C(1) << (line & 63);
}

static inline bool watched(const struct flood *f, int32_t c)
{
	const uint32_t u = (uint32_t)c, line = u >> WATCH_LINE_SHIFT;
	return (f->watch_lines[line >> 6] >> (line & 63) & 1) &&
	       (f->watch[u >> 6] >> (u & 63) & 1);
}

/* The same as 1 or 0, without a branch (both bitmaps read). */
static inline unsigned watched_bit(const struct flood *f, uint32_t u)
{
	const uint32_t line = u >> WATCH_LINE_SHIFT;
	return (unsigned)((f->watch_lines[line >> 6] >> (line & 63)) & (f->watch[u >> 6] >> (u & 63)) &
			  1u);
}

/* The two writes that make a cell watched (the invariant above). */
static inline void rim_mark_on(struct flood *f, int32_t c)
{
	f->rim_mark[c] = 1;
	watch_set(f, c);
}

static inline void lake_of_set(struct flood *f, int32_t c, uint32_t id)
{
	f->lake_of[c] = id;
	watch_set(f, c);
}

/* `c` goes on a rim heap: its mark, and its own record's (if any), so a
 * write of that record looks for the cell's other records. */
static inline void rim_mark_set(struct flood *f, int32_t c)
{
	rim_mark_on(f, c);
	uint32_t id = f->lake_of[c];
	if (id)
		f->lakes[id - 1].marked = true;
}

/* A cell's neighbours: the map's 8 (grid_neighbours), and with wrap_y
 * (hydrology.edge = wrap) the seed's x-major index wrap at the first and
 * last rows: past the last row lie the next columns' first row, (x, 0),
 * (x + 1, 0) and (x + 2, 0), past the first row the previous columns' last
 * row (a symmetric relation). *edge: the cell is on the map's edge (the sea
 * is a neighbour), as grid_neighbours' count says. */
static inline __attribute__((always_inline)) int
flood_neighbours(const struct flood *f, bool wrap_y, int32_t c, int32_t nb[8], bool *edge)
{
	int m = grid_neighbours(f->width, f->height, c, nb);
	*edge = m < 8;
	if (!wrap_y || m == 8)
		return m;
	const int w = f->width, x = c % w, y = c / w;
	const int dir = y == f->height - 1 ? 1 : y == 0 ? -1 : 0;
	const int row = dir > 0 ? 0 : f->height - 1;
	for (int k = 0; dir && k < 3; k++) {
		const int nx = x + dir * k;
		if (nx >= 0 && nx < w)
			nb[m++] = row * w + nx;
	}
	return m;
}

static inline void next_stamp(struct flood *f)
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

/* flood_overshoot_lake's state in a pour. */
struct pour_ov {
	bool on;       /* it may end the pour (FLOOD_OVERSHOT) */
	uint32_t tried; /* the last record it looked at */
	size_t cells;  /* the record's cells, in the lake without a walk */
};

/* One pour's working state. */
struct pour {
	const float *height, *pool;
	double level, tol, sea_level;
	/* Surfaces of wet cells below leak_floor, and of dry cells (pool 0)
	 * below dry_floor, are leaks whatever the tolerance: with
	 * flood_params.strict_dry, dry_floor is the start's level (bare ground
	 * has no float rounding to allow for), and so is leak_floor for a pour
	 * from dry ground; else -infinity. */
	double leak_floor, dry_floor;
	/* flood_params.level_join: wet cells with a surface at or above
	 * join_floor (the start's level less the tolerance) are no leaks while
	 * the level is at or below join_top, the seed's second plane, set at
	 * the rise's first step (NAN before it; join_floor is +infinity
	 * without the option). first_area is the lake's area then (0 before
	 * it): the seed's first try's cells, which such a join must not
	 * widen. */
	double join_floor, join_top, first_area;
	bool sea_seen;
	/* the lowest leak found so far: lowest surface, then lowest cell
	 * (with leak_high the highest surface) */
	bool leak, leak_high;
	bool wrap_y; /* flood_params.wrap_y */
	int32_t leak_cell; /* SEA_CELL for the sea */
	double leak_key;
	double edge_floor;
	/* The remembered lake this pour started from (NO_LAKE: none). Its cells
	 * are in the lake without a stamp: lake_of says so. */
	uint32_t cur;
	struct heap *heap; /* f->heap, or the record's rim heap */
	bool stale;        /* the heap may hold cells cut off from the lake */
	/* The pour as a whole (flood.c). */
	int32_t start;
	double level0;              /* the start cell's surface before */
	double water;               /* the water poured */
	double left;                /* water not placed yet */
	float h_start, h_start_new; /* the start cell's ground before and after settling */
	bool settle_fill_done;      /* the load settled where the water came to rest */
	struct pour_ov ov;
};

#define NO_LAKE UINT32_MAX

static inline bool in_lake(const struct flood *f, const struct pour *p, int32_t c)
{
	return f->joined[c] == f->stamp || f->lake_of[c] == p->cur;
}

/* The depth of a cell of ground `ground` under `level`, as the pool stores it. */
static inline float depth_at(double level, float ground)
{
	double d = level - (double)ground;
	if (!(d > 0))
		return 0.0f;
	float v = (float)d;
	return v < POOL_MAX ? v : POOL_MAX;
}

/* flood.c: flood_create without the debug build's shadow (the shadow's own
 * flood), and flood_pour without the shadow check. */
int flood_create_plain(struct flood **out, int width, int height);
int flood_pour_plain(struct flood *f, float *height, float *pool, int start, double water,
		     const struct flood_settle *settle, const struct flood_params *fp,
		     struct flood_result *r);

/* flood_check.c: flood_pour with the shadow check on. */
int flood_shadow_pour(struct flood *f, float *height, float *pool, int start, double water,
		      const struct flood_settle *settle, const struct flood_params *fp,
		      struct flood_result *r);

/* flood_fill.c: the priority flood. */
bool flood_start_fresh(struct flood *f, struct pour *p);
bool flood_start_cached(struct flood *f, struct pour *p, struct lake *k);
bool flood_rise(struct flood *f, struct pour *p, const struct flood_settle *settle,
		enum flood_outcome *outcome);
double flood_leak_floor(const struct flood *f, const struct pour *p);

/* flood_halves.c: the tries. */
bool flood_halves(const struct flood *f, struct pour *p, double stop);
bool flood_overshoot_lake(const struct flood *f, struct pour *p);

/* flood_lakes.c: the records. */
void flood_lake_free(struct lake *k);
void flood_lake_kill(struct flood *f, uint32_t id);
void flood_rim_notify(struct flood *f, int32_t cell, double key, uint32_t skip);
bool flood_lake_extend(struct flood *f, uint32_t id, const float *height, const float *pool,
		       double smin, double smax, double edge_floor);
bool flood_leaks_back(struct flood *f, const struct pour *p, struct lake *k);
void flood_forget_lake_cells(struct flood *f, const struct pour *p);
uint32_t flood_lake_remember(struct flood *f, const struct pour *p, double smin, double smax);

/* flood_shed.c: cells leaving a record. */
bool flood_lake_detach(struct flood *f, uint32_t id, int32_t c);
void flood_lake_settle_split(struct flood *f, uint32_t id, int32_t start);
void flood_shed_dry(struct flood *f, uint32_t id, double cut);
void flood_shed_cells(struct flood *f, uint32_t id, const int32_t *dry, size_t n);

/* flood_write.c: the level write. */
uint64_t flood_write_pools(struct flood *f, const float *height, float *pool, double level,
			   double cut, uint32_t own, double *smin, double *smax);
uint64_t flood_write_record(struct flood *f, struct lake *k, float *pool, double level,
			    double cut, uint32_t own, double *smin, double *smax);
/* Whether a dry cell of the record (pool 0) has its ground below `floor`:
 * a fresh flood with strict_dry leaks there. */
bool flood_lake_dry_below(const struct lake *k, double floor);

#endif
