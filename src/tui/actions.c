/* What each key does: the handlers the key table (keys.c) names, one per
 * action, as tmux's cmd_entry names its exec. app_handle_key finds the
 * binding and calls its handler; a non-zero return ends the loop. */
#include <curses.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "io/preset.h"
#include "tui/actions.h"
#include "tui/app.h"
#include "tui/complete.h"
#include "tui/keys.h"
#include "tui/safe.h"
#include "tui/tui.h"

/* What `.` runs, paused. */
#define SLICE_SECONDS 0.025

static int map_pixels_h(void)
{
	return (LINES - 1) * 2;
}

static void zoom(struct app *a, int dir)
{
	int z = a->view.zoom + dir;
	if (z < 0 || z >= ZOOM_COUNT) {
		app_message(a, "zoom is %s already",
			    a->view.zoom == ZOOM_FIT ? "out to the whole map" : shade_zoom_name(a->view.zoom));
		return;
	}
	/* Keep the centre of what is shown in the centre. */
	struct shade_geom g;
	int pw = app_map_pixels_w(), ph = map_pixels_h();
	shade_geometry(&a->view, a->world, pw, ph, &g);
	double cx = g.x0 + g.cpp * g.used_w / 2, cy = g.y0 + g.cpp * g.used_h / 2;
	a->view.zoom = z;
	shade_geometry(&a->view, a->world, pw, ph, &g);
	a->view.pan_x = (int)(cx - g.cpp * pw / 2);
	a->view.pan_y = (int)(cy - g.cpp * ph / 2);
	shade_clamp_pan(&a->view, a->world, pw, ph);
	app_message(a, "zoom %s", z == ZOOM_FIT ? "out: the whole map" : shade_zoom_name(z));
}

static void pan(struct app *a, int ax, int ay)
{
	if (a->view.zoom == ZOOM_FIT) {
		app_message(a, "the whole map is shown; zoom in with z to pan");
		return;
	}
	int pw = app_map_pixels_w(), ph = map_pixels_h();
	int dx = abs(ax) == 2 ? pw / 2 : 8, dy = abs(ay) == 2 ? ph / 2 : 8;
	shade_pan(&a->view, a->world, pw, ph, ax ? (ax > 0 ? dx : -dx) : 0,
		  ay ? (ay > 0 ? dy : -dy) : 0);
	a->needs_draw = true;
}

/* After the panel changed parameter `index` from `old`. A world parameter's
 * change remakes the terrain, which marks the session unsaved, or is
 * refused with its value put back and the mark left as it was; any other
 * marks the session only when the value really moved. */
static void param_changed(struct app *a, int index, double old)
{
	if (world_param_changed(a, index, old))
		return;
	if (params_get(&a->params, index) != old)
		a->dirty = true;
	char val[64];
	num_param(&a->params, index, val, sizeof val);
	const char *key = params_def(index)->key;
	/* A value the running state took when it was made (sph's pores) acts
	 * only on the next one: said, or the change would seem to do nothing. */
	for (const char *const *k = a->proc && a->state ? a->proc->made_with : NULL; k && *k; k++)
		if (strcmp(*k, key) == 0) {
			app_message(a, "%s = %s, for a new state (g): the running %s state keeps its own",
				    key, val, a->proc->name);
			return;
		}
	app_message(a, "%s = %s", key, val);
}

static void type_value(struct app *a)
{
	int index = a->plist[a->sel];
	const struct param_def *d = params_def(index);
	char q[96], buf[128];
	snprintf(q, sizeof q, " set %s to: ", d->key);
	params_format(&a->params, index, buf, sizeof buf);
	bool was = a->running;
	a->running = false;
	if (prompt_read(a, q, buf, sizeof buf)) {
		const double old = params_get(&a->params, index);
		int e = params_set_text(&a->params, index, buf);
		if (e == GULLY_OK) {
			param_changed(a, index, old);
		} else if (d->type == PARAM_ENUM) {
			app_message(a, "%s: '%s' is not one of %s", d->key, buf, d->choices);
		} else if (d->type == PARAM_BOOL) {
			app_message(a, "%s: '%s' is not on or off", d->key, buf);
		} else if (e == GULLY_ERANGE) {
			char lo[32], hi[32];
			num_value(lo, sizeof lo, d->min);
			num_value(hi, sizeof hi, d->max);
			app_message(a, "%s: %s is out of range (%s to %s)", d->key, buf, lo, hi);
		} else {
			app_message(a, "%s: '%s' is not a number", d->key, buf);
		}
	} else {
		app_message(a, "cancelled");
	}
	a->running = was;
}

static void overlay_cycle(struct app *a)
{
	unsigned ov = a->view.overlays;
	int only = -1, n = 0;
	for (int o = 0; o < OVERLAY_COUNT; o++)
		if (ov & OVERLAY_BIT(o)) {
			only = o;
			n++;
		}
	if (n == 0)
		a->view.overlays = OVERLAY_BIT(0);
	else if (n == 1 && only + 1 < OVERLAY_COUNT)
		a->view.overlays = OVERLAY_BIT(only + 1);
	else
		a->view.overlays = 0;
	for (int o = 0; o < OVERLAY_COUNT; o++)
		if (a->view.overlays & OVERLAY_BIT(o))
			app_message(a, "overlay: %s", shade_overlay_name(o));
	if (!a->view.overlays)
		app_message(a, "overlays off");
}


/* Before g, P or a process switch: undo brings the map and its parameters
 * back. A map too big to hold is replaced only on a yes. */
bool app_checkpoint_whole(struct app *a, const char *what)
{
	int e = undo_push_whole(a, app_now());
	if (e == GULLY_OK || !a->dirty)
		return true;
	char q[160];
	snprintf(q, sizeof q, " %s cannot be undone (%s): go on?", what,
		 e == GULLY_ESIZE   ? "the map is too big to keep"
		 : e == GULLY_ENOMEM ? "too little free memory to keep the map"
				     : gully_strerror(e));
	return prompt_yes_no(a, q);
}

static void preset_load_prompt(struct app *a)
{
	char buf[PATH_MAX] = "";
	struct completion comp;
	completion_init(&comp, preset_complete, preset_names_free);
	bool was = a->running;
	a->running = false;
	if (prompt_read_ex(a, " load preset (Tab completes): ", buf, sizeof buf, &comp) && buf[0]) {
		char err[PRESET_ERR_MAX + 128];
		if (safe_snapshot_file(buf)) {
			if (!safe_open_key(a, buf))
				a->running = was;
			return; /* opened: paused, where it was saved */
		}
		if (!app_checkpoint_whole(a, "loading a preset")) {
			app_message(a, "no preset loaded");
		} else if (session_load_preset(a, buf, err, sizeof err) == GULLY_OK) {
			app_message(a, "loaded preset %s (%s); u brings the last map back", buf,
				    a->proc->name);
			app_refresh_stats(a, true);
			return; /* a fresh start: paused, as the class sees it first */
		} else {
			app_message(a, "%s", err);
		}
	} else {
		app_message(a, "no preset loaded");
	}
	a->running = was;
}

static void preset_save_prompt(struct app *a)
{
	char buf[PRESET_NAME_MAX + 1];
	snprintf(buf, sizeof buf, "%s", a->preset);
	bool was = a->running;
	a->running = false;
	if (!prompt_read(a, " save the parameters as preset: ", buf, sizeof buf) || !buf[0]) {
		app_message(a, "no preset saved");
		a->running = was;
		return;
	}
	char path[PATH_MAX], other[PATH_MAX] = "", q[PATH_MAX + PRESET_NAME_MAX + 128];
	if (session_preset_exists(buf, path, sizeof path)) {
		/* In the user's own presets: a replacement. Elsewhere (a shipped
		 * preset, GULLY_PRESET_PATH): a second preset of that name, which
		 * hides the first or is hidden by it; say which after saving. */
		const bool own = session_preset_is_users(buf, path);
		if (!own)
			snprintf(other, sizeof other, "%s", path);
		if (own && preset_user_dir_is_shipped())
			snprintf(q, sizeof q,
				 " preset %s exists (%s, where gully's shipped presets are"
				 " too): replace it?",
				 buf, path);
		else if (own)
			snprintf(q, sizeof q, " preset %s exists: replace it?", buf);
		else if (session_preset_users_has(buf))
			/* Found first elsewhere, but the save goes over the user's own. */
			snprintf(q, sizeof q, " your preset %s (hidden by %s) exists: replace it?", buf,
				 path);
		else
			snprintf(q, sizeof q, " %s names a preset already (%s): save yours too?", buf,
				 path);
		if (!prompt_yes_no(a, q)) {
			app_message(a, "kept preset %s; nothing saved", buf);
			a->running = was;
			return;
		}
	}
	char err[PRESET_ERR_MAX + 128];
	if (session_save_preset(a, buf, path, sizeof path, err, sizeof err) != GULLY_OK)
		app_message(a, "%s", err);
	else if (other[0] && !session_preset_is_users(buf, NULL))
		app_message(a, "saved %s to your presets, but %s is found first by that name",
			    buf, other);
	else if (other[0])
		app_message(a, "saved preset %s; it hides %s", buf, other);
	else
		app_message(a, "saved preset %s%s", buf,
			    a->dirty ? " (parameters only: S saves the map too)" : "");
	a->running = was;
}

static const char *source_name(const struct app *a, const struct source *s)
{
	return a->proc->sources[s->index].name;
}

static void source_pick_key(struct app *a, int action)
{
	struct source s;
	if (!source_get(a, &s)) {
		source_say_none(a);
		return;
	}
	if (action == ACT_SOURCE_PICK && !source_pick_next(a)) {
		app_message(a, "%s has one %s only", a->proc->name, source_name(a, &s));
		return;
	}
	if (action == ACT_SOURCE_ON && !source_toggle(a)) {
		app_message(a, "the %s has no on/off switch", source_name(a, &s));
		return;
	}
	source_get(a, &s);
	app_message(a, "%s picked, %s (n picks, N switches)", source_name(a, &s),
		    s.on ? "on" : "off");
}

static void undo_key(struct app *a, bool redo)
{
	char err[512];
	a->running = false;
	counts_book(a);
	const struct run_counts was = a->counts;
	if (redo ? undo_redo(a, err, sizeof err) : undo_pop(a, err, sizeof err)) {
		app_message(a, "%s", err);
		return;
	}
	tracer_reset(a);
	app_refresh_stats(a, true);
	/* The process's own count now and before, in the unit the panel
	 * counts (a process of time steps counts its steps): a checkpoint of
	 * another map (before g or P) may hold more than this one. "N more
	 * checkpoints" is what the tests and a class count down. */
	const bool timed = process_counts_time(a->proc);
	const unsigned long long now = timed ? counts_steps(a) : counts_particles(a);
	const unsigned long long before = counts_own(&was, a->proc, timed);
	int left = redo ? redo_levels(a) : undo_levels(a);
	const char *unit = a->proc->unit;
	const int unit_len = (int)strlen(unit) - (now == 1 && unit[0] ? 1 : 0);
	app_message(a, "%s: seed %d, %llu %.*s (was %llu), %d more checkpoint%s%s%s",
		    redo ? "redone" : "undone", a->params.world.seed, now, unit_len, unit, before,
		    left, left == 1 ? "" : "s", redo ? " to redo" : " (U redoes)", err);
}

/* The selected parameter's index in the registry, or -1 (no parameters). */
static int selected_param(const struct app *a)
{
	return a->nparams > 0 ? a->plist[a->sel] : -1;
}

int act_quit(struct app *a, const struct key_binding *k)
{
	(void)k;
	a->quit = safe_quit_confirmed(a);
	return 0;
}

int act_help(struct app *a, const struct key_binding *k)
{
	(void)k;
	a->help = true;
	a->help_top = 0;
	return 0;
}

int act_run_pause(struct app *a, const struct key_binding *k)
{
	(void)k;
	a->running = !a->running;
	if (a->running) {
		/* The run goes on from a whole droplet: a traced one ends. */
		trace_finish(a);
		trace_stop(a);
		budget_run_on(a);
	}
	if (a->running)
		app_checkpoint(a);
	return 0;
}

int act_step(struct app *a, const struct key_binding *k)
{
	(void)k;
	a->running = false;
	trace_finish(a);
	trace_stop(a);
	app_checkpoint(a);
	/* Counted in the unit the panel counts: a process of time steps (sph)
	 * in its steps, whose slice may release no particle at all (a count of
	 * particles would say "stepped 0 steps" while the panel's steps go on). */
	const bool timed = process_counts_time(a->proc);
	const uint64_t before = timed ? counts_steps(a) : counts_particles(a);
	int e = sim_run_slice(a, SLICE_SECONDS);
	if (e)
		return e;
	const uint64_t now = timed ? counts_steps(a) : counts_particles(a);
	const unsigned long long n = now >= before ? now - before : 0;
	const char *unit = a->proc->unit;
	app_message(a, "stepped %llu %.*s", n, (int)strlen(unit) - (n == 1 && unit[0] ? 1 : 0),
		    unit);
	app_refresh_stats(a, true);
	return 0;
}

int act_process(struct app *a, const struct key_binding *k)
{
	char err[512];
	const struct process_ops *p = process_get(k->arg);
	if (!p)
		app_message(a, "process %d is not built yet", k->arg + 1);
	else if (p == a->proc)
		app_message(a, "%s is running already", p->title);
	else if (!app_checkpoint_whole(a, "switching the process"))
		app_message(a, "kept %s", a->proc->title);
	else if (session_set_process(a, p, err, sizeof err))
		app_message(a, "%s", err);
	else {
		a->dirty = true;
		app_message(a, "process %d: %s", k->arg + 1, p->title);
	}
	return 0;
}

int act_param_prev(struct app *a, const struct key_binding *k)
{
	(void)k;
	if (a->sel > 0)
		a->sel--;
	return 0;
}

int act_param_next(struct app *a, const struct key_binding *k)
{
	(void)k;
	if (a->sel + 1 < a->nparams)
		a->sel++;
	return 0;
}

int act_param_nudge(struct app *a, const struct key_binding *k)
{
	int index = selected_param(a);
	if (index >= 0) {
		const double old = params_get(&a->params, index);
		params_nudge(&a->params, index, k->arg);
		param_changed(a, index, old);
	}
	return 0;
}

int act_param_type(struct app *a, const struct key_binding *k)
{
	(void)k;
	if (selected_param(a) >= 0)
		type_value(a);
	return 0;
}

int act_param_reset(struct app *a, const struct key_binding *k)
{
	(void)k;
	int index = selected_param(a);
	if (index >= 0) {
		const double old = params_get(&a->params, index);
		params_set(&a->params, index, params_def(index)->def);
		param_changed(a, index, old);
	}
	return 0;
}

/* PgUp/PgDn, Home/End and / in the parameter list. */
int act_panel(struct app *a, const struct key_binding *k)
{
	panel_key(a, k->action, k->arg);
	return 0;
}

int act_new_terrain(struct app *a, const struct key_binding *k)
{
	(void)k;
	char err[512];
	int old = a->params.world.seed;
	if (!app_checkpoint_whole(a, "a new terrain")) {
		app_message(a, "kept this terrain");
		return 0;
	}
	a->params.world.seed = old >= 2147483647 ? 0 : old + 1;
	app_note_making(a);
	if (session_new_world(a, err, sizeof err)) {
		a->params.world.seed = old;
		app_message(a, "%s", err);
	} else {
		app_message(a, "new terrain, seed %d (u brings the last one back)",
			    a->params.world.seed);
	}
	app_refresh_stats(a, true);
	return 0;
}

int act_overlay_cycle(struct app *a, const struct key_binding *k)
{
	(void)k;
	overlay_cycle(a);
	return 0;
}

int act_overlay(struct app *a, const struct key_binding *k)
{
	a->view.overlays ^= OVERLAY_BIT(k->arg);
	/* Named as help and the legend name it: "particles on" for the
	 * droplet paths (which release none) and "vegetation" for the trees
	 * read as other things. */
	app_message(a, "%s: %s", k->help, a->view.overlays & OVERLAY_BIT(k->arg) ? "on" : "off");
	return 0;
}

int act_zoom(struct app *a, const struct key_binding *k)
{
	zoom(a, k->arg);
	return 0;
}

int act_pan_x(struct app *a, const struct key_binding *k)
{
	pan(a, k->arg, 0);
	return 0;
}

int act_pan_y(struct app *a, const struct key_binding *k)
{
	pan(a, 0, k->arg);
	return 0;
}

int act_redraw(struct app *a, const struct key_binding *k)
{
	(void)a;
	(void)k;
	clearok(curscr, TRUE);
	return 0;
}

int act_save(struct app *a, const struct key_binding *k)
{
	(void)k;
	safe_save_prompt(a);
	return 0;
}

/* A click: the wheel zooms (as in map viewers); a button on the map ends a
 * cross-section or a trace pick, places the emitter, or inspects the cell. */
int act_inspect(struct app *a, const struct key_binding *k)
{
	(void)k;
	MEVENT ev;
	char buf[200];
	int cx, cy;
	if (getmouse(&ev) != OK)
		return 0;
	if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
		zoom(a, ev.bstate & BUTTON4_PRESSED ? 1 : -1);
		return 0;
	}
	if (!map_cell(a, ev.y, ev.x, &cx, &cy))
		return 0;
	if (profile_click(a, cx, cy) || trace_click(a, cx, cy))
		return 0;
	struct source src;
	if (source_place(a, cx, cy) && source_get(a, &src))
		app_message(a, "%s placed on cell %d,%d", source_name(a, &src), cx, cy);
	else if (map_inspect(a, ev.y, ev.x, buf, sizeof buf))
		app_message(a, "%s", buf);
	return 0;
}

int act_preset_load(struct app *a, const struct key_binding *k)
{
	(void)k;
	preset_load_prompt(a);
	return 0;
}

int act_preset_save(struct app *a, const struct key_binding *k)
{
	(void)k;
	preset_save_prompt(a);
	return 0;
}

/* S-arrows move the emitter, [ and ] turn it (k->action says which). */
int act_source_move(struct app *a, const struct key_binding *k)
{
	struct source src;
	int dx = k->action == ACT_SOURCE_X ? k->arg : 0;
	int dy = k->action == ACT_SOURCE_Y ? k->arg : 0;
	int dt = k->action == ACT_SOURCE_TURN ? k->arg : 0;
	if (!source_move(a, dx, dy, dt) || !source_get(a, &src)) {
		source_say_none(a);
		return 0;
	}
	/* A vertical jet has no heading to turn (the process emits it the same
	 * whatever the direction, sph_sources.c): say so, or the turn looks
	 * like it did something. */
	if (dt && src.iel >= 0 && src.level < 1e-9)
		app_message(a, "%s heading %.0f degrees: no effect, it points straight %s "
			    "(elevation %.0f)", source_name(a, &src), src.direction,
			    params_get(&a->params, src.iel) < 0 ? "down" : "up",
			    params_get(&a->params, src.iel));
	else if (dt)
		app_message(a, "%s heading %.0f degrees", source_name(a, &src), src.direction);
	else
		app_message(a, "%s at %.0f,%.0f", source_name(a, &src), src.x, src.y);
	return 0;
}

int act_source_pick(struct app *a, const struct key_binding *k)
{
	source_pick_key(a, k->action);
	return 0;
}

int act_equations(struct app *a, const struct key_binding *k)
{
	equations_key(a, k->action, k->arg);
	return 0;
}

int act_undo(struct app *a, const struct key_binding *k)
{
	undo_key(a, k->action == ACT_REDO);
	return 0;
}

int act_resume(struct app *a, const struct key_binding *k)
{
	(void)k;
	safe_resume_key(a);
	tracer_reset(a);
	app_refresh_stats(a, true);
	return 0;
}


/* The class aids: the colours' re-fit, the cross-section, the trace. */
int act_class(struct app *a, const struct key_binding *k)
{
	class_key(a, k->action, k->arg);
	return 0;
}
