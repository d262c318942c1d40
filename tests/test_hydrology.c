/* The hydrology process: water books, bounds, determinism, budget splits,
 * snapshot state, and that the flood's lake cache changes nothing. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/hydrology/hydrology.h"
#include "core/terrain/terrain.h"
#include "worldutil.h"

static void small_params(struct params *p, int size)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->terrain.vertical_scale = 40;
	p->hydrology.batch = 50; /* several stream updates even in short runs */
	/* Pools in short runs: a droplet pours in any pit (pit_dry pours only
	 * in pits on streams, which take thousands of droplets to form). */
	p->hydrology.pit_dry = false;
}

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void *make_state(struct world *w, const struct params *p)
{
	return test_process_open(&hydrology_process, w, p);
}

static void run(void *st, struct world *w, const struct params *p, uint64_t n)
{
	test_process_run(&hydrology_process, st, w, p, n);
}

static double pool_sum(const struct world *w)
{
	double s = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		s += w->layer[LAYER_POOL][i];
	return s;
}

static void assert_worlds_equal(const struct world *a, const struct world *b)
{
	for (int l = 0; l < LAYER_COUNT; l++)
		if (memcmp(a->layer[l], b->layer[l], world_cells(a) * sizeof(float)))
			fail_msg("layer %s differs", world_layer_name((enum world_layer)l));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_int_equal(a->particles, b->particles);
	assert_int_equal(a->steps, b->steps);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
}

static void check_water_books(const struct world *w)
{
	double in = w->tally[TALLY_WATER_IN];
	double out = pool_sum(w) + w->tally[TALLY_WATER_EVAPORATED] +
		     w->tally[TALLY_WATER_OFF_MAP];
	if (!(fabs(in - out) <= 1e-9 * in))
		fail_msg("water in %.17g, pools + evaporated + off map %.17g", in, out);
	struct world_stats st;
	world_stats(w, &st);
	assert_double_equal(st.pool_volume, pool_sum(w), 1e-9 * in);
}

static void test_water_is_conserved(void **state)
{
	(void)state;
	/* Each coupling, the sea low (water leaves) and high (walls), pools that
	 * evaporate: in = pools + evaporated + off map, to 1e-9. */
	for (int c = 0; c < HYDROLOGY_COUPLING_COUNT; c++) {
		for (int v = 0; v < 2; v++) {
			struct params p;
			small_params(&p, 48);
			p.hydrology.coupling = c;
			p.hydrology.sea_level = v ? 2.0 : 0.0;
			p.hydrology.pool_evaporation = v ? 0.0001 : 0.0;
			struct world *w = make_world(&p);
			void *st = make_state(w, &p);
			run(st, w, &p, 1500);
			assert_double_equal(w->tally[TALLY_WATER_IN], 1500 / p.hydrology.volume_factor,
					    1e-12);
			assert_true(pool_sum(w) > 0);
			if (v == 0)
				assert_true(w->tally[TALLY_WATER_OFF_MAP] > 0);
			check_water_books(w);
			hydrology_process.destroy(st);
			world_destroy(w);
		}
	}
}

static void test_soil_is_conserved(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	struct world *w = make_world(&p);
	void *st = make_state(w, &p);
	run(st, w, &p, 1500);
	double change = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		change += (double)w->layer[LAYER_HEIGHT][i] - (double)w->layer[LAYER_BASE][i];
	double eroded = w->tally[TALLY_ERODED], deposited = w->tally[TALLY_DEPOSITED];
	assert_true(eroded > 0.1);
	assert_true(fabs(change - (deposited - eroded)) <= 1e-6 * eroded);
	assert_true(fabs(eroded - deposited - w->tally[TALLY_SEDIMENT_OFF_MAP]) <= 1e-6 * eroded);
	hydrology_process.destroy(st);
	world_destroy(w);
}

static void test_maps_stay_in_bounds(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	/* Trees everywhere they may grow, and lots of them. */
	p.hydrology.tree_spawn = 20;
	p.hydrology.tree_seed_chance = 0.5;
	p.hydrology.tree_min_normal = 0.0;
	p.hydrology.tree_max_stream = 1.0;
	p.hydrology.batch = 10;
	struct world *w = make_world(&p);
	void *st = make_state(w, &p);
	run(st, w, &p, 3000);
	struct hydrology_counters c;
	hydrology_counters(st, &c);
	assert_true(c.trees > 100);
	long streams = 0;
	for (size_t i = 0; i < world_cells(w); i++) {
		float s = w->layer[LAYER_STREAM][i], v = w->layer[LAYER_VEGETATION][i];
		float pl = w->layer[LAYER_POOL][i];
		assert_true(s >= 0.0f && s <= 1.0f);
		streams += s > 0.1f;
		assert_true(pl >= 0.0f && isfinite(pl));
		/* Roots: whole steps of 0.2, one tree per cell at most, so at most
		 * 1 + 4 x 0.6 + 4 x 0.4 = 5. */
		assert_true(v >= 0.0f && v <= 5.0f + 1e-6f);
		float steps = v / HYDROLOGY_ROOT_UNIT;
		assert_float_equal(steps, roundf(steps), 1e-4);
	}
	assert_true(streams > 0);
	hydrology_process.destroy(st);
	world_destroy(w);
}

static void test_deterministic(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = make_state(a, &p), *sb = make_state(b, &p);
	run(sa, a, &p, 1200);
	run(sb, b, &p, 1200);
	assert_worlds_equal(a, b);
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], a->layer[LAYER_BASE],
				world_cells(a) * sizeof(float));
	hydrology_process.destroy(sa);
	hydrology_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

static void test_budget_split_changes_nothing(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	p.hydrology.batch = 70;
	p.hydrology.pool_evaporation = 0.0001;
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = make_state(a, &p), *sb = make_state(b, &p);
	run(sa, a, &p, 1500);
	/* Splits that straddle batch boundaries (70, 140, ...) on purpose. */
	uint64_t parts[] = {1, 68, 2, 69, 500, 3, 857};
	for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
		run(sb, b, &p, parts[i]);
	assert_worlds_equal(a, b);
	hydrology_process.destroy(sa);
	hydrology_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

static void test_lake_cache_changes_nothing(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	struct world *a = make_world(&p), *b = make_world(&p);
	void *sa = make_state(a, &p), *sb = make_state(b, &p);
	hydrology_set_flood_cache(sb, false);
	run(sa, a, &p, 2000);
	run(sb, b, &p, 2000);
	assert_worlds_equal(a, b);
	struct hydrology_counters ca, cb;
	hydrology_counters(sa, &ca);
	hydrology_counters(sb, &cb);
	assert_int_equal(ca.flood_calls, cb.flood_calls);
	assert_true(ca.flood_touched < cb.flood_touched);
	hydrology_process.destroy(sa);
	hydrology_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

static void test_snapshot_state_resumes_exactly(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	p.hydrology.tree_spawn = 20;
	p.hydrology.tree_min_normal = 0.0;
	p.hydrology.batch = 60;
	struct world *a = make_world(&p);
	void *sa = make_state(a, &p);
	run(sa, a, &p, 1030); /* mid-batch: the track map matters */
	unsigned char *blob;
	size_t len;
	assert_int_equal(hydrology_process.save_state(sa, &blob, &len), 0);
	/* What a snapshot resume does: the world's layers and counters, a fresh
	 * state, then the saved blob. */
	struct world *b;
	assert_int_equal(world_clone(&b, a), 0);
	void *sb = make_state(b, &p);
	assert_int_equal(hydrology_process.load_state(sb, blob, len), 0);
	assert_memory_equal(a->layer[LAYER_VEGETATION], b->layer[LAYER_VEGETATION],
			    world_cells(a) * sizeof(float));
	struct hydrology_counters ca, cb;
	hydrology_counters(sa, &ca);
	hydrology_counters(sb, &cb);
	assert_true(ca.trees >= 2);
	assert_int_equal(ca.trees, cb.trees);
	run(sa, a, &p, 700);
	run(sb, b, &p, 700);
	assert_worlds_equal(a, b);

	/* Corrupt blobs are refused and change nothing. */
	unsigned char *bad = malloc(len);
	memcpy(bad, blob, len);
	bad[0] ^= 1;
	assert_int_not_equal(hydrology_process.load_state(sb, bad, len), 0);
	assert_int_not_equal(hydrology_process.load_state(sb, blob, len - 1), 0);
	memcpy(bad, blob, len);
	bad[44] = bad[45] = bad[46] = bad[47] = 0xff; /* first tree's cell off the map */
	assert_int_not_equal(hydrology_process.load_state(sb, bad, len), 0);
	memcpy(bad, blob, len);
	memcpy(bad + 72, blob + 44, 4); /* second tree on the first one's cell */
	assert_int_not_equal(hydrology_process.load_state(sb, bad, len), 0);
	hydrology_counters(sb, &cb);
	hydrology_counters(sa, &ca);
	assert_int_equal(ca.trees, cb.trees);
	free(bad);
	free(blob);
	hydrology_process.destroy(sa);
	hydrology_process.destroy(sb);
	world_destroy(a);
	world_destroy(b);
}

static void test_coupling_choices_match_enum(void **state)
{
	(void)state;
	const struct param_def *d = params_def(params_find("hydrology.coupling"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_COUPLING_COUNT);
	assert_int_equal(params_choice_find(d, "none"), HYDROLOGY_NONE);
	assert_int_equal(params_choice_find(d, "streams"), HYDROLOGY_STREAMS);
	assert_int_equal(params_choice_find(d, "trees"), HYDROLOGY_TREES);
	assert_ptr_equal(process_find("hydrology"), &hydrology_process);
}

static void test_couplings_differ(void **state)
{
	(void)state;
	/* The seed's three-way comparison: each coupling really changes the run. */
	struct world *w[HYDROLOGY_COUPLING_COUNT];
	for (int c = 0; c < HYDROLOGY_COUPLING_COUNT; c++) {
		struct params p;
		small_params(&p, 48);
		p.hydrology.coupling = c;
		p.hydrology.tree_spawn = 10;
		w[c] = make_world(&p);
		void *st = make_state(w[c], &p);
		run(st, w[c], &p, 1500);
		hydrology_process.destroy(st);
	}
	size_t bytes = world_cells(w[0]) * sizeof(float);
	assert_memory_not_equal(w[0]->layer[LAYER_HEIGHT], w[1]->layer[LAYER_HEIGHT], bytes);
	assert_memory_not_equal(w[1]->layer[LAYER_HEIGHT], w[2]->layer[LAYER_HEIGHT], bytes);
	float vmax = 0;
	for (size_t i = 0; i < world_cells(w[2]); i++) {
		vmax = fmaxf(vmax, w[2]->layer[LAYER_VEGETATION][i]);
		assert_true(w[1]->layer[LAYER_VEGETATION][i] == 0.0f);
	}
	assert_true(vmax >= 1.0f);
	for (int c = 0; c < HYDROLOGY_COUPLING_COUNT; c++)
		world_destroy(w[c]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_water_is_conserved),
		cmocka_unit_test(test_soil_is_conserved),
		cmocka_unit_test(test_maps_stay_in_bounds),
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_budget_split_changes_nothing),
		cmocka_unit_test(test_lake_cache_changes_nothing),
		cmocka_unit_test(test_snapshot_state_resumes_exactly),
		cmocka_unit_test(test_coupling_choices_match_enum),
		cmocka_unit_test(test_couplings_differ),
	};
	return cmocka_run_group_tests_name("hydrology", tests, NULL, NULL);
}
