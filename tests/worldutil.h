/* Two worlds the same bit for bit: every layer, the tallies and the
 * counters (not the random stream: callers say what they expect of it). */
#ifndef GULLY_TESTS_WORLDUTIL_H
#define GULLY_TESTS_WORLDUTIL_H

#include "core/base/world.h"

static inline void assert_same_world(const struct world *x, const struct world *y)
{
	size_t n = world_cells(x) * sizeof(float);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(x->layer[l], y->layer[l], n);
	assert_memory_equal(x->tally, y->tally, sizeof x->tally);
	assert_int_equal(x->particles, y->particles);
	assert_int_equal(x->steps, y->steps);
}

#endif
