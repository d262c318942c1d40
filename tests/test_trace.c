/* The explorer's single-droplet trace runs the process's own step: followed
 * to its end from the point the process would spawn its next droplet, it
 * leaves the same map, tallies and counters as the process releasing that
 * droplet (particles.lanes = 1), bit for bit; after k steps its droplet and
 * map are those of the process's droplet run stopped after k steps. */
#include "testutil.h"
#include "worldutil.h"

#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/base/rng.h"
#include "core/terrain/terrain.h"
#include "core/particles/particles.h"
#include "core/particles/trace.h"

static struct world *make_world(struct params *p, int size, int seed)
{
	params_defaults(p);
	p->world.width = p->world.height = size;
	p->world.seed = seed;
	p->particles.lanes = 1;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), GULLY_OK);
	return w;
}

static void assert_same_droplet(const struct droplet *a, const struct droplet *b)
{
	assert_memory_equal(&a->x, &b->x, sizeof a->x);
	assert_memory_equal(&a->y, &b->y, sizeof a->y);
	assert_memory_equal(&a->vx, &b->vx, sizeof a->vx);
	assert_memory_equal(&a->vy, &b->vy, sizeof a->vy);
	assert_memory_equal(&a->volume, &b->volume, sizeof a->volume);
	assert_memory_equal(&a->sediment, &b->sediment, sizeof a->sediment);
	assert_int_equal(a->age, b->age);
}

/* Where the process puts its next droplet: two draws of the world's stream. */
static void next_spawn(const struct world *w, float *x, float *y)
{
	struct rng r = w->rng;
	*x = rng_float(&r) * (float)w->width;
	*y = rng_float(&r) * (float)w->height;
}

/* Several droplets in turn, each traced on one world and released by the
 * process on a copy: the two worlds stay equal bit for bit. */
static void test_trace_is_the_process(void **state)
{
	(void)state;
	struct params p;
	struct world *traced = make_world(&p, 48, 7), *run = NULL;
	const struct process_ops *proc = process_find("particles");
	void *ps = NULL;
	/* A few droplets first, so the trace meets an eroded map. */
	assert_int_equal(proc->create(&ps, traced, &p), GULLY_OK);
	assert_int_equal(proc->step(ps, traced, &p, 300, NULL), GULLY_OK);
	proc->destroy(ps);
	assert_int_equal(world_clone(&run, traced), GULLY_OK);
	assert_int_equal(proc->create(&ps, run, &p), GULLY_OK);
	int moved_total = 0;
	for (int k = 0; k < 40; k++) {
		float x, y;
		next_spawn(run, &x, &y);
		struct particles_trace *t;
		struct particles_trace_state s;
		assert_int_equal(particles_trace_start(&t, traced, &p, x, y, &s), GULLY_OK);
		assert_int_equal(s.steps, 0);
		uint32_t n = 0;
		while (particles_trace_step(t, traced, &s)) {
			if (s.ended)
				break;
			n++;
			assert_int_equal(s.steps, n);
			assert_true(s.cell >= 0);
			assert_true(traced->layer[LAYER_HEIGHT][s.cell] == s.after);
		}
		assert_true(s.ended);
		/* Once ended, nothing more happens. */
		assert_false(particles_trace_step(t, traced, &s));
		particles_trace_free(t);
		moved_total += (int)n;
		/* The process releases the same droplet; the traced world took no
		 * random draws, so step the RNG the way the spawn did. */
		assert_int_equal(proc->step(ps, run, &p, 1, NULL), GULLY_OK);
		traced->rng = run->rng;
		assert_same_world(traced, run);
	}
	assert_true(moved_total > 40);
	proc->destroy(ps);
	world_destroy(run);
	world_destroy(traced);
}

/* After k steps: the droplet and the map of the process's own droplet run
 * with max_steps = k (no deposit on death, which belongs to the end). */
static void test_trace_steps_are_the_process_steps(void **state)
{
	(void)state;
	struct params p;
	struct world *w = make_world(&p, 40, 3);
	struct world *start = NULL;
	assert_int_equal(world_clone(&start, w), GULLY_OK);
	const float x0 = 17.25f, y0 = 22.5f;
	struct particles_trace *t;
	struct particles_trace_state s;
	assert_int_equal(particles_trace_start(&t, w, &p, x0, y0, &s), GULLY_OK);
	int checked = 0;
	struct droplet_params dq;
	droplet_params_from(&dq, &p);
	const float rate = dq.dt * dq.deposition_rate;
	float sediment = s.d.sediment;
	for (uint32_t k = 1; k <= 400 && particles_trace_step(t, w, &s) && !s.ended; k++) {
		/* The c_eq shown is the one the step used: s moved toward it by
		 * rate (c_eq - s), in the step's own float arithmetic. */
		volatile float moved = rate * (s.c_eq - sediment);
		assert_true(s.d.sediment == sediment + moved);
		assert_true(s.c_eq >= 0);
		sediment = s.d.sediment;
		if (k > 40 && k % 37 != 0)
			continue;
		struct world *ref = NULL;
		assert_int_equal(world_clone(&ref, start), GULLY_OK);
		struct droplet_params dp;
		droplet_params_from(&dp, &p);
		dp.max_steps = k;
		dp.deposit_on_death = false;
		struct droplet d = {.x = x0, .y = y0, .volume = 1.0f};
		assert_int_equal(droplet_run(&d, ref, &dp), k);
		assert_same_droplet(&s.d, &d);
		assert_memory_equal(ref->layer[LAYER_HEIGHT], w->layer[LAYER_HEIGHT],
				    world_cells(w) * sizeof(float));
		/* The height change shown is the cell's own. */
		assert_true(s.after == ref->layer[LAYER_HEIGHT][s.cell]);
		assert_true(s.before == start->layer[LAYER_HEIGHT][s.cell] || k > 1);
		world_destroy(ref);
		checked++;
	}
	assert_true(checked >= 10);
	particles_trace_free(t);
	world_destroy(start);
	world_destroy(w);
}

/* A start off the map is refused; a trace on another world does nothing. */
static void test_trace_refuses(void **state)
{
	(void)state;
	struct params p;
	struct world *w = make_world(&p, 32, 1), *other = NULL;
	struct particles_trace *t;
	struct particles_trace_state s;
	assert_int_equal(particles_trace_start(&t, w, &p, -1, 3, &s), GULLY_EINVAL);
	assert_int_equal(particles_trace_start(&t, w, &p, 3, 32, &s), GULLY_EINVAL);
	assert_int_equal(particles_trace_start(&t, w, &p, 3, 3, &s), GULLY_OK);
	assert_int_equal(world_clone(&other, w), GULLY_OK);
	assert_false(particles_trace_step(t, other, &s));
	assert_memory_equal(other->layer[LAYER_HEIGHT], w->layer[LAYER_HEIGHT],
			    world_cells(w) * sizeof(float));
	particles_trace_free(t);
	world_destroy(other);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_is_the_process),
		cmocka_unit_test(test_trace_steps_are_the_process_steps),
		cmocka_unit_test(test_trace_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
