#include "core/hydrology/hydrology_descend.h"

#include <math.h>

#include "core/hydrology/hydrology.h"
#include "core/particles/particles.h"
#include "core/particles/particles_lane.h"

void hydrology_descend_env(struct hd_env *e, const struct params *p, struct world *w,
			   uint8_t *track)
{
	const struct params_hydrology *q = &p->hydrology;
	e->h = w->layer[LAYER_HEIGHT];
	e->stream = w->layer[LAYER_STREAM];
	e->pool = w->layer[LAYER_POOL];
	e->veg = w->layer[LAYER_VEGETATION];
	e->track = track;
	e->width = w->width;
	e->height = w->height;
	e->dt = (float)q->dt;
	e->density = (float)q->density;
	e->friction = (float)q->friction;
	e->deposition = (float)q->deposition_rate;
	e->evap = (float)q->evap_rate;
	e->scale = (float)p->terrain.vertical_scale;
	e->stop_stream = (float)q->stop_stream;
	e->stop_accel = (float)q->stop_accel;
	e->min_volume = q->min_volume;
	e->max_steps = (uint32_t)q->max_steps;
	e->coupling = q->coupling;
	e->symmetric = q->symmetric_normal;
	e->pit_stop = q->pit_stop;
	hydrology_descend_init(e);
}

void hydrology_descend_init(struct hd_env *e)
{
	normal_consts_init(&e->nk, e->scale, e->symmetric);
#if GULLY_USE_SSE2
	const float fw = (float)e->width, fh = (float)e->height;
	e->lo = _mm_setr_ps(0.0f, 0.0f, 1.0f, 1.0f);
	e->hi = _mm_setr_ps(fw, fh, fw - 1.0f, fh - 1.0f);
#endif
}

#if GULLY_USE_SSE2
/* Bits 0 and 1: 0 <= x < width, 0 <= y < height (NaN is off); bits 2 and 3:
 * 1 <= x < width - 1, the same for y: the cell's 3x3 block is on the map
 * (for x >= 0 that is (int)x in 1..width-2, as the scalar tests had it). */
static inline unsigned hd_where(lane_v2 p, __m128 lo, __m128 hi)
{
	const __m128 pp = _mm_movelh_ps(p, p);
	return (unsigned)_mm_movemask_ps(_mm_and_ps(_mm_cmple_ps(lo, pp), _mm_cmplt_ps(pp, hi)));
}

/* normal_interior's (nx, nz) as a pair (its ny is not needed here). */
static inline lane_v2 hd_normal_interior(const float *p, size_t w, const struct normal_consts *k)
{
	__m128 t_ax, t_dg, inv_ax, inv_dg;
	normal_terms(p, w, k, &t_ax, &t_dg, &inv_ax, &inv_dg);
	const __m128 vx = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_x), _mm_mul_ps(t_dg, k->dg_x));
	const __m128 vz = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_z), _mm_mul_ps(t_dg, k->dg_z));
	return normal_sum_xz(vx, vz);
}

/* An interior cell whose surface (height + pool) no neighbour undercuts:
 * water that reaches it cannot run on, so it pools. One unaligned 4-wide
 * load per row of each layer; the bottom row is loaded one cell further
 * left, so that no load reaches past the map's last cell (the top row's
 * fourth lane is at most the first cell of the centre's row). The unused
 * lanes are masked out. */
static inline bool hd_pit(const float *h, const float *pool, size_t c, size_t w)
{
	const float *hc = h + c, *pc = pool + c;
	const __m128 here = _mm_set1_ps(hc[0] + pc[0]);
	const __m128 up = _mm_add_ps(_mm_loadu_ps(hc - w - 1), _mm_loadu_ps(pc - w - 1));
	const __m128 mid = _mm_add_ps(_mm_loadu_ps(hc - 1), _mm_loadu_ps(pc - 1));
	const __m128 dn = _mm_add_ps(_mm_loadu_ps(hc + w - 2), _mm_loadu_ps(pc + w - 2));
	const int lower = (_mm_movemask_ps(_mm_cmplt_ps(up, here)) & 7) |
			  (_mm_movemask_ps(_mm_cmplt_ps(mid, here)) & 5) |
			  (_mm_movemask_ps(_mm_cmplt_ps(dn, here)) & 14);
	return lower == 0;
}

static inline lane_d2 hd_d2(double eroded, double deposited)
{
	return _mm_set_pd(deposited, eroded);
}
#else
static inline unsigned hd_where(lane_v2 p, float fw, float fh)
{
	return (unsigned)(0.0f <= p.x && p.x < fw) | (unsigned)(0.0f <= p.y && p.y < fh) << 1 |
	       (unsigned)(1.0f <= p.x && p.x < fw - 1.0f) << 2 |
	       (unsigned)(1.0f <= p.y && p.y < fh - 1.0f) << 3;
}

static inline lane_v2 hd_normal_interior(const float *p, size_t w, const struct normal_consts *k)
{
	float nx, nz;
	normal_interior(p, w, k, &nx, NULL, &nz);
	return v2_make(nx, nz);
}

static inline bool hd_pit(const float *h, const float *pool, size_t c, size_t w)
{
	const float here = h[c] + pool[c];
	const ptrdiff_t W = (ptrdiff_t)w;
	const ptrdiff_t off[8] = {1, -1, W, -W, W + 1, W - 1, 1 - W, -1 - W};
	for (int k = 0; k < 8; k++) {
		const size_t n = (size_t)((ptrdiff_t)c + off[k]);
		if (h[n] + pool[n] < here)
			return false;
	}
	return true;
}

static inline lane_d2 hd_d2(double eroded, double deposited)
{
	return (lane_d2){eroded, deposited};
}
#endif

/* Where a neighbour is off the map: the scalar reference, which extends the
 * map past its edges. Rare, so out of line. */
static lane_v2 hd_normal_edge(const struct hd_env *e, lane_v2 pos)
{
	float n[3];
	particles_normal(e->h, e->width, e->height, (int)v2_x(pos), (int)v2_y(pos), e->scale,
			 e->symmetric, n);
	return v2_make(n[0], n[2]);
}

enum descent hydrology_descend(const struct hd_env *e, struct hdrop *d, double *eroded,
			       double *deposited, uint32_t *changed, size_t cap,
			       size_t *nchanged, uint64_t *steps)
{
	/* Everything in locals: the height and track stores may alias any
	 * memory, so fields read through e or d would be reloaded every step. */
	float *const h = e->h;
	const float *const stream = e->stream, *const pool = e->pool, *const veg = e->veg;
	uint8_t *const track = e->track;
	const uint32_t w = (uint32_t)e->width;
	const float dt = e->dt, density = e->density, friction = e->friction;
	const float deposition = e->deposition, evap = e->evap;
	const float stop_stream = e->stop_stream, stop_accel = e->stop_accel;
	const double min_volume = e->min_volume;
	const uint32_t max_steps = e->max_steps;
	const bool streams = e->coupling >= HYDROLOGY_STREAMS;
	const bool trees = e->coupling == HYDROLOGY_TREES;
	const bool pit_stop = e->pit_stop;
	const struct normal_consts nk = e->nk;
#if GULLY_USE_SSE2
	const __m128 lo = e->lo, hi = e->hi;
#define WHERE(p) hd_where(p, lo, hi)
#else
	const float fw = (float)e->width, fh = (float)e->height;
#define WHERE(p) hd_where(p, fw, fh)
#endif

	lane_v2 pos = v2_make(d->x, d->y), vel = v2_make(d->vx, d->vy);
	double volume = d->volume, carried = d->carried;
	float sediment = d->sediment;
	uint32_t age = d->age;
	lane_d2 book = hd_d2(*eroded, *deposited);
	size_t n = *nchanged;
	uint64_t taken = 0;
	unsigned where = WHERE(pos);
	uint32_t at = v2_cell(pos, w);
	enum descent out = DESCENT_DIED;

	while (volume > min_volume && age < max_steps) {
		if (n == cap) {
			out = DESCENT_FULL;
			break;
		}
		track[at] = 1;
		const lane_v2 nrm = where == 15 ? hd_normal_interior(h + at, w, &nk)
						: hd_normal_edge(e, pos);
		float fr = friction, ev = evap, dep = deposition;
		if (streams) {
			const float s = stream[at];
			fr *= 1.0f - 0.5f * s;
			ev *= 1.0f - 0.2f * s;
		}
		if (trees)
			dep *= lane_max0(1.0f - veg[at]);
		const float vol = (float)volume;
		const float inv_mass = 1.0f / (vol * density);
		const lane_v2 acc = v2_scale(nrm, inv_mass);
		vel = v2_add(vel, v2_scale(acc, dt));
		pos = v2_add(pos, v2_scale(vel, dt));
		vel = v2_scale(vel, 1.0f - dt * fr);
		age++;
		taken++;
		where = WHERE(pos);
		if ((where & 3) != 3) {
			out = DESCENT_LEFT;
			break;
		}
		const uint32_t next = v2_cell(pos, w);
		/* The early stops: barely moving on a stream, or into a pool or a
		 * pit (is the 3x3 block on the map: an edge cell is no pit). All
		 * are worked out and tested as one: apart, whether the droplet
		 * changed cells and whether it is on a stream are coin tosses the
		 * branch predictor keeps losing; together they are one branch that
		 * is almost never taken. An edge cell's pit test reads a safe
		 * interior block instead, and its answer is masked out. */
		const bool interior = where == 15;
		const uint32_t pit_at = interior ? next : w + 1;
		const bool stop = (stream[next] > stop_stream) & (sqrtf(v2_norm2(acc)) < stop_accel);
		const bool pit = pit_stop & (next != at) & interior & hd_pit(h, pool, pit_at, w);
		if (stop | (pool[next] > 0.0f) | pit) {
			out = DESCENT_FLOOD;
			break;
		}
		const float here = h[at], there = h[next];
		const float speed = sqrtf(v2_norm2(vel));
		const float c_eq = lane_max0(vol * speed * (here - there));
		const float rate = dt * dep;
		const float cdiff = c_eq - sediment;
		sediment += rate * cdiff;
		const float after = here - vol * rate * cdiff;
		h[at] = after;
		/* Branch-free: the room is there (n < cap) and most steps move it. */
		changed[n] = at;
		n += after != here;
		book = d2_book(book, here, after);
		carried += (double)here - (double)after;
		volume *= 1.0 - (double)(dt * ev);
		at = next;
	}
#undef WHERE
	d->x = v2_x(pos);
	d->y = v2_y(pos);
	d->vx = v2_x(vel);
	d->vy = v2_y(vel);
	d->volume = volume;
	d->sediment = sediment;
	d->carried = carried;
	d->age = age;
	d2_get(book, eroded, deposited);
	*nchanged = n;
	*steps += taken;
	return out;
}
