/* The flood's lake cache (records kept between pours) is invisible: a
 * cached pour gives a fresh flood's bits, through changed cells, near ties,
 * drains, bands, ring gaps and a lake that leaves the edge; the shadow check
 * catches a stale record. 16x16 terrains (flood_fixture.h). */
#include "flood_fixture.h"

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
		pour_alike(a, b, cell, water, &st, &fp);
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
		pour_alike(a, b, cell, water, NULL, &fp);
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
			pour_alike(a, b, cell, water, &st, &fp);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_cache_is_invisible),
		cmocka_unit_test(test_cache_survives_changed_cells),
		cmocka_unit_test(test_cache_near_ties),
		cmocka_unit_test(test_cache_lake_leaves_the_edge),
		cmocka_unit_test(test_cache_drain_cuts_the_lake),
		cmocka_unit_test(test_cache_ring_gap_split_later),
		cmocka_unit_test(test_cache_record_spread_in_band),
		cmocka_unit_test(test_shadow_catches_a_stale_record),
	};
	return cmocka_run_group_tests_name("flood_cache", tests, NULL, NULL);
}
