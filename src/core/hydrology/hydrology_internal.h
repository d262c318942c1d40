/* The hydrology process's state, shared by its files: hydrology.c (droplets,
 * batches, the process ops), hydrology_trees.c (vegetation) and
 * hydrology_state.c (the snapshot blob). Private to src/core/hydrology. */
#ifndef GULLY_HYDROLOGY_INTERNAL_H
#define GULLY_HYDROLOGY_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/params.h"
#include "core/base/world.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology_stream.h"
#include "core/hydrology/tree_map.h"

struct workers;
struct hlanes;

/* Root steps a tree gives its cell; a cell holding this many has a tree. */
#define ROOT_CENTRE 5
#define ROOT_SIDE 3
#define ROOT_DIAG 2

/* Trees live on a clock of batches and act only when one of their events
 * is due (hydrology_trees.c): each keeps the batch of its next seeding and
 * of its death by chance. */
struct tree {
	int32_t cell;     /* -1: a free slot */
	uint64_t serial;  /* birth order: orders a batch's events, keys the tree's draws */
	uint64_t seed_at; /* batch of its next seeding */
	uint64_t die_at;  /* batch it dies by chance */
};

/* A tree's next event: stale once its slot holds another serial. */
struct tree_event {
	uint64_t serial;
	uint32_t slot;
};

struct tree_list {
	struct tree_event *e;
	size_t n, cap;
};

/* Events in the next TREE_WHEEL batches sit in the wheel, at due % TREE_WHEEL;
 * later ones in `far`, moved in each time the wheel turns. */
#define TREE_WHEEL 256u
/* Both event batches of a tree read from a version 1 snapshot, drawn at the
 * next batch's end (loading knows no chances). */
#define TREE_UNDRAWN UINT64_MAX

struct forest {
	struct tree *trees; /* by slot */
	size_t slots, cap, live;
	uint32_t *free;     /* free slots, a stack */
	size_t nfree;
	struct tree_map at; /* cell -> the slot of its tree */
	struct tree_list wheel[TREE_WHEEL], far;
	struct tree_list tracked; /* trees on the cells the batch's droplets visited */
	struct tree_list spare;   /* the other buffer of a batch's sort (events_sort) */
	uint64_t now;       /* batches ended */
	uint64_t key;       /* the trees' draws */
	uint64_t next_serial;
	bool undrawn;       /* some tree's events are TREE_UNDRAWN */
	uint64_t events_run, checks_run; /* for hydrology_counters */
};

struct hydro_state {
	struct world *w;   /* the world the state was made for (vegetation) */
	int width, height;
	struct flood *flood;
	struct hlanes *lanes; /* droplets in flight (hydrology.lanes > 1) */
	uint8_t *track;    /* cells visited in the current batch */
	struct hstream hs; /* the stream map's lazy update */
	uint8_t *roots;    /* root density in HYDROLOGY_ROOT_UNIT steps */
	struct forest forest;
	double (*clock)(void);
	double flood_seconds;
	/* The world's counters when step() last returned: if they moved, some
	 * other process ran and the flood's lake records may be stale. */
	uint64_t seen_particles, seen_steps;
	struct workers *workers; /* world.threads > 1: the stream map's catch-up */
	bool lag; /* catch_up(lag): step() may leave the stream layer behind */
	bool lanes_always; /* hydrology_set_lanes_always */
};

/* Adds (sign +1) or removes (-1) a tree's roots around `cell`, and the
 * vegetation layer with them. */
void hydro_root(struct hydro_state *s, int32_t cell, int sign);
/* Before the batch's end clears the track map: notes the trees on the cells
 * the batch's droplets visited (their stream may now be too strong). */
int hydro_trees_note_tracks(struct hydro_state *s);
/* One batch of the trees, after the stream map learned the batch: trees on
 * visited cells die on a strong stream or a pool; random spawns (the
 * world's random stream); then the events due, in birth order (seeding,
 * death by chance, and death in a pool that rose over the tree).
 * GULLY_ENOMEM when the trees cannot grow. */
int hydro_trees_grow(struct hydro_state *s, struct world *w, const struct params *p);
/* Adds a tree at `cell` with the given serial and event batches (both
 * TREE_UNDRAWN: drawn at the next batch's end). */
int hydro_tree_plant(struct hydro_state *s, int32_t cell, uint64_t serial, uint64_t seed_at,
		     uint64_t die_at);
void hydro_trees_free(struct forest *f);
/* The process's save_state and load_state. */
int hydro_save_state(const void *state, unsigned char **data, size_t *len);
int hydro_load_state(void *state, const unsigned char *data, size_t len);

#endif
