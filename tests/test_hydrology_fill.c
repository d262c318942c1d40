/* hydrology.fill_start: before the first droplet every pit is filled to its
 * spill by the whole-map flood, and nothing else changes: the same run as
 * filling the pool layer by hand first; water books balance (an imported
 * pool above its spill drains off the map); resuming after the start does
 * not fill again; off (the default), a run starts dry. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology.h"
#include "core/terrain/terrain.h"
#include "worldutil.h"

enum { SIZE = 48 };

static struct world *world_for(struct params *p, bool fill, double sea)
{
	params_defaults(p);
	p->world.width = p->world.height = SIZE;
	p->terrain.vertical_scale = 40;
	p->hydrology.batch = 50;
	p->hydrology.fill_start = fill;
	p->hydrology.sea_level = sea;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void run(struct world *w, const struct params *p, uint64_t n)
{
	void *st = NULL;
	struct process_report rep;
	assert_int_equal(hydrology_process.create(&st, w, p), 0);
	assert_int_equal(hydrology_process.step(st, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
	hydrology_process.destroy(st);
}

static double pool_sum(const struct world *w)
{
	double s = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		s += w->layer[LAYER_POOL][i];
	return s;
}

static void assert_books_balance(const struct world *w)
{
	double in = w->tally[TALLY_WATER_IN];
	double out = pool_sum(w) + w->tally[TALLY_WATER_EVAPORATED] + w->tally[TALLY_WATER_OFF_MAP];
	if (!(fabs(in - out) <= 1e-9 * in))
		fail_msg("water in %.17g, pools + evaporated + off map %.17g", in, out);
}

static void test_fill_start_is_the_whole_map_fill_then_the_run(void **state)
{
	(void)state;
	for (int v = 0; v < 2; v++) {
		double sea = v ? 0.3 : -1.0;
		struct params p, q;
		struct world *a = world_for(&p, true, sea), *b = world_for(&q, false, sea);
		/* By hand: the fill, then the same droplets without the option. */
		assert_int_equal(flood_fill_map(b->layer[LAYER_HEIGHT], b->layer[LAYER_POOL],
						b->width, b->height, sea),
				 0);
		double filled = pool_sum(b);
		assert_true(filled > 0); /* the terrain has pits to fill */
		b->tally[TALLY_WATER_IN] += filled;
		run(a, &p, 400);
		run(b, &q, 400);
		assert_same_world(a, b);
		assert_books_balance(a);
		world_destroy(a);
		world_destroy(b);
	}
}

static void test_fill_start_off_starts_dry(void **state)
{
	(void)state;
	struct params p;
	struct world *w = world_for(&p, false, -1.0);
	run(w, &p, 1); /* one droplet: at most one small puddle, not every pit */
	struct world *f = world_for(&p, true, -1.0);
	run(f, &p, 1);
	size_t wet = 0, wet_filled = 0;
	for (size_t i = 0; i < world_cells(w); i++) {
		wet += w->layer[LAYER_POOL][i] > 0;
		wet_filled += f->layer[LAYER_POOL][i] > 0;
	}
	assert_true(wet_filled > 10 * (wet + 1));
	world_destroy(w);
	world_destroy(f);
}

/* An imported pool layer deeper than its spill: the fill lowers it to the
 * spill and the water it loses leaves the map in the books. */
static void test_fill_start_drains_pools_above_the_spill(void **state)
{
	(void)state;
	struct params p;
	struct world *w = world_for(&p, true, -1.0);
	for (size_t i = 0; i < world_cells(w); i++)
		w->layer[LAYER_POOL][i] = 0.5f;
	w->tally[TALLY_WATER_IN] = pool_sum(w); /* as the import brought it */
	run(w, &p, 200);
	assert_true(w->tally[TALLY_WATER_OFF_MAP] > 0.25 * SIZE * SIZE);
	assert_books_balance(w);
	world_destroy(w);
}

/* A run resumed after its start (a new process state, as a snapshot's
 * load makes) does not fill again: split 150 + 250 equals 400 at once. */
static void test_fill_start_only_at_the_start(void **state)
{
	(void)state;
	struct params p;
	struct world *a = world_for(&p, true, 0.3), *b = world_for(&p, true, 0.3);
	run(a, &p, 400);
	run(b, &p, 150);
	run(b, &p, 250);
	assert_same_world(a, b);
	world_destroy(a);
	world_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fill_start_is_the_whole_map_fill_then_the_run),
		cmocka_unit_test(test_fill_start_off_starts_dry),
		cmocka_unit_test(test_fill_start_drains_pools_above_the_spill),
		cmocka_unit_test(test_fill_start_only_at_the_start),
	};
	return cmocka_run_group_tests_name("hydrology_fill", tests, NULL, NULL);
}
