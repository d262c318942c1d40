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
 * - The order cells are met in never shows: W is unique. */
#include "core/hydrology/flood_internal.h"

#include "core/base/error.h"

struct map_fill {
	const float *h;
	float *pool;
	int w, hh;
	uint8_t *done;
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
static bool met_from_below(const struct map_fill *m, int32_t n)
{
	int32_t nb[8];
	int k = grid_neighbours(m->w, m->hh, n, nb);
	for (int i = 0; i < k; i++)
		if (m->done[nb[i]] && m->h[nb[i]] < m->h[n])
			return true;
	return false;
}

/* Spreads from the depression cells at `level` and the slope cells met on
 * the way until both stacks are empty. False: out of memory. */
static bool spread(struct map_fill *m, double level)
{
	int32_t nb[8];
	while (m->ndep || m->slope_head < m->slope_tail) {
		while (m->ndep) {
			int32_t c = m->dep[--m->ndep];
			int k = grid_neighbours(m->w, m->hh, c, nb);
			for (int i = 0; i < k; i++)
				if (!m->done[nb[i]])
					settle(m, nb[i], level);
		}
		while (m->slope_head < m->slope_tail && !m->ndep) {
			int32_t c = m->slope[m->slope_head++];
			double hc = (double)m->h[c];
			bool queued = false;
			int k = grid_neighbours(m->w, m->hh, c, nb);
			for (int i = 0; i < k; i++) {
				int32_t n = nb[i];
				if (m->done[n])
					continue;
				if ((double)m->h[n] > hc) {
					/* Still rising: its own ground. */
					m->done[n] = 1;
					m->pool[n] = 0.0f;
					m->slope[m->slope_tail++] = n;
				} else if (!queued && !met_from_below(m, n)) {
					/* Not above c: settled from the queue, in order. */
					queued = true;
					if (!heap_push(&m->pq, hc, c))
						return false;
				}
			}
		}
	}
	return true;
}

int flood_fill_map(const float *height, float *pool, int width, int height_cells,
		   double sea_level)
{
	size_t n = (size_t)width * (size_t)height_cells;
	struct map_fill m = {.h = height, .pool = pool, .w = width, .hh = height_cells};
	m.done = calloc(n, 1);
	m.dep = malloc(n * sizeof *m.dep);
	m.slope = malloc(n * sizeof *m.slope);
	int err = m.done && m.dep && m.slope ? GULLY_OK : GULLY_ENOMEM;
	/* The sea settles the edge: under it a cell holds water up to it. */
	for (size_t c = 0; c < n && !err; c++) {
		if (!grid_on_edge(width, height_cells, (int32_t)c))
			continue;
		double level = fmax((double)height[c], sea_level);
		m.done[c] = 1;
		pool[c] = depth_at(level, height[c]);
		if (!heap_push(&m.pq, level, (int32_t)c))
			err = GULLY_ENOMEM;
	}
	while (!err && m.pq.len) {
		struct node top = m.pq.a[0];
		heap_pop(&m.pq);
		m.dep[m.ndep++] = top.cell;
		if (!spread(&m, top.key))
			err = GULLY_ENOMEM;
	}
	free(m.done);
	free(m.dep);
	free(m.slope);
	free(m.pq.a);
	return err;
}
