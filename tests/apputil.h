/* An explorer session without a screen, for the tests of src/tui: defaults,
 * a size x size world and the named process; two worlds compared bit for
 * bit; a temporary directory. */
#ifndef GULLY_TESTS_APPUTIL_H
#define GULLY_TESTS_APPUTIL_H

#include <stdio.h>
#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"

/* The same with world.seed set first (seed < 0: the default seed). */
static inline struct app *test_new_app_seeded(const char *process, int size, int seed)
{
	struct app *a = calloc(1, sizeof *a);
	assert_non_null(a);
	params_defaults(&a->params);
	a->params.world.width = a->params.world.height = size;
	if (seed >= 0)
		a->params.world.seed = seed;
	char err[256];
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	assert_int_equal(session_set_process(a, process_find(process), err, sizeof err), GULLY_OK);
	return a;
}

static inline struct app *test_new_app(const char *process, int size)
{
	return test_new_app_seeded(process, size, -1);
}

static inline void test_free_app(struct app *a)
{
	session_free(a);
	free(a);
}

/* Two worlds bit for bit: layers, tallies, random stream and counters. */
static inline void assert_worlds_equal(const struct world *x, const struct world *y)
{
	assert_int_equal(x->width, y->width);
	assert_int_equal(x->height, y->height);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(x->layer[l], y->layer[l], world_cells(x) * sizeof(float));
	assert_memory_equal(x->tally, y->tally, sizeof x->tally);
	assert_memory_equal(&x->rng, &y->rng, sizeof x->rng);
	assert_true(x->particles == y->particles);
	assert_true(x->steps == y->steps);
}

/* A fresh directory /tmp/gully-test-TAG-XXXXXX for a test group's files,
 * and its removal; 0 on success, as cmocka's setup and teardown return. */
static inline int tmpdir_make(char *dir, size_t len, const char *tag)
{
	snprintf(dir, len, "/tmp/gully-test-%s-XXXXXX", tag);
	return mkdtemp(dir) ? 0 : -1;
}

static inline int tmpdir_remove(const char *dir)
{
	char cmd[160];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

#endif
