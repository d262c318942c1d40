/* The water layer: the particles' water on each cell, for drawing and the
 * pool columns, in height units (spacing^3 a particle). A cell with water
 * touching the ground counts all the water over it; a cell whose water is
 * all in the air (spray, drops between bounces) counts SPH_SPRAY_SHARE of
 * it, so it draws as a thin, light film rather than as a pool. Rewritten
 * each time over the cells the last write covered (the pool box), not the
 * whole map: on a big map a clear of the whole layer cost more than the
 * steps between writes. */
#include "core/sph/sph.h"

#include <string.h>

void sph_water_layer(struct sph *s, struct world *w)
{
	sph_water_layer_alive(s, w, NULL);
}

/* Clears the cells the last write may have made non-zero. */
static void clear_box(const struct sph_box *b, struct world *w)
{
	if (b->x1 < b->x0)
		return;
	size_t n = (size_t)(b->x1 - b->x0 + 1);
	for (int y = b->y0; y <= b->y1; y++)
		memset(world_at(w->layer[LAYER_POOL], w, b->x0, y), 0, n * sizeof(float));
}

void sph_water_layer_alive(struct sph *s, struct world *w, const uint8_t *dead)
{
	if (!s->draws_water)
		return;
	clear_box(&s->pool, w);
	float *pool = w->layer[LAYER_POOL];
	float depth = (float)(s->cfg.spacing * s->cfg.spacing * s->cfg.spacing / s->cfg.scale);
	struct sph_box box = {0, 0, -1, -1};
	/* Grounded water first, so a cell is positive exactly when some of its
	 * water touches the ground; the airborne water then adds to those and
	 * is held negative on the others until the last pass scales it. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->n; i++) {
			if ((s->p.grounded[i] != 0) != (pass == 0) || (dead && dead[i] == 1))
				continue;
			int cx = (int)s->p.x[i], cy = (int)s->p.y[i];
			if (cx < 0 || cy < 0 || cx >= s->width || cy >= s->height)
				continue;
			float *c = &pool[(size_t)cy * (size_t)s->width + (size_t)cx];
			*c += pass == 0 || *c > 0 ? depth : -depth;
			sph_box_join(&box, &(struct sph_box){cx, cy, cx, cy});
		}
	for (int y = box.y0; y <= box.y1; y++)
		for (int x = box.x0; x <= box.x1; x++) {
			float *c = world_at(pool, w, x, y);
			if (*c < 0)
				*c *= -(float)SPH_SPRAY_SHARE;
		}
	s->pool = box;
}
