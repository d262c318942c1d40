/* The seed's algorithms as the seed does them (see seedref.h). Written from
 * the articles' text and code snippets and DESIGN.md, not from any copy of
 * their repositories, with one fact the hydrology article does not print:
 * its code's c_eq has no volume factor (read in the seed's public
 * repository; bench/FIDELITY.md, "The seed's own code"). Float where the
 * articles' particle is float (its position, speed and the normal are
 * glm::vec2/vec3), double where the maps are. */
#include "seedref.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void seedref_erosion_defaults(struct seedref_erosion_params *p)
{
	*p = (struct seedref_erosion_params){
		.dt = 1.2, .density = 1.0, .friction = 0.05, .deposition = 0.1,
		.evap = 0.001, .min_volume = 0.01, .scale = 60.0,
	};
}

void seedref_hydrology_defaults(struct seedref_hydrology_params *p)
{
	*p = (struct seedref_hydrology_params){
		.dt = 1.2, .density = 1.0, .friction = 0.1, .deposition = 0.08,
		.evap = 0.001, .min_volume = 0.01, .scale = 40.0,
		.volume_factor = 100.0, .drainage = 0.001, .lrate = 0.01,
		.stop_stream = 0.3, .stop_accel = 0.01, .spill = 5, .frame = 250,
		.trees = 1,
	};
}

/* ---- SimpleErosion ----------------------------------------------------- */

struct emap {
	double *h;
	int w, hh;
};

/* Outside the map: as high as the nearest cell on it. */
static double eh(const struct emap *m, int x, int y)
{
	x = x < 0 ? 0 : x >= m->w ? m->w - 1 : x;
	y = y < 0 ? 0 : y >= m->hh ? m->hh - 1 : y;
	return m->h[(size_t)y * (size_t)m->w + (size_t)x];
}

/* The particles article's normal: four axis terms of weight 0.15 and four
 * diagonal ones of weight 0.1, each a normalised (slope, 1, slope); the
 * diagonals' slopes all carry a + sign (the seed's bias toward +x+y). */
static void erosion_normal(const struct emap *m, int x, int y, float s, float n[3])
{
	const double c = eh(m, x, y);
	const float r2 = 1.41421356237f;
	static const int ax[4][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}};
	static const int dg[4][2] = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
	n[0] = n[1] = n[2] = 0.0f;
	for (int k = 0; k < 4; k++) {
		float a = s * (float)(c - eh(m, x + ax[k][0], y + ax[k][1]));
		float v[3] = {a * (float)ax[k][0], 1.0f, a * (float)ax[k][1]};
		float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
		for (int i = 0; i < 3; i++)
			n[i] += 0.15f * v[i] / len;
	}
	for (int k = 0; k < 4; k++) {
		float a = s * (float)(c - eh(m, x + dg[k][0], y + dg[k][1]));
		float v[3] = {a / r2, r2, a / r2};
		float len = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
		for (int i = 0; i < 3; i++)
			n[i] += 0.1f * v[i] / len;
	}
}

int seedref_erosion(float *height, int width, int height_, uint64_t droplets, unsigned seed,
		    const struct seedref_erosion_params *p, struct seedref_counts *c)
{
	size_t n = (size_t)width * (size_t)height_;
	struct emap m = {malloc(n * sizeof(double)), width, height_};
	if (!m.h)
		return -1;
	for (size_t i = 0; i < n; i++)
		m.h[i] = height[i];
	memset(c, 0, sizeof *c);
	srand(seed);
	const float dt = (float)p->dt;
	for (uint64_t d = 0; d < droplets; d++) {
		float px = (float)(rand() % width), py = (float)(rand() % height_);
		float vx = 0, vy = 0, volume = 1.0f, sediment = 0.0f;
		while (volume > p->min_volume) {
			int ix = (int)px, iy = (int)py;
			float nrm[3];
			erosion_normal(&m, ix, iy, (float)p->scale, nrm);
			vx += dt * nrm[0] / (volume * (float)p->density);
			vy += dt * nrm[2] / (volume * (float)p->density);
			px += dt * vx;
			py += dt * vy;
			vx *= 1.0f - dt * (float)p->friction;
			vy *= 1.0f - dt * (float)p->friction;
			c->steps++;
			if (!(px >= 0 && py >= 0 && px < (float)width && py < (float)height_))
				break;
			double *here = &m.h[(size_t)iy * (size_t)width + (size_t)ix];
			double there = m.h[(size_t)(int)py * (size_t)width + (size_t)(int)px];
			float c_eq = volume * sqrtf(vx * vx + vy * vy) * (float)(*here - there);
			if (c_eq < 0.0f)
				c_eq = 0.0f;
			float cdiff = c_eq - sediment;
			sediment += dt * (float)p->deposition * cdiff;
			*here -= dt * volume * (float)p->deposition * cdiff;
			volume *= 1.0f - dt * (float)p->evap;
		}
	}
	for (size_t i = 0; i < n; i++)
		height[i] = (float)m.h[i];
	free(m.h);
	return 0;
}

/* ---- SimpleHydrology 2020 ---------------------------------------------- */

/* The maps, x-major as the seed keeps them: index x*dy + y. */
struct hworld {
	int dx, dy;
	double *h, *pool, *stream, *plant;
	bool *track, *tried;
	int *set;
	size_t nset;
	/* the fill's state (the seed's lambda captures these) */
	double plane, initial;
	int drain;
	bool drainfound;
	int *trees;
	size_t ntrees, cap;
	const struct seedref_hydrology_params *p;
	struct seedref_counts *c;
};

/* Height difference to a neighbour, found as the seed finds it: by adding
 * to the x-major index, with no bounds test. A y neighbour past the map's
 * first or last row is thus the far row of the next (or previous) column;
 * an x neighbour past the first or last column is outside the array, where
 * this copy takes the cell's own height (the seed reads whatever lies
 * there). The wrap matters: on seed 12345 the far row of the next column is
 * higher than the valleys that reach y = 0 and y = 255, and pushes droplets
 * back, which is how the seed's two big edge lakes form. */
static double hdiff(const struct hworld *W, int x, int y, int ddx, int ddy)
{
	const long i = (long)x * W->dy + y, j = i + (long)ddx * W->dy + ddy;
	if (j < 0 || j >= (long)W->dx * W->dy)
		return 0.0;
	return W->h[j] - W->h[i];
}

/* The 2020 normal: the normalised sum of four cross products of the edge
 * vectors to the four axis neighbours, (0, s dh(+y), 1) x (1, s dh(+x), 0)
 * and its three turns. glm::vec3 is float. */
static void cross3(const float a[3], const float b[3], float o[3])
{
	o[0] = a[1] * b[2] - a[2] * b[1];
	o[1] = a[2] * b[0] - a[0] * b[2];
	o[2] = a[0] * b[1] - a[1] * b[0];
}

static void normal2020(const struct hworld *W, int x, int y, float n[3])
{
	const float s = (float)W->p->scale;
	const float px = s * (float)hdiff(W, x, y, 1, 0), mx = s * (float)hdiff(W, x, y, -1, 0);
	const float py = s * (float)hdiff(W, x, y, 0, 1), my = s * (float)hdiff(W, x, y, 0, -1);
	const float v[4][2][3] = {
		{{0, py, 1}, {1, px, 0}},
		{{0, my, -1}, {-1, mx, 0}},
		{{1, px, 0}, {0, my, -1}},
		{{-1, mx, 0}, {0, py, 1}},
	};
	n[0] = n[1] = n[2] = 0;
	for (int k = 0; k < 4; k++) {
		float o[3];
		cross3(v[k][0], v[k][1], o);
		n[0] += o[0];
		n[1] += o[1];
		n[2] += o[2];
	}
	float len = sqrtf(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
	n[0] /= len;
	n[1] /= len;
	n[2] /= len;
}

struct sdrop {
	float px, py, vx, vy;
	double volume, sediment;
};

static void descend(struct hworld *W, struct sdrop *d)
{
	const struct seedref_hydrology_params *p = W->p;
	const float dt = (float)p->dt;
	while (d->volume > p->min_volume) {
		int ix = (int)d->px, iy = (int)d->py;
		int ind = ix * W->dy + iy;
		W->track[ind] = true;
		float n[3];
		normal2020(W, ix, iy, n);
		double effD = p->deposition * fmax(0.0, 1.0 - W->plant[ind]);
		double effF = p->friction * (1.0 - 0.5 * W->stream[ind]);
		double effR = p->evap * (1.0 - 0.2 * W->stream[ind]);
		float ax = n[0] / (float)(d->volume * p->density);
		float ay = n[2] / (float)(d->volume * p->density);
		d->vx += dt * ax;
		d->vy += dt * ay;
		d->px += dt * d->vx;
		d->py += dt * d->vy;
		d->vx *= (float)(1.0 - p->dt * effF);
		d->vy *= (float)(1.0 - p->dt * effF);
		W->c->steps++;
		if (!(d->px >= 0 && d->py >= 0) || (int)d->px >= W->dx || (int)d->py >= W->dy) {
			d->volume = 0.0;
			break;
		}
		int nind = (int)d->px * W->dy + (int)d->py;
		if (W->stream[nind] > p->stop_stream && sqrtf(ax * ax + ay * ay) < p->stop_accel)
			break;
		if (W->pool[nind] > 0.0)
			break;
		double speed = sqrtf(d->vx * d->vx + d->vy * d->vy);
		const double cap = p->capacity_volume ? d->volume : 1.0;
		double c_eq = fmax(0.0, cap * speed * (W->h[ind] - W->h[nind]));
		double cdiff = c_eq - d->sediment;
		d->sediment += p->dt * effD * cdiff;
		W->h[ind] -= d->volume * p->dt * effD * cdiff;
		d->sediment /= 1.0 - p->dt * effR;
		d->volume *= 1.0 - p->dt * effR;
	}
}

static double surf(const struct hworld *W, int i)
{
	return W->h[i] + W->pool[i];
}

/* The seed's recursive eight-way fill, its bounds test as the seed has it:
 * i / dy must be a column of the map and i % dy a row, so i + 1 from the
 * last row is the first row of the next column. */
static void fill(struct hworld *W, int i)
{
	if (i / W->dy >= W->dx || i / W->dy < 0)
		return;
	if (i % W->dy >= W->dy || i % W->dy < 0)
		return;
	if (W->tried[i])
		return;
	W->tried[i] = true;
	if (W->plane < surf(W, i))
		return;
	if (W->initial > surf(W, i)) {
		if (!W->drainfound || surf(W, W->drain) < surf(W, i))
			W->drain = i;
		/* The seed keeps the higher of two leaks here ("lower drain" in
		 * its comment, `<` in its test); so does this copy. */
		W->drainfound = true;
		return;
	}
	W->set[W->nset++] = i;
	const int dy = W->dy;
	fill(W, i + dy);
	fill(W, i - dy);
	fill(W, i + 1);
	fill(W, i - 1);
	fill(W, i + dy + 1);
	fill(W, i - dy - 1);
	fill(W, i + dy - 1);
	fill(W, i - dy + 1);
}

static void flood(struct hworld *W, struct sdrop *d)
{
	const struct seedref_hydrology_params *p = W->p;
	const size_t ncells = (size_t)W->dx * (size_t)W->dy;
	int index = (int)d->px * W->dy + (int)d->py;
	W->plane = surf(W, index);
	W->initial = W->plane;
	int fail = 10;
	W->c->floods++;
	while (d->volume > p->min_volume && fail) {
		W->nset = 0;
		memset(W->tried, 0, ncells * sizeof *W->tried);
		W->drainfound = false;
		W->drain = 0;
		fill(W, index);
		W->c->fills++;
		W->c->fill_cells += W->nset;
		if (W->drainfound) {
			d->px = (float)(W->drain / W->dy);
			d->py = (float)(W->drain % W->dy);
			double plane = (1.0 - p->drainage) * W->initial + p->drainage * surf(W, W->drain);
			for (size_t k = 0; k < W->nset; k++) {
				int s = W->set[k];
				W->pool[s] = plane > W->h[s] ? plane - W->h[s] : 0.0;
			}
			d->sediment *= 0.1;
			break;
		}
		double tvol = 0.0;
		for (size_t k = 0; k < W->nset; k++)
			tvol += p->volume_factor * (W->plane - surf(W, W->set[k]));
		if (tvol <= d->volume && W->initial < W->plane) {
			for (size_t k = 0; k < W->nset; k++)
				W->pool[W->set[k]] = W->plane - W->h[W->set[k]];
			d->volume -= tvol;
			tvol = 0.0;
		} else {
			fail--;
		}
		W->initial = W->plane > W->initial ? W->plane : W->initial;
		W->plane += 0.5 * (d->volume - tvol) / (double)W->nset / p->volume_factor;
	}
	if (fail == 0)
		d->volume = 0.0;
}

/* ---- trees (DESIGN.md 3.2; the seed's grow()) --------------------------- */

static void root(struct hworld *W, int cell, double sign)
{
	int x = cell / W->dy, y = cell % W->dy;
	for (int a = -1; a <= 1; a++)
		for (int b = -1; b <= 1; b++) {
			int nx = x + a, ny = y + b;
			if (nx < 0 || ny < 0 || nx >= W->dx || ny >= W->dy)
				continue;
			double v = a == 0 && b == 0 ? 1.0 : a == 0 || b == 0 ? 0.6 : 0.4;
			W->plant[nx * W->dy + ny] += sign * v;
		}
}

static bool tree_fits(const struct hworld *W, int cell)
{
	float n[3];
	normal2020(W, cell / W->dy, cell % W->dy, n);
	return W->pool[cell] == 0.0 && W->stream[cell] < 0.2 && n[1] > 0.8f;
}

static int tree_add(struct hworld *W, int cell)
{
	if (W->ntrees == W->cap) {
		size_t cap = W->cap ? 2 * W->cap : 256;
		int *t = realloc(W->trees, cap * sizeof *t);
		if (!t)
			return -1;
		W->trees = t;
		W->cap = cap;
	}
	W->trees[W->ntrees++] = cell;
	root(W, cell, 1.0);
	return 0;
}

static int grow(struct hworld *W)
{
	int cell = rand() % (W->dx * W->dy);
	if (tree_fits(W, cell) && tree_add(W, cell))
		return -1;
	for (size_t i = 0; i < W->ntrees; i++) {
		if (rand() % 50 == 0) {
			int x = W->trees[i] / W->dy + rand() % 9 - 4;
			int y = W->trees[i] % W->dy + rand() % 9 - 4;
			if (x >= 0 && x < W->dx && y >= 0 && y < W->dy) {
				int nc = x * W->dy + y;
				if (tree_fits(W, nc) && (double)(rand() % 1000) / 1000.0 > W->plant[nc] &&
				    tree_add(W, nc))
					return -1;
			}
		}
		int t = W->trees[i];
		if (W->pool[t] > 0.0 || W->stream[t] > 0.2 || rand() % 1000 == 0) {
			root(W, t, -1.0);
			W->trees[i] = W->trees[--W->ntrees];
			i--;
		}
	}
	return 0;
}

/* ---- the run -------------------------------------------------------------- */

static void hworld_free(struct hworld *W)
{
	free(W->h);
	free(W->pool);
	free(W->stream);
	free(W->plant);
	free(W->track);
	free(W->tried);
	free(W->set);
	free(W->trees);
}

static void droplet(struct hworld *W)
{
	struct sdrop d = {(float)(rand() % W->dx), (float)(rand() % W->dy), 0, 0, 1.0, 0.0};
	for (int spill = W->p->spill; d.volume > W->p->min_volume && spill != 0; spill--) {
		descend(W, &d);
		if (d.volume > W->p->min_volume)
			flood(W, &d);
	}
}

int seedref_hydrology(float *height, float *pool, float *stream, int width, int height_,
		      uint64_t droplets, unsigned seed, const struct seedref_hydrology_params *p,
		      struct seedref_counts *c)
{
	const size_t n = (size_t)width * (size_t)height_;
	struct hworld W = {.dx = width, .dy = height_, .p = p, .c = c};
	W.h = malloc(n * sizeof(double));
	W.pool = calloc(n, sizeof(double));
	W.stream = calloc(n, sizeof(double));
	W.plant = calloc(n, sizeof(double));
	W.track = calloc(n, sizeof(bool));
	W.tried = calloc(n, sizeof(bool));
	W.set = malloc(n * sizeof(int));
	if (!W.h || !W.pool || !W.stream || !W.plant || !W.track || !W.tried || !W.set) {
		hworld_free(&W);
		return -1;
	}
	for (int y = 0; y < height_; y++)
		for (int x = 0; x < width; x++) {
			W.h[x * height_ + y] = height[(size_t)y * (size_t)width + (size_t)x];
			W.pool[x * height_ + y] = pool[(size_t)y * (size_t)width + (size_t)x];
		}
	memset(c, 0, sizeof *c);
	srand(seed);
	int err = 0;
	for (uint64_t done = 0; done < droplets && !err;) {
		memset(W.track, 0, n * sizeof(bool));
		for (int k = 0; k < p->frame && done < droplets; k++, done++)
			droplet(&W);
		for (size_t i = 0; i < n; i++)
			W.stream[i] = (1.0 - p->lrate) * W.stream[i] + p->lrate * (W.track[i] ? 1.0 : 0.0);
		if (p->trees)
			err = grow(&W);
	}
	c->trees = W.ntrees;
	for (int y = 0; y < height_; y++)
		for (int x = 0; x < width; x++) {
			size_t g = (size_t)y * (size_t)width + (size_t)x;
			height[g] = (float)W.h[x * height_ + y];
			pool[g] = (float)W.pool[x * height_ + y];
			if (stream)
				stream[g] = (float)W.stream[x * height_ + y];
		}
	hworld_free(&W);
	return err;
}
