/* Droplets in lockstep (particles.lanes > 1): determinism, budgets split any
 * way, the state blob and its rejection of damage, mass balance with soil in
 * flight, the lane count changed between calls, and the droplets in flight
 * landed at the end. Exact results are test_lanes_exact's. */
#include "lanes_fixture.h"

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
		cmocka_unit_test(test_split_budget_equals_one_budget),
		cmocka_unit_test(test_blob_resume_equals_straight_run),
		cmocka_unit_test(test_corrupt_blob_rejected),
		cmocka_unit_test(test_mass_balance_with_soil_in_flight),
		cmocka_unit_test(test_changing_lanes_between_calls),
		cmocka_unit_test(test_finish_lands_what_is_in_flight),
	};
	return cmocka_run_group_tests_name("lanes", tests, NULL, NULL);
}
