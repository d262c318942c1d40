/* The lockstep engine with one copy of its read phase forced and its read
 * phase split over a pool, for the tests that hold every copy and every
 * split to the scalar reference's bits (test_lanes_exact.c,
 * test_particles_hardness.c). */
#ifndef GULLY_TESTS_LANESUTIL_H
#define GULLY_TESTS_LANESUTIL_H

#include "testutil.h"

#include "core/base/workers.h"
#include "core/particles/lockstep.h"
#include "core/particles/particles.h"
#include "core/terrain/terrain.h"

/* Runs n droplets on a world made from p (on `heights` when not NULL) with
 * the engine forced to one copy (and its state into *blob); NULL when this
 * CPU or build lacks it. */
static inline struct world *lanes_run_on(const struct params *p, const float *heights,
					 enum lockstep_isa isa, struct workers *pool, uint64_t n,
					 unsigned char **blob, size_t *blob_len)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params_on(&w, p, heights), 0);
	struct lockstep *pl = lockstep_create(w->width, w->height);
	assert_non_null(pl);
	if (!lockstep_set_isa(pl, isa)) {
		lockstep_destroy(pl);
		world_destroy(w);
		return NULL;
	}
	lockstep_set_workers(pl, pool);
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	/* Two calls, and lanes lowered in the second: slots above the new
	 * count run out and are not refilled. */
	assert_int_equal(lockstep_run(pl, w, &dp, p->particles.lanes, n / 2, &steps), 0);
	int second = p->particles.lanes > 3 ? p->particles.lanes - 3 : p->particles.lanes;
	assert_int_equal(lockstep_run(pl, w, &dp, second, n - n / 2, &steps), 0);
	w->steps = steps;
	w->particles = n;
	assert_int_equal(lockstep_save(pl, blob, blob_len), 0);
	lockstep_destroy(pl);
	return w;
}

static inline struct world *lanes_run_pool(const struct params *p, enum lockstep_isa isa,
					   struct workers *pool, uint64_t n, unsigned char **blob,
					   size_t *blob_len)
{
	return lanes_run_on(p, NULL, isa, pool, n, blob, blob_len);
}

#endif
