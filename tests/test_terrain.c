/* The terrain's noise: noise_gradient against Perlin's gradient noise
 * written plainly (a switch over the hash, the lattice by fmod), bit for
 * bit, from small to huge and negative coordinates; noise_fbm_row's wide
 * cells against noise_fbm's; and the terrain and hardness maps the same
 * bits on any thread count (core/terrain/rows.c). */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/noise.h"
#include "core/base/rng.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"

static float ref_fade(float t)
{
	return t * t * t * (t * (t * 6.0f - 15.0f) + 10.0f);
}

static float ref_lerp(float a, float b, float t)
{
	return a + t * (b - a);
}

static float ref_grad(int hash, float x, float y)
{
	switch (hash & 7) {
	case 0: return x + y;
	case 1: return -x + y;
	case 2: return x - y;
	case 3: return -x - y;
	case 4: return 1.41421356f * x;
	case 5: return -1.41421356f * x;
	case 6: return 1.41421356f * y;
	default: return -1.41421356f * y;
	}
}

static int ref_lattice(float f)
{
	double m = fmod((double)f, 256.0);
	return (int)(m < 0 ? m + 256.0 : m);
}

static float ref_gradient(const struct noise *n, float x, float y)
{
	float fx = floorf(x), fy = floorf(y);
	int xi = ref_lattice(fx), yi = ref_lattice(fy);
	x -= fx;
	y -= fy;
	float u = ref_fade(x), v = ref_fade(y);
	const uint8_t *p = n->perm;
	int aa = p[p[xi] + yi], ab = p[p[xi] + yi + 1];
	int ba = p[p[xi + 1] + yi], bb = p[p[xi + 1] + yi + 1];
	float r = ref_lerp(ref_lerp(ref_grad(aa, x, y), ref_grad(ba, x - 1, y), u),
			   ref_lerp(ref_grad(ab, x, y - 1), ref_grad(bb, x - 1, y - 1), u), v);
	return r * 0.7071f * 1.41421356f;
}

static void expect_same(const struct noise *n, float x, float y)
{
	const float a = noise_gradient(n, x, y), b = ref_gradient(n, x, y);
	if (memcmp(&a, &b, sizeof a) != 0)
		fail_msg("noise_gradient(%.9g, %.9g) = %.9g, the reference %.9g", (double)x,
			 (double)y, (double)a, (double)b);
}

static void test_gradient_matches_reference(void **state)
{
	(void)state;
	struct noise n;
	noise_init(&n, 12345);
	struct rng r;
	rng_seed(&r, 7, 1);
	/* Ranges: a map's own coordinates, negative ones (octave offsets), and
	 * the far octaves' (up to 7e10, past an int). */
	static const float spans[] = {4.0f, 300.0f, 70000.0f, 3e9f, 7e10f};
	for (size_t s = 0; s < sizeof spans / sizeof spans[0]; s++)
		for (int i = 0; i < 40000; i++) {
			const float x = (rng_float(&r) * 2.0f - 1.0f) * spans[s];
			const float y = (rng_float(&r) * 2.0f - 1.0f) * spans[s];
			expect_same(&n, x, y);
		}
	/* Whole numbers (the noise's zeros) and the ends of an int's range,
	 * where the lattice changes how it wraps. */
	static const float edges[] = {0.0f,	 -0.0f,	      1.0f,	   -1.0f,	 255.0f,
				      256.0f,	 -256.0f,     -257.5f,	   2147483520.0f, 2147483648.0f,
				      2147483904.0f, -2147483520.0f, -2147483648.0f, -2147483904.0f,
				      16777216.0f, -16777217.0f};
	const size_t ne = sizeof edges / sizeof edges[0];
	for (size_t i = 0; i < ne; i++)
		for (size_t j = 0; j < ne; j++) {
			expect_same(&n, edges[i], edges[j]);
			expect_same(&n, edges[i] + 0.25f, edges[j] - 0.75f);
		}
}

/* The wide row (several cells a vector) against noise_fbm cell by cell. */
static void test_fbm_row_matches_cells(void **state)
{
	(void)state;
	struct noise n;
	noise_init(&n, 99);
	/* Frequencies per cell from a map's (4 over 4096 cells) to the largest
	 * (64 over 16 cells), octaves and lacunarity up to their limits (the
	 * far octaves pass an int's range), rows above and below zero. */
	static const float xfreqs[] = {4.0f / 4096.0f, 0.37f, 4.0f};
	static const float ys[] = {0.0f, 3.75f, -9.5f, 1234.5f};
	static const int octaves[] = {1, 8, 16};
	static const float lacunarity[] = {1.0f, 2.0f, 4.0f};
	float row[203];
	for (size_t f = 0; f < 3; f++)
		for (size_t y = 0; y < 4; y++)
			for (size_t o = 0; o < 3; o++)
				for (size_t l = 0; l < 3; l++) {
					const int x0 = (int)(f * 7 + y * 3 + o);
					const int count = 203 - (int)(l + o);
					noise_fbm_row(&n, x0, count, xfreqs[f], ys[y], octaves[o], 0.5f,
						      lacunarity[l], row);
					for (int i = 0; i < count; i++) {
						const float cell =
							noise_fbm(&n, (float)(x0 + i) * xfreqs[f], ys[y],
								  octaves[o], 0.5f, lacunarity[l]);
						if (memcmp(&cell, &row[i], sizeof cell) != 0)
							fail_msg("cell %d of the row (x0 %d, freq %g, y %g, "
								 "%d octaves, lacunarity %g): %.9g, "
								 "noise_fbm %.9g",
								 i, x0, (double)xfreqs[f], (double)ys[y],
								 octaves[o], (double)lacunarity[l],
								 (double)row[i], (double)cell);
					}
				}
}

static struct world *made_on(struct params *p, int threads)
{
	p->world.threads = threads;
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), 0);
	return w;
}

/* Big enough for terrain_rows to use threads (it keeps small maps on one). */
static void expect_same_on_any_thread_count(struct params *p)
{
	p->world.width = 320;
	p->world.height = 257;
	struct world *one = made_on(p, 1);
	for (int threads = 2; threads <= 3; threads++) {
		struct world *more = made_on(p, threads);
		const size_t bytes = world_cells(one) * sizeof(float);
		assert_memory_equal(one->layer[LAYER_HEIGHT], more->layer[LAYER_HEIGHT], bytes);
		assert_memory_equal(one->layer[LAYER_BASE], more->layer[LAYER_BASE], bytes);
		assert_memory_equal(one->layer[LAYER_HARDNESS], more->layer[LAYER_HARDNESS], bytes);
		world_destroy(more);
	}
	/* Not a flat field: the comparison above had something to compare. */
	float mn = INFINITY, mx = -INFINITY;
	for (size_t i = 0; i < world_cells(one); i++) {
		mn = fminf(mn, one->layer[LAYER_HEIGHT][i]);
		mx = fmaxf(mx, one->layer[LAYER_HEIGHT][i]);
	}
	assert_true(mx - mn > 0.5f);
	world_destroy(one);
}

static void test_terrain_same_on_any_thread_count(void **state)
{
	(void)state;
	static const int generators[] = {TERRAIN_FBM, TERRAIN_RIDGED, TERRAIN_BASINS};
	for (size_t g = 0; g < sizeof generators / sizeof generators[0]; g++) {
		struct params p;
		params_defaults(&p);
		p.world.seed = 40 + (int)g;
		p.terrain.generator = generators[g];
		p.terrain.roughness = 1.0;
		p.hardness.generator = g == 0 ? HARDNESS_FBM : HARDNESS_STRATA;
		p.hardness.warp = 2.0;
		expect_same_on_any_thread_count(&p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gradient_matches_reference),
		cmocka_unit_test(test_fbm_row_matches_cells),
		cmocka_unit_test(test_terrain_same_on_any_thread_count),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
