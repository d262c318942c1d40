/* Two halves of the droplets side by side: the particles process's model for
 * particles.epoch > 0 (lanes > 1), which one run can spread over two cores
 * and still give the same bits on any thread count.
 *
 * The rule, exact whatever the threads:
 * - Droplets are released in epochs of E droplets (particles_epoch: E =
 *   particles.epoch per 256x256 cells, at most PARTICLES_EPOCH_MAX). In an epoch the droplets numbered 0,
 *   2, 4, ... go to half A, 1, 3, 5, ... to half B. Each half is a lockstep
 *   engine (lockstep.h) of half the lanes (A takes the odd one) on a view of
 *   its own: the map as the epoch began plus its own writes. Half A's view
 *   is the world's height layer itself; half B's a copy. A spawns from the
 *   world's RNG, so its droplets are the ones one engine would release
 *   first; B from a stream of its own (halves_seed), seeded from the world's
 *   when the halves start.
 * - At the end of an epoch the views merge, cell by cell:
 *   h = a + (b - base), base being the map the epoch began with, and every
 *   view and the base restart from h. Droplets in flight stay in their half
 *   and go on in the next epoch.
 * - What a half does depends only on the epoch's map and its own droplets,
 *   so running A then B on one thread, or both at once on two, gives the
 *   same floats; a step(N) call that ends mid-epoch leaves the views as they
 *   are, so any split of a run into calls gives the bits of one call.
 * - Tallies: half A books straight into the world; half B into a tally of
 *   its own, added to the world's at the merge. Between merges the world's
 *   layer holds the epoch's start plus A's writes, and its tallies say just
 *   that: eroded - deposited = sediment_off_map + sediment_in_flight still
 *   holds, with B's droplets in flight counted as they were at the merge.
 *
 * Droplets in different halves see each other's erosion only at merges, so
 * this is a different model from one engine (whose droplets see each other
 * every tick); bench/PARTICLES.md measures its maps against the seed's.
 * Private to src/core/particles. */
#ifndef GULLY_CORE_PARTICLES_HALVES_H
#define GULLY_CORE_PARTICLES_HALVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/particles/lockstep.h"

struct halves;
struct workers;

/* NULL when out of memory. The views are made when the halves start. */
struct halves *halves_create(int width, int height);
void halves_destroy(struct halves *hv);

/* True while the halves hold state a snapshot must keep: views that differ
 * from the world, B's droplets, an epoch under way. */
bool halves_started(const struct halves *hv);

/* B's stream, from the world's as it is (which it leaves as it is). */
void halves_seed(struct rng *b, const struct rng *world);

/* Releases `budget` droplets in epochs of `epoch` (> 0) droplets; `a` is
 * half A's engine (the process's own, whose droplets in flight become
 * half A's). `pool` may be NULL (one thread). Adds the steps taken to
 * *steps and sets TALLY_SEDIMENT_IN_FLIGHT. GULLY_ENOMEM, or GULLY_EINVAL
 * for a world of another size or fewer than 2 lanes. */
int halves_run(struct halves *hv, struct lockstep *a, struct world *w,
	       const struct droplet_params *dp, int lanes, uint64_t epoch, uint64_t budget,
	       struct workers *pool, uint64_t *steps);

/* Ends the halves: B's droplets run to their end on B's view (and A's on
 * the world when `drain_a`), the views merge, and the halves stop (B's
 * stream is seeded afresh when they start again). Adds the steps taken to
 * *steps. Nothing to do when they have not started. */
int halves_stop(struct halves *hv, struct lockstep *a, struct world *w,
		const struct droplet_params *dp, bool drain_a, struct workers *pool,
		uint64_t *steps);

/* Forgets the halves, B's droplets in flight with them (a state blob of one
 * engine was loaded over them). */
void halves_reset(struct halves *hv);

/* The process's state blob while the halves have started: "GPHV", u32
 * version 2, u32 width, u32 height, u64 length and A's lockstep blob, u64
 * length and B's, u64 droplets released in this epoch, B's RNG (u64 state,
 * u64 inc), B's tallies since the merge (eroded, deposited, off map) and
 * its soil in flight at the merge (f64 each), then the base map (width x
 * height f32, row-major) and B's view: u32 encoding, then 0: every cell
 * (f32), or 1: u64 count and, for each cell where the view's bits differ
 * from the base's, in rising order, u32 cell and f32 value (whichever is
 * smaller). Version 1 (still read) had every cell of the view and no
 * encoding. */
int halves_save(const struct halves *hv, const struct lockstep *a, unsigned char **data,
		size_t *len);
/* True when a blob is a halves blob (its magic). */
bool halves_is_blob(const unsigned char *data, size_t len);
/* Checks everything (lengths, both lockstep blobs, every value finite and
 * in the height range) before it changes anything: GULLY_EFORMAT,
 * GULLY_EVERSION, GULLY_ENOMEM. */
int halves_load(struct halves *hv, struct lockstep *a, const unsigned char *data, size_t len);

#endif
