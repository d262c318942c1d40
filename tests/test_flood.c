/* The priority flood on hand-built terrains, with the answers worked out by
 * hand in the comments: levels, books, spills, drains, the edge, and the
 * whole-map fill against pouring everywhere. Maps are 16x16 (unless said),
 * walls at height 1 (flood_fixture.h). The 2020 code's tries are in
 * test_flood_halves, the lake cache in test_flood_cache. */
#include "flood_fixture.h"

static void test_bowl_reaches_computed_level(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	/* A 3x3 bowl: centre at 0, its ring of 8 at 0.2. Water 0.1 stays in the
	 * centre (level 0.1); 2.9 in all fills to L with L + 8 (L - 0.2) = 2.9 + 0.1
	 * so L = (3.0 + 1.6) / 9 = 0.5111.. */
	fill_rect(m, 5, 5, 7, 7, 0.2f);
	m->h[at(6, 6)] = 0.0f;
	struct flood_result r = pour(m, at(6, 6), 0.1, &walls);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	assert_double_equal(r.level, 0.1, 1e-7);
	assert_double_equal(m->pool[at(6, 6)], 0.1, 1e-7);
	assert_double_equal(m->pool[at(5, 5)], 0.0, 0);
	r = pour(m, at(6, 6), 2.9, &walls);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	double level = (3.0 + 8 * 0.2) / 9;
	assert_double_equal(r.level, level, 1e-7);
	for (int y = 5; y <= 7; y++)
		for (int x = 5; x <= 7; x++)
			assert_double_equal(m->h[at(x, y)] + m->pool[at(x, y)], level, 1e-6);
	assert_double_equal(m->pool[at(4, 6)], 0.0, 0);
	/* Pouring at the rim (a pool cell) lands in the same lake. */
	r = pour(m, at(5, 6), 0.9, &walls);
	assert_double_equal(r.level, level + 0.1, 1e-7);
	assert_double_equal(pool_sum(m), 3.9, 1e-6);
	map_free(m);
}

/* A lake holding far more than 1024 units: its fixed-point sums pass 2^63
 * (an overflow, undefined, when they were signed; UBSan caught it), yet each
 * pour's gain is exact. 14x14 cells of ground 0 inside walls of 100, then
 * 20 pours of 90: level 1800 / 196. */
static void test_deep_lake_keeps_exact_books(void **state)
{
	(void)state;
	struct map *m = map_new(100.0f);
	fill_rect(m, 1, 1, W - 2, H - 2, 0.0f);
	double poured = 0, gained = 0;
	for (int i = 0; i < 20; i++) {
		struct flood_result r = pour(m, at(3 + i % 9, 7), 90.0, &walls);
		assert_int_equal(r.outcome, FLOOD_FILLED);
		assert_true(fabs(r.gained - 90.0) < 1e-3);
		poured += 90.0;
		gained += r.gained;
	}
	double level = poured / ((W - 2) * (H - 2));
	assert_double_equal(m->pool[at(8, 8)], level, 1e-5);
	/* The books: what the pours say they added is what the pools hold. */
	assert_true(fabs(gained - pool_sum(m)) <= 1e-9 * poured);
	map_free(m);
}

static void test_two_basins_keep_their_levels(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	/* A: 3x3 at 0; B: 3x3 at 0.3, a wall between. 0.9 in each: A at 0.1,
	 * B at 0.4. */
	fill_rect(m, 2, 2, 4, 4, 0.0f);
	fill_rect(m, 9, 2, 11, 4, 0.3f);
	struct flood_result a = pour(m, at(3, 3), 0.9, &walls);
	struct flood_result b = pour(m, at(10, 3), 0.9, &walls);
	assert_int_equal(a.outcome, FLOOD_FILLED);
	assert_int_equal(b.outcome, FLOOD_FILLED);
	assert_double_equal(a.level, 0.1, 1e-7);
	assert_double_equal(b.level, 0.4, 1e-7);
	assert_double_equal(m->pool[at(2, 4)], 0.1, 1e-7);
	assert_double_equal(m->pool[at(11, 2)], 0.1, 1e-7);
	/* More into A does not touch B. */
	pour(m, at(2, 2), 0.9, &walls);
	assert_double_equal(m->h[at(3, 3)] + m->pool[at(3, 3)], 0.2, 1e-7);
	assert_double_equal(m->h[at(10, 3)] + m->pool[at(10, 3)], 0.4, 1e-7);
	map_free(m);
}

static void test_full_basin_spills_into_lower(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	spill_map(m);
	/* 1.5 into U: 9 x 0.1 = 0.9 fills it to its sill, the sill cell joins at
	 * 0.6 with depth 0, its neighbour at 0.3 is the leak. The 0.6 left runs
	 * down the channel into D: 0.6 / 9 = 0.0667 deep, below the channel's
	 * 0.1, so D holds it. */
	struct flood_result r = pour(m, at(3, 3), 1.5, &walls);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(6, 3));
	assert_double_equal(r.level, 0.6, 1e-7);
	assert_double_equal(r.gained, 0.9, 1e-6);
	int hops;
	r = pour_on(m, r.drain, 1.5 - r.gained, &walls, &hops);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	assert_int_equal(hops, 3); /* 0.3 -> 0.2 -> 0.1 -> D */
	assert_double_equal(r.level, 0.6 / 9, 1e-7);
	/* More water: U stays at its sill, D rises by all of it. */
	r = pour_on(m, at(2, 2), 0.3, &walls, &hops);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	for (int y = 2; y <= 4; y++) {
		for (int x = 2; x <= 4; x++) {
			assert_double_equal(m->h[at(x, y)] + m->pool[at(x, y)], 0.6, 1e-6);
			assert_double_equal(m->h[at(x + 7, y)] + m->pool[at(x + 7, y)], 0.9 / 9, 1e-6);
		}
	}
	assert_double_equal(m->pool[at(5, 3)], 0.0, 0);
	assert_double_equal(m->pool[at(6, 3)], 0.0, 0);
	assert_double_equal(pool_sum(m), 1.8, 1e-6);
	map_free(m);
}

static void test_drainage_lowers_toward_leak_not_below_ground(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	spill_map(m);
	/* U filled to 0.7 by hand: above its sill, as if the sill had eroded.
	 * The lowest leak next to the lake is the channel at 0.3; with drainage
	 * 0.1 the level drops by 0.1 (0.7 - 0.3) to 0.66. */
	for (int y = 2; y <= 4; y++)
		for (int x = 2; x <= 4; x++)
			m->pool[at(x, y)] = 0.2f;
	m->pool[at(5, 3)] = 0.1f;
	struct flood_params fp = {.drainage = 0.1, .sea_level = 100, .carry = INFINITY};
	struct flood_result r = pour(m, at(3, 3), 0.0, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(6, 3));
	assert_double_equal(r.level, 0.66, 1e-6);
	assert_double_equal(m->pool[at(3, 3)], 0.16, 1e-6);
	assert_double_equal(r.gained, -10 * 0.04, 1e-6);
	/* A leaving droplet that can carry only 0.09 more takes the lake down by
	 * 0.09 / 10 cells = 0.009 instead of drainage's share. */
	struct flood_params small = {.drainage = 0.1, .sea_level = 100, .carry = 0.09};
	r = pour(m, at(3, 3), 0.0, &small);
	assert_double_equal(r.level, 0.66 - 0.009, 1e-6);
	assert_double_equal(r.gained, -0.09, 1e-6);
	/* Drainage 1 would drop it to the leak, but the lake cannot sink below
	 * its own ground beside the leak: the sill at 0.6. */
	fp.drainage = 1.0;
	r = pour(m, at(3, 3), 0.0, &fp);
	assert_double_equal(r.level, 0.6, 1e-7);
	assert_double_equal(m->pool[at(5, 3)], 0.0, 0);
	assert_double_equal(m->pool[at(3, 3)], 0.1, 1e-6);
	map_free(m);
}

static void test_edge_drains_into_sea(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	/* A basin at the left edge, floor 0.2; the sea at 0.5. 2.7 fills it to
	 * 0.5 (9 x 0.3); of 3.7, the other 1.0 runs into the sea. */
	fill_rect(m, 0, 6, 2, 8, 0.2f);
	struct flood_params fp = {.drainage = 0.001, .sea_level = 0.5, .carry = INFINITY};
	struct flood_result r = pour(m, at(1, 7), 3.7, &fp);
	assert_int_equal(r.outcome, FLOOD_SEA);
	assert_int_equal(r.drain, -1);
	assert_double_equal(r.level, 0.5, 1e-7);
	assert_double_equal(r.gained, 2.7, 1e-6);
	/* Below its floor the sea takes everything at once. */
	struct map *m2 = map_new(1.0f);
	fill_rect(m2, 0, 6, 2, 8, 0.2f);
	fp.sea_level = 0.1;
	r = pour(m2, at(1, 7), 1.0, &fp);
	assert_int_equal(r.outcome, FLOOD_SEA);
	assert_double_equal(r.gained, 0.0, 0);
	/* The same basin away from the sea's reach holds its water (walls). */
	r = pour(m, at(1, 7), 0.0, &walls);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	map_free(m);
	map_free(m2);
}

static void test_lowest_leak_wins(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	/* A one-cell pit at 0.5 with two lower neighbours, 0.3 and 0.2: the
	 * water leaves by the lower one, whichever the flood saw first. */
	m->h[at(8, 8)] = 0.5f;
	m->h[at(9, 8)] = 0.3f;
	m->h[at(7, 9)] = 0.2f;
	struct flood_result r = pour(m, at(8, 8), 1.0, &walls);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(7, 9));
	assert_double_equal(r.gained, 0.0, 0);
	map_free(m);
}

/* Random terrain and random pours followed down their leaks: every drop of
 * water is in the pools, in the sea, or not yet placed. */
static void test_random_pours_conserve_water(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 99, 3);
	for (int trial = 0; trial < 2; trial++) {
		struct map *m = map_new(0.0f);
		for (int i = 0; i < N; i++)
			m->h[i] = rng_float(&r);
		struct flood_params fp = {.drainage = 0.01, .sea_level = trial ? 0.3 : 100,
					  .carry = 0.05};
		double poured = 0, to_sea = 0, left_over = 0;
		for (int k = 0; k < 300; k++) {
			double water = 0.05 * rng_double(&r);
			poured += water;
			int cell = (int)rng_below(&r, N);
			for (int hop = 0; hop < 50; hop++) {
				struct flood_result res = pour(m, cell, water, &fp);
				water -= res.gained;
				if (res.outcome == FLOOD_SEA) {
					to_sea += water;
					water = 0;
					break;
				}
				if (res.outcome == FLOOD_FILLED)
					break;
				cell = res.drain;
			}
			left_over += water;
		}
		for (int i = 0; i < N; i++)
			assert_true(m->pool[i] >= 0);
		double s = pool_sum(m);
		assert_true(s > 1.0);
		assert_true(fabs(poured - (s + to_sea + left_over)) <= 1e-12 * poured);
		if (trial)
			assert_true(to_sea > 0);
		map_free(m);
	}
}

static void test_settle_raises_ground_and_displaces_water(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	fill_rect(m, 5, 5, 7, 7, 0.0f);
	/* 0.9 fills the 3x3 to 0.1. Then a droplet that ends in the lake with
	 * 0.09 of water and 0.045 of soil: the soil goes under its cell and the
	 * whole 0.09 still goes into the lake: level 0.1 + (0.09 + 0.045) / 9. */
	pour(m, at(6, 6), 0.9, &walls);
	struct flood_settle st = {.on_drain = 0, .on_fill = 0.045};
	struct flood_result r;
	assert_int_equal(flood_pour(m->f, m->h, m->pool, at(6, 6), 0.09, &st, &walls, &r), 0);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	assert_double_equal(r.settled, 0.045, 1e-7);
	assert_double_equal(m->h[at(6, 6)], 0.045, 1e-7);
	assert_double_equal(r.level, 0.1 + 0.135 / 9, 1e-7);
	assert_double_equal(r.gained, 0.09, 1e-7);
	map_free(m);
}

/* The whole-map flood leaves the pools that pouring enough water into
 * every cell, again and again until nothing changes, leaves (drainage 0):
 * every pit full to its spill, nothing below the sea. Heights are whole
 * 64ths, so no two surfaces are within the pour's level tolerance and the
 * depths are exact: the pools must match bit for bit. */
static void test_fill_map_equals_pouring_everywhere(void **state)
{
	(void)state;
	static const struct {
		int w, h;
		unsigned seed;
		double sea;
	} cases[] = {{16, 16, 1, -1.0}, {23, 17, 2, 0.25}, {31, 29, 3, -1.0}, {20, 36, 4, 0.5}};
	for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
		int w = cases[t].w, h = cases[t].h, n = w * h;
		float *hgt = malloc((size_t)n * sizeof *hgt), *poured = calloc((size_t)n, sizeof *poured);
		float *filled = malloc((size_t)n * sizeof *filled);
		assert_non_null(hgt);
		assert_non_null(poured);
		assert_non_null(filled);
		struct rng r;
		rng_seed(&r, cases[t].seed, 5);
		for (int i = 0; i < n; i++)
			hgt[i] = (float)rng_below(&r, 64) / 64.0f;
		for (int i = 0; i < n; i++)
			filled[i] = -1.0f; /* every cell must be written */
		assert_int_equal(flood_fill_map(hgt, filled, w, h, cases[t].sea), GULLY_OK);
		struct flood *f;
		assert_int_equal(flood_create(&f, w, h), GULLY_OK);
		struct flood_params fp = {.drainage = 0.0, .sea_level = cases[t].sea, .carry = INFINITY};
		bool changed = true;
		int sweeps = 0, pits = 0;
		while (changed && sweeps < 50) {
			changed = false;
			sweeps++;
			for (int c = 0; c < n; c++) {
				struct flood_result res;
				assert_int_equal(flood_pour(f, hgt, poured, c, 1e6, NULL, &fp, &res), 0);
				changed |= res.written > 0;
			}
		}
		assert_false(changed);
		for (int i = 0; i < n; i++)
			pits += poured[i] > 0;
		assert_true(pits > n / 20); /* the case has pits to fill */
		assert_memory_equal(filled, poured, (size_t)n * sizeof *filled);
		flood_destroy(f);
		free(hgt);
		free(poured);
		free(filled);
	}
}

/* The flood's heap: random keys with many ties, pushed, popped and
 * heapified at every size up to a few full levels, come off in order
 * (ties in any order), each cell exactly once. */
static void test_heap_pops_in_order(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 7, 3);
	for (int n = 0; n < 90; n++) {
		for (int mode = 0; mode < 2; mode++) {
			struct heap hp = {0};
			int count[90] = {0};
			for (int i = 0; i < n; i++) {
				double key = (double)rng_below(&r, 12);
				if (mode == 0) {
					assert_true(heap_push(&hp, key, i));
				} else {
					if (hp.len == hp.cap) {
						hp.cap = hp.cap ? 2 * hp.cap : 4;
						hp.a = realloc(hp.a, hp.cap * sizeof *hp.a);
						assert_non_null(hp.a);
					}
					hp.a[hp.len++] = (struct node){key, i};
				}
			}
			if (mode == 1)
				heapify(&hp);
			double last = -INFINITY;
			for (int i = 0; i < n; i++) {
				double key = hp.a[0].key;
				int cell = hp.a[0].cell;
				assert_true(key >= last);
				assert_true(cell >= 0 && cell < n);
				count[cell]++;
				last = key;
				heap_pop(&hp);
			}
			assert_int_equal(hp.len, 0);
			for (int i = 0; i < n; i++)
				assert_int_equal(count[i], 1);
			free(hp.a);
		}
	}
}

/* A fresh pour that sorts every cell of the map, map-edge cells and the sea
 * included, uses all the room it reserved once: a noisy bowl under a sea
 * above it fills to a level worked out from its volume, with and without
 * the cache (ASan watches the lists' ends). */
static void test_fresh_pour_fills_the_map(void **state)
{
	(void)state;
	struct map *m = map_new(0);
	struct rng r;
	rng_seed(&r, 11, 5);
	double sum_h = 0;
	for (int y = 0; y < H; y++) {
		for (int x = 0; x < W; x++) {
			double dx = x - W / 2, dy = y - H / 2;
			float v = (float)((sqrt(dx * dx + dy * dy) + 0.5 * rng_double(&r)) / W);
			m->h[y * W + x] = v;
			sum_h += v;
		}
	}
	const struct flood_params fp = {.drainage = 0.001, .sea_level = 2.0, .carry = INFINITY};
	float pool_on[N];
	for (int cache = 1; cache >= 0; cache--) {
		memset(m->pool, 0, sizeof m->pool);
		flood_forget_all(m->f);
		flood_set_cache(m->f, cache);
		struct flood_result res;
		assert_int_equal(flood_pour(m->f, m->h, m->pool, (H / 2) * W + W / 2,
					    1.5 * N - sum_h, NULL, &fp, &res),
				 0);
		assert_int_equal(res.outcome, FLOOD_FILLED);
		assert_int_equal(res.lake_cells, N);
		assert_int_equal(res.touched, N);
		assert_true(fabs(res.level - 1.5) < 1e-9);
		if (cache)
			memcpy(pool_on, m->pool, sizeof pool_on);
		else
			assert_memory_equal(pool_on, m->pool, sizeof pool_on);
	}
	map_free(m);
}

/* A record's level write has an AVX2 copy (flood_set_avx2) that must give
 * the baseline's bits: its depths, surface range and, above all, the
 * fixed-point sum of the depths it computes from their float bits. Lakes
 * on ground within 1e-9 of each other, given amounts of water from 1e-16
 * to 1e-2, make depths from tiny ones (below 2^-30, where the fixed point
 * truncates) to ordinary ones; cells change between pours. Every result, pool and height must match bit for bit. */
static void test_avx2_write_same_bits(void **state)
{
	(void)state;
	struct map *a = map_new(1.0f), *b = map_new(1.0f);
	if (!flood_set_avx2(a->f, true)) {
		map_free(a);
		map_free(b);
		skip();
	}
	assert_false(flood_set_avx2(b->f, false));
	struct rng r;
	rng_seed(&r, 99, 7);
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++)
			a->h[at(x, y)] = b->h[at(x, y)] =
				(x < 8 ? 0.0f : 0.25f) +
				ldexpf(rng_float(&r), -30 - (int)rng_below(&r, 8));
	struct flood_params fp = {.drainage = 0.001, .sea_level = 0.5, .carry = 0.02};
	for (int k = 0; k < 3000; k++) {
		if (rng_below(&r, 10) == 0) {
			int c = at(1 + (int)rng_below(&r, W - 2), 1 + (int)rng_below(&r, H - 2));
			float d = ldexpf(rng_float(&r) - 0.5f, -28);
			a->h[c] += d;
			b->h[c] += d;
			flood_forget_cell(a->f, c);
			flood_forget_cell(b->f, c);
			continue;
		}
		int cell = at(1 + (int)rng_below(&r, W - 2), 1 + (int)rng_below(&r, H - 2));
		/* First about as much water as the ground's relief holds
		 * (depths around 2^-30), then more. */
		double water = k < 1500 ? pow(10.0, -16.0 + 6.0 * rng_double(&r))
					: pow(10.0, -13.0 + 11.0 * rng_double(&r));
		pour_alike(a, b, cell, water, NULL, &fp);
		assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	}
	assert_int_equal(flood_check(a->f, a->h, a->pool), 0);
	assert_memory_equal(a->h, b->h, sizeof a->h);
	struct flood_counters ca;
	flood_counters(a->f, &ca);
	assert_true(ca.cached > 1000);
	map_free(a);
	map_free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bowl_reaches_computed_level),
		cmocka_unit_test(test_deep_lake_keeps_exact_books),
		cmocka_unit_test(test_two_basins_keep_their_levels),
		cmocka_unit_test(test_full_basin_spills_into_lower),
		cmocka_unit_test(test_drainage_lowers_toward_leak_not_below_ground),
		cmocka_unit_test(test_edge_drains_into_sea),
		cmocka_unit_test(test_lowest_leak_wins),
		cmocka_unit_test(test_random_pours_conserve_water),
		cmocka_unit_test(test_settle_raises_ground_and_displaces_water),
		cmocka_unit_test(test_avx2_write_same_bits),
		cmocka_unit_test(test_heap_pops_in_order),
		cmocka_unit_test(test_fresh_pour_fills_the_map),
		cmocka_unit_test(test_fill_map_equals_pouring_everywhere),
	};
	return cmocka_run_group_tests_name("flood", tests, NULL, NULL);
}
