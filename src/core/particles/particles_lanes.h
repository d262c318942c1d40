/* Droplets in lockstep: the particles process's engine for particles.lanes > 1.
 *
 * L lanes (slots) each hold one droplet in flight; one tick steps every
 * droplet once, SIMD across droplets (lane i of a vector is slot i). The
 * per-droplet formulas are the ones of particles_lane.h; what changes is the
 * order in which droplets see each other's changes, defined exactly so that
 * every build and every instruction set gives the same bits:
 *
 * - Refill: each empty slot i < L, in slot order, gets the next droplet,
 *   spawned from the world's RNG (particles_spawn, the same draws as ever).
 *   step(budget N) releases exactly N droplets and returns right after the
 *   N-th is spawned; empty slots it did not reach are filled first, in slot
 *   order, by the next call. So any split of a run into calls gives the bits
 *   of one call.
 * - Read phase: every droplet in flight reads what it needs (the 3x3 block
 *   for the normal, the heights of its cell and of the cell it moves to) from
 *   the map as it was at the start of the tick; its own earlier ticks' writes
 *   are in it.
 * - Write phase: erosion and deposition are read-modify-write, h[c] -= delta,
 *   in slot order: two droplets on one cell both count, in a fixed order.
 * - End phase: droplets that ended this tick (dried up, left the map, or
 *   reached max_steps) do their end work in slot order (deposit on death,
 *   also read-modify-write) and free their slot.
 * - Tallies: each step's change of height goes to eroded/deposited as it is
 *   written (tick order, then slot order), so they always match the terrain;
 *   at the end of each call TALLY_SEDIMENT_IN_FLIGHT is set to the soil the
 *   droplets in flight carry, and eroded - deposited = sediment_off_map +
 *   sediment_in_flight.
 * - Droplets in flight stay here between calls and travel in snapshots
 *   (particles_lanes_save/load).
 *
 * Slots >= L still holding droplets (L was lowered) keep stepping but are not
 * refilled. Private to src/core. */
#ifndef GULLY_PARTICLES_LANES_H
#define GULLY_PARTICLES_LANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/particles/particles.h"

#define LANES_MAX 64

struct particles_lanes;

/* NULL when out of memory. */
struct particles_lanes *particles_lanes_create(int width, int height);
void particles_lanes_destroy(struct particles_lanes *pl);

/* Releases `budget` droplets through `lanes` slots (1..LANES_MAX); adds the
 * steps taken to *steps and sets TALLY_SEDIMENT_IN_FLIGHT. With budget 0 it
 * changes nothing. GULLY_EINVAL for a lane count out of range or a world of
 * another size than the one the state was made for. */
int particles_lanes_run(struct particles_lanes *pl, struct world *w,
			const struct droplet_params *dp, int lanes, uint64_t budget,
			uint64_t *steps);

/* Runs the droplets in flight to their end without releasing any (before the
 * one-at-a-time scheduler takes over); adds their steps to *steps. */
int particles_lanes_drain(struct particles_lanes *pl, struct world *w,
			  const struct droplet_params *dp, uint64_t *steps);

/* Droplets in flight now. */
int particles_lanes_in_flight(const struct particles_lanes *pl);

/* The droplets in flight as a little-endian blob: "GPLN", u32 version 1, u32
 * width, u32 height, u64 mask of the occupied slots, then for each occupied
 * slot in order x, y, vx, vy, volume, sediment (f32 bits), carried (f64
 * bits), age (u32). Load checks everything (magic, version, size, length,
 * finite values on the map) before it changes anything: GULLY_EFORMAT. */
int particles_lanes_save(const struct particles_lanes *pl, unsigned char **data, size_t *len);
int particles_lanes_load(struct particles_lanes *pl, const unsigned char *data, size_t len);

/* Which compiled copy of the tick runs: the best the CPU has (AUTO), or one
 * forced so the tests can check they all give the same bits. SCALAR is the
 * portable reference (loops over lanes), always there. Returns false, changing
 * nothing, when this CPU or build lacks it. */
enum lanes_isa { LANES_ISA_AUTO, LANES_ISA_SCALAR, LANES_ISA_SSE2, LANES_ISA_AVX2 };
bool particles_lanes_set_isa(struct particles_lanes *pl, enum lanes_isa isa);
/* "avx2", "sse2" or "scalar". */
const char *particles_lanes_isa_name(const struct particles_lanes *pl);

/* How the 3x3 blocks are read in the AVX2 copy: three 4-wide row loads per
 * lane and a transpose (default), or _mm256_i32gather_ps; for the benchmark.
 * Both give the same bits. */
void particles_lanes_set_gather(struct particles_lanes *pl, bool hw_gather);

#endif
