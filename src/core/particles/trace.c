/* The single-droplet trace on the process's own step (droplet.h: the step
 * every runner of process 1 takes). */
#include "core/particles/trace.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/particles/droplet.h"

struct particles_trace {
	struct droplet_env e;
	struct droplet_walk l;
	bool ended;
};

static void fill(const struct particles_trace *t, struct particles_trace_state *s)
{
	droplet_end(&t->l, &s->d);
	s->steps = droplet_steps(&t->l);
	s->ended = t->ended;
	s->off_map = t->l.left_map;
}

int particles_trace_start(struct particles_trace **out, struct world *w, const struct params *p,
			  float x, float y, struct particles_trace_state *s)
{
	*out = NULL;
	if (!(x >= 0 && y >= 0 && x < (float)w->width && y < (float)w->height))
		return GULLY_EINVAL;
	struct particles_trace *t = calloc(1, sizeof *t);
	if (!t)
		return GULLY_ENOMEM;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	droplet_env_init(&t->e, w, &dp);
	struct droplet d = {.x = x, .y = y, .volume = 1.0f};
	droplet_begin(&t->l, &d, &t->e);
	memset(s, 0, sizeof *s);
	s->cell = -1;
	fill(t, s);
	*out = t;
	return GULLY_OK;
}

bool particles_trace_step(struct particles_trace *t, struct world *w,
			  struct particles_trace_state *s)
{
	if (t->ended || t->e.h != w->layer[LAYER_HEIGHT])
		return false;
	struct droplet_change c;
	s->cell = -1;
	s->c_eq = 0;
	s->dropped = 0;
	if (droplet_step(&t->l, &t->e, &c) == DROPLET_MOVED) {
		s->cell = c.at;
		s->before = c.before;
		s->after = c.after;
		s->c_eq = c.c_eq;
		fill(t, s);
		return true;
	}
	/* Ended: the load is laid down and the books written, as the process
	 * does for every droplet. */
	struct droplet_books b;
	droplet_finish(&t->l, &t->e, &b);
	droplet_commit(&b, w);
	s->dropped = droplet_carried(&t->l) - b.off_map;
	t->ended = true;
	w->particles += 1;
	w->steps += droplet_steps(&t->l);
	fill(t, s);
	return true;
}

void particles_trace_free(struct particles_trace *t)
{
	free(t);
}
