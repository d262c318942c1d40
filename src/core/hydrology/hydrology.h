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
 *   pit_dry (on): unless the pit is off the streams; then the droplet dries
 *   there at once (its load fills the pit), as the seed's does in the end.
 *   Pouring in every pit made a speckle of hundreds of puddles the seed
 *   never has (bench/FIDELITY.md).
 * - deposit_on_death (on) and settling: a droplet's load is never thrown
 *   away; at a leak it keeps sediment_keep (0.1) and the rest settles where
 *   it entered the pool, displacing water that stays in the pour.
 * - settle (on): the load a droplet leaves at a leak settles in the pool
 *   (the seed's vanishes; settling fills the seed's lakes, bench/FIDELITY.md).
 * - normal (particles), concentrate (off), capacity_volume (on), strict_leak
 *   (off), edge (sea): the seed's 2020 code uses four cross products,
 *   concentrates the load as water evaporates, leaves the volume out of the
 *   load a droplet can carry (c_eq = |v| dh), drains a pour at any bare
 *   ground below its start (in double; gully's float pools need a
 *   tolerance, bare ground does not) and
 *   walls its lakes in at the edge; presets/seed-hydrology-2020.yaml.
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

/* hydrology_equations.c: the equations for these settings, into buf. */
const char *hydrology_equations(const struct params *p, char *buf, size_t len);

/* Order matches hydrology.coupling's choices in params.def. */
enum hydrology_coupling {
	HYDROLOGY_NONE,    /* stream and pool maps are made but do not act back */
	HYDROLOGY_STREAMS, /* streams lower friction and evaporation */
	HYDROLOGY_TREES,   /* and trees' roots lower deposition */
	HYDROLOGY_COUPLING_COUNT
};

/* Order matches hydrology.normal's choices. */
enum hydrology_normal {
	HYDROLOGY_NORMAL_PARTICLES, /* 8 weighted neighbours (particles_normal.h) */
	HYDROLOGY_NORMAL_2020,      /* SimpleHydrology 2020: 4 cross products */
	HYDROLOGY_NORMAL_2020_WRAP, /* the same, the seed's y-edge neighbours */
	HYDROLOGY_NORMAL_COUNT
};

/* Order matches hydrology.edge's choices. */
enum hydrology_edge {
	HYDROLOGY_EDGE_SEA,  /* lakes that reach the edge drain into the sea */
	HYDROLOGY_EDGE_WALL, /* lakes rise against the edge (droplets still
			      * leave the map: holding them too makes lakes of
			      * every valley that reaches the edge, bench/FIDELITY.md) */
	HYDROLOGY_EDGE_WRAP, /* a wall, but the first and last rows are neighbours
			      * as the 2020 code's x-major index makes them */
	HYDROLOGY_EDGE_COUNT
};

/* Order matches hydrology.leak's choices. */
enum hydrology_leak {
	HYDROLOGY_LEAK_LOW,  /* a lake drains at its lowest leak */
	HYDROLOGY_LEAK_HIGH, /* at its highest one below the level (the 2020 code) */
	HYDROLOGY_LEAK_COUNT
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
	uint64_t flood_shadow_pours, flood_shadow_differed; /* the shadow check (flood.h) */
	double flood_seconds;      /* time in flood_pour, when a clock is set */
	size_t trees;              /* trees alive now */
	uint64_t tree_events;      /* tree events run (seeding, death by chance) */
	uint64_t tree_checks;      /* trees checked on cells droplets visited */
};
void hydrology_counters(const void *state, struct hydrology_counters *c);
/* The flood's lake cache (flood.h), on by default: tests turn it off to
 * check that it changes nothing. */
void hydrology_set_flood_cache(void *state, bool on);
/* The stream map's lazy update (hydrology_stream.h), on by default for
 * maps above 512x512 cells: tests and benchmarks set it either way to check
 * that it changes nothing and what it costs. Between step() calls only. */
void hydrology_set_stream_lazy(void *state, bool on);
/* The flood's shadow check (flood.h): every pour checked against a fresh
 * flood; the counters say how many differed. GULLY_ENOMEM: left off. */
int hydrology_set_flood_shadow(void *state, bool on);
/* A clock (seconds) to time flood calls with; NULL turns timing off. Core
 * reads no clock of its own. */
void hydrology_set_clock(void *state, double (*clock)(void));
/* The lanes (hydrology.lanes, core/hydrology/hlanes.h), for tests and
 * benchmarks: which copy of their read phase runs (enum hlanes_isa; false,
 * changing nothing, where this CPU or build lacks it), and `always`, with
 * which hydrology.lanes = 1 runs through the lanes too, one slot, whose
 * order must give the bits of droplets one after another. */
bool hydrology_set_lanes_isa(void *state, int isa);
void hydrology_set_lanes_always(void *state, bool on);

#endif
