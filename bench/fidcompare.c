#include "fidcompare.h"

#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

/* Cells of 8-connected pools touching the edge, counting only pools of at
 * least `min` cells. */
static int big_edge_lakes(const float *pool, int w, int h, size_t min, struct fid_run *r)
{
	size_t *count = &r->big_edge_lakes;
	size_t n = (size_t)w * (size_t)h;
	int32_t *stack = malloc(n * sizeof *stack);
	bool *seen = calloc(n, 1);
	*count = 0;
	if (!stack || !seen) {
		free(stack);
		free(seen);
		return -1;
	}
	for (size_t s = 0; s < n; s++) {
		if (seen[s] || !(pool[s] > 0))
			continue;
		size_t top = 0, size = 0;
		bool edge = false;
		stack[top++] = (int32_t)s;
		seen[s] = true;
		while (top) {
			int32_t c = stack[--top];
			int x = c % w, y = c / w;
			size++;
			edge = edge || x == 0 || y == 0 || x == w - 1 || y == h - 1;
			for (int dy = -1; dy <= 1; dy++)
				for (int dx = -1; dx <= 1; dx++) {
					int nx = x + dx, ny = y + dy;
					if (nx < 0 || ny < 0 || nx >= w || ny >= h)
						continue;
					size_t m = (size_t)ny * (size_t)w + (size_t)nx;
					if (!seen[m] && pool[m] > 0) {
						seen[m] = true;
						stack[top++] = (int32_t)m;
					}
				}
		}
		if (edge && size >= min)
			(*count)++;
		r->pools++;
		r->small_pools += size < 10;
	}
	free(stack);
	free(seen);
	return 0;
}

int fid_run_measure(const float *before, const float *after, const float *pool, int width,
		    int height, struct fid_run *r)
{
	size_t n = (size_t)width * (size_t)height;
	*r = (struct fid_run){0};
	for (size_t i = 0; i < n; i++) {
		double d = (double)after[i] - (double)before[i];
		if (d < 0)
			r->eroded -= d;
		else
			r->deposited += d;
		if (pool && pool[i] > 0) {
			int x = (int)(i % (size_t)width), y = (int)(i / (size_t)width);
			r->pool_cells++;
			r->pool_volume += pool[i];
			if (x == 0 || y == 0 || x == width - 1 || y == height - 1)
				r->edge_pool_cells++;
		}
	}
	if (pool)
		return big_edge_lakes(pool, width, height, 100, r);
	return 0;
}

static double correlation(const double *a, const double *b, size_t n)
{
	double ma = 0, mb = 0;
	for (size_t i = 0; i < n; i++) {
		ma += a[i];
		mb += b[i];
	}
	ma /= (double)n;
	mb /= (double)n;
	double sab = 0, saa = 0, sbb = 0;
	for (size_t i = 0; i < n; i++) {
		sab += (a[i] - ma) * (b[i] - mb);
		saa += (a[i] - ma) * (a[i] - ma);
		sbb += (b[i] - mb) * (b[i] - mb);
	}
	return saa > 0 && sbb > 0 ? sab / sqrt(saa * sbb) : 0.0;
}

/* Box blur of radius r, the window cut at the map's edge. */
static void blur(const double *in, double *out, int w, int h, int r)
{
	for (int y = 0; y < h; y++)
		for (int x = 0; x < w; x++) {
			double s = 0;
			int k = 0;
			for (int dy = -r; dy <= r; dy++)
				for (int dx = -r; dx <= r; dx++) {
					int nx = x + dx, ny = y + dy;
					if (nx < 0 || ny < 0 || nx >= w || ny >= h)
						continue;
					s += in[(size_t)ny * (size_t)w + (size_t)nx];
					k++;
				}
			out[(size_t)y * (size_t)w + (size_t)x] = s / k;
		}
}

int fid_pair_measure(const float *before, const float *after_a, const float *pool_a,
		     const float *after_b, const float *pool_b, int width, int height,
		     struct fid_pair *p)
{
	size_t n = (size_t)width * (size_t)height;
	if (n == 0)
		return -1;
	double *da = malloc(n * sizeof *da), *db = malloc(n * sizeof *db);
	double *ba = malloc(n * sizeof *ba), *bb = malloc(n * sizeof *bb);
	if (!da || !db || !ba || !bb) {
		free(da);
		free(db);
		free(ba);
		free(bb);
		return -1;
	}
	double ea = 0, eb = 0;
	size_t both = 0, either = 0;
	for (size_t i = 0; i < n; i++) {
		da[i] = (double)after_a[i] - (double)before[i];
		db[i] = (double)after_b[i] - (double)before[i];
		ea += da[i] < 0 ? -da[i] : 0;
		eb += db[i] < 0 ? -db[i] : 0;
		bool a = pool_a && pool_a[i] > 0, b = pool_b && pool_b[i] > 0;
		both += a && b;
		either += a || b;
	}
	p->corr = correlation(da, db, n);
	blur(da, ba, width, height, 3);
	blur(db, bb, width, height, 3);
	p->corr_blur = correlation(ba, bb, n);
	p->iou = either ? (double)both / (double)either : 1.0;
	p->eroded_ratio = eb > 0 ? ea / eb : 0.0;
	free(da);
	free(db);
	free(ba);
	free(bb);
	return 0;
}
