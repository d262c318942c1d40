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

#define PORES SPH_PORES

static const double sub_x[PORES] = {0.5, 0.25, 0.75, 0.25, 0.75};
static const double sub_y[PORES] = {0.5, 0.25, 0.25, 0.75, 0.75};

/* Links from sub-position a: every other porous particle within one cell. */
static int links_of(int a, struct sph_link *out)
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
					out[n++] = (struct sph_link){dx, dy, k, (1 - r) * (1 - r)};
			}
	return n;
}

static double max_weight_sum(void)
{
	struct sph_link l[SPH_LINKS_MAX];
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
	s->pristine = true;
	for (size_t i = 0; i < cells && s->draws_water; i++)
		s->draws_water = w->layer[LAYER_POOL][i] == 0;
	double pore = s->cfg.porosity * s->cfg.soil_depth / PORES; /* cells^3 */
	double vol = s->cfg.spacing * s->cfg.spacing * s->cfg.spacing;
	double q = pore / vol * (double)SPH_WATER_QUANTA;
	s->capacity_q = (int32_t)(q < 2e9 ? q : 2e9);
	if (s->capacity_q < PORES)
		s->capacity_q = PORES;
	s->wet = s->layer = s->pool = (struct sph_box){0, 0, -1, -1};
	return GULLY_OK;
}

static double saturation_in(const struct sph *s, const int32_t *water, int cx, int cy)
{
	const int32_t *q = water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	int64_t sum = 0;
	for (int k = 0; k < PORES; k++)
		sum += q[k];
	return (double)sum / ((double)s->capacity_q * PORES);
}

double sph_saturation(const struct sph *s, int cx, int cy)
{
	if (cx < 0 || cy < 0 || cx >= s->width || cy >= s->height)
		return 0;
	return saturation_in(s, s->water, cx, cy);
}

int64_t sph_soil_room(const struct sph *s, int cx, int cy)
{
	const int32_t *q = s->water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	int64_t room = 0;
	for (int k = 0; k < PORES; k++)
		room += s->capacity_q - q[k];
	return room;
}

static void box_add(struct sph_box *b, int cx, int cy)
{
	if (b->x1 < b->x0) {
		*b = (struct sph_box){cx, cy, cx, cy};
		return;
	}
	if (cx < b->x0)
		b->x0 = cx;
	if (cx > b->x1)
		b->x1 = cx;
	if (cy < b->y0)
		b->y0 = cy;
	if (cy > b->y1)
		b->y1 = cy;
}

void sph_box_join(struct sph_box *b, const struct sph_box *c)
{
	if (c->x1 < c->x0)
		return;
	box_add(b, c->x0, c->y0);
	box_add(b, c->x1, c->y1);
}

/* Equal shares, each capped at its room, the rest passed on: q must fit. */
void sph_soil_give(struct sph *s, int cx, int cy, int64_t q)
{
	s->pristine = false;
	int32_t *w = s->water + ((size_t)cy * (size_t)s->width + (size_t)cx) * PORES;
	for (int pass = 0; pass < 2 && q > 0; pass++)
		for (int k = 0; k < PORES && q > 0; k++) {
			int64_t share = pass == 0 ? q / (PORES - k) : q;
			int64_t room = s->capacity_q - w[k];
			int64_t put = share < room ? share : room;
			w[k] += (int32_t)put;
			q -= put;
		}
	box_add(&s->wet, cx, cy);
	s->wstamp[(size_t)cy * (size_t)s->width + (size_t)cx] = s->epoch;
}

int64_t sph_water_in_soil(const struct sph *s)
{
	int64_t sum = 0;
	if (s->wet.x1 < s->wet.x0)
		return 0;
	for (int y = s->wet.y0; y <= s->wet.y1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			for (int k = 0; k < PORES; k++)
				sum += s->water[((size_t)y * (size_t)s->width + (size_t)x) * PORES + (size_t)k];
	return sum;
}

static void grow_box(struct sph *s)
{
	struct sph_box *b = &s->wet;
	box_add(b, b->x0 > 0 ? b->x0 - 1 : 0, b->y0 > 0 ? b->y0 - 1 : 0);
	box_add(b, b->x1 + 1 < s->width ? b->x1 + 1 : b->x1,
		b->y1 + 1 < s->height ? b->y1 + 1 : b->y1);
}

void sph_soil_plan(struct sph *s, double dt, bool wetting, struct sph_soil_step *st)
{
	memset(st, 0, sizeof *st);
	if (s->wet.x1 < s->wet.x0)
		return;
	st->dry = wetting && s->cfg.dry_rate > 0;
	st->dry_k = s->cfg.dry_rate * dt;
	if (!wetting || s->cfg.permeability <= 0)
		return;
	/* A few hundred flops: cheaper than sharing a table between states. */
	for (int a = 0; a < PORES; a++)
		st->nl[a] = links_of(a, st->link[a]);
	double wsum = max_weight_sum();
	double k = s->cfg.permeability * s->cfg.capillary;
	int sub = (int)ceil(dt * k * wsum / 0.45);
	st->substeps = sub < 1 ? 1 : sub;
	st->kdt = k * dt / st->substeps;
	for (int a = 0; a < PORES; a++)
		for (int i = 0; i < st->nl[a]; i++) {
			const struct sph_link *l = &st->link[a][i];
			st->kw[a][i] = st->kdt * l->w;
			st->off[a][i] = ((ptrdiff_t)l->dy * s->width + l->dx) * PORES + l->k - a;
		}
}

/* Before a substep's rows: water moves at most one cell a Darcy substep, so
 * the box grows by one; a substep that writes the wetness layer covers the
 * layer box too, to clear the cells that dried since the layer's last write
 * (zeros stay zeros under Darcy and drying). */
void sph_soil_open(struct sph *s, const struct sph_soil_step *st, bool layer)
{
	if (st->substeps)
		grow_box(s);
	if (layer)
		sph_box_join(&s->wet, &s->layer);
}

/* One pore's new water: the flux over each link is kdt w (q_b - q_a),
 * truncated. A cell on the map's rim checks each link's cell is on it. */
static inline __attribute__((always_inline)) int32_t
darcy_pore(const struct sph *s, const struct sph_soil_step *st, int x, int y, int a, const bool rim)
{
	const int32_t *q = s->water + ((size_t)y * (size_t)s->width + (size_t)x) * PORES + a;
	const int64_t qa = *q;
	int64_t sum = 0;
	for (int i = 0; i < st->nl[a]; i++) {
		if (rim) {
			int bx = x + st->link[a][i].dx, by = y + st->link[a][i].dy;
			if (bx < 0 || by < 0 || bx >= s->width || by >= s->height)
				continue;
		}
		sum += (int64_t)(st->kw[a][i] * (double)(q[st->off[a][i]] - qa));
	}
	return (int32_t)(qa + sum);
}

/* One Jacobi sweep of rows y0..y1-1 of the box from water into water_next. */
static void darcy_rows(struct sph *s, const struct sph_soil_step *st, int y0, int y1)
{
	for (int y = y0; y < y1; y++) {
		const bool rim_row = y == 0 || y + 1 == s->height;
		int32_t *next = s->water_next + (size_t)y * (size_t)s->width * PORES;
		for (int x = s->wet.x0; x <= s->wet.x1; x++) {
			int32_t *q = next + (size_t)x * PORES;
			/* Two copies of the pore's loop: the edge tests only on the rim. */
			if (rim_row || x == 0 || x + 1 == s->width)
				for (int a = 0; a < PORES; a++)
					q[a] = darcy_pore(s, st, x, y, a, true);
			else
				for (int a = 0; a < PORES; a++)
					q[a] = darcy_pore(s, st, x, y, a, false);
		}
	}
}

/* Drying, then the wetness layer, over rows y0..y1-1 of the box. */
static int64_t dry_rows(struct sph *s, int32_t *water, double k, int y0, int y1)
{
	int64_t dried = 0;
	for (int y = y0; y < y1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			for (int a = 0; a < PORES; a++) {
				int32_t *q = &water[((size_t)y * (size_t)s->width + (size_t)x) * PORES +
						    (size_t)a];
				/* Rounded up so a last drop dries too. */
				int32_t d = (int32_t)ceil(k * (double)*q);
				if (d > *q)
					d = *q;
				*q -= d;
				dried += d;
			}
	return dried;
}

static void wetness_rows(const struct sph *s, const int32_t *water, struct world *w, int y0,
			 int y1)
{
	for (int y = y0; y < y1; y++)
		for (int x = s->wet.x0; x <= s->wet.x1; x++)
			*world_at(w->layer[LAYER_WETNESS], w, x, y) =
				(float)saturation_in(s, water, x, y);
}

static bool cell_dry(const struct sph *s, const int32_t *water, int x, int y)
{
	const int32_t *q = water + ((size_t)y * (size_t)s->width + (size_t)x) * PORES;
	for (int k = 0; k < PORES; k++)
		if (q[k])
			return false;
	return true;
}

/* The box of the cells in rows y0..y1-1 that hold water. A row is read from
 * each end to its first wet cell, so a wet row costs only its dry margins. */
static void held_rows(const struct sph *s, const int32_t *water, int y0, int y1,
		      struct sph_box *held)
{
	*held = (struct sph_box){0, 0, -1, -1};
	for (int y = y0; y < y1; y++) {
		int x0 = s->wet.x0, x1 = s->wet.x1;
		while (x0 <= x1 && cell_dry(s, water, x0, y))
			x0++;
		if (x0 > x1)
			continue;
		while (cell_dry(s, water, x1, y))
			x1--;
		box_add(held, x0, y);
		box_add(held, x1, y);
	}
}

int64_t sph_soil_rows(struct sph *s, struct world *w, const struct sph_soil_step *st, bool last,
		      int y0, int y1, struct sph_box *held)
{
	int32_t *water = s->water;
	if (st->substeps) {
		darcy_rows(s, st, y0, y1);
		water = s->water_next;
	}
	if (!last)
		return 0;
	int64_t dried = st->dry ? dry_rows(s, water, st->dry_k, y0, y1) : 0;
	if (w)
		wetness_rows(s, water, w, y0, y1);
	if (held)
		held_rows(s, water, y0, y1, held);
	return dried;
}

/* Outside the box both buffers hold no water, so swapping them keeps the
 * whole map right (sph_load clears water_next for the same reason). */
void sph_soil_swap(struct sph *s, const struct sph_soil_step *st)
{
	if (!st->substeps)
		return;
	int32_t *t = s->water;
	s->water = s->water_next;
	s->water_next = t;
}

/* After the last substep's swap: the box becomes the cells that hold water.
 * The other buffer (the state before the substep) is cleared where the box
 * gives up cells, so that outside the box both buffers stay empty. */
void sph_soil_shrink(struct sph *s, const struct sph_box *held, bool layer)
{
	const struct sph_box *b = &s->wet;
	size_t cell = PORES * sizeof *s->water_next;
	for (int y = b->y0; y <= b->y1; y++) {
		int32_t *row = s->water_next + (size_t)y * (size_t)s->width * PORES;
		int keep0 = b->x1 + 1, keep1 = b->x1; /* the part of the row kept */
		if (held->x0 <= held->x1 && y >= held->y0 && y <= held->y1) {
			keep0 = held->x0;
			keep1 = held->x1;
		}
		if (keep0 > b->x0)
			memset(row + (size_t)b->x0 * PORES, 0, (size_t)(keep0 - b->x0) * cell);
		if (keep1 < b->x1)
			memset(row + (size_t)(keep1 + 1) * PORES, 0, (size_t)(b->x1 - keep1) * cell);
	}
	s->wet = *held;
	if (layer)
		s->layer = *held;
}

void sph_darcy(struct sph *s, double dt)
{
	struct sph_soil_step st;
	sph_soil_plan(s, dt, true, &st);
	for (int i = 0; i < st.substeps; i++) {
		grow_box(s);
		sph_soil_rows(s, NULL, &st, false, s->wet.y0, s->wet.y1 + 1, NULL);
		sph_soil_swap(s, &st);
	}
}

/* The soil ends with its process (another takes the map over): its water
 * dries, booked as dried as the particles' water is, and the wetness layer
 * is cleared where it may be non-zero, so the map shows no wet ground that
 * no process holds (a later sph soil starts dry; it could never clear the
 * old layer, outside its own box). Both buffers end empty. */
int64_t sph_soil_end(struct sph *s, struct world *w)
{
	int64_t held = sph_water_in_soil(s);
	struct sph_box b = s->wet;
	sph_box_join(&b, &s->layer);
	size_t cell = PORES * sizeof *s->water;
	for (int y = b.y0; y <= b.y1; y++) {
		size_t at = (size_t)y * (size_t)s->width + (size_t)b.x0, n = (size_t)(b.x1 - b.x0 + 1);
		memset(s->water + at * PORES, 0, n * cell);
		memset(s->water_next + at * PORES, 0, n * cell);
		memset(w->layer[LAYER_WETNESS] + at, 0, n * sizeof(float));
	}
	s->wet = s->layer = (struct sph_box){0, 0, -1, -1};
	s->books.water_dried += held;
	return held;
}
