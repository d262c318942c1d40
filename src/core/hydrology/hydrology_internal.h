/* The hydrology process's state, shared by its files: hydrology.c (droplets,
 * batches, the process ops), hydrology_trees.c (vegetation) and
 * hydrology_state.c (the snapshot blob). Private to src/core/hydrology. */
#ifndef GULLY_HYDROLOGY_INTERNAL_H
#define GULLY_HYDROLOGY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology_stream.h"

struct workers;

/* Root steps a tree gives its cell; a cell holding this many has a tree. */
#define ROOT_CENTRE 5
#define ROOT_SIDE 3
#define ROOT_DIAG 2

struct tree {
	int32_t cell;
	float size; /* 0..1, grows toward 1; for drawing */
};

struct hydro_state {
	struct world *w;   /* the world the state was made for (vegetation) */
	int width, height;
	struct flood *flood;
	uint8_t *track;    /* cells visited in the current batch */
	struct hstream hs; /* the stream map's lazy update */
	uint8_t *roots;    /* root density in HYDROLOGY_ROOT_UNIT steps */
	struct tree *trees;
	size_t ntrees, cap;
	double (*clock)(void);
	double flood_seconds;
	/* The world's counters when step() last returned: if they moved, some
	 * other process ran and the flood's lake records may be stale. */
	uint64_t seen_particles, seen_steps;
	struct workers *workers; /* world.threads > 1: the stream map's catch-up */
};

/* Adds (sign +1) or removes (-1) a tree's roots around `cell`, and the
 * vegetation layer with them. */
void hydro_root(struct hydro_state *s, int32_t cell, int sign);
/* One batch of the trees: spawn, grow, seed, die (the world's random stream,
 * in a fixed order). GULLY_ENOMEM when the tree list cannot grow. */
int hydro_trees_grow(struct hydro_state *s, struct world *w, const struct params *p);
/* The process's save_state and load_state. */
int hydro_save_state(const void *state, unsigned char **data, size_t *len);
int hydro_load_state(void *state, const unsigned char *data, size_t len);

#endif
