#include "core/particles/particles.h"

#include <math.h>
#include <stdlib.h>

#include "core/base/error.h"
#include "core/base/workers.h"
#include "core/particles/droplet.h"
#include "core/particles/halves.h"
#include "core/particles/lockstep.h"

void droplet_params_from(struct droplet_params *dp, const struct params *p)
{
	const struct params_particles *q = &p->particles;
	dp->dt = (float)q->dt;
	dp->density = (float)q->density;
	dp->friction = (float)q->friction;
	dp->deposition_rate = (float)q->deposition_rate;
	dp->evap_rate = (float)q->evap_rate;
	dp->min_volume = (float)q->min_volume;
	dp->scale = (float)p->terrain.vertical_scale;
	dp->hardness = (float)q->hardness;
	dp->max_steps = (uint32_t)q->max_steps;
	dp->deposit_on_death = q->deposit_on_death;
	dp->symmetric_normal = q->symmetric_normal;
}

/* Runs one droplet to its end on an environment made once. */
static uint32_t droplet_run_env(struct droplet *d, struct world *w, const struct droplet_env *e)
{
	struct droplet_walk l;
	droplet_begin(&l, d, e);
	struct droplet_change c;
	if (e->hard)
		while (droplet_step_as(&l, e, &c, true) == DROPLET_MOVED)
			;
	else
		while (droplet_step_as(&l, e, &c, false) == DROPLET_MOVED)
			;
	struct droplet_books b;
	droplet_finish(&l, e, &b);
	droplet_commit(&b, w);
	droplet_end(&l, d);
	return droplet_steps(&l);
}

uint32_t droplet_run(struct droplet *d, struct world *w, const struct droplet_params *dp)
{
	struct droplet_env e;
	droplet_env_init(&e, w, dp);
	return droplet_run_env(d, w, &e);
}

/* particles.lanes = 1: the seed's order, one droplet after another. */
static void particles_seed_order(struct world *w, const struct droplet_params *dp,
				 uint64_t budget, uint64_t *steps)
{
	struct droplet_env e;
	droplet_env_init(&e, w, dp);
	for (uint64_t i = 0; i < budget; i++) {
		struct droplet d;
		droplet_spawn(w, &d);
		*steps += droplet_run_env(&d, w, &e);
	}
}

/* particles.lanes > 1: droplets in lockstep (lockstep.h), in two halves
 * side by side when particles.epoch > 0 (halves.h); 1: the seed's order,
 * one droplet after another. */
struct particles_state {
	struct lockstep *lanes; /* the one engine, or half A's */
	struct halves *halves;
	struct workers *pool;   /* the halves' threads; NULL until they run */
	int pool_threads;
};

/* The process runs the lockstep read phase on one thread, whatever
 * world.threads says: a tick is 64 droplet steps, far less work than handing
 * half of it to another thread and waiting for it costs (bench/HISTORY.md,
 * "two threads for the lockstep read phase", has the figures).
 * lockstep_set_workers keeps the split, held to the same bits by test_lanes,
 * for a design with longer ticks. The halves are that design: from 256x256
 * up an epoch is milliseconds of work, so world.threads runs them on two
 * threads. */
static int particles_create(void **state, struct world *w, const struct params *p)
{
	(void)p;
	struct particles_state *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	s->lanes = lockstep_create(w->width, w->height);
	s->halves = s->lanes ? halves_create(w->width, w->height) : NULL;
	if (!s->halves) {
		lockstep_destroy(s->lanes);
		free(s);
		return GULLY_ENOMEM;
	}
	*state = s;
	return GULLY_OK;
}

/* The halves' threads, as world.threads asks (at most two do work). */
static int particles_pool(struct particles_state *s, const struct params *p)
{
	int want = workers_resolve(p->world.threads);
	want = want > 2 ? 2 : want;
	if (s->pool && s->pool_threads == want)
		return GULLY_OK;
	workers_destroy(s->pool);
	s->pool = NULL;
	s->pool_threads = want;
	return want > 1 ? workers_create(&s->pool, want) : GULLY_OK;
}

/* particles.epoch is droplets per 256x256 cells: the same share of the map
 * changes between merges on any size, and that share is what moves the
 * maps away from one engine's (bench/PARTICLES.md). At least 2, one a half.
 * At most PARTICLES_EPOCH_MAX: past 2048x2048 a merge is small against an
 * epoch's droplets, so a shorter epoch costs next to nothing (the figures:
 * bench/PARTICLES.md), and the map on screen, which holds half A's droplets
 * between merges, catches up more often ("At most 32768 droplets an
 * epoch" there). */
uint64_t particles_epoch(int epoch, const struct world *w)
{
	const uint64_t e = ((uint64_t)epoch * world_cells(w) + 32768u) / 65536u;
	return e < 2 ? 2 : e > PARTICLES_EPOCH_MAX ? PARTICLES_EPOCH_MAX : e;
}

static int particles_run(struct particles_state *s, struct world *w, const struct params *p,
			 const struct droplet_params *dp, uint64_t budget, uint64_t *steps)
{
	const int lanes = p->particles.lanes;
	if (lanes > 1 && p->particles.epoch > 0) {
		int err = particles_pool(s, p);
		return err ? err
			   : halves_run(s->halves, s->lanes, w, dp, lanes,
					particles_epoch(p->particles.epoch, w), budget, s->pool,
					steps);
	}
	/* Halves switched off: B's droplets end on B's view, and the views merge. */
	int err = halves_stop(s->halves, s->lanes, w, dp, false, s->pool, steps);
	if (err)
		return err;
	if (lanes > 1)
		return lockstep_run(s->lanes, w, dp, lanes, budget, steps);
	/* Droplets still in flight from a lockstep run end first. */
	err = lockstep_in_flight(s->lanes) ? lockstep_drain(s->lanes, w, dp, steps) : GULLY_OK;
	if (!err) {
		particles_seed_order(w, dp, budget, steps);
		w->tally[TALLY_SEDIMENT_IN_FLIGHT] = 0;
	}
	return err;
}

static int particles_step(void *state, struct world *w, const struct params *p,
			  uint64_t budget, struct process_report *rep)
{
	struct particles_state *s = state;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	int err = particles_run(s, w, p, &dp, budget, &steps);
	if (err)
		return err;
	w->particles += budget;
	w->steps += steps;
	if (rep) {
		rep->particles = budget;
		rep->steps = steps;
	}
	return GULLY_OK;
}

static void particles_destroy(void *state)
{
	struct particles_state *s = state;
	if (s) {
		lockstep_destroy(s->lanes);
		halves_destroy(s->halves);
		workers_destroy(s->pool);
	}
	free(s);
}

static int particles_finish(void *state, struct world *w, const struct params *p,
			    struct process_report *rep)
{
	struct particles_state *s = state;
	struct droplet_params dp;
	droplet_params_from(&dp, p);
	uint64_t steps = 0;
	int err = halves_started(s->halves)
			  ? halves_stop(s->halves, s->lanes, w, &dp, true, s->pool, &steps)
		  : lockstep_in_flight(s->lanes) ? lockstep_drain(s->lanes, w, &dp, &steps)
						 : GULLY_OK;
	if (err)
		return err;
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = 0;
	w->steps += steps;
	if (rep) {
		rep->particles = 0;
		rep->steps = steps;
	}
	return GULLY_OK;
}

static int particles_save(const void *state, unsigned char **data, size_t *len)
{
	const struct particles_state *s = state;
	return halves_started(s->halves) ? halves_save(s->halves, s->lanes, data, len)
					 : lockstep_save(s->lanes, data, len);
}

static int particles_load(void *state, const unsigned char *data, size_t len)
{
	struct particles_state *s = state;
	if (halves_is_blob(data, len))
		return halves_load(s->halves, s->lanes, data, len);
	int err = lockstep_load(s->lanes, data, len);
	if (!err)
		halves_reset(s->halves);
	return err;
}

const struct process_ops particles_process = {
	.name = "particles",
	.title = "Particle erosion",
	.section = "particles",
	.unit = "droplets",
	.uses_rain = true,
	.describe =
		"a = n.xz / (V rho)         v += dt a;  p += dt v;  v *= 1 - dt f\n"
		"c_eq = max(0, V |v| (h(p0) - h(p)))\n"
		"s += dt k (c_eq - s);   h(p0) -= dt V k (c_eq - s)\n"
		"V *= 1 - dt e           until V < V_min",
	.create = particles_create,
	.step = particles_step,
	.destroy = particles_destroy,
	.save_state = particles_save,
	.load_state = particles_load,
	.finish = particles_finish,
	.finish_ends_run = true,
};
