/* Small SPH scenes shared by the sph tests: a flat map with every source off,
 * a walled basin, a block of water on the particle lattice. */
#ifndef GULLY_SPH_FIXTURE_H
#define GULLY_SPH_FIXTURE_H

#include "core/base/error.h"
#include "core/sph/sph.h"
#include "core/terrain/terrain.h"

/* Flat ground at 0.5 (30 cells at the default scale), no jets, no rain. */
static inline void sph_fixture_params(struct params *p, int width, int height)
{
	params_defaults(p);
	p->world.width = width;
	p->world.height = height;
	p->world.seed = 11;
	p->terrain.generator = TERRAIN_FLAT;
	p->terrain.roughness = 0;
	p->sph.jet1_on = p->sph.jet2_on = p->sph.jet3_on = p->sph.jet4_on = 0;
}

/* Only the fluid: no wetting, splash, scour or mud. */
static inline void sph_fixture_fluid_only(struct params *p)
{
	p->sph.wetting = p->sph.splash = p->sph.scour = p->sph.mud = 0;
}

static inline void sph_fixture_make(const struct params *p, struct world **w, struct sph **s)
{
	assert_int_equal(world_from_params(w, p), GULLY_OK);
	assert_int_equal(sph_create(s, *w, p), GULLY_OK);
}

/* A flat map with the fixture's parameters, as they are. */
static inline void sph_fixture_flat(int width, int height, struct world **w, struct sph **s)
{
	struct params p;
	sph_fixture_params(&p, width, height);
	sph_fixture_make(&p, w, s);
}

/* Raises every cell outside [x0, x1) x [y0, y1) by `wall` cells: a basin. */
static inline void sph_fixture_walls(struct world *w, struct sph *s, int x0, int y0, int x1,
				     int y1, double wall)
{
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++)
			if (x < x0 || x >= x1 || y < y0 || y >= y1) {
				float *h = world_at(w->layer[LAYER_HEIGHT], w, x, y);
				*h += (float)(wall / s->cfg.scale);
				s->h0[(size_t)y * (size_t)w->width + (size_t)x] = *h;
			}
}

/* A round bowl: the ground rises as (r / radius)^2 x rise cells from the
 * map's centre, so the slope at radius is 2 rise / radius. */
static inline void sph_fixture_bowl(struct world *w, struct sph *s, double radius, double rise)
{
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++) {
			double ex = x + 0.5 - 0.5 * w->width, ey = y + 0.5 - 0.5 * w->height;
			double r2 = (ex * ex + ey * ey) / (radius * radius);
			float *h = world_at(w->layer[LAYER_HEIGHT], w, x, y);
			*h = (float)(0.5 + r2 * rise / s->cfg.scale);
			s->h0[(size_t)y * (size_t)w->width + (size_t)x] = *h;
		}
}

/* A block of water on the spacing lattice over cells [x0, x1) x [y0, y1),
 * `layers` deep, from half a spacing above the ground. */
static inline int sph_fixture_block(struct sph *s, struct world *w, double x0, double y0,
				    double x1, double y1, int layers)
{
	double d = s->cfg.spacing;
	int added = 0;
	for (int k = 0; k < layers; k++)
		for (double y = y0 + d / 2; y < y1; y += d)
			for (double x = x0 + d / 2; x < x1; x += d) {
				float H, nx, ny, nz;
				sph_terrain_at(s, w, (float)x, (float)y, &H, &nx, &ny, &nz);
				added += sph_add(s, (float)x, (float)y, (float)(H + d / 2 + k * d), 0, 0, 0);
			}
	return added;
}

/* Water on the spacing lattice wherever the ground is below `level` cells:
 * a pool with a flat surface, near rest from the start. */
static inline int sph_fixture_fill(struct sph *s, struct world *w, double level)
{
	double d = s->cfg.spacing;
	int added = 0;
	for (double y = d / 2; y < w->height; y += d)
		for (double x = d / 2; x < w->width; x += d) {
			float H, nx, ny, nz;
			sph_terrain_at(s, w, (float)x, (float)y, &H, &nx, &ny, &nz);
			for (double z = H + d / 2; z < level; z += d)
				added += sph_add(s, (float)x, (float)y, (float)z, 0, 0, 0);
		}
	return added;
}

static inline void sph_fixture_run(struct sph *s, struct world *w, int steps)
{
	for (int i = 0; i < steps; i++)
		assert_int_equal(sph_step(s, w), GULLY_OK);
}

#endif
