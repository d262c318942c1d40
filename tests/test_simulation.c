/* The one session module both front ends use (io/simulation.h): a resume
 * from its snapshot is exact, switching process on the running world
 * (the explorer's way) and continuing a snapshot with another process
 * (gully run's way) give the same bits, every snapshot carries the preset
 * text, and bad snapshots are refused with a line naming the file, leaving
 * the simulation as it was. */
#include "testutil.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "io/preset.h"
#include "io/simulation.h"

TESTUTIL_TMPDIR_FIXTURES("simulation")

/* A fresh 48x48 world running `proc`. */
static struct simulation fresh(const char *proc)
{
	struct simulation s = {0};
	params_defaults(&s.params);
	s.params.world.width = s.params.world.height = 48;
	s.params.world.seed = 7;
	assert_int_equal(world_from_params(&s.world, &s.params), GULLY_OK);
	char err[256];
	assert_int_equal(simulation_start(&s, process_find(proc), NULL, "fresh", err, sizeof err),
			 GULLY_OK);
	return s;
}

static void run(struct simulation *s, uint64_t n)
{
	struct process_report rep = {0};
	assert_int_equal(s->proc->step(s->state, s->world, &s->params, n, &rep), GULLY_OK);
}

static void assert_same_world(const struct world *a, const struct world *b)
{
	assert_int_equal(a->width, b->width);
	for (int l = 0; l < LAYER_COUNT; l++)
		assert_memory_equal(a->layer[l], b->layer[l], world_cells(a) * sizeof(float));
	assert_memory_equal(a->tally, b->tally, sizeof a->tally);
}

/* Opens `path` and starts `proc` (NULL: the process that saved it). */
static struct simulation reopen(const char *path, const char *proc)
{
	struct simulation s;
	struct snapshot_info saved;
	char err[256];
	assert_int_equal(simulation_open(&s, &saved, path, err, sizeof err), GULLY_OK);
	const struct process_ops *p = process_find(proc ? proc : saved.process);
	assert_int_equal(simulation_start(&s, p, &saved, path, err, sizeof err), GULLY_OK);
	snapshot_info_free(&saved);
	return s;
}

/* Particles (64 lanes: droplets in flight at the save) saved part-way and
 * resumed give what one uninterrupted run gives. */
static void test_resume_is_exact(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh("particles"), b = fresh("particles");
	run(&a, 3001);
	assert_int_equal(simulation_save(&a, tmp("part.gsnap"), err, sizeof err), GULLY_OK);
	simulation_end(&a);
	a = reopen(tmp("part.gsnap"), NULL);
	assert_string_equal(a.proc->name, "particles");
	run(&a, 1999);
	run(&b, 5000);
	assert_same_world(a.world, b.world);
	simulation_end(&a);
	simulation_end(&b);
}

/* The explorer switches process on the running world; gully run continues
 * a snapshot with another process. Both land the old process's droplets in
 * flight first, and both then run the same. */
static void test_switch_equals_continuing_with_another_process(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh("particles"), b = fresh("particles");
	run(&a, 2500);
	run(&b, 2500);
	assert_int_equal(simulation_switch(&a, process_find("hydrology"), err, sizeof err),
			 GULLY_OK);
	assert_int_equal(simulation_save(&b, tmp("switch.gsnap"), err, sizeof err), GULLY_OK);
	simulation_end(&b);
	b = reopen(tmp("switch.gsnap"), "hydrology");
	/* The in-flight droplets landed the same way on both paths. */
	assert_same_world(a.world, b.world);
	run(&a, 300);
	run(&b, 300);
	assert_same_world(a.world, b.world);
	simulation_end(&a);
	simulation_end(&b);
}

/* A process that keeps its terrain as "the height when it was made plus its
 * own ledger" (sph) must be made on the ground the old process's droplets
 * in flight leave, or its first write to a cell takes their work back. A
 * switch equals finishing the old process first, then switching. */
static void test_switch_lands_the_old_droplets_before_the_new_state(void **state)
{
	(void)state;
	char err[256];
	const char *from[] = {"particles", "emitter"};
	for (size_t k = 0; k < sizeof from / sizeof from[0]; k++) {
		struct simulation a = fresh(from[k]), b = fresh(from[k]);
		a.params.sph.jet1_radius = b.params.sph.jet1_radius = 4;
		run(&a, 2500);
		run(&b, 2500);
		assert_int_equal(b.proc->finish(b.state, b.world, &b.params, NULL), GULLY_OK);
		assert_int_equal(simulation_switch(&b, process_find("sph"), err, sizeof err),
				 GULLY_OK);
		assert_int_equal(simulation_switch(&a, process_find("sph"), err, sizeof err),
				 GULLY_OK);
		assert_same_world(a.world, b.world);
		run(&a, 600);
		run(&b, 600);
		assert_same_world(a.world, b.world);
		simulation_end(&a);
		simulation_end(&b);
	}
}

/* sph's soil ends with it: a switch away dries it, booked as evaporated
 * (the world's water closes: in = evaporated + off the map, no pools), and
 * clears the wetness layer, which the next sph soil (dry) could never clear
 * outside its own box. */
static void test_switch_from_sph_dries_its_soil(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh("sph");
	a.params.sph.absorb_rate = 4;
	run(&a, 400);
	size_t n = world_cells(a.world);
	double wet = 0;
	for (size_t i = 0; i < n; i++)
		wet += a.world->layer[LAYER_WETNESS][i];
	assert_true(wet > 0);
	assert_int_equal(simulation_switch(&a, process_find("hydrology"), err, sizeof err),
			 GULLY_OK);
	for (size_t i = 0; i < n; i++) {
		assert_true(a.world->layer[LAYER_WETNESS][i] == 0);
		assert_true(a.world->layer[LAYER_POOL][i] == 0);
	}
	const double *t = a.world->tally;
	assert_double_equal(t[TALLY_WATER_IN], t[TALLY_WATER_EVAPORATED] + t[TALLY_WATER_OFF_MAP],
			    1e-9 * t[TALLY_WATER_IN]);
	assert_int_equal(simulation_switch(&a, process_find("sph"), err, sizeof err), GULLY_OK);
	a.params.sph.jet1_on = 0;
	run(&a, 50);
	for (size_t i = 0; i < n; i++)
		assert_true(a.world->layer[LAYER_WETNESS][i] == 0);
	simulation_end(&a);
}

/* A snapshot's sph soil keeps the pores it was made with: a value set over
 * the snapshot's (gully run --set sph.porosity=...) is refused with a line
 * naming it, not "malformed file", and the snapshot's own value resumes. */
static void test_resume_refuses_a_value_its_state_keeps(void **state)
{
	(void)state;
	char err[512];
	struct simulation a = fresh("sph");
	run(&a, 40);
	assert_int_equal(simulation_save(&a, tmp("soil.gsnap"), err, sizeof err), GULLY_OK);
	simulation_end(&a);
	struct simulation s;
	struct snapshot_info saved;
	assert_int_equal(simulation_open(&s, &saved, tmp("soil.gsnap"), err, sizeof err), GULLY_OK);
	s.params.sph.porosity = 0.5;
	assert_int_equal(simulation_start(&s, process_find("sph"), &saved, "soil.gsnap", err,
					  sizeof err),
			 GULLY_EINVAL);
	assert_non_null(strstr(err, "soil.gsnap"));
	assert_non_null(strstr(err, "sph.porosity=0.3"));
	assert_null(strstr(err, "malformed"));
	s.params.sph.porosity = saved.params.sph.porosity;
	assert_int_equal(simulation_start(&s, process_find("sph"), &saved, "soil.gsnap", err,
					  sizeof err),
			 GULLY_OK);
	snapshot_info_free(&saved);
	simulation_end(&s);
}

/* Every snapshot carries the process, the exact parameters and the
 * effective preset text, which loads back to the same parameters. */
static void test_snapshot_holds_the_preset_text(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh("emitter");
	a.params.emitter.speed = 1.75; /* not a default: the text must carry it */
	run(&a, 50);
	assert_int_equal(simulation_save(&a, tmp("emit.gsnap"), err, sizeof err), GULLY_OK);
	struct world *w;
	struct snapshot_info info;
	assert_int_equal(snapshot_load(tmp("emit.gsnap"), &w, &info, err, sizeof err), GULLY_OK);
	assert_string_equal(info.process, "emitter");
	assert_non_null(info.preset_yaml);
	assert_non_null(info.state);
	struct params back;
	assert_int_equal(preset_load_text("embedded", info.preset_yaml, strlen(info.preset_yaml),
					  &back, NULL, err, sizeof err),
			 GULLY_OK);
	for (int i = 0; i < params_count(); i++) {
		double x = params_get(&back, i), y = params_get(&a.params, i);
		assert_memory_equal(&x, &y, sizeof x);
	}
	world_destroy(w);
	snapshot_info_free(&info);
	simulation_end(&a);
}

/* A snapshot of a process this gully lacks, or with a state its process
 * refuses, is refused with one line naming the file; a failed start leaves
 * the running simulation as it was. */
static void test_bad_snapshots_are_refused(void **state)
{
	(void)state;
	char err[256];
	struct simulation a = fresh("particles");
	struct snapshot_info out = {.params = a.params};
	snprintf(out.process, sizeof out.process, "%s", "nope");
	assert_int_equal(snapshot_save(tmp("nope.gsnap"), a.world, &out, err, sizeof err),
			 GULLY_OK);
	struct simulation s;
	struct snapshot_info saved;
	assert_int_equal(simulation_open(&s, &saved, tmp("nope.gsnap"), err, sizeof err),
			 GULLY_ENOTFOUND);
	assert_non_null(strstr(err, tmp("nope.gsnap")));
	assert_non_null(strstr(err, "'nope'"));
	assert_null(strchr(err, '\n'));

	/* A particles state blob that is garbage. */
	unsigned char junk[5] = {1, 2, 3, 4, 5};
	snprintf(out.process, sizeof out.process, "%s", "particles");
	out.state = junk;
	out.state_len = sizeof junk;
	assert_int_equal(snapshot_save(tmp("junk.gsnap"), a.world, &out, err, sizeof err),
			 GULLY_OK);
	assert_int_equal(simulation_open(&s, &saved, tmp("junk.gsnap"), err, sizeof err),
			 GULLY_OK);
	const struct process_ops *before = a.proc;
	void *before_state = a.state;
	struct world *keep = a.world;
	a.world = s.world;
	assert_int_not_equal(simulation_start(&a, process_find("particles"), &saved, "junk.gsnap",
					      err, sizeof err),
			     GULLY_OK);
	assert_non_null(strstr(err, "junk.gsnap"));
	assert_ptr_equal(a.proc, before);
	assert_ptr_equal(a.state, before_state);
	world_destroy(s.world);
	a.world = keep;
	snapshot_info_free(&saved);
	simulation_end(&a);
}

/* An unstable run's line names what to change: on gully's own terrain the
 * droplets' parameters; on a map whose own heights (its base layer, as
 * made or imported) reach half the limit, the map's heights, whatever the
 * parameters. */
static void test_watch_names_what_to_change(void **state)
{
	(void)state;
	struct simulation s = fresh("particles");
	struct sim_watch wt = {0};
	char err[320];
	assert_int_equal(sim_watch(&wt, s.world, s.proc, 0, 10, 100, true, err, sizeof err),
			 GULLY_OK);
	s.world->layer[LAYER_HEIGHT][5 * 48 + 3] = -2.0e6f;
	assert_int_equal(sim_watch(&wt, s.world, s.proc, 0, 10, 100, true, err, sizeof err),
			 GULLY_ERANGE);
	assert_non_null(strstr(err, "at x 3, y 5"));
	assert_non_null(strstr(err, "raise particles.density, or lower particles.deposition_rate"));
	for (size_t c = 0; c < world_cells(s.world); c++)
		s.world->layer[LAYER_BASE][c] = s.world->layer[LAYER_HEIGHT][c] = 9.0e5f;
	s.world->layer[LAYER_HEIGHT][7] = 1.01e6f;
	assert_int_equal(sim_watch(&wt, s.world, s.proc, 0, 10, 100, true, err, sizeof err),
			 GULLY_ERANGE);
	assert_non_null(strstr(err, "the terrain itself reaches 9e+05, near the limit"));
	assert_null(strstr(err, "density"));
	simulation_end(&s);
}

/* A key a process says its state keeps is a registry key of its own
 * section: a misspelt one would be skipped, and the change it names would
 * again do nothing unsaid. */
static void test_made_with_names_registry_keys(void **unused)
{
	(void)unused;
	int named = 0;
	for (int i = 0; i < process_count(); i++) {
		const struct process_ops *p = process_get(i);
		for (const char *const *k = p->made_with; k && *k; k++, named++) {
			int idx = params_find(*k);
			if (idx < 0 || strcmp(params_def(idx)->section, p->section) != 0)
				fail_msg("%s: made_with names %s, not a key of section %s", p->name,
					 *k, p->section);
		}
	}
	assert_true(named >= 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_resume_is_exact),
		cmocka_unit_test(test_switch_equals_continuing_with_another_process),
		cmocka_unit_test(test_switch_lands_the_old_droplets_before_the_new_state),
		cmocka_unit_test(test_switch_from_sph_dries_its_soil),
		cmocka_unit_test(test_resume_refuses_a_value_its_state_keeps),
		cmocka_unit_test(test_made_with_names_registry_keys),
		cmocka_unit_test(test_watch_names_what_to_change),
		cmocka_unit_test(test_snapshot_holds_the_preset_text),
		cmocka_unit_test(test_bad_snapshots_are_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
