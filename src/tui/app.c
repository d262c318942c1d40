/* The explorer's frame (app_draw), its messages, and the key dispatch: a
 * lookup in the key table and a call of the handler the binding names. */
#include <curses.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "core/base/error.h"
#include "tui/app.h"
#include "tui/crt.h"
#include "tui/keys.h"
#include "tui/tui.h"

#define MESSAGE_SECONDS 4.0

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

/* A question is open (prompt.c): the "too small" screen says what q does
 * to it, not that q quits. */
static bool question_open;

void app_question_open(bool open)
{
	question_open = open;
}

/* The side panel shows when the map keeps 41 columns beside it. */
static bool panel_shown(void)
{
	return COLS >= PANEL_MIN_COLS && LINES >= PANEL_MIN_ROWS;
}

int app_map_pixels_w(void)
{
	return panel_shown() ? COLS - PANEL_WIDTH - 1 : COLS;
}

/* Cells summed per call: bounded work, whatever the map size. */
#define POOL_CELLS_PER_CALL (1 << 20)

/* Sums the pool layer a band at a time; `whole` finishes the sum now. */
void app_refresh_stats(struct app *a, bool whole)
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

int app_wrap_next(const char *text, int width, int least, const char **next)
{
	int len = (int)strlen(text);
	int cut = len;
	if (len > width) {
		cut = width;
		for (int i = width; i > least; i--)
			if (text[i] == ' ') {
				cut = i;
				break;
			}
	}
	const char *p = text + cut;
	while (*p == ' ')
		p++;
	*next = p;
	return cut;
}

/* Below the smallest size: what is wrong, the size needed and how to
 * leave, wrapped to any width; lines that do not fit are dropped (the
 * last first), never written over each other. */
static void draw_too_small(void)
{
	char need[96];
	snprintf(need, sizeof need, "%dx%d here, gully needs at least %dx%d", COLS, LINES,
		 MIN_COLS, MIN_ROWS);
	const char *paras[] = {"terminal too small", need,
			       question_open ? "q closes the question" : "q quits"};
	const char *start[16];
	int lens[16], n = 0;
	for (size_t i = 0; i < sizeof paras / sizeof paras[0]; i++)
		for (const char *t = paras[i]; *t && n < 16 && COLS > 0;) {
			start[n] = t;
			lens[n++] = app_wrap_next(t, COLS, 0, &t);
		}
	if (n > LINES)
		n = LINES;
	int y = (LINES - n) / 2;
	for (int i = 0; i < n; i++)
		mvaddnstr(y + i, 0, start[i], lens[i]);
}

/* The frame into curses' buffer, the terminal not yet written; false for
 * the "too small" screen, which is all there is to draw then. */
static bool compose(struct app *a)
{
	erase();
	if (app_too_small()) {
		draw_too_small();
		return false;
	}
	int map_cols = app_map_pixels_w(), map_rows = LINES - 1;
	if (a->view.overlays & OVERLAY_BIT(OVERLAY_PARTICLES))
		tracer_advance(a, 3);
	else
		a->npoints = 0;
	app_refresh_stats(a, false);
	legend_fit_if_new(a);
	int eq, tr, prof;
	int shown = class_layout(a, map_rows, map_cols, &eq, &tr, &prof);
	map_draw(a, shown, map_cols);
	source_draw(a);
	class_draw(a, shown, eq, tr, prof, map_cols);
	if (panel_shown()) {
		crt_vline(0, map_cols, map_rows);
		panel_draw(a, map_cols + 1, map_rows, PANEL_WIDTH);
	}
	status_draw(a, LINES - 1, COLS);
	if (a->help)
		help_draw(a, LINES, COLS);
	return true;
}

bool app_compose_frame(struct app *a)
{
	a->frame_owed = true;
	return compose(a);
}

void app_frame_out(struct app *a)
{
	if (!a->frame_owed)
		return;
	/* Time spent waiting (not computing) while the terminal took the
	 * frame: a write that blocked. */
	double wall = app_now(), cpu = thread_cpu_seconds();
	refresh();
	a->write_wait = (app_now() - wall) - (thread_cpu_seconds() - cpu);
	a->frame_owed = false;
}

bool app_big_map(int width, int height)
{
	return (long)width * height >= APP_BIG_MAP_CELLS;
}

bool app_big_file(const char *path)
{
	struct stat st;
	return stat(path, &st) == 0 && st.st_size >= (off_t)APP_BIG_MAP_CELLS * 4;
}

void app_note_making(struct app *a)
{
	if (!app_big_map(a->params.world.width, a->params.world.height))
		return;
	app_message(a, "making a %dx%d terrain...", a->params.world.width, a->params.world.height);
	app_draw(a);
}

void app_draw(struct app *a)
{
	if (!app_compose_frame(a)) {
		app_frame_out(a);
		return;
	}
	/* The simulation goes on while the terminal takes the frame. */
	sim_ui_release(a);
	app_frame_out(a);
	sim_ui_take(a);
}

void app_draw_held(struct app *a)
{
	compose(a);
	refresh();
}

/* A checkpoint for undo; a world too big for the budget says so once, and
 * too little free memory once until a checkpoint is kept again (the timed
 * ones would say it every few seconds). */
void app_checkpoint(struct app *a)
{
	int e = undo_push(a, app_now());
	if (e != GULLY_ENOMEM)
		a->undo.said_short = false;
	if (e == GULLY_ESIZE && !a->undo.said_too_big) {
		a->undo.said_too_big = true;
		app_message(a, "this map is too big to undo (its checkpoint is over the budget)");
	} else if (e == GULLY_ENOMEM && !a->undo.said_short) {
		a->undo.said_short = true;
		app_message(a, "no undo checkpoint: too little free memory");
	} else if (e && e != GULLY_ESIZE && e != GULLY_ENOMEM)
		app_message(a, "no undo checkpoint: %s", gully_strerror(e));
}

/* Below PANEL_MIN_COLS x PANEL_MIN_ROWS the panel is not drawn, so the
 * keys that move in its list say on the status line what they picked:
 * else Up/Down moved unseen and Left/Right then changed a parameter the
 * user never saw picked. (/ says what it found itself.) */
static void say_picked(struct app *a, enum key_action action)
{
	if ((action != ACT_PARAM_PREV && action != ACT_PARAM_NEXT && action != ACT_PARAM_PAGE &&
	     action != ACT_PARAM_END) ||
	    a->nparams <= 0)
		return;
	int index = a->plist[a->sel];
	char val[64];
	num_param(&a->params, index, val, sizeof val);
	app_message(a, "%s = %s (Left/Right change it)", params_def(index)->key, val);
}

/* Keys that open or close the help and the equations come first; the rest
 * go to the handler their binding names (keys.c). */
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
	int e = k->run(a, k);
	if (!e && !panel_shown())
		say_picked(a, k->action);
	return e;
}
