/* Hydrology on two threads (world.threads = 2: the per-batch stream update
 * split by rows) gives the same bits as on one, and a run may change its
 * thread count between steps without changing them either. */
#include "testutil.h"

#include <string.h>

#include "core/hydrology/hydrology.h"
#include "core/terrain/terrain.h"
#include "worldutil.h"

static struct world *run_with(const int *threads, int parts, uint64_t each)
{
	struct params p;
	params_defaults(&p);
	p.world.width = 97; /* not a multiple of the SIMD width or of 2 */
	p.world.height = 61;
	p.terrain.vertical_scale = 40;
	p.hydrology.batch = 20; /* many stream updates */
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), 0);
	void *st = NULL;
	assert_int_equal(hydrology_process.create(&st, w, &p), 0);
	for (int i = 0; i < parts; i++) {
		struct process_report rep;
		p.world.threads = threads[i];
		assert_int_equal(hydrology_process.step(st, w, &p, each, &rep), 0);
		assert_int_equal(rep.particles, each);
	}
	hydrology_process.destroy(st);
	return w;
}

static void test_two_threads_same_bits(void **state)
{
	(void)state;
	const int one[] = {1, 1, 1}, two[] = {2, 2, 2}, mixed[] = {2, 1, 2};
	struct world *a = run_with(one, 3, 700), *b = run_with(two, 3, 700),
		     *c = run_with(mixed, 3, 700);
	float smax = 0;
	for (size_t i = 0; i < world_cells(a); i++)
		smax = a->layer[LAYER_STREAM][i] > smax ? a->layer[LAYER_STREAM][i] : smax;
	assert_true(smax > 0.05f); /* the stream map did learn */
	assert_same_world(a, b);
	assert_same_world(a, c);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
	world_destroy(a);
	world_destroy(b);
	world_destroy(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_threads_same_bits),
	};
	return cmocka_run_group_tests_name("hydrology_threads", tests, NULL, NULL);
}
