/* The stream map's lazy update (core/hydrology/hydrology_stream.h) is the
 * whole-map pass after every batch, bit for bit:
 * - on its own, against the pass written out here, over random maps with
 *   values a run never makes (above 1, below 0, -0, subnormals, NaN,
 *   infinities), random visits and reads, windows that close early and at
 *   HSTREAM_WINDOW, a rate that changes inside a window, with and without
 *   the AVX copy: every read sees the value the whole-map pass holds at
 *   that point;
 * - in the process: a lazy world and a whole-map world, split into step()
 *   calls of odd sizes, on 1 and 2 threads, and resumed from the state's
 *   blob, stay equal layer for layer after every call. */
#include "testutil.h"
#include "worldutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/terrain/terrain.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_stream.h"

/* The whole-map pass, one cell at a time, as the process had it. */
static void ref_batch(float *stream, uint8_t *track, size_t n, float lrate)
{
	for (size_t i = 0; i < n; i++) {
		float v = stream[i] + lrate * ((float)track[i] - stream[i]);
		stream[i] = v < 0.0f ? 0.0f : v > 1.0f ? 1.0f : v;
		track[i] = 0;
	}
}

static float odd_value(struct rng *r)
{
	switch (rng_below(r, 10)) {
	case 0:
		return 0.0f;
	case 1:
		return -0.0f;
	case 2:
		return 1.5f;
	case 3:
		return -0.25f;
	case 4:
		return 1e-40f; /* subnormal */
	case 5:
		return NAN;
	case 6:
		return rng_below(r, 2) ? INFINITY : -INFINITY; /* NaN after a batch */
	default:
		return (float)rng_double(r);
	}
}

static void lazy_matches_pass(size_t n, bool avx, uint64_t seed)
{
	struct rng r;
	rng_seed(&r, seed, 1);
	float *ref = malloc(n * sizeof *ref), *lazy = malloc(n * sizeof *lazy);
	uint8_t *rtrack = calloc(n, 1), *ltrack = calloc(n, 1);
	assert_non_null(ref);
	assert_non_null(lazy);
	assert_non_null(rtrack);
	assert_non_null(ltrack);
	for (size_t i = 0; i < n; i++) {
		/* Runs of +0, which the catch-up skips, and odd values. */
		ref[i] = (i / 40) % 3 == 0 ? 0.0f : odd_value(&r);
		lazy[i] = ref[i];
	}
	struct hstream hs;
	assert_int_equal(hstream_init(&hs, lazy, ltrack, n), GULLY_OK);
	hstream_set_lazy(&hs, true);
	hs.avx &= avx;
	float lrate = 0.01f;
	for (int b = 0; b < 400; b++) {
		/* Visits cluster, as a droplet's path does; reads are anywhere. */
		const int visits = (int)rng_below(&r, 60);
		const uint32_t start = rng_below(&r, (uint32_t)n);
		uint32_t at = start;
		for (int k = 0; k < visits; k++) {
			at = (at + rng_below(&r, 5)) % (uint32_t)n;
			hstream_fresh(&hs, at);
			ltrack[at] = rtrack[at] = 1;
		}
		if (rng_below(&r, 20) == 0) {
			/* A snapshot's load in mid-batch: the map is current, and
			 * the tiles holding visits are listed again; the path's
			 * cells are visited once more (listed once each). */
			hstream_sync(&hs, NULL);
			hstream_relist(&hs);
			for (at = start; at != start + 3 * (uint32_t)visits; at++) {
				hstream_fresh(&hs, at % (uint32_t)n);
				ltrack[at % n] = rtrack[at % n] = 1;
			}
		}
		for (int k = 0; k < 20; k++) {
			const uint32_t c = rng_below(&r, (uint32_t)n);
			const float v = hstream_get(&hs, c);
			assert_memory_equal(&v, &ref[c], sizeof v);
		}
		/* The rate moves now and then, as a step() call's parameters may
		 * between calls; the lagging tiles owe batches at the old one. */
		if (rng_below(&r, 50) == 0)
			lrate = (float)(0.0001 + rng_double(&r));
		ref_batch(ref, rtrack, n, lrate);
		hstream_batch_end(&hs, lrate, NULL);
		if (rng_below(&r, 30) == 0) {
			hstream_sync(&hs, NULL);
			assert_memory_equal(lazy, ref, n * sizeof *ref);
		}
	}
	hstream_sync(&hs, NULL);
	assert_memory_equal(lazy, ref, n * sizeof *ref);
	assert_memory_equal(ltrack, rtrack, n);
	hstream_free(&hs);
	free(ref);
	free(lazy);
	free(rtrack);
	free(ltrack);
}

static void test_lazy_is_the_pass(void **state)
{
	(void)state;
	/* Sizes that are and are not whole tiles and whole AVX groups. */
	const size_t sizes[] = {1, 15, 16, 64, 1000, 4099};
	for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
		lazy_matches_pass(sizes[i], true, 7 + i);
		lazy_matches_pass(sizes[i], false, 7 + i);
	}
}

static void *make_state(struct world *w, const struct params *p, bool lazy)
{
	void *st = test_process_open(&hydrology_process, w, p);
	hydrology_set_stream_lazy(st, lazy);
	return st;
}

/* A small map with streams, trees and batches short enough for lags. */
static void small_params(struct params *p)
{
	params_defaults(p);
	p->world.width = 99; /* not a whole number of tiles a row */
	p->world.height = 70;
	p->world.seed = 5;
	p->terrain.vertical_scale = 40;
	p->hydrology.batch = 7;
	p->hydrology.tree_spawn = 20;
	p->hydrology.tree_min_normal = 0.0;
	p->hydrology.lrate = 0.05;
}

static const uint64_t calls[] = {1, 37, 500, 3, 1000, 250, 6, 900};

/* Two runs side by side on the small map: a lazy one on `threads` threads
 * (a, pa, sa) and a whole-map one (b, p, sb). */
struct pair {
	struct params p, pa;
	struct world *a, *b;
	void *sa, *sb;
};

static void pair_open(struct pair *r, int threads)
{
	small_params(&r->p);
	r->a = r->b = NULL;
	assert_int_equal(world_from_params(&r->a, &r->p), GULLY_OK);
	assert_int_equal(world_from_params(&r->b, &r->p), GULLY_OK);
	r->pa = r->p;
	r->pa.world.threads = threads;
	r->sa = make_state(r->a, &r->pa, true);
	r->sb = make_state(r->b, &r->p, false);
}

static void pair_close(struct pair *r)
{
	hydrology_process.destroy(r->sa);
	hydrology_process.destroy(r->sb);
	world_destroy(r->a);
	world_destroy(r->b);
}

/* Both runs on by n droplets. */
static void pair_step(struct pair *r, uint64_t n)
{
	assert_int_equal(hydrology_process.step(r->sa, r->a, &r->pa, n, NULL), GULLY_OK);
	assert_int_equal(hydrology_process.step(r->sb, r->b, &r->p, n, NULL), GULLY_OK);
}

/* A lazy run (threads 1 or 2) and a whole-map run, in step() calls of odd
 * sizes; halfway the lazy one is resumed from its blob into a new state. */
static void process_lazy_is_the_pass(int threads)
{
	struct pair r;
	pair_open(&r, threads);
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
		if (i == 4) {
			/* Resume: a new lazy state from the blob (the track map of
			 * a batch in progress comes back with it). */
			unsigned char *blob;
			size_t len;
			assert_int_equal(hydrology_process.save_state(r.sa, &blob, &len), GULLY_OK);
			hydrology_process.destroy(r.sa);
			r.sa = make_state(r.a, &r.pa, true);
			assert_int_equal(hydrology_process.load_state(r.sa, blob, len), GULLY_OK);
			free(blob);
		}
		pair_step(&r, calls[i]);
		assert_same_world(r.a, r.b);
		assert_same_process_state(&hydrology_process, r.sa, r.sb);
	}
	/* The stream map is not flat: the comparison saw real streams. */
	const float *stream = r.a->layer[LAYER_STREAM];
	float hi = 0;
	for (size_t i = 0; i < world_cells(r.a); i++)
		hi = stream[i] > hi ? stream[i] : hi;
	assert_true(hi > 0.1f);
	pair_close(&r);
}

static void test_process_lazy_is_the_pass(void **state)
{
	(void)state;
	process_lazy_is_the_pass(1);
	process_lazy_is_the_pass(2);
}

/* catch_up(lag): step() calls that leave the stream layer behind (as gully
 * run's chunks do), then one catch-up, give a whole-map run's bits; while it
 * lags the layer is behind and the state refuses to be saved. */
static void catch_up_lag_is_the_pass(int threads)
{
	struct pair r;
	pair_open(&r, threads);
	const size_t n = world_cells(r.a) * sizeof(float);
	int behind = 0;
	hydrology_process.catch_up(r.sa, true);
	for (size_t i = 0; i < sizeof calls / sizeof *calls; i++) {
		pair_step(&r, calls[i]);
		assert_memory_equal(r.a->layer[LAYER_HEIGHT], r.b->layer[LAYER_HEIGHT], n);
		if (memcmp(r.a->layer[LAYER_STREAM], r.b->layer[LAYER_STREAM], n) != 0) {
			unsigned char *blob = NULL;
			size_t len = 0;
			assert_int_equal(hydrology_process.save_state(r.sa, &blob, &len), GULLY_EINVAL);
			assert_null(blob);
			behind++;
		}
		if (i == 5) { /* whole halfway, lagging again after */
			hydrology_process.catch_up(r.sa, false);
			assert_same_world(r.a, r.b);
			hydrology_process.catch_up(r.sa, true);
		}
	}
	assert_true(behind > 0); /* the layer did lag */
	hydrology_process.catch_up(r.sa, false);
	assert_same_world(r.a, r.b);
	assert_same_process_state(&hydrology_process, r.sa, r.sb);
	/* Settled without lag, step() ends whole again. */
	pair_step(&r, 300);
	assert_same_world(r.a, r.b);
	pair_close(&r);
}

static void test_catch_up_lag_is_the_pass(void **state)
{
	(void)state;
	catch_up_lag_is_the_pass(1);
	catch_up_lag_is_the_pass(2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lazy_is_the_pass),
		cmocka_unit_test(test_process_lazy_is_the_pass),
		cmocka_unit_test(test_catch_up_lag_is_the_pass),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
