/* One droplet, step by step, for a class: T starts a droplet at the map's
 * centre (A at a random cell, a click under --mouse where it lands), d takes
 * one step, D runs it to its end. The droplet is process 1's own (core's
 * particles_trace: the step the simulation takes), so it erodes and deposits
 * as any droplet does; the map changes by exactly that droplet, after an
 * undo checkpoint. Under the emitter (process 3) T follows the next
 * particle the emitter releases (trace_emitter.c). Its path is drawn on the
 * map and its numbers in a box under it, each beside the equation line it
 * comes from. */
#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base/error.h"
#include "tui/app.h"
#include "tui/crt.h"

/* The trace's own random stream for A, apart from the simulation's. */
#define TRACE_STREAM 0x74726163652d41ULL

/* What the running process lets the trace follow. */
static int kind_of(const struct app *a)
{
	if (strcmp(a->proc->section, "particles") == 0)
		return TRACE_DROPLET;
	if (strcmp(a->proc->section, "emitter") == 0)
		return TRACE_EMITTER;
	if (strcmp(a->proc->section, "hydrology") == 0)
		return TRACE_HYDRO;
	return -1;
}

static bool traceable(struct app *a)
{
	if (kind_of(a) >= 0)
		return true;
	app_message(a, "the trace follows process 1's or 2's droplets or process 3's particles");
	return false;
}

void trace_stop(struct app *a)
{
	particles_trace_free(a->trace.t);
	a->trace.t = NULL;
	hydrology_trace_free(a->trace.h);
	a->trace.h = NULL;
	a->trace.on = false;
	a->trace.n = 0;
}

/* One step of whichever it follows; false once it has ended. */
static bool step_once(struct app *a)
{
	if (a->trace.kind == TRACE_EMITTER)
		return trace_emitter_step(a);
	if (a->trace.kind == TRACE_HYDRO)
		return trace_hydro_step(a);
	return particles_trace_step(a->trace.t, a->world, &a->trace.s);
}

/* Keeps the trace only while its world is the one shown (undo and a new
 * terrain swap the world). */
static bool trace_live(struct app *a)
{
	if (a->trace.on && a->trace.world != a->world)
		trace_stop(a);
	/* Another process now runs this world: the droplet lands first, as
	 * the old process's droplets in flight do. */
	if (a->trace.on && kind_of(a) != a->trace.kind) {
		while (!a->trace.s.ended && step_once(a))
			;
		trace_stop(a);
	}
	return a->trace.on;
}

void trace_remember(struct app *a)
{
	struct trace_view *v = &a->trace;
	if (v->n == TRACE_PATH) {
		memmove(v->x, v->x + 1, (TRACE_PATH - 1) * sizeof v->x[0]);
		memmove(v->y, v->y + 1, (TRACE_PATH - 1) * sizeof v->y[0]);
		v->n--;
	}
	v->x[v->n] = v->s.d.x;
	v->y[v->n] = v->s.d.y;
	v->n++;
}

void trace_start(struct app *a, double x, double y)
{
	if (!traceable(a))
		return;
	/* A droplet still on its way ends first: one droplet at a time. */
	trace_finish(a);
	trace_stop(a);
	a->running = false;
	bool undoable = undo_push(a, app_now()) == GULLY_OK;
	struct trace_view *v = &a->trace;
	v->kind = kind_of(a);
	if (v->kind == TRACE_EMITTER) {
		trace_emitter_start(a);
		v->on = true;
		v->world = a->world;
		v->n = 0;
		trace_remember(a);
		a->dirty = true;
		app_message(a, "the emitter's next particle: d takes a step, D runs it to its end%s",
			    undoable ? "" : " (too big a map to undo)");
		return;
	}
	int e = v->kind == TRACE_HYDRO
			? trace_hydro_start(a, x, y)
			: particles_trace_start(&v->t, a->world, &a->params, (float)x, (float)y, &v->s);
	if (e) {
		app_message(a, "no droplet at %.1f,%.1f: %s", x, y, gully_strerror(e));
		return;
	}
	v->on = true;
	v->world = a->world;
	v->n = 0;
	trace_remember(a);
	a->dirty = true;
	app_message(a, "a droplet lands at %.1f,%.1f: d takes a step, D runs it to its end%s", x, y,
		    undoable ? "" : " (too big a map to undo)");
}

void trace_start_random(struct app *a)
{
	if (!a->trace.rng_ready) {
		rng_seed(&a->trace.rng, (uint64_t)a->params.world.seed, TRACE_STREAM);
		a->trace.rng_ready = true;
	}
	trace_start(a, rng_float(&a->trace.rng) * (float)a->world->width,
		    rng_float(&a->trace.rng) * (float)a->world->height);
}

void trace_toggle(struct app *a)
{
	if (trace_live(a)) {
		trace_finish(a);
		trace_stop(a);
		app_message(a, "trace hidden");
		return;
	}
	trace_start(a, a->world->width / 2.0 + 0.5, a->world->height / 2.0 + 0.5);
}

static void said_end(struct app *a)
{
	const struct particles_trace_state *s = &a->trace.s;
	char n[32], d[32];
	num_count(n, sizeof n, s->steps);
	num_value(d, sizeof d, s->dropped);
	const char *what = a->trace.kind == TRACE_EMITTER ? "particle" : "droplet";
	if (s->off_map)
		app_message(a, "the %s left the map after %s steps", what, n);
	else
		app_message(a, "the %s ended after %s steps and laid down %s", what, n, d);
}

void trace_step(struct app *a, bool to_end)
{
	if (!trace_live(a)) {
		/* Under a process it cannot follow, T would not start one. */
		if (traceable(a))
			app_message(a, "no droplet to follow: T starts one");
		return;
	}
	struct trace_view *v = &a->trace;
	if (v->s.ended) {
		app_message(a, "this droplet has ended: T or A starts another");
		return;
	}
	do {
		if (!step_once(a))
			break;
		trace_remember(a);
	} while (to_end && !v->s.ended);
	if (v->s.ended)
		said_end(a);
}

void trace_finish(struct app *a)
{
	if (!trace_live(a) || a->trace.s.ended)
		return;
	trace_step(a, true);
}

bool trace_click(struct app *a, int cx, int cy)
{
	/* The emitter's particles start in its window: a click moves it. */
	if (!trace_live(a) || a->trace.kind == TRACE_EMITTER)
		return false;
	trace_start(a, cx + 0.5, cy + 0.5);
	return true;
}

void trace_mark(struct app *a)
{
	if (!trace_live(a))
		return;
	const struct trace_view *v = &a->trace;
	for (int i = 0; i + 1 < v->n; i++)
		map_mark(a, v->x[i], v->y[i], '*');
	if (v->n > 0)
		map_mark(a, v->x[v->n - 1], v->y[v->n - 1], v->s.ended ? 'X' : '@');
}

int trace_rows(struct app *a)
{
	return trace_live(a) ? 9 : 0;
}

/* Line `k` (from 1) of the process's equations as the equation panel
 * shows it, from the part that starts with `from` when the line has it, cut
 * to `room` columns with a mark (equations_line). */
static void equation_line(const struct app *a, int k, const char *from, int room, char *out,
			  size_t len)
{
	char made[PROCESS_DESCRIBE_MAX];
	const char *p = process_describe(a->proc, &a->params, made, sizeof made);
	if (!p)
		p = "";
	for (int i = 1; i < k && p; i++) {
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	out[0] = '\0';
	if (!p || room <= 0)
		return;
	const char *nl = strchr(p, '\n');
	size_t n = nl ? (size_t)(nl - p) : strlen(p);
	const char *at = strstr(p, from);
	if (at && at < p + n) {
		n -= (size_t)(at - p);
		p = at;
	}
	equations_line(p, (int)n, room, crt.utf8, out, len);
}

/* The label and value, then the equation line they come from. */
#define TRACE_EQ_COL 43

void trace_row(struct app *a, int y, int cols, const char *label, const char *value, int eq,
	       const char *from)
{
	char text[512];
	mvprintw(y, 0, "%*s", cols, "");
	mvprintw(y, 0, " %-12s %-.28s", label, value);
	if (cols > TRACE_EQ_COL + 8) {
		equation_line(a, eq, from, cols - TRACE_EQ_COL - 4, text, sizeof text);
		crt_attrset(A_DIM);
		mvprintw(y, TRACE_EQ_COL, "%d: ", eq);
		crt_attrset(A_NORMAL);
		mvaddstr(y, TRACE_EQ_COL + 3, text);
	} else if (cols >= TRACE_EQ_COL + 4) {
		/* Narrow: the line's number alone (E shows the lines). */
		crt_attrset(A_DIM);
		mvprintw(y, TRACE_EQ_COL, "E%d", eq);
		crt_attrset(A_NORMAL);
	}
}

void trace_droplet_values(const struct app *a, const struct trace_numbers *d, char v[6][64])
{
	char n1[32], n2[32];
	num_value(n1, sizeof n1, d->x);
	num_value(n2, sizeof n2, d->y);
	snprintf(v[0], 64, "%.16s, %.16s cells", n1, n2);
	num_value(n1, sizeof n1, sqrt(d->vx * d->vx + d->vy * d->vy));
	snprintf(v[1], 64, "%.16s cells/step", n1);
	num_value(v[2], 64, d->volume);
	num_value(v[3], 64, d->sediment);
	num_value(v[4], 64, d->c_eq);
	if (d->cell >= 0) {
		int cx = (int)(d->cell % a->world->width), cy = (int)(d->cell / a->world->width);
		num_value(n1, sizeof n1, d->after - d->before);
		snprintf(v[5], 64, "%.12s at cell %d,%d", n1, cx, cy);
	} else {
		snprintf(v[5], 64, "%s", d->ended ? "none: it has ended" : "none yet");
	}
}

/* The droplet's numbers, each beside its equation line. */
static void droplet_rows(struct app *a, int y0, int cols)
{
	const struct particles_trace_state *s = &a->trace.s;
	const struct trace_numbers d = {s->d.x, s->d.y, s->d.vx, s->d.vy, s->d.volume,
					s->d.sediment, s->c_eq, s->cell, s->before, s->after,
					s->ended};
	char v[6][64];
	trace_droplet_values(a, &d, v);
	trace_row(a, y0, cols, "position p", v[0], 1, "p += dt v");
	trace_row(a, y0 + 1, cols, "speed |v|", v[1], 1, "v += dt a");
	trace_row(a, y0 + 2, cols, "volume V", v[2], 4, "V *= 1 - dt e");
	trace_row(a, y0 + 3, cols, "sediment s", v[3], 3, "s += dt k");
	trace_row(a, y0 + 4, cols, "c_eq", v[4], 2, "c_eq =");
	trace_row(a, y0 + 5, cols, "height h(p0)", v[5], 3, "h(p0) -= ");
}

void trace_draw(struct app *a, int y0, int rows, int cols)
{
	if (!trace_live(a) || rows < 9)
		return;
	const struct particles_trace_state *s = &a->trace.s;
	char title[160], n1[32];
	num_count(n1, sizeof n1, s->steps);
	char pours[32] = "";
	if (a->trace.kind == TRACE_HYDRO && a->trace.hs.round > 0)
		snprintf(pours, sizeof pours, ", pour %d", a->trace.hs.round);
	/* The key hint short when the long one would be cut (80 columns). */
	for (int brief = 0; brief < 2; brief++)
		if (snprintf(title, sizeof title, " one %s, step %s%s%s (%s) ",
			     a->trace.kind == TRACE_EMITTER ? "particle" : "droplet", n1, pours,
			     s->ended ? s->off_map ? ", off the map" : ", ended" : "",
			     brief ? "d, D, T" : "d: a step, D: to its end, T: hide") <= cols - 2)
			break;
	for (int y = y0; y < y0 + rows; y++)
		mvprintw(y, 0, "%*s", cols, "");
	crt_attrset(A_BOLD);
	mvhline(y0, 0, '-', cols);
	mvprintw(y0, 1, "%.*s", cols - 2, title);
	crt_attrset(A_DIM);
	if (cols > TRACE_EQ_COL + 8) {
		/* The longest that fits whole: at 100 columns the first was cut
		 * to "from equation line (E sho". */
		static const char *const heads[] = {"from equation line (E shows them)",
						    "from equation line (E)", "equation line (E)",
						    "line of E"};
		int h = 0;
		while (h < 3 && (int)strlen(heads[h]) > cols - TRACE_EQ_COL - 1)
			h++;
		mvprintw(y0 + 1, TRACE_EQ_COL, "%.*s", cols - TRACE_EQ_COL - 1, heads[h]);
	} else
		mvprintw(y0 + 1, 1, "%.*s", cols - 2, "En: from line n of the equations (E)");
	crt_attrset(A_NORMAL);
	if (a->trace.kind == TRACE_EMITTER)
		trace_emitter_rows(a, y0 + 2, cols);
	else if (a->trace.kind == TRACE_HYDRO)
		trace_hydro_rows(a, y0 + 2, cols);
	else
		droplet_rows(a, y0 + 2, cols);
	mvhline(y0 + rows - 1, 0, '-', cols);
}
