/* Golden results: every process, in each of its modes, runs a fixed count on a
 * small map and the bits it leaves are compared with pinned hashes.
 *
 * The hash covers every layer, the tallies, the counters, the simulation RNG
 * and the process's saved state (droplets in flight included), so nothing a
 * process computes can change unseen. A change that moves a hash must say why
 * in its own commit and re-pin here: run with GOLDEN_PRINT=1 to print the
 * table as it now is. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/params.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "core/base/world.h"

struct golden_case {
	const char *name;
	const char *process;
	const char *settings[17]; /* "key=value", NULL-terminated */
	uint64_t budget;         /* split over two step() calls */
	uint64_t pinned;
};

static const struct golden_case golden_cases[] = {
	{"particles lanes 64, one engine", "particles", {"particles.epoch=0", NULL}, 3000,
	 0xa1054bc8cb48ce3cull},
	{"particles lanes 64, one engine, two threads", "particles",
	 {"particles.epoch=0", "world.threads=2", NULL}, 3000, 0xa1054bc8cb48ce3cull},
	{"particles defaults: halves, epoch 512", "particles", {"world.threads=1", NULL}, 3000,
	 0x6dc565d68868c1e3ull},
	{"particles defaults: halves, two threads", "particles", {"world.threads=2", NULL}, 3000,
	 0x6dc565d68868c1e3ull},
	{"particles halves epoch 8192, lanes 7, strata", "particles",
	 {"particles.epoch=8192", "particles.lanes=7", "hardness.generator=strata",
	  "particles.hardness=0.8", "world.threads=2", NULL},
	 2000, 0x5d0095a2f915511full},
	{"particles lanes 1", "particles", {"particles.lanes=1", NULL}, 3000,
	 0x1667d07ebcd299c0ull},
	{"particles lanes 7, seed-biased normal", "particles",
	 {"particles.lanes=7", "particles.symmetric_normal=0", "particles.deposit_on_death=0",
	  "particles.epoch=0", NULL},
	 2000, 0x653d00008e0564ffull},
	{"particles lanes 7, seed-biased normal, two threads", "particles",
	 {"particles.lanes=7", "particles.symmetric_normal=0", "particles.deposit_on_death=0",
	  "particles.epoch=0", "world.threads=2", NULL},
	 2000, 0x653d00008e0564ffull},
	{"particles lanes 64, strata hardness 0.8", "particles",
	 {"hardness.generator=strata", "particles.hardness=0.8", "particles.epoch=0", NULL}, 3000,
	 0x2ba61974f123e272ull},
	{"particles lanes 1, strata hardness 0.8", "particles",
	 {"particles.lanes=1", "hardness.generator=strata", "particles.hardness=0.8", NULL}, 3000,
	 0xf1b551e453b3dac6ull},
	{"hydrology coupling none", "hydrology", {"hydrology.coupling=none", NULL}, 2000,
	 0xbe7eb352a57a27dbull},
	{"hydrology coupling streams", "hydrology", {"hydrology.coupling=streams", NULL}, 2000,
	 0xb813960449027ed8ull},
	{"hydrology coupling trees", "hydrology", {"hydrology.coupling=trees", NULL}, 2000, 0x8a119d39c94bef6aull},
	{"hydrology sea, no pit stop", "hydrology",
	 {"hydrology.sea_level=0.3", "hydrology.pit_stop=0", "hydrology.symmetric_normal=0", NULL},
	 2000, 0x43212dafa7939717ull},
	{"hydrology seed 2020 options", "hydrology",
	 {"hydrology.normal=2020", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=0", NULL},
	 2000, 0xd4c67c68ce105a5full},
	{"hydrology seed 2020 wrap, drain loss, high leak", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.edge=wrap", "hydrology.drain_loss=1",
	  "hydrology.leak=high", "hydrology.settle=0", "hydrology.pit_stop=0", NULL},
	 2000, 0xee1bc7f6b3da683full},
	{"hydrology seed 2020 wrap, drain loss, high leak, two threads", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.edge=wrap", "hydrology.drain_loss=1",
	  "hydrology.leak=high", "hydrology.settle=0", "hydrology.pit_stop=0", "world.threads=2",
	  NULL},
	 2000, 0xee1bc7f6b3da683full},
	/* With pit stops every pit floods, so a short run meets the hollows
	 * where halves keep nothing. */
	{"hydrology seed 2020 preset's pour: halves", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=1", "hydrology.pit_dry=0", NULL},
	 2000, 0xbf679f0c48ca6216ull},
	/* The preset's c_eq without the droplet's volume (the 2020 code's). */
	{"hydrology seed 2020 preset's pour, capacity without volume", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=1", "hydrology.pit_dry=0",
	  "hydrology.capacity_volume=0", NULL},
	 2000, 0x141610f55e82de56ull},
	/* And strict_leak: bare ground below a pour's start is a leak. Its
	 * ties take a longer run to form; the same run without it, next,
	 * gives other bits (at 2,000 droplets it still gives the same). */
	{"hydrology seed 2020 preset's pour, strict leak", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=1", "hydrology.pit_dry=0",
	  "hydrology.capacity_volume=0", "hydrology.strict_leak=1", NULL},
	 12000, 0x1683db5427b88969ull},
	{"hydrology seed 2020 preset's pour, the same run without strict leak", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=1", "hydrology.pit_dry=0",
	  "hydrology.capacity_volume=0", NULL},
	 12000, 0x017500740871064full},
	/* The tries only up to a leak, as before halves_filled. */
	{"hydrology seed 2020 pour: halves to a leak only", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.concentrate=1", "hydrology.edge=wall", "hydrology.settle=0",
	  "hydrology.pit_stop=1", "hydrology.pit_dry=0", NULL},
	 2000, 0xff7595535987c1fcull},
	{"hydrology seed 2020 preset's pour: no halves", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.concentrate=1",
	  "hydrology.edge=wall", "hydrology.settle=0", "hydrology.pit_stop=1", "hydrology.pit_dry=0", NULL},
	 2000, 0x513d2a499bc47a00ull},
	{"hydrology pit pools (pit_dry=0)", "hydrology", {"hydrology.pit_dry=0", NULL}, 2000,
	 0x88035dba911e91ffull},
	/* Droplets in lanes (split over two calls: some are in flight between
	 * them, and in the saved state at the end). */
	{"hydrology lanes 64", "hydrology", {"hydrology.lanes=64", NULL}, 2000, 0x55099496fc0e8d9full},
	{"hydrology lanes 13, pit pools, trees", "hydrology",
	 {"hydrology.lanes=13", "hydrology.pit_dry=0", "hydrology.coupling=trees", NULL}, 2000,
	 0xeed184353129acefull},
	{"hydrology lanes 64, seed 2020 preset's options", "hydrology",
	 {"hydrology.lanes=64", "hydrology.normal=2020wrap", "hydrology.drain_loss=1",
	  "hydrology.pour_halves=1", "hydrology.halves_filled=1", "hydrology.concentrate=1",
	  "hydrology.edge=wall", "hydrology.settle=0", "hydrology.pit_stop=0",
	  "hydrology.capacity_volume=0", "hydrology.strict_leak=1", "hydrology.coupling=trees",
	  NULL},
	 2000, 0xcc362855cf2c6df7ull},
	/* The preset's options with the 2020 code's second try from dry
	 * ground (hydrology.dry_tries), and the same run without it: on 64 x
	 * 48 no lake forms in a short run, so 128 x 128. */
	{"hydrology seed 2020 preset's options, dry tries", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=0", "hydrology.capacity_volume=0",
	  "hydrology.strict_leak=1", "hydrology.stop_stream=0.3", "terrain.vertical_scale=40",
	  "hydrology.dry_tries=1", "world.width=128", "world.height=128", NULL},
	 12000, 0x0378747834ffdc1aull},
	/* And with a lake at a pour's level, reached over a sill within the
	 * seed's second try, joining the lake (hydrology.level_join). */
	{"hydrology seed 2020 preset's options, dry tries, level join", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=0", "hydrology.capacity_volume=0",
	  "hydrology.strict_leak=1", "hydrology.stop_stream=0.3", "terrain.vertical_scale=40",
	  "hydrology.dry_tries=1", "hydrology.level_join=1", "world.width=128",
	  "world.height=128", NULL},
	 12000, 0x5e7c28cc19c86b3eull},
	{"hydrology seed 2020 preset's options, no dry tries", "hydrology",
	 {"hydrology.normal=2020wrap", "hydrology.drain_loss=1", "hydrology.pour_halves=1",
	  "hydrology.halves_filled=1", "hydrology.concentrate=1", "hydrology.edge=wall",
	  "hydrology.settle=0", "hydrology.pit_stop=0", "hydrology.capacity_volume=0",
	  "hydrology.strict_leak=1", "hydrology.stop_stream=0.3", "terrain.vertical_scale=40",
	  "world.width=128", "world.height=128", NULL},
	 12000, 0x9743ed98b6f4bf1eull},
	/* A dense forest: batches of hundreds to thousands of tree events,
	 * which events_sort orders by radix (pinned from the qsort it
	 * replaced, on 2026-11-29). */
	{"hydrology dense forest, big event batches", "hydrology",
	 {"hydrology.tree_spawn=1000", "hydrology.tree_seed_chance=0.5",
	  "hydrology.tree_death_chance=0.05", "world.width=128", "world.height=128", NULL},
	 12000, 0x5a76e011ebdeab5full},
	{"emitter plain", "emitter", {"hardness.generator=strata", NULL}, 400, 0x41e1083290021059ull},
	{"emitter rotation and deposit", "emitter",
	 {"hardness.generator=fbm", "emitter.rotation_radius=2", "emitter.deposit=1", NULL}, 400,
	 0x18ff5d8ddb621799ull},
	{"sph vertical jet, tait", "sph", {NULL}, 90, 0x8cc823418111bd7full},
	{"sph two jets and rain, linear state equation", "sph",
	 {"sph.eos=linear", "sph.jet2_on=1", "sph.rain=400", "sph.dry_rate=0.2", NULL}, 90, 0xec9c946770b94da2ull},
};

#define GOLDEN_N (sizeof golden_cases / sizeof golden_cases[0])

/* FNV-1a, 64 bits. */
static uint64_t fnv(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 1099511628211ull;
	}
	return h;
}

static uint64_t world_hash(const struct world *w, const struct process_ops *ops, void *state)
{
	uint64_t h = 14695981039346656037ull;
	for (int l = 0; l < LAYER_COUNT; l++)
		h = fnv(h, w->layer[l], world_cells(w) * sizeof(float));
	h = fnv(h, w->tally, sizeof w->tally);
	h = fnv(h, &w->particles, sizeof w->particles);
	h = fnv(h, &w->steps, sizeof w->steps);
	h = fnv(h, &w->rng, sizeof w->rng);
	if (ops->save_state) {
		unsigned char *blob = NULL;
		size_t len = 0;
		assert_int_equal(ops->save_state(state, &blob, &len), GULLY_OK);
		h = fnv(h, blob, len);
		free(blob);
	}
	return h;
}

static uint64_t golden_run(const struct golden_case *c)
{
	struct params p;
	params_defaults(&p);
	p.world.width = 64;
	p.world.height = 48; /* not square: catches a swapped x and y */
	p.world.seed = 7;
	for (int i = 0; c->settings[i]; i++) {
		int bad = -1;
		if (params_assign(&p, c->settings[i], &bad) != GULLY_OK)
			fail_msg("%s: cannot set %s", c->name, c->settings[i]);
	}
	const struct process_ops *ops = process_find(c->process);
	assert_non_null(ops);
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), GULLY_OK);
	void *state = NULL;
	assert_int_equal(ops->create(&state, w, &p), GULLY_OK);
	struct process_report rep = {0};
	uint64_t first = c->budget / 3;
	assert_int_equal(ops->step(state, w, &p, first, &rep), GULLY_OK);
	assert_int_equal(ops->step(state, w, &p, c->budget - first, &rep), GULLY_OK);
	uint64_t h = world_hash(w, ops, state);
	ops->destroy(state);
	world_destroy(w);
	return h;
}

static void test_golden_results(void **unused)
{
	(void)unused;
	int print = getenv("GOLDEN_PRINT") != NULL;
	int failed = 0;
	for (size_t i = 0; i < GOLDEN_N; i++) {
		const struct golden_case *c = &golden_cases[i];
		uint64_t h = golden_run(c);
		if (print)
			printf("\t%-40s 0x%016llxull\n", c->name, (unsigned long long)h);
		if (h != c->pinned) {
			print_error("%s: hash 0x%016llx, pinned 0x%016llx\n", c->name,
				    (unsigned long long)h, (unsigned long long)c->pinned);
			failed++;
		}
	}
	if (failed)
		fail_msg("%d of %zu golden results moved (GOLDEN_PRINT=1 prints them all)", failed,
			 GOLDEN_N);
}

/* The hash must see a one-bit change in any layer, or the pins prove little. */
static void test_hash_sees_every_layer(void **unused)
{
	(void)unused;
	const struct process_ops *ops = process_find("particles");
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = 16;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), GULLY_OK);
	void *state = NULL;
	assert_int_equal(ops->create(&state, w, &p), GULLY_OK);
	uint64_t h0 = world_hash(w, ops, state);
	for (int l = 0; l < LAYER_COUNT; l++) {
		uint32_t bits;
		float *cell = &w->layer[l][world_cells(w) - 1];
		memcpy(&bits, cell, sizeof bits);
		bits ^= 1u;
		memcpy(cell, &bits, sizeof bits);
		assert_true(world_hash(w, ops, state) != h0);
		bits ^= 1u;
		memcpy(cell, &bits, sizeof bits);
	}
	assert_true(world_hash(w, ops, state) == h0);
	ops->destroy(state);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hash_sees_every_layer),
		cmocka_unit_test(test_golden_results),
	};
	return cmocka_run_group_tests_name("golden", tests, NULL, NULL);
}
