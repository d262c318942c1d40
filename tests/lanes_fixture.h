/* What the lockstep tests share (test_lanes, test_lanes_exact): small worlds
 * and parameters, the particles process kept alive across calls (droplets
 * in flight live in it), and the comparisons. */
#ifndef GULLY_TESTS_LANES_FIXTURE_H
#define GULLY_TESTS_LANES_FIXTURE_H

#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/workers.h"
#include "core/particles/particles.h"
#include "core/particles/droplet.h"
#include "core/particles/lockstep.h"
#include "core/terrain/terrain.h"
#include "lanesutil.h"

static inline struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static inline void small_params(struct params *p, int size, int lanes)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->particles.lanes = lanes;
	p->particles.epoch = 0; /* one engine: the halves have test_particles_halves */
}

static inline void assert_same_world(const struct world *a, const struct world *b)
{
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
	assert_int_equal(a->particles, b->particles);
	assert_int_equal(a->steps, b->steps);
}

/* The soil books: eroded - deposited = off the map + still in flight
 * (with deposit on death; without it, dying droplets' loads leave too). */
static inline void assert_soil_balances(const struct world *w)
{
	double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
	double gone = w->tally[TALLY_SEDIMENT_OFF_MAP] + w->tally[TALLY_SEDIMENT_IN_FLIGHT];
	assert_true(er > 0);
	assert_true(fabs((er - de) - gone) <= 1e-6 * er);
}

/* The process, kept alive across calls (droplets in flight live in it). */
struct proc {
	void *st;
};

static inline void proc_open(struct proc *pr, struct world *w, const struct params *p)
{
	assert_int_equal(particles_process.create(&pr->st, w, p), 0);
}

static inline void proc_step(struct proc *pr, struct world *w, const struct params *p, uint64_t n)
{
	struct process_report rep;
	assert_int_equal(particles_process.step(pr->st, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
}

static inline void proc_close(struct proc *pr)
{
	particles_process.destroy(pr->st);
}

static inline void blob_of(struct proc *pr, unsigned char **b, size_t *len)
{
	assert_int_equal(particles_process.save_state(pr->st, b, len), 0);
}

#endif
