/* The explorer's trace under hydrology (hydrology_trace.h): a droplet's
 * life (hydrology_life.h) a stage at a time on the process's own state. */
#include "core/hydrology/hydrology_trace.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/hydrology/hydrology_life.h"

struct hydrology_trace {
	struct hydro_state *s;
	struct life l;
	uint64_t steps;
};

static void trace_fill(const struct hydrology_trace *t, struct hydrology_trace_state *st)
{
	const struct hdrop *d = &t->l.d;
	st->x = d->x;
	st->y = d->y;
	st->vx = d->vx;
	st->vy = d->vy;
	st->volume = d->volume;
	st->sediment = d->sediment;
	st->carried = d->carried;
	st->steps = (uint32_t)t->steps;
	st->round = t->l.round;
	st->ended = t->l.stage == LIFE_DONE;
	st->off_map = st->ended && t->l.gone;
}

int hydrology_trace_start(struct hydrology_trace **out, void *state, struct world *w,
			  const struct params *p, float x, float y,
			  struct hydrology_trace_state *st)
{
	*out = NULL;
	if (!(x >= 0 && y >= 0 && x < (float)w->width && y < (float)w->height))
		return GULLY_EINVAL;
	int err = hydrology_ready(state, w, p, 1);
	if (err)
		return err;
	struct hydrology_trace *t = calloc(1, sizeof *t);
	if (!t)
		return GULLY_ENOMEM;
	t->s = state;
	hydrology_life_begin(&t->l, x, y);
	memset(st, 0, sizeof *st);
	st->cell = -1;
	trace_fill(t, st);
	*out = t;
	return GULLY_OK;
}

/* The pour's figures for the trace. */
static void trace_pour(struct hydrology_trace_state *st, const struct flood_result *r, int cell)
{
	st->event = HTRACE_POUR;
	st->outcome = r->outcome == FLOOD_SEA        ? HTRACE_SEA
		      : r->outcome == FLOOD_DRAIN    ? HTRACE_DRAIN
		      : r->outcome == FLOOD_OVERSHOT ? HTRACE_OVERSHOT
						     : HTRACE_FILLED;
	st->pour_cell = cell;
	st->level = r->level;
	st->poured = r->gained;
	st->settled = r->settled;
	st->lake_cells = r->lake_cells;
}

bool hydrology_trace_step(struct hydrology_trace *t, struct world *w, const struct params *p,
			  struct hydrology_trace_state *st, int *err)
{
	struct hydro_state *s = t->s;
	*err = GULLY_OK;
	struct hparams hp;
	struct hd_env env;
	if (t->l.stage == LIFE_DONE || !hydrology_life_env(s, w, p, &hp, &env))
		return false;
	struct hd_step step;
	struct flood_result r;
	st->cell = -1;
	st->c_eq = 0;
	st->stop = HTRACE_STOP_NONE;
	/* A round's start shows nothing of its own: go on to its descent or
	 * pour. An end that follows (off the map, dried up) comes with it. */
	while (t->l.stage == LIFE_ROUND)
		hydrology_life_next(s, w, &hp, &env, &t->l, &t->steps, &step, &r);
	const int stage = t->l.stage;
	st->event = HTRACE_END;
	if (stage == LIFE_DESCENT || stage == LIFE_POUR) {
		const int cell = (int)t->l.d.y * w->width + (int)t->l.d.x;
		*err = hydrology_life_next(s, w, &hp, &env, &t->l, &t->steps, &step, &r);
		if (*err)
			return false;
		if (stage == LIFE_POUR) {
			trace_pour(st, &r, cell);
		} else {
			st->event = t->l.stage == LIFE_POUR  ? HTRACE_STOP
				    : t->l.stage == LIFE_END ? HTRACE_END : HTRACE_STEP;
			st->cell = step.cell;
			st->before = step.before;
			st->after = step.after;
			st->c_eq = step.c_eq;
			st->stop = step.stop;
		}
		while (t->l.stage == LIFE_ROUND)
			hydrology_life_next(s, w, &hp, &env, &t->l, &t->steps, &step, &r);
	}
	if (t->l.stage == LIFE_END) {
		const double deposited = w->tally[TALLY_DEPOSITED];
		*err = hydrology_life_close(s, w, p, &hp, &t->l, t->steps);
		st->dropped = w->tally[TALLY_DEPOSITED] - deposited;
	}
	trace_fill(t, st);
	return true;
}

void hydrology_trace_free(struct hydrology_trace *t)
{
	free(t);
}

