/* Terrain generators: noise landscapes and teaching shapes. */
#ifndef GULLY_TERRAIN_H
#define GULLY_TERRAIN_H

#include "core/base/params.h"
#include "core/base/world.h"

/* Order matches terrain.generator's choices in params.def. */
enum terrain_generator {
	TERRAIN_FBM,
	TERRAIN_RIDGED,
	TERRAIN_CONE,
	TERRAIN_VALLEY,
	TERRAIN_PLANE,
	TERRAIN_FLAT,
	TERRAIN_BASINS,
	TERRAIN_GENERATOR_COUNT
};

/* Scales n values to span exactly [0, 1] (all 0.5 when they are equal):
 * the noise terrains and the hardness map's noise field. */
void terrain_normalise(float *h, size_t n);

/* Fills the height layer from params (terrain.* and world.seed) and copies it
 * to base. Noise terrains are normalised to span [0, 1]. */
void terrain_generate(struct world *w, const struct params *p);

/* A world sized and seeded from params, with its terrain and hardness map
 * made (hardness.h says why here): what every fresh run starts from.
 * The simulation RNG is seeded from world.seed. */
int world_from_params(struct world **out, const struct params *p);

/* The same on given heights (width x height floats, row-major: an imported
 * height map) instead of a generated terrain, which at 4096x4096 would cost
 * seconds only to be overwritten; NULL generates it. The hardness map and
 * the random stream are made as for any run. */
int world_from_params_on(struct world **out, const struct params *p, const float *heights);

#endif
