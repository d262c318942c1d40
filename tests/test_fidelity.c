/* Fidelity on a small case (issue 15): gully with the shipped
 * seed-hydrology-2020 preset against the seed's own algorithm (bench/seedref.h,
 * the yardstick) on a 64x64 crop of the seed's terrain (tests/data/README),
 * 20,000 droplets. The yardstick runs twice with two droplet streams, so the
 * test computes the seed's own spread on this crop; gully must land inside
 * it, give or take a margin: eroded volume within 5% of the yardstick's
 * mean, and a height-change correlation with the first stream no more than
 * 0.008 below the two streams' own (0.005 for the radius-3 blurred one;
 * measured since the load capacity lost the droplet's volume on both
 * sides, as the seed's code has it: eroded 1.5% over, correlation 0.941
 * against the seed's own 0.942, blurred 0.991 against 0.993; the preset
 * with the volume kept fails here, eroding 5.3% under; since pour_halves
 * replays the seed's tries, before that: eroded 2.1% over,
 * correlation 0.946 against the seed's own 0.944, blurred 0.993 against
 * 0.991; after the descent's shorter chain 2.8% over and 0.945; before
 * it, with pour_halves, 2.2% over and 0.943; without
 * pour_halves 3.3% over and 0.939, in session 4 5.8% and 0.936). The
 * crop is too small for the seed's
 * lakes (they need the valleys above it: the yardstick makes 0 to 70 pool
 * cells here), so pools are compared at full size only (bench/FIDELITY.md).
 * What it catches: the particles normal (eroded 0.71x, correlation 0.89
 * here) or a wrong effective rate. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/params.h"
#include "core/base/process.h"
#include "core/base/world.h"
#include "core/terrain/terrain.h"
#include "io/preset.h"

#include "../bench/fidcompare.h"
#include "../bench/seedref.h"

#define SIDE 64
#define DROPLETS 20000
#define CELLS (SIDE * SIDE)

static float *read_crop(void)
{
	const char *path = GULLY_SRCDIR "/tests/data/hydrology2020-seed12345-before-crop64.f32";
	FILE *f = fopen(path, "rb");
	if (!f)
		fail_msg("%s: cannot open", path);
	float *h = malloc(CELLS * sizeof *h);
	assert_non_null(h);
	assert_int_equal(fread(h, sizeof *h, CELLS, f), CELLS);
	assert_int_equal(fgetc(f), EOF);
	fclose(f);
	for (int i = 0; i < CELLS; i++)
		assert_true(h[i] >= 0.0f && h[i] <= 1.0f);
	return h;
}

/* The yardstick: height then pool, from srand(seed). */
static void seed_run(const float *before, unsigned seed, float *h, float *pool)
{
	struct seedref_hydrology_params sp;
	seedref_hydrology_defaults(&sp);
	struct seedref_counts c;
	memcpy(h, before, CELLS * sizeof *h);
	memset(pool, 0, CELLS * sizeof *pool);
	assert_int_equal(seedref_hydrology(h, pool, NULL, SIDE, SIDE, DROPLETS, seed, &sp, &c), 0);
	assert_true(c.steps > 0 && c.floods > 0);
}

/* gully with the shipped preset, the crop imported as `gully run FILE` does. */
static void gully_run(const float *before, float *h, float *pool)
{
	struct params p;
	char err[PRESET_ERR_MAX];
	const char *path = GULLY_SRCDIR "/presets/seed-hydrology-2020.yaml";
	if (preset_load_file(path, &p, NULL, err, sizeof err))
		fail_msg("%s", err);
	p.world.width = p.world.height = SIDE;
	p.world.seed = 1;
	struct world *w = NULL;
	assert_int_equal(world_from_params_on(&w, &p, before), 0);
	const struct process_ops *ops = process_find("hydrology");
	void *st = NULL;
	assert_int_equal(ops->create(&st, w, &p), 0);
	struct process_report rep;
	assert_int_equal(ops->step(st, w, &p, DROPLETS, &rep), 0);
	/* The droplets still in flight (hydrology.lanes) end, as gully run
	 * ends them. */
	assert_int_equal(ops->finish(st, w, &p, &rep), 0);
	ops->destroy(st);
	memcpy(h, w->layer[LAYER_HEIGHT], CELLS * sizeof *h);
	memcpy(pool, w->layer[LAYER_POOL], CELLS * sizeof *pool);
	world_destroy(w);
}

static void test_crop_within_seed_spread(void **state)
{
	(void)state;
	float *before = read_crop();
	float *buf = malloc(6 * CELLS * sizeof *buf);
	assert_non_null(buf);
	float *h1 = buf, *p1 = buf + CELLS, *h2 = buf + 2 * CELLS, *p2 = buf + 3 * CELLS;
	float *hg = buf + 4 * CELLS, *pg = buf + 5 * CELLS;
	seed_run(before, 1, h1, p1);
	seed_run(before, 2, h2, p2);
	gully_run(before, hg, pg);

	struct fid_run r1, r2, rg;
	struct fid_pair spread, ours;
	assert_int_equal(fid_run_measure(before, h1, p1, SIDE, SIDE, &r1), 0);
	assert_int_equal(fid_run_measure(before, h2, p2, SIDE, SIDE, &r2), 0);
	assert_int_equal(fid_run_measure(before, hg, pg, SIDE, SIDE, &rg), 0);
	assert_int_equal(fid_pair_measure(before, h2, p2, h1, p1, SIDE, SIDE, &spread), 0);
	assert_int_equal(fid_pair_measure(before, hg, pg, h1, p1, SIDE, SIDE, &ours), 0);
	print_message("seed: eroded %.2f and %.2f, correlation %.3f (blurred %.3f)\n", r1.eroded,
		      r2.eroded, spread.corr, spread.corr_blur);
	print_message("gully: eroded %.2f, correlation %.3f (blurred %.3f)\n", rg.eroded, ours.corr,
		      ours.corr_blur);
	/* The seed's two streams agree closely on this crop, or the yardstick
	 * itself is off. */
	assert_true(r1.eroded > 0 && fabs(r1.eroded - r2.eroded) < 0.05 * r1.eroded);
	const double mean = 0.5 * (r1.eroded + r2.eroded);
	if (!(fabs(rg.eroded - mean) <= 0.05 * mean))
		fail_msg("gully erodes %.2f, the seed %.2f (more than 5%% apart)", rg.eroded, mean);
	if (!(ours.corr >= spread.corr - 0.008))
		fail_msg("correlation with the seed %.3f, the seed's own %.3f", ours.corr, spread.corr);
	if (!(ours.corr_blur >= spread.corr_blur - 0.005))
		fail_msg("blurred correlation %.3f, the seed's own %.3f", ours.corr_blur,
			 spread.corr_blur);
	free(buf);
	free(before);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crop_within_seed_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
