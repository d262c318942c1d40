/* The explorer's hydrology trace runs the process's own code: followed
 * stage by stage to its end from the point the process would spawn its next
 * droplet, it leaves the same layers, tallies, counters, flood counters and
 * process state (track map, trees) as the process releasing that droplet,
 * bit for bit, across batch ends, pours and spills; and one descent step at
 * a time is hydrology_descend's descent, bit for bit. */
#include "testutil.h"
#include "worldutil.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/rain.h"
#include "core/base/rng.h"
#include "core/terrain/terrain.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/hydrology/hydrology_trace.h"

static void small_params(struct params *p, int size, int coupling)
{
	params_defaults(p);
	p->world.width = p->world.height = size;
	p->world.seed = 11;
	p->terrain.vertical_scale = 40;
	p->hydrology.batch = 7; /* batch ends fall inside the traced droplets */
	p->hydrology.coupling = coupling;
	p->hydrology.tree_spawn = 20;
	p->hydrology.tree_min_normal = 0.0;
	p->hydrology.pit_dry = false; /* pools in a short run */
}

static struct world *make_world(const struct params *p)
{
	struct world *w = NULL;
	assert_int_equal(world_from_params(&w, p), GULLY_OK);
	return w;
}

static void *make_state(struct world *w, const struct params *p)
{
	void *st = NULL;
	assert_int_equal(hydrology_process.create(&st, w, p), GULLY_OK);
	return st;
}

static void assert_same_state(void *a, void *b)
{
	struct hydrology_counters ca, cb;
	hydrology_counters(a, &ca);
	hydrology_counters(b, &cb);
	assert_int_equal(ca.flood_calls, cb.flood_calls);
	assert_int_equal(ca.flood_touched, cb.flood_touched);
	assert_int_equal(ca.flood_lake_cells, cb.flood_lake_cells);
	assert_int_equal(ca.flood_written, cb.flood_written);
	assert_int_equal(ca.flood_cached, cb.flood_cached);
	assert_int_equal(ca.trees, cb.trees);
	assert_same_process_state(&hydrology_process, a, b);
}

/* N droplets, each traced on one world and released by the process on a
 * twin: the two stay equal after every droplet. `lazy`: the traced world's
 * stream map is updated lazily and the twin's by the whole-map pass
 * (hydrology_stream.h), or the other way round. */
static void trace_equals_process(int coupling, int droplets, bool lazy)
{
	struct params p;
	small_params(&p, 48, coupling);
	struct world *traced = make_world(&p), *run = make_world(&p);
	void *st = make_state(traced, &p), *sr = make_state(run, &p);
	hydrology_set_stream_lazy(st, lazy);
	hydrology_set_stream_lazy(sr, !lazy);
	/* Some droplets first, so streams, pools and trees are there. */
	assert_int_equal(hydrology_process.step(st, traced, &p, 600, NULL), GULLY_OK);
	assert_int_equal(hydrology_process.step(sr, run, &p, 600, NULL), GULLY_OK);
	int steps = 0, stops = 0, pours = 0, ends = 0, off = 0;
	for (int k = 0; k < droplets; k++) {
		float x, y;
		world_spawn_point(traced, &x, &y);
		struct hydrology_trace *t;
		struct hydrology_trace_state s;
		assert_int_equal(hydrology_trace_start(&t, st, traced, &p, x, y, &s), GULLY_OK);
		assert_false(s.ended);
		assert_int_equal(s.steps, 0);
		int err = GULLY_OK, calls = 0;
		uint32_t last = 0;
		while (hydrology_trace_step(t, traced, &p, &s, &err)) {
			calls++;
			assert_true(s.steps >= last && s.steps <= last + 1);
			last = s.steps;
			if (s.event == HTRACE_STEP) {
				steps++;
				assert_true(s.c_eq >= 0);
				/* The height shown is the cell's own. */
				if (s.cell >= 0)
					assert_true(traced->layer[LAYER_HEIGHT][s.cell] == s.after ||
						    s.ended);
			}
			stops += s.event == HTRACE_STOP;
			if (s.event == HTRACE_POUR) {
				pours++;
				assert_true(s.lake_cells >= 1 || s.outcome == HTRACE_SEA);
			}
			if (s.ended)
				break;
		}
		assert_int_equal(err, GULLY_OK);
		assert_true(s.ended);
		assert_true(calls >= 1);
		ends++;
		off += s.off_map;
		/* Once ended, nothing more happens. */
		assert_false(hydrology_trace_step(t, traced, &p, &s, &err));
		hydrology_trace_free(t);
		assert_int_equal(hydrology_process.step(sr, run, &p, 1, NULL), GULLY_OK);
		assert_memory_equal(&traced->rng, &run->rng, sizeof run->rng);
		assert_same_world(traced, run);
		assert_same_state(st, sr);
	}
	/* The droplets did all the things a droplet does. */
	assert_true(steps > droplets);
	assert_true(stops > 0);
	assert_true(pours > 0);
	assert_int_equal(ends, droplets);
	assert_true(off > 0);
	/* And the process goes on from either world the same. */
	assert_int_equal(hydrology_process.step(st, traced, &p, 300, NULL), GULLY_OK);
	assert_int_equal(hydrology_process.step(sr, run, &p, 300, NULL), GULLY_OK);
	assert_same_world(traced, run);
	assert_same_state(st, sr);
	hydrology_process.destroy(st);
	hydrology_process.destroy(sr);
	world_destroy(traced);
	world_destroy(run);
}

static void test_trace_is_the_process(void **state)
{
	(void)state;
	for (int c = 0; c < HYDROLOGY_COUPLING_COUNT; c++) {
		trace_equals_process(c, 60, false);
		trace_equals_process(c, 60, true);
	}
}

/* hydrology_descend_step, step after step, is hydrology_descend: the same
 * droplet, books, heights and step count; the c_eq it shows is the one the
 * step used (s moved toward it by dt k (c_eq - s)). */
static void test_steps_are_the_descent(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 48, HYDROLOGY_NONE);
	struct world *a = make_world(&p), *b = make_world(&p);
	uint8_t *ta = calloc(world_cells(a), 1), *tb = calloc(world_cells(b), 1);
	assert_non_null(ta);
	assert_non_null(tb);
	struct hd_env ea, eb;
	hydrology_descend_env(&ea, &p, a, ta);
	hydrology_descend_env(&eb, &p, b, tb);
	const float rate = (float)p.hydrology.dt * (float)p.hydrology.deposition_rate;
	int checked = 0;
	for (int k = 0; k < 40; k++) {
		float x, y;
		world_spawn_point(a, &x, &y);
		struct hdrop da = {.x = x, .y = y, .volume = 1.0}, db = da;
		double era = 0, dea = 0, erb = 0, deb = 0;
		uint64_t sa = 0, sb = 0;
		uint32_t changed[4096];
		size_t n = 0;
		enum descent oa = hydrology_descend(&ea, &da, &era, &dea, changed, 4096, &n, &sa);
		enum descent ob;
		struct hd_step st;
		do {
			const float sed = db.sediment;
			ob = hydrology_descend_step(&eb, &db, &erb, &deb, &sb, &st);
			if (ob == DESCENT_MOVED) {
				volatile float moved = rate * (st.c_eq - sed);
				assert_true(db.sediment == sed + moved);
				assert_true(b->layer[LAYER_HEIGHT][st.cell] == st.after);
				checked++;
			}
		} while (ob == DESCENT_MOVED);
		assert_int_equal(oa, ob);
		assert_memory_equal(&da, &db, sizeof da);
		assert_memory_equal(&era, &erb, sizeof era);
		assert_memory_equal(&dea, &deb, sizeof dea);
		assert_int_equal(sa, sb);
		assert_memory_equal(ta, tb, world_cells(a));
		assert_memory_equal(a->layer[LAYER_HEIGHT], b->layer[LAYER_HEIGHT],
				    world_cells(a) * sizeof(float));
	}
	assert_true(checked > 100);
	free(ta);
	free(tb);
	world_destroy(a);
	world_destroy(b);
}

/* A start off the map is refused; a trace on another world does nothing. */
static void test_trace_refuses(void **state)
{
	(void)state;
	struct params p;
	small_params(&p, 32, HYDROLOGY_TREES);
	struct world *w = make_world(&p), *other = make_world(&p);
	void *st = make_state(w, &p);
	struct hydrology_trace *t;
	struct hydrology_trace_state s;
	assert_int_equal(hydrology_trace_start(&t, st, w, &p, -1, 3, &s), GULLY_EINVAL);
	assert_int_equal(hydrology_trace_start(&t, st, w, &p, 3, 32, &s), GULLY_EINVAL);
	assert_int_equal(hydrology_trace_start(&t, st, other, &p, 3, 3, &s), GULLY_EINVAL);
	assert_int_equal(hydrology_trace_start(&t, st, w, &p, 3, 3, &s), GULLY_OK);
	int err;
	assert_false(hydrology_trace_step(t, other, &p, &s, &err));
	assert_memory_equal(other->layer[LAYER_HEIGHT], w->layer[LAYER_HEIGHT],
			    world_cells(w) * sizeof(float));
	hydrology_trace_free(t);
	hydrology_process.destroy(st);
	world_destroy(other);
	world_destroy(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trace_is_the_process),
		cmocka_unit_test(test_steps_are_the_descent),
		cmocka_unit_test(test_trace_refuses),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
