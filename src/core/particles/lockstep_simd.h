/* The lockstep read phase and books, written once over base/floatw.h's wide
 * float: FLOATW_WIDTH droplets a vector, lane j of each vector the slot
 * base + j, each lane doing droplet_advance's arithmetic in its order (and
 * lockstep_books_scalar's), so every width gives the reference's bits.
 * Included by lockstep_sse2.c and lockstep_avx2.c, which set the width and
 * name the two entry points LOCKSTEP_READ and LOCKSTEP_BOOKS. */
#include "core/base/floatw.h"
#include "core/base/normal_wide.h"
#include "core/particles/lockstep_impl.h"

/* A tick constant (lockstep_constants fills pl->kv). */
static inline floatw lockstep_k(const struct lockstep *pl, enum lockstep_k name)
{
	return fw_load(pl->kv[name]);
}

/* Lanes near the edge: the reference normal (normal_edge_xz, which extends
 * the map past it) and their cell's height, over what pass one stored for
 * them. Rare: a branch taken a few times in a thousand. */
static void lockstep_edges(struct lockstep *pl, const struct droplet_env *e, int base,
			   unsigned edge)
{
	for (unsigned m = edge; m; m &= m - 1) {
		const int i = base + bits_ctz64(m);
		const int xi = (int)pl->x[i], yi = (int)pl->y[i];
		const v2f n = normal_edge_xz(e->h, e->width, e->height, xi, yi, &e->nk);
		pl->t_nx[i] = v2_x(n);
		pl->t_nz[i] = v2_y(n);
		pl->t_here[i] = e->h[(uint32_t)yi * e->stride + (uint32_t)xi];
	}
}

/* Where a step lands: p' = (p + dt v) + n (dt / (V rho)) dt, as
 * droplet_advance moves; whether that is on the map, and its cell (cell 0
 * for lanes that do not step or leave the map). Pass two moves by it, and
 * on a big map pass one asks for it early (lockstep_prefetch). */
struct lockstep_landing {
	floatw px, py, on_map;
	intw next;
};

static inline __attribute__((always_inline)) struct lockstep_landing
lockstep_land(const struct lockstep *pl, floatw x, floatw y, floatw vx, floatw vy, floatw nx,
	      floatw nz, floatw inv_mass, floatw step)
{
	const floatw zero = fw_zero(), dt = lockstep_k(pl, K_DT);
	const floatw dtm = fw_mul(dt, inv_mass);
	struct lockstep_landing l;
	l.px = fw_add(fw_add(x, fw_mul(dt, vx)), fw_mul(nx, dtm));
	l.py = fw_add(fw_add(y, fw_mul(dt, vy)), fw_mul(nz, dtm));
	l.on_map = fw_and(fw_and(fw_ge(l.px, zero), fw_lt(l.px, lockstep_k(pl, K_FW))),
			  fw_and(fw_ge(l.py, zero), fw_lt(l.py, lockstep_k(pl, K_FH))));
	const intw wmul = iw_load(pl->ki[KI_WMUL]);
	l.next = iw_and(fw_to_i(fw_and(step, l.on_map)),
			iw_madd16(iw_or(fw_trunc(l.px), iw_shl16(fw_trunc(l.py))), wmul));
	return l;
}

/* On a map bigger than the cache (droplet_env.prefetch), a droplet that
 * moves a row needs cache lines it has not used (lines fetched for one
 * droplet rarely serve another): pass two's gather of the height where it
 * lands waited for memory, and next tick's pass one for the rows around it.
 * So pass one, once a group's normals are known, works out where it will
 * land and asks for the three rows of the block there: by the time pass two
 * reaches the group, the other groups' work has hidden the wait. Same
 * arithmetic, same bits. (An edge lane's normal is patched into t_nx and
 * t_nz after this group's; its prefetch may miss the spot, which costs
 * nothing but a wasted fetch.) Addresses as integers: a prefetch off the
 * map is harmless, but pointer arithmetic past an array would not be. */
static inline __attribute__((always_inline)) void
lockstep_prefetch(const struct lockstep *pl, const struct droplet_env *e, int base, floatw x,
		  floatw y, floatw nx, floatw nz, floatw inv_mass, floatw step)
{
	const struct lockstep_landing l =
		lockstep_land(pl, x, y, fw_load(pl->vx + base), fw_load(pl->vy + base), nx, nz,
			      inv_mass, step);
	_Alignas(32) int32_t cell[FLOATW_WIDTH];
	iw_store(cell, l.next);
	const uintptr_t h = (uintptr_t)e->h, row = (uintptr_t)e->stride * sizeof(float);
	for (int j = 0; j < FLOATW_WIDTH; j++) {
		const uintptr_t left = h + (uintptr_t)cell[j] * sizeof(float) - sizeof(float);
		__builtin_prefetch((const void *)(left - row));
		__builtin_prefetch((const void *)left);
		__builtin_prefetch((const void *)(left + row));
	}
}

/* A tick's read phase runs in two passes over the slots: first every group's
 * normal (most of the divisions and square roots, which share one divider),
 * then every group's move. In this order the divider is busy with the next
 * group while the previous one moves; group by group, the moves waited for
 * the divider and the divider for the moves.
 *
 * Pass one: slots base .. base + FLOATW_WIDTH - 1's normals, into pl->t_*. */
static inline __attribute__((always_inline)) void
lockstep_normals(struct lockstep *pl, const struct droplet_env *e, int base)
{
	const floatw one = lockstep_k(pl, K_ONE);
	const floatw x = fw_load(pl->x + base), y = fw_load(pl->y + base);
	const intw left = iw_load(pl->left + base);
	const intw bits = iw_load(pl->ki[KI_BITS]);
	const int lane_mask = (int)((pl->active >> base) & ((1u << FLOATW_WIDTH) - 1));
	const floatw act = fw_from_i(iw_eq(iw_and(iw_set1(lane_mask), bits), bits));
	/* Stepping: in flight with steps left. */
	const floatw step = fw_andnot(fw_from_i(iw_eq(left, iw_set1(0))), act);
	const floatw interior = fw_and(fw_and(fw_ge(x, one), fw_lt(x, lockstep_k(pl, K_FW1))),
				       fw_and(fw_ge(y, one), fw_lt(y, lockstep_k(pl, K_FH1))));
	const floatw fast = fw_and(step, interior);
	/* The cell: x + y * width in one multiply-add of 16-bit halves (both
	 * below 4096; garbage in lanes that are not stepping, never used). */
	const intw wmul = iw_load(pl->ki[KI_WMUL]);
	const intw at = iw_madd16(iw_or(fw_trunc(x), iw_shl16(fw_trunc(y))), wmul);
	/* Lanes that are not on the fast path read the block of cell (1, 1). */
	const intw safe = fw_to_i(fw_blend(fast, fw_from_i(at), fw_from_i(iw_load(pl->ki[KI_SAFE]))));
	const struct normal_block block = normal_block_w(e->h, safe, e->stride);
	floatw nx, nz;
	normal_xz_w(&block, &pl->nk8, &nx, &nz);
	fw_store(pl->t_nx + base, nx);
	fw_store(pl->t_nz + base, nz);
	fw_store(pl->t_here + base, block.m1);
	const unsigned edge = fw_movemask(fw_andnot(interior, step));
	if (edge)
		lockstep_edges(pl, e, base, edge);
	/* dt / (V rho) does not need the normal: with the normals it keeps the
	 * divider's queue full. */
	const floatw inv_mass =
		fw_div(lockstep_k(pl, K_DT), fw_mul(fw_load(pl->volume + base), lockstep_k(pl, K_DENSITY)));
	fw_store(pl->t_inv + base, inv_mass);
	if (e->prefetch)
		lockstep_prefetch(pl, e, base, x, y, nx, nz, inv_mass, step);
	fw_store(pl->t_step + base, step);
	fw_store(pl->t_act + base, act);
	iw_store(pl->t_at + base, at);
}

/* droplet_softness where the step takes soil (0 < cdiff), lane by lane: the
 * hardness read at the writing lanes' cells (cell 0 for the others). */
static inline floatw lockstep_soften(const struct lockstep *pl, const struct droplet_env *e,
				     floatw cdiff, floatw writes, intw at)
{
	const floatw d = fw_gather(e->hard, iw_and(fw_to_i(writes), at));
	const floatw soft = fw_sub(lockstep_k(pl, K_ONE), fw_mul(lockstep_k(pl, K_HARDNESS), d));
	return fw_blend(fw_lt(fw_zero(), cdiff), fw_mul(cdiff, soft), cdiff);
}

/* Pass two: the move of slots base .. base + FLOATW_WIDTH - 1; their ended
 * bits. `hard` (e->hard set) is a constant where it is inlined, so the run
 * without hardness has no trace of it: always inlined, since GCC would
 * otherwise call one copy for both loops, which is slower (bench/PARTICLES.md). */
static inline __attribute__((always_inline)) uint64_t
lockstep_move(struct lockstep *pl, const struct droplet_env *e, int base, uint64_t *steps, bool hard)
{
	const floatw zero = fw_zero();
	const floatw x = fw_load(pl->x + base), y = fw_load(pl->y + base);
	const floatw vx = fw_load(pl->vx + base), vy = fw_load(pl->vy + base);
	const floatw vol = fw_load(pl->volume + base), sed = fw_load(pl->sediment + base);
	const intw left = iw_load(pl->left + base);
	const floatw nx = fw_load(pl->t_nx + base), nz = fw_load(pl->t_nz + base);
	const floatw here = fw_load(pl->t_here + base);
	const floatw step = fw_load(pl->t_step + base), act = fw_load(pl->t_act + base);
	const intw at = iw_load(pl->t_at + base);

	const floatw keep = lockstep_k(pl, K_KEEP);
	const floatw inv_mass = fw_load(pl->t_inv + base);
	const floatw nvx = fw_mul(fw_add(vx, fw_mul(nx, inv_mass)), keep);
	const floatw nvy = fw_mul(fw_add(vy, fw_mul(nz, inv_mass)), keep);
	const struct lockstep_landing land = lockstep_land(pl, x, y, vx, vy, nx, nz, inv_mass, step);
	const floatw px = land.px, py = land.py, on_map = land.on_map;
	const floatw writes = fw_and(step, on_map);
	const intw next = land.next;
	const floatw there = fw_gather(e->h, next);
	const floatw speed = fw_sqrt(fw_add(fw_mul(nvx, nvx), fw_mul(nvy, nvy)));
	const floatw c_eq = fw_max(zero, fw_mul(speed, fw_mul(vol, fw_sub(here, there))));
	const floatw rate = lockstep_k(pl, K_RATE);
	floatw cdiff = fw_sub(c_eq, sed);
	if (hard)
		cdiff = lockstep_soften(pl, e, cdiff, writes, at);
	const floatw delta = fw_mul(fw_mul(vol, rate), cdiff);

	fw_store(pl->x + base, fw_blend(step, px, x));
	fw_store(pl->y + base, fw_blend(step, py, y));
	fw_store(pl->vx + base, fw_blend(step, nvx, vx));
	fw_store(pl->vy + base, fw_blend(step, nvy, vy));
	fw_store(pl->sediment + base, fw_blend(writes, fw_add(sed, fw_mul(rate, cdiff)), sed));
	fw_store(pl->volume + base,
		 fw_blend(writes, fw_mul(vol, lockstep_k(pl, K_KEEP_VOLUME)), vol));
	/* left - 1 where stepping (the mask is -1 there). */
	const intw nleft = iw_add(left, fw_to_i(step));
	iw_store(pl->left + base, nleft);
	fw_store(pl->delta + base, fw_and(writes, delta));
	iw_store(pl->wat + base, iw_and(fw_to_i(writes), at));
	/* Ended: in flight, and out of steps or off the map. */
	const floatw ended =
		fw_and(act, fw_or(fw_from_i(iw_eq(nleft, iw_set1(0))), fw_andnot(on_map, step)));
	*steps += fw_popcount(fw_movemask(step));
	return (uint64_t)fw_movemask(ended) << base;
}

struct lockstep_tick LOCKSTEP_READ(struct lockstep *pl, const struct droplet_env *e, int begin,
				   int end)
{
	struct lockstep_tick t = {0, 0};
	for (int base = begin; base < end; base += FLOATW_WIDTH)
		lockstep_normals(pl, e, base);
	if (e->hard)
		for (int base = begin; base < end; base += FLOATW_WIDTH)
			t.ended |= lockstep_move(pl, e, base, &t.steps, true);
	else
		for (int base = begin; base < end; base += FLOATW_WIDTH)
			t.ended |= lockstep_move(pl, e, base, &t.steps, false);
	return t;
}

/* lockstep_books_scalar's sums, four slots at a time. */
void LOCKSTEP_BOOKS(struct lockstep *pl, int n, struct lockstep_books *b)
{
	double4 ve = d4_zero(), vq = d4_zero();
	for (int g = 0; g < n; g += 4) {
		const __m128 before = _mm_loadu_ps(pl->before + g);
		const __m128 after = _mm_sub_ps(before, _mm_loadu_ps(pl->delta + g));
		const double4 bd = d4_from_f(before), ad = d4_from_f(after);
		const double4 d = d4_sub(bd, ad);
		d4_store(pl->carried + g, d4_add(d4_load(pl->carried + g), d));
		ve = d4_add(ve, d4_max(d, d4_zero()));
		vq = d4_add(vq, d4_max(d4_sub(ad, bd), d4_zero()));
	}
	b->eroded += d4_sum(ve);
	b->deposited += d4_sum(vq);
}
