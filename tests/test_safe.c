/* Nothing lost (issue 12, section 1), without a terminal: undo and redo of
 * runs, new terrains and presets, bit for bit; the prompt's line editor;
 * fresh snapshot names; one autosave per directory. */
#include "testutil.h"

#include <curses.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/base/error.h"
#include "core/hydrology/hydrology.h"
#include "core/base/process.h"
#include "core/terrain/terrain.h"
#include "tui/app.h"
#include "apputil.h"
#include "tui/lineedit.h"
#include "tui/safe.h"
#include "tui/tui.h"

static char tmpdir[64];

static int setup(void **state)
{
	(void)state;
	if (tmpdir_make(tmpdir, sizeof tmpdir, "safe"))
		return -1;
	setenv("XDG_STATE_HOME", tmpdir, 1);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return tmpdir_remove(tmpdir);
}

static struct app *new_app(const char *process, int seed)
{
	return test_new_app_seeded(process, 48, seed);
}

static void free_app(struct app *a)
{
	test_free_app(a);
}

/* g as the key does it: a whole checkpoint, the next seed, a new world. */
static void new_terrain(struct app *a)
{
	char err[256];
	assert_int_equal(undo_push_whole(a, 0), GULLY_OK);
	a->params.world.seed++;
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
}

static void test_undo_after_g_then_redo(void **state)
{
	(void)state;
	struct app *a = new_app("emitter", 5);
	uint64_t done;
	assert_int_equal(session_step(a, 400, &done), GULLY_OK);
	struct world *eroded, *fresh;
	assert_int_equal(world_clone(&eroded, a->world), GULLY_OK);
	new_terrain(a);
	assert_int_equal(a->params.world.seed, 6);
	assert_int_equal(world_clone(&fresh, a->world), GULLY_OK);
	char err[256];
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, eroded);
	assert_int_equal(a->params.world.seed, 5);
	assert_int_equal(redo_levels(a), 1);
	/* Redo goes to the new terrain and its seed, and back again. */
	assert_int_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, fresh);
	assert_int_equal(a->params.world.seed, 6);
	assert_int_not_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_string_equal(err, "nothing to redo");
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, eroded);
	/* The emitter's droplets in flight came back too: the run goes on as
	 * it would have without the detour. */
	struct app *b = new_app("emitter", 5);
	assert_int_equal(session_step(b, 400, &done), GULLY_OK);
	assert_int_equal(session_step(b, 300, &done), GULLY_OK);
	assert_int_equal(session_step(a, 300, &done), GULLY_OK);
	assert_worlds_equal(a->world, b->world);
	/* A new checkpoint starts new history: redo is gone. */
	assert_int_equal(redo_levels(a), 1);
	assert_int_equal(undo_push(a, 1), GULLY_OK);
	assert_int_equal(redo_levels(a), 0);
	world_destroy(eroded);
	world_destroy(fresh);
	free_app(a);
	free_app(b);
}

static void test_undo_after_process_switch(void **state)
{
	(void)state;
	struct app *a = new_app("particles", 3);
	uint64_t done;
	assert_int_equal(session_step(a, 50, &done), GULLY_OK);
	struct world *before;
	assert_int_equal(world_clone(&before, a->world), GULLY_OK);
	char err[256];
	assert_int_equal(undo_push_whole(a, 0), GULLY_OK);
	assert_int_equal(session_set_process(a, process_find("emitter"), err, sizeof err), GULLY_OK);
	assert_int_equal(session_step(a, 100, &done), GULLY_OK);
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_string_equal(a->proc->name, "particles");
	assert_worlds_equal(a->world, before);
	assert_int_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_string_equal(a->proc->name, "emitter");
	world_destroy(before);
	free_app(a);
}

/* A ring's newest entry. */
static struct undo_entry *newest(struct undo_ring *r)
{
	return &r->e[(r->head - 1 + UNDO_DEPTH) % UNDO_DEPTH];
}

/* The newest checkpoint's process state, spoiled as a run going unstable
 * spoils it (a value its load refuses). */
static void spoil_newest_state(struct app *a)
{
	struct undo_entry *e = newest(&a->undo);
	assert_non_null(e->state);
	assert_true(e->state_len > 4);
	memset(e->state, 0xff, 4);
}

/* u goes back past checkpoints whose state does not load, dropping them
 * and saying so; with none that loads it says why and keeps the session. */
static void test_undo_skips_a_checkpoint_that_does_not_load(void **state)
{
	(void)state;
	struct app *a = new_app("particles", 2);
	uint64_t done;
	char err[256];
	assert_int_equal(session_step(a, 40, &done), GULLY_OK);
	struct world *good;
	assert_int_equal(world_clone(&good, a->world), GULLY_OK);
	assert_int_equal(undo_push(a, 0), GULLY_OK);
	for (int i = 1; i <= 2; i++) {
		assert_int_equal(session_step(a, 40, &done), GULLY_OK);
		assert_int_equal(undo_push(a, i), GULLY_OK);
		spoil_newest_state(a);
	}
	assert_int_equal(session_step(a, 40, &done), GULLY_OK);
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_string_equal(err, "; 2 newer checkpoints that would not load dropped");
	assert_worlds_equal(a->world, good);
	assert_int_equal(undo_levels(a), 0);
	assert_int_equal(redo_levels(a), 1);
	/* Redo brings back the session as it was before u. */
	assert_int_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_string_equal(err, "");
	assert_int_equal(a->world->particles, 160);

	/* Only a spoiled checkpoint left (redo put the good one back on the
	 * undo ring): u fails, says why, and the session stays as it was. */
	assert_int_equal(undo_levels(a), 1);
	spoil_newest_state(a);
	struct world *now;
	assert_int_equal(world_clone(&now, a->world), GULLY_OK);
	assert_int_not_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_non_null(strstr(err, "cannot undo: particles: "));
	assert_worlds_equal(a->world, now);
	assert_int_equal(undo_levels(a), 0);
	assert_int_equal(session_step(a, 40, &done), GULLY_OK);
	world_destroy(now);
	world_destroy(good);
	free_app(a);
}

/* A map whose copy is over the budget is checkpointed packed (an
 * in-memory snapshot; here the limit is lowered): far under a copy's bytes, and undo and redo give the worlds
 * back bit for bit, the run going on as if it had not been undone. */
static void test_undo_packs_a_big_map(void **state)
{
	(void)state;
	const int size = 200;
	struct app *a = test_new_app_seeded("hydrology", size, 4);
	a->undo_copy_max = (size_t)size * size * LAYER_COUNT * sizeof(float) - 1;
	uint64_t done;
	char err[256];
	assert_int_equal(session_step(a, 300, &done), GULLY_OK);
	struct world *before;
	assert_int_equal(world_clone(&before, a->world), GULLY_OK);
	assert_int_equal(undo_push_whole(a, 0), GULLY_OK);
	const struct undo_entry *e = newest(&a->undo);
	assert_null(e->world);
	assert_non_null(e->packed);
	const size_t raw = world_cells(a->world) * LAYER_COUNT * sizeof(float);
	assert_true(e->bytes < raw / 2);
	a->params.world.seed = 9;
	assert_int_equal(session_new_world(a, err, sizeof err), GULLY_OK);
	struct world *fresh;
	assert_int_equal(world_clone(&fresh, a->world), GULLY_OK);
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, before);
	assert_int_equal(a->params.world.seed, 4);
	/* What u replaced went onto redo packed too, and comes back. */
	const struct undo_entry *r = newest(&a->redo);
	assert_null(r->world);
	assert_non_null(r->packed);
	assert_int_equal(undo_redo(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, fresh);
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, before);
	/* The process's state came back with it: the run goes on the same. */
	struct app *b = test_new_app_seeded("hydrology", size, 4);
	assert_int_equal(session_step(b, 300, &done), GULLY_OK);
	assert_int_equal(session_step(b, 200, &done), GULLY_OK);
	assert_int_equal(session_step(a, 200, &done), GULLY_OK);
	assert_worlds_equal(a->world, b->world);
	world_destroy(before);
	world_destroy(fresh);
	free_app(a);
	free_app(b);
}

static void test_undo_and_redo_share_the_budget(void **state)
{
	(void)state;
	struct app *a = new_app("particles", 1);
	uint64_t done;
	char err[256];
	for (int i = 0; i < 2 * UNDO_DEPTH; i++) {
		assert_int_equal(session_step(a, 3, &done), GULLY_OK);
		assert_int_equal(undo_push(a, i), GULLY_OK);
	}
	assert_int_equal(session_step(a, 3, &done), GULLY_OK);
	int n = 0;
	while (undo_pop(a, err, sizeof err) == GULLY_OK) {
		n++;
		assert_true(a->undo.bytes + a->redo.bytes <= UNDO_MAX_BYTES);
		assert_true(redo_levels(a) <= UNDO_DEPTH);
	}
	assert_int_equal(n, UNDO_DEPTH);
	while (undo_redo(a, err, sizeof err) == GULLY_OK)
		n--;
	assert_int_equal(n, 0);
	free_app(a);
}

/* Undo keeps under half the memory free to it, once an undo's own
 * allocations (a copy and a quarter) are set aside: here the machine has F
 * bytes, less what the rings hold, as a real one would after each
 * checkpoint. F = 8 copies leaves room for 3, not UNDO_DEPTH. With room
 * for less than a copy the checkpoint is packed; with almost nothing free
 * it is refused as out of memory (not "too big"), which the explorer says
 * once; and a packed checkpoint is not unpacked without the memory for
 * it: undo refuses and keeps it. */
static void test_undo_keeps_under_half_the_free_memory(void **state)
{
	(void)state;
	struct app *a = new_app("particles", 1);
	uint64_t done;
	char err[256];
	assert_int_equal(session_step(a, 3, &done), GULLY_OK);
	assert_int_equal(undo_push(a, 0), GULLY_OK);
	const size_t one = newest(&a->undo)->bytes, machine = 8 * one;
	undo_clear(a);
	for (int i = 0; i < UNDO_DEPTH; i++) {
		assert_int_equal(session_step(a, 3, &done), GULLY_OK);
		a->undo_mem_available = machine - a->undo.bytes - a->redo.bytes;
		assert_int_equal(undo_push(a, i), GULLY_OK);
		assert_true(a->undo.bytes + a->redo.bytes <= machine / 2);
	}
	assert_int_equal(undo_levels(a), 3);
	assert_non_null(newest(&a->undo)->world);
	undo_clear(a);
	a->undo_mem_available = one + one / 4 + one;
	assert_int_equal(undo_push(a, 0), GULLY_OK);
	assert_null(newest(&a->undo)->world);
	assert_non_null(newest(&a->undo)->packed);
	assert_true(newest(&a->undo)->bytes <= one / 2);
	struct world *packed_one;
	assert_int_equal(world_clone(&packed_one, a->world), GULLY_OK);
	assert_int_equal(session_step(a, 3, &done), GULLY_OK);
	a->undo_mem_available = one;
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_ENOMEM);
	assert_non_null(strstr(err, "cannot undo: too little free memory"));
	assert_int_equal(undo_levels(a), 1);
	a->undo_mem_available = 0; /* this machine's */
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_OK);
	assert_worlds_equal(a->world, packed_one);
	world_destroy(packed_one);
	undo_clear(a);
	a->undo_mem_available = 64;
	assert_int_equal(undo_push(a, 0), GULLY_ENOMEM);
	assert_int_equal(undo_push_whole(a, 0), GULLY_ENOMEM);
	assert_int_equal(undo_levels(a), 0);
	app_checkpoint(a);
	assert_non_null(strstr(a->message, "too little free memory"));
	a->message[0] = '\0';
	app_checkpoint(a);
	assert_string_equal(a->message, "");
	assert_int_equal(undo_pop(a, err, sizeof err), GULLY_ENOTFOUND);
	assert_string_equal(err, "nothing to undo (no checkpoint kept: too little free memory)");
	a->undo_mem_available = 0;
	assert_int_equal(undo_push(a, 1), GULLY_OK);
	free_app(a);
}

/* ---- the simulation thread ---- */

static void sleep_ms(long ms)
{
	struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
	nanosleep(&ts, NULL);
}

/* Whatever slices the worker ran while the interface let it, the world is
 * bit for bit the one a single uninterrupted step of as many units makes. */
static void test_worker_matches_one_step(void **state)
{
	(void)state;
	const char *procs[] = {"particles", "hydrology", "emitter"};
	for (size_t k = 0; k < sizeof procs / sizeof procs[0]; k++) {
		struct app *a = new_app(procs[k], 11);
		/* The stream map kept lazily, as on a big map: the worker's
		 * slices leave it behind (session_lag) until it gives the
		 * session back. */
		if (strcmp(procs[k], "hydrology") == 0)
			hydrology_set_stream_lazy(a->state, true);
		assert_int_equal(sim_worker_start(a), GULLY_OK);
		a->running = true;
		/* Let it run, taking the session back now and then as keys do;
		 * on a loaded machine the worker may need longer to get a slice. */
		for (int i = 0; i < 6 || (a->units_run == 0 && i < 700); i++) {
			sim_ui_release(a);
			sleep_ms(15);
			sim_ui_take(a);
			/* What the interface takes is whole: a state whose world
			 * lags refuses to be saved. */
			assert_false(a->lagging);
			if (a->proc->save_state) {
				unsigned char *blob = NULL;
				size_t len = 0;
				assert_int_equal(a->proc->save_state(a->state, &blob, &len), GULLY_OK);
				free(blob);
			}
		}
		a->running = false;
		sim_worker_stop(a);
		assert_int_equal(a->sim_error, GULLY_OK);
		assert_true(a->units_run > 0);
		struct app *b = new_app(procs[k], 11);
		uint64_t done;
		assert_int_equal(session_step(b, a->units_run, &done), GULLY_OK);
		assert_worlds_equal(a->world, b->world);
		free_app(a);
		free_app(b);
	}
}

/* A slice longer than the worker's (the step key's) runs its share of the
 * worker's budget, and the budget it leaves is a worker slice's again. */
static void test_slice_scales_the_budget(void **state)
{
	(void)state;
	struct app *a = new_app("particles", 12);
	a->slice_budget = 100;
	const uint64_t before = a->units_run;
	assert_int_equal(sim_run_slice(a, 3 * WORKER_SLICE_SECONDS), GULLY_OK);
	assert_int_equal(a->units_run - before, 300);
	/* Whatever it measured, the next worker slice is at most 4x and at
	 * least half the 100 it had (the budget's clamps), not 3x that. */
	assert_in_range(a->slice_budget, 50, 400);
	free_app(a);
}

/* ---- the prompt's editor ---- */

static void keys(struct line_edit *le, const int *k)
{
	for (; *k; k++)
		lineedit_key(le, *k);
}

static void test_lineedit(void **state)
{
	(void)state;
	char buf[32] = "1.0";
	struct line_edit le;
	lineedit_init(&le, buf, sizeof buf);
	assert_true(le.selected);
	/* Typing replaces the selected value. */
	keys(&le, (const int[]){'0', '.', '2', '5', 0});
	assert_string_equal(buf, "0.25");
	/* Home, Right, Right, 1. */
	keys(&le, (const int[]){KEY_HOME, KEY_RIGHT, KEY_RIGHT, '1', 0});
	assert_string_equal(buf, "0.125");
	assert_int_equal(le.cur, 3);
	/* End, Left, Backspace: the 2 goes. */
	keys(&le, (const int[]){KEY_END, KEY_LEFT, KEY_BACKSPACE, 0});
	assert_string_equal(buf, "0.15");
	/* Ctrl-W erases the word before the cursor, up to a space or slash. */
	snprintf(buf, sizeof buf, "a/bc de");
	lineedit_init(&le, buf, sizeof buf);
	keys(&le, (const int[]){KEY_END, 0x17, 0});
	assert_string_equal(buf, "a/bc ");
	keys(&le, (const int[]){0x17, 0});
	assert_string_equal(buf, "a/");
	keys(&le, (const int[]){0x17, 0});
	assert_string_equal(buf, "a");
	/* A moving key keeps the value, deselected; Ctrl-U clears before the
	 * cursor; a selected value goes on Backspace. */
	snprintf(buf, sizeof buf, "xyz");
	lineedit_init(&le, buf, sizeof buf);
	keys(&le, (const int[]){KEY_LEFT, 0x15, 0});
	assert_string_equal(buf, "z");
	lineedit_init(&le, buf, sizeof buf);
	keys(&le, (const int[]){KEY_BACKSPACE, 0});
	assert_string_equal(buf, "");
	/* Never past the buffer. */
	char small[4] = "";
	lineedit_init(&le, small, sizeof small);
	keys(&le, (const int[]){'a', 'b', 'c', 'd', 'e', 0});
	assert_string_equal(small, "abc");
}

/* ---- names and the autosave ---- */

static void test_default_names_do_not_collide(void **state)
{
	(void)state;
	char old[PATH_MAX];
	assert_non_null(getcwd(old, sizeof old));
	assert_int_equal(chdir(tmpdir), 0);
	struct app *a = new_app("particles", 9);
	char one[PATH_MAX], two[PATH_MAX];
	safe_default_name(a, one, sizeof one);
	assert_true(strncmp(one, "gully-9-", 8) == 0);
	FILE *fp = fopen(one, "w");
	assert_non_null(fp);
	fclose(fp);
	safe_default_name(a, two, sizeof two);
	assert_string_not_equal(one, two);
	/* Within the same second the name is numbered. */
	if (strncmp(one, two, strlen(one) - 6) == 0)
		assert_non_null(strstr(two, "-2.gsnap"));
	free_app(a);
	assert_int_equal(chdir(old), 0);
}

static void test_autosave_per_directory(void **state)
{
	(void)state;
	char old[PATH_MAX], p1[PATH_MAX], p2[PATH_MAX], p3[PATH_MAX];
	assert_non_null(getcwd(old, sizeof old));
	char d1[128], d2[128];
	snprintf(d1, sizeof d1, "%s/one", tmpdir);
	snprintf(d2, sizeof d2, "%s/two", tmpdir);
	assert_int_equal(mkdir(d1, 0700), 0);
	assert_int_equal(mkdir(d2, 0700), 0);
	assert_int_equal(chdir(d1), 0);
	assert_true(tui_autosave_path(p1, sizeof p1));
	assert_true(tui_autosave_path(p3, sizeof p3));
	assert_int_equal(chdir(d2), 0);
	assert_true(tui_autosave_path(p2, sizeof p2));
	assert_string_equal(p1, p3);
	assert_string_not_equal(p1, p2);
	assert_true(strncmp(p1, tmpdir, strlen(tmpdir)) == 0);
	assert_non_null(strstr(p1, "/autosave-one-"));
	/* None there: opening says so in words and changes nothing. */
	struct app *a = new_app("particles", 2);
	char err[PATH_MAX + 256];
	assert_int_equal(safe_open_autosave(a, err, sizeof err), GULLY_ENOTFOUND);
	assert_non_null(strstr(err, "no saved session"));
	/* Saved there, it opens (unsaved, so quitting asks) and goes. */
	char dir[PATH_MAX];
	snprintf(dir, sizeof dir, "%s/gully", tmpdir);
	mkdir(dir, 0700);
	uint64_t done;
	assert_int_equal(session_step(a, 20, &done), GULLY_OK);
	assert_int_equal(session_save(a, p2, err, sizeof err), GULLY_OK);
	struct app *b = new_app("emitter", 7);
	assert_int_equal(safe_open_autosave(b, err, sizeof err), GULLY_OK);
	assert_worlds_equal(b->world, a->world);
	assert_true(b->dirty);
	assert_string_equal(b->file, "");
	assert_int_not_equal(access(p2, F_OK), 0);
	free_app(a);
	free_app(b);
	assert_int_equal(chdir(old), 0);
}

/* A signal saves only unsaved work, and never over an autosave an earlier
 * session left and nobody resumed (a user's 500k droplets were replaced by
 * a later untouched session's 0): the new one is numbered beside it. */
static void test_autosave_keeps_an_earlier_one(void **state)
{
	(void)state;
	char old[PATH_MAX], base[PATH_MAX], saved[PATH_MAX], err[PATH_MAX + 256];
	char d[128];
	assert_non_null(getcwd(old, sizeof old));
	snprintf(d, sizeof d, "%s/keep", tmpdir);
	assert_int_equal(mkdir(d, 0700), 0);
	assert_int_equal(chdir(d), 0);
	assert_true(tui_autosave_path(base, sizeof base));
	bool numbered;
	/* Nothing unsaved: no file at all. */
	struct app *clean = new_app("particles", 3);
	clean->dirty = false;
	assert_int_equal(safe_autosave(clean, saved, sizeof saved, &numbered, err, sizeof err),
			 SAFE_AUTOSAVE_CLEAN);
	assert_int_not_equal(access(base, F_OK), 0);
	/* Unsaved work goes to the directory's autosave. */
	struct app *a = new_app("particles", 4);
	uint64_t done;
	assert_int_equal(session_step(a, 50, &done), GULLY_OK);
	assert_int_equal(safe_autosave(a, saved, sizeof saved, &numbered, err, sizeof err),
			 SAFE_AUTOSAVE_SAVED);
	assert_string_equal(saved, base);
	assert_false(numbered);
	/* A later clean session leaves it alone... */
	assert_int_equal(safe_autosave(clean, saved, sizeof saved, &numbered, err, sizeof err),
			 SAFE_AUTOSAVE_CLEAN);
	/* ...and a later unsaved one goes beside it, numbered. */
	struct app *b = new_app("particles", 5);
	assert_int_equal(session_step(b, 10, &done), GULLY_OK);
	assert_int_equal(safe_autosave(b, saved, sizeof saved, &numbered, err, sizeof err),
			 SAFE_AUTOSAVE_SAVED);
	assert_true(numbered);
	assert_string_not_equal(saved, base);
	assert_non_null(strstr(saved, "-2.gsnap"));
	/* R resumes the newest, then the next: both sessions' work comes back,
	 * and each file goes once it is resumed. */
	struct app *c = new_app("emitter", 6);
	assert_int_equal(safe_open_autosave(c, err, sizeof err), GULLY_OK);
	assert_worlds_equal(c->world, b->world);
	assert_int_not_equal(access(saved, F_OK), 0);
	assert_int_equal(safe_open_autosave(c, err, sizeof err), GULLY_OK);
	assert_worlds_equal(c->world, a->world);
	assert_int_not_equal(access(base, F_OK), 0);
	assert_int_equal(safe_open_autosave(c, err, sizeof err), GULLY_ENOTFOUND);
	free_app(clean);
	free_app(a);
	free_app(b);
	free_app(c);
	assert_int_equal(chdir(old), 0);
}

/* S refuses picture and data names (it wrote snapshot bytes into foo.png,
 * which then opened nowhere); plain and .gsnap names are saved. */
static void test_picture_names_refused(void **state)
{
	(void)state;
	const char *pictures[] = {"foo.png", "dir/x.PNG", "a.ppm", "a.pgm", "a.r16", "a.f32",
				  "b.jpg", "b.jpeg", "c.tif"};
	for (size_t i = 0; i < sizeof pictures / sizeof pictures[0]; i++)
		assert_true(safe_picture_name(pictures[i]));
	const char *snapshots[] = {"foo.gsnap", "foo", "dir.png/foo", "gully-1-2.gsnap", "a.b.c"};
	for (size_t i = 0; i < sizeof snapshots / sizeof snapshots[0]; i++)
		assert_false(safe_picture_name(snapshots[i]));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_undo_after_g_then_redo),
		cmocka_unit_test(test_undo_after_process_switch),
		cmocka_unit_test(test_undo_and_redo_share_the_budget),
		cmocka_unit_test(test_undo_keeps_under_half_the_free_memory),
		cmocka_unit_test(test_undo_skips_a_checkpoint_that_does_not_load),
		cmocka_unit_test(test_undo_packs_a_big_map),
		cmocka_unit_test(test_worker_matches_one_step),
		cmocka_unit_test(test_slice_scales_the_budget),
		cmocka_unit_test(test_lineedit),
		cmocka_unit_test(test_default_names_do_not_collide),
		cmocka_unit_test(test_autosave_per_directory),
		cmocka_unit_test(test_autosave_keeps_an_earlier_one),
		cmocka_unit_test(test_picture_names_refused),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
