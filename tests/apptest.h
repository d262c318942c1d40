/* The explorer's session for curses-free tests: one way to make one, free
 * it and compare two worlds bit for bit (test_session, test_explorer,
 * test_safe). Include after testutil.h. */
#ifndef GULLY_APPTEST_H
#define GULLY_APPTEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"

/* A size x size world of `seed` running `process` (NULL: the default). */
static inline struct app *app_new(const char *process, int size, int seed)
{
	struct app *a = calloc(1, sizeof *a);
	assert_non_null(a);
	params_defaults(&a->params);
	a->params.world.width = a->params.world.height = size;
	if (seed >= 0)
		a->params.world.seed = seed;
	char err[256];
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	const struct process_ops *p = process ? process_find(process) : process_get(0);
	assert_non_null(p);
	assert_int_equal(session_set_process(a, p, err, sizeof err), GULLY_OK);
	return a;
}

static inline void app_free(struct app *a)
{
	session_free(a);
	free(a);
}

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
