/* Hydrology's droplets in lanes: the engine behind hydrology.lanes > 1.
 *
 * L slots each hold one droplet part-way down; a tick takes one descent step
 * of every droplet in flight, SIMD across droplets (slot i is lane i). A lane
 * does hydrology_descend's arithmetic in its order (hydrology_descend_lane
 * is the reference, and the copy for lanes near the map's edge); what the
 * lanes change is the order in which droplets see each other, fixed so that
 * every build and instruction set gives the same bits, as the particles'
 * lockstep engine does (particles/lockstep.h):
 *
 * - Refill (hydrology_lanes.c): each empty slot below L, in slot order, gets
 *   the next droplet from the world's RNG, which starts its life at once
 *   (a droplet born on a pool pours before any tick).
 * - Read phase (hlanes_tick): every droplet in flight takes its step from
 *   the map as the tick found it.
 * - Write phase (hlanes_tick): in slot order, each stepping droplet's cell
 *   is visited (its track byte), h[c] -= delta where it eroded or deposited
 *   (a read-modify-write: two droplets on one cell both count), and the
 *   change goes to the droplet's books and carried soil and to the flood's
 *   lake cache.
 * - End phase (hydrology_lanes.c): in slot order, each droplet whose descent
 *   ended pours, starts another round, or ends (its books into the world's
 *   tallies; a batch may end there).
 *
 * With one lane this is the order of droplets one after another: the bits
 * of hydrology.lanes = 1 (tests/test_hydrology_lanes.c holds that). Private
 * to src/core/hydrology. */
#ifndef GULLY_HYDROLOGY_HLANES_H
#define GULLY_HYDROLOGY_HLANES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/base/bits.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/hydrology/hydrology_life.h"

#define HLANES_MAX 64

struct hlanes;

/* NULL when out of memory. */
struct hlanes *hlanes_create(int width, int height);
void hlanes_destroy(struct hlanes *L);
/* Drops every droplet in flight. */
void hlanes_clear(struct hlanes *L);

/* Bit i: slot i holds a droplet. */
uint64_t hlanes_active(const struct hlanes *L);
int hlanes_in_flight(const struct hlanes *L);
/* Net soil the droplets in flight have taken from the ground: their books,
 * eroded less deposited, which reach the world's tallies when they end. */
double hlanes_soil_in_flight(const struct hlanes *L);

/* Slot i's droplet as a life at LIFE_DESCENT (hydrology_life.h), and back:
 * hlanes_put occupies the slot, hlanes_free empties it. */
void hlanes_get(const struct hlanes *L, int i, struct life *l);
void hlanes_put(struct hlanes *L, int i, const struct life *l);
void hlanes_free(struct hlanes *L, int i);

/* What a tick did, by slot. */
struct hlanes_tick {
	uint64_t stepped; /* took a step (its cell's track byte is set) */
	uint64_t flood;   /* the descent stopped to flood (DESCENT_FLOOD) */
	uint64_t left;    /* stepped off the map (DESCENT_LEFT) */
	uint64_t died;    /* dried up, too old, or dried in a pit (DESCENT_DIED) */
	uint64_t pit_dry; /* of those, dried in a pit: its cell's track byte is set */
	uint64_t steps;
};

/* The vector copies' constants from a descent's environment: before the
 * ticks of a step() call. */
void hlanes_prepare(struct hlanes *L, const struct hd_env *e);
/* One tick of slots [0, span) (span a multiple of 8, at most HLANES_MAX):
 * the read and write phases. Descents that ended are in t; their droplets
 * stay in their slots for the end phase. The cells whose height moved go
 * to flood_forget_cell. hlanes_prepare must have seen e. */
void hlanes_tick(struct hlanes *L, const struct hd_env *e, struct flood *f, int span,
		 struct hlanes_tick *t);

/* The droplets in flight as a little-endian blob: "GHLN", u32 version 1,
 * u32 width, u32 height, u64 mask of the occupied slots, then per occupied
 * slot x, y, vx, vy, sediment (f32 bits), volume, carried, volume0 (f64),
 * age (u32), round (u32), and its books: evaporated, off_map, eroded,
 * deposited, sediment_off_map (f64). Load checks everything (magic, version,
 * size, length, finite values, a position on the map, the speed, load, soil
 * and volume limits of hlanes_state.c) before it changes anything:
 * GULLY_EFORMAT. gully-snapshot(5) documents it. */
#define HLANES_MAGIC 0x4e4c4847u /* "GHLN" read as a little-endian u32 */
int hlanes_save(const struct hlanes *L, unsigned char **data, size_t *len);
int hlanes_load(struct hlanes *L, const unsigned char *data, size_t len);

/* Which copy of the read phase runs: the best the CPU has (AUTO), or one
 * forced so the tests can check they all give the same bits. SCALAR is
 * hydrology_descend_lane slot by slot, the reference; SSE2 and AVX2 are
 * hlanes_simd.h at 4 and 8 lanes a vector. False, changing nothing, when
 * this CPU or build lacks it. */
enum hlanes_isa { HLANES_ISA_AUTO, HLANES_ISA_SCALAR, HLANES_ISA_SSE2, HLANES_ISA_AVX2 };
bool hlanes_set_isa(struct hlanes *L, enum hlanes_isa isa);

#endif
