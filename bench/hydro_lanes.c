/* What hydrology's descent would cost with its droplets in SIMD lanes, as the
 * particles' lockstep engine runs them: a measurement for issue 15's items 3
 * and 6, not a model gully runs. bench/HYDROLOGY.md, "Droplets in lanes: a
 * prototype's step", has the figures.
 *
 *   bench/hydro_lanes [--2020] [--one] [SEED [WARM [DROPLETS [REPEATS]]]]
 *
 * Both sides start from clones of one world warmed by WARM droplets of the
 * real process (256x256, vertical scale 40, as `bench_hydrology descend`).
 * seq: DROPLETS through hydrology_descend, one after another, as the process
 * descends (without its pours: a droplet that stops to flood ends, on both
 * sides). lanes: the same number through 64 lanes, eight droplets to an AVX2
 * vector, each tick one step of every droplet from the map as it was at the
 * tick's start, then the height changes in lane order (the particles' rule,
 * particles/lockstep.h). A lane does the descent's arithmetic in its order,
 * so a lane alone gives the sequential step's bits; the order of droplets,
 * and so the maps, differ. Simplified where it costs little time: a droplet
 * whose 3x3 block leaves the map's interior ends, and a pit ends the droplet
 * whether or not it is on a stream (pit_dry off). --2020 sets the
 * seed-hydrology-2020 preset's descent options (the 2020 normal, the
 * concentration, no volume in the capacity, no pit stop, stop_stream 0.3;
 * the preset's 2020wrap differs from 2020 only at the edge, where droplets
 * end here, and its max_steps is the defaults' 20,000 on both sides).
 * Prints CPU ns per step of each, alternated REPEATS times, and the medians.
 * --one runs the lanes one droplet at a time (lane 0 only), the sequential
 * order, and counts the cells whose heights differ from the sequential
 * side's: none, until a droplet reaches the edge (`--one 1 20000 20 1`). */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "descendutil.h"

#if defined(__x86_64__) && defined(__GNUC__) && GULLY_USE_SSE2
#define HL_SIMD 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2")
#endif
#define FLOATW_AVX2 1
#include "core/base/floatw.h"
#include "core/base/normal_wide.h"
#else
#define HL_SIMD 0
#endif

#define HL_LANES 64

#if HL_SIMD
/* The droplets in flight, one array per field, lane i at index i. */
struct hl {
	float x[HL_LANES], y[HL_LANES], vx[HL_LANES], vy[HL_LANES], sed[HL_LANES];
	double vol[HL_LANES];
	uint32_t age[HL_LANES];
	/* A tick's writes: h[at] -= delta where delta != 0, in lane order. */
	float delta[HL_LANES];
	int32_t at[HL_LANES];
	uint64_t active;
	/* Between a tick's two passes: each lane's normal, the height of its
	 * cell, its rates, its volume as a float, 1 / (V rho), its masks. */
	float t_nx[HL_LANES], t_nz[HL_LANES], t_here[HL_LANES], t_fr[HL_LANES], t_ev[HL_LANES];
	float t_dep[HL_LANES], t_vol[HL_LANES], t_inv[HL_LANES], t_act[HL_LANES], t_go[HL_LANES];
	int32_t t_at[HL_LANES];
};

struct hl_k {
	floatw dt, density, friction, deposition, evap, stop_stream, stop_accel, s2, sixteen;
	floatw one, half, fifth, zero, fw1, fh1, fw, fh;
	intw wmul, safe;
	struct normal_consts8 nk8;
	uint32_t max_steps;
};

static void hl_spawn(struct hl *l, struct world *c, int i)
{
	l->x[i] = rng_float(&c->rng) * (float)c->width;
	l->y[i] = rng_float(&c->rng) * (float)c->height;
	l->vx[i] = l->vy[i] = l->sed[i] = 0.0f;
	l->vol[i] = 1.0;
	l->age[i] = 0;
	l->active |= (uint64_t)1 << i;
}

/* hd_pit (hydrology_descend.c) across the lanes: each lane's 3x3 block
 * holds no cell lower (height + pool) than its centre. */
static inline floatw hl_pit(const struct hd_env *e, intw cell)
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
	/* A pit where no compare held (a lane's mask 0, as the float 0). */
	return fw_eq(lower, fw_zero());
}

static inline floatw hl_from_d(const double *v)
{
	return _mm256_set_m128(_mm256_cvtpd_ps(_mm256_loadu_pd(v + 4)),
			       _mm256_cvtpd_ps(_mm256_loadu_pd(v)));
}

/* A tick runs two passes over the lanes, as the particles' engine does
 * (lockstep_simd.h): first every group's normal and rates (most of the
 * divisions and square roots), then every group's move, so that the divider
 * works on one group while another moves. Pass one: lanes base .. base + 7,
 * hydrology_descend's arithmetic lane by lane, from the map as the tick
 * found it. */
static void hl_normals8(struct hl *l, const struct hd_env *e, const struct hl_k *k, int base)
{
	const floatw x = fw_load(l->x + base), y = fw_load(l->y + base);
	const floatw act = fw_from_i(_mm256_cmpgt_epi32(
		_mm256_and_si256(_mm256_set1_epi32((int)((l->active >> base) & 0xff)),
				 _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
		_mm256_setzero_si256()));
	const floatw interior = fw_and(fw_and(fw_ge(x, k->one), fw_lt(x, k->fw1)),
				       fw_and(fw_ge(y, k->one), fw_lt(y, k->fh1)));
	const floatw go = fw_and(act, interior);
	const intw at = iw_madd16(iw_or(fw_trunc(x), iw_shl16(fw_trunc(y))), k->wmul);
	const intw safe = fw_to_i(fw_blend(go, fw_from_i(at), fw_from_i(k->safe)));
	floatw nx, nz, here;
	if (e->normal2020) {
		const intw W = iw_set1(e->width);
		const floatw xm = fw_gather(e->h, iw_add(safe, iw_set1(-1)));
		const floatw xp = fw_gather(e->h, iw_add(safe, iw_set1(1)));
		const floatw ym = fw_gather(e->h, _mm256_sub_epi32(safe, W));
		const floatw yp = fw_gather(e->h, iw_add(safe, W));
		here = fw_gather(e->h, safe);
		const floatw gx = fw_mul(k->s2, fw_sub(xm, xp)), gz = fw_mul(k->s2, fw_sub(ym, yp));
		const floatw len =
			fw_sqrt(fw_add(fw_add(fw_mul(gx, gx), k->sixteen), fw_mul(gz, gz)));
		nx = fw_div(gx, len);
		nz = fw_div(gz, len);
	} else {
		const struct normal_block b = normal_block_w(e->h, safe, (uint32_t)e->width);
		normal_xz_w(&b, &k->nk8, &nx, &nz);
		here = b.m1;
	}
	floatw fr = k->friction, ev = k->evap, dep = k->deposition;
	if (e->coupling >= HYDROLOGY_STREAMS) {
		const floatw s = fw_gather(e->stream, safe);
		fr = fw_mul(fr, fw_sub(k->one, fw_mul(k->half, s)));
		ev = fw_mul(ev, fw_sub(k->one, fw_mul(k->fifth, s)));
	}
	if (e->coupling == HYDROLOGY_TREES)
		dep = fw_mul(dep, fw_max(k->zero, fw_sub(k->one, fw_gather(e->veg, safe))));
	const floatw vol = hl_from_d(l->vol + base);
	fw_store(l->t_nx + base, nx);
	fw_store(l->t_nz + base, nz);
	fw_store(l->t_here + base, here);
	fw_store(l->t_fr + base, fr);
	fw_store(l->t_ev + base, ev);
	fw_store(l->t_dep + base, dep);
	fw_store(l->t_vol + base, vol);
	fw_store(l->t_inv + base, fw_div(k->one, fw_mul(vol, k->density)));
	fw_store(l->t_act + base, act);
	fw_store(l->t_go + base, go);
	iw_store(l->t_at + base, at);
}

/* Pass two: the move of lanes base .. base + 7. Returns the lanes that
 * ended; *edge gets those that ended because their block left the map's
 * interior (the prototype's simplification). */
static unsigned hl_move8(struct hl *l, const struct hd_env *e, const struct hl_k *k, int base,
			 uint64_t *steps, unsigned *edge)
{
	const floatw x = fw_load(l->x + base), y = fw_load(l->y + base);
	const floatw vx = fw_load(l->vx + base), vy = fw_load(l->vy + base);
	const floatw nx = fw_load(l->t_nx + base), nz = fw_load(l->t_nz + base);
	const floatw here = fw_load(l->t_here + base), fr = fw_load(l->t_fr + base);
	const floatw ev = fw_load(l->t_ev + base), dep = fw_load(l->t_dep + base);
	const floatw vol = fw_load(l->t_vol + base), inv_mass = fw_load(l->t_inv + base);
	const floatw act = fw_load(l->t_act + base), go = fw_load(l->t_go + base);
	const intw at = iw_load(l->t_at + base);
	const floatw dtm = fw_mul(k->dt, inv_mass);
	const floatw ax = fw_mul(nx, inv_mass), az = fw_mul(nz, inv_mass);
	const floatw ddt = fw_mul(k->dt, dtm);
	const floatw px = fw_add(fw_add(x, fw_mul(vx, k->dt)), fw_mul(nx, ddt));
	const floatw py = fw_add(fw_add(y, fw_mul(vy, k->dt)), fw_mul(nz, ddt));
	const floatw keep = fw_sub(k->one, fw_mul(k->dt, fr));
	const floatw nvx = fw_mul(fw_add(vx, fw_mul(nx, dtm)), keep);
	const floatw nvy = fw_mul(fw_add(vy, fw_mul(nz, dtm)), keep);
	const floatw on_map = fw_and(fw_and(fw_ge(px, k->zero), fw_lt(px, k->fw)),
				     fw_and(fw_ge(py, k->zero), fw_lt(py, k->fh)));
	const floatw moving = fw_and(go, on_map);
	const intw next = iw_and(fw_to_i(moving),
				 iw_madd16(iw_or(fw_trunc(px), iw_shl16(fw_trunc(py))), k->wmul));
	floatw stop = fw_and(fw_lt(k->stop_stream, fw_gather(e->stream, next)),
			     fw_lt(fw_sqrt(fw_add(fw_mul(ax, ax), fw_mul(az, az))), k->stop_accel));
	stop = fw_or(stop, fw_lt(k->zero, fw_gather(e->pool, next)));
	if (e->pit_stop) {
		const floatw inner = fw_and(fw_and(fw_ge(px, k->one), fw_lt(px, k->fw1)),
					    fw_and(fw_ge(py, k->one), fw_lt(py, k->fh1)));
		const floatw moved = fw_andnot(fw_from_i(iw_eq(next, at)), inner);
		const intw pit_at = fw_to_i(fw_blend(fw_and(moving, moved), fw_from_i(next),
						     fw_from_i(k->safe)));
		stop = fw_or(stop, fw_and(moved, hl_pit(e, pit_at)));
	}
	const floatw erodes = fw_andnot(stop, moving);
	const floatw there = fw_gather(e->h, next);
	const floatw speed = fw_sqrt(fw_add(fw_mul(nvx, nvx), fw_mul(nvy, nvy)));
	const floatw cap = e->capacity_volume ? vol : k->one;
	const floatw c_eq = fw_max(k->zero, fw_mul(fw_mul(cap, speed), fw_sub(here, there)));
	const floatw sed = fw_load(l->sed + base);
	const floatw cdiff = fw_sub(c_eq, sed);
	const floatw rate = fw_mul(k->dt, dep);
	floatw nsed = fw_add(sed, fw_mul(rate, cdiff));
	const floatw delta = fw_mul(fw_mul(vol, rate), cdiff);
	const floatw ev_dt = fw_mul(k->dt, ev);
	if (e->concentrate)
		nsed = fw_div(nsed, fw_sub(k->one, ev_dt));
	/* volume *= 1 - (double)ev_dt, in double, four lanes at a time. */
	const __m256d one_d = _mm256_set1_pd(1.0);
	const __m256d v0 = _mm256_mul_pd(_mm256_loadu_pd(l->vol + base),
					 _mm256_sub_pd(one_d, _mm256_cvtps_pd(_mm256_castps256_ps128(ev_dt))));
	const __m256d v1 =
		_mm256_mul_pd(_mm256_loadu_pd(l->vol + base + 4),
			      _mm256_sub_pd(one_d, _mm256_cvtps_pd(_mm256_extractf128_ps(ev_dt, 1))));
	const __m256d e0 = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(fw_to_i(erodes))));
	const __m256d e1 = _mm256_castsi256_pd(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(fw_to_i(erodes), 1)));
	const __m256d nv0 = _mm256_blendv_pd(_mm256_loadu_pd(l->vol + base), v0, e0);
	const __m256d nv1 = _mm256_blendv_pd(_mm256_loadu_pd(l->vol + base + 4), v1, e1);
	_mm256_storeu_pd(l->vol + base, nv0);
	_mm256_storeu_pd(l->vol + base + 4, nv1);
	/* Dried up: the loop's test, volume > min_volume, fails. */
	const __m256d min_d = _mm256_set1_pd(e->min_volume);
	const unsigned dry = (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(nv0, min_d, _CMP_NGT_UQ)) |
			     (unsigned)_mm256_movemask_pd(_mm256_cmp_pd(nv1, min_d, _CMP_NGT_UQ)) << 4;
	fw_store(l->x + base, fw_blend(moving, px, x));
	fw_store(l->y + base, fw_blend(moving, py, y));
	fw_store(l->vx + base, fw_blend(moving, nvx, vx));
	fw_store(l->vy + base, fw_blend(moving, nvy, vy));
	fw_store(l->sed + base, fw_blend(erodes, nsed, sed));
	fw_store(l->delta + base, fw_and(erodes, delta));
	iw_store(l->at + base, iw_and(fw_to_i(erodes), at));
	/* age + 1 where it stepped (the mask is -1 there). */
	const intw age = _mm256_sub_epi32(iw_load(l->age + base), fw_to_i(go));
	iw_store(l->age + base, age);
	/* Too old: age < max_steps fails (both below 2^31). */
	const unsigned old = fw_movemask(
		fw_from_i(_mm256_cmpgt_epi32(iw_set1((int)k->max_steps), age))) ^ 0xffu;
	/* Ended: a stop, off the map, out of the interior (the simplification),
	 * dried up or too old. */
	const unsigned ended =
		(fw_movemask(fw_andnot(erodes, act)) | ((dry | old) & fw_movemask(act))) & 0xffu;
	*steps += (uint64_t)fw_popcount(fw_movemask(go));
	*edge = fw_movemask(fw_andnot(go, act));
	return ended;
}

static double run_lanes(struct world *c, const struct params *p, long droplets, bool one,
			uint64_t *steps, long *edge_ends, double *moved)
{
	struct flood *f;
	uint8_t *track = descend_track_and_flood(c, &f);
	struct hd_env e;
	hydrology_descend_env(&e, p, c, track);
	struct hl_k k;
	k.dt = fw_set1(e.dt);
	k.density = fw_set1(e.density);
	k.friction = fw_set1(e.friction);
	k.deposition = fw_set1(e.deposition);
	k.evap = fw_set1(e.evap);
	k.stop_stream = fw_set1(e.stop_stream);
	k.stop_accel = fw_set1(e.stop_accel);
	k.s2 = fw_set1(2.0f * e.scale);
	k.sixteen = fw_set1(16.0f);
	k.one = fw_set1(1.0f);
	k.half = fw_set1(0.5f);
	k.fifth = fw_set1(0.2f);
	k.zero = fw_zero();
	k.fw1 = fw_set1((float)e.width - 1.0f);
	k.fh1 = fw_set1((float)e.height - 1.0f);
	k.fw = fw_set1((float)e.width);
	k.fh = fw_set1((float)e.height);
	k.wmul = iw_set1((int)((uint32_t)e.width << 16 | 1u));
	k.safe = iw_set1(e.width + 1);
	normal_consts8_init(&k.nk8, &e.nk);
	k.max_steps = e.max_steps;
	/* Aligned, so that no vector load splits a cache line (aligned_alloc
	 * wants a size that is a multiple of the alignment). */
	const size_t bytes = (sizeof(struct hl) + 63) / 64 * 64;
	struct hl *l = aligned_alloc(64, bytes);
	if (!l)
		exit(1);
	memset(l, 0, bytes);
	long released = 0;
	v2d book = d2_make(0, 0); /* branch-free, as the descent books */
	const double t0 = bench_cpu_seconds();
	const uint64_t lanes = one ? 1 : ~(uint64_t)0;
	for (;;) {
		for (uint64_t empty = lanes & ~l->active; empty && released < droplets;
		     empty &= empty - 1) {
			hl_spawn(l, c, __builtin_ctzll(empty));
			released++;
		}
		if (!l->active)
			break;
		uint64_t ended = 0;
		for (int base = 0; base < HL_LANES; base += 8)
			hl_normals8(l, &e, &k, base);
		for (int base = 0; base < HL_LANES; base += 8) {
			unsigned edge;
			ended |= (uint64_t)hl_move8(l, &e, &k, base, steps, &edge) << base;
			*edge_ends += fw_popcount(edge);
		}
		/* The write phase, in lane order. */
		for (int i = 0; i < HL_LANES; i++) {
			if (l->delta[i] == 0.0f)
				continue;
			float *cell = e.h + l->at[i];
			const float before = *cell, after = before - l->delta[i];
			*cell = after;
			track[l->at[i]] = 1;
			book = d2_book(book, before, after);
			if (after != before)
				flood_forget_cell(f, l->at[i]);
		}
		l->active &= ~ended;
	}
	const double t = bench_cpu_seconds() - t0;
	double eroded, deposited;
	d2_get(book, &eroded, &deposited);
	*moved = eroded + deposited;
	free(l);
	flood_destroy(f);
	free(track);
	return t;
}
#endif

/* Cells whose heights differ between two worlds of one size. */
static long cells_differing(const struct world *a, const struct world *b)
{
	long n = 0;
	const float *x = a->layer[LAYER_HEIGHT], *y = b->layer[LAYER_HEIGHT];
	for (size_t i = 0; i < world_cells(a); i++)
		n += memcmp(x + i, y + i, sizeof *x) != 0;
	return n;
}

int main(int argc, char **argv)
{
	bool preset2020 = false, one = false;
	for (; argc > 1 && argv[1][0] == '-' && argv[1][1] == '-'; argc--, argv++) {
		if (strcmp(argv[1], "--2020") == 0) {
			preset2020 = true;
		} else if (strcmp(argv[1], "--one") == 0) {
			one = true;
		} else {
			printf("usage: hydro_lanes [--2020] [--one] [SEED [WARM [DROPLETS [REPEATS]]]]\n");
			return strcmp(argv[1], "--help") == 0 ? 0 : 2;
		}
	}
	struct params p;
	params_defaults(&p);
	p.terrain.vertical_scale = 40;
	p.world.seed = argc > 1 ? atoi(argv[1]) : 1;
	const long warm = argc > 2 ? atol(argv[2]) : 20000;
	const long droplets = argc > 3 ? atol(argv[3]) : 200000;
	const int reps = argc > 4 ? atoi(argv[4]) : 5;
	if (warm < 0 || droplets <= 0 || reps < 1 || reps > 100) {
		fprintf(stderr, "hydro_lanes: WARM >= 0, DROPLETS > 0, REPEATS 1..100\n");
		return 2;
	}
	if (preset2020) {
		p.hydrology.normal = HYDROLOGY_NORMAL_2020;
		p.hydrology.concentrate = true;
		p.hydrology.capacity_volume = false;
		p.hydrology.pit_stop = false;
		p.hydrology.stop_stream = 0.3;
	}
#if !HL_SIMD
	fprintf(stderr, "hydro_lanes: built without SIMD\n");
	return 2;
#else
	if (!__builtin_cpu_supports("avx2")) {
		fprintf(stderr, "hydro_lanes: this CPU has no AVX2\n");
		return 2;
	}
	struct world *w;
	void *st;
	if (descend_warm_world(&w, &st, &p, warm)) {
		fprintf(stderr, "hydro_lanes: cannot make the world\n");
		return 1;
	}
	double *ns_seq = malloc((size_t)reps * sizeof *ns_seq);
	double *ns_lanes = malloc((size_t)reps * sizeof *ns_lanes);
	if (!ns_seq || !ns_lanes)
		return 1;
	for (int r = 0; r < reps; r++) {
		struct world *c;
		uint64_t steps = 0;
		if (world_clone(&c, w))
			return 1;
		double moved;
		double t = descend_droplets(c, &p, droplets, &steps, &moved);
		ns_seq[r] = t * 1e9 / (double)steps;
		printf("seq:   %ld droplets, %llu steps, %.3f s CPU, %.2f ns/step, soil moved %.3f\n",
		       droplets, (unsigned long long)steps, t, ns_seq[r], moved);
		struct world *c2;
		if (world_clone(&c2, w))
			return 1;
		steps = 0;
		long edge = 0;
		t = run_lanes(c2, &p, droplets, one, &steps, &edge, &moved);
		ns_lanes[r] = t * 1e9 / (double)steps;
		printf("lanes: %ld droplets, %llu steps, %.3f s CPU, %.2f ns/step, soil moved %.3f "
		       "(%ld ended at the edge)\n",
		       droplets, (unsigned long long)steps, t, ns_lanes[r], moved, edge);
		/* One lane at a time is the sequential order: until a droplet
		 * reaches the edge (which ends it here), the maps are the same. */
		if (one)
			printf("one lane: %ld cells differ from the sequential map\n",
			       cells_differing(c, c2));
		world_destroy(c);
		world_destroy(c2);
	}
	qsort(ns_seq, (size_t)reps, sizeof *ns_seq, bench_cmp_double);
	qsort(ns_lanes, (size_t)reps, sizeof *ns_lanes, bench_cmp_double);
	printf("median ns/step (CPU): seq %.2f, lanes %.2f, seq/lanes %.2f\n", ns_seq[reps / 2],
	       ns_lanes[reps / 2], ns_seq[reps / 2] / ns_lanes[reps / 2]);
	free(ns_seq);
	free(ns_lanes);
	hydrology_process.destroy(st);
	world_destroy(w);
	return 0;
#endif
}

#if HL_SIMD
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#endif
