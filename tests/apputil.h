/* An explorer session without a screen, for the tests of src/tui: defaults,
 * a size x size world and the named process. */
#ifndef GULLY_TESTS_APPUTIL_H
#define GULLY_TESTS_APPUTIL_H

#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"

static inline struct app *test_new_app(const char *process, int size)
{
	struct app *a = calloc(1, sizeof *a);
	assert_non_null(a);
	params_defaults(&a->params);
	a->params.world.width = a->params.world.height = size;
	char err[256];
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	assert_int_equal(session_set_process(a, process_find(process), err, sizeof err), GULLY_OK);
	return a;
}

static inline void test_free_app(struct app *a)
{
	session_free(a);
	free(a);
}

#endif
