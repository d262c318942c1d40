/* flood_params.level_join: a lake at the pour's level that the rise reaches
 * over a sill joins the lake while the rise is within the 2020 code's
 * second plane, and takes its water from the pour; past that plane, or
 * without the option, it is a leak. Hand-built 16x16 maps
 * (flood_fixture.h): lake A, 3x3 cells of ground 0.40 under 0.01 of water
 * at x 2-4, y 7-9; a dry sill at (5, 8), 0.412; lake B at x 6 (one column
 * of 3) or x 6-8 (3x3), the same ground under a float's ulp less water, so
 * its surface is a rounding below A's (as a drain that split one lake
 * leaves two); walls of 1 around. */
#include "flood_fixture.h"

static const int sill_x = 5, row = 8;

/* A and B (`b_wide` columns) with the sill between them. */
static struct map *twin_lakes(int b_wide)
{
	struct map *m = map_new(1.0f);
	fill_rect(m, 2, 7, 4, 9, 0.40f);
	fill_rect(m, 6, 7, 5 + b_wide, 9, 0.40f);
	for (int y = 7; y <= 9; y++) {
		for (int x = 2; x <= 4; x++)
			m->pool[at(x, y)] = 0.01f;
		for (int x = 6; x <= 5 + b_wide; x++)
			m->pool[at(x, y)] = nextafterf(0.01f, 0.0f);
	}
	m->h[at(sill_x, row)] = 0.412f;
	return m;
}

static double surf(const struct map *m, int c)
{
	return (double)m->h[c] + (double)m->pool[c];
}

static bool in_b(int c, int b_wide)
{
	const int x = c % W, y = c / W;
	return x >= 6 && x <= 5 + b_wide && y >= 7 && y <= 9;
}

/* 0.05 poured in A: the seed's second plane, 0.41 + 0.025 / 9 = 0.41278,
 * is above the sill. Off, B is a leak once the level reaches the sill
 * (0.018 of water in): the pour drains into it. On, B joins: it takes its
 * 3 x 0.002, and the 0.026 left raise the 13 cells from the sill to 0.414,
 * one level over both, all the water kept. */
static void test_join_within_the_second_plane(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		struct map *m = twin_lakes(1);
		const double b0 = surf(m, at(6, 8));
		assert_true(b0 < surf(m, at(3, 8)) && surf(m, at(3, 8)) - b0 < 1e-8);
		struct flood_params fp = walls;
		fp.level_join = on;
		const double before = pool_sum(m);
		struct flood_result r = pour(m, at(3, 8), 0.05, &fp);
		if (!on) {
			assert_int_equal(r.outcome, FLOOD_DRAIN);
			assert_true(in_b(r.drain, 1));
			assert_true(surf(m, at(6, 8)) == b0);
		} else {
			assert_int_equal(r.outcome, FLOOD_FILLED);
			assert_int_equal(r.lake_cells, 13);
			assert_double_equal(r.level, 0.414, 1e-6);
			assert_double_equal(surf(m, at(6, 8)), surf(m, at(3, 8)), 1e-7);
			assert_double_equal(surf(m, at(sill_x, row)), 0.414, 1e-6);
			/* what the pools took is the pour, to the float roundings */
			assert_double_equal(pool_sum(m) - before, 0.05, 1e-6);
			assert_double_equal(r.gained, pool_sum(m) - before, 1e-6);
		}
		assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
		map_free(m);
	}
}

/* 0.03 poured: the second plane, 0.41 + 0.015 / 9 = 0.41167, is below the
 * sill, so the seed reaches B only at a later try, whose drains are below
 * the level that try filled to: B is a leak, with the option or without. */
static void test_no_join_past_the_second_plane(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		struct map *m = twin_lakes(1);
		struct flood_params fp = walls;
		fp.level_join = on;
		struct flood_result r = pour(m, at(3, 8), 0.03, &fp);
		assert_int_equal(r.outcome, FLOOD_DRAIN);
		assert_true(in_b(r.drain, 1));
		assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
		map_free(m);
	}
}

/* With the seed's tries (halves): the first plane is half the water over
 * A's 9 cells, not over A and B, so the join does not widen the seed's
 * first try. With B one column wide, that try holds 12 x 0.00278 + 0.00078
 * = 0.034 of the 0.05 and the tries go on over both lakes until 1e-4 is
 * left: filled. With B as wide as A it would hold 0.051, more than the
 * water: the pour overshoots, keeping nothing, as the seed's try fails.
 * Off, the first plane is above the rim the leak sets: nothing kept, the
 * pour drains. */
static void test_join_with_the_tries(void **state)
{
	(void)state;
	for (int on = 0; on <= 1; on++) {
		for (int wide = 1; wide <= 3; wide += 2) {
			struct map *m = twin_lakes(wide);
			struct flood_params fp = with_halves(1e-4);
			fp.level_join = on;
			const double before = pool_sum(m);
			struct flood_result r = pour(m, at(3, 8), 0.05, &fp);
			if (!on) {
				assert_int_equal(r.outcome, FLOOD_DRAIN);
				assert_true(in_b(r.drain, wide));
				assert_true(pool_sum(m) == before);
			} else if (wide == 1) {
				assert_int_equal(r.outcome, FLOOD_FILLED);
				assert_true(surf(m, at(6, 8)) > 0.4127);
				assert_double_equal(surf(m, at(6, 8)), surf(m, at(3, 8)), 1e-7);
				assert_true(pool_sum(m) - before > 0.034);
			} else {
				assert_int_equal(r.outcome, FLOOD_OVERSHOT);
				assert_true(pool_sum(m) == before);
			}
			assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
			map_free(m);
		}
	}
}

/* An outlet east of B: a sill at 0.43, then a wide basin at 0.05. */
static void open_east(struct map *m)
{
	m->h[at(9, row)] = 0.43f;
	fill_rect(m, 10, 1, 14, 14, 0.05f);
}

/* Lake records serve a pour with the option as without: the same pours on
 * twin lakes, with the cache and without, give the same bits. Each pour
 * lands in A or B with a random amount, so the lakes fill, join and
 * leak over the sill in every order. A third map, without the option,
 * shows the option was at work in these pours. */
static void test_join_cache_is_invisible(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 9, 9);
	struct map *a = twin_lakes(3), *b = twin_lakes(3), *off = twin_lakes(3);
	open_east(a);
	open_east(b);
	open_east(off);
	flood_set_cache(b->f, false);
	struct flood_params fp = with_halves(1e-4);
	fp.level_join = true;
	fp.drainage = 0.001;
	fp.carry = 0.1;
	struct flood_params fp_off = fp;
	fp_off.level_join = false;
	int differed = 0;
	for (int k = 0; k < 400; k++) {
		const int cell = rng_below(&r, 2) ? at(3, 8) : at(7, 8);
		const double water = 0.06 * rng_double(&r);
		pour_alike(a, b, cell, water, NULL, &fp);
		pour(off, cell, water, &fp_off);
		differed += memcmp(a->pool, off->pool, sizeof a->pool) != 0;
	}
	assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	assert_int_equal(flood_check(a->f, a->h, a->pool), 0);
	assert_true(differed > 0);
	map_free(a);
	map_free(b);
	map_free(off);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_join_within_the_second_plane),
		cmocka_unit_test(test_no_join_past_the_second_plane),
		cmocka_unit_test(test_join_with_the_tries),
		cmocka_unit_test(test_join_cache_is_invisible),
	};
	return cmocka_run_group_tests_name("flood_join", tests, NULL, NULL);
}
