/* Vegetation: trees spawn on dry, gentle ground off the streams, grow, seed
 * their neighbours and die, one batch at a time, drawing from the world's
 * random stream in a fixed order; their roots hold the soil (hydrology.c
 * scales deposition by them) and are drawn as the vegetation layer. */
#include <stdbool.h>
#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/normal.h"
#include "core/base/rng.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"

void hydro_root(struct hydro_state *s, int32_t cell, int sign)
{
	float *veg = s->w->layer[LAYER_VEGETATION];
	int x = cell % s->width, y = cell / s->width;
	for (int dy = -1; dy <= 1; dy++) {
		for (int dx = -1; dx <= 1; dx++) {
			int nx = x + dx, ny = y + dy;
			if (nx < 0 || ny < 0 || nx >= s->width || ny >= s->height)
				continue;
			int units = dx == 0 && dy == 0 ? ROOT_CENTRE
				    : dx == 0 || dy == 0 ? ROOT_SIDE : ROOT_DIAG;
			size_t c = (size_t)ny * (size_t)s->width + (size_t)nx;
			s->roots[c] = (uint8_t)(s->roots[c] + sign * units);
			veg[c] = (float)s->roots[c] * HYDROLOGY_ROOT_UNIT;
		}
	}
}

static bool tree_add(struct hydro_state *s, int32_t cell, float size)
{
	if (s->ntrees == s->cap) {
		size_t n = s->cap ? 2 * s->cap : 64;
		struct tree *t = realloc(s->trees, n * sizeof *t);
		if (!t)
			return false;
		s->trees = t;
		s->cap = n;
	}
	s->trees[s->ntrees].cell = cell;
	s->trees[s->ntrees].size = size;
	s->ntrees++;
	hydro_root(s, cell, +1);
	return true;
}

/* Dry, gentle, off the streams, and no tree there yet (which also bounds the
 * root density: at most one tree per cell, so at most 25 steps anywhere). */
static bool tree_fits(struct hydro_state *s, const struct world *w,
		      const struct params_hydrology *q, float scale, int32_t c)
{
	if (w->layer[LAYER_POOL][c] > 0 || hstream_get(&s->hs, (uint32_t)c) >= q->tree_max_stream ||
	    s->roots[c] >= ROOT_CENTRE)
		return false;
	float n[3];
	if (q->normal == HYDROLOGY_NORMAL_2020)
		normal_2020(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width, c / w->width,
			    scale, n);
	else if (q->normal == HYDROLOGY_NORMAL_2020_WRAP)
		normal_2020_wrap(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width,
				 c / w->width, scale, n);
	else
		normal_ref(w->layer[LAYER_HEIGHT], w->width, w->height, c % w->width,
			   c / w->width, scale, q->symmetric_normal, n);
	return n[1] > q->tree_min_normal;
}

int hydro_trees_grow(struct hydro_state *s, struct world *w, const struct params *p)
{
	const struct params_hydrology *q = &p->hydrology;
	float scale = (float)p->terrain.vertical_scale;
	uint32_t ncells = (uint32_t)world_cells(w);
	for (int a = 0; a < q->tree_spawn; a++) {
		int32_t c = (int32_t)rng_below(&w->rng, ncells);
		if (tree_fits(s, w, q, scale, c) && !tree_add(s, c, 0.5f))
			return GULLY_ENOMEM;
	}
	size_t n0 = s->ntrees;
	int r = q->tree_seed_radius;
	for (size_t i = 0; i < n0; i++) {
		struct tree *t = &s->trees[i];
		t->size += (float)q->tree_growth * (1.0f - t->size);
		int32_t cell = t->cell;
		if (rng_double(&w->rng) < q->tree_seed_chance) {
			int nx = cell % s->width + (int)rng_below(&w->rng, (uint32_t)(2 * r + 1)) - r;
			int ny = cell / s->width + (int)rng_below(&w->rng, (uint32_t)(2 * r + 1)) - r;
			if (nx >= 0 && ny >= 0 && nx < s->width && ny < s->height) {
				int32_t c = ny * s->width + nx;
				/* Crowded ground takes fewer seedlings. */
				if (tree_fits(s, w, q, scale, c) &&
				    rng_double(&w->rng) >= (double)s->roots[c] * HYDROLOGY_ROOT_UNIT) {
					if (!tree_add(s, c, 0.5f))
						return GULLY_ENOMEM;
					t = &s->trees[i]; /* tree_add may move the array */
				}
			}
		}
		if (w->layer[LAYER_POOL][cell] > 0 ||
		    hstream_get(&s->hs, (uint32_t)cell) > q->tree_max_stream ||
		    rng_double(&w->rng) < q->tree_death_chance) {
			hydro_root(s, cell, -1);
			t->size = -1; /* dead: removed below */
		}
	}
	size_t j = 0;
	for (size_t i = 0; i < s->ntrees; i++)
		if (s->trees[i].size >= 0)
			s->trees[j++] = s->trees[i];
	s->ntrees = j;
	return GULLY_OK;
}
