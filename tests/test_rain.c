/* The rain mask: droplets start only where it rains, as often as its weights
 * say; without a mask they start exactly where they always did. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/resample.h"
#include "core/base/rain.h"
#include "core/base/world.h"

static void test_uniform_without_a_mask(void **state)
{
	(void)state;
	struct world *w;
	assert_int_equal(world_create(&w, 40, 24), 0);
	rng_seed(&w->rng, 7, 3);
	struct rng copy = w->rng;
	for (int i = 0; i < 1000; i++) {
		float x, y;
		world_spawn_point(w, &x, &y);
		/* The two draws every droplet has always started from. */
		float ex = rng_float(&copy) * 40.0f, ey = rng_float(&copy) * 24.0f;
		assert_true(x == ex && y == ey);
	}
	world_destroy(w);
}

static void test_mask_weights(void **state)
{
	(void)state;
	struct world *w;
	assert_int_equal(world_create(&w, 16, 16), 0);
	float weights[256] = {0};
	weights[5] = 1.0f;    /* (5, 0) */
	weights[200] = 3.0f;  /* (8, 12) */
	assert_int_equal(rain_create(&w->rain, weights, 16, 16), 0);
	int in5 = 0, in200 = 0;
	for (int i = 0; i < 40000; i++) {
		float x, y;
		world_spawn_point(w, &x, &y);
		assert_true(x >= 0 && x < 16 && y >= 0 && y < 16);
		int cell = (int)y * 16 + (int)x;
		assert_true(cell == 5 || cell == 200);
		in5 += cell == 5;
		in200 += cell == 200;
	}
	/* Every start on one of the two cells; 3:1 within a few standard
	 * deviations (sd of the share ~0.0022). */
	assert_int_equal(in5 + in200, 40000);
	double share = in200 / 40000.0;
	assert_true(fabs(share - 0.75) < 0.012);
	/* A clone carries the mask; the same stream gives the same starts. */
	struct world *c;
	assert_int_equal(world_clone(&c, w), 0);
	assert_non_null(c->rain);
	float x1, y1, x2, y2;
	world_spawn_point(w, &x1, &y1);
	world_spawn_point(c, &x2, &y2);
	assert_true(x1 == x2 && y1 == y2);
	world_destroy(c);
	world_destroy(w);
}

static void test_bad_masks(void **state)
{
	(void)state;
	struct rain *r = (struct rain *)1;
	float zeros[4] = {0};
	assert_int_equal(rain_create(&r, zeros, 2, 2), GULLY_EINVAL);
	assert_null(r);
	float negative[4] = {1, -1, 0, 0};
	assert_int_equal(rain_create(&r, negative, 2, 2), GULLY_EINVAL);
	float nan[4] = {1, NAN, 0, 0};
	assert_int_equal(rain_create(&r, nan, 2, 2), GULLY_EINVAL);
}

static void test_resample(void **state)
{
	(void)state;
	/* Equal sizes copy exactly; 2x2 to 4x4 keeps the corners and blends. */
	float src[4] = {0, 1, 2, 3}, same[4], big[16];
	grid_resample(src, 2, 2, same, 2, 2);
	assert_memory_equal(src, same, sizeof src);
	grid_resample(src, 2, 2, big, 4, 4);
	assert_true(big[0] == 0 && big[3] == 1 && big[12] == 2 && big[15] == 3);
	assert_true(big[1] == 0.25f && big[5] == 0.75f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_uniform_without_a_mask),
		cmocka_unit_test(test_mask_weights),
		cmocka_unit_test(test_bad_masks),
		cmocka_unit_test(test_resample),
	};
	return cmocka_run_group_tests_name("rain", tests, NULL, NULL);
}
