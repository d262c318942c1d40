/* The porous soil: 5 particles per cell on a quincunx (the centre and the
 * four quarter points), each holding water in integer quanta up to its pore
 * capacity. Darcy's law (eqs. 7-8) moves water between particles closer than
 * one cell: flux = K c w (s_a - s_b), w = (1 - r)^2. A Jacobi update with
 * truncated (odd) integer fluxes conserves water exactly and, while
 * dt K c sum(w) <= 1/2, keeps every particle between empty and full. */
#include "core/sph/sph.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/base/error.h"

#define PORES 5
#define LINKS_MAX 48

static const double sub_x[PORES] = {0.5, 0.25, 0.75, 0.25, 0.75};
static const double sub_y[PORES] = {0.5, 0.25, 0.25, 0.75, 0.75};

struct link {
	int dx, dy, k;
	double w;
};

/* Links from sub-position a: every other porous particle within one cell. */
static int links_of(int a, struct link *out)
{
	int n = 0;
	for (int dy = -1; dy <= 1; dy++)
		for (int dx = -1; dx <= 1; dx++)
			for (int k = 0; k < PORES; k++) {
				if (dx == 0 && dy == 0 && k == a)
					continue;
				double ex = dx + sub_x[k] - sub_x[a], ey = dy + sub_y[k] - sub_y[a];
				double r = sqrt(ex * ex + ey * ey);
				if (r < 1.0)
					out[n++] = (struct link){dx, dy, k, (1 - r) * (1 - r)};
			}
	return n;
}

static double max_weight_sum(void)
{
	struct link l[LINKS_MAX];
	double best = 0;
	for (int a = 0; a < PORES; a++) {
		int n = links_of(a, l);
		double sum = 0;
		for (int i = 0; i < n; i++)
			sum += l[i].w;
		if (sum > best)
			best = sum;
	}
	return best;
}

int sph_soil_create(struct sph *s, struct world *w)
{
	size_t cells = (size_t)s->width * (size_t)s->height;
	s->water = calloc(cells * PORES, sizeof *s->water);
	s->water_next = calloc(cells * PORES, sizeof *s->water_next);
	s->h0 = malloc(cells * sizeof *s->h0);
	s->soil = calloc(cells, sizeof *s->soil);
	s->tstamp = calloc(cells, sizeof *s->tstamp);
	s->wstamp = calloc(cells, sizeof *s->wstamp);
	if (!s->water || !s->water_next || !s->h0 || !s->soil || !s->tstamp || !s->wstamp)
		return GULLY_ENOMEM;
	memcpy(s->h0, w->layer[LAYER_HEIGHT], cells * sizeof *s->h0);
	s->draws_water = true;
	for (size_t i = 0; i < cells && s->draws_water; i++)
		s->draws_water = w->layer[LAYER_POOL][i] == 0;
	double pore = s->cfg.porosity * s->cfg.soil_depth / PORES; /* cells^3 */
	double vol = s->cfg.spacing * s->cfg.spacing * s->cfg.spacing;
	double q = pore / vol * (double)SPH_WATER_QUANTA;
	s->capacity_q = (int32_t)(q < 2e9 ? q : 2e9);
	if (s->capacity_q < PORES)
		s->capacity_q = PORES;
	s->wx0 = s->wy0 = 0;
	s->wx1 = s->wy1 = -1;
	return GULLY_OK;
}

double sph_saturation(const struct sph *s, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= s->width || cy >= s->height)
		return 0;
	const int32_t *q = s->water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	int64_t sum = 0;
	for (int k = 0; k < PORES; k++)
		sum += q[k];
	return (double)sum / ((double)s->capacity_q * PORES);
}

int64_t sph_soil_room(const struct sph *s, int cx, int cy)
{
	const int32_t *q = s->water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	int64_t room = 0;
	for (int k = 0; k < PORES; k++)
		room += s->capacity_q - q[k];
	return room;
}

static void box_add(struct sph *s, int cx, int cy)
{
	if (s->wx1 < s->wx0) {
		s->wx0 = s->wx1 = cx;
		s->wy0 = s->wy1 = cy;
		return;
	}
	if (cx < s->wx0)
		s->wx0 = cx;
	if (cx > s->wx1)
		s->wx1 = cx;
	if (cy < s->wy0)
		s->wy0 = cy;
	if (cy > s->wy1)
		s->wy1 = cy;
}

/* Equal shares, each capped at its room, the rest passed on: q must fit. */
void sph_soil_give(struct sph *s, int cx, int cy, int64_t q)
{
	int32_t *w = s->water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	for (int pass = 0; pass < 2 && q > 0; pass++)
		for (int k = 0; k < PORES && q > 0; k++) {
			int64_t share = pass == 0 ? q / (PORES - k) : q;
			int64_t room = s->capacity_q - w[k];
			int64_t put = share < room ? share : room;
			w[k] += (int32_t)put;
			q -= put;
		}
	box_add(s, cx, cy);
	s->wstamp[(size_t)cy * (size_t)s->width + (size_t)cx] = s->epoch;
}

int64_t sph_water_in_soil(const struct sph *s)
{
	int64_t sum = 0;
	if (s->wx1 < s->wx0)
		return 0;
	for (int y = s->wy0; y <= s->wy1; y++)
		for (int x = s->wx0; x <= s->wx1; x++)
			for (int k = 0; k < PORES; k++)
				sum += s->water[((size_t)y * (size_t)s->width + (size_t)x) * PORES + (size_t)k];
	return sum;
}

static void darcy_once(struct sph *s, double kdt, const struct link l[PORES][LINKS_MAX],
		       const int nl[PORES])
{
	int W = s->width;
	for (int y = s->wy0; y <= s->wy1; y++)
		for (int x = s->wx0; x <= s->wx1; x++)
			for (int a = 0; a < PORES; a++) {
				size_t ia = ((size_t)y * (size_t)W + (size_t)x) * PORES + (size_t)a;
				int64_t qa = s->water[ia], sum = 0;
				for (int i = 0; i < nl[a]; i++) {
					int bx = x + l[a][i].dx, by = y + l[a][i].dy;
					if (bx < 0 || by < 0 || bx >= W || by >= s->height)
						continue;
					size_t ib = ((size_t)by * (size_t)W + (size_t)bx) * PORES +
						    (size_t)l[a][i].k;
					sum += (int64_t)(kdt * l[a][i].w * (double)(s->water[ib] - qa));
				}
				s->water_next[ia] = (int32_t)(qa + sum);
			}
	for (int y = s->wy0; y <= s->wy1; y++) {
		size_t i0 = ((size_t)y * (size_t)W + (size_t)s->wx0) * PORES;
		size_t n = (size_t)(s->wx1 - s->wx0 + 1) * PORES;
		memcpy(s->water + i0, s->water_next + i0, n * sizeof *s->water);
	}
}

/* Darcy over the box of cells that may hold water, grown by one cell a
 * substep (water moves at most one cell per substep). */
void sph_darcy(struct sph *s, double dt)
{
	if (s->wx1 < s->wx0 || s->cfg.permeability <= 0)
		return;
	/* A few hundred flops: cheaper than sharing a table between states. */
	struct link l[PORES][LINKS_MAX];
	int nl[PORES];
	for (int a = 0; a < PORES; a++)
		nl[a] = links_of(a, l[a]);
	double wsum = max_weight_sum();
	double k = s->cfg.permeability * s->cfg.capillary;
	int sub = (int)ceil(dt * k * wsum / 0.45);
	if (sub < 1)
		sub = 1;
	double kdt = k * dt / sub;
	for (int i = 0; i < sub; i++) {
		box_add(s, s->wx0 > 0 ? s->wx0 - 1 : 0, s->wy0 > 0 ? s->wy0 - 1 : 0);
		box_add(s, s->wx1 + 1 < s->width ? s->wx1 + 1 : s->wx1,
			s->wy1 + 1 < s->height ? s->wy1 + 1 : s->wy1);
		darcy_once(s, kdt, l, nl);
	}
}

void sph_dry(struct sph *s, double dt)
{
	if (s->wx1 < s->wx0 || s->cfg.dry_rate <= 0)
		return;
	double k = s->cfg.dry_rate * dt;
	for (int y = s->wy0; y <= s->wy1; y++)
		for (int x = s->wx0; x <= s->wx1; x++)
			for (int a = 0; a < PORES; a++) {
				int32_t *q = &s->water[((size_t)y * (size_t)s->width + (size_t)x) * PORES +
						       (size_t)a];
				/* Rounded up so a last drop dries too. */
				int32_t d = (int32_t)ceil(k * (double)*q);
				if (d > *q)
					d = *q;
				*q -= d;
				s->books.water_dried += d;
			}
}

void sph_wetness_layer(const struct sph *s, struct world *w)
{
	if (s->wx1 < s->wx0)
		return;
	for (int y = s->wy0; y <= s->wy1; y++)
		for (int x = s->wx0; x <= s->wx1; x++)
			*world_at(w->layer[LAYER_WETNESS], w, x, y) = (float)sph_saturation(s, x, y);
}

/* The water on each cell, for drawing and the pool columns, in height units
 * (spacing^3 a particle). A cell with water touching the ground counts all
 * the water over it; a cell whose water is all in the air (spray, drops
 * between bounces) counts SPH_SPRAY_SHARE of it, so it draws as a thin,
 * light film rather than as a pool. Rewritten whole each step (a memset of
 * the layer costs less than tracking what moved). */
void sph_water_layer(const struct sph *s, struct world *w)
{
	if (!s->draws_water)
		return;
	float *pool = w->layer[LAYER_POOL];
	size_t cells = world_cells(w);
	memset(pool, 0, cells * sizeof *pool);
	float depth = (float)(s->cfg.spacing * s->cfg.spacing * s->cfg.spacing / s->cfg.scale);
	/* Grounded water first, so a cell is positive exactly when some of its
	 * water touches the ground; the airborne water then adds to those and
	 * is held negative on the others until the last pass scales it. */
	for (int pass = 0; pass < 2; pass++)
		for (int i = 0; i < s->n; i++) {
			if ((s->p.grounded[i] != 0) != (pass == 0))
				continue;
			int cx = (int)s->p.x[i], cy = (int)s->p.y[i];
			if (cx < 0 || cy < 0 || cx >= s->width || cy >= s->height)
				continue;
			float *c = &pool[(size_t)cy * (size_t)s->width + (size_t)cx];
			*c += pass == 0 || *c > 0 ? depth : -depth;
		}
	for (size_t i = 0; i < cells; i++)
		if (pool[i] < 0)
			pool[i] *= -(float)SPH_SPRAY_SHARE;
}
