/* Hardness maps: each generator's defining property, determinism, and
 * filling the layer from outside values. */
#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"

static struct world *make(struct params *p, int generator, int size)
{
	p->world.width = size;
	p->world.height = size;
	p->hardness.generator = generator;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

static void range(const struct world *w, float *mn, float *mx)
{
	*mn = INFINITY;
	*mx = -INFINITY;
	for (size_t i = 0; i < world_cells(w); i++) {
		float v = w->layer[LAYER_HARDNESS][i];
		assert_true(v >= 0.0f && v <= 1.0f);
		*mn = fminf(*mn, v);
		*mx = fmaxf(*mx, v);
	}
}

static void test_choices_match_enum(void **state)
{
	(void)state;
	const struct param_def *d = params_def(params_find("hardness.generator"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HARDNESS_GENERATOR_COUNT);
	assert_int_equal(params_choice_find(d, "uniform"), HARDNESS_UNIFORM);
	assert_int_equal(params_choice_find(d, "fbm"), HARDNESS_FBM);
	assert_int_equal(params_choice_find(d, "strata"), HARDNESS_STRATA);
	assert_int_equal(params_choice_find(d, "file"), HARDNESS_FILE);
}

static void test_uniform(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	p.hardness.value = 0.7;
	struct world *w = make(&p, HARDNESS_UNIFORM, 32);
	for (size_t i = 0; i < world_cells(w); i++)
		assert_true(w->layer[LAYER_HARDNESS][i] == 0.7f);
	world_destroy(w);
	/* "file" holds the uniform value until the front end loads the layer. */
	w = make(&p, HARDNESS_FILE, 32);
	assert_true(w->layer[LAYER_HARDNESS][5] == 0.7f);
	world_destroy(w);
}

static void test_fbm_spans_contrast(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	p.hardness.value = 0.5;
	p.hardness.contrast = 0.8;
	struct world *a = make(&p, HARDNESS_FBM, 64);
	float mn, mx;
	range(a, &mn, &mx);
	/* Normalised noise, so the map spans value +- contrast / 2 exactly. */
	assert_double_equal(mn, 0.1, 1e-6);
	assert_double_equal(mx, 0.9, 1e-6);
	struct world *b = make(&p, HARDNESS_FBM, 64);
	assert_memory_equal(a->layer[LAYER_HARDNESS], b->layer[LAYER_HARDNESS],
			    world_cells(a) * sizeof(float));
	world_destroy(b);
	/* Same terrain, other hardness: the hardness streams are separate. */
	p.hardness.frequency = 3;
	b = make(&p, HARDNESS_FBM, 64);
	assert_memory_not_equal(a->layer[LAYER_HARDNESS], b->layer[LAYER_HARDNESS],
				world_cells(a) * sizeof(float));
	assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
			    world_cells(a) * sizeof(float));
	world_destroy(b);
	p.world.seed = 43;
	b = make(&p, HARDNESS_FBM, 64);
	assert_memory_not_equal(a->layer[LAYER_HARDNESS], b->layer[LAYER_HARDNESS],
				world_cells(a) * sizeof(float));
	world_destroy(a);
	world_destroy(b);
}

/* On a plane (height falls along x) without warp, strata are bands of x:
 * one value per band, alternately harder and softer than the mean. */
static void test_strata_bands_by_height(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	p.terrain.generator = TERRAIN_PLANE;
	p.terrain.roughness = 0;
	p.hardness.strata = 6;
	p.hardness.warp = 0;
	p.hardness.value = 0.5;
	p.hardness.contrast = 0.8;
	struct world *w = make(&p, HARDNESS_STRATA, 96);
	const float *d = w->layer[LAYER_HARDNESS], *h = w->layer[LAYER_HEIGHT];
	float hmin = INFINITY, hmax = -INFINITY;
	for (size_t i = 0; i < world_cells(w); i++) {
		hmin = fminf(hmin, h[i]);
		hmax = fmaxf(hmax, h[i]);
	}
	float band_value[6];
	bool seen[6] = {false};
	for (size_t i = 0; i < world_cells(w); i++) {
		int b = (int)floorf((h[i] - hmin) / (hmax - hmin) * 6);
		b = b > 5 ? 5 : b;
		/* Skip cells a float rounding away from a band edge. */
		double t = (h[i] - hmin) / (hmax - hmin) * 6;
		if (fabs(t - round(t)) < 1e-4)
			continue;
		if (!seen[b]) {
			seen[b] = true;
			band_value[b] = d[i];
		}
		assert_true(d[i] == band_value[b]);
	}
	for (int b = 0; b < 6; b++) {
		assert_true(seen[b]);
		/* Even bands harder, odd softer, each by contrast/4 .. contrast/2. */
		double off = band_value[b] - 0.5;
		assert_true(b % 2 == 0 ? off > 0 : off < 0);
		assert_true(fabs(off) >= 0.2 - 1e-6 && fabs(off) <= 0.4 + 1e-6);
		if (b)
			assert_true(fabs(band_value[b] - band_value[b - 1]) >= 0.4 - 1e-6);
	}
	world_destroy(w);

	/* With warp the bands bend: some cells of one height differ. */
	p.hardness.warp = 1;
	w = make(&p, HARDNESS_STRATA, 96);
	int differ = 0;
	for (int x = 0; x < 96; x++)
		for (int y = 1; y < 96; y++)
			differ += *world_at(w->layer[LAYER_HARDNESS], w, x, y) !=
				  *world_at(w->layer[LAYER_HARDNESS], w, x, 0);
	assert_true(differ > 0);
	world_destroy(w);
}

static void test_fill_from(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	struct world *w = make(&p, HARDNESS_UNIFORM, 16);
	/* Same size: an exact copy (values above 1 clamped). */
	float src[256];
	for (int i = 0; i < 256; i++)
		src[i] = (float)i / 200.0f;
	assert_int_equal(hardness_fill_from(w, src, 16, 16), 0);
	for (int i = 0; i < 256; i++)
		assert_true(w->layer[LAYER_HARDNESS][i] == fminf(src[i], 1.0f));
	/* 2x2 up to 16x16: bilinear, so monotone along a ramp and within range. */
	const float ramp[4] = {0, 1, 0, 1};
	assert_int_equal(hardness_fill_from(w, ramp, 2, 2), 0);
	for (int y = 0; y < 16; y++) {
		assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 0, y) == 0.0f);
		assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 15, y) == 1.0f);
		for (int x = 1; x < 16; x++)
			assert_true(*world_at(w->layer[LAYER_HARDNESS], w, x, y) >=
				    *world_at(w->layer[LAYER_HARDNESS], w, x - 1, y));
	}
	/* Bad input leaves the layer as it was. */
	float before[256];
	memcpy(before, w->layer[LAYER_HARDNESS], sizeof before);
	src[100] = NAN;
	assert_int_equal(hardness_fill_from(w, src, 16, 16), GULLY_EINVAL);
	assert_int_equal(hardness_fill_from(w, ramp, 0, 2), GULLY_EINVAL);
	assert_memory_equal(before, w->layer[LAYER_HARDNESS], sizeof before);
	world_destroy(w);
}

/* Issue 14 #3: finite values near the float limit, stretched over a larger
 * map, once came out NaN (a float difference overflowed to inf, inf * 0 is
 * NaN and the clamp let NaN through). Every cell must be in [0, 1], and the
 * cells between a -3e38 and a +3e38 sample rise monotonically. */
static void test_fill_from_extremes(void **state)
{
	(void)state;
	struct params p;
	params_defaults(&p);
	struct world *w = make(&p, HARDNESS_UNIFORM, 16);
	const float big[4] = {-3.0e38f, 3.0e38f, 3.0e38f, -3.0e38f};
	assert_int_equal(hardness_fill_from(w, big, 2, 2), 0);
	for (size_t i = 0; i < world_cells(w); i++) {
		float v = w->layer[LAYER_HARDNESS][i];
		assert_true(v >= 0.0f && v <= 1.0f);
	}
	/* Top row: -3e38 at the left, +3e38 at the right, so 0 then 1. */
	assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 0, 0) == 0.0f);
	assert_true(*world_at(w->layer[LAYER_HARDNESS], w, 15, 0) == 1.0f);
	const float maxes[4] = {FLT_MAX, -FLT_MAX, -FLT_MAX, FLT_MAX};
	assert_int_equal(hardness_fill_from(w, maxes, 2, 2), 0);
	for (size_t i = 0; i < world_cells(w); i++) {
		float v = w->layer[LAYER_HARDNESS][i];
		assert_true(v >= 0.0f && v <= 1.0f);
	}
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_choices_match_enum),
		cmocka_unit_test(test_uniform),
		cmocka_unit_test(test_fbm_spans_contrast),
		cmocka_unit_test(test_strata_bands_by_height),
		cmocka_unit_test(test_fill_from),
		cmocka_unit_test(test_fill_from_extremes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
