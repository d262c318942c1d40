/* flood_dry_try (hydrology.dry_tries): the 2020 code's second try from dry
 * ground, which lowers the lakes it reaches. The seed's flood (its water.h,
 * Drop::flood) tries planes: its first at the start's surface S, and when
 * that finds no lower cell, a second raised by half the droplet's water
 * over the cells the first covered. That plane, a whole half droplet over
 * one pit cell, easily tops the pit's rim and reaches a lake next to it a
 * little above S. If it finds a lower cell (a drain), every cell it covered
 * is set to the level (1 - drainage) S + drainage x the drain's surface:
 * the lake sinks to the pit's level. On the seed's terrain 42 this is most
 * of the water its lakes lose (bench/FIDELITY.md, "The seed's second try"). */
#include "core/base/error.h"
#include "core/hydrology/flood_internal.h"

/* The start's cells with surfaces in [lo, hi], each joined to the start
 * through the others (8 neighbours, and the seed's wrap with wrap_y; the
 * map's edge is a wall), into f->queue[0, *n); *drain the cell of the
 * highest surface below lo next to them, the seed's choice, or -1. False
 * when out of memory. */
static bool try_fill(struct flood *f, bool wrap_y, const float *height, const float *pool,
		     int32_t start, double lo, double hi, size_t *n, int32_t *drain)
{
	next_stamp(f);
	f->seen[start] = f->stamp;
	*drain = -1;
	*n = 0;
	if (!grow((void **)&f->queue, &f->queue_cap, 1, sizeof *f->queue))
		return false;
	size_t len = 0;
	double drain_s = 0;
	f->queue[len++] = start;
	for (size_t k = 0; k < len; k++) {
		int32_t nb[8];
		bool edge;
		const int m = flood_neighbours(f, wrap_y, f->queue[k], nb, &edge);
		for (int j = 0; j < m; j++) {
			const int32_t c = nb[j];
			if (f->seen[c] == f->stamp)
				continue;
			f->seen[c] = f->stamp;
			const double s = surface(height, pool, c);
			if (s < lo) {
				if (*drain < 0 || s > drain_s) {
					*drain = c;
					drain_s = s;
				}
			} else if (s <= hi) {
				if (!grow((void **)&f->queue, &f->queue_cap, len + 1, sizeof *f->queue))
					return false;
				f->queue[len++] = c;
			}
		}
	}
	*n = len;
	return true;
}

int flood_dry_try(struct flood *f, const float *height, float *pool, int start, double water,
		  const struct flood_params *fp, double *lost, int *drain_out)
{
	*lost = 0;
	*drain_out = -1;
	const double s0 = surface(height, pool, start);
	size_t n1, n2;
	int32_t drain;
	if (!try_fill(f, fp->wrap_y, height, pool, start, s0, s0, &n1, &drain))
		return GULLY_ENOMEM;
	if (drain >= 0)
		return GULLY_OK; /* the first try drains: it covers nothing */
	const double plane = s0 + 0.5 * water / (double)n1;
	if (!try_fill(f, fp->wrap_y, height, pool, start, s0, plane, &n2, &drain))
		return GULLY_ENOMEM;
	if (drain < 0)
		return GULLY_OK; /* the seed fills or tries again: the pour's own part */
	*drain_out = drain;
	const double to = (1.0 - fp->drainage) * s0 + fp->drainage * surface(height, pool, drain);
	/* Every covered cell's surface is at least s0 > to: pools only fall. */
	for (size_t k = 0; k < n2; k++) {
		const int32_t c = f->queue[k];
		const float depth = to > height[c] ? (float)(to - height[c]) : 0.0f;
		if (depth < pool[c]) {
			*lost += (double)pool[c] - (double)depth;
			pool[c] = depth;
			flood_forget_cell(f, c);
		}
	}
	return GULLY_OK;
}
