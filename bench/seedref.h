/* The yardstick: the seed articles' two algorithms as their own code does
 * them, written again from the articles (seeds 000/002 and 001) and
 * DESIGN.md 3.1/3.2, so that every speed figure in bench/ can be a ratio
 * against the seed's work on identical terrain, in the same process and the
 * same minute, and every fidelity figure can be checked against a second
 * droplet stream of the seed's own algorithm.
 *
 * - seedref_erosion: SimpleErosion (particles): droplets spawned at integer
 *   cells by rand(), the 8-neighbour normal with the seed's diagonal bias,
 *   mass transfer, evaporation; a droplet's load is lost when it dies.
 * - seedref_hydrology: SimpleHydrology as of 2020: descend with the
 *   normalised sum of four cross products as normal, effective parameters
 *   from the stream map and roots, the evaporation concentration
 *   `sediment /= (1 - dt*effR)`; flood by a recursive eight-way fill from
 *   the droplet's cell, the whole set re-filled while the droplet has
 *   volume and fewer than 10 tries failed, the `tried` map cleared on each
 *   fill; trees; the stream map learns after every frame of 250 droplets.
 *
 * The seed indexes its maps x-major (x*height + y); so does this code inside,
 * because its fill's bounds test lets y run over into the next column (the
 * seed's edge is a wall only at x = 0 and x = width-1). Maps in and out are
 * in gully's layout (y*width + x), float32. Heights are double inside, as
 * the seed's. rand() is the C library's: srand(seed) starts the stream.
 * The normal finds its neighbours by index arithmetic as the seed's does
 * (a y neighbour past the edge is in the next column); where the seed reads
 * outside the array this code takes the cell's own height. Not part of gully:
 * built in bench/ and by one test only. */
#ifndef GULLY_BENCH_SEEDREF_H
#define GULLY_BENCH_SEEDREF_H

#include <stddef.h>
#include <stdint.h>

struct seedref_erosion_params {
	double dt, density, friction, deposition, evap, min_volume, scale;
};
/* The article's defaults: dt 1.2, density 1, friction 0.05, deposition 0.1,
 * evaporation 0.001, min volume 0.01, scale 60. */
void seedref_erosion_defaults(struct seedref_erosion_params *p);

struct seedref_hydrology_params {
	double dt, density, friction, deposition, evap, min_volume, scale;
	double volume_factor, drainage, lrate, stop_stream, stop_accel;
	int spill, frame; /* rounds per droplet; droplets per stream update */
	int trees;        /* 1: grow() after each frame, roots lower deposition */
	/* 1: the load a droplet can carry is V |v| dh, as in the particles
	 * article; 0 (the default): |v| dh, as the 2020 hydrology code has it
	 * (bench/FIDELITY.md, "The seed's own code"). */
	int capacity_volume;
};
/* The 2020 code's defaults: dt 1.2, density 1, friction 0.1, deposition
 * 0.08, evaporation 0.001, min volume 0.01, scale 40, volume factor 100,
 * drainage 0.001, lrate 0.01, stream 0.3 and acceleration 0.01 to stop,
 * spill 5, frames of 250, trees on, a capacity without the volume. */
void seedref_hydrology_defaults(struct seedref_hydrology_params *p);

struct seedref_counts {
	uint64_t steps;       /* descend steps (particle moves) */
	uint64_t floods;      /* flood() calls */
	uint64_t fills;       /* recursive fills (re-floods) */
	uint64_t fill_cells;  /* cells the fills put in their sets */
	uint64_t trees;       /* trees alive at the end */
};

/* Runs `droplets` droplets on `height` (width x height, gully layout),
 * changing it in place. Returns 0, or -1 when out of memory. */
int seedref_erosion(float *height, int width, int height_, uint64_t droplets, unsigned seed,
		    const struct seedref_erosion_params *p, struct seedref_counts *c);

/* Runs `droplets` droplets; `height` is changed in place and `pool` (may
 * start at 0) receives the pool depth; `stream` may be NULL. Returns 0 or -1. */
int seedref_hydrology(float *height, float *pool, float *stream, int width, int height_,
		      uint64_t droplets, unsigned seed, const struct seedref_hydrology_params *p,
		      struct seedref_counts *c);

#endif
