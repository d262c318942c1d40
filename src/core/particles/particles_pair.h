/* Two droplets at once, with exactly the results of one after the other.
 *
 * A droplet step is a chain of dependent operations (position, cell, normal,
 * speed, position), so one droplet leaves most of the CPU idle. The scheduler
 * runs the next droplet (the follower) interleaved with the current one (the
 * leader) on the same thread. Followers stamp the 3x3 block around every cell
 * they enter and log every height they overwrite; each step the leader checks
 * the stamp of its own cell and of the cell it moves to. Droplets interact
 * only through the cells within one of their centres, so no stamp means the
 * followers neither saw nor changed anything the leader touches, and the
 * order does not matter. A follower that ends first waits, uncommitted,
 * while the next one starts. On a hit every follower is undone from the log
 * and rerun after the leader. Private to src/core. */
#ifndef GULLY_PARTICLES_PAIR_H
#define GULLY_PARTICLES_PAIR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/particles/particles.h"

struct particles_pair;

/* Counters of what the speculation did, for the benchmark and tests. */
struct particles_pair_stats {
	uint64_t followers;  /* droplets started alongside a leader */
	uint64_t rollbacks;  /* of those, undone and rerun */
	uint64_t paired_steps; /* leader steps taken with a follower running */
	uint64_t undone_steps; /* follower steps thrown away by rollbacks */
	uint64_t log_grows;  /* times the undo log had to grow */
};

/* NULL when out of memory. */
struct particles_pair *particles_pair_create(int width, int height);
void particles_pair_destroy(struct particles_pair *pp);

/* Runs `budget` droplets spawned from w->rng, exactly as `budget` calls of
 * droplet_run in a row would; returns the steps taken. GULLY_ENOMEM when the
 * stamp map cannot be (re)allocated, before anything changed. */
int particles_pair_run(struct particles_pair *pp, struct world *w,
		       const struct droplet_params *dp, uint64_t budget, uint64_t *steps);

const struct particles_pair_stats *particles_pair_stats(const struct particles_pair *pp);

/* Which compiled copy of the scheduler runs: the best the CPU has (AUTO, the
 * default), or one forced, so tests can check that all give the same bits.
 * Returns false, changing nothing, when this CPU or build lacks it. */
enum pair_isa { PAIR_ISA_AUTO, PAIR_ISA_BASE, PAIR_ISA_AVX2 };
bool particles_pair_set_isa(struct particles_pair *pp, enum pair_isa isa);
/* "avx2", "sse2" or "scalar". */
const char *particles_pair_isa_name(const struct particles_pair *pp);

/* The spawn point of the next droplet, drawn from the world's RNG: shared by
 * every runner so they draw identically. */
void particles_spawn(struct world *w, struct droplet *d);

#endif
