/* One droplet of process 1 (DESIGN.md 3.1): the step, written once.
 *
 * Every runner of droplets uses it: the seed-order loop (particles.lanes=1,
 * one droplet after another), the lockstep engine's portable read phase (the
 * reference its SIMD copies are tested against, bit for bit), and the
 * explorer's single-droplet trace. The scalar API:
 *
 *     struct droplet_env e;  droplet_env_init(&e, w, &dp);   once per run
 *     struct droplet d;      droplet_spawn(w, &d);           or set x, y yourself
 *     struct droplet_walk l; droplet_begin(&l, &d, &e);
 *     struct droplet_change c;
 *     while (droplet_step(&l, &e, &c) == DROPLET_MOVED)
 *             ... c.at went from c.before to c.after; l.pos, l.vel moved ...
 *     droplet_finish(&l, &e, &fin);   deposit on death; fin has its tallies
 *     droplet_commit(&fin, w);  droplet_end(&l, &d);
 *
 * A step, in order: the normal n at the droplet's cell (normal_xz inside,
 * normal_ref's x and z at the edges); v' = (v + n dt / (V rho)) (1 - dt f);
 * p' = (p + dt v) + n (dt dt / (V rho)) (the bracket does not wait for the
 * normal, so the chain from the normal to the next cell is one multiply and
 * one add); off the map: the droplet ends. Otherwise, with h0 and h1 the
 * heights of its cell and of the next, c_eq = max(0, |v'| (V (h0 - h1))),
 * cdiff = c_eq - s; its cell loses delta = (V k dt) cdiff; s += k dt cdiff;
 * V *= 1 - dt e. With particles.hardness = a > 0, a step that takes soil
 * (cdiff > 0) takes it at cdiff (1 - a D), D the hardness of its cell: the
 * emitter's (1 - D) at a = 1, one meaning of hardness (a = 0: the map is not
 * read and no bit moves). The number of steps a droplet may take is known
 * when it starts (droplet_dry_steps: its volume only ever shrinks by the same
 * factor), so "V > V_min and age < max_steps" is a count-down.
 *
 * droplet_advance is the read half of a step (it moves the droplet and says
 * what its cell should lose, writing nothing); droplet_apply the write half.
 * droplet_step is both. The lockstep engine runs every droplet's read half on
 * the map as it was at the start of a tick, then the write halves in slot
 * order. Private to src/core (and its tests, and the explorer's tracer). */
#ifndef GULLY_CORE_PARTICLES_DROPLET_H
#define GULLY_CORE_PARTICLES_DROPLET_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "core/base/normal.h"
#include "core/base/rain.h"
#include "core/base/rng.h"
#include "core/base/v2.h"
#include "core/base/world.h"
#include "core/particles/particles.h"

/* Inlined even where called twice: droplet_advance_as's `hard` must be a
 * constant where it lands (one copy with the hardness map, one without). */
#if defined(__GNUC__)
#define DROPLET_INLINE static inline __attribute__((always_inline))
#else
#define DROPLET_INLINE static inline
#endif

/* Above this many cells (4 MB of heights) the lockstep engine fetches each
 * droplet's next block of rows a tick early (lockstep_simd.h). At this size
 * and below the prefetches measured no gain (bench/PARTICLES.md), so they
 * would only cost instructions. */
#define DROPLET_PREFETCH_CELLS (1u << 20)

/* What every step needs, fixed for a run of steps. */
struct droplet_env {
	float *h;
	int width, height;
	uint32_t stride;
	float dt, keep_speed, keep_volume, rate, min_volume, density;
	uint32_t max_steps;
	uint32_t dry_steps1; /* droplet_dry_steps of a fresh droplet (volume 1) */
	bool deposit_on_death;
	const float *hard; /* the hardness layer, NULL when particles.hardness is 0 */
	float hardness;    /* particles.hardness */
	bool prefetch;     /* the map outgrows the cache: fetch the next block early */
	v2f dt2, keep2;      /* dt and keep_speed in both lanes */
	struct v2_bounds bounds;
	struct normal_consts nk;
};

/* A droplet in flight, in locals: through a struct droplet every height store
 * could alias its fields, and the compiler would reload them each step. */
struct droplet_walk {
	v2f pos, vel;
	float volume, sediment;
	uint32_t at;          /* its cell's index in the height layer */
	uint32_t left;        /* steps it may still take */
	uint32_t left0, age0; /* left and age when it began */
	bool interior;        /* its cell's 3x3 block is on the map */
	bool left_map;
	v2d tally;            /* height its steps took (eroded) and gave (deposited) */
	double carried0;      /* what it carried when it began */
};

/* One step's change of the map: cell `at` loses `delta` (0 when the step
 * ended the droplet); droplet_apply fills before and after. */
struct droplet_change {
	uint32_t at;
	float delta;
	float before, after;
	float c_eq;     /* the sediment the droplet could carry at this step */
};

/* A finished droplet's share of the tallies. */
struct droplet_books {
	double eroded, deposited;
	double off_map; /* what it carried off the map or could not drop */
};

enum droplet_result { DROPLET_MOVED, DROPLET_ENDED };

/* Steps a droplet of this volume takes before it dries up, at most cap: the
 * number of times volume > min_volume holds as the step shrinks it, by the
 * very float product the step makes. */
static inline uint32_t droplet_dry_steps(float volume, float keep, float min_volume, uint32_t cap)
{
	uint32_t k = 0;
	while (k < cap && volume > min_volume) {
		volume = volume * keep;
		k++;
	}
	return k;
}

static inline void droplet_env_init(struct droplet_env *e, struct world *w,
				    const struct droplet_params *dp)
{
	e->h = w->layer[LAYER_HEIGHT];
	e->width = w->width;
	e->height = w->height;
	e->stride = (uint32_t)w->width;
	e->dt = dp->dt;
	e->keep_speed = 1.0f - dp->dt * dp->friction;
	e->keep_volume = 1.0f - dp->dt * dp->evap_rate;
	e->rate = dp->dt * dp->deposition_rate;
	e->min_volume = dp->min_volume;
	e->density = dp->density;
	e->max_steps = dp->max_steps;
	e->dry_steps1 = droplet_dry_steps(1.0f, e->keep_volume, e->min_volume, e->max_steps);
	e->deposit_on_death = dp->deposit_on_death;
	e->hardness = dp->hardness;
	e->hard = dp->hardness > 0.0f ? w->layer[LAYER_HARDNESS] : NULL;
	e->prefetch = world_cells(w) > DROPLET_PREFETCH_CELLS;
	e->dt2 = v2_make(e->dt, e->dt);
	e->keep2 = v2_make(e->keep_speed, e->keep_speed);
	v2_bounds_init(&e->bounds, w->width, w->height);
	normal_consts_init(&e->nk, dp->scale, dp->symmetric_normal);
}

/* A fresh droplet at a spawn point drawn from the world's RNG (two draws,
 * or the rain mask's, base/rain.h): every runner draws the same way. */
static inline void droplet_spawn(struct world *w, struct droplet *d)
{
	memset(d, 0, sizeof *d);
	world_spawn_point(w, &d->x, &d->y);
	d->volume = 1.0f;
}

/* 1 - a D at cell `at`: the share of the soil a step may take there. */
static inline float droplet_softness(const struct droplet_env *e, uint32_t at)
{
	return 1.0f - e->hardness * e->hard[at];
}

/* Takes up a droplet (fresh or part-way). One off the map (or with a NaN
 * coordinate) takes no step. */
static inline void droplet_begin(struct droplet_walk *l, const struct droplet *d,
				 const struct droplet_env *e)
{
	l->pos = v2_make(d->x, d->y);
	l->vel = v2_make(d->vx, d->vy);
	l->volume = d->volume;
	l->sediment = d->sediment;
	l->age0 = d->age;
	const uint32_t cap = d->age < e->max_steps ? e->max_steps - d->age : 0;
	const uint32_t dry = d->volume == 1.0f
				     ? e->dry_steps1
				     : droplet_dry_steps(d->volume, e->keep_volume, e->min_volume, cap);
	l->left = dry < cap ? dry : cap;
	const unsigned where = v2_where(l->pos, &e->bounds);
	l->left_map = (where & V2_ON_MAP) != V2_ON_MAP;
	if (l->left_map)
		l->left = 0;
	l->left0 = l->left;
	l->at = l->left_map ? 0 : v2_cell(l->pos, e->stride);
	l->interior = where == V2_INTERIOR;
	l->tally = d2_make(0, 0);
	l->carried0 = d->carried;
}

static inline uint32_t droplet_steps(const struct droplet_walk *l)
{
	return l->left0 - l->left;
}

/* The read half of a step: moves the droplet and sets c->at and c->delta,
 * reading the map and writing nothing. DROPLET_ENDED: it had no step left
 * (nothing moved) or stepped off the map (c->delta is 0). `hard` must be
 * e->hard != NULL; a loop that passes it as a constant (the seed order's)
 * has no trace of the hardness map when it is off. */
DROPLET_INLINE enum droplet_result droplet_advance_as(struct droplet_walk *l,
						      const struct droplet_env *e,
						      struct droplet_change *c, const bool hard)
{
	c->at = 0;
	c->delta = 0.0f;
	c->c_eq = 0.0f;
	if (l->left == 0 || l->left_map)
		return DROPLET_ENDED;
	const float *h = e->h;
	const uint32_t at = l->at;
	const v2f n = l->interior ? normal_xz(h + at, e->stride, &e->nk)
				  : normal_edge_xz(h, e->width, e->height, (int)v2_x(l->pos),
						   (int)v2_y(l->pos), &e->nk);
	const float volume = l->volume;
	const float inv_mass = e->dt / (volume * e->density);
	const v2f vel = v2_mul(v2_add(l->vel, v2_scale(n, inv_mass)), e->keep2);
	const v2f pos =
		v2_add(v2_add(l->pos, v2_mul(e->dt2, l->vel)), v2_scale(n, e->dt * inv_mass));
	const unsigned where = v2_where(pos, &e->bounds);
	l->pos = pos;
	l->vel = vel;
	l->left--;
	if ((where & V2_ON_MAP) != V2_ON_MAP) {
		l->left_map = true;
		return DROPLET_ENDED;
	}
	const uint32_t next = v2_cell(pos, e->stride);
	const float here = h[at];
	const float there = h[next];
	const float speed = sqrtf(v2_norm2(vel));
	/* speed * (volume * dh), not (volume * speed) * dh: the speed's sqrt
	 * comes last, and only one multiply should wait for it. */
	const float c_eq = max0f(speed * (volume * (here - there)));
	float cdiff = c_eq - l->sediment;
	if (hard && cdiff > 0.0f)
		cdiff = cdiff * droplet_softness(e, at);
	c->at = at;
	c->delta = volume * e->rate * cdiff;
	c->c_eq = c_eq;
	l->sediment += e->rate * cdiff;
	l->volume = volume * e->keep_volume;
	l->at = next;
	l->interior = where == V2_INTERIOR;
	return DROPLET_MOVED;
}

static inline enum droplet_result droplet_advance(struct droplet_walk *l,
						  const struct droplet_env *e,
						  struct droplet_change *c)
{
	return droplet_advance_as(l, e, c, e->hard != NULL);
}

/* The write half: h[c->at] -= c->delta, on the droplet's books. */
static inline void droplet_apply(struct droplet_walk *l, const struct droplet_env *e,
				 struct droplet_change *c)
{
	float *cell = e->h + c->at;
	c->before = *cell;
	c->after = c->before - c->delta;
	*cell = c->after;
	l->tally = d2_book(l->tally, c->before, c->after);
}

/* One whole step (`hard` as droplet_advance_as's). */
DROPLET_INLINE enum droplet_result droplet_step_as(struct droplet_walk *l,
						   const struct droplet_env *e,
						   struct droplet_change *c, const bool hard)
{
	const enum droplet_result r = droplet_advance_as(l, e, c, hard);
	if (r == DROPLET_MOVED)
		droplet_apply(l, e, c);
	return r;
}

static inline enum droplet_result droplet_step(struct droplet_walk *l, const struct droplet_env *e,
					       struct droplet_change *c)
{
	return droplet_step_as(l, e, c, e->hard != NULL);
}

/* Net soil the droplet holds: what deposit on death gives back. */
static inline double droplet_carried(const struct droplet_walk *l)
{
	double eroded, deposited;
	d2_get(l->tally, &eroded, &deposited);
	return l->carried0 + (eroded - deposited);
}

/* Ends a droplet: an on-map droplet with deposit on death drops what it
 * carries on the four cells around (x, y) (bilinear weights, clamped to the
 * map), read-modify-write; b gets its share of the tallies. */
static inline void droplet_finish(const struct droplet_walk *l, const struct droplet_env *e,
				  struct droplet_books *b)
{
	d2_get(l->tally, &b->eroded, &b->deposited);
	const double carried = droplet_carried(l);
	b->off_map = carried;
	if (l->left_map || !e->deposit_on_death || carried == 0)
		return;
	const float fx = v2_x(l->pos) - 0.5f, fy = v2_y(l->pos) - 0.5f;
	const int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	const float tx = fx - (float)x0, ty = fy - (float)y0;
	double gained = 0;
	for (int k = 0; k < 4; k++) {
		int u = x0 + (k & 1), v = y0 + (k >> 1);
		const double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		u = u < 0 ? 0 : u >= e->width ? e->width - 1 : u;
		v = v < 0 ? 0 : v >= e->height ? e->height - 1 : v;
		float *c = &e->h[(uint32_t)v * e->stride + (uint32_t)u];
		const float before = *c;
		*c = (float)((double)before + carried * wgt);
		gained += (double)*c - (double)before;
	}
	if (gained > 0)
		b->deposited += gained;
	else
		b->eroded -= gained;
	/* The few ulps the float heights could not take stay on the books. */
	b->off_map = carried - gained;
}

static inline void droplet_commit(const struct droplet_books *b, struct world *w)
{
	w->tally[TALLY_SEDIMENT_OFF_MAP] += b->off_map;
	w->tally[TALLY_ERODED] += b->eroded;
	w->tally[TALLY_DEPOSITED] += b->deposited;
}

/* The walk's state back into a droplet (what it carried is in the books). */
static inline void droplet_end(const struct droplet_walk *l, struct droplet *d)
{
	d->x = v2_x(l->pos);
	d->y = v2_y(l->pos);
	d->vx = v2_x(l->vel);
	d->vy = v2_y(l->vel);
	d->volume = l->volume;
	d->sediment = l->sediment;
	d->age = l->age0 + droplet_steps(l);
	d->carried = 0;
}

#endif
