/* The flood with the 2020 code's tries (flood_params.halves and
 * halves_filled), their overshoot, and strict_leak's dry sills, on
 * hand-built 16x16 terrains (flood_fixture.h), the answers worked out by
 * hand in the comments. */
#include "flood_fixture.h"

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
		for (int t = 0; t < times; t++)
			pour_alike(a, b, cell, water, NULL, &fp);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_halves_keep_what_fits_under_the_leak),
		cmocka_unit_test(test_halves_overshoot_where_all_would_fit),
		cmocka_unit_test(test_overshoot_poured_again),
		cmocka_unit_test(test_poured_again_is_invisible),
		cmocka_unit_test(test_overshoot_keeps_the_lake_record),
		cmocka_unit_test(test_overshoot_read_off_the_record),
		cmocka_unit_test(test_overshoot_early_is_invisible),
		cmocka_unit_test(test_strict_dry_leak),
		cmocka_unit_test(test_strict_dry_leak_from_a_lake),
		cmocka_unit_test(test_halves_from_a_record_as_fresh),
	};
	return cmocka_run_group_tests_name("flood_halves", tests, NULL, NULL);
}
