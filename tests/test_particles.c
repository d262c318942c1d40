/* Particle erosion: determinism, mass balance, bounds, and an unbiased normal. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/particles/particles.h"
#include "core/base/normal.h"
#include "core/particles/droplet.h"
#include "core/terrain/terrain.h"

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void run(struct world *w, const struct params *p, uint64_t n)
{
	void *st = NULL;
	assert_int_equal(particles_process.create(&st, w, p), 0);
	struct process_report rep;
	assert_int_equal(particles_process.step(st, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
	particles_process.destroy(st);
}

static void small_params(struct params *p, int size)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
}

static void test_deterministic(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64);
	struct world *a = make_world(&p), *b = make_world(&p);
	run(a, &p, 3000);
	run(b, &p, 3000);
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_int_equal(a->steps, b->steps);
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	/* And the run changed something: the test would pass on a no-op otherwise. */
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], a->layer[LAYER_BASE],
				world_cells(a) * sizeof(float));
	world_destroy(a);
	world_destroy(b);
}

static void test_seed_changes_result(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64);
	struct world *a = make_world(&p);
	p.world.seed = 43;
	struct world *b = make_world(&p);
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
				world_cells(a) * sizeof(float));
	world_destroy(a);
	world_destroy(b);
}

static void test_split_budget_equals_one_budget(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64);
	/* The seed's order, where a fresh process per call resumes exactly: no
	 * droplet is left in flight (tests/test_lanes.c splits lockstep runs). */
	p.particles.lanes = 1;
	struct world *a = make_world(&p), *b = make_world(&p);
	run(a, &p, 2500);
	run(b, &p, 1000);
	run(b, &p, 1);
	run(b, &p, 1499);
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_int_equal(a->particles, b->particles);
	world_destroy(a);
	world_destroy(b);
}

static double height_change(const struct world *w)
{
	double sum = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		sum += (double)w->layer[LAYER_HEIGHT][i] - (double)w->layer[LAYER_BASE][i];
	return sum;
}

static void test_mass_balance_with_deposit_on_death(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 128);
	assert_true(p.particles.deposit_on_death);
	/* Nothing in flight at the end (tests/test_lanes.c balances the books
	 * with soil in flight). */
	p.particles.lanes = 1;
	struct world *w = make_world(&p);
	run(w, &p, 20000);
	double eroded = w->tally[TALLY_ERODED], deposited = w->tally[TALLY_DEPOSITED];
	double off = w->tally[TALLY_SEDIMENT_OFF_MAP];
	assert_true(eroded > 1.0);
	assert_true(off > 0);
	/* eroded - deposited is what left the map, to 1e-6 relative. */
	assert_true(fabs((eroded - deposited) - off) <= 1e-6 * eroded);
	/* And the books match the terrain itself. */
	assert_true(fabs(height_change(w) - (deposited - eroded)) <= 1e-6 * eroded);
	world_destroy(w);
}

static void test_without_deposit_on_death_mass_is_lost(void **state)
{
	(void)state;
	/* The seed's behaviour: a dying droplet's load vanishes, so the terrain loses
	 * more than leaves over the edge. Shows the option really does something. */
	struct params p;
	small_params(&p, 64);
	p.particles.deposit_on_death = false;
	struct world *w = make_world(&p);
	run(w, &p, 5000);
	double lost = w->tally[TALLY_ERODED] - w->tally[TALLY_DEPOSITED];
	assert_true(fabs(height_change(w) + lost) <= 1e-6 * w->tally[TALLY_ERODED]);
	world_destroy(w);
}

static bool all_finite(const struct world *w)
{
	for (int l = 0; l < LAYER_COUNT; l++)
		for (size_t i = 0; i < world_cells(w); i++)
			if (!isfinite(w->layer[l][i]))
				return false;
	for (int t = 0; t < TALLY_COUNT; t++)
		if (!isfinite(w->tally[t]))
			return false;
	return true;
}

/* Picks each particles.* and terrain value at random within its range: at the
 * minimum, the maximum, or uniformly between. */
static void random_params(struct params *p, struct rng *r)
{
	for (int i = 0; i < params_count(); i++) {
		const struct param_def *d = params_def(i);
		if (strcmp(d->section, "particles") && strcmp(d->section, "terrain"))
			continue;
		double v;
		uint32_t pick = rng_below(r, 4);
		double lo = d->min, hi = d->max;
		if (d->type == PARAM_ENUM)
			hi = params_choice_count(d) - 1;
		/* max_steps only bounds how long a droplet lives: cap it so the test
		 * stays quick; the values it reaches are still the full range's. */
		if (strcmp(d->key, "particles.max_steps") == 0)
			hi = 5000;
		if (pick == 0)
			v = lo;
		else if (pick == 1)
			v = hi;
		else
			v = lo + (hi - lo) * rng_double(r);
		if (d->type != PARAM_DOUBLE)
			v = round(v);
		assert_int_equal(params_set(p, i, v), 0);
	}
}

static void test_no_nan_over_valid_range(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 2024, 7);
	for (int trial = 0; trial < 40; trial++) {
		struct params p;
		small_params(&p, trial % 2 ? 16 : 48);
		p.world.seed = (int)trial;
		random_params(&p, &r);
		struct world *w = make_world(&p);
		run(w, &p, 150);
		if (!all_finite(w))
			fail_msg("non-finite value in trial %d", trial);
		world_destroy(w);
	}
}

static void test_normal_points_downhill_and_edges_extend(void **state)
{
	(void)state;
	enum { W = 16, H = 16 };
	float h[W * H];
	/* A plane falling toward +x. */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			h[y * W + x] = 1.0f - 0.01f * (float)x;
	float mid[3], edge[3], corner[3];
	normal_ref(h, W, H, 8, 8, 60, true, mid);
	normal_ref(h, W, H, W - 1, 8, 60, true, edge);
	normal_ref(h, W, H, 0, 0, 60, true, corner);
	assert_true(mid[0] > 0.1f);
	assert_float_equal(mid[2], 0, 1e-6);
	for (int k = 0; k < 3; k++) {
		assert_float_equal(edge[k], mid[k], 1e-5);
		assert_float_equal(corner[k], mid[k], 1e-5);
	}
}

static void test_symmetric_normal_has_no_bias(void **state)
{
	(void)state;
	enum { N = 17 };
	float h[N * N];
	/* A cone: at mirror-image points the normal must mirror too. */
	for (int y = 0; y < N; y++)
		for (int x = 0; x < N; x++)
			h[y * N + x] = -sqrtf((float)((x - 8) * (x - 8) + (y - 8) * (y - 8))) * 0.01f;
	float a[3], b[3], c[3];
	normal_ref(h, N, N, 5, 6, 60, true, a);
	normal_ref(h, N, N, 11, 6, 60, true, b);  /* mirrored in x */
	normal_ref(h, N, N, 5, 10, 60, true, c);  /* mirrored in y */
	assert_float_equal(a[0], -b[0], 1e-6);
	assert_float_equal(a[2], b[2], 1e-6);
	assert_float_equal(a[0], c[0], 1e-6);
	assert_float_equal(a[2], -c[2], 1e-6);
	/* The seed's normal fails that on the same cone. */
	normal_ref(h, N, N, 5, 6, 60, false, a);
	normal_ref(h, N, N, 11, 6, 60, false, b);
	assert_true(fabsf(a[0] + b[0]) > 1e-3f);
}

/* Inside the map the step's normal is normal_xz, a shorter form of the
 * reference's x and z: it must agree with normal_ref to a few ulps on every
 * interior cell, and normal_at_xz must be the reference itself at the edges. */
static double check_step_normal(const float *h, int W, int H, int x, int y, float scale, bool sym)
{
	float ref[3];
	normal_ref(h, W, H, x, y, scale, sym, ref);
	struct normal_consts nk;
	normal_consts_init(&nk, scale, sym);
	const v2f n = normal_at_xz(h, W, H, x, y, &nk);
	const double d = fmax(fabs((double)v2_x(n) - ref[0]), fabs((double)v2_y(n) - ref[2]));
	const bool interior = x >= 1 && y >= 1 && x < W - 1 && y < H - 1;
	/* Components are sums of at most eight terms each below 0.15 in size: a
	 * few ulps of 1. */
	if (d > (interior ? 4e-7 : 0.0))
		fail_msg("%s normal at (%d,%d) of %dx%d: %.9g %.9g vs %.9g %.9g", NORMAL_IMPL, x, y,
			 W, H, v2_x(n), v2_y(n), ref[0], ref[2]);
	return d;
}

static void test_step_normal_matches_reference(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 77, 3);
	static const int sizes[][2] = {{16, 16}, {17, 23}, {64, 40}};
	static const float scales[] = {1.0f, 60.0f, 400.0f};
	static const float reliefs[] = {0.01f, 1.0f, 20.0f};
	double worst = 0;
	long compared = 0;
	for (int si = 0; si < 3; si++) {
		const int W = sizes[si][0], H = sizes[si][1];
		float *h = malloc((size_t)W * (size_t)H * sizeof *h);
		assert_non_null(h);
		for (int ri = 0; ri < 3; ri++) {
			for (int i = 0; i < W * H; i++)
				h[i] = reliefs[ri] * (rng_float(&r) - 0.5f);
			for (int sc = 0; sc < 3; sc++)
				for (int sym = 0; sym < 2; sym++)
					for (int y = 0; y < H; y++)
						for (int x = 0; x < W; x++) {
							worst = fmax(worst, check_step_normal(h, W, H, x, y,
											      scales[sc], sym));
							compared++;
						}
		}
		free(h);
	}
	assert_true(compared > 10000);
	/* Not vacuous: the two really are computed apart. */
	assert_true(worst > 0);
	print_message("step normal (%s): worst difference %.3g over %ld cells\n", NORMAL_IMPL,
		      worst, compared);
}

/* droplet.h's scalar API by hand: on a plane falling toward +x a droplet at
 * rest moves toward +x; the read half changes no height, the write half
 * changes exactly the cell it names by exactly its delta; a whole walk with
 * the API leaves what droplet_run leaves. */
static void test_droplet_step_by_hand(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 16);
	p.terrain.generator = TERRAIN_FLAT;
	struct world *w = make_world(&p), *v = make_world(&p);
	for (int y = 0; y < 16; y++)
		for (int x = 0; x < 16; x++)
			w->layer[LAYER_HEIGHT][y * 16 + x] = v->layer[LAYER_HEIGHT][y * 16 + x] =
				1.0f - 0.05f * (float)x;
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	struct droplet_env e;
	droplet_env_init(&e, w, &dp);
	struct droplet d = {.x = 3.5f, .y = 8.5f, .volume = 1.0f};
	struct droplet_walk l;
	droplet_begin(&l, &d, &e);
	const size_t bytes = world_cells(w) * sizeof(float);
	float *before = malloc(bytes);
	assert_non_null(before);
	memcpy(before, w->layer[LAYER_HEIGHT], bytes);
	struct droplet_change c;
	assert_int_equal(droplet_advance(&l, &e, &c), DROPLET_MOVED);
	assert_memory_equal(before, w->layer[LAYER_HEIGHT], bytes);
	assert_true(v2_x(l.vel) > 0);
	assert_float_equal(v2_y(l.vel), 0, 1e-7);
	assert_int_equal(c.at, 8 * 16 + 3);
	droplet_apply(&l, &e, &c);
	assert_true(c.delta != 0);
	assert_true(c.before == before[c.at] && c.after == before[c.at] - c.delta);
	before[c.at] = c.after;
	assert_memory_equal(before, w->layer[LAYER_HEIGHT], bytes);
	int moved = 1;
	while (droplet_step(&l, &e, &c) == DROPLET_MOVED)
		moved++;
	/* Ended: stepping again changes nothing. */
	assert_int_equal(droplet_step(&l, &e, &c), DROPLET_ENDED);
	assert_true(l.left_map);
	assert_int_equal(droplet_steps(&l), moved + 1);
	struct droplet_books b;
	droplet_finish(&l, &e, &b);
	droplet_commit(&b, w);
	struct droplet dv = {.x = 3.5f, .y = 8.5f, .volume = 1.0f};
	assert_int_equal(droplet_run(&dv, v, &dp), moved + 1);
	assert_memory_equal(w->layer[LAYER_HEIGHT], v->layer[LAYER_HEIGHT], bytes);
	assert_memory_equal(w->tally, v->tally, sizeof w->tally);
	/* It ran off the +x edge carrying what it took. */
	assert_true(w->tally[TALLY_SEDIMENT_OFF_MAP] > 0);
	free(before);
	world_destroy(w);
	world_destroy(v);
}

static void test_counters(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 32);
	struct world *w = make_world(&p);
	run(w, &p, 100);
	assert_int_equal(w->particles, 100);
	assert_true(w->steps >= 100);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_seed_changes_result),
		cmocka_unit_test(test_split_budget_equals_one_budget),
		cmocka_unit_test(test_mass_balance_with_deposit_on_death),
		cmocka_unit_test(test_without_deposit_on_death_mass_is_lost),
		cmocka_unit_test(test_no_nan_over_valid_range),
		cmocka_unit_test(test_normal_points_downhill_and_edges_extend),
		cmocka_unit_test(test_symmetric_normal_has_no_bias),
		cmocka_unit_test(test_step_normal_matches_reference),
		cmocka_unit_test(test_droplet_step_by_hand),
		cmocka_unit_test(test_counters),
	};
	return cmocka_run_group_tests_name("particles", tests, NULL, NULL);
}
