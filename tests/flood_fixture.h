/* What the flood's tests share (test_flood, test_flood_halves,
 * test_flood_cache): a 16x16 map with its pools and its flood, walls at the
 * edge, and pours as a droplet makes them. */
#ifndef GULLY_TESTS_FLOOD_FIXTURE_H
#define GULLY_TESTS_FLOOD_FIXTURE_H

#include "testutil.h"

#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/rng.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/flood_heap.h"

enum { W = 16, H = 16, N = W * H };

struct map {
	float h[N], pool[N];
	struct flood *f;
};

static inline struct map *map_new(float wall)
{
	struct map *m = calloc(1, sizeof *m);
	assert_non_null(m);
	for (int i = 0; i < N; i++)
		m->h[i] = wall;
	assert_int_equal(flood_create(&m->f, W, H), 0);
	return m;
}

static inline void map_free(struct map *m)
{
	flood_destroy(m->f);
	free(m);
}

static inline int at(int x, int y)
{
	return y * W + x;
}

static inline void fill_rect(struct map *m, int x0, int y0, int x1, int y1, float v)
{
	for (int y = y0; y <= y1; y++)
		for (int x = x0; x <= x1; x++)
			m->h[at(x, y)] = v;
}

static inline double pool_sum(const struct map *m)
{
	double s = 0;
	for (int i = 0; i < N; i++)
		s += m->pool[i];
	return s;
}

/* Walls: the sea is above everything, so the edge holds water like the seed. */
static const struct flood_params walls = {.drainage = 0.0, .sea_level = 100.0, .carry = INFINITY};

static inline struct flood_result pour(struct map *m, int cell, double water,
				const struct flood_params *fp)
{
	struct flood_result r;
	assert_int_equal(flood_pour(m->f, m->h, m->pool, cell, water, NULL, fp, &r), 0);
	return r;
}

/* The same pour on two maps whose floods must agree (a with the lake
 * cache and b without, or a with the AVX2 level write and b without): the
 * same outcome, drain, lake, gain, level and water poured, bit for bit. */
static inline void pour_alike(struct map *a, struct map *b, int cell, double water,
			      const struct flood_settle *st, const struct flood_params *fp)
{
	struct flood_result ra, rb;
	assert_int_equal(flood_pour(a->f, a->h, a->pool, cell, water, st, fp, &ra), 0);
	assert_int_equal(flood_pour(b->f, b->h, b->pool, cell, water, st, fp, &rb), 0);
	assert_int_equal(ra.outcome, rb.outcome);
	assert_int_equal(ra.drain, rb.drain);
	assert_int_equal(ra.lake_cells, rb.lake_cells);
	assert_memory_equal(&ra.gained, &rb.gained, sizeof ra.gained);
	assert_memory_equal(&ra.level, &rb.level, sizeof ra.level);
	assert_memory_equal(&ra.poured, &rb.poured, sizeof ra.poured);
}

/* A cached pour (m[0]) gave what a fresh flood (m[1]) gives, bit for bit,
 * and m[0]'s records still describe its map. */
static inline void assert_same_pour(struct map *const m[2], const struct flood_result r[2])
{
	assert_int_equal(r[0].outcome, r[1].outcome);
	assert_int_equal(r[0].lake_cells, r[1].lake_cells);
	assert_memory_equal(&r[0].level, &r[1].level, sizeof r[0].level);
	assert_memory_equal(&r[0].gained, &r[1].gained, sizeof r[0].gained);
	assert_memory_equal(m[0]->pool, m[1]->pool, sizeof m[0]->pool);
	assert_int_equal(flood_check(m[0]->f, m[0]->h, m[0]->pool), 0);
}

/* The upper basin U (3x3 at 0.5) has a sill at 0.6 to a channel falling
 * 0.3, 0.2, 0.1 into the lower basin D (3x3 at 0). */
static inline void spill_map(struct map *m)
{
	fill_rect(m, 2, 2, 4, 4, 0.5f);
	m->h[at(5, 3)] = 0.6f;
	m->h[at(6, 3)] = 0.3f;
	m->h[at(7, 3)] = 0.2f;
	m->h[at(8, 3)] = 0.1f;
	fill_rect(m, 9, 2, 11, 4, 0.0f);
}

/* Pours like a droplet would: on from each leak with what is left. */
static inline struct flood_result pour_on(struct map *m, int cell, double water,
				   const struct flood_params *fp, int *hops)
{
	struct flood_result r;
	*hops = 0;
	for (;;) {
		r = pour(m, cell, water, fp);
		water -= r.gained;
		if (r.outcome != FLOOD_DRAIN)
			break;
		cell = r.drain;
		++*hops;
		assert_true(*hops < 10);
	}
	return r;
}

/* walls with the 2020 code's tries in every pour (halves and
 * halves_filled), no try with `stop` or less left. */
static inline struct flood_params with_halves(double stop)
{
	struct flood_params fp = walls;
	fp.halves = true;
	fp.halves_filled = true;
	fp.halves_stop = stop;
	return fp;
}

#endif
