/* The trace under the emitter (process 3): the particle the emitter would
 * release next, stepped by the process's own emitter_particle_step and ended
 * by its emitter_particle_retire, so the map changes by exactly that
 * particle. Its release draws from a copy of the world's random stream: the
 * simulation's stream is left as it was. */
#include <curses.h>
#include <math.h>
#include <stdio.h>

#include "core/base/pi.h"
#include "tui/app.h"

/* The trace box's shared state from the particle: position, steps, end. */
static void fill(struct app *a, bool ended, bool off_map)
{
	struct trace_view *v = &a->trace;
	v->s.d.x = (float)v->q.x;
	v->s.d.y = (float)v->q.y;
	v->s.steps = v->q.age;
	v->s.ended = ended;
	v->s.off_map = off_map;
}

void trace_emitter_start(struct app *a)
{
	struct trace_view *v = &a->trace;
	emitter_params_from(&v->ep, &a->params, a->world);
	struct rng saved = a->world->rng;
	emitter_release(&v->q, a->world, &v->ep);
	a->world->rng = saved;
	v->removed = 0;
	v->s = (struct particles_trace_state){.cell = -1};
	fill(a, false, false);
}

bool trace_emitter_step(struct app *a)
{
	struct trace_view *v = &a->trace;
	if (v->s.ended)
		return false;
	struct world *w = a->world;
	double carried = v->q.carried;
	enum emitter_fate fate = emitter_particle_step(&v->q, w, &v->ep);
	v->removed = v->q.carried - carried;
	if (fate == EMITTER_FLYING) {
		fill(a, false, false);
		return true;
	}
	double deposited = w->tally[TALLY_DEPOSITED];
	emitter_particle_retire(&v->q, fate, w, &v->ep);
	v->s.dropped = w->tally[TALLY_DEPOSITED] - deposited;
	w->particles += 1;
	w->steps += v->q.age;
	fill(a, true, fate == EMITTER_LEFT);
	return true;
}

void trace_emitter_rows(struct app *a, int y0, int cols)
{
	const struct emitter_particle *q = &a->trace.q;
	char v[6][64], n1[32], n2[32];
	num_value(n1, sizeof n1, q->x);
	num_value(n2, sizeof n2, q->y);
	snprintf(v[0], sizeof v[0], "%.16s, %.16s cells", n1, n2);
	num_value(n1, sizeof n1, remainder(q->a * 180 / GULLY_PI, 360));
	snprintf(v[1], sizeof v[1], "%.16s degrees", n1);
	num_value(n1, sizeof n1, q->v);
	snprintf(v[2], sizeof v[2], "%.16s cells/step", n1);
	num_value(v[3], sizeof v[3], q->m);
	num_value(n1, sizeof n1, a->trace.removed);
	num_value(n2, sizeof n2, q->carried);
	snprintf(v[4], sizeof v[4], "%.12s (carried %.12s)", n1, n2);
	float d = 0;
	int cx = (int)floor(q->x), cy = (int)floor(q->y);
	if (cx >= 0 && cy >= 0 && cx < a->world->width && cy < a->world->height)
		d = *world_at(a->world->layer[LAYER_HARDNESS], a->world, cx, cy);
	num_value(v[5], sizeof v[5], d);
	trace_row(a, y0, cols, "position p", v[0], 3, "x += v cos a");
	trace_row(a, y0 + 1, cols, "heading a", v[1], 2, "turn toward");
	trace_row(a, y0 + 2, cols, "speed v", v[2], 3, "x += v cos a");
	trace_row(a, y0 + 3, cols, "mass m", v[3], 4, "R = k m");
	trace_row(a, y0 + 4, cols, "crater took", v[4], 5, "h -= c dh");
	trace_row(a, y0 + 5, cols, "hardness D", v[5], 5, "D: hardness");
}
