/* The whole-map priority flood (flood.h, flood_fill_map).
 * Invariants:
 * - W(c), a cell's water surface, is the lowest level at which water at c
 *   reaches the sea: W(c) = max(h(c), min over neighbours W(n)), and the
 *   sea, beside every edge cell, is at sea_level. Every cell is settled
 *   (its W known, `done` set) exactly once, when W is proven:
 *   - a depression cell: h <= the level of the settled cell it is met from,
 *     while nothing lower is left in the queue (it is met from a queue pop
 *     at that level, directly or through other depression cells);
 *   - a slope cell: h above the level it is met from: W = h at once (no
 *     level can be below the ground), whatever order it is met in.
 * - A settled cell with an unsettled neighbour not above it goes into the
 *   priority queue at its W (once from a slope walk), so that neighbour is
 *   settled in level order, as Barnes 2014's priority flood does; unless a
 *   lower settled cell beside that neighbour will settle it (it has not
 *   spread yet: spreading leaves no neighbour above the cell unsettled).
 * - The order cells are met in never shows: W is unique.
 * The work runs on copies of the heights and pools with a ring of one cell
 * around the map, settled from the start and never lower than anything:
 * every cell has eight neighbours at fixed offsets, with no bound to test
 * and no division to find its row. */
#include "core/hydrology/flood_internal.h"
#include "core/hydrology/flood_radix.h"

#include "core/base/bigmem.h"
#include "core/base/error.h"

/* The work arrays are a map's size or more: on a big map they come from
 * bigmem (huge pages where the system gives them), since a fresh 4 KB
 * page costs a fault, and on some hosts the faults of one fill cost as
 * much as the fill itself (bench/HYDROLOGY.md, "The whole-map flood
 * against richdem"). */
struct map_fill {
	size_t n2, n;         /* cells with the ring, and without */
	float *h, *pool;      /* padded copies: (w + 2) x (hh + 2) */
	uint8_t *done;        /* padded: the ring is settled */
	int32_t off[8];       /* the neighbours' offsets in the padded map */
	/* Depression cells to spread from (a stack), and slope cells (a
	 * queue: each cell enters once, so an array of the map's size; a wave
	 * up the slope leaves fewer cells for the priority queue than a walk
	 * straight up it). */
	int32_t *dep, *slope;
	size_t ndep, slope_head, slope_tail;
	struct radix_heap pq;
};

/* True when a settled neighbour of the unsettled cell n stands lower than
 * n: that neighbour has not spread yet (spreading leaves unsettled only
 * the neighbours not above a slope cell), and when it does it settles n;
 * no queue entry is needed for n (Zhou 2016's true-border test). */
static inline bool met_from_below(const float *h, const uint8_t *done, const int32_t *off,
				  int32_t n)
{
	const float hn = h[n];
	for (int i = 0; i < 8; i++) {
		int32_t q = n + off[i];
		if (done[q] && h[q] < hn)
			return true;
	}
	return false;
}

/* Spreads from the depression cells at `level` and the slope cells met on
 * the way until both are used up. False: out of memory. The arrays and
 * counters are held in locals: a store to `done` (a byte, which may alias
 * anything) would otherwise make the compiler load every field of m again
 * after it. */
static bool spread(struct map_fill *m, double level)
{
	const float *h = m->h;
	float *pool = m->pool;
	uint8_t *done = m->done;
	int32_t *dep = m->dep, *slope = m->slope;
	size_t ndep = m->ndep, head = m->slope_head, tail = m->slope_tail;
	int32_t off[8];
	memcpy(off, m->off, sizeof off);
	bool ok = true;
	while (ok && (ndep || head < tail)) {
		/* An empty queue starts again at its first slot: the fill keeps
		 * touching the same few pages instead of new ones. */
		if (head == tail)
			head = tail = 0;
		while (ndep) {
			/* A depression cell: every unsettled neighbour settles at
			 * the level, pooled (a depression cell) or dry (a slope). */
			int32_t c = dep[--ndep];
			for (int i = 0; i < 8; i++) {
				int32_t n = c + off[i];
				if (done[n])
					continue;
				done[n] = 1;
				if ((double)h[n] <= level) {
					pool[n] = depth_at(level, h[n]);
					dep[ndep++] = n;
				} else {
					pool[n] = 0.0f;
					slope[tail++] = n;
				}
			}
		}
		while (ok && head < tail && !ndep) {
			int32_t c = slope[head++];
			const float hc = h[c];
			bool queued = false;
			for (int i = 0; i < 8; i++) {
				int32_t n = c + off[i];
				if (done[n])
					continue;
				if (h[n] > hc) {
					/* Still rising: its own ground. */
					done[n] = 1;
					pool[n] = 0.0f;
					slope[tail++] = n;
				} else if (!queued && !met_from_below(h, done, off, n)) {
					/* Not above c: settled from the queue, in order. */
					queued = true;
					ok = radix_push(&m->pq, (double)hc, c);
				}
			}
		}
	}
	m->ndep = ndep;
	m->slope_head = head;
	m->slope_tail = tail;
	return ok;
}

static void map_fill_free(struct map_fill *m)
{
	bigmem_free(m->h, m->n2 * sizeof *m->h);
	bigmem_free(m->pool, m->n2 * sizeof *m->pool);
	bigmem_free(m->done, m->n2);
	bigmem_free(m->dep, m->n * sizeof *m->dep);
	bigmem_free(m->slope, m->n * sizeof *m->slope);
	radix_free(&m->pq);
}

int flood_fill_map(const float *height, float *pool, int width, int height_cells,
		   double sea_level)
{
	const int w2 = width + 2, h2 = height_cells + 2;
	size_t n2 = (size_t)w2 * (size_t)h2, n = (size_t)width * (size_t)height_cells;
	struct map_fill m = {
		.n2 = n2,
		.n = n,
		.off = {1, -1, w2, -w2, w2 + 1, 1 - w2, w2 - 1, -w2 - 1},
		.h = bigmem_zalloc(n2 * sizeof *m.h),
		.pool = bigmem_zalloc(n2 * sizeof *m.pool),
		.done = bigmem_zalloc(n2),
		.dep = bigmem_zalloc(n * sizeof *m.dep),
		.slope = bigmem_zalloc(n * sizeof *m.slope),
	};
	if (!m.h || !m.pool || !m.done || !m.dep || !m.slope) {
		map_fill_free(&m);
		return GULLY_ENOMEM;
	}
	/* The ring: settled, and above everything (never a lower neighbour). */
	for (size_t i = 0; i < n2; i++)
		m.h[i] = INFINITY;
	for (int y = 0; y < h2; y++) {
		m.done[(size_t)y * (size_t)w2] = m.done[(size_t)y * (size_t)w2 + (size_t)w2 - 1] = 1;
		if (y == 0 || y == h2 - 1)
			memset(m.done + (size_t)y * (size_t)w2, 1, (size_t)w2);
		else
			memcpy(m.h + (size_t)y * (size_t)w2 + 1,
			       height + (size_t)(y - 1) * (size_t)width, (size_t)width * sizeof *m.h);
	}
	int err = GULLY_OK;
	/* The sea settles the edge: under it a cell holds water up to it. */
	for (int y = 1; y <= height_cells && !err; y++) {
		for (int x = 1; x <= width && !err; x++) {
			if (x != 1 && x != width && y != 1 && y != height_cells)
				continue;
			int32_t c = y * w2 + x;
			double level = fmax((double)m.h[c], sea_level);
			m.done[c] = 1;
			m.pool[c] = depth_at(level, m.h[c]);
			if (!radix_push(&m.pq, level, c))
				err = GULLY_ENOMEM;
		}
	}
	while (!err && m.pq.len) {
		double level;
		int32_t cell;
		if (!radix_pop(&m.pq, &level, &cell)) {
			err = GULLY_ENOMEM;
			break;
		}
		m.dep[m.ndep++] = cell;
		if (!spread(&m, level))
			err = GULLY_ENOMEM;
	}
	for (int y = 0; y < height_cells && !err; y++)
		memcpy(pool + (size_t)y * (size_t)width, m.pool + (size_t)(y + 1) * (size_t)w2 + 1,
		       (size_t)width * sizeof *pool);
	map_fill_free(&m);
	return err;
}
