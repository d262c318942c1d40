/* Process 1: particle hydraulic erosion (N. McDonald, seeds 000 and 002).
 * Droplets slide down the surface normal, trade sediment with the ground by
 * a mass-transfer law and evaporate. */
#ifndef GULLY_PARTICLES_H
#define GULLY_PARTICLES_H

#include <stdbool.h>

#include "core/base/process.h"

extern const struct process_ops particles_process;

/* A droplet at rest between runs (droplet.h steps it). */
struct droplet {
	float x, y;      /* position, cells */
	float vx, vy;    /* speed */
	float volume;
	float sediment;  /* the seed's sediment concentration */
	double carried;  /* soil actually taken from the ground, net: what deposit
			  * on death returns, so mass is kept exactly */
	uint32_t age;
};

/* The constants a droplet step needs, taken from params once per batch. */
struct droplet_params {
	float dt, density, friction, deposition_rate, evap_rate, min_volume;
	float scale;     /* terrain.vertical_scale */
	float hardness;  /* particles.hardness: 0 leaves the hardness map unread */
	uint32_t max_steps;
	bool deposit_on_death, symmetric_normal;
};

void droplet_params_from(struct droplet_params *dp, const struct params *p);

/* The droplets in one epoch of the halves (halves.h) for particles.epoch
 * > 0 on this world: epoch per 256x256 cells, at least 2 and at most
 * PARTICLES_EPOCH_MAX. */
#define PARTICLES_EPOCH_MAX 32768u
uint64_t particles_epoch(int epoch, const struct world *w);

/* Runs one droplet from a spawn point to its end; returns the steps taken.
 *
 * The process runs droplets in one of three orders, chosen by particles.lanes
 * and particles.epoch:
 * - lanes = 1, the seed's order: one droplet after another, each run to
 *   its end by this function's step (droplet.h).
 * - lanes = L > 1 (the default, 64): L droplets in flight in lockstep
 *   (lockstep.h). Each tick every droplet in flight takes one step;
 *   all read the map as it was at the start of the tick, then erosion and
 *   deposition are applied as h -= delta in lane order (two droplets on one
 *   cell both count), then droplets that ended drop their load in lane
 *   order; empty lanes are refilled from the world's RNG in lane order. A
 *   step(N) call releases exactly N droplets and returns right after the
 *   N-th is spawned; droplets still in flight stay in the process state
 *   (and in snapshots), and the soil they carry is the tally
 *   sediment_in_flight. Same parameters, seed and droplet counts give the
 *   same bits however the run is split into calls, on every build and
 *   instruction set. The per-droplet formulas are this function's; only
 *   the order in which droplets see each other's changes differs (the
 *   resulting maps differ by much less than one seed from another:
 *   bench/PARTICLES.md). With particles.epoch = 0 this is one engine.
 * - particles.epoch > 0 (the default, 512) with lanes > 1: two such engines
 *   of half the lanes each, side by side, each on its own copy of the map,
 *   merged every epoch (halves.h); one thread or two give the same bits. */
uint32_t droplet_run(struct droplet *d, struct world *w, const struct droplet_params *dp);

#endif
