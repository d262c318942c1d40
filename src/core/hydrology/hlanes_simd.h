/* The lanes' read phase written once over base/floatw.h's wide float:
 * FLOATW_WIDTH droplets a vector, lane j the slot base + j, each lane doing
 * hydrology_descend's arithmetic in its order, so every width gives the
 * reference's bits (hlanes_read_one). Included by hlanes_sse2.c and
 * hlanes_avx2.c, which set the width and name the entry point HLANES_READ.
 *
 * A tick runs two passes over the slots, as the particles' lockstep does:
 * every group's normal and rates (most of the divisions and square roots),
 * then every group's move, so that the divider works on one group while
 * another moves (bench/HYDROLOGY.md, "Droplets in lanes"). */
#include "core/base/floatw.h"
#include "core/base/normal_wide.h"
#include "core/hydrology/hlanes_impl.h"
#include "core/hydrology/hydrology.h"
#include "core/hydrology/hydrology_stream.h"

#define HLANES_GROUP ((1u << FLOATW_WIDTH) - 1u)

static inline floatw hlanes_k(const struct hlanes *L, enum hlanes_k name)
{
	return fw_load(L->kv[name]);
}

/* Lane j set where bit j of `bits` is. */
static inline floatw hlanes_mask(const struct hlanes *L, unsigned bits)
{
	const intw b = iw_load(L->ki[HKI_BITS]);
	return fw_from_i(iw_eq(iw_and(iw_set1((int)bits), b), b));
}

/* The lazy stream map's tiles of the lanes' cells, made current before
 * their streams are read (hydrology_stream.h). */
static inline void hlanes_fresh(const struct hd_env *e, intw cell, unsigned lanes)
{
	_Alignas(32) int32_t c[FLOATW_WIDTH];
	iw_store(c, cell);
	for (unsigned m = lanes; m; m &= m - 1)
		hstream_fresh(e->hs, (uint32_t)c[bits_ctz64(m)]);
}

/* hd_pit across the lanes: no cell of each lane's 3x3 block lower (height
 * and pool) than its centre. A NaN centre is a pit, as there. */
static inline floatw hlanes_pit(const struct hd_env *e, intw cell)
{
	const struct normal_block h = normal_block_w(e->h, cell, (uint32_t)e->width);
	const struct normal_block q = normal_block_w(e->pool, cell, (uint32_t)e->width);
	const floatw here = fw_add(h.m1, q.m1);
	floatw lower = fw_lt(fw_add(h.u0, q.u0), here);
	lower = fw_or(lower, fw_lt(fw_add(h.u1, q.u1), here));
	lower = fw_or(lower, fw_lt(fw_add(h.u2, q.u2), here));
	lower = fw_or(lower, fw_lt(fw_add(h.m0, q.m0), here));
	lower = fw_or(lower, fw_lt(fw_add(h.m2, q.m2), here));
	lower = fw_or(lower, fw_lt(fw_add(h.d0, q.d0), here));
	lower = fw_or(lower, fw_lt(fw_add(h.d1, q.d1), here));
	lower = fw_or(lower, fw_lt(fw_add(h.d2, q.d2), here));
	return fw_eq(lower, fw_zero());
}

/* The interior normal of each lane (hd_normal where the block is on the
 * map): the 2020 one or the particles', and the height of its cell. */
static inline void hlanes_normal(const struct hlanes *L, const struct hd_env *e, intw safe,
				 floatw *nx, floatw *nz, floatw *here)
{
	if (e->normal2020) {
		const intw W = iw_set1(e->width);
		const floatw xm = fw_gather(e->h, iw_sub(safe, iw_set1(1)));
		const floatw xp = fw_gather(e->h, iw_add(safe, iw_set1(1)));
		const floatw ym = fw_gather(e->h, iw_sub(safe, W));
		const floatw yp = fw_gather(e->h, iw_add(safe, W));
		*here = fw_gather(e->h, safe);
		const floatw s2 = hlanes_k(L, HK_S2);
		const floatw gx = fw_mul(s2, fw_sub(xm, xp)), gz = fw_mul(s2, fw_sub(ym, yp));
		const floatw len = fw_sqrt(
			fw_add(fw_add(fw_mul(gx, gx), hlanes_k(L, HK_SIXTEEN)), fw_mul(gz, gz)));
		*nx = fw_div(gx, len);
		*nz = fw_div(gz, len);
		return;
	}
	const struct normal_block b = normal_block_w(e->h, safe, (uint32_t)e->width);
	normal_xz_w(&b, &L->nk8, nx, nz);
	*here = b.m1;
}

/* Pass one's vector part: the normal, the rates and 1 / (V rho) of the
 * lanes in `go` (their block on the map), and their cells. */
static inline __attribute__((always_inline)) void hlanes_rates(struct hlanes *L,
							       const struct hd_env *e, int base,
							       floatw x, floatw y, floatw go)
{
	const floatw one = hlanes_k(L, HK_ONE);
	const intw at = iw_madd16(iw_or(fw_trunc(x), iw_shl16(fw_trunc(y))), iw_load(L->ki[HKI_WMUL]));
	const intw safe = fw_to_i(fw_blend(go, fw_from_i(at), fw_from_i(iw_load(L->ki[HKI_SAFE]))));
	if (e->hs)
		hlanes_fresh(e, at, fw_movemask(go));
	floatw nx, nz, here;
	hlanes_normal(L, e, safe, &nx, &nz, &here);
	floatw fr = hlanes_k(L, HK_FRICTION), ev = hlanes_k(L, HK_EVAP);
	floatw dep = hlanes_k(L, HK_DEPOSITION);
	if (e->coupling >= HYDROLOGY_STREAMS) {
		const floatw s = fw_gather(e->stream, safe);
		fr = fw_mul(fr, fw_sub(one, fw_mul(fw_set1(0.5f), s)));
		ev = fw_mul(ev, fw_sub(one, fw_mul(fw_set1(0.2f), s)));
	}
	if (e->coupling == HYDROLOGY_TREES)
		dep = fw_mul(dep, fw_max(fw_zero(), fw_sub(one, fw_gather(e->veg, safe))));
	const floatw vol = fw_from_doubles(L->vol + base);
	fw_store(L->t_nx + base, nx);
	fw_store(L->t_nz + base, nz);
	fw_store(L->t_here + base, here);
	fw_store(L->t_fr + base, fr);
	fw_store(L->t_ev + base, ev);
	fw_store(L->t_dep + base, dep);
	fw_store(L->t_vol + base, vol);
	fw_store(L->t_inv + base, fw_div(one, fw_mul(vol, hlanes_k(L, HK_DENSITY))));
	iw_store(L->at + base, fw_to_i(fw_blend(go, fw_from_i(at), fw_from_i(iw_load(L->at + base)))));
}

/* Pass one: slots base .. base + FLOATW_WIDTH - 1. Those that may step
 * (volume above min_volume, younger than max_steps: the descent's loop
 * test) get their normal and rates; those that may not have died; those
 * whose block is not on the map take the reference's step here. */
static inline __attribute__((always_inline)) void
hlanes_normals(struct hlanes *L, const struct hd_env *e, int base, struct hlanes_tick *t)
{
	const unsigned lanes = (unsigned)(L->active >> base) & HLANES_GROUP;
	const unsigned young = fw_movemask(
		fw_from_i(iw_gt(iw_load(L->ki[HKI_MAX_STEPS]), iw_load(L->age + base))));
	const unsigned run = lanes & young & fw_doubles_gt(L->vol + base, e->min_volume);
	t->died |= (uint64_t)(lanes & ~run) << base;
	const floatw one = hlanes_k(L, HK_ONE);
	const floatw x = fw_load(L->x + base), y = fw_load(L->y + base);
	const floatw interior = fw_and(fw_and(fw_ge(x, one), fw_lt(x, hlanes_k(L, HK_FW1))),
				       fw_and(fw_ge(y, one), fw_lt(y, hlanes_k(L, HK_FH1))));
	const floatw go = fw_and(hlanes_mask(L, run), interior);
	const unsigned gobits = fw_movemask(go);
	fw_store(L->t_go + base, go);
	if (gobits)
		hlanes_rates(L, e, base, x, y, go);
	/* Lanes near the edge: the reference's whole step, from the map as the
	 * tick found it (nothing writes it before the write phase). Rare. */
	for (unsigned m = run & ~gobits; m; m &= m - 1)
		hlanes_read_one(L, e, base + bits_ctz64(m), t);
}

/* Whether each moving lane stops (hd_early_stop): slowing on a stream,
 * into a pool, or (pit_stop) into a pit; *pit_dry: of those, pits off the
 * streams where the droplet dries (hydrology.pit_dry). */
static inline floatw hlanes_stops(const struct hlanes *L, const struct hd_env *e, floatw moving,
				  intw at, intw next, floatw px, floatw py, floatw ax, floatw az,
				  floatw *pit_dry)
{
	const floatw zero = fw_zero(), one = hlanes_k(L, HK_ONE);
	const floatw sn = fw_gather(e->stream, next), pn = fw_gather(e->pool, next);
	const floatw on_stream = fw_lt(hlanes_k(L, HK_STOP_STREAM), sn);
	const floatw slow =
		fw_lt(fw_sqrt(fw_add(fw_mul(ax, ax), fw_mul(az, az))), hlanes_k(L, HK_STOP_ACCEL));
	const floatw pooled = fw_lt(zero, pn);
	floatw stop = fw_or(fw_and(on_stream, slow), pooled);
	*pit_dry = zero;
	if (e->pit_stop) {
		const floatw inner = fw_and(fw_and(fw_ge(px, one), fw_lt(px, hlanes_k(L, HK_FW1))),
					    fw_and(fw_ge(py, one), fw_lt(py, hlanes_k(L, HK_FH1))));
		const floatw moved = fw_and(fw_andnot(fw_from_i(iw_eq(next, at)), inner), moving);
		const intw pit_at =
			fw_to_i(fw_blend(moved, fw_from_i(next), fw_from_i(iw_load(L->ki[HKI_SAFE]))));
		const floatw pit = fw_and(moved, hlanes_pit(e, pit_at));
		stop = fw_or(stop, pit);
		if (e->pit_dry)
			*pit_dry = fw_andnot(fw_or(pooled, on_stream), pit);
	}
	return fw_and(stop, moving);
}

/* Pass two: the step of slots base .. base + FLOATW_WIDTH - 1 that pass
 * one left to the vectors (hydrology_descend's loop body). */
static inline __attribute__((always_inline)) void
hlanes_move(struct hlanes *L, const struct hd_env *e, int base, struct hlanes_tick *t)
{
	const floatw go = fw_load(L->t_go + base);
	const unsigned gobits = fw_movemask(go);
	if (!gobits)
		return;
	const floatw zero = fw_zero(), one = hlanes_k(L, HK_ONE), dt = hlanes_k(L, HK_DT);
	const floatw x = fw_load(L->x + base), y = fw_load(L->y + base);
	const floatw vx = fw_load(L->vx + base), vy = fw_load(L->vy + base);
	const floatw nx = fw_load(L->t_nx + base), nz = fw_load(L->t_nz + base);
	const floatw inv_mass = fw_load(L->t_inv + base), vol = fw_load(L->t_vol + base);
	const intw at = iw_load(L->at + base);
	const floatw dtm = fw_mul(dt, inv_mass);
	const floatw ax = fw_mul(nx, inv_mass), az = fw_mul(nz, inv_mass);
	const floatw ddt = fw_mul(dt, dtm);
	const floatw px = fw_add(fw_add(x, fw_mul(vx, dt)), fw_mul(nx, ddt));
	const floatw py = fw_add(fw_add(y, fw_mul(vy, dt)), fw_mul(nz, ddt));
	const floatw keep = fw_sub(one, fw_mul(dt, fw_load(L->t_fr + base)));
	const floatw nvx = fw_mul(fw_add(vx, fw_mul(nx, dtm)), keep);
	const floatw nvy = fw_mul(fw_add(vy, fw_mul(nz, dtm)), keep);
	const floatw on_map = fw_and(fw_and(fw_ge(px, zero), fw_lt(px, hlanes_k(L, HK_FW))),
				     fw_and(fw_ge(py, zero), fw_lt(py, hlanes_k(L, HK_FH))));
	const floatw moving = fw_and(go, on_map);
	const intw next = iw_and(fw_to_i(moving), iw_madd16(iw_or(fw_trunc(px), iw_shl16(fw_trunc(py))),
							    iw_load(L->ki[HKI_WMUL])));
	if (e->hs)
		hlanes_fresh(e, next, fw_movemask(moving));
	floatw pit_dry;
	const floatw stop = hlanes_stops(L, e, moving, at, next, px, py, ax, az, &pit_dry);
	const floatw erodes = fw_andnot(stop, moving);
	/* hd_erode, lane by lane. */
	const floatw here = fw_load(L->t_here + base), there = fw_gather(e->h, next);
	const floatw speed = fw_sqrt(fw_add(fw_mul(nvx, nvx), fw_mul(nvy, nvy)));
	const floatw cap = e->capacity_volume ? vol : one;
	const floatw c_eq = fw_max(zero, fw_mul(fw_mul(cap, speed), fw_sub(here, there)));
	const floatw sed = fw_load(L->sed + base);
	const floatw cdiff = fw_sub(c_eq, sed);
	const floatw rate = fw_mul(dt, fw_load(L->t_dep + base));
	floatw nsed = fw_add(sed, fw_mul(rate, cdiff));
	const floatw delta = fw_mul(fw_mul(vol, rate), cdiff);
	const floatw ev_dt = fw_mul(dt, fw_load(L->t_ev + base));
	if (e->concentrate)
		nsed = fw_div(nsed, fw_sub(one, ev_dt));
	fw_doubles_keep(L->vol + base, ev_dt, erodes);
	fw_store(L->x + base, fw_blend(go, px, x));
	fw_store(L->y + base, fw_blend(go, py, y));
	fw_store(L->vx + base, fw_blend(go, nvx, vx));
	fw_store(L->vy + base, fw_blend(go, nvy, vy));
	fw_store(L->sed + base, fw_blend(erodes, nsed, sed));
	fw_store(L->delta + base, fw_blend(erodes, delta, fw_load(L->delta + base)));
	iw_store(L->wrote + base, iw_or(fw_to_i(erodes), iw_load(L->wrote + base)));
	/* age + 1 where it stepped (the mask is -1 there). */
	iw_store(L->age + base, iw_sub(iw_load(L->age + base), fw_to_i(go)));
	const unsigned pd = fw_movemask(pit_dry);
	t->stepped |= (uint64_t)gobits << base;
	t->left |= (uint64_t)(gobits & ~fw_movemask(on_map)) << base;
	t->flood |= (uint64_t)(fw_movemask(stop) & ~pd) << base;
	t->died |= (uint64_t)pd << base;
	t->pit_dry |= (uint64_t)pd << base;
	t->steps += fw_popcount(gobits);
}

void HLANES_READ(struct hlanes *L, const struct hd_env *e, int span, struct hlanes_tick *t)
{
	for (int base = 0; base < span; base += FLOATW_WIDTH)
		hlanes_normals(L, e, base, t);
	for (int base = 0; base < span; base += FLOATW_WIDTH)
		hlanes_move(L, e, base, t);
}
