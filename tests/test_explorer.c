/* The explorer's curses-free aids: Tab completion, presets in a session and
 * the unsaved mark, undo checkpoints, and the emitter the keys move. */
#include "testutil.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base/error.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "io/snapshot.h"
#include "tui/app.h"
#include "tui/complete.h"
#include "apputil.h"
#include "io/preset.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	if (tmpdir_make(tmpdir, sizeof tmpdir, "explorer"))
		return -1;
	char dir[128];
	snprintf(dir, sizeof dir, "%s/presets", tmpdir);
	if (mkdir(dir, 0700) != 0)
		return -1;
	setenv("GULLY_PRESET_PATH", dir, 1);
	snprintf(dir, sizeof dir, "%s/data", tmpdir);
	setenv("XDG_DATA_HOME", dir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

static void write_preset(const char *name, const char *text)
{
	char path[160];
	snprintf(path, sizeof path, "%s/presets/%s.yaml", tmpdir, name);
	FILE *fp = fopen(path, "w");
	assert_non_null(fp);
	fputs(text, fp);
	fclose(fp);
}

static struct app *new_app(const char *process)
{
	return test_new_app(process, 64);
}

static void free_app(struct app *a)
{
	test_free_app(a);
}

static void assert_params_equal(const struct params *p, const struct params *q)
{
	for (int i = 0; i < params_count(); i++) {
		char a[64], b[64];
		params_format(p, i, a, sizeof a);
		params_format(q, i, b, sizeof b);
		if (strcmp(a, b) != 0)
			fail_msg("%s: %s against %s", params_def(i)->key, a, b);
	}
}

/* ---- completion, with a source of our own ---- */

static const char *const fruit[] = {"alpha", "alpine", "beta"};

static int fruit_source(const char *prefix, char ***names, int *count)
{
	char **out = calloc(4, sizeof *out);
	int k = 0;
	for (int i = 0; i < 3; i++)
		if (strncmp(fruit[i], prefix, strlen(prefix)) == 0)
			out[k++] = strdup(fruit[i]);
	*names = out;
	*count = k;
	return 0;
}

static void fruit_free(char **names)
{
	for (int i = 0; names && names[i]; i++)
		free(names[i]);
	free(names);
}

static void test_completion_completes_then_cycles(void **state)
{
	(void)state;
	struct completion c;
	completion_init(&c, fruit_source, fruit_free);
	char buf[32] = "al";
	/* The shared part first, then each match in turn, round. */
	assert_int_equal(completion_tab(&c, buf, sizeof buf), 2);
	assert_string_equal(buf, "alp");
	completion_tab(&c, buf, sizeof buf);
	assert_string_equal(buf, "alpha");
	completion_tab(&c, buf, sizeof buf);
	assert_string_equal(buf, "alpine");
	completion_tab(&c, buf, sizeof buf);
	assert_string_equal(buf, "alpha");
	/* Typing starts over from what is typed. */
	completion_reset(&c);
	strcpy(buf, "b");
	assert_int_equal(completion_tab(&c, buf, sizeof buf), 1);
	assert_string_equal(buf, "beta");
	completion_tab(&c, buf, sizeof buf);
	assert_string_equal(buf, "beta");
	completion_reset(&c);
	/* Nothing shared beyond what is typed: straight to cycling. */
	strcpy(buf, "");
	assert_int_equal(completion_tab(&c, buf, sizeof buf), 3);
	assert_string_equal(buf, "alpha");
	completion_tab(&c, buf, sizeof buf);
	completion_tab(&c, buf, sizeof buf);
	assert_string_equal(buf, "beta");
	completion_reset(&c);
	strcpy(buf, "zz");
	assert_int_equal(completion_tab(&c, buf, sizeof buf), 0);
	assert_string_equal(buf, "zz");
	/* A short buffer is cut, never overrun. */
	completion_reset(&c);
	char small[4] = "a";
	completion_tab(&c, small, sizeof small);
	assert_string_equal(small, "alp");
	completion_tab(&c, small, sizeof small);
	assert_string_equal(small, "alp");
	completion_reset(&c);
}

/* ---- presets and the unsaved mark ---- */

static void test_preset_load_makes_its_world_and_process(void **state)
{
	(void)state;
	write_preset("canyon", "process: emitter\n"
			       "world:\n  width: 48\n  height: 40\n  seed: 9\n"
			       "emitter:\n  x: 0.3\n  direction: 45\n");
	struct app *a = new_app("particles");
	char err[PRESET_ERR_MAX];
	assert_int_equal(session_load_preset(a, "canyon", err, sizeof err), GULLY_OK);
	assert_string_equal(a->proc->name, "emitter");
	assert_double_equal(a->params.emitter.x, 0.3, 0);
	assert_int_equal(a->world->width, 48);
	assert_false(a->dirty);
	assert_true(a->pristine);
	assert_string_equal(a->preset, "canyon");
	/* The world is exactly what the preset's parameters make. */
	struct world *w;
	assert_int_equal(world_from_params(&w, &a->params), GULLY_OK);
	assert_worlds_equal(a->world, w);
	world_destroy(w);
	/* By file: named after it, without the directory and .yaml. */
	char file[160];
	snprintf(file, sizeof file, "%s/presets/canyon.yaml", tmpdir);
	a->dirty = true;
	assert_int_equal(session_load_preset(a, file, err, sizeof err), GULLY_OK);
	assert_string_equal(a->preset, "canyon");
	assert_false(a->dirty);
	/* The panel lists the new process's parameters. */
	assert_int_equal(params_def(a->plist[0])->section[0], 'e');
	free_app(a);
}

static void test_bad_preset_changes_nothing(void **state)
{
	(void)state;
	write_preset("junk", "particles:\n  friction: 0.25x\n");
	write_preset("alien", "process: no-such-process\n");
	write_preset("huge", "world:\n  width: 100000\n");
	struct app *a = new_app("particles");
	uint64_t done;
	assert_int_equal(session_step(a, 50, &done), GULLY_OK);
	a->params.particles.friction = 0.11;
	struct world *before;
	assert_int_equal(world_clone(&before, a->world), GULLY_OK);
	struct params pb = a->params;
	const char *names[] = {"junk", "alien", "huge", "missing"};
	for (int i = 0; i < 4; i++) {
		char err[PRESET_ERR_MAX] = "";
		assert_int_not_equal(session_load_preset(a, names[i], err, sizeof err), GULLY_OK);
		/* One line that names what is wrong. */
		assert_true(strlen(err) > 0);
		assert_null(strchr(err, '\n'));
		if (i == 0)
			assert_non_null(strstr(err, "junk.yaml:2"));
		else
			assert_non_null(strstr(err, names[i]));
		assert_worlds_equal(a->world, before);
		assert_params_equal(&a->params, &pb);
		assert_string_equal(a->proc->name, "particles");
		assert_true(a->dirty);
	}
	world_destroy(before);
	free_app(a);
}

static void test_unsaved_mark(void **state)
{
	(void)state;
	struct app *a = new_app("particles");
	char err[PRESET_ERR_MAX], path[512];
	/* A fresh world made from the parameters: a preset holds all of it. */
	assert_true(a->pristine);
	assert_int_equal(session_save_preset(a, "mine", path, sizeof path, err, sizeof err), GULLY_OK);
	assert_false(a->dirty);
	assert_true(session_preset_exists("mine", path, sizeof path));
	assert_non_null(strstr(path, "/data/gully/presets/mine.yaml"));
	/* Running changes the world: a preset no longer holds it. */
	uint64_t done;
	assert_int_equal(session_step(a, 20, &done), GULLY_OK);
	assert_true(a->dirty);
	assert_false(a->pristine);
	assert_int_equal(session_save_preset(a, "mine", path, sizeof path, err, sizeof err), GULLY_OK);
	assert_true(a->dirty);
	/* A snapshot holds the world too. */
	char snap[128];
	snprintf(snap, sizeof snap, "%s/s.gsnap", tmpdir);
	assert_int_equal(session_save(a, snap, err, sizeof err), GULLY_OK);
	assert_false(a->dirty);
	/* ... and the preset text, as gully run's snapshots do (gully info
	 * showed "(none)" for the explorer's before they shared io/simulation). */
	struct world *sw;
	struct snapshot_info si;
	assert_int_equal(snapshot_load(snap, &sw, &si, err, sizeof err), GULLY_OK);
	assert_string_equal(si.process, "particles");
	assert_non_null(si.preset_yaml);
	assert_non_null(strstr(si.preset_yaml, "particles"));
	world_destroy(sw);
	snapshot_info_free(&si);
	/* Loading the preset back: clean, and the same parameters. */
	struct app *b = new_app("emitter");
	b->dirty = true;
	assert_int_equal(session_load_preset(b, "mine", err, sizeof err), GULLY_OK);
	assert_false(b->dirty);
	assert_string_equal(b->proc->name, "particles");
	assert_params_equal(&b->params, &a->params);
	/* Running after a load sets the mark again. */
	assert_int_equal(session_step(b, 1, &done), GULLY_OK);
	assert_true(b->dirty);
	free_app(a);
	free_app(b);
}

/* ---- undo ---- */

static void test_undo_restores_and_replays_bit_exact(void **state)
{
	(void)state;
	/* The emitter keeps particles in flight: its state must come back too. */
	struct app *a = new_app("emitter");
	uint64_t done;
	assert_int_equal(session_step(a, 300, &done), GULLY_OK);
	struct world *at;
	assert_int_equal(world_clone(&at, a->world), GULLY_OK);
	assert_int_equal(undo_push(a, 1.0), GULLY_OK);
	assert_int_equal(session_step(a, 500, &done), GULLY_OK);
	struct world *ran;
	assert_int_equal(world_clone(&ran, a->world), GULLY_OK);
	char err[256];
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, at);
	assert_true(a->dirty);
	/* The same run from the restored state ends the same. */
	assert_int_equal(session_step(a, 500, &done), GULLY_OK);
	assert_worlds_equal(a->world, ran);
	/* Nothing left. */
	assert_int_not_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_string_equal(err, "nothing to undo");
	world_destroy(at);
	world_destroy(ran);
	free_app(a);
}

/* The sph soil keeps the pores it was made with (sph.porosity, soil_depth,
 * spacing): a change to one in the panel, then u, brings back the run's
 * ground and soil, not "malformed file" with the checkpoint dropped. */
static void test_undo_after_a_soil_parameter_changes(void **state)
{
	(void)state;
	struct app *a = new_app("sph");
	uint64_t done;
	assert_int_equal(session_step(a, 60, &done), GULLY_OK);
	struct world *at;
	assert_int_equal(world_clone(&at, a->world), GULLY_OK);
	assert_int_equal(undo_push(a, 1.0), GULLY_OK);
	assert_int_equal(session_step(a, 60, &done), GULLY_OK);
	a->params.sph.porosity = 0.6;
	a->params.sph.soil_depth = 2;
	char err[256];
	if (undo_pop(a, err, sizeof err) != GULLY_OK)
		fail_msg("undo: %s", err);
	assert_worlds_equal(a->world, at);
	assert_int_equal(session_step(a, 60, &done), GULLY_OK);
	world_destroy(at);
	free_app(a);
}

static void test_undo_skips_checkpoints_equal_to_now(void **state)
{
	(void)state;
	struct app *a = new_app("particles");
	uint64_t done;
	struct world *first;
	assert_int_equal(world_clone(&first, a->world), GULLY_OK);
	assert_int_equal(undo_push(a, 0), GULLY_OK);
	assert_int_equal(session_step(a, 100, &done), GULLY_OK);
	/* A checkpoint with nothing run after it (a pause, say). */
	assert_int_equal(undo_push(a, 1), GULLY_OK);
	char err[256];
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, first);
	assert_int_equal(undo_levels(a), 0);
	world_destroy(first);
	free_app(a);
}

static void test_undo_memory_is_bounded(void **state)
{
	(void)state;
	struct app *a = new_app("particles");
	uint64_t done;
	for (int i = 0; i < 3 * UNDO_DEPTH; i++) {
		assert_int_equal(session_step(a, 5, &done), GULLY_OK);
		assert_int_equal(undo_push(a, i), GULLY_OK);
		assert_true(undo_levels(a) <= UNDO_DEPTH);
		assert_true(a->undo.bytes <= UNDO_MAX_BYTES);
	}
	assert_int_equal(undo_levels(a), UNDO_DEPTH);
	/* The newest is kept, though it was copied into a dropped checkpoint's
	 * world: one undo goes back exactly one checkpoint. */
	struct world *now;
	assert_int_equal(world_clone(&now, a->world), GULLY_OK);
	assert_int_equal(session_step(a, 5, &done), GULLY_OK);
	char err[256];
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, now);
	world_destroy(now);
	/* A new world keeps them (g is undoable); clearing drops them all. */
	int levels = undo_levels(a);
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	assert_int_equal(undo_levels(a), levels);
	undo_clear(a);
	assert_int_equal(undo_levels(a), 0);
	assert_int_equal(redo_levels(a), 0);
	assert_true(a->undo.bytes == 0 && a->redo.bytes == 0);
	free_app(a);
}

/* ---- the emitter as the keys and the mouse move it ---- */

static void test_source_moves_turns_and_places(void **state)
{
	(void)state;
	struct app *p = new_app("particles");
	struct source s;
	assert_false(source_get(p, &s));
	assert_false(source_move(p, 1, 0, 0));
	assert_false(source_place(p, 3, 3));
	free_app(p);

	struct app *a = new_app("emitter");
	assert_true(source_get(a, &s));
	assert_double_equal(s.x, a->params.emitter.x * 64, 1e-9);
	assert_double_equal(s.y, a->params.emitter.y * 64, 1e-9);
	double x0 = a->params.emitter.x, y0 = a->params.emitter.y;
	a->dirty = false;
	assert_true(source_move(a, 2, -1, 0));
	assert_true(a->dirty);
	assert_double_equal(a->params.emitter.x, x0 + 2 * params_def(s.ix)->step, 1e-9);
	assert_double_equal(a->params.emitter.y, y0 - params_def(s.iy)->step, 1e-9);
	/* Turning goes round the circle. */
	a->params.emitter.direction = 180;
	assert_true(source_move(a, 0, 0, 1));
	assert_double_equal(a->params.emitter.direction, -180 + params_def(s.idir)->step, 1e-9);
	assert_true(source_move(a, 0, 0, -2));
	assert_double_equal(a->params.emitter.direction, 180 - params_def(s.idir)->step, 1e-9);
	/* A click puts it over the cell's centre, and it stays in range. */
	assert_true(source_place(a, 10, 20));
	assert_true(source_get(a, &s));
	assert_double_equal(s.x, 10.5, 1e-9);
	assert_double_equal(s.y, 20.5, 1e-9);
	assert_true(source_place(a, 63, 0));
	assert_true(a->params.emitter.x <= 1 && a->params.emitter.y >= 0);
	int bad;
	assert_int_equal(params_validate(&a->params, &bad), GULLY_OK);
	free_app(a);
}

/* The jets: n picks which one the keys and a click move, N switches it, and
 * each reads and writes its own parameters only. */
static void test_source_picks_and_switches_jets(void **state)
{
	(void)state;
	struct app *a = new_app("sph");
	struct source s;
	assert_true(a->proc->nsources >= 2);
	assert_true(source_get(a, &s));
	assert_int_equal(s.index, 0);
	assert_true(s.on == (a->params.sph.jet1_on != 0));
	/* Every declared source names parameters the registry has. */
	for (int i = 0; i < a->proc->nsources; i++)
		assert_true(source_get_at(a, i, &s));
	assert_false(source_get_at(a, a->proc->nsources, &s));
	assert_false(source_get_at(a, -1, &s));

	double x1 = a->params.sph.jet1_x, x2 = a->params.sph.jet2_x;
	assert_true(source_pick_next(a));
	assert_true(source_get(a, &s));
	assert_int_equal(s.index, 1);
	assert_double_equal(s.x, x2 * 64, 1e-9);
	assert_true(source_move(a, 3, 0, 0));
	assert_double_equal(a->params.sph.jet2_x, x2 + 3 * params_def(s.ix)->step, 1e-9);
	assert_double_equal(a->params.sph.jet1_x, x1, 0);
	assert_true(source_place(a, 5, 6));
	assert_double_equal(a->params.sph.jet2_y, 6.5 / 64, 1e-9);
	/* N: off to on and back, jet 1 untouched. */
	int on1 = a->params.sph.jet1_on, on2 = a->params.sph.jet2_on;
	assert_true(source_toggle(a));
	assert_int_equal(a->params.sph.jet2_on, !on2);
	assert_true(source_get(a, &s) && s.on == !on2);
	assert_true(source_toggle(a));
	assert_int_equal(a->params.sph.jet2_on, on2);
	assert_int_equal(a->params.sph.jet1_on, on1);
	/* The pick goes round, and a process with one source has no other. */
	for (int i = 1; i < a->proc->nsources; i++)
		assert_true(source_pick_next(a));
	assert_true(source_get(a, &s));
	assert_int_equal(s.index, 0);
	free_app(a);

	struct app *e = new_app("emitter");
	assert_false(source_pick_next(e));
	assert_false(source_toggle(e)); /* always on */
	assert_true(source_get(e, &s) && s.on);
	e->source_pick = 3; /* kept from a process with more: clamped */
	assert_true(source_get(e, &s));
	assert_int_equal(s.index, 0);
	free_app(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_completion_completes_then_cycles),
		cmocka_unit_test(test_preset_load_makes_its_world_and_process),
		cmocka_unit_test(test_bad_preset_changes_nothing),
		cmocka_unit_test(test_unsaved_mark),
		cmocka_unit_test(test_undo_restores_and_replays_bit_exact),
		cmocka_unit_test(test_undo_after_a_soil_parameter_changes),
		cmocka_unit_test(test_undo_skips_checkpoints_equal_to_now),
		cmocka_unit_test(test_undo_memory_is_bounded),
		cmocka_unit_test(test_source_moves_turns_and_places),
		cmocka_unit_test(test_source_picks_and_switches_jets),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
