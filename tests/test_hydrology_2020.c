/* hydrology's seed options (presets/seed-hydrology-2020.yaml): the 2020
 * normal and walls at the map edge, on hand-built terrains. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

static void test_choices_match_enums(void **state)
{
	(void)state;
	const struct param_def *d = params_def(params_find("hydrology.normal"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_NORMAL_COUNT);
	assert_int_equal(params_choice_find(d, "particles"), HYDROLOGY_NORMAL_PARTICLES);
	assert_int_equal(params_choice_find(d, "2020"), HYDROLOGY_NORMAL_2020);
	d = params_def(params_find("hydrology.edge"));
	assert_non_null(d);
	assert_int_equal(params_choice_count(d), HYDROLOGY_EDGE_COUNT);
	assert_int_equal(params_choice_find(d, "sea"), HYDROLOGY_EDGE_SEA);
	assert_int_equal(params_choice_find(d, "wall"), HYDROLOGY_EDGE_WALL);
}

/* A bowl whose lowest point is one cell in from the left edge: droplets
 * stop in the pit and pour there. With the edge a sea at 0 (below all the
 * ground), a lake that reaches the edge drains into it and stays a puddle;
 * with a wall it rises against the edge and holds the water. */
static void bowl_run(int edge, double *volume, int *edge_cells, struct world **out)
{
	struct params p;
	params_defaults(&p);
	p.world.width = p.world.height = 32;
	p.terrain.generator = TERRAIN_FLAT; /* the bowl is drawn below */
	p.terrain.vertical_scale = 40;
	p.hydrology.edge = edge;
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
	bowl_run(HYDROLOGY_EDGE_SEA, &v_sea, &e_sea, &sea);
	bowl_run(HYDROLOGY_EDGE_WALL, &v_wall, &e_wall, &wall);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_normal2020_plane),
		cmocka_unit_test(test_normal2020_ignores_diagonals),
		cmocka_unit_test(test_choices_match_enums),
		cmocka_unit_test(test_edge_wall_holds_lakes),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
