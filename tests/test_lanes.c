/* Droplets in lockstep (particles.lanes > 1): determinism, every compiled copy
 * against the scalar reference, budgets split any way, the state blob and
 * its rejection of damage, mass balance with soil in flight, and exact
 * hand-built cases. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/workers.h"
#include "core/particles/particles.h"
#include "core/particles/droplet.h"
#include "core/particles/lockstep.h"
#include "core/terrain/terrain.h"
#include "lanesutil.h"

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void small_params(struct params *p, int size, int lanes)
{
	params_defaults(p);
	p->world.width = size;
	p->world.height = size;
	p->particles.lanes = lanes;
	p->particles.epoch = 0; /* one engine: the halves have test_particles_halves */
}

static void assert_same_world(const struct world *a, const struct world *b)
{
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
	assert_memory_equal(&a->rng, &b->rng, sizeof a->rng);
	assert_int_equal(a->particles, b->particles);
	assert_int_equal(a->steps, b->steps);
}

/* The soil books: eroded - deposited = off the map + still in flight
 * (with deposit on death; without it, dying droplets' loads leave too). */
static void assert_soil_balances(const struct world *w)
{
	double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
	double gone = w->tally[TALLY_SEDIMENT_OFF_MAP] + w->tally[TALLY_SEDIMENT_IN_FLIGHT];
	assert_true(er > 0);
	assert_true(fabs((er - de) - gone) <= 1e-6 * er);
}

/* The process, kept alive across calls (droplets in flight live in it). */
struct proc {
	void *st;
};

static void proc_open(struct proc *pr, struct world *w, const struct params *p)
{
	assert_int_equal(particles_process.create(&pr->st, w, p), 0);
}

static void proc_step(struct proc *pr, struct world *w, const struct params *p, uint64_t n)
{
	struct process_report rep;
	assert_int_equal(particles_process.step(pr->st, w, p, n, &rep), 0);
	assert_int_equal(rep.particles, n);
}

static void proc_close(struct proc *pr)
{
	particles_process.destroy(pr->st);
}

static void blob_of(struct proc *pr, unsigned char **b, size_t *len)
{
	assert_int_equal(particles_process.save_state(pr->st, b, len), 0);
}

static void test_deterministic(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64, 16);
	struct world *a = make_world(&p), *b = make_world(&p);
	struct proc pa, pb;
	proc_open(&pa, a, &p);
	proc_open(&pb, b, &p);
	proc_step(&pa, a, &p, 3000);
	proc_step(&pb, b, &p, 3000);
	assert_same_world(a, b);
	assert_memory_not_equal(a->layer[LAYER_HEIGHT], a->layer[LAYER_BASE],
				world_cells(a) * sizeof(float));
	/* Sixteen droplets in flight, soil in them on the books. */
	assert_true(a->tally[TALLY_SEDIMENT_IN_FLIGHT] != 0);
	unsigned char *ba, *bb;
	size_t la, lb;
	blob_of(&pa, &ba, &la);
	blob_of(&pb, &bb, &lb);
	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	free(ba);
	free(bb);
	proc_close(&pa);
	proc_close(&pb);
	world_destroy(a);
	world_destroy(b);
}

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

/* Any split of a budget into calls gives the bits of one call. */
static void test_split_budget_equals_one_budget(void **state)
{
	(void)state;
	static const uint64_t chunks[] = {1, 7, 13, 979, 1, 1, 2, 500, 3, 493};
	uint64_t total = 0;
	for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++)
		total += chunks[i];
	const int lanes[] = {16, 3, 8, 64};
	for (size_t k = 0; k < sizeof lanes / sizeof lanes[0]; k++) {
		struct params p;
		small_params(&p, 48, lanes[k]);
		struct world *a = make_world(&p), *b = make_world(&p);
		struct proc pa, pb;
		proc_open(&pa, a, &p);
		proc_open(&pb, b, &p);
		proc_step(&pa, a, &p, total);
		for (size_t i = 0; i < sizeof chunks / sizeof chunks[0]; i++)
			proc_step(&pb, b, &p, chunks[i]);
		assert_same_world(a, b);
		unsigned char *ba, *bb;
		size_t la, lb;
		blob_of(&pa, &ba, &la);
		blob_of(&pb, &bb, &lb);
		assert_int_equal(la, lb);
		assert_memory_equal(ba, bb, la);
		free(ba);
		free(bb);
		proc_close(&pa);
		proc_close(&pb);
		world_destroy(a);
		world_destroy(b);
	}
}

/* The blob carries the droplets in flight exactly: save after part of a run,
 * load into a fresh process on a copy of the world, and the rest of the run
 * gives what running on gives. (tests/test_snapshot.c does the same through
 * a real snapshot file.) */
static void test_blob_resume_equals_straight_run(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 40, 11);
	struct world *a = make_world(&p), *b = make_world(&p);
	struct proc pa, pb;
	proc_open(&pa, a, &p);
	proc_open(&pb, b, &p);
	proc_step(&pa, a, &p, 1700);
	proc_step(&pb, b, &p, 1001);
	unsigned char *blob;
	size_t len;
	blob_of(&pb, &blob, &len);
	assert_true(len > 24);
	struct world *c = NULL;
	assert_int_equal(world_clone(&c, b), 0);
	proc_close(&pb);
	world_destroy(b);
	struct proc pc;
	proc_open(&pc, c, &p);
	assert_int_equal(particles_process.load_state(pc.st, blob, len), 0);
	proc_step(&pc, c, &p, 699);
	assert_same_world(a, c);
	free(blob);
	proc_close(&pa);
	proc_close(&pc);
	world_destroy(a);
	world_destroy(c);
}

/* Damage of every kind is refused, and a refused blob changes nothing. */
static void test_corrupt_blob_rejected(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 32, 8);
	struct world *w = make_world(&p);
	struct proc pr;
	proc_open(&pr, w, &p);
	proc_step(&pr, w, &p, 300);
	unsigned char *good;
	size_t len;
	blob_of(&pr, &good, &len);
	assert_int_equal(len, 24 + 8 * 36);
	struct proc fresh;
	proc_open(&fresh, w, &p);
	/* Every truncation, and one byte too many. */
	for (size_t n = 0; n < len; n++)
		assert_int_not_equal(particles_process.load_state(fresh.st, good, n), GULLY_OK);
	unsigned char *bad = malloc(len + 1);
	assert_non_null(bad);
	memcpy(bad, good, len);
	bad[len] = 0;
	assert_int_equal(particles_process.load_state(fresh.st, bad, len + 1), GULLY_EFORMAT);
	struct {
		size_t at;
		uint32_t value;
		int err;
	} patches[] = {
		{0, 0x4e4c5048u, GULLY_EFORMAT},  /* magic */
		{4, 2, GULLY_EVERSION},           /* version */
		{8, 33, GULLY_EFORMAT},           /* width */
		{12, 31, GULLY_EFORMAT},          /* height */
		{16, 0x1ff, GULLY_EFORMAT},       /* one more slot than the bytes hold */
		{20, 1, GULLY_EFORMAT},           /* slot 32: a mask the length does not match */
		{24, 0x7fc00000u, GULLY_EFORMAT}, /* x NaN */
		{24, 0x42000000u, GULLY_EFORMAT}, /* x = 32: off the map */
		{28, 0xbf800000u, GULLY_EFORMAT}, /* y = -1 */
		{32, 0x7f800000u, GULLY_EFORMAT}, /* vx inf */
		{40, 0, GULLY_EFORMAT},           /* volume 0 */
		{40, 0x3f800001u, GULLY_EFORMAT}, /* volume above 1 */
		{52, 0x7ff00000u, GULLY_EFORMAT}, /* carried inf (high word) */
	};
	for (size_t i = 0; i < sizeof patches / sizeof patches[0]; i++) {
		memcpy(bad, good, len);
		for (int k = 0; k < 4; k++)
			bad[patches[i].at + (size_t)k] = (unsigned char)(patches[i].value >> (8 * k));
		if (particles_process.load_state(fresh.st, bad, len) != patches[i].err)
			fail_msg("patch %zu at byte %zu was not refused as expected", i, patches[i].at);
	}
	assert_int_equal(particles_process.load_state(fresh.st, NULL, 0), GULLY_EFORMAT);
	/* Nothing was taken: the fresh process still has nothing in flight. */
	unsigned char *empty;
	size_t elen;
	blob_of(&fresh, &empty, &elen);
	assert_int_equal(elen, 24);
	/* And the good blob loads. */
	assert_int_equal(particles_process.load_state(fresh.st, good, len), GULLY_OK);
	free(empty);
	free(bad);
	free(good);
	proc_close(&fresh);
	proc_close(&pr);
	world_destroy(w);
}

static double height_change(const struct world *w)
{
	double sum = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		sum += (double)w->layer[LAYER_HEIGHT][i] - (double)w->layer[LAYER_BASE][i];
	return sum;
}

/* eroded - deposited = off the map + in flight, at every call's end, and the
 * books match the terrain; with deposit on death and without. */
static void test_mass_balance_with_soil_in_flight(void **state)
{
	(void)state;
	for (int dod = 0; dod < 2; dod++) {
		struct params p;
		small_params(&p, 96, 16);
		p.particles.deposit_on_death = dod;
		struct world *w = make_world(&p);
		struct proc pr;
		proc_open(&pr, w, &p);
		for (int call = 0; call < 4; call++) {
			proc_step(&pr, w, &p, 2500 + (uint64_t)call);
			double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
			assert_true(er > 1.0);
			assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] != 0);
			if (dod)
				assert_soil_balances(w);
			assert_true(fabs(height_change(w) - (de - er)) <= 1e-6 * er);
		}
		/* Dropping to one lane runs the droplets in flight to their end. */
		p.particles.lanes = 1;
		proc_step(&pr, w, &p, 10);
		assert_true(w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
		double er = w->tally[TALLY_ERODED], de = w->tally[TALLY_DEPOSITED];
		if (dod)
			assert_soil_balances(w);
		assert_true(fabs(height_change(w) - (de - er)) <= 1e-6 * er);
		proc_close(&pr);
		world_destroy(w);
	}
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

/* Lanes changed between calls: lowered, raised, and back to 1; each call
 * still releases exactly its budget and the books stay balanced. */
static void test_changing_lanes_between_calls(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48, 16);
	struct world *w = make_world(&p);
	struct proc pr;
	proc_open(&pr, w, &p);
	const int seq[] = {16, 4, 64, 2, 1, 7};
	uint64_t released = 0;
	for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++) {
		p.particles.lanes = seq[i];
		proc_step(&pr, w, &p, 300);
		released += 300;
		assert_int_equal(w->particles, released);
		assert_soil_balances(w);
	}
	proc_close(&pr);
	world_destroy(w);
}

/* finish lands the droplets in flight exactly as a one-lane call with no
 * budget does (the drain), leaves no soil in flight, releases nothing, and
 * a second finish changes nothing. */
static void test_finish_lands_what_is_in_flight(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 64, 32);
	struct world *a = make_world(&p), *b = make_world(&p);
	struct proc pa, pb;
	proc_open(&pa, a, &p);
	proc_open(&pb, b, &p);
	proc_step(&pa, a, &p, 1500);
	proc_step(&pb, b, &p, 1500);
	assert_true(a->tally[TALLY_SEDIMENT_IN_FLIGHT] != 0);
	struct process_report rep;
	assert_int_equal(particles_process.finish(pa.st, a, &p, &rep), 0);
	assert_int_equal(rep.particles, 0);
	assert_true(rep.steps > 0);
	assert_int_equal(a->particles, 1500);
	assert_true(a->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
	assert_soil_balances(a);
	struct params one = p;
	one.particles.lanes = 1;
	proc_step(&pb, b, &one, 0);
	assert_same_world(a, b);
	/* Nothing left to land. */
	assert_int_equal(particles_process.finish(pa.st, a, &p, &rep), 0);
	assert_int_equal(rep.steps, 0);
	assert_same_world(a, b);
	proc_close(&pa);
	proc_close(&pb);
	world_destroy(a);
	world_destroy(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_deterministic),
		cmocka_unit_test(test_isa_copies_agree),
		cmocka_unit_test(test_big_map_copies_agree),
		cmocka_unit_test(test_split_budget_equals_one_budget),
		cmocka_unit_test(test_blob_resume_equals_straight_run),
		cmocka_unit_test(test_corrupt_blob_rejected),
		cmocka_unit_test(test_mass_balance_with_soil_in_flight),
		cmocka_unit_test(test_one_droplet_equals_droplet_run),
		cmocka_unit_test(test_two_droplets_on_one_cell_both_count),
		cmocka_unit_test(test_one_lane_is_the_seed_order),
		cmocka_unit_test(test_threads_agree),
		cmocka_unit_test(test_changing_lanes_between_calls),
		cmocka_unit_test(test_finish_lands_what_is_in_flight),
	};
	return cmocka_run_group_tests_name("lanes", tests, NULL, NULL);
}
