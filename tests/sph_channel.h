/* The channel a jet cuts along x (seed 003, Figs. 10-11), measured from the
 * ground before and after: shared by tests/test_sph_soil.c and
 * bench/sph_channel.c so the test and the bench figures use one measure. */
#ifndef GULLY_SPH_CHANNEL_H
#define GULLY_SPH_CHANNEL_H

#include <stddef.h>

/* A cut shallower than this (cells) is not channel: stray grains and rims. */
#define SPH_CHANNEL_THRESHOLD 0.1
/* Rows each side of the jets' axis that the channel may wander over. */
#define SPH_CHANNEL_BAND 4

struct sph_channel {
	int x0, x1;        /* first and last column of the channel (-1: none) */
	int length;        /* columns cut at least SPH_CHANNEL_THRESHOLD deep */
	double max_depth;  /* the deepest cut in the band, cells */
	double mean_depth; /* the mean over those columns of each one's deepest cut */
};

/* before/after: heights (height units) of a width x height map; scale:
 * cells per height unit (terrain.vertical_scale); axis: the row the jets
 * run along. Depth is (before - after) x scale. */
static inline struct sph_channel sph_channel_measure(const float *before, const float *after,
						     int width, int height, double scale,
						     int axis)
{
	struct sph_channel c = {-1, -1, 0, 0, 0};
	double sum = 0;
	for (int x = 0; x < width; x++) {
		double deepest = 0;
		for (int y = axis - SPH_CHANNEL_BAND; y <= axis + SPH_CHANNEL_BAND; y++) {
			if (y < 0 || y >= height)
				continue;
			size_t i = (size_t)y * (size_t)width + (size_t)x;
			double d = ((double)before[i] - (double)after[i]) * scale;
			deepest = d > deepest ? d : deepest;
		}
		c.max_depth = deepest > c.max_depth ? deepest : c.max_depth;
		if (deepest >= SPH_CHANNEL_THRESHOLD) {
			c.x0 = c.x0 < 0 ? x : c.x0;
			c.x1 = x;
			c.length++;
			sum += deepest;
		}
	}
	c.mean_depth = c.length ? sum / c.length : 0;
	return c;
}

#endif
