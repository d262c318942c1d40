/* hydrology's seed options (presets/seed-hydrology-2020.yaml): the 2020
 * normal, walls and the seed's wrap at the map edge, the seed's drain and
 * leak choice, on hand-built terrains. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/hydrology/flood.h"
#include "core/hydrology/hydrology.h"
#include "core/base/normal.h"
#include "core/terrain/terrain.h"

/* A plane h = a x + b y: the four cross products sum to (-4 s a, 4, -4 s b)
 * inside, so the normal is (-s a, 1, -s b) normalised. */
static void test_normal2020_plane(void **state)
{
	(void)state;
	enum { W = 8, H = 6 };
	float h[W * H];
	const float a = 0.25f, b = -0.125f, s = 4.0f; /* exact in float */
	for (int y = 0; y < H; y++)
		for (int x = 0; x < W; x++)
			h[y * W + x] = a * (float)x + b * (float)y;
	for (int y = 1; y < H - 1; y++)
		for (int x = 1; x < W - 1; x++) {
			float n[3];
			normal_2020(h, W, H, x, y, s, n);
			double len = sqrt(1.0 + (double)(s * a) * (s * a) + (double)(s * b) * (s * b));
			assert_double_equal(n[0], -s * a / len, 1e-6);
			assert_double_equal(n[1], 1.0 / len, 1e-6);
			assert_double_equal(n[2], -s * b / len, 1e-6);
		}
	/* On the left edge the missing neighbour counts as level with the
	 * cell: x's sum is half of inside's, (-2 s a, 4, -4 s b). */
	float n[3];
	normal_2020(h, W, H, 0, 2, s, n);
	double len = sqrt(16.0 + 4.0 * (s * a) * (s * a) + 16.0 * (s * b) * (s * b));
	assert_double_equal(n[0], -2.0 * s * a / len, 1e-6);
	assert_double_equal(n[1], 4.0 / len, 1e-6);
	assert_double_equal(n[2], -4.0 * s * b / len, 1e-6);
	/* A corner has only one neighbour per axis. */
	normal_2020(h, W, H, W - 1, H - 1, s, n);
	len = sqrt(16.0 + 4.0 * (s * a) * (s * a) + 4.0 * (s * b) * (s * b));
	assert_double_equal(n[0], -2.0 * s * a / len, 1e-6);
	assert_double_equal(n[2], -2.0 * s * b / len, 1e-6);
}

/* Only axis neighbours count: raising the four diagonals leaves the 2020
 * normal flat, and a pit's centre is flat by symmetry; the particles
 * normal sees the diagonals. */
static void test_normal2020_ignores_diagonals(void **state)
{
	(void)state;
	float h[9] = {1, 0, 1, 0, 0, 0, 1, 0, 1};
	float n[3];
	normal_2020(h, 3, 3, 1, 1, 40.0f, n);
	assert_true(n[0] == 0.0f && n[2] == 0.0f && n[1] == 1.0f);
	float k[9] = {0, 0, 0, 0, 0, 1, 0, 0, 0}; /* only +x raised */
	normal_2020(k, 3, 3, 1, 1, 1.0f, n);
	assert_true(n[0] < 0.0f && n[2] == 0.0f); /* pushed toward -x */
}

/* normal=2020wrap: past the last row the +y neighbour is the next column's
 * first row, past the first row the -y neighbour the previous column's
 * last row; off the array it is level. Everywhere else it is normal_2020. */
static void test_normal2020_wrap(void **state)
{
	(void)state;
	enum { W = 8, H = 6 };
	float h[W * H] = {0};
	const float s = 4.0f;
	h[3] = 1.0f; /* (3, 0) */
	h[0] = 1.0f; /* (0, 0): only a cell past the array's end would see it */
	float n[3], m[3];
	/* (2, H-1): its +y neighbour is (3, 0), one higher: n = (0, 4, -2s)/len. */
	normal_2020_wrap(h, W, H, 2, H - 1, s, n);
	double len = sqrt(16.0 + 4.0 * s * s);
	assert_double_equal(n[0], 0.0, 0);
	assert_double_equal(n[1], 4.0 / len, 1e-6);
	assert_double_equal(n[2], -2.0 * s / len, 1e-6);
	normal_2020(h, W, H, 2, H - 1, s, m);
	assert_true(m[0] == 0.0f && m[1] == 1.0f && m[2] == 0.0f);
	/* (4, 1)'s neighbours are all on the map: the same bits. (3, H-1)'s
	 * +y is (4, 0), level: flat. (W-1, H-1)'s +y is off the array. */
	const int same[][2] = {{4, 1}, {3, H - 1}, {W - 1, H - 1}, {2, 2}};
	for (size_t k = 0; k < sizeof same / sizeof same[0]; k++) {
		normal_2020_wrap(h, W, H, same[k][0], same[k][1], s, n);
		normal_2020(h, W, H, same[k][0], same[k][1], s, m);
		assert_memory_equal(n, m, sizeof n);
	}
	/* (4, 0): its -y neighbour is (3, H-1); raise that one to 0.5. With
	 * (3, 0) at 1 on its -x side: n = (2s, 4, s)/len. */
	h[(H - 1) * W + 3] = 0.5f;
	normal_2020_wrap(h, W, H, 4, 0, s, n);
	len = sqrt(16.0 + 4.0 * s * s + s * s);
	assert_double_equal(n[0], 2.0 * s / len, 1e-6);
	assert_double_equal(n[2], s / len, 1e-6);
	normal_2020(h, W, H, 4, 0, s, m);
	assert_double_equal(m[2], 0.0, 0);
}

enum { FW = 16, FH = 16, FN = FW * FH };

static struct flood_result pour16(float *h, float *pool, int cell, double water,
				  const struct flood_params *fp)
{
	struct flood *f;
	assert_int_equal(flood_create(&f, FW, FH), 0);
	struct flood_result r;
	assert_int_equal(flood_pour(f, h, pool, cell, water, NULL, fp, &r), 0);
	flood_destroy(f);
	return r;
}

/* edge=wrap's flood: a pit on the last row whose one lower neighbour is
 * across the wrap, (x + 1, 0), drains there; with a plain wall it fills.
 * And back: from the first row, (x - 1, H - 1) is a neighbour. */
static void test_flood_wrap_y(void **state)
{
	(void)state;
	static float h[FN], pool[FN];
	for (int i = 0; i < FN; i++)
		h[i] = 1.0f;
	const int pit = (FH - 1) * FW + 5, across = 6;
	h[pit] = 0.5f;
	h[across] = 0.2f;
	struct flood_params fp = {.drainage = 0.0, .sea_level = 1e30, .carry = INFINITY};
	struct flood_result r = pour16(h, pool, pit, 0.01, &fp);
	assert_int_equal(r.outcome, FLOOD_FILLED);
	memset(pool, 0, sizeof pool);
	fp.wrap_y = true;
	r = pour16(h, pool, pit, 0.01, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, across);
	assert_double_equal(r.poured, 0.0, 0);
	memset(pool, 0, sizeof pool);
	h[pit] = 0.1f; /* now the pit is lower: a pour at (6, 0) leaks to it */
	r = pour16(h, pool, across, 0.01, &fp);
	assert_int_equal(r.outcome, FLOOD_DRAIN);
	assert_int_equal(r.drain, pit);
}

/* leak=high: of two leaks below the level the higher drains; and
 * below_floor (drain_loss) lets a lake sink past its ground by the leak. */
static void test_leak_high_and_below_floor(void **state)
{
	(void)state;
	static float h[FN], pool[FN];
	for (int i = 0; i < FN; i++)
		h[i] = 1.0f;
	const int c = 8 * FW + 8;
	h[c] = 0.5f;
	h[c + 1] = 0.3f;
	h[c + FW - 1] = 0.2f;
	struct flood_params fp = {.drainage = 0.0, .sea_level = 1e30, .carry = INFINITY};
	struct flood_result r = pour16(h, pool, c, 1.0, &fp);
	assert_int_equal(r.drain, c + FW - 1);
	fp.leak_high = true;
	r = pour16(h, pool, c, 1.0, &fp);
	assert_int_equal(r.drain, c + 1);
	/* A two-cell lake at 0.7 over ground 0.5 (next to the leak at 0.3) and
	 * 0.35. Drainage 0.75 would take it to 0.7 - 0.75 (0.7 - 0.3) = 0.4;
	 * the floor holds it at 0.5 unless below_floor. */
	for (int i = 0; i < FN; i++)
		h[i] = 1.0f;
	h[c] = 0.5f;
	h[c - 1] = 0.35f;
	h[c + 1] = 0.3f;
	struct flood_params dr = {.drainage = 0.75, .sea_level = 1e30, .carry = INFINITY};
	for (int below = 0; below < 2; below++) {
		memset(pool, 0, sizeof pool);
		pool[c] = 0.2f;
		pool[c - 1] = 0.35f;
		dr.below_floor = below;
		r = pour16(h, pool, c, 0.0, &dr);
		assert_int_equal(r.outcome, FLOOD_DRAIN);
		assert_double_equal(r.level, below ? 0.4 : 0.5, 1e-6);
		assert_double_equal(pool[c - 1], below ? 0.05 : 0.15, 1e-6);
		assert_double_equal(r.poured, 0.0, 0);
		assert_true(r.gained < 0);
	}
}

static void test_choices_match_enums(void **state)
{
	(void)state;
	const struct param_def *d = params_def(params_find("hydrology.normal"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_NORMAL_COUNT);
	assert_int_equal(params_choice_find(d, "particles"), HYDROLOGY_NORMAL_PARTICLES);
	assert_int_equal(params_choice_find(d, "2020"), HYDROLOGY_NORMAL_2020);
	assert_int_equal(params_choice_find(d, "2020wrap"), HYDROLOGY_NORMAL_2020_WRAP);
	d = params_def(params_find("hydrology.edge"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_EDGE_COUNT);
	assert_int_equal(params_choice_find(d, "sea"), HYDROLOGY_EDGE_SEA);
	assert_int_equal(params_choice_find(d, "wall"), HYDROLOGY_EDGE_WALL);
	assert_int_equal(params_choice_find(d, "wrap"), HYDROLOGY_EDGE_WRAP);
	d = params_def(params_find("hydrology.leak"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_LEAK_COUNT);
	assert_int_equal(params_choice_find(d, "high"), HYDROLOGY_LEAK_HIGH);
}

/* A bowl whose lowest point is one cell in from the left edge: droplets
 * stop in the pit and pour there. With the edge a sea at 0 (below all the
 * ground), a lake that reaches the edge drains into it and stays a puddle;
 * with a wall it rises against the edge and holds the water. */
static void bowl_run(int edge, bool drain_loss, double *volume, int *edge_cells,
		     struct world **out)
{
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = 32;
	p.terrain.generator = TERRAIN_FLAT; /* the bowl is drawn below */
	p.terrain.vertical_scale = 40;
	p.hydrology.edge = edge;
	p.hydrology.drain_loss = drain_loss;
	p.hydrology.coupling = HYDROLOGY_NONE;
	p.hydrology.deposition_rate = 0;
	p.hydrology.pit_dry = false; /* the pit is off the streams: pour there */
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, &p), 0);
	for (int y = 0; y < 32; y++)
		for (int x = 0; x < 32; x++) {
			double dx = x - 1, dy = y - 16;
			w->layer[LAYER_HEIGHT][y * 32 + x] = (float)(0.1 + 0.002 * (dx * dx + dy * dy));
		}
	void *st = NULL;
	assert_int_equal(hydrology_process.create(&st, w, &p), 0);
	struct process_report rep;
	assert_int_equal(hydrology_process.step(st, w, &p, 3000, &rep), 0);
	hydrology_process.destroy(st);
	*volume = 0;
	*edge_cells = 0;
	for (int i = 0; i < 32 * 32; i++) {
		*volume += w->layer[LAYER_POOL][i];
		*edge_cells += i % 32 == 0 && w->layer[LAYER_POOL][i] > 0;
	}
	/* Water books: what fell is in pools, evaporated or off the map. */
	double in = w->tally[TALLY_WATER_IN];
	double books = *volume + w->tally[TALLY_WATER_EVAPORATED] + w->tally[TALLY_WATER_OFF_MAP];
	assert_double_equal(in, books, 1e-9 * in);
	*out = w;
}

static void test_edge_wall_holds_lakes(void **state)
{
	(void)state;
	double v_sea, v_wall;
	int e_sea, e_wall;
	struct world *sea, *wall;
	bowl_run(HYDROLOGY_EDGE_SEA, false, &v_sea, &e_sea, &sea);
	bowl_run(HYDROLOGY_EDGE_WALL, false, &v_wall, &e_wall, &wall);
	assert_int_equal(e_sea, 0);
	assert_true(e_wall > 0);
	assert_true(v_wall > 4 * v_sea);
	assert_true(sea->tally[TALLY_WATER_OFF_MAP] > wall->tally[TALLY_WATER_OFF_MAP]);
	/* Against the wall the lake is level: every pool cell's surface is the
	 * same to float rounding. */
	double level = -1;
	for (int i = 0; i < 32 * 32; i++) {
		if (!(wall->layer[LAYER_POOL][i] > 0))
			continue;
		double s = (double)wall->layer[LAYER_HEIGHT][i] + wall->layer[LAYER_POOL][i];
		if (level < 0)
			level = s;
		assert_double_equal(s, level, 1e-5);
	}
	world_destroy(sea);
	world_destroy(wall);
}

/* The seed's edge (wrap: x edges stay walls) and drain_loss keep the water
 * books (bowl_run checks them) and the lake against the left edge. */
static void test_wrap_and_drain_loss_keep_books(void **state)
{
	(void)state;
	double v;
	int e;
	struct world *w;
	bowl_run(HYDROLOGY_EDGE_WRAP, true, &v, &e, &w);
	assert_true(e > 0 && v > 0);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal2020_plane),
		cmocka_unit_test(test_normal2020_ignores_diagonals),
		cmocka_unit_test(test_choices_match_enums),
		cmocka_unit_test(test_edge_wall_holds_lakes),
		cmocka_unit_test(test_normal2020_wrap),
		cmocka_unit_test(test_flood_wrap_y),
		cmocka_unit_test(test_leak_high_and_below_floor),
		cmocka_unit_test(test_wrap_and_drain_loss_keep_books),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
