/* The explorer's start and main loop: open the session the command line
 * asks for, then draw, read keys and step until quit or a signal (app.c
 * holds what a frame draws; actions.c what a key does). */
#include <curses.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "core/base/error.h"
#include "io/preset.h"
#include "tui/app.h"
#include "tui/complete.h"
#include "tui/crt.h"
#include "tui/keys.h"
#include "tui/safe.h"
#include "tui/tui.h"

/* Opens what the command line asked for, before the screen starts. */
static int open_session(struct app *a, const struct tui_options *o)
{
	char err[PATH_MAX + 256];
	const char *path = o->snapshot;
	if (o->resume) {
		if (safe_open_autosave(a, err, sizeof err)) {
			fprintf(stderr, "gully: --resume: %s\n", err);
			return 1;
		}
		return 0;
	}
	if (path) {
		if (app_big_file(path))
			fprintf(stderr, "gully: reading %s...\n", path);
		if (session_load(a, path, err, sizeof err)) {
			fprintf(stderr, "gully: %s\n", err);
			return 1;
		}
		return 0;
	}
	const struct process_ops *p = o->process ? process_find(o->process) : process_default();
	if (!p) {
		fprintf(stderr, "gully: no process named '%s'\n", o->process);
		return 2;
	}
	/* A big terrain takes seconds to make: say so at once, not after. */
	if (!o->heights && app_big_map(a->params.world.width, a->params.world.height))
		fprintf(stderr, "gully: making a %dx%d terrain, a few seconds...\n",
			a->params.world.width, a->params.world.height);
	int e = session_new_world_on(a, o->heights, err, sizeof err);
	if (e || session_set_process(a, p, err, sizeof err)) {
		fprintf(stderr, "gully: %s\n", err);
		return 1;
	}
	/* The world is what the command line's parameters make: nothing to lose. */
	a->dirty = false;
	if (o->preset)
		session_preset_label(a, o->preset);
	return 0;
}

static void crt_done_atexit(void)
{
	crt_done();
}

/* What the status line says first: the terminal's note, a resume or an
 * autosave waiting, fewer colours than asked for. */
static void start_messages(struct app *a, const struct tui_options *o)
{
	if (crt.note[0])
		app_message(a, "%s", crt.note);
	if (o->resume)
		app_message(a, "resumed the autosaved session (unsaved: S saves it)");
	else
		safe_autosave_notice(a);
	if (o->tier >= 0 && o->tier > (int)crt.tier)
		app_message(a, "this terminal shows %s colours, not %s", term_tier_name(crt.tier),
			    term_tier_name(o->tier));
}

/* With the session released (the simulation runs meanwhile, on its
 * thread): writes the frame composed last, then waits for a key until
 * next_frame (idle: 100 ms), then takes the session and answers every key
 * pending; *keyed when there was one. Writing the frame here, not in a
 * release of its own, makes the world whole once a frame instead of twice:
 * on a 4096x4096 hydrology map each time is a pass over the stream map. */
static int read_keys(struct app *a, double next_frame, bool idle, bool *keyed)
{
	int e = GULLY_OK;
	sim_ui_release(a);
	app_frame_out(a);
	double left = next_frame - app_now();
	timeout(idle ? 100 : left <= 0 ? 0 : (int)(left * 1000) + 1);
	int ch = crt_getch();
	sim_ui_take(a);
	a->taken_at = app_now();
	*keyed = false;
	for (; ch != ERR; ch = crt_getch()) {
		*keyed = true;
		if ((e = app_handle_key(a, ch)) || a->quit)
			break;
		timeout(0);
	}
	return e;
}

/* Keys and frames until quit, a signal or an error (returned). */
static int run_loop(struct app *a, const struct tui_options *o)
{
	double next_frame = 0;
	long frames = 0;
	int e = GULLY_OK;
	while (!a->quit && !signals_caught()) {
		if ((e = a->sim_error))
			break;
		a->sim_hold = app_too_small();
		/* Wait for a key until the next frame is due; paused with nothing
		 * owed, wake now and then to see signals. Never spin. */
		const bool idle = !a->running && !a->needs_draw && o->frames <= 0;
		bool keyed;
		if ((e = read_keys(a, next_frame, idle, &keyed)))
			break;
		double now = app_now();
		/* A message hides the status fields while it shows: once it is
		 * over, draw them again, paused or not. */
		if (a->message[0] && now >= a->message_until)
			a->needs_draw = true;
		/* A key is answered at once, not at the next frame's time. */
		bool due = now >= next_frame || keyed;
		if (due && (a->running || a->needs_draw || o->frames > 0)) {
			if (a->message[0] && now >= a->message_until)
				a->message[0] = '\0';
			if (!pace_output(a)) {
				next_frame = now + 1.0 / a->fps;
				continue;
			}
			a->needs_draw = false;
			app_compose_frame(a);
			next_frame = now + pace_interval(a);
			if (o->frames > 0 && ++frames >= o->frames)
				break;
		}
	}
	/* The last frame composed (--frames' last, or before a quit); after a
	 * signal none: the autosave comes first, and waits for no terminal. */
	if (!signals_caught())
		app_frame_out(a);
	return e;
}

/* After Ctrl-C (SIGINT), a hang-up, TERM or QUIT: unsaved work goes to an
 * autosave (Ctrl-C too, since it does not ask as q does); a session with
 * nothing unsaved just ends. `say` gets the line to print once the
 * terminal is back, or "" for nothing. */
static void autosave_on_signal(struct app *a, int sig, char *say, size_t say_len)
{
	say[0] = '\0';
	if (sig != SIGINT && sig != SIGHUP && sig != SIGTERM && sig != SIGQUIT)
		return;
	char saved[PATH_MAX], err[PATH_MAX + 256];
	bool numbered;
	switch (safe_autosave(a, saved, sizeof saved, &numbered, err, sizeof err)) {
	case SAFE_AUTOSAVE_SAVED:
		if (numbered)
			snprintf(say, say_len,
				 "gully: saved the session to %s (an earlier autosave waits too;"
				 " gully --resume or R reopens this one, the newest, first)\n",
				 saved);
		else
			snprintf(say, say_len,
				 "gully: saved the session to %s (gully --resume or R reopens it)\n",
				 saved);
		break;
	case SAFE_AUTOSAVE_FAILED:
		snprintf(say, say_len, "gully: autosave failed: %s\n", err);
		break;
	case SAFE_AUTOSAVE_CLEAN:
		break;
	}
}

static struct app *app_new(const struct tui_options *o)
{
	struct app *a = calloc(1, sizeof *a);
	if (!a)
		return NULL;
	a->params = o->params;
	a->hardness_map = o->hardness;
	a->hardness_w = o->hardness_width;
	a->hardness_h = o->hardness_height;
	a->fps = o->fps > 0 ? o->fps : 20;
	a->fps_chosen = a->fps;
	a->fps_asked = o->fps > 0;
	a->speed_cap = o->speed;
	/* A snapshot or an autosave opens where it was saved: run at once, it
	 * would move on from the point kept for later (a lesson prepared the
	 * evening before) before anyone looked. */
	a->running = !o->start_paused && !o->snapshot && !o->resume;
	a->view.overlays = OVERLAY_BIT(OVERLAY_STREAMS) | OVERLAY_BIT(OVERLAY_POOLS);
	return a;
}

static void app_free(struct app *a)
{
	session_free(a);
	free(a);
}

int tui_main(const struct tui_options *o)
{
	struct app *a = app_new(o);
	if (!a) {
		fprintf(stderr, "gully: out of memory\n");
		return 1;
	}
	int status = open_session(a, o);
	if (status) {
		app_free(a);
		return status;
	}
	/* Before curses starts, so ncurses keeps its hands off these signals. */
	signals_install();
	atexit(crt_done_atexit);
	struct crt_options co = {.tier = o->tier, .utf8 = o->utf8, .mouse = o->mouse,
				 .light = o->theme};
	char err[256];
	if (crt_init(&co, err, sizeof err)) {
		fprintf(stderr, "gully: %s\n", err);
		app_free(a);
		return 1;
	}
	start_messages(a, o);
	int e = GULLY_OK;
	a->needs_draw = true;
	if ((e = sim_worker_start(a))) {
		crt_done();
		fprintf(stderr, "gully: cannot start the simulation thread: %s\n", gully_strerror(e));
		app_free(a);
		return 1;
	}
	e = run_loop(a, o);
	sim_worker_stop(a);
	if (!e)
		e = a->sim_error;
	int sig = signals_caught();
	char say[3 * PATH_MAX + 256];
	autosave_on_signal(a, sig, say, sizeof say);
	crt_done();
	if (e) {
		fprintf(stderr, "gully: %s: %s\n", a->proc->name, gully_strerror(e));
		status = 1;
	}
	fputs(say, stderr);
	if (sig)
		status = 128 + sig;
	trace_stop(a);
	app_free(a);
	return status;
}
