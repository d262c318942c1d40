/* Hydrology's droplets in lanes: the refill and the end phase around
 * hlanes_tick (hlanes.h has the order). A droplet's life outside its
 * descent, its pours and its end, runs hydrology_life_next as one after
 * another does, in slot order. */
#include <stdint.h>

#include "core/base/error.h"
#include "core/base/rain.h"
#include "core/hydrology/hlanes.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_internal.h"
#include "core/hydrology/hydrology_life.h"
#include "core/hydrology/hydrology_stream.h"

/* Slots a tick covers: every slot below `lanes`, and any higher one still
 * holding a droplet (lanes was lowered), in whole groups of eight. */
static int lanes_span(uint64_t active, int lanes)
{
	const int top = bits_width64(active);
	const int n = top > lanes ? top : lanes;
	return (n + 7) / 8 * 8;
}

/* Slot i's life goes on from where it stands until its next descent (it
 * stays in the slot) or its end (the slot is freed; the world's count of
 * ended droplets may end a batch). */
static int lanes_onward(struct hydro_state *s, struct world *w, const struct params *p,
			const struct hparams *hp, const struct hd_env *env, int i, struct life *l)
{
	uint64_t none = 0;
	struct flood_result r;
	while (l->stage != LIFE_DESCENT && l->stage != LIFE_DONE) {
		int err = hydrology_life_next(s, w, hp, env, l, &none, NULL, &r);
		if (err)
			return err;
	}
	if (l->stage == LIFE_DESCENT) {
		hlanes_put(s->lanes, i, l);
		return GULLY_OK;
	}
	hlanes_free(s->lanes, i);
	return hydrology_droplet_ended(s, w, p);
}

/* Empty slots below `lanes`, lowest first, get the next droplets until
 * *released reaches budget. A droplet that ends before its first descent
 * (born on a pool, say) leaves its slot, still the lowest, to the next. */
static int lanes_refill(struct hydro_state *s, struct world *w, const struct params *p,
			const struct hparams *hp, const struct hd_env *env, int lanes,
			uint64_t budget, uint64_t *released)
{
	const uint64_t below = lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << lanes) - 1;
	for (uint64_t empty; *released < budget && (empty = below & ~hlanes_active(s->lanes));) {
		const int i = bits_ctz64(empty);
		float x, y;
		world_spawn_point(w, &x, &y);
		w->particles++;
		(*released)++;
		struct life l;
		hydrology_life_begin(&l, x, y);
		int err = lanes_onward(s, w, p, hp, env, i, &l);
		if (err)
			return err;
	}
	return GULLY_OK;
}

/* The end phase: in slot order, each descent that ended goes on with its
 * droplet's life. */
static int lanes_end(struct hydro_state *s, struct world *w, const struct params *p,
		     const struct hparams *hp, const struct hd_env *env,
		     const struct hlanes_tick *t)
{
	for (uint64_t m = t->flood | t->left | t->died; m; m &= m - 1) {
		const int i = bits_ctz64(m);
		const uint64_t bit = (uint64_t)1 << i;
		struct life l;
		hlanes_get(s->lanes, i, &l);
		if (t->pit_dry & bit) {
			/* hydrology.pit_dry: the pit's visit counts toward its
			 * stream (its tile current first: a batch may have ended
			 * since the read phase). */
			const uint32_t c = (uint32_t)(int)l.d.y * (uint32_t)w->width + (uint32_t)(int)l.d.x;
			if (env->hs)
				hstream_fresh(env->hs, c);
			env->track[c] = 1;
		}
		hydrology_life_descended(&l, t->flood & bit	 ? DESCENT_FLOOD
					     : t->left & bit ? DESCENT_LEFT
							     : DESCENT_DIED);
		int err = lanes_onward(s, w, p, hp, env, i, &l);
		if (err)
			return err;
	}
	return GULLY_OK;
}

static int lanes_tick(struct hydro_state *s, struct world *w, const struct params *p,
		      const struct hparams *hp, const struct hd_env *env, int lanes, uint64_t *steps)
{
	struct hlanes_tick t;
	hlanes_tick(s->lanes, env, s->flood, lanes_span(hlanes_active(s->lanes), lanes), &t);
	*steps += t.steps;
	return lanes_end(s, w, p, hp, env, &t);
}

int hydrology_lanes_run(struct hydro_state *s, struct world *w, const struct params *p,
			const struct hparams *hp, const struct hd_env *env, int lanes,
			uint64_t budget, uint64_t *steps)
{
	if (lanes < 1 || lanes > HLANES_MAX)
		return GULLY_EINVAL;
	hlanes_prepare(s->lanes, env);
	uint64_t released = 0;
	int err = GULLY_OK;
	while (!err) {
		err = lanes_refill(s, w, p, hp, env, lanes, budget, &released);
		/* The call ends right after its last droplet is released: any
		 * split of a run into calls gives the bits of one call. */
		if (err || released == budget || !hlanes_active(s->lanes))
			break;
		err = lanes_tick(s, w, p, hp, env, lanes, steps);
	}
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = hlanes_soil_in_flight(s->lanes);
	return err;
}

int hydrology_lanes_drain(struct hydro_state *s, struct world *w, const struct params *p,
			  const struct hparams *hp, const struct hd_env *env, uint64_t *steps)
{
	hlanes_prepare(s->lanes, env);
	int err = GULLY_OK;
	while (!err && hlanes_active(s->lanes))
		err = lanes_tick(s, w, p, hp, env, 1, steps);
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = hlanes_soil_in_flight(s->lanes);
	return err;
}

/* The droplets in flight in lanes run to their ends (process.h). */
int hydrology_lanes_finish(void *state, struct world *w, const struct params *p,
			struct process_report *rep)
{
	struct hydro_state *s = state;
	uint64_t steps = 0;
	int err = GULLY_OK;
	if (hlanes_in_flight(s->lanes)) {
		struct hparams hp;
		struct hd_env env;
		if (!hydrology_life_env(s, w, p, &hp, &env))
			return GULLY_EINVAL;
		err = hydrology_ready(s, w, p, 0);
		if (!err)
			err = hydrology_lanes_drain(s, w, p, &hp, &env, &steps);
		hydrology_call_end(s, w, steps);
	}
	if (rep) {
		rep->particles = 0;
		rep->steps = steps;
	}
	return err;
}

bool hydrology_set_lanes_isa(void *state, int isa)
{
	struct hydro_state *s = state;
	return hlanes_set_isa(s->lanes, (enum hlanes_isa)isa);
}

void hydrology_set_lanes_always(void *state, bool on)
{
	struct hydro_state *s = state;
	s->lanes_always = on;
}
