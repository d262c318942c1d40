#include "core/hydrology/hydrology.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/bigmem.h"
#include "core/base/bytes.h"
#include "core/base/error.h"
#include "core/base/rain.h"
#include "core/base/workers.h"
#include "core/hydrology/flood.h"
#include "core/hydrology/hlanes.h"
#include "core/hydrology/hydrology_descend.h"
#include "core/hydrology/hydrology_life.h"
#include "core/base/normal.h"
#include "core/hydrology/hydrology_internal.h"

void hydrology_hparams(struct hparams *hp, const struct params *p)
{
	const struct params_hydrology *q = &p->hydrology;
	hp->min_volume = q->min_volume;
	hp->vf = q->volume_factor;
	hp->keep = q->sediment_keep;
	hp->spill = q->spill;
	hp->deposit_on_death = q->deposit_on_death;
	hp->settle = q->settle;
	hp->fp.drainage = q->drainage;
	/* A wall is a sea no lake can rise to: the water it would take to
	 * reach this level does not exist. */
	hp->fp.sea_level = q->edge != HYDROLOGY_EDGE_SEA ? 1e30 : q->sea_level;
	hp->fp.wrap_y = q->edge == HYDROLOGY_EDGE_WRAP;
	/* A droplet leaves a draining lake at most as full as it started, or
	 * one droplet would carry off a lake's worth of erosive water. */
	hp->fp.carry = 1.0 / q->volume_factor;
	/* The 2020 code: a leak lowers the lake toward the leak's surface
	 * whatever water that frees, and the freed water is gone. */
	hp->drain_loss = q->drain_loss;
	hp->dry_tries = q->dry_tries;
	hp->fp.below_floor = q->drain_loss;
	hp->fp.leak_high = q->leak == HYDROLOGY_LEAK_HIGH;
	hp->fp.strict_dry = q->strict_leak;
	hp->fp.level_join = q->level_join;
	hp->fp.halves = q->pour_halves;
	hp->fp.halves_filled = q->pour_halves && q->halves_filled;
	/* The seed's loop tries only while more than this is left; pours
	 * that replay only up to a leak (halves_filled off) never stopped. */
	hp->fp.halves_stop = hp->fp.halves_filled ? q->min_volume / q->volume_factor : 0;
	if (q->drain_loss)
		hp->fp.carry = INFINITY;
}

/* ---- batches ------------------------------------------------------------ */

/* The pool for the stream map's catch-up (hydrology_stream.h), made again
 * when world.threads changed.
 * Here 0 (every CPU) means one thread: the split was not seen to pay
 * (bench/HYDROLOGY.md, "Two threads"), so only an explicit count asks
 * for it. */
static int hydro_workers(struct hydro_state *s, const struct params *p)
{
	const int want = p->world.threads > 1 ? workers_resolve(p->world.threads) : 1;
	if ((s->workers ? workers_count(s->workers) : 1) == want)
		return GULLY_OK;
	workers_destroy(s->workers);
	s->workers = NULL;
	return want > 1 ? workers_create(&s->workers, want) : GULLY_OK;
}

/* After every `batch` droplets, counted by the world: the stream map learns
 * the batch's tracks, pools evaporate, trees live and die. */
static int batch_end(struct hydro_state *s, struct world *w, const struct params *p)
{
	const struct params_hydrology *q = &p->hydrology;
	size_t n = world_cells(w);
	if (q->coupling == HYDROLOGY_TREES && hydro_trees_note_tracks(s))
		return GULLY_ENOMEM;
	hstream_batch_end(&s->hs, (float)q->lrate, s->workers);
	if (q->pool_evaporation > 0) {
		float *pool = w->layer[LAYER_POOL];
		double gone = 0;
		for (size_t i = 0; i < n; i++) {
			if (pool[i] <= 0)
				continue;
			float old = pool[i];
			double d = (double)old - q->pool_evaporation;
			pool[i] = d > 0 ? (float)d : 0.0f;
			gone += (double)old - (double)pool[i];
		}
		w->tally[TALLY_WATER_EVAPORATED] += gone;
		flood_forget_all(s->flood);
	}
	if (q->coupling == HYDROLOGY_TREES)
		return hydro_trees_grow(s, w, p);
	return GULLY_OK;
}

/* ---- the droplet ------------------------------------------------------- */

/* The cells whose height a descent moved go to the flood's lake cache in
 * chunks of this many, after the steps that moved them (hydrology_descend.h). */
#define CHANGED_CHUNK 256

static enum descent descend(struct hydro_state *s, const struct hd_env *e, struct hdrop *d,
			    struct books *b, uint64_t *steps)
{
	uint32_t changed[CHANGED_CHUNK];
	enum descent out;
	do {
		size_t n = 0;
		out = hydrology_descend(e, d, &b->eroded, &b->deposited, changed, CHANGED_CHUNK, &n,
					steps);
		flood_forget_cells(s->flood, changed, n);
	} while (out == DESCENT_FULL);
	return out;
}

/* One step of it (the explorer's trace). */
static enum descent descend_step(struct hydro_state *s, const struct hd_env *e,
				 struct hdrop *d, struct books *b, uint64_t *steps,
				 struct hd_step *st)
{
	enum descent out = hydrology_descend_step(e, d, &b->eroded, &b->deposited, steps, st);
	if (st->cell >= 0 && st->after != st->before)
		flood_forget_cell(s->flood, (int)st->cell);
	return out;
}

/* The droplet's load goes into the ground at its cell; what the float height
 * could not take stays on the books as off the map. */
static void drop_load(struct flood *flood, struct world *w, const struct hdrop *d,
		      struct books *b, bool deposit)
{
	if (d->carried == 0)
		return;
	if (!deposit) {
		b->sediment_off_map += d->carried;
		return;
	}
	float *cell = world_at(w->layer[LAYER_HEIGHT], w, (int)d->x, (int)d->y);
	float before = *cell;
	*cell = (float)((double)before + d->carried);
	/* A load too small to move the float (often the rounding left over
	 * from settling in a lake) leaves the lake's record valid. */
	if (*cell != before)
		flood_forget_cell(flood, (int)d->y * w->width + (int)d->x);
	double gained = (double)*cell - (double)before;
	if (gained > 0)
		b->deposited += gained;
	else
		b->eroded -= gained;
	b->sediment_off_map += d->carried - gained;
}

static int flood_here(struct hydro_state *s, struct world *w, const struct hparams *hp,
		      struct hdrop *d, struct books *b, enum flood_outcome *outcome,
		      struct flood_result *res)
{
	int cell = (int)d->y * w->width + (int)d->x;
	const bool dry = w->layer[LAYER_POOL][cell] == 0.0f;
	struct flood_settle settle = {0, 0};
	if (d->carried > 0 && hp->settle) {
		settle.on_drain = (1.0 - hp->keep) * d->carried;
		if (hp->deposit_on_death)
			settle.on_fill = d->carried;
	}
	struct flood_result r;
	double t0 = s->clock ? s->clock() : 0;
	int err = flood_pour(s->flood, w->layer[LAYER_HEIGHT], w->layer[LAYER_POOL], cell,
			     d->volume / hp->vf, &settle, &hp->fp, &r);
	if (s->clock)
		s->flood_seconds += s->clock() - t0;
	if (err)
		return err;
	if (hp->dry_tries && dry && r.outcome == FLOOD_DRAIN && r.written == 0) {
		/* The water the second try takes from lakes is gone, as the
		 * seed's is, and the droplet goes on from that try's drain, the
		 * highest it found, as the seed's does. */
		double lost;
		int drain;
		err = flood_dry_try(s->flood, w->layer[LAYER_HEIGHT], w->layer[LAYER_POOL], cell,
				    d->volume / hp->vf, &hp->fp, &lost, &drain);
		if (err)
			return err;
		b->evaporated += lost * hp->vf;
		if (drain >= 0)
			r.drain = drain;
	}
	*res = r;
	d->carried -= r.settled;
	b->deposited += r.settled;
	/* The droplet pays exactly what the float pools took (or gets what a
	 * draining lake gave up). With drain_loss it pays what the rise took,
	 * and what the lake gave up draining is gone (booked as evaporated). */
	if (hp->drain_loss && r.outcome == FLOOD_DRAIN) {
		d->volume -= r.poured * hp->vf;
		b->evaporated += (r.poured - r.gained) * hp->vf;
	} else {
		d->volume -= r.gained * hp->vf;
	}
	*outcome = r.outcome;
	if (r.outcome == FLOOD_DRAIN || r.outcome == FLOOD_OVERSHOT) {
		if (!hp->settle && d->carried > 0) {
			/* The seed's load left at a leak is gone from the books. */
			double lost = (1.0 - hp->keep) * d->carried;
			d->carried -= lost;
			b->sediment_off_map += lost;
		}
		d->sediment *= (float)hp->keep;
		d->x = (float)(r.drain % w->width) + 0.5f;
		d->y = (float)(r.drain / w->width) + 0.5f;
	}
	return GULLY_OK;
}

void hydrology_life_begin(struct life *l, float x, float y)
{
	memset(l, 0, sizeof *l);
	l->d.x = x;
	l->d.y = y;
	l->d.volume = 1.0;
}

/* The books of an ended droplet into the world's tallies. */
static void life_end(struct hydro_state *s, struct world *w, const struct hparams *hp,
		     struct life *l)
{
	struct books *b = &l->b;
	if (l->gone) {
		b->off_map += l->d.volume;
		b->sediment_off_map += l->d.carried;
	} else {
		/* Dried up, or out of spill rounds: what water is left (for a droplet
		 * that ended in a lake, the float rounding of its pour) is booked as
		 * evaporated, and its load settles. */
		b->evaporated += l->d.volume;
		drop_load(s->flood, w, &l->d, b, hp->deposit_on_death);
	}
	const double vf = hp->vf;
	w->tally[TALLY_WATER_IN] += 1.0 / vf;
	w->tally[TALLY_WATER_EVAPORATED] += b->evaporated / vf;
	w->tally[TALLY_WATER_OFF_MAP] += b->off_map / vf;
	w->tally[TALLY_ERODED] += b->eroded;
	w->tally[TALLY_DEPOSITED] += b->deposited;
	w->tally[TALLY_SEDIMENT_OFF_MAP] += b->sediment_off_map;
	l->stage = LIFE_DONE;
}

void hydrology_life_descended(struct life *l, enum descent e)
{
	l->b.evaporated += l->volume0 - l->d.volume;
	l->gone = e == DESCENT_LEFT;
	l->stage = e == DESCENT_FLOOD ? LIFE_POUR : LIFE_END;
}

/* The next stage: a whole descent (st NULL) or one step of it, a pour (its
 * result in *r), or the end. */
int hydrology_life_next(struct hydro_state *s, struct world *w, const struct hparams *hp,
		     const struct hd_env *env, struct life *l, uint64_t *steps,
		     struct hd_step *st, struct flood_result *r)
{
	struct hdrop *d = &l->d;
	switch (l->stage) {
	case LIFE_ROUND: {
		if (!(l->round < hp->spill && d->volume > hp->min_volume)) {
			l->stage = LIFE_END;
			return GULLY_OK;
		}
		size_t cell = (size_t)(int)d->y * (size_t)w->width + (size_t)(int)d->x;
		/* On a pool (rain on a lake, or a leak into a lower lake) it floods
		 * at once; on dry ground it descends first. */
		l->stage = w->layer[LAYER_POOL][cell] > 0 ? LIFE_POUR : LIFE_DESCENT;
		l->volume0 = d->volume;
		return GULLY_OK;
	}
	case LIFE_DESCENT: {
		enum descent e = st ? descend_step(s, env, d, &l->b, steps, st)
				    : descend(s, env, d, &l->b, steps);
		if (e != DESCENT_MOVED)
			hydrology_life_descended(l, e);
		return GULLY_OK;
	}
	case LIFE_POUR: {
		enum flood_outcome o;
		int err = flood_here(s, w, hp, d, &l->b, &o, r);
		if (err)
			return err;
		l->gone = o == FLOOD_SEA;
		l->round++;
		l->stage = l->gone ? LIFE_END : LIFE_ROUND;
		return GULLY_OK;
	}
	case LIFE_END:
		life_end(s, w, hp, l);
		return GULLY_OK;
	default:
		return GULLY_OK;
	}
}

/* On a map too big for the caches, the next droplet's first cells are
 * fetched while this one runs: its spawn point drawn from a copy of the
 * world's stream (a draw between the two, as the trees' at a batch's end,
 * only makes the guess wrong; nothing reads it but the prefetch). */
static void prefetch_next_spawn(struct world *w, const struct hd_env *env)
{
	const struct rng saved = w->rng;
	float x, y;
	world_spawn_point(w, &x, &y);
	w->rng = saved;
	hydrology_descend_prefetch(env, (uint32_t)y * (uint32_t)w->width + (uint32_t)x);
}

static int run_droplet(struct hydro_state *s, struct world *w, const struct hparams *hp,
		       const struct hd_env *env, uint64_t *steps)
{
	float x, y;
	world_spawn_point(w, &x, &y);
	if (env->hs)
		prefetch_next_spawn(w, env);
	struct life l;
	hydrology_life_begin(&l, x, y);
	struct flood_result r;
	while (l.stage != LIFE_DONE) {
		int err = hydrology_life_next(s, w, hp, env, &l, steps, NULL, &r);
		if (err)
			return err;
	}
	return GULLY_OK;
}

/* ---- the process ---------------------------------------------------------- */

static void hydro_destroy(void *state)
{
	struct hydro_state *s = state;
	if (!s)
		return;
	flood_destroy(s->flood);
	hlanes_destroy(s->lanes);
	workers_destroy(s->workers);
	hstream_free(&s->hs);
	const size_t n = (size_t)s->width * (size_t)s->height;
	bigmem_free(s->track, n);
	bigmem_free(s->roots, n);
	hydro_trees_free(&s->forest);
	free(s);
}

static int hydro_create(void **state, struct world *w, const struct params *p)
{
	*state = NULL;
	struct hydro_state *s = calloc(1, sizeof *s);
	if (!s)
		return GULLY_ENOMEM;
	s->w = w;
	s->width = w->width;
	s->height = w->height;
	size_t n = world_cells(w);
	s->seen_particles = w->particles;
	s->seen_steps = w->steps;
	/* The trees' own draws (hydrology_trees.c), from the world's seed. */
	s->forest.key = ((uint64_t)p->world.seed + 1) * 0xd1342543de82ef95u;
	tree_map_init(&s->forest.at, n);
	s->track = bigmem_zalloc(n);
	s->roots = bigmem_zalloc(n);
	s->lanes = hlanes_create(w->width, w->height);
	int err = s->track && s->roots && s->lanes ? flood_create(&s->flood, w->width, w->height)
						   : GULLY_ENOMEM;
	if (!err)
		err = hstream_init(&s->hs, w->layer[LAYER_STREAM], s->track, n);
	if (err) {
		hydro_destroy(s);
		return err;
	}
	/* Vegetation is the living trees' roots, and there are none yet
	 * (load_state brings a snapshot's back). */
	memset(w->layer[LAYER_VEGETATION], 0, n * sizeof(float));
	*state = s;
	return GULLY_OK;
}

/* hydrology.fill_start: before the first droplet, every pit of the map
 * (generated or imported) full to its spill, the sea's cells to sea level,
 * as a pour of enough water everywhere leaves them. The water books take
 * the difference (in, or off the map where an imported pool stood above
 * its spill). A walled map has no spill: nothing to do. */
static int fill_start(struct hydro_state *s, struct world *w, const struct params *p)
{
	if (!p->hydrology.fill_start || w->particles != 0 || p->hydrology.edge != HYDROLOGY_EDGE_SEA)
		return GULLY_OK;
	size_t n = world_cells(w);
	float *pool = w->layer[LAYER_POOL];
	double before = 0, after = 0;
	for (size_t i = 0; i < n; i++)
		before += pool[i];
	int err = flood_fill_map(w->layer[LAYER_HEIGHT], pool, w->width, w->height,
				 p->hydrology.sea_level);
	if (err)
		return err;
	for (size_t i = 0; i < n; i++)
		after += pool[i];
	w->tally[after >= before ? TALLY_WATER_IN : TALLY_WATER_OFF_MAP] += fabs(after - before);
	flood_forget_all(s->flood);
	return GULLY_OK;
}

/* Before droplets run (the process's or the trace's): the world is the
 * state's, the flood's lake records still hold, and a first droplet finds
 * the pits filled (fill_start). */
int hydrology_ready(struct hydro_state *s, struct world *w, const struct params *p,
		       uint64_t budget)
{
	if (w != s->w || w->width != s->width || w->height != s->height)
		return GULLY_EINVAL;
	if (w->particles != s->seen_particles || w->steps != s->seen_steps)
		flood_forget_all(s->flood);
	s->hs.stream = w->layer[LAYER_STREAM];
	if (budget) {
		int err = fill_start(s, w, p);
		if (err)
			return err;
	}
	return hydro_workers(s, p);
}

int hydrology_droplet_ended(struct hydro_state *s, struct world *w, const struct params *p)
{
	/* The batch boundary comes from the world's count of droplets that
	 * ended (released, less those the lanes hold), so how a caller splits
	 * its budget cannot move it. */
	const uint64_t ended = w->particles - (uint64_t)hlanes_in_flight(s->lanes);
	if (ended % (uint64_t)p->hydrology.batch == 0)
		return batch_end(s, w, p);
	return GULLY_OK;
}

/* A droplet has ended: the world counts it, and a batch may end. */
static int droplet_counted(struct hydro_state *s, struct world *w, const struct params *p)
{
	w->particles++;
	return hydrology_droplet_ended(s, w, p);
}

void hydrology_call_end(struct hydro_state *s, struct world *w, uint64_t steps)
{
	/* Nothing outside sees a lagging stream cell, unless the caller
	 * asked (catch_up): each sync is a pass over every stream cell ever
	 * visited, and gully run's chunks would pay one a chunk. */
	if (!s->lag)
		hstream_sync(&s->hs, s->workers);
	w->steps += steps;
	s->seen_particles = w->particles;
	s->seen_steps = w->steps;
}

int hydrology_life_close(struct hydro_state *s, struct world *w, const struct params *p,
			 const struct hparams *hp, struct life *l, uint64_t steps)
{
	life_end(s, w, hp, l);
	int err = droplet_counted(s, w, p);
	hstream_sync(&s->hs, s->workers);
	w->steps += steps;
	s->seen_particles = w->particles;
	s->seen_steps = w->steps;
	return err;
}

bool hydrology_life_env(struct hydro_state *s, struct world *w, const struct params *p,
			struct hparams *hp, struct hd_env *env)
{
	if (w != s->w)
		return false;
	hydrology_hparams(hp, p);
	hydrology_descend_env(env, p, w, s->track);
	env->hs = hstream_env(&s->hs);
	return true;
}

static int hydro_step(void *state, struct world *w, const struct params *p, uint64_t budget,
		      struct process_report *rep)
{
	struct hydro_state *s = state;
	int ready = hydrology_ready(s, w, p, budget);
	if (ready)
		return ready;
	struct hparams hp;
	hydrology_hparams(&hp, p);
	struct hd_env env;
	hydrology_descend_env(&env, p, w, s->track);
	env.hs = hstream_env(&s->hs);
	uint64_t steps = 0, done = 0;
	int err = GULLY_OK;
	if (p->hydrology.lanes > 1 || s->lanes_always) {
		err = hydrology_lanes_run(s, w, p, &hp, &env, p->hydrology.lanes, budget, &steps);
		done = budget;
	} else if (hlanes_in_flight(s->lanes)) {
		/* Droplets still in flight from a run in lanes end first. */
		err = hydrology_lanes_drain(s, w, p, &hp, &env, &steps);
	}
	for (; !err && done < budget; done++) {
		err = run_droplet(s, w, &hp, &env, &steps);
		if (err)
			break;
		err = droplet_counted(s, w, p);
		if (err) {
			done++;
			break;
		}
	}
	hydrology_call_end(s, w, steps);
	if (rep) {
		rep->particles = done;
		rep->steps = steps;
	}
	return err;
}

void hydrology_counters(const void *state, struct hydrology_counters *c)
{
	const struct hydro_state *s = state;
	struct flood_counters fc;
	flood_counters(s->flood, &fc);
	c->flood_calls = fc.calls;
	c->flood_touched = fc.touched;
	c->flood_lake_cells = fc.lake_cells;
	c->flood_written = fc.written;
	c->flood_cached = fc.cached;
	c->flood_shadow_pours = fc.shadow_pours;
	c->flood_shadow_differed = fc.shadow_differed;
	c->flood_seconds = s->flood_seconds;
	c->trees = s->forest.live;
	c->tree_events = s->forest.events_run;
	c->tree_checks = s->forest.checks_run;
}

void hydrology_set_flood_cache(void *state, bool on)
{
	struct hydro_state *s = state;
	flood_set_cache(s->flood, on);
}

static void hydro_catch_up(void *state, bool lag)
{
	struct hydro_state *s = state;
	hstream_sync(&s->hs, s->workers);
	s->lag = lag;
}

void hydrology_set_stream_lazy(void *state, bool on)
{
	struct hydro_state *s = state;
	hstream_set_lazy(&s->hs, on);
}

int hydrology_set_flood_shadow(void *state, bool on)
{
	struct hydro_state *s = state;
	return s->flood ? flood_set_shadow(s->flood, on) : GULLY_OK;
}

void hydrology_set_clock(void *state, double (*clock)(void))
{
	struct hydro_state *s = state;
	s->clock = clock;
}

const struct process_ops hydrology_process = {
	.name = "hydrology",
	.title = "Streams, pools and vegetation",
	.section = "hydrology",
	.unit = "droplets",
	.uses_rain = true,
	.describe_for = hydrology_equations,
	.create = hydro_create,
	.step = hydro_step,
	.destroy = hydro_destroy,
	.save_state = hydro_save_state,
	.load_state = hydro_load_state,
	.catch_up = hydro_catch_up,
	.finish = hydrology_lanes_finish,
	.finish_ends_run = true,
};
