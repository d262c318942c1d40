/* Particle erosion: determinism, mass balance, bounds, and an unbiased normal. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/particles/particles.h"
#include "core/particles/particles_normal.h"
#include "core/particles/particles_pair.h"
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
	particles_normal(h, W, H, 8, 8, 60, true, mid);
	particles_normal(h, W, H, W - 1, 8, 60, true, edge);
	particles_normal(h, W, H, 0, 0, 60, true, corner);
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
	particles_normal(h, N, N, 5, 6, 60, true, a);
	particles_normal(h, N, N, 11, 6, 60, true, b);  /* mirrored in x */
	particles_normal(h, N, N, 5, 10, 60, true, c);  /* mirrored in y */
	assert_float_equal(a[0], -b[0], 1e-6);
	assert_float_equal(a[2], b[2], 1e-6);
	assert_float_equal(a[0], c[0], 1e-6);
	assert_float_equal(a[2], -c[2], 1e-6);
	/* The seed's normal fails that on the same cone. */
	particles_normal(h, N, N, 5, 6, 60, false, a);
	particles_normal(h, N, N, 11, 6, 60, false, b);
	assert_true(fabsf(a[0] + b[0]) > 1e-3f);
}

/* The vectorised normal droplet_run uses inside the map must be the scalar
 * reference's, up to the order of its final sums, on every cell (edges go
 * through the reference itself). */
/* Inside the map the droplet step uses a shorter form of the normal's x and
 * z (particles_normal.h): it too must agree with the reference. */
static void check_droplet_normal(const float *h, int W, int H, int x, int y, float scale,
				 bool sym, const float ref[3])
{
	if (x < 1 || y < 1 || x >= W - 1 || y >= H - 1)
		return;
	struct normal_consts nk;
	normal_consts_init(&nk, scale, sym);
	float nx, nz;
	normal_droplet_xz(h + (size_t)y * (size_t)W + (size_t)x, (size_t)W, &nk, &nx, &nz);
	if (fabs((double)nx - ref[0]) > 4e-7 || fabs((double)nz - ref[2]) > 4e-7)
		fail_msg("droplet normal at (%d,%d) of %dx%d: %.9g %.9g vs %.9g %.9g", x, y, W,
			 H, nx, nz, ref[0], ref[2]);
}

static void test_fast_normal_matches_reference(void **state)
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
							float a[3], b[3];
							particles_normal(h, W, H, x, y, scales[sc],
									 sym, a);
							particles_normal_fast(h, W, H, x, y,
									      scales[sc], sym, b);
							check_droplet_normal(h, W, H, x, y,
									     scales[sc], sym, a);
							for (int k = 0; k < 3; k++) {
								/* Components are sums of at most
								 * eight terms each below 0.15 in
								 * size: a few ulps of 1. */
								double d = fabs((double)a[k] -
										(double)b[k]);
								if (d > worst)
									worst = d;
								if (d > 4e-7)
									fail_msg("%s normal %d at (%d,%d) "
										 "of %dx%d: %.9g vs %.9g",
										 particles_normal_impl(),
										 k, x, y, W, H, a[k], b[k]);
							}
							compared++;
						}
		}
		free(h);
	}
	assert_true(compared > 10000);
	/* Not vacuous: the two really are computed apart. */
	print_message("fast normal (%s): worst difference %.3g over %ld cells\n",
		      particles_normal_impl(), worst, compared);
}

/* Runs `n` droplets one after the other through droplet_run: the plain
 * order every faster runner must reproduce bit for bit. */
static uint64_t run_sequential(struct world *w, const struct params *p, uint64_t n)
{
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	for (uint64_t i = 0; i < n; i++) {
		struct droplet d;
		particles_spawn(w, &d);
		steps += droplet_run(&d, w, &dp);
	}
	return steps;
}

static void assert_same_world(const struct world *a, const struct world *b)
{
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
}

/* The paired scheduler (a speculative follower, undone on conflict) must give
 * exactly the sequential result, including on maps so small that droplets
 * collide all the time, and with every option flipped. */
static void test_paired_equals_sequential(void **state)
{
	(void)state;
	struct {
		int width, height;
		uint64_t droplets;
		bool deposit, symmetric;
		double evap;
		int max_steps;
	} cases[] = {
		{64, 64, 1500, true, true, 0.001, 20000},
		{16, 16, 400, true, true, 0.001, 20000},
		{32, 32, 600, false, true, 0.001, 20000},
		{32, 32, 600, true, false, 0.001, 20000},
		{48, 48, 800, true, true, 0.05, 20000},
		{48, 48, 800, true, true, 0.001, 100},
		{40, 17, 500, true, true, 0.001, 20000},
		{16, 70, 500, true, true, 0.001, 20000},
	};
	uint64_t rollbacks = 0, followers = 0;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct params p;
		small_params(&p, 16);
		p.world.width = cases[c].width;
		p.world.height = cases[c].height;
		p.world.seed = 1000 + (int)c;
		p.particles.deposit_on_death = cases[c].deposit;
		p.particles.symmetric_normal = cases[c].symmetric;
		p.particles.evap_rate = cases[c].evap;
		p.particles.max_steps = cases[c].max_steps;
		struct world *a = make_world(&p), *b = make_world(&p);
		struct droplet_params dp;
		droplet_params_from(&dp, &p);
		struct particles_pair *pp = particles_pair_create(a->width, a->height);
		assert_non_null(pp);
		uint64_t steps_a = 0;
		/* In two batches: the scheduler must also stop and restart cleanly. */
		uint64_t half = cases[c].droplets / 3, s1 = 0, s2 = 0;
		assert_int_equal(particles_pair_run(pp, a, &dp, half, &s1), 0);
		assert_int_equal(particles_pair_run(pp, a, &dp, cases[c].droplets - half, &s2), 0);
		steps_a = s1 + s2;
		uint64_t steps_b = run_sequential(b, &p, cases[c].droplets);
		assert_int_equal(steps_a, steps_b);
		assert_same_world(a, b);
		rollbacks += particles_pair_stats(pp)->rollbacks;
		followers += particles_pair_stats(pp)->followers;
		particles_pair_destroy(pp);
		world_destroy(a);
		world_destroy(b);
	}
	/* The undo path ran, or this test proved nothing about it. */
	assert_true(followers > 1000);
	assert_true(rollbacks > 10);
}

/* Droplets that live longer than the undo log's first size make it grow; the
 * result must still be the sequential one. */
static void test_paired_long_droplets(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 128);
	/* On flat ground droplets stay put and live out their volume: about
	 * 38,000 steps each at this evaporation rate. */
	p.terrain.generator = TERRAIN_FLAT;
	p.particles.evap_rate = 0.0001;
	p.particles.max_steps = 40000;
	struct world *a = make_world(&p), *b = make_world(&p);
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	struct particles_pair *pp = particles_pair_create(a->width, a->height);
	assert_non_null(pp);
	uint64_t steps_a = 0;
	assert_int_equal(particles_pair_run(pp, a, &dp, 16, &steps_a), 0);
	assert_int_equal(steps_a, run_sequential(b, &p, 16));
	assert_same_world(a, b);
	assert_true(particles_pair_stats(pp)->log_grows > 0);
	particles_pair_destroy(pp);
	world_destroy(a);
	world_destroy(b);
}

/* Every compiled copy of the scheduler (SSE2 and, where the CPU has it, AVX2)
 * gives the same bits: same operations in the same order, no FMA. */
static void test_isa_copies_agree(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48);
	p.world.seed = 4242;
	const enum pair_isa isas[] = {PAIR_ISA_BASE, PAIR_ISA_AVX2};
	struct world *ref = NULL;
	uint64_t ref_steps = 0;
	int ran = 0;
	for (size_t i = 0; i < sizeof isas / sizeof isas[0]; i++) {
		struct world *w = make_world(&p);
		struct droplet_params dp;
		droplet_params_from(&dp, &p);
		struct particles_pair *pp = particles_pair_create(w->width, w->height);
		assert_non_null(pp);
		if (!particles_pair_set_isa(pp, isas[i])) {
			print_message("isa %d not available here: skipped\n", (int)isas[i]);
			particles_pair_destroy(pp);
			world_destroy(w);
			continue;
		}
		uint64_t steps = 0;
		assert_int_equal(particles_pair_run(pp, w, &dp, 800, &steps), 0);
		print_message("isa %s: %llu steps\n", particles_pair_isa_name(pp),
			      (unsigned long long)steps);
		particles_pair_destroy(pp);
		ran++;
		if (!ref) {
			ref = w;
			ref_steps = steps;
			continue;
		}
		assert_int_equal(steps, ref_steps);
		assert_same_world(w, ref);
		world_destroy(w);
	}
	assert_true(ran >= 1);
	/* The baseline copy is always there and matches droplet_run too. */
	struct world *seq = make_world(&p);
	assert_int_equal(run_sequential(seq, &p, 800), ref_steps);
	assert_same_world(seq, ref);
	world_destroy(seq);
	world_destroy(ref);
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
		cmocka_unit_test(test_fast_normal_matches_reference),
		cmocka_unit_test(test_paired_equals_sequential),
		cmocka_unit_test(test_paired_long_droplets),
		cmocka_unit_test(test_isa_copies_agree),
		cmocka_unit_test(test_counters),
	};
	return cmocka_run_group_tests_name("particles", tests, NULL, NULL);
}
