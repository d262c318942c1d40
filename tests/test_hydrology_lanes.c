/* Hydrology's droplets in lanes (hydrology.lanes, core/hydrology/hlanes.h):
 * one lane is the order of droplets one after another, bit for bit; every
 * copy of the read phase gives the same bits; so does any split of a run into
 * calls, and a snapshot taken with droplets in flight; a damaged blob of
 * droplets in flight is refused; the books balance. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/params.h"
#include "core/hydrology/hlanes.h"
#include "core/hydrology/hydrology.h"
#include "core/terrain/terrain.h"
#include "worldutil.h"

/* Descent options worth a lane's arithmetic each: the defaults (the
 * 8-neighbour normal, pit stops, pits that dry), the seed's 2020 options
 * (its normal with the wrapped edge, concentration, halves, walls), trees,
 * pit pools, a sea with the seed-biased normal. */
static const char *const configs[][10] = {
	{NULL},
	{"hydrology.normal=2020wrap", "hydrology.concentrate=1", "hydrology.edge=wall",
	 "hydrology.settle=0", "hydrology.pit_stop=0", "hydrology.drain_loss=1",
	 "hydrology.pour_halves=1", "hydrology.halves_filled=1", "hydrology.capacity_volume=0",
	 NULL},
	{"hydrology.coupling=trees", NULL},
	{"hydrology.pit_dry=0", "hydrology.normal=2020", NULL},
	{"hydrology.sea_level=0.3", "hydrology.symmetric_normal=0", "hydrology.coupling=none", NULL},
};
#define NCONFIGS (sizeof configs / sizeof configs[0])

static struct params params_for(int config, int lanes)
{
	struct params p;
	params_defaults(&p);
	p.world.width = 97; /* not a multiple of the vector widths */
	p.world.height = 61;
	p.world.seed = 3;
	p.terrain.vertical_scale = 40;
	p.hydrology.batch = 20; /* batches end often, mid-tick */
	for (int i = 0; configs[config][i]; i++) {
		int bad = -1;
		assert_int_equal(params_assign(&p, configs[config][i], &bad), GULLY_OK);
	}
	p.hydrology.lanes = lanes;
	return p;
}

struct run {
	struct world *w;
	void *st;
	struct params p;
};

static struct run run_open(int config, int lanes)
{
	struct run r;
	r.p = params_for(config, lanes);
	assert_int_equal(world_from_params(&r.w, &r.p), GULLY_OK);
	r.st = test_process_open(&hydrology_process, r.w, &r.p);
	return r;
}

static void run_close(struct run *r)
{
	hydrology_process.destroy(r->st);
	world_destroy(r->w);
}

static void run_finish(struct run *r)
{
	struct process_report rep;
	assert_int_equal(hydrology_process.finish(r->st, r->w, &r->p, &rep), GULLY_OK);
	assert_true(r->w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
}

static void assert_same_run(const struct run *a, const struct run *b)
{
	assert_same_world(a->w, b->w);
	assert_memory_equal(&a->w->rng, &b->w->rng, sizeof a->w->rng);
	assert_same_process_state(&hydrology_process, a->st, b->st);
}

/* One slot through the lanes is the sequential order: the same bits as
 * hydrology.lanes = 1, for every descent option, and in every copy of the
 * read phase. */
static void test_one_lane_is_sequential(void **unused)
{
	(void)unused;
	const int isas[] = {HLANES_ISA_SCALAR, HLANES_ISA_SSE2, HLANES_ISA_AVX2};
	for (size_t c = 0; c < NCONFIGS; c++) {
		struct run a = run_open((int)c, 1);
		test_process_run(&hydrology_process, a.st, a.w, &a.p, 250);
		test_process_run(&hydrology_process, a.st, a.w, &a.p, 350);
		assert_true(a.w->steps > 1000);
		for (int k = 0; k < 3; k++) {
			struct run b = run_open((int)c, 1);
			if (!hydrology_set_lanes_isa(b.st, isas[k])) {
				run_close(&b);
				continue;
			}
			hydrology_set_lanes_always(b.st, true);
			test_process_run(&hydrology_process, b.st, b.w, &b.p, 250);
			/* The 250th droplet is still in flight. */
			assert_true(b.w->steps < a.w->steps);
			test_process_run(&hydrology_process, b.st, b.w, &b.p, 350);
			run_finish(&b);
			assert_same_run(&a, &b);
			run_close(&b);
		}
		run_close(&a);
	}
}

/* 64 lanes and 13 (a span that ends mid-vector): the scalar reference, SSE2
 * and AVX2 give the same bits; the droplets do see each other. */
static void test_copies_same_bits(void **unused)
{
	(void)unused;
	const int isas[] = {HLANES_ISA_SSE2, HLANES_ISA_AVX2};
	const int lanes[] = {64, 13};
	for (size_t c = 0; c < NCONFIGS; c++) {
		for (int n = 0; n < 2; n++) {
			struct run ref = run_open((int)c, lanes[n]);
			assert_true(hydrology_set_lanes_isa(ref.st, HLANES_ISA_SCALAR));
			test_process_run(&hydrology_process, ref.st, ref.w, &ref.p, 700);
			assert_true(ref.w->tally[TALLY_SEDIMENT_IN_FLIGHT] != 0);
			for (int k = 0; k < 2; k++) {
				struct run b = run_open((int)c, lanes[n]);
				if (!hydrology_set_lanes_isa(b.st, isas[k])) {
					run_close(&b);
					continue;
				}
				test_process_run(&hydrology_process, b.st, b.w, &b.p, 700);
				assert_same_run(&ref, &b);
				run_close(&b);
			}
			/* Lanes are not the sequential order. */
			struct run seq = run_open((int)c, 1);
			test_process_run(&hydrology_process, seq.st, seq.w, &seq.p, 700);
			run_finish(&ref);
			assert_true(memcmp(ref.w->layer[LAYER_HEIGHT], seq.w->layer[LAYER_HEIGHT],
					   world_cells(ref.w) * sizeof(float)) != 0);
			run_close(&seq);
			run_close(&ref);
		}
	}
}

/* The droplets in flight follow the state's own blob: find them. */
static size_t lanes_offset(const unsigned char *blob, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (get_u32le(blob + i) == HLANES_MAGIC && get_u32le(blob + i + 4) == 1)
			return i;
	fail_msg("no droplets in flight in the state");
	return 0;
}

/* Any split of a run into calls gives the bits of one call, and so does
 * a snapshot's state taken with droplets in flight, loaded into a new state
 * on a copy of the world. */
static void test_split_and_resume(void **unused)
{
	(void)unused;
	for (size_t c = 0; c < NCONFIGS; c++) {
		struct run one = run_open((int)c, 64);
		test_process_run(&hydrology_process, one.st, one.w, &one.p, 1500);
		struct run split = run_open((int)c, 64);
		const uint64_t parts[] = {400, 1, 0, 499};
		for (int k = 0; k < 4; k++)
			test_process_run(&hydrology_process, split.st, split.w, &split.p, parts[k]);
		unsigned char *blob;
		size_t len;
		assert_int_equal(hydrology_process.save_state(split.st, &blob, &len), GULLY_OK);
		/* The state to resume from holds droplets in flight. */
		assert_true(split.w->tally[TALLY_SEDIMENT_IN_FLIGHT] != 0);
		(void)lanes_offset(blob, len);
		struct run resumed;
		resumed.p = split.p;
		assert_int_equal(world_clone(&resumed.w, split.w), GULLY_OK);
		resumed.st = test_process_open(&hydrology_process, resumed.w, &resumed.p);
		assert_int_equal(hydrology_process.load_state(resumed.st, blob, len), GULLY_OK);
		free(blob);
		test_process_run(&hydrology_process, split.st, split.w, &split.p, 600);
		test_process_run(&hydrology_process, resumed.st, resumed.w, &resumed.p, 600);
		assert_same_run(&one, &split);
		assert_same_run(&one, &resumed);
		run_close(&one);
		run_close(&split);
		run_close(&resumed);
	}
}

/* A 64x64 run of 300 droplets with some still in flight, and its saved
 * state. */
static void saved_in_flight(struct run *r, unsigned char **blob, size_t *len)
{
	*r = run_open(0, 64);
	test_process_run(&hydrology_process, r->st, r->w, &r->p, 300);
	assert_int_equal(hydrology_process.save_state(r->st, blob, len), GULLY_OK);
}

/* A damaged blob of droplets in flight is refused, and the state it was
 * offered to is left as it was. */
static void test_damaged_lanes_refused(void **unused)
{
	(void)unused;
	struct run r;
	unsigned char *blob;
	size_t len;
	saved_in_flight(&r, &blob, &len);
	const size_t at = lanes_offset(blob, len), slot = at + 24;
	struct {
		size_t off;
		uint32_t value;
		const char *what;
	} damage[] = {
		{at, 0x58585858u, "magic"},
		{at + 4, 2, "version"},
		{at + 8, 96, "width"},
		{slot, 0x7fc00000u, "x NaN"},
		{slot, 0x42c20000u, "x 97, off the map"},
		{slot + 4, 0xbf800000u, "y -1"},
		{slot + 12, 0x7f800000u, "vy infinite"},
		{slot + 8, 0x7149f2cau, "vx 1e30, finite past any speed a step reaches"},
		{slot + 16, 0x7149f2cau, "sediment 1e30"},
		{slot + 24, 0x47efffffu, "volume 3e38 (its high word)"},
		{slot + 24, 0xbff00000u, "volume -1 (its high word)"},
		{slot + 44, 0x80000000u, "age past 2^31"},
	};
	for (size_t k = 0; k < sizeof damage / sizeof damage[0]; k++) {
		unsigned char *bad = malloc(len);
		memcpy(bad, blob, len);
		put_u32le(bad + damage[k].off, damage[k].value);
		if (hydrology_process.load_state(r.st, bad, len) != GULLY_EFORMAT)
			fail_msg("damage not refused: %s", damage[k].what);
		free(bad);
	}
	/* Cut short, or one byte too long. */
	assert_int_equal(hydrology_process.load_state(r.st, blob, len - 1), GULLY_EFORMAT);
	unsigned char *longer = malloc(len + 1);
	memcpy(longer, blob, len);
	longer[len] = 0;
	assert_int_equal(hydrology_process.load_state(r.st, longer, len + 1), GULLY_EFORMAT);
	free(longer);
	unsigned char *again;
	size_t len2;
	assert_int_equal(hydrology_process.save_state(r.st, &again, &len2), GULLY_OK);
	assert_int_equal(len, len2);
	assert_memory_equal(blob, again, len);
	free(again);
	free(blob);
	run_close(&r);
}

/* A droplet's books go into the world's tallies when it ends. A book no
 * run makes (1e308 eroded), over a tally a snapshot may hold (1e308 too),
 * made the tally infinite, and a snapshot saved after it one that no gully
 * loads: such a book is refused. */
static void test_absurd_books_refused(void **unused)
{
	(void)unused;
	struct run r;
	unsigned char *blob;
	size_t len;
	saved_in_flight(&r, &blob, &len);
	/* The first slot's books follow its five floats, three doubles and two
	 * words: evaporated, off the map, eroded (slot + 68), deposited. */
	const size_t eroded = lanes_offset(blob, len) + 24 + 68;
	const double huge = 1e308;
	uint64_t bits;
	memcpy(&bits, &huge, sizeof bits);
	put_u64le(blob + eroded, bits);
	r.w->tally[TALLY_ERODED] = huge;
	int rc = hydrology_process.load_state(r.st, blob, len);
	if (rc == GULLY_OK) {
		run_finish(&r);
		if (!isfinite(r.w->tally[TALLY_ERODED]))
			fail_msg("a book of 1e308 loaded and made the eroded tally %g",
				 r.w->tally[TALLY_ERODED]);
	}
	assert_int_equal(rc, GULLY_EFORMAT);
	free(blob);
	run_close(&r);
}

static double sum_layer(const struct world *w, int layer)
{
	double s = 0;
	for (size_t i = 0; i < world_cells(w); i++)
		s += w->layer[layer][i];
	return s;
}

/* The books with droplets in flight: the ground has moved by what the
 * tallies say less what the droplets in flight took; once they end, soil
 * and water balance as without lanes. */
static void test_books_balance(void **unused)
{
	(void)unused;
	for (size_t c = 0; c < NCONFIGS; c++) {
		struct run r = run_open((int)c, 64);
		const double h0 = sum_layer(r.w, LAYER_HEIGHT);
		test_process_run(&hydrology_process, r.st, r.w, &r.p, 900);
		const double *t = r.w->tally;
		const double moved = sum_layer(r.w, LAYER_HEIGHT) - h0;
		const double books = t[TALLY_DEPOSITED] - t[TALLY_ERODED] - t[TALLY_SEDIMENT_IN_FLIGHT];
		assert_true(fabs(moved - books) <= 1e-3 * t[TALLY_ERODED] + 1e-6);
		run_finish(&r);
		const double soil = t[TALLY_ERODED] - t[TALLY_DEPOSITED] - t[TALLY_SEDIMENT_OFF_MAP];
		assert_true(fabs(soil) <= 1e-6 * t[TALLY_ERODED]);
		const double water = sum_layer(r.w, LAYER_POOL) + t[TALLY_WATER_EVAPORATED] +
				     t[TALLY_WATER_OFF_MAP] - t[TALLY_WATER_IN];
		assert_true(fabs(water) <= 1e-6 * t[TALLY_WATER_IN]);
		assert_double_equal(t[TALLY_WATER_IN], 900 / r.p.hydrology.volume_factor, 1e-9);
		run_close(&r);
	}
}

/* Fewer lanes than droplets in flight: the slots above go on unrefilled;
 * one lane (the sequential process) ends them all first. The lazy stream
 * map changes no bit. */
static void test_lanes_change_mid_run(void **unused)
{
	(void)unused;
	struct run a = run_open(0, 64), b = run_open(0, 64);
	hydrology_set_stream_lazy(b.st, true);
	struct run *both[] = {&a, &b};
	for (int k = 0; k < 2; k++) {
		struct run *r = both[k];
		test_process_run(&hydrology_process, r->st, r->w, &r->p, 400);
		r->p.hydrology.lanes = 8;
		test_process_run(&hydrology_process, r->st, r->w, &r->p, 300);
		r->p.hydrology.lanes = 1;
		test_process_run(&hydrology_process, r->st, r->w, &r->p, 50);
		assert_true(r->w->tally[TALLY_SEDIMENT_IN_FLIGHT] == 0);
		assert_int_equal(r->w->particles, 750);
	}
	hydrology_set_stream_lazy(b.st, false);
	assert_same_run(&a, &b);
	run_close(&a);
	run_close(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_one_lane_is_sequential),
		cmocka_unit_test(test_copies_same_bits),
		cmocka_unit_test(test_split_and_resume),
		cmocka_unit_test(test_damaged_lanes_refused),
		cmocka_unit_test(test_absurd_books_refused),
		cmocka_unit_test(test_books_balance),
		cmocka_unit_test(test_lanes_change_mid_run),
	};
	return cmocka_run_group_tests_name("hydrology_lanes", tests, NULL, NULL);
}
