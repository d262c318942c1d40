/* The trace under hydrology (process 2): a droplet run by the process's own
 * code on its own state (core's hydrology_trace.h): each d is one step of
 * its descent, or the pour into the flood where it stopped, or its end, and
 * the map changes by exactly that droplet, counted as one droplet of the
 * run. It takes no draw from the simulation's random stream. */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "core/base/error.h"
#include "tui/app.h"

/* The trace box's shared state from the droplet: position, steps, end. */
static void fill(struct app *a)
{
	struct trace_view *v = &a->trace;
	const struct hydrology_trace_state *h = &v->hs;
	v->s.d.x = h->x;
	v->s.d.y = h->y;
	v->s.steps = h->steps;
	v->s.ended = h->ended;
	v->s.off_map = h->off_map;
	v->s.dropped = h->dropped;
}

int trace_hydro_start(struct app *a, double x, double y)
{
	struct trace_view *v = &a->trace;
	int e = hydrology_trace_start(&v->h, a->state, a->world, &a->params, (float)x, (float)y,
				      &v->hs);
	if (e)
		return e;
	v->s = (struct particles_trace_state){.cell = -1};
	fill(a);
	return GULLY_OK;
}

bool trace_hydro_step(struct app *a)
{
	struct trace_view *v = &a->trace;
	int err = GULLY_OK;
	bool moved = hydrology_trace_step(v->h, a->world, &a->params, &v->hs, &err);
	if (err)
		app_message(a, "the droplet's pour failed: %s", gully_strerror(err));
	fill(a);
	return moved;
}

static const char *stop_words(int stop)
{
	switch (stop) {
	case HTRACE_STOP_POOL:
		return "stops: into a pool";
	case HTRACE_STOP_PIT:
		return "stops: into a pit";
	case HTRACE_STOP_STREAM:
		return "stops: slow on a stream";
	default:
		return "";
	}
}

/* The pour's row: what it made of the lake. */
static void pour_row(struct app *a, int y, int cols)
{
	const struct hydrology_trace_state *h = &a->trace.hs;
	char v[64], n1[32], n2[32];
	num_value(n1, sizeof n1, h->level);
	num_value(n2, sizeof n2, h->poured);
	const char *how = h->outcome == HTRACE_SEA	    ? "to the sea"
			  : h->outcome == HTRACE_DRAIN	    ? "leaks"
			  : h->outcome == HTRACE_OVERSHOT ? "overshot"
							    : "filled";
	snprintf(v, sizeof v, "%.9s (+%.9s) %s", n1, n2, how);
	trace_row(a, y, cols, "pool level", v, h->outcome == HTRACE_DRAIN ? 7 : 6,
		  h->outcome == HTRACE_DRAIN ? "level -=" : "raise the lake");
}

void trace_hydro_rows(struct app *a, int y0, int cols)
{
	const struct hydrology_trace_state *h = &a->trace.hs;
	const struct trace_numbers d = {h->x, h->y, h->vx, h->vy, h->volume, h->sediment,
					h->c_eq, h->cell, h->before, h->after, h->ended};
	char v[6][64];
	trace_droplet_values(a, &d, v);
	trace_row(a, y0, cols, "position p", v[0], 1, "p += dt v");
	trace_row(a, y0 + 1, cols, "speed |v|", v[1], 1, "v += dt a");
	trace_row(a, y0 + 2, cols, "volume V", v[2], 4, "V *= 1 - dt e");
	trace_row(a, y0 + 3, cols, "sediment s", v[3], 3, "s += dt k");
	if (h->event == HTRACE_POUR) {
		pour_row(a, y0 + 4, cols);
	} else if (h->event == HTRACE_STOP) {
		trace_row(a, y0 + 4, cols, "c_eq", stop_words(h->stop), 5, "stop in a pool");
	} else {
		trace_row(a, y0 + 4, cols, "c_eq", v[4], 2, "c_eq =");
	}
	trace_row(a, y0 + 5, cols, "height h(p0)", v[5], 3, "h(p0) -= ");
}
