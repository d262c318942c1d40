/* The droplet's surface normal at an interior cell: the hot half of every
 * droplet step, kept inline so droplet_run and particles_normal_fast share it.
 *
 * Same formula as particles_normal (the scalar reference): for each of the
 * eight neighbours a = scale * (h(centre) - h(neighbour)); an axis neighbour
 * adds 0.15 / sqrt(a^2 + 1) * (a dx, 1, a dy), a diagonal one
 * 0.1 / sqrt(a^2 + 2) * (a dx / sqrt 2, sqrt 2, a dy / sqrt 2). With SSE2 (the
 * x86_64 baseline) the four axis and the four diagonal terms each take one
 * register. sqrt and division stay IEEE-exact (no rsqrt estimate): the
 * estimate differs between CPU makers, and a run must give the same bits on
 * any x86_64 machine. Only the order of the final sums differs from the
 * reference, so results agree to a few ulps (tests/test_particles.c checks).
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

/* Lane order: axes (+x, -x, +y, -y), diagonals (+x+y, +x-y, -x+y, -x-y).
 * Each term's share of nx and nz is a constant factor: +-1 or 0 for the axes,
 * +-1/sqrt 2 for the diagonals (all + in the seed's asymmetric normal). A
 * multiply by +-1 or 0 is exact, so this equals the reference's
 * dx * (a * inv) and (a * inv) * (1 / sqrt 2) term by term. */
struct normal_consts {
	__m128 scale;
	__m128 ax_x, ax_z, dg_x, dg_z;
	__m128 one, two, w_ax, w_dg; /* kept here so no step rebuilds them */
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
}

/* p points at the centre cell of a map w floats wide; all eight neighbours
 * must be inside the map. ny may be NULL: a droplet step does not need it. */
static inline void normal_interior(const float *p, size_t w, const struct normal_consts *k,
				   float *nx, float *ny, float *nz)
{
	/* Rows above and below as their own pointers: each neighbour is then a
	 * fixed offset from one of three registers. */
	const float *up = p - w, *dn = p + w;
	const __m128 c = _mm_set1_ps(p[0]);
	const __m128 h_ax = _mm_setr_ps(p[1], p[-1], dn[0], up[0]);
	const __m128 h_dg = _mm_setr_ps(dn[1], up[1], dn[-1], up[-1]);
	const __m128 a_ax = _mm_mul_ps(k->scale, _mm_sub_ps(c, h_ax));
	const __m128 a_dg = _mm_mul_ps(k->scale, _mm_sub_ps(c, h_dg));
	const __m128 inv_ax =
		_mm_div_ps(k->w_ax, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(a_ax, a_ax), k->one)));
	const __m128 inv_dg =
		_mm_div_ps(k->w_dg, _mm_sqrt_ps(_mm_add_ps(_mm_mul_ps(a_dg, a_dg), k->two)));
	const __m128 t_ax = _mm_mul_ps(a_ax, inv_ax);
	const __m128 t_dg = _mm_mul_ps(a_dg, inv_dg);
	/* Per-lane contributions; each vector's lanes sum to one component. */
	const __m128 vx = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_x), _mm_mul_ps(t_dg, k->dg_x));
	const __m128 vz = _mm_add_ps(_mm_mul_ps(t_ax, k->ax_z), _mm_mul_ps(t_dg, k->dg_z));
	/* Both horizontal sums at once: transpose-and-add, in registers (a trip
	 * through memory would sit on the step's dependency chain). */
	const __m128 xz = _mm_add_ps(_mm_unpacklo_ps(vx, vz), _mm_unpackhi_ps(vx, vz));
	const __m128 sum = _mm_add_ps(xz, _mm_movehl_ps(xz, xz));
	*nx = _mm_cvtss_f32(sum);
	*nz = _mm_cvtss_f32(_mm_shuffle_ps(sum, sum, 1));
	if (ny) {
		const __m128 vy =
			_mm_add_ps(inv_ax, _mm_mul_ps(inv_dg, _mm_set1_ps(NORMAL_SQRT2)));
		const __m128 y2 = _mm_add_ps(vy, _mm_movehl_ps(vy, vy));
		*ny = _mm_cvtss_f32(_mm_add_ss(y2, _mm_shuffle_ps(y2, y2, 1)));
	}
}

#else /* portable scalar fallback */

#define PARTICLES_NORMAL_IMPL "scalar"

struct normal_consts {
	float scale;
	float diag_sign; /* -1 for the symmetric normal's mirrored diagonals, else +1 */
};

static inline void normal_consts_init(struct normal_consts *k, float scale, bool symmetric)
{
	k->scale = scale;
	k->diag_sign = symmetric ? -1.0f : 1.0f;
}

static inline void normal_interior(const float *p, size_t w, const struct normal_consts *k,
				   float *nx, float *ny, float *nz)
{
	const float c = p[0], s = k->scale, m = k->diag_sign;
	const float a_ax[4] = {s * (c - p[1]), s * (c - p[-1]), s * (c - p[w]),
			       s * (c - p[-(ptrdiff_t)w])};
	const float a_dg[4] = {s * (c - p[w + 1]), s * (c - p[1 - (ptrdiff_t)w]),
			       s * (c - p[w - 1]), s * (c - p[-1 - (ptrdiff_t)w])};
	float t_ax[4], t_dg[4], sum_y = 0;
	for (int i = 0; i < 4; i++) {
		float inv = NORMAL_AXIS_WEIGHT / sqrtf(a_ax[i] * a_ax[i] + 1.0f);
		t_ax[i] = a_ax[i] * inv;
		sum_y += inv;
	}
	for (int i = 0; i < 4; i++) {
		float inv = NORMAL_DIAG_WEIGHT / sqrtf(a_dg[i] * a_dg[i] + 2.0f);
		t_dg[i] = a_dg[i] * inv * (1.0f / NORMAL_SQRT2);
		sum_y += NORMAL_SQRT2 * inv;
	}
	/* Diagonals: (+x+y, +x-y, -x+y, -x-y); m flips the mirrored ones. */
	*nx = (t_ax[0] - t_ax[1]) + (t_dg[0] + t_dg[1]) + m * (t_dg[2] + t_dg[3]);
	if (ny)
		*ny = sum_y;
	*nz = (t_ax[2] - t_ax[3]) + (t_dg[0] + t_dg[2]) + m * (t_dg[1] + t_dg[3]);
}

#endif

#endif
