/* The side panel: process tabs, the running process's parameters from the
 * registry, live stats and the legend. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/sph/sph.h"
#include "tui/app.h"
#include "tui/crt.h"

static void line(int y, int x, int w, attr_t attr, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static void line(int y, int x, int w, attr_t attr, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	if (w <= 0)
		return;
	crt_attrset(attr);
	mvprintw(y, x, "%-*.*s", w, w, buf);
	crt_attrset(A_NORMAL);
}

static void tabs(struct app *a, int y, int x, int w)
{
	move(y, x);
	int used = 0;
	for (int i = 0; i < process_count() && used < w; i++) {
		const struct process_ops *p = process_get(i);
		char label[40];
		if (p == a->proc)
			snprintf(label, sizeof label, " %d:%s ", i + 1, p->name);
		else
			snprintf(label, sizeof label, " %d ", i + 1);
		attr_t at = p == a->proc ? A_REVERSE | A_BOLD : p ? A_NORMAL : A_DIM;
		crt_attrset(at);
		int n = (int)strlen(label);
		if (used + n > w)
			n = w - used;
		addnstr(label, n);
		used += n;
	}
	crt_attrset(A_NORMAL);
	if (used < w)
		printw("%*s", w - used, "");
}

/* `room` rows of parameters from row y, scrolled so the selected one is
 * visible; returns the row after them. */
static int draw_params(struct app *a, int y, int x, int w, int room)
{
	int first = a->sel - room / 2;
	if (first > a->nparams - room)
		first = a->nparams - room;
	if (first < 0)
		first = 0;
	for (int r = 0; r < room; r++) {
		int k = first + r;
		if (k >= a->nparams) {
			line(y++, x, w, A_NORMAL, "%s", "");
			continue;
		}
		const struct param_def *d = params_def(a->plist[k]);
		char val[48];
		num_param(&a->params, a->plist[k], val, sizeof val);
		char name[64];
		if (a->proc && strcmp(d->section, a->proc->section) == 0)
			snprintf(name, sizeof name, "%s", d->name);
		else
			snprintf(name, sizeof name, "%s.%s", d->section, d->name);
		int vw = (int)strlen(val);
		line(y++, x, w, k == a->sel ? A_REVERSE : A_NORMAL, "%c%-*.*s %s",
		     k == a->sel ? '>' : ' ', w - vw - 2, w - vw - 2, name, val);
	}
	return y;
}

/* The rows a parameter's help takes wrapped to the panel's width, at most
 * PANEL_HELP_ROWS: cut to one row it read "emitter x as a fraction of t"
 * at every terminal size (the median help is 46 columns, the panel 30).
 * The most any parameter of the list needs, so the list does not grow and
 * shrink as the selection moves. */
#define PANEL_HELP_ROWS 4

static int help_rows(const struct app *a, int w)
{
	int most = 1;
	for (int k = 0; k < a->nparams && most < PANEL_HELP_ROWS; k++) {
		int n = 0;
		for (const char *t = params_def(a->plist[k])->help; *t && n < PANEL_HELP_ROWS; n++)
			app_wrap_next(t, w - 1, (w - 1) / 2, &t);
		most = n > most ? n : most;
	}
	return most;
}

/* The selected parameter: its values on a row, its help on `rows` rows (the
 * last ending in "..." when there is more). */
static int draw_selected(struct app *a, int y, int x, int w, int rows)
{
	if (a->nparams <= 0)
		return y + 1 + rows;
	const struct param_def *d = params_def(a->plist[a->sel]);
	if (d->type == PARAM_ENUM)
		line(y++, x, w, A_DIM, " one of %s", d->choices);
	else if (d->type == PARAM_BOOL)
		line(y++, x, w, A_DIM, " on or off");
	else {
		char lo[32], hi[32], step[32];
		num_value(lo, sizeof lo, d->min);
		num_value(hi, sizeof hi, d->max);
		num_value(step, sizeof step, d->step);
		int n = (int)(strlen(lo) + strlen(hi) + strlen(step));
		line(y++, x, w, A_DIM, " %s%s to %s, step %s", n + 16 <= w ? "range " : "", lo,
		     hi, step);
	}
	const char *t = d->help;
	for (int r = 0; r < rows; r++) {
		const char *next;
		int len = app_wrap_next(t, w - 1, (w - 1) / 2, &next);
		if (r == rows - 1 && *next && len > w - 4)
			len = w - 4; /* room for the mark */
		line(y++, x, w, A_DIM, " %.*s%s", len, t, r == rows - 1 && *next ? "..." : "");
		t = next;
	}
	return y;
}

/* draw_stats's lines: its title and five numbers, and sph's particles in
 * flight. */
static int stats_lines(const struct app *a)
{
	struct sph_metrics sm;
	return 6 + sph_metrics_of(a->proc, a->state, &sm);
}

static int draw_stats(struct app *a, int y, int x, int w)
{
	char n[5][40];
	line(y++, x, w, A_BOLD, "-- stats --");
	/* A process counting time steps shows its steps; sph also its particles.
	 * Its own on this map: not what another ran before a switch. */
	bool timed = process_counts_time(a->proc);
	num_count(n[0], sizeof n[0], timed ? counts_steps(a) : counts_particles(a));
	num_count(n[1], sizeof n[1], (uint64_t)(a->running && a->rate > 0 ? a->rate + 0.5 : 0));
	num_value(n[2], sizeof n[2], a->world->tally[TALLY_ERODED]);
	num_value(n[3], sizeof n[3], a->world->tally[TALLY_DEPOSITED]);
	num_value(n[4], sizeof n[4], a->pool_volume);
	line(y++, x, w, A_NORMAL, " %-12s %s", a->proc->unit, n[0]);
	struct sph_metrics sm;
	if (sph_metrics_of(a->proc, a->state, &sm)) {
		char np[40];
		num_count(np, sizeof np, (uint64_t)sm.particles);
		/* "in flight", not "particles": gully info and the metrics also
		 * count the particles released, a bigger number. */
		line(y++, x, w, A_NORMAL, " %-12s %s", "in flight", np);
	}
	line(y++, x, w, A_NORMAL, " %-12s %s", "per second", n[1]);
	line(y++, x, w, A_NORMAL, " %-12s %s", "eroded", n[2]);
	line(y++, x, w, A_NORMAL, " %-12s %s", "deposited", n[3]);
	line(y++, x, w, A_NORMAL, " %-12s %s", "pool volume", n[4]);
	return y;
}

void panel_draw(struct app *a, int x, int rows, int cols)
{
	int w = cols - 1;
	int y = 0;
	tabs(a, y++, x, w);
	line(y++, x, w, A_BOLD, "%s", a->proc->title);
	line(y++, x, w, A_BOLD, "-- parameters --");

	/* The help takes two rows; all it needs when the list keeps 20 rows
	 * or all of itself beside it; one when the list would keep fewer than
	 * five. The list keeps three before the legend goes. */
	int legend = legend_lines(a), stats = stats_lines(a), want = help_rows(a, w);
	int base = rows - y - 1 - stats - legend;
	if (base - 1 < 3) {
		/* The legend gives up its last rows (legend_draw stops at the
		 * panel's foot) and goes only when not even its ramp fits: with
		 * four overlays on at 80x24 it went whole, and the overlays on the
		 * map had no key. */
		legend = rows - y - 1 - stats - 1 - 3;
		if (legend < 3)
			legend = 0;
		base = rows - y - 1 - stats - legend;
	}
	int help = base - want >= 20 || base - want >= a->nparams ? want : want < 2 ? want : 2;
	if (help > base - 5)
		help = base - 5;
	if (help < 1)
		help = 1;
	int room = base - help;
	if (room > a->nparams)
		room = a->nparams;
	if (room < 1)
		room = 1;
	y = draw_params(a, y, x, w, room);
	y = draw_selected(a, y, x, w, help);
	y = draw_stats(a, y, x, w);
	if (legend)
		y += legend_draw(a, y, x, w, rows);
	while (y < rows)
		line(y++, x, w, A_NORMAL, "%s", "");
}
