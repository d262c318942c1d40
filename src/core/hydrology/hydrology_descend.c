#include "core/hydrology/hydrology_descend.h"

#include <math.h>

#include "core/base/cpu.h"
#include "core/hydrology/hydrology.h"

void hydrology_descend_env(struct hd_env *e, const struct params *p, struct world *w,
			   uint8_t *track)
{
	const struct params_hydrology *q = &p->hydrology;
	e->h = w->layer[LAYER_HEIGHT];
	e->stream = w->layer[LAYER_STREAM];
	e->pool = w->layer[LAYER_POOL];
	e->veg = w->layer[LAYER_VEGETATION];
	e->track = track;
	e->hs = NULL;
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
	e->normal2020 = q->normal == HYDROLOGY_NORMAL_2020 || q->normal == HYDROLOGY_NORMAL_2020_WRAP;
	e->normal_wrap = q->normal == HYDROLOGY_NORMAL_2020_WRAP;
	e->concentrate = q->concentrate;
	e->capacity_volume = q->capacity_volume;
	e->pit_dry = q->pit_dry;
	hydrology_descend_init(e);
}

/* An AVX2 copy of the process's descent (hydrology_descend), picked at run
 * time. The descent is bound by its chain of dependent operations; the
 * three-operand VEX forms drop the register copies the two-operand SSE forms
 * need, which shortens a step a little (bench/HYDROLOGY.md). No fused
 * multiply-add: the core is built with -ffp-contract=off, and AVX2 alone
 * does not enable FMA, so every operation is the baseline copy's. */
#if GULLY_USE_SSE2 && defined(__GNUC__) && defined(__x86_64__)
#define HD_HAVE_AVX2 1
#else
#define HD_HAVE_AVX2 0
#endif

void hydrology_descend_init(struct hd_env *e)
{
	normal_consts_init(&e->nk, e->scale, e->symmetric);
	v2_bounds_init(&e->bounds, e->width, e->height);
#if HD_HAVE_AVX2
	e->avx2 = cpu_has_avx2();
#else
	e->avx2 = false;
#endif
}

#if GULLY_USE_SSE2
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
#else
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
#endif

/* hydrology.normal = 2020 or 2020wrap (base/normal.h): an option, so out of line. */
static v2f hd_normal_2020(const struct hd_env *e, v2f pos)
{
	float n[3];
	if (e->normal_wrap)
		normal_2020_wrap(e->h, e->width, e->height, (int)v2_x(pos), (int)v2_y(pos), e->scale,
				 n);
	else
		normal_2020(e->h, e->width, e->height, (int)v2_x(pos), (int)v2_y(pos), e->scale, n);
	return v2_make(n[0], n[2]);
}

/* The same inside the map, inline: the hot case of the 2020 normal. */
static inline __attribute__((always_inline)) v2f hd_normal_2020_inner(const float *hc, uint32_t w,
								       float scale)
{
	float x, z;
	normal_2020_xz_inner(hc, w, scale, &x, &z);
	return v2_make(x, z);
}

/* The normal at the droplet's cell: the 2020 one (hydrology.normal) or the
 * particles', inline inside the map, out of line at its edges. */
static inline __attribute__((always_inline)) v2f
hd_normal(const struct hd_env *e, const float *h, uint32_t at, uint32_t w, unsigned where, v2f pos,
	  bool own_normal, float scale, const struct normal_consts *nk)
{
	if (own_normal)
		return where == 15 ? hd_normal_2020_inner(h + at, w, scale) : hd_normal_2020(e, pos);
	return where == 15 ? normal_xz(h + at, w, nk)
			   : normal_edge_xz(h, e->width, e->height, (int)v2_x(pos), (int)v2_y(pos), nk);
}

/* The cell's streams ease friction and evaporation; its roots hold the soil. */
static inline __attribute__((always_inline)) void
hd_rates(const float *stream, const float *veg, uint32_t at, bool streams, bool trees, float *fr,
	 float *ev, float *dep)
{
	if (streams) {
		const float s = stream[at];
		*fr *= 1.0f - 0.5f * s;
		*ev *= 1.0f - 0.2f * s;
	}
	if (trees)
		*dep *= max0f(1.0f - veg[at]);
}

/* The early stops, worked out and tested as one: barely moving on a stream,
 * or into a pool or a pit (is the 3x3 block on the map: an edge cell is no
 * pit). Apart, whether the droplet changed cells and whether it is on a
 * stream are coin tosses the branch predictor keeps losing; together they
 * are one branch that is almost never taken. An edge cell's pit test reads a
 * safe interior block instead, and its answer is masked out. Returns
 * DESCENT_FLOOD, DESCENT_DIED (pit_dry) or DESCENT_MOVED (go on). */
static inline __attribute__((always_inline)) enum descent
hd_early_stop(const float *h, const float *stream, const float *pool, uint8_t *track, uint32_t w,
	      uint32_t at, uint32_t next, unsigned where, v2f acc, float stop_stream,
	      float stop_accel, bool pit_stop, bool pit_dry, bool one, const bool lane,
	      struct hd_step *st)
{
	const bool interior = where == 15;
	const uint32_t pit_at = interior ? next : w + 1;
	const bool stop = (stream[next] > stop_stream) & (sqrtf(v2_norm2(acc)) < stop_accel);
	/* pit_stop is fixed for the descent: a branch the predictor never
	 * misses, and no pit test at all without it. */
	const bool pit = pit_stop ? (next != at) & interior & hd_pit(h, pool, pit_at, w) : false;
	if (!(stop | (pool[next] > 0.0f) | pit))
		return DESCENT_MOVED;
	if (one)
		st->stop = stop ? HD_STOP_STREAM : pool[next] > 0.0f ? HD_STOP_POOL : HD_STOP_PIT;
	/* pit_dry: a pit off the streams is no lake; the droplet dries there at
	 * once (as the seed's rocks until dry), its load filling the pit. Its
	 * visit counts toward the stream that later makes the pit a lake. */
	if (pit_dry & pit & !stop & !(pool[next] > 0.0f) & !(stream[next] > stop_stream)) {
		if (!lane)
			track[next] = 1;
		return DESCENT_DIED;
	}
	return DESCENT_FLOOD;
}

/* The step's mass transfer at the cell it leaves: c_eq from the drop to the
 * next cell (times the volume with hydrology.capacity_volume), sediment
 * toward it, the height by the opposite, the books, and evaporation
 * (concentrating the load with hydrology.concentrate). Returns c_eq; *here
 * and *after are the cell's height before and after. */
static inline __attribute__((always_inline)) float
hd_erode(float *h, uint32_t at, uint32_t next, float vol, bool by_volume, v2f vel, float rate,
	 float ev_dt, bool concentrate, float *sediment, v2d *book, double *carried,
	 double *volume, uint32_t *changed, size_t *n, const bool lane, float *here_out,
	 float *after_out, float *delta_out)
{
	const float here = h[at], there = h[next];
	const float speed = sqrtf(v2_norm2(vel));
	const float cap = by_volume ? vol : 1.0f;
	const float c_eq = max0f(cap * speed * (here - there));
	const float cdiff = c_eq - *sediment;
	*sediment += rate * cdiff;
	const float delta = vol * rate * cdiff;
	const float after = here - delta;
	/* A lane (hydrology_descend_lane) leaves the map, the books and the
	 * carried soil to the lanes' write phase. */
	if (!lane) {
		h[at] = after;
		/* Branch-free: the room is there (n < cap) and most steps move it. */
		changed[*n] = at;
		*n += after != here;
		*book = d2_book(*book, here, after);
		*carried += (double)here - (double)after;
	}
	*volume *= 1.0 - (double)ev_dt;
	if (concentrate)
		*sediment /= 1.0f - ev_dt;
	*here_out = here;
	*after_out = after;
	*delta_out = delta;
	return c_eq;
}

/* A cell's stream is brought up to date before it is read or visited
 * (hydrology_stream.h): descend's start cell, then every next cell. */
static inline __attribute__((always_inline)) void
hd_stream_current(struct hstream *hs, const uint8_t *stamp, uint32_t cell)
{
	if (hs && stamp[cell >> HSTREAM_SHIFT] != HSTREAM_LISTED)
		hstream_list(hs, cell >> HSTREAM_SHIFT);
}

/* The cells d rows above and below `cell`, or the cell itself past an
 * edge. */
static inline __attribute__((always_inline)) void
hd_rows_near(const struct hd_env *k, uint32_t cell, uint32_t d, uint32_t *up, uint32_t *down)
{
	const uint32_t w = (uint32_t)k->width, n = w * (uint32_t)k->height;
	*up = cell >= d * w ? cell - d * w : cell;
	*down = cell + d * w < n ? cell + d * w : cell;
}

/* On a map too big for the caches (the lazy stream map's), the rows the
 * next step may need: its cell's stream, pool and vegetation one row up or
 * down, and the heights its normal reads and the pools its pit test reads
 * two rows away. The next cell is not known until the normal is, and each
 * is a miss the step would wait for. */
static inline __attribute__((always_inline)) void hd_prefetch_around(const struct hd_env *k,
								     uint32_t at)
{
	uint32_t up, down, up2, down2;
	hd_rows_near(k, at, 1, &up, &down);
	hd_rows_near(k, at, 2, &up2, &down2);
	__builtin_prefetch(k->stream + up);
	__builtin_prefetch(k->stream + down);
	__builtin_prefetch(k->pool + up);
	__builtin_prefetch(k->pool + down);
	__builtin_prefetch(k->veg + up);
	__builtin_prefetch(k->veg + down);
	__builtin_prefetch(k->h + up2);
	__builtin_prefetch(k->h + down2);
	__builtin_prefetch(k->pool + up2);
	__builtin_prefetch(k->pool + down2);
}

/* The step's cell is visited (its track byte set; its tile is current),
 * and on a big map the rows around it are fetched. */
static inline __attribute__((always_inline)) void hd_visit(const struct hd_env *k, uint32_t at)
{
	k->track[at] = 1;
	if (k->hs)
		hd_prefetch_around(k, at);
}

void hydrology_descend_prefetch(const struct hd_env *e, uint32_t cell)
{
	uint32_t up, down;
	hd_rows_near(e, cell, 1, &up, &down);
	__builtin_prefetch(e->h + up);
	__builtin_prefetch(e->h + cell);
	__builtin_prefetch(e->h + down);
	__builtin_prefetch(e->pool + cell);
	__builtin_prefetch(e->stream + cell);
	__builtin_prefetch(e->track + cell);
	__builtin_prefetch(e->veg + cell);
	if (e->hs)
		__builtin_prefetch(e->hs->stamp + (cell >> HSTREAM_SHIFT));
}

static inline __attribute__((always_inline)) void
hd_store(struct hdrop *d, v2f pos, v2f vel, double volume, float sediment, double carried,
	 uint32_t age)
{
	d->x = v2_x(pos);
	d->y = v2_y(pos);
	d->vx = v2_x(vel);
	d->vy = v2_y(vel);
	d->volume = volume;
	d->sediment = sediment;
	d->carried = carried;
	d->age = age;
}

/* The descent, written once: `one` (a constant where it is inlined) stops
 * it after one step and fills *st, for the explorer's trace; without it the
 * compiler drops every line that reads `one`, and the process's loop is the
 * plain one. */
static inline __attribute__((always_inline)) enum descent
descend_run(const struct hd_env *e, struct hdrop *d, double *eroded, double *deposited,
	    uint32_t *changed, size_t cap, size_t *nchanged, uint64_t *steps, const bool one,
	    const bool lane, struct hd_step *st)
{
	/* Everything in locals (k is a copy whose address never escapes): the
	 * height and track stores may alias any memory, so fields read through
	 * e or d would be reloaded every step. The stream stamps are fixed
	 * during a descent (a batch ends between droplets). */
	const struct hd_env k = *e;
	float *const h = k.h;
	const uint32_t w = (uint32_t)k.width;
	const uint8_t *const stamp = k.hs ? k.hs->stamp : NULL;
	const bool streams = k.coupling >= HYDROLOGY_STREAMS;
	const bool trees = k.coupling == HYDROLOGY_TREES;
	v2f pos = v2_make(d->x, d->y), vel = v2_make(d->vx, d->vy);
	double volume = d->volume, carried = d->carried;
	float sediment = d->sediment;
	uint32_t age = d->age;
	const uint32_t age0 = age;
	v2d book = d2_make(*eroded, *deposited);
	size_t n = *nchanged;
	unsigned where = v2_where(pos, &k.bounds);
	uint32_t at = v2_cell(pos, w);
	enum descent out = DESCENT_DIED;
	hd_stream_current(k.hs, stamp, at);

	while (volume > k.min_volume && age < k.max_steps) {
		if (n == cap) {
			out = DESCENT_FULL;
			break;
		}
		if (!lane)
			hd_visit(&k, at);
		const v2f nrm = hd_normal(e, h, at, w, where, pos, k.normal2020, k.scale, &k.nk);
		float fr = k.friction, ev = k.evap, dep = k.deposition;
		hd_rates(k.stream, k.veg, at, streams, trees, &fr, &ev, &dep);
		const float vol = (float)volume;
		const float inv_mass = 1.0f / (vol * k.density);
		const float dtm = k.dt * inv_mass;
		const v2f acc = v2_scale(nrm, inv_mass);
		/* p' = (p + dt v) + n (dt dt / (V rho)), as a particle's step
		 * (particles/droplet.h): the bracket does not wait for the
		 * normal, so the chain from the normal to the next cell is one
		 * multiply and one add. */
		pos = v2_add(v2_add(pos, v2_scale(vel, k.dt)), v2_scale(nrm, k.dt * dtm));
		vel = v2_scale(v2_add(vel, v2_scale(nrm, dtm)), 1.0f - k.dt * fr);
		age++;
		where = v2_where(pos, &k.bounds);
		if ((where & 3) != 3) {
			out = DESCENT_LEFT;
			break;
		}
		const uint32_t next = v2_cell(pos, w);
		hd_stream_current(k.hs, stamp, next);
		/* The early stops, one branch almost never taken (hd_early_stop). */
		const enum descent early =
			hd_early_stop(h, k.stream, k.pool, k.track, w, at, next, where, acc,
				      k.stop_stream, k.stop_accel, k.pit_stop, k.pit_dry, one, lane, st);
		if (early != DESCENT_MOVED) {
			out = early;
			break;
		}
		float here, after, delta;
		const float c_eq = hd_erode(h, at, next, vol, k.capacity_volume, vel, k.dt * dep,
					    k.dt * ev, k.concentrate, &sediment, &book, &carried,
					    &volume, changed, &n, lane, &here, &after, &delta);
		if (one) {
			*st = (struct hd_step){at, here, after, c_eq, st->stop, delta};
			at = next;
			out = DESCENT_MOVED;
			break;
		}
		at = next;
	}
	hd_store(d, pos, vel, volume, sediment, carried, age);
	d2_get(book, eroded, deposited);
	*nchanged = n;
	*steps += age - age0;
	return out;
}

#if HD_HAVE_AVX2
__attribute__((target("avx2"))) static enum descent
descend_avx2(const struct hd_env *e, struct hdrop *d, double *eroded, double *deposited,
	     uint32_t *changed, size_t cap, size_t *nchanged, uint64_t *steps)
{
	return descend_run(e, d, eroded, deposited, changed, cap, nchanged, steps, false, false,
			   NULL);
}
#endif

enum descent hydrology_descend(const struct hd_env *e, struct hdrop *d, double *eroded,
			       double *deposited, uint32_t *changed, size_t cap,
			       size_t *nchanged, uint64_t *steps)
{
#if HD_HAVE_AVX2
	if (e->avx2)
		return descend_avx2(e, d, eroded, deposited, changed, cap, nchanged, steps);
#endif
	return descend_run(e, d, eroded, deposited, changed, cap, nchanged, steps, false, false,
			   NULL);
}

enum descent hydrology_descend_step(const struct hd_env *e, struct hdrop *d, double *eroded,
				    double *deposited, uint64_t *steps, struct hd_step *st)
{
	uint32_t changed[1];
	size_t n = 0;
	st->cell = -1;
	st->before = st->after = st->c_eq = st->delta = 0.0f;
	st->stop = HD_STOP_NONE;
	return descend_run(e, d, eroded, deposited, changed, 1, &n, steps, true, false, st);
}

enum descent hydrology_descend_lane(const struct hd_env *e, struct hdrop *d, uint64_t *steps,
				    struct hd_step *st)
{
	uint32_t changed[1];
	size_t n = 0;
	double eroded = 0, deposited = 0;
	st->cell = -1;
	st->before = st->after = st->c_eq = st->delta = 0.0f;
	st->stop = HD_STOP_NONE;
	return descend_run(e, d, &eroded, &deposited, changed, 1, &n, steps, true, true, st);
}
