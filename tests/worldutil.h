/* Two worlds the same bit for bit: every layer, the tallies and the
 * counters (not the random stream: callers say what they expect of it);
 * and two states of a process the same. */
#ifndef GULLY_TESTS_WORLDUTIL_H
#define GULLY_TESTS_WORLDUTIL_H

#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/process.h"
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

/* Two states of one process the same: their snapshot blobs, byte for byte. */
static inline void assert_same_process_state(const struct process_ops *ops, const void *a,
					     const void *b)
{
	unsigned char *ba, *bb;
	size_t la, lb;
	assert_int_equal(ops->save_state(a, &ba, &la), GULLY_OK);
	assert_int_equal(ops->save_state(b, &bb, &lb), GULLY_OK);
	assert_int_equal(la, lb);
	assert_memory_equal(ba, bb, la);
	free(ba);
	free(bb);
}

#endif
