/* Droplets in lockstep (particles_lanes.h has the semantics). This file holds
 * the state, refill, the write and end phases, the state blob, and the
 * portable scalar read phase that defines the reference; the SSE2 and AVX2
 * read phases (particles_lanes_simd.h) are the same operations on the same
 * values in the same order, so all give the same bits (IEEE add, multiply,
 * divide and sqrt per lane are exactly rounded; no FMA: the core library is
 * built with -ffp-contract=off). */
#include "core/particles/particles_lanes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"
#include "core/particles/particles_lane.h"
#include "core/particles/particles_pair.h"

struct lanes_env {
	float *h;
	int width, height;
	uint32_t stride;
	float fw, fh, fw1, fh1; /* width, height, width - 1, height - 1 */
	float dt, density, keep_speed, keep_volume, rate, min_volume, scale;
	uint32_t max_steps, left1; /* left1: the step count of a fresh droplet */
	bool symmetric, deposit_on_death;
	/* The droplet's normal (normal_interior_xz), term by term: per axis
	 * lane i (+x, -x, +y, -y) and diagonal lane i (+x+y, +x-y, -x+y, -x-y). */
	float wax_x[4], wax_z[4], wdg_x[4], wdg_z[4];
	float one_s2, two_s2;
};

enum lanes_k {
	K_ONE, K_FW1, K_FH1, K_FW, K_FH, K_ONE_S2, K_TWO_S2,
	K_WAX_X, K_WAX_Z = K_WAX_X + 4, K_WDG_X = K_WAX_Z + 4, K_WDG_Z = K_WDG_X + 4,
	K_DT = K_WDG_Z + 4, K_KEEP, K_DENSITY, K_RATE, K_KEEP_VOLUME,
	LANES_K_COUNT
};
enum lanes_ki { KI_WMUL, KI_SAFE, KI_BITS, LANES_KI_COUNT };

struct particles_lanes {
	int width, height;
	enum lanes_isa isa; /* never LANES_ISA_AUTO */
	bool hw_gather;
	uint64_t active; /* bit i: slot i holds a droplet */
	/* The droplets, one array per field, slot i at index i. */
	float x[LANES_MAX], y[LANES_MAX], vx[LANES_MAX], vy[LANES_MAX];
	float volume[LANES_MAX], sediment[LANES_MAX];
	uint32_t left[LANES_MAX];              /* steps it may still take */
	uint32_t left0[LANES_MAX], age0[LANES_MAX]; /* age = age0 + left0 - left */
	double carried[LANES_MAX];             /* net soil taken from the ground */
	/* The tick's write phase: h[wat[i]] -= delta[i] (0 for slots that do
	 * not write: a no-op on cell 0). */
	float delta[LANES_MAX];
	uint32_t wat[LANES_MAX];
	float before[LANES_MAX]; /* the height each found there */
	/* The vector copies' read phase, between its two passes: each slot's
	 * normal, the height of its cell, its masks and its cell. */
	float t_nx[LANES_MAX], t_nz[LANES_MAX], t_here[LANES_MAX], t_inv[LANES_MAX];
	float t_step[LANES_MAX], t_act[LANES_MAX];
	int32_t t_at[LANES_MAX];
	/* The tick's constants, eight copies each, for the vector copies to
	 * read as memory operands (a broadcast per use costs an instruction). */
	float kv[LANES_K_COUNT][8];
	int32_t ki[LANES_KI_COUNT][8];
	/* The parameters the left counts were made with. */
	bool counted;
	float keep_volume, min_volume;
	uint32_t max_steps;
};

/* A tick's outcome, for the loop: which slots ended, how many stepped. */
struct lanes_tick {
	uint64_t ended;
	uint64_t steps;
};

static void lanes_env_init(struct lanes_env *e, struct world *w, const struct droplet_params *dp)
{
	memset(e, 0, sizeof *e);
	e->h = w->layer[LAYER_HEIGHT];
	e->width = w->width;
	e->height = w->height;
	e->stride = (uint32_t)w->width;
	e->fw = (float)w->width;
	e->fh = (float)w->height;
	e->fw1 = e->fw - 1.0f;
	e->fh1 = e->fh - 1.0f;
	/* As lane_env_init: the same constants, so the same bits per step. */
	e->dt = dp->dt;
	e->density = dp->density;
	e->keep_speed = 1.0f - dp->dt * dp->friction;
	e->keep_volume = 1.0f - dp->dt * dp->evap_rate;
	e->rate = dp->dt * dp->deposition_rate;
	e->min_volume = dp->min_volume;
	e->scale = dp->scale;
	e->max_steps = dp->max_steps;
	e->left1 = lane_dry_steps(1.0f, e->keep_volume, e->min_volume, e->max_steps);
	e->symmetric = dp->symmetric_normal;
	e->deposit_on_death = dp->deposit_on_death;
	/* normal_consts_init's droplet constants, as plain floats. */
	const float r = 1.0f / NORMAL_SQRT2;
	static const float ax_x[4] = {1, -1, 0, 0}, ax_z[4] = {0, 0, 1, -1};
	static const float sx[4] = {1, 1, -1, -1}, sz[4] = {1, -1, 1, -1};
	const float sign = dp->scale < 0.0f ? -1.0f : 1.0f;
	for (int i = 0; i < 4; i++) {
		const float dg_x = dp->symmetric_normal ? sx[i] * r : r;
		const float dg_z = dp->symmetric_normal ? sz[i] * r : r;
		e->wax_x[i] = NORMAL_AXIS_WEIGHT * ax_x[i] * sign;
		e->wax_z[i] = NORMAL_AXIS_WEIGHT * ax_z[i] * sign;
		e->wdg_x[i] = NORMAL_DIAG_WEIGHT * dg_x * sign;
		e->wdg_z[i] = NORMAL_DIAG_WEIGHT * dg_z * sign;
	}
	e->one_s2 = 1.0f / (dp->scale * dp->scale);
	e->two_s2 = 2.0f / (dp->scale * dp->scale);
}

/* ---- state ------------------------------------------------------------ */

/* The lowest set bit of a non-zero mask. */
static inline int lanes_ctz(uint64_t a)
{
#if defined(__GNUC__)
	return __builtin_ctzll(a);
#else
	int i = 0;
	while (!(a & 1)) {
		a >>= 1;
		i++;
	}
	return i;
#endif
}

static void lanes_clear_slot(struct particles_lanes *pl, int i)
{
	/* Harmless values for a slot nobody uses: the vector copies compute on
	 * every lane and throw away what empty ones give. */
	pl->x[i] = pl->y[i] = 1.5f;
	pl->vx[i] = pl->vy[i] = 0.0f;
	pl->volume[i] = 1.0f;
	pl->sediment[i] = 0.0f;
	pl->left[i] = pl->left0[i] = pl->age0[i] = 0;
	pl->carried[i] = 0;
	pl->delta[i] = 0;
	pl->wat[i] = 0;
	pl->before[i] = 0;
}

struct particles_lanes *particles_lanes_create(int width, int height)
{
	struct particles_lanes *pl = calloc(1, sizeof *pl);
	if (!pl)
		return NULL;
	pl->width = width;
	pl->height = height;
	for (int i = 0; i < LANES_MAX; i++)
		lanes_clear_slot(pl, i);
	particles_lanes_set_isa(pl, LANES_ISA_AUTO);
	return pl;
}

void particles_lanes_destroy(struct particles_lanes *pl)
{
	free(pl);
}

int particles_lanes_in_flight(const struct particles_lanes *pl)
{
	int n = 0;
	for (uint64_t a = pl->active; a; a &= a - 1)
		n++;
	return n;
}

void particles_lanes_set_gather(struct particles_lanes *pl, bool hw_gather)
{
	pl->hw_gather = hw_gather;
}

static uint32_t lanes_age(const struct particles_lanes *pl, int i)
{
	return pl->age0[i] + (pl->left0[i] - pl->left[i]);
}

/* The step counts under the current parameters. A droplet's volume only
 * shrinks by keep_volume, so counting again from its volume and age gives
 * exactly what it had left when nothing changed (the split of a run into
 * calls changes nothing), and follows a changed evap_rate, min_volume or
 * max_steps when something did. */
static void lanes_count(struct particles_lanes *pl, const struct lanes_env *e)
{
	if (pl->counted && pl->keep_volume == e->keep_volume && pl->min_volume == e->min_volume &&
	    pl->max_steps == e->max_steps)
		return;
	for (uint64_t a = pl->active; a; a &= a - 1) {
		const int i = lanes_ctz(a);
		const uint32_t age = lanes_age(pl, i);
		const uint32_t cap = age < e->max_steps ? e->max_steps - age : 0;
		const uint32_t dry = lane_dry_steps(pl->volume[i], e->keep_volume, e->min_volume, cap);
		pl->left[i] = pl->left0[i] = dry < cap ? dry : cap;
		pl->age0[i] = age;
	}
	pl->counted = true;
	pl->keep_volume = e->keep_volume;
	pl->min_volume = e->min_volume;
	pl->max_steps = e->max_steps;
}

static void lanes_spawn(struct particles_lanes *pl, struct world *w, const struct lanes_env *e,
			int i)
{
	struct droplet d;
	particles_spawn(w, &d);
	pl->x[i] = d.x;
	pl->y[i] = d.y;
	pl->vx[i] = pl->vy[i] = 0.0f;
	pl->volume[i] = 1.0f;
	pl->sediment[i] = 0.0f;
	pl->carried[i] = 0;
	pl->age0[i] = 0;
	pl->left[i] = pl->left0[i] = e->left1;
	pl->active |= (uint64_t)1 << i;
}

/* ---- the phases every copy shares ------------------------------------- */

/* The running sums the phases add to, in locals for the call. */
struct lanes_books {
	double eroded, deposited, off_map;
};

/* The write phase, part one: h[wat[i]] -= delta[i] in slot order (a
 * read-modify-write, so two droplets on one cell both count), keeping the
 * height each found. */
static LANE_INLINE void lanes_write(struct particles_lanes *pl, float *h, int n)
{
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC unroll 8
#endif
	for (int i = 0; i < n; i++) {
		float *c = h + pl->wat[i];
		const float before = *c;
		*c = before - pl->delta[i];
		pl->before[i] = before;
	}
}

/* Part two, the books: each change as the float heights took it (two
 * floats' difference is exact in double), d = before - after, to the
 * droplet's carried soil, and to eroded (e = max(d, 0)) and deposited
 * (q = max(-d, 0)) in one fixed order whatever the vector width: slot i adds
 * to partial sum i mod 4, slots in order, and the tick adds
 * (v0 + v1) + (v2 + v3) to the running total. Slots past n count 0. */
static void lanes_books_scalar(struct particles_lanes *pl, int n, struct lanes_books *b)
{
	double ve[4] = {0, 0, 0, 0}, vq[4] = {0, 0, 0, 0};
	for (int i = 0; i < n; i++) {
		const float after = pl->before[i] - pl->delta[i];
		const double d = (double)pl->before[i] - (double)after;
		const double nd = (double)after - (double)pl->before[i];
		ve[i % 4] += d > 0 ? d : 0.0;
		vq[i % 4] += nd > 0 ? nd : 0.0;
		pl->carried[i] += d;
	}
	b->eroded += (ve[0] + ve[1]) + (ve[2] + ve[3]);
	b->deposited += (vq[0] + vq[1]) + (vq[2] + vq[3]);
}

/* A droplet's end: deposit on death (the cells and weights of
 * lane_deposit_cells), and what it carried off the map on the books. */
static void lanes_end_one(struct particles_lanes *pl, const struct lanes_env *e, int i,
			  struct lanes_books *b)
{
	const float x = pl->x[i], y = pl->y[i];
	const double carried = pl->carried[i];
	const bool on_map = 0.0f <= x && x < e->fw && 0.0f <= y && y < e->fh;
	pl->active &= ~((uint64_t)1 << i);
	if (!on_map || !e->deposit_on_death || carried == 0) {
		b->off_map += carried;
		lanes_clear_slot(pl, i);
		return;
	}
	const float fx = x - 0.5f, fy = y - 0.5f;
	const int x0 = (int)floorf(fx), y0 = (int)floorf(fy);
	const float tx = fx - (float)x0, ty = fy - (float)y0;
	double gained = 0;
	for (int k = 0; k < 4; k++) {
		int u = x0 + (k & 1), v = y0 + (k >> 1);
		const double wgt = ((k & 1) ? tx : 1 - tx) * ((k >> 1) ? ty : 1 - ty);
		u = u < 0 ? 0 : u >= e->width ? e->width - 1 : u;
		v = v < 0 ? 0 : v >= e->height ? e->height - 1 : v;
		float *c = &e->h[(size_t)v * e->stride + (size_t)u];
		const float before = *c;
		*c = (float)((double)before + carried * wgt);
		gained += (double)*c - (double)before;
	}
	if (gained > 0)
		b->deposited += gained;
	else
		b->eroded -= gained;
	/* The few ulps the float heights could not take stay on the books. */
	b->off_map += carried - gained;
	lanes_clear_slot(pl, i);
}

static void lanes_end(struct particles_lanes *pl, const struct lanes_env *e, uint64_t ended,
		      struct lanes_books *b)
{
	for (; ended; ended &= ended - 1)
		lanes_end_one(pl, e, lanes_ctz(ended), b);
}

/* Slots a tick must cover: every slot below `lanes`, and any higher one still
 * holding a droplet. */
static int lanes_span(uint64_t active, int lanes)
{
#if defined(__GNUC__)
	const int top = active ? 64 - __builtin_clzll(active) : 0;
#else
	int top = 0;
	while (top < 64 && (active >> top))
		top++;
#endif
	return top > lanes ? top : lanes;
}

/* ---- the read phase: portable reference -------------------------------- */

/* normal_interior_xz's arithmetic for one droplet: the reference every copy
 * must match bit for bit. */
static void lanes_normal_scalar(const float *p, ptrdiff_t W, const struct lanes_env *e,
				float *nx, float *nz)
{
	const float c = p[0];
	const float h_ax[4] = {p[1], p[-1], p[W], p[-W]};
	const float h_dg[4] = {p[W + 1], p[1 - W], p[W - 1], p[-1 - W]};
	float vx[4], vz[4];
	for (int i = 0; i < 4; i++) {
		const float d_ax = c - h_ax[i], d_dg = c - h_dg[i];
		const float q_ax = d_ax / sqrtf(d_ax * d_ax + e->one_s2);
		const float q_dg = d_dg / sqrtf(d_dg * d_dg + e->two_s2);
		vx[i] = q_ax * e->wax_x[i] + q_dg * e->wdg_x[i];
		vz[i] = q_ax * e->wax_z[i] + q_dg * e->wdg_z[i];
	}
	*nx = (vx[0] + vx[2]) + (vx[1] + vx[3]);
	*nz = (vz[0] + vz[2]) + (vz[1] + vz[3]);
}

static inline float lanes_max0(float v)
{
	return v < 0.0f ? 0.0f : v;
}

/* One droplet's part of a tick (lane_step's arithmetic). Reads only. */
static uint64_t lanes_read_one(struct particles_lanes *pl, const struct lanes_env *e, int i,
			       uint64_t *steps)
{
	const uint64_t bit = (uint64_t)1 << i;
	pl->delta[i] = 0.0f;
	pl->wat[i] = 0;
	if (!(pl->active & bit))
		return 0;
	if (pl->left[i] == 0)
		return bit;
	const float *h = e->h;
	const float x = pl->x[i], y = pl->y[i], vx = pl->vx[i], vy = pl->vy[i];
	const float volume = pl->volume[i];
	const int xi = (int)x, yi = (int)y;
	const uint32_t at = (uint32_t)yi * e->stride + (uint32_t)xi;
	float nx, nz;
	if (1.0f <= x && x < e->fw1 && 1.0f <= y && y < e->fh1) {
		lanes_normal_scalar(h + at, (ptrdiff_t)e->stride, e, &nx, &nz);
	} else {
		float n[3];
		particles_normal(h, e->width, e->height, xi, yi, e->scale, e->symmetric, n);
		nx = n[0];
		nz = n[2];
	}
	const float here = h[at];
	const float inv_mass = e->dt / (volume * e->density);
	const float nvx = (vx + nx * inv_mass) * e->keep_speed;
	const float nvy = (vy + nz * inv_mass) * e->keep_speed;
	const float dtm = e->dt * inv_mass;
	const float px = (x + e->dt * vx) + nx * dtm;
	const float py = (y + e->dt * vy) + nz * dtm;
	pl->x[i] = px;
	pl->y[i] = py;
	pl->vx[i] = nvx;
	pl->vy[i] = nvy;
	pl->left[i]--;
	(*steps)++;
	if (!(0.0f <= px && px < e->fw && 0.0f <= py && py < e->fh))
		return bit;
	const uint32_t next = (uint32_t)(int)py * e->stride + (uint32_t)(int)px;
	const float there = h[next];
	const float speed = sqrtf(nvx * nvx + nvy * nvy);
	const float c_eq = lanes_max0(speed * (volume * (here - there)));
	const float cdiff = c_eq - pl->sediment[i];
	pl->delta[i] = volume * e->rate * cdiff;
	pl->wat[i] = at;
	pl->sediment[i] += e->rate * cdiff;
	pl->volume[i] = volume * e->keep_volume;
	return pl->left[i] == 0 ? bit : 0;
}

static LANE_INLINE struct lanes_tick lanes_read_scalar(struct particles_lanes *pl, const struct lanes_env *e,
					   int n)
{
	struct lanes_tick t = {0, 0};
	for (int i = 0; i < n; i++)
		t.ended |= lanes_read_one(pl, e, i, &t.steps);
	return t;
}

/* ---- the loop, one copy per instruction set --------------------------- */

/* Refill, then ticks, until `budget` droplets are released (refill_ok) or
 * none is left in flight (!refill_ok: drain). */
static LANE_INLINE uint64_t lanes_loop(struct particles_lanes *pl, struct world *w,
				       const struct lanes_env *e, int lanes, uint64_t budget,
				       bool refill_ok, struct lanes_books *b,
				       struct lanes_tick (*read)(struct particles_lanes *,
								 const struct lanes_env *, int),
				       void (*books)(struct particles_lanes *, int,
						     struct lanes_books *),
				       int width_of_vector)
{
	uint64_t released = 0, steps = 0;
	const uint64_t mine = lanes >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << lanes) - 1;
	for (;;) {
		if (refill_ok) {
			for (uint64_t empty = mine & ~pl->active; empty; empty &= empty - 1) {
				lanes_spawn(pl, w, e, lanes_ctz(empty));
				if (++released == budget)
					return steps;
			}
		} else if (!pl->active) {
			return steps;
		}
		const int span = lanes_span(pl->active, refill_ok ? lanes : 0);
		const int n = (span + width_of_vector - 1) / width_of_vector * width_of_vector;
		const struct lanes_tick t = read(pl, e, n);
		lanes_write(pl, e->h, n);
		books(pl, n, b);
		steps += t.steps;
		if (t.ended)
			lanes_end(pl, e, t.ended, b);
	}
}

static uint64_t lanes_loop_scalar(struct particles_lanes *pl, struct world *w,
				  const struct lanes_env *e, int lanes, uint64_t budget,
				  bool refill_ok, struct lanes_books *b)
{
	return lanes_loop(pl, w, e, lanes, budget, refill_ok, b, lanes_read_scalar,
			  lanes_books_scalar, 1);
}

#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define LANES_HAVE_SIMD 1
#include "core/particles/particles_lanes_simd.h"
#else
#define LANES_HAVE_SIMD 0
#endif

static bool lanes_isa_supported(enum lanes_isa isa)
{
	switch (isa) {
	case LANES_ISA_AUTO:
	case LANES_ISA_SCALAR:
		return true;
	case LANES_ISA_SSE2:
		return LANES_HAVE_SIMD;
	case LANES_ISA_AVX2:
#if LANES_HAVE_SIMD
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2");
#else
		return false;
#endif
	}
	return false;
}

bool particles_lanes_set_isa(struct particles_lanes *pl, enum lanes_isa isa)
{
	if (!lanes_isa_supported(isa))
		return false;
	if (isa == LANES_ISA_AUTO)
		isa = lanes_isa_supported(LANES_ISA_AVX2)   ? LANES_ISA_AVX2
		      : lanes_isa_supported(LANES_ISA_SSE2) ? LANES_ISA_SSE2
							    : LANES_ISA_SCALAR;
	pl->isa = isa;
	return true;
}

const char *particles_lanes_isa_name(const struct particles_lanes *pl)
{
	return pl->isa == LANES_ISA_AVX2 ? "avx2" : pl->isa == LANES_ISA_SSE2 ? "sse2" : "scalar";
}

static uint64_t lanes_dispatch(struct particles_lanes *pl, struct world *w,
			       const struct lanes_env *e, int lanes, uint64_t budget, bool refill_ok,
			       struct lanes_books *b)
{
#if LANES_HAVE_SIMD
	if (pl->isa == LANES_ISA_AVX2)
		return pl->hw_gather ? lanes_loop_avx2_gather(pl, w, e, lanes, budget, refill_ok, b)
				     : lanes_loop_avx2(pl, w, e, lanes, budget, refill_ok, b);
	if (pl->isa == LANES_ISA_SSE2)
		return lanes_loop_sse2(pl, w, e, lanes, budget, refill_ok, b);
#endif
	return lanes_loop_scalar(pl, w, e, lanes, budget, refill_ok, b);
}

static void lanes_constants(struct particles_lanes *pl, const struct lanes_env *e)
{
	for (int j = 0; j < 8; j++) {
		float *k[LANES_K_COUNT];
		for (int i = 0; i < LANES_K_COUNT; i++)
			k[i] = &pl->kv[i][j];
		*k[K_ONE] = 1.0f;
		*k[K_FW1] = e->fw1;
		*k[K_FH1] = e->fh1;
		*k[K_FW] = e->fw;
		*k[K_FH] = e->fh;
		*k[K_ONE_S2] = e->one_s2;
		*k[K_TWO_S2] = e->two_s2;
		for (int i = 0; i < 4; i++) {
			*k[K_WAX_X + i] = e->wax_x[i];
			*k[K_WAX_Z + i] = e->wax_z[i];
			*k[K_WDG_X + i] = e->wdg_x[i];
			*k[K_WDG_Z + i] = e->wdg_z[i];
		}
		*k[K_DT] = e->dt;
		*k[K_KEEP] = e->keep_speed;
		*k[K_DENSITY] = e->density;
		*k[K_RATE] = e->rate;
		*k[K_KEEP_VOLUME] = e->keep_volume;
		pl->ki[KI_WMUL][j] = (int32_t)(e->stride << 16 | 1u);
		pl->ki[KI_SAFE][j] = (int32_t)e->stride + 1;
		pl->ki[KI_BITS][j] = 1 << j;
	}
}

static int lanes_go(struct particles_lanes *pl, struct world *w, const struct droplet_params *dp,
		    int lanes, uint64_t budget, bool refill_ok, uint64_t *steps)
{
	if (w->width != pl->width || w->height != pl->height)
		return GULLY_EINVAL;
	struct lanes_env e;
	lanes_env_init(&e, w, dp);
	lanes_constants(pl, &e);
	lanes_count(pl, &e);
	struct lanes_books b = {w->tally[TALLY_ERODED], w->tally[TALLY_DEPOSITED],
				w->tally[TALLY_SEDIMENT_OFF_MAP]};
	*steps += lanes_dispatch(pl, w, &e, lanes, budget, refill_ok, &b);
	w->tally[TALLY_ERODED] = b.eroded;
	w->tally[TALLY_DEPOSITED] = b.deposited;
	w->tally[TALLY_SEDIMENT_OFF_MAP] = b.off_map;
	double in_flight = 0;
	for (uint64_t a = pl->active; a; a &= a - 1)
		in_flight += pl->carried[lanes_ctz(a)];
	w->tally[TALLY_SEDIMENT_IN_FLIGHT] = in_flight;
	return GULLY_OK;
}

int particles_lanes_run(struct particles_lanes *pl, struct world *w,
			const struct droplet_params *dp, int lanes, uint64_t budget,
			uint64_t *steps)
{
	if (lanes < 1 || lanes > LANES_MAX)
		return GULLY_EINVAL;
	if (budget == 0)
		return GULLY_OK;
	return lanes_go(pl, w, dp, lanes, budget, true, steps);
}

int particles_lanes_drain(struct particles_lanes *pl, struct world *w,
			  const struct droplet_params *dp, uint64_t *steps)
{
	return lanes_go(pl, w, dp, 0, 0, false, steps);
}

/* ---- the blob --------------------------------------------------------- */

#define BLOB_MAGIC 0x4e4c5047u /* "GPLN" read as a little-endian u32 */
#define BLOB_VERSION 1u
#define BLOB_HEADER 24u
#define BLOB_SLOT 36u

static void put_u32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get_u32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static void put_u64(unsigned char *p, uint64_t v)
{
	put_u32(p, (uint32_t)v);
	put_u32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t get_u64(const unsigned char *p)
{
	return (uint64_t)get_u32(p) | (uint64_t)get_u32(p + 4) << 32;
}

static void put_f32(unsigned char *p, float f)
{
	uint32_t u;
	memcpy(&u, &f, 4);
	put_u32(p, u);
}

static float get_f32(const unsigned char *p)
{
	uint32_t u = get_u32(p);
	float f;
	memcpy(&f, &u, 4);
	return f;
}

static void put_f64(unsigned char *p, double d)
{
	uint64_t u;
	memcpy(&u, &d, 8);
	put_u64(p, u);
}

static double get_f64(const unsigned char *p)
{
	uint64_t u = get_u64(p);
	double d;
	memcpy(&d, &u, 8);
	return d;
}

int particles_lanes_save(const struct particles_lanes *pl, unsigned char **data, size_t *len)
{
	const size_t n = (size_t)particles_lanes_in_flight(pl);
	const size_t size = BLOB_HEADER + n * BLOB_SLOT;
	unsigned char *p = malloc(size);
	if (!p)
		return GULLY_ENOMEM;
	put_u32(p, BLOB_MAGIC);
	put_u32(p + 4, BLOB_VERSION);
	put_u32(p + 8, (uint32_t)pl->width);
	put_u32(p + 12, (uint32_t)pl->height);
	put_u64(p + 16, pl->active);
	unsigned char *q = p + BLOB_HEADER;
	for (uint64_t a = pl->active; a; a &= a - 1, q += BLOB_SLOT) {
		const int i = lanes_ctz(a);
		const float f[6] = {pl->x[i], pl->y[i], pl->vx[i], pl->vy[i], pl->volume[i],
				    pl->sediment[i]};
		for (int k = 0; k < 6; k++)
			put_f32(q + 4 * k, f[k]);
		put_f64(q + 24, pl->carried[i]);
		put_u32(q + 32, lanes_age(pl, i));
	}
	*data = p;
	*len = size;
	return GULLY_OK;
}

/* A droplet still on the map after a step of dt >= 0.05 moves well under
 * 10^6 cells per unit time, and no droplet carries more soil than the
 * height range holds. Finite values beyond these overflow its next steps'
 * float arithmetic: fuzz_resume found a sediment of 1.8e25 (soil 7e223)
 * that turned heights to inf. */
#define LOAD_MAX_SPEED 1.0e6f

int particles_lanes_load(struct particles_lanes *pl, const unsigned char *data, size_t len)
{
	if (!data || len < BLOB_HEADER || get_u32(data) != BLOB_MAGIC)
		return GULLY_EFORMAT;
	if (get_u32(data + 4) != BLOB_VERSION)
		return GULLY_EVERSION;
	if (get_u32(data + 8) != (uint32_t)pl->width || get_u32(data + 12) != (uint32_t)pl->height)
		return GULLY_EFORMAT;
	const uint64_t active = get_u64(data + 16);
	size_t n = 0;
	for (uint64_t a = active; a; a &= a - 1)
		n++;
	if (len != BLOB_HEADER + n * BLOB_SLOT)
		return GULLY_EFORMAT;
	/* Check every droplet before changing anything: finite, on the map, a
	 * volume a droplet can have. */
	const float fw = (float)pl->width, fh = (float)pl->height;
	const unsigned char *q = data + BLOB_HEADER;
	for (size_t s = 0; s < n; s++, q += BLOB_SLOT) {
		float f[6];
		for (int k = 0; k < 6; k++) {
			f[k] = get_f32(q + 4 * k);
			if (!isfinite(f[k]))
				return GULLY_EFORMAT;
		}
		const double soil = get_f64(q + 24);
		if (!(0.0f <= f[0] && f[0] < fw && 0.0f <= f[1] && f[1] < fh) ||
		    !(f[4] > 0.0f && f[4] <= 1.0f) || !(fabsf(f[2]) <= LOAD_MAX_SPEED) ||
		    !(fabsf(f[3]) <= LOAD_MAX_SPEED) || !(fabsf(f[5]) <= WORLD_HEIGHT_LIMIT) ||
		    !(fabs(soil) <= WORLD_HEIGHT_LIMIT))
			return GULLY_EFORMAT;
	}
	for (int i = 0; i < LANES_MAX; i++)
		lanes_clear_slot(pl, i);
	q = data + BLOB_HEADER;
	for (uint64_t a = active; a; a &= a - 1, q += BLOB_SLOT) {
		const int i = lanes_ctz(a);
		pl->x[i] = get_f32(q);
		pl->y[i] = get_f32(q + 4);
		pl->vx[i] = get_f32(q + 8);
		pl->vy[i] = get_f32(q + 12);
		pl->volume[i] = get_f32(q + 16);
		pl->sediment[i] = get_f32(q + 20);
		pl->carried[i] = get_f64(q + 24);
		pl->age0[i] = get_u32(q + 32);
		pl->left[i] = pl->left0[i] = 0;
	}
	pl->active = active;
	/* The step counts come from volume and age under the next call's
	 * parameters. */
	pl->counted = false;
	return GULLY_OK;
}
