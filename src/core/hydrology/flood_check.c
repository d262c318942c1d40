/* The flood's checks, for tests and bug hunts, never for the simulation:
 * - flood_check: every live record still describes the map as the cache
 *   relies on (flood_lakes.c's invariants). O(records x map).
 * - the shadow pour: a second flood without a cache pours the same water on
 *   copies of the layers beside every pour, and what differed is counted
 *   and the first kept (flood_shadow); the caller prints it if it wants.
 *   O(map) per pour.
 * The core prints nothing: a difference is data returned to the caller. */
#include "core/hydrology/flood_internal.h"

#include "core/base/error.h"

int flood_set_shadow(struct flood *f, bool on)
{
	if (!on) {
		flood_destroy(f->shadow);
		free(f->shadow_height);
		free(f->shadow_pool);
		f->shadow = NULL;
		f->shadow_height = f->shadow_pool = NULL;
		return GULLY_OK;
	}
	if (f->shadow)
		return GULLY_OK;
	struct flood *s;
	if (flood_create_plain(&s, f->width, f->height))
		return GULLY_ENOMEM;
	flood_set_cache(s, false);
	flood_set_avx2(s, f->avx2);
	float *h = malloc(f->n * sizeof *h), *p = malloc(f->n * sizeof *p);
	if (!h || !p) {
		free(h);
		free(p);
		flood_destroy(s);
		return GULLY_ENOMEM;
	}
	f->shadow = s;
	f->shadow_height = h;
	f->shadow_pool = p;
	return GULLY_OK;
}

void flood_shadow(const struct flood *f, struct flood_shadow *s)
{
	*s = f->shadow_found;
}

static bool same_pour(const struct flood_result *a, const struct flood_result *b)
{
	return a->outcome == b->outcome && a->drain == b->drain && a->level == b->level &&
	       a->gained == b->gained && a->settled == b->settled && a->poured == b->poured &&
	       a->lake_cells == b->lake_cells;
}

int flood_shadow_pour(struct flood *f, float *height, float *pool, int start, double water,
		      const struct flood_settle *settle, const struct flood_params *fp,
		      struct flood_result *r)
{
	float *h2 = f->shadow_height, *p2 = f->shadow_pool;
	memcpy(h2, height, f->n * sizeof *h2);
	memcpy(p2, pool, f->n * sizeof *p2);
	struct flood_result fresh;
	int err2 = flood_pour_plain(f->shadow, h2, p2, start, water, settle, fp, &fresh);
	uint64_t call = f->count.calls + 1;
	uint32_t record = f->lake_of[start];
	int err = flood_pour_plain(f, height, pool, start, water, settle, fp, r);
	if (err || err2)
		return err ? err : GULLY_OK;
	struct flood_shadow *s = &f->shadow_found;
	s->pours++;
	if (same_pour(r, &fresh) && !memcmp(height, h2, f->n * sizeof *h2) &&
	    !memcmp(pool, p2, f->n * sizeof *p2))
		return GULLY_OK;
	if (!s->differed++) {
		s->first_call = call;
		s->first_start = start;
		s->first_record = record;
		s->cached = *r;
		s->fresh = fresh;
	}
	return GULLY_OK;
}

/* What every live record must hold (flood.h): its dense copies and sum
 * match the map, its cells say they are its, and every cell next to its
 * lake has a rim heap entry at or below its surface (the sea too, for a
 * lake on the map edge). And every cell in a record or marked is watched
 * (flood_internal.h), or flood_forget_cell would pass it by. */
int flood_check(const struct flood *f, const float *height, const float *pool)
{
	const int w = f->width, hh = f->height;
	int bad = 0;
	for (size_t c = 0; c < f->n && !bad; c++)
		if ((f->lake_of[c] || f->rim_mark[c]) && !watched(f, (int32_t)c))
			bad = 1;
	double *best = malloc(f->n * sizeof *best);
	if (!best)
		return GULLY_ENOMEM;
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
			int32_t nb[8];
			int m = grid_neighbours(w, hh, c, nb);
			for (int j = 0; j < m; j++) {
				int32_t n = nb[j];
				if (f->lake_of[n] != id &&
				    !(best[n] <= (double)height[n] + (double)pool[n]))
					bad = 1;
			}
		}
		if (sum != k->sum || (!bad && floor != k->edge_floor))
			bad = 1;
	}
	free(best);
	return bad ? GULLY_EINVAL : GULLY_OK;
}
