/* The fluid: density and pressure (poly6, Tait or linear), forces (spiky
 * pressure gradient, Monaghan's artificial viscosity, Mueller's viscosity
 * kernel for mud), symplectic Euler, and the terrain as a boundary. Both
 * passes are gather-only: particle i writes only its own outputs. */
#include "core/sph/sph.h"

#include <math.h>

#include "core/base/v2.h" /* GULLY_USE_SSE2 */

/* Share of a poly6 kernel (support h) lying beyond a plane at distance u h
 * from its centre: 1/2 - (315/256) F(u), F(u) = u - 4u^3/3 + 6u^5/5 - 4u^7/7
 * + u^9/9, so f(0) = 1/2, f(1) = 0, f'(u) = -(315/256)(1 - u^2)^4. */
double sph_poly6_fraction(double u)
{
	if (u <= 0)
		return 0.5;
	if (u >= 1)
		return 0;
	double u2 = u * u;
	double F = u * (1 + u2 * (-4.0 / 3 + u2 * (6.0 / 5 + u2 * (-4.0 / 7 + u2 / 9))));
	return 0.5 - 315.0 / 256.0 * F;
}

double sph_poly6_fraction_slope(double u)
{
	if (u <= 0 || u >= 1)
		return u <= 0 ? -315.0 / 256.0 : 0;
	double t = 1 - u * u;
	return -315.0 / 256.0 * t * t * t * t;
}

/* Bilinear height between cell centres, in cells, and the unit normal of
 * that patch. Outside the map the edge cells continue flat. */
static void terrain_cell(float f, int size, int *i)
{
	/* Clamped before the cast: a particle flung far off the map (removed
	 * after this step) must not overflow an int. */
	f = f > -1.0f ? f : -1.0f; /* not fminf/fmaxf: libm calls at -O2 */
	f = f < (float)size ? f : (float)size;
	int k = (int)floorf(f);
	*i = k < 0 ? 0 : (k > size - 2 ? size - 2 : k);
}

static inline void terrain_cell2(const struct sph *s, float x, float y, int *ix, int *iy)
{
	terrain_cell(x - 0.5f, s->width, ix);
	terrain_cell(y - 0.5f, s->height, iy);
}

void sph_terrain_cell(const struct sph *s, float x, float y, int *ix, int *iy)
{
	terrain_cell2(s, x, y, ix, iy);
}

/* sph_terrain_at, inline in the passes (called twice a particle-step). */
static inline __attribute__((always_inline)) void
terrain_at(const struct sph *s, const struct world *w, float x, float y, float *H, float *nx,
	   float *ny, float *nz)
{
	const float *h = w->layer[LAYER_HEIGHT];
	float fx = x - 0.5f, fy = y - 0.5f;
	fx = fx > -1.0f ? fx : -1.0f;
	fx = fx < (float)s->width ? fx : (float)s->width;
	fy = fy > -1.0f ? fy : -1.0f;
	fy = fy < (float)s->height ? fy : (float)s->height;
	int ix, iy;
	terrain_cell2(s, x, y, &ix, &iy);
	float tx = fx - (float)ix, ty = fy - (float)iy;
	tx = tx < 0 ? 0 : (tx > 1 ? 1 : tx);
	ty = ty < 0 ? 0 : (ty > 1 ? 1 : ty);
	size_t i00 = (size_t)iy * (size_t)s->width + (size_t)ix;
	float h00 = h[i00], h10 = h[i00 + 1];
	float h01 = h[i00 + (size_t)s->width], h11 = h[i00 + (size_t)s->width + 1];
	float k = (float)s->cfg.scale;
	float top = h00 + (h10 - h00) * tx, bottom = h01 + (h11 - h01) * tx;
	*H = (top + (bottom - top) * ty) * k;
	float gx = ((h10 - h00) + (h11 - h01 - h10 + h00) * ty) * k;
	float gy = ((h01 - h00) + (h11 - h10 - h01 + h00) * tx) * k;
	float len = sqrtf(gx * gx + gy * gy + 1.0f);
	*nx = -gx / len;
	*ny = -gy / len;
	*nz = 1.0f / len;
}

void sph_terrain_at(const struct sph *s, const struct world *w, float x, float y, float *H,
		    float *nx, float *ny, float *nz)
{
	terrain_at(s, w, x, y, H, nx, ny, nz);
}

static float pressure_of(const struct sph_config *c, float rho)
{
	double ratio = rho / c->rho0;
	if (c->eos == SPH_EOS_LINEAR)
		return (float)(c->c * c->c * (rho - c->rho0));
	double r2 = ratio * ratio, r7 = r2 * r2 * r2 * ratio;
	return (float)(c->rho0 * c->c * c->c / 7.0 * (r7 - 1.0));
}

/* The mud mixture (eqs. 10-11): soil share C of the particle's volume. */
static double mud_share(const struct sph *s, int i)
{
	double vol = s->cfg.spacing * s->cfg.spacing * s->cfg.spacing;
	return (double)s->p.mud[i] * SPH_SOIL_QUANTUM / vol;
}

/* Neighbour lists, density (fluid and the terrain's half-space share, clamped
 * at rho0 so a free surface does not pull) and p / rho^2. */
void sph_density_pass(struct sph *s, const struct world *w, int from, int to)
{
	const struct sph_config *c = &s->cfg;
	for (int i = from; i < to; i++) {
		int32_t *list = s->nbr + (size_t)i * SPH_MAX_NEIGHBOURS;
		float rho;
		int count = sph_neighbours(s, i, list, SPH_MAX_NEIGHBOURS, &rho);
		s->ncount[i] = (uint8_t)(count < SPH_MAX_NEIGHBOURS ? count : SPH_MAX_NEIGHBOURS);
		/* 255 marks a cut list: mud exchange skips the particle (its pairs
		 * would not be symmetric). */
		if (count > SPH_MAX_NEIGHBOURS)
			s->dead[i] = 2;
		float H, nx, ny, nz;
		terrain_at(s, w, s->p.x[i], s->p.y[i], &H, &nx, &ny, &nz);
		s->ground[i] = H;
		s->nx[i] = nx;
		s->ny[i] = ny;
		s->nz[i] = nz;
		double d = (s->p.z[i] - H) * nz;
		rho += (float)(c->rho0 * sph_poly6_fraction(d / c->h));
		if (rho < c->rho0)
			rho = (float)c->rho0;
		s->rho[i] = rho;
		s->press[i] = pressure_of(c, rho) / (rho * rho);
		double C = s->p.mud[i] ? mud_share(s, i) : 0;
		s->nu[i] = (float)((1 - C) * c->nu_fluid + C * c->nu_mud);
	}
}

struct accel {
	float x, y, z;
};

/* What particle i needs of itself and the constants, for the pair terms. */
struct pair_env {
	float xi, yi, zi, vxi, vyi, vzi, pi, rhoi, nu_i;
	float h, m, visc, eps, spiky, lap;
};

/* One neighbour's pressure and artificial-viscosity push (f times the
 * offset) and its mud-viscosity drag (lap times the velocity difference),
 * as separate terms so the sums keep the one-by-one order. Returns false for
 * a neighbour on top of i (no direction). */
static inline bool pair_terms(const struct sph *s, const struct pair_env *e, int j, float *f3,
			      float *l3, bool *drag)
{
	float dx = e->xi - s->p.x[j], dy = e->yi - s->p.y[j], dz = e->zi - s->p.z[j];
	float r2 = dx * dx + dy * dy + dz * dz;
	float r = sqrtf(r2);
	if (r < 1e-6f * e->h)
		return false;
	float q = e->h - r;
	float grad = e->spiky * q * q / r;
	float dvx = e->vxi - s->p.vx[j], dvy = e->vyi - s->p.vy[j], dvz = e->vzi - s->p.vz[j];
	float vr = dvx * dx + dvy * dy + dvz * dz;
	float pij = e->pi + s->press[j];
	if (vr < 0)
		pij -= e->visc * vr / (0.5f * (e->rhoi + s->rho[j]) * (r2 + e->eps));
	float f = e->m * pij * grad;
	f3[0] = f * dx;
	f3[1] = f * dy;
	f3[2] = f * dz;
	float nu = 0.5f * (e->nu_i + s->nu[j]);
	*drag = nu > 0;
	float lap = nu * e->m / s->rho[j] * e->lap * q;
	l3[0] = lap * dvx;
	l3[1] = lap * dvy;
	l3[2] = lap * dvz;
	return true;
}

#if GULLY_USE_SSE2
/* Four neighbours' pair_terms at once, lane by lane the same IEEE
 * arithmetic (the sqrt and the three divisions are most of a pair's cost);
 * terms in lane order in f[4][3] and l[4][3]. Returns a 4-bit mask of the
 * neighbours not on top of i; drag gets the mask of those with nu > 0. */
static inline unsigned pair_terms4(const struct sph *s, const struct pair_env *e,
				   const int32_t *j, float f[4][3], float l[4][3], unsigned *drag)
{
#define GATHER(a) _mm_setr_ps((a)[j[0]], (a)[j[1]], (a)[j[2]], (a)[j[3]])
	const __m128 dx = _mm_sub_ps(_mm_set1_ps(e->xi), GATHER(s->p.x));
	const __m128 dy = _mm_sub_ps(_mm_set1_ps(e->yi), GATHER(s->p.y));
	const __m128 dz = _mm_sub_ps(_mm_set1_ps(e->zi), GATHER(s->p.z));
	const __m128 r2 = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dx, dx), _mm_mul_ps(dy, dy)),
				     _mm_mul_ps(dz, dz));
	const __m128 r = _mm_sqrt_ps(r2);
	const unsigned near = (unsigned)_mm_movemask_ps(_mm_cmpnlt_ps(r, _mm_set1_ps(1e-6f * e->h)));
	const __m128 q = _mm_sub_ps(_mm_set1_ps(e->h), r);
	const __m128 grad = _mm_div_ps(_mm_mul_ps(_mm_mul_ps(_mm_set1_ps(e->spiky), q), q), r);
	const __m128 dvx = _mm_sub_ps(_mm_set1_ps(e->vxi), GATHER(s->p.vx));
	const __m128 dvy = _mm_sub_ps(_mm_set1_ps(e->vyi), GATHER(s->p.vy));
	const __m128 dvz = _mm_sub_ps(_mm_set1_ps(e->vzi), GATHER(s->p.vz));
	const __m128 vr = _mm_add_ps(_mm_add_ps(_mm_mul_ps(dvx, dx), _mm_mul_ps(dvy, dy)),
				     _mm_mul_ps(dvz, dz));
	const __m128 rhoj = GATHER(s->rho);
	__m128 pij = _mm_add_ps(_mm_set1_ps(e->pi), GATHER(s->press));
	const __m128 mean_rho = _mm_mul_ps(_mm_set1_ps(0.5f), _mm_add_ps(_mm_set1_ps(e->rhoi), rhoj));
	const __m128 den = _mm_mul_ps(mean_rho, _mm_add_ps(r2, _mm_set1_ps(e->eps)));
	const __m128 visc = _mm_div_ps(_mm_mul_ps(_mm_set1_ps(e->visc), vr), den);
	const __m128 approach = _mm_cmplt_ps(vr, _mm_setzero_ps());
	pij = _mm_or_ps(_mm_and_ps(approach, _mm_sub_ps(pij, visc)), _mm_andnot_ps(approach, pij));
	const __m128 fs = _mm_mul_ps(_mm_mul_ps(_mm_set1_ps(e->m), pij), grad);
	const __m128 nu = _mm_mul_ps(_mm_set1_ps(0.5f), _mm_add_ps(_mm_set1_ps(e->nu_i), GATHER(s->nu)));
	*drag = (unsigned)_mm_movemask_ps(_mm_cmpgt_ps(nu, _mm_setzero_ps()));
	const __m128 lap = _mm_mul_ps(
		_mm_mul_ps(_mm_div_ps(_mm_mul_ps(nu, _mm_set1_ps(e->m)), rhoj), _mm_set1_ps(e->lap)), q);
#undef GATHER
	float t[6][4];
	_mm_storeu_ps(t[0], _mm_mul_ps(fs, dx));
	_mm_storeu_ps(t[1], _mm_mul_ps(fs, dy));
	_mm_storeu_ps(t[2], _mm_mul_ps(fs, dz));
	_mm_storeu_ps(t[3], _mm_mul_ps(lap, dvx));
	_mm_storeu_ps(t[4], _mm_mul_ps(lap, dvy));
	_mm_storeu_ps(t[5], _mm_mul_ps(lap, dvz));
	for (int k = 0; k < 4; k++)
		for (int a = 0; a < 3; a++) {
			f[k][a] = t[a][k];
			l[k][a] = t[3 + a][k];
		}
	return near;
}
#endif

static inline void pair_add(struct accel *a, struct accel *v, const float *f3, const float *l3,
			    bool drag)
{
	a->x += f3[0];
	a->y += f3[1];
	a->z += f3[2];
	if (drag) {
		v->x -= l3[0];
		v->y -= l3[1];
		v->z -= l3[2];
	}
}

static inline struct pair_env pair_env_of(const struct sph *s, int i)
{
	const struct sph_config *c = &s->cfg;
	return (struct pair_env){
		.xi = s->p.x[i], .yi = s->p.y[i], .zi = s->p.z[i],
		.vxi = s->p.vx[i], .vyi = s->p.vy[i], .vzi = s->p.vz[i],
		.pi = s->press[i], .rhoi = s->rho[i], .nu_i = s->nu[i],
		.h = (float)c->h, .m = (float)c->mass,
		.visc = (float)(c->alpha * c->c * c->h), .eps = 0.01f * (float)c->h2,
		.spiky = (float)c->spiky_grad, .lap = (float)c->visc_lap,
	};
}

/* The pair terms' sums over list[0..n-1], in list order: four at a time
 * where the build has SSE2 and `wide` is set, the rest one by one. */
static inline __attribute__((always_inline)) void
pair_sums(const struct sph *s, int i, const int32_t *list, int n, bool wide, struct accel *a,
	  struct accel *v)
{
	const struct pair_env e = pair_env_of(s, i);
	int k = 0;
#if GULLY_USE_SSE2
	for (; wide && k + 4 <= n; k += 4) {
		float f[4][3], l[4][3];
		unsigned drag;
		unsigned near = pair_terms4(s, &e, list + k, f, l, &drag);
		for (int u = 0; u < 4; u++)
			if (near >> u & 1)
				pair_add(a, v, f[u], l[u], drag >> u & 1);
	}
#else
	(void)wide;
#endif
	for (; k < n; k++) {
		float f3[3], l3[3];
		bool drag;
		if (pair_terms(s, &e, list[k], f3, l3, &drag))
			pair_add(a, v, f3, l3, drag);
	}
}

void sph_pair_sums(const struct sph *s, int i, const int32_t *list, int n, bool wide,
		   float push[3], float drag[3])
{
	struct accel a = {0, 0, 0}, v = {0, 0, 0};
	pair_sums(s, i, list, n, wide, &a, &v);
	push[0] = a.x, push[1] = a.y, push[2] = a.z;
	drag[0] = v.x, drag[1] = v.y, drag[2] = v.z;
}

static struct accel fluid_accel(const struct sph *s, int i)
{
	const struct sph_config *c = &s->cfg;
	const float pi = s->press[i], zi = s->p.z[i];
	double Ci = s->p.mud[i] ? mud_share(s, i) : 0;
	struct accel a = {0, 0, 0}, v = {0, 0, 0};
	pair_sums(s, i, s->nbr + (size_t)i * SPH_MAX_NEIGHBOURS, s->ncount[i], true, &a, &v);
	/* The terrain below, as a half-space of water at rest pressing back. */
	double d = (zi - s->ground[i]) * s->nz[i];
	if (d < c->h) {
		float push = (float)(-pi * c->rho0 * sph_poly6_fraction_slope(d / c->h) / c->h);
		a.x += push * s->nx[i];
		a.y += push * s->ny[i];
		a.z += push * s->nz[i];
	}
	/* A mud particle is heavier: the same forces move it less (eq. 10). */
	float mix = (float)(1.0 / (1 - Ci + Ci * c->soil_density / c->rho0));
	a.x = (a.x + v.x) * mix;
	a.y = (a.y + v.y) * mix;
	a.z = (a.z + v.z) * mix - (float)c->gravity;
	return a;
}

/* Forces, then v += a dt, x += v dt into the next arrays; a particle that
 * ends below the ground is put back on it with its normal speed reflected.
 * Records the normal speed of a fresh impact in vhit, and the next sort's
 * grid cells of the new place in kcell. */
void sph_force_pass(struct sph *s, const struct world *w, double dt, int from, int to,
		    double *vmax, double *amax)
{
	const struct sph_config *c = &s->cfg;
	float fdt = (float)dt;
	const double inv_h = 1.0 / c->h;
	double v2max = 0, a2max = 0;
	for (int i = from; i < to; i++) {
		struct accel a = fluid_accel(s, i);
		float vx = s->p.vx[i] + a.x * fdt, vy = s->p.vy[i] + a.y * fdt;
		float vz = s->p.vz[i] + a.z * fdt;
		float x = s->p.x[i] + vx * fdt, y = s->p.y[i] + vy * fdt, z = s->p.z[i] + vz * fdt;
		float H, nx, ny, nz;
		terrain_at(s, w, x, y, &H, &nx, &ny, &nz);
		float vn = vx * nx + vy * ny + vz * nz;
		float gap = (z - H) * nz;
		if (gap < (float)c->clearance) {
			/* Out along the normal: on a cliff that is sideways, not up. */
			float push = ((float)c->clearance - gap);
			x += push * nx;
			y += push * ny;
			z += push * nz;
			terrain_at(s, w, x, y, &H, &nx, &ny, &nz);
			if (z < H + (float)c->clearance * nz)
				z = H + (float)c->clearance * nz;
			if (vn < 0) {
				float k = (1.0f + (float)c->restitution) * vn;
				vx -= k * nx;
				vy -= k * ny;
				vz -= k * nz;
			}
		}
		bool contact = (z - H) * nz < (float)c->contact;
		s->vhit[i] = contact && !s->p.grounded[i] && vn < 0 ? -vn : 0;
		s->q.grounded[i] = contact;
		s->q.x[i] = x;
		s->q.y[i] = y;
		s->q.z[i] = z;
		s->q.vx[i] = vx;
		s->q.vy[i] = vy;
		s->q.vz[i] = vz;
		s->q.id[i] = s->p.id[i];
		int32_t *k = s->kcell + 3 * (size_t)i; /* the next sort's cells */
		k[0] = sph_cell_of(x, inv_h);
		k[1] = sph_cell_of(y, inv_h);
		k[2] = sph_cell_of(z, inv_h);
		s->q.mud[i] = s->p.mud[i] + (c->mud ? sph_mud_exchange(s, i, dt) : 0);
		/* The coupling's look at the new place (the next density pass
		 * overwrites these; no other particle reads them here). */
		s->busy[i] = (uint8_t)sph_couple_needed(s, &s->q, i, H, nx, ny, nz, dt);
		int ix, iy;
		terrain_cell2(s, x, y, &ix, &iy);
		s->cell[i] = iy * s->width + ix;
		s->ground[i] = H;
		s->nx[i] = nx;
		s->ny[i] = ny;
		s->nz[i] = nz;
		double v2 = (double)vx * vx + (double)vy * vy + (double)vz * vz;
		double a2 = (double)a.x * a.x + (double)a.y * a.y + (double)a.z * a.z;
		if (v2 > v2max)
			v2max = v2;
		if (a2 > a2max)
			a2max = a2;
	}
	*vmax = sqrt(v2max);
	*amax = sqrt(a2max);
}
