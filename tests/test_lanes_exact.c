/* Droplets in lockstep, exactly: every compiled copy of the read phase and
 * every split of it over threads against the scalar reference, one droplet
 * against droplet_run, two droplets on one cell, and one lane as the seed's
 * order (lanes_fixture.h). */
#include "lanes_fixture.h"

static struct world *run_isa(const struct params *p, enum lockstep_isa isa, uint64_t n,
			     unsigned char **blob, size_t *blob_len)
{
	return lanes_run_pool(p, isa, NULL, n, blob, blob_len);
}

/* The read phase split over 2 and 3 threads (contiguous runs of whole
 * vectors, uneven when the vectors do not divide) gives the bits of one
 * thread, in every copy, lanes that fill whole vectors or not. */
static void test_threads_agree(void **state)
{
	(void)state;
	const struct {
		int size, lanes;
	} cases[] = {{48, 64}, {24, 13}, {32, 40}};
	const enum lockstep_isa isas[] = {LOCKSTEP_ISA_SCALAR, LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2};
	int compared = 0;
	for (int threads = 2; threads <= 3; threads++) {
		struct workers *pool = NULL;
		assert_int_equal(workers_create(&pool, threads), GULLY_OK);
		for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
			struct params p;
			small_params(&p, cases[c].size, cases[c].lanes);
			p.world.seed = 300 + (int)c;
			for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
				unsigned char *rb, *b;
				size_t rl, l;
				struct world *ref = lanes_run_pool(&p, isas[k], NULL, 300, &rb, &rl);
				if (!ref)
					continue;
				struct world *w = lanes_run_pool(&p, isas[k], pool, 300, &b, &l);
				assert_non_null(w);
				assert_same_world(ref, w);
				assert_int_equal(l, rl);
				assert_memory_equal(b, rb, l);
				compared++;
				free(rb);
				free(b);
				world_destroy(ref);
				world_destroy(w);
			}
		}
		workers_destroy(pool);
	}
	assert_true(compared >= 12);
	/* The process: world.threads 2 against 1. */
	struct params p;
	small_params(&p, 40, 64);
	struct world *a = make_world(&p), *b = make_world(&p);
	struct proc pa, pb;
	proc_open(&pa, a, &p);
	p.world.threads = 2;
	proc_open(&pb, b, &p);
	proc_step(&pb, b, &p, 700);
	p.world.threads = 1;
	proc_step(&pa, a, &p, 700);
	assert_same_world(a, b);
	proc_close(&pa);
	proc_close(&pb);
	world_destroy(a);
	world_destroy(b);
}

/* Every compiled copy (the scalar reference, droplet_advance slot by slot;
 * lockstep_simd.h at 4 lanes, SSE2, and at 8, AVX2) gives the same bits, at lane counts that do and do
 * not fill whole vectors, on maps small enough that lanes meet often and
 * edges are near, with the options flipped. */
static void test_isa_copies_agree(void **state)
{
	(void)state;
	struct {
		int size, lanes;
		bool deposit, symmetric;
		int max_steps;
	} cases[] = {
		{48, 16, true, true, 20000}, {16, 13, true, true, 20000}, {24, 5, false, true, 20000},
		{32, 64, true, false, 20000}, {40, 9, true, true, 100},   {20, 2, true, true, 20000},
	};
	const enum lockstep_isa copies[] = {LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2};
	int compared = 0;
	for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
		struct params p;
		small_params(&p, cases[c].size, cases[c].lanes);
		p.world.seed = 77 + (int)c;
		p.particles.deposit_on_death = cases[c].deposit;
		p.particles.symmetric_normal = cases[c].symmetric;
		p.particles.max_steps = cases[c].max_steps;
		unsigned char *rb;
		size_t rl;
		struct world *ref = run_isa(&p, LOCKSTEP_ISA_SCALAR, 700, &rb, &rl);
		assert_non_null(ref);
		assert_memory_not_equal(ref->layer[LAYER_HEIGHT], ref->layer[LAYER_BASE],
					world_cells(ref) * sizeof(float));
		for (size_t k = 0; k < sizeof copies / sizeof copies[0]; k++) {
			unsigned char *b;
			size_t l;
			struct world *w = run_isa(&p, copies[k], 700, &b, &l);
			if (!w)
				continue;
			assert_same_world(ref, w);
			assert_int_equal(l, rl);
			assert_memory_equal(b, rb, l);
			compared++;
			free(b);
			world_destroy(w);
		}
		free(rb);
		world_destroy(ref);
	}
#if defined(__x86_64__) && !defined(GULLY_NO_SIMD)
	/* At least the SSE2 copy is there on every x86_64. */
	assert_true(compared >= 6);
#endif
	print_message("%d copies compared with the scalar reference\n", compared);
}

/* On a map bigger than the cache the vector copies work out where each step
 * lands in pass one too, to fetch the rows there early (lockstep_simd.h,
 * lockstep_prefetch): the same bits as the scalar reference, which never
 * prefetches. The terrain is ripples a few cells wide, so droplets change
 * rows all the time, and is made by formula: a generated 1.1 M-cell terrain
 * would cost the sanitizer build seconds per copy. */
static void test_big_map_copies_agree(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 0, 64);
	p.world.width = 1100;
	p.world.height = 1000;
	const size_t cells = (size_t)p.world.width * (size_t)p.world.height;
	float *heights = malloc(cells * sizeof *heights);
	assert_non_null(heights);
	for (int y = 0; y < p.world.height; y++)
		for (int x = 0; x < p.world.width; x++)
			heights[(size_t)y * (size_t)p.world.width + (size_t)x] =
				0.5f + 0.1f * sinf(0.37f * (float)x) * cosf(0.29f * (float)y) +
				0.3f * (float)(x + y) / 2100.0f;
	unsigned char *rb;
	size_t rl;
	struct world *ref = lanes_run_on(&p, heights, LOCKSTEP_ISA_SCALAR, NULL, 600, &rb, &rl);
	assert_non_null(ref);
	assert_memory_not_equal(ref->layer[LAYER_HEIGHT], ref->layer[LAYER_BASE],
				cells * sizeof(float));
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	struct droplet_env e;
	droplet_env_init(&e, ref, &dp);
	assert_true(e.prefetch);
	const enum lockstep_isa copies[] = {LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2};
	for (size_t k = 0; k < sizeof copies / sizeof copies[0]; k++) {
		unsigned char *b;
		size_t l;
		struct world *w = lanes_run_on(&p, heights, copies[k], NULL, 600, &b, &l);
		if (!w)
			continue;
		assert_same_world(ref, w);
		assert_int_equal(l, rl);
		assert_memory_equal(b, rb, l);
		free(b);
		world_destroy(w);
	}
	free(rb);
	free(heights);
	world_destroy(ref);
}

/* A droplet alone in the engine (loaded from a blob, run out with drain)
 * takes exactly droplet_run's steps and leaves exactly its heights. Without
 * deposit on death, so the books of what it carries (kept as one net sum
 * here, as two there) cannot round differently. */
static void test_one_droplet_equals_droplet_run(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64, 4);
	p.particles.deposit_on_death = false;
	struct world *a = make_world(&p), *b = make_world(&p);
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	for (int k = 0; k < 20; k++) {
		struct droplet d;
		droplet_spawn(a, &d);
		droplet_spawn(b, &d);
		/* The blob of one droplet in slot k % 4. */
		unsigned char blob[24 + 36] = {0};
		const uint32_t magic = 0x4e4c5047u, one = 1, wh = 64;
		const uint64_t mask = (uint64_t)1 << (k % 4);
		for (int i = 0; i < 4; i++) {
			blob[i] = (unsigned char)(magic >> (8 * i));
			blob[4 + i] = (unsigned char)(one >> (8 * i));
			blob[8 + i] = blob[12 + i] = (unsigned char)(wh >> (8 * i));
		}
		for (int i = 0; i < 8; i++)
			blob[16 + i] = (unsigned char)(mask >> (8 * i));
		const float f[6] = {d.x, d.y, 0, 0, 1, 0};
		for (int j = 0; j < 6; j++) {
			uint32_t u;
			memcpy(&u, &f[j], 4);
			for (int i = 0; i < 4; i++)
				blob[24 + 4 * j + i] = (unsigned char)(u >> (8 * i));
		}
		struct lockstep *pl = lockstep_create(64, 64);
		assert_non_null(pl);
		assert_int_equal(lockstep_load(pl, blob, sizeof blob), GULLY_OK);
		uint64_t steps = 0;
		assert_int_equal(lockstep_drain(pl, a, &dp, &steps), GULLY_OK);
		assert_int_equal(lockstep_in_flight(pl), 0);
		lockstep_destroy(pl);
		assert_int_equal(steps, droplet_run(&d, b, &dp));
		assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
				    world_cells(a) * sizeof(float));
	}
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], a->layer[LAYER_BASE],
				world_cells(a) * sizeof(float));
	world_destroy(a);
	world_destroy(b);
}

/* Two identical droplets in slots 0 and 1, one step each (age 99 of
 * max_steps 100): both read the same map, so both change the same cell by
 * the same delta, and both changes land (h - d - d), where one droplet alone
 * leaves h - d. */
static void test_two_droplets_on_one_cell_both_count(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64, 2);
	p.particles.deposit_on_death = false;
	p.particles.max_steps = 100;
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	struct world *one = make_world(&p), *two = make_world(&p);
	unsigned char blob[24 + 2 * 36] = {0};
	const uint32_t head[4] = {0x4e4c5047u, 1, 64, 64};
	for (int j = 0; j < 4; j++)
		for (int i = 0; i < 4; i++)
			blob[4 * j + i] = (unsigned char)(head[j] >> (8 * i));
	/* Fast enough to leave its cell, with sediment: it erodes or deposits. */
	const float f[6] = {20.25f, 30.5f, 2.0f, 0.0f, 1.0f, 0.1f};
	for (int s = 0; s < 2; s++) {
		unsigned char *q = blob + 24 + 36 * s;
		for (int j = 0; j < 6; j++) {
			uint32_t u;
			memcpy(&u, &f[j], 4);
			for (int i = 0; i < 4; i++)
				q[4 * j + i] = (unsigned char)(u >> (8 * i));
		}
		q[32] = 99; /* age */
	}
	uint64_t steps1 = 0, steps2 = 0;
	struct lockstep *pl = lockstep_create(64, 64);
	assert_non_null(pl);
	blob[16] = 1; /* slot 0 alone */
	assert_int_equal(lockstep_load(pl, blob, 24 + 36), GULLY_OK);
	assert_int_equal(lockstep_drain(pl, one, &dp, &steps1), GULLY_OK);
	blob[16] = 3; /* slots 0 and 1 */
	assert_int_equal(lockstep_load(pl, blob, sizeof blob), GULLY_OK);
	assert_int_equal(lockstep_drain(pl, two, &dp, &steps2), GULLY_OK);
	lockstep_destroy(pl);
	assert_int_equal(steps1, 1);
	assert_int_equal(steps2, 2);
	const size_t cell = 30 * 64 + 20;
	for (size_t i = 0; i < world_cells(one); i++) {
		if (i == cell)
			continue;
		assert_true(one->layer[LAYER_HEIGHT][i] == one->layer[LAYER_BASE][i]);
		assert_true(two->layer[LAYER_HEIGHT][i] == two->layer[LAYER_BASE][i]);
	}
	const double h0 = one->layer[LAYER_BASE][cell];
	const double d1 = h0 - one->layer[LAYER_HEIGHT][cell];
	const double d2 = h0 - two->layer[LAYER_HEIGHT][cell];
	assert_true(d1 != 0);
	/* Each float subtraction rounds by at most half an ulp of h. */
	const double ulp = nextafterf((float)h0, INFINITY) - (float)h0;
	assert_true(fabs(d2 - 2 * d1) <= 2 * ulp);
	/* The books: twice the change, and each droplet carries its share. */
	assert_double_equal(two->tally[TALLY_ERODED] + two->tally[TALLY_DEPOSITED], fabs(d2), 0);
	assert_double_equal(two->tally[TALLY_SEDIMENT_OFF_MAP], d2, 0);
	world_destroy(one);
	world_destroy(two);
}

/* particles.lanes = 1 is the seed's order: the process gives what
 * droplet_run one droplet after another gives, bit for bit; and the lockstep
 * engine run with one lane (each tick a read half, then a write half) leaves
 * the same heights and takes the same steps: droplet.h's step is the
 * reference the engine is held to. */
static void test_one_lane_is_the_seed_order(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48, 1);
	struct world *a = make_world(&p), *b = make_world(&p);
	struct proc pa;
	proc_open(&pa, a, &p);
	proc_step(&pa, a, &p, 600);
	proc_step(&pa, a, &p, 400);
	proc_close(&pa);
	struct droplet_params dp;
	droplet_params_from(&dp, &p);
	uint64_t steps = 0;
	for (int i = 0; i < 1000; i++) {
		struct droplet d;
		droplet_spawn(b, &d);
		steps += droplet_run(&d, b, &dp);
	}
	assert_int_equal(a->steps, steps);
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
	const enum lockstep_isa isas[] = {LOCKSTEP_ISA_SCALAR, LOCKSTEP_ISA_SSE2, LOCKSTEP_ISA_AVX2};
	for (size_t k = 0; k < sizeof isas / sizeof isas[0]; k++) {
		struct world *c = make_world(&p);
		struct lockstep *pl = lockstep_create(c->width, c->height);
		assert_non_null(pl);
		if (lockstep_set_isa(pl, isas[k])) {
			uint64_t lsteps = 0;
			assert_int_equal(lockstep_run(pl, c, &dp, 1, 1000, &lsteps), GULLY_OK);
			assert_int_equal(lockstep_drain(pl, c, &dp, &lsteps), GULLY_OK);
			assert_int_equal(lsteps, steps);
			assert_memory_equal(c->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
					    world_cells(c) * sizeof(float));
			assert_memory_equal(&c->rng, &b->rng, sizeof c->rng);
		}
		lockstep_destroy(pl);
		world_destroy(c);
	}
	world_destroy(a);
	world_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_isa_copies_agree),
		cmocka_unit_test(test_big_map_copies_agree),
		cmocka_unit_test(test_one_droplet_equals_droplet_run),
		cmocka_unit_test(test_two_droplets_on_one_cell_both_count),
		cmocka_unit_test(test_one_lane_is_the_seed_order),
		cmocka_unit_test(test_threads_agree),
	};
	return cmocka_run_group_tests_name("lanes_exact", tests, NULL, NULL);
}
