/* One droplet step, the only copy of the physics (DESIGN.md 3.1), shared by
 * droplet_run (one droplet at a time) and the paired scheduler
 * (particles_pair.c, two droplets at once with the results of one after the
 * other). Private to src/core.
 *
 * A lane is a droplet in registers. Its step runs in one of three modes:
 * LANE_SOLO, plain; LANE_LEADER, the older droplet, which first checks that
 * nothing it is about to read or write was touched by the speculative younger
 * one; LANE_FOLLOWER, the younger droplet, which stamps the cells it reads
 * around and logs every height it overwrites so it can be undone. */
#ifndef GULLY_PARTICLES_LANE_H
#define GULLY_PARTICLES_LANE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/particles.h"
#include "core/particles_normal.h"

struct lane {
	float x, y, vx, vy, volume, sediment;
	uint32_t age, age0; /* age now and when the lane took the droplet */
	int ix, iy;     /* the cell the droplet is in */
	size_t at;      /* its index in the height layer */
	double eroded, deposited, carried;
	double off_map; /* the droplet's share of TALLY_SEDIMENT_OFF_MAP, once ended */
	bool left_map;
};

/* What every step needs, fixed for a batch. */
struct lane_env {
	float *h;
	int width, height;
	size_t stride;
	unsigned inner_w, inner_h; /* width - 2, height - 2: the interior's size */
	uint32_t fw_bits, fh_bits; /* of (float)width, (float)height */
	float fw, fh, dt, keep_speed, keep_volume, rate, min_volume, density, scale;
	uint32_t max_steps;
	bool symmetric, deposit_on_death;
	struct normal_consts nk;
};

struct undo_entry {
	size_t at;
	float old;
};

/* Speculation book-keeping. stamp has a one-cell border so a 3x3 look-up
 * never leaves it, plus slack for 4-wide loads: stamp of cell (x, y) is at
 * (y + 1) * sstride + x + 1. A follower writes its id on every cell it is
 * centred on; the leader treats any stamp >= min_id as the follower's. */
struct lane_spec {
	int32_t *stamp;
	size_t sstride;
	int32_t id, min_id;
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

static inline uint32_t lane_float_bits(float f)
{
	uint32_t u;
	memcpy(&u, &f, sizeof u);
	return u;
}

static inline void lane_env_init(struct lane_env *e, struct world *w,
				 const struct droplet_params *dp)
{
	e->h = w->layer[LAYER_HEIGHT];
	e->width = w->width;
	e->height = w->height;
	e->stride = (size_t)w->width;
	e->inner_w = (unsigned)w->width - 2;
	e->inner_h = (unsigned)w->height - 2;
	e->fw = (float)w->width;
	e->fh = (float)w->height;
	e->fw_bits = lane_float_bits(e->fw);
	e->fh_bits = lane_float_bits(e->fh);
	e->dt = dp->dt;
	e->keep_speed = 1.0f - dp->dt * dp->friction;
	e->keep_volume = 1.0f - dp->dt * dp->evap_rate;
	e->rate = dp->dt * dp->deposition_rate;
	e->min_volume = dp->min_volume;
	e->density = dp->density;
	e->scale = dp->scale;
	e->max_steps = dp->max_steps;
	e->symmetric = dp->symmetric_normal;
	e->deposit_on_death = dp->deposit_on_death;
	normal_consts_init(&e->nk, dp->scale, dp->symmetric_normal);
}

static inline void lane_from_droplet(struct lane *l, const struct droplet *d,
				     const struct lane_env *e)
{
	l->x = d->x;
	l->y = d->y;
	l->vx = d->vx;
	l->vy = d->vy;
	l->volume = d->volume;
	l->sediment = d->sediment;
	l->age = d->age;
	l->age0 = d->age;
	l->ix = (int)d->x;
	l->iy = (int)d->y;
	l->at = (size_t)l->iy * e->stride + (size_t)l->ix;
	l->eroded = 0;
	l->deposited = 0;
	l->carried = d->carried;
	l->off_map = 0;
	l->left_map = false;
}

static inline void lane_to_droplet(const struct lane *l, struct droplet *d)
{
	d->x = l->x;
	d->y = l->y;
	d->vx = l->vx;
	d->vy = l->vy;
	d->volume = l->volume;
	d->sediment = l->sediment;
	d->age = l->age;
	d->carried = 0;
}

static inline size_t lane_stamp_index(const struct lane_spec *sp, int x, int y)
{
	return (size_t)(y + 1) * sp->sstride + (size_t)(x + 1);
}

/* Did the follower stamp any cell of the 3x3 block centred on (x, y)? */
static LANE_INLINE bool lane_stamps_hit(const struct lane_spec *sp, int x, int y)
{
	const int32_t *s = sp->stamp + (size_t)y * sp->sstride + (size_t)x;
#if GULLY_USE_SSE2
	const __m128i m = _mm_set1_epi32(sp->min_id - 1);
	const __m128i r0 = _mm_loadu_si128((const __m128i *)s);
	const __m128i r1 = _mm_loadu_si128((const __m128i *)(s + sp->sstride));
	const __m128i r2 = _mm_loadu_si128((const __m128i *)(s + 2 * sp->sstride));
	const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpgt_epi32(r0, m), _mm_cmpgt_epi32(r1, m)),
					 _mm_cmpgt_epi32(r2, m));
	return (_mm_movemask_ps(_mm_castsi128_ps(hit)) & 7) != 0;
#else
	bool hit = false;
	for (int r = 0; r < 3; r++)
		for (int c = 0; c < 3; c++)
			hit |= s[(size_t)r * sp->sstride + (size_t)c] >= sp->min_id;
	return hit;
#endif
}

/* max(v, 0) without a branch: whether a step erodes or deposits is close to a
 * coin toss, and a mispredicted branch costs more than the whole sum. */
static inline double lane_positive_part(double v)
{
#if GULLY_USE_SSE2
	return _mm_cvtsd_f64(_mm_max_sd(_mm_set_sd(v), _mm_setzero_pd()));
#else
	return v > 0 ? v : 0.0;
#endif
}

/* max(v, 0) as the reference writes it (v < 0 ? 0 : v), without a branch. */
static inline float lane_max0(float v)
{
#if GULLY_USE_SSE2
	return _mm_cvtss_f32(_mm_max_ss(_mm_setzero_ps(), _mm_set_ss(v)));
#else
	return v < 0.0f ? 0.0f : v;
#endif
}

/* 0 <= x < width and 0 <= y < height, NaN counting as off the map. For
 * non-negative floats the bit patterns order as the values do, and a negative
 * value (or a NaN with the sign set) is a huge unsigned number, so one
 * unsigned compare each does it; adding +0 first turns -0.0 into +0.0. */
static inline bool lane_on_map(float x, float y, const struct lane_env *e)
{
	return lane_float_bits(x + 0.0f) < e->fw_bits && lane_float_bits(y + 0.0f) < e->fh_bits;
}

/* One step of DESIGN.md 3.1. LANE_CONFLICT and LANE_LOG_FULL come before
 * anything changed: the caller undoes the followers (or grows the log) and
 * calls again. LANE_ENDED: the droplet is finished (lane_finish next). */
static LANE_INLINE enum lane_result lane_step(struct lane *l, const struct lane_env *e,
					 struct lane_spec *sp, enum lane_mode mode)
{
	if (!(l->volume > e->min_volume && l->age < e->max_steps))
		return LANE_ENDED;
	if (mode == LANE_LEADER && lane_stamps_hit(sp, l->ix, l->iy))
		return LANE_CONFLICT;
	/* >=: a finished follower may have used the spare room past log_cap. */
	if (mode == LANE_FOLLOWER && sp->log_len >= sp->log_cap)
		return LANE_LOG_FULL;
	float *h = e->h;
	const int ix = l->ix, iy = l->iy;
	float nx_, nz_;
	/* 1 <= ix < width - 1 and the same for iy, as one unsigned compare each. */
	if ((unsigned)(ix - 1) < e->inner_w && (unsigned)(iy - 1) < e->inner_h) {
		normal_interior(h + l->at, e->stride, &e->nk, &nx_, NULL, &nz_);
	} else {
		float n[3];
		particles_normal(h, e->width, e->height, ix, iy, e->scale, e->symmetric, n);
		nx_ = n[0];
		nz_ = n[2];
	}
	const float dt = e->dt, volume = l->volume;
	const float inv_mass = dt / (volume * e->density);
	float vx = l->vx + nx_ * inv_mass;
	float vy = l->vy + nz_ * inv_mass;
	const float x = l->x + dt * vx;
	const float y = l->y + dt * vy;
	vx *= e->keep_speed;
	vy *= e->keep_speed;
	if (!lane_on_map(x, y, e)) {
		l->x = x;
		l->y = y;
		l->vx = vx;
		l->vy = vy;
		l->age++;
		l->left_map = true;
		return LANE_ENDED;
	}
	const int nx = (int)x, ny = (int)y;
	const size_t at = l->at;
	const size_t next = (size_t)ny * e->stride + (size_t)nx;
	if (mode == LANE_LEADER && sp->stamp[lane_stamp_index(sp, nx, ny)] >= sp->min_id)
		return LANE_CONFLICT;
	const float here = h[at];
	const float there = h[next];
	const float speed = sqrtf(vx * vx + vy * vy);
	const float c_eq = lane_max0(volume * speed * (here - there));
	const float cdiff = c_eq - l->sediment;
	const float after = here - volume * e->rate * cdiff;
	if (mode == LANE_FOLLOWER) {
		sp->log[sp->log_len++] = (struct undo_entry){at, here};
		sp->stamp[lane_stamp_index(sp, nx, ny)] = sp->id;
	}
	h[at] = after;
	/* Book what the float height really changed by, so the sums balance. */
	const double change = (double)here - (double)after;
	l->eroded += lane_positive_part(change);
	l->deposited += lane_positive_part(-change);
	l->carried += change;
	l->sediment += e->rate * cdiff;
	l->volume = volume * e->keep_volume;
	l->x = x;
	l->y = y;
	l->vx = vx;
	l->vy = vy;
	l->ix = nx;
	l->iy = ny;
	l->at = next;
	l->age++;
	return LANE_MOVED;
}

/* The cells deposit-on-death writes: four around (x, y), clamped to the map. */
static inline void lane_deposit_cells(const struct lane_env *e, float x, float y, int cx[4],
				      int cy[4], double wgt[4])
{
	const float fx = x - 0.5f, fy = y - 0.5f;
	const int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	const float tx = fx - (float)x0, ty = fy - (float)y0;
	for (int k = 0; k < 4; k++) {
		int u = x0 + (k & 1), v = y0 + (k >> 1);
		wgt[k] = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		cx[k] = u < 0 ? 0 : u >= e->width ? e->width - 1 : u;
		cy[k] = v < 0 ? 0 : v >= e->height ? e->height - 1 : v;
	}
}

/* Would the leader's deposit-on-death touch what the follower saw? */
static inline bool lane_finish_conflicts(const struct lane *l, const struct lane_env *e,
					 const struct lane_spec *sp)
{
	if (l->left_map || !e->deposit_on_death || l->carried == 0)
		return false;
	int cx[4], cy[4];
	double wgt[4];
	lane_deposit_cells(e, l->x, l->y, cx, cy, wgt);
	for (int k = 0; k < 4; k++)
		if (lane_stamps_hit(sp, cx[k], cy[k]))
			return true;
	return false;
}

/* Ends a droplet: drops its load (deposit on death) and settles its share of
 * the tallies in the lane. A follower logs and stamps what it writes. */
static inline void lane_finish(struct lane *l, const struct lane_env *e, struct lane_spec *sp,
			       enum lane_mode mode)
{
	if (l->left_map || !e->deposit_on_death || l->carried == 0) {
		l->off_map = l->carried;
		return;
	}
	int cx[4], cy[4];
	double wgt[4];
	lane_deposit_cells(e, l->x, l->y, cx, cy, wgt);
	double gained = 0;
	for (int k = 0; k < 4; k++) {
		float *cell = &e->h[(size_t)cy[k] * e->stride + (size_t)cx[k]];
		float before = *cell;
		if (mode == LANE_FOLLOWER) {
			/* The log has room: the scheduler keeps four entries spare. */
			sp->log[sp->log_len++] =
				(struct undo_entry){(size_t)(cell - e->h), before};
			sp->stamp[lane_stamp_index(sp, cx[k], cy[k])] = sp->id;
		}
		*cell = (float)((double)before + l->carried * wgt[k]);
		gained += (double)*cell - (double)before;
	}
	if (gained > 0)
		l->deposited += gained;
	else
		l->eroded -= gained;
	/* The few ulps the float heights could not take stay on the books. */
	l->off_map = l->carried - gained;
}

static inline void lane_commit(const struct lane *l, struct world *w)
{
	w->tally[TALLY_SEDIMENT_OFF_MAP] += l->off_map;
	w->tally[TALLY_ERODED] += l->eroded;
	w->tally[TALLY_DEPOSITED] += l->deposited;
}

#endif
