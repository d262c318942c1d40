/* The hardness map (seed 004's map D): how hard each cell is to erode,
 * 0 soft .. 1 hard, in world->layer[LAYER_HARDNESS].
 *
 * world_from_params fills it right after the terrain (not the emitter's
 * create step), because it is part of the world: a snapshot carries it, a
 * resumed run must not regenerate it, and strata need the fresh heights. */
#ifndef GULLY_HARDNESS_H
#define GULLY_HARDNESS_H

#include "core/base/params.h"
#include "core/base/world.h"

/* Order matches hardness.generator's choices in params.def. */
enum hardness_generator {
	HARDNESS_UNIFORM,
	HARDNESS_FBM,
	HARDNESS_STRATA,
	HARDNESS_FILE, /* loaded by the front end; the core puts the uniform value */
	HARDNESS_GENERATOR_COUNT
};

/* Fills the hardness layer from hardness.* and world.seed. Reads the height
 * layer (strata), so call it after the terrain is made. Values in [0, 1]. */
void hardness_generate(struct world *w, const struct params *p);

/* Fills the hardness layer from a sw x sh grid of values (a loaded image or
 * another snapshot's layer), resampled bilinearly to the world's size and
 * clamped to [0, 1]. GULLY_EINVAL when src holds NaN or infinity or the size
 * is not positive; the layer is untouched on error. */
int hardness_fill_from(struct world *w, const float *src, int sw, int sh);

#endif
