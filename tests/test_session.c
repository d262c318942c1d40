/* The explorer's curses-free parts: the session (world, process, panel list)
 * and the traced droplets, which must never change the map. */
#include "testutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "tui/app.h"
#include "apputil.h"

static struct app *new_app(void)
{
	return test_new_app(process_get(0)->name, 64);
}

static void free_app(struct app *a)
{
	test_free_app(a);
}

/* The process's parameters, then the view's, the terrain's, the hardness
 * map's and the world's, each section whole (SPH's 83 too), in order. */
static void test_panel_lists_process_then_view(void **state)
{
	(void)state;
	struct app *a = new_app();
	for (int p = 0; p < process_count(); p++) {
		const struct process_ops *ops = process_get(p);
		char err[256];
		assert_int_equal(session_set_process(a, ops, err, sizeof err), GULLY_OK);
		const char *names[] = {ops->section, "view", "terrain", "hardness", "world"};
		int at = 0;
		for (int k = 0; k < 5; k++) {
			struct param_section sec;
			assert_true(params_section(params_section_find(names[k]), &sec));
			for (int i = 0; i < sec.count; i++)
				assert_int_equal(a->plist[at++], sec.first + i);
		}
		assert_int_equal(a->nparams, at);
	}
	free_app(a);
}

/* Switching process lands the droplets particles had in flight: none of
 * their soil is lost with the old state. */
static void test_switching_process_lands_droplets_in_flight(void **state)
{
	(void)state;
	struct app *a = new_app();
	uint64_t done = 0;
	assert_int_equal(session_step(a, 700, &done), GULLY_OK);
	const double *t = a->world->tally;
	assert_true(t[TALLY_SEDIMENT_IN_FLIGHT] != 0);
	char err[256];
	assert_int_equal(session_set_process(a, process_find("hydrology"), err, sizeof err),
			 GULLY_OK);
	assert_true(t[TALLY_SEDIMENT_IN_FLIGHT] == 0);
	double er = t[TALLY_ERODED], de = t[TALLY_DEPOSITED];
	assert_true(fabs((er - de) - t[TALLY_SEDIMENT_OFF_MAP]) <= 1e-6 * er);
	free_app(a);
}

static void test_tracers_do_not_change_the_world(void **state)
{
	(void)state;
	struct app *a = new_app();
	uint64_t done;
	assert_int_equal(session_step(a, 200, &done), GULLY_OK);
	assert_true(a->dirty);
	struct world *before;
	assert_int_equal(world_clone(&before, a->world), GULLY_OK);
	for (int i = 0; i < 200; i++)
		tracer_advance(a, 5);
	assert_true(a->npoints > 0);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(a->world->layer[l], before->layer[l],
				    world_cells(before) * sizeof(float));
	assert_memory_equal(a->world->tally, before->tally, sizeof before->tally);
	assert_memory_equal(&a->world->rng, &before->rng, sizeof before->rng);
	assert_true(a->world->particles == before->particles);
	/* The points are on the map. */
	for (int i = 0; i < a->npoints; i++) {
		assert_true(a->points[i].x >= 0 && a->points[i].x < 64);
		assert_true(a->points[i].y >= 0 && a->points[i].y < 64);
	}
	world_destroy(before);
	free_app(a);
}

static void test_new_world_follows_the_seed(void **state)
{
	(void)state;
	struct app *a = new_app(), *b = new_app();
	assert_memory_equal(a->world->layer[LAYER_HEIGHT], b->world->layer[LAYER_HEIGHT],
			    64 * 64 * sizeof(float));
	char err[256];
	b->params.world.seed++;
	assert_int_equal(session_new_world(b, err, sizeof err), GULLY_OK);
	assert_true(memcmp(a->world->layer[LAYER_HEIGHT], b->world->layer[LAYER_HEIGHT],
			   64 * 64 * sizeof(float)) != 0);
	/* A world too big is refused with a message, and the old one stays. */
	struct world *kept = b->world;
	b->params.world.width = 100000;
	assert_int_not_equal(session_new_world(b, err, sizeof err), GULLY_OK);
	assert_ptr_equal(b->world, kept);
	assert_true(strlen(err) > 0);
	free_app(a);
	free_app(b);
}

/* A frame stops the simulation for its catch-up and its composing: while
 * running, frames come no oftener than a quarter of the time allows; a cheap
 * frame, a paused session, or a rate the user chose keeps the rate (pace.c). */
static void test_frames_paced_by_what_they_cost(void **state)
{
	(void)state;
	struct app *a = calloc(1, sizeof *a);
	assert_non_null(a);
	a->fps = 20;
	a->running = true;
	/* 2 ms a frame: 20 frames a second take 4% of the time. */
	a->taken_at = app_now() - 0.001;
	a->whole_seconds = 0.001;
	assert_true(fabs(pace_interval(a) - 0.05) < 1e-12);
	/* 50 ms a frame (a 4096x4096 map): one frame in 200 ms at most. */
	a->frame_cost = 0;
	a->taken_at = app_now() - 0.03;
	a->whole_seconds = 0.02;
	const double slow = pace_interval(a);
	assert_true(slow >= 0.2 && slow < 0.21);
	/* Smoothed: one cheap frame after it does not bring 20 back at once. */
	a->taken_at = app_now();
	a->whole_seconds = 0;
	const double after = pace_interval(a);
	assert_true(after > 0.13 && after < slow);
	/* Paused, a frame is drawn for a key or a change: the chosen rate. */
	a->running = false;
	a->taken_at = app_now() - 0.03;
	a->whole_seconds = 0.02;
	assert_true(fabs(pace_interval(a) - 0.05) < 1e-12);
	/* A rate the user chose (--fps, f, F) holds, costly frames or not. */
	a->running = true;
	a->fps_asked = true;
	a->taken_at = app_now() - 0.03;
	assert_true(fabs(pace_interval(a) - 0.05) < 1e-12);
	a->fps_asked = false;
	assert_true(pace_interval(a) > 0.13);
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_panel_lists_process_then_view),
		cmocka_unit_test(test_tracers_do_not_change_the_world),
		cmocka_unit_test(test_switching_process_lands_droplets_in_flight),
		cmocka_unit_test(test_new_world_follows_the_seed),
		cmocka_unit_test(test_frames_paced_by_what_they_cost),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
