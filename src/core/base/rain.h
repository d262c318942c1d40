/* A rain mask: where droplets start, weighted (a map like Gaea's and World
 * Machine's precipitation masks). Without one (world.rain NULL) a droplet
 * starts anywhere, uniformly, with the same two draws as ever. */
#ifndef GULLY_RAIN_H
#define GULLY_RAIN_H

#include "core/base/world.h"

struct rain {
	int width, height;
	double *cdf;   /* running sum of the weights, cell by cell */
};

/* A mask for a width x height world from as many weights (>= 0, finite, not
 * all zero; GULLY_EINVAL otherwise). */
int rain_create(struct rain **out, const float *weights, int width, int height);
void rain_free(struct rain *r);
int rain_clone(struct rain **out, const struct rain *src);

/* Where the next droplet starts, drawn from w's random stream: uniform over
 * the map without a mask; with one, a cell with probability proportional to
 * its weight, then uniform within the cell. 0 <= x < width, 0 <= y < height. */
void world_spawn_point(struct world *w, float *x, float *y);

#endif
