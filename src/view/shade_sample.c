/* What each pixel of a frame stands for in the world: the cells it covers,
 * the exact sample of a block (shade_sample_block) and the renderer's fast
 * one (means on a sampled grid, water maxima along cross-hatched lines). */
#include "view/shade_sample.h"

#include <math.h>
#include <stdbool.h>
#include <stddef.h>

/* The half-open range of world cells pixel p covers along one axis. */
void shade_cover(const struct shade_geom *g, int origin, int p, int limit, int *a, int *b)
{
	*a = origin + (int)floor(p * g->cpp + 1e-9);
	*b = origin + (int)floor((p + 1) * g->cpp + 1e-9);
	if (*b <= *a)
		*b = *a + 1;
	if (*a >= limit)
		*a = limit - 1;
	if (*b > limit)
		*b = limit;
}

void shade_sample_block(const struct world *w, int x0, int y0, int x1, int y1,
			struct shade_sample *s)
{
	if (x0 < 0)
		x0 = 0;
	if (y0 < 0)
		y0 = 0;
	if (x1 > w->width)
		x1 = w->width;
	if (y1 > w->height)
		y1 = w->height;
	if (x0 >= w->width)
		x0 = w->width - 1;
	if (y0 >= w->height)
		y0 = w->height - 1;
	if (x1 <= x0)
		x1 = x0 + 1;
	if (y1 <= y0)
		y1 = y0 + 1;
	double sh = 0, sb = 0, shd = 0, sw = 0, sv = 0;
	float mst = 0, mpo = 0;
	const float *H = w->layer[LAYER_HEIGHT], *B = w->layer[LAYER_BASE];
	const float *ST = w->layer[LAYER_STREAM], *PO = w->layer[LAYER_POOL];
	const float *HD = w->layer[LAYER_HARDNESS], *WE = w->layer[LAYER_WETNESS];
	const float *VE = w->layer[LAYER_VEGETATION];
	for (int y = y0; y < y1; y++) {
		size_t row = (size_t)y * (size_t)w->width;
		for (int x = x0; x < x1; x++) {
			size_t i = row + (size_t)x;
			sh += H[i];
			sb += B[i];
			shd += HD[i];
			sw += WE[i];
			sv += VE[i];
			if (ST[i] > mst)
				mst = ST[i];
			if (PO[i] > mpo)
				mpo = PO[i];
		}
	}
	double n = (double)(x1 - x0) * (double)(y1 - y0);
	s->height = (float)(sh / n);
	s->base = (float)(sb / n);
	s->hardness = (float)(shd / n);
	s->wetness = (float)(sw / n);
	s->vegetation = (float)(sv / n);
	s->stream = mst;
	s->pool = mpo;
	s->ramp = s->height;
}

/* What the overlays need besides height. */
enum { NEED_BASE = 1, NEED_STREAM = 2, NEED_POOL = 4, NEED_HARD = 8, NEED_WET = 16, NEED_VEG = 32 };

/* Cells a pixel's means sample at most along each axis: beyond this a big
 * map's frame would cost more than the 25 ms slice it sits between. */
#define MEAN_SAMPLES 12

/* Lines a pixel's water maximum scans at most each way. */
#define MAX_LINES 6

/* The water maximum of every pixel of a pixel row (cells ya to yb): each
 * block read along every sy-th row and every sx-th column in full. Any
 * connected stream or pool reaching across more than a stride of a block
 * crosses one of those lines, so only specks smaller than a stride both ways
 * (a fraction of a pixel) can be missed, at a fraction of a full scan's cost
 * on a big map. The cells are read map row by map row for all the pixels at
 * once, so one row's cache lines serve every pixel instead of each cell of a
 * column costing a line of its own (on a 4096x4096 map the columns were most
 * of a frame), and a sampled row is read where its columns' cells already
 * are. Neither the start at 0 nor the order the cells are read changes a
 * maximum. A block up to MAX_LINES rows high has every row read in full. */
static void water_maxima(const float *L, const struct world *w, const struct shade_geom *g,
			 int ya, int yb, float *out)
{
	const int sy = (yb - ya + MAX_LINES - 1) / MAX_LINES, first = ya + (sy - 1) / 2;
	for (int px = 0; px < g->used_w; px++)
		out[px] = 0;
	for (int y = ya; y < yb; y++) {
		const float *row = L + (size_t)y * (size_t)w->width;
		const bool full = y >= first && (y - first) % sy == 0;
		for (int px = 0; px < g->used_w; px++) {
			int xa, xb;
			shade_cover(g, g->x0, px, w->width, &xa, &xb);
			const int sx = full ? 1 : (xb - xa + MAX_LINES - 1) / MAX_LINES;
			float m = out[px];
			for (int x = full ? xa : xa + (sx - 1) / 2; x < xb; x += sx)
				if (row[x] > m)
					m = row[x];
			out[px] = m;
		}
	}
}

/* The renderer's reduction: means over a regular grid of at most
 * MEAN_SAMPLES^2 cells, the water maxima water_maxima found, and only the
 * layers the overlays show. */
static void sample_fast(const struct world *w, int x0, int y0, int x1, int y1, unsigned need,
			const float *R, const float water[2], struct shade_sample *s)
{
	int sx = (x1 - x0 + MEAN_SAMPLES - 1) / MEAN_SAMPLES;
	int sy = (y1 - y0 + MEAN_SAMPLES - 1) / MEAN_SAMPLES;
	if (sx < 1)
		sx = 1;
	if (sy < 1)
		sy = 1;
	const float *H = w->layer[LAYER_HEIGHT], *B = w->layer[LAYER_BASE];
	const float *HD = w->layer[LAYER_HARDNESS], *WE = w->layer[LAYER_WETNESS];
	const float *VE = w->layer[LAYER_VEGETATION];
	double sh = 0, sb = 0, shd = 0, sw = 0, sv = 0, sr = 0;
	long n = 0;
	/* The grid is centred on the block, so the sampled mean of a slope is
	 * within half a stride of the true one. */
	int cx = (x1 - x0 + sx - 1) / sx, cy = (y1 - y0 + sy - 1) / sy;
	int fx = x0 + (x1 - x0 - 1 - (cx - 1) * sx) / 2, fy = y0 + (y1 - y0 - 1 - (cy - 1) * sy) / 2;
	for (int y = fy; y < y1; y += sy) {
		size_t row = (size_t)y * (size_t)w->width;
		for (int x = fx; x < x1; x += sx) {
			size_t i = row + (size_t)x;
			sh += H[i];
			if (need & NEED_BASE)
				sb += B[i];
			if (need & NEED_HARD)
				shd += HD[i];
			if (need & NEED_WET)
				sw += WE[i];
			if (need & NEED_VEG)
				sv += VE[i];
			if (R)
				sr += R[i];
			n++;
		}
	}
	s->height = (float)(sh / (double)n);
	s->base = (need & NEED_BASE) ? (float)(sb / (double)n) : s->height;
	s->hardness = (float)(shd / (double)n);
	s->wetness = (float)(sw / (double)n);
	s->vegetation = (float)(sv / (double)n);
	s->ramp = R ? (float)(sr / (double)n) : s->height;
	s->stream = (need & NEED_STREAM) ? water[0] : 0;
	s->pool = (need & NEED_POOL) ? water[1] : 0;
}

/* The layers the overlays in `ov` read, beyond the height: one entry an
 * overlay (the particles overlay reads none). */
static unsigned overlay_needs(unsigned ov)
{
	static const unsigned needs[OVERLAY_COUNT] = {
		[OVERLAY_STREAMS] = NEED_STREAM, [OVERLAY_POOLS] = NEED_POOL,
		[OVERLAY_EROSION] = NEED_BASE,   [OVERLAY_HARDNESS] = NEED_HARD,
		[OVERLAY_WETNESS] = NEED_WET,    [OVERLAY_VEGETATION] = NEED_VEG,
	};
	unsigned need = 0;
	for (int o = 0; o < OVERLAY_COUNT; o++)
		if (ov & OVERLAY_BIT(o))
			need |= needs[o];
	return need;
}

/* Each pixel's sample of the cells it covers; pixels past the map blank. */
void shade_sample_pixels(struct shade_frame *f, const struct world *w,
			 const struct shade_view *v)
{
	const unsigned need = overlay_needs(v->overlays);
	const struct shade_geom *g = &f->geom;
	int pw = f->width;
	float *cols = f->colmax;
	for (int py = 0; py < f->height; py++) {
		int ya = 0, yb = 0;
		if (py < g->used_h) {
			shade_cover(g, g->y0, py, w->height, &ya, &yb);
			for (int k = 0; k < 2; k++)
				if (need & (k ? NEED_POOL : NEED_STREAM))
					water_maxima(w->layer[k ? LAYER_POOL : LAYER_STREAM], w, g,
						     ya, yb, cols + (size_t)k * (size_t)pw);
		}
		for (int px = 0; px < pw; px++) {
			size_t i = (size_t)py * (size_t)pw + (size_t)px;
			if (px >= g->used_w || py >= g->used_h) {
				f->blank[i] = 1;
				continue;
			}
			f->blank[i] = 0;
			int xa, xb;
			shade_cover(g, g->x0, px, w->width, &xa, &xb);
			const float c[2] = {cols[px], cols[(size_t)pw + (size_t)px]};
			sample_fast(w, xa, ya, xb, yb, need, v->ramp_layer, c, &f->samples[i]);
		}
	}
}
