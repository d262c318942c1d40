/* One droplet step, the only copy of the physics (DESIGN.md 3.1), shared by
 * droplet_run (one droplet at a time) and the paired scheduler
 * (particles_pair.c, two droplets at once with the results of one after the
 * other). Private to src/core.
 *
 * A lane is a droplet in registers. Its step runs in one of three modes:
 * LANE_SOLO, plain; LANE_LEADER, the older droplet, which first checks that
 * nothing it is about to read or write was touched by the speculative younger
 * one; LANE_FOLLOWER, the younger droplet, which stamps the cells around it
 * and logs every height it overwrites so it can be undone.
 *
 * What keeps a step short (141 instructions in the AVX2 copy, 168 in the SSE2
 * one, from 208; bench/README.md):
 * - position and speed are (x, y) pairs in one SSE register (lane_v2), so the
 *   normal's two sums land where the speed update wants them and one compare
 *   tells both "still on the map" and "next step's 3x3 block is inside it";
 * - the number of steps a droplet may take is known when it starts: its
 *   volume only ever shrinks by the same factor, so "volume > min_volume and
 *   age < max_steps" is a count-down (lane_dry_steps), computed with the same
 *   float products the step makes;
 * - eroded and deposited volume are one pair of doubles, and what the
 *   droplet carries is their difference, taken once when it ends;
 * - the follower stamps the 3x3 block around each cell it enters, so the
 *   leader checks two bytes per step (its cell and the next) instead of a
 *   3x3 block and one more (particles_pair.h). */
#ifndef GULLY_PARTICLES_LANE_H
#define GULLY_PARTICLES_LANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/particles/particles.h"
#include "core/particles/particles_normal.h"

#if GULLY_USE_SSE2
/* An (x, y) pair in lanes 0 and 1; lanes 2 and 3 are kept 0. */
typedef __m128 lane_v2;
/* (eroded, deposited), in double. */
typedef __m128d lane_d2;
#else
typedef struct {
	float x, y;
} lane_v2;
typedef struct {
	double eroded, deposited;
} lane_d2;
#endif

struct lane {
	lane_v2 pos, vel;
	float volume, sediment;
	uint32_t at;        /* index of the droplet's cell in the height layer */
	uint32_t left;      /* steps it may still take */
	uint32_t left0, age0; /* left and age when the lane took the droplet */
	bool interior;      /* its cell's 3x3 block is on the map */
	bool left_map;
	lane_d2 tally;      /* height its steps took (eroded) and gave (deposited) */
	double carried0;    /* what it carried when the lane took it */
	/* Set by lane_finish. */
	double eroded, deposited;
	double off_map;     /* its share of TALLY_SEDIMENT_OFF_MAP */
};

/* What every step needs, fixed for a batch. */
struct lane_env {
	float *h;
	int width, height;
	uint32_t stride;
	float dt, keep_speed, keep_volume, rate, min_volume, density, scale;
	uint32_t max_steps;
	uint32_t dry_steps1; /* lane_dry_steps of a fresh droplet (volume 1) */
	bool symmetric, deposit_on_death;
	lane_v2 dt2, keep2;  /* dt and keep_speed in both lanes */
#if GULLY_USE_SSE2
	__m128 lo, hi;       /* bounds of (x, y, x, y) for lane_where */
#endif
	struct normal_consts nk;
};

/* 8 bytes: the cell's index and the height it had. */
struct undo_entry {
	uint32_t at;
	float old;
};

/* Speculation book-keeping. A follower writes its id on the 3x3 block around
 * every cell it enters (as three 4-byte stores, so the column right of the
 * block is stamped too: a harmless false alarm at worst). The leader treats a
 * stamp >= min_id on its own cell as a conflict: droplets interact only
 * through cells within one of their centres, so that one byte says whether
 * the follower saw or changed anything the leader reads or writes now.
 * stamp[i] is cell i's stamp; the buffer has stride + 1 bytes of room before
 * it and stride + 3 after, so the stores of an edge cell's block stay inside
 * (they wrap to the next or previous row: again only false alarms). */
struct lane_spec {
	uint8_t *stamp;
	uint32_t stride;
	int min_id;          /* 256: nothing speculative */
	uint32_t id4;        /* the follower's id in each of four bytes */
	struct undo_entry *log;
	size_t log_len, log_cap;
};

/* The step must be inlined into each loop that calls it: only then do the
 * lane's fields stay in registers and the mode tests fold away. */
#if defined(__GNUC__)
#define LANE_INLINE inline __attribute__((always_inline))
#else
#define LANE_INLINE inline
#endif

enum lane_mode { LANE_SOLO, LANE_LEADER, LANE_FOLLOWER };
enum lane_result { LANE_MOVED, LANE_ENDED, LANE_CONFLICT, LANE_LOG_FULL };

/* The pair operations. Lane-wise IEEE arithmetic: the same bits as the
 * scalar expressions they replace, in both forms. */
#if GULLY_USE_SSE2
static inline lane_v2 v2_make(float x, float y)
{
	return _mm_setr_ps(x, y, 0.0f, 0.0f);
}
static inline lane_v2 v2_add(lane_v2 a, lane_v2 b)
{
	return _mm_add_ps(a, b);
}
static inline lane_v2 v2_mul(lane_v2 a, lane_v2 b)
{
	return _mm_mul_ps(a, b);
}
static inline lane_v2 v2_scale(lane_v2 a, float s)
{
	return _mm_mul_ps(a, _mm_set1_ps(s));
}
static inline float v2_x(lane_v2 a)
{
	return _mm_cvtss_f32(a);
}
static inline float v2_y(lane_v2 a)
{
	return _mm_cvtss_f32(_mm_shuffle_ps(a, a, 1));
}
/* x * x + y * y */
static inline float v2_norm2(lane_v2 a)
{
	const __m128 q = _mm_mul_ps(a, a);
	return _mm_cvtss_f32(_mm_add_ss(q, _mm_shuffle_ps(q, q, 1)));
}
/* The cell of an on-map position: its index in a layer `stride` wide. */
static inline uint32_t v2_cell(lane_v2 p, uint32_t stride)
{
	const __m128i i = _mm_cvttps_epi32(p);
	return (uint32_t)_mm_cvtsi128_si32(_mm_shuffle_epi32(i, 1)) * stride +
	       (uint32_t)_mm_cvtsi128_si32(i);
}
/* Bits 0 and 1: 0 <= x < width, 0 <= y < height (NaN is off); bits 2 and 3:
 * 1 <= x < width - 1 and the same for y, i.e. the cell's 3x3 block is on the
 * map. -0.0 counts as 0, as (int) truncates it. */
static inline unsigned lane_where(lane_v2 p, const struct lane_env *e)
{
	const __m128 pp = _mm_movelh_ps(p, p);
	return (unsigned)_mm_movemask_ps(
		_mm_and_ps(_mm_cmple_ps(e->lo, pp), _mm_cmplt_ps(pp, e->hi)));
}
static inline lane_v2 lane_normal_interior(const float *p, const struct lane_env *e)
{
	return normal_interior_xz(p, e->stride, &e->nk);
}
static inline lane_d2 d2_zero(void)
{
	return _mm_setzero_pd();
}
/* Adds (max(here - after, 0), max(after - here, 0)). Two floats' difference
 * is exact in double, so the books hold what the float height really lost or
 * gained. A max, not a branch: whether a step erodes or deposits is close to
 * a coin toss. */
static inline lane_d2 d2_book(lane_d2 acc, float here, float after)
{
	const __m128d ha = _mm_set_pd((double)after, (double)here);
	const __m128d diff = _mm_sub_pd(ha, _mm_shuffle_pd(ha, ha, 1));
	return _mm_add_pd(acc, _mm_max_pd(diff, _mm_setzero_pd()));
}
static inline void d2_get(lane_d2 a, double *eroded, double *deposited)
{
	*eroded = _mm_cvtsd_f64(a);
	*deposited = _mm_cvtsd_f64(_mm_unpackhi_pd(a, a));
}
/* max(v, 0) as the reference writes it (v < 0 ? 0 : v), without a branch:
 * whether c_eq clamps is a coin toss, and a mispredicted branch costs more
 * than the whole step (written in C, GCC makes a branch of it for SSE2). */
static inline float lane_max0(float v)
{
	return _mm_cvtss_f32(_mm_max_ss(_mm_setzero_ps(), _mm_set_ss(v)));
}
#else
static inline lane_v2 v2_make(float x, float y)
{
	return (lane_v2){x, y};
}
static inline lane_v2 v2_add(lane_v2 a, lane_v2 b)
{
	return (lane_v2){a.x + b.x, a.y + b.y};
}
static inline lane_v2 v2_mul(lane_v2 a, lane_v2 b)
{
	return (lane_v2){a.x * b.x, a.y * b.y};
}
static inline lane_v2 v2_scale(lane_v2 a, float s)
{
	return (lane_v2){a.x * s, a.y * s};
}
static inline float v2_x(lane_v2 a)
{
	return a.x;
}
static inline float v2_y(lane_v2 a)
{
	return a.y;
}
static inline float v2_norm2(lane_v2 a)
{
	return a.x * a.x + a.y * a.y;
}
static inline uint32_t v2_cell(lane_v2 p, uint32_t stride)
{
	return (uint32_t)(int)p.y * stride + (uint32_t)(int)p.x;
}
static inline unsigned lane_where(lane_v2 p, const struct lane_env *e)
{
	const float fw = (float)e->width, fh = (float)e->height;
	return (unsigned)(0.0f <= p.x && p.x < fw) | (unsigned)(0.0f <= p.y && p.y < fh) << 1 |
	       (unsigned)(1.0f <= p.x && p.x < fw - 1.0f) << 2 |
	       (unsigned)(1.0f <= p.y && p.y < fh - 1.0f) << 3;
}
static inline lane_v2 lane_normal_interior(const float *p, const struct lane_env *e)
{
	float nx, nz;
	normal_interior_xz(p, e->stride, &e->nk, &nx, &nz);
	return (lane_v2){nx, nz};
}
static inline lane_d2 d2_zero(void)
{
	return (lane_d2){0, 0};
}
static inline lane_d2 d2_book(lane_d2 acc, float here, float after)
{
	const double change = (double)here - (double)after;
	acc.eroded += change > 0 ? change : 0.0;
	acc.deposited += -change > 0 ? -change : 0.0;
	return acc;
}
static inline void d2_get(lane_d2 a, double *eroded, double *deposited)
{
	*eroded = a.eroded;
	*deposited = a.deposited;
}
static inline float lane_max0(float v)
{
	return v < 0.0f ? 0.0f : v;
}
#endif

/* Steps a droplet of this volume takes before it dries up, at most cap: the
 * number of times volume > min_volume holds as the step shrinks it, by the
 * very float product the step makes. */
static inline uint32_t lane_dry_steps(float volume, float keep, float min_volume, uint32_t cap)
{
	uint32_t k = 0;
	while (k < cap && volume > min_volume) {
		volume = volume * keep;
		k++;
	}
	return k;
}

static inline void lane_env_init(struct lane_env *e, struct world *w,
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
	e->scale = dp->scale;
	e->max_steps = dp->max_steps;
	e->dry_steps1 = lane_dry_steps(1.0f, e->keep_volume, e->min_volume, e->max_steps);
	e->symmetric = dp->symmetric_normal;
	e->deposit_on_death = dp->deposit_on_death;
	e->dt2 = v2_make(e->dt, e->dt);
	e->keep2 = v2_make(e->keep_speed, e->keep_speed);
#if GULLY_USE_SSE2
	const float fw = (float)w->width, fh = (float)w->height;
	e->lo = _mm_setr_ps(0.0f, 0.0f, 1.0f, 1.0f);
	e->hi = _mm_setr_ps(fw, fh, fw - 1.0f, fh - 1.0f);
#endif
	normal_consts_init(&e->nk, dp->scale, dp->symmetric_normal);
}

/* A droplet off the map (or with a NaN coordinate) takes no step. */
static inline void lane_from_droplet(struct lane *l, const struct droplet *d,
				     const struct lane_env *e)
{
	l->pos = v2_make(d->x, d->y);
	l->vel = v2_make(d->vx, d->vy);
	l->volume = d->volume;
	l->sediment = d->sediment;
	l->age0 = d->age;
	const uint32_t cap = d->age < e->max_steps ? e->max_steps - d->age : 0;
	const uint32_t dry = d->volume == 1.0f
				     ? e->dry_steps1
				     : lane_dry_steps(d->volume, e->keep_volume, e->min_volume, cap);
	l->left = dry < cap ? dry : cap;
	const unsigned where = lane_where(l->pos, e);
	l->left_map = (where & 3) != 3;
	if (l->left_map)
		l->left = 0;
	l->left0 = l->left;
	l->at = l->left_map ? 0 : v2_cell(l->pos, e->stride);
	l->interior = where == 15;
	l->tally = d2_zero();
	l->carried0 = d->carried;
	l->eroded = l->deposited = l->off_map = 0;
}

static inline uint32_t lane_steps(const struct lane *l)
{
	return l->left0 - l->left;
}

/* Net soil the droplet holds: what deposit on death gives back. */
static inline double lane_carried(const struct lane *l)
{
	double eroded, deposited;
	d2_get(l->tally, &eroded, &deposited);
	return l->carried0 + (eroded - deposited);
}

static inline void lane_to_droplet(const struct lane *l, struct droplet *d)
{
	d->x = v2_x(l->pos);
	d->y = v2_y(l->pos);
	d->vx = v2_x(l->vel);
	d->vy = v2_y(l->vel);
	d->volume = l->volume;
	d->sediment = l->sediment;
	d->age = l->age0 + lane_steps(l);
	d->carried = 0;
}

/* The follower's mark on the 3x3 block around cell `at` (see lane_spec). */
static inline void lane_stamp_around(struct lane_spec *sp, uint32_t at)
{
	uint8_t *s = sp->stamp + at - 1;
	memcpy(s - sp->stride, &sp->id4, 4);
	memcpy(s, &sp->id4, 4);
	memcpy(s + sp->stride, &sp->id4, 4);
}

static inline bool lane_stamped(const struct lane_spec *sp, uint32_t at)
{
	return sp->stamp[at] >= sp->min_id;
}

/* The normal where some neighbour is off the map: the scalar reference,
 * which extends the map past its edges. */
static inline lane_v2 lane_normal_edge(const struct lane *l, const struct lane_env *e)
{
	float n[3];
	particles_normal(e->h, e->width, e->height, (int)v2_x(l->pos), (int)v2_y(l->pos), e->scale,
			 e->symmetric, n);
	return v2_make(n[0], n[2]);
}

/* One step of DESIGN.md 3.1. LANE_CONFLICT and LANE_LOG_FULL come before
 * anything changed: the caller undoes the followers (or grows the log) and
 * calls again. LANE_ENDED: the droplet is finished (lane_finish next). */
static LANE_INLINE enum lane_result lane_step(struct lane *l, const struct lane_env *e,
					 struct lane_spec *sp, enum lane_mode mode)
{
	if (l->left == 0)
		return LANE_ENDED;
	/* The leader reads the 3x3 block around its cell and writes the cell:
	 * a stamp there means the follower wrote in that block or read the
	 * cell (see lane_spec). */
	if (mode == LANE_LEADER && lane_stamped(sp, l->at))
		return LANE_CONFLICT;
	/* >=: a finished follower may have used the spare room past log_cap. */
	if (mode == LANE_FOLLOWER && sp->log_len >= sp->log_cap)
		return LANE_LOG_FULL;
	float *h = e->h;
	const uint32_t at = l->at;
	const lane_v2 n = l->interior ? lane_normal_interior(h + at, e) : lane_normal_edge(l, e);
	const float volume = l->volume;
	const float inv_mass = e->dt / (volume * e->density);
	/* v' = v + n m; p' = p + dt v', as p' = (p + dt v) + n (dt m): the
	 * bracket does not wait for the normal, so the chain from the normal
	 * to the next cell is one multiply and one add, not two of each. */
	const lane_v2 vel = v2_mul(v2_add(l->vel, v2_scale(n, inv_mass)), e->keep2);
	const lane_v2 pos = v2_add(v2_add(l->pos, v2_mul(e->dt2, l->vel)),
				   v2_scale(n, e->dt * inv_mass));
	const unsigned where = lane_where(pos, e);
	if ((where & 3) != 3) {
		l->pos = pos;
		l->vel = vel;
		l->left--;
		l->left_map = true;
		return LANE_ENDED;
	}
	const uint32_t next = v2_cell(pos, e->stride);
	/* And it reads the height of the cell it moves to: a stamp there may
	 * mean the follower wrote it. Nothing has changed yet. */
	if (mode == LANE_LEADER && lane_stamped(sp, next))
		return LANE_CONFLICT;
	l->pos = pos;
	l->vel = vel;
	l->left--;
	const float here = h[at];
	const float there = h[next];
	const float speed = sqrtf(v2_norm2(vel));
	/* speed * (volume * dh), not (volume * speed) * dh: the speed's sqrt
	 * comes last, and only one multiply should wait for it. */
	const float c_eq = lane_max0(speed * (volume * (here - there)));
	const float cdiff = c_eq - l->sediment;
	const float after = here - volume * e->rate * cdiff;
	if (mode == LANE_FOLLOWER) {
		sp->log[sp->log_len++] = (struct undo_entry){at, here};
		lane_stamp_around(sp, next);
	}
	h[at] = after;
	l->tally = d2_book(l->tally, here, after);
	l->sediment += e->rate * cdiff;
	l->volume = volume * e->keep_volume;
	l->at = next;
	l->interior = where == 15;
	return LANE_MOVED;
}

/* The cells deposit-on-death writes: four around (x, y), clamped to the map. */
static inline void lane_deposit_cells(const struct lane_env *e, const struct lane *l,
				      uint32_t cell[4], double wgt[4])
{
	const float fx = v2_x(l->pos) - 0.5f, fy = v2_y(l->pos) - 0.5f;
	const int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	const float tx = fx - (float)x0, ty = fy - (float)y0;
	for (int k = 0; k < 4; k++) {
		int u = x0 + (k & 1), v = y0 + (k >> 1);
		wgt[k] = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		u = u < 0 ? 0 : u >= e->width ? e->width - 1 : u;
		v = v < 0 ? 0 : v >= e->height ? e->height - 1 : v;
		cell[k] = (uint32_t)v * e->stride + (uint32_t)u;
	}
}

static inline bool lane_deposits(const struct lane *l, const struct lane_env *e)
{
	return !l->left_map && e->deposit_on_death && lane_carried(l) != 0;
}

/* Would the leader's deposit-on-death touch what the follower saw? */
static inline bool lane_finish_conflicts(const struct lane *l, const struct lane_env *e,
					 const struct lane_spec *sp)
{
	if (!lane_deposits(l, e))
		return false;
	uint32_t cell[4];
	double wgt[4];
	lane_deposit_cells(e, l, cell, wgt);
	for (int k = 0; k < 4; k++)
		if (lane_stamped(sp, cell[k]))
			return true;
	return false;
}

/* Ends a droplet: drops its load (deposit on death) and settles its share of
 * the tallies in the lane. A follower logs and stamps what it writes. */
static inline void lane_finish(struct lane *l, const struct lane_env *e, struct lane_spec *sp,
			       enum lane_mode mode)
{
	d2_get(l->tally, &l->eroded, &l->deposited);
	const double carried = lane_carried(l);
	if (!lane_deposits(l, e)) {
		l->off_map = carried;
		return;
	}
	uint32_t cell[4];
	double wgt[4];
	lane_deposit_cells(e, l, cell, wgt);
	double gained = 0;
	for (int k = 0; k < 4; k++) {
		float *c = &e->h[cell[k]];
		float before = *c;
		if (mode == LANE_FOLLOWER) {
			/* The log has room: the scheduler keeps four entries spare. */
			sp->log[sp->log_len++] = (struct undo_entry){cell[k], before};
			lane_stamp_around(sp, cell[k]);
		}
		*c = (float)((double)before + carried * wgt[k]);
		gained += (double)*c - (double)before;
	}
	if (gained > 0)
		l->deposited += gained;
	else
		l->eroded -= gained;
	/* The few ulps the float heights could not take stay on the books. */
	l->off_map = carried - gained;
}

static inline void lane_commit(const struct lane *l, struct world *w)
{
	w->tally[TALLY_SEDIMENT_OFF_MAP] += l->off_map;
	w->tally[TALLY_ERODED] += l->eroded;
	w->tally[TALLY_DEPOSITED] += l->deposited;
}

#endif
