/* The side panel: process tabs, the running process's parameters from the
 * registry, live stats and the legend. */
#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

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
	attrset(attr);
	mvprintw(y, x, "%-*.*s", w, w, buf);
	attrset(A_NORMAL);
}

/* 1234567 -> "1.23M": the stats must fit a narrow panel. */
static void human(char *buf, size_t len, double v)
{
	const char *unit = "";
	if (v >= 1e9) {
		v /= 1e9;
		unit = "G";
	} else if (v >= 1e6) {
		v /= 1e6;
		unit = "M";
	} else if (v >= 1e4) {
		v /= 1e3;
		unit = "k";
	}
	snprintf(buf, len, unit[0] ? "%.2f%s" : "%.0f%s", v, unit);
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
		attrset(at);
		int n = (int)strlen(label);
		if (used + n > w)
			n = w - used;
		addnstr(label, n);
		used += n;
	}
	attrset(A_NORMAL);
	if (used < w)
		printw("%*s", w - used, "");
}

void panel_draw(struct app *a, int x, int rows, int cols)
{
	int w = cols - 1;
	int y = 0;
	tabs(a, y++, x, w);
	line(y++, x, w, A_BOLD, "%s", a->proc->title);
	line(y++, x, w, A_BOLD, "-- parameters --");

	int noverlays = 0;
	for (int o = 0; o < OVERLAY_COUNT; o++)
		noverlays += (a->view.overlays & OVERLAY_BIT(o)) != 0;
	int legend = 2 + noverlays, stats = 6, info = 2;
	int room = rows - y - info - stats - legend;
	if (room < 3) {
		legend = 0;
		room = rows - y - info - stats;
	}
	if (room > a->nparams)
		room = a->nparams;
	if (room < 1)
		room = 1;
	/* Scroll so the selected parameter is visible. */
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
		params_format(&a->params, a->plist[k], val, sizeof val);
		char name[64];
		if (a->proc && strcmp(d->section, a->proc->section) == 0)
			snprintf(name, sizeof name, "%s", d->name);
		else
			snprintf(name, sizeof name, "%s.%s", d->section, d->name);
		int vw = (int)strlen(val);
		line(y++, x, w, k == a->sel ? A_REVERSE : A_NORMAL, "%c%-*.*s %s",
		     k == a->sel ? '>' : ' ', w - vw - 2, w - vw - 2, name, val);
	}
	if (a->nparams > 0) {
		const struct param_def *d = params_def(a->plist[a->sel]);
		if (d->type == PARAM_ENUM)
			line(y++, x, w, A_DIM, " one of %s", d->choices);
		else if (d->type == PARAM_BOOL)
			line(y++, x, w, A_DIM, " on or off");
		else
			line(y++, x, w, A_DIM, " range %g..%g step %g", d->min, d->max, d->step);
		line(y++, x, w, A_DIM, " %s", d->help);
	} else {
		y += 2;
	}

	char n1[32], n2[32];
	line(y++, x, w, A_BOLD, "-- stats --");
	human(n1, sizeof n1, (double)a->world->particles);
	line(y++, x, w, A_NORMAL, " %-12s %s", a->proc->unit, n1);
	human(n2, sizeof n2, a->running ? a->rate : 0);
	line(y++, x, w, A_NORMAL, " %-12s %s", "per second", n2);
	line(y++, x, w, A_NORMAL, " %-12s %.4g", "eroded", a->world->tally[TALLY_ERODED]);
	line(y++, x, w, A_NORMAL, " %-12s %.4g", "deposited", a->world->tally[TALLY_DEPOSITED]);
	line(y++, x, w, A_NORMAL, " %-12s %.4g", "pool volume", a->pool_volume);

	if (legend) {
		line(y, x, w, A_BOLD, "-- legend --");
		y++;
		/* The height ramp: low to high. */
		line(y, x, w, A_NORMAL, " low%*shigh", 2 * palette_ramp_stops() + 2, "");
		for (int i = 0; i < palette_ramp_stops(); i++) {
			static const char glyphs[] = ".:=*#@@@";
			crt_put_swatch(y, x + 5 + 2 * i, palette_ramp_stop(i, NULL), glyphs[i]);
		}
		y++;
		for (int o = 0; o < OVERLAY_COUNT && y < rows; o++) {
			if (!(a->view.overlays & OVERLAY_BIT(o)))
				continue;
			if (o == OVERLAY_EROSION) {
				line(y, x, w, A_NORMAL, "    eroded    deposited");
				crt_put_swatch(y, x + 11, palette_deposit, '+');
			} else {
				line(y, x, w, A_NORMAL, "    %s", shade_overlay_name(o));
			}
			crt_put_swatch(y, x + 1, shade_overlay_colour(o),
				       o <= OVERLAY_POOLS ? '~' : o == OVERLAY_EROSION ? '-' : shade_overlay_name(o)[0]);
			y++;
		}
	}
	while (y < rows)
		line(y++, x, w, A_NORMAL, "%s", "");
}
