/* Two worlds the same bit for bit: every layer, the tallies and the
 * counters (not the random stream: callers say what they expect of it);
 * two states of a process the same; a process made and run. */
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

/* A process's state for w, made or the test fails. */
static inline void *test_process_open(const struct process_ops *ops, struct world *w,
				      const struct params *p)
{
	void *st = NULL;
	assert_int_equal(ops->create(&st, w, p), GULLY_OK);
	return st;
}

/* n units of the process, all of them run, or the test fails. */
static inline void test_process_run(const struct process_ops *ops, void *st, struct world *w,
				    const struct params *p, uint64_t n)
{
	struct process_report rep;
	assert_int_equal(ops->step(st, w, p, n, &rep), GULLY_OK);
	assert_int_equal(rep.particles, n);
}

#endif
