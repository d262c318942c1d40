/* The surface normal a droplet slides down (DESIGN.md 3.1): the one normal of
 * particles and hydrology alike.
 *
 * The formula (N. McDonald's particle erosion): for each of the eight
 * neighbours a = scale * (h(centre) - h(neighbour)); an axis neighbour adds
 * 0.15 / sqrt(a^2 + 1) * (a dx, 1, a dy), a diagonal one
 * 0.1 / sqrt(a^2 + 2) * (a dx / sqrt 2, sqrt 2, a dy / sqrt 2). The seed's
 * own normal gives every diagonal +1 for dx and dy (symmetric = false), which
 * biases droplets towards +x+z; symmetric = true takes the real signs.
 *
 * Two functions:
 * - normal_ref, the reference: every cell, all three components, the map
 *   extended linearly past its edges (so edges neither block nor pull);
 * - normal_xz, the step's: x and z only, inside the map (the 3x3 block on
 *   it), in a shorter form, each term d / sqrt(d^2 + c / s^2) *
 *   (weight * factor * sign(s)) with d = h(centre) - h(neighbour): two
 *   multiplies fewer on the chain that bounds a step, for an ulp or two of
 *   difference from normal_ref (tests/test_particles.c bounds it).
 * normal_xz sums in one fixed order whatever the instruction set: axis lane
 * i is (+x, -x, +y, -y)[i], diagonal lane i (+x+y, +x-y, -x+y, -x-y)[i],
 *     v_i = q_ax_i * w_ax_i + q_dg_i * w_dg_i,   n = (v_0 + v_2) + (v_1 + v_3)
 * Its SSE2 form holds each group in one register, the portable one loops over
 * the lanes, and the lockstep engine's wide twin (base/normal_wide.h) does the
 * same per droplet across droplets: all give the same bits (IEEE sqrt and
 * division are exactly rounded; no rsqrt estimate, whose result differs
 * between CPU makers; no fused multiply-add: the core is built with
 * -ffp-contract=off). */
#ifndef GULLY_CORE_BASE_NORMAL_H
#define GULLY_CORE_BASE_NORMAL_H

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/base/v2.h"

#define NORMAL_AXIS_WEIGHT 0.15f
#define NORMAL_DIAG_WEIGHT 0.1f
#define NORMAL_SQRT2 1.41421356237f

/* normal_xz's constants, fixed for a run: per lane, weight * factor *
 * sign(scale) (factor +-1 or 0 on the axes, +-1/sqrt 2 on the diagonals), and
 * 1 / scale^2, 2 / scale^2. A multiply by +-1 or 0 is exact. */
struct normal_consts {
	_Alignas(16) float wax_x[4];
	_Alignas(16) float wax_z[4];
	_Alignas(16) float wdg_x[4];
	_Alignas(16) float wdg_z[4];
	_Alignas(16) float one_s2[4];
	_Alignas(16) float two_s2[4];
	float scale;
	bool symmetric;
};

void normal_consts_init(struct normal_consts *k, float scale, bool symmetric);

/* The same constants eight times over, for the twin across droplets
 * (base/normal_wide.h) to read as vector memory operands (a broadcast per
 * use would cost an instruction). */
struct normal_consts8 {
	_Alignas(32) float wax_x[4][8];
	_Alignas(32) float wax_z[4][8];
	_Alignas(32) float wdg_x[4][8];
	_Alignas(32) float wdg_z[4][8];
	_Alignas(32) float one_s2[8];
	_Alignas(32) float two_s2[8];
};

void normal_consts8_init(struct normal_consts8 *k8, const struct normal_consts *k);

/* The reference at cell (x, y) of a width x height map; n = {x, y, z}, y up. */
void normal_ref(const float *h, int width, int height, int x, int y, float scale, bool symmetric,
		float n[3]);

/* normal_ref's x and z as a pair: the step's normal where the 3x3 block
 * leaves the map (rare, so out of line). */
v2f normal_edge_xz(const float *h, int width, int height, int x, int y,
		   const struct normal_consts *k);

#if GULLY_USE_SSE2
#define NORMAL_IMPL "sse2"

/* (vx, vz) lanes to (nx, nz, 0, 0): both horizontal sums at once by
 * transpose-and-add, in registers. */
static inline __m128 normal_sum_xz(__m128 vx, __m128 vz)
{
	const __m128 xz = _mm_add_ps(_mm_unpacklo_ps(vx, vz), _mm_unpackhi_ps(vx, vz));
	const __m128 sum = _mm_add_ps(xz, _mm_movehl_ps(xz, xz));
	return _mm_castsi128_ps(_mm_move_epi64(_mm_castps_si128(sum)));
}

/* p points at the centre of a map w floats wide; all eight neighbours must
 * be on it. Nine scalar loads, not three 4-wide row loads: the previous step
 * stored one float into this block, and a wide load over a recent narrow
 * store cannot be forwarded from it: the step's dependency chain would
 * stall on it (bench/PARTICLES.md, on store forwarding). */
static inline v2f normal_xz(const float *p, size_t w, const struct normal_consts *k)
{
	const float *up = p - w, *dn = p + w;
	const __m128 c = _mm_set1_ps(p[0]);
	const __m128 h_ax = _mm_setr_ps(p[1], p[-1], dn[0], up[0]);
	const __m128 h_dg = _mm_setr_ps(dn[1], up[1], dn[-1], up[-1]);
	const __m128 d_ax = _mm_sub_ps(c, h_ax);
	const __m128 d_dg = _mm_sub_ps(c, h_dg);
	const __m128 q_ax =
		_mm_div_ps(d_ax, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(d_ax, d_ax), _mm_load_ps(k->one_s2))));
	const __m128 q_dg =
		_mm_div_ps(d_dg, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(d_dg, d_dg), _mm_load_ps(k->two_s2))));
	const __m128 vx = _mm_add_ps(_mm_mul_ps(q_ax, _mm_load_ps(k->wax_x)),
				     _mm_mul_ps(q_dg, _mm_load_ps(k->wdg_x)));
	const __m128 vz = _mm_add_ps(_mm_mul_ps(q_ax, _mm_load_ps(k->wax_z)),
				     _mm_mul_ps(q_dg, _mm_load_ps(k->wdg_z)));
	return normal_sum_xz(vx, vz);
}
#else
#define NORMAL_IMPL "scalar"

static inline v2f normal_xz(const float *p, size_t w, const struct normal_consts *k)
{
	const ptrdiff_t W = (ptrdiff_t)w;
	const float c = p[0];
	const float h_ax[4] = {p[1], p[-1], p[W], p[-W]};
	const float h_dg[4] = {p[W + 1], p[1 - W], p[W - 1], p[-1 - W]};
	float vx[4], vz[4];
	for (int i = 0; i < 4; i++) {
		const float d_ax = c - h_ax[i], d_dg = c - h_dg[i];
		const float q_ax = d_ax / sqrtf(d_ax * d_ax + k->one_s2[i]);
		const float q_dg = d_dg / sqrtf(d_dg * d_dg + k->two_s2[i]);
		vx[i] = q_ax * k->wax_x[i] + q_dg * k->wdg_x[i];
		vz[i] = q_ax * k->wax_z[i] + q_dg * k->wdg_z[i];
	}
	return v2_make((vx[0] + vx[2]) + (vx[1] + vx[3]), (vz[0] + vz[2]) + (vz[1] + vz[3]));
}
#endif

/* The step's normal at any cell: normal_xz inside, normal_edge_xz where the
 * 3x3 block leaves the map. */
static inline v2f normal_at_xz(const float *h, int width, int height, int x, int y,
			       const struct normal_consts *k)
{
	if (x >= 1 && y >= 1 && x < width - 1 && y < height - 1)
		return normal_xz(h + (size_t)y * (size_t)width + (size_t)x, (size_t)width, k);
	return normal_edge_xz(h, width, height, x, y, k);
}

/* A second algorithm, for hydrology.normal = 2020: SimpleHydrology 2020's
 * surface normal, the normalised sum of four cross products of the edge
 * vectors from a cell to its four axis neighbours, (0, s dh(+y), 1) x
 * (1, s dh(+x), 0) and its three turns, with dh(n) = h(n) - h(centre) and s
 * the vertical scale. Each product is (-+ s dh(x), 1, -+ s dh(y)) exactly,
 * so the sum is (2 s (h(x-1) - h(x+1)), 4, 2 s (h(y-1) - h(y+1))) before
 * normalising: a central difference, which is how it is computed here (the
 * centre's height cancels; the seed's term-by-term sum, bench/seedref.c,
 * gives the same vector up to rounding, and takes three more dependent
 * additions on the descent's critical path). Against the normal above it
 * has no diagonal terms and no 1/sqrt(a^2 + 1) damping of steep
 * neighbours; on gentle slopes its sideways part is about twice as large.
 * A neighbour off the map counts as level with the cell (the seed reads
 * past its array there: bench/seedref.c). In float like the seed's
 * glm::vec3. */
/* The normal from the axis neighbours' heights (the centre's where one is
 * off the map): xm, xp at x - 1 and x + 1, ym, yp at y - 1 and y + 1; s2 is
 * twice the vertical scale. */
static inline void normal_2020_xyz(float xm, float xp, float ym, float yp, float s2, float *x,
				   float *y, float *z)
{
	const float nx = s2 * (xm - xp);
	const float nz = s2 * (ym - yp);
	const float len = sqrtf(nx * nx + 16.0f + nz * nz);
	*x = nx / len;
	if (y)
		*y = 4.0f / len;
	*z = nz / len;
}

/* The x and z parts alone at an interior cell (x and y in 1..size - 2),
 * `hc` pointing at it in a row-major map `w` wide: the same operations as
 * normal_2020 and normal_2020_wrap there (they differ only at the edges),
 * without the up part's division. */
static inline void normal_2020_xz_inner(const float *hc, size_t w, float scale, float *x,
					float *z)
{
	normal_2020_xyz(hc[-1], hc[1], hc[-(ptrdiff_t)w], hc[w], 2.0f * scale, x, NULL, z);
}

static inline void normal_2020(const float *h, int width, int height, int x, int y, float scale,
			       float n[3])
{
	const size_t c = (size_t)y * (size_t)width + (size_t)x, w = (size_t)width;
	const float hc = h[c];
	const float xp = x + 1 < width ? h[c + 1] : hc;
	const float xm = x > 0 ? h[c - 1] : hc;
	const float yp = y + 1 < height ? h[c + w] : hc;
	const float ym = y > 0 ? h[c - w] : hc;
	normal_2020_xyz(xm, xp, ym, yp, 2.0f * scale, &n[0], &n[1], &n[2]);
}

/* The same with the seed's edge (hydrology.normal = 2020wrap): the seed
 * finds a neighbour by adding to an x-major index (x * height + y) with no
 * bounds test, so the y neighbour past the last row is the first row of
 * the next column, (x + 1, 0), and past the first row the last row of the
 * previous column, (x - 1, height - 1); a neighbour off the whole array
 * counts as level (bench/seedref.c, bench/FIDELITY.md: this is how the
 * seed's edge lakes form). */
static inline void normal_2020_wrap(const float *h, int width, int height, int x, int y,
				    float scale, float n[3])
{
	const size_t c = (size_t)y * (size_t)width + (size_t)x, w = (size_t)width;
	const size_t last = (size_t)(height - 1) * w;
	const float hc = h[c];
	const float xp = x + 1 < width ? h[c + 1] : hc;
	const float xm = x > 0 ? h[c - 1] : hc;
	const float yp = y + 1 < height ? h[c + w] : x + 1 < width ? h[(size_t)x + 1] : hc;
	const float ym = y > 0 ? h[c - w] : x > 0 ? h[last + (size_t)x - 1] : hc;
	normal_2020_xyz(xm, xp, ym, yp, 2.0f * scale, &n[0], &n[1], &n[2]);
}

#endif
