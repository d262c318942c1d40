/* The explorer's loop: run the simulation in ~25 ms slices, read keys
 * between slices, draw at most `fps` frames a second, and always give the
 * terminal back. */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/base/error.h"
#include "io/preset.h"
#include "tui/app.h"
#include "tui/complete.h"
#include "tui/crt.h"
#include "tui/keys.h"
#include "tui/safe.h"
#include "tui/tui.h"

/* What `.` runs, paused. */
#define SLICE_SECONDS 0.025
#define MESSAGE_SECONDS 4.0
/* From this many cells a new terrain takes long enough (~0.4 s at 1024x1024,
 * ~7 s at 4096x4096) to say so before it starts. */

double app_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double thread_cpu_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void app_message(struct app *a, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(a->message, sizeof a->message, fmt, ap);
	va_end(ap);
	a->message_until = app_now() + MESSAGE_SECONDS;
	a->needs_draw = true;
}

/* mkdir -p for the directories above `path`. */
int app_make_parents(const char *path)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof tmp, "%s", path) >= (int)sizeof tmp)
		return -1;
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0700) != 0 && errno != EEXIST)
			return -1;
		*p = '/';
	}
	return 0;
}

bool app_too_small(void)
{
	return LINES < MIN_ROWS || COLS < MIN_COLS;
}

/* The side panel shows when the map keeps 41 columns beside it. */
static bool panel_shown(void)
{
	return COLS >= PANEL_MIN_COLS && LINES >= PANEL_MIN_ROWS;
}

static int map_pixels_w(void)
{
	return panel_shown() ? COLS - PANEL_WIDTH - 1 : COLS;
}

/* Cells summed per call: bounded work, whatever the map size. */
#define POOL_CELLS_PER_CALL (1 << 20)

/* Sums the pool layer a band at a time; `whole` finishes the sum now. */
static void refresh_stats(struct app *a, bool whole)
{
	const struct world *w = a->world;
	long budget = whole ? -1 : POOL_CELLS_PER_CALL;
	if (whole) {
		a->pool_row = 0;
		a->pool_acc = 0;
	}
	while (budget < 0 || budget > 0) {
		a->pool_acc = world_pool_volume(w, (size_t)a->pool_row * (size_t)w->width,
						(size_t)w->width, a->pool_acc);
		if (budget > 0)
			budget = budget > w->width ? budget - w->width : 0;
		if (++a->pool_row >= w->height) {
			a->pool_volume = a->pool_acc;
			a->pool_acc = 0;
			a->pool_row = 0;
			if (whole)
				break;
		}
	}
}

void app_draw(struct app *a)
{
	erase();
	if (app_too_small()) {
		const char *msg = "terminal too small";
		char need[80];
		snprintf(need, sizeof need, "%dx%d here, gully needs at least %dx%d", COLS, LINES,
			 MIN_COLS, MIN_ROWS);
		int y = LINES / 2 - 1;
		mvprintw(y < 0 ? 0 : y, 0, "%s", msg);
		mvprintw(y + 1 < LINES ? y + 1 : 0, 0, "%s", need);
		if (y + 2 < LINES)
			mvprintw(y + 2, 0, "q quits");
		refresh();
		return;
	}
	int map_cols = map_pixels_w(), map_rows = LINES - 1;
	if (a->view.overlays & OVERLAY_BIT(OVERLAY_PARTICLES))
		tracer_advance(a, 3);
	else
		a->npoints = 0;
	refresh_stats(a, false);
	legend_fit_if_new(a);
	int tr, prof;
	int shown = class_layout(a, map_rows, &tr, &prof);
	map_draw(a, shown, map_cols);
	source_draw(a);
	class_draw(a, shown, tr, prof, map_cols);
	if (a->equations)
		equations_draw(a, shown, map_cols);
	if (panel_shown()) {
		crt_vline(0, map_cols, map_rows);
		panel_draw(a, map_cols + 1, map_rows, PANEL_WIDTH);
	}
	status_draw(a, LINES - 1, COLS);
	if (a->help)
		help_draw(a, LINES, COLS);
	/* Time spent waiting (not computing) while the terminal took the
	 * frame: a write that blocked. */
	double wall = app_now(), cpu = thread_cpu_seconds();
	/* The simulation goes on while the terminal takes the frame. */
	sim_ui_release(a);
	refresh();
	sim_ui_take(a);
	a->write_wait = (app_now() - wall) - (thread_cpu_seconds() - cpu);
}

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
	int pw = map_pixels_w(), ph = map_pixels_h();
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
	int pw = map_pixels_w(), ph = map_pixels_h();
	int dx = abs(ax) == 2 ? pw / 2 : 8, dy = abs(ay) == 2 ? ph / 2 : 8;
	shade_pan(&a->view, a->world, pw, ph, ax ? (ax > 0 ? dx : -dx) : 0,
		  ay ? (ay > 0 ? dy : -dy) : 0);
	a->needs_draw = true;
}

static void describe_value(struct app *a, int index)
{
	char val[64];
	num_param(&a->params, index, val, sizeof val);
	app_message(a, "%s = %s", params_def(index)->key, val);
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
		int e = params_set_text(&a->params, index, buf);
		if (e == GULLY_OK) {
			a->dirty = true;
			describe_value(a, index);
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

/* A checkpoint for undo; a world too big for the budget says so once. */
void app_checkpoint(struct app *a)
{
	int e = undo_push(a, app_now());
	if (e == GULLY_ESIZE && !a->undo.said_too_big) {
		a->undo.said_too_big = true;
		app_message(a, "this map is too big to undo (over %zu MB)", UNDO_MAX_BYTES >> 20);
	}
	else if (e && e != GULLY_ESIZE)
		app_message(a, "no undo checkpoint: %s", gully_strerror(e));
}

/* Before g, P or a process switch: undo brings the map and its parameters
 * back. A map too big to hold is replaced only on a yes. */
static bool checkpoint_whole(struct app *a, const char *what)
{
	int e = undo_push_whole(a, app_now());
	if (e == GULLY_OK || !a->dirty)
		return true;
	char q[160];
	snprintf(q, sizeof q, " %s cannot be undone (%s): go on?", what,
		 e == GULLY_ESIZE ? "the map is too big to keep" : gully_strerror(e));
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
		if (!checkpoint_whole(a, "loading a preset")) {
			app_message(a, "no preset loaded");
		} else if (session_load_preset(a, buf, err, sizeof err) == GULLY_OK) {
			app_message(a, "loaded preset %s (%s); u brings the last map back", buf,
				    a->proc->name);
			refresh_stats(a, true);
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
	char path[PATH_MAX], q[PRESET_NAME_MAX + 64];
	if (session_preset_exists(buf, path, sizeof path)) {
		snprintf(q, sizeof q, " preset %s exists: replace it?", buf);
		if (!prompt_yes_no(a, q)) {
			app_message(a, "kept preset %s; nothing saved", buf);
			a->running = was;
			return;
		}
	}
	char err[PRESET_ERR_MAX + 128];
	if (session_save_preset(a, buf, path, sizeof path, err, sizeof err) == GULLY_OK)
		app_message(a, "saved preset %s%s", buf,
			    a->dirty ? " (parameters only: S saves the map too)" : "");
	else
		app_message(a, "%s", err);
	a->running = was;
}

static void no_source(struct app *a)
{
	app_message(a, "%s has no emitter to move (the emitter process has)", a->proc->name);
}

static const char *source_name(const struct app *a, const struct source *s)
{
	return a->proc->sources[s->index].name;
}

static void source_pick_key(struct app *a, int action)
{
	struct source s;
	if (!source_get(a, &s)) {
		no_source(a);
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
	long long before = (long long)a->world->particles;
	if (redo ? undo_redo(a, err, sizeof err) : undo_pop(a, err, sizeof err)) {
		app_message(a, "%s", err);
		return;
	}
	tracer_reset(a);
	refresh_stats(a, true);
	long long moved = before - (long long)a->world->particles;
	if (moved < 0)
		moved = -moved;
	int left = redo ? redo_levels(a) : undo_levels(a);
	/* "N more checkpoints" is what the tests and a class count down. */
	app_message(a, "%s: seed %d, %lld %s %s, %d more checkpoint%s%s", redo ? "redone" : "undone",
		    a->params.world.seed, moved, a->proc->unit, redo ? "on" : "back", left,
		    left == 1 ? "" : "s", redo ? " to redo" : " (U redoes)");
}

int app_handle_key(struct app *a, int ch)
{
	if (ch == KEY_RESIZE) {
		a->needs_draw = true;
		return 0;
	}
	/* A key pressed while help is open scrolls it or closes it; it never
	 * reaches the map (q there must not quit). */
	if (a->help) {
		if (!help_scroll(a, ch, LINES, COLS))
			a->help = false;
		a->needs_draw = true;
		return 0;
	}
	if (a->equations && (ch == 'q' || ch == 27)) {
		a->equations = false;
		a->needs_draw = true;
		return 0;
	}
	const struct key_binding *k = keys_find(ch);
	if (!k && ch > '0' && ch <= '9') {
		/* A digit past the last process: say what there is. */
		app_message(a, "no process %c: this gully has %d (%s)", ch, process_count(),
			    process_names());
		a->needs_draw = true;
		return 0;
	}
	if (!k) {
		if (ch != 27)
			app_message(a, "unknown key: press ? for help");
		return 0;
	}
	a->needs_draw = true;
	/* Anything but moving the selection or the help may change the map's
	 * look: show exact colours again instead of the settled ones. */
	if (k->action != ACT_PARAM_PREV && k->action != ACT_PARAM_NEXT && k->action != ACT_HELP)
		a->shown_valid = false;
	char err[512];
	int index = a->nparams > 0 ? a->plist[a->sel] : -1;
	switch (k->action) {
	case ACT_QUIT:
		a->quit = safe_quit_confirmed(a);
		break;
	case ACT_HELP:
		a->help = true;
		a->help_top = 0;
		break;
	case ACT_RUN_PAUSE:
		a->running = !a->running;
		if (a->running) {
			/* The run goes on from a whole droplet: a traced one ends. */
			trace_finish(a);
			trace_stop(a);
			budget_run_on(a);
		}
		if (a->running)
			app_checkpoint(a);
		break;
	case ACT_STEP: {
		a->running = false;
		trace_finish(a);
		trace_stop(a);
		app_checkpoint(a);
		uint64_t before = a->world->particles;
		int e = sim_run_slice(a, SLICE_SECONDS);
		if (e)
			return e;
		app_message(a, "stepped %llu %s", (unsigned long long)(a->world->particles - before),
			    a->proc->unit);
		refresh_stats(a, true);
		break;
	}
	case ACT_PROCESS: {
		const struct process_ops *p = process_get(k->arg);
		if (!p)
			app_message(a, "process %d is not built yet", k->arg + 1);
		else if (p == a->proc)
			app_message(a, "%s is running already", p->title);
		else if (!checkpoint_whole(a, "switching the process"))
			app_message(a, "kept %s", a->proc->title);
		else if (session_set_process(a, p, err, sizeof err))
			app_message(a, "%s", err);
		else {
			a->dirty = true;
			app_message(a, "process %d: %s", k->arg + 1, p->title);
		}
		break;
	}
	case ACT_PARAM_PREV:
		if (a->sel > 0)
			a->sel--;
		break;
	case ACT_PARAM_NEXT:
		if (a->sel + 1 < a->nparams)
			a->sel++;
		break;
	case ACT_PARAM_NUDGE:
		if (index >= 0) {
			params_nudge(&a->params, index, k->arg);
			a->dirty = true;
			describe_value(a, index);
		}
		break;
	case ACT_PARAM_TYPE:
		if (index >= 0)
			type_value(a);
		break;
	case ACT_PARAM_RESET:
		if (index >= 0) {
			params_set(&a->params, index, params_def(index)->def);
			a->dirty = true;
			describe_value(a, index);
		}
		break;
	case ACT_NEW_TERRAIN: {
		int old = a->params.world.seed;
		if (!checkpoint_whole(a, "a new terrain")) {
			app_message(a, "kept this terrain");
			break;
		}
		a->params.world.seed = old >= 2147483647 ? 0 : old + 1;
		if ((long)a->params.world.width * a->params.world.height >= APP_BIG_MAP_CELLS) {
			app_message(a, "making a %dx%d terrain...", a->params.world.width,
				    a->params.world.height);
			app_draw(a);
		}
		if (session_new_world(a, err, sizeof err)) {
			a->params.world.seed = old;
			app_message(a, "%s", err);
		} else {
			app_message(a, "new terrain, seed %d (u brings the last one back)",
				    a->params.world.seed);
		}
		refresh_stats(a, true);
		break;
	}
	case ACT_OVERLAY_CYCLE:
		overlay_cycle(a);
		break;
	case ACT_OVERLAY:
		a->view.overlays ^= OVERLAY_BIT(k->arg);
		app_message(a, "%s %s", shade_overlay_name(k->arg),
			    a->view.overlays & OVERLAY_BIT(k->arg) ? "on" : "off");
		break;
	case ACT_ZOOM:
		zoom(a, k->arg);
		break;
	case ACT_PAN_X:
		pan(a, k->arg, 0);
		break;
	case ACT_PAN_Y:
		pan(a, 0, k->arg);
		break;
	case ACT_REDRAW:
		clearok(curscr, TRUE);
		break;
	case ACT_SAVE:
		safe_save_prompt(a);
		break;
	case ACT_INSPECT: {
		MEVENT ev;
		char buf[200];
		int cx, cy;
		if (getmouse(&ev) != OK)
			break;
		/* The wheel zooms, as in map viewers. */
		if (ev.bstate & (BUTTON4_PRESSED | BUTTON5_PRESSED)) {
			zoom(a, ev.bstate & BUTTON4_PRESSED ? 1 : -1);
			break;
		}
		if (!map_cell(a, ev.y, ev.x, &cx, &cy))
			break;
		if (profile_click(a, cx, cy) || trace_click(a, cx, cy))
			break;
		struct source src;
		if (source_place(a, cx, cy) && source_get(a, &src))
			app_message(a, "%s placed on cell %d,%d", source_name(a, &src), cx, cy);
		else if (map_inspect(a, ev.y, ev.x, buf, sizeof buf))
			app_message(a, "%s", buf);
		break;
	}
	case ACT_PRESET_LOAD:
		preset_load_prompt(a);
		break;
	case ACT_PRESET_SAVE:
		preset_save_prompt(a);
		break;
	case ACT_SOURCE_X:
	case ACT_SOURCE_Y:
	case ACT_SOURCE_TURN: {
		struct source src;
		int dx = k->action == ACT_SOURCE_X ? k->arg : 0;
		int dy = k->action == ACT_SOURCE_Y ? k->arg : 0;
		int dt = k->action == ACT_SOURCE_TURN ? k->arg : 0;
		if (!source_move(a, dx, dy, dt) || !source_get(a, &src)) {
			no_source(a);
			break;
		}
		if (dt)
			app_message(a, "%s heading %.0f degrees", source_name(a, &src), src.direction);
		else
			app_message(a, "%s at %.0f,%.0f", source_name(a, &src), src.x, src.y);
		break;
	}
	case ACT_SOURCE_PICK:
	case ACT_SOURCE_ON:
		source_pick_key(a, k->action);
		break;
	case ACT_EQUATIONS:
		a->equations = !a->equations;
		break;
	case ACT_UNDO:
	case ACT_REDO:
		undo_key(a, k->action == ACT_REDO);
		break;
	case ACT_RESUME:
		safe_resume_key(a);
		tracer_reset(a);
		refresh_stats(a, true);
		break;
	case ACT_PARAM_PAGE:
	case ACT_PARAM_END:
	case ACT_PARAM_FIND:
		panel_key(a, k->action, k->arg);
		break;
	case ACT_FPS:
		fps_key(a, k->arg);
		break;
	case ACT_REFIT:
	case ACT_PROFILE:
	case ACT_PROFILE_MOVE:
	case ACT_PROFILE_PICK:
	case ACT_TRACE:
	case ACT_TRACE_RANDOM:
	case ACT_TRACE_STEP:
		class_key(a, k->action, k->arg);
		break;
	case ACT_COUNT:
		break;
	}
	return 0;
}
