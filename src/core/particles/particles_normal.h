/* The droplet's surface normal at an interior cell: the hot half of every
 * droplet step, kept inline so droplet_run and particles_normal_fast share it.
 *
 * Same formula as particles_normal (the scalar reference): for each of the
 * eight neighbours a = scale * (h(centre) - h(neighbour)); an axis neighbour
 * adds 0.15 / sqrt(a^2 + 1) * (a dx, 1, a dy), a diagonal one
 * 0.1 / sqrt(a^2 + 2) * (a dx / sqrt 2, sqrt 2, a dy / sqrt 2).
 *
 * The eight terms are computed in "lanes": lane i of the axis group is
 * neighbour (+x, -x, +y, -y)[i], lane i of the diagonal group is
 * (+x+y, +x-y, -x+y, -x-y)[i]. Each component is then summed in one fixed
 * order, whatever the instruction set:
 *     v_i = axis_i * cx_i + diag_i * cd_i           (per lane)
 *     n   = (v_0 + v_2) + (v_1 + v_3)
 * SSE2 (the x86_64 baseline) holds each group in one register (the AVX2 copy
 * of the droplet loop, particles_pair.c, is the same code VEX-encoded); the
 * portable fallback loops over the lanes. All do the same IEEE operations on
 * the same values in the same order, so they give the same bits (sqrt and
 * division are exact-rounded; no rsqrt estimate, whose result differs between
 * CPU makers; no fused multiply-add: the core library is built with
 * -ffp-contract=off). Only that sum order differs from the scalar reference,
 * so the two agree to a few ulps (tests/test_particles.c checks). The droplet
 * step uses a reassociated form of x and z (normal_interior_xz, below).
 * Private to src/core. */
#ifndef GULLY_PARTICLES_NORMAL_H
#define GULLY_PARTICLES_NORMAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* SSE2 is the x86_64 baseline, so every x86_64 build takes it; elsewhere, or
 * with -DGULLY_NO_SIMD (to test the fallback), the scalar code below. */
#if defined(__SSE2__) && !defined(GULLY_NO_SIMD)
#define GULLY_USE_SSE2 1
#include <emmintrin.h>
#else
#define GULLY_USE_SSE2 0
#endif

#define NORMAL_AXIS_WEIGHT 0.15f
#define NORMAL_DIAG_WEIGHT 0.1f
#define NORMAL_SQRT2 1.41421356237f

#if GULLY_USE_SSE2
#define PARTICLES_NORMAL_IMPL "sse2"

/* Each term's share of nx and nz is a constant factor: +-1 or 0 for the axes,
 * +-1/sqrt 2 for the diagonals (all + in the seed's asymmetric normal). A
 * multiply by +-1 or 0 is exact, so this equals the reference's
 * dx * (a * inv) and (a * inv) * (1 / sqrt 2) term by term. */
struct normal_consts {
	__m128 scale;
	__m128 ax_x, ax_z, dg_x, dg_z;
	__m128 one, two, w_ax, w_dg; /* kept here so no step rebuilds them */
	/* The droplet's form (normal_interior_xz): weight times factor (times
	 * the sign of scale), and 1 / scale^2, 2 / scale^2. */
	__m128 wax_x, wax_z, wdg_x, wdg_z;
	__m128 one_s2, two_s2;
};

static inline void normal_consts_init(struct normal_consts *k, float scale, bool symmetric)
{
	const float r = 1.0f / NORMAL_SQRT2;
	k->scale = _mm_set1_ps(scale);
	k->ax_x = _mm_setr_ps(1.0f, -1.0f, 0.0f, 0.0f);
	k->ax_z = _mm_setr_ps(0.0f, 0.0f, 1.0f, -1.0f);
	k->dg_x = symmetric ? _mm_setr_ps(r, r, -r, -r) : _mm_set1_ps(r);
	k->dg_z = symmetric ? _mm_setr_ps(r, -r, r, -r) : _mm_set1_ps(r);
	k->one = _mm_set1_ps(1.0f);
	k->two = _mm_set1_ps(2.0f);
	k->w_ax = _mm_set1_ps(NORMAL_AXIS_WEIGHT);
	k->w_dg = _mm_set1_ps(NORMAL_DIAG_WEIGHT);
	const __m128 sign = _mm_set1_ps(scale < 0.0f ? -1.0f : 1.0f);
	k->wax_x = _mm_mul_ps(_mm_mul_ps(k->w_ax, k->ax_x), sign);
	k->wax_z = _mm_mul_ps(_mm_mul_ps(k->w_ax, k->ax_z), sign);
	k->wdg_x = _mm_mul_ps(_mm_mul_ps(k->w_dg, k->dg_x), sign);
	k->wdg_z = _mm_mul_ps(_mm_mul_ps(k->w_dg, k->dg_z), sign);
	k->one_s2 = _mm_set1_ps(1.0f / (scale * scale));
	k->two_s2 = _mm_set1_ps(2.0f / (scale * scale));
}

/* The centre and its eight neighbours, as (centre x4), the axes
 * (+x, -x, +y, -y) and the diagonals (+x+y, +x-y, -x+y, -x-y). p points at the
 * centre of a map w floats wide; all eight neighbours must be inside it.
 * Nine scalar loads, not three 4-wide row loads (fewer instructions, tried):
 * the previous step stored one float into this block, and a wide load over a
 * recent narrow store cannot be forwarded from it: it waits for the store to
 * reach the cache, a stall on every step's critical path (about 2 ns). */
static inline void normal_gather(const float *p, size_t w, __m128 *c, __m128 *h_ax, __m128 *h_dg)
{
	/* Rows above and below as their own pointers: each neighbour is then a
	 * fixed offset from one of three registers. */
	const float *up = p - w, *dn = p + w;
	*c = _mm_set1_ps(p[0]);
	*h_ax = _mm_setr_ps(p[1], p[-1], dn[0], up[0]);
	*h_dg = _mm_setr_ps(dn[1], up[1], dn[-1], up[-1]);
}

/* The per-lane terms t = a / sqrt(a^2 + c) * weight (and the weights alone,
 * the y components, when wanted). */
static inline void normal_terms(const float *p, size_t w, const struct normal_consts *k,
				__m128 *t_ax, __m128 *t_dg, __m128 *inv_ax, __m128 *inv_dg)
{
	__m128 c, h_ax, h_dg;
	normal_gather(p, w, &c, &h_ax, &h_dg);
	const __m128 a_ax = _mm_mul_ps(k->scale, _mm_sub_ps(c, h_ax));
	const __m128 a_dg = _mm_mul_ps(k->scale, _mm_sub_ps(c, h_dg));
	*inv_ax = _mm_div_ps(k->w_ax, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(a_ax, a_ax), k->one)));
	*inv_dg = _mm_div_ps(k->w_dg, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(a_dg, a_dg), k->two)));
	*t_ax = _mm_mul_ps(a_ax, *inv_ax);
	*t_dg = _mm_mul_ps(a_dg, *inv_dg);
}

/* (vx, vz) lanes to (nx, nz, 0, 0): both horizontal sums at once by
 * transpose-and-add, in registers (a trip through memory would sit on the
 * step's dependency chain). */
static inline __m128 normal_sum_xz(__m128 vx, __m128 vz)
{
	const __m128 xz = _mm_add_ps(_mm_unpacklo_ps(vx, vz), _mm_unpackhi_ps(vx, vz));
	const __m128 sum = _mm_add_ps(xz, _mm_movehl_ps(xz, xz));
	/* Clear lanes 2 and 3, so nothing but zeros rides along in them. */
	return _mm_castsi128_ps(_mm_move_epi64(_mm_castps_si128(sum)));
}

/* The droplet's part of the normal, (nx, nz, 0, 0), in a shorter form. With
 * d = h(centre) - h(neighbour) and s = scale, a term is
 *     a / sqrt(a^2 + c) * weight * factor,   a = s d
 *   = d / sqrt(d^2 + c / s^2) * (weight * factor * sign(s))
 * with the last bracket and c / s^2 constants: two multiplies fewer on the
 * chain of dependent operations that bounds a step, for an ulp or two of
 * difference from normal_interior (s = 0 still gives 0: d / inf). */
static inline __m128 normal_interior_xz(const float *p, size_t w, const struct normal_consts *k)
{
	__m128 c, h_ax, h_dg;
	normal_gather(p, w, &c, &h_ax, &h_dg);
	const __m128 d_ax = _mm_sub_ps(c, h_ax);
	const __m128 d_dg = _mm_sub_ps(c, h_dg);
	const __m128 q_ax = _mm_div_ps(d_ax, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(d_ax, d_ax), k->one_s2)));
	const __m128 q_dg = _mm_div_ps(d_dg, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(d_dg, d_dg), k->two_s2)));
	const __m128 vx = _mm_add_ps(_mm_mul_ps(q_ax, k->wax_x), _mm_mul_ps(q_dg, k->wdg_x));
	const __m128 vz = _mm_add_ps(_mm_mul_ps(q_ax, k->wax_z), _mm_mul_ps(q_dg, k->wdg_z));
	return normal_sum_xz(vx, vz);
}

/* The same as two floats, for tests. */
static inline void normal_droplet_xz(const float *p, size_t w, const struct normal_consts *k,
				     float *nx, float *nz)
{
	const __m128 n = normal_interior_xz(p, w, k);
	*nx = _mm_cvtss_f32(n);
	*nz = _mm_cvtss_f32(_mm_shuffle_ps(n, n, 1));
}

static inline void normal_interior(const float *p, size_t w, const struct normal_consts *k,
				   float *nx, float *ny, float *nz)
{
	__m128 t_ax, t_dg, inv_ax, inv_dg;
	normal_terms(p, w, k, &t_ax, &t_dg, &inv_ax, &inv_dg);
	const __m128 vx = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_x), _mm_mul_ps(t_dg, k->dg_x));
	const __m128 vz = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_z), _mm_mul_ps(t_dg, k->dg_z));
	const __m128 sum = normal_sum_xz(vx, vz);
	*nx = _mm_cvtss_f32(sum);
	*nz = _mm_cvtss_f32(_mm_shuffle_ps(sum, sum, 1));
	if (!ny)
		return;
	const __m128 vy = _mm_add_ps(inv_ax, _mm_mul_ps(inv_dg, _mm_set1_ps(NORMAL_SQRT2)));
	const __m128 y2 = _mm_add_ps(vy, _mm_movehl_ps(vy, vy));
	*ny = _mm_cvtss_f32(_mm_add_ss(y2, _mm_shuffle_ps(y2, y2, 1)));
}

#else /* portable scalar fallback: the SSE2 lanes, one at a time */

#define PARTICLES_NORMAL_IMPL "scalar"

struct normal_consts {
	float scale;
	float ax_x[4], ax_z[4], dg_x[4], dg_z[4];
	float wax_x[4], wax_z[4], wdg_x[4], wdg_z[4];
	float one_s2, two_s2;
};

static inline void normal_consts_init(struct normal_consts *k, float scale, bool symmetric)
{
	const float r = 1.0f / NORMAL_SQRT2;
	static const float ax_x[4] = {1, -1, 0, 0}, ax_z[4] = {0, 0, 1, -1};
	static const float sx[4] = {1, 1, -1, -1}, sz[4] = {1, -1, 1, -1};
	k->scale = scale;
	for (int i = 0; i < 4; i++) {
		k->ax_x[i] = ax_x[i];
		k->ax_z[i] = ax_z[i];
		k->dg_x[i] = symmetric ? sx[i] * r : r;
		k->dg_z[i] = symmetric ? sz[i] * r : r;
		const float sign = scale < 0.0f ? -1.0f : 1.0f;
		k->wax_x[i] = NORMAL_AXIS_WEIGHT * k->ax_x[i] * sign;
		k->wax_z[i] = NORMAL_AXIS_WEIGHT * k->ax_z[i] * sign;
		k->wdg_x[i] = NORMAL_DIAG_WEIGHT * k->dg_x[i] * sign;
		k->wdg_z[i] = NORMAL_DIAG_WEIGHT * k->dg_z[i] * sign;
	}
	k->one_s2 = 1.0f / (scale * scale);
	k->two_s2 = 2.0f / (scale * scale);
}

/* The droplet's form, as the SSE2 one: d / sqrt(d^2 + c / s^2) * (weight * factor * sign(s)). */
static inline void normal_interior_xz(const float *p, size_t w, const struct normal_consts *k,
				      float *nx, float *nz)
{
	const ptrdiff_t W = (ptrdiff_t)w;
	const float c = p[0];
	const float h_ax[4] = {p[1], p[-1], p[W], p[-W]};
	const float h_dg[4] = {p[W + 1], p[1 - W], p[W - 1], p[-1 - W]};
	float vx[4], vz[4];
	for (int i = 0; i < 4; i++) {
		const float d_ax = c - h_ax[i], d_dg = c - h_dg[i];
		const float q_ax = d_ax / sqrtf(d_ax * d_ax + k->one_s2);
		const float q_dg = d_dg / sqrtf(d_dg * d_dg + k->two_s2);
		vx[i] = q_ax * k->wax_x[i] + q_dg * k->wdg_x[i];
		vz[i] = q_ax * k->wax_z[i] + q_dg * k->wdg_z[i];
	}
	*nx = (vx[0] + vx[2]) + (vx[1] + vx[3]);
	*nz = (vz[0] + vz[2]) + (vz[1] + vz[3]);
}

static inline void normal_droplet_xz(const float *p, size_t w, const struct normal_consts *k,
				     float *nx, float *nz)
{
	normal_interior_xz(p, w, k, nx, nz);
}

static inline void normal_interior(const float *p, size_t w, const struct normal_consts *k,
				   float *nx, float *ny, float *nz)
{
	const ptrdiff_t W = (ptrdiff_t)w;
	const float c = p[0], s = k->scale;
	const float h_ax[4] = {p[1], p[-1], p[W], p[-W]};
	const float h_dg[4] = {p[W + 1], p[1 - W], p[W - 1], p[-1 - W]};
	float vx[4], vy[4], vz[4];
	for (int i = 0; i < 4; i++) {
		const float a_ax = s * (c - h_ax[i]), a_dg = s * (c - h_dg[i]);
		const float inv_ax = NORMAL_AXIS_WEIGHT / sqrtf(a_ax * a_ax + 1.0f);
		const float inv_dg = NORMAL_DIAG_WEIGHT / sqrtf(a_dg * a_dg + 2.0f);
		const float t_ax = a_ax * inv_ax, t_dg = a_dg * inv_dg;
		vx[i] = t_ax * k->ax_x[i] + t_dg * k->dg_x[i];
		vz[i] = t_ax * k->ax_z[i] + t_dg * k->dg_z[i];
		vy[i] = inv_ax + inv_dg * NORMAL_SQRT2;
	}
	*nx = (vx[0] + vx[2]) + (vx[1] + vx[3]);
	*nz = (vz[0] + vz[2]) + (vz[1] + vz[3]);
	if (ny)
		*ny = (vy[0] + vy[2]) + (vy[1] + vy[3]);
}

#endif

#endif
