/* Particles over the hardness map (particles.hardness, issue 13): off, the
 * map is not read, so no bit moves whatever it holds; on, a step that takes
 * soil takes it at (1 - a D), the emitter's meaning of hardness: a hard
 * stripe is never lowered while the soft ground beside it is, and harder
 * ground loses less. Every copy of the read phase, any thread split, the
 * two engine orders and a snapshot resume give the same bits. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/particles/particles.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"
#include "io/simulation.h"
#include "lanesutil.h"

TESTUTIL_TMPDIR_FIXTURES("hardness")

static void hard_params(struct params *p, int size, double strength, int lanes)
{
	params_defaults(p);
	p->world.width = p->world.height = size;
	p->world.seed = 11;
	p->particles.hardness = strength;
	p->particles.lanes = lanes;
}

static struct world *make(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), GULLY_OK);
	return w;
}

/* Hardness 1 on columns [x0, x1), 0 elsewhere. */
static void stripe(struct world *w, int x0, int x1)
{
	for (int y = 0; y < w->height; y++)
		for (int x = 0; x < w->width; x++)
			*world_at(w->layer[LAYER_HARDNESS], w, x, y) = x >= x0 && x < x1 ? 1.0f : 0.0f;
}

/* The process as gully run drives it: n droplets in two calls, then the
 * droplets in flight landed. */
static void run(struct world *w, const struct params *p, uint64_t n)
{
	void *st = NULL;
	assert_int_equal(particles_process.create(&st, w, p), GULLY_OK);
	struct process_report rep = {0};
	assert_int_equal(particles_process.step(st, w, p, n / 3, &rep), GULLY_OK);
	assert_int_equal(particles_process.step(st, w, p, n - n / 3, &rep), GULLY_OK);
	assert_int_equal(particles_process.finish(st, w, p, &rep), GULLY_OK);
	particles_process.destroy(st);
}

static void assert_same_ground(const struct world *a, const struct world *b)
{
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
	assert_int_equal(a->steps, b->steps);
}

static bool same_heights(const struct world *a, const struct world *b)
{
	return memcmp(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
		      world_cells(a) * sizeof(float)) == 0;
}

/* Off (0), the droplets never look at the map: a stripe or the default
 * uniform 0.5 give the same bits, in both engines. On over a map of all 0,
 * every step's factor is exactly 1: the bits of off again. */
static void test_off_reads_nothing(void **state)
{
	(void)state;
	for (int lanes = 1; lanes <= 64; lanes += 63) {
		struct params p;
		hard_params(&p, 48, 0.0, lanes);
		struct world *plain = make(&p), *striped = make(&p), *zero = make(&p);
		stripe(striped, 10, 30);
		stripe(zero, 0, 0);
		run(plain, &p, 2000);
		run(striped, &p, 2000);
		assert_same_ground(plain, striped);
		p.particles.hardness = 1.0;
		run(zero, &p, 2000);
		assert_same_ground(plain, zero);
		world_destroy(plain);
		world_destroy(striped);
		world_destroy(zero);
	}
}

/* Hardness 1 under a = 1 stops erosion there, to the bit: no cell of the
 * stripe ends below where it began (it may gain, from deposits), while the
 * soft ground beside it is cut. Off, the same stripe is cut too, so the
 * test can tell. */
static void test_hard_stripe_is_not_eroded(void **state)
{
	(void)state;
	for (int lanes = 1; lanes <= 64; lanes += 63) {
		for (int on = 0; on <= 1; on++) {
			struct params p;
			hard_params(&p, 64, on ? 1.0 : 0.0, lanes);
			struct world *w = make(&p);
			stripe(w, 24, 40);
			run(w, &p, 4000);
			int stripe_cut = 0, soft_cut = 0;
			for (int y = 0; y < w->height; y++)
				for (int x = 0; x < w->width; x++) {
					const bool cut = *world_at(w->layer[LAYER_HEIGHT], w, x, y) <
							 *world_at(w->layer[LAYER_BASE], w, x, y);
					if (x >= 24 && x < 40)
						stripe_cut += cut;
					else
						soft_cut += cut;
				}
			if (on)
				assert_int_equal(stripe_cut, 0);
			else
				assert_true(stripe_cut > 50);
			assert_true(soft_cut > 100);
			world_destroy(w);
		}
	}
}

/* A uniform map of hardness v under a = 1: 0.5 erodes less than 0, and 1
 * erodes nothing (the droplets never take soil, so never drop any: the map
 * is untouched). a = 0.5 on hardness 1 sits between off and a = 1. */
static double eroded_over(double value, double strength)
{
	struct params p;
	hard_params(&p, 48, strength, 64);
	p.hardness.value = value;
	struct world *w = make(&p);
	run(w, &p, 3000);
	const double e = w->tally[TALLY_ERODED];
	if (value == 1.0 && strength == 1.0)
		assert_memory_equal(w->layer[LAYER_HEIGHT], w->layer[LAYER_BASE],
				    world_cells(w) * sizeof(float));
	world_destroy(w);
	return e;
}

static void test_harder_erodes_less(void **state)
{
	(void)state;
	const double soft = eroded_over(0.0, 1.0), half = eroded_over(0.5, 1.0);
	assert_true(soft > 0);
	assert_true(half < soft);
	assert_true(half > 0);
	assert_true(eroded_over(1.0, 1.0) == 0);
	const double off = eroded_over(1.0, 0.0), mid = eroded_over(1.0, 0.5);
	assert_true(mid < off && mid > 0);
}

/* Scalar, SSE2 and AVX2, on one thread and split over two (1500 droplets,
 * lanesutil.h): the bits of the scalar reference on one, with strata
 * hardness under a = 0.7 (and those bits are not the bits of a = 0, so the
 * hardness path really ran). */
static void test_copies_and_threads_agree(void **state)
{
	(void)state;
	const enum lockstep_isa isas[] = {LOCKSTEP_ISA_SCALAR, LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2};
	struct workers *two = NULL;
	assert_int_equal(workers_create(&two, 2), GULLY_OK);
	const int lane_counts[] = {64, 13};
	int compared = 0;
	for (int c = 0; c < 2; c++) {
		struct params p;
		hard_params(&p, 40, 0.7, lane_counts[c]);
		p.hardness.generator = HARDNESS_STRATA;
		unsigned char *rb, *b;
		size_t rl, l;
		struct world *ref = lanes_run_pool(&p, LOCKSTEP_ISA_SCALAR, NULL, 1500, &rb, &rl);
		for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++)
			for (int t = 0; t < 2; t++) {
				struct world *w = lanes_run_pool(&p, isas[k], t ? two : NULL, 1500, &b, &l);
				if (!w)
					continue;
				assert_same_ground(ref, w);
				assert_int_equal(l, rl);
				assert_memory_equal(b, rb, l);
				compared++;
				free(b);
				world_destroy(w);
			}
		p.particles.hardness = 0.0;
		struct world *off = lanes_run_pool(&p, LOCKSTEP_ISA_SCALAR, NULL, 1500, &b, &l);
		assert_false(same_heights(ref, off));
		free(b);
		free(rb);
		world_destroy(off);
		world_destroy(ref);
	}
	workers_destroy(two);
	assert_true(compared >= 4);
}

/* One droplet in the lockstep engine is the one-at-a-time engine's droplet,
 * hardness and all. */
static void test_one_droplet_same_in_both_engines(void **state)
{
	(void)state;
	struct params p;
	hard_params(&p, 48, 0.8, 64);
	p.hardness.generator = HARDNESS_FBM;
	struct world *a = make(&p), *b = make(&p);
	run(a, &p, 1);
	p.particles.lanes = 1;
	run(b, &p, 1);
	assert_true(a->tally[TALLY_ERODED] > 0);
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	world_destroy(a);
	world_destroy(b);
}

/* A snapshot saved with droplets in flight carries the hardness layer (here
 * one no generator makes, as --hardness FILE loads it): resumed, it gives
 * the uninterrupted run's bits. */
static struct simulation fresh(void)
{
	struct simulation s = {0};
	hard_params(&s.params, 48, 1.0, 64);
	s.params.hardness.generator = HARDNESS_FILE;
	s.world = make(&s.params);
	stripe(s.world, 12, 20);
	char err[256];
	assert_int_equal(simulation_start(&s, &particles_process, NULL, "fresh", err, sizeof err),
			 GULLY_OK);
	return s;
}

static void step(struct simulation *s, uint64_t n)
{
	struct process_report rep = {0};
	assert_int_equal(s->proc->step(s->state, s->world, &s->params, n, &rep), GULLY_OK);
}

static void test_snapshot_resume_is_exact(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh(), b = fresh();
	step(&a, 3001);
	assert_int_equal(simulation_save(&a, tmp("hard.gsnap"), err, sizeof err), GULLY_OK);
	simulation_end(&a);
	struct snapshot_info saved;
	assert_int_equal(simulation_open(&a, &saved, tmp("hard.gsnap"), err, sizeof err), GULLY_OK);
	assert_int_equal(simulation_start(&a, &particles_process, &saved, "hard.gsnap", err,
					  sizeof err),
			 GULLY_OK);
	snapshot_info_free(&saved);
	assert_true(a.params.particles.hardness == 1.0);
	step(&a, 1999);
	step(&b, 5000);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(a.world->layer[l], b.world->layer[l],
				    world_cells(a.world) * sizeof(float));
	assert_memory_equal(a.world->tally, b.world->tally, sizeof a.world->tally);
	simulation_end(&a);
	simulation_end(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_off_reads_nothing),
		cmocka_unit_test(test_hard_stripe_is_not_eroded),
		cmocka_unit_test(test_harder_erodes_less),
		cmocka_unit_test(test_copies_and_threads_agree),
		cmocka_unit_test(test_one_droplet_same_in_both_engines),
		cmocka_unit_test(test_snapshot_resume_is_exact),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
