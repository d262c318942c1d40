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

#include "core/base/error.h"

struct map_fill {
	float *h, *pool;      /* padded copies: (w + 2) x (hh + 2) */
	uint8_t *done;        /* padded: the ring is settled */
	int32_t off[8];       /* the neighbours' offsets in the padded map */
	/* Depression cells to spread from (a stack), and slope cells (a
	 * queue: each cell enters once, so an array of the map's size; a wave
	 * up the slope leaves fewer cells for the priority queue than a walk
	 * straight up it). */
	int32_t *dep, *slope;
	size_t ndep, slope_head, slope_tail;
	struct heap pq;
};

/* Settles n at level `level`: a depression cell (pooled to the level) or a
 * slope cell (dry, its own ground). */
static inline void settle(struct map_fill *m, int32_t n, double level)
{
	m->done[n] = 1;
	if ((double)m->h[n] <= level) {
		m->pool[n] = depth_at(level, m->h[n]);
		m->dep[m->ndep++] = n;
	} else {
		m->pool[n] = 0.0f;
		m->slope[m->slope_tail++] = n;
	}
}

/* True when a settled neighbour of the unsettled cell n stands lower than
 * n: that neighbour has not spread yet (spreading leaves unsettled only
 * the neighbours not above a slope cell), and when it does it settles n;
 * no queue entry is needed for n (Zhou 2016's true-border test). */
static inline bool met_from_below(const struct map_fill *m, int32_t n)
{
	const float hn = m->h[n];
	for (int i = 0; i < 8; i++) {
		int32_t q = n + m->off[i];
		if (m->done[q] && m->h[q] < hn)
			return true;
	}
	return false;
}

/* Spreads from the depression cells at `level` and the slope cells met on
 * the way until both are used up. False: out of memory. */
static bool spread(struct map_fill *m, double level)
{
	while (m->ndep || m->slope_head < m->slope_tail) {
		while (m->ndep) {
			int32_t c = m->dep[--m->ndep];
			for (int i = 0; i < 8; i++)
				if (!m->done[c + m->off[i]])
					settle(m, c + m->off[i], level);
		}
		while (m->slope_head < m->slope_tail && !m->ndep) {
			int32_t c = m->slope[m->slope_head++];
			const float hc = m->h[c];
			bool queued = false;
			for (int i = 0; i < 8; i++) {
				int32_t n = c + m->off[i];
				if (m->done[n])
					continue;
				if (m->h[n] > hc) {
					/* Still rising: its own ground. */
					m->done[n] = 1;
					m->pool[n] = 0.0f;
					m->slope[m->slope_tail++] = n;
				} else if (!queued && !met_from_below(m, n)) {
					/* Not above c: settled from the queue, in order. */
					queued = true;
					if (!heap_push(&m->pq, (double)hc, c))
						return false;
				}
			}
		}
	}
	return true;
}

static void map_fill_free(struct map_fill *m)
{
	free(m->h);
	free(m->pool);
	free(m->done);
	free(m->dep);
	free(m->slope);
	free(m->pq.a);
}

int flood_fill_map(const float *height, float *pool, int width, int height_cells,
		   double sea_level)
{
	const int w2 = width + 2, h2 = height_cells + 2;
	size_t n2 = (size_t)w2 * (size_t)h2, n = (size_t)width * (size_t)height_cells;
	struct map_fill m = {
		.off = {1, -1, w2, -w2, w2 + 1, 1 - w2, w2 - 1, -w2 - 1},
		.h = malloc(n2 * sizeof *m.h),
		.pool = malloc(n2 * sizeof *m.pool),
		.done = calloc(n2, 1),
		.dep = malloc(n * sizeof *m.dep),
		.slope = malloc(n * sizeof *m.slope),
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
			if (!heap_push(&m.pq, level, c))
				err = GULLY_ENOMEM;
		}
	}
	while (!err && m.pq.len) {
		struct node top = m.pq.a[0];
		heap_pop(&m.pq);
		m.dep[m.ndep++] = top.cell;
		if (!spread(&m, top.key))
			err = GULLY_ENOMEM;
	}
	for (int y = 0; y < height_cells && !err; y++)
		memcpy(pool + (size_t)y * (size_t)width, m.pool + (size_t)(y + 1) * (size_t)w2 + 1,
		       (size_t)width * sizeof *pool);
	map_fill_free(&m);
	return err;
}
