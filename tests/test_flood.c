/* The priority flood on hand-built terrains, with the answers worked out by
 * hand in the comments. Maps are 16x16 (unless said), walls at height 1. */
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/flood_heap.h"
#include "core/base/rng.h"

enum { W = 16, H = 16, N = W * H };

struct map {
	float h[N], pool[N];
	struct flood *f;
};

static struct map *map_new(float wall)
{
	struct map *m = calloc(1, sizeof *m);
	assert_non_null(m);
	for (int i = 0; i < N; i++)
		m->h[i] = wall;
	assert_int_equal(flood_create(&m->f, W, H), 0);
	return m;
}

static void map_free(struct map *m)
{
	flood_destroy(m->f);
	free(m);
}

static int at(int x, int y)
{
	return y * W + x;
}

static void fill_rect(struct map *m, int x0, int y0, int x1, int y1, float v)
{
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			m->h[at(x, y)] = v;
}

static double pool_sum(const struct map *m)
{
	double s = 0;
	for (int i = 0; i < N; i++)
		s += m->pool[i];
	return s;
}

/* Walls: the sea is above everything, so the edge holds water like the seed. */
static const struct flood_params walls = {.drainage = 0.0, .sea_level = 100.0, .carry = INFINITY};

static struct flood_result pour(struct map *m, int cell, double water,
				const struct flood_params *fp)
{
	struct flood_result r;
	assert_int_equal(flood_pour(m->f, m->h, m->pool, cell, water, NULL, fp, &r), 0);
	return r;
}

/* A cached pour (m[0]) gave what a fresh flood (m[1]) gives, bit for bit,
 * and m[0]'s records still describe its map. */
static void assert_same_pour(struct map *const m[2], const struct flood_result r[2])
{
	assert_int_equal(r[0].outcome, r[1].outcome);
	assert_int_equal(r[0].lake_cells, r[1].lake_cells);
	assert_memory_equal(&r[0].level, &r[1].level, sizeof r[0].level);
	assert_memory_equal(&r[0].gained, &r[1].gained, sizeof r[0].gained);
	assert_memory_equal(m[0]->pool, m[1]->pool, sizeof m[0]->pool);
	assert_int_equal(flood_check(m[0]->f, m[0]->h, m[0]->pool), 0);
}

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

/* The upper basin U (3x3 at 0.5) has a sill at 0.6 to a channel falling
 * 0.3, 0.2, 0.1 into the lower basin D (3x3 at 0). */
static void spill_map(struct map *m)
{
	fill_rect(m, 2, 2, 4, 4, 0.5f);
	m->h[at(5, 3)] = 0.6f;
	m->h[at(6, 3)] = 0.3f;
	m->h[at(7, 3)] = 0.2f;
	m->h[at(8, 3)] = 0.1f;
	fill_rect(m, 9, 2, 11, 4, 0.0f);
}

/* Pours like a droplet would: on from each leak with what is left. */
static struct flood_result pour_on(struct map *m, int cell, double water,
				   const struct flood_params *fp, int *hops)
{
	struct flood_result r;
	*hops = 0;
	for (;;) {
		r = pour(m, cell, water, fp);
		water -= r.gained;
		if (r.outcome != FLOOD_DRAIN)
			break;
		cell = r.drain;
		++*hops;
		assert_true(*hops < 10);
	}
	return r;
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

/* walls with the 2020 code's tries in every pour (halves and
 * halves_filled), no try with `stop` or less left. */
static struct flood_params with_halves(double stop)
{
	struct flood_params fp = walls;
	fp.halves = true;
	fp.halves_filled = true;
	fp.halves_stop = stop;
	return fp;
}

/* flood_params.halves (the 2020 code's re-flooding): U, 9 cells of floor
 * 0.5, holds 0.9 to its sill at 0.6. 2.0 poured: the first try's plane,
 * 0.5 + 1.0 / 9, is above the sill, so nothing is kept and the whole 2.0
 * goes on from the leak. 1.5 poured: the first plane, 0.5 + 0.75 / 9, holds
 * 0.75 (no more than the 1.5 left) and is kept; the next, 0.375 / 9 higher,
 * is above the sill: U stands at 0.5 + 0.75 / 9 with 0.75 in it. The pit P
 * (U again with its middle cell dug to 0.2: a pit that widens as it fills,
 * 0.4 + 8 x 0.1 = 1.2 to its sill): 1.3 poured, the first plane 0.2 +
 * 0.65 / 1 is above the sill, so P keeps nothing, though 0.65, 0.325 and
 * 0.1625 (1.1375) would fit under it, all of which the rule before kept.
 * Without halves the same pours fill U and P to their sills. */
static void test_halves_keep_what_fits_under_the_leak(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0);
	struct map *m = map_new(1.0f);
	spill_map(m);
	struct flood_result r = pour(m, at(3, 3), 2.0, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(6, 3));
	assert_double_equal(r.gained, 0.0, 0);
	assert_double_equal(r.poured, 0.0, 0);
	assert_double_equal(pool_sum(m), 0.0, 0);
	r = pour(m, at(3, 3), 1.5, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(6, 3));
	assert_double_equal(r.poured, 0.75, 1e-6);
	assert_double_equal(r.level, 0.5 + 0.75 / 9, 1e-7);
	assert_double_equal(r.gained, 0.75, 1e-6);
	assert_double_equal(pool_sum(m), 0.75, 1e-6);
	assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
	map_free(m);
	m = map_new(1.0f);
	spill_map(m);
	m->h[at(3, 3)] = 0.2f;
	r = pour(m, at(3, 3), 1.3, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, at(6, 3));
	assert_double_equal(r.poured, 0.0, 0);
	assert_double_equal(pool_sum(m), 0.0, 0);
	map_free(m);
	m = map_new(1.0f);
	spill_map(m);
	r = pour(m, at(3, 3), 1.5, &walls);
	assert_double_equal(r.level, 0.6, 1e-7);
	assert_double_equal(r.poured, 0.9, 1e-6);
	map_free(m);
	m = map_new(1.0f);
	spill_map(m);
	m->h[at(3, 3)] = 0.2f;
	r = pour(m, at(3, 3), 1.3, &walls);
	assert_double_equal(r.level, 0.6, 1e-7);
	assert_double_equal(r.poured, 1.2, 1e-6);
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

/* A pour that would hold all its water replays the tries too. U (9 cells of
 * floor at 0.5, the same area all the way up) takes 0.45 to 0.55, below its
 * sill: the tries keep 0.225, 0.1125, 0.05625 and stop with 0.028125 left,
 * not more than halves_stop (0.05): FILLED, 0.421875 kept, and the rest
 * stays with the droplet. The pit P (the middle cell dug to 0.2) would hold
 * 1.0 to 0.578 (9 L = 1.0 + 0.2 + 8 x 0.5), but the first try's plane, 0.2
 * + 0.5 / 1, is above that: it holds more than is left, so P keeps nothing
 * and all of it goes on from the pit (FLOOD_OVERSHOT, drain = the start).
 * Without halves both fill. */
static void test_halves_overshoot_where_all_would_fit(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0.05);
	struct map *m = map_new(1.0f);
	spill_map(m);
	struct flood_result r = pour(m, at(3, 3), 0.45, &fp);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	assert_double_equal(r.poured, 0.421875, 1e-9);
	assert_double_equal(r.level, 0.5 + 0.421875 / 9, 1e-7);
	assert_double_equal(pool_sum(m), 0.421875, 1e-6);
	assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
	map_free(m);
	for (int halves = 1; halves >= 0; halves--) {
		fp.halves = halves;
		fp.halves_filled = halves;
		m = map_new(1.0f);
		spill_map(m);
		m->h[at(3, 3)] = 0.2f;
		r = pour(m, at(3, 3), 1.0, &fp);
		if (halves) {
			assert_int_equal(r.outcome, FLOOD_OVERSHOT);
			assert_int_equal(r.drain, at(3, 3));
			assert_double_equal(r.poured, 0.0, 0);
			assert_double_equal(pool_sum(m), 0.0, 0);
		} else {
			assert_int_equal(r.outcome, FLOOD_FILLED);
			assert_double_equal(r.level, 5.2 / 9, 1e-7);
			assert_double_equal(pool_sum(m), 1.0, 1e-6);
		}
		map_free(m);
	}
}

/* A pour that keeps nothing, poured again: U's floor under 0.05 of water
 * (surface 0.55), its middle cell 1e-4 lower (a droplet eroded it). 0.1
 * there: the rise fills U to 0.55 + 0.0999 / 9, but the first try's plane
 * is 0.5499 + 0.05 / 1, above that: nothing is kept (FLOOD_OVERSHOT from
 * the start). The same pour again is answered from the last (`repeated`),
 * with the same result; a forgotten cell, other water or another pour in
 * between make it a flood again. */
static void test_overshoot_poured_again(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0.001);
	struct map *m = map_new(1.0f);
	spill_map(m);
	for (int y = 2; y <= 4; y++)
		for (int x = 2; x <= 4; x++)
			m->pool[at(x, y)] = 0.05f;
	m->pool[at(3, 3)] = 0.0499f;
	float before[N];
	memcpy(before, m->pool, sizeof before);
	struct flood_result r0 = pour(m, at(3, 3), 0.1, &fp), r;
	assert_int_equal(r0.outcome, FLOOD_OVERSHOT);
	assert_int_equal(r0.drain, at(3, 3));
	assert_int_equal(r0.lake_cells, 9);
	assert_memory_equal(before, m->pool, sizeof before);
	struct flood_counters c0, c1;
	flood_counters(m->f, &c0);
	r = pour(m, at(3, 3), 0.1, &fp);
	flood_counters(m->f, &c1);
	assert_int_equal(c1.repeated, c0.repeated + 1);
	assert_int_equal(c1.calls, c0.calls + 1);
	assert_memory_equal(&r, &r0, sizeof r);
	flood_forget_cell(m->f, at(12, 12));
	r = pour(m, at(3, 3), 0.1, &fp);
	r = pour(m, at(3, 3), 0.09, &fp);
	assert_int_equal(r.outcome, FLOOD_OVERSHOT);
	r = pour(m, at(12, 12), 0.0, &fp);
	r = pour(m, at(3, 3), 0.09, &fp);
	flood_counters(m->f, &c0);
	assert_int_equal(c0.repeated, c1.repeated);
	assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
	map_free(m);
}

/* A lake keeps its record through a pour that keeps nothing: a 6 x 6 floor
 * at 0.5 filled with 1.8 (to 0.55) is remembered; a droplet erodes one of
 * its cells by 1e-4 (reported), and 0.1 poured there overshoots (the first
 * plane is 0.05 above the cell, the lake would take 0.1 at 0.5528). The
 * next pour elsewhere on the lake still starts from the record. */
static void test_overshoot_keeps_the_lake_record(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0.001);
	struct map *m = map_new(1.0f);
	fill_rect(m, 2, 2, 7, 7, 0.5f);
	struct flood_result r = pour(m, at(4, 4), 1.8, &walls);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	m->h[at(3, 4)] -= 1e-4f;
	flood_forget_cell(m->f, at(3, 4));
	r = pour(m, at(3, 4), 0.1, &fp);
	assert_int_equal(r.outcome, FLOOD_OVERSHOT);
	assert_int_equal(r.lake_cells, 36);
	struct flood_counters c0, c1;
	flood_counters(m->f, &c0);
	r = pour(m, at(6, 6), 0.0, &fp);
	flood_counters(m->f, &c1);
	assert_int_equal(c1.cached, c0.cached + 1);
	assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
	map_free(m);
}

/* The lake's record ends such a pour before its walk (flood_overshoot_lake)
 * with the full rise's result: the lake above (35 cells remembered, the
 * eroded one not), and the same lake with a gap in its wall at 0.5501 (a
 * lip the water would cross: the rise drains there, and the record must
 * not say otherwise), each poured at the eroded cell with the early end on
 * and off. */
static void test_overshoot_read_off_the_record(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0.001);
	for (int gap = 0; gap < 2; gap++) {
		struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
		struct flood_result r[2];
		struct flood_counters c[2];
		for (int i = 0; i < 2; i++) {
			fill_rect(m[i], 2, 2, 7, 7, 0.5f);
			r[i] = pour(m[i], at(4, 4), 1.8, &walls);
			if (gap) {
				m[i]->h[at(8, 4)] = 0.5501f;
				m[i]->h[at(9, 4)] = 0.2f;
				flood_forget_cell(m[i]->f, at(8, 4));
				flood_forget_cell(m[i]->f, at(9, 4));
			}
			m[i]->h[at(3, 4)] -= 1e-4f;
			flood_forget_cell(m[i]->f, at(3, 4));
			flood_set_overshoot_exit(m[i]->f, i == 0);
			flood_counters(m[i]->f, &c[i]);
			r[i] = pour(m[i], at(3, 4), 0.1, &fp);
		}
		assert_same_pour(m, r);
		assert_int_equal(r[0].drain, r[1].drain);
		assert_memory_equal(&r[0].poured, &r[1].poured, sizeof r[0].poured);
		assert_int_equal(r[0].outcome, gap ? FLOOD_DRAIN : FLOOD_OVERSHOT);
		assert_int_equal(r[0].lake_cells, gap ? 37 : 36);
		struct flood_counters after;
		flood_counters(m[0]->f, &after);
		assert_int_equal(after.overshot_early, c[0].overshot_early + !gap);
		assert_true(gap || r[0].touched < r[1].touched);
		map_free(m[0]);
		map_free(m[1]);
	}
}

/* The same on random lakes: four 6 x 6 bowls (floors at random in 0.2 to
 * 0.3) in a walled map, filled without the tries (followed through their
 * leaks, remembered); then, at
 * random, a cell of a bowl lowered a little (reported: as a droplet's
 * erosion) and poured on with the tries, once or twice, or a bowl topped
 * up, or a gap cut in a bowl's wall (a lip at 0.45, and a hole beyond it):
 * with the early end and without it, the same bits; and it did end pours
 * early. */
static void overshoot_early_is_invisible(bool strict)
{
	struct rng r;
	rng_seed(&r, 11, 3);
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	for (int i = 0; i < N; i++) {
		const int x = i % W, y = i / W;
		const bool bowl = x % 8 >= 1 && x % 8 <= 6 && y % 8 >= 1 && y % 8 <= 6;
		m[0]->h[i] = m[1]->h[i] = bowl ? 0.2f + 0.1f * rng_float(&r) : 1.0f;
	}
	flood_set_overshoot_exit(m[1]->f, false);
	struct flood_params fp = {.drainage = 0.001, .sea_level = 100.0, .carry = INFINITY,
				  .below_floor = true, .halves = true, .halves_filled = true,
				  .halves_stop = 1e-4, .strict_dry = strict};
	for (int k = 0; k < 3000; k++) {
		const int bx = 8 * (int)rng_below(&r, 2), by = 8 * (int)rng_below(&r, 2);
		const int cell = at(bx + 1 + (int)rng_below(&r, 6), by + 1 + (int)rng_below(&r, 6));
		const int kind = (int)rng_below(&r, 16);
		if (kind < 2) {
			const double water = 3.0 * rng_double(&r);
			int hops;
			for (int i = 0; i < 2; i++)
				pour_on(m[i], cell, water, &walls, &hops);
			continue;
		}
		if (kind == 2) {
			const int lip = at(bx + 7, by + 1 + (int)rng_below(&r, 6));
			for (int i = 0; i < 2; i++) {
				m[i]->h[lip] = 0.45f;
				m[i]->h[lip + 1] = 0.1f;
				flood_forget_cell(m[i]->f, lip);
				flood_forget_cell(m[i]->f, lip + 1);
			}
			continue;
		}
		if (m[0]->pool[cell] > 0) {
			const float dh = (float)(1e-5 + 1e-3 * rng_double(&r));
			for (int i = 0; i < 2; i++) {
				m[i]->h[cell] -= dh;
				flood_forget_cell(m[i]->f, cell);
			}
		}
		const double water = 0.02 * rng_double(&r);
		for (int t = 0; t < 1 + (kind & 1); t++) {
			struct flood_result res[2];
			for (int i = 0; i < 2; i++)
				res[i] = pour(m[i], cell, water, &fp);
			assert_same_pour(m, res);
			assert_int_equal(res[0].drain, res[1].drain);
			assert_memory_equal(&res[0].poured, &res[1].poured, sizeof res[0].poured);
		}
	}
	assert_memory_equal(m[0]->h, m[1]->h, sizeof m[0]->h);
	struct flood_counters c;
	flood_counters(m[0]->f, &c);
	assert_true(c.overshot_early > 100);
	flood_counters(m[1]->f, &c);
	assert_int_equal(c.overshot_early, 0);
	map_free(m[0]);
	map_free(m[1]);
}

/* strict_dry too: a pour from dry ground next to a lake leaks at any lower
 * cell, which the record's end never reaches (the record's cells and rims
 * all sit above the start). */
static void test_overshoot_early_is_invisible(void **state)
{
	(void)state;
	overshoot_early_is_invisible(false);
	overshoot_early_is_invisible(true);
}

/* The memo changes nothing: random pours, each poured one to three times
 * (with halves many keep nothing and are answered from the memo), and now
 * and then a cell's ground moved and reported (as a droplet's erosion is),
 * give the bits a flood without cache or memo gives. */
static void test_poured_again_is_invisible(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 7, 7);
	struct map *a = map_new(1.0f), *b = map_new(1.0f);
	for (int i = 0; i < N; i++)
		a->h[i] = b->h[i] = 0.3f * rng_float(&r) + 0.2f;
	flood_set_cache(b->f, false);
	struct flood_params fp = {.drainage = 0.001, .sea_level = 100.0, .carry = INFINITY,
				  .below_floor = true, .halves = true, .halves_filled = true,
				  .halves_stop = 1e-4};
	for (int k = 0; k < 3000; k++) {
		int cell = (int)rng_below(&r, N);
		double water = 0.05 * rng_double(&r);
		int times = 1 + (int)rng_below(&r, 3);
		for (int t = 0; t < times; t++) {
			struct flood_result ra = pour(a, cell, water, &fp);
			struct flood_result rb = pour(b, cell, water, &fp);
			assert_int_equal(ra.outcome, rb.outcome);
			assert_int_equal(ra.drain, rb.drain);
			assert_int_equal(ra.lake_cells, rb.lake_cells);
			assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
			assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
			assert_memory_equal(&ra.poured, &rb.poured, sizeof ra.poured);
		}
		if (rng_below(&r, 8) == 0) {
			int c = (int)rng_below(&r, N);
			a->h[c] = b->h[c] = a->h[c] - 1e-5f;
			flood_forget_cell(a->f, c);
		}
	}
	assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	assert_int_equal(flood_check(a->f, a->h, a->pool), 0);
	struct flood_counters ca, cb;
	flood_counters(a->f, &ca);
	flood_counters(b->f, &cb);
	assert_true(ca.repeated > 100);
	assert_int_equal(cb.repeated, 0);
	map_free(a);
	map_free(b);
}

/* The lake cache changes nothing: the same pours with and without it give
 * bit-identical pools and results. `sea` is the sea's level (above the
 * map: walled, so lakes fill and leak), `most` the largest pour. */
static void cache_is_invisible(bool halves, double sea, double most, bool strict)
{
	struct rng r;
	rng_seed(&r, 5, 5);
	struct map *a = map_new(0.0f), *b = map_new(0.0f);
	for (int i = 0; i < N; i++)
		a->h[i] = b->h[i] = 0.5f * rng_float(&r) + (float)(i % W) * 0.01f;
	flood_set_cache(b->f, false);
	struct flood_params fp = {.drainage = 0.001, .sea_level = sea, .carry = 0.1,
				  .halves = halves, .halves_filled = halves, .strict_dry = strict};
	for (int k = 0; k < 2000; k++) {
		int cell = (int)rng_below(&r, N);
		double water = most * rng_double(&r);
		struct flood_settle st = {.on_drain = 1e-4 * rng_double(&r),
					  .on_fill = 1e-4 * rng_double(&r)};
		struct flood_result ra, rb;
		assert_int_equal(flood_pour(a->f, a->h, a->pool, cell, water, &st, &fp, &ra), 0);
		assert_int_equal(flood_pour(b->f, b->h, b->pool, cell, water, &st, &fp, &rb), 0);
		assert_int_equal(ra.outcome, rb.outcome);
		assert_int_equal(ra.drain, rb.drain);
		assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
		assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
		assert_memory_equal(&ra.poured, &rb.poured, sizeof ra.poured);
	}
	assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	assert_memory_equal(a->h, b->h, sizeof a->h);
	struct flood_counters ca, cb;
	flood_counters(a->f, &ca);
	flood_counters(b->f, &cb);
	/* And it did save work (with halves most pours here end as the lake
	 * was, and a fresh one is as cheap). */
	if (!halves)
		assert_true(ca.touched < cb.touched);
	map_free(a);
	map_free(b);
}

/* flood_params.halves too, open to a sea and walled (lakes fill up and
 * pours into them keep some of their tries). These random pours did not
 * catch the tries' first form, whose sum depended on the pour's order;
 * test_halves_from_a_record_as_fresh below does. */
static void test_cache_is_invisible(void **state)
{
	(void)state;
	cache_is_invisible(false, 0.2, 0.2, false);
	cache_is_invisible(true, 0.2, 0.2, false);
	cache_is_invisible(true, 100.0, 0.02, false);
	/* strict_dry: pours from dry ground start fresh, and the records
	 * serve the rest as before. */
	cache_is_invisible(true, 100.0, 0.02, true);
	cache_is_invisible(false, 0.2, 0.2, true);
}

/* flood_params.strict_dry, on a dead end: the start (5, 8) at 0.5 on dry
 * ground, its one lower neighbour (6, 8) 4e-7 below it (less than the
 * level tolerance, 8 FLT_EPSILON = 9.5e-7 at levels up to 1), every other cell at 1.
 * Off, the neighbour counts as level: the two cells take the water (0.001
 * over 2 cells: to 0.5005). On, it is a leak, as the 2020 code's test
 * finds it: the pour drains there with nothing kept, and a pour from the
 * neighbour then fills it, its own pit. */
static void test_strict_dry_leak(void **state)
{
	(void)state;
	for (int strict = 0; strict <= 1; strict++) {
		struct map *m = map_new(1.0f);
		m->h[at(5, 8)] = 0.5f;
		m->h[at(6, 8)] = 0.5f - 4e-7f;
		assert_true(m->h[at(6, 8)] < m->h[at(5, 8)]);
		struct flood_params fp = walls;
		fp.strict_dry = strict;
		struct flood_result r = pour(m, at(5, 8), 0.001, &fp);
		if (!strict) {
			assert_int_equal(r.outcome, FLOOD_FILLED);
			assert_int_equal(r.lake_cells, 2);
			assert_true(fabs(r.level - 0.5005) < 1e-6);
			/* (The neighbour's 4e-7 below the level is water too:
			 * the books hold what the pools took.) */
			assert_true(fabs(pool_sum(m) - 0.001) < 1e-6);
			assert_true(fabs(r.gained - pool_sum(m)) < 1e-12);
		} else {
			assert_int_equal(r.outcome, FLOOD_DRAIN);
			assert_int_equal(r.drain, at(6, 8));
			assert_true(r.gained == 0.0);
			assert_true(pool_sum(m) == 0.0);
			r = pour(m, at(6, 8), 0.001, &fp);
			assert_int_equal(r.outcome, FLOOD_FILLED);
			assert_true(m->pool[at(6, 8)] > 0.0f);
		}
		assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
		map_free(m);
	}
}

/* The same from a lake: a pool at 0.51 in a pit, a dry neighbour 4e-7
 * below its level and a wet one as far below. With strict_dry the dry one
 * is a leak, as the 2020 code's exact test finds it; the wet one stays at
 * the level either way (float pools round by that much). */
static void test_strict_dry_leak_from_a_lake(void **state)
{
	(void)state;
	for (int strict = 0; strict <= 1; strict++) {
		struct map *m = map_new(1.0f);
		const int lake = at(5, 8), dry = at(6, 8), wet = at(4, 8);
		m->h[lake] = 0.5f;
		m->pool[lake] = 0.01f;
		const double level0 = (double)m->h[lake] + (double)m->pool[lake];
		m->h[dry] = (float)(level0 - 4e-7);
		m->h[wet] = 0.3f;
		m->pool[wet] = (float)(level0 - 4e-7 - 0.3);
		const double wet_surface = (double)m->h[wet] + (double)m->pool[wet];
		assert_true(m->h[dry] < level0 && level0 - m->h[dry] < 8.0 * FLT_EPSILON);
		assert_true(wet_surface < level0 && level0 - wet_surface < 8.0 * FLT_EPSILON);
		struct flood_params fp = walls;
		fp.strict_dry = strict;
		struct flood_result r = pour(m, lake, 0.001, &fp);
		if (!strict) {
			assert_int_equal(r.outcome, FLOOD_FILLED);
			assert_int_equal(r.lake_cells, 3);
			assert_true(m->pool[dry] > 0.0f);
		} else {
			assert_int_equal(r.outcome, FLOOD_DRAIN);
			assert_int_equal(r.drain, dry);
			assert_int_equal(r.lake_cells, 2);
			assert_true(m->pool[dry] == 0.0f);
		}
		assert_int_equal(flood_check(m->f, m->h, m->pool), 0);
		map_free(m);
	}
}

/* The same for the halves' tries from a record: a bowl of 13 x 14 cells
 * (0.2 + 0.002 r^2 from (7, 7), at most 0.37) with a sill at 0.5, 43.5 to
 * its sill, filled with 36 without halves (to 0.459: every cell under water, a float
 * rounding off the level) and remembered; then 10 poured at its middle,
 * more than the 7.5 of room left: the first try keeps 5 (10 / 2 over 182
 * cells, to 0.4865), the next would reach the sill. The cached pour knows
 * the bowl only as a record, the fresh one lists its cells: the water
 * kept, the level and the pools must be the same bits. */
static void test_halves_from_a_record_as_fresh(void **state)
{
	(void)state;
	struct flood_params fp = with_halves(0);
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	for (int y = 1; y <= 14; y++)
		for (int x = 1; x <= 13; x++)
			m[0]->h[at(x, y)] = m[1]->h[at(x, y)] =
				0.2f + 0.002f * (float)((x - 7) * (x - 7) + (y - 7) * (y - 7));
	m[0]->h[at(14, 7)] = m[1]->h[at(14, 7)] = 0.5f;
	m[0]->h[at(15, 7)] = m[1]->h[at(15, 7)] = 0.1f;
	flood_set_cache(m[1]->f, false);
	struct flood_result res[2];
	for (int k = 0; k < 2; k++) /* without halves: its tries would overshoot */
		res[k] = pour(m[k], at(7, 7), 36.0, &walls);
	assert_int_equal(res[0].outcome, FLOOD_FILLED);
	for (int k = 0; k < 2; k++)
		res[k] = pour(m[k], at(7, 7), 10.0, &fp);
	assert_int_equal(res[0].outcome, FLOOD_DRAIN);
	assert_double_equal(res[0].poured, 5.0, 1e-9);
	assert_memory_equal(&res[0].poured, &res[1].poured, sizeof res[0].poured);
	assert_same_pour(m, res);
	map_free(m[0]);
	map_free(m[1]);
}

/* Cells changed between pours and reported with flood_forget_cell (as a
 * droplet eroding a lake's shore or settling its load in it): a record
 * that takes the cell out, or is dropped, still gives a fresh flood's
 * result bit for bit. */
static void test_cache_survives_changed_cells(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 17, 2);
	struct map *a = map_new(0.0f), *b = map_new(0.0f);
	for (int i = 0; i < N; i++)
		a->h[i] = b->h[i] = 0.5f * rng_float(&r) + (float)(i % W) * 0.01f;
	flood_set_cache(b->f, false);
	struct flood_params fp = {.drainage = 0.001, .sea_level = 0.2, .carry = 0.1};
	int wet_changes = 0;
	for (int k = 0; k < 3000; k++) {
		if (rng_below(&r, 10) == 0) {
			/* One pour in ten: raise or lower a random cell, wet or dry. */
			int c = (int)rng_below(&r, N);
			float d = 0.002f * (rng_float(&r) - 0.5f);
			wet_changes += a->pool[c] > 0;
			a->h[c] += d;
			b->h[c] += d;
			flood_forget_cell(a->f, c);
			flood_forget_cell(b->f, c);
			continue;
		}
		int cell = (int)rng_below(&r, N);
		double water = 0.2 * rng_double(&r);
		struct flood_result ra, rb;
		assert_int_equal(flood_pour(a->f, a->h, a->pool, cell, water, NULL, &fp, &ra), 0);
		assert_int_equal(flood_pour(b->f, b->h, b->pool, cell, water, NULL, &fp, &rb), 0);
		assert_int_equal(ra.outcome, rb.outcome);
		assert_int_equal(ra.drain, rb.drain);
		assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
		assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
	}
	assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	struct flood_counters ca;
	flood_counters(a->f, &ca);
	assert_true(wet_changes > 50);
	assert_true(ca.cached > 100);
	map_free(a);
	map_free(b);
}

/* Terraces whose steps are a fraction of the level tolerance, so rim cells
 * sit within the tolerance of each other (and often tie exactly): a lake
 * record's rim heap must give what a fresh flood's sorting gives, as its
 * level rises through them, drains, takes sediment, and cells change
 * under it. flood_check proves the records' invariants after every step,
 * among them that every cell next to a lake has a rim heap entry at or
 * below its surface (else a leak could hide). */
static void cache_near_ties(bool strict)
{
	struct rng r;
	rng_seed(&r, 23, 4);
	struct map *a = map_new(0.0f), *b = map_new(0.0f);
	for (int i = 0; i < N; i++)
		a->h[i] = b->h[i] = 0.1f + (float)rng_below(&r, 12) * 2e-3f +
				    (float)rng_below(&r, 6) * 2e-7f;
	flood_set_cache(b->f, false);
	struct flood_params fp = {.drainage = 0.001, .sea_level = 0.15, .carry = 0.05,
				  .strict_dry = strict};
	for (int k = 0; k < 4000; k++) {
		if (rng_below(&r, 8) == 0) {
			int c = (int)rng_below(&r, N);
			float d = 4e-7f * (rng_float(&r) - 0.5f);
			a->h[c] += d;
			b->h[c] += d;
			flood_forget_cell(a->f, c);
			flood_forget_cell(b->f, c);
		} else {
			int cell = (int)rng_below(&r, N);
			double water = 0.01 * rng_double(&r);
			struct flood_settle st = {.on_drain = 1e-6 * rng_double(&r),
						  .on_fill = 1e-6 * rng_double(&r)};
			struct flood_result ra, rb;
			assert_int_equal(flood_pour(a->f, a->h, a->pool, cell, water, &st, &fp, &ra), 0);
			assert_int_equal(flood_pour(b->f, b->h, b->pool, cell, water, &st, &fp, &rb), 0);
			assert_int_equal(ra.outcome, rb.outcome);
			assert_int_equal(ra.drain, rb.drain);
			assert_int_equal(ra.lake_cells, rb.lake_cells);
			assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
			assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
		}
		assert_int_equal(flood_check(a->f, a->h, a->pool), 0);
	}
	assert_memory_equal(a->pool, b->pool, sizeof a->pool);
	assert_memory_equal(a->h, b->h, sizeof a->h);
	struct flood_counters ca;
	flood_counters(a->f, &ca);
	assert_true(ca.cached > 200);
	map_free(a);
	map_free(b);
}

/* strict_dry too: here most dry neighbours of a dry start sit within the
 * tolerance of it, so most such pours end at a leak the tolerance hid. */
static void test_cache_near_ties(void **state)
{
	(void)state;
	cache_near_ties(false);
	cache_near_ties(true);
}

/* Two basins joined by a saddle fill as one lake; a leak opens and the
 * drain lowers the lake below the saddle, which leaves the lake dry and
 * cuts it in two. The record keeps the piece its walk began in (a pour
 * there starts from it), the other piece is poured afresh; both give
 * what a fresh flood gives, bit for bit, and the records stay sound. */
static void test_cache_drain_cuts_the_lake(void **state)
{
	(void)state;
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	flood_set_cache(m[1]->f, false);
	const struct flood_params fp = {.drainage = 0.75, .sea_level = 100.0, .carry = INFINITY};
	struct flood_result r[2];
	struct flood_counters c0, c1;
	for (int i = 0; i < 2; i++) {
		fill_rect(m[i], 1, 5, 5, 9, 0.0f);  /* the left basin: 25 cells */
		fill_rect(m[i], 7, 5, 11, 9, 0.0f); /* the right basin */
		fill_rect(m[i], 6, 5, 6, 9, 0.3f);  /* the saddle between them */
		/* The left basin fills to the saddle (7.5) and spills into the
		 * right one; poured on from there (no drainage), the rest fills
		 * the right basin to the saddle and all 55 cells to 0.5:
		 * 50 x 0.5 + 5 x 0.2 = 26. The record is the whole lake, its
		 * walk begun in the right basin. */
		const struct flood_params fill = {.drainage = 0, .sea_level = 100.0,
						  .carry = INFINITY};
		r[i] = pour(m[i], at(3, 7), 26.0, &fill);
		assert_int_equal(r[i].outcome, FLOOD_DRAIN);
		assert_true(r[i].drain % W >= 7);
		r[i] = pour(m[i], r[i].drain, 26.0 - r[i].gained, &fill);
		assert_double_equal(r[i].level, 0.5, 1e-6);
		assert_int_equal(r[i].lake_cells, 55);
		/* A leak above the left basin: the lake drains toward it,
		 * 0.75 of the way to 0.1 (level 0.2), below the saddle. */
		m[i]->h[at(3, 4)] = 0.1f;
		flood_forget_cell(m[i]->f, at(3, 4));
		r[i] = pour(m[i], at(3, 7), 1e-3, &fp);
		assert_int_equal(r[i].outcome, FLOOD_DRAIN);
		assert_int_equal(r[i].drain, at(3, 4));
		assert_double_equal(r[i].level, 0.2, 1e-6);
		assert_int_equal(flood_check(m[i]->f, m[i]->h, m[i]->pool), 0);
		/* The leak closes. */
		m[i]->h[at(3, 4)] = 1.0f;
		flood_forget_cell(m[i]->f, at(3, 4));
	}
	flood_counters(m[0]->f, &c0);
	/* The left piece first, while both sit at one level: it is no
	 * longer in the record, so its pour is fresh (and grows nothing
	 * into the right piece); then the right piece's record is used. */
	const int cells[4] = {at(2, 6), at(9, 8), at(11, 5), at(5, 9)};
	const double water[4] = {0.5, 0.25, 1.0, 3.0};
	for (int k = 0; k < 4; k++) {
		for (int i = 0; i < 2; i++)
			r[i] = pour(m[i], cells[k], water[k], &fp);
		assert_same_pour(m, r);
		if (k == 1) {
			/* The right piece's record was kept and used. */
			flood_counters(m[0]->f, &c1);
			assert_int_equal(c1.cached, c0.cached + 1);
			assert_int_equal(r[0].lake_cells, 25);
		}
	}
	map_free(m[0]);
	map_free(m[1]);
}

/* A lake whose cells sit at two surfaces 0.6 tol apart (tol = 8 float
 * epsilons here): a fresh flood from either joins all of them (classify's
 * band is level +- tol), so its record is used from either surface, and
 * every pour gives what a fresh flood gives, bit for bit. */
static void test_cache_record_spread_in_band(void **state)
{
	(void)state;
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	flood_set_cache(m[1]->f, false);
	const float hi = 0.5f + 10 * ldexpf(1.0f, -24); /* 0.5 + ~0.63 tol */
	for (int i = 0; i < 2; i++) {
		fill_rect(m[i], 2, 2, 7, 7, 0.0f); /* 36 cells */
		for (int y = 2; y <= 7; y++)
			for (int x = 2; x <= 7; x++)
				m[i]->pool[at(x, y)] = x < 5 ? 0.5f : hi;
	}
	const int start[4] = {at(3, 4), at(3, 4), at(6, 4), at(3, 3)};
	const double water[4] = {0.0, 0.0, 0.0, 2.0};
	struct flood_result r[2];
	struct flood_counters c0, c1;
	for (int k = 0; k < 4; k++) {
		flood_counters(m[0]->f, &c0);
		for (int i = 0; i < 2; i++)
			r[i] = pour(m[i], start[k], water[k], &walls);
		flood_counters(m[0]->f, &c1);
		/* The first pour makes the record; every later one uses it, or
		 * is the one before it again (the second: it wrote nothing). */
		assert_int_equal(c1.cached + c1.repeated, c0.cached + c0.repeated + (k > 0));
		assert_int_equal(c1.repeated, c0.repeated + (k == 1));
		assert_int_equal(r[0].lake_cells, 36);
		assert_same_pour(m, r);
	}
	map_free(m[0]);
	map_free(m[1]);
}

/* A ring-shaped lake around a 10x10 island: a cell that leaves it leaves
 * a gap the box around it cannot close (the lake meets again only round
 * the far side), so the record is marked as maybe split and kept. The
 * next pour walks it: still one piece, it is used whole. A second cut on
 * the far side does split it: the next pour keeps the piece it starts in
 * (and uses it), and a pour into the other piece is fresh. Every result
 * and pool matches a fresh flood's bit for bit, and the records stay
 * sound. */
static void test_cache_ring_gap_split_later(void **state)
{
	(void)state;
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	flood_set_cache(m[1]->f, false);
	struct flood_result r[2];
	struct flood_counters c0, c1;
	for (int i = 0; i < 2; i++) {
		fill_rect(m[i], 2, 2, 13, 13, 0.0f);
		fill_rect(m[i], 3, 3, 12, 12, 1.0f); /* the island: a ring of 44 */
		r[i] = pour(m[i], at(7, 2), 22.0, &walls);
		assert_double_equal(r[i].level, 0.5, 1e-6);
		assert_int_equal(r[i].lake_cells, 44);
	}
	const int cut[2] = {at(2, 7), at(13, 7)};
	const int start[3] = {at(7, 13), at(7, 13), at(7, 2)};
	const size_t cells[3] = {43, 22, 20};
	for (int k = 0; k < 3; k++) {
		if (k < 2) {
			for (int i = 0; i < 2; i++) {
				m[i]->h[cut[k]] = 1.0f;
				m[i]->pool[cut[k]] = 0.0f;
				flood_forget_cell(m[i]->f, cut[k]);
			}
			assert_int_equal(flood_check(m[0]->f, m[0]->h, m[0]->pool), 0);
		}
		flood_counters(m[0]->f, &c0);
		for (int i = 0; i < 2; i++)
			r[i] = pour(m[i], start[k], 0.5, &walls);
		flood_counters(m[0]->f, &c1);
		/* The record (whole, then its piece) is used; the other
		 * piece is poured afresh. */
		assert_int_equal(c1.cached, c0.cached + (k < 2));
		assert_int_equal(r[0].lake_cells, cells[k]);
		assert_same_pour(m, r);
	}
	map_free(m[0]);
	map_free(m[1]);
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
		struct flood_result ra, rb;
		assert_int_equal(flood_pour(a->f, a->h, a->pool, cell, water, NULL, &fp, &ra), 0);
		assert_int_equal(flood_pour(b->f, b->h, b->pool, cell, water, NULL, &fp, &rb), 0);
		assert_int_equal(ra.outcome, rb.outcome);
		assert_int_equal(ra.lake_cells, rb.lake_cells);
		assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
		assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
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

/* A remembered lake that touched the map edge at one shallow cell drains
 * below it (a rim cell eroded into a leak): the dry edge cell leaves the
 * record, which then no longer touches the sea. Raised out of the water
 * and then topped up past the sea's surface, the lake must rise to the
 * edge cell before it reaches the sea, as a fresh flood does. */
static void test_cache_lake_leaves_the_edge(void **state)
{
	(void)state;
	struct map *m[2] = {map_new(1.0f), map_new(1.0f)};
	flood_set_cache(m[1]->f, false);
	const struct flood_params fp = {.drainage = 0.5, .sea_level = 0.3, .carry = INFINITY};
	struct flood_result r[2];
	for (int i = 0; i < 2; i++) {
		fill_rect(m[i], 1, 6, 5, 8, 0.2f);  /* the basin: 15 cells */
		m[i]->h[at(0, 7)] = 0.25f;          /* its shallow edge cell */
		fill_rect(m[i], 7, 6, 10, 8, 0.0f); /* a lower basin beyond a rim */
		m[i]->h[at(6, 7)] = 0.5f;           /* the rim cell between them */
		/* 15 x 0.05 to the edge cell, then 16 x 0.03: level 0.28. */
		r[i] = pour(m[i], at(3, 7), 0.75 + 0.48, &fp);
		assert_double_equal(r[i].level, 0.28, 1e-6);
		assert_int_equal(r[i].lake_cells, 16);
		/* The rim erodes into a leak: the lake drains and sinks half
		 * way toward it, but not below its ground next to it (0.2). */
		m[i]->h[at(6, 7)] = 0.0f;
		flood_forget_cell(m[i]->f, at(6, 7));
		r[i] = pour(m[i], at(3, 7), 0.01, &fp);
		assert_int_equal(r[i].outcome, FLOOD_DRAIN);
		assert_int_equal(r[i].drain, at(6, 7));
		assert_double_equal(r[i].level, 0.2, 1e-6);
		assert_int_equal(flood_check(m[i]->f, m[i]->h, m[i]->pool), 0);
		/* The rim closes and the edge cell rises above the sea's
		 * surface: the lake now spills into the sea at 0.35. */
		m[i]->h[at(6, 7)] = 0.5f;
		flood_forget_cell(m[i]->f, at(6, 7));
		m[i]->h[at(0, 7)] = 0.35f;
		flood_forget_cell(m[i]->f, at(0, 7));
		r[i] = pour(m[i], at(3, 7), 5.0, &fp);
		assert_int_equal(r[i].outcome, FLOOD_SEA);
		assert_double_equal(r[i].level, 0.35, 1e-6);
		assert_int_equal(flood_check(m[i]->f, m[i]->h, m[i]->pool), 0);
	}
	assert_memory_equal(&r[0].gained, &r[1].gained, sizeof r[0].gained);
	assert_memory_equal(m[0]->pool, m[1]->pool, sizeof m[0]->pool);
	struct flood_counters c;
	flood_counters(m[0]->f, &c);
	assert_int_equal(c.cached, 2); /* both later pours used the record */
	map_free(m[0]);
	map_free(m[1]);
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

/* The shadow check pours beside every pour a flood without the cache on
 * copies of the layers: a run that keeps the forget protocol shows no
 * difference; a cell changed under a lake record without telling the
 * flood (a broken protocol) makes the next pour from the record differ,
 * and the shadow reports that pour (the core prints nothing). */
static void test_shadow_catches_a_stale_record(void **state)
{
	(void)state;
	struct map *m = map_new(1.0f);
	assert_int_equal(flood_set_shadow(m->f, true), 0);
	fill_rect(m, 3, 3, 10, 10, 0.0f); /* an 8x8 basin: a record of 64 cells */
	pour(m, at(6, 6), 6.4, &walls);   /* level 0.1 */
	pour(m, at(6, 6), 6.4, &walls);   /* from the record: level 0.2 */
	struct flood_shadow sh;
	flood_shadow(m->f, &sh);
	assert_int_equal(sh.pours, 2);
	assert_int_equal(sh.differed, 0);
	struct flood_counters c;
	flood_counters(m->f, &c);
	assert_int_equal(c.cached, 1);
	/* A hole under the lake, and no flood_forget_cell: the record's copy
	 * of that ground is stale. */
	m->h[at(8, 8)] = -0.5f;
	pour(m, at(6, 6), 0.64, &walls);
	flood_shadow(m->f, &sh);
	assert_int_equal(sh.pours, 3);
	assert_int_equal(sh.differed, 1);
	assert_int_equal(sh.first_call, 3);
	assert_int_equal(sh.first_start, at(6, 6));
	assert_true(sh.first_record > 0);
	/* The fresh flood filled the hole too: its level is lower. */
	assert_true(sh.fresh.level < sh.cached.level);
	flood_counters(m->f, &c);
	assert_int_equal(c.shadow_differed, 1);
	/* Off: no more comparing. */
	assert_int_equal(flood_set_shadow(m->f, false), 0);
	pour(m, at(6, 6), 0.64, &walls);
	flood_shadow(m->f, &sh);
	assert_int_equal(sh.pours, 3);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bowl_reaches_computed_level),
		cmocka_unit_test(test_deep_lake_keeps_exact_books),
		cmocka_unit_test(test_two_basins_keep_their_levels),
		cmocka_unit_test(test_full_basin_spills_into_lower),
		cmocka_unit_test(test_halves_keep_what_fits_under_the_leak),
		cmocka_unit_test(test_halves_overshoot_where_all_would_fit),
		cmocka_unit_test(test_overshoot_poured_again),
		cmocka_unit_test(test_poured_again_is_invisible),
		cmocka_unit_test(test_overshoot_keeps_the_lake_record),
		cmocka_unit_test(test_overshoot_read_off_the_record),
		cmocka_unit_test(test_overshoot_early_is_invisible),
		cmocka_unit_test(test_drainage_lowers_toward_leak_not_below_ground),
		cmocka_unit_test(test_edge_drains_into_sea),
		cmocka_unit_test(test_lowest_leak_wins),
		cmocka_unit_test(test_random_pours_conserve_water),
		cmocka_unit_test(test_cache_is_invisible),
		cmocka_unit_test(test_strict_dry_leak),
		cmocka_unit_test(test_strict_dry_leak_from_a_lake),
		cmocka_unit_test(test_halves_from_a_record_as_fresh),
		cmocka_unit_test(test_cache_survives_changed_cells),
		cmocka_unit_test(test_settle_raises_ground_and_displaces_water),
		cmocka_unit_test(test_cache_near_ties),
		cmocka_unit_test(test_cache_lake_leaves_the_edge),
		cmocka_unit_test(test_avx2_write_same_bits),
		cmocka_unit_test(test_cache_drain_cuts_the_lake),
		cmocka_unit_test(test_cache_ring_gap_split_later),
		cmocka_unit_test(test_cache_record_spread_in_band),
		cmocka_unit_test(test_heap_pops_in_order),
		cmocka_unit_test(test_fresh_pour_fills_the_map),
		cmocka_unit_test(test_shadow_catches_a_stale_record),
		cmocka_unit_test(test_fill_map_equals_pouring_everywhere),
	};
	return cmocka_run_group_tests_name("flood", tests, NULL, NULL);
}
