/* Droplets in lockstep: the particles process's engine for particles.lanes > 1.
 *
 * L lanes (slots) each hold one droplet in flight; one tick steps every
 * droplet once, SIMD across droplets (lane i of a vector is slot i). The
 * per-droplet formulas are droplet.h's step; what changes is the
 * order in which droplets see each other's changes, defined exactly so that
 * every build and every instruction set gives the same bits:
 *
 * - Refill: each empty slot i < L, in slot order, gets the next droplet,
 *   spawned from the world's RNG (droplet_spawn, the same draws as ever).
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
 *   (lockstep_save/load).
 *
 * Slots >= L still holding droplets (L was lowered) keep stepping but are not
 * refilled. Private to src/core. */
#ifndef GULLY_CORE_PARTICLES_LOCKSTEP_H
#define GULLY_CORE_PARTICLES_LOCKSTEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/particles/particles.h"

#define LOCKSTEP_MAX_LANES 64

struct lockstep;

/* NULL when out of memory. */
struct lockstep *lockstep_create(int width, int height);
void lockstep_destroy(struct lockstep *pl);
/* Drops every droplet in flight. */
void lockstep_clear(struct lockstep *pl);

/* Releases `budget` droplets through `lanes` slots (1..LOCKSTEP_MAX_LANES); adds the
 * steps taken to *steps and sets TALLY_SEDIMENT_IN_FLIGHT. With budget 0 it
 * changes nothing. GULLY_EINVAL for a lane count out of range or a world of
 * another size than the one the state was made for. */
int lockstep_run(struct lockstep *pl, struct world *w,
			const struct droplet_params *dp, int lanes, uint64_t budget,
			uint64_t *steps);

/* Runs the droplets in flight to their end without releasing any (before the
 * one-at-a-time scheduler takes over); adds their steps to *steps. */
int lockstep_drain(struct lockstep *pl, struct world *w,
			  const struct droplet_params *dp, uint64_t *steps);

/* Droplets in flight now, and the soil they carry (what
 * TALLY_SEDIMENT_IN_FLIGHT is set to). */
int lockstep_in_flight(const struct lockstep *pl);
double lockstep_soil_in_flight(const struct lockstep *pl);

/* The droplets in flight as a little-endian blob: "GPLN", u32 version 1, u32
 * width, u32 height, u64 mask of the occupied slots, then for each occupied
 * slot in order x, y, vx, vy, volume, sediment (f32 bits), carried (f64
 * bits), age (u32). Load checks everything (magic, version, size, length,
 * finite values on the map) before it changes anything: GULLY_EFORMAT. */
int lockstep_save(const struct lockstep *pl, unsigned char **data, size_t *len);
int lockstep_load(struct lockstep *pl, const unsigned char *data, size_t len);

/* Which compiled copy of the read phase runs: the best the CPU has (AUTO), or
 * one forced so the tests can check they all give the same bits. SCALAR is
 * the portable reference (droplet_advance slot by slot), always there; SSE2
 * and AVX2 are lockstep_simd.h built for 4 and 8 lanes a vector. Returns false, changing
 * nothing, when this CPU or build lacks it. */
enum lockstep_isa { LOCKSTEP_ISA_AUTO, LOCKSTEP_ISA_SCALAR, LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2 };
bool lockstep_set_isa(struct lockstep *pl, enum lockstep_isa isa);
/* Splits each tick's read phase over a pool's workers, contiguous runs of
 * whole vectors of slots each (NULL or a pool of 1: the caller's thread
 * alone). Every slot's read half reads only the map as it was at the start
 * of the tick and writes only its own slot, so any split gives the same bits.
 * The pool is the caller's; it must outlive its use here. */
struct workers;
void lockstep_set_workers(struct lockstep *pl, struct workers *w);

/* The copy in use (never AUTO), and its name: "avx2", "sse2" or "scalar". */
enum lockstep_isa lockstep_isa(const struct lockstep *pl);
const char *lockstep_isa_name(const struct lockstep *pl);

#endif
