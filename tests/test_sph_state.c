/* The sph state beside the fluid. The soil's wet box: the soil's work is
 * bounded by it, so it must hold all the water (outside it both buffers are
 * empty), shrink to the water as the ground dries, and leave the wetness
 * layer exact on the whole map however a run is cut into calls (the layer
 * is written only when a call settles). The water layer, cleared where it
 * was written. The saved blob: refused when its water lies outside its box;
 * its totals read without making a state. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/bytes.h"
#include "core/base/params.h"
#include "core/base/process.h"
#include "core/sph/sph.h"
#include "core/base/world.h"
#include "sph_fixture.h"

static const struct sph_box no_box = {0, 0, -1, -1};

static bool box_empty(const struct sph_box *b)
{
	return b->x1 < b->x0;
}

static long box_area(const struct sph_box *b)
{
	return box_empty(b) ? 0 : (long)(b->x1 - b->x0 + 1) * (b->y1 - b->y0 + 1);
}

static bool cell_wet(const int32_t *water, const struct sph *s, int x, int y)
{
	const int32_t *q = water + ((size_t)y * (size_t)s->width + (size_t)x) * SPH_PORES;
	for (int k = 0; k < SPH_PORES; k++)
		if (q[k])
			return true;
	return false;
}

/* The box the water fills, found by reading the whole map. */
static struct sph_box water_box(const struct sph *s, const int32_t *water)
{
	struct sph_box b = no_box;
	for (int y = 0; y < s->height; y++)
		for (int x = 0; x < s->width; x++)
			if (cell_wet(water, s, x, y)) {
				if (box_empty(&b)) {
					b = (struct sph_box){x, y, x, y};
					continue;
				}
				b.x0 = x < b.x0 ? x : b.x0;
				b.x1 = x > b.x1 ? x : b.x1;
				b.y0 = y < b.y0 ? y : b.y0;
				b.y1 = y > b.y1 ? y : b.y1;
			}
	return b;
}

/* After a call that settled: the box is exactly the water's, the spare
 * buffer is empty outside it, and every cell's wetness is its saturation. */
static void assert_box_exact(const struct sph *s, const struct world *w, int call)
{
	struct sph_box b = water_box(s, s->water);
	bool same = box_empty(&b) ? box_empty(&s->wet)
				  : memcmp(&b, &s->wet, sizeof b) == 0;
	if (!same)
		fail_msg("call %d: wet box %d,%d-%d,%d, water in %d,%d-%d,%d", call, s->wet.x0,
			 s->wet.y0, s->wet.x1, s->wet.y1, b.x0, b.y0, b.x1, b.y1);
	for (int y = 0; y < s->height; y++)
		for (int x = 0; x < s->width; x++) {
			bool inside = x >= b.x0 && x <= b.x1 && y >= b.y0 && y <= b.y1;
			if (!inside && cell_wet(s->water_next, s, x, y))
				fail_msg("call %d: spare buffer holds water at %d,%d", call, x, y);
			float want = (float)sph_saturation(s, x, y);
			float got = *world_at(w->layer[LAYER_WETNESS], w, x, y);
			if (got != want)
				fail_msg("call %d: wetness %g at %d,%d, saturation %g", call, got, x, y,
					 want);
		}
}

/* A jet wets the ground, stops, and the water soaks in and dries: calls of
 * 1, 7 and 30 steps (so steps settle both with and without the layer). */
static void test_box_follows_the_water(void **unused)
{
	(void)unused;
	for (int threads = 1; threads <= 2; threads++) {
		struct params p;
		sph_fixture_params(&p, 40, 36);
		p.world.threads = threads;
		p.sph.jet1_on = 1;
		p.sph.jet1_height = 3;
		p.sph.jet1_speed = 4;
		p.sph.absorb_rate = 4;
		p.sph.dry_rate = 1;
		struct world *w;
		struct sph *s;
		sph_fixture_make(&p, &w, &s);
		const uint64_t cuts[] = {1, 7, 30};
		long widest = 0, steps = 0;
		int call = 0;
		while (steps < 3000) {
			if (steps >= 300 && p.sph.jet1_on)
				p.sph.jet1_on = 0, sph_config_from(&s->cfg, &p);
			uint64_t done = 0, cut = cuts[call % 3];
			assert_int_equal(sph_run(s, w, cut, &done), GULLY_OK);
			steps += (long)done;
			assert_box_exact(s, w, call++);
			widest = box_area(&s->wet) > widest ? box_area(&s->wet) : widest;
		}
		assert_true(s->books.absorbed > 0 && s->books.water_dried > 0);
		/* It grew while the jet ran, and gave most of that back. */
		assert_true(widest >= 16);
		if (!(box_area(&s->wet) * 4 <= widest))
			fail_msg("%d threads: box of %ld cells at the end, %ld at its widest", threads,
				 box_area(&s->wet), widest);
		sph_destroy(s);
		world_destroy(w);
	}
}

/* A snapshot whose water lies outside its own wet box is refused. */
static void test_load_refuses_water_outside_the_box(void **unused)
{
	(void)unused;
	struct params p;
	sph_fixture_params(&p, 16, 16);
	struct world *w;
	struct sph *s;
	sph_fixture_make(&p, &w, &s);
	sph_soil_give(s, 8, 8, 1000);
	unsigned char *blob = NULL;
	size_t len = 0;
	assert_int_equal(sph_save(s, &blob, &len), GULLY_OK);
	struct sph *t;
	assert_int_equal(sph_create(&t, w, &p), GULLY_OK);
	assert_int_equal(sph_load(t, blob, len), GULLY_OK);
	assert_memory_equal(&t->wet, &s->wet, sizeof s->wet);
	/* The box's x1 (header word 7 after the magic, little-endian) moved left
	 * of the water. */
	memcpy(blob + 4 + 7 * 4, (const unsigned char[4]){7, 0, 0, 0}, 4);
	assert_int_equal(sph_load(t, blob, len), GULLY_EFORMAT);
	free(blob);
	sph_destroy(t);
	sph_destroy(s);
	world_destroy(w);
}

/* Offsets in a GSP2 blob (sph_state.c's layout): the ten books end the
 * header; each particle is six f32, its i64 mud, u32 id, u8 grounded; after
 * the particles, the count of cells whose ledger moved, then each such cell
 * as u32 index, f32 h0, i64 soil. */
#define BLOB_BOOKS (4 + 10 * 4 + 8 + 8 * (4 + SPH_JETS + 1))
#define BLOB_PARTICLES (BLOB_BOOKS + 10 * 8)
#define BLOB_PARTICLE (6 * 4 + 8 + 4 + 1)

/* Counts a run adds to: a loaded book, mud or soil ledger near the int64
 * limit overflowed (undefined behaviour) on the next steps' sums, so it is
 * refused, as is a cell's starting height outside the height range. */
static void test_load_refuses_counts_that_overflow(void **unused)
{
	(void)unused;
	struct params p;
	sph_fixture_params(&p, 16, 16);
	p.sph.jet1_on = 1;
	p.sph.jet1_height = 3;
	p.sph.jet1_speed = 8;
	struct world *w;
	struct sph *s;
	sph_fixture_make(&p, &w, &s);
	uint64_t done;
	assert_int_equal(sph_run(s, w, 200, &done), GULLY_OK);
	unsigned char *blob = NULL;
	size_t len = 0;
	assert_int_equal(sph_save(s, &blob, &len), GULLY_OK);
	assert_true(s->n > 0);
	const size_t ledger = BLOB_PARTICLES + (size_t)s->n * BLOB_PARTICLE;
	assert_true(get_u32le(blob + ledger) > 0); /* the jet dug: cells moved */
	const struct {
		const char *what;
		size_t at;
		int size;
		uint64_t v;
	} cases[] = {
		{"water_emitted at the int64 limit", BLOB_BOOKS, 8, (uint64_t)INT64_MAX},
		{"soil_terrain at the int64 floor", BLOB_BOOKS + 4 * 8, 8, (uint64_t)INT64_MIN},
		{"a particle's mud near the limit", BLOB_PARTICLES + 24, 8, (uint64_t)INT64_MAX - 5},
		{"a cell's soil ledger at the limit", ledger + 4 + 4 + 4, 8, (uint64_t)INT64_MAX},
		{"a cell's h0 of 1e30", ledger + 4 + 4, 4, 0x7149f2caU},
	};
	unsigned char *bad = malloc(len);
	assert_non_null(bad);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		memcpy(bad, blob, len);
		if (cases[i].size == 8)
			put_u64le(bad + cases[i].at, cases[i].v);
		else
			put_u32le(bad + cases[i].at, (uint32_t)cases[i].v);
		struct sph *t;
		assert_int_equal(sph_create(&t, w, &p), GULLY_OK);
		int rc = sph_load(t, bad, len);
		if (rc != GULLY_EFORMAT)
			fail_msg("%s: sph_load returned %d", cases[i].what, rc);
		sph_destroy(t);
	}
	/* The blob as saved still loads. */
	struct sph *t;
	assert_int_equal(sph_create(&t, w, &p), GULLY_OK);
	assert_int_equal(sph_load(t, blob, len), GULLY_OK);
	sph_destroy(t);
	free(bad);
	free(blob);
	sph_destroy(s);
	world_destroy(w);
}

/* The water layer is cleared only where its last write reached: after
 * every call it equals the layer a fresh state writes from the same blob
 * over a map of garbage (which clears the whole map first), as particles
 * fly, land and soak in. */
static void test_water_layer_clears_what_it_wrote(void **unused)
{
	(void)unused;
	struct params p;
	sph_fixture_params(&p, 40, 32);
	p.sph.jet1_on = 1;
	p.sph.jet1_height = 4;
	p.sph.jet1_elevation = -30;
	p.sph.absorb_rate = 4;
	struct world *w;
	struct sph *s;
	sph_fixture_make(&p, &w, &s);
	const size_t bytes = world_cells(w) * sizeof(float);
	long moved = 0;
	for (int call = 0; call < 40; call++) {
		if (call == 25)
			p.sph.jet1_on = 0, sph_config_from(&s->cfg, &p);
		uint64_t done;
		assert_int_equal(sph_run(s, w, 1 + (uint64_t)call % 9, &done), GULLY_OK);
		unsigned char *blob = NULL;
		size_t len = 0;
		assert_int_equal(sph_save(s, &blob, &len), GULLY_OK);
		struct world *w2;
		struct sph *s2;
		assert_int_equal(world_clone(&w2, w), GULLY_OK);
		for (size_t i = 0; i < world_cells(w2); i++)
			w2->layer[LAYER_POOL][i] = 7.0f;
		assert_int_equal(sph_create(&s2, w2, &p), GULLY_OK);
		assert_int_equal(sph_load(s2, blob, len), GULLY_OK);
		sph_water_layer(s2, w2);
		if (memcmp(w->layer[LAYER_POOL], w2->layer[LAYER_POOL], bytes) != 0)
			fail_msg("call %d: the water layer differs from a whole rewrite", call);
		moved += s->pool.x1 >= s->pool.x0;
		free(blob);
		sph_destroy(s2);
		world_destroy(w2);
	}
	assert_true(moved > 20 && s->books.absorbed > 0);
	sph_destroy(s);
	world_destroy(w);
}

/* The world's water tallies are the same however a run is cut into calls
 * (the explorer's are timed, a headless run's are chunks): each step's
 * water in and each tail's drying are added on their own, in step order. */
static void test_tallies_do_not_depend_on_calls(void **unused)
{
	(void)unused;
	struct params p;
	sph_fixture_params(&p, 32, 32);
	p.sph.jet1_on = 1;
	p.sph.jet1_height = 3;
	p.sph.rain = 400;
	p.sph.dry_rate = 0.5;
	p.sph.absorb_rate = 4;
	/* One call; 150 of one step (a slow explorer); uneven chunks. */
	const uint64_t cuts[3][6] = {{150, 0}, {1, 0}, {7, 50, 1, 62, 30, 0}};
	double tally[3][TALLY_COUNT];
	for (int run = 0; run < 3; run++) {
		struct world *w;
		void *state;
		assert_int_equal(world_from_params(&w, &p), GULLY_OK);
		assert_int_equal(sph_process.create(&state, w, &p), GULLY_OK);
		for (int k = 0; w->steps < 150; k = cuts[run][k + 1] ? k + 1 : k)
			assert_int_equal(sph_process.step(state, w, &p, cuts[run][k], NULL),
					 GULLY_OK);
		assert_true(w->steps == 150);
		memcpy(tally[run], w->tally, sizeof w->tally);
		sph_process.destroy(state);
		world_destroy(w);
	}
	assert_true(tally[0][TALLY_WATER_IN] > 0 && tally[0][TALLY_WATER_EVAPORATED] > 0);
	assert_memory_equal(tally[0], tally[1], sizeof tally[0]);
	assert_memory_equal(tally[0], tally[2], sizeof tally[0]);
}

/* The blob before sparse soil ("GSP1": every cell's h0, ledger and water),
 * made from a new one: its header and particles, then the cells. The sizes
 * are written out here on purpose: they are that old format's, fixed, not
 * whatever sph_state.c's become. */
static unsigned char *dense_blob(const struct sph *s, const unsigned char *sparse, size_t *len)
{
	const size_t head = 4 + 10 * 4 + 8 + 8 * (4 + SPH_JETS + 1) + 8 * 10;
	const size_t front = head + (size_t)s->n * (6 * 4 + 8 + 4 + 1);
	const size_t cells = (size_t)s->width * (size_t)s->height;
	*len = front + cells * (4 + 8 + SPH_PORES * 4);
	unsigned char *b = malloc(*len), *at = b + front;
	assert_non_null(b);
	memcpy(b, sparse, front);
	memcpy(b, "GSP1", 4);
	for (size_t i = 0; i < cells; i++) {
		put_f32le(at, s->h0[i]);
		put_u64le(at + 4, (uint64_t)s->soil[i]);
		at += 12;
		for (int k = 0; k < SPH_PORES; k++, at += 4)
			put_u32le(at, (uint32_t)s->water[i * SPH_PORES + (size_t)k]);
	}
	return b;
}

/* A jet from 3 cells up on a 24x20 map, run `steps` steps. */
static void small_jet(struct params *p, struct world **w, struct sph **s, int steps)
{
	sph_fixture_params(p, 24, 20);
	p->sph.jet1_on = 1;
	p->sph.jet1_height = 3;
	sph_fixture_make(p, w, s);
	sph_fixture_run(*s, *w, steps);
}

/* A snapshot from before the sparse soil loads, and goes on to the same bits
 * as the state saved now; a used state takes no blob. */
static void test_dense_blob_still_loads(void **unused)
{
	(void)unused;
	struct params p;
	struct world *w;
	struct sph *s;
	small_jet(&p, &w, &s, 120);
	unsigned char *blob[2];
	size_t len[2];
	assert_int_equal(sph_save(s, &blob[0], &len[0]), GULLY_OK);
	blob[1] = dense_blob(s, blob[0], &len[1]);
	assert_true(len[0] < len[1]);
	struct world *wk[2];
	struct sph *sk[2];
	for (int k = 0; k < 2; k++) {
		assert_int_equal(world_clone(&wk[k], w), GULLY_OK);
		assert_int_equal(sph_create(&sk[k], wk[k], &p), GULLY_OK);
		assert_int_equal(sph_load(sk[k], blob[k], len[k]), GULLY_OK);
		assert_int_equal(sph_load(sk[k], blob[k], len[k]), GULLY_EINVAL);
		sph_fixture_run(sk[k], wk[k], 60);
	}
	sph_fixture_run(s, w, 60);
	unsigned char *after[3];
	size_t alen[3];
	const struct sph *all[3] = {s, sk[0], sk[1]};
	for (int k = 0; k < 3; k++)
		assert_int_equal(sph_save(all[k], &after[k], &alen[k]), GULLY_OK);
	for (int k = 1; k < 3; k++) {
		assert_int_equal(alen[k], alen[0]);
		assert_memory_equal(after[k], after[0], alen[0]);
		assert_memory_equal(wk[k - 1]->layer[LAYER_HEIGHT], w->layer[LAYER_HEIGHT],
				    world_cells(w) * sizeof(float));
	}
	for (int k = 0; k < 3; k++)
		free(after[k]);
	for (int k = 0; k < 2; k++) {
		free(blob[k]);
		sph_destroy(sk[k]);
		world_destroy(wk[k]);
	}
	sph_destroy(s);
	world_destroy(w);
}

/* The summary gully info prints: the state's own counts and books, and a
 * blob cut short, or whose counts do not fit its length, refused. */
static void test_blob_summary(void **unused)
{
	(void)unused;
	struct params p;
	struct world *w;
	struct sph *s;
	small_jet(&p, &w, &s, 150);
	unsigned char *blob = NULL;
	size_t len = 0;
	assert_int_equal(sph_save(s, &blob, &len), GULLY_OK);
	struct sph_summary sum;
	assert_int_equal(sph_blob_summary(blob, len, &sum), GULLY_OK);
	assert_true(s->n > 0 && s->books.splash > 0);
	assert_int_equal(sum.particles, s->n);
	assert_int_equal(sum.released, s->next_id);
	assert_true(sum.steps == 150 && sum.time == s->time);
	assert_memory_equal(&sum.books, &s->books, sizeof s->books);
	assert_memory_equal(&sum.wet, &s->wet, sizeof s->wet);
	assert_int_equal(sph_blob_summary(blob, len - 1, &sum), GULLY_EFORMAT);
	assert_int_equal(sph_blob_summary(blob, 40, &sum), GULLY_EFORMAT);
	blob[12] ^= 1; /* the particle count: the rest no longer fits the length */
	assert_int_equal(sph_blob_summary(blob, len, &sum), GULLY_EFORMAT);
	free(blob);
	sph_destroy(s);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_box_follows_the_water),
		cmocka_unit_test(test_load_refuses_water_outside_the_box),
		cmocka_unit_test(test_load_refuses_counts_that_overflow),
		cmocka_unit_test(test_blob_summary),
		cmocka_unit_test(test_dense_blob_still_loads),
		cmocka_unit_test(test_tallies_do_not_depend_on_calls),
		cmocka_unit_test(test_water_layer_clears_what_it_wrote),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
