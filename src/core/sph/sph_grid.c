/* Neighbour search: a uniform grid of cells one smoothing radius wide over
 * the particles' bounding box, rebuilt every step by a counting sort on
 * x-fastest linear keys, with the particles physically reordered so the 27
 * cells around a particle are 9 contiguous runs of the arrays. */
#include "core/sph/sph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"

/* A grid never has more cells than this; extra height layers are merged into
 * the top one (which loses no neighbour: it only costs time). */
#define GRID_MAX_CELLS (1u << 22)

/* Clamped to +-2^28 cells before the cast, so no position overflows an int
 * (and a key's arithmetic stays inside 32 bits with the grid's cap). */
static int cell_of(float v, double inv_h)
{
	double c = floor((double)v * inv_h);
	c = c > -268435456.0 ? c : -268435456.0; /* not fmin/fmax: libm calls at -O2 */
	return (int)(c < 268435456.0 ? c : 268435456.0);
}

static void grid_bounds(struct sph *s)
{
	double inv_h = 1.0 / s->cfg.h;
	int x0 = 0, x1 = 0, y0 = 0, y1 = 0, z0 = 0, z1 = 0;
	for (int i = 0; i < s->n; i++) {
		int cx = cell_of(s->p.x[i], inv_h), cy = cell_of(s->p.y[i], inv_h);
		int cz = cell_of(s->p.z[i], inv_h);
		if (i == 0 || cx < x0)
			x0 = cx;
		if (i == 0 || cx > x1)
			x1 = cx;
		if (i == 0 || cy < y0)
			y0 = cy;
		if (i == 0 || cy > y1)
			y1 = cy;
		if (i == 0 || cz < z0)
			z0 = cz;
		if (i == 0 || cz > z1)
			z1 = cz;
	}
	s->gx0 = x0;
	s->gy0 = y0;
	s->gz0 = z0;
	s->gnx = x1 - x0 + 1;
	s->gny = y1 - y0 + 1;
	long layers = (long)(GRID_MAX_CELLS / ((unsigned)s->gnx * (unsigned)s->gny));
	long nz = (long)z1 - z0 + 1;
	s->gnz = (int)(nz < layers ? nz : (layers > 1 ? layers : 1));
}

static uint32_t key_of(const struct sph *s, int i, double inv_h)
{
	int cx = cell_of(s->p.x[i], inv_h) - s->gx0;
	int cy = cell_of(s->p.y[i], inv_h) - s->gy0;
	int cz = cell_of(s->p.z[i], inv_h) - s->gz0;
	if (cz >= s->gnz)
		cz = s->gnz - 1;
	return ((uint32_t)cz * (uint32_t)s->gny + (uint32_t)cy) * (uint32_t)s->gnx + (uint32_t)cx;
}

static void move(struct sph_particles *to, int j, const struct sph_particles *from, int i)
{
	to->x[j] = from->x[i];
	to->y[j] = from->y[i];
	to->z[j] = from->z[i];
	to->vx[j] = from->vx[i];
	to->vy[j] = from->vy[i];
	to->vz[j] = from->vz[i];
	to->mud[j] = from->mud[i];
	to->id[j] = from->id[i];
	to->grounded[j] = from->grounded[i];
}

int sph_compact_range(struct sph *s, int from, int to, int at)
{
	int n = at;
	for (int i = from; i < to; i++)
		if (s->dead[i] != 1)
			move(&s->q, n++, &s->p, i);
	return n - at;
}

/* Stable counting sort (histogram, exclusive prefix sum, scatter), so the
 * order, and every result after it, depends on the positions alone. */
int sph_sort(struct sph *s)
{
	if (s->n == 0) {
		s->gnx = s->gny = s->gnz = 1;
		s->gx0 = s->gy0 = s->gz0 = 0;
	} else {
		grid_bounds(s);
	}
	size_t cells = (size_t)s->gnx * (size_t)s->gny * (size_t)s->gnz;
	if (cells + 1 > s->cells_cap) {
		uint32_t *c = realloc(s->cstart, (cells + 1) * sizeof *c);
		if (!c)
			return GULLY_ENOMEM;
		s->cstart = c;
		s->cells_cap = cells + 1;
	}
	memset(s->cstart, 0, (cells + 1) * sizeof *s->cstart);
	double inv_h = 1.0 / s->cfg.h;
	for (int i = 0; i < s->n; i++) {
		s->key[i] = key_of(s, i, inv_h);
		s->cstart[s->key[i] + 1]++;
	}
	for (size_t c = 0; c < cells; c++)
		s->cstart[c + 1] += s->cstart[c];
	/* Scatter with a running cursor per cell: cstart[k] walks up to
	 * cstart[k+1]'s old value, then is restored from the cursor's end. */
	for (int i = 0; i < s->n; i++)
		move(&s->q, (int)s->cstart[s->key[i]]++, &s->p, i);
	for (size_t c = cells; c > 0; c--)
		s->cstart[c] = s->cstart[c - 1];
	s->cstart[0] = 0;
	struct sph_particles t = s->p;
	s->p = s->q;
	s->q = t;
	return GULLY_OK;
}

/* Walks the 9 runs around particle i; writes up to max neighbours within h
 * and adds m W_poly6 of every neighbour (and of itself) to *rho_sum. */
int sph_neighbours(const struct sph *s, int i, int32_t *out, int max, float *rho_sum)
{
	double inv_h = 1.0 / s->cfg.h;
	int cx = cell_of(s->p.x[i], inv_h) - s->gx0;
	int cy = cell_of(s->p.y[i], inv_h) - s->gy0;
	int cz = cell_of(s->p.z[i], inv_h) - s->gz0;
	if (cz >= s->gnz)
		cz = s->gnz - 1;
	const float xi = s->p.x[i], yi = s->p.y[i], zi = s->p.z[i];
	const float h2 = (float)s->cfg.h2;
	int count = 0;
	float sum = 0;
	int xa = cx > 0 ? cx - 1 : 0, xb = cx + 1 < s->gnx ? cx + 1 : s->gnx - 1;
	for (int z = cz - 1; z <= cz + 1; z++) {
		if (z < 0 || z >= s->gnz)
			continue;
		for (int y = cy - 1; y <= cy + 1; y++) {
			if (y < 0 || y >= s->gny)
				continue;
			size_t row = ((size_t)z * (size_t)s->gny + (size_t)y) * (size_t)s->gnx;
			uint32_t a = s->cstart[row + (size_t)xa], b = s->cstart[row + (size_t)xb + 1];
			for (uint32_t j = a; j < b; j++) {
				float dx = xi - s->p.x[j], dy = yi - s->p.y[j], dz = zi - s->p.z[j];
				float r2 = dx * dx + dy * dy + dz * dz;
				if (r2 >= h2)
					continue;
				float t = h2 - r2;
				sum += t * t * t;
				if ((int)j == i)
					continue;
				if (count < max)
					out[count] = (int32_t)j;
				count++;
			}
		}
	}
	*rho_sum = sum * (float)(s->cfg.mass * s->cfg.poly6);
	return count;
}
