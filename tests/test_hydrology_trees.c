/* The trees act on their events (hydrology_trees.c): the forest's records
 * stay consistent, no tree ever stands on a stream above the limit after a
 * batch (the seed's rule, exactly), the events come at the seed's chances,
 * the work follows the events and not the number of trees, and version 1
 * snapshots still load. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"
#include "core/terrain/terrain.h"

static void tree_params(struct params *p, int size)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->terrain.vertical_scale = 40;
	p->hydrology.batch = 10;
	p->hydrology.tree_spawn = 20;
	p->hydrology.tree_min_normal = 0.5;
}

static struct hydro_state *make(struct world **w, const struct params *p)
{
	void *st = NULL;
	assert_int_equal(world_from_params(w, p), 0);
	assert_int_equal(hydrology_process.create(&st, *w, p), 0);
	return st;
}

static void run(struct hydro_state *s, struct world *w, const struct params *p, uint64_t n)
{
	struct process_report rep;
	assert_int_equal(hydrology_process.step(s, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
}

static void destroy(struct hydro_state *s, struct world *w)
{
	hydrology_process.destroy(s);
	world_destroy(w);
}

/* Everything the forest keeps agrees: slots, the cell map and its runs'
 * bits, the roots, one pending event per tree, none past, and no tree on a
 * strong stream. */
static void check_forest(const struct hydro_state *s, const struct params *p)
{
	const struct forest *f = &s->forest;
	size_t n = (size_t)s->width * (size_t)s->height, live = 0;
	uint8_t *roots = calloc(n, 1);
	unsigned *pending = calloc(f->slots + 1, sizeof *pending);
	assert_non_null(roots);
	assert_non_null(pending);
	for (size_t i = 0; i < f->slots; i++) {
		const struct tree *t = &f->trees[i];
		if (t->cell < 0)
			continue;
		live++;
		assert_int_equal(tree_map_get(&f->at, (uint32_t)t->cell), i + 1);
		assert_true(t->seed_at >= f->now && t->die_at >= f->now);
		if (s->w->layer[LAYER_STREAM][t->cell] > (float)p->hydrology.tree_max_stream)
			fail_msg("a tree on cell %d, stream %g", t->cell,
				 (double)s->w->layer[LAYER_STREAM][t->cell]);
		int x = t->cell % s->width, y = t->cell / s->width;
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++)
				if (x + dx >= 0 && y + dy >= 0 && x + dx < s->width &&
				    y + dy < s->height)
					roots[(y + dy) * s->width + x + dx] +=
						!dx && !dy ? ROOT_CENTRE : !dx || !dy ? ROOT_SIDE : ROOT_DIAG;
	}
	assert_int_equal(live, f->live);
	size_t mapped = 0;
	bool run_has_tree = false;
	const size_t run = (size_t)1 << TREE_MAP_RUN_SHIFT;
	for (size_t c = 0; c < n; c++) {
		const bool here = tree_map_get(&f->at, (uint32_t)c) != 0;
		mapped += here;
		/* A run's bit, which the batch's note reads first. */
		run_has_tree |= here;
		if (c % run == run - 1 || c == n - 1) {
			assert_int_equal(tree_map_run_any(&f->at, (uint32_t)c), run_has_tree);
			run_has_tree = false;
		}
	}
	assert_int_equal(mapped, live);
	assert_int_equal(f->at.n, live);
	assert_memory_equal(roots, s->roots, n);
	const struct tree_list *lists[TREE_WHEEL + 1];
	for (size_t b = 0; b < TREE_WHEEL; b++)
		lists[b] = &f->wheel[b];
	lists[TREE_WHEEL] = &f->far;
	for (size_t b = 0; b <= TREE_WHEEL; b++)
		for (size_t i = 0; i < lists[b]->n; i++) {
			const struct tree_event e = lists[b]->e[i];
			const struct tree *t = &f->trees[e.slot];
			uint64_t due = t->seed_at < t->die_at ? t->seed_at : t->die_at;
			if (t->cell >= 0 && t->serial == e.serial &&
			    (b == TREE_WHEEL || due % TREE_WHEEL == b))
				pending[e.slot]++;
		}
	for (size_t i = 0; i < f->slots; i++)
		if (f->trees[i].cell >= 0 && pending[i] != 1)
			fail_msg("tree in slot %zu has %u pending events", i, pending[i]);
	free(roots);
	free(pending);
}

/* Both ways of finding the trees on visited cells: from the trees (the
 * whole-map stream pass of small maps) and from the listed tiles (the lazy
 * stream map of big ones), which must also give the same run. */
static void test_forest_stays_consistent(void **state)
{
	(void)state;
	struct params p;
	tree_params(&p, 64);
	p.hydrology.tree_max_stream = 0.05; /* streams kill trees often */
	struct world *w[2];
	struct hydro_state *s[2];
	for (int k = 0; k < 2; k++) {
		s[k] = make(&w[k], &p);
		hydrology_set_stream_lazy(s[k], k == 1);
	}
	size_t most = 0;
	/* 700 batches: past the wheel's turns at 256 and 512. */
	for (int b = 0; b < 700; b++) {
		for (int k = 0; k < 2; k++) {
			run(s[k], w[k], &p, (uint64_t)p.hydrology.batch);
			check_forest(s[k], &p);
		}
		assert_int_equal(s[0]->forest.live, s[1]->forest.live);
		most = s[0]->forest.live > most ? s[0]->forest.live : most;
	}
	assert_memory_equal(w[0]->layer[LAYER_HEIGHT], w[1]->layer[LAYER_HEIGHT],
			    world_cells(w[0]) * sizeof(float));
	assert_memory_equal(w[0]->layer[LAYER_VEGETATION], w[1]->layer[LAYER_VEGETATION],
			    world_cells(w[0]) * sizeof(float));
	assert_true(most > 100);
	assert_true(s[0]->forest.checks_run > 0);
	assert_int_equal(s[0]->forest.checks_run, s[1]->forest.checks_run);
	for (int k = 0; k < 2; k++)
		destroy(s[k], w[k]);
}

/* Events come at the chances the parameters give, per tree and batch, and
 * nothing else visits a tree: the work follows the events. */
static void test_events_follow_the_chances(void **state)
{
	(void)state;
	struct params p;
	tree_params(&p, 64);
	p.hydrology.tree_seed_chance = 0.05;
	p.hydrology.tree_death_chance = 0.01;
	struct world *w;
	struct hydro_state *s = make(&w, &p);
	run(s, w, &p, 200 * (uint64_t)p.hydrology.batch); /* a forest grows */
	double tree_batches = 0;
	uint64_t events0 = s->forest.events_run;
	for (int b = 0; b < 400; b++) {
		tree_batches += (double)s->forest.live;
		run(s, w, &p, (uint64_t)p.hydrology.batch);
	}
	double events = (double)(s->forest.events_run - events0);
	/* A tree's events per batch: about its seeding and death chances (the
	 * two may fall in one batch, and the trees born meanwhile are new). */
	double expect = tree_batches * (0.05 + 0.01);
	assert_true(tree_batches > 20000);
	if (!(events > 0.8 * expect && events < 1.2 * expect))
		fail_msg("%.0f events for %.0f tree-batches (expected about %.0f)", events,
			 tree_batches, expect);
	destroy(s, w);
}

/* On a plane (no pools, no stream above 1) trees die by chance alone: the
 * forest decays as (1 - p)^k. */
static void test_death_by_chance_is_geometric(void **state)
{
	(void)state;
	struct params p;
	tree_params(&p, 64);
	p.terrain.generator = params_choice_find(params_def(params_find("terrain.generator")), "plane");
	assert_true(p.terrain.generator >= 0);
	p.hydrology.tree_min_normal = 0.0;
	p.hydrology.tree_max_stream = 1.0;
	p.hydrology.tree_seed_chance = 0.0;
	p.hydrology.tree_death_chance = 0.05;
	p.hydrology.tree_spawn = 1000;
	struct world *w;
	struct hydro_state *s = make(&w, &p);
	run(s, w, &p, (uint64_t)p.hydrology.batch);
	double n0 = (double)s->forest.live;
	assert_true(n0 > 300);
	p.hydrology.tree_spawn = 0;
	for (int k = 1; k <= 30; k++) {
		run(s, w, &p, (uint64_t)p.hydrology.batch);
		double expect = n0 * pow(0.95, k);
		double sd = sqrt(n0 * pow(0.95, k) * (1 - pow(0.95, k)));
		if (!(fabs((double)s->forest.live - expect) <= 5 * sd + 2))
			fail_msg("batch %d: %zu trees, expected %.1f +- %.1f", k, s->forest.live,
				 expect, sd);
	}
	destroy(s, w);
}

/* A version 1 blob (cells and sizes) loads; its trees draw their events at
 * the next batch; a bad size, a bad version and an event in the past are
 * refused. */
static void test_version_1_snapshots_load(void **state)
{
	(void)state;
	struct params p;
	tree_params(&p, 32);
	struct world *w;
	struct hydro_state *s = make(&w, &p);
	size_t n = 32 * 32, len = 20 + 2 * 8 + (n + 7) / 8;
	unsigned char *blob = calloc(1, len);
	assert_non_null(blob);
	put_u32le(blob, 0x44594847u);
	put_u32le(blob + 4, 1);
	put_u32le(blob + 8, 32);
	put_u32le(blob + 12, 32);
	put_u32le(blob + 16, 2);
	float half = 0.5f, two = 2.0f;
	uint32_t bits;
	put_u32le(blob + 20, 5 * 32 + 5);
	memcpy(&bits, &half, 4);
	put_u32le(blob + 24, bits);
	put_u32le(blob + 28, 20 * 32 + 9);
	put_u32le(blob + 32, bits);
	assert_int_equal(hydrology_process.load_state(s, blob, len), 0);
	assert_int_equal(s->forest.live, 2);
	assert_true(s->forest.undrawn);
	assert_float_equal(w->layer[LAYER_VEGETATION][5 * 32 + 5], 1.0f, 1e-6);
	run(s, w, &p, (uint64_t)p.hydrology.batch);
	assert_false(s->forest.undrawn);
	check_forest(s, &p);

	memcpy(&bits, &two, 4);
	put_u32le(blob + 32, bits);
	assert_int_not_equal(hydrology_process.load_state(s, blob, len), 0);
	put_u32le(blob + 4, 3);
	assert_int_not_equal(hydrology_process.load_state(s, blob, len), 0);
	free(blob);

	run(s, w, &p, 30 * (uint64_t)p.hydrology.batch);
	size_t before = s->forest.live;
	assert_int_equal(hydrology_process.save_state(s, &blob, &len), 0);
	if (before) {
		put_u32le(blob + 44 + 12, 0); /* the first tree's seeding in batch 0 */
		put_u32le(blob + 44 + 16, 0);
		assert_int_not_equal(hydrology_process.load_state(s, blob, len), 0);
	}
	assert_int_equal(s->forest.live, before);
	free(blob);
	destroy(s, w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_forest_stays_consistent),
		cmocka_unit_test(test_events_follow_the_chances),
		cmocka_unit_test(test_death_by_chance_is_geometric),
		cmocka_unit_test(test_version_1_snapshots_load),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
