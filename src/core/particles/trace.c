/* The single-droplet trace on the process's own step (particles_lane.h's
 * lane_step, LANE_SOLO: the step droplet_run takes). */
#include "core/particles/trace.h"

#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/particles/particles_lane.h"

struct particles_trace {
	struct lane_env e;
	struct lane l;
	struct droplet d;
	bool ended;
};

static void fill(const struct particles_trace *t, struct particles_trace_state *s)
{
	struct droplet d;
	lane_to_droplet(&t->l, &d);
	s->d = d;
	s->steps = lane_steps(&t->l);
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
	lane_env_init(&t->e, w, &dp);
	t->d.x = x;
	t->d.y = y;
	t->d.volume = 1.0f;
	lane_from_droplet(&t->l, &t->d, &t->e);
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
	const uint32_t at = t->l.at;
	const float sediment = t->l.sediment, here = t->e.h[at];
	s->cell = -1;
	s->c_eq = 0;
	s->dropped = 0;
	if (lane_step(&t->l, &t->e, NULL, LANE_SOLO) == LANE_MOVED) {
		s->cell = at;
		s->before = here;
		s->after = t->e.h[at];
		/* c_eq as the step's own sediment change gives it back: s moved by
		 * rate (c_eq - s). */
		s->c_eq = t->e.rate > 0 ? sediment + (t->l.sediment - sediment) / t->e.rate : 0;
		fill(t, s);
		return true;
	}
	/* Ended: the load is laid down and the books written, as the process
	 * does for every droplet. */
	double carried = lane_carried(&t->l);
	lane_finish(&t->l, &t->e, NULL, LANE_SOLO);
	lane_commit(&t->l, w);
	s->dropped = carried - t->l.off_map;
	t->ended = true;
	w->particles += 1;
	w->steps += lane_steps(&t->l);
	fill(t, s);
	return true;
}

void particles_trace_free(struct particles_trace *t)
{
	free(t);
}
