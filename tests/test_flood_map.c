/* The whole-map flood (flood_fill_map) at several sizes and on several
 * kinds of terrain, against the definition itself: a cell's water surface
 * W is the lowest level at which water there reaches the sea,
 * W(c) = max(h(c), min over its eight neighbours W(n)), with the sea at
 * sea_level beside every edge cell. The reference relaxes that equation
 * by sweeps until nothing changes (slow, and obviously right); the pools
 * must match bit for bit. And the radix heap the flood queues cells in,
 * against sorting. (Small maps against flood_pour: test_flood.c.) */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/flood_internal.h"
#include "core/hydrology/flood_radix.h"
#include "core/terrain/terrain.h"

/* One Gauss-Seidel sweep of W(c) = max(h(c), min(W(c), W(neighbours),
 * the sea for an edge cell)), forward or backward. True when it lowered
 * some W. */
static bool relax_sweep(const float *h, double *wl, int w, int hh, double sea, bool backward)
{
	bool lowered = false;
	int n = w * hh;
	for (int k = 0; k < n; k++) {
		int c = backward ? n - 1 - k : k, x = c % w, y = c / w;
		double best = wl[c];
		if (x == 0 || y == 0 || x == w - 1 || y == hh - 1)
			best = fmin(best, sea);
		for (int dy = -1; dy <= 1; dy++)
			for (int dx = -1; dx <= 1; dx++) {
				int nx = x + dx, ny = y + dy;
				if ((dx || dy) && nx >= 0 && ny >= 0 && nx < w && ny < hh)
					best = fmin(best, wl[ny * w + nx]);
			}
		best = fmax(best, (double)h[c]);
		if (best < wl[c]) {
			wl[c] = best;
			lowered = true;
		}
	}
	return lowered;
}

/* The pools by the definition: W from +infinity down to the fixed point,
 * then each cell's depth W - h as the flood writes it (depth_at). */
static void pools_by_definition(const float *h, float *pool, int w, int hh, double sea)
{
	int n = w * hh;
	double *wl = malloc((size_t)n * sizeof *wl);
	assert_non_null(wl);
	for (int c = 0; c < n; c++)
		wl[c] = INFINITY;
	bool backward = false;
	while (relax_sweep(h, wl, w, hh, sea, backward))
		backward = !backward;
	for (int c = 0; c < n; c++)
		pool[c] = depth_at(wl[c], h[c]);
	free(wl);
}

enum relief { RELIEF_GULLY, RELIEF_STEPS, RELIEF_PLATEAUS };

/* gully's own terrain (pits of the noise), whole 64ths (ties everywhere,
 * as test_flood's case), or terraces with holes cut in them (flat
 * spills, pits inside flats). */
static void make_relief(float *hgt, int w, int hh, enum relief kind, unsigned seed)
{
	int n = w * hh;
	struct rng r;
	rng_seed(&r, seed, 11);
	if (kind == RELIEF_GULLY) {
		struct params p;
		params_defaults(&p);
		p.world.width = w;
		p.world.height = hh;
		p.world.seed = (int)seed;
		struct world *wo = NULL;
		assert_int_equal(world_from_params(&wo, &p), 0);
		memcpy(hgt, wo->layer[LAYER_HEIGHT], (size_t)n * sizeof *hgt);
		world_destroy(wo);
		return;
	}
	for (int c = 0; c < n; c++) {
		if (kind == RELIEF_STEPS)
			hgt[c] = (float)rng_below(&r, 64) / 64.0f;
		else
			hgt[c] = (float)((c % w) / 8 + (c / w) / 8 % 3) * 0.25f -
				 (rng_below(&r, 10) == 0 ? 0.5f : 0.0f);
	}
}

static void test_fill_map_equals_definition(void **state)
{
	(void)state;
	static const struct {
		int w, h;
		enum relief kind;
		unsigned seed;
		double sea;
	} cases[] = {
		{1, 1, RELIEF_STEPS, 1, -1.0},   {1, 7, RELIEF_STEPS, 2, 0.3},
		{2, 2, RELIEF_STEPS, 3, -1.0},   {3, 3, RELIEF_STEPS, 4, -1.0},
		{64, 64, RELIEF_GULLY, 42, -1.0}, {64, 64, RELIEF_GULLY, 7, 0.45},
		{128, 96, RELIEF_GULLY, 12345, -1.0}, {200, 200, RELIEF_GULLY, 1, 0.3},
		{97, 131, RELIEF_STEPS, 5, -1.0}, {150, 150, RELIEF_STEPS, 6, 0.2},
		{96, 80, RELIEF_PLATEAUS, 8, -1.0}, {160, 120, RELIEF_PLATEAUS, 9, 0.6},
		/* work arrays over BIGMEM_MIN_BYTES: mapped on their own */
		{1024, 1030, RELIEF_STEPS, 10, -1.0},
	};
	for (size_t t = 0; t < sizeof cases / sizeof cases[0]; t++) {
		int w = cases[t].w, h = cases[t].h, n = w * h;
		float *hgt = malloc((size_t)n * sizeof *hgt), *want = malloc((size_t)n * sizeof *want);
		float *got = malloc((size_t)n * sizeof *got);
		assert_non_null(hgt);
		assert_non_null(want);
		assert_non_null(got);
		make_relief(hgt, w, h, cases[t].kind, cases[t].seed);
		for (int i = 0; i < n; i++)
			got[i] = -1.0f; /* every cell must be written */
		assert_int_equal(flood_fill_map(hgt, got, w, h, cases[t].sea), GULLY_OK);
		pools_by_definition(hgt, want, w, h, cases[t].sea);
		int inland = 0;
		for (int i = 0; i < n; i++) {
			inland += want[i] > 0 && (double)hgt[i] + want[i] > cases[t].sea + 1e-6;
		}
		if (n >= 64 * 64) /* the big cases have pits to fill above the sea */
			if (inland <= n / 100)
				fail_msg("case %zu: only %d cells pooled above the sea", t, inland);
		if (memcmp(got, want, (size_t)n * sizeof *got) != 0)
			fail_msg("case %zu (%dx%d): pools differ from the definition's", t, w, h);
		free(hgt);
		free(want);
		free(got);
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return (x > y) - (x < y);
}

/* The key map keeps the doubles' order, negatives, zeros and infinities
 * included, and comes back exactly. */
static void test_radix_key_order(void **state)
{
	(void)state;
	const double k[] = {-INFINITY, -1e300, -2.5, -1.0, -1e-300, -0.0, 0.0,
			    1e-300,    0.25,   1.0,  2.5,  1e300,   INFINITY};
	size_t n = sizeof k / sizeof k[0];
	for (size_t i = 0; i < n; i++) {
		assert_true(radix_level(radix_key(k[i])) == k[i]);
		for (size_t j = 0; j < n; j++)
			assert_int_equal(radix_key(k[i]) < radix_key(k[j]), k[i] < k[j]);
	}
}

/* Pushes keys never below the last popped one, as the flood does, with
 * ties, negatives and bursts; the pops come out in sorted order and every
 * cell comes out once. */
static void test_radix_heap_pops_in_order(void **state)
{
	(void)state;
	struct rng r;
	rng_seed(&r, 3, 9);
	for (int round = 0; round < 20; round++) {
		struct radix_heap rh = {0};
		enum { CELLS = 3000 };
		static uint64_t pushed[CELLS], popped[CELLS];
		static int seen[CELLS];
		memset(seen, 0, sizeof seen);
		int np = 0, nq = 0;
		double last = -50.0;
		while (nq < CELLS) {
			int burst = (int)rng_below(&r, 6);
			for (int b = 0; b < burst && np < CELLS; b++) {
				/* Steps of whole 1/8ths: many ties. */
				double key = last + (double)rng_below(&r, round % 2 ? 4 : 400) / 8.0;
				assert_true(radix_push(&rh, key, np));
				pushed[np++] = radix_key(key);
			}
			if (rh.len == 0)
				continue;
			double level = 0.0;
			int32_t cell = -1;
			assert_true(radix_pop(&rh, &level, &cell));
			assert_true(level >= last);
			assert_true(cell >= 0 && cell < np);
			assert_int_equal(radix_key(level), pushed[cell]);
			seen[cell]++;
			popped[nq++] = radix_key(level);
			last = level;
		}
		assert_int_equal(rh.len, 0);
		for (int i = 0; i < CELLS; i++)
			assert_int_equal(seen[i], 1);
		qsort(pushed, CELLS, sizeof pushed[0], cmp_u64);
		assert_memory_equal(pushed, popped, sizeof pushed);
		radix_free(&rh);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_radix_key_order),
		cmocka_unit_test(test_radix_heap_pops_in_order),
		cmocka_unit_test(test_fill_map_equals_definition),
	};
	return cmocka_run_group_tests_name("flood_map", tests, NULL, NULL);
}
