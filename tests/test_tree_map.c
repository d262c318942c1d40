/* The cell-to-tree hash table (core/hydrology/tree_map.h) answers as a
 * plain array from cell to slot would, through growth, removals that shift
 * runs back across the table's end, the switch to an array of every cell
 * when the forest is dense, and clearing; so do its bits for runs of 16
 * cells holding a tree. */
#include "testutil.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/rng.h"
#include "core/hydrology/tree_map.h"

#define CELLS 3000u

/* Every cell's answer against the array's, and the table's invariants: at
 * most half full, every entry reachable from its home without a gap. */
static void check(const struct tree_map *m, const uint32_t *ref)
{
	size_t live = 0;
	for (uint32_t c = 0; c < CELLS; c++) {
		assert_int_equal(tree_map_get(m, c), ref[c]);
		live += ref[c] != 0;
	}
	assert_int_equal(m->n, live);
	/* A run's bit says whether a tree stands on one of its cells. */
	const uint32_t run = 1u << TREE_MAP_RUN_SHIFT;
	for (uint32_t first = 0; first < CELLS; first += run) {
		bool any = false;
		for (uint32_t c = first; c < first + run && c < CELLS; c++)
			any |= ref[c] != 0;
		assert_int_equal(tree_map_run_any(m, first + run - 1), any);
	}
	if (m->dense)
		return;
	assert_true(2 * m->n <= m->cap || !m->cap);
	size_t used = 0;
	for (size_t i = 0; i < m->cap; i++) {
		if (m->e[i].cell == TREE_MAP_EMPTY)
			continue;
		used++;
		assert_true(m->e[i].cell < CELLS);
		assert_int_equal(ref[m->e[i].cell], m->e[i].slot + 1);
	}
	assert_int_equal(used, live);
}

/* Whether some entry sits before its home, its run wrapped past the end. */
static bool wrapped(const struct tree_map *m)
{
	for (size_t i = 0; i < m->cap; i++) {
		uint32_t c = m->e[i].cell;
		if (c == TREE_MAP_EMPTY)
			continue;
		size_t home = (size_t)((uint64_t)c * 0x9e3779b97f4a7c15u >> 32) & (m->cap - 1);
		if (home > i)
			return true;
	}
	return false;
}

/* A tree on `c`, unless one stands there (put's precondition). */
static void put(struct tree_map *m, uint32_t *ref, uint32_t c, struct rng *r)
{
	if (ref[c])
		return;
	uint32_t slot = rng_below(r, 1u << 20);
	assert_int_equal(tree_map_put(m, c, slot), 0);
	ref[c] = slot + 1;
}

static void test_matches_an_array(void **state)
{
	(void)state;
	struct tree_map m;
	tree_map_init(&m, (size_t)1 << 22); /* a big map: the table never gets dense */
	uint32_t *ref = calloc(CELLS, sizeof *ref);
	assert_non_null(ref);
	assert_int_equal(tree_map_get(&m, 7), 0);
	tree_map_remove(&m, 7); /* an empty map: nothing to do */
	struct rng r;
	rng_seed(&r, 1, 2);
	/* Half full, the most it gets: long runs, many across the end. */
	while (m.n < 511)
		put(&m, ref, rng_below(&r, CELLS), &r);
	assert_int_equal(m.cap, 1024);
	int wraps = 0;
	for (int op = 0; op < 20000; op++) {
		uint32_t c = rng_below(&r, CELLS);
		if (ref[c]) {
			tree_map_remove(&m, c);
			ref[c] = 0;
		} else if (m.n < 511) {
			put(&m, ref, c, &r);
		}
		wraps += wrapped(&m);
		check(&m, ref);
	}
	assert_int_equal(m.cap, 1024);
	assert_true(wraps > 1000);
	/* Growth through 2048 and 4096 entries, then every tree gone. */
	while (m.n < 2100)
		put(&m, ref, rng_below(&r, CELLS), &r);
	check(&m, ref);
	assert_int_equal(m.cap, 8192);
	assert_null(m.dense);
	for (uint32_t c = 0; c < CELLS; c++) {
		tree_map_remove(&m, c);
		ref[c] = 0;
		if (c % 61 == 0)
			check(&m, ref);
	}
	check(&m, ref);
	for (int k = 0; k < 100; k++)
		put(&m, ref, rng_below(&r, CELLS), &r);
	tree_map_clear(&m);
	memset(ref, 0, CELLS * sizeof *ref);
	check(&m, ref);
	assert_int_equal(tree_map_put(&m, 5, 9), 0);
	assert_int_equal(tree_map_get(&m, 5), 10);
	tree_map_free(&m);
	assert_int_equal(tree_map_get(&m, 5), 0);
	free(ref);
}

/* On a map of CELLS cells the table may take 4 * CELLS bytes: past 512
 * trees (1024 entries of 8 bytes, the next size 16 KB against 12 KB) it is
 * the array. Clearing makes it a table again. */
static void test_a_dense_forest_is_an_array(void **state)
{
	(void)state;
	struct tree_map m;
	tree_map_init(&m, CELLS);
	uint32_t *ref = calloc(CELLS, sizeof *ref);
	assert_non_null(ref);
	struct rng r;
	rng_seed(&r, 3, 4);
	while (m.n < 512)
		put(&m, ref, rng_below(&r, CELLS), &r);
	check(&m, ref);
	assert_null(m.dense);
	put(&m, ref, 2999, &r);
	put(&m, ref, 0, &r);
	assert_non_null(m.dense);
	assert_null(m.e);
	check(&m, ref);
	for (int op = 0; op < 20000; op++) {
		uint32_t c = rng_below(&r, CELLS);
		if (ref[c]) {
			tree_map_remove(&m, c);
			ref[c] = 0;
		} else {
			put(&m, ref, c, &r);
		}
		c = rng_below(&r, CELLS); /* maybe none there: n must not move then */
		tree_map_remove(&m, c);
		ref[c] = 0;
		if (op % 500 == 0)
			check(&m, ref);
	}
	check(&m, ref);
	tree_map_clear(&m);
	memset(ref, 0, CELLS * sizeof *ref);
	assert_null(m.dense);
	check(&m, ref);
	put(&m, ref, 17, &r);
	check(&m, ref);
	assert_null(m.dense);
	tree_map_free(&m);
	free(ref);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matches_an_array),
		cmocka_unit_test(test_a_dense_forest_is_an_array),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
