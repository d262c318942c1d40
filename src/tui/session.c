/* The explorer's session: world, process, parameters and snapshot files.
 * No curses here, so every error comes back as text for the status line. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/terrain/hardness.h"
#include "core/terrain/terrain.h"
#include "io/simulation.h"
#include "tui/app.h"

static void drop_state(struct app *a)
{
	trace_stop(a); /* a traced droplet may hold the state (hydrology's) */
	if (a->proc && a->state)
		a->proc->destroy(a->state);
	a->state = NULL;
}

static void list_section(struct app *a, const char *name)
{
	struct param_section sec;
	if (!name || !params_section(params_section_find(name), &sec))
		return;
	for (int i = sec.first; i < sec.first + sec.count; i++)
		if (a->nparams < (int)(sizeof a->plist / sizeof a->plist[0]))
			a->plist[a->nparams++] = i;
}

void session_param_list(struct app *a)
{
	a->nparams = 0;
	/* The process's own, then the view's, then the world's (a change there
	 * makes the terrain or hardness map again: world_params.c). */
	list_section(a, a->proc ? a->proc->section : NULL);
	list_section(a, "view");
	for (int k = 0; world_param_section(k); k++)
		list_section(a, world_param_section(k));
	if (a->sel >= a->nparams)
		a->sel = a->nparams - 1;
	if (a->sel < 0)
		a->sel = 0;
}

/* The app's world, parameters and process as one simulation (io/simulation.h). */
static struct simulation app_simulation(const struct app *a)
{
	return (struct simulation){
		.world = a->world, .params = a->params, .proc = a->proc, .state = a->state};
}

int session_set_process(struct app *a, const struct process_ops *p, char *err, size_t errlen)
{
	/* A traced droplet lands first, on the process state it runs on. */
	trace_finish(a);
	trace_stop(a);
	struct simulation sim = app_simulation(a);
	int e = simulation_switch(&sim, p, err, errlen);
	if (e)
		return e;
	/* What ran so far, the old process's finish too, was the old one's. */
	counts_book(a);
	a->proc = sim.proc;
	a->state = sim.state;
	a->slice_budget = 0;
	a->rate = 0;
	session_param_list(a);
	return GULLY_OK;
}

int session_new_world(struct app *a, char *err, size_t errlen)
{
	return session_new_world_on(a, NULL, err, errlen);
}

int session_new_world_on(struct app *a, const float *heights, char *err, size_t errlen)
{
	struct world *w = NULL;
	int e = world_from_params_on(&w, &a->params, heights);
	if (e) {
		snprintf(err, errlen, "cannot make a %dx%d world: %s", a->params.world.width,
			 a->params.world.height, gully_strerror(e));
		return e;
	}
	if (a->hardness_map && a->params.hardness.generator == HARDNESS_FILE &&
	    (e = hardness_fill_from(w, a->hardness_map, a->hardness_w, a->hardness_h))) {
		snprintf(err, errlen, "--hardness: %s", gully_strerror(e));
		world_destroy(w);
		return e;
	}
	void *state = NULL;
	if (a->proc && (e = a->proc->create(&state, w, &a->params))) {
		snprintf(err, errlen, "%s: %s", a->proc->name, gully_strerror(e));
		world_destroy(w);
		return e;
	}
	drop_state(a);
	world_destroy(a->world);
	a->world = w;
	a->state = state;
	counts_reset(a, false);
	a->dirty = true;
	a->pristine = true;
	a->pool_row = 0;
	a->pool_acc = 0;
	a->shown_valid = false;
	tracer_reset(a);
	return GULLY_OK;
}

int session_load(struct app *a, const char *path, char *err, size_t errlen)
{
	struct simulation sim;
	struct snapshot_info saved;
	int e = simulation_open(&sim, &saved, path, err, errlen);
	if (e)
		return e;
	e = simulation_start(&sim, process_find(saved.process), &saved, path, err, errlen);
	snapshot_info_free(&saved);
	if (e) {
		simulation_end(&sim);
		return e;
	}
	drop_state(a);
	world_destroy(a->world);
	undo_clear(a);
	a->world = sim.world;
	a->params = sim.params;
	a->pristine = false;
	a->preset[0] = '\0';
	a->proc = sim.proc;
	a->state = sim.state;
	counts_reset(a, true);
	a->dirty = false;
	a->pool_row = 0;
	a->pool_acc = 0;
	a->shown_valid = false;
	snprintf(a->file, sizeof a->file, "%s", path);
	session_param_list(a);
	tracer_reset(a);
	return GULLY_OK;
}

int session_save(struct app *a, const char *path, char *err, size_t errlen)
{
	struct simulation sim = app_simulation(a);
	int e = simulation_save(&sim, path, err, errlen);
	if (e)
		return e;
	snprintf(a->file, sizeof a->file, "%s", path);
	a->dirty = false;
	return GULLY_OK;
}

int session_step(struct app *a, uint64_t budget, uint64_t *done)
{
	struct process_report rep = {0};
	int e = a->proc->step(a->state, a->world, &a->params, budget, &rep);
	*done = budget;
	a->dirty = true;
	a->pristine = false;
	/* Unstable parameters (sim_watch): the run pauses, saying which to
	 * change, with the last checkpoint one key away. */
	char msg[sizeof a->message];
	const uint64_t count = process_counts_time(a->proc) ? a->world->steps : a->world->particles;
	if (!e && sim_watch(&a->watch, a->world, a->proc, rep.steps, count, 0, false, msg,
			    sizeof msg) != GULLY_OK) {
		a->running = false;
		app_message(a, "%s; paused, u goes back", msg);
	}
	return e;
}

void session_lag(struct app *a)
{
	if (a->lagging || !a->proc->catch_up)
		return;
	a->proc->catch_up(a->state, true);
	a->lagging = true;
}

void session_whole(struct app *a)
{
	if (!a->lagging)
		return;
	a->proc->catch_up(a->state, false);
	a->lagging = false;
}

void session_free(struct app *a)
{
	undo_clear(a);
	drop_state(a);
	world_destroy(a->world);
	a->world = NULL;
	shade_frame_free(&a->frame);
	free(a->shown);
	a->shown = NULL;
	a->nshown = 0;
}
