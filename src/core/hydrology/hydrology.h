/* Process 2: streams, pools and vegetation (N. McDonald, "Procedural
 * hydrology", seed 001). A droplet descends as in process 1 with parameters
 * eased by the stream map, floods a pool where it stops (flood.h), drains on
 * through the pool's lowest leak, and may do that `spill` times. After each
 * batch the stream map learns where droplets went and the trees grow.
 *
 * Where it departs from the seed, each an option in params.def:
 * - sea_level (default 0): the map is an island in a sea; a pool that reaches
 *   the edge rises at most to the sea and the rest runs off (the seed walls
 *   the edge in; a sea_level above the terrain does the same).
 * - pit_stop (on): a droplet reaching a pit floods there at once; the seed's
 *   rocks in the pit until it dries, ~2000 steps, and pools hardly form.
 * - deposit_on_death (on) and settling: a droplet's load is never thrown
 *   away; at a leak it keeps sediment_keep (0.1) and the rest settles where
 *   it entered the pool, displacing water that stays in the pour.
 * - water is conserved: a draining lake's water leaves with the droplet (at
 *   most a full droplet's worth), the rest of the books are in the world's
 *   water tallies (in pool volume units: droplet volume / volume_factor). */
#ifndef GULLY_HYDROLOGY_H
#define GULLY_HYDROLOGY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/process.h"

extern const struct process_ops hydrology_process;

/* Order matches hydrology.coupling's choices in params.def. */
enum hydrology_coupling {
	HYDROLOGY_NONE,    /* stream and pool maps are made but do not act back */
	HYDROLOGY_STREAMS, /* streams lower friction and evaporation */
	HYDROLOGY_TREES,   /* and trees' roots lower deposition */
	HYDROLOGY_COUPLING_COUNT
};

/* Root density comes in steps of this: a tree adds 5 steps to its cell,
 * 3 to each side and 2 to each diagonal (the seed's 1.0, 0.6, 0.4). */
#define HYDROLOGY_ROOT_UNIT 0.2f

/* What the process has done since create(): for benchmarks and tests. */
struct hydrology_counters {
	uint64_t flood_calls;      /* flood_pour calls */
	uint64_t flood_touched;    /* cells they put on their heaps */
	uint64_t flood_lake_cells; /* cells in their lakes */
	uint64_t flood_written;    /* pool cells they wrote */
	uint64_t flood_cached;     /* calls that started from a remembered lake */
	double flood_seconds;      /* time in flood_pour, when a clock is set */
	size_t trees;              /* trees alive now */
};
void hydrology_counters(const void *state, struct hydrology_counters *c);
/* The flood's lake cache (flood.h), on by default: tests turn it off to
 * check that it changes nothing. */
void hydrology_set_flood_cache(void *state, bool on);
/* A clock (seconds) to time flood calls with; NULL turns timing off. Core
 * reads no clock of its own. */
void hydrology_set_clock(void *state, double (*clock)(void));

#endif
